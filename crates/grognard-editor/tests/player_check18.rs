//! The ninth outside player's findings of issue 37 (its report's F1–F12): a scenario's own
//! mistake worded as its own, unsaved edits kept across the Scenario menu, one error per
//! bad value, the finder and the set-up panel, and the small ones — each checked as the
//! editor shows it, driven with egui_kittest.

mod common;

use std::path::Path;
use std::time::{Duration, SystemTime};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::EditorApp;

fn status(h: &Harness<'_, EditorApp>) -> String {
    h.state()
        .status()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

/// Writes `body` to `p` with a modification time `secs` ahead, as an edit on disk would.
fn rewrite(p: &Path, body: &str, secs: u64) {
    std::fs::write(p, body).expect("write");
    let f = std::fs::File::options().append(true).open(p).expect("open");
    f.set_modified(SystemTime::now() + Duration::from_secs(secs))
        .expect("mtime");
}

/// A copy of the bundled `name` scenario and its ruleset in a folder of their own.
fn copied(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    for d in ["examples", "rulesets"] {
        std::fs::create_dir_all(dir.path().join(d)).expect("dir");
    }
    for f in [
        format!("examples/{name}.yaml"),
        format!("rulesets/{name}.yaml"),
    ] {
        std::fs::copy(common::root().join(&f), dir.path().join(&f)).expect("copy");
    }
    let path = dir.path().join(format!("examples/{name}.yaml"));
    (dir, path)
}

/// F1: `turns: eight` in the open scenario, under its own ruleset, read "does not fit the
/// ruleset in force" and sent the player to the Ruleset menu, the first error at the
/// `scenario:` line. It is the file's own mistake, named at the `turns:` line, once.
#[test]
fn a_plain_mistake_in_the_scenario_is_its_own_and_names_its_line() {
    let (_dir, path) = copied("drill-square");
    let text = std::fs::read_to_string(&path).expect("read");
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("turns:"))
        .expect("a turns line");
    let mut h = common::scenario(&path.to_string_lossy(), 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    assert!(h.state().session().is_some(), "{}", status(&h));
    let turns = text
        .lines()
        .find(|l| l.starts_with("turns:"))
        .expect("turns");
    rewrite(&path, &text.replace(turns, "turns: eight"), 5);
    h.state_mut().check_files();
    h.run();
    let problems = h.state().scenario_problems().to_vec();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains(&format!(
            "drill-square.yaml:{line}:8: in turns: expected a whole number, found the text `eight`"
        )),
        "{problems:#?}"
    );
    assert!(h.state().scenario_own_fault());
    let s = status(&h);
    assert!(s.contains("mistake(s) of its own"), "{s}");
    assert!(
        !s.contains("does not fit") && !s.contains("Ruleset menu"),
        "{s}"
    );
    let _ = h.get_by_label_contains("The scenario file has a mistake (1)");
    assert!(h.query_by_label_contains("does not fit").is_none());
}
