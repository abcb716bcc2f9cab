//! The browser page while the server's computer thinks (issue 40; the thirteenth outside
//! player's report, F6 and F15): blue's page said "your move" while red, the server's
//! search, was thinking, then jumped a phase; its turn line said "red's turn" without
//! naming the computer; and pieces stacked in one cell covered each other's names. The
//! server now sends the seats each state before its computer acts on it, the page says
//! who is thinking and greys the waiting seat's orders, and a stack is drawn down its
//! cell with every name clear. Run with the rest of `--test browser`.

use std::collections::BTreeMap;

use grognard_server::client::Client;
use serde_json::{Value, json};

use super::{Page, driver};

/// Every text the status line takes, each with whether the orders were greyed and End
/// phase disabled at that moment, recorded in the page as it changes.
const RECORD: &str = "window.seenStatus = []; const st = document.getElementById('status'); \
    new MutationObserver(() => window.seenStatus.push([st.textContent, \
    document.getElementById('orders').classList.contains('waiting'), \
    document.getElementById('end-phase').disabled || document.getElementById('end-phase').hidden, \
    document.body.dataset.thinking || ''])).observe(st, { childList: true, subtree: true, characterData: true }); \
    return true";

#[test]
fn blue_page_says_red_the_computer_is_thinking_and_names_it_in_the_turn_line() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let client = Client::new(&server.url()).unwrap();
    // Red searches 700 ms an order: long enough for the page to show the wait.
    let request = grognard_server::bundle::gather(
        &crate::common::root().join("examples/hex-command.yaml"),
        BTreeMap::new(),
        Some(7),
        BTreeMap::from([("red".to_owned(), "search:700".to_owned())]),
    )
    .unwrap();
    let created = client.create(&request, Some(&server.host_token)).unwrap();
    let (game, tokens) = (&created.game, &created.tokens);
    let link = format!("{}/play/{game}#token={}", client.url(), tokens["blue"]);

    let page = Page::open(&driver, "blue", 1280, 860);
    page.goto(&link);
    page.until(
        "blue's page live",
        "return document.getElementById('status').textContent.startsWith('Turn ') ? true : null",
        json!([]),
    );
    page.js(RECORD, json!([]));
    // Blue ends its phases from the page until red has had a move to think over and blue
    // has had a move in red's turn (turn 1 is blue's, then red's with blue's fire in it).
    let done = "const s = window.seenStatus.map((x) => x[0]); \
        return s.some((t) => t.includes('thinking')) && s.some((t) => t.includes(\"red's turn\") && t.includes('your move'))";
    for _ in 0..20 {
        if page.js(done, json!([])) == json!(true) {
            break;
        }
        page.until(
            "End phase live for blue",
            "const b = document.getElementById('end-phase'); return document.body.dataset.turn === 'yours' && !b.hidden && !b.disabled ? true : null",
            json!([]),
        );
        page.click("#end-phase");
        page.until(
            "the page to answer End phase",
            "return document.getElementById('end-phase').disabled ? null : true",
            json!([]),
        );
    }
    let seen = page.until(
        "red's move made after its thinking",
        "const s = window.seenStatus; return s.length && !s[s.length - 1][0].includes('thinking') ? s : null",
        json!([]),
    );
    let seen = seen.as_array().unwrap();
    let thinking: Vec<&Value> = seen
        .iter()
        .filter(|s| s[0].as_str().unwrap().contains("thinking"))
        .collect();
    assert!(
        !thinking.is_empty(),
        "never said red was thinking: {seen:?}"
    );
    for s in &thinking {
        let text = s[0].as_str().unwrap();
        assert!(
            text.ends_with(" · red — computer (search) is thinking…"),
            "{text}"
        );
        assert!(!text.contains("your move"), "{text}");
        // Blue's orders are greyed and End phase is not to be pressed meanwhile.
        assert_eq!(s[1], json!(true), "orders not greyed: {s}");
        assert_eq!(s[2], json!(true), "End phase live: {s}");
        assert_eq!(s[3], json!("red"), "{s}");
    }
    // Blue's move in red's turn: the turn line names red as the computer.
    let theirs: Vec<&str> = seen
        .iter()
        .map(|s| s[0].as_str().unwrap())
        .filter(|t| t.contains("red's turn") && t.contains("your move"))
        .collect();
    assert!(
        !theirs.is_empty(),
        "no move of blue's in red's turn: {seen:?}"
    );
    for text in theirs {
        assert!(
            text.contains(" · red's turn — computer (search) · your move (blue)"),
            "{text}"
        );
    }
    // After: red's orders were given, and the page goes back to no one thinking.
    let last = seen.last().unwrap();
    assert_eq!(last[1], json!(false), "{last}");
    assert_eq!(last[3], json!(""), "{last}");
    let state = client.view(game, &tokens["red"]).unwrap();
    assert!(
        !state.thinking.is_empty(),
        "red searched: {:?}",
        state.status
    );
    page.screenshot("search-wait-blue.png");
}

