//! What the third outside designer found in the tools (issue 36): `chart --against` over a
//! distance range, the lab's report of gated inputs, `roll` with a distance, the reason a
//! unit of the wrong type cannot act, `fuzz --vary`'s count. The designer's own ruleset
//! (Steel and Shot) and house-rule overlay are the fixtures.

use crate::util::grognard;

const DIR: &str = "tests/fixtures/audits/designer-3";

fn path(file: &str) -> String {
    format!("{DIR}/{file}")
}

/// `grognard ARGS`, which must succeed; its standard output.
fn ok(args: &[&str]) -> String {
    let run = grognard(args);
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    run.stdout
}

/// `grognard ARGS --json`, which must succeed.
fn ok_json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(&[args, &["--json"]].concat())).expect("json")
}

/// A roll's (or a chart row's) input `name`.
fn input(inputs: &serde_json::Value, name: &str) -> serde_json::Value {
    match inputs.as_array() {
        Some(pairs) => (pairs.iter())
            .find(|p| p[0] == name)
            .map(|p| p[1].clone())
            .unwrap_or_else(|| panic!("no input {name} in {inputs}")),
        None => inputs[name].clone(),
    }
}

#[test]
fn chart_against_over_a_distance_range_labels_rows_in_inches_with_each_rulesets_band() {
    // prose: this test is about how the lab's text labels its rows.
    let (base, club) = (
        path("steel-and-shot.yaml"),
        path("steel-and-shot-club.yaml"),
    );
    let out = ok(&[
        "chart",
        &base,
        "musketry",
        "--set",
        "distance=3..7",
        "--against",
        &club,
    ]);
    // The base bands close range at 4", the club at 6": rows 5 and 6 differ.
    let rows: Vec<Vec<&str>> = out
        .lines()
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect();
    let header = rows
        .iter()
        .find(|r| r.first() == Some(&"distance (rule inches)"))
        .unwrap_or_else(|| panic!("no header in\n{out}"));
    assert_eq!(
        header[..3],
        [
            "distance (rule inches)",
            "→ steel-and-shot",
            "→ steel-and-shot-club"
        ],
        "{out}"
    );
    for (inches, base_band, club_band) in [
        ("3", "band 0", "band 0"),
        ("4", "band 0", "band 0"),
        ("5", "band 1", "band 0"),
        ("6", "band 1", "band 0"),
        ("7", "band 1", "band 1"),
    ] {
        assert!(
            rows.iter()
                .any(|r| r.len() > 3 && r[..3] == [inches, base_band, club_band]),
            "no row {inches} {base_band} {club_band} in\n{out}"
        );
    }
    assert!(!out.contains("3000"), "thousandths shown:\n{out}");
    assert!(!out.contains("(→ "), "{out}");
    // The means are labelled the same way: at 5" the club still doubles (close range).
    let means = out.split("computed amounts:").nth(1).expect("means");
    assert!(
        means
            .lines()
            .any(|l| l.trim_start().starts_with("5 ") && l.contains("1 → 2 (+1)")),
        "{means}"
    );
}

