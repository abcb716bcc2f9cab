//! Hex Command (seed 004), twenty-eighth round: the twenty-second outside audit (issue 33),
//! on its positions in tests/fixtures/audits/hex-command/twentyeighth/outside22/ (h6a and h6b
//! are the audit's; h6c and h6d are built from them).

use crate::util::{Run, assert_reads_alike, grognard_in, root, side_reads_in};

const DIR: &str = "tests/fixtures/audits/hex-command/twentyeighth/outside22";

fn exec(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

fn run(args: &[&str]) -> String {
    let out = exec(args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    out.stdout
}

/// A side's five reads of a position played with its orders (`util::SIDE_READS`); the seed
/// is the position's own.
fn reads(pos: &str, orders: &str, side: &str) -> Vec<String> {
    side_reads_in(DIR, pos, orders, side)
}

// 5f (004 l.525): light infantry may move through other units, a TE hit to both; 5.3
// (l.542) and l.264: a fake counter weighs as the unit it poses as, and which marker is real
// is its owner's to know. h6a/h6b (the audit's): blue b1 (5,10) has identified red light
// infantry rl (5,6), which moves (5,5) → (5,4) through red's marker r2 in forest, an infantry
// unit (a) or a fake (b). By hand: in both rl takes one TE hit (0 → 1), which blue reads
// before it loses sight of rl in the forest; r2's own TE (0 → 1, a unit's or the fake's) is
// red's alone. Before, only h6a had rl's TE line: the
// mover took no hit passing a fake, so blue read whether the marker was real. h6c/h6d: the
// same with rl skirmishers, the other arm that passes friends (the ruleset's
// `passes_friends`): the one rule covers it alike.
#[test]
fn passing_through_a_friendly_fake_costs_the_te_a_unit_would() {
    for (a, b) in [("h6a.yaml", "h6b.yaml"), ("h6c.yaml", "h6d.yaml")] {
        let ra = reads(a, "o_h6m.yaml", "blue");
        let rb = reads(b, "o_h6m.yaml", "blue");
        assert_reads_alike(&ra, &rb, &format!("{a} against {b}"));
        assert!(
            rb[0].contains("rl fatigue (TE) hits 0 → 1"),
            "{b}: blue reads rl's TE hit for passing r2:\n{}",
            rb[0]
        );
        // The referee: both the mover and the marker passed take one TE hit, real or fake.
        let referee = run(&["play", b, "--orders", "o_h6m.yaml"]);
        assert!(
            referee.contains("rl fatigue (TE) hits 0 → 1"),
            "{b}:\n{referee}"
        );
        assert!(
            referee.contains("r2 fatigue (TE) hits 0 → 1"),
            "{b}:\n{referee}"
        );
        let red = run(&["play", b, "--orders", "o_h6m.yaml", "--side", "red"]);
        assert!(
            red.contains("r2 fatigue (TE) hits 0 → 1"),
            "{b} red:\n{red}"
        );
        assert!(
            !rb[0].contains("r2"),
            "{b}: blue never names r2:\n{}",
            rb[0]
        );
    }
}

// Charts page (004 l.7): a pontoon bridge takes 3 turns; 3.1 (l.465-467) and l.264 hide
// units under markers, not what is built on the table. h15a (the audit's): red's marker r1
// at (5,3) faces the stream to (5,4) and works on a bridge in its movement phase on turns 1,
// 2 and 3 (`o_h15a`); `o_h15a_pre` stops before the third turn's work. By hand: after the
// third the bridge lies between (5,3) and (5,4) in every side's view, blue's too; before it,
// blue's view has none (the work, `r1 works on a pontoon bridge`, is red's alone, as digging
// is). Before, the bridge was in the referee's state only: blue's view never showed it.
#[test]
fn a_finished_bridge_is_on_the_table_for_both_sides() {
    let before = run(&[
        "view",
        "h15a.yaml",
        "--orders",
        "o_h15a_pre.yaml",
        "--side",
        "blue",
    ]);
    assert!(!before.contains("bridge"), "no bridge yet:\n{before}");
    let before_json = run(&[
        "view",
        "h15a.yaml",
        "--orders",
        "o_h15a_pre.yaml",
        "--side",
        "blue",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&before_json).unwrap();
    assert!(v["view"].get("built").is_none(), "{}", v["view"]);
    for side in ["blue", "red"] {
        let after = run(&[
            "view",
            "h15a.yaml",
            "--orders",
            "o_h15a.yaml",
            "--side",
            side,
        ]);
        assert!(
            after.contains("built on the board:\n  bridge between (5,3) and (5,4)\n"),
            "{side}:\n{after}"
        );
        let json = run(&[
            "view",
            "h15a.yaml",
            "--orders",
            "o_h15a.yaml",
            "--side",
            side,
            "--json",
        ]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(
            v["view"]["built"],
            serde_json::json!([{
                "feature": "bridge",
                "between": [{ "col": 5, "row": 3 }, { "col": 5, "row": 4 }]
            }]),
            "{side}"
        );
    }
    // The work stays red's: blue's log reads no work and no builder.
    let blue = run(&[
        "play",
        "h15a.yaml",
        "--orders",
        "o_h15a.yaml",
        "--side",
        "blue",
    ]);
    assert!(!blue.contains("works on") && !blue.contains("r1"), "{blue}");
    // A fake on the same hex builds nothing: blue's view of h15b has no bridge.
    let fake = run(&[
        "view",
        "h15b.yaml",
        "--orders",
        "o_h15b.yaml",
        "--side",
        "blue",
    ]);
    assert!(!fake.contains("bridge"), "{fake}");
}

// 7.2.1 (004 l.480): a unit that moved into the front of a second enemy must melee it too;
// 3.1 and l.264: a fake met in melee is unmasked (no unit there). h4a/h4b (the audit's): b1
// steps to (5,5), into the fronts of red's markers r1 (5,4) and r2 (6,4), and melees r1 (blue
// names it `#3`); r2 is owed its melee as the phase ends: a unit (h4a) or a fake (h4b). By
// hand: each side reads `note: b1 entered the front of … and must melee it too` first, then
// what came of it: in h4b the fake's removal (`… removed (a fake counter, met in melee: there
// was no unit there)`), as in h4a the roll. Before, the side logs put the note after the
// removal (a side's log gives a run of piece events before its notes).
#[test]
fn the_owed_melee_note_comes_before_the_fake_is_removed() {
    for (side, name) in [("blue", "enemy #4"), ("red", "r2")] {
        let log = run(&[
            "play",
            "h4b.yaml",
            "--orders",
            "o_h4m2.yaml",
            "--side",
            side,
        ]);
        let note = format!("note: b1 entered the front of {name} and must melee it too");
        let removed =
            format!("{name} removed (a fake counter, met in melee: there was no unit there)");
        let (Some(n), Some(r)) = (log.find(&note), log.find(&removed)) else {
            panic!("{side}: both lines expected:\n{log}");
        };
        assert!(n < r, "{side}: the note comes first:\n{log}");
        // The real unit's roll comes after its note, as before.
        let log = run(&[
            "play",
            "h4a.yaml",
            "--orders",
            "o_h4m2.yaml",
            "--side",
            side,
        ]);
        let n = log
            .find(&note)
            .unwrap_or_else(|| panic!("{side} h4a:\n{log}"));
        let roll = log[n..].find("melee: ");
        assert!(
            roll.is_some(),
            "{side} h4a: the roll follows the note:\n{log}"
        );
    }
}

// Charts page (004 l.32): a unit with 3 TE hits is fatigued (1 CP, no zone, at most 1 hex a
// move); the ruleset's counter `te` sets flag `fatigued` as it reaches 3 in play. r13x (the
// audit's): b1 set up with `counters: { te: 3 }` but no `fatigued` flag, which validated and
// moved 3 hexes. By hand: the set-up is refused at b1's line (29) in the rule's words, for
// `validate` and for any command; r13, the same piece with the flag, validates.
#[test]
fn a_piece_set_up_at_three_te_without_the_fatigued_flag_is_refused_at_its_line() {
    let bad = exec(&["validate", "r13x.yaml"]);
    assert_ne!(bad.code, 0, "{}", bad.stdout);
    assert!(
        bad.stderr.contains(
            "r13x.yaml:29:11: piece b1: te 3 needs flag `fatigued` (the counter sets it at 3)"
        ),
        "{}",
        bad.stderr
    );
    let reach = exec(&[
        "reach",
        "r13x.yaml",
        "--unit",
        "b1",
        "--orders",
        "o_r13.yaml",
    ]);
    assert_ne!(reach.code, 0, "{}", reach.stdout);
    assert!(
        reach.stderr.contains("needs flag `fatigued`"),
        "{}",
        reach.stderr
    );
    let good = run(&["validate", "r13.yaml"]);
    assert!(good.starts_with("ok: r13.yaml"), "{good}");
}
