//! How a game is won, in a player's words: the victory terms in force (the scenario's, else
//! the ruleset's) for the Play tab, and at the end which pieces and places made each side's
//! points. The kernel scores the game ([`grognard_kernel::victory::points`]); this only
//! says, item by item, what it counted, so the sum is the kernel's.

use grognard_kernel::game::Game;
use grognard_kernel::victory::{self, LoseWhen, Source, VictoryRules};

use crate::view::ViewAs;
use crate::words::spaced;

/// The terms in force: a scenario's `victory:` replaces its ruleset's.
#[must_use]
pub fn terms_in_force<'a>(
    scenario: &'a grognard_rules::load::Scenario,
    game: &'a Game,
) -> Option<&'a VictoryRules> {
    scenario
        .compiled
        .setup
        .victory
        .as_ref()
        .or(game.rules().victory.as_ref())
}

/// "1 point" or "2 points".
fn pts(n: i32) -> String {
    if n == 1 || n == -1 {
        format!("{n} point")
    } else {
        format!("{n} points")
    }
}

/// The victory terms as sentences, for the Play tab's *How to win*.
#[must_use]
pub fn terms(game: &Game, v: Option<&VictoryRules>) -> Vec<String> {
    let rules = game.rules();
    let type_name = |t: grognard_kernel::ids::PieceTypeId| {
        rules
            .piece_type(t)
            .map_or_else(|| "?".to_owned(), |d| spaced(&d.name))
    };
    let Some(v) = v else {
        return vec![format!(
            "The scenario declares no victory conditions: the game is a draw after turn {}.",
            game.turns()
        )];
    };
    let mut out = Vec::new();
    if !v.removed.is_empty() {
        let any = v.removed.iter().find(|(t, _)| t.is_none()).map(|(_, n)| *n);
        let others: Vec<String> = v
            .removed
            .iter()
            .filter_map(|(t, n)| t.map(|t| format!("{} {}", type_name(t), pts(*n))))
            .collect();
        let mut line = match any {
            Some(n) => format!(
                "Each enemy piece off the board at the end scores {}",
                pts(n)
            ),
            None => "Enemy pieces off the board at the end score by type".to_owned(),
        };
        if !others.is_empty() {
            line.push_str(&format!(
                " ({}{})",
                if any.is_some() { "but " } else { "" },
                others.join(", ")
            ));
        }
        if !v.removed_unless.is_empty() {
            let flags: Vec<String> = v
                .removed_unless
                .iter()
                .map(|f| spaced(rules.flag_name(*f)))
                .collect();
            line.push_str(&format!(
                "; none for a piece that left {}",
                flags.join(" or ")
            ));
        }
        line.push('.');
        out.push(line);
    }
    for (flag, n) in &v.flagged {
        out.push(format!(
            "Each enemy piece on the board {} at the end scores {}.",
            spaced(rules.flag_name(*flag)),
            pts(*n)
        ));
    }
    for h in &v.hold {
        let who = h
            .side
            .and_then(|s| game.sides().get(s.index()))
            .map_or_else(String::new, |d| format!(" (for {} only)", d.name));
        out.push(format!(
            "Holding {} alone at the end scores {}{who}.",
            spaced(&h.region),
            pts(h.points)
        ));
    }
    for l in &v.lose {
        let kinds: Vec<String> = l.types.iter().map(|t| type_name(*t)).collect();
        let of = if kinds.is_empty() {
            String::new()
        } else {
            format!(" ({})", kinds.join(", "))
        };
        let when = match l.when {
            LoseWhen::Flag(f) => format!("one of its pieces{of} is {}", spaced(rules.flag_name(f))),
            LoseWhen::CounterAtLeast(c, at) => format!(
                "one of its pieces{of} has {} {at} or more",
                spaced(rules.counter_name(c))
            ),
            LoseWhen::NoPieces => format!("none of its pieces{of} is left on the board"),
        };
        out.push(format!("A side loses at once when {when}: {}.", l.why));
    }
    if let Some(at) = v.win_at {
        out.push(format!("A side with {} wins at once.", pts(at)));
    }
    out.push(if v.margin <= 1 {
        format!(
            "After turn {}, the side with the most points wins; equal points are a draw.",
            game.turns()
        )
    } else {
        format!(
            "After turn {}, the side with the most points wins if it leads by {} or more; \
             otherwise it is a draw.",
            game.turns(),
            v.margin
        )
    });
    out
}

