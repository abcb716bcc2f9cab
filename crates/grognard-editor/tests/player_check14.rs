//! The seventh outside player's leftovers of issue 37, part A (playing): each finding
//! checked as the editor shows it, the Play tab driven with egui_kittest.

mod common;
use common::{enabled, status};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::view::ViewAs;
use grognard_editor::{Command, EditorApp};
use grognard_kernel::ids::{PieceId, SideId};

fn play(path: &str) -> Harness<'static, EditorApp> {
    let mut h = common::scenario(path, 1280.0, 800.0);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.run();
    h
}

/// The piece selected on the Play tab now.
fn selected(h: &Harness<'_, EditorApp>) -> Option<PieceId> {
    h.state().board_overlay().selected
}

fn id_of(h: &Harness<'_, EditorApp>, name: &str) -> PieceId {
    h.state()
        .drawn_pieces()
        .iter()
        .find(|p| p.name == name)
        .expect(name)
        .id
}

/// Where `name`'s counter is drawn on screen (fanned in a stack).
fn counter_centre(h: &Harness<'_, EditorApp>, name: &str) -> egui::Pos2 {
    use grognard_editor::board::{self, BoardScene};
    let t = common::board_transform(h);
    let pieces = h.state().drawn_pieces().to_vec();
    let game = &h.state().session().expect("a game").game;
    let overlay = h.state().board_overlay();
    let colors = vec![egui::Color32::from_gray(200); game.rules().terrain.len()];
    let scene = BoardScene {
        rules: game.rules(),
        board: game.board(),
        terrain_colors: &colors,
        pieces: &pieces,
        overlay: &overlay,
    };
    let id = id_of(h, name);
    board::counter_rects(&scene, &t)
        .into_iter()
        .find(|(p, _)| *p == id)
        .map(|(_, r)| r.center())
        .expect("drawn")
}

/// A click of the primary button at `at`.
fn click_at(h: &mut Harness<'static, EditorApp>, at: egui::Pos2) {
    h.event(egui::Event::PointerMoved(at));
    h.event(common::button(at, true));
    h.step();
    h.event(common::button(at, false));
    h.run();
}

/// #5: a click on the piece already selected selected the other piece of its hex: a
/// player clicking again to be sure lost the selection. The click keeps it; the stack's
/// other piece is picked by a click on its own counter.
#[test]
fn clicking_the_selected_piece_again_keeps_it_selected() {
    let mut h = play("examples/hex-leaders.yaml");
    let (bc1, bl1) = (id_of(&h, "bc1"), id_of(&h, "bl1"));
    let at = counter_centre(&h, "bc1");
    click_at(&mut h, at);
    assert_eq!(selected(&h), Some(bc1));
    for _ in 0..3 {
        click_at(&mut h, at);
        assert_eq!(selected(&h), Some(bc1), "a click on bc1 again keeps bc1");
    }
    let other = counter_centre(&h, "bl1");
    click_at(&mut h, other);
    assert_eq!(
        selected(&h),
        Some(bl1),
        "a click on bl1's own counter picks it"
    );
    click_at(&mut h, other);
    assert_eq!(selected(&h), Some(bl1));
}

/// #6: a click on a cell the selected piece could not move to said only "not among
/// french's legal orders now". The move the click would give is put to the game (on a
/// copy) and its refusal is shown in the kernel's words, as `grognard play` prints it.
#[test]
fn a_refused_click_gives_the_rules_reason() {
    use grognard_kernel::geometry::Cell;
    let mut h = play("examples/square-blocks.yaml");
    h.state_mut()
        .command(Command::ViewAs(ViewAs::Side(SideId(0))));
    h.run();
    let scout = id_of(&h, "scout1");
    h.state_mut().command(Command::Select(Some(scout)));
    h.run();
    // Two clicks on (5,5): the path, then the move.
    for _ in 0..2 {
        h.state_mut().command(Command::ClickCell(Cell::new(5, 5)));
        h.run();
    }
    let game = &h.state().session().expect("a game").game;
    assert_eq!(
        game.piece(scout).expect("scout1").place.cell(),
        Some(Cell::new(5, 5))
    );
    // Back to where it came from: it has moved this phase.
    h.state_mut().command(Command::ClickCell(Cell::new(5, 6)));
    h.run();
    let said = status(&h);
    assert_eq!(said, "scout1 to (5,6) refused: scout1 has already moved");
    assert!(h.state().status().is_some_and(|s| s.error));
    let game = &h.state().session().expect("a game").game;
    assert_eq!(
        game.piece(scout).expect("scout1").place.cell(),
        Some(Cell::new(5, 5)),
        "nothing moved"
    );
}

