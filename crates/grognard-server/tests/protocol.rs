//! The protocol as `docs/server.md` writes it: every ```` ```http ```` and ```` ```ws ````
//! example of its "HTTP API" and "WebSocket" sections is run, in order, against a real
//! server on loopback — raw HTTP/1.1 over a `TcpStream` and raw JSON over a WebSocket,
//! never through `grognard_server::client`, so what a client written from the doc alone
//! would send is what is tested. Each answer is checked against the doc's example answer:
//! the status, every header the example shows, the same keys at every level, each value's
//! JSON type, and booleans, nulls and `type`/`seat` values exactly. The WebSocket's flood
//! limit is tested at the documented burst and one message past it.
//!
//! Placeholders in the examples: `HOST_TOKEN` (the server's host token), `GAME` (the game
//! the doc's create example made) and `SEAT_TOKEN` for each seat (`FRENCH_TOKEN`,
//! `REFEREE_TOKEN`, ...). `"…"` in an answer stands for any value; in a request's `files`
//! it stands for the file's text, read from the repository. `PROTOCOL_PRINT=1` prints each
//! answer as the server gave it.

mod common;

use common::root;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use grognard_server::protocol::{WS_BURST, WS_PER_SECOND};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The doc, read at build time so that a changed doc rebuilds this test.
const DOC: &str = include_str!("../../../docs/server.md");

/// The doc's sections whose examples are run.
const SECTIONS: [&str; 2] = ["## HTTP API", "## WebSocket"];

/// How long any one answer may take.
const WAIT: Duration = Duration::from_secs(20);

/// Stands for a value the doc leaves out.
const ELIDED: &str = "…";

/// One example: an HTTP request with the answer the doc shows, or a WebSocket exchange.
#[derive(Debug)]
enum Example {
    Http { request: String, answer: String },
    Ws(String),
}

/// The fenced blocks of the doc's sections, in order: the line each starts at, its tag,
/// its text.
fn blocks(doc: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut in_section = false;
    let mut open: Option<(usize, String, String)> = None;
    for (n, line) in doc.lines().enumerate() {
        match open.take() {
            Some(block) if line.trim_end() == "```" => {
                if in_section {
                    out.push(block);
                }
            }
            Some((start, tag, mut text)) => {
                text.push_str(line);
                text.push('\n');
                open = Some((start, tag, text));
            }
            None => {
                if line.starts_with("## ") {
                    in_section = SECTIONS.contains(&line.trim_end());
                }
                if let Some(tag) = line.strip_prefix("```") {
                    open = Some((n + 1, tag.trim().to_owned(), String::new()));
                }
            }
        }
    }
    out
}

/// The doc's examples: each `http` request block followed by its `http` answer block.
fn examples(doc: &str) -> Vec<(usize, Example)> {
    let mut out = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (line, tag, text) in blocks(doc) {
        match tag.as_str() {
            "http" if text.starts_with("HTTP/1.1 ") => {
                let (at, request) = pending
                    .take()
                    .unwrap_or_else(|| panic!("server.md:{line}: an answer with no request"));
                out.push((
                    at,
                    Example::Http {
                        request,
                        answer: text,
                    },
                ));
            }
            "http" => {
                assert!(
                    pending.is_none(),
                    "server.md:{line}: a request follows a request with no answer"
                );
                pending = Some((line, text));
            }
            "ws" => out.push((line, Example::Ws(text))),
            _ => {}
        }
    }
    assert!(
        pending.is_none(),
        "server.md: the last request has no answer"
    );
    out
}

