//! The browser page against the server's searching player (issue 40; the search player's
//! report, B2): the page said nowhere that red was the computer, nor why it chose. The
//! legend and the turn line now name a side the server plays ("red — computer (search)"),
//! and the searching side's own seat and the referee see its last decision's most weighed
//! orders folded under one line; the other side's page holds none of it. Run with the
//! rest of `--test browser`.

use std::collections::BTreeMap;

use grognard_server::client::Client;
use serde_json::json;

use super::{Page, driver};

#[test]
fn a_seat_the_server_plays_is_named_and_only_its_own_page_shows_its_thinking() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let client = Client::new(&server.url()).unwrap();
    let request = grognard_server::bundle::gather(
        &crate::common::root().join("examples/drill-square.yaml"),
        BTreeMap::new(),
        Some(7),
        BTreeMap::from([("red".to_owned(), "search:it=4".to_owned())]),
    )
    .unwrap();
    let created = client.create(&request, Some(&server.host_token)).unwrap();
    let (game, tokens) = (&created.game, &created.tokens);
    // Blue ends its phases until red has searched a decision with a choice in it.
    for _ in 0..40 {
        let red = client.view(game, &tokens["red"]).unwrap();
        if !red.thinking.is_empty() || red.status.over {
            break;
        }
        client
            .orders(
                game,
                &tokens["blue"],
                "end.yaml",
                "orders:\n  - { side: blue, end_phase: true }\n",
            )
            .unwrap();
    }
    let red = client.view(game, &tokens["red"]).unwrap();
    assert_eq!(red.thinking.len(), 1, "red searched: {:?}", red.status);
    let link = |seat: &str| format!("{}/play/{game}#token={}", client.url(), tokens[seat]);

    let page = Page::open(&driver, "blue", 1280, 860);
    page.goto(&link("blue"));
    let legend = page.until(
        "the legend",
        "const t = document.getElementById('legend').textContent; return t.includes('red') ? t : null",
        json!([]),
    );
    assert!(
        legend.as_str().unwrap().contains("red — computer (search)"),
        "{legend}"
    );
    assert!(
        !legend.as_str().unwrap().contains("blue — computer"),
        "{legend}"
    );
    let hidden = page.js(
        "const d = document.getElementById('thinking'); return [d.hidden, d.textContent]",
        json!([]),
    );
    assert_eq!(
        hidden,
        json!([true, ""]),
        "blue's page holds red's thinking"
    );
    assert!(!page.html().contains("visits"), "blue's page says visits");
    let header = page.js(
        "return document.getElementById('seat').textContent",
        json!([]),
    );
    assert_eq!(header, json!("playing blue"));

    for seat in ["red", "referee"] {
        let page = Page::open(&driver, seat, 1280, 860);
        page.goto(&link(seat));
        let shown = page.until(
            "red's thinking",
            "const d = document.getElementById('thinking'); return d.hidden ? null : [d.open, d.querySelector('summary').textContent, [...d.querySelectorAll('li')].map((l) => l.textContent)]",
            json!([]),
        );
        assert_eq!(shown[0], json!(false), "{seat}: folded at first: {shown}");
        let header = page.js(
            "return document.getElementById('seat').textContent",
            json!([]),
        );
        let expected = if seat == "red" {
            "seat of red — computer (search)"
        } else {
            "referee"
        };
        assert_eq!(header, json!(expected));
        let summary = shown[1].as_str().unwrap();
        assert!(
            summary.starts_with("Why red — computer (search) chose its last order (turn "),
            "{seat}: {summary}"
        );
        assert!(
            summary.ends_with("in 4 imagined games"),
            "{seat}: {summary}"
        );
        let lines: Vec<&str> = shown[2]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        let considered = red.thinking[0].search["considered"].as_array().unwrap();
        assert_eq!(lines.len(), considered.len(), "{seat}: {lines:?}");
        let first = format!(
            " — {} visits, mean {:+.3} (given)",
            considered[0]["visits"],
            considered[0]["mean"].as_f64().unwrap()
        );
        assert!(lines[0].ends_with(&first), "{seat}: {lines:?} / {first}");
        assert!(
            lines[1..]
                .iter()
                .all(|l| l.contains(" visits, mean ") && !l.contains("(given)")),
            "{seat}: {lines:?}"
        );
        page.click("#thinking summary");
        page.screenshot(&format!("search-thinking-{seat}.png"));
    }
    page.screenshot("search-legend-blue.png");
}
