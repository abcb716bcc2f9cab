//! Hex Command (seed 004), issue 7: the fire line's geometry (dead zones, partial
//! obstruction, firing over friends, howitzers), crews apart from their guns, facing changes
//! after melee and overlapping a blocking force. Each test plays a small field through the
//! binary and checks its `--json` events.

use serde_json::json;

use super::field::{
    Field, assert_arrived, assert_counted, assert_flag, assert_mode, assert_placed, assert_removed,
    ends, has, in_band, lacks, modified, order, roll_on, rolled,
};
use super::{seed_showing, was_removed};
use crate::util::Played;

const RULESET: &str = "rulesets/hex-command.yaml";

/// A 10×8 field; `map` rows override the all-clear board, `features` and `pieces` are YAML
/// list entries.
fn field(map: Option<&str>, features: &str, pieces: &str) -> Field {
    super::field::field(map, features, pieces, "", 3)
}

fn act(side: &str, by: &str, action: &str, at: &str) -> String {
    order(
        side,
        &format!("act: {{ piece: {by}, action: {action}, target: {at} }}"),
    )
}

/// Orders up to Blue's fire phase (arrivals, command, movement; Red's defensive fire),
/// then `more`.
fn at_blue_fire(more: &[String]) -> Vec<String> {
    let mut o = ends("blue", 3);
    o.extend(ends("red", 1));
    o.extend_from_slice(more);
    o
}

/// Orders up to Blue's melee phase, then `more`.
fn at_blue_melee(more: &[String]) -> Vec<String> {
    let mut o = ends("blue", 3);
    o.extend(ends("red", 1));
    o.extend(ends("blue", 1));
    o.extend_from_slice(more);
    o
}

/// Orders up to Red's movement phase, then `more`.
fn at_red_movement(more: &[String]) -> Vec<String> {
    let mut o = ends("blue", 3);
    o.extend(ends("red", 1));
    o.extend(ends("blue", 3));
    o.extend(ends("red", 1));
    o.extend_from_slice(more);
    o
}

/// A map with the given cells (col, row) as `c`, the rest clear.
fn map_with(cells: &[(usize, usize, char)]) -> String {
    let mut rows = vec![vec!['.'; 10]; 8];
    for &(c, r, t) in cells {
        rows[r][c] = t;
    }
    rows.iter()
        .map(|r| {
            let cells: Vec<String> = r.iter().map(char::to_string).collect();
            cells.join(" ") + "\n"
        })
        .collect()
}

// In row 4 (even) the line between two hexes runs through the centres of the hexes
// between them, one hex a step.

/// 004 reference "Dead Zone" and 7j: behind an obstacle the fire passes over (here a wall)
/// a zone of half the firer's distance to it cannot be hit; beyond it the wall still
/// partly obstructs the line (7i: 1 CP); a wall on the firer's own hex side does neither.
#[test]
fn dead_zone_behind_a_wall() {
    let wall = "    - { feature: wall, between: [[[3, 4], [4, 4]]] }\n";
    // The wall is 1.5 hexes from b: its dead zone reaches 0.75 hexes beyond, over (4,4).
    let near = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n";
    field(None, wall, near).refused(
        &at_blue_fire(&[act("blue", "b", "fire", "r")]),
        &[],
        "r is in the dead zone behind what b fires over",
    );
    // Optional rule `low_walls`: the wall only partly obstructs.
    let p = field(None, wall, near).json(
        &at_blue_fire(&[act("blue", "b", "fire", "r")]),
        &["--option", "low_walls=on"],
    );
    assert!(modified(&p, "partly obstructed", 1), "{:?}", p.events);
    // Without the wall the same shot is an ordinary one.
    let p = field(None, "", near).json(&at_blue_fire(&[act("blue", "b", "fire", "r")]), &[]);
    assert!(rolled(&p, "fire_small_b by b at r"), "{:?}", p.events);
    clear_shot(
        &field(None, "", near).json(&at_blue_fire(&[act("blue", "b", "fire", "r")]), &[]),
        "fire_small_b",
    );
    // Three hexes away the target is past the dead zone, but the wall costs 1 CP.
    let far = near.replace("at: [4, 4]", "at: [5, 4]");
    let p = field(None, wall, &far).json(&at_blue_fire(&[act("blue", "b", "fire", "r")]), &[]);
    assert!(rolled(&p, "fire_small_b by b at r"), "{:?}", p.events);
    assert!(modified(&p, "partly obstructed", 1), "{:?}", p.events);
    // The same on the events: the name `clear_shot` looks for is the one the chart gives.
    let played = field(None, wall, &far).json(&at_blue_fire(&[act("blue", "b", "fire", "r")]), &[]);
    assert!(
        played.events.iter().any(|e| e["roll"]["modifiers"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|m| m["name"] == "partly obstructed" && m["value"] == 1)),
        "{:?}",
        played.events
    );
    // A unit at the wall fires over it freely.
    let at_wall = near
        .replace("at: [2, 4]", "at: [3, 4]")
        .replace("at: [4, 4]", "at: [5, 4]");
    let p = field(None, wall, &at_wall).json(&at_blue_fire(&[act("blue", "b", "fire", "r")]), &[]);
    assert!(rolled(&p, "fire_small_b by b at r"), "{:?}", p.events);
    clear_shot(
        &field(None, wall, &at_wall).json(&at_blue_fire(&[act("blue", "b", "fire", "r")]), &[]),
        "fire_small_b",
    );
}

