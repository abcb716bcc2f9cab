//! Designer tools: `diff` (what a house rule changes), `sim` (Monte Carlo over seeds) and
//! `sheet` (a printable quick reference). Exit codes as everywhere: 0 ok, 1 a rule or
//! file error, 2 a usage error.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

use grognard_kernel::action::Event;
use grognard_kernel::game::Game;
use grognard_kernel::piece::Place;
use grognard_rules::de::Located;
use grognard_rules::diff::{self, Change};
use grognard_rules::load::{self, Scenario};
use grognard_rules::model::OrderSpec;
use grognard_rules::orders::resolve_order;
use serde::Serialize;
use serde_json::json;

use crate::commands::{Failure, Outcome, hooks_for, print_json};

// ---------------------------------------------------------------------------------------
// diff

/// `grognard diff A B`: every semantic difference, one per line, or "no differences".
pub(crate) fn diff(a: &Path, b: &Path, json: bool) -> Outcome {
    let ra = load::load_ruleset(a)?;
    let rb = load::load_ruleset(b)?;
    let changes: Vec<Change> = diff::diff(&ra, &rb);
    if json {
        print_json(&json!({
            "a": {"path": load::display(a), "ruleset": ra.rules.identity.name, "hash": ra.rules.identity.hash},
            "b": {"path": load::display(b), "ruleset": rb.rules.identity.name, "hash": rb.rules.identity.hash},
            "changes": changes,
        }));
    } else if changes.is_empty() {
        out!(
            "no differences between {} and {}",
            load::display(a),
            load::display(b)
        );
    } else {
        out!(
            "{} ({}) → {} ({}): {} change{}",
            load::display(a),
            ra.rules.identity.name,
            load::display(b),
            rb.rules.identity.name,
            changes.len(),
            if changes.len() == 1 { "" } else { "s" }
        );
        for c in &changes {
            out!("  {c}");
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// sim

/// What `grognard sim` was asked.
pub(crate) struct SimArgs<'a> {
    /// Scenario file.
    pub scenario: &'a Path,
    /// Orders file.
    pub orders: &'a Path,
    /// Games to play.
    pub runs: u32,
    /// Seed of game 0 (the scenario's when absent).
    pub seed: Option<u64>,
    /// A second ruleset to compare with.
    pub other: Option<&'a Path>,
    /// Worker threads (all cores when absent).
    pub threads: Option<usize>,
    /// Print JSON.
    pub json: bool,
}

/// Most games one `sim` plays: every game's end state is kept until the summary, so this
/// bounds memory (a few hundred bytes a game).
const MAX_RUNS: u32 = 100_000;

/// The seed of game `run` of a simulation started from `seed`.
const fn run_seed(seed: u64, run: u32) -> u64 {
    seed.wrapping_add(run as u64)
}

/// How one game ended.
struct RunResult {
    /// Per piece, by id: counters, flags, on the board, where.
    pieces: Vec<PieceEnd>,
    /// Orders refused (index in the orders file) with the reason.
    refused: Vec<(usize, String)>,
    /// Each chart outcome of an action: (acting piece index, action, outcome).
    outcomes: Vec<(usize, String, String)>,
    /// A setup failure (the game could not start).
    failed: Option<String>,
}

struct PieceEnd {
    counters: Vec<i32>,
    flags: u64,
    on_board: bool,
    place: Option<String>,
}

fn place_text(place: &Place) -> Option<String> {
    match place {
        Place::Cell(c) => Some(c.to_string()),
        Place::Spread(cells) => cells.first().map(ToString::to_string),
        Place::Point { at, .. } => Some(at.to_string()),
        Place::Off => None,
    }
}

/// Plays one game; a refused order is recorded and the next order tried.
fn play_one(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seed: u64,
    hooks: &mut dyn grognard_kernel::hooks::Hooks,
) -> RunResult {
    let mut result = RunResult {
        pieces: Vec::new(),
        refused: Vec::new(),
        outcomes: Vec::new(),
        failed: None,
    };
    let mut game: Game = match s.start(Some(seed), &[], hooks) {
        Ok(g) => g,
        Err(d) => {
            result.failed = Some(d.to_string());
            return result;
        }
    };
    for (i, o) in orders.iter().enumerate() {
        let order = match resolve_order(&game, &o.value) {
            Ok(order) => order,
            Err(message) => {
                result.refused.push((i, message));
                continue;
            }
        };
        match game.apply(&order, hooks) {
            Ok(events) => {
                for e in events {
                    if let Event::Acted {
                        piece,
                        action,
                        roll: Some(roll),
                        ..
                    } = e
                    {
                        result
                            .outcomes
                            .push((piece.0 as usize, action, roll.outcome));
                    }
                }
            }
            Err(refusal) => result.refused.push((i, refusal.message)),
        }
    }
    result.pieces = game
        .state()
        .pieces
        .iter()
        .map(|p| PieceEnd {
            counters: p.counters.clone(),
            flags: p.flags,
            on_board: p.on_board(),
            place: place_text(&p.place),
        })
        .collect();
    result
}

/// Plays `runs` games on all cores; results in run order whatever the thread count.
fn play_many(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seed: u64,
    runs: u32,
    threads: usize,
    label: &str,
) -> Result<Vec<RunResult>, Failure> {
    // Check the hooks load once here, so a bad script is one clear error, not one per thread.
    drop(hooks_for(&s.ruleset)?);
    let threads = threads.clamp(1, runs.max(1) as usize);
    // Threads take the next run as they finish one, so one thread's long games do not
    // leave the others idle; each result carries its run number and goes back in order.
    let next = AtomicU32::new(0);
    let done = AtomicU32::new(0);
    let show = std::io::stderr().is_terminal();
    let results = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (next, done) = (&next, &done);
                scope.spawn(move || -> Result<Vec<(u32, RunResult)>, String> {
                    // Lua hooks are not Send: every thread builds its own.
                    let mut hooks = hooks_for(&s.ruleset).map_err(|d| d.to_string())?;
                    let mut out = Vec::new();
                    loop {
                        let run = next.fetch_add(1, Ordering::Relaxed);
                        if run >= runs {
                            break;
                        }
                        out.push((
                            run,
                            play_one(s, orders, run_seed(seed, run), hooks.as_mut()),
                        ));
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(out)
                })
            })
            .collect();
        if show {
            while !handles
                .iter()
                .all(std::thread::ScopedJoinHandle::is_finished)
            {
                let n = done.load(Ordering::Relaxed);
                eprint!("\r{label}: {n}/{runs} games");
                let _ = std::io::stderr().flush();
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            eprint!("\r{label}: {runs}/{runs} games\n");
        }
        let mut all = Vec::with_capacity(runs as usize);
        for h in handles {
            match h.join() {
                Ok(Ok(played)) => all.extend(played),
                Ok(Err(m)) => return Err(Failure::Rules(m)),
                Err(_) => return Err(Failure::Rules("a simulation thread failed".to_owned())),
            }
        }
        all.sort_unstable_by_key(|(run, _)| *run);
        Ok(all.into_iter().map(|(_, r)| r).collect::<Vec<_>>())
    })?;
    if let Some(m) = results.iter().find_map(|r| r.failed.clone()) {
        return Err(Failure::Rules(m));
    }
    Ok(results)
}

