//! Issue 30: the server attacked as an outsider and as a hostile seat would — files that
//! name paths outside the bundle, special files, creating without the host token, floods,
//! store quotas, and dice a seat could predict. Loopback only, every wait bounded.

mod common;

use common::root;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use grognard_server::bundle;
use grognard_server::config::{Access, Config, Limits};
use grognard_server::protocol::CreateGame;
use serde_json::{Value, json};

/// A raw HTTP request; the status and the JSON body (or the text, as a JSON string).
fn call(method: &str, url: &str, token: Option<&str>, body: Option<&Value>) -> (u16, Value) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into();
    let auth = token.map(|t| format!("Bearer {t}"));
    let response = match (method, body) {
        ("GET", _) => {
            let mut r = agent.get(url);
            if let Some(a) = &auth {
                r = r.header("Authorization", a);
            }
            r.call()
        }
        (_, body) => {
            let mut r = if method == "PUT" {
                agent.put(url)
            } else {
                agent.post(url)
            };
            if let Some(a) = &auth {
                r = r.header("Authorization", a);
            }
            r.send_json(body.cloned().unwrap_or(Value::Null))
        }
    };
    let mut response = response.expect("the server answers");
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_string()
        .unwrap_or_default();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

/// The bundle's path of the file whose path ends with `tail`.
fn key(request: &CreateGame, tail: &str) -> String {
    request
        .files
        .keys()
        .find(|k| k.ends_with(tail))
        .unwrap_or_else(|| panic!("no {tail} in {:?}", request.files.keys()))
        .clone()
}

fn create(url: &str, host: &str, request: &CreateGame) -> (u16, Value) {
    call(
        "POST",
        &format!("{url}/games"),
        Some(host),
        Some(&serde_json::to_value(request).unwrap()),
    )
}

fn error_text(answer: &Value) -> String {
    answer["error"]
        .as_str()
        .unwrap_or_else(|| panic!("an error body: {answer}"))
        .to_owned()
}

#[test]
fn files_that_name_paths_outside_the_bundle_are_refused_at_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    // Another game's secret order of battle, on the server's own disk.
    let victim = tempfile::tempdir().unwrap();
    let secret = victim.path().join("austrians.yaml");
    std::fs::write(
        &secret,
        std::fs::read_to_string(root().join("examples/setup/square-blocks-setup.austrians.yaml"))
            .unwrap()
            .replace("adum1", "victim_dummy_one"),
    )
    .unwrap();
    let request = common::example("examples/square-blocks-setup.yaml");
    let scenario = key(&request, "square-blocks-setup.yaml");
    let original = request.files[&scenario].clone();
    let climb = "../".repeat(20) + secret.to_str().unwrap().trim_start_matches('/');
    for path in [secret.to_str().unwrap().to_owned(), climb] {
        let mut hostile = request.clone();
        hostile.files.insert(
            scenario.clone(),
            original.replace(
                "order_of_battle: setup/square-blocks-setup.austrians.yaml",
                &format!("order_of_battle: {path}"),
            ),
        );
        let (status, answer) = create(&server.url(), &server.host_token, &hostile);
        let message = error_text(&answer);
        assert_eq!(status, 422, "{message}");
        assert!(
            message.contains(&format!("{scenario}:57:"))
                && message.contains("leaves the game's files"),
            "refused at the line that names it: {message}"
        );
        assert!(!message.contains("victim_dummy_one"), "{message}");
        // The message quotes what the request said, and no path of the server's own.
        assert!(
            !message.replace(&path, "").contains("/tmp"),
            "no server path: {message}"
        );
    }
}

