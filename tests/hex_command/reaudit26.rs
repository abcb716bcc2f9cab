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
