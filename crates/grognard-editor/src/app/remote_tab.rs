//! The Remote tab: the editor as a client of a `grognard serve` server. "Host game…"
//! creates a game of the open scenario (starting a server here when asked) and lists each
//! seat's link, as `serve --create` prints it; "Join game…" connects to a seat. Joined, the tab shows the board as the
//! seat sees it, the phase bar, the legal orders (a click sends one), Undo, the chat, and
//! the seat's view and log as `grognard view` prints them. On an open table, while it is the
//! seat's turn, its selected piece is dragged (or turned) as on the Play tab and the drop is
//! sent as a `move_to` order. The connection itself is in [`crate::remote`].

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use egui::{Color32, RichText};
use grognard_kernel::board::Surface;
use grognard_kernel::geometry::Cell;
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::piece::Place;
use grognard_rules::model::{MoveToSpec, OrderSpec};
use grognard_server::display::escape_controls;
use grognard_server::protocol::{ChatLine, Created, REFEREE, SPECTATOR, SeatState};

use crate::board::{self, BaseDrop, BoardScene, DrawPiece, Look, Overlay, Transform};
use crate::remote::{HostJob, HostRequest, Link, Problem, RemoteSession};

use super::{Command, EditorApp, RemoteForm, Tab};

/// How often the tab redraws while a game is joined (the reconnection countdown).
const TICK: Duration = Duration::from_millis(500);
/// The height kept for the Remote tab's legal orders (its list scrolls within 220 points).
const LEGAL_ROOM: f32 = 320.0;

/// The server address "Host game…" offers.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:7878";

/// A game this editor created, with every seat's token and the sides the server plays.
#[derive(Clone, Debug)]
pub(super) struct HostedGame {
    url: String,
    created: Created,
    policies: BTreeMap<String, String>,
}

/// The Remote tab's state.
pub(super) struct RemoteUi {
    form: RemoteForm,
    join_url: String,
    join_game: String,
    join_token: String,
    host_url: String,
    /// The host token of a server elsewhere (this editor's own server knows its own).
    host_token: String,
    host_start: bool,
    host_db: String,
    host_play_as: String,
    host_policies: BTreeMap<String, String>,
    pub(super) session: Option<RemoteSession>,
    job: Option<HostJob>,
    hosted: Option<HostedGame>,
    /// A server this editor started (dropping it stops the server).
    server: Option<grognard_server::Running>,
    pub(super) selected: Option<PieceId>,
    /// The counter under the pointer at the last click on a cell: in a shared cell, the
    /// piece clicked rather than its neighbour.
    pointed: Option<PieceId>,
    /// The tape measure's last reading on the remote board.
    pub(crate) measure: Option<crate::bases::Measurement>,
    pub(super) chat_input: String,
    /// Why the referee takes an order back (the server asks the referee to say).
    undo_reason: String,
    /// The context to wake when the network brings something (set by the first frame).
    wake: Arc<OnceLock<egui::Context>>,
    transform: Option<Transform>,
    /// The remote board's own pan and zoom: a joined game never takes the Play tab's.
    camera: crate::board::Camera,
    /// The hover card shows once the pointer has moved over the board (as on the Play tab).
    card_armed: bool,
}

impl Default for RemoteUi {
    fn default() -> Self {
        Self {
            form: RemoteForm::Join,
            join_url: String::new(),
            join_game: String::new(),
            join_token: String::new(),
            host_url: DEFAULT_SERVER.into(),
            host_token: String::new(),
            host_start: true,
            host_db: default_db().display().to_string(),
            host_play_as: String::new(),
            host_policies: BTreeMap::new(),
            session: None,
            job: None,
            hosted: None,
            server: None,
            selected: None,
            pointed: None,
            measure: None,
            chat_input: String::new(),
            undo_reason: String::new(),
            wake: Arc::new(OnceLock::new()),
            transform: None,
            camera: crate::board::Camera::default(),
            card_armed: false,
        }
    }
}

impl RemoteUi {
    /// A callback that asks the editor for a frame.
    fn waker(&self) -> impl Fn() + Send + Sync + 'static {
        let slot = Arc::clone(&self.wake);
        move || {
            if let Some(ctx) = slot.get() {
                ctx.request_repaint();
            }
        }
    }
}

/// Where "start a server here" keeps its games: the editor's data folder.
fn default_db() -> PathBuf {
    eframe::storage_dir("grognard editor").map_or_else(
        || PathBuf::from("grognard-games.sqlite"),
        |d| d.join("games.sqlite"),
    )
}

/// The piece an order names (its `piece`, or the command gathered).
fn order_piece(spec: &OrderSpec) -> Option<String> {
    let value = serde_json::to_value(spec).ok()?;
    value.as_object()?.iter().find_map(|(k, v)| match v {
        serde_json::Value::Object(inner) => inner.get("piece")?.as_str().map(str::to_owned),
        serde_json::Value::String(s) if k != "side" => Some(s.clone()),
        _ => None,
    })
}

