//! The Tune tab, beside Simulate: the designer picks a side, a target win rate and the
//! numbers of the ruleset in force that may move (any number of the merged ruleset, by
//! dotted path, with a range), and the engine searches for the smallest change that brings
//! the side's win rate to the target — `grognard tune`'s search, each candidate's games
//! played as the Simulate tab plays them (`crate::tune`). A progress line shows the
//! candidates tried and the best so far; a plot per number shows the win rate (with its 95%
//! interval as whiskers) at every value tried, the target as a line and the answer ringed;
//! *Save tuned as house rule…* puts the answer into the ruleset in force and saves it as
//! *Save as house rule…* does.

use egui::{Color32, RichText};
use grognard_play::PolicyKind;
use grognard_play::tune::{Item, Measured, Tuner, numeric_leaves};
use grognard_rules::load;

use crate::tune::{TuneJob, TuneRequest, TuneSnapshot};

use super::{Command, EditorApp, FilePurpose};

/// One number the designer lets move, with its range as typed.
#[derive(Clone, Debug)]
pub(super) struct VaryRow {
    /// Its dotted path in the merged ruleset.
    pub(super) path: String,
    /// Its value as the ruleset writes it.
    pub(super) value: String,
    pub(super) from: String,
    pub(super) to: String,
}

/// A finished run: what was tuned and what was measured.
pub(super) struct Finished {
    pub(super) tuner: Tuner,
    pub(super) snapshot: TuneSnapshot,
}

/// The status line once the last answer no longer matches the target or numbers.
const OUT_OF_DATE: &str =
    "the last tuning's answer is out of date (its target or numbers changed): Run again for one";

/// The Tune tab's state.
pub(super) struct TuneUi {
    /// The side whose win rate is tuned (its index).
    pub(super) side: usize,
    /// The target win rate, in %.
    pub(super) target: f64,
    /// Games a candidate.
    pub(super) runs: u32,
    pub(super) policy: PolicyKind,
    /// What the list of numbers is filtered by.
    pub(super) find: String,
    pub(super) rows: Vec<VaryRow>,
    pub(super) job: Option<TuneJob>,
    pub(super) done: Option<Finished>,
    /// The rows (path, from, to) the last run was started with: once they change, its
    /// answer is no longer shown (twelfth player, finding 13).
    pub(super) ran_with: Vec<(String, String, String)>,
    /// The numbers offered (path, value, and the Charts tab's name for it when it has
    /// one), for the ruleset (by hash) they were read from.
    leaves: Option<(String, Vec<Leaf>)>,
}

impl Default for TuneUi {
    fn default() -> Self {
        Self {
            side: 0,
            target: 50.0,
            // `grognard tune`'s defaults.
            runs: 400,
            policy: PolicyKind::Greedy,
            find: String::new(),
            rows: Vec::new(),
            job: None,
            done: None,
            ran_with: Vec::new(),
            leaves: None,
        }
    }
}

impl TuneUi {
    /// Forgets what was tuned under the last ruleset (its numbers, answer and any run,
    /// which is stopped); the games a candidate, target and policy stay.
    pub(super) fn another_ruleset(&mut self) {
        *self = Self {
            target: self.target,
            runs: self.runs,
            policy: self.policy.clone(),
            ..Self::default()
        };
    }
}

/// A number an item can name: its dotted path, its value, and the Charts tab's words for
/// it (`fire_small_b modifier cover per`) when it is a chart's modifier.
type Leaf = (String, String, Option<String>);

/// The Charts tab's name for a chart modifier's number, from its dotted path
/// (`charts.fire.modifiers.3.per` → `fire modifier cover per`); `None` for any other path.
#[must_use]
pub fn chart_words(tree: &serde_json::Value, path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split('.').collect();
    let ["charts", chart, "modifiers", i, key] = parts.as_slice() else {
        return None;
    };
    let name = tree
        .get("charts")?
        .get(*chart)?
        .get("modifiers")?
        .get(i.parse::<usize>().ok()?)?
        .get("name")?
        .as_str()?;
    // Spaced as the Charts tab says them (the list read `fire_small_b`).
    let spaced = crate::words::spaced;
    Some(format!("{} modifier {} {key}", spaced(chart), spaced(name)))
}

