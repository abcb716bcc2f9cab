//! Orders that move or turn a piece: a move along a path of cells, a move to a point of an
//! open table, a facing change, a mode change, and the redeployment of a dummy, with the
//! hooks each runs after it succeeds. Every step is priced and checked by `steps.rs`.
//!
//! The legal listing takes grid moves from [`Game::reach_in`] (`steps.rs`), not from
//! `check_move_start`: a rule on whether a piece may start a move goes in `start_ban`,
//! which both ask (pinned and the allowance are `Game::pinned` and `Game::allowance`, also
//! asked by both); a rule on the path's length goes in `check_move_start` and, for reach,
//! in `turning::step_limit`. tests/legal.rs's soundness and brute-force tests catch a miss.

use crate::action::{Ban, Event, Refusal};
use crate::cost::Cost;
use crate::geometry::open::{Angle, Point};
use crate::geometry::{Cell, Facing, Grid};
use crate::hooks::Hooks;
use crate::ids::{ModeId, PieceId, SideId};
use crate::piece::Place;
use crate::rules::{Effect, PieceTypeDef, Who};

use super::bans::{HoldWhy, ModeBan, MoveBan};
use super::{Game, Resolution};
use crate::piece::Piece;
use crate::state::State;

/// An open-table move that has passed its checks ([`Game::check_move_to`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct TableMove {
    /// Where the piece starts.
    from: Point,
    /// Its facing at the end.
    facing: Angle,
    /// What the move costs (rule inches as measured on this table).
    cost: Cost,
    /// The move enters an enemy's threatened zone, where it stops.
    stops: bool,
    /// Enemy units the side has not sighted that the bases would overlap at the end: the
    /// move runs into them and ends in contact where it started, its move spent, as a
    /// grid move into unseen enemies ends in contact rather than a refusal that would say
    /// what is there (and cost nothing to ask).
    meets: bool,
}

/// A move along a path of cells once the checks on the piece alone have passed
/// ([`Game::check_move_start`]).
struct MoveStart<'g> {
    /// The piece as it was before the move.
    piece: Piece,
    /// The side that ordered the move.
    side: SideId,
    grid: &'g Grid,
    ty: &'g PieceTypeDef,
    /// Its movement points in its mode, with any it saved.
    allowance: Cost,
    /// The cell it starts in.
    start: Cell,
}

/// How far a path's walk got ([`Resolution::walk_path`]) and what ended it.
struct PathWalk {
    /// Where the piece ends.
    at: Cell,
    /// The way it faces after the last step taken.
    facing: Facing,
    /// What the steps taken cost, with facing changes made on the way.
    spent: Cost,
    /// Facing changes made in the middle of the move.
    turns_made: u32,
    /// How many of the path's cells it entered.
    taken: usize,
    /// Why it must stop in the last cell, when the ruleset says so.
    stopped: Option<String>,
    /// Enemies it came into contact with, which end the walk.
    contact: Option<Vec<PieceId>>,
    /// An unseen enemy's cell it could not enter and is not in contact with.
    blocked: Option<Cell>,
}

impl Game {
    /// Why `piece` may not move again in this window, in words: a move, or a save or a
    /// change of mode that took its phase standing still (found in this phase's log).
    pub(super) fn why_moved(&self, piece: &Piece) -> String {
        let this_phase = self
            .log()
            .iter()
            .rev()
            .take_while(|e| !matches!(e, Event::PhaseBegan { .. }));
        let mut latest_change = None;
        for e in this_phase {
            match e {
                // An arrow laid into contact ends the command's movement (no move line).
                Event::Contact { piece: p, .. } if *p == piece.id => {
                    latest_change = latest_change.or(Some(format!(
                        "{} came into contact with the enemy this phase, which ends its movement",
                        piece.name
                    )));
                }
                Event::Moved { piece: p, .. } | Event::Redeployed { piece: p, .. }
                    if *p == piece.id =>
                {
                    return format!("{} has already moved", piece.name);
                }
                // Ordered with the piece that carries it (a leader with his unit).
                Event::Moved { piece: p, .. } if Some(*p) == piece.attached_to => {
                    let host = self
                        .state
                        .pieces
                        .get(p.index())
                        .map_or("?", |h| h.name.as_str());
                    return format!(
                        "{} has already moved: it was carried with {host}, which moved",
                        piece.name
                    );
                }
                // Name the change that took the phase (one made standing still), not a
                // later immediate one (road → battle → road blames road → battle).
                Event::ModeChanged { piece: p, from, to } if *p == piece.id => {
                    let takes_phase = self
                        .rules
                        .mode_by_name(to)
                        .and_then(|m| self.rules.modes.get(m.index()))
                        .zip(self.rules.mode_by_name(from))
                        .is_some_and(|(m, f)| m.stationary_from.contains(&f));
                    let why = format!(
                        "{} changed from {from} to {to} mode this phase, which takes the whole phase standing still",
                        piece.name
                    );
                    if takes_phase {
                        return why;
                    }
                    latest_change = latest_change.or(Some(why));
                }
                Event::Saved { piece: p, .. } if *p == piece.id => {
                    return format!(
                        "{} stood still this phase to save its movement points",
                        piece.name
                    );
                }
                _ => {}
            }
        }
        latest_change.unwrap_or_else(|| format!("{} has already moved", piece.name))
    }

