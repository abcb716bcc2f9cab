//! The step rules a reach query of one piece applies, kept as data for its search
//! ([`StepBan`], [`StopWhy`], [`PlainSteps`], [`Crowd`]), and [`reach_plain`]: the search
//! specialised for the common query on a grid board, which prices the plain steps from a
//! table instead of the general step check.

use crate::cost::Cost;
use crate::geometry::{Cell, Facing, Grid};
use crate::ids::{FeatureId, PieceId, TerrainId};

use super::{EMPTY, Entry, NO_NODE, NO_STATE, NONE, Open, ReachMap, Reachable, Slots, scratch};

/// Why the ruleset's data forbids a step, kept as data: a reach query tries every step from
/// every cell it reaches and needs no words for the ones it cannot take; a move turns the
/// reason into its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StepBan {
    /// The board has no grid.
    NoGrid,
    /// The piece's type is not in the rules.
    UnknownType,
    /// The piece's mode is not in the rules.
    UnknownMode,
    /// The type's movement class is not in the rules.
    UnknownClass,
    /// The mode follows roads only, and the step is not along one.
    RoadsOnly,
    /// A barrier that cannot be crossed.
    Barrier(FeatureId),
    /// Terrain the piece's class may not enter.
    Terrain(TerrainId),
}

/// Why a step ends the move in the cell it enters, kept as data as [`StepBan`] is: a reach
/// query needs only that it ends there, and a move words the reason for its event
/// (`Game::why_move_ends`, `game/step_words.rs`). Defined here, below `game/`, so that
/// `company.rs`' steps (sharing, the board's edge) can give it too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum StopWhy {
    /// The ruleset's `stops` hook ends it, in its `stop_reason`'s words if it gave them
    /// (asked by a move only).
    Hook(Option<String>),
    /// A step that costs more than the grid's own price, for a class that stops on those.
    Costly,
    /// An enemy's zone of control covers the cell (one holder of it).
    Zone(PieceId),
    /// The piece joined this own piece there (company's sharing).
    Joined(PieceId),
    /// The piece left the board across a baseline it may leave by.
    LeftBoard,
}

/// What a reach query looks up once for its mover to price plain steps (see
/// [`PlainSteps::plain`]) without the general step check: the grid, the movement class's
/// terrain costs, and the two mode and class rules that apply to every step.
pub(crate) struct PlainSteps<'a> {
    /// The board's grid.
    pub(crate) grid: Grid,
    /// Extra cost of entering each terrain, by terrain index (`None`: not allowed).
    pub(crate) enter: &'a [Option<Cost>],
    /// The mode follows roads only (and a plain step has none).
    pub(crate) roads_only: bool,
    /// A step dearer than the grid's own ends the move.
    pub(crate) stops_on_costly: bool,
    /// The board has half-hexes at its edges (each step then looks at both cells).
    halves: bool,
    /// A `stops` hook is bound and must be asked at every step (see
    /// [`crate::hooks::Hooks::is_bound`]); true unless the caller knows better.
    pub(crate) ask_stops: bool,
}

impl<'a> PlainSteps<'a> {
    /// The mover's lookups, or `None` when its type, mode or class is unknown or the board
    /// has no grid (every step then takes the general check, which says why).
    pub(crate) fn of(
        rules: &'a crate::rules::Rules,
        board: &crate::board::Board,
        piece: &crate::piece::Piece,
    ) -> Option<Self> {
        let ty = rules.piece_type(piece.kind)?;
        let mode = rules.modes.get(piece.mode.index())?;
        let class = rules.move_classes.get(ty.move_class.index())?;
        Some(Self {
            grid: *board.grid()?,
            enter: &class.enter,
            roads_only: mode.roads_only,
            stops_on_costly: class.stops_on_costly,
            halves: board.has_half_hexes(),
            ask_stops: true,
        })
    }

