//! The editor as a remote-play client, driven by its labels (egui_kittest) against a real
//! server on the loopback address, started by each test on a free port. Every wait is
//! bounded; the server holds the truth, and what the editor shows is checked against what
//! the server's HTTP API gives the same seat.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::app::{move_to_order, phase_line};
use grognard_editor::remote::{Link, Problem, seat_pieces};
use grognard_editor::words::order_words;
use grognard_editor::{Command, EditorApp, Options, Saved};
use grognard_kernel::geometry::Cell;
use grognard_kernel::geometry::open::{Angle, Point};
use grognard_kernel::ids::PieceId;
use grognard_kernel::piece::{Piece, Place};
use grognard_rules::model::OrderSpec;
use grognard_server::bundle;
use grognard_server::client::Client;
use grognard_server::protocol::{Created, SeatState};

const SCENARIO: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/square-blocks.yaml"
);

/// The open-table drill: every unit has bases.
const DRILL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/drill-open.yaml"
);

/// The longest any one wait lasts.
const PATIENCE: Duration = Duration::from_secs(10);

/// A server on a free loopback port with one game of the blocks scenario.
struct Served {
    running: Option<grognard_server::Running>,
    dir: tempfile::TempDir,
    client: Client,
    created: Created,
}

impl Served {
    fn new() -> Self {
        Self::of(SCENARIO)
    }

    fn of(scenario: &str) -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let running =
            grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).expect("serves");
        let client = Client::new(&running.url()).expect("a client");
        // The host fixes the scenario's own seed, so the tests meet the same dice each run
        // (without one the server draws a secret seed).
        let seed = grognard_rules::load::load_scenario(Path::new(scenario), None)
            .expect("the scenario loads")
            .compiled
            .setup
            .seed;
        let request = bundle::gather(
            Path::new(scenario),
            BTreeMap::new(),
            Some(seed),
            BTreeMap::new(),
        )
        .expect("the scenario gathers");
        let created = client
            .create(&request, Some(&running.host_token))
            .expect("the game is created");
        Self {
            running: Some(running),
            dir,
            client,
            created,
        }
    }

    fn url(&self) -> String {
        self.client.url().to_owned()
    }

    fn token(&self, seat: &str) -> String {
        self.created.tokens[seat].clone()
    }

    fn view(&self, seat: &str) -> SeatState {
        self.client
            .view(&self.created.game, &self.token(seat))
            .expect("the seat's view")
    }
}

fn harness(options: Options) -> Harness<'static, EditorApp> {
    let app = EditorApp::new(Saved::default(), options);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run_steps(2);
    h
}

/// A few frames, letting the connection's thread have its turn between them.
fn frames(h: &mut Harness<'_, EditorApp>) {
    for _ in 0..3 {
        std::thread::sleep(Duration::from_millis(15));
        h.step();
    }
}

/// Steps frames until `done` holds, for at most [`PATIENCE`].
fn wait_for(h: &mut Harness<'_, EditorApp>, what: &str, done: impl Fn(&EditorApp) -> bool) {
    let start = Instant::now();
    loop {
        frames(h);
        if done(h.state()) {
            return;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "gave up waiting for {what}; the connection says: {:?}; the status line: {:?}",
            h.state()
                .remote()
                .map(grognard_editor::remote::RemoteSession::status),
            h.state().status()
        );
    }
}

fn orders_seen(app: &EditorApp) -> Option<u64> {
    Some(app.remote()?.state()?.status.orders)
}

/// Replaces the text of the field labelled `name`.
fn type_into(h: &mut Harness<'_, EditorApp>, name: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, name).focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.get_by_role_and_label(Role::TextInput, name)
        .type_text(text);
    h.run_steps(2);
}

/// Joins a seat through the "Join game…" form, as a person would.
fn join(h: &mut Harness<'_, EditorApp>, url: &str, game: &str, token: &str) {
    h.get_by_label("Join game…").click();
    h.run_steps(2);
    type_into(h, "Server", url);
    type_into(h, "Game", game);
    type_into(h, "Token", token);
    h.get_by_role_and_label(Role::Button, "Join").click();
    h.run_steps(2);
}

fn joined(h: &mut Harness<'_, EditorApp>, served: &Served, seat: &str) {
    join(h, &served.url(), &served.created.game, &served.token(seat));
    wait_for(h, "the seat's state", |app| {
        app.remote()
            .is_some_and(|s| s.connected() && s.table().is_some() && s.state().is_some())
    });
}

