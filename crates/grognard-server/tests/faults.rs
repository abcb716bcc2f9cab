//! Games the server must stop rather than run without end: a ruleset hook that cannot
//! answer (its instruction budget used up on every call) and the server's own players out
//! of CPU time. Each is paused with its reason in the status; orders are refused (409)
//! with that reason; views still answer.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use grognard_server::bundle;
use grognard_server::client::Client;
use grognard_server::config::Config;
use grognard_server::protocol::HOOK_FAULTS_TO_PAUSE;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/stuck")
        .join(name)
}

/// A server with `config` adjusted by `set`, its client and its host token.
fn server(dir: &Path, set: impl FnOnce(&mut Config)) -> (grognard_server::Running, Client, String) {
    let token = "host-token-of-the-faults-tests".to_owned();
    let mut config = Config::new("127.0.0.1:0", dir.join("g.sqlite"), &token);
    set(&mut config);
    let running = grognard_server::spawn_with(config, token.clone()).unwrap();
    let client = Client::new(&running.url()).unwrap();
    (running, client, token)
}

/// POSTs raw JSON with a seat's token: the HTTP status and the body.
fn post(url: &str, token: &str, body: &serde_json::Value) -> (u16, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut response = agent
        .post(url)
        .header("Authorization", format!("Bearer {token}"))
        .send_json(body)
        .unwrap();
    let status = response.status().as_u16();
    (status, response.body_mut().read_to_string().unwrap())
}

#[test]
fn a_hook_that_always_runs_out_of_budget_is_named_and_then_pauses_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let (running, client, host) = server(dir.path(), |_| {});
    let request = bundle::gather(
        &fixture("scenario.yaml"),
        BTreeMap::new(),
        None,
        BTreeMap::new(),
    )
    .unwrap();
    let created = client.create(&request, Some(&host)).unwrap();
    let (game, blue) = (&created.game, &created.tokens["blue"]);

    // Each view of blue's seat meets the broken check and says so, naming the hook, the
    // script's line and the budget (before: a list without `dig_in` and no word why).
    for n in 1..=HOOK_FAULTS_TO_PAUSE {
        let state = client.view(game, blue).unwrap();
        let error = state.hook_error.clone().unwrap_or_else(|| {
            panic!(
                "view {n} gives no hook error; legal: {:?}",
                state.legal.len()
            )
        });
        for part in [
            "action check stuck.may_dig_in",
            "stuck.lua:5",
            "budget of 2000000 instructions",
        ] {
            assert!(error.contains(part), "{part}: {error}");
        }
        // The script is named as the bundle names it: no path of the server's disk.
        assert!(!error.contains('/'), "{error}");
        assert!(state.legal.is_empty(), "{:?}", state.legal);
        assert!(
            state.view.get("view").is_some(),
            "the view itself still answers"
        );
        let paused = state.status.paused.clone();
        if n < HOOK_FAULTS_TO_PAUSE {
            assert_eq!(paused, None, "paused after {n} faults");
        } else {
            let reason = paused.expect("paused once the faults keep coming");
            assert!(reason.contains("action check stuck.may_dig_in"), "{reason}");
            assert!(reason.contains("instruction budget exhausted"), "{reason}");
        }
    }
    let reason = client.view(game, blue).unwrap().status.paused.unwrap();

    // Paused: views answer at once, with no hook run again; orders are refused with 409
    // and the reason, over HTTP and in an orders file.
    let started = Instant::now();
    let again = client.view(game, blue).unwrap();
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(again.status.paused.as_deref(), Some(reason.as_str()));
    assert_eq!(again.hook_error, None);
    let (code, body) = post(
        &format!("{}/games/{game}/orders", running.url()),
        blue,
        &serde_json::json!({
            "file": "o.yaml",
            "text": "orders:\n  - { side: blue, end_phase: true }\n",
        }),
    );
    assert_eq!(code, 409, "{body}");
    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["error"], reason.as_str());

    // The referee sees the status and the whole failure; red sees the status too, and no
    // piece of blue's is named in it.
    let referee = client.view(game, &created.tokens["referee"]).unwrap();
    assert_eq!(referee.status.paused.as_deref(), Some(reason.as_str()));
    assert!(
        referee
            .hook_error
            .as_deref()
            .is_some_and(|e| e.contains("stuck.lua:5")),
        "{:?}",
        referee.hook_error
    );
    let red = client.view(game, &created.tokens["red"]).unwrap();
    assert_eq!(red.status.paused.as_deref(), Some(reason.as_str()));
    for piece in ["b1", "b2", "b3", "b4"] {
        assert!(!reason.contains(piece), "{reason}");
    }
}

