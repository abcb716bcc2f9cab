//! `game:units([side])` and `game:off_board_units([side])`: the units of one side or all,
//! in scenario order, an unknown side's list empty, and each unit the same Lua value in
//! every list (fixture `tests/fixtures/hooks/units.yaml`).

mod common;

use common::notes;
use grognard_kernel::action::{Action, Order};
use grognard_kernel::ids::SideId;

const TABLE: &str = r#"
scenario: units
ruleset: drill-open
seed: 7
board: { width: 48, height: 36 }
sides: { blue: {}, red: {} }
pieces:
  - { id: a, side: blue, type: infantry, at: [10, 10], facing: 0 }
  - { id: foe, side: red, type: infantry, at: [30, 10], facing: 180 }
  - { id: b, side: blue, type: infantry, at: [10, 20], facing: 0 }
  - { id: foe2, side: red, type: cavalry, at: [30, 20], facing: 180 }
"#;

#[test]
fn the_lists_of_units_go_by_side_in_scenario_order() {
    let (mut game, mut hooks) =
        common::start("tests/fixtures/hooks/units.yaml", "units.yaml", TABLE);
    let order = Order {
        side: SideId(0),
        action: Action::Act {
            piece: game.piece_by_name("a").expect("a").id,
            action: game.rules().action_by_name("list").expect("list"),
            target: None,
            intent: Vec::new(),
        },
    };
    let events = game.apply(&order, &mut hooks).expect("list");
    assert_eq!(
        notes(&events),
        [
            "all 4:a,foe,b,foe2",
            "blue 2:a,b",
            "red 2:foe,foe2",
            "nobody 0:",
            "off 0:",
            "off red 0:",
            "same true",
        ]
    );
}