/// 004 7p: guns on higher ground fire over friends more than one hex in front of them, not
/// at a target next to a friend, and not into the dead zone behind the friend; other arms
/// do not fire over friends (optional rule `over_heads_any_arm`: any arm on higher ground).
#[test]
fn firing_over_friends_from_higher_ground() {
    let hill = map_with(&[(1, 4, 'h'), (1, 2, 'h')]);
    let flat = map_with(&[]);
    let base = "  - { id: g, side: blue, type: artillery, at: [1, 4], facing: E, mode: unlimbered }\n  - { id: f, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [6, 4], facing: W }\n";
    let fire = at_blue_fire(&[act("blue", "g", "fire", "r")]);
    let p = field(Some(&hill), "", base).json(&fire, &[]);
    assert!(rolled(&p, "fire_artillery_b by g at r"), "{:?}", p.events);
    // On level ground the friend blocks the line.
    field(Some(&flat), "", base).refused(
        &fire,
        &[],
        "g cannot fire over f: it is not on higher ground",
    );
    // One hex back is not enough for guns.
    let close = base.replace("at: [3, 4], facing: E", "at: [2, 4], facing: E");
    field(Some(&hill), "", &close).refused(
        &fire,
        &[],
        "guns fire over friends only from more than one hex back",
    );
    // Not at a target next to a friendly unit.
    let touching =
        format!("{base}  - {{ id: n, side: blue, type: infantry, at: [6, 5], facing: NE }}\n");
    field(Some(&hill), "", &touching).refused(
        &fire,
        &[],
        "g cannot fire over friends at r, which is next to a friendly unit",
    );
    // The dead zone behind a friend four hexes out reaches two hexes beyond it: (7,4) is
    // in it, (8,4) is not.
    let deep = base
        .replace("at: [3, 4], facing: E", "at: [5, 4], facing: E")
        .replace("at: [6, 4]", "at: [7, 4]");
    field(Some(&hill), "", &deep).refused(
        &fire,
        &[],
        "r is in the dead zone behind what g fires over",
    );
    let beyond = deep.replace("at: [7, 4]", "at: [8, 4]");
    let p = field(Some(&hill), "", &beyond).json(&fire, &[]);
    assert!(rolled(&p, "fire_artillery_b by g at r"), "{:?}", p.events);
    // Infantry on the hill do not fire over friends, unless the optional rule says so.
    let foot = "  - { id: i, side: blue, type: infantry, at: [1, 2], facing: E }\n  - { id: f, side: blue, type: infantry, at: [2, 2], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 2], facing: W }\n";
    let fire_i = at_blue_fire(&[act("blue", "i", "fire", "r")]);
    field(Some(&hill), "", foot).refused(
        &fire_i,
        &[],
        "i cannot fire over f: only artillery fires over friends' heads",
    );
    let p = field(Some(&hill), "", foot).json(&fire_i, &["--option", "over_heads_any_arm=on"]);
    assert!(rolled(&p, "fire_small_b by i at r"), "{:?}", p.events);
}

/// 004 7i: obstacles partly blocking the view cost 1 CP — a line grazing a forest hex on
/// one side (both sides: blocked, 7h) and a rise higher than both firer and target.
#[test]
fn partial_obstruction_from_the_board() {
    // Due south from (1,0) to (1,2) the line runs along the edge of (0,1) and (1,1).
    let pieces = "  - { id: b, side: blue, type: infantry, at: [1, 0], facing: SE }\n  - { id: r, side: red, type: infantry, at: [1, 2], facing: NW }\n";
    let fire = at_blue_fire(&[act("blue", "b", "fire", "r")]);
    clear_shot(
        &field(Some(&map_with(&[])), "", pieces).json(&fire, &[]),
        "fire_small_b",
    );
    let p = field(Some(&map_with(&[(0, 1, 'F')])), "", pieces).json(&fire, &[]);
    assert!(modified(&p, "partly obstructed", 1), "{:?}", p.events);
    field(Some(&map_with(&[(0, 1, 'F'), (1, 1, 'B')])), "", pieces).refused(
        &fire,
        &[],
        "b cannot see r: the line is blocked",
    );
    // A unit on one side of the edge grazes the line too.
    let grazed =
        format!("{pieces}  - {{ id: x, side: blue, type: infantry, at: [0, 1], facing: E }}\n");
    let p = field(Some(&map_with(&[])), "", &grazed).json(&fire, &[]);
    assert!(modified(&p, "partly obstructed", 1), "{:?}", p.events);
    // A hill between two units on level ground.
    let row = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: W }\n";
    let p = field(Some(&map_with(&[(4, 4, 'h')])), "", row).json(&fire, &[]);
    assert!(modified(&p, "partly obstructed", 1), "{:?}", p.events);
    // An enemy in between blocks the line.
    let screened =
        format!("{row}  - {{ id: s, side: red, type: infantry, at: [3, 4], facing: W }}\n");
    field(Some(&map_with(&[])), "", &screened).refused(
        &fire,
        &[],
        "b cannot see r: s stands in the way",
    );
}

