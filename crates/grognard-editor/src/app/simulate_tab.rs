//! The Simulate tab: whole games of the open scenario played by a policy on every side, in
//! the background, for the ruleset in force beside its base — a progress bar, then each
//! side's win rate with its 95% interval and the distribution of game length, plotted.

use egui::{Color32, RichText};
use grognard_play::PolicyKind;
use grognard_rules::load;

use crate::simulate::{SimJob, SimResult};

use super::{Command, EditorApp};

/// Colours of the ruleset in force and of its base in the plots.
const IN_FORCE: Color32 = Color32::from_rgb(220, 140, 0);
const BASE: Color32 = Color32::GRAY;

impl EditorApp {
    pub(super) fn simulate_tab(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        ui.heading("Simulate whole games");
        if self.rt.scenario_path.is_none() || self.rt.bench.is_none() {
            ui.label("Open a scenario first (the Scenario menu lists examples/).");
            return;
        }
        ui.label(
            "Every side is played by the policy; game i uses seed i after the scenario's, \
             under the ruleset in force and under its base.",
        );
        let running = self.rt.sim.as_ref().is_some_and(|j| !j.finished());
        ui.horizontal(|ui| {
            ui.label("policy:");
            for (kind, label) in [
                (PolicyKind::Random, "random"),
                (PolicyKind::Greedy, "greedy"),
            ] {
                if ui
                    .selectable_label(self.rt.sim_policy == kind, label)
                    .clicked()
                {
                    self.rt.sim_policy = kind;
                }
            }
            let games = ui.label("games:");
            ui.add(egui::DragValue::new(&mut self.rt.sim_runs).range(1..=10_000))
                .labelled_by(games.id);
            if running {
                if ui.button("Stop").clicked() {
                    out.push(Command::StopSimulation);
                }
            } else if ui.button("Run").clicked() {
                out.push(Command::Simulate {
                    policy: self.rt.sim_policy.clone(),
                    runs: self.rt.sim_runs,
                });
            }
        });
        if let Some(job) = &self.rt.sim {
            let (done, total) = job.progress();
            let fraction = if total == 0 {
                0.0
            } else {
                done as f32 / total as f32
            };
            ui.add(
                egui::ProgressBar::new(fraction)
                    .text(format!("{done} of {total} games"))
                    .show_percentage(),
            );
        }
        match &self.rt.sim_results {
            None => {}
            Some(Err(e)) => {
                ui.colored_label(Color32::RED, e);
            }
            Some(Ok(results)) => results_ui(ui, results),
        }
    }

    /// Starts a simulation of the open scenario under the ruleset in force and its base.
    pub(super) fn start_simulation(&mut self, policy: &PolicyKind, runs: u32) {
        let (Some(path), Some(bench)) = (&self.rt.scenario_path, &self.rt.bench) else {
            return self.fail("open a scenario to simulate");
        };
        let name = load::display(path);
        let mut rulesets = vec![bench.current.clone()];
        if bench.base.rules.identity != bench.current.rules.identity {
            rulesets.push(bench.base.clone());
        }
        let mut scenarios = Vec::new();
        for r in &rulesets {
            match load::scenario_from_text(&name, &self.rt.scenario_text, r) {
                Ok(s) => scenarios.push(s),
                Err(d) => {
                    return self.fail(format!(
                        "{name} does not start under {}: {d}",
                        r.rules.identity.name
                    ));
                }
            }
        }
        let seed = scenarios.first().map_or(0, |s| s.compiled.setup.seed);
        self.rt.sim_results = None;
        self.rt.sim = Some(SimJob::start(scenarios, policy, runs, seed));
        self.say(format!(
            "simulating {runs} games of {name} ({})",
            policy.name()
        ));
    }

    /// Takes the results of a finished simulation; keeps the frames coming while it runs.
    pub(super) fn poll_simulation(&mut self, ctx: &egui::Context) {
        let Some(job) = &self.rt.sim else {
            return;
        };
        match job.results() {
            None => ctx.request_repaint_after(std::time::Duration::from_millis(100)),
            Some(r) => {
                let (done, _) = job.progress();
                match &r {
                    Ok(_) => self.say(format!("simulation done: {done} games")),
                    Err(e) => self.fail(format!("simulation failed: {e}")),
                }
                self.rt.sim_results = Some(r);
                ctx.request_repaint();
            }
        }
    }

