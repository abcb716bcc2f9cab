//! The seventh outside new-player check of issue 37 (its report's numbers), each checked as
//! the editor shows it, the tabs driven with egui_kittest.

mod common;
use common::{enabled, rect_of, wheel};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::view::ViewAs;
use grognard_editor::{Command, EditorApp};
use grognard_kernel::ids::SideId;

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
    common::give_orders(
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
    let said = h
        .state()
        .status()
        .map(|s| s.text.clone())
        .unwrap_or_default();
    assert!(said.contains("cannot be unseen"), "{said}");
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
    assert_eq!(common::combo_value(&h, "red"), "greedy");
    assert_eq!(
        common::combo_value(&h, "Scenario"),
        "examples/hex-command.yaml"
    );
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
    let said = h
        .state()
        .status()
        .map(|s| s.text.clone())
        .unwrap_or_default();
    assert!(said.contains("loaded the game"), "{said}");
    assert_eq!(common::combo_value(&h, "red"), "greedy", "{said}");
    assert_eq!(common::combo_value(&h, "blue"), "person");
    assert_eq!(
        common::combo_value(&h, "Scenario"),
        "examples/hex-command.yaml"
    );
}

/// Plays the open game to its end: the acting side's first listed order that is not the
/// end of the phase, then the end of the phase.
fn play_out(h: &mut Harness<'static, EditorApp>) {
    for _ in 0..200 {
        let (side, action) = {
            let g = &h.state().session().expect("a game").game;
            if g.phase().is_none() {
                return;
            }
            let side = g.to_act()[0];
            let action = g
                .legal_orders(side, &mut grognard_kernel::hooks::NoHooks)
                .into_iter()
                .find(|a| *a != grognard_kernel::action::Action::EndPhase);
            (side, action)
        };
        h.state_mut().command(Command::ViewAs(ViewAs::Side(side)));
        if let Some(a) = action {
            h.state_mut().command(Command::Give(a));
        }
        h.state_mut().command(Command::EndPhase);
        h.run();
    }
    panic!("the game did not end");
}

/// #3: nothing on the Play tab said how to win, and "red wins on points (red 3, blue 1)"
/// did not say what made the 3. The terms in force are one click away on the Play tab, in
/// words, and the end says which pieces made each side's points.
#[test]
fn the_play_tab_says_how_to_win_and_the_end_says_what_made_the_points() {
    let mut h = play("examples/hex-command.yaml");
    h.get_by_label("How to win").click();
    h.run();
    for term in [
        "Each enemy piece off the board at the end scores 1 point (but commander 2 points, \
         crew 0 points).",
        "Each enemy piece on the board routed at the end scores 1 point.",
        "A side loses at once when none of its pieces (infantry, artillery) is left on the \
         board: no infantry or artillery left on the field.",
        "After turn 7, the side with the most points wins; equal points are a draw.",
    ] {
        assert!(h.query_by_label(term).is_some(), "missing: {term}");
    }
    let root = common::root().join("crates/grognard-editor/tests/fixtures");
    let mut h = common::scenario(
        root.join("sure-shot.scenario.yaml")
            .to_str()
            .expect("UTF-8"),
        1024.0,
        700.0,
    );
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.run();
    play_out(&mut h);
    assert!(
        h.query_by_label("blue wins on points (blue 1, red 0)")
            .is_some()
    );
    assert!(
        h.query_by_label("How the points were made: blue 1: t off the board 1")
            .is_some(),
        "{:?}",
        h.query_all_by_label_contains("points")
            .filter_map(|n| n.accesskit_node().label())
            .collect::<Vec<_>>()
    );
}

/// Runs frames as the editor's window does: one, then more while one is asked for.
fn settle(h: &mut Harness<'_, EditorApp>) {
    h.step();
    for _ in 0..30 {
        if !h.ctx.requested_repaint_last_pass() {
            return;
        }
        h.step();
    }
}

/// The event log's newest line is in sight: below the log's heading, above the dice log's.
fn newest_in_sight(h: &Harness<'_, EditorApp>) -> bool {
    let last = h.state().event_log().last().expect("a log").clone();
    let line = rect_of(h, &last);
    let head = h
        .get_by_label_contains("Event log (")
        .accesskit_node()
        .bounding_box()
        .expect("laid out");
    line.min.y >= head.y1 as f32 && line.max.y <= rect_of(h, "Dice log").min.y
}

