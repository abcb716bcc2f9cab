//! Legal orders: what a side may do now, judged from what that side knows.
//!
//! [`Game::legal_orders`] is the one generator behind `grognard legal`, the policies of
//! `sim` and `fuzz`, and the editor's highlights. It works on a *probe*: a copy of the game
//! whose state is [`Game::perceived`] by the side, so enemy pieces the side has not located
//! are off the board, and the list is a function of the side's own pieces, its knowledge
//! and the public phase cursor. Grid moves come from reach on the probe — one order per
//! reachable cell, along its cheapest path, less those a `may_move` check refuses
//! ([`Hooks::may_move_on_grid`]) — which the reach property tests keep equal to
//! the moves `apply` accepts. Every other candidate (facings, modes, saves, spreads,
//! redeployments, every declared action with each target and intent, open-table moves) is
//! first put to the order's own checks — the functions `apply` runs first (`check_act`,
//! asked as `act_passes`, which words no refusal; `check_save`, `check_extend`,
//! `check_redeploy`) — on the probe's state as it stands;
//! saves and redeployments that pass are listed (past their checks they always happen),
//! and so are actions with no script and no contact, actions whose script has a check
//! beside it ([`Hooks::action_check`], which `apply` asks too), facing changes with no
//! `faced` hook or with `may_face` bound ([`Hooks::may_face`]), and open-table moves with
//! no `moved` hook or with `may_move` bound ([`Hooks::may_move_on_table_all`]: one batch of
//! a piece's candidates). The rest are tried on one
//! scratch copy of the probe's state with the same resolution [`Game::apply`] uses, Lua
//! hooks included, and listed only when accepted there. A check promises that the script
//! or hook beside it refuses nothing it allows; the soundness property holds it to that.
//!
//! Invariants: without hidden information every listed order is accepted by `apply`; with
//! it, an order can meet what the side could not see (a contact, a stop, or a refusal that
//! says no more than the rules reveal). On grids the list is complete: every move, facing,
//! mode and action `apply` would accept is in it, except orders that change nothing (a
//! move back to where the piece began, facing the way it faces, the mode it is in). The
//! list is deterministic: pieces in id order, then moves, saves, spreads, redeployments, facings, modes and actions, and
//! `end_phase` last. On the open table the moves are a bounded candidate set, documented on
//! [`OPEN_HEADINGS`] and [`OPEN_FRACTIONS`].

use crate::action::{Action, Ban, Order};
use crate::cost::Cost;
use crate::geometry::open::{self, Angle, Len, Point};
use crate::geometry::{Cell, Facing};
use crate::hooks::{HookFault, HookPoint, Hooks};
use crate::ids::{ModeId, PieceId, SideId};
use crate::piece::Place;
use crate::rules::{Allowed, PhaseDef, TargetRule};
use crate::state::Reach;

use super::{Game, NotNow};

/// The copy of the probe's state that orders are tried on, one for every trial of a list:
/// made on the first (many lists need none), then refreshed by `resolve_into` with
/// `clone_from`. And whether a hook fault ends the trials ([`Game::legal_orders_checked`]),
/// and whether the listing is [`Breadth::Rough`].
#[derive(Default)]
pub(super) struct Trials {
    state: Option<crate::state::State>,
    stop_on_fault: bool,
    rough: bool,
}

/// How wide a listing is: which open-table moves it tries for a piece, and whether it
/// gives each ruleset action with every intent the action declares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Breadth {
    /// Every candidate of [`OPEN_HEADINGS`] and every intent (what a side is shown, and the
    /// search's decision itself).
    #[default]
    Full,
    /// A handful of moves that stand for them: toward each of the [`ROUGH_TARGETS`] nearest
    /// located enemies (as far as the allowance goes, stopping 1" short, facing it) and a
    /// turn in place to face it, and straight ahead along the piece's facing, a whole and
    /// half its allowance — about a tenth of the candidates to judge; and each action
    /// without an intent only. A rough player's list (the search's imagined lines): every
    /// order in it is still one `apply` accepts. On a grid every move is there.
    Rough,
}

/// How many of the nearest located enemies a [`Breadth::Rough`] listing moves toward.
pub const ROUGH_TARGETS: usize = 2;

/// Open-table moves go along this many headings, evenly spaced from east (every 30°).
pub const OPEN_HEADINGS: i32 = 12;
/// Along each heading, moves end at these fractions of the straight-line allowance
/// (quarters). Besides them, each piece is offered a move toward every enemy piece its side
/// has located (as far as the allowance goes, stopping 1" short, facing it) and a turn in
/// place to face each of the eight compass points and each located enemy.
pub const OPEN_FRACTIONS: [i64; 4] = [1, 2, 3, 4];

/// Whose orders of which ruleset action `Game::act_orders` lists: the side, its piece and
/// the piece's type, and the action.
#[derive(Clone, Copy)]
struct ActOf {
    side: SideId,
    id: PieceId,
    kind: crate::ids::PieceTypeId,
    action: crate::ids::ActionId,
}

