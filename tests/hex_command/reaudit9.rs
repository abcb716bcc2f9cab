//! Hex Command (seed 004), the eighth outside audit's findings: two leaks of hidden
//! information, a refusal that named an unidentified marker by its scenario id and the
//! random CVS note that reached the enemy. The positions are in
//! tests/fixtures/audits/hex-command/ninth/ (Blue first: no initiative roll), each worked by
//! hand below; the audit page reruns them.

use crate::util::{
    Run, assert_reads_alike, coded_reads, grognard_in, play_json_in, root, side_runs_any,
};

use super::field::{has, lacks};

const DIR: &str = "tests/fixtures/audits/hex-command/ninth";

fn at(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

fn played(args: &[&str]) -> String {
    let out = at(args);
    assert_eq!(out.code, 0, "{args:?}: {}{}", out.stdout, out.stderr);
    out.stdout
}

/// 004 3.1 (l.465-467: a marker shows where a unit is, not what it is) and l.264 (hidden
/// movement's fakes), with 7f (l.584: the closest target first). marker.yaml: Blue's b1 at
/// (1,4) facing E; Red's hidden marker `secret_guard_battalion` at (3,4), 2 hexes off in
/// forest, so the first spotting rolls for it and the cube (red) does not reveal it; Red's
/// r1 at (3,5), seen, in a farther band. Blue fires at r1: the marker is nearer, so 7f
/// refuses — and the refusal names the marker as Blue knows it, by its handle: Blue's own
/// b1 is #0, the marker the first enemy it learnt of, `enemy #1`. fake.yaml is the same with
/// a fake marker `fk`. Before: "secret_guard_battalion is nearer and must be the target"
/// (and "fk is nearer ..."), telling Blue what the marker is.
#[test]
fn a_refusal_names_an_unidentified_marker_by_its_handle() {
    for (scenario, id) in [
        ("marker.yaml", "secret_guard_battalion"),
        ("fake.yaml", "fk"),
    ] {
        for side in [&["--side", "blue"][..], &[]] {
            let mut args = vec!["play", scenario, "--orders", "fire.orders.yaml"];
            args.extend_from_slice(side);
            let out = at(&args);
            assert_eq!(out.code, 1, "{args:?}: {}{}", out.stdout, out.stderr);
            has(
                &out.stderr,
                "refused: enemy #1 is nearer and must be the target",
            );
            // prose: the leak would be in the refusal's words.
            let why = "enemy #1 is nearer and must be the target";
            lacks(&out.stderr, why, id);
            if !side.is_empty() {
                lacks(&out.stdout, "(spotting by blue)", id);
            }
        }
    }
    // Blue reads the real marker's game and the fake's alike, refusal and exit code included.
    let reads = |scenario| coded_reads(side_runs_any(at, scenario, "fire.orders.yaml", "blue"));
    assert_reads_alike(
        &reads("marker.yaml"),
        &reads("fake.yaml"),
        "Blue's reads of the marker and the fake",
    );
}

/// Asserts that in `side`'s `play --json` log every change of a commander's rolled
/// counters (`cvs_*`, `grade`) is of its own commander `own`, and that there is one.
fn cvs_changes_are_own(orders: &str, side: &str, own: &str) {
    let p = play_json_in(&root().join(DIR), "cvs.yaml", orders, &["--side", side]);
    assert_eq!(p.code, 0, "{orders}: {:?}", p.refused);
    let own = p.piece(own);
    let rolled: Vec<_> = (p.events.iter())
        .filter(|e| e["event"] == "counter_changed")
        .filter(|e| (e["counter"].as_str()).is_some_and(|c| c.starts_with("cvs_") || c == "grade"))
        .collect();
    assert!(!rolled.is_empty(), "{side}: {:?}", p.events);
    assert!(
        rolled.iter().all(|e| e["piece"] == own),
        "{side}: {rolled:?}"
    );
}

/// 004 2.2.3 (the CVS table rolled as the game starts) with l.313 (a commander's
/// capabilities may be kept from the other players). cvs.yaml (`random_cvs`): Blue's hale
/// with b1, Red's voss with r1, in plain sight of each other. The table is rolled in the
/// opening arrivals phase, which belongs to no side, so a note there reached both logs: Red
/// read "hale is untrained: C0 M0 T6 A6 I6" (the audit's dice). Now the grade is kept on the
/// commander (private counter `grade`) and each side is told its own commanders' rolls in
/// its own first command phase, where a note reaches its log only. With this seed hale is
/// veteran (C2 M1 T5 A5 I5) and voss untrained (C0 M0 T6 A6 I6): Blue's log has hale's
/// note and not voss's, Red's the other way round, and neither view lists the other's
/// `grade`.
#[test]
fn the_rolled_cvs_note_reaches_only_its_own_side() {
    let red = played(&[
        "view",
        "cvs.yaml",
        "--side",
        "red",
        "--orders",
        "arrivals.orders.yaml",
    ]);
    // prose: the notes' words (the counters are checked on --json below).
    lacks(&red, "voss grade 1 → 0", "hale is");
    let blue = played(&[
        "view",
        "cvs.yaml",
        "--side",
        "blue",
        "--orders",
        "red-command.orders.yaml",
    ]);
    // prose: as above.
    let note = "note: hale is veteran: C2 M1 T5 A5 I5";
    lacks(&blue, note, "voss is");
    lacks(&blue, note, "voss grade");
    cvs_changes_are_own("arrivals.orders.yaml", "red", "voss");
    cvs_changes_are_own("red-command.orders.yaml", "blue", "hale");
    cvs_changes_are_own("red-command.orders.yaml", "red", "voss");
    let red = played(&[
        "view",
        "cvs.yaml",
        "--side",
        "red",
        "--orders",
        "red-command.orders.yaml",
    ]);
    // prose: as above.
    let note = "note: voss is untrained: C0 M0 T6 A6 I6";
    lacks(&red, note, "hale is");
    lacks(&red, note, "hale grade");
    // The referee's log has both.
    let all = played(&[
        "view",
        "cvs.yaml",
        "--referee",
        "--orders",
        "red-command.orders.yaml",
    ]);
    has(&all, "note: hale is veteran");
    has(&all, "note: voss is untrained");
}
