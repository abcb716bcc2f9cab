//! An orders-file entry that names no order the rules could be asked about is refused with a
//! typed [`OrderError`] (issue 35, structure round 3): a caller that decides can match the
//! kind, and one that prints gets, from `Display`, the words `play` printed before the error
//! was typed — suites and saved messages quote them, so each variant's words are pinned here
//! byte for byte, against the drill examples (a square grid and an open table).

use std::path::Path;

use grognard_kernel::game::Game;
use grognard_kernel::hooks::NoHooks;
use grognard_rules::load::{load_scenario, orders_from_text};
use grognard_rules::model::NotOneKind;
use grognard_rules::orders::{OrderError, resolve_order, resolve_order_as};

fn game(example: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../examples/{example}.yaml"));
    load_scenario(&path, None)
        .unwrap_or_else(|e| panic!("{e}"))
        .start(Some(1), &[], &mut NoHooks)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// What resolving the one entry `entry` (an orders-file line's flow map) gives.
fn resolve(game: &Game, entry: &str) -> Result<(), OrderError> {
    let text = format!("orders:\n  - {entry}\n");
    let orders = orders_from_text("o.yaml", &text).unwrap_or_else(|e| panic!("{e}"));
    resolve_order(game, &orders[0].value).map(|_| ())
}

/// The error `entry` is refused with, and its words.
fn refused(game: &Game, entry: &str) -> (OrderError, String) {
    let e = resolve(game, entry).expect_err(entry);
    let words = e.to_string();
    (e, words)
}

#[test]
fn a_good_entry_resolves_on_both_tables() {
    let square = game("drill-square");
    resolve(&square, "{ side: blue, face: { piece: b1, facing: NE } }").unwrap();
    let open = game("drill-open");
    resolve(
        &open,
        "{ side: blue, move_to: { piece: b1, to: [12, 29], facing: 270 } }",
    )
    .unwrap();
}

#[test]
fn a_side_the_game_does_not_have_lists_the_sides() {
    let g = game("drill-square");
    let (e, words) = refused(&g, "{ side: green, end_phase: true }");
    assert_eq!(
        e,
        OrderError::UnknownSide {
            side: "green".into(),
            sides: vec!["blue".into(), "red".into()],
        }
    );
    assert_eq!(words, "unknown side `green`; the sides are blue, red");
}

#[test]
fn an_entry_of_no_kind_lists_the_kinds() {
    let g = game("drill-square");
    let (e, words) = refused(&g, "{ side: blue }");
    assert_eq!(e, OrderError::NotOneKind(NotOneKind));
    assert_eq!(
        words,
        "each order needs exactly one of `move`, `move_to`, `face`, `mode`, `act`, \
         `redeploy`, `save`, `extend`, `gather`, `deploy`, `end_phase: true`"
    );
    assert!(
        std::error::Error::source(&e).is_some(),
        "the kind error is its source"
    );
}

#[test]
fn pieces_by_name_and_by_handle() {
    let g = game("drill-square");
    let (e, words) = refused(&g, "{ side: blue, face: { piece: b9, facing: N } }");
    assert_eq!(e, OrderError::UnknownPiece { name: "b9".into() });
    assert_eq!(words, "unknown piece `b9`");

    let (e, words) = refused(&g, "{ side: blue, face: { piece: '#x', facing: N } }");
    assert_eq!(e, OrderError::NotAHandle { text: "#x".into() });
    assert_eq!(words, "`#x` is not a piece handle (`#` and a number)");

    // Blue was never given handle 999: one wording, whatever is there.
    let (e, words) = refused(&g, "{ side: blue, face: { piece: '#999', facing: N } }");
    assert_eq!(
        e,
        OrderError::UnknownHandle {
            side: "blue".into()
        }
    );
    assert_eq!(words, "no such enemy piece known to blue");

    // The target is resolved as a piece too.
    let (e, words) = refused(
        &g,
        "{ side: blue, act: { piece: b1, action: volley, target: nobody } }",
    );
    assert_eq!(
        e,
        OrderError::UnknownPiece {
            name: "nobody".into()
        }
    );
    assert_eq!(words, "unknown piece `nobody`");
}

#[test]
fn a_hidden_name_reads_as_no_name_to_a_side() {
    // square-blocks' `abr1` is an Austrian block hidden from the French at the start: the
    // referee names it; the French naming it are told what a name no piece has is told.
    let g = game("square-blocks");
    let french = g.side_by_name("french").unwrap();
    let text = concat!(
        "orders:\n",
        "  - { side: french, face: { piece: abr1, facing: N } }\n",
        "  - { side: french, face: { piece: abr9, facing: N } }\n",
    );
    let entries = orders_from_text("o.yaml", text).unwrap();
    resolve_order(&g, &entries[0].value).expect("the referee names every piece");
    let hidden = resolve_order_as(&g, &entries[0].value, Some(french)).unwrap_err();
    let none = resolve_order_as(&g, &entries[1].value, Some(french)).unwrap_err();
    assert_eq!(
        hidden,
        OrderError::UnknownPiece {
            name: "abr1".into()
        }
    );
    assert_eq!(hidden.to_string(), "unknown piece `abr1`");
    assert_eq!(none.to_string(), "unknown piece `abr9`");
}

#[test]
fn modes_and_actions_the_rules_do_not_define() {
    let g = game("drill-square");
    let (e, words) = refused(&g, "{ side: blue, mode: { piece: b1, mode: swimming } }");
    assert_eq!(
        e,
        OrderError::UnknownMode {
            name: "swimming".into()
        }
    );
    assert_eq!(words, "unknown mode `swimming`");
    let (e, words) = refused(&g, "{ side: blue, act: { piece: b1, action: juggle } }");
    assert_eq!(
        e,
        OrderError::UnknownAction {
            name: "juggle".into()
        }
    );
    assert_eq!(words, "unknown action `juggle`");
}

#[test]
fn facings_that_do_not_read_keep_the_scenario_readers_words() {
    let square = game("drill-square");
    let (e, words) = refused(&square, "{ side: blue, face: { piece: b1, facing: Q } }");
    assert!(matches!(e, OrderError::BadFacing { .. }), "{e:?}");
    assert_eq!(
        words,
        "unknown facing `Q`; expected one of E, SE, S, SW, W, NW, N, NE or 0..7"
    );
    let (_, words) = refused(
        &square,
        "{ side: blue, deploy: { piece: b1, at: [4, 6], facing: 9 } }",
    );
    assert_eq!(
        words,
        "unknown facing `9`; expected one of E, SE, S, SW, W, NW, N, NE or 0..7"
    );
    let open = game("drill-open");
    let (e, words) = refused(
        &open,
        "{ side: blue, move_to: { piece: b1, to: [12, 29], facing: 5000 } }",
    );
    assert!(matches!(e, OrderError::BadFacing { .. }), "{e:?}");
    assert_eq!(
        words,
        "`5000`: expected an angle in degrees (0 = east, 90 = south)"
    );
}

#[test]
fn distances_beyond_the_table_are_not_inches() {
    let open = game("drill-open");
    let (e, words) = refused(
        &open,
        "{ side: blue, move_to: { piece: b1, to: [200000, 29] } }",
    );
    assert_eq!(e, OrderError::NotInches { value: 200_000.0 });
    assert_eq!(words, "200000 is not a distance in inches");
    let (_, words) = refused(
        &open,
        "{ side: blue, move_to: { piece: b1, to: [1, -150000.5] } }",
    );
    assert_eq!(words, "-150000.5 is not a distance in inches");
}

#[test]
fn grid_orders_on_an_open_table() {
    let open = game("drill-open");
    let (e, words) = refused(&open, "{ side: blue, face: { piece: b1, facing: N } }");
    assert_eq!(e, OrderError::FaceOnOpenTable);
    assert_eq!(words, "on an open table, give the facing with `move_to`");
    let (e, words) = refused(
        &open,
        "{ side: blue, deploy: { piece: b1, at: [1, 1], facing: N } }",
    );
    assert_eq!(e, OrderError::SetUpNeedsGrid);
    assert_eq!(words, "a set-up needs a grid board");
}
