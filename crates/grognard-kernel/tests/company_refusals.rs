//! A move into own pieces a type's company rules (`joins`, `passes`) neither let it pass
//! nor join is refused `Occupied`, naming the pieces there with their types
//! (`company::CompanyBan`, worded when the move is refused). The hand-built ruleset of the
//! property tests (`common`), with infantry given a `joins` list.

// Each binary that shares these helpers uses only some of them.
#[allow(dead_code)]
mod common;

use std::sync::Arc;

use common::{BoardSpec, CAVALRY, Geo, INFANTRY, PieceSpec, SAFE_ROADS};
use grognard_kernel::action::{Action, Order, RefusalKind};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::Cell;
use grognard_kernel::hooks::NoHooks;
use grognard_kernel::ids::{PieceId, PieceTypeId, SideId};

/// A link roll with no road, barrier or crossing (see `common::board`).
const BARE: u8 = 1 | (7 << 2) | (7 << 5);

/// A 3×1 clear strip of squares with blue pieces of the (kind, cell) pairs given, the
/// infantry type joining only `joins`.
fn strip(pieces: &[(u16, usize)], joins: PieceTypeId) -> Game {
    let spec = BoardSpec {
        roads: SAFE_ROADS,
        geo: Geo::Square,
        cols: 3,
        rows: 1,
        terrain: vec![0; 3],
        links: vec![BARE; 3 * 8],
    };
    let specs: Vec<PieceSpec> = pieces
        .iter()
        .map(|&(kind, cell)| PieceSpec {
            side: 0,
            kind,
            cell,
            facing: 0,
            mode: 0,
            hits: 0,
        })
        .collect();
    let (rules, setup) = common::scenario(&spec, &specs, 1);
    assert_eq!(setup.pieces.len(), pieces.len(), "every piece placed");
    let mut rules = (*rules).clone();
    rules.piece_types[INFANTRY.index()].company.joins = vec![joins];
    match Game::new(Arc::new(rules), setup, &mut NoHooks) {
        Ok(game) => game,
        Err(e) => panic!("the strip does not start: {e}"),
    }
}

/// The refusal of blue's p0 moving from (0,0) into (1,0).
fn step_in(mut game: Game) -> (RefusalKind, String) {
    let order = Order {
        side: SideId(0),
        action: Action::Move {
            piece: PieceId(0),
            path: vec![Cell::new(1, 0)],
        },
    };
    match game.apply(&order, &mut NoHooks) {
        Ok(_) => panic!("the move into (1,0) was allowed"),
        Err(r) => (r.kind, r.message),
    }
}

#[test]
fn infantry_that_joins_only_cavalry_may_not_enter_its_own_infantry() {
    let game = strip(&[(INFANTRY.0, 0), (INFANTRY.0, 1)], CAVALRY);
    assert_eq!(
        step_in(game),
        (
            RefusalKind::Occupied,
            "p0 cannot enter (1,0): infantry may neither pass nor join p1 (infantry)".to_owned()
        )
    );
}

#[test]
fn a_piece_joins_only_a_lone_piece_so_two_are_named() {
    let game = strip(
        &[(INFANTRY.0, 0), (INFANTRY.0, 1), (CAVALRY.0, 1)],
        INFANTRY,
    );
    assert_eq!(
        step_in(game),
        (
            RefusalKind::Occupied,
            "p0 cannot enter (1,0): infantry may neither pass nor join p1 (infantry), p2 (cavalry)"
                .to_owned()
        )
    );
}
