//! The game's side of facing rules: the checks a move and a facing change make against a
//! piece type's turning rules. The rules themselves (forward-only steps, costly turns, slowed
//! pieces) and the reach they shape are in [`crate::turning`].

use super::bans::{FacingBan, MoveBan};
use super::{Game, Resolution};
use crate::action::{Ban, Refusal};
use crate::cost::Cost;
use crate::ids::PieceId;
use crate::piece::Piece;
use crate::rules::{Effect, Who};

use crate::turning::{after_turns, turning};

impl Game {
    /// The checks of [`Self::count_turn`], on the piece as it stands: it has turns left
    /// this phase or turn, and what one more costs it does not pass its allowance.
    ///
    /// # Errors
    /// The refusal `count_turn` would give.
    pub(crate) fn check_turn(&self, piece: &Piece) -> Result<(), Refusal> {
        let rules = self.rules();
        let Some(t) = turning(rules, piece) else {
            return Ok(());
        };
        // `turning.barred_by`: while one of these flags is set the piece makes no facing
        // change (a move's own are barred in `crate::turning::mid_turns`).
        if let Some(f) = t.barred_by.iter().find(|f| piece.flag(**f)) {
            return Err(MoveBan::Facing(FacingBan::Barred(*f)).refuse((self, piece)));
        }
        let Some(counter) = t.counter else {
            return Ok(());
        };
        let used = piece.counter(counter).max(0);
        if let Some(most) = t.most
            && used as u32 >= most
        {
            return Err(MoveBan::Facing(FacingBan::Used { used, most }).refuse((self, piece)));
        }
        if t.cost > Cost::ZERO
            && !piece.moved
            && let Ok(full) = self.allowance_of_mode(piece)
            && t.cost.saturating_mul(used + 1) > full
        {
            let left = after_turns(rules, piece, full);
            return Err(
                MoveBan::Facing(FacingBan::Costs { cost: t.cost, left }).refuse((self, piece))
            );
        }
        Ok(())
    }

    /// The piece's allowance in its mode (with saved points), before facing changes.
    pub(super) fn allowance_of_mode(&self, piece: &Piece) -> Result<Cost, Refusal> {
        let mut bare = piece.clone();
        if let Some(c) = turning(self.rules(), piece).and_then(|t| t.counter)
            && let Some(v) = bare.counters.get_mut(c.index())
        {
            *v = 0;
        }
        Ok(self
            .allowance(&bare)?
            .saturating_add(self.saved_points(piece)))
    }
}

impl Resolution<'_> {
    /// Checks that `piece` may change facing now (its limit of facing changes, and points
    /// left to pay for one before it has moved), and counts the change.
    pub(crate) fn count_turn(&mut self, id: PieceId) -> Result<(), Refusal> {
        let game = self.game;
        let Some(piece) = self.next.pieces.get(id.index()) else {
            return Ok(());
        };
        game.check_turn(piece)?;
        let Some(counter) = turning(game.rules(), piece).and_then(|t| t.counter) else {
            return Ok(());
        };
        let effect = Effect::AddCounter {
            who: Who::Actor,
            counter,
            amount: 1,
        };
        self.apply_effect(&effect, id, None, 0);
        Ok(())
    }
}
