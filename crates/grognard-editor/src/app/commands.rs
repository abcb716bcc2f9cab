//! What the panels ask for and how it is carried out: [`Command`] (one per user action),
//! [`CellOrder`], the file dialogs' purposes, and [`EditorApp::apply`], which applies each
//! command once at the end of the frame, plus the file choosing that some commands start.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use grognard_kernel::action::Action;
use grognard_kernel::geometry::open::Point;
use grognard_kernel::geometry::{Cell, Facing};
use grognard_kernel::ids::{ActionId, ModeId, PieceId, SideId};
use grognard_kernel::piece::Place;
use grognard_play::PolicyKind;
use grognard_rules::model::OrderSpec;

use crate::board::BaseDrop;
use crate::house::FieldPath;
use crate::remote::HostRequest;
use crate::session::{Session, hooks_for};
use crate::view::ViewAs;

use super::{EditorApp, PathPrompt, Status, Tab, terrain_colors};

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
    /// A Lua policy for the computer to play a side with.
    PolicyFile,
}

/// Why nothing can be ordered while stepping through a finished game (app/replay.rs).
pub(super) const REVIEW_WHY: &str = "you are stepping through the finished game, which is \
                                     read-only: Back to the end returns to it";
impl FilePurpose {
    pub(super) fn title(self) -> &'static str {
        match self {
            Self::OpenRuleset => "Open ruleset",
            Self::OpenScenario => "Open scenario",
            Self::SaveHouseRule => "Save house rule",
            Self::SaveGame => "Save game",
            Self::LoadGame => "Load game",
            Self::PolicyFile => "Lua policy",
        }
    }

    pub(super) fn saves(self) -> bool {
        matches!(self, Self::SaveHouseRule | Self::SaveGame)
    }
}

/// Which form the Remote tab shows while no game is joined: what [`Command::RemoteForm`]
/// asks for. Here, beside the command, so the remote tab and the commands read one way
/// (issue 35: `commands` ↔ `remote_tab` was a module circle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RemoteForm {
    /// Create a game on a server.
    Host,
    /// Join a seat of a game.
    #[default]
    Join,
}

/// The player's answer to "your edits are not saved" before another scenario opens
/// (`switch.rs` asks it). Here, beside the command, so the two read one way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchChoice {
    /// Save the edits as a house rule first (the path is asked), then open the scenario.
    Save,
    /// Drop the edits and open the scenario under its own ruleset.
    Discard,
    /// Stay with the scenario and the edits in play.
    Cancel,
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
    /// The answer to "your edits are not saved" before another scenario opens.
    SwitchScenario(SwitchChoice),
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
    /// Start the open scenario again from its first turn, keeping who plays each side.
    NewGame,
    /// Select a piece (or none).
    Select(Option<PieceId>),
    /// A click on a cell of the board.
    ClickCell(Cell),
    /// A click on a point of an open table.
    ClickPoint(Point),
    /// A piece dragged to a new place (or turned by its handle) on an open table: move it
    /// there.
    MoveBase(BaseDrop),
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
    /// Show the whole board again (the open scenario's pan and zoom reset).
    FitBoard,
    /// Fold the Play tab's right panel away (`true`) or bring it back.
    FoldPanel(bool),
    /// Give this order for the acting side (from the list of legal orders).
    Give(Action),
    /// Show the finished game as it stood after this many of its orders, read-only
    /// (`None`: as it ended, which ends the stepping).
    Review(Option<usize>),
    /// Who plays a side: a policy for the computer, or a person (`None`).
    Seat(SideId, Option<PolicyKind>),
    /// Ask for a Lua policy file to play a side with.
    AskPolicy(SideId),
    /// Play `runs` games of the open scenario with `policy` on every side, under the
    /// ruleset in force and under its base, in the background.
    Simulate {
        /// The policy.
        policy: PolicyKind,
        /// Games per ruleset.
        runs: u32,
    },
    /// Stop the simulation.
    StopSimulation,
    /// Start the Tune tab's search with what its form holds.
    Tune,
    /// Stop the search.
    StopTune,
    /// Put the tuned values into the ruleset in force and ask where to save it as a house
    /// rule.
    SaveTuned,
    /// Show the Remote tab with the "Host game…" or "Join game…" form.
    RemoteForm(RemoteForm),
    /// Join a game on a server as the seat the token opens.
    Join {
        /// The server (`http://HOST:PORT`).
        url: String,
        /// The game's id.
        game: String,
        /// The seat's token.
        token: String,
    },
    /// Create a game of a scenario on a server (starting one here first when asked), then
    /// join one of its seats.
    Host(HostRequest),
    /// Send an order to the server for the joined seat.
    RemoteOrder(Box<OrderSpec>),
    /// Say something in the joined game's chat.
    RemoteChat(String),
    /// Ask the server to take back the last order (the referee says why).
    RemoteUndo(Option<String>),
    /// Connect to the server again now.
    Reconnect,
    /// Leave the joined game.
    Leave,
    /// Select one of the seat's pieces on the remote board (or none).
    RemoteSelect(Option<PieceId>),
    /// A click on a cell of the remote board.
    RemoteClickCell(Cell),
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