    /// The last simulation's results (tests).
    #[must_use]
    pub fn simulation_results(&self) -> Option<&Result<Vec<SimResult>, String>> {
        self.rt.sim_results.as_ref()
    }

    /// True while a simulation runs.
    #[must_use]
    pub fn simulating(&self) -> bool {
        self.rt.sim.as_ref().is_some_and(|j| !j.finished())
    }
}

fn results_ui(ui: &mut egui::Ui, results: &[SimResult]) {
    let Some(first) = results.first() else {
        return;
    };
    egui::Grid::new("sim results").striped(true).show(ui, |ui| {
        ui.label(RichText::new("ruleset").strong());
        for s in &first.sides {
            ui.label(RichText::new(format!("{s} wins")).strong());
        }
        ui.label(RichText::new("draws").strong());
        ui.label(RichText::new("no result").strong());
        ui.label(RichText::new("mean turns").strong());
        ui.end_row();
        for r in results {
            ui.label(&r.label);
            for i in 0..r.sides.len() {
                let (c, h) = r.win_rate(i);
                ui.label(format!("{:.1}% ± {:.1}", c * 100.0, h * 100.0));
            }
            let (c, h) = r.draw_rate();
            ui.label(format!("{:.1}% ± {:.1}", c * 100.0, h * 100.0));
            ui.label(r.unfinished.to_string());
            let mean = if r.lengths.is_empty() {
                0.0
            } else {
                r.lengths.iter().map(|l| f64::from(*l)).sum::<f64>() / r.lengths.len() as f64
            };
            ui.label(format!("{mean:.2}"));
            ui.end_row();
        }
    });
    let colors = [IN_FORCE, BASE];
    let width = 0.8 / results.len() as f64;
    let mut labels: Vec<String> = first.sides.iter().map(|s| format!("{s} wins")).collect();
    labels.push("draw".to_owned());
    ui.label(RichText::new("Win rates (95% intervals)").strong());
    super::fixed_plot("sim win rates", 200.0)
        .include_y(100.0)
        .x_axis_formatter(super::index_axis(labels))
        .show(ui, |plot| {
            for (k, r) in results.iter().enumerate() {
                let offset = (k as f64 - (results.len() as f64 - 1.0) / 2.0) * width;
                let rates: Vec<(f64, f64)> = (0..r.sides.len())
                    .map(|i| r.win_rate(i))
                    .chain(std::iter::once(r.draw_rate()))
                    .collect();
                let bars = rates
                    .iter()
                    .enumerate()
                    .map(|(i, (c, _))| {
                        egui_plot::Bar::new(i as f64 + offset, c * 100.0).width(width * 0.9)
                    })
                    .collect();
                let color = colors[k.min(1)];
                plot.bar_chart(egui_plot::BarChart::new(r.label.clone(), bars).color(color));
                for (i, (c, h)) in rates.iter().enumerate() {
                    let x = i as f64 + offset;
                    plot.line(
                        egui_plot::Line::new(
                            format!("{} interval", r.label),
                            vec![[x, (c - h) * 100.0], [x, (c + h) * 100.0]],
                        )
                        .color(Color32::BLACK),
                    );
                }
            }
        });
    ui.label(RichText::new("Game length (turns)").strong());
    super::fixed_plot("sim lengths", 180.0).show(ui, |plot| {
        for (k, r) in results.iter().enumerate() {
            let offset = (k as f64 - (results.len() as f64 - 1.0) / 2.0) * width;
            let bars = r
                .length_histogram()
                .into_iter()
                .map(|(turns, games)| {
                    egui_plot::Bar::new(f64::from(turns) + offset, f64::from(games))
                        .width(width * 0.9)
                })
                .collect();
            plot.bar_chart(egui_plot::BarChart::new(r.label.clone(), bars).color(colors[k.min(1)]));
        }
    });
}
