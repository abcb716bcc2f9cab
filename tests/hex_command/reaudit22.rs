//! Hex Command (seed 004), twenty-second round: what the sixteenth outside audit left (issue
//! 33) and the seventeenth audit's findings.

use crate::util::{grognard_in, root, side_reads_in};

const OUTSIDE16: &str = "tests/fixtures/audits/hex-command/twentyfirst/outside16";

// 004 l.480 (7.2.1: a unit that moved into an enemy's front hexes must melee it). The note
// that says so, written as blue's melee phase ends, was worded once, in blue's names for red's
// markers, and the referee's log showed `b2 entered the front of enemy #6` (the sixteenth
// audit's leftover). By hand, s1.yaml with o3_5.yaml (see reaudit21): b2, b3, b4 stepped into
// the fronts of rB, rC (a fake) and rD; b1's melee with #5 (rA) was ordered. Blue knows rB as
// `enemy #6` and rD as `enemy #8`; the referee knows them by name. So the referee reads
// `b2 entered the front of rB and must melee it too`, blue the same with `enemy #6`.
#[test]
fn an_owed_melees_note_names_the_pieces_for_each_reader() {
    let referee = grognard_in(
        &root().join(OUTSIDE16),
        &["play", "s1.yaml", "--orders", "o3_5.yaml"],
    );
    assert_eq!(referee.code, 0, "{}", referee.stderr);
    assert!(
        referee
            .stdout
            .contains("note: b2 entered the front of rB and must melee it too"),
        "{}",
        referee.stdout
    );
    assert!(
        referee
            .stdout
            .contains("note: b4 entered the front of rD and must melee it too"),
        "{}",
        referee.stdout
    );
    for line in referee.stdout.lines().filter(|l| l.contains("note:")) {
        assert!(!line.contains("enemy #"), "{line}");
    }
    let blue = side_reads_in(OUTSIDE16, "s1.yaml", "o3_5.yaml", "blue");
    assert!(
        blue[0].contains("note: b2 entered the front of enemy #6 and must melee it too"),
        "{}",
        blue[0]
    );
    assert!(
        blue[0].contains("note: b4 entered the front of enemy #8 and must melee it too"),
        "{}",
        blue[0]
    );
    assert!(
        !blue[0].contains("rB") && !blue[0].contains("rD"),
        "{}",
        blue[0]
    );
    // Its JSON too: a plain note in blue's names, with no piece ids.
    assert!(
        blue[1].contains("\"b2 entered the front of enemy #6 and must melee it too\""),
        "{}",
        blue[1]
    );
    assert!(!blue[1].contains("note_naming"), "{}", blue[1]);
}
