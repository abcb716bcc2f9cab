//! `grognard tune`: the smallest change to a ruleset that brings a side's win rate to a
//! target. The search, the items and the overlays are `grognard_play::tune`'s (the editor's
//! Tune panel runs the same); this module loads the scenario, plays each candidate with
//! `sim`'s own machinery (its overlay written to a scratch folder, its games over the same
//! seeds on `sim`'s threads), shows a spinner, and prints and writes the answer.
//!
//! `--grid` tries every combination instead (what the search is measured against), and
//! `--shard I/N --out PART.json` plays a shard of the grid's games; `tune-merge` adds the
//! parts up, exactly, into the answer one machine's `--grid` gives.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use grognard_play::tally::Moments;
use grognard_play::tune::{Book, Candidates, Halves, Item, Measured, Tuner};
use grognard_rules::load;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::common::{Failure, Outcome, print_json};
use crate::sim::{Shard, play_many, seats_for};

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

impl<'a> TuneArgs<'a> {
    /// What the command line's `tune` flags ask.
    pub(crate) fn of(f: &'a crate::cli::TuneFlags) -> Self {
        TuneArgs {
            scenario: &f.scenario,
            target: &f.target,
            vary: &f.vary,
            policies: &f.policy,
            runs: f.runs,
            seed: f.seed,
            threads: f.threads,
            grid: f.grid,
            shard: f.shard.as_deref(),
            out: f.out.as_deref(),
            json: f.json,
        }
    }
}

/// Everything a run needs, loaded once.
struct Setup {
    scenario: PathBuf,
    ruleset: PathBuf,
    tuner: Tuner,
    seed: u64,
    policies: Vec<String>,
    threads: usize,
    /// Where candidate overlays are written (removed at the end).
    scratch: PathBuf,
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
            .map(|v| {
                Item::parse(v, &tree).map_err(|why| Failure::Usage(format!("--vary {v}: {why}")))
            })
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
        let mut setup = Self {
            scenario: args.scenario.to_path_buf(),
            ruleset,
            tuner: Tuner {
                tree,
                name: s.ruleset.rules.identity.name.clone(),
                items,
                side,
                side_name: side_name.to_owned(),
                target,
                runs: args.runs,
            },
            seed: args.seed.unwrap_or(s.compiled.setup.seed),
            policies: args.policies.to_vec(),
            threads: args.threads.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
            }),
            scratch,
        };
        setup.check_ends(args.vary)?;
        Ok(setup)
    }

    /// Each item's ends, alone, must load before any game is played: a default range drops
    /// the values at its ends that do not load; an explicit range that holds one is refused
    /// in words (the loader's reason, naming no scratch file).
    fn check_ends(&mut self, specs: &[String]) -> Result<(), Failure> {
        for (i, spec) in specs.iter().enumerate() {
            let explicit = spec.contains('=');
            loop {
                let item = &self.tuner.items[i];
                let (Some(&lo), Some(&hi)) = (item.values.first(), item.values.last()) else {
                    break;
                };
                let mut trimmed = false;
                for end in [lo, hi] {
                    if end == item.current {
                        continue;
                    }
                    let mut values = self.tuner.current();
                    values[i] = end;
                    if let Err(why) = self.load_candidate(&values) {
                        if explicit {
                            return Err(Failure::Usage(format!(
                                "--vary {spec}: at {} the ruleset does not load ({why}); narrow the range",
                                item.text(end)
                            )));
                        }
                        let item = &mut self.tuner.items[i];
                        item.values.retain(|v| *v != end);
                        trimmed = true;
                        break;
                    }
                }
                if !trimmed {
                    break;
                }
            }
        }
        Ok(())
    }

    /// The scenario under the candidate overlay for `values`; why not, in words that name
    /// the overlay as the candidate, never its scratch file.
    fn load_candidate(&self, values: &[Halves]) -> Result<load::Scenario, String> {
        let abs = std::fs::canonicalize(&self.ruleset).unwrap_or_else(|_| self.ruleset.clone());
        let text = self.tuner.overlay(
            &abs.to_string_lossy(),
            values,
            "a candidate of grognard tune",
        );
        let path = self.scratch.join("candidate.yaml");
        std::fs::write(&path, text).map_err(|e| format!("cannot write a candidate: {e}"))?;
        load::load_scenario(&self.scenario, Some(&path)).map_err(|d| {
            let mut text = d.to_string();
            for name in [path.to_string_lossy().into_owned(), load::display(&path)] {
                text = without_place(&text, &name);
            }
            text
        })
    }

    /// Plays the candidate's games (its shard of them) and counts the side's wins.
    fn play(&self, values: &[Halves], shard: Shard) -> Result<Moments, Failure> {
        let s = self.load_candidate(values).map_err(|d| {
            Failure::Rules(format!(
                "the candidate {} does not load: {d}",
                self.tuner.describe(values)
            ))
        })?;
        let seats = seats_for(&s, &self.policies)?;
        let (tally, _) = play_many(
            &s,
            &[],
            &seats,
            (self.seed, self.tuner.runs, shard),
            self.threads,
            "",
            true,
        )?;
        Ok(tally.wins.get(self.tuner.side).copied().unwrap_or_default())
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

/// A whole candidate's games, played on `sim`'s threads, the spinner told of each.
struct Whole<'a> {
    setup: &'a Setup,
    progress: &'a Progress,
}

