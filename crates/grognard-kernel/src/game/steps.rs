//! What a step costs and why it is banned: the movement allowance, the data's price of a
//! step (terrain, features, grid), stacking, zones of control, the crowd of pieces a mover
//! meets, pinned pieces, and [`Game::reach`], which walks those same checks over the board.
//! A reader asking "why was this move refused" starts here; the move itself is in
//! `moves.rs`.
//!
//! The legal listing takes grid moves from [`Game::reach_in`], not from `moves.rs`'s
//! `check_move_start`, which `apply` runs; both ask `Game::pinned`, `Game::allowance` and
//! `moves.rs`'s `start_ban` (moved, held by a rider, spread), so a new rule on whether a
//! piece may start a move goes in `start_ban`, and one on the path's length in both
//! `check_move_start` and `turning::step_limit`. tests/legal.rs's soundness and
//! brute-force tests catch a miss.

use crate::action::{Ban, Refusal, RefusalKind};
use crate::cost::Cost;
use crate::geometry::{Cell, Facing, Grid};
use crate::hooks::{HookPoint, Hooks};
use crate::ids::{FeatureId, PieceId, SideId};
use crate::piece::{Piece, Place};
use crate::reach::{
    Crowd, Entry, Frame, PlainBoard, PlainSteps, ReachMap, StepBan, StepRules, StopWhy,
};
use crate::rules::{FeatureKind, StackMeasure};

use std::borrow::Cow;

use super::Game;
use super::bans::{HookBan, MoveBan, PieceBan, hook_failed};
use super::step_words::EnterBan;
use crate::state::{Reach, State, World};

/// What one reach query looks up once ([`Game::reach_query`]), and the refusal of a hook
/// that failed during it.
struct ReachQuery<'q> {
    /// At most this many steps (the piece type's limit in its mode, or a slowing rule's).
    max_steps: Option<u32>,
    /// Cells just off the board the piece may leave by, indexed after the board's own.
    exits: Vec<Cell>,
    /// Who stands where, for the mover.
    crowd: Crowd,
    /// The mover's lookups for plain steps, when it has them.
    fast: Option<PlainSteps<'q>>,
    /// A pure `move_cost` hook's answers by terrain (and terrain left) and kind of step.
    priced: Option<Vec<Option<Option<Cost>>>>,
    /// The `move_cost` hook reads the terrain left as well as the terrain entered.
    reads_from: bool,
    /// The board's cells and the exits.
    cells: usize,
    /// The first hook failure met.
    failure: Option<Refusal>,
}

impl Game {
    /// The movement points `piece` has in its mode, after the facing changes it made.
    pub(crate) fn allowance(&self, piece: &Piece) -> Result<Cost, Refusal> {
        let ty = (self.rules.piece_type(piece.kind))
            .ok_or_else(|| MoveBan::UnknownType.refuse((self, piece)))?;
        ty.allowance
            .get(piece.mode.index())
            .copied()
            .flatten()
            .map(|c| crate::turning::after_turns(&self.rules, piece, self.scaled(c)))
            .ok_or_else(|| MoveBan::NoAllowance.refuse((self, piece)))
    }

    /// A rule distance as measured on this table: open tables played at a reduced scale
    /// shrink every distance the rules give; grids are unchanged.
    #[must_use]
    pub fn scaled(&self, c: Cost) -> Cost {
        match self.rules.geometry {
            crate::rules::GeometryRules::Open { scale } if scale.den > 0 => {
                let v = i64::from(c.hundredths()) * i64::from(scale.num);
                let d = i64::from(scale.den);
                Cost::from_hundredths(
                    ((v + d / 2).div_euclid(d)).clamp(i64::from(i32::MIN), i64::from(i32::MAX))
                        as i32,
                )
            }
            _ => c,
        }
    }

