//! The Tune tab driven as a designer drives it (egui_kittest, by the labels on screen), on
//! the duel whose balance is known by construction (`tests/fixtures/tune/duel.yaml` at the
//! workspace root): Blue wins (11 − N)/10 of the games for a row "N+", so 50% is "6+".
//! The paths are absolute, so these tests need no particular working folder.

mod common;
use common::status;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::house::field;
use grognard_editor::{Command, EditorApp, Options, Saved};
use grognard_play::tune::Item;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn duel() -> Harness<'static, EditorApp> {
    let app = EditorApp::new(
        Saved::default(),
        Options {
            scenario: Some(root().join("tests/fixtures/tune/duel-scenario.yaml")),
            ..Options::default()
        },
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1500.0, 1400.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run();
    h.get_by_role_and_label(Role::Button, "Tune").click();
    h.run();
    h
}

fn run(h: &mut Harness<'_, EditorApp>) {
    h.get_by_role_and_label(Role::Button, "Run").click();
    h.run();
}

#[test]
fn the_tune_tab_finds_six_plus_and_saves_it_as_a_house_rule_that_loads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = duel();
    common::vary_shot_row(&mut h, "2", "10");
    // `grognard tune`'s defaults: blue (the first side), 50%, 400 games, greedy.
    h.get_by_role_and_label(Role::Button, "Run").click();
    // A spinner turns while the search runs.
    h.step();
    assert!(h.state().tuning(), "{}", status(&h));
    finish(&mut h);
    let answer = h.state().tune_answer().expect("an answer");
    // The same seeds and games as `grognard tune ... --runs 400`: the same numbers
    // (docs/designer-tools.md shows 48.5% ± 4.9 for "6+"), the interval Wilson's as on
    // the Simulate tab.
    assert_eq!(
        answer,
        "Answer: charts.shot.rows.0.score 9+ → 6+, with which blue wins 48.5% \
         (95%: 43.6–53.4); 50.0% is within that interval"
    );
    assert!(h.query_by_label(&answer).is_some(), "the answer is shown");
    assert!(
        h.query_by_label("meets the target").is_some(),
        "the candidates are listed"
    );
    assert!(status(&h).starts_with("tuning done"), "{}", status(&h));

    h.get_by_label("Save tuned as house rule…").click();
    h.run();
    let target = dir.path().join("duel-balanced.yaml");
    h.get_by_label("Save house rule — path:")
        .set_text_value_accesskit(&target.to_string_lossy());
    h.run();
    h.get_by_label("OK").click();
    h.run();
    assert!(
        status(&h).contains("reloads to the same ruleset"),
        "{}",
        status(&h)
    );
    // The house rule loads, and its row is "6+".
    let r = grognard_rules::load::load_ruleset(&target).expect("the house rule loads");
    assert_ne!(
        r.rules.identity,
        grognard_rules::load::load_ruleset(&root().join("tests/fixtures/tune/duel.yaml"))
            .expect("base")
            .rules
            .identity
    );
    let tree = grognard_rules::load::ruleset_tree(&target).expect("tree");
    let row = Item::parse("charts.shot.rows.0.score", &tree).expect("the row");
    assert_eq!(row.text(row.current), "6+");
}

#[test]
fn a_range_that_cannot_be_tried_is_refused_with_the_reason() {
    let mut h = duel();
    common::vary_shot_row(&mut h, "12", "10");
    run(&mut h);
    assert!(!h.state().tuning());
    assert_eq!(
        status(&h),
        "charts.shot.rows.0.score: the range 12..10 is empty"
    );
    let mut h = duel();
    common::vary_shot_row(&mut h, "10", "12");
    run(&mut h);
    assert!(
        status(&h).contains("the ruleset's value 9 is outside 10..12"),
        "{}",
        status(&h)
    );
}

