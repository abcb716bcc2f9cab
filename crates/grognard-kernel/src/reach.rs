//! Reachability: every cell a piece can get to, with cost and path, as a free function over
//! a cost closure (the shape of hexx's `field_of_movement`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

use crate::cost::Cost;
use crate::geometry::{Cell, Facing, Grid};
use crate::ids::{FeatureId, PieceId, TerrainId};

/// What entering a cell allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Extra cost of this step (grid step + terrain + boundary).
    pub cost: Cost,
    /// The piece may end its move here.
    pub can_stop: bool,
    /// The piece may go on from here.
    pub can_continue: bool,
}

/// One reachable cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reachable {
    /// The cell.
    pub cell: Cell,
    /// Cheapest cost to end there.
    pub cost: Cost,
    /// Cells entered, in order (the start not included).
    pub path: Vec<Cell>,
}

/// Every cell where a piece starting at `start` can end a move costing at most `budget` and
/// taking at most `max_steps` steps, sorted by cell. `enter(from, dir, to, spent)` says what
/// a step costs (`None` = not allowed); `index` maps cells on the board to `0..cells`.
///
/// Dijkstra over (cell, steps taken) when a step limit applies, over cells otherwise; ties
/// break on the grid's fixed neighbour order, so the chosen paths are deterministic.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{Cell, Grid, SquareGrid};
/// use grognard_kernel::reach::{reach, Entry};
/// use grognard_kernel::Cost;
/// let grid = Grid::Square(SquareGrid { orthogonal: Cost::ONE, diagonal: Cost::from_hundredths(150) });
/// let index = |c: Cell| (c.col >= 0 && c.row >= 0 && c.col < 5 && c.row < 5).then(|| (c.row * 5 + c.col) as usize);
/// let cells = reach(&grid, Cell::new(2, 2), Cost::from_hundredths(150), None, 25, index,
///     |_, dir, _, _| Some(Entry { cost: grid.step_cost(dir), can_stop: true, can_continue: true }));
/// // One orthogonal or one diagonal step; two orthogonal steps would cost 2.
/// assert_eq!(cells.len(), 8);
/// ```
pub fn reach(
    grid: &Grid,
    start: Cell,
    budget: Cost,
    max_steps: Option<u32>,
    cells: usize,
    index: impl Fn(Cell) -> Option<usize>,
    enter: impl FnMut(Cell, Facing, Cell, Cost) -> Option<Entry>,
) -> Vec<Reachable> {
    reach_with(
        grid,
        start,
        budget,
        max_steps,
        cells,
        index,
        enter,
        DENSE_LIMIT,
    )
}

/// Most (cell, steps) states kept in dense arrays; beyond, only reached states are stored.
const DENSE_LIMIT: usize = 1 << 20;