    /// Why `id` may make no move now, in words, when a move's checks on the piece alone
    /// refuse it (it is pinned, has moved or was carried, or is held): what a reach that
    /// finds no place can say. `None` when nothing about the piece itself bars a move.
    #[must_use]
    pub fn why_not_moving(&self, id: PieceId) -> Option<String> {
        let piece = self.state.pieces.get(id.index())?;
        if let Err(r) = self.pinned(piece) {
            return Some(r.message);
        }
        if piece.moved {
            return Some(self.why_moved(piece));
        }
        let rider = crate::company::held(&self.rules, &self.state, piece)?;
        Some((MoveBan::Held(HoldWhy::RiderMoved(rider)).refuse((self, piece))).message)
    }

    /// What bars `piece` from starting any move, by what it did or how it stands: it has
    /// moved, a rider that moved holds it (`company::held`, asked of `riders`' state), or it
    /// is spread. The one list both [`Self::check_move_start`] (for `apply`) and
    /// [`Self::reach_in`] (for the legal listing, where such a piece reaches nothing) ask,
    /// so a new rule on whether a piece may start a move goes here.
    pub(super) fn start_ban<'s>(&self, riders: &'s State, piece: &Piece) -> Option<MoveBan<'s>> {
        if piece.moved {
            return Some(MoveBan::Moved);
        }
        if let Some(rider) = crate::company::held(&self.rules, riders, piece) {
            return Some(MoveBan::Held(HoldWhy::RiderMoved(rider)));
        }
        if matches!(piece.place, Place::Spread(_)) {
            return Some(MoveBan::Spread);
        }
        None
    }

    /// The checks on the piece and the path as a whole, before any step: the piece is the
    /// side's, free to move and in one cell; the path is not empty nor longer than its mode
    /// allows.
    fn check_move_start<'g>(
        &'g self,
        next: &State,
        side: SideId,
        id: PieceId,
        path: &[Cell],
    ) -> Result<MoveStart<'g>, Refusal> {
        let piece = self.own_piece(next, side, id)?.clone();
        let grid = (self.board.grid()).ok_or_else(|| MoveBan::OpenTable.refuse((self, &piece)))?;
        self.pinned(&piece)?;
        let allowance = self
            .allowance(&piece)?
            .saturating_add(self.saved_points_for(&piece, path));
        if let Some(ban) = self.start_ban(next, &piece) {
            return Err(ban.refuse((self, &piece)));
        }
        let Place::Cell(start) = piece.place else {
            return Err(MoveBan::Spread.refuse((self, &piece)));
        };
        if path.is_empty() {
            return Err(MoveBan::EmptyPath.refuse((self, &piece)));
        }
        let ty = (self.rules.piece_type(piece.kind))
            .ok_or_else(|| MoveBan::UnknownType.refuse((self, &piece)))?;
        if let Some(max) = ty.max_steps.get(piece.mode.index()).copied().flatten()
            && path.len() > max as usize
        {
            let len = path.len();
            return Err(MoveBan::TooManySteps { max, len }.refuse((self, &piece)));
        }
        crate::turning::check_slowed(&self.rules, &next.options, &piece, path.len())?;
        Ok(MoveStart {
            piece,
            side,
            grid,
            ty,
            allowance,
            start,
        })
    }

    /// Whether one priced step may be taken: within the allowance so far, and stopping or
    /// going on where the ruleset lets the piece (`(to, last)`: the step's cell, and
    /// whether it ends the path).
    fn check_entry(
        &self,
        m: &MoveStart<'_>,
        entry: &crate::reach::Entry,
        reason: Option<&str>,
        (to, last): (Cell, bool),
        spent: Cost,
    ) -> Result<(), Refusal> {
        let piece = &m.piece;
        if spent > m.allowance {
            let allowance = m.allowance;
            let ban = MoveBan::OverAllowance {
                spent,
                to,
                allowance,
            };
            return Err(ban.refuse((self, piece)));
        }
        if !entry.can_continue && !last {
            return Err(MoveBan::MustStop { to, reason }.refuse((self, piece)));
        }
        if last && !entry.can_stop {
            return Err(MoveBan::MayNotStop(to).refuse((self, piece)));
        }
        Ok(())
    }

    /// Asks the ruleset's `may_face` whether `id` may turn to `facing`, on `state` as it
    /// stands before the turn; its reason refuses the turn.
    pub(super) fn ask_may_face(
        &self,
        state: &State,
        id: PieceId,
        facing: Facing,
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
        self.ask_check(state, |world| hooks.may_face(world, id, facing))
    }

    /// Asks the ruleset's `may_move` whether `id` may move to `to` (turned to `facing`, or
    /// keeping its own), on `state` as it stands before the move; its reason refuses it.
    pub(super) fn ask_may_move(
        &self,
        state: &State,
        id: PieceId,
        to: Point,
        facing: Option<Angle>,
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
        let Some(Place::Point { facing: now, .. }) = state.pieces.get(id.index()).map(|p| &p.place)
        else {
            return Ok(());
        };
        let facing = facing.unwrap_or(*now);
        self.ask_check(state, |world| {
            hooks.may_move_on_table(world, id, to, facing)
        })
    }

    /// The checks a redeployment must pass, on `state` as it stands: a dummy of the side,
    /// not yet redeployed this turn, put down on the board where its kind may stand, not on
    /// a known enemy, within the stacking limits. Past them a redeployment always happens
    /// (or meets unseen enemies: contact; unseen enemies it does not meet share the cell
    /// with it), so the legal-order generator lists exactly the cells they pass.
    ///
    /// # Errors
    /// The refusal `do_redeploy` would give.
    pub(super) fn check_redeploy(
        &self,
        state: &State,
        side: SideId,
        id: PieceId,
        to: Cell,
    ) -> Result<(), Refusal> {
        let piece = self.own_piece(state, side, id)?;
        let ty = (self.rules.piece_type(piece.kind))
            .ok_or_else(|| MoveBan::UnknownType.refuse((self, piece)))?;
        if !ty.dummy {
            return Err(MoveBan::NotDummy.refuse((self, piece)));
        }
        if ty.no_redeploy {
            return Err(MoveBan::NoRedeploy.refuse((self, piece)));
        }
        if state.redeployed.contains(&id) {
            return Err(MoveBan::Redeployed.refuse((self, piece)));
        }
        if !self.board.contains(to) {
            return Err(MoveBan::OffBoard(to).refuse((self, piece)));
        }
        let terrain = self.board.terrain(to);
        let enterable = self
            .rules
            .move_classes
            .get(ty.move_class.index())
            .is_some_and(|c| c.enter.get(terrain.index()).is_some_and(Option::is_some));
        if !enterable {
            return Err(MoveBan::MayNotStand { terrain, at: to }.refuse((self, piece)));
        }
        let known_enemy = state.pieces.iter().any(|p| {
            p.side != side
                && p.on_board()
                && p.place.covers(to)
                && self.rules.keeps_apart(piece.kind, p.kind)
                && !self.gives_way(state, side, p)
                && (self.sighting().is_none()
                    || state
                        .knowledge
                        .get(side.index())
                        .is_some_and(|k| k.knows_position(p.id)))
        });
        if known_enemy {
            return Err(MoveBan::EnemyHolds(to).refuse((self, piece)));
        }
        if let Some(problem) = self.stacking_problem(state, to, id, side, true) {
            return Err(MoveBan::NoRoom { at: to, problem }.refuse((self, piece)));
        }
        Ok(())
    }

    /// The checks an open-table move must pass, on `state` as it stands: the piece's own,
    /// not yet moved (or with a move left on the move counter), the end on the table with
    /// its whole footprint clear of others, the terrain crossed (under any part of the
    /// bases), the allowance, and the enemy's zones and closest approach. Past them a move
    /// always happens; only the ruleset's `moved` hook may still refuse it, so the
    /// legal-order generator tries on a copy only when that hook is bound.
    ///
    /// # Errors
    /// The refusal `do_move_to` would give.
    pub(super) fn check_move_to(
        &self,
        state: &State,
        side: SideId,
        id: PieceId,
        to: Point,
        facing: Option<Angle>,
    ) -> Result<TableMove, Refusal> {
        let piece = self.own_piece(state, side, id)?;
        let Place::Point {
            at: from,
            facing: old,
        } = piece.place
        else {
            return Err(MoveBan::OnGrid.refuse((self, piece)));
        };
        let allowance = self.allowance(piece)?;
        self.check_may_move_on_table(piece)?;
        if !self.board.contains_point(to) {
            return Err(MoveBan::OffTable(to).refuse((self, piece)));
        }
        let new_facing = facing.unwrap_or(old);
        // A move that ends where the piece stands, facing as it faces, changes nothing: it
        // would only spend the piece's move and run the `moved` hook for nothing.
        if to == from && new_facing.tenths().rem_euclid(3600) == old.tenths().rem_euclid(3600) {
            let ban = MoveBan::ChangesNothing { to, facing: old };
            return Err(ban.refuse((self, piece)));
        }
        // Bases: the move costs the longest path a corner travels (a wheel, its outer
        // corner's arc), and ends with the whole footprint on the table, clear of others.
        let mut cost = self.table_move_cost(piece, (from, old), (to, new_facing));
        let meets =
            !(self.footprint_clash(state, piece, (to, new_facing), piece.mode, None)?).is_empty();
        let ty = self.rules.piece_type(piece.kind);
        let class = ty.and_then(|t| self.rules.move_classes.get(t.move_class.index()));
        // The areas the move passes through: a point's along its line; bases' wherever
        // they sweep, read as the convex hull of where they start and where they end (the
        // bulge of a wheel's outer arc beyond it is not counted).
        let crossed: Vec<&crate::board::Area> = match self.footprint_in(piece, piece.mode) {
            Some(f) => {
                let (a, b) = (f.place(from, old), f.place(to, new_facing));
                let mut corners = a.corners.to_vec();
                corners.extend(b.corners);
                let hull = crate::board::convex_hull(&corners);
                self.board.areas_touching(&hull).collect()
            }
            None => self.board.areas_crossed(from, to).collect(),
        };
        for area in crossed {
            match class.and_then(|c| c.enter.get(area.terrain.index()).copied().flatten()) {
                // An area's extra cost is a rule distance, so it shrinks with the scale.
                Some(extra) => cost = cost.saturating_add(self.scaled(extra)),
                None => return Err(MoveBan::CannotPass(&area.name).refuse((self, piece))),
            }
        }
        if cost > allowance {
            return Err(MoveBan::TableTooFar { cost, allowance }.refuse((self, piece)));
        }
        let approach = self.check_open_approach(state, piece, (from, new_facing), to)?;
        Ok(TableMove {
            from,
            facing: new_facing,
            cost,
            stops: approach.entered_zone,
            meets,
        })
    }

    /// Whether `piece` may make an open-table move at all now: it has not moved, or (with
    /// a move counter) it has a move left. The first of [`Self::check_move_to`]'s checks
    /// that depends on the piece alone, so the generator asks it once per piece.
    ///
    /// # Errors
    /// The refusal `do_move_to` would give.
    pub(super) fn check_may_move_on_table(&self, piece: &Piece) -> Result<(), Refusal> {
        // A flag that pins a piece (`pinned_by`: locked in melee, shaken) holds it on a
        // table as on a grid.
        self.pinned(piece)?;
        if piece.moved {
            return Err(MoveBan::TableMoved.refuse((self, piece)));
        }
        if let Some(c) = self.rules.open_table.move_counter
            && piece.counter(c) < 1
        {
            return Err(MoveBan::NoMovesLeft(c).refuse((self, piece)));
        }
        Ok(())
    }

    /// The checks a facing change must pass, on `state` as it stands: the piece is the
    /// side's, on a grid, of a type that faces, the facing exists, and it has a turn left
    /// that it can pay for ([`Self::check_turn`]). Past them a facing change always happens
    /// unless the ruleset's `faced` hook refuses it, so without that hook the legal-order
    /// generator lists every other facing of a piece that passes them, with no trial.
    ///
    /// # Errors
    /// The refusal `do_face` would give.
    pub(super) fn check_face(
        &self,
        state: &State,
        side: SideId,
        id: PieceId,
        facing: Facing,
    ) -> Result<(), Refusal> {
        let piece = self.own_piece(state, side, id)?;
        let grid: &Grid =
            (self.board.grid()).ok_or_else(|| MoveBan::FaceOnTable.refuse((self, piece)))?;
        if self.rules.piece_type(piece.kind).is_some_and(|t| !t.faces) {
            return Err(MoveBan::NoFacing.refuse((self, piece)));
        }
        if facing.0 >= grid.facings() {
            let (facing, facings) = (facing.0, grid.facings());
            return Err(MoveBan::NoSuchFacing { facing, facings }.refuse((self, piece)));
        }
        self.check_turn(piece)
    }

    /// The checks of a mode change that come before any change: the piece is the side's,
    /// its type has the mode, it is not in it already, a change that takes a phase
    /// standing still finds it unmoved, one that costs a move finds a move left, and new
    /// bases fit on the table clear of the units the side knows of. Past them only
    /// stacking (and a `mode_changed` hook) can refuse the change. True when the new bases
    /// would overlap units the side has not sighted: the change meets them and does not
    /// happen (`do_mode`). The legal-order generator runs them before trying a change on a
    /// copy.
    pub(super) fn check_mode(
        &self,
        state: &State,
        side: SideId,
        id: PieceId,
        mode: ModeId,
    ) -> Result<bool, Refusal> {
        let piece = self.own_piece(state, side, id)?;
        let Some(mode_def) = self.rules.modes.get(mode.index()) else {
            return Err(MoveBan::Mode(ModeBan::NoSuchMode).refuse((self, piece)));
        };
        let ty = (self.rules.piece_type(piece.kind))
            .ok_or_else(|| MoveBan::UnknownType.refuse((self, piece)))?;
        if !ty.can_take(mode) {
            return Err(MoveBan::Mode(ModeBan::CannotTake(mode)).refuse((self, piece)));
        }
        if piece.mode == mode {
            return Err(MoveBan::Mode(ModeBan::AlreadyIn(mode)).refuse((self, piece)));
        }
        // Some changes take a whole movement phase standing still (the block rules'
        // strategic → battle): the piece must not have moved, and may not move after.
        let stationary = mode_def.stationary_from.contains(&piece.mode);
        if stationary && piece.moved {
            // Say what took the phase (a move, or a save of its points), never a move that
            // was not made.
            return Err(MoveBan::Mode(ModeBan::StillAfterMove(mode)).refuse((self, piece)));
        }
        if stationary && self.spread_this_phase(piece) {
            return Err(MoveBan::Mode(ModeBan::StillAfterSpread(mode)).refuse((self, piece)));
        }
        // On an open table with counted moves, some changes cost a move (limbering up).
        let spends = self
            .rules
            .open_table
            .move_counter
            .filter(|_| self.rules.open_table.mode_costs_a_move.contains(&mode));
        if let Some(c) = spends
            && (piece.counter(c) < 1 || piece.moved)
        {
            return Err(MoveBan::Mode(ModeBan::ModeCostsMove(mode)).refuse((self, piece)));
        }
        // Bases reshape about the centre of the front edge: the new shape must fit there,
        // but for units the side has not sighted, which it meets (`do_mode`).
        if let (Place::Point { facing, .. }, Some(at)) =
            (&piece.place, self.reshaped_centre(piece, mode))
        {
            let unseen =
                (self.footprint_clash(state, piece, (at, *facing), mode, None)).map_err(|why| {
                    MoveBan::Mode(ModeBan::ModeDoesNotFit { mode, why }).refuse((self, piece))
                })?;
            return Ok(!unseen.is_empty());
        }
        Ok(false)
    }
}