/// A mean with its 95% confidence half-width (1.96·sd/√n).
#[derive(Clone, Copy, Debug, Serialize)]
struct Estimate {
    mean: f64,
    ci95: f64,
}

fn estimate(values: impl Iterator<Item = f64>) -> Estimate {
    let v: Vec<f64> = values.collect();
    let n = v.len() as f64;
    if v.is_empty() {
        return Estimate {
            mean: 0.0,
            ci95: 0.0,
        };
    }
    let mean = v.iter().sum::<f64>() / n;
    let var = if v.len() > 1 {
        v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    Estimate {
        mean: round4(mean),
        ci95: round4(1.96 * var.sqrt() / n.sqrt()),
    }
}

/// Rounded to 4 decimals so the JSON is short and stable.
fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

#[derive(Debug, Serialize)]
struct PieceSummary {
    piece: String,
    side: String,
    #[serde(rename = "type")]
    kind: String,
    removed: f64,
    counters: BTreeMap<String, Estimate>,
    flags: BTreeMap<String, f64>,
    places: Vec<(String, f64)>,
}

#[derive(Debug, Serialize)]
struct SideSummary {
    side: String,
    pieces: usize,
    lost: Estimate,
}

#[derive(Debug, Serialize)]
struct ActionSummary {
    piece: String,
    action: String,
    /// Times the action's chart was rolled, over all games.
    rolls: u32,
    /// Outcome → (count, share of rolls).
    outcomes: BTreeMap<String, (u32, f64)>,
}

#[derive(Debug, Serialize)]
struct RefusedSummary {
    /// 1-based position in the orders file.
    order: usize,
    line: u32,
    /// Games in which it was refused.
    games: u32,
    /// The first reason given.
    reason: String,
}

#[derive(Debug, Serialize)]
struct SimSummary {
    scenario: String,
    ruleset: String,
    ruleset_hash: String,
    runs: u32,
    seed: u64,
    refused: Vec<RefusedSummary>,
    pieces: Vec<PieceSummary>,
    sides: Vec<SideSummary>,
    actions: Vec<ActionSummary>,
}

fn summarise(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seed: u64,
    results: &[RunResult],
) -> Result<SimSummary, Failure> {
    // A game in its starting position names pieces, sides, counters and flags.
    let mut hooks = hooks_for(&s.ruleset)?;
    let game = s.start(Some(seed), &[], hooks.as_mut())?;
    let rules = game.rules();
    let n = results.len().max(1) as f64;
    let share = |k: usize| round4(k as f64 / n);
    let mut pieces = Vec::new();
    for (i, p) in game.state().pieces.iter().enumerate() {
        let ends: Vec<&PieceEnd> = results.iter().filter_map(|r| r.pieces.get(i)).collect();
        let mut counters = BTreeMap::new();
        for (c, def) in rules.counters.iter().enumerate() {
            counters.insert(
                def.name.clone(),
                estimate(
                    ends.iter()
                        .map(|e| f64::from(e.counters.get(c).copied().unwrap_or(0))),
                ),
            );
        }
        let mut flags = BTreeMap::new();
        for (f, def) in rules.flags.iter().enumerate() {
            let set = ends
                .iter()
                .filter(|e| f < 64 && e.flags & (1u64 << f) != 0)
                .count();
            flags.insert(def.name.clone(), share(set));
        }
        let mut places: BTreeMap<String, usize> = BTreeMap::new();
        for e in &ends {
            *places
                .entry(
                    e.place
                        .clone()
                        .unwrap_or_else(|| "off the board".to_owned()),
                )
                .or_default() += 1;
        }
        let mut places: Vec<(String, usize)> = places.into_iter().collect();
        places.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        pieces.push(PieceSummary {
            piece: p.name.clone(),
            side: game
                .sides()
                .get(p.side.0 as usize)
                .map_or_else(String::new, |d| d.name.clone()),
            kind: rules
                .piece_type(p.kind)
                .map_or_else(String::new, |t| t.name.clone()),
            removed: share(ends.iter().filter(|e| !e.on_board).count()),
            counters,
            flags,
            places: places
                .into_iter()
                .take(3)
                .map(|(c, k)| (c, share(k)))
                .collect(),
        });
    }
    let sides = game
        .sides()
        .iter()
        .enumerate()
        .map(|(si, d)| {
            let own: Vec<usize> = game
                .state()
                .pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| p.side.0 as usize == si)
                .map(|(i, _)| i)
                .collect();
            SideSummary {
                side: d.name.clone(),
                pieces: own.len(),
                lost: estimate(results.iter().map(|r| {
                    own.iter()
                        .filter(|&&i| r.pieces.get(i).is_some_and(|e| !e.on_board))
                        .count() as f64
                })),
            }
        })
        .collect();
    let mut actions: Vec<ActionSummary> = Vec::new();
    for r in results {
        for (piece, action, outcome) in &r.outcomes {
            let name = game
                .state()
                .pieces
                .get(*piece)
                .map_or_else(|| format!("#{piece}"), |p| p.name.clone());
            let pos = actions
                .iter()
                .position(|a| a.piece == name && a.action == *action)
                .unwrap_or_else(|| {
                    actions.push(ActionSummary {
                        piece: name.clone(),
                        action: action.clone(),
                        rolls: 0,
                        outcomes: BTreeMap::new(),
                    });
                    actions.len() - 1
                });
            actions[pos].rolls += 1;
            actions[pos].outcomes.entry(outcome.clone()).or_default().0 += 1;
        }
    }
    for a in &mut actions {
        let rolls = f64::from(a.rolls.max(1));
        for v in a.outcomes.values_mut() {
            v.1 = round4(f64::from(v.0) / rolls);
        }
    }
    let mut refused: Vec<RefusedSummary> = Vec::new();
    for r in results {
        for (i, reason) in &r.refused {
            match refused.iter_mut().find(|x| x.order == i + 1) {
                Some(x) => x.games += 1,
                None => refused.push(RefusedSummary {
                    order: i + 1,
                    line: orders.get(*i).map_or(0, |o| o.location.line),
                    games: 1,
                    reason: reason.clone(),
                }),
            }
        }
    }
    refused.sort_by_key(|x| x.order);
    Ok(SimSummary {
        scenario: load::display(&s.path),
        ruleset: rules.identity.name.clone(),
        ruleset_hash: rules.identity.hash.clone(),
        runs: u32::try_from(results.len()).unwrap_or(u32::MAX),
        seed,
        refused,
        pieces,
        sides,
        actions,
    })
}

