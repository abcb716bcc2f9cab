//! What the Lua host's integration tests share: starting a game of a hook fixture from a
//! scenario's text, an empty 6 × 6 drill-square board, the notes a script wrote, and the
//! check that a refused order leaves the game as it was. Each test file is a crate of its
//! own and uses what it needs.
#![allow(dead_code)]

use std::path::PathBuf;

use grognard_kernel::action::{Event, Order, RefusalKind};
use grognard_kernel::game::Game;
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::{Ruleset, load_ruleset, scenario_from_text};

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A game of the ruleset `fixture` (a path from the workspace root) and the scenario
/// `text` (named `file` in diagnostics), with its Lua hooks.
pub fn start(fixture: &str, file: &str, text: &str) -> (Game, LuaHooks) {
    let r: Ruleset = load_ruleset(&root().join(fixture)).unwrap_or_else(|d| panic!("{d}"));
    let s = scenario_from_text(file, text, &r).unwrap_or_else(|d| panic!("{d}\n{text}"));
    let mut hooks = LuaHooks::new(&r, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let game = s
        .start(None, &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    (game, hooks)
}

/// A drill-square scenario named `name` on an empty 6 × 6 board, with the sides blue and
/// red, `settings` (a YAML flow mapping, or empty) and `pieces` (YAML list lines).
pub fn empty_6x6(name: &str, settings: &str, pieces: &str) -> String {
    let settings = if settings.is_empty() {
        String::new()
    } else {
        format!("settings: {settings}\n")
    };
    format!(
        "scenario: {name}\nruleset: drill-square\nseed: 7\n{settings}board:\n  cols: 6\n  rows: 6\n  legend: {{ \".\": clear }}\n  map: |\n{}sides: {{ blue: {{}}, red: {{}} }}\npieces:\n{pieces}",
        "    . . . . . .\n".repeat(6)
    )
}

/// The notes the scripts wrote, in order.
pub fn notes(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Note { text } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// `order` is refused as a hook's failure with `why` in its message, and the game is as
/// it was.
pub fn refused_unchanged(game: &mut Game, hooks: &mut LuaHooks, order: &Order, why: &str) {
    let before = game.state_bytes();
    let r = game.apply(order, hooks).expect_err("refused");
    assert_eq!(r.kind, RefusalKind::HookFailed, "{r:?}");
    assert!(r.message.contains(why), "{}", r.message);
    assert_eq!(
        game.state_bytes(),
        before,
        "a refused order changed the game"
    );
}
