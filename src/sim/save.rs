//! `sim --save-games DIR [--which …]`: the games a simulation played, as saves a designer
//! can open. Every game of a sim is fixed by its seed (the dice, and the policies' own
//! random numbers, are drawn from it), so the sim keeps only a brief of each game while it
//! runs and plays the chosen ones again afterwards, recording their orders; the save
//! `replay` verifies is that second playing, event for event.

use std::path::Path;

use grognard_play::policy::Seats;
use grognard_play::tally::{RunResult, play_recorded, run_seed};
use grognard_rules::de::Located;
use grognard_rules::load::{self, Scenario};
use grognard_rules::model::OrderSpec;
use grognard_rules::save::SaveFile;
use serde::Serialize;

use crate::common::{Failure, hooks_for};

/// How one game of a sim ended: enough to choose it (`--which`) without keeping it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Brief {
    /// Its number in the run (its seed is the first seed plus this).
    pub run: u32,
    /// `Some(Some(side))` a win, `Some(None)` a draw, `None` no result.
    pub winner: Option<Option<usize>>,
    /// The turn it ended on.
    pub turns: u32,
    /// Orders the policies gave.
    pub orders: u64,
    /// False when it could not start.
    pub started: bool,
    /// A hash of how the game went (its result, length, orders, every chart outcome in
    /// order and every piece's end), so two rulesets' games on the same seed can be told
    /// apart: equal for games that went the same way.
    pub trace: u64,
}

impl Brief {
    pub(crate) fn of(run: u32, r: &RunResult) -> Self {
        Self {
            run,
            winner: r.winner,
            turns: r.turns,
            orders: r.policy_orders,
            started: r.failed.is_none(),
            trace: trace_of(r),
        }
    }
}

/// [`Brief::trace`].
fn trace_of(r: &RunResult) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (r.winner, r.turns, r.policy_orders, r.finished, &r.outcomes).hash(&mut h);
    format!("{:?}", r.pieces).hash(&mut h);
    h.finish()
}

/// Which games `--save-games` keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Which {
    /// Every game.
    All,
    /// The games this side won.
    Wins(String),
    /// The drawn games.
    Draws,
    /// The game that ended on the latest turn (the most orders among those; the first).
    Longest,
    /// The game that ended on the earliest turn (the fewest orders among those; the first).
    Shortest,
    /// Game N (seed + N).
    Game(u32),
}

impl Which {
    pub(crate) fn parse(text: &str) -> Result<Self, Failure> {
        Ok(match text {
            "all" => Self::All,
            "draws" => Self::Draws,
            "longest" => Self::Longest,
            "shortest" => Self::Shortest,
            _ => {
                if let Some(side) = text.strip_prefix("wins:") {
                    Self::Wins(side.to_owned())
                } else if let Ok(n) = text.parse::<u32>() {
                    Self::Game(n)
                } else {
                    return Err(Failure::Usage(format!(
                        "--which {text}: expected all, wins:SIDE, draws, longest, shortest or a game number"
                    )));
                }
            }
        })
    }

    /// The runs chosen among `briefs` (in run order).
    fn choose(&self, s: &Scenario, briefs: &[Brief]) -> Result<Vec<u32>, Failure> {
        let started = briefs.iter().filter(|b| b.started);
        Ok(match self {
            Self::All => started.map(|b| b.run).collect(),
            Self::Draws => started
                .filter(|b| b.winner == Some(None))
                .map(|b| b.run)
                .collect(),
            Self::Wins(name) => {
                let sides = &s.compiled.setup.sides;
                let Some(side) = sides.iter().position(|d| &d.name == name) else {
                    let names: Vec<&str> = sides.iter().map(|d| d.name.as_str()).collect();
                    return Err(Failure::Usage(format!(
                        "--which wins:{name}: no side `{name}` in this scenario (its sides: {})",
                        names.join(", ")
                    )));
                };
                started
                    .filter(|b| b.winner == Some(Some(side)))
                    .map(|b| b.run)
                    .collect()
            }
            Self::Longest => started
                .max_by_key(|b| (b.turns, b.orders, std::cmp::Reverse(b.run)))
                .map(|b| b.run)
                .into_iter()
                .collect(),
            Self::Shortest => started
                .min_by_key(|b| (b.turns, b.orders, b.run))
                .map(|b| b.run)
                .into_iter()
                .collect(),
            Self::Game(n) => {
                if !briefs.iter().any(|b| b.run == *n) {
                    return Err(Failure::Usage(format!(
                        "--which {n}: this run played games 0 to {} (and a shard only its own)",
                        briefs.iter().map(|b| b.run).max().unwrap_or(0)
                    )));
                }
                vec![*n]
            }
        })
    }
}

