//! Issue 33: the fourteen rulings an outside audit of Hex Command found wrong, each ruled as
//! seed 004 says and worked by hand here (the line numbers are of `004_*.txt`), and the
//! two general faults: fire out of reach, and refusals that showed Lua paths.

use super::*;
use crate::util::grognard_in;

/// `grognard legal --json` for `side` after `orders`: the phase and the listed orders, for
/// tests about what is listed rather than how a listed order is printed.
fn legal_json(f: &Field, orders: &[String], side: &str) -> Value {
    f.write_orders("legal-orders.yaml", orders);
    let r = grognard_in(
        f.dir.path(),
        &[
            "legal",
            "field.yaml",
            "--side",
            side,
            "--orders",
            "legal-orders.yaml",
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("legal --json: {e}\n{}", r.stdout))
}

/// The listed orders of a `legal --json` answer that match `pick`.
fn listed(list: &Value, pick: impl Fn(&Value) -> bool) -> usize {
    list["orders"]
        .as_array()
        .unwrap_or_else(|| panic!("no orders in {list}"))
        .iter()
        .filter(|o| pick(o))
        .count()
}

/// Whether a listed order is `side`'s end of the phase.
fn ends_phase(o: &Value) -> bool {
    o["end_phase"] == true
}

fn act(side: &str, by: &str, action: &str, at: &str) -> String {
    order(
        side,
        &format!("act: {{ piece: {by}, action: {action}, target: {at} }}"),
    )
}

fn mv(side: &str, unit: &str, path: &str) -> String {
    order(side, &format!("move: {{ piece: {unit}, path: {path} }}"))
}

fn face(side: &str, unit: &str, facing: &str) -> String {
    order(
        side,
        &format!("face: {{ piece: {unit}, facing: {facing} }}"),
    )
}

// --- Fire ---------------------------------------------------------------------------------

/// 004 charts page (small arms B: bands 1, 2, 3+, 4 hexes): a target five hexes off is out
/// of reach. `legal` does not list the shot and play refuses it in the rule's words; before,
/// it was listed and accepted ("band 4 (out of reach) → miss"), marking the firer fired.
#[test]
fn fire_out_of_reach_is_neither_listed_nor_accepted() {
    // b at (1,4) facing E, r at (6,4): five hexes along the row.
    let pieces = "  - { id: b, side: blue, type: infantry, at: [1, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [6, 4], facing: W }\n";
    let f = field(None, "", pieces, "");
    let list = legal_json(&f, &to_blue_fire(), "blue");
    assert_eq!(list["phase"], "fire", "{list}");
    assert_eq!(listed(&list, ends_phase), 1, "{list}");
    assert_eq!(listed(&list, |o| o["act"]["action"] == "fire"), 0, "{list}");
    refused(
        &f,
        &with(to_blue_fire(), &[fire("b", "r")]),
        "refused: r is out of reach: 5 hexes from b, whose fire reaches 4",
    );
    // Four hexes is in reach (Code'n Color): listed and accepted.
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [6, 4], facing: W }\n";
    let f = field(None, "", pieces, "");
    let list = legal_json(&f, &to_blue_fire(), "blue");
    let at_r = serde_json::json!({"piece": "b", "action": "fire", "target": "r"});
    assert_eq!(listed(&list, |o| o["act"] == at_r), 1, "{list}");
    let p = f.json(&with(to_blue_fire(), &[fire("b", "r")]), &[]);
    assert_eq!(roll_on(&p, "fire_small_b")["band"], "Code'n Color");
}

/// A refusal reaches the player as the rule's words, never as a script's path and line.
#[test]
fn refusals_carry_no_lua_paths() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [3, 4], facing: W }\n  - { id: r2, side: red, type: infantry, at: [5, 4], facing: W }\n";
    let f = field(None, "", pieces, "");
    let r = run(&f, &with(to_blue_fire(), &[fire("b", "r2")]));
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    // prose: the refusal's words are the point: the rule's, with no script path in them.
    let why = "refused: b cannot see r2: r stands in the way";
    lacks(&r.stderr, why, ".lua:");
    lacks(&r.stderr, why, "while evaluating");
}

