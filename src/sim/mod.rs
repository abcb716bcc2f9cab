//! `grognard sim`: Monte Carlo over seeds. Each game replays an orders file, is played
//! to its end by policies, or both (the file gives the opening, the policies go on); each
//! thread folds its games into an exact tally, and the tallies add up to the same summary
//! whatever the thread count (the tally is `grognard_play::tally`, which the editor's
//! Simulate tab also reports). `--shard I/N --out PART.json` plays one shard of the runs
//! and writes its tally; `sim-merge` adds the parts up into the summary of the whole run.

mod save;
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

use save::{Brief, Which, save_games};
use shard::{OtherPart, PART_FORMAT, Part, file_hash};
pub(crate) use shard::{Shard, merge};
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
    /// Save games into this folder (`--save-games DIR`).
    pub save_games: Option<&'a Path>,
    /// Which games to save (`--which`; all when absent).
    pub which: Option<&'a str>,
    /// Print JSON.
    pub json: bool,
}

impl<'a> SimArgs<'a> {
    /// What the command line's `sim` flags ask.
    pub(crate) fn of(f: &'a crate::cli::SimFlags) -> Self {
        SimArgs {
            scenario: &f.scenario,
            orders: f.orders.as_deref(),
            policies: &f.policy,
            runs: f.runs,
            seed: f.seed,
            other: f.ruleset.as_deref(),
            threads: f.threads,
            shard: f.shard.as_deref(),
            out: f.out.as_deref(),
            save_games: f.save_games.as_deref(),
            which: f.which.as_deref(),
            json: f.json,
        }
    }
}

/// Plays `runs` games on all cores and tallies them; the tally is the same whatever the
/// thread count.
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_many(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seats: &Seats,
    (seed, runs, shard): (u64, u32, Shard),
    threads: usize,
    label: &str,
    quiet: bool,
) -> Result<(Tally, Vec<Brief>), Failure> {
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
                scope.spawn(move || -> Result<(Tally, Vec<Brief>), String> {
                    // Lua hooks are not Send: every thread builds its own.
                    let mut hooks = hooks_for(&s.ruleset).map_err(|d| d.to_string())?;
                    let mut tally = Tally::default();
                    let mut briefs = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(run) = shard.run(k, runs) else {
                            break;
                        };
                        let result =
                            play_one(s, orders, seats, run_seed(seed, run), hooks.as_mut());
                        briefs.push(Brief::of(run, &result));
                        tally.add(run, result, side_of, sides);
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok((tally, briefs))
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
        let mut briefs = Vec::new();
        for h in handles {
            match h.join() {
                Ok(Ok((t, b))) => {
                    all.merge(t);
                    briefs.extend(b);
                }
                Ok(Err(m)) => return Err(Failure::Rules(m)),
                Err(_) => return Err(Failure::Rules("a simulation thread failed".to_owned())),
            }
        }
        briefs.sort_by_key(|b| b.run);
        Ok((all, briefs))
    })?;
    if let Some((_, m)) = tally.0.failed {
        return Err(Failure::Rules(m));
    }
    Ok(tally)
}

/// One ruleset's games: the scenario as loaded with it, their tally, and how each ended.
struct Played {
    scenario: Scenario,
    tally: Tally,
    briefs: Vec<Brief>,
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
    let (tally, briefs) = play_many(
        &s,
        orders,
        &seats,
        (seed, args.runs, shard),
        threads,
        &label,
        quiet,
    )?;
    Ok(Played {
        scenario: s,
        tally,
        briefs,
    })
}

pub(crate) fn seats_for(s: &Scenario, policies: &[String]) -> Result<Seats, Failure> {
    let sides = grognard_play::tally::side_names(s);
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
            "give an orders file (--orders FILE), a policy (--policy random|greedy|search|lua:FILE), or both"
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
    if args.which.is_some() && args.save_games.is_none() {
        return Err(Failure::Usage(
            "--which chooses the games --save-games DIR saves: give --save-games too".to_owned(),
        ));
    }
    let which = args.which.map(Which::parse).transpose()?;
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
    let seed = args.seed.unwrap_or(a.scenario.compiled.setup.seed);
    let mut saved = Vec::new();
    if let Some(dir) = args.save_games {
        let which = which.unwrap_or(Which::All);
        let seats = seats_for(&a.scenario, args.policies)?;
        let prefix = if b.is_some() { "a-" } else { "" };
        saved = save_games(
            dir,
            prefix,
            &a.scenario,
            &orders,
            &seats,
            seed,
            &a.briefs,
            &which,
        )?;
        if let Some(b) = &b {
            let seats = seats_for(&b.scenario, args.policies)?;
            saved.extend(save_games(
                dir,
                "b-",
                &b.scenario,
                &orders,
                &seats,
                seed,
                &b.briefs,
                &which,
            )?);
        }
    }
    if let Some(out) = args.out {
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
        for g in &saved {
            out!("saved game {} (seed {}) to {}", g.game, g.seed, g.file);
        }
        if saved.is_empty() && args.save_games.is_some() {
            out!("{}", save::none_saved(args.which.unwrap_or("all")));
        }
        return Ok(());
    }
    // Game for game, did the two rulesets play the same games?
    let same = b.as_ref().is_some_and(|b| {
        let trace = |x: &[Brief]| x.iter().map(|g| (g.run, g.trace)).collect::<Vec<_>>();
        trace(&a.briefs) == trace(&b.briefs)
    });
    let sa = summarise(&a.scenario, &orders, seed, a.tally, args.policies)?;
    let mut sb = match b {
        Some(b) => Some(summarise(
            &b.scenario,
            &orders,
            seed,
            b.tally,
            args.policies,
        )?),
        None => None,
    };
    if let Some(sb) = &mut sb {
        sb.same_games = Some(same);
    }
    // Asked to save: say so even when no game matched, rather than print nothing.
    let asked = args.save_games.map(|_| args.which.unwrap_or("all"));
    report(&sa, sb.as_ref(), (&saved, asked), args.json);
    Ok(())
}