/// 004 firing diagram 2: a target at the foot of the slope below a firer on the hill cannot
/// be hit unless the firer is next to it.
#[test]
fn dead_ground_below_a_slope() {
    let hill = map_with(&[(2, 4, 'h'), (3, 4, 'h')]);
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n";
    let fire = at_blue_fire(&[act("blue", "b", "fire", "r")]);
    field(Some(&hill), "", pieces).refused(
        &fire,
        &[],
        "r is in dead ground below the rise; b must be next to it",
    );
    let next = pieces.replace("at: [2, 4]", "at: [3, 4]");
    let p = field(Some(&hill), "", &next).json(&fire, &[]);
    assert!(rolled(&p, "fire_small_b by b at r"), "{:?}", p.events);
    // Farther out on the plain the target is in view again.
    let plain = map_with(&[(2, 4, 'h')]);
    let p = field(Some(&plain), "", pieces).json(&fire, &[]);
    assert!(rolled(&p, "fire_small_b by b at r"), "{:?}", p.events);
}

/// 004 reference "Classes": howitzers and mortars fire over walls at targets behind them
/// (other guns need a clear line: the wall's dead zone stops them), and over friends.
#[test]
fn howitzers_fire_over_walls_and_friends() {
    let wall = "    - { feature: wall, between: [[[3, 4], [4, 4]]] }\n";
    let guns = "  - { id: g, side: blue, type: artillery, at: [1, 4], facing: E, mode: unlimbered }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n";
    let fire = at_blue_fire(&[act("blue", "g", "fire", "r")]);
    field(None, wall, guns).refused(&fire, &[], "r is in the dead zone behind what g fires over");
    let howitzer = guns.replace(
        "mode: unlimbered",
        "mode: unlimbered, attributes: { howitzer: 1 }",
    );
    let p = field(None, wall, &howitzer).json(&fire, &[]);
    assert!(rolled(&p, "fire_artillery_b by g at r"), "{:?}", p.events);
    clear_shot(
        &field(None, wall, &howitzer).json(&fire, &[]),
        "fire_artillery_b",
    );
    // Over a friend on level ground: howitzers only.
    let over = "  - { id: g, side: blue, type: artillery, at: [1, 4], facing: E, mode: unlimbered }\n  - { id: f, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [6, 4], facing: W }\n";
    field(None, "", over).refused(&fire, &[], "it is not on higher ground");
    let over_h = over.replace(
        "mode: unlimbered",
        "mode: unlimbered, attributes: { howitzer: 1 }",
    );
    let p = field(None, "", &over_h).json(&fire, &[]);
    assert!(rolled(&p, "fire_artillery_b by g at r"), "{:?}", p.events);
    // But they still need to see the target: a forest in between stops them.
    let out_of_sight = field(Some(&map_with(&[(3, 4, 'F')])), "", &howitzer);
    out_of_sight.refused(&fire, &[], "g cannot see r: the line is blocked at (3,4)");
}

