//! Reachability: every cell a piece can get to, with cost and path, as a free function over
//! a cost closure (the shape of hexx's `field_of_movement`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

use crate::cost::Cost;
use crate::geometry::{Cell, Facing, Grid};

mod plain;

pub(crate) use plain::{
    Crowd, PlainBoard, PlainSteps, StepBan, StepRules, StopWhy, fits, reach_plain,
};

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

/// One reachable cell. Its path is kept in the [`ReachMap`] it came from
/// ([`ReachMap::path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reachable {
    /// The cell.
    pub cell: Cell,
    /// Cheapest cost to end there.
    pub cost: Cost,
    /// Its node in the map's path tree.
    node: u32,
}

/// No node: the parent of a first step.
const NO_NODE: u32 = u32::MAX;

/// Every cell a piece can reach, sorted by row then column, with the cheapest paths kept
/// as one tree of parent links: a reach query touches thousands of cells and is asked for
/// the path of one (the cell under the pointer, the end of a move), so a path is spelled
/// out only when asked for.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ReachMap {
    cells: Vec<Reachable>,
    /// Each node's cell and its parent node ([`NO_NODE`] for a first step).
    tree: Vec<(Cell, u32)>,
}

impl ReachMap {
    /// The cells entered on the way to `r`, in order (the start not included; the last is
    /// `r.cell`).
    #[must_use]
    pub fn path(&self, r: &Reachable) -> Vec<Cell> {
        // Walked twice, to size the path exactly (one allocation per move listed): a path
        // never enters a cell twice, so it has at most one node per tree entry.
        let walk = || {
            let mut at = r.node;
            core::iter::from_fn(move || {
                let &(cell, parent) = self.tree.get(at as usize)?;
                at = parent;
                Some(cell)
            })
            .take(self.tree.len())
        };
        let mut path = Vec::with_capacity(walk().count());
        path.extend(walk());
        path.reverse();
        path
    }

    /// The reachable entry for `cell`, if the piece can end a move there.
    #[must_use]
    pub fn get(&self, cell: Cell) -> Option<&Reachable> {
        self.cells
            .binary_search_by_key(&(cell.row, cell.col), |r| (r.cell.row, r.cell.col))
            .ok()
            .and_then(|i| self.cells.get(i))
    }

    /// The path to `cell` ([`Self::path`]), if the piece can end a move there.
    #[must_use]
    pub fn path_to(&self, cell: Cell) -> Option<Vec<Cell>> {
        self.get(cell).map(|r| self.path(r))
    }

    /// A map from whole paths: `(cell, cost, path)` each, in any order.
    pub(crate) fn from_paths(items: impl IntoIterator<Item = (Cell, Cost, Vec<Cell>)>) -> Self {
        let mut map = Self::default();
        for (cell, cost, path) in items {
            let mut parent = NO_NODE;
            for c in path {
                map.tree.push((c, parent));
                parent = u32::try_from(map.tree.len() - 1).unwrap_or(NO_NODE);
            }
            map.cells.push(Reachable {
                cell,
                cost,
                node: parent,
            });
        }
        map.sort();
        map
    }

    /// Adds `cell` as reached by a first step costing `cost`, unless the map already
    /// reaches it as cheaply.
    pub(crate) fn add_first_step(&mut self, cell: Cell, cost: Cost) {
        if self.get(cell).is_some_and(|r| r.cost <= cost) {
            return;
        }
        self.cells.retain(|r| r.cell != cell);
        self.tree.push((cell, NO_NODE));
        self.cells.push(Reachable {
            cell,
            cost,
            node: u32::try_from(self.tree.len() - 1).unwrap_or(NO_NODE),
        });
        self.sort();
    }

    fn sort(&mut self) {
        self.cells.sort_by_key(|r| (r.cell.row, r.cell.col));
    }