/// The cell a legal order of a piece ends in, when it names one.
fn order_cell(spec: &OrderSpec) -> Option<Cell> {
    let at = spec
        .r#move
        .as_ref()
        .and_then(|m| m.path.last().copied())
        .or_else(|| spec.deploy.as_ref().map(|d| d.at))?;
    Some(Cell::new(at[0], at[1]))
}

/// The order a base dropped on the remote table gives: `move_to` its centre's new point
/// (in inches), with the new facing when it turned. `side` is the seat's side and `piece`
/// the name its orders use for the piece (an own piece goes by its name).
#[must_use]
pub fn move_to_order(side: &str, piece: &str, drop: &BaseDrop) -> OrderSpec {
    let inches = |l: grognard_kernel::geometry::open::Len| l.0 as f64 / 1000.0;
    OrderSpec {
        side: side.to_owned(),
        move_to: Some(MoveToSpec {
            piece: piece.to_owned(),
            to: [inches(drop.to.x), inches(drop.to.y)],
            facing: drop.facing.map(|a| f64::from(a.tenths()) / 10.0),
        }),
        ..OrderSpec::default()
    }
}

/// Which ruleset hosting sends, in words: the one the scenario file names, as saved —
/// and, when the editor plays it under another (a house rule chosen in the Ruleset menu),
/// that the one in force here is not it.
#[must_use]
pub fn host_ruleset_words(scenario: &grognard_rules::load::Scenario) -> String {
    let named = &scenario.spec.ruleset.value;
    let here = &scenario.ruleset.rules.identity.name;
    if named == here {
        format!("Ruleset sent: {named}, the one the scenario names.")
    } else {
        format!(
            "Ruleset sent: {named}, the one the scenario names — not {here}, the ruleset in \
             force here: to host under {here}, name it in the scenario's `ruleset:` and save."
        )
    }
}

/// A chat line as the chat panel shows it: control and bidi characters another seat sent
/// are written out as escapes (`\u{1b}`), never acted on.
#[must_use]
pub fn chat_label(line: &ChatLine) -> String {
    format!(
        "{}: {}",
        escape_controls(&line.seat),
        escape_controls(&line.text)
    )
}

/// The policies "Host game…" offers for a side the server plays, as the server takes them
/// (`--policy SIDE=…`), each with what it is.
pub const SERVER_POLICIES: [(&str, &str); 3] = [
    (
        "random",
        "Any legal order, at random: a quick opponent that does not try.",
    ),
    (
        "greedy",
        "The order that looks best at once: quick, and weak.",
    ),
    (
        "search",
        "Imagines games ahead before each order (1 s of the server's time an order, as \
         grognard serve --policy SIDE=search): far stronger, and slow.",
    ),
];

/// The phase bar's words for a state: "Turn 1 · movement phase · to act: french".
#[must_use]
pub fn phase_line(state: &SeatState) -> String {
    let s = &state.status;
    if s.over {
        let result = s.result.as_ref().map_or_else(String::new, |r| {
            format!(
                ": {}",
                crate::words::result_sentence(r.winner.as_deref(), &r.why, None)
            )
        });
        // Once the last turn is played the status's turn has moved on past it: the turns
        // played are the game-over event's, as the log says them.
        return match turns_played(state) {
            Some(turns) => format!("Game over after turn {turns}{result}"),
            None => format!("Game over{result}"),
        };
    }
    format!(
        "Turn {} · {} phase · to act: {}",
        s.turn,
        s.phase
            .as_deref()
            .map_or_else(|| "?".to_owned(), crate::words::spaced),
        if s.to_act.is_empty() {
            "nobody".to_owned()
        } else {
            s.to_act.join(", ")
        }
    )
}

/// The turns the game lasted, from the last game-over event of the seat's log.
fn turns_played(state: &SeatState) -> Option<u64> {
    state
        .view
        .get("events")?
        .as_array()?
        .iter()
        .rev()
        .find(|e| e.get("event").and_then(serde_json::Value::as_str) == Some("game_over"))?
        .get("turns")?
        .as_u64()
}

impl EditorApp {
    /// The remote game joined, if any.
    #[must_use]
    pub fn remote(&self) -> Option<&RemoteSession> {
        self.rt.remote.session.as_ref()
    }

    /// The game "Host game…" created last, with each seat's token, and its server.
    #[must_use]
    pub fn hosted(&self) -> Option<(&str, &Created)> {
        self.rt
            .remote
            .hosted
            .as_ref()
            .map(|h| (h.url.as_str(), &h.created))
    }

    /// True while "Host game…" is at work.
    #[must_use]
    pub fn hosting(&self) -> bool {
        self.rt.remote.job.is_some()
    }

