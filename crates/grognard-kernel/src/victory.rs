//! Victory conditions and the result of a game.
//!
//! A ruleset or a scenario may declare [`VictoryRules`] (the scenario's replace the
//! ruleset's): points for enemy pieces off the board at the end, by type; points for enemy
//! pieces ending with a flag (routed, broken); points for regions a side alone holds at the
//! end; and conditions under which a side loses at once (a flag or a counter on one of its
//! pieces, or none of its pieces of some types left on the board — a broken army). When the
//! last turn ends, or as soon as a side loses, the game ends with a [`GameResult`]: the
//! winner (the side with the most points, by at least the margin; otherwise a draw), every
//! side's points, and why.
//!
//! Everything here is a pure function of the rules, the board and the state.

use crate::board::{Board, SideDef};
use crate::ids::{FlagId, PieceId, PieceTypeId, SideId};
use crate::piece::Piece;
use crate::state::State;

pub use crate::rules::victory::{GameResult, HoldRule, LoseRule, LoseWhen, VictoryRules};

fn of_types(types: &[PieceTypeId], p: &Piece) -> bool {
    types.is_empty() || types.contains(&p.kind)
}

/// The side that loses now and why, if a lose condition holds for one (sides in order).
#[must_use]
pub fn sudden_loss(v: &VictoryRules, sides: &[SideDef], state: &State) -> Option<(SideId, String)> {
    (0..sides.len()).find_map(|i| {
        let side = SideId(u8::try_from(i).ok()?);
        let mine = || state.pieces.iter().filter(move |p| p.side == side);
        v.lose.iter().find_map(|rule| {
            let lost = match rule.when {
                LoseWhen::Flag(f) => mine()
                    .filter(|p| p.on_board() && of_types(&rule.types, p))
                    .any(|p| p.flag(f)),
                LoseWhen::CounterAtLeast(c, at) => mine()
                    .filter(|p| p.on_board() && of_types(&rule.types, p))
                    .any(|p| p.counters.get(c.index()).copied().unwrap_or(0) >= at),
                LoseWhen::NoPieces => !mine().any(|p| p.on_board() && of_types(&rule.types, p)),
            };
            lost.then(|| (side, rule.why.clone()))
        })
    })
}

/// What earned a side some of its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// An enemy piece on the board carrying a flag that scores (routed, broken).
    Flagged(PieceId, FlagId),
    /// An enemy piece off the board (and not saved by a `removed_unless` flag).
    Removed(PieceId),
    /// A region the side alone holds, by its index in `VictoryRules::hold`.
    Holds(usize),
}

/// One item of a side's points: who gets them, for what, and how many (never 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    /// The side credited.
    pub side: SideId,
    /// What earned them.
    pub source: Source,
    /// How many.
    pub points: i32,
}

/// Every item of every side's points at the end, in the order the pieces and the hold
/// rules stand: the points a piece gives go to every side but its owner.
#[must_use]
pub fn scored(v: &VictoryRules, board: &Board, sides: &[SideDef], state: &State) -> Vec<Scored> {
    let mut out = Vec::new();
    for p in &state.pieces {
        let mut for_others = |source: Source, points: i32| {
            if points == 0 {
                return;
            }
            let others = (0..sides.len())
                .filter(|i| *i != p.side.index())
                .filter_map(|i| u8::try_from(i).ok().map(SideId));
            out.extend(others.map(|side| Scored {
                side,
                source,
                points,
            }));
        };
        if p.on_board() {
            for (flag, n) in &v.flagged {
                if p.flag(*flag) {
                    for_others(Source::Flagged(p.id, *flag), *n);
                }
            }
        } else if !v.removed_unless.iter().any(|f| p.flag(*f)) {
            let n = v
                .removed
                .iter()
                .find(|(t, _)| *t == Some(p.kind))
                .or_else(|| v.removed.iter().find(|(t, _)| t.is_none()))
                .map_or(0, |(_, n)| *n);
            for_others(Source::Removed(p.id), n);
        }
    }
    for (i, rule) in v.hold.iter().enumerate() {
        let Some(region) = board.regions.iter().find(|r| r.name == rule.region) else {
            continue;
        };
        let holders: Vec<SideId> = state
            .pieces
            .iter()
            .filter(|p| p.on_board() && region.holds(&p.place))
            .map(|p| p.side)
            .collect();
        if let Some(&first) = holders.first()
            && holders.iter().all(|s| *s == first)
            && rule.side.is_none_or(|s| s == first)
            && first.index() < sides.len()
            && rule.points != 0
        {
            out.push(Scored {
                side: first,
                source: Source::Holds(i),
                points: rule.points,
            });
        }
    }
    out
}

