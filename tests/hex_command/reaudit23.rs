//! Hex Command (seed 004), twenty-third round: the eighteenth outside audit's findings
//! (issue 33).

use crate::util::{Run, assert_reads_alike, grognard_in, root, side_reads_in};

const OUTSIDE18: &str = "tests/fixtures/audits/hex-command/twentythird/outside18";

fn run18(args: &[&str]) -> Run {
    grognard_in(&root().join(OUTSIDE18), args)
}

// 004 l.514 (4b): the enemy is told the apparent strength of an arriving force only when its
// units occupy the entry hexes. The eighteenth audit's F6: red's r1 and r2 fill both hexes of
// entry place 1 ((11,0), (11,1)) and red's hidden r8 is due there on turn 2; blue's only unit
// b1 is at (3,8), far off. By hand: in turn 2's arrivals phase r8 finds no free hex and no
// blue piece on the place, so it waits a turn, and blue is told nothing: blue's six reads
// through red's turn 2 command phase are the same as in h26b (no r8 at all). It had read
// `red: 1 unit is arriving at entry place 1, which the enemy holds; they wait a turn`. Red
// reads why in its own command phase, which blue does not read.
#[test]
fn an_arrival_held_up_by_its_own_side_is_not_announced() {
    let with = side_reads_in(OUTSIDE18, "h26a.yaml", "o_h26r.orders.yaml", "blue");
    let without = side_reads_in(OUTSIDE18, "h26b.yaml", "o_h26r.orders.yaml", "blue");
    assert!(
        with[0].contains("turn 2 · command phase (red)"),
        "{}",
        with[0]
    );
    assert!(!with[0].contains("announced"), "{}", with[0]);
    assert_reads_alike(&with, &without, "h26a (r8 due) vs h26b (none)");
    let red = run18(&[
        "play",
        "h26a.yaml",
        "--orders",
        "o_h26r.orders.yaml",
        "--side",
        "red",
    ]);
    assert_eq!(red.code, 0, "{}", red.stderr);
    assert!(!red.stdout.contains("announced"), "{}", red.stdout);
    assert!(
        red.stdout.contains(
            "turn 2 · command phase (red)\n  note: r8 is due but found no free hex at entry place 1 (its own side's pieces fill it); it waits a turn"
        ),
        "{}",
        red.stdout
    );
    // The referee: r8 is still off the board, due on turn 2.
    let referee = run18(&[
        "view",
        "h26a.yaml",
        "--orders",
        "o_h26r.orders.yaml",
        "--referee",
    ]);
    assert_eq!(referee.code, 0, "{}", referee.stderr);
    assert!(
        referee
            .stdout
            .contains("r8         red, infantry, formed mode, off the board [arrives 2"),
        "{}",
        referee.stdout
    );
}

// The same with a lone blue commander on one hex of the place (r37.yaml): red's r8 comes on
// at (11,1), the other hex; r9 finds no hex free. A commander is no unit (l.514 speaks of
// units; 2a-b), so the place is not held and nothing is announced.
#[test]
fn a_lone_commander_on_the_place_holds_nothing_and_hears_nothing() {
    let blue = run18(&["view", "r37.yaml", "--side", "blue"]);
    assert_eq!(blue.code, 0, "{}", blue.stderr);
    assert!(
        blue.stdout.contains("r8 moved from out of sight to (11,1)"),
        "{}",
        blue.stdout
    );
    assert!(!blue.stdout.contains("announced"), "{}", blue.stdout);
}

