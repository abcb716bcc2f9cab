//! Marching procedures as orders: saving movement points toward a costly cell, spreading a
//! command into a neighbouring cell and gathering it back, and crossings that carry only so
//! many pieces a turn. Their rules are data in [`crate::march`].

use super::bans::{HoldWhy, Lacks, MarchBan, MoveBan};
use super::{Game, Resolution};
use crate::action::{Ban, Event, Refusal};
use crate::cost::Cost;
use crate::geometry::{Cell, Grid};
use crate::ids::{PieceId, SideId};
use crate::piece::{Piece, Place};
use crate::state::State;

impl Game {
    /// The points `piece` has saved.
    #[must_use]
    pub fn saved_points(&self, piece: &Piece) -> Cost {
        self.rules().saving.as_ref().map_or(Cost::ZERO, |s| {
            Cost::from_hundredths(
                piece
                    .counter(s.counter)
                    .saturating_mul(s.unit.hundredths())
                    .max(0),
            )
        })
    }

    /// The saved points a move along `path` may spend: all of them when they were given
    /// without a cell (a credit at the start), otherwise only for a move of one step into
    /// the cell they were saved toward (the block rules: saved points pay for entering that
    /// square, and a block in battle mode saves to enter an adjacent square only).
    pub fn saved_points_for(&self, piece: &Piece, path: &[Cell]) -> Cost {
        match piece.saved_toward {
            None => self.saved_points(piece),
            Some(toward) if path == [toward] => self.saved_points(piece),
            Some(_) => Cost::ZERO,
        }
    }

    /// The checks a save must pass, on `state` as it stands (the ruleset saves points, the
    /// piece has not moved, `toward` is a neighbour whose step costs more than it has, its
    /// mode or the terrain allows saving); the points it would add. Past them a save always
    /// happens, so the legal-order generator lists exactly the saves they pass.
    ///
    /// # Errors
    /// The refusal `do_save` would give.
    pub(crate) fn check_save(
        &self,
        state: &State,
        side: SideId,
        id: PieceId,
        toward: Cell,
    ) -> Result<i32, Refusal> {
        let Some(rules) = self.rules().saving.as_ref() else {
            return Err(Lacks::Saving.refuse(()));
        };
        let piece = self.own_piece(state, side, id)?;
        if piece.moved {
            // Name what took the phase: a move, a save or a change of mode.
            return Err(MoveBan::Moved.refuse((self, piece)));
        }
        if let Some(why) = self.spread_not_saved(piece) {
            return Err(MoveBan::Held(why).refuse((self, piece)));
        }
        let Some(from) = piece.place.cell() else {
            return Err(MoveBan::NotOnCell.refuse((self, piece)));
        };
        let Some(grid) = self.board().grid() else {
            return Err(MoveBan::NoGrid.refuse((self, piece)));
        };
        let Some(dir) = grid.direction_to(from, toward) else {
            return Err(
                MoveBan::March(MarchBan::SaveNotNext { toward, from }).refuse((self, piece))
            );
        };
        let step = (self.data_step_price(piece, from, dir, toward, false)).map_err(|ban| {
            MoveBan::March(MarchBan::Step {
                from,
                to: toward,
                ban,
            })
            .refuse((self, piece))
        })?;
        let allowance = self.allowance(piece)?;
        let have = allowance.saturating_add(self.saved_points_for(piece, &[toward]));
        if have >= step {
            let ban = MoveBan::March(MarchBan::SaveNotNeeded { have, step, toward });
            return Err(ban.refuse((self, piece)));
        }
        let costly = step > grid.step_cost(dir);
        if !(rules.modes.contains(&piece.mode) || (rules.costly_terrain && costly)) {
            return Err(MoveBan::March(MarchBan::SaveMode).refuse((self, piece)));
        }
        Ok(if rules.unit.hundredths() > 0 {
            allowance.hundredths() / rules.unit.hundredths()
        } else {
            0
        })
    }

