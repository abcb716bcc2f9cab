//! The Simulate panel's engine: whole games played by a policy in the background, for the
//! ruleset in force and for its base, tallied into win rates and game lengths.
//!
//! A [`SimJob`] runs on threads of its own (one per ruleset; Lua states are built on the
//! thread that uses them), so the editor keeps drawing; it reports progress as games end
//! and can be cancelled. Game `i` of every ruleset uses seed `seed + i`, so the two
//! rulesets are compared on the same dice streams.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use grognard_play::policy::{PolicyKind, play_game};
use grognard_rules::load::Scenario;

use crate::session::hooks_for;

/// What one ruleset's games gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimResult {
    /// The ruleset's name.
    pub label: String,
    /// Side names.
    pub sides: Vec<String>,
    /// Games played.
    pub games: u32,
    /// Wins per side.
    pub wins: Vec<u32>,
    /// Drawn games.
    pub draws: u32,
    /// Games that ended with no result (stopped by the order bound).
    pub unfinished: u32,
    /// Orders the policies gave that were refused.
    pub refused: u64,
    /// Turns each game lasted.
    pub lengths: Vec<u32>,
}

impl SimResult {
    /// A side's win rate and the half-width of its 95% interval (Wilson score).
    #[must_use]
    pub fn win_rate(&self, side: usize) -> (f64, f64) {
        let wins = self.wins.get(side).copied().unwrap_or(0);
        wilson(wins, self.games)
    }

    /// The draw rate and its 95% half-width.
    #[must_use]
    pub fn draw_rate(&self) -> (f64, f64) {
        wilson(self.draws, self.games)
    }

    /// How many games lasted each number of turns: (turns, games), shortest first.
    #[must_use]
    pub fn length_histogram(&self) -> Vec<(u32, u32)> {
        let mut counts = std::collections::BTreeMap::new();
        for l in &self.lengths {
            *counts.entry(*l).or_insert(0u32) += 1;
        }
        counts.into_iter().collect()
    }
}

/// The centre and half-width of the 95% Wilson interval for `k` successes in `n` trials
/// (centre 0, width 0 when `n` is 0).
#[must_use]
pub fn wilson(k: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let z = 1.96_f64;
    let (k, n) = (f64::from(k), f64::from(n));
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (centre, half)
}

type Shared = Arc<Mutex<Vec<Option<Result<SimResult, String>>>>>;

/// A simulation running in the background.
pub struct SimJob {
    done: Arc<AtomicU32>,
    total: u32,
    cancel: Arc<AtomicBool>,
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
    /// every side played by `policy`, game `i` seeded `seed + i`.
    #[must_use]
    pub fn start(scenarios: Vec<Scenario>, policy: &PolicyKind, runs: u32, seed: u64) -> Self {
        let done = Arc::new(AtomicU32::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        let results: Shared = Arc::new(Mutex::new(vec![None; scenarios.len()]));
        let total = runs.saturating_mul(u32::try_from(scenarios.len()).unwrap_or(u32::MAX));
        let handles = scenarios
            .into_iter()
            .enumerate()
            .map(|(i, scenario)| {
                let (done, cancel, results) =
                    (Arc::clone(&done), Arc::clone(&cancel), Arc::clone(&results));
                let policy = policy.clone();
                std::thread::spawn(move || {
                    let r = run(&scenario, &policy, runs, seed, &done, &cancel);
                    results.lock().unwrap_or_else(PoisonError::into_inner)[i] = Some(r);
                })
            })
            .collect();
        Self {
            done,
            total,
            cancel,
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

    /// True when every ruleset's games are over.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.handles.iter().all(JoinHandle::is_finished)
    }

    /// Asks the threads to stop after the games they are playing.
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
        for r in all.iter() {
            match r {
                Some(Ok(r)) => out.push(r.clone()),
                Some(Err(e)) => return Some(Err(e.clone())),
                None => return Some(Err("a simulation thread stopped".to_owned())),
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

fn run(
    scenario: &Scenario,
    policy: &PolicyKind,
    runs: u32,
    seed: u64,
    done: &AtomicU32,
    cancel: &AtomicBool,
) -> Result<SimResult, String> {
    let mut hooks = hooks_for(&scenario.ruleset).map_err(|d| d.to_string())?;
    let sides: Vec<String> = scenario
        .compiled
        .setup
        .sides
        .iter()
        .map(|s| s.name.clone())
        .collect();
    let seats = vec![Some(policy.clone()); sides.len()];
    let mut r = SimResult {
        label: scenario.ruleset.rules.identity.name.clone(),
        wins: vec![0; sides.len()],
        sides,
        ..SimResult::default()
    };
    for i in 0..runs {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let end = play_game(
            scenario,
            &seats,
            seed.wrapping_add(u64::from(i)),
            hooks.as_mut(),
        )?;
        if let Some(e) = end.played.error {
            return Err(e);
        }
        r.games += 1;
        r.refused += end.played.refused.len() as u64;
        match end.game.result() {
            Some(res) => match res.winner {
                Some(w) => {
                    if let Some(x) = r.wins.get_mut(w.index()) {
                        *x += 1;
                    }
                }
                None => r.draws += 1,
            },
            None => r.unfinished += 1,
        }
        r.lengths.push(end.game.state().turn.min(end.game.turns()));
        done.fetch_add(1, Ordering::Relaxed);
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_the_textbook_values() {
        // 50 of 100: centre 0.5, half-width ≈ 0.0962.
        let (c, h) = wilson(50, 100);
        assert!((c - 0.5).abs() < 1e-9);
        assert!((h - 0.0962).abs() < 1e-3, "{h}");
        // 0 of 10: the interval still has width (0 to ≈ 0.278).
        let (c, h) = wilson(0, 10);
        assert!(
            (c - h).abs() < 1e-9 && (c + h - 0.2775).abs() < 1e-3,
            "{c} {h}"
        );
        assert_eq!(wilson(0, 0), (0.0, 0.0));
    }

    #[test]
    fn the_length_histogram_counts_games_by_turns() {
        let r = SimResult {
            lengths: vec![3, 5, 3, 4, 5, 5],
            ..SimResult::default()
        };
        assert_eq!(r.length_histogram(), vec![(3, 2), (4, 1), (5, 3)]);
    }
}