#[test]
fn a_joined_seat_shows_the_servers_view_and_an_order_given_comes_back() {
    let served = Served::new();
    let mut h = harness(Options::default());
    joined(&mut h, &served, "french");
    let truth = served.view("french");
    let table = served
        .client
        .table(&served.created.game, &served.token("french"))
        .expect("the table");
    // The phase bar says what the server says.
    let line = phase_line(&truth);
    assert!(line.contains("to act: french"), "{line}");
    assert!(
        h.query_by_label(&line).is_some(),
        "the phase bar shows {line}"
    );
    assert!(h.query_by_label("your turn").is_some());
    // The board holds the seat's view and nothing else: the Austrians' blocks face down.
    let app = h.state();
    let session = app.remote().expect("joined");
    assert_eq!(session.seat(), Some("french"));
    assert_eq!(app.remote_pieces(), seat_pieces(&table, &truth).as_slice());
    assert!(app.remote_pieces().iter().any(|p| p.name == "div1"));
    assert!(
        app.remote_pieces()
            .iter()
            .filter(|p| p.side.0 == 1)
            .all(|p| p.look != grognard_editor::board::Look::Open || p.name.starts_with('#')),
        "no Austrian piece is shown by its name"
    );
    // The legal orders are the server's, each a button.
    assert!(
        h.query_by_label_contains(&format!("Legal orders ({})", truth.legal.len()))
            .is_some()
    );
    // In the Play tab's words, grouped by piece: each piece's group names it and counts
    // its orders.
    for order in truth.legal.iter().take(5) {
        let (piece, _) = order_words(&serde_json::to_value(order).expect("json"));
        if let Some(piece) = piece {
            assert!(
                h.query_by_label_contains(&format!("{piece}: ")).is_some(),
                "{piece}'s orders are grouped"
            );
        }
    }
    // A click on a legal order sends it; the new state comes back.
    let order = truth
        .legal
        .iter()
        .find(|o| o.r#move.as_ref().is_some_and(|m| m.piece == "scout1"))
        .expect("scout1 may move");
    let (_, text) = order_words(&serde_json::to_value(order).expect("json"));
    h.get_by_label_contains("scout1: ").click();
    frames(&mut h);
    h.get_by_label(&text).click();
    wait_for(&mut h, "the order's answer", |app| {
        orders_seen(app) == Some(truth.status.orders + 1)
    });
    let after = served.view("french");
    assert_eq!(after.status.orders, truth.status.orders + 1);
    let state = h.state().remote().and_then(|s| s.state()).expect("state");
    assert_eq!(state.view, after.view);
    assert_eq!(state.legal, after.legal);
    assert!(state.can_undo);
    // Undo takes it back, on the server too.
    h.get_by_role_and_label(Role::Button, "Undo").click();
    wait_for(&mut h, "the undo", |app| {
        orders_seen(app) == Some(truth.status.orders)
    });
    assert_eq!(served.view("french").view, truth.view);
}

/// Clicks the remote board at a screen position.
fn click_at(h: &mut Harness<'_, EditorApp>, pos: egui::Pos2) {
    for pressed in [true, false] {
        h.event(egui::Event::PointerMoved(pos));
        h.event(common::button(pos, pressed));
        h.step();
    }
    h.run_steps(2);
}

/// Clicks the remote board at a cell's centre.
fn click_cell(h: &mut Harness<'_, EditorApp>, c: Cell) {
    let pos = h
        .state()
        .remote_cell_on_screen(c)
        .expect("the board is drawn");
    click_at(h, pos);
}

/// Where a point of the remote open table (inches) was on screen in the last frame.
fn table_at(h: &Harness<'_, EditorApp>, x: f32, y: f32) -> egui::Pos2 {
    h.state()
        .remote_table_on_screen(x, y)
        .expect("the table is drawn")
}

/// One of the seat's own pieces as a state from the server shows it.
fn own_piece(state: &SeatState, name: &str) -> Piece {
    let piece = state.view["view"]["own"]
        .as_array()
        .expect("own pieces")
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{name} is one of the seat's pieces"))
        .clone();
    serde_json::from_value(piece).expect("a piece")
}

#[test]
fn on_the_remote_board_a_click_picks_a_piece_and_a_click_on_a_cell_moves_it() {
    let served = Served::new();
    let mut h = harness(Options::default());
    joined(&mut h, &served, "french");
    let truth = served.view("french");
    let of_scout = truth
        .legal
        .iter()
        // The heading counts the piece's own orders, as its group does (end phase, no
        // order of scout1, is not among them).
        .filter(|o| {
            o.r#move.as_ref().is_some_and(|m| m.piece == "scout1")
                || o.face.as_ref().is_some_and(|m| m.piece == "scout1")
                || o.act.as_ref().is_some_and(|m| m.piece == "scout1")
                || o.save.as_ref().is_some_and(|m| m.piece == "scout1")
        })
        .count();
    click_cell(&mut h, Cell::new(5, 6));
    assert!(
        h.query_by_label_contains(&format!("Legal orders for scout1 ({of_scout})"))
            .is_some(),
        "the list holds scout1's {of_scout} orders"
    );
    // An enemy block is not picked up.
    let enemy = h
        .state()
        .remote_pieces()
        .iter()
        .find(|p| p.side.0 == 1)
        .and_then(|p| p.place.cell())
        .expect("an Austrian block in sight");
    click_cell(&mut h, enemy);
    assert!(
        h.query_by_label_contains("Legal orders for scout1")
            .is_some()
    );
    // A click on a cell a legal move of scout1 ends in gives that move.
    click_cell(&mut h, Cell::new(5, 5));
    wait_for(&mut h, "the move's answer", |app| {
        orders_seen(app) == Some(truth.status.orders + 1)
    });
    let moved = own_piece(&served.view("french"), "scout1");
    assert_eq!(moved.place.cell(), Some(Cell::new(5, 5)));
}

#[test]
fn the_other_side_acts_and_the_joined_seat_sees_it_at_once() {
    let served = Served::new();
    let mut h = harness(Options::default());
    joined(&mut h, &served, "french");
    let before = orders_seen(h.state()).expect("a state");
    // The Austrians, on another client, end their share of the command phase.
    let reply = served
        .client
        .orders(
            &served.created.game,
            &served.token("austrians"),
            "orders.yaml",
            "orders:\n  - { side: austrians, end_phase: true }\n",
        )
        .expect("the Austrians' orders");
    assert_eq!(reply.accepted, 1, "{reply:?}");
    wait_for(&mut h, "the Austrians' order", |app| {
        orders_seen(app) == Some(before + 1)
    });
    let truth = served.view("french");
    let line = phase_line(&truth);
    assert!(line.contains("to act: french"), "{line}");
    assert!(!line.contains("austrians"), "{line}");
    assert!(
        h.query_by_label(&line).is_some(),
        "the phase bar shows {line}"
    );
    // Ending the phase from the phase bar.
    h.get_by_role_and_label(Role::Button, "End phase").click();
    wait_for(&mut h, "the end of the phase", |app| {
        orders_seen(app) == Some(before + 2)
    });
    assert_ne!(served.view("french").status.phase, truth.status.phase);
}

#[test]
fn chat_goes_both_ways() {
    let served = Served::new();
    served
        .client
        .say(
            &served.created.game,
            &served.token("austrians"),
            "before you came",
        )
        .expect("said");
    let mut h = harness(Options::default());
    joined(&mut h, &served, "french");
    // What was said before joining is there.
    wait_for(&mut h, "the chat so far", |app| {
        app.remote()
            .is_some_and(|s| s.chat().iter().any(|l| l.text == "before you came"))
    });
    assert!(h.query_by_label("austrians: before you came").is_some());
    type_into(&mut h, "Say", "bonjour");
    h.get_by_role_and_label(Role::Button, "Send").click();
    wait_for(&mut h, "our line back", |app| {
        app.remote().is_some_and(|s| {
            s.chat()
                .iter()
                .any(|l| l.seat == "french" && l.text == "bonjour")
        })
    });
    let lines = served
        .client
        .chat(&served.created.game, &served.token("austrians"), 0)
        .expect("chat");
    assert!(
        lines
            .lines
            .iter()
            .any(|l| l.seat == "french" && l.text == "bonjour")
    );
    served
        .client
        .say(
            &served.created.game,
            &served.token("austrians"),
            "guten Tag",
        )
        .expect("said");
    wait_for(&mut h, "their line", |app| {
        app.remote()
            .is_some_and(|s| s.chat().iter().any(|l| l.text == "guten Tag"))
    });
    frames(&mut h);
    assert!(h.query_by_label("austrians: guten Tag").is_some());
    assert!(h.query_by_label("french: bonjour").is_some());
}

#[test]
fn the_status_line_leaves_joining_once_the_seat_is_connected() {
    let served = Served::new();
    let mut h = harness(Options::default());
    join(
        &mut h,
        &served.url(),
        &served.created.game,
        &served.token("french"),
    );
    let said = |h: &Harness<'_, EditorApp>| {
        h.state()
            .status()
            .map(|s| s.text.clone())
            .unwrap_or_default()
    };
    assert!(said(&h).starts_with("joining game "), "{}", said(&h));
    wait_for(&mut h, "the connection", |app| {
        app.remote().is_some_and(|s| s.connected())
    });
    h.run_steps(2);
    let line = said(&h);
    assert!(!line.starts_with("joining game"), "{line}");
    assert!(
        line.contains("connected to") && line.contains("as french"),
        "{line}"
    );
}

