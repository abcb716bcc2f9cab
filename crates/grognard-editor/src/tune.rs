//! The Tune panel's engine: `grognard_play::tune`'s search (the one `grognard tune` runs)
//! on a thread of its own, each candidate's games played by the Simulate tab's
//! [`SimJob`] — so a candidate's win rate is the number `sim` and `grognard tune` give for
//! the same scenario, policy, seeds and games.
//!
//! A candidate is written as a house-rule overlay of the ruleset in force (when that holds
//! unsaved edits, they are first written beside the candidate, so the run does not depend
//! on the live-check file later edits rewrite), loaded by the real loader and played on the
//! scenario's own seeds. The job hands the editor what it has measured so far after each
//! candidate (the plot grows while it runs) and can be stopped between games.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use grognard_play::policy::PolicyKind;
use grognard_play::tally::Moments;
use grognard_play::tune::{Book, Candidates, Halves, Tuner};
use grognard_rules::load;

use crate::simulate::SimJob;

/// What a tuning run needs from the editor: the scenario as it stands and where the
/// ruleset in force is on disk.
#[derive(Clone, Debug)]
pub struct TuneRequest {
    /// The scenario's name (its path, as shown).
    pub scenario_name: String,
    /// The scenario's text.
    pub scenario_text: String,
    /// A ruleset file that loads as the ruleset in force: candidates extend it.
    pub ruleset: PathBuf,
    /// What is tuned.
    pub tuner: Tuner,
    /// Who plays every side.
    pub policy: PolicyKind,
    /// The first game's seed (game `i` has `seed + i`, as `sim`).
    pub seed: u64,
    /// Threads for a candidate's games.
    pub threads: usize,
    /// A folder of the caller's where candidates are written.
    pub scratch: PathBuf,
}

/// What the run has measured so far, and how it ended.
#[derive(Clone, Debug, Default)]
pub struct TuneSnapshot {
    /// Every candidate measured, in the order tried.
    pub book: Book,
    /// The progress line: candidates tried, games, the best so far.
    pub line: String,
    /// Why the run stopped early (a candidate that does not load).
    pub error: Option<String>,
    /// The candidate being measured: games done of its games, and time left.
    pub candidate: Option<String>,
    /// Games played in all, over every candidate.
    pub games: u64,
    /// *Stop* ended the run (not an error: what was measured stands).
    pub stopped: bool,
    /// Seconds the run has taken so far (with `games`, the time a game takes here).
    pub seconds: f64,
    /// Each candidate's draws (1 per drawn game, over its games with a result): a
    /// candidate's win rate alone cannot tell a draw from the other side's win.
    pub draws: std::collections::BTreeMap<Vec<Halves>, Moments>,
}

impl TuneSnapshot {
    /// The progress line while the run goes on, with the candidate's games.
    #[must_use]
    pub fn running_line(&self) -> String {
        match &self.candidate {
            Some(c) => format!("{} · {c}", self.line),
            None => self.line.clone(),
        }
    }

    /// When every game of every candidate measured was drawn, says so with the count and
    /// what it usually means ([`crate::simulate::all_drawn_note`]): the side's 0% and the
    /// flat plot are then no answer.
    #[must_use]
    pub fn all_drawn_note(&self) -> Option<String> {
        let all = self
            .draws
            .values()
            .fold(Moments::default(), |a, m| Moments {
                n: a.n + m.n,
                sum: a.sum + m.sum,
                squares: a.squares + m.squares,
            });
        crate::simulate::all_drawn_note(all)
    }

    /// True when every game of the candidate with `values` that had a result was drawn.
    #[must_use]
    pub fn all_drawn(&self, values: &[Halves]) -> bool {
        self.draws
            .get(values)
            .is_some_and(|m| crate::simulate::all_drawn_note(*m).is_some())
    }

    /// How a stopped run is said: plainly, with the games it played and whether they
    /// count. The games of a candidate not finished measure nothing: "stopped after 17
    /// games" beside "0 candidates, 0 games" left the player wondering (tenth player F9).
    #[must_use]
    pub fn stopped_text(&self) -> String {
        let games = |n: u64| crate::words::count(i64::try_from(n).unwrap_or(i64::MAX), "game");
        let unfinished = self.games.saturating_sub(self.book.games);
        if self.book.tried().next().is_none() {
            format!(
                "stopped after {} of the first candidate, before it was finished: nothing \
                 was measured yet",
                games(self.games)
            )
        } else if unfinished > 0 {
            format!(
                "stopped after {}; the last {} (of a candidate not finished) are not counted",
                games(self.games),
                games(unfinished)
            )
        } else {
            format!("stopped after {}", games(self.games))
        }
    }
}

/// A tuning run in the background.
pub struct TuneJob {
    /// What is tuned (the items, side and target), for the panel's words and plot.
    pub tuner: Tuner,
    shared: Arc<Mutex<TuneSnapshot>>,
    cancel: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for TuneJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TuneJob")
            .field("side", &self.tuner.side_name)
            .field("target", &self.tuner.target)
            .finish_non_exhaustive()
    }
}

/// Why a run was stopped.
const STOPPED: &str = "stopped";

