//! The browser page as the sixth outside player of issue 37 met it (its report's #21):
//! names spaced as the editor spaces them, and the sides in the editor's colours. (Its
//! nested brackets, "hale (removed (commander killed …))", are checked where the lost
//! game's removals are, in `tests/browser.rs`.) Run with the rest of `--test browser`.

use serde_json::json;

use super::{Page, driver};
use crate::Game;

/// The editor's side colours (`grognard_editor::scene::side_color`), first and second.
const EDITOR_BLUE: &str = "#345CA8";
const EDITOR_RED: &str = "#B23030";

/// #21: the page read "medium_woods" on the board, "army_hq" in the pieces list and
/// "fate_rolled" in the log where the editor reads "medium woods", "army hq" and "fate
/// rolled"; and drew the sides in other colours than the editor's.
#[test]
fn the_page_spaces_the_rulesets_names_and_draws_the_editors_colours() {
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
    let terrain = page.js(
        "return [...document.querySelectorAll('#board text.terrain-label')].map((t) => t.textContent)",
        json!([]),
    );
    let terrain: Vec<&str> = terrain
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(terrain.contains(&"medium woods"), "{terrain:?}");
    assert!(!terrain.iter().any(|t| t.contains('_')), "{terrain:?}");
    let army = page.js(crate::PIECE_LINE, json!(["army"]));
    let army = army[0].as_str().unwrap();
    assert!(
        army.contains("army hq") && !army.contains("army_hq"),
        "{army}"
    );
    let log = page.js(
        "return document.getElementById('log').textContent",
        json!([]),
    );
    let log = log.as_str().unwrap();
    assert!(
        log.contains("fate rolled") && !log.contains("fate_rolled"),
        "{log}"
    );
    // The sides' colours: the French (the first side) own block on the board, and the
    // swatches' colours.
    let colours = page.js(
        "const own = document.querySelector('#board g.piece.own .body')?.getAttribute('fill'); const css = getComputedStyle(document.documentElement); return [own, css.getPropertyValue('--s0').trim(), css.getPropertyValue('--s1').trim()]",
        json!([]),
    );
    assert_eq!(
        colours,
        json!([EDITOR_BLUE, EDITOR_BLUE, EDITOR_RED]),
        "{colours}"
    );
}