/// True when the number's path or its Charts-tab words hold `needle` from the start of a
/// word: a dotted path as written (`fire_small_b.modifiers`), or a needle of words each
/// starting a word of them, in any order, underscores read as spaces: "firer hits" finds
/// `firer_hits` and "hits firer" too (a player typed the first and found nothing), and
/// "small a hits" finds `fire_small_a` but not `fire_small_b`, whose "small" holds an `a`
/// only inside it (eleventh player F9).
#[must_use]
pub fn number_matches(needle: &str, path: &str, words: Option<&str>) -> bool {
    let needle = needle.trim().to_lowercase();
    let hay = format!("{path} {}", words.unwrap_or_default()).to_lowercase();
    let starts_word = |at: usize| {
        hay[..at]
            .chars()
            .next_back()
            .is_none_or(|c| matches!(c, '.' | '_' | ' '))
    };
    if hay.match_indices(&needle).any(|(at, _)| starts_word(at)) {
        return true;
    }
    let hay_words: Vec<&str> = hay.split(['_', '.', ' ']).collect();
    !needle.contains('.')
        && needle
            .replace('_', " ")
            .split_whitespace()
            .all(|w| hay_words.iter().any(|h| h.starts_with(w)))
}

/// True when `value`, as the ruleset writes it, is a number: digits with an optional
/// half (`3`, `1½`, `1.5`, a lone `½`), signed or not, a die (`d6`), a score with its
/// `+` or `-` (`9+`, `-6-`), or a length with its unit (`40mm`). A name or a colour that
/// merely holds a digit (`hex-command-limber3`, `chart_5`, `#a0522d`) is not.
#[must_use]
pub fn number_text(value: &str) -> bool {
    let body = value.strip_prefix(['d', 'D']).unwrap_or(value);
    let body = body.strip_prefix(['+', '-']).unwrap_or(body);
    let digits = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &body[digits..];
    let rest = if let Some(r) = rest.strip_prefix('½') {
        r
    } else if digits > 0
        && let Some(r) = rest.strip_prefix(".5")
    {
        r
    } else if digits > 0 {
        rest
    } else {
        return false;
    };
    matches!(rest, "" | "+" | "-")
        || (rest.len() <= 3 && rest.chars().all(|c| c.is_ascii_lowercase()))
}

/// A number as the list and the items show it: its path, and the Charts tab's name
/// beside it when it has one.
fn leaf_text(path: &str, words: Option<&String>) -> String {
    match words {
        Some(w) => format!("{path} ({w})"),
        None => path.to_owned(),
    }
}

/// Rows of the number list in sight at once; past them, a line says how many more match.
const ROWS_IN_SIGHT: usize = 7;

/// Most numbers listed at once under the search field.
const MAX_LISTED: usize = 200;
/// The colour of the answer's ring and of the target line.
const ANSWER: Color32 = Color32::from_rgb(30, 110, 220);
const TRIED: Color32 = Color32::from_rgb(220, 140, 0);

impl EditorApp {
    pub(super) fn tune_tab(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        ui.heading("Tune a side's win rate");
        let sides: Vec<String> = match &self.rt.session {
            Some(s) if self.rt.bench.is_some() => grognard_play::tally::side_names(&s.scenario),
            _ => {
                ui.label("Open a scenario first (the Scenario menu lists examples/).");
                return;
            }
        };
        ui.label(
            "Pick the side, the win rate it should have and the numbers that may move; every \
             candidate is the ruleset in force with those numbers changed, played over the \
             same seeds (the scenario's, as `grognard tune`), and the answer is the smallest \
             change whose 95% interval holds the target.",
        );
        egui::ScrollArea::vertical().show(ui, |ui| {
            self.tune_form(ui, &sides, out);
            self.tune_results(ui, out);
        });
        // The status line's "tuning done: …" goes with the answer it reports (thirteenth
        // player F11: it stayed once the answer had given way).
        let t = &self.rt.tune;
        let stale = t.done.as_ref().is_some_and(|d| {
            (d.tuner.target * 100.0 - t.target).abs() > 1e-9 || row_keys(&t.rows) != t.ran_with
        });
        let said = |app: &Self, start: &str| {
            app.rt
                .status
                .as_ref()
                .is_some_and(|s| s.text.starts_with(start))
        };
        if stale && said(self, "tuning done: ") {
            self.say(OUT_OF_DATE);
        } else if !stale
            && said(self, OUT_OF_DATE)
            && let Some(d) = &self.rt.tune.done
        {
            // Set back, the answer is shown again, and so is its line (fourteenth player:
            // the status line still called it out of date).
            let message = answer_text(&d.tuner, &d.snapshot);
            self.say(format!("tuning done: {message}"));
        }
    }

