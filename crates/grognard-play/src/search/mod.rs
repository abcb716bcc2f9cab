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
//!    orders legal there — below the decision itself a rough listing, a few open-table
//!    moves a piece ([`Breadth::Rough`]) — and adds one node;
//! 3. plays on from there with a fast default policy to the end of the enemy's reply
//!    ([`horizon`]: the rest of the side's part of the turn and the enemy's next; [`rollout`]) and
//!    scores where it got to from the side's point of view (`victory:` points and
//!    material, or the result of a game that ended), or asks the ruleset's `evaluate`
//!    hook where it binds one ([`rollout::judge`]);
//! 4. counts the score on every node it went through.
//!
//! The order given is the greedy policy's choice (the prior's first, always tried first)
//! unless the decision's most visited child beats it surely — by more than
//! [`tree::SURE`] standard errors of the two means ([`Tree::chosen`]): the search plays
//! greedy's order where its rollouts cannot tell better from noise. [`explain`] keeps the
//! order given and the most visited others with their visits and mean scores. Every random choice comes from the
//! player's own stream, so with `it=N` a seed gives the same orders every time.

pub mod explain;
pub mod horizon;
pub mod rollout;
pub mod tree;
pub mod worlds;

use std::time::{Duration, Instant};

use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::{Breadth, Game};
use grognard_kernel::hooks::{HookFailure, Hooks};
use grognard_kernel::ids::{PieceId, SideId};
use grognard_rules::orders::describe_order_as;
use rand_chacha::ChaCha8Rng;

use crate::policy::{below, greedy_score};
pub use explain::{Considered, Explanation};
use tree::{Step, Tree};

/// The time a decision may take when `search` names no budget, in milliseconds.
pub const DEFAULT_MILLIS: u64 = 1000;
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
    let default = prior.first().map(|(a, _)| a);
    let given = tree.chosen(default);
    let chosen = given.map_or(Action::EndPhase, |n| n.action.clone());
    // The order given first, then the rest most visited first.
    let ranked = tree.ranked();
    // Greedy's order given where the tree ranks another first: kept, not overruled.
    let kept_default =
        default == Some(&chosen) && ranked.first().is_some_and(|b| b.action != chosen);
    let considered = given
        .into_iter()
        .chain(ranked.into_iter().filter(|n| n.action != chosen))
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
        kept_default,
    };
    Ok((chosen, explanation))
}

/// The decision's orders in the order they are added to the tree, each with the prior's
/// opinion of it (0 to 1): the greedy policy's score, best first, ties in the listed order
/// — so the first is the greedy policy's own choice — and the end of the phase second, so
/// that standing still is always weighed against greedy's order (on the open table dozens
/// of closing moves score, and behind them it was never tried); an action at an enemy is
/// worth 1, a move that closes ½ to 1, an action without a target ½, the end of the phase
/// ¼, anything else 0.
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
    end_second(&mut scored, legal);
    let best_move = scored
        .iter()
        .filter(|(s, i)| *s > 1 && is_move(&legal[*i]))
        .map(|(s, _)| *s)
        .max()
        .unwrap_or(1);
    scored
        .into_iter()
        .map(|(s, i)| (legal[i].clone(), opinion(Kind::of(&legal[i]), s, best_move)))
        .collect()
}

/// Moves the end of the phase, wherever the scores put it, to just after the first of
/// `ranked` (indices into `legal` with their scores); the first stays first.
fn end_second(ranked: &mut Vec<(i64, usize)>, legal: &[Action]) {
    if let Some(end) = ranked
        .iter()
        .skip(1)
        .position(|(_, i)| legal.get(*i) == Some(&Action::EndPhase))
    {
        let item = ranked.remove(end + 1);
        ranked.insert(1, item);
    }
}

/// Whether `action` moves a piece (what the prior weighs by how much it closes).
fn is_move(action: &Action) -> bool {
    matches!(action, Action::Move { .. } | Action::MoveTo { .. })
}

/// What kind of order the prior weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    EndPhase,
    AtEnemy,
    Untargeted,
    Move,
    Other,
}

impl Kind {
    fn of(action: &Action) -> Self {
        match action {
            Action::EndPhase => Self::EndPhase,
            Action::Act {
                target: Some(_), ..
            } => Self::AtEnemy,
            Action::Act { target: None, .. } => Self::Untargeted,
            a if is_move(a) => Self::Move,
            _ => Self::Other,
        }
    }
}

/// The prior's opinion of an order of `kind` whose greedy score is `score`, where the best
/// move scores `best_move` (see [`root_prior`]). Always within 0..1: an action with no
/// target (limbering, digging in), which greedy scores above a short move, counts ½ like
/// the least closing move rather than by its score against the moves'.
fn opinion(kind: Kind, score: i64, best_move: i64) -> f64 {
    match kind {
        Kind::EndPhase => 0.25,
        Kind::AtEnemy => 1.0,
        Kind::Untargeted if score > 1 => 0.5,
        Kind::Move if score > 1 => 0.5 + 0.5 * (score as f64 / best_move.max(1) as f64).min(1.0),
        _ => 0.0,
    }
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
    let mut horizon = horizon::Horizon::new(&world, side);
    let mut path = vec![0];
    let mut node = 0;
    while path.len() <= MAX_DEPTH {
        let Some(&who) = world.to_act().first() else {
            break;
        };
        let here = if node == 0 {
            legal.to_vec()
        } else {
            world.legal_orders_of(who, None, Breadth::Rough, hooks)
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
        horizon.observe(&world);
        if expanded {
            break;
        }
    }
    rollout::roll_out(&mut world, hooks, rng, &mut horizon, spent);
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
    fn the_prior_opinion_stays_within_zero_to_one() {
        // No move closes (the best move scores 1): digging in (greedy's 10) was worth 5.5.
        assert!((opinion(Kind::Untargeted, 10, 1) - 0.5).abs() < 1e-9);
        assert!((opinion(Kind::Move, 2000, 2000) - 1.0).abs() < 1e-9);
        assert!((opinion(Kind::Move, 1000, 2000) - 0.75).abs() < 1e-9);
        assert!(opinion(Kind::Move, 0, 2000).abs() < 1e-9);
        assert!((opinion(Kind::EndPhase, 1, 2000) - 0.25).abs() < 1e-9);
        assert_eq!(Kind::of(&Action::EndPhase), Kind::EndPhase);
        let step = Action::Move {
            piece: PieceId(1),
            path: vec![grognard_kernel::geometry::Cell::new(1, 1)],
        };
        assert_eq!(Kind::of(&step), Kind::Move);
    }

    #[test]
    fn the_end_of_the_phase_is_weighed_second() {
        let step = |i| Action::Gather { piece: PieceId(i) };
        let legal = vec![step(0), step(1), Action::EndPhase, step(2)];
        // Ranked by score: 1 and 2 score more than the end of the phase (index 2).
        let mut ranked = vec![(9, 1), (5, 3), (4, 0), (1, 2)];
        end_second(&mut ranked, &legal);
        assert_eq!(ranked, vec![(9, 1), (1, 2), (5, 3), (4, 0)]);
        // Already first or second: unchanged.
        let mut first = vec![(1, 2), (9, 1)];
        end_second(&mut first, &legal);
        assert_eq!(first, vec![(1, 2), (9, 1)]);
        let mut none = vec![(9, 1), (5, 3)];
        end_second(&mut none, &legal);
        assert_eq!(none, vec![(9, 1), (5, 3)]);
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
