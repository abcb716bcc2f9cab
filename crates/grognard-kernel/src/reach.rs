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
    let layers = max_steps.map_or(1, |m| m as usize + 1);
    let Some(start_index) = index(start) else {
        return Vec::new();
    };
    let states = cells.saturating_mul(layers);
    let mut best = vec![Cost::MAX; states];
    let mut prev: Vec<u32> = vec![u32::MAX; states];
    let mut stoppable = vec![false; states];
    let state_of = |cell_index: usize, steps: u32| -> usize {
        if max_steps.is_some() {
            cell_index * layers + steps as usize
        } else {
            cell_index
        }
    };
    let mut cell_at: Vec<Cell> = vec![Cell::default(); cells];
    let mut heap = BinaryHeap::new();
    let s0 = state_of(start_index, 0);
    best[s0] = Cost::ZERO;
    cell_at[start_index] = start;
    heap.push(Reverse((Cost::ZERO, 0u32, s0 as u32)));
    while let Some(Reverse((spent, steps, state))) = heap.pop() {
        let state = state as usize;
        if spent > best[state] {
            continue;
        }
        let here = cell_at[state / if max_steps.is_some() { layers } else { 1 }];
        if max_steps.is_some_and(|m| steps >= m) {
            continue;
        }
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
            if total < best[next_state] {
                best[next_state] = total;
                prev[next_state] = state as u32;
                stoppable[next_state] = entry.can_stop;
                cell_at[next_index] = next;
                if entry.can_continue {
                    heap.push(Reverse((total, steps + 1, next_state as u32)));
                }
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
            if stoppable[s] && best[s] != Cost::MAX && chosen.is_none_or(|c| best[s] < best[c]) {
                chosen = Some(s);
            }
        }
        if let Some(s) = chosen {
            let mut path = Vec::new();
            let mut at = s;
            while at != s0 && at != u32::MAX as usize {
                let ci = if max_steps.is_some() { at / layers } else { at };
                path.push(cell_at[ci]);
                at = prev[at] as usize;
            }
            path.reverse();
            out.push(Reachable {
                cell: cell_at[cell_index],
                cost: best[s],
                path,
            });
        }
    }
    out.sort_by_key(|r| (r.cell.row, r.cell.col));
    out
}
