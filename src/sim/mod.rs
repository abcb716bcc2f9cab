//! `grognard sim`: Monte Carlo over seeds. Each game replays an orders file, is played
//! to its end by policies, or both (the file gives the opening, the policies go on); each
//! thread folds its games into an exact tally, and the tallies add up to the same summary
//! whatever the thread count (the tally is `grognard_play::tally`, which the editor's
//! Simulate tab also reports). `--shard I/N --out PART.json` plays one shard of the runs
//! and writes its tally; `sim-merge` adds the parts up into the summary of the whole run.

mod shard;
mod summary;

use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

use grognard_rules::de::Located;
use grognard_rules::load::{self, Scenario};
use grognard_rules::model::OrderSpec;

use crate::common::{Failure, Outcome, hooks_for};
use grognard_play::policy::{self, PolicyError, Seats};
use grognard_play::tally::{Tally, play_one, run_seed};

pub(crate) use shard::merge;
use shard::{OtherPart, PART_FORMAT, Part, Shard, file_hash};
use summary::{report, summarise};

/// What `grognard sim` was asked.
pub(crate) struct SimArgs<'a> {
    /// Scenario file.
    pub scenario: &'a Path,
    /// Orders file (the opening, when policies go on from it).
    pub orders: Option<&'a Path>,
    /// `--policy` values: `NAME` for every side or `SIDE=NAME` for one.
    pub policies: &'a [String],
    /// Games to play.
    pub runs: u32,
    /// Seed of game 0 (the scenario's when absent).
    pub seed: Option<u64>,
    /// A second ruleset to compare with.
    pub other: Option<&'a Path>,
    /// Worker threads (all cores when absent).
    pub threads: Option<usize>,
    /// `I/N`: play only shard I of N.
    pub shard: Option<&'a str>,
    /// Write the tally here instead of printing the summary.
    pub out: Option<&'a Path>,
    /// Print JSON.
    pub json: bool,
}

/// Plays `runs` games on all cores and tallies them; the tally is the same whatever the
/// thread count.
#[allow(clippy::too_many_arguments)]
fn play_many(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seats: &Seats,
    (seed, runs, shard): (u64, u32, Shard),
    threads: usize,
    label: &str,
    quiet: bool,
) -> Result<Tally, Failure> {
    // Check the hooks load once here, so a bad script is one clear error, not one per thread.
    drop(hooks_for(&s.ruleset)?);
    let side_of = grognard_play::tally::piece_sides(s);
    let sides = s.compiled.setup.sides.len();
    let mine = shard.len(runs);
    let threads = threads.clamp(1, mine.max(1) as usize);
    // Threads take the next run as they finish one, so one thread's long games do not
    // leave the others idle.
    let next = AtomicU32::new(0);
    let done = AtomicU32::new(0);
    let show = !quiet && std::io::stderr().is_terminal();
    let tally = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (next, done, side_of) = (&next, &done, &side_of);
                scope.spawn(move || -> Result<Tally, String> {
                    // Lua hooks are not Send: every thread builds its own.
                    let mut hooks = hooks_for(&s.ruleset).map_err(|d| d.to_string())?;
                    let mut tally = Tally::default();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(run) = shard.run(k, runs) else {
                            break;
                        };
                        let result =
                            play_one(s, orders, seats, run_seed(seed, run), hooks.as_mut());
                        tally.add(run, result, side_of, sides);
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(tally)
                })
            })
            .collect();
        if show {
            // On a terminal only (and never with --json): games, games per second, time left.
            let bar = indicatif::ProgressBar::new(u64::from(mine));
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{msg} [{bar:30}] {pos}/{len} games, {per_sec}, {eta} left",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.set_message(label.to_owned());
            while !handles
                .iter()
                .all(std::thread::ScopedJoinHandle::is_finished)
            {
                bar.set_position(u64::from(done.load(Ordering::Relaxed)));
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            bar.finish_and_clear();
        }
        let mut all = Tally::default();
        for h in handles {
            match h.join() {
                Ok(Ok(t)) => all.merge(t),
                Ok(Err(m)) => return Err(Failure::Rules(m)),
                Err(_) => return Err(Failure::Rules("a simulation thread failed".to_owned())),
            }
        }
        Ok(all)
    })?;
    if let Some((_, m)) = tally.failed {
        return Err(Failure::Rules(m));
    }
    Ok(tally)
}