/// 004 l.507 (7.1a): two units may fire at one target only when it is the only target in
/// the range band. b1 (2,4) and b2 (2,5) face E; r1 at (4,4) is two hexes from each, r2 at
/// (4,6) two hexes from b2 (three from b1, so b1's closest target is r1). b1 fires at r1;
/// b2 may not join it, because r2 is in the same band for b2 — it may fire at r2. Without
/// r2, b2 joins the fire on r1.
#[test]
fn ganging_up_only_on_the_only_target_in_the_band() {
    let two = "  - { id: b1, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: b2, side: blue, type: infantry, at: [2, 5], facing: E }\n  - { id: r1, side: red, type: infantry, at: [4, 4], facing: W }\n";
    let f = field(
        None,
        "",
        &format!("{two}  - {{ id: r2, side: red, type: infantry, at: [4, 6], facing: W }}\n"),
        "",
    );
    let first = with(to_blue_fire(), &[fire("b1", "r1")]);
    refused(
        &f,
        &with(first.clone(), &[fire("b2", "r1")]),
        "no ganging up on r1: r2 is in the same range band of b2",
    );
    let list = legal_json(&f, &first, "blue");
    let b2_at = |target: &str| {
        listed(&list, |o| {
            o["act"] == serde_json::json!({"piece": "b2", "action": "fire", "target": target})
        })
    };
    assert_eq!(b2_at("r2"), 1, "{list}");
    assert_eq!(b2_at("r1"), 0, "{list}");
    ok(&f, &with(first.clone(), &[fire("b2", "r2")]));
    let alone = field(None, "", two, "");
    let p = alone.json(&with(first, &[fire("b2", "r1")]), &[]);
    assert_flag(&p, "r1", "shot_small_2", true);
}

/// 004 l.256: with the supply rule, a unit spends one point for each turn it fires, not one
/// per shot. r fires in Blue's defensive fire phase (12 → 11) and again in its own fire phase
/// of the same turn: still 11. Next turn its first shot spends the next point (11 → 10).
#[test]
fn supply_is_spent_once_a_turn_the_unit_fires() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E, counters: { hits: 0 } }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: W }\n";
    let f = field(None, "", pieces, "options: { supply: true }");
    let red = |o: &mut Vec<String>| o.push(act("red", "r", "fire", "b"));
    let mut o = ends("blue", 3);
    red(&mut o); // Blue's turn: Red's defensive fire
    o.extend(ends("red", 1));
    o.extend(ends("blue", 3)); // fire, melee, rally
    o.extend(ends("red", 2)); // Red's command, movement
    o.extend(ends("blue", 1)); // Blue's defensive fire
    red(&mut o); // Red's fire phase, the same turn
    let p = f.json(&o, &[]);
    assert_counted(&p, "r", "supply", 12, 11);
    let played = f.json(&o, &[]);
    let spent = |from: i32| {
        played.find("counter_changed", "r", |e| {
            e["counter"] == "supply" && e["from"] == from && e["to"] == from - 1
        })
    };
    assert!(spent(12).is_some(), "{:?}", played.events);
    assert_eq!(spent(11), None);
    // The next turn's first shot spends the next point.
    let mut o = whole_turn();
    o.insert(3, act("red", "r", "fire", "b"));
    o.extend(ends("blue", 3));
    red(&mut o);
    assert_counted(&f.json(&o, &[]), "r", "supply", 11, 10);
}

// --- Melee ------------------------------------------------------------------------------

/// The part of a log from the line that starts `from` to the next phase's heading.
fn section<'a>(out: &'a str, from: &str) -> &'a str {
    let start = out
        .find(from)
        .unwrap_or_else(|| panic!("no `{from}` in:\n{out}"));
    let rest = &out[start + from.len()..];
    let end = rest.find("\nturn ").map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

