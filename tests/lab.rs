//! The chart lab, `show` and `schema`: exact odds checked against values worked out by
//! hand from the source rules (`tests/fixtures/lab/sources.yaml` encodes the charts).

use serde_json::Value;

use crate::util::{grognard, root, yaml_files};

const SOURCES: &str = "tests/fixtures/lab/sources.yaml";
const HOUSE: &str = "tests/fixtures/lab/house.yaml";

/// `grognard chart ARGS --json`, parsed; panics with the output when it fails.
fn chart_json(args: &[&str]) -> Value {
    let mut all = vec!["chart"];
    all.extend_from_slice(args);
    all.push("--json");
    let run = grognard(&all);
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

/// The exact fraction of `outcome` in each row of a `chart --json` report.
fn fractions(report: &Value, outcome: &str) -> Vec<String> {
    report["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            row["odds"]
                .as_array()
                .expect("odds")
                .iter()
                .find(|o| o["outcome"] == outcome)
                .and_then(|o| o["fraction"].as_str())
                .unwrap_or_else(|| panic!("no outcome {outcome} in {row}"))
                .to_owned()
        })
        .collect()
}

/// The fraction of `outcome` for one set of inputs of a chart of the sources.
fn odds(chart: &str, sets: &[&str], outcome: &str) -> String {
    let mut args = vec![SOURCES, chart];
    for s in sets {
        args.push("--set");
        args.push(s);
    }
    let report = chart_json(&args);
    let mut f = fractions(&report, outcome);
    assert_eq!(f.len(), 1);
    f.remove(0)
}

#[test]
fn scout_fate_table_matches_the_source() {
    // Scout Fate Table (d10): remove the scout on 10 beyond 5 squares, 10 at 4-5 squares,
    // 9-10 at 2-3, 8-10 at 1 or less; +2 if its headquarters is in transit, +2 at night,
    // on the starred (4 squares or closer) rows only.
    let cases = [
        // Beyond 5 squares: only a 10, whatever the modifiers (no asterisk) → 1/10.
        (["range=0", "transit=0", "night=0"], "1/10"),
        (["range=0", "transit=1", "night=0"], "1/10"),
        (["range=0", "transit=1", "night=1"], "1/10"),
        // 4-5 squares: a 10 → 1/10; in transit d10+2 ≥ 10 needs 8, 9, 10 → 3/10;
        // in transit at night d10+4 ≥ 10 needs 6-10 → 5/10 = 1/2.
        (["range=1", "transit=0", "night=0"], "1/10"),
        (["range=1", "transit=1", "night=0"], "3/10"),
        (["range=1", "transit=1", "night=1"], "1/2"),
        // 2-3 squares: 9 or 10 → 2/10 = 1/5; in transit d10+2 ≥ 9 needs 7-10 → 4/10 = 2/5;
        // at night alike → 2/5.
        (["range=2", "transit=0", "night=0"], "1/5"),
        (["range=2", "transit=1", "night=0"], "2/5"),
        (["range=2", "transit=0", "night=1"], "2/5"),
        // 1 square or less: 8-10 → 3/10; both +2s: d10+4 ≥ 8 needs 4-10 → 7/10.
        (["range=3", "transit=0", "night=0"], "3/10"),
        (["range=3", "transit=1", "night=1"], "7/10"),
    ];
    for (sets, want) in cases {
        assert_eq!(odds("scout_fate", &sets, "removed"), want, "{sets:?}");
    }
    // The same in one table, in transit, for each distance: 1/10, 3/10, 2/5, and 1/2
    // (d10+2 ≥ 8 at 1 square needs 6-10).
    let table = chart_json(&[
        SOURCES,
        "scout_fate",
        "--set",
        "transit=1",
        "--set",
        "range=0..3",
    ]);
    assert_eq!(table["vary"], "range");
    assert_eq!(fractions(&table, "removed"), ["1/10", "3/10", "2/5", "1/2"]);
    assert_eq!(fractions(&table, "reports"), ["9/10", "7/10", "3/5", "1/2"]);
    // Each row records the inputs and modifiers it used.
    let row = &table["rows"][1];
    assert_eq!(row["value"], 1);
    assert_eq!(row["inputs"]["transit"], 1);
    assert_eq!(row["modifier_total"], 2);
    assert_eq!(row["modifiers"][0]["name"], "headquarters in transit");
}

