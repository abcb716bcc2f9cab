//! The reach oracle: an independent shortest-path search written from the documented
//! movement rules (not by calling the kernel's reach), which the property tests
//! (`game_props.rs`) and the hand-made cases (`game_cases.rs`) check `Game::reach` against.

use std::collections::BTreeMap;

use grognard_kernel::Cost;
use grognard_kernel::board::Board;
use grognard_kernel::game::Game;
use grognard_kernel::geometry::{Cell, Facing, Grid, square};
use grognard_kernel::ids::{FeatureId, PieceId};
use grognard_kernel::piece::Piece;
use grognard_kernel::rules::{FeatureKind, Rules};

use super::CAPACITY;

/// What one step means for a mover, as the oracle reads the rules.
#[derive(Clone, Copy, Debug)]
struct Step {
    cost: Cost,
    can_stop: bool,
    can_continue: bool,
}

/// The barriers a step crosses, written from the documented rule of
/// `Board::barriers_crossed` rather than calling it: those on the step's own link; and, for
/// a diagonal square step, every barrier on the four edges around the corner when
/// barriers cut both ways round it (each way passes a side cell over two edges).
fn barriers_crossed(
    rules: &Rules,
    board: &Board,
    grid: &Grid,
    from: Cell,
    dir: Facing,
    to: Cell,
) -> Vec<FeatureId> {
    let is_barrier =
        |f: &FeatureId| matches!(rules.features[f.index()].kind, FeatureKind::Barrier { .. });
    let on = |a: Cell, b: Cell| -> Vec<FeatureId> {
        board
            .features_between(a, b)
            .iter()
            .copied()
            .filter(is_barrier)
            .collect()
    };
    let mut out = on(from, to);
    if matches!(grid, Grid::Square(_)) && square::is_diagonal(dir) {
        let (s1, s2) = (Cell::new(to.col, from.row), Cell::new(from.col, to.row));
        let edges = [(from, s1), (s1, to), (from, s2), (s2, to)];
        let cut = |i: usize| !on(edges[i].0, edges[i].1).is_empty();
        if (cut(0) || cut(1)) && (cut(2) || cut(3)) {
            for (a, b) in edges {
                for f in on(a, b) {
                    if !out.contains(&f) {
                        out.push(f);
                    }
                }
            }
        }
    }
    out
}

/// The three cells a piece's zone of control covers: ahead and either side of ahead.
fn front3(grid: &Grid, at: Cell, facing: Facing) -> [Cell; 3] {
    let n = grid.facings();
    let f = facing.0 % n;
    [(f + n - 1) % n, f, (f + 1) % n].map(|d| grid.neighbour(at, Facing(d)))
}

/// One step for `mover` from `from` to its neighbour `to`, re-derived from the `Rules`
/// data alone (grid step + barrier or crossing + terrain from the movement class unless on
/// a road in a road-using mode; enemies block; a friendly place the mover may not stop in
/// is passable only for `passes_friends` types; zones of control and costly terrain stop
/// the move). `None` = the step is not allowed.
fn oracle_step(
    rules: &Rules,
    board: &Board,
    pieces: &[Piece],
    mover: &Piece,
    from: Cell,
    dir: Facing,
    to: Cell,
) -> Option<Step> {
    let grid = board.grid()?;
    if !board.contains(to) {
        return None;
    }
    let ty = &rules.piece_types[mover.kind.index()];
    let mode = &rules.modes[mover.mode.index()];
    let kind = |f: &FeatureId| &rules.features[f.index()].kind;
    // Roads and crossings count only on the step's own link.
    let direct = board.features_between(from, to);
    let on_road = direct.iter().any(|f| *kind(f) == FeatureKind::Road);
    if mode.roads_only && !on_road {
        return None;
    }
    let base = grid.step_cost(dir);
    let mut cost = base;
    let barriers = barriers_crossed(rules, board, grid, from, dir, to);
    let crossing = direct.iter().find_map(|f| match kind(f) {
        FeatureKind::Crossing { cost } => Some(*cost),
        _ => None,
    });
    match crossing {
        // A bridge or ford takes the step over every barrier, once, at its own cost.
        Some(c) if !barriers.is_empty() => cost += c,
        _ => {
            for f in &barriers {
                match kind(f) {
                    FeatureKind::Barrier { cost: Some(c) } => cost += *c,
                    _ => return None,
                }
            }
        }
    }
    let class = &rules.move_classes[ty.move_class.index()];
    // Terrain the class may not enter stays closed on a road; a road only waives the cost.
    let terrain_extra = class.enter[board.terrain(to).index()]?;
    if !(on_road && mode.uses_roads) {
        cost += terrain_extra;
    }
    if pieces
        .iter()
        .any(|p| p.side != mover.side && p.place.covers(to))
    {
        return None;
    }
    let friends: Vec<&Piece> = pieces
        .iter()
        .filter(|p| p.id != mover.id && p.side == mover.side && p.place.covers(to))
        .collect();
    let weight = |p: &Piece| rules.piece_types[p.kind.index()].stack[0].hundredths();
    let load: i32 = friends.iter().map(|p| weight(p)).sum::<i32>() + weight(mover);
    let unstackable = !friends.is_empty()
        && (!mode.stacks || friends.iter().any(|p| !rules.modes[p.mode.index()].stacks));
    let can_stop = load <= CAPACITY && !unstackable;
    if !can_stop && !ty.passes_friends {
        return None;
    }
    let in_zoc = rules.zoc.stops_movement
        && pieces.iter().any(|p| {
            p.side != mover.side
                && rules.piece_types[p.kind.index()].exerts_zoc
                && rules
                    .zoc
                    .lost_with_counters
                    .iter()
                    .all(|c| p.counter(*c) <= 0)
                && p.place
                    .cell()
                    .is_some_and(|at| front3(grid, at, p.facing).contains(&to))
        });
    let costly = class.stops_on_costly && cost > base;
    Some(Step {
        cost,
        can_stop,
        can_continue: !in_zoc && !costly,
    })
}

