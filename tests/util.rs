//! Running the binary from the workspace root, and the shared helpers of leak tests.
//!
//! A leak test plays two games that differ only in what a side must not know (a real
//! marker or a fake, an empty square or an unseen command) and asserts the side reads them
//! alike: [`side_reads_in`] gives what the side reads ([`SIDE_READS`]: its log, view and
//! legal orders) of a game in a fixture folder, and [`assert_reads_alike`] compares two,
//! answer by answer. Where the suite has its own runner (a scenario written to a temporary
//! folder, a fixture with its own working directory) or must compare stderr's notes too,
//! build the runs with [`side_runs`] and the reads with `side_reads(side_runs(…), stderr)`.
//!
//! A test of a rule's outcome reads `--json`, not the printed words, so a rewording cannot
//! make it pass: [`play_json`] / [`play_json_in`] give the events of `play --json` with the
//! pieces' names ([`Played`]: `find`, `has`, `flag`, `in_phase`, `announced`), the
//! refusal's words and its kind ([`refusal_kind`]: the kernel's `RefusalKind`, or
//! `bad_orders`, `policy_failed`); [`json_of`], [`events_of`], [`has_event`] and
//! [`count_events`] read any command's `--json`. Checks of the words themselves (a refusal's
//! wording, a view's lines, an error at its line) say so with a `// prose:` comment.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The workspace root (where `rulesets/` and `examples/` live).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A finished run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs `grognard ARGS` in `dir`.
pub fn grognard_in(dir: &Path, args: &[&str]) -> Run {
    let start = Instant::now();
    let out: Output = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(args)
        .current_dir(dir)
        .env_remove("GROGNARD_RULESETS")
        .output()
        .unwrap_or_else(|e| panic!("cannot run grognard: {e}"));
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: start.elapsed(),
    }
}

/// Runs `grognard ARGS` from the workspace root.
pub fn grognard(args: &[&str]) -> Run {
    grognard_in(&root(), args)
}

/// Runs `grognard ARGS` from the workspace root with every `.yaml` argument taken from
/// the fixture folder `dir` (an audit's positions).
pub fn grognard_fixtures(dir: &str, args: &[&str]) -> Run {
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            if a.ends_with(".yaml") {
                format!("{dir}/{a}")
            } else {
                (*a).to_owned()
            }
        })
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    grognard(&args)
}

/// The answers a side reads of a game played to the end of an orders file, in this order:
/// its log as `play` prints it (text and JSON), its view (text and JSON) and its legal
/// orders. A leak test plays two games that differ only in a hidden fact (a real marker or a
/// fake, an empty square or an unseen command) and asserts the side reads them alike
/// ([`assert_reads_alike`]).
pub const SIDE_READS: [&str; 5] = ["play", "play --json", "view", "view --json", "legal"];

/// The runs of [`SIDE_READS`] for `side` on `scenario` played to the end of `orders`, each
/// by `run` (the test's runner, which knows its fixture folder) and asserted to succeed.
pub fn side_runs(
    run: impl Fn(&[&str]) -> Run,
    scenario: &str,
    orders: &str,
    side: &str,
) -> Vec<Run> {
    let runs = side_runs_any(run, scenario, orders, side);
    for (read, r) in SIDE_READS.iter().zip(&runs) {
        assert_eq!(
            r.code, 0,
            "{read} {scenario} {orders} {side}: {}{}",
            r.stdout, r.stderr
        );
    }
    runs
}

/// [`side_runs`] for games whose orders may be refused (a refused order ends `play` with 1):
/// each run's exit code is kept, not asserted; [`coded_reads`] puts it in what is compared.
pub fn side_runs_any(
    run: impl Fn(&[&str]) -> Run,
    scenario: &str,
    orders: &str,
    side: &str,
) -> Vec<Run> {
    (SIDE_READS.iter())
        .map(|read| {
            let mut words = read.split(' ');
            let mut args = vec![words.next().unwrap_or_default(), scenario];
            args.extend(words);
            args.extend(["--orders", orders, "--side", side]);
            run(&args)
        })
        .collect()
}

/// Each run's exit code, stdout and stderr (`exit N` on the first line), for
/// [`assert_reads_alike`] when how a read ends is part of what the side reads.
pub fn coded_reads(runs: Vec<Run>) -> Vec<String> {
    (runs.into_iter())
        .map(|r| format!("exit {}\n{}{}", r.code, r.stdout, r.stderr))
        .collect()
}

/// What `side` reads ([`SIDE_READS`]) of `scenario` played to the end of `orders`: each
/// answer's stdout, or with `stderr` its stderr after it (the notes some commands write
/// there).
pub fn side_reads(runs: Vec<Run>, stderr: bool) -> Vec<String> {
    (runs.into_iter())
        .map(|r| match stderr {
            true => format!("{}{}", r.stdout, r.stderr),
            false => r.stdout,
        })
        .collect()
}

