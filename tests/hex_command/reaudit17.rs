//! Hex Command (seed 004), eighteenth round: the thirteenth outside audit's findings (issue
//! 33), on the auditor's position ts2_7 (/work/audit/hex-command-13) copied to
//! tests/fixtures/audits/hex-command/seventeenth/locked.yaml. Each ruling is worked by hand.

use serde_json::{Value, json};

use crate::util::{Played, grognard_in, json_of, play_json_in, root};

const DIR: &str = "tests/fixtures/audits/hex-command/seventeenth";

fn run(args: &[&str]) -> (i32, String) {
    let r = grognard_in(&root().join(DIR), args);
    (r.code, format!("{}{}", r.stdout, r.stderr))
}

/// Blue's `play locked.yaml --orders ORDERS --side blue --json`.
fn blue_play(orders: &str) -> Played {
    play_json_in(
        &root().join(DIR),
        "locked.yaml",
        orders,
        &["--side", "blue"],
    )
}

fn ok(args: &[&str]) -> String {
    let (code, out) = run(args);
    assert_eq!(code, 0, "{args:?}: {out}");
    out
}

// 004 l.467 (3.1: markers in forest are spotted on a red star only) with l.413 (7.3d: a
// melee goes on round after round while the units stay in contact). locked.yaml: red's
// hidden m1 at (3,5) in the wood melees blue's b1 at (3,6) on turn 1 (blue sights it at the
// contact, `blue sights m1 at level seen`). Turn 2's arrivals spotting roll for m1 fails (a
// forest marker next to b1 takes a roll), which before this round dropped m1 back to a marker
// ("blue loses sight of m1", "as last seen" in blue's view without the hit of the round fought
// as blue's melee phase ends, while blue's log itemised that round: #19). Reading (note): a
// unit locked in melee with an enemy unit keeps it in sight, and is kept in its sight, while
// both stay locked (`sighting.locked_flag: in_melee`): the roll cannot lose a unit the side is
// fighting hand to hand. So m1 is seen at the end of turn 2 with its hit (hits 1: blue's
// roll, `score 7 → both hit and defender TE (melee of m1 (2) against b1 (1))`), and the log never says
// blue lost sight of it.
#[test]
fn an_enemy_locked_in_melee_with_a_unit_of_the_side_stays_in_its_sight() {
    let orders = "locked-melee.orders.yaml";
    let p = blue_play(orders);
    assert_eq!((p.code, &p.refused), (0, &None));
    // m1 by blue's number for it: the piece blue sights at the contact.
    let seen = |e: &&Value| e["event"] == "sighted" && e["side"] == 0 && e["level"] == "seen";
    let m1 = p
        .events
        .iter()
        .find(seen)
        .map(|e| e["piece"].clone())
        .expect("m1 sighted");
    let lost = |e: &Value| e["event"] == "sighted" && e["piece"] == m1 && e["level"].is_null();
    assert!(!p.events.iter().any(lost), "{:?}", p.events);
    let round = (p.events.iter()).position(|e| {
        let r = &e["roll"];
        e["event"] == "rolled"
            && r["purpose"] == "melee of m1 (2) against b1 (1)"
            && (&r["score"], &r["outcome"]) == (&json!(7), &json!("both hit and defender TE"))
    });
    let hit = (p.events.iter()).position(|e| {
        e["event"] == "counter_changed"
            && e["piece"] == m1
            && e["counter"] == "hits"
            && e["from"] == 0
            && e["to"] == 1
    });
    assert!(round.is_some() && round < hit, "{:?}", p.events);
    // prose: blue's view line for m1.
    let view = ok(&["view", "locked.yaml", "--orders", orders, "--side", "blue"]);
    let m1 = view
        .lines()
        .find(|l| l.trim_start().starts_with("m1 "))
        .unwrap_or_default();
    assert!(m1.contains("sighting seen"), "{view}");
    assert!(
        m1.contains("hits 1") && !m1.contains("as last seen"),
        "{view}"
    );
}

// 004 l.416 (7.3g: firing into a melee is not allowed). On turn 2 b1 is locked in melee
// with m1 and b2 with m2 (both still hidden markers under their flag, though seen). Before
// this round blue's legal orders offered `b1 fire at m1` and `b2 fire at #6`, and play took
// them (`+1 target in cover`, `m1 is shot_small_1`), since a marker's melee was not read as
// on the table (#20); the control with m1 identified (s5b) was refused. Ruling: a marker in
// melee is in melee with a unit of the firer's own side next to it, so its melee is on the
// table for that side: fire into it is refused as into any melee, so a unit locked in melee
// may not fire at its opponent, whatever it is. Reading: 7.3g bars fire into a melee, not out
// of it at a third unit. b3 (free, its fake #7 in front) may still fire.
#[test]
fn a_unit_locked_in_melee_may_not_fire_whatever_its_opponent_is() {
    let before = "locked-before-fire.orders.yaml";
    let legal = json_of(&grognard_in(
        &root().join(DIR),
        &[
            "legal",
            "locked.yaml",
            "--orders",
            before,
            "--side",
            "blue",
            "--json",
        ],
    ));
    let listed = legal["orders"].as_array().cloned().unwrap_or_default();
    let fires = |unit: &str| {
        listed
            .iter()
            .any(|o| o["act"]["piece"] == unit && o["act"]["action"] == "fire")
    };
    assert!(!fires("b1") && !fires("b2"), "{listed:?}");
    let b3 = json!({"side": "blue", "act": {"piece": "b3", "action": "fire", "target": "#7"}});
    assert!(listed.contains(&b3), "{listed:?}");
    // Refused (the script's refusal, the kernel's hook kind), and no shot marked.
    for (orders, words) in [
        (
            "locked-fire.orders.yaml",
            "locked-fire.orders.yaml:27:5: refused: no firing into a melee (enemy #6 is in melee)",
        ),
        (
            "locked-fire-b1.orders.yaml",
            "locked-fire-b1.orders.yaml:27:5: refused: no firing into a melee (m1 is in melee)",
        ),
    ] {
        let p = blue_play(orders);
        assert_eq!(p.refusal_kind.as_deref(), Some("hook_failed"), "{orders}");
        // prose: the words name the target as blue knows it.
        assert_eq!(p.refused.as_deref(), Some(words));
        let shot = |e: &Value| e["event"] == "flag_changed" && e["flag"] == "shot_small_1";
        assert!(
            !p.events.is_empty() && !p.events.iter().any(shot),
            "{orders}: {:?}",
            p.events
        );
    }
}

// 004 l.123 (the movement hexagon: forward movement; a facing change once a turn, cavalry
// twice) and l.529 (5.1a: a facing change in a hex costs a point, once a turn). The reading of how the two go together (a step into a front side hex
// turns the unit free, the one counted change is made in place) was written only in the YAML
// comment on `turning:` (#27); it is a ruling, so it is stated in the ruleset's notes, which
// the players read (`grognard` shows notes, not comments).
#[test]
fn the_turning_reading_is_stated_in_the_notes() {
    let text =
        std::fs::read_to_string(root().join("rulesets/hex-command.yaml")).unwrap_or_default();
    let notes: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("piece_types:"))
        .filter(|l| l.starts_with("  - \""))
        .collect();
    // prose: the ruleset states the reading in its notes.
    assert!(
        notes
            .iter()
            .any(|n| n.contains("Turning while moving (5d, 5e, 5.1a l.529")
                && n.contains("free and not counted")
                && n.contains("made in place")),
        "no note states the turning reading"
    );
}
