//! What the ruleset and scenario compile passes report for bad input, through the public
//! API: words outside their lists, and a bad legend entry on a large map.

mod support;

use std::path::PathBuf;

use grognard_rules::load::{Ruleset, load_ruleset, scenario_from_text};
use grognard_rules::schema::SchemaKind;

fn ruleset(name: &str) -> Ruleset {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../rulesets/{name}.yaml"));
    load_ruleset(&path).unwrap_or_else(|d| panic!("{d}"))
}

/// Writes `text` as `name` in a folder of its own and loads it as a ruleset.
fn ruleset_errors(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!(
        "grognard-compile-sections-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    let result = load_ruleset(&path);
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(_) => panic!("{name} loaded"),
        Err(d) => d.to_string(),
    }
}

#[test]
fn a_bad_legend_terrain_is_one_problem_however_many_cells_show_it() {
    let r = ruleset("drill-square");
    let side = 300;
    let row = vec!["X"; side].join(" ");
    let map: String = (0..side).map(|_| format!("    {row}\n")).collect();
    let text = format!(
        "scenario: big\nruleset: drill-square\nboard:\n  cols: {side}\n  rows: {side}\n  \
         legend: {{ \".\": clear, X: swampp }}\n  map: |\n{map}sides:\n  blue: {{}}\n  red: {{}}\n"
    );
    let errors = match scenario_from_text("big.yaml", &text, &r) {
        Ok(_) => panic!("the legend names no such terrain"),
        Err(d) => d.to_string(),
    };
    assert_eq!(
        errors.matches("unknown terrain `swampp`").count(),
        1,
        "{}",
        &errors[..errors.len().min(2000)]
    );
    assert!(
        errors.contains("big.yaml:6:28: unknown terrain `swampp`"),
        "{errors}"
    );
}

#[test]
fn words_outside_their_lists_are_reported_where_written_with_the_words_allowed() {
    let text = "\
ruleset: words
geometry: { kind: squar }
modes: { normal: {} }
flags:
  shaken: { clears: turn_ends }
terrain: { clear: {} }
features:
  wall: { kind: barier }
movement: { foot: {} }
piece_types:
  inf: { movement: foot, allowance: { normal: 4 }, moves: per_turns }
actions:
  fire: { target: enemies, arcs: [front, flnk] }
sequence:
  side_turn: [{ phase: move, actor: phasin, allows: [move, fire] }]
";
    let errors = ruleset_errors("words.yaml", text);
    for expected in [
        "words.yaml:2:19: in geometry.kind: unknown value `squar`; expected one of: square, \
         hex, open\n  help: did you mean `square`?",
        "words.yaml:5:21: in flags.shaken.clears: unknown value `turn_ends`; expected one of: \
         never, phase_end, turn_end\n  help: did you mean `turn_end`?",
        "words.yaml:8:17: in features.wall.kind: unknown value `barier`; expected one of: \
         road, barrier, crossing",
        "words.yaml:11:59: in piece_types.inf.moves: unknown value `per_turns`; expected one \
         of: per_phase, per_turn",
        "words.yaml:13:19: in actions.fire.target: unknown value `enemies`; expected one of: \
         none, enemy, friend",
        "words.yaml:13:42: in actions.fire.arcs[1]: unknown value `flnk`; expected one of: \
         front, flank, rear",
        "words.yaml:15:37: in sequence.side_turn[0].actor: unknown value `phasin`; expected \
         one of: phasing, non_phasing, both",
    ] {
        assert!(
            errors.contains(expected),
            "missing `{expected}` in\n{errors}"
        );
    }
}

#[test]
fn a_ruleset_without_a_geometry_or_a_feature_kind_says_what_to_write() {
    let text = "\
ruleset: bare
modes: { normal: {} }
terrain: { clear: {} }
features:
  wall: { cost: 1 }
movement: { foot: {} }
piece_types:
  inf: { movement: foot, allowance: { normal: 4 } }
sequence:
  side_turn: [{ phase: move, allows: [move] }]
";
    let errors = ruleset_errors("bare.yaml", text);
    assert!(
        errors.contains("bare.yaml:1:10: the ruleset needs `geometry: { kind: square }`"),
        "{errors}"
    );
    assert!(
        errors.contains("bare.yaml:5:3: feature `wall` needs a `kind:`: road, barrier or crossing"),
        "{errors}"
    );
}

/// The schema an editor reads lists each word field's allowed values.
#[test]
fn the_schema_lists_the_allowed_words() {
    let defs = support::schema_defs(SchemaKind::Ruleset);
    support::assert_word_lists(
        &defs,
        &[
            ("Clears", &["never", "phase_end", "turn_end"][..]),
            ("FeatureKind", &["road", "barrier", "crossing"]),
            ("MoveLimit", &["per_phase", "per_turn"]),
            ("GeometryKind", &["square", "hex", "open"]),
            ("PhaseActor", &["phasing", "non_phasing", "both"]),
            ("Target", &["none", "enemy", "friend"]),
            ("ArcName", &["front", "flank", "rear"]),
            ("EffectTo", &["actor", "target"]),
            ("ExitBaseline", &["own", "enemy", "any"]),
            ("Arrangement", &["line", "column", "block", "loose"]),
            ("BandTest", &["always", "never"]),
        ],
    );
    let flag = &defs["FlagSpec"]["properties"]["clears"];
    assert!(flag.to_string().contains("Clears"), "{flag}");
    let defs = support::schema_defs(SchemaKind::Scenario);
    assert!(defs.get("Baseline").is_some(), "{defs}");
}
