//! The third outside new-player check of issue 37, each finding driven as a player drives
//! the editor (egui_kittest, by the labels on screen): a slow simulation that shows what
//! goes on inside its games and stops between two orders.

mod common;

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

fn status(h: &Harness<'_, EditorApp>) -> String {
    h.state()
        .status()
        .map(|s| s.text.clone())
        .unwrap_or_default()
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
    assert_eq!(status(&h), "simulation stopped after 0 games");
}
