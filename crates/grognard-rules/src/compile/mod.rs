//! The validation pass: resolves every name in a [`RulesetSpec`] and builds the kernel's
//! [`Rules`]. Every problem is reported with its location; compilation goes on after an
//! error so one run lists them all.

use grognard_kernel::chart::ChartDef;
use grognard_kernel::dice::{DieDef, Face};
use grognard_kernel::geometry::ArcSpec;
use grognard_kernel::geometry::open::Scale;
use grognard_kernel::ids::{
    ActionId, ChartId, CounterId, FlagId, ModeId, MoveClassId, Names, PieceTypeId, TagId,
};
use grognard_kernel::rules::{
    ActionDef, Actor, Allowed, Clears, CounterDef, FeatureDef, FeatureKind, FlagDef, GeometryRules,
    ModeDef, MoveClassDef, MoveLimit, OpenTableRules, OptionDef, PhaseDef, PieceTypeDef, Rules,
    RulesetIdentity, Sequence, SequenceVariant, SettingDef, StackDef, StackMeasure, TargetRule,
    TerrainDef, Threat, Trigger, Who, ZocRules,
};
use grognard_kernel::{Cost, geometry::Arc};

pub(crate) use crate::cx::Cx;
use crate::diag::Diagnostics;
use crate::model::{PhaseSpec, RulesetSpec};
use crate::suggest::did_you_mean;

mod bindings;
mod charts;
mod footprint;

pub(crate) use footprint::footprints;
mod parse;