#[allow(clippy::too_many_arguments)]
fn reach_with(
    grid: &Grid,
    start: Cell,
    budget: Cost,
    max_steps: Option<u32>,
    cells: usize,
    index: impl Fn(Cell) -> Option<usize>,
    mut enter: impl FnMut(Cell, Facing, Cell, Cost) -> Option<Entry>,
    dense_limit: usize,
) -> Vec<Reachable> {
    // An optimal path never enters a cell twice, so a limit above the cell count is no limit.
    let max_steps = max_steps.filter(|m| (*m as usize) < cells);
    let layers = max_steps.map_or(1, |m| m as usize + 1);
    let Some(start_index) = index(start) else {
        return Vec::new();
    };
    let state_of = |cell_index: usize, steps: u32| -> usize {
        if max_steps.is_some() {
            cell_index * layers + steps as usize
        } else {
            cell_index
        }
    };
    let cell_of_state = |state: usize| -> usize {
        if max_steps.is_some() {
            state / layers
        } else {
            state
        }
    };
    // Two kinds of arrival per state: one the piece may go on from (searched further), and
    // one where it may end its move. They are kept apart because a cheap arrival that must
    // stop (entering a zone of control) must not hide a dearer one that may go on. Dense
    // arrays when (cell, steps) states are few; a map when a large step limit would make
    // dense arrays huge and mostly empty.
    let mut table = States::new(cells.saturating_mul(layers), dense_limit);
    let mut cell_at: Vec<Cell> = vec![Cell::default(); cells];
    let mut heap = BinaryHeap::new();
    let s0 = state_of(start_index, 0);
    table.set_go(s0, Cost::ZERO, NONE);
    cell_at[start_index] = start;
    heap.push(Reverse((Cost::ZERO, 0u32, s0)));
    // Fewest steps with which each cell has been expanded. Labels leave the heap cheapest
    // first, so a later label for the same cell with as many steps or more costs at least
    // as much and has no more steps left: it is dominated and need not be expanded.
    let mut expanded_with: Vec<u32> = vec![u32::MAX; cells];
    while let Some(Reverse((spent, steps, state))) = heap.pop() {
        if spent > table.go(state).0 {
            continue;
        }
        let cell = cell_of_state(state);
        if expanded_with[cell] <= steps {
            continue;
        }
        expanded_with[cell] = steps;
        if max_steps.is_some_and(|m| steps >= m) {
            continue;
        }
        let here = cell_at[cell];
        for (dir, next) in grid.neighbours(here) {
            let Some(next_index) = index(next) else {
                continue;
            };
            let Some(entry) = enter(here, dir, next, spent) else {
                continue;
            };
            let total = spent.saturating_add(entry.cost);
            if total > budget || entry.cost.is_negative() {
                continue;
            }
            let next_state = state_of(next_index, steps + 1);
            cell_at[next_index] = next;
            if entry.can_stop && total < table.stop(next_state).0 {
                table.set_stop(next_state, total, state);
            }
            if entry.can_continue
                && expanded_with[next_index] > steps + 1
                && total < table.go(next_state).0
            {
                table.set_go(next_state, total, state);
                heap.push(Reverse((total, steps + 1, next_state)));
            }
        }
    }
    // For each cell, the cheapest state where the piece may stop (fewest steps on a tie).
    let mut chosen: Vec<Option<usize>> = vec![None; cells];
    for (state, cost) in table.stops() {
        let c = cell_of_state(state);
        if c == start_index {
            continue;
        }
        let better = chosen[c].is_none_or(|old| {
            let old_cost = table.stop(old).0;
            cost < old_cost || (cost == old_cost && state < old)
        });
        if better {
            chosen[c] = Some(state);
        }
    }
    let mut out = Vec::with_capacity(chosen.iter().flatten().count());
    // Each path is walked back into one reused buffer, then copied once into a vector of
    // exactly its length.
    let mut back: Vec<Cell> = Vec::new();
    for (cell_index, state) in chosen.into_iter().enumerate() {
        let Some(s) = state else { continue };
        // The last step comes from a state the piece could go on from; walk those back.
        back.clear();
        back.push(cell_at[cell_of_state(s)]);
        let mut at = table.stop(s).1;
        while at != NONE && at != s0 {
            back.push(cell_at[cell_of_state(at)]);
            at = table.go(at).1;
        }
        out.push(Reachable {
            cell: cell_at[cell_index],
            cost: table.stop(s).0,
            path: back.iter().rev().copied().collect(),
        });
    }
    out.sort_by_key(|r| (r.cell.row, r.cell.col));
    out
}

const NONE: usize = usize::MAX;

/// Best costs and back-pointers per (cell, steps) state, for going on and for stopping.
enum States {
    Dense {
        go: Vec<(Cost, usize)>,
        stop: Vec<(Cost, usize)>,
    },
    Sparse {
        go: std::collections::HashMap<usize, (Cost, usize)>,
        stop: std::collections::HashMap<usize, (Cost, usize)>,
    },
}

impl States {
    /// Dense up to `dense_limit` states; beyond, only states actually reached are stored.
    fn new(states: usize, dense_limit: usize) -> Self {
        if states <= dense_limit {
            Self::Dense {
                go: vec![(Cost::MAX, NONE); states],
                stop: vec![(Cost::MAX, NONE); states],
            }
        } else {
            Self::Sparse {
                go: std::collections::HashMap::new(),
                stop: std::collections::HashMap::new(),
            }
        }
    }

    fn go(&self, s: usize) -> (Cost, usize) {
        match self {
            Self::Dense { go, .. } => go.get(s).copied().unwrap_or((Cost::MAX, NONE)),
            Self::Sparse { go, .. } => go.get(&s).copied().unwrap_or((Cost::MAX, NONE)),
        }
    }

    fn stop(&self, s: usize) -> (Cost, usize) {
        match self {
            Self::Dense { stop, .. } => stop.get(s).copied().unwrap_or((Cost::MAX, NONE)),
            Self::Sparse { stop, .. } => stop.get(&s).copied().unwrap_or((Cost::MAX, NONE)),
        }
    }

