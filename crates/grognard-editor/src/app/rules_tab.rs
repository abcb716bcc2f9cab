//! The Rules tab: optional rules, movement allowances, terrain costs and stacking limits,
//! edited in place with live validation.

use egui::RichText;

use crate::house::{Workbench, field};
use crate::words::spaced;

use super::{Command, EditorApp};

impl EditorApp {
    /// The tab: the ruleset's name and title over its parts, each a function below.
    pub(super) fn rules_tab(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(bench) = &self.rt.bench else {
            ui.label("No ruleset open.");
            return;
        };
        let spec = &bench.current.spec;
        self.field_errors_ui(ui);
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading(format!(
                "{} — {}",
                bench.current.rules.identity.name,
                spec.title.clone().unwrap_or_default()
            ));
            self.options_ui(ui, bench, out);
            ui.separator();
            self.allowances_ui(ui, bench, out);
            ui.separator();
            self.terrain_costs_ui(ui, bench, out);
            ui.separator();
            self.stacking_ui(ui, bench, out);
            ui.separator();
            self.steps_ui(ui, bench, out);
        });
    }

    /// The optional rules, each a checkbox with its description.
    fn options_ui(&self, ui: &mut egui::Ui, bench: &Workbench, out: &mut Vec<Command>) {
        let spec = &bench.current.spec;
        egui::CollapsingHeader::new("Optional rules")
            .default_open(true)
            .show(ui, |ui| {
                if spec.options.is_empty() {
                    ui.label("This ruleset has no optional rules.");
                }
                for o in spec.options.iter() {
                    let path = field(&["options", &o.name.value, "default"]);
                    let mut on = bench
                        .value(&path)
                        .and_then(serde_json::Value::as_bool)
                        .unwrap_or(o.value.default);
                    // The name spaced, and the designer's citations (`(l.475)`, an
                    // audit's name) apart from what the player reads, muted.
                    let name = crate::words::spaced(&o.name.value);
                    let (said, note) = o
                        .value
                        .description
                        .as_deref()
                        .map_or((String::new(), None), crate::words::description_for_player);
                    let text = if said.is_empty() {
                        name
                    } else {
                        format!("{name} — {said}")
                    };
                    if ui.checkbox(&mut on, text).changed() {
                        out.push(Command::SetField(path, on.to_string()));
                    }
                    if let Some(note) = note {
                        ui.indent(("designer's note", &o.name.value), |ui| {
                            ui.label(
                                RichText::new(format!("designer's note: {note}"))
                                    .weak()
                                    .small(),
                            );
                        });
                    }
                }
            });
    }

    /// Each piece type's movement allowance in each mode, a table to edit.
    fn allowances_ui(&self, ui: &mut egui::Ui, bench: &Workbench, out: &mut Vec<Command>) {
        let spec = &bench.current.spec;
        ui.label(RichText::new("Movement allowances (per mode)").strong());
        let modes: Vec<String> = spec.modes.names().map(str::to_owned).collect();
        let types: Vec<String> = spec.piece_types.names().map(str::to_owned).collect();
        egui_extras::TableBuilder::new(ui)
            .id_salt("allowances")
            .striped(true)
            .vscroll(false)
            .column(egui_extras::Column::auto().at_least(110.0))
            .columns(egui_extras::Column::auto().at_least(90.0), modes.len())
            .header(20.0, |mut h| {
                h.col(|ui| {
                    ui.label("piece type");
                });
                for m in &modes {
                    h.col(|ui| {
                        ui.label(spaced(m));
                    });
                }
            })
            .body(|mut body| {
                for t in &types {
                    body.row(24.0, |mut row| {
                        row.col(|ui| {
                            ui.label(spaced(t));
                        });
                        for m in &modes {
                            row.col(|ui| {
                                self.field_ui(
                                    ui,
                                    &field(&["piece_types", t, "allowance", m]),
                                    &format!("{t} allowance {m}"),
                                    out,
                                );
                            });
                        }
                    });
                }
            });
    }

    /// What each movement class pays to enter each terrain, a table to edit.
    fn terrain_costs_ui(&self, ui: &mut egui::Ui, bench: &Workbench, out: &mut Vec<Command>) {
        let spec = &bench.current.spec;
        ui.label(RichText::new("Terrain costs (extra to enter; blank = the step's cost)").strong());
        let terrain: Vec<String> = spec.terrain.names().map(str::to_owned).collect();
        let classes: Vec<String> = spec.movement.names().map(str::to_owned).collect();
        egui_extras::TableBuilder::new(ui)
            .id_salt("terrain costs")
            .striped(true)
            .vscroll(false)
            .column(egui_extras::Column::auto().at_least(110.0))
            .columns(egui_extras::Column::auto().at_least(90.0), terrain.len())
            .header(20.0, |mut h| {
                h.col(|ui| {
                    ui.label("movement class");
                });
                for t in &terrain {
                    h.col(|ui| {
                        ui.label(spaced(t));
                    });
                }
            })
            .body(|mut body| {
                for c in &classes {
                    body.row(24.0, |mut row| {
                        row.col(|ui| {
                            ui.label(spaced(c));
                        });
                        for t in &terrain {
                            row.col(|ui| {
                                self.field_ui(
                                    ui,
                                    &field(&["movement", c, "enter", t]),
                                    &format!("{c} enter {t}"),
                                    out,
                                );
                            });
                        }
                    });
                }
            });
    }

    /// Each stacking limit's capacity and what each piece type counts toward it.
    fn stacking_ui(&self, ui: &mut egui::Ui, bench: &Workbench, out: &mut Vec<Command>) {
        let spec = &bench.current.spec;
        let types: Vec<String> = spec.piece_types.names().map(str::to_owned).collect();
        ui.label(RichText::new("Stacking limits").strong());
        // An empty heading read as a part that failed to show (village-skirmish).
        if spec.stacking.names().next().is_none() {
            ui.label("none: this ruleset sets no stacking limit");
            return;
        }
        egui::Grid::new("stacking").striped(true).show(ui, |ui| {
            for s in spec.stacking.names() {
                ui.label(format!("{} capacity", spaced(s)));
                self.field_ui(
                    ui,
                    &field(&["stacking", s, "capacity"]),
                    &format!("{s} capacity"),
                    out,
                );
                ui.end_row();
                for t in &types {
                    ui.label(format!("  {} counts", spaced(t)));
                    self.field_ui(
                        ui,
                        &field(&["piece_types", t, "stack", s]),
                        &format!("{t} stack {s}"),
                        out,
                    );
                    ui.end_row();
                }
            }
        });
    }

    /// The board's step costs the ruleset sets (orthogonal, diagonal, step).
    fn steps_ui(&self, ui: &mut egui::Ui, bench: &Workbench, out: &mut Vec<Command>) {
        const KEYS: [&str; 3] = ["orthogonal", "diagonal", "step"];
        ui.label(RichText::new("Board steps").strong());
        let set = |key: &str| {
            bench
                .value(&field(&["geometry", key]))
                .is_some_and(|v| !v.is_null())
        };
        if !KEYS.iter().any(|k| set(k)) {
            ui.label("none: this ruleset sets no step costs of its own");
            return;
        }
        egui::Grid::new("geometry").show(ui, |ui| {
            for key in KEYS {
                if set(key) {
                    ui.label(key);
                    self.field_ui(
                        ui,
                        &field(&["geometry", key]),
                        &format!("geometry {key}"),
                        out,
                    );
                    ui.end_row();
                }
            }
        });
    }
}