    /// The data's price of a plain step in `dir` into the cell at board index `at`: the
    /// grid's step cost, the cell's terrain (by index), and the step plus the terrain's extra
    /// (`None` when the terrain is closed to the class, or the mode follows roads only and a
    /// plain step has none).
    pub(crate) fn data_price(
        &self,
        board: &crate::board::Board,
        dir: Facing,
        at: usize,
    ) -> (Cost, usize, Option<Cost>) {
        let step = self.grid.step_cost(dir);
        let terrain = board.terrain_of_index(at).index();
        let data = if self.roads_only {
            None
        } else {
            self.enter
                .get(terrain)
                .copied()
                .flatten()
                .map(|extra| step.saturating_add(extra))
        };
        (step, terrain, data)
    }

    /// The board index of `to` when the step from `from` is plain: no boundary feature on
    /// a side of either cell (no road, barrier or crossing, so no crossing capacity), no one
    /// else on `to` (no enemy, no sharing or stacking with friends), the mover alone breaks
    /// no stacking limit, and neither cell is a half-hex. Only such steps skip the general
    /// check; they get the same entry from it.
    #[inline]
    pub(crate) fn plain(
        &self,
        board: &crate::board::Board,
        crowd: &Crowd,
        from: Cell,
        to: Cell,
    ) -> Option<usize> {
        let here = board.index(from)?;
        let at = board.index(to)?;
        let plain = crowd.unlinked(here, at)
            && !crowd.enemy_at(at)
            && !crowd.friend_at(at)
            && crowd.alone().is_none()
            && (!self.halves || (board.half_hex(from).is_none() && board.half_hex(to).is_none()));
        plain.then_some(at)
    }
}

/// Who stands where, by cell, for one reach query of one mover: the checks a step makes
/// against other pieces (an enemy there, own pieces there for stacking and sharing, an
/// enemy zone of control) become array lookups instead of walks over every piece, so a
/// query costs the same with 400 pieces on the board as with one.
#[derive(Clone, Debug)]
pub(crate) struct Crowd {
    /// Per board cell, by the board's dense index.
    spots: Vec<Spot>,
    /// Per board cell, what a plain step may do there ([`FROM_PLAIN`], [`INTO_PLAIN`],
    /// [`ZONE`]): the same facts as `spots`, packed so that a search reads one byte.
    flags: Vec<u8>,
    /// The stacking limit the mover breaks on a cell with no other own piece (the same on
    /// every such cell).
    alone: Option<String>,
}

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Spot {
    /// An enemy of the mover is on it.
    enemy: bool,
    /// Another piece of the mover's side is on it.
    friend: bool,
    /// The first enemy, in piece order, whose zone of control covers it.
    zone: Option<PieceId>,
    /// A boundary feature (road, barrier, crossing) lies on one of its sides.
    linked: bool,
}

impl Drop for Crowd {
    fn drop(&mut self) {
        scratch::give(|b| &mut b.spots, std::mem::take(&mut self.spots));
        scratch::give(|b| &mut b.bytes, std::mem::take(&mut self.flags));
    }
}

impl Crowd {
    /// An empty index over `cells` board cells.
    pub(crate) fn new(cells: usize) -> Self {
        Self {
            spots: scratch::take(|b| &mut b.spots, cells, Spot::default()),
            flags: scratch::take(|b| &mut b.bytes, cells, FROM_PLAIN | INTO_PLAIN),
            alone: None,
        }
    }

    /// Sets the stacking limit the mover breaks alone.
    pub(crate) fn set_alone(&mut self, problem: Option<String>) {
        self.alone = problem;
    }

    /// The stacking limit the mover breaks on a cell with no other own piece.
    pub(crate) fn alone(&self) -> Option<&str> {
        self.alone.as_deref()
    }

