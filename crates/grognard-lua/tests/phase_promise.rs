//! `sequence.phase_begin_refuses: false`: the legal orders list `end_phase` without running
//! the next phase's `phase_begin` on a copy, on the ruleset's word. Without it they try it.

mod common;

use grognard_kernel::action::{Action, Order, RefusalKind};
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::{load_ruleset, scenario_from_text};

use common::{empty_6x6, root};

/// The list of the side to act in the movement phase of a game of `fixture`, and what
/// `apply` answers to its `end_phase`.
fn listing_and_end(fixture: &str) -> (bool, Result<(), RefusalKind>) {
    let r = load_ruleset(&root().join(fixture)).unwrap_or_else(|d| panic!("{d}"));
    let text = empty_6x6("promise", "", "  - { id: inf, side: blue, type: infantry, at: [2, 2] }\n  - { id: foe, side: red, type: infantry, at: [4, 4] }\n")
        .replace("ruleset: drill-square", &format!("ruleset: {}", r.spec.ruleset.value));
    let s = scenario_from_text("promise.yaml", &text, &r).unwrap_or_else(|d| panic!("{d}"));
    let mut hooks = LuaHooks::new(&r, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let mut game = s
        .start(None, &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    let (phase, side) = game.phase().expect("a phase");
    assert_eq!(phase.name, "movement");
    let listed = game
        .legal_orders(side, &mut hooks)
        .contains(&Action::EndPhase);
    let ended = game
        .apply(
            &Order {
                side,
                action: Action::EndPhase,
            },
            &mut hooks,
        )
        .map(|_| ())
        .map_err(|r| r.kind);
    (listed, ended)
}

#[test]
fn without_the_promise_end_phase_is_tried_and_left_out_when_refused() {
    let (listed, ended) = listing_and_end("tests/fixtures/hooks/phase-refuses.yaml");
    assert_eq!(ended, Err(RefusalKind::HookFailed));
    assert!(!listed, "a refused end_phase was listed");
}

#[test]
fn with_the_promise_end_phase_is_listed_on_the_rulesets_word() {
    // The hook breaks the promise: the listing, which no longer runs it, names end_phase,
    // and `apply` still refuses it (what the soundness tests and `grognard fuzz` report).
    let (listed, ended) = listing_and_end("tests/fixtures/hooks/phase-promised.yaml");
    assert!(listed, "the promised end_phase was not listed");
    assert_eq!(ended, Err(RefusalKind::HookFailed));
}
