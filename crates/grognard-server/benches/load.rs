//! Load benchmark of `grognard serve` (issue 20): 200 concurrent games × 2 WebSocket
//! clients on 127.0.0.1, each game playing the drill-square example's orders — once flat
//! out (each order sent as soon as the last is acknowledged: the most the server takes),
//! once paced as players are (PACE_MS, default one order per game every 250 ms); measures
//! orders per second and the latency from an order sent by one client to the opponent's
//! update (p50, p99). The baseline, measured in the same run with the same clients and
//! pattern, is a bare WebSocket relay (the server passes each message to the opponent and
//! does no game work): the ratio is what refereeing costs over the network floor.
//!
//! Bounded: it plays a fixed number of orders and stops by itself.
//! `cargo bench -p grognard-server --bench load` (GAMES=N creates N games, half for each
//! run).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use grognard_server::bundle;
use grognard_server::hub::Hub;
use grognard_server::store::SqliteStore;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

const WAIT: Duration = Duration::from_secs(60);

async fn recv_text(s: &mut Socket) -> String {
    loop {
        match tokio::time::timeout(WAIT, s.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return t.to_string(),
            Ok(Some(Ok(_))) => {}
            other => panic!("connection lost: {other:?}"),
        }
    }
}

/// Waits for a `state` message showing `orders` live orders.
async fn state_at(s: &mut Socket, orders: u64) {
    loop {
        let v: Value = serde_json::from_str(&recv_text(s).await).expect("json");
        if v["type"] == "state" && v["status"]["orders"].as_u64() == Some(orders) {
            return;
        }
        assert_ne!(v["type"], "refused", "{v}");
    }
}

struct Game {
    id: String,
    blue: String,
    red: String,
}

/// One game's worth of play: returns the latency of each order (sent → opponent updated).
async fn play(
    url: String,
    game: Game,
    orders: Arc<Vec<(String, Value)>>,
    pace: Option<(Duration, Duration)>,
) -> Vec<Duration> {
    let ws = format!("{}/games/{}/live", url.replace("http://", "ws://"), game.id);
    let mut sockets = Vec::new();
    for token in [&game.blue, &game.red] {
        let (mut s, _) = tokio_tungstenite::connect_async(&ws)
            .await
            .expect("connect");
        let hello = json!({"type": "hello", "token": token}).to_string();
        s.send(Message::text(hello)).await.expect("hello");
        recv_text(&mut s).await; // welcome
        state_at(&mut s, 0).await;
        sockets.push(s);
    }
    let mut latencies = Vec::new();
    let start = tokio::time::Instant::now();
    for (i, (side, order)) in orders.iter().enumerate() {
        if let Some((every, offset)) = pace {
            // A player thinks: one order per `every`, games staggered by `offset`.
            tokio::time::sleep_until(start + offset + every * u32::try_from(i).unwrap_or(0)).await;
        }
        let (me, them) = if side == "blue" { (0, 1) } else { (1, 0) };
        let message = json!({"type": "order", "order": order}).to_string();
        let sent = Instant::now();
        sockets[me]
            .send(Message::text(message))
            .await
            .expect("send");
        let n = i as u64 + 1;
        state_at(&mut sockets[them], n).await;
        latencies.push(sent.elapsed());
        state_at(&mut sockets[me], n).await;
    }
    latencies
}

/// The baseline: a relay that hands each message to the other client of its pair, with a
/// `state`-shaped answer of the same order count to both.
async fn relay(listener: TcpListener) {
    let pairs: Arc<
        tokio::sync::Mutex<
            std::collections::HashMap<String, Vec<tokio::sync::mpsc::UnboundedSender<String>>>,
        >,
    > = Arc::default();
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            return;
        };
        let pairs = Arc::clone(&pairs);
        tokio::spawn(async move {
            let Ok(mut ws) = tokio_tungstenite::accept_async(tcp).await else {
                return;
            };
            let Some(Ok(Message::Text(hello))) = ws.next().await else {
                return;
            };
            let hello: Value = serde_json::from_str(&hello).unwrap_or_default();
            let game = hello["token"]
                .as_str()
                .unwrap_or_default()
                .split(':')
                .next()
                .unwrap_or_default()
                .to_owned();
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
            let mut orders = 0u64;
            let state = |n: u64| json!({"type": "state", "status": {"orders": n}}).to_string();
            let _ = ws.send(Message::text("{\"type\":\"welcome\"}")).await;
            let _ = ws.send(Message::text(state(0))).await;
            pairs.lock().await.entry(game.clone()).or_default().push(tx);
            loop {
                tokio::select! {
                    m = ws.next() => {
                        let Some(Ok(Message::Text(_))) = m else { return };
                        orders += 1;
                        for peer in pairs.lock().await.get(&game).into_iter().flatten() {
                            let _ = peer.send(state(orders));
                        }
                    }
                    s = rx.recv() => {
                        let Some(s) = s else { return };
                        let n: Value = serde_json::from_str(&s).unwrap_or_default();
                        orders = orders.max(n["status"]["orders"].as_u64().unwrap_or(0));
                        if ws.send(Message::text(s)).await.is_err() { return; }
                    }
                }
            }
        });
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

