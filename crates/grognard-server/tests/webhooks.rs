//! Webhooks cannot be turned against the host: local addresses in every spelling are
//! refused when set and again when called (after resolving), redirects are not followed,
//! and only a side's seat may have one. Loopback only; every wait is bounded.

mod common;

use std::collections::BTreeMap;
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use grognard_server::client::Client;
use grognard_server::config::{Access, Config};
use grognard_server::store::{SqliteStore, Store};
use grognard_server::webhook;
use serde_json::json;

/// A server on loopback over `db` that anyone may create games on (the host token is not
/// what these tests are about); `allow_local`: `--allow-local-webhooks`.
fn server(db: &Path, allow_local: bool) -> grognard_server::Running {
    let mut config = Config::new("127.0.0.1:0", db, "not used");
    config.access = Access::Open;
    config.allow_local_webhooks = allow_local;
    grognard_server::spawn_with(config, String::new()).unwrap()
}

/// Whether anything connects to `listener` within `wait`.
fn connected_within(listener: &TcpListener, wait: Duration) -> bool {
    listener.set_nonblocking(true).unwrap();
    let end = Instant::now() + wait;
    while Instant::now() < end {
        match listener.accept() {
            Ok(_) => return true,
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("accept: {e}"),
        }
    }
    false
}

/// Serves one request on `listener` with `answer`, and sends what it read.
fn answer_once(listener: TcpListener, answer: &'static str) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        if let Ok((mut s, _)) = listener.accept() {
            s.set_read_timeout(Some(Duration::from_secs(5))).ok();
            let mut got = Vec::new();
            let mut buf = [0u8; 4096];
            while let Ok(n) = s.read(&mut buf) {
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&got);
                if text
                    .split_once("\r\n\r\n")
                    .is_some_and(|(_, body)| body.ends_with('}'))
                {
                    break;
                }
            }
            let _ = s.write_all(answer.as_bytes());
            let _ = tx.send(String::from_utf8_lossy(&got).into_owned());
        }
    });
    rx
}