    /// The data's cost for `piece` to step from `from` to `to` (grid step, terrain and
    /// boundary features), or why it cannot, kept as data: a reach query tries tens of
    /// thousands of steps and needs no words for the ones it cannot take, and a move, a
    /// save or a spread words the ban only when it refuses ([`Self::step_ban_text`]).
    /// `unlinked` says that no boundary feature touches either cell, so none is looked up.
    pub(super) fn data_step_price(
        &self,
        piece: &Piece,
        from: Cell,
        dir: Facing,
        to: Cell,
        unlinked: bool,
    ) -> Result<Cost, StepBan> {
        let rules = &*self.rules;
        let grid = self.board.grid().ok_or(StepBan::NoGrid)?;
        let ty = rules.piece_type(piece.kind).ok_or(StepBan::UnknownType)?;
        let mode = rules
            .modes
            .get(piece.mode.index())
            .ok_or(StepBan::UnknownMode)?;
        let kind = |f: FeatureId| rules.features.get(f.index()).map(|d| &d.kind);
        // Roads and crossings count only on the link itself; barriers also at corners.
        let direct = if unlinked {
            &[]
        } else {
            self.board.features_between(from, to)
        };
        let on_road = direct.iter().any(|f| kind(*f) == Some(&FeatureKind::Road));
        if mode.roads_only && !on_road {
            return Err(StepBan::RoadsOnly);
        }
        let mut cost = grid.step_cost(dir);
        let barriers = if unlinked {
            Vec::new()
        } else {
            self.board.barriers_crossed(from, dir, to, |f| {
                matches!(kind(f), Some(FeatureKind::Barrier { .. }))
            })
        };
        if !barriers.is_empty() {
            let crossing = direct.iter().find_map(|f| match kind(*f) {
                Some(FeatureKind::Crossing { cost }) => Some(*cost),
                _ => None,
            });
            match crossing {
                // A bridge or ford carries the step over every barrier on its boundary,
                // at its own cost, once.
                Some(c) => cost = cost.saturating_add(c),
                None => {
                    for f in &barriers {
                        let closed = rules
                            .features
                            .get(f.index())
                            .is_some_and(|d| d.closed_to.contains(&piece.mode));
                        match kind(*f) {
                            Some(FeatureKind::Barrier { cost: Some(c) }) if !closed => {
                                cost = cost.saturating_add(*c);
                            }
                            _ => return Err(StepBan::Barrier(*f)),
                        }
                    }
                }
            }
        }
        // A road spares a road column the terrain's cost, never the terrain's ban: a road
        // into a lake does not make the lake enterable.
        let terrain = self.board.terrain(to);
        let class = rules
            .move_classes
            .get(ty.move_class.index())
            .ok_or(StepBan::UnknownClass)?;
        match class.enter.get(terrain.index()).copied().flatten() {
            Some(extra) if !(on_road && mode.uses_roads) => cost = cost.saturating_add(extra),
            Some(_) => {}
            None => return Err(StepBan::Terrain(terrain)),
        }
        Ok(cost)
    }

    /// The words for a [`StepBan`].
    pub(super) fn step_ban_text(
        &self,
        piece: &Piece,
        from: Cell,
        to: Cell,
        ban: StepBan,
    ) -> String {
        let rules = &*self.rules;
        match ban {
            StepBan::NoGrid => super::bans::NO_GRID.to_owned(),
            StepBan::UnknownType => super::bans::UNKNOWN_TYPE.to_owned(),
            StepBan::UnknownMode => "unknown mode".to_owned(),
            StepBan::UnknownClass => "unknown movement class".to_owned(),
            StepBan::RoadsOnly => format!(
                "in {} mode {} must follow a road, and there is none from {from} to {to}",
                rules
                    .modes
                    .get(piece.mode.index())
                    .map_or("?", |m| m.name.as_str()),
                piece.name
            ),
            StepBan::Barrier(f) => {
                let name = rules
                    .features
                    .get(f.index())
                    .map_or("?", |d| d.name.as_str());
                format!("the {name} between {from} and {to} cannot be crossed here")
            }
            StepBan::Terrain(t) => {
                let name = rules
                    .terrain
                    .get(t.index())
                    .map_or("?", |t| t.name.as_str());
                let ty = rules
                    .piece_type(piece.kind)
                    .map_or("?", |t| t.name.as_str());
                format!("{ty} pieces may not enter {name} at {to}")
            }
        }
    }

    /// The first stacking limit that `mover` would break at `cell`, as a message.
    pub(crate) fn stacking_problem(
        &self,
        state: &State,
        cell: Cell,
        mover: PieceId,
        side: SideId,
        entering: bool,
    ) -> Option<String> {
        self.stacking_problem_among(state, cell, mover, side, entering, true)
    }

