//! Checks beside scripts — an action's `check:` and the `may_face` hook — driven through
//! the kernel with the fixtures `tests/fixtures/hooks/checks.yaml` and
//! `checks-facing.yaml`: `apply` asks them before the action or the turn, the legal orders
//! list on their word alone, and a check that changes the game, rolls or answers something
//! other than nil or a string is the script's error.

mod common;

use common::refused_unchanged;
use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::Facing;
use grognard_kernel::hooks::{HookPoint, Hooks};
use grognard_kernel::ids::{PieceId, SideId};
use grognard_lua::LuaHooks;

const PIECES: &str = "  - { id: a, side: blue, type: infantry, at: [1, 1], facing: E }
  - { id: b, side: blue, type: infantry, at: [4, 1], facing: E }
  - { id: c, side: blue, type: infantry, at: [2, 4], facing: E, counters: { hits: 1 } }
  - { id: foe, side: red, type: infantry, at: [5, 5], facing: W }
";

fn start(fixture: &str) -> (Game, LuaHooks) {
    common::start(
        &format!("tests/fixtures/hooks/{fixture}"),
        "checks.yaml",
        &common::empty_6x6("checks", "", PIECES),
    )
}

fn id(game: &Game, name: &str) -> PieceId {
    game.piece_by_name(name).expect("piece").id
}

fn blue(game: &Game) -> SideId {
    game.piece(id(game, "a")).expect("a").side
}

fn act(game: &Game, who: &str, action: &str, target: Option<&str>) -> Order {
    Order {
        side: blue(game),
        action: Action::Act {
            piece: id(game, who),
            action: game.rules().action_by_name(action).expect("action"),
            target: target.map(|t| id(game, t)),
            intent: Vec::new(),
        },
    }
}

fn face(game: &Game, who: &str, facing: &str) -> Order {
    let grid = game.board().grid().copied().expect("a grid");
    let facing = (0..grid.facings())
        .map(Facing)
        .find(|f| grid.facing_name(*f) == facing)
        .expect("facing");
    Order {
        side: blue(game),
        action: Action::Face {
            piece: id(game, who),
            facing,
        },
    }
}

/// The listed `act` orders of one action, as (actor, target) names.
fn listed_acts(game: &Game, hooks: &mut LuaHooks, action: &str) -> Vec<(String, String)> {
    let wanted = game.rules().action_by_name(action).expect("action");
    let name = |p: PieceId| game.piece(p).expect("piece").name.clone();
    game.legal_orders(blue(game), hooks)
        .into_iter()
        .filter_map(|a| match a {
            Action::Act {
                piece,
                action,
                target,
                ..
            } if action == wanted => Some((name(piece), target.map(name).unwrap_or_default())),
            _ => None,
        })
        .collect()
}

/// The facings listed for one piece, by name in alphabetical order.
fn listed_facings(game: &Game, hooks: &mut LuaHooks, who: &str) -> Vec<String> {
    let grid = game.board().grid().copied().expect("a grid");
    let piece = id(game, who);
    game.legal_orders(blue(game), hooks)
        .into_iter()
        .filter_map(|a| match a {
            Action::Face { piece: p, facing } if p == piece => {
                Some(grid.facing_name(facing).to_owned())
            }
            _ => None,
        })
        .collect::<std::collections::BTreeSet<String>>()
        .into_iter()
        .collect()
}

#[test]
fn an_action_check_decides_in_apply_and_in_the_legal_list() {
    let (mut game, mut hooks) = start("checks.yaml");
    // a and b share row 1; c stands in row 4.
    let mut listed = listed_acts(&game, &mut hooks, "salute");
    listed.sort();
    assert_eq!(
        listed,
        [("a".into(), "b".into()), ("b".into(), "a".into())],
        "only friends in the actor's row"
    );
    let order = act(&game, "a", "salute", Some("c"));
    refused_unchanged(&mut game, &mut hooks, &order, "c is not in a's row");
    let order = act(&game, "a", "salute", Some("b"));
    game.apply(&order, &mut hooks).expect("a salutes b");
    // The drill's first counter is `hits`.
    assert_eq!(game.piece(id(&game, "b")).expect("b").counters[0], 1);
}

#[test]
fn a_check_that_changes_rolls_or_answers_a_number_is_the_scripts_error() {
    let (mut game, mut hooks) = start("checks.yaml");
    for (action, why) in [
        ("greedy", "a check may only read the game"),
        ("rolls", "a check may only read the game"),
        (
            "odd",
            "checks.odd_check returned integer; a check returns nil to allow",
        ),
    ] {
        let order = act(&game, "a", action, None);
        refused_unchanged(&mut game, &mut hooks, &order, why);
        assert!(
            listed_acts(&game, &mut hooks, action).is_empty(),
            "{action} is listed"
        );
    }
}

#[test]
fn may_face_without_the_facing_answers_once_for_every_facing() {
    let (mut game, mut hooks) = start("checks.yaml");
    assert!(hooks.is_bound(HookPoint::MayFace));
    assert!(!hooks.may_face_reads_facing());
    // a may turn every way but the one it faces; c, hit, no way at all.
    assert_eq!(
        listed_facings(&game, &mut hooks, "a"),
        ["N", "NE", "NW", "S", "SE", "SW", "W"]
    );
    assert!(listed_facings(&game, &mut hooks, "c").is_empty());
    let order = face(&game, "c", "N");
    refused_unchanged(&mut game, &mut hooks, &order, "c is hit and may not turn");
    let order = face(&game, "a", "N");
    let events = game.apply(&order, &mut hooks).expect("a turns north");
    assert!(
        format!("{events:?}").contains("a turned from E"),
        "the faced hook ran after may_face: {events:?}"
    );
}

#[test]
fn may_face_with_the_facing_is_asked_for_each() {
    let (mut game, mut hooks) = start("checks-facing.yaml");
    assert!(hooks.may_face_reads_facing());
    assert_eq!(
        listed_facings(&game, &mut hooks, "a"),
        ["NE", "NW", "S", "SE", "SW", "W"]
    );
    let order = face(&game, "a", "N");
    refused_unchanged(&mut game, &mut hooks, &order, "a may not face north");
    let order = face(&game, "c", "S");
    game.apply(&order, &mut hooks)
        .expect("c may turn: this may_face reads no hits");
}

/// Bindings are indexed by hook point: exactly the points the ruleset binds are bound,
/// and every name the rules crate accepts under `hooks:` is a point the host can hold.
#[test]
fn exactly_the_bound_points_are_bound() {
    let (_, hooks) = start("checks.yaml");
    for point in HookPoint::ALL {
        let bound = matches!(point, HookPoint::Faced | HookPoint::MayFace);
        assert_eq!(hooks.is_bound(point), bound, "{}", point.name());
    }
    let names: Vec<&str> = HookPoint::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(names, grognard_rules::compile::HOOK_POINTS);
    for name in grognard_rules::compile::HOOK_POINTS {
        assert_eq!(HookPoint::from_name(name).map(HookPoint::name), Some(name));
    }
}
