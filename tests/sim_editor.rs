//! The editor's Simulate tab and `grognard sim` report one tally: for the same scenario,
//! policy, seed and runs the tab shows the numbers `sim --json` prints, and a rate in the
//! same words (the share with its Wilson 95% interval) as `sim`'s text.

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::{EditorApp, Options, Saved};
use grognard_play::tally::Share;
use serde_json::Value;

use crate::util::{grognard, root};

/// `42.5% (95%: 28.5–57.8)`, as both say a rate: `k` of `games` from `sim --json`'s
/// observed share.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // k ≤ games, small
fn words(e: &Value, games: u64) -> String {
    let k = (e["mean"].as_f64().expect("mean") * games as f64).round() as u64;
    Share::of(k, games).words()
}

/// `sim`'s text said a rate as mean ± 1.96·sd/√n, which read "0.0% ± 0.0" for a side that
/// never won (and "100.0% ± 0.0" for one that won every game): no sample proves that. The
/// text now gives the Wilson interval in the editor's words; `--json` keeps `mean` and
/// `ci95` as they were (the tuner reads them) and adds `wilson: [low, high]`.
#[test]
fn sim_says_a_rate_with_the_wilson_interval_the_editor_uses() {
    let args = [
        "sim",
        "tests/fixtures/tune/duel-scenario.yaml",
        "--policy",
        "random",
        "--runs",
        "6",
    ];
    let text = grognard(&args);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let run = grognard(&with_json);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sim: Value = serde_json::from_str(&run.stdout).expect("sim prints JSON");
    let games = sim["results"]["games"].as_u64().expect("games");
    assert_eq!(games, 6);
    let red = &sim["results"]["wins"]["red"];
    // With these seeds red wins none of the six: the half-width is 0, the Wilson interval
    // reaches 39.0%.
    assert_eq!(
        (red["mean"].as_f64(), red["ci95"].as_f64()),
        (Some(0.0), Some(0.0))
    );
    assert_eq!(red["wilson"], serde_json::json!([0.0, 0.3903]), "{red}");
    let line = text
        .stdout
        .lines()
        .find(|l| l.starts_with("results (6 games): "))
        .unwrap_or_else(|| panic!("{}", text.stdout));
    assert_eq!(
        line,
        "results (6 games): blue wins 16.7% (95%: 3.0–56.4), red wins 0.0% (95%: 0.0–39.0), \
         draws 83.3% (95%: 43.6–97.0)"
    );
    assert!(!line.contains('±'), "{line}");
    for (side, e) in sim["results"]["wins"]
        .as_object()
        .expect("wins")
        .iter()
        .chain([(&"draws".to_owned(), &sim["results"]["draws"])])
    {
        let w = e["wilson"].as_array().expect("wilson");
        let share = Share::of(
            (e["mean"].as_f64().expect("mean") * 6.0).round() as u64,
            games,
        );
        assert_eq!(
            (w[0].as_f64(), w[1].as_f64()),
            (
                Some((share.lo * 1e4).round() / 1e4),
                Some((share.hi * 1e4).round() / 1e4)
            ),
            "{side}"
        );
        assert!(line.contains(&share.words()), "{side}: {line}");
    }
    // A comparison says the rates in the same words.
    let cmp = grognard(&[
        "sim",
        "tests/fixtures/tune/duel-scenario.yaml",
        "--policy",
        "random",
        "--runs",
        "6",
        "--ruleset",
        "tests/fixtures/tune/duel.yaml",
    ]);
    assert_eq!(cmp.code, 0, "{}", cmp.stderr);
    let row = cmp
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("red wins"))
        .unwrap_or_else(|| panic!("{}", cmp.stdout));
    assert!(row.contains("0.0% (95%: 0.0–39.0)"), "{row}");
}

#[test]
fn sim_json_and_the_editor_simulate_tab_show_the_same_numbers() {
    const RUNS: u32 = 12;
    let scenario = "examples/hex-command.yaml";
    let run = grognard(&[
        "sim",
        scenario,
        "--policy",
        "random",
        "--runs",
        &RUNS.to_string(),
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sim: Value = serde_json::from_str(&run.stdout).expect("sim prints JSON");

    let app = EditorApp::new(
        Saved::default(),
        Options {
            scenario: Some(root().join(scenario)),
            ..Options::default()
        },
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run();
    h.get_by_role_and_label(Role::Button, "Simulate").click();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "games:")
        .set_value_accesskit(f64::from(RUNS));
    h.run();
    h.get_by_label("Run").click();
    h.run_steps(2);
    for _ in 0..1200 {
        if !h.state().simulating() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.step();
    }
    h.run_steps(2);
    let results = h
        .state()
        .simulation_results()
        .expect("the games ended")
        .clone()
        .expect("the games were played");
    assert_eq!(
        results.len(),
        1,
        "the bundled ruleset has no base of its own"
    );
    let tab = &results[0];
    assert_eq!(tab.games(), sim["games"].as_u64().expect("games"));
    // The same estimates, to the last digit `sim` keeps…
    for (i, side) in tab.sides.iter().enumerate() {
        let e = &sim["results"]["wins"][side];
        assert_eq!(tab.win_rate(i).mean, e["mean"].as_f64().expect("mean"));
        assert_eq!(tab.win_rate(i).ci95, e["ci95"].as_f64().expect("ci95"));
    }
    let draws = &sim["results"]["draws"];
    assert_eq!(tab.draw_rate().mean, draws["mean"].as_f64().expect("mean"));
    // …and on screen, as `sim` prints them.
    let decided = sim["results"]["games"].as_u64().expect("games");
    let mut shown: Vec<String> = tab
        .sides
        .iter()
        .map(|side| words(&sim["results"]["wins"][side], decided))
        .collect();
    shown.push(words(draws, decided));
    shown.push(format!(
        "{:.2} ± {:.2}",
        sim["length"]["mean"].as_f64().expect("mean"),
        sim["length"]["ci95"].as_f64().expect("ci95")
    ));
    for text in shown {
        assert!(
            h.query_all_by_label(&text).next().is_some(),
            "the tab shows {text}"
        );
    }
}
