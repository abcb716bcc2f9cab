//! Hex Command (seed 004), seventeenth round: the twelfth outside audit's findings (issue
//! 33), on the auditor's positions (/work/audit/hex-command-12: s4, s4-seed43, s4-seed60, s2)
//! copied to tests/fixtures/audits/hex-command/sixteenth/. Each ruling is worked by hand.

use serde_json::{Value, json};

use crate::util::{
    Played, assert_reads_alike, grognard_in, json_of, play_json_in, root, side_reads_in,
};

const DIR: &str = "tests/fixtures/audits/hex-command/sixteenth";

fn run(args: &[&str]) -> String {
    let r = grognard_in(&root().join(DIR), args);
    assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
    r.stdout
}

/// `play SCENARIO --orders ORDERS --json ARGS` in the fixture folder, every order accepted.
fn played(scenario: &str, orders: &str, args: &[&str]) -> Played {
    let p = play_json_in(&root().join(DIR), scenario, orders, args);
    assert_eq!((p.code, &p.refused), (0, &None), "{scenario} {orders}");
    p
}

/// The purposes of the melee rolls in `p`'s log.
fn melee_rolls(p: &Played) -> Vec<Value> {
    (p.events.iter())
        .filter(|e| e["event"] == "rolled" && e["roll"]["chart"] == "melee")
        .map(|e| e["roll"]["purpose"].clone())
        .collect()
}

