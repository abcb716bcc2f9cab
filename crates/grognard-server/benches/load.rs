//! Load benchmark of `grognard serve` (issue 20): 200 concurrent games × 2 WebSocket
//! clients on 127.0.0.1, each game playing the drill-square example's orders — once flat
//! out (each order sent as soon as the last is acknowledged: the most the server takes),
//! once paced as players are (PACE_MS, default one order per game every 250 ms); measures
//! orders per second and the latency from an order sent by one client to the opponent's
//! update (p50, p99). The baseline, measured in the same run with the same clients and
//! pattern, is a bare WebSocket relay (the server passes each message to the opponent and
//! does no game work): the ratio is what refereeing costs over the network floor.
//!
//! A third run is the cold load (issue 35): while COLD_GAMES (default 100) more games play
//! paced, a game whose log holds 200,000 orders (the most a game may) is opened cold, and
//! the other games' latencies are measured while it loads. Its log is written into the
//! database directly (playing 200,000 orders through the API would take minutes).
//!
//! Bounded: it plays a fixed number of orders and stops by itself.
//! `cargo bench -p grognard-server --bench load` (GAMES=N creates N games, half for each
//! of the first two runs; LONG=N gives the long game N orders instead).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use grognard_server::bundle;
use grognard_server::hub::Hub;
use grognard_server::protocol::CreateGame;
use grognard_server::store::{Entry, SqliteStore};
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
) -> Vec<(Instant, Duration)> {
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
        latencies.push((sent, sent.elapsed()));
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
    /// Each order's latency by when it was sent.
    sent: Vec<(Instant, Duration)>,
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
    let mut sent = Vec::new();
    for t in tasks {
        sent.extend(t.await.expect("a game"));
    }
    let elapsed = start.elapsed();
    let mut all: Vec<Duration> = sent.iter().map(|(_, d)| *d).collect();
    all.sort();
    Tally {
        orders: all.len(),
        elapsed,
        p50: percentile(&all, 0.5),
        p99: percentile(&all, 0.99),
        sent,
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The long game's scenario: drill-square, lasting the most turns a scenario may.
fn long_request(scenario: &Path) -> CreateGame {
    let mut request =
        bundle::gather(scenario, Default::default(), None, Default::default()).expect("bundle");
    let text = request
        .files
        .get_mut(&request.scenario)
        .expect("the scenario among the files");
    assert!(text.contains("turns: 3"), "drill-square's length changed");
    *text = text.replacen("turns: 3", "turns: 10000", 1);
    // The sender's hash was of the file before the change.
    request.scenario_hash = None;
    request
}

/// Mode changes a side makes each turn before ending its phases: even, so each piece is
/// back in its mode when its side's next turn starts.
const MODE_CHANGES: usize = 18;

/// `n` orders of the long game, as its log stores them: each turn blue's b1 changes mode
/// MODE_CHANGES times and blue ends both its phases, then red does the same with r1. No
/// dice are rolled, so nothing is locked.
fn long_log(n: usize) -> Vec<Entry> {
    let order = |v: Value| -> Entry {
        let spec: grognard_rules::model::OrderSpec = serde_json::from_value(v).expect("order");
        Entry::Order {
            seat: spec.side.clone(),
            order: Box::new(spec),
            locked: false,
        }
    };
    let mut turn = Vec::new();
    // b1 starts in strategic mode, r1 in battle.
    for (side, piece, modes) in [
        ("blue", "b1", ["battle", "strategic"]),
        ("red", "r1", ["strategic", "battle"]),
    ] {
        for i in 0..MODE_CHANGES {
            turn.push(json!({"side": side, "mode": {"piece": piece, "mode": modes[i % 2]}}));
        }
        for _ in 0..2 {
            turn.push(json!({"side": side, "end_phase": true}));
        }
    }
    turn.iter().cycle().take(n).cloned().map(order).collect()
}

/// Writes `entries` as game `id`'s log in one transaction, straight into the database
/// (no server has it open), and counts their bytes as the store would.
fn write_log(db: &Path, id: &str, entries: &[Entry]) {
    let mut conn = rusqlite::Connection::open(db).expect("db");
    let tx = conn.transaction().expect("transaction");
    let mut bytes = 0i64;
    {
        let mut insert = tx
            .prepare("INSERT INTO log (game, seq, at, body) VALUES (?1, ?2, ?3, ?4)")
            .expect("insert");
        for (i, entry) in entries.iter().enumerate() {
            let body = serde_json::to_string(entry).expect("json");
            bytes += i64::try_from(body.len()).expect("size");
            let seq = i64::try_from(i + 1).expect("seq");
            insert
                .execute(rusqlite::params![id, seq, 0i64, body])
                .expect("row");
        }
    }
    tx.execute(
        "UPDATE games SET bytes = bytes + ?2 WHERE id = ?1",
        rusqlite::params![id, bytes],
    )
    .expect("bytes");
    tx.commit().expect("commit");
}

/// The third run: `games` play paced while the long game is opened cold (its table asked
/// for through the HTTP API, after the paced games have played for a second). Prints the
/// load's time and the other games' latencies while it lasted, and over the whole run.
fn cold_load(
    rt: &tokio::runtime::Runtime,
    url: &str,
    games: Vec<Game>,
    long: Game,
    orders: &Arc<Vec<(String, Value)>>,
    pace: Duration,
    long_orders: usize,
) {
    let count = games.len();
    let opener = {
        let url = url.to_owned();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(1));
            let client = grognard_server::client::Client::new(&url).expect("client");
            let start = Instant::now();
            client
                .table(&long.id, &long.blue)
                .expect("the long game opens");
            (start, start.elapsed())
        })
    };
    let served = rt.block_on(run_all(url, games, orders, Some(pace)));
    let (start, took) = opener.join().expect("the opener");
    let mut during: Vec<Duration> = served
        .sent
        .iter()
        .filter(|(sent, _)| *sent >= start && *sent <= start + took)
        .map(|(_, d)| *d)
        .collect();
    during.sort();
    println!(
        "cold load: a game with {long_orders} orders in its log opened in {:.2} s, while {count} games played paced (an order per game every {} ms)",
        took.as_secs_f64(),
        pace.as_millis()
    );
    println!("| other games' orders | orders | p50 ms | p99 ms | max ms |");
    println!("|---|---:|---:|---:|---:|");
    let mut all: Vec<Duration> = served.sent.iter().map(|(_, d)| *d).collect();
    all.sort();
    for (name, set) in [("sent while it loaded", &during), ("the whole run", &all)] {
        if set.is_empty() {
            println!("| {name} | 0 | | | |");
            continue;
        }
        println!(
            "| {name} | {} | {:.2} | {:.2} | {:.2} |",
            set.len(),
            ms(percentile(set, 0.5)),
            ms(percentile(set, 0.99)),
            ms(*set.last().unwrap_or(&Duration::ZERO))
        );
    }
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
    let cold_games: usize = std::env::var("COLD_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let long_orders: usize = std::env::var("LONG")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000);
    let mut made: Vec<Game> = Vec::new();
    let mut cold: Vec<Game> = Vec::new();
    let long: Game;
    {
        let config = grognard_server::config::Config::new("127.0.0.1:0", &db, "bench");
        let hub = Hub::new(Arc::new(SqliteStore::open(&db).expect("db")), config).expect("hub");
        let request = bundle::gather(&scenario, Default::default(), None, Default::default())
            .expect("bundle");
        let create = |request: &CreateGame| {
            let c = hub.create(request.clone()).expect("create");
            Game {
                id: c.game.clone(),
                blue: c.tokens["blue"].clone(),
                red: c.tokens["red"].clone(),
            }
        };
        made.extend((0..games).map(|_| create(&request)));
        cold.extend((0..cold_games).map(|_| create(&request)));
        long = create(&long_request(&scenario));
    }
    write_log(&db, &long.id, &long_log(long_orders));
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
    let pace = Duration::from_millis(pace_ms);
    cold_load(&rt, &server.url(), cold, long, &orders, pace, long_orders);
}
