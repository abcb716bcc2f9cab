//! `check_all:`, the batch form of an action's check (one call for all the targets of an
//! actor), with the fixture `tests/fixtures/hooks/check-all.yaml`: the listing is the one
//! the one-target checks of `intent-checks.yaml` give, asked once per actor (and intent,
//! when the check reads it); `apply` asks it with its one target; a wrong answer is the
//! hook's fault naming the script's line, never a panic; and a ruleset gives one form,
//! only to an action with a target.

mod common;

use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_kernel::hooks::Hooks;
use grognard_kernel::ids::{PieceId, SideId};
use grognard_lua::LuaHooks;
use grognard_rules::load::load_ruleset;

const PIECES: &str = "  - { id: a, side: blue, type: infantry, at: [1, 1], facing: E }
  - { id: b, side: blue, type: infantry, at: [4, 1], facing: E }
  - { id: c, side: blue, type: infantry, at: [2, 4], facing: E }
  - { id: foe, side: red, type: infantry, at: [5, 5], facing: W }
";

fn start(wrongly: u8) -> (Game, LuaHooks) {
    let settings = format!("{{ answer_wrongly: {wrongly} }}");
    common::start(
        "tests/fixtures/hooks/check-all.yaml",
        "check-all.yaml",
        &common::empty_6x6("check-all", &settings, PIECES),
    )
}

fn id(game: &Game, name: &str) -> PieceId {
    game.piece_by_name(name).expect("piece").id
}

const BLUE: SideId = SideId(0);

/// The listed orders of one action, as "actor>target:intent", in the listing's order.
fn listed(list: &[Action], game: &Game, action: &str) -> Vec<String> {
    let wanted = game.rules().action_by_name(action).expect("action");
    let name = |p: PieceId| game.piece(p).expect("piece").name.clone();
    list.iter()
        .filter_map(|a| match a {
            Action::Act {
                piece,
                action,
                target,
                intent,
            } if *action == wanted => Some(format!(
                "{}>{}:{}",
                name(*piece),
                target.map(name).unwrap_or_default(),
                intent.join("+")
            )),
            _ => None,
        })
        .collect()
}

fn batches(hooks: &LuaHooks, check: &str) -> i64 {
    let batches: mlua::Table = hooks
        .sandbox()
        .lua()
        .globals()
        .get("batches")
        .expect("batches");
    batches.get(check).expect("a count")
}

#[test]
fn the_batch_lists_what_the_one_target_check_lists_once_per_actor() {
    let (game, mut hooks) = start(0);
    let list = game.legal_orders(BLUE, &mut hooks);
    for (one, all) in [("blind", "blind_all"), ("reads", "reads_all")] {
        let batch = listed(&list, &game, all);
        assert!(!batch.is_empty(), "{all} lists nothing");
        assert_eq!(batch, listed(&list, &game, one), "{all} against {one}");
    }
    // Three actors (a, b, c): `blind_all` never reads the intent, so once each;
    // `reads_all` once per intent (none and three).
    assert_eq!(batches(&hooks, "blind"), 3);
    assert_eq!(batches(&hooks, "reads"), 12);
    assert!(hooks.take_fault().is_none());
}

#[test]
fn apply_asks_the_batch_with_its_one_target() {
    let (mut game, mut hooks) = start(0);
    let act = |game: &Game, action: &str, target: &str, intent: &str| Order {
        side: BLUE,
        action: Action::Act {
            piece: id(game, "a"),
            action: game.rules().action_by_name(action).expect("action"),
            target: Some(id(game, target)),
            intent: if intent.is_empty() {
                Vec::new()
            } else {
                vec![intent.to_owned()]
            },
        },
    };
    let why = game
        .apply(&act(&game, "blind_all", "c", ""), &mut hooks)
        .expect_err("c is not in a's row")
        .message;
    assert_eq!(why, "c is not in a's row");
    let why = game
        .apply(&act(&game, "reads_all", "b", "right"), &mut hooks)
        .expect_err("reads refuses right")
        .message;
    assert_eq!(why, "not to the right");
    game.apply(&act(&game, "reads_all", "b", "left"), &mut hooks)
        .expect("a row-mate, to the left");
}

#[test]
fn a_wrong_answer_is_the_hooks_fault_at_its_line() {
    for (wrongly, says) in [
        (1, "returned integer"),
        (2, "with key 3"),
        (3, "returned boolean for target 1"),
    ] {
        let (game, mut hooks) = start(wrongly);
        let fault = game
            .legal_orders_checked(BLUE, &mut hooks)
            .expect_err("a wrong answer is a fault");
        assert!(
            fault
                .message
                .contains("check-all.lua:37: check_all.wrong_all")
                && fault.message.contains(says),
            "{wrongly}: {}",
            fault.message
        );
    }
}

#[test]
fn one_form_and_only_for_an_action_with_a_target() {
    let root = common::root();
    let errors = load_ruleset(&root.join("tests/fixtures/hooks/check-all-both.yaml"))
        .expect_err("refused")
        .to_string();
    assert!(
        errors.contains("`check_all` is the batch form of `check`: give one or the other"),
        "{errors}"
    );
    assert!(
        errors.contains("an action with no target has one `check`"),
        "{errors}"
    );
}
