//! The eighth outside player's findings of issue 37 (its report's F11, F5/F4, F14, F1, F2,
//! F18, F3, F6): a scenario file rewritten on disk, the log's words, Undo's reason at game
//! over and while stepping, the step row's place, hot-seat off, and ids in the player's
//! words — each checked as the editor shows it, driven with egui_kittest.

mod common;
use common::{rewrite, status};

use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::{Command, EditorApp};
use grognard_kernel::ids::SideId;

fn orders(h: &Harness<'_, EditorApp>) -> usize {
    h.state().session().expect("a game").orders().len()
}

/// F11: `touch` on the open scenario (same bytes) restarted the game in play from turn 1,
/// losing its orders. The same bytes are no change; a real change while a game is in play
/// keeps the game, says the file changed, and offers a new game from it.
#[test]
fn a_scenario_file_rewritten_on_disk_does_not_throw_the_game_in_play_away() {
    let dir = tempfile::tempdir().expect("temp dir");
    for d in ["examples", "rulesets"] {
        std::fs::create_dir_all(dir.path().join(d)).expect("dir");
    }
    for f in ["examples/drill-square.yaml", "rulesets/drill-square.yaml"] {
        std::fs::copy(common::root().join(f), dir.path().join(f)).expect("copy");
    }
    let path = dir.path().join("examples/drill-square.yaml");
    let text = std::fs::read_to_string(&path).expect("read");
    let mut h = common::scenario(&path.to_string_lossy(), 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    assert!(h.state().session().is_some(), "{}", status(&h));
    h.state_mut().command(Command::EndPhase);
    h.run();
    assert_eq!(orders(&h), 1, "{}", status(&h));
    // Touched: the same bytes, a new time.
    rewrite(&path, &text, 5);
    h.state_mut().check_files();
    h.run();
    assert_eq!(
        orders(&h),
        1,
        "same content, the game goes on: {}",
        status(&h)
    );
    assert!(!status(&h).contains("started under"), "{}", status(&h));
    // Really changed: the game still goes on, and the player is told.
    rewrite(&path, &text.replace("turns: 3", "turns: 4"), 10);
    h.state_mut().check_files();
    h.run();
    assert_eq!(orders(&h), 1, "a game in play is kept: {}", status(&h));
    let said = status(&h);
    assert!(
        said.contains("examples/drill-square.yaml changed on disk")
            && said.contains("the game in play goes on"),
        "{said}"
    );
    h.get_by_role_and_label(Role::Button, "New game from the changed files")
        .click();
    h.run();
    assert_eq!(orders(&h), 0, "a new game: {}", status(&h));
    assert_eq!(h.state().session().expect("a game").game.turns(), 4);
    assert!(
        h.query_by_label("New game from the changed files")
            .is_none(),
        "the offer goes once taken"
    );
}

/// Both sides seated as greedy and the game played to its end.
fn played_out(path: &str) -> Harness<'static, EditorApp> {
    let mut h = common::scenario(path, 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    for side in [SideId(0), SideId(1)] {
        h.state_mut()
            .command(Command::Seat(side, Some(grognard_play::PolicyKind::Greedy)));
    }
    let start = Instant::now();
    while h.state().session().expect("a game").game.phase().is_some() {
        assert!(start.elapsed() < Duration::from_secs(240), "{}", status(&h));
        std::thread::sleep(Duration::from_millis(5));
        h.run_steps(2);
    }
    h.run();
    h
}

/// F5/F4: the Play tab's log and piece panel read "is no longer may close", "te" and
/// "marker: te 2". The log says a flag as the CLI does (`grognard_play::text::flag_words`:
/// a state after "is" only when the name reads so, else "is marked “may close”") and a
/// counter by its `called:` words ("fatigue (TE) hits"); the piece panel says a piece's
/// counters and flags in the same words.
#[test]
fn the_log_and_the_piece_panel_word_flags_and_counters_as_the_cli_does() {
    let mut h = played_out("examples/hex-command.yaml");
    let log = h.state().event_log().to_vec();
    let game = &h.state().session().expect("a game").game;
    let rules = game.rules();
    let te = rules
        .counters
        .iter()
        .position(|c| c.name == "te")
        .expect("te");
    assert!(
        log.iter().any(|l| l.contains(" fatigue (TE) hits ")),
        "{log:#?}"
    );
    for l in &log {
        assert!(!l.contains(" te "), "{l}");
        for f in &rules.flags {
            let raw = f.name.replace('_', " ");
            let words = grognard_play::text::flag_words(&f.name, true);
            if words.contains("marked") {
                assert!(!l.ends_with(&format!(" is {raw}")), "{l}");
                assert!(!l.ends_with(&format!(" is no longer {raw}")), "{l}");
            }
        }
    }
    // A piece that ends with fatigue hits: the panel words them as the log does.
    let tired = game
        .state()
        .pieces
        .iter()
        .find(|p| {
            p.counters.get(te).copied().unwrap_or(0) > 0
                && p.place != grognard_kernel::piece::Place::Off
        })
        .map(|p| (p.id, p.name.clone(), p.counters[te]))
        .expect("a piece with fatigue hits");
    h.state_mut().command(Command::Select(Some(tired.0)));
    h.run();
    let line = format!("{} fatigue (TE) hits {}", tired.1, tired.2);
    assert!(h.query_by_label(&line).is_some(), "the panel says {line}");
    assert!(h.query_by_label_contains("marker: te").is_none());
}

/// F14: at game over Undo and Ctrl+Z said "The last order showed you something of the
/// enemy" in village-skirmish, which hides nothing. The reason given is that the game is
/// over.
#[test]
fn at_game_over_undo_says_the_game_is_over() {
    let mut h = played_out("examples/village-skirmish.yaml");
    h.state_mut().command(Command::Undo);
    h.run();
    let said = status(&h);
    assert!(said.contains("ended the game"), "{said}");
    assert!(!said.contains("enemy"), "{said}");
    let why = h.state().session().expect("a game").why_locked();
    assert_eq!(
        why,
        Some("The last order ended the game: it is not taken back.")
    );
}

/// F1, F2: while stepping through a finished game, Undo was drawn enabled (the position
/// shown is one order on from the last, which that session could take back) and clicking
/// it was refused; and the step row moved up and right after the first ◀ Back, so a
/// second click on the same spot missed. Undo is greyed while stepping, and the buttons
/// keep their places.
#[test]
fn stepping_through_a_finished_game_greys_undo_and_keeps_the_step_buttons_in_place() {
    let mut h = played_out("examples/drill-square.yaml");
    let n = h.state().session().expect("a game").orders().len();
    assert!(n > 3, "{n}");
    let before = h.get_by_role_and_label(Role::Button, "◀ Back").rect();
    h.get_by_role_and_label(Role::Button, "◀ Back").click();
    h.run();
    assert_eq!(h.state().review_position(), Some((n - 1, n)));
    let after = h.get_by_role_and_label(Role::Button, "◀ Back").rect();
    assert_eq!(before, after, "◀ Back stays where it was");
    // A second click on the same spot steps back again.
    h.event(egui::Event::PointerMoved(after.center()));
    h.event(common::button(after.center(), true));
    h.event(common::button(after.center(), false));
    h.run();
    assert_eq!(h.state().review_position(), Some((n - 2, n)));
    // Steps on from the start: each position is one order after another, which that
    // position's session could take back; Undo stays greyed at every one.
    h.get_by_role_and_label(Role::Button, "Start").click();
    h.run();
    for k in 1..=6 {
        h.get_by_role_and_label(Role::Button, "Forward ▶").click();
        h.run();
        assert_eq!(h.state().review_position(), Some((k, n)));
        let undo = h.get_by_role_and_label(Role::Button, "Undo");
        assert!(
            undo.accesskit_node().is_disabled(),
            "Undo is greyed while stepping (after order {k})"
        );
    }
    assert_eq!(
        h.get_by_role_and_label(Role::Button, "◀ Back").rect(),
        before
    );
}

/// F18: unticking Hot-seat left the board hidden ("Pass the screen to Side blue"), and the
/// next scenario opened hidden too ("Pass the screen to Referee"). Hot-seat off shows the
/// board; a new scenario does not inherit the screen.
#[test]
fn hot_seat_off_shows_the_board_and_a_new_scenario_does_not_open_hidden() {
    let mut h = common::scenario("examples/black-powder.yaml", 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.state_mut().command(Command::HotSeat(true));
    h.run();
    assert!(h.query_by_label_contains("Pass the screen to").is_some());
    h.state_mut().command(Command::HotSeat(false));
    h.run();
    assert!(
        h.query_by_label_contains("Pass the screen to").is_none(),
        "hot-seat off shows the board"
    );
    // Hidden again, then hot-seat off and another scenario opened.
    h.state_mut().command(Command::HotSeat(true));
    h.run();
    assert!(h.query_by_label_contains("Pass the screen to").is_some());
    h.state_mut().command(Command::HotSeat(false));
    h.state_mut().command(Command::Chosen(
        grognard_editor::app::FilePurpose::OpenScenario,
        "examples/hex-command.yaml".into(),
    ));
    h.run();
    assert!(status(&h).contains("hex-command"), "{}", status(&h));
    assert!(
        h.query_by_label_contains("Pass the screen to").is_none(),
        "a new scenario opens with the board shown"
    );
    // With hot-seat on, a new scenario is passed to the side to act, never to the referee.
    h.state_mut().command(Command::HotSeat(true));
    h.state_mut().command(Command::NewGame);
    h.run();
    assert!(
        h.query_by_label_contains("Pass the screen to the referee")
            .is_none(),
        "no screen is passed to the referee"
    );
}

/// F3, F6: a refusal spelled the ruleset's id ("hale has already used change_orders this
/// phase") and the Legal orders list kept underscores ("mode march_column", "(to
/// form_line)") where the buttons beside it have spaces. Both read as the buttons do.
#[test]
fn refusals_and_the_legal_list_say_the_rulesets_names_as_the_buttons_do() {
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    // Arrivals, then the command phase, where hale may change orders once.
    h.state_mut().command(Command::EndPhase);
    h.run();
    let game = &h.state().session().expect("a game").game;
    let hale = game.piece_by_name("hale").expect("hale").id;
    let action = game
        .rules()
        .action_by_name("change_orders")
        .expect("change_orders");
    let order = grognard_kernel::action::Action::Act {
        piece: hale,
        action,
        target: None,
        intent: Vec::new(),
    };
    h.state_mut().command(Command::Give(order.clone()));
    h.run();
    h.state_mut().command(Command::Give(order));
    h.run();
    let said = status(&h);
    assert!(
        said.contains("hale has already used change orders this phase"),
        "{said}"
    );
    assert!(!said.contains("change_orders"), "{said}");

    // Black powder: fr_ligne's modes in the legal list, spaced as its buttons are.
    let mut h = common::scenario("examples/black-powder.yaml", 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    let ligne = h
        .state()
        .session()
        .expect("a game")
        .game
        .piece_by_name("fr_ligne")
        .expect("fr_ligne")
        .id;
    for _ in 0..6 {
        if h.query_by_label("mode march column").is_some() {
            break;
        }
        h.state_mut().command(Command::EndPhase);
        h.run();
        h.state_mut().command(Command::Select(Some(ligne)));
        h.run();
    }
    assert!(
        h.query_by_label("mode march column").is_some(),
        "{}",
        status(&h)
    );
    assert!(h.query_by_label_contains("march_column").is_none());
}

/// F19: the Charts tab's Chart menu showed 9 of hex-command's charts in a box ending at a
/// third of the window, with no scroll bar until scrolled: a player took it for the whole
/// list. It takes the room down to the window's bottom, as the top bar's menus do (F13:
/// those stopped about 400 points down, egui's first size for a popup, whatever the room).
#[test]
fn the_chart_menu_uses_the_window() {
    let mut h = common::sized(
        grognard_editor::Options {
            ruleset: Some("rulesets/hex-command.yaml".into()),
            ..grognard_editor::Options::default()
        },
        1400.0,
        900.0,
    );
    h.get_by_role_and_label(Role::Button, "Charts").click();
    h.run();
    let charts: Vec<String> = h
        .state()
        .workbench()
        .expect("a ruleset")
        .current
        .rules
        .charts
        .iter()
        .map(|c| c.name.replace('_', " "))
        .collect();
    assert!(charts.len() > 20, "{charts:?}");
    h.get_by_role_and_label(Role::ComboBox, "Chart").click();
    h.run();
    let list = h
        .ctx
        .memory(|m| {
            let top = m.areas().top_layer_id(egui::Order::Foreground)?;
            m.area_rect(top.id)
        })
        .expect("the menu is open");
    assert!(list.bottom() <= 900.0, "{list:?} runs off the window");
    // F13: no list stops at egui's first guess of 400 points when the window has room.
    assert!(list.height() > 420.0, "{list:?}");
    let mut shown = 0;
    for name in &charts {
        let inside = h
            .query_all_by_label(name)
            .filter(|n| n.accesskit_node().role() != Role::ComboBox)
            .filter_map(|n| n.accesskit_node().bounding_box())
            .any(|b| {
                list.contains_rect(egui::Rect::from_min_max(
                    egui::pos2(b.x0 as f32, b.y0 as f32),
                    egui::pos2(b.x1 as f32, b.y1 as f32),
                ))
            });
        shown += usize::from(inside);
    }
    assert!(
        shown > 20,
        "{shown} of {} charts in sight in {list:?}",
        charts.len()
    );
}

/// F21: in square-blocks-setup's set-up a click on the board never deployed: the deploy
/// cells were not shaded, a click on a legal one did nothing (or was taken as a move and
/// refused), and only the list's 48 buttons worked. The cells are shaded as the piece's
/// reach and a click on one gives the `deploy` order.
#[test]
fn in_the_set_up_a_click_on_a_deploy_cell_deploys_the_piece() {
    let mut h = common::scenario("examples/square-blocks-setup.yaml", 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    let (piece, side, to) = {
        let s = h.state().session().expect("a game");
        let mut hooks = grognard_editor::session::hooks_for(&s.scenario.ruleset).expect("hooks");
        let side = s.game.to_act().first().copied().expect("a side sets up");
        s.game
            .legal_orders(side, hooks.as_mut())
            .into_iter()
            .filter_map(|a| match a {
                grognard_kernel::action::Action::Deploy { piece, to, .. } => Some((piece, to)),
                _ => None,
            })
            .next_back()
            .map(|(p, to)| (p, side, to))
            .expect("a deploy order")
    };
    let name = h
        .state()
        .session()
        .expect("a game")
        .game
        .piece(piece)
        .expect("piece")
        .name
        .clone();
    h.state_mut()
        .command(Command::ViewAs(grognard_editor::view::ViewAs::Side(side)));
    h.state_mut().command(Command::Select(Some(piece)));
    h.run();
    h.state_mut().command(Command::ClickCell(to));
    h.run();
    let s = h.state().session().expect("a game");
    let last = s.orders().last().map(|o| o.action.clone());
    assert!(
        matches!(last, Some(grognard_kernel::action::Action::Deploy { piece: p, to: t, .. }) if p == piece && t == to),
        "{name} deployed at {to}: {}",
        status(&h)
    );
    assert_eq!(s.game.piece(piece).and_then(|p| p.place.cell()), Some(to));
}

/// F15: on the Rules tab one bad field (cavalry's allowance typed "fast") also put ⚠ on a
/// good edit made after it (guns 4 → 5) and blamed it with cavalry's error. Only the field
/// at fault is marked; fixing it puts both edits in force.
#[test]
fn a_good_edit_after_a_bad_one_is_not_marked_with_the_bad_ones_error() {
    let mut h = common::sized(
        grognard_editor::Options {
            ruleset: Some("rulesets/village-skirmish.yaml".into()),
            ..grognard_editor::Options::default()
        },
        1400.0,
        900.0,
    );
    let field = |s: &[&str]| grognard_editor::house::field(s);
    let cavalry = field(&["piece_types", "cavalry", "allowance", "formed"]);
    let guns = field(&["piece_types", "guns", "allowance", "formed"]);
    h.state_mut()
        .command(Command::SetField(cavalry.clone(), "fast".to_owned()));
    h.run();
    h.state_mut()
        .command(Command::SetField(guns.clone(), "5".to_owned()));
    h.run();
    let bench = h.state().workbench().expect("a ruleset");
    assert!(
        bench.field_errors.contains_key(&cavalry),
        "{:?}",
        bench.field_errors
    );
    assert!(
        !bench.field_errors.contains_key(&guns),
        "the good edit is not blamed: {:?}",
        bench.field_errors
    );
    assert!(
        bench
            .problems
            .iter()
            .all(|m| !m.contains("your edit of piece types › guns")),
        "nor named in the messages: {:?}",
        bench.problems
    );
    h.state_mut()
        .command(Command::SetField(cavalry, "12".to_owned()));
    h.run();
    let bench = h.state().workbench().expect("a ruleset");
    assert!(bench.field_errors.is_empty(), "{:?}", bench.field_errors);
    assert_eq!(
        bench.value(&guns),
        Some(&serde_json::Value::from(5)),
        "the guns edit is kept"
    );
}