/// Every side's points at the end: the sum of its [`scored`] items.
#[must_use]
pub fn points(v: &VictoryRules, board: &Board, sides: &[SideDef], state: &State) -> Vec<i32> {
    let mut points = vec![0i32; sides.len()];
    for item in scored(v, board, sides, state) {
        if let Some(pts) = points.get_mut(item.side.index()) {
            *pts = pts.saturating_add(item.points);
        }
    }
    points
}

/// The side that has reached the points that win at once, if one has (sides in order).
#[must_use]
pub fn sudden_win(
    v: &VictoryRules,
    board: &Board,
    sides: &[SideDef],
    state: &State,
) -> Option<SideId> {
    let at = v.win_at?;
    let points = points(v, board, sides, state);
    let i = points.iter().position(|p| *p >= at)?;
    u8::try_from(i).ok().map(SideId)
}

/// The result when the last turn has ended, or when `loser` has lost at once.
#[must_use]
pub fn result(
    v: Option<&VictoryRules>,
    board: &Board,
    sides: &[SideDef],
    state: &State,
    loser: Option<(SideId, String)>,
) -> GameResult {
    let name = |s: SideId| sides.get(s.index()).map_or("?", |d| d.name.as_str());
    let Some(v) = v else {
        return GameResult {
            winner: None,
            points: vec![0; sides.len()],
            why: "a draw: the scenario declares no victory conditions".to_owned(),
        };
    };
    let points = points(v, board, sides, state);
    if loser.is_none()
        && let (Some(at), Some(w)) = (v.win_at, sudden_win(v, board, sides, state))
    {
        return GameResult {
            winner: Some(w),
            why: format!(
                "{} wins with {} points (the game is won at {at})",
                name(w),
                points[w.index()]
            ),
            points,
        };
    }
    if let Some((lost, why)) = loser {
        // The best of the others wins (with two sides, the other side).
        let winner = (0..sides.len())
            .filter(|i| *i != lost.index())
            .max_by_key(|i| (points[*i], std::cmp::Reverse(*i)))
            .and_then(|i| u8::try_from(i).ok().map(SideId));
        return GameResult {
            winner,
            why: format!("{} loses: {why}", name(lost)),
            points,
        };
    }
    let mut order: Vec<usize> = (0..sides.len()).collect();
    order.sort_by_key(|i| (std::cmp::Reverse(points[*i]), *i));
    let lead = match order.as_slice() {
        [a, b, ..] => points[*a].saturating_sub(points[*b]),
        [_] => v.margin.max(1),
        [] => 0,
    };
    let scores = order
        .iter()
        .map(|i| format!("{} {}", sides[*i].name, points[*i]))
        .collect::<Vec<_>>()
        .join(", ");
    if lead >= v.margin.max(1) {
        let w = SideId(u8::try_from(order[0]).unwrap_or(0));
        GameResult {
            winner: Some(w),
            why: format!("{} wins on points ({scores})", name(w)),
            points,
        }
    } else {
        GameResult {
            winner: None,
            why: format!("a draw on points ({scores})"),
            points,
        }
    }
}