/// The mode buttons of the selected piece: (label, enabled).
fn mode_buttons(h: &Harness<'_, EditorApp>, modes: &[String]) -> Vec<(String, bool)> {
    h.query_all_by_role(Role::Button)
        .filter_map(|n| {
            let l = n.accesskit_node().label()?;
            modes
                .contains(&l)
                .then(|| (l, !n.accesskit_node().is_disabled()))
        })
        .collect()
}

/// #13: in black-powder the piece panel offered every mode of the ruleset (a battalion
/// "limbered", a battery "square"), greyed with "not among blue's legal orders now",
/// while the legal list held a few. A mode the piece's type can never take has no button;
/// a button is live exactly when the legal list holds its order, and a greyed one gives
/// the kernel's own refusal of that order.
#[test]
fn the_mode_buttons_follow_the_legal_orders_and_say_the_rule_that_bars_the_others() {
    use grognard_kernel::action::{Action, Order};
    use grognard_kernel::ids::ModeId;
    let mut h = play("examples/black-powder.yaml");
    for name in ["fr_ligne", "fr_legere", "fr_hussars", "fr_battery"] {
        let id = id_of(&h, name);
        h.state_mut().command(Command::Select(Some(id)));
        h.run();
        let session = h.state().session().expect("a game");
        let game = &session.game;
        let rules = game.rules();
        let p = game.piece(id).expect(name);
        let ty = rules.piece_type(p.kind).expect("a type");
        let mut hooks = grognard_editor::session::hooks_for(&session.scenario.ruleset)
            .expect("the scripts load");
        let legal = game.legal_orders(p.side, hooks.as_mut());
        let names: Vec<String> = rules
            .modes
            .iter()
            .map(|m| m.name.replace('_', " "))
            .collect();
        let shown = mode_buttons(&h, &names);
        let mut expected = Vec::new();
        let mut hovered = Vec::new();
        for (i, m) in rules.modes.iter().enumerate() {
            let mode = ModeId(i as u16);
            let label = m.name.replace('_', " ");
            if mode == p.mode || ty.allowance.get(i).is_none_or(Option::is_none) {
                assert!(
                    !shown.iter().any(|(l, _)| *l == label),
                    "{name} ({}) can never take {}: no button",
                    ty.name,
                    m.name
                );
                continue;
            }
            let action = Action::Mode { piece: id, mode };
            let listed = legal.contains(&action);
            expected.push((label.clone(), listed));
            if !listed {
                let refusal = game
                    .clone()
                    .apply(
                        &Order {
                            side: p.side,
                            action: action.clone(),
                        },
                        hooks.as_mut(),
                    )
                    .expect_err("an order the list lacks is refused");
                let said = h.state().greyed_reason(&action);
                // The kernel's words, with the ruleset's names spaced as the buttons say
                // them (eighth outside player F3).
                let worded = grognard_editor::words::log_line(game.rules(), &refusal.message);
                assert_eq!(said, worded, "{name}: {label}");
                assert!(!said.contains("legal orders"), "{said}");
                hovered.push((label.clone(), said));
            }
        }
        assert_eq!(shown, expected, "{name}: the buttons are the listed modes");
        // The player reads it on the greyed button's hover.
        for (label, said) in hovered {
            h.get_by_role_and_label(Role::Button, &label).hover();
            h.run();
            assert!(
                h.query_by_label(&said).is_some(),
                "{name}: hovering {label} shows {said:?}"
            );
        }
    }
}

fn rect(n: &egui_kittest::Node<'_>) -> egui::Rect {
    let b = n.accesskit_node().bounding_box().expect("laid out");
    egui::Rect::from_min_max(
        egui::pos2(b.x0 as f32, b.y0 as f32),
        egui::pos2(b.x1 as f32, b.y1 as f32),
    )
}

/// The Scenario menu's entries (not its box) and where each is, with the rect of the open
/// list.
fn scenario_menu(h: &Harness<'_, EditorApp>) -> (egui::Rect, Vec<(String, egui::Rect)>) {
    // The open menu is the one area in front of the window.
    let list = h
        .ctx
        .memory(|m| {
            let top = m.areas().top_layer_id(egui::Order::Foreground)?;
            m.area_rect(top.id)
        })
        .expect("the menu is open");
    let entries = h
        .query_all_by_label_contains("examples/")
        .filter(|n| n.accesskit_node().role() != Role::ComboBox)
        .filter_map(|n| Some((n.accesskit_node().label()?, rect(&n))))
        .collect();
    (list, entries)
}

