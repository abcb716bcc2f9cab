//! `grognard edit` and plain `grognard` on a machine without a display; a house rule saved
//! by the editor passes `grognard validate`.

use crate::util::{grognard, root};

#[test]
fn edit_has_help() {
    let run = grognard(&["edit", "--help"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // prose: the help's words name the arguments.
    assert!(run.stdout.contains("RULESET"), "{}", run.stdout);
    assert!(run.stdout.contains("SCENARIO"), "{}", run.stdout);
}

#[test]
fn plain_grognard_without_a_display_prints_help() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .current_dir(root())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    // prose: the help printed without a display.
    assert!(stdout.contains("Usage: grognard"), "{stdout}");
    assert!(stdout.contains("edit"), "the editor is listed: {stdout}");
}

#[test]
fn edit_refuses_a_file_that_is_not_a_grognard_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let junk = dir.path().join("junk.yaml");
    std::fs::write(&junk, "hello: world\n").expect("write");
    let run = grognard(&["edit", &junk.to_string_lossy()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("not a grognard file"), "{}", run.stderr);
}

#[test]
fn a_house_rule_saved_by_the_editor_passes_validate() {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = root().join("rulesets/drill-square.yaml");
    let ruleset = grognard_rules::load::load_ruleset(&base).expect("base loads");
    let mut bench = grognard_editor::house::Workbench::new(ruleset, &dir.path().join("scratch"));
    let path = grognard_editor::house::field(&["charts", "volley", "rows", "0", "score"]);
    assert!(bench.set_text(&path, "8+"));
    let target = dir.path().join("club.yaml");
    bench.save(&target).expect("saves");
    let run = grognard(&["validate", &target.to_string_lossy()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let diff = grognard(&["diff", &base.to_string_lossy(), &target.to_string_lossy()]);
    // prose: `diff` names the changed chart in its words.
    assert!(diff.stdout.contains("chart `volley`"), "{}", diff.stdout);
}

#[test]
fn edit_without_a_display_says_so_instead_of_hanging() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["edit", "rulesets/drill-square.yaml"])
        .current_dir(root())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot open the editor window"), "{stderr}");
}
