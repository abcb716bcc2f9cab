//! The outside audit of Hex Command after issue 33's rulings: its four findings, each
//! worked by hand here against seed 004 (line numbers are of `004_*.txt`).
//! docs/audits/hex-command.md lists them (33-36) with the commands that ask again.

use super::*;
use crate::util::cells;
use field::counted;

fn act(side: &str, by: &str, action: &str, at: &str) -> String {
    order(
        side,
        &format!("act: {{ piece: {by}, action: {action}, target: {at} }}"),
    )
}

/// 004 l.473 ("apply casualty hits at the end of a melee round of all combatants") with
/// l.472 and l.480: a unit that melees several opponents in one round fights each with the
/// hits it had as the round began. Hand-worked: the cavalry c rides from (2,4) by (3,4) to
/// (4,4), into the fronts of r1 (4,3, facing SW) and r2 (4,5, facing NW); it melees r1, and
/// the melee it owes r2 is fought as the phase ends. c's value is its base 3 (no hits, no
/// commander, not fatigued, r2 meleed in front, no other friend touching r2); r2's is 2.
/// In a seed where r1's roll gives c a hit, c still fights r2 at 3: "melee of c (3)
/// against r2 (2)" (before: "c (2)", the hit applied after the first pairing). In the next
/// round (Red's melee phase) the hit counts: r1 meets c at 2.
#[test]
fn hits_of_a_melee_round_count_when_the_round_ends() {
    let pieces = "  - { id: c, side: blue, type: cavalry, at: [2, 4], facing: E }\n  - { id: r1, side: red, type: infantry, at: [4, 3], facing: SW }\n  - { id: r2, side: red, type: infantry, at: [4, 5], facing: NW }\n";
    let f = field(None, "", pieces, "");
    let mut o = to_blue_movement();
    o.push(order("blue", "move: { piece: c, path: [[3, 4], [4, 4]] }"));
    o.extend(ends("blue", 1));
    o.extend(ends("red", 1));
    o.extend(ends("blue", 1));
    o.push(melee("c", "r1"));
    o.extend(ends("blue", 2)); // melee (the owed melee with r2 is fought), rally
    o.extend(ends("red", 2)); // Red's command, movement
    o.extend(ends("blue", 1)); // Blue's defensive fire
    o.extend(ends("red", 2)); // Red's fire, melee (the melee of r1 and c goes on)
    // The seed is chosen on --json: in Blue's melee phase the main pairing (c against r1,
    // declared) is rolled first and the owed one (c against r2, fought as the phase ends)
    // second; r1's roll gives c a hit, r2's none, and nobody routs.
    let hits_attacker = |roll: &Value| {
        roll["outcome"] == "attacker hit" || roll["outcome"] == "both hit and defender TE"
    };
    for seed in 0..300 {
        let seed = seed.to_string();
        let p = f.json(&o, &["--seed", &seed]);
        let phase = p.in_phase(1, "melee", "blue");
        let rolls: Vec<(usize, &Value)> = (phase.iter().enumerate())
            .filter(|(_, e)| e["event"] == "rolled" && e["roll"]["chart"] == "melee")
            .map(|(i, e)| (i, &e["roll"]))
            .collect();
        let [(main_at, main), (owed_at, owed)] = rolls[..] else {
            panic!("seed {seed}: two melee rolls wanted in {phase:?}");
        };
        let routed = (p.events.iter()).any(|e| e["flag"] == "routed" && e["on"] == true);
        if !hits_attacker(main) || hits_attacker(owed) || routed {
            continue;
        }
        assert_eq!(main["against"], p.piece("r1"), "{main}");
        assert!(main_at < owed_at);
        // The owed melee is fought with the hits c had as the round began: 3, not 2.
        assert_eq!(owed["purpose"], "melee of c (3) against r2 (2)", "{owed}");
        let owed_note = "c entered the front of r2 and must melee it too";
        assert!(phase[..owed_at].iter().any(|e| e["text"] == owed_note));
        // c's hit is counted at once but kept aside as the round's (round_hits) until both
        // pairings are fought; then the round ends and it counts.
        let c = p.piece("c");
        let round_hits = |to: i64| {
            (phase.iter())
                .position(|e| e["piece"] == c && e["counter"] == "round_hits" && e["to"] == to)
                .unwrap_or_else(|| panic!("seed {seed}: no round_hits → {to} in {phase:?}"))
        };
        assert!(main_at < round_hits(1) && round_hits(1) < owed_at);
        assert!(owed_at < round_hits(0), "seed {seed}: {phase:?}");
        assert_counted(&p, "c", "hits", 0, 1);
        // In Red's melee phase the melee of r1 and c goes on, and the hit counts: c at 2.
        let next = p.in_phase(1, "melee", "red");
        let roll = (next.iter())
            .find(|e| e["roll"]["chart"] == "melee")
            .map(|e| &e["roll"])
            .unwrap_or_else(|| panic!("seed {seed}: no melee roll in {next:?}"));
        let purpose = roll["purpose"].as_str().unwrap_or_default();
        assert!(purpose.ends_with("against c (2)"), "seed {seed}: {roll}");
        return;
    }
    panic!("no seed where r1 gives c one hit and r2 none");
}