/// 004 reference "Melee and Rout": meleed guns are abandoned — the crew steps back one hex
/// and does not rout, the guns stay; the crew can be fired upon and does not melee; a
/// battery routed by fire limbers up and goes with its guns.
#[test]
fn meleed_crews_abandon_their_guns_and_step_back() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: k, side: blue, type: infantry, at: [4, 6], facing: NE }\n  - { id: g, side: red, type: artillery, at: [4, 4], facing: W, mode: unlimbered }\n  - { id: c, side: red, type: crew, at: [4, 4], facing: W, attached_to: g }\n";
    let f = field(None, "", pieces);
    // The outcome, on the events: an automatic grapeshot hit; the guns stay, abandoned; the
    // crew steps back, unrouted.
    let played = f.json(&at_blue_melee(&[act("blue", "b", "melee", "g")]), &[]);
    let grape = roll_on(&played, "grapeshot");
    assert_eq!(
        (&grape["band"], &grape["outcome"]),
        (&json!("automatic"), &json!("hit"))
    );
    assert_placed(
        &played,
        "c",
        (4, 4),
        (5, 4),
        "crew stepped back from the melee",
    );
    assert!(
        played.flag("g", "abandoned", true).is_some(),
        "{:?}",
        played.events
    );
    assert!(
        played
            .find("placed", "c", |e| stepped_back_to(e, 5, 4))
            .is_some()
    );
    assert_eq!(played.find("removed", "g", |_| true), None);
    assert_eq!(played.flag("c", "routed", true), None);
    // The abandoned guns cannot be fired at; the crew can.
    let abandoned = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: g, side: red, type: artillery, at: [4, 4], facing: W, mode: unlimbered, flags: [abandoned] }\n  - { id: c, side: red, type: crew, at: [5, 5], facing: W }\n  - { id: k, side: blue, type: infantry, at: [3, 5], facing: E }\n";
    let f = field(None, "", abandoned);
    f.refused(
        &at_blue_fire(&[act("blue", "b", "fire", "g")]),
        &[],
        "g's guns are abandoned: there is no one at them to hit",
    );
    let p = f.json(&at_blue_fire(&[act("blue", "k", "fire", "c")]), &[]);
    assert!(rolled(&p, "fire_small_b by k at c"), "{:?}", p.events);
    // Abandoned guns neither move nor limber.
    f.refused(
        &at_red_movement(&[order("red", "move: { piece: g, path: [[3, 4]] }")]),
        &[],
        "g cannot move: it is abandoned",
    );
    f.refused(
        &at_red_movement(&[order("red", "act: { piece: g, action: limber }")]),
        &[],
        "g cannot limber while abandoned",
    );
    // A crew meleed on its own steps back again instead of fighting.
    let alone = "  - { id: b, side: blue, type: infantry, at: [4, 5], facing: E }\n  - { id: c, side: red, type: crew, at: [5, 5], facing: W }\n";
    let p = field(None, "", alone).json(&at_blue_melee(&[act("blue", "b", "melee", "c")]), &[]);
    assert_placed(&p, "c", (5, 5), (6, 5), "crew stepped back from the melee");
    // No melee is fought: no roll after b's order, nobody in melee.
    let alone_field = field(None, "", alone);
    let played = alone_field.json(&at_blue_melee(&[act("blue", "b", "melee", "c")]), &[]);
    assert!(
        played
            .find("placed", "c", |e| stepped_back_to(e, 6, 5))
            .is_some()
    );
    let order = played
        .find("acted", "b", |e| e["action"] == "melee")
        .expect("b's melee order");
    assert!(
        played.events[order..]
            .iter()
            .all(|e| e["event"] != "rolled"),
        "{:?}",
        played.events
    );
    assert_eq!(played.flag("b", "in_melee", true), None);
    // With no room behind, the crew is captured.
    let boxed = format!(
        "{alone}  - {{ id: w1, side: red, type: infantry, at: [6, 5], facing: W }}\n  - {{ id: w2, side: red, type: infantry, at: [6, 4], facing: W }}\n  - {{ id: w3, side: red, type: infantry, at: [6, 6], facing: W }}\n"
    );
    let p = field(None, "", &boxed).json(&at_blue_melee(&[act("blue", "b", "melee", "c")]), &[]);
    assert_removed(&p, "c", "crew captured: no room to step back");
    // Routed by fire, a battery limbers up and routs with its guns and crew.
    let shot = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: red, type: artillery, at: [4, 4], facing: W, mode: unlimbered, counters: { hits: 2 } }\n  - { id: c, side: red, type: crew, at: [4, 4], facing: W, attached_to: g }\n";
    let p = field(None, "", shot).json(&at_blue_fire(&[act("blue", "b", "fire", "g")]), &[]);
    assert_flag(&p, "g", "routed", true);
    assert_mode(&p, "g", "unlimbered", "limbered");
    assert_placed(&p, "g", (4, 4), (8, 4), "routed");
    let played = field(None, "", shot).json(&at_blue_fire(&[act("blue", "b", "fire", "g")]), &[]);
    assert!(
        played.flag("g", "routed", true).is_some(),
        "{:?}",
        played.events
    );
    assert!(
        played
            .find("placed", "g", |e| e["reason"] == "routed"
                && e["to"] == json!({"col": 8, "row": 4}))
            .is_some()
    );
    assert_eq!(played.flag("g", "abandoned", true), None);
    assert_eq!(played.find("attached", "c", |e| e["to"].is_null()), None);
}

/// Whether a `placed` event is a crew stepping back to (`col`, `row`).
fn stepped_back_to(event: &serde_json::Value, col: u32, row: u32) -> bool {
    event["reason"] == "crew stepped back from the melee"
        && event["to"] == json!({"col": col, "row": row})
}

/// 004 reference "Melee and Rout": the crew returns to its guns when its side holds them
/// again (no enemy next to them); an enemy that melees abandoned guns captures them and its
/// new crew rolls 1d6 for the shots it can fire with them.
#[test]
fn crews_return_and_captured_guns_fire_their_rolled_shots() {
    let pieces = "  - { id: g, side: red, type: artillery, at: [4, 4], facing: W, mode: unlimbered, flags: [abandoned] }\n  - { id: c, side: red, type: crew, at: [5, 4], facing: W }\n  - { id: x, side: blue, type: infantry, at: [0, 0], facing: E }\n";
    let f = field(None, "", pieces);
    let p = f.json(&at_red_movement(&[act("red", "c", "man_guns", "g")]), &[]);
    assert!(
        p.has("acted", "c", |e| e["action"] == "man_guns"),
        "{:?}",
        p.events
    );
    assert_flag(&p, "g", "abandoned", false);
    // Manned again, the battery fires in Red's fire phase.
    let mut fire_again = at_red_movement(&[act("red", "c", "man_guns", "g")]);
    fire_again.extend(ends("red", 1));
    fire_again.extend(ends("blue", 1));
    fire_again.push(act("red", "g", "fire", "x"));
    let near = pieces.replace("at: [0, 0]", "at: [1, 4]");
    let p = field(None, "", &near).json(&fire_again, &[]);
    assert!(rolled(&p, "fire_artillery_b by g at x"), "{:?}", p.events);
    // Not while an enemy stands next to the guns.
    let held = pieces.replace("at: [0, 0]", "at: [3, 4]");
    field(None, "", &held).refused(
        &at_red_movement(&[act("red", "c", "man_guns", "g")]),
        &[],
        "c cannot return to g: x is next to the guns",
    );
    // Blue takes the guns: it advances onto them and rolls its shots.
    let p = field(None, "", &held).json(&at_blue_melee(&[act("blue", "x", "melee", "g")]), &[]);
    assert!(
        rolled(&p, "shots the new crew of g can use"),
        "{:?}",
        p.events
    );
    assert_removed(&p, "g", "guns captured by x");
    assert_placed(&p, "x", (3, 4), (4, 4), "advanced onto the captured guns");
    assert!(
        p.has("counter_changed", "x", |e| e["counter"] == "captured_shots"
            && e["from"] == 0),
        "{:?}",
        p.events
    );
    // Abandoned guns fire no grapeshot at the men who take them.
    let played =
        field(None, "", &held).json(&at_blue_melee(&[act("blue", "x", "melee", "g")]), &[]);
    assert!(
        played
            .find("removed", "g", |e| e["reason"] == "guns captured by x")
            .is_some()
    );
    assert!(
        played
            .find("placed", "x", |e| e["reason"]
                == "advanced onto the captured guns")
            .is_some()
    );
    assert!(
        played
            .events
            .iter()
            .all(|e| e["roll"]["chart"] != "grapeshot"),
        "{:?}",
        played.events
    );
    // The captor fires the guns with their chart while its shots last.
    let captor = "  - { id: x, side: blue, type: infantry, at: [2, 4], facing: E, counters: { captured_shots: 1, captured_class: 2 } }\n  - { id: r, side: red, type: infantry, at: [7, 4], facing: W }\n";
    let f = field(None, "", captor);
    let p = f.json(&at_blue_fire(&[act("blue", "x", "fire_guns", "r")]), &[]);
    assert!(rolled(&p, "fire_artillery_b by x at r"), "{:?}", p.events);
    assert_counted(&p, "x", "captured_shots", 1, 0);
    let mut twice = at_blue_fire(&[act("blue", "x", "fire_guns", "r")]);
    twice.extend(ends("blue", 3)); // fire, melee, rally
    // Red's command and movement; then Blue's defensive fire.
    twice.extend(ends("red", 2));
    twice.push(act("blue", "x", "fire_guns", "r"));
    f.refused(&twice, &[], "x has no shots left with captured guns");
}

