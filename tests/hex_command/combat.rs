//! Hex Command fire and its results (7): melee up a hill, skirmishers firing into melee,
//! heavy artillery, no pursuit of cavalry, automatic hits and routs, routing through friends,
//! destruction, target rules, fire modifiers in play, artillery bands, commanders killed.

use super::*;

/// 004 5c: a unit that reaches the foot of a hill with no movement left cannot melee the
/// enemy on the hill above; with a point left it can.
#[test]
fn no_melee_up_a_hill_without_movement_left() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . h . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let pieces = "  - { id: b, side: blue, type: infantry, at: [1, 4], facing: E }\n  - { id: c, side: blue, type: infantry, at: [3, 6], facing: NE }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: W }\n";
    let f = field(Some(map), "", pieces, "");
    let to_melee = |mv: &str, by: &str| {
        let mut o = with(to_blue_movement(), &[order("blue", mv)]);
        o.extend(ends("blue", 1));
        o.extend(ends("red", 1));
        o.extend(ends("blue", 1));
        o.push(melee(by, "r"));
        o
    };
    refused(
        &f,
        &to_melee("move: { piece: b, path: [[2, 4], [3, 4], [4, 4]] }", "b"),
        "b has no movement left at the foot of the hill and cannot melee r above it",
    );
    // c reaches (4,5) in two hexes, with one point left.
    let played = f.json(
        &to_melee("move: { piece: c, path: [[3, 5], [4, 5]] }", "c"),
        &[],
    );
    assert_eq!(roll_on(&played, "melee")["by"], played.piece("c"));
}

/// 004 charts page (melee): skirmishers may fire at a unit in melee only at point blank and
/// in the first melee round, and their hits are TE hits; other units never fire into a
/// melee.
#[test]
fn skirmishers_fire_into_melee() {
    let pieces = "  - { id: s, side: blue, type: skirmishers, at: [3, 4], facing: E }\n  - { id: b, side: blue, type: infantry, at: [3, 6], facing: NE }\n  - { id: k, side: blue, type: skirmishers, at: [2, 3], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, counters: { melee_rounds: 1 }, flags: [in_melee] }\n";
    let f = field(None, "", pieces, "");
    let played = f.json(&with(to_blue_fire(), &[fire("s", "r")]), &[]);
    assert!(
        played
            .find("counter_changed", "r", |e| e["counter"] == "te"
                && e["to"] == 1)
            .is_some()
    );
    assert!(
        !counter_changed(&played, "r", "hits"),
        "a skirmisher's hit is a TE hit"
    );
    refused(
        &f,
        &with(to_blue_fire(), &[fire("b", "r")]),
        "no firing into a melee (r is in melee)",
    );
    refused(
        &f,
        &with(to_blue_fire(), &[fire("k", "r")]),
        "k may fire into a melee only at point blank and before its second round",
    );
    let later = pieces.replace("melee_rounds: 1", "melee_rounds: 2");
    refused(
        &field(None, "", &later, ""),
        &with(to_blue_fire(), &[fire("s", "r")]),
        "s may fire into a melee only at point blank",
    );
}

/// 004 hand-out and 3 (artillery): heavy artillery does double damage and cannot move and
/// fire in the same turn (a heavy gun that fired stays put).
#[test]
fn heavy_artillery_hits_twice_and_moves_or_fires() {
    let pieces = "  - { id: h, side: blue, type: artillery, at: [2, 4], facing: E, mode: unlimbered, attributes: { heavy: 1 } }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n  - { id: q, side: red, type: artillery, at: [6, 6], facing: W, mode: unlimbered, attributes: { heavy: 1 } }\n  - { id: t, side: blue, type: infantry, at: [4, 6], facing: E }\n";
    let f = field(None, "", pieces, "");
    let played = f.json(&with(to_blue_fire(), &[fire("h", "r")]), &[]);
    assert_counted(&played, "r", "hits", 0, 2);
    let mut o = with(
        to_blue_movement(),
        &[order("blue", "move: { piece: h, path: [[3, 4]] }")],
    );
    o.extend(ends("blue", 1));
    o.extend(ends("red", 1));
    o.push(fire("h", "r"));
    refused(
        &f,
        &o,
        "h is heavy artillery and has moved this turn: it cannot fire",
    );
    // Red's heavy gun fires in Blue's turn, then cannot move in its own.
    let mut o = ends("blue", 3);
    o.push(order("red", "act: { piece: q, action: fire, target: t }"));
    o.extend(ends("red", 1));
    o.extend(ends("blue", 3));
    o.extend(ends("red", 1));
    o.push(order("red", "move: { piece: q, path: [[5, 6]] }"));
    refused(&f, &o, "q cannot move: it is emplaced");
}

