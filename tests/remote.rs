//! Issue 20: remote play through `grognard serve`, driven by the `grognard remote` CLI
//! clients as two players on two machines would (loopback only, every wait bounded).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use grognard_rules::load;
use serde_json::Value;

use crate::util::{grognard, root};

/// A `grognard serve` process on a free loopback port, its host token kept beside its
/// database (so a restarted server takes the same one).
struct Server {
    child: Child,
    url: String,
    host_token: String,
}

impl Server {
    fn start(db: &Path) -> Self {
        let token_file = db.with_extension("host-token");
        let mut child = Command::new(env!("CARGO_BIN_EXE_grognard"))
            .args(["serve", "--listen", "127.0.0.1:0", "--db"])
            .arg(db)
            .arg("--host-token-file")
            .arg(&token_file)
            .current_dir(root())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start grognard serve");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut first = String::new();
            let _ = BufReader::new(stdout).read_line(&mut first);
            let _ = tx.send(first);
        });
        let first = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the server says where it listens");
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .map(|w| w.trim_end_matches(',').to_owned())
            .unwrap_or_else(|| panic!("no address in {first:?}"));
        let host_token = std::fs::read_to_string(&token_file)
            .expect("the server writes its host token file")
            .trim()
            .to_owned();
        Self {
            child,
            url,
            host_token,
        }
    }

    /// `grognard remote create URL SCENARIO ... --json` as the host: the game and its tokens.
    fn create(&self, scenario: &str, extra: &[&str]) -> Value {
        let mut args = vec![
            "remote",
            "create",
            &self.url,
            scenario,
            "--host-token",
            &self.host_token,
            "--json",
        ];
        args.extend(extra);
        json(&ok(&args))
    }

    /// SIGKILL: no chance to tidy up.
    fn kill(mut self) {
        self.child.kill().expect("kill");
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ok(args: &[&str]) -> String {
    let run = grognard(args);
    assert_eq!(
        run.code, 0,
        "grognard {args:?}\n{}\n{}",
        run.stdout, run.stderr
    );
    run.stdout
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The example's orders, in runs of one side's consecutive orders, each run an orders
/// file (JSON is YAML) in `dir`.
fn runs_of(orders: &str, dir: &Path) -> Vec<(String, String)> {
    let specs = load::load_orders(&root().join(orders)).expect("orders load");
    let mut runs: Vec<(String, Vec<Value>)> = Vec::new();
    for s in specs {
        let v = serde_json::to_value(&s.value).expect("order as JSON");
        match runs.last_mut() {
            Some((side, list)) if *side == s.value.side => list.push(v),
            _ => runs.push((s.value.side.clone(), vec![v])),
        }
    }
    runs.into_iter()
        .enumerate()
        .map(|(i, (side, list))| {
            let path = dir.join(format!("run-{i:03}.yaml"));
            std::fs::write(&path, serde_json::json!({ "orders": list }).to_string()).unwrap();
            (side, path.to_string_lossy().into_owned())
        })
        .collect()
}

/// A save without the paths of its files (the server names them as the bundle does).
fn without_paths(mut save: Value) -> Value {
    for key in ["ruleset", "scenario"] {
        if let Some(o) = save.get_mut(key).and_then(Value::as_object_mut) {
            o.remove("path");
        }
    }
    save
}

#[test]
fn two_cli_clients_play_hex_command_to_the_end_through_a_server_killed_mid_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let scenario = "examples/hex-command.yaml";
    let orders = "examples/hex-command.orders.yaml";
    let mut server = Server::start(&db);
    // The host fixes the scenario's own seed, so `grognard play` of the same orders rolls
    // the same dice (without `--seed` the server draws a secret one).
    let seed = load::load_scenario(&root().join(scenario), None)
        .unwrap()
        .compiled
        .setup
        .seed
        .to_string();
    let created = server.create(scenario, &["--seed", &seed]);
    let game = created["game"].as_str().unwrap().to_owned();
    let tokens = created["tokens"].as_object().unwrap().clone();
    for seat in ["blue", "red", "referee", "spectator"] {
        let t = tokens[seat].as_str().unwrap();
        assert_eq!(t.len(), 64, "a 256-bit token for {seat}");
    }
    let token = |seat: &str| tokens[seat].as_str().unwrap().to_owned();
    let runs = runs_of(orders, dir.path());
    assert!(runs.len() > 10, "both sides act many times");
    let kill_at = runs.len() / 2;
    for (i, (side, file)) in runs.iter().enumerate() {
        if i == kill_at {
            // Mid-game: SIGKILL, then a new process on the same database.
            server.kill();
            server = Server::start(&db);
        }
        ok(&[
            "remote",
            "orders",
            &server.url,
            &game,
            "--token",
            &token(side),
            file,
        ]);
    }
    // The final save equals `grognard play` of the same orders.
    let remote_save = dir.path().join("remote.json");
    let local_save = dir.path().join("local.json");
    ok(&[
        "remote",
        "save",
        &server.url,
        &game,
        "--token",
        &token("referee"),
        "--out",
        remote_save.to_str().unwrap(),
    ]);
    ok(&[
        "play",
        scenario,
        "--orders",
        orders,
        "--save",
        local_save.to_str().unwrap(),
    ]);
    let read = |p: &Path| json(&std::fs::read_to_string(p).unwrap());
    assert_eq!(
        without_paths(read(&remote_save)),
        without_paths(read(&local_save))
    );
    // Each seat's view is exactly what `grognard view` prints for that side.
    for side in ["blue", "red"] {
        for format in [&[][..], &["--json"][..]] {
            let mut remote = vec!["remote", "view", &server.url, &game, "--token"];
            let t = token(side);
            remote.push(&t);
            remote.extend(format);
            let mut local = vec!["view", scenario, "--orders", orders, "--side", side];
            local.extend(format);
            assert_eq!(ok(&remote), ok(&local), "{side} {format:?}");
        }
    }
    // That text (the browser's log is built from it) does not tell a deed twice: "b1 fire
    // at r1" and no "b1 has fired" after it (issue 40, as `play` and the editor already
    // leave it out); the JSON keeps every event.
    let local = ["view", scenario, "--orders", orders, "--side", "blue"];
    let text = ok(&local);
    assert!(text.contains("\n  b1 fire at r1\n"), "{text}");
    assert!(!text.contains(" has fired"), "{text}");
    let referee = ok(&["view", scenario, "--orders", orders, "--referee"]);
    assert!(!referee.contains(" has fired"), "{referee}");
    let v = json(&ok(&[&local[..], &["--json"]].concat()));
    let fired = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"] == "flag_changed" && e["flag"] == "fired")
        .count();
    assert!(fired > 0, "the flag events are kept in --json");
    let listed = json(&ok(&["remote", "games", &server.url, "--json"]));
    let entry = &listed["games"][0];
    assert_eq!(entry["game"], game.as_str());
    assert_eq!(entry["over"], true);
    assert!(entry["last_order_at"].as_u64().is_some());
}

#[test]
fn refusals_and_bad_tokens_are_clear_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("g.sqlite"));
    let created = server.create("examples/drill-square.yaml", &[]);
    let game = created["game"].as_str().unwrap();
    let blue = created["tokens"]["blue"].as_str().unwrap();
    let before = ok(&[
        "remote",
        "view",
        &server.url,
        game,
        "--token",
        blue,
        "--json",
    ]);
    // A wrong token.
    let run = grognard(&["remote", "view", &server.url, game, "--token", "nope"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("opens no seat"), "{}", run.stderr);
    // An unknown game.
    let run = grognard(&["remote", "view", &server.url, "0000", "--token", blue]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("no game `0000`"), "{}", run.stderr);
    // Red's orders sent with blue's token.
    let red_orders = dir.path().join("red.yaml");
    std::fs::write(&red_orders, "orders:\n  - { side: red, end_phase: true }\n").unwrap();
    let run = grognard(&[
        "remote",
        "orders",
        &server.url,
        game,
        "--token",
        blue,
        red_orders.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("this seat plays blue"),
        "{}",
        run.stderr
    );
    // An order the rules refuse: the reason, at the file's line.
    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        "orders:\n  - { side: blue, move: { piece: b1, path: [[0, 0]] } }\n",
    )
    .unwrap();
    let run = grognard(&[
        "remote",
        "orders",
        &server.url,
        game,
        "--token",
        blue,
        bad.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("bad.yaml:2:") && run.stderr.contains("refused"),
        "{}",
        run.stderr
    );
    // Not an orders file at all.
    let junk = dir.path().join("junk.yaml");
    std::fs::write(&junk, "orders: [ {side: blue, fly: 3} ]\n").unwrap();
    let run = grognard(&[
        "remote",
        "orders",
        &server.url,
        game,
        "--token",
        blue,
        junk.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("junk.yaml:1:"), "{}", run.stderr);
    let after = ok(&[
        "remote",
        "view",
        &server.url,
        game,
        "--token",
        blue,
        "--json",
    ]);
    assert_eq!(before, after, "nothing changed");
}

#[test]
fn a_scenario_that_fails_validation_is_refused_at_creation_and_nothing_is_stored() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("g.sqlite"));
    let run = grognard(&[
        "remote",
        "create",
        &server.url,
        "tests/fixtures/bad/off-board.yaml",
        "--host-token",
        &server.host_token,
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stderr.contains("off-board.yaml:"), "{}", run.stderr);
    let listed = json(&ok(&["remote", "games", &server.url, "--json"]));
    assert_eq!(listed["games"], serde_json::json!([]));
}

#[test]
fn a_database_that_cannot_be_used_stops_the_server_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.sqlite");
    std::fs::write(&junk, vec![b'x'; 8192]).unwrap();
    let start = Instant::now();
    let run = grognard(&[
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--db",
        junk.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("junk.sqlite"), "{}", run.stderr);
    assert!(start.elapsed() < Duration::from_secs(30));
    let missing = dir.path().join("no/such/folder/g.sqlite");
    let run = grognard(&[
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--db",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("cannot open"), "{}", run.stderr);
}

#[test]
fn undo_chat_and_the_games_list() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("g.sqlite"));
    let created = server.create("examples/drill-square.yaml", &[]);
    let game = created["game"].as_str().unwrap();
    let token = |s: &str| created["tokens"][s].as_str().unwrap().to_owned();
    let first = load::load_orders(&root().join("examples/drill-square.orders.yaml")).unwrap();
    let spec = serde_json::to_value(&first[0].value).unwrap();
    let side = first[0].value.side.clone();
    let one = dir.path().join("one.yaml");
    std::fs::write(&one, serde_json::json!({ "orders": [spec] }).to_string()).unwrap();
    let before = ok(&[
        "remote",
        "view",
        &server.url,
        game,
        "--token",
        &token(&side),
        "--json",
    ]);
    ok(&[
        "remote",
        "orders",
        &server.url,
        game,
        "--token",
        &token(&side),
        one.to_str().unwrap(),
    ]);
    // The other side may not take it back; its giver may (a move rolls no dice here).
    let other = if side == "blue" { "red" } else { "blue" };
    let run = grognard(&[
        "remote",
        "undo",
        &server.url,
        game,
        "--token",
        &token(other),
    ]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("only its own"), "{}", run.stderr);
    ok(&[
        "remote",
        "undo",
        &server.url,
        game,
        "--token",
        &token(&side),
    ]);
    let after = ok(&[
        "remote",
        "view",
        &server.url,
        game,
        "--token",
        &token(&side),
        "--json",
    ]);
    assert_eq!(before, after, "taken back");
    // The referee must give a reason.
    ok(&[
        "remote",
        "orders",
        &server.url,
        game,
        "--token",
        &token(&side),
        one.to_str().unwrap(),
    ]);
    let run = grognard(&[
        "remote",
        "undo",
        &server.url,
        game,
        "--token",
        &token("referee"),
    ]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("reason"), "{}", run.stderr);
    ok(&[
        "remote",
        "undo",
        &server.url,
        game,
        "--token",
        &token("referee"),
        "--reason",
        "misclick",
    ]);
    // The chat keeps what each seat said, and the referee's notice.
    ok(&[
        "remote",
        "chat",
        &server.url,
        game,
        "--token",
        &token(other),
        "--say",
        "your move",
    ]);
    let chat = json(&ok(&[
        "remote",
        "chat",
        &server.url,
        game,
        "--token",
        &token(&side),
        "--json",
    ]));
    let lines: Vec<String> = chat["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            format!(
                "{}: {}",
                l["seat"].as_str().unwrap(),
                l["text"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            "server: the referee took back the last order: misclick".to_owned(),
            format!("{other}: your move")
        ]
    );
    let text = ok(&["remote", "games", &server.url]);
    assert!(text.contains(game) && text.contains("to act"), "{text}");
}

#[test]
fn chat_from_other_seats_is_stored_as_sent_and_printed_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("g.sqlite"));
    let created = server.create("examples/drill-square.yaml", &[]);
    let game = created["game"].as_str().unwrap();
    let token = |s: &str| created["tokens"][s].as_str().unwrap().to_owned();
    // An escape that would clear the screen and recolour it, a carriage return that would
    // hide what came before, and a right-to-left override that would reorder the rest.
    let said = "gg\u{1b}[2J\u{1b}[31m wp\rreferee: you lose \u{202E}txet\u{9b}";
    ok(&[
        "remote",
        "chat",
        &server.url,
        game,
        "--token",
        &token("red"),
        "--say",
        said,
    ]);
    let chat = json(&ok(&[
        "remote",
        "chat",
        &server.url,
        game,
        "--token",
        &token("blue"),
        "--json",
    ]));
    assert_eq!(chat["lines"][0]["text"], said, "stored and sent unchanged");
    let shown = ok(&[
        "remote",
        "chat",
        &server.url,
        game,
        "--token",
        &token("blue"),
    ]);
    assert!(
        !shown.contains(['\u{1b}', '\r', '\u{202E}', '\u{9b}']),
        "raw controls reach the terminal: {shown:?}"
    );
    assert!(
        shown.contains(
            "red: gg\\u{1b}[2J\\u{1b}[31m wp\\u{d}referee: you lose \\u{202e}txet\\u{9b}\n"
        ),
        "{shown:?}"
    );
    assert_eq!(shown.lines().count(), 1, "one line said is one line shown");
}