/// [`side_reads`]'s stdout for a game in the fixture folder `dir` (relative to the root), run
/// from there.
pub fn side_reads_in(dir: &str, scenario: &str, orders: &str, side: &str) -> Vec<String> {
    let runs = side_runs(
        |args| grognard_in(&root().join(dir), args),
        scenario,
        orders,
        side,
    );
    side_reads(runs, false)
}

/// Asserts two games' [`side_reads`] are the same, answer by answer,
/// byte for byte; `what` says which two games, for the failure.
pub fn assert_reads_alike(a: &[String], b: &[String], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: not the same answers");
    for ((name, a), b) in SIDE_READS.iter().zip(a).zip(b) {
        assert_eq!(a, b, "{what}: the side's `{name}` differs");
    }
}

/// The orders file `base` of the fixture folder `dir` with `extra` lines appended, written to
/// a file of the temp dir named by `tag` (and the process, so parallel tests do not meet):
/// a test's variation on an auditor's orders without a fixture file for each.
pub fn orders_with(dir: &str, base: &str, extra: &str, tag: &str) -> String {
    let text = std::fs::read_to_string(root().join(dir).join(base))
        .unwrap_or_else(|e| panic!("{dir}/{base}: {e}"));
    let name = format!(
        "{}-{}-{tag}.yaml",
        base.replace(['/', '.'], "-"),
        std::process::id()
    );
    let path = std::env::temp_dir().join(name);
    std::fs::write(&path, format!("{text}{extra}")).expect("write orders");
    path.to_string_lossy().into_owned()
}

/// Every `.yaml` file directly in `dir` (relative to the root), sorted.
pub fn yaml_files(dir: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| {
            format!(
                "{dir}/{}",
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            )
        })
        .collect();
    out.sort();
    out
}

/// What `play --json` answered, with the pieces' names (the referee's `view --json` of
/// the scenario), so a test asserts a rule's outcome on the events rather than on their
/// wording: a reworded event line cannot make an absence check pass.
pub struct Played {
    pub code: i32,
    pub events: Vec<serde_json::Value>,
    /// The refusal's words (`refused.message`), when an order was refused.
    pub refused: Option<String>,
    /// The refusal's kind ([`refusal_kind`]), when an order was refused.
    pub refusal_kind: Option<String>,
    names: Vec<String>,
}

/// Runs `play SCENARIO --orders ORDERS --json` from the workspace root.
pub fn play_json(scenario: &str, orders: &str) -> Played {
    play_json_in(&root(), scenario, orders, &[])
}

/// Runs `play SCENARIO --orders ORDERS --json ARGS` in `dir` (a test's own folder); the
/// piece names come from the referee's view of the same scenario there, or with `--side S`
/// in `ARGS` from that side's view, as its log numbers pieces ([`side_names`]).
pub fn play_json_in(dir: &Path, scenario: &str, orders: &str, args: &[&str]) -> Played {
    let mut all = vec!["play", scenario, "--orders", orders, "--json"];
    all.extend_from_slice(args);
    let run = grognard_in(dir, &all);
    let answer: serde_json::Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("play --json: {e}\n{}\n{}", run.stdout, run.stderr));
    let side = args
        .iter()
        .position(|a| *a == "--side")
        .and_then(|i| args.get(i + 1));
    let names = match side {
        Some(side) => side_names(dir, scenario, side),
        None => {
            let view = grognard_in(dir, &["view", scenario, "--referee", "--json"]);
            let view = json_of(&view);
            (view["state"]["pieces"].as_array())
                .unwrap_or_else(|| panic!("no pieces in the referee's view: {view}"))
                .iter()
                .map(|p| p["name"].as_str().unwrap_or_default().to_owned())
                .collect()
        }
    };
    Played {
        code: run.code,
        events: answer["events"].as_array().cloned().unwrap_or_default(),
        refused: answer["refused"]["message"].as_str().map(str::to_owned),
        refusal_kind: refusal_kind(&answer),
        names,
    }
}

impl Played {
    /// The piece's number in the events.
    pub fn piece(&self, name: &str) -> u64 {
        self.names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("no piece `{name}` among {:?}", self.names)) as u64
    }

    /// Where the first event that is `kind`, about piece `name`, and matches `also` stands
    /// in the events.
    pub fn find(
        &self,
        kind: &str,
        name: &str,
        also: impl Fn(&serde_json::Value) -> bool,
    ) -> Option<usize> {
        let piece = self.piece(name);
        self.events
            .iter()
            .position(|e| e["event"] == kind && e["piece"] == piece && also(e))
    }

    /// Where the events first turn `flag` on (`on`) or off for piece `name`.
    pub fn flag(&self, name: &str, flag: &str, on: bool) -> Option<usize> {
        self.find("flag_changed", name, |e| e["flag"] == flag && e["on"] == on)
    }

    /// Whether some event is `kind`, about piece `name`, and matches `also`.
    pub fn has(&self, kind: &str, name: &str, also: impl Fn(&serde_json::Value) -> bool) -> bool {
        self.find(kind, name, also).is_some()
    }

    /// Whether every side was told `text` (an `announced` event with exactly these words).
    pub fn announced(&self, text: &str) -> bool {
        has_event(&self.events, "announced", &[("text", text.into())])
    }

    /// The events of the phase `phase` of turn `turn` whose phasing side is `phasing`: those
    /// after its `phase_began` and before the next one.
    pub fn in_phase(&self, turn: u64, phase: &str, phasing: &str) -> &[serde_json::Value] {
        let began = |e: &serde_json::Value| e["event"] == "phase_began";
        let Some(start) = self.events.iter().position(|e| {
            began(e) && e["turn"] == turn && e["phase"] == phase && e["phasing"] == phasing
        }) else {
            panic!(
                "no {phasing} {phase} phase in turn {turn}: {:?}",
                self.events
            )
        };
        let rest = &self.events[start + 1..];
        &rest[..rest.iter().position(began).unwrap_or(rest.len())]
    }

    /// Piece `name`'s first move on the open table, if it made one.
    pub fn moved_on_table(&self, name: &str) -> Option<&serde_json::Value> {
        self.find("moved_on_table", name, |_| true)
            .map(|i| &self.events[i])
    }
}

