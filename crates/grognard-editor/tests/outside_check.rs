//! What the outside new-player check of issue 37 found still wrong, each driven as a player
//! drives the editor (egui_kittest, by the labels on screen): the Simulate tab's legend and
//! stopped runs, the Charts tab's cells, misspelt outcomes and errors, a click on a friendly
//! piece, the orders list beside the logs, the top bar at 1280 points, labels before their
//! boxes and buttons that can never apply.

use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
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

fn tab(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_role_and_label(Role::Button, name).click();
    h.run();
}

#[test]
fn the_top_bar_fits_one_row_at_1280_points() {
    let mut h = scenario("examples/square-blocks-setup.yaml", 1280.0, 800.0);
    h.run();
    let first = h.get_by_role_and_label(Role::Button, "Rules").rect();
    for last in ["Host game…", "Join game…"] {
        let r = h.get_by_role_and_label(Role::Button, last).rect();
        assert!(
            (r.center().y - first.center().y).abs() < 2.0,
            "{last} is on the tabs' row ({r:?} against {first:?})"
        );
        assert!(r.max.x <= 1280.0, "{last} is inside the window: {r:?}");
    }
    // The files are still opened from the menus.
    h.get_by_role_and_label(Role::ComboBox, "Ruleset").click();
    h.run();
    assert!(h.query_by_label("Open ruleset…").is_some());
}

/// The label's right edge is left of its box's left edge, on the same row.
fn label_before(h: &Harness<'_, EditorApp>, name: &str, role: Role) {
    let boxed = h.get_by_role_and_label(role, name).rect();
    let label = h.get_by_role_and_label(Role::Label, name).rect();
    assert!(
        label.max.x <= boxed.min.x + 0.5 && (label.center().y - boxed.center().y).abs() < 4.0,
        "{name}: its label {label:?} comes before its box {boxed:?}"
    );
}

#[test]
fn labels_come_before_their_boxes() {
    let mut h = scenario("examples/drill-square.yaml", 1500.0, 1000.0);
    tab(&mut h, "Play");
    for name in ["Ruleset", "Scenario", "View as", "blue", "red"] {
        label_before(&h, name, Role::ComboBox);
    }
    tab(&mut h, "Charts");
    label_before(&h, "Chart", Role::ComboBox);
}
