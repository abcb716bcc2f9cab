//! The outside player's findings against the searching computer (issues 37 and 40;
//! /work/audit/search-player-1, E4, E11, E13): an idle editor with a *search* seat asks
//! for no frames, the editor says why the computer chose its order, and a shrinking Legal
//! orders list never slides *end phase* under the pointer — each checked as the editor
//! shows it, driven with egui_kittest.

mod common;

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use grognard_editor::{Command, EditorApp};
use grognard_kernel::ids::SideId;
use grognard_play::PolicyKind;
use grognard_play::search::Budget;

/// The Play tab of `path`, 1400 × 900, the computer at full speed.
fn play(path: &str) -> Harness<'static, EditorApp> {
    let mut h = common::scenario(path, 1400.0, 900.0);
    h.state_mut().set_computer_pace(Duration::ZERO);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.run();
    h
}

/// A search of `iterations` an order on `side`.
fn seat_search(h: &mut Harness<'_, EditorApp>, side: SideId, iterations: u32) {
    h.state_mut().command(Command::Seat(
        side,
        Some(PolicyKind::Search(Budget::Iterations(iterations))),
    ));
    h.run();
}

/// Runs frames until the computer is not thinking and `side` is not to act (at most a
/// minute).
fn until_computer_done(h: &mut Harness<'_, EditorApp>, side: SideId) {
    let started = Instant::now();
    loop {
        h.step();
        let game = &h.state().session().expect("a game").game;
        if h.state().computer_thinking().is_none() && !game.to_act().contains(&side) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the computer ends its phase"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// After a frame with no input, how soon the editor asked for the next one.
fn next_frame_in(h: &mut Harness<'_, EditorApp>) -> Duration {
    h.step();
    h.output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map_or(Duration::MAX, |v| v.repaint_delay)
}

/// Whatever settles settles; then nothing asks for a frame within a second.
fn assert_idle(h: &mut Harness<'_, EditorApp>, what: &str) {
    h.try_run()
        .unwrap_or_else(|e| panic!("{what}: the frames never stop: {e}"));
    for _ in 0..3 {
        let next = next_frame_in(h);
        assert!(
            next > Duration::from_secs(1),
            "{what}: idle, yet the next frame is asked for in {next:?}"
        );
    }
}

/// E13: with a seat on *search*, the idle editor asked for a frame every 40 ms for good
/// (0.4–0.7 of a core against 0.17 with that seat on person or greedy), mid-game and at
/// game over. It asks for frames only while the search thinks.
#[test]
fn an_idle_search_seat_asks_for_no_frames() {
    let mut h = play("examples/drill-square.yaml");
    let (blue, red) = (SideId(0), SideId(1));
    assert_eq!(
        h.state().session().expect("a game").game.to_act(),
        vec![blue]
    );
    // The search plays red; blue (a person) is to act: nobody thinks.
    seat_search(&mut h, red, 20);
    assert_idle(&mut h, "search seated, the person to act");
    // The search plays blue's phase; once it is over and red (a person now) acts, idle.
    h.state_mut().command(Command::Seat(red, None));
    seat_search(&mut h, blue, 20);
    until_computer_done(&mut h, blue);
    let orders = h.state().session().expect("a game").orders().len();
    assert!(orders >= 2, "the search gave blue's orders ({orders})");
    assert_idle(&mut h, "after the search's phase");
}