fn end_phases(h: &mut Harness<'static, EditorApp>, n: usize) {
    for _ in 0..n {
        h.state_mut()
            .command(Command::Give(grognard_kernel::action::Action::EndPhase));
        settle(h);
    }
    // The log is read again in the frame after the order's; a few more let it settle.
    for _ in 0..5 {
        h.step();
    }
}

/// #4: after one scroll up the event log stopped following, for the rest of that game and
/// into the next; the wheel at the log's end scrolled the panel around it instead; the dice
/// log was newest-first beside an oldest-first event log. Each log follows its newest line
/// unless scrolled up, *Jump to latest* and a new game bring it back, the wheel scrolls
/// only the log under it, and both logs are oldest first.
#[test]
fn the_logs_follow_the_newest_line_and_the_wheel_scrolls_only_the_log_under_it() {
    let mut h = play("examples/square-blocks.yaml");
    h.state_mut().command(Command::ViewAs(ViewAs::Referee));
    settle(&mut h);
    end_phases(&mut h, 8);
    assert!(newest_in_sight(&h));
    let last = h.state().event_log().last().expect("a log").clone();
    let over = rect_of(&h, &last).center() - egui::vec2(0.0, 30.0);
    // At the log's end, the wheel moves nothing else.
    let head = rect_of(&h, "Dice log");
    wheel(&mut h, over, -3000.0, 40);
    assert_eq!(
        rect_of(&h, "Dice log"),
        head,
        "the panel around the log scrolled"
    );
    assert!(newest_in_sight(&h));
    // Scrolled up, the log stays put as lines come, and offers the way back.
    wheel(&mut h, over, 150.0, 40);
    end_phases(&mut h, 2);
    assert!(
        !newest_in_sight(&h),
        "scrolled up, the log stays where it was put"
    );
    h.get_by_label("Jump to latest").click();
    settle(&mut h);
    assert!(newest_in_sight(&h));
    assert!(h.query_by_label("Jump to latest").is_none());
    // Scrolled up at the end of one game, the next game's log follows from its start.
    wheel(&mut h, over, 150.0, 40);
    h.state_mut().command(Command::Chosen(
        grognard_editor::app::FilePurpose::OpenScenario,
        std::path::PathBuf::from("examples/square-blocks.yaml"),
    ));
    settle(&mut h);
    assert!(h.state().session().expect("a game").orders().is_empty());
    h.state_mut().command(Command::ViewAs(ViewAs::Referee));
    settle(&mut h);
    end_phases(&mut h, 8);
    assert!(newest_in_sight(&h));
    // One order for both logs: the dice log's first roll is drawn above its last.
    let rolls = {
        let s = h.state().session().expect("a game");
        grognard_editor::session::dice_log(&s.scenario.ruleset, s.game.log())
    };
    assert!(rolls.len() >= 2, "{rolls:?}");
    let first = rect_of(&h, &rolls[0][0]);
    let newest = rect_of(&h, &rolls[rolls.len() - 1][0]);
    assert!(first.min.y < newest.min.y, "{first:?} {newest:?}");
}

/// #7: the computer's turn passed with only "the computer (red): end phase" on the status
/// line, while it fired and two regiments left the field. Over the log, a line sums up
/// what the computer did since the person's last order: its orders, the phases it ended,
/// and each side's losses meanwhile.
#[test]
fn the_computers_turn_is_summed_up_with_the_losses() {
    let root = common::root().join("crates/grognard-editor/tests/fixtures");
    let mut h = common::scenario(
        root.join("sure-shot.scenario.yaml")
            .to_str()
            .expect("UTF-8"),
        1024.0,
        700.0,
    );
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.state_mut()
        .command(Command::ViewAs(ViewAs::Side(SideId(1))));
    h.run();
    assert!(h.query_by_label_contains("The computer (").is_none());
    h.state_mut().command(Command::Seat(
        SideId(0),
        Some(grognard_play::PolicyKind::Greedy),
    ));
    for _ in 0..40 {
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(20));
        if h.state().session().expect("a game").orders().len() >= 2 {
            break;
        }
    }
    h.run();
    let line = "The computer (blue), since the last order of yours: 1 order, 1 phase ended · \
                lost: red 1 (t)";
    assert!(
        h.query_by_label(line).is_some(),
        "{:?}",
        h.query_all_by_label_contains("The computer")
            .filter_map(|n| n.accesskit_node().label())
            .collect::<Vec<_>>()
    );
}

