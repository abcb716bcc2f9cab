//! Hex Command melee (7.2-7.4): results on the right unit, flank melee, guns and
//! skirmishers in melee, cover degrading round by round.

use super::*;

/// 004 7.3 and the melee chart: the Stronger unit (here the attacker with a commander) and
/// the four results, applied to the right unit.
#[test]
fn melee_results_fall_on_the_right_unit() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b, counters: { cvs_c: 1 } }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n";
    let f = field(None, "", pieces, "");
    let orders = with(to_blue_melee(), &[melee("b", "r")]);
    over_seeds_json(
        &f,
        &orders,
        &[
            "both hit and defender TE",
            "attacker hit",
            "defender hit",
            "defender TE",
        ],
        |outcome, played| {
            let melee = played
                .events
                .iter()
                .find(|e| e["roll"]["chart"] == "melee")
                .expect("a melee roll");
            assert_eq!(melee["roll"]["purpose"], "melee of b (3) against r (2)");
            let to_one = |who: &str, counter: &str| {
                played
                    .find("counter_changed", who, |e| {
                        e["counter"] == counter && e["to"] == 1
                    })
                    .is_some()
            };
            let hits = |who: &str| counter_changed(played, who, "hits");
            match outcome {
                "both hit and defender TE" => {
                    assert!(to_one("b", "hits") && to_one("r", "hits") && to_one("r", "te"));
                }
                "attacker hit" => assert!(to_one("b", "hits") && !hits("r")),
                "defender hit" => assert!(to_one("r", "hits") && !hits("b")),
                "defender TE" => assert!(to_one("r", "te") && !hits("b") && !hits("r")),
                other => panic!("unexpected {other}"),
            }
            // Both are now locked in melee (and so have no zone of control).
            assert!(played.flag("b", "in_melee", true).is_some());
        },
    );
}

/// 004 melee chart notes: a unit meleed in its flank or rear takes its results doubled.
#[test]
fn flank_melee_doubles_the_results() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: NE }\n";
    let f = field(None, "", pieces, "");
    let orders = with(to_blue_melee(), &[melee("b", "r")]);
    over_seeds_json(
        &f,
        &orders,
        &["defender hit", "defender TE"],
        |outcome, played| {
            // Flank gives the attacker +1: 3 against 2.
            assert_eq!(
                roll_on(played, "melee")["purpose"],
                "melee of b (3) against r (2)"
            );
            match outcome {
                "defender hit" => assert_counted(played, "r", "hits", 0, 2),
                "defender TE" => assert_counted(played, "r", "te", 1, 2),
                "both hit and defender TE" => {
                    assert_counted(played, "r", "hits", 0, 2);
                    assert_counted(played, "r", "te", 1, 2);
                }
                _ => {}
            }
        },
    );
}

/// 004 3.1 and 7.2: artillery meleed in its front arc fires grapeshot once (smoothbore:
/// automatic), then the crew abandons the guns; skirmishers do not melee.
#[test]
fn guns_and_skirmishers_in_melee() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: red, type: artillery, at: [4, 4], facing: W, mode: unlimbered }\n  - { id: k, side: blue, type: infantry, at: [3, 6], facing: E }\n  - { id: s, side: red, type: skirmishers, at: [4, 6], facing: W }\n";
    let f = field(None, "", pieces, "");
    let played = f.json(
        &with(to_blue_melee(), &[melee("b", "g"), melee("k", "s")]),
        &[],
    );
    let grape = roll_on(&played, "grapeshot");
    assert_eq!(
        (&grape["band"], &grape["outcome"]),
        (&"automatic".into(), &"hit".into())
    );
    assert_counted(&played, "b", "hits", 0, 1);
    assert_removed(&played, "g", "crew abandoned the guns to b");
    assert_removed(&played, "s", "skirmishers contacted in melee");
}

/// 004 7.3i: cover in melee degrades one level each round (forts +2, +1, 0).
#[test]
fn melee_cover_degrades_round_by_round() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . T . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    for (rounds, value) in [(0, 4), (1, 3), (2, 2), (3, 2)] {
        let pieces = format!(
            "  - {{ id: b, side: blue, type: infantry, at: [3, 4], facing: E }}\n  - {{ id: r, side: red, type: infantry, at: [4, 4], facing: W, counters: {{ melee_rounds: {rounds} }}, flags: [in_melee] }}\n"
        );
        let f = field(Some(map), "", &pieces, "");
        let played = f.json(&with(to_blue_melee(), &[melee("b", "r")]), &[]);
        let purpose = &roll_on(&played, "melee")["purpose"];
        assert_eq!(*purpose, format!("melee of b (2) against r ({value})"));
    }
}

// --- Commanders, rally and the sequence ----------------------------------------------