impl EditorApp {
    pub(super) fn ask(&mut self, purpose: FilePurpose) {
        // A house rule that would be refused is refused before a path is asked for (the
        // Ruleset menu and the Diff tab asked first, then refused after OK).
        if purpose == FilePurpose::SaveHouseRule
            && let Some(why) = self
                .rt
                .bench
                .as_ref()
                .and_then(crate::house::Workbench::unsaved_reason)
        {
            return self.fail(why);
        }
        if self.rt.native_dialogs {
            let mut dialog = rfd::FileDialog::new()
                .set_title(purpose.title())
                .add_filter(
                    match purpose {
                        FilePurpose::SaveGame | FilePurpose::LoadGame => "grognard save",
                        FilePurpose::PolicyFile => "Lua",
                        _ => "YAML",
                    },
                    match purpose {
                        FilePurpose::SaveGame | FilePurpose::LoadGame => &["json"],
                        FilePurpose::PolicyFile => &["lua"],
                        _ => &["yaml", "yml"],
                    },
                );
            if let Some(dir) = self
                .rt
                .root
                .clone()
                .or_else(|| std::env::current_dir().ok())
            {
                dialog = dialog.set_directory(dir);
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

    /// Applies one command: the app's own here, the rest handed to the part of the editor
    /// it concerns.
    pub fn apply(&mut self, c: Command) {
        match c {
            Command::Tab(t) => {
                // A refusal belongs to the tab it was made on: kept in red on another
                // tab it read as a fault of what was being done there (the Play tab's Undo
                // refusal under the Rules tab's fields).
                if t != self.saved.tab && self.rt.status.as_ref().is_some_and(|s| s.error) {
                    self.rt.status = None;
                }
                self.saved.tab = t;
            }
            Command::Ask(p) => self.ask(p),
            Command::CancelAsk => self.rt.prompt = None,
            Command::SwitchScenario(c) => self.switch_choice(c),
            Command::Chosen(purpose, path) => {
                self.rt.prompt = None;
                self.chosen(purpose, &path);
            }
            Command::Restart => self.recheck_scenario(),
            Command::NewGame => self.new_game(),
            c @ (Command::SetField(..)
            | Command::RenameHouse(_)
            | Command::Revert
            | Command::ShowChart(_)
            | Command::ChartInput(..)) => self.edit_command(c),
            c @ (Command::Select(_)
            | Command::ClickCell(_)
            | Command::ClickPoint(_)
            | Command::MoveBase(_)
            | Command::MoveAlongPath
            | Command::ClearPath
            | Command::Act(..)
            | Command::Face(_)
            | Command::Mode(_)
            | Command::CellOrder(_)
            | Command::Gather
            | Command::EndPhase
            | Command::Undo
            | Command::Give(_)) => self.play_command(c),
            Command::Review(k) => self.review_to(k),
            c @ (Command::ViewAs(_)
            | Command::Reveal
            | Command::FitBoard
            | Command::FoldPanel(_)
            | Command::HotSeat(_)
            | Command::Seat(..)
            | Command::AskPolicy(_)) => self.table_command(c),
            c @ (Command::Simulate { .. }
            | Command::Tune
            | Command::StopTune
            | Command::SaveTuned
            | Command::StopSimulation) => self.lab_command(c),
            c @ (Command::RemoteForm(_)
            | Command::Join { .. }
            | Command::Host(_)
            | Command::RemoteOrder(_)
            | Command::RemoteChat(_)
            | Command::RemoteUndo(_)
            | Command::Reconnect
            | Command::Leave
            | Command::RemoteSelect(_)
            | Command::RemoteClickCell(_)) => self.remote_command(c),
        }
    }

    /// A ruleset edit on the Rules or Charts tab: a field typed, the house rule renamed or
    /// reverted, the chart shown and its inputs for the odds.
    fn edit_command(&mut self, c: Command) {
        match c {
            Command::SetField(path, text) => {
                let Some(bench) = &mut self.rt.bench else {
                    return;
                };
                // An outcome the chart does not know is refused, not taken as a new one.
                if let Some(why) = crate::house::outcome_refusal(&bench.current.rules, &path, &text)
                {
                    let why = format!("{}: {why}", bench.edit_place(&path));
                    bench.field_errors.insert(path.clone(), why);
                    self.rt.edit.texts.insert(path, text);
                    return;
                }
                let ok = bench.set_text(&path, &text);
                self.rt.edit.texts.insert(path, text);
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
                self.rt.edit.texts.clear();
            }
            Command::ShowChart(name) => self.rt.edit.chart = Some(name),
            Command::ChartInput(name, v) => {
                let chart = self.rt.edit.chart.clone().or_else(|| {
                    self.rt
                        .bench
                        .as_ref()
                        .and_then(|b| b.current.spec.charts.names().next().map(str::to_owned))
                });
                if let Some(chart) = chart {
                    self.rt.edit.chart_inputs.insert((chart, name), v);
                }
            }
            // Not one of this part's commands: `apply` hands it elsewhere.
            _ => {}
        }
    }

    /// An order on the Play tab, or what leads to one: a piece selected, a cell or point
    /// clicked, a base dropped, a path, an action, End phase, Undo.
    fn play_command(&mut self, c: Command) {
        if self.reviewing() {
            // Stepping through a finished game: a piece may be looked at, nothing ordered.
            return match c {
                Command::Select(_) => self.select(c),
                Command::ClickCell(_) => {
                    let pointed = self.rt.play.pointed.take();
                    self.select(Command::Select(pointed));
                }
                Command::ClickPoint(_) => self.select(Command::Select(None)),
                Command::ClearPath => self.rt.play.path.clear(),
                _ => self.fail(REVIEW_WHY.to_owned()),
            };
        }
        match c {
            c @ Command::Select(_) => self.select(c),
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
            Command::MoveBase(drop) => {
                let side = self
                    .rt
                    .session
                    .as_ref()
                    .and_then(|s| s.game.piece(drop.piece))
                    .map(|p| p.side);
                self.order(
                    Action::MoveTo {
                        piece: drop.piece,
                        to: drop.to,
                        facing: drop.facing,
                    },
                    side,
                );
            }
            Command::MoveAlongPath => {
                if let Some((id, side, _)) = self.selected_piece()
                    && !self.rt.play.path.is_empty()
                {
                    let path = self.rt.play.path.clone();
                    self.order(Action::Move { piece: id, path }, Some(side));
                }
            }
            Command::ClearPath => self.rt.play.path.clear(),
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
            Command::CellOrder(kind) => self.rt.play.pending = kind,
            Command::Gather => {
                if let Some((id, side, _)) = self.selected_piece() {
                    self.order(Action::Gather { piece: id }, Some(side));
                }
            }
            Command::EndPhase if !self.may_end_phase() && self.rt.play.screen_hidden => {
                self.refuse_end_phase();
            }
            Command::EndPhase => self.order(Action::EndPhase, None),
            Command::Undo => {
                if !self.may_undo() {
                    // What the last order did (a roll, a sighting) is the reason to give.
                    let locked = self.rt.session.as_ref().and_then(|s| s.why_locked());
                    return match (self.computer_thinking(), locked) {
                        (None, Some(why)) => self.fail(why.to_owned()),
                        _ => self.fail(self.why_no_undo()),
                    };
                }
                if let Some(s) = &mut self.rt.session {
                    // Which order went back, as its side named it ("undone" alone left
                    // the player to guess).
                    let last = s.orders().last().map(|o| {
                        let spec =
                            grognard_rules::orders::describe_order_as(&s.game, o, Some(o.side));
                        match crate::words::order_words(
                            &serde_json::to_value(spec).unwrap_or_default(),
                        ) {
                            (Some(piece), words) => format!("{piece} {words}"),
                            (None, words) => words,
                        }
                    });
                    match s.undo() {
                        Ok(()) => {
                            self.rt.play.path.clear();
                            self.refresh_reach();
                            self.say(last.map_or_else(
                                || "undone".to_owned(),
                                |w| format!("took back the last order: {w}"),
                            ));
                        }
                        Err(e) => self.fail(e),
                    }
                }
            }
            Command::Give(action) => {
                let side = self.legal_side();
                self.order(action, side);
            }
            // Not one of this part's commands: `apply` hands it elsewhere.
            _ => {}
        }
    }

    /// A piece selected (or none): seen as a side, only that side's own.
    fn select(&mut self, c: Command) {
        let Command::Select(id) = c else {
            return;
        };
        self.rt.play.pending = None;
        // Seen as a side, only that side's own pieces can be picked up: what the
        // panel would show of an enemy piece is the referee's knowledge.
        let foreign = match (self.rt.play.view, id) {
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
        self.rt.play.selected = id;
        self.rt.play.path.clear();
        self.refresh_reach();
    }

    /// Who plays each side for the computer now (`None`: a person), to seat again.
    fn seat_kinds(&self) -> Vec<Option<PolicyKind>> {
        self.rt
            .play
            .players
            .iter()
            .map(|p| p.as_ref().map(|c| c.kind().clone()))
            .collect()
    }

    /// Seats the computer again as `kinds` says, in a game just started or loaded; says
    /// which seats were kept, for the status line ("" when none).
    fn reseat(&mut self, kinds: Vec<Option<PolicyKind>>) -> String {
        let mut kept = Vec::new();
        for (i, kind) in kinds.into_iter().enumerate() {
            if let Some(kind) = kind {
                let side = SideId(u8::try_from(i).unwrap_or(u8::MAX));
                // Each seat by its side: "(search)" alone did not say whose (thirteenth
                // player F9).
                let name = self
                    .rt
                    .session
                    .as_ref()
                    .and_then(|s| s.game.sides().get(i).map(|d| d.name.clone()))
                    .unwrap_or_else(|| "?".to_owned());
                kept.push(format!("{name} ({})", kind.name()));
                self.seat(side, Some(kind));
            }
        }
        match kept.as_slice() {
            [] => String::new(),
            [one] => format!("; the computer's seat is kept: {one}"),
            many => format!("; the computer's seats are kept: {}", many.join(", ")),
        }
    }

    /// The computer's seats by the name of the side each plays.
    pub(super) fn seats_by_name(&self) -> Vec<(String, PolicyKind)> {
        let Some(s) = &self.rt.session else {
            return Vec::new();
        };
        s.game
            .sides()
            .iter()
            .zip(self.seat_kinds())
            .filter_map(|(d, k)| Some((d.name.clone(), k?)))
            .collect()
    }

    /// After another scenario opened: the computer takes again the sides named as those it
    /// played (twelfth player, finding 14: every seat went back to *person*), and the
    /// status line says which seats were kept and which were not.
    pub(super) fn keep_seats_by_name(&mut self, seats: Vec<(String, PolicyKind)>) {
        let Some(s) = &self.rt.session else {
            return;
        };
        if seats.is_empty()
            || !s.orders().is_empty()
            || self.rt.play.players.iter().any(Option::is_some)
        {
            return;
        }
        let names: Vec<String> = s.game.sides().iter().map(|d| d.name.clone()).collect();
        let kinds = names
            .iter()
            .map(|n| seats.iter().find(|(m, _)| m == n).map(|(_, k)| k.clone()))
            .collect();
        let Some(Status { text, error }) = self.rt.status.take() else {
            return;
        };
        let mut text = text + &self.reseat(kinds);
        let gone: Vec<&str> = seats
            .iter()
            .filter(|(m, _)| !names.contains(m))
            .map(|(m, _)| m.as_str())
            .collect();
        if !gone.is_empty() {
            text.push_str(&format!(
                "; no side here is named {}, so the computer's seat there was not kept",
                gone.join(" or ")
            ));
        }
        if self.saved.hot_seat {
            self.pass_screen_to_acting_side();
        }
        self.rt.status = Some(Status { text, error });
    }

    /// Starts the open scenario again from its first turn under the ruleset in force,
    /// keeping who plays each side (the menu's way lost them and the scenario's place).
    fn new_game(&mut self) {
        let seats = self.seat_kinds();
        let view = (self.rt.play.view, self.rt.play.view_chosen);
        self.recheck_scenario();
        let Some(session) = &self.rt.session else {
            return;
        };
        if !session.orders().is_empty() || seats.len() > session.game.sides().len() {
            return;
        }
        (self.rt.play.view, self.rt.play.view_chosen) = view;
        // The screen is passed to a side, never to the referee.
        self.rt.play.screen_hidden = self.screen_hides(view.0);
        let kept = self.reseat(seats);
        let name = session_name(self.rt.session.as_ref());
        self.say(format!("a new game of {name} started{kept}"));
    }

    /// Hot-seat: the view turns to the side to act and the board is hidden until that
    /// side's player asks to see it (with no side to act, the referee's view shows).
    pub(super) fn pass_screen_to_acting_side(&mut self) {
        match self.acting_side_after_hidden() {
            Some(side) if self.someone_seated() => {
                self.rt.play.view = ViewAs::Side(side);
                self.rt.play.screen_hidden = true;
            }
            _ => self.rt.play.screen_hidden = false,
        }
    }

    /// True when a person plays some side: with the computer on every side there is no
    /// one to hide the board from (eleventh player F5: two computers played behind "Pass
    /// the screen to the referee").
    pub(super) fn someone_seated(&self) -> bool {
        let sides = self.rt.session.as_ref().map_or(0, |s| s.game.sides().len());
        (0..sides).any(|i| self.rt.play.players.get(i).is_none_or(Option::is_none))
    }

    /// Whether hot-seat hides the board seen as `view`: only a side's view, and only
    /// while a person plays some side (the screen is never passed to the referee).
    pub(super) fn screen_hides(&self, view: ViewAs) -> bool {
        self.saved.hot_seat && view != ViewAs::Referee && self.someone_seated()
    }

    /// How the Play tab's table is seen and who sits at it: the view, the hot-seat screen,
    /// the camera and panel, the computer's seats.
    fn table_command(&mut self, c: Command) {
        match c {
            Command::ViewAs(v) => {
                self.rt.play.view = v;
                self.rt.play.view_chosen = true;
                self.rt.play.screen_hidden = self.screen_hides(v);
                if let (ViewAs::Side(side), Some((_, owner, _))) = (v, self.selected_piece())
                    && side != owner
                {
                    self.rt.play.selected = None;
                    self.rt.play.reach = None;
                    self.rt.play.path.clear();
                }
            }
            Command::Reveal => self.rt.play.screen_hidden = false,
            Command::FitBoard => self.set_camera(crate::board::Camera::default()),
            Command::FoldPanel(hidden) => self.saved.panel_hidden = hidden,
            Command::HotSeat(on) => {
                self.saved.hot_seat = on;
                if !on {
                    // No one to pass the screen to: the board shows.
                    self.rt.play.screen_hidden = false;
                } else {
                    self.pass_screen_to_acting_side();
                }
            }
            Command::Seat(side, kind) => self.seat(side, kind),
            Command::AskPolicy(side) => {
                self.rt.play.policy_for = Some(side);
                self.ask(FilePurpose::PolicyFile);
            }
            // Not one of this part's commands: `apply` hands it elsewhere.
            _ => {}
        }
    }

    /// The Simulate and Tune tabs' runs: started, stopped, the tuned ruleset saved.
    fn lab_command(&mut self, c: Command) {
        match c {
            Command::Simulate { policy, runs } => self.start_simulation(&policy, runs),
            Command::Tune => self.start_tuning(),
            Command::StopTune => {
                if let Some(job) = &self.rt.tune.job {
                    job.cancel();
                }
            }
            Command::SaveTuned => self.save_tuned(),
            Command::StopSimulation => {
                if let Some(job) = &self.rt.simulate.job {
                    job.cancel();
                    // Said at once: the games in play end at their next order, which a
                    // search policy may take seconds to give.
                    self.say("stopping the simulation…");
                }
            }
            // Not one of this part's commands: `apply` hands it elsewhere.
            _ => {}
        }
    }

    pub(super) fn chosen(&mut self, purpose: FilePurpose, path: &Path) {
        let path = &self.resolve(path);
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
                        if let Some(b) = &mut self.rt.bench {
                            b.mark_saved();
                        }
                        self.remember(path);
                        self.say(msg);
                        self.saved_then_switch();
                    }
                    Err(e) => self.fail(e),
                }
            }
            FilePurpose::SaveGame => {
                // The whole game, also while an earlier position of it is shown.
                if let Some(s) = self.whole_session() {
                    match s.save(path) {
                        Ok(()) => self.say(format!("saved the game to {}", path.display())),
                        Err(e) => self.fail(e),
                    }
                }
            }
            FilePurpose::PolicyFile => {
                let Some(side) = self.rt.play.policy_for.take() else {
                    return;
                };
                match PolicyKind::lua_file(path, grognard_play::lua_policy::DEFAULT_FUNCTION) {
                    Ok(kind) => self.seat(side, Some(kind)),
                    Err(e) => self.fail(e.to_string()),
                }
            }
            FilePurpose::LoadGame => match Session::load(path) {
                Ok(s) => {
                    // A save holds no seats: a game of the scenario in play keeps the
                    // editor's (a computer side left to "person" was played by nobody).
                    let same = self.rt.session.as_ref().is_some_and(|old| {
                        old.scenario.hash == s.scenario.hash
                            && old.game.sides().len() == s.game.sides().len()
                    });
                    let seats = if same { self.seat_kinds() } else { Vec::new() };
                    self.rt.play.players.clear();
                    let mut r = s.scenario.ruleset.clone();
                    r.path = self.tidy(&r.path);
                    // Read through the save's folder; kept and shown as the menus name it.
                    let scenario = self.tidy(&s.scenario.path);
                    let text = std::fs::read_to_string(&scenario).unwrap_or_default();
                    self.set_ruleset(r);
                    self.rt.scenario_path = Some(scenario);
                    self.rt.scenario_text = text;
                    self.rt.scenario_problems.clear();
                    self.rt.play.review = None;
                    self.rt.session = Some(s);
                    self.rt.play.selected = None;
                    self.rt.play.reach = None;
                    self.rewatch();
                    let seats = self.reseat(seats);
                    self.say(format!("loaded the game from {}{seats}", path.display()));
                }
                Err(e) => self.fail(e),
            },
        }
    }
}

/// The game's scenario as its file names it, for the status line.
fn session_name(s: Option<&Session>) -> String {
    s.map_or_else(String::new, |s| s.scenario.spec.scenario.value.clone())
}