    /// Keeps the cells `keep` accepts, given each cell's entry and path; the paths of the
    /// cells kept are unchanged, those through a cell left out too.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&Reachable, Vec<Cell>) -> bool) {
        let cells = core::mem::take(&mut self.cells);
        let kept = cells
            .into_iter()
            .filter(|r| keep(r, self.path(r)))
            .collect();
        self.cells = kept;
    }
}

impl core::ops::Deref for ReachMap {
    type Target = [Reachable];

    fn deref(&self) -> &[Reachable] {
        &self.cells
    }
}

impl IntoIterator for ReachMap {
    type Item = Reachable;
    type IntoIter = std::vec::IntoIter<Reachable>;

    fn into_iter(self) -> Self::IntoIter {
        self.cells.into_iter()
    }
}

impl<'a> IntoIterator for &'a ReachMap {
    type Item = &'a Reachable;
    type IntoIter = core::slice::Iter<'a, Reachable>;

    fn into_iter(self) -> Self::IntoIter {
        self.cells.iter()
    }
}

/// Two maps are equal when they hold the same cells at the same costs by the same paths
/// (however their trees are laid out).
impl PartialEq for ReachMap {
    fn eq(&self, other: &Self) -> bool {
        self.cells.len() == other.cells.len()
            && self
                .cells
                .iter()
                .zip(&other.cells)
                .all(|(a, b)| (a.cell, a.cost) == (b.cell, b.cost) && self.path(a) == other.path(b))
    }
}

impl Eq for ReachMap {}

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
) -> ReachMap {
    let frame = Frame {
        grid,
        start,
        budget,
        max_steps,
        cells,
    };
    reach_in(frame, index, enter)
}

/// The frame of one reach search, shared by its every step: the grid, the cell the piece
/// starts in, what it may spend and in how many steps (`None`: no limit), and how many
/// cells the search's `index` maps a cell on the board into (`0..cells`). The queries'
/// own state (the piece, the crowd, the hooks) stays with the `enter` closure that asks
/// it; a frame holds only what the search itself reads.
#[derive(Clone, Copy)]
pub(crate) struct Frame<'g> {
    /// The board's grid.
    pub(crate) grid: &'g Grid,
    /// Where the piece starts.
    pub(crate) start: Cell,
    /// The most the move may cost.
    pub(crate) budget: Cost,
    /// The most steps it may take, if a limit applies.
    pub(crate) max_steps: Option<u32>,
    /// How many cells `index` maps into.
    pub(crate) cells: usize,
}

/// [`reach`] over a [`Frame`].
pub(crate) fn reach_in(
    frame: Frame<'_>,
    index: impl Fn(Cell) -> Option<usize>,
    enter: impl FnMut(Cell, Facing, Cell, Cost) -> Option<Entry>,
) -> ReachMap {
    reach_with(frame, index, enter, DENSE_LIMIT)
}

/// Budgets up to this many hundredths are searched with a bucket per cost.
const BUCKET_LIMIT: i32 = 1 << 16;

/// The search's open labels, handed out cheapest first, ties by fewer steps, then by lower
/// state. With a budget of at most [`BUCKET_LIMIT`] hundredths, one bucket per cost: labels
/// only ever arrive at the cost being expanded or dearer (a step never costs less than
/// nothing), so the buckets are visited once each, in order, and each is sorted once when
/// its turn comes. That replaces a binary heap's logarithmic pops (a quarter of a query's
/// time) with a sort of a few dozen labels per cost; the order, and so every path chosen,
/// is the heap's. Larger budgets use the heap.
enum Open {
    Heap(BinaryHeap<Reverse<(Cost, u32, usize)>>),
    Buckets {
        /// By cost in hundredths: (steps, state), sorted dearest first once current.
        buckets: Vec<Vec<(u32, usize)>>,
        /// The bucket being handed out.
        at: usize,
        /// True once the current bucket is sorted.
        sorted: bool,
    },
}

