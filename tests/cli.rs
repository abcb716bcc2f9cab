//! The commands on the bundled rulesets and examples.

use crate::util::{
    events_of, grognard, grognard_in, has_event, json_of, play_json, refusal_kind, root, yaml_files,
};

#[test]
fn every_bundled_ruleset_and_example_validates() {
    let mut files = yaml_files("rulesets");
    files.extend(yaml_files("examples"));
    assert!(
        files.len() >= 9,
        "expected the drill rulesets, scenarios and orders: {files:?}"
    );
    for f in &files {
        let run = grognard(&["validate", f]);
        assert_eq!(run.code, 0, "{f}: {}", run.stderr);
        assert!(run.stdout.starts_with("ok: "), "{f}: {}", run.stdout);
    }
}

#[test]
fn every_example_plays_its_orders_to_the_end() {
    for scenario in yaml_files("examples")
        .iter()
        .filter(|f| !f.ends_with(".orders.yaml"))
    {
        let orders = scenario.replace(".yaml", ".orders.yaml");
        let played = play_json(scenario, &orders);
        assert_eq!(played.code, 0, "{scenario}: {:?}", played.refused);
        let began = [("turn", 1.into())];
        assert!(
            has_event(&played.events, "phase_began", &began),
            "{scenario}: {:?}",
            played.events
        );
    }
}

/// Plays `examples/NAME.yaml` with its orders file and returns what it printed.
fn play_example(name: &str) -> String {
    let scenario = format!("examples/{name}.yaml");
    let orders = format!("examples/{name}.orders.yaml");
    let run = grognard(&["play", &scenario, "--orders", &orders]);
    assert_eq!(run.code, 0, "{name}: {}", run.stderr);
    run.stdout
}

/// Asserts that every line in `expected` appears in `out`.
fn assert_shows(out: &str, expected: &[&str]) {
    for e in expected {
        assert!(out.contains(e), "missing `{e}` in:\n{out}");
    }
}

#[test]
fn square_example_marches_over_the_bridge_in_road_mode() {
    let out = play_example("drill-square");
    assert_shows(
        &out,
        &[
            // 000 rule 10: road mode along the road ignores terrain; the bridge carries it
            // over the river that closes every other crossing (terrain table).
            "b4 moved (5,5) → (5,4) → (5,3), cost 2",
            // 000 rule 7: a diagonal step costs 1½.
            "b2 moved (6,6) → (7,5), cost 1½",
            "game over after 3 turns",
        ],
    );
}

#[test]
fn hex_example_stops_in_a_zone_of_control_and_fires() {
    let out = play_example("drill-hex");
    assert_shows(
        &out,
        &[
            // 004 §5.2: the three front hexes are the zone of control; entering one ends
            // the move.
            "b2 moved (4,6) → (4,5) → (4,4) → (4,3), cost 3 (stopped: entered the zone of control of r1)",
            // 004 charts: the neighbouring hex is an automatic hit, no roll.
            "fire: no roll needed; band 0 (automatic) → hit",
            "r2 now faces W",
        ],
    );
}

#[test]
fn open_example_measures_moves_in_inches() {
    let out = play_example("drill-open");
    assert_shows(&out, &["b1 moved (12\", 30\") → (12\", 20\"), 10\""]);
}

#[test]
fn play_is_deterministic_for_a_seed() {
    let args = [
        "play",
        "examples/drill-square.yaml",
        "--orders",
        "examples/drill-square.orders.yaml",
        "--seed",
        "99",
        "--json",
    ];
    let a = grognard(&args);
    let b = grognard(&args);
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(a.stdout, b.stdout);
    let json: serde_json::Value = serde_json::from_str(&a.stdout).expect("play --json prints JSON");
    assert!(json["events"].as_array().is_some_and(|e| e.len() > 10));
    assert!(json["refused"].is_null());
}