    fn tune_form(&mut self, ui: &mut egui::Ui, sides: &[String], out: &mut Vec<Command>) {
        // First: a row's "now" is the ruleset's in force this frame.
        self.refresh_leaves();
        let running = self.rt.tune.job.is_some();
        let t = &mut self.rt.tune;
        ui.horizontal(|ui| {
            ui.label("side:");
            for (i, name) in sides.iter().enumerate() {
                if ui.selectable_label(t.side == i, name).clicked() {
                    t.side = i;
                }
            }
            let target = ui.label("target win rate, %:");
            ui.add(egui::DragValue::new(&mut t.target).range(0.0..=100.0))
                .labelled_by(target.id);
            let games = ui.label("games a candidate:");
            ui.add(egui::DragValue::new(&mut t.runs).range(2..=100_000))
                .labelled_by(games.id);
            ui.label("policy:");
            for (kind, label) in [
                (PolicyKind::Random, "random"),
                (PolicyKind::Greedy, "greedy"),
            ] {
                if ui.selectable_label(t.policy == kind, label).clicked() {
                    t.policy = kind;
                }
            }
        });
        ui.label(RichText::new("Numbers to vary").strong());
        let mut remove = None;
        egui::Grid::new("tune items").striped(true).show(ui, |ui| {
            let leaf = |p: &str| {
                t.leaves
                    .as_ref()
                    .and_then(|(_, l)| l.iter().find(|(x, _, _)| x == p))
            };
            for (i, row) in t.rows.iter_mut().enumerate() {
                let found = leaf(&row.path);
                ui.label(leaf_text(&row.path, found.and_then(|(_, _, w)| w.as_ref())));
                // The value in force now: after *Save tuned as house rule…* (or an edit)
                // it is the new one, and the value it was added at is said beside it
                // (eleventh player F10: the row still read "now 3" after saving 0).
                let mut now = match found.map(|(_, v, _)| v) {
                    Some(now) if *now != row.value => format!("now {now} (was {})", row.value),
                    _ => format!("now {}", row.value),
                };
                if let Some(v) = scenario_setting(self.rt.session.as_ref(), &row.path) {
                    now.push_str(&format!(
                        "; the scenario sets {v}, so this number changes nothing in it"
                    ));
                }
                ui.label(now);
                let from = ui.label("from");
                ui.add(egui::TextEdit::singleline(&mut row.from).desired_width(50.0))
                    .labelled_by(from.id);
                let to = ui.label("to");
                ui.add(egui::TextEdit::singleline(&mut row.to).desired_width(50.0))
                    .labelled_by(to.id);
                if ui.button("remove").clicked() {
                    remove = Some(i);
                }
                ui.end_row();
            }
        });
        if let Some(i) = remove {
            let row = t.rows.remove(i);
            // A refusal about the row goes with it (eleventh player F10: "ruleset: `--0`
            // is not a number" stayed after its row was removed).
            let about = format!("{}: ", row.path);
            if self
                .rt
                .status
                .as_ref()
                .is_some_and(|s| s.error && s.text.starts_with(&about))
            {
                self.rt.status = None;
            }
        }
        if t.rows.is_empty() {
            ui.label("None yet: add one from the list below.");
        }
        self.number_list(ui);
        ui.horizontal(|ui| {
            if running {
                if ui.button("Stop").clicked() {
                    out.push(Command::StopTune);
                }
            } else if ui
                .add_enabled(!self.rt.tune.rows.is_empty(), egui::Button::new("Run"))
                .on_disabled_hover_text("Add a number to vary first")
                .clicked()
            {
                out.push(Command::Tune);
            }
        });
        if let Some(job) = &self.rt.tune.job {
            let snapshot = job.snapshot();
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(snapshot.running_line());
            });
            plots(ui, &job.tuner, &snapshot, None);
        }
    }

    /// Reads the numbers the finder offers again when the ruleset in force has changed
    /// (an edit, a saved house rule, another ruleset).
    fn refresh_leaves(&mut self) {
        let Some(bench) = &self.rt.bench else {
            return;
        };
        let hash = bench.current.rules.identity.hash.clone();
        if self.rt.tune.leaves.as_ref().is_none_or(|(h, _)| *h != hash) {
            let merged = bench.value(&[]).cloned().unwrap_or_default();
            let leaves = load::ruleset_tree(&bench.current.path)
                .map(|tree| numeric_leaves(&tree))
                .unwrap_or_default()
                .into_iter()
                // A name or a colour that holds a digit is no number (eleventh player
                // F1: `ruleset = hex-command-limber3` was offered and ran as `--0`).
                .filter(|(_, value)| number_text(value))
                .map(|(path, value)| {
                    let words = chart_words(&merged, &path);
                    (path, value, words)
                })
                .collect();
            self.rt.tune.leaves = Some((hash, leaves));
        }
    }

    /// The numbers of the ruleset in force that an item can name, filtered by the search
    /// field; a click adds one with its default range (± 3 steps).
    fn number_list(&mut self, ui: &mut egui::Ui) {
        self.refresh_leaves();
        let Some(bench) = &self.rt.bench else {
            return;
        };
        let t = &mut self.rt.tune;
        let find = ui.label("find a number:");
        ui.add(egui::TextEdit::singleline(&mut t.find).hint_text("e.g. charts or allowance"))
            .labelled_by(find.id);
        let needle = t.find.to_lowercase();
        let mut add = None;
        let leaves = t.leaves.as_ref().map_or(&[][..], |(_, l)| l.as_slice());
        // Found by the path or by the Charts tab's words for it.
        let found: Vec<&Leaf> = leaves
            .iter()
            .filter(|(p, _, w)| number_matches(&needle, p, w.as_deref()))
            .collect();
        let matching: Vec<&Leaf> = found
            .iter()
            .copied()
            .filter(|(p, _, _)| !t.rows.iter().any(|r| r.path == *p))
            .collect();
        // Matches already added are not listed again, but they did match (F7: the line
        // said "nothing matches" right after the only match was added).
        let already = found.len() - matching.len();
        egui::ScrollArea::vertical()
            .id_salt("tune numbers")
            .max_height(160.0)
            .show(ui, |ui| {
                for (path, value, words) in matching.iter().take(MAX_LISTED) {
                    let mut name = leaf_text(path, words.as_ref());
                    // The value in force, when the scenario sets its own (twelfth player,
                    // finding 2: `settings.break_point = 30` listed, the scenario's 80 not).
                    if let Some(v) = scenario_setting(self.rt.session.as_ref(), path) {
                        name.push_str(&format!(" (in force: {v}, the scenario's)"));
                    }
                    let text = format!("{name} = {value}");
                    if ui.button(text).clicked() {
                        add = Some((path.clone(), value.clone()));
                    }
                }
            });
        if matching.is_empty() && already > 0 && !needle.trim().is_empty() {
            ui.label(
                RichText::new(format!(
                    // Above: under *Numbers to vary*, over this box (tenth player F8).
                    "{} matching \"{}\" {} added above; type another name to add more",
                    if already == 1 {
                        "the number".to_owned()
                    } else {
                        format!("all {already} numbers")
                    },
                    t.find.trim(),
                    if already == 1 { "is" } else { "are" }
                ))
                .weak(),
            );
        } else if matching.is_empty() && !needle.trim().is_empty() {
            // An empty box said nothing: say the search found nothing, and what it reads.
            ui.label(
                RichText::new(format!(
                    "nothing matches \"{}\": try a chart's, a piece type's or a modifier's name",
                    t.find.trim()
                ))
                .weak(),
            );
        }
        // The box shows about seven rows: say that more match, and how to reach them.
        if matching.len() > ROWS_IN_SIGHT {
            let shown = matching.len().min(MAX_LISTED);
            // All that match, not the ones past the box: "more… 14 numbers match" read
            // as 14 more (tenth player F7).
            let mut more = format!(
                "{} numbers match, {ROWS_IN_SIGHT} in sight: scroll the list for the rest, or \
                 type more of a name to narrow it",
                matching.len()
            );
            if shown < matching.len() {
                more.push_str(&format!(" (the first {shown} are listed)"));
            }
            ui.label(RichText::new(more).weak());
        }
        if let Some((path, value)) = add {
            let (from, to) = load::ruleset_tree(&bench.current.path)
                .ok()
                .and_then(|tree| default_range(&path, &tree))
                .unwrap_or_default();
            t.rows.push(VaryRow {
                path,
                value,
                from,
                to,
            });
        }
    }

    fn tune_results(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(done) = &self.rt.tune.done else {
            return;
        };
        // An answer for other numbers than those listed now reads as theirs: say so in its
        // place (twelfth player, finding 13: the old answer and table stayed).
        if row_keys(&self.rt.tune.rows) != self.rt.tune.ran_with {
            ui.label(
                RichText::new(
                    "The numbers to vary changed since the last run: Run again for an answer.",
                )
                .weak(),
            );
            return;
        }
        // The same for the target: "meets the target" said of the old one beside a new
        // one in its box (thirteenth player F11).
        let ran_for = done.tuner.target * 100.0;
        if (ran_for - self.rt.tune.target).abs() > 1e-9 {
            ui.label(
                RichText::new(format!(
                    "The target win rate changed since the last run (it was {ran_for:.1}%): \
                     Run again for an answer."
                ))
                .weak(),
            );
            return;
        }
        let (t, snap) = (&done.tuner, &done.snapshot);
        if let Some(e) = &snap.error {
            ui.colored_label(Color32::RED, format!("the search stopped: {e}"));
        } else if snap.stopped {
            ui.label(snap.stopped_text());
        }
        // Stopped before a candidate was measured, the stop's line says all there is:
        // no answer, no "0 candidates, 0 games", no empty table.
        if snap.stopped && snap.book.tried().next().is_none() {
            return;
        }
        let best = snap.book.best(t);
        let answer = answer_text(t, snap);
        ui.label(RichText::new(answer).strong());
        if let Some(note) = snap.all_drawn_note() {
            ui.colored_label(Color32::from_rgb(200, 120, 0), note);
        } else if let Some(note) = flat_note(snap) {
            ui.colored_label(Color32::from_rgb(200, 120, 0), note);
        }
        if let Some(warning) = too_wide_warning(t, snap) {
            ui.colored_label(Color32::from_rgb(200, 120, 0), warning);
        }
        ui.label(&snap.line);
        let chosen = best.or_else(|| snap.book.closest(t));
        let changes = chosen.is_some_and(|m| m.values != t.current());
        if ui
            .add_enabled(changes, egui::Button::new("Save tuned as house rule…"))
            .on_disabled_hover_text("The answer is the ruleset as it is")
            .on_hover_text("Puts the answer into the ruleset in force and saves it as a house rule")
            .clicked()
        {
            out.push(Command::SaveTuned);
        }
        egui::Grid::new("tune tried").striped(true).show(ui, |ui| {
            ui.label(RichText::new("candidate").strong());
            ui.label(RichText::new(format!("{} wins", t.side_name)).strong());
            ui.label("");
            ui.end_row();
            for m in snap.book.tried() {
                ui.label(t.describe(&m.values));
                ui.label(crate::tune::rate_words(m));
                ui.label(if t.meets(m) {
                    "meets the target"
                } else if snap.all_drawn(&m.values) {
                    "every game drawn"
                } else {
                    ""
                });
                ui.end_row();
            }
        });
        plots(ui, t, snap, best);
    }

    /// Starts the search with what the form holds.
    pub(super) fn start_tuning(&mut self) {
        match self.tune_request() {
            Ok(request) => {
                let what = request.tuner.items.len();
                let side = request.tuner.side_name.clone();
                self.rt.tune.done = None;
                self.rt.tune.ran_with = row_keys(&self.rt.tune.rows);
                self.rt.tune.job = Some(TuneJob::start(request));
                self.say(format!(
                    "tuning {} win rate with {} to vary",
                    crate::words::possessive(&side),
                    crate::words::count(what as i64, "number")
                ));
            }
            Err(e) => self.fail(e),
        }
    }

    fn tune_request(&self) -> Result<TuneRequest, String> {
        let (Some(path), Some(bench)) = (&self.rt.scenario_path, &self.rt.bench) else {
            return Err("open a scenario to tune".to_owned());
        };
        let t = &self.rt.tune;
        if t.rows.is_empty() {
            return Err("add a number to vary first".to_owned());
        }
        let scratch = self.rt.scratch.path().join("tune");
        std::fs::create_dir_all(&scratch)
            .map_err(|e| format!("cannot make a folder for the candidates: {e}"))?;
        // Unsaved edits are written beside the candidates, which extend them.
        let ruleset = if bench.is_modified() {
            let at = scratch.join("in-force.yaml");
            std::fs::write(&at, bench.overlay_text(&at))
                .map_err(|e| format!("cannot write the ruleset in force: {e}"))?;
            at
        } else {
            bench.current.path.clone()
        };
        let tree = load::ruleset_tree(&ruleset).map_err(|d| d.to_string())?;
        let items = t
            .rows
            .iter()
            .map(|r| {
                let spec = format!("{}={}..{}", r.path, r.from.trim(), r.to.trim());
                Item::parse(&spec, &tree).map_err(|why| format!("{}: {why}", r.path))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let name = load::display(path);
        let scenario = load::scenario_from_text(&name, &self.rt.scenario_text, &bench.current)
            .map_err(|d| format!("{name} does not start under the ruleset in force: {d}"))?;
        let sides = grognard_play::tally::side_names(&scenario);
        let side_name = sides
            .get(t.side)
            .cloned()
            .ok_or_else(|| "pick a side".to_owned())?;
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        Ok(TuneRequest {
            scenario_name: name,
            scenario_text: self.rt.scenario_text.clone(),
            ruleset,
            tuner: Tuner {
                tree,
                name: bench.current.rules.identity.name.clone(),
                items,
                side: t.side,
                side_name,
                target: (t.target / 100.0).clamp(0.0, 1.0),
                runs: t.runs.max(2),
            },
            policy: t.policy.clone(),
            seed: scenario.compiled.setup.seed,
            threads: cores,
            scratch,
        })
    }

    /// Takes a finished search's answer (and drops the job, so an idle editor asks for no
    /// more frames); keeps the frames coming while it runs.
    pub(super) fn poll_tuning(&mut self, ctx: &egui::Context) {
        let Some(job) = &self.rt.tune.job else {
            return;
        };
        if !job.finished() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
            return;
        }
        let Some(job) = self.rt.tune.job.take() else {
            return;
        };
        let tuner = job.tuner.clone();
        let snapshot = job.wait();
        let message = answer_text(&tuner, &snapshot);
        if snapshot.stopped && snapshot.book.tried().next().is_none() {
            self.say(format!("tuning {}", snapshot.stopped_text()));
        } else if snapshot.stopped {
            self.say(format!("tuning {}: {message}", snapshot.stopped_text()));
        } else if snapshot.error.is_some() {
            self.fail(format!("tuning stopped: {message}"));
        } else {
            self.say(format!("tuning done: {message}"));
        }
        self.rt.tune.done = Some(Finished { tuner, snapshot });
        ctx.request_repaint();
    }

    /// Puts the answer (or, when nothing met the target, the closest) into the ruleset in
    /// force, value by value as the Rules and Charts tabs do, then asks where to save it.
    pub(super) fn save_tuned(&mut self) {
        let Some(done) = &self.rt.tune.done else {
            return;
        };
        let (t, book) = (&done.tuner, &done.snapshot.book);
        let Some(chosen) = book.best(t).or_else(|| book.closest(t)) else {
            return self.fail("nothing was measured to save");
        };
        let edits: Vec<(Vec<String>, String)> = t
            .items
            .iter()
            .zip(&chosen.values)
            .filter(|(i, v)| **v != i.current)
            .map(|(i, v)| (i.path.split('.').map(str::to_owned).collect(), i.text(*v)))
            .collect();
        let Some(bench) = &mut self.rt.bench else {
            return;
        };
        for (path, text) in &edits {
            if !bench.set_text(path, text) {
                let why = bench
                    .field_errors
                    .get(path)
                    .cloned()
                    .unwrap_or_else(|| bench.problems.join("; "));
                return self.fail(format!("{} = {text}: {why}", path.join(".")));
            }
        }
        self.ask(FilePurpose::SaveHouseRule);
    }

    /// What the last search found (tests).
    #[must_use]
    pub fn tune_answer(&self) -> Option<String> {
        let done = self.rt.tune.done.as_ref()?;
        Some(answer_text(&done.tuner, &done.snapshot))
    }

    /// True while a search runs.
    #[must_use]
    pub fn tuning(&self) -> bool {
        self.rt.tune.job.is_some()
    }
}