    /// Marks the cell at `index` as covered by an enemy (`enemy`) or by another own piece.
    pub(crate) fn occupy(&mut self, index: usize, enemy: bool) {
        if let Some(s) = self.spots.get_mut(index) {
            if enemy {
                s.enemy = true;
            } else {
                s.friend = true;
            }
        }
        if let Some(f) = self.flags.get_mut(index) {
            *f &= !INTO_PLAIN;
        }
    }

    /// Records that `holder`'s zone of control covers the cell at `index`, unless an earlier
    /// piece's already does.
    pub(crate) fn zone(&mut self, index: usize, holder: PieceId) {
        if let Some(s) = self.spots.get_mut(index) {
            s.zone.get_or_insert(holder);
        }
        if let Some(f) = self.flags.get_mut(index) {
            *f |= ZONE;
        }
    }

    /// Records that a boundary feature lies on a side of the cell at `index`.
    pub(crate) fn link(&mut self, index: usize) {
        if let Some(s) = self.spots.get_mut(index) {
            s.linked = true;
        }
        self.not_plain(index);
    }

    /// Records that the cell at `index` is a half-hex: no step into or out of it is plain.
    /// (Only the plain-step flags keep this; the general check asks the board.)
    pub(crate) fn half_hex(&mut self, index: usize) {
        self.not_plain(index);
    }

    fn not_plain(&mut self, index: usize) {
        if let Some(f) = self.flags.get_mut(index) {
            *f &= !(FROM_PLAIN | INTO_PLAIN);
        }
    }

    /// No boundary feature lies on any side of either cell: a step between them (straight
    /// or round a corner) crosses no road, barrier or crossing.
    pub(crate) fn unlinked(&self, a: usize, b: usize) -> bool {
        [a, b]
            .iter()
            .all(|i| self.spots.get(*i).is_some_and(|s| !s.linked))
    }

    /// An enemy is on the cell.
    pub(crate) fn enemy_at(&self, index: usize) -> bool {
        self.spots.get(index).is_some_and(|s| s.enemy)
    }

    /// Another own piece is on the cell.
    pub(crate) fn friend_at(&self, index: usize) -> bool {
        self.spots.get(index).is_some_and(|s| s.friend)
    }

    /// The enemy whose zone of control holds the cell.
    pub(crate) fn zone_at(&self, index: usize) -> Option<PieceId> {
        self.spots.get(index).and_then(|s| s.zone)
    }
}

/// A step out of the cell may be plain: no boundary feature lies on its sides and it is not
/// a half-hex.
const FROM_PLAIN: u8 = 1;
/// A step into the cell may be plain: as [`FROM_PLAIN`], and no other piece is on it.
const INTO_PLAIN: u8 = 2;
/// An enemy's zone of control covers the cell.
const ZONE: u8 = 4;

/// The rules a [`reach_plain`] search asks about the steps it cannot price itself.
pub(crate) trait StepRules {
    /// What a plain step from `from` in `dir` into `to` (board index `at`) costs, asked once
    /// per terrain and kind of step (orthogonal or diagonal): `Some(None)` when the step is
    /// not allowed, `None` when asking failed (the failure is the caller's to keep; the step
    /// is refused, and the next such step asks again).
    fn plain_price(&mut self, from: Cell, dir: Facing, to: Cell, at: usize)
    -> Option<Option<Cost>>;

    /// What any other step allows, by the general check (`None`: not allowed).
    fn enter(&mut self, from: Cell, dir: Facing, to: Cell, spent: Cost) -> Option<Entry>;
}

/// The board and mover facts a [`reach_plain`] search reads.
pub(crate) struct PlainBoard<'a> {
    /// The board's grid.
    pub(crate) grid: Grid,
    /// Columns and rows of the board.
    pub(crate) cols: i32,
    /// Rows of the board.
    pub(crate) rows: i32,
    /// Terrain per board cell, row-major (the board's dense index).
    pub(crate) terrain: &'a [TerrainId],
    /// Terrains in the rules: the price table has one entry per terrain and kind of step.
    pub(crate) terrains: usize,
    /// A step dearer than the grid's own ends the move (the mover's class says so).
    pub(crate) stops_on_costly: bool,
    /// Cells just off the board the piece may leave by; index `cols × rows + i` is `exits[i]`.
    pub(crate) exits: &'a [Cell],
}

