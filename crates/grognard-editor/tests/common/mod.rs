//! Helpers shared by the editor's test files (each test file uses some of them).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use egui::Pos2;
use egui_kittest::Harness;
use grognard_editor::{EditorApp, Options, Saved};

/// The repository's root (the examples and rulesets the tests open).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// An editor `w` × `h` points large, opened with `options` from the repository's root.
pub fn sized(options: Options, w: f32, h: f32) -> Harness<'static, EditorApp> {
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

/// An editor `w` × `h` points large, opened on the scenario at `path`.
pub fn scenario(path: &str, w: f32, h: f32) -> Harness<'static, EditorApp> {
    sized(
        Options {
            scenario: Some(PathBuf::from(path)),
            ..Options::default()
        },
        w,
        h,
    )
}

/// The primary button pressed (or let go) at `pos`.
pub fn button(pos: Pos2, pressed: bool) -> egui::Event {
    egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    }
}

/// Presses the primary button at `from`, moves the pointer to `to` in six steps and lets
/// go, one frame per step (the caller runs whatever frames the outcome needs).
pub fn drag(h: &mut Harness<'_, EditorApp>, from: Pos2, to: Pos2) {
    h.event(egui::Event::PointerMoved(from));
    h.event(button(from, true));
    h.step();
    for i in 1..=6 {
        h.event(egui::Event::PointerMoved(
            from + (to - from) * (i as f32 / 6.0),
        ));
        h.step();
    }
    h.event(button(to, false));
    h.step();
}