#[test]
fn a_wrong_token_shows_the_servers_refusal() {
    let served = Served::new();
    let expected = served
        .client
        .view(&served.created.game, "not-a-token")
        .expect_err("a bad token is refused");
    // Unauthorised, in the server's own words, which the editor shows as they are.
    assert!(
        matches!(
            &expected,
            grognard_server::client::ClientError::Refused { status: 401, .. }
        ),
        "{expected:?}"
    );
    let expected = expected.to_string();
    let mut h = harness(Options::default());
    join(&mut h, &served.url(), &served.created.game, "not-a-token");
    wait_for(&mut h, "the refusal", |app| {
        app.remote()
            .is_some_and(|s| matches!(s.link(), Link::Refused(_)))
    });
    let status = h.state().remote().expect("session").status();
    assert!(status.contains(&expected), "{status} says {expected}");
    // In the tab's connection bar and, in place of "joining game…", the status line.
    assert_eq!(h.query_all_by_label_contains(&expected).count(), 2);
    let line = h.state().status().map(|s| (s.text.clone(), s.error));
    assert!(
        line.as_ref()
            .is_some_and(|(t, e)| t.contains(&expected) && *e),
        "{line:?}"
    );
    assert!(h.query_by_label("Reconnect now").is_some());
}

#[test]
fn an_unreachable_server_shows_a_status_and_a_server_back_up_is_rejoined() {
    let mut served = Served::new();
    let port = served.running.as_ref().expect("running").addr.port();
    let mut h = harness(Options::default());
    joined(&mut h, &served, "french");
    let before = orders_seen(h.state()).expect("a state");
    // The server goes away: the seat says so and keeps trying.
    drop(served.running.take());
    wait_for(&mut h, "the lost connection", |app| {
        app.remote()
            .is_some_and(|s| matches!(s.link(), Link::Retrying { .. }))
    });
    let status = h.state().remote().expect("session").status();
    assert!(status.contains("reconnecting in"), "{status}");
    assert!(h.query_by_label_contains("reconnecting in").is_some());
    // An order given meanwhile is not sent, and the seat says so.
    h.state_mut().apply(Command::RemoteChat("anyone?".into()));
    wait_for(&mut h, "the note that nothing was sent", |app| {
        app.remote()
            .and_then(|s| s.problem())
            .is_some_and(|p| matches!(p, Problem::Error(m) if m.contains("not connected")))
    });
    // The server comes back on the same port with the same games: the seat rejoins.
    let db = served.dir.path().join("g.sqlite");
    served.running =
        Some(grognard_server::spawn(&format!("127.0.0.1:{port}"), &db).expect("serves again"));
    wait_for(&mut h, "the rejoined seat", |app| {
        app.remote()
            .is_some_and(grognard_editor::remote::RemoteSession::connected)
    });
    served
        .client
        .orders(
            &served.created.game,
            &served.token("austrians"),
            "orders.yaml",
            "orders:\n  - { side: austrians, end_phase: true }\n",
        )
        .expect("the Austrians' orders");
    wait_for(&mut h, "the order after rejoining", |app| {
        orders_seen(app) == Some(before + 1)
    });
}

