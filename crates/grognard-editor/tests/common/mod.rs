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

/// The status line's words, or nothing.
pub fn status(h: &Harness<'_, EditorApp>) -> String {
    h.state()
        .status()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

/// Writes `body` to `p` with a modification time `secs` ahead, as an edit on disk would.
pub fn rewrite(p: &Path, body: &str, secs: u64) {
    std::fs::write(p, body).expect("write");
    let f = std::fs::File::options().append(true).open(p).expect("open");
    f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(secs))
        .expect("mtime");
}

/// A copy of the bundled `name` scenario and its ruleset in a folder of their own.
pub fn copied(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    for d in ["examples", "rulesets"] {
        std::fs::create_dir_all(dir.path().join(d)).expect("dir");
    }
    for f in [
        format!("examples/{name}.yaml"),
        format!("rulesets/{name}.yaml"),
    ] {
        std::fs::copy(root().join(&f), dir.path().join(&f)).expect("copy");
    }
    let path = dir.path().join(format!("examples/{name}.yaml"));
    (dir, path)
}