/// For each piece name in a stack on the page, the points of it (read from its box) where
/// the topmost thing drawn belongs to another piece: none when every name can be read.
const COVERED: &str = "const out = []; \
    for (const t of document.querySelectorAll('#board g.piece text.label')) { \
      const own = t.closest('g.piece'); const r = t.getBoundingClientRect(); \
      for (const fx of [0.2, 0.35, 0.5, 0.65, 0.8]) for (const fy of [0.3, 0.6]) { \
        const top = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy); \
        const other = top && top.closest('g.piece'); \
        if (other && other !== own) out.push([own.dataset.key, other.dataset.key, fx, fy]); \
      } \
    } \
    return out";

#[test]
fn stacked_pieces_leave_every_name_readable() {
    let Some(driver) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let client = Client::new(&server.url()).unwrap();
    // hex-command with three red pieces in one cell (kern joins r2 and voss; the player's red
    // page had three) and three blue (ames joins b3 and its crew).
    let root = crate::common::root();
    let text = std::fs::read_to_string(root.join("examples/hex-command.yaml")).unwrap();
    let moved = text
        .replace(
            "type: commander, at: [11, 0]",
            "type: commander, at: [6, 3]",
        )
        .replace(
            "type: commander, at: [11, 6]",
            "type: commander, at: [5, 8]",
        );
    assert_ne!(moved, text);
    std::fs::create_dir(dir.path().join("s")).unwrap();
    for folder in ["rulesets", "scripts"] {
        std::os::unix::fs::symlink(root.join(folder), dir.path().join(folder)).unwrap();
    }
    let scenario = dir.path().join("s/stacks.yaml");
    std::fs::write(&scenario, moved).unwrap();
    let request =
        grognard_server::bundle::gather(&scenario, BTreeMap::new(), Some(7), BTreeMap::new())
            .unwrap();
    let created = client.create(&request, Some(&server.host_token)).unwrap();
    let link = format!(
        "{}/play/{}#token={}",
        client.url(),
        created.game,
        created.tokens["referee"]
    );
    let page = Page::open(&driver, "referee", 1280, 860);
    page.goto(&link);
    page.until(
        "the pieces",
        "return document.querySelectorAll('#board g.piece').length >= 12 ? true : null",
        json!([]),
    );
    // Stacks: b1 with hale, b3 with its crew and ames, r2 with voss and kern.
    let names = page.js(
        "return [...document.querySelectorAll('#board g.piece text.label')].map((t) => t.textContent).sort()",
        json!([]),
    );
    for name in ["b1", "hale", "b3", "b3_crew", "ames", "kern", "r2", "voss"] {
        assert!(
            names
                .as_array()
                .unwrap()
                .iter()
                .any(|n| n.as_str().unwrap().starts_with(name)),
            "{name} not drawn: {names}"
        );
    }
    let covered = page.js(COVERED, json!([]));
    assert_eq!(covered, json!([]), "names covered by another piece");
    page.screenshot("stacked-names.png");
}