impl Open {
    fn new(budget: Cost) -> Self {
        let top = budget.hundredths();
        if (0..=BUCKET_LIMIT).contains(&top) {
            Self::Buckets {
                buckets: scratch::take_buckets(top as usize + 1),
                at: 0,
                sorted: false,
            }
        } else {
            Self::Heap(BinaryHeap::from(scratch::take(
                |b| &mut b.heap,
                0,
                Reverse((Cost::ZERO, 0, 0)),
            )))
        }
    }

    fn push(&mut self, cost: Cost, steps: u32, state: usize) {
        match self {
            Self::Heap(h) => h.push(Reverse((cost, steps, state))),
            Self::Buckets {
                buckets,
                at,
                sorted,
            } => {
                let i = cost.hundredths().max(0) as usize;
                let Some(bucket) = buckets.get_mut(i) else {
                    return;
                };
                if i == *at && *sorted {
                    // A free step into the bucket being handed out keeps it sorted.
                    let item = (steps, state);
                    let k = bucket.partition_point(|x| *x > item);
                    bucket.insert(k, item);
                } else {
                    bucket.push((steps, state));
                }
            }
        }
    }

    fn pop(&mut self) -> Option<(Cost, u32, usize)> {
        match self {
            Self::Heap(h) => h.pop().map(|Reverse(x)| x),
            Self::Buckets {
                buckets,
                at,
                sorted,
            } => loop {
                let bucket = buckets.get_mut(*at)?;
                if !*sorted {
                    bucket.sort_unstable_by(|a, b| b.cmp(a));
                    *sorted = true;
                }
                if let Some((steps, state)) = bucket.pop() {
                    return Some((Cost::from_hundredths(*at as i32), steps, state));
                }
                *at += 1;
                *sorted = false;
            },
        }
    }

    /// Keeps the buffers for the next query on this thread.
    fn give_back(self) {
        match self {
            Self::Heap(h) => scratch::give(|b| &mut b.heap, h.into_vec()),
            Self::Buckets { buckets, .. } => scratch::give(|b| &mut b.buckets, buckets),
        }
    }
}

/// Most (cell, steps) states kept in dense arrays; beyond, only reached states are stored.
const DENSE_LIMIT: usize = 1 << 20;

/// [`reach_in`] keeping (cell, steps) states in dense arrays up to `dense_limit` of them
/// (the tests ask both ways).
fn reach_with(
    frame: Frame<'_>,
    index: impl Fn(Cell) -> Option<usize>,
    mut enter: impl FnMut(Cell, Facing, Cell, Cost) -> Option<Entry>,
    dense_limit: usize,
) -> ReachMap {
    let Frame {
        grid,
        start,
        budget,
        max_steps,
        cells,
    } = frame;
    // An optimal path never enters a cell twice, so a limit above the cell count is no limit.
    let max_steps = max_steps.filter(|m| (*m as usize) < cells);
    let layers = max_steps.map_or(1, |m| m as usize + 1);
    let Some(start_index) = index(start) else {
        return ReachMap::default();
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
    let mut cell_at: Vec<Cell> = scratch::take(|b| &mut b.cells, cells, Cell::default());
    let mut heap = Open::new(budget);
    let s0 = state_of(start_index, 0);
    table.set_go(s0, Cost::ZERO, NONE);
    cell_at[start_index] = start;
    heap.push(Cost::ZERO, 0u32, s0);
    // Fewest steps with which each cell has been expanded. Labels leave the heap cheapest
    // first, so a later label for the same cell with as many steps or more costs at least
    // as much and has no more steps left: it is dominated and need not be expanded.
    let mut expanded_with: Vec<u32> = scratch::take(|b| &mut b.counts, cells, u32::MAX);
    while let Some((spent, steps, state)) = heap.pop() {
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
                heap.push(total, steps + 1, next_state);
            }
        }
    }
    heap.give_back();
    scratch::give(|b| &mut b.counts, expanded_with);
    // For each cell, the cheapest state where the piece may stop (fewest steps on a tie).
    let mut chosen: Vec<usize> = scratch::take(|b| &mut b.states, cells, NONE);
    let mut reached = 0usize;
    table.for_each_stop(|state, cost| {
        let c = cell_of_state(state);
        if c == start_index {
            return;
        }
        let old = chosen[c];
        let better = old == NONE || {
            let old_cost = table.stop(old).0;
            cost < old_cost || (cost == old_cost && state < old)
        };
        if better {
            reached += usize::from(old == NONE);
            chosen[c] = state;
        }
    });
    let mut map = path_tree(&table, &chosen, reached, s0, &cell_at, cell_of_state);
    scratch::give(|b| &mut b.states, chosen);
    scratch::give(|b| &mut b.cells, cell_at);
    table.recycle();
    map.sort();
    map
}