    /// The checks a spread must pass before the piece is spread, on `state` as it stands
    /// (the ruleset spreads commands, `to` is on the board next to a cell the piece holds,
    /// its figures divide, the step is possible, no enemy holds `to`); the cells it holds.
    /// `do_extend` then checks the stacking limits with the piece spread. The legal-order
    /// generator tries only the spreads these checks pass.
    ///
    /// # Errors
    /// The refusal `do_extend` would give.
    pub(crate) fn check_extend(
        &self,
        state: &State,
        side: SideId,
        id: PieceId,
        to: Cell,
    ) -> Result<Vec<Cell>, Refusal> {
        let Some(rules) = self.rules().spread.clone() else {
            return Err(Lacks::Spread.refuse(()));
        };
        let piece = self.own_piece(state, side, id)?;
        if let Some(why) = self
            .contact_ended(piece)
            .or_else(|| self.stood_still_for_mode(piece))
            .or_else(|| self.saved_not_spread(piece))
        {
            return Err(MoveBan::Held(why).refuse((self, piece)));
        }
        let cells: Vec<Cell> = match &piece.place {
            Place::Cell(c) => vec![*c],
            Place::Spread(cs) => cs.clone(),
            _ => return Err(MoveBan::March(MarchBan::NotOnGrid).refuse((self, piece))),
        };
        let Some(grid) = self.board().grid() else {
            return Err(MoveBan::NoGrid.refuse((self, piece)));
        };
        if cells.contains(&to) || !cells.iter().any(|c| grid.distance(*c, to) == 1) {
            return Err(MoveBan::March(MarchBan::SpreadNotNext).refuse((self, piece)));
        }
        if !self.board().contains(to) {
            return Err(MoveBan::OffBoard(to).refuse((self, piece)));
        }
        self.check_spread_figures(piece, &rules, cells.len())?;
        // The spread goes from a held cell next to `to`, by a step the piece could take
        // (judged from that cell, so the boundary named is the one crossed), and never
        // across an impassable barrier (a river), even at a crossing: a command's cells
        // are one piece of ground. A barrier a move may cross (a hedge, a wall) does not
        // divide it.
        let mut why_not = None;
        let mut spreads = false;
        let mut cheapest: Option<Cost> = None;
        for from in cells.iter().copied() {
            let Some(dir) = grid.direction_to(from, to) else {
                continue;
            };
            let features = &self.rules().features;
            let barrier = self
                .board()
                .barriers_crossed(from, dir, to, |f| {
                    features.get(f.index()).is_some_and(|d| {
                        matches!(d.kind, crate::rules::FeatureKind::Barrier { cost: None })
                    })
                })
                .into_iter()
                .next();
            match (self.data_step_price(piece, from, dir, to, false), barrier) {
                (Err(ban), _) => {
                    why_not = why_not.or(Some(MoveBan::March(MarchBan::Step { from, to, ban })))
                }
                (Ok(_), Some(feature)) => {
                    why_not = why_not.or(Some(MoveBan::March(MarchBan::SpreadBarrier {
                        feature,
                        from,
                        to,
                    })));
                }
                (Ok(cost), None) => {
                    spreads = true;
                    cheapest = Some(cheapest.map_or(cost, |c| c.min(cost)));
                }
            }
        }
        if !spreads && let Some(ban) = why_not {
            return Err(ban.refuse((self, piece)));
        }
        // A spread that is a step: the cell must be one the command could enter this
        // phase, its allowance with the points saved toward that cell paying for it.
        if rules.costs_step
            && let Some(step) = cheapest
        {
            let allowance = self.allowance(piece)?;
            let have = allowance.saturating_add(self.saved_points_for(piece, &[to]));
            if have < step {
                let why = HoldWhy::ArrowTooDear { to, step, have };
                return Err(MoveBan::Held(why).refuse((self, piece)));
            }
        }
        // An arrow enters its square: a command grows one square outward a phase.
        if rules.from_phase_start
            && let Some(why) = self.grows_too_far(piece, to, grid)
        {
            return Err(MoveBan::Held(why).refuse((self, piece)));
        }
        // Only enemies the side knows are there refuse it; spreading into unseen ones is
        // contact (`do_extend`), as a move into them would be.
        if state.pieces.iter().any(|p| {
            p.side != side
                && p.on_board()
                && p.place.covers(to)
                && self.rules().keeps_apart(piece.kind, p.kind)
                && !self.gives_way(state, side, p)
                && (self.sighting().is_none()
                    || state
                        .knowledge
                        .get(side.index())
                        .is_some_and(|k| k.knows_position(p.id)))
        }) {
            return Err(MoveBan::EnemyHolds(to).refuse((self, piece)));
        }
        Ok(cells)
    }