/// A refusal in `play --json` carries the kernel's kind beside the words `play` prints; an
/// order naming no piece never reaches the rules (`bad_orders`).
#[test]
fn play_json_gives_a_refusal_its_kind() {
    let dir = tempfile::tempdir().expect("temp dir");
    let twice = dir.path().join("twice.yaml");
    let nobody = dir.path().join("nobody.yaml");
    let b1 = "  - { side: blue, move: { piece: b1, path: [[3, 5]] } }\n";
    std::fs::write(&twice, format!("orders:\n{b1}{b1}")).expect("write");
    std::fs::write(
        &nobody,
        "orders:\n  - { side: blue, move: { piece: zz, path: [[3, 5]] } }\n",
    )
    .expect("write");
    let play = |orders: &std::path::Path| {
        let scenario = root().join("examples/drill-square.yaml");
        let run = grognard(&[
            "play",
            &scenario.to_string_lossy(),
            "--orders",
            &orders.to_string_lossy(),
            "--json",
        ]);
        assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
        json_of(&run)
    };
    let twice = play(&twice);
    assert_eq!(
        refusal_kind(&twice).as_deref(),
        Some("already_used"),
        "{twice}"
    );
    let words = twice["refused"]["message"].as_str().unwrap_or_default();
    // prose: the message keeps the words `play` prints, at the order's line.
    assert!(
        words.ends_with("twice.yaml:3:5: refused: b1 has already moved"),
        "{words}"
    );
    assert!(
        has_event(&events_of(&twice), "moved", &[("piece", 0.into())]),
        "{twice}"
    );
    let nobody = play(&nobody);
    assert_eq!(
        refusal_kind(&nobody).as_deref(),
        Some("bad_orders"),
        "{nobody}"
    );
}