#[test]
fn a_server_that_was_never_there_is_reported_without_fuss() {
    // A port that nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut h = harness(Options::default());
    join(&mut h, &format!("http://127.0.0.1:{port}"), "g1", "t");
    wait_for(&mut h, "the status", |app| {
        app.remote()
            .is_some_and(|s| matches!(s.link(), Link::Retrying { .. }))
    });
    let status = h.state().remote().expect("session").status();
    assert!(
        status.contains(&format!("cannot reach 127.0.0.1:{port}"))
            && status.contains("reconnecting in"),
        "{status}"
    );
    // A malformed address is refused at once, and says why.
    h.get_by_role_and_label(Role::Button, "Leave").click();
    h.run_steps(2);
    join(&mut h, "https://127.0.0.1:1", "g1", "t");
    assert!(h.state().remote().is_none());
    let said = h.state().status().expect("a status").text.clone();
    assert!(said.contains("not a server address"), "{said}");
}

#[test]
fn hosting_starts_a_server_creates_the_game_lists_the_seats_and_joins_one() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut h = harness(Options {
        scenario: Some(PathBuf::from(SCENARIO)),
        ..Options::default()
    });
    h.get_by_label("Host game…").click();
    h.run_steps(2);
    assert!(h.query_by_label("start a server here").is_some());
    assert!(
        h.query_by_label_contains("square-blocks.yaml on a server")
            .is_some()
    );
    // A free port and a test database; the server plays the Austrians.
    type_into(&mut h, "Server", "http://127.0.0.1:0");
    let db = dir.path().join("hosted.sqlite");
    type_into(&mut h, "Database", &db.display().to_string());
    h.get_by_role_and_label(Role::ComboBox, "austrians played by")
        .click();
    h.run_steps(2);
    // The server's searching player is offered beside random and greedy (#12).
    assert!(h.query_by_label("the server (search)").is_some());
    h.get_by_label("the server (greedy)").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Host").click();
    wait_for(&mut h, "the hosted game", |app| {
        app.remote()
            .is_some_and(|s| s.connected() && s.state().is_some())
    });
    let (url, created) = h.state().hosted().expect("hosted");
    let (url, created) = (url.to_owned(), created.clone());
    assert!(
        url.starts_with("http://127.0.0.1:") && !url.ends_with(":0"),
        "{url}"
    );
    let seats: Vec<&str> = created.tokens.keys().map(String::as_str).collect();
    assert_eq!(seats, ["austrians", "french", "referee", "spectator"]);
    assert_eq!(h.state().remote().and_then(|s| s.seat()), Some("french"));
    // Every seat's link is listed as `serve --create` prints it, sides first, each with
    // its Copy button (and Join as).
    let links = grognard_server::client::seat_links(&created, &url);
    assert_eq!(links.len(), created.tokens.len());
    let mut last_y = 0.0;
    for (seat, link) in &links {
        let token = &created.tokens[seat];
        assert_eq!(link, &format!("{url}/play/{}#token={token}", created.game));
        let shown = h.get_by_label(link);
        let y = shown.rect().min.y;
        assert!(y > last_y, "{seat}'s link comes after the one before");
        last_y = y;
        // "Copy austrians' link", "Copy referee's link".
        let whose = if seat.ends_with('s') {
            format!("{seat}'")
        } else {
            format!("{seat}'s")
        };
        assert!(h.query_by_label(&format!("Copy {whose} link")).is_some());
    }
    assert_eq!(links[3].0, "spectator");
    // The seat the server plays says so (#12: "Seats and links" did not).
    assert!(
        h.query_by_label("austrians (the server plays it: greedy)")
            .is_some()
    );
    assert!(h.query_by_label("french").is_some());
    // The server plays the Austrians; the game is on the server the editor started.
    let client = Client::new(&url).expect("client");
    let list = client.games().expect("games");
    assert_eq!(list.games.len(), 1);
    assert_eq!(
        list.games[0].policies.get("austrians").map(String::as_str),
        Some("greedy")
    );
    // Join as the referee instead: the whole board, face up.
    h.get_by_label("Join as referee").click();
    wait_for(&mut h, "the referee's seat", |app| {
        app.remote()
            .is_some_and(|s| s.seat() == Some("referee") && s.connected() && s.state().is_some())
    });
    assert!(
        h.state()
            .remote_pieces()
            .iter()
            .all(|p| p.look == grognard_editor::board::Look::Open)
    );
    assert!(h.state().remote_pieces().iter().any(|p| p.name == "corps"));
    // The referee takes back an order, saying why; every seat reads it in the chat.
    // The secret seed's dice decide what the French may do at the start (a lost scout has
    // no move): any listed order will do, one that is not the end of the phase if there is
    // one; the referee may take back any order.
    let french = client
        .view(&created.game, &created.tokens["french"])
        .expect("the French view");
    let a_move = french
        .legal
        .iter()
        .find(|o| !o.end_phase)
        .or_else(|| french.legal.first())
        .expect("a French order");
    let text = serde_json::json!({ "orders": [a_move] }).to_string();
    let reply = client
        .orders(
            &created.game,
            &created.tokens["french"],
            "orders.yaml",
            &text,
        )
        .expect("the French order");
    assert_eq!(reply.accepted, 1, "{reply:?}");
    wait_for(&mut h, "an order to take back", |app| {
        app.remote()
            .and_then(|s| s.state())
            .is_some_and(|s| s.can_undo)
    });
    type_into(&mut h, "Why", "a slip of the hand");
    h.get_by_role_and_label(Role::Button, "Undo").click();
    wait_for(&mut h, "the referee's reason in the chat", |app| {
        app.remote().is_some_and(|s| {
            s.chat()
                .iter()
                .any(|l| l.text.contains("a slip of the hand"))
        })
    });
}

