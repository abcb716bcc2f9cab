//! The frame around the tabs: the top bar (ruleset, scenario, tabs, files), the status line,
//! the path prompt shown when no file dialog is available, and the editable field widget
//! the tabs share.

use std::path::PathBuf;

use egui::{Color32, RichText};

use crate::house::shown;

use super::{
    Command, EditorApp, FilePurpose, RemoteForm, Tab, bundled_rulesets, example_scenarios,
};

/// The tabs, in the order the top bar shows them.
pub(super) const TABS: [(Tab, &str); 7] = [
    (Tab::Rules, "Rules"),
    (Tab::Charts, "Charts"),
    (Tab::Diff, "Diff"),
    (Tab::Play, "Play"),
    (Tab::Simulate, "Simulate"),
    (Tab::Tune, "Tune"),
    (Tab::Remote, "Remote"),
];

/// The width of the Ruleset and Scenario menus in the top bar (a longer name is cut, whole
/// on hover).
const TOP_MENU_WIDTH: f32 = 160.0;
/// The narrowest the two menus get in a narrow window before the bar wraps.
const TOP_MENU_NARROWEST: f32 = 100.0;

/// The room a top-bar menu's list has: from under its box to the window's bottom edge, less
/// a margin (egui's default, 200 points, showed 10 of the Scenario menu's entries and hid
/// the rest, with a scroll bar that shows only under the pointer: players took the list
/// for whole). The list scrolls past that, with a scroll bar always drawn, and never
/// reaches past the window.
pub(super) fn menu_room(ui: &egui::Ui) -> f32 {
    let bottom = ui.ctx().content_rect().bottom();
    (bottom - ui.max_rect().bottom() - 48.0).max(80.0)
}

/// A menu's scroll bar drawn solid, always in sight, so a list that goes on is seen to.
pub(super) fn solid_scroll_bar(style: &mut egui::Style) {
    style.spacing.scroll = egui::style::ScrollStyle::solid();
}

impl EditorApp {
    pub(super) fn top_bar(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        // One row at 1280 points: the file choices live in the Ruleset and Scenario menus,
        // and the names shown in them are cut to a width (the whole name on hover). In a
        // narrower window the menus narrow first; below that the row wraps before a label
        // and its box, or the two remote buttons, that no longer fit (they move together),
        // so nothing is cut off at the window's edge.
        ui.horizontal_wrapped(|ui| {
            // The tabs come first, so their places never move when a name beside them
            // (the ruleset's, the scenario's) changes length.
            for (tab, name) in TABS {
                if ui.selectable_label(self.saved.tab == tab, name).clicked() {
                    out.push(Command::Tab(tab));
                }
            }
            ui.separator();
            // What each group after the tabs takes, measured in the font in use.
            let gap = ui.spacing().item_spacing.x;
            let text = |ui: &egui::Ui, t: &str| {
                ui.painter()
                    .layout_no_wrap(
                        t.to_owned(),
                        egui::TextStyle::Button.resolve(ui.style()),
                        Color32::WHITE,
                    )
                    .size()
                    .x
            };
            let pad = 2.0 * ui.spacing().button_padding.x;
            let labels = text(ui, "Ruleset") + text(ui, "Scenario") + 2.0 * gap;
            let remote = text(ui, "Host game…") + text(ui, "Join game…") + 2.0 * pad + 2.0 * gap;
            // Room left on the row (a wrapping row reports its whole width as available).
            let left = |ui: &egui::Ui| ui.max_rect().right() - ui.cursor().min.x;
            let menu_width = ((left(ui) - labels - remote - 6.0 * gap) / 2.0)
                .clamp(TOP_MENU_NARROWEST, TOP_MENU_WIDTH);
            // A group that no longer fits on the row starts the next one.
            let room = |ui: &mut egui::Ui, width: f32| {
                if left(ui) < width {
                    ui.end_row();
                }
            };
            room(ui, text(ui, "Ruleset") + 2.0 * gap + menu_width);
            // On the Remote tab the joined game's ruleset and scenario are the ones in
            // play, whatever is open here (a seat that joined from a link has none open).
            let joined = (self.saved.tab == Tab::Remote)
                .then(|| self.remote()?.table())
                .flatten();
            let current = match (joined, self.rt.bench.as_ref()) {
                (Some(t), _) => t.rules.identity.name.clone(),
                (None, Some(b)) => b.current.rules.identity.name.clone(),
                (None, None) => "no ruleset".to_owned(),
            };
            // Labels before their boxes, as everywhere in the editor.
            {
                let label = ui.label("Ruleset");
                ui.allocate_ui(egui::vec2(menu_width, ui.spacing().interact_size.y), |ui| {
                    let list_height = menu_room(ui);
                    egui::ComboBox::from_id_salt("ruleset menu")
                        .selected_text(current.clone())
                        .height(list_height)
                        .popup_style(egui::style::StyleModifier::new(solid_scroll_bar))
                        .width(menu_width)
                        .truncate()
                        .show_ui(ui, |ui| self.ruleset_menu(ui, out))
                        .response
                        .labelled_by(label.id)
                        .on_hover_text(if joined.is_some() {
                            format!("ruleset of the joined game: {current}")
                        } else {
                            format!("ruleset in force: {current}")
                        });
                });
            }
            let scenario = match (joined, self.rt.scenario_path.as_ref()) {
                (Some(t), _) if !t.scenario.is_empty() => t.scenario.clone(),
                (_, Some(p)) => self.shown(p),
                _ => "none".to_owned(),
            };
            room(ui, text(ui, "Scenario") + 2.0 * gap + menu_width);
            {
                let label = ui.label("Scenario");
                ui.allocate_ui(egui::vec2(menu_width, ui.spacing().interact_size.y), |ui| {
                    let list_height = menu_room(ui);
                    egui::ComboBox::from_id_salt("scenario menu")
                        .selected_text(scenario.clone())
                        .height(list_height)
                        .popup_style(egui::style::StyleModifier::new(solid_scroll_bar))
                        .width(menu_width)
                        .truncate()
                        .show_ui(ui, |ui| {
                            if ui.button("Open scenario…").clicked() {
                                out.push(Command::Ask(FilePurpose::OpenScenario));
                            }
                            ui.separator();
                            for p in example_scenarios(self.rt.root.as_deref()) {
                                if ui.selectable_label(false, self.shown(&p)).clicked() {
                                    out.push(Command::Chosen(FilePurpose::OpenScenario, p));
                                }
                            }
                            // Scenarios opened lately are listed here, not among rulesets.
                            if !self.saved.recent_scenarios.is_empty() {
                                ui.separator();
                                ui.label(RichText::new("Recent").strong());
                            }
                            for p in &self.saved.recent_scenarios {
                                let shown = format!("recent: {}", self.shown(p));
                                if ui.selectable_label(false, shown).clicked() {
                                    let p = p.clone();
                                    out.push(Command::Chosen(FilePurpose::OpenScenario, p));
                                }
                            }
                        })
                        .response
                        .labelled_by(label.id)
                        .on_hover_text(if joined.is_some() {
                            format!("scenario of the joined game: {scenario}")
                        } else {
                            format!("scenario: {scenario}")
                        });
                });
            }
            room(ui, remote + gap);
            if ui.button("Host game…").clicked() {
                out.push(Command::RemoteForm(RemoteForm::Host));
            }
            if ui.button("Join game…").clicked() {
                out.push(Command::RemoteForm(RemoteForm::Join));
            }
        });
    }