/// What `sim` says when `--which` matched none of the games it played.
pub(crate) fn none_saved(which: &str) -> String {
    format!("saved 0 games (no game matched {which})")
}

/// One saved game, as `sim` reports it.
#[derive(Debug, Serialize)]
pub(crate) struct SavedGame {
    /// Its number in the run.
    pub game: u32,
    /// Its seed.
    pub seed: u64,
    /// The save file.
    pub file: String,
    /// How it ended, in words.
    pub result: String,
    /// The turn it ended on.
    pub turns: u32,
    /// Orders in the save.
    pub orders: usize,
}

/// Plays the chosen games again, recording them, and writes each as
/// `DIR/{prefix}game-NNNN.json`.
#[allow(clippy::too_many_arguments)] // one call site, each argument a different thing
pub(crate) fn save_games(
    dir: &Path,
    prefix: &str,
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seats: &Seats,
    seed: u64,
    briefs: &[Brief],
    which: &Which,
) -> Result<Vec<SavedGame>, Failure> {
    let runs = which.choose(s, briefs)?;
    std::fs::create_dir_all(dir).map_err(|e| {
        Failure::Rules(format!(
            "{}: cannot make the folder for the games: {e}",
            load::display(dir)
        ))
    })?;
    let mut hooks = hooks_for(&s.ruleset)?;
    let mut saved = Vec::with_capacity(runs.len());
    for run in runs {
        let game_seed = run_seed(seed, run);
        let played = play_recorded(s, orders, seats, game_seed, hooks.as_mut());
        let Some(game) = played.game else {
            continue;
        };
        let path = dir.join(format!("{prefix}game-{run:04}.json"));
        let file = SaveFile::of(&game, s, &path, played.orders);
        let text =
            serde_json::to_string_pretty(&file).map_err(|e| Failure::Rules(e.to_string()))?;
        std::fs::write(&path, text).map_err(|e| {
            Failure::Rules(format!(
                "{}: cannot write the save: {e}",
                load::display(&path)
            ))
        })?;
        let result = match game.result() {
            Some(r) => r.why.clone(),
            None if played.result.failed.is_some() => "stopped by a policy's error".to_owned(),
            None => "no result".to_owned(),
        };
        saved.push(SavedGame {
            game: run,
            seed: game_seed,
            file: load::display(&path),
            result,
            turns: played.result.turns,
            orders: file.orders.len(),
        });
    }
    Ok(saved)
}

#[cfg(test)]
mod tests {
    use super::Which;

    #[test]
    fn which_reads_every_form_and_refuses_others() {
        assert_eq!(Which::parse("all").ok(), Some(Which::All));
        assert_eq!(
            Which::parse("wins:blue").ok(),
            Some(Which::Wins("blue".to_owned()))
        );
        assert_eq!(Which::parse("draws").ok(), Some(Which::Draws));
        assert_eq!(Which::parse("longest").ok(), Some(Which::Longest));
        assert_eq!(Which::parse("shortest").ok(), Some(Which::Shortest));
        assert_eq!(Which::parse("7").ok(), Some(Which::Game(7)));
        assert!(Which::parse("best").is_err());
        assert!(Which::parse("-1").is_err());
    }
}