impl PlainBoard<'_> {
    /// Board cells.
    fn board_cells(&self) -> usize {
        usize::try_from(self.cols)
            .unwrap_or(0)
            .saturating_mul(usize::try_from(self.rows).unwrap_or(0))
    }

    /// States of a search: the board's cells and the exits after them.
    pub(crate) fn cells(&self) -> usize {
        self.board_cells() + self.exits.len()
    }

    /// The search's index of `c`: the board's dense index on the board, after the board's
    /// cells for an exit.
    fn index(&self, c: Cell) -> Option<usize> {
        if c.col >= 0 && c.row >= 0 && c.col < self.cols && c.row < self.rows {
            // Both are non-negative and below the board's size, which fits a `usize`.
            Some(c.row as usize * self.cols as usize + c.col as usize)
        } else {
            self.exits
                .iter()
                .position(|e| *e == c)
                .map(|i| self.board_cells() + i)
        }
    }

    /// The cell at search index `i` (one [`Self::index`] gave).
    fn cell(&self, i: usize) -> Cell {
        let cols = self.cols.max(1) as usize;
        match i.checked_sub(self.board_cells()) {
            Some(e) => self.exits.get(e).copied().unwrap_or_default(),
            // On the board, so both fit an `i32`.
            None => Cell::new((i % cols) as i32, (i / cols) as i32),
        }
    }
}

/// Whether [`reach_plain`] can search `cells` states in its dense table.
pub(crate) fn fits(cells: usize) -> bool {
    cells <= super::DENSE_LIMIT && cells < NO_STATE as usize
}