#[test]
fn the_servers_players_stop_at_their_cpu_budget_and_the_game_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let (_running, client, host) = server(dir.path(), |c| {
        c.limits.policy_cpu_per_game = Duration::from_millis(50);
    });
    let policies = BTreeMap::from([
        ("blue".to_owned(), "random".to_owned()),
        ("red".to_owned(), "random".to_owned()),
    ]);
    // 5,000 turns played by the server on both sides: without a budget, minutes of CPU.
    let request = bundle::gather(&fixture("long.yaml"), BTreeMap::new(), None, policies).unwrap();
    let started = Instant::now();
    let created = client.create(&request, Some(&host)).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the create took {:?}",
        started.elapsed()
    );
    let referee = &created.tokens["referee"];
    let state = client.view(&created.game, referee).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the players ran {:?}",
        started.elapsed()
    );
    let reason = state
        .status
        .paused
        .clone()
        .unwrap_or_else(|| panic!("not paused: {:?}", state.status));
    assert!(reason.contains("0.05 s of CPU"), "{reason}");
    assert!(reason.contains("policy_cpu_per_game"), "{reason}");
    assert!(!state.status.over);
    assert!(
        state.status.orders > 0,
        "the players played until the budget was spent"
    );
    // Stopped for good: the order count stays, and an order is refused with the reason.
    let later = client.view(&created.game, referee).unwrap();
    assert_eq!(later.status.orders, state.status.orders);
    let refused = client
        .orders(
            &created.game,
            &created.tokens["blue"],
            "o.yaml",
            "orders:\n  - { side: blue, end_phase: true }\n",
        )
        .unwrap_err();
    // Refused as a conflict with the game as it stands, in the server's own words, and
    // said to be a pause in the word a program matches on.
    assert_eq!(
        refused,
        grognard_server::client::ClientError::Refused {
            status: 409,
            kind: Some("paused".into()),
            message: reason
        }
    );
}

#[test]
fn the_servers_hourly_budget_pauses_every_game_it_runs_out_in() {
    let dir = tempfile::tempdir().unwrap();
    let (_running, client, host) = server(dir.path(), |c| {
        c.limits.policy_cpu_per_hour = Duration::from_millis(50);
    });
    let policies = BTreeMap::from([
        ("blue".to_owned(), "random".to_owned()),
        ("red".to_owned(), "random".to_owned()),
    ]);
    let request = bundle::gather(&fixture("long.yaml"), BTreeMap::new(), None, policies).unwrap();
    let first = client.create(&request, Some(&host)).unwrap();
    let state = client.view(&first.game, &first.tokens["referee"]).unwrap();
    let reason = state.status.paused.expect("paused");
    assert!(reason.contains("in an hour"), "{reason}");
    // A second game finds the hour's budget spent: its players give no order at all.
    let second = client.create(&request, Some(&host)).unwrap();
    let state = client
        .view(&second.game, &second.tokens["referee"])
        .unwrap();
    assert_eq!(state.status.paused.as_deref(), Some(reason.as_str()));
    assert_eq!(state.status.orders, 0);
}

#[test]
fn a_game_the_servers_players_never_let_go_of_is_paused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (_running, client, host) = server(dir.path(), |c| {
        c.limits.policy_orders_in_a_row = 30;
    });
    let policies = BTreeMap::from([
        ("blue".to_owned(), "random".to_owned()),
        ("red".to_owned(), "random".to_owned()),
    ]);
    let request = bundle::gather(&fixture("long.yaml"), BTreeMap::new(), None, policies).unwrap();
    let created = client.create(&request, Some(&host)).unwrap();
    let referee = &created.tokens["referee"];
    let state = client.view(&created.game, referee).unwrap();
    assert_eq!(state.status.orders, 30, "the players stop at the run's end");
    let reason = state
        .status
        .paused
        .clone()
        .unwrap_or_else(|| panic!("stalled with no reason: {:?}", state.status));
    assert!(reason.contains("30 orders in a row"), "{reason}");
    // The referee's undo lets them go on, for another run.
    client
        .undo(&created.game, referee, Some("let them play on"))
        .unwrap();
    let after = client.view(&created.game, referee).unwrap();
    assert_eq!(after.status.orders, 59, "{:?}", after.status);
    assert!(after.status.paused.is_some());
}

#[test]
fn a_search_seat_whose_evaluate_hook_fails_ends_its_phase_and_the_referee_sees_why() {
    let dir = tempfile::tempdir().unwrap();
    let (_running, client, host) = server(dir.path(), |_| {});
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/search/duel-broken-evaluate.yaml");
    let policies = BTreeMap::from([("blue".to_owned(), "search:it=3".to_owned())]);
    let request = bundle::gather(&scenario, BTreeMap::new(), None, policies).unwrap();
    let created = client.create(&request, Some(&host)).unwrap();
    let game = &created.game;

    // Blue is the server's: its search meets the broken hook, so it ends its phase rather
    // than stall the game (before: it did so silently) and red is to act.
    let red = client.view(game, &created.tokens["red"]).unwrap();
    assert_eq!(red.status.to_act, ["red"], "{:?}", red.status);
    assert_eq!(
        red.hook_error, None,
        "a side's seat is not told the ruleset's fault"
    );
    let referee = client.view(game, &created.tokens["referee"]).unwrap();
    let error = referee.hook_error.unwrap_or_default();
    for part in ["marked.lua:", "evaluate (marked.broken)"] {
        assert!(error.contains(part), "{part}: {error}");
    }
    assert!(
        !error.contains("/work") && !error.contains("/tmp"),
        "{error}"
    );
}