    /// The Ruleset menu's items: save the changes as a house rule, open a ruleset, the
    /// bundled ones and the recent files.
    fn ruleset_menu(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let modified = self.rt.bench.as_ref().is_some_and(|b| b.is_modified());
        if ui
            .add_enabled(modified, egui::Button::new("Save as house rule…"))
            .on_disabled_hover_text("Nothing changed from the base yet")
            .clicked()
        {
            out.push(Command::Ask(FilePurpose::SaveHouseRule));
        }
        if ui.button("Open ruleset…").clicked() {
            out.push(Command::Ask(FilePurpose::OpenRuleset));
        }
        ui.separator();
        ui.label(RichText::new("Bundled").strong());
        for p in bundled_rulesets(self.rt.root.as_deref()) {
            if ui.selectable_label(false, self.shown(&p)).clicked() {
                out.push(Command::Chosen(FilePurpose::OpenRuleset, p));
            }
        }
        if !self.saved.recent.is_empty() {
            ui.separator();
            ui.label(RichText::new("Recent").strong());
            for p in &self.saved.recent {
                if ui
                    .selectable_label(false, format!("recent: {}", self.shown(p)))
                    .clicked()
                {
                    out.push(Command::Chosen(FilePurpose::OpenRuleset, p.clone()));
                }
            }
        }
    }

    pub(super) fn status_line(&self, ui: &mut egui::Ui) {
        if let Some(e) = &self.rt.reload_error {
            ui.colored_label(Color32::RED, format!("Reload error: {e}"));
        }
        match &self.rt.status {
            Some(s) if s.error => {
                ui.colored_label(Color32::RED, &s.text);
            }
            Some(s) => {
                ui.label(&s.text);
            }
            // The hint is for an empty editor only: brought back whenever a message cleared
            // mid-game, it read as if the game had been closed (twelfth player, finding 1).
            None if self.rt.bench.is_none()
                && self.rt.session.is_none()
                && self.rt.scenario_path.is_none() =>
            {
                ui.label("Open a ruleset or a scenario to begin.");
            }
            None => {
                ui.label("");
            }
        }
    }

    pub(super) fn prompt_ui(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(p) = &mut self.rt.prompt else {
            return;
        };
        ui.label(&p.note);
        ui.horizontal(|ui| {
            let label = ui.label(format!("{} — path:", p.purpose.title()));
            let edit = ui.add(egui::TextEdit::singleline(&mut p.text).desired_width(420.0));
            let edit = edit.labelled_by(label.id);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("OK").clicked() || enter {
                out.push(Command::Chosen(p.purpose, PathBuf::from(p.text.trim())));
            }
            if ui.button("Cancel").clicked() {
                out.push(Command::CancelAsk);
            }
        });
    }