impl Candidates for Whole<'_> {
    type Error = Failure;

    fn measure(&mut self, values: &[Halves]) -> Result<Moments, Failure> {
        self.setup.play(values, Shard::WHOLE)
    }

    fn measured(&mut self, tuner: &Tuner, book: &Book) {
        if book.best(tuner).is_some() {
            self.progress.tell(book.progress(tuner));
        }
    }
}

/// Every combination of the items' values (at most 10,000).
fn grid(setup: &Setup) -> Result<Vec<Vec<Halves>>, Failure> {
    grognard_play::tune::grid(&setup.tuner.items).map_err(|count| {
        Failure::Usage(format!(
            "--grid: {count} combinations is too many (at most 10,000): narrow the ranges"
        ))
    })
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
    let t = &setup.tuner;
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
            runs: t.runs,
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
                shard.len(t.runs),
                t.runs,
                load::display(out)
            );
        }
        return Ok(());
    }
    let mut play = Whole {
        setup: &setup,
        progress: &progress,
    };
    if args.grid {
        for values in grid(&setup)? {
            book.measure(t, &values, &mut play)?;
        }
    } else {
        grognard_play::tune::search(t, &mut book, &mut play)?;
    }
    drop(progress);
    finish(&setup, &book, args.grid, args.out, args.json)
}

