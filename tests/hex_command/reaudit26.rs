//! Hex Command (seed 004), twenty-sixth round: what the twentieth outside audit left (issue
//! 33), on its positions in tests/fixtures/audits/hex-command/twentysixth/outside20/ (the
//! overlay hc.yaml drops the initiative roll, so blue plays first).

use crate::util::{grognard_in, root};

const DIR: &str = "tests/fixtures/audits/hex-command/twentysixth/outside20";

fn run(args: &[&str]) -> String {
    let out = grognard_in(&root().join(DIR), args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    out.stdout
}

// 3.1 (004 l.467): markers within 5 hexes are revealed automatically, except those in
// forest, town, trench, sunken road etc.; the charts page (l.7-9) builds quick works in 4
// turns and a redoubt in 6 (counter `works`). r24a/b/c: blue's b1 at (2,3), red's hidden
// r1 at (6,3) in the open, 4 hexes away, with works 4 (quick works), 6 (a redoubt) and 2
// (still digging: no works yet). By hand: in r24a and r24b r1 is in its trench, so blue
// sees only a marker at (6,3) (its handle, no sighting of r1; the red star's roll within 8
// is the only way to spot it); in r24c nothing is built yet, so r1 is revealed at once.
// Before, all three were revealed (the band excepted terrain only: the audit's W3).
#[test]
fn a_marker_in_finished_works_is_not_revealed_at_five_hexes() {
    for pos in ["r24a.yaml", "r24b.yaml"] {
        let blue = run(&["view", pos, "--side", "blue"]);
        assert!(!blue.contains("sights r1"), "{pos}: {blue}");
        let at = blue
            .lines()
            .find(|l| l.contains("at (6,3)"))
            .unwrap_or_else(|| panic!("{pos}: a marker at (6,3): {blue}"));
        assert!(at.trim_start().starts_with('#'), "{pos}: {at}");
    }
    let blue = run(&["view", "r24c.yaml", "--side", "blue"]);
    assert!(blue.contains("blue sights r1 at level seen"), "{blue}");
    assert!(
        blue.lines()
            .any(|l| l.trim_start().starts_with("r1 ") && l.contains("at (6,3)")),
        "{blue}"
    );
}

// 5.1c (004 l.531): commanders have no zones and no facing. w02.yaml: blue's b1 at (8,3)
// facing E; red's commanders k7 at (10,3) (ahead of b1) and k8 at (6,3) (behind it). By
// hand: k7 stands in b1's front arc and k8 in its rear arc, and neither commander has an arc
// for b1 to stand in: the tape says so, and its JSON gives `null`. Before, it measured them
// with a default facing (east): `b1 is in k7's rear arc`, `b1 is in k8's front arc` (W2).
#[test]
fn measure_gives_a_commander_no_facing() {
    let text = run(&["measure", "w02.yaml", "b1", "k7"]);
    assert!(
        text.contains("k7 is in b1's front arc; k7 has no facing, so no arcs"),
        "{text}"
    );
    assert!(!text.contains("k7's"), "{text}");
    let json = run(&[
        "measure", "w02.yaml", "--side", "blue", "b1", "k8", "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["arc_of_b_from_a"], "rear", "{json}");
    assert!(v["arc_of_a_from_b"].is_null(), "{json}");
    let both = run(&["measure", "w02.yaml", "k7", "k8"]);
    assert!(
        both.contains("k7 has no facing, so no arcs; k8 has no facing, so no arcs"),
        "{both}"
    );
}

// 6 (004 l.565-571: an attached commander is with his unit) and 4a (l.513: a reinforcement
// comes on at its place on its turn). h13f.yaml: red's r7 (cavalry) is due on turn 1 at entry
// place 1, the one hex (11,3), with k7 set up attached to it, both `arrives: 1`. By hand: r7
// comes on at (11,3) carrying k7, and both have arrived, so k7's counter is spent with r7's
// (`k7 arrives 1 → 0`) and the table no longer lists `arrives 1` on him. Before, k7 rode r7
// but kept `[arrives 1, entry 1]` (the rest of the audit's W1).
#[test]
fn a_commander_arriving_with_his_unit_is_no_longer_due() {
    let referee = run(&["view", "h13f.yaml", "--referee"]);
    let k7 = referee
        .lines()
        .find(|l| l.trim_start().starts_with("k7 "))
        .expect("k7 listed");
    assert!(k7.contains("(11,3)") && !k7.contains("arrives"), "{k7}");
    assert!(referee.contains("  k7 arrives 1 → 0\n"), "{referee}");
    let r7 = referee
        .lines()
        .position(|l| l == "  r7 arrives 1 → 0")
        .expect("r7 arrives");
    assert_eq!(
        referee.lines().nth(r7 + 1),
        Some("  k7 arrives 1 → 0"),
        "{referee}"
    );
}

// 7.2.1 (004 l.480-481): a unit that entered the fronts of two enemies melees both. h09a.yaml:
// blue's b1 moves (3,3) → (5,3), into the fronts of the visible r2 (6,4) and of red's hidden
// r1 (6,3), melees r2 by order, and owes r1 a melee fought as the melee phase ends. By hand:
// the note saying why comes right before that melee's roll, in blue's log (r1 as `enemy #2`)
// and, since red sees both b1 and its own r1, in red's too (by ids); the referee reads ids.
// Before, the note followed the roll, and red never read it (the twentieth audit's H9 remark).
#[test]
fn the_owed_melee_note_comes_before_its_roll_for_both_sides() {
    for (side, note, roll) in [
        (
            Some("blue"),
            "  note: b1 entered the front of enemy #2 and must melee it too",
            "(melee by b1 at enemy #2)",
        ),
        (
            Some("red"),
            "  note: b1 entered the front of r1 and must melee it too",
            "(melee of b1 (2) against r1 (3))",
        ),
        (
            None,
            "  note: b1 entered the front of r1 and must melee it too",
            "(melee of b1 (2) against r1 (3))",
        ),
    ] {
        let mut args = vec!["play", "h09a.yaml", "--orders", "o_h09.yaml"];
        if let Some(s) = side {
            args.extend(["--side", s]);
        }
        let log = run(&args);
        let lines: Vec<&str> = log.lines().collect();
        let at = lines
            .iter()
            .position(|l| *l == note)
            .unwrap_or_else(|| panic!("{side:?}: no `{note}`:\n{log}"));
        let next = lines.get(at + 1).copied().unwrap_or_default();
        assert!(
            next.starts_with("  melee: ") && next.ends_with(roll),
            "{side:?}: {next}\n{log}"
        );
    }
}