    /// Where a cell's centre was on the remote board in the last frame.
    #[must_use]
    pub fn remote_cell_on_screen(&self, c: Cell) -> Option<egui::Pos2> {
        let t = self.rt.remote.transform?;
        let grid = *self.remote()?.table()?.board.grid()?;
        let (x, y) = board::cell_center(&grid, c);
        Some(t.to_screen(x, y))
    }

    /// Where a point of the remote open table (in inches) was on screen in the last frame.
    #[must_use]
    pub fn remote_table_on_screen(&self, x: f32, y: f32) -> Option<egui::Pos2> {
        Some(self.rt.remote.transform?.to_screen(x, y))
    }

    /// The remote board's last tape-measure reading (from the selected piece to the one
    /// under the pointer), measured from the seat's own view.
    #[must_use]
    pub fn remote_measurement(&self) -> Option<&crate::bases::Measurement> {
        self.rt.remote.measure.as_ref()
    }

    /// The piece the seat may drag on the remote board now: its selected own piece on an
    /// open table, while the seat is connected and it is its turn. The referee and a
    /// The *Remote* board's pan and zoom (its own: never the Play tab's).
    #[must_use]
    pub fn remote_camera(&self) -> crate::board::Camera {
        self.rt.remote.camera
    }

    /// spectator drag nothing; neither does a side waiting for the other.
    #[must_use]
    pub fn remote_draggable(&self) -> Option<PieceId> {
        let s = self.remote()?;
        let (table, state, seat) = (s.table()?, s.state()?, s.seat()?);
        let turn = !state.status.over && state.status.to_act.iter().any(|x| x == seat);
        let open = matches!(table.board.surface, Surface::Open { .. });
        if !(s.connected() && turn && open) {
            return None;
        }
        self.remote_side()?;
        let id = self.rt.remote.selected?;
        let piece = s.pieces().iter().find(|p| p.id == id)?;
        (self.remote_own(id) && matches!(piece.place, Place::Point { .. })).then_some(id)
    }

    /// The order a drop on the remote board sends (`None`: the piece may not be dragged
    /// now, so nothing is sent).
    fn remote_drop_order(&self, drop: &BaseDrop) -> Option<OrderSpec> {
        if self.remote_draggable() != Some(drop.piece) {
            return None;
        }
        let s = self.remote()?;
        let piece = s.pieces().iter().find(|p| p.id == drop.piece)?;
        Some(move_to_order(s.seat()?, &piece.name, drop))
    }

    /// Takes in what the network brought; called at the start of each frame.
    pub(super) fn poll_remote(&mut self, ctx: &egui::Context) {
        let _ = self.rt.remote.wake.set(ctx.clone());
        if let Some(s) = &mut self.rt.remote.session {
            s.poll();
            // The reconnection countdown moves on its own (and the retry is made from
            // here); a live connection wakes the editor itself when a message comes.
            if !matches!(
                s.link(),
                crate::remote::Link::Connected | crate::remote::Link::Refused(_)
            ) {
                ctx.request_repaint_after(TICK);
            }
            // "joining game…" is said until the connection answers; then the status line
            // says how it went instead of staying on the attempt.
            let joining = self
                .rt
                .status
                .as_ref()
                .is_some_and(|st| st.text.starts_with("joining game "));
            if joining && (s.connected() || matches!(s.link(), crate::remote::Link::Refused(_))) {
                let line = format!("game {}: {}", s.game(), s.status());
                let refused = !s.connected();
                self.rt.status = Some(super::Status {
                    text: line,
                    error: refused,
                });
            }
        }
        let Some(done) = self.rt.remote.job.as_ref().and_then(HostJob::poll) else {
            return;
        };
        self.rt.remote.job = None;
        match done {
            Ok(hosted) => {
                if let Some(server) = hosted.server {
                    self.rt.remote.server = Some(server);
                }
                self.rt.remote.host_url.clone_from(&hosted.url);
                let token = hosted.created.tokens.get(&hosted.play_as).cloned();
                let game = hosted.created.game.clone();
                self.say(format!(
                    "created game {game} on {}: give each player their own seat's link (Seats and links)",
                    hosted.url
                ));
                self.rt.remote.hosted = Some(HostedGame {
                    url: hosted.url.clone(),
                    created: hosted.created,
                    policies: hosted.policies,
                });
                if let Some(token) = token {
                    self.apply(Command::Join {
                        url: hosted.url,
                        game,
                        token,
                    });
                }
            }
            Err(e) => self.fail(format!("cannot host the game: {e}")),
        }
    }

