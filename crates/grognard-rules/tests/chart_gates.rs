//! Chart inputs checked as a whole (issue 36, third outside designer): gates that go round
//! in a circle, and `bands:` on an input that does not band, are refused where written.

use std::path::PathBuf;

use grognard_rules::load::load_ruleset;

/// A small square-grid ruleset whose one chart has the inputs `inputs` (YAML lines,
/// indented six spaces).
fn with_inputs(inputs: &str) -> String {
    format!(
        "\
ruleset: gates
geometry: {{ kind: square }}
modes: {{ normal: {{}} }}
terrain: {{ clear: {{}} }}
movement: {{ foot: {{}} }}
piece_types:
  inf: {{ movement: foot, allowance: {{ normal: 4 }} }}
charts:
  fire:
    dice: d6
    inputs:
{inputs}    modifiers:
      - {{ name: near, input: close, per: 1 }}
    rows:
      - {{ score: \"4+\", result: hit }}
    otherwise: miss
actions:
  fire: {{ chart: fire, target: enemy, range: [1, 4] }}
sequence:
  side_turn: [{{ phase: fire, allows: [fire] }}]
"
    )
}

/// Loads `text` as `name` from a folder of its own: `Ok(())` or the diagnostics.
fn load(name: &str, text: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("grognard-gates-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, text).expect("write");
    let result = load_ruleset(&path);
    let _ = std::fs::remove_dir_all(&dir);
    result.map(|_| ()).map_err(|d| d.to_string())
}

#[test]
fn gates_that_go_round_in_a_circle_are_refused_at_the_first_gate_naming_the_circle() {
    // The designer's case: `close` is without `flank` and `flank` without `close`.
    let text = with_inputs(
        "      close: { default: 1, without: [flank] }\n      \
         flank: { from: target.flank_or_rear, without: [close] }\n",
    );
    let errors = load("two.yaml", &text).expect_err("a circle of two gates");
    assert!(
        errors.contains(
            "two.yaml:12:38: chart `fire`: the gates of inputs `close` → `flank` → `close` go \
             round in a circle (`close` is without `flank`, `flank` is without `close`)"
        ),
        "{errors}"
    );
    assert_eq!(errors.matches("round in a circle").count(), 1, "{errors}");

    // A longer circle mixing `with` and `without`, and one input gated on itself.
    let text = with_inputs(
        "      close: { default: 1, with: [a] }\n      \
         a: { default: 1, without: [b] }\n      \
         b: { default: 1, with: [close] }\n      \
         me: { default: 1, without: [me] }\n",
    );
    let errors = load("three.yaml", &text).expect_err("circles");
    assert!(
        errors.contains(
            "`close` → `a` → `b` → `close` go round in a circle (`close` is with `a`, `a` is \
             without `b`, `b` is with `close`)"
        ),
        "{errors}"
    );
    assert!(
        errors.contains("three.yaml:15:35: chart `fire`: the gates of inputs `me` → `me`"),
        "{errors}"
    );
}

#[test]
fn gates_that_chain_without_a_circle_still_load() {
    let text = with_inputs(
        "      long: { from: distance_band, bands: [2] }\n      \
         close: { default: 1, without: [long] }\n      \
         flank: { from: target.flank_or_rear, without: [close, long] }\n",
    );
    load("chain.yaml", &text).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn bands_on_an_input_that_does_not_band_are_refused_with_what_they_need() {
    let text = with_inputs(
        "      close: { default: 1 }\n      \
         far: { from: distance, bands: [4] }\n      \
         odd: { default: 1, bands: [2] }\n      \
         ok: { from: distance_band, bands: [2] }\n",
    );
    let errors = load("bands.yaml", &text).expect_err("stray bands");
    assert!(
        errors.contains(
            "bands.yaml:13:20: chart `fire`, input `far`: `bands:` is read only with `from: \
             distance_band` or `from: table_distance_band`"
        ),
        "{errors}"
    );
    assert!(
        errors.contains("help: write `from: distance_band` to band the distance"),
        "{errors}"
    );
    assert!(
        errors.contains("input `odd`: `bands:` is read only with")
            && errors.contains("this input has no `from:`, so it does not band"),
        "{errors}"
    );
    assert!(!errors.contains("input `ok`"), "{errors}");
}
