//! Hex Command commanders (8): the supreme commander's death, rallies, attaching commanders,
//! order changes, army integrity and random CVS rolls.

use super::*;

/// 004 break point: when the supreme commander is killed, every unit of his force rolls the
/// cube at once and on red withdraws two turns' distance to its rear.
#[test]
fn supreme_commander_death_makes_every_unit_roll() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n  - { id: v, side: red, type: commander, at: [4, 4], attached_to: r, attributes: { supreme: 1 } }\n  - { id: q, side: red, type: infantry, at: [1, 6], facing: W }\n";
    let f = field(None, "", pieces, "");
    let orders = with(to_blue_fire(), &[fire("b", "r")]);
    let refs: Vec<&str> = orders.iter().map(String::as_str).collect();
    let (mut went, mut stayed) = (false, false);
    for seed in 0..300 {
        let seed = seed.to_string();
        let played = f.json(&refs, &["--seed", &seed]);
        let integrity = rolls_of(&played, "integrity");
        if played
            .find("removed", "v", |e| {
                e["reason"]
                    .as_str()
                    .is_some_and(|r| r.starts_with("commander killed"))
            })
            .is_none()
        {
            assert!(
                integrity.is_empty(),
                "seed {seed}: no death, no integrity roll"
            );
            assert!(!noted(
                &played,
                "red's supreme commander is dead: every unit rolls for integrity"
            ));
            continue;
        }
        assert!(noted(
            &played,
            "red's supreme commander is dead: every unit rolls for integrity"
        ));
        let q = integrity
            .iter()
            .find(|r| r["purpose"] == "integrity of q (supreme commander killed)")
            .expect("q's roll");
        let placed = played
            .find("placed", "q", |_| true)
            .map(|i| &played.events[i]);
        if q["outcome"]
            .as_str()
            .is_some_and(|o| o.contains("withdraw"))
        {
            let placed = placed.expect("q withdraws");
            assert_eq!(placed["to"], serde_json::json!({ "col": 7, "row": 6 }));
            assert_eq!(
                placed["reason"],
                "withdrew two turns' distance (supreme commander killed)"
            );
            went = true;
        } else {
            assert!(placed.is_none(), "seed {seed}: q holds");
            stayed = true;
        }
        if went && stayed {
            return;
        }
    }
    panic!("300 seeds: withdrew {went}, held {stayed}");
}

// --- Reinforcements ----------------------------------------------------------------------

/// 004 8: a unit with a commander attached rallies at the end of its side's turn: routed
/// status and TE hits go, and one hit.
#[test]
fn rally_with_a_commander() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: W, counters: { hits: 2, te: 1 }, flags: [routed] }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b }\n  - { id: n, side: blue, type: infantry, at: [3, 6], facing: E, counters: { hits: 1 } }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let mut o = ends("blue", 1); // arrivals
    o.extend(ends("blue", 1)); // command; movement begins: b routs on first
    o.extend(ends("blue", 1));
    o.extend(ends("red", 1));
    o.extend(ends("blue", 2)); // fire, melee → rally begins
    // Only the unit with the commander rallies: b loses a hit, n (alone) keeps its own.
    let played = f.json(&o, &[]);
    assert_placed(&played, "b", (3, 4), (0, 4), "routed");
    let rally = played.in_phase(1, "rally", "blue");
    let b = played.piece("b");
    let routed_off = |e: &&Value| e["piece"] == b && e["flag"] == "routed" && e["on"] == false;
    assert!(rally.iter().any(|e| routed_off(&e)), "{rally:?}");
    assert_counted(&played, "b", "te", 1, 0);
    assert_counted(&played, "b", "hits", 2, 1);
    let hit_off = |name: &str| {
        played.find("counter_changed", name, |e| {
            e["counter"] == "hits" && e["to"].as_i64() < e["from"].as_i64()
        })
    };
    assert!(hit_off("b").is_some(), "{:?}", played.events);
    assert_eq!(hit_off("n"), None);
    let all = f.json(&o, &["--option", "rally_all_hits=on"]);
    assert_counted(&all, "b", "hits", 2, 0);
}

/// Sequence of play, rally (optional): a routed unit that rallies takes one TE hit; 8c: a
/// unit valuable enough (attribute `self_rally`) removes one hit without a commander.
#[test]
fn rally_variants() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: W, counters: { hits: 2, te: 1 }, flags: [routed] }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b }\n  - { id: n, side: blue, type: infantry, at: [3, 6], facing: E, counters: { hits: 1 }, attributes: { self_rally: 1 } }\n  - { id: m, side: blue, type: infantry, at: [6, 6], facing: E, counters: { hits: 1 } }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let mut o = ends("blue", 3);
    o.extend(ends("red", 1));
    o.extend(ends("blue", 2));
    let played = f.json(&o, &[]);
    assert_counted(&played, "n", "hits", 1, 0);
    assert!(
        noted(&played, "n rallies on its own"),
        "{:?}",
        played.events
    );
    let hits_of = |name: &str| played.find("counter_changed", name, |e| e["counter"] == "hits");
    assert!(hits_of("n").is_some(), "{:?}", played.events);
    assert_eq!(hits_of("m"), None);
    assert_eq!(last_value(&played, "b", "te"), Some(0));
    let te = f.json(&o, &["--option", "rally_costs_te=on"]);
    assert_counted(&te, "b", "te", 1, 0);
    assert_counted(&te, "b", "te", 0, 1);
    assert_eq!(last_value(&te, "b", "te"), Some(1));
}