/// Reports the answer and writes the overlay.
fn finish(setup: &Setup, book: &Book, grid: bool, out: Option<&Path>, json: bool) -> Outcome {
    let t = &setup.tuner;
    let best = book.best(t);
    let closest = book.closest(t);
    let base = book.measured.get(&t.current());
    let mut wrote = None;
    if let (Some(out), Some(b)) = (out, best.or(closest)) {
        let extends = grognard_rules::save::relative_to(out, &setup.ruleset);
        let comment = format!(
            "Tuned by grognard tune: {} wins {}, target {}, over {} games of {} (seeds {}..{}).",
            t.side_name,
            b.share().words(),
            pct(t.target),
            t.runs,
            load::display(&setup.scenario),
            setup.seed,
            grognard_play::tally::run_seed(setup.seed, t.runs - 1)
        );
        let text = t.overlay(&extends, &b.values, &comment);
        std::fs::write(out, text).map_err(|e| {
            Failure::Rules(format!(
                "{}: cannot write the overlay: {e}",
                load::display(out)
            ))
        })?;
        wrote = Some(load::display(out));
    }
    let values = |v: &[Halves]| -> serde_json::Value {
        t.items
            .iter()
            .zip(v)
            .map(|(i, x)| (i.path.clone(), json!(i.text(*x))))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let entry = |m: &Measured| {
        json!({
            "values": values(&m.values),
            "change": t.describe(&m.values),
            "steps": t.distance(&m.values),
            "rate": m.rate(),
            "interval": [m.share().lo, m.share().hi],
            "decided": m.wins.n,
            "meets": t.meets(m),
        })
    };
    if json {
        print_json(&json!({
            "scenario": load::display(&setup.scenario),
            "side": t.side_name,
            "target": t.target,
            "search": if grid { "grid" } else { "bisection" },
            "runs": t.runs,
            "seed": setup.seed,
            "baseline": base.map(entry),
            "tried": book.tried().map(entry).collect::<Vec<_>>(),
            "games": book.games,
            "reached": best.is_some(),
            "best": best.map(entry),
            "closest": closest.map(entry),
            "out": wrote,
            "runs_for_5_points": answer_too_wide(t.runs, best.or(closest)),
        }));
        return Ok(());
    }
    out!(
        "tune {}'s win rate to {} on {}: {} games a candidate (seeds {}..{}), the same for every candidate",
        t.side_name,
        pct(t.target),
        load::display(&setup.scenario),
        t.runs,
        setup.seed,
        grognard_play::tally::run_seed(setup.seed, t.runs - 1)
    );
    if let Some(b) = base {
        out!("  now: {} wins {}", t.side_name, b.share().words());
    }
    for m in book.tried() {
        out!(
            "  {:<44} {:>26}{}",
            t.describe(&m.values),
            m.share().words(),
            if t.meets(m) { "  meets the target" } else { "" }
        );
    }
    out!(
        "{} candidate{}, {} games{}",
        book.order.len(),
        if book.order.len() == 1 { "" } else { "s" },
        book.games,
        if grid { " (the whole grid)" } else { "" }
    );
    match (best, closest) {
        (Some(b), _) => out!(
            "smallest change: {}, with which {} wins {}: {} is within its 95% interval",
            t.describe(&b.values),
            t.side_name,
            b.share().words(),
            pct(t.target)
        ),
        (None, Some(c)) => out!(
            "no candidate reaches {} within its interval; closest: {} → {} wins {}",
            pct(t.target),
            t.describe(&c.values),
            t.side_name,
            c.share().words()
        ),
        (None, None) => out!("no candidate was measured"),
    }
    if let (Some(runs), Some(m)) = (answer_too_wide(t.runs, best.or(closest)), best.or(closest)) {
        out!(
            "warning: ± {:.1} points at {} games a candidate is too wide to trust this answer; about {runs} games a candidate (--runs {runs}) give ± 5",
            m.half_width() * 100.0,
            t.runs
        );
    }
    if let Some(w) = wrote {
        out!(
            "wrote {w}: `grognard diff {} {}` explains it; `{}` plays the same games and confirms the rate",
            shell_word(&load::display(&setup.ruleset)),
            shell_word(&w),
            confirm_command(setup, &w)
        );
    }
    Ok(())
}

/// The `grognard sim` command that plays the tuned overlay's games exactly as the tuner
/// measured them: the same policies, games and first seed. Typed as printed, it runs.
fn confirm_command(setup: &Setup, overlay: &str) -> String {
    let mut words = vec![
        "grognard".to_owned(),
        "sim".to_owned(),
        shell_word(&load::display(&setup.scenario)),
        "--ruleset".to_owned(),
        shell_word(overlay),
    ];
    for p in &setup.policies {
        words.push("--policy".to_owned());
        words.push(shell_word(p));
    }
    words.extend([
        "--runs".to_owned(),
        setup.tuner.runs.to_string(),
        "--seed".to_owned(),
        setup.seed.to_string(),
    ]);
    words.join(" ")
}

/// `text` as one word a POSIX shell reads back unchanged: as it is when it holds only
/// characters no shell treats specially, else in single quotes.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// When the answer's 95% interval is too wide to trust, the games a candidate that would
/// narrow it to ±5 points ([`grognard_play::tune::runs_for_5_points`], which the editor's
/// Tune tab shares).
fn answer_too_wide(runs: u32, answer: Option<&Measured>) -> Option<u32> {
    grognard_play::tune::runs_for_5_points(runs, answer?.half_width())
}

/// `text` with each `NAME:LINE:COL: ` (or a bare `NAME`) of the scratch file taken out: the
/// candidate's file is gone when the message is read, and its line means nothing to the
/// designer, who named the item.
fn without_place(text: &str, name: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(name) {
        out.push_str(&rest[..at]);
        let mut tail = &rest[at + name.len()..];
        for _ in 0..2 {
            if let Some(t) = tail.strip_prefix(':') {
                let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                if digits == 0 {
                    break;
                }
                tail = &t[digits..];
            }
        }
        match tail.strip_prefix(": ") {
            Some(t) => tail = t,
            None => out.push_str("the candidate overlay"),
        }
        rest = tail;
    }
    out.push_str(rest);
    out
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