/// [`super::reach`] with no step limit over the board of `on`, for a query whose plain steps
/// ([`PlainSteps::plain`], flagged per cell in `crowd`) are priced by terrain and kind of
/// step alone and end the move only in a zone of control or on a costly step (so a pure
/// `move_cost` hook, no `stops` hook, no stacking limit broken alone). Every other step
/// takes `rules.enter`. The search is the general one step for step — the same labels
/// handed out in the same order, the same steps asked in the same order, the same
/// tie-breaks and the same path tree — so it gives the same map; what it saves is the work
/// per step: neighbours by index offsets away from the edges, one byte of flags per cell
/// for the plain-step test, a table of prices by terrain and kind of step instead of a
/// hook call, and no per-cell bookkeeping the step limit would need.
pub(crate) fn reach_plain(
    on: &PlainBoard<'_>,
    crowd: &Crowd,
    start: Cell,
    budget: Cost,
    rules: &mut impl StepRules,
) -> ReachMap {
    let n = on.board_cells();
    let cells = on.cells();
    let Some(s0) = on.index(start) else {
        return ReachMap::default();
    };
    let flags = &crowd.flags;
    let flag = |i: usize| flags.get(i).copied().unwrap_or(0);
    let grid = on.grid;
    let Steps {
        facings,
        offsets,
        step_cost,
        diagonal,
    } = Steps::of(on);
    // The price of a plain step by terrain and kind of step, asked when first needed.
    let mut prices: Vec<Option<Option<Cost>>> = vec![None; on.terrains * 2];
    let mut table: Vec<Slots> = scratch::take(|b| &mut b.slots, cells, EMPTY);
    let mut open = Open::new(budget);
    table[s0][0] = (Cost::ZERO, NO_STATE);
    open.push(Cost::ZERO, 0, s0);
    let mut reached = 0usize;
    while let Some((spent, steps, here)) = open.pop() {
        // Without a step limit a state is a cell, and the label that leaves the queue at the
        // cell's best cost is its only one expanded (later ones cost more).
        if spent > table[here][0].0 {
            continue;
        }
        let from = on.cell(here);
        let on_board = here < n;
        let inside = on_board
            && from.col > 0
            && from.row > 0
            && from.col < on.cols - 1
            && from.row < on.rows - 1;
        let from_plain = on_board && flag(here) & FROM_PLAIN != 0;
        let offsets = &offsets[usize::from(from.row & 1 == 1)];
        for d in 0..facings {
            let dir = Facing(d as u8);
            let (next, to) = if inside {
                // Away from the edges every neighbour is on the board.
                let next = here.wrapping_add_signed(offsets[d]);
                (next, None)
            } else {
                let to = grid.neighbour(from, dir);
                let Some(next) = on.index(to) else {
                    continue;
                };
                (next, Some(to))
            };
            let to = || to.unwrap_or_else(|| grid.neighbour(from, dir));
            let entry = if from_plain && next < n && flag(next) & INTO_PLAIN != 0 {
                let slot = on.terrain.get(next).map_or(0, |t| t.index()) * 2 + diagonal[d];
                let cost = match prices.get(slot) {
                    Some(Some(known)) => *known,
                    _ => {
                        let asked = rules.plain_price(from, dir, to(), next);
                        if let (Some(answer), Some(kept)) = (asked, prices.get_mut(slot)) {
                            *kept = Some(answer);
                        }
                        asked.flatten()
                    }
                };
                let Some(cost) = cost else {
                    continue;
                };
                Entry {
                    cost,
                    can_stop: true,
                    can_continue: flag(next) & ZONE == 0
                        && !(on.stops_on_costly && cost > step_cost[d]),
                }
            } else {
                let Some(entry) = rules.enter(from, dir, to(), spent) else {
                    continue;
                };
                entry
            };
            let total = spent.saturating_add(entry.cost);
            if total > budget || entry.cost.is_negative() {
                continue;
            }
            let Some(slot) = table.get_mut(next) else {
                continue;
            };
            // States number fewer than 2^32 - 1 ([`fits`]), so `here` fits.
            let back = here as u32;
            if entry.can_stop && total < slot[1].0 {
                reached += usize::from(slot[1].0 == Cost::MAX && next != s0);
                slot[1] = (total, back);
            }
            if entry.can_continue && total < slot[0].0 {
                slot[0] = (total, back);
                open.push(total, steps + 1, next);
            }
        }
    }
    open.give_back();
    let mut map = path_tree(on, &table, s0, reached);
    scratch::give(|b| &mut b.slots, table);
    // Board cells come in row-major order, already sorted; only exits can be out of place.
    if !on.exits.is_empty() {
        map.sort();
    }
    map
}

/// The paths of a finished [`reach_plain`] search, as one tree built in cell order exactly
/// as the general search builds it: each reached cell's best stopping label, and the chain
/// of moving-on labels behind it back to the start (`s0`).
fn path_tree(on: &PlainBoard<'_>, table: &[Slots], s0: usize, reached: usize) -> ReachMap {
    let mut map = ReachMap {
        cells: Vec::with_capacity(reached),
        tree: Vec::with_capacity(reached),
    };
    let mut nodes: Vec<u32> = scratch::take(|b| &mut b.counts, on.cells(), NO_NODE);
    let mut chain: Vec<usize> = Vec::new();
    let back = |s: u32| if s == NO_STATE { NONE } else { s as usize };
    for (cell_index, slots) in table.iter().enumerate() {
        let (cost, last) = slots[1];
        if cost == Cost::MAX || cell_index == s0 {
            continue;
        }
        chain.clear();
        let mut at = back(last);
        while at != NONE && at != s0 && nodes[at] == NO_NODE {
            chain.push(at);
            at = back(table[at][0].1);
        }
        let mut parent = if at == NONE || at == s0 {
            NO_NODE
        } else {
            nodes[at]
        };
        for &state in chain.iter().rev() {
            map.tree.push((on.cell(state), parent));
            parent = u32::try_from(map.tree.len() - 1).unwrap_or(NO_NODE);
            nodes[state] = parent;
        }
        let cell = on.cell(cell_index);
        map.tree.push((cell, parent));
        map.cells.push(Reachable {
            cell,
            cost,
            node: u32::try_from(map.tree.len() - 1).unwrap_or(NO_NODE),
        });
    }
    scratch::give(|b| &mut b.counts, nodes);
    map
}

