//! The third outside new-player check of issue 37, each finding driven as a player drives
//! the editor (egui_kittest, by the labels on screen): a slow simulation that shows what
//! goes on inside its games and stops between two orders.

mod common;
use common::status;

use std::time::{Duration, Instant};

use common::scenario;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::EditorApp;

/// A node's label as a screen reader reads it.
fn label(node: &egui_kittest::Node<'_>) -> String {
    let n = node.accesskit_node();
    n.label().or_else(|| n.value()).unwrap_or_default()
}

fn tab(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_role_and_label(Role::Button, name).click();
    h.run();
}

/// The progress bar's words.
fn bar(h: &Harness<'_, EditorApp>) -> String {
    h.query_by_label_contains(" of 6 games")
        .map(|n| label(&n))
        .expect("the progress bar")
}

/// Item 1: hex-command under the search, whose games take minutes each. The bar says the
/// games in play and the orders given before any game ends; Stop says "stopping…" at once
/// and takes effect at the next order, not at the end of the games.
#[test]
fn a_slow_simulation_shows_its_orders_and_stops_between_two() {
    let mut h = scenario("examples/hex-command.yaml", 1280.0, 800.0);
    tab(&mut h, "Simulate");
    h.get_by_role_and_label(Role::SpinButton, "games:")
        .set_value_accesskit(6.0);
    h.run();
    h.get_by_label("search").click();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "search iterations per order:")
        .set_value_accesskit(20.0);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    let start = Instant::now();
    let mut seen = String::new();
    while start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(50));
        h.step();
        seen = bar(&h);
        if seen.contains("orders given") && !seen.contains(" 0 orders") {
            break;
        }
    }
    assert!(seen.contains("in play,"), "{seen}");
    assert!(
        seen.starts_with("0 of 6 games"),
        "no game should be over yet: {seen}"
    );
    h.get_by_label("Stop").click();
    h.step();
    h.step();
    assert!(bar(&h).starts_with("stopping…"), "{}", bar(&h));
    assert!(
        status(&h).contains("stopping the simulation…"),
        "{}",
        status(&h)
    );
    // A game of this takes minutes; one order of the search far less.
    let stopped = Instant::now();
    while h.state().simulating() && stopped.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
    assert!(
        !h.state().simulating(),
        "still running {:?} after Stop",
        stopped.elapsed()
    );
    // The threads may end between a frame's poll and the check above: the next frame
    // collects the results and says so.
    h.step();
    assert_eq!(status(&h), "simulation stopped after 0 games");
}

/// Item 3: while the computer thinks, Undo is off (its answer would land on the game as
/// it was), and says why on hover; it comes back once the computer has played.
#[test]
fn undo_waits_while_the_computer_thinks() {
    let mut h = scenario("examples/drill-square.yaml", 1280.0, 800.0);
    h.state_mut().set_computer_pace(Duration::ZERO);
    tab(&mut h, "Play");
    let (first, other) = {
        let game = &h.state().session().expect("a game").game;
        let first = *game.to_act().first().expect("a side acts");
        let other = (0..game.sides().len())
            .map(|i| grognard_kernel::ids::SideId(i as u8))
            .find(|s| *s != first)
            .expect("two sides");
        (first, game.sides()[other.index()].name.clone())
    };
    h.get_by_role_and_label(Role::ComboBox, &other).click();
    h.run();
    h.get_by_label("search").click();
    h.run();
    let started = Instant::now();
    // The person ends phases until the computer is asked.
    while h.state().computer_thinking().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the computer is asked"
        );
        let end = h.get_by_role_and_label(Role::Button, "End phase");
        if !end.accesskit_node().is_disabled() {
            end.click();
        }
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    // What Undo would take back: the person's own order, no die since.
    let session = h.state().session().expect("a game");
    assert_eq!(session.orders().last().map(|o| o.side), Some(first));
    assert!(session.can_undo(), "no die rolled since the person's order");
    // The frame drawn while it thinks.
    h.step();
    let undo = h.get_by_role_and_label(Role::Button, "Undo");
    assert!(
        undo.accesskit_node().is_disabled(),
        "Undo is off while the computer thinks"
    );
    h.state_mut().command(grognard_editor::app::Command::Undo);
    h.step();
    if h.state().computer_thinking().is_some() {
        assert!(
            status(&h).contains("the computer is thinking for"),
            "{}",
            status(&h)
        );
    }
}

/// Item 2: in a phase both sides share, the computer acts for its side at once, without
/// waiting for the person listed first to end their part; the phase bar says so.
#[test]
fn the_computer_acts_at_once_in_a_shared_phase() {
    let mut h = scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    h.state_mut().set_computer_pace(Duration::ZERO);
    tab(&mut h, "Play");
    let (person, computer, name) = {
        let game = &h.state().session().expect("a game").game;
        let to_act = game.to_act();
        assert!(to_act.len() > 1, "the first phase is shared: {to_act:?}");
        (
            to_act[0],
            to_act[1],
            game.sides()[to_act[1].index()].name.clone(),
        )
    };
    h.get_by_role_and_label(Role::ComboBox, &name).click();
    h.run();
    h.get_by_label("random").click();
    h.step();
    h.step();
    assert!(
        h.query_by_label_contains(&format!("{name} (computer, at once)"))
            .is_some(),
        "the phase bar says the computer acts at once"
    );
    let started = Instant::now();
    loop {
        let orders = h.state().session().expect("a game").orders().to_vec();
        assert!(
            orders.iter().all(|o| o.side != person),
            "the person gave no order"
        );
        if orders.iter().any(|o| o.side == computer) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the computer acts without waiting for the person"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}