#[test]
fn names_a_game_creator_chose_reach_other_terminals_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("g.sqlite"));
    // Whoever creates a game names it: a name that clears the screen, sets the terminal's
    // title and reverses what follows.
    let hostile = "evil\u{1b}[2J\u{1b}]0;TITLE\u{7}\u{202e}oops";
    let scenario = dir.path().join("hostile.yaml");
    std::fs::write(
        &scenario,
        std::fs::read_to_string(root().join("examples/drill-square.yaml"))
            .unwrap()
            .replace(
                "scenario: drill-square",
                &format!("scenario: {}", serde_json::to_string(hostile).unwrap()),
            ),
    )
    .unwrap();
    server.create(scenario.to_str().unwrap(), &[]);
    let listed = json(&ok(&["remote", "games", &server.url, "--json"]));
    assert_eq!(listed["games"][0]["scenario"], hostile, "stored as sent");
    let shown = ok(&["remote", "games", &server.url]);
    assert!(
        !shown.contains(['\u{1b}', '\u{7}', '\u{202e}']),
        "raw controls reach the terminal: {shown:?}"
    );
    assert!(
        shown.contains("evil\\u{1b}[2J\\u{1b}]0;TITLE\\u{7}\\u{202e}oops"),
        "{shown:?}"
    );
}