impl TuneJob {
    /// Starts the search.
    #[must_use]
    pub fn start(request: TuneRequest) -> Self {
        let shared = Arc::new(Mutex::new(TuneSnapshot {
            line: "measuring the ruleset as it is…".to_owned(),
            ..TuneSnapshot::default()
        }));
        let cancel = Arc::new(AtomicBool::new(false));
        let tuner = request.tuner.clone();
        let handle = {
            let (shared, cancel) = (Arc::clone(&shared), Arc::clone(&cancel));
            std::thread::spawn(move || {
                let mut play = Player {
                    request: &request,
                    shared: &shared,
                    cancel: &cancel,
                    games: 0,
                    started: std::time::Instant::now(),
                };
                let mut book = Book::default();
                let r = grognard_play::tune::search(&request.tuner, &mut book, &mut play);
                let mut s = shared.lock().unwrap_or_else(PoisonError::into_inner);
                s.line = finished_line(&book, &request.tuner);
                s.book = book;
                s.candidate = None;
                s.games = play.games;
                s.seconds = play.started.elapsed().as_secs_f64();
                match r {
                    Err(e) if e == STOPPED => s.stopped = true,
                    Err(e) => s.error = Some(e),
                    Ok(_) => {}
                }
            })
        };
        Self {
            tuner,
            shared,
            cancel,
            handle: Some(handle),
        }
    }

    /// What has been measured so far.
    #[must_use]
    pub fn snapshot(&self) -> TuneSnapshot {
        self.shared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// True when the search is over.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.handle.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Asks the run to stop after the games being played.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Waits for the search to end (tests; the editor polls).
    #[must_use]
    pub fn wait(mut self) -> TuneSnapshot {
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
        self.snapshot()
    }
}

impl Drop for TuneJob {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Plays the candidates of one run.
struct Player<'a> {
    request: &'a TuneRequest,
    shared: &'a Mutex<TuneSnapshot>,
    cancel: &'a AtomicBool,
    /// Games played so far over every candidate.
    games: u64,
    /// When the run began.
    started: std::time::Instant,
}

impl Candidates for Player<'_> {
    type Error = String;

    fn measure(&mut self, values: &[Halves]) -> Result<Moments, String> {
        let r = self.request;
        let t = &r.tuner;
        if self.cancel.load(Ordering::Relaxed) {
            return Err(STOPPED.to_owned());
        }
        let path = r.scratch.join("candidate.yaml");
        let text = t.overlay(
            &absolute(&r.ruleset).to_string_lossy(),
            values,
            "a candidate of the editor's Tune panel",
        );
        let describe = || t.describe(values);
        std::fs::write(&path, text).map_err(|e| format!("cannot write a candidate: {e}"))?;
        let ruleset = load::load_ruleset(&path)
            .map_err(|d| format!("the candidate {} does not load: {d}", describe()))?;
        let scenario = load::scenario_from_text(&r.scenario_name, &r.scenario_text, &ruleset)
            .map_err(|d| {
                format!(
                    "{} does not start with {}: {d}",
                    r.scenario_name,
                    describe()
                )
            })?;
        let job = SimJob::start(vec![scenario], &r.policy, t.runs, r.seed, r.threads);
        while !job.finished() {
            if self.cancel.load(Ordering::Relaxed) {
                job.cancel();
            }
            {
                let mut s = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
                s.candidate = Some(format!("this candidate: {}", job.progress_text()));
                s.games = self.games + u64::from(job.progress().0);
                s.seconds = self.started.elapsed().as_secs_f64();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.games += u64::from(job.progress().0);
        if self.cancel.load(Ordering::Relaxed) {
            return Err(STOPPED.to_owned());
        }
        let results = job.wait()?;
        if let Some(first) = results.first() {
            let mut s = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
            s.draws.insert(values.to_vec(), first.tally.draws);
        }
        Ok(results
            .first()
            .and_then(|s| s.tally.wins.get(t.side).copied())
            .unwrap_or_default())
    }

    fn measured(&mut self, tuner: &Tuner, book: &Book) {
        let mut s = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        s.book = book.clone();
        s.line = progress_line(book, tuner);
    }
}

/// A candidate's win rate as the Simulate tab says a rate: the observed share with its
/// Wilson 95% interval (`0.0% (95%: 0.0–16.1)` for 0 wins in 20), never "0.0% ± 0.0".
#[must_use]
pub fn rate_words(m: &grognard_play::tune::Measured) -> String {
    crate::simulate::Share::counted(m.wins).words()
}

/// The progress line: candidates tried, games, and the best so far (or the closest while
/// none meets the target), each rate said as [`rate_words`] says it.
#[must_use]
pub fn progress_line(book: &Book, tuner: &Tuner) -> String {
    let tried = book.tried().count();
    let head = format!(
        "{}, {}",
        crate::words::count(i64::try_from(tried).unwrap_or(i64::MAX), "candidate"),
        crate::words::count(i64::try_from(book.games).unwrap_or(i64::MAX), "game")
    );
    match (book.best(tuner), book.closest(tuner)) {
        (Some(b), _) => format!(
            "{head}; best so far: {} → {} wins {}",
            tuner.describe(&b.values),
            tuner.side_name,
            rate_words(b)
        ),
        (None, Some(c)) => format!(
            "{head}; none meets the target yet, closest: {} → {} wins {}",
            tuner.describe(&c.values),
            tuner.side_name,
            rate_words(c)
        ),
        (None, None) => head,
    }
}

/// [`progress_line`] once the search has ended: no "yet" (the eighth outside player read
/// "none meets the target yet" on a finished run).
#[must_use]
pub fn finished_line(book: &Book, tuner: &Tuner) -> String {
    progress_line(book, tuner).replacen(
        "none meets the target yet, closest",
        "none met the target; the closest",
        1,
    )
}

fn absolute(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}