/// Plays `orders` with seeds until the melee routs or destroys `r` (its `routed` flag
/// turned on or its removal, on `play --json`); returns that seed.
fn seed_where_r_breaks(f: &Field, orders: &[String], args: &[&str]) -> String {
    seed_showing(f, orders, args, |p| {
        p.flag("r", "routed", true).is_some() || was_removed(p, "r")
    })
}

/// 004 7.4 and 5.1b: the winner of a melee advances and may then change facing; no one
/// else changes facing in the melee phase. Charts page, Pursuit (optional rule
/// `pursuit_facing`): the winner may change facing instead of advancing.
#[test]
fn facing_changes_after_melee_and_instead_of_pursuit() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, counters: { hits: 2 } }\n  - { id: o, side: blue, type: infantry, at: [1, 1], facing: E }\n";
    let f = field(None, "", pieces);
    let melee = at_blue_melee(&[act("blue", "b", "melee", "r")]);
    let seed = seed_where_r_breaks(&f, &melee, &[]);
    let args = ["--seed", seed.as_str()];
    let p = f.json(&melee, &args);
    assert_placed(&p, "b", (3, 4), (4, 4), "advanced after melee");
    let mut turn = melee.clone();
    turn.push(order("blue", "face: { piece: b, facing: SE }"));
    let p = f.json(&turn, &args);
    assert!(
        p.has("faced", "b", |e| e["facing"] == "SE"),
        "{:?}",
        p.events
    );
    let mut other = melee.clone();
    other.push(order("blue", "face: { piece: o, facing: SE }"));
    f.refused(
        &other,
        &args,
        "o may change facing in the melee phase only after winning a melee",
    );
    // Pursuit choice: the winner stays, then turns instead, or advances.
    let choice = ["--seed", seed.as_str(), "--option", "pursuit_facing=on"];
    let played = f.json(&melee, &choice);
    // prose: the note offers the winner its choice in words (the outcomes below are events).
    let offer = "b may advance or change facing instead";
    assert!(
        played.events.iter().any(|e| e["text"] == offer),
        "{:?}",
        played.events
    );
    let broke = |p: &crate::util::Played| {
        p.flag("r", "routed", true).is_some() || p.find("removed", "r", |_| true).is_some()
    };
    assert!(broke(&played), "{:?}", played.events);
    assert_eq!(played.find("placed", "b", |_| true), None);
    let p = f.json(&turn, &choice);
    assert!(
        p.has("faced", "b", |e| e["facing"] == "SE"),
        "{:?}",
        p.events
    );
    let played = f.json(&turn, &choice);
    assert!(played.find("faced", "b", |e| e["facing"] == "SE").is_some());
    assert_eq!(played.find("placed", "b", |_| true), None);
    let mut on = melee.clone();
    on.push(order("blue", "act: { piece: b, action: advance }"));
    let p = f.json(&on, &choice);
    assert_placed(&p, "b", (3, 4), (4, 4), "advanced after melee");
    // Only a winner has a hex to advance into.
    let mut not_won = melee.clone();
    not_won.push(order("blue", "act: { piece: o, action: advance }"));
    f.refused(&not_won, &choice, "o has no hex to advance into");
}