#[test]
fn the_lab_marks_gated_inputs_and_says_when_a_gate_overrides_a_set_value() {
    // prose: this test is about the lab's report of gates, in words.
    let base = path("steel-and-shot.yaml");
    // `close` is `without: [long]`: over 3..7 it is 1 at 3-4 and 0 beyond.
    let out = ok(&[
        "chart",
        &base,
        "musketry",
        "--set",
        "distance=3..7",
        "--set",
        "close=1",
    ]);
    assert!(
        out.contains("close=varies by row (gate: without long)"),
        "{out}"
    );
    assert!(
        out.contains(
            "note: --set close=1 is overridden by its gate (without long) in 3 of 5 rows, where close reads 0"
        ),
        "{out}"
    );
    // One case: the gate holds `close` at 0 beyond 4", and says so.
    let out = ok(&[
        "chart",
        &base,
        "musketry",
        "--set",
        "distance=6",
        "--set",
        "close=1",
    ]);
    assert!(
        out.contains("close=0 (set by its gate: without long)"),
        "{out}"
    );
    assert!(
        out.contains("note: --set close=1 is overridden by its gate (without long): close reads 0"),
        "{out}"
    );
    // Against the club's overlay: at 5-6" the base is beyond close range and the club
    // within it, so `close` reads 0 in one and 1 in the other, and the header says so.
    let club = path("steel-and-shot-club.yaml");
    let out = ok(&[
        "chart",
        &base,
        "musketry",
        "--set",
        "distance=5..6",
        "--against",
        &club,
    ]);
    assert!(
        out.contains("close=0 → 1 in steel-and-shot-club (gate: without long)"),
        "{out}"
    );
    let out = ok(&[
        "chart",
        &base,
        "musketry",
        "--set",
        "distance=4..7",
        "--against",
        &club,
    ]);
    assert!(
        out.contains("close=varies by row (gate: without long)"),
        "{out}"
    );
    // An input no gate touches reads plainly; an overridden one shows in --json too.
    let out = ok(&[
        "chart",
        &base,
        "musketry",
        "--set",
        "distance=6",
        "--set",
        "close=1",
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        report["overridden"][0],
        "note: --set close=1 is overridden by its gate (without long): close reads 0",
        "{out}"
    );
}

#[test]
fn a_unit_of_a_type_the_action_leaves_out_is_told_which_types_may() {
    let run = grognard(&[
        "play",
        &path("crossroads.yaml"),
        "--orders",
        &path("cavalry-fire.orders.yaml"),
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "cavalry-fire.orders.yaml:4:5: refused: r_cav cannot fire: it is cavalry, and only \
             line_infantry, light_infantry may fire"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn roll_takes_a_distance_as_chart_does() {
    let base = path("steel-and-shot.yaml");
    // At 2" the band reads close range (long=0), so `close` doubles; at 5" it does not.
    let roll = |d: &str| ok_json(&["roll", &base, "musketry", "--set", d, "--seed", "3"]);
    let (close, far) = (roll("distance=2"), roll("distance=5"));
    let gates = |v: &serde_json::Value| {
        let inputs = &v["roll"]["inputs"];
        (input(inputs, "long"), input(inputs, "close"))
    };
    assert_eq!(gates(&close), (0.into(), 1.into()), "{close}");
    assert_eq!(gates(&far), (1.into(), 0.into()), "{far}");
    // prose: the conversion is told in words.
    assert_eq!(close["converted"][0], "distance: 2 rule inches → band 0");
    assert_eq!(far["converted"][0], "distance: 5 rule inches → band 1");
    // The same seed rolls the same die: only the doubling differs.
    let hits = |v: &serde_json::Value| v["amounts"][0]["amounts"][0]["value"].as_i64();
    assert_eq!(close["roll"]["dice"], far["roll"]["dice"]);
    assert_eq!(hits(&close), hits(&far).map(|h| h * 2), "{close}\n{far}");
    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "roll",
        &base,
        "musketry",
        "--set",
        "inches=2.5",
        "--seed",
        "3",
        "--json",
    ]))
    .expect("json");
    assert_eq!(json["converted"][0], "inches: 2.5 inches → band 0");
    // A range is for `chart`.
    let run = grognard(&["roll", &base, "musketry", "--set", "distance=3..5"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    // prose: a usage error.
    assert!(
        run.stderr.contains("a roll takes one value"),
        "{}",
        run.stderr
    );
}

#[test]
fn fuzz_vary_counts_the_games_after_the_first_and_names_those_it_could_not_vary() {
    let scenario = path("crossroads.yaml");
    let run = grognard(&["fuzz", &scenario, "--games", "6", "--vary", "--json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let varied = report["varied"].as_u64().expect("varied");
    let unvaried: Vec<u64> = report["unvaried_seeds"]
        .as_array()
        .expect("unvaried_seeds")
        .iter()
        .filter_map(serde_json::Value::as_u64)
        .collect();
    // Every game after the first is either varied or named as not.
    assert_eq!(varied + unvaried.len() as u64, 5, "{}", run.stdout);
    assert!(
        !unvaried.is_empty(),
        "this scenario has draws the checks refuse: {}",
        run.stdout
    );
    assert!(
        unvaried.iter().all(|s| (1814..=1818).contains(s)),
        "{unvaried:?}"
    );
    let text = ok(&["fuzz", &scenario, "--games", "6", "--vary"]);
    // prose: the report says it in words.
    let seeds: Vec<String> = unvaried.iter().map(u64::to_string).collect();
    assert!(
        text.contains(&format!(
            "{varied} of the 5 games after the first on scenarios around it; seeds {} played \
             the given one, as no variant drawn for them passed the scenario's checks in 20 tries",
            seeds.join(", ")
        )),
        "{text}"
    );
}

/// The fourth designer's ruleset (Lobositz) and its house rule, which turns canister off.
fn lobositz(file: &str) -> String {
    format!("tests/fixtures/audits/designer-4/rulesets/{file}")
}

#[test]
fn chart_roll_and_sheet_read_an_optional_rule_at_its_default() {
    let (base, fritz) = (lobositz("lobositz.yaml"), lobositz("lobositz-fritz.yaml"));
    // Canister is on by default: at close range the roundshot gets +2.
    let hit = |row: &serde_json::Value| {
        (row["odds"].as_array().into_iter().flatten())
            .find(|o| o["outcome"] == "hit")
            .map(|o| o["fraction"].clone())
    };
    let canister = serde_json::json!({"name": "canister", "value": 2});
    let fixed = serde_json::json!({"name": "fixed", "value": 1});
    let on = ok_json(&["chart", &base, "roundshot"]);
    let row = &on["rows"][0];
    let rule = (
        input(&row["inputs"], "canister_rule"),
        input(&row["inputs"], "canister"),
    );
    assert_eq!(rule, (1.into(), 1.into()), "{row}");
    assert!(
        row["modifiers"]
            .as_array()
            .is_some_and(|m| m.contains(&canister)),
        "{row}"
    );
    assert_eq!(hit(row), Some("2/3".into()), "{row}");
    // A --set still overrides the default.
    let off = ok_json(&[
        "chart",
        &base,
        "roundshot",
        "--set",
        "canister_rule=0",
        "--set",
        "canister=0",
    ]);
    assert_eq!(hit(&off["rows"][0]), Some("1/3".into()), "{off}");
    // The house rule turns canister off: each side reads its own default.
    let vs = ok_json(&[
        "chart",
        &base,
        "roundshot",
        "--against",
        &fritz,
        "--set",
        "distance=3",
    ]);
    let theirs = &vs["against"]["rows"][0];
    assert_eq!(input(&theirs["inputs"], "canister"), 0, "{theirs}");
    let change =
        (vs["changes"][0].as_array().into_iter().flatten()).find(|c| c["outcome"] == "hit");
    assert_eq!(change.map(|c| &c["change"]), Some(&"-1/3".into()), "{vs}");
    let modifiers = |ruleset: &str| {
        ok_json(&["roll", ruleset, "roundshot", "--seed", "1"])["roll"]["modifiers"].clone()
    };
    assert_eq!(modifiers(&base), serde_json::json!([fixed, canister]));
    assert_eq!(modifiers(&fritz), serde_json::json!([fixed]));
    // The sheet's exact odds: 2/3 with canister on, 1/3 under the house rule.
    let dir = std::env::temp_dir().join(format!("grognard-d4-sheet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sheet = |ruleset: &str, name: &str| {
        let file = dir.join(name);
        ok(&["sheet", ruleset, "--out", file.to_str().unwrap()]);
        let html = std::fs::read_to_string(&file).unwrap();
        let at = html
            .find("exact odds with beyond_4")
            .expect("roundshot odds");
        html[at..].chars().take(250).collect::<String>()
    };
    // prose: the sheet is for reading.
    let on = sheet(&base, "on.html");
    assert!(on.contains("canister_rule=1, canister=1"), "{on}");
    assert!(on.contains("2/3"), "{on}");
    let house = sheet(&fritz, "off.html");
    assert!(house.contains("canister=0"), "{house}");
    assert!(house.contains("1/3"), "{house}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_referee_view_shows_the_result_and_each_pieces_mode_hits_and_flags() {
    let game = "tests/fixtures/audits/designer-4/games/game-0003.json";
    // prose: this test is about the text view's lines.
    let referee = ok(&["view", game, "--referee"]);
    let side = ok(&["view", game, "--side", "blue"]);
    // A finished game: both views say how it ended.
    assert!(side.contains("result: a draw on points"), "{side}");
    assert!(referee.contains("result: a draw on points"), "{referee}");
    // What a side sees of its own piece, the referee sees too.
    let line = |text: &str, name: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in {text}"))
            .to_owned()
    };
    let own = line(&side, "b_inf2");
    assert!(
        own.contains("line mode") && own.contains("[hits 3, hurt, engaged, shaken_foot]"),
        "{own}"
    );
    let seen = line(&referee, "b_inf2");
    assert!(seen.contains("blue, infantry, line mode,"), "{seen}");
    assert!(
        seen.ends_with("[hits 3, hurt, engaged, shaken_foot]"),
        "{seen}"
    );
    // A piece with nothing to mark carries no brackets.
    assert!(!line(&referee, "b_gren").contains('['), "{referee}");
}

#[test]
fn sim_says_so_when_which_matches_no_game() {
    let scenario = "tests/fixtures/audits/designer-4/scenarios/lobositz.yaml";
    let dir = std::env::temp_dir().join(format!("grognard-d4-which-{}", std::process::id()));
    let folder = dir.to_str().unwrap().to_owned();
    let run = |which: &str| {
        let out = ok(&[
            "sim",
            scenario,
            "--policy",
            "random",
            "--runs",
            "4",
            "--seed",
            "1",
            "--save-games",
            &folder,
            "--which",
            which,
        ]);
        out.lines()
            .filter(|l| l.starts_with("saved "))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    // With this seed red wins two of the four games and blue none.
    assert_eq!(
        run("wins:blue"),
        vec!["saved 0 games (no game matched wins:blue)".to_owned()]
    );
    let red = run("wins:red");
    assert_eq!(red.len(), 1, "{red:?}");
    assert!(red[0].starts_with("saved 2 games"), "{red:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sheet_names_the_friends_an_input_counts_as_types() {
    let file =
        std::env::temp_dir().join(format!("grognard-d4-friends-{}.html", std::process::id()));
    let steel = path("steel-and-shot.yaml");
    ok(&["sheet", &steel, "--out", file.to_str().unwrap()]);
    let html = std::fs::read_to_string(&file).unwrap();
    let _ = std::fs::remove_file(&file);
    // prose: the sheet's words.
    assert!(html.contains("how many friendly pieces of type"), "{html}");
    assert!(!html.contains("how many friendly general"), "{html}");
}
