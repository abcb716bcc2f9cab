//! The Simulate panel's engine: whole games played by a policy in the background, for the
//! ruleset in force and for its base, tallied exactly as `grognard sim` tallies them.
//!
//! A [`SimJob`] runs on threads of its own (Lua states are built on the thread that uses
//! them), so the editor keeps drawing; it reports progress as games end and, inside the
//! games, as orders are given (a search policy can spend minutes on one game), and a stop
//! takes effect between two orders (`grognard_play::tally::play_one_watched`); a game
//! stopped part-way is not tallied. Game `i` of every ruleset uses seed `seed + i` (`sim`'s seeds), so the two
//! rulesets are compared on the same dice streams. Each game is played by
//! `grognard_play::tally::play_one` and folded into a `grognard_play::tally::Tally`, the
//! same code `sim` runs: for the same scenario, policy, seed and runs the tab shows the
//! numbers `sim` prints, whatever the number of threads.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use grognard_play::policy::PolicyKind;
pub use grognard_play::tally::Share;
use grognard_play::tally::{Estimate, Tally, Watch, play_one_watched, run_seed};
use grognard_rules::load::Scenario;

use crate::session::hooks_for;

/// What one ruleset's games gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimResult {
    /// The ruleset's name.
    pub label: String,
    /// Side names.
    pub sides: Vec<String>,
    /// The games' exact tally (`sim`'s).
    pub tally: Tally,
}

impl SimResult {
    /// Games played.
    #[must_use]
    pub const fn games(&self) -> u64 {
        self.tally.games
    }

    /// Side `side`'s observed share of the games with a result, with its 95% half-width:
    /// `sim`'s numbers.
    #[must_use]
    pub fn win_rate(&self, side: usize) -> Estimate {
        self.tally.win_rate(side)
    }

    /// The observed share of draws, with its 95% half-width.
    #[must_use]
    pub fn draw_rate(&self) -> Estimate {
        self.tally.draw_rate()
    }

    /// Side `side`'s observed share of the games with a result, with its Wilson 95%
    /// interval (a side that won every game has an interval below 100%, not "± 0"): the
    /// words `grognard sim` prints.
    #[must_use]
    pub fn win_share(&self, side: usize) -> Share {
        self.tally.win_share(side)
    }

    /// The observed share of draws, with its Wilson 95% interval.
    #[must_use]
    pub fn draw_share(&self) -> Share {
        self.tally.draw_share()
    }

    /// Games per number of turns, shortest first.
    #[must_use]
    pub fn length_histogram(&self) -> Vec<(u32, u64)> {
        self.tally.lengths.iter().map(|(t, k)| (*t, *k)).collect()
    }
}

/// When every game that ended with a result was a draw, says so plainly with the count,
/// and what that usually means — a player otherwise sees 0% for each side and a flat chart
/// and cannot tell a broken run from a game nobody wins. `draws` is a tally's draws (1 per
/// drawn game, over the games with a result); `None` when a side won any game, or no game
/// had a result.
#[must_use]
pub fn all_drawn_note(draws: grognard_play::tally::Moments) -> Option<String> {
    let drawn = u64::try_from(draws.sum.max(0)).unwrap_or(u64::MAX);
    (draws.n > 0 && drawn == draws.n).then(|| {
        format!(
            "Every game was drawn ({drawn} of {}): no side won any game. This usually means \
             the game ends at its turn limit before either side meets its victory terms; \
             try more turns, or check the victory terms (how to win, on the Play tab).",
            draws.n
        )
    })
}

/// What the progress bar shows besides games done: games being played, orders given in
/// all, and whether a stop was asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inside {
    /// Games being played now.
    pub playing: u32,
    /// Orders the policies have given, in all the games so far.
    pub orders: u64,
    /// Stop was pressed: the games end at their next order.
    pub stopping: bool,
}

