//! The Simulate tab: whole games of the open scenario played by a policy on every side, in
//! the background, for the ruleset in force beside its base — a progress bar (games done,
//! time left), then each side's observed win rate and the draw rate with their 95%
//! intervals (the numbers `grognard sim` prints, from the same tally) and a histogram of
//! game length.

use egui::{Color32, RichText};
use grognard_play::PolicyKind;
use grognard_play::search::Budget;
use grognard_rules::load;

use crate::simulate::Share;

use crate::simulate::{SimJob, SimResult};

use super::{Command, EditorApp};

/// The Simulate tab's state.
pub(super) struct SimulateUi {
    /// The run, while it lasts.
    pub(super) job: Option<SimJob>,
    /// The last run's results.
    pub(super) results: Option<Result<Vec<SimResult>, String>>,
    pub(super) policy: PolicyKind,
    /// Games per ruleset.
    pub(super) runs: u32,
    /// Iterations per order when the policy is `search` (a fixed count, so a run plays
    /// the same games again; a time budget would depend on the machine's load).
    pub(super) search_iterations: u32,
    /// How long a search game takes, measured once search is chosen (before Run).
    pub(super) estimate: Option<crate::simulate::SearchEstimate>,
}

/// The search's iterations per order in a simulation unless the player sets another.
pub const SIM_SEARCH_ITERATIONS: u32 = 200;

/// The most games a ruleset the tab plays in one run.
const MAX_RUNS: u32 = 10_000;

