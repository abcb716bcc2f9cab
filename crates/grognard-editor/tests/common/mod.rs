//! Helpers shared by the editor's test files.

use egui::Pos2;
use egui_kittest::Harness;
use grognard_editor::EditorApp;

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