/// The progress bar's words: games done of all, the time left at the pace so far (once a
/// game is done), and what goes on inside the games being played, so a slow policy does
/// not look stuck. With two rulesets compared, how the total is made up: "12 of 80 games
/// (40 games × 2 rulesets)", so a player who asked for 40 games is not left wondering
/// about 80. After Stop, "stopping…" first.
#[must_use]
pub fn progress_text(
    done: u32,
    total: u32,
    rulesets: u32,
    elapsed: Duration,
    inside: Inside,
) -> String {
    let text = games_text(done, total, rulesets, elapsed);
    let text = if inside.playing > 0 && done < total && !inside.stopping {
        format!(
            "{text} · {} in play, {} given",
            crate::words::count(i64::from(inside.playing), "game"),
            crate::words::count(i64::try_from(inside.orders).unwrap_or(i64::MAX), "order")
        )
    } else {
        text
    };
    if inside.stopping {
        format!("stopping… (the games in play end at their next order) · {text}")
    } else {
        text
    }
}

fn games_text(done: u32, total: u32, rulesets: u32, elapsed: Duration) -> String {
    let left = total.saturating_sub(done);
    let of = if rulesets > 1 {
        format!(
            "{done} of {total} games ({} × {rulesets} rulesets)",
            crate::words::count(i64::from(total / rulesets), "game")
        )
    } else {
        format!("{done} of {total} games")
    };
    if done == 0 || left == 0 {
        return of;
    }
    let per_game = elapsed.as_secs_f64() / f64::from(done);
    let time = crate::words::seconds_text(per_game * f64::from(left));
    format!("{of} · about {time} left")
}

/// One ruleset's tally as its threads hand it in (or the first error).
type Shared = Arc<Mutex<Vec<Result<Tally, String>>>>;

/// A simulation running in the background.
pub struct SimJob {
    done: Arc<AtomicU32>,
    playing: Arc<AtomicU32>,
    orders: Arc<AtomicU64>,
    total: u32,
    started: Instant,
    cancel: Arc<AtomicBool>,
    labels: Vec<(String, Vec<String>)>,
    results: Shared,
    handles: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for SimJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimJob")
            .field("done", &self.done.load(Ordering::Relaxed))
            .field("total", &self.total)
            .finish_non_exhaustive()
    }
}

