//! `grognard tune`: the smallest change to a ruleset that brings a side's win rate to a
//! target. The designer names the numbers that may move (`--vary`: a chart row's score, a
//! modifier, an attribute or allowance, a setting — see [`item`]); every candidate is
//! written as a house-rule overlay of the scenario's ruleset and played over the same seeds
//! (common random numbers, so candidates differ by their rules, not their dice) with
//! `sim`'s own machinery.
//!
//! The search assumes the win rate moves one way as an item moves (a better score for a
//! side, more wins for it). For each item it measures the two ends of the item's range,
//! then halves the stretch where the target lies until it holds the step where the rate
//! crosses it, then walks back towards the ruleset's value while the rate still meets the
//! target (within the candidate's 95% interval). The item that meets the target in the
//! fewest steps wins; when no item does alone, the one that came closest is set and the
//! others are searched again from there. It only ever reports what it measured.
//!
//! `--grid` tries every combination instead (what the search is measured against), and
//! `--shard I/N --out PART.json` plays a shard of the grid's games; `tune-merge` adds the
//! parts up, exactly, into the answer one machine's `--grid` gives.

pub(crate) mod item;

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use grognard_play::tally::{Estimate, Moments};
use grognard_rules::load;
use grognard_rules::node::Node;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::common::{Failure, Outcome, print_json};
use crate::sim::{Shard, play_many, seats_for};
use item::{Halves, Item, overlay_text};

/// What `grognard tune` was asked.
pub(crate) struct TuneArgs<'a> {
    pub scenario: &'a Path,
    /// `SIDE=RATE`.
    pub target: &'a str,
    pub vary: &'a [String],
    pub policies: &'a [String],
    pub runs: u32,
    pub seed: Option<u64>,
    pub threads: Option<usize>,
    pub grid: bool,
    pub shard: Option<&'a str>,
    /// The tuned overlay (or, with `--shard`, the part file).
    pub out: Option<&'a Path>,
    pub json: bool,
}

/// One candidate measured: its values (one per item, in halves) and the side's wins over
/// the games that ended with a result.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Measured {
    values: Vec<Halves>,
    wins: Moments,
}

impl Measured {
    fn rate(&self) -> Estimate {
        self.wins.estimate()
    }
}

/// Everything a run needs, loaded once.
struct Setup {
    scenario: PathBuf,
    ruleset: PathBuf,
    tree: Node,
    name: String,
    items: Vec<Item>,
    side: usize,
    side_name: String,
    target: f64,
    seed: u64,
    runs: u32,
    policies: Vec<String>,
    threads: usize,
    /// Where candidate overlays are written (removed at the end).
    scratch: PathBuf,
}

/// A run's candidates so far, by their values.
#[derive(Default)]
struct Book {
    measured: BTreeMap<Vec<Halves>, Measured>,
    /// Candidates in the order they were tried.
    order: Vec<Vec<Halves>>,
    games: u64,
}