    /// [`Self::stacking_problem`]; with `anyone_there` false, the caller knows no other
    /// piece of the side is at `cell` and the piece list is not walked.
    pub(super) fn stacking_problem_among(
        &self,
        state: &State,
        cell: Cell,
        mover: PieceId,
        side: SideId,
        entering: bool,
        anyone_there: bool,
    ) -> Option<String> {
        let rules = &*self.rules;
        let me = state.pieces.get(mover.index())?;
        let listed: &[Piece] = if anyone_there { &state.pieces } else { &[] };
        let others = || {
            listed.iter().filter(move |p| {
                p.id != mover
                    && p.side == side
                    && p.place.covers(cell)
                    && p.attached_to != Some(mover)
                    && me.attached_to != Some(p.id)
            })
        };
        let no_room = |p: &Piece| rules.piece_type(p.kind).is_some_and(|t| t.takes_no_room);
        let my_mode_stacks = rules.modes.get(me.mode.index()).is_none_or(|m| m.stacks);
        // A piece that takes no room neither keeps a column out nor is kept out by one.
        if !no_room(me) && others().any(|p| !no_room(p)) {
            let blocker = others().find(|p| {
                !no_room(p) && rules.modes.get(p.mode.index()).is_some_and(|m| !m.stacks)
            });
            if !my_mode_stacks {
                return Some(format!(
                    "pieces in {} mode cannot share a place",
                    rules.mode_name(me.mode)
                ));
            }
            if let Some(b) = blocker {
                return Some(format!(
                    "{} is in {} mode and cannot share its place",
                    b.name,
                    rules.mode_name(b.mode)
                ));
            }
        }
        for (si, stack) in rules.stacking.iter().enumerate() {
            let measure = |p: &Piece| -> i64 {
                match stack.measure {
                    StackMeasure::Weight => rules
                        .piece_type(p.kind)
                        .and_then(|t| t.stack.get(si))
                        .map_or(0, |c| i64::from(c.hundredths())),
                    // A counter, times the type's weight (1 unless the ruleset says). A
                    // command spread over several cells divides the counter it spreads
                    // evenly: each cell holds its share (rounded up), not the whole.
                    StackMeasure::Counter(c) => {
                        let mut value = i64::from(p.counter(c));
                        if let Place::Spread(cells) = &p.place
                            && cells.len() > 1
                            && rules.spread.as_ref().is_some_and(|s| s.counter == Some(c))
                        {
                            value = (value + cells.len() as i64 - 1) / cells.len() as i64;
                        }
                        rules
                            .piece_type(p.kind)
                            .and_then(|t| t.stack.get(si))
                            .map_or(value, |w| value * i64::from(w.hundredths()) / 100)
                    }
                }
            };
            let mine = measure(me);
            if mine == 0 {
                continue;
            }
            let total: i64 = others().map(measure).sum::<i64>() + mine;
            if total > i64::from(stack.capacity) {
                // As a player counts: a piece riding a host there that counts too (a
                // battery's crew) is part of that host, not another unit. The limit is
                // judged on the full count; the count only words it, where it stays over.
                let riders: i64 = others()
                    .filter(|p| {
                        p.attached_to
                            .is_some_and(|h| others().any(|o| o.id == h && measure(o) > 0))
                    })
                    .map(measure)
                    .sum();
                let total = if total - riders > i64::from(stack.capacity) {
                    total - riders
                } else {
                    total
                };
                let shown = |v: i64| match stack.measure {
                    StackMeasure::Weight => Cost::from_hundredths(v as i32).to_string(),
                    StackMeasure::Counter(_) => v.to_string(),
                };
                let verb = if entering {
                    "moving in would make"
                } else {
                    "it makes"
                };
                return Some(format!(
                    "{verb} {} {} there, over the limit of {}",
                    shown(total),
                    stack.name,
                    shown(i64::from(stack.capacity))
                ));
            }
        }
        None
    }