    /// The figures a spread onto one more cell needs (`check_extend`): a real command keeps
    /// the least each cell holds over all its cells; a dummy is bounded instead.
    fn check_spread_figures(
        &self,
        piece: &Piece,
        rules: &crate::march::SpreadRules,
        held: usize,
    ) -> Result<(), Refusal> {
        // The least each cell holds is a rule for deploying miniatures, which a dummy never
        // does: a dummy lays arrows as a real command would, so laying one proves nothing.
        // Its squares are still bounded: by the most the counter can hold (the largest
        // command's figures), so a dummy lays no more than a real command could.
        let dummy = !self.is_real(piece);
        if let Some(counter) = rules.counter {
            let n = held as i32 + 1;
            if dummy {
                let most = (self.rules().counters.get(counter.index())).map_or(0, |d| d.max);
                if most < rules.min_per_cell.saturating_mul(n) {
                    let why = HoldWhy::DummyTooWide {
                        n,
                        counter,
                        most,
                        least: rules.min_per_cell,
                    };
                    return Err(MoveBan::Held(why).refuse((self, piece)));
                }
            } else {
                let total = piece.counter(counter);
                if total < rules.min_per_cell.saturating_mul(n) {
                    let ban = MoveBan::March(MarchBan::TooFewToSpread {
                        total,
                        counter,
                        cells: n,
                        least: rules.min_per_cell,
                    });
                    return Err(ban.refuse((self, piece)));
                }
            }
        }
        Ok(())
    }

    /// The log a probe of `side`'s legal orders keeps (`Game::probe` in `legal.rs`):
    /// this phase's events about the side's own pieces that bar further orders, oldest
    /// first (the side saw them all): the contacts its pieces made (no more arrows), their
    /// mode changes (one that takes the phase standing still bars arrows) and their arrows
    /// (which bar such a change).
    pub(crate) fn probe_log(&self, side: SideId) -> Vec<Event> {
        let own = |piece: &PieceId| {
            self.state
                .pieces
                .get(piece.index())
                .is_some_and(|p| p.side == side)
        };
        let mut out: Vec<Event> = self
            .log()
            .iter()
            .rev()
            .take_while(|e| !matches!(e, Event::PhaseBegan { .. }))
            .filter(|e| match e {
                Event::Contact { piece, .. }
                | Event::ModeChanged { piece, .. }
                | Event::Moved { piece, .. }
                | Event::Spread { piece, .. }
                | Event::Saved { piece, .. } => own(piece),
                _ => false,
            })
            .cloned()
            .collect();
        out.reverse();
        out
    }

