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
    let mut h = common::tune_duel_shot_run();
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
    let mut h = common::scenario("examples/drill-square.yaml", 1280.0, 800.0);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.run();
    let text = std::fs::read_to_string(common::root().join("examples/drill-square.orders.yaml"))
        .expect("orders");
    // Up to blue's volley at r2 (turn 2) and the end of that phase.
    let upto = &text[..text.find("  # Turn 2, Red answers.").expect("red's turn")];
    common::give_orders(&mut h, upto);
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

/// Blue's and red's volleys of drill-square's orders (through turn 2), then a search of 40
/// imagined games an order playing blue's turn 3, in a window `w` × `ht`.
fn volleys_then_search(
    w: f32,
    ht: f32,
) -> egui_kittest::Harness<'static, grognard_editor::EditorApp> {
    use grognard_editor::Command;
    use grognard_editor::view::ViewAs;
    use grognard_play::PolicyKind;
    use grognard_play::search::Budget;
    let mut h = common::scenario("examples/drill-square.yaml", w, ht);
    h.state_mut().set_computer_pace(std::time::Duration::ZERO);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.run();
    let text = std::fs::read_to_string(common::root().join("examples/drill-square.orders.yaml"))
        .expect("orders");
    let upto = &text[..text.find("  # Turn 3").expect("turn 3")];
    common::give_orders(&mut h, upto);
    let blue = common::side_named(&h, "blue");
    h.state_mut().command(Command::Seat(
        blue,
        Some(PolicyKind::Search(Budget::Iterations(40))),
    ));
    // One frame to set it thinking (`run` would race the search's thread).
    h.step();
    let started = std::time::Instant::now();
    loop {
        h.step();
        let game = &h.state().session().expect("a game").game;
        if h.state().computer_thinking().is_none() && !game.to_act().contains(&blue) {
            break;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    h.state_mut().command(Command::ViewAs(ViewAs::Referee));
    h.run();
    h
}

/// At 800×600 with *Why…* open, the Dice log got its heading and one line cut by the
/// status bar. The logs keep room for a few dice lines; the Why panel gives way first.
#[test]
fn the_dice_log_keeps_a_few_lines_beside_an_open_why_panel() {
    use egui_kittest::kittest::NodeT;
    for (w, ht) in [(800.0, 600.0), (1400.0, 900.0)] {
        let mut h = volleys_then_search(w, ht);
        h.get_by_label("Why the computer chose…").click();
        h.run();
        let heading = common::rect_of(&h, "Dice log");
        let labels: Vec<(String, f32, f32)> = h
            .query_all_by_role(Role::Label)
            .filter_map(|n| {
                let n = n.accesskit_node();
                let b = n.bounding_box()?;
                Some((
                    n.label().or_else(|| n.value()).unwrap_or_default(),
                    b.y0 as f32,
                    b.y1 as f32,
                ))
            })
            .filter(|(_, y0, _)| *y0 >= heading.max.y)
            .collect();
        let foot = labels
            .iter()
            .find(|l| l.0 == status(&h))
            .map_or(ht, |l| l.1);
        let dice: Vec<_> = labels
            .iter()
            .filter(|l| l.1 >= heading.max.y && l.2 <= foot)
            // The Why panel's lines, scrolled out of its box, are not the dice log's.
            .filter(|l| {
                !["weighed:", "chosen:", "blue chose", "red chose"]
                    .iter()
                    .any(|w| l.0.starts_with(w))
            })
            .collect();
        // Whole text lines (15 points each) of the dice log above the status bar.
        let shown: f32 = dice.iter().map(|l| l.2 - l.1).sum();
        assert!(
            shown >= 45.0 && foot - heading.max.y >= 60.0,
            "{w}×{ht}: the dice log shows {shown} points of whole lines in {} above the \
             status bar at {foot} (heading {heading:?}): {dice:#?}",
            foot - heading.max.y
        );
    }
}

/// The piece panel read `mode: Mode line`: the row's label said "mode" and each button
/// "Mode" again, capitalised. The row says what its buttons do and each button the mode's
/// own name: `change mode to:` then `line`.
#[test]
fn the_piece_panels_mode_row_names_each_mode_once() {
    use grognard_editor::Command;
    let mut h = common::scenario("examples/black-powder.yaml", 1400.0, 900.0);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.run();
    let id = h
        .state()
        .drawn_pieces()
        .iter()
        .find(|p| p.name == "fr_ligne")
        .expect("fr_ligne")
        .id;
    h.state_mut().command(Command::Select(Some(id)));
    h.run();
    let _ = h.get_by_label("change mode to:");
    let _ = h.get_by_role_and_label(Role::Button, "line");
    assert!(h.query_by_label_contains("Mode ").is_none());
    assert!(h.query_by_label("mode:").is_none());
}
