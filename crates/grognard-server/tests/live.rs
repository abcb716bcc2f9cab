//! The WebSocket seats of a real server on loopback: two clients play the hidden-information
//! examples and every message each receives is checked against that side's own view,
//! computed by a game played beside them; abuse (bad tokens, junk, floods, oversized
//! messages) gets a clear error and changes nothing; and a refused order says its kind.

mod common;

use common::root;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use grognard_kernel::action::Order;
use grognard_kernel::game::Game;
use grognard_kernel::hooks::{Hooks, NoHooks};
use grognard_lua::LuaHooks;
use grognard_play::text;
use grognard_rules::load;
use grognard_rules::orders::{describe_order_as, resolve_order};
use grognard_server::bundle;
use grognard_server::client::Client;
use grognard_server::protocol::{CreateGame, Created, ServerMessage, Status};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// How long any one message may take to arrive.
const WAIT: Duration = Duration::from_secs(20);

async fn connect(url: &str, game: &str, token: &str) -> Socket {
    let ws = format!("{}/games/{game}/live", url.replace("http://", "ws://"));
    let (mut socket, _) = tokio_tungstenite::connect_async(ws).await.expect("connect");
    let hello = json!({"type": "hello", "token": token}).to_string();
    socket.send(Message::text(hello)).await.expect("hello");
    socket
}

async fn next(socket: &mut Socket) -> Option<ServerMessage> {
    loop {
        let m = tokio::time::timeout(WAIT, socket.next()).await.ok()??;
        match m.ok()? {
            Message::Text(t) => return Some(serde_json::from_str(&t).expect("a server message")),
            Message::Close(_) => return None,
            _ => {}
        }
    }
}

fn hooks(s: &load::Scenario) -> Box<dyn Hooks> {
    if LuaHooks::wanted(&s.ruleset) {
        Box::new(LuaHooks::new(&s.ruleset, grognard_lua::Limits::default()).unwrap())
    } else {
        Box::new(NoHooks)
    }
}

/// What `side`'s seat must have been sent for `game` as it stands.
fn expected(game: &Game, hooks: &mut dyn Hooks, side: &str) -> (Value, String, Vec<Value>) {
    let id = game.side_by_name(side).unwrap();
    let legal = if game.to_act().contains(&id) {
        game.legal_orders(id, hooks)
            .into_iter()
            .map(|action| {
                serde_json::to_value(describe_order_as(
                    game,
                    &Order { side: id, action },
                    Some(id),
                ))
                .unwrap()
            })
            .collect()
    } else {
        Vec::new()
    };
    (
        json!({"view": game.view(id), "events": game.side_events(id)}),
        text::side_view(game, id),
        legal,
    )
}

fn check(state: &ServerMessage, game: &Game, hooks: &mut dyn Hooks, side: &str, at: &str) {
    let ServerMessage::State(s) = state else {
        panic!("{side} {at}: expected a state, got {state:?}");
    };
    let (view, text_now, legal) = expected(game, hooks, side);
    assert_eq!(s.seat, side);
    // Compared as JSON text, so nothing extra can hide in a field the view does not have.
    assert_eq!(
        serde_json::to_string(&s.view).unwrap(),
        serde_json::to_string(&view).unwrap(),
        "{side} {at}: view"
    );
    assert_eq!(s.text, text_now, "{side} {at}: text");
    let sent: Vec<Value> = s
        .legal
        .iter()
        .map(|o| serde_json::to_value(o).unwrap())
        .collect();
    assert_eq!(sent, legal, "{side} {at}: legal orders");
}

/// Creates the game `request` on `server` with its host token, off the async runtime.
async fn create(
    client: &Client,
    server: &grognard_server::Running,
    request: CreateGame,
) -> Created {
    let (c, host) = (client.clone(), server.host_token.clone());
    tokio::task::spawn_blocking(move || c.create(&request, Some(&host)))
        .await
        .unwrap()
        .unwrap()
}