/// What a run was for: each row's path and range as typed.
fn row_keys(rows: &[VaryRow]) -> Vec<(String, String, String)> {
    rows.iter()
        .map(|r| {
            (
                r.path.clone(),
                r.from.trim().to_owned(),
                r.to.trim().to_owned(),
            )
        })
        .collect()
}

/// The value a scenario setting (`settings.NAME`, the ruleset's default) has in the game
/// in play when the scenario sets its own: tuning the default changes nothing in it.
fn scenario_setting(session: Option<&crate::session::Session>, path: &str) -> Option<i32> {
    let name = path.strip_prefix("settings.")?;
    let name = name.strip_suffix(".default").unwrap_or(name);
    let s = session?;
    let i = s
        .game
        .rules()
        .settings
        .iter()
        .position(|d| d.name == name)?;
    let v = *s.scenario.compiled.setup.settings.get(i)?;
    (v != s.game.rules().settings[i].default).then_some(v)
}

/// When two or more candidates were measured and all gave the side the same wins, says
/// plainly that no value tried changed the result, and the likely reasons (twelfth player,
/// finding 2: a number a script overwrites gave a flat line and no hint).
#[must_use]
pub fn flat_note(s: &TuneSnapshot) -> Option<String> {
    let mut tried = s.book.tried();
    let first = tried.next()?;
    let mut n = 1;
    for m in tried {
        if m.wins != first.wins {
            return None;
        }
        n += 1;
    }
    (n > 1).then(|| {
        format!(
            "No value tried changed the result ({n} candidates, each {}): the number may be \
             unused, set by the scenario, or overwritten by the ruleset's scripts.",
            crate::tune::rate_words(first)
        )
    })
}

