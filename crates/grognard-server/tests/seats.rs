//! Seats the server serves itself: a side played by a policy on the server, and the
//! webhook called when it becomes a side's turn (loopback only, waits bounded).

mod common;

use common::root;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::Duration;

use grognard_server::bundle;
use grognard_server::client::{Client, ClientError};

#[test]
fn one_person_plays_remotely_against_a_policy_on_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let client = Client::new(&server.url()).unwrap();
    let policies = BTreeMap::from([("red".to_owned(), "random".to_owned())]);
    let request = bundle::gather(
        &root().join("examples/drill-square.yaml"),
        BTreeMap::new(),
        None,
        policies,
    )
    .unwrap();
    let created = client.create(&request, Some(&server.host_token)).unwrap();
    let blue = &created.tokens["blue"];
    // Blue ends every phase it is asked to act in; red is played by the server.
    for _ in 0..200 {
        let state = client.view(&created.game, blue).unwrap();
        if state.status.over {
            assert!(
                state.status.result.is_some(),
                "a game that ends has a result"
            );
            let listed = client.games().unwrap();
            assert_eq!(listed.games[0].policies["red"], "random");
            return;
        }
        assert_eq!(
            state.status.to_act,
            ["blue"],
            "the server plays red's turns at once"
        );
        let reply = client
            .orders(
                &created.game,
                blue,
                "end.yaml",
                "orders:\n  - { side: blue, end_phase: true }\n",
            )
            .unwrap();
        assert_eq!(reply.refused, None);
    }
    panic!("the game did not end");
}

#[test]
fn a_webhook_is_called_when_it_becomes_the_seats_turn() {
    let dir = tempfile::tempdir().unwrap();
    // The hook listens on loopback, so the server allows local webhooks (a club's LAN).
    let host_token = "host-token-of-this-test".to_owned();
    let mut config = grognard_server::config::Config::new(
        "127.0.0.1:0",
        dir.path().join("g.sqlite"),
        &host_token,
    );
    config.allow_local_webhooks = true;
    let server = grognard_server::spawn_with(config, host_token).unwrap();
    let client = Client::new(&server.url()).unwrap();
    let request = common::example("examples/drill-square.yaml");
    let created = client.create(&request, Some(&server.host_token)).unwrap();
    let state = client.view(&created.game, &created.tokens["blue"]).unwrap();
    let (first, second) = (
        state.status.to_act[0].clone(),
        if state.status.to_act[0] == "blue" {
            "red"
        } else {
            "blue"
        },
    );
    let hook = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/turn", hook.local_addr().unwrap());
    // A URL the server will not call is a bad request (400), and says why.
    match client.webhook(
        &created.game,
        &created.tokens[second],
        Some("https://x.invalid"),
    ) {
        Err(ClientError::Refused {
            status, message, ..
        }) => {
            assert_eq!(status, 400, "{message}");
            assert!(message.contains("http://"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    client
        .webhook(&created.game, &created.tokens[second], Some(&url))
        .unwrap();
    // The first side ends its phases until it is the second's turn.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        if let Ok((mut s, _)) = hook.accept() {
            s.set_read_timeout(Some(Duration::from_secs(10))).ok();
            let mut buf = vec![0u8; 8192];
            let mut got = Vec::new();
            while let Ok(n) = s.read(&mut buf) {
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&got);
                if let Some((_, body)) = text.split_once("\r\n\r\n")
                    && body.ends_with('}')
                {
                    break;
                }
            }
            let _ = s.write_all(b"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n");
            let _ = tx.send(String::from_utf8_lossy(&got).into_owned());
        }
    });
    for _ in 0..20 {
        let state = client.view(&created.game, &created.tokens[&first]).unwrap();
        if !state.status.to_act.contains(&first) {
            break;
        }
        let text = format!("orders:\n  - {{ side: {first}, end_phase: true }}\n");
        client
            .orders(&created.game, &created.tokens[&first], "end.yaml", &text)
            .unwrap();
    }
    let request = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the webhook was called");
    assert!(request.starts_with("POST /turn"), "{request}");
    let body: serde_json::Value =
        serde_json::from_str(request.split_once("\r\n\r\n").unwrap().1).unwrap();
    assert_eq!(body["seat"], second, "{request}");
    assert_eq!(body["game"], created.game.as_str());
    assert_eq!(body["to_act"], serde_json::json!([second]));
}

/// Issue 40 (the search player's report, B2): the page never said a seat was the
/// server's, nor why it chose. The table names the sides the server plays, to every seat;
/// a searching side's account of its last decision goes to its own seat and the referee
/// only — the other side and a spectator never get it (it tells what red knows).
#[test]
fn the_table_names_the_servers_players_and_only_the_searcher_and_referee_read_its_thinking() {
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let client = Client::new(&server.url()).unwrap();
    let policies = BTreeMap::from([("red".to_owned(), "search:it=4".to_owned())]);
    let request = bundle::gather(
        &root().join("examples/drill-square.yaml"),
        BTreeMap::new(),
        Some(7),
        policies,
    )
    .unwrap();
    let created = client.create(&request, Some(&server.host_token)).unwrap();
    let (game, tokens) = (&created.game, &created.tokens);
    for seat in ["blue", "red", "referee", "spectator"] {
        let table = client.table(game, &tokens[seat]).unwrap();
        assert_eq!(
            table.policies,
            BTreeMap::from([("red".to_owned(), "search:it=4".to_owned())]),
            "{seat}"
        );
    }
    // Blue ends its phases until red has searched a decision with a choice in it.
    let mut red = client.view(game, &tokens["red"]).unwrap();
    for _ in 0..40 {
        if !red.thinking.is_empty() || red.status.over {
            break;
        }
        client
            .orders(
                game,
                &tokens["blue"],
                "end.yaml",
                "orders:\n  - { side: blue, end_phase: true }\n",
            )
            .unwrap();
        red = client.view(game, &tokens["red"]).unwrap();
    }
    assert_eq!(red.thinking.len(), 1, "red searched: {:?}", red.status);
    let t = &red.thinking[0];
    assert_eq!(t.side, "red");
    assert!(t.text.starts_with("search: 4 iterations"), "{}", t.text);
    let considered = t.search["considered"].as_array().unwrap();
    assert!(!considered.is_empty(), "{}", t.search);
    assert_eq!(considered[0]["order"]["side"], "red", "{}", t.search);
    assert!(considered[0]["visits"].as_u64().unwrap() >= 1);
    let referee = client.view(game, &tokens["referee"]).unwrap();
    assert_eq!(referee.thinking, red.thinking);
    for seat in ["blue", "spectator"] {
        let state = client.view(game, &tokens[seat]).unwrap();
        assert!(state.thinking.is_empty(), "{seat} reads red's thinking");
        let raw = serde_json::to_string(&state).unwrap();
        assert!(
            !raw.contains("thinking") && !raw.contains("visits"),
            "{raw}"
        );
    }
}