/// `legal --json`'s orders for `side` after `orders` on `scenario`.
fn legal_orders(scenario: &str, orders: &str, side: &str) -> Vec<Value> {
    let r = grognard_in(
        &root().join(DIR),
        &[
            "legal", scenario, "--orders", orders, "--side", side, "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    json_of(&r)["orders"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Everything `side` receives of a game played to the end of `orders` (`util::SIDE_READS`).
fn reads(scenario: &str, orders: &str, side: &str) -> Vec<String> {
    side_reads_in(DIR, scenario, orders, side)
}

// 004 l.480 (7.2.1: a unit that moves into the frontal zone of an opponent must melee it)
// with 3.1 (l.465-467) and l.264 (the owner moves his fakes as units). owed-real.yaml and
// owed-fake.yaml differ only in f1 at (10,5): a hidden infantry unit or a fake. Red's
// markers r1, r2, f1 step SW-facing into (2,6), (6,6), (10,6), each in the front of b1, b2,
// b3 (facing NE from row 7), so each owes b1, b2, b3 its melee. Until red's melee phase ends
// blue's every answer is the same, byte for byte, for the two. As it ends the owed melees
// are fought: a real f1 rolls (seed 5: `melee by enemy #7 at b3`, b3 in melee), a fake one
// is met as blue meeting a fake is: unmasked and removed, no round fought (before this
// round the fake owed nothing: it stayed a marker and b3 was free to move while b1 and b2
// were locked, which told blue it was a fake).
#[test]
fn a_fake_that_moves_into_a_front_owes_the_melee_and_is_unmasked_by_it() {
    let moved = "owed-moved.orders.yaml";
    let real = reads("owed-real.yaml", moved, "blue");
    let fake = reads("owed-fake.yaml", moved, "blue");
    assert_reads_alike(
        &real,
        &fake,
        "blue's answers before the owed melee tell the fake",
    );
    let fought = "owed-fought.orders.yaml";
    let real = played("owed-real.yaml", fought, &["--side", "blue"]);
    assert!(
        melee_rolls(&real).contains(&json!("melee by enemy #7 at b3")),
        "{:?}",
        real.events
    );
    assert!(
        real.flag("b3", "in_melee", true).is_some(),
        "{:?}",
        real.events
    );
    let fake = played("owed-fake.yaml", fought, &["--side", "blue"]);
    let gone = json!({"event": "removed", "piece": 7, "reason": "a fake counter, met in melee: there was no unit there"});
    assert!(fake.events.contains(&gone), "{:?}", fake.events);
    // No round is fought with the fake: the other two are.
    let rounds = melee_rolls(&fake);
    assert!(
        rounds.len() == 2 && !rounds.contains(&json!("melee by enemy #7 at b3")),
        "{rounds:?}"
    );
    let view = json_of(&grognard_in(
        &root().join(DIR),
        &[
            "view",
            "owed-fake.yaml",
            "--orders",
            fought,
            "--side",
            "red",
            "--json",
        ],
    ));
    let f1 = (view["view"]["own"].as_array().into_iter().flatten()).find(|p| p["name"] == "f1");
    assert_eq!(
        f1.map(|p| &p["place"]),
        Some(&json!("off")),
        "the fake is gone: {view}"
    );
}

// 004 l.345 (2.2.2 result 9, "opponents choice of any of the above"). Our reading: the
// opponent is told, and the engine chooses for it with a d8 on results 1-8 (it asks no
// player in the other side's phase). By hand, seed 43: rk (T 6) tries an order change in
// red's command phase: the d10 rolls 5, 5 - 6 = -1, not 1 or more: fail; the failure table
// rolls 9, the opponent's choice; the d8 rolls 1: halt. Blue reads the announcement (before
// this round it read nothing); red's r1 and the fake f1 are halted (r2 has rcmd attached,
// which negates the roll for it), so red's movement phase lists no move for r1 or f1.
#[test]
fn decision_failure_nine_is_told_to_the_opponent_and_chosen_for_it() {
    let orders = "change.orders.yaml";
    let told = "red's order change failed with result 9, the opponent's choice: \
                the engine chose for the opponent (d8 on results 1-8): halt";
    let blue = played("failure-seed43.yaml", orders, &["--side", "blue"]);
    assert!(blue.announced(told), "{:?}", blue.events);
    let halted = |e: &Value| e["event"] == "flag_changed" && e["flag"] == "halted";
    assert!(
        !blue.events.iter().any(halted),
        "the marker's flag stays hidden: {:?}",
        blue.events
    );
    let red = played("failure-seed43.yaml", orders, &["--side", "red"]);
    let choice = (red.events.iter()).any(|e| {
        let r = &e["roll"];
        r["chart"] == "decision_choice"
            && (&r["dice"][0]["value"], &r["outcome"]) == (&json!(1), &json!("halt"))
    });
    assert!(choice && red.announced(told), "{:?}", red.events);
    for name in ["r1", "f1"] {
        assert!(
            red.flag(name, "halted", true).is_some(),
            "{name}: {:?}",
            red.events
        );
    }
    let legal = legal_orders("failure-seed43.yaml", orders, "red");
    let moves = |name: &str| legal.iter().any(|o| o["move"]["piece"] == name);
    assert!(!moves("r1") && !moves("f1") && moves("r2"), "{legal:?}");
}

// 004 l.339 (result 3) with l.313 (a commander's capabilities are kept from the opponent).
// By hand, seed 60: rk (T 6) rolls 3, 3 - 6 = -3: fail; the failure table rolls 3, no
// advance until aggressive; rk is flagged to test his Aggressiveness. Red reads the flag;
// blue, which reads no other result's mark on the commander, no longer reads it in its log
// or its view (before this round: `rk is awaiting_aggression`).
#[test]
fn the_wait_for_aggressiveness_is_the_failing_sides_own() {
    let orders = "change.orders.yaml";
    let red = played("failure-seed60.yaml", orders, &["--side", "red"]);
    let failed = (red.events.iter()).position(|e| {
        let r = &e["roll"];
        r["chart"] == "decision_failure"
            && (&r["dice"][0]["value"], &r["outcome"])
                == (&json!(3), &json!("no advance until aggressive"))
    });
    assert!(
        failed.is_some() && failed < red.flag("rk", "awaiting_aggression", true),
        "{:?}",
        red.events
    );
    for read in reads("failure-seed60.yaml", orders, "blue") {
        // prose: no read of blue's names the flag, in words or JSON.
        assert!(!read.contains("awaiting_aggression"), "{read}");
    }
}

// 004 l.166 (the arrivals phase checks spotting) and l.467 (3.1: at 5 hexes markers are
// revealed automatically, except in forest, town, trench, sunken road). Our reading: the
// roll at 8 hexes is the arrivals phase's; the reveal at 5 is a standing condition, made the
// moment a marker stands within 5 hexes in the open. By hand, reveal.yaml: r1 (3,6), r2
// (7,6) and f1 (11,6) stand in the forest rows 5-6, 2 hexes from b1 (2,8), b2 (6,8), b3
// (10,8), so arrivals only rolls the cube for them (band 0: unseen). Each then steps into
// the open row 7 and blue sights it at that step, mid-move (f1 shown a dummy). This states
// the engine's standing behaviour (no change this round, so no test failed before).
#[test]
fn a_marker_within_five_hexes_in_the_open_is_revealed_mid_move() {
    let p = played("reveal.yaml", "reveal.orders.yaml", &["--side", "blue"]);
    let at = |c: (i64, i64)| json!({"cell": {"col": c.0, "row": c.1}});
    let moved = (p.events.iter())
        .position(|e| {
            e["event"] == "enemy_moved" && e["from"] == at((3, 6)) && e["to"] == at((2, 7))
        })
        .unwrap_or_else(|| panic!("r1 moves: {:?}", p.events));
    let r1 = p.events[moved]["piece"].clone();
    let seen = |e: &Value| e["event"] == "sighted" && e["side"] == 0 && e["level"] == "seen";
    let sighted = (p.events.iter()).position(|e| seen(e) && e["piece"] == r1);
    // Sighted at that step: after its move, before the next marker's.
    let next = (p.events.iter().skip(moved + 1)).position(|e| e["event"] == "enemy_moved");
    let next = next.map_or(p.events.len(), |n| n + moved + 1);
    assert!(
        sighted.is_some_and(|s| moved < s && s < next),
        "{:?}",
        p.events
    );
    assert!(!p.events[..moved].iter().any(seen), "{:?}", p.events);
    // prose: blue's view says what f1 was shown to be.
    let view = run(&[
        "view",
        "reveal.yaml",
        "--orders",
        "reveal.orders.yaml",
        "--side",
        "blue",
    ]);
    assert!(view.contains("a dummy, fake_counter"), "{view}");
}

// 004 l.339 (result 3: "cannot move in the enemy's direction ... can move in other
// directions however"). Our reading from this round: a cautious unit may move any way and
// turn freely, so long as no hex of its move is nearer than its start to an enemy unit its
// side knows of. By hand, seed 60: rk fails (d10 3 - 6), result 3; r1 at (2,5) faces SW
// with blue's line b1 (2,7), b2 (6,7), b3 (10,7) before it. Before this round it could not
// move at all (`r1 cannot move: it is toward_enemy`): now it turns NE and steps (3,4) →
// (3,3), away from the line (the auditor's o6b), and may sidestep to (1,5), 2 hexes from b1
// as at its start; a step to (2,6), next to b1, is nearer and not listed.
#[test]
fn a_cautious_unit_may_move_in_any_direction_that_does_not_near_the_enemy() {
    let p = played("failure-seed60.yaml", "caution.orders.yaml", &[]);
    let path = json!([{"col": 2, "row": 5}, {"col": 3, "row": 4}, {"col": 3, "row": 3}]);
    assert!(
        p.has("moved", "r1", |e| e["path"] == path && e["cost"] == 200),
        "{:?}",
        p.events
    );
    let legal = legal_orders("failure-seed60.yaml", "change.orders.yaml", "red");
    let step = json!({"side": "red", "move": {"piece": "r1", "path": [[1, 5]]}});
    let face = json!({"side": "red", "face": {"piece": "r1", "facing": "NE"}});
    assert!(legal.contains(&step) && legal.contains(&face), "{legal:?}");
    let nearer = |o: &Value| o["move"]["piece"] == "r1" && o["move"]["path"][0] == json!([2, 6]);
    assert!(!legal.iter().any(nearer), "{legal:?}");
}