impl Setup {
    fn load(args: &TuneArgs<'_>) -> Result<Self, Failure> {
        let s = load::load_scenario(args.scenario, None)?;
        let (side_name, rate) = args.target.split_once('=').ok_or_else(|| {
            Failure::Usage(format!(
                "--target {}: expected SIDE=RATE, e.g. blue=0.5 or blue=50%",
                args.target
            ))
        })?;
        let sides = grognard_play::tally::side_names(&s);
        let side = sides.iter().position(|n| n == side_name).ok_or_else(|| {
            Failure::Usage(format!(
                "--target {}: no side `{side_name}` in this scenario (its sides: {})",
                args.target,
                sides.join(", ")
            ))
        })?;
        let target = parse_rate(rate).ok_or_else(|| {
            Failure::Usage(format!(
                "--target {}: expected a win rate between 0 and 1 (0.5) or a percentage (50%)",
                args.target
            ))
        })?;
        if args.vary.is_empty() {
            return Err(Failure::Usage(
                "give at least one --vary PATH[=LO..HI] (e.g. --vary charts.volley.rows.0.score=6..10)"
                    .to_owned(),
            ));
        }
        if args.runs < 2 {
            return Err(Failure::Usage(
                "--runs: at least 2 games a candidate are needed for an interval".to_owned(),
            ));
        }
        let ruleset = s.ruleset.path.clone();
        let tree = load::ruleset_tree(&ruleset)?;
        let items = args
            .vary
            .iter()
            .map(|v| Item::parse(v, &tree))
            .collect::<Result<Vec<_>, _>>()?;
        // Seats are checked now, so a bad policy is one clear error before any game.
        seats_for(&s, args.policies)?;
        let scratch = std::env::temp_dir().join(format!(
            "grognard-tune-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos())
        ));
        std::fs::create_dir_all(&scratch)
            .map_err(|e| Failure::Rules(format!("cannot make a folder for the candidates: {e}")))?;
        Ok(Self {
            scenario: args.scenario.to_path_buf(),
            ruleset,
            tree,
            name: s.ruleset.rules.identity.name.clone(),
            items,
            side,
            side_name: side_name.to_owned(),
            target,
            seed: args.seed.unwrap_or(s.compiled.setup.seed),
            runs: args.runs,
            policies: args.policies.to_vec(),
            threads: args.threads.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
            }),
            scratch,
        })
    }

    fn current(&self) -> Vec<Halves> {
        self.items.iter().map(|i| i.current).collect()
    }

    /// Plays the candidate's games (its shard of them) and counts the side's wins.
    fn play(&self, values: &[Halves], shard: Shard) -> Result<Moments, Failure> {
        let abs = std::fs::canonicalize(&self.ruleset).unwrap_or_else(|_| self.ruleset.clone());
        let text = overlay_text(
            &self.tree,
            &format!("{}-tuned", self.name),
            &abs.to_string_lossy(),
            &self.items,
            values,
            "a candidate of grognard tune",
        );
        let path = self.scratch.join("candidate.yaml");
        std::fs::write(&path, text)
            .map_err(|e| Failure::Rules(format!("cannot write a candidate: {e}")))?;
        let s = load::load_scenario(&self.scenario, Some(&path)).map_err(|d| {
            Failure::Rules(format!(
                "the candidate {} does not load: {d}",
                self.describe(values)
            ))
        })?;
        let seats = seats_for(&s, &self.policies)?;
        let (tally, _) = play_many(
            &s,
            &[],
            &seats,
            (self.seed, self.runs, shard),
            self.threads,
            "",
            true,
        )?;
        Ok(tally.wins.get(self.side).copied().unwrap_or_default())
    }

    fn describe(&self, values: &[Halves]) -> String {
        let changed: Vec<String> = self
            .items
            .iter()
            .zip(values)
            .filter(|(i, v)| **v != i.current)
            .map(|(i, v)| format!("{} {} → {}", i.path, i.text(i.current), i.text(*v)))
            .collect();
        if changed.is_empty() {
            "the ruleset as it is".to_owned()
        } else {
            changed.join(", ")
        }
    }

    /// Steps from the ruleset's values, over all items.
    fn distance(&self, values: &[Halves]) -> usize {
        self.items
            .iter()
            .zip(values)
            .map(|(i, v)| i.steps(*v))
            .sum()
    }

    fn meets(&self, m: &Measured) -> bool {
        let r = m.rate();
        m.wins.n > 0 && (r.mean - self.target).abs() <= r.ci95
    }

    fn miss(&self, m: &Measured) -> f64 {
        (m.rate().mean - self.target).abs()
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// A progress line on a terminal: candidates tried and the best so far.
struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    fn new(json: bool) -> Self {
        let show = !json && std::io::stderr().is_terminal();
        Self(show.then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            bar
        }))
    }

    fn tell(&self, text: String) {
        if let Some(bar) = &self.0 {
            bar.set_message(text);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl Book {
    fn measure(
        &mut self,
        setup: &Setup,
        values: &[Halves],
        progress: &Progress,
    ) -> Result<Measured, Failure> {
        if let Some(m) = self.measured.get(values) {
            return Ok(m.clone());
        }
        let wins = setup.play(values, Shard::WHOLE)?;
        self.games += u64::from(setup.runs);
        let m = Measured {
            values: values.to_vec(),
            wins,
        };
        self.measured.insert(values.to_vec(), m.clone());
        self.order.push(values.to_vec());
        if let Some(best) = self.best(setup) {
            progress.tell(format!(
                "{} candidates, {} games; best so far: {} → {} wins {}",
                self.order.len(),
                self.games,
                setup.describe(&best.values),
                setup.side_name,
                best.rate().percent()
            ));
        }
        Ok(m)
    }

    /// The answer: among the candidates that meet the target, the fewest steps from the
    /// ruleset (then the closest rate, then the first tried); `None` when none does.
    fn best(&self, setup: &Setup) -> Option<&Measured> {
        self.order
            .iter()
            .filter_map(|v| self.measured.get(v))
            .filter(|m| setup.meets(m))
            .min_by(|a, b| {
                setup
                    .distance(&a.values)
                    .cmp(&setup.distance(&b.values))
                    .then(setup.miss(a).total_cmp(&setup.miss(b)))
            })
    }

    /// The candidate whose rate came closest to the target.
    fn closest(&self, setup: &Setup) -> Option<&Measured> {
        self.order
            .iter()
            .filter_map(|v| self.measured.get(v))
            .min_by(|a, b| {
                setup
                    .miss(a)
                    .total_cmp(&setup.miss(b))
                    .then(setup.distance(&a.values).cmp(&setup.distance(&b.values)))
            })
    }
}

/// Searches item `k` from `from` (the other items held where they are); see the module
/// documentation.
fn line_search(
    setup: &Setup,
    book: &mut Book,
    from: &[Halves],
    k: usize,
    progress: &Progress,
) -> Result<(), Failure> {
    let values = setup.items[k].values.clone();
    let at = |i: usize| {
        let mut v = from.to_vec();
        v[k] = values[i];
        v
    };
    let here = values.iter().position(|v| *v == from[k]).unwrap_or(0);
    let rate_at = |book: &mut Book, i: usize| -> Result<f64, Failure> {
        Ok(book.measure(setup, &at(i), progress)?.rate().mean)
    };
    let r_here = rate_at(book, here)?;
    let target = setup.target;
    // Each end of the range, and the stretch between here and the end the target lies
    // towards.
    let last = values.len() - 1;
    let mut searched = false;
    for end in [0, last] {
        // The rate moves one way: once the target is found towards one end, the other
        // end cannot hold it.
        if end == here || searched {
            continue;
        }
        let r_end = rate_at(book, end)?;
        if (r_end - target) * (r_here - target) > 0.0 {
            continue;
        }
        searched = true;
        // The target lies between here and this end: halve the stretch.
        let (mut near, mut far) = (here, end);
        while near.abs_diff(far) > 1 {
            let mid = usize::midpoint(near, far);
            let r_mid = rate_at(book, mid)?;
            if (r_mid - target) * (r_here - target) > 0.0 {
                near = mid;
            } else {
                far = mid;
            }
        }
        // Walk back towards here while a step closer still meets the target.
        let step_back = |i: usize| if end > here { i - 1 } else { i + 1 };
        let mut i = far;
        while i != here {
            let j = step_back(i);
            let m = book.measure(setup, &at(j), progress)?;
            if !setup.meets(&m) {
                break;
            }
            i = j;
        }
    }
    Ok(())
}

fn search(setup: &Setup, book: &mut Book, progress: &Progress) -> Result<(), Failure> {
    let start = setup.current();
    let base = book.measure(setup, &start, progress)?;
    if setup.meets(&base) {
        return Ok(());
    }
    for k in 0..setup.items.len() {
        line_search(setup, book, &start, k, progress)?;
    }
    // No single item reaches the target: set the one that came closest and search the
    // others from there, a round at most per item.
    for _ in 1..setup.items.len() {
        if book.best(setup).is_some() {
            break;
        }
        let Some(closest) = book.closest(setup).map(|m| m.values.clone()) else {
            break;
        };
        for k in 0..setup.items.len() {
            if closest[k] == start[k] {
                line_search(setup, book, &closest, k, progress)?;
            }
        }
    }
    Ok(())
}

/// Every combination of the items' values (at most 10,000).
fn grid(setup: &Setup) -> Result<Vec<Vec<Halves>>, Failure> {
    let count: usize = setup
        .items
        .iter()
        .map(|i| i.values.len())
        .try_fold(1usize, usize::checked_mul)
        .unwrap_or(usize::MAX);
    if count > 10_000 {
        return Err(Failure::Usage(format!(
            "--grid: {count} combinations is too many (at most 10,000): narrow the ranges"
        )));
    }
    let mut all = vec![Vec::new()];
    for item in &setup.items {
        all = all
            .into_iter()
            .flat_map(|v: Vec<Halves>| {
                item.values.iter().map(move |x| {
                    let mut w = v.clone();
                    w.push(*x);
                    w
                })
            })
            .collect();
    }
    Ok(all)
}

/// The part file a shard of `tune --grid` writes.
#[derive(Serialize, Deserialize)]
struct TunePart {
    format: String,
    scenario: String,
    scenario_hash: String,
    ruleset_hash: String,
    target: String,
    vary: Vec<String>,
    policies: Vec<String>,
    seed: u64,
    runs: u32,
    shard: Shard,
    candidates: Vec<Measured>,
}

const TUNE_PART_FORMAT: &str = "grognard-tune-part-1";

/// `grognard tune`.
pub(crate) fn tune(args: &TuneArgs<'_>) -> Outcome {
    if args.threads == Some(0) {
        return Err(Failure::Usage("--threads must be at least 1".to_owned()));
    }
    let shard = args
        .shard
        .map(Shard::parse)
        .transpose()
        .map_err(Failure::Usage)?;
    if shard.is_some() && args.out.is_none() {
        return Err(Failure::Usage(
            "--shard needs --out PART.json: the parts are added up by `grognard tune-merge`"
                .to_owned(),
        ));
    }
    let setup = Setup::load(args)?;
    let progress = Progress::new(args.json);
    let mut book = Book::default();
    if let Some(shard) = shard {
        let s = load::load_scenario(args.scenario, None)?;
        let mut candidates = Vec::new();
        for values in grid(&setup)? {
            let wins = setup.play(&values, shard)?;
            candidates.push(Measured { values, wins });
            progress.tell(format!("{} candidates of the grid", candidates.len()));
        }
        let part = TunePart {
            format: TUNE_PART_FORMAT.to_owned(),
            scenario: load::display(args.scenario),
            scenario_hash: s.hash.clone(),
            ruleset_hash: s.ruleset.rules.identity.hash.clone(),
            target: args.target.to_owned(),
            vary: args.vary.to_vec(),
            policies: args.policies.to_vec(),
            seed: setup.seed,
            runs: setup.runs,
            shard,
            candidates,
        };
        let out = args.out.unwrap_or_else(|| Path::new("part.json"));
        let text = serde_json::to_string(&part)
            .map_err(|e| Failure::Rules(format!("cannot write the part: {e}")))?;
        std::fs::write(out, text).map_err(|e| {
            Failure::Rules(format!(
                "{}: cannot write the part: {e}",
                load::display(out)
            ))
        })?;
        if !args.json {
            out!(
                "shard {}/{}: {} candidates × {} of {} games tallied in {}",
                shard.index + 1,
                shard.count,
                part.candidates.len(),
                shard.len(setup.runs),
                setup.runs,
                load::display(out)
            );
        }
        return Ok(());
    }
    if args.grid {
        for values in grid(&setup)? {
            book.measure(&setup, &values, &progress)?;
        }
    } else {
        search(&setup, &mut book, &progress)?;
    }
    drop(progress);
    finish(&setup, &book, args.grid, args.out, args.json)
}

/// Reports the answer and writes the overlay.
fn finish(setup: &Setup, book: &Book, grid: bool, out: Option<&Path>, json: bool) -> Outcome {
    let best = book.best(setup);
    let closest = book.closest(setup);
    let base = book.measured.get(&setup.current());
    let mut wrote = None;
    if let (Some(out), Some(b)) = (out, best.or(closest)) {
        let extends = grognard_rules::save::relative_to(out, &setup.ruleset);
        let r = b.rate();
        let comment = format!(
            "Tuned by grognard tune: {} wins {} (target {}) over {} games of {} (seeds {}..{}).",
            setup.side_name,
            r.percent(),
            pct(setup.target),
            setup.runs,
            load::display(&setup.scenario),
            setup.seed,
            grognard_play::tally::run_seed(setup.seed, setup.runs - 1)
        );
        let text = overlay_text(
            &setup.tree,
            &format!("{}-tuned", setup.name),
            &extends,
            &setup.items,
            &b.values,
            &comment,
        );
        std::fs::write(out, text).map_err(|e| {
            Failure::Rules(format!(
                "{}: cannot write the overlay: {e}",
                load::display(out)
            ))
        })?;
        wrote = Some(load::display(out));
    }
    let values = |v: &[Halves]| -> serde_json::Value {
        setup
            .items
            .iter()
            .zip(v)
            .map(|(i, x)| (i.path.clone(), json!(i.text(*x))))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let entry = |m: &Measured| {
        json!({
            "values": values(&m.values),
            "change": setup.describe(&m.values),
            "steps": setup.distance(&m.values),
            "rate": m.rate(),
            "decided": m.wins.n,
            "meets": setup.meets(m),
        })
    };
    if json {
        print_json(&json!({
            "scenario": load::display(&setup.scenario),
            "side": setup.side_name,
            "target": setup.target,
            "search": if grid { "grid" } else { "bisection" },
            "runs": setup.runs,
            "seed": setup.seed,
            "baseline": base.map(entry),
            "tried": book.order.iter().filter_map(|v| book.measured.get(v)).map(entry).collect::<Vec<_>>(),
            "games": book.games,
            "reached": best.is_some(),
            "best": best.map(entry),
            "closest": closest.map(entry),
            "out": wrote,
        }));
        return Ok(());
    }
    out!(
        "tune {}'s win rate to {} on {}: {} games a candidate (seeds {}..{}), the same for every candidate",
        setup.side_name,
        pct(setup.target),
        load::display(&setup.scenario),
        setup.runs,
        setup.seed,
        grognard_play::tally::run_seed(setup.seed, setup.runs - 1)
    );
    if let Some(b) = base {
        out!("  now: {} wins {}", setup.side_name, b.rate().percent());
    }
    for m in book.order.iter().filter_map(|v| book.measured.get(v)) {
        out!(
            "  {:<44} {:>14}{}",
            setup.describe(&m.values),
            m.rate().percent(),
            if setup.meets(m) {
                "  meets the target"
            } else {
                ""
            }
        );
    }
    out!(
        "{} candidates, {} games{}",
        book.order.len(),
        book.games,
        if grid { " (the whole grid)" } else { "" }
    );
    match (best, closest) {
        (Some(b), _) => out!(
            "smallest change: {}, with which {} wins {}: {} is within its 95% interval",
            setup.describe(&b.values),
            setup.side_name,
            b.rate().percent(),
            pct(setup.target)
        ),
        (None, Some(c)) => out!(
            "no candidate reaches {} within its interval; closest: {} → {} wins {}",
            pct(setup.target),
            setup.describe(&c.values),
            setup.side_name,
            c.rate().percent()
        ),
        (None, None) => out!("no candidate was measured"),
    }
    if let Some(w) = wrote {
        out!(
            "wrote {w}: `grognard diff {} {w}` explains it, `grognard sim {} --ruleset {w} ...` confirms it",
            load::display(&setup.ruleset),
            load::display(&setup.scenario)
        );
    }
    Ok(())
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn parse_rate(text: &str) -> Option<f64> {
    let text = text.trim();
    let x = match text.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().ok()? / 100.0,
        None => text.parse::<f64>().ok()?,
    };
    (x.is_finite() && (0.0..=1.0).contains(&x)).then_some(x)
}

/// `grognard tune-merge PART.json...`: the grid's parts added up, and its answer.
pub(crate) fn merge(parts: &[PathBuf], out: Option<&Path>, json: bool) -> Outcome {
    let mut read = Vec::new();
    for path in parts {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Failure::Rules(format!(
                "{}: cannot read the part: {e}",
                load::display(path)
            ))
        })?;
        let part: TunePart = serde_json::from_str(&text).map_err(|e| {
            Failure::Rules(format!(
                "{}: not a part of `grognard tune --shard` ({e})",
                load::display(path)
            ))
        })?;
        if part.format != TUNE_PART_FORMAT {
            return Err(Failure::Rules(format!(
                "{}: format `{}`, expected `{TUNE_PART_FORMAT}`",
                load::display(path),
                part.format
            )));
        }
        read.push((path, part));
    }
    let Some((_, first)) = read.first() else {
        return Err(Failure::Usage("give the part files to merge".to_owned()));
    };
    let count = first.shard.count;
    let mut seen = vec![false; count as usize];
    for (path, p) in &read {
        let same = p.scenario_hash == first.scenario_hash
            && p.ruleset_hash == first.ruleset_hash
            && p.target == first.target
            && p.vary == first.vary
            && p.policies == first.policies
            && p.seed == first.seed
            && p.runs == first.runs
            && p.shard.count == count;
        if !same {
            return Err(Failure::Rules(format!(
                "{}: a part of another run (its scenario, ruleset, target, items, policies, seed, runs or shard count differ from {})",
                load::display(path),
                load::display(read[0].0)
            )));
        }
        let slot = seen.get_mut(p.shard.index as usize);
        match slot {
            Some(s) if !*s => *s = true,
            _ => {
                return Err(Failure::Rules(format!(
                    "{}: shard {}/{} is given twice",
                    load::display(path),
                    p.shard.index + 1,
                    count
                )));
            }
        }
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(Failure::Rules(format!(
            "shard {}/{count} is missing: every shard's part is needed",
            missing + 1
        )));
    }
    let scenario = PathBuf::from(&first.scenario);
    let args = TuneArgs {
        scenario: &scenario,
        target: &first.target,
        vary: &first.vary,
        policies: &first.policies,
        runs: first.runs,
        seed: Some(first.seed),
        threads: Some(1),
        grid: true,
        shard: None,
        out,
        json,
    };
    let setup = Setup::load(&args)?;
    let mut book = Book::default();
    for (_, p) in &read {
        for c in &p.candidates {
            if let Some(m) = book.measured.get_mut(&c.values) {
                m.wins.merge(&c.wins);
            } else {
                book.order.push(c.values.clone());
                book.measured.insert(c.values.clone(), c.clone());
            }
        }
    }
    book.games = u64::from(first.runs) * book.order.len() as u64;
    finish(&setup, &book, true, out, json)
}