/// 004 l.120: in the A/B system "casualties are simultaneous; they do not affect combat
/// values". Our reading (ruleset notes): a side turn's defensive fire and fire phases are one
/// exchange, and hits taken from fire in it do not count against the firer in it. b (3,4,
/// facing E) and r (4,4, facing W) stand one hex apart: band 0, an automatic hit. r's
/// defensive fire hits b; b answers in Blue's fire phase still at band 0, automatic ("+1 hits
/// on the firer" before, band 1, a Color roll). In Red's side turn the hit counts: b's
/// defensive fire is one band worse, band 1 (Color).
#[test]
fn hits_from_fire_do_not_count_in_the_same_exchange() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n";
    let f = field(None, "", pieces, "");
    let mut o = to_blue_movement();
    o.extend(ends("blue", 1)); // movement
    o.push(act("red", "r", "fire", "b"));
    o.extend(ends("red", 1)); // Red's defensive fire
    o.push(fire("b", "r"));
    o.extend(ends("blue", 3)); // fire, melee, rally
    o.extend(ends("red", 2)); // Red's command, movement
    o.push(fire("b", "r")); // Blue's defensive fire
    // The rolls on --json: b's answer in the exchange has no modifier (band 0, a hit
    // without a die); its fire in Red's turn has the hit's +1.
    let p = f.json(&o, &[]);
    let roll_of_b = |events: &[Value]| {
        let b = p.piece("b");
        (events.iter())
            .find(|e| e["event"] == "rolled" && e["roll"]["by"] == b)
            .map(|e| e["roll"].clone())
            .unwrap_or_else(|| panic!("no roll of b in {events:?}"))
    };
    let answer = roll_of_b(p.in_phase(1, "fire", "blue"));
    assert_eq!(answer["modifiers"], serde_json::json!([]), "{answer}");
    assert_eq!(answer["band"], "automatic", "{answer}");
    assert_eq!(answer["outcome"], "hit", "{answer}");
    let next = roll_of_b(p.in_phase(1, "defensive fire", "red"));
    let hits_on_firer = serde_json::json!([{"name": "hits on the firer", "value": 1}]);
    assert_eq!(next["modifiers"], hits_on_firer, "{next}");
    // The phase headings name the phasing side: Red's defensive fire is in Blue's turn.
    let b = p.piece("b");
    let hit = |e: &Value| e["piece"] == b && e["counter"] == "hits" && e["to"] == 1;
    assert!(p.in_phase(1, "defensive fire", "blue").iter().any(hit));
}

