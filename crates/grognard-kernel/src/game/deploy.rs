//! The set-up: a stage before the first turn in which each side places the pieces its
//! order of battle leaves unplaced, within its deployment areas, seeing of the other's
//! placement only what its knowledge allows. Every side with deployment areas acts; the
//! first turn begins (initiative, the first phase and its hooks) once all have ended
//! their set-up. A piece its side has not deployed by then stays off the table.

use std::sync::LazyLock;

use super::bans::{PhaseBan, SetupBan};
use super::{Game, Resolution};
use crate::action::{Action, Ban, Event, Order, Refusal};
use crate::geometry::Cell;
use crate::ids::{PieceId, SideId};
use crate::piece::Place;
use crate::rules::{Actor, PhaseDef};
use crate::state::{Stage, State};

/// The name of the set-up stage, as the phase cursor shows it.
pub const SETUP_PHASE_NAME: &str = "set-up";

/// The set-up stage as a phase: every side that deploys acts; nothing but deploying and
/// ending the set-up is allowed.
pub(crate) static SETUP_PHASE: LazyLock<PhaseDef> = LazyLock::new(|| PhaseDef {
    name: SETUP_PHASE_NAME.to_owned(),
    actor: Actor::Both,
    allows: Vec::new(),
    movers: Vec::new(),
});

/// What the scenario leaves to the sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Deployment {
    /// By side: the cells it may deploy in, sorted (empty: the side has no set-up).
    pub(crate) cells: Vec<Vec<Cell>>,
    /// By piece: true for a piece its side places during the set-up.
    pub(crate) deployable: Vec<bool>,
}

impl Game {
    /// True during the set-up before the first turn.
    #[must_use]
    pub fn setting_up(&self) -> bool {
        self.state.setting_up()
    }

    /// The cells `side` deploys in during the set-up (empty: it has no set-up).
    #[must_use]
    pub fn deployment_cells(&self, side: SideId) -> &[Cell] {
        self.deployment
            .as_ref()
            .and_then(|d| d.cells.get(side.index()))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether `side` may deploy `id` at `to` (facing `facing`) on `state`: its own piece,
    /// one the order of battle leaves unplaced and not riding another, into one of its
    /// deployment cells, with a facing the grid has, and changing something. Stacking is
    /// checked once the piece and its riders stand there.
    fn check_deploy<'s>(
        &self,
        state: &'s State,
        side: SideId,
        id: PieceId,
        to: Cell,
        facing: Option<crate::geometry::Facing>,
    ) -> Result<(), SetupBan<'s>> {
        let piece = state.pieces.get(id.index()).ok_or(SetupBan::NoSuchPiece)?;
        if piece.side != side {
            return Err(SetupBan::NotYours(piece));
        }
        if !self.deployable(id) {
            return Err(SetupBan::PlacedByScenario(piece));
        }
        if let Some(host) = (piece.attached_to).and_then(|h| state.pieces.get(h.index())) {
            return Err(SetupBan::Attached { piece, host });
        }
        if self.deployment_cells(side).binary_search(&to).is_err() {
            return Err(SetupBan::OutsideAreas(to));
        }
        if let (Some(f), Some(grid)) = (facing, self.board.grid())
            && f.0 >= grid.facings()
        {
            return Err(SetupBan::NoSuchFacing(f.0));
        }
        // Deploying a piece to where it stands, facing as it faces, changes nothing.
        if piece.place == Place::Cell(to) && facing.is_none_or(|f| f == piece.facing) {
            return Err(SetupBan::ChangesNothing { piece, to });
        }
        Ok(())
    }

    /// True for a piece its side places during the set-up.
    #[must_use]
    pub fn deployable(&self, id: PieceId) -> bool {
        self.deployment
            .as_ref()
            .is_some_and(|d| d.deployable.get(id.index()).copied().unwrap_or(false))
    }
}

impl Resolution<'_> {
    /// Orders during the set-up (and `deploy` orders after it, which are refused), on
    /// `next` as the gate copied it.
    pub(super) fn resolve_setup(&mut self, order: &Order) -> Result<(), Refusal> {
        let game = self.game;
        if !game.state.setting_up() {
            return Err(PhaseBan::SetupOver.refuse(game));
        }
        match &order.action {
            Action::Deploy { piece, to, facing } => {
                self.do_deploy(order.side, *piece, *to, *facing)?;
            }
            Action::EndPhase => {
                if let Some(d) = self.next.done.get_mut(order.side.index()) {
                    *d = true;
                }
                if self.every_actor_ended((&SETUP_PHASE, order.side)) {
                    self.end_setup()?;
                }
            }
            _ => {
                return Err(PhaseBan::SetupOnly.refuse(game));
            }
        }
        Ok(())
    }

    /// Places `id` at `to` (with the pieces attached to it), if its side may put it there.
    fn do_deploy(
        &mut self,
        side: SideId,
        id: PieceId,
        to: Cell,
        facing: Option<crate::geometry::Facing>,
    ) -> Result<(), Refusal> {
        let game = self.game;
        (game.check_deploy(self.next, side, id, to, facing))
            .map_err(|ban| ban.refuse((game, side)))?;
        let riders: Vec<usize> = self
            .next
            .pieces
            .iter()
            .filter(|p| p.attached_to == Some(id))
            .map(|p| p.id.index())
            .collect();
        for i in core::iter::once(id.index()).chain(riders.iter().copied()) {
            if let Some(p) = self.next.pieces.get_mut(i) {
                p.place = Place::Cell(to);
                if let Some(f) = facing {
                    p.facing = f;
                }
            }
        }
        for i in core::iter::once(id.index()).chain(riders.iter().copied()) {
            game.check_placement_in(self.next, i)
                .map_err(|problem| SetupBan::NoRoom(problem).refuse((game, side)))?;
            self.events.push(Event::Arrived {
                piece: PieceId(i as u32),
                at: to,
                reason: "deployed".to_owned(),
            });
        }
        Ok(())
    }

    /// Ends the set-up: the decoys its rule asks for are made, then the first turn begins
    /// as a game without a set-up begins (initiative, the first phase and its hooks).
    fn end_setup(&mut self) -> Result<(), Refusal> {
        let game = self.game;
        self.next.stage = Stage::Playing;
        for d in &mut self.next.done {
            *d = false;
        }
        game.add_decoys_to(self.next);
        self.roll_initiative();
        self.begin_phase()
    }
}
