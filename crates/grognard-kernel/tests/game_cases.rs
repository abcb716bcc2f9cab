//! Hand-made cases the reach oracle (`common/oracle.rs`) and the hand-built ruleset
//! (`common`) must get right: small boards laid out by hand — rivers, bridges, fords and
//! woods, corners and barriers, hex zones of control, stacking and road columns — each with
//! the answer worked out beside it. The random properties are in `game_props.rs`.

// Each binary that shares these helpers uses only some of them.
#[allow(dead_code)]
mod common;

use std::collections::BTreeMap;

use common::oracle::oracle_reach;
use common::{BoardSpec, CAVALRY, COLUMN, Geo, INFANTRY, PieceSpec, Roads, SAFE_ROADS, STRATEGIC};
use grognard_kernel::Cost;
use grognard_kernel::action::{Action, Event, Order, RefusalKind};
use grognard_kernel::game::{Game, Reach, World};
use grognard_kernel::geometry::Cell;
use grognard_kernel::hooks::{HookCommand, HookDice, HookFailure, Hooks, NoHooks};
use grognard_kernel::ids::{ModeId, PieceId, SideId};

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
    let (rules, setup) = common::scenario(&spec, &[one_piece(INFANTRY.0, 0, STRATEGIC.0)], 1);
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
        let (rules, setup) = common::scenario(&spec, &[one_piece(INFANTRY.0, 0, STRATEGIC.0)], 1);
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
        let (rules, setup) = common::scenario(&spec, &[one_piece(INFANTRY.0, 0, 0), red(hits)], 1);
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
    let (rules, setup) = common::scenario(&spec, &[one_piece(INFANTRY.0, 1, 0), far_red], 1);
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
    let placed = |pieces: &[PieceSpec]| common::scenario(&spec, pieces, 1).1.pieces.len();
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
    let (rules, setup) = common::scenario(&spec, &[cav(1), inf(0), inf(0), cav(0)], 1);
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
    let (rules, setup) = common::scenario(&spec, &[one_piece(CAVALRY.0, 0, STRATEGIC.0)], 1);
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

/// Found by the properties (and fixed): the data's step cost (`data_step_price`) skipped the
/// movement class on a road in a road-using mode, so a road led pieces into terrain they may
/// never enter (here a lake), where `Game::new` would refuse to place them. Neither reach nor
/// a move may.
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
    let (rules, setup) = common::scenario(&spec, &[one_piece(INFANTRY.0, 0, STRATEGIC.0)], 1);
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
    let (rules, setup) = common::scenario(&spec, &[one_piece(INFANTRY.0, 0, COLUMN.0)], 1);
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
    let (rules, mut setup) = common::scenario(&spec, &[one_piece(INFANTRY.0, 0, 0)], 1);
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
    let (rules, setup) = common::scenario(&spec, &pieces, 1);
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
