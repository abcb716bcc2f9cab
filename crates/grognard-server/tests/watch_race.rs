//! A seat that connects while another seat's order lands still reaches the state after
//! that order. `Hub::watch` registers the seat on the game's thread and subscribes to the
//! updates only afterwards, so an update broadcast in between is never received; the
//! connection makes up for it by asking for the seat's state once subscribed. This test
//! opens a watcher at the same moment as each order of the square-blocks example and
//! requires every watcher to be brought to the referee's order count.

mod common;

use common::root;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use grognard_rules::load;
use grognard_server::bundle;
use grognard_server::client::Client;
use grognard_server::protocol::ServerMessage;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// How long any one message may take to arrive.
const WAIT: Duration = Duration::from_secs(10);

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

/// Reads `socket` until a state with `orders` orders; panics if none comes in time.
async fn until_orders(socket: &mut Socket, orders: u64, who: &str) {
    let mut seen = Vec::new();
    loop {
        match next(socket).await {
            Some(ServerMessage::State(s)) if s.status.orders == orders => return,
            Some(ServerMessage::State(s)) => seen.push(s.status.orders),
            Some(_) => {}
            None => panic!("{who}: no state with {orders} orders; states seen: {seen:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_connecting_as_an_order_lands_reaches_the_state_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let url = server.url();
    let scenario_path = root().join("examples/square-blocks.yaml");
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
    let created = tokio::task::spawn_blocking({
        let (c, host) = (client.clone(), server.host_token.clone());
        move || c.create(&request, Some(&host))
    })
    .await
    .unwrap()
    .unwrap();
    let orders = load::load_orders(&root().join("examples/square-blocks.orders.yaml")).unwrap();
    let mut players = std::collections::BTreeMap::new();
    for located in &orders {
        let side = located.value.side.clone();
        if let std::collections::btree_map::Entry::Vacant(seat) = players.entry(side.clone()) {
            let mut s = connect(&url, &created.game, &created.tokens[&side]).await;
            until_orders(&mut s, 0, &side).await;
            seat.insert(s);
        }
    }
    for (i, located) in orders.iter().enumerate() {
        let count = i as u64 + 1;
        let spec = &located.value;
        let order = json!({"type": "order", "order": spec}).to_string();
        // The watcher's hello and the order go out together, so the order lands before,
        // during or after the watcher's subscription, as the scheduler has it.
        let actor = players.get_mut(&spec.side).unwrap();
        let (mut watcher, sent) = tokio::join!(
            connect(&url, &created.game, &created.tokens["referee"]),
            actor.send(Message::text(order)),
        );
        sent.unwrap();
        until_orders(actor, count, &spec.side).await;
        until_orders(&mut watcher, count, &format!("referee watcher {count}")).await;
        let _ = watcher.close(None).await;
    }
    for s in players.values_mut() {
        let _ = s.close(None).await;
    }
}
