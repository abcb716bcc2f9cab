//! Reachability: every cell a piece can get to, with cost and path, as a free function over
//! a cost closure (the shape of hexx's `field_of_movement`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

use crate::cost::Cost;
use crate::geometry::{Cell, Facing, Grid};

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
    mut enter: impl FnMut(Cell, Facing, Cell, Cost) -> Option<Entry>,
) -> Vec<Reachable> {
    const NONE: u32 = u32::MAX;
    let layers = max_steps.map_or(1, |m| m as usize + 1);
    let Some(start_index) = index(start) else {
        return Vec::new();
    };
    let states = cells.saturating_mul(layers);
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
    // stop (entering a zone of control) must not hide a dearer one that may go on.
    let mut best_go = vec![Cost::MAX; states];
    let mut prev_go: Vec<u32> = vec![NONE; states];
    let mut best_stop = vec![Cost::MAX; states];
    let mut prev_stop: Vec<u32> = vec![NONE; states];
    let mut cell_at: Vec<Cell> = vec![Cell::default(); cells];
    let mut heap = BinaryHeap::new();
    let s0 = state_of(start_index, 0);
    best_go[s0] = Cost::ZERO;
    cell_at[start_index] = start;
    heap.push(Reverse((Cost::ZERO, 0u32, s0 as u32)));
    while let Some(Reverse((spent, steps, state))) = heap.pop() {
        let state = state as usize;
        if spent > best_go[state] {
            continue;
        }
        if max_steps.is_some_and(|m| steps >= m) {
            continue;
        }
        let here = cell_at[cell_of_state(state)];
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
            if entry.can_stop && total < best_stop[next_state] {
                best_stop[next_state] = total;
                prev_stop[next_state] = state as u32;
            }
            if entry.can_continue && total < best_go[next_state] {
                best_go[next_state] = total;
                prev_go[next_state] = state as u32;
                heap.push(Reverse((total, steps + 1, next_state as u32)));
            }
        }
    }
    // For each cell, the cheapest state where the piece may stop.
    let mut out = Vec::new();
    for cell_index in 0..cells {
        if cell_index == start_index {
            continue;
        }
        let mut chosen: Option<usize> = None;
        for layer in 0..layers {
            let s = if max_steps.is_some() {
                cell_index * layers + layer
            } else {
                cell_index
            };
            if best_stop[s] != Cost::MAX && chosen.is_none_or(|c| best_stop[s] < best_stop[c]) {
                chosen = Some(s);
            }
        }
        if let Some(s) = chosen {
            // The last step comes from a state the piece could go on from; walk those back.
            let mut path = vec![cell_at[cell_of_state(s)]];
            let mut at = prev_stop[s];
            while at != NONE && at as usize != s0 {
                path.push(cell_at[cell_of_state(at as usize)]);
                at = prev_go[at as usize];
            }
            path.reverse();
            out.push(Reachable {
                cell: cell_at[cell_index],
                cost: best_stop[s],
                path,
            });
        }
    }
    out.sort_by_key(|r| (r.cell.row, r.cell.col));
    out
}