/// #14: the Scenario menu, with every bundled example, showed ten of them in a box of 200
/// points and hid the rest behind a scroll bar drawn only under the pointer: it read as a
/// whole list that would not scroll. The list takes the room down to the window's edge,
/// with its scroll bar drawn, and scrolls past that — never off the window.
#[test]
fn a_long_scenario_menu_uses_the_window_and_scrolls_within_it() {
    let mut h = common::scenario("examples/black-powder.yaml", 1024.0, 800.0);
    h.get_by_role_and_label(Role::ComboBox, "Scenario").click();
    h.run();
    let (list, entries) = scenario_menu(&h);
    assert!(entries.len() >= 11, "{entries:?}");
    for (name, r) in &entries {
        assert!(
            list.contains_rect(*r),
            "{name} at {r:?} is cut off by the list {list:?}"
        );
    }
    // A short window: the list ends inside it, and the wheel brings the last entry in.
    let mut h = common::scenario("examples/black-powder.yaml", 1024.0, 360.0);
    h.get_by_role_and_label(Role::ComboBox, "Scenario").click();
    h.run();
    let (list, entries) = scenario_menu(&h);
    assert!(
        list.bottom() <= 360.0,
        "the list {list:?} runs off the window"
    );
    let (last, r) = entries.last().cloned().expect("entries");
    assert!(
        !list.contains_rect(r),
        "{last} fits at once: no scrolling to check"
    );
    common::wheel(&mut h, list.center(), -2000.0, 40);
    let (list, entries) = scenario_menu(&h);
    let r = entries
        .iter()
        .find(|(n, _)| *n == last)
        .expect("still listed")
        .1;
    assert!(
        list.contains_rect(r),
        "scrolled, {last} at {r:?} is in the list {list:?}"
    );
}

/// The first legal move of `side` in the open game (the kernel's list, with the
/// ruleset's hooks).
fn first_move(h: &Harness<'_, EditorApp>, side: SideId) -> grognard_kernel::action::Action {
    let s = h.state().session().expect("a game");
    let mut hooks = grognard_editor::session::hooks_for(&s.scenario.ruleset).expect("hooks");
    s.game
        .legal_orders(side, hooks.as_mut())
        .into_iter()
        .find(|a| matches!(a, grognard_kernel::action::Action::Move { .. }))
        .expect("a legal move")
}

/// #15: no key did anything on the Play tab. Escape lets go of the selection (and closes
/// the path prompt), Ctrl+Z is Undo under the button's rules, E ends the phase when *End
/// phase* is enabled, and the button's hover names its key.
#[test]
fn escape_ctrl_z_and_e_work_as_the_buttons_do() {
    let mut h = play("examples/hex-leaders.yaml");
    let bc1 = id_of(&h, "bc1");
    h.state_mut().command(Command::Select(Some(bc1)));
    h.run();
    assert_eq!(selected(&h), Some(bc1));
    h.key_press(egui::Key::Escape);
    h.run();
    assert_eq!(selected(&h), None, "Escape lets go of the piece");
    // Ctrl+Z with nothing to take back: nothing happens, and the status says why.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert!(
        status(&h).contains("nothing to take back"),
        "{}",
        status(&h)
    );
    let step = |h: &Harness<'_, EditorApp>| h.state().session().expect("a game").game.state().step;
    let before = step(&h);
    let m = first_move(&h, SideId(0));
    h.state_mut().command(Command::Give(m));
    h.run();
    assert_eq!(h.state().session().expect("a game").orders().len(), 1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert!(
        status(&h).starts_with("took back the last order: "),
        "{}",
        status(&h)
    );
    assert_eq!(h.state().session().expect("a game").orders().len(), 0);
    // The button's hover names its key.
    h.get_by_role_and_label(Role::Button, "End phase").hover();
    h.run();
    assert!(h.query_by_label_contains("(key: E)").is_some());
    h.key_press(egui::Key::E);
    h.run();
    assert_eq!(h.state().session().expect("a game").orders().len(), 1);
    assert_ne!(step(&h), before, "E ended the phase");
    // Seen as the side that does not act, E ends nothing and says why.
    let acting = h.state().session().expect("a game").game.to_act()[0];
    let other = SideId(1 - acting.0);
    h.state_mut().command(Command::ViewAs(ViewAs::Side(other)));
    h.run();
    h.key_press(egui::Key::E);
    h.run();
    assert_eq!(h.state().session().expect("a game").orders().len(), 1);
    assert!(status(&h).contains("does not act now"), "{}", status(&h));
    // Escape closes the path prompt (the dialog in place of a file dialog).
    h.state_mut()
        .command(Command::Ask(grognard_editor::app::FilePurpose::SaveGame));
    h.run();
    assert!(h.query_by_label_contains("Save game — path").is_some());
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(h.query_by_label_contains("Save game — path").is_none());
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

fn sure_shot() -> Harness<'static, EditorApp> {
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
    h
}

