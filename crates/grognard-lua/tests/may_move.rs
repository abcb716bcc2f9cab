//! The `may_move` check beside the `moved` hook on an open table, driven through the kernel
//! with the fixture `tests/fixtures/hooks/may-move.yaml`: `apply` asks it before the move
//! and its reason refuses the move; the legal orders list exactly the moves it allows,
//! asking it instead of trying each move with `moved`; `game:sight_from` and
//! `game:distance_from` read at a move's end what the unit finds once it stands there; and
//! on a grid it is asked the same way, for the path reach gives each listed cell.

mod common;

use common::{notes, refused_unchanged};
use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::open::Point;
use grognard_kernel::hooks::NoHooks;
use grognard_kernel::ids::SideId;
use grognard_lua::LuaHooks;

// A wood fills the table north of 17.5" between x = 16 and 34: from where `a` stands it
// sees `foe` past the wood's southern edge; from 5 inches further north it does not.
const TABLE: &str = r#"
scenario: may-move
ruleset: drill-open
seed: 7
settings: { moved_refuses: R }
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

fn start(moved_refuses: bool) -> (Game, LuaHooks) {
    let text = TABLE.replace('R', if moved_refuses { "1" } else { "0" });
    common::start("tests/fixtures/hooks/may-move.yaml", "may-move.yaml", &text)
}

fn move_to(game: &Game, x: i64, y: i64) -> Order {
    let piece = game.piece_by_name("a").expect("a").id;
    Order {
        side: SideId(0),
        action: Action::MoveTo {
            piece,
            to: Point::inches(x, y),
            facing: None,
        },
    }
}

fn table_moves(list: &[Action]) -> Vec<Action> {
    list.iter()
        .filter(|a| matches!(a, Action::MoveTo { .. }))
        .cloned()
        .collect()
}

#[test]
fn a_move_may_move_refuses_is_refused_in_its_words_and_changes_nothing() {
    let (mut game, mut hooks) = start(false);
    let order = move_to(&game, 10, 5);
    refused_unchanged(
        &mut game,
        &mut hooks,
        &order,
        "a may not cross the river (north of 8 inches)",
    );
    let order = move_to(&game, 10, 11);
    refused_unchanged(&mut game, &mut hooks, &order, "a would lose sight of foe");
    let order = move_to(&game, 10, 20);
    let events = game.apply(&order, &mut hooks).expect("a may move south");
    assert_eq!(
        notes(&events),
        ["sight true true", "distance 29.212 29.212"],
        "the moved hook ran after may_move allowed the move"
    );
}

/// The listing is the data's moves (as listed with no hooks) that `apply` accepts with the
/// hooks, no more and no fewer; the check refuses some of them, for each of its reasons.
#[test]
fn the_legal_moves_are_the_moves_may_move_allows() {
    let (game, mut hooks) = start(false);
    let listed = table_moves(&game.legal_orders(SideId(0), &mut hooks));
    let all = table_moves(&game.legal_orders(SideId(0), &mut NoHooks));
    let (mut river, mut sight) = (0, 0);
    for action in &all {
        let mut g = game.clone();
        let order = Order {
            side: SideId(0),
            action: action.clone(),
        };
        match g.apply(&order, &mut hooks) {
            Ok(events) => {
                assert!(listed.contains(action), "{action:?} accepted, not listed");
                // What may_move measured at the end is what the unit finds there.
                let notes = notes(&events);
                let pair = |line: &str| {
                    let v: Vec<&str> = line.split(' ').skip(1).collect();
                    assert_eq!(v[0], v[1], "{line}");
                };
                notes.iter().for_each(|n| pair(n));
            }
            Err(r) => {
                assert!(
                    !listed.contains(action),
                    "{action:?} listed, refused: {r:?}"
                );
                river += usize::from(r.message.contains("river"));
                sight += usize::from(r.message.contains("lose sight"));
            }
        }
    }
    assert!(river > 0 && sight > 0, "river {river}, sight {sight}");
    assert!(listed.len() < all.len());
}

/// With `may_move` bound the listing asks it alone: a `moved` hook that refuses what
/// `may_move` allows (a ruleset bug `grognard fuzz` reports) does not shorten the list.
#[test]
fn the_listing_asks_may_move_instead_of_trying_moved() {
    let (game, mut hooks) = start(true);
    let listed = table_moves(&game.legal_orders(SideId(0), &mut hooks));
    let (fair, mut fair_hooks) = start(false);
    assert_eq!(
        listed,
        table_moves(&fair.legal_orders(SideId(0), &mut fair_hooks))
    );
    assert!(!listed.is_empty());
    let mut g = game.clone();
    let order = Order {
        side: SideId(0),
        action: listed[0].clone(),
    };
    let r = g.apply(&order, &mut hooks).expect_err("moved refuses");
    assert!(r.message.contains("moved refuses every move"), "{r:?}");
}

