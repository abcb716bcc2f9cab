//! The browser client in a real browser: headless Chromium driven over WebDriver
//! (chromedriver; the W3C protocol spoken with `ureq`, which the server crate already
//! uses). Two pages play square-blocks and hex-command against each other by clicking
//! pieces and highlighted destinations; a black-powder base is dragged and dropped; after
//! every order each page's DOM holds nothing its seat's view does not; a page reconnects
//! after the server restarts, counting its wait down and dropping messages no longer true;
//! the host page creates a game (and tells a wrong host token apart), also from a folder
//! of the host's own files chosen in its folder picker; a piece's facts and
//! the log put the readable first, counters folded; an enemy out of sight is drawn faded;
//! a lost game says why and which pieces were removed; Enter on a piece moves the focus to
//! its first target. The WebDriver side lives in `browser_support/`.
//!
//! Without `chromium` and `chromedriver` on the PATH these tests say so and pass, unless
//! `GROGNARD_BROWSER_TESTS` is set (as `tools/test.sh` sets it): then a missing browser
//! fails them. `GROGNARD_SCREENSHOTS=DIR` also writes the screenshots of docs/.

mod common;
#[path = "browser_support/mod.rs"]
mod support;
// The fourth outside player's page checks (issue 37), apart so this file stays short.
#[path = "browser_support/player4.rs"]
mod player4;

use std::collections::BTreeMap;
use std::net::TcpListener;

use common::root;
use grognard_server::client::Client;
use grognard_server::config::Config;
use serde_json::{Value, json};
use support::{Driver, Page, driver};

// ---- the game ----

struct Game {
    client: Client,
    id: String,
    tokens: BTreeMap<String, String>,
    sides: Vec<String>,
}

impl Game {
    fn create(server: &grognard_server::Running, example: &str, seed: u64) -> Self {
        let request = grognard_server::bundle::gather(
            &root().join(format!("examples/{example}.yaml")),
            BTreeMap::new(),
            Some(seed),
            BTreeMap::new(),
        )
        .unwrap();
        let client = Client::new(&server.url()).unwrap();
        let created = client.create(&request, Some(&server.host_token)).unwrap();
        let sides = client
            .view(&created.game, &created.tokens["referee"])
            .unwrap()
            .view["views"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["side_name"].as_str().unwrap().to_owned())
            .collect();
        Self {
            client,
            id: created.game,
            tokens: created.tokens,
            sides,
        }
    }

    fn link(&self, seat: &str) -> String {
        format!(
            "{}/play/{}#token={}",
            self.client.url(),
            self.id,
            self.tokens[seat]
        )
    }

    fn state(&self, seat: &str) -> grognard_server::protocol::SeatState {
        self.client.view(&self.id, &self.tokens[seat]).unwrap()
    }
}

/// True when `word` occurs in `text` with no letter, digit or `_` on either side.
fn has_word(text: &str, word: &str) -> bool {
    let ok = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(word).any(|(i, _)| {
        ok(text[..i].chars().next_back()) && ok(text[i + word.len()..].chars().next())
    })
}

/// What the page of `seat` holds is no more than its view: no name of a piece the view
/// does not name, and exactly as many pieces as the view has.
fn holds_only_its_view(page: &Page<'_>, game: &Game, seat: &str, table: &str) {
    let state = game.state(seat);
    let view = serde_json::to_string(&state.view).unwrap();
    let referee = game.state("referee");
    let html = page.html();
    for piece in referee.view["state"]["pieces"].as_array().unwrap() {
        let name = piece["name"].as_str().unwrap();
        let told = view.contains(&format!("\"{name}\"")) || has_word(&state.text, name);
        // A word the public table holds (a type's name, say) tells nothing either way.
        if !told && !table.contains(&format!("\"{name}\"")) {
            assert!(
                !has_word(&html, name),
                "{}: the page names `{name}`, which its view does not",
                page.name
            );
        }
    }
    let v = &state.view["view"];
    let on_board = |list: &Value, place: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .filter(|p| {
                let at = if p[place].is_null() {
                    &p["last_seen"]["place"]
                } else {
                    &p[place]
                };
                !at.is_null() && at != "off"
            })
            .count()
    };
    let (own, enemy) = (on_board(&v["own"], "place"), on_board(&v["enemy"], "place"));
    let drawn = page.js(
        "return [document.querySelectorAll('#board .piece.own').length, document.querySelectorAll('#board .piece.enemy').length, document.querySelectorAll('#pieces li').length]",
        json!([]),
    );
    assert_eq!(
        drawn,
        json!([
            own,
            enemy,
            v["own"].as_array().unwrap().len() + v["enemy"].as_array().unwrap().len()
        ]),
        "{}: pieces drawn and listed against the view",
        page.name
    );
}

fn table_text(game: &Game) -> String {
    let url = format!("{}/games/{}/table", game.client.url(), game.id);
    let mut r = ureq::get(&url)
        .header(
            "Authorization",
            &format!("Bearer {}", game.tokens["referee"]),
        )
        .call()
        .unwrap();
    r.body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_string()
        .unwrap()
}

