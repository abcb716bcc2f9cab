//! The eighth outside player's findings of issue 37 (its report's F11, F5/F4, F14, F1, F2,
//! F18, F3, F6): a scenario file rewritten on disk, the log's words, Undo's reason at game
//! over and while stepping, the step row's place, hot-seat off, and ids in the player's
//! words — each checked as the editor shows it, driven with egui_kittest.

mod common;

use std::path::Path;
use std::time::{Duration, SystemTime};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::{Command, EditorApp};

fn status(h: &Harness<'_, EditorApp>) -> String {
    h.state()
        .status()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

fn orders(h: &Harness<'_, EditorApp>) -> usize {
    h.state().session().expect("a game").orders().len()
}

/// Writes `body` to `p` with a modification time `secs` later than now, whatever the file
/// system's clock resolution.
fn rewrite(p: &Path, body: &str, secs: u64) {
    std::fs::write(p, body).expect("write");
    let f = std::fs::File::options().append(true).open(p).expect("open");
    f.set_modified(SystemTime::now() + Duration::from_secs(secs))
        .expect("mtime");
}

/// F11: `touch` on the open scenario (same bytes) restarted the game in play from turn 1,
/// losing its orders. The same bytes are no change; a real change while a game is in play
/// keeps the game, says the file changed, and offers a new game from it.
#[test]
fn a_scenario_file_rewritten_on_disk_does_not_throw_the_game_in_play_away() {
    let dir = tempfile::tempdir().expect("temp dir");
    for d in ["examples", "rulesets"] {
        std::fs::create_dir_all(dir.path().join(d)).expect("dir");
    }
    for f in ["examples/drill-square.yaml", "rulesets/drill-square.yaml"] {
        std::fs::copy(common::root().join(f), dir.path().join(f)).expect("copy");
    }
    let path = dir.path().join("examples/drill-square.yaml");
    let text = std::fs::read_to_string(&path).expect("read");
    let mut h = common::scenario(&path.to_string_lossy(), 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    assert!(h.state().session().is_some(), "{}", status(&h));
    h.state_mut().command(Command::EndPhase);
    h.run();
    assert_eq!(orders(&h), 1, "{}", status(&h));
    // Touched: the same bytes, a new time.
    rewrite(&path, &text, 5);
    h.state_mut().check_files();
    h.run();
    assert_eq!(
        orders(&h),
        1,
        "same content, the game goes on: {}",
        status(&h)
    );
    assert!(!status(&h).contains("started under"), "{}", status(&h));
    // Really changed: the game still goes on, and the player is told.
    rewrite(&path, &text.replace("turns: 3", "turns: 4"), 10);
    h.state_mut().check_files();
    h.run();
    assert_eq!(orders(&h), 1, "a game in play is kept: {}", status(&h));
    let said = status(&h);
    assert!(
        said.contains("examples/drill-square.yaml changed on disk")
            && said.contains("the game in play goes on"),
        "{said}"
    );
    h.get_by_role_and_label(Role::Button, "New game from the changed files")
        .click();
    h.run();
    assert_eq!(orders(&h), 0, "a new game: {}", status(&h));
    assert_eq!(h.state().session().expect("a game").game.turns(), 4);
    assert!(
        h.query_by_label("New game from the changed files")
            .is_none(),
        "the offer goes once taken"
    );
}