/// The answer in words: the smallest change that meets the target, or the closest.
fn answer_text(t: &Tuner, s: &TuneSnapshot) -> String {
    let target = format!("{:.1}%", t.target * 100.0);
    match (s.book.best(t), s.book.closest(t)) {
        (Some(b), _) => format!(
            "Answer: {}, with which {} wins {}; {target} is within that interval",
            t.describe(&b.values),
            t.side_name,
            crate::tune::rate_words(b)
        ),
        (None, Some(c)) => format!(
            // The search's test is `grognard tune`'s (its rate ± 1.96 standard errors),
            // which the Wilson interval shown may still cover near 0% or 100%: named, so
            // the two do not read as one contradicting the other.
            "No candidate reaches {target} by the search's test (its rate ± 1.96 standard \
             errors); closest: {} → {} wins {}",
            t.describe(&c.values),
            t.side_name,
            crate::tune::rate_words(c)
        ),
        (None, None) => "No candidate was measured.".to_owned(),
    }
}

/// When the answer's interval is too wide to trust (wider than ±10 points), a warning
/// with the games a candidate that would give ±5 — `grognard tune`'s own rule
/// ([`grognard_play::tune::runs_for_5_points`]) — and what they would take at the time a
/// game has taken in this run.
#[must_use]
pub fn too_wide_warning(t: &Tuner, s: &TuneSnapshot) -> Option<String> {
    let m = s.book.best(t).or_else(|| s.book.closest(t))?;
    // The Wilson interval's half-width: the normal one reads 0 at 0 or 100% wins.
    let share = crate::simulate::Share::counted(m.wins);
    let ci = (share.hi - share.lo) / 2.0;
    let needed = grognard_play::tune::runs_for_5_points(t.runs, ci)?;
    // What that costs, at the time a game has taken in this run.
    let cost = if s.games > 0 && s.seconds > 0.0 {
        let per_game = s.seconds / s.games as f64;
        format!(
            ", some {} a candidate at the {} a game measured",
            crate::words::seconds_text(per_game * f64::from(needed)),
            if per_game < 0.1 {
                format!("{:.0} ms", (per_game * 1000.0).max(1.0))
            } else {
                format!("{per_game:.1} s")
            }
        )
    } else {
        String::new()
    };
    Some(format!(
        "⚠ ± {:.1} points at {} a candidate is too wide to trust this answer: about {needed} \
         games a candidate would give ± 5{cost} (set \"games a candidate\" and run again).",
        ci * 100.0,
        crate::words::count(i64::from(t.runs), "game")
    ))
}