use bindings::check_binding;
pub use bindings::{HOOK_POINTS, split_binding};
use charts::{ChartNames, EffectNames, compile_chart, compile_effect};
use parse::{cost_or_impassable, named_ids, parse_dice, parse_range};

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
    let root = spec.ruleset.location.clone();
    if spec.ruleset.value.trim().is_empty() {
        cx.error(&root, "the ruleset needs a name: `ruleset: my-rules`");
    }

    let (geometry, arcs) = compile_geometry(&mut cx, spec);
    let (tag_names, mut dice, mut die_names) = compile_dice(&mut cx, spec);

    // Modes, counters, flags.
    if spec.modes.is_empty() {
        cx.error(
            &root,
            "the ruleset declares no `modes:`; declare at least one (e.g. `normal: {}`)",
        );
    }
    let modes: Vec<ModeDef> = spec
        .modes
        .iter()
        .map(|m| ModeDef {
            name: m.name.value.clone(),
            stacks: m.value.stacks.unwrap_or(true),
            uses_roads: m.value.uses_roads,
            roads_only: m.value.roads_only,
            stationary_from: Vec::new(),
        })
        .collect();
    let mode_names = named_ids(&spec.modes);
    let mut modes = modes;
    for (def, m) in modes.iter_mut().zip(spec.modes.iter()) {
        def.stationary_from = m
            .value
            .stationary_from
            .iter()
            .filter_map(|x| cx.lookup("mode", x, mode_names.iter().copied()))
            .map(|i| ModeId(i as u16))
            .collect();
    }
    let counter_names = named_ids(&spec.counters);
    let piece_attr_names: Vec<&str> = spec
        .piece_attributes
        .iter()
        .map(|a| a.value.as_str())
        .collect();
    let flag_names = named_ids(&spec.flags);
    if spec.flags.len() > MAX_FLAGS {
        cx.error(
            &root,
            format!(
                "the ruleset declares {} flags; at most {MAX_FLAGS}",
                spec.flags.len()
            ),
        );
    }
    let flags: Vec<FlagDef> = spec
        .flags
        .iter()
        .map(|f| FlagDef {
            name: f.name.value.clone(),
            clears: match f.value.clears.as_ref().map(|c| c.value.as_str()) {
                None | Some("never") => Clears::Never,
                Some("phase_end") => Clears::PhaseEnd,
                Some("turn_end") => Clears::TurnEnd,
                Some(other) => {
                    if let Some(c) = &f.value.clears {
                        cx.error(
                            &c.location,
                            format!(
                                "unknown `clears: {other}`; expected never, phase_end or turn_end"
                            ),
                        );
                    }
                    Clears::Never
                }
            },
        })
        .collect();

    // Terrain, features, movement classes.
    if spec.terrain.is_empty() {
        cx.error(
            &root,
            "the ruleset declares no `terrain:`; the first terrain is what unpainted cells are",
        );
    }
    let attr_names: Vec<&str> = spec
        .terrain_attributes
        .iter()
        .map(|a| a.value.as_str())
        .collect();
    let terrain: Vec<TerrainDef> = spec
        .terrain
        .iter()
        .map(|t| {
            let mut attributes = vec![0; attr_names.len()];
            for a in t.value.attributes.iter() {
                if let Some(i) = cx.lookup("terrain attribute", &a.name, attr_names.iter().copied())
                {
                    attributes[i] = a.value;
                }
            }
            // Rule inches to table thou, through the table's scale.
            let scaled = |hundredths: i32| {
                let scale = Scale {
                    num: spec.geometry.scale_percent.unwrap_or(100).clamp(1, 1000),
                    den: 100,
                };
                scale.apply(grognard_kernel::geometry::open::Len(
                    i64::from(hundredths) * 10,
                ))
            };
            TerrainDef {
                see_out_within: t
                    .value
                    .see_out_within
                    .as_ref()
                    .map(|d| scaled(d.value.0.hundredths())),
                see_through: t
                    .value
                    .see_through
                    .as_ref()
                    .map(|d| scaled(d.value.0.hundredths())),
                name: t.name.value.clone(),
                blocks_sight: t.value.blocks_sight,
                attributes,
            }
        })
        .collect();
    let terrain_names = named_ids(&spec.terrain);
    let features: Vec<FeatureDef> = spec
        .features
        .iter()
        .map(|f| {
            let kind = match f.value.kind.value.as_str() {
                "road" => {
                    if let Some(c) = &f.value.cost {
                        cx.error(&c.location, format!("feature `{}`: roads have no cost; a road lets road modes ignore terrain", f.name.value));
                    }
                    FeatureKind::Road
                }
                "barrier" => FeatureKind::Barrier {
                    cost: match &f.value.cost {
                        Some(c) => cost_or_impassable(&mut cx, c).flatten(),
                        None => None,
                    },
                },
                "crossing" => FeatureKind::Crossing {
                    cost: match &f.value.cost {
                        Some(c) => match cost_or_impassable(&mut cx, c) {
                            Some(Some(v)) => v,
                            Some(None) => {
                                cx.error(&c.location, format!("feature `{}`: a crossing is a way over barriers, so it cannot be impassable", f.name.value));
                                Cost::ZERO
                            }
                            None => Cost::ZERO,
                        },
                        None => Cost::ZERO,
                    },
                },
                other => {
                    cx.error(
                        &f.value.kind.location,
                        format!("feature `{}`: unknown kind `{other}`; expected road, barrier or crossing", f.name.value),
                    );
                    FeatureKind::Road
                }
            };
            if !f.value.closed_to.is_empty() && !matches!(kind, FeatureKind::Barrier { .. }) {
                cx.error(
                    &f.value.closed_to[0].location,
                    format!("feature `{}`: `closed_to` lists modes a barrier stops, so only a barrier may have it", f.name.value),
                );
            }
            let closed_to = f
                .value
                .closed_to
                .iter()
                .filter_map(|m| cx.lookup("mode", m, mode_names.iter().copied()))
                .map(|i| ModeId(i as u16))
                .collect();
            FeatureDef {
                name: f.name.value.clone(),
                kind,
                blocks_sight: f.value.blocks_sight,
                capacity: f.value.capacity,
                closed_to,
            }
        })
        .collect();
    let move_classes: Vec<MoveClassDef> = spec
        .movement
        .iter()
        .map(|m| {
            let others = match &m.value.others {
                Some(o) => cost_or_impassable(&mut cx, o).unwrap_or(Some(Cost::ZERO)),
                None => Some(Cost::ZERO),
            };
            let mut enter = vec![others; terrain_names.len()];
            for e in m.value.enter.iter() {
                if let Some(i) = cx.lookup("terrain", &e.name, terrain_names.iter().copied())
                    && let Some(c) = cost_or_impassable(&mut cx, &e.value)
                {
                    enter[i] = c;
                }
            }
            MoveClassDef {
                name: m.name.value.clone(),
                enter,
                stops_on_costly: m.value.stops_on_costly,
            }
        })
        .collect();
    let class_names = named_ids(&spec.movement);

    // Stacking.
    let stacking: Vec<StackDef> = spec
        .stacking
        .iter()
        .map(|s| {
            let measure = match &s.value.counter {
                Some(c) => cx
                    .lookup("counter", c, counter_names.iter().copied())
                    .map_or(StackMeasure::Weight, |i| {
                        StackMeasure::Counter(CounterId(i as u16))
                    }),
                None => StackMeasure::Weight,
            };
            let capacity = match measure {
                StackMeasure::Weight => s.value.capacity.0.hundredths(),
                StackMeasure::Counter(_) => {
                    if s.value.capacity.0.hundredths() % 100 != 0 {
                        cx.error(&s.name.location, format!("stacking limit `{}` counts a counter, so its capacity must be a whole number", s.name.value));
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
        .collect();
    let stack_names = named_ids(&spec.stacking);

    // Piece types.
    if spec.piece_types.is_empty() {
        cx.error(&root, "the ruleset declares no `piece_types:`");
    }
    let mut piece_types: Vec<PieceTypeDef> = spec
        .piece_types
        .iter()
        .map(|p| {
            let v = &p.value;
            let move_class = if v.movement.value.is_empty() {
                cx.error(
                    &p.name.location,
                    format!(
                        "piece type `{}` needs `movement:` (one of: {})",
                        p.name.value,
                        class_names.join(", ")
                    ),
                );
                0
            } else {
                cx.lookup("movement class", &v.movement, class_names.iter().copied())
                    .unwrap_or(0)
            };
            let mut allowance = vec![None; modes.len()];
            for a in v.allowance.iter() {
                if let Some(i) = cx.lookup("mode", &a.name, mode_names.iter().copied()) {
                    allowance[i] = Some(a.value.0);
                }
            }
            if allowance.iter().all(Option::is_none) && !modes.is_empty() {
                cx.error(
                    &p.name.location,
                    format!(
                        "piece type `{}` needs an `allowance:` for at least one mode",
                        p.name.value
                    ),
                );
            }
            let mut max_steps = vec![None; modes.len()];
            for a in v.max_steps.iter() {
                if let Some(i) = cx.lookup("mode", &a.name, mode_names.iter().copied()) {
                    max_steps[i] = Some(a.value);
                }
            }
            // A weight limit counts a type only where it gives a weight; a counter limit
            // counts every type's counter, times its weight (1 unless given: `0` leaves
            // the type out, a single officer figure among the commands' figures).
            let mut stack: Vec<Cost> = stacking
                .iter()
                .map(|d| match d.measure {
                    StackMeasure::Weight => Cost::ZERO,
                    StackMeasure::Counter(_) => Cost::ONE,
                })
                .collect();
            for s in v.stack.iter() {
                if let Some(i) = cx.lookup("stacking limit", &s.name, stack_names.iter().copied()) {
                    stack[i] = s.value.0;
                }
            }
            let default_mode = match &v.default_mode {
                Some(m) => cx
                    .lookup("mode", m, mode_names.iter().copied())
                    .unwrap_or(0),
                None => allowance.iter().position(Option::is_some).unwrap_or(0),
            };
            if allowance.get(default_mode).is_some_and(Option::is_none)
                && let Some(m) = &v.default_mode
            {
                cx.error(
                    &m.location,
                    format!(
                        "piece type `{}` has no allowance in its default mode `{}`",
                        p.name.value, m.value
                    ),
                );
            }
            let mut attributes = vec![0; piece_attr_names.len()];
            for a in v.attributes.iter() {
                if let Some(i) =
                    cx.lookup("piece attribute", &a.name, piece_attr_names.iter().copied())
                {
                    attributes[i] = a.value;
                }
            }
            let moves = match v.moves.as_ref().map(|m| m.value.as_str()) {
                None | Some("per_phase") => MoveLimit::PerPhase,
                Some("per_turn") => MoveLimit::PerTurn,
                Some(other) => {
                    if let Some(m) = &v.moves {
                        cx.error(
                            &m.location,
                            format!("unknown `moves: {other}`; expected per_phase or per_turn"),
                        );
                    }
                    MoveLimit::PerPhase
                }
            };
            let footprint = footprint::footprints(
                &mut cx,
                v.footprint.as_ref(),
                &format!("piece type `{}`", p.name.value),
                &mode_names,
                spec.geometry.kind.value == "open",
                Scale {
                    num: spec.geometry.scale_percent.unwrap_or(100).clamp(1, 1000),
                    den: 100,
                },
            );
            PieceTypeDef {
                footprint,
                name: p.name.value.clone(),
                move_class: MoveClassId(move_class as u16),
                allowance,
                max_steps,
                stack,
                default_mode: ModeId(default_mode as u16),
                exerts_zoc: v.zoc,
                passes_friends: v.passes_friends,
                shares_with_enemy: v.shares_with_enemy,
                moves,
                dummy: v.dummy,
                faces: v.faces.unwrap_or(true),
                attributes,
                company: grognard_kernel::company::Company::default(),
                turning: grognard_kernel::turning::Turning::default(),
            }
        })
        .collect();
    let type_names = named_ids(&spec.piece_types);

    // Zones of control.
    let zoc = spec
        .zoc
        .as_ref()
        .map_or_else(ZocRules::default, |z| ZocRules {
            stops_movement: z.stops_movement,
            lost_with_counters: z
                .lost_with_counters
                .iter()
                .filter_map(|c| cx.lookup("counter", c, counter_names.iter().copied()))
                .map(|i| CounterId(i as u16))
                .collect(),
            lost_with_flags: z
                .lost_with_flags
                .iter()
                .filter_map(|f| cx.lookup("flag", f, flag_names.iter().copied()))
                .map(|i| FlagId(i as u16))
                .collect(),
        });

    // Open tables: threatened zones, closest approach, counted moves.
    let open_table = spec
        .open_table
        .as_ref()
        .map_or_else(OpenTableRules::default, |o| {
            let mut threats = vec![None; type_names.len()];
            for t in o.threats.iter() {
                let Some(i) = cx.lookup("piece type", &t.name, type_names.iter().copied()) else {
                    continue;
                };
                threats[i] = Some(Threat {
                    range: t.value.range.0,
                    against_types: t
                        .value
                        .types
                        .iter()
                        .filter_map(|a| {
                            cx.lookup("piece type", &a.name, type_names.iter().copied())
                                .map(|j| (PieceTypeId(j as u16), a.value.0))
                        })
                        .collect(),
                    against_modes: t
                        .value
                        .modes
                        .iter()
                        .filter_map(|a| {
                            cx.lookup("mode", &a.name, mode_names.iter().copied())
                                .map(|j| (ModeId(j as u16), a.value.0))
                        })
                        .collect(),
                });
            }
            OpenTableRules {
                keep_apart: o.keep_apart.as_ref().map_or(Cost::ZERO, |c| c.0),
                threats,
                threat_needs_sight: o.threat_needs_sight,
                enter_only_faced_threats: o.enter_only_faced_threats,
                threats_ignored_with_flags: o
                    .threats_ignored_with_flags
                    .iter()
                    .filter_map(|f| cx.lookup("flag", f, flag_names.iter().copied()))
                    .map(|i| FlagId(i as u16))
                    .collect(),
                move_counter: o
                    .move_counter
                    .as_ref()
                    .and_then(|c| cx.lookup("counter", c, counter_names.iter().copied()))
                    .map(|i| CounterId(i as u16)),
                mode_costs_a_move: o
                    .mode_costs_a_move
                    .iter()
                    .filter_map(|m| cx.lookup("mode", m, mode_names.iter().copied()))
                    .map(|i| ModeId(i as u16))
                    .collect(),
            }
        });

    let settings: Vec<SettingDef> = spec
        .settings
        .iter()
        .map(|s| SettingDef {
            name: s.name.value.clone(),
            default: s.value,
        })
        .collect();
    let setting_names = named_ids(&spec.settings);
    let options: Vec<OptionDef> = spec
        .options
        .iter()
        .map(|o| OptionDef {
            name: o.name.value.clone(),
            default: o.value.default,
        })
        .collect();

    // Charts.
    let names = Names::new(tag_names.clone());
    let option_names = named_ids(&spec.options);
    // Every intent some action declares, for `from: intent NAME`.
    let mut intent_names: Vec<&str> = spec
        .actions
        .iter()
        .flat_map(|a| a.value.intents.iter().map(|i| i.value.as_str()))
        .collect();
    intent_names.sort_unstable();
    intent_names.dedup();
    let chart_cx = ChartNames {
        options: &option_names,
        piece_attrs: &piece_attr_names,
        counters: &counter_names,
        modes: &mode_names,
        flags: &flag_names,
        attrs: &attr_names,
        settings: &setting_names,
        tags: &tag_names,
        intents: &intent_names,
    };
    let charts: Vec<ChartDef> = spec
        .charts
        .iter()
        .map(|c| {
            compile_chart(
                &mut cx,
                &c.name,
                &c.value,
                &mut dice,
                &mut die_names,
                &chart_cx,
            )
        })
        .collect();
    let script_names = named_ids(&spec.scripts);
    for h in spec.hooks.iter() {
        if !HOOK_POINTS.contains(&h.name.value.as_str()) {
            let help = did_you_mean(&h.name.value, HOOK_POINTS.iter().copied())
                .map(|s| format!("did you mean `{s}`?"));
            cx.error_help(
                &h.name.location,
                format!(
                    "unknown hook `{}`; the kernel asks {}",
                    h.name.value,
                    HOOK_POINTS.join(", ")
                ),
                help,
            );
        }
        check_binding(&mut cx, &h.value, &script_names);
    }
    let chart_names = named_ids(&spec.charts);
    let action_names = named_ids(&spec.actions);
    if spec.actions.len() > MAX_ACTIONS {
        cx.error(
            &root,
            format!(
                "the ruleset declares {} actions; at most {MAX_ACTIONS}",
                spec.actions.len()
            ),
        );
    }

    // Counters (after everything their trigger effects may name).
    let effect_names = EffectNames {
        counters: &counter_names,
        flags: &flag_names,
        modes: &mode_names,
    };
    let counters: Vec<CounterDef> = spec
        .counters
        .iter()
        .map(|c| {
            let v = &c.value;
            let max = v.max.unwrap_or(i32::MAX);
            if max < v.min {
                cx.error(
                    &c.name.location,
                    format!(
                        "counter `{}`: max {max} is below min {}",
                        c.name.value, v.min
                    ),
                );
            }
            CounterDef {
                name: c.name.value.clone(),
                initial: v.initial.clamp(v.min, max.max(v.min)),
                min: v.min,
                max,
                triggers: v
                    .triggers
                    .iter()
                    .map(|t| Trigger {
                        at_least: t.at,
                        effects: t
                            .effects
                            .iter()
                            .filter_map(|e| {
                                if let Some(to) = e.to.as_ref().filter(|t| t.value == "target") {
                                    cx.error(
                                        &to.location,
                                        "a counter trigger acts on the piece carrying the counter; `to: target` has no meaning here",
                                    );
                                    return None;
                                }
                                compile_effect(
                                    &mut cx,
                                    e,
                                    Who::Actor,
                                    &effect_names,
                                    &c.name.location,
                                )
                            })
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect();

    // Actions.
    let actions: Vec<ActionDef> = spec
        .actions
        .iter()
        .map(|a| {
            let v = &a.value;
            let chart = v
                .chart
                .as_ref()
                .and_then(|c| cx.lookup("chart", c, chart_names.iter().copied()))
                .map(|i| ChartId(i as u16));
            let target = match v.target.as_ref().map(|t| t.value.as_str()) {
                None | Some("none") => TargetRule::None,
                Some("enemy") => TargetRule::Enemy,
                Some("friend") => TargetRule::Friend,
                Some(other) => {
                    if let Some(t) = &v.target {
                        cx.error(
                            &t.location,
                            format!("unknown `target: {other}`; expected none, enemy or friend"),
                        );
                    }
                    TargetRule::None
                }
            };
            let arcs = v
                .arcs
                .iter()
                .filter_map(|arc| match arc.value.as_str() {
                    "front" => Some(Arc::Front),
                    "flank" => Some(Arc::Flank),
                    "rear" => Some(Arc::Rear),
                    other => {
                        cx.error(
                            &arc.location,
                            format!("unknown arc `{other}`; expected front, flank or rear"),
                        );
                        None
                    }
                })
                .collect();
            let outcomes: Vec<String> = chart
                .and_then(|c| charts.get(c.index()))
                .map_or_else(|| vec!["always".to_owned()], |c| c.outcomes.clone());
            let mut effects = vec![Vec::new(); outcomes.len()];
            for on in v.on.iter() {
                let Some(i) = cx.lookup("outcome", &on.name, outcomes.iter().map(String::as_str))
                else {
                    continue;
                };
                effects[i] = on
                    .value
                    .iter()
                    .filter_map(|e| {
                        compile_effect(&mut cx, e, Who::Target, &effect_names, &on.name.location)
                    })
                    .collect();
            }
            if let Some(script) = &v.script {
                check_binding(&mut cx, script, &script_names);
            }
            if let Some(check) = &v.check {
                check_binding(&mut cx, check, &script_names);
            }
            let contact = v.contact.as_ref().is_some_and(|c| c.value);
            if let Some(c) = v.contact.as_ref().filter(|c| c.value) {
                if target == TargetRule::None {
                    cx.error(
                        &c.location,
                        "`contact: true` needs a target to contact (`target: enemy` or `friend`)",
                    );
                } else if spec.geometry.kind.value != "open" {
                    cx.error(
                        &c.location,
                        "`contact: true` is for open tables (`geometry: { kind: open }`), where \
                         units stand on bases; on a grid, units in adjacent cells are in contact",
                    );
                }
            }
            ActionDef {
                contact,
                scripted: v.script.is_some(),
                checked: v.check.is_some(),
                repeats: v.repeats,
                intents: v.intents.iter().map(|i| i.value.clone()).collect(),
                name: a.name.value.clone(),
                chart,
                target,
                range: v.range.map(|[lo, hi]| (lo, hi)),
                arcs,
                needs_sight: v.sight,
                barred_by: v
                    .barred_by
                    .iter()
                    .filter_map(|f| cx.lookup("flag", f, flag_names.iter().copied()))
                    .map(|i| FlagId(i as u16))
                    .collect(),
                needs: v
                    .needs
                    .iter()
                    .filter_map(|f| cx.lookup("flag", f, flag_names.iter().copied()))
                    .map(|i| FlagId(i as u16))
                    .collect(),
                marks: v
                    .marks
                    .as_ref()
                    .and_then(|f| cx.lookup("flag", f, flag_names.iter().copied()))
                    .map(|i| FlagId(i as u16)),
                effects,
                types: v
                    .types
                    .iter()
                    .filter_map(|t| cx.lookup("piece type", t, type_names.iter().copied()))
                    .map(|i| PieceTypeId(i as u16))
                    .collect(),
            }
        })
        .collect();

    // Sequence.
    let phase = |cx: &mut Cx, p: &PhaseSpec| -> PhaseDef {
        let actor = match p.actor.as_ref().map(|a| a.value.as_str()) {
            None | Some("phasing") => Actor::Phasing,
            Some("non_phasing") => Actor::NonPhasing,
            Some("both") => Actor::Both,
            Some(other) => {
                if let Some(a) = &p.actor {
                    cx.error(
                        &a.location,
                        format!("unknown `actor: {other}`; expected phasing, non_phasing or both"),
                    );
                }
                Actor::Phasing
            }
        };
        let allows = p
            .allows
            .iter()
            .filter_map(|a| match a.value.as_str() {
                "move" => Some(Allowed::Move),
                "face" => Some(Allowed::Face),
                "mode" => Some(Allowed::Mode),
                _ => cx
                    .lookup(
                        "action (or move, face, mode)",
                        a,
                        action_names.iter().copied(),
                    )
                    .map(|i| Allowed::Action(ActionId(i as u16))),
            })
            .collect();
        if p.phase.value.trim().is_empty() {
            let at = if p.phase.location.is_known() {
                &p.phase.location
            } else {
                &root
            };
            cx.error(
                at,
                "every phase in `sequence:` needs a name: `- phase: movement`",
            );
        }
        let movers = p
            .movers
            .iter()
            .filter_map(|t| cx.lookup("piece type", t, type_names.iter().copied()))
            .map(|i| PieceTypeId(i as u16))
            .collect();
        PhaseDef {
            name: p.phase.value.clone(),
            actor,
            allows,
            movers,
        }
    };
    let initiative = spec
        .sequence
        .initiative
        .as_ref()
        .map(|d| parse_dice(&mut cx, d, &mut dice, &mut die_names));
    let sequence = Sequence {
        initiative,
        turn_start: spec
            .sequence
            .turn_start
            .iter()
            .map(|p| phase(&mut cx, p))
            .collect(),
        side_turn: spec
            .sequence
            .side_turn
            .iter()
            .map(|p| phase(&mut cx, p))
            .collect(),
        turn_end: spec
            .sequence
            .turn_end
            .iter()
            .map(|p| phase(&mut cx, p))
            .collect(),
        turns: spec.sequence.turns.unwrap_or(10).clamp(1, 10_000),
        interleaved: spec.sequence.interleave,
        variants: Vec::new(),
    };
    let mut sequence = sequence;
    for v in &spec.sequence.variants {
        let Some(option) = cx.lookup("option", &v.value.option, option_names.iter().copied())
        else {
            continue;
        };
        let list = |cx: &mut Cx, l: &[PhaseSpec]| -> Vec<PhaseDef> {
            l.iter().map(|p| phase(cx, p)).collect()
        };
        let variant = SequenceVariant {
            option,
            turn_start: list(&mut cx, &v.value.turn_start),
            side_turn: list(&mut cx, &v.value.side_turn),
            turn_end: list(&mut cx, &v.value.turn_end),
            interleaved: v.value.interleave,
        };
        if variant.turn_start.is_empty()
            && variant.side_turn.is_empty()
            && variant.turn_end.is_empty()
        {
            cx.error(
                &v.location,
                "this sequence variant has no phases; give it `side_turn:` (or `turn_start:`/`turn_end:`)",
            );
        }
        sequence.variants.push(variant);
    }
    if sequence.turn_start.is_empty()
        && sequence.side_turn.is_empty()
        && sequence.turn_end.is_empty()
    {
        cx.error(
            &root,
            "the `sequence:` has no phases; add `side_turn: [{phase: movement, allows: [move]}]`",
        );
    }

    // Common numeric dice are always there, so hooks and house rules can roll them
    // without declaring them.
    for sides in [4u8, 6, 8, 10, 12, 20] {
        let name = format!("d{sides}");
        if !die_names.contains(&name) {
            dice.push(DieDef::numeric(&name, sides));
            die_names.push(name);
        }
    }
    // Distances and allowances cannot be negative anywhere.
    let negative = |c: Option<&crate::number::CostValue>| c.is_some_and(|v| v.0.is_negative());
    if negative(spec.geometry.orthogonal.as_ref())
        || negative(spec.geometry.diagonal.as_ref())
        || negative(spec.geometry.step.as_ref())
    {
        cx.error(
            &spec.geometry.kind.location,
            "step costs cannot be negative",
        );
    }
    for p in spec.piece_types.iter() {
        if p.value.allowance.iter().any(|a| a.value.0.is_negative())
            || p.value.stack.iter().any(|a| a.value.0.is_negative())
        {
            cx.error(
                &p.name.location,
                format!(
                    "piece type `{}`: allowances and stacking weights cannot be negative",
                    p.name.value
                ),
            );
        }
    }
    let sighting = spec.sighting.as_ref().map(|sight| {
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
        let names = crate::sighting::SightNames {
            terrain: &terrain_names,
            types: &type_names,
            flags: &flag_names,
            counters: &counter_names,
            options: &option_names,
            settings: &setting_names,
            phases: &phases,
            charts: &chart_names,
            chart_defs: &charts,
            dummy_types: &dummy_types,
        };
        let square = matches!(geometry, GeometryRules::Square { .. });
        crate::sighting::compile_sighting(&mut cx, sight, &names, square, &root)
    });
    let saving = spec.saving.as_ref().and_then(|sv| {
        let counter = cx.lookup("counter", &sv.counter, counter_names.iter().copied())?;
        let unit = sv.unit.as_ref().map_or(Cost::ONE, |u| u.0);
        if unit <= Cost::ZERO {
            cx.error(&sv.counter.location, "`saving.unit` must be more than 0");
        }
        Some(grognard_kernel::march::SavingRules {
            counter: CounterId(counter as u16),
            unit,
            modes: sv
                .modes
                .iter()
                .filter_map(|m| cx.lookup("mode", m, mode_names.iter().copied()))
                .map(|i| ModeId(i as u16))
                .collect(),
            costly_terrain: sv.costly_terrain,
        })
    });
    let spread = spec
        .spread
        .as_ref()
        .map(|sp| grognard_kernel::march::SpreadRules {
            counter: sp
                .counter
                .as_ref()
                .and_then(|c| cx.lookup("counter", c, counter_names.iter().copied()))
                .map(|i| CounterId(i as u16)),
            min_per_cell: sp.min_per_cell,
        });
    let pinned_by = spec
        .pinned_by
        .iter()
        .filter_map(|f| cx.lookup("flag", f, flag_names.iter().copied()))
        .map(|i| FlagId(i as u16))
        .collect();
    let company_names = crate::company::CompanyNames {
        types: &type_names,
        flags: &flag_names,
        terrain: &terrain_names,
        options: &option_names,
    };
    for (t, p) in piece_types.iter_mut().zip(spec.piece_types.iter()) {
        t.company = crate::company::compile_company(&mut cx, &company_names, &p.value);
        t.turning = crate::turning::compile_turning(
            &mut cx,
            &counter_names,
            &option_names,
            &p.name.value,
            p.value.turning.as_ref(),
        );
    }
    let slowed_by =
        crate::turning::compile_slowed_by(&mut cx, &flag_names, &option_names, &spec.slowed_by);
    let half_hexes =
        crate::company::compile_half_hexes(&mut cx, &company_names, spec.half_hexes.as_ref());
    let victory = spec.victory.as_ref().map(|v| {
        let names = crate::victory::VictoryNames {
            types: type_names.clone(),
            flags: flag_names.clone(),
            counters: counter_names.clone(),
            sides: None,
            regions: None,
        };
        crate::victory::compile_victory(&mut cx, v, &names)
    });
    cx.diags.into_result(())?;
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
        piece_attributes: Names::new(piece_attr_names.iter().map(|s| (*s).to_owned()).collect()),
        flags,
        tags: names,
        dice,
        terrain_attributes: Names::new(attr_names.iter().map(|s| (*s).to_owned()).collect()),
        terrain,
        features,
        move_classes,
        piece_types,
        stacking,
        zoc,
        sequence,
        charts,
        actions,
        settings,
        options,
        sighting,
        saving,
        spread,
        pinned_by,
        slowed_by,
        half_hexes,
    })
}

/// The board's geometry (square, hex or open, with its step costs or scale) and the
/// width of the front and rear arcs (the geometry's defaults unless the ruleset says).
fn compile_geometry(cx: &mut Cx, spec: &RulesetSpec) -> (GeometryRules, ArcSpec) {
    let geometry = match spec.geometry.kind.value.as_str() {
        "square" => GeometryRules::Square {
            orthogonal: spec.geometry.orthogonal.as_ref().map_or(Cost::ONE, |c| c.0),
            diagonal: spec
                .geometry
                .diagonal
                .as_ref()
                .map_or(Cost::from_hundredths(150), |c| c.0),
        },
        "hex" => GeometryRules::Hex {
            step: spec.geometry.step.as_ref().map_or(Cost::ONE, |c| c.0),
        },
        "open" => GeometryRules::Open {
            scale: Scale {
                num: spec.geometry.scale_percent.unwrap_or(100).clamp(1, 1000),
                den: 100,
            },
        },
        other => {
            let help = did_you_mean(other, ["square", "hex", "open"])
                .map(|s| format!("did you mean `{s}`?"));
            cx.error_help(
                &spec.geometry.kind.location,
                format!("unknown geometry `{other}`; expected square, hex or open"),
                help,
            );
            GeometryRules::Square {
                orthogonal: Cost::ONE,
                diagonal: Cost::from_hundredths(150),
            }
        }
    };
    let arcs = spec.arcs.as_ref().map_or(
        match geometry {
            GeometryRules::Hex { .. } => ArcSpec {
                front_half_angle: 60,
                rear_half_angle: 30,
            },
            _ => ArcSpec {
                front_half_angle: 45,
                rear_half_angle: 45,
            },
        },
        |a| ArcSpec {
            front_half_angle: a.front.min(180),
            rear_half_angle: a.rear.min(180),
        },
    );
    (geometry, arcs)
}

/// The dice: numeric dice (`sides: N`) and dice with custom faces, each face's tags
/// interned in order of first use. Returns the tag names, the dice and their names.
fn compile_dice(cx: &mut Cx, spec: &RulesetSpec) -> (Vec<String>, Vec<DieDef>, Vec<String>) {
    let mut tag_names: Vec<String> = Vec::new();
    let mut dice = Vec::new();
    let mut die_names = Vec::new();
    for d in spec.dice.iter() {
        let faces = match (d.value.sides, d.value.faces.is_empty()) {
            (Some(sides), true) if sides >= 2 => DieDef::numeric(&d.name.value, sides).faces,
            (None, false) => {
                d.value
                    .faces
                    .iter()
                    .enumerate()
                    .map(|(i, f)| Face {
                        value: f.value,
                        label: if f.label.is_empty() {
                            (i + 1).to_string()
                        } else {
                            f.label.clone()
                        },
                        tags: f
                            .tags
                            .iter()
                            .map(|t| {
                                let idx = tag_names
                                    .iter()
                                    .position(|n| *n == t.value)
                                    .unwrap_or_else(|| {
                                        tag_names.push(t.value.clone());
                                        tag_names.len() - 1
                                    });
                                TagId(idx as u16)
                            })
                            .collect(),
                    })
                    .collect()
            }
            _ => {
                cx.error(
                    &d.name.location,
                    format!(
                        "die `{}` needs either `sides: N` (N ≥ 2) or a list of `faces`, not both",
                        d.name.value
                    ),
                );
                Vec::new()
            }
        };
        if faces.len() > 100 {
            cx.error(
                &d.name.location,
                format!(
                    "die `{}` has {} faces; at most 100",
                    d.name.value,
                    faces.len()
                ),
            );
        }
        die_names.push(d.name.value.clone());
        dice.push(DieDef {
            name: d.name.value.clone(),
            faces,
        });
    }
    (tag_names, dice, die_names)
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