/// Two pages play `example` for `orders` orders, or to its end: whoever is to act moves
/// one piece by clicking it and a highlighted destination, then ends the phase. True when
/// the game ended (and both pages showed the result).
fn play_through_pages(driver: &Driver, example: &str, orders: u64) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let game = Game::create(&server, example, 1809);
    let table = table_text(&game);
    let pages: Vec<Page<'_>> = game
        .sides
        .iter()
        .map(|side| {
            let page = Page::open(driver, side, 1280, 860);
            page.goto(&game.link(side));
            page.until(
                "the first state",
                "return document.body.dataset.orders",
                json!([]),
            );
            page
        })
        .collect();
    for (page, side) in pages.iter().zip(&game.sides) {
        holds_only_its_view(page, &game, side, &table);
    }
    let mut given = 0;
    let mut moved_this_phase = BTreeMap::new();
    let mut board_moves = 0;
    while given < orders {
        let status = game.state("referee").status;
        if status.over {
            break;
        }
        let side = status.to_act[0].clone();
        let i = game.sides.iter().position(|s| *s == side).unwrap();
        let page = &pages[i];
        page.until(
            "its move",
            "return document.body.dataset.turn === 'yours'",
            json!([]),
        );
        let phase_key = (status.turn, status.phase.clone(), side.clone());
        // A piece with a move among the page's own order buttons.
        let mover = page.js(
            "for (const b of document.querySelectorAll('#orders button.order.move')) { const o = JSON.parse(b.dataset.order); return o.move.piece; } return null",
            json!([]),
        );
        if let (Some(piece), false) = (mover.as_str(), moved_this_phase.contains_key(&phase_key)) {
            // Selected already (it moved last time, and the page keeps the selection)?
            let selected = page.js(
                "return Boolean(document.querySelector(`#board g.piece.selected[data-key=\"${arguments[0]}\"]`))",
                json!([piece]),
            );
            if selected != json!(true) {
                page.click(&format!("#board g.piece[data-key=\"{piece}\"]"));
            }
            page.until(
                "its destinations",
                "return document.querySelectorAll('#board .dest').length",
                json!([]),
            );
            page.click("#board .dest");
            moved_this_phase.insert(phase_key, ());
            board_moves += 1;
        } else {
            page.click("#end-phase");
        }
        given += 1;
        // The page sends its order over its WebSocket, so a count read over HTTP as soon
        // as the click returns can come before the game has the order: that stale count
        // was then awaited on a page already past it. The acting page stays pending (End
        // phase disabled) until the state after its order reaches it, and the game
        // commits an order before it sends that state, so the count read after is current.
        page.until(
            "the answer to its order",
            "return !document.querySelector('#end-phase:disabled')",
            json!([]),
        );
        let now = game.state("referee").status.orders;
        for (p, s) in pages.iter().zip(&game.sides) {
            p.at_order(now);
            holds_only_its_view(p, &game, s, &table);
        }
        if given == 3 && example == "square-blocks" {
            pages[0].screenshot("web-square-blocks.png");
        }
    }
    assert!(
        board_moves >= 2,
        "{example}: moves given on the board: {board_moves}"
    );
    let status = game.state("referee").status;
    if status.over {
        // Both pages show the result, as the status words it.
        let why = status.result.map(|r| r.why).unwrap_or_default();
        for p in &pages {
            let shown = p.until(
                "the result",
                "const r = document.getElementById('result'); return !r.hidden && r.textContent",
                json!([]),
            );
            assert!(
                shown.as_str().unwrap().contains(&why),
                "{}: {shown}",
                p.name
            );
            // Why it ended is the headline; the points come after it.
            let headline = p.js(
                "return document.querySelector('#result h2').textContent",
                json!([]),
            );
            assert_eq!(headline, json!(why), "{}", p.name);
        }
    }
    status.over
}

#[test]
fn two_pages_play_square_blocks_and_hex_command() {
    let Some(driver) = driver() else { return };
    play_through_pages(&driver, "square-blocks", 12);
    play_through_pages(&driver, "hex-command", 10);
}

#[test]
fn two_pages_play_a_drill_to_its_result() {
    let Some(driver) = driver() else { return };
    assert!(
        play_through_pages(&driver, "drill-hex", 500),
        "the game ended"
    );
}

