//! Hook requests that move, turn and attach pieces (`game:place`, `game:face`,
//! `game:attach`) and the `moved` and `faced` hooks, driven through the kernel with the
//! fixture `tests/fixtures/hooks/place.yaml`. Every refusal leaves the game unchanged.

mod common;

use grognard_kernel::action::{Action, Event, Order, Refusal};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::{Cell, Facing};
use grognard_kernel::piece::Place;
use grognard_lua::LuaHooks;

const PIECES: &str = "  - { id: a, side: blue, type: infantry, at: [1, 1], facing: E }
  - { id: b, side: blue, type: infantry, at: [4, 4] }
  - { id: foe, side: red, type: infantry, at: [0, 5] }
  - { id: f2, side: red, type: infantry, at: [5, 0] }
  - { id: f3, side: red, type: infantry, at: [5, 0] }
";

fn start(to: (i32, i32)) -> (Game, LuaHooks) {
    let settings = format!("{{ to_col: {}, to_row: {} }}", to.0, to.1);
    common::start(
        "tests/fixtures/hooks/place.yaml",
        "place.yaml",
        &common::empty_6x6("place", &settings, PIECES),
    )
}

fn id(game: &Game, name: &str) -> grognard_kernel::ids::PieceId {
    game.piece_by_name(name).expect("piece").id
}

fn act(
    game: &mut Game,
    hooks: &mut LuaHooks,
    who: &str,
    action: &str,
    target: Option<&str>,
) -> Result<Vec<Event>, Refusal> {
    let piece = id(game, who);
    let side = game.piece(piece).expect("piece").side;
    let action = game.rules().action_by_name(action).expect("action");
    let target = target.map(|t| id(game, t));
    game.apply(
        &Order {
            side,
            action: Action::Act {
                piece,
                action,
                target,
                intent: Vec::new(),
            },
        },
        hooks,
    )
}

fn refused_unchanged(game: &mut Game, hooks: &mut LuaHooks, order: Order, why: &str) {
    common::refused_unchanged(game, hooks, &order, why);
}

fn shove_order(game: &Game) -> Order {
    Order {
        side: game.piece(id(game, "a")).expect("a").side,
        action: Action::Act {
            piece: id(game, "a"),
            action: game.rules().action_by_name("shove").expect("shove"),
            target: Some(id(game, "foe")),
            intent: Vec::new(),
        },
    }
}

#[test]
fn place_moves_a_piece_to_a_free_cell_and_logs_it() {
    let (mut game, mut hooks) = start((3, 3));
    let events = act(&mut game, &mut hooks, "a", "shove", Some("foe")).expect("shove");
    let foe = id(&game, "foe");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Placed { piece, from, to, reason }
            if *piece == foe && *from == Cell::new(0, 5) && *to == Cell::new(3, 3) && reason == "shoved"
    )));
    assert_eq!(
        game.piece(foe).expect("foe").place,
        Place::Cell(Cell::new(3, 3))
    );
}

#[test]
fn place_refuses_enemy_cells_the_edge_and_stacking() {
    // (4,4) holds Blue's b: an enemy cell for Red's foe.
    let (mut game, mut hooks) = start((4, 4));
    let order = shove_order(&game);
    refused_unchanged(&mut game, &mut hooks, order, "held by the enemy");
    let (mut game, mut hooks) = start((6, 0));
    let order = shove_order(&game);
    refused_unchanged(&mut game, &mut hooks, order, "off the board");
    // (5,0) already holds two red blocks; a third is over the 2½ limit.
    let (mut game, mut hooks) = start((5, 0));
    let order = shove_order(&game);
    refused_unchanged(&mut game, &mut hooks, order, "over the limit");
}

#[test]
fn face_and_attach_requests() {
    let (mut game, mut hooks) = start((3, 3));
    act(&mut game, &mut hooks, "a", "turn_about", None).expect("turn about");
    let a = id(&game, "a");
    // Square grids have eight facings: four steps round from E is W.
    assert_eq!(game.piece(a).expect("a").facing, Facing(4));
    let events = act(&mut game, &mut hooks, "a", "join", Some("b")).expect("join");
    let b = id(&game, "b");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Attached { piece, to: Some(h) } if *piece == a && *h == b))
    );
    let joined = game.piece(a).expect("a");
    assert_eq!(joined.attached_to, Some(b));
    assert_eq!(joined.place, Place::Cell(Cell::new(4, 4)));
}

#[test]
fn moved_hook_adds_effects_or_refuses_the_move() {
    let (mut game, mut hooks) = start((3, 3));
    let a = id(&game, "a");
    let side = game.piece(a).expect("a").side;
    let through = Order {
        side,
        action: Action::Move {
            piece: a,
            path: vec![Cell::new(2, 2)],
        },
    };
    refused_unchanged(
        &mut game,
        &mut hooks,
        through,
        "no path through (2,2) (started facing E)",
    );
    let fine = Order {
        side,
        action: Action::Move {
            piece: a,
            path: vec![Cell::new(2, 1)],
        },
    };
    let events = game.apply(&fine, &mut hooks).expect("move");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::CounterChanged { counter, from: 0, to: 1, .. } if counter == "hits"
    )));
}

#[test]
fn faced_hook_may_refuse_a_facing() {
    let (mut game, mut hooks) = start((3, 3));
    let a = id(&game, "a");
    let side = game.piece(a).expect("a").side;
    let north = Order {
        side,
        action: Action::Face {
            piece: a,
            facing: Facing(6),
        },
    };
    refused_unchanged(&mut game, &mut hooks, north, "a may not face north (was E)");
    let south = Order {
        side,
        action: Action::Face {
            piece: a,
            facing: Facing(2),
        },
    };
    game.apply(&south, &mut hooks).expect("face south");
    assert_eq!(game.piece(a).expect("a").facing, Facing(2));
}