/// 004 l.480 (7.2.1): a unit that moves into the front hexes of more than one enemy must
/// melee all of them. Hand-worked: r1 at (4,3) faces SW, so its front hexes are (4,4),
/// (5,4) and (3,3); r2 at (4,5) faces NW: (4,4), (5,4), (3,5). The cavalry c rides from
/// (2,4) by (3,4) — in neither front — to (4,4), in both, and faces E: both are in its
/// front arc. It melees r1 and its player ends the phase; the melee with r2 is fought as
/// the phase ends, c hurting r2 only with TE hits (r2 is its second opponent). Before, the
/// phase ended with r2 untouched.
#[test]
fn a_unit_melees_every_enemy_whose_front_it_entered() {
    let pieces = "  - { id: c, side: blue, type: cavalry, at: [2, 4], facing: E }\n  - { id: r1, side: red, type: infantry, at: [4, 3], facing: SW }\n  - { id: r2, side: red, type: infantry, at: [4, 5], facing: NW }\n";
    let f = field(None, "", pieces, "");
    let mut o = to_blue_movement();
    o.push(mv("blue", "c", "[[3, 4], [4, 4]]"));
    o.extend(ends("blue", 1));
    o.extend(ends("red", 1));
    o.extend(ends("blue", 1));
    o.push(melee("c", "r1"));
    o.extend(ends("blue", 1)); // the melee phase ends
    let out = ok(&f, &o);
    // Fought as the melee phase ends, and logged in it (third fresh audit).
    let owed = section(&out, "melee phase (blue)");
    has(owed, "against r2");
    has(owed, "c entered the front of r2 and must melee it too");
    has(owed, "r2 is in_melee");
    // On the events: r2 is drawn into the melee in Blue's melee phase, with no plain hit.
    let played = f.json(&o, &[]);
    let melee_phase = played
        .events
        .iter()
        .position(|e| {
            e["event"] == "phase_began" && e["phase"] == "melee" && e["phasing"] == "blue"
        })
        .expect("Blue's melee phase");
    assert!(
        played
            .flag("r2", "in_melee", true)
            .is_some_and(|i| i > melee_phase),
        "{:?}",
        played.events
    );
    assert_eq!(
        played.find("counter_changed", "r2", |e| e["counter"] == "hits"),
        None
    );
    // An enemy with a hit has lost its zone (5.2b, 7.2.1): no melee is owed to it.
    let hit = pieces.replace("facing: NW }", "facing: NW, counters: { hits: 1 } }");
    let hit = field(None, "", &hit, "");
    let played = hit.json(&o, &[]);
    let melees = (played.events.iter()).filter(|e| e["roll"]["chart"] == "melee");
    let against: Vec<&Value> = melees.map(|e| &e["roll"]["against"]).collect();
    assert_eq!(
        against,
        [&Value::from(played.piece("r1"))],
        "{:?}",
        played.events
    );
    assert!(
        played.flag("r1", "in_melee", true).is_some(),
        "{:?}",
        played.events
    );
    assert_eq!(played.flag("r2", "in_melee", true), None);
}

/// 004 l.413 (7.3d), l.496 (7.2.3) and l.181 (sequence of play 4): a melee in which no unit
/// routs goes on in the following phase, and its units cannot leave it. b (3,4) faces E and
/// r (4,4) faces W, neither with hits: one round cannot rout either. In Red's turn r cannot
/// move (not listed by `legal`, refused by play) and, its player ending the melee phase, the
/// second round is fought as the phase ends.
#[test]
fn a_melee_goes_on_and_its_units_cannot_leave() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n";
    let f = field(None, "", pieces, "");
    let mut o = with(to_blue_melee(), &[melee("b", "r")]);
    o.extend(ends("blue", 2)); // melee, rally
    o.extend(ends("red", 1)); // Red's command
    let list = legal_json(&f, &o, "red");
    assert_eq!(listed(&list, ends_phase), 1, "{list}");
    let of_r = |o: &Value| ["move", "face", "act"].iter().any(|k| o[k]["piece"] == "r");
    assert_eq!(listed(&list, of_r), 0, "{list}");
    refused(
        &f,
        &with(o.clone(), &[mv("red", "r", "[[3, 3]]")]),
        "r cannot move: it is in_melee",
    );
    o.extend(ends("red", 1)); // movement
    o.extend(ends("blue", 1)); // Blue's defensive fire
    o.extend(ends("red", 2)); // fire, melee: no melee ordered
    let out = ok(&f, &o);
    let owed = section(&out, "melee phase (red)");
    has(owed, "the melee of r and b goes on");
    has(owed, "melee of r (");
}

