//! Hex Command (seed 004), twenty-ninth round: the twenty-third outside audit (issue 33),
//! on its positions in tests/fixtures/audits/hex-command/twentyninth/outside23/.

use crate::util::{Run, grognard_in, root};

const DIR: &str = "tests/fixtures/audits/hex-command/twentyninth/outside23";

fn exec(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

fn run(args: &[&str]) -> String {
    let out = exec(args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    out.stdout
}

// W1. 4b (004 l.514): enemy units on the entry place are told of the arrival and may withdraw
// two moves; the arrivals wait. h16a/b/c: red's marker r1 (a unit, a fake, a damaged unit)
// stands on (4,15) of entry place 1 = (4,15),(5,15); blue's b5 is due turn 1. By hand: the
// arrivals phase announces the block, r1 withdraws in red's movement phase to (1,9), and in
// blue's command phase the place is empty. The wait came from the enemy's block, so blue's
// note names it; before, the note re-judged the emptied place and said blue's own pieces
// filled it, where none ever stood. With r1 staying (o_h16n) the place is still held and the
// announcement alone speaks: no note.
#[test]
fn a_withdrawn_blocker_leaves_the_true_cause_of_the_wait() {
    let want = "note: b5 is due but the enemy held entry place 1 when it came due \
                (the block announced this turn); it waits a turn";
    let mut reads = Vec::new();
    for pos in ["h16a.yaml", "h16b.yaml", "h16c.yaml"] {
        let blue = run(&["play", pos, "--orders", "o_h16.yaml", "--side", "blue"]);
        assert!(blue.contains(want), "{pos}: blue reads:\n{blue}");
        assert!(
            !blue.contains("its own side's pieces fill it"),
            "{pos}: no blue piece stood on the place:\n{blue}"
        );
        let referee = run(&["play", pos, "--orders", "o_h16.yaml"]);
        assert!(referee.contains("r1 placed (4,15) → (1,9)"), "{referee}");
        assert!(
            referee.contains(want),
            "{pos}: the referee's log:\n{referee}"
        );
        assert!(
            referee.contains("b5 arrived at (4,15)"),
            "b5 comes on turn 2:\n{referee}"
        );
        reads.push(blue);
    }
    assert_eq!(reads[0], reads[1], "real and fake blockers read alike");
    assert_eq!(reads[0], reads[2], "fresh and damaged blockers read alike");
    let stays = run(&[
        "play",
        "h16a.yaml",
        "--orders",
        "o_h16n.yaml",
        "--side",
        "blue",
    ]);
    assert!(!stays.contains("b5 is due but"), "{stays}");
}

// U1 (H21). 3.1 (004 l.465-467) reveals markers within 5 hexes in the open; l.264 hides
// units under plates with dummies, and 004 does not say what becomes of a dummy once shown.
// Reading (notes, twenty-ninth round): an unmasked fake is an empty plate; it stays on the
// table (earlier audited rulings read it there: no target, the eighth round; a rout halts
// before it, the nineteenth; it holds no entry place, the twenty-second) but keeps none of
// the side's pieces out of its hex (sighting `known_dummies_give_way`). h22: red's fake r1 at
// (4,6) is revealed to blue's b1 at (4,8) in the arrivals phase (`blue sights r1`); by hand,
// b1's two-hex move (4,7) → (4,6) costs 2 and is accepted (it was refused `(4,6) is held by
// the enemy`). h22b, r1 a real infantry marker: the same move is refused, b1 stopping in its
// zone at (4,7), so only knowledge of the dummy lifts the bar.
#[test]
fn an_unmasked_dummy_keeps_no_piece_out_of_its_hex() {
    let view = run(&[
        "view",
        "h22.yaml",
        "--orders",
        "o_h22.yaml",
        "--side",
        "blue",
    ]);
    assert!(
        view.contains("r1         at (4,6)") && view.contains("a dummy"),
        "blue knows r1 for a dummy:\n{view}"
    );
    let legal = run(&[
        "legal",
        "h22.yaml",
        "--orders",
        "o_h22.yaml",
        "--side",
        "blue",
    ]);
    assert!(
        legal.contains("path: [[4, 7], [4, 6]] }"),
        "the move into the dummy's hex is listed:\n{legal}"
    );
    let blue = run(&[
        "play",
        "h22.yaml",
        "--orders",
        "o_h22m.yaml",
        "--side",
        "blue",
    ]);
    assert!(
        blue.contains("b1 moved (4,8) → (4,7) → (4,6), cost 2"),
        "{blue}"
    );
    let real = exec(&[
        "play",
        "h22b.yaml",
        "--orders",
        "o_h22m.yaml",
        "--side",
        "blue",
    ]);
    assert_eq!(real.code, 1, "{}", real.stdout);
    assert!(
        real.stderr
            .contains("refused: b1 must stop at (4,7) (entered the zone of control of r1)"),
        "{}",
        real.stderr
    );
}
