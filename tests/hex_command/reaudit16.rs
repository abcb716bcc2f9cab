//! Hex Command (seed 004), seventeenth round: the twelfth outside audit's findings (issue
//! 33), on the auditor's positions (/work/audit/hex-command-12: s4, s4-seed43, s4-seed60, s2)
//! copied to tests/fixtures/audits/hex-command/sixteenth/. Each ruling is worked by hand.

use crate::util::grognard_in;
use crate::util::root;

const DIR: &str = "tests/fixtures/audits/hex-command/sixteenth";

fn run(args: &[&str]) -> String {
    let r = grognard_in(&root().join(DIR), args);
    assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
    r.stdout
}

/// Everything `side` receives of a game played to the end of `orders`.
fn reads(scenario: &str, orders: &str, side: &str) -> Vec<String> {
    let with = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--orders", orders, "--side", side]);
        run(&all)
    };
    vec![
        with(&["play", scenario]),
        with(&["play", scenario, "--json"]),
        with(&["view", scenario]),
        with(&["view", scenario, "--json"]),
        with(&["legal", scenario]),
    ]
}

// 004 l.480 (7.2.1: a unit that moves into the frontal zone of an opponent must melee it)
// with 3.1 (l.465-467) and l.264 (the owner moves his fakes as units). owed-real.yaml and
// owed-fake.yaml differ only in f1 at (10,5): a hidden infantry unit or a fake. Red's
// markers r1, r2, f1 step SW-facing into (2,6), (6,6), (10,6), each in the front of b1, b2,
// b3 (facing NE from row 7), so each owes b1, b2, b3 its melee. Until red's melee phase ends
// blue's every answer is the same, byte for byte, for the two. As it ends the owed melees
// are fought: a real f1 rolls (seed 5: `melee by enemy #7 at b3`, b3 in melee), a fake one
// is met as blue meeting a fake is: unmasked and removed, no round fought (before this
// round the fake owed nothing: it stayed a marker and b3 was free to move while b1 and b2
// were locked, which told blue it was a fake).
#[test]
fn a_fake_that_moves_into_a_front_owes_the_melee_and_is_unmasked_by_it() {
    let moved = "owed-moved.orders.yaml";
    let real = reads("owed-real.yaml", moved, "blue");
    let fake = reads("owed-fake.yaml", moved, "blue");
    for ((name, a), b) in ["play", "play --json", "view", "view --json", "legal"]
        .iter()
        .zip(&real)
        .zip(&fake)
    {
        assert_eq!(a, b, "blue's {name} before the owed melee tells the fake");
    }
    let fought = "owed-fought.orders.yaml";
    let real = run(&[
        "play",
        "owed-real.yaml",
        "--orders",
        fought,
        "--side",
        "blue",
    ]);
    assert!(real.contains("(melee by enemy #7 at b3)"), "{real}");
    assert!(real.contains("b3 is in_melee"), "{real}");
    let fake = run(&[
        "play",
        "owed-fake.yaml",
        "--orders",
        fought,
        "--side",
        "blue",
    ]);
    assert!(
        fake.contains("enemy #7 removed (a fake counter, met in melee: there was no unit there)"),
        "{fake}"
    );
    assert!(
        !fake.contains("at b3)"),
        "no round is fought with a fake: {fake}"
    );
    let view = run(&[
        "view",
        "owed-fake.yaml",
        "--orders",
        fought,
        "--side",
        "red",
    ]);
    assert!(
        view.lines()
            .any(|l| l.trim_start().starts_with("f1 ") && l.contains("off the board")),
        "the fake is gone: {view}"
    );
}
