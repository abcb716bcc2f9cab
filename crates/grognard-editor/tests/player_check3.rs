//! What was left of the second outside new-player check of issue 37, each driven as a
//! player drives the editor (egui_kittest, by the labels on screen): the legal orders
//! list after a move, its words and heading, the groups' and the hover card's state
//! between scenarios, and a `search` opponent that thinks while the window stays live.

mod common;

use std::time::{Duration, Instant};

use common::scenario;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::EditorApp;
use grognard_editor::app::Command;

/// A node's label as a screen reader reads it.
fn label(node: &egui_kittest::Node<'_>) -> String {
    let n = node.accesskit_node();
    n.label().or_else(|| n.value()).unwrap_or_default()
}

fn tab(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_role_and_label(Role::Button, name).click();
    h.run();
}

fn piece(h: &Harness<'_, EditorApp>, name: &str) -> grognard_kernel::ids::PieceId {
    let game = &h.state().session().expect("a game").game;
    game.state()
        .pieces
        .iter()
        .find(|p| p.name == name)
        .map(|p| p.id)
        .unwrap_or_else(|| panic!("no piece {name}"))
}

/// The legal orders list's heading.
fn heading(h: &Harness<'_, EditorApp>) -> (String, egui::Rect) {
    let node = h
        .query_by_label_contains("Legal orders of")
        .expect("the Legal orders heading");
    (label(&node), node.rect())
}

#[test]
fn after_a_move_the_shorter_legal_list_is_shown_from_its_top() {
    let mut h = scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    let scout = piece(&h, "scout1");
    h.state_mut().command(Command::Select(Some(scout)));
    h.run();
    // The player scrolled down the long list (moves, then facings) to its end.
    let buttons = |h: &Harness<'_, EditorApp>| -> Vec<(String, egui::Rect)> {
        h.query_all_by_role(Role::Button)
            .map(|n| (label(&n), n.rect()))
            .filter(|(l, _)| l.starts_with("→ ") || l.starts_with("face "))
            .collect()
    };
    let before = buttons(&h);
    assert!(before.len() > 8, "a long list: {before:?}");
    let last = before.last().expect("a button").0.clone();
    h.get_by_label(&last).scroll_to_me();
    h.run();
    // The move is given from the list; the list that follows is short.
    let first_move = before
        .iter()
        .find(|(l, _)| l.starts_with("→ "))
        .expect("a move")
        .0
        .clone();
    h.get_by_label(&first_move).click_accesskit();
    // The frame of the click gives the order; the next draws the new list, and the window
    // then waits for input: that frame is what the player looks at.
    h.step();
    h.step();
    let after = buttons(&h);
    assert!(!after.is_empty() && after.len() < before.len(), "{after:?}");
    let (text, head) = heading(&h);
    let bar = h.get_by_role_and_label(Role::Button, "Save game…").rect();
    assert!(
        head.min.y >= bar.max.y,
        "the heading {text} {head:?} is in sight, below the bar {bar:?}"
    );
    let (name, first) = &after[0];
    assert!(
        first.min.y >= head.max.y - 1.0 && first.max.y <= head.max.y + 200.0,
        "the list's first order {name} {first:?} shows just under its heading {head:?}"
    );
}

#[test]
fn the_legal_list_says_orders_in_the_panels_words_and_names_what_it_holds() {
    let mut h = scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    let scout = piece(&h, "scout1");
    h.state_mut().command(Command::Select(Some(scout)));
    h.run();
    // A facing reads as the piece panel's button says it.
    assert!(
        h.query_by_label("face E").is_some() || h.query_by_label("face SE").is_some(),
        "a facing order reads `face E`"
    );
    assert!(h.query_by_label_contains("face facing").is_none());
    let (text, _) = heading(&h);
    assert!(
        text.starts_with("Legal orders of french: scout1 ("),
        "{text}"
    );
    // The French end their phase: the list is the Austrians', whatever is selected.
    h.state_mut()
        .command(Command::Give(grognard_kernel::action::Action::EndPhase));
    h.run();
    h.state_mut().command(Command::Select(Some(scout)));
    h.run();
    let (text, _) = heading(&h);
    assert!(text.starts_with("Legal orders of austrians ("), "{text}");
    assert!(h.query_by_label("scout1 has no legal order now.").is_some());
    // The piece panel's reason reads as English: no `austrians's`, no doubled bracket,
    // in plain words (the eleventh player's F4 reworded "not among austrians' legal
    // orders now").
    let reason = label(
        &h.query_by_label_contains("scout1 cannot move now")
            .expect("the piece panel says why"),
    );
    assert!(
        reason.contains("austrians cannot give that order now") && !reason.contains("))"),
        "{reason}"
    );
}