impl Default for SimulateUi {
    fn default() -> Self {
        Self {
            job: None,
            results: None,
            policy: PolicyKind::Random,
            runs: 100,
            search_iterations: SIM_SEARCH_ITERATIONS,
            estimate: None,
        }
    }
}

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
        let running = self.rt.simulate.job.as_ref().is_some_and(|j| !j.finished());
        ui.horizontal(|ui| {
            ui.label("policy:");
            let search = |n: u32| PolicyKind::Search(Budget::Iterations(n.max(1)));
            let searching = matches!(self.rt.simulate.policy, PolicyKind::Search(_));
            for (kind, label) in [
                (PolicyKind::Random, "random"),
                (PolicyKind::Greedy, "greedy"),
                (search(self.rt.simulate.search_iterations), "search"),
            ] {
                let chosen = match kind {
                    PolicyKind::Search(_) => searching,
                    _ => self.rt.simulate.policy == kind,
                };
                let mut r = ui.selectable_label(chosen, label);
                if label == "search" {
                    r = r.on_hover_text(
                        "Imagines games ahead before each order, as the Play tab's search opponent \
                         does: far stronger, and slow (a whole game can take seconds to \
                         minutes).",
                    );
                }
                if r.clicked() {
                    self.rt.simulate.policy = kind;
                }
            }
            if searching {
                let it = ui.label("search iterations per order:");
                if ui
                    .add(
                        egui::DragValue::new(&mut self.rt.simulate.search_iterations)
                            .range(1..=100_000),
                    )
                    .labelled_by(it.id)
                    .changed()
                {
                    self.rt.simulate.policy = search(self.rt.simulate.search_iterations);
                }
            }
            let games = ui.label("games:");
            // 0 may be typed (it is not turned into 1 behind the player's back); Run then
            // waits, and the row says the least it takes.
            ui.add(egui::DragValue::new(&mut self.rt.simulate.runs).range(0..=MAX_RUNS))
                .labelled_by(games.id);
            let runs_ok = self.rt.simulate.runs >= 1;
            if !runs_ok {
                ui.colored_label(
                    Color32::from_rgb(200, 120, 0),
                    format!("at least 1 game (at most {MAX_RUNS})"),
                );
            }
            if running {
                let stopping = self.rt.simulate.job.as_ref().is_some_and(SimJob::stopping);
                if ui
                    .add_enabled(!stopping, egui::Button::new("Stop"))
                    .clicked()
                {
                    out.push(Command::StopSimulation);
                }
            } else if ui
                .add_enabled(runs_ok, egui::Button::new("Run"))
                .on_disabled_hover_text("Set games to 1 or more.")
                .clicked()
            {
                out.push(Command::Simulate {
                    policy: self.rt.simulate.policy.clone(),
                    runs: self.rt.simulate.runs,
                });
            }
        });
        if !running && matches!(self.rt.simulate.policy, PolicyKind::Search(_)) {
            self.search_warning(ui);
        }
        if let Some(job) = &self.rt.simulate.job {
            let (done, total) = job.progress();
            let fraction = if total == 0 {
                0.0
            } else {
                done as f32 / total as f32
            };
            ui.add(egui::ProgressBar::new(fraction).text(job.progress_text()));
        }
        match &self.rt.simulate.results {
            None => {}
            Some(Err(e)) => {
                ui.colored_label(Color32::RED, e);
            }
            // Down the page, the results scroll: at 800 × 600 the game-length histogram
            // was cut at its foot, its axis out of reach (twelfth player, finding 7).
            Some(Ok(results)) => {
                egui::ScrollArea::vertical()
                    .id_salt("sim results")
                    .show(ui, |ui| results_ui(ui, results));
            }
        }
    }

    /// Before a search run: that it is slow, and about how slow here, from a short sample
    /// measured in the background ([`crate::simulate::SearchEstimate`]).
    fn search_warning(&mut self, ui: &mut egui::Ui) {
        let iterations = self.rt.simulate.search_iterations.max(1);
        let stale = self
            .rt
            .simulate
            .estimate
            .as_ref()
            .is_none_or(|e| e.iterations != iterations);
        if stale {
            self.rt.simulate.estimate = None;
            let (Some(path), Some(bench)) = (&self.rt.scenario_path, &self.rt.bench) else {
                return;
            };
            let name = load::display(path);
            if let Ok(s) = load::scenario_from_text(&name, &self.rt.scenario_text, &bench.current) {
                let seed = s.compiled.setup.seed;
                self.rt.simulate.estimate =
                    Some(crate::simulate::SearchEstimate::start(s, iterations, seed));
            }
        }
        let rulesets = self.rt.bench.as_ref().map_or(1, |b| {
            1 + u32::from(b.base.rules.identity != b.current.rules.identity)
        });
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let games = f64::from(self.rt.simulate.runs) * f64::from(rulesets);
        let parallel = (cores as f64).min(games).max(1.0);
        let warn = Color32::from_rgb(200, 120, 0);
        match self.rt.simulate.estimate.as_mut().map(|e| e.seconds()) {
            Some(Some(Ok(a_game))) => {
                ui.colored_label(
                    warn,
                    format!(
                        "search is slow: about {} a game here at {iterations} iterations an \
                         order, so about {} for {}, {} (measured on a short sample; other \
                         work on the machine makes it slower).",
                        crate::words::seconds_text(*a_game),
                        crate::words::seconds_text(a_game * games / parallel),
                        crate::words::count(games as i64, "game"),
                        // The total is a game's time × games ÷ the games played at once:
                        // say how many, or "6 games" at 79 min cannot make 237 min.
                        if parallel > 1.0 {
                            format!("{parallel:.0} at a time on {parallel:.0} threads")
                        } else {
                            "one at a time on 1 thread".to_owned()
                        },
                    ),
                );
            }
            Some(Some(Err(e))) => {
                ui.colored_label(warn, format!("search is slow (no estimate: {e})"));
            }
            _ => {
                ui.colored_label(warn, "search is slow: measuring how slow here…");
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(100));
            }
        }
    }

    /// Starts a simulation of the open scenario under the ruleset in force and its base.
    pub(super) fn start_simulation(&mut self, policy: &PolicyKind, runs: u32) {
        if runs == 0 {
            return self.fail(format!("simulate at least 1 game (at most {MAX_RUNS})"));
        }
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
        self.rt.simulate.results = None;
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        // The cores are shared between the rulesets; one thread each at least.
        let threads = (cores / scenarios.len().max(1)).max(1);
        let count = scenarios.len();
        self.rt.simulate.job = Some(SimJob::start(scenarios, policy, runs, seed, threads));
        let games = crate::words::count(i64::from(runs), "game");
        let games = if count > 1 {
            format!("{games} × {count} rulesets (in force and base)")
        } else {
            games
        };
        self.say(format!("simulating {games} of {name} ({})", policy.name()));
    }

    /// Takes the results of a finished simulation (and drops the job, so an idle editor
    /// asks for no more frames); keeps the frames coming while it runs.
    pub(super) fn poll_simulation(&mut self, ctx: &egui::Context) {
        let Some(job) = &self.rt.simulate.job else {
            return;
        };
        let Some(r) = job.results() else {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
            return;
        };
        let (done, _) = job.progress();
        let stopped = job.stopping();
        self.rt.simulate.job = None;
        match &r {
            Ok(_) if stopped => self.say(format!(
                "simulation stopped after {}",
                crate::words::count(i64::from(done), "game")
            )),
            Ok(_) => self.say(format!(
                "simulation done: {}",
                crate::words::count(i64::from(done), "game")
            )),
            Err(e) => self.fail(format!("simulation failed: {e}")),
        }
        self.rt.simulate.results = Some(r);
        ctx.request_repaint();
    }

    /// The last simulation's results (tests).
    #[must_use]
    pub fn simulation_results(&self) -> Option<&Result<Vec<SimResult>, String>> {
        self.rt.simulate.results.as_ref()
    }

    /// Shows `results` as a finished run's (tests: a run stopped with unequal counts,
    /// without racing the threads that play it).
    pub fn set_simulation_results(&mut self, results: Vec<SimResult>) {
        self.rt.simulate.job = None;
        self.rt.simulate.results = Some(Ok(results));
    }

    /// True while a simulation runs.
    #[must_use]
    pub fn simulating(&self) -> bool {
        self.rt.simulate.job.as_ref().is_some_and(|j| !j.finished())
    }
}

