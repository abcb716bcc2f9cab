//! The browser client in a real browser: headless Chromium driven over WebDriver
//! (chromedriver; the W3C protocol spoken with `ureq`, which the server crate already
//! uses). Two pages play square-blocks and hex-command against each other by clicking
//! pieces and highlighted destinations; a black-powder base is dragged and dropped; after
//! every order each page's DOM holds nothing its seat's view does not; a page reconnects
//! after the server restarts; the host page creates a game.
//!
//! Without `chromium` and `chromedriver` on the PATH these tests say so and pass, unless
//! `GROGNARD_BROWSER_TESTS` is set (as `tools/test.sh` sets it): then a missing browser
//! fails them. `GROGNARD_SCREENSHOTS=DIR` also writes the screenshots of docs/.

mod common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::root;
use grognard_server::client::Client;
use grognard_server::config::Config;
use serde_json::{Value, json};

/// The longest any page may take to show what the server sent.
const WAIT: Duration = Duration::from_secs(20);

// ---- WebDriver ----

/// One browser test at a time: each starts a browser or two, and CI has two cores.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A chromedriver process on a free loopback port.
struct Driver {
    child: Child,
    url: String,
    agent: ureq::Agent,
    _turn: std::sync::MutexGuard<'static, ()>,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn on_path(program: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(program))
            .find(|p| p.is_file())
    })
}

/// The driver, or `None` (after saying why) when the browser is absent and the browser
/// tests were not asked for.
fn driver() -> Option<Driver> {
    let required = std::env::var_os("GROGNARD_BROWSER_TESTS").is_some();
    let found =
        on_path("chromedriver").zip(on_path("chromium").or_else(|| on_path("chromium-browser")));
    let Some((chromedriver, _)) = found else {
        assert!(
            !required,
            "GROGNARD_BROWSER_TESTS is set but chromium or chromedriver is not on the PATH: run `bash tools/install-deps.sh test`"
        );
        eprintln!(
            "SKIPPED: the browser tests need chromium and chromedriver (`bash tools/install-deps.sh test` installs them; GROGNARD_BROWSER_TESTS=1 makes their absence a failure)"
        );
        return None;
    };
    let turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let mut child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    // It says when it listens; read its first line, then let it write where it likes.
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if line.is_err() {
                break;
            }
        }
    });
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    let url = format!("http://127.0.0.1:{port}");
    let start = Instant::now();
    loop {
        let ready = agent
            .get(format!("{url}/status"))
            .call()
            .ok()
            .and_then(|mut r| r.body_mut().read_json::<Value>().ok())
            .is_some_and(|v| v["value"]["ready"] == json!(true));
        if ready {
            break;
        }
        assert!(start.elapsed() < WAIT, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(Driver {
        child,
        url,
        agent,
        _turn: turn,
    })
}

/// One browser window.
struct Page<'d> {
    driver: &'d Driver,
    session: String,
    name: String,
}

impl Drop for Page<'_> {
    fn drop(&mut self) {
        let _ = self
            .driver
            .agent
            .delete(format!("{}/session/{}", self.driver.url, self.session))
            .call();
    }
}

fn webdriver(driver: &Driver, method: &str, path: &str, body: Option<Value>) -> Value {
    let url = format!("{}{path}", driver.url);
    let response = match (method, body) {
        ("GET", _) => driver.agent.get(&url).call(),
        ("DELETE", _) => driver.agent.delete(&url).call(),
        (_, Some(b)) => driver.agent.post(&url).send_json(b),
        (_, None) => driver.agent.post(&url).send_json(json!({})),
    };
    let mut response = response.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let status = response.status();
    let v: Value = response
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_json()
        .unwrap_or(Value::Null);
    assert!(status.is_success(), "{method} {path}: {status} {v}");
    v["value"].clone()
}

impl<'d> Page<'d> {
    fn open(driver: &'d Driver, name: &str, width: u32, height: u32) -> Self {
        let mut options = json!({"args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-extensions", "--no-first-run", "--hide-scrollbars",
            format!("--window-size={width},{height}")
        ]});
        // A desktop window is no narrower than 500 px: a phone's screen is emulated.
        if width < 500 {
            options["mobileEmulation"] = json!({"deviceMetrics": {
                "width": width, "height": height, "pixelRatio": 2, "touch": true
            }});
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options
        }}});
        let v = webdriver(driver, "POST", "/session", Some(caps));
        let session = v["sessionId"].as_str().expect("a session").to_owned();
        Self {
            driver,
            session,
            name: name.to_owned(),
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        webdriver(
            self.driver,
            method,
            &format!("/session/{}{path}", self.session),
            body,
        )
    }

    fn goto(&self, url: &str) {
        self.call("POST", "/url", Some(json!({"url": url})));
    }

    fn js(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Waits until `script` returns something truthy, and returns it.
    fn until(&self, what: &str, script: &str, args: Value) -> Value {
        let start = Instant::now();
        loop {
            let v = self.js(script, args.clone());
            if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
                return v;
            }
            assert!(
                start.elapsed() < WAIT,
                "{}: waited {WAIT:?} for {what}; the page says: {}",
                self.name,
                self.js("return document.body.innerText.slice(0, 1500)", json!([]))
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn element(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("{}: no element {css}", self.name))
            .to_owned()
    }

    /// A real click (the browser's own hit test), on the element's centre.
    fn click(&self, css: &str) {
        let id = self.element(css);
        self.call("POST", &format!("/element/{id}/click"), None);
    }

    fn actions(&self, steps: Value) {
        self.call(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "pointer", "id": "mouse",
                "parameters": {"pointerType": "mouse"}, "actions": steps}]})),
        );
    }

    fn html(&self) -> String {
        self.js("return document.documentElement.outerHTML", json!([]))
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    fn screenshot(&self, file: &str) {
        let Some(dir) = std::env::var_os("GROGNARD_SCREENSHOTS") else {
            return;
        };
        let v = self.call("GET", "/screenshot", None);
        let png = base64_decode(v.as_str().unwrap_or_default());
        std::fs::write(std::path::Path::new(&dir).join(file), png).expect("write a screenshot");
    }

    /// Waits until the page shows `orders` orders given (its `data-orders`).
    fn at_order(&self, orders: u64) {
        self.until(
            &format!("order {orders}"),
            "return document.body.dataset.orders === String(arguments[0]) && !document.querySelector('button.order:disabled')",
            json!([orders]),
        );
    }
}

/// Standard base64 (WebDriver's screenshots).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

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
    assert!(label.as_str().unwrap().contains('″'), "{label}");
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
    let _server =
        grognard_server::spawn_with(Config::new(&listen, &db, &host), host.clone()).unwrap();
    page.until(
        "live again",
        "return document.body.dataset.conn === 'live'",
        json!([]),
    );
    // It plays on: the game is where it was.
    page.click("#end-phase");
    page.at_order(1);
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
    page.click("#create");
    let links = page.until(
        "the links",
        "const l = [...document.querySelectorAll('#link-list input')].map(i => [i.dataset.seat, i.value]); return l.length ? l : null",
        json!([]),
    );
    let links = links.as_array().unwrap();
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
