//! The router driven in process (tower's `oneshot`, no socket) over an in-memory store:
//! the API's answers without the network, beside the loopback tests.

mod common;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use grognard_server::config::Config;
use grognard_server::hub::Hub;
use grognard_server::memory::MemoryStore;
use serde_json::Value;
use tower::ServiceExt;

fn app() -> axum::Router {
    let hub = Hub::new(
        Arc::new(MemoryStore::new()),
        Config::new("127.0.0.1:0", "unused.sqlite", "host"),
    )
    .expect("a hub");
    grognard_server::http::router(hub)
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
