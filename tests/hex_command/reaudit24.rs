//! Hex Command (seed 004), twenty-fourth round: the nineteenth outside audit's findings
//! (issue 33): leaks through a rout, a commander's rally flag and a removed commander.

use serde_json::Value;

use crate::util::{
    Played, Run, assert_reads_alike, events_of, grognard_in, play_json_in, root, side_reads_in,
};

const OUTSIDE19: &str = "tests/fixtures/audits/hex-command/twentyfourth/outside19";

fn run19(args: &[&str]) -> Run {
    grognard_in(&root().join(OUTSIDE19), args)
}

/// The referee's log of `scenario` under `orders`.
fn referee(scenario: &str, orders: &str) -> String {
    let r = run19(&["play", scenario, "--orders", orders]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
}

/// The referee's `play --json` of `scenario` under `orders`, every order accepted.
fn referee_json(scenario: &str, orders: &str) -> Played {
    let p = play_json_in(&root().join(OUTSIDE19), scenario, orders, &[]);
    assert_eq!((p.code, &p.refused), (0, &None), "{scenario}");
    p
}

/// The events of a side's `play --json` read (the second of `util::SIDE_READS`).
fn side_events(reads: &[String]) -> Vec<Value> {
    events_of(&serde_json::from_str(&reads[1]).expect("play --json"))
}

/// Whether r2 was destroyed for want of room behind a friend, and removed no other way.
fn destroyed(p: &Played) -> bool {
    let reason = "routed: no room behind a red unit; destroyed";
    p.has("removed", "r2", |e| e["reason"] == reason)
        && !p.has("removed", "r2", |e| e["reason"] != reason)
}

// 004 7.5.1 (l.405): a rout may pass through one friend to an empty hex beyond; through two it
// is destroyed. A fake weighs as a unit for passing (5.3 l.542, 5f l.525). The audit's L3 (#28,
// q30, seed 4): blue's b1 melees r2 (2 hits, in forest, a marker); r2 routs 3 hexes NE through
// x at (5,3) and the real y at (6,2). By hand: x and y are two units, so r2 is destroyed,
// whether x is real (q30a) or a fake (q30b). It had survived at (6,1) with x a fake, and blue
// read that x is a fake.
#[test]
fn a_rout_meets_a_friendly_fake_as_a_friend() {
    for v in ["q30a.yaml", "q30b.yaml"] {
        let p = referee_json(v, "q30.orders.yaml");
        assert!(destroyed(&p), "{v}: {:?}", p.events);
    }
    let a = side_reads_in(OUTSIDE19, "q30a.yaml", "q30side.orders.yaml", "blue");
    let b = side_reads_in(OUTSIDE19, "q30b.yaml", "q30side.orders.yaml", "blue");
    assert_reads_alike(&a, &b, "q30a (x real) vs q30b (x a fake)");
}

// The same rout, then x withdraws to (7,0) on the board's edge and r2's next rout runs into it
// (#27, q29, seed 4). By hand: there is no hex beyond x (off the board), so r2 is destroyed
// for want of room (l.405), whether x is real (a), a fake (b) or cavalry (c); with a fake it
// had "left the field". Blue's reads are alike in the three.
#[test]
fn a_friendly_fake_on_the_edge_leaves_no_room_behind() {
    // Destroyed, and not removed as having left the field.
    let p = referee_json("q29b.yaml", "q29.orders.yaml");
    assert!(destroyed(&p), "{:?}", p.events);
    let a = side_reads_in(OUTSIDE19, "q29a.yaml", "q29side.orders.yaml", "blue");
    for v in ["q29b.yaml", "q29c.yaml"] {
        let b = side_reads_in(OUTSIDE19, v, "q29side.orders.yaml", "blue");
        assert_reads_alike(&a, &b, &format!("q29a vs {v}"));
    }
}

// 004 l.299, l.292 (a commander rallies one hit off a unit), l.264 and l.465 (markers hide what
// they are), l.121-122 (hits are the owner's to conceal). The audit's L1 (#26, q28, option
// command_sphere): red's k1 rides the visible, fresh r1 at (4,1); beside it stands the marker
// r2: (a) real with 1 hit, (b) real and fresh, (c) a fake. By hand: in red's rally phase only
// (a) has a hit to take off (`r2 hits 1 → 0`), so k1 is marked `rallying` only there; the mark
// is red's bookkeeping (he rallies one unit a turn) and blue, which had read `k1 is rallying`
// in (a) alone, now reads nothing of it. Red still reads it.
#[test]
fn a_commanders_rally_mark_is_not_read_by_the_enemy() {
    let p = referee_json("q28a.yaml", "q28.orders.yaml");
    let rallied = p.has("counter_changed", "r2", |e| {
        e["counter"] == "hits" && e["from"] == 1 && e["to"] == 0
    });
    assert!(
        rallied && p.flag("k1", "rallying", true).is_some(),
        "{:?}",
        p.events
    );
    let red = play_json_in(
        &root().join(OUTSIDE19),
        "q28a.yaml",
        "q28.orders.yaml",
        &["--side", "red"],
    );
    assert!(
        red.flag("k1", "rallying", true).is_some(),
        "{:?}",
        red.events
    );
    let a = side_reads_in(OUTSIDE19, "q28a.yaml", "q28.orders.yaml", "blue");
    let blue = side_events(&a);
    let rallying = |e: &Value| e["event"] == "flag_changed" && e["flag"] == "rallying";
    assert!(!blue.is_empty() && !blue.iter().any(rallying), "{blue:?}");
    for v in ["q28b.yaml", "q28c.yaml"] {
        let b = side_reads_in(OUTSIDE19, v, "q28.orders.yaml", "blue");
        assert_reads_alike(&a, &b, &format!("q28a vs {v}"));
    }
}

// The same without the sphere (#8, q08): k1, seen by blue at (2,0), attaches to the marker r2
// in red's command phase; r2 has (a) 1 hit, (b) none, (c) 2 TE hits only. By hand: in red's
// rally phase k1 rallies r2 (its hit comes off in (a), its TE hits in (c)), but is marked
// `rallying` only in (a), where a hit came off, which had told blue r2 was real and damaged;
// blue's reads are now alike in the three.
#[test]
fn a_commander_on_a_marker_rallies_unseen() {
    let a = side_reads_in(OUTSIDE19, "q08a.yaml", "q08.orders.yaml", "blue");
    let phase =
        |e: &Value| e["event"] == "phase_began" && e["phase"] == "rally" && e["phasing"] == "red";
    assert!(side_events(&a).iter().any(phase), "{}", a[1]);
    for v in ["q08b.yaml", "q08c.yaml"] {
        let b = side_reads_in(OUTSIDE19, v, "q08.orders.yaml", "blue");
        assert_reads_alike(&a, &b, &format!("q08a vs {v}"));
    }
}

// 004 sequence of play 2 (l.171) and Rules by Sequence 1 (l.452): under `remove_commanders`
// the phasing side takes its commanders off as its command phase begins; markers hide what
// is under them (l.264). The audit's L2 (#15, q15): k1 rides the marker r2 at (3,1) (q15a) or
// the marker r3 at (5,1) (q15b), both real. By hand: blue has identified neither marker, so
// k1 is put back unseen on his unit, and blue reads nothing of him in either game; it had
// read `k1 moved from out of sight to (3,1)` or `(5,1)`, which showed the real unit.
#[test]
fn a_commander_taken_off_a_marker_shows_nothing() {
    let a = side_reads_in(OUTSIDE19, "q15a.yaml", "q15.orders.yaml", "blue");
    let phase =
        |e: &Value| e["event"] == "phase_began" && e["phase"] == "command" && e["phasing"] == "red";
    assert!(side_events(&a).iter().any(phase), "{}", a[1]);
    // prose: blue's words never name k1.
    assert!(!a[0].contains("k1"), "{}", a[0]);
    let b = side_reads_in(OUTSIDE19, "q15b.yaml", "q15.orders.yaml", "blue");
    assert_reads_alike(&a, &b, "q15a (k1 on r2) vs q15b (k1 on r3)");
    let log = referee("q15a.yaml", "q15.orders.yaml");
    // prose: the referee's words for k1's return.
    assert!(
        !log.contains("k1 is removed from") && log.contains("command phase (red)"),
        "{log}"
    );
}

// 004 l.170 and l.456-458: a side whose commanders are all lost checks its army's integrity.
// The audit's #3 (q03c): red's k1 is killed by a red star (seed in the scenario) while k2 rides
// r9, due on turn 4. By hand: no commander of red's is left on the field, so red checks (the
// twenty-third round's reading: one still to arrive counts for no check); but k2 lives, so the
// note says no commander is left on the field, not that all are lost.
#[test]
fn the_leaderless_check_says_what_is_true() {
    let p = referee_json("q03c.yaml", "q03.orders.yaml");
    let killed = "commander killed by a red-star hit; the unit takes no hit";
    assert!(
        p.has("removed", "k1", |e| e["reason"] == killed),
        "{:?}",
        p.events
    );
    // The note is the ruleset's words, which this test is about: the one note is the true one.
    let notes: Vec<&Value> = p.events.iter().filter(|e| e["event"] == "note").collect();
    let note = serde_json::json!({"event": "note", "text": "red has no commander left on the field: integrity check"});
    assert_eq!(notes, [&note], "{:?}", p.events);
}
