//! The Play tab gives one signal of what is legal — the kernel's legal orders of the side
//! in view — and shows the log as `grognard view` prints it (egui_kittest, by the labels a
//! user sees).

mod common;
use common::status;

use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::{Command, EditorApp, Options, Saved};
use grognard_kernel::action::Action;
use grognard_kernel::geometry::open::{Len, Point};

/// The workspace root, where `rulesets/` and `examples/` are. The editor is given it as
/// its root (`Options::root`), so no test depends on the process's current folder.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn with_scenario(path: &str) -> Harness<'static, EditorApp> {
    let app = EditorApp::new(
        Saved::default(),
        Options {
            scenario: Some(PathBuf::from(path)),
            root: Some(root()),
            ..Options::default()
        },
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run();
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h
}

fn view_as(h: &mut Harness<'_, EditorApp>, who: &str) {
    h.get_by_role_and_label(Role::ComboBox, "View as").click();
    h.run();
    h.get_by_label(who).click();
    h.run();
}

fn select(h: &mut Harness<'_, EditorApp>, listed: &str) {
    h.get_by_label_contains(listed).click();
    h.run();
}

/// Whether the button labelled `label` is there and can be clicked.
fn enabled(h: &Harness<'_, EditorApp>, label: &str) -> bool {
    !h.get_by_role_and_label(Role::Button, label)
        .accesskit_node()
        .is_disabled()
}

#[test]
fn the_piece_panel_offers_only_the_orders_the_legal_list_holds() {
    let mut h = with_scenario("examples/drill-square.yaml");
    h.get_by_label("End phase").click();
    h.run();
    assert!(
        h.query_by_label_contains("fire phase · blue phasing")
            .is_some()
    );
    select(&mut h, "b1 (blue");
    // Nothing is in b1's range: the legal list holds no volley of b1's.
    let legal = h.state().session().expect("game").game.clone();
    let blue = legal.side_by_name("blue").expect("blue");
    let b1 = legal.piece_by_name("b1").expect("b1").id;
    let mut hooks = grognard_kernel::hooks::NoHooks;
    assert!(
        legal
            .legal_orders(blue, &mut hooks)
            .iter()
            .all(|a| a.piece() != Some(b1)),
        "b1 has no order in the fire phase"
    );
    // The volley is shown greyed, never as a button that the kernel would refuse.
    let volleys: Vec<_> = h.query_all_by_label_contains("volley").collect();
    assert!(!volleys.is_empty(), "the phase's action is shown");
    for v in volleys {
        if v.accesskit_node().role() == Role::Button {
            assert!(
                v.accesskit_node().is_disabled(),
                "{:?} is offered though the legal list does not hold it",
                v.accesskit_node().label()
            );
        }
    }
    assert!(!status(&h).starts_with("refused"), "{}", status(&h));
}

#[test]
fn reach_phase_bar_and_undo_follow_the_legal_orders_of_the_side_in_view() {
    let mut h = with_scenario("examples/drill-square.yaml");
    // Blue's movement phase, seen as red: the phase bar names the side that acts (blue),
    // red's pieces shade no reach and say why, and red may neither end the phase nor undo.
    view_as(&mut h, "Side red");
    assert!(h.query_by_label("to act: blue").is_some());
    assert!(h.query_by_label_contains("acting: red").is_none());
    select(&mut h, "r1 (red");
    assert!(
        h.query_by_label_contains("r1 cannot move now (red does not act now: blue acts)")
            .is_some()
    );
    assert!(h.query_by_label_contains("can reach").is_none());
    assert!(!h.state().reach_shaded());
    assert!(!enabled(&h, "End phase"));
    assert!(!enabled(&h, "Undo"), "nothing to undo yet");
    // Blue moves b1 and may take it back; red may not take back blue's order.
    view_as(&mut h, "Side blue");
    select(&mut h, "b1 (blue");
    assert!(h.query_by_label_contains("b1 can reach").is_some());
    assert!(h.state().reach_shaded());
    assert!(!enabled(&h, "Undo"), "nothing to undo yet");
    h.get_by_label("→ (4,5), 1 step").click();
    h.run();
    assert!(enabled(&h, "Undo"));
    view_as(&mut h, "Side red");
    assert!(!enabled(&h, "Undo"), "the last order is blue's");
    // In blue's fire phase b1 may not move: no reach shaded, no count of places.
    view_as(&mut h, "Side blue");
    h.get_by_label("End phase").click();
    h.run();
    select(&mut h, "b1 (blue");
    assert!(h.query_by_label_contains("b1 cannot move now").is_some());
    assert!(h.query_by_label_contains("can reach").is_none());
    assert!(!h.state().reach_shaded());
}