#[test]
fn a_redirect_is_not_followed() {
    let elsewhere = TcpListener::bind("127.0.0.1:0").unwrap();
    let first = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/turn", first.local_addr().unwrap());
    let answer: &'static str = Box::leak(
        format!(
            "HTTP/1.1 302 Found\r\nLocation: http://{}/stolen\r\nContent-Length: 0\r\n\r\n",
            elsewhere.local_addr().unwrap()
        )
        .into_boxed_str(),
    );
    let seen = answer_once(first, answer);
    // Local calls allowed, so the first call is made.
    let e = webhook::call(&url, &json!({"seat": "blue"}), true).unwrap_err();
    assert_eq!(e, webhook::WebhookError::Redirect(302));
    let e = e.to_string();
    assert!(e.contains("302") && e.contains("not followed"), "{e}");
    let request = seen.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(request.starts_with("POST /turn HTTP/1.1\r\n"), "{request}");
    assert!(request.contains("\r\nContent-Type: application/json\r\n"));
    assert!(request.ends_with(r#"{"seat":"blue"}"#), "{request}");
    assert!(
        !connected_within(&elsewhere, Duration::from_millis(500)),
        "the redirect was followed"
    );
}

#[test]
fn a_successful_call_reports_its_status() {
    let hook = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = hook.local_addr().unwrap().port();
    let seen = answer_once(hook, "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n");
    // A name, resolved, then called at the checked address.
    let url = format!("http://localhost:{port}/t?k=1");
    assert_eq!(webhook::call(&url, &json!({}), true), Ok(204));
    let request = seen.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(request.starts_with("POST /t?k=1 HTTP/1.1\r\n"), "{request}");
    assert!(request.contains(&format!("\r\nHost: localhost:{port}\r\n")));
}

#[test]
fn a_hook_that_never_answers_is_given_up_after_the_timeout() {
    // Connections are queued by the system, but nothing is ever read or answered.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", silent.local_addr().unwrap());
    let started = Instant::now();
    let e = webhook::call(&url, &json!({}), true).unwrap_err();
    assert_eq!(e, webhook::WebhookError::Timeout);
    let e = e.to_string();
    let took = started.elapsed();
    assert!(e.contains("no answer within 5 s"), "{e}");
    assert!(
        took >= webhook::TIMEOUT - Duration::from_millis(100)
            && took < webhook::TIMEOUT + Duration::from_secs(2),
        "{took:?}"
    );
}

#[test]
fn loopback_is_refused_at_call_time_in_every_spelling() {
    let hook = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = hook.local_addr().unwrap().port();
    for host in [
        "localhost",
        "127.0.0.1",
        "127.1",
        "0x7f000001",
        "2130706433",
        "0.0.0.0",
        "[::ffff:127.0.0.1]",
    ] {
        let url = format!("http://{host}:{port}/");
        let started = Instant::now();
        let e = webhook::call(&url, &json!({}), false).unwrap_err();
        assert!(
            matches!(e, webhook::WebhookError::LocalAddress { .. }),
            "{url}: {e:?}"
        );
        let e = e.to_string();
        assert!(e.contains("may not call"), "{url}: {e}");
        assert!(started.elapsed() < webhook::TIMEOUT);
    }
    assert!(
        !connected_within(&hook, Duration::from_millis(300)),
        "a refused webhook connected"
    );
    // IPv6 loopback, where the machine has it.
    if let Ok(hook6) = TcpListener::bind("[::1]:0") {
        let url = format!("http://[::1]:{}/", hook6.local_addr().unwrap().port());
        assert!(webhook::call(&url, &json!({}), false).is_err());
        assert!(!connected_within(&hook6, Duration::from_millis(300)));
    }
    // The same call, allowed, does connect: the listener above would have seen it.
    let url = format!("http://0x7f000001:{port}/");
    let caller = std::thread::spawn(move || webhook::call(&url, &json!({}), true));
    assert!(connected_within(&hook, Duration::from_secs(5)));
    drop(hook);
    let _ = caller.join();
}

/// A game of the drill, its tokens, and the side that acts first and the other.
fn new_game(client: &Client) -> (String, BTreeMap<String, String>, String, String) {
    let request = common::example("examples/drill-square.yaml");
    let created = client.create(&request, None).unwrap();
    let state = client.view(&created.game, &created.tokens["blue"]).unwrap();
    let first = state.status.to_act[0].clone();
    let second = if first == "blue" { "red" } else { "blue" };
    (created.game, created.tokens, first, second.to_owned())
}

/// `PUT /games/{game}/webhook` by hand: the status code and the body.
fn put_webhook(addr: SocketAddr, game: &str, token: &str, url: &str) -> (u16, String) {
    let body = json!({ "url": url }).to_string();
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "PUT /games/{game}/webhook HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    let code = answer
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (code, body)
}

#[test]
fn only_a_sides_seat_sets_a_webhook_and_local_literals_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("g.sqlite"), false);
    let client = Client::new(&server.url()).unwrap();
    let (game, tokens, _, second) = new_game(&client);
    for seat in ["spectator", "referee"] {
        let (code, body) = put_webhook(
            server.addr,
            &game,
            &tokens[seat],
            "http://hooks.example.org/turn",
        );
        assert_eq!(code, 403, "{seat}: {body}");
        assert!(body.contains("only a side's seat"), "{seat}: {body}");
    }
    for url in [
        "http://127.1:22/",
        "http://0x7f000001/",
        "http://2130706433/",
        "http://0.0.0.0:7878/",
        "http://[::1]/",
        "http://10.0.0.1/",
        "http://169.254.169.254/latest",
        "http://user:pass@hooks.example.org/",
    ] {
        let (code, body) = put_webhook(server.addr, &game, &tokens[&second], url);
        assert_eq!(code, 400, "{url}: {body}");
    }
    let (code, body) = put_webhook(
        server.addr,
        &game,
        &tokens[&second],
        "http://hooks.example.org/turn",
    );
    assert_eq!(code, 204, "{body}");
}

#[test]
fn a_stored_webhook_to_loopback_is_not_called() {
    // A name that resolves to loopback passes the check when set only if the text gives
    // nothing away; here the URL is put in the store directly (as an older server, or a
    // name whose answer changed since, would leave it), so only the call-time check stands.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite");
    let hook = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "http://localhost:{}/turn",
        hook.local_addr().unwrap().port()
    );
    let (game, tokens, first, second) = {
        let server = server(&db, false);
        new_game(&Client::new(&server.url()).unwrap())
    };
    SqliteStore::open(&db)
        .unwrap()
        .set_webhook(&game, &second, Some(&url))
        .unwrap();
    let server = server(&db, false);
    let client = Client::new(&server.url()).unwrap();
    let mut reached = false;
    for _ in 0..20 {
        let state = client.view(&game, &tokens[&first]).unwrap();
        if state.status.to_act.contains(&second) {
            reached = true;
            break;
        }
        let text = format!("orders:\n  - {{ side: {first}, end_phase: true }}\n");
        client
            .orders(&game, &tokens[&first], "end.yaml", &text)
            .unwrap();
    }
    assert!(reached, "it never became {second}'s turn");
    assert!(
        !connected_within(&hook, Duration::from_secs(2)),
        "the webhook connected to loopback"
    );
}