    /// Applies the Remote tab's commands.
    pub(super) fn remote_command(&mut self, c: Command) {
        let r = &mut self.rt.remote;
        match c {
            Command::RemoteForm(form) => {
                r.form = form;
                self.saved.tab = Tab::Remote;
                // While a game is joined the tab shows it, not the form: say why nothing
                // else opened (a player pressed "Host game…" and saw nothing happen).
                if let Some(game) = r.session.as_ref().map(|s| s.game().to_owned()) {
                    let what = match form {
                        RemoteForm::Host => "host",
                        RemoteForm::Join => "join",
                    };
                    self.fail(format!(
                        "you are in game {game}: press Leave (on the Remote tab) first to {what} another"
                    ));
                }
            }
            Command::Join { url, game, token } => {
                match RemoteSession::join(&url, &game, &token, r.waker()) {
                    Ok(s) => {
                        r.join_url = s.url().to_owned();
                        r.join_game = s.game().to_owned();
                        r.join_token = s.token().to_owned();
                        // Named from the session, never from what was typed: that may be
                        // a whole seat link, token and all.
                        let (game, url) = (s.game().to_owned(), s.url().to_owned());
                        r.session = Some(s);
                        r.selected = None;
                        r.camera = crate::board::Camera::default();
                        r.card_armed = false;
                        self.saved.tab = Tab::Remote;
                        self.say(format!("joining game {game} on {url}"));
                    }
                    Err(e) => self.fail(e),
                }
            }
            Command::Host(mut request) => {
                if r.job.is_some() {
                    return;
                }
                // This editor's server is already running (the form then names it and
                // asks for no token): host the game there, with its own host token.
                let own = r.server.as_ref().is_some_and(|server| {
                    request.start_server
                        || crate::remote::server_url(&request.url).ok() == Some(server.url())
                });
                if let Some(server) = r.server.as_ref().filter(|_| own) {
                    request.start_server = false;
                    request.url = server.url();
                    request.host_token = Some(server.host_token.clone());
                }
                r.job = Some(HostJob::start(request, r.waker()));
                self.say("hosting the game…");
            }
            Command::RemoteOrder(order) => {
                if let Some(s) = &mut r.session {
                    s.order(*order);
                }
            }
            Command::RemoteChat(text) => {
                if let Some(s) = &mut r.session
                    && !text.trim().is_empty()
                {
                    s.say(&text);
                    r.chat_input.clear();
                }
            }
            Command::RemoteUndo(reason) => {
                if let Some(s) = &mut r.session {
                    s.undo(reason.filter(|r| !r.trim().is_empty()));
                    r.undo_reason.clear();
                }
            }
            Command::Reconnect => {
                if let Some(s) = &mut r.session {
                    s.reconnect_now();
                }
            }
            Command::Leave => {
                let left = r.session.take().is_some();
                r.selected = None;
                if left {
                    self.say("left the remote game");
                }
            }
            Command::RemoteSelect(id) => {
                // Only the seat's own pieces are picked up: their orders are listed.
                let own = id.is_none_or(|id| self.remote_own(id));
                if own {
                    self.rt.remote.selected = id;
                }
            }
            Command::RemoteClickCell(cell) => self.remote_click(cell),
            _ => {}
        }
    }

    /// The seat's side, when it is a side's seat.
    fn remote_side(&self) -> Option<SideId> {
        let s = self.remote()?;
        let seat = s.seat()?;
        let i = s.table()?.sides.iter().position(|x| x == seat)?;
        Some(SideId(u8::try_from(i).ok()?))
    }

    fn remote_own(&self, id: PieceId) -> bool {
        let side = self.remote_side();
        self.remote()
            .and_then(|s| s.pieces().iter().find(|p| p.id == id))
            .is_some_and(|p| Some(p.side) == side && p.look == Look::Open)
    }

