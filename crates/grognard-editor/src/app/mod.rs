//! The editor application: saved settings apart from runtime state; panels emit
//! [`Command`]s that are applied once, at the end of the frame.
//!
//! This file keeps [`EditorApp`]'s state, its start-up, file loading and watching, and
//! `show`, which lays out the frame and dispatches to one module per part: `bars.rs` (top
//! bar, status line, path prompt), `rules_tab.rs`, `charts_tab.rs`, `diff_tab.rs`,
//! `play_tab.rs` (with `play_panels.rs`: its bars, piece list and logs; `piece_panel.rs`: the
//! selected piece's order buttons and the kernel's reasons for the greyed ones; `replay.rs`:
//! stepping through a finished game; `play_keys.rs`: the keyboard;
//! `computer.rs`: legal orders and the computer opponent; `thinker.rs`: where a computer
//! seat thinks; and `why.rs`: why the searching computer chose its orders),
//! `simulate_tab.rs`, `tune_tab.rs` (the tuner), `switch.rs` (opening
//! another scenario over unsaved ruleset edits), `remote_tab.rs` (hosting and joining a game on a server, and playing a
//! seat of it), and `commands.rs` (what the panels ask for, applied once per frame).

mod bars;
mod charts_tab;
mod commands;
mod computer;
mod diff_tab;
mod how_to_win;
mod piece_panel;
mod play_keys;
mod play_panels;
mod play_tab;
mod remote_panels;
mod remote_tab;
mod replay;
mod rules_tab;
mod simulate_tab;
mod switch;
mod thinker;
mod tune_tab;
mod waker;
mod why;

pub use crate::words::order_text;
use bars::{COMBO_WIDTH, slot_label};
pub use charts_tab::{
    band_face_test, band_used, modifier_words, odds_input_name, odds_plot_rect, signed,
};
pub use commands::{CellOrder, Command, FilePurpose, RemoteForm, SwitchChoice};
pub use play_panels::off_board;
pub use play_tab::{group_problems, result_words};
pub use remote_panels::legal_heading;
pub use remote_tab::{DEFAULT_SERVER, SERVER_POLICIES, move_to_order, phase_line};
pub use simulate_tab::{ENDED_ON_TURN, count_step, count_top, ended_on_turn};
pub use tune_tab::{default_range, number_matches, number_text};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use egui::Color32;
use grognard_kernel::geometry::Cell;
use grognard_kernel::ids::PieceId;
use grognard_rules::diag::Diagnostics;
use grognard_rules::load::{self, Ruleset};
use serde::{Deserialize, Serialize};

use crate::board::{self, Camera, DrawPiece};

/// Most scenarios whose pan and zoom are remembered.
const MAX_CAMERAS: usize = 32;
use crate::house::Workbench;
use crate::session::{Session, hooks_for};
use crate::view::ViewAs;

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
    /// The folder the editor works in: relative paths (here, typed, or recent) are read
    /// from it, the bundled rulesets and examples are its `rulesets/` and `examples/`, and
    /// the menus name files from it. `None`: the current folder.
    pub root: Option<PathBuf>,
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
    /// Whole games played by a policy: win rates and game lengths, beside the base rules.
    Simulate,
    /// The smallest change to chosen numbers that brings a side's win rate to a target.
    Tune,
    /// A game on a server: host one, join a seat, play it.
    Remote,
}

/// What is kept between runs.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Saved {
    /// Rulesets opened (or saved as house rules) lately, newest first: the Ruleset menu's
    /// Recent list.
    pub recent: Vec<PathBuf>,
    /// Scenarios opened lately, newest first: the Scenario menu's Recent list (the Ruleset
    /// menu listed them too, and a click opened a scenario from it).
    pub recent_scenarios: Vec<PathBuf>,
    /// The open tab.
    pub tab: Tab,
    /// Board pan and zoom, per scenario (by its path): a scenario opens as it was left,
    /// a new one fits the board.
    pub cameras: std::collections::BTreeMap<String, Camera>,
    /// The Play tab's right panel is folded away (the board takes the window).
    pub panel_hidden: bool,
    /// Hide the board between sides (hot-seat play).
    pub hot_seat: bool,
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

/// Files watched for live reload, with their last modification times and a hash of
/// their bytes (a file rewritten with the same content is no change).
#[derive(Debug, Default)]
struct Watch {
    files: Vec<(PathBuf, Option<SystemTime>, Option<u64>)>,
    last: Option<Instant>,
    /// The thread that wakes the window when a file changes (see [`EditorApp::frame`]).
    waker: waker::Waker,
}

