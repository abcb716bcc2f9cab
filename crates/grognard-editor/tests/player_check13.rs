//! The seventh outside new-player check of issue 37 (its report's numbers), each checked as
//! the editor shows it, the tabs driven with egui_kittest.

mod common;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::view::ViewAs;
use grognard_editor::{Command, EditorApp};
use grognard_kernel::ids::SideId;
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

/// Whether the button labelled `label` is there and can be clicked.
fn enabled(h: &Harness<'_, EditorApp>, label: &str) -> bool {
    !h.get_by_role_and_label(Role::Button, label)
        .accesskit_node()
        .is_disabled()
}

fn play(path: &str) -> Harness<'static, EditorApp> {
    let mut h = common::scenario(path, 1280.0, 800.0);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.run();
    h
}

/// #1: a French scout's move sighted enemy #10 at level B, and Undo stayed enabled: the
/// player took the move back having seen the block. A move that tells the moving side
/// something new of the enemy is as final as a roll, as on the server, and the greyed
/// Undo says why on hover.
#[test]
fn undo_is_refused_after_a_move_that_sighted_the_enemy() {
    let mut h = play("examples/square-blocks.yaml");
    h.state_mut()
        .command(Command::ViewAs(ViewAs::Side(SideId(0))));
    h.run();
    let before = h.state().event_log().len();
    give(
        &mut h,
        "orders:\n  - { side: french, move: { piece: scout1, path: [[5, 5]] } }\n",
    );
    let log = h.state().event_log();
    assert!(
        log[before..].iter().any(|l| l.contains("sights")),
        "the move sights an enemy: {:?}",
        &log[before..]
    );
    assert!(
        !enabled(&h, "Undo"),
        "a move that sighted the enemy is not taken back"
    );
    h.get_by_role_and_label(Role::Button, "Undo").hover();
    h.run();
    assert!(
        h.query_by_label_contains("cannot be unseen").is_some(),
        "the greyed Undo says why"
    );
    // Asked anyway (a shortcut, a stale click), the undo is refused and the game stays.
    let orders = h.state().session().expect("a game").orders().len();
    h.state_mut().command(Command::Undo);
    h.run();
    assert_eq!(h.state().session().expect("a game").orders().len(), orders);
    let said = h.state().status().map(|s| s.text.clone()).unwrap_or_default();
    assert!(said.contains("cannot be unseen"), "{said}");
}

/// The text a combo box labelled `label` shows.
fn shown(h: &Harness<'_, EditorApp>, label: &str) -> String {
    h.get_by_role_and_label(Role::ComboBox, label)
        .accesskit_node()
        .value()
        .unwrap_or_default()
}

/// #2: a game against the computer, saved and loaded again, came back with the computer's
/// side played by "person" (nobody moved red) and the Scenario box naming a path through
/// the save's folder. A save of the game's own scenario keeps the seats, and the box names
/// the scenario as the menu lists it.
#[test]
fn loading_a_save_of_the_same_scenario_keeps_the_computer_seats_and_names_the_scenario() {
    let mut h = play("examples/hex-command.yaml");
    h.state_mut().command(Command::Seat(
        SideId(1),
        Some(grognard_play::PolicyKind::Greedy),
    ));
    h.run();
    assert_eq!(shown(&h, "red"), "greedy");
    assert_eq!(shown(&h, "Scenario"), "examples/hex-command.yaml");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let save = dir.path().join("hc-mid.json");
    h.state_mut().command(Command::Chosen(
        grognard_editor::app::FilePurpose::SaveGame,
        save.clone(),
    ));
    h.run();
    h.state_mut().command(Command::Chosen(
        grognard_editor::app::FilePurpose::LoadGame,
        save,
    ));
    h.run();
    let said = h.state().status().map(|s| s.text.clone()).unwrap_or_default();
    assert!(said.contains("loaded the game"), "{said}");
    assert_eq!(shown(&h, "red"), "greedy", "{said}");
    assert_eq!(shown(&h, "blue"), "person");
    assert_eq!(shown(&h, "Scenario"), "examples/hex-command.yaml");
}