    pub(super) fn remote_selected_name(&self) -> Option<String> {
        let id = self.rt.remote.selected?;
        self.remote()?
            .pieces()
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.name.clone())
    }

    /// The legal orders shown: the selected piece's, or all of them.
    pub(super) fn remote_legal(&self) -> Vec<&OrderSpec> {
        let Some(state) = self.remote().and_then(RemoteSession::state) else {
            return Vec::new();
        };
        let name = self.remote_selected_name();
        state
            .legal
            .iter()
            .filter(|o| match (&name, order_piece(o)) {
                (Some(n), Some(p)) => *n == p,
                _ => true,
            })
            .collect()
    }

    /// A click on a cell: a legal move (or deployment) of the selected piece ending there,
    /// or else picking up (or putting down) one of the seat's pieces there.
    fn remote_click(&mut self, cell: Cell) {
        let order = self.rt.remote.selected.and_then(|_| {
            self.remote_legal()
                .into_iter()
                .filter(|o| order_cell(o) == Some(cell))
                .min_by_key(|o| o.r#move.as_ref().map_or(0, |m| m.path.len()))
                .cloned()
        });
        if let Some(order) = order {
            return self.remote_command(Command::RemoteOrder(Box::new(order)));
        }
        let pointed = self.rt.remote.pointed.take();
        let own = self.remote().and_then(|s| {
            let mine = |p: &&DrawPiece| {
                p.look == Look::Open && p.place.covers(cell) && self.remote_own(p.id)
            };
            // The counter clicked first, then the cell's top one.
            let pieces = s.pieces();
            pieces
                .iter()
                .filter(mine)
                .find(|p| Some(p.id) == pointed)
                .or_else(|| pieces.iter().rev().find(mine))
                .map(|p| p.id)
        });
        match own {
            // A second click on the piece puts it down.
            Some(id) if self.rt.remote.selected == Some(id) => self.rt.remote.selected = None,
            Some(id) => self.remote_command(Command::RemoteSelect(Some(id))),
            // An enemy or an empty cell: the selection stays.
            None => {}
        }
    }

    /// The Remote tab.
    pub(super) fn remote_tab(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        if self.rt.remote.session.is_none() {
            egui::CentralPanel::default_margins().show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.remote_forms(ui, out));
            });
            return;
        }
        egui::Panel::top("remote bar").show(ui, |ui| self.remote_bar(ui, out));
        egui::Panel::top("remote phase bar").show(ui, |ui| self.remote_phase_bar(ui, out));
        egui::Panel::right("remote side panel")
            .default_size(340.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("remote side")
                    .show(ui, |ui| self.remote_side_panel(ui, out));
            });
        if self.remote().and_then(RemoteSession::table).is_none() {
            egui::CentralPanel::default_margins().show(ui, |ui| {
                ui.label("Waiting for the server to send the table…");
            });
            return;
        }
        let overlay = self.remote_overlay();
        let Some(session) = &self.rt.remote.session else {
            return;
        };
        let Some(table) = session.table() else {
            return;
        };
        let mut camera = self.rt.remote.camera;
        let mut result = None;
        let mut measured = None;
        let selected = self.rt.remote.selected;
        let mut armed = self.rt.remote.card_armed;
        egui::CentralPanel::default_margins().show(ui, |ui| {
            let pieces = session.pieces();
            let scene = BoardScene {
                rules: &table.rules,
                board: &table.board,
                terrain_colors: session.terrain_colors(),
                pieces,
                overlay: &overlay,
            };
            let (click, t, response) = board::show(ui, &scene, &mut camera);
            // The hover card, as the Play tab gives it: the piece as the seat knows it, or
            // the cell; once the pointer has moved over the board (not under a pointer
            // resting where the Join button was).
            if ui.input(|i| i.pointer.delta() != egui::Vec2::ZERO) {
                armed = true;
            }
            if armed {
                let sides: Vec<&str> = table.sides.iter().map(String::as_str).collect();
                let card = super::play_tab::hover_card(
                    // A seat does not hold the game's options: the card says what
                    // opens a baseline half-hex.
                    (&table.rules, &table.board, None),
                    &sides,
                    pieces,
                    &click,
                );
                super::play_tab::show_card(response, &card);
            }
            // The tape measure, from the seat's own view: from the selected piece to the
            // one under the pointer (an enemy it has not identified is a point).
            let drawn = |id| pieces.iter().find(|p| p.id == id);
            if let (Some(a), Some(b)) = (selected.and_then(drawn), click.hover.and_then(drawn))
                && a.id != b.id
            {
                measured = crate::bases::measure((&table.rules, &table.board), a, b);
                if let (Some(m), Some(pos)) = (&measured, ui.input(|i| i.pointer.hover_pos())) {
                    crate::bases::paint_measure(ui.painter(), &t, m, pos, ui.clip_rect());
                }
            }
            result = Some((click, t));
        });
        self.rt.remote.measure = measured;
        self.rt.remote.card_armed = armed;
        self.rt.remote.camera = camera;
        if let Some((click, t)) = result {
            self.rt.remote.transform = Some(t);
            // A base dropped: the move goes to the server like any listed order, which
            // answers with the new state or its refusal.
            if let Some(order) = click.drop.and_then(|d| self.remote_drop_order(&d)) {
                out.push(Command::RemoteOrder(Box::new(order)));
            }
            if let Some(c) = click.cell {
                self.rt.remote.pointed = click.piece;
                out.push(Command::RemoteClickCell(c));
            } else if click.piece.is_some() {
                out.push(Command::RemoteSelect(click.piece));
            }
        }
    }

    fn remote_overlay(&self) -> Overlay {
        let mut o = Overlay {
            selected: self.rt.remote.selected,
            // The same drag as on the Play tab; the server judges the drop.
            draggable: self.remote_draggable(),
            ..Overlay::default()
        };
        if self.rt.remote.selected.is_none() {
            return o;
        }
        let pieces = self.remote().map_or(&[][..], RemoteSession::pieces);
        for order in self.remote_legal() {
            if let Some(c) = order_cell(order)
                && !o.reach_cells.iter().any(|(x, _)| *x == c)
            {
                o.reach_cells.push((c, String::new()));
            }
            let target = order.act.as_ref().and_then(|a| a.target.as_deref());
            let Some(p) = target.and_then(|target| {
                pieces
                    .iter()
                    .find(|p| p.name == target || format!("#{}", p.id.0) == target)
            }) else {
                continue;
            };
            // On a grid its cell is ringed; on an open table the piece itself.
            match p.place.cell() {
                Some(c) if !o.targets.contains(&c) => o.targets.push(c),
                Some(_) => {}
                None => {
                    if matches!(p.place, Place::Point { .. }) && !o.target_pieces.contains(&p.id) {
                        o.target_pieces.push(p.id);
                    }
                }
            }
        }
        o
    }

    /// The forms shown before a game is joined, and the seats of a hosted game.
    fn remote_forms(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            for (form, name) in [
                (RemoteForm::Join, "Join a game"),
                (RemoteForm::Host, "Host a game"),
            ] {
                if ui
                    .selectable_label(self.rt.remote.form == form, name)
                    .clicked()
                {
                    out.push(Command::RemoteForm(form));
                }
            }
        });
        ui.separator();
        match self.rt.remote.form {
            RemoteForm::Join => self.join_form(ui, out),
            RemoteForm::Host => self.host_form(ui, out),
        }
        if self.rt.remote.hosted.is_some() {
            ui.separator();
            self.hosted_seats(ui, out);
        }
    }

    fn join_form(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        ui.label("Join a seat of a game on a grognard server with the token its host gave you.");
        let r = &mut self.rt.remote;
        egui::Grid::new("join form").num_columns(2).show(ui, |ui| {
            for (name, hint, text) in [
                ("Server", "http://HOST:PORT", &mut r.join_url),
                ("Game", "the game's id", &mut r.join_game),
                ("Token", "your seat's token", &mut r.join_token),
            ] {
                let label = ui.label(name);
                ui.add(
                    egui::TextEdit::singleline(text)
                        .hint_text(hint)
                        .desired_width(360.0),
                )
                .labelled_by(label.id);
                ui.end_row();
            }
        });
        // A seat's link pasted into any field fills all three from it.
        let link = [&r.join_url, &r.join_game, &r.join_token]
            .into_iter()
            .find_map(|t| crate::remote::seat_link(t));
        if let Some(link) = link {
            r.join_url = link.url;
            r.join_game = link.game;
            r.join_token = link.token;
        }
        if ui.button("Join").clicked() {
            out.push(Command::Join {
                url: r.join_url.clone(),
                game: r.join_game.clone(),
                token: r.join_token.clone(),
            });
        }
    }

    fn host_form(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let sides: Vec<String> = self
            .rt
            .session
            .as_ref()
            .map(|s| s.game.sides().iter().map(|d| d.name.clone()).collect())
            .unwrap_or_default();
        let Some(scenario) = self.rt.scenario_path.clone() else {
            ui.label(
                "Open a scenario first (the Scenario menu lists examples/): it is the game hosted.",
            );
            return;
        };
        ui.label(format!(
            "Host {} on a server: the scenario and every file it loads are sent as saved on disk (unsaved edits to the rules are not).",
            scenario.display()
        ));
        if let Some(words) = self
            .rt
            .session
            .as_ref()
            .map(|s| host_ruleset_words(&s.scenario))
        {
            ui.label(words);
        }
        let running = self
            .rt
            .remote
            .server
            .as_ref()
            .map(grognard_server::Running::url);
        let r = &mut self.rt.remote;
        if !sides.contains(&r.host_play_as) {
            r.host_play_as = sides.first().cloned().unwrap_or_else(|| REFEREE.to_owned());
        }
        egui::Grid::new("host form").num_columns(2).show(ui, |ui| {
            let label = ui.label("Server");
            match &running {
                Some(url) => {
                    ui.label(format!("this editor's server, at {url}"));
                }
                None => {
                    ui.add(egui::TextEdit::singleline(&mut r.host_url).desired_width(360.0))
                        .labelled_by(label.id);
                }
            }
            ui.end_row();
            if running.is_none() {
                ui.label("");
                ui.checkbox(&mut r.host_start, "start a server here");
                ui.end_row();
                if r.host_start {
                    let label = ui.label("Database");
                    ui.add(egui::TextEdit::singleline(&mut r.host_db).desired_width(360.0))
                        .labelled_by(label.id);
                    ui.end_row();
                } else {
                    let label = ui.label("Host token");
                    ui.add(
                        egui::TextEdit::singleline(&mut r.host_token)
                            .password(true)
                            .hint_text("printed by `grognard serve` at its start")
                            .desired_width(360.0),
                    )
                    .labelled_by(label.id);
                    ui.end_row();
                }
            }
            let label = ui.label("Play as");
            egui::ComboBox::from_id_salt("host play as")
                .selected_text(r.host_play_as.clone())
                .show_ui(ui, |ui| {
                    for seat in sides.iter().map(String::as_str).chain([REFEREE]) {
                        ui.selectable_value(&mut r.host_play_as, seat.to_owned(), seat);
                    }
                })
                .response
                .labelled_by(label.id);
            ui.end_row();
            for (i, side) in sides.iter().enumerate() {
                if *side == r.host_play_as {
                    continue;
                }
                let label = ui.label(format!("{side} played by"));
                let current = r.host_policies.get(side).cloned();
                egui::ComboBox::from_id_salt(("host policy", i))
                    .selected_text(
                        current
                            .as_deref()
                            .map_or("a person".to_owned(), |p| format!("the server ({p})")),
                    )
                    .show_ui(ui, |ui| {
                        if ui.selectable_label(current.is_none(), "a person").clicked() {
                            r.host_policies.remove(side);
                        }
                        for (p, why) in SERVER_POLICIES {
                            if ui
                                .selectable_label(
                                    current.as_deref() == Some(p),
                                    format!("the server ({p})"),
                                )
                                .on_hover_text(why)
                                .clicked()
                            {
                                r.host_policies.insert(side.clone(), p.to_owned());
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id);
                ui.end_row();
            }
        });
        let busy = r.job.is_some();
        if ui.add_enabled(!busy, egui::Button::new("Host")).clicked() {
            let mut policies = r.host_policies.clone();
            policies.retain(|side, _| sides.contains(side) && *side != r.host_play_as);
            out.push(Command::Host(HostRequest {
                url: running.clone().unwrap_or_else(|| r.host_url.clone()),
                start_server: running.is_none() && r.host_start,
                host_token: Some(r.host_token.trim().to_owned()).filter(|t| !t.is_empty()),
                db: PathBuf::from(r.host_db.trim()),
                scenario,
                policies,
                play_as: r.host_play_as.clone(),
            }));
        }
        if busy {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Creating the game…");
            });
        }
    }

    /// Each seat of the hosted game with its link (`…/play/GAME#token=TOKEN`, as `serve
    /// --create` and `remote create` print it, sides first, then the referee and the
    /// spectator): copy it, or join as that seat.
    fn hosted_seats(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(h) = &self.rt.remote.hosted else {
            return;
        };
        let joined = self.remote().and_then(RemoteSession::seat);
        ui.label(RichText::new(format!("Game {} on {}", h.created.game, h.url)).strong());
        ui.label(
            "Give each player only their own seat's link: it opens the game in a browser, \
             and its token (after #token=) joins it from an editor. A link is the seat's only key.",
        );
        egui::Grid::new("hosted seats")
            .num_columns(4)
            .show(ui, |ui| {
                // The buttons before the link: a link is long, and at 1024 points wide
                // it pushed them off the window.
                let copied_id = egui::Id::unique("hosted link copied");
                for (seat, link) in grognard_server::client::seat_links(&h.created, &h.url) {
                    // A seat the server plays says so: its link is for watching.
                    let server_plays = h.policies.get(&seat);
                    match server_plays {
                        Some(p) => ui.label(format!("{seat} (the server plays it: {p})")),
                        None => ui.label(&seat),
                    };
                    let whose = crate::words::possessive(&seat);
                    if ui.button(format!("Copy {whose} link")).clicked() {
                        ui.ctx().copy_text(link.clone());
                        ui.ctx()
                            .data_mut(|d| d.insert_temp(copied_id, seat.clone()));
                    }
                    let token = h.created.tokens.get(&seat).cloned().unwrap_or_default();
                    if joined == Some(seat.as_str()) {
                        ui.label("(joined)");
                    } else if server_plays.is_some() {
                        // The server gives that seat's orders: no one joins it to play.
                        ui.label("");
                    } else if ui.button(format!("Join as {seat}")).clicked() {
                        out.push(Command::Join {
                            url: h.url.clone(),
                            game: h.created.game.clone(),
                            token,
                        });
                    }
                    ui.label(RichText::new(&link).monospace());
                    ui.end_row();
                }
            });
        // A copy is said on a line of its own under the seats, kept even when empty: said
        // beside its button it widened that column and moved every link sideways.
        let copied_id = egui::Id::unique("hosted link copied");
        let copied: Option<String> = ui.ctx().data(|d| d.get_temp(copied_id));
        ui.label(copied.map_or_else(
            || " ".to_owned(),
            |seat| format!("copied {} link", crate::words::possessive(&seat)),
        ));
    }

    /// Forgets the game "Host game…" created last unless it is the game joined: its seats
    /// and links belong to another scenario once a new one is opened.
    pub(super) fn forget_hosted(&mut self) {
        let r = &mut self.rt.remote;
        let joined = r.session.as_ref().map(RemoteSession::game);
        if r.hosted
            .as_ref()
            .is_some_and(|h| joined != Some(h.created.game.as_str()))
        {
            r.hosted = None;
        }
    }

    fn remote_bar(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(s) = self.remote() else {
            return;
        };
        ui.horizontal_wrapped(|ui| {
            let color = match s.link() {
                Link::Connected => Color32::from_rgb(40, 140, 60),
                Link::Connecting => Color32::GRAY,
                Link::Retrying { .. } => Color32::from_rgb(200, 120, 0),
                Link::Refused(_) => Color32::RED,
            };
            ui.colored_label(color, "●");
            ui.label(s.status());
            ui.separator();
            ui.label(format!("game {}", s.game()));
            if !s.connected() && ui.button("Reconnect now").clicked() {
                out.push(Command::Reconnect);
            }
            if ui.button("Leave").clicked() {
                out.push(Command::Leave);
            }
        });
        if self.rt.remote.hosted.is_some() {
            egui::CollapsingHeader::new("Seats and links")
                .id_salt("hosted seats")
                .default_open(true)
                .show(ui, |ui| self.hosted_seats(ui, out));
        }
    }

    fn remote_phase_bar(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let reason = &mut self.rt.remote.undo_reason;
        let Some(s) = self.rt.remote.session.as_ref() else {
            return;
        };
        let (Some(state), Some(table)) = (s.state(), s.table()) else {
            ui.label("Waiting for the game's state…");
            return;
        };
        // Slots of fixed width (elided, whole on hover): the buttons after them stay put
        // whatever the phase, the side or the result says.
        ui.horizontal(|ui| {
            super::slot_label(ui, RichText::new(phase_line(state)).strong(), 380.0);
            let seat = s.seat().unwrap_or_default();
            let phasing = state
                .view
                .pointer("/view/phasing")
                .and_then(serde_json::Value::as_str)
                .map_or_else(String::new, |p| format!("({p} phasing)"));
            super::slot_label(ui, phasing, 130.0);
            let turn: egui::WidgetText =
                if !state.status.over && table.sides.iter().any(|x| x == seat) {
                    if state.status.to_act.iter().any(|x| x == seat) {
                        RichText::new("your turn")
                            .color(Color32::from_rgb(40, 140, 60))
                            .into()
                    } else {
                        "waiting for the other side".into()
                    }
                } else {
                    "".into()
                };
            super::slot_label(ui, turn, 180.0);
            ui.separator();
            let end = state.legal.iter().find(|o| o.end_phase).cloned();
            if ui
                .add_enabled(
                    s.connected() && end.is_some(),
                    egui::Button::new("End phase"),
                )
                .clicked()
                && let Some(end) = end
            {
                out.push(Command::RemoteOrder(Box::new(end)));
            }
            if seat == REFEREE {
                let label = ui.label("Why");
                ui.add(
                    egui::TextEdit::singleline(reason)
                        .hint_text("the referee says why")
                        .desired_width(160.0),
                )
                .labelled_by(label.id);
            }
            if ui
                .add_enabled(s.connected() && state.can_undo, egui::Button::new("Undo"))
                .clicked()
            {
                out.push(Command::RemoteUndo(
                    (seat == REFEREE).then(|| reason.clone()),
                ));
            }
        });
    }

    fn remote_side_panel(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(s) = self.remote() else {
            return;
        };
        // The refusal's line and the legal orders each keep a room of fixed height, so
        // the chat's Say field below them stays where it is after an order.
        let text = s.problem().map_or_else(String::new, |p| match p {
            Problem::Refused(m) => m.clone(),
            Problem::Error(m) => format!("error: {m}"),
        });
        let width = ui.available_width();
        super::slot_label(ui, RichText::new(text).color(Color32::RED), width);
        ui.separator();
        ui.allocate_ui_with_layout(
            egui::vec2(width, LEGAL_ROOM),
            egui::Layout::top_down(egui::Align::Min),
            |ui| {
                ui.set_min_size(egui::vec2(width, LEGAL_ROOM));
                self.remote_legal_ui(ui, out);
            },
        );
        ui.separator();
        self.remote_chat_ui(ui, out);
        ui.separator();
        let Some(s) = self.remote() else {
            return;
        };
        // The server's words with the ruleset's flag and counter names spaced, as the Play
        // tab shows its log (`scout1 is fate rolled`, not `fate_rolled`).
        let text = s.state().map_or_else(String::new, |st| match s.table() {
            Some(table) => st
                .text
                .lines()
                .map(|l| crate::words::log_line(&table.rules, l))
                .collect::<Vec<_>>()
                .join("\n"),
            None => st.text.clone(),
        });
        egui::CollapsingHeader::new(RichText::new("View and log").strong())
            .id_salt("remote log")
            .default_open(true)
            .show(ui, |ui| {
                if text.is_empty() {
                    ui.label(match s.seat() {
                        Some(SPECTATOR) => "A spectator sees the log once the game is over.",
                        _ => "Nothing yet.",
                    });
                }
                egui::ScrollArea::vertical()
                    .id_salt("remote log text")
                    .max_height(320.0)
                    .stick_to_bottom(true)
                    .show(ui, |ui| {
                        ui.label(RichText::new(text).monospace());
                    });
            });
    }

    /// The pieces drawn on the remote board (tests read them).
    #[must_use]
    pub fn remote_pieces(&self) -> &[DrawPiece] {
        self.remote().map_or(&[], RemoteSession::pieces)
    }
}