/// 004 l.413: when a melee ends its units are out of it at once. b2 and r are locked in
/// melee (set up so); b1 (3,4) melees r (4,4, two hits) and routs it. b1 advances, and b2,
/// with no enemy in melee touching it, is out of melee in the same phase — before, it kept
/// `in_melee` (no zone, no facing change, not to be fired at) until the turn ended.
#[test]
fn in_melee_is_cleared_when_the_melee_ends() {
    let pieces = "  - { id: b1, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: b2, side: blue, type: infantry, at: [3, 3], facing: SE, flags: [in_melee] }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, counters: { hits: 2 }, flags: [in_melee] }\n";
    let f = field(None, "", pieces, "");
    let o = with(to_blue_melee(), &[melee("b1", "r")]);
    let seed = seed_showing(&f, &o, &[], |p| p.flag("r", "routed", true).is_some());
    let out = f.ok(&o, &["--seed", &seed]);
    let phase = section(&out, "melee phase (blue)");
    has(phase, "b2 is no longer in_melee");
    has(phase, "b1 placed (3,4) → (4,4) (advanced after melee)");
}

/// 004 l.530 (5.1b): only a unit with a vacated hex in its front arc may advance into it
/// after melee. r (4,4) faces W: its front hexes are (3,3), (3,4), (3,5); b at (4,3) is on
/// its north-east flank. When b routs, r neither advances into (4,3) nor turns to it
/// (before: "r now faces NE", "r placed (4,4) → (4,3)").
#[test]
fn advance_after_melee_only_into_the_front_arc() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [4, 3], facing: SW, counters: { hits: 2 } }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n";
    let f = field(None, "", pieces, "");
    let o = with(to_blue_melee(), &[melee("b", "r")]);
    let seed = seed_showing(&f, &o, &[], |p| p.flag("b", "routed", true).is_some());
    let played = f.json(&o, &["--seed", &seed]);
    assert!(
        played.flag("b", "routed", true).is_some(),
        "{:?}",
        played.events
    );
    assert!(played.flag("r", "in_melee", false).is_some());
    assert_eq!(played.find("placed", "r", |_| true), None);
    assert_eq!(played.find("faced", "r", |_| true), None);
}

/// 004 l.489 (7.2.2): a unit that joined a melee locks the enemy from advancing should it
/// win. b2 (3,3) is locked in melee with r (4,4, facing W: b2 is in its north-west front
/// hex); b1 (3,4, two hits) melees r and is routed. r, the winner, stays: b2 holds it
/// (before: "r placed (4,4) → (3,4)").
#[test]
fn a_joiner_locks_the_winner() {
    let pieces = "  - { id: b1, side: blue, type: infantry, at: [3, 4], facing: E, counters: { hits: 2 } }\n  - { id: b2, side: blue, type: infantry, at: [3, 3], facing: SE, flags: [in_melee] }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, flags: [in_melee] }\n";
    let f = field(None, "", pieces, "");
    let o = with(to_blue_melee(), &[melee("b1", "r")]);
    let seed = seed_showing(&f, &o, &[], |p| p.flag("b1", "routed", true).is_some());
    let played = f.json(&o, &["--seed", &seed]);
    let held = "r is held in melee by b2 and cannot advance";
    assert!(
        played.events.iter().any(|e| e["text"] == held),
        "{:?}",
        played.events
    );
    let played = f.json(&o, &["--seed", &seed]);
    assert!(
        played.flag("b1", "routed", true).is_some(),
        "{:?}",
        played.events
    );
    assert_eq!(played.find("placed", "r", |_| true), None);
    assert_eq!(played.flag("r", "in_melee", false), None);
}