// 004 l.170 (integrity is checked when all commanders are killed), l.456 (10% for each
// commander lost), l.458 (reinforcements are their own force). The eighteenth audit's F2:
// red's only commander gen9 rides r9, a reinforcement due on turn 3 (h16a2.yaml, seed 2).
// He has not come on yet: he is neither killed nor lost. By hand: red has r1 on the board
// and nothing lost, so no integrity check is made in red's command phase, as with the same
// commander due on his own (h16d2) or no commander at all (h16b2). It had noted `red has
// lost all its commanders: integrity check`, and r1 rolled and withdrew, which blue saw.
#[test]
fn a_commander_still_to_arrive_is_not_lost() {
    for scenario in ["h16a2.yaml", "h16d2.yaml"] {
        let referee = run18(&["play", scenario, "--orders", "o_h16s.orders.yaml"]);
        assert_eq!(referee.code, 0, "{}", referee.stderr);
        assert!(
            referee.stdout.contains("turn 1 · command phase (red)"),
            "{}",
            referee.stdout
        );
        assert!(
            !referee.stdout.contains("integrity"),
            "{scenario}: {}",
            referee.stdout
        );
        assert!(
            !referee.stdout.contains("r1 removed"),
            "{scenario}: {}",
            referee.stdout
        );
    }
    let with = side_reads_in(OUTSIDE18, "h16a2.yaml", "o_h16s.orders.yaml", "blue");
    let without = side_reads_in(OUTSIDE18, "h16b2.yaml", "o_h16s.orders.yaml", "blue");
    assert_reads_alike(&with, &without, "h16a2 (gen9 riding r9) vs h16b2 (neither)");
}

// 004 l.514 (4b: enemy units on the entry hexes; the enemy is told the apparent strength of
// the arriving force), with 2a-b and 5.3 (a commander is a symbol of command, no unit; he
// weighs nothing in a hex) and the twentieth round's reading (a lone commander is on the table
// at any range). The eighteenth audit's F7: red's only arrival on turn 1 is the lone
// commander gen9, at entry place 1 ((11,0), (11,1)); blue's b1 stands on (11,1). Blue had read
// `red: 1 unit is arriving …` and b1 was marked blocking. By hand: he is no force the place
// keeps out, so he comes on at (11,0), the free hex, and blue sees him arrive (h28a). With b2
// on (11,0) too (h28c) no hex is free: he waits, blue is told `a commander is arriving`, and
// no blue unit is marked blocking (there is no force to make way for).
#[test]
fn a_lone_commander_arriving_is_no_unit_and_is_not_blocked() {
    let free = run18(&["view", "h28a.yaml", "--side", "blue"]);
    assert_eq!(free.code, 0, "{}", free.stderr);
    assert!(
        free.stdout
            .contains("gen9 moved from out of sight to (11,0)"),
        "{}",
        free.stdout
    );
    assert!(!free.stdout.contains("announced"), "{}", free.stdout);
    assert!(!free.stdout.contains("blocking"), "{}", free.stdout);
    let full = run18(&["view", "h28c.yaml", "--side", "blue"]);
    assert_eq!(full.code, 0, "{}", full.stderr);
    assert!(
        full.stdout.contains(
            "announced: red: a commander is arriving at entry place 1, which the enemy holds; he waits a turn"
        ),
        "{}",
        full.stdout
    );
    assert!(!full.stdout.contains("1 unit"), "{}", full.stdout);
    assert!(!full.stdout.contains("blocking"), "{}", full.stdout);
}

/// The fire roll lines of a referee's play of `scenario` with `orders`.
fn fire_lines(scenario: &str, orders: &str) -> Vec<String> {
    let run = run18(&["play", scenario, "--orders", orders]);
    assert_eq!(run.code, 0, "{scenario}: {}", run.stderr);
    run.stdout
        .lines()
        .filter(|l| l.contains("fire_small_b:"))
        .map(str::to_owned)
        .collect()
}