/// Waits for the search to end, a frame at a time.
fn finish(h: &mut Harness<'_, EditorApp>) {
    let started = Instant::now();
    h.step();
    while h.state().tuning() {
        assert!(started.elapsed() < Duration::from_secs(240), "still tuning");
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
    h.run();
}

#[test]
fn unsaved_edits_are_the_ruleset_tuned() {
    let mut h = duel();
    // The row edited to "8+" but not saved: the tuner starts from it.
    h.state_mut().command(Command::SetField(
        field(&["charts", "shot", "rows", "0", "score"]),
        "8+".to_owned(),
    ));
    h.run();
    h.get_by_label("find a number:")
        .set_text_value_accesskit("shot");
    h.run();
    assert!(h.query_by_label("charts.shot.rows.0.score = 9+").is_none());
    h.get_by_label("charts.shot.rows.0.score = 8+").click();
    h.run();
    h.get_by_label("from").set_text_value_accesskit("2");
    h.run();
    h.get_by_label("to").set_text_value_accesskit("10");
    h.run();
    h.get_by_role_and_label(Role::Button, "Run").click();
    finish(&mut h);
    // "6+" is the same rules on the same seeds as from "9+": the same rate.
    assert_eq!(
        h.state().tune_answer().as_deref(),
        Some(
            "Answer: charts.shot.rows.0.score 8+ → 6+, with which blue wins 48.5% \
             (95%: 43.6–53.4); 50.0% is within that interval"
        )
    );
}

#[test]
fn stop_ends_a_search_between_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ruleset = root().join("tests/fixtures/tune/duel.yaml");
    let scenario = root().join("tests/fixtures/tune/duel-scenario.yaml");
    let tree = grognard_rules::load::ruleset_tree(&ruleset).expect("tree");
    let item = Item::parse("charts.shot.rows.0.score=2..10", &tree).expect("item");
    let request = grognard_editor::tune::TuneRequest {
        scenario_name: scenario.display().to_string(),
        scenario_text: std::fs::read_to_string(&scenario).expect("scenario"),
        ruleset,
        tuner: grognard_play::tune::Tuner {
            tree,
            name: "duel".into(),
            items: vec![item],
            side: 0,
            side_name: "blue".into(),
            target: 0.5,
            // Far more games than the test waits for.
            runs: 2_000_000,
        },
        policy: grognard_play::PolicyKind::Greedy,
        seed: 1,
        threads: 2,
        scratch: dir.path().to_path_buf(),
    };
    let job = grognard_editor::tune::TuneJob::start(request);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!job.finished());
    // While a candidate is measured the line says its games (third outside check item 6).
    let line = job.snapshot().running_line();
    assert!(
        line.starts_with("measuring the ruleset as it is… · this candidate: ")
            && line.contains(" of 2000000 games"),
        "{line}"
    );
    let stopped = Instant::now();
    job.cancel();
    let snapshot = job.wait();
    assert!(stopped.elapsed() < Duration::from_secs(20));
    // A stop is no error (third outside check item 6): what was measured stands.
    assert_eq!(snapshot.error, None);
    assert!(snapshot.stopped);
    assert!(
        snapshot.stopped_text().starts_with("stopped after "),
        "{}",
        snapshot.stopped_text()
    );
    assert!(snapshot.book.order.is_empty(), "{:?}", snapshot.book.order);
}

/// The second outside check (issue 37): a few games a candidate give an answer too wide to
/// trust; the tab says so with the games that would give ± 5 (`grognard tune`'s rule), and
/// counts one candidate in the singular.
#[test]
fn a_wide_answer_is_flagged_with_the_games_that_would_narrow_it() {
    let mut h = duel();
    h.get_by_role_and_label(Role::SpinButton, "games a candidate:")
        .set_value_accesskit(10.0);
    h.run();
    common::vary_shot_row(&mut h, "9", "9");
    h.get_by_role_and_label(Role::Button, "Run").click();
    finish(&mut h);
    let warning = h
        .query_by_label_contains("too wide to trust")
        .and_then(|n| n.accesskit_node().value())
        .expect("a warning under the answer");
    // At 10 games the interval is about ± 26 points: (26 / 5)² × 10, some 280, for ± 5.
    let needed: u32 = warning
        .split("about ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{warning}"));
    assert!((100..=400).contains(&needed), "{warning}");
    assert!(warning.contains("at 10 games a candidate"), "{warning}");
    // Beside the advice, what it would take here: games × the time a game took.
    assert!(
        warning.contains(" a candidate at the ") && warning.contains(" a game measured"),
        "{warning}"
    );
    assert!(
        h.query_by_label_contains("1 candidate, 10 games").is_some(),
        "one candidate, in the singular"
    );
}

#[test]
fn the_number_finder_says_more_match_than_it_shows() {
    let mut h = duel();
    h.get_by_label("find a number:")
        .set_text_value_accesskit("");
    h.run();
    let more = h.query_by_label_contains("in sight: scroll the list");
    let listed = h
        .query_all_by_role(Role::Button)
        .filter(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.contains(" = "))
        })
        .count();
    assert!(listed > 7, "the duel has more than seven numbers: {listed}");
    assert!(more.is_some(), "a hint that the list scrolls");
    h.get_by_label("find a number:")
        .set_text_value_accesskit("charts.shot.rows.0.score");
    h.run();
    assert!(
        h.query_by_label_contains("in sight: scroll the list")
            .is_none(),
        "one match, no hint"
    );
}
