//! The fifth fresh outside audit of Hex Command (docs/audits/hex-command.md, "Fifth outside
//! audit"): each finding worked by hand against seed 004 (line numbers of `004_*.txt`), on
//! the audit's own positions in tests/fixtures/audits/hex-command/fifth/ (the initiative
//! roll and the auditor's seeds kept: seed 7 gives Blue the first turn).

use super::*;
use crate::util::{Played, json_of, play_json_in};
use field::counted;
use serde_json::json;

const DIR: &str = "tests/fixtures/audits/hex-command/fifth";

fn at(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

/// `play SCENARIO --orders ORDERS --json ARGS` on the fifth audit's positions: the events.
fn events(scenario: &str, orders: &str, args: &[&str]) -> Played {
    play_json_in(&root().join(DIR), scenario, orders, args)
}

/// The purposes of the melee rolls in the events (`melee of a (2) against t (4)`: each
/// side's melee value as the roll read it), in order.
fn melees(p: &Played) -> Vec<&str> {
    (p.events.iter())
        .filter(|e| e["roll"]["chart"] == "melee")
        .filter_map(|e| e["roll"]["purpose"].as_str())
        .collect()
}

/// The first fire roll in the events.
fn fire_roll(p: &Played) -> &Value {
    (p.events.iter())
        .map(|e| &e["roll"])
        .find(|r| r["chart"].as_str().is_some_and(|c| c.starts_with("fire_")))
        .unwrap_or_else(|| panic!("no fire roll in {:?}", p.events))
}

fn played(args: &[&str]) -> String {
    let out = at(args);
    assert_eq!(out.code, 0, "{args:?}: {}{}", out.stdout, out.stderr);
    out.stdout
}

/// 004 l.28-29 (the melee chart: "Red (or 4-6)", "Blue (or 1-3)"): with a d6 each side's
/// die shows red 3 times in 6. Two units of value 2: the score is 4 × (2 − 2) plus the
/// attacker's red (1) and the defender's (2). Both red (1/2 × 1/2): 3, both hit, 1/4; the
/// defender's alone: 2, attacker hit and defender TE, 1/4; the attacker's alone: 1, defender
/// hit and attacker TE, 1/4; neither: 0, both TE, 1/4. Before: the fire stand-in's faces
/// (l.104: 1-3 red and 6 the red star, red 2/3) gave "both hit" 4/9.
#[test]
fn the_d6_melee_reads_four_to_six_as_red() {
    let d6 = "rulesets/hex-command-d6.yaml";
    let sets = ["attacker=2".to_owned(), "defender=2".to_owned()];
    for outcome in [
        "both hit",
        "attacker hit and defender TE",
        "defender hit and attacker TE",
        "both TE",
    ] {
        assert_eq!(odds(d6, "melee", &sets, outcome), "1/4", "{outcome}");
    }
    // Fire keeps l.104's reading: 1-3 and the 6 are Color (2/3).
    assert_eq!(
        odds(d6, "fire_small_b", &["band=1".to_owned()], "hit"),
        "2/3"
    );
}

/// 004 l.424 (forts "benefit the owner" with +2 the first round, +1 the next) and l.418
/// (cover degrades one a round). mdeg2: a (infantry, 2) melees t (infantry, 2) in a fort
/// in Blue's melee phase: t is 2 + 2 = 4. The melee goes on in Red's melee phase, t
/// declaring it: t is 2, less the hit it took (1), plus the fort's second-round +1 = 2;
/// a is 2. Before: t had no cover as the side declaring the round, `melee of t (1)`.
#[test]
fn a_fort_helps_its_holder_when_the_melee_goes_on_in_its_own_phase() {
    let p = events("mdeg2.yaml", "o_mel3r.yaml", &[]);
    assert_eq!(
        melees(&p)[..2],
        [
            "melee of a (2) against t (4)",
            "melee of t (2) against a (2)"
        ]
    );
}

/// 004 l.216 ("behind a fence wall" is a one-point modifier) and l.37 (cover: 1 CB in
/// melee). mw: a (2) melees t (2) across the wall on their common hex side: t is behind
/// it, 2 + 1 = 3. Before: `melee of a (2) against t (2)`.
#[test]
fn a_wall_between_them_covers_the_defender_in_melee() {
    let p = events("mw.yaml", "o_mel.yaml", &[]);
    assert_eq!(melees(&p), ["melee of a (2) against t (3)"]);
}

/// 004 l.216 and l.37 (cover: 1 CP in fire). fw2: a fires at t next to it across the wall
/// on their common hex side: point blank is band 0 (automatic), one CP for the target
/// behind the wall makes it band 1 (Color). Before: the wall was read as the firer's own
/// and t was hit automatically.
#[test]
fn a_target_behind_a_wall_at_point_blank_is_in_cover() {
    let p = events("fw2.yaml", "o_fire1.yaml", &[]);
    let roll = fire_roll(&p);
    assert_eq!(modifiers(roll), [("target in cover".to_owned(), 1)]);
    assert_eq!(roll["band"], "Color", "{roll}");
}

/// 004 l.313 (a commander's capabilities may be kept from the other players) and l.256
/// (supply is on each unit's roster): the CVS traits and supply are `private_counters`.
/// vis: red's commander g (C 2, T 4, I 4) is attached to t, which blue sees at 3 hexes.
/// Blue's view, text and JSON alike, names no CVS trait or supply of a red piece, and the
/// JSON identity shows them as 0; red's own view keeps them. With `random_cvs` the CVS
/// table's rolls are secret and blue's log has no change of g's traits. Before: blue's
/// JSON listed `cvs_c: 2`, `cvs_t: 4`, `cvs_i: 4` under g's names and identity.
#[test]
fn an_enemy_commanders_traits_are_not_shown() {
    let rules = std::fs::read_to_string(root().join(RULESET)).expect("ruleset");
    let private = ["cvs_i", "cvs_c", "cvs_m", "cvs_t", "cvs_a", "supply"];
    for scenario in ["vis.yaml", "vis-random.yaml"] {
        let json = played(&["view", scenario, "--side", "blue", "--json"]);
        let v: Value = serde_json::from_str(&json).expect("view json");
        let enemy = v["view"]["enemy"].as_array().expect("enemy");
        assert!(
            enemy.iter().any(|e| e["names"]["kind"] == "commander"),
            "{json}"
        );
        let indices: Vec<usize> = private
            .iter()
            .map(|c| {
                let at = rules.find("\ncounters:\n").expect("counters");
                rules[at..]
                    .lines()
                    .skip(2)
                    .filter(|l| l.starts_with("  ") && !l.starts_with("  #") && l.contains(": {"))
                    .position(|l| l.trim_start().starts_with(&format!("{c}:")))
                    .unwrap_or_else(|| panic!("no counter {c}"))
            })
            .collect();
        for e in enemy {
            if let Some(names) = e["names"]["counters"].as_object() {
                for c in private {
                    assert!(!names.contains_key(c), "{c} shown: {e}");
                }
            }
            if let Some(counters) = e["identity"]["counters"].as_array() {
                for &i in &indices {
                    assert_eq!(counters[i], 0, "counter {i} shown: {e}");
                }
            }
        }
        for event in v["events"].as_array().expect("events") {
            assert!(!event.to_string().contains("cvs_"), "{event}");
        }
        let text = played(&["view", scenario, "--side", "blue"]);
        // prose: the JSON above is the check; the text view's words name no trait either,
        // beside g's line.
        lacks(&text, "real, commander, formed mode", "cvs");
        let own = played(&["view", scenario, "--side", "red", "--json"]);
        assert!(
            own.contains("\"cvs_c\""),
            "red's JSON view keeps g's traits: {own}"
        );
    }
    let red = played(&["view", "vis.yaml", "--side", "red"]);
    // prose: red's text view lists g's traits in its words.
    has(&red, "[cvs_i 4, cvs_c 2, cvs_t 4");
}

/// Charts page, melee modifiers ("at least 1 friend past melee plane", 1 CB). a (3,4) melees
/// t (4,4) in front. plane: blue's n at (3,5) touches t but also a: it stands level with
/// the line where a and t meet, so a is 2 against t's 2. plane-past: n at (4,5) touches t
/// and not a, beyond that line: a is 2 + 1 = 3. Before: plane gave a (3) too.
#[test]
fn only_a_friend_past_the_melee_plane_helps_the_attacker() {
    let p = events("plane.yaml", "o_plane.yaml", &[]);
    assert_eq!(melees(&p), ["melee of a (2) against t (2)"]);
    let p = events("plane-past.yaml", "o_plane.yaml", &[]);
    assert_eq!(melees(&p), ["melee of a (3) against t (2)"]);
}

/// 004 l.432 (guns are pushed over "open, clear, flat terrain and NO slopes"). push: g2
/// stands unlimbered on the hill (3,8); its front hexes are the hill (4,8) and the clear
/// (3,7) and (3,9) below it: no push is listed, and a push down to (3,7) is refused in the
/// rule's words. g1 on flat ground still pushes to (4,4) and (4,6), not up the hill (4,5).
/// Before: `reach` listed (3,7) and (3,9) for g2.
#[test]
fn guns_are_not_pushed_down_a_slope() {
    let reach = json_of(&at(&["reach", "--unit", "g2", "push.yaml", "--json"]));
    assert_eq!(reach["reach"], json!([]), "{reach}");
    let reach = json_of(&at(&["reach", "--unit", "g1", "push.yaml", "--json"]));
    let cells: Vec<&Value> = (reach["reach"].as_array().into_iter().flatten())
        .map(|r| &r["cell"])
        .collect();
    assert_eq!(cells, [&json!([4, 4]), &json!([4, 6])], "{reach}");
    let out = at(&["play", "push.yaml", "--orders", "o_push_down.yaml"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    // prose: the refusal is in the rule's words.
    has(
        &out.stderr,
        "refused: guns cannot be pushed down a slope: a push is over open, clear, flat ground with no slopes (Artillery, Push Move)",
    );
}

/// 004 l.216 ("being higher" is one of the one-point modifiers), read as the target on
/// higher ground. fhill: a (2,5) fires at t (4,5) on a hill, 2 hexes: band 1 (Color), 1 CP
/// → band 2 (Code). fhill2: a on the hill fires down at t: band 1, no bonus for the firer.
/// Before: fhill fired at band 1.
#[test]
fn a_target_on_higher_ground_is_one_penalty() {
    let p = events("fhill.yaml", "o_fire1.yaml", &[]);
    let roll = fire_roll(&p);
    assert_eq!(modifiers(roll), [("target higher".to_owned(), 1)]);
    assert_eq!(roll["band"], "Code", "{roll}");
    let p = events("fhill2.yaml", "o_fire1.yaml", &[]);
    let roll = fire_roll(&p);
    assert_eq!(modifiers(roll), []);
    assert_eq!(roll["band"], "Color", "{roll}");
}

/// Readings the notes state, pinned. fkill1 (l.309: the commander is hit on "a casualty hit
/// of RED H"): a fires at t at point blank, band 0, an automatic hit, no cube: t takes
/// the hit and g, attached, is not at risk. sim1 seed 2 (l.120 and 7.5): t's defensive
/// fire gives a its third hit, a routs at once and its answering fire is refused. hidfire
/// (3.1): a fires at the unspotted marker #1 in buildings (cover 1 CP). msk2 (7.2, l.475):
/// skirmishers touched by infantry are removed; with `skirmishers_rout` they rout.
#[test]
fn the_fifth_audits_readings_are_stated_and_played() {
    // An automatic hit, no cube: t takes the hit, g attached to it is not removed.
    let p = events("fkill1.yaml", "o_fire1.yaml", &[]);
    let roll = fire_roll(&p);
    assert_eq!(
        (&roll["band"], &roll["outcome"]),
        (&json!("automatic"), &json!("hit"))
    );
    assert_eq!(roll["dice"], json!([]), "{roll}");
    assert!(counted(&p, "t", "hits", Some((0, 1))), "{:?}", p.events);
    assert!(!p.has("removed", "g", |_| true), "{:?}", p.events);
    let p = events("sim1.yaml", "o_sim.yaml", &["--seed", "2"]);
    assert_eq!(p.code, 1, "{:?}", p.events);
    assert_placed(&p, "a", (4, 5), (1, 5), "routed");
    // prose: the refusal names why a may not answer.
    let refused = p.refused.as_deref().unwrap_or_default();
    assert!(
        refused.ends_with("refused: a cannot fire while routed"),
        "{refused}"
    );
    let p = events("hidfire.yaml", "o_hf.yaml", &["--side", "blue"]);
    assert!(p.has("acted", "a", |e| e["action"] == "fire"
        && e["target"] == p.piece("#1")));
    // Eleventh round: a roll naming an unidentified marker reaches the firer with its
    // modifiers netted (reaudit11.rs): the cover counted is still 1.
    let netted = modifiers(fire_roll(&p));
    assert_eq!(netted.len(), 1, "{netted:?}");
    assert_eq!(netted[0].1, 1, "{netted:?}");
    // Since the seventh round (reaudit7.rs) a's move next to t sweeps them off at once, so
    // the melee order that follows finds no t.
    let p = events("msk2.yaml", "o_mel.yaml", &[]);
    assert_eq!(p.code, 1, "{:?}", p.events);
    assert_removed(&p, "t", "skirmishers touched by a next to them: removed");
    let p = events(
        "msk2.yaml",
        "o_mel.yaml",
        &["--option", "skirmishers_rout=on"],
    );
    assert_placed(&p, "t", (5, 5), (8, 5), "routed");
    let rules = std::fs::read_to_string(root().join(RULESET)).expect("ruleset");
    for reading in [
        "an automatic hit rolls no cube, so there is no red star",
        "routs at once (7.5 'immediately', as in melee)",
        "fire at it is allowed under the ordinary line and cover rules",
        "no rule of 004 reads Morale (M)",
        "Initiative is the number of order changes a commander may try",
        "the firer's height gives no bonus",
    ] {
        assert!(rules.contains(reading), "{reading}");
    }
    let d6 = std::fs::read_to_string(root().join("rulesets/hex-command-d6.yaml")).expect("d6");
    assert!(d6.contains("the two d6 stand-ins of 004 disagree"));
}

/// 004 l.104 (the d6's 6 is Code'n Color) with chart l.20 ("Cmd Kill: Red H"): the d6
/// overlay's 6 is the red star. fkill-d6: a fires at t, with g attached, 2 hexes off
/// (band 1, Color). Seed 6 rolls the 6: a hit on the red star, so g dies and t takes no hit.
/// Before: the overlay's faces were labelled "1".."6", none of them "red star", so no
/// commander ever died to a d6.
#[test]
fn the_d6_six_kills_an_attached_commander() {
    // g is removed for the red star and t takes no hit.
    let p = play_json_in(
        &root().join(DIR),
        "fkill-d6.yaml",
        "o_fire1.yaml",
        &["--seed", "6"],
    );
    let why = "commander killed by a red-star hit; the unit takes no hit";
    assert!(
        p.has("removed", "g", |e| e["reason"] == why),
        "{:?}",
        p.events
    );
    assert!(!counted(&p, "t", "hits", None), "{:?}", p.events);
    let roll = fire_roll(&p);
    assert_eq!(
        (&roll["dice"][0]["face"], &roll["band"], &roll["outcome"]),
        (&json!("6 red star"), &json!("Color"), &json!("hit"))
    );
}
