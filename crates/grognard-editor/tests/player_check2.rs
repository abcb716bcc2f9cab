//! What the second outside new-player check of issue 37 found, each driven as a player
//! drives the editor (egui_kittest, by the labels on screen): typing in the Charts tab,
//! the phase bar's places, clicks in a shared hex, the Tune and Simulate tabs' words.

mod common;

use common::{button, scenario};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::EditorApp;

/// A node's label as a screen reader reads it.
fn label(node: &egui_kittest::Node<'_>) -> String {
    let n = node.accesskit_node();
    n.label().or_else(|| n.value()).unwrap_or_default()
}

fn tab(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_role_and_label(Role::Button, name).click();
    h.run();
}

#[test]
fn a_typo_in_a_chart_cell_keeps_the_keyboard_the_text_and_the_fields_in_place() {
    let mut h = scenario("examples/drill-square.yaml", 1280.0, 800.0);
    tab(&mut h, "Charts");
    let cell = "volley row 1 result";
    let other = "volley row 1 score";
    let before = h.get_by_label(other).rect();
    h.get_by_label(cell).focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    // One key at a time, a frame between them, as a person types.
    for key in ["h", "t", "i"] {
        h.event(egui::Event::Text(key.to_owned()));
        h.run();
    }
    let node = h.get_by_label(cell);
    assert_eq!(node.value().as_deref(), Some("hti"), "every key lands");
    assert!(
        node.accesskit_node().is_focused(),
        "the field keeps the keyboard"
    );
    assert_eq!(
        h.get_by_label(other).rect(),
        before,
        "the message does not move the fields"
    );
    let message = h
        .query_by_label_contains("⚠ your edit of")
        .expect("the message above the fields");
    let text = label(&message);
    assert!(
        text.contains("your edit of charts › volley › row 1 › result (over ")
            && text.contains("drill-square.yaml:74)"),
        "{text}"
    );
    assert!(
        text.contains("is not an outcome of chart volley — did you mean `hit`? Its outcomes"),
        "{text}"
    );
    // Far from every outcome: no guess, and a full stop before the list.
    h.event(egui::Event::Text("xyz".to_owned()));
    h.run();
    let text = label(
        &h.query_by_label_contains("⚠ your edit of")
            .expect("the message"),
    );
    assert!(
        text.contains("not an outcome of chart volley. Its outcomes: hit, miss."),
        "{text}"
    );
    assert_eq!(h.get_by_label(other).rect(), before);
}

/// Where each of the phase bar's controls is.
fn bar_places(h: &Harness<'_, EditorApp>, boxes: &[&str]) -> Vec<(String, egui::Rect)> {
    let mut out = Vec::new();
    for name in ["End phase", "Undo", "Fit board", "Save game…"] {
        out.push((
            name.to_owned(),
            h.get_by_role_and_label(Role::Button, name).rect(),
        ));
    }
    for name in boxes {
        out.push((
            (*name).to_owned(),
            h.get_by_role_and_label(Role::ComboBox, name).rect(),
        ));
    }
    out
}

#[test]
fn the_phase_bar_keeps_its_places_to_the_end_and_says_who_won() {
    for (w, hgt) in [(1280.0, 800.0), (1024.0, 700.0), (800.0, 700.0)] {
        let mut h = scenario("examples/drill-square-mud.yaml", w, hgt);
        tab(&mut h, "Play");
        let sides: Vec<String> = h
            .state()
            .session()
            .expect("a game")
            .game
            .sides()
            .iter()
            .map(|s| s.name.clone())
            .collect();
        let mut boxes: Vec<&str> = vec!["View as"];
        boxes.extend(sides.iter().map(String::as_str));
        let first = bar_places(&h, &boxes);
        // Every control is inside the window, each side's box right after its name.
        for (name, r) in &first {
            assert!(r.max.x <= w, "{name} is inside a {w}-point window: {r:?}");
        }
        for side in &sides {
            let label = h.get_by_role_and_label(Role::Label, side).rect();
            let boxed = h.get_by_role_and_label(Role::ComboBox, side).rect();
            assert!(
                (label.center().y - boxed.center().y).abs() < 4.0
                    && boxed.min.x - label.max.x < 20.0,
                "{side}'s box {boxed:?} is beside its name {label:?}"
            );
        }
        let mut phases = 0;
        while h.state().session().expect("a game").game.phase().is_some() {
            phases += 1;
            assert!(phases < 60, "the game ends");
            h.get_by_role_and_label(Role::Button, "End phase").click();
            h.run();
            assert_eq!(
                bar_places(&h, &boxes),
                first,
                "no control moved after {phases} phases"
            );
        }
        assert!(phases > 2, "several phases were played");
        // Game over says how it ended, in the bar.
        let result = grognard_editor::app::result_words(&h.state().session().expect("a game").game);
        assert!(
            result.contains("wins") || result.contains("a draw"),
            "{result}"
        );
        // The slot says the game is over; the sentence is whole on a line of its own.
        assert!(
            h.query_by_label_contains("Game over after turn").is_some(),
            "the bar says so"
        );
        assert!(h.query_by_label(&result).is_some(), "the bar says {result}");
    }
}

