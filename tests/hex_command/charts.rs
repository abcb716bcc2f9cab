//! Hex Command's charts as exact odds: the fire chart for every band, class, penalty and
//! bonus, fire modifiers, the d6 stand-in overlay, the melee table, the CVS test, decision
//! failures and CVS table, integrity, grapeshot and entry charts.

use super::*;

/// 004 charts page, "Firing": for each weapon class, every base band, with 0, 1 and 2
/// combat penalties and 0, 1 and 2 combat bonuses (and 3 bonuses, which count as 2), the
/// needed band moves one step per CP toward impossible and one per CB toward automatic,
/// and the hit odds are the cube's for that band.
#[test]
fn fire_chart_hit_odds_for_every_band_class_penalty_and_bonus() {
    // (chart, its bands best first): rifled artillery and class C have no automatic band.
    let charts: [(&str, &[&str]); 6] = [
        (
            "fire_small_a",
            &["automatic", "Color", "Code", "Code'n Color", "out of reach"],
        ),
        (
            "fire_small_b",
            &["automatic", "Color", "Code", "Code'n Color", "out of reach"],
        ),
        (
            "fire_small_c",
            &["Color", "Code", "Code'n Color", "out of reach"],
        ),
        (
            "fire_carbine",
            &["automatic", "Color", "Code", "out of reach"],
        ),
        (
            "fire_artillery_b",
            &["automatic", "Color", "Code", "Code'n Color", "out of reach"],
        ),
        (
            "fire_artillery_a",
            &["Color", "Code", "Code'n Color", "out of reach"],
        ),
    ];
    let charts_c = (
        "fire_artillery_c",
        ["Color", "Code", "Code'n Color", "out of reach"],
    );
    let mut all: Vec<(&str, Vec<&str>)> = charts.iter().map(|(c, b)| (*c, b.to_vec())).collect();
    all.push((charts_c.0, charts_c.1.to_vec()));
    for (chart, bands) in all {
        let last = bands.len() as i32 - 1;
        for base in 0..=last {
            for cp in 0..=2 {
                for cb in 0..=3 {
                    // Penalties: hits on the firer. Bonuses: flank, commander (C 1), trained.
                    let mut sets = vec![format!("band={base}"), format!("firer_hits={cp}")];
                    if cb >= 1 {
                        sets.push("flank=1".into());
                    }
                    if cb >= 2 {
                        sets.push("command=1".into());
                    }
                    if cb >= 3 {
                        sets.push("trained=1".into());
                    }
                    let want = (base + cp - cb.min(2)).clamp(0, last) as usize;
                    let want_band = bands[want];
                    assert_eq!(
                        band_name(chart, &sets),
                        want_band,
                        "{chart} base {base} with {cp} CP and {cb} CB"
                    );
                    assert_eq!(
                        odds(RULESET, chart, &sets, "hit"),
                        cube_odds(want_band),
                        "{chart} base {base} with {cp} CP and {cb} CB"
                    );
                }
            }
        }
    }
}

/// 004 "Modifiers": each hit on the firer, each level of cover, partial obstruction, a
/// fatigued firer, out-of-arc point-blank fire and moving-and-unlimbering are one CP each;
/// flank/rear, the commander's C value and training are one CB each, at most two together.
#[test]
fn every_fire_modifier_moves_one_band() {
    let base = "band=2".to_owned(); // Code
    for penalty in [
        "firer_hits=1",
        "cover=1",
        "obstructed=1",
        "fatigued=1",
        "out_of_arc=1",
        "unlimbered_after_move=1",
    ] {
        assert_eq!(
            band_name("fire_small_b", &[base.clone(), penalty.into()]),
            "Code'n Color",
            "{penalty}"
        );
    }
    assert_eq!(
        band_name("fire_small_b", &[base.clone(), "cover=2".into()]),
        "out of reach"
    );
    for bonus in ["flank=1", "command=1", "trained=1"] {
        assert_eq!(
            band_name("fire_small_b", &[base.clone(), bonus.into()]),
            "Color",
            "{bonus}"
        );
    }
    // A C-value 2 commander alone gives both bonuses; with flank too it is still two.
    assert_eq!(
        band_name("fire_small_b", &[base.clone(), "command=2".into()]),
        "automatic"
    );
    let cnc = "band=3".to_owned();
    assert_eq!(
        band_name(
            "fire_small_b",
            &[
                cnc,
                "command=2".into(),
                "flank=1".into(),
                "trained=1".into()
            ]
        ),
        "Color",
        "bonuses cannot take Code'n Color all the way to automatic"
    );
}

/// 004 "Code 'n Color dice": the d6 stand-in (1-3 Color, 4-5 Code, 6 CnC), as the
/// hex-command-d6 overlay plays it.
#[test]
fn the_d6_stand_in_overlay_gives_its_own_odds() {
    let d6 = "rulesets/hex-command-d6.yaml";
    let want = [("1", "2/3"), ("2", "1/2"), ("3", "1/6"), ("0", "1")];
    for (band, p) in want {
        assert_eq!(
            odds(d6, "fire_small_b", &[format!("band={band}")], "hit"),
            p,
            "band {band}"
        );
    }
}

