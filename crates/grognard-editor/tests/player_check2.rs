//! What the second outside new-player check of issue 37 found, each driven as a player
//! drives the editor (egui_kittest, by the labels on screen): typing in the Charts tab,
//! the phase bar's places, clicks in a shared hex, the Tune and Simulate tabs' words.

mod common;

use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::{EditorApp, Options, Saved};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn sized(options: Options, w: f32, h: f32) -> Harness<'static, EditorApp> {
    let app = EditorApp::new(
        Saved::default(),
        Options {
            root: Some(root()),
            ..options
        },
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(w, h))
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run();
    h
}

fn scenario(path: &str, w: f32, h: f32) -> Harness<'static, EditorApp> {
    sized(
        Options {
            scenario: Some(PathBuf::from(path)),
            ..Options::default()
        },
        w,
        h,
    )
}

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
        assert!(
            h.query_by_label(&format!("Game over: {result}")).is_some(),
            "the bar says {result}"
        );
    }
}