/// A seat's policy that fails ends `play --json` with a `policy_failed` refusal, its words
/// naming the script's line; nothing after it is played.
#[test]
fn play_json_gives_a_failed_policy_its_kind() {
    let run = grognard(&[
        "play",
        "examples/drill-square.yaml",
        "--policy",
        "blue=lua:tests/fixtures/policies/bad.lua:out_of_list",
        "--json",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let answer = json_of(&run);
    assert_eq!(
        refusal_kind(&answer).as_deref(),
        Some("policy_failed"),
        "{answer}"
    );
    let words = answer["refused"]["message"].as_str().unwrap_or_default();
    // prose: the message names the script's line.
    assert!(
        words.starts_with("tests/fixtures/policies/bad.lua:4:"),
        "{words}"
    );
    let moved = |e: &serde_json::Value| e["event"] == "moved";
    let events = events_of(&answer);
    assert!(!events.is_empty() && !events.iter().any(moved), "{answer}");
}

#[test]
fn reach_reports_costs_and_paths() {
    let run = grognard(&[
        "reach",
        "examples/drill-square.yaml",
        "--unit",
        "b2",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let reach = json["reach"].as_array().cloned().unwrap_or_default();
    let cost_of = |c: [i64; 2]| {
        reach
            .iter()
            .find(|r| r["cell"][0] == c[0] && r["cell"][1] == c[1])
            .map(|r| r["cost"].as_str().unwrap_or("").to_owned())
    };
    // 000 rule 7 and the movement chart: cavalry in strategic mode has 1½ mp: one
    // orthogonal step (1) or one diagonal step (1½), never two steps.
    assert_eq!(cost_of([6, 5]).as_deref(), Some("1"));
    assert_eq!(cost_of([7, 5]).as_deref(), Some("1½"));
    assert_eq!(cost_of([6, 4]), None);
    // (5,7) holds b4 in road mode, which cannot stack (001 [6.98]).
    assert_eq!(cost_of([5, 7]), None);
    let run = grognard(&["reach", "examples/drill-square.yaml", "--unit", "nobody"]);
    assert_eq!(run.code, 2);
}

#[test]
fn roll_explains_dice_and_modifiers() {
    let run = grognard(&[
        "roll",
        "rulesets/drill-square.yaml",
        "volley",
        "--set",
        "cover=1",
        "--set",
        "flank=1",
        "--seed",
        "7",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // prose: `roll` explains the dice and modifiers in words.
    assert!(run.stdout.contains("-1 target in cover"), "{}", run.stdout);
    assert!(
        run.stdout.contains("+2 target's flank or rear"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("(seed 7)"));
    let again = grognard(&[
        "roll",
        "rulesets/drill-square.yaml",
        "volley",
        "--set",
        "cover=1",
        "--set",
        "flank=1",
        "--seed",
        "7",
    ]);
    assert_eq!(run.stdout, again.stdout);
    let run = grognard(&[
        "roll",
        "rulesets/drill-hex.yaml",
        "fire",
        "--set",
        "band=0",
        "--seed",
        "1",
        "--json",
    ]);
    let roll = &json_of(&run)["roll"];
    let automatic = (&roll["dice"], &roll["band"], &roll["outcome"]);
    assert_eq!(
        automatic,
        (&serde_json::json!([]), &"automatic".into(), &"hit".into()),
        "{roll}"
    );
    let typo = grognard(&["roll", "rulesets/drill-hex.yaml", "fyre"]);
    assert_eq!(typo.code, 2);
    assert!(
        typo.stderr.contains("did you mean `fire`?"),
        "{}",
        typo.stderr
    );
    let bad = grognard(&["roll", "rulesets/drill-hex.yaml", "fire", "--set", "bnad=1"]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("did you mean `band`?"),
        "{}",
        bad.stderr
    );
}

#[test]
fn usage_errors_exit_2() {
    // (Plain `grognard` opens the editor or prints help: see editor_cli.rs.)
    assert_eq!(grognard(&["play", "examples/drill-square.yaml"]).code, 2);
    assert_eq!(grognard(&["frobnicate"]).code, 2);
    let opt = grognard(&[
        "play",
        "examples/drill-square.yaml",
        "--orders",
        "examples/drill-square.orders.yaml",
        "--option",
        "x",
    ]);
    assert_eq!(opt.code, 2);
}

fn copy_example(dir: &std::path::Path) {
    for (from, to) in [
        ("rulesets/drill-square.yaml", "rulesets/drill-square.yaml"),
        ("examples/drill-square.yaml", "examples/drill-square.yaml"),
        (
            "examples/drill-square.orders.yaml",
            "examples/drill-square.orders.yaml",
        ),
    ] {
        let target = dir.join(to);
        std::fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
        std::fs::copy(root().join(from), target).expect("copy");
    }
}

/// A copy of the square example in a temporary folder, played and saved there as the bare
/// file name `game.json`.
fn saved_game() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_example(dir.path());
    let run = grognard_in(
        dir.path(),
        &[
            "play",
            "examples/drill-square.yaml",
            "--orders",
            "examples/drill-square.orders.yaml",
            "--save",
            "game.json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    dir
}

#[test]
fn a_save_replays_and_a_changed_ruleset_is_refused() {
    let dir = saved_game();
    let replay = grognard_in(dir.path(), &["replay", "game.json"]);
    assert_eq!(replay.code, 0, "{}", replay.stderr);
    // prose: `replay` says in words that it verified the save.
    assert!(
        replay.stdout.contains("replay verified"),
        "{}",
        replay.stdout
    );

    // A tampered event log is caught at the first differing event.
    let text = std::fs::read_to_string(dir.path().join("game.json")).expect("save");
    let tampered = text.replacen("\"cost\": 150", "\"cost\": 100", 1);
    assert_ne!(text, tampered);
    std::fs::write(dir.path().join("tampered.json"), tampered).expect("write");
    let bad = grognard_in(dir.path(), &["replay", "tampered.json"]);
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("diverges at event"), "{}", bad.stderr);

    // Changing a rule changes the ruleset's identity: the replay is refused.
    let rules = dir.path().join("rulesets/drill-square.yaml");
    let text = std::fs::read_to_string(&rules).expect("ruleset");
    std::fs::write(&rules, text.replace("medium_woods: +½", "medium_woods: +1")).expect("write");
    let refused = grognard_in(dir.path(), &["replay", "game.json"]);
    assert_eq!(refused.code, 1);
    assert!(
        refused.stderr.contains("the ruleset changed"),
        "{}",
        refused.stderr
    );
}

#[test]
fn a_save_named_without_a_folder_records_relative_paths() {
    let dir = saved_game();
    let save: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("game.json")).expect("save"))
            .expect("JSON");
    assert_eq!(save["scenario"]["path"], "examples/drill-square.yaml");
    assert_eq!(save["ruleset"]["path"], "rulesets/drill-square.yaml");
    // The save replays from another folder too: its paths are relative to the save.
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let replay = grognard_in(
        elsewhere.path(),
        &["replay", &dir.path().join("game.json").to_string_lossy()],
    );
    assert_eq!(replay.code, 0, "{}", replay.stderr);
}
