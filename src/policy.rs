//! Policies: who plays a side when no orders file does. A policy sees only its side's
//! [`View`] and its legal orders (from [`Game::legal_orders`]) plus the public board and
//! rules — never the referee's state — and draws from its own random stream, seeded from the
//! game's seed and the side, so the game's dice do not depend on how many choices a policy
//! made.
//!
//! - `random`: ends the phase with probability 1/8, otherwise picks uniformly among the
//!   other legal orders.
//! - `greedy`: a simple heuristic. It scores each legal order: an action at an enemy 100
//!   (the nearer the target, the better), another action 10, a move by how much closer it
//!   ends to the nearest enemy its side knows of (a move that does not close scores nothing),
//!   anything else nothing; it gives the best order, ties broken by its random stream, and
//!   ends the phase when nothing scores.
//!
//! Either ends the phase after [`MAX_ORDERS_PER_PHASE`] orders in one phase, so a phase
//! cannot go on forever (turning back and forth, say).

use grognard_kernel::action::{Action, Event, Order};
use grognard_kernel::board::Board;
use grognard_kernel::game::Game;
use grognard_kernel::geometry::Grid;
use grognard_kernel::geometry::open;
use grognard_kernel::hooks::Hooks;
use grognard_kernel::ids::SideId;
use grognard_kernel::piece::Place;
use grognard_kernel::view::View;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use crate::common::Failure;

/// Most orders a policy gives in one phase before it ends the phase.
pub(crate) const MAX_ORDERS_PER_PHASE: u32 = 64;

/// The policies `--policy` accepts.
pub(crate) const POLICY_NAMES: [&str; 2] = ["random", "greedy"];

/// A built-in policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PolicyKind {
    /// Uniform among the legal orders, ending the phase one time in eight.
    Random,
    /// Close on the nearest known enemy, act on enemies when able.
    Greedy,
}

impl PolicyKind {
    /// The policy named `name`, or a usage error with "did you mean".
    pub(crate) fn parse(name: &str) -> Result<Self, Failure> {
        match name {
            "random" => Ok(Self::Random),
            "greedy" => Ok(Self::Greedy),
            other => {
                let hint = grognard_rules::suggest::did_you_mean(other, POLICY_NAMES)
                    .map_or_else(String::new, |s| format!("; did you mean `{s}`?"));
                Err(Failure::Usage(format!(
                    "unknown policy `{other}`; the policies are {}{hint}",
                    POLICY_NAMES.join(", ")
                )))
            }
        }
    }
}

/// Which policy plays each side (`None`: no policy; the side's orders come from a file).
pub(crate) type Seats = Vec<Option<PolicyKind>>;

/// Reads `--policy` values: `NAME` for every side, or `SIDE=NAME` for one (later values win).
pub(crate) fn seats(values: &[String], sides: &[String]) -> Result<Seats, Failure> {
    let mut seats = vec![None; sides.len()];
    for v in values {
        match v.split_once('=') {
            None => {
                let kind = PolicyKind::parse(v)?;
                seats.iter_mut().for_each(|s| *s = Some(kind));
            }
            Some((side, name)) => {
                let Some(i) = sides.iter().position(|s| s == side) else {
                    let hint = grognard_rules::suggest::did_you_mean(
                        side,
                        sides.iter().map(String::as_str),
                    )
                    .map_or_else(String::new, |s| format!("; did you mean `{s}`?"));
                    return Err(Failure::Usage(format!(
                        "--policy {v}: unknown side `{side}`; the sides are {}{hint}",
                        sides.join(", ")
                    )));
                };
                seats[i] = Some(PolicyKind::parse(name)?);
            }
        }
    }
    Ok(seats)
}

/// One side's player: its policy and its own random stream.
pub(crate) struct Player {
    kind: PolicyKind,
    rng: ChaCha8Rng,
    /// (turn, phase step) of the phase the count below is for.
    phase: (u32, u32),
    given: u32,
}

impl Player {
    /// The player of `side` in the game seeded with `seed`.
    pub(crate) fn new(kind: PolicyKind, seed: u64, side: SideId) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // A stream of its own per side, apart from the game's dice.
        rng.set_stream(0x706f_6c69_6379_0000 | u64::from(side.0));
        Self {
            kind,
            rng,
            phase: (0, 0),
            given: 0,
        }
    }

    /// The order this player gives now, from `legal` (which ends with `end_phase`).
    pub(crate) fn choose(
        &mut self,
        game_phase: (u32, u32),
        view: &View,
        board: &Board,
        legal: &[Action],
    ) -> Action {
        if self.phase != game_phase {
            self.phase = game_phase;
            self.given = 0;
        }
        self.given += 1;
        let others: Vec<&Action> = legal.iter().filter(|a| **a != Action::EndPhase).collect();
        if self.given > MAX_ORDERS_PER_PHASE || others.is_empty() {
            return Action::EndPhase;
        }
        match self.kind {
            PolicyKind::Random => {
                if self.below(8) == 0 {
                    Action::EndPhase
                } else {
                    others[self.below(others.len())].clone()
                }
            }
            PolicyKind::Greedy => {
                let scores: Vec<i64> = others
                    .iter()
                    .map(|a| greedy_score(view, board, a))
                    .collect();
                let best = scores.iter().copied().max().unwrap_or(0);
                if best <= 0 {
                    return Action::EndPhase;
                }
                let tied: Vec<usize> = (0..others.len()).filter(|i| scores[*i] == best).collect();
                others[tied[self.below(tied.len())]].clone()
            }
        }
    }

    /// A uniform draw from `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        let n = n.max(1) as u64;
        // Rejection sampling keeps the draw exactly uniform.
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.rng.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }
}

