//! The router driven in process (tower's `oneshot`, no socket) over an in-memory store:
//! the API's answers without the network, beside the loopback tests. A rigged store (the
//! in-memory one, whose log reads can be held and whose writes can fail) shows a slow load
//! holding up only its own game, and the store's failures answered 503.

mod common;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use grognard_server::config::Config;
use grognard_server::hub::Hub;
use grognard_server::memory::MemoryStore;
use grognard_server::protocol::{ChatLine, GameSummary, Status};
use grognard_server::store::{Entry, GameRecord, LogRow, Store, StoreError};
use serde_json::{Value, json};
use tower::ServiceExt;

fn app() -> axum::Router {
    app_over(Arc::new(MemoryStore::new()))
}

fn app_over(store: Arc<dyn Store>) -> axum::Router {
    let hub = Hub::new(store, Config::new("127.0.0.1:0", "unused.sqlite", "host")).expect("a hub");
    grognard_server::http::router(hub)
}

/// How long a test waits for what must happen before it says it did not.
const PATIENCE: Duration = Duration::from_secs(60);

/// A [`MemoryStore`] that can hold the reading of one game's log until released (a game
/// slow to load), counts each game's log reads, and can fail every write and log read as
/// a broken disk would.
#[derive(Debug, Default)]
struct Rigged {
    inner: MemoryStore,
    /// The game whose log read waits, and whether it has been let go.
    held: Mutex<Option<String>>,
    released: Mutex<bool>,
    /// Log reads waiting now.
    waiting: Mutex<usize>,
    changed: Condvar,
    reads: Mutex<BTreeMap<String, usize>>,
    broken: AtomicBool,
}

impl Rigged {
    fn hold(&self, game: &str) {
        *self.held.lock().unwrap() = Some(game.to_owned());
    }

    /// Blocks until a log read is waiting on the held game.
    fn wait_until_held(&self) {
        let waiting = self.waiting.lock().unwrap();
        let (waiting, timeout) = self
            .changed
            .wait_timeout_while(waiting, PATIENCE, |n| *n == 0)
            .unwrap();
        assert!(
            !timeout.timed_out() && *waiting > 0,
            "the held game was never loaded"
        );
    }

    fn release(&self) {
        *self.released.lock().unwrap() = true;
        self.changed.notify_all();
    }

    fn reads(&self, game: &str) -> usize {
        self.reads.lock().unwrap().get(game).copied().unwrap_or(0)
    }

    fn broken(&self) -> Result<(), StoreError> {
        if self.broken.load(Ordering::SeqCst) {
            Err(StoreError::Failed("disk I/O error".into()))
        } else {
            Ok(())
        }
    }
}

impl Store for Rigged {
    fn create(&self, game: &GameRecord, status: &Status) -> Result<(), StoreError> {
        self.broken()?;
        self.inner.create(game, status)
    }
    fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.inner.game(id)
    }
    fn game_exists(&self, id: &str) -> Result<bool, StoreError> {
        self.inner.game_exists(id)
    }
    fn list(&self) -> Result<Vec<GameSummary>, StoreError> {
        self.inner.list()
    }
    fn append(&self, id: &str, at: u64, entry: &Entry, status: &Status) -> Result<u64, StoreError> {
        self.broken()?;
        self.inner.append(id, at, entry, status)
    }
    fn log(&self, id: &str) -> Result<Vec<LogRow>, StoreError> {
        *self.reads.lock().unwrap().entry(id.to_owned()).or_default() += 1;
        if self.held.lock().unwrap().as_deref() == Some(id) {
            *self.waiting.lock().unwrap() += 1;
            self.changed.notify_all();
            let released = self.released.lock().unwrap();
            let (released, _) = self
                .changed
                .wait_timeout_while(released, PATIENCE, |r| !*r)
                .unwrap();
            assert!(*released, "the held game was never let go");
        }
        self.broken()?;
        self.inner.log(id)
    }
    fn say(&self, id: &str, seat: &str, at: u64, text: &str) -> Result<ChatLine, StoreError> {
        self.broken()?;
        self.inner.say(id, seat, at, text)
    }
    fn chat(&self, id: &str, after: u64) -> Result<Vec<ChatLine>, StoreError> {
        self.inner.chat(id, after)
    }
    fn set_webhook(&self, id: &str, seat: &str, url: Option<&str>) -> Result<(), StoreError> {
        self.broken()?;
        self.inner.set_webhook(id, seat, url)
    }
    fn total_bytes(&self) -> Result<u64, StoreError> {
        self.inner.total_bytes()
    }
}

