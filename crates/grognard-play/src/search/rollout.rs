//! Rollouts and scores: how a search finishes an imagined game cheaply and judges where it
//! got to.
//!
//! A rollout plays on from a leaf of the tree with a fast default policy to the end of the
//! enemy's reply to the decision ([`super::horizon`]), a rough greedy player that reads the
//! imagined world directly (it is imagined, so there is nothing to hide): each side gives
//! an action with a target when one is legal (nine times in ten; at an enemy, or at a
//! friend, as an order to a unit — the two alike), otherwise makes one of the
//! moves that end nearest an enemy when one closes (three times in four), otherwise gives a
//! random legal order one time in four or ends the phase; and it ends the phase after
//! [`ROLLOUT_ORDERS_PER_PHASE`] orders. It lists a side's legal orders once a phase, with a
//! few open-table moves a piece rather than every candidate ([`Breadth::Rough`]: toward the
//! nearest enemies and straight ahead), and keeps the list, listing again only the pieces
//! each order touched (`Kept`). A score is from the searching side's point of view, in
//! −1..1: a game that ended is +1 won, −1 lost, 0 drawn; one that goes on
//! is judged against where the decision started — half by the change in the `victory:`
//! points between the side and its best-placed enemy, half by the change in material (real
//! pieces on the table, weighted by the strength counter where the ruleset has one, and
//! worth less the more damage they carry: a damage counter is one named `hits`, `losses`,
//! `casualties` or `damage`, or one with a trigger that removes the piece; at its highest
//! value a piece counts half).
//!
//! A ruleset that binds the `evaluate` hook judges a game that goes on itself ([`judge`]):
//! the hook sees the searching side's view of the imagined game and the score above, and
//! its number (−1..1) replaces that score; `nil` keeps it. A game that ended is still
//! scored by its result, so a win always counts more than any position.

use grognard_kernel::action::{Action, Event, Order};
use grognard_kernel::game::{Breadth, Game};
use grognard_kernel::hooks::{HookFailure, HookPoint, Hooks};
use grognard_kernel::ids::{PieceId, SideId};
use rand_chacha::ChaCha8Rng;

use super::horizon::{Horizon, MAX_ROLLOUT_PHASES};
use crate::policy::below;

/// Orders one side gives in one phase of a rollout before it ends the phase.
pub const ROLLOUT_ORDERS_PER_PHASE: u32 = 6;
/// Most orders of one rollout, whatever the horizon.
pub const MAX_ROLLOUT_ORDERS: u32 = 400;

/// The counters that count damage (see the module doc), with their highest values.
fn damage_counters(game: &Game) -> Vec<(usize, i32)> {
    game.rules()
        .counters
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            ["hits", "losses", "casualties", "damage"].contains(&c.name.as_str())
                || c.triggers.iter().any(|t| {
                    t.effects
                        .iter()
                        .any(|e| matches!(e, grognard_kernel::rules::Effect::Remove { .. }))
                })
        })
        .map(|(i, c)| (i, c.max.max(1)))
        .collect()
}

/// What a game looked like where the decision began, for judging a later position.
#[derive(Clone, Debug)]
pub struct Baseline {
    /// The side's points minus its best-placed enemy's.
    points: f64,
    /// Each piece's material weight then, by piece index.
    weight: Vec<f64>,
    /// Total weight per side then.
    total: Vec<f64>,
    /// The damage counters, by index, with their highest values.
    damage: Vec<(usize, i32)>,
}

impl Baseline {
    /// The baseline of `game` for `side`.
    #[must_use]
    pub fn of(game: &Game, side: SideId) -> Self {
        let damage = damage_counters(game);
        let weight: Vec<f64> = (0..game.state().pieces.len())
            .map(|i| piece_weight(game, i, &damage))
            .collect();
        let mut total = vec![0.0; game.sides().len()];
        for (p, w) in game.state().pieces.iter().zip(&weight) {
            if let Some(t) = total.get_mut(p.side.index()) {
                *t += w;
            }
        }
        Self {
            points: points_margin(game, side),
            weight,
            total,
            damage,
        }
    }
}

/// A real piece's weight: 0 off the table or a dummy; otherwise 1, or its strength where
/// the ruleset counts one, less for its damage.
fn piece_weight(game: &Game, i: usize, damage: &[(usize, i32)]) -> f64 {
    let Some(p) = game.state().pieces.get(i) else {
        return 0.0;
    };
    let dummy = game.rules().piece_type(p.kind).is_none_or(|t| t.dummy);
    if !p.on_board() || dummy {
        return 0.0;
    }
    let strength = game
        .rules()
        .sighting
        .as_ref()
        .and_then(|s| s.strength)
        .map(|c| p.counter(c));
    let whole = match strength {
        Some(s) if s > 0 => f64::from(s),
        _ => 1.0,
    };
    let worn = damage
        .iter()
        .map(|(c, max)| {
            let v = p.counters.get(*c).copied().unwrap_or(0).clamp(0, *max);
            f64::from(v) / f64::from(*max)
        })
        .fold(0.0_f64, f64::max);
    whole * (1.0 - 0.5 * worn)
}