/// The paths to the `chosen` state of each cell (`reached` of them, [`NONE`] elsewhere),
/// as one tree: each state on a chosen path gets a node once, so the work is one step per
/// state on some path rather than one per cell of every path. `s0` is the start's state;
/// `cell_at` the cell of each cell index.
fn path_tree(
    table: &States,
    chosen: &[usize],
    reached: usize,
    s0: usize,
    cell_at: &[Cell],
    cell_of_state: impl Fn(usize) -> usize,
) -> ReachMap {
    let mut map = ReachMap {
        cells: Vec::with_capacity(reached),
        tree: Vec::with_capacity(reached),
    };
    let mut nodes = NodeOf::new(table);
    let mut chain: Vec<usize> = Vec::new();
    for (cell_index, &s) in chosen.iter().enumerate() {
        if s == NONE {
            continue;
        }
        // The last step comes from a state the piece could go on from; walk those back to
        // the start or to a state that already has its node.
        chain.clear();
        let mut at = table.stop(s).1;
        while at != NONE && at != s0 && nodes.get(at).is_none() {
            chain.push(at);
            at = table.go(at).1;
        }
        let mut parent = if at == NONE || at == s0 {
            NO_NODE
        } else {
            nodes.get(at).unwrap_or(NO_NODE)
        };
        for &state in chain.iter().rev() {
            map.tree.push((cell_at[cell_of_state(state)], parent));
            parent = u32::try_from(map.tree.len() - 1).unwrap_or(NO_NODE);
            nodes.set(state, parent);
        }
        map.tree.push((cell_at[cell_index], parent));
        map.cells.push(Reachable {
            cell: cell_at[cell_index],
            cost: table.stop(s).0,
            node: u32::try_from(map.tree.len() - 1).unwrap_or(NO_NODE),
        });
    }
    nodes.recycle();
    map
}

const NONE: usize = usize::MAX;
/// [`NONE`] as stored in a dense table.
const NO_STATE: u32 = u32::MAX;

/// A state's best cost and the state it was reached from, for going on (`[0]`) and for
/// stopping (`[1]`). Eight bytes each: dense tables have fewer than 2^32 states.
type Slots = [(Cost, u32); 2];
const EMPTY: Slots = [(Cost::MAX, NO_STATE); 2];

/// Best costs and back-pointers per (cell, steps) state, for going on and for stopping.
enum States {
    Dense(Vec<Slots>),
    Sparse {
        go: std::collections::HashMap<usize, (Cost, usize)>,
        stop: std::collections::HashMap<usize, (Cost, usize)>,
    },
}

fn widen((cost, prev): (Cost, u32)) -> (Cost, usize) {
    (
        cost,
        if prev == NO_STATE {
            NONE
        } else {
            prev as usize
        },
    )
}

impl States {
    /// Dense up to `dense_limit` states (and never 2^32 or more); beyond, only states
    /// actually reached are stored.
    fn new(states: usize, dense_limit: usize) -> Self {
        if states <= dense_limit && states < NO_STATE as usize {
            Self::Dense(scratch::take(|b| &mut b.slots, states, EMPTY))
        } else {
            Self::Sparse {
                go: std::collections::HashMap::new(),
                stop: std::collections::HashMap::new(),
            }
        }
    }

    /// Hands a dense table back for the next query on this thread.
    fn recycle(self) {
        if let Self::Dense(slots) = self {
            scratch::give(|b| &mut b.slots, slots);
        }
    }

