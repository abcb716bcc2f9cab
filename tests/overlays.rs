//! House-rule overlays through the binary: chains, cycles, and errors at the overlay's line.
//! The merge is read on `show --json` and where an error stands on `validate --json`; past
//! that, what is tested is the diagnostics' words (their checks are prose, marked so).

use crate::util::grognard;

#[test]
fn an_overlay_chain_merges_every_layer() {
    // show --json: the layers in order, rain set to 2 and no option left (roads_stay_firm,
    // added by the mud rule, removed by the club's).
    let shown = crate::util::json_of(&grognard(&[
        "show",
        "tests/fixtures/overlays/club.yaml",
        "--json",
    ]));
    let layers = serde_json::json!([
        "rulesets/drill-square.yaml",
        "rulesets/drill-square-mud.yaml",
        "tests/fixtures/overlays/club.yaml"
    ]);
    assert_eq!(shown["layers"], layers, "{shown}");
    assert_eq!(shown["settings"]["rain"], 2, "{shown}");
    assert_eq!(shown["options"], serde_json::json!([]), "{shown}");
    let run = grognard(&["show", "tests/fixtures/overlays/club.yaml"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // prose: the text summary's words for the same.
    assert!(
        run.stdout.contains("rulesets/drill-square.yaml → rulesets/drill-square-mud.yaml → tests/fixtures/overlays/club.yaml"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("rain=2"), "{}", run.stdout);
    assert!(
        !run.stdout.contains("roads_stay_firm"),
        "the option was removed: {}",
        run.stdout
    );
}

#[test]
fn an_extends_cycle_is_an_error_naming_the_loop() {
    let run = grognard(&["validate", "tests/fixtures/overlays/loop-a.yaml"]);
    assert_eq!(run.code, 1);
    // prose: an error's words (here and below: this suite is about the diagnostics).
    assert!(
        run.stderr.contains("goes round in a circle"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("loop-a.yaml") && run.stderr.contains("loop-b.yaml"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_overlays_mistakes_are_reported_at_the_overlays_lines() {
    let run = grognard(&["validate", "tests/fixtures/overlays/bad-change.yaml"]);
    assert_eq!(run.code, 1);
    // The bad cost is on line 6 of the overlay, the bad removal on line 7; the base file is
    // fine and must not be blamed (validate --json: the two diagnostics, both the overlay's).
    let checked = crate::util::json_of(&grognard(&[
        "validate",
        "tests/fixtures/overlays/bad-change.yaml",
        "--json",
    ]));
    let diagnostics = checked["files"][0]["diagnostics"]
        .as_array()
        .expect("diagnostics");
    let at: Vec<(&serde_json::Value, &serde_json::Value)> = diagnostics
        .iter()
        .map(|d| (&d["file"], &d["line"]))
        .collect();
    let overlay = serde_json::json!("tests/fixtures/overlays/bad-change.yaml");
    assert_eq!(
        at,
        [
            (&overlay, &serde_json::json!(6)),
            (&overlay, &serde_json::json!(7))
        ],
        "{checked}"
    );
    // prose: the words of each.
    assert!(run.stderr.contains("bad-change.yaml:6:"), "{}", run.stderr);
    assert!(run.stderr.contains("lots"), "{}", run.stderr);
    assert!(run.stderr.contains("bad-change.yaml:7:"), "{}", run.stderr);
    assert!(run.stderr.contains("no such item"), "{}", run.stderr);
    assert!(!run.stderr.contains("drill-square.yaml:"), "{}", run.stderr);
}

/// An overlay that replaced a list the inherited text depends on: the problem is at the
/// base file's line, and the help names the overlay's line that caused it; validating the
/// ruleset and a scenario using it reports it once (issue 39 item 4).
#[test]
fn a_problem_an_overlay_caused_in_inherited_text_names_the_overlay_once() {
    let run = grognard(&[
        "validate",
        "tests/fixtures/overlays/rows-replaced.yaml",
        "tests/fixtures/overlays/rows-replaced-scenario.yaml",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("unknown outcome `hit`"))
            .count(),
        1,
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("rulesets/drill-square.yaml:86:7: unknown outcome `hit`"),
        "{}",
        run.stderr
    );
    // The suggestions are the merged ruleset's outcomes, and the overlay is named.
    assert!(run.stderr.contains("h2, h1, miss"), "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "the overlay replaced `charts.volley.rows` at tests/fixtures/overlays/rows-replaced.yaml:9:7"
        ),
        "{}",
        run.stderr
    );
}

/// `remove: [charts.melle, piece_types.general]`: the typo removed nothing, so it is its own
/// error at the overlay's line with the path that exists, and the three inherited errors
/// about `general` name only the removal that caused them (outside designer, issue 39: each
/// help once read "removed `charts.melle`" too).
#[test]
fn a_remove_of_a_path_that_does_not_exist_is_its_own_error_and_blames_nothing_else() {
    let run = grognard(&["validate", "tests/fixtures/overlays/remove-typo.yaml"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "remove-typo.yaml:3:10: `remove: charts.melle`: the ruleset being extended has no such item\n  help: did you mean `charts.melee`?"
        ),
        "{}",
        run.stderr
    );
    let helps: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("this text is inherited"))
        .collect();
    assert_eq!(helps.len(), 3, "{}", run.stderr);
    for h in helps {
        assert!(h.contains("removed `piece_types.general` at"), "{h}");
        assert!(!h.contains("melle"), "{h}");
    }
}

/// An overlay's row `result: hrt` once put the error on the base's `on: hurt` line with
/// "did you mean `hrt`?", telling the designer to change the base to match the typo (outside
/// designer, issue 39). The error is at the overlay's row and suggests the base's name.
#[test]
fn an_outcome_misspelt_in_an_overlays_row_is_reported_at_the_row_with_the_bases_name() {
    let run = grognard(&["validate", "tests/fixtures/overlays/outcome-typo.yaml"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "outcome-typo.yaml:6:32: outcome `hrt`: action `melee` handles no such outcome"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("did you mean `hurt`?"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("did you mean `hrt`"), "{}", run.stderr);
    assert!(
        !run.stderr.contains("unknown outcome `hurt`"),
        "the base's line is right: {}",
        run.stderr
    );
}

/// `- Rule: melee hurts on 5+` in an overlay's notes: YAML reads a mapping. The error once
/// named the note by its index in the merged list (`notes[8]`, after the base's eight) and
/// gave no help (outside designer, issue 39): it names the overlay's own note and says to
/// quote the text.
#[test]
fn a_note_with_a_colon_is_named_in_the_overlays_own_notes_with_a_fix() {
    let run = grognard(&["validate", "tests/fixtures/overlays/notes-colon.yaml"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "notes-colon.yaml:4:5: in notes[0] of this file: expected text, found a mapping"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("put the whole text in quotes, \"Rule: melee hurts on 5+\""),
        "{}",
        run.stderr
    );
}

/// An overlay's `infantri:` once made a new piece type silently (outside designer, issue 39).
/// A complete new type spelt like an inherited one still loads (an overlay may add a type on
/// purpose) with a warning naming the inherited type; an incomplete one is an error that says
/// it is new and which type was likely meant. A bundled ruleset warns of nothing.
#[test]
fn a_piece_type_misspelt_in_an_overlay_is_a_new_type_with_a_did_you_mean() {
    let run = grognard(&["validate", "tests/fixtures/overlays/type-typo.yaml"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "warning: tests/fixtures/overlays/type-typo.yaml:4:3: new piece type `infantri`; did you mean `infantry`?"
        ),
        "{}",
        run.stderr
    );
    let bare = grognard(&["validate", "tests/fixtures/overlays/type-typo-bare.yaml"]);
    assert_eq!(bare.code, 1, "{}", bare.stderr);
    assert!(
        bare.stderr
            .contains("piece type `infantri` needs `movement:`")
            && bare
                .stderr
                .contains("help: new piece type `infantri`; did you mean `infantry`?"),
        "{}",
        bare.stderr
    );
    let base = grognard(&["validate", "rulesets/village-skirmish.yaml"]);
    assert_eq!(base.code, 0, "{}", base.stderr);
    assert!(!base.stderr.contains("warning"), "{}", base.stderr);
}