/// What a [`reach_plain`] search knows of the grid's directions before it starts.
struct Steps {
    /// Directions of the grid (at most 8).
    facings: usize,
    /// Index offsets of the neighbours of a cell away from the edges, for even and odd rows
    /// (hex rows alternate; square ones do not), in the grid's direction order.
    offsets: [[isize; 8]; 2],
    /// The grid's own price of a step in each direction.
    step_cost: [Cost; 8],
    /// 1 for a diagonal step on a square grid: the second price of a terrain.
    diagonal: [usize; 8],
}

impl Steps {
    fn of(on: &PlainBoard<'_>) -> Self {
        let grid = on.grid;
        let facings = usize::from(grid.facings()).min(8);
        let cols = on.cols as isize;
        let mut offsets = [[0isize; 8]; 2];
        for (parity, row) in offsets.iter_mut().enumerate() {
            let c = Cell::new(2, 2 + parity as i32);
            for (d, slot) in row.iter_mut().enumerate().take(facings) {
                let to = grid.neighbour(c, Facing(d as u8));
                *slot = (to.row - c.row) as isize * cols + (to.col - c.col) as isize;
            }
        }
        let mut step_cost = [Cost::ZERO; 8];
        let mut diagonal = [0usize; 8];
        for d in 0..facings {
            let dir = Facing(d as u8);
            step_cost[d] = grid.step_cost(dir);
            diagonal[d] = usize::from(
                matches!(grid, Grid::Square(_)) && crate::geometry::square::is_diagonal(dir),
            );
        }
        Self {
            facings,
            offsets,
            step_cost,
            diagonal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{HexGrid, SquareGrid};

    /// A deterministic stand-in for a query's rules that logs every question it is asked.
    struct Logged {
        seed: u32,
        asked: Vec<(Cell, Facing, Cell, bool)>,
        failed_once: bool,
    }

    impl Logged {
        fn roll(&self, c: Cell) -> u32 {
            (c.col as u32)
                .wrapping_mul(2_654_435_761)
                .wrapping_add((c.row as u32).wrapping_mul(40_503))
                .wrapping_add(self.seed.wrapping_mul(97))
                >> 7
        }
    }

    impl StepRules for Logged {
        fn plain_price(
            &mut self,
            from: Cell,
            dir: Facing,
            to: Cell,
            at: usize,
        ) -> Option<Option<Cost>> {
            self.asked.push((from, dir, to, true));
            // One question fails (and is asked again next time); a third of the answers close
            // the step.
            match at % 3 {
                _ if self.roll(to).is_multiple_of(7) && !self.failed_once => {
                    self.failed_once = true;
                    None
                }
                2 => Some(None),
                k => Some(Some(Cost::from_hundredths(100 + 50 * k as i32))),
            }
        }

        fn enter(&mut self, from: Cell, dir: Facing, to: Cell, _: Cost) -> Option<Entry> {
            self.asked.push((from, dir, to, false));
            let r = self.roll(to);
            (!r.is_multiple_of(9)).then(|| Entry {
                // Free steps now and then, to test labels added to the bucket being handed out.
                cost: Cost::from_hundredths([0, 50, 100, 150, 250][(r % 5) as usize]),
                can_stop: !r.is_multiple_of(11),
                can_continue: !r.is_multiple_of(13),
            })
        }
    }

    /// The specialised search against the general one with the same rules, asked the way a
    /// query asks them: the same map, paths included, and the same questions in the same
    /// order.
    #[test]
    fn the_plain_search_is_the_general_search() {
        for seed in 0..120u32 {
            let grid = if seed % 2 == 0 {
                Grid::Square(SquareGrid {
                    orthogonal: Cost::ONE,
                    diagonal: Cost::from_hundredths(150),
                })
            } else {
                Grid::Hex(HexGrid::new(Cost::ONE))
            };
            let (cols, rows) = (3 + (seed % 9) as i32, 3 + (seed % 7) as i32);
            let n = (cols * rows) as usize;
            let mut x = u64::from(seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let mut next = |m: u64| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % m
            };
            let terrain: Vec<TerrainId> = (0..n).map(|_| TerrainId(next(3) as u16)).collect();
            let mut crowd = Crowd::new(n);
            for i in 0..n {
                match next(12) {
                    0 => crowd.link(i),
                    1 => crowd.occupy(i, true),
                    2 => crowd.occupy(i, false),
                    3 => crowd.zone(i, PieceId(0)),
                    4 => crowd.half_hex(i),
                    _ => {}
                }
            }
            let exits: Vec<Cell> = if seed % 3 == 0 {
                (0..cols).map(|c| Cell::new(c, -1)).collect()
            } else {
                Vec::new()
            };
            let on = PlainBoard {
                grid,
                cols,
                rows,
                terrain: &terrain,
                terrains: 3,
                stops_on_costly: seed % 4 < 2,
                exits: &exits,
            };
            let start = Cell::new((next(cols as u64)) as i32, (next(rows as u64)) as i32);
            let budget = Cost::from_hundredths(200 + 50 * next(12) as i32);
            let fresh = || Logged {
                seed,
                asked: Vec::new(),
                failed_once: false,
            };
            let mut fast = fresh();
            let got = reach_plain(&on, &crowd, start, budget, &mut fast);

            let mut general = fresh();
            let mut prices: Vec<Option<Option<Cost>>> = vec![None; 6];
            let index = |c: Cell| on.index(c);
            let frame = super::super::Frame {
                grid: &grid,
                start,
                budget,
                max_steps: None,
                cells: on.cells(),
            };
            let want = super::super::reach_with(
                frame,
                index,
                |from, dir, to, spent| {
                    let (here, at) = (on.index(from)?, on.index(to)?);
                    let plain = here < n
                        && at < n
                        && crowd.flags[here] & FROM_PLAIN != 0
                        && crowd.flags[at] & INTO_PLAIN != 0;
                    if !plain {
                        return general.enter(from, dir, to, spent);
                    }
                    let diagonal = matches!(grid, Grid::Square(_))
                        && crate::geometry::square::is_diagonal(dir);
                    let slot = terrain[at].index() * 2 + usize::from(diagonal);
                    let cost = match prices[slot] {
                        Some(known) => known,
                        None => {
                            let asked = general.plain_price(from, dir, to, at);
                            if let Some(a) = asked {
                                prices[slot] = Some(a);
                            }
                            asked.flatten()
                        }
                    }?;
                    Some(Entry {
                        cost,
                        can_stop: true,
                        can_continue: crowd.flags[at] & ZONE == 0
                            && !(on.stops_on_costly && cost > grid.step_cost(dir)),
                    })
                },
                usize::MAX,
            );
            assert_eq!(got, want, "seed {seed}");
            assert_eq!(
                got.iter().map(|r| (r.cell, r.cost)).collect::<Vec<_>>(),
                want.iter().map(|r| (r.cell, r.cost)).collect::<Vec<_>>(),
                "seed {seed}"
            );
            assert_eq!(got.tree, want.tree, "seed {seed}: the path trees differ");
            assert_eq!(fast.asked, general.asked, "seed {seed}: asked differently");
        }
    }
}
