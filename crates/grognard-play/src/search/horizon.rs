//! The horizon: where an imagined line stops, in the ruleset's own terms — at the end of
//! the enemy's reply to the decision.
//!
//! The sequence of play is read as parts: a run of side-turn phases whose phasing side is
//! the same (`Game::phase`; the phases of `turn_start` and `turn_end`, which carry the first
//! side of the order, belong to no side). A line from a decision plays on past the rest of
//! the searching side's current part, through the next part of an enemy, and stops as soon
//! as that part ends: on Hex Command, from a movement phase, through the side's fire,
//! melee and rally and then the enemy's whole side turn; on square-blocks, whose side turn
//! is a command and a movement phase, to the end of the enemy's movement. A decision made
//! in an enemy's part (the defensive fire in the enemy's turn) stops at the end of that
//! part. A rollout plays at most [`MAX_ROLLOUT_PHASES`] phases past the tree whatever the
//! parts, so a ruleset with one long phase, or a line where the side moves twice running,
//! still ends.

use grognard_kernel::game::Game;
use grognard_kernel::ids::SideId;
use grognard_kernel::state::Stage;

/// Most phases a rollout plays past the tree before it is scored, however far the enemy's
/// reply is: sixteen. On Hex Command a decision in the command phase of the side that plays
/// first sees its side turn and the enemy's in twelve; the side that plays second needs
/// fourteen when the enemy plays first the next turn (the turn's end and the arrivals
/// between); a side that plays last in one turn and first in the next is cut short.
pub const MAX_ROLLOUT_PHASES: u32 = 16;

/// The side-turn part the game is in: the phasing side of a side-turn phase, `None` in a
/// turn-wide phase, before the turns or after the end (see the module doc).
#[must_use]
pub fn part(game: &Game) -> Option<SideId> {
    let state = game.state();
    if state.stage != Stage::Playing {
        return None;
    }
    let seq = game.rules().sequence.active(&state.options);
    let step = state.step as usize;
    let start = seq.turn_start.len();
    let end = start + seq.side_turn.len() * state.order.len();
    if step < start || step >= end {
        return None;
    }
    game.phase().map(|(_, phasing)| phasing)
}

/// How far a line from a decision has got towards its horizon (see the module doc).
#[derive(Clone, Copy, Debug)]
pub struct Horizon {
    /// The searching side.
    side: SideId,
    /// The enemy whose part the line has reached, once it has.
    enemy: Option<SideId>,
    /// The line has passed the end of that part (or the game ended).
    reached: bool,
    /// The turn and step last seen.
    at: (u32, u32),
    /// Phases begun since the decision.
    phases: u32,
}

impl Horizon {
    /// The horizon of a decision of `side` in `game`.
    #[must_use]
    pub fn new(game: &Game, side: SideId) -> Self {
        let enemy = part(game).filter(|p| *p != side);
        Self {
            side,
            enemy,
            reached: false,
            at: (game.state().turn, game.state().step),
            phases: 0,
        }
    }

    /// Takes note of where the line is after an order was applied to `game`.
    pub fn observe(&mut self, game: &Game) {
        if game.state().stage != Stage::Playing {
            self.reached = true;
            return;
        }
        let now = (game.state().turn, game.state().step);
        if now == self.at {
            return;
        }
        self.at = now;
        self.phases += 1;
        let here = part(game);
        match self.enemy {
            None => self.enemy = here.filter(|p| *p != self.side),
            Some(e) if here != Some(e) => self.reached = true,
            Some(_) => {}
        }
    }

    /// Whether the line has passed the end of the enemy's reply.
    #[must_use]
    pub fn reached(&self) -> bool {
        self.reached
    }

    /// Phases begun since the decision.
    #[must_use]
    pub fn phases(&self) -> u32 {
        self.phases
    }
}
