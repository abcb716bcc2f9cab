//! Pieces and what they carry: modes, flags, stacking limits and piece types (allowances,
//! stacking weights, default mode, attributes, footprints; company and turning added once
//! every name they refer to is known).

use grognard_kernel::Cost;
use grognard_kernel::ids::{ModeId, MoveClassId};
use grognard_kernel::rules::{
    Clears, FlagDef, ModeDef, MoveLimit, PieceTypeDef, StackDef, StackMeasure,
};

use crate::cx::FromIndex;
use crate::de::Located;
use crate::model::{self, PieceTypeSpec, RulesetSpec};

use super::{Cx, MAX_FLAGS, footprint, table_scale};
use crate::names::{NameTable, kind};

/// The modes, each with the modes from which taking it needs a stationary phase.
pub(super) fn compile_modes(cx: &mut Cx, spec: &RulesetSpec, names: &NameTable) -> Vec<ModeDef> {
    if spec.modes.is_empty() {
        cx.error(
            &spec.ruleset.location,
            "the ruleset declares no `modes:`; declare at least one (e.g. `normal: {}`)",
        );
    }
    spec.modes
        .iter()
        .map(|m| ModeDef {
            name: m.name.value.clone(),
            stacks: m.value.stacks.unwrap_or(true),
            uses_roads: m.value.uses_roads,
            roads_only: m.value.roads_only,
            stationary_from: names.ids(cx, kind::Mode, &m.value.stationary_from),
        })
        .collect()
}

/// The flags and when each clears itself.
pub(super) fn compile_flags(cx: &mut Cx, spec: &RulesetSpec) -> Vec<FlagDef> {
    if spec.flags.len() > MAX_FLAGS {
        cx.error(
            &spec.ruleset.location,
            format!(
                "the ruleset declares {} flags; at most {MAX_FLAGS}",
                spec.flags.len()
            ),
        );
    }
    spec.flags
        .iter()
        .map(|f| FlagDef {
            name: f.name.value.clone(),
            clears: match f.value.clears.as_ref().map(|c| c.value) {
                None | Some(model::Clears::Never) => Clears::Never,
                Some(model::Clears::PhaseEnd) => Clears::PhaseEnd,
                Some(model::Clears::TurnEnd) => Clears::TurnEnd,
            },
            // Filled in by `states::compile_states` once the counters are known.
            holds: None,
            holds_types: Vec::new(),
        })
        .collect()
}

/// The stacking limits: by weight, or by a counter (whole numbers of it).
pub(super) fn compile_stacking(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
) -> Vec<StackDef> {
    spec.stacking
        .iter()
        .map(|s| {
            let measure = match &s.value.counter {
                Some(c) => names
                    .id(cx, kind::Counter, c)
                    .map_or(StackMeasure::Weight, StackMeasure::Counter),
                None => StackMeasure::Weight,
            };
            let capacity = match measure {
                StackMeasure::Weight => s.value.capacity.0.hundredths(),
                StackMeasure::Counter(_) => {
                    if s.value.capacity.0.hundredths() % 100 != 0 {
                        cx.error(
                            &s.name.location,
                            format!(
                                "stacking limit `{}` counts a counter, so its capacity must be a \
                                 whole number",
                                s.name.value
                            ),
                        );
                    }
                    s.value.capacity.0.hundredths() / 100
                }
            };
            StackDef {
                name: s.name.value.clone(),
                capacity,
                measure,
            }
        })
        .collect()
}

/// The piece types. Their company and turning rules are added by [`add_company`] after
/// the sections those refer to.
pub(super) fn compile_piece_types(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
    stacking: &[StackDef],
) -> Vec<PieceTypeDef> {
    if spec.piece_types.is_empty() {
        cx.error(
            &spec.ruleset.location,
            "the ruleset declares no `piece_types:`",
        );
    }
    spec.piece_types
        .iter()
        .map(|p| compile_piece_type(cx, spec, names, stacking, &p.name, &p.value))
        .collect()
}