#[test]
fn a_black_powder_base_is_dragged_to_a_legal_place() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let game = Game::create(&server, "black-powder", 1809);
    let table = table_text(&game);
    let page = Page::open(&driver, "blue", 1280, 860);
    page.goto(&game.link("blue"));
    page.until(
        "the first state",
        "return document.body.dataset.orders",
        json!([]),
    );
    // As the example's orders: two phases ended, then the brigade's orders.
    let mut n = 0;
    for order in [
        json!({"side": "blue", "end_phase": true}),
        json!({"side": "blue", "end_phase": true}),
        json!({"side": "blue", "act": {"piece": "fr_bde1", "action": "assault", "target": "br_foot1"}}),
        json!({"side": "blue", "act": {"piece": "fr_bde1", "action": "brigade_order", "target": "fr_ligne"}}),
    ] {
        if order["act"]["action"] == json!("brigade_order") {
            // The brigadier selected, a click on one of its own battalions (which its
            // brigade order could target) offers to select that battalion first, and gives
            // no order by itself.
            page.click("#board g.piece[data-key=\"fr_bde1\"]");
            page.click("#board g.piece[data-key=\"fr_ligne\"]");
            let offered = page.until(
                "the choice",
                "const b = [...document.querySelectorAll('#selected button.order')].map(b => b.textContent); return b.length ? b : null",
                json!([]),
            );
            assert_eq!(offered[0], json!("Select fr_ligne"), "{offered}");
            page.click("#selected button.order.select");
            let selected = page.until(
                "fr_ligne selected",
                "const s = document.querySelector('#board g.piece.selected, #board g.piece[aria-pressed=\"true\"]'); return document.body.dataset.orders === String(arguments[0]) && document.getElementById('selected').textContent.includes('fr_ligne') ? true : null",
                json!([n]),
            );
            assert_eq!(selected, json!(true));
        }
        let css = if order["end_phase"] == json!(true) {
            "#end-phase".to_owned()
        } else {
            let found = page.js(
                "const canon = (v) => Array.isArray(v) ? v.map(canon) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v; const want = JSON.stringify(canon(JSON.parse(arguments[0]))); for (const b of document.querySelectorAll('#orders button.order')) { if (JSON.stringify(canon(JSON.parse(b.dataset.order))) === want) { const d = b.closest('details'); return [b.dataset.index, d ? d.dataset.piece : null, d ? d.open : true]; } } return null",
                json!([order.to_string()]),
            );
            let index = found[0]
                .as_str()
                .unwrap_or_else(|| panic!("no button for {order}"));
            // Its piece's group is opened first, as a player would.
            if found[2] == json!(false) {
                let piece = found[1].as_str().unwrap();
                page.click(&format!(
                    "#orders details[data-piece=\"{piece}\"] > summary"
                ));
            }
            format!("#orders button.order[data-index=\"{index}\"]")
        };
        page.click(&css);
        n += 1;
        page.at_order(n);
        holds_only_its_view(&page, &game, "blue", &table);
    }
    let before = game.state("blue").view["view"]["own"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "fr_ligne")
        .unwrap()["place"]
        .clone();
    page.click("#board g.piece[data-key=\"fr_ligne\"]");
    page.until(
        "its destinations",
        "return document.querySelectorAll('#board .dest').length",
        json!([]),
    );
    // Pressed on the base and dragged north: the page shows the distance before the drop.
    let centre = page.js(
        "const r = document.querySelector('#board g.piece[data-key=\"fr_ligne\"] .body').getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]",
        json!([]),
    );
    let (x, y) = (centre[0].as_i64().unwrap(), centre[1].as_i64().unwrap());
    // Dragged away and brought back onto its place, the base is dropped where it stands:
    // no order, and the message of the drag is gone.
    page.actions(json!([
        {"type": "pointerMove", "x": x, "y": y, "origin": "viewport"},
        {"type": "pointerDown", "button": 0},
        {"type": "pointerMove", "x": x, "y": y - 60, "origin": "viewport", "duration": 100},
        {"type": "pointerMove", "x": x, "y": y, "origin": "viewport", "duration": 100}
    ]));
    let home = page.js(
        "const t = document.querySelector('#board .drag-label'); return t && t.textContent",
        json!([]),
    );
    assert!(
        home.as_str()
            .is_some_and(|t| t.starts_with("back in place")),
        "{home}"
    );
    page.actions(json!([{"type": "pointerUp", "button": 0}]));
    std::thread::sleep(std::time::Duration::from_millis(500));
    let still = page.js(
        "return [document.body.dataset.orders, document.body.innerText.includes('back in place')]",
        json!([]),
    );
    assert_eq!(
        still,
        json!([n.to_string(), false]),
        "no order, no stale message"
    );
    page.actions(json!([
        {"type": "pointerMove", "x": x, "y": y, "origin": "viewport"},
        {"type": "pointerDown", "button": 0},
        {"type": "pointerMove", "x": x, "y": y - 40, "origin": "viewport", "duration": 100},
        {"type": "pointerMove", "x": x, "y": y - 90, "origin": "viewport", "duration": 100}
    ]));
    let label = page.until(
        "the distance while dragging",
        "const t = document.querySelector('#board .drag-label'); return t && t.textContent",
        json!([]),
    );
    let label = label.as_str().unwrap().to_owned();
    assert!(label.contains('″'), "{label}");
    let listed = game.state("blue");
    page.screenshot("web-black-powder-drag.png");
    page.actions(json!([{"type": "pointerUp", "button": 0}]));
    page.at_order(n + 1);
    let after = game.state("blue").view["view"]["own"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "fr_ligne")
        .unwrap()["place"]
        .clone();
    assert_ne!(before, after, "the dragged base moved");
    // The label gave the dropped move's cost and the allowance, as the server listed them.
    let index = listed
        .legal
        .iter()
        .position(|o| {
            o.move_to.as_ref().is_some_and(|m| {
                m.piece == "fr_ligne"
                    && json!([m.to[0], m.to[1]])
                        == json!([
                            after["point"]["at"]["x"].as_f64().unwrap() / 1000.0,
                            after["point"]["at"]["y"].as_f64().unwrap() / 1000.0
                        ])
            })
        })
        .unwrap_or_else(|| panic!("the move made is listed: {after}"));
    let cost = listed.costs[index].expect("a listed move on the table has a cost");
    assert!(cost.cost > 0.0 && cost.cost <= cost.allowance, "{cost:?}");
    let inches = |x: f64| format!("{}″", (x * 100.0).round() / 100.0);
    assert!(
        label.contains(&format!(
            "costs {} of {}",
            inches(cost.cost),
            inches(cost.allowance)
        )),
        "{label} / {cost:?}"
    );
    assert!(
        after["point"]["at"]["y"].as_i64() < before["point"]["at"]["y"].as_i64(),
        "north, as dragged: {before} → {after}"
    );
    holds_only_its_view(&page, &game, "blue", &table);
}