/// 004 4c: reinforcements fighting a force that blocks their entry overlap its flank only
/// with enough units to extend their line beyond it; in front they always may melee.
#[test]
fn overlapping_a_blocking_force_needs_more_units() {
    // r faces W: (4,3) and (4,5) are its flanks, (5,4) its rear, (3,4) its front.
    let one = "  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, flags: [blocking] }\n  - { id: b, side: blue, type: infantry, at: [5, 4], facing: W }\n";
    let melee = at_blue_melee(&[act("blue", "b", "melee", "r")]);
    field(None, "", one).refused(
        &melee,
        &[],
        "b cannot overlap the blocking force's flank: 1 units in contact against 1 blocking (4c)",
    );
    let two = format!("{one}  - {{ id: c, side: blue, type: infantry, at: [4, 3], facing: SW }}\n");
    let p = field(None, "", &two).json(&melee, &[]);
    assert!(
        p.has("acted", "b", |e| e["action"] == "melee"),
        "{:?}",
        p.events
    );
    let front = "  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, flags: [blocking] }\n  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n";
    let p = field(None, "", front).json(&melee, &[]);
    assert!(
        p.has("acted", "b", |e| e["action"] == "melee"),
        "{:?}",
        p.events
    );
    // Without the blocking mark the rear attack is an ordinary one.
    let plain = one.replace(", flags: [blocking]", "");
    let p = field(None, "", &plain).json(&melee, &[]);
    assert!(
        p.has("acted", "b", |e| e["action"] == "melee"),
        "{:?}",
        p.events
    );
}

/// 004 7.4 ("units that win melees must advance"; issue 7): the defender that wins
/// advances into the attacker's hex too, turning to face the way it goes; with the
/// optional rule `pursuit_facing` it turns to face that hex instead (charts page, Pursuit);
/// infantry do not pursue cavalry.
#[test]
fn a_defender_that_wins_advances_or_turns() {
    // r faces W; b charges it from (3,3), the north-west hex of its front arc (a vacated
    // hex in the front arc: 5.1b; a flank attacker's hex is not, issue 33's audit test).
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 3], facing: SE, counters: { hits: 2 } }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n";
    let f = field(None, "", pieces);
    let melee = at_blue_melee(&[act("blue", "b", "melee", "r")]);
    let seed = seed_showing(&f, &melee, &[], |p| p.flag("b", "routed", true).is_some());
    let args = ["--seed", seed.as_str()];
    let p = f.json(&melee, &args);
    assert!(
        p.has("faced", "r", |e| e["facing"] == "NW"),
        "{:?}",
        p.events
    );
    assert_placed(
        &p,
        "r",
        (4, 4),
        (3, 3),
        "advanced after winning the melee it defended",
    );
    let played = f.json(&melee, &args);
    assert!(
        played.flag("b", "routed", true).is_some(),
        "{:?}",
        played.events
    );
    assert_eq!(played.flag("r", "routed", true), None);
    // Pursuit choice: the defender turns to the hex instead of advancing.
    let choice = ["--seed", seed.as_str(), "--option", "pursuit_facing=on"];
    let played = f.json(&melee, &choice);
    assert!(played.find("faced", "r", |e| e["facing"] == "NW").is_some());
    assert_eq!(played.find("placed", "r", |_| true), None);
    // Cavalry beaten off by infantry are not pursued.
    let horse = pieces.replace("type: infantry, at: [3, 3]", "type: cavalry, at: [3, 3]");
    let f = field(None, "", &horse);
    let seed = seed_showing(&f, &melee, &[], |p| p.flag("b", "routed", true).is_some());
    let played = f.json(&melee, &["--seed", seed.as_str()]);
    assert!(
        played.flag("b", "routed", true).is_some(),
        "{:?}",
        played.events
    );
    assert_eq!(played.find("placed", "r", |_| true), None);
    assert_eq!(played.find("faced", "r", |_| true), None);
    // Crews do not melee (charts page), so a crew next to the target adds nothing to the
    // attacker's value; a regiment there does (+1).
    let front = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n";
    let crew = format!("{front}  - {{ id: c, side: blue, type: crew, at: [4, 5], facing: NE }}\n");
    let p = field(None, "", &crew).json(&melee, &[]);
    assert!(rolled(&p, "melee of b (2) against r (2)"), "{:?}", p.events);
    let friend = crew.replace("type: crew", "type: infantry");
    let p = field(None, "", &friend).json(&melee, &[]);
    assert!(rolled(&p, "melee of b (3) against r (2)"), "{:?}", p.events);
}

