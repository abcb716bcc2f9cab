//! Property tests of the game model: reach against an independent shortest-path oracle,
//! determinism, refusals that change nothing, invariants over whole random games, and
//! replay of accepted orders.
//!
//! The ruleset and random boards are built by hand in `common` (no YAML). Random orders are
//! drawn as raw numbers ([`OrderSeed`]) and turned into orders against the game as it
//! stands, so the same seeds always give the same orders for the same game, and a mix of
//! well-formed and malformed ones.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use common::{
    BoardSpec, CAPACITY, CAVALRY, COLUMN, FIRED, Geo, HITS, HITS_REMOVE_AT, INFANTRY, MODES,
    PieceSpec, Roads, STRATEGIC, VOLLEY,
};
use grognard_kernel::Cost;
use grognard_kernel::action::{Action, Event, LoggedDie, Order, Refusal, RefusalKind};
use grognard_kernel::board::Board;
use grognard_kernel::dice::{DiceExpr, DiceTerm};
use grognard_kernel::game::{Game, Reach, Setup, World};
use grognard_kernel::geometry::{Cell, Facing, Grid, square};
use grognard_kernel::hooks::{HookCommand, HookDice, HookFailure, Hooks, NoHooks};
use grognard_kernel::ids::{ActionId, DieId, FeatureId, ModeId, PieceId, SideId};
use grognard_kernel::piece::{Piece, Place};
use grognard_kernel::rules::{Actor, Allowed, FeatureKind, Rules};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};