#[test]
fn a_page_reconnects_after_the_server_restarts() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite");
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let listen = format!("127.0.0.1:{port}");
    let host = "h".repeat(40);
    let server =
        grognard_server::spawn_with(Config::new(&listen, &db, &host), host.clone()).unwrap();
    let game = Game::create(&server, "drill-square", 7);
    let side = game.sides[0].clone();
    let page = Page::open(&driver, &side, 900, 700);
    page.goto(&game.link(&side));
    page.until(
        "live",
        "return document.body.dataset.conn === 'live'",
        json!([]),
    );
    let painted = page.js(
        "const p = performance.getEntriesByName('first-contentful-paint')[0]; const n = performance.getEntriesByType('navigation')[0]; return [p ? p.startTime : null, n ? n.transferSize : null]",
        json!([]),
    );
    eprintln!("first contentful paint (ms), page bytes: {painted}");
    drop(server);
    page.until(
        "it says it reconnects",
        "return document.body.dataset.conn === 'reconnecting' && document.getElementById('conn').textContent.includes('reconnecting')",
        json!([]),
    );
    // The wait it announces counts down: a wait of 2 s or more is seen a second less later.
    let waits = page.until(
        "a wait of 2 s or more",
        "const m = /reconnecting in (\\d+) s/.exec(document.getElementById('conn').textContent); return m && Number(m[1]) >= 2 && Number(m[1])",
        json!([]),
    );
    page.until(
        "the countdown",
        "return document.getElementById('conn').textContent.includes(`reconnecting in ${arguments[0] - 1} s`)",
        json!([waits.as_u64().unwrap()]),
    );
    // An order tried while down is not sent, and the page says so...
    page.click("#end-phase");
    let said = page.js(
        "return document.getElementById('message').textContent",
        json!([]),
    );
    assert!(said.as_str().unwrap().contains("Not connected"), "{said}");
    let _server =
        grognard_server::spawn_with(Config::new(&listen, &db, &host), host.clone()).unwrap();
    // ...until it is connected again: then that is no longer true, and no longer said.
    page.until(
        "live again, the message gone",
        "return document.body.dataset.conn === 'live' && document.getElementById('message').textContent === ''",
        json!([]),
    );
    // It plays on: the game is where it was; what was sent is not said once it is done.
    page.click("#end-phase");
    page.at_order(1);
    page.until(
        "the message cleared by the new state",
        "return document.getElementById('message').textContent === ''",
        json!([]),
    );
    // Undo shows exactly when the server allows it, and outside the seat's own move says
    // what it takes back.
    let state = game.state(&side);
    let undo = page.js(
        "const u = document.getElementById('undo'); return [u.hidden, u.textContent]",
        json!([]),
    );
    assert_eq!(undo[0], json!(!state.can_undo), "{undo}");
    if state.can_undo && !state.status.to_act.contains(&side) {
        assert_eq!(undo[1], json!("Take back my last order"));
    }
}

/// Presses the host page's Create and waits for its links: `[seat, link]` pairs.
fn create_on_host_page(page: &Page<'_>) -> Vec<Value> {
    page.click("#create");
    let links = page.until(
        "the links",
        "const l = [...document.querySelectorAll('#link-list input')].map(i => [i.dataset.seat, i.value]); return l.length ? l : null",
        json!([]),
    );
    links.as_array().cloned().unwrap_or_default()
}

