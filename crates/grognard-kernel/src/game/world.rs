//! Worlds a side cannot tell from the real game: [`Game::sample_world`] builds a copy of the
//! game in which everything `side` does not know has been drawn afresh, for a player that
//! searches by imagining how the game may go on (information-set search).
//!
//! What the side knows stays as it is: its own pieces, the board, the rules, the turn and
//! phase, and every fact its knowledge table holds of an enemy piece. What it does not know
//! is redrawn from the caller's random draws, never read from the real game:
//!
//! - the dice: every stream is reseeded, so no imagined game foresees the real rolls;
//! - the identities of enemy markers it has not identified: the identities of all such
//!   markers on the table (type, mode, counters, flags, attributes — the enemy's order of
//!   battle, which the side is taken to know as a whole) are dealt out again among them, each
//!   to a marker whose disclosed facts (real or dummy, type) it fits; a strength the side has
//!   learnt is kept;
//! - the places of enemy pieces it does not see now: where it last saw them, or, never seen,
//!   a cell drawn among the free cells of their side's deployment area (the half of the
//!   board on their baseline when the scenario has no set-up, the whole board without a
//!   baseline), facing away from their baseline; on an open table a piece never seen is left
//!   off the table, as the legal-order listing does;
//! - what the enemy knows of the side's pieces: recomputed from the imagined places alone;
//! - the enemy's bookkeeping the side cannot see: an unseen piece has not moved or acted
//!   this phase and started it where it is imagined; only the side's own crossings and
//!   redeployments are kept.
//!
//! So two games that differ only in what `side` has not sighted give, for the same draws,
//! the same world. Two things stay as the real game has them, and the docs say so: which
//! enemy pieces are still in play (off the table or not), and which pieces are attached to
//! which (an attached marker keeps its own identity).

use super::{Game, Resolution};
use crate::board::Edge;
use crate::dice::GameRng;
use crate::geometry::{Cell, Facing};
use crate::hooks::NoHooks;
use crate::ids::{PieceId, PieceTypeId, SideId};
use crate::knowledge::{Disclosure, Knowledge, Known};
use crate::piece::Place;

/// The part of a piece that is dealt out again among a side's unidentified markers.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Identity {
    kind: PieceTypeId,
    mode: u16,
    counters: Vec<i32>,
    flags: u64,
    attributes: Vec<i32>,
}

impl Game {
    /// A copy of this game as it may be for all `side` knows (see the module doc). `draw(n)`
    /// must give a whole number in `0..n` (`n` ≥ 1); every choice comes from it, so a
    /// player's own random stream makes the world reproducible. The copy keeps no log.
    #[must_use]
    pub fn sample_world(&self, side: SideId, draw: &mut dyn FnMut(usize) -> usize) -> Game {
        let mut world = Game {
            rules: self.rules.clone(),
            victory: self.victory.clone(),
            board: self.board.clone(),
            sides: self.sides.clone(),
            turns: self.turns,
            state: self.state.clone(),
            log: Vec::new(),
            side_logs: Vec::new(),
            handle_key: self.handle_key,
            deployment: self.deployment.clone(),
        };
        // Fresh dice: two draws of 32 bits make the seed.
        let seed = ((draw(1 << 31) as u64) << 32) | draw(1 << 31) as u64;
        world.state.rng = GameRng::new(seed);
        for (i, r) in world.state.side_rngs.iter_mut().enumerate() {
            *r = GameRng::stream(seed, i as u64 + 1);
        }
        if self.sighting().is_none() {
            return world;
        }
        let Some(knowledge) = self.state.knowledge.get(side.index()) else {
            return world;
        };
        self.deal_identities(&mut world, side, knowledge, draw);
        self.place_unseen(&mut world, side, knowledge, draw);
        let mine = |id: PieceId| {
            self.state
                .pieces
                .get(id.index())
                .is_some_and(|p| p.side == side)
        };
        world.state.crossed.retain(|((s, _, _), _)| *s == side);
        world.state.redeployed.retain(|id| mine(*id));
        // What the enemy knows of the side's pieces comes from the imagined places only.
        let mut state = world.state.clone();
        for (i, k) in state.knowledge.iter_mut().enumerate() {
            if i != side.index() {
                *k = Knowledge::default();
            }
        }
        let mut events = Vec::new();
        Resolution::new(&world, &mut state, &mut events, &mut NoHooks).update_knowledge();
        world.state = state;
        world
    }

