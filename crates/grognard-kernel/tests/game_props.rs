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

use common::{BoardSpec, CAPACITY, FIRED, Geo, HITS_REMOVE_AT, INFANTRY, MODES, PieceSpec, VOLLEY};
use grognard_kernel::Cost;
use grognard_kernel::action::{Action, Event, Order, Refusal, RefusalKind};
use grognard_kernel::board::Board;
use grognard_kernel::game::{Game, Reach, Setup};
use grognard_kernel::geometry::{Cell, Facing, Grid, square};
use grognard_kernel::hooks::NoHooks;
use grognard_kernel::ids::{ActionId, FeatureId, ModeId, PieceId, SideId};
use grognard_kernel::piece::{Piece, Place};
use grognard_kernel::rules::{FeatureKind, Rules};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};

/// Debug builds of the kernel are slow-ish; these counts keep the whole file to a few
/// seconds. No failure persistence: a failing case is printed (with its minimal input) in
/// the test output, and this suite writes no files beside itself.
fn config(cases: u32) -> Config {
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

/// The boundary features a step crosses, written from the documented rule of
/// `Board::crossed` rather than calling it: a step crosses what lies on its own boundary;
/// a diagonal square step also crosses a feature when neither way around the corner
/// (through either side cell) avoids it.
fn crossed(board: &Board, grid: &Grid, from: Cell, dir: Facing, to: Cell) -> Vec<FeatureId> {
    let mut out = board.features_between(from, to).to_vec();
    if matches!(grid, Grid::Square(_)) && square::is_diagonal(dir) {
        let sides = [Cell::new(to.col, from.row), Cell::new(from.col, to.row)];
        for f in (0..5).map(FeatureId) {
            let has = |a: Cell, b: Cell| board.features_between(a, b).contains(&f);
            let blocked = sides.iter().all(|s| has(from, *s) || has(*s, to));
            if blocked && !out.contains(&f) {
                out.push(f);
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
    let kinds: Vec<&FeatureKind> = crossed(board, grid, from, dir, to)
        .iter()
        .map(|f| &rules.features[f.index()].kind)
        .collect();
    let on_road = kinds.iter().any(|k| matches!(k, FeatureKind::Road));
    if mode.roads_only && !on_road {
        return None;
    }
    let base = grid.step_cost(dir);
    let mut cost = base;
    let crossing = kinds.iter().find_map(|k| match k {
        FeatureKind::Crossing { cost } => Some(*cost),
        _ => None,
    });
    for k in &kinds {
        if let FeatureKind::Barrier { cost: barrier } = k {
            cost = cost + crossing.or(*barrier)?;
        }
    }
    let class = &rules.move_classes[ty.move_class.index()];
    if !(on_road && mode.uses_roads) {
        cost = cost + class.enter[board.terrain(to).index()]?;
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

/// The cheapest cost to end a move in each cell other than the start, by dynamic
/// programming over the exact number of steps taken: `going[k]` holds the cheapest cost of
/// standing in a cell after `k` steps *and being allowed to go on*; every step out of it
/// that stays within the allowance is a place to end (if the step allows stopping) and,
/// if it allows continuing, an entry of `going[k + 1]`. Stopping and continuing are kept
/// apart, so a cheap arrival that must stop never hides a dearer one that may go on. It
/// shares nothing with the kernel's Dijkstra: no priority queue, no pruning by cost, and
/// the step limit is the loop bound. Every step costs at least 1, so without a step limit
/// there are at most `allowance` layers.
fn oracle_reach(game: &Game, id: PieceId) -> BTreeMap<Cell, Cost> {
    let rules = game.rules();
    let board = game.board();
    let pieces = &game.state().pieces;
    let mover = &pieces[id.index()];
    let grid = board.grid().expect("a grid board");
    let ty = &rules.piece_types[mover.kind.index()];
    let allowance = ty.allowance[mover.mode.index()].expect("a mode the type may take");
    let layers = ty.max_steps[mover.mode.index()]
        .unwrap_or(u32::try_from(allowance.hundredths() / 100).unwrap_or(0) + 1);
    let start = mover.place.cell().expect("on a cell");
    let mut ends: BTreeMap<Cell, Cost> = BTreeMap::new();
    let mut going: BTreeMap<Cell, Cost> = BTreeMap::from([(start, Cost::ZERO)]);
    for _ in 0..layers {
        let mut next: BTreeMap<Cell, Cost> = BTreeMap::new();
        for (&here, &spent) in &going {
            for (dir, to) in grid.neighbours(here) {
                let Some(step) = oracle_step(rules, board, pieces, mover, here, dir, to) else {
                    continue;
                };
                let total = spent + step.cost;
                if total > allowance {
                    continue;
                }
                if step.can_stop && to != start {
                    let slot = ends.entry(to).or_insert(Cost::MAX);
                    *slot = (*slot).min(total);
                }
                if step.can_continue {
                    let slot = next.entry(to).or_insert(Cost::MAX);
                    *slot = (*slot).min(total);
                }
            }
        }
        going = next;
    }
    ends
}

/// The game advanced (by ending phases) to the movement phase of `side`, so that side's
/// pieces may be ordered to move. Only the phase cursor changes.
fn movement_phase_of(game: &Game, side: SideId) -> Game {
    let mut g = game.clone();
    while g
        .phase()
        .is_some_and(|(p, s)| p.name != "movement" || s != side)
    {
        let (_, phasing) = g.phase().expect("not over");
        g.apply(
            &Order {
                side: phasing,
                action: Action::EndPhase,
            },
            &mut NoHooks,
        )
        .expect("ending a phase is always allowed to the phasing side");
    }
    g
}

/// Property 1 for one game: for every piece on the board, the kernel's reach equals the
/// oracle's cells and costs, and every returned path, given back as a `Move`, is accepted
/// with the same cost and the same cells.
fn check_reach(game: &Game) -> Result<(), TestCaseError> {
    let mut by_side: BTreeMap<SideId, Game> = BTreeMap::new();
    for piece in game.state().pieces.iter().filter(|p| p.on_board()) {
        let Ok(Reach::Cells(cells)) = game.reach(piece.id, &mut NoHooks) else {
            return Err(TestCaseError::fail(format!(
                "no grid reach for {}",
                piece.name
            )));
        };
        let kernel: BTreeMap<Cell, Cost> = cells.iter().map(|r| (r.cell, r.cost)).collect();
        let oracle = oracle_reach(game, piece.id);
        prop_assert_eq!(
            &kernel,
            &oracle,
            "reach of {} ({:?} in mode {}) from {:?}",
            piece.name,
            piece.kind,
            game.rules().mode_name(piece.mode),
            piece.place
        );
        let ty = &game.rules().piece_types[piece.kind.index()];
        let mover = by_side
            .entry(piece.side)
            .or_insert_with(|| movement_phase_of(game, piece.side));
        for r in &cells {
            prop_assert_eq!(r.path.last(), Some(&r.cell));
            if let Some(max) = ty.max_steps[piece.mode.index()] {
                prop_assert!(r.path.len() <= max as usize);
            }
            let mut g = mover.clone();
            let order = Order {
                side: piece.side,
                action: Action::Move {
                    piece: piece.id,
                    path: r.path.clone(),
                },
            };
            let events = g.apply(&order, &mut NoHooks);
            let Ok(events) = events else {
                return Err(TestCaseError::fail(format!(
                    "reach path {:?} of {} refused: {:?}",
                    r.path, piece.name, events
                )));
            };
            let mut full = vec![piece.place.cell().expect("on a cell")];
            full.extend(&r.path);
            prop_assert!(
                matches!(
                    events.as_slice(),
                    [Event::Moved { piece: p, path, cost, .. }]
                        if *p == piece.id && *path == full && *cost == r.cost
                ),
                "moving {} along {:?} gave {:?}, reach said cost {}",
                piece.name,
                r.path,
                events,
                r.cost
            );
        }
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
        prop::collection::vec(any::<u8>(), 0..5),
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

/// An order for the game as it stands. Kinds, by `seed.kind`:
/// - 0–4: a move of an own piece along a path from its reach (or a random walk if none);
/// - 5: a random walk (may leave the board, enter lakes, cross rivers, overrun stacks);
/// - 6: a broken path (a jump of two cells, a cell off the board, or the start cell);
/// - 7: a facing (sometimes one the grid does not have);
/// - 8: a mode (sometimes one the ruleset does not have);
/// - 9–11: a volley at an enemy (often out of range, arc or sight) or at any piece;
/// - 12: a malformed action (unknown action id, no target, an own target);
/// - 13: an unknown piece id;
/// - 14: a plausible move given by the wrong side;
/// - 15–18: the phasing side ends the phase (often, so games run to their end);
/// - 19: the wrong side (or a side that does not exist) ends the phase.
///
/// Whether any of these is legal right now (the phase may not allow it) is for the game
/// to say; this only makes sure both kinds occur.
fn interpret(game: &Game, seed: &OrderSeed) -> Order {
    let grid = *game.board().grid().expect("a grid board");
    let pieces = &game.state().pieces;
    let n = pieces.len() as u32;
    let phasing = game.phase().map_or(SideId(0), |(_, s)| s);
    let other = SideId(1 - phasing.0);
    let own: Vec<&Piece> = pieces
        .iter()
        .filter(|p| p.side == phasing && p.on_board())
        .collect();
    let enemies: Vec<&Piece> = pieces
        .iter()
        .filter(|p| p.side != phasing && p.on_board())
        .collect();
    let pick = |list: &[&Piece]| {
        list.get(usize::from(seed.piece) % list.len().max(1))
            .map(|p| (*p).clone())
    };
    let walk = |p: &Piece| {
        let mut at = p.place.cell().unwrap_or_default();
        seed.dirs
            .iter()
            .map(|d| {
                at = grid.neighbour(at, Facing(d % grid.facings()));
                at
            })
            .collect::<Vec<_>>()
    };
    let order = |side: SideId, action: Action| Order { side, action };
    let own_move = |side: SideId| {
        let Some(p) = pick(&own) else {
            return order(phasing, Action::EndPhase);
        };
        let path = match game.reach(p.id, &mut NoHooks) {
            Ok(Reach::Cells(cells)) if !cells.is_empty() => {
                cells[usize::from(seed.a) % cells.len()].path.clone()
            }
            _ => walk(&p),
        };
        order(side, Action::Move { piece: p.id, path })
    };
    match seed.kind {
        0..=4 => own_move(phasing),
        5 | 6 => {
            let Some(p) = pick(&own) else {
                return order(phasing, Action::EndPhase);
            };
            let start = p.place.cell().unwrap_or_default();
            let path = if seed.kind == 5 {
                walk(&p)
            } else {
                match seed.a % 3 {
                    0 => vec![Cell::new(start.col + 2, start.row)],
                    1 => vec![Cell::new(-1, start.row)],
                    _ => vec![start],
                }
            };
            order(phasing, Action::Move { piece: p.id, path })
        }
        7 => {
            let p = pick(&own).map_or(PieceId(0), |p| p.id);
            let facing = Facing((seed.a % (u16::from(grid.facings()) + 2)) as u8);
            order(phasing, Action::Face { piece: p, facing })
        }
        8 => {
            let p = pick(&own).map_or(PieceId(0), |p| p.id);
            let mode = ModeId(seed.a % (MODES + 1));
            order(phasing, Action::Mode { piece: p, mode })
        }
        9..=11 => {
            let p = pick(&own).map_or(PieceId(0), |p| p.id);
            let target = if seed.kind < 11 && !enemies.is_empty() {
                enemies[usize::from(seed.b) % enemies.len()].id
            } else {
                PieceId(u32::from(seed.b) % (n + 1))
            };
            order(
                phasing,
                Action::Act {
                    piece: p,
                    action: VOLLEY,
                    target: Some(target),
                },
            )
        }
        12 => {
            let p = pick(&own).map_or(PieceId(0), |p| p.id);
            let (action, target) = match seed.a % 3 {
                0 => (ActionId(7), None),
                1 => (VOLLEY, None),
                _ => (VOLLEY, Some(p)),
            };
            order(
                phasing,
                Action::Act {
                    piece: p,
                    action,
                    target,
                },
            )
        }
        13 => order(
            phasing,
            Action::Move {
                piece: PieceId(n + u32::from(seed.a % 5)),
                path: vec![Cell::new(0, 0)],
            },
        ),
        14 => own_move(other),
        15..=18 => order(phasing, Action::EndPhase),
        _ => order(
            if seed.a % 2 == 0 { other } else { SideId(2) },
            Action::EndPhase,
        ),
    }
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
    mut check: impl FnMut(&Applied<'_>) -> Result<(), TestCaseError>,
) -> Result<Vec<Order>, TestCaseError> {
    let mut accepted = Vec::new();
    for seed in seeds {
        let order = interpret(game, seed);
        let before = game.clone();
        let result = game.apply(&order, &mut NoHooks);
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

/// Ends phases until the game is over (at most a generous bound of orders).
fn run_to_the_end(game: &mut Game) -> Result<(), TestCaseError> {
    for _ in 0..1000 {
        let Some((_, phasing)) = game.phase() else {
            return Ok(());
        };
        let r = game.apply(
            &Order {
                side: phasing,
                action: Action::EndPhase,
            },
            &mut NoHooks,
        );
        prop_assert!(r.is_ok(), "ending a phase was refused: {r:?}");
    }
    Err(TestCaseError::fail("the game never ended"))
}

// ---------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------

fn game_inputs() -> impl Strategy<Value = (BoardSpec, Vec<PieceSpec>, u64)> {
    (common::board_spec(), common::piece_specs(), any::<u64>())
}

fn setup_of(spec: &BoardSpec, pieces: &[PieceSpec], seed: u64) -> (Arc<Rules>, Setup) {
    common::scenario(spec, pieces, seed)
}

proptest! {
    #![proptest_config(config(128))]

    /// 1. Reach = shortest path, against the oracle, and every reach path is a legal move
    /// of exactly the reported cost.
    #[test]
    fn reach_is_the_cheapest_legal_path((spec, pieces, seed) in game_inputs()) {
        let (rules, setup) = setup_of(&spec, &pieces, seed);
        let game = common::start(&rules, &setup);
        check_reach(&game)?;
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// 2. Same rules, setup, seed and orders give byte-identical logs and states; a
    /// different seed draws exactly as many random words for the same accepted orders.
    #[test]
    fn games_are_deterministic(
        (spec, pieces, seed) in game_inputs(),
        seeds in order_seeds(20..120),
    ) {
        let (rules, setup) = setup_of(&spec, &pieces, seed);
        let mut first = common::start(&rules, &setup);
        let mut second = common::start(&rules, &setup);
        let accepted = play(&mut first, &seeds, |_| Ok(()))?;
        let again = play(&mut second, &seeds, |_| Ok(()))?;
        prop_assert_eq!(&accepted, &again);
        prop_assert_eq!(log_bytes(&first), log_bytes(&second));
        prop_assert_eq!(first.state_bytes(), second.state_bytes());

        // Another seed, the same accepted orders, until the games disagree on one: each
        // order that both accept draws the same number of words. (A draw is rejected and
        // redrawn with chance 4 in 2^32 per die, which could break this once in a blue
        // moon; not in any run seen.)
        let mut a = common::start(&rules, &setup);
        let mut b = common::start(&rules, &Setup { seed: seed ^ 0x9e37_79b9, ..setup.clone() });
        for order in &accepted {
            let ra = a.apply(order, &mut NoHooks);
            prop_assert!(ra.is_ok(), "a replayed order was refused: {ra:?}");
            if b.apply(order, &mut NoHooks).is_err() {
                break;
            }
            prop_assert_eq!(a.state().rng.position(), b.state().rng.position());
        }
    }

    /// 3. Every refusal leaves the state bytes and the log exactly as they were.
    #[test]
    fn refusals_change_nothing(
        (spec, pieces, seed) in game_inputs(),
        seeds in order_seeds(20..120),
    ) {
        let (rules, setup) = setup_of(&spec, &pieces, seed);
        let mut game = common::start(&rules, &setup);
        play(&mut game, &seeds, |a| {
            if a.result.is_err() {
                prop_assert_eq!(a.before.state_bytes(), a.after.state_bytes());
                prop_assert_eq!(a.before.log().len(), a.after.log().len());
                prop_assert_eq!(a.before.log(), a.after.log());
            }
            Ok(())
        })?;
    }

    /// 4. Whole random games never panic and keep their invariants; once over, every order
    /// is refused as `GameOver` and changes nothing.
    #[test]
    fn invariants_hold_to_game_over(
        (spec, pieces, seed) in game_inputs(),
        seeds in order_seeds(20..120),
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
        let ended = matches!(game.log().last(), Some(Event::GameOver { turns: 3 }));
        prop_assert!(ended, "the log does not end with GameOver");
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

    /// 5. The accepted orders of a game, saved as JSON and re-applied to a fresh game,
    /// are all accepted again and give the same log and state (what `grognard replay`
    /// relies on).
    #[test]
    fn replaying_accepted_orders_gives_the_same_log(
        (spec, pieces, seed) in game_inputs(),
        seeds in order_seeds(20..120),
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
/// the properties rely on really occur: every kind of refusal, and accepted moves,
/// volleys that hit, removals by the hits trigger, and game over. Without this the
/// properties above could pass vacuously.
#[test]
fn random_games_cover_refusals_and_outcomes() {
    let mut runner = TestRunner::deterministic();
    let strategy = (game_inputs(), order_seeds(60..120));
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    let mut events: BTreeMap<&str, usize> = BTreeMap::new();
    let mut geos = (0, 0);
    for _ in 0..60 {
        let ((spec, pieces, seed), seeds) =
            strategy.new_tree(&mut runner).expect("a value").current();
        match spec.geo {
            Geo::Square => geos.0 += 1,
            Geo::Hex => geos.1 += 1,
        }
        let (rules, setup) = setup_of(&spec, &pieces, seed);
        let mut game = common::start(&rules, &setup);
        let result = play(&mut game, &seeds, |a| {
            match a.result {
                Err(r) => *refusals.entry(format!("{:?}", r.kind)).or_default() += 1,
                Ok(evs) => {
                    for e in evs {
                        let name = match e {
                            Event::Moved {
                                stopped: Some(_), ..
                            } => "moved and stopped",
                            Event::Moved { .. } => "moved",
                            Event::Acted { .. } => "acted",
                            Event::CounterChanged { .. } => "counter",
                            Event::Removed { .. } => "removed",
                            Event::ModeChanged { .. } => "mode",
                            Event::Faced { .. } => "faced",
                            Event::GameOver { .. } => "game over",
                            _ => "other",
                        };
                        *events.entry(name).or_default() += 1;
                    }
                }
            }
            Ok(())
        });
        assert!(result.is_ok());
        if game.phase().is_none() {
            let late = game.apply(
                &Order {
                    side: SideId(0),
                    action: Action::EndPhase,
                },
                &mut NoHooks,
            );
            if let Err(r) = late {
                *refusals.entry(format!("{:?}", r.kind)).or_default() += 1;
            }
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
        "BadMode",
        "BadTarget",
    ] {
        assert!(
            refusals.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} refusal in {refusals:?}"
        );
    }
    for name in [
        "moved",
        "moved and stopped",
        "acted",
        "counter",
        "removed",
        "mode",
        "faced",
        "game over",
    ] {
        assert!(
            events.get(name).copied().unwrap_or(0) > 0,
            "no {name} event in {events:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Hand-made cases the oracle and the fixture must get right
// ---------------------------------------------------------------------------------------

/// A 5×1 square strip: the oracle and the kernel agree on a bridge over a river, a ford
/// over a stream and woods, with exact costs worked out by hand.
#[test]
fn strip_with_river_bridge_ford_and_woods() {
    // Terrain rolls: 0 = clear, 12 = woods. Link rolls: bits 2–4 pick the barrier
    // (0 river, 1 stream, else none), bits 5–7 the crossing (0 bridge, 2 ford).
    let none = 0b000_111_01;
    let river_bridge = 0b000_000_01;
    let stream_ford = 0b010_001_01;
    let mut links = vec![none; 5 * 8];
    links[0] = river_bridge; // (0,0)–(1,0): river with a bridge (+0)
    links[8] = stream_ford; // (1,0)–(2,0): stream with a ford (+½)
    let spec = BoardSpec {
        geo: Geo::Square,
        cols: 5,
        rows: 1,
        terrain: vec![0, 0, 12, 0, 0],
        links,
    };
    let pieces = [PieceSpec {
        side: 0,
        kind: INFANTRY.0,
        cell: 0,
        facing: 0,
        mode: 1, // strategic: 5 mp
        hits: 0,
    }];
    let (rules, setup) = setup_of(&spec, &pieces, 1);
    let game = common::start(&rules, &setup);
    let reach: Vec<(i32, Cost)> = match game.reach(PieceId(0), &mut NoHooks) {
        Ok(Reach::Cells(cells)) => cells.iter().map(|r| (r.cell.col, r.cost)).collect(),
        other => panic!("{other:?}"),
    };
    // 1 (bridge +0) → 1; then 1 + ½ ford + ½ woods → 3; then 4; then 5.
    let h = Cost::from_hundredths;
    assert_eq!(
        reach,
        vec![(1, h(100)), (2, h(300)), (3, h(400)), (4, h(500))]
    );
    let oracle: Vec<(i32, Cost)> = oracle_reach(&game, PieceId(0))
        .into_iter()
        .map(|(c, k)| (c.col, k))
        .collect();
    assert_eq!(oracle, reach);
}