    /// Why `piece` may lay no arrow and gather nothing more this phase: it came into
    /// contact with the enemy in it (by a move or an arrow), which ends its movement.
    pub(super) fn contact_ended(&self, piece: &Piece) -> Option<HoldWhy<'static>> {
        if !piece.moved {
            return None;
        }
        self.log()
            .iter()
            .rev()
            .take_while(|e| !matches!(e, Event::PhaseBegan { .. }))
            .any(|e| matches!(e, Event::Contact { piece: p, .. } if *p == piece.id))
            .then_some(HoldWhy::ContactEnded)
    }

    /// Why `piece` may lay or take up no extension arrow this phase: it changed mode this
    /// phase by a change that takes the whole phase standing still (the block rules'
    /// strategic → battle), and an arrow moves the command into or out of a cell.
    pub(super) fn stood_still_for_mode(&self, piece: &Piece) -> Option<HoldWhy<'static>> {
        if !piece.moved {
            return None;
        }
        self.log()
            .iter()
            .rev()
            .take_while(|e| !matches!(e, Event::PhaseBegan { .. }))
            .find_map(|e| match e {
                Event::ModeChanged { piece: p, from, to } if *p == piece.id => {
                    let (from, to) = (
                        self.rules().mode_by_name(from),
                        self.rules().mode_by_name(to),
                    );
                    let (from, to) = from.zip(to)?;
                    let takes_phase = (self.rules().modes.get(to.index()))
                        .is_some_and(|m| m.stationary_from.contains(&from));
                    takes_phase.then_some(HoldWhy::StoodStill { from, to })
                }
                _ => None,
            })
    }

    /// Why `piece` may not spread into `to` when a command grows one cell outward a phase
    /// (`SpreadRules::from_phase_start`): it gathered this phase (outside the relay
    /// modes), or `to` is next to no cell it held as the phase began.
    fn grows_too_far(&self, piece: &Piece, to: Cell, grid: &Grid) -> Option<HoldWhy<'static>> {
        let rules = self.rules().spread.as_ref()?;
        let (start, gathered) = self.phase_start_cells(piece);
        if gathered && !rules.relay_modes.contains(&piece.mode) {
            return Some(HoldWhy::Gathered);
        }
        if start.iter().any(|c| grid.distance(*c, to) <= 1) {
            return None;
        }
        Some(HoldWhy::GrowsOneSquare)
    }

    /// The cells `piece` held as this phase began, read from this phase's log (its first
    /// move or arrow says where it was; after a gather, its main cell only), and whether
    /// it gathered in the phase.
    pub(crate) fn phase_start_cells(&self, piece: &Piece) -> (Vec<Cell>, bool) {
        let log = self.log();
        let begun = log
            .iter()
            .rposition(|e| matches!(e, Event::PhaseBegan { .. }))
            .map_or(0, |i| i + 1);
        let mut start = None;
        let mut gathered = false;
        for e in &log[begun..] {
            match e {
                Event::Spread { piece: p, cells } if *p == piece.id => {
                    if cells.len() == 1 {
                        gathered = true;
                    }
                    if start.is_none() {
                        // A gather leaves its main cell, from which a relay grows.
                        start = Some(if cells.len() > 1 {
                            cells[..cells.len() - 1].to_vec()
                        } else {
                            cells.clone()
                        });
                    }
                }
                Event::Moved { piece: p, path, .. } if *p == piece.id && start.is_none() => {
                    start = Some(path.first().copied().into_iter().collect());
                }
                _ => {}
            }
        }
        let start = start.unwrap_or_else(|| match &piece.place {
            Place::Cell(c) => vec![*c],
            Place::Spread(cs) => cs.clone(),
            _ => Vec::new(),
        });
        (start, gathered)
    }

    /// True when the enemy piece `p` keeps none of `side`'s pieces out of its cells: the
    /// ruleset lets known dummies give way (`known_dummies_give_way`) and `side` knows `p`
    /// is a dummy. One it has not identified keeps them out as a real piece would, so
    /// only knowledge lifts the bar.
    pub(crate) fn gives_way(&self, state: &State, side: SideId, p: &Piece) -> bool {
        self.sighting().is_some_and(|s| s.known_dummies_give_way)
            && p.side != side
            && !self.is_real(p)
            && state
                .knowledge
                .get(side.index())
                .and_then(|k| k.get(p.id))
                .is_some_and(|k| k.real == Some(false))
    }

    /// Why `piece` may save nothing this phase when a spread is a step
    /// (`SpreadRules::costs_step`): it laid or took up an arrow in it.
    pub(super) fn spread_not_saved(&self, piece: &Piece) -> Option<HoldWhy<'static>> {
        let rules = self.rules().spread.as_ref()?;
        (rules.costs_step && self.spread_this_phase(piece)).then_some(HoldWhy::SpreadNotSaved)
    }

    /// Why `piece` may lay or take up no arrow this phase when a spread is a step
    /// (`SpreadRules::costs_step`): it saved points in it, standing still.
    pub(super) fn saved_not_spread(&self, piece: &Piece) -> Option<HoldWhy<'static>> {
        let rules = self.rules().spread.as_ref()?;
        let saved = rules.costs_step
            && self
                .log()
                .iter()
                .rev()
                .take_while(|e| !matches!(e, Event::PhaseBegan { .. }))
                .any(|e| matches!(e, Event::Saved { piece: p, .. } if *p == piece.id));
        saved.then_some(HoldWhy::SavedNotSpread)
    }

    /// True when `piece` laid or took up an extension arrow this phase (what a change of
    /// mode that takes the phase standing still may not follow).
    pub(crate) fn spread_this_phase(&self, piece: &Piece) -> bool {
        self.log()
            .iter()
            .rev()
            .take_while(|e| !matches!(e, Event::PhaseBegan { .. }))
            .any(|e| matches!(e, Event::Spread { piece: p, .. } if *p == piece.id))
    }

    /// `state` as `side` may know it: the enemies whose place it does not know taken off
    /// the board, and the real enemies it sees but does not know to be real (face-down
    /// markers) of a kind that causes contact put down as the ruleset's dummy, so that
    /// whether a marker is real never decides whether a path is refused. `None` when it knows every enemy's place and
    /// kind (or nothing is hidden).
    pub(crate) fn as_known_to(&self, state: &State, side: SideId) -> Option<State> {
        self.sighting()?;
        let knowledge = state.knowledge.get(side.index());
        let unseen = |p: &Piece| {
            p.side != side && p.on_board() && !knowledge.is_some_and(|k| k.knows_position(p.id))
        };
        let dummy = self
            .rules()
            .piece_types
            .iter()
            .position(|t| t.dummy)
            .map(|i| crate::ids::PieceTypeId(i as u16));
        // Only pieces that would cause contact: what the trial must not learn is whether
        // the marker would have cut the path short.
        let contact = self.sighting().and_then(|s| s.contact.as_ref());
        let unknown_real = |p: &Piece| {
            dummy.is_some()
                && contact.is_some_and(|c| c.types.is_empty() || c.types.contains(&p.kind))
                && p.side != side
                && p.on_board()
                && self.is_real(p)
                && !knowledge
                    .and_then(|k| k.get(p.id))
                    .is_some_and(|k| k.real == Some(true) || k.kind.is_some())
        };
        if !state.pieces.iter().any(|p| unseen(p) || unknown_real(p)) {
            return None;
        }
        let mut known = state.clone();
        for p in &mut known.pieces {
            if unseen(p) {
                p.place = Place::Off;
            } else if unknown_real(p)
                && let Some(d) = dummy
            {
                p.kind = d;
            }
        }
        Some(known)
    }

    /// How many more of `side`'s pieces the crossing between `a` and `b` may carry this
    /// turn (`None`: no crossing with a capacity there). The capacity is each side's: the
    /// other side's crossings, which it may not have seen, never use it up.
    pub(crate) fn crossing_room(
        &self,
        state: &State,
        side: SideId,
        a: Cell,
        b: Cell,
    ) -> Option<u32> {
        let rules = self.rules();
        let capacity = self
            .board()
            .features_between(a, b)
            .iter()
            .filter_map(|f| rules.features.get(f.index()).and_then(|d| d.capacity))
            .min()?;
        let key = if (a.row, a.col) <= (b.row, b.col) {
            (side, a, b)
        } else {
            (side, b, a)
        };
        let used = state
            .crossed
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(0, |(_, n)| *n);
        Some(capacity.saturating_sub(used))
    }
}