#[test]
fn the_host_page_creates_a_game_and_shows_its_links() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let host = "k".repeat(40);
    let mut config = Config::new("127.0.0.1:0", dir.path().join("g.sqlite"), &host);
    config.offered =
        vec![grognard_server::web::offer(&root().join("examples/drill-square.yaml")).unwrap()];
    let server = grognard_server::spawn_with(config, host.clone()).unwrap();
    let page = Page::open(&driver, "host", 1000, 900);
    // A token from another start of the server is told apart from a missing one.
    page.goto(&format!("{}/host#token={}", server.url(), "x".repeat(40)));
    let said = page.until(
        "the refusal",
        "return document.getElementById('message').textContent",
        json!([]),
    );
    assert!(
        said.as_str()
            .unwrap()
            .contains("host token is not this server's")
            && said.as_str().unwrap().contains("--host-token-file"),
        "{said}"
    );
    page.goto("about:blank");
    page.goto(&format!("{}/host#token={host}", server.url()));
    page.until(
        "the scenarios",
        "return document.querySelectorAll('#bundled option').length > 1",
        json!([]),
    );
    page.js(
        "const s = document.getElementById('bundled'); s.value = s.options[1].value; s.dispatchEvent(new Event('change'));",
        json!([]),
    );
    page.until(
        "the sides",
        "return document.querySelectorAll('#players select').length",
        json!([]),
    );
    let links = create_on_host_page(&page);
    // The links are brought into sight, the first Copy button focused.
    let focus = page.js(
        "const a = document.activeElement; const r = document.getElementById('links').getBoundingClientRect(); return [a.tagName, a.textContent, a.closest('#link-list') !== null, r.top >= 0 && r.top < window.innerHeight]",
        json!([]),
    );
    assert_eq!(focus, json!(["BUTTON", "Copy", true, true]));
    let seats: Vec<&str> = links.iter().map(|l| l[0].as_str().unwrap()).collect();
    assert_eq!(
        seats.len(),
        4,
        "two sides, referee and spectator: {seats:?}"
    );
    page.screenshot("web-host.png");
    let first = links[0][1].as_str().unwrap();
    assert!(
        first.contains("/play/") && first.contains("#token="),
        "{first}"
    );
    page.goto(first);
    page.until(
        "the seat's page",
        "return document.body.dataset.conn === 'live' && document.body.dataset.orders === '0'",
        json!([]),
    );
    let seat = page.js("return document.body.dataset.seat", json!([]));
    assert_eq!(seat, links[0][0]);
    // The spectator's page: the status and the chat while the game runs, and no piece.
    let spectator = links
        .iter()
        .find(|l| l[0] == "spectator")
        .and_then(|l| l[1].as_str())
        .unwrap();
    page.goto(spectator);
    page.until(
        "the spectator's page",
        "return document.body.dataset.seat === 'spectator' && document.getElementById('status').textContent.includes('Turn 1')",
        json!([]),
    );
    let pieces = page.js(
        "return document.querySelectorAll('#board .piece, #pieces li, #orders button').length",
        json!([]),
    );
    assert_eq!(
        pieces,
        json!(0),
        "a spectator sees no piece while the game runs"
    );
    // Nor is told to select one to see its orders: a spectator gives none.
    let shown = page.js("return document.body.innerText", json!([]));
    assert!(
        !shown.as_str().unwrap().contains("Select a piece")
            && !shown.as_str().unwrap().contains("Orders"),
        "{shown}"
    );
}

/// The host's own folder, chosen in the page's folder picker (chromedriver uploads a
/// directory to a `webkitdirectory` input given its path): the page keeps the files'
/// paths inside the folder, finds the scenario and its ruleset, and the game it creates
/// is that scenario's.
#[test]
fn the_host_page_creates_a_game_from_an_uploaded_folder() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("my-club");
    for (from, to) in [
        ("examples/drill-square.yaml", "examples/drill-square.yaml"),
        ("rulesets/drill-square.yaml", "rulesets/drill-square.yaml"),
    ] {
        let to = folder.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root().join(from), to).unwrap();
    }
    // A house rule over it with optional rules of its own (one on by default).
    std::fs::write(
        folder.join("rulesets/drill-house.yaml"),
        "ruleset: drill-house\nextends: drill-square\noptions:\n  night_march: { description: \"March at night.\", default: true }\n  long_rifles: { description: \"Rifles reach one more.\" }\n",
    )
    .unwrap();
    // Left out: not YAML or Lua, and a hidden file.
    std::fs::write(folder.join("notes.txt"), "not a rules file").unwrap();
    std::fs::write(folder.join(".hidden.yaml"), "scenario: nope").unwrap();
    let host = "u".repeat(40);
    let config = Config::new("127.0.0.1:0", dir.path().join("g.sqlite"), &host);
    let server = grognard_server::spawn_with(config, host.clone()).unwrap();
    let page = Page::open(&driver, "upload", 1000, 900);
    page.goto(&format!("{}/host#token={host}", server.url()));
    page.until(
        "the form",
        "return document.getElementById('upload') !== null && document.getElementById('host-token').value.length > 0",
        json!([]),
    );
    let input = page.element("#upload");
    page.call(
        "POST",
        &format!("/element/{input}/value"),
        Some(json!({"text": folder.to_string_lossy()})),
    );
    let read = page.until(
        "the folder read",
        "const m = document.getElementById('message').textContent; return m.includes('files read') ? m : null",
        json!([]),
    );
    assert!(read.as_str().unwrap().starts_with("3 files read"), "{read}");
    let chosen = page.js(
        "return [document.getElementById('up-scenario').value, document.getElementById('up-ruleset').value, [...document.querySelectorAll('#players select')].map(s => s.dataset.side)]",
        json!([]),
    );
    assert_eq!(
        chosen,
        json!([
            "examples/drill-square.yaml",
            "rulesets/drill-square.yaml",
            ["blue", "red"]
        ])
    );
    // The house rule's optional rules are offered once it is the chosen ruleset.
    let offered = page.js(
        "const s = document.getElementById('up-ruleset'); s.value = 'rulesets/drill-house.yaml'; s.dispatchEvent(new Event('change')); return [...document.querySelectorAll('#options input[data-option]')].map(i => [i.dataset.option, i.checked])",
        json!([]),
    );
    assert_eq!(
        offered,
        json!([["night_march", true], ["long_rifles", false]])
    );
    page.js(
        "const s = document.getElementById('up-ruleset'); s.value = 'rulesets/drill-square.yaml'; s.dispatchEvent(new Event('change'));",
        json!([]),
    );
    let links = create_on_host_page(&page);
    let blue = links
        .iter()
        .find(|l| l[0] == "blue")
        .and_then(|l| l[1].as_str())
        .unwrap()
        .to_owned();
    page.goto(&blue);
    page.until(
        "blue's page",
        "return document.body.dataset.conn === 'live' && document.body.dataset.seat === 'blue'",
        json!([]),
    );
    // The uploaded scenario's own pieces: b4 starts on the road, r3 faces south-west.
    // The pieces list fills in after the connection goes live, so wait for it.
    page.until(
        "the uploaded scenario's pieces",
        "const t = document.body.innerText; return t.includes('b4 infantry · road') && t.includes('r3 cavalry · facing SW')",
        json!([]),
    );
}