impl SimJob {
    /// Starts `runs` games of each scenario (the same scenario under different rulesets),
    /// every side played by `policy`, game `i` seeded `seed + i`, on `threads` threads per
    /// ruleset (at least one).
    #[must_use]
    pub fn start(
        scenarios: Vec<Scenario>,
        policy: &PolicyKind,
        runs: u32,
        seed: u64,
        threads: usize,
    ) -> Self {
        let done = Arc::new(AtomicU32::new(0));
        let playing = Arc::new(AtomicU32::new(0));
        let orders = Arc::new(AtomicU64::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        let results: Shared = Arc::new(Mutex::new(vec![Ok(Tally::default()); scenarios.len()]));
        let total = runs.saturating_mul(u32::try_from(scenarios.len()).unwrap_or(u32::MAX));
        let labels = scenarios
            .iter()
            .map(|s| {
                let sides = s.compiled.setup.sides.iter().map(|d| d.name.clone());
                (s.ruleset.rules.identity.name.clone(), sides.collect())
            })
            .collect();
        let threads = threads.clamp(1, runs.max(1) as usize);
        let mut handles = Vec::new();
        for (i, scenario) in scenarios.into_iter().enumerate() {
            let scenario = Arc::new(scenario);
            // Threads take the next game as they finish one, as `sim`'s do.
            let next = Arc::new(AtomicU32::new(0));
            for _ in 0..threads {
                let (playing, orders) = (Arc::clone(&playing), Arc::clone(&orders));
                let (done, cancel, results, next, scenario) = (
                    Arc::clone(&done),
                    Arc::clone(&cancel),
                    Arc::clone(&results),
                    Arc::clone(&next),
                    Arc::clone(&scenario),
                );
                let policy = policy.clone();
                handles.push(std::thread::spawn(move || {
                    let games = Games {
                        scenario: &scenario,
                        policy: &policy,
                        runs,
                        seed,
                    };
                    let count = Count {
                        next: &next,
                        done: &done,
                        playing: &playing,
                        watch: Watch {
                            stop: &cancel,
                            orders: &orders,
                        },
                    };
                    let r = games.play(&count);
                    let mut all = results.lock().unwrap_or_else(PoisonError::into_inner);
                    let slot = &mut all[i];
                    match (slot, r) {
                        (Ok(sum), Ok(t)) => sum.merge(t),
                        (slot @ Ok(_), Err(e)) => *slot = Err(e),
                        (Err(_), _) => {}
                    }
                }));
            }
        }
        Self {
            done,
            playing,
            orders,
            total,
            started: Instant::now(),
            cancel,
            labels,
            results,
            handles,
        }
    }

    /// Games played so far, and in all.
    #[must_use]
    pub fn progress(&self) -> (u32, u32) {
        (
            self.done.load(Ordering::Relaxed).min(self.total),
            self.total,
        )
    }

    /// The progress bar's words (games done, time left).
    #[must_use]
    pub fn progress_text(&self) -> String {
        let (done, total) = self.progress();
        let rulesets = u32::try_from(self.labels.len()).unwrap_or(1);
        let inside = Inside {
            playing: self.playing.load(Ordering::Relaxed),
            orders: self.orders.load(Ordering::Relaxed),
            stopping: self.stopping(),
        };
        progress_text(done, total, rulesets, self.started.elapsed(), inside)
    }

    /// True once Stop was asked for.
    #[must_use]
    pub fn stopping(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// True when every ruleset's games are over.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.handles.iter().all(JoinHandle::is_finished)
    }

    /// Asks the threads to stop the games they are playing before their next order.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The results, in the order the scenarios were given, once [`SimJob::finished`].
    ///
    /// # Errors
    /// The first ruleset whose games could not be played (a setup or policy error).
    pub fn results(&self) -> Option<Result<Vec<SimResult>, String>> {
        if !self.finished() {
            return None;
        }
        let all = self.results.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = Vec::new();
        for (r, (label, sides)) in all.iter().zip(&self.labels) {
            match r {
                Ok(tally) => {
                    if let Some((_, why)) = &tally.failed {
                        return Some(Err(why.clone()));
                    }
                    out.push(SimResult {
                        label: label.clone(),
                        sides: sides.clone(),
                        tally: tally.clone(),
                    });
                }
                Err(e) => return Some(Err(e.clone())),
            }
        }
        Some(Ok(out))
    }

    /// Waits for the games to end (tests; the editor polls).
    ///
    /// # Errors
    /// As [`SimJob::results`].
    pub fn wait(mut self) -> Result<Vec<SimResult>, String> {
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
        self.results()
            .unwrap_or_else(|| Err("a simulation thread stopped".to_owned()))
    }
}

impl Drop for SimJob {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// The counters a thread shares with the job and the other threads.
struct Count<'a> {
    next: &'a AtomicU32,
    done: &'a AtomicU32,
    playing: &'a AtomicU32,
    watch: Watch<'a>,
}

/// One ruleset's games, as one thread plays its share of them.
struct Games<'a> {
    scenario: &'a Scenario,
    policy: &'a PolicyKind,
    runs: u32,
    seed: u64,
}

impl Games<'_> {
    fn play(&self, count: &Count<'_>) -> Result<Tally, String> {
        let s = self.scenario;
        let mut hooks = hooks_for(&s.ruleset).map_err(|d| d.to_string())?;
        let side_of = grognard_play::tally::piece_sides(s);
        let sides = s.compiled.setup.sides.len();
        let seats = vec![Some(self.policy.clone()); sides];
        let mut tally = Tally::default();
        loop {
            if count.watch.stop.load(Ordering::Relaxed) {
                break;
            }
            let run = count.next.fetch_add(1, Ordering::Relaxed);
            if run >= self.runs {
                break;
            }
            count.playing.fetch_add(1, Ordering::Relaxed);
            let seed = run_seed(self.seed, run);
            let result = play_one_watched(s, &[], &seats, seed, hooks.as_mut(), count.watch);
            count.playing.fetch_sub(1, Ordering::Relaxed);
            // A game stopped part-way is no result.
            let Some(result) = result else { break };
            let failed = result.failed.is_some();
            tally.add(run, result, &side_of, sides);
            count.done.fetch_add(1, Ordering::Relaxed);
            if failed {
                break;
            }
        }
        Ok(tally)
    }
}

/// How long one game takes under `search` at a number of iterations per order, measured
/// in the background before a run (a player met a Simulate run of hex-command at 200
/// iterations that would have taken hours, with no warning): one random game counts the
/// orders a game takes, then a few seconds of a search game at a few iterations an order
/// time one order, scaled to the iterations asked for. An estimate, said as one.
#[derive(Debug)]
pub struct SearchEstimate {
    /// The iterations per order it is for.
    pub iterations: u32,
    done: std::sync::mpsc::Receiver<Result<f64, String>>,
    seconds: Option<Result<f64, String>>,
}

