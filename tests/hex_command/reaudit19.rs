//! Hex Command (seed 004), nineteenth round: the fourteenth outside audit (issue 33), on
//! positions in tests/fixtures/audits/hex-command/nineteenth/ (the auditor's, with the ruleset
//! path made relative). Each ruling is worked by hand.

use crate::util::grognard_in;
use crate::util::root;

const DIR: &str = "tests/fixtures/audits/hex-command/nineteenth";

fn run(args: &[&str]) -> (i32, String) {
    let r = grognard_in(&root().join(DIR), args);
    (r.code, format!("{}{}", r.stdout, r.stderr))
}

fn ok(args: &[&str]) -> String {
    let (code, out) = run(args);
    assert_eq!(code, 0, "{args:?}: {out}");
    out
}

/// Everything `side` receives of a game of `scenario` played to the end of `orders`: the
/// log (text and JSON), the view (text and JSON) and the list of legal orders.
fn reads(scenario: &str, orders: &str, side: &str) -> Vec<String> {
    let with = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--orders", orders, "--side", side]);
        ok(&all)
    };
    vec![
        with(&["play", scenario]),
        with(&["play", scenario, "--json"]),
        with(&["view", scenario]),
        with(&["view", scenario, "--json"]),
        with(&["legal", scenario]),
    ]
}

/// Blue's reads are the same, byte for byte, in every one of `scenarios`.
fn same_for_blue(scenarios: &[&str]) -> Vec<String> {
    let first = reads(scenarios[0], "rout.orders.yaml", "blue");
    for other in &scenarios[1..] {
        let next = reads(other, "rout.orders.yaml", "blue");
        for (i, (a, b)) in first.iter().zip(&next).enumerate() {
            assert_eq!(a, b, "blue's read {i} differs between {} and {other}", scenarios[0]);
        }
    }
    first
}

// 004 l.405 (7.5.1: a unit cannot move/rout through an enemy unit), l.399 (a rout into the
// enemy is destruction), 3.1 l.467 and l.264 (a marker is revealed by spotting; the enemy
// knows its place and facing and nothing else). Reading (note, nineteenth round): a rout
// meets a marker its side has not identified as an enemy unit, real or fake, as movement
// does (a fake holds its hex); the routed unit is destroyed and the marker is not unmasked
// (a rout is no fight and no spotting). By hand, rout-b{f,d,r}.yaml differ only in rM at
// (8,4), facing E, in forest (so not revealed at 5 hexes): a fake, hidden infantry with one
// hit, fresh hidden infantry. bR (5,4), facing W, 2 hits, is shot by rX from (4,4) at point
// blank (automatic hit): its third hit routs it; it turns E and falls back (6,4), (7,4),
// then (8,4), rM's hex: destroyed. Before this round the fake let bR stop at (7,4) alive, the
// fake still shown as a marker, so blue learnt it was a fake.
#[test]
fn a_rout_into_a_markers_hex_meets_it_as_a_unit_whatever_it_is() {
    let blue = same_for_blue(&["rout-bf.yaml", "rout-bd.yaml", "rout-br.yaml"]);
    assert!(
        blue[0].contains("bR removed (routed: ran into the enemy and was destroyed)"),
        "{}",
        blue[0]
    );
    assert!(!blue[0].contains("(7,4) (routed)"), "{}", blue[0]);
    // The fake is not unmasked: blue still sees a marker there, and never reads rM.
    assert!(blue[2].contains("#3         at (8,4), facing E\n"), "{}", blue[2]);
    for read in &blue {
        assert!(!read.contains("rM"), "{read}");
    }
    // The referee's log: the fake is still on the board as the rout ends.
    let referee = ok(&[
        "view",
        "rout-bf.yaml",
        "--orders",
        "rout.orders.yaml",
        "--referee",
    ]);
    assert!(referee.contains("rM "), "{referee}");
}

// 004 l.399 (a rout "onto and into an enemy zone of control (an enemy firing arc or
// movement arc)" destroys the routing unit), 5.2 l.535-538 (a zone is the three front hexes;
// any hit or fatigue removes it), 3.1 l.467 and l.264. Reading (note 64, sixth outside
// audit, and this round): a marker the side has not identified has a unit's zone, whatever it
// is, for movement and owed melees; a rout is judged the same way. By hand,
// rout-{f,d,r}.yaml differ only in rM at (9,4), facing W, in forest: a fake, hidden infantry
// with one hit (no true zone), fresh hidden infantry. bR is routed as above and falls back
// E: (6,4), (7,4), (8,4), the last in rM's front (W, NW, SW of (9,4)): destroyed every time.
// Before this round only the fresh real marker destroyed it (the marker's true zone), so
// blue learnt the marker's hits or that it was a fake.
#[test]
fn a_rout_into_a_markers_front_is_judged_by_what_the_routing_side_knows() {
    let blue = same_for_blue(&["rout-f.yaml", "rout-d.yaml", "rout-r.yaml"]);
    assert!(
        blue[0].contains(
            "bR removed (routed: fell back into an enemy zone of control and was destroyed)"
        ),
        "{}",
        blue[0]
    );
    assert!(!blue[0].contains("(8,4) (routed)"), "{}", blue[0]);
    assert!(blue[2].contains("#3         at (9,4), facing W\n"), "{}", blue[2]);
}

