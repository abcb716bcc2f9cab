//! The editor's Simulate tab and `grognard sim` report one tally: for the same scenario,
//! policy, seed and runs the tab shows the numbers `sim --json` prints.

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::{EditorApp, Options, Saved};
use serde_json::Value;

use crate::util::{grognard, root};

/// `42.5% ± 15.5`, as both print a rate.
fn percent(e: &Value) -> String {
    format!(
        "{:.1}% ± {:.1}",
        e["mean"].as_f64().expect("mean") * 100.0,
        e["ci95"].as_f64().expect("ci95") * 100.0
    )
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
    let mut shown: Vec<String> = tab
        .sides
        .iter()
        .map(|side| percent(&sim["results"]["wins"][side]))
        .collect();
    shown.push(percent(draws));
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
