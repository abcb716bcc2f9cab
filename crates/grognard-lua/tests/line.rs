//! `game:line` and `game:blocks_sight`: the centre-to-centre line a hook can trace between
//! two cells, as the engine's line of sight traces it, driven through the kernel with the
//! fixture `tests/fixtures/hooks/line.yaml`.

mod common;

use common::notes;
use grognard_kernel::action::{Action, Order, RefusalKind};
use grognard_kernel::game::Game;
use grognard_lua::LuaHooks;

const BOARD: &str = r#"
scenario: line
ruleset: drill-hex
seed: 7
board:
  cols: 6
  rows: 6
  legend: { ".": clear, F: forest }
  map: |
    . . . . . .
    F . . . . .
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .
sides: { blue: {}, red: {} }
pieces:
  - { id: a, side: blue, type: infantry, at: [1, 0], facing: E }
  - { id: b, side: red, type: infantry, at: [1, 2] }
  - { id: c, side: red, type: infantry, at: [4, 3] }
"#;

fn start() -> (Game, LuaHooks) {
    common::start("tests/fixtures/hooks/line.yaml", "line.yaml", BOARD)
}

fn order(game: &Game, action: &str, target: Option<&str>) -> Order {
    let a = game.piece_by_name("a").expect("a");
    Order {
        side: a.side,
        action: Action::Act {
            piece: a.id,
            action: game.rules().action_by_name(action).expect("action"),
            target: target.map(|t| game.piece_by_name(t).expect("target").id),
            intent: Vec::new(),
        },
    }
}

#[test]
fn line_lists_each_hex_and_edges_with_blocking_terrain() {
    let (mut game, mut hooks) = start();
    // Due south from (1,0) to (1,2) the line runs along the edge of (0,1), a forest, and
    // (1,1).
    let o = order(&game, "trace", Some("b"));
    let events = game.apply(&o, &mut hooks).expect("trace b");
    assert_eq!(notes(&events), ["1,0 0,1*|1,1 1,2"]);
    // Five hexes away: one hex a step (distance + 1 entries), both ends included (an
    // action is used once a phase, so on a fresh game).
    let (mut game, mut hooks) = start();
    let o = order(&game, "trace", Some("c"));
    let events = game.apply(&o, &mut hooks).expect("trace c");
    assert_eq!(notes(&events), ["1,0 1,1 2,1 3,2 4,2 4,3"]);
}

#[test]
fn line_to_a_cell_off_the_board_is_an_error() {
    let (mut game, mut hooks) = start();
    let before = game.state_bytes();
    let o = order(&game, "trace_off", None);
    let r = game.apply(&o, &mut hooks).expect_err("off the board");
    assert_eq!(r.kind, RefusalKind::HookFailed, "{r:?}");
    assert!(
        r.message
            .contains("game:line: the second cell (99,0) is off the board"),
        "{}",
        r.message
    );
    assert_eq!(game.state_bytes(), before);
}