    pub(super) fn zone_holder<'s>(
        &self,
        state: &'s State,
        cell: Cell,
        side: SideId,
    ) -> Option<&'s Piece> {
        state.pieces.iter().find(|p| {
            self.zone_cells(state, p, side)
                .is_some_and(|cells| cells.contains(&cell))
        })
    }

    /// The cells where `p` holds pieces of `side` in its zone of control, if it has one.
    ///
    /// Under sighting rules a concealed piece `side` has not identified (a hidden marker,
    /// real or a decoy) is judged only by what is on the table: no zone where `side` does
    /// not know its place, and where it does, the zone of a unit facing its way, whatever
    /// its type, hits or flags, so a zone tells nothing the marker does not.
    pub(super) fn zone_cells(&self, state: &State, p: &Piece, side: SideId) -> Option<[Cell; 3]> {
        let rules = &*self.rules;
        let grid = self.board.grid()?;
        if !rules.zoc.stops_movement || p.side == side || !p.on_board() {
            return None;
        }
        if rules.sighting.is_some()
            && (self.concealed(state, p) || self.behind_decoys(state, p))
            && let Some(k) = state.knowledge.get(side.index())
            && !k
                .get(p.id)
                .is_some_and(|k| k.now.has(crate::knowledge::Disclosure::IDENTITY))
        {
            return k
                .knows_position(p.id)
                .then(|| p.place.cell().map(|at| grid.front_cells(at, p.facing)))
                .flatten();
        }
        let ty = rules.piece_type(p.kind)?;
        if !ty.exerts_zoc
            || rules
                .zoc
                .lost_with_counters
                .iter()
                .any(|c| p.counter(*c) > 0)
            || rules.zoc.lost_with_flags.iter().any(|f| p.flag(*f))
        {
            return None;
        }
        let at = p.place.cell()?;
        Some(grid.front_cells(at, p.facing))
    }

    /// Who stands where in `state`, by cell, as `mover` sees it for a reach query.
    pub(super) fn crowd(&self, state: &State, mover: &Piece) -> Crowd {
        let board = &self.board;
        let mut crowd = Crowd::new(board.cell_count());
        for (a, b) in board.links.keys() {
            for i in [a, b].into_iter().filter_map(|c| board.index(*c)) {
                crowd.link(i);
            }
        }
        for p in &state.pieces {
            let covered: &[Cell] = match &p.place {
                Place::Cell(c) => std::slice::from_ref(c),
                Place::Spread(cells) => cells,
                Place::Point { .. } | Place::Off => &[],
            };
            // An enemy the mover may share a cell with is not in its way.
            let apart = p.side == mover.side
                || (self.rules.keeps_apart(mover.kind, p.kind)
                    && !self.gives_way(state, mover.side, p));
            if p.id != mover.id && apart {
                for i in covered.iter().filter_map(|c| board.index(*c)) {
                    crowd.occupy(i, p.side != mover.side);
                }
            }
            for i in self
                .zone_cells(state, p, mover.side)
                .into_iter()
                .flatten()
                .filter_map(|c| board.index(c))
            {
                crowd.zone(i, p.id);
            }
        }
        if let (true, Some((cols, rows))) = (board.has_half_hexes(), board.dimensions()) {
            let cells = (0..rows).flat_map(|row| (0..cols).map(move |col| Cell::new(col, row)));
            for c in cells.filter(|c| board.half_hex(*c).is_some()) {
                if let Some(i) = board.index(c) {
                    crowd.half_hex(i);
                }
            }
        }
        // With no one else there, the cell does not matter.
        let alone = mover
            .place
            .cell()
            .and_then(|c| self.stacking_problem_among(state, c, mover.id, mover.side, true, false));
        crowd.set_alone(alone);
        crowd
    }

    /// Whether the ruleset's `may_move` is asked of `piece` on a grid: always, unless the
    /// ruleset names `may_move_flags` and the piece carries none of them and no optional
    /// rule the ruleset names in `may_move_options` is in force.
    pub(crate) fn may_move_asked_of(&self, piece: &Piece) -> bool {
        let gate = &self.rules.may_move_flags;
        gate.is_empty()
            || gate.iter().any(|f| piece.flag(*f))
            || (self.rules.may_move_options.iter())
                .any(|&o| self.state.options.get(o) == Some(&true))
    }

    /// A refusal when a flag keeps `piece` from moving.
    pub(crate) fn pinned(&self, piece: &Piece) -> Result<(), Refusal> {
        match self.rules.pinned_by.iter().find(|f| piece.flag(**f)) {
            Some(f) => Err(MoveBan::Pinned(*f).refuse((self, piece))),
            None => Ok(()),
        }
    }

    /// What entering `to` means for `piece`, and why the move ends there if it does; or why
    /// it cannot, kept as data ([`EnterBan`], [`StopWhy`]) as a step's [`StepBan`] is: a
    /// reach query tries tens of thousands of steps and needs neither, and a move words
    /// both ([`Self::enter_worded`]).
    ///
    /// A move passes no `crowd`, and the ruleset's hooks are asked for their own words
    /// (`move_ban_reason`, `stop_reason`). A reach query passes its index of who stands
    /// where (so no step walks the piece list) and keeps only the entries and a failing
    /// hook's refusal, which the query reports.
    pub(super) fn enter<'c>(
        &self,
        state: &State,
        piece: &Piece,
        (from, dir, to): (Cell, Facing, Cell),
        hooks: &mut dyn Hooks,
        crowd: Option<&'c Crowd>,
    ) -> Result<(Entry, Option<StopWhy>), EnterBan<'c>> {
        let world = World {
            rules: &self.rules,
            board: &self.board,
            sides: &self.sides,
            state,
        };
        if !self.board.contains(to) {
            return crate::company::exit_entry(&world, piece, (from, dir, to))
                .map_err(EnterBan::Refused);
        }
        // On the board (checked above), so the index exists.
        let at = self.board.index(to).unwrap_or(usize::MAX);
        let cost = self.step_price(state, piece, (from, dir, to), (at, crowd), hooks)?;
        let (can_stop, mut can_continue, mut stop_reason) =
            self.step_room(state, piece, (from, to), (at, crowd))?;
        if let Some(holder) = self.zone_stop(state, piece, to, (at, crowd)) {
            can_continue = false;
            stop_reason = Some(StopWhy::Zone(holder));
        }
        if hooks
            .stops(&world, piece.id, from, to)
            .map_err(|e| EnterBan::Refused(hook_failed(e)))?
        {
            can_continue = false;
            if stop_reason.is_none() {
                let why = if crowd.is_none() {
                    hooks.stop_reason(&world, piece.id, from, to)
                } else {
                    None
                };
                stop_reason = Some(StopWhy::Hook(why));
            }
        }
        if self.stops_on_costly(piece, dir, cost) {
            can_continue = false;
            stop_reason.get_or_insert(StopWhy::Costly);
        }
        Ok((
            Entry {
                cost,
                can_stop,
                can_continue,
            },
            stop_reason,
        ))
    }

    /// [`Self::enter`] for a move: its refusal and its stop reason in words, on the state
    /// it was asked on.
    pub(super) fn enter_worded(
        &self,
        state: &State,
        piece: &Piece,
        (from, dir, to): (Cell, Facing, Cell),
        hooks: &mut dyn Hooks,
    ) -> Result<(Entry, Option<String>), Refusal> {
        match self.enter(state, piece, (from, dir, to), hooks, None) {
            Ok((entry, why)) => Ok((entry, why.map(|w| self.why_move_ends(state, piece, to, w)))),
            Err(ban) => Err(ban.refuse((self, piece, (from, to)))),
        }
    }

    /// What a step costs (the crossing has room left, then the `move_cost` hook, told the
    /// data's price) or why it is forbidden; the hook's own words only for a move (`crowd`
    /// is `None`).
    fn step_price<'c>(
        &self,
        state: &State,
        piece: &Piece,
        (from, dir, to): (Cell, Facing, Cell),
        (at, crowd): (usize, Option<&Crowd>),
        hooks: &mut dyn Hooks,
    ) -> Result<Cost, EnterBan<'c>> {
        let world = World {
            rules: &self.rules,
            board: &self.board,
            sides: &self.sides,
            state,
        };
        let unlinked = crowd.is_some_and(|c| {
            self.board
                .index(from)
                .is_some_and(|here| c.unlinked(here, at))
        });
        let no_room = self
            .rules
            .piece_type(piece.kind)
            .is_some_and(|t| t.takes_no_room);
        if !unlinked && !no_room && self.crossing_room(state, piece.side, from, to) == Some(0) {
            return Err(EnterBan::CrossingFull);
        }
        let data = self.data_step_price(piece, from, dir, to, unlinked);
        let cost = hooks
            .move_cost(&world, piece.id, from, to, data.ok())
            .map_err(|e| EnterBan::Refused(hook_failed(e)))?;
        let Some(cost) = cost else {
            // The hook's own words, if it gave them (a move only: reach needs none).
            let said = if crowd.is_none() {
                hooks.move_ban_reason(&world, piece.id, from, to, data.ok())
            } else {
                None
            };
            return Err(EnterBan::Forbidden {
                data: data.err(),
                said,
            });
        };
        if cost.is_negative() {
            return Err(EnterBan::Refused(negative_cost(piece, cost, to)));
        }
        Ok(cost)
    }

    /// Whether there is room for the piece in `to`: no enemy it keeps apart from, a half
    /// hex it may enter, sharing and stacking with its own side. Whether it may stop
    /// there and go on, and why it must stop when sharing says so.
    fn step_room<'c>(
        &self,
        state: &State,
        piece: &Piece,
        (from, to): (Cell, Cell),
        (at, crowd): (usize, Option<&'c Crowd>),
    ) -> Result<(bool, bool, Option<StopWhy>), EnterBan<'c>> {
        let enemy_there = match crowd {
            Some(c) => c.enemy_at(at),
            None => state.pieces.iter().any(|p| {
                p.side != piece.side
                    && p.on_board()
                    && p.place.covers(to)
                    && self.rules.keeps_apart(piece.kind, p.kind)
                    && !self.gives_way(state, piece.side, p)
            }),
        };
        if enemy_there {
            return Err(EnterBan::EnemyHolds);
        }
        let ty = self.rules.piece_type(piece.kind);
        let mut can_stop = crate::company::half_hex_entry(
            &self.rules,
            &self.board,
            &self.sides,
            state,
            piece,
            from,
            to,
        )
        .map_err(|ban| EnterBan::Refused(ban.refuse((&self.rules, piece, to))))?;
        // With no other own piece there, sharing is free and only the mover counts for
        // stacking: the walks over the piece list are skipped.
        let friends_there = crowd.is_none_or(|c| c.friend_at(at));
        let sharing = if friends_there {
            crate::company::sharing(&self.rules, state, piece, to)
        } else {
            crate::company::Sharing::Free
        };
        let (share_stop, share_go, stop_reason) =
            crate::company::sharing_entry(&self.rules, piece, to, &sharing)
                .map_err(EnterBan::Refused)?;
        can_stop &= share_stop;
        let problem = match crowd {
            Some(c) if !friends_there => c.alone().map(Cow::Borrowed),
            _ => self
                .stacking_problem(state, to, piece.id, piece.side, true)
                .map(Cow::Owned),
        };
        if let Some(problem) = problem {
            if ty.is_some_and(|t| t.passes_friends) || sharing.passes() {
                can_stop = false;
            } else {
                return Err(EnterBan::NoRoom(problem));
            }
        }
        Ok((can_stop, share_go, stop_reason))
    }

    /// The holder of an enemy zone of control that covers `to`, which stops `piece` there.
    fn zone_stop(
        &self,
        state: &State,
        piece: &Piece,
        to: Cell,
        (at, crowd): (usize, Option<&Crowd>),
    ) -> Option<PieceId> {
        match crowd {
            Some(c) => c
                .zone_at(at)
                .filter(|id| state.pieces.get(id.index()).is_some()),
            None => self.zone_holder(state, to, piece.side).map(|p| p.id),
        }
    }

    /// Whether a step that cost `cost` ends the move: its movement class stops on steps
    /// that cost more than the grid's own price.
    fn stops_on_costly(&self, piece: &Piece, dir: Facing, cost: Cost) -> bool {
        let ty = self.rules.piece_type(piece.kind);
        let class = ty.and_then(|t| self.rules.move_classes.get(t.move_class.index()));
        class.is_some_and(|c| c.stops_on_costly)
            && cost > self.board.grid().map_or(Cost::ZERO, |g| g.step_cost(dir))
    }

    /// [`Self::enter`] for a step a reach query has found plain ([`PlainSteps::plain`]): no
    /// boundary feature at either cell, nobody on the cell entered, no half-hex, and the
    /// mover breaks no stacking limit alone. What is left of the rules — the terrain's price,
    /// the hooks, a zone of control, a costly step that ends the move — is asked in the same
    /// order as `enter` asks it, with the per-query lookups made once. `None`: the step is
    /// not allowed; a failing hook also leaves its refusal in `failure`. (The entry comes
    /// back in a register: a reach query takes tens of thousands of steps.) With `priced`
    /// (the hook is pure), the hook's answers are kept by terrain and kind of step. `at`:
    /// the entered cell's index in the query's table.
    #[inline]
    pub(super) fn plain_entry(
        &self,
        ask: PlainAsk<'_>,
        (from, dir, to): (Cell, Facing, Cell),
        at: usize,
    ) -> Option<Entry> {
        let PlainAsk {
            state,
            piece,
            plain,
            crowd,
            priced,
            hooks,
            failure,
        } = ask;
        let world = World {
            rules: &self.rules,
            board: &self.board,
            sides: &self.sides,
            state,
        };
        let mut fail = |refusal: Refusal| {
            failure.get_or_insert(refusal);
            None
        };
        let (step, terrain, data) = plain.data_price(&self.board, dir, at);
        let diagonal =
            matches!(plain.grid, Grid::Square(_)) && crate::geometry::square::is_diagonal(dir);
        // A hook that reads the terrain left is kept per (terrain left, terrain entered):
        // its table is wider than one slot pair per terrain.
        let slot = priced.and_then(|p| {
            let terrains = self.rules.terrain.len();
            let pair = if p.len() > terrains * 2 {
                self.board.terrain(from).index() * terrains + terrain
            } else {
                terrain
            };
            p.get_mut(pair * 2 + usize::from(diagonal))
        });
        let asked = match slot {
            Some(Some(known)) => Ok(*known),
            Some(slot) => {
                let answer = hooks.move_cost(&world, piece.id, from, to, data);
                if let Ok(a) = &answer {
                    *slot = Some(*a);
                }
                answer
            }
            None => hooks.move_cost(&world, piece.id, from, to, data),
        };
        let cost = match asked {
            Ok(Some(c)) if c.is_negative() => return fail(negative_cost(piece, c, to)),
            Ok(Some(c)) => c,
            Ok(None) => return None,
            Err(e) => return fail(hook_failed(e)),
        };
        let mut can_continue = crowd.zone_at(at).is_none();
        if plain.ask_stops {
            match hooks.stops(&world, piece.id, from, to) {
                Ok(true) => can_continue = false,
                Ok(false) => {}
                Err(e) => return fail(hook_failed(e)),
            }
        }
        if plain.stops_on_costly && cost > step {
            can_continue = false;
        }
        Some(Entry {
            cost,
            can_stop: true,
            can_continue,
        })
    }

    /// Every place `piece` can reach with a move now.
    ///
    /// # Errors
    /// A refusal when the piece cannot move at all, or a hook fails.
    pub fn reach(&self, id: PieceId, hooks: &mut dyn Hooks) -> Result<Reach, Refusal> {
        self.reach_in(&self.state, id, hooks)
    }

    /// [`Self::reach`] over `state` (a side's perceived state).
    pub(crate) fn reach_in(
        &self,
        state: &State,
        id: PieceId,
        hooks: &mut dyn Hooks,
    ) -> Result<Reach, Refusal> {
        let piece = state
            .pieces
            .get(id.index())
            .ok_or_else(|| PieceBan::NoSuchPiece(id).refuse(self))?;
        if !piece.on_board() {
            return Err(PieceBan::OffBoard(piece).refuse(self));
        }
        self.pinned(piece)?;
        // Points saved toward a cell pay only for the one step into it (added below).
        let allowance = self
            .allowance(piece)?
            .saturating_add(self.saved_points_for(piece, &[]));
        let Some(grid) = self.board.grid() else {
            return Ok(Reach::Radius(if piece.moved {
                Cost::ZERO
            } else {
                allowance
            }));
        };
        // What `apply` refuses at the start (`start_ban`: moved, held, a spread command,
        // which gathers before it moves, as `do_move` says) reaches nothing.
        if self.start_ban(&self.state, piece).is_some() {
            return Ok(Reach::Cells(ReachMap::default()));
        }
        let start = piece
            .place
            .cell()
            .ok_or_else(|| MoveBan::NotOnCell.refuse((self, piece)))?;
        let mut q = self.reach_query(state, piece, hooks);
        let mut cells =
            match self.reach_by_plain(state, piece, grid, (start, allowance), &mut q, hooks) {
                Some(cells) => cells,
                None => self.reach_by_steps(state, piece, grid, (start, allowance), &mut q, hooks),
            };
        self.reach_saved_toward(state, piece, start, &mut cells, hooks);
        match q.failure {
            Some(r) => Err(r),
            None => Ok(Reach::Cells(cells)),
        }
    }

    /// What one reach query of `piece` looks up once: its step limit, the cells off the
    /// board it may leave by, who stands where, its plain-step lookups, and the memo of a
    /// pure `move_cost` hook's prices.
    fn reach_query<'q>(
        &'q self,
        state: &State,
        piece: &Piece,
        hooks: &mut dyn Hooks,
    ) -> ReachQuery<'q> {
        let board = &self.board;
        let max_steps = self
            .rules
            .piece_type(piece.kind)
            .and_then(|t| t.max_steps.get(piece.mode.index()).copied().flatten());
        let max_steps = crate::turning::step_limit(&self.rules, &state.options, piece, max_steps);
        // Cells just off the board across a baseline the piece may leave by get indices
        // after the board's own, so leaving the board is one more place to end a move.
        let exits = crate::company::exit_cells(
            board,
            &crate::company::exit_edges(&self.rules, &self.sides, &self.state, piece),
        );
        let crowd = self.crowd(state, piece);
        let fast = PlainSteps::of(&self.rules, board, piece).map(|mut f| {
            f.ask_stops = hooks.is_bound(HookPoint::Stops);
            f
        });
        // A pure move_cost hook answers a plain step by its terrain and kind of step alone
        // (the mover, options and settings being fixed for the query): asked once each.
        // One that also reads the terrain left is asked once per pair of terrains.
        let reads_from = hooks.move_cost_reads_from();
        let terrains = self.rules.terrain.len();
        let priced: Option<Vec<Option<Option<Cost>>>> = hooks.move_cost_is_pure().then(|| {
            vec![
                None;
                if reads_from {
                    terrains * terrains
                } else {
                    terrains
                } * 2
            ]
        });
        let cells = board.cell_count() + exits.len();
        ReachQuery {
            max_steps,
            exits,
            crowd,
            fast,
            priced,
            reads_from,
            cells,
            failure: None,
        }
    }

    /// The reach by the search specialised for data-only steps ([`crate::reach::reach_plain`]),
    /// when the query allows it: every step's price a pure hook's by terrain alone, no stop
    /// hook, no stacking limit on the mover alone, no forward-only turning, no step limit
    /// shorter than the board. `None` when it does not; the general search then runs.
    fn reach_by_plain(
        &self,
        state: &State,
        piece: &Piece,
        grid: &Grid,
        (start, allowance): (Cell, Cost),
        q: &mut ReachQuery<'_>,
        hooks: &mut dyn Hooks,
    ) -> Option<ReachMap> {
        let board = &self.board;
        let forward_only =
            crate::turning::turning(&self.rules, piece).is_some_and(|t| t.forward_only);
        let cells = q.cells;
        let (Some(f), Some((cols, rows)), Some(terrain)) =
            (&q.fast, board.dimensions(), board.terrain_cells())
        else {
            return None;
        };
        let plain = q.priced.is_some()
            && !q.reads_from
            && !f.ask_stops
            && q.crowd.alone().is_none()
            && !forward_only
            && q.max_steps.is_none_or(|m| m as usize >= cells)
            && crate::reach::fits(cells);
        if !plain {
            return None;
        }
        let on = PlainBoard {
            grid: *grid,
            cols,
            rows,
            terrain,
            terrains: self.rules.terrain.len(),
            stops_on_costly: f.stops_on_costly,
            exits: &q.exits,
        };
        let mut rules = QueryRules {
            game: self,
            state,
            piece,
            plain: f,
            crowd: &q.crowd,
            hooks: &mut *hooks,
            failure: None,
        };
        let map = (on.cells() == cells)
            .then(|| crate::reach::reach_plain(&on, &q.crowd, start, allowance, &mut rules));
        let failure = rules.failure;
        q.failure = failure;
        map
    }

    /// The reach by the general search over every rule of a step: plain steps priced by
    /// [`Self::plain_entry`], the others by [`Self::enter`], under the turning rules.
    fn reach_by_steps(
        &self,
        state: &State,
        piece: &Piece,
        grid: &Grid,
        (start, allowance): (Cell, Cost),
        q: &mut ReachQuery<'_>,
        hooks: &mut dyn Hooks,
    ) -> ReachMap {
        let board = &self.board;
        let ReachQuery {
            max_steps,
            exits,
            crowd,
            fast,
            priced,
            cells,
            failure,
            ..
        } = q;
        let frame = Frame {
            grid,
            start,
            budget: allowance,
            max_steps: *max_steps,
            cells: *cells,
        };
        crate::turning::reach(
            &self.rules,
            &state.options,
            piece,
            frame,
            |c| {
                board.index(c).or_else(|| {
                    exits
                        .iter()
                        .position(|e| *e == c)
                        .map(|i| board.cell_count() + i)
                })
            },
            |from, dir, to, _spent| {
                let plain = fast
                    .as_ref()
                    .and_then(|f| f.plain(board, crowd, from, to).map(|at| (f, at)));
                if let Some((f, at)) = plain {
                    let ask = PlainAsk {
                        state,
                        piece,
                        plain: f,
                        crowd: &*crowd,
                        priced: priced.as_deref_mut(),
                        hooks: &mut *hooks,
                        failure: &mut *failure,
                    };
                    return self.plain_entry(ask, (from, dir, to), at);
                }
                let entered = self.enter(state, piece, (from, dir, to), hooks, Some(crowd));
                entry_or_failure(entered, failure)
            },
        )
    }

    /// Adds to a reach the cell `piece`'s points were saved toward, when its allowance and
    /// those points pay the one step into it (see [`Game::saved_points_for`]).
    fn reach_saved_toward(
        &self,
        state: &State,
        piece: &Piece,
        start: Cell,
        cells: &mut ReachMap,
        hooks: &mut dyn Hooks,
    ) {
        let Some(toward) = piece.saved_toward else {
            return;
        };
        let Some(dir) = self
            .board
            .grid()
            .and_then(|g| g.direction_to(start, toward))
        else {
            return;
        };
        let Ok(allowance) = self.allowance(piece) else {
            return;
        };
        let have = allowance.saturating_add(self.saved_points_for(piece, &[toward]));
        if let Ok((entry, _)) = self.enter(state, piece, (start, dir, toward), hooks, None)
            && entry.can_stop
            && entry.cost <= have
        {
            cells.add_first_step(toward, entry.cost);
        }
    }
}