/// One ruleset's games: the scenario as loaded with it and their tally.
struct Played {
    scenario: Scenario,
    tally: Tally,
}

fn simulate(
    args: &SimArgs<'_>,
    ruleset: Option<&Path>,
    orders: &[Located<OrderSpec>],
    threads: usize,
    shard: Shard,
) -> Result<Played, Failure> {
    let s = load::load_scenario(args.scenario, ruleset)?;
    let seed = args.seed.unwrap_or(s.compiled.setup.seed);
    let label = s.ruleset.rules.identity.name.clone();
    let seats = seats_for(&s, args.policies)?;
    let quiet = args.json;
    let tally = play_many(
        &s,
        orders,
        &seats,
        (seed, args.runs, shard),
        threads,
        &label,
        quiet,
    )?;
    Ok(Played { scenario: s, tally })
}

fn seats_for(s: &Scenario, policies: &[String]) -> Result<Seats, Failure> {
    let sides: Vec<String> = s
        .compiled
        .setup
        .sides
        .iter()
        .map(|d| d.name.clone())
        .collect();
    policy::seats(policies, &sides).map_err(|e| match e {
        PolicyError::Unknown(m) => Failure::Usage(m),
        PolicyError::Script(m) => Failure::Rules(m),
    })
}

/// `grognard sim`: the same orders over `runs` seeds, summarised (or one shard of them,
/// tallied to a part file).
pub(crate) fn sim(args: &SimArgs<'_>) -> Outcome {
    if args.runs == 0 {
        return Err(Failure::Usage(
            "--runs 0: expected at least 1 game".to_owned(),
        ));
    }
    if args.threads == Some(0) {
        return Err(Failure::Usage("--threads must be at least 1".to_owned()));
    }
    if args.orders.is_none() && args.policies.is_empty() {
        return Err(Failure::Usage(
            "give an orders file (--orders FILE), a policy (--policy random|greedy|lua:FILE), or both"
                .to_owned(),
        ));
    }
    let shard = match args.shard {
        Some(text) => Shard::parse(text).map_err(Failure::Usage)?,
        None => Shard::WHOLE,
    };
    if args.shard.is_some() && args.out.is_none() {
        return Err(Failure::Usage(
            "--shard needs --out PART.json: a shard's games are summed up by `grognard sim-merge`"
                .to_owned(),
        ));
    }
    let orders = match args.orders {
        Some(path) => load::load_orders(path)?,
        None => Vec::new(),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let a = simulate(args, None, &orders, threads, shard)?;
    let b = match args.other {
        Some(path) => Some(simulate(args, Some(path), &orders, threads, shard)?),
        None => None,
    };
    if let Some(out) = args.out {
        let seed = args.seed.unwrap_or(a.scenario.compiled.setup.seed);
        let part = Part {
            format: PART_FORMAT.to_owned(),
            scenario: load::display(args.scenario),
            scenario_hash: a.scenario.hash.clone(),
            orders: args.orders.map(load::display),
            orders_hash: args.orders.map(file_hash).transpose()?,
            policies: args.policies.to_vec(),
            seed,
            runs: args.runs,
            shard,
            ruleset_hash: a.scenario.ruleset.rules.identity.hash.clone(),
            tally: a.tally,
            other: match (b, args.other) {
                (Some(b), Some(path)) => Some(OtherPart {
                    ruleset: load::display(path),
                    ruleset_hash: b.scenario.ruleset.rules.identity.hash.clone(),
                    tally: b.tally,
                }),
                _ => None,
            },
        };
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
                "shard {}/{}: {} of {} games tallied in {}",
                shard.index + 1,
                shard.count,
                shard.len(args.runs),
                args.runs,
                load::display(out)
            );
        }
        return Ok(());
    }
    let seed = args.seed.unwrap_or(a.scenario.compiled.setup.seed);
    let sa = summarise(&a.scenario, &orders, seed, a.tally)?;
    let sb = match b {
        Some(b) => Some(summarise(&b.scenario, &orders, seed, b.tally)?),
        None => None,
    };
    report(&sa, sb.as_ref(), args.json);
    Ok(())
}