impl Resolution<'_> {
    pub(super) fn do_move(
        &mut self,
        side: SideId,
        id: PieceId,
        path: &[Cell],
    ) -> Result<(), Refusal> {
        let game = self.game;
        let start = game.check_move_start(self.next, side, id, path)?;
        // The whole path is judged first on the board as the side may know it (without the
        // enemies it has not sighted): a path it cannot afford or may not take is refused
        // whether or not an unseen enemy would cut it short, or the refusal would tell
        // where hidden enemies stand (a free probe).
        if let Some(mut known) = game.as_known_to(self.next, side) {
            self.on(&mut known, &mut Vec::new())
                .do_move(side, id, path)?;
        }
        let walked = self.walk_path(&start, path)?;
        self.finish_move(&start, path, walked)
    }

    /// Walks the path step by step, pricing and checking each (`enter`), and stops early
    /// where the piece meets an enemy: one it did not know of (a dummy goes on among those
    /// it does not meet), or one it comes into contact with. Counts the crossings used.
    fn walk_path(&mut self, m: &MoveStart<'_>, path: &[Cell]) -> Result<PathWalk, Refusal> {
        let game = self.game;
        let (piece, grid, start) = (&m.piece, m.grid, m.start);
        // With an oblique rule in force, which side steps keep the heading.
        let headings = crate::turning::oblique_headings(
            &game.rules,
            grid,
            &self.next.options,
            piece,
            start,
            path,
        );
        // With facing changes in the middle of a move, where the path needs them.
        let walk = crate::turning::mid_move_walk(
            &game.rules,
            grid,
            &self.next.options,
            piece,
            start,
            path,
        );
        let mid = crate::turning::mid_turns(&game.rules, piece);
        let mut w = PathWalk {
            at: start,
            facing: piece.facing,
            spent: Cost::ZERO,
            turns_made: 0,
            taken: 0,
            stopped: None,
            contact: None,
            blocked: None,
        };
        let may_exit =
            !crate::company::exit_edges(&game.rules, &game.sides, self.next, piece).is_empty();
        for (i, &to) in path.iter().enumerate() {
            let at = w.at;
            if !game.board.contains(to) && !may_exit {
                return Err(MoveBan::OffBoard(to).refuse((game, piece)));
            }
            let Some(dir) = grid.direction_to(at, to) else {
                return Err(MoveBan::NotNext { to, at }.refuse((game, piece)));
            };
            let turned = walk.as_ref().and_then(|w| w.get(i)).is_some_and(|s| s.0);
            match mid {
                Some((_, Some(left))) if turned && w.turns_made >= left => {
                    return Err(crate::turning::no_turn_left(
                        &game.rules,
                        grid,
                        piece,
                        (w.facing, dir, to),
                    ));
                }
                _ if turned => {}
                _ => crate::turning::check_step(&game.rules, grid, piece, w.facing, dir, to)?,
            }
            // Walking into enemies the side did not know were there is contact, not a
            // refusal: a refusal's wording would tell what is there.
            let unseen = game.unseen_enemies_at(self.next, m.side, to, piece.kind);
            let mut passes = false;
            if !unseen.is_empty() {
                let met = game.meets_there(piece, to, unseen, self.next);
                if !met.is_empty() {
                    w.contact = Some(met);
                    break;
                }
                // A dummy collects no information: stopped short, it would tell its side
                // that something stands there. It steps in among unseen enemies it does
                // not meet as onto empty ground, sharing the cell (as a put-down does).
                if !m.ty.dummy {
                    w.blocked = Some(to);
                    break;
                }
                passes = true;
            }
            let (entry, reason) = match passes.then(|| game.as_known_to(self.next, m.side)) {
                Some(Some(known)) => game.enter_worded(&known, piece, (at, dir, to), self.hooks)?,
                _ => game.enter_worded(self.next, piece, (at, dir, to), self.hooks)?,
            };
            w.spent = w.spent.saturating_add(entry.cost);
            if turned {
                // The facing change before this step, paid like one before the move.
                w.turns_made += 1;
                w.spent = w.spent.saturating_add(mid.map_or(Cost::ZERO, |m| m.0));
            }
            let last = i + 1 == path.len();
            game.check_entry(m, &entry, reason.as_deref(), (to, last), w.spent)?;
            if last && !entry.can_continue {
                w.stopped = reason;
            }
            w.at = to;
            w.facing = match &walk {
                Some(walk) => walk.get(i).map_or(dir, |s| s.1),
                None => headings
                    .as_ref()
                    .and_then(|h| h.get(i))
                    .copied()
                    .unwrap_or(dir),
            };
            w.taken = i + 1;
            // A piece that takes no room uses up no crossing's capacity.
            if !m.ty.takes_no_room {
                self.count_crossing(piece.side, at, to);
            }
            let met = game.new_contacts(self.next, piece, at, to);
            if !met.is_empty() {
                w.contact = Some(met);
                break;
            }
        }
        Ok(w)
    }

    /// Puts the piece (and what it carries) where the walk ended and writes the move: its
    /// events, the facing changes counted, company settled, contact, and the `moved` hook.
    fn finish_move(
        &mut self,
        m: &MoveStart<'_>,
        path: &[Cell],
        w: PathWalk,
    ) -> Result<(), Refusal> {
        let game = self.game;
        let (piece, id, at) = (&m.piece, m.piece.id, w.at);
        let mut full_path = Vec::with_capacity(path.len() + 1);
        full_path.push(m.start);
        full_path.extend_from_slice(&path[..w.taken]);
        crate::company::leave_behind(&game.rules, self.next, self.events, id);
        let split = self.place_after_move(id, at, m.ty.faces.then_some(w.facing));
        if split {
            self.events.push(Event::Attached {
                piece: id,
                to: None,
            });
        }
        let steps = full_path.len() - 1;
        if steps > 0 {
            self.spend_saved(id);
        }
        let moved_path = full_path.clone();
        if steps > 0 {
            self.events.push(Event::Moved {
                piece: id,
                path: full_path,
                cost: w.spent,
                stopped: if w.contact.is_some() {
                    Some("came into contact with the enemy".to_owned())
                } else if let Some(cell) = w.blocked {
                    Some(format!("could not enter {cell}"))
                } else {
                    w.stopped
                },
            });
            // Who rode along (a leader ordered with his unit), which the move line omits.
            let riders = self.next.pieces.iter().filter(|p| {
                p.attached_to == Some(id)
                    && game
                        .rules
                        .piece_type(p.kind)
                        .is_some_and(|t| t.company.attaches)
            });
            let notes: Vec<Event> = riders
                .map(|p| Event::Note {
                    text: format!("{} went with {}", p.name, piece.name),
                })
                .collect();
            self.events.extend(notes);
        } else if let Some(cell) = w.blocked {
            self.events.push(Event::Note {
                text: format!("{} could not enter {cell}", piece.name),
            });
        }
        // Each facing change made in the middle of the move counts as one.
        if let Some(counter) = crate::turning::turning(&game.rules, piece).and_then(|t| t.counter) {
            let effect = Effect::AddCounter {
                who: Who::Actor,
                counter,
                amount: 1,
            };
            for _ in 0..w.turns_made {
                self.apply_effect(&effect, id, None, 0);
            }
        }
        crate::company::settle(
            &game.rules,
            &game.board,
            self.next,
            self.events,
            id,
            steps,
            at,
        );
        if let Some(met) = w.contact {
            self.events.push(game.contact_event(self.next, id, at, met));
        }
        if steps > 0 {
            self.after_move((m.side, id, piece.facing), &moved_path)?;
        }
        Ok(())
    }

    /// Asks the `faced` hook what a facing change brings with it (or whether the ruleset
    /// forbids it), and applies it.
    pub(super) fn after_face(
        &mut self,
        (side, id, before): (SideId, PieceId, Facing),
    ) -> Result<(), Refusal> {
        self.run_game_hook(side, |hooks, world, dice| {
            hooks.faced(world, id, before, dice)
        })
    }

    /// Asks the `moved` hook what a finished grid move brings with it, and applies it.
    pub(super) fn after_move(
        &mut self,
        (side, id, facing): (SideId, PieceId, Facing),
        path: &[Cell],
    ) -> Result<(), Refusal> {
        self.run_game_hook(side, |hooks, world, dice| {
            hooks.moved(world, id, path, facing, dice)
        })
    }

    /// Asks the `moved_on_table` hook what a finished open-table move brings with it (the
    /// last `MovedOnTable` event gives where it started), and applies it.
    pub(super) fn after_move_to(&mut self, side: SideId, id: PieceId) -> Result<(), Refusal> {
        let game = self.game;
        let Some(from) = self.events.iter().rev().find_map(|e| match e {
            Event::MovedOnTable { piece, from, .. } if *piece == id => Some(*from),
            _ => None,
        }) else {
            return Ok(());
        };
        let facing = game
            .state
            .pieces
            .get(id.index())
            .and_then(|p| match p.place {
                Place::Point { facing, .. } => Some(facing),
                _ => None,
            })
            .unwrap_or_default();
        self.run_game_hook(side, |hooks, world, dice| {
            hooks.moved_on_table(world, id, from, facing, dice)
        })
    }

    /// Lifts a dummy and puts it down elsewhere (once per turn).
    pub(super) fn do_redeploy(
        &mut self,
        side: SideId,
        id: PieceId,
        to: Cell,
    ) -> Result<(), Refusal> {
        let game = self.game;
        game.check_redeploy(self.next, side, id, to)?;
        let piece = game.own_piece(self.next, side, id)?.clone();
        self.next.redeployed.push(id);
        let unseen = game.unseen_enemies_at(self.next, side, to, piece.kind);
        if !unseen.is_empty() {
            // Enemies the side did not know of hold the cell. Those the contact rule
            // deploys it against there stop it where it was: contact. Any others do not:
            // it is put down with them, as on an empty cell, since a dummy that could not
            // be put down would tell its side that an unseen enemy stands there.
            let met = game.meets_there(&piece, to, unseen, self.next);
            if !met.is_empty() {
                let at = piece.place.cell().unwrap_or(to);
                self.events.push(game.contact_event(self.next, id, at, met));
                return Ok(());
            }
        }
        for p in &mut self.next.pieces {
            if p.id == id {
                p.place = Place::Cell(to);
                p.attached_to = None;
            } else if p.attached_to == Some(id) {
                p.attached_to = None;
            }
        }
        self.events.push(Event::Redeployed { piece: id, to });
        Ok(())
    }

    pub(super) fn do_move_to(
        &mut self,
        side: SideId,
        id: PieceId,
        to: Point,
        facing: Option<Angle>,
    ) -> Result<(), Refusal> {
        let game = self.game;
        let TableMove {
            from,
            facing: new_facing,
            cost,
            stops,
            meets,
        } = game.check_move_to(self.next, side, id, to, facing)?;
        if meets {
            self.stopped_by_unseen(id, game.rules.open_table.move_counter);
            return Ok(());
        }
        let old = match self.next.pieces.get(id.index()).map(|p| &p.place) {
            Some(Place::Point { facing, .. }) => *facing,
            _ => new_facing,
        };
        let move_counter = game.rules.open_table.move_counter;
        for p in &mut self.next.pieces {
            if p.id == id {
                p.place = Place::Point {
                    at: to,
                    facing: new_facing,
                };
                // With a move counter, a piece moves again until the counter runs out or
                // it stops in an enemy's threatened zone.
                p.moved = move_counter.is_none() || stops;
                p.attached_to = None;
            } else if p.attached_to == Some(id) {
                p.place = Place::Point {
                    at: to,
                    facing: new_facing,
                };
            }
        }
        self.events.push(Event::MovedOnTable {
            piece: id,
            from,
            to,
            cost,
        });
        if new_facing != old {
            self.events.push(Event::Faced {
                piece: id,
                facing: new_facing.to_string(),
            });
        }
        if let Some(counter) = move_counter {
            let effect = Effect::AddCounter {
                who: Who::Actor,
                counter,
                amount: -1,
            };
            self.apply_effect(&effect, id, None, 0);
        }
        // The type's `after_move` flags, as on a grid: an open-table move is one step, and
        // it ends in the terrain under the piece's point.
        crate::company::after_move_flags(
            &game.rules,
            self.next,
            self.events,
            id,
            1,
            game.board.terrain_at(to),
        );
        Ok(())
    }

    pub(super) fn do_face(
        &mut self,
        side: SideId,
        id: PieceId,
        facing: Facing,
    ) -> Result<(), Refusal> {
        let game = self.game;
        game.check_face(self.next, side, id, facing)?;
        self.count_turn(id)?;
        if let Some(p) = self.next.pieces.get_mut(id.index()) {
            p.facing = facing;
        }
        if let Some(grid) = game.board.grid() {
            self.events.push(Event::Faced {
                piece: id,
                facing: grid.facing_name(facing).to_owned(),
            });
        }
        Ok(())
    }

    pub(super) fn do_mode(
        &mut self,
        side: SideId,
        id: PieceId,
        mode: ModeId,
    ) -> Result<(), Refusal> {
        let game = self.game;
        let meets = game.check_mode(self.next, side, id, mode)?;
        let piece = game.own_piece(self.next, side, id)?;
        let Some(mode_def) = game.rules.modes.get(mode.index()) else {
            return Err(MoveBan::Mode(ModeBan::NoSuchMode).refuse((game, piece)));
        };
        let stationary = mode_def.stationary_from.contains(&piece.mode);
        let spends = game
            .rules
            .open_table
            .move_counter
            .filter(|_| game.rules.open_table.mode_costs_a_move.contains(&mode));
        if meets {
            self.stopped_by_unseen(id, spends);
            return Ok(());
        }
        let from = game.rules.mode_name(piece.mode).to_owned();
        // Bases reshape about the centre of the front edge (`check_mode` saw that they fit).
        let reshaped = match (&piece.place, game.reshaped_centre(piece, mode)) {
            (Place::Point { facing, .. }, Some(at)) => Some(Place::Point {
                at,
                facing: *facing,
            }),
            _ => None,
        };
        // The centre moves when the shape's depth changes: the log says where it is now.
        let shifted = match (&piece.place, &reshaped) {
            (Place::Point { at: before, .. }, Some(Place::Point { at: now, .. }))
                if before != now =>
            {
                Some((*before, *now))
            }
            _ => None,
        };
        if let Some(p) = self.next.pieces.get_mut(id.index()) {
            p.mode = mode;
            if stationary {
                p.moved = true;
            }
            if let Some(place) = reshaped {
                p.place = place;
            }
        }
        if let Some(c) = self
            .next
            .pieces
            .get(id.index())
            .and_then(|p| p.place.cell())
            && let Some(problem) = game.stacking_problem(self.next, c, id, side, false)
        {
            let ban = MoveBan::Mode(ModeBan::ModeNoRoom { mode, problem });
            return Err(ban.refuse((game, &self.next.pieces[id.index()])));
        }
        self.events.push(Event::ModeChanged {
            piece: id,
            from,
            to: mode_def.name.clone(),
        });
        if let Some((from, to)) = shifted {
            self.events.push(Event::PlacedOnTable {
                piece: id,
                from,
                to,
                reason: "bases re-formed, front edge kept".to_owned(),
            });
        }
        if let Some(counter) = spends {
            let effect = Effect::AddCounter {
                who: Who::Actor,
                counter,
                amount: -1,
            };
            self.apply_effect(&effect, id, None, 0);
        }
        Ok(())
    }

    /// Moves piece `id` and the pieces attached to it to `at`, marks it moved and turns it
    /// to `facing` when its type faces. Whether it left a host it was carried by (a leader
    /// splitting off).
    fn place_after_move(&mut self, id: PieceId, at: Cell, facing: Option<Facing>) -> bool {
        let mut split = false;
        for p in &mut self.next.pieces {
            if p.id == id {
                p.place = Place::Cell(at);
                p.moved = true;
                // A carried piece moving on its own leaves its host (a leader splitting off).
                split = p.attached_to.take().is_some();
                if let Some(f) = facing {
                    p.facing = f;
                }
            } else if p.attached_to == Some(id) {
                p.place = Place::Cell(at);
            }
        }
        split
    }
}

/// What an open-table move costs, and what the piece has: what a player dragging a base
/// sees before dropping it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveToCost {
    /// The move's cost in rule inches as measured on this table: pivot, terrain crossed.
    pub cost: Cost,
    /// The piece's allowance in its mode now.
    pub allowance: Cost,
}

impl Game {
    /// What `side`'s move of `piece` to `to` (facing `facing`, or as it faces) would cost
    /// now, with the piece's allowance; `None` when the move would be refused (only the
    /// ruleset's `moved` hook, which may still refuse a move that passes, is not run).
    /// Reads only what `side` may know: the piece is its own, and the checks are the ones
    /// its orders meet.
    #[must_use]
    pub fn move_to_cost(
        &self,
        side: SideId,
        piece: PieceId,
        to: Point,
        facing: Option<Angle>,
    ) -> Option<MoveToCost> {
        let checked = self
            .check_move_to(&self.state, side, piece, to, facing)
            .ok()?;
        let allowance = self.allowance(self.state.pieces.get(piece.index())?).ok()?;
        Some(MoveToCost {
            cost: checked.cost,
            allowance,
        })
    }
}