/// Where an own piece stands, from the view.
fn own_place(view: &View, piece: grognard_kernel::ids::PieceId) -> Option<&Place> {
    view.own.iter().find(|p| p.id == piece).map(|p| &p.place)
}

/// Distance between two places in the board's own measure (cells, or thousandths of an
/// inch on the open table); `None` when either is off the board.
fn distance(grid: Option<&Grid>, a: &Place, b: &Place) -> Option<i64> {
    match (a, b) {
        (Place::Point { at: pa, .. }, Place::Point { at: pb, .. }) => {
            Some(open::distance(*pa, *pb).0)
        }
        _ => {
            let (ca, cb) = (a.cell()?, b.cell()?);
            grid.map(|g| i64::from(g.distance(ca, cb)))
        }
    }
}

/// How far `place` is from the nearest enemy the view knows the place of.
fn nearest_enemy(view: &View, grid: Option<&Grid>, place: &Place) -> Option<i64> {
    view.enemy
        .iter()
        .filter_map(|e| e.place.as_ref())
        .filter_map(|p| distance(grid, place, p))
        .min()
}

/// The greedy policy's score of one order (see the module doc).
fn greedy_score(view: &View, board: &Board, action: &Action) -> i64 {
    let grid = board.grid();
    match action {
        Action::Act {
            target: Some(t),
            piece,
            ..
        } => {
            let near = view
                .enemy
                .iter()
                .find(|e| e.handle == *t)
                .and_then(|e| e.place.as_ref())
                .zip(own_place(view, *piece))
                .and_then(|(tp, pp)| distance(grid, pp, tp))
                .unwrap_or(0);
            // Nearer targets first, but any action at an enemy beats any move.
            100 + (50 - near.min(50_000) / 1000).max(0)
        }
        Action::Act { target: None, .. } => 10,
        Action::Move { piece, path } => {
            let (Some(from), Some(to)) = (own_place(view, *piece), path.last()) else {
                return 0;
            };
            closing(view, grid, from, &Place::Cell(*to)).map_or(0, |d| d.max(0) * 1000)
        }
        Action::MoveTo { piece, to, .. } => {
            let Some(from) = own_place(view, *piece) else {
                return 0;
            };
            let facing = match from {
                Place::Point { facing, .. } => *facing,
                _ => return 0,
            };
            let dest = Place::Point { at: *to, facing };
            closing(view, grid, from, &dest).map_or(0, |d| d.max(0))
        }
        _ => 0,
    }
}

/// How much closer to the nearest known enemy a piece ends at `to` than at `from`.
fn closing(view: &View, grid: Option<&Grid>, from: &Place, to: &Place) -> Option<i64> {
    Some(nearest_enemy(view, grid, from)? - nearest_enemy(view, grid, to)?)
}

/// The chart outcome of each action among `events`: (acting piece index, action, outcome).
pub(crate) fn chart_outcomes(events: Vec<Event>) -> impl Iterator<Item = (usize, String, String)> {
    events.into_iter().filter_map(|e| match e {
        Event::Acted {
            piece,
            action,
            roll: Some(roll),
            ..
        } => Some((piece.0 as usize, action, roll.outcome)),
        _ => None,
    })
}

/// What playing a game with policies gave.
#[derive(Debug, Default)]
pub(crate) struct Played {
    /// Orders given by policies.
    pub(crate) orders: u64,
    /// Orders of theirs that `apply` refused (only where a side could not see what was
    /// there); the phase was ended instead.
    pub(crate) refused: Vec<String>,
    /// Each chart outcome of an action: (acting piece index, action, outcome).
    pub(crate) outcomes: Vec<(usize, String, String)>,
}

/// Plays `game` to its end with the players of `seats` (sides without one end each phase
/// they are asked to act in). Stops after `max_orders` orders at most.
pub(crate) fn play_out(
    game: &mut Game,
    hooks: &mut dyn Hooks,
    players: &mut [Option<Player>],
    max_orders: u64,
) -> Played {
    let mut played = Played::default();
    while played.orders < max_orders {
        let Some(&side) = game.to_act().first() else {
            break;
        };
        let phase = (game.state().turn, game.state().step);
        let action = match players.get_mut(side.index()).and_then(Option::as_mut) {
            Some(player) => {
                let legal = game.legal_orders(side, hooks);
                let view = game.view(side);
                player.choose(phase, &view, game.board(), &legal)
            }
            None => Action::EndPhase,
        };
        played.orders += 1;
        let order = Order { side, action };
        match game.apply(&order, hooks) {
            Ok(events) => played.outcomes.extend(chart_outcomes(events)),
            Err(r) => {
                played.refused.push(r.message);
                let end = Order {
                    side,
                    action: Action::EndPhase,
                };
                if game.apply(&end, hooks).is_err() {
                    break;
                }
            }
        }
    }
    played
}
