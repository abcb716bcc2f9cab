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

#[test]
fn a_constant_or_a_subtraction_in_a_charts_dice_points_to_a_modifier() {
    for (dice, what) in [
        ("2d6 + 2", "a constant term (`2`) is not supported here"),
        ("d6 - 3", "taking away is not supported here"),
    ] {
        let errors = load("chart.yaml", &ruleset(dice, "d6")).expect_err(dice);
        assert!(
            errors.contains(&format!(
                "chart.yaml:10:11: `{dice}`: a dice expression adds dice only"
            )) && errors.contains(what),
            "{dice}: {errors}"
        );
        assert!(
            errors.contains("give the chart an input with `default: 1` and a modifier on it"),
            "{errors}"
        );
    }
    // Dice alone still load.
    load("fine.yaml", &ruleset("d6 + d6", "2d6")).unwrap_or_else(|e| panic!("{e}"));
}