#[test]
fn the_page_is_usable_at_phone_width() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let game = Game::create(&server, "hex-command", 1809);
    let side = game.sides[0].clone();
    let page = Page::open(&driver, &side, 390, 844);
    page.goto(&game.link(&side));
    page.until(
        "the first state",
        "return document.body.dataset.orders",
        json!([]),
    );
    // Nothing wider than the screen, and the orders reachable by keyboard.
    let wide = page.js(
        "return document.documentElement.scrollWidth <= window.innerWidth + 1",
        json!([]),
    );
    assert_eq!(wide, json!(true), "the page scrolls sideways at 390 px");
    assert_eq!(page.js("return window.innerWidth", json!([])), json!(390));
    page.screenshot("web-hex-command-phone.png");
    let focusable = page.js(
        "return document.querySelectorAll('#orders button, #end-phase:not([hidden]), #board g.piece[tabindex]').length",
        json!([]),
    );
    assert!(focusable.as_u64().unwrap() > 2, "{focusable}");
}

#[test]
fn the_referee_page_draws_every_piece() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let game = Game::create(&server, "square-blocks", 1809);
    let page = Page::open(&driver, "referee", 1100, 800);
    page.goto(&game.link("referee"));
    page.until(
        "the first state",
        "return document.body.dataset.orders",
        json!([]),
    );
    let state = game.state("referee");
    let on_board = state.view["state"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["place"] != "off")
        .count();
    let drawn = page.js(
        "return document.querySelectorAll('#board .piece').length",
        json!([]),
    );
    assert_eq!(
        drawn,
        json!(on_board),
        "every piece on the board, hidden or not"
    );
    // The referee names every piece: the hidden ones the French never see among them.
    let html = page.html();
    assert!(
        has_word(&html, "adum1") && has_word(&html, "abat"),
        "the referee sees all"
    );
}

/// The page fills each cell with the ruleset's own terrain colour (the table's
/// `terrain_colors`), guessing from the terrain's name only where the ruleset gives none:
/// square-blocks' clear ground is its `#e8e4c8`, not the guess's off-white.
#[test]
fn the_page_draws_the_rulesets_terrain_colours() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let game = Game::create(&server, "square-blocks", 1809);
    let side = game.sides[0].clone();
    let table = game.client.table(&game.id, &game.tokens[&side]).unwrap();
    assert!(
        table.terrain_colors.iter().any(Option::is_some),
        "square-blocks colours its terrain"
    );
    let page = Page::open(&driver, &side, 1100, 800);
    page.goto(&game.link(&side));
    page.until(
        "the first state",
        "return document.body.dataset.orders",
        json!([]),
    );
    let fills = page.js(
        "return [...document.querySelectorAll('#board .cell[data-cell]')].map((c) => [c.dataset.cell, c.getAttribute('fill')])",
        json!([]),
    );
    let board = serde_json::to_value(&table.board).unwrap();
    let grid = &board["surface"]["grid"];
    let cols = grid["cols"].as_u64().expect("the grid's columns");
    let terrain = grid["terrain"].as_array().expect("a grid's terrain");
    let fills = fills.as_array().expect("the cells");
    assert_eq!(fills.len(), terrain.len(), "a cell drawn for each");
    let mut coloured = 0;
    for cell in fills {
        let (at, fill) = (cell[0].as_str().unwrap(), cell[1].as_str().unwrap());
        let (col, row) = at.split_once(',').unwrap();
        let (col, row): (u64, u64) = (col.parse().unwrap(), row.parse().unwrap());
        let t = terrain[(row * cols + col) as usize].as_u64().unwrap() as usize;
        if let Some(Some(given)) = table.terrain_colors.get(t) {
            assert_eq!(fill, given, "cell {at} (terrain {t})");
            coloured += 1;
        }
    }
    assert!(coloured > 0, "no cell of a coloured terrain");
}

#[test]
fn a_link_whose_token_opens_no_seat_says_so_and_stops() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let game = Game::create(&server, "drill-square", 3);
    let page = Page::open(&driver, "stranger", 900, 700);
    page.goto(&format!("{}/play/{}#token=nope", server.url(), game.id));
    let said = page.until(
        "the refusal",
        "return document.body.dataset.conn === 'refused' && document.getElementById('message').textContent",
        json!([]),
    );
    assert!(said.as_str().unwrap().contains("token"), "{said}");
    assert_eq!(
        page.js(
            "return document.querySelectorAll('#board .piece').length",
            json!([])
        ),
        json!(0)
    );
}

