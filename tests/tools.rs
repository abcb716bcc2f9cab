//! `grognard diff`, `grognard sim` and `grognard sheet`.

use serde_json::Value;

use crate::util::{grognard, root};

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

/// The change lines of a `grognard diff` (after the heading).
fn diff_lines(a: &str, b: &str) -> Vec<String> {
    let run = grognard(&["diff", a, b]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
        .lines()
        .skip(1)
        .map(|l| l.trim().to_owned())
        .collect()
}

#[test]
fn diff_of_the_mud_house_rule_lists_exactly_its_additions() {
    let lines = diff_lines(
        "rulesets/drill-square.yaml",
        "rulesets/drill-square-mud.yaml",
    );
    assert_eq!(
        lines,
        [
            "ruleset: drill-square → drill-square-mud",
            "title: Drill — square grid with diagonals → Drill — square grid, with mud after rain",
            "note \"House rule; the base ruleset is drill-square.\" added",
            "setting `rain` added (default 1)",
            "option `roads_stay_firm` added (default on)",
            "script `weather` added (scripts/weather.lua)",
            "hook move_cost: none → weather.move_cost",
        ]
    );
}

/// An overlay in another folder names the same script by another path: not a change
/// (the editor's house rules are saved anywhere the user chooses).
#[test]
fn diff_ignores_a_script_named_by_another_path_with_the_same_text() {
    let dir = std::env::temp_dir().join(format!("grognard-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let base = root().join("rulesets/drill-square-mud.yaml");
    let overlay = dir.join("rain-2.yaml");
    std::fs::write(
        &overlay,
        format!(
            "ruleset: mud-rain-2\nextends: {}\nsettings:\n  rain: 2\n",
            base.display()
        ),
    )
    .expect("overlay");
    let lines = diff_lines("rulesets/drill-square-mud.yaml", &overlay.to_string_lossy());
    assert_eq!(
        lines,
        [
            "ruleset: drill-square-mud → mud-rain-2",
            "setting `rain`: 1 → 2"
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_of_an_overlay_that_adds_changes_and_removes() {
    let lines = diff_lines(
        "rulesets/drill-square.yaml",
        "tests/fixtures/tools/club.yaml",
    );
    assert_eq!(
        lines,
        [
            "ruleset: drill-square → drill-square-club",
            "counter `hits`, trigger 1 removed",
            "flag `shaken` removed",
            "terrain `marsh` added ({color: #7a8c6e})",
            "movement class `foot`, enter `medium_woods`: +½ → +1",
            "movement class `foot`, enter `marsh` added (impassable)",
            "piece type `infantry`, allowance `battle`: ½ → 1",
            "piece type `half_block` removed",
            "sequence, side-turn phase `rally` added ({phase: rally})",
            "chart `volley`, row 1: 9+ hit → 8+ hit",
            "option `veteran_volleys` added (default off)",
        ]
    );
}

#[test]
fn diff_the_other_way_round_reverses_every_change() {
    // diff --json's records, from the club overlay back to the base: each change reversed.
    let run = grognard(&[
        "diff",
        "tests/fixtures/tools/club.yaml",
        "rulesets/drill-square.yaml",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = json(&run.stdout);
    let changes = v["changes"].as_array().expect("changes");
    assert_eq!(changes.len(), 11, "{v}");
    let change = |path: &str| {
        (changes.iter())
            .find(|c| c["path"] == path)
            .unwrap_or_else(|| panic!("no change of {path} in {v}"))
    };
    assert_eq!(change("piece type `half_block`")["change"], "added");
    assert_eq!(change("terrain `marsh`")["change"], "removed");
    let woods = change("movement class `foot`, enter `medium_woods`");
    assert_eq!((&woods["from"], &woods["to"]), (&"+1".into(), &"+½".into()));
    // prose: the text report's lines for the same changes.
    let lines = diff_lines(
        "tests/fixtures/tools/club.yaml",
        "rulesets/drill-square.yaml",
    );
    assert!(
        lines.contains(&"piece type `half_block` added".to_owned()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"terrain `marsh` removed".to_owned()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"movement class `foot`, enter `medium_woods`: +1 → +½".to_owned()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"chart `volley`, row 1: 8+ hit → 9+ hit".to_owned()),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 11, "{lines:?}");
}

#[test]
fn diff_json_gives_records() {
    let run = grognard(&[
        "diff",
        "rulesets/drill-square.yaml",
        "tests/fixtures/tools/club.yaml",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = json(&run.stdout);
    let changes = v["changes"].as_array().expect("changes");
    assert_eq!(changes.len(), 11);
    let woods = changes
        .iter()
        .find(|c| c["path"] == "movement class `foot`, enter `medium_woods`")
        .expect("medium woods change");
    assert_eq!(woods["change"], "changed");
    assert_eq!(woods["from"], "+½");
    assert_eq!(woods["to"], "+1");
    let removed = changes
        .iter()
        .find(|c| c["path"] == "piece type `half_block`")
        .expect("half block");
    assert_eq!(removed["change"], "removed");
    assert!(removed["to"].is_null());
    let option = changes
        .iter()
        .find(|c| c["path"] == "option `veteran_volleys`")
        .expect("option");
    assert_eq!(option["change"], "added");
    assert_eq!(option["to"], "default off");
    assert_eq!(v["b"]["ruleset"], "drill-square-club");
}

#[test]
fn diff_of_a_ruleset_with_itself_says_no_differences() {
    let run = grognard(&["diff", "rulesets/drill-hex.yaml", "rulesets/drill-hex.yaml"]);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout.trim(),
        "no differences between rulesets/drill-hex.yaml and rulesets/drill-hex.yaml"
    );
    let run = grognard(&[
        "diff",
        "rulesets/drill-hex.yaml",
        "rulesets/drill-hex.yaml",
        "--json",
    ]);
    assert_eq!(json(&run.stdout)["changes"], Value::Array(Vec::new()));
}

#[test]
fn diff_across_geometries_covers_every_section() {
    let lines = diff_lines("rulesets/drill-square.yaml", "rulesets/drill-hex.yaml");
    for expected in [
        "geometry, kind: square → hex",
        "mode `line` added",
        "counter `hits`, trigger 1, effect 1, set: shaken → routed",
        "piece attribute `trained` added",
        "feature `stream` added ({cost: 1, kind: barrier})",
        "movement class `foot`, enter `forest` added (+1)",
        "piece type `cavalry`, movement: foot → horse",
        "zoc, stops_movement: none → true",
        "sequence, initiative: none → d6",
        "sequence, side-turn phase `fire`, allows: [volley] → [fire]",
        "chart `volley` removed",
        "chart `fire` added",
        "action `fire` added",
    ] {
        assert!(
            lines.iter().any(|l| l == expected),
            "missing `{expected}` in {lines:#?}"
        );
    }
}

#[test]
fn diff_of_a_missing_file_is_an_error() {
    let run = grognard(&["diff", "rulesets/drill-square.yaml", "rulesets/nope.yaml"]);
    assert_eq!(run.code, 1);
    // prose: the error names the file.
    assert!(run.stderr.contains("nope.yaml"), "{}", run.stderr);
}

fn sim(args: &[&str]) -> Value {
    let mut all = vec![
        "sim",
        "examples/drill-square.yaml",
        "--orders",
        "examples/drill-square.orders.yaml",
        "--json",
    ];
    all.extend_from_slice(args);
    let run = grognard(&all);
    assert_eq!(run.code, 0, "{}", run.stderr);
    json(&run.stdout)
}

#[test]
fn sim_is_reproducible_from_its_seed_whatever_the_threads() {
    let a = sim(&["--runs", "200", "--seed", "42"]);
    let b = sim(&["--runs", "200", "--seed", "42"]);
    let c = sim(&["--runs", "200", "--seed", "42", "--threads", "3"]);
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!(a["runs"], 200);
    assert_eq!(a["seed"], 42);
    // Seeds 42..241 and 1042..1241 share no game.
    let d = sim(&["--runs", "200", "--seed", "1042"]);
    assert_ne!(
        a["actions"], d["actions"],
        "another seed should roll differently"
    );
}

#[test]
fn sim_volley_hit_rate_matches_the_exact_odds() {
    // b4's volley at r2 (turn 2): r2 stands in the clear (cover 0), b4 is in r2's front
    // arc (flank 0) and b4 has no hits yet, so no modifier applies: P(2d6 ≥ 9) = 10/36.
    let v = sim(&["--runs", "2000", "--seed", "1"]);
    let b4 = v["actions"]
        .as_array()
        .and_then(|a| {
            a.iter()
                .find(|x| x["piece"] == "b4" && x["action"] == "volley")
        })
        .expect("b4 volley");
    assert_eq!(b4["rolls"], 2000);
    let hits = b4["outcomes"]["hit"][0].as_f64().expect("hits");
    let rate = hits / 2000.0;
    let exact = 10.0 / 36.0;
    // sd of the rate is √(p(1−p)/n) ≈ 0.010; allow 4 sd.
    assert!((rate - exact).abs() < 0.04, "hit rate {rate} vs {exact}");
    // r2 ends with a hit exactly when b4's volley hit.
    let r2 = v["pieces"]
        .as_array()
        .and_then(|p| p.iter().find(|x| x["piece"] == "r2"))
        .expect("r2");
    let mean = r2["counters"]["hits"]["mean"].as_f64().expect("mean");
    assert!((mean - rate).abs() < 1e-3, "{mean} vs {rate}");
    let ci = r2["counters"]["hits"]["ci95"].as_f64().expect("ci");
    assert!(ci > 0.01 && ci < 0.03, "{ci}");
    // Nobody moves differently, so everyone ends where the orders put them.
    assert_eq!(r2["places"][0][0], "(6,2)");
    assert_eq!(r2["places"][0][1], 1.0);
    assert_eq!(v["refused_orders"], Value::Array(Vec::new()));
    assert_eq!(v["refused"], 0);
    assert_eq!(v["unfinished"], 0);
    assert_eq!(v["sides"][0]["side"], "blue");
    assert_eq!(v["sides"][0]["lost"]["mean"], 0.0);
}

#[test]
fn sim_compares_two_rulesets_and_counts_refused_orders() {
    let v = sim(&[
        "--runs",
        "50",
        "--seed",
        "5",
        "--ruleset",
        "rulesets/drill-square-mud.yaml",
    ]);
    assert_eq!(v["a"]["ruleset"], "drill-square");
    assert_eq!(v["b"]["ruleset"], "drill-square-mud");
    assert_eq!(v["a"]["refused_orders"], Value::Array(Vec::new()));
    assert_eq!(v["b"]["refused"], 50);
    // In the mud, b2's diagonal step costs 2 and b2 has 1½: refused in every game, and the
    // simulation goes on.
    let refused = &v["b"]["refused_orders"][0];
    assert_eq!(refused["order"], 3);
    assert_eq!(refused["games"], 50);
    // prose: the reason's words say why.
    assert!(
        refused["reason"]
            .as_str()
            .unwrap_or("")
            .contains("b2 has 1½"),
        "{refused}"
    );
    let b2 = v["b"]["pieces"]
        .as_array()
        .and_then(|p| p.iter().find(|x| x["piece"] == "b2"))
        .expect("b2");
    assert_eq!(b2["places"][0][0], "(6,6)");

    let run = grognard(&[
        "sim",
        "examples/drill-square.yaml",
        "--orders",
        "examples/drill-square.orders.yaml",
        "--runs",
        "20",
        "--ruleset",
        "rulesets/drill-square-mud.yaml",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // prose: the text report's words (its numbers are the JSON's, checked above).
    assert!(
        run.stdout.contains("drill-square vs drill-square-mud"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("b2 mostly at"), "{}", run.stdout);
    assert!(
        run.stdout.contains("refused in 20 of 20 games"),
        "{}",
        run.stdout
    );
    // Progress goes to a terminal only; a pipe gets none.
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn sim_refuses_zero_runs_and_missing_files() {
    let run = grognard(&[
        "sim",
        "examples/drill-square.yaml",
        "--orders",
        "examples/drill-square.orders.yaml",
        "--runs",
        "0",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = grognard(&[
        "sim",
        "examples/drill-square.yaml",
        "--orders",
        "examples/nope.orders.yaml",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
}

/// Checks that every table, row, cell, list, heading, `div` and `p` opened is closed, in
/// order.
fn balanced(html: &str) {
    let mut stack: Vec<String> = Vec::new();
    let tracked = [
        "table", "tr", "td", "th", "ul", "li", "h1", "h2", "h3", "div", "p",
    ];
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest.find('>').expect("unclosed tag");
        let tag = &rest[..end];
        rest = &rest[end..];
        let (closing, name) = match tag.strip_prefix('/') {
            Some(t) => (true, t),
            None => (false, tag),
        };
        let name = name
            .split(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("")
            .to_owned();
        if !tracked.contains(&name.as_str()) {
            continue;
        }
        if closing {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name.as_str()),
                "unbalanced </{name}>"
            );
        } else {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
}

#[test]
fn sheet_of_the_mud_house_rule_marks_its_changes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("mud.html");
    let out_s = out.to_string_lossy().into_owned();
    let run = grognard(&["sheet", "rulesets/drill-square-mud.yaml", "--out", &out_s]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(&out).expect("sheet written");
    balanced(&html);
    // prose: the sheet is a document: its markup and words are what is tested.
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("@media print"));
    assert!(
        html.contains(
            "<tr class=\"changed\"><td>roads_stay_firm<span class=\"badge\">house rule</span></td><td>on</td>"
        ),
        "{html}"
    );
    assert!(html.contains("<li>option <code>roads_stay_firm</code> added (default on)</li>"));
    assert!(html.contains("<td>rain<span class=\"badge\">house rule</span></td>"));
    // The volley chart is inherited unchanged: exact odds, not marked.
    assert!(html.contains("<h3>volley — 2d6</h3>"), "{html}");
    assert!(
        html.contains(
            "<tr><td>hit</td><td class=\"num\">5/18</td><td class=\"num\">27.8%</td></tr>"
        ),
        "{html}"
    );
    // Movement: medium woods +½ for foot.
    assert!(html.contains("<td class=\"num\">+½</td>"));
}

#[test]
fn sheet_of_an_overlay_marks_changed_cells_and_removals() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("club.html");
    let out_s = out.to_string_lossy().into_owned();
    let run = grognard(&["sheet", "tests/fixtures/tools/club.yaml", "--out", &out_s]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(&out).expect("sheet written");
    balanced(&html);
    // prose: as above. medium woods now +1 for foot, highlighted; the chart's row changed to 8+.
    assert!(html.contains("<td class=\"num changed\">+1</td>"), "{html}");
    assert!(html.contains("<tr class=\"changed\"><td>8+</td>"), "{html}");
    assert!(
        html.contains("<td class=\"num\">5/12</td>"),
        "P(2d6 ≥ 8) = 15/36: {html}"
    );
    assert!(html.contains("<li class=\"changed\">piece type <code>half_block</code></li>"));
    assert!(!html.contains("<td>half_block"));
    // Paths stay private: only file names.
    assert!(!html.contains("/work/"), "absolute path leaked");
}

#[test]
fn sheet_escapes_names_from_the_ruleset() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ruleset = dir.path().join("evil.yaml");
    let text = std::fs::read_to_string(crate::util::root().join("rulesets/drill-square.yaml"))
        .expect("read")
        .replace(
            "title: Drill — square grid with diagonals",
            "title: \"<script>alert(1)</script>\"",
        );
    std::fs::write(&ruleset, text).expect("write");
    let out = dir.path().join("evil.html");
    let run = grognard(&[
        "sheet",
        &ruleset.to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(&out).expect("sheet written");
    // prose: the escaping is in the markup.
    assert!(!html.contains("<script>"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    balanced(&html);
}

#[test]
fn sheets_of_every_bundled_ruleset_are_well_formed() {
    let dir = tempfile::tempdir().expect("tempdir");
    for ruleset in crate::util::yaml_files("rulesets") {
        let out = dir.path().join("sheet.html");
        let run = grognard(&["sheet", &ruleset, "--out", &out.to_string_lossy()]);
        assert_eq!(run.code, 0, "{ruleset}: {}", run.stderr);
        let html = std::fs::read_to_string(&out).expect("sheet written");
        balanced(&html);
        // prose: the sheet's sections, by their headings.
        assert!(html.contains("<h2>Sequence of play"), "{ruleset}");
        assert!(html.contains("exact odds"), "{ruleset}");
    }
    // The hex drill's band chart: the odds for each band, from the custom cube's faces
    // (3 red faces of 6, 2 stars, 1 red star).
    let out = dir.path().join("hex.html");
    let run = grognard(&[
        "sheet",
        "rulesets/drill-hex.yaml",
        "--out",
        &out.to_string_lossy(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(&out).expect("sheet written");
    for (band, hit) in [(1, "1/2"), (2, "1/3"), (3, "1/6")] {
        assert!(
            html.contains(&format!(
                "<tr><td class=\"num\">{band}</td><td class=\"num\">{hit} <small>"
            )),
            "band {band}: {html}"
        );
    }
    // Not an overlay: nothing is marked.
    assert!(!html.contains("class=\"changed\""));
    assert!(!html.contains("House rules"));
}

#[test]
fn sheet_to_an_unwritable_place_is_an_error() {
    let run = grognard(&[
        "sheet",
        "rulesets/drill-square.yaml",
        "--out",
        "/nonexistent-dir/sheet.html",
    ]);
    assert_eq!(run.code, 1);
    // prose: the error's words.
    assert!(
        run.stderr.contains("cannot write the sheet"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_tape_measure_reads_distance_arcs_and_sight_between_two_pieces() {
    // On the hex grid: steps, and each piece's arc of the other.
    let run = grognard(&["measure", "examples/hex-command.yaml", "b1", "r1", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["distance"], 3.0);
    assert_eq!(v["rule_distance"], 3.0);
    assert_eq!(v["unit"], "hexes");
    assert_eq!(v["arc_of_b_from_a"], "front");
    assert_eq!(v["a_sees_b"], true);
    // On the open table at 66% scale: 36 table inches are 36 / 0.66 rule inches.
    let run = grognard(&[
        "measure",
        "examples/black-powder.yaml",
        "fr_bde1",
        "br_bde1",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["distance"], 36.0);
    assert_eq!(v["rule_distance"], 54.545);
    for key in ["a_sees_b", "b_sees_a", "arc_of_b_from_a", "arc_of_a_from_b"] {
        assert!(!v[key].is_null(), "{key}");
    }
    let text = grognard(&[
        "measure",
        "examples/black-powder.yaml",
        "fr_bde1",
        "br_bde1",
    ]);
    // prose: the text answer's words for the same distances.
    assert!(
        text.stdout
            .contains("fr_bde1 to br_bde1: 36.00\" on the table, 54.55\" in rule inches"),
        "{}",
        text.stdout
    );
    let unknown = grognard(&["measure", "examples/hex-command.yaml", "b1", "r9"]);
    assert_eq!(unknown.code, 2);
    // prose: the error's suggestion.
    assert!(
        unknown.stderr.contains("did you mean `r1`?"),
        "{}",
        unknown.stderr
    );
}