struct Tally {
    orders: usize,
    elapsed: Duration,
    p50: Duration,
    p99: Duration,
}

async fn run_all(
    url: &str,
    games: Vec<Game>,
    orders: &Arc<Vec<(String, Value)>>,
    pace: Option<Duration>,
) -> Tally {
    let start = Instant::now();
    let n = u32::try_from(games.len()).unwrap_or(1).max(1);
    let tasks: Vec<_> = games
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            let p = pace.map(|every| (every, every * u32::try_from(i).unwrap_or(0) / n));
            tokio::spawn(play(url.to_owned(), g, Arc::clone(orders), p))
        })
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.expect("a game"));
    }
    let elapsed = start.elapsed();
    all.sort();
    Tally {
        orders: all.len(),
        elapsed,
        p50: percentile(&all, 0.5),
        p99: percentile(&all, 0.99),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let games: usize = std::env::var("GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scenario = root.join("examples/drill-square.yaml");
    let orders_file = root.join("examples/drill-square.orders.yaml");
    let orders: Arc<Vec<(String, Value)>> = Arc::new(
        grognard_rules::load::load_orders(&orders_file)
            .expect("orders")
            .into_iter()
            .map(|o| {
                (
                    o.value.side.clone(),
                    serde_json::to_value(&o.value).expect("json"),
                )
            })
            .collect(),
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("load.sqlite");
    // The games are created through a hub on the same database file, before the server
    // starts (the HTTP API would rate-limit 200 creates a minute).
    let mut made: Vec<Game> = Vec::new();
    {
        let config = grognard_server::config::Config::new("127.0.0.1:0", &db, "bench");
        let hub = Hub::new(Arc::new(SqliteStore::open(&db).expect("db")), config).expect("hub");
        let request = bundle::gather(&scenario, Default::default(), None, Default::default())
            .expect("bundle");
        for _ in 0..games {
            let c = hub.create(request.clone()).expect("create");
            made.push(Game {
                id: c.game.clone(),
                blue: c.tokens["blue"].clone(),
                red: c.tokens["red"].clone(),
            });
        }
    }
    let server = grognard_server::spawn("127.0.0.1:0", &db).expect("server");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let pace_ms: u64 = std::env::var("PACE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(250);
    println!(
        "load: {games} games × 2 WebSocket clients on 127.0.0.1, drill-square's {} orders each",
        orders.len()
    );
    println!("| load | server | orders | seconds | orders/s | p50 ms | p99 ms |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    let half = made.len() / 2;
    let second: Vec<Game> = made.split_off(half);
    // Each half of the games is played once (a game's orders cannot be replayed): the
    // first flat out, the second paced.
    for (mode, set, pace) in [
        ("flat out (closed loop)", made, None),
        ("paced", second, Some(Duration::from_millis(pace_ms))),
    ] {
        let count = set.len();
        let served = rt.block_on(run_all(&server.url(), set, &orders, pace));
        let baseline = rt.block_on(async {
            let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
            let addr = listener.local_addr().expect("addr");
            let relay_task = tokio::spawn(relay(listener));
            // The relay keys pairs by the token's game part; the path is not read.
            let pairs = (0..count)
                .map(|i| Game {
                    id: format!("g{i}"),
                    blue: format!("g{i}:blue"),
                    red: format!("g{i}:red"),
                })
                .collect();
            let t = run_all(&format!("http://{addr}"), pairs, &orders, pace).await;
            relay_task.abort();
            t
        });
        let label = match pace {
            Some(p) => format!(
                "{mode}: {count} games, an order per game every {} ms",
                p.as_millis()
            ),
            None => format!("{mode}: {count} games"),
        };
        for (name, t) in [
            ("grognard serve", &served),
            ("bare relay (baseline)", &baseline),
        ] {
            #[allow(clippy::cast_precision_loss)]
            let rate = t.orders as f64 / t.elapsed.as_secs_f64();
            println!(
                "| {label} | {name} | {} | {:.2} | {rate:.0} | {:.2} | {:.2} |",
                t.orders,
                t.elapsed.as_secs_f64(),
                ms(t.p50),
                ms(t.p99)
            );
        }
        println!(
            "ratio (serve / relay), {mode}: p50 {:.1}×, p99 {:.1}×",
            ms(served.p50) / ms(baseline.p50),
            ms(served.p99) / ms(baseline.p99),
        );
    }
}