fn simulate(
    args: &SimArgs<'_>,
    ruleset: Option<&Path>,
    orders: &[Located<OrderSpec>],
    threads: usize,
) -> Result<SimSummary, Failure> {
    let s = load::load_scenario(args.scenario, ruleset)?;
    let seed = args.seed.unwrap_or(s.compiled.setup.seed);
    let label = s.ruleset.rules.identity.name.clone();
    let results = play_many(&s, orders, seed, args.runs, threads, &label)?;
    summarise(&s, orders, seed, &results)
}

/// `grognard sim`: the same orders over `runs` seeds, summarised.
pub(crate) fn sim(args: &SimArgs<'_>) -> Outcome {
    if args.runs == 0 || args.runs > MAX_RUNS {
        return Err(Failure::Usage(format!(
            "--runs {}: expected 1 to {MAX_RUNS}",
            args.runs
        )));
    }
    if args.threads == Some(0) {
        return Err(Failure::Usage("--threads must be at least 1".to_owned()));
    }
    let orders = load::load_orders(args.orders)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let a = simulate(args, None, &orders, threads)?;
    let b = match args.other {
        Some(path) => Some(simulate(args, Some(path), &orders, threads)?),
        None => None,
    };
    if args.json {
        match &b {
            Some(b) => print_json(&json!({ "a": a, "b": b })),
            None => print_json(&json!(a)),
        }
        return Ok(());
    }
    match &b {
        None => print_summary(&a),
        Some(b) => print_comparison(&a, b),
    }
    Ok(())
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn est(e: Estimate) -> String {
    format!("{:.2} ± {:.2}", e.mean, e.ci95)
}

fn print_summary(s: &SimSummary) {
    out!(
        "{} games of {} with ruleset {} (seeds {}..{}); means with 95% intervals",
        s.runs,
        s.scenario,
        s.ruleset,
        s.seed,
        run_seed(s.seed, s.runs.saturating_sub(1))
    );
    print_refused(s);
    out!("pieces:");
    for p in &s.pieces {
        let mut parts = Vec::new();
        for (name, e) in &p.counters {
            parts.push(format!("{name} {}", est(*e)));
        }
        for (name, f) in &p.flags {
            if *f > 0.0 {
                parts.push(format!("{name} {}", pct(*f)));
            }
        }
        if p.removed > 0.0 {
            parts.push(format!("removed {}", pct(p.removed)));
        }
        let places: Vec<String> = p
            .places
            .iter()
            .map(|(c, f)| format!("{c} {}", pct(*f)))
            .collect();
        out!(
            "  {:<6} {:<5} {:<12} {}; ends at {}",
            p.piece,
            p.side,
            p.kind,
            parts.join(", "),
            places.join(", ")
        );
    }
    out!("sides:");
    for d in &s.sides {
        out!(
            "  {:<6} lost {} of {} piece{}",
            d.side,
            est(d.lost),
            d.pieces,
            if d.pieces == 1 { "" } else { "s" }
        );
    }
    if !s.actions.is_empty() {
        out!("actions:");
        for a in &s.actions {
            let o: Vec<String> = a
                .outcomes
                .iter()
                .map(|(name, (_, f))| format!("{name} {}", pct(*f)))
                .collect();
            out!(
                "  {} {}: {} rolls; {}",
                a.piece,
                a.action,
                a.rolls,
                o.join(", ")
            );
        }
    }
}

fn print_refused(s: &SimSummary) {
    for r in &s.refused {
        out!(
            "  order {} (line {}) refused in {} of {} games: {}",
            r.order,
            r.line,
            r.games,
            s.runs,
            r.reason
        );
    }
}

fn print_comparison(a: &SimSummary, b: &SimSummary) {
    out!(
        "{} games of {} each (seeds {}..{}): {} vs {}; means with 95% intervals",
        a.runs,
        a.scenario,
        a.seed,
        run_seed(a.seed, a.runs.saturating_sub(1)),
        a.ruleset,
        b.ruleset
    );
    for s in [a, b] {
        if !s.refused.is_empty() {
            out!("refused with {}:", s.ruleset);
            print_refused(s);
        }
    }
    out!(
        "  {:<24} {:>16} {:>16} {:>8}",
        "",
        a.ruleset,
        b.ruleset,
        "change"
    );
    let row = |what: String, x: Estimate, y: Estimate| {
        if x.mean == 0.0 && y.mean == 0.0 && x.ci95 == 0.0 && y.ci95 == 0.0 {
            return;
        }
        // Significant when the intervals do not overlap.
        let mark = if (x.mean - y.mean).abs() > x.ci95 + y.ci95 {
            " *"
        } else {
            ""
        };
        out!(
            "  {:<24} {:>16} {:>16} {:>+8.2}{mark}",
            what,
            est(x),
            est(y),
            y.mean - x.mean
        );
    };
    for p in &a.pieces {
        let Some(q) = b.pieces.iter().find(|q| q.piece == p.piece) else {
            continue;
        };
        for (name, x) in &p.counters {
            if let Some(y) = q.counters.get(name) {
                row(format!("{} {name}", p.piece), *x, *y);
            }
        }
        let removed = |f: f64| Estimate {
            mean: f,
            ci95: round4(1.96 * (f * (1.0 - f) / f64::from(a.runs.max(1))).sqrt()),
        };
        if p.removed > 0.0 || q.removed > 0.0 {
            row(
                format!("{} removed", p.piece),
                removed(p.removed),
                removed(q.removed),
            );
        }
        let pa = p.places.first().map_or("?", |x| x.0.as_str());
        let pb = q.places.first().map_or("?", |x| x.0.as_str());
        if pa != pb {
            out!(
                "  {:<24} {:>16} {:>16}",
                format!("{} mostly at", p.piece),
                pa,
                pb
            );
        }
    }
    for x in &a.actions {
        let Some(y) = b
            .actions
            .iter()
            .find(|y| y.piece == x.piece && y.action == x.action)
        else {
            continue;
        };
        for (outcome, (_, p)) in &x.outcomes {
            let q = y.outcomes.get(outcome).map_or(0.0, |o| o.1);
            let rate = |p: f64, n: u32| Estimate {
                mean: p,
                ci95: round4(1.96 * (p * (1.0 - p) / f64::from(n.max(1))).sqrt()),
            };
            row(
                format!("{} {} {outcome}", x.piece, x.action),
                rate(*p, x.rolls),
                rate(q, y.rolls),
            );
        }
    }
    for d in &a.sides {
        if let Some(e) = b.sides.iter().find(|e| e.side == d.side) {
            row(format!("{} pieces lost", d.side), d.lost, e.lost);
        }
    }
    out!("(* the 95% intervals do not overlap)");
}

// ---------------------------------------------------------------------------------------
// sheet

/// `grognard sheet RULESET --out FILE.html`.
pub(crate) fn sheet(ruleset: &Path, out: &Path) -> Outcome {
    let r = load::load_ruleset(ruleset)?;
    let base = match r.layers.len() {
        0 | 1 => None,
        n => match r.layers.get(n - 2) {
            Some(p) => Some(load::load_ruleset(p)?),
            None => None,
        },
    };
    let html = grognard_rules::sheet::render(&r, base.as_ref());
    std::fs::write(out, html).map_err(|e| {
        Failure::Rules(format!(
            "{}: cannot write the sheet: {e}",
            load::display(out)
        ))
    })?;
    out!(
        "wrote {} (ruleset {}{})",
        load::display(out),
        r.rules.identity.name,
        base.as_ref().map_or_else(String::new, |b| format!(
            ", changes from {} marked",
            b.rules.identity.name
        ))
    );
    Ok(())
}