/// 004 reference "Melee and Rout" and 7.2 ("they return to the guns if the guns are
/// recaptured"; issue 7): guns an enemy took are left where their captor stood when it
/// is broken; the winner does not advance onto them, and their crew mans them again.
#[test]
fn captured_guns_are_recaptured_when_their_captor_breaks() {
    let pieces = "  - { id: x, side: blue, type: infantry, at: [3, 4], facing: E, counters: { hits: 2 } }\n  - { id: g, side: red, type: artillery, at: [4, 4], facing: W, mode: unlimbered, flags: [abandoned] }\n  - { id: c, side: red, type: crew, at: [4, 5], facing: NE }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: W }\n";
    // Far-off regiments keep either side's losses under the break point (army integrity).
    let reserves: String = [
        (9, 0, "red"),
        (8, 0, "red"),
        (9, 1, "red"),
        (9, 7, "blue"),
        (8, 7, "blue"),
        (0, 2, "blue"),
    ]
    .iter()
    .enumerate()
    .map(|(i, (c, r, side))| {
        format!("  - {{ id: z{i}, side: {side}, type: infantry, at: [{c}, {r}], facing: E }}\n")
    })
    .collect();
    let pieces = format!("{pieces}{reserves}");
    let f = field(None, "", &pieces);
    // Blue takes the guns; Red's r then charges the captor.
    let mut orders = at_blue_melee(&[act("blue", "x", "melee", "g")]);
    orders.extend(ends("blue", 2)); // melee, rally
    orders.extend(ends("red", 2)); // command, movement
    orders.extend(ends("blue", 1)); // defensive fire
    orders.extend(ends("red", 1)); // fire
    orders.push(act("red", "r", "melee", "x"));
    let seed = seed_showing(&f, &orders, &[], |p| p.flag("x", "routed", true).is_some());
    let args = ["--seed", seed.as_str()];
    let p = f.json(&orders, &args);
    assert_removed(&p, "g", "guns captured by x");
    assert_counted(&p, "x", "captured_gun", 0, 2);
    assert_arrived(&p, "g", (4, 4), "guns left behind by x");
    // The guns hold the hex: the winner stays.
    let played = f.json(&orders, &args);
    assert!(
        played
            .find("arrived", "g", |e| e["reason"] == "guns left behind by x"
                && e["at"] == json!({"col": 4, "row": 4}))
            .is_some(),
        "{:?}",
        played.events
    );
    assert_eq!(
        played.find("placed", "r", |e| e["to"] == json!({"col": 4, "row": 4})),
        None
    );
    // Taking the guns is winning a melee: the captor may change facing (7.4).
    let mut turn = at_blue_melee(&[act("blue", "x", "melee", "g")]);
    turn.push(order("blue", "face: { piece: x, facing: SE }"));
    let p = f.json(&turn, &[]);
    assert!(
        p.has("faced", "x", |e| e["facing"] == "SE"),
        "{:?}",
        p.events
    );
    // A captor that beats the attack off stays with the guns instead of advancing.
    let strong = field(
        None,
        "",
        &pieces.replace(", counters: { hits: 2 } }", " }").replace(
            "at: [5, 4], facing: W }",
            "at: [5, 4], facing: W, counters: { hits: 2 } }",
        ),
    );
    let seed = seed_showing(&strong, &orders, &[], |p| {
        p.flag("r", "routed", true).is_some()
    });
    let played = strong.json(&orders, &["--seed", seed.as_str()]);
    assert!(
        played.flag("r", "routed", true).is_some(),
        "{:?}",
        played.events
    );
    assert_eq!(
        played.find("placed", "x", |e| e["to"] == json!({"col": 5, "row": 4})),
        None
    );
    assert_eq!(played.find("arrived", "g", |_| true), None);
    // Next turn the crew returns to them, and they fire for Red again.
    let mut back = orders.clone();
    back.extend(ends("red", 2)); // melee, rally
    back.extend(ends("blue", 4)); // turn end; turn 2: arrivals, command, movement
    back.extend(ends("red", 1)); // defensive fire
    back.extend(ends("blue", 3)); // fire, melee, rally
    back.extend(ends("red", 1)); // command
    back.push(act("red", "c", "man_guns", "g"));
    back.extend(ends("red", 1)); // movement
    back.extend(ends("blue", 1)); // defensive fire
    back.push(act("red", "g", "fire", "z5"));
    let p = f.json(&back, &args);
    assert!(
        p.has("acted", "c", |e| e["action"] == "man_guns"),
        "{:?}",
        p.events
    );
    assert_flag(&p, "g", "abandoned", false);
    assert!(rolled(&p, "fire_artillery_b by g at z5"), "{:?}", p.events);
    // Broken by fire, a captor leaves the guns too.
    let mut shot = at_blue_melee(&[act("blue", "x", "melee", "g")]);
    shot.extend(ends("blue", 2));
    shot.extend(ends("red", 2));
    shot.extend(ends("blue", 1));
    shot.push(act("red", "r", "fire", "x"));
    let seed = seed_showing(&f, &shot, &[], |p| p.flag("x", "routed", true).is_some());
    let p = f.json(&shot, &["--seed", seed.as_str()]);
    assert_arrived(&p, "g", (4, 4), "guns left behind by x");
    // A captor that is never broken keeps them: the crew cannot man guns off the board.
    let mut held = at_blue_melee(&[act("blue", "x", "melee", "g")]);
    held.extend(ends("blue", 2));
    held.extend(ends("red", 1));
    held.push(act("red", "c", "man_guns", "g"));
    f.refused(&held, &[], "there is no piece #1 on the board");
}