#[test]
fn on_the_remote_open_table_the_tape_measure_reads_from_the_seats_view() {
    let served = Served::of(DRILL);
    let mut h = harness(Options::default());
    joined(&mut h, &served, "blue");
    // Select b1 (at 12", 30"), then hover r1 (at 14", 8").
    let pos = table_at(&h, 12.0, 30.0);
    click_at(&mut h, pos);
    assert!(h.state().remote_measurement().is_none());
    let pos = table_at(&h, 14.0, 8.0);
    h.event(egui::Event::PointerMoved(pos));
    h.run_steps(3);
    let m = h
        .state()
        .remote_measurement()
        .expect("a reading on the remote board")
        .clone();
    // The same reading the kernel gives in the game itself (no hidden facts in this
    // drill: blue sees r1 as it is).
    let s = grognard_rules::load::load_scenario(Path::new(DRILL), None).expect("loads");
    let g = s
        .start(None, &[], &mut grognard_kernel::hooks::NoHooks)
        .expect("starts");
    let (b1, r1) = (
        g.piece_by_name("b1").expect("b1"),
        g.piece_by_name("r1").expect("r1"),
    );
    assert_eq!(Some(m.gap), g.table_gap(b1, r1));
    assert_eq!(Some(m.arc_of_to), g.bearing(b1, r1));
    assert_eq!(m.from_sees, g.clear_sight(g.state(), b1, r1));
    assert!(m.edge_to_edge);
    assert!(m.text[0].starts_with("b1 → r1: "), "{:?}", m.text);
}