/// The side's victory points minus the most any other side has.
fn points_margin(game: &Game, side: SideId) -> f64 {
    let points = game.victory_points();
    let mine = points.get(side.index()).copied().unwrap_or(0);
    let best_other = points
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != side.index())
        .map(|(_, p)| *p)
        .max()
        .unwrap_or(0);
    f64::from(mine) - f64::from(best_other)
}

/// The score of `game` for `side`, against where the decision began (see the module doc).
#[must_use]
pub fn score(game: &Game, side: SideId, base: &Baseline) -> f64 {
    if let Some(result) = game.result() {
        return match result.winner {
            Some(w) if w == side => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
    }
    let points = (points_margin(game, side) - base.points) / 3.0;
    // The share of each side's material kept since the decision began.
    let mut kept = vec![0.0; game.sides().len()];
    for (i, p) in game.state().pieces.iter().enumerate() {
        if base.weight.get(i).copied().unwrap_or(0.0) > 0.0
            && let Some(k) = kept.get_mut(p.side.index())
        {
            *k += piece_weight(game, i, &base.damage);
        }
    }
    let share = |s: usize| {
        let total = base.total.get(s).copied().unwrap_or(0.0);
        if total > 0.0 {
            (kept[s] / total).min(1.0)
        } else {
            1.0
        }
    };
    let mine = share(side.index());
    let enemy = (0..kept.len())
        .filter(|s| *s != side.index())
        .map(share)
        .fold(1.0_f64, f64::min);
    let material = (mine - 1.0) - (enemy - 1.0);
    (0.5 * points.tanh() + 0.5 * material).clamp(-1.0, 1.0)
}

/// The score of `game` for `side`: [`score`], or the ruleset's `evaluate` hook's value of
/// the side's view where the hook is bound and the game goes on (see the module doc).
///
/// # Errors
/// The hook failed or returned what is not a number.
pub fn judge(
    game: &Game,
    side: SideId,
    base: &Baseline,
    hooks: &mut dyn Hooks,
) -> Result<f64, HookFailure> {
    let own = score(game, side, base);
    if game.result().is_some() || !hooks.is_bound(HookPoint::Evaluate) {
        return Ok(own);
    }
    // The view of the imagined world: what the side would know there, which the world
    // itself was drawn from what it knows now.
    let view = game.view(side);
    Ok(hooks
        .evaluate(&view, own)?
        .map_or(own, |v| v.clamp(-1.0, 1.0)))
}

/// What a rollout cost: orders applied and legal listings made.
#[derive(Clone, Copy, Debug, Default)]
pub struct Spent {
    /// Orders applied.
    pub orders: u64,
}

/// A side's listing of legal orders kept through a phase of a rollout: listing every
/// piece's orders after each order, with every open-table candidate, was nine tenths of a
/// black-powder rollout's time, each listing trying some 90 moves a piece. After an
/// order, only the pieces it touched (the events' pieces, the order's own and its target)
/// are listed again; the rest of the list is kept, and an order it holds that the game has
/// since come to refuse is dropped when tried. What an order newly allows a piece it did
/// not touch waits for the next phase's listing — a rollout's rough player misses it.
struct Kept {
    side: SideId,
    phase: u32,
    orders: Vec<Action>,
}

impl Kept {
    /// The kept listing for `who` in the horizon's `phase`, listed afresh if it is not
    /// that side's in that phase.
    fn refresh<'a>(
        slot: &'a mut Option<Self>,
        game: &Game,
        who: SideId,
        phase: u32,
        hooks: &mut dyn Hooks,
    ) -> &'a mut Self {
        if slot
            .as_ref()
            .is_none_or(|k| k.side != who || k.phase != phase)
        {
            *slot = None;
        }
        slot.get_or_insert_with(|| Self {
            side: who,
            phase,
            orders: game.legal_orders_of(who, None, Breadth::Rough, hooks),
        })
    }

    /// After `action` was applied with `events`: the orders of the side's pieces it
    /// touched, listed again in place of theirs (before the end of the phase).
    fn after(&mut self, game: &Game, action: &Action, events: &[Event], hooks: &mut dyn Hooks) {
        let mut touched: Vec<PieceId> = events.iter().filter_map(Event::piece).collect();
        touched.extend(action.piece());
        if let Action::Act {
            target: Some(t), ..
        } = action
        {
            touched.push(*t);
        }
        touched.sort_unstable();
        touched.dedup();
        touched.retain(|p| game.piece(*p).is_some_and(|p| p.side == self.side));
        self.orders
            .retain(|a| a.piece().is_none_or(|p| touched.binary_search(&p).is_err()));
        let fresh = game.legal_orders_of(self.side, Some(&touched), Breadth::Rough, hooks);
        let end = self
            .orders
            .iter()
            .position(|a| *a == Action::EndPhase)
            .unwrap_or(self.orders.len());
        self.orders.splice(end..end, fresh);
    }
}