/// 004 charts page (pursuit): cavalry are not pursued after melee by infantry; an infantry
/// winner does advance into the hex of routed infantry.
#[test]
fn infantry_do_not_pursue_cavalry() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b, counters: { cvs_c: 2 } }\n  - { id: c, side: red, type: cavalry, at: [4, 4], facing: W, counters: { hits: 2 } }\n";
    let f = field(None, "", pieces, "");
    over_seeds_json(
        &f,
        &with(to_blue_melee(), &[melee("b", "c")]),
        &["defender hit"],
        |outcome, played| {
            if outcome == "defender hit" {
                assert!(played.flag("c", "routed", true).is_some());
                assert!(!placed_for(played, "b", "advanced after melee"));
            }
        },
    );
    let foot = pieces.replace("type: cavalry", "type: infantry");
    over_seeds_json(
        &field(None, "", &foot, ""),
        &with(to_blue_melee(), &[melee("b", "c")]),
        &["defender hit"],
        |outcome, played| {
            if outcome == "defender hit" {
                assert_placed(played, "b", (3, 4), (4, 4), "advanced after melee");
            }
        },
    );
}

/// 004 Firing: a neighbouring target in the front arc is an automatic hit; the third hit
/// routs: the unit turns about and moves 3 hexes directly away.
#[test]
fn automatic_hit_and_the_third_hit_routs() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [5, 4], facing: W }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: E, counters: { hits: 2 } }\n";
    let f = field(None, "", pieces, "");
    let played = f.json(&with(to_blue_fire(), &[fire("b", "r")]), &[]);
    let roll = roll_on(&played, "fire_small_b");
    assert_eq!(
        (&roll["band"], &roll["outcome"]),
        (&"automatic".into(), &"hit".into())
    );
    assert_eq!(
        roll["dice"],
        serde_json::json!([]),
        "no die for an automatic hit"
    );
    assert_counted(&played, "r", "hits", 2, 3);
    assert_flag(&played, "r", "routed", true);
    assert!(played.has("faced", "r", |e| e["facing"] == "W"));
    assert_placed(&played, "r", (4, 4), (1, 4), "routed");
}

/// 004 7.5: cavalry and artillery rout 4 hexes; a routed unit keeps routing each movement
/// phase until rallied, and leaves the field at the edge.
#[test]
fn cavalry_rout_four_and_keep_routing() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [6, 4], facing: W }\n  - { id: c, side: red, type: cavalry, at: [5, 4], facing: E, counters: { hits: 2 } }\n";
    let f = field(None, "", pieces, "");
    let mut o = with(to_blue_fire(), &[fire("b", "c")]);
    o.extend(ends("blue", 3)); // fire, melee, rally
    o.extend(ends("red", 1)); // command: Red's movement phase begins, the rout goes on
    let played = f.json(&o, &[]);
    let fire_phase = played.in_phase(1, "fire", "blue");
    let c = played.piece("c");
    let placed = serde_json::json!({"event": "placed", "piece": c, "from": {"col": 5, "row": 4}, "to": {"col": 1, "row": 4}, "reason": "routed"});
    assert!(fire_phase.contains(&placed), "{fire_phase:?}");
    // From (1,4) west: the board ends after one hex.
    let removed =
        serde_json::json!({"event": "removed", "piece": c, "reason": "routed: left the field"});
    let movement = played.in_phase(1, "movement", "red");
    assert!(movement.contains(&removed), "{movement:?}");
}

/// 004 7.5/7.5.1: routing through one friend into an empty hex beyond gives the friend a
/// TE hit; with no room beyond, or into an enemy zone of control, the router is destroyed.
#[test]
fn routing_through_friends_and_into_zones() {
    let base = "  - { id: b, side: blue, type: infantry, at: [6, 4], facing: W }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: E, counters: { hits: 2 } }\n  - { id: f, side: red, type: infantry, at: [4, 4], facing: E }\n";
    let f = field(None, "", base, "");
    let played = f.json(&with(to_blue_fire(), &[fire("b", "r")]), &[]);
    assert_counted(&played, "f", "te", 0, 1);
    assert_placed(&played, "r", (5, 4), (2, 4), "routed");
    let crowded =
        format!("{base}  - {{ id: g, side: red, type: infantry, at: [3, 4], facing: E }}\n");
    let f = field(None, "", &crowded, "");
    let played = f.json(&with(to_blue_fire(), &[fire("b", "r")]), &[]);
    assert_removed(&played, "r", "routed: no room behind f; destroyed");
    let zoc = "  - { id: b, side: blue, type: infantry, at: [6, 4], facing: W }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: E, counters: { hits: 2 } }\n  - { id: z, side: blue, type: infantry, at: [4, 5], facing: NW }\n";
    let f = field(None, "", zoc, "");
    let played = f.json(&with(to_blue_fire(), &[fire("b", "r")]), &[]);
    assert_removed(
        &played,
        "r",
        "routed: fell back into an enemy zone of control and was destroyed",
    );
}

