//! Hex Command (seed 004), eleventh round: the ninth outside audit's findings. The positions
//! are the auditor's (tests/fixtures/audits/hex-command/eleventh/, the plain ruleset, seed
//! 4: Blue wins the initiative), each worked by hand below; the audit page reruns them.

use serde_json::Value;

use crate::util::{Played, Run, grognard_in, json_of, play_json_in, root};

use super::field::{assert_counted, assert_flag, assert_moved, has};

const DIR: &str = "tests/fixtures/audits/hex-command/eleventh";

fn at(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

/// The melee roll line `side` reads in `play --side`.
fn melee_line(scenario: &str, orders: &str, side: &str) -> String {
    let out = at(&["play", scenario, "--orders", orders, "--side", side]);
    assert_eq!(out.code, 0, "{scenario}: {}{}", out.stdout, out.stderr);
    out.stdout
        .lines()
        .find(|l| l.trim_start().starts_with("melee:"))
        .unwrap_or_else(|| panic!("{scenario}: no melee roll in\n{}", out.stdout))
        .to_owned()
}

/// Blue's melee roll in its `play --side blue --json` log: asserted to carry no input and
/// one net modifier (not itemized), whose value is returned with the roll's score.
fn blue_melee_net(scenario: &str, orders: &str) -> (i64, i64) {
    let out = at(&[
        "play", scenario, "--orders", orders, "--side", "blue", "--json",
    ]);
    let answer = json_of(&out);
    let roll = (answer["events"].as_array().into_iter().flatten())
        .find(|e| e["event"] == "rolled" && e["roll"]["chart"] == "melee")
        .map(|e| e["roll"].clone())
        .unwrap_or_else(|| panic!("{scenario}: no melee roll in {answer}"));
    assert_eq!(roll["inputs"], Value::Array(vec![]), "{scenario}: {roll}");
    let modifiers = roll["modifiers"].as_array().cloned().unwrap_or_default();
    let net = "modifiers in all (not itemized: an unidentified piece)";
    assert!(
        modifiers.len() == 1 && modifiers[0]["name"] == net,
        "{scenario}: {roll}"
    );
    (
        modifiers[0]["value"].as_i64().unwrap_or_default(),
        roll["score"].as_i64().unwrap_or_default(),
    )
}

/// The signed numbers a roll line shows as words of their own, in order.
fn numbers(line: &str) -> Vec<i32> {
    line.split_whitespace()
        .filter_map(|w| w.trim_end_matches([';', ',']).parse().ok())
        .collect()
}

/// 3.1 (l.465-467: a marker shows where a unit is, not what it is) and l.264; the melee
/// chart (charts page: modified melee values, Stronger/Weaker). hidA.yaml: Blue's b1 (infantry,
/// melee 2, Hale attached, C 2: value 4) steps to (3,4) and melees the marker enemy #4 at
/// (4,4), in forest: red infantry rh, melee 2 + cover 1 = 3. hidA2: the same marker with 1
/// hit (2 - 1 + 1 = 2); hidA3: cavalry (3 + 1 = 4). The chart adds 4 a point of the
/// attacker's value and takes 4 a point of the defender's, the pair capped at ±4, so the net
/// says only who is Stronger: hidA and hidA2 +4 (4 > 3, 4 > 2), hidA3 +0 (4 = 4). Seed 4
/// rolls red, red in each (1 + 2 = 3): scores 7, 7 and 3. Blue has not identified rh, so its
/// roll line carries the dice, the net and the score, no melee value: hidA's and hidA2's
/// lines are the same byte for byte, and every number in each is a face-free net or score.
/// Before: Blue read "+16 attacker's melee value, -12 defender's melee value" (-8 with the
/// hit, with "-4 cap on stronger"; -16 for cavalry), giving away the arm, hits and cover.
#[test]
fn hidden_defender_melee_value_not_read_by_the_attacker() {
    // prose: the roll line Blue reads must name no melee value; the net is read on JSON too.
    let orders = "melee.orders.yaml";
    let a = melee_line("hidA.yaml", orders, "blue");
    let a2 = melee_line("hidA2.yaml", orders, "blue");
    let a3 = melee_line("hidA3.yaml", orders, "blue");
    for line in [&a, &a2, &a3] {
        has(line, "(melee by b1 at enemy #4)");
    }
    // Blue's --json roll: the net and the score only, no melee value or cap.
    assert_eq!(blue_melee_net("hidA.yaml", orders), (4, 7));
    assert_eq!(blue_melee_net("hidA2.yaml", orders), (4, 7));
    assert_eq!(blue_melee_net("hidA3.yaml", orders), (0, 3));
    assert_eq!(a, a2, "a hit on the marker changed Blue's roll line");
    assert_eq!(numbers(&a), vec![4, 7], "{a}");
    assert_eq!(numbers(&a3), vec![0, 3], "{a3}");
    has(&a, "+4 modifiers in all");
    has(&a3, "+0 modifiers in all");
    // The owner reads its own unit's value as before.
    has(
        &melee_line("hidA.yaml", orders, "red"),
        "+16 attacker's melee value, -12 defender's melee value",
    );
}

/// The reverse case (l.264, 3.1): a marker attacks. hidR.yaml: red's rh, hidden in forest at
/// (4,4), melees Blue's b1 at (3,4) (value 4 with Hale) in Red's turn 1 melee phase; rh is
/// infantry (2) in hidR, cavalry (3) in hidR3 — less than 4 either way, so the net is -4 and
/// the score, with seed 4's red and red star (1 + 2 = 3), is -1. Blue reads the same line in
/// both, with no attacker's value. Before: "+8 attacker's melee value" (+12 for cavalry).
#[test]
fn hidden_attacker_melee_value_not_read_by_the_defender() {
    // prose: the roll line Blue reads must name no melee value; the net is read on JSON too.
    let orders = "red-melee.orders.yaml";
    let r = melee_line("hidR.yaml", orders, "blue");
    let r3 = melee_line("hidR3.yaml", orders, "blue");
    has(&r, "(melee by enemy #4 at b1)");
    assert_eq!(blue_melee_net("hidR.yaml", orders), (-4, -1));
    assert_eq!(blue_melee_net("hidR3.yaml", orders), (-4, -1));
    assert_eq!(r, r3, "the marker's arm changed Blue's roll line");
    assert_eq!(numbers(&r), vec![-4, -1], "{r}");
}

/// `play SCENARIO --orders ORDERS --json` on the eleventh round's positions: the events.
fn events(scenario: &str, orders: &str) -> Played {
    let p = play_json_in(&root().join(DIR), scenario, orders, &[]);
    assert_eq!(p.code, 0, "{scenario} {orders}: refused {:?}", p.refused);
    p
}

/// 004 l.567-569 (6, Attach Commanders): a commander is attached before movement so that the
/// decision roll "can be negated by the attachment". df.yaml, seed 1: hale (Tactical 9)
/// tries an order change in Blue's turn 1 command phase: d10 4, not higher than 9, a fail;
/// the decision-failure d10 3, "no advance until aggressive" (l.339): b1 and b2 are
/// cautious, r1 ahead of them (b3 has ames attached and is not bound). In df2 hale attaches
/// to b1 after the roll, in df7 before it; both are before movement, so in both b1 is free
/// and steps east toward r1, (2,4) → (3,4). Before: in df2 b1 stayed cautious ("b1 cannot
/// move: it is toward_enemy"), only df7's order freed it — the exemption hung on the order
/// of two acts in one phase.
#[test]
fn commander_attached_after_failed_roll_negates_it() {
    for orders in ["df2.orders.yaml", "df7.orders.yaml"] {
        let p = events("df.yaml", orders);
        let failure = |e: &Value| {
            e["roll"]["purpose"] == "decision failure of hale"
                && e["roll"]["outcome"] == "no advance until aggressive"
        };
        assert!(p.events.iter().any(failure), "{orders}: {:?}", p.events);
        assert_moved(&p, "b1", &[(2, 4), (3, 4)], 1);
    }
    let p = events("df.yaml", "df2.orders.yaml");
    let spared = "b1 has hale attached before movement: the decision roll does not bind it";
    assert!(
        p.events.iter().any(|e| e["text"] == spared),
        "{:?}",
        p.events
    );
}

fn refused(scenario: &str, orders: &str, why: &str) {
    let out = at(&["play", scenario, "--orders", orders]);
    assert_eq!(out.code, 1, "{orders}: {}{}", out.stdout, out.stderr);
    has(&out.stderr, why);
}

/// 004 l.260 (Tribes and Light Infantry): a failed tribal unit "can only advance toward the
/// enemy if the target enemy unit is disordered or worse". tribe.yaml (`tribes`, seed 3):
/// Blue's tribal bt (3,2) and bt2 (3,5), class 3, facing E, commander hale (Tactical 4) not
/// attached, so each checks against 4: d10 7 and 7, both fail (`wavering`). Red's rf (4,2) is
/// fresh; rd (4,5) has a hit (disordered or worse). bt2 → (4,4) ends next to rd: an advance
/// on its damaged target, allowed, though it also closes on rf (3 → 2 hexes). bt2 →
/// (4,4),(4,3),(5,2) ends next to rf and farther from rd (1 → 3): an advance on a fresh
/// unit, refused in the rule's words. bt → (2,3),(3,4) closes on rd (3 → 1) and not on rf
/// (1 → 2): allowed. Before: any fresh enemy not behind held a failed unit still, so all
/// three were refused ("bt2 cannot move: it is toward_enemy").
#[test]
fn failed_tribal_unit_advances_on_a_disordered_enemy_not_a_fresh_one() {
    let p = events("tribe.yaml", "tribe-rd.orders.yaml");
    let morale = |e: &Value| e["roll"]["purpose"] == "tribal morale of bt2 (fails above 4)";
    assert!(p.events.iter().any(morale), "{:?}", p.events);
    assert_flag(&p, "bt2", "wavering", true);
    assert_moved(&p, "bt2", &[(3, 5), (4, 4)], 1);
    refused(
        "tribe.yaml",
        "tribe-rf.orders.yaml",
        "refused: bt2 failed its morale check (tribes): it advances only on a disordered or worse enemy, and this move closes on rf, a fresh, undamaged unit",
    );
    assert_counted(
        &events("tribe.yaml", "tribe-bt.orders.yaml"),
        "bt",
        "steps_moved",
        0,
        2,
    );
}
