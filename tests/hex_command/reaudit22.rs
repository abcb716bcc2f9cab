//! Hex Command (seed 004), twenty-second round: what the sixteenth outside audit left (issue
//! 33) and the seventeenth audit's findings.

use serde_json::{Value, json};

use crate::util::{
    Played, Run, assert_reads_alike, grognard_in, json_of, play_json_in, root, side_reads_in,
};

const OUTSIDE16: &str = "tests/fixtures/audits/hex-command/twentyfirst/outside16";
const OUTSIDE17: &str = "tests/fixtures/audits/hex-command/twentysecond/outside17";

fn run17(args: &[&str]) -> Run {
    grognard_in(&root().join(OUTSIDE17), args)
}

/// `play SCENARIO --orders ORDERS --side SIDE --json` in the seventeenth audit's folder,
/// every order accepted.
fn played17(scenario: &str, orders: &str, side: &str) -> Played {
    let p = play_json_in(&root().join(OUTSIDE17), scenario, orders, &["--side", side]);
    assert_eq!((p.code, &p.refused), (0, &None), "{scenario} {orders}");
    p
}

/// Whether piece `name` arrived at `(col, row)` as a reinforcement at entry place `place`.
fn arrived(p: &Played, name: &str, at: (i64, i64), place: u8) -> bool {
    let reason = format!("reinforcement arriving at entry place {place}");
    p.has("arrived", name, |e| {
        e["at"] == json!({"col": at.0, "row": at.1}) && e["reason"] == reason.as_str()
    })
}

/// Whether the arrivals waited: the announcement that the enemy holds the place.
fn held(p: &Played) -> bool {
    let told = |e: &Value| {
        e["event"] == "announced"
            && e["text"]
                .as_str()
                .is_some_and(|t| t.ends_with("which the enemy holds; they wait a turn"))
    };
    p.events.iter().any(told)
}

