//! The kind of refusal an order gets when it asks for what the rules do not have (an action
//! they do not define, an action whose chart they lack, saved points or spread commands in a
//! ruleset without them): `RefusalKind::NotInRules`, not `OutOfPhase`, since no phase would
//! allow it; and a mode the piece's type has no allowance in, `RefusalKind::BadMode`. The
//! hand-built ruleset of the property tests (`common`), changed where a case needs it.

// Each binary that shares these helpers uses only some of them.
#[allow(dead_code)]
mod common;

use std::sync::Arc;

use common::{BoardSpec, Geo, INFANTRY, PieceSpec, SAFE_ROADS, VOLLEY};
use grognard_kernel::action::{Action, Order, Refusal, RefusalKind};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::Cell;
use grognard_kernel::hooks::NoHooks;
use grognard_kernel::ids::{ActionId, ChartId, ModeId, PieceId, SideId};
use grognard_kernel::rules::{Allowed, Rules};

/// A link roll with no road, barrier or crossing (see `common::board`).
const BARE: u8 = 1 | (7 << 2) | (7 << 5);

/// A 3×1 clear strip of squares: blue infantry at (0,0) facing `facing`, red infantry next
/// to it at (1,0), the hand-built rules changed by `change`.
fn strip(facing: u8, change: impl FnOnce(&mut Rules)) -> Game {
    let spec = BoardSpec {
        roads: SAFE_ROADS,
        geo: Geo::Square,
        cols: 3,
        rows: 1,
        terrain: vec![0; 3],
        links: vec![BARE; 3 * 8],
    };
    let infantry = |side, cell, facing| PieceSpec {
        side,
        kind: INFANTRY.0,
        cell,
        facing,
        mode: 0,
        hits: 0,
    };
    let (rules, setup) = common::scenario(&spec, &[infantry(0, 0, facing), infantry(1, 1, 0)], 1);
    assert_eq!(setup.pieces.len(), 2, "both pieces placed");
    let mut rules = (*rules).clone();
    change(&mut rules);
    match Game::new(Arc::new(rules), setup, &mut NoHooks) {
        Ok(game) => game,
        Err(e) => panic!("the strip does not start: {e}"),
    }
}

fn blue(game: &mut Game, action: Action) -> Result<(), Refusal> {
    let order = Order {
        side: SideId(0),
        action,
    };
    game.apply(&order, &mut NoHooks).map(|_| ())
}

#[test]
fn an_action_the_rules_do_not_define_is_not_in_the_rules() {
    // The movement phase lets an action through its gate that the rules do not have.
    let mut game = strip(0, |r| {
        r.sequence.side_turn[0]
            .allows
            .push(Allowed::Action(ActionId(9)));
    });
    let act = Action::Act {
        piece: PieceId(0),
        action: ActionId(9),
        target: None,
        intent: Vec::new(),
    };
    let refused = blue(&mut game, act).expect_err("no action 9");
    assert_eq!(refused.kind, RefusalKind::NotInRules);
    assert_eq!(refused.message, "no such action");
}

#[test]
fn an_action_whose_chart_is_missing_is_not_in_the_rules() {
    // The volley's chart points past the rules' charts (rules built by hand). Whichever
    // facing puts the red piece in the blue one's front arc gives a listed volley.
    for facing in 0..8 {
        let mut game = strip(facing, |r| {
            r.actions[VOLLEY.index()].chart = Some(ChartId(9))
        });
        blue(&mut game, Action::EndPhase).expect("blue ends its movement");
        let volley = game
            .legal_orders(SideId(0), &mut NoHooks)
            .into_iter()
            .find(|a| matches!(a, Action::Act { .. }));
        let Some(volley) = volley else {
            continue;
        };
        let refused = blue(&mut game, volley).expect_err("the chart is missing");
        assert_eq!(refused.kind, RefusalKind::NotInRules);
        assert_eq!(refused.message, "the action's chart is missing");
        return;
    }
    panic!("no facing let blue volley at the piece next to it");
}

#[test]
fn saving_and_spreading_in_rules_without_them_are_not_in_the_rules() {
    let mut game = strip(0, |_| {});
    let save = Action::Save {
        piece: PieceId(0),
        toward: Cell::new(1, 0),
    };
    let refused = blue(&mut game, save).expect_err("no saving rule");
    assert_eq!(refused.kind, RefusalKind::NotInRules);
    assert_eq!(refused.message, "this ruleset has no saved movement points");
    let spread = Action::Extend {
        piece: PieceId(0),
        to: Cell::new(1, 0),
    };
    let refused = blue(&mut game, spread).expect_err("no spreading rule");
    assert_eq!(refused.kind, RefusalKind::NotInRules);
    assert_eq!(
        refused.message,
        "this ruleset does not spread commands over several cells"
    );
}

/// A piece type can take a mode iff it has an allowance in it (`PieceTypeDef::can_take`),
/// and a mode order asks the same: infantry with no allowance in the third mode may not
/// take it (`BadMode`, in the type's words), and may take the second, where it has one.
#[test]
fn a_mode_without_an_allowance_cannot_be_taken() {
    let mut game = strip(0, |rules| {
        rules.piece_types[INFANTRY.index()].allowance[2] = None
    });
    let infantry = game.rules().piece_type(INFANTRY).expect("infantry");
    assert!(!infantry.can_take(ModeId(2)));
    assert!(infantry.can_take(ModeId(1)));
    let third = game.rules().mode_name(ModeId(2)).to_owned();
    let refused = blue(
        &mut game,
        Action::Mode {
            piece: PieceId(0),
            mode: ModeId(2),
        },
    )
    .expect_err("no allowance in the third mode");
    assert_eq!(refused.kind, RefusalKind::BadMode);
    assert_eq!(
        refused.message,
        format!("infantry pieces cannot take {third} mode")
    );
    let second = Action::Mode {
        piece: PieceId(0),
        mode: ModeId(1),
    };
    blue(&mut game, second).expect("an allowance in the second mode");
}