/// How long the search sample of [`SearchEstimate`] may play.
const SAMPLE: Duration = Duration::from_secs(3);

impl SearchEstimate {
    /// Starts measuring `scenario` (game seeded `seed`) at `iterations` an order.
    #[must_use]
    pub fn start(scenario: Scenario, iterations: u32, seed: u64) -> Self {
        let (tx, done) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(seconds_a_game(&scenario, iterations, seed));
        });
        Self {
            iterations,
            done,
            seconds: None,
        }
    }

    /// Seconds one game is estimated to take, once measured.
    pub fn seconds(&mut self) -> Option<&Result<f64, String>> {
        if self.seconds.is_none() {
            self.seconds = self.done.try_recv().ok();
        }
        self.seconds.as_ref()
    }
}

/// See [`SearchEstimate`].
#[allow(clippy::cast_precision_loss)] // order counts stay far below 2^53
fn seconds_a_game(s: &Scenario, iterations: u32, seed: u64) -> Result<f64, String> {
    use grognard_play::search::Budget;
    let mut hooks = hooks_for(&s.ruleset).map_err(|d| d.to_string())?;
    let sides = s.compiled.setup.sides.len();
    let random = vec![Some(PolicyKind::Random); sides];
    let game = grognard_play::tally::play_one(s, &[], &random, seed, hooks.as_mut());
    let per_game = game.policy_orders.max(1) as f64;
    let few = iterations.clamp(1, 10);
    let search = vec![Some(PolicyKind::Search(Budget::Iterations(few))); sides];
    let stop = AtomicBool::new(false);
    let orders = AtomicU64::new(0);
    let started = Instant::now();
    let ended = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let timer = scope.spawn(|| {
            while started.elapsed() < SAMPLE && !ended.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(20));
            }
            stop.store(true, Ordering::Relaxed);
        });
        let watch = Watch {
            stop: &stop,
            orders: &orders,
        };
        let _ = play_one_watched(s, &[], &search, seed, hooks.as_mut(), watch);
        ended.store(true, Ordering::Relaxed);
        let _ = timer.join();
    });
    let given = orders.load(Ordering::Relaxed).max(1) as f64;
    let an_order = started.elapsed().as_secs_f64() / given;
    Ok(per_game * an_order * f64::from(iterations) / f64::from(few))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_text_says_games_done_and_time_left() {
        let progress_text = |done, total, rulesets, elapsed| {
            progress_text(done, total, rulesets, elapsed, Inside::default())
        };
        assert_eq!(
            progress_text(0, 100, 1, Duration::from_secs(1)),
            "0 of 100 games"
        );
        assert_eq!(
            progress_text(25, 100, 1, Duration::from_secs(5)),
            "25 of 100 games · about 15 s left"
        );
        assert_eq!(
            progress_text(10, 100, 1, Duration::from_secs(10)),
            "10 of 100 games · about 1 min 30 s left"
        );
        assert_eq!(
            progress_text(100, 100, 1, Duration::from_secs(9)),
            "100 of 100 games"
        );
        // Two rulesets compared: the games asked for, times two, said as such.
        assert_eq!(
            progress_text(20, 80, 2, Duration::from_secs(10)),
            "20 of 80 games (40 games × 2 rulesets) · about 30 s left"
        );
    }

    #[test]
    fn the_progress_text_says_what_goes_on_inside_the_games_and_a_stop() {
        let inside = Inside {
            playing: 2,
            orders: 143,
            stopping: false,
        };
        let d = Duration::from_secs(30);
        assert_eq!(
            progress_text(0, 12, 2, d, inside),
            "0 of 12 games (6 games × 2 rulesets) · 2 games in play, 143 orders given"
        );
        assert_eq!(
            progress_text(1, 12, 2, d, inside),
            "1 of 12 games (6 games × 2 rulesets) · about 5 min 30 s left · 2 games in play, \
             143 orders given"
        );
        let stopping = Inside {
            stopping: true,
            ..inside
        };
        assert_eq!(
            progress_text(0, 12, 1, d, stopping),
            "stopping… (the games in play end at their next order) · 0 of 12 games"
        );
    }
}
