//! The editor application: saved settings apart from runtime state; panels emit
//! [`Command`]s that are applied once, at the end of the frame.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use egui::{Color32, RichText};
use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Reach;
use grognard_kernel::geometry::open::Point;
use grognard_kernel::geometry::{Cell, Facing};
use grognard_kernel::ids::{ActionId, ModeId, PieceId, SideId};
use grognard_kernel::piece::Place;
use grognard_kernel::rules::{Actor, Allowed, TargetRule};
use grognard_rules::diag::Diagnostics;
use grognard_rules::load::{self, Ruleset};
use grognard_rules::odds::{chart_case, percent};
use serde::{Deserialize, Serialize};

use crate::board::{self, BoardScene, Camera, DrawPiece, Overlay, Transform};
use crate::house::{FieldPath, Workbench, field, shown};
use crate::session::{Session, dice_log, hooks_for};
use crate::view::{ViewAs, pieces_for, view_label};

/// How often files on disk are checked for changes.
const WATCH_EVERY: Duration = Duration::from_millis(750);
/// Most recent files remembered.
const MAX_RECENT: usize = 8;

/// How the editor starts.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// A ruleset to open.
    pub ruleset: Option<PathBuf>,
    /// A scenario to open (under `ruleset` when both are given).
    pub scenario: Option<PathBuf>,
    /// Use the desktop's file dialogs (rfd); when false, or when no dialog can be shown,
    /// the editor asks for a path in a text field.
    pub native_dialogs: bool,
}

/// The editor's tabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tab {
    /// Optional rules, movement, terrain costs, stacking.
    #[default]
    Rules,
    /// Charts cell by cell, with live odds.
    Charts,
    /// The semantic diff and "Save as house rule".
    Diff,
    /// The board.
    Play,
}

/// What is kept between runs.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Saved {
    /// Rulesets and scenarios opened lately, newest first.
    pub recent: Vec<PathBuf>,
    /// The open tab.
    pub tab: Tab,
    /// Board pan and zoom.
    pub camera: Camera,
    /// Hide the board between sides (hot-seat play).
    pub hot_seat: bool,
}

/// What a file dialog is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilePurpose {
    /// Open a ruleset.
    OpenRuleset,
    /// Open a scenario.
    OpenScenario,
    /// Save the house rule.
    SaveHouseRule,
    /// Save the game.
    SaveGame,
    /// Load a saved game.
    LoadGame,
}

impl FilePurpose {
    fn title(self) -> &'static str {
        match self {
            Self::OpenRuleset => "Open ruleset",
            Self::OpenScenario => "Open scenario",
            Self::SaveHouseRule => "Save house rule",
            Self::SaveGame => "Save game",
            Self::LoadGame => "Load game",
        }
    }

    fn saves(self) -> bool {
        matches!(self, Self::SaveHouseRule | Self::SaveGame)
    }
}

/// Something a panel asks for; applied at the end of the frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Switch to a tab.
    Tab(Tab),
    /// Ask for a file (dialog or path field).
    Ask(FilePurpose),
    /// A file was chosen.
    Chosen(FilePurpose, PathBuf),
    /// Close the path field.
    CancelAsk,
    /// Change one ruleset value, as typed.
    SetField(FieldPath, String),
    /// Rename the house rule.
    RenameHouse(String),
    /// Drop every edit.
    Revert,
    /// Pick the chart shown in the chart editor.
    ShowChart(String),
    /// Set a chart input for the odds.
    ChartInput(String, i32),
    /// Start the open scenario again under the ruleset in force.
    Restart,
    /// Select a piece (or none).
    Select(Option<PieceId>),
    /// A click on a cell of the board.
    ClickCell(Cell),
    /// A click on a point of an open table.
    ClickPoint(Point),
    /// Move the selected piece along the planned path.
    MoveAlongPath,
    /// Forget the planned path.
    ClearPath,
    /// A ruleset action by the selected piece.
    Act(ActionId, Option<PieceId>),
    /// Turn the selected piece.
    Face(Facing),
    /// Change the selected piece's mode.
    Mode(ModeId),
    /// The next cell clicked is the target of this order for the selected piece.
    CellOrder(Option<CellOrder>),
    /// Gather a spread command back into its main cell.
    Gather,
    /// End the phase for the acting side.
    EndPhase,
    /// Take back the last action.
    Undo,
    /// Draw the board as someone sees it.
    ViewAs(ViewAs),
    /// Show the board after the hot-seat screen.
    Reveal,
    /// Turn hot-seat play on or off.
    HotSeat(bool),
}

/// Orders that name a cell, given by clicking the cell after choosing the order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellOrder {
    /// Lift a dummy and put it down there.
    Redeploy,
    /// Spread a command into that cell.
    Extend,
    /// Save the allowance toward that cell.
    Save,
}

/// A message for the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// The text.
    pub text: String,
    /// True for an error.
    pub error: bool,
}

/// A path field shown in place of a file dialog.
#[derive(Clone, Debug)]
struct PathPrompt {
    purpose: FilePurpose,
    text: String,
    note: String,
}

/// Files watched for live reload, with their last modification times.
#[derive(Debug, Default)]
struct Watch {
    files: Vec<(PathBuf, Option<SystemTime>)>,
    last: Option<Instant>,
}

fn modified(p: &Path) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

/// What lives only while the editor runs.
struct Runtime {
    native_dialogs: bool,
    scratch: tempfile::TempDir,
    bench: Option<Workbench>,
    session: Option<Session>,
    scenario_path: Option<PathBuf>,
    scenario_text: String,
    /// What no longer fits when the scenario is checked against another ruleset.
    scenario_problems: Vec<String>,
    status: Option<Status>,
    reload_error: Option<String>,
    watch: Watch,
    texts: HashMap<FieldPath, String>,
    chart: Option<String>,
    chart_inputs: HashMap<(String, String), i32>,
    selected: Option<PieceId>,
    reach: Option<Reach>,
    path: Vec<Cell>,
    view: ViewAs,
    screen_hidden: bool,
    prompt: Option<PathPrompt>,
    transform: Option<Transform>,
    drawn: Vec<DrawPiece>,
    terrain_colors: Vec<Color32>,
    commands: Vec<Command>,
    fonts_installed: bool,
    pending: Option<CellOrder>,
}

/// The editor.
pub struct EditorApp {
    /// Settings kept between runs.
    pub saved: Saved,
    rt: Runtime,
}

impl core::fmt::Debug for EditorApp {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EditorApp")
            .field("saved", &self.saved)
            .finish_non_exhaustive()
    }
}

/// How a path is shown and loaded: relative to the current folder when inside it (the
/// form the loader itself uses for bases and scripts, so diffs compare like with like).
#[must_use]
pub fn tidy_path(p: &Path) -> PathBuf {
    let abs = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    std::env::current_dir()
        .ok()
        .and_then(|cwd| {
            let cwd = std::fs::canonicalize(&cwd).unwrap_or(cwd);
            abs.strip_prefix(&cwd).ok().map(Path::to_path_buf)
        })
        .unwrap_or(abs)
}