#[test]
fn a_click_anywhere_on_a_counter_in_a_shared_hex_picks_that_counter() {
    use grognard_editor::board::{self, BoardScene, Overlay, Transform};
    use grognard_kernel::piece::Place;
    let h = scenario("examples/hex-command.yaml", 1280.0, 800.0);
    let game = &h.state().session().expect("a game").game;
    let mut pieces = h.state().drawn_pieces().to_vec();
    let at = |name: &str, pieces: &[board::DrawPiece]| {
        pieces
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.place.clone())
            .expect(name)
    };
    // r2 steps into voss's hex, as in the player's game.
    let voss = at("voss", &pieces);
    assert!(matches!(voss, Place::Cell(_)));
    for p in &mut pieces {
        if p.name == "r2" {
            p.place = voss.clone();
        }
    }
    let overlay = Overlay::default();
    let colors = vec![egui::Color32::from_gray(200); game.rules().terrain.len()];
    let scene = BoardScene {
        rules: game.rules(),
        board: game.board(),
        terrain_colors: &colors,
        pieces: &pieces,
        overlay: &overlay,
    };
    for scale in [40.0, 64.0, 90.0] {
        let t = Transform {
            origin: egui::pos2(30.0, 30.0),
            scale,
        };
        let rects = board::counter_rects(&scene, &t);
        for name in ["r2", "voss"] {
            let id = pieces.iter().find(|p| p.name == name).expect(name).id;
            let r = rects
                .iter()
                .find(|(p, _)| *p == id)
                .map(|(_, r)| *r)
                .expect("drawn");
            // The counter's centre and each corner, just inside its edge.
            let inner = r.shrink(1.5);
            for spot in [
                r.center(),
                inner.left_top(),
                inner.right_top(),
                inner.left_bottom(),
                inner.right_bottom(),
            ] {
                assert_eq!(
                    board::hit(&scene, &t, spot).piece,
                    Some(id),
                    "{name} at {spot:?} (its counter {r:?}, scale {scale})"
                );
            }
        }
    }
}

/// The board's transform as drawn, from where two cells' centres are on screen.
fn board_transform(h: &Harness<'_, EditorApp>) -> grognard_editor::board::Transform {
    use grognard_kernel::geometry::Cell;
    let g = &h.state().session().expect("a game").game;
    let grid = g.board().grid().expect("a grid");
    let (a, b) = (Cell::new(0, 0), Cell::new(1, 0));
    let sa = h.state().cell_on_screen(a).expect("drawn");
    let sb = h.state().cell_on_screen(b).expect("drawn");
    let (ax, ay) = grognard_editor::board::cell_center(grid, a);
    let (bx, _) = grognard_editor::board::cell_center(grid, b);
    let scale = (sb.x - sa.x) / (bx - ax);
    grognard_editor::board::Transform {
        origin: sa - egui::vec2(ax, ay) * scale,
        scale,
    }
}

#[test]
fn a_click_on_a_counter_in_a_shared_hex_selects_that_piece_not_its_neighbour() {
    use grognard_editor::board::{self, BoardScene, Overlay};
    let mut h = scenario("examples/hex-leaders.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    let t = board_transform(&h);
    let pieces = h.state().drawn_pieces().to_vec();
    let rects = {
        let game = &h.state().session().expect("a game").game;
        let overlay = Overlay::default();
        let colors = vec![egui::Color32::from_gray(200); game.rules().terrain.len()];
        let scene = BoardScene {
            rules: game.rules(),
            board: game.board(),
            terrain_colors: &colors,
            pieces: &pieces,
            overlay: &overlay,
        };
        board::counter_rects(&scene, &t)
    };
    // Two stacks at the start: bc1 with its leader bl1, rk1 with rl1. Each counter is
    // clicked in turn, the lower one of the stack first.
    for name in ["bc1", "bl1", "rk1", "rl1", "bc1"] {
        let id = pieces.iter().find(|p| p.name == name).expect(name).id;
        let r = rects
            .iter()
            .find(|(p, _)| *p == id)
            .map(|(_, r)| *r)
            .expect("drawn");
        let spot = r.center();
        h.event(egui::Event::PointerMoved(spot));
        h.event(button(spot, true));
        h.step();
        h.event(button(spot, false));
        h.run();
        assert!(
            h.query_by_label_contains(&format!("{name} — ")).is_some(),
            "a click on {name}'s counter at {spot:?} selects {name}; the status: {:?}",
            h.state().status()
        );
    }
}