/// 004 l.405 (7.5.1): a routed unit may pass through a friend only if one of the two is not
/// cavalry. c1 (4,4, facing E, two hits) is routed by r's automatic point-blank fire from
/// (5,4) and turns about to the west: c2, cavalry, stands at (3,4), so c1 is destroyed (before:
/// it passed through, c2 taking a TE hit). With infantry at (3,4) it passes through as before.
#[test]
fn cavalry_may_not_rout_through_cavalry() {
    let pieces = "  - { id: c1, side: blue, type: cavalry, at: [4, 4], facing: E, counters: { hits: 2 } }\n  - { id: c2, side: blue, type: cavalry, at: [3, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: W }\n";
    let mut o = ends("blue", 3);
    o.push(act("red", "r", "fire", "c1"));
    let p = field(None, "", pieces, "").json(&o, &[]);
    assert_flag(&p, "c1", "routed", true);
    assert_removed(
        &p,
        "c1",
        "routed: cavalry cannot rout through cavalry (c2); destroyed",
    );
    let played = field(None, "", pieces, "").json(&o, &[]);
    assert!(
        played.find("removed", "c1", |_| true).is_some(),
        "{:?}",
        played.events
    );
    assert_eq!(
        played.find("counter_changed", "c2", |e| e["counter"] == "te"),
        None
    );
    let foot = pieces.replace(
        "id: c2, side: blue, type: cavalry",
        "id: c2, side: blue, type: infantry",
    );
    let p = field(None, "", &foot, "").json(&o, &[]);
    assert_counted(&p, "c2", "te", 0, 1);
    assert_placed(&p, "c1", (4, 4), (0, 4), "routed");
}

// --- Movement, command, reinforcements, guns -------------------------------------------------

/// 004 l.521 (5b): cavalry cannot enter a forest mounted, but may when it dismounted before
/// moving in. c, dismounted at (2,4) facing E (3 points on foot), walks into the forest at
/// (3,4) and (4,4) for 1 point a hex: 2 of its 3 (before: "path costs 5 by (3,4)").
/// Mounted, the same move is refused.
#[test]
fn dismounted_cavalry_may_enter_a_forest() {
    let map = ". . . . . . . . . .\n".repeat(4)
        + ". . . F F . . . . .\n"
        + &". . . . . . . . . .\n".repeat(3);
    let pieces =
        "  - { id: c, side: blue, type: cavalry, at: [2, 4], facing: E, mode: dismounted }\n";
    let f = field(Some(&map), "", pieces, "");
    let o = with(to_blue_movement(), &[mv("blue", "c", "[[3, 4], [4, 4]]")]);
    assert_moved(&f.json(&o, &[]), "c", &[(2, 4), (3, 4), (4, 4)], 2);
    let mounted = field(
        Some(&map),
        "",
        &pieces.replace(", mode: dismounted", ""),
        "",
    );
    refused(&mounted, &o, "refused");
}