/// Gives orders through the API until the game has `until` of them: whoever is to act gives
/// its first listed order other than End phase, at most two a phase, then ends the phase.
fn first_orders(game: &Game, until: u64) {
    let mut given: BTreeMap<(u32, String, String), u32> = BTreeMap::new();
    loop {
        let status = game.state("referee").status;
        if status.over || status.orders >= until {
            return;
        }
        let side = status.to_act[0].clone();
        let legal: Vec<Value> = game
            .state(&side)
            .legal
            .iter()
            .map(|o| serde_json::to_value(o).unwrap())
            .collect();
        let n = given
            .entry((status.turn, status.phase.unwrap_or_default(), side.clone()))
            .or_default();
        let order = legal
            .iter()
            .find(|o| o["end_phase"] != json!(true) && *n < 2)
            .or_else(|| legal.iter().find(|o| o["end_phase"] == json!(true)))
            .expect("an order");
        *n += 1;
        let reply = game
            .client
            .orders(
                &game.id,
                &game.tokens[&side],
                "t.yaml",
                &format!("orders:\n  - {order}\n"),
            )
            .unwrap();
        assert_eq!(reply.accepted, 1, "{order}: {:?}", reply.refused);
    }
}

/// A piece's line in the Pieces list: its text outside any "details", and the text inside.
const PIECE_LINE: &str = "const li = document.querySelector(`#pieces button[data-key=\"${arguments[0]}\"]`).closest('li'); const bare = li.cloneNode(true); bare.querySelectorAll('details').forEach((d) => d.remove()); const d = li.querySelector('details.more'); return [bare.textContent, d ? d.textContent : '', d ? d.open : false]";

#[test]
fn piece_facts_and_the_log_put_the_readable_first() {
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
    // Counters at their starting value are folded behind "details"; changed ones show.
    let b1 = page.js(PIECE_LINE, json!(["b1"]));
    let (bare, folded) = (b1[0].as_str().unwrap(), b1[1].as_str().unwrap());
    assert!(
        !bare.contains("vacated_row") && !bare.contains("bridging") && bare.contains("infantry"),
        "{bare}"
    );
    assert!(folded.contains("vacated row 0"), "{folded}");
    assert_eq!(b1[2], json!(false), "the details start folded");
    // A piece not yet on the board says it has not arrived (nothing removed it).
    let b4 = page.js(PIECE_LINE, json!(["b4"]));
    assert!(
        b4[0].as_str().unwrap().contains("b4 — not yet arrived"),
        "{b4}"
    );
    page.click("#pieces button[data-key=\"b4\"]");
    let said = page.until(
        "b4 selected",
        "return document.querySelector('#selected .off')?.textContent",
        json!([]),
    );
    assert_eq!(said, json!("b4 — not yet arrived."));
    // kern is known (its place and what it was) but out of sight: drawn faded, and says so.
    let state = game.state("blue");
    let enemies = state.view["view"]["enemy"].as_array().unwrap();
    let kern = enemies
        .iter()
        .find(|e| e["identity"]["name"] == "kern")
        .unwrap();
    assert!(
        kern["level"].is_null() && !kern["place"].is_null(),
        "{kern}"
    );
    let drawn = page.js(
        "return [...document.querySelectorAll('#board g.piece.enemy')].map((g) => [g.dataset.key, g.classList.contains('stale'), g.getAttribute('aria-label')])",
        json!([]),
    );
    for d in drawn.as_array().unwrap() {
        let seen = enemies
            .iter()
            .find(|e| e["identity"]["name"] == d[0])
            .is_some_and(|e| !e["level"].is_null());
        assert_eq!(d[1], json!(!seen), "stale exactly when not in sight: {d}");
        assert_eq!(
            d[2].as_str().unwrap().contains("not in sight now"),
            !seen,
            "{d}"
        );
    }
    // Play into red's defensive fire (blue fires in red's turn), with counter changes.
    first_orders(&game, 12);
    page.at_order(12);
    let log = page.js(
        "return [...document.querySelectorAll('#log > li')].map((li) => { const bare = li.cloneNode(true); bare.querySelectorAll('details').forEach((d) => d.remove()); const d = li.querySelector('details.more'); return [li.className, bare.textContent, d ? d.textContent : '', d ? d.open : false]; })",
        json!([]),
    );
    let log = log.as_array().unwrap();
    let counter = regex_counter_line;
    assert!(
        log.iter()
            .all(|l| !counter(l[1].as_str().unwrap())
                && !l[1].as_str().unwrap().contains("shot small")),
        "no counter line stands alone: {log:?}"
    );
    assert!(
        log.iter()
            .any(|l| l[2].as_str().unwrap().contains(" → ") && l[3] == json!(false)),
        "counter lines are kept, folded under their event: {log:?}"
    );
    // Every line of the seat's log is still on the page (its ruleset names spaced:
    // `voss change orders`, as the editor says them).
    let text = game.state("blue").text;
    let all = page.js(
        "return document.getElementById('log').textContent",
        json!([]),
    );
    let all = all.as_str().unwrap().replace('_', " ");
    for line in text
        .split("\nlog:\n")
        .nth(1)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("  "))
    {
        assert!(all.contains(&line.trim().replace('_', " ")), "{line}");
    }
    let header = log
        .iter()
        .find(|l| l[1].as_str().unwrap().contains("defensive fire phase"))
        .expect("a defensive fire phase");
    assert!(
        header[1]
            .as_str()
            .unwrap()
            .ends_with("defensive fire phase · red's turn; blue acts"),
        "{header:?}"
    );
    // The Orders panel is never blank.
    let orders = page.js(
        "return document.getElementById('orders').textContent.trim()",
        json!([]),
    );
    assert_ne!(orders, json!(""));
}

