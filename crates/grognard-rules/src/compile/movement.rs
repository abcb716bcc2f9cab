//! Rules of moving beyond the board's costs: zones of control, the open table's threats
//! and counted moves, saved movement points, spread commands and the flags that pin a
//! piece.

use grognard_kernel::Cost;
use grognard_kernel::march::{SavingRules, SpreadRules};
use grognard_kernel::rules::{OpenTableRules, Pivot, PivotRule, Threat, ZocRules};

use crate::model::{OpenTableSpec, PivotSpec, RulesetSpec};
use crate::number::parse_cost;

use super::Cx;
use crate::names::{NameTable, kind};

/// Zones of control: whether they stop movement, and the counters and flags that lose
/// them.
pub(super) fn compile_zoc(cx: &mut Cx, spec: &RulesetSpec, names: &NameTable) -> ZocRules {
    spec.zoc
        .as_ref()
        .map_or_else(ZocRules::default, |z| ZocRules {
            stops_movement: z.stops_movement,
            lost_with_counters: names.ids(cx, kind::Counter, &z.lost_with_counters),
            lost_with_flags: names.ids(cx, kind::Flag, &z.lost_with_flags),
        })
}

/// Open tables: threatened zones, closest approach, counted moves, the contact flag,
/// pivots, and (from `sight:`) whether pieces block sight.
pub(super) fn compile_open_table(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
) -> OpenTableRules {
    let pieces_block_sight = match spec.sight.as_ref().and_then(|s| s.pieces_block.as_ref()) {
        Some(b) if !names.open => {
            cx.error(
                &b.location,
                "`sight.pieces_block` is for open tables; on a grid every piece blocks sight",
            );
            false
        }
        Some(b) => b.value,
        None => false,
    };
    let Some(o) = spec.open_table.as_ref() else {
        return OpenTableRules {
            pieces_block_sight,
            ..OpenTableRules::default()
        };
    };
    let mut threats = vec![None; names.types.len()];
    for t in o.threats.iter() {
        let Some(i) = names.index(cx, kind::PieceType, &t.name) else {
            continue;
        };
        threats[i] = Some(Threat {
            range: t.value.range.0,
            against_types: t
                .value
                .types
                .iter()
                .filter_map(|a| {
                    names
                        .id(cx, kind::PieceType, &a.name)
                        .map(|j| (j, a.value.0))
                })
                .collect(),
            against_modes: t
                .value
                .modes
                .iter()
                .filter_map(|a| names.id(cx, kind::Mode, &a.name).map(|j| (j, a.value.0)))
                .collect(),
        });
    }
    OpenTableRules {
        keep_apart: o.keep_apart.as_ref().map_or(Cost::ZERO, |c| c.0),
        threats,
        threat_needs_sight: o.threat_needs_sight,
        enter_only_faced_threats: o.enter_only_faced_threats,
        threats_ignored_with_flags: names.ids(cx, kind::Flag, &o.threats_ignored_with_flags),
        move_counter: o
            .move_counter
            .as_ref()
            .and_then(|c| names.id(cx, kind::Counter, c)),
        mode_costs_a_move: names.ids(cx, kind::Mode, &o.mode_costs_a_move),
        contact_flag: o
            .contact_flag
            .as_ref()
            .and_then(|f| names.id(cx, kind::Flag, f)),
        pieces_block_sight,
        pivots: compile_pivots(cx, o, names),
    }
}

/// `open_table.pivots`: each piece type's pivot, for all its modes or per mode.
fn compile_pivots(cx: &mut Cx, o: &OpenTableSpec, names: &NameTable) -> Vec<PivotRule> {
    let mut out = Vec::new();
    for t in o.pivots.iter() {
        let Some(piece_type) = names.id(cx, kind::PieceType, &t.name) else {
            continue;
        };
        let at = &t.name.location;
        let pivot = |cx: &mut Cx, text: &str| -> Option<Pivot> {
            match text {
                "wheel" => Some(Pivot::Wheel),
                "free" => Some(Pivot::Free),
                _ => match parse_cost(text) {
                    Ok(c) if c >= Cost::ZERO => Some(Pivot::Cost(c)),
                    _ => {
                        cx.error(
                            at,
                            format!(
                                "pivot of `{}`: `{text}` is not `wheel`, `free` or a cost of 0 or more",
                                t.name.value
                            ),
                        );
                        None
                    }
                },
            }
        };
        match &t.value {
            PivotSpec::All(text) => {
                if let Some(p) = pivot(cx, text) {
                    out.push(PivotRule {
                        piece_type,
                        mode: None,
                        pivot: p,
                    });
                }
            }
            PivotSpec::Modes(modes) => {
                for m in modes.iter() {
                    let Some(mode) = names.id(cx, kind::Mode, &m.name) else {
                        continue;
                    };
                    if let Some(p) = pivot(cx, &m.value) {
                        out.push(PivotRule {
                            piece_type,
                            mode: Some(mode),
                            pivot: p,
                        });
                    }
                }
            }
        }
    }
    out
}

/// Saved movement points: the counter holding them, what one is worth, and who may save.
pub(super) fn compile_saving(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
) -> Option<SavingRules> {
    let sv = spec.saving.as_ref()?;
    let counter = names.id(cx, kind::Counter, &sv.counter)?;
    let unit = sv.unit.as_ref().map_or(Cost::ONE, |u| u.0);
    if unit <= Cost::ZERO {
        cx.error(&sv.counter.location, "`saving.unit` must be more than 0");
    }
    Some(SavingRules {
        counter,
        unit,
        modes: names.ids(cx, kind::Mode, &sv.modes),
        costly_terrain: sv.costly_terrain,
    })
}

/// Commands spread over several cells: the counter shared among them and its least share.
pub(super) fn compile_spread(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
) -> Option<SpreadRules> {
    spec.spread.as_ref().map(|sp| SpreadRules {
        counter: sp
            .counter
            .as_ref()
            .and_then(|c| names.id(cx, kind::Counter, c)),
        min_per_cell: sp.min_per_cell,
        from_phase_start: sp.from_phase_start,
        relay_modes: names.ids(cx, kind::Mode, &sp.relay_modes),
        costs_step: sp.costs_step,
    })
}
