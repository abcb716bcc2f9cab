//! The `search` policy: information-set Monte Carlo tree search over the legal orders.
//!
//! At each decision it runs iterations until its budget is spent — a time budget
//! (`search:MILLISECONDS`, 1000 by default) or a fixed number of iterations
//! (`search:it=N`, which makes the choice depend on the seed alone, not on the machine's
//! speed). One iteration:
//!
//! 1. draws a world the side cannot tell from the real game ([`worlds`]: enemy markers'
//!    identities and unseen enemies' places redrawn from what the side knows, fresh dice);
//! 2. goes down the [`tree`] in that world by UCB1 with progressive widening, trying the
//!    orders legal there, and adds one node;
//! 3. plays on from there with a fast default policy for a few phases ([`rollout`]) and
//!    scores where it got to from the side's point of view (`victory:` points and
//!    material, or the result of a game that ended), or asks the ruleset's `evaluate`
//!    hook where it binds one ([`rollout::judge`]);
//! 4. counts the score on every node it went through.
//!
//! The order given is the decision's most visited child; [`explain`] keeps the most
//! visited ones with their visits and mean scores. Every random choice comes from the
//! player's own stream, so with `it=N` a seed gives the same orders every time.

pub mod explain;
pub mod rollout;
pub mod tree;
pub mod worlds;

use std::time::{Duration, Instant};

use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_kernel::hooks::{HookFailure, Hooks};
use grognard_kernel::ids::{PieceId, SideId};
use grognard_rules::orders::describe_order_as;
use rand_chacha::ChaCha8Rng;

use crate::policy::{below, greedy_score};
pub use explain::{Considered, Explanation};
use tree::{Step, Tree};

/// The time a decision may take when `search` names no budget, in milliseconds.
pub const DEFAULT_MILLIS: u64 = 1000;
/// Phases a rollout plays on past the tree.
pub const HORIZON_PHASES: u32 = 3;
/// Deepest a path goes down the tree (orders after the decision).
pub const MAX_DEPTH: usize = 24;
/// Most iterations in one decision, whatever the time budget (a bound on memory).
pub const MAX_ITERATIONS: u32 = 200_000;

/// How long a decision may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Wall time, in milliseconds (at least one iteration is made).
    Millis(u64),
    /// A fixed number of iterations.
    Iterations(u32),
}

impl Budget {
    /// The budget `search:SPEC` names: `""` (the default), `MILLISECONDS` or `it=N`.
    ///
    /// # Errors
    /// Anything else, saying what is accepted.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let bad = |why: &str| {
            format!(
                "--policy search:{spec}: {why}; write search, search:MILLISECONDS (e.g. \
                 search:500) or search:it=ITERATIONS (e.g. search:it=200)"
            )
        };
        if spec.is_empty() {
            return Ok(Self::Millis(DEFAULT_MILLIS));
        }
        if let Some(n) = spec.strip_prefix("it=") {
            return match n.parse::<u32>() {
                Ok(0) => Err(bad("at least one iteration is needed")),
                Ok(n) if n > MAX_ITERATIONS => Err(bad(&format!(
                    "at most {MAX_ITERATIONS} iterations a decision"
                ))),
                Ok(n) => Ok(Self::Iterations(n)),
                Err(_) => Err(bad(&format!("`{n}` is not a whole number of iterations"))),
            };
        }
        match spec.parse::<u64>() {
            Ok(0) => Err(bad("a decision needs at least 1 millisecond")),
            Ok(ms) if ms > 3_600_000 => Err(bad("at most an hour (3600000 ms) a decision")),
            Ok(ms) => Ok(Self::Millis(ms)),
            Err(_) => Err(bad(&format!(
                "`{spec}` is not a whole number of milliseconds"
            ))),
        }
    }

    /// How `--policy` names it (`search`, `search:500`, `search:it=200`).
    #[must_use]
    pub fn policy_name(self) -> String {
        match self {
            Self::Millis(DEFAULT_MILLIS) => "search".to_owned(),
            Self::Millis(ms) => format!("search:{ms}"),
            Self::Iterations(n) => format!("search:it={n}"),
        }
    }
}

/// Searches the decision of `side` in `game` among `legal` (its listed orders) within
/// `budget`, drawing from `rng`; the order to give and the account of the decision. The
/// imagined games use `hooks` (the ruleset's scripts); a fault they meet is cleared, since
/// it is none of the real game's.
///
/// # Errors
/// The ruleset's `evaluate` hook failed (its script and line, and what went wrong): it
/// judges every imagined line, so the search cannot go on without it.
pub fn think(
    game: &Game,
    side: SideId,
    legal: &[Action],
    hooks: &mut dyn Hooks,
    budget: Budget,
    rng: &mut ChaCha8Rng,
) -> Result<(Action, Explanation), String> {
    let started = Instant::now();
    let prior = root_prior(game, side, legal);
    let mut tree = Tree::new(side);
    let mut spent = rollout::Spent::default();
    let mut iterations = 0u32;
    loop {
        let more = match budget {
            Budget::Iterations(n) => iterations < n,
            Budget::Millis(ms) => {
                iterations == 0
                    || (iterations < MAX_ITERATIONS
                        && started.elapsed() < Duration::from_millis(ms))
            }
        };
        if !more {
            break;
        }
        let judged = iterate(game, side, legal, &prior, &mut tree, hooks, rng, &mut spent);
        if let Err(e) = judged {
            let _ = hooks.take_fault();
            return Err(e.message);
        }
        iterations += 1;
    }
    let _ = hooks.take_fault();
    let ranked = tree.ranked();
    let chosen = ranked
        .first()
        .map_or(Action::EndPhase, |n| n.action.clone());
    let considered = ranked
        .iter()
        .take(explain::SHOWN)
        .map(|n| Considered {
            order: serde_json::to_value(describe_order_as(
                game,
                &Order {
                    side,
                    action: n.action.clone(),
                },
                Some(side),
            ))
            .unwrap_or_default(),
            visits: n.visits,
            mean: n.mean(),
        })
        .collect();
    let explanation = Explanation {
        iterations,
        simulated_orders: spent.orders,
        millis: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        considered,
    };
    Ok((chosen, explanation))
}