/// Which items made each side's points, one line a side that scored (`red 3: b1 off the
/// board 1, hale off the board 2`), as the kernel counts them. Seen as a side in a game of
/// hidden pieces, an enemy piece is not named (`an enemy piece`): the end does not unmask.
#[must_use]
pub fn breakdown(game: &Game, v: &VictoryRules, view: ViewAs) -> Vec<String> {
    let rules = game.rules();
    let sides = game.sides();
    let state = game.state();
    let hidden = game.sighting().is_some();
    let name_of = |p: &grognard_kernel::piece::Piece| match view {
        ViewAs::Side(s) if hidden && s != p.side => "an enemy piece".to_owned(),
        _ => p.name.clone(),
    };
    let mut items: Vec<Vec<(String, i32)>> = vec![Vec::new(); sides.len()];
    for item in victory::scored(v, game.board(), sides, state) {
        let what = match item.source {
            Source::Flagged(piece, flag) => state
                .pieces
                .get(piece.index())
                .map(|p| format!("{} {}", name_of(p), spaced(rules.flag_name(flag)))),
            Source::Removed(piece) => state
                .pieces
                .get(piece.index())
                .map(|p| format!("{} off the board", name_of(p))),
            Source::Holds(i) => v
                .hold
                .get(i)
                .map(|r| format!("holds {}", spaced(&r.region))),
        };
        if let (Some(what), Some(list)) = (what, items.get_mut(item.side.index())) {
            list.push((what, item.points));
        }
    }
    let totals = game.victory_points();
    items
        .into_iter()
        .enumerate()
        .filter(|(_, list)| !list.is_empty())
        .map(|(i, list)| {
            // Equal items are counted once with their number (three hidden blocks).
            let mut grouped: Vec<(String, i32, usize)> = Vec::new();
            for (what, n) in list {
                match grouped.iter_mut().find(|(w, m, _)| *w == what && *m == n) {
                    Some(g) => g.2 += 1,
                    None => grouped.push((what, n, 1)),
                }
            }
            let parts: Vec<String> = grouped
                .into_iter()
                .map(|(what, n, k)| grouped_words(&what, n, k))
                .collect();
            let name = sides.get(i).map_or("?", |d| d.name.as_str());
            let total = totals.get(i).copied().unwrap_or(0);
            format!("{name} {total}: {}", parts.join(", "))
        })
        .collect()
}

/// A scoring item counted `k` times at `n` points each: `b1 off the board 1` once, and
/// `2 enemy pieces off the board: 2 points` for more (`an enemy piece off the board ×2, 2`
/// was hard to read; outside player E7).
fn grouped_words(what: &str, n: i32, k: usize) -> String {
    if k == 1 {
        return format!("{what} {n}");
    }
    let total = n.saturating_mul(i32::try_from(k).unwrap_or(i32::MAX));
    let points = crate::words::count(i64::from(total), "point");
    match what.strip_prefix("an enemy piece ") {
        Some(rest) => format!("{k} enemy pieces {rest}: {points}"),
        None => format!("{what} ×{k}: {points}"),
    }
}

#[cfg(test)]
mod tests {
    use super::grouped_words;

    /// E7: two hidden red units off the board at 1 point each read "an enemy piece off the
    /// board ×2, 2" beside a hidden commander's "an enemy piece off the board 2".
    #[test]
    fn equal_items_read_as_a_count_and_their_points() {
        assert_eq!(
            grouped_words("an enemy piece off the board", 1, 2),
            "2 enemy pieces off the board: 2 points"
        );
        assert_eq!(
            grouped_words("an enemy piece routed", 1, 3),
            "3 enemy pieces routed: 3 points"
        );
        assert_eq!(
            grouped_words("an enemy piece off the board", 2, 1),
            "an enemy piece off the board 2"
        );
        assert_eq!(grouped_words("holds ford", 1, 2), "holds ford ×2: 2 points");
    }
}
