//! The twelfth outside player's findings of issue 37 (/work/audit/editor-player-12): the
//! idle hint back mid-game, a ruleset broken by the first change after a game began, Tune's
//! numbers that change nothing and its stale answer, the Charts inputs at 0, and the
//! cosmetic points — each checked as the editor shows it, driven with egui_kittest.

mod common;
use common::status;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::app::Tab;
use grognard_editor::{Command, EditorApp};

const HINT: &str = "Open a ruleset or a scenario to begin.";

/// Finding 1: a refusal cleared mid-game (here Undo's, cleared by a change of tab) left the
/// status line empty, and the empty line read "Open a ruleset or a scenario to begin." as
/// if the game had been closed. The hint is for an empty editor only.
#[test]
fn the_idle_hint_is_shown_only_when_nothing_is_open() {
    let mut empty = common::sized(grognard_editor::Options::default(), 1400.0, 900.0);
    empty.run();
    let _ = empty.get_by_label(HINT);

    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    h.state_mut().command(Command::Tab(Tab::Play));
    h.run();
    h.state_mut().command(Command::Undo);
    h.run();
    assert!(
        h.state().status().is_some_and(|s| s.error),
        "{}",
        status(&h)
    );
    h.state_mut().command(Command::Tab(Tab::Rules));
    h.run();
    assert!(h.state().status().is_none(), "{}", status(&h));
    assert!(h.state().session().is_some(), "the game is still open");
    assert!(
        h.query_by_label(HINT).is_none(),
        "the idle hint came back mid-game"
    );
}

/// True when the button labelled `label` is drawn and enabled.
fn enabled(h: &Harness<'_, EditorApp>, label: &str) -> bool {
    !h.get_by_role_and_label(Role::Button, label)
        .accesskit_node()
        .is_disabled()
}

/// The words of the first node whose label or value holds `part`.
fn words_with(h: &Harness<'_, EditorApp>, part: &str) -> String {
    let n = h.get_by_label_contains(part);
    let n = n.accesskit_node();
    n.label().or_else(|| n.value()).unwrap_or_default()
}

/// Finding 3: a ruleset broken by the first change after a game began gave only the red
/// status line — no *New game from the changed files* row, which came (greyed) only when a
/// good change had come first. It comes greyed at once, its hover naming the file and line;
/// fixed, it is live.
#[test]
fn a_ruleset_broken_by_its_first_change_greys_the_new_game_row() {
    let (dir, path) = common::copied("drill-square");
    let rules = dir.path().join("rulesets/drill-square.yaml");
    let text = std::fs::read_to_string(&rules).expect("read");
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("  hits: { max: 3,"))
        .expect("the hits line");
    let mut h = common::scenario(&path.to_string_lossy(), 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.state_mut().command(Command::EndPhase);
    h.run();
    let label = "New game from the changed files";
    assert!(h.query_by_label(label).is_none());
    common::rewrite(
        &rules,
        &text.replace("  hits: { max: 3,", "  hits: { max: three,"),
        5,
    );
    h.state_mut().check_files();
    h.run();
    assert!(
        h.state().status().is_some_and(|s| s.error),
        "{}",
        status(&h)
    );
    assert!(
        !enabled(&h, label),
        "the row is greyed while the ruleset is broken"
    );
    h.get_by_role_and_label(Role::Button, label).hover();
    h.run();
    let hover = words_with(&h, "No new game can start from the files as they are now");
    assert!(
        hover.contains(&format!("drill-square.yaml:{line}:")),
        "{hover}"
    );
    common::rewrite(&rules, &format!("{text}\n# fixed\n"), 10);
    h.state_mut().check_files();
    h.run();
    assert!(enabled(&h, label), "{}", status(&h));
}