/// A cheapest way to end a move in a cell: its cost and the cells entered.
pub type Route = (Cost, Vec<Cell>);

/// Keeps the cheaper of two routes (the first found on a tie).
fn keep_cheaper(slot: &mut BTreeMap<Cell, Route>, at: Cell, cost: Cost, path: &[Cell]) {
    if slot.get(&at).is_none_or(|(c, _)| cost < *c) {
        slot.insert(at, (cost, path.to_vec()));
    }
}

/// The cheapest cost (and a path of that cost) to end a move in each cell other than the
/// start, by dynamic programming over the exact number of steps taken: `going` holds,
/// after `k` rounds, the cheapest cost of standing in a cell after `k` steps *and being
/// allowed to go on*; every step out of it that stays within the allowance is a place to
/// end (if the step allows stopping) and, if it allows continuing, an entry of the next
/// round. Stopping and continuing are kept apart, so a cheap arrival that must stop never
/// hides a dearer one that may go on. It shares nothing with the kernel's Dijkstra: no
/// priority queue, no pruning by cost, and the step limit is the loop bound. Every step
/// costs at least 1, so without a step limit there are at most `allowance` + 1 rounds.
pub fn oracle_routes(game: &Game, id: PieceId) -> BTreeMap<Cell, Route> {
    let rules = game.rules();
    let board = game.board();
    let pieces = &game.state().pieces;
    let mover = &pieces[id.index()];
    let grid = board.grid().expect("a grid board");
    let ty = &rules.piece_types[mover.kind.index()];
    let allowance = ty.allowance[mover.mode.index()].expect("a mode the type may take");
    let rounds = ty.max_steps[mover.mode.index()]
        .unwrap_or(u32::try_from(allowance.hundredths() / 100).unwrap_or(0) + 1);
    let start = mover.place.cell().expect("on a cell");
    let mut ends: BTreeMap<Cell, Route> = BTreeMap::new();
    let mut going: BTreeMap<Cell, Route> = BTreeMap::from([(start, (Cost::ZERO, vec![]))]);
    for _ in 0..rounds {
        let mut next: BTreeMap<Cell, Route> = BTreeMap::new();
        for (&here, (spent, path)) in &going {
            for (dir, to) in grid.neighbours(here) {
                let Some(step) = oracle_step(rules, board, pieces, mover, here, dir, to) else {
                    continue;
                };
                let total = *spent + step.cost;
                if total > allowance {
                    continue;
                }
                let mut longer = path.clone();
                longer.push(to);
                if step.can_stop && to != start {
                    keep_cheaper(&mut ends, to, total, &longer);
                }
                if step.can_continue {
                    keep_cheaper(&mut next, to, total, &longer);
                }
            }
        }
        going = next;
    }
    ends
}

/// The oracle's costs alone.
pub fn oracle_reach(game: &Game, id: PieceId) -> BTreeMap<Cell, Cost> {
    oracle_routes(game, id)
        .into_iter()
        .map(|(cell, (cost, _))| (cell, cost))
        .collect()
}