/// Replaces each placeholder that stands as a whole word (not part of a longer
/// upper-case name).
fn fill(text: &str, values: &BTreeMap<String, String>) -> String {
    let word = |c: char| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_';
    let mut out = String::new();
    let mut rest = text;
    'outer: while !rest.is_empty() {
        for (name, value) in values {
            if let Some(after) = rest.strip_prefix(name.as_str())
                && !after.starts_with(word)
                && !out.ends_with(word)
            {
                out.push_str(value);
                rest = after;
                continue 'outer;
            }
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// An HTTP message: the first line, the headers (names in lower case), the body.
struct Parsed {
    first: String,
    headers: Vec<(String, String)>,
    body: String,
}

fn parse_message(text: &str) -> Parsed {
    let text = text.replace("\r\n", "\n");
    let (head, body) = text.split_once("\n\n").unwrap_or((text.as_str(), ""));
    let mut lines = head.lines();
    let first = lines.next().unwrap_or_default().trim().to_owned();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Parsed {
        first,
        headers,
        body: body.trim_end_matches('\n').to_owned(),
    }
}

/// A request body with each `"…"` of its `files` replaced by that file's text.
fn with_files(body: &str) -> String {
    let Ok(mut value) = serde_json::from_str::<Value>(body) else {
        return body.to_owned();
    };
    if let Some(files) = value.get_mut("files").and_then(Value::as_object_mut) {
        for (path, text) in files.iter_mut() {
            if text == ELIDED {
                let read = std::fs::read_to_string(root().join(path))
                    .unwrap_or_else(|e| panic!("the doc's file {path}: {e}"));
                *text = Value::String(read);
            }
        }
        return value.to_string();
    }
    body.to_owned()
}

/// Sends `request` (an example with its placeholders filled) as raw HTTP/1.1 and returns
/// the answer's status, headers and body.
fn send_http(addr: &str, request: &str) -> (u16, Vec<(String, String)>, String) {
    let req = parse_message(request);
    let body = with_files(&req.body);
    let mut raw = format!("{} HTTP/1.1\r\nHost: {addr}\r\n", req.first);
    for (name, value) in &req.headers {
        raw.push_str(&format!("{name}: {value}\r\n"));
    }
    raw.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    raw.push_str(&body);
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(WAIT)).ok();
    stream.write_all(raw.as_bytes()).expect("send");
    let mut got = Vec::new();
    stream.read_to_end(&mut got).expect("read the answer");
    let got = String::from_utf8(got).expect("an answer in UTF-8");
    let (head, rest) = got.split_once("\r\n\r\n").expect("an HTTP answer");
    let answer = parse_message(&format!("{head}\n\n"));
    let status = answer
        .first
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {:?}", answer.first));
    let chunked = answer
        .headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        unchunk(rest)
    } else {
        rest.to_owned()
    };
    (status, answer.headers, body)
}

/// A chunked body, joined.
fn unchunk(mut rest: &str) -> String {
    let mut body = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        body.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    body
}

/// Whether `got` has the shape of the doc's `doc`: `"…"` matches anything; otherwise the
/// same JSON type; objects with the same keys; arrays with the same kinds of item (each
/// item sent has the shape of one the doc shows, and each the doc shows, of one sent; an
/// empty array in the doc, an empty array); booleans and nulls equal, and the values of
/// `type` and `seat` too.
fn conforms(doc: &Value, got: &Value, at: &str) -> Result<(), String> {
    let wrong = || Err(format!("{at}: the doc shows {doc}, the server sent {got}"));
    match (doc, got) {
        (Value::String(s), _) if s == ELIDED => Ok(()),
        (Value::Null, Value::Null) => Ok(()),
        (Value::Bool(a), Value::Bool(b)) if a == b => Ok(()),
        (Value::Number(a), Value::Number(b)) => {
            if a.is_f64() || !b.is_f64() {
                Ok(())
            } else {
                wrong()
            }
        }
        (Value::String(a), Value::String(b)) => {
            let exact = at.ends_with(".type") || at.ends_with(".seat");
            if exact && a != b { wrong() } else { Ok(()) }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.is_empty() != b.is_empty() {
                return wrong();
            }
            for (i, item) in b.iter().enumerate() {
                let here = format!("{at}[{i}]");
                let fits: Vec<Result<(), String>> =
                    a.iter().map(|d| conforms(d, item, &here)).collect();
                if !fits.iter().any(Result::is_ok) {
                    return Err(fits
                        .into_iter()
                        .find_map(Result::err)
                        .unwrap_or_else(|| format!("{here}: {item}")));
                }
            }
            for (i, shown) in a.iter().enumerate() {
                if !b.iter().any(|item| conforms(shown, item, at).is_ok()) {
                    return Err(format!(
                        "{at}: the doc's item {i}, {shown}, is like none the server sent: {got}"
                    ));
                }
            }
            Ok(())
        }
        (Value::Object(a), Value::Object(b)) => {
            let (ka, kb): (Vec<&String>, Vec<&String>) = (a.keys().collect(), b.keys().collect());
            if ka != kb {
                return Err(format!(
                    "{at}: the doc shows the keys {ka:?}, the server sent {kb:?}"
                ));
            }
            a.iter()
                .try_for_each(|(k, v)| conforms(v, &b[k], &format!("{at}.{k}")))
        }
        _ => wrong(),
    }
}