/// The rulesets bundled in `./rulesets` (and `GROGNARD_RULESETS`), by file.
#[must_use]
pub fn bundled_rulesets() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in load::ruleset_dirs(Path::new("./x")) {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
            .map(|p| tidy_path(&p))
            .collect();
        found.sort();
        for p in found {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// The example scenarios in `./examples` (orders files left out).
#[must_use]
pub fn example_scenarios() -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir("examples") else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "yaml")
                && !p.to_string_lossy().ends_with(".orders.yaml")
        })
        .collect();
    out.sort();
    out
}

impl EditorApp {
    /// A new editor, restoring `saved` settings, opening what `options` names.
    #[must_use]
    pub fn new(saved: Saved, options: Options) -> Self {
        let scratch = tempfile::Builder::new()
            .prefix("grognard-editor-")
            .tempdir()
            .or_else(|_| tempfile::tempdir_in("."))
            .unwrap_or_else(|e| panic!("cannot make a scratch folder: {e}"));
        let mut app = Self {
            saved,
            rt: Runtime {
                native_dialogs: options.native_dialogs,
                scratch,
                bench: None,
                session: None,
                scenario_path: None,
                scenario_text: String::new(),
                scenario_problems: Vec::new(),
                status: None,
                reload_error: None,
                watch: Watch::default(),
                texts: HashMap::new(),
                chart: None,
                chart_inputs: HashMap::new(),
                selected: None,
                reach: None,
                path: Vec::new(),
                view: ViewAs::Referee,
                screen_hidden: false,
                prompt: None,
                transform: None,
                drawn: Vec::new(),
                terrain_colors: Vec::new(),
                commands: Vec::new(),
                fonts_installed: false,
                pending: None,
            },
        };
        match (options.ruleset, options.scenario) {
            (Some(r), Some(s)) => {
                app.open_ruleset(&r);
                app.open_scenario(&s, true);
            }
            (Some(r), None) => app.open_ruleset(&r),
            (None, Some(s)) => app.open_scenario(&s, false),
            (None, None) => {}
        }
        if app.rt.session.is_some() {
            // Opened with a scenario: show the board.
            app.saved.tab = Tab::Play;
        }
        app
    }

    /// Queues a command, as a panel would.
    pub fn command(&mut self, c: Command) {
        self.rt.commands.push(c);
    }

    /// The house-rule workbench, once a ruleset is open.
    #[must_use]
    pub fn workbench(&self) -> Option<&Workbench> {
        self.rt.bench.as_ref()
    }

    /// The game being played.
    #[must_use]
    pub fn session(&self) -> Option<&Session> {
        self.rt.session.as_ref()
    }

    /// The pieces drawn on the board in the last frame.
    #[must_use]
    pub fn drawn_pieces(&self) -> &[DrawPiece] {
        &self.rt.drawn
    }

    /// Where a cell's centre was on screen in the last frame.
    #[must_use]
    pub fn cell_on_screen(&self, c: Cell) -> Option<egui::Pos2> {
        let t = self.rt.transform?;
        let grid = *self.rt.session.as_ref()?.game.board().grid()?;
        let (x, y) = board::cell_center(&grid, c);
        Some(t.to_screen(x, y))
    }

    /// Where a board position (cell units, or inches on an open table) was on screen in
    /// the last frame.
    #[must_use]
    pub fn board_on_screen(&self, x: f32, y: f32) -> Option<egui::Pos2> {
        Some(self.rt.transform?.to_screen(x, y))
    }

    /// The last status message.
    #[must_use]
    pub fn status(&self) -> Option<&Status> {
        self.rt.status.as_ref()
    }

    /// What no longer fits after switching the scenario's ruleset.
    #[must_use]
    pub fn scenario_problems(&self) -> &[String] {
        &self.rt.scenario_problems
    }

    fn say(&mut self, text: impl Into<String>) {
        self.rt.status = Some(Status {
            text: text.into(),
            error: false,
        });
    }

    fn fail(&mut self, text: impl Into<String>) {
        self.rt.status = Some(Status {
            text: text.into(),
            error: true,
        });
    }

    fn remember(&mut self, p: &Path) {
        let p = tidy_path(p);
        self.saved.recent.retain(|x| x != &p);
        self.saved.recent.insert(0, p);
        self.saved.recent.truncate(MAX_RECENT);
    }

    fn load_checked(path: &Path) -> Result<Ruleset, String> {
        let r = load::load_ruleset(path).map_err(|d| d.to_string())?;
        hooks_for(&r).map_err(|d| d.to_string())?;
        Ok(r)
    }

    fn set_ruleset(&mut self, r: Ruleset) {
        self.rt.terrain_colors = terrain_colors(&r);
        self.rt.bench = Some(Workbench::new(r, self.rt.scratch.path()));
        self.rt.texts.clear();
        self.rt.chart = None;
        self.rt.reload_error = None;
        self.rewatch();
    }

    fn open_ruleset(&mut self, path: &Path) {
        let path = tidy_path(path);
        match Self::load_checked(&path) {
            Ok(r) => {
                let name = r.rules.identity.name.clone();
                self.set_ruleset(r);
                self.remember(&path);
                if self.rt.scenario_path.is_some() {
                    self.recheck_scenario();
                } else {
                    self.say(format!("opened ruleset {name} ({})", path.display()));
                }
            }
            Err(e) => self.fail(e),
        }
    }