/// Creates a drill-square game through the router: its id and its tokens by seat.
async fn create(app: &axum::Router) -> (String, Value) {
    let request = serde_json::to_value(common::example("examples/drill-square.yaml")).unwrap();
    let (status, created) = call(app, "POST", "/games", Some("host"), Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    (
        created["game"].as_str().unwrap().to_owned(),
        created["tokens"].clone(),
    )
}

async fn call(
    app: &axum::Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        request = request.header("authorization", format!("Bearer {t}"));
    }
    let request = match body {
        Some(b) => request
            .header("content-type", "application/json")
            .body(Body::from(b.to_string())),
        None => request.body(Body::empty()),
    }
    .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 64 << 20)
        .await
        .expect("a body");
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, value)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_answers_in_process_over_a_store_in_memory() {
    let app = app();
    assert_eq!(
        call(&app, "GET", "/health", None, None).await.0,
        StatusCode::OK
    );
    let request = serde_json::to_value(common::example("examples/drill-square.yaml")).unwrap();
    let (status, _) = call(&app, "POST", "/games", None, Some(request.clone())).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the host token is needed");
    let (status, created) = call(&app, "POST", "/games", Some("host"), Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let game = created["game"].as_str().unwrap();
    let blue = created["tokens"]["blue"].as_str().unwrap();
    let (status, listed) = call(&app, "GET", "/games", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(listed["games"][0]["game"], game);
    let (status, state) = call(
        &app,
        "GET",
        &format!("/games/{game}/view"),
        Some(blue),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["seat"], "blue");
    assert_eq!(state["status"]["seed_fixed"], false);
    let blue_acts = state["status"]["to_act"]
        .as_array()
        .is_some_and(|a| a.iter().any(|s| s == "blue"));
    let listed_orders = state["legal"].as_array().map_or(0, Vec::len);
    assert_eq!(
        blue_acts,
        listed_orders > 0,
        "legal orders exactly when blue acts: {state}"
    );
    // Another side's order is refused, and nothing is stored.
    let order = serde_json::json!({"file": "o.yaml", "text": "orders:\n  - { side: red, end_phase: true }\n"});
    let (status, answer) = call(
        &app,
        "POST",
        &format!("/games/{game}/orders"),
        Some(blue),
        Some(order),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    let (_, after) = call(
        &app,
        "GET",
        &format!("/games/{game}/view"),
        Some(blue),
        None,
    )
    .await;
    assert_eq!(after["status"]["orders"], 0);
    // Unknown games are 404 with or without a token; a chat line is stored and numbered.
    assert_eq!(
        call(&app, "GET", "/games/nope/view", None, None).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        call(&app, "GET", "/games/nope/view", Some(blue), None)
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let say = serde_json::json!({"text": "hello"});
    let (status, line) = call(
        &app,
        "POST",
        &format!("/games/{game}/chat"),
        Some(blue),
        Some(say),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{line}");
    assert_eq!(line["seq"], 1);
}

/// A game whose log is slow to read holds up the requests for it and nothing else, and two
/// requests for it while it loads open it once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_loading_holds_up_only_its_own_requests() {
    let store = Arc::new(Rigged::default());
    let app = app_over(Arc::clone(&store) as Arc<dyn Store>);
    let (slow, slow_tokens) = create(&app).await;
    let (other, other_tokens) = create(&app).await;
    store.hold(&slow);
    let view = |game: &str, token: &Value| {
        let (app, path, token) = (
            app.clone(),
            format!("/games/{game}/view"),
            token.as_str().unwrap().to_owned(),
        );
        tokio::spawn(async move { call(&app, "GET", &path, Some(&token), None).await })
    };
    let first = view(&slow, &slow_tokens["blue"]);
    let second = view(&slow, &slow_tokens["red"]);
    let held = Arc::clone(&store);
    tokio::task::spawn_blocking(move || held.wait_until_held())
        .await
        .unwrap();
    // The other game loads and answers while the slow one is still being read.
    let (status, state) = tokio::time::timeout(PATIENCE, view(&other, &other_tokens["blue"]))
        .await
        .expect("the other game answers while one loads")
        .unwrap();
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["seat"], "blue");
    assert!(!first.is_finished() && !second.is_finished());
    store.release();
    for (task, seat) in [(first, "blue"), (second, "red")] {
        let (status, state) = task.await.unwrap();
        assert_eq!(status, StatusCode::OK, "{state}");
        assert_eq!(state["seat"], seat);
    }
    assert_eq!(store.reads(&slow), 1, "the slow game was opened once");
    assert_eq!(store.reads(&other), 1);
}

/// The store failing is the server's trouble (503), said without a path of its disk, and
/// changes nothing: an order or a chat line not stored, a game whose log cannot be read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_store_is_answered_503_and_changes_nothing() {
    let store = Arc::new(Rigged::default());
    let app = app_over(Arc::clone(&store) as Arc<dyn Store>);
    let (game, tokens) = create(&app).await;
    let (cold, cold_tokens) = create(&app).await;
    let blue = tokens["blue"].as_str().unwrap();
    let (status, _) = call(
        &app,
        "GET",
        &format!("/games/{game}/view"),
        Some(blue),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    store.broken.store(true, Ordering::SeqCst);
    let order = json!({"file": "o.yaml", "text": "orders:\n  - { side: blue, end_phase: true }\n"});
    let (status, answer) = call(
        &app,
        "POST",
        &format!("/games/{game}/orders"),
        Some(blue),
        Some(order),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer}");
    assert_eq!(
        answer["error"],
        "the server's game store failed: disk I/O error; the order was not stored and the game is as it was"
    );
    let say = json!({"text": "hello"});
    let (status, answer) = call(
        &app,
        "POST",
        &format!("/games/{game}/chat"),
        Some(blue),
        Some(say),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer}");
    assert_eq!(
        answer["error"],
        "the server's game store failed: disk I/O error"
    );
    let cold_blue = cold_tokens["blue"].as_str().unwrap();
    let (status, answer) = call(
        &app,
        "GET",
        &format!("/games/{cold}/view"),
        Some(cold_blue),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer}");
    assert_eq!(
        answer["error"],
        "the server's game store failed: disk I/O error"
    );
    store.broken.store(false, Ordering::SeqCst);
    let (status, state) = call(
        &app,
        "GET",
        &format!("/games/{game}/view"),
        Some(blue),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["status"]["orders"], 0, "nothing was stored");
    let (_, chat) = call(
        &app,
        "GET",
        &format!("/games/{game}/chat"),
        Some(blue),
        None,
    )
    .await;
    assert_eq!(chat["lines"], json!([]), "{chat}");
    let (status, _) = call(
        &app,
        "GET",
        &format!("/games/{cold}/view"),
        Some(cold_blue),
        None,
    )
    .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "the cold game loads once the store works"
    );
}

/// Seats through the router: the referee's token opens the save, a side's and a
/// spectator's do not; a spectator gives no orders and sees no board while the game runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_seat_is_what_its_token_opens() {
    let app = app();
    let (game, tokens) = create(&app).await;
    let token = |seat: &str| tokens[seat].as_str().unwrap().to_owned();
    let (status, save) = call(
        &app,
        "GET",
        &format!("/games/{game}/save"),
        Some(&token("referee")),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{save}");
    for seat in ["blue", "spectator"] {
        let (status, answer) = call(
            &app,
            "GET",
            &format!("/games/{game}/save"),
            Some(&token(seat)),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{seat}: {answer}");
        assert_eq!(
            answer["error"],
            "only the referee's token gives the whole save"
        );
    }
    let (status, state) = call(
        &app,
        "GET",
        &format!("/games/{game}/view"),
        Some(&token("spectator")),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["seat"], "spectator");
    assert_eq!(state["view"], Value::Null, "no board while the game runs");
    let (_, referee) = call(
        &app,
        "GET",
        &format!("/games/{game}/view"),
        Some(&token("referee")),
        None,
    )
    .await;
    assert_eq!(referee["seat"], "referee");
    assert!(
        referee["view"]["views"].is_array(),
        "the referee sees every side's view"
    );
    let order = json!({"file": "o.yaml", "text": "orders:\n  - { side: blue, end_phase: true }\n"});
    let (status, answer) = call(
        &app,
        "POST",
        &format!("/games/{game}/orders"),
        Some(&token("spectator")),
        Some(order),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    assert_eq!(answer["error"], "a spectator gives no orders");
    let hook = json!({"url": "http://example.com/turn"});
    let (status, answer) = call(
        &app,
        "PUT",
        &format!("/games/{game}/webhook"),
        Some(&token("referee")),
        Some(hook),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    assert_eq!(
        answer["error"],
        "the referee's seat plays no side, so no turn of its own comes: only a side's seat has a webhook"
    );
}
