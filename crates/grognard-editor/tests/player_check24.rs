//! The fourteenth outside player's findings of issue 37 (/work/audit/editor-player-14): a
//! ruleset put back as the game started with it, Tune's status line after its answer
//! returns, Undo's hover after the player's own dice, the Dice log's room at 800×600 —
//! each checked as the editor shows it, driven with egui_kittest.

mod common;
use common::status;

use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

/// A ruleset changed mid-game, then written back byte for byte as the game started with
/// it, still said "changed on disk" and offered *New game from the changed files*. The
/// bytes read the same again (its hash, not its time), so the row goes and the status line
/// says the files are as the game started.
#[test]
fn a_ruleset_put_back_as_it_was_is_no_longer_changed() {
    let (dir, _, _, mut h) = common::drill_square_in_play();
    let rules = dir.path().join("rulesets/drill-square.yaml");
    let text = std::fs::read_to_string(&rules).expect("read");
    let label = "New game from the changed files";
    common::rewrite(&rules, &format!("{text}\n# changed\n"), 5);
    h.state_mut().check_files();
    h.run();
    assert!(common::enabled(&h, label), "{}", status(&h));
    assert!(status(&h).contains("changed on disk"), "{}", status(&h));
    common::rewrite(&rules, &text, 10);
    h.state_mut().check_files();
    h.run();
    let said = status(&h);
    assert!(!said.contains("changed on disk"), "{said}");
    assert!(said.contains("as the game in play started"), "{said}");
    assert!(h.query_by_role_and_label(Role::Button, label).is_none());
}

/// On Tune, the status line said "the last tuning's answer is out of date" even after the
/// target was set back and the answer had come back into its box. Set back, the line
/// reports the answer again.
#[test]
fn a_target_set_back_restores_the_tune_status_line() {
    let mut h = common::sized(
        grognard_editor::Options {
            scenario: Some(common::root().join("tests/fixtures/tune/duel-scenario.yaml")),
            ..grognard_editor::Options::default()
        },
        1500.0,
        1400.0,
    );
    h.get_by_role_and_label(Role::Button, "Tune").click();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "games a candidate:")
        .set_value_accesskit(10.0);
    h.run();
    h.get_by_label("find a number:")
        .set_text_value_accesskit("shot");
    h.run();
    h.get_by_label("charts.shot.rows.0.score = 9+").click();
    h.run();
    h.get_by_label("from").set_text_value_accesskit("9");
    h.run();
    h.get_by_label("to").set_text_value_accesskit("9");
    h.run();
    h.get_by_role_and_label(Role::Button, "Run").click();
    common::wait_while(&mut h, grognard_editor::EditorApp::tuning);
    let done = status(&h);
    assert!(done.starts_with("tuning done: "), "{done}");
    h.get_by_role_and_label(Role::SpinButton, "target win rate, %:")
        .set_value_accesskit(99.0);
    h.run();
    let said = status(&h);
    assert!(said.contains("out of date"), "{said}");
    h.get_by_role_and_label(Role::SpinButton, "target win rate, %:")
        .set_value_accesskit(50.0);
    h.run();
    assert_eq!(status(&h), done);
}

/// After the player's own artillery fire, the greyed Undo's hover said "Dice were rolled
/// since the last order", though that order rolled them. Locked by dice, the last order is
/// the one that rolled them (any later order could be taken back), and the words say so.
#[test]
fn undo_after_a_roll_says_the_last_order_rolled_dice() {
    use grognard_editor::Command;
    use grognard_editor::view::ViewAs;
    use grognard_rules::load::orders_from_text;
    use grognard_rules::orders::resolve_order;
    let mut h = common::scenario("examples/drill-square.yaml", 1280.0, 800.0);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.run();
    let text = std::fs::read_to_string(common::root().join("examples/drill-square.orders.yaml"))
        .expect("orders");
    // Up to blue's volley at r2 (turn 2) and the end of that phase.
    let upto = &text[..text.find("  # Turn 2, Red answers.").expect("red's turn")];
    for o in orders_from_text("test", upto).expect("orders parse") {
        let order = {
            let game = &h.state().session().expect("a game").game;
            resolve_order(game, &o.value).expect("resolves")
        };
        h.state_mut()
            .command(Command::ViewAs(ViewAs::Side(order.side)));
        h.state_mut().command(Command::Give(order.action));
        h.run();
    }
    // The phase's end after the volley is an order of blue's own: taken back, the last
    // order is the volley, which rolled.
    h.state_mut().command(Command::Undo);
    h.run();
    let s = h.state().session().expect("a game");
    assert!(
        s.why_locked().is_some_and(|w| w.contains("dice")),
        "{}",
        status(&h)
    );
    let at = h
        .get_by_role_and_label(Role::Button, "Undo")
        .rect()
        .center();
    h.event(egui::Event::PointerMoved(at));
    h.run();
    std::thread::sleep(std::time::Duration::from_millis(600));
    h.event(egui::Event::PointerMoved(at + egui::vec2(1.0, 0.0)));
    h.run();
    assert!(
        h.query_by_label_contains("The last order rolled dice")
            .is_some()
    );
    assert!(h.query_by_label_contains("since the last order").is_none());
}