/// #16: once the game was over there was no way back through it to see what happened.
/// Its orders can be stepped through — the board, the phase bar and the log as they
/// stood after each — read-only, and back to the end; a finished save loaded does the
/// same.
#[test]
fn a_finished_game_can_be_stepped_through_and_back_to_its_end() {
    let mut h = sure_shot();
    play_out(&mut h);
    h.state_mut().command(Command::ViewAs(ViewAs::Referee));
    h.run();
    let n = h.state().session().expect("a game").orders().len();
    assert!(n >= 2, "{n}");
    let end_log = h.state().event_log().to_vec();
    let fresh = sure_shot().state().event_log().len();
    h.get_by_role_and_label(Role::Button, "◀ Back").click();
    h.run();
    assert_eq!(h.state().review_position(), Some((n - 1, n)));
    let game = &h.state().session().expect("a position").game;
    assert!(
        game.phase().is_some(),
        "one order before the end the game goes on"
    );
    assert!(h.query_by_label_contains("Turn 1 of 1").is_some());
    assert!(h.state().event_log().len() < end_log.len());
    h.get_by_role_and_label(Role::Button, "Start").click();
    h.run();
    assert_eq!(h.state().review_position(), Some((0, n)));
    assert_eq!(
        h.state().event_log().len(),
        fresh,
        "the log as the game began"
    );
    h.get_by_role_and_label(Role::Button, "Forward ▶").click();
    h.run();
    assert_eq!(h.state().review_position(), Some((1, n)));
    assert!(
        status(&h).starts_with(&format!("after order 1 of {n}: ")),
        "{}",
        status(&h)
    );
    // Read-only: no order is given, and the computer does not play the position.
    let m = h.state().session().expect("a position").game.to_act();
    assert!(!m.is_empty());
    h.state_mut().command(Command::EndPhase);
    h.state_mut()
        .command(Command::Seat(m[0], Some(grognard_play::PolicyKind::Greedy)));
    for _ in 0..5 {
        h.run();
    }
    assert_eq!(h.state().review_position(), Some((1, n)));
    assert_eq!(h.state().session().expect("a position").orders().len(), 1);
    assert!(!enabled(&h, "End phase"));
    h.state_mut().command(Command::Seat(m[0], None));
    h.key_press(egui::Key::ArrowRight);
    h.run();
    // One order on again (at the end, stepping is over).
    let expected = (2 < n).then_some((2, n));
    assert_eq!(h.state().review_position(), expected);
    // Saved meanwhile, the save holds the whole game.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let save = dir.path().join("over.json");
    h.state_mut().command(Command::Chosen(
        grognard_editor::app::FilePurpose::SaveGame,
        save.clone(),
    ));
    h.run();
    h.get_by_role_and_label(Role::Button, "Back to the end")
        .click();
    h.run();
    assert_eq!(h.state().review_position(), None);
    let s = h.state().session().expect("a game");
    assert_eq!(s.orders().len(), n);
    assert!(s.game.phase().is_none());
    assert_eq!(h.state().event_log(), end_log.as_slice());
    // The finished save, loaded, steps back the same way (here with the key).
    h.state_mut().command(Command::Chosen(
        grognard_editor::app::FilePurpose::LoadGame,
        save,
    ));
    h.run();
    let s = h.state().session().expect("a game");
    assert_eq!(s.orders().len(), n, "{}", status(&h));
    assert!(s.game.phase().is_none());
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().review_position(), Some((n - 1, n)));
    h.key_press(egui::Key::End);
    h.run();
    assert_eq!(h.state().review_position(), None);
}
