//! Hex Command (seed 004), twenty-first round: the sixteenth outside audit (issue 33), on
//! the auditor's positions in tests/fixtures/audits/hex-command/twentyfirst/outside16/
//! (their ruleset path made relative). Each ruling is worked by hand.

use serde_json::{Value, json};

use crate::util::{
    assert_reads_alike, events_of, grognard_in, json_of, play_json_in, root, side_reads_in,
};

/// `legal --json`'s orders for red after `orders` on `scenario`.
fn red_orders(scenario: &str, orders: &str) -> Vec<Value> {
    let r = grognard_in(
        &root().join(DIR),
        &[
            "legal", scenario, "--orders", orders, "--side", "red", "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    json_of(&r)["orders"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Where each listed move of `piece` ends.
fn move_ends(orders: &[Value], piece: &str) -> Vec<Value> {
    (orders.iter())
        .filter(|o| o["move"]["piece"] == piece)
        .filter_map(|o| o["move"]["path"].as_array()?.last().cloned())
        .collect()
}

const DIR: &str = "tests/fixtures/audits/hex-command/twentyfirst/outside16";

// 004 l.480 (7.2.1: a unit that moved into an enemy's front hexes must melee it), l.214 (the
// opponent watches every roll), 3.1 l.465-467 (a marker is known to the enemy only as a
// marker), and docs/scenario-format.md (a handle tells nothing of how many pieces a side
// has). The audit's row 6. By hand, s1.yaml: blue b1-b4 step to col 3, into the front hexes
// of red's markers rA, rB, rC (fake), rD (guns) in the forest at col 2; b1 melees #5 by
// order, and b2, b3, b4 owe theirs, fought as blue's melee phase ends. Seed 13: b2 (2)
// against rB (2 + forest 1 = 3), score -3: defender hit; rD fires grapeshot at b4 at once
// (automatic: hit). s1r.yaml adds two hidden off-board blue reinforcements, so blue's
// handles for red's markers run #7..#10 instead of #5..#8 (o3_5r.yaml names them so). Red
// owns rB and rD and must read them by name, the same in both games, byte for byte; before
// this round it read `melee of b2 (2) against enemy #6 (3)` and `grapeshot by enemy #8`
// (`#8`, `#10` in s1r): blue's handles, which gave away blue's piece count.
#[test]
fn an_owed_melee_fought_as_the_phase_ends_is_worded_for_each_reader() {
    // prose: this test is about the words each reader reads for the same rolls.
    let plain = side_reads_in(DIR, "s1.yaml", "o3_5.yaml", "red");
    let more = side_reads_in(DIR, "s1r.yaml", "o3_5r.yaml", "red");
    assert_reads_alike(&plain, &more, "blue with and without hidden reinforcements");
    for read in &plain[..2] {
        assert!(!read.contains("enemy #"), "{read}");
    }
    assert!(
        plain[0].contains("score -3 → defender hit (melee of b2 (2) against rB (3))"),
        "{}",
        plain[0]
    );
    assert!(
        plain[0].contains("band 0 (automatic) → hit (grapeshot by rD)"),
        "{}",
        plain[0]
    );
    assert!(
        plain[1].contains("\"melee of b2 (2) against rB (3)\""),
        "{}",
        plain[1]
    );
    // The referee reads the rolls by name.
    let r = grognard_in(
        &root().join(DIR),
        &["play", "s1.yaml", "--orders", "o3_5.yaml"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("(melee of b2 (2) against rB (3))"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("(grapeshot by rD)"), "{}", r.stdout);
    // Blue, who has not identified rB or rD, reads the engine's words in its own handles,
    // the roll netted, as it does an ordered melee's.
    let blue = side_reads_in(DIR, "s1.yaml", "o3_5.yaml", "blue");
    assert!(
        blue[0].contains("-4 modifiers in all (not itemized: an unidentified piece); score -3 → defender hit (melee by b2 at enemy #6)"),
        "{}",
        blue[0]
    );
    assert!(
        blue[0].contains("(grapeshot by enemy #8 at b4)"),
        "{}",
        blue[0]
    );
    assert!(
        !blue[0].contains("rB") && !blue[0].contains("rD"),
        "{}",
        blue[0]
    );
}

// 004 5.3 l.542 (one unit per hex), 5f l.525 (only light infantry pass through friends), with
// l.264 and note 74 (nothing a marker does tells a fake from a unit). The audit's rows 25
// and 26. By hand, s1.yaml: red's fake rC at (2,5), rB at (2,3), guns rD at (2,7). A fake
// moves as a unit: rC may not end on rB's hex (the enemy would see two markers in one hex,
// so one a fake), nor on the guns', nor pass through rB to (2,2) (it is not light infantry);
// and real rB may not end on the fake's hex. Each gets the words a unit gets, and `legal`
// lists no such move. Before this round all were accepted.
#[test]
fn a_fake_counter_stacks_and_passes_friends_as_a_unit() {
    for (orders, words) in [
        (
            "o23.yaml",
            "rC cannot enter (2,3): moving in would make 2 units there, over the limit of 1",
        ),
        (
            "pass.orders.yaml",
            "rC cannot enter (2,3): moving in would make 2 units there, over the limit of 1",
        ),
        (
            "onto-fake.orders.yaml",
            "rB cannot enter (2,5): moving in would make 2 units there, over the limit of 1",
        ),
    ] {
        let p = play_json_in(&root().join(DIR), "s1.yaml", orders, &[]);
        assert_eq!(
            p.refusal_kind.as_deref(),
            Some("occupied"),
            "{orders}: {:?}",
            p.refused
        );
        // prose: the words a unit gets.
        let why = p.refused.as_deref().unwrap_or_default();
        assert!(why.ends_with(words), "{orders}: {why}");
    }
    let listed = red_orders("s1.yaml", "o23h.yaml");
    let (rc, rb) = (move_ends(&listed, "rC"), move_ends(&listed, "rB"));
    assert!(!rc.is_empty() && !rb.is_empty(), "{listed:?}");
    assert!(
        !rc.contains(&json!([2, 3])) && !rc.contains(&json!([2, 7])),
        "{rc:?}"
    );
    assert!(!rb.contains(&json!([2, 5])), "{rb:?}");
}

// 004 2.3 l.380-384 (the activation sequence: a group moves only in its own activation;
// note 46: group 0 floats) with l.264 and note 74. The audit's row 27. By hand, s10.yaml
// (option activation_sequence): red's real marker rA and fake rC both carry `group: 2`;
// in red's group 1 movement both are inactive: `legal` lists no move of either, and a move
// is refused in the same words. Before this round the fake moved in any activation, like a
// float.
#[test]
fn a_fake_counter_keeps_its_activation_group() {
    let view = json_of(&grognard_in(
        &root().join(DIR),
        &[
            "view", "s10.yaml", "--orders", "o17.yaml", "--side", "red", "--json",
        ],
    ));
    // Red's own pieces by their numbers in its log.
    let id = |name: &str| {
        (view["view"]["own"].as_array().into_iter().flatten())
            .find(|p| p["name"] == name)
            .map(|p| p["id"].clone())
            .unwrap_or_else(|| panic!("no {name}: {view}"))
    };
    let inactive = |name: &str| {
        let piece = id(name);
        (events_of(&view).iter()).any(|e| {
            e["event"] == "flag_changed"
                && e["flag"] == "inactive"
                && e["on"] == true
                && e["piece"] == piece
        })
    };
    assert!(inactive("rC") && inactive("rA"), "{view}");
    let listed = red_orders("s10.yaml", "o17.yaml");
    let of = |name: &str| {
        listed
            .iter()
            .filter(|o| {
                o.as_object()
                    .into_iter()
                    .flatten()
                    .any(|(_, v)| v["piece"] == name)
            })
            .count()
    };
    assert!(of("rB") > 0, "{listed:?}");
    assert_eq!((of("rC"), of("rA")), (0, 0), "{listed:?}");
    for (orders, id) in [
        ("group-fake.orders.yaml", "rC"),
        ("group-real.orders.yaml", "rA"),
    ] {
        let p = play_json_in(&root().join(DIR), "s10.yaml", orders, &[]);
        assert_eq!(p.code, 1, "{orders}");
        // prose: the same words for the fake as for the unit.
        let words = format!("refused: {id} cannot move: it is inactive");
        let why = p.refused.as_deref().unwrap_or_default();
        assert!(why.ends_with(&words), "{orders}: {why}");
    }
}