/// Whether a `moved_on_table` event ends at (`x`, `y`) inches having cost `inches` (the
/// events count in thousandths of an inch, costs in hundredths).
pub fn on_table_to(event: &serde_json::Value, x: f64, y: f64, inches: f64) -> bool {
    let thousandths = |v: f64| (v * 1000.0).round() as i64;
    event["to"]["x"].as_i64() == Some(thousandths(x))
        && event["to"]["y"].as_i64() == Some(thousandths(y))
        && event["cost"].as_i64() == Some((inches * 100.0).round() as i64)
}

/// The names of the pieces by the numbers `side`'s log gives them (a side's log numbers its
/// own pieces as its view lists them, and enemies by handle): its own by name, an enemy
/// as `#HANDLE`, from `view SCENARIO --side SIDE --json` in `dir`.
pub fn side_names(dir: &Path, scenario: &str, side: &str) -> Vec<String> {
    let view = json_of(&grognard_in(
        dir,
        &["view", scenario, "--side", side, "--json"],
    ));
    let mut names = Vec::new();
    let mut name = |n: Option<u64>, text: String| {
        let n = n.unwrap_or_else(|| panic!("a piece without its number in {view}")) as usize;
        if names.len() <= n {
            names.resize(n + 1, String::new());
        }
        names[n] = text;
    };
    for p in view["view"]["own"].as_array().into_iter().flatten() {
        name(
            p["id"].as_u64(),
            p["name"].as_str().unwrap_or_default().to_owned(),
        );
    }
    for p in view["view"]["enemy"].as_array().into_iter().flatten() {
        name(p["handle"].as_u64(), format!("#{}", p["handle"]));
    }
    names
}

/// `play --json`'s answer parsed, or the run's output in the failure.
pub fn json_of(run: &Run) -> serde_json::Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON: {e}\n{}\n{}", run.stdout, run.stderr))
}

/// The kind of `play --json`'s refusal (`refused.kind`: the kernel's reason, such as
/// `out_of_phase` or `too_far`, or `bad_orders`, `policy_failed`), `None` when nothing
/// was refused.
pub fn refusal_kind(answer: &serde_json::Value) -> Option<String> {
    answer["refused"]["kind"].as_str().map(str::to_owned)
}

/// The events of a `play --json` answer.
pub fn events_of(answer: &serde_json::Value) -> Vec<serde_json::Value> {
    answer["events"].as_array().cloned().unwrap_or_default()
}

/// Whether some event is `kind` and has every `(key, value)` of `fields` (a value as JSON
/// compares: a piece by its number, a flag by its name).
pub fn has_event(
    events: &[serde_json::Value],
    kind: &str,
    fields: &[(&str, serde_json::Value)],
) -> bool {
    events
        .iter()
        .any(|e| e["event"] == kind && fields.iter().all(|(k, v)| &e[*k] == v))
}

/// How many events are `kind`.
pub fn count_events(events: &[serde_json::Value], kind: &str) -> usize {
    events.iter().filter(|e| e["event"] == kind).count()
}

/// Grid cells as events give them (`{col, row}`), from `(col, row)` pairs as the log prints
/// them.
pub fn cells(at: &[(i64, i64)]) -> serde_json::Value {
    at.iter()
        .map(|&(col, row)| serde_json::json!({"col": col, "row": row}))
        .collect()
}

/// The ruleset's `evaluate` hook's value of `side`'s view of `game`, with the search's
/// own score `score` (the bundled judges' tests: tests/black_powder/judge.rs and
/// tests/hex_leaders/judge.rs).
pub fn judged(
    game: &grognard_kernel::game::Game,
    hooks: &mut dyn grognard_kernel::hooks::Hooks,
    side: grognard_kernel::ids::SideId,
    score: f64,
) -> f64 {
    hooks
        .evaluate(&game.view(side), score)
        .unwrap_or_else(|e| panic!("{e}"))
        .expect("the ruleset binds evaluate and it returns a number")
}

/// Two of the judges' values are the same (to a billionth).
pub fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}
