//! Opening another scenario over unsaved ruleset edits (issue 37, the ninth outside
//! player's F12: the Scenario menu threw chart and rules edits away without a word). Under
//! the same ruleset the edits are kept and stay in force; under another the player is asked
//! first — save them as a house rule, discard them, or cancel — as an editor does for any
//! unsaved work. Also the ruleset a scenario that does not load names, opened so that its
//! mistakes are told under it (the eleventh player's F11).

use std::path::Path;

use egui::RichText;
use grognard_rules::de::Located;
use grognard_rules::diag::Location;
use grognard_rules::load::{self, Ruleset};

use super::{Command, EditorApp, FilePurpose, SwitchChoice};

/// What opening a scenario does to the edits of the ruleset in force.
pub(super) enum OverEdits {
    /// No edits, or the scenario uses the ruleset they are made to: go on.
    Proceed {
        /// True when the edited ruleset stays in force (the same ruleset).
        keep: bool,
    },
    /// Another ruleset over unsaved edits: asked first; the opening waits.
    Asked,
}

impl EditorApp {
    /// The ruleset a scenario that does not load names on its `ruleset:` line, loaded,
    /// when that line can be read and the ruleset loads (the scenario's own mistakes are
    /// then told under it).
    pub(super) fn named_ruleset(&self, path: &Path, text: &str) -> Option<Ruleset> {
        let (i, line) = (text.lines().enumerate()).find(|(_, l)| l.starts_with("ruleset:"))?;
        let value = line["ruleset:".len()..].split(" #").next()?.trim();
        let value = value.trim_matches(['"', '\'']);
        if value.is_empty() {
            return None;
        }
        let at = Location::new(
            path.display().to_string(),
            u32::try_from(i + 1).ok()?,
            u32::try_from(line.len() - value.len()).ok()?,
        );
        let found = load::resolve_ruleset(path, &Located::new(value.to_owned(), at)).ok()?;
        let mut r = Self::load_checked(&self.tidy(&found)).ok()?;
        r.path = self.tidy(&r.path);
        Some(r)
    }

    /// Whether the scenario at `path`, whose own ruleset is `own`, may open now, and
    /// whether the ruleset in force (with its edits) stays.
    pub(super) fn over_edits(&mut self, path: &Path, own: &Ruleset) -> OverEdits {
        let Some(bench) = &self.rt.bench else {
            return OverEdits::Proceed { keep: false };
        };
        if !bench.is_modified() || bench.is_saved() {
            return OverEdits::Proceed { keep: false };
        }
        if bench.base.rules.identity.hash == own.rules.identity.hash {
            return OverEdits::Proceed { keep: true };
        }
        self.rt.pending_scenario = Some(path.to_path_buf());
        self.say(format!(
            "{} uses ruleset {}: your edits of {} are not saved — save them, discard them \
             or cancel",
            self.shown(path),
            own.rules.identity.name,
            bench.base.rules.identity.name
        ));
        OverEdits::Asked
    }

    /// The answer to the question [`Self::over_edits`] asked.
    pub(super) fn switch_choice(&mut self, choice: SwitchChoice) {
        match choice {
            SwitchChoice::Cancel => {
                self.rt.pending_scenario = None;
                self.say("kept the scenario in play and your unsaved edits");
            }
            SwitchChoice::Discard => {
                if let Some(b) = &mut self.rt.bench {
                    b.revert();
                }
                if let Some(p) = self.rt.pending_scenario.take() {
                    self.open_scenario(&p, false);
                }
            }
            // Still pending: a saved house rule opens it (`saved_then_switch`).
            SwitchChoice::Save => self.ask(FilePurpose::SaveHouseRule),
        }
    }

    /// After a house rule was saved: the scenario that waited for it opens (the edits are
    /// in the saved file now).
    pub(super) fn saved_then_switch(&mut self) {
        if let Some(p) = self.rt.pending_scenario.take() {
            if let Some(b) = &mut self.rt.bench {
                b.revert();
            }
            let saved = self.rt.status.as_ref().map(|s| s.text.clone());
            self.open_scenario(&p, false);
            if let Some(saved) = saved {
                let now = self
                    .rt
                    .status
                    .as_ref()
                    .map(|s| s.text.clone())
                    .unwrap_or_default();
                self.say(format!("{saved}; {now}"));
            }
        }
    }

    /// The question, while a scenario waits for it (not while a path is being typed).
    pub(super) fn switch_question(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let (Some(p), None, Some(bench)) =
            (&self.rt.pending_scenario, &self.rt.prompt, &self.rt.bench)
        else {
            return;
        };
        let shown = self.shown(p);
        egui::Modal::new(egui::Id::unique("unsaved edits")).show(ui.ctx(), |ui| {
            ui.label(RichText::new("Unsaved edits").strong());
            ui.label(format!(
                "{} uses another ruleset. Your edits of {} are not saved: opening it \
                 without saving loses them.",
                shown, bench.base.rules.identity.name
            ));
            ui.horizontal(|ui| {
                if ui.button("Save as house rule…").clicked() {
                    out.push(Command::SwitchScenario(SwitchChoice::Save));
                }
                if ui.button("Discard the edits").clicked() {
                    out.push(Command::SwitchScenario(SwitchChoice::Discard));
                }
                if ui.button("Cancel").clicked() {
                    out.push(Command::SwitchScenario(SwitchChoice::Cancel));
                }
            });
        });
    }
}