/// 004 l.205 (sequence of play 8) and l.575 (6): a commander may be attached to a routed
/// unit to rally it — at the end of a turn (its side's rally phase), not in the turn it
/// routed, and upon attachment it is rallied and may turn to face. b, routed with three hits
/// since an earlier turn, faces W at (6,3) and routs 3 hexes to (3,3) in Blue's movement
/// phase; in Blue's rally phase General g leaves x and joins it: b is no longer routed, one
/// hit comes off (3 → 2), and it turns to face NE. In the command phase the refusal says
/// when a commander may join a routed unit (a phase that exists).
#[test]
fn a_commander_rallies_a_routed_unit_in_the_rally_phase() {
    let pieces = "  - { id: x, side: blue, type: infantry, at: [7, 6], facing: NE }\n  - { id: b, side: blue, type: infantry, at: [6, 3], facing: W, flags: [routed], counters: { hits: 3 } }\n  - { id: g, side: blue, type: commander, at: [7, 6], attached_to: x }\n  - { id: r, side: red, type: infantry, at: [5, 0], facing: SW }\n";
    let f = field(None, "", pieces, "settings: { break_point: 100 }");
    let attach = act("blue", "g", "attach", "b");
    refused(
        &f,
        &with(ends("blue", 1), std::slice::from_ref(&attach)),
        "a commander joins a routed unit only in the rally phase, at the end of a turn",
    );
    let mut o = ends("blue", 3);
    o.extend(ends("red", 1));
    o.extend(ends("blue", 2)); // fire, melee: now the rally phase
    let list = legal_json(&f, &o, "blue");
    assert!(
        listed(&list, |e| e["act"]["action"] == "attach"
            && e["act"]["target"] == "b")
            > 0,
        "{list}"
    );
    o.push(attach);
    o.push(face("blue", "b", "NE"));
    let p = f.json(&o, &[]);
    assert_placed(&p, "b", (6, 3), (3, 3), "routed");
    assert_flag(&p, "b", "routed", false);
    assert_counted(&p, "b", "hits", 3, 2);
    assert!(
        p.has("faced", "b", |e| e["facing"] == "NE"),
        "{:?}",
        p.events
    );
    // Not in the turn the unit routed (flag routed_now).
    let fresh = pieces.replace("flags: [routed]", "flags: [routed, routed_now]");
    refused(
        &field(None, "", &fresh, "settings: { break_point: 100 }"),
        &with(o[..o.len() - 1].to_vec(), &[]),
        "b routed this turn: a commander may join it in a later turn's rally phase",
    );
}

/// 004 l.170 (sequence of play 2): a side checks its integrity when all its commanders are
/// killed. g, Blue's only commander, is killed by r's red-star hit on b (two hexes: band
/// Color, rolled) in turn 1; losses are then 10% (one commander), under the break point of
/// 30, yet in Blue's turn-2 command phase every unit rolls (before: no check).
#[test]
fn integrity_is_checked_when_all_commanders_are_killed() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b }\n  - { id: b2, side: blue, type: infantry, at: [3, 6], facing: E }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: W }\n";
    let f = field(None, "", pieces, "");
    let mut o = whole_turn();
    o.insert(3, act("red", "r", "fire", "b"));
    o.extend(ends("blue", 2)); // turn 2: arrivals, Blue's command phase
    let seed = seed_showing(&f, &o, &[], |p| was_removed(p, "g"));
    let p = f.json(&o, &["--seed", &seed]);
    assert_removed(
        &p,
        "g",
        "commander killed by a red-star hit; the unit takes no hit",
    );
    let check = p.in_phase(2, "command", "blue");
    let why = "blue has no commander left on the field: integrity check";
    assert!(check.iter().any(|e| e["text"] == why), "{check:?}");
    let rolls: Vec<&Value> = (check.iter())
        .filter(|e| e["roll"]["chart"] == "integrity")
        .map(|e| &e["roll"]["purpose"])
        .collect();
    assert_eq!(rolls, ["integrity of b", "integrity of b2"], "{check:?}");
}

/// 004 l.514 (4b): a blocking force may make two full moves away from the arriving zone.
/// x, infantry (3 hexes a move), holds the entry place (9,3) on the east edge; Blue's
/// reinforcement cannot come on, x is marked blocking and withdraws 6 hexes. Hand-worked:
/// no hex can be more than 6 from (9,3) after 6 steps; of those that are 6 away the lowest
/// row is (5,0) (cube distance: q 8 → 5, r 3 → 0). Before, x went one hex into the edge
/// and was pinned.
#[test]
fn a_blocking_force_makes_two_full_moves_away() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 6], facing: E }\n  - { id: rc, side: blue, type: infantry, off_board: true, facing: W, counters: { arrives: 2, entry: 2 } }\n  - { id: x, side: red, type: infantry, at: [9, 3], facing: W }\n";
    let f = field_with_entries(pieces);
    let o = with(
        to_red_movement_turn_2(),
        &[order("red", "act: { piece: x, action: withdraw }")],
    );
    let p = f.json(&o, &[]);
    assert_flag(&p, "x", "blocking", true);
    assert_placed(
        &p,
        "x",
        (9, 3),
        (5, 0),
        "withdrew two moves from the arriving force",
    );
}