/// Where a piece stands on the open table, and which way it faces.
fn on_table(p: &Piece) -> (Point, Angle) {
    match p.place {
        Place::Point { at, facing } => (at, facing),
        _ => panic!("{} is on the table", p.name),
    }
}

/// The id the remote board draws one of the seat's pieces by.
fn drawn_id(h: &Harness<'_, EditorApp>, name: &str) -> PieceId {
    h.state()
        .remote_pieces()
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("{name} is drawn"))
        .id
}

/// The orders the server's game has applied, from the referee's save.
fn logged_orders(served: &Served) -> Vec<OrderSpec> {
    let save = served
        .client
        .save(&served.created.game, &served.token("referee"))
        .expect("the referee's save");
    serde_json::from_value(save["orders"].clone()).expect("the save's orders")
}

#[test]
fn on_the_remote_open_table_a_base_dragged_to_a_legal_place_is_moved_by_the_server() {
    let served = Served::of(DRILL);
    let mut h = harness(Options::default());
    joined(&mut h, &served, "blue");
    let before = served.view("blue");
    assert_eq!(before.status.to_act, ["blue"]);
    // An open table has no cells to mark: the hint says to drag (third outside check #9).
    assert!(
        h.query_by_label_contains("a marked cell moves it")
            .is_none()
    );
    assert!(
        h.query_by_label_contains("then drag its base where it goes")
            .is_some()
    );
    // Select b1 (at 12", 30", facing north): it may be dragged, and the panel says how.
    let pos = table_at(&h, 12.0, 30.0);
    click_at(&mut h, pos);
    let b1 = drawn_id(&h, "b1");
    assert_eq!(h.state().remote_draggable(), Some(b1));
    assert!(
        h.query_by_label_contains("Drag the selected piece's base")
            .is_some()
    );
    // Drag it by its base 3" ahead; the drop is sent and the server's answer comes back.
    let (from, to) = (table_at(&h, 12.0, 30.0), table_at(&h, 12.0, 27.0));
    common::drag(&mut h, from, to);
    wait_for(&mut h, "the moved base", |app| {
        orders_seen(app) == Some(before.status.orders + 1)
    });
    // The server's game has b1 there, facing as before.
    let after = served.view("blue");
    let (at, facing) = on_table(&own_piece(&after, "b1"));
    assert!(
        (at.x.0 - 12_000).abs() <= 20 && (at.y.0 - 27_000).abs() <= 20,
        "{at:?}"
    );
    assert_eq!(facing, Angle::NORTH, "a plain drag keeps the facing");
    // The seat draws the state it was sent: b1 where the server put it.
    let drawn = h
        .state()
        .remote_pieces()
        .iter()
        .find(|p| p.id == b1)
        .expect("b1 is drawn")
        .place
        .clone();
    assert_eq!(drawn, Place::Point { at, facing });
    assert!(h.state().remote().and_then(|s| s.problem()).is_none());
    // The order is in the game's log, in the words the seat sent it.
    let drop = grognard_editor::board::BaseDrop {
        piece: b1,
        to: at,
        facing: None,
    };
    let logged = logged_orders(&served);
    assert_eq!(logged.last(), Some(&move_to_order("blue", "b1", &drop)));
    assert_eq!(logged.len() as u64, before.status.orders + 1);
}

#[test]
fn on_the_remote_open_table_a_drop_the_rules_refuse_shows_the_servers_words() {
    let served = Served::of(DRILL);
    let mut h = harness(Options::default());
    joined(&mut h, &served, "blue");
    let before = served.view("blue");
    let pos = table_at(&h, 12.0, 30.0);
    click_at(&mut h, pos);
    let refusal = |app: &EditorApp| match app.remote().and_then(|s| s.problem()) {
        Some(Problem::Refused(m)) => Some(m.clone()),
        _ => None,
    };
    // Onto b2's bases (cavalry at 30", 30").
    let (from, to) = (table_at(&h, 12.0, 30.0), table_at(&h, 25.0, 30.0));
    common::drag(&mut h, from, to);
    wait_for(&mut h, "the refusal", |app| refusal(app).is_some());
    let overlap = refusal(h.state()).expect("refused");
    assert!(
        overlap.contains("b1's bases would overlap b2's"),
        "{overlap}"
    );
    frames(&mut h);
    assert!(
        h.query_by_label(&overlap).is_some(),
        "the tab shows {overlap}"
    );
    // Too far: 13" ahead, with 12" to move.
    let (from, to) = (table_at(&h, 12.0, 30.0), table_at(&h, 12.0, 17.0));
    common::drag(&mut h, from, to);
    wait_for(&mut h, "the second refusal", |app| {
        refusal(app).is_some_and(|m| m != overlap)
    });
    let far = refusal(h.state()).expect("refused");
    assert!(
        far.starts_with("refused: ") && far.contains("but b1 has 12\" in line mode"),
        "{far}"
    );
    frames(&mut h);
    assert!(h.query_by_label(&far).is_some(), "the tab shows {far}");
    // Nothing moved, on the server or on the seat's board.
    let after = served.view("blue");
    assert_eq!(after.status.orders, before.status.orders);
    assert_eq!(after.view, before.view);
    assert_eq!(
        on_table(&own_piece(&after, "b1")),
        (Point::inches(12, 30), Angle::NORTH)
    );
    let b1 = drawn_id(&h, "b1");
    let drawn = h.state().remote_pieces().iter().find(|p| p.id == b1);
    assert_eq!(
        drawn.map(|p| p.place.clone()),
        Some(Place::Point {
            at: Point::inches(12, 30),
            facing: Angle::NORTH
        })
    );
    assert!(logged_orders(&served).is_empty());
}

