//! The fourth fresh outside audit of Hex Command (docs/audits/hex-command.md, "Fourth outside
//! audit"): each finding worked by hand against seed 004 (line numbers of `004_*.txt`), on
//! the audit's own positions in tests/fixtures/audits/hex-command/fourth/ (the initiative
//! roll and the auditor's seeds kept).

use super::*;
use crate::util::{json_of, play_json_in};
use field::counted;

const DIR: &str = "tests/fixtures/audits/hex-command/fourth";

fn at(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

/// Blue's melee phase of turn 1 in `play --json` with `seed`, and whether the commander
/// `chief` was removed by the red star there while `unit` took no hit in it.
fn star_kills(scenario: &str, seed: &str, chief: &str, unit: &str) -> (Played, bool) {
    let p = play_json_in(
        &root().join(DIR),
        scenario,
        "p32.orders.yaml",
        &["--seed", seed],
    );
    let melee = p.in_phase(1, "melee", "blue");
    let why = "commander killed by a red-star hit; the unit takes no hit";
    let (chief, unit) = (p.piece(chief), p.piece(unit));
    let killed = (melee.iter())
        .any(|e| e["event"] == "removed" && e["piece"] == chief && e["reason"] == why);
    let hit = (melee.iter())
        .any(|e| e["event"] == "counter_changed" && e["piece"] == unit && e["counter"] == "hits");
    let outcome = killed && !hit;
    (p, outcome)
}

/// 004 l.242 (2e: attached commanders "are killed when CnC is rolled (no hit is applied to
/// the unit he is attached to)"), l.309 (9g: any casualty hit of red H) and the chart (l.20:
/// "Cmd Kill: Red H. No other hit applied.") — in melee as in fire. p32: b (2) melees r (2,
/// +1 for k attached: 3) in front; the chart's score is 4 × (2 − 3) plus the attacker's red
/// face (1) and the defender's (2). Seed 12: the attacker's cube shows the red star, the
/// defender's blue: score −3, defender hit; that hit is the red star's, so k dies and r
/// takes no hit. Seed 20: both red (the defender's plain red): −1, both hit and attacker TE;
/// k dies in place of r's hit, b's hit and TE stand. Before: `r hits 0 → 1`, k stayed.
#[test]
fn a_red_star_in_melee_kills_the_attached_commander_not_the_unit() {
    for (seed, both) in [("12", false), ("20", true)] {
        // k removed with the rule's reason on the attacker's red star, no hit on r.
        let (p, killed) = star_kills("p32.yaml", seed, "k", "r");
        assert!(killed, "seed {seed}: {:?}", p.events);
        assert_eq!(
            roll_on(&p, "melee")["dice"][0]["face"],
            "red star",
            "seed {seed}"
        );
        if both {
            assert_counted(&p, "b", "hits", 0, 1);
            assert_counted(&p, "b", "te", 0, 1);
        }
    }
}

/// The same rule the other way (004 l.242, l.309, chart l.20): the defender's red face is
/// the attacker's casualty hit. p32-attacker is p32 with kb attached to b (3 against 3,
/// score 4 × 0 plus the red faces). Seed 24: the attacker's cube blue, the defender's the
/// red star: score 2, attacker hit and defender TE; kb dies in place of b's hit, r's TE
/// hit stands. Before: `b hits 0 → 1`, kb stayed.
#[test]
fn a_defenders_red_star_kills_the_attackers_commander() {
    let (p, killed) = star_kills("p32-attacker.yaml", "24", "kb", "b");
    assert!(killed, "{:?}", p.events);
    assert!(counted(&p, "r", "te", Some((0, 1))), "{:?}", p.events);
    let dice = &roll_on(&p, "melee")["dice"];
    assert_eq!(
        (&dice[0]["face"], &dice[1]["face"]),
        (&"blue".into(), &"red star".into())
    );
}

/// 004 l.583 (7e: out-of-arc fire at point blank is allowed "unless a firer has a target in
/// primary arc in the same range band") and l.584 (7f: the closest target in arc first).
/// p09d: b at (5,5) faces E; r4 at (6,5) stands in its front arc at one hex (band 1), r1 at
/// (5,6) on its flank at one hex (band 1 too). Fire at r1 is refused in the rule's words and
/// not listed; r4 is. p09e (r5 two hexes off in front, band 2) still lets b fire at r1.
/// Before: `legal` listed fire at r1 and `play` rolled it (`+1 out of arc at point blank`).
#[test]
fn no_out_of_arc_fire_while_a_target_is_in_arc_in_the_same_band() {
    let legal = json_of(&at(&[
        "legal",
        "p09d.yaml",
        "--orders",
        "fire4.orders.yaml",
        "--side",
        "blue",
        "--json",
    ]));
    let fire_at = |target: &str| {
        (legal["orders"].as_array().into_iter().flatten())
            .any(|o| o["act"]["action"] == "fire" && o["act"]["target"] == target)
    };
    assert!(fire_at("r4") && !fire_at("r1"), "{legal}");
    let out = at(&["play", "p09d.yaml", "--orders", "p09d.orders.yaml"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    // prose: the refusal is in the rule's words.
    has(
        &out.stderr,
        "b has r4 in its front arc in the same range band: it may fire out of arc at r1 only when no target is in its primary arc in that band (7e)",
    );
    let p = play_json_in(&root().join(DIR), "p09e.yaml", "p09e.orders.yaml", &[]);
    assert!(
        modified(&p, "out of arc at point blank", 1),
        "{:?}",
        p.events
    );
}

/// Stated readings (notes, "Fourth fresh audit"): 7.3f (l.415) 'Fatigued/Disordered' is the
/// fatigued marker only, so TE hits short of it cost no zone and no fire penalty; 6 (l.565)
/// with the sequence's 'Place/Move Commanders' (l.183): attaching is the placing, a commander
/// moved off gives up his influence; 7.5 (l.399) the enemy 'firing arc or movement arc' is
/// its three front hexes; skirmishers swept and mounted infantry routed on contact are no
/// melee won, so no advance (7.4).
#[test]
fn the_fourth_audits_readings_are_stated() {
    let rules = std::fs::read_to_string(root().join(RULESET)).expect("ruleset");
    for reading in [
        "a unit with one or two TE hits is not disordered",
        "moving off only gives it up",
        "the three front hexes of an enemy unit that has a zone",
        "fight no melee round, so no melee is won",
    ] {
        assert!(rules.contains(reading), "{reading}");
    }
}