/// 004 l.514 (4b), our reading: an enemy unit on any hex of the entry place blocks the
/// arrival — the arriving side waits, the enemy is told and may withdraw. Entry place 1 is
/// (0,3) and (0,4); with a Red unit at (0,4), Blue's reinforcement does not come on at (0,3)
/// beside it (before: it did, with no notice).
#[test]
fn an_enemy_on_any_entry_hex_blocks_the_arrival() {
    let pieces = "  - { id: ra, side: blue, type: infantry, off_board: true, facing: E, counters: { arrives: 1, entry: 1 } }\n  - { id: b, side: blue, type: infantry, at: [5, 6], facing: E }\n  - { id: x, side: red, type: infantry, at: [0, 4], facing: E }\n";
    let played = field_with_entries(pieces).json(&ends("blue", 1), &[]);
    assert!(
        played.flag("x", "blocking", true).is_some(),
        "{:?}",
        played.events
    );
    assert_eq!(played.find("arrived", "ra", |_| true), None);
    let told = "blue: 1 unit is arriving at entry place 1, which the enemy holds; they wait a turn";
    assert!(played.announced(told), "{:?}", played.events);
}

/// 004 l.272 (pike and shot): guns once unlimbered cannot move again, but may be turned, at
/// one penalty. g, unlimbered at (2,4) facing SE under the optional rule, is neither pushed
/// nor limbered (before: both were allowed); it turns to E (one facing change) and fires at
/// r two hexes ahead at 1 CP: band 0 (automatic) pushed to band 1 (Color).
#[test]
fn pike_and_shot_guns_cannot_move_once_unlimbered() {
    let pieces = "  - { id: g, side: blue, type: artillery, at: [2, 4], facing: SE, mode: unlimbered }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n";
    let f = field(None, "", pieces, "options: { pike_and_shot: true }");
    refused(
        &f,
        &with(to_blue_movement(), &[mv("blue", "g", "[[2, 5]]")]),
        "g cannot move: it is planted",
    );
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[act("blue", "g", "limber", "g").replace(", target: g", "")],
        ),
        "g is planted: pike-and-shot guns cannot move once unlimbered",
    );
    let list = legal_json(&f, &to_blue_movement(), "blue");
    assert_eq!(list["phase"], "movement", "{list}");
    assert!(listed(&list, |o| o["face"]["piece"] == "g") > 0, "{list}");
    assert_eq!(listed(&list, |o| o["move"].is_object()), 0, "{list}");
    assert_eq!(
        listed(&list, |o| o["act"]["action"] == "limber"),
        0,
        "{list}"
    );
    let mut o = with(to_blue_movement(), &[face("blue", "g", "E")]);
    o.extend(ends("blue", 1));
    o.extend(ends("red", 1));
    o.push(fire("g", "r"));
    let p = f.json(&o, &[]);
    let roll = roll_on(&p, "fire_artillery_b");
    assert_eq!(modifiers(roll), [("planted guns turned".to_owned(), 1)]);
    assert_eq!(roll["band"], "Color", "{roll}");
}

