//! The browser page as the fourth outside player of issue 37 met it (its remaining list):
//! names spaced as the editor spaces them, no facing for a type that has none, and a phase
//! the sides share said as shared. Run with the rest of `--test browser`.

use serde_json::json;

use super::support::{Page, driver};
use super::{Game, PIECE_LINE};

/// The fourth outside player (issue 37's remaining list, items 3 and 7): the page read
/// "cvs_i 4" where the editor reads "cvs i 4", gave a commander (a type with no facing) a
/// facing and a front bar, and said "your move" in a phase both sides share.
#[test]
fn the_page_spaces_names_gives_commanders_no_facing_and_says_a_shared_phase() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let game = Game::create(&server, "hex-command", 1809);
    let page = Page::open(&driver, "blue", 1280, 860);
    page.goto(&game.link("blue"));
    page.until(
        "the first state",
        "return document.body.dataset.orders",
        json!([]),
    );
    let ames = page.js(PIECE_LINE, json!(["ames"]));
    let (bare, folded) = (ames[0].as_str().unwrap(), ames[1].as_str().unwrap());
    assert!(
        format!("{bare} {folded}").contains("cvs i 4"),
        "{bare} / {folded}"
    );
    assert!(
        !bare.contains('_') && !folded.contains('_'),
        "{bare} / {folded}"
    );
    let drawn = |key: &str| {
        page.js(
            "const g = document.querySelector(`#board g.piece[data-key=\"${arguments[0]}\"]`); return [g.getAttribute('aria-label'), Boolean(g.querySelector('line.front'))]",
            json!([key]),
        )
    };
    let commander = drawn("ames");
    assert!(
        !commander[0].as_str().unwrap().contains("facing") && commander[1] == json!(false),
        "a commander has no facing: {commander}"
    );
    let unit = drawn("b1");
    assert!(
        unit[0].as_str().unwrap().contains("facing") && unit[1] == json!(true),
        "a unit faces: {unit}"
    );

    let game = Game::create(&server, "square-blocks", 1809);
    let status = game.state("french").status;
    assert!(
        status.to_act.len() == 2,
        "square-blocks opens on a phase both sides share: {:?}",
        status.to_act
    );
    let page = Page::open(&driver, "french", 1280, 860);
    page.goto(&game.link("french"));
    let line = page.until(
        "the shared phase said",
        "const t = document.getElementById('status').textContent; return t.includes('act at once') ? t : null",
        json!([]),
    );
    let line = line.as_str().unwrap();
    assert!(
        line.contains("you (french) and austrians act at once") && !line.contains("your move"),
        "{line}"
    );
}
