//! The search's judge of a hex-leaders position (`scripts/hex_leaders_judge.lua`, the
//! ruleset's `evaluate` hook; not a rule): the race to the next removal. Worked by hand
//! from the ruleset's battle (a d6, 5 or 6 a hit, one loss; a piece with 4 losses is
//! removed) and movement (a circle or cavalry unit moves 2 and battles, a triangle that
//! moves 2 may not battle, a square infantry unit moves 1): a side's units remove an enemy
//! piece in (4 − its losses) ÷ (⅓ for each unit next to it, ⅙ for each that can move next
//! to it and still battle) turns, at most 24; the race is (theirs − ours) ÷ (theirs + ours)
//! and the hook returns half of it plus half the search's own score.

use grognard_kernel::ids::SideId;

use super::{Table, table};
use crate::util::near;

const BLUE: SideId = SideId(0);
const RED: SideId = SideId(1);

/// The hook's value of `side`'s view with the search's own score `score`.
fn judged(t: &mut Table, side: SideId, score: f64) -> f64 {
    crate::util::judged(&t.game, &mut t.hooks, side, score)
}

#[test]
fn armies_out_of_reach_are_level_and_half_the_search_score_stays() {
    // Rows 1 and 5 are four hexes apart: no unit can come next to an enemy this turn.
    let mut t = table(
        "  - { id: b1, side: blue, type: infantry_circle, at: [3, 5] }\n\
         \x20 - { id: r1, side: red, type: infantry_circle, at: [3, 1] }\n",
    );
    assert!(near(judged(&mut t, BLUE, 0.4), 0.2));
    assert!(near(judged(&mut t, RED, -0.4), -0.2));
}

#[test]
fn the_side_nearer_a_removal_is_ahead() {
    // b1 (3,2) and r1 (3,1) are neighbours (an even row's upper neighbours are the same
    // column and the one before). r1 carries 2 losses: blue removes it in 2 ÷ ⅓ = 6 turns,
    // red removes b1 in 4 ÷ ⅓ = 12; the race is (12 − 6) ÷ 18 = ⅓ for blue.
    let mut t = table(
        "  - { id: b1, side: blue, type: infantry_circle, at: [3, 2] }\n\
         \x20 - { id: r1, side: red, type: infantry_circle, at: [3, 1], counters: { losses: 2 } }\n",
    );
    assert!(near(judged(&mut t, BLUE, 0.0), 1.0 / 6.0));
    assert!(near(judged(&mut t, RED, 0.0), -1.0 / 6.0));
}

#[test]
fn a_unit_that_must_move_first_counts_half_and_a_square_or_triangle_reaches_one() {
    // r1, a circle at (3,1). b1, a circle at (3,3), is two hexes from it: within its move
    // of 2 and a battle, ⅙. b2, a triangle at (5,3), is three away: beyond its 1 and a
    // battle, nothing. Blue needs 4 ÷ ⅙ = 24 turns; r1 reaches b1 (two hexes) and b2
    // (three) as a circle does, ⅙ each: 24. Level.
    let pieces = "  - { id: b1, side: blue, type: infantry_circle, at: [3, 3] }\n\
                  \x20 - { id: r1, side: red, type: infantry_circle, at: [3, 1] }\n";
    let mut t = table(&format!(
        "{pieces}  - {{ id: b2, side: blue, type: infantry_triangle, at: [5, 3] }}\n"
    ));
    assert!(near(judged(&mut t, BLUE, 0.0), 0.0));
    // The triangle at (4,2) instead, next to r1: blue needs 4 ÷ (⅙ + ⅓) = 8 turns; r1 next
    // to b2 needs 4 ÷ ⅓ = 12. The race is (12 − 8) ÷ 20 = ⅕ for blue, a value of 1/10.
    let b2 = "  - { id: b2, side: blue, type: infantry_triangle, at: [4, 2] }\n";
    let mut t = table(&format!("{pieces}{b2}"));
    assert!(near(judged(&mut t, BLUE, 0.0), 0.1));
    // A red square at (2,2), two hexes from b1 and from b2 (its move of 1 and a battle):
    // ⅙ on each. Red now removes b2 in 4 ÷ (⅓ + ⅙) = 8 turns; blue's best is still 8 (on
    // r1; the square would take 4 ÷ (⅙ + ⅙) = 12). Level again.
    let r2 = "  - { id: r2, side: red, type: infantry_square, at: [2, 2] }\n";
    let mut t = table(&format!("{pieces}{b2}{r2}"));
    assert!(near(judged(&mut t, BLUE, 0.0), 0.0));
    assert!(near(judged(&mut t, RED, 0.0), 0.0));
    // A red square three hexes from a worn blue circle cannot reach it and battle: b1 at
    // (3,4) with 2 losses, r1 a square at (3,1). Blue needs 4 ÷ ⅙ = 24 turns (b1 moves
    // 2 and battles); red none (24 at most). Level — a square that reached 2 would take
    // b1 in 2 ÷ ⅙ = 12.
    let mut t = table(
        "  - { id: b1, side: blue, type: infantry_circle, at: [3, 4], counters: { losses: 2 } }\n\
         \x20 - { id: r1, side: red, type: infantry_square, at: [3, 1] }\n",
    );
    assert!(near(judged(&mut t, BLUE, 0.0), 0.0));
}