/// 004 l.434 (artillery section, woods): guns may be placed in woods by road, or entering
/// from a clear hex side; not from woods into woods. g, limbered (2 hexes) at (2,4) facing E,
/// enters the wood at (3,4) from the clear hex (2,4): `reach` lists it and play accepts it
/// (before, reach listed no woods hex). Going on to (4,4), woods to woods, is refused in the
/// ruleset's terms (the hook refuses the step), and `reach` does not list it either: the `move_cost` hook sees the terrain
/// left (before, reach listed (4,4) and only play refused it). From (3,4) the guns have one
/// point left, so the only woods-to-woods step they could pay for is that one.
#[test]
fn guns_enter_woods_from_a_clear_hex_side() {
    let map = ". . . . . . . . . .\n".repeat(4)
        + ". . . F F . . . . .\n"
        + &". . . . . . . . . .\n".repeat(3);
    let pieces =
        "  - { id: g, side: blue, type: artillery, at: [2, 4], facing: E, mode: limbered }\n";
    let f = field(Some(&map), "", pieces, "");
    let cells = f.reach(&to_blue_movement(), "g").expect("reach");
    assert!(cells.iter().any(|(c, _, _)| c == "[3, 4]"), "{cells:?}");
    // 004 l.434: one woods hex deep and no further.
    assert!(!cells.iter().any(|(c, _, _)| c == "[4, 4]"), "{cells:?}");
    let p = f.json(
        &with(to_blue_movement(), &[mv("blue", "g", "[[3, 4]]")]),
        &[],
    );
    assert_moved(&p, "g", &[(2, 4), (3, 4)], 1);
    refused(
        &f,
        &with(to_blue_movement(), &[mv("blue", "g", "[[3, 4], [4, 4]]")]),
        "guns enter woods only from a clear hex side, and never move from woods to woods (Artillery, Woods)",
    );
    // Every cell reach lists is a move play accepts.
    reach_agrees_with_play(&f, &to_blue_movement(), "g", (2, 4));
}

/// 004 l.123 (hand-out, Movement): cavalry may change facing twice, at the beginning,
/// middle or end of its move; other units once, at the beginning or end. c (cavalry, 5
/// points, facing E) at (2,4) rides E to (3,4) and (4,4), turns and goes on SW to (3,5)
/// and (3,6): four steps and one facing change, 5 points, the change counted
/// (`face_changes 0 → 1`). Before, the SW step was refused ("change facing first"), and a
/// face order after the first move left it unable to move on ("c has already moved").
/// Twice in the middle: (3,4), then SW to (2,5) (a turn), then NW to (2,4) (another): 3
/// steps and 2 changes, 5 points. After a face order first, the second change in the middle
/// is one too many. Infantry (i, 3 points, at (2,1) facing E) may not turn in the middle: E
/// to (3,1), (4,1), then SW to (4,2) is refused. `reach` lists the cells such moves reach, and play accepts them.
#[test]
fn cavalry_changes_facing_in_the_middle_of_its_move() {
    let pieces = "  - { id: c, side: blue, type: cavalry, at: [2, 4], facing: E }\n  - { id: i, side: blue, type: infantry, at: [2, 1], facing: E }\n";
    let f = field(None, "", pieces, "");
    let p = f.json(
        &with(
            to_blue_movement(),
            &[mv("blue", "c", "[[3, 4], [4, 4], [3, 5], [3, 6]]")],
        ),
        &[],
    );
    assert_moved(&p, "c", &[(2, 4), (3, 4), (4, 4), (3, 5), (3, 6)], 5);
    assert_counted(&p, "c", "face_changes", 0, 1);
    let p = f.json(
        &with(
            to_blue_movement(),
            &[mv("blue", "c", "[[3, 4], [2, 5], [2, 4]]")],
        ),
        &[],
    );
    assert_moved(&p, "c", &[(2, 4), (3, 4), (2, 5), (2, 4)], 5);
    assert_counted(&p, "c", "face_changes", 1, 2);
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[
                face("blue", "c", "NE"),
                mv("blue", "c", "[[3, 4], [2, 5], [2, 4]]"),
            ],
        ),
        "c steps only into the cells ahead of it (facing SW); (2,4) is to its side, and it has no facing change left this turn (at most 2)",
    );
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[mv("blue", "i", "[[3, 1], [4, 1], [4, 2]]")],
        ),
        "i steps only into the cells ahead of it (facing E); (4,2) is to its side: change facing first",
    );
    // Every cell reach lists for the cavalry is a move play accepts along its path.
    let cells = reach_agrees_with_play(&f, &to_blue_movement(), "c", (2, 4));
    assert!(cells > 0);
}
