//! The browser page as the fifth outside player of issue 37 met it (its report's #1, #5,
//! #6, #7): enemy blocks carry the handle their side's log names them by, a C sighting
//! says the block is real, a scout in plain view is not drawn as last seen, and a phase
//! the sides share names no one side's turn. Run with the rest of `--test browser`.

use serde_json::json;

use super::{Page, driver};
use crate::Game;

/// #6: the French page drew #9, #10 and #11 as blank white blocks while its log said
/// "french sights enemy #9". #1: "#10 sighting C · unidentified" did not say what C tells
/// (real, not a dummy). #5: the Austrian scout #8, face up in plain view, was drawn faded
/// as "not in sight now: last seen". #7: as the Austrians in the shared command phase the
/// banner read "french's turn · you (austrians) and french act at once".
#[test]
fn enemy_blocks_carry_their_handles_and_a_shared_phase_names_no_ones_turn() {
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
    let drawn = page.js(
        "return [...document.querySelectorAll('#board g.piece.enemy')].map((g) => [g.dataset.key, g.querySelector('text.label')?.textContent ?? '', g.getAttribute('aria-label'), g.classList.contains('stale')])",
        json!([]),
    );
    let drawn = drawn.as_array().unwrap();
    let find = |key: &str| {
        drawn
            .iter()
            .find(|d| d[0] == key)
            .unwrap_or_else(|| panic!("no {key} drawn: {drawn:?}"))
    };
    for key in ["#9", "#10", "#11"] {
        let d = find(key);
        assert!(
            d[1].as_str().unwrap().starts_with(key),
            "{key} drawn without its handle: {d}"
        );
    }
    let c = find("#10");
    assert!(
        c[2].as_str().unwrap().contains("sighting C")
            && c[2].as_str().unwrap().contains("real, not a dummy"),
        "{c}"
    );
    let scout = find("#8");
    assert_eq!(
        scout[3],
        json!(false),
        "a scout in plain view is in sight: {scout}"
    );
    assert!(
        !scout[2].as_str().unwrap().contains("not in sight now"),
        "{scout}"
    );

    let page = Page::open(&driver, "austrians", 1280, 860);
    page.goto(&game.link("austrians"));
    let line = page.until(
        "the shared phase said",
        "const t = document.getElementById('status').textContent; return t.includes('act at once') ? t : null",
        json!([]),
    );
    let line = line.as_str().unwrap();
    assert!(
        !line.contains("french's turn") && line.contains("you (austrians) and french act at once"),
        "{line}"
    );
}