#[test]
fn extends_scripts_and_policies_stay_inside_the_bundle_and_special_files_are_never_opened() {
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let request = common::example("examples/square-blocks.yaml");
    let ruleset = request.ruleset.clone();
    let text = request.files[&ruleset].clone();
    assert!(text.contains("scripts:"), "square-blocks binds scripts");
    let line_of = |needle: &str, text: &str| {
        text.lines()
            .position(|l| l.contains(needle))
            .map(|i| i + 1)
            .unwrap()
    };
    for special in [
        "/dev/zero",
        "/dev/stdin",
        fifo.to_str().unwrap(),
        "../../../../etc/passwd",
    ] {
        let mut hostile = request.clone();
        let changed = text.replacen("scripts:\n", &format!("scripts:\n  stolen: {special}\n"), 1);
        let at = line_of("stolen:", &changed);
        hostile.files.insert(ruleset.clone(), changed);
        let started = Instant::now();
        let (status, answer) = create(&server.url(), &server.host_token, &hostile);
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{special} held the request"
        );
        let message = error_text(&answer);
        assert_eq!(status, 422, "{special}: {message}");
        assert!(
            message.contains(&format!("{ruleset}:{at}:")),
            "{special}: {message}"
        );
        assert!(
            message.contains("outside the game's files"),
            "{special}: {message}"
        );
        assert!(!message.contains("root:x:0"), "{message}");
        assert!(
            !message.replace(special, "").contains("/tmp"),
            "no server path: {message}"
        );
    }
    // `extends:` an absolute path.
    let mut hostile = request.clone();
    hostile.files.insert(
        ruleset.clone(),
        format!("extends: {}\n{text}", root().join(&ruleset).display()),
    );
    let (status, answer) = create(&server.url(), &server.host_token, &hostile);
    let message = error_text(&answer);
    assert_eq!(status, 422, "{message}");
    assert!(message.contains(&format!("{ruleset}:1:")), "{message}");
    assert!(message.contains("leaves the game's files"), "{message}");
    // A Lua policy named by a path of the server's disk.
    let mut hostile = request.clone();
    let policy = root().join("examples/policies/skirmisher.lua");
    hostile
        .policies
        .insert("french".into(), format!("lua:{}", policy.display()));
    let (status, answer) = create(&server.url(), &server.host_token, &hostile);
    let message = error_text(&answer);
    assert_eq!(status, 422, "{message}");
    assert!(message.contains("not among the game's files"), "{message}");
}

#[test]
fn only_the_host_creates_games() {
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let request = serde_json::to_value(common::example("examples/drill-square.yaml")).unwrap();
    let url = format!("{}/games", server.url());
    for token in [None, Some("not-the-host"), Some("")] {
        let (status, answer) = call("POST", &url, token, Some(&request));
        assert_eq!(status, 401, "{token:?}: {answer}");
        assert!(error_text(&answer).contains("host token"), "{answer}");
    }
    // A seat's token is not the host's.
    let (status, created) = call("POST", &url, Some(&server.host_token), Some(&request));
    assert_eq!(status, 201, "{created}");
    let seat = created["tokens"]["blue"].as_str().unwrap();
    assert_eq!(call("POST", &url, Some(seat), Some(&request)).0, 401);
    let (status, games) = call("GET", &url, None, None);
    assert_eq!(status, 200);
    assert_eq!(games["games"].as_array().unwrap().len(), 1, "{games}");
}

/// A server with `limits` on `access`.
fn limited(dir: &Path, access: Access, limits: Limits) -> grognard_server::Running {
    let mut config = Config::new("127.0.0.1:0", dir.join("g.sqlite"), "host");
    config.access = access;
    config.limits = limits;
    grognard_server::spawn_with(config, "host".into()).unwrap()
}

#[test]
fn creation_is_limited_per_minute_and_per_address_on_an_open_server() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        creates_per_minute: 4,
        creates_per_address: 2,
        ..Limits::default()
    };
    let server = limited(dir.path(), Access::Open, limits.clone());
    let request = serde_json::to_value(common::example("examples/drill-square.yaml")).unwrap();
    let url = format!("{}/games", server.url());
    // Open: no token needed, but two a minute from one address.
    assert_eq!(call("POST", &url, None, Some(&request)).0, 201);
    assert_eq!(call("POST", &url, None, Some(&request)).0, 201);
    let (status, answer) = call("POST", &url, None, Some(&request));
    assert_eq!(status, 429, "{answer}");
    assert!(error_text(&answer).contains("your address"), "{answer}");
    // A hosted server: four a minute, whatever the requests hold (a bad one counts too).
    let dir = tempfile::tempdir().unwrap();
    let hosted = limited(
        dir.path(),
        Access::Host {
            token_hash: grognard_server::tokens::hash("host"),
        },
        limits,
    );
    let url = format!("{}/games", hosted.url());
    assert_eq!(call("POST", &url, Some("host"), Some(&json!({}))).0, 400);
    for _ in 0..3 {
        assert_eq!(call("POST", &url, Some("host"), Some(&request)).0, 201);
    }
    let (status, answer) = call("POST", &url, Some("host"), Some(&request));
    assert_eq!(status, 429, "{answer}");
}