/// 004 6 and 5.3: commanders attach at the start of the turn, one per unit, never to a
/// routed unit; a unit that routs loses its commander, captured.
#[test]
fn attaching_commanders() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: c, side: blue, type: infantry, at: [3, 6], facing: E }\n  - { id: u, side: blue, type: infantry, at: [5, 6], facing: E, flags: [routed] }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b }\n  - { id: h, side: blue, type: commander, at: [3, 6], attached_to: c }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let attach = |who: &str, to: &str| {
        order(
            "blue",
            &format!("act: {{ piece: {who}, action: attach, target: {to} }}"),
        )
    };
    refused(
        &f,
        &with(ends("blue", 1), &[attach("g", "c")]),
        "c already has a commander (h)",
    );
    refused(
        &f,
        &with(ends("blue", 1), &[attach("g", "u")]),
        "a commander joins a routed unit only in the rally phase, at the end of a turn",
    );
    let free = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: c, side: blue, type: infantry, at: [3, 6], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", free, "");
    let played = f.json(&with(ends("blue", 1), &[attach("g", "c")]), &[]);
    assert_attached(&played, "g", Some("c"));
}

/// 004 2.2.1/2.2.2: order changes up to the Initiative value; a failure rolls on the
/// decision-failure table.
#[test]
fn order_changes_limited_by_initiative() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b, counters: { cvs_i: 1, cvs_t: 9 } }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let change = order("blue", "act: { piece: g, action: change_orders }");
    let played = f.json(&with(ends("blue", 1), std::slice::from_ref(&change)), &[]);
    assert_counted(&played, "g", "order_changes", 0, 1);
    let test = &rolls_of(&played, "cvs_test")[..];
    assert_eq!(test.len(), 1, "{test:?}");
    assert_eq!(test[0]["dice"][0]["die"], "d10", "{test:?}");
    // Tactical 9: only a 10 passes; otherwise the decision-failure table is rolled.
    let failures = rolls_of(&played, "decision_failure");
    assert_eq!(
        failures.len(),
        usize::from(test[0]["outcome"] == "fail"),
        "{test:?}"
    );
    // Second attempt in a later turn is over the limit of 1.
    let mut o = with(ends("blue", 1), std::slice::from_ref(&change));
    o.extend(whole_turn().split_off(1));
    o.extend(ends("blue", 1)); // turn 2: arrivals
    o.push(change);
    refused(&f, &o, "g has used all 1 order changes");
}

/// 004 Rules by sequence 2: past the break point every unit rolls; red withdraws 3 hexes
/// to the rear.
#[test]
fn army_integrity_withdraws_on_red() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [5, 4], facing: E }\n  - { id: d, side: blue, type: infantry, at: [5, 6], facing: E, flags: [routed] }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    // One unit of two routed: 50% lost, at the break point of 50.
    let f = field(None, "", pieces, "settings: { break_point: 50 }");
    let orders = ends("blue", 1);
    let refs: Vec<&str> = orders.iter().map(String::as_str).collect();
    let (mut held, mut withdrew) = (false, false);
    for seed in 0..100 {
        let seed = seed.to_string();
        let played = f.json(&refs, &["--seed", &seed]);
        assert!(noted(&played, "blue has lost 50%: integrity check"));
        let b = rolls_of(&played, "integrity")
            .into_iter()
            .find(|r| r["purpose"] == "integrity of b")
            .expect("b's roll");
        let placed = played
            .find("placed", "b", |_| true)
            .map(|i| &played.events[i]);
        if b["outcome"] == "withdraw" {
            let placed = placed.expect("b withdraws");
            assert_eq!(placed["from"], serde_json::json!({ "col": 5, "row": 4 }));
            assert_eq!(placed["to"], serde_json::json!({ "col": 2, "row": 4 }));
            assert_eq!(placed["reason"], "withdrew (army integrity)");
            withdrew = true;
        } else {
            assert_eq!(b["outcome"], "hold");
            assert!(placed.is_none(), "seed {seed}: b holds");
            held = true;
        }
        if held && withdrew {
            break;
        }
    }
    assert!(held && withdrew);
    let safe = field(None, "", pieces, "settings: { break_point: 51 }");
    // Under the break point nobody rolls: the same orders, at 50, roll for both units.
    let integrity = |p: &crate::util::Played| {
        p.events
            .iter()
            .filter(|e| e["roll"]["chart"] == "integrity")
            .count()
    };
    assert!(integrity(&f.json(&orders, &[])) > 0);
    assert_eq!(integrity(&safe.json(&orders, &[])), 0);
}

/// 004 2.2.3: random CVS traits from the table at the start of the game.
#[test]
fn random_cvs_rolls_each_commander() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "options: { random_cvs: true }");
    // The note comes in Blue's first command phase (l.313: told to its own side only).
    let played = f.json(&ends("blue", 1), &[]);
    let purposes: Vec<&Value> = (played.events.iter())
        .map(|e| &e["roll"]["purpose"])
        .collect();
    assert!(
        purposes.contains(&&"grade of g".into()),
        "{:?}",
        played.events
    );
    assert!(
        purposes.contains(&&"CVS of g".into()),
        "{:?}",
        played.events
    );
    // prose: the note tells the side what its commander turned out to be.
    let told = (played.events.iter()).filter_map(|e| e["text"].as_str());
    assert!(
        told.clone().any(|t| t.starts_with("g is ")),
        "{:?}",
        played.events
    );
}

/// The rolls of `chart` in the events, as recorded.
fn rolls_of(played: &crate::util::Played, chart: &str) -> Vec<serde_json::Value> {
    played
        .events
        .iter()
        .filter(|e| e["roll"]["chart"] == chart)
        .map(|e| e["roll"].clone())
        .collect()
}

/// Whether a note of the events reads `text`.
fn noted(played: &crate::util::Played, text: &str) -> bool {
    played
        .events
        .iter()
        .any(|e| e["event"] == "note" && e["text"] == text)
}
