//! Compiles the company rules of piece types (`passes`, `joins`, `attaches`, `exits`,
//! `after_move`) and the ruleset's `half_hexes`, resolving every name they use.

use grognard_kernel::company::{AfterMove, Company, ExitEdge, ExitRule, HalfHexRules};
use grognard_kernel::ids::{FlagId, PieceTypeId};

use crate::cx::Cx;
use crate::de::Located;
use crate::model::{ExitBaseline, HalfHexRulesSpec, PieceTypeSpec};
use crate::names::{NameTable, kind};

fn types(cx: &mut Cx, names: &NameTable<'_>, list: &[Located<String>]) -> Vec<PieceTypeId> {
    names.ids(cx, kind::PieceType, list)
}

fn flag(cx: &mut Cx, names: &NameTable<'_>, f: &Located<String>) -> Option<FlagId> {
    names.id(cx, kind::Flag, f)
}

/// One piece type's company rules.
pub(crate) fn compile_company(cx: &mut Cx, names: &NameTable<'_>, spec: &PieceTypeSpec) -> Company {
    let exits = spec.exits.as_ref().map(|e| {
        let edge = match e.baseline.as_ref().map_or(ExitBaseline::Own, |b| b.value) {
            ExitBaseline::Own => ExitEdge::Own,
            ExitBaseline::Enemy => ExitEdge::Enemy,
            ExitBaseline::Any => ExitEdge::Any,
        };
        ExitRule {
            edge,
            option: e
                .option
                .as_ref()
                .and_then(|o| names.id(cx, kind::Optional, o)),
            marks: e.marks.as_ref().and_then(|m| flag(cx, names, m)),
        }
    });
    let after_move = spec
        .after_move
        .iter()
        .filter_map(|a| {
            let into = a
                .into
                .iter()
                .filter_map(|t| names.id(cx, kind::Terrain, t))
                .collect();
            if a.set.value.is_empty() {
                cx.error(
                    &a.set.location,
                    "an `after_move` entry needs `set:` (the flag the move sets)",
                );
                return None;
            }
            if names.open && a.min_steps > 1 {
                // A move on an open table counts as one step, so the flag would never be set.
                cx.error(
                    &a.set.location,
                    format!(
                        "an `after_move` entry with `min_steps: {}` never applies on an open table, where a move counts as one step",
                        a.min_steps
                    ),
                );
                return None;
            }
            Some(AfterMove {
                min_steps: a.min_steps,
                into,
                set: flag(cx, names, &a.set)?,
            })
        })
        .collect();
    let holds_host_option = spec
        .holds_host_option
        .as_ref()
        .and_then(|o| names.id(cx, kind::Optional, o));
    if spec.joins_at_set_up && !spec.attaches {
        cx.error(
            &spec.movement.location,
            "`joins_at_set_up` needs `attaches: true` (it attaches the piece that is carried)",
        );
    }
    Company {
        holds_host_option,
        joins_at_set_up: spec.joins_at_set_up,
        passes: types(cx, names, &spec.passes),
        joins: types(cx, names, &spec.joins),
        attaches: spec.attaches,
        exits,
        after_move,
    }
}

/// The ruleset's `half_hexes` rules.
pub(crate) fn compile_half_hexes(
    cx: &mut Cx,
    names: &NameTable<'_>,
    spec: Option<&HalfHexRulesSpec>,
) -> HalfHexRules {
    let Some(spec) = spec else {
        return HalfHexRules::default();
    };
    HalfHexRules {
        sides: spec.sides.unwrap_or(true),
        baselines: spec.baselines.unwrap_or(true),
        baselines_option: spec
            .baselines_option
            .as_ref()
            .and_then(|o| names.id(cx, kind::Optional, o)),
    }
}