    fn go(&self, s: usize) -> (Cost, usize) {
        match self {
            Self::Dense(slots) => slots.get(s).map_or((Cost::MAX, NONE), |x| widen(x[0])),
            Self::Sparse { go, .. } => go.get(&s).copied().unwrap_or((Cost::MAX, NONE)),
        }
    }

    fn stop(&self, s: usize) -> (Cost, usize) {
        match self {
            Self::Dense(slots) => slots.get(s).map_or((Cost::MAX, NONE), |x| widen(x[1])),
            Self::Sparse { stop, .. } => stop.get(&s).copied().unwrap_or((Cost::MAX, NONE)),
        }
    }

    fn set(&mut self, s: usize, which: usize, cost: Cost, prev: usize) {
        match self {
            Self::Dense(slots) => {
                if let Some(slot) = slots.get_mut(s) {
                    // Dense states number fewer than 2^32 - 1, so `prev` fits.
                    slot[which] = (cost, u32::try_from(prev).unwrap_or(NO_STATE));
                }
            }
            Self::Sparse { go, stop } => {
                let map = if which == 0 { go } else { stop };
                map.insert(s, (cost, prev));
            }
        }
    }

    fn set_go(&mut self, s: usize, cost: Cost, prev: usize) {
        self.set(s, 0, cost, prev);
    }

    fn set_stop(&mut self, s: usize, cost: Cost, prev: usize) {
        self.set(s, 1, cost, prev);
    }

    /// Calls `f` with every state where the piece may stop and its cost.
    fn for_each_stop(&self, mut f: impl FnMut(usize, Cost)) {
        match self {
            Self::Dense(slots) => {
                for (s, x) in slots.iter().enumerate() {
                    if x[1].0 != Cost::MAX {
                        f(s, x[1].0);
                    }
                }
            }
            Self::Sparse { stop, .. } => {
                for (s, (c, _)) in stop {
                    f(*s, *c);
                }
            }
        }
    }
}

/// The path-tree node of each state on a chosen path: dense beside a dense table, a map
/// beside a sparse one.
enum NodeOf {
    Dense(Vec<u32>),
    Sparse(std::collections::HashMap<usize, u32>),
}

impl NodeOf {
    fn new(table: &States) -> Self {
        match table {
            States::Dense(slots) => {
                Self::Dense(scratch::take(|b| &mut b.counts, slots.len(), NO_NODE))
            }
            States::Sparse { .. } => Self::Sparse(std::collections::HashMap::new()),
        }
    }

    fn get(&self, state: usize) -> Option<u32> {
        match self {
            Self::Dense(v) => v.get(state).copied().filter(|n| *n != NO_NODE),
            Self::Sparse(m) => m.get(&state).copied(),
        }
    }

    fn set(&mut self, state: usize, node: u32) {
        match self {
            Self::Dense(v) => {
                if let Some(slot) = v.get_mut(state) {
                    *slot = node;
                }
            }
            Self::Sparse(m) => {
                m.insert(state, node);
            }
        }
    }

    fn recycle(self) {
        if let Self::Dense(v) = self {
            scratch::give(|b| &mut b.counts, v);
        }
    }
}

/// Per-thread buffers reused from one reach query to the next. A query on a 100 × 100
/// board needs a few hundred kilobytes of per-cell tables; allocated afresh each time, the
/// allocator hands such blocks back to the system and every query pays page faults to get
/// them again.
mod scratch {
    use std::cell::RefCell;
    use std::cmp::Reverse;

    use super::Slots;
    use super::plain::Spot;
    use crate::cost::Cost;
    use crate::geometry::Cell;

