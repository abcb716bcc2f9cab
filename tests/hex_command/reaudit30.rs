//! Hex Command (seed 004), thirtieth round: the twenty-fourth outside audit (issue 33), on
//! its positions in tests/fixtures/audits/hex-command/thirtieth/outside24/ (r7 is the
//! audit's; r7w, r7f and r7g are built from it).

use crate::util::{Run, assert_reads_alike, cells, grognard_in, play_json_in, root, side_reads_in};

const DIR: &str = "tests/fixtures/audits/hex-command/thirtieth/outside24";

fn exec(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

fn run(args: &[&str]) -> String {
    let out = exec(args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    out.stdout
}

// #19. 7.5.1 (004 l.406): a move or rout may go through artillery, except a routing
// cavalry's; 5.3 (l.542) still keeps a unit from ending on the guns' hex, and the TE chart
// (charts l.9) prices a pass through at 1 TE, given to both (5f l.525; the shared rule
// `friend_passed`). r7: blue infantry b1 at (3,9) facing NE, blue's unlimbered battery ba and
// its crew on b1's NE hex (4,8). By hand: (3,9) → (4,8) → (4,7) is two front steps, cost 2
// of b1's 3; b1 and ba each take a TE hit (0 → 1). It was refused `moving in would make 3
// units there`, and reach went round the guns by (3,8) → (3,7), cost 3. Ending on (4,8)
// stays refused.
#[test]
fn infantry_moves_through_its_own_battery_but_not_onto_it() {
    let dir = root().join(DIR);
    let played = play_json_in(&dir, "r7.yaml", "o-r7b.yaml", &[]);
    assert_eq!(played.refused, None, "the pass is accepted");
    let (b1, ba) = (played.piece("b1"), played.piece("ba"));
    let path = cells(&[(3, 9), (4, 8), (4, 7)]);
    assert!(
        played.events.iter().any(|e| e["event"] == "moved"
            && e["piece"] == b1
            && e["path"] == path
            && e["cost"] == 200),
        "{:?}",
        played.events
    );
    for piece in [b1, ba] {
        assert!(
            played.events.iter().any(|e| e["event"] == "counter_changed"
                && e["piece"] == piece
                && e["counter"] == "te"
                && e["from"] == 0
                && e["to"] == 1),
            "a TE hit to each: {:?}",
            played.events
        );
    }
    let reach = run(&["reach", "r7.yaml", "--unit", "b1", "--orders", "o-2.yaml"]);
    assert!(
        reach.contains("(4,7)      cost 2     via (4,8) → (4,7)"),
        "{reach}"
    );
    assert!(
        !reach.lines().any(|l| l.trim_start().starts_with("(4,8)")),
        "no stop on the guns' hex:\n{reach}"
    );
    let onto = exec(&["play", "r7.yaml", "--orders", "o-r7a.yaml"]);
    assert!(
        onto.stderr
            .contains("refused: b1 may pass through (4,8) but not stop there"),
        "{}",
        onto.stderr
    );
}

// #19's remark. 5.3 (l.542) counts units; a battery's crew rides its guns (reference, Melee
// and Rout) and a player counts the two as one unit. r7w: r7 with b1 a wagon, which l.406 does
// not let through (it is no unit of an arm that moves through guns in our reading): by hand
// the wagon and the battery make 2 units in (4,8), over the limit of 1. It read `3 units`.
#[test]
fn a_stacking_refusal_counts_a_battery_and_its_crew_as_one_unit() {
    let out = exec(&["play", "r7w.yaml", "--orders", "o-r7b.yaml"]);
    assert!(
        out.stderr.contains(
            "refused: b1 cannot enter (4,8): moving in would make 2 units there, \
             over the limit of 1"
        ),
        "{}",
        out.stderr
    );
}

// #19 under markers (l.264; 5.3 l.542 and the twenty-first round: a fake weighs as the unit
// it poses as). r7f/r7g: b1 a hidden 3.1 marker, a real infantry unit (f) or a fake (g); red
// far off, the battery in the open. By hand: both pass through (4,8) to (4,7) and the battery
// takes its TE hit (0 → 1) in both, so red, which sees the battery's hit and the marker's
// move, reads the same five answers. A fake had been refused the pass (and a real unit too).
#[test]
fn a_fake_passes_a_battery_as_the_unit_it_poses_as() {
    let dir = root().join(DIR);
    let fake = play_json_in(&dir, "r7g.yaml", "o-r7f.yaml", &[]);
    assert_eq!(fake.refused, None, "the fake's pass is accepted");
    let ba = fake.piece("ba");
    assert!(
        fake.events.iter().any(|e| e["event"] == "counter_changed"
            && e["piece"] == ba
            && e["counter"] == "te"
            && e["to"] == 1),
        "{:?}",
        fake.events
    );
    let real = side_reads_in(DIR, "r7f.yaml", "o-r7f.yaml", "red");
    let dummy = side_reads_in(DIR, "r7g.yaml", "o-r7f.yaml", "red");
    assert!(
        real[0].contains("enemy #4 moved from (3,9) to (4,7)"),
        "{}",
        real[0]
    );
    assert_reads_alike(&real, &dummy, "real and fake markers passing the battery");
}

// #12's remark: `measure` wrote `1 hexes`. r3 (the audit's): battery ba at (2,7), red r1 at
// (2,6), the hex next to it, and r2 at (6,5), farther off (the plural kept).
#[test]
fn measure_says_one_hex_in_the_singular() {
    let near = run(&["measure", "r3.yaml", "ba", "r1"]);
    assert!(near.contains("\nba to r1: 1 hex\n"), "{near}");
    let far = run(&["measure", "r3.yaml", "ba", "r2"]);
    assert!(far.contains("\nba to r2: 5 hexes\n"), "{far}");
}