    /// Opens a scenario: under the ruleset already open when `keep_ruleset`, otherwise
    /// under the ruleset the scenario names.
    fn open_scenario(&mut self, path: &Path, keep_ruleset: bool) {
        let path = tidy_path(path);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => return self.fail(format!("{}: cannot read: {e}", path.display())),
        };
        if !keep_ruleset || self.rt.bench.is_none() {
            match load::load_scenario(&path, None) {
                Ok(s) => {
                    let r = tidy_ruleset(s.ruleset);
                    match hooks_for(&r) {
                        Ok(_) => self.set_ruleset(r),
                        Err(d) => return self.fail(d.to_string()),
                    }
                }
                Err(d) => return self.fail(d.to_string()),
            }
        }
        self.rt.scenario_path = Some(path.clone());
        self.rt.scenario_text = text;
        self.remember(&path);
        self.recheck_scenario();
        self.rewatch();
    }

    /// Checks the open scenario against the ruleset in force and, when it fits, starts it.
    /// When it does not, explains piece by piece what no longer fits.
    fn recheck_scenario(&mut self) {
        let (Some(path), Some(bench)) = (&self.rt.scenario_path, &self.rt.bench) else {
            return;
        };
        let name = load::display(path);
        let ruleset = bench.current.clone();
        let rname = ruleset.rules.identity.name.clone();
        let built = load::scenario_from_text(&name, &self.rt.scenario_text, &ruleset)
            .map_err(|d| explain_pieces(&d, &self.rt.scenario_text))
            .and_then(|s| Session::start(s, &[]).map_err(|e| vec![e]));
        match built {
            Ok(session) => {
                self.rt.scenario_problems.clear();
                self.rt.session = Some(session);
                self.rt.selected = None;
                self.rt.reach = None;
                self.rt.path.clear();
                self.rt.view = ViewAs::Referee;
                self.say(format!("{name} started under {rname}"));
            }
            Err(problems) => {
                let n = problems.len();
                self.rt.scenario_problems = problems;
                self.fail(format!(
                    "{name} does not fit ruleset {rname}: {n} problem(s), see the Play tab"
                ));
            }
        }
    }

    fn rewatch(&mut self) {
        let mut files: Vec<PathBuf> = Vec::new();
        if let Some(b) = &self.rt.bench {
            files.extend(b.base.layers.iter().cloned());
            files.extend(b.base.scripts.iter().map(|s| s.path.clone()));
        }
        if let Some(s) = &self.rt.scenario_path {
            files.push(s.clone());
        }
        self.rt.watch.files = files
            .into_iter()
            .map(|p| {
                let m = modified(&p);
                (p, m)
            })
            .collect();
    }

    /// Reloads files that changed on disk; on error keeps the last good version.
    pub fn check_files(&mut self) {
        let mut changed = Vec::new();
        for (p, m) in &mut self.rt.watch.files {
            let now = modified(p);
            if now != *m {
                *m = now;
                changed.push(p.clone());
            }
        }
        if changed.is_empty() {
            return;
        }
        let scenario_changed = self
            .rt
            .scenario_path
            .as_ref()
            .is_some_and(|s| changed.contains(s));
        let ruleset_changed = changed.len() > usize::from(scenario_changed);
        if ruleset_changed && let Some(base) = self.rt.bench.as_ref().map(|b| b.base.path.clone()) {
            match Self::load_checked(&base) {
                Ok(r) => {
                    self.rt.terrain_colors = terrain_colors(&r);
                    if let Some(b) = &mut self.rt.bench {
                        b.rebase(r);
                    }
                    self.rt.reload_error = None;
                    self.say(format!("reloaded {}", base.display()));
                }
                Err(e) => {
                    self.rt.reload_error = Some(e.clone());
                    self.fail(format!("reload failed, the last good ruleset stays: {e}"));
                }
            }
        }
        if scenario_changed
            && let Some(p) = self.rt.scenario_path.clone()
            && let Ok(text) = std::fs::read_to_string(&p)
        {
            self.rt.scenario_text = text;
        }
        if self.rt.reload_error.is_none() {
            self.recheck_scenario();
        }
        self.rewatch();
    }

    /// Draws one frame and applies what it asked for.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        if !self.rt.fonts_installed {
            self.rt.fonts_installed = true;
            install_fonts(ui.ctx());
        }
        if self
            .rt
            .watch
            .last
            .is_none_or(|t| t.elapsed() >= WATCH_EVERY)
        {
            self.rt.watch.last = Some(Instant::now());
            self.check_files();
        }
        let mut out = Vec::new();
        egui::Panel::top("top bar").show(ui, |ui| self.top_bar(ui, &mut out));
        egui::Panel::bottom("status").show(ui, |ui| self.status_line(ui));
        if self.rt.prompt.is_some() {
            egui::Panel::top("path prompt").show(ui, |ui| self.prompt_ui(ui, &mut out));
        }
        match self.saved.tab {
            Tab::Rules => {
                egui::CentralPanel::default_margins().show(ui, |ui| self.rules_tab(ui, &mut out));
            }
            Tab::Charts => {
                egui::CentralPanel::default_margins().show(ui, |ui| self.charts_tab(ui, &mut out));
            }
            Tab::Diff => {
                egui::CentralPanel::default_margins().show(ui, |ui| self.diff_tab(ui, &mut out));
            }
            Tab::Play => self.play_tab(ui, &mut out),
        }
        out.append(&mut self.rt.commands);
        if !out.is_empty() {
            // What the commands changed is drawn in the next frame, without waiting for input.
            ui.ctx().request_repaint();
        }
        for c in out {
            self.apply(c);
        }
    }

    fn top_bar(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        ui.horizontal_wrapped(|ui| {
            let current = self.rt.bench.as_ref().map_or("no ruleset".to_owned(), |b| {
                b.current.rules.identity.name.clone()
            });
            egui::ComboBox::from_label("Ruleset")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    ui.label(RichText::new("Bundled").strong());
                    for p in bundled_rulesets() {
                        if ui
                            .selectable_label(false, p.display().to_string())
                            .clicked()
                        {
                            out.push(Command::Chosen(FilePurpose::OpenRuleset, p));
                        }
                    }
                    if !self.saved.recent.is_empty() {
                        ui.separator();
                        ui.label(RichText::new("Recent").strong());
                        for p in &self.saved.recent {
                            if ui
                                .selectable_label(false, format!("recent: {}", p.display()))
                                .clicked()
                            {
                                let purpose = if load::sniff(p) == Ok(load::FileKind::Scenario) {
                                    FilePurpose::OpenScenario
                                } else {
                                    FilePurpose::OpenRuleset
                                };
                                out.push(Command::Chosen(purpose, p.clone()));
                            }
                        }
                    }
                });
            if ui.button("Open ruleset…").clicked() {
                out.push(Command::Ask(FilePurpose::OpenRuleset));
            }
            egui::ComboBox::from_label("Scenario")
                .selected_text(
                    self.rt
                        .scenario_path
                        .as_ref()
                        .map_or("none".to_owned(), |p| p.display().to_string()),
                )
                .show_ui(ui, |ui| {
                    for p in example_scenarios() {
                        if ui
                            .selectable_label(false, p.display().to_string())
                            .clicked()
                        {
                            out.push(Command::Chosen(FilePurpose::OpenScenario, p));
                        }
                    }
                });
            if ui.button("Open scenario…").clicked() {
                out.push(Command::Ask(FilePurpose::OpenScenario));
            }
            ui.separator();
            for (tab, name) in [
                (Tab::Rules, "Rules"),
                (Tab::Charts, "Charts"),
                (Tab::Diff, "Diff"),
                (Tab::Play, "Play"),
            ] {
                if ui.selectable_label(self.saved.tab == tab, name).clicked() {
                    out.push(Command::Tab(tab));
                }
            }
        });
    }

    fn status_line(&self, ui: &mut egui::Ui) {
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
            None => {
                ui.label("Open a ruleset or a scenario to begin.");
            }
        }
    }

    fn prompt_ui(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
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
    fn field_ui(&self, ui: &mut egui::Ui, path: &[String], name: &str, out: &mut Vec<Command>) {
        let Some(bench) = &self.rt.bench else {
            return;
        };
        let mut text = self
            .rt
            .texts
            .get(path)
            .cloned()
            .unwrap_or_else(|| shown(bench.value(path)));
        let changed_from_base = bench.value(path) != bench.base_value(path);
        ui.horizontal(|ui| {
            let mut edit = egui::TextEdit::singleline(&mut text).desired_width(64.0);
            if changed_from_base {
                edit = edit.text_color(Color32::from_rgb(200, 120, 0));
            }
            let r = ui.add(edit).accessible_name(name);
            if r.changed() {
                out.push(Command::SetField(path.to_vec(), text.clone()));
            }
            if let Some(e) = bench.field_errors.get(path) {
                ui.colored_label(Color32::RED, format!("⚠ {e}"))
                    .on_hover_text(bench.problems.join("\n"));
            }
        });
    }

    fn rules_tab(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(bench) = &self.rt.bench else {
            ui.label("No ruleset open.");
            return;
        };
        let spec = &bench.current.spec;
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading(format!(
                "{} — {}",
                bench.current.rules.identity.name,
                spec.title.clone().unwrap_or_default()
            ));
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
                        let text = match &o.value.description {
                            Some(d) => format!("{} — {d}", o.name.value),
                            None => o.name.value.clone(),
                        };
                        if ui.checkbox(&mut on, text).changed() {
                            out.push(Command::SetField(path, on.to_string()));
                        }
                    }
                });
            ui.separator();
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
                            ui.label(m);
                        });
                    }
                })
                .body(|mut body| {
                    for t in &types {
                        body.row(24.0, |mut row| {
                            row.col(|ui| {
                                ui.label(t);
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
            ui.separator();
            ui.label(
                RichText::new("Terrain costs (extra to enter; blank = the step's cost)").strong(),
            );
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
                            ui.label(t);
                        });
                    }
                })
                .body(|mut body| {
                    for c in &classes {
                        body.row(24.0, |mut row| {
                            row.col(|ui| {
                                ui.label(c);
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
            ui.separator();
            ui.label(RichText::new("Stacking limits").strong());
            egui::Grid::new("stacking").striped(true).show(ui, |ui| {
                for s in spec.stacking.names() {
                    ui.label(format!("{s} capacity"));
                    self.field_ui(
                        ui,
                        &field(&["stacking", s, "capacity"]),
                        &format!("{s} capacity"),
                        out,
                    );
                    ui.end_row();
                    for t in &types {
                        ui.label(format!("  {t} counts"));
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
            ui.separator();
            ui.label(RichText::new("Board steps").strong());
            egui::Grid::new("geometry").show(ui, |ui| {
                for key in ["orthogonal", "diagonal", "step"] {
                    if bench
                        .value(&field(&["geometry", key]))
                        .is_some_and(|v| !v.is_null())
                    {
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
        });
    }

    fn charts_tab(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(bench) = &self.rt.bench else {
            ui.label("No ruleset open.");
            return;
        };
        let names: Vec<String> = bench
            .current
            .spec
            .charts
            .names()
            .map(str::to_owned)
            .collect();
        let Some(chart) = self.rt.chart.clone().or_else(|| names.first().cloned()) else {
            ui.label("This ruleset has no charts.");
            return;
        };
        egui::ComboBox::from_label("Chart")
            .selected_text(&chart)
            .show_ui(ui, |ui| {
                for n in &names {
                    if ui.selectable_label(*n == chart, n).clicked() {
                        out.push(Command::ShowChart(n.clone()));
                    }
                }
            });
        egui::ScrollArea::vertical().show(ui, |ui| {
            let rows_path = field(&["charts", &chart, "rows"]);
            let band_rows = field(&["charts", &chart, "bands", "rows"]);
            for (title, list) in [("Rows", rows_path), ("Bands", band_rows)] {
                let Some(serde_json::Value::Array(rows)) = bench.value(&list) else {
                    continue;
                };
                ui.label(RichText::new(title).strong());
                egui::Grid::new(format!("{chart} {title}"))
                    .striped(true)
                    .show(ui, |ui| {
                        for (i, row) in rows.iter().enumerate() {
                            let serde_json::Value::Object(cells) = row else {
                                continue;
                            };
                            ui.label(format!("row {}", i + 1));
                            for (key, v) in cells {
                                if v.is_object() || v.is_array() {
                                    continue;
                                }
                                ui.label(key);
                                let mut path = list.clone();
                                path.push(i.to_string());
                                path.push(key.clone());
                                self.field_ui(
                                    ui,
                                    &path,
                                    &format!("{chart} row {} {key}", i + 1),
                                    out,
                                );
                            }
                            ui.end_row();
                        }
                    });
            }
            if bench
                .value(&field(&["charts", &chart, "otherwise"]))
                .is_some_and(|v| !v.is_null())
            {
                ui.horizontal(|ui| {
                    ui.label("otherwise");
                    self.field_ui(
                        ui,
                        &field(&["charts", &chart, "otherwise"]),
                        &format!("{chart} otherwise"),
                        out,
                    );
                });
            }
            if let Some(serde_json::Value::Array(mods)) =
                bench.value(&field(&["charts", &chart, "modifiers"]))
            {
                ui.label(RichText::new("Modifiers").strong());
                egui::Grid::new(format!("{chart} modifiers"))
                    .striped(true)
                    .show(ui, |ui| {
                        for (i, m) in mods.iter().enumerate() {
                            let name = m.get("name").and_then(|v| v.as_str()).unwrap_or("?");
                            ui.label(name);
                            ui.label("per");
                            self.field_ui(
                                ui,
                                &field(&["charts", &chart, "modifiers", &i.to_string(), "per"]),
                                &format!("{chart} modifier {name} per"),
                                out,
                            );
                            ui.end_row();
                        }
                    });
            }
            ui.separator();
            self.odds_ui(ui, bench, &chart, out);
        });
    }

    fn odds_ui(&self, ui: &mut egui::Ui, bench: &Workbench, chart: &str, out: &mut Vec<Command>) {
        let now = &bench.current.rules;
        let Some(def) = now.chart_by_name(chart).and_then(|id| now.chart(id)) else {
            return;
        };
        ui.label(RichText::new("Exact odds, before → after").strong());
        let mut set = Vec::new();
        ui.horizontal_wrapped(|ui| {
            for (i, input) in def.inputs.iter().enumerate() {
                let key = (chart.to_owned(), input.name.clone());
                let mut v = self
                    .rt
                    .chart_inputs
                    .get(&key)
                    .copied()
                    .unwrap_or(input.default);
                let label = ui.label(&input.name);
                let r = ui
                    .add(egui::DragValue::new(&mut v).range(input.min..=input.max))
                    .labelled_by(label.id);
                if r.changed() {
                    out.push(Command::ChartInput(input.name.clone(), v));
                }
                set.push((i, v));
            }
        });
        let after = chart_case(def, &now.dice, &set);
        let before_rules = &bench.base.rules;
        let before = before_rules
            .chart_by_name(chart)
            .and_then(|id| before_rules.chart(id))
            .map(|b| {
                let set: Vec<(usize, i32)> = def
                    .inputs
                    .iter()
                    .zip(&set)
                    .filter_map(|(inp, (_, v))| {
                        b.inputs
                            .iter()
                            .position(|x| x.name == inp.name)
                            .map(|j| (j, *v))
                    })
                    .collect();
                (b.outcomes.clone(), chart_case(b, &before_rules.dice, &set))
            });
        let mut bars_before = Vec::new();
        let mut bars_after = Vec::new();
        for (i, name) in def.outcomes.iter().enumerate() {
            let now_p = after.odds.get(i).map_or(0.0, |p| percent(*p));
            let was = before.as_ref().and_then(|(names, case)| {
                names
                    .iter()
                    .position(|n| n == name)
                    .and_then(|j| case.odds.get(j))
                    .map(|p| percent(*p))
            });
            let text = match was {
                Some(w) => format!("{name}: {w:.2}% → {now_p:.2}%"),
                None => format!("{name}: new, {now_p:.2}%"),
            };
            ui.label(text);
            bars_after.push(
                egui_plot::Bar::new(i as f64 + 0.2, now_p)
                    .width(0.38)
                    .name(name),
            );
            if let Some(w) = was {
                bars_before.push(
                    egui_plot::Bar::new(i as f64 - 0.2, w)
                        .width(0.38)
                        .name(name),
                );
            }
        }
        if !after.modifiers.is_empty() {
            let m: Vec<String> = after
                .modifiers
                .iter()
                .map(|m| format!("{:+} {}", m.value, m.name))
                .collect();
            ui.label(format!("modifiers: {}", m.join(", ")));
        }
        let outcomes = def.outcomes.clone();
        egui_plot::Plot::new(format!("odds {chart}"))
            .height(180.0)
            .legend(egui_plot::Legend::default())
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .include_y(0.0)
            .include_y(100.0)
            .x_axis_formatter(move |mark, _| {
                let i = mark.value.round();
                if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                    outcomes.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .show(ui, |plot| {
                plot.bar_chart(
                    egui_plot::BarChart::new("before", bars_before).color(Color32::GRAY),
                );
                plot.bar_chart(
                    egui_plot::BarChart::new("after", bars_after)
                        .color(Color32::from_rgb(220, 140, 0)),
                );
            });
    }

    fn diff_tab(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
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

    fn acting_side(&self) -> Option<SideId> {
        let s = self.rt.session.as_ref()?;
        if let ViewAs::Side(side) = self.rt.view {
            return Some(side);
        }
        let (phase, phasing) = s.game.phase()?;
        let done = &s.game.state().done;
        let sides = s.game.sides().len();
        let first_not_done = |skip: Option<SideId>| {
            (0..sides)
                .map(|i| SideId(i as u8))
                .find(|x| Some(*x) != skip && !done.get(x.index()).copied().unwrap_or(false))
        };
        match phase.actor {
            Actor::Phasing => Some(phasing),
            Actor::NonPhasing => first_not_done(Some(phasing)),
            Actor::Both => first_not_done(None),
        }
    }

    fn play_tab(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        if !self.rt.scenario_problems.is_empty() {
            egui::Panel::top("scenario problems").show(ui, |ui| {
                ui.colored_label(
                    Color32::RED,
                    "The scenario does not fit the ruleset in force. What no longer fits:",
                );
                for p in &self.rt.scenario_problems {
                    ui.colored_label(Color32::RED, p);
                }
            });
        }
        let Some(session) = &self.rt.session else {
            egui::CentralPanel::default_margins().show(ui, |ui| {
                ui.label("No game: open a scenario (the Scenario menu lists examples/).");
            });
            return;
        };
        let game = &session.game;
        let stale = self
            .rt
            .bench
            .as_ref()
            .is_some_and(|b| b.current.rules.identity != game.rules().identity);
        egui::Panel::top("phase bar").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                match game.phase() {
                    Some((phase, side)) => {
                        let side = game
                            .sides()
                            .get(side.index())
                            .map_or("?", |s| s.name.as_str());
                        ui.label(
                            RichText::new(format!(
                                "Turn {} of {} · {} phase · {side} phasing",
                                game.state().turn,
                                game.turns(),
                                phase.name
                            ))
                            .strong(),
                        );
                    }
                    None => {
                        ui.label(RichText::new("Game over").strong());
                    }
                }
                if let Some(a) = self.acting_side() {
                    ui.label(format!(
                        "acting: {}",
                        game.sides().get(a.index()).map_or("?", |s| s.name.as_str())
                    ));
                }
                if ui
                    .add_enabled(game.phase().is_some(), egui::Button::new("End phase"))
                    .clicked()
                {
                    out.push(Command::EndPhase);
                }
                if ui
                    .add_enabled(session.can_undo(), egui::Button::new("Undo"))
                    .clicked()
                {
                    out.push(Command::Undo);
                }
                ui.separator();
                egui::ComboBox::from_label("View as")
                    .selected_text(view_label(game, self.rt.view))
                    .show_ui(ui, |ui| {
                        let mut views = vec![ViewAs::Referee];
                        views
                            .extend((0..game.sides().len()).map(|i| ViewAs::Side(SideId(i as u8))));
                        for v in views {
                            if ui
                                .selectable_label(self.rt.view == v, view_label(game, v))
                                .clicked()
                            {
                                out.push(Command::ViewAs(v));
                            }
                        }
                    });
                let mut hot = self.saved.hot_seat;
                if ui.checkbox(&mut hot, "Hot-seat").changed() {
                    out.push(Command::HotSeat(hot));
                }
                if ui.button("Save game…").clicked() {
                    out.push(Command::Ask(FilePurpose::SaveGame));
                }
                if ui.button("Load game…").clicked() {
                    out.push(Command::Ask(FilePurpose::LoadGame));
                }
                if stale && ui.button("Restart with edited rules").clicked() {
                    out.push(Command::Restart);
                }
            });
        });
        if self.rt.screen_hidden {
            egui::CentralPanel::default_margins().show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(120.0);
                    ui.heading(format!(
                        "Pass the screen to {}",
                        view_label(game, self.rt.view)
                    ));
                    if ui.button("Show board").clicked() {
                        out.push(Command::Reveal);
                    }
                });
            });
            return;
        }
        let pieces = pieces_for(game, self.rt.view);
        egui::Panel::left("pieces")
            .default_size(150.0)
            .show(ui, |ui| {
                ui.label(RichText::new("Pieces").strong());
                let listed: Vec<&DrawPiece> = pieces
                    .iter()
                    .filter(|p| p.look == board::Look::Open)
                    .collect();
                let row = ui.text_style_height(&egui::TextStyle::Button)
                    + 2.0 * ui.spacing().button_padding.y
                    + ui.spacing().item_spacing.y;
                // Only the rows in sight are laid out: a big game has hundreds of pieces.
                egui::ScrollArea::vertical().show_rows(ui, row, listed.len(), |ui, range| {
                    for p in &listed[range] {
                        let side = game
                            .sides()
                            .get(p.side.index())
                            .map_or("?", |s| s.name.as_str());
                        let selected = self.rt.selected == Some(p.id);
                        let text = RichText::new(format!("{} ({side} {})", p.name, p.kind))
                            .color(board::side_color(p.side));
                        if ui.selectable_label(selected, text).clicked() {
                            out.push(Command::Select(Some(p.id)));
                        }
                    }
                });
            });
        egui::Panel::right("piece panel")
            .default_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    self.piece_panel(ui, &pieces, out);
                    ui.separator();
                    ui.label(RichText::new("Dice log").strong());
                    let ruleset = &session.scenario.ruleset;
                    let events = match self.rt.view {
                        ViewAs::Referee => game.log(),
                        ViewAs::Side(side) => game.events_for(side),
                    };
                    let log = dice_log(ruleset, events);
                    if log.is_empty() {
                        ui.label("No dice rolled yet.");
                    }
                    for entry in log.iter().rev() {
                        for (i, line) in entry.iter().enumerate() {
                            if i == 0 {
                                ui.label(RichText::new(line).strong());
                            } else {
                                ui.label(line);
                            }
                        }
                    }
                });
            });
        let overlay = self.overlay();
        let colors = self.rt.terrain_colors.clone();
        let mut camera = self.saved.camera;
        let mut result = None;
        egui::CentralPanel::default_margins().show(ui, |ui| {
            let scene = BoardScene {
                rules: game.rules(),
                board: game.board(),
                terrain_colors: &colors,
                pieces: &pieces,
                overlay: &overlay,
            };
            result = Some(board::show(ui, &scene, &mut camera));
        });
        self.saved.camera = camera;
        if let Some((click, t)) = result {
            self.rt.transform = Some(t);
            if let Some(c) = click.cell {
                out.push(Command::ClickCell(c));
            } else if let Some(p) = click.point {
                if click.piece.is_some() && self.rt.selected != click.piece {
                    out.push(Command::Select(click.piece));
                } else {
                    out.push(Command::ClickPoint(p));
                }
            } else if click.piece.is_some() {
                out.push(Command::Select(click.piece));
            }
        }
        self.rt.drawn = pieces;
    }

    fn overlay(&self) -> Overlay {
        let mut o = Overlay {
            selected: self.rt.selected,
            ..Overlay::default()
        };
        match &self.rt.reach {
            Some(Reach::Cells(cells)) => {
                o.reach_cells = cells.iter().map(|r| (r.cell, r.cost.to_string())).collect();
            }
            Some(Reach::Radius(r)) => {
                if let Some(Place::Point { at, .. }) = self
                    .rt
                    .selected
                    .and_then(|id| self.rt.session.as_ref()?.game.piece(id))
                    .map(|p| p.place.clone())
                {
                    o.reach_radius = Some((at, r.hundredths() as f32 / 100.0));
                }
            }
            None => {}
        }
        if let Some(start) = self
            .rt
            .selected
            .and_then(|id| self.rt.session.as_ref()?.game.piece(id)?.place.cell())
            && !self.rt.path.is_empty()
        {
            o.path.push(start);
            o.path.extend(self.rt.path.iter().copied());
        }
        o
    }

    fn piece_panel(&self, ui: &mut egui::Ui, pieces: &[DrawPiece], out: &mut Vec<Command>) {
        let Some(session) = &self.rt.session else {
            return;
        };
        let game = &session.game;
        let Some(id) = self.rt.selected else {
            ui.label("Select a piece on the board or in the list.");
            return;
        };
        let Some(p) = game.piece(id) else {
            return;
        };
        let rules = game.rules();
        let kind = rules.piece_type(p.kind).map_or("?", |t| t.name.as_str());
        ui.label(
            RichText::new(format!(
                "{} — {kind}, {} mode",
                p.name,
                rules.mode_name(p.mode)
            ))
            .strong(),
        );
        if let Some(d) = pieces.iter().find(|d| d.id == id) {
            for m in &d.markers {
                ui.label(format!("marker: {m}"));
            }
        }
        match &self.rt.reach {
            Some(Reach::Cells(cells)) => {
                ui.label(format!("{} can reach {} places", p.name, cells.len()));
                egui::CollapsingHeader::new("Reach (cell, cost)")
                    .id_salt("reach list")
                    .show(ui, |ui| {
                        let mut sorted: Vec<_> = cells.iter().collect();
                        sorted.sort_by_key(|r| (r.cost, r.cell.row, r.cell.col));
                        for r in sorted {
                            ui.label(format!("{} costs {}", r.cell, r.cost));
                        }
                    });
            }
            Some(Reach::Radius(r)) => {
                ui.label(format!(
                    "{} can move up to {r}\" in a straight line",
                    p.name
                ));
            }
            None => {
                ui.label(format!("{} cannot move now", p.name));
            }
        }
        if !self.rt.path.is_empty() {
            let text: Vec<String> = self.rt.path.iter().map(ToString::to_string).collect();
            ui.label(format!("path: {}", text.join(" → ")));
            ui.horizontal(|ui| {
                if ui.button("Move").clicked() {
                    out.push(Command::MoveAlongPath);
                }
                if ui.button("Clear path").clicked() {
                    out.push(Command::ClearPath);
                }
            });
        }
        egui::CollapsingHeader::new("More orders")
            .id_salt("more orders")
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    for (kind, name) in [
                        (CellOrder::Redeploy, "Redeploy to…"),
                        (CellOrder::Extend, "Extend to…"),
                        (CellOrder::Save, "Save toward…"),
                    ] {
                        if ui
                            .selectable_label(self.rt.pending == Some(kind), name)
                            .clicked()
                        {
                            out.push(Command::CellOrder(
                                (self.rt.pending != Some(kind)).then_some(kind),
                            ));
                        }
                    }
                    if ui.button("Gather").clicked() {
                        out.push(Command::Gather);
                    }
                });
                if self.rt.pending.is_some() {
                    ui.label("Click the cell on the board.");
                }
            });
        let allowed: Vec<Allowed> = game
            .phase()
            .map(|(ph, _)| ph.allows.clone())
            .unwrap_or_default();
        if allowed.contains(&Allowed::Mode) {
            ui.horizontal_wrapped(|ui| {
                ui.label("mode:");
                for (i, m) in rules.modes.iter().enumerate() {
                    let mode = ModeId(i as u16);
                    if mode != p.mode && ui.button(format!("Mode {}", m.name)).clicked() {
                        out.push(Command::Mode(mode));
                    }
                }
            });
        }
        if allowed.contains(&Allowed::Face)
            && let Some(grid) = game.board().grid()
        {
            ui.horizontal_wrapped(|ui| {
                ui.label("face:");
                for f in 0..grid.facings() {
                    let facing = Facing(f);
                    if facing != p.facing
                        && ui
                            .button(format!("Face {}", grid.facing_name(facing)))
                            .clicked()
                    {
                        out.push(Command::Face(facing));
                    }
                }
            });
        }
        for a in &allowed {
            let Allowed::Action(aid) = a else { continue };
            let Some(def) = rules.actions.get(aid.index()) else {
                continue;
            };
            match def.target {
                TargetRule::None => {
                    if ui.button(def.name.to_string()).clicked() {
                        out.push(Command::Act(*aid, None));
                    }
                }
                TargetRule::Enemy | TargetRule::Friend => {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(format!("{}:", def.name));
                        for t in pieces.iter().filter(|t| {
                            t.look == board::Look::Open
                                && t.id != id
                                && (t.side == p.side) == (def.target == TargetRule::Friend)
                        }) {
                            if ui.button(format!("{} {}", def.name, t.name)).clicked() {
                                out.push(Command::Act(*aid, Some(t.id)));
                            }
                        }
                    });
                }
            }
        }
    }

    fn refresh_reach(&mut self) {
        self.rt.reach = None;
        let Some(id) = self.rt.selected else {
            return;
        };
        let view = self.rt.view;
        if let Some(s) = &mut self.rt.session {
            // The game is cloned so the hooks can be borrowed alongside it.
            let game = s.game.clone();
            self.rt.reach = match view {
                ViewAs::Referee => game.reach(id, s.hooks()).ok(),
                ViewAs::Side(side) => game.reach_as(side, id, s.hooks()).ok(),
            };
        }
    }

    fn order(&mut self, action: Action, side: Option<SideId>) {
        let Some(side) = side.or_else(|| self.acting_side()) else {
            return self.fail("no side can act now");
        };
        let before = self.acting_side_after_hidden();
        let Some(session) = &mut self.rt.session else {
            return;
        };
        match session.apply(Order { side, action }) {
            Ok(events) => {
                self.say(format!("done ({} events)", events.len()));
                self.rt.path.clear();
                self.refresh_reach();
                let after = self.acting_side_after_hidden();
                if self.saved.hot_seat
                    && after != before
                    && let Some(next) = after
                {
                    self.rt.view = ViewAs::Side(next);
                    self.rt.screen_hidden = true;
                    self.rt.selected = None;
                    self.rt.reach = None;
                }
            }
            Err(e) => self.fail(format!("refused: {e}")),
        }
    }

    /// The side acting by the phase alone (ignoring "View as").
    fn acting_side_after_hidden(&self) -> Option<SideId> {
        let s = self.rt.session.as_ref()?;
        let (phase, phasing) = s.game.phase()?;
        let done = &s.game.state().done;
        let n = s.game.sides().len();
        let first = |skip: Option<SideId>| {
            (0..n)
                .map(|i| SideId(i as u8))
                .find(|x| Some(*x) != skip && !done.get(x.index()).copied().unwrap_or(false))
        };
        match phase.actor {
            Actor::Phasing => Some(phasing),
            Actor::NonPhasing => first(Some(phasing)),
            Actor::Both => first(None),
        }
    }

    fn selected_piece(&self) -> Option<(PieceId, SideId, Place)> {
        let id = self.rt.selected?;
        let p = self.rt.session.as_ref()?.game.piece(id)?;
        Some((id, p.side, p.place.clone()))
    }

    fn ask(&mut self, purpose: FilePurpose) {
        if self.rt.native_dialogs {
            let mut dialog = rfd::FileDialog::new()
                .set_title(purpose.title())
                .add_filter(
                    if matches!(purpose, FilePurpose::SaveGame | FilePurpose::LoadGame) {
                        "grognard save"
                    } else {
                        "YAML"
                    },
                    if matches!(purpose, FilePurpose::SaveGame | FilePurpose::LoadGame) {
                        &["json"]
                    } else {
                        &["yaml", "yml"]
                    },
                );
            if let Ok(cwd) = std::env::current_dir() {
                dialog = dialog.set_directory(cwd);
            }
            let started = Instant::now();
            let picked = if purpose.saves() {
                dialog.save_file()
            } else {
                dialog.pick_file()
            };
            if let Some(p) = picked {
                return self.apply(Command::Chosen(purpose, p));
            }
            // A dialog closed by the user takes a moment; one that returns at once was
            // never shown (no desktop portal): ask for the path instead.
            if started.elapsed() > Duration::from_millis(300) {
                return;
            }
        }
        let text = match purpose {
            FilePurpose::SaveHouseRule => self
                .rt
                .bench
                .as_ref()
                .map(|b| format!("rulesets/{}.yaml", b.name))
                .unwrap_or_default(),
            FilePurpose::SaveGame => "game.json".into(),
            _ => String::new(),
        };
        self.rt.prompt = Some(PathPrompt {
            purpose,
            text,
            note: if self.rt.native_dialogs {
                "No desktop file dialog is available here; type a path instead.".into()
            } else {
                "Type a path (relative to the folder the editor was started in).".into()
            },
        });
    }

    /// Applies one command.
    pub fn apply(&mut self, c: Command) {
        match c {
            Command::Tab(t) => self.saved.tab = t,
            Command::Ask(p) => self.ask(p),
            Command::CancelAsk => self.rt.prompt = None,
            Command::Chosen(purpose, path) => {
                self.rt.prompt = None;
                self.chosen(purpose, &path);
            }
            Command::SetField(path, text) => {
                let Some(bench) = &mut self.rt.bench else {
                    return;
                };
                let ok = bench.set_text(&path, &text);
                self.rt.texts.insert(path, text);
                if ok {
                    self.rt.terrain_colors = terrain_colors(&bench.current);
                }
            }
            Command::RenameHouse(name) => {
                if let Some(b) = &mut self.rt.bench {
                    b.rename(&name);
                }
            }
            Command::Revert => {
                if let Some(b) = &mut self.rt.bench {
                    b.revert();
                }
                self.rt.texts.clear();
            }
            Command::ShowChart(name) => self.rt.chart = Some(name),
            Command::ChartInput(name, v) => {
                let chart = self.rt.chart.clone().or_else(|| {
                    self.rt
                        .bench
                        .as_ref()
                        .and_then(|b| b.current.spec.charts.names().next().map(str::to_owned))
                });
                if let Some(chart) = chart {
                    self.rt.chart_inputs.insert((chart, name), v);
                }
            }
            Command::Restart => self.recheck_scenario(),
            Command::Select(id) => {
                self.rt.pending = None;
                // Seen as a side, only that side's own pieces can be picked up: what the
                // panel would show of an enemy piece is the referee's knowledge.
                let foreign = match (self.rt.view, id) {
                    (ViewAs::Side(side), Some(id)) => self
                        .rt
                        .session
                        .as_ref()
                        .and_then(|s| s.game.piece(id))
                        .is_none_or(|p| p.side != side),
                    _ => false,
                };
                if foreign {
                    return;
                }
                self.rt.selected = id;
                self.rt.path.clear();
                self.refresh_reach();
            }
            Command::ClickCell(cell) => self.click_cell(cell),
            Command::ClickPoint(p) => {
                if let Some((id, side, Place::Point { .. })) = self.selected_piece() {
                    self.order(
                        Action::MoveTo {
                            piece: id,
                            to: p,
                            facing: None,
                        },
                        Some(side),
                    );
                }
            }
            Command::MoveAlongPath => {
                if let Some((id, side, _)) = self.selected_piece()
                    && !self.rt.path.is_empty()
                {
                    let path = self.rt.path.clone();
                    self.order(Action::Move { piece: id, path }, Some(side));
                }
            }
            Command::ClearPath => self.rt.path.clear(),
            Command::Act(action, target) => {
                if let Some((id, side, _)) = self.selected_piece() {
                    self.order(
                        Action::Act {
                            piece: id,
                            action,
                            target,
                            intent: Vec::new(),
                        },
                        Some(side),
                    );
                }
            }
            Command::Face(facing) => {
                if let Some((id, side, _)) = self.selected_piece() {
                    self.order(Action::Face { piece: id, facing }, Some(side));
                }
            }
            Command::Mode(mode) => {
                if let Some((id, side, _)) = self.selected_piece() {
                    self.order(Action::Mode { piece: id, mode }, Some(side));
                }
            }
            Command::CellOrder(kind) => self.rt.pending = kind,
            Command::Gather => {
                if let Some((id, side, _)) = self.selected_piece() {
                    self.order(Action::Gather { piece: id }, Some(side));
                }
            }
            Command::EndPhase => self.order(Action::EndPhase, None),
            Command::Undo => {
                if let Some(s) = &mut self.rt.session {
                    match s.undo() {
                        Ok(()) => {
                            self.rt.path.clear();
                            self.refresh_reach();
                            self.say("undone");
                        }
                        Err(e) => self.fail(e),
                    }
                }
            }
            Command::ViewAs(v) => {
                self.rt.view = v;
                self.rt.screen_hidden = self.saved.hot_seat && v != ViewAs::Referee;
                if let (ViewAs::Side(side), Some((_, owner, _))) = (v, self.selected_piece())
                    && side != owner
                {
                    self.rt.selected = None;
                    self.rt.reach = None;
                    self.rt.path.clear();
                }
            }
            Command::Reveal => self.rt.screen_hidden = false,
            Command::HotSeat(on) => {
                self.saved.hot_seat = on;
                if on && self.rt.view == ViewAs::Referee {
                    self.rt.view = self
                        .acting_side_after_hidden()
                        .map_or(ViewAs::Referee, ViewAs::Side);
                    self.rt.screen_hidden = true;
                }
            }
        }
    }

    fn chosen(&mut self, purpose: FilePurpose, path: &Path) {
        match purpose {
            FilePurpose::OpenRuleset => self.open_ruleset(path),
            FilePurpose::OpenScenario => self.open_scenario(path, false),
            FilePurpose::SaveHouseRule => {
                let Some(bench) = &self.rt.bench else {
                    return;
                };
                match bench.save(path).and_then(|r| {
                    hooks_for(&r).map_err(|d| d.to_string())?;
                    Ok(r)
                }) {
                    Ok(r) => {
                        let msg = format!(
                            "saved house rule {} to {}: it validates and reloads to the same ruleset ({})",
                            r.rules.identity.name,
                            path.display(),
                            &r.rules.identity.hash[..12.min(r.rules.identity.hash.len())]
                        );
                        self.remember(path);
                        self.say(msg);
                    }
                    Err(e) => self.fail(e),
                }
            }
            FilePurpose::SaveGame => {
                if let Some(s) = &self.rt.session {
                    match s.save(path) {
                        Ok(()) => self.say(format!("saved the game to {}", path.display())),
                        Err(e) => self.fail(e),
                    }
                }
            }
            FilePurpose::LoadGame => match Session::load(path) {
                Ok(s) => {
                    let r = s.scenario.ruleset.clone();
                    let scenario = s.scenario.path.clone();
                    let text = std::fs::read_to_string(&scenario).unwrap_or_default();
                    self.set_ruleset(r);
                    self.rt.scenario_path = Some(scenario);
                    self.rt.scenario_text = text;
                    self.rt.scenario_problems.clear();
                    self.rt.session = Some(s);
                    self.rt.selected = None;
                    self.rt.reach = None;
                    self.rewatch();
                    self.say(format!("loaded the game from {}", path.display()));
                }
                Err(e) => self.fail(e),
            },
        }
    }

    fn click_cell(&mut self, cell: Cell) {
        let Some(session) = &self.rt.session else {
            return;
        };
        let game = &session.game;
        let visible: Vec<&DrawPiece> = self
            .rt
            .drawn
            .iter()
            .filter(|p| p.look == board::Look::Open && p.place.covers(cell))
            .collect();
        let Some((id, _, place)) = self.selected_piece() else {
            if let Some(p) = visible.last() {
                let id = p.id;
                self.apply(Command::Select(Some(id)));
            }
            return;
        };
        if let Some(kind) = self.rt.pending.take() {
            let side = self.selected_piece().map(|(_, s, _)| s);
            let action = match kind {
                CellOrder::Redeploy => Action::Redeploy {
                    piece: id,
                    to: cell,
                },
                CellOrder::Extend => Action::Extend {
                    piece: id,
                    to: cell,
                },
                CellOrder::Save => Action::Save {
                    piece: id,
                    toward: cell,
                },
            };
            return self.order(action, side);
        }
        let Some(start) = place.cell() else {
            return;
        };
        if self.rt.path.last() == Some(&cell) {
            return self.apply(Command::MoveAlongPath);
        }
        let end = self.rt.path.last().copied().unwrap_or(start);
        let adjacent = game
            .board()
            .grid()
            .is_some_and(|g| g.direction_to(end, cell).is_some());
        let reachable = match &self.rt.reach {
            Some(Reach::Cells(cells)) => cells.path_to(cell),
            _ => None,
        };
        if cell == start {
            self.rt.path.clear();
        } else if adjacent
            && !(self.rt.path.is_empty() && reachable.is_none() && !visible.is_empty())
        {
            self.rt.path.push(cell);
        } else if let Some(path) = reachable {
            self.rt.path = path;
        } else if let Some(p) = visible.last() {
            let other = p.id;
            if other != id {
                self.apply(Command::Select(Some(other)));
            }
        } else {
            self.fail(format!("{cell} is out of reach"));
        }
    }
}