#[test]
fn on_the_remote_open_table_a_seat_not_to_act_drags_nothing() {
    let served = Served::of(DRILL);
    let mut h = harness(Options::default());
    joined(&mut h, &served, "red");
    let before = served.view("red");
    assert_eq!(before.status.to_act, ["blue"]);
    // r1 (at 14", 8") is red's own piece, but it is blue's turn: a drag on it pans.
    let pos = table_at(&h, 14.0, 8.0);
    click_at(&mut h, pos);
    assert_eq!(h.state().remote_draggable(), None);
    assert!(
        h.query_by_label_contains("Drag the selected piece's base")
            .is_none()
    );
    let pan = h.state().remote_camera().pan;
    let (from, to) = (table_at(&h, 14.0, 8.0), table_at(&h, 14.0, 11.0));
    common::drag(&mut h, from, to);
    frames(&mut h);
    assert_ne!(h.state().remote_camera().pan, pan, "the board panned");
    // Nothing was sent: no refusal, no order on the server.
    frames(&mut h);
    assert!(h.state().remote().and_then(|s| s.problem()).is_none());
    let after = served.view("red");
    assert_eq!(after.status.orders, before.status.orders);
    assert_eq!(after.view, before.view);
    // The referee's seat drags nothing either: it picks up no piece, and a drag pans.
    h.get_by_role_and_label(Role::Button, "Leave").click();
    h.run_steps(2);
    joined(&mut h, &served, "referee");
    let pos = table_at(&h, 12.0, 30.0);
    click_at(&mut h, pos);
    assert_eq!(h.state().remote_draggable(), None);
    let pan = h.state().remote_camera().pan;
    let (from, to) = (table_at(&h, 12.0, 30.0), table_at(&h, 12.0, 27.0));
    common::drag(&mut h, from, to);
    frames(&mut h);
    assert_ne!(h.state().remote_camera().pan, pan, "the board panned");
    assert!(h.state().remote().and_then(|s| s.problem()).is_none());
    assert_eq!(served.view("red").status.orders, before.status.orders);
}

#[test]
fn the_chat_panel_shows_control_and_bidi_characters_escaped() {
    let served = Served::new();
    let said = "hi\u{1b}[31m\rthere \u{202E}olleh";
    served
        .client
        .say(&served.created.game, &served.token("austrians"), said)
        .expect("said");
    let mut h = harness(Options::default());
    joined(&mut h, &served, "french");
    wait_for(&mut h, "the line", |app| {
        app.remote()
            .is_some_and(|s| s.chat().iter().any(|l| l.text == said))
    });
    frames(&mut h);
    assert!(
        h.query_by_label("austrians: hi\\u{1b}[31m\\u{d}there \\u{202e}olleh")
            .is_some(),
        "the line is shown escaped"
    );
    assert!(h.query_by_label(&format!("austrians: {said}")).is_none());
}

/// The text of the field labelled `name`.
fn field(h: &Harness<'_, EditorApp>, name: &str) -> String {
    h.get_by_role_and_label(Role::TextInput, name)
        .value()
        .unwrap_or_default()
}