fn modified(p: &Path) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

/// A hash of the file's bytes (`None` when it cannot be read).
fn content_hash(p: &Path) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let bytes = std::fs::read(p).ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    Some(h.finish())
}

/// What lives only while the editor runs: what every tab shares (the ruleset being
/// edited, the open scenario and its game, the status line, the watched files), then one
/// state struct per tab.
struct Runtime {
    native_dialogs: bool,
    /// [`Options::root`], made absolute.
    root: Option<PathBuf>,
    scratch: tempfile::TempDir,
    bench: Option<Workbench>,
    session: Option<Session>,
    scenario_path: Option<PathBuf>,
    scenario_text: String,
    /// What no longer fits when the scenario is checked against another ruleset.
    scenario_problems: Vec<String>,
    /// The scenario's problems are its own: it fails under the ruleset it names too (a
    /// plain mistake in the file), so they are not worded as a ruleset mismatch.
    scenario_own_fault: bool,
    /// A scenario chosen over unsaved edits of another ruleset, waiting for the answer to
    /// "save, discard or cancel" (`switch.rs`).
    pending_scenario: Option<PathBuf>,
    status: Option<Status>,
    reload_error: Option<String>,
    /// The files that changed on disk while a game was in play (shown, with a button to
    /// start a new game from them; the game goes on meanwhile).
    disk_changed: Vec<String>,
    /// Each file changed on disk mid-game with the hash the game started with, so a file
    /// put back as it was leaves `disk_changed` again (fourteenth player).
    game_hashes: Vec<(PathBuf, Option<u64>)>,
    watch: Watch,
    prompt: Option<PathPrompt>,
    terrain_colors: Vec<Color32>,
    commands: Vec<Command>,
    fonts_installed: bool,
    /// The Rules and Charts tabs: fields as typed, the chart shown, its odds' inputs.
    edit: charts_tab::EditUi,
    /// The Play tab: selection, planned path, view, the board as last drawn, legal orders,
    /// the event log and the computer players.
    play: play_tab::PlayUi,
    /// The Simulate tab: its run and its last results.
    simulate: simulate_tab::SimulateUi,
    /// The Tune tab: the side, target and items, its run and its answer.
    tune: tune_tab::TuneUi,
    /// The Remote tab: its forms, the game joined, the server started here.
    remote: remote_tab::RemoteUi,
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

/// How a path is kept and loaded. Without a root (the editor works in the current
/// folder): relative to the current folder when inside it (the form the loader itself uses
/// for bases and scripts, so diffs compare like with like). With a root: a relative path is
/// read from the root, and every path is kept absolute, so none depends on the current
/// folder.
#[must_use]
pub fn tidy_path(root: Option<&Path>, p: &Path) -> PathBuf {
    if let Some(r) = root {
        let p = r.join(p);
        return std::fs::canonicalize(&p).unwrap_or(p);
    }
    let abs = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    std::env::current_dir()
        .ok()
        .and_then(|cwd| {
            let cwd = std::fs::canonicalize(&cwd).unwrap_or(cwd);
            abs.strip_prefix(&cwd).ok().map(Path::to_path_buf)
        })
        .unwrap_or(abs)
}

/// A path as the menus show it and as a scenario's pan and zoom are kept: relative to
/// `root` when inside it.
#[must_use]
pub fn shown_path(root: Option<&Path>, p: &Path) -> String {
    root.and_then(|r| p.strip_prefix(r).ok())
        .unwrap_or(p)
        .display()
        .to_string()
}

/// The rulesets bundled in `ROOT/rulesets` (and `GROGNARD_RULESETS`), by file; `None`, the
/// current folder.
#[must_use]
pub fn bundled_rulesets(root: Option<&Path>) -> Vec<PathBuf> {
    let near = root.map_or_else(|| PathBuf::from("./x"), |r| r.join("x"));
    let mut out = Vec::new();
    for dir in load::ruleset_dirs(&near) {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
            .map(|p| tidy_path(root, &p))
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

/// The example scenarios in `ROOT/examples` (orders files left out); `None`, the current
/// folder.
#[must_use]
pub fn example_scenarios(root: Option<&Path>) -> Vec<PathBuf> {
    let dir = root.map_or_else(|| PathBuf::from("examples"), |r| r.join("examples"));
    let Ok(entries) = std::fs::read_dir(dir) else {
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
                root: options
                    .root
                    .as_ref()
                    .map(|r| std::fs::canonicalize(r).unwrap_or_else(|_| r.clone())),
                scratch,
                bench: None,
                session: None,
                scenario_path: None,
                scenario_text: String::new(),
                scenario_problems: Vec::new(),
                scenario_own_fault: false,
                pending_scenario: None,
                status: None,
                reload_error: None,
                disk_changed: Vec::new(),
                game_hashes: Vec::new(),
                watch: Watch::default(),
                prompt: None,
                terrain_colors: Vec::new(),
                commands: Vec::new(),
                fonts_installed: false,
                edit: charts_tab::EditUi::default(),
                play: play_tab::PlayUi::default(),
                simulate: simulate_tab::SimulateUi::default(),
                tune: tune_tab::TuneUi::default(),
                remote: remote_tab::RemoteUi::default(),
            },
        };
        app.sort_recent();
        match (options.ruleset, options.scenario) {
            (Some(r), Some(s)) => {
                app.open_ruleset(&r);
                app.open_scenario(&s, true);
            }
            (Some(r), None) => app.open_ruleset(&r),
            (None, Some(s)) => app.open_scenario(&s, false),
            (None, None) => {}
        }
        if app.rt.session.is_some() || !app.rt.scenario_problems.is_empty() {
            // Opened with a scenario: show the board, or the scenario's mistakes where
            // the board would be.
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

    /// The value the chart panel holds for one input of a chart (tests read it).
    #[must_use]
    pub fn chart_input(&self, chart: &str, input: &str) -> Option<i32> {
        self.rt
            .edit
            .chart_inputs
            .get(&(chart.to_owned(), input.to_owned()))
            .copied()
    }

    /// The game on the Play tab, if one is open.
    #[must_use]
    pub fn session(&self) -> Option<&Session> {
        self.rt.session.as_ref()
    }

    /// The pieces drawn on the board in the last frame.
    #[must_use]
    pub fn drawn_pieces(&self) -> &[DrawPiece] {
        &self.rt.play.drawn
    }

    /// The bases drawn on the open table in the last frame: each piece drawn with a
    /// footprint, with its corners on screen (front-left, front-right, rear-right,
    /// rear-left).
    #[must_use]
    pub fn drawn_bases(&self) -> Vec<(PieceId, [egui::Pos2; 4])> {
        let Some(t) = self.rt.play.transform else {
            return Vec::new();
        };
        self.rt
            .play
            .drawn
            .iter()
            .filter_map(|d| Some((d.id, crate::bases::screen_corners(d, &t)?)))
            .collect()
    }

    /// The tape-measure reading shown in the last frame (a piece selected on the open
    /// table, another under the pointer).
    #[must_use]
    pub fn measurement(&self) -> Option<&crate::bases::Measurement> {
        self.rt.play.measure.as_ref()
    }

    /// Where the selected piece's turning handle was on screen in the last frame (open
    /// tables).
    #[must_use]
    pub fn turn_handle_on_screen(&self) -> Option<egui::Pos2> {
        let t = self.rt.play.transform?;
        let id = self.rt.play.selected?;
        let d = self.rt.play.drawn.iter().find(|d| d.id == id)?;
        crate::bases::turn_handle(d, &t).map(|(_, h)| h)
    }

    /// Where a cell's centre was on screen in the last frame.
    #[must_use]
    pub fn cell_on_screen(&self, c: Cell) -> Option<egui::Pos2> {
        let t = self.rt.play.transform?;
        let grid = *self.rt.session.as_ref()?.game.board().grid()?;
        let (x, y) = board::cell_center(&grid, c);
        Some(t.to_screen(x, y))
    }

    /// Where a board position (cell units, or inches on an open table) was on screen in
    /// the last frame.
    #[must_use]
    pub fn board_on_screen(&self, x: f32, y: f32) -> Option<egui::Pos2> {
        Some(self.rt.play.transform?.to_screen(x, y))
    }

    /// The Play tab's pan and zoom for the open scenario (fit to the board when new).
    #[must_use]
    pub fn camera(&self) -> Camera {
        self.rt
            .scenario_path
            .as_ref()
            .and_then(|p| self.saved.cameras.get(&self.shown(p)))
            .copied()
            .unwrap_or_default()
    }

    fn set_camera(&mut self, camera: Camera) {
        let Some(key) = self.rt.scenario_path.as_ref().map(|p| self.shown(p)) else {
            return;
        };
        if camera == Camera::default() {
            self.saved.cameras.remove(&key);
        } else {
            self.saved.cameras.insert(key, camera);
            while self.saved.cameras.len() > MAX_CAMERAS {
                let Some(first) = self.saved.cameras.keys().next().cloned() else {
                    break;
                };
                self.saved.cameras.remove(&first);
            }
        }
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

    /// True when the scenario's problems are mistakes in the file itself (it fails under
    /// its own ruleset too), not a ruleset that does not fit it.
    #[must_use]
    pub fn scenario_own_fault(&self) -> bool {
        self.rt.scenario_own_fault
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

    /// A path as the editor keeps and loads it ([`tidy_path`] from the root).
    fn tidy(&self, p: &Path) -> PathBuf {
        tidy_path(self.rt.root.as_deref(), p)
    }

    /// A path as the menus show it ([`shown_path`]).
    fn shown(&self, p: &Path) -> String {
        shown_path(self.rt.root.as_deref(), p)
    }

    /// A chosen or typed path, read from the root when relative.
    fn resolve(&self, p: &Path) -> PathBuf {
        match &self.rt.root {
            Some(r) if p.is_relative() => r.join(p),
            _ => p.to_path_buf(),
        }
    }

    fn remember(&mut self, p: &Path) {
        let p = self.tidy(p);
        remember_in(&mut self.saved.recent, p);
    }

    fn remember_scenario(&mut self, p: &Path) {
        let p = self.tidy(p);
        remember_in(&mut self.saved.recent_scenarios, p);
    }

    /// Moves the scenarios an older editor kept among the recent rulesets to their own
    /// list (files no longer there are dropped).
    fn sort_recent(&mut self) {
        let recent = std::mem::take(&mut self.saved.recent);
        for p in recent {
            match load::sniff(&self.resolve(&p)) {
                Ok(load::FileKind::Scenario) => {
                    if !self.saved.recent_scenarios.contains(&p) {
                        self.saved.recent_scenarios.push(p);
                    }
                }
                Ok(_) => self.saved.recent.push(p),
                Err(_) => {}
            }
        }
        self.saved.recent_scenarios.truncate(MAX_RECENT);
    }

    fn load_checked(path: &Path) -> Result<Ruleset, String> {
        let r = load::load_ruleset(path).map_err(|d| d.to_string())?;
        hooks_for(&r).map_err(|d| d.to_string())?;
        Ok(r)
    }

    fn set_ruleset(&mut self, r: Ruleset) {
        // Another ruleset's numbers, answer and run mean nothing under this one: Run was
        // refused on them (tenth player F18).
        let before = self.rt.bench.as_ref().map(|b| b.base.path.clone());
        if before.is_some_and(|p| p != r.path) {
            self.rt.tune.another_ruleset();
        }
        self.rt.terrain_colors = terrain_colors(&r);
        self.rt.bench = Some(Workbench::new(r, self.rt.scratch.path()));
        self.rt.edit.texts.clear();
        self.rt.edit.chart = None;
        self.rt.reload_error = None;
        self.rewatch();
    }

    fn open_ruleset(&mut self, path: &Path) {
        let path = self.tidy(path);
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

    /// A scenario that did not open: says so first, and that the game in play goes on
    /// (the problems alone read as if the game had broken); opened once fixed, the
    /// scenario's start replaces the line.
    fn not_opened(&mut self, path: &Path, problems: &str) {
        let kept = if self.rt.session.is_some() {
            "; the game in play is kept"
        } else {
            ""
        };
        self.fail(format!("{} not opened{kept}. {problems}", self.shown(path)));
    }

    /// Opens a scenario: under the ruleset already open when `keep_ruleset`, otherwise
    /// under the ruleset the scenario names.
    fn open_scenario(&mut self, path: &Path, keep_ruleset: bool) {
        let path = self.tidy(path);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                let e = format!("{}: cannot read: {e}", path.display());
                return self.not_opened(&path, &e);
            }
        };
        if !keep_ruleset || self.rt.bench.is_none() {
            match load::load_scenario(&path, None) {
                Ok(s) => {
                    let mut r = s.ruleset;
                    r.path = self.tidy(&r.path);
                    let keep = match self.over_edits(&path, &r) {
                        switch::OverEdits::Asked => return,
                        switch::OverEdits::Proceed { keep } => keep,
                    };
                    match hooks_for(&r) {
                        Ok(_) if keep => {}
                        Ok(_) => self.set_ruleset(r),
                        Err(d) => return self.not_opened(&path, &d.to_string()),
                    }
                }
                // With no ruleset open, the one the broken file names is opened, so its
                // mistakes are told over the board (eleventh player F11).
                Err(d) => match self.named_ruleset(&path, &text) {
                    Some(r) if self.rt.bench.is_none() => self.set_ruleset(r),
                    _ => return self.not_opened(&path, &d.to_string()),
                },
            }
        }
        if self.rt.scenario_path.as_deref() != Some(path.as_path()) {
            self.forget_hosted();
        }
        self.rt.scenario_path = Some(path.clone());
        self.rt.scenario_text = text;
        self.remember_scenario(&path);
        let seats = self.seats_by_name();
        self.recheck_scenario();
        self.keep_seats_by_name(seats);
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
                self.rt.disk_changed.clear();
                self.rt.game_hashes.clear();
                self.rt.play.review = None;
                self.rt.session = Some(session);
                self.rt.play.players.clear();
                self.rt.play.selected = None;
                self.rt.play.reach = None;
                self.rt.play.path.clear();
                self.rt.play.view = ViewAs::Referee;
                // A new game follows its own seats: a view picked in the last one is no
                // choice made for this one (drill-square-mud stayed on the referee's view
                // when the computer took red, after a view picked in hex-command).
                self.rt.play.view_chosen = false;
                self.rt.play.card_armed = false;
                // A new game does not inherit the last one's screen: hidden only under
                // hot-seat, and then for the side to act.
                self.rt.play.screen_hidden = false;
                if self.saved.hot_seat {
                    self.pass_screen_to_acting_side();
                }
                self.say(format!("{name} started under {rname}"));
            }
            Err(problems) => {
                let n = problems.len();
                self.rt.scenario_problems = problems;
                // A file that fails under the ruleset it names has mistakes of its own:
                // the Ruleset menu would not help (F1: `turns: eight` sent the player
                // there with the scenario's own ruleset in force).
                let own = load::load_scenario(path, None).is_err();
                self.rt.scenario_own_fault = own;
                // Said of the game only when there is one (tenth player F1: "the game
                // goes on as it started" with no game in play).
                let game = if self.rt.session.is_some() {
                    "the game in play goes on as it started"
                } else {
                    "no game is in play until it is fixed"
                };
                let mistakes = if n == 1 {
                    "1 mistake".to_owned()
                } else {
                    format!("{n} mistakes")
                };
                self.fail(if own {
                    format!(
                        "{name} has {mistakes} of its own, see the Play tab; fix the file \
                         ({game})"
                    )
                } else {
                    format!(
                        "{name} does not fit ruleset {rname}: {n} problem(s), see the Play tab \
                         ({rname} is in force; the Ruleset menu's Bundled list has the scenario's own)"
                    )
                });
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
                let h = content_hash(&p);
                (p, m, h)
            })
            .collect();
        let times = self.rt.watch.files.iter().map(|(p, m, _)| (p.clone(), *m));
        self.rt.watch.waker.watch(times.collect());
    }

    /// True when a game has begun: an order given or a seat handed to the computer.
    fn game_in_progress(&self) -> bool {
        self.rt
            .session
            .as_ref()
            .is_some_and(|s| !s.orders().is_empty())
            || self.rt.play.players.iter().any(Option::is_some)
    }

    /// Reloads files whose content changed on disk (a new modification time with the same
    /// bytes is no change); on error keeps the last good version. A game in progress is
    /// not restarted: it goes on, and the Play tab offers a new game from the new files.
    pub fn check_files(&mut self) {
        let mut changed = Vec::new();
        let in_game = self.game_in_progress();
        for (p, m, h) in &mut self.rt.watch.files {
            let now = modified(p);
            if now != *m {
                *m = now;
                let hash = content_hash(p);
                if hash != *h {
                    if in_game && !self.rt.game_hashes.iter().any(|(g, _)| g == p) {
                        self.rt.game_hashes.push((p.clone(), *h));
                    }
                    *h = hash;
                    changed.push(p.clone());
                }
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
                    // The error itself is on the "Reload error" line above, which stays
                    // until the file loads: quoted here too, it was told twice (F2).
                    self.rt.reload_error = Some(e);
                    // A game in play offers *New game from the changed files* greyed, its
                    // hover naming the mistake, whether or not a good change came first
                    // (twelfth player, finding 3: broken by its first change, no row).
                    if self.game_in_progress() {
                        for p in changed
                            .iter()
                            .filter(|p| Some(*p) != self.rt.scenario_path.as_ref())
                        {
                            let shown = self.shown(p);
                            if !self.rt.disk_changed.contains(&shown) {
                                self.rt.disk_changed.push(shown);
                            }
                        }
                    }
                    self.fail(
                        "reload failed, the last good ruleset stays (the line above says \
                         what to fix)",
                    );
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
            if self.game_in_progress() {
                self.keep_game_after_change(&changed);
                self.forget_files_put_back();
            } else {
                self.recheck_scenario();
            }
        }
        self.rewatch();
    }

    /// A file put back mid-game as the game started with it (its bytes' hash the same) is
    /// no longer "changed on disk"; with none left, the status line says so and the Play
    /// tab offers no new game (fourteenth player: a ruleset restored byte for byte still
    /// offered a new game "from the changed files").
    fn forget_files_put_back(&mut self) {
        let mut back = Vec::new();
        self.rt.game_hashes.retain(|(p, h)| {
            let same = content_hash(p) == *h;
            if same {
                back.push(p.clone());
            }
            !same
        });
        if back.is_empty() {
            return;
        }
        let names: Vec<String> = back.iter().map(|p| self.shown(p)).collect();
        self.rt.disk_changed.retain(|d| !names.contains(d));
        if self.rt.disk_changed.is_empty() {
            self.say(format!(
                "{} read again as the game in play started with them; nothing to start anew",
                names.join(", ")
            ));
        }
    }

    /// Files changed on disk while a game is in play: the game goes on under the files it
    /// started with, and the status line and the Play tab say so (its *New game from the
    /// changed files* button starts one from them).
    fn keep_game_after_change(&mut self, changed: &[PathBuf]) {
        for p in changed {
            let shown = self.shown(p);
            if !self.rt.disk_changed.contains(&shown) {
                self.rt.disk_changed.push(shown);
            }
        }
        // A scenario saved broken is told now, at its line, not only after *New game from
        // the changed files* is clicked (tenth player F17).
        let scenario_changed = self
            .rt
            .scenario_path
            .as_ref()
            .is_some_and(|s| changed.contains(s));
        if scenario_changed && let Some(problems) = self.scenario_mistakes() {
            let n = problems.len();
            let name = self
                .rt
                .scenario_path
                .as_deref()
                .map(load::display)
                .unwrap_or_default();
            self.rt.scenario_problems = problems;
            self.rt.scenario_own_fault = self
                .rt
                .scenario_path
                .as_ref()
                .is_some_and(|p| load::load_scenario(p, None).is_err());
            let mistakes = if n == 1 {
                "1 mistake".to_owned()
            } else {
                format!("{n} mistakes")
            };
            return self.fail(format!(
                "{name} changed on disk and now has {mistakes}, see the Play tab; the game \
                 in play goes on as it started (fix the file to start a new one from it)"
            ));
        }
        if scenario_changed {
            self.rt.scenario_problems.clear();
        }
        self.say(format!(
            "{} changed on disk; the game in play goes on as it started (New game from the \
             changed files, on the Play tab, starts one from them)",
            self.rt.disk_changed.join(", ")
        ));
    }

    /// The open scenario's own mistakes, as its text now reads under the ruleset in force
    /// (`None` when it builds).
    fn scenario_mistakes(&self) -> Option<Vec<String>> {
        let path = self.rt.scenario_path.as_ref()?;
        let bench = self.rt.bench.as_ref()?;
        let name = load::display(path);
        load::scenario_from_text(&name, &self.rt.scenario_text, &bench.current)
            .err()
            .map(|d| explain_pieces(&d, &self.rt.scenario_text))
    }

    /// Draws one frame and applies what it asked for.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        if !self.rt.fonts_installed {
            self.rt.fonts_installed = true;
            install_fonts(ui.ctx());
            // A popup is first laid out in egui's default area size, 400 points tall, and
            // keeps that height: a long menu stopped some 400 points down whatever room
            // the window had (eighth outside player F13, F19). The window bounds it instead.
            ui.ctx()
                .all_styles_mut(|s| s.spacing.default_area_size.y = 4096.0);
        }
        self.poll_remote(ui.ctx());
        let woken = self.rt.watch.waker.take_changed();
        if woken
            || self
                .rt
                .watch
                .last
                .is_none_or(|t| t.elapsed() >= WATCH_EVERY)
        {
            self.rt.watch.last = Some(Instant::now());
            self.check_files();
        }
        let mut out = Vec::new();
        let keys = play_keys::KeysBefore::read(ui.ctx());
        egui::Panel::top("top bar").show(ui, |ui| self.top_bar(ui, &mut out));
        egui::Panel::bottom("status").show(ui, |ui| self.status_line(ui));
        if self.rt.prompt.is_some() {
            egui::Panel::top("path prompt").show(ui, |ui| self.prompt_ui(ui, &mut out));
        }
        self.switch_question(ui, &mut out);
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
            Tab::Simulate => {
                egui::CentralPanel::default_margins()
                    .show(ui, |ui| self.simulate_tab(ui, &mut out));
            }
            Tab::Tune => {
                egui::CentralPanel::default_margins().show(ui, |ui| self.tune_tab(ui, &mut out));
            }
            Tab::Remote => self.remote_tab(ui, &mut out),
        }
        if !self.reviewing() {
            // A position of a finished game is only looked at: nobody plays it.
            self.computer_turn(ui.ctx());
        }
        if self.rt.simulate.job.is_some() {
            self.poll_simulation(ui.ctx());
        }
        if self.rt.tune.job.is_some() {
            self.poll_tuning(ui.ctx());
        }
        self.keys(ui.ctx(), keys, &mut out);
        out.append(&mut self.rt.commands);
        if !out.is_empty() {
            // What the commands changed is drawn in the next frame, without waiting for input.
            ui.ctx().request_repaint();
        }
        for c in out {
            self.apply(c);
        }
    }
}

