//! Hex Command (seed 004), the eighth outside audit's findings: two leaks of hidden
//! information, a refusal that named an unidentified marker by its scenario id and the
//! random CVS note that reached the enemy. The positions are in
//! tests/fixtures/audits/hex-command/ninth/ (Blue first: no initiative roll), each worked by
//! hand below; the audit page reruns them.

use crate::util::{Run, grognard_in, root};

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
            lacks(&out.stderr, id);
            if !side.is_empty() {
                lacks(&out.stdout, id);
            }
        }
    }
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
    lacks(&red, "hale is");
    let blue = played(&[
        "view",
        "cvs.yaml",
        "--side",
        "blue",
        "--orders",
        "red-command.orders.yaml",
    ]);
    has(&blue, "note: hale is veteran: C2 M1 T5 A5 I5");
    lacks(&blue, "voss is");
    lacks(&blue, "voss grade");
    let red = played(&[
        "view",
        "cvs.yaml",
        "--side",
        "red",
        "--orders",
        "red-command.orders.yaml",
    ]);
    has(&red, "note: voss is untrained: C0 M0 T6 A6 I6");
    lacks(&red, "hale is");
    lacks(&red, "hale grade");
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