impl Resolution<'_> {
    /// Saves `id`'s allowance toward the neighbouring cell `toward`: it stands still this
    /// phase and its next move may spend the points.
    pub(crate) fn do_save(
        &mut self,
        side: SideId,
        id: PieceId,
        toward: Cell,
    ) -> Result<(), Refusal> {
        let game = self.game;
        let units = game.check_save(self.next, side, id, toward)?;
        let Some(rules) = game.rules().saving.clone() else {
            return Ok(());
        };
        let piece = game.own_piece(self.next, side, id)?.clone();
        // Points saved toward another cell were for entering that cell: they do not carry
        // over to a new one.
        let before = match piece.saved_toward {
            Some(other) if other != toward => 0,
            _ => piece.counter(rules.counter),
        };
        let after = before.saturating_add(units);
        if let Some(p) = self.next.pieces.get_mut(id.index()) {
            if let Some(c) = p.counters.get_mut(rules.counter.index()) {
                *c = after;
            }
            p.moved = true;
            p.saved_toward = Some(toward);
        }
        self.events.push(Event::Saved {
            piece: id,
            toward,
            points: Cost::from_hundredths(after.saturating_mul(rules.unit.hundredths())),
        });
        Ok(())
    }

    /// Spends saved points after a move.
    pub(crate) fn spend_saved(&mut self, id: PieceId) {
        let game = self.game;
        if let Some(s) = &game.rules().saving
            && let Some(p) = self.next.pieces.get_mut(id.index())
        {
            if let Some(c) = p.counters.get_mut(s.counter.index()) {
                *c = 0;
            }
            p.saved_toward = None;
        }
    }

    /// At the end of a phase in which a piece could move: points it did not spend or add
    /// to are lost.
    pub(crate) fn expire_saved(&mut self, could_move: impl Fn(&Piece) -> bool) {
        let game = self.game;
        let Some(s) = &game.rules().saving else {
            return;
        };
        for p in &mut self.next.pieces {
            if !p.moved
                && could_move(p)
                && let Some(c) = p.counters.get_mut(s.counter.index())
            {
                *c = 0;
                p.saved_toward = None;
            }
        }
    }

    /// Spreads `id` into `to`, a cell next to one it holds (an extension arrow).
    pub(crate) fn do_extend(&mut self, side: SideId, id: PieceId, to: Cell) -> Result<(), Refusal> {
        let game = self.game;
        let cells = game.check_extend(self.next, side, id, to)?;
        let piece = game.own_piece(self.next, side, id)?.clone();
        let mut unseen = game.unseen_enemies_at(self.next, side, to, piece.kind);
        if !game.is_real(&piece) && !unseen.is_empty() {
            // A dummy collects no information: it spreads among unseen enemies it does
            // not meet as onto empty ground (as its move and its put-down do).
            unseen = game.meets_there(&piece, to, unseen, self.next);
        }
        if !unseen.is_empty() {
            // Enemies the side did not know of hold the cell: the command stays as it was
            // and the two sides are in contact, as a move into them would be, which ends
            // its movement for the phase (as an arrow laid next to them does, below).
            let at = cells.first().copied().unwrap_or(to);
            if let Some(p) = self.next.pieces.get_mut(id.index()) {
                p.moved = true;
            }
            self.events
                .push(game.contact_event(self.next, id, at, unseen));
            return Ok(());
        }
        let mut spread = cells;
        spread.push(to);
        if let Some(p) = self.next.pieces.get_mut(id.index()) {
            p.place = Place::Spread(spread.clone());
        }
        if let Some(problem) = game.stacking_problem(self.next, to, id, side, true) {
            return Err(
                MoveBan::March(MarchBan::SpreadNoRoom { to, problem }).refuse((game, &piece))
            );
        }
        self.events.push(Event::Spread {
            piece: id,
            cells: spread,
        });
        // Points saved toward the cell were saved to enter it: the arrow spends them.
        if game.rules().spread.as_ref().is_some_and(|r| r.costs_step)
            && piece.saved_toward == Some(to)
        {
            self.spend_saved(id);
        }
        // An arrow laid next to an enemy the contact rule deploys against is contact, as a
        // move there would be: both deploy and the command's movement ends for the phase
        // (no more arrows, gathering or moving), so an arrow is never a free probe.
        let mut there = piece.clone();
        there.place = Place::Cell(to);
        let met: Vec<PieceId> = match game.sighting().and_then(|s| s.contact.as_ref()) {
            Some(rule) if rule.stops => self
                .next
                .pieces
                .iter()
                .filter(|q| game.in_contact(&there, q).is_some())
                .map(|q| q.id)
                .collect(),
            _ => Vec::new(),
        };
        if !met.is_empty() {
            if let Some(p) = self.next.pieces.get_mut(id.index()) {
                p.moved = true;
            }
            self.events.push(game.contact_event(self.next, id, to, met));
        }
        Ok(())
    }

    /// Gathers a spread command back into its main cell.
    pub(crate) fn do_gather(&mut self, side: SideId, id: PieceId) -> Result<(), Refusal> {
        let game = self.game;
        let piece = game.own_piece(self.next, side, id)?.clone();
        if let Some(why) = game
            .contact_ended(&piece)
            .or_else(|| game.stood_still_for_mode(&piece))
            .or_else(|| game.saved_not_spread(&piece))
        {
            return Err(MoveBan::Held(why).refuse((game, &piece)));
        }
        let Place::Spread(cells) = &piece.place else {
            return Err(MoveBan::March(MarchBan::NotSpread).refuse((game, &piece)));
        };
        let main = *(cells.first())
            .ok_or_else(|| MoveBan::March(MarchBan::HoldsNoCell).refuse((game, &piece)))?;
        if let Some(p) = self.next.pieces.get_mut(id.index()) {
            p.place = Place::Cell(main);
        }
        self.events.push(Event::Spread {
            piece: id,
            cells: vec![main],
        });
        Ok(())
    }

    /// Counts a piece of `side` crossing between `a` and `b` (when a capacity applies).
    pub(crate) fn count_crossing(&mut self, side: SideId, a: Cell, b: Cell) {
        let game = self.game;
        if game.crossing_room(self.next, side, a, b).is_none() {
            return;
        }
        let key = if (a.row, a.col) <= (b.row, b.col) {
            (side, a, b)
        } else {
            (side, b, a)
        };
        match self.next.crossed.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => self.next.crossed.push((key, 1)),
        }
    }
}