/// The interval whiskers' colours in a theme: a core line over a wider halo of the
/// opposite lightness, so a whisker shows on the orange and the grey bars and on the
/// plot's background alike, in the dark theme and the light (a dark whisker alone was
/// lost on the grey bars and on a dark background).
#[must_use]
pub fn whisker_colors(dark_mode: bool) -> (Color32, Color32) {
    if dark_mode {
        (Color32::WHITE, Color32::from_gray(10))
    } else {
        (Color32::from_gray(10), Color32::WHITE)
    }
}

/// What each series of the plots is, in words, with how many games it holds: `in force:
/// black-powder-house (37 games)`, `base: black-powder (40 games)`.
#[must_use]
pub fn series_names(results: &[SimResult]) -> Vec<String> {
    results
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let role = if k == 0 { "in force" } else { "base" };
            format!(
                "{role}: {} ({})",
                r.label,
                crate::words::count(r.games() as i64, "game")
            )
        })
        .collect()
}

/// When the rulesets compared played different numbers of games (a run stopped early),
/// says so plainly, with each count; `None` when the counts agree.
#[must_use]
pub fn unequal_note(results: &[SimResult]) -> Option<String> {
    let first = results.first()?.games();
    if results.iter().all(|r| r.games() == first) {
        return None;
    }
    let counts: Vec<String> = results
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r.label,
                crate::words::count(r.games() as i64, "game")
            )
        })
        .collect();
    Some(format!(
        "Stopped early, the rulesets played different numbers of games: {}. Each rate is \
         over its own games (seeds from the scenario's on), so the two are not compared on \
         the same dice; run again to compare equal counts.",
        counts.join(", ")
    ))
}