/// 004 reference "Classes" (issue 7): direct-fire guns firing at a unit behind
/// fortifications first roll to see if the shot strikes the works (our reading: a red
/// face, 1/2); only a shot that clears them may hit the unit. Howitzers do not roll. The
/// optional rule `structure_damage` knocks the works down a level.
#[test]
fn guns_firing_at_works_roll_for_the_structure_first() {
    let odds = crate::util::grognard(&["chart", RULESET, "structure"]);
    assert_eq!(odds.code, 0, "{}{}", odds.stdout, odds.stderr);
    has(&odds.stdout, "works  1/2");
    has(&odds.stdout, "clear  1/2");
    let pieces = "  - { id: g, side: blue, type: artillery, at: [2, 4], facing: E, mode: unlimbered }\n  - { id: k, side: blue, type: infantry, at: [2, 5], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, counters: { works: 4 } }\n";
    let f = field(None, "", pieces);
    let fire = at_blue_fire(&[act("blue", "g", "fire", "r")]);
    let seed = seed_showing(&f, &fire, &[], struck("works"));
    let out = f.ok(&fire, &["--seed", seed.as_str()]);
    has(&out, "the shot of g strikes the works in front of r");
    // prose: the order's line tells the deed; its flag line is not told again (issue 37).
    lacks(&out, "g fire at r", "g has fired");
    let played = f.json(&fire, &["--seed", seed.as_str()]);
    assert_eq!(rolls(&played, "structure"), 1, "{:?}", played.events);
    assert!(played.flag("g", "fired", true).is_some());
    assert_eq!(rolls(&played, "fire_artillery_b"), 0);
    assert_eq!(
        played.find("counter_changed", "r", |e| e["counter"] == "hits"),
        None
    );
    assert_eq!(
        played.find("counter_changed", "r", |e| e["counter"] == "works"),
        None
    );
    let seed = seed_showing(&f, &fire, &[], struck("clear"));
    let p = f.json(&fire, &["--seed", seed.as_str()]);
    assert!(modified(&p, "target in cover", 1), "{:?}", p.events);
    assert!(in_band(&p, "Color"), "{:?}", p.events);
    assert!(rolled(&p, "fire_artillery_b by g at r"), "{:?}", p.events);
    // Structure damage: quick works are levelled, a redoubt becomes quick works.
    let damage = ["--option", "structure_damage=on"];
    let seed = seed_showing(&f, &fire, &damage, struck("works"));
    let p = f.json(
        &fire,
        &["--option", "structure_damage=on", "--seed", seed.as_str()],
    );
    assert_counted(&p, "r", "works", 4, 0);
    // prose: the script's note says in words what the counter event above shows.
    let levelled = "the quick works of r are levelled";
    assert!(
        p.events.iter().any(|e| e["text"] == levelled),
        "{:?}",
        p.events
    );
    let redoubt = field(None, "", &pieces.replace("works: 4", "works: 6"));
    let seed = seed_showing(&redoubt, &fire, &damage, struck("works"));
    let p = redoubt.json(
        &fire,
        &["--option", "structure_damage=on", "--seed", seed.as_str()],
    );
    assert_counted(&p, "r", "works", 6, 4);
    // A fort is a structure too, and stands.
    let fort = field(
        Some(&map_with(&[(4, 4, 'T')])),
        "",
        &pieces.replace(", counters: { works: 4 }", ""),
    );
    let seed = seed_showing(&fort, &fire, &damage, struck("works"));
    let played = fort.json(
        &fire,
        &["--option", "structure_damage=on", "--seed", seed.as_str()],
    );
    assert_eq!(rolls(&played, "structure"), 1, "{:?}", played.events);
    assert_eq!(
        played.find("counter_changed", "r", |e| e["counter"] == "works"),
        None
    );
    // No roll: howitzers, small arms, and targets in the open.
    let howitzer = field(
        None,
        "",
        &pieces.replace(
            "mode: unlimbered }",
            "mode: unlimbered, attributes: { howitzer: 1 } }",
        ),
    );
    for seed in ["1", "2", "3"] {
        let played = howitzer.json(&fire, &["--seed", seed]);
        assert_eq!(rolls(&played, "structure"), 0, "{:?}", played.events);
        assert_eq!(rolls(&played, "fire_artillery_b"), 1, "{:?}", played.events);
        let played = f.json(
            &at_blue_fire(&[act("blue", "k", "fire", "r")]),
            &["--seed", seed],
        );
        assert_eq!(rolls(&played, "structure"), 0, "{:?}", played.events);
        assert_eq!(rolls(&played, "fire_small_b"), 1, "{:?}", played.events);
    }
    let open = field(None, "", &pieces.replace(", counters: { works: 4 }", ""));
    let played = open.json(&fire, &[]);
    assert_eq!(rolls(&played, "structure"), 0, "{:?}", played.events);
    assert_eq!(rolls(&played, "fire_artillery_b"), 1, "{:?}", played.events);
    let p = open.json(&fire, &[]);
    assert!(rolled(&p, "fire_artillery_b by g at r"), "{:?}", p.events);
}

/// Asserts the events hold one roll on `chart` and that it took no `partly obstructed`
/// modifier (the roll must be there, so a shot that never happened cannot pass).
fn clear_shot(played: &crate::util::Played, chart: &str) {
    let shots: Vec<_> = played
        .events
        .iter()
        .filter(|e| e["roll"]["chart"] == chart)
        .collect();
    assert_eq!(shots.len(), 1, "one {chart} roll in {:?}", played.events);
    let modifiers = shots[0]["roll"]["modifiers"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        modifiers.iter().all(|m| m["name"] != "partly obstructed"),
        "{modifiers:?}"
    );
}

/// A seed's test: the structure roll (a gun's shot at a unit behind works) came up
/// `outcome` on `play --json`.
fn struck(outcome: &str) -> impl Fn(&Played) -> bool + '_ {
    move |p| {
        (p.events.iter())
            .any(|e| e["roll"]["chart"] == "structure" && e["roll"]["outcome"] == outcome)
    }
}

/// How many rolls on `chart` the events hold.
fn rolls(played: &Played, chart: &str) -> usize {
    played
        .events
        .iter()
        .filter(|e| e["roll"]["chart"] == chart)
        .count()
}
