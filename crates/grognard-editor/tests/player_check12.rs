//! What was left of the sixth outside new-player check of issue 37 (its report's numbers),
//! each checked as the editor shows it, the tabs driven with egui_kittest.

mod common;

use egui_kittest::Harness;
use grognard_editor::view::ViewAs;
use grognard_editor::{Command, EditorApp};
use grognard_rules::load::orders_from_text;
use grognard_rules::orders::resolve_order;

/// Gives each order of an orders file's text in the open game, as the side it names.
fn give(h: &mut Harness<'static, EditorApp>, orders: &str) {
    for o in orders_from_text("test", orders).expect("orders parse") {
        let order = {
            let game = &h.state().session().expect("a game").game;
            resolve_order(game, &o.value).expect("resolves")
        };
        h.state_mut()
            .command(Command::ViewAs(ViewAs::Side(order.side)));
        h.state_mut().command(Command::Give(order.action));
        h.run();
    }
}

/// Square blocks: the Austrian dummy adum2 walks toward the French dummy at (2,8) while
/// everyone else stands; the French see it at level D from turn 2 and at A on turn 3.
const DUMMY_WALKS: &str = "orders:
  - { side: french, end_phase: true }
  - { side: austrians, end_phase: true }
  - { side: french, end_phase: true }
  - { side: french, end_phase: true }
  - { side: austrians, end_phase: true }
  - { side: austrians, move: { piece: adum2, path: [[2, 4]] } }
  - { side: austrians, end_phase: true }
  - { side: french, end_phase: true }
  - { side: austrians, end_phase: true }
  - { side: french, end_phase: true }
  - { side: french, end_phase: true }
  - { side: austrians, end_phase: true }
  - { side: austrians, move: { piece: adum2, path: [[2, 5]] } }
  - { side: austrians, end_phase: true }
  - { side: french, end_phase: true }
  - { side: austrians, end_phase: true }
  - { side: french, end_phase: true }
  - { side: french, end_phase: true }
  - { side: austrians, end_phase: true }
";

/// #6: the French watched marker #9 on their board; when a sighting at level A identified
/// it, #9 left the board and the log named adum2 in every line (those written while it was
/// #9 too), with no line saying #9 was adum2. The identifying sighting says so now, in the
/// French log only.
#[test]
fn the_sighting_that_identifies_a_marker_says_which_marker_it_was() {
    let mut h = common::scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.run();
    give(&mut h, DUMMY_WALKS);
    let french = ViewAs::Side(grognard_kernel::ids::SideId(0));
    h.state_mut().command(Command::ViewAs(french));
    h.run();
    assert!(
        !h.state().event_log().iter().any(|l| l.contains("marker #")),
        "{:?}",
        h.state().event_log()
    );
    give(
        &mut h,
        "orders:\n  - { side: austrians, move: { piece: adum2, path: [[3, 6]] } }\n",
    );
    h.state_mut().command(Command::ViewAs(french));
    h.run();
    let log = h.state().event_log();
    let line = log
        .iter()
        .find(|l| l.contains("french sights adum2 at level A"))
        .unwrap_or_else(|| panic!("no identifying sighting: {log:?}"));
    assert_eq!(
        line.trim(),
        "french sights adum2 at level A: marker #9 is adum2, a dummy"
    );
    // Said once: the earlier sightings at D identified nothing.
    assert_eq!(log.iter().filter(|l| l.contains("marker #")).count(), 1);
    // The referee's log has no markers to explain.
    h.state_mut().command(Command::ViewAs(ViewAs::Referee));
    h.run();
    assert!(
        !h.state().event_log().iter().any(|l| l.contains("marker #")),
        "{:?}",
        h.state().event_log()
    );
}