/// 004 l.406 (7.5.1): "move/rout through artillery is allowed except for routing cavalry".
/// c (4,4, facing E, two hits) is routed by r's automatic point-blank fire from (5,4) and
/// turns about to the west: the battery g stands at (3,4), and (2,4) behind it is empty. c is
/// destroyed, and the reason is the rule's: "cavalry may not rout through artillery (g)"
/// (before: "no room behind g", false). Infantry in c's place passes through g (g takes a TE
/// hit) and ends 3 hexes back, at (1,4).
#[test]
fn routing_cavalry_may_not_pass_through_artillery() {
    let pieces = "  - { id: c, side: blue, type: cavalry, at: [4, 4], facing: E, counters: { hits: 2 } }\n  - { id: g, side: blue, type: artillery, at: [3, 4], facing: E, mode: unlimbered }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: W }\n";
    let mut o = ends("blue", 3);
    o.push(act("red", "r", "fire", "c"));
    // On --json: the removal's reason is the rule's (not "no room behind"), g takes no TE.
    let p = field(None, "", pieces, "").json(&o, &[]);
    let why = "routed: cavalry may not rout through artillery (g); destroyed";
    assert!(
        p.has("removed", "c", |e| e["reason"] == why),
        "{:?}",
        p.events
    );
    assert_flag(&p, "c", "routed", true);
    assert!(!counted(&p, "g", "te", None), "{:?}", p.events);
    let foot = pieces.replace(
        "id: c, side: blue, type: cavalry",
        "id: c, side: blue, type: infantry",
    );
    let p = field(None, "", &foot, "").json(&o, &[]);
    assert_counted(&p, "g", "te", 0, 1);
    assert_placed(&p, "c", (4, 4), (1, 4), "routed");
}

/// 004 l.557 (5.5.1a) against l.252 (optional Disorder/Fatigued): our reading (ruleset
/// notes) is that 5.5.1a's "do not auto-disorder and do not stop moving" points at the
/// optional rule, so in the basic game foot enter forest off the road and go on moving.
/// b (2,4, facing E) walks through the forest at (3,4) and (4,4) to (5,4): three hexes for
/// 3 points, no TE hit. Under `disorder_fatigue` the same move costs one TE hit (once, not
/// per forest hex) and still is not stopped.
#[test]
fn foot_entering_forest_off_the_road_are_not_stopped() {
    let map = ". . . . . . . . . .\n".repeat(4)
        + ". . . F F . . . . .\n"
        + &". . . . . . . . . .\n".repeat(3);
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let mut o = to_blue_movement();
    o.push(order(
        "blue",
        "move: { piece: b, path: [[3, 4], [4, 4], [5, 4]] }",
    ));
    let path = cells(&[(2, 4), (3, 4), (4, 4), (5, 4)]);
    let whole = |e: &Value| e["path"] == path && e["cost"] == 300;
    let p = field(Some(&map), "", pieces, "").json(&o, &[]);
    assert!(p.has("moved", "b", whole), "{:?}", p.events);
    assert!(!counted(&p, "b", "te", None), "{:?}", p.events);
    let tiring = field(
        Some(&map),
        "",
        pieces,
        "options: { disorder_fatigue: true }",
    );
    // One TE hit in all, not one per forest hex, and the move is not stopped.
    let p = tiring.json(&o, &[]);
    assert!(p.has("moved", "b", whole), "{:?}", p.events);
    let te = (p.events.iter()).filter(|e| e["counter"] == "te");
    assert_eq!(te.count(), 1, "{:?}", p.events);
    assert!(counted(&p, "b", "te", Some((0, 1))), "{:?}", p.events);
}

/// Found by the fuzzer while fixing the above: a routed unit met a hex held by a lone enemy
/// commander and the game stalled ("a hook asked to place r1 at (3,8), which is held by the
/// enemy"). 004 l.404-405 speak of units; our reading (ruleset notes): the commander's hex
/// halts the rout as impassable ground does. b (4,4, facing E, two hits) is routed by r's
/// automatic fire from (5,4) and turns west; the red commander rk stands alone at (2,4), so b
/// stops at (3,4), one hex back (before: it passed over him to (1,4)).
#[test]
fn a_lone_enemy_commander_halts_a_rout() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: E, counters: { hits: 2 } }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: W }\n  - { id: rk, side: red, type: commander, at: [2, 4] }\n";
    let mut o = ends("blue", 3);
    o.push(act("red", "r", "fire", "b"));
    let p = field(None, "", pieces, "").json(&o, &[]);
    assert_flag(&p, "b", "routed", true);
    assert_placed(&p, "b", (4, 4), (3, 4), "routed");
}
