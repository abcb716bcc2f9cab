//! `may_move_all`, the batch form of the `may_move` check (one call for all of a piece's
//! candidate open-table moves), driven through the kernel with the fixture
//! `tests/fixtures/hooks/may-move-all.yaml`, the same rules as `may-move.yaml` in one
//! call: the listing is the one the single form gives, `apply` asks the batch with its one
//! move, a wrong answer is the hook's fault naming the script's line (never a panic), and
//! a ruleset binds one form only, on an open table only.

mod common;

use common::refused_unchanged;
use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::open::Point;
use grognard_kernel::hooks::{HookPoint, Hooks};
use grognard_kernel::ids::SideId;
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::load_ruleset;

const TABLE: &str = r#"
scenario: may-move-all
ruleset: drill-open
seed: 7
settings: { answer_wrongly: W }
board:
  width: 48
  height: 36
  areas:
    - { name: the wood, terrain: wood, corners: [[16, 0], [34, 0], [34, 17.5], [16, 17.5]] }
sides: { blue: {}, red: {} }
pieces:
  - { id: a, side: blue, type: infantry, at: [10, 16], facing: 0 }
  - { id: foe, side: red, type: infantry, at: [40, 20], facing: 180 }
"#;

fn start(fixture: &str, wrongly: u8) -> (Game, LuaHooks) {
    let text = if fixture.ends_with("may-move.yaml") {
        TABLE.replace("settings: { answer_wrongly: W }\n", "")
    } else {
        TABLE.replace('W', &wrongly.to_string())
    };
    common::start(fixture, "may-move-all.yaml", &text)
}

fn batch(wrongly: u8) -> (Game, LuaHooks) {
    start("tests/fixtures/hooks/may-move-all.yaml", wrongly)
}

#[test]
fn the_batch_lists_what_the_single_form_lists_and_asks_once_per_piece() {
    let (game, mut single) = start("tests/fixtures/hooks/may-move.yaml", 0);
    let (batch_game, mut hooks) = batch(0);
    assert!(
        hooks.is_bound(HookPoint::MayMove),
        "the batch form is may_move bound"
    );
    let one = game.legal_orders(SideId(0), &mut single);
    let all = batch_game.legal_orders(SideId(0), &mut hooks);
    assert_eq!(one, all);
    let refused = game
        .legal_orders(SideId(0), &mut grognard_kernel::hooks::NoHooks)
        .len()
        - all.len();
    assert!(refused > 0, "the check refuses some candidates");
    // One call for the piece that moves, asked about every candidate left.
    let count = |h: &LuaHooks, what: &str| -> i64 {
        let scripts: mlua::Table = h.sandbox().lua().globals().get("scripts").expect("scripts");
        let m: mlua::Table = scripts.get("may_move_all").expect("module");
        m.get(what).expect("count")
    };
    let (calls, asked) = (count(&hooks, "calls"), count(&hooks, "asked"));
    let _ = batch_game.legal_orders(SideId(0), &mut hooks);
    assert_eq!(count(&hooks, "calls") - calls, 1);
    assert!(count(&hooks, "asked") - asked > 10);
}

#[test]
fn apply_asks_the_batch_with_its_one_move() {
    let (mut game, mut hooks) = batch(0);
    let piece = game.piece_by_name("a").expect("a").id;
    let to = |x, y| Order {
        side: SideId(0),
        action: Action::MoveTo {
            piece,
            to: Point::inches(x, y),
            facing: None,
        },
    };
    refused_unchanged(
        &mut game,
        &mut hooks,
        &to(10, 5),
        "a may not cross the river (north of 8 inches)",
    );
    refused_unchanged(
        &mut game,
        &mut hooks,
        &to(10, 11),
        "a would lose sight of foe",
    );
    game.apply(&to(10, 20), &mut hooks)
        .expect("a may move south");
}

#[test]
fn a_wrong_answer_is_the_hooks_fault_at_its_line() {
    for (wrongly, says) in [
        (1, "returned integer"),
        (2, "with key "),
        (3, "returned boolean for move 1"),
    ] {
        let (game, mut hooks) = batch(wrongly);
        let fault = game
            .legal_orders_checked(SideId(0), &mut hooks)
            .expect_err("a wrong answer is a fault");
        assert!(
            fault
                .message
                .contains("may-move-all.lua:6: may_move_all.may_move_all")
                && fault.message.contains(says),
            "{wrongly}: {}",
            fault.message
        );
        // The listing shows no move of the piece rather than one the hook did not allow.
        let listed = game.legal_orders(SideId(0), &mut hooks);
        assert!(!listed.iter().any(|a| matches!(a, Action::MoveTo { .. })));
    }
}

#[test]
fn a_ruleset_binds_one_form_on_an_open_table() {
    let load = |fixture: &str| {
        let r = load_ruleset(&common::root().join(fixture)).unwrap_or_else(|d| panic!("{d}"));
        LuaHooks::new(&r, Limits::default())
            .map(|_| ())
            .expect_err("refused")
            .to_string()
    };
    let both = load("tests/fixtures/hooks/may-move-both.yaml");
    assert!(both.contains("not both"), "{both}");
    let grid = load("tests/fixtures/hooks/may-move-all-grid.yaml");
    assert!(grid.contains("open-table moves"), "{grid}");
}
