//! The validation pass: resolves every name in a [`RulesetSpec`] and builds the kernel's
//! [`Rules`]. Every problem is reported with its location; compilation goes on after an
//! error so one run lists them all.
//!
//! [`compile`] runs one function per section of the file, in the order below (a section
//! may use what an earlier one built; the diagnostics are shown sorted by file and line
//! whatever the order), each resolving names against the one `crate::names::NameTable`
//! built after the dice:
//!
//! 1. `board::compile_geometry` (geometry and facing arcs), `dice::compile_dice` (the
//!    dice and their face tags); then the `NameTable`;
//! 2. `types::compile_modes`, `types::compile_flags`; `board::compile_terrain`,
//!    `board::compile_features`, `board::compile_movement` (movement classes);
//!    `types::compile_stacking`, `types::compile_piece_types`;
//! 3. `movement::compile_zoc`, `movement::compile_open_table`;
//! 4. `charts::compile_chart` for each chart (adding the numeric dice a chart rolls);
//!    `checks::check_hooks`, `checks::check_action_count`;
//! 5. `actions::compile_counters` (after everything a trigger's effects may name),
//!    `states::compile_states` (which add flags and piece-type rules),
//!    `actions::compile_actions`;
//! 6. `sequence::compile_sequence` (and its initiative dice), `dice::add_common_dice`,
//!    `checks::check_not_negative`;
//! 7. sighting (`compile_sighting` here, over `crate::sighting`, which needs the
//!    sequence's phases, the charts and the piece types), `movement::compile_saving`,
//!    `movement::compile_spread`, the top-level flag and option lists (`pinned_by`,
//!    `may_move_*`), `types::add_company`, `crate::turning::compile_slowed_by`,
//!    `crate::company::compile_half_hexes`, `crate::victory::compile_victory`, and the
//!    private attribute, counter and flag lists.
//!
//! The cross-checks that build nothing (hook bindings, the action count, pursuits,
//! negative costs, held flags) are in `checks`; `compile_actions` calls the pursuit check
//! and `compile_states` the held-flag one.

use grognard_kernel::chart::ChartDef;
use grognard_kernel::geometry::open::Scale;
use grognard_kernel::knowledge::SightingRules;
use grognard_kernel::rules::{GeometryRules, PieceTypeDef, Rules, RulesetIdentity, Sequence};
use grognard_kernel::rules::{OptionDef, SettingDef};

pub(crate) use crate::cx::Cx;
use crate::diag::Diagnostics;
use crate::model::RulesetSpec;
use crate::names::{NameTable, kind};

mod actions;
mod bindings;
mod board;
mod charts;
mod checks;
mod dice;
mod distances;
mod footprint;
mod gates;
mod movement;
mod parse;
mod sequence;
mod states;
mod types;

pub(crate) use footprint::footprints;

pub use bindings::{HOOK_POINTS, split_binding};
use parse::{DiceUse, parse_dice, parse_range};

/// Most flags a ruleset may declare (they are kept as bits).
pub const MAX_FLAGS: usize = 64;
/// Most actions a ruleset may declare ("used this phase" is kept as bits).
pub const MAX_ACTIONS: usize = 64;