/// A plot that stays put (no drag, zoom or scroll), `height` points tall, with 0 on the y
/// axis. It has no legend inside it (one there covers the bars): a caller that wants one
/// adds it, or draws it beside the plot.
fn fixed_plot(id: impl egui::AsIdSalt, height: f32) -> egui_plot::Plot<'static> {
    egui_plot::Plot::new(id)
        .height(height)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_y(0.0)
}

/// Labels for an axis of whole-number marks: `names[i]` under mark `i`, nothing between.
fn index_axis(
    names: Vec<String>,
) -> impl Fn(egui_plot::GridMark, &std::ops::RangeInclusive<f64>) -> String + 'static {
    move |mark, _| {
        let i = mark.value.round();
        if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
            names.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
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

impl EditorApp {
    /// One frame of the editor's window: [`EditorApp::show`], with a thread watching the
    /// files on disk that wakes the window when one changes. The window asked for a frame
    /// every `WATCH_EVERY` (0.75 s) to look itself, drawing the whole editor over and over while
    /// idle (thirteenth player F1, F14).
    pub fn frame(&mut self, ui: &mut egui::Ui) {
        self.rt.watch.waker.start(ui.ctx(), WATCH_EVERY);
        self.show(ui);
    }
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame(ui);
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
    run_with(options, |_| {})
}

/// Opens the editor already joined to a seat of a game on a server (`grognard join URL
/// GAME --token T`, or `grognard join LINK` with the seat's link): the Remote tab shows the seat's board, orders and chat, and the
/// connection keeps itself up.
///
/// # Errors
/// A malformed server address or game id, or no window can be opened.
pub fn run_joined(url: &str, game: &str, token: &str) -> Result<(), String> {
    let link = crate::remote::join_parts(url, game, token)?;
    let join = Command::Join {
        url: link.url,
        game: link.game,
        token: link.token,
    };
    run_with(Options::default(), move |app| app.apply(join))
}

fn run_with(options: Options, start: impl FnOnce(&mut EditorApp) + 'static) -> Result<(), String> {
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
            let mut app = EditorApp::new(saved, options);
            start(&mut app);
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| e.to_string())
}

/// `p` first in `list`, once, the list kept to [`MAX_RECENT`].
fn remember_in(list: &mut Vec<PathBuf>, p: PathBuf) {
    list.retain(|x| x != &p);
    list.insert(0, p);
    list.truncate(MAX_RECENT);
}
