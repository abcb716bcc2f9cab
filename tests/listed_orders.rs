//! Issue 36, item 11: the orders `Game::legal_orders` lists are pairwise distinct and each
//! changes the game. Over every bundled example, at random points of random play, no order
//! is listed twice and no listed order, applied, leaves the game's state as it was unless it
//! brings the sides into contact, which the players are told (an open-table move in
//! particular puts the piece somewhere else or turns it). And `Game::legal_orders_of`, asked
//! for one piece at a time, gives those pieces' orders of the whole list in its order (what
//! the search's rollouts refresh a kept listing with), and every order of a rough listing
//! (`Breadth::Rough`, the search's imagined lines) is one `apply` accepts.

use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::{Breadth, Game};
use grognard_kernel::hooks::{Hooks, NoHooks};
use grognard_kernel::piece::Place;
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::load_scenario;
use proptest::prelude::*;

use crate::util::{root, yaml_files};

fn examples() -> Vec<String> {
    yaml_files("examples")
        .into_iter()
        .filter(|f| !f.ends_with(".orders.yaml"))
        .collect()
}

fn start(example: &str, seed: u64) -> (Game, Box<dyn Hooks>) {
    let s = load_scenario(&root().join(example), None).unwrap_or_else(|d| panic!("{d}"));
    let mut hooks: Box<dyn Hooks> = if LuaHooks::wanted(&s.ruleset) {
        Box::new(LuaHooks::new(&s.ruleset, Limits::default()).unwrap_or_else(|d| panic!("{d}")))
    } else {
        Box::new(NoHooks)
    };
    let game = s
        .start(Some(seed), &[], hooks.as_mut())
        .unwrap_or_else(|d| panic!("{d}"));
    (game, hooks)
}

/// Where a piece stands, for the open-table check.
fn place_of(game: &Game, action: &Action) -> Option<Place> {
    let Action::MoveTo { piece, .. } = action else {
        return None;
    };
    game.state()
        .pieces
        .get(piece.index())
        .map(|p| p.place.clone())
}

fn check_list(example: &str, game: &Game, hooks: &mut dyn Hooks) -> Result<(), TestCaseError> {
    for side in game.to_act() {
        let list = game.legal_orders(side, hooks);
        let mine: Vec<_> = game
            .state()
            .pieces
            .iter()
            .filter(|p| p.side == side)
            .map(|p| p.id)
            .collect();
        let piecewise: Vec<Action> = mine
            .iter()
            .flat_map(|p| game.legal_orders_of(side, Some(&[*p]), Breadth::Full, hooks))
            .collect();
        let whole: Vec<Action> = list
            .iter()
            .filter(|a| **a != Action::EndPhase)
            .cloned()
            .collect();
        prop_assert_eq!(
            &piecewise,
            &whole,
            "{}, turn {}: one piece at a time lists other orders",
            example,
            game.state().turn
        );
        for a in game.legal_orders_of(side, None, Breadth::Rough, hooks) {
            if list.contains(&a) {
                continue;
            }
            let order = Order { side, action: a };
            prop_assert!(
                game.clone().apply(&order, hooks).is_ok(),
                "{}, turn {}: rough listing's {:?} is refused",
                example,
                game.state().turn,
                order.action
            );
        }
        for (i, a) in list.iter().enumerate() {
            prop_assert!(
                !list[..i].contains(a),
                "{example}, turn {}: {a:?} is listed twice",
                game.state().turn
            );
            let mut copy = game.clone();
            let order = Order {
                side,
                action: a.clone(),
            };
            let events = copy.apply(&order, hooks);
            prop_assert!(events.is_ok(), "{example}: {a:?}");
            // An order changes the game when it changes the state, or tells the players
            // something: an arrow laid into enemies nobody had seen leaves the command where
            // it stood but puts the two sides in contact (square blocks), a logged event.
            let told = events.is_ok_and(|e| {
                e.iter()
                    .any(|e| matches!(e, grognard_kernel::action::Event::Contact { .. }))
            });
            prop_assert!(
                copy.state() != game.state() || told,
                "{example}, turn {}: listed {a:?} changes nothing",
                game.state().turn
            );
            if let Some(before) = place_of(game, a) {
                prop_assert_ne!(
                    Some(before),
                    place_of(&copy, a),
                    "{}: listed {:?} leaves the piece where and as it stood",
                    example,
                    a
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2, ..ProptestConfig::default() })]

    #[test]
    fn listed_orders_are_distinct_and_each_changes_the_game(
        seed in 0u64..1_000,
        picks in proptest::collection::vec(0u32..10_000, 16),
    ) {
        for example in examples() {
            let (mut game, mut hooks) = start(&example, seed);
            for &pick in &picks {
                check_list(&example, &game, hooks.as_mut())?;
                let sides = game.to_act();
                let Some(&side) = sides.get(pick as usize % sides.len().max(1)) else {
                    break;
                };
                let list = game.legal_orders(side, hooks.as_mut());
                if list.is_empty() {
                    break;
                }
                // One order in four ends the phase where that is listed, so games get on.
                let action = if pick % 4 == 0 && list.contains(&Action::EndPhase) {
                    Action::EndPhase
                } else {
                    list[(pick as usize / 4) % list.len()].clone()
                };
                let order = Order { side, action };
                prop_assert!(game.apply(&order, hooks.as_mut()).is_ok(), "{}: {:?}", example, order);
            }
        }
    }
}