    /// Deals the identities of `side`'s unidentified enemy markers out again among them.
    fn deal_identities(
        &self,
        world: &mut Game,
        side: SideId,
        knowledge: &Knowledge,
        draw: &mut dyn FnMut(usize) -> usize,
    ) {
        let pieces = &self.state.pieces;
        let attached: Vec<PieceId> = pieces.iter().filter_map(|p| p.attached_to).collect();
        let known = |id: PieceId| knowledge.get(id);
        let dealt: Vec<PieceId> = pieces
            .iter()
            .filter(|p| {
                p.side != side
                    && p.on_board()
                    && p.attached_to.is_none()
                    && !attached.contains(&p.id)
                    && !known(p.id)
                        .is_some_and(|k| k.now.has(Disclosure::IDENTITY) || k.identity.is_some())
            })
            .map(|p| p.id)
            .collect();
        // The pool in a canonical order, so that which marker holds which identity in the
        // real game makes no difference.
        let mut pool: Vec<Identity> = dealt
            .iter()
            .filter_map(|id| pieces.get(id.index()))
            .map(|p| Identity {
                kind: p.kind,
                mode: p.mode.0,
                counters: p.counters.clone(),
                flags: p.flags,
                attributes: p.attributes.clone(),
            })
            .collect();
        pool.sort();
        // The most constrained markers first (type known, then real or dummy known): the
        // facts nest, so dealing in that order never leaves a marker nothing it fits.
        let rank = |id: &PieceId| match known(*id) {
            Some(k) if k.kind.is_some() => 0,
            Some(k) if k.real.is_some() => 1,
            _ => 2,
        };
        let mut order = dealt.clone();
        order.sort_by_key(|id| (rank(id), *id));
        let strength = self.sighting().and_then(|s| s.strength);
        for id in order {
            let k = known(id);
            let fits = |x: &Identity| {
                k.is_none_or(|k| {
                    k.kind.is_none_or(|t| t == x.kind)
                        && k.real.is_none_or(|r| r == self.type_is_real(x.kind))
                })
            };
            let fitting: Vec<usize> = (0..pool.len()).filter(|i| fits(&pool[*i])).collect();
            if pool.is_empty() {
                break;
            }
            let at = if fitting.is_empty() {
                draw(pool.len())
            } else {
                fitting[draw(fitting.len())]
            };
            let x = pool.remove(at);
            let Some(p) = world.state.pieces.get_mut(id.index()) else {
                continue;
            };
            p.kind = k.and_then(|k| k.kind).unwrap_or(x.kind);
            p.mode = crate::ids::ModeId(x.mode);
            p.counters = x.counters;
            p.flags = x.flags;
            p.attributes = x.attributes;
            if let (Some(c), Some(s)) = (strength, k.and_then(|k| k.strength))
                && let Some(v) = p.counters.get_mut(c.index())
            {
                *v = s;
            }
        }
        // A marker identified once but not seen now is what the side saw of it then.
        for p in &mut world.state.pieces {
            if let Some(k) = known(p.id)
                && p.side != side
                && !k.now.has(Disclosure::IDENTITY)
                && let Some(seen) = &k.identity
            {
                let place = p.place.clone();
                let facing = p.facing;
                p.clone_from(seen);
                p.place = place;
                p.facing = facing;
            }
        }
    }