impl Game {
    /// The one answer to "may `side` give an order now": the game goes on, the side is
    /// one of the current phase's actors ([`crate::rules::Actor::includes`]) and has not
    /// ended the phase. The current phase and its phasing side when it may; why not when
    /// it may not. [`Self::to_act`], the order gate and every client ask it.
    pub(crate) fn may_act(&self, side: SideId) -> Result<(&PhaseDef, SideId), NotNow<'_>> {
        if self.state.over() {
            return Err(NotNow::Over);
        }
        let Some((phase, phasing)) = self.phase() else {
            return Err(NotNow::Over);
        };
        if !phase.actor.includes(side, phasing) {
            return Err(NotNow::NotActor(phase));
        }
        if self.state.done.get(side.index()).copied().unwrap_or(false) {
            return Err(NotNow::Ended(phase));
        }
        Ok((phase, phasing))
    }

    /// The sides that may give an order now (`may_act`): the current phase's
    /// actors that have not ended it, in side order. Empty when the game is over. Its
    /// first is the side a client shows acting.
    #[must_use]
    pub fn to_act(&self) -> Vec<SideId> {
        (0..self.sides.len())
            .filter_map(|i| u8::try_from(i).ok().map(SideId))
            .filter(|s| self.may_act(*s).is_ok())
            .collect()
    }

    /// Who may act, in words: `red acts`, `blue and red act`, or `nobody acts` once the
    /// game is over (the CLI's notes say it so; refusals add "now": `who_acts`).
    #[must_use]
    pub fn acting_words(&self) -> String {
        let names: Vec<&str> = self
            .to_act()
            .iter()
            .filter_map(|s| self.sides.get(s.index()).map(|d| d.name.as_str()))
            .collect();
        match names.as_slice() {
            [] => "nobody acts".to_owned(),
            [one] => format!("{one} acts"),
            many => format!("{} act", many.join(" and ")),
        }
    }

    /// Who acts now, in words for refusals: `red acts now`, `blue and red act now`, or
    /// `nobody acts now` once the game is over.
    pub(super) fn who_acts(&self) -> String {
        format!("{} now", self.acting_words())
    }

    /// What a phase allows, in words for refusals: `moving, fire and ending the phase`.
    pub(super) fn phase_allows(&self, phase: &PhaseDef) -> String {
        let mut words: Vec<String> = phase
            .allows
            .iter()
            .map(|a| self.allowed_words(*a))
            .collect();
        words.push("ending the phase".to_owned());
        let last = words.pop().unwrap_or_default();
        if words.is_empty() {
            last
        } else {
            format!("{} and {last}", words.join(", "))
        }
    }

    /// Every order `side` may give now, as that side can judge it (see the module doc).
    /// Empty when the side may not act; otherwise the last order is `end_phase` unless the
    /// ruleset's hooks refuse it (a bug of the ruleset, which `grognard fuzz` finds).
    ///
    /// A hook that faults (see [`HookFault`]) leaves out the orders it was asked about,
    /// and the fault stays recorded in `hooks` for the caller;
    /// [`Self::legal_orders_checked`] reports it instead.
    #[must_use]
    pub fn legal_orders(&self, side: SideId, hooks: &mut dyn Hooks) -> Vec<Action> {
        self.list_orders(side, None, Breadth::Full, hooks, false)
    }

    /// [`Self::legal_orders`] with the open-table moves of `breadth`, and of `pieces` only
    /// where given (in the listing's order, without `end_phase`, which is no piece's): what
    /// a caller that keeps a listing refreshes after an order changed those pieces, instead
    /// of listing every piece again. Pieces not the side's, or not on the table, give none.
    #[must_use]
    pub fn legal_orders_of(
        &self,
        side: SideId,
        pieces: Option<&[PieceId]>,
        breadth: Breadth,
        hooks: &mut dyn Hooks,
    ) -> Vec<Action> {
        self.list_orders(side, pieces, breadth, hooks, false)
    }

    /// [`Self::legal_orders`], of `only` those pieces where given, with the moves of
    /// `breadth`; with `stop_on_fault`, no order is tried once a hook has faulted.
    fn list_orders(
        &self,
        side: SideId,
        only: Option<&[PieceId]>,
        breadth: Breadth,
        hooks: &mut dyn Hooks,
        stop_on_fault: bool,
    ) -> Vec<Action> {
        // A fault left from an earlier call (an order applied) is not this listing's.
        let _ = hooks.take_fault();
        if !self.to_act().contains(&side) {
            return Vec::new();
        }
        let Some((phase, _)) = self.phase() else {
            return Vec::new();
        };
        let phase = phase.clone();
        let mut trials = Trials {
            state: None,
            stop_on_fault,
            rough: breadth == Breadth::Rough,
        };
        self.as_known_by(side, |probe| {
            probe.listing(hooks, |probe, hooks| {
                probe.orders_on_probe(side, &phase, only, hooks, &mut trials)
            })
        })
    }

    /// [`Self::legal_orders`], or the fault of the hook that kept it from being listed:
    /// a hook that used up its budget or answered nonsense is a broken ruleset, which the
    /// side must be told of rather than shown fewer orders.
    ///
    /// # Errors
    /// The first hook fault met while listing.
    pub fn legal_orders_checked(
        &self,
        side: SideId,
        hooks: &mut dyn Hooks,
    ) -> Result<Vec<Action>, HookFault> {
        // Once a hook has faulted the list is an error, and every later trial would
        // likely spend its budget again: none is made.
        let list = self.list_orders(side, None, Breadth::Full, hooks, true);
        match hooks.take_fault() {
            Some(fault) => Err(fault),
            None => Ok(list),
        }
    }

    /// Runs `f` on the game as `side` knows it: without sighting rules a side knows
    /// everything, and the game itself is the probe; otherwise a [`Self::probe`].
    fn as_known_by<R>(&self, side: SideId, f: impl FnOnce(&Self) -> R) -> R {
        if self.sighting().is_some() {
            f(&self.probe(side))
        } else {
            f(self)
        }
    }

    /// Runs `f`, a listing on this game (a probe), between [`Hooks::listing_begins`] and
    /// [`Hooks::listing_ends`]. The invariant those promise — the state does not change
    /// while the listing runs — is Rust's: `f` gets `&self`, and trials are made on copies
    /// (tests/listing.rs checks it on every check a ruleset's listing asks).
    fn listing<R>(&self, hooks: &mut dyn Hooks, f: impl FnOnce(&Self, &mut dyn Hooks) -> R) -> R {
        hooks.listing_begins(&self.state);
        let out = f(self, &mut *hooks);
        hooks.listing_ends();
        out
    }

    /// [`Self::legal_orders`] of a side that may act in `phase`, on its probe (`self`); of
    /// `only` those pieces, and without `end_phase`, where given.
    fn orders_on_probe(
        &self,
        side: SideId,
        phase: &PhaseDef,
        only: Option<&[PieceId]>,
        hooks: &mut dyn Hooks,
        scratch: &mut Trials,
    ) -> Vec<Action> {
        let probe = self;
        let mut out = Vec::new();
        let chosen = |id: PieceId| only.is_none_or(|o| o.contains(&id));
        let mine: Vec<PieceId> = probe
            .state
            .pieces
            .iter()
            .filter(|p| p.side == side && p.on_board() && chosen(p.id))
            .map(|p| p.id)
            .collect();
        if probe.state.setting_up() {
            // The set-up: each of the side's pieces to deploy (with those attached to it)
            // at each cell of its areas where it may stand, keeping its facing.
            let cells = probe.deployment_cells(side).to_vec();
            let deployable: Vec<PieceId> = probe
                .state
                .pieces
                .iter()
                .filter(|p| {
                    p.side == side
                        && p.attached_to.is_none()
                        && chosen(p.id)
                        && probe.deployable(p.id)
                })
                .map(|p| p.id)
                .collect();
            for id in deployable {
                let here = probe
                    .state
                    .pieces
                    .get(id.index())
                    .and_then(|p| p.place.cell());
                // Where it stands already is no deployment (it would change nothing).
                for &to in cells.iter().filter(|&&c| Some(c) != here) {
                    let action = Action::Deploy {
                        piece: id,
                        to,
                        facing: None,
                    };
                    if probe.accepts(side, &action, hooks, scratch) {
                        out.push(action);
                    }
                }
            }
            if only.is_none() && probe.accepts(side, &Action::EndPhase, hooks, scratch) {
                out.push(Action::EndPhase);
            }
            return out;
        }
        for id in mine {
            if scratch.stop_on_fault && hooks.has_fault() {
                break;
            }
            probe.piece_orders(side, id, phase, hooks, scratch, &mut out);
        }
        // Ending the phase runs the next phase's hooks, which can refuse (a ruleset bug that
        // `grognard fuzz` reports); it is listed only when it would be accepted, which
        // without a `phase_begin` hook, or with one the ruleset promises refuses nothing,
        // it always is. Trying it ran the next phase's hook in every listing.
        if only.is_none()
            && (!hooks.is_bound(HookPoint::PhaseBegin)
                || !hooks.phase_begin_refuses()
                || probe.accepts(side, &Action::EndPhase, hooks, scratch))
        {
            out.push(Action::EndPhase);
        }
        out
    }

    /// A copy of the game as `side` knows it, for trying orders on.
    fn probe(&self, side: SideId) -> Self {
        Self {
            victory: self.victory.clone(),
            rules: self.rules.clone(),
            board: self.board.clone(),
            sides: self.sides.clone(),
            turns: self.turns,
            state: self.perceived(side),
            // This phase's contacts made by the side's own pieces (which it saw deploy):
            // a command in contact lays no more arrows and gathers nothing this phase.
            log: self.probe_log(side),
            side_logs: Vec::new(),
            handle_key: self.handle_key,
            deployment: self.deployment.clone(),
        }
    }

    /// True when `apply` would accept `action` from `side` now (on this game, unchanged),
    /// tried on `scratch` (a copy of this game's state made on the first trial).
    fn accepts(
        &self,
        side: SideId,
        action: &Action,
        hooks: &mut dyn Hooks,
        scratch: &mut Trials,
    ) -> bool {
        if scratch.stop_on_fault && hooks.has_fault() {
            return false;
        }
        let order = Order {
            side,
            action: action.clone(),
        };
        let scratch = scratch.state.get_or_insert_with(|| self.state.clone());
        self.resolve_into(&order, hooks, scratch).is_ok()
    }

    /// Every order of one piece, appended to `out` (called on the probe), in the listing's
    /// order: moves, saves, spreads, gathering, redeployments, facings, modes, actions.
    fn piece_orders(
        &self,
        side: SideId,
        id: PieceId,
        phase: &PhaseDef,
        hooks: &mut dyn Hooks,
        scratch: &mut Trials,
        out: &mut Vec<Action>,
    ) {
        let Some(piece) = self.state.pieces.get(id.index()) else {
            return;
        };
        let kind = piece.kind;
        let a_mover = super::is_mover(phase, kind);
        if phase.allows.contains(&Allowed::Move) && a_mover {
            self.move_orders(side, id, hooks, scratch, out);
            self.board_step_orders(side, id, hooks, scratch, out);
        }
        if phase.allows.contains(&Allowed::Face) && a_mover {
            self.face_orders(side, id, hooks, scratch, out);
        }
        if phase.allows.contains(&Allowed::Mode) {
            self.mode_orders(side, id, hooks, scratch, out);
        }
        for allowed in &phase.allows {
            if let Allowed::Action(a) = *allowed {
                let of = ActOf {
                    side,
                    id,
                    kind,
                    action: a,
                };
                self.act_orders(of, hooks, scratch, out);
            }
        }
    }

    /// Pushes `action` to `out` when a trial on the scratch state accepts it; says whether
    /// it did.
    fn tried(
        &self,
        side: SideId,
        action: Action,
        out: &mut Vec<Action>,
        hooks: &mut dyn Hooks,
        scratch: &mut Trials,
    ) -> bool {
        let ok = self.accepts(side, &action, hooks, scratch);
        if ok {
            out.push(action);
        }
        ok
    }

    /// Every place `id` can end a move now, as [`Self::reach`] finds them, less the cells
    /// whose move (along the path listed to it) the ruleset's `may_move` refuses: on a grid,
    /// the cells of the legal moves, judged on the whole game. `grognard reach` lists these,
    /// so a move refused by the orders in force (a cautious or wavering unit) is not shown.
    /// On an open table the radius is 0 when the legal orders list no move of the piece: no
    /// move left on the `move_counter`, or every candidate refused by `may_move`.
    ///
    /// # Errors
    /// A refusal when the piece cannot move at all, or a hook fails.
    pub fn reach_allowed(
        &self,
        id: PieceId,
        hooks: &mut dyn Hooks,
    ) -> Result<Reach, crate::action::Refusal> {
        let reach = self.reach_on_grid_allowed(id, hooks)?;
        if let Reach::Radius(r) = reach
            && r > Cost::ZERO
            && !self.moves_somewhere_on_table(id, r, hooks)
        {
            return Ok(Reach::Radius(Cost::ZERO));
        }
        Ok(reach)
    }

    /// Whether some open-table move of `id` within `radius` passes the checks of the piece
    /// alone (a move left) and `may_move`, asked of the legal orders' candidates in one batch.
    fn moves_somewhere_on_table(&self, id: PieceId, radius: Cost, hooks: &mut dyn Hooks) -> bool {
        let Some(piece) = self.state.pieces.get(id.index()) else {
            return false;
        };
        if self.check_may_move_on_table(piece).is_err() {
            return false;
        }
        let Place::Point { facing, .. } = piece.place else {
            return true;
        };
        if !hooks.is_bound(HookPoint::MayMove) {
            return true;
        }
        let asked: Vec<(Point, Angle)> = (self.open_candidates(piece.side, id, radius, false))
            .into_iter()
            .map(|(to, f)| (to, f.unwrap_or(facing)))
            .collect();
        (hooks.may_move_on_table_all(&self.world(), id, &asked))
            .iter()
            .any(Result::is_ok)
    }

    /// [`Self::reach_allowed`] without the open table's check: the legal orders make that
    /// check for each candidate move themselves.
    fn reach_on_grid_allowed(
        &self,
        id: PieceId,
        hooks: &mut dyn Hooks,
    ) -> Result<Reach, crate::action::Refusal> {
        let mut reach = self.reach_in(&self.state, id, hooks)?;
        let asked = self
            .state
            .pieces
            .get(id.index())
            .is_some_and(|p| self.may_move_asked_of(p));
        if let Reach::Cells(map) = &mut reach
            && asked
            && hooks.is_bound(HookPoint::MayMove)
        {
            map.retain(|_, path| {
                path.is_empty()
                    || self
                        .ask_may_move_on_grid(&self.state, id, &path, hooks)
                        .is_ok()
            });
        }
        Ok(reach)
    }

    /// A piece's moves: one per cell [`Self::reach_allowed`] finds on a grid (its reach
    /// less the moves `may_move` refuses), or the open table's candidates.
    fn move_orders(
        &self,
        side: SideId,
        id: PieceId,
        hooks: &mut dyn Hooks,
        scratch: &mut Trials,
        out: &mut Vec<Action>,
    ) {
        let Some(piece) = self.state.pieces.get(id.index()) else {
            return;
        };
        // `reach_on_grid_allowed` has already left out the cells `may_move` refuses.
        match self.reach_on_grid_allowed(id, hooks) {
            Ok(Reach::Cells(map)) => {
                out.reserve(map.len());
                let start = piece.place.cell();
                for r in map.iter().filter(|r| Some(r.cell) != start) {
                    let path = map.path(r);
                    if !path.is_empty() {
                        out.push(Action::Move { piece: id, path });
                    }
                }
            }
            Ok(Reach::Radius(radius)) => {
                let moves = self.table_moves(side, id, radius, hooks, Some(scratch));
                out.extend(moves.into_iter().map(|(to, facing)| Action::MoveTo {
                    piece: id,
                    to,
                    facing,
                }));
            }
            Err(_) => {}
        }
    }

    /// A grid piece's one-cell steps other than moves: saves, spreads, gathering and (for
    /// a dummy) redeployments.
    fn board_step_orders(
        &self,
        side: SideId,
        id: PieceId,
        hooks: &mut dyn Hooks,
        scratch: &mut Trials,
        out: &mut Vec<Action>,
    ) {
        let Some(piece) = self.state.pieces.get(id.index()) else {
            return;
        };
        let (Some(at), Some(grid)) = (piece.place.cell(), self.board.grid()) else {
            return;
        };
        // A save that passes its checks always happens (see `check_save`): listed
        // without a trial. A spread is tried only past its own checks
        // (`check_extend`; the stacking limits are checked with the piece spread).
        if self.rules.saving.is_some() && !piece.moved {
            for (_, to) in grid.neighbours(at) {
                if self.board.contains(to) && self.check_save(&self.state, side, id, to).is_ok() {
                    out.push(Action::Save {
                        piece: id,
                        toward: to,
                    });
                }
            }
        }
        if self.rules.spread.is_some() {
            self.spread_orders(side, id, at, hooks, scratch, out);
        }
        if matches!(piece.place, Place::Spread(_)) {
            self.tried(side, Action::Gather { piece: id }, out, hooks, scratch);
        }
        if (self.rules.piece_type(piece.kind)).is_some_and(|t| t.dummy && !t.no_redeploy) {
            self.redeploy_orders(side, id, at, out);
        }
    }

    /// A piece's spreads: every free cell next to one it holds, past `check_extend`, tried.
    fn spread_orders(
        &self,
        side: SideId,
        id: PieceId,
        at: Cell,
        hooks: &mut dyn Hooks,
        scratch: &mut Trials,
        out: &mut Vec<Action>,
    ) {
        let (Some(piece), Some(grid)) = (self.state.pieces.get(id.index()), self.board.grid())
        else {
            return;
        };
        // A spread piece may spread on from any cell it holds, not only its
        // first: every free cell next to a held one is a candidate.
        let held: &[Cell] = match &piece.place {
            Place::Spread(cs) => cs,
            _ => core::slice::from_ref(&at),
        };
        let mut candidates: Vec<Cell> = Vec::new();
        for h in held {
            for (_, c) in grid.neighbours(*h) {
                if self.board.contains(c) && !held.contains(&c) && !candidates.contains(&c) {
                    candidates.push(c);
                }
            }
        }
        for to in candidates {
            if self.check_extend(&self.state, side, id, to).is_ok() {
                self.tried(side, Action::Extend { piece: id, to }, out, hooks, scratch);
            }
        }
    }

    /// A dummy's redeployments, listed without a trial.
    fn redeploy_orders(&self, side: SideId, id: PieceId, at: Cell, out: &mut Vec<Action>) {
        // A redeployment that passes its checks always happens (see
        // `check_redeploy`), so the cells are listed without a trial. Into a
        // cell no piece covers, the checks depend on its terrain alone: asked
        // once per terrain.
        let cells = self.board_cells();
        let mut covered = vec![false; cells.len()];
        for p in self.state.pieces.iter().filter(|p| p.on_board()) {
            for (i, c) in cells.iter().enumerate() {
                covered[i] |= p.place.covers(*c);
            }
        }
        let mut by_terrain: Vec<(crate::ids::TerrainId, bool)> = Vec::new();
        for (to, covered) in cells.into_iter().zip(covered) {
            if to == at {
                continue;
            }
            let terrain = self.board.terrain(to);
            let known = by_terrain.iter().find(|(t, _)| *t == terrain);
            let ok = match (covered, known) {
                (false, Some(&(_, ok))) => ok,
                _ => {
                    let ok = self.check_redeploy(&self.state, side, id, to).is_ok();
                    if !covered {
                        by_terrain.push((terrain, ok));
                    }
                    ok
                }
            };
            if ok {
                out.push(Action::Redeploy { piece: id, to });
            }
        }
    }

    /// A grid piece's facing changes: decided by `may_face` or the piece's own checks
    /// where they can be, tried otherwise.
    fn face_orders(
        &self,
        side: SideId,
        id: PieceId,
        hooks: &mut dyn Hooks,
        scratch: &mut Trials,
        out: &mut Vec<Action>,
    ) {
        let (Some(piece), Some(grid)) = (self.state.pieces.get(id.index()), self.board.grid())
        else {
            return;
        };
        if piece.place.cell().is_none() {
            return;
        }
        let facing = piece.facing;
        let others = (0..grid.facings()).map(Facing).filter(|f| *f != facing);
        if hooks.is_bound(HookPoint::Faced) && hooks.is_bound(HookPoint::MayFace) {
            // The ruleset's `may_face` decides what its `faced` hook would refuse:
            // past the piece's own checks (the same for every facing), each facing
            // is asked of it on the state as it stands, with no trial; once for all
            // of them when it cannot see the facing.
            let all: Vec<Facing> = others.collect();
            if let Some(first) = all.first()
                && self.check_face(&self.state, side, id, *first).is_ok()
            {
                if hooks.may_face_reads_facing() {
                    for f in all {
                        if self.ask_may_face(&self.state, id, f, hooks).is_ok() {
                            out.push(Action::Face {
                                piece: id,
                                facing: f,
                            });
                        }
                    }
                } else if self.ask_may_face(&self.state, id, *first, hooks).is_ok() {
                    out.extend(all.iter().map(|f| Action::Face {
                        piece: id,
                        facing: *f,
                    }));
                }
            }
        } else if hooks.is_bound(HookPoint::Faced) {
            for f in others {
                let face = Action::Face {
                    piece: id,
                    facing: f,
                };
                self.tried(side, face, out, hooks, scratch);
            }
        } else {
            // With no `faced` hook, a facing change that passes its checks always
            // happens (see `check_face`), and the checks are the piece's (whether it
            // faces, how often it has turned, what turning costs it), the same whatever
            // the facing chosen: checked once, listed with no trial.
            let all: Vec<Facing> = others.collect();
            if let Some(first) = all.first()
                && self.check_face(&self.state, side, id, *first).is_ok()
            {
                out.extend(all.iter().map(|f| Action::Face {
                    piece: id,
                    facing: *f,
                }));
            }
        }
    }

    /// A piece's mode changes, tried past their own checks.
    fn mode_orders(
        &self,
        side: SideId,
        id: PieceId,
        hooks: &mut dyn Hooks,
        scratch: &mut Trials,
        out: &mut Vec<Action>,
    ) {
        let Some(mode) = self.state.pieces.get(id.index()).map(|p| p.mode) else {
            return;
        };
        for m in 0..self.rules.modes.len() {
            let Ok(m) = u16::try_from(m) else { break };
            let m = ModeId(m as _);
            // Past its own checks, only stacking or a hook refuses a change: only
            // changes that pass them are tried.
            if m != mode && self.check_mode(&self.state, side, id, m).is_ok() {
                self.tried(
                    side,
                    Action::Mode { piece: id, mode: m },
                    out,
                    hooks,
                    scratch,
                );
            }
        }
    }

    /// The orders of one ruleset action `a` for a piece of `kind`: each target, each
    /// intent, decided by the action's checks where they can be, tried otherwise.
    fn act_orders(
        &self,
        of: ActOf,
        hooks: &mut dyn Hooks,
        scratch: &mut Trials,
        out: &mut Vec<Action>,
    ) {
        let ActOf {
            side,
            id,
            kind,
            action: a,
        } = of;
        let Some(def) = self.rules.actions.get(a.index()) else {
            return;
        };
        if !def.types.is_empty() && !def.types.contains(&kind) {
            return;
        }
        let targets: Vec<Option<PieceId>> = match def.target {
            TargetRule::None => vec![None],
            TargetRule::Enemy => self
                .state
                .pieces
                .iter()
                .filter(|p| p.side != side && p.on_board())
                .map(|p| Some(p.id))
                .collect(),
            TargetRule::Friend => self
                .state
                .pieces
                .iter()
                .filter(|p| p.side == side && p.on_board())
                .map(|p| Some(p.id))
                .collect(),
        };
        // Whether the action's own checks decide it with no trial on a copy: it has
        // no contact to make, and either no script or a check beside its script.
        let decided = !def.contact && (def.checked || !def.scripted);
        // A rough listing gives each action without an intent only.
        let declared = if scratch.rough {
            &[][..]
        } else {
            &def.intents[..]
        };
        let intents: Vec<Vec<String>> = std::iter::once(Vec::new())
            .chain(declared.iter().map(|i| vec![i.clone()]))
            .collect();
        if decided
            && def.checked
            && !matches!(def.target, TargetRule::None)
            && hooks.action_check_batched(a)
        {
            // A check answered for all targets at once: past the data checks, one call
            // per intent (one in all when the check does not read it).
            let passing: Vec<PieceId> = targets
                .into_iter()
                .flatten()
                .filter(|&t| self.act_passes(&self.state, side, id, a, Some(t)))
                .collect();
            self.batch_checked(id, a, &intents, &passing, hooks, out);
            return;
        }
        for target in targets {
            // The action's own checks (range, arcs, sight, once per phase...) on the
            // state as it stands: what they refuse is not tried on a copy. They read
            // the intent only to refuse one the action does not declare, and every
            // intent here is declared: asked once for all of them. Their refusals
            // are not worded: the listing would throw the words away.
            if !self.act_passes(&self.state, side, id, a, target) {
                continue;
            }
            // A check that did not read the intent it was asked with answers the
            // same for this target whatever the intent: asked once, not per intent.
            let mut any_intent: Option<bool> = None;
            for intent in &intents {
                let action = Action::Act {
                    piece: id,
                    action: a,
                    target,
                    intent: intent.clone(),
                };
                if !decided {
                    self.tried(side, action, out, hooks, scratch);
                    continue;
                }
                // Past its data checks, an action with no script and no contact
                // always happens; a checked one happens when its check allows it.
                let allowed = !def.checked
                    || match any_intent {
                        Some(ok) => ok,
                        None => {
                            let ok = self
                                .ask_action_check(&self.state, id, (a, intent), target, hooks)
                                .is_ok();
                            if !hooks.check_read_intent() {
                                any_intent = Some(ok);
                            }
                            ok
                        }
                    };
                if allowed {
                    out.push(action);
                }
            }
        }
    }

    /// The orders of a ruleset action whose check answers for many targets at once
    /// ([`Hooks::action_check_all`]), appended to `out` in the listing's order (targets,
    /// then intents): the check is asked for all `targets` with the first intent (none),
    /// and again for each other intent only if that call read the intent.
    fn batch_checked(
        &self,
        id: PieceId,
        a: crate::ids::ActionId,
        intents: &[Vec<String>],
        targets: &[PieceId],
        hooks: &mut dyn Hooks,
        out: &mut Vec<Action>,
    ) {
        if targets.is_empty() {
            return;
        }
        let world = self.world();
        let ask = |intent: &[String], hooks: &mut dyn Hooks| -> Vec<bool> {
            let answers = hooks.action_check_all(&world, a, id, targets, intent);
            // A batch that answered fewer targets than it was asked refuses the rest.
            (0..targets.len())
                .map(|i| matches!(answers.get(i), Some(Ok(()))))
                .collect()
        };
        let mut by_intent = Vec::with_capacity(intents.len());
        for (i, intent) in intents.iter().enumerate() {
            by_intent.push(ask(intent, hooks));
            if i == 0 && !hooks.check_read_intent() {
                break;
            }
        }
        for (t, &target) in targets.iter().enumerate() {
            for (i, intent) in intents.iter().enumerate() {
                let answers = by_intent.get(i).unwrap_or(&by_intent[0]);
                if answers[t] {
                    out.push(Action::Act {
                        piece: id,
                        action: a,
                        target: Some(target),
                        intent: intent.clone(),
                    });
                }
            }
        }
    }

    /// Asks the ruleset's `may_move` whether `id` may move along `path` (the order's cells,
    /// its start left out) on a grid, on `state` as it stands before the move; its reason
    /// refuses it. Nothing is asked of a piece off the grid.
    pub(super) fn ask_may_move_on_grid(
        &self,
        state: &crate::state::State,
        id: PieceId,
        path: &[Cell],
        hooks: &mut dyn Hooks,
    ) -> Result<(), crate::action::Refusal> {
        let Some(piece) = state.pieces.get(id.index()) else {
            return Ok(());
        };
        let Some(start) = piece.place.cell() else {
            return Ok(());
        };
        if !self.may_move_asked_of(piece) {
            return Ok(());
        }
        let facing = piece.facing;
        let mut cells = Vec::with_capacity(path.len() + 1);
        cells.push(start);
        cells.extend_from_slice(path);
        self.ask_check(state, |world| {
            hooks.may_move_on_grid(world, id, &cells, facing)
        })
    }

    /// Every cell of a grid board, row by row.
    fn board_cells(&self) -> Vec<Cell> {
        let Some((cols, rows)) = self.board.dimensions() else {
            return Vec::new();
        };
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| Cell::new(c, r)))
            .collect()
    }

    /// The open-table moves `id` can make now, on this game (a probe): the candidates of
    /// [`Self::open_candidates`] within `radius` that pass the move's own checks
    /// ([`Self::check_move_to`]: terrain crossed, footprint clear and on the table, the
    /// allowance, the enemy's zones). Past them a move always happens unless the ruleset's
    /// `moved` hook refuses it: with `may_move` bound beside it, that check decides
    /// ([`Hooks::may_move_on_table_all`], asked on this state once for every candidate
    /// that passed its own checks); otherwise each candidate is
    /// tried on `scratch` (a copy of this state made when none is given) when the `moved`
    /// hook is bound. A piece that may not move at all is ruled out once, before any
    /// candidate.
    pub(super) fn table_moves(
        &self,
        side: SideId,
        id: PieceId,
        radius: Cost,
        hooks: &mut dyn Hooks,
        scratch: Option<&mut Trials>,
    ) -> Vec<(Point, Option<Angle>)> {
        let Some(piece) = self.state.pieces.get(id.index()) else {
            return Vec::new();
        };
        if self.check_may_move_on_table(piece).is_err() {
            return Vec::new();
        }
        let rough = scratch.as_ref().is_some_and(|s| s.rough);
        let mut owned = Trials::default();
        // A `moved` hook that may refuse only what `may_move` refuses needs no trial.
        let trial = hooks.is_bound(HookPoint::Moved) && !hooks.is_bound(HookPoint::MayMove);
        let mut scratch = match (trial, scratch) {
            (false, _) => None,
            (true, Some(s)) => Some(s),
            (true, None) => Some(&mut owned),
        };
        let mut out = self.open_candidates(side, id, radius, rough);
        out.retain(|&(to, facing)| match scratch.as_deref_mut() {
            // The trial makes the move's own checks first (`do_move_to` runs
            // `check_move_to` on its copy of this state): asking them here too would
            // double the cost of every candidate.
            Some(scratch) => {
                let action = Action::MoveTo {
                    piece: id,
                    to,
                    facing,
                };
                self.accepts(side, &action, hooks, scratch)
            }
            None => self
                .check_move_to(&self.state, side, id, to, facing)
                .is_ok(),
        });
        if scratch.is_none() && hooks.is_bound(HookPoint::MayMove) {
            // The `may_move` check of every candidate left, asked in one batch (one Lua
            // call for them all where the ruleset binds `may_move_all`): a candidate it
            // refuses is not listed.
            let piece_facing = match piece.place {
                Place::Point { facing, .. } => facing,
                _ => return out,
            };
            let asked: Vec<(Point, Angle)> = out
                .iter()
                .map(|&(to, facing)| (to, facing.unwrap_or(piece_facing)))
                .collect();
            let answers = hooks.may_move_on_table_all(&self.world(), id, &asked);
            let mut answers = answers.into_iter();
            // A batch that answered fewer moves than it was asked refuses the rest.
            out.retain(|_| matches!(answers.next(), Some(Ok(()))));
        }
        out
    }

    /// Where `id` can move on an open table now, as its own side can judge it: the
    /// open-table counterpart of [`Self::reach_as`], and the moves
    /// [`Self::legal_orders`] lists for it (each a place and the facing the move gives,
    /// `None` keeping the piece's own). On a continuous table the places are a bounded
    /// candidate set ([`OPEN_HEADINGS`]), each judged by every rule a move is held to,
    /// hooks included. Empty on a grid.
    ///
    /// # Errors
    /// As [`Self::reach_as`].
    pub fn open_moves_as(
        &self,
        side: SideId,
        id: PieceId,
        hooks: &mut dyn Hooks,
    ) -> Result<Vec<(Point, Option<Angle>)>, crate::action::Refusal> {
        if self
            .state
            .pieces
            .get(id.index())
            .is_none_or(|p| p.side != side)
        {
            return Err(super::bans::PieceBan::NotYours(id, None).refuse(self));
        }
        self.as_known_by(side, |probe| {
            Ok(match probe.reach_in(&probe.state, id, hooks)? {
                Reach::Radius(radius) => probe.listing(hooks, |probe, hooks| {
                    probe.table_moves(side, id, radius, hooks, None)
                }),
                Reach::Cells(_) => Vec::new(),
            })
        })
    }

    /// The open-table moves tried for one piece (see [`OPEN_HEADINGS`]; with `rough`,
    /// [`Breadth::Rough`]'s few).
    fn open_candidates(
        &self,
        side: SideId,
        id: PieceId,
        radius: Cost,
        rough: bool,
    ) -> Vec<(Point, Option<Angle>)> {
        let Some(Place::Point {
            at,
            facing: facing_now,
        }) = self.state.pieces.get(id.index()).map(|p| &p.place)
        else {
            return Vec::new();
        };
        let (at, facing_now) = (*at, *facing_now);
        let reach = Len(i64::from(radius.hundredths()) * 10);
        let mut out = Vec::new();
        if rough {
            if reach.0 > 0 {
                for q in [4, 2] {
                    out.push((open::advance(at, facing_now, Len(reach.0 * q / 4)), None));
                }
            }
        } else if reach.0 > 0 {
            for h in 0..OPEN_HEADINGS {
                let heading = Angle::new(h * 3600 / OPEN_HEADINGS);
                for q in OPEN_FRACTIONS {
                    let to = open::advance(at, heading, Len(reach.0 * q / 4));
                    if to != at {
                        out.push((to, None));
                    }
                }
            }
        }
        let mut enemies: Vec<Point> = self
            .state
            .pieces
            .iter()
            .filter(|p| p.side != side)
            .filter_map(|p| match p.place {
                Place::Point { at: e, .. } => Some(e),
                _ => None,
            })
            .collect();
        if rough {
            enemies.sort_by_key(|e| open::distance(at, *e).0);
            enemies.truncate(ROUGH_TARGETS);
        }
        for e in &enemies {
            let towards = open::bearing(at, *e);
            let gap = open::distance(at, *e);
            let go = Len((gap.0 - Len::ONE_INCH.0).min(reach.0));
            if go.0 > 0 {
                out.push((open::advance(at, towards, go), Some(towards)));
            }
            out.push((at, Some(towards)));
        }
        if !rough {
            for q in 0..8 {
                out.push((at, Some(Angle::new(q * 450))));
            }
        }
        // Each listed move must change the game and be listed once: a facing the piece
        // already has is no turn (the move keeps it: `None`), a turn in place to it is no
        // move at all, and a heading toward an enemy may repeat a compass point or another
        // enemy's bearing.
        let mut seen = std::collections::BTreeSet::new();
        out.into_iter()
            .map(|(to, facing)| (to, facing.filter(|f| f.tenths() != facing_now.tenths())))
            .filter(|&(to, facing)| to != at || facing.is_some())
            .filter(|&(to, facing)| seen.insert((to.x.0, to.y.0, facing.map(Angle::tenths))))
            .collect()
    }
}