/// Plays `game` on with the default policy until the line reaches its `horizon` (the end
/// of the enemy's reply), at most [`MAX_ROLLOUT_PHASES`] phases, or the game's end.
pub fn roll_out(
    game: &mut Game,
    hooks: &mut dyn Hooks,
    rng: &mut ChaCha8Rng,
    horizon: &mut Horizon,
    spent: &mut Spent,
) {
    let first = horizon.phases();
    let mut phase = first;
    let (mut given, mut orders) = (0, 0);
    let mut kept: Option<Kept> = None;
    while !horizon.reached()
        && horizon.phases() - first < MAX_ROLLOUT_PHASES
        && orders < MAX_ROLLOUT_ORDERS
    {
        let Some(&who) = game.to_act().first() else {
            break;
        };
        orders += 1;
        // Past the cap the phase ends, with no listing made for it.
        let list = (given < ROLLOUT_ORDERS_PER_PHASE)
            .then(|| Kept::refresh(&mut kept, game, who, horizon.phases(), hooks));
        let action = list.as_ref().map_or(Action::EndPhase, |l| {
            default_order(game, who, &l.orders, rng)
        });
        let order = Order { side: who, action };
        match (game.apply(&order, hooks), list) {
            (Ok(events), list) => {
                given += 1;
                if let Some(list) = list.filter(|_| order.action != Action::EndPhase) {
                    list.after(game, &order.action, &events, hooks);
                }
            }
            // A kept order the game now refuses: dropped, and another tried.
            (Err(_), Some(list)) if order.action != Action::EndPhase => {
                list.orders.retain(|a| *a != order.action);
                continue;
            }
            // The world refuses the end of the phase (a ruleset's bug): the line stops.
            (Err(_), _) => break,
        }
        spent.orders += 1;
        horizon.observe(game);
        if horizon.phases() != phase {
            phase = horizon.phases();
            given = 0;
        }
    }
}

/// The default policy's order for `who` from `legal` (see the module doc).
fn default_order(game: &Game, who: SideId, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
    let targeted: Vec<&Action> = legal
        .iter()
        .filter(|a| {
            matches!(
                a,
                Action::Act {
                    target: Some(_),
                    ..
                }
            )
        })
        .collect();
    if !targeted.is_empty() && below(rng, 10) != 0 {
        return targeted[below(rng, targeted.len())].clone();
    }
    let closing: Vec<(i64, &Action)> = legal
        .iter()
        .filter_map(|a| closing(game, who, a).map(|d| (d, a)))
        .filter(|(d, _)| *d > 0)
        .collect();
    if let Some(best) = closing.iter().map(|(d, _)| *d).max()
        && below(rng, 4) != 0
    {
        let tied: Vec<&Action> = closing
            .iter()
            .filter(|(d, _)| *d == best)
            .map(|(_, a)| *a)
            .collect();
        return tied[below(rng, tied.len())].clone();
    }
    let others: Vec<&Action> = legal.iter().filter(|a| **a != Action::EndPhase).collect();
    if others.is_empty() || below(rng, 4) != 0 {
        Action::EndPhase
    } else {
        others[below(rng, others.len())].clone()
    }
}

/// How much nearer to the nearest enemy piece a move of `who` ends than it starts (cells,
/// or thousandths of an inch); `None` for an order that is not a move.
fn closing(game: &Game, who: SideId, action: &Action) -> Option<i64> {
    use grognard_kernel::geometry::open;
    use grognard_kernel::piece::Place;
    let (piece, to) = match action {
        Action::Move { piece, path } => (*piece, Place::Cell(*path.last()?)),
        Action::MoveTo { piece, to, .. } => (
            *piece,
            Place::Point {
                at: *to,
                facing: open::Angle::default(),
            },
        ),
        _ => return None,
    };
    let from = &game.piece(piece)?.place;
    let grid = game.board().grid();
    let distance = |a: &Place, b: &Place| -> Option<i64> {
        match (a, b) {
            (Place::Point { at: pa, .. }, Place::Point { at: pb, .. }) => {
                Some(open::distance(*pa, *pb).0)
            }
            _ => Some(i64::from(grid?.distance(a.cell()?, b.cell()?))),
        }
    };
    let nearest = |at: &Place| {
        game.state()
            .pieces
            .iter()
            .filter(|p| p.side != who && p.on_board())
            .filter_map(|p| distance(at, &p.place))
            .min()
    };
    Some(nearest(from)? - nearest(&to)?)
}

/// Applies `action` for `side`, or ends its phase when the world refuses it (as a real game
/// does with an order its side could not see was impossible). False when not even that is
/// accepted.
pub fn apply_or_end(game: &mut Game, side: SideId, action: Action, hooks: &mut dyn Hooks) -> bool {
    let order = Order { side, action };
    if game.apply(&order, hooks).is_ok() {
        return true;
    }
    let end = Order {
        side,
        action: Action::EndPhase,
    };
    order.action != Action::EndPhase && game.apply(&end, hooks).is_ok()
}