/// The decision's orders in the order they are added to the tree, each with the prior's
/// opinion of it (0 to 1): the greedy policy's score, best first, the end of the phase just
/// after every order that scores (so that standing still is weighed early), ties in the
/// listed order; an action at an enemy is worth 1, a move that closes ½ to 1, the end of
/// the phase ¼, anything else 0.
fn root_prior(game: &Game, side: SideId, legal: &[Action]) -> Vec<(Action, f64)> {
    let view = game.view(side);
    let handle = |id: PieceId| PieceId(game.handle_of(side, id).unwrap_or(u32::MAX));
    let mut scored: Vec<(i64, usize)> = legal
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let s = if *a == Action::EndPhase {
                1
            } else {
                greedy_score(&view, game.board(), a, &handle)
            };
            (s, i)
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let best_move = scored
        .iter()
        .filter(|(s, i)| *s > 1 && !matches!(legal[*i], Action::Act { .. }))
        .map(|(s, _)| *s)
        .max()
        .unwrap_or(1);
    scored
        .into_iter()
        .map(|(s, i)| {
            let opinion = match &legal[i] {
                Action::EndPhase => 0.25,
                Action::Act {
                    target: Some(_), ..
                } => 1.0,
                _ if s > 1 => 0.5 + 0.5 * s as f64 / best_move as f64,
                _ => 0.0,
            };
            (legal[i].clone(), opinion)
        })
        .collect()
}

/// One iteration (see the module doc); fails only when the `evaluate` hook does.
#[allow(clippy::too_many_arguments)]
fn iterate(
    game: &Game,
    side: SideId,
    legal: &[Action],
    prior: &[(Action, f64)],
    tree: &mut Tree,
    hooks: &mut dyn Hooks,
    rng: &mut ChaCha8Rng,
    spent: &mut rollout::Spent,
) -> Result<(), HookFailure> {
    let mut world = worlds::sample(game, side, rng);
    let base = rollout::Baseline::of(&world, side);
    let mut path = vec![0];
    let mut node = 0;
    while path.len() <= MAX_DEPTH {
        let Some(&who) = world.to_act().first() else {
            break;
        };
        let here = if node == 0 {
            legal.to_vec()
        } else {
            world.legal_orders(who, hooks)
        };
        let mut pick = |untried: &[&Action]| {
            if node == 0 {
                // The best-ranked order not yet in the tree.
                prior
                    .iter()
                    .find_map(|(p, _)| untried.iter().position(|u| *u == p))
                    .unwrap_or(0)
            } else {
                below(rng, untried.len())
            }
        };
        let Some(step) = tree.step(node, who, &here, &mut pick) else {
            break;
        };
        let (child, expanded) = match step {
            Step::Expand(action) => {
                let opinion = if node == 0 {
                    prior
                        .iter()
                        .find(|(p, _)| *p == action)
                        .map_or(0.0, |(_, o)| *o)
                } else {
                    0.0
                };
                (tree.add(node, who, action, opinion), true)
            }
            Step::Descend(c) => (c, false),
        };
        let action = tree.nodes[child].action.clone();
        path.push(child);
        node = child;
        if !rollout::apply_or_end(&mut world, who, action, hooks) {
            break;
        }
        spent.orders += 1;
        if expanded {
            break;
        }
    }
    rollout::roll_out(&mut world, hooks, rng, HORIZON_PHASES, spent);
    let score = rollout::judge(&world, side, &base, hooks)?;
    tree.back_up(&path, score);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_and_name_themselves() {
        assert_eq!(Budget::parse(""), Ok(Budget::Millis(1000)));
        assert_eq!(Budget::parse("250"), Ok(Budget::Millis(250)));
        assert_eq!(Budget::parse("it=40"), Ok(Budget::Iterations(40)));
        for b in [
            Budget::Millis(1000),
            Budget::Millis(5),
            Budget::Iterations(7),
        ] {
            let name = b.policy_name();
            let spec = name.strip_prefix("search").unwrap_or_default();
            assert_eq!(Budget::parse(spec.trim_start_matches(':')), Ok(b), "{name}");
        }
    }

    #[test]
    fn bad_budgets_say_what_is_accepted() {
        for bad in ["0", "it=0", "it=x", "fast", "-5", "it=999999999"] {
            let e = Budget::parse(bad).err().unwrap_or_default();
            assert!(e.contains("search:it=ITERATIONS"), "{bad}: {e}");
            assert!(e.starts_with(&format!("--policy search:{bad}:")), "{e}");
        }
    }
}