/// Compiles a decoded ruleset. `hash` is the content hash of the merged ruleset.
///
/// # Errors
/// Every dangling reference and out-of-range value, each with its location.
pub fn compile(spec: &RulesetSpec, hash: String) -> Result<Rules, Diagnostics> {
    let mut cx = Cx::new();
    let cx = &mut cx;
    if spec.ruleset.value.trim().is_empty() {
        cx.error(
            &spec.ruleset.location,
            "the ruleset needs a name: `ruleset: my-rules`",
        );
    }
    let (geometry, arcs) = board::compile_geometry(cx, spec);
    let (tags, mut dice, mut die_names) = dice::compile_dice(cx, spec);
    let names = NameTable::new(spec, tags);
    let modes = types::compile_modes(cx, spec, &names);
    let mut flags = types::compile_flags(cx, spec);
    let terrain = board::compile_terrain(cx, spec, &names);
    let features = board::compile_features(cx, spec, &names);
    let move_classes = board::compile_movement(cx, spec, &names);
    let stacking = types::compile_stacking(cx, spec, &names);
    let mut piece_types = types::compile_piece_types(cx, spec, &names, &stacking);
    let zoc = movement::compile_zoc(cx, spec, &names);
    let open_table = movement::compile_open_table(cx, spec, &names);
    let charts: Vec<ChartDef> = spec
        .charts
        .iter()
        .map(|c| {
            let (dice, die_names) = (&mut dice, &mut die_names);
            charts::compile_chart(cx, &c.name, &c.value, dice, die_names, &names)
        })
        .collect();
    checks::check_hooks(cx, spec, &names);
    checks::check_action_count(cx, spec);
    // Counters come after everything their trigger effects may name.
    let counters = actions::compile_counters(cx, spec, &names);
    states::compile_states(cx, spec, &names, &mut flags, &mut piece_types, &counters);
    let actions = actions::compile_actions(cx, spec, &names, &charts);
    let sequence = sequence::compile_sequence(cx, spec, &names, &mut dice, &mut die_names);
    dice::add_common_dice(&mut dice, &mut die_names);
    checks::check_not_negative(cx, spec);
    let sighting = compile_sighting(
        cx,
        spec,
        &names,
        &sequence,
        &piece_types,
        &charts,
        &geometry,
    );
    let saving = movement::compile_saving(cx, spec, &names);
    let spread = movement::compile_spread(cx, spec, &names);
    let pinned_by = names.ids(cx, kind::Flag, &spec.pinned_by);
    let may_move_flags = names.ids(cx, kind::Flag, &spec.may_move_flags);
    let may_move_options = names.ids(cx, kind::Optional, &spec.may_move_options);
    types::add_company(cx, spec, &names, &mut piece_types);
    let slowed_by = crate::turning::compile_slowed_by(cx, &names, &spec.slowed_by);
    let half_hexes = crate::company::compile_half_hexes(cx, &names, spec.half_hexes.as_ref());
    let victory = spec
        .victory
        .as_ref()
        .map(|v| crate::victory::compile_victory(cx, v, &names));
    // The kernel keeps these by plain index.
    let private_attributes = names.indices(cx, kind::PieceAttribute, &spec.private_attributes);
    let private_counters = names.indices(cx, kind::Counter, &spec.private_counters);
    let private_flags = names.indices(cx, kind::Flag, &spec.private_flags);
    std::mem::take(&mut cx.diags).into_result(())?;
    let interned = |list: &[&str]| {
        grognard_kernel::ids::Names::new(list.iter().map(|s| (*s).to_owned()).collect())
    };
    Ok(Rules {
        victory,
        identity: RulesetIdentity {
            name: spec.ruleset.value.clone(),
            hash,
        },
        geometry,
        arcs,
        open_table,
        modes,
        counters,
        piece_attributes: interned(&names.piece_attrs),
        private_attributes,
        private_counters,
        private_flags,
        flags,
        tags: interned(&names.tags),
        dice,
        terrain_attributes: interned(&names.terrain_attrs),
        terrain,
        features,
        move_classes,
        piece_types,
        stacking,
        zoc,
        sequence,
        charts,
        actions,
        settings: spec
            .settings
            .iter()
            .map(|s| SettingDef {
                name: s.name.value.clone(),
                default: s.value,
            })
            .collect(),
        options: spec
            .options
            .iter()
            .map(|o| OptionDef {
                name: o.name.value.clone(),
                default: o.value.default,
            })
            .collect(),
        sighting,
        saving,
        spread,
        pinned_by,
        slowed_by,
        may_move_flags,
        may_move_options,
        half_hexes,
    })
}

/// The open table's scale: rule distances times `scale_percent` (1 to 1000, default 100).
fn table_scale(spec: &RulesetSpec) -> Scale {
    Scale {
        num: spec.geometry.scale_percent.unwrap_or(100).clamp(1, 1000),
        den: 100,
    }
}

/// Hidden information (`sighting:`), whose spotting phases name phases of any sequence.
fn compile_sighting(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
    sequence: &Sequence,
    piece_types: &[PieceTypeDef],
    charts: &[ChartDef],
    geometry: &GeometryRules,
) -> Option<SightingRules> {
    let sight = spec.sighting.as_ref()?;
    let phases: Vec<String> = sequence
        .turn_start
        .iter()
        .chain(&sequence.side_turn)
        .chain(&sequence.turn_end)
        .chain(
            sequence
                .variants
                .iter()
                .flat_map(|v| v.turn_start.iter().chain(&v.side_turn).chain(&v.turn_end)),
        )
        .map(|p| p.name.clone())
        .collect();
    let dummy_types: Vec<bool> = piece_types.iter().map(|t| t.dummy).collect();
    let compiled = crate::sighting::Compiled {
        phases: &phases,
        charts,
        dummy_types: &dummy_types,
        square: matches!(geometry, GeometryRules::Square { .. }),
    };
    Some(crate::sighting::compile_sighting(
        cx,
        sight,
        names,
        &compiled,
        &spec.ruleset.location,
    ))
}

#[cfg(test)]
mod tests {
    use super::parse_range;

    #[test]
    fn ranges_read_like_printed_charts() {
        assert_eq!(parse_range("7"), Some((Some(7), Some(7))));
        assert_eq!(parse_range("8-10"), Some((Some(8), Some(10))));
        assert_eq!(parse_range("10+"), Some((Some(10), None)));
        assert_eq!(parse_range("3-"), Some((None, Some(3))));
        assert_eq!(parse_range("-2-0"), Some((Some(-2), Some(0))));
        assert_eq!(parse_range("-1"), Some((Some(-1), Some(-1))));
        assert_eq!(parse_range("x"), None);
    }
}