    fn set_go(&mut self, s: usize, cost: Cost, prev: usize) {
        match self {
            Self::Dense { go, .. } => {
                if let Some(slot) = go.get_mut(s) {
                    *slot = (cost, prev);
                }
            }
            Self::Sparse { go, .. } => {
                go.insert(s, (cost, prev));
            }
        }
    }

    fn set_stop(&mut self, s: usize, cost: Cost, prev: usize) {
        match self {
            Self::Dense { stop, .. } => {
                if let Some(slot) = stop.get_mut(s) {
                    *slot = (cost, prev);
                }
            }
            Self::Sparse { stop, .. } => {
                stop.insert(s, (cost, prev));
            }
        }
    }

    /// Every state where the piece may stop, with its cost.
    fn stops(&self) -> Vec<(usize, Cost)> {
        match self {
            Self::Dense { stop, .. } => stop
                .iter()
                .enumerate()
                .filter(|(_, (c, _))| *c != Cost::MAX)
                .map(|(s, (c, _))| (s, *c))
                .collect(),
            Self::Sparse { stop, .. } => stop.iter().map(|(s, (c, _))| (*s, *c)).collect(),
        }
    }
}

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

/// Who stands where, by cell, for one reach query of one mover: the checks a step makes
/// against other pieces (an enemy there, own pieces there for stacking and sharing, an
/// enemy zone of control) become array lookups instead of walks over every piece, so a
/// query costs the same with 400 pieces on the board as with one.
#[derive(Clone, Debug)]
pub(crate) struct Crowd {
    /// Per board cell, by the board's dense index.
    spots: Vec<Spot>,
    /// The stacking limit the mover breaks on a cell with no other own piece (the same on
    /// every such cell).
    alone: Option<String>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Spot {
    /// An enemy of the mover is on it.
    enemy: bool,
    /// Another piece of the mover's side is on it.
    friend: bool,
    /// The first enemy, in piece order, whose zone of control covers it.
    zone: Option<PieceId>,
    /// A boundary feature (road, barrier, crossing) lies on one of its sides.
    linked: bool,
}

impl Crowd {
    /// An empty index over `cells` board cells.
    pub(crate) fn new(cells: usize) -> Self {
        Self {
            spots: vec![Spot::default(); cells],
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
    }

    /// Records that `holder`'s zone of control covers the cell at `index`, unless an earlier
    /// piece's already does.
    pub(crate) fn zone(&mut self, index: usize, holder: PieceId) {
        if let Some(s) = self.spots.get_mut(index) {
            s.zone.get_or_insert(holder);
        }
    }

    /// Records that a boundary feature lies on a side of the cell at `index`.
    pub(crate) fn link(&mut self, index: usize) {
        if let Some(s) = self.spots.get_mut(index) {
            s.linked = true;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::SquareGrid;

    /// Dense and sparse storage must give the same cells, costs and paths.
    #[test]
    fn sparse_states_agree_with_dense_ones() {
        let grid = Grid::Square(SquareGrid {
            orthogonal: Cost::ONE,
            diagonal: Cost::from_hundredths(150),
        });
        let (cols, rows) = (12i32, 9i32);
        let index = |c: Cell| {
            (c.col >= 0 && c.row >= 0 && c.col < cols && c.row < rows)
                .then(|| (c.row * cols + c.col) as usize)
        };
        for seed in 0..40u32 {
            // Deterministic pseudo-random terrain costs, closed cells and forced stops.
            let cost_of = |c: Cell| (c.col as u32 * 7 + c.row as u32 * 13 + seed * 31) % 5;
            let enter = |_: Cell, dir: Facing, to: Cell, _: Cost| {
                let k = cost_of(to);
                (k != 4).then(|| Entry {
                    cost: grid.step_cost(dir) + Cost::from_hundredths(50 * k as i32),
                    can_stop: k != 3 || seed % 2 == 0,
                    can_continue: k != 2,
                })
            };
            for max in [None, Some(1), Some(3), Some(6)] {
                let start = Cell::new((seed % 12) as i32, (seed % 9) as i32);
                let budget = Cost::whole(5);
                let cells = (cols * rows) as usize;
                let dense = reach_with(&grid, start, budget, max, cells, index, enter, usize::MAX);
                let sparse = reach_with(&grid, start, budget, max, cells, index, enter, 0);
                assert_eq!(dense, sparse, "seed {seed}, max {max:?}");
            }
        }
    }
}