/// 004 7o: a routed unit that is hit again is destroyed; 7m rare units take four hits.
#[test]
fn routed_units_hit_again_are_destroyed_and_rare_units_hold_at_three() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [5, 4], facing: W }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, counters: { hits: 3 }, flags: [routed] }\n";
    let f = field(None, "", pieces, "");
    let played = f.json(&with(to_blue_fire(), &[fire("b", "r")]), &[]);
    assert_removed(&played, "r", "a routed unit was hit again: destroyed");
    let rare = "  - { id: b, side: blue, type: infantry, at: [5, 4], facing: W }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: E, counters: { hits: 2 }, attributes: { rare: 1 } }\n";
    let f = field(None, "", rare, "");
    let played = f.json(&with(to_blue_fire(), &[fire("b", "r")]), &[]);
    assert!(
        played
            .find("counter_changed", "r", |e| e["counter"] == "hits"
                && e["to"] == 3)
            .is_some()
    );
    assert_eq!(
        played.flag("r", "routed", true),
        None,
        "a rare unit holds at three"
    );
}

/// 004 7e-g: primary arc only (point-blank out of arc at 1 CP), closest target first, no
/// firing into melee; 7.1a at most two units of one arm on a target.
#[test]
fn target_rules() {
    // Out of arc at point blank: r is on b's flank, one hex away: one CP.
    let flank = "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [3, 5], facing: E }\n";
    let f = field(None, "", flank, "");
    let played = f.json(&with(to_blue_fire(), &[fire("b", "r")]), &[]);
    let roll = roll_on(&played, "fire_small_b");
    assert_eq!(
        modifiers(roll),
        [("out of arc at point blank".to_owned(), 1)]
    );
    assert_eq!(roll["band"], "Color");
    let rear = "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [3, 4], facing: E }\n";
    refused(
        &field(None, "", rear, ""),
        &with(to_blue_fire(), &[fire("b", "r")]),
        "r is not in b's front arc",
    );
    // Closest target first.
    let two = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: n, side: red, type: infantry, at: [3, 4], facing: W }\n  - { id: far, side: red, type: infantry, at: [4, 6], facing: W }\n";
    refused(
        &field(None, "", two, ""),
        &with(to_blue_fire(), &[fire("b", "far")]),
        "n is nearer and must be the target",
    );
    // 7f with 7h: a nearer enemy the firer cannot see (a forest between) does not count.
    let wood = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . F . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let hidden = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: n, side: red, type: infantry, at: [4, 4], facing: W }\n  - { id: far, side: red, type: infantry, at: [4, 6], facing: W }\n";
    let played =
        field(Some(wood), "", hidden, "").json(&with(to_blue_fire(), &[fire("b", "far")]), &[]);
    assert_eq!(
        roll_on(&played, "fire_small_b")["against"],
        played.piece("far")
    );
    let open = hidden.replace("at: [4, 4]", "at: [3, 4]");
    refused(
        &field(Some(wood), "", &open, ""),
        &with(to_blue_fire(), &[fire("b", "far")]),
        "n is nearer and must be the target",
    );
    // No firing into melee.
    let melee = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, flags: [in_melee] }\n";
    refused(
        &field(None, "", melee, ""),
        &with(to_blue_fire(), &[fire("b", "r")]),
        "no firing into a melee",
    );
    // Ganging up: a third unit of the same arm may not fire at the same target.
    let gang = "  - { id: b1, side: blue, type: infantry, at: [5, 5], facing: NE }\n  - { id: b2, side: blue, type: infantry, at: [4, 5], facing: NE }\n  - { id: b3, side: blue, type: infantry, at: [6, 5], facing: NW }\n  - { id: r, side: red, type: infantry, at: [5, 3], facing: SW }\n";
    let f = field(None, "", gang, "");
    refused(
        &f,
        &with(
            to_blue_fire(),
            &[fire("b1", "r"), fire("b2", "r"), fire("b3", "r")],
        ),
        "two small-arms units have already fired at r this phase",
    );
}