/// A server on loopback (its database in a fresh folder, kept while the test runs), a
/// client of it, and drill-square created there.
async fn drill_square_served() -> (tempfile::TempDir, grognard_server::Running, Client, Created) {
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let client = Client::new(&server.url()).unwrap();
    let request = common::example("examples/drill-square.yaml");
    let created = create(&client, &server, request).await;
    (dir, server, client, created)
}

/// Two seats play `example` with its orders file over WebSockets; after every order both
/// receive exactly their side's state and nothing else.
async fn play_over_websockets(example: &str) {
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let url = server.url();
    let scenario_path = root().join(format!("examples/{example}.yaml"));
    // The host fixes the seed (the scenario's, which the example's orders were written
    // for), so a game played beside it rolls the same dice; without one the server draws
    // a secret seed.
    let seed = load::load_scenario(&scenario_path, None)
        .unwrap()
        .compiled
        .setup
        .seed;
    let request = bundle::gather(
        &scenario_path,
        Default::default(),
        Some(seed),
        Default::default(),
    )
    .unwrap();
    let client = Client::new(&url).unwrap();
    let created = create(&client, &server, request).await;
    let scenario = load::load_scenario(&scenario_path, None).unwrap();
    let mut local_hooks = hooks(&scenario);
    let mut local = scenario
        .start(Some(seed), &[], local_hooks.as_mut())
        .unwrap();
    let sides: Vec<String> = local.sides().iter().map(|s| s.name.clone()).collect();
    let mut sockets = Vec::new();
    for side in &sides {
        let mut s = connect(&url, &created.game, &created.tokens[side]).await;
        match next(&mut s).await {
            Some(ServerMessage::Welcome { seat, table }) => {
                assert_eq!(&seat, side);
                assert_eq!(&table.board, local.board());
            }
            other => panic!("expected a welcome, got {other:?}"),
        }
        let first = next(&mut s).await.expect("a first state");
        check(&first, &local, local_hooks.as_mut(), side, "at the start");
        sockets.push(s);
    }
    let orders =
        load::load_orders(&root().join(format!("examples/{example}.orders.yaml"))).unwrap();
    for (i, located) in orders.iter().enumerate() {
        let spec = &located.value;
        let actor = sides.iter().position(|s| *s == spec.side).unwrap();
        let order = json!({"type": "order", "order": spec}).to_string();
        sockets[actor].send(Message::text(order)).await.unwrap();
        let resolved = resolve_order(&local, spec).unwrap();
        local.apply(&resolved, local_hooks.as_mut()).unwrap();
        for (s, side) in sockets.iter_mut().zip(&sides) {
            let got = next(s)
                .await
                .unwrap_or_else(|| panic!("{side}: no update after order {}", i + 1));
            check(
                &got,
                &local,
                local_hooks.as_mut(),
                side,
                &format!("after order {}", i + 1),
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn square_blocks_seats_receive_only_their_sides_view() {
    play_over_websockets("square-blocks").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hex_command_seats_receive_only_their_sides_view() {
    play_over_websockets("hex-command").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abuse_gets_a_clear_error_and_changes_nothing() {
    let (_dir, server, client, created) = drill_square_served().await;
    let url = server.url();
    let game = created.game.clone();
    let status = || {
        let (c, g, t) = (
            client.clone(),
            game.clone(),
            created.tokens["referee"].clone(),
        );
        async move {
            tokio::task::spawn_blocking(move || c.view(&g, &t).unwrap().status)
                .await
                .unwrap()
        }
    };
    let before: Status = status().await;
    // A wrong token: an error, then the server closes.
    let mut s = connect(&url, &game, "not-a-token").await;
    match next(&mut s).await {
        Some(ServerMessage::Error { message }) => assert!(message.contains("opens no seat")),
        other => panic!("{other:?}"),
    }
    assert!(next(&mut s).await.is_none(), "closed");
    // Junk, an order for the other side, and a message over the size limit.
    let mut s = connect(&url, &game, &created.tokens["blue"]).await;
    assert!(matches!(
        next(&mut s).await,
        Some(ServerMessage::Welcome { .. })
    ));
    assert!(matches!(next(&mut s).await, Some(ServerMessage::State(_))));
    s.send(Message::text("{\"type\": \"dance\"}"))
        .await
        .unwrap();
    match next(&mut s).await {
        Some(ServerMessage::Error { message }) => assert!(message.contains("not a message")),
        other => panic!("{other:?}"),
    }
    let red = json!({"type": "order", "order": {"side": "red", "end_phase": true}}).to_string();
    s.send(Message::text(red)).await.unwrap();
    match next(&mut s).await {
        Some(ServerMessage::Error { message }) => {
            assert!(message.contains("this seat plays blue"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let huge = format!(
        "{{\"type\": \"chat\", \"text\": \"{}\"}}",
        "x".repeat(grognard_server::protocol::MAX_WS_MESSAGE_BYTES + 1)
    );
    let _ = s.send(Message::text(huge)).await;
    assert!(
        next(&mut s).await.is_none(),
        "an oversized message closes the connection"
    );
    // A flood: told so, then closed.
    let mut s = connect(&url, &game, &created.tokens["red"]).await;
    assert!(matches!(
        next(&mut s).await,
        Some(ServerMessage::Welcome { .. })
    ));
    assert!(matches!(next(&mut s).await, Some(ServerMessage::State(_))));
    for _ in 0..200 {
        if s.send(Message::text("{\"type\": \"dance\"}"))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut told = false;
    while let Some(m) = next(&mut s).await {
        if let ServerMessage::Error { message } = m {
            told |= message.contains("too many messages");
        }
    }
    assert!(told, "the flood is named before the close");
    assert_eq!(status().await, before, "nothing changed");
}

/// A refused order says why in a word a program can match on, as `play --json`'s
/// `refused.kind` does (docs/designer-tools.md): the kernel's reason when the rules refused
/// it, `bad_orders` when they never saw it (a name the game does not have). The words are
/// unchanged; the HTTP orders reply carries the same kind beside its `refused`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_says_its_kind() {
    let (_dir, server, client, created) = drill_square_served().await;
    let url = server.url();
    let game = created.game.clone();
    // Blue moves first in drill-square: red ending a phase is refused by the rules.
    let mut red = connect(&url, &game, &created.tokens["red"]).await;
    assert!(matches!(
        next(&mut red).await,
        Some(ServerMessage::Welcome { .. })
    ));
    assert!(matches!(
        next(&mut red).await,
        Some(ServerMessage::State(_))
    ));
    let end = json!({"type": "order", "order": {"side": "red", "end_phase": true}});
    red.send(Message::text(end.to_string())).await.unwrap();
    match next(&mut red).await {
        Some(ServerMessage::Refused { kind, message }) => {
            assert_eq!(kind, "out_of_phase");
            assert_eq!(
                message,
                "refused: red may not act in the movement phase: blue acts now; red can only wait"
            );
        }
        other => panic!("{other:?}"),
    }
    // A piece the game does not have: the rules never see the order.
    let face = json!({"type": "order",
                      "order": {"side": "red", "face": {"piece": "r9", "facing": "N"}}});
    red.send(Message::text(face.to_string())).await.unwrap();
    match next(&mut red).await {
        Some(ServerMessage::Refused { kind, message }) => {
            assert_eq!(kind, "bad_orders");
            assert_eq!(message, "refused: unknown piece `r9`");
        }
        other => panic!("{other:?}"),
    }
    // The same two over HTTP: the reply's `refused_kind` beside its words.
    let reply = |text: &'static str| {
        let (c, g, t) = (client.clone(), game.clone(), created.tokens["red"].clone());
        tokio::task::spawn_blocking(move || c.orders(&g, &t, "o.yaml", text).unwrap())
    };
    let out = reply("orders:\n  - { side: red, end_phase: true }\n")
        .await
        .unwrap();
    assert_eq!(out.refused_kind.as_deref(), Some("out_of_phase"));
    let bad = reply("orders:\n  - { side: red, face: { piece: r9, facing: N } }\n")
        .await
        .unwrap();
    assert_eq!(
        bad.refused.as_deref(),
        Some("o.yaml:2:5: refused: unknown piece `r9`")
    );
    assert_eq!(bad.refused_kind.as_deref(), Some("bad_orders"));
}