    /// A text field for one ruleset value, with its error beside it.
    pub(super) fn field_ui(
        &self,
        ui: &mut egui::Ui,
        path: &[String],
        name: &str,
        out: &mut Vec<Command>,
    ) {
        let Some(bench) = &self.rt.bench else {
            return;
        };
        let mut text = self
            .rt
            .edit
            .texts
            .get(path)
            .cloned()
            .unwrap_or_else(|| shown(bench.value(path)));
        let changed_from_base = bench.value(path) != bench.base_value(path);
        ui.horizontal(|ui| {
            // Wide enough for the whole value ("impassable"), never cut off.
            let width = ui
                .ctx()
                .fonts_mut(|f| {
                    f.layout_no_wrap(
                        text.clone(),
                        egui::TextStyle::Body.resolve(ui.style()),
                        Color32::WHITE,
                    )
                })
                .size()
                .x;
            // A grid caps a cell at its column's width of the last frame, so the width is
            // a minimum (the column grows to it) and the text is never clipped.
            let width = width.max(56.0) + 12.0;
            // An id of its own path: the field keeps the keyboard when a message or a
            // mark appears elsewhere on the page (an automatic id would shift with them).
            let mut edit = egui::TextEdit::singleline(&mut text)
                .id(egui::Id::unique(("ruleset field", path)))
                .desired_width(width)
                .min_size(egui::vec2(width, 0.0))
                .clip_text(false);
            if changed_from_base {
                edit = edit.text_color(Color32::from_rgb(200, 120, 0));
            }
            let r = ui.add(edit).accessible_name(name);
            if r.changed() {
                out.push(Command::SetField(path.to_vec(), text.clone()));
            }
            if let Some(e) = bench.field_errors.get(path) {
                // Only a mark beside the field (a long message here would widen the
                // page); the message itself is shown whole, wrapped, above the tab's fields
                // ([`Self::field_errors_ui`]) and on hover.
                let size = egui::vec2(MARK_WIDTH, ui.spacing().interact_size.y);
                ui.add_sized(
                    size,
                    egui::Label::new(RichText::new("⚠").color(Color32::RED)),
                )
                .on_hover_text(e.as_str());
            } else {
                // The mark's room is kept when there is none, so the fields to its right
                // do not move while a value is typed.
                ui.add_space(MARK_WIDTH);
            }
        });
    }

    /// The ruleset edits that do not load, each message whole and wrapped to the width
    /// of the page.
    ///
    /// The messages have a room of fixed height above the fields, there with or without
    /// a message (a long one scrolls inside it): a message that comes and goes as a value
    /// is typed never moves the fields under the pointer.
    pub(super) fn field_errors_ui(&self, ui: &mut egui::Ui) {
        let Some(bench) = &self.rt.bench else {
            return;
        };
        let line = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
        let height = line * ERROR_LINES;
        ui.allocate_ui_with_layout(
            egui::vec2(ui.available_width(), height),
            egui::Layout::top_down(egui::Align::Min),
            |ui| {
                ui.set_min_size(egui::vec2(ui.available_width(), height));
                egui::ScrollArea::vertical()
                    .id_salt("edit messages")
                    .max_height(height)
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        if bench.field_errors.is_empty() {
                            ui.weak(
                                "Every edit is checked as you type; a value that does not \
                                 load is marked ⚠ and explained here.",
                            );
                            return;
                        }
                        for e in bench.field_errors.values() {
                            ui.add(
                                egui::Label::new(
                                    RichText::new(format!("⚠ {e}")).color(Color32::RED),
                                )
                                .wrap(),
                            );
                        }
                        let more: Vec<&String> = bench
                            .problems
                            .iter()
                            .skip(1)
                            .filter(|p| !bench.field_errors.values().any(|e| e == *p))
                            .collect();
                        for p in more {
                            ui.add(egui::Label::new(RichText::new(p).color(Color32::RED)).wrap());
                        }
                        ui.label("The last good ruleset stays in force until the edit loads.");
                    });
            },
        );
        ui.separator();
    }
}

/// The room kept beside a ruleset field for its ⚠ mark.
const MARK_WIDTH: f32 = 16.0;

/// How many lines of text the edit messages' room above the fields holds.
const ERROR_LINES: f32 = 4.0;

/// The width of a bar's choice box (a side's player, the view): fixed, so a longer choice
/// does not push what follows it.
pub(super) const COMBO_WIDTH: f32 = 100.0;

/// A label in a slot of fixed width: the text elided to fit (whole on hover), so what
/// follows it on its row stays in place whatever the text says.
pub(super) fn slot_label(
    ui: &mut egui::Ui,
    text: impl Into<egui::WidgetText>,
    width: f32,
) -> egui::Response {
    let height = ui.spacing().interact_size.y;
    ui.allocate_ui_with_layout(
        egui::vec2(width, height),
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.set_min_size(egui::vec2(width, height));
            ui.add(egui::Label::new(text).truncate())
        },
    )
    .inner
}