fn compile_piece_type(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
    stacking: &[StackDef],
    name: &Located<String>,
    v: &PieceTypeSpec,
) -> PieceTypeDef {
    let move_class = if v.movement.value.is_empty() {
        cx.error(
            &name.location,
            format!(
                "piece type `{}` needs `movement:` (one of: {})",
                name.value,
                names.classes.join(", ")
            ),
        );
        MoveClassId(0)
    } else {
        names
            .id(cx, kind::MoveClass, &v.movement)
            .unwrap_or(MoveClassId(0))
    };
    let mut allowance = vec![None; names.modes.len()];
    for a in v.allowance.iter() {
        if let Some(i) = names.index(cx, kind::Mode, &a.name) {
            allowance[i] = Some(a.value.0);
        }
    }
    if allowance.iter().all(Option::is_none) && !names.modes.is_empty() {
        cx.error(
            &name.location,
            format!(
                "piece type `{}` needs an `allowance:` for at least one mode",
                name.value
            ),
        );
    }
    let mut max_steps = vec![None; names.modes.len()];
    for a in v.max_steps.iter() {
        if let Some(i) = names.index(cx, kind::Mode, &a.name) {
            max_steps[i] = Some(a.value);
        }
    }
    let stack = stack_weights(cx, names, stacking, v);
    let default_mode = match &v.default_mode {
        Some(m) => names.id(cx, kind::Mode, m).unwrap_or(ModeId(0)),
        None => ModeId::from_index(allowance.iter().position(Option::is_some).unwrap_or(0)),
    };
    if allowance
        .get(default_mode.index())
        .is_some_and(Option::is_none)
        && let Some(m) = &v.default_mode
    {
        cx.error(
            &m.location,
            format!(
                "piece type `{}` has no allowance in its default mode `{}`",
                name.value, m.value
            ),
        );
    }
    let mut attributes = vec![0; names.piece_attrs.len()];
    for a in v.attributes.iter() {
        if let Some(i) = names.index(cx, kind::PieceAttribute, &a.name) {
            attributes[i] = a.value;
        }
    }
    let moves = match v.moves.as_ref().map(|m| m.value) {
        None | Some(model::MoveLimit::PerPhase) => MoveLimit::PerPhase,
        Some(model::MoveLimit::PerTurn) => MoveLimit::PerTurn,
    };
    let footprint = footprint::footprints(
        cx,
        v.footprint.as_ref(),
        &format!("piece type `{}`", name.value),
        names,
        names.open,
        table_scale(spec),
    );
    PieceTypeDef {
        footprint,
        name: name.value.clone(),
        move_class,
        allowance,
        max_steps,
        stack,
        default_mode,
        exerts_zoc: v.zoc,
        passes_friends: v.passes_friends,
        shares_with_enemy: v.shares_with_enemy,
        takes_no_room: v.takes_no_room,
        moves,
        dummy: v.dummy,
        no_redeploy: v.redeploys == Some(false),
        called: v.called.clone().unwrap_or_default(),
        faces: v.faces.unwrap_or(true),
        attributes,
        company: grognard_kernel::company::Company::default(),
        turning: grognard_kernel::turning::Turning::default(),
        // Filled in by `states::compile_states` once the counters are known.
        triggers: Vec::new(),
    }
}

/// A type's weight in each stacking limit. A weight limit counts a type only where it
/// gives a weight; a counter limit counts every type's counter, times its weight (1
/// unless given: `0` leaves the type out, a single officer figure among the commands'
/// figures).
fn stack_weights(
    cx: &mut Cx,
    names: &NameTable,
    stacking: &[StackDef],
    v: &PieceTypeSpec,
) -> Vec<Cost> {
    let mut stack: Vec<Cost> = stacking
        .iter()
        .map(|d| match d.measure {
            StackMeasure::Weight => Cost::ZERO,
            StackMeasure::Counter(_) => Cost::ONE,
        })
        .collect();
    for s in v.stack.iter() {
        if let Some(i) = names.index(cx, kind::Stack, &s.name) {
            stack[i] = s.value.0;
        }
    }
    stack
}

/// Each piece type's company (whom it passes, joins, where it leaves the board) and
/// turning rules.
pub(super) fn add_company(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
    piece_types: &mut [PieceTypeDef],
) {
    for (t, p) in piece_types.iter_mut().zip(spec.piece_types.iter()) {
        t.company = crate::company::compile_company(cx, names, &p.value);
        t.turning =
            crate::turning::compile_turning(cx, names, &p.name.value, p.value.turning.as_ref());
    }
}