/// Debug builds of the kernel are slow-ish; these counts keep the whole file to a few
/// seconds. `PROPTEST_CASES` overrides them for a longer soak. No failure persistence: a
/// failing case is printed (with its minimal input) in the test output, and this suite
/// writes no files beside itself.
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------
// The reach oracle
// ---------------------------------------------------------------------------------------

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
type Route = (Cost, Vec<Cell>);

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
fn oracle_routes(game: &Game, id: PieceId) -> BTreeMap<Cell, Route> {
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
fn oracle_reach(game: &Game, id: PieceId) -> BTreeMap<Cell, Cost> {
    oracle_routes(game, id)
        .into_iter()
        .map(|(cell, (cost, _))| (cell, cost))
        .collect()
}

/// Applies `path` as a move of `piece` to a copy of `game` and checks it is accepted as
/// one `Moved` event through exactly those cells, costing `cost`.
fn check_move(
    game: &Game,
    piece: &Piece,
    path: &[Cell],
    cost: Cost,
    whose: &str,
) -> Result<(), TestCaseError> {
    let mut g = game.clone();
    let order = Order {
        side: piece.side,
        action: Action::Move {
            piece: piece.id,
            path: path.to_vec(),
        },
    };
    let events = g.apply(&order, &mut NoHooks);
    let mut full = vec![piece.place.cell().expect("on a cell")];
    full.extend(path);
    let ok = matches!(
        events.as_deref(),
        Ok([Event::Moved { piece: p, path: moved, cost: paid, .. }])
            if *p == piece.id && *moved == full && *paid == cost
    );
    prop_assert!(
        ok,
        "moving {} along the {whose} path {:?} gave {:?}; the {whose} said it costs {}",
        piece.name,
        path,
        events,
        cost
    );
    Ok(())
}

/// The game advanced (by ending phases) to the movement phase of `side`, so that side's
/// pieces may be ordered to move. Only the phase cursor changes.
fn movement_phase_of(game: &Game, side: SideId) -> Game {
    let mut g = game.clone();
    while g
        .phase()
        .is_some_and(|(p, s)| p.name != "movement" || s != side)
    {
        end_current_phase(&mut g).expect("ending a phase is always allowed");
    }
    g
}

/// The sides that may act in the current phase and have not ended it yet.
fn open_sides(game: &Game) -> Vec<SideId> {
    let Some((phase, phasing)) = game.phase() else {
        return vec![];
    };
    let sides = (0..game.sides().len() as u8).map(SideId);
    match phase.actor {
        Actor::Phasing => vec![phasing],
        // Any one non-phasing side ends the phase for all of them.
        Actor::NonPhasing => sides.filter(|s| *s != phasing).take(1).collect(),
        Actor::Both => sides.filter(|s| !game.state().done[s.index()]).collect(),
    }
}

/// Every side that must, ends the current phase.
fn end_current_phase(game: &mut Game) -> Result<(), Refusal> {
    for side in open_sides(game) {
        game.apply(
            &Order {
                side,
                action: Action::EndPhase,
            },
            &mut NoHooks,
        )?;
    }
    Ok(())
}

/// True when a piece's movement class ends its move on costly steps. Whether a step is
/// costly depends on the boundary crossed (a road, a ford), not only on the cell entered,
/// which is what trips the kernel's reach (see `reach_misses_cells_behind_a_costly_stop`).
fn stops_on_costly(game: &Game, piece: &Piece) -> bool {
    let rules = game.rules();
    rules.move_classes[rules.piece_types[piece.kind.index()].move_class.index()].stops_on_costly
}

/// Property 1 for one game: for every piece on the board that `which` selects, every
/// path the kernel's reach returns and every path the oracle finds is accepted by
/// `Game::apply` as a move of exactly the stated cost (so both are sound, checked against
/// the game's own move validation), and the two agree on the cells and their costs (so
/// reach is complete and minimal). When they disagree, the first two checks say which one
/// is wrong.
fn check_reach(game: &Game, which: impl Fn(&Piece) -> bool) -> Result<(), TestCaseError> {
    let mut by_side: BTreeMap<SideId, Game> = BTreeMap::new();
    for piece in game
        .state()
        .pieces
        .iter()
        .filter(|p| p.on_board() && which(p))
    {
        let Ok(Reach::Cells(cells)) = game.reach(piece.id, &mut NoHooks) else {
            return Err(TestCaseError::fail(format!(
                "no grid reach for {}",
                piece.name
            )));
        };
        if piece.moved {
            prop_assert!(
                cells.is_empty(),
                "{} has moved but reaches {:?}",
                piece.name,
                cells
            );
            continue;
        }
        let ty = &game.rules().piece_types[piece.kind.index()];
        let mover = by_side
            .entry(piece.side)
            .or_insert_with(|| movement_phase_of(game, piece.side));
        // Late in the last turn the side may have no movement phase left to try moves in.
        let can_try = mover.phase().is_some();
        for r in &cells {
            let path = cells.path(r);
            prop_assert_eq!(path.last(), Some(&r.cell));
            prop_assert_eq!(cells.path_to(r.cell), Some(path.clone()));
            if let Some(max) = ty.max_steps[piece.mode.index()] {
                prop_assert!(path.len() <= max as usize);
            }
            if can_try {
                check_move(mover, piece, &path, r.cost, "reach")?;
            }
        }
        let routes = oracle_routes(game, piece.id);
        for (cost, path) in routes.values().filter(|_| can_try) {
            check_move(mover, piece, path, *cost, "oracle")?;
        }
        let kernel: BTreeMap<Cell, Cost> = cells.iter().map(|r| (r.cell, r.cost)).collect();
        let oracle: BTreeMap<Cell, Cost> = routes.iter().map(|(c, (k, _))| (*c, *k)).collect();
        prop_assert_eq!(
            &kernel,
            &oracle,
            "reach of {} ({:?} in mode {}) from {:?}",
            piece.name,
            piece.kind,
            game.rules().mode_name(piece.mode),
            piece.place
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Random orders
// ---------------------------------------------------------------------------------------

/// Raw numbers that [`interpret`] turns into an order against the current game.
#[derive(Clone, Debug)]
struct OrderSeed {
    kind: u8,
    piece: u16,
    a: u16,
    b: u16,
    dirs: Vec<u8>,
}

fn order_seeds(len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<OrderSeed>> {
    let seed = (
        0u8..20,
        any::<u16>(),
        any::<u16>(),
        any::<u16>(),
        prop::collection::vec(any::<u8>(), 0..8),
    )
        .prop_map(|(kind, piece, a, b, dirs)| OrderSeed {
            kind,
            piece,
            a,
            b,
            dirs,
        });
    prop::collection::vec(seed, len)
}

/// What an order does, before it is filled in.
#[derive(Clone, Copy)]
enum Category {
    Move,
    Face,
    Mode,
    Volley,
}

/// An order for the game as it stands. By `seed.kind`:
/// - 0–11: something the current phase allows (a move, facing, mode or volley, whichever
///   the phase lists; mostly moves when it allows them), well-formed or not (see
///   [`fill`]);
/// - 12–14: any of those whatever the phase (so often out of phase);
/// - 15–17: a side that may act ends the phase (often, so games reach their end; half as
///   often in a movement phase);
/// - 18: the other side moves, or it (or a side that does not exist) ends the phase;
/// - 19: an order for a piece id that does not exist.
///
/// Orders come from a side that may act in the phase (the phasing side; the other side
/// in defensive fire; either side that has not yet ended the rally) unless said
/// otherwise. Whether an order is legal is for the game to say; this only makes sure both
/// kinds occur often.
fn interpret(game: &Game, seed: &OrderSeed) -> Order {
    let open = open_sides(game);
    let acting = open
        .get(usize::from(seed.piece / 7) % open.len().max(1))
        .copied()
        .unwrap_or(SideId(0));
    let other = SideId(1 - acting.0);
    let allowed: Vec<Category> = game.phase().map_or(vec![], |(phase, _)| {
        phase
            .allows
            .iter()
            .map(|a| match a {
                Allowed::Move => Category::Move,
                Allowed::Face => Category::Face,
                Allowed::Mode => Category::Mode,
                Allowed::Action(_) => Category::Volley,
            })
            .collect()
    });
    let any = [
        Category::Move,
        Category::Face,
        Category::Mode,
        Category::Volley,
    ];
    let end = |side| Order {
        side,
        action: Action::EndPhase,
    };
    let moves = allowed.iter().any(|c| matches!(c, Category::Move));
    match seed.kind {
        // Mostly moves where moving is allowed: they are what meets the board.
        0..=6 if moves => fill(game, seed, acting, Category::Move),
        0..=11 if !allowed.is_empty() => fill(
            game,
            seed,
            acting,
            allowed[usize::from(seed.kind) % allowed.len()],
        ),
        0..=14 => fill(game, seed, acting, any[usize::from(seed.kind) % any.len()]),
        // Half as often in a movement phase, so that pieces get to move.
        15..=17 if moves && seed.a.is_multiple_of(2) => fill(game, seed, acting, Category::Move),
        15..=17 => end(acting),
        18 => match seed.a % 3 {
            0 => fill(game, seed, other, Category::Move),
            1 => end(other),
            _ => end(SideId(2)),
        },
        _ => Order {
            side: acting,
            action: Action::Move {
                piece: PieceId(game.state().pieces.len() as u32 + u32::from(seed.a % 5)),
                path: vec![Cell::new(0, 0)],
            },
        },
    }
}

/// An order of `category` given by `side`, for one of its pieces on the board. Variants
/// by `seed.a`:
/// - moves: mostly a path from the piece's reach; else a random walk (may leave the
///   board, enter lakes, cross rivers, overrun stacks), a broken path (a jump of two
///   cells, a cell off the board, the start cell, no cells) or an enemy piece;
/// - facings and modes: sometimes one the grid or ruleset does not have;
/// - volleys: mostly a pair of pieces in range, the actor of a type that may fire (arc,
///   sight and `fired` may still refuse it); else
///   any target id (own pieces, removed pieces, one past the last), no target, or an
///   action that does not exist.
fn fill(game: &Game, seed: &OrderSeed, side: SideId, category: Category) -> Order {
    let grid = *game.board().grid().expect("a grid board");
    let pieces = &game.state().pieces;
    let n = pieces.len() as u32;
    let own: Vec<&Piece> = pieces
        .iter()
        .filter(|p| p.side == side && p.on_board())
        .collect();
    let enemies: Vec<&Piece> = pieces
        .iter()
        .filter(|p| p.side != side && p.on_board())
        .collect();
    let may_fire = |p: &&Piece| {
        let types = &game.rules().actions[VOLLEY.index()].types;
        types.is_empty() || types.contains(&p.kind)
    };
    // Mostly a piece that can still do it: one that has not moved, or one that may fire.
    let fresh: Vec<&Piece> = match category {
        Category::Move => own.iter().copied().filter(|p| !p.moved).collect(),
        Category::Volley => own.iter().copied().filter(may_fire).collect(),
        _ => vec![],
    };
    if matches!(category, Category::Move) && fresh.is_empty() && seed.b.is_multiple_of(2) {
        // Everyone has moved: usually time to end the phase.
        return Order {
            side,
            action: Action::EndPhase,
        };
    }
    let choice = if fresh.is_empty() || seed.b.is_multiple_of(5) {
        &own
    } else {
        &fresh
    };
    let Some(piece) = choice
        .get(usize::from(seed.piece) % choice.len().max(1))
        .map(|p| (*p).clone())
    else {
        return Order {
            side,
            action: Action::EndPhase,
        };
    };
    let start = piece.place.cell().unwrap_or_default();
    // A walk through neighbours on the board (it leaves the board only at its last step,
    // when a roll says so), to meet terrain, rivers, stacks, zones and the allowance.
    let walk = || {
        let mut at = start;
        let last = seed.dirs.len().saturating_sub(1);
        seed.dirs
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let next: Vec<Cell> = grid
                    .neighbours(at)
                    .map(|(_, c)| c)
                    .filter(|c| game.board().contains(*c) || (i == last && d.is_multiple_of(16)))
                    .collect();
                at = next[usize::from(*d) % next.len()];
                at
            })
            .collect::<Vec<_>>()
    };
    let action = match category {
        Category::Move => {
            let (id, path) = match seed.a % 10 {
                0..=5 => match game.reach(piece.id, &mut NoHooks) {
                    Ok(Reach::Cells(cells)) if !cells.is_empty() => {
                        let pick = usize::from(seed.b) % cells.len();
                        (piece.id, cells.path(&cells[pick]))
                    }
                    _ => (piece.id, walk()),
                },
                6 => (piece.id, walk()),
                7 => {
                    let broken = match seed.b % 4 {
                        0 => vec![Cell::new(start.col + 2, start.row)],
                        1 => vec![Cell::new(-1, start.row)],
                        2 => vec![start],
                        _ => vec![],
                    };
                    (piece.id, broken)
                }
                _ => {
                    let enemy = enemies
                        .get(usize::from(seed.b) % enemies.len().max(1))
                        .map_or(PieceId(n), |p| p.id);
                    (enemy, walk())
                }
            };
            Action::Move { piece: id, path }
        }
        Category::Face => Action::Face {
            piece: piece.id,
            facing: Facing((seed.a % (u16::from(grid.facings()) + 2)) as u8),
        },
        Category::Mode => Action::Mode {
            piece: piece.id,
            mode: ModeId(seed.a % (MODES + 1)),
        },
        Category::Volley => {
            let in_range: Vec<(PieceId, PieceId)> = own
                .iter()
                .copied()
                .filter(may_fire)
                .flat_map(|a| enemies.iter().map(move |t| (a, t)))
                .filter(|(a, t)| game.distance(a, t).is_some_and(|d| (1..=3).contains(&d)))
                .map(|(a, t)| (a.id, t.id))
                .collect();
            let (actor, action, target) = match seed.a % 10 {
                0..=6 if !in_range.is_empty() => {
                    let (a, t) = in_range[usize::from(seed.b) % in_range.len()];
                    (a, VOLLEY, Some(t))
                }
                0..=7 => (piece.id, VOLLEY, Some(PieceId(u32::from(seed.b) % (n + 1)))),
                8 => (piece.id, VOLLEY, None),
                _ => (piece.id, ActionId(7), Some(piece.id)),
            };
            Action::Act {
                piece: actor,
                action,
                target,
                intent: Vec::new(),
            }
        }
    };
    Order { side, action }
}

/// One applied order: the game before and after, the order and what `apply` said.
struct Applied<'a> {
    before: &'a Game,
    order: &'a Order,
    result: &'a Result<Vec<Event>, Refusal>,
    after: &'a Game,
}

/// Plays `seeds` on `game`, calling `check` after every order; returns the accepted
/// orders.
fn play(
    game: &mut Game,
    seeds: &[OrderSeed],
    check: impl FnMut(&Applied<'_>) -> Result<(), TestCaseError>,
) -> Result<Vec<Order>, TestCaseError> {
    play_with(game, seeds, &mut NoHooks, check)
}

/// [`play`] with the given hooks.
fn play_with(
    game: &mut Game,
    seeds: &[OrderSeed],
    hooks: &mut dyn Hooks,
    mut check: impl FnMut(&Applied<'_>) -> Result<(), TestCaseError>,
) -> Result<Vec<Order>, TestCaseError> {
    let mut accepted = Vec::new();
    for seed in seeds {
        let order = interpret(game, seed);
        let before = game.clone();
        let result = game.apply(&order, hooks);
        check(&Applied {
            before: &before,
            order: &order,
            result: &result,
            after: game,
        })?;
        if result.is_ok() {
            accepted.push(order);
        }
    }
    Ok(accepted)
}

/// Random words drawn for the dice in `events`, all and for initiative alone: one per die,
/// and one more for each re-rolled die.
fn dice_logged(events: &[Event]) -> (u128, u128) {
    let words = |dice: &[LoggedDie]| -> u128 {
        dice.iter()
            .map(|d| 1 + u128::from(d.rerolled_from.is_some()))
            .sum()
    };
    let mut all = 0;
    let mut initiative = 0;
    for e in events {
        match e {
            Event::Acted { roll: Some(r), .. } => all += words(&r.dice),
            Event::Rolled { roll } => all += words(&roll.dice),
            Event::Initiative { rolls, .. } => {
                let n: u128 = rolls.iter().map(|(_, dice, _)| words(dice)).sum();
                all += n;
                initiative += n;
            }
            _ => {}
        }
    }
    (all, initiative)
}

/// Hooks that fail now and then (every `period`-th call, counting all kinds), and
/// otherwise keep the data's move costs, now and then end a move early (`stops`), and, as
/// each phase begins, roll a die (through
/// the game's RNG, logged) and add a hit to the piece it picks, or name a piece that does
/// not exist (which refuses the order). With `modes`, they also force a piece into a mode
/// it may take. A failing hook — even one that has already rolled — must refuse the order
/// and change nothing, RNG position included.
struct Chaos {
    calls: u64,
    period: u64,
    modes: bool,
}

impl Chaos {
    fn new(period: u64) -> Self {
        Self {
            calls: 0,
            period,
            modes: false,
        }
    }

    fn tick(&mut self) -> Result<(), HookFailure> {
        self.calls += 1;
        if self.calls.is_multiple_of(self.period) {
            Err(HookFailure {
                message: format!("chaos at call {}", self.calls),
            })
        } else {
            Ok(())
        }
    }
}

impl Hooks for Chaos {
    fn move_cost(
        &mut self,
        _: &World<'_>,
        _: PieceId,
        _: Cell,
        _: Cell,
        data: Option<Cost>,
    ) -> Result<Option<Cost>, HookFailure> {
        self.tick()?;
        Ok(data)
    }

    fn stops(&mut self, _: &World<'_>, _: PieceId, _: Cell, _: Cell) -> Result<bool, HookFailure> {
        self.tick()?;
        Ok(self.calls.is_multiple_of(5))
    }

    fn phase_begin(
        &mut self,
        world: &World<'_>,
        phase: &str,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let d6 = DiceExpr {
            terms: vec![DiceTerm {
                count: 1,
                die: DieId(0),
            }],
        };
        let (_, roll) = dice.roll(&d6, phase);
        self.tick()?;
        let n = world.state.pieces.len() as u64;
        // One time in eight, one past the last piece.
        let piece = if self.calls.is_multiple_of(8) {
            PieceId(n as u32)
        } else {
            PieceId(((self.calls + roll as u64) % n.max(1)) as u32)
        };
        let mut commands = vec![
            HookCommand::AddCounter {
                piece,
                counter: HITS,
                amount: 1,
            },
            HookCommand::Note(format!("{phase} begins")),
        ];
        if self.modes {
            commands.push(HookCommand::SetMode {
                piece,
                mode: ModeId((roll % 3) as u16),
            });
        }
        Ok(commands)
    }
}

fn log_bytes(game: &Game) -> Vec<u8> {
    serde_json::to_vec(game.log()).expect("events serialise")
}

// ---------------------------------------------------------------------------------------
// Invariants
// ---------------------------------------------------------------------------------------

/// What must hold after every accepted order.
fn check_invariants(a: &Applied<'_>) -> Result<(), TestCaseError> {
    let game = a.after;
    let rules = game.rules();
    let board = game.board();
    let mut places: BTreeMap<Cell, Vec<&Piece>> = BTreeMap::new();
    for p in &game.state().pieces {
        for (def, v) in rules.counters.iter().zip(&p.counters) {
            prop_assert!(
                (def.min..=def.max).contains(v),
                "{} has {} {v}",
                p.name,
                def.name
            );
        }
        match &p.place {
            Place::Off => {}
            Place::Cell(c) => {
                prop_assert!(board.contains(*c), "{} is off the board at {c}", p.name);
                let class =
                    &rules.move_classes[rules.piece_types[p.kind.index()].move_class.index()];
                prop_assert!(
                    class.enter[board.terrain(*c).index()].is_some(),
                    "{} stands where it may not go, at {c}",
                    p.name
                );
                places.entry(*c).or_default().push(p);
            }
            other => prop_assert!(false, "{} has a non-grid place {other:?}", p.name),
        }
    }
    for (cell, here) in &places {
        prop_assert!(
            here.iter().all(|p| p.side == here[0].side),
            "enemies share {cell}"
        );
        let load: i32 = here
            .iter()
            .map(|p| rules.piece_types[p.kind.index()].stack[0].hundredths())
            .sum();
        prop_assert!(load <= CAPACITY, "{load} hundredths of blocks at {cell}");
        if here.len() > 1 {
            prop_assert!(
                here.iter().all(|p| rules.modes[p.mode.index()].stacks),
                "a piece in a mode that cannot stack shares {cell}"
            );
        }
    }
    let events = a
        .result
        .as_ref()
        .map_err(|r| TestCaseError::fail(r.message.clone()))?;
    // The hits trigger: reaching 3 removes the piece, in the same order.
    for e in events {
        if let Event::CounterChanged {
            piece, from, to, ..
        } = e
            && *from < HITS_REMOVE_AT
            && *to >= HITS_REMOVE_AT
        {
            prop_assert!(
                !game.state().pieces[piece.index()].on_board(),
                "{piece:?} reached {to} hits and stayed on the board"
            );
            prop_assert!(
                events
                    .iter()
                    .any(|e| matches!(e, Event::Removed { piece: p, .. } if p == piece)),
                "no Removed event for {piece:?}"
            );
        }
    }
    // `fired` clears at the end of each turn.
    if game.state().turn > a.before.state().turn {
        prop_assert!(game.state().pieces.iter().all(|p| !p.flag(FIRED)));
    }
    // Only pieces that took an action this order may have become `fired`.
    if !matches!(a.order.action, Action::Act { .. }) {
        for (b, p) in a.before.state().pieces.iter().zip(&game.state().pieces) {
            prop_assert!(b.flag(FIRED) || !p.flag(FIRED));
        }
    }
    Ok(())
}

/// Ends phases until the game is over (at most a generous bound of phases).
fn run_to_the_end(game: &mut Game) -> Result<(), TestCaseError> {
    for _ in 0..1000 {
        if game.phase().is_none() {
            return Ok(());
        }
        let r = end_current_phase(game);
        prop_assert!(r.is_ok(), "ending a phase was refused: {r:?}");
    }
    Err(TestCaseError::fail("the game never ended"))
}

// ---------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------

/// Boards without the road shapes that meet known kernel bugs (see [`Roads`]).
const SAFE_ROADS: Roads = Roads::AvoidKnownBugs;

fn game_inputs(roads: Roads) -> impl Strategy<Value = (BoardSpec, Vec<PieceSpec>, u64)> {
    (
        common::board_spec(roads),
        common::piece_specs(),
        any::<u64>(),
    )
}

fn setup_of(spec: &BoardSpec, pieces: &[PieceSpec], seed: u64) -> (Arc<Rules>, Setup) {
    common::scenario(spec, pieces, seed)
}

/// A game after the orders of `prefix`; a game that ended meanwhile has nothing left to
/// reach, so the case is rejected.
fn after_prefix(
    spec: &BoardSpec,
    pieces: &[PieceSpec],
    seed: u64,
    prefix: &[OrderSeed],
) -> Result<Game, TestCaseError> {
    let (rules, setup) = setup_of(spec, pieces, seed);
    let mut game = common::start(&rules, &setup);
    play(&mut game, prefix, |_| Ok(()))?;
    prop_assume!(game.phase().is_some());
    Ok(game)
}

proptest! {
    #![proptest_config(config(128))]

    /// 1. Reach = shortest path, against the oracle, and every reach path is a legal move
    /// of exactly the reported cost — at the start and after a few random orders (hits,
    /// modes, facings, removals and moved pieces) — for every piece whose class does not
    /// stop on costly steps (infantry: its stops come only from zones of control, which
    /// depend on the cell entered alone).
    #[test]
    fn reach_is_the_cheapest_legal_path(
        (spec, pieces, seed) in game_inputs(SAFE_ROADS),
        prefix in order_seeds(0..40),
    ) {
        let game = after_prefix(&spec, &pieces, seed, &prefix)?;
        check_reach(&game, |p| !stops_on_costly(&game, p))?;
    }

    /// 1b. The same for every piece, cavalry included (whose costly steps stop the move).
    /// It found the bug `reach_misses_cells_behind_a_costly_stop` pins down, now fixed.
    #[test]
    fn reach_is_the_cheapest_legal_path_for_cavalry_too(
        (spec, pieces, seed) in game_inputs(SAFE_ROADS),
        prefix in order_seeds(0..40),
    ) {
        let game = after_prefix(&spec, &pieces, seed, &prefix)?;
        check_reach(&game, |_| true)?;
    }

    /// 1c. The same (infantry) with roads anywhere, into lakes too. It found the bug
    /// `road_movement_enters_impassable_terrain` pins down, now fixed.
    #[test]
    fn reach_is_the_cheapest_legal_path_with_roads_anywhere(
        (spec, pieces, seed) in game_inputs(Roads::Anywhere),
        prefix in order_seeds(0..40),
    ) {
        let game = after_prefix(&spec, &pieces, seed, &prefix)?;
        check_reach(&game, |p| !stops_on_costly(&game, p))?;
    }
}

/// Hooks that give the data's answer like [`NoHooks`] but promise nothing about it (the
/// trait's defaults: `move_cost` not pure, a `stops` hook possibly bound), so a reach query
/// takes its general search, step by step through the general rules.
struct Unpromised;

impl Hooks for Unpromised {}

/// The reach of every piece on the board by the search specialised for data-only rules
/// against the general search: the same cells, costs and paths.
fn check_same_reach(game: &Game) -> Result<(), TestCaseError> {
    for piece in &game.world().state.pieces {
        let fast = game.reach(piece.id, &mut NoHooks);
        let general = game.reach(piece.id, &mut Unpromised);
        prop_assert_eq!(
            fast.is_ok(),
            general.is_ok(),
            "reach of {} ({:?})",
            piece.name,
            piece.place
        );
        if let (Ok(Reach::Cells(a)), Ok(Reach::Cells(b))) = (&fast, &general) {
            prop_assert_eq!(a, b, "reach of {} ({:?})", piece.name, piece.place);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(128))]

    /// 1d. The search specialised for data-only rules (`NoHooks`) chooses exactly the paths
    /// the general search chooses, tie-breaks included, on every kind of board and crowd.
    #[test]
    fn the_specialised_reach_is_the_general_one(
        (spec, pieces, seed) in game_inputs(Roads::Anywhere),
        prefix in order_seeds(0..40),
    ) {
        let game = after_prefix(&spec, &pieces, seed, &prefix)?;
        check_same_reach(&game)?;
    }

    /// 1e. The same with roads kept to safe places.
    #[test]
    fn the_specialised_reach_is_the_general_one_with_safe_roads(
        (spec, pieces, seed) in game_inputs(SAFE_ROADS),
        prefix in order_seeds(0..40),
    ) {
        let game = after_prefix(&spec, &pieces, seed, &prefix)?;
        check_same_reach(&game)?;
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// 2. Same rules, setup, seed and orders give byte-identical logs and states; a
    /// different seed draws exactly as many random words for the same accepted orders.
    #[test]
    fn games_are_deterministic(
        (spec, pieces, seed) in game_inputs(SAFE_ROADS),
        seeds in order_seeds(40..160),
    ) {
        let (rules, setup) = setup_of(&spec, &pieces, seed);
        let mut first = common::start(&rules, &setup);
        let mut second = common::start(&rules, &setup);
        let accepted = play(&mut first, &seeds, |_| Ok(()))?;
        let again = play(&mut second, &seeds, |_| Ok(()))?;
        prop_assert_eq!(&accepted, &again);
        prop_assert_eq!(log_bytes(&first), log_bytes(&second));
        prop_assert_eq!(first.state_bytes(), second.state_bytes());

        // Another seed, the same accepted orders, until the games disagree on one. (Words
        // are counted over the game's stream and every side's.) In
        // each game every order draws exactly one random word per die it logs, and the
        // two games draw the same number for the order itself; only the initiative rolls
        // of a new turn may differ (ties roll again). (A draw is rejected and redrawn with
        // chance 4 in 2^32 per d6, which could break this once in a blue moon.)
        let mut a = common::start(&rules, &setup);
        let mut b = common::start(&rules, &Setup { seed: seed ^ 0x9e37_79b9, ..setup.clone() });
        prop_assert_eq!(words(a.state()), dice_logged(a.log()).0);
        prop_assert_eq!(words(b.state()), dice_logged(b.log()).0);
        for order in &accepted {
            let (pa, pb) = (words(a.state()), words(b.state()));
            let ea = a.apply(order, &mut NoHooks);
            prop_assert!(ea.is_ok(), "a replayed order was refused: {ea:?}");
            let Ok(eb) = b.apply(order, &mut NoHooks) else {
                break;
            };
            let (da, db) = (dice_logged(&ea.unwrap_or_default()), dice_logged(&eb));
            prop_assert_eq!(words(a.state()) - pa, da.0);
            prop_assert_eq!(words(b.state()) - pb, db.0);
            prop_assert_eq!(da.0 - da.1, db.0 - db.1, "{:?} drew differently", order);
        }
    }

    /// 3. Every refusal leaves the state bytes and the log exactly as they were — also
    /// when a hook fails halfway through an order (hooks that fail every `period`-th
    /// call, and otherwise add hits as phases begin). Accepted orders keep the invariants
    /// even with the hooks meddling.
    #[test]
    fn refusals_change_nothing(
        (spec, pieces, seed) in game_inputs(SAFE_ROADS),
        seeds in order_seeds(40..160),
        period in prop_oneof![Just(u64::MAX), 2u64..30],
    ) {
        let (rules, setup) = setup_of(&spec, &pieces, seed);
        let mut hooks = Chaos::new(period);
        let mut game = common::start(&rules, &setup);
        play_with(&mut game, &seeds, &mut hooks, |a| {
            match a.result {
                Err(_) => {
                    prop_assert_eq!(a.before.state_bytes(), a.after.state_bytes());
                    prop_assert_eq!(a.before.log().len(), a.after.log().len());
                    prop_assert_eq!(a.before.log(), a.after.log());
                }
                Ok(_) => check_invariants(a)?,
            }
            Ok(())
        })?;
    }

    /// 3b. Hooks that also force modes (a piece into a road column, say) keep the
    /// invariants: a mode that cannot stack must not end up sharing a place. It found the
    /// bug `forced_mode_change_ignores_stacking` pins down, now fixed.
    #[test]
    fn hook_modes_keep_the_invariants(
        (spec, pieces, seed) in game_inputs(SAFE_ROADS),
        seeds in order_seeds(40..160),
        period in prop_oneof![Just(u64::MAX), 2u64..30],
    ) {
        let (rules, setup) = setup_of(&spec, &pieces, seed);
        let mut hooks = Chaos { modes: true, ..Chaos::new(period) };
        let mut game = common::start(&rules, &setup);
        play_with(&mut game, &seeds, &mut hooks, |a| match a.result {
            Err(_) => Ok(()),
            Ok(_) => check_invariants(a),
        })?;
    }

    /// 4. Whole random games never panic and keep their invariants; once over, every order
    /// is refused as `GameOver` and changes nothing.
    #[test]
    fn invariants_hold_to_game_over(
        (spec, pieces, seed) in game_inputs(SAFE_ROADS),
        seeds in order_seeds(40..160),
        late in order_seeds(5..10),
    ) {
        let (rules, setup) = setup_of(&spec, &pieces, seed);
        let mut game = common::start(&rules, &setup);
        play(&mut game, &seeds, |a| match a.result {
            Ok(_) => check_invariants(a),
            Err(_) => Ok(()),
        })?;
        run_to_the_end(&mut game)?;
        prop_assert!(game.phase().is_none());
        // The log ends with the end of the game and its result (a draw: these games
        // declare no victory conditions).
        let log = game.log();
        let ended = matches!(
            &log[log.len().saturating_sub(2)..],
            [Event::GameOver { turns: 3 }, Event::GameResult { winner: None, .. }]
        );
        prop_assert!(ended, "the log does not end with GameOver and GameResult");
        prop_assert!(game.result().is_some_and(|r| r.winner.is_none()));
        play(&mut game, &late, |a| {
            prop_assert!(
                matches!(a.result, Err(r) if r.kind == RefusalKind::GameOver),
                "{:?} after the end gave {:?}", a.order, a.result
            );
            prop_assert_eq!(a.before.state_bytes(), a.after.state_bytes());
            prop_assert_eq!(a.before.log().len(), a.after.log().len());
            Ok(())
        })?;
    }

    /// 4b. The same with roads anywhere, into lakes too. It found pieces on a road ending
    /// up in a lake (`road_movement_enters_impassable_terrain` pins it down, now fixed).
    #[test]
    fn invariants_hold_with_roads_anywhere(
        (spec, pieces, seed) in game_inputs(Roads::Anywhere),
        seeds in order_seeds(40..160),
    ) {
        let (rules, setup) = setup_of(&spec, &pieces, seed);
        let mut game = common::start(&rules, &setup);
        play(&mut game, &seeds, |a| match a.result {
            Ok(_) => check_invariants(a),
            Err(_) => Ok(()),
        })?;
    }

    /// 5. The accepted orders of a game, saved as JSON and re-applied to a fresh game,
    /// are all accepted again and give the same log and state (what `grognard replay`
    /// relies on).
    #[test]
    fn replaying_accepted_orders_gives_the_same_log(
        (spec, pieces, seed) in game_inputs(SAFE_ROADS),
        seeds in order_seeds(40..160),
    ) {
        let (rules, setup) = setup_of(&spec, &pieces, seed);
        let mut game = common::start(&rules, &setup);
        let accepted = play(&mut game, &seeds, |_| Ok(()))?;
        let saved = serde_json::to_string(&accepted).expect("orders serialise");
        let loaded: Vec<Order> = serde_json::from_str(&saved).expect("orders deserialise");
        prop_assert_eq!(&loaded, &accepted);
        let mut replay = common::start(&rules, &setup);
        for order in &loaded {
            let r = replay.apply(order, &mut NoHooks);
            prop_assert!(r.is_ok(), "{order:?} was refused on replay: {r:?}");
        }
        prop_assert_eq!(log_bytes(&replay), log_bytes(&game));
        prop_assert_eq!(replay.state_bytes(), game.state_bytes());
    }
}

// ---------------------------------------------------------------------------------------
// The generators exercise what they claim to
// ---------------------------------------------------------------------------------------

/// Runs a fixed batch of random games (deterministic runner) and checks that the orders
/// the properties rely on really occur: every kind of refusal, and accepted moves (some
/// stopped by a zone or costly ground), volleys that hit, removals by the hits trigger
/// after a volley, defensive fire, and game over. Every fourth game runs with failing
/// hooks. Without this the properties above could pass vacuously.
#[test]
fn random_games_cover_refusals_and_outcomes() {
    let mut runner = TestRunner::deterministic();
    let strategy = (game_inputs(SAFE_ROADS), order_seeds(60..120));
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut geos = (0, 0);
    for i in 0..120 {
        let ((spec, pieces, seed), seeds) =
            strategy.new_tree(&mut runner).expect("a value").current();
        match spec.geo {
            Geo::Square => geos.0 += 1,
            Geo::Hex => geos.1 += 1,
        }
        let (rules, setup) = setup_of(&spec, &pieces, seed);
        let mut game = common::start(&rules, &setup);
        let mut chaos = Chaos::new(7);
        let mut none = NoHooks;
        let hooks: &mut dyn Hooks = if i % 4 == 3 { &mut chaos } else { &mut none };
        let result = play_with(&mut game, &seeds, hooks, |a| {
            let evs = match a.result {
                Err(r) => {
                    *refusals.entry(format!("{:?}", r.kind)).or_default() += 1;
                    return Ok(());
                }
                Ok(evs) => evs,
            };
            let volley = evs.iter().any(|e| matches!(e, Event::Acted { .. }));
            for e in evs {
                let name = match e {
                    Event::Moved {
                        stopped: Some(_), ..
                    } => "moved and stopped",
                    Event::Moved { .. } => "moved",
                    Event::Acted { roll: Some(r), .. } if r.outcome != "miss" => "hit",
                    Event::Acted { .. } => "missed",
                    Event::Removed { .. } if volley => "removed by a volley",
                    Event::ModeChanged { .. } => "mode",
                    Event::Faced { .. } => "faced",
                    Event::PhaseBegan { phase, .. } if phase == "defensive fire" => {
                        "defensive fire"
                    }
                    Event::PhaseBegan { phase, .. } if phase == "rally" => "rally",
                    Event::Initiative { .. } => "initiative",
                    _ => "other",
                };
                *seen.entry(name).or_default() += 1;
            }
            Ok(())
        });
        assert!(result.is_ok());
        assert!(run_to_the_end(&mut game).is_ok());
        if game
            .log()
            .iter()
            .rev()
            .take(2)
            .any(|e| matches!(e, Event::GameOver { .. }))
        {
            *seen.entry("game over").or_default() += 1;
        }
        if let Err(r) = game.apply(
            &Order {
                side: SideId(0),
                action: Action::EndPhase,
            },
            &mut NoHooks,
        ) {
            *refusals.entry(format!("{:?}", r.kind)).or_default() += 1;
        }
    }
    assert!(geos.0 > 0 && geos.1 > 0, "both grids: {geos:?}");
    for kind in [
        "GameOver",
        "OutOfPhase",
        "BadPiece",
        "BadPath",
        "AlreadyUsed",
        "Impassable",
        "TooFar",
        "Occupied",
        "MustStop",
        "BadMode",
        "BadTarget",
        "HookFailed",
    ] {
        assert!(
            refusals.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} refusal in {refusals:?}"
        );
    }
    for name in [
        "moved",
        "moved and stopped",
        "hit",
        "missed",
        "removed by a volley",
        "mode",
        "faced",
        "defensive fire",
        "rally",
        "initiative",
        "game over",
    ] {
        assert!(
            seen.get(name).copied().unwrap_or(0) > 0,
            "no {name} event in {seen:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Hand-made cases the oracle and the fixture must get right
// ---------------------------------------------------------------------------------------

/// A hand-made board from terrain rolls (0 clear, 12 woods, 17 lake) and the link rolls
/// to set, each `((col, row), direction, roll)`; every other link is bare.
fn hand_board(
    geo: Geo,
    roads: Roads,
    cols: i32,
    terrain: Vec<u8>,
    set: &[((i32, i32), u8, u8)],
) -> BoardSpec {
    let rows = terrain.len() as i32 / cols;
    let mut links = vec![BARE; terrain.len() * 8];
    for ((col, row), dir, roll) in set {
        links[((row * cols + col) * 8) as usize + usize::from(*dir)] = *roll;
    }
    BoardSpec {
        roads,
        geo,
        cols,
        rows,
        terrain,
        links,
    }
}

/// A link roll for `common::board`: bits 0–1 zero for a road, bits 2–4 the barrier
/// (0 river, 1 stream, 7 none), bits 5–7 the crossing (0 bridge, 2 ford, 7 none).
const fn link(road: bool, barrier: u8, crossing: u8) -> u8 {
    (if road { 0 } else { 1 }) | (barrier << 2) | (crossing << 5)
}
const BARE: u8 = link(false, 7, 7);
const ROAD: u8 = link(true, 7, 7);

fn one_piece(kind: u16, cell: usize, mode: u16) -> PieceSpec {
    PieceSpec {
        side: 0,
        kind,
        cell,
        facing: 0,
        mode,
        hits: 0,
    }
}

fn move_order(piece: u32, path: &[(i32, i32)]) -> Order {
    Order {
        side: SideId(0),
        action: Action::Move {
            piece: PieceId(piece),
            path: path.iter().map(|(c, r)| Cell::new(*c, *r)).collect(),
        },
    }
}

fn reach_costs(game: &Game, piece: u32) -> BTreeMap<Cell, Cost> {
    match game.reach(PieceId(piece), &mut NoHooks) {
        Ok(Reach::Cells(cells)) => cells.iter().map(|r| (r.cell, r.cost)).collect(),
        other => panic!("{other:?}"),
    }
}

/// A 5×1 square strip: the oracle and the kernel agree on a bridge over a river, a ford
/// over a stream and woods, with exact costs worked out by hand.
#[test]
fn strip_with_river_bridge_ford_and_woods() {
    let river_bridge = link(false, 0, 0);
    let stream_ford = link(false, 1, 2);
    let spec = hand_board(
        Geo::Square,
        SAFE_ROADS,
        5,
        vec![0, 0, 12, 0, 0],
        &[((0, 0), 0, river_bridge), ((1, 0), 0, stream_ford)],
    );
    // Infantry in strategic mode: 5 mp.
    let (rules, setup) = setup_of(&spec, &[one_piece(INFANTRY.0, 0, STRATEGIC.0)], 1);
    let game = common::start(&rules, &setup);
    let h = Cost::from_hundredths;
    // 1 over the bridge (+0); then 1 + ½ ford + ½ woods → 3; then 4; then 5.
    let expected: BTreeMap<Cell, Cost> = [(1, 100), (2, 300), (3, 400), (4, 500)]
        .into_iter()
        .map(|(c, k)| (Cell::new(c, 0), h(k)))
        .collect();
    assert_eq!(reach_costs(&game, 0), expected);
    assert_eq!(oracle_reach(&game, PieceId(0)), expected);
}

/// Barriers at a corner: a diagonal step crosses every barrier on the four edges around
/// the corner when they cut both ways round it, and a bridge counts only on its own link.
#[test]
fn diagonal_steps_and_barriers_at_corners() {
    let h = Cost::from_hundredths;
    let costs = |set: &[((i32, i32), u8, u8)]| {
        let spec = hand_board(Geo::Square, SAFE_ROADS, 2, vec![0; 4], set);
        let (rules, setup) = setup_of(&spec, &[one_piece(INFANTRY.0, 0, STRATEGIC.0)], 1);
        let game = common::start(&rules, &setup);
        let kernel = reach_costs(&game, 0);
        assert_eq!(kernel, oracle_reach(&game, PieceId(0)), "{set:?}");
        kernel.get(&Cell::new(1, 1)).copied()
    };
    // A river between the columns, bridged in the top row: the diagonal is cut, so (1,1)
    // is reached over the bridge and down, for 2 rather than 1½.
    let river_bridged = [
        ((0, 0), 0, link(false, 0, 0)),
        ((0, 1), 0, link(false, 0, 7)),
    ];
    assert_eq!(costs(&river_bridged), Some(h(200)));
    // A stream on one edge only: the way round through (0,1) is open, the diagonal free.
    assert_eq!(costs(&[((0, 0), 0, link(false, 1, 7))]), Some(h(150)));
    // A stream one way round and a river the other: both ways cut, so the diagonal crosses
    // the river too and is closed; (1,1) costs 1 + 1 stream + 1 = 3 through (1,0).
    let stream_meets_river = [
        ((0, 0), 0, link(false, 1, 7)),
        ((0, 1), 0, link(false, 0, 7)),
    ];
    assert_eq!(costs(&stream_meets_river), Some(h(300)));
}

/// Zones of control on hexes stop a move in the three front hexes of an enemy, and a
/// piece with hits has none.
#[test]
fn hex_zone_of_control_stops_and_is_lost_with_hits() {
    // A 5×1 hex strip; blue infantry at 0, red infantry at 3 facing west (its front hexes
    // include 2). Blue has 3½ mp in battle mode.
    let spec = hand_board(Geo::Hex, SAFE_ROADS, 5, vec![0; 5], &[]);
    let red = |hits| PieceSpec {
        side: 1,
        kind: INFANTRY.0,
        cell: 3,
        facing: 3,
        mode: 0,
        hits,
    };
    for (hits, reachable) in [(0, vec![1, 2]), (1, vec![1, 2])] {
        let (rules, setup) = setup_of(&spec, &[one_piece(INFANTRY.0, 0, 0), red(hits)], 1);
        assert_eq!(setup.pieces.len(), 2);
        let game = common::start(&rules, &setup);
        let cells: Vec<i32> = reach_costs(&game, 0).keys().map(|c| c.col).collect();
        assert_eq!(cells, reachable);
        let mut g = game.clone();
        let through = g.apply(&move_order(0, &[(1, 0), (2, 0), (3, 0)]), &mut NoHooks);
        assert!(through.is_err(), "moved into the enemy's hex");
        let into = g.apply(&move_order(0, &[(1, 0), (2, 0)]), &mut NoHooks);
        let stopped = matches!(
            into.as_deref(),
            Ok([Event::Moved {
                stopped: Some(_),
                ..
            }])
        );
        assert_eq!(stopped, hits == 0, "hits {hits}: {into:?}");
    }
    // With the enemy at 4 facing west, its zone covers 3: a path through 3 is refused.
    let far_red = PieceSpec {
        side: 1,
        kind: INFANTRY.0,
        cell: 4,
        facing: 3,
        mode: 0,
        hits: 0,
    };
    let (rules, setup) = setup_of(&spec, &[one_piece(INFANTRY.0, 1, 0), far_red], 1);
    let mut game = common::start(&rules, &setup);
    let refused = game.apply(&move_order(0, &[(2, 0), (3, 0), (2, 0)]), &mut NoHooks);
    assert!(matches!(refused, Err(r) if r.kind == RefusalKind::MustStop));
}

/// Stacking: 2½ blocks, cavalry weighs ½, and a road column shares with nobody.
#[test]
fn stacking_limits_and_columns() {
    let spec = hand_board(Geo::Square, SAFE_ROADS, 2, vec![0; 2], &[]);
    let inf = |cell| one_piece(INFANTRY.0, cell, 0);
    let cav = |cell| one_piece(CAVALRY.0, cell, 0);
    let placed = |pieces: &[PieceSpec]| setup_of(&spec, pieces, 1).1.pieces.len();
    assert_eq!(placed(&[inf(0), inf(0), cav(0)]), 3, "2 + ½ fits in 2½");
    assert_eq!(
        placed(&[inf(0), inf(0), cav(0), cav(0)]),
        3,
        "3 blocks do not"
    );
    assert_eq!(placed(&[inf(0), inf(0), inf(0)]), 2);
    assert_eq!(placed(&[cav(0), cav(0), cav(0), cav(0), cav(0)]), 5);
    let column = one_piece(INFANTRY.0, 0, COLUMN.0);
    assert_eq!(placed(&[inf(0), column]), 1, "a column shares with nobody");
    // Cavalry may pass through a full place but not stop there.
    let (rules, setup) = setup_of(&spec, &[cav(1), inf(0), inf(0), cav(0)], 1);
    assert_eq!(setup.pieces.len(), 4);
    let game = common::start(&rules, &setup);
    assert!(reach_costs(&game, 0).is_empty());
    let mut g = game.clone();
    let r = g.apply(&move_order(0, &[(0, 0)]), &mut NoHooks);
    assert!(matches!(r, Err(r) if r.kind == RefusalKind::Occupied));
}

// ---------------------------------------------------------------------------------------
// Kernel bugs found by the properties, as minimal cases. Ignored until fixed; each
// asserts the behaviour the rules call for.
// ---------------------------------------------------------------------------------------

/// Found by the properties (and fixed): `reach` kept one best cost per (cell, steps) and
/// did not expand an arrival that must stop, so a dearer arrival at the same cell that may
/// go on was dropped and every cell only reachable through it was lost.
///
/// Board (squares, cavalry in strategic mode, 6½ mp, stops on costly steps):
/// ```text
///   (0,0) clear S   (1,0) woods X   (2,0) clear T
///   (0,1) clear     (1,1) lake      (2,1) lake
/// ```
/// with a road on the diagonal link (0,1)–(1,0). S→X directly costs 1 + 1 woods = 2 and
/// must stop; S→(0,1)→X along the road costs 1 + 1½ = 2½ and may go on; T is then 3½.
/// `do_move` accepts that path, and `reach` must list T at that cost.
#[test]
fn reach_misses_cells_behind_a_costly_stop() {
    let spec = hand_board(
        Geo::Square,
        SAFE_ROADS,
        3,
        vec![0, 12, 0, 0, 17, 17],
        &[((0, 1), 7, ROAD)],
    );
    let (rules, setup) = setup_of(&spec, &[one_piece(CAVALRY.0, 0, STRATEGIC.0)], 1);
    let game = common::start(&rules, &setup);
    let target = Cell::new(2, 0);
    let mut g = game.clone();
    let moved = g.apply(&move_order(0, &[(0, 1), (1, 0), (2, 0)]), &mut NoHooks);
    assert!(
        matches!(moved.as_deref(), Ok([Event::Moved { cost, .. }]) if *cost == Cost::from_hundredths(350)),
        "{moved:?}"
    );
    assert_eq!(
        oracle_reach(&game, PieceId(0)).get(&target),
        Some(&Cost::from_hundredths(350))
    );
    assert_eq!(
        reach_costs(&game, 0).get(&target),
        Some(&Cost::from_hundredths(350)),
        "reach omits a cell the piece can legally move to"
    );
}

/// Found by the properties (and fixed): `data_step_cost` skipped the movement class on a
/// road in a road-using mode, so a road led pieces into terrain they may never enter (here
/// a lake), where `Game::new` would refuse to place them. Neither reach nor a move may.
#[test]
fn road_movement_enters_impassable_terrain() {
    // (0,0) clear, (1,0) lake, a road between them; infantry in strategic mode.
    let spec = hand_board(
        Geo::Square,
        Roads::Anywhere,
        2,
        vec![0, 17],
        &[((0, 0), 0, ROAD)],
    );
    let (rules, setup) = setup_of(&spec, &[one_piece(INFANTRY.0, 0, STRATEGIC.0)], 1);
    let mut game = common::start(&rules, &setup);
    let reach = reach_costs(&game, 0);
    let moved = game.apply(&move_order(0, &[(1, 0)]), &mut NoHooks);
    assert!(
        reach.is_empty() && matches!(&moved, Err(r) if r.kind == RefusalKind::Impassable),
        "reach {reach:?}, move into the lake {moved:?}"
    );
}

/// Found by the properties (and fixed alongside): a diagonal square step between two road
/// edges (roads from a cell to its east and south neighbours, the step to its south-east
/// neighbour) counted as a road move although no road joins the two cells, so a road
/// column could cut the corner and a road-using mode ignored the terrain entered. Roads
/// count only on the step's own link.
#[test]
fn diagonal_step_between_road_edges_is_not_a_road_move() {
    // 2×2 clear squares; roads (0,0)–(1,0) and (0,0)–(0,1); infantry in column mode.
    let spec = hand_board(
        Geo::Square,
        Roads::Anywhere,
        2,
        vec![0; 4],
        &[((0, 0), 0, ROAD), ((0, 0), 2, ROAD)],
    );
    let (rules, setup) = setup_of(&spec, &[one_piece(INFANTRY.0, 0, COLUMN.0)], 1);
    let mut game = common::start(&rules, &setup);
    let reach = reach_costs(&game, 0);
    let moved = game.apply(&move_order(0, &[(1, 1)]), &mut NoHooks);
    assert!(
        !reach.contains_key(&Cell::new(1, 1))
            && matches!(&moved, Err(r) if r.kind == RefusalKind::Impassable),
        "reach {reach:?}, move off the road {moved:?}"
    );
}

/// `Game::new` checks stacking only among a side's own pieces, so a scenario may put two
/// enemy pieces in one cell, which no move can ever produce (entering an enemy's cell is
/// refused) and which the invariants forbid.
#[test]
fn setup_refuses_enemies_sharing_a_cell() {
    let spec = hand_board(Geo::Square, SAFE_ROADS, 2, vec![0; 2], &[]);
    let (rules, mut setup) = setup_of(&spec, &[one_piece(INFANTRY.0, 0, 0)], 1);
    let mut enemy = setup.pieces[0].clone();
    enemy.name = "red".into();
    enemy.side = SideId(1);
    setup.pieces.push(enemy);
    let started = grognard_kernel::game::Game::new(rules, setup, &mut NoHooks);
    assert!(
        started.as_ref().is_err_and(|e| e.piece == Some(1)),
        "two enemies in one cell: {:?}",
        started.map(|g| g.state().pieces.len())
    );
}

/// Found by the properties (and fixed): `Effect::SetMode` (a chart outcome, a trigger, or
/// a hook's `SetMode`) changed the mode without the stacking check that `Action::Mode`
/// makes, so a piece could be forced into a mode that cannot stack (a road column) while
/// it shared its place. Such an effect must leave the stack legal.
#[test]
fn forced_mode_change_ignores_stacking() {
    struct ForceColumn;
    impl Hooks for ForceColumn {
        fn phase_begin(
            &mut self,
            _: &World<'_>,
            phase: &str,
            _: &mut HookDice<'_>,
        ) -> Result<Vec<HookCommand>, HookFailure> {
            Ok(if phase == "fire" {
                vec![HookCommand::SetMode {
                    piece: PieceId(0),
                    mode: COLUMN,
                }]
            } else {
                vec![]
            })
        }
    }
    // Two infantry share (0,0); the column order is refused, the hook's is not.
    let spec = hand_board(Geo::Square, SAFE_ROADS, 2, vec![0; 2], &[]);
    let pieces = [one_piece(INFANTRY.0, 0, 0), one_piece(INFANTRY.0, 0, 0)];
    let (rules, setup) = setup_of(&spec, &pieces, 1);
    let mut game = common::start(&rules, &setup);
    let by_order = game.clone().apply(
        &Order {
            side: SideId(0),
            action: Action::Mode {
                piece: PieceId(0),
                mode: COLUMN,
            },
        },
        &mut NoHooks,
    );
    assert!(matches!(&by_order, Err(r) if r.kind == RefusalKind::Occupied));
    let ended = game.apply(
        &Order {
            side: SideId(0),
            action: Action::EndPhase,
        },
        &mut ForceColumn,
    );
    assert!(ended.is_ok());
    let modes: Vec<ModeId> = game.state().pieces.iter().map(|p| p.mode).collect();
    assert!(
        modes.iter().all(|m| *m != COLUMN),
        "a column shares (0,0): modes {modes:?}"
    );
}

/// Random words drawn so far over every stream of a game (its own and each side's).
fn words(state: &grognard_kernel::game::State) -> u128 {
    state.rng.position() + state.side_rngs.iter().map(|r| r.position()).sum::<u128>()
}