/// The seat whose token opens `link`'s game on its server, by `remote view --json`'s
/// answer (its `seat`) — read with the token cut from the link's fragment.
fn seat_of_link(link: &str) -> String {
    let (page, token) = link.split_once("#token=").expect("a token in the fragment");
    let (base, game) = page.split_once("/play/").expect("a play link");
    let out = ok(&["remote", "games", base, "--json"]);
    assert!(out.contains(game), "{game} listed on {base}");
    let client = grognard_server::client::Client::new(base).unwrap();
    client
        .view(game, token)
        .expect("the link's token opens a seat")
        .seat
}

/// `serve --create` and `remote create` print one play link per seat, the token in the
/// fragment; each link opens its own seat, and a side the server plays says so and how
/// (issue 40, search player report B1: red's link did not say the server played it, and
/// `serve --help` did not list `search`).
#[test]
fn serve_and_remote_create_print_a_link_per_seat() {
    let help = ok(&["serve", "--help"]);
    assert!(
        help.contains("SIDE=search[:MILLISECONDS]") && help.contains("SIDE=search:it=N"),
        "{help}"
    );
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("g.sqlite"))
        .args(["--create", "examples/drill-square.yaml"])
        .args(["--policy", "red=search:it=5"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start grognard serve");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut lines = Vec::new();
    let start = Instant::now();
    while !lines
        .iter()
        .any(|l: &String| l.starts_with("(the token is"))
    {
        let left = Duration::from_secs(30).saturating_sub(start.elapsed());
        lines.push(rx.recv_timeout(left).expect("serve prints the links"));
    }
    let links: Vec<(&str, &str)> = lines
        .iter()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let seat = words.next()?;
            words
                .next()
                .filter(|w| w.contains("/play/"))
                .map(|w| (seat, w))
        })
        .collect();
    let seats: Vec<&str> = links.iter().map(|(s, _)| *s).collect();
    assert_eq!(seats, ["blue", "red", "referee", "spectator"], "{lines:#?}");
    for (seat, link) in &links {
        assert_eq!(seat_of_link(link), *seat);
    }
    let played: Vec<&String> = lines.iter().filter(|l| l.contains("played by")).collect();
    assert_eq!(played.len(), 1, "{lines:#?}");
    assert!(
        played[0].trim_start().starts_with("red ")
            && played[0].ends_with("(played by the server: search, 5 iterations an order)"),
        "{lines:#?}"
    );
    let host_line = lines
        .iter()
        .find(|l| l.starts_with("host page"))
        .expect("the host page");
    let host = host_line.split_whitespace().last().unwrap();
    let (base, token) = host
        .split_once("/host#token=")
        .expect("the host page's link");
    // The host page's token is the host token: it creates a game.
    let run = grognard(&[
        "remote",
        "create",
        base,
        "examples/drill-hex.yaml",
        "--host-token",
        token,
        "--policy",
        "blue=greedy",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let blue = run.stdout.lines().find(|l| l.contains("blue")).unwrap();
    assert!(
        blue.ends_with("(played by the server: greedy)"),
        "{}",
        run.stdout
    );
    let links: Vec<&str> = run
        .stdout
        .split_whitespace()
        .filter(|w| w.contains("/play/"))
        .collect();
    assert_eq!(links.len(), 4, "{}", run.stdout);
    assert_eq!(seat_of_link(links[0]), "blue");
    let _ = child.kill();
    let _ = child.wait();
}

/// `grognard schema view`: the JSON Schema of a side's view.
#[test]
fn schema_view_prints_the_views_schema() {
    let schema = json(&ok(&["schema", "view"]));
    assert_eq!(schema["title"], "grognard side view");
    assert!(schema["$defs"]["Names"]["properties"]["counters"].is_object());
}
