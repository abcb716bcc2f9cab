//! Dice expressions hold dice only (issue 36, third outside designer): a constant term or a
//! subtraction is refused where written, saying what to write instead, for a chart's dice
//! and for the initiative roll each.

use grognard_rules::load::load_ruleset;

/// A small ruleset whose chart rolls `chart_dice` and whose initiative rolls `initiative`.
fn ruleset(chart_dice: &str, initiative: &str) -> String {
    format!(
        "\
ruleset: dice-terms
geometry: {{ kind: square }}
modes: {{ normal: {{}} }}
terrain: {{ clear: {{}} }}
movement: {{ foot: {{}} }}
piece_types:
  inf: {{ movement: foot, allowance: {{ normal: 4 }} }}
charts:
  fire:
    dice: {chart_dice}
    rows:
      - {{ score: \"4+\", result: hit }}
    otherwise: miss
actions:
  fire: {{ chart: fire, target: enemy, range: [1, 4] }}
sequence:
  initiative: {initiative}
  side_turn: [{{ phase: fire, allows: [fire] }}]
"
    )
}

fn load(name: &str, text: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("grognard-dice-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    let result = load_ruleset(&path);
    let _ = std::fs::remove_dir_all(&dir);
    result.map(|_| ()).map_err(|d| d.to_string())
}

#[test]
fn a_constant_in_the_initiative_roll_says_constants_are_not_supported_and_what_is() {
    let errors = load("init.yaml", &ruleset("d6", "d6 + 1")).expect_err("a constant");
    assert!(
        errors.contains(
            "init.yaml:17:15: `d6 + 1`: a dice expression adds dice only (`2d6`, `d6 + d6`, \
             `2 cube`); a constant term (`1`) is not supported here"
        ),
        "{errors}"
    );
    assert!(
        errors.contains("write the dice alone (`initiative: d6`)"),
        "{errors}"
    );
    assert!(!errors.contains("expected a die count"), "{errors}");
}

/// A chart's dice may add or take away a fixed amount (`d6 + 1`, `2d6 - 2`); dice cannot
/// be taken away, a fixed amount needs dice, and a band chart (which tests the first die
/// alone) takes none — each refused at the chart's `dice:`.
#[test]
fn a_charts_dice_may_add_or_take_away_a_fixed_amount_but_not_dice() {
    for dice in ["2d6 + 2", "d6 - 3", "1 + d6", "d6 + 1 + 1"] {
        load("chart.yaml", &ruleset(dice, "d6")).unwrap_or_else(|e| panic!("{dice}: {e}"));
    }
    for (dice, what) in [
        (
            "d6 - d6",
            "chart.yaml:10:11: `d6 - d6`: only a fixed amount may be taken away",
        ),
        (
            "3",
            "chart.yaml:10:11: `3`: a fixed amount needs dice to add to (`d6 + 1`)",
        ),
    ] {
        let errors = load("chart.yaml", &ruleset(dice, "d6")).expect_err(dice);
        assert!(errors.contains(what), "{dice}: {errors}");
    }
    let band = ruleset("d6 + 1", "d6").replace(
        "    rows:\n      - { score: \"4+\", result: hit }\n    otherwise: miss\n",
        "    inputs: { b: { default: 0 } }\n    bands: { base: b, rows: [ { band: one, at_least: 4, pass: hit, fail: miss } ] }\n",
    );
    let errors = load("band.yaml", &band).expect_err("a band chart with a constant");
    assert!(
        errors.contains(
            "band.yaml:10:11: chart `fire`: a fixed amount (`d6 + 1`) adds to a score; a band \
             chart tests the first die alone"
        ),
        "{errors}"
    );
    // Dice alone still load.
    load("fine.yaml", &ruleset("d6 + d6", "2d6")).unwrap_or_else(|e| panic!("{e}"));
}

/// `d6 + 1` against `4+`: the score is the die and one, so 3 to 6 hit, 4/6; `2d6 - 2`
/// against `4+`: 2d6 of 6 or more, 26/36. The natural roll stays the dice alone.
#[test]
fn a_fixed_amount_moves_the_score_and_the_odds() {
    // Several fixed amounts are summed in the order written: `d6 + 1 - 2` is d6 − 1 (5 or 6
    // hit, 1/3), `d6 - 1 - 1` is d6 − 2 (6 hits), `d6 + 3 + 2` always hits (before, the
    // `- 2` after a `+ 1` was dropped and `d6 - 1 - 1` was refused).
    for (dice, hit) in [
        ("d6 + 1", (2, 3)),
        ("2d6 - 2", (13, 18)),
        ("d6 + 1 - 2", (1, 3)),
        ("2d6 + 1 - 3", (13, 18)),
        ("d6 - 2 + 1", (1, 3)),
        ("d6 - 1 - 1", (1, 6)),
        ("d6 + 3 + 2", (1, 1)),
    ] {
        let dir = std::env::temp_dir().join(format!("grognard-dice-odds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("odds.yaml");
        std::fs::write(&path, ruleset(dice, "d6")).expect("write");
        let loaded = load_ruleset(&path).unwrap_or_else(|e| panic!("{e}"));
        let _ = std::fs::remove_dir_all(&dir);
        let rules = &loaded.rules;
        let chart = &rules.charts[0];
        let odds = chart.odds(&rules.dice, &[]);
        let at = chart.outcomes.iter().position(|o| o == "hit").expect("hit");
        assert_eq!(
            odds[at],
            grognard_kernel::Ratio::new(hit.0, hit.1),
            "{dice}: {odds:?}"
        );
    }
}