#[test]
fn the_play_tab_shows_the_log_as_view_prints_it() {
    let mut h = with_scenario("examples/drill-square.yaml");
    assert!(h.query_by_label_contains("Event log (").is_some());
    select(&mut h, "b1 (blue");
    h.get_by_label("→ (4,5), 1 step").click();
    h.run();
    let game = h.state().session().expect("game").game.clone();
    let red = game.side_by_name("red").expect("red");
    // The referee's log line for the move, word for word as `grognard view` prints it.
    let line = grognard_play::text::event(&game, game.log().last().expect("an event"));
    assert!(h.query_by_label(&line).is_some(), "{line} is shown");
    // Seen as red: red's log, as `grognard view --side red` prints it.
    view_as(&mut h, "Side red");
    let printed = grognard_play::text::side_view(&game, red);
    let log = printed.split("log:\n").nth(1).expect("a log");
    // Word for word, but for the flag and counter names a player reads spaced.
    let log: Vec<String> = log
        .trim_end()
        .lines()
        .map(|l| grognard_editor::words::log_line(game.rules(), l))
        .collect();
    assert_eq!(
        h.state().event_log(),
        log.as_slice(),
        "the tab's log is the CLI's"
    );
    for line in &log {
        assert!(h.query_by_label(line).is_some(), "{line} is shown");
    }
}

#[test]
fn legal_shooting_targets_on_the_open_table_are_ringed() {
    let mut h = with_scenario("examples/drill-open.yaml");
    let game = h.state().session().expect("game").game.clone();
    let b1 = game.piece_by_name("b1").expect("b1").id;
    let r1 = game.piece_by_name("r1").expect("r1").id;
    // b1 advances (as in the example's orders) and the fire phase begins.
    let inch = |x: i64| Len(x * 1000);
    h.state_mut().apply(Command::Give(Action::MoveTo {
        piece: b1,
        to: Point::new(inch(12), inch(20)),
        facing: None,
    }));
    h.get_by_label("End phase").click();
    h.run();
    select(&mut h, "b1 (blue");
    assert!(
        // The piece panel's button says it as the legal list does, "shoot at r1".
        h.query_all_by_role_and_label(Role::Button, "shoot at r1")
            .count()
            == 2
            && h.query_all_by_role_and_label(Role::Button, "shoot at r1")
                .all(|n| !n.accesskit_node().is_disabled()),
        "the legal shot is offered"
    );
    assert_eq!(h.state().ringed_targets(), vec![r1]);
}

/// After a frame with no input, how soon the editor asked for the next one.
fn next_frame_in(h: &mut Harness<'_, EditorApp>) -> std::time::Duration {
    h.step();
    h.output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map_or(std::time::Duration::MAX, |v| v.repaint_delay)
}

#[test]
fn an_idle_editor_asks_for_no_frames() {
    let mut h = with_scenario("examples/drill-square.yaml");
    let idle = |h: &mut Harness<'_, EditorApp>, what: &str| {
        // Whatever settles (a hover's animation) settles; then nothing asks for a frame.
        h.try_run()
            .unwrap_or_else(|e| panic!("{what}: the frames never stop: {e}"));
        let next = next_frame_in(h);
        assert!(
            next > std::time::Duration::from_secs(1),
            "{what}: idle, yet the next frame is asked for in {next:?}"
        );
    };
    for name in ["Rules", "Charts", "Diff", "Play"] {
        h.get_by_role_and_label(Role::Button, name).click();
        idle(&mut h, name);
    }
    // The computer plays red; blue (a person) is to act, so it waits.
    h.get_by_label("red").click();
    h.run();
    h.get_by_label("random").click();
    idle(&mut h, "the computer waiting for the person");
    // A finished simulation leaves nothing running.
    h.get_by_role_and_label(Role::Button, "Simulate").click();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "games:")
        .set_value_accesskit(5.0);
    h.run();
    h.get_by_label("Run").click();
    h.run_steps(2);
    for _ in 0..600 {
        if !h.state().simulating() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    h.run_steps(2);
    assert!(h.state().simulation_results().is_some());
    idle(&mut h, "after a simulation");
}
