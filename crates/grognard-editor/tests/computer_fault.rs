//! The Play tab's computer player when a ruleset's hook faults while the side's orders are
//! listed (egui_kittest, driven by the labels on screen): it stops playing the side and the
//! hook's error is shown, as `sim` and the server stop and say why, instead of choosing
//! among the orders the hook left out.

mod common;

use std::time::{Duration, Instant};

use common::scenario;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

/// The `stuck` ruleset's `dig_in` check never returns (tests/fixtures/stuck/stuck.lua): the
/// sandbox stops it at its budget while the movement phase's orders are listed.
#[test]
fn the_computer_stops_with_the_hooks_error_when_listing_faults() {
    let mut h = scenario("tests/fixtures/stuck/scenario.yaml", 1280.0, 800.0);
    h.state_mut().set_computer_pace(Duration::ZERO);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    let (side, name) = {
        let game = &h.state().session().expect("a game").game;
        let side = game.to_act()[0];
        (side, game.sides()[side.index()].name.clone())
    };
    h.get_by_role_and_label(Role::ComboBox, &name).click();
    h.run();
    h.get_by_label("random").click();
    let started = Instant::now();
    let status = loop {
        h.step();
        let text = (h.state().status()).map(|s| s.text.clone());
        if let Some(text) = text.filter(|t| t.contains("the computer stopped playing")) {
            break text;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the computer never stopped; status {:?}",
            h.state().status().map(|s| s.text.clone())
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    for part in [
        &format!("the computer stopped playing {name}"),
        "a hook failed while its orders were listed",
        "stuck.lua:5",
        "may_dig_in",
        &format!("a person plays {name} now"),
    ] {
        assert!(status.contains(part), "{part}: {status}");
    }
    // It gave no order on the short list, and a person plays the side now.
    let orders = h.state().session().expect("a game").orders().to_vec();
    assert!(orders.iter().all(|o| o.side != side), "{orders:?}");
    for _ in 0..5 {
        h.step();
    }
    let orders = h.state().session().expect("a game").orders().to_vec();
    assert!(orders.iter().all(|o| o.side != side), "{orders:?}");
}