/// The number in a value as written (`6+` → `6`), for the range fields.
/// The range an item added from the list starts with: ± 3 steps about its value, kept
/// on its side of zero (a modifier of +1 tried at −2 turns into its opposite, and a count
/// of 1 cannot be −2). `None` for a path that names no number.
#[must_use]
pub fn default_range(path: &str, tree: &grognard_rules::node::Node) -> Option<(String, String)> {
    let item = Item::parse(path, tree).ok()?;
    let cur = item.current;
    let same_side: Vec<_> = item
        .values
        .iter()
        .copied()
        .filter(|v| match cur.cmp(&0) {
            std::cmp::Ordering::Greater => *v >= 0,
            std::cmp::Ordering::Less => *v <= 0,
            std::cmp::Ordering::Equal => true,
        })
        .collect();
    let (lo, hi) = (*same_side.first()?, *same_side.last()?);
    Some((number_of(&item.text(lo)), number_of(&item.text(hi))))
}

fn number_of(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_ascii_digit() || matches!(c, '-' | '½' | '.'))
        .collect()
}

/// One plot per item: the side's win rate (%) at each value tried, with its 95% interval,
/// the target as a line, the answer ringed.
fn plots(ui: &mut egui::Ui, t: &Tuner, s: &TuneSnapshot, answer: Option<&Measured>) {
    for (k, item) in t.items.iter().enumerate() {
        ui.label(
            RichText::new(format!(
                "{} wins, % (whiskers: 95% intervals), against {}",
                t.side_name, item.path
            ))
            .strong(),
        );
        let texts: Vec<(i64, String)> = item.values.iter().map(|v| (*v, item.text(*v))).collect();
        let (lo, hi) = (
            item.values.first().copied().unwrap_or(0),
            item.values.last().copied().unwrap_or(0),
        );
        let step = if item.values.iter().any(|v| v % 2 != 0) {
            0.5
        } else {
            1.0
        };
        super::fixed_plot(("tune plot", k), 220.0)
            .legend(egui_plot::Legend::default())
            .include_y(100.0)
            .include_x(lo as f64 / 2.0 - step)
            .include_x(hi as f64 / 2.0 + step)
            .x_axis_label(item.path.clone())
            .x_grid_spacer(egui_plot::uniform_grid_spacer(move |_| {
                [step, step * 5.0, step * 10.0]
            }))
            .x_axis_formatter(move |mark, _| {
                let h = (mark.value * 2.0).round();
                if (mark.value * 2.0 - h).abs() > 1e-6 {
                    return String::new();
                }
                texts
                    .iter()
                    .find(|(v, _)| *v as f64 == h)
                    .map(|(_, s)| s.clone())
                    .unwrap_or_default()
            })
            .show(ui, |plot| {
                plot.hline(
                    egui_plot::HLine::new(
                        format!("target {:.1}%", t.target * 100.0),
                        t.target * 100.0,
                    )
                    .color(ANSWER)
                    .style(egui_plot::LineStyle::dashed_loose()),
                );
                let mut points = Vec::new();
                for m in s.book.tried() {
                    let x = m.values[k] as f64 / 2.0;
                    // Wilson's interval, as on the Simulate tab: a candidate that won no
                    // game still has a whisker (0 of 20: 0–16.1%).
                    let e = crate::simulate::Share::counted(m.wins);
                    points.push([x, e.share * 100.0]);
                    for w in super::simulate_tab::whisker(x, step * 0.15, e) {
                        plot.line(
                            // One name for every whisker: one legend entry.
                            egui_plot::Line::new("95% interval", w)
                                .color(TRIED)
                                .width(1.5)
                                .allow_hover(false),
                        );
                    }
                }
                plot.points(
                    egui_plot::Points::new("candidates", points)
                        .color(TRIED)
                        .radius(4.0)
                        .filled(true),
                );
                if let Some(a) = answer {
                    let e = crate::simulate::Share::counted(a.wins);
                    plot.points(
                        egui_plot::Points::new(
                            "answer",
                            vec![[a.values[k] as f64 / 2.0, e.share * 100.0]],
                        )
                        .color(ANSWER)
                        .radius(9.0)
                        .filled(false)
                        .shape(egui_plot::MarkerShape::Circle),
                    );
                }
            });
    }
}