// 004 l.480 (7.2.1: a unit that moved into an enemy's front hexes must melee it). The note
// that says so, written as blue's melee phase ends, was worded once, in blue's names for red's
// markers, and the referee's log showed `b2 entered the front of enemy #6` (the sixteenth
// audit's leftover). By hand, s1.yaml with o3_5.yaml (see reaudit21): b2, b3, b4 stepped into
// the fronts of rB, rC (a fake) and rD; b1's melee with #5 (rA) was ordered. Blue knows rB as
// `enemy #6` and rD as `enemy #8`; the referee knows them by name. So the referee reads
// `b2 entered the front of rB and must melee it too`, blue the same with `enemy #6`.
#[test]
fn an_owed_melees_note_names_the_pieces_for_each_reader() {
    // prose: this test is about the note's words for each reader.
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

// 004 l.512-514 (4b: enemy units on the entry hexes block the arrivals, and the blocking
// force may make two full moves away) with 3.1 and l.264 (a marker shows the enemy its
// place and facing only). The seventeenth audit's F1: a fake on the place did not block
// (blue's reinforcement came on beside it) and could not withdraw. By hand, h5g_*.yaml: the
// marker m stands on (0,4), a hex of entry place 2 ((0,4), (0,5)), in forest and 10+ hexes
// from b1, and blue's rb is due on turn 1 at place 2. Real or fake, blue has not identified
// it, so the place is held: blue reads `1 unit is arriving at entry place 2, which the enemy
// holds; they wait a turn`, and rb stays off the board. Red's m is marked blocking and may
// withdraw: two moves of a foot allowance of 3 are 6 hexes; the hexes 6 from both place
// hexes that 6 steps reach, lowest row first, begin with (4,0) (row 0: (3,0) is 5 from (0,4),
// (5,0) is 7 away), so m goes to (4,0), and blue reads `enemy #4 moved from (0,4) to (4,0)`.
#[test]
fn a_fake_on_an_entry_place_blocks_the_arrivals_as_a_real_marker_does() {
    let real = side_reads_in(OUTSIDE17, "h5g_real.yaml", "o_h5f.orders.yaml", "blue");
    let fake = side_reads_in(OUTSIDE17, "h5g_fake.yaml", "o_h5f.orders.yaml", "blue");
    assert_reads_alike(&real, &fake, "h5g real vs fake, arrivals");
    let blue = played17("h5g_fake.yaml", "o_h5f.orders.yaml", "blue");
    let told = "blue: 1 unit is arriving at entry place 2, which the enemy holds; they wait a turn";
    assert!(blue.announced(told), "{:?}", blue.events);
    assert!(!blue.has("arrived", "rb", |_| true), "{:?}", blue.events);
    let real = side_reads_in(OUTSIDE17, "h5g_real.yaml", "o_h5w.orders.yaml", "blue");
    let fake = side_reads_in(OUTSIDE17, "h5g_fake.yaml", "o_h5w.orders.yaml", "blue");
    assert_reads_alike(&real, &fake, "h5g real vs fake, withdrawal");
    let blue = played17("h5g_fake.yaml", "o_h5w.orders.yaml", "blue");
    let at = |c: (i64, i64)| json!({"cell": {"col": c.0, "row": c.1}});
    let seen = (blue.events.iter()).any(|e| {
        e["event"] == "enemy_moved"
            && e["piece"] == 4
            && e["from"] == at((0, 4))
            && e["to"] == at((4, 0))
    });
    assert!(seen, "{:?}", blue.events);
    // The owner: the fake is offered the withdrawal and makes it as the unit would.
    let legal = run17(&[
        "legal",
        "h5g_fake.yaml",
        "--orders",
        "o_h5f.orders.yaml",
        "--side",
        "red",
        "--json",
    ]);
    let withdraw = json!({"side": "red", "act": {"piece": "m", "action": "withdraw"}});
    let listed = json_of(&legal)["orders"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(listed.contains(&withdraw), "{listed:?}");
    let red = played17("h5g_fake.yaml", "o_h5w.orders.yaml", "red");
    let blocking = red.flag("m", "blocking", true);
    let withdrew = red.find("placed", "m", |e| {
        e["from"] == json!({"col": 0, "row": 4})
            && e["to"] == json!({"col": 4, "row": 0})
            && e["reason"] == "withdrew two moves from the arriving force"
    });
    assert!(
        blocking.is_some() && blocking < withdrew,
        "{:?}",
        red.events
    );
    // A fake blue has unmasked is an empty plate and holds nothing. h5u_*.yaml: b1 stands 4
    // hexes from m in the open, so turn 1's spotting shows it (5 hexes, no roll, 3.1 l.467);
    // rb is due on turn 2: beside the unmasked fake it comes on at (0,5); a real unit (which
    // b1 sees too) still holds the place.
    let fake = played17("h5u_fake.yaml", "o_turn2.orders.yaml", "blue");
    assert!(
        arrived(&fake, "rb", (0, 5), 2) && !held(&fake),
        "{:?}",
        fake.events
    );
    let real = played17("h5u_real.yaml", "o_turn2.orders.yaml", "blue");
    assert!(
        held(&real) && !real.has("arrived", "rb", |_| true),
        "{:?}",
        real.events
    );
    // Row 38, hidden movement, left as the auditor judged it: decoys hold nothing (the owner
    // or a judge answers from the hidden map, l.264), the unseen real unit does.
    let gone = played17("h23_t2.yaml", "o_h23a.orders.yaml", "blue");
    assert!(
        gone.has("arrived", "rb", |e| e["at"] == json!({"col": 0, "row": 5})),
        "{:?}",
        gone.events
    );
    let there = played17("h23_t2.yaml", "o_h23c.orders.yaml", "blue");
    assert!(
        held(&there) && !there.has("arrived", "rb", |_| true),
        "{:?}",
        there.events
    );
}

// 004 l.513-516 (reinforcements arrive at their recorded or rolled places) with l.135
// (fakes on the board) and 4b's 'apparent strength'. The seventeenth audit's F2: a fake set up
// off the board with `arrives`/`entry` never came on, with no word. By hand, h3_e0h*.yaml:
// red's rr is due on turn 2 with entry 0, so red rolls the d6 entry chart: seed 17 gives 2,
// 'first place' (1-2), entry_1 = (15,4), (15,5); (15,4) is free, so rr comes on there facing
// W, hidden. Blue reads `enemy #3 moved from out of sight to (15,4)` whether rr is infantry or
// a fake, and every answer alike.
#[test]
fn a_fake_set_up_as_a_reinforcement_arrives_as_its_marker() {
    let red = played17("h3_e0hf.yaml", "o_h3b.orders.yaml", "red");
    let roll = (red.events.iter()).position(|e| {
        let r = &e["roll"];
        e["event"] == "rolled"
            && r["chart"] == "entry_point"
            && (&r["dice"][0]["value"], &r["score"], &r["outcome"])
                == (&json!(2), &json!(2), &json!("first place"))
    });
    let came = red.find("arrived", "rr", |e| {
        e["at"] == json!({"col": 15, "row": 4})
            && e["reason"] == "reinforcement arriving at entry place 1"
    });
    assert!(roll.is_some() && roll < came, "{:?}", red.events);
    let real = side_reads_in(OUTSIDE17, "h3_e0hi.yaml", "o_h3b.orders.yaml", "blue");
    let fake = side_reads_in(OUTSIDE17, "h3_e0hf.yaml", "o_h3b.orders.yaml", "blue");
    assert_reads_alike(&real, &fake, "h3 infantry vs fake reinforcement");
    // prose: blue's words for the arrival and its view's line.
    assert!(
        fake[0].contains("enemy #3 moved from out of sight to (15,4)"),
        "{}",
        fake[0]
    );
    assert!(
        fake[2].contains("#3         at (15,4), facing W"),
        "{}",
        fake[2]
    );
}

// 004 l.242-243 (commanders are attached to units) with l.264 (a fake is a plate): the
// seventeenth audit's remark 2. In play `attach` refuses a fake (`a commander attaches to a
// unit, not to m`); the set-up now refuses the same attachment at the commander's line
// (h13_fake.yaml l.27: k2 attached_to m, a fake counter), in the same words.
#[test]
fn a_commander_set_up_attached_to_a_fake_is_refused_at_his_line() {
    let set_up = run17(&["view", "h13_fake.yaml", "--referee"]);
    assert_ne!(set_up.code, 0, "{}", set_up.stdout);
    assert!(
        set_up
            .stderr
            .contains("h13_fake.yaml:27:11: piece k2: a commander attaches to a unit, not to m"),
        "{}",
        set_up.stderr
    );
    let play = run17(&["play", "h19_fake.yaml", "--orders", "o_h19.orders.yaml"]);
    assert!(
        play.stderr
            .contains("o_h19.orders.yaml:3:5: refused: a commander attaches to a unit, not to m"),
        "{}",
        play.stderr
    );
}

// The seventeenth audit's remark 4: a refusal named the internal type id (`m cannot withdraw:
// it is fake_counter, …`). That withdrawal is now allowed (F1); the kernel's type refusal
// words a piece's own type by the type's `called` (rulesets/hex-command.yaml: `a fake
// counter`). By hand, h5g_fake.yaml with o_dig.orders.yaml: red's fake m is told to dig in its
// movement phase; only infantry, light infantry and guns dig (charts l.8), so it is refused.
#[test]
fn a_fake_refused_an_act_for_its_type_is_called_a_fake_counter() {
    let play = run17(&["play", "h5g_fake.yaml", "--orders", "o_dig.orders.yaml"]);
    assert_ne!(play.code, 0, "{}", play.stdout);
    assert!(
        play.stderr.contains(
            "refused: m cannot dig: it is a fake counter, and only infantry, light_infantry, artillery may dig"
        ),
        "{}",
        play.stderr
    );
    assert!(!play.stderr.contains("fake_counter"), "{}", play.stderr);
}