    /// Spare buffers, a few of each kind (a query run inside another's hook takes its own).
    #[derive(Default)]
    pub(super) struct Buffers {
        pub(super) slots: Vec<Vec<Slots>>,
        pub(super) cells: Vec<Vec<Cell>>,
        pub(super) counts: Vec<Vec<u32>>,
        pub(super) states: Vec<Vec<usize>>,
        pub(super) heap: Vec<Vec<Reverse<(Cost, u32, usize)>>>,
        pub(super) buckets: Vec<Vec<Vec<(u32, usize)>>>,
        pub(super) spots: Vec<Vec<Spot>>,
        pub(super) bytes: Vec<Vec<u8>>,
    }

    /// Spare buffers kept per kind.
    const KEEP: usize = 4;

    thread_local! {
        static SPARE: RefCell<Buffers> = RefCell::new(Buffers::default());
    }

    /// A buffer of `len` copies of `fill`, reusing a spare one when there is one.
    pub(super) fn take<T: Clone>(
        kind: fn(&mut Buffers) -> &mut Vec<Vec<T>>,
        len: usize,
        fill: T,
    ) -> Vec<T> {
        let mut v = SPARE
            .try_with(|s| kind(&mut s.borrow_mut()).pop())
            .ok()
            .flatten()
            .unwrap_or_default();
        v.clear();
        v.resize(len, fill);
        v
    }

    /// `len` empty buckets, keeping the room a spare set's buckets grew in earlier queries.
    pub(super) fn take_buckets(len: usize) -> Vec<Vec<(u32, usize)>> {
        let mut v = SPARE
            .try_with(|s| s.borrow_mut().buckets.pop())
            .ok()
            .flatten()
            .unwrap_or_default();
        for bucket in &mut v {
            bucket.clear();
        }
        v.resize(len, Vec::new());
        v
    }

    /// Keeps `v` for a later [`take`] on this thread.
    pub(super) fn give<T>(kind: fn(&mut Buffers) -> &mut Vec<Vec<T>>, v: Vec<T>) {
        // During thread exit the spares are gone; the buffer is then simply dropped.
        let _ = SPARE.try_with(|s| {
            let mut s = s.borrow_mut();
            let spare = kind(&mut s);
            if spare.len() < KEEP {
                spare.push(v);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::SquareGrid;

    /// The bucket queue hands labels out in exactly the heap's order (cost, then steps,
    /// then state), free steps into the bucket being handed out included, so a query
    /// chooses the same paths whichever it uses.
    #[test]
    fn buckets_hand_out_labels_in_the_heaps_order() {
        for seed in 0..50u64 {
            let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let mut next = |m: u64| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % m
            };
            let budget = Cost::from_hundredths(2_000);
            let mut buckets = Open::new(budget);
            let mut heap = Open::Heap(BinaryHeap::new());
            assert!(matches!(buckets, Open::Buckets { .. }));
            for (q, cost) in [(&mut buckets, Cost::ZERO), (&mut heap, Cost::ZERO)] {
                q.push(cost, 0, 0);
            }
            let mut out = (Vec::new(), Vec::new());
            loop {
                let (a, b) = (buckets.pop(), heap.pop());
                assert_eq!(a, b, "seed {seed}");
                let Some((spent, steps, _)) = a else { break };
                out.0.push(a);
                out.1.push(b);
                // Each label opens a few more, never cheaper (a free step now and then).
                for _ in 0..1 + next(3) {
                    let step = [0, 50, 100, 150][next(4) as usize];
                    let total = spent.saturating_add(Cost::from_hundredths(step));
                    if total > budget || out.0.len() > 2_000 {
                        continue;
                    }
                    let state = next(500) as usize;
                    buckets.push(total, steps + 1, state);
                    heap.push(total, steps + 1, state);
                }
            }
            assert!(out.0.len() > 1, "seed {seed}: nothing was searched");
        }
    }

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
                let frame = Frame {
                    grid: &grid,
                    start,
                    budget,
                    max_steps: max,
                    cells,
                };
                let dense = reach_with(frame, index, enter, usize::MAX);
                let sparse = reach_with(frame, index, enter, 0);
                assert_eq!(dense, sparse, "seed {seed}, max {max:?}");
            }
        }
    }
}