/// #17, #18: a scenario could be played again only by finding it in the Scenario menu
/// (which also dropped the computer's seats), and at the end "Turn N of M" gave way to
/// "Game over", so the turn it ended on was only in the log. *New game* starts it again
/// with the seats kept, and the bar says the turn the game ended after.
#[test]
fn new_game_starts_again_with_the_seats_and_game_over_keeps_the_turn() {
    let root = common::root().join("crates/grognard-editor/tests/fixtures");
    let mut h = common::scenario(
        root.join("sure-shot.scenario.yaml")
            .to_str()
            .expect("UTF-8"),
        1280.0,
        800.0,
    );
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.run();
    play_out(&mut h);
    assert!(
        h.query_by_label("Game over after turn 1 of 1").is_some(),
        "{:?}",
        h.state().session().map(|s| s.game.state().turn)
    );
    h.state_mut().command(Command::Seat(
        SideId(1),
        Some(grognard_play::PolicyKind::Random),
    ));
    h.run();
    h.get_by_role_and_label(Role::Button, "New game").click();
    h.run();
    let s = h.state().session().expect("a game");
    assert!(s.game.phase().is_some(), "a game in play again");
    assert_eq!(s.orders().len(), 0);
    assert_eq!(common::combo_value(&h, "red"), "random");
    assert!(h.query_by_label_contains("Turn 1 of 1").is_some());
}

/// #12: a broken scenario opened from the menu showed its problems (well placed) but not
/// that it was not opened and the game in play went on, and the red line stayed after the
/// file was fixed. The line says both now, and reopening the fixed file replaces it.
#[test]
fn a_broken_scenario_says_it_was_not_opened_and_the_fixed_one_clears_the_error() {
    let mut h = play("examples/drill-square.yaml");
    let fixtures = common::root().join("crates/grognard-editor/tests/fixtures");
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::copy(
        fixtures.join("sure-shot.yaml"),
        dir.path().join("sure-shot.yaml"),
    )
    .expect("copied");
    let good = std::fs::read_to_string(fixtures.join("sure-shot.scenario.yaml")).expect("read");
    let scenario = dir.path().join("broken.yaml");
    std::fs::write(&scenario, good.replace("turns: 1", "turns: [1")).expect("written");
    let open = |h: &mut Harness<'static, EditorApp>| {
        h.state_mut().command(Command::Chosen(
            grognard_editor::app::FilePurpose::OpenScenario,
            scenario.clone(),
        ));
        h.run();
    };
    open(&mut h);
    let status = h.state().status().cloned().expect("a status");
    assert!(status.error);
    assert!(
        status
            .text
            .contains("broken.yaml not opened; the game in play is kept. "),
        "{}",
        status.text
    );
    assert_eq!(
        h.state()
            .session()
            .expect("a game")
            .scenario
            .spec
            .scenario
            .value,
        "drill-square"
    );
    std::fs::write(&scenario, &good).expect("fixed");
    open(&mut h);
    let status = h.state().status().cloned().expect("a status");
    assert!(!status.error, "{}", status.text);
    assert_eq!(
        h.state()
            .session()
            .expect("a game")
            .scenario
            .spec
            .scenario
            .value,
        "sure-shot"
    );
}

/// The third outside reading: after Load game the greyed Undo said "Dice were rolled since
/// the last order", whatever the loaded orders did. Orders that came with a save are not
/// this sitting's to take back, and the hover says that instead.
#[test]
fn after_loading_a_save_the_greyed_undo_says_the_orders_came_with_it() {
    let mut h = play("examples/square-blocks.yaml");
    common::give_orders(
        &mut h,
        "orders:\n  - { side: french, move: { piece: scout1, path: [[5, 5]] } }\n",
    );
    let dir = tempfile::tempdir().expect("a temporary folder");
    let save = dir.path().join("sb.json");
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
    assert!(
        !enabled(&h, "Undo"),
        "a loaded game's orders are not taken back"
    );
    h.get_by_role_and_label(Role::Button, "Undo").hover();
    h.run();
    assert!(
        h.query_by_label_contains("loaded from a save").is_some(),
        "the greyed Undo says the orders came with the save"
    );
    assert!(h.query_by_label_contains("Dice were rolled").is_none());
}