#[test]
fn may_move_judges_grid_moves_in_the_listing_and_in_apply() {
    // A grid overlay whose `may_move` refuses a move ending in column 3 or further east,
    // which reach cannot know: the listing leaves those moves out, `apply` refuses them in
    // the check's words, and every other listed move is accepted.
    let dir = std::env::temp_dir().join(format!("grognard-may-move-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(
        dir.join("m.lua"),
        "return { may_move = function(game, unit, path, facing)\n\
         \x20 assert(path[1].col == 2 and path[1].row == 2 and type(facing) == 'string')\n\
         \x20 if path[#path].col >= 3 then return 'not east of column 2' end\n\
         end }\n",
    )
    .expect("lua");
    std::fs::write(
        dir.join("grid.yaml"),
        format!(
            "ruleset: grid-may-move\nextends: {}\nscripts:\n  m: m.lua\nhooks:\n  may_move: m.may_move\n",
            common::root().join("rulesets/drill-square.yaml").display()
        ),
    )
    .expect("yaml");
    let r = grognard_rules::load::load_ruleset(&dir.join("grid.yaml"));
    let _ = std::fs::remove_dir_all(&dir);
    let r = r.unwrap_or_else(|d| panic!("{d}"));
    let text = common::empty_6x6(
        "grid-may-move",
        "",
        "  - { id: a, side: blue, type: infantry, at: [2, 2] }\n  - { id: foe, side: red, type: infantry, at: [5, 5] }\n",
    )
    .replace("ruleset: drill-square", "ruleset: grid-may-move");
    let s = grognard_rules::load::scenario_from_text("g.yaml", &text, &r)
        .unwrap_or_else(|d| panic!("{d}"));
    let mut hooks =
        LuaHooks::new(&r, grognard_lua::Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let mut game = s
        .start(None, &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    let (_, side) = game.phase().expect("a phase");
    assert_eq!(side, SideId(0));
    let moves: Vec<Action> = game
        .legal_orders(side, &mut hooks)
        .into_iter()
        .filter(|a| matches!(a, Action::Move { .. }))
        .collect();
    assert!(!moves.is_empty());
    for m in &moves {
        let Action::Move { path, .. } = m else {
            unreachable!()
        };
        assert!(path.last().is_some_and(|c| c.col < 3), "listed: {m:?}");
        let mut g = game.clone();
        g.apply(
            &Order {
                side,
                action: m.clone(),
            },
            &mut hooks,
        )
        .unwrap_or_else(|r| panic!("listed and refused: {m:?}: {r:?}"));
    }
    let piece = game.piece_by_name("a").expect("a").id;
    let east = Order {
        side,
        action: Action::Move {
            piece,
            path: vec![grognard_kernel::geometry::Cell::new(3, 2)],
        },
    };
    refused_unchanged(&mut game, &mut hooks, &east, "not east of column 2");
}

#[test]
fn may_move_flags_ask_the_grid_hook_only_of_a_flagged_piece() {
    // The same refusing `may_move`, gated by `may_move_flags: [shaken]`: an unshaken piece is
    // never asked (its move east is listed and accepted); a shaken one is asked and refused.
    let dir = std::env::temp_dir().join(format!("grognard-may-move-flags-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(
        dir.join("m.lua"),
        "return { may_move = function(game, unit, path, facing)\n\
         \x20 if path[#path].col >= 3 then return 'not east of column 2' end\n\
         end }\n",
    )
    .expect("lua");
    std::fs::write(
        dir.join("grid.yaml"),
        format!(
            "ruleset: grid-may-move\nextends: {}\nscripts:\n  m: m.lua\nhooks:\n  may_move: m.may_move\nmay_move_flags: [shaken]\n",
            common::root().join("rulesets/drill-square.yaml").display()
        ),
    )
    .expect("yaml");
    let r = grognard_rules::load::load_ruleset(&dir.join("grid.yaml"));
    let _ = std::fs::remove_dir_all(&dir);
    let r = r.unwrap_or_else(|d| panic!("{d}"));
    for (flags, asked) in [("", false), (", flags: [shaken]", true)] {
        let text = common::empty_6x6(
            "grid-may-move",
            "",
            &format!(
                "  - {{ id: a, side: blue, type: infantry, at: [2, 2]{flags} }}\n  - {{ id: foe, side: red, type: infantry, at: [5, 5] }}\n"
            ),
        )
        .replace("ruleset: drill-square", "ruleset: grid-may-move");
        let s = grognard_rules::load::scenario_from_text("g.yaml", &text, &r)
            .unwrap_or_else(|d| panic!("{d}"));
        let mut hooks =
            LuaHooks::new(&r, grognard_lua::Limits::default()).unwrap_or_else(|d| panic!("{d}"));
        let mut game = s
            .start(None, &[], &mut hooks)
            .unwrap_or_else(|d| panic!("{d}"));
        let (_, side) = game.phase().expect("a phase");
        let east_listed = game.legal_orders(side, &mut hooks).into_iter().any(
            |a| matches!(&a, Action::Move { path, .. } if path.last().is_some_and(|c| c.col >= 3)),
        );
        assert_eq!(east_listed, !asked, "flags {flags:?}");
        let piece = game.piece_by_name("a").expect("a").id;
        let east = Order {
            side,
            action: Action::Move {
                piece,
                path: vec![grognard_kernel::geometry::Cell::new(3, 2)],
            },
        };
        if asked {
            refused_unchanged(&mut game, &mut hooks, &east, "not east of column 2");
        } else {
            game.apply(&east, &mut hooks)
                .unwrap_or_else(|r| panic!("unflagged piece refused: {r:?}"));
        }
    }
}