/// True for `b2 steps_moved 0 → 3`: a piece, a counter, two numbers.
fn regex_counter_line(line: &str) -> bool {
    // `b2 steps moved 0 → 3`: the counter's name spaced, of one word or more.
    let words: Vec<&str> = line.split(' ').collect();
    let n = words.len();
    n >= 5
        && words[n - 2] == "→"
        && words[n - 3].parse::<i64>().is_ok()
        && words[n - 1].parse::<i64>().is_ok()
}

#[test]
fn enter_on_a_piece_moves_the_focus_to_its_first_target() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let game = Game::create(&server, "hex-command", 1809);
    // Red's command phase: a commander's orders aim at the pieces it may attach to.
    first_orders(&game, 1);
    let page = Page::open(&driver, "red", 1280, 860);
    page.goto(&game.link("red"));
    page.at_order(1);
    let piece = page.js(
        "for (const b of document.querySelectorAll('#orders button.order')) { const o = JSON.parse(b.dataset.order); if (o.act && o.act.target) return o.act.piece; } return null",
        json!([]),
    );
    let piece = piece.as_str().expect("an order with a target");
    page.js(
        "document.querySelector(`#board g.piece[data-key=\"${arguments[0]}\"]`).focus()",
        json!([piece]),
    );
    page.call(
        "POST",
        "/actions",
        Some(
            json!({"actions": [{"type": "key", "id": "keys", "actions": [
                {"type": "keyDown", "value": "\u{E007}"}, {"type": "keyUp", "value": "\u{E007}"}
            ]}]}),
        ),
    );
    let focused = page.until(
        "the focus on a target or destination",
        "const a = document.activeElement; return a && (a.classList.contains('dest') || a.classList.contains('target')) && [a.getAttribute('class'), a.getAttribute('aria-label')]",
        json!([]),
    );
    // The piece is selected, and every target says what the selected piece may do to it.
    let selected = page.js(
        "return document.querySelector('#board g.piece.selected')?.dataset.key",
        json!([]),
    );
    assert_eq!(selected, json!(piece), "{focused}");
    let labels = page.js(
        "return [...document.querySelectorAll('#board g.piece.target')].map((g) => g.getAttribute('aria-label'))",
        json!([]),
    );
    let labels = labels.as_array().unwrap();
    assert!(!labels.is_empty());
    for l in labels {
        assert!(
            l.as_str()
                .unwrap()
                .contains(&format!("A target: {piece} may ")),
            "{l}"
        );
    }
}

#[test]
fn a_lost_game_says_why_and_which_pieces_were_removed() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let game = Game::create(&server, "hex-command", 1809);
    first_orders(&game, 1000);
    let status = game.state("referee").status;
    assert!(status.over, "the game ended");
    let why = status.result.unwrap().why;
    let page = Page::open(&driver, "blue", 1280, 860);
    page.goto(&game.link("blue"));
    // Why it ended is the headline; the points come after it.
    let card = page.until(
        "the result",
        "const r = document.getElementById('result'); return !r.hidden && [r.querySelector('h2').textContent, r.querySelector('.points').textContent]",
        json!([]),
    );
    assert_eq!(card[0], json!(why));
    assert!(card[1].as_str().unwrap().starts_with("Points: "), "{card}");
    // Every own piece off the board says removed — with the reason when the seat's log
    // gives one — and none says it has not arrived: each was in play. (Which pieces the
    // game took depends on the rules of the day; the game above takes some.)
    let state = game.state("blue");
    let mut with_reason = 0;
    let off: Vec<String> = state.view["view"]["own"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["place"] == json!("off"))
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(!off.is_empty(), "blue lost pieces in this game");
    for name in &off {
        let name = name.as_str();
        let line = page.js(PIECE_LINE, json!([name]));
        let line = line[0].as_str().unwrap();
        let reason = state.text.lines().find_map(|l| {
            l.trim()
                .strip_prefix(&format!("{name} removed ("))
                .and_then(|r| r.strip_suffix(')'))
        });
        match reason {
            Some(r) => {
                assert!(line.contains(&format!("{name} — removed: {r}")), "{line}");
                with_reason += 1;
            }
            None => assert!(line.contains(&format!("{name} — removed")), "{line}"),
        }
    }
    assert!(with_reason > 0, "some removal has its reason in blue's log");
    // Selected, a removed piece is said to be removed, with nothing of it as if present.
    let gone = &off[0];
    page.click("#result button");
    page.click(&format!("#pieces button[data-key=\"{gone}\"]"));
    let said = page.until(
        "a removed piece selected",
        "const s = document.getElementById('selected'); return s.querySelector('.off') && s.textContent",
        json!([]),
    );
    assert!(
        said.as_str()
            .unwrap()
            .contains(&format!("{gone} — removed"))
            && !said.as_str().unwrap().contains("formed"),
        "{said}"
    );
}
