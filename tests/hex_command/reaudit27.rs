//! Hex Command (seed 004), twenty-seventh round: the twenty-first outside audit (issue 33),
//! on its positions in tests/fixtures/audits/hex-command/twentyseventh/outside21/ (h22a and
//! h22b are the audit's; h22c, h22d, m3a and m3b are built from them).

use crate::util::{Run, assert_reads_alike, grognard_in, play_json_in, root, side_reads_in};

const DIR: &str = "tests/fixtures/audits/hex-command/twentyseventh/outside21";

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

// 2.2.2 (004 l.333-343): a failed order change binds the commander's force; 6 (l.567-569):
// a commander attached before movement negates the roll for his unit; l.264: the owner
// moves his own plates, fakes included. h22a/h22b (the audit's): red's real markers r1 (3,2)
// and r2 (7,2), kern riding r1 (h22a) or r2 (h22b), a visible r9; seed 10 fails kern's order
// change with 7 (fall back to cover and TE). By hand: the commander's unit stays, the other
// about-faces to NW and falls back to (6,0) or (2,0); that stays so. h22c/h22d: the same
// with the marker that is not commanded a fake its owner set up to stand as a commanded unit
// would (flag `bluffing`): neither marker moves in either, so blue's five reads are alike,
// though kern rides r1 in one and r2 in the other. Before, a fake always fell back, so the
// marker left standing was the commander's (the audit's F1), and the flag did not exist.
#[test]
fn a_fake_set_up_to_bluff_stands_as_the_commanded_marker_does() {
    let a = run(&["play", "h22a.yaml", "--orders", "o_h22.yaml"]);
    assert!(a.contains("fails: fall back to cover and TE"), "{a}");
    assert!(
        a.contains("r1 has kern attached: the decision roll does not bind it"),
        "{a}"
    );
    assert!(
        a.contains("r2 placed (7,2) → (6,0) (fell back toward cover (decision failure))"),
        "{a}"
    );
    let c = run(&["play", "h22c.yaml", "--orders", "o_h22.yaml"]);
    assert!(c.contains("fails: fall back to cover and TE"), "{c}");
    assert!(
        c.contains(
            "r2 stands as a unit with a commander would (its owner's bluff): the decision roll does not bind it"
        ),
        "{c}"
    );
    assert!(!c.contains("r2 placed"), "{c}");
    let c_reads = reads("h22c.yaml", "o_h22.yaml", "blue");
    let d_reads = reads("h22d.yaml", "o_h22.yaml", "blue");
    assert_reads_alike(&c_reads, &d_reads, "h22c v h22d");
    // Only r9, in the open, is seen to turn; no marker moves.
    assert!(c_reads[0].contains("r9 now faces NE"), "{}", c_reads[0]);
    assert!(!c_reads[0].contains("moved from"), "{}", c_reads[0]);
    assert!(!c_reads[0].contains("bluff"), "{}", c_reads[0]);
}

// The same rules, with the owner's choice made in play: `bluff`, a fake's order in the
// command phase. m3aN (N the seed): r1 real with kern, r2 real, r3 (9,4) a fake; m3bN: r1 a fake, r2 real,
// r3 real with kern. Red bluffs with the fake (r3 in m3a, r1 in m3b), kern's order change
// fails, and in movement red moves r1 to (3,3) and r3 to (9,5). By hand, for each failure
// (seeds 10: 7, fall back and TE; 30: 6, fall back; 50: 1, halt; 40: 2, halt and TE; 53: 4,
// hold): r1 and r3 are free (commanded or bluffing) and move; r2 is bound (it falls back to
// (6,0) under 6 and 7, or stays under 1, 2, 4). Blue's five reads are alike: a marker left
// standing, or moving while its force is halted, is a commanded unit or a fake. Played
// without the bluff (m3aN), the fake r3 is bound as a unit without a commander is: under 6
// and 7 it falls back, under 1, 2 and 4 its move is refused. Before, there was no `bluff`,
// and the fake could only obey.
#[test]
fn a_bluffing_fake_is_free_under_every_failure_as_a_commanded_unit_is() {
    for (seed, result, flag) in [
        ("10", "fall back to cover and TE", "halted"),
        ("30", "fall back to cover", "halted"),
        ("50", "halt", "halted"),
        ("40", "halt and TE", "halted"),
        ("53", "hold for new orders", "holding"),
    ] {
        let (pa, pb) = (format!("m3a{seed}.yaml"), format!("m3b{seed}.yaml"));
        let referee = run(&["play", &pa, "--orders", "o_m3a_mv.yaml"]);
        assert!(
            referee.contains(&format!("kern's order change fails: {result}\n")),
            "seed {seed}: {referee}"
        );
        let a = reads(&pa, "o_m3a_mv.yaml", "blue");
        let b = reads(&pb, "o_m3b_mv.yaml", "blue");
        assert_reads_alike(&a, &b, &format!("seed {seed} ({result})"));
        for moved in [
            "enemy #3 moved from (3,2) to (3,3)",
            "enemy #5 moved from (9,4) to (9,5)",
        ] {
            assert!(a[0].contains(moved), "seed {seed}: {}", a[0]);
        }
        assert_eq!(
            a[0].contains("enemy #4 moved from (7,2) to (6,0)"),
            result.starts_with("fall back"),
            "seed {seed}: {}",
            a[0]
        );
        // The fake not bluffed obeys.
        let plain = exec(&["play", &pa, "--orders", "o_h22_mv.yaml"]);
        let events = play_json_in(&root().join(DIR), &pa, "o_h22_mv.yaml", &[]);
        let fell_back = events.has("placed", "r3", |e| {
            e["from"] == serde_json::json!({"col": 9, "row": 4})
                && e["to"] == serde_json::json!({"col": 7, "row": 1})
        });
        assert_eq!(
            fell_back,
            result.starts_with("fall back"),
            "seed {seed}: {:?}",
            events.events
        );
        assert_ne!(plain.code, 0, "seed {seed}: {}", plain.stdout);
        assert!(
            plain
                .stderr
                .contains(&format!("refused: r3 cannot move: it is {flag}")),
            "seed {seed}: {}",
            plain.stderr
        );
    }
}

// The order is red's own: `legal` lists it for red's fake in red's command phase (as the
// policies choose among), and blue reads nothing of it. o_cmd.yaml stops at red's command
// phase in m3a10.
#[test]
fn bluff_is_listed_for_the_owner_only() {
    let red = run(&[
        "legal",
        "m3a10.yaml",
        "--orders",
        "o_cmd.yaml",
        "--side",
        "red",
    ]);
    assert!(
        red.contains("- { side: red, act: { piece: r3, action: bluff } }"),
        "{red}"
    );
    assert!(!red.contains("piece: r1, action: bluff"), "{red}");
    let blue = run(&[
        "legal",
        "m3a10.yaml",
        "--orders",
        "o_cmd.yaml",
        "--side",
        "blue",
    ]);
    assert!(!blue.contains("bluff"), "{blue}");
}

// The audit's remark: `measure` named a zero distance `the same place arc`. h22a: blue's
// hale rides b1 at (5,13). By hand: 0 hexes apart, so hale is on b1's hex, not in an arc.
#[test]
fn measure_says_a_piece_on_the_same_hex_is_on_it() {
    let text = run(&["measure", "h22a.yaml", "b1", "hale"]);
    assert!(text.contains("b1 to hale: 0 hexes"), "{text}");
    assert!(
        text.contains("hale is on the same hex as b1; hale has no facing, so no arcs"),
        "{text}"
    );
    assert!(!text.contains("same place arc"), "{text}");
}