/// 004 "Melee": both roll; Stronger/Weaker by modified value; equal values: red causes a
/// hit, blue a TE hit.
#[test]
fn melee_table_by_stronger_weaker_and_equal() {
    let case = |a: i32, d: i32| -> std::collections::BTreeSet<(String, String)> {
        let report = chart_json(
            RULESET,
            "melee",
            &[format!("attacker={a}"), format!("defender={d}")],
        );
        report["rows"][0]["odds"]
            .as_array()
            .expect("odds")
            .iter()
            .filter(|o| o["fraction"] != "0")
            .map(|o| {
                (
                    o["outcome"].as_str().unwrap_or_default().to_owned(),
                    o["fraction"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect::<std::collections::BTreeSet<_>>()
    };
    let quarter = |names: &[&str]| -> std::collections::BTreeSet<(String, String)> {
        names
            .iter()
            .map(|n| ((*n).to_owned(), "1/4".to_owned()))
            .collect()
    };
    // Attacker stronger (3 against 1): both red → both hit and the weaker +1 TE; both blue
    // → weaker +1 TE; red by the stronger only → the weaker one hit; red by the weaker only
    // → the stronger one hit.
    assert_eq!(
        case(3, 1),
        quarter(&[
            "both hit and defender TE",
            "attacker hit",
            "defender hit",
            "defender TE"
        ])
    );
    // Defender stronger: the same with the roles swapped.
    assert_eq!(
        case(0, 2),
        quarter(&[
            "attacker hit",
            "defender hit",
            "attacker TE",
            "both hit and attacker TE"
        ])
    );
    // Equal: each red a hit on the other, each blue a TE hit on the other.
    assert_eq!(
        case(2, 2),
        quarter(&[
            "both hit",
            "attacker hit and defender TE",
            "defender hit and attacker TE",
            "both TE"
        ])
    );
    // A margin of one is as good as a margin of five.
    assert_eq!(case(6, 1), case(3, 2));
}

/// 004 2.2: CVS rolls pass when a d10 rolls higher than the trait.
#[test]
fn cvs_test_passes_above_the_trait() {
    for t in 4..=7 {
        let want = match 10 - t {
            6 => "3/5",
            5 => "1/2",
            4 => "2/5",
            3 => "3/10",
            _ => unreachable!(),
        };
        assert_eq!(
            odds(RULESET, "cvs_test", &[format!("trait={t}")], "pass"),
            want,
            "trait {t}"
        );
    }
}

/// 004 2.2.2: ten decision-failure results, one each on a d10.
#[test]
fn decision_failure_has_ten_results() {
    let report = chart_json(RULESET, "decision_failure", &[]);
    let odds = report["rows"][0]["odds"].as_array().expect("odds");
    let named: Vec<&Value> = odds.iter().filter(|o| o["fraction"] == "1/10").collect();
    assert_eq!(named.len(), 10, "{report}");
    assert!(
        odds.iter()
            .any(|o| o["outcome"] == "a hit to every unit" && o["fraction"] == "1/10")
    );
}

/// 004 2.2.3: the CVS table: d6 for the grade (1-2 untrained, 3-4 trained, 5-6 veteran),
/// then d6 for the row.
#[test]
fn cvs_table_by_grade_and_row() {
    for grade in ["untrained", "trained", "veteran"] {
        assert_eq!(odds(RULESET, "cvs_grade", &[], grade), "1/3");
    }
    assert_eq!(
        odds(RULESET, "cvs_values", &["grade=2".into()], "C1 M2 T4 A4 I4"),
        "1/6"
    );
    assert_eq!(
        odds(RULESET, "cvs_values", &["grade=0".into()], "C1 M1 T7 A7 I7"),
        "1/6"
    );
    assert_eq!(
        odds(RULESET, "cvs_values", &["grade=1".into()], "C0 M1 T6 A6 I6"),
        "1/6"
    );
}

/// 004 Rules by sequence 2, 3.1 grapeshot, 4d reinforcements: the cube for integrity (red
/// withdraws), grapeshot (smoothbore automatic, rifled red), and a d6 for the entry place.
#[test]
fn integrity_grapeshot_and_entry_charts() {
    assert_eq!(odds(RULESET, "integrity", &[], "withdraw"), "1/2");
    assert_eq!(odds(RULESET, "grapeshot", &["rifled=0".into()], "hit"), "1");
    assert_eq!(
        odds(RULESET, "grapeshot", &["rifled=1".into()], "hit"),
        "1/2"
    );
    for place in ["first place", "second place", "third place"] {
        assert_eq!(odds(RULESET, "entry_point", &[], place), "1/3");
    }
}

// Fields in play