/// Checks an HTTP answer against the doc's example answer.
fn check_answer(
    line: usize,
    doc: &str,
    (status, headers, body): &(u16, Vec<(String, String)>, String),
) {
    let expected = parse_message(doc);
    let want: u16 = expected
        .first
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("server.md:{line}: no status in the answer"));
    assert_eq!(*status, want, "server.md:{line}: status; the body: {body}");
    for (name, value) in &expected.headers {
        let got = headers.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        assert!(
            got.is_some_and(|g| g.starts_with(value.as_str())),
            "server.md:{line}: header {name}: the doc shows {value}, the server sent {got:?}"
        );
    }
    if expected.body.is_empty() {
        assert!(body.is_empty(), "server.md:{line}: a body {body:?}");
        return;
    }
    match serde_json::from_str::<Value>(&expected.body) {
        Ok(doc_json) => {
            let got: Value = serde_json::from_str(body)
                .unwrap_or_else(|e| panic!("server.md:{line}: not JSON ({e}): {body}"));
            if let Err(e) = conforms(&doc_json, &got, "answer") {
                panic!("server.md:{line}: {e}");
            }
        }
        Err(_) => assert_eq!(body, &expected.body, "server.md:{line}: body"),
    }
}

/// The seat tokens of a create answer as placeholders (`FRENCH_TOKEN`, ...) and its `GAME`.
fn learn(values: &mut BTreeMap<String, String>, created: &Value) {
    if let Some(game) = created["game"].as_str() {
        values.insert("GAME".into(), game.to_owned());
    }
    if let Some(tokens) = created["tokens"].as_object() {
        for (seat, token) in tokens {
            values.insert(
                format!("{}_TOKEN", seat.to_ascii_uppercase()),
                token.as_str().unwrap_or_default().to_owned(),
            );
        }
    }
}

async fn next_text(socket: &mut Socket) -> Option<String> {
    loop {
        match tokio::time::timeout(WAIT, socket.next())
            .await
            .ok()??
            .ok()?
        {
            Message::Text(t) => return Some(t.to_string()),
            Message::Close(_) => return None,
            _ => {}
        }
    }
}