#[test]
fn break_test_with_modifiers_from_minus_3_to_plus_3() {
    // 2d6 + modifier ≥ 8 holds. Ways for 2d6 to make at least n, out of 36:
    // ≥11: 3, ≥10: 6, ≥9: 10, ≥8: 15, ≥7: 21, ≥6: 26, ≥5: 30.
    // So modifier -3..3 → 3/36, 6/36, 10/36, 15/36, 21/36, 26/36, 30/36.
    let report = chart_json(&[SOURCES, "break_test", "--set", "modifier=-3..3"]);
    assert_eq!(
        fractions(&report, "hold"),
        ["1/12", "1/6", "5/18", "5/12", "7/12", "13/18", "5/6"]
    );
    // P(2d6+1 ≥ 8) = 21/36 = 7/12, and each row's odds sum to 1.
    assert_eq!(odds("break_test", &["modifier=1"], "hold"), "7/12");
    assert_eq!(odds("break_test", &["modifier=1"], "break"), "5/12");
    // Repeated --set values make the same table as a range.
    let repeated = chart_json(&[
        SOURCES,
        "break_test",
        "--set",
        "modifier=0",
        "--set",
        "modifier=2",
    ]);
    assert_eq!(fractions(&repeated, "hold"), ["5/12", "13/18"]);
    // Values beyond the input's range are clamped as in play, and the row says so.
    let clamped = chart_json(&[SOURCES, "break_test", "--set", "modifier=5"]);
    assert_eq!(clamped["rows"][0]["inputs"]["modifier"], 3);
    assert_eq!(fractions(&clamped, "hold"), ["5/6"]);
}

#[test]
fn code_n_color_cube_bands_and_the_d6_stand_in() {
    // The cube has 3 red faces of 6 (one a red star) and 2 stars (one red, one blue):
    // Color = any red 3/6 = 1/2, Code = any star 2/6 = 1/3, Code'n Color = red star 1/6.
    assert_eq!(odds("cube_fire", &["band=0"], "hit"), "1");
    assert_eq!(odds("cube_fire", &["band=1"], "hit"), "1/2");
    assert_eq!(odds("cube_fire", &["band=2"], "hit"), "1/3");
    assert_eq!(odds("cube_fire", &["band=3"], "hit"), "1/6");
    assert_eq!(odds("cube_fire", &["band=4"], "hit"), "0");
    // With 1 combat penalty a Code shot needs a Code'n Color: 1/6.
    let report = chart_json(&[SOURCES, "cube_fire", "--set", "band=2", "--set", "cp=1"]);
    assert_eq!(fractions(&report, "hit"), ["1/6"]);
    assert_eq!(report["rows"][0]["band"]["name"], "Code'n Color");
    // Penalties past the last band leave it out of range: 0.
    assert_eq!(odds("cube_fire", &["band=3", "cp=3"], "hit"), "0");
    // The d6 stand-in: 1-3 Color (red), 4-5 Code (star), 6 Code'n Color (red star).
    // Color or better (a red face) is 1, 2, 3 or 6 → 4/6 = 2/3; any star 4, 5, 6 → 1/2;
    // the red star only 6 → 1/6.
    assert_eq!(odds("d6_fire", &["band=1"], "hit"), "2/3");
    assert_eq!(odds("d6_fire", &["band=2"], "hit"), "1/2");
    assert_eq!(odds("d6_fire", &["band=3"], "hit"), "1/6");
}

