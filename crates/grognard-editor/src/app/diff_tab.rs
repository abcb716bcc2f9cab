//! The Diff tab: what the edited ruleset changes from its base, item by item in words.

use egui::Color32;

use super::{Command, EditorApp, FilePurpose};

impl EditorApp {
    pub(super) fn diff_tab(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(bench) = &self.rt.bench else {
            ui.label("No ruleset open.");
            return;
        };
        ui.heading(format!("Changes from {}", bench.base.rules.identity.name));
        let changes = bench.changes();
        if changes.is_empty() {
            ui.label("No changes: the ruleset in force is the base.");
        }
        for c in &changes {
            ui.label(c.to_string());
        }
        if !bench.problems.is_empty() {
            ui.separator();
            ui.colored_label(
                Color32::RED,
                "The last edit does not load (the last good ruleset stays in force):",
            );
            for p in &bench.problems {
                ui.colored_label(Color32::RED, p);
            }
        }
        ui.separator();
        ui.horizontal(|ui| {
            let label = ui.label("House rule name");
            let mut name = bench.name.clone();
            if ui
                .text_edit_singleline(&mut name)
                .labelled_by(label.id)
                .changed()
            {
                out.push(Command::RenameHouse(name));
            }
        });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(
                    bench.is_modified(),
                    egui::Button::new("Save as house rule…"),
                )
                .clicked()
            {
                out.push(Command::Ask(FilePurpose::SaveHouseRule));
            }
            if ui
                .add_enabled(bench.is_modified(), egui::Button::new("Revert all"))
                .clicked()
            {
                out.push(Command::Revert);
            }
        });
        ui.collapsing("Overlay preview", |ui| {
            ui.monospace(bench.overlay_text(&bench.base.path));
        });
    }
}
