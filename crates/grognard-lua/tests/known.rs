//! `game:known(u, side)`: whether a side knows where a piece stands — its own pieces, every
//! piece without sighting rules, else what its sightings hold — driven through the kernel
//! with the fixtures `tests/fixtures/hooks/known.yaml` (sighting within 2 hexes) and
//! `known-open.yaml` (none).

mod common;

use common::notes;
use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_lua::LuaHooks;

const BOARD: &str = r#"
scenario: known
ruleset: drill-hex
seed: 7
board:
  cols: 8
  rows: 6
  legend: { ".": clear }
  map: |
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
sides: { blue: {}, red: {} }
pieces:
  - { id: a, side: blue, type: infantry, at: [1, 1], facing: E }
  - { id: near, side: red, type: infantry, at: [3, 1] }
  - { id: far, side: red, type: infantry, at: [7, 5] }
"#;

fn act(game: &Game, action: &str) -> Order {
    let a = game.piece_by_name("a").expect("a");
    Order {
        side: a.side,
        action: Action::Act {
            piece: a.id,
            action: game.rules().action_by_name(action).expect("action"),
            target: None,
            intent: Vec::new(),
        },
    }
}

fn probe(fixture: &str) -> Vec<String> {
    let (mut game, mut hooks): (Game, LuaHooks) = common::start(fixture, "known.yaml", BOARD);
    let o = act(&game, "probe");
    let events = game.apply(&o, &mut hooks).expect("probe");
    notes(&events)
}

#[test]
fn a_side_knows_its_own_pieces_and_the_enemies_it_sights() {
    // `near` is 2 hexes from a (sighted), `far` 6 or more (not).
    assert_eq!(
        probe("tests/fixtures/hooks/known.yaml"),
        ["a=true near=true far=false"]
    );
}

#[test]
fn without_sighting_rules_every_piece_on_the_board_is_known() {
    assert_eq!(
        probe("tests/fixtures/hooks/known-open.yaml"),
        ["a=true near=true far=true"]
    );
}

#[test]
fn an_unknown_side_is_an_error_naming_the_sides() {
    let (mut game, mut hooks): (Game, LuaHooks) =
        common::start("tests/fixtures/hooks/known-open.yaml", "known.yaml", BOARD);
    let o = act(&game, "probe_green");
    let err = game.apply(&o, &mut hooks).expect_err("green");
    let text = err.to_string();
    assert!(text.contains("green"), "{text}");
    assert!(text.contains("blue"), "{text}");
}

const DUMMIES: &str = r#"
scenario: known-dummies
ruleset: drill-hex
seed: 7
board:
  cols: 8
  rows: 6
  legend: { ".": clear }
  map: |
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
sides: { blue: {}, red: {} }
pieces:
  - { id: a, side: blue, type: infantry, at: [1, 1], facing: E }
  - { id: own, side: blue, type: decoy, at: [1, 3], facing: E }
  - { id: near, side: red, type: infantry, at: [2, 2] }
  - { id: nearfake, side: red, type: decoy, at: [3, 1] }
  - { id: farfake, side: red, type: decoy, at: [7, 5] }
"#;

fn probe_dummies(fixture: &str) -> Vec<String> {
    let (mut game, mut hooks): (Game, LuaHooks) =
        common::start(fixture, "known-dummies.yaml", DUMMIES);
    let o = act(&game, "probe_dummy");
    let events = game.apply(&o, &mut hooks).expect("probe_dummy");
    notes(&events)
}

#[test]
fn a_side_knows_its_own_dummies_and_the_enemy_dummies_its_sightings_disclosed() {
    // `nearfake` is 2 hexes from a (sighted: identity, so real-or-dummy, disclosed);
    // `farfake` is out of sight; `near` is real; `own` is Blue's own dummy.
    assert_eq!(
        probe_dummies("tests/fixtures/hooks/known.yaml"),
        ["a=false own=true near=false nearfake=true farfake=false"]
    );
    assert_eq!(
        probe_dummies("tests/fixtures/hooks/known-open.yaml"),
        ["a=false own=true near=false nearfake=true farfake=true"]
    );
}

const LABELS: &str = r#"
scenario: known-labels
ruleset: drill-hex
seed: 7
board:
  cols: 8
  rows: 6
  legend: { ".": clear }
  map: |
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
sides: { blue: {}, red: {} }
pieces:
  - { id: a, side: blue, type: infantry, at: [1, 1], facing: E }
  - { id: near, side: red, type: infantry, at: [3, 1] }
  - { id: mid, side: red, type: infantry, at: [5, 1] }
  - { id: far, side: red, type: infantry, at: [7, 5] }
"#;

fn probe_labels(fixture: &str) -> Vec<String> {
    let (mut game, mut hooks): (Game, LuaHooks) =
        common::start(fixture, "known-labels.yaml", LABELS);
    let o = act(&game, "probe_label");
    let events = game.apply(&o, &mut hooks).expect("probe_label");
    notes(&events)
}

#[test]
fn a_side_reads_the_names_it_knows_and_handles_for_the_rest() {
    // Blue's a is #0; `near` (2 hexes) is seen and identified; `mid` (4 hexes) glimpsed,
    // its place known but not who it is: the second enemy Blue learnt of (row, then
    // column), #2; `far` is out of sight.
    assert_eq!(
        probe_labels("tests/fixtures/hooks/known.yaml"),
        ["a, near, enemy #2, an unseen enemy"]
    );
    assert_eq!(
        probe_labels("tests/fixtures/hooks/known-open.yaml"),
        ["a, near, mid, far"]
    );
}
