//! A plain mistake in a scenario's own field (issue 37, the ninth player's F1): `turns:
//! eight` was reported twice, first as "`turns` must be from 1 to 10000" at the
//! `scenario:` line (7) — the placeholder 0 the decoder put in its place, at the file's
//! top. Each error names the field's own line and says what was expected, once.

use grognard_rules::load::{load_ruleset, scenario_from_text};

/// The bundled hex-command scenario with one line replaced, checked against its own ruleset.
fn errors_with(line: &str, with: &str) -> Vec<String> {
    let text = std::fs::read_to_string("../../examples/hex-command.yaml").expect("scenario");
    assert!(text.lines().any(|l| l == line), "no `{line}`");
    let changed: String = text
        .lines()
        .map(|l| if l == line { with } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    let ruleset = load_ruleset("../../rulesets/hex-command.yaml".as_ref()).expect("ruleset");
    let err = scenario_from_text("hc.yaml", &changed, &ruleset).expect_err("refused");
    err.to_string().lines().map(str::to_owned).collect()
}

#[test]
fn a_word_for_the_turns_is_one_error_at_the_turns_line() {
    // examples/hex-command.yaml: line 7 `scenario: hex-command`, line 11 `turns: 7`.
    let errors = errors_with("turns: 7", "turns: eight");
    assert_eq!(
        errors,
        ["hc.yaml:11:8: in turns: expected a whole number, found the text `eight`"],
    );
}

#[test]
fn turns_out_of_range_are_named_at_their_line_with_what_is_expected() {
    let errors = errors_with("turns: 7", "turns: 0");
    assert_eq!(
        errors,
        ["hc.yaml:11:8: `turns` must be a whole number of turns from 1 to 10000 (found 0)"],
    );
}

#[test]
fn a_board_side_out_of_range_is_named_at_its_own_line() {
    // Line 15 is `  rows: 10`; the other errors (the map's rows, cells now off the board)
    // follow from the smaller board and name their own lines.
    let errors = errors_with("  rows: 10", "  rows: 0");
    assert_eq!(
        errors[0],
        "hc.yaml:15:9: the board needs `cols` and `rows`, each a whole number from 1 to 1000 (found 12 × 0)"
    );
    assert!(
        !errors.iter().any(|e| e.starts_with("hc.yaml:7:")),
        "{errors:#?}"
    );
}
