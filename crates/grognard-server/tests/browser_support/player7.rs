//! The browser page as the seventh outside player of issue 37 met it (its report's #11):
//! the editor and the page drew one seat's view differently — enemy blocks face down
//! drawn white on the page and faded in the side's colour in the editor, no mode letters
//! on the page's counters, and orders worded otherwise ("move to (5,5)" against "→ (5,5),
//! 1 step"). The page now draws as the editor does; the same looks and words are pinned
//! on the editor's side by `crates/grognard-editor/tests/player_check15.rs`
//! (`a_seats_view_is_drawn_and_worded_as_the_page_draws_it`). Run with the rest of
//! `--test browser`.

use serde_json::json;

use super::{Page, driver};
use crate::Game;

/// What the editor shows of the French seat's opening position in square-blocks (seed
/// 1809): pinned here and in the editor's test alike.
const OWN_LABEL: &str = "scout1 S";
const MODE_LETTERS: &str = "B battle, R road, S strategic";
const A_MOVE: &str = "→ (5,5), 1 step";
/// The Austrians' colour (the second side's), the editor's.
const EDITOR_RED: &str = "rgb(178, 48, 48)";

#[test]
fn a_seats_view_is_drawn_and_worded_as_the_editor_draws_it() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let game = Game::create(&server, "square-blocks", 1809);
    let page = Page::open(&driver, "french", 1280, 860);
    page.goto(&game.link("french"));
    page.until(
        "the first state",
        "return document.body.dataset.orders",
        json!([]),
    );
    // Face-down enemy blocks: the side's colour, faded (the editor's 55%), white ink.
    let drawn = page.js(
        "return [...document.querySelectorAll('#board g.piece.enemy')].map((g) => { const b = getComputedStyle(g.querySelector('.body')); const t = g.querySelector('text.label'); return [g.dataset.key, g.classList.contains('facedown'), b.fill, b.fillOpacity, t ? getComputedStyle(t).fill : null]; })",
        json!([]),
    );
    let drawn = drawn.as_array().unwrap();
    let nine = drawn
        .iter()
        .find(|d| d[0] == "#9")
        .unwrap_or_else(|| panic!("no #9: {drawn:?}"));
    assert_eq!(
        nine,
        &json!(["#9", true, EDITOR_RED, "0.55", "rgb(255, 255, 255)"]),
        "{drawn:?}"
    );
    // The own counters carry the mode letter after the name, and the legend says them.
    let label = page.js(
        "return document.querySelector('#board g.piece.own[data-key=\"scout1\"] text.label').textContent",
        json!([]),
    );
    assert_eq!(label, json!(OWN_LABEL));
    let legend = page.js(
        "return document.getElementById('mode-letters')?.textContent ?? ''",
        json!([]),
    );
    assert!(legend.as_str().unwrap().ends_with(MODE_LETTERS), "{legend}");
    // The orders in the editor's words.
    page.click("#pieces button[data-key=\"scout1\"]");
    let orders = page.until(
        "scout1's orders",
        "const b = [...document.querySelectorAll('#selected button.order')].map((b) => b.textContent); return b.length ? b : null",
        json!([]),
    );
    assert!(
        orders.as_array().unwrap().iter().any(|o| o == A_MOVE),
        "{orders}"
    );
}
