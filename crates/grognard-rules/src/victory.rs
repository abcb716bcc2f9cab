//! The `victory:` section of a ruleset or a scenario, checked and compiled into the
//! kernel's [`VictoryRules`]: every piece type, flag, counter, region and side it names is
//! resolved, and an unknown name is reported at its line with the known names.

use grognard_kernel::ids::{CounterId, FlagId, PieceTypeId, SideId};
use grognard_kernel::victory::{HoldRule, LoseRule, LoseWhen, VictoryRules};

use crate::cx::Cx;
use crate::model::VictorySpec;

/// The names a `victory:` section may use.
pub(crate) struct VictoryNames<'a> {
    /// Piece types.
    pub types: Vec<&'a str>,
    /// Flags.
    pub flags: Vec<&'a str>,
    /// Counters.
    pub counters: Vec<&'a str>,
    /// Sides and regions: a scenario's (`None` in a ruleset, which has neither).
    pub sides: Option<Vec<&'a str>>,
    /// Regions of the scenario's board.
    pub regions: Option<Vec<&'a str>>,
}

/// Compiles a `victory:` section; problems go to `cx`.
pub(crate) fn compile_victory(
    cx: &mut Cx,
    spec: &VictorySpec,
    names: &VictoryNames<'_>,
) -> VictoryRules {
    let type_id = |cx: &mut Cx, n: &crate::de::Located<String>| {
        cx.lookup("piece type", n, names.types.iter().copied())
            .and_then(|i| u16::try_from(i).ok())
            .map(PieceTypeId)
    };
    let mut removed = Vec::new();
    for entry in spec.removed.iter() {
        if entry.name.value == "any" {
            removed.push((None, entry.value));
        } else if let Some(t) = type_id(cx, &entry.name) {
            removed.push((Some(t), entry.value));
        }
    }
    let removed_unless: Vec<FlagId> = spec
        .removed_unless
        .iter()
        .filter_map(|f| cx.lookup("flag", f, names.flags.iter().copied()))
        .map(|i| FlagId(i as _))
        .collect();
    let mut flagged = Vec::new();
    for entry in spec.flagged.iter() {
        if let Some(f) = cx.lookup("flag", &entry.name, names.flags.iter().copied()) {
            flagged.push((FlagId(f as _), entry.value));
        }
    }
    let mut hold = Vec::new();
    for h in &spec.hold {
        let (Some(regions), Some(sides)) = (&names.regions, &names.sides) else {
            cx.error(
                &h.location,
                "`hold` names a scenario's regions: declare it in the scenario's `victory:`",
            );
            continue;
        };
        if cx
            .lookup("region", &h.value.region, regions.iter().copied())
            .is_none()
        {
            continue;
        }
        let side = match &h.value.side {
            Some(s) => match cx.lookup("side", s, sides.iter().copied()) {
                Some(i) => u8::try_from(i).ok().map(SideId),
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
            match cx.lookup("flag", f, names.flags.iter().copied()) {
                Some(i) => LoseWhen::Flag(FlagId(i as _)),
                None => continue,
            }
        } else if let Some(c) = &v.counter {
            let Some(at_least) = v.at_least else {
                cx.error(&c.location, "a `counter` condition needs `at_least: N`");
                continue;
            };
            match cx.lookup("counter", c, names.counters.iter().copied()) {
                Some(i) => LoseWhen::CounterAtLeast(CounterId(i as _), at_least),
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