/// Runs one `ws` example: `GET PATH` opens a connection; `→ JSON` is sent, `← JSON` is the
/// next message expected (a message may run over several lines).
async fn run_ws(
    line: usize,
    text: &str,
    addr: &str,
    values: &BTreeMap<String, String>,
    socket: &mut Option<Socket>,
) {
    let mut steps: Vec<(char, String)> = Vec::new();
    for l in text.lines() {
        if let Some(path) = l.strip_prefix("GET ") {
            let url = format!("ws://{addr}{}", fill(path.trim(), values));
            *socket = Some(
                tokio_tungstenite::connect_async(url)
                    .await
                    .unwrap_or_else(|e| panic!("server.md:{line}: connect: {e}"))
                    .0,
            );
        } else if let Some(m) = l.strip_prefix("→ ") {
            steps.push(('→', m.to_owned()));
        } else if let Some(m) = l.strip_prefix("← ") {
            steps.push(('←', m.to_owned()));
        } else if let Some((_, m)) = steps.last_mut() {
            m.push('\n');
            m.push_str(l);
        }
    }
    let socket = socket
        .as_mut()
        .unwrap_or_else(|| panic!("server.md:{line}: no connection (GET /games/GAME/live)"));
    for (arrow, message) in steps {
        let message = fill(&message, values);
        let doc: Value = serde_json::from_str(&message)
            .unwrap_or_else(|e| panic!("server.md:{line}: not JSON ({e}): {message}"));
        if arrow == '→' {
            socket
                .send(Message::text(doc.to_string()))
                .await
                .unwrap_or_else(|e| panic!("server.md:{line}: send: {e}"));
            continue;
        }
        let got = next_text(socket)
            .await
            .unwrap_or_else(|| panic!("server.md:{line}: closed; the doc shows {doc}"));
        if std::env::var_os("PROTOCOL_PRINT").is_some() {
            eprintln!("server.md:{line}: ← {got}");
        }
        let got: Value = serde_json::from_str(&got).expect("JSON from the server");
        if let Err(e) = conforms(&doc, &got, "message") {
            panic!("server.md:{line}: {e}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_example_of_the_doc_is_what_the_server_does() {
    let examples = examples(DOC);
    assert!(
        examples.len() >= 10,
        "the doc's sections have {} examples",
        examples.len()
    );
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let addr = server.addr.to_string();
    let mut values = BTreeMap::from([("HOST_TOKEN".to_owned(), server.host_token.clone())]);
    let mut socket = None;
    for (line, example) in examples {
        match example {
            Example::Http { request, answer } => {
                let request = fill(&request, &values);
                let got = {
                    let addr = addr.clone();
                    tokio::task::spawn_blocking(move || send_http(&addr, &request))
                        .await
                        .unwrap()
                };
                if std::env::var_os("PROTOCOL_PRINT").is_some() {
                    eprintln!("server.md:{line}: {} {}", got.0, got.2);
                }
                check_answer(line, &answer, &got);
                if got.0 == 201 {
                    learn(&mut values, &serde_json::from_str(&got.2).unwrap());
                }
            }
            Example::Ws(text) => run_ws(line, &text, &addr, &values, &mut socket).await,
        }
    }
}

/// The checker itself: what it lets through and what it does not, so that a passing run
/// means the doc and the server agree.
#[test]
fn the_checker_tells_a_different_shape() {
    let doc = json!({"seat": "french", "n": 1, "over": false, "result": null,
                     "legal": [{"side": "…", "end_phase": true}, {"side": "…", "move": "…"}],
                     "view": "…"});
    let good = json!({"seat": "french", "n": 7, "over": false, "result": null,
                      "legal": [{"side": "french", "move": {"piece": "a", "path": []}},
                                {"side": "french", "end_phase": true}],
                      "view": {"anything": [1, 2]}});
    assert_eq!(conforms(&doc, &good, "answer"), Ok(()));
    let mut changes = vec![
        ("seat", json!("austrians")),
        ("n", json!("7")),
        ("n", json!(1.5)),
        ("over", json!(true)),
        ("result", json!({"winner": "french"})),
        ("legal", json!([])),
        ("legal", json!([{"side": "french", "end_phase": true}])),
        (
            "legal",
            json!([{"side": "french", "end_phase": true}, {"side": "french", "face": {}}]),
        ),
    ];
    for (key, value) in changes.drain(..) {
        let mut bad = good.clone();
        bad[key] = value.clone();
        assert!(conforms(&doc, &bad, "answer").is_err(), "{key}: {value}");
    }
    let mut extra = good.clone();
    extra["more"] = json!(1);
    assert!(
        conforms(&doc, &extra, "answer").is_err(),
        "a key the doc does not show"
    );
    assert_eq!(
        fill(
            "Bearer FRENCH_TOKEN for GAME, not GAMES",
            &BTreeMap::from([
                ("GAME".to_owned(), "g1".to_owned()),
                ("FRENCH_TOKEN".to_owned(), "t1".to_owned()),
            ])
        ),
        "Bearer t1 for g1, not GAMES"
    );
}

/// The doc's recipe for `scenario_hash` is what a client's loader sends: the scenario's
/// bytes, then each order of battle's, in the order the deployment names them.
#[test]
fn the_scenario_hash_is_made_as_the_doc_says() {
    use sha2::{Digest, Sha256};
    let examples = root().join("examples");
    let scenario = examples.join("square-blocks-setup.yaml");
    let mut bytes = std::fs::read(&scenario).unwrap();
    for side in ["french", "austrians"] {
        let oob = examples.join(format!("setup/square-blocks-setup.{side}.yaml"));
        bytes.extend(std::fs::read(oob).unwrap());
    }
    let hex: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let request =
        grognard_server::bundle::gather(&scenario, BTreeMap::new(), None, BTreeMap::new()).unwrap();
    assert_eq!(request.scenario_hash, Some(hex));
}

/// The doc's limit is the server's.
#[test]
fn the_doc_states_the_flood_limit_the_server_enforces() {
    let limit = format!("{WS_BURST} at once, then {WS_PER_SECOND} a second");
    assert!(DOC.contains(&limit), "docs/server.md says {limit:?}");
}

/// A game and one side's live connection, past its welcome and first state (with the
/// server and its folder, which must outlive it).
async fn seated() -> (tempfile::TempDir, grognard_server::Running, Socket) {
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let request = common::example("examples/drill-square.yaml");
    let addr = server.addr.to_string();
    let raw = format!(
        "POST /games\nAuthorization: Bearer {}\nContent-Type: application/json\n\n{}",
        server.host_token,
        serde_json::to_string(&request).unwrap()
    );
    let (status, _, body) = tokio::task::spawn_blocking(move || send_http(&addr, &raw))
        .await
        .unwrap();
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let url = format!(
        "ws://{}/games/{}/live",
        server.addr,
        created["game"].as_str().unwrap()
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let hello = json!({"type": "hello", "token": created["tokens"]["blue"]});
    socket.send(Message::text(hello.to_string())).await.unwrap();
    for want in ["welcome", "state"] {
        let got: Value = serde_json::from_str(&next_text(&mut socket).await.unwrap()).unwrap();
        assert_eq!(got["type"], want);
    }
    (dir, server, socket)
}

/// Sends `n` chat lines at once; returns how many came back before the connection ended,
/// and the error it ended with, if any.
async fn burst(socket: &mut Socket, n: usize) -> (usize, Option<String>) {
    for i in 0..n {
        let line = json!({"type": "chat", "text": format!("line {i}")});
        if socket.send(Message::text(line.to_string())).await.is_err() {
            break;
        }
    }
    let (mut echoed, mut error) = (0, None);
    while echoed < n {
        let Some(text) = next_text(socket).await else {
            return (echoed, error);
        };
        let got: Value = serde_json::from_str(&text).unwrap();
        match got["type"].as_str() {
            Some("chat") => echoed += 1,
            Some("error") => error = got["message"].as_str().map(str::to_owned),
            _ => {}
        }
    }
    (echoed, error)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_documented_burst_is_served_whole() {
    let (_dir, _server, mut socket) = seated().await;
    let n = WS_BURST as usize;
    let (echoed, error) = burst(&mut socket, n).await;
    assert_eq!(
        (echoed, error),
        (n, None),
        "every line of the burst comes back"
    );
    // And the connection is still open: one more message a moment later is answered.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(burst(&mut socket, 1).await, (1, None));
}

#[tokio::test(flavor = "multi_thread")]
async fn past_the_burst_the_connection_is_closed_after_the_accepted_lines() {
    let (_dir, _server, mut socket) = seated().await;
    // One second's worth past the burst, so that the refill while the server works
    // through them cannot cover it on a slow machine.
    let n = (WS_BURST + WS_PER_SECOND) as usize;
    let (echoed, error) = burst(&mut socket, n).await;
    let error = error.expect("the flood is named before the close");
    assert!(error.contains("too many messages"), "{error}");
    assert!(
        (WS_BURST as usize..n).contains(&echoed),
        "each line the server took comes back before the close, and it took at least the \
         burst: {echoed} of {n}"
    );
    assert!(next_text(&mut socket).await.is_none(), "then it is closed");
}
