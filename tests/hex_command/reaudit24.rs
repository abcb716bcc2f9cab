//! Hex Command (seed 004), twenty-fourth round: the nineteenth outside audit's findings
//! (issue 33): leaks through a rout, a commander's rally flag and a removed commander.

use crate::util::{Run, assert_reads_alike, grognard_in, root, side_reads_in};

const OUTSIDE19: &str = "tests/fixtures/audits/hex-command/twentyfourth/outside19";

fn run19(args: &[&str]) -> Run {
    grognard_in(&root().join(OUTSIDE19), args)
}

/// The referee's log of `scenario` under `orders`.
fn referee(scenario: &str, orders: &str) -> String {
    let r = run19(&["play", scenario, "--orders", orders]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
}

// 004 7.5.1 (l.405): a rout may pass through one friend to an empty hex beyond; through two it
// is destroyed. A fake weighs as a unit for passing (5.3 l.542, 5f l.525). The audit's L3 (#28,
// q30, seed 4): blue's b1 melees r2 (2 hits, in forest, a marker); r2 routs 3 hexes NE through
// x at (5,3) and the real y at (6,2). By hand: x and y are two units, so r2 is destroyed,
// whether x is real (q30a) or a fake (q30b). It had survived at (6,1) with x a fake, and blue
// read that x is a fake.
#[test]
fn a_rout_meets_a_friendly_fake_as_a_friend() {
    for v in ["q30a.yaml", "q30b.yaml"] {
        let log = referee(v, "q30.orders.yaml");
        assert!(
            log.contains("r2 removed (routed: no room behind a red unit; destroyed)"),
            "{v}: {log}"
        );
    }
    let a = side_reads_in(OUTSIDE19, "q30a.yaml", "q30side.orders.yaml", "blue");
    let b = side_reads_in(OUTSIDE19, "q30b.yaml", "q30side.orders.yaml", "blue");
    assert_reads_alike(&a, &b, "q30a (x real) vs q30b (x a fake)");
}

// The same rout, then x withdraws to (7,0) on the board's edge and r2's next rout runs into it
// (#27, q29, seed 4). By hand: there is no hex beyond x (off the board), so r2 is destroyed
// for want of room (l.405), whether x is real (a), a fake (b) or cavalry (c); with a fake it
// had "left the field". Blue's reads are alike in the three.
#[test]
fn a_friendly_fake_on_the_edge_leaves_no_room_behind() {
    let log = referee("q29b.yaml", "q29.orders.yaml");
    assert!(
        log.contains("r2 removed (routed: no room behind a red unit; destroyed)"),
        "{log}"
    );
    assert!(!log.contains("left the field"), "{log}");
    let a = side_reads_in(OUTSIDE19, "q29a.yaml", "q29side.orders.yaml", "blue");
    for v in ["q29b.yaml", "q29c.yaml"] {
        let b = side_reads_in(OUTSIDE19, v, "q29side.orders.yaml", "blue");
        assert_reads_alike(&a, &b, &format!("q29a vs {v}"));
    }
}