/// The plots' legend, as a row above them (a legend inside a plot covers its bars): a
/// swatch of each series' colour and what it is.
fn legend_row(ui: &mut egui::Ui, results: &[SimResult]) {
    ui.horizontal_wrapped(|ui| {
        for (k, name) in series_names(results).into_iter().enumerate() {
            let (r, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            ui.painter().rect_filled(r, 2.0, COLORS[k.min(1)]);
            ui.label(name);
            ui.add_space(12.0);
        }
    });
}

/// The colours of the series: the ruleset in force, then its base.
const COLORS: [Color32; 2] = [IN_FORCE, BASE];

/// The "ended on turn" cell: the mean ± its interval; one game's turn alone (one game
/// gives no interval: it read "6.00 ± 0.00"); "—" with no game ended.
#[must_use]
pub fn ended_on_turn(length: &grognard_play::tally::Moments) -> String {
    match length.n {
        0 => "—".to_owned(),
        1 => format!("{} (one game: no interval)", length.sum),
        _ => length.estimate().plain(),
    }
}

/// What the "ended on turn" column's ± is.
pub const ENDED_ON_TURN: &str = "Ended on turn: the mean turn the games ended on, ± the \
     half-width of its 95% interval (1.96 standard errors), as grognard sim prints it.";

/// The results table: a row a ruleset, a column a side's wins, draws, games without a
/// result and the turn the games ended on.
fn results_grid(ui: &mut egui::Ui, first: &SimResult, results: &[SimResult]) {
    egui::Grid::new("sim results").striped(true).show(ui, |ui| {
        ui.label(RichText::new("ruleset").strong());
        ui.label(RichText::new("games").strong());
        for s in &first.sides {
            ui.label(RichText::new(format!("{s} wins")).strong());
        }
        ui.label(RichText::new("draws").strong());
        ui.label(RichText::new("no result").strong());
        ui.label(RichText::new("ended on turn").strong())
            .on_hover_text(ENDED_ON_TURN);
        ui.end_row();
        for r in results {
            ui.label(&r.label);
            ui.label(r.games().to_string());
            if r.games() == 0 {
                // No game: no rate, not "0.0% ± 0.0".
                for _ in 0..=r.sides.len() {
                    ui.label("no games played");
                }
            } else {
                for i in 0..r.sides.len() {
                    ui.label(r.win_share(i).words());
                }
                ui.label(r.draw_share().words());
            }
            ui.label(r.tally.unfinished.to_string());
            ui.label(ended_on_turn(&r.tally.length));
            ui.end_row();
        }
    });
}

fn results_ui(ui: &mut egui::Ui, results: &[SimResult]) {
    let Some(first) = results.first() else {
        return;
    };
    ui.label(
        "Win and draw rates are the observed shares of the games with a result (the shares \
         the command grognard sim prints), then their 95% interval (Wilson's: it keeps its \
         width when a side won every game or none, where the command's ± reads 0).",
    );
    if let Some(note) = unequal_note(results) {
        ui.colored_label(Color32::from_rgb(200, 120, 0), note);
    }
    for r in results {
        if let Some(note) = crate::simulate::all_drawn_note(r.tally.draws) {
            // Two rulesets compared: each says which it is.
            let note = if results.len() > 1 {
                format!("{}: {note}", r.label)
            } else {
                note
            };
            ui.colored_label(Color32::from_rgb(200, 120, 0), note);
        }
    }
    // Sideways, the table scrolls: at 800 points its last heading was cut ("ended on
    // turr") with no way to the rest (eleventh player F8).
    egui::ScrollArea::horizontal()
        .id_salt("sim results table")
        .show(ui, |ui| results_grid(ui, first, results));
    ui.label(ENDED_ON_TURN);
    if results.iter().all(|r| r.games() == 0) {
        // Empty plots with a 0–100 axis say nothing a player can use.
        ui.label("No game was played to its end: nothing to plot.");
        return;
    }
    let width = 0.8 / results.len() as f64;
    // Under each group, the side's name as the scenario gives it.
    let mut labels: Vec<String> = first.sides.iter().map(|s| format!("{s} wins")).collect();
    labels.push("draws".to_owned());
    let groups = labels.len();
    let (core, halo) = whisker_colors(ui.visuals().dark_mode);
    ui.label(RichText::new("Win rates, % (whiskers: 95% intervals)").strong());
    legend_row(ui, results);
    super::fixed_plot("sim win rates", 200.0)
        .include_y(100.0)
        .include_x(-0.5)
        .include_x(groups as f64 - 0.5)
        .x_axis_formatter(super::index_axis(labels.clone()))
        .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 1.0, 1.0]))
        .show(ui, |plot| {
            for (k, r) in results.iter().enumerate() {
                let offset = (k as f64 - (results.len() as f64 - 1.0) / 2.0) * width;
                let rates: Vec<Share> = (0..r.sides.len())
                    .map(|i| r.win_share(i))
                    .chain(std::iter::once(r.draw_share()))
                    .filter(|s| s.n > 0)
                    .collect();
                let bars = rates
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let what = labels.get(i).map_or("", String::as_str);
                        egui_plot::Bar::new(i as f64 + offset, e.share * 100.0)
                            .width(width * 0.9)
                            .name(format!("{what}: {}", e.words()))
                    })
                    .collect();
                let color = COLORS[k.min(1)];
                plot.bar_chart(egui_plot::BarChart::new(r.label.clone(), bars).color(color));
                for (i, e) in rates.iter().enumerate() {
                    for points in whisker(i as f64 + offset, width * 0.25, *e) {
                        // Unnamed: a whisker is part of its bar, not a series of its own.
                        for (color, w) in [(halo, 4.5), (core, 2.0)] {
                            plot.line(
                                egui_plot::Line::new("", points.clone())
                                    .color(color)
                                    .width(w)
                                    .allow_hover(false),
                            );
                        }
                    }
                }
            }
        });
    length_plot_ui(ui, results, width);
}