// 004 l.37 (each cover level one CP), l.558 (a unit on a road not deployed counts flanked when
// fired on), l.264 and l.467 (a spotted marker is returned to the surface: the real unit is on
// the table). The eighteenth audit's F1: a unit set up hidden kept the flag once revealed, and
// fire at it counted only its ground. By hand: in f1a, m (works 4: quick works, one level of
// cover; on clear ground) is set up hidden at (5,4), 2 hexes from b1 in the open, so blue has
// identified it (`sighting seen`) when b1 fires in turn 1: the shot counts `+1 target in cover`,
// band 2 (Code), cube red → miss, the same line as f1b, where m is set up in the open (it had
// read `band 1 (Color) → hit`). In f1c m stands on a road in column (`on_road`), revealed at 3
// hexes: `-1 target's flank or rear`, band 1, as f1d (it had read band 2 with no modifier). In
// h1r6 m is in buildings with its works at 6 hexes and spotted by the arrivals roll: `+2
// target in cover`, as h1v6 (set up unhidden); it had read `+1`.
#[test]
fn fire_at_an_identified_marker_counts_its_works_and_column() {
    let f1a = fire_lines("f1a.yaml", "o_f1.orders.yaml");
    assert_eq!(
        f1a,
        [
            "  fire_small_b: cube red; +1 target in cover; band 2 (Code) → miss (fire_small_b by b1 at m)"
        ]
    );
    assert_eq!(f1a, fire_lines("f1b.yaml", "o_f1.orders.yaml"));
    let f1c = fire_lines("f1c.yaml", "o_f1.orders.yaml");
    assert_eq!(
        f1c,
        [
            "  fire_small_b: cube red; -1 target's flank or rear; band 1 (Color) → hit (fire_small_b by b1 at m)"
        ]
    );
    assert_eq!(f1c, fire_lines("f1d.yaml", "o_f1.orders.yaml"));
    for scenario in ["h1r6.yaml", "h1v6.yaml"] {
        let lines = fire_lines(scenario, "o_h1.orders.yaml");
        assert!(!lines.is_empty(), "{scenario}");
        assert!(
            lines
                .iter()
                .all(|l| l.contains("; +2 target in cover; band 3")),
            "{scenario}: {lines:?}"
        );
    }
}

// 004 l.252 (optional Disorder/Fatigued: at the maximum TE hits, 3, the unit is fatigued and
// must stop all further movement). The eighteenth audit's F4: b1 (2 TE hits) moving
// (3,8) → (3,7) → (3,6) → (3,5) crosses a wall between (3,7) and (3,6) (r34true) or enters the
// forest at (3,6) (r34f): its third TE hit is taken entering (3,6), yet it walked on to (3,5).
// By hand: the move may not go past (3,6), so the three-hex path is refused in the rule's
// words and `reach` lists no cell whose path goes through (3,6) further ((2,5) is reached only
// that way); the same move ending at (3,6) is accepted, and b1 is fatigued there.
#[test]
fn the_third_te_hit_mid_move_stops_the_move_under_disorder_fatigue() {
    for scenario in ["r34true.yaml", "r34f.yaml"] {
        let run = run18(&["play", scenario, "--orders", "o_r34.orders.yaml"]);
        assert!(
            run.stderr.contains(
                "refused: b1 takes its third fatigue (TE) hit at (3,6) and must stop there (Disorder/Fatigued: no further movement)"
            ),
            "{scenario}: {}{}",
            run.stdout,
            run.stderr
        );
        assert!(
            !run.stdout.contains("b1 moved"),
            "{scenario}: {}",
            run.stdout
        );
        let short = run18(&["play", scenario, "--orders", "o_r34s.orders.yaml"]);
        assert_eq!(short.code, 0, "{scenario}: {}", short.stderr);
        assert!(
            short
                .stdout
                .contains("b1 moved (3,8) → (3,7) → (3,6), cost 2"),
            "{}",
            short.stdout
        );
        assert!(short.stdout.contains("b1 is fatigued"), "{}", short.stdout);
    }
    let reach = run18(&["reach", "r34f.yaml", "--unit", "b1"]);
    assert_eq!(reach.code, 0, "{}", reach.stderr);
    assert!(
        reach.stdout.contains("(3,6)      cost 2"),
        "{}",
        reach.stdout
    );
    assert!(!reach.stdout.contains("(2,5) "), "{}", reach.stdout);
}
