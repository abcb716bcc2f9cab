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
    assert!(h.state().status().is_some_and(|s| s.error), "{}", status(&h));
    h.state_mut().command(Command::Tab(Tab::Rules));
    h.run();
    assert!(h.state().status().is_none(), "{}", status(&h));
    assert!(h.state().session().is_some(), "the game is still open");
    assert!(h.query_by_label(HINT).is_none(), "the idle hint came back mid-game");
}