/// The histogram of game length: games by the turn they ended on, each ruleset's bars
/// `width` wide side by side.
fn length_plot_ui(ui: &mut egui::Ui, results: &[SimResult], width: f64) {
    ui.label(RichText::new("Game length: games by the turn they ended on").strong());
    legend_row(ui, results);
    let (lo, hi) = results
        .iter()
        .flat_map(SimResult::length_histogram)
        .fold((u32::MAX, 0), |(lo, hi), (t, _)| (lo.min(t), hi.max(t)));
    let most = results
        .iter()
        .flat_map(SimResult::length_histogram)
        .map(|(_, games)| games)
        .max()
        .unwrap_or(0);
    let step = count_step(most);
    let mut plot = super::fixed_plot("sim lengths", 180.0)
        .x_axis_label("turn")
        .y_axis_label("games")
        // Whole turns and whole games only: a mark between two is left blank.
        .x_axis_formatter(whole_numbers)
        .y_axis_formatter(whole_numbers)
        .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
        // Counts are marked at whole steps, and the top mark stands inside the plot with
        // room over the tallest bar (its label was cut at the top edge).
        .y_grid_spacer(egui_plot::uniform_grid_spacer(move |_| {
            [step, step * 5.0, step * 10.0]
        }))
        .include_y(0.0)
        .include_y(count_top(most));
    if lo <= hi {
        plot = plot
            .include_x(f64::from(lo) - 0.5)
            .include_x(f64::from(hi) + 0.5);
    }
    plot.show(ui, |plot| {
        for (k, r) in results.iter().enumerate() {
            let offset = (k as f64 - (results.len() as f64 - 1.0) / 2.0) * width;
            let bars = r
                .length_histogram()
                .into_iter()
                .map(|(turns, games)| {
                    egui_plot::Bar::new(f64::from(turns) + offset, games as f64)
                        .width(width)
                        .name(format!(
                            "turn {turns}: {}",
                            crate::words::count(games as i64, "game")
                        ))
                })
                .collect();
            plot.bar_chart(egui_plot::BarChart::new(r.label.clone(), bars).color(COLORS[k.min(1)]));
        }
    });
}