/// What [`Game::plain_entry`] prices a plain step with, for one reach query: the state and
/// the mover, the query's plain-step table and crowd, the hook's answers kept by terrain
/// (`None`: the hook is not pure), the hooks, and where a failing hook leaves its refusal.
pub(super) struct PlainAsk<'q> {
    state: &'q State,
    piece: &'q Piece,
    plain: &'q PlainSteps<'q>,
    crowd: &'q Crowd,
    priced: Option<&'q mut [Option<Option<Cost>>]>,
    hooks: &'q mut dyn Hooks,
    failure: &'q mut Option<Refusal>,
}

/// The step rules of one reach query as [`crate::reach::reach_plain`] asks them: plain steps
/// priced by the hook as [`Game::plain_entry`] prices them, every other step by
/// [`Game::enter`]. A failing hook's refusal is kept (the first one) in `failure`.
struct QueryRules<'q> {
    game: &'q Game,
    state: &'q State,
    piece: &'q Piece,
    plain: &'q PlainSteps<'q>,
    crowd: &'q Crowd,
    hooks: &'q mut dyn Hooks,
    failure: Option<Refusal>,
}

impl StepRules for QueryRules<'_> {
    fn plain_price(
        &mut self,
        from: Cell,
        dir: Facing,
        to: Cell,
        at: usize,
    ) -> Option<Option<Cost>> {
        let game = self.game;
        let world = World {
            rules: &game.rules,
            board: &game.board,
            sides: &game.sides,
            state: self.state,
        };
        let (_, _, data) = self.plain.data_price(&game.board, dir, at);
        match self.hooks.move_cost(&world, self.piece.id, from, to, data) {
            Ok(Some(c)) if c.is_negative() => {
                self.failure.get_or_insert(negative_cost(self.piece, c, to));
                Some(None)
            }
            Ok(answer) => Some(answer),
            Err(e) => {
                self.failure.get_or_insert(hook_failed(e));
                None
            }
        }
    }

    fn enter(&mut self, from: Cell, dir: Facing, to: Cell, _spent: Cost) -> Option<Entry> {
        let entered = (self.game).enter(
            self.state,
            self.piece,
            (from, dir, to),
            &mut *self.hooks,
            Some(self.crowd),
        );
        entry_or_failure(entered, &mut self.failure)
    }
}

/// The refusal for a `move_cost` hook that priced `piece`'s step into `to` below nothing.
fn negative_cost(piece: &Piece, c: Cost, to: Cell) -> Refusal {
    HookBan::NegativeCost(&piece.name, c, to).refuse(())
}

/// What a reach query makes of the general step check: the entry, or no step, keeping the
/// first failing hook's refusal in `failure` (the rules' own bans need no words there).
fn entry_or_failure(
    entered: Result<(Entry, Option<StopWhy>), EnterBan<'_>>,
    failure: &mut Option<Refusal>,
) -> Option<Entry> {
    match entered {
        Ok((entry, _)) => Some(entry),
        Err(EnterBan::Refused(r)) if r.kind == RefusalKind::HookFailed => {
            failure.get_or_insert(r);
            None
        }
        Err(_) => None,
    }
}
