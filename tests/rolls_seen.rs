//! Who sees a roll (issue 37 item 2): a side sees the dice, modifiers and result of every
//! roll made against its own pieces — on a real table you see the dice thrown at your
//! units — unless the chart is a referee's secret one; and a firer it has not sighted is
//! not named by it.

use serde_json::Value;

use crate::util::{grognard, grognard_in, json_of, root};

/// The roll records of a `view --json` answer's events (a `rolled` event's, or an act's own).
fn rolls(view: &Value) -> Vec<Value> {
    (view["events"].as_array().into_iter().flatten())
        .filter(|e| e["roll"].is_object())
        .map(|e| e["roll"].clone())
        .collect()
}

/// The log lines of a `view` run, trimmed.
fn log_lines(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip_while(|l| *l != "log:")
        .map(|l| l.trim().to_owned())
        .collect()
}

/// The line after `line` in `lines` (the roll an action made).
fn after<'a>(lines: &'a [String], line: &str) -> &'a str {
    let at = lines
        .iter()
        .position(|l| l == line)
        .unwrap_or_else(|| panic!("no `{line}` in\n{}", lines.join("\n")));
    lines.get(at + 1).map_or("", String::as_str)
}

#[test]
fn the_side_fired_at_sees_the_roll_on_hex_command() {
    // Turn 2, red's fire phase: r2 fires small arms at b2 (an automatic hit: no roll
    // needed, the commander's -1 keeps it in band 0) and r3's guns at b2 (a red face,
    // band 1 "Code" wants a star: a miss). Both are red's rolls in red's phase; blue sees
    // them because they are made against its b2. r2 and r3 are identified (blue's log
    // names them), so the script's own words stand.
    let args = |side: &str| {
        let mut a = vec![
            "view",
            "examples/hex-command.yaml",
            "--orders",
            "examples/hex-command.orders.yaml",
        ];
        if side == "referee" {
            a.push("--referee");
        } else {
            a.extend(["--side", side]);
        }
        a.into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    let run = |side: &str| {
        let a = args(side);
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        let out = grognard(&refs);
        assert_eq!(out.code, 0, "{}", out.stderr);
        log_lines(&out.stdout)
    };
    // Blue's view --json holds both rolls against b2, with their dice, modifiers and result.
    let mut a = args("blue");
    a.push("--json".to_owned());
    let refs: Vec<&str> = a.iter().map(String::as_str).collect();
    let rolled = rolls(&json_of(&grognard(&refs)));
    let roll = |purpose: &str| {
        (rolled.iter())
            .find(|r| r["purpose"] == purpose)
            .unwrap_or_else(|| panic!("no roll {purpose} in {rolled:?}"))
    };
    let small = roll("fire_small_b by r2 at b2");
    assert_eq!(
        (&small["band"], &small["outcome"]),
        (&"automatic".into(), &"hit".into())
    );
    let commander = serde_json::json!([{"name": "commander", "value": -1}]);
    assert_eq!(small["modifiers"], commander, "{small}");
    let guns = roll("fire_artillery_a by r3 at b2");
    assert_eq!(
        (&guns["band"], &guns["outcome"]),
        (&"Code".into(), &"miss".into())
    );
    assert_eq!(guns["dice"][0]["face"], "red", "{guns}");
    // prose: the words blue reads for them, the same as the referee's.
    let blue = run("blue");
    assert_eq!(
        after(&blue, "r2 fire at b2"),
        "fire_small_b: no roll needed; -1 commander; band 0 (automatic) → hit (fire_small_b by r2 at b2)"
    );
    assert_eq!(
        after(&blue, "r3 fire at b2"),
        "fire_artillery_a: cube red; band 1 (Code) → miss (fire_artillery_a by r3 at b2)"
    );
    // The referee's log holds the same lines: nothing was reworded for blue.
    let referee = run("referee");
    assert_eq!(
        after(&referee, "r2 fire at b2"),
        after(&blue, "r2 fire at b2")
    );
}

#[test]
fn black_powder_shows_every_roll_but_a_secret_charts() {
    // Turn 1, French musketry: fr_battery fires long at br_foot2 — to_hit d6 5 - 1 = 4, a
    // hit; br_foot2's save d6 1 - 4 - 1 = -4, failed on a one. The British see both (no
    // sighting rules: every roll is in view).
    let view = |dir: &std::path::Path, scenario: &str, side: &[&str]| {
        let mut a = vec![
            "view",
            scenario,
            "--orders",
            "examples/black-powder.orders.yaml",
        ];
        a.extend(side);
        let out = grognard_in(dir, &a);
        assert_eq!(out.code, 0, "{}", out.stderr);
        log_lines(&out.stdout)
    };
    let red = view(&root(), "examples/black-powder.yaml", &["--side", "red"]);
    // prose: the lines the British read (the rolls are checked on --json below).
    let save = "morale_save: d6 1; -4 save value, -1 long range; score -4 → failed_on_one (save of br_foot2)";
    assert_eq!(
        after(
            &red,
            "fr_battery artillery_fire at br_foot2 — artillery_range: no roll needed; +36 distance; score 36 → long"
        ),
        "to_hit: d6 5; -1 long range; score 4 → hit (long by fr_battery)"
    );
    assert!(red.iter().any(|l| l == save));

    // The same game under a house rule that makes the save the referee's secret roll:
    // no side's log holds a save any more; the referee's does, and the hit still lands.
    let dir = tempfile::tempdir().expect("tempdir");
    let base = root().join("rulesets/black-powder.yaml");
    std::fs::write(
        dir.path().join("secret.yaml"),
        format!(
            "ruleset: black-powder-secret\nextends: {}\ncharts:\n  morale_save:\n    secret: true\n",
            base.display()
        ),
    )
    .expect("write");
    let text = std::fs::read_to_string(root().join("examples/black-powder.yaml")).expect("read");
    std::fs::write(
        dir.path().join("bp.yaml"),
        text.replace("ruleset: black-powder\n", "ruleset: ./secret.yaml\n"),
    )
    .expect("write");
    let orders = dir.path().join("examples");
    std::fs::create_dir_all(&orders).expect("mkdir");
    std::fs::copy(
        root().join("examples/black-powder.orders.yaml"),
        orders.join("black-powder.orders.yaml"),
    )
    .expect("copy");
    let json = |side: &[&str]| {
        let mut a = vec![
            "view",
            "bp.yaml",
            "--orders",
            "examples/black-powder.orders.yaml",
        ];
        a.extend(side);
        a.push("--json");
        json_of(&grognard_in(dir.path(), &a))
    };
    let saves = |view: &Value| {
        rolls(view)
            .iter()
            .filter(|r| r["chart"] == "morale_save")
            .count()
    };
    for side in [["--side", "red"], ["--side", "blue"]] {
        let answer = json(&side);
        assert_eq!(saves(&answer), 0, "{side:?} sees a secret roll: {answer}");
        assert!(!rolls(&answer).is_empty(), "{answer}");
        let hit = (answer["events"].as_array().into_iter().flatten()).any(|e| {
            e["event"] == "counter_changed"
                && e["counter"] == "hits"
                && e["from"] == 0
                && e["to"] == 1
        });
        assert!(hit, "{side:?}: {answer}");
    }
    assert!(saves(&json(&["--referee"])) > 0);
    let referee = view(dir.path(), "bp.yaml", &["--referee"]);
    // prose: the referee's line for the save.
    assert!(referee.iter().any(|l| l == save), "{}", referee.join("\n"));
}

/// `hidden-fire` with the red pieces given in `reds` (forest cells, unseen by blue) in
/// `dir`; with `markers`, concealed pieces still show blue a marker (a handle).
fn hidden_fire(dir: &std::path::Path, reds: &[(&str, i32, i32)], markers: bool) -> String {
    let mut s = String::from(
        "scenario: cover\nruleset: hidden-fire.yaml\nseed: 11\nboard:\n  cols: 12\n  rows: 8\n  terrain:\n    forest: [[6, 3], [6, 5]]\nsides:\n  blue: {}\n  red: {}\npieces:\n  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n",
    );
    for (name, c, r) in reds {
        s.push_str(&format!(
            "  - {{ id: {name}, side: red, type: infantry, at: [{c}, {r}], facing: W }}\n"
        ));
    }
    let fixtures = root().join("tests/fixtures/rolls");
    let mut rules = std::fs::read_to_string(fixtures.join("hidden-fire.yaml")).expect("read");
    if markers {
        rules = rules.replace(
            "  public: [position]\n",
            "  public: [position]\n  concealed_public: [position]\n",
        );
    }
    std::fs::write(dir.join("hidden-fire.yaml"), rules).expect("write");
    // The piece in (6, 3) fires, whatever its name.
    let firer = reds
        .iter()
        .find(|(_, c, r)| (*c, *r) == (6, 3))
        .map_or("alpha", |x| x.0);
    let orders = std::fs::read_to_string(fixtures.join("hidden-fire.orders.yaml")).expect("read");
    std::fs::write(
        dir.join("hidden-fire.orders.yaml"),
        orders.replace("piece: alpha", &format!("piece: {firer}")),
    )
    .expect("write");
    std::fs::write(dir.join("cover.yaml"), s).expect("write");
    "cover.yaml".to_owned()
}

/// Blue's view (JSON and text) and the referee's, for each game.
fn three_games(markers: bool) -> (Vec<String>, Vec<String>, Vec<String>) {
    // Three games that differ only in the firer's identity: its place in the file (its
    // id) and its name.
    let games: [&[(&str, i32, i32)]; 3] = [
        &[("alpha", 6, 3), ("bravo", 6, 5)],
        &[("bravo", 6, 5), ("alpha", 6, 3)],
        &[("bravo", 6, 3), ("alpha", 6, 5)],
    ];
    let (mut json, mut text, mut referee) = (Vec::new(), Vec::new(), Vec::new());
    for reds in games {
        let dir = tempfile::tempdir().expect("tempdir");
        let scenario = hidden_fire(dir.path(), reds, markers);
        let run = |extra: &[&str]| {
            let mut a = vec![
                "view",
                scenario.as_str(),
                "--orders",
                "hidden-fire.orders.yaml",
            ];
            a.extend(extra);
            let out = grognard_in(dir.path(), &a);
            assert_eq!(out.code, 0, "{}", out.stderr);
            out.stdout
        };
        json.push(run(&["--side", "blue", "--json"]));
        text.push(run(&["--side", "blue"]));
        referee.push(run(&["--referee"]));
    }
    (json, text, referee)
}

#[test]
fn a_roll_from_an_unsighted_firer_reads_the_same_whoever_fired() {
    // alpha fires from the forest at b, three hexes off: d6 3, a miss. Blue cannot see
    // into the forest; it sees the roll against b and nothing of who made it.
    let (json, text, referee) = three_games(false);
    // The referee knows who fired: the games really differ.
    assert_ne!(referee[0], referee[2]);
    // prose: what the referee's log says of them.
    assert!(referee[0].contains("alpha fire at b — fire: d6 3; score 3 → miss"));
    assert!(referee[2].contains("bravo fire at b — fire: d6 3; score 3 → miss"));
    // prose: blue's log, line by line.
    let log = log_lines(&text[0]);
    assert_eq!(
        log,
        [
            "log:",
            "turn 1 · fire phase (blue)",
            "turn 1 · fire phase (red)",
            "fire: d6 3; score 3 → miss (fire by an unseen enemy at b)",
        ]
    );
    // No id for the firer in what blue receives: the roll names only b (blue's 0).
    let blue: Value = serde_json::from_str(&json[0]).expect("view --json");
    let rolled = rolls(&blue);
    assert_eq!(rolled.len(), 1, "{blue}");
    assert!(
        rolled[0]["against"] == 0 && rolled[0].get("by").is_none(),
        "{blue}"
    );
    assert_eq!(text[0], text[1]);
    assert_eq!(text[0], text[2]);
    assert_eq!(json[0], json[1]);
    assert_eq!(json[0], json[2]);
}

#[test]
fn a_roll_from_a_marker_names_it_by_its_handle_whoever_it_is() {
    // The same shot where concealed units still show a marker: blue knows the firer only
    // as enemy #1 (markers are numbered by place), in all three games alike.
    let (json, text, referee) = three_games(true);
    assert_ne!(referee[0], referee[2]);
    let blue: Value = serde_json::from_str(&json[0]).expect("view --json");
    let rolled = rolls(&blue);
    assert_eq!(rolled.len(), 1, "{blue}");
    assert_eq!(rolled[0]["purpose"], "fire by enemy #1 at b", "{blue}");
    // prose: blue's log line names the marker by its handle, never the firer's name.
    assert!(
        log_lines(&text[0]).contains(&"enemy #1 fire at b — fire: d6 3; score 3 → miss".to_owned()),
        "{}",
        text[0]
    );
    assert!(!text[0].contains("alpha") && !text[0].contains("bravo"));
    assert_eq!(text[0], text[1]);
    assert_eq!(text[0], text[2]);
    assert_eq!(json[0], json[1]);
    assert_eq!(json[0], json[2]);
}