/// A vertical whisker from the interval's low end to its high end (in %), with a cap at
/// each end; nothing when the interval has no width.
pub(super) fn whisker(x: f64, cap: f64, e: Share) -> Vec<Vec<[f64; 2]>> {
    span(x, cap, e.lo * 100.0, e.hi * 100.0)
}

fn span(x: f64, cap: f64, lo: f64, hi: f64) -> Vec<Vec<[f64; 2]>> {
    if hi <= lo {
        return Vec::new();
    }
    vec![
        vec![[x, lo], [x, hi]],
        vec![[x - cap, lo], [x + cap, lo]],
        vec![[x - cap, hi], [x + cap, hi]],
    ]
}

/// An axis mark as a whole number; blank between whole numbers.
/// The step between the count marks of the game-length plot when its tallest bar holds
/// `most` games: a whole 1, 2 or 5 × 10ⁿ, giving three to ten marks.
#[must_use]
pub fn count_step(most: u64) -> f64 {
    let mut step = 1.0;
    loop {
        for m in [1.0, 2.0, 5.0] {
            if most as f64 / (step * m) <= 5.0 {
                return step * m;
            }
        }
        step *= 10.0;
    }
}

/// Where the game-length plot's count axis ends for a tallest bar of `most` games: the
/// first mark above it, so the bar never touches the top and that mark's label shows.
#[must_use]
pub fn count_top(most: u64) -> f64 {
    let step = count_step(most);
    ((most as f64 / step).floor() + 1.0) * step
}

fn whole_numbers(mark: egui_plot::GridMark, _: &std::ops::RangeInclusive<f64>) -> String {
    let v = mark.value.round();
    if (mark.value - v).abs() < 1e-6 && v >= 0.0 {
        format!("{v:.0}")
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whiskers_span_the_interval_with_caps_and_vanish_when_it_has_no_width() {
        let e = Share::of(17, 40);
        let w = whisker(2.0, 0.1, e);
        assert_eq!(w.len(), 3, "a stem and two caps");
        assert!(
            (w[0][0][1] - e.lo * 100.0).abs() < 1e-9 && (w[0][1][1] - e.hi * 100.0).abs() < 1e-9
        );
        assert_eq!(w[1], vec![[1.9, w[0][0][1]], [2.1, w[0][0][1]]]);
        let none = Share {
            k: 0,
            n: 1,
            share: 0.0,
            lo: 0.3,
            hi: 0.3,
        };
        assert!(whisker(0.0, 0.1, none).is_empty());
        // A side that won every game still has a whisker, reaching 100%.
        let all = whisker(0.0, 0.1, Share::of(40, 40));
        assert_eq!(all[0][1][1], 100.0);
        assert!(all[0][0][1] < 100.0);
    }

    /// The WCAG contrast ratio of two colours (1 to 21).
    fn contrast(a: Color32, b: Color32) -> f64 {
        let lum = |c: Color32| {
            let ch = |v: u8| {
                let v = f64::from(v) / 255.0;
                if v <= 0.039_28 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * ch(c.r()) + 0.7152 * ch(c.g()) + 0.0722 * ch(c.b())
        };
        let (x, y) = (lum(a), lum(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    #[test]
    fn whiskers_stand_out_on_both_bars_and_backgrounds_in_both_themes() {
        for visuals in [egui::Visuals::dark(), egui::Visuals::light()] {
            let (core, halo) = whisker_colors(visuals.dark_mode);
            for under in [IN_FORCE, BASE, visuals.extreme_bg_color, visuals.panel_fill] {
                // Where the core meets what is under it, or else the halo around it does.
                let best = contrast(core, under).max(contrast(halo, under));
                assert!(
                    best >= 3.0,
                    "dark {}: a whisker on {under:?} has contrast {best:.2}",
                    visuals.dark_mode
                );
                assert!(contrast(core, halo) >= 7.0, "the core shows on its halo");
            }
        }
    }
}