#[test]
fn a_d6_with_re_roll_a_1() {
    // 4+ on a d6 is 1/2; re-rolling a 1 once adds P(1) × P(4+) = 1/6 × 1/2 = 1/12 → 7/12.
    assert_eq!(odds("steady", &["veteran=0"], "pass"), "1/2");
    assert_eq!(odds("steady", &["veteran=1"], "pass"), "7/12");
    assert_eq!(odds("steady", &["veteran=1"], "fail"), "5/12");
    let text = grognard(&["chart", SOURCES, "steady", "--set", "veteran=on"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    // prose: the text says the re-roll and the odds in words.
    assert!(
        text.stdout.contains("re-roll d6 showing 1 once"),
        "{}",
        text.stdout
    );
    let pass = text
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("pass"))
        .unwrap_or_default();
    assert!(
        pass.contains("7/12") && pass.contains("58.33%"),
        "{}",
        text.stdout
    );
}

#[test]
fn against_shows_the_change_in_each_outcome() {
    // The house rule holds on 7+ instead of 8+: 21/36 instead of 15/36, a change of
    // +6/36 = +1/6 = +16.67 percentage points.
    let report = chart_json(&[SOURCES, "break_test", "--against", HOUSE]);
    assert_eq!(report["against"]["ruleset"], "lab-house");
    assert_eq!(fractions(&report, "hold"), ["5/12"]);
    assert_eq!(fractions(&report["against"], "hold"), ["7/12"]);
    let changes = &report["changes"][0];
    assert_eq!(changes[0]["outcome"], "hold");
    assert_eq!(changes[0]["change"], "+1/6");
    assert_eq!(changes[0]["points"], 16.67);
    assert_eq!(changes[1]["change"], "-1/6");
    let text = grognard(&["chart", SOURCES, "break_test", "--against", HOUSE]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    // prose: the text gives each change with its percentage points.
    assert!(text.stdout.contains("+1/6 (+16.67 pp)"), "{}", text.stdout);
    // With a range: one row per value, each cell before → after.
    // prose: the table's cells, before → after.
    let table = grognard(&[
        "chart",
        SOURCES,
        "break_test",
        "--against",
        HOUSE,
        "--set",
        "modifier=-1..1",
    ]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(
        table.stdout.contains("5/12 → 7/12 (+16.67 pp)"),
        "{}",
        table.stdout
    );
}

#[test]
fn chart_text_shows_fractions_and_percentages() {
    // prose: this test is about the text.
    let run = grognard(&[
        "chart",
        "rulesets/drill-hex.yaml",
        "fire",
        "--set",
        "band=0..4",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // drill-hex's cube: Color 1/2, Code 1/3, Code'n Color 1/6.
    for want in ["1/2 50.00%", "1/3 33.33%", "1/6 16.67%", "Code'n Color"] {
        assert!(run.stdout.contains(want), "{want}: {}", run.stdout);
    }
}

#[test]
fn chart_usage_errors_exit_2_with_suggestions() {
    // prose: usage errors with their suggestions.
    let typo = grognard(&["chart", SOURCES, "brake_test"]);
    assert_eq!(typo.code, 2);
    assert!(
        typo.stderr.contains("did you mean `break_test`"),
        "{}",
        typo.stderr
    );
    let input = grognard(&["chart", SOURCES, "break_test", "--set", "modifer=1"]);
    assert_eq!(input.code, 2);
    assert!(
        input.stderr.contains("did you mean `modifier`"),
        "{}",
        input.stderr
    );
    for bad in [
        "modifier",
        "modifier=x",
        "modifier=3..1",
        "modifier=0..99999",
    ] {
        let run = grognard(&["chart", SOURCES, "break_test", "--set", bad]);
        assert_eq!(run.code, 2, "{bad}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("error: --set"),
            "{bad}: {}",
            run.stderr
        );
    }
    let two = grognard(&[
        "chart",
        SOURCES,
        "cube_fire",
        "--set",
        "band=0..2",
        "--set",
        "cp=0..1",
    ]);
    assert_eq!(two.code, 2);
    assert!(
        two.stderr.contains("only one input may vary"),
        "{}",
        two.stderr
    );
    // The other ruleset lacks the chart.
    let other = grognard(&[
        "chart",
        SOURCES,
        "break_test",
        "--against",
        "rulesets/drill-hex.yaml",
    ]);
    assert_eq!(other.code, 2, "{}", other.stderr);
    assert!(other.stderr.contains("drill-hex"), "{}", other.stderr);
    // A broken ruleset is a rules error (1), not a usage error.
    let missing = grognard(&["chart", "tests/fixtures/lab/nothing.yaml", "x"]);
    assert_eq!(missing.code, 1, "{}", missing.stderr);
}

#[test]
fn odds_too_large_for_exact_fractions_are_refused_not_printed() {
    // 20d100 has 100^20 = 10^40 equally likely rolls, more than a 128-bit denominator
    // holds (about 3.4 × 10^38): the lab refuses rather than print saturated odds.
    // prose: the refusal's words.
    let run = grognard(&["chart", "tests/fixtures/lab/huge.yaml", "big"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("too many combinations to enumerate exactly"),
        "{}",
        run.stderr
    );
}

#[test]
fn show_lists_optional_rules_with_defaults() {
    let run = grognard(&["show", SOURCES, "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["ruleset"], "lab-sources");
    assert_eq!(v["geometry"]["kind"], "square");
    assert_eq!(v["options"][0]["name"], "sure_fire");
    assert_eq!(v["options"][0]["default"], false);
    assert_eq!(v["options"][0]["description"], "Every volley hits.");
    assert_eq!(v["options"][1]["name"], "long_muskets");
    assert_eq!(v["options"][1]["default"], true);
    assert_eq!(v["piece_types"][0]["allowance"]["formed"], "2");
    let fate = &v["charts"][0];
    assert_eq!(fate["name"], "scout_fate");
    assert_eq!(fate["dice"], "d10");
    assert_eq!(fate["outcomes"], serde_json::json!(["removed", "reports"]));
    assert_eq!(v["settings"]["night"], 0);
    assert_eq!(v["layers"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["extends"], serde_json::json!([]));

    // The overlay: two layers, and the removed option is gone.
    let house = grognard(&["show", HOUSE, "--json"]);
    let h: Value = serde_json::from_str(&house.stdout).expect("json");
    let extends = h["extends"].as_array().expect("extends");
    assert!(
        extends.len() == 1
            && extends[0]
                .as_str()
                .is_some_and(|p| p.ends_with("sources.yaml")),
        "{extends:?}"
    );
    assert_eq!(h["layers"].as_array().map(Vec::len), Some(2));
    assert_eq!(h["options"].as_array().map(Vec::len), Some(1));

    let text = grognard(&["show", SOURCES]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    // prose: `show` is a summary for reading.
    let line = |start: &str| {
        text.stdout
            .lines()
            .find(|l| l.trim_start().starts_with(start))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(line("sure_fire").contains("off"), "{}", text.stdout);
    assert!(line("long_muskets").contains("on"), "{}", text.stdout);
    assert!(
        line("steady").contains("re-roll d6 showing 1"),
        "{}",
        text.stdout
    );

    // A bundled ruleset with a Lua hook shows the binding.
    // prose: `show`'s summary names the hook.
    let mud = grognard(&["show", "rulesets/drill-square-mud.yaml"]);
    assert_eq!(mud.code, 0, "{}", mud.stderr);
    assert!(mud.stdout.contains("weather.move_cost"), "{}", mud.stdout);
}

#[test]
fn an_option_on_the_command_line_flips_an_outcome() {
    // `volley` adds +6 when sure_fire is on, so a d6 always makes 7+ (hit), and never
    // does when it is off (miss), whatever the seed.
    let play = |extra: &[&str]| {
        let mut args = vec![
            "play",
            "tests/fixtures/lab/volley.yaml",
            "--orders",
            "tests/fixtures/lab/volley.orders.yaml",
        ];
        args.extend_from_slice(extra);
        let p = crate::util::play_json_in(&crate::util::root(), args[1], args[3], &args[4..]);
        assert_eq!((p.code, &p.refused), (0, &None), "{extra:?}");
        p
    };
    // Each volley's outcome and modifiers, and whether r1 took a hit.
    let volleys = |p: &crate::util::Played| -> Vec<(Value, Value)> {
        (p.events.iter())
            .filter(|e| e["event"] == "acted" && e["action"] == "volley")
            .map(|e| (e["roll"]["outcome"].clone(), e["roll"]["modifiers"].clone()))
            .collect()
    };
    let hit = |p: &crate::util::Played| {
        p.has("counter_changed", "r1", |e| {
            e["counter"] == "hits" && e["from"] == 0 && e["to"] == 1
        })
    };
    let miss = (Value::from("miss"), serde_json::json!([]));
    let off = play(&[]);
    assert!(
        !volleys(&off).is_empty() && volleys(&off).iter().all(|v| *v == miss),
        "{:?}",
        off.events
    );
    assert!(!hit(&off), "{:?}", off.events);
    let on = play(&["--option", "sure_fire=on"]);
    let sure = serde_json::json!([{"name": "sure fire", "value": 6}]);
    assert!(
        volleys(&on).contains(&(Value::from("hit"), sure)),
        "{:?}",
        on.events
    );
    assert!(hit(&on), "{:?}", on.events);
    let off_again = play(&["--option", "sure_fire=off", "--seed", "9"]);
    assert!(
        volleys(&off_again).contains(&miss),
        "{:?}",
        off_again.events
    );
}

// ---- schema -------------------------------------------------------------------------

/// Checks `value` against the subset of JSON Schema draft-07 that schemars writes for
/// the file model; returns every mismatch as `path: problem`.
fn check(schema: &Value, root: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.trim_start_matches("#/definitions/");
        check(&root["definitions"][name], root, value, path, errors);
        return;
    }
    if let Some(options) = schema["anyOf"].as_array().or(schema["oneOf"].as_array()) {
        let fits = options.iter().any(|o| {
            let mut e = Vec::new();
            check(o, root, value, path, &mut e);
            e.is_empty()
        });
        if !fits {
            errors.push(format!("{path}: {value} fits none of the choices"));
        }
        return;
    }
    if let Some(all) = schema["allOf"].as_array() {
        for s in all {
            check(s, root, value, path, errors);
        }
    }
    if let Some(want) = schema.get("type") {
        let types: Vec<&str> = match want {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let fits = types.iter().any(|t| match *t {
            "null" => value.is_null(),
            "boolean" => value.is_boolean(),
            "string" => value.is_string(),
            "number" => value.is_number(),
            "integer" => value.is_i64() || value.is_u64(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            _ => false,
        });
        if !fits {
            errors.push(format!("{path}: {value} is not {types:?}"));
            return;
        }
    }
    if let Some(choices) = schema["enum"].as_array()
        && !choices.contains(value)
    {
        errors.push(format!("{path}: {value} is not one of {choices:?}"));
    }
    if let Value::Object(map) = value {
        let props = schema["properties"].as_object();
        for (k, v) in map {
            let here = format!("{path}.{k}");
            match props.and_then(|p| p.get(k)) {
                Some(s) => check(s, root, v, &here, errors),
                None => match &schema["additionalProperties"] {
                    Value::Bool(false) => errors.push(format!("{here}: key not allowed")),
                    s @ Value::Object(_) => check(s, root, v, &here, errors),
                    _ => {}
                },
            }
        }
        for r in schema["required"].as_array().into_iter().flatten() {
            if let Some(k) = r.as_str()
                && !map.contains_key(k)
            {
                errors.push(format!("{path}: missing {k}"));
            }
        }
    }
    if let (Value::Array(items), Some(s)) = (value, schema.get("items"))
        && s.is_object()
    {
        for (i, v) in items.iter().enumerate() {
            check(s, root, v, &format!("{path}[{i}]"), errors);
        }
    }
}

fn schema_of(kind: &str) -> Value {
    let run = grognard(&["schema", kind]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{kind}: {e}"))
}

fn file_json(path: &str) -> Value {
    let bytes = std::fs::read(root().join(path)).expect(path);
    grognard_rules::yaml::parse(path, &bytes, &grognard_rules::yaml::Limits::default())
        .unwrap_or_else(|d| panic!("{d}"))
        .to_json()
}

fn conforms(schema: &Value, path: &str) -> Vec<String> {
    let mut errors = Vec::new();
    check(schema, schema, &file_json(path), path, &mut errors);
    errors
}

#[test]
fn schema_names_every_ruleset_key() {
    let schema = schema_of("ruleset");
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    let props = schema["properties"].as_object().expect("properties");
    // Every key the model writes is in the schema.
    let model = serde_json::to_value(grognard_rules::model::RulesetSpec::default()).expect("json");
    for key in model.as_object().expect("object").keys() {
        assert!(props.contains_key(key), "schema lacks `{key}`");
    }
    assert!(props.len() >= 24, "{}", props.len());
    // Descriptions come from the model's doc comments.
    assert_eq!(
        props["options"]["description"].as_str(),
        Some("Optional rules.")
    );
    assert_eq!(schema["required"], serde_json::json!(["ruleset"]));
    let bad = grognard(&["schema", "rulez"]);
    assert_eq!(bad.code, 2);
}

#[test]
fn bundled_files_conform_to_the_schemas() {
    let ruleset = schema_of("ruleset");
    let scenario = schema_of("scenario");
    let orders = schema_of("orders");
    let mut checked = 0;
    let mut files = yaml_files("rulesets");
    files.extend(yaml_files("examples"));
    files.extend(yaml_files("tests/fixtures/lab"));
    files.extend(yaml_files("tests/fixtures/amounts"));
    for path in files {
        let json = file_json(&path);
        let schema = if json.get("ruleset").is_some() && json.get("scenario").is_none() {
            &ruleset
        } else if json.get("scenario").is_some() {
            &scenario
        } else {
            &orders
        };
        let errors = conforms(schema, &path);
        assert!(errors.is_empty(), "{path}:\n{}", errors.join("\n"));
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");

    // And the check has teeth: a misspelt key, a list where a mapping belongs and a word
    // where a number belongs are each caught.
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        "ruleset: x\ngeometry: { kind: hex }\nchrats: {}\nmodes: [formed]\nsequence: { turns: many }\n",
    )
    .expect("write");
    let bytes = std::fs::read(&bad).expect("read");
    let json = grognard_rules::yaml::parse("bad.yaml", &bytes, &Default::default())
        .expect("yaml")
        .to_json();
    let mut errors = Vec::new();
    check(&ruleset, &ruleset, &json, "bad", &mut errors);
    let all = errors.join("\n");
    for want in [
        "bad.chrats: key not allowed",
        "bad.modes",
        "bad.sequence.turns",
    ] {
        assert!(all.contains(want), "{want}: {all}");
    }
}

// ---- designer units ----------------------------------------------------------------------

#[test]
fn the_chart_lab_takes_distances_in_the_designers_units() {
    // Hex Command's fire chart reads its range band `from: distance_band` (bands 1, 2, 3, 5
    // hexes): 3 hexes is band 2, the Code band.
    // prose: the lab's lines say the unit and band in words (its JSON is checked below).
    let one = grognard(&[
        "chart",
        "rulesets/hex-command.yaml",
        "fire_small_b",
        "--set",
        "distance=3",
    ]);
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert!(
        one.stdout.contains("distance: 3 hexes → band 2"),
        "{}",
        one.stdout
    );
    assert!(one.stdout.contains("band: 2 (Code)"), "{}", one.stdout);
    // The same as asking for the band itself.
    let band = grognard(&[
        "chart",
        "rulesets/hex-command.yaml",
        "fire_small_b",
        "--set",
        "band=2",
    ]);
    let odds = |s: &str| {
        s.lines()
            .filter(|l| l.contains('%'))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(odds(&one.stdout), odds(&band.stdout));
    // A range prints the table by distance.
    let range = grognard(&[
        "chart",
        "rulesets/hex-command.yaml",
        "fire_small_b",
        "--set",
        "distance=1..6",
    ]);
    assert_eq!(range.code, 0, "{}", range.stderr);
    assert!(
        range.stdout.contains("distance (hexes)"),
        "{}",
        range.stdout
    );
    assert!(range.stdout.contains("4 → band 3"), "{}", range.stdout);
    assert!(range.stdout.contains("6 → band 4"), "{}", range.stdout);
    let json = grognard(&[
        "chart",
        "rulesets/hex-command.yaml",
        "fire_small_b",
        "--set",
        "distance=1..6",
        "--json",
    ]);
    let v: Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["rows"][2]["value"], 3);
    assert_eq!(v["rows"][2]["value_text"], "3 hexes → band 2");
    assert_eq!(v["rows"][2]["inputs"]["band"], 2);
    // Table inches on the open table: Black Powder's command distance is read in table
    // inches (`table_distance_band`, bands 11, 23, ...): 14 inches is band 1.
    let bp = grognard(&[
        "chart",
        "rulesets/black-powder.yaml",
        "command",
        "--set",
        "inches=14",
    ]);
    assert_eq!(bp.code, 0, "{}", bp.stderr);
    assert!(
        bp.stdout.contains("inches: 14 inches → band 1"),
        "{}",
        bp.stdout
    );
    // Issue 32: on a table `distance` reaches inputs read `from: distance` too, and takes
    // decimals, compared exactly with the chart's bounds (003 l.488: a French 6 lb's
    // canister ends at 15", its long range at 48"): 15 is canister, 15.5 effective, 48.5
    // out of range.
    for (d, want) in [
        ("15", "canister"),
        ("15.5", "effective"),
        ("48.5", "out_of_range"),
    ] {
        let run = grognard(&[
            "chart",
            "rulesets/black-powder.yaml",
            "artillery_range",
            "--set",
            "gun=8",
            "--set",
            &format!("distance={d}"),
            "--json",
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let v: Value = serde_json::from_str(&run.stdout).expect("json");
        let sure: Vec<&str> = v["rows"][0]["odds"]
            .as_array()
            .expect("odds")
            .iter()
            .filter(|o| o["fraction"] == "1")
            .filter_map(|o| o["outcome"].as_str())
            .collect();
        assert_eq!(sure, [want], "distance {d}");
    }
    // A chart with no distance input says so, and a negative distance is refused.
    // prose: usage errors.
    let none = grognard(&[
        "chart",
        "rulesets/drill-square.yaml",
        "volley",
        "--set",
        "distance=3",
    ]);
    assert_eq!(none.code, 2);
    assert!(
        none.stderr
            .contains("chart `volley` reads no input from distance or distance_band"),
        "{}",
        none.stderr
    );
    let negative = grognard(&[
        "chart",
        "rulesets/hex-command.yaml",
        "fire_small_b",
        "--set",
        "distance=-1",
    ]);
    assert_eq!(negative.code, 2);
    assert!(
        negative.stderr.contains("a distance is 0 or more"),
        "{}",
        negative.stderr
    );
}

/// `chart --actor TYPE --target TYPE` sets the inputs a piece type gives from the ruleset,
/// and under `--against` from the other ruleset's types, so an overlay that changes a
/// type's attribute shows (issue 39 item 3). Black Powder's order test: 2d6 − staff ≤ 0
/// succeeds; a brigadier's staff is 8, and 9 under the house rule. Three moves need a
/// score of −6 or less: 2d6 ≤ 2 (1/36) at staff 8, 2d6 ≤ 3 (3/36 = 1/12) at staff 9.
#[test]
fn chart_reads_a_piece_types_attributes_and_shows_an_overlays_change() {
    let run = grognard(&[
        "chart",
        "rulesets/black-powder.yaml",
        "command",
        "--actor",
        "brigadier",
        "--target",
        "line_infantry",
        "--against",
        "tests/fixtures/lab/staff-9.yaml",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let text = run.stdout.clone();
    assert!(
        v["converted"].as_array().is_some_and(|c| c.iter().any(|l| l
            .as_str()
            .is_some_and(|l| l.starts_with("from the actor, brigadier (mounted): staff 8")))),
        "{text}"
    );
    let plain = grognard(&[
        "chart",
        "rulesets/black-powder.yaml",
        "command",
        "--actor",
        "brigadier",
        "--against",
        "tests/fixtures/lab/staff-9.yaml",
    ]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let report = chart_json(&[
        "rulesets/black-powder.yaml",
        "command",
        "--actor",
        "brigadier",
        "--against",
        "tests/fixtures/lab/staff-9.yaml",
    ]);
    let three = |r: &Value| fractions(r, "three_moves");
    assert_eq!(
        (three(&report), three(&report["against"])),
        (vec!["1/36".to_owned()], vec!["1/12".to_owned()])
    );
    // Without --actor the staff input is the chart's default, the same in both.
    let none = chart_json(&[
        "rulesets/black-powder.yaml",
        "command",
        "--against",
        "tests/fixtures/lab/staff-9.yaml",
    ]);
    let changes = none["changes"][0].as_array().cloned().unwrap_or_default();
    assert!(
        !changes.is_empty() && changes.iter().all(|c| c["change"] == "0"),
        "{none}"
    );
    // A type that is not in the ruleset is a usage error with a suggestion.
    let bad = grognard(&[
        "chart",
        "rulesets/black-powder.yaml",
        "command",
        "--actor",
        "brigadeer",
    ]);
    assert_eq!(bad.code, 2);
    // prose: a usage error's suggestion.
    assert!(
        bad.stderr.contains("did you mean `brigadier`"),
        "{}",
        bad.stderr
    );
}