    /// Puts the enemy pieces `side` does not see now where its knowledge allows.
    fn place_unseen(
        &self,
        world: &mut Game,
        side: SideId,
        knowledge: &Knowledge,
        draw: &mut dyn FnMut(usize) -> usize,
    ) {
        let unseen: Vec<PieceId> = self
            .state
            .pieces
            .iter()
            .filter(|p| p.side != side && p.on_board() && !knowledge.knows_position(p.id))
            .map(|p| p.id)
            .collect();
        // Cells the side knows to be taken: its own pieces' and the enemies' it sees.
        let mut taken: Vec<Cell> = self
            .state
            .pieces
            .iter()
            .filter(|p| !unseen.contains(&p.id))
            .filter_map(|p| p.place.cell())
            .collect();
        let mut fresh = Vec::new();
        for id in &unseen {
            // Seen leaving the table and back on it unseen: as if never seen.
            let seen = knowledge
                .get(*id)
                .and_then(|k: &Known| k.seen.as_ref())
                .filter(|s| !matches!(s.place, Place::Off));
            let Some(p) = world.state.pieces.get_mut(id.index()) else {
                continue;
            };
            p.moved = false;
            p.acted = 0;
            p.saved_toward = None;
            match seen {
                Some(s) => {
                    p.place = s.place.clone();
                    p.facing = s.facing;
                    if let Some(c) = s.place.cell() {
                        taken.push(c);
                    }
                }
                None => {
                    p.place = Place::Off;
                    fresh.push((*id, p.side));
                }
            }
        }
        // Never seen: drawn among the free cells of the area it may stand in (on an open
        // table it stays off).
        if let Some(grid) = self.board().grid() {
            for (id, owner) in fresh {
                let cells: Vec<Cell> = self
                    .home_cells(owner)
                    .into_iter()
                    .filter(|c| !taken.contains(c))
                    .collect();
                if cells.is_empty() {
                    continue;
                }
                let cell = cells[draw(cells.len())];
                taken.push(cell);
                let away = self.sides().get(owner.index()).and_then(|s| s.baseline);
                let facing = grid
                    .neighbours(cell)
                    .filter(|(_, n)| self.board().contains(*n))
                    .max_by_key(|(f, n)| {
                        (
                            away.map_or(0, |e| self.rows_from_edge(*n, e)),
                            -i32::from(f.0),
                        )
                    })
                    .map_or(Facing(0), |(f, _)| f);
                if let Some(p) = world.state.pieces.get_mut(id.index()) {
                    p.place = Place::Cell(cell);
                    p.facing = facing;
                }
            }
        }
        for id in unseen {
            let place = world.state.pieces.get(id.index()).map(|p| p.place.clone());
            if let (Some(slot), Some(place)) = (world.state.phase_start.get_mut(id.index()), place)
            {
                *slot = place;
            }
        }
    }

    /// The cells a piece of `owner` never seen may stand in (see the module doc).
    fn home_cells(&self, owner: SideId) -> Vec<Cell> {
        let deploy = self.deployment_cells(owner);
        if !deploy.is_empty() {
            return deploy.to_vec();
        }
        let Some((cols, rows)) = self.board().dimensions() else {
            return Vec::new();
        };
        let baseline = self.sides().get(owner.index()).and_then(|s| s.baseline);
        let mut out = Vec::new();
        for row in 0..rows {
            for col in 0..cols {
                let c = Cell::new(col, row);
                let home = match baseline {
                    Some(e @ (Edge::North | Edge::South)) => {
                        self.rows_from_edge(c, e) < (rows + 1) / 2
                    }
                    Some(e) => self.rows_from_edge(c, e) < (cols + 1) / 2,
                    None => true,
                };
                if home {
                    out.push(c);
                }
            }
        }
        out
    }

    /// How many rows or columns lie between `c` and the board's `edge`.
    fn rows_from_edge(&self, c: Cell, edge: Edge) -> i32 {
        let (cols, rows) = self.board().dimensions().unwrap_or((0, 0));
        match edge {
            Edge::North => c.row,
            Edge::South => rows - 1 - c.row,
            Edge::West => c.col,
            Edge::East => cols - 1 - c.col,
        }
    }

    /// True when pieces of type `kind` are real (not dummies).
    fn type_is_real(&self, kind: PieceTypeId) -> bool {
        self.rules().piece_type(kind).is_some_and(|t| !t.dummy)
    }
}

impl Game {
    /// The points the game's victory conditions give each side as it stands now (by side
    /// index; zeros without victory conditions): how a searching player scores a game
    /// that has not ended yet.
    #[must_use]
    pub fn victory_points(&self) -> Vec<i32> {
        self.victory.as_ref().map_or_else(
            || vec![0; self.sides.len()],
            |v| crate::victory::points(v, &self.board, &self.sides, &self.state),
        )
    }
}