#[test]
fn the_link_host_hands_out_joins_from_the_server_field_and_no_token_is_ever_shown() {
    let served = Served::new();
    let mut h = harness(Options::default());
    h.get_by_label("Join game…").click();
    h.run_steps(2);
    // Something that is no server, with a secret in it: refused, the secret left out.
    type_into(&mut h, "Server", "https://example.org/play/g1#token=SECRET");
    h.get_by_role_and_label(Role::Button, "Join").click();
    h.run_steps(2);
    let status = h.state().status().expect("a refusal").text.clone();
    assert!(status.contains("not a server address"), "{status}");
    assert!(
        !status.contains("SECRET"),
        "the token is never shown: {status}"
    );
    // The seat's link, as Host hands it out, pasted into Server: all three fields fill.
    let token = served.token("french");
    let link = grognard_server::client::seat_link(&served.url(), &served.created.game, &token);
    type_into(&mut h, "Server", &link);
    assert_eq!(field(&h, "Server"), served.url());
    assert_eq!(field(&h, "Game"), served.created.game);
    assert_eq!(field(&h, "Token"), token);
    h.get_by_role_and_label(Role::Button, "Join").click();
    wait_for(&mut h, "the seat's state", |app| {
        app.remote()
            .is_some_and(|s| s.connected() && s.state().is_some())
    });
    assert_eq!(h.state().remote().and_then(|s| s.seat()), Some("french"));
    let status = h
        .state()
        .status()
        .map(|s| s.text.clone())
        .unwrap_or_default();
    assert!(!status.contains(&token), "{status}");
    // And `grognard join LINK` takes the link on its own.
    let parts = grognard_editor::remote::join_parts(&link, "", "").expect("a link joins");
    assert_eq!(
        (
            parts.url.as_str(),
            parts.game.as_str(),
            parts.token.as_str()
        ),
        (
            served.url().as_str(),
            served.created.game.as_str(),
            token.as_str()
        )
    );
}

/// Village skirmish: a table whose terrain the ruleset colours (`field`, `houses`,
/// `orchard`: no name a guess would colour).
const VILLAGE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/village-skirmish.yaml"
);

#[test]
fn a_seat_joined_from_a_link_draws_the_rulesets_terrain_colours_and_names_the_game() {
    let served = Served::of(VILLAGE);
    // As `grognard join LINK` opens it: no ruleset or scenario of its own.
    let mut h = harness(Options::default());
    joined(&mut h, &served, "red");
    let s = grognard_rules::load::load_scenario(Path::new(VILLAGE), None).expect("loads");
    let own: Vec<egui::Color32> = s
        .ruleset
        .rules
        .terrain
        .iter()
        .map(|t| {
            let color = s
                .ruleset
                .spec
                .terrain
                .get(&t.name)
                .and_then(|t| t.color.clone());
            grognard_editor::board::parse_color(&color.expect("every terrain has a colour"))
                .expect("a colour")
        })
        .collect();
    assert!(!own.is_empty());
    let session = h.state().remote().expect("joined");
    assert_eq!(
        session.terrain_colors(),
        own.as_slice(),
        "the ruleset's own colours"
    );
    // The top bar names the joined game's ruleset and scenario, not "no ruleset / none".
    let shown = |h: &Harness<'_, EditorApp>, name: &str| {
        let n = h.get_by_role_and_label(Role::ComboBox, name);
        let n = egui_kittest::kittest::NodeT::accesskit_node(&n);
        format!("{:?} {:?}", n.label(), n.value())
    };
    let ruleset = shown(&h, "Ruleset");
    assert!(ruleset.contains("village-skirmish"), "{ruleset}");
    let scenario = shown(&h, "Scenario");
    assert!(scenario.contains(&*s.spec.scenario), "{scenario}");
    assert!(!scenario.contains("none"), "{scenario}");
}

/// Issue 37, third outside check, round 2 item 4: the Remote tab's "View and log" read the
/// server's text with the ruleset's flag names as written (`fate_rolled`); it spaces flag
/// and counter names as the Play tab does (`scout1 is marked “fate rolled”`).
#[test]
fn the_remote_log_spaces_flag_and_counter_names_as_the_play_tab_does() {
    let served = Served::new();
    let mut h = harness(Options::default());
    joined(&mut h, &served, "referee");
    let truth = served.view("referee");
    assert!(
        truth.text.contains("fate_rolled"),
        "the server's text names the flag: {}",
        truth.text
    );
    frames(&mut h);
    assert!(h.query_by_label_contains("fate_rolled").is_none());
    assert!(
        h.query_by_label_contains("scout1 is marked “fate rolled”")
            .is_some()
    );
}

/// The Remote board gives the hover card the Play tab gives (sbh03.png showed none): the
/// piece under the pointer as the seat knows it, then its cell.
#[test]
fn hovering_the_remote_board_shows_the_pieces_card_and_its_cell() {
    let served = Served::new();
    let mut h = harness(Options::default());
    joined(&mut h, &served, "french");
    assert!(h.query_by_label_contains("cell (5,6):").is_none());
    let pos = h
        .state()
        .remote_cell_on_screen(Cell::new(5, 6))
        .expect("the board is drawn");
    h.hover_at(pos);
    for _ in 0..8 {
        h.step();
    }
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("scout1 — french").is_some(),
        "no card names scout1"
    );
    assert!(h.query_by_label_contains("cell (5,6):").is_some());
    assert!(h.query_by_label_contains("to enter:").is_some());
}