/// Terrain colours by terrain id (the ruleset's `color`, grey when it has none).
fn terrain_colors(r: &Ruleset) -> Vec<Color32> {
    r.rules
        .terrain
        .iter()
        .map(|t| {
            r.spec
                .terrain
                .get(&t.name)
                .and_then(|s| s.color.as_deref())
                .and_then(board::parse_color)
                .unwrap_or(Color32::from_gray(205))
        })
        .collect()
}

/// A ruleset loaded through a scenario names its file from the scenario; name it as the
/// editor does.
fn tidy_ruleset(mut r: Ruleset) -> Ruleset {
    r.path = tidy_path(&r.path);
    r
}

/// Diagnostics about a scenario, each prefixed with the piece it concerns (the `id:` on
/// the line it points at), so a ruleset switch explains piece by piece what no longer fits.
#[must_use]
pub fn explain_pieces(d: &Diagnostics, text: &str) -> Vec<String> {
    let src: Vec<&str> = text.lines().collect();
    d.sorted()
        .iter()
        .map(|x| {
            let piece = x
                .location
                .as_ref()
                .and_then(|l| src.get((l.line as usize).checked_sub(1)?))
                .and_then(|line| {
                    let at = line.find("id:")?;
                    let rest = line[at + 3..].trim_start();
                    let end = rest
                        .find(|c: char| c == ',' || c == '}' || c.is_whitespace())
                        .unwrap_or(rest.len());
                    Some(
                        rest[..end]
                            .trim_matches(|c| c == '"' || c == '\'')
                            .to_owned(),
                    )
                });
            match piece {
                Some(p) => format!("piece {p}: {x}"),
                None => x.to_string(),
            }
        })
        .collect()
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        // Wake up now and then to notice files changed on disk.
        ui.ctx().request_repaint_after(WATCH_EVERY);
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.saved);
    }
}

/// Adds the monospace font (which has arrows, `→`, and other symbols the rules print) as
/// a fallback of the proportional one.
pub fn install_fonts(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    let mono = fonts
        .families
        .get(&egui::FontFamily::Monospace)
        .cloned()
        .unwrap_or_default();
    if let Some(list) = fonts.families.get_mut(&egui::FontFamily::Proportional) {
        for name in mono {
            if !list.contains(&name) {
                list.push(name);
            }
        }
    }
    ctx.set_fonts(fonts);
}

/// Opens the editor in a window and runs it until it is closed.
///
/// # Errors
/// No window can be opened (no display, no graphics).
pub fn run(options: Options) -> Result<(), String> {
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1440.0, 900.0])
            .with_title("grognard editor"),
        ..Default::default()
    };
    eframe::run_native(
        "grognard editor",
        native,
        Box::new(move |cc| {
            install_fonts(&cc.egui_ctx);
            let saved: Saved = cc
                .storage
                .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                .unwrap_or_default();
            Ok(Box::new(EditorApp::new(saved, options)))
        }),
    )
    .map_err(|e| e.to_string())
}
