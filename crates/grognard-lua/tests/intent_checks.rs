//! The legal-order generator and action checks that do not read the intent: with the
//! fixture `tests/fixtures/hooks/intent-checks.yaml`, a check that never calls
//! `game:intent()` is asked once per actor and target, not once per intent, and the list is
//! the one asking every intent gives (and `apply` agrees with it).

mod common;

use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_kernel::hooks::Hooks;
use grognard_kernel::ids::{PieceId, SideId};
use grognard_lua::LuaHooks;

const PIECES: &str = "  - { id: a, side: blue, type: infantry, at: [1, 1], facing: E }
  - { id: b, side: blue, type: infantry, at: [4, 1], facing: E }
  - { id: c, side: blue, type: infantry, at: [2, 4], facing: E }
  - { id: foe, side: red, type: infantry, at: [5, 5], facing: W }
";

fn start() -> (Game, LuaHooks) {
    common::start(
        "tests/fixtures/hooks/intent-checks.yaml",
        "intent-checks.yaml",
        &common::empty_6x6("intent-checks", "", PIECES),
    )
}

fn id(game: &Game, name: &str) -> PieceId {
    game.piece_by_name(name).expect("piece").id
}

fn blue(game: &Game) -> SideId {
    game.piece(id(game, "a")).expect("a").side
}

/// How often each check has been asked (the fixture's global `asked`).
fn asked(hooks: &LuaHooks, check: &str) -> i64 {
    let asked: mlua::Table = hooks.sandbox().lua().globals().get("asked").expect("asked");
    asked.get(check).expect("a count")
}

/// The listed orders of one action, as "actor>target:intent", sorted.
fn listed(game: &Game, hooks: &mut LuaHooks, action: &str) -> Vec<String> {
    let wanted = game.rules().action_by_name(action).expect("action");
    let name = |p: PieceId| game.piece(p).expect("piece").name.clone();
    let mut out: Vec<String> = game
        .legal_orders(blue(game), hooks)
        .into_iter()
        .filter_map(|a| match a {
            Action::Act {
                piece,
                action,
                target,
                intent,
            } if action == wanted => Some(format!(
                "{}>{}:{}",
                name(piece),
                target.map(name).unwrap_or_default(),
                intent.join("+")
            )),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

fn act(game: &Game, action: &str, (who, target): (&str, &str), intent: &str) -> Order {
    Order {
        side: blue(game),
        action: Action::Act {
            piece: id(game, who),
            action: game.rules().action_by_name(action).expect("action"),
            target: Some(id(game, target)),
            intent: if intent.is_empty() {
                Vec::new()
            } else {
                vec![intent.to_owned()]
            },
        },
    }
}

#[test]
fn a_check_that_does_not_read_the_intent_is_asked_once_per_target_while_listing() {
    let (game, mut hooks) = start();
    // a and b share row 1; c stands alone in row 4.
    let every = |pairs: &[&str], intents: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = pairs
            .iter()
            .flat_map(|p| intents.iter().map(move |i| format!("{p}:{i}")))
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        listed(&game, &mut hooks, "blind"),
        every(&["a>b", "b>a"], &["", "left", "right", "centre"])
    );
    assert_eq!(
        listed(&game, &mut hooks, "reads"),
        every(&["a>b", "b>a"], &["", "left", "centre"])
    );
    let (blind, reads) = (asked(&hooks, "blind"), asked(&hooks, "reads"));
    // Each listing asks both checks; `reads` once per intent (none and three), `blind`
    // once per actor and target.
    assert!(blind > 0, "the blind check was never asked");
    assert_eq!(reads, 4 * blind, "blind {blind}, reads {reads}");
}

#[test]
fn apply_still_asks_a_check_that_ignores_the_intent_with_every_intent() {
    let (mut game, mut hooks) = start();
    for intent in ["", "left", "right", "centre"] {
        let refused = game.apply(&act(&game, "blind", ("a", "c"), intent), &mut hooks);
        let why = refused.expect_err("c is not in a's row").message;
        assert!(why.contains("c is not in a's row"), "{why}");
    }
    game.apply(&act(&game, "blind", ("a", "b"), "right"), &mut hooks)
        .expect("blind allows any intent toward a row-mate");
    let refused = game.apply(&act(&game, "reads", ("a", "b"), "right"), &mut hooks);
    assert!(refused.is_err(), "reads refuses the intent right");
    assert!(hooks.take_fault().is_none(), "no check faulted");
}
