//! Why a step into a cell is refused or ends the move, in words: [`EnterBan`], what
//! `steps.rs`' [`Game::enter`] refuses beyond the data's [`StepBan`] (a full crossing, the
//! `move_cost` hook, an enemy there, no room), and [`StopWhy`], why a step it allows ends the
//! move. `enter` keeps both as data, as `StepBan` is kept: a reach query tries tens of
//! thousands of steps and wants no words, so only a move words them
//! (its [`Ban`] words, [`Game::why_move_ends`], called by `Game::enter_worded`).

use std::borrow::Cow;

use crate::action::{Ban, Refusal, RefusalKind};
use crate::geometry::Cell;
use crate::piece::Piece;
use crate::reach::{StepBan, StopWhy};
use crate::state::State;

use super::Game;
use super::bans::enemy_holds;

/// Why a step into a cell is refused, beyond the ban it carries from below.
#[derive(Clone, Debug)]
pub(super) enum EnterBan<'c> {
    /// A refusal made as it is, by a failing hook or by a rule below `game/` (company's
    /// sharing, a half-hex, the board's edge).
    Refused(Refusal),
    /// The crossing between the two cells has carried all the pieces it can this turn.
    CrossingFull,
    /// The `move_cost` hook (told the data's price) forbids the step.
    Forbidden {
        /// The data's ban, when the data forbids it too.
        data: Option<StepBan>,
        /// The hook's own words (`move_ban_reason`, asked by a move only).
        said: Option<String>,
    },
    /// An enemy the mover keeps apart from holds the cell.
    EnemyHolds,
    /// A stacking limit the mover would break there, in the limit's words.
    NoRoom(Cow<'c, str>),
}

impl Ban for EnterBan<'_> {
    /// The game, the mover, and the step's two cells (from, to).
    type Cx<'c> = (&'c Game, &'c Piece, (Cell, Cell));

    fn kind(&self) -> RefusalKind {
        match self {
            Self::Refused(r) => r.kind,
            // A corrupt piece is the piece's fault, not the ground's (as `MoveBan`'s kind).
            Self::Forbidden {
                data: Some(StepBan::UnknownType),
                ..
            } => RefusalKind::BadPiece,
            Self::CrossingFull | Self::Forbidden { .. } => RefusalKind::Impassable,
            Self::EnemyHolds | Self::NoRoom(_) => RefusalKind::Occupied,
        }
    }

    fn words(self, (game, piece, (from, to)): Self::Cx<'_>) -> String {
        match self {
            Self::Refused(r) => r.message,
            Self::CrossingFull => format!(
                "the crossing between {from} and {to} has carried all the pieces it can this turn"
            ),
            Self::Forbidden { data, said } => said.unwrap_or_else(|| match data {
                Some(ban) => game.step_ban_text(piece, from, to, ban),
                None => format!("the ruleset forbids {} to enter {to}", piece.name),
            }),
            Self::EnemyHolds => enemy_holds(to),
            Self::NoRoom(problem) => format!("{} cannot enter {to}: {problem}", piece.name),
        }
    }
}

impl Game {
    /// The words of why `piece`'s move ends at `to`, as its `moved` event says them.
    pub(super) fn why_move_ends(
        &self,
        state: &State,
        piece: &Piece,
        to: Cell,
        why: StopWhy,
    ) -> String {
        let name = |id: crate::ids::PieceId| state.pieces.get(id.index());
        match why {
            StopWhy::Hook(said) => {
                said.unwrap_or_else(|| "the ruleset's stop hook ends the move here".to_owned())
            }
            StopWhy::Costly => self.why_costly_step_ends(piece, to),
            StopWhy::Zone(holder) => {
                // Of several holders, the one first in the mover's handles (never the
                // first in the scenario, which would tell the file's order).
                let named = (state.pieces.iter())
                    .filter(|p| {
                        self.zone_cells(state, p, piece.side)
                            .is_some_and(|cells| cells.contains(&to))
                    })
                    .min_by_key(|p| self.side_handle(state, piece.side, p.id))
                    .or_else(|| name(holder));
                let named =
                    named.map_or_else(|| "?".to_owned(), |p| self.label(state, piece.side, p));
                format!("entered the zone of control of {named}")
            }
            StopWhy::Joined(t) => format!("joined {}", name(t).map_or("?", |p| p.name.as_str())),
            StopWhy::LeftBoard => "left the board".to_owned(),
        }
    }

    /// Why a costly step into `to` ends the move: its terrain by name when the terrain
    /// is what costs extra.
    fn why_costly_step_ends(&self, piece: &Piece, to: Cell) -> String {
        let ty = self.rules.piece_type(piece.kind);
        let class = ty.and_then(|t| self.rules.move_classes.get(t.move_class.index()));
        let t = self.board.terrain(to);
        let costly_terrain = class
            .and_then(|c| c.enter.get(t.index()).copied().flatten())
            .is_some_and(|extra| extra > crate::cost::Cost::ZERO);
        match self.rules.terrain.get(t.index()) {
            Some(d) if costly_terrain => format!("entering {} ends the move", d.name),
            _ => "a step that costs extra ends the move".to_owned(),
        }
    }
}
