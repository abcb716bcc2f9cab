//! The `victory:` section of a ruleset or a scenario, checked and compiled into the
//! kernel's [`VictoryRules`]: every piece type, flag, counter, region and side it names is
//! resolved, and an unknown name is reported at its line with the known names.

use grognard_kernel::ids::PieceTypeId;
use grognard_kernel::victory::{HoldRule, LoseRule, LoseWhen, VictoryRules};

use crate::cx::Cx;
use crate::model::VictorySpec;
use crate::names::{NameTable, kind};

/// Compiles a `victory:` section; problems go to `cx`.
pub(crate) fn compile_victory(
    cx: &mut Cx,
    spec: &VictorySpec,
    names: &NameTable<'_>,
) -> VictoryRules {
    let type_id = |cx: &mut Cx, n| names.id(cx, kind::PieceType, n);
    let mut removed = Vec::new();
    for entry in spec.removed.iter() {
        if entry.name.value == "any" {
            removed.push((None, entry.value));
        } else if let Some(t) = type_id(cx, &entry.name) {
            removed.push((Some(t), entry.value));
        }
    }
    let removed_unless = names.ids(cx, kind::Flag, &spec.removed_unless);
    let mut flagged = Vec::new();
    for entry in spec.flagged.iter() {
        if let Some(f) = names.id(cx, kind::Flag, &entry.name) {
            flagged.push((f, entry.value));
        }
    }
    let mut hold = Vec::new();
    for h in &spec.hold {
        if names.scenario.is_none() {
            cx.error(
                &h.location,
                "`hold` names a scenario's regions: declare it in the scenario's `victory:`",
            );
            continue;
        };
        if names.id(cx, kind::Region, &h.value.region).is_none() {
            continue;
        }
        let side = match &h.value.side {
            Some(s) => match names.id(cx, kind::Side, s) {
                Some(side) => Some(side),
                None => continue,
            },
            None => None,
        };
        hold.push(HoldRule {
            region: h.value.region.value.clone(),
            points: h.value.points,
            side,
        });
    }
    let mut lose = Vec::new();
    for l in &spec.lose {
        let v = &l.value;
        let given = usize::from(v.flag.is_some())
            + usize::from(v.counter.is_some())
            + usize::from(v.no_pieces);
        if given != 1 {
            cx.error(
                &l.location,
                "a `lose` entry needs exactly one of `flag: NAME`, `counter: NAME` (with \
                 `at_least: N`) or `no_pieces: true`",
            );
            continue;
        }
        let types: Vec<PieceTypeId> = v.types.iter().filter_map(|t| type_id(cx, t)).collect();
        if types.len() != v.types.len() {
            continue;
        }
        let when = if let Some(f) = &v.flag {
            match names.id(cx, kind::Flag, f) {
                Some(flag) => LoseWhen::Flag(flag),
                None => continue,
            }
        } else if let Some(c) = &v.counter {
            let Some(at_least) = v.at_least else {
                cx.error(&c.location, "a `counter` condition needs `at_least: N`");
                continue;
            };
            match names.id(cx, kind::Counter, c) {
                Some(counter) => LoseWhen::CounterAtLeast(counter, at_least),
                None => continue,
            }
        } else {
            LoseWhen::NoPieces
        };
        let why = v.why.clone().unwrap_or_else(|| match &when {
            LoseWhen::Flag(_) => format!(
                "a piece is {}",
                v.flag.as_ref().map_or("", |f| f.value.as_str())
            ),
            LoseWhen::CounterAtLeast(_, n) => format!(
                "{} reached {n}",
                v.counter.as_ref().map_or("", |c| c.value.as_str())
            ),
            LoseWhen::NoPieces => "no pieces left on the board".to_owned(),
        });
        lose.push(LoseRule { when, types, why });
    }
    VictoryRules {
        removed,
        removed_unless,
        flagged,
        hold,
        lose,
        margin: spec.margin.unwrap_or(1).max(1),
        win_at: spec.win_at,
    }
}