#[test]
fn the_store_holds_each_game_and_all_games_to_their_quota() {
    let request = common::example("examples/drill-square.yaml");
    let size: u64 = request
        .files
        .iter()
        .map(|(p, t)| (p.len() + t.len()) as u64)
        .sum();
    let host = Access::Host {
        token_hash: grognard_server::tokens::hash("host"),
    };
    // A game larger than a game may be.
    let dir = tempfile::tempdir().unwrap();
    let small = limited(
        dir.path(),
        host.clone(),
        Limits {
            store_bytes_per_game: size - 1,
            ..Limits::default()
        },
    );
    let (status, answer) = create(&small.url(), "host", &request);
    assert_eq!(status, 413, "{answer}");
    // Room for two games in all: the third is refused, and chat stops at a game's quota.
    let dir = tempfile::tempdir().unwrap();
    let server = limited(
        dir.path(),
        host,
        Limits {
            store_bytes_per_game: size + 3_000,
            store_bytes_total: 2 * size + 3_000,
            ..Limits::default()
        },
    );
    let (status, first) = create(&server.url(), "host", &request);
    assert_eq!(status, 201, "{first}");
    assert_eq!(create(&server.url(), "host", &request).0, 201);
    let (status, answer) = create(&server.url(), "host", &request);
    assert_eq!(status, 507, "{answer}");
    let chat = format!(
        "{}/games/{}/chat",
        server.url(),
        first["game"].as_str().unwrap()
    );
    let blue = first["tokens"]["blue"].as_str().unwrap();
    let line = json!({"text": "x".repeat(1_000)});
    let mut refused = None;
    for i in 0..10 {
        let (status, answer) = call("POST", &chat, Some(blue), Some(&line));
        if status != 200 {
            refused = Some((i, status, answer));
            break;
        }
    }
    let (i, status, answer) = refused.expect("the quota stops the chat");
    assert!(
        (1..=3).contains(&i),
        "{i} lines of 1,000 bytes fit in 3,000"
    );
    assert_eq!(status, 409, "{answer}");
    assert!(error_text(&answer).contains("server's store"), "{answer}");
}

#[test]
fn without_a_fixed_seed_no_seat_can_know_the_dice() {
    let dir = tempfile::tempdir().unwrap();
    let server = grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).unwrap();
    let example = "examples/hex-command.yaml";
    let public_seed = grognard_rules::load::load_scenario(&root().join(example), None)
        .unwrap()
        .compiled
        .setup
        .seed;
    let request = common::example(example);
    let mut seeds = Vec::new();
    for _ in 0..2 {
        let (status, created) = create(&server.url(), &server.host_token, &request);
        assert_eq!(status, 201, "{created}");
        let game = created["game"].as_str().unwrap();
        let get = |what: &str, seat: &str| {
            let token = created["tokens"][seat].as_str().unwrap();
            call(
                "GET",
                &format!("{}/games/{game}/{what}", server.url()),
                Some(token),
                None,
            )
        };
        let (_, save) = get("save", "referee");
        let seed = save["seed"].as_u64().unwrap_or_else(|| panic!("{save}"));
        assert_ne!(seed, public_seed, "not the scenario's public seed");
        for seat in ["blue", "red", "spectator"] {
            let (status, state) = get("view", seat);
            assert_eq!(status, 200);
            assert_eq!(state["status"]["seed_fixed"], false, "{seat}");
            assert!(
                !state.to_string().contains(&seed.to_string()),
                "{seat} sees the seed"
            );
            assert_eq!(get("save", seat).0, 403, "{seat} gets no save");
        }
        seeds.push(seed);
    }
    assert_ne!(seeds[0], seeds[1], "each game its own seed");
    // A seed the host fixes is used, and every seat is told so.
    let mut fixed = request.clone();
    fixed.seed = Some(42);
    let (_, created) = create(&server.url(), &server.host_token, &fixed);
    let game = created["game"].as_str().unwrap();
    let token = created["tokens"]["blue"].as_str().unwrap();
    let (_, state) = call(
        "GET",
        &format!("{}/games/{game}/view", server.url()),
        Some(token),
        None,
    );
    assert_eq!(state["status"]["seed_fixed"], true, "{state}");
    let referee = created["tokens"]["referee"].as_str().unwrap();
    let (_, save) = call(
        "GET",
        &format!("{}/games/{game}/save", server.url()),
        Some(referee),
        None,
    );
    assert_eq!(save["seed"], 42);
}

#[test]
fn the_client_sends_no_policy_file_that_is_not_a_policy() {
    let policies = BTreeMap::from([("blue".to_owned(), "lua:/etc/passwd".to_owned())]);
    let refused = bundle::gather(
        &root().join("examples/drill-square.yaml"),
        BTreeMap::new(),
        None,
        policies,
    )
    .unwrap_err();
    assert!(
        matches!(&refused, bundle::GatherError::Policy { side, .. } if side == "blue"),
        "{refused:?}"
    );
    let refused = refused.to_string();
    assert!(
        refused.contains("--policy blue=lua:/etc/passwd"),
        "{refused}"
    );
    assert!(!refused.contains("root:x:0"), "{refused}");
}