/// 004 Modifiers: target in cover 1 CP, target's flank 1 CB, commander's C as CB, each hit
/// on the firer 1 CP.
#[test]
fn fire_modifiers_in_play() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . F . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E, counters: { hits: 1 } }\n  - { id: g, side: blue, type: commander, at: [2, 4], attached_to: b, counters: { cvs_c: 2 } }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: NE }\n";
    let f = field(Some(map), "", pieces, "");
    let played = f.json(&with(to_blue_fire(), &[fire("b", "r")]), &[]);
    // Bonuses are capped at 2 CB (l.216): with the flank's one, one point of the C2
    // commander's is all that counts, and only it is shown (l.313; the twentieth round: a
    // `-2 commander, +1 cap on bonuses` line told the enemy C=2).
    let named = |n: &str, v: i64| (n.to_owned(), v);
    assert_eq!(
        modifiers(roll_on(&played, "fire_small_b")),
        [
            named("hits on the firer", 1),
            named("target in cover", 1),
            named("target's flank or rear", -1),
            named("commander", -1),
        ]
    );
}

/// 004 3: guns fire only unlimbered, two hexes a band (smoothbore automatic at 2, Color at
/// 3); rifled guns have no automatic band; mounted infantry cannot fire mounted.
#[test]
fn artillery_bands_and_who_may_fire() {
    let pieces = "  - { id: g, side: blue, type: artillery, at: [2, 4], facing: E, mode: unlimbered }\n  - { id: l, side: blue, type: artillery, at: [2, 6], facing: E, mode: limbered }\n  - { id: a, side: blue, type: artillery, at: [2, 2], facing: E, mode: unlimbered, attributes: { class: 1 } }\n  - { id: m, side: blue, type: mounted_infantry, at: [2, 0], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n  - { id: s, side: red, type: infantry, at: [5, 6], facing: W }\n  - { id: q, side: red, type: infantry, at: [4, 2], facing: W }\n  - { id: t, side: red, type: infantry, at: [3, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let played = f.json(&with(to_blue_fire(), &[fire("g", "r")]), &[]);
    let roll = roll_on(&played, "fire_artillery_b");
    assert_eq!(
        (&roll["band"], &roll["dice"]),
        (&"automatic".into(), &serde_json::json!([]))
    );
    let played = f.json(&with(to_blue_fire(), &[fire("a", "q")]), &[]);
    let roll = roll_on(&played, "fire_artillery_a");
    assert_eq!(roll["band"], "Color");
    assert_eq!(
        roll["dice"].as_array().map(Vec::len),
        Some(1),
        "one cube: {roll}"
    );
    refused(
        &f,
        &with(to_blue_fire(), &[fire("l", "s")]),
        "l must unlimber to fire",
    );
    refused(
        &f,
        &with(to_blue_fire(), &[fire("m", "t")]),
        "m cannot fire while mounted",
    );
}

/// 004 2e/2g: a commander attached to a unit hit on a red star is killed instead, and the
/// unit takes no hit; on any other face the unit takes the hit.
#[test]
fn commander_killed_on_a_red_star() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n  - { id: v, side: red, type: commander, at: [4, 4], attached_to: r }\n";
    let f = field(None, "", pieces, "");
    let orders = with(to_blue_fire(), &[fire("b", "r")]);
    let refs: Vec<&str> = orders.iter().map(String::as_str).collect();
    let (mut star, mut plain) = (false, false);
    for seed in 0..200 {
        let seed = seed.to_string();
        let played = f.json(&refs, &["--seed", &seed]);
        let face = played
            .events
            .iter()
            .find(|e| {
                e["roll"]["chart"]
                    .as_str()
                    .is_some_and(|c| c.starts_with("fire_"))
            })
            .and_then(|e| e["roll"]["dice"][0]["face"].as_str().map(str::to_owned))
            .unwrap_or_default();
        let hit = counter_changed(&played, "r", "hits");
        if face == "red star" {
            assert!(
                played
                    .find("removed", "v", |e| e["reason"]
                        == "commander killed by a red-star hit; the unit takes no hit")
                    .is_some()
            );
            assert!(!hit, "seed {seed}: the unit takes no hit");
            star = true;
        } else if face == "red" {
            assert!(hit && !was_removed(&played, "v"), "seed {seed}");
            plain = true;
        }
        if star && plain {
            return;
        }
    }
    panic!("200 seeds gave no red star and red hit (star {star}, plain {plain})");
}

// --- Melee ------------------------------------------------------------------------------