#[test]
fn no_order_group_opens_by_itself_in_the_next_scenario() {
    let mut h = scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    // The second piece picked, then let go: its group closes.
    let second = h.state().session().expect("a game").game.state().pieces[1].id;
    h.state_mut().command(Command::Select(Some(second)));
    h.run();
    h.state_mut().command(Command::Select(None));
    h.run();
    for path in ["examples/hex-command.yaml", "examples/drill-square.yaml"] {
        h.state_mut().command(Command::Chosen(
            grognard_editor::app::FilePurpose::OpenScenario,
            path.into(),
        ));
        h.run();
        tab(&mut h, "Play");
        let open: Vec<String> = h
            .query_all_by_role(Role::Button)
            .map(|n| label(&n))
            .filter(|l| l.starts_with("→ ") || l.starts_with("face "))
            .collect();
        assert!(open.is_empty(), "{path}: no group is open: {open:?}");
    }
}

#[test]
fn a_search_opponent_thinks_while_the_window_keeps_drawing() {
    let mut h = scenario("examples/drill-square.yaml", 1280.0, 800.0);
    h.state_mut().set_computer_pace(Duration::ZERO);
    tab(&mut h, "Play");
    let (side, name) = {
        let game = &h.state().session().expect("a game").game;
        let side = *game.to_act().first().expect("a side acts");
        (side, game.sides()[side.index()].name.clone())
    };
    h.get_by_role_and_label(Role::ComboBox, &name).click();
    h.run();
    h.get_by_label("search").click();
    let mut thought = false;
    let mut slowest = Duration::ZERO;
    let started = Instant::now();
    loop {
        let was_thinking = h.state().computer_thinking() == Some(side);
        let frame = Instant::now();
        h.step();
        slowest = slowest.max(frame.elapsed());
        if was_thinking {
            // The frame drawn while it thought says so.
            thought = true;
            assert!(
                h.query_by_label_contains("thinking…").is_some(),
                "the phase bar says the computer thinks"
            );
        }
        let given = h
            .state()
            .session()
            .expect("a game")
            .orders()
            .iter()
            .any(|o| o.side == side);
        if given {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the computer's order lands"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(thought, "the search was seen thinking");
    assert!(
        slowest < Duration::from_millis(500),
        "no frame waits for the search (the slowest took {slowest:?})"
    );
}

#[test]
fn every_top_bar_control_is_inside_a_narrow_window_beside_its_label() {
    for w in [1024.0, 800.0] {
        let h = scenario("examples/black-powder.yaml", w, 700.0);
        let mut controls: Vec<(String, egui::Rect)> = Vec::new();
        for name in [
            "Rules",
            "Charts",
            "Diff",
            "Play",
            "Simulate",
            "Tune",
            "Remote",
            "Host game…",
            "Join game…",
        ] {
            controls.push((name.to_owned(), h.get_by_label(name).rect()));
        }
        // The phase bar's "Computer plays" boxes too (red's wrapped away from its name).
        for name in ["Ruleset", "Scenario", "View as", "blue", "red"] {
            let boxed = h.get_by_role_and_label(Role::ComboBox, name).rect();
            let named = h.get_by_role_and_label(Role::Label, name).rect();
            assert!(
                (named.center().y - boxed.center().y).abs() < 4.0
                    && boxed.min.x >= named.max.x
                    && boxed.min.x - named.max.x < 20.0,
                "{w}: the {name} box {boxed:?} is beside its label {named:?}"
            );
            controls.push((name.to_owned(), boxed));
        }
        for (name, r) in &controls {
            assert!(
                r.min.x >= 0.0 && r.max.x <= w,
                "{w}: {name} {r:?} is inside the window"
            );
        }
    }
}

#[test]
fn the_hover_card_waits_for_the_pointer_after_another_scenario_opens() {
    use grognard_kernel::geometry::Cell;
    let mut h = scenario("examples/drill-square.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    let card = |h: &Harness<'_, EditorApp>| h.query_by_label_contains("cell (").is_some();
    let spot = h.state().cell_on_screen(Cell::new(4, 2)).expect("drawn");
    h.event(egui::Event::PointerMoved(spot));
    h.run();
    assert!(card(&h), "the card shows for the cell under the pointer");
    // Another scenario opens (from the menu, whose list lay over the board); the pointer
    // has not moved.
    h.state_mut().command(Command::Chosen(
        grognard_editor::app::FilePurpose::OpenScenario,
        "examples/hex-command.yaml".into(),
    ));
    h.run();
    assert!(
        !card(&h),
        "no card for a cell of the new board until the pointer moves"
    );
    h.event(egui::Event::PointerMoved(spot + egui::vec2(3.0, 2.0)));
    h.run();
    assert!(card(&h), "the card is back once the pointer moves");
}

#[test]
fn a_counters_amount_is_shortened_to_fit_not_cut_in_its_middle() {
    use grognard_editor::scene::{self, DrawPiece, Look};
    use grognard_kernel::geometry::Cell;
    use grognard_kernel::piece::Place;
    let h = scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    let corps = DrawPiece {
        id: grognard_kernel::ids::PieceId(0),
        side: grognard_kernel::ids::SideId(1),
        name: "corps".to_owned(),
        kind: "corps_hq".to_owned(),
        place: Place::Cell(Cell::new(6, 0)),
        facing: None,
        mode: "strategic".to_owned(),
        markers: vec!["figures 6".to_owned()],
        look: Look::Open,
        footprint: None,
    };
    let lines = scene::label_lines(&corps);
    let width = |t: &str, font: &egui::FontId| {
        h.ctx
            .fonts_mut(|f| f.layout_no_wrap(t.to_owned(), font.clone(), egui::Color32::WHITE))
            .size()
            .x
    };
    // A counter as the player saw it at 1280 points: "f…res 6" under "corps S".
    for points in [9.0, 10.0, 11.0] {
        let font = egui::FontId::proportional(points);
        let room = width("corps S", &font) + 1.0;
        let fitted = scene::fit_lines(&h.ctx, &lines, &font, room, 60.0);
        assert_eq!(fitted[0], "corps S");
        assert!(
            fitted[1] == "fig 6" || fitted[1] == "f6",
            "{points} pt: {fitted:?}"
        );
        assert!(width(&fitted[1], &font) <= room);
    }
    // Hovering shows it whole.
    let card = grognard_editor::words::piece_card(&corps, "austrians");
    assert!(card.contains(&"figures 6".to_owned()), "{card:?}");
}

#[test]
fn simulate_says_games_times_rulesets_and_offers_the_search() {
    let mut h = common::sized(
        grognard_editor::Options {
            ruleset: Some("rulesets/drill-square-mud.yaml".into()),
            scenario: Some("examples/drill-square-mud.yaml".into()),
            ..grognard_editor::Options::default()
        },
        1280.0,
        800.0,
    );
    tab(&mut h, "Rules");
    h.get_by_label_contains("roads stay firm").click();
    h.run();
    tab(&mut h, "Simulate");
    h.get_by_role_and_label(Role::SpinButton, "games:")
        .set_value_accesskit(40.0);
    h.run();
    // The search, as the Play tab offers it, with its budget (iterations per order).
    h.get_by_label("search").click();
    h.run();
    let budget = h.get_by_role_and_label(Role::SpinButton, "search iterations per order:");
    assert_eq!(budget.value().as_deref(), Some("200"));
    budget.set_value_accesskit(2.0);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    h.step();
    let status = h
        .state()
        .status()
        .map(|s| s.text.clone())
        .unwrap_or_default();
    assert!(
        status.contains("simulating 40 games × 2 rulesets") && status.contains("search:it=2"),
        "{status}"
    );
    let bar = h
        .query_by_label_contains(" of 80 games")
        .map(|n| label(&n))
        .expect("the progress bar");
    assert!(bar.contains("(40 games × 2 rulesets)"), "{bar}");
    h.get_by_label("Stop").click();
    for _ in 0..600 {
        if !h.state().simulating() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
}

#[test]
fn the_tune_finder_names_a_modifier_as_the_charts_tab_does() {
    let mut h = scenario("examples/hex-command.yaml", 1280.0, 800.0);
    tab(&mut h, "Tune");
    h.get_by_label("find a number:")
        .set_text_value_accesskit("fire_small_b.modifiers");
    h.run();
    let names: Vec<String> = h
        .query_all_by_role(Role::Button)
        .map(|n| label(&n))
        .filter(|l| l.starts_with("charts.fire_small_b.modifiers."))
        .collect();
    assert!(!names.is_empty());
    for n in &names {
        assert!(n.contains(" (fire small b modifier "), "{n}");
    }
    // The Charts tab's words find it too.
    h.get_by_label("find a number:")
        .set_text_value_accesskit("fire_small_b modifier");
    h.run();
    assert!(
        h.query_by_label_contains("charts.fire_small_b.modifiers.0.per")
            .is_some(),
        "found by the Charts tab's name"
    );
}
