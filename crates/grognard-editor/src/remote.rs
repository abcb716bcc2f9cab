//! Remote play: the editor as a client of a `grognard serve` server.
//!
//! A [`RemoteSession`] is one seat's live connection (the WebSocket at
//! `/games/{id}/live`), run on a thread of its own so no frame ever waits on the network.
//! It says `hello` with the seat's token, keeps what the server last sent — the public
//! [`Table`], the seat's [`SeatState`], the chat — and reconnects by itself, with a growing
//! pause, whenever the connection drops. The server holds the truth: the seat only ever
//! has its own side's view, and every order goes to the server, which answers with the
//! new state or a refusal.
//!
//! [`HostJob`] creates a game from a scenario file (and first starts a server on this
//! machine when asked), also off the frame.

use std::collections::BTreeMap;
use std::io::ErrorKind;
use std::net::{TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

use grognard_kernel::piece::Piece;
use grognard_kernel::view::View;
use grognard_rules::model::OrderSpec;
use grognard_server::client::Client;
use grognard_server::protocol::{
    ChatLine, ClientMessage, Created, SeatState, ServerMessage, Table,
};
use tungstenite::Message;
use tungstenite::stream::MaybeTlsStream;

use crate::board::DrawPiece;
use crate::view::{open_pieces, pieces_from_view};

/// How long connecting to the server may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the WebSocket handshake may take.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the connection's thread waits for a message before it looks for one to send.
const POLL: Duration = Duration::from_millis(20);
/// A ping this often keeps the connection alive and finds a dead one.
const PING_EVERY: Duration = Duration::from_secs(20);
/// The longest pause between two tries to reconnect.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// Terrain colours for a joined table: the ruleset's own (`color:`), which the server
/// sends beside the compiled rules; a terrain without one (or a server that sends none)
/// by what its name suggests, as the play page does.
#[must_use]
pub fn table_colors(table: &Table) -> Vec<egui::Color32> {
    table
        .rules
        .terrain
        .iter()
        .enumerate()
        .map(|(i, t)| {
            table
                .terrain_colors
                .get(i)
                .and_then(|c| c.as_deref())
                .and_then(crate::board::parse_color)
                .unwrap_or_else(|| color_by_name(&t.name))
        })
        .collect()
}

/// A terrain's fill by what its name suggests, for a terrain with no colour of its own.
fn color_by_name(name: &str) -> egui::Color32 {
    let n = name.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| n.contains(w));
    let (r, g, b) = if has(&["heavy", "forest"]) {
        (47, 93, 42)
    } else if has(&["wood"]) {
        (109, 154, 74)
    } else if has(&["hill", "rough"]) {
        (201, 178, 124)
    } else if has(&["town", "build", "village"]) {
        (176, 138, 106)
    } else if has(&["swamp", "marsh"]) {
        (143, 160, 138)
    } else if has(&["lake", "water", "river"]) {
        (111, 168, 220)
    } else if has(&["fort"]) {
        (138, 138, 138)
    } else if has(&["clear", "open"]) {
        (216, 228, 176)
    } else {
        (205, 205, 205)
    };
    egui::Color32::from_rgb(r, g, b)
}

/// The WebSocket URL of a game: `http://h:p` becomes `ws://h:p/games/{game}/live`.
///
/// # Errors
/// Not an `http://` address (a bare `host:port` is taken as one), or a game id with
/// characters an id never has.
pub fn live_url(url: &str, game: &str) -> Result<String, String> {
    let base = server_url(url)?;
    let game = game.trim();
    if game.is_empty()
        || !game
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!("`{}` is not a game id", quoted(game)));
    }
    let rest = base.trim_start_matches("http://");
    Ok(format!("ws://{rest}/games/{game}/live"))
}

/// A seat's link split into what joining needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatLink {
    /// The server, `http://HOST:PORT`.
    pub url: String,
    /// The game's id.
    pub game: String,
    /// The seat's token.
    pub token: String,
}

/// The parts of a seat's link as Host hands it out (`http://HOST:PORT/play/GAME#token=T`,
/// `http://` optional), or `None` when `text` is not one.
#[must_use]
pub fn seat_link(text: &str) -> Option<SeatLink> {
    let text = text.trim();
    let (before, fragment) = text.split_once('#')?;
    let token = fragment
        .split('&')
        .find_map(|kv| kv.strip_prefix("token="))?
        .trim();
    let (base, game) = before.split_once("/play/")?;
    let game = game.split(['?', '/']).next().unwrap_or_default();
    if token.is_empty() || game.is_empty() {
        return None;
    }
    Some(SeatLink {
        url: server_url(base).ok()?,
        game: game.to_owned(),
        token: token.to_owned(),
    })
}

/// What joining uses: the server, game and token as given, unless `url` is a whole seat
/// link, whose parts then win (a player pastes the link Host gave them into "Server").
///
/// # Errors
/// A malformed address or game id, or no token.
pub fn join_parts(url: &str, game: &str, token: &str) -> Result<SeatLink, String> {
    if let Some(link) = [url, game, token].into_iter().find_map(seat_link) {
        return Ok(link);
    }
    let url = server_url(url)?;
    live_url(&url, game)?;
    let token = token.trim();
    if token.is_empty() {
        return Err("give the seat's token (or paste the seat's whole link as the server)".into());
    }
    Ok(SeatLink {
        url,
        game: game.trim().to_owned(),
        token: token.to_owned(),
    })
}

/// `text` fit to quote in a message: anything from a `#` on (where a link keeps its
/// token) is left out, so no secret ever reaches the status line.
fn quoted(text: &str) -> String {
    match text.split_once('#') {
        Some((before, _)) => format!("{before}#…"),
        None => text.to_owned(),
    }
}

/// A server address as the client takes it: `http://HOST:PORT` with no trailing `/` (a
/// bare `HOST:PORT` gets `http://`).
///
/// # Errors
/// An `https://` or other address: the server speaks plain HTTP.
pub fn server_url(url: &str) -> Result<String, String> {
    let shown = quoted(url.trim());
    let url = url.trim().trim_end_matches('/');
    if url.is_empty() {
        return Err("give the server's address: http://HOST:PORT".into());
    }
    let base = if url.contains("://") {
        url.to_owned()
    } else {
        format!("http://{url}")
    };
    let rest = base
        .strip_prefix("http://")
        .ok_or_else(|| format!("`{shown}` is not a server address: give http://HOST:PORT"))?;
    if rest.is_empty() || rest.contains(['/', '?', '#', ' ']) {
        return Err(format!(
            "`{shown}` is not a server address: give http://HOST:PORT \
             (or a seat's whole link, …/play/GAME#token=…)"
        ));
    }
    Ok(base)
}

/// The state of the connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// Connecting (or saying hello).
    Connecting,
    /// Connected, the seat welcomed.
    Connected,
    /// The connection dropped or could not be made; the next try is at `at`.
    Retrying {
        /// When the next try starts.
        at: Instant,
        /// What went wrong.
        why: String,
    },
    /// The server refused the seat (a wrong token, no such game): no more tries until
    /// asked.
    Refused(String),
}

/// The last thing the server would not do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// An order refused by the rules (`refused: ...`).
    Refused(String),
    /// A request that was wrong, or could not be sent.
    Error(String),
}

impl Problem {
    /// Its text.
    #[must_use]
    pub fn message(&self) -> &str {
        match self {
            Self::Refused(m) | Self::Error(m) => m,
        }
    }
}

/// What the UI asks the connection's thread.
enum Outgoing {
    Message(Box<ClientMessage>),
    ReconnectNow,
}

/// What the connection's thread tells the UI.
enum Incoming {
    Connecting,
    Message(ServerMessage),
    History(Vec<ChatLine>),
    Lost { why: String, retry_in: Duration },
    Refused(String),
    NotSent(String),
}

/// One seat's live connection to a server, and what the server last sent it.
pub struct RemoteSession {
    url: String,
    game: String,
    token: String,
    outbox: Sender<Outgoing>,
    inbox: Receiver<Incoming>,
    link: Link,
    seat: Option<String>,
    table: Option<Arc<Table>>,
    /// The table's terrain colours, by terrain id (worked out once, at `welcome`).
    colors: Vec<egui::Color32>,
    state: Option<SeatState>,
    pieces: Vec<DrawPiece>,
    chat: Vec<ChatLine>,
    problem: Option<Problem>,
    generation: u64,
}

impl std::fmt::Debug for RemoteSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteSession")
            .field("url", &self.url)
            .field("game", &self.game)
            .field("link", &self.link)
            .field("seat", &self.seat)
            .finish_non_exhaustive()
    }
}

impl RemoteSession {
    /// Starts connecting to `game` on the server at `url` as the seat `token` opens.
    /// `wake` is called from the connection's thread whenever something arrives (the
    /// editor asks for a repaint).
    ///
    /// # Errors
    /// A malformed address or game id (nothing is started). An unreachable server is not
    /// an error: the session says so in its [`status`](Self::status) and keeps trying.
    pub fn join(
        url: &str,
        game: &str,
        token: &str,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> Result<Self, String> {
        let SeatLink {
            url: base,
            game,
            token,
        } = join_parts(url, game, token)?;
        let ws = live_url(&base, &game)?;
        let (outbox, outgoing) = mpsc::channel();
        let (incoming, inbox) = mpsc::channel();
        let link = Connection {
            ws,
            base: base.clone(),
            game: game.clone(),
            token: token.clone(),
            outgoing,
            incoming,
            wake: Arc::new(wake),
            last_chat: 0,
        };
        std::thread::Builder::new()
            .name("grognard-remote".into())
            .spawn(move || link.run())
            .map_err(|e| format!("cannot start the connection's thread: {e}"))?;
        Ok(Self {
            url: base,
            game,
            token,
            outbox,
            inbox,
            link: Link::Connecting,
            seat: None,
            table: None,
            colors: Vec::new(),
            state: None,
            pieces: Vec::new(),
            chat: Vec::new(),
            problem: None,
            generation: 0,
        })
    }

    /// Takes in what arrived since the last call; true when anything did.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Ok(m) = self.inbox.try_recv() {
            changed = true;
            self.generation += 1;
            match m {
                Incoming::Connecting => self.link = Link::Connecting,
                Incoming::Lost { why, retry_in } => {
                    self.link = Link::Retrying {
                        at: Instant::now() + retry_in,
                        why,
                    };
                }
                Incoming::Refused(why) => self.link = Link::Refused(why),
                Incoming::NotSent(what) => {
                    self.problem = Some(Problem::Error(format!(
                        "not connected: {what} was not sent"
                    )));
                }
                Incoming::History(lines) => {
                    for line in lines {
                        self.add_chat(line);
                    }
                }
                Incoming::Message(m) => self.take(m),
            }
        }
        changed
    }

    fn take(&mut self, m: ServerMessage) {
        match m {
            ServerMessage::Welcome { seat, table } => {
                self.link = Link::Connected;
                self.seat = Some(seat);
                self.colors = table_colors(&table);
                self.table = Some(Arc::from(table));
                self.redraw();
            }
            ServerMessage::State(state) => {
                self.state = Some(*state);
                self.redraw();
            }
            ServerMessage::Chat(line) => self.add_chat(line),
            ServerMessage::Refused { message, .. } => {
                self.problem = Some(Problem::Refused(message))
            }
            ServerMessage::Error { message } => self.problem = Some(Problem::Error(message)),
        }
    }

    fn add_chat(&mut self, line: ChatLine) {
        // Lines come live and again with the history fetched on each (re)connection.
        match self.chat.binary_search_by_key(&line.seq, |l| l.seq) {
            Ok(_) => {}
            Err(at) => self.chat.insert(at, line),
        }
    }

    fn redraw(&mut self) {
        self.pieces = match (&self.table, &self.state) {
            (Some(t), Some(s)) => seat_pieces(t, s),
            _ => Vec::new(),
        };
    }

    fn send(&mut self, m: ClientMessage) {
        self.problem = None;
        if self.outbox.send(Outgoing::Message(Box::new(m))).is_err() {
            self.problem = Some(Problem::Error("the connection has ended".into()));
        }
    }

    /// Sends an order (the answer is a new state, or a refusal in [`problem`](Self::problem)).
    pub fn order(&mut self, order: OrderSpec) {
        self.send(ClientMessage::Order {
            order: Box::new(order),
        });
    }

    /// Says something in the game's chat.
    pub fn say(&mut self, text: &str) {
        self.send(ClientMessage::Chat {
            text: text.to_owned(),
        });
    }

    /// Asks the server to take back the last order.
    pub fn undo(&mut self, reason: Option<String>) {
        self.send(ClientMessage::Undo { reason });
    }

    /// Tries to connect again now, without waiting for the pause to end (and after a
    /// refusal).
    pub fn reconnect_now(&mut self) {
        let _ = self.outbox.send(Outgoing::ReconnectNow);
    }

    /// The server's address (`http://HOST:PORT`).
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The game's id.
    #[must_use]
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The seat's token.
    #[must_use]
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The seat the token opened, once the server has said.
    #[must_use]
    pub fn seat(&self) -> Option<&str> {
        self.seat.as_deref()
    }

    /// The state of the connection.
    #[must_use]
    pub fn link(&self) -> &Link {
        &self.link
    }

    /// True while connected.
    #[must_use]
    pub fn connected(&self) -> bool {
        self.link == Link::Connected
    }

    /// The rules, the board and the sides, once welcomed.
    #[must_use]
    pub fn table(&self) -> Option<&Table> {
        self.table.as_deref()
    }

    /// How the table's terrain is drawn, by terrain id (empty before `welcome`).
    #[must_use]
    pub fn terrain_colors(&self) -> &[egui::Color32] {
        &self.colors
    }

    /// What the seat may know now, as the server last sent it.
    #[must_use]
    pub fn state(&self) -> Option<&SeatState> {
        self.state.as_ref()
    }

    /// The pieces the seat sees, drawn from its view.
    #[must_use]
    pub fn pieces(&self) -> &[DrawPiece] {
        &self.pieces
    }

    /// The chat so far, oldest first.
    #[must_use]
    pub fn chat(&self) -> &[ChatLine] {
        &self.chat
    }

    /// The last refusal or error, until the next request.
    #[must_use]
    pub fn problem(&self) -> Option<&Problem> {
        self.problem.as_ref()
    }

    /// Counts what has arrived, so a view of it can tell when to redraw.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// One line on the state of the connection: "connected as french",
    /// "…; reconnecting in 4s…".
    #[must_use]
    pub fn status(&self) -> String {
        match &self.link {
            Link::Connecting => format!("connecting to {}…", self.url),
            Link::Connected => format!(
                "connected to {} as {}",
                self.url,
                self.seat.as_deref().unwrap_or("?")
            ),
            Link::Retrying { at, why } => {
                let left = at.saturating_duration_since(Instant::now());
                format!("{why}; reconnecting in {}s…", left.as_secs() + 1)
            }
            Link::Refused(why) => format!("the server refused the seat: {why}"),
        }
    }
}

/// The pieces a seat's state shows: a side's view, or every piece for the referee (and a
/// spectator once the game is over); none for a spectator while it runs.
#[must_use]
pub fn seat_pieces(table: &Table, state: &SeatState) -> Vec<DrawPiece> {
    if let Some(view) = state.view.get("view") {
        return serde_json::from_value::<View>(view.clone())
            .map(|v| pieces_from_view(&table.rules, &table.board, &v))
            .unwrap_or_default();
    }
    if let Some(pieces) = state.view.get("state").and_then(|s| s.get("pieces")) {
        return serde_json::from_value::<Vec<Piece>>(pieces.clone())
            .map(|p| open_pieces(&table.rules, &p))
            .unwrap_or_default();
    }
    Vec::new()
}

/// The pause before try `n` (from 1): 1 s, 2 s, 4 s... up to [`MAX_BACKOFF`].
fn backoff(n: u32) -> Duration {
    Duration::from_secs(1u64 << n.saturating_sub(1).min(5)).min(MAX_BACKOFF)
}

/// How a connection ended.
enum Ended {
    /// The session was dropped: stop.
    Stop,
    /// The connection dropped (after `welcomed`, or before it).
    Lost { why: String, welcomed: bool },
    /// The server refused the hello.
    Refused(String),
}

type Socket = tungstenite::WebSocket<MaybeTlsStream<TcpStream>>;

/// The connection's thread.
struct Connection {
    ws: String,
    base: String,
    game: String,
    token: String,
    outgoing: Receiver<Outgoing>,
    incoming: Sender<Incoming>,
    wake: Arc<dyn Fn() + Send + Sync>,
    /// The last chat line passed on (the history fetched after a reconnection starts
    /// after it).
    last_chat: u64,
}

impl Connection {
    /// Passes something to the UI; false once the UI has gone.
    fn tell(&self, m: Incoming) -> bool {
        let ok = self.incoming.send(m).is_ok();
        (self.wake)();
        ok
    }

    fn run(mut self) {
        let mut tries: u32 = 0;
        loop {
            if !self.tell(Incoming::Connecting) {
                return;
            }
            let ended = match connect(&self.ws) {
                Ok(mut socket) => self.serve(&mut socket),
                Err(why) => Ended::Lost {
                    why,
                    welcomed: false,
                },
            };
            let why = match ended {
                Ended::Stop => return,
                Ended::Refused(why) => {
                    if !self.tell(Incoming::Refused(why)) || !self.wait(None) {
                        return;
                    }
                    tries = 0;
                    continue;
                }
                Ended::Lost { why, welcomed } => {
                    if welcomed {
                        tries = 0;
                    }
                    why
                }
            };
            tries += 1;
            let pause = backoff(tries);
            if !self.tell(Incoming::Lost {
                why,
                retry_in: pause,
            }) || !self.wait(Some(pause))
            {
                return;
            }
        }
    }

    /// Waits `pause` (or until asked to reconnect; forever when `None`); what is asked to
    /// be sent meanwhile is not. False when the session has gone.
    fn wait(&self, pause: Option<Duration>) -> bool {
        let until = pause.map(|p| Instant::now() + p);
        loop {
            let next = match until {
                Some(t) => {
                    let left = t.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return true;
                    }
                    self.outgoing.recv_timeout(left)
                }
                None => self
                    .outgoing
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            match next {
                Ok(Outgoing::ReconnectNow) | Err(RecvTimeoutError::Timeout) => return true,
                Ok(Outgoing::Message(m)) => {
                    if !self.tell(Incoming::NotSent(describe(&m))) {
                        return false;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return false,
            }
        }
    }

    /// Says hello, then passes on what the server sends and sends what the UI asks.
    fn serve(&mut self, socket: &mut Socket) -> Ended {
        let lost = |why: String, welcomed| Ended::Lost { why, welcomed };
        let hello = ClientMessage::Hello {
            token: self.token.clone(),
        };
        if let Err(e) = socket.send(Message::text(json(&hello))) {
            return lost(format!("lost the connection to {}: {e}", self.base), false);
        }
        let mut welcomed = false;
        let mut pinged = Instant::now();
        loop {
            loop {
                match self.outgoing.try_recv() {
                    Ok(Outgoing::Message(m)) => {
                        if let Err(e) = socket.send(Message::text(json(&m))) {
                            let _ = self.tell(Incoming::NotSent(describe(&m)));
                            return lost(
                                format!("lost the connection to {}: {e}", self.base),
                                welcomed,
                            );
                        }
                    }
                    Ok(Outgoing::ReconnectNow) => {}
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => {
                        let _ = socket.close(None);
                        let _ = socket.flush();
                        return Ended::Stop;
                    }
                }
            }
            if pinged.elapsed() >= PING_EVERY {
                pinged = Instant::now();
                if let Err(e) = socket.send(Message::Ping(Vec::new().into())) {
                    return lost(
                        format!("lost the connection to {}: {e}", self.base),
                        welcomed,
                    );
                }
            }
            let text = match socket.read() {
                Ok(Message::Text(t)) => t,
                Ok(Message::Close(_)) => {
                    return lost(format!("{} closed the connection", self.base), welcomed);
                }
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
                {
                    continue;
                }
                Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
                    return lost(format!("{} closed the connection", self.base), welcomed);
                }
                Err(e) => {
                    return lost(
                        format!("lost the connection to {}: {e}", self.base),
                        welcomed,
                    );
                }
            };
            let message = match serde_json::from_str::<ServerMessage>(text.as_str()) {
                Ok(m) => m,
                Err(e) => ServerMessage::Error {
                    message: format!("not a message of a grognard server: {e}"),
                },
            };
            match &message {
                // An error before the welcome is the server refusing the hello.
                ServerMessage::Error { message } if !welcomed => {
                    let _ = socket.close(None);
                    return Ended::Refused(message.clone());
                }
                ServerMessage::Chat(line) => self.last_chat = self.last_chat.max(line.seq),
                _ => {}
            }
            let welcome = matches!(message, ServerMessage::Welcome { .. });
            if !self.tell(Incoming::Message(message)) {
                return Ended::Stop;
            }
            if welcome {
                welcomed = true;
                self.fetch_chat();
            }
        }
    }

    /// The chat said since the last line passed on (all of it at the first connection).
    fn fetch_chat(&mut self) {
        let Ok(client) = Client::new(&self.base) else {
            return;
        };
        if let Ok(chat) = client.chat(&self.game, &self.token, self.last_chat)
            && !chat.lines.is_empty()
        {
            self.last_chat = chat
                .lines
                .iter()
                .map(|l| l.seq)
                .max()
                .unwrap_or(self.last_chat);
            let _ = self.tell(Incoming::History(chat.lines));
        }
    }
}

fn json(m: &ClientMessage) -> String {
    serde_json::to_string(m).unwrap_or_default()
}

/// What a message was, for "not connected: ... was not sent".
fn describe(m: &ClientMessage) -> String {
    match m {
        ClientMessage::Hello { .. } => "the hello".into(),
        ClientMessage::Order { order } => format!(
            "the order `{}`",
            crate::words::order_text(&serde_json::to_value(order).unwrap_or_default())
        ),
        ClientMessage::Chat { .. } => "the chat line".into(),
        ClientMessage::Undo { .. } => "the undo".into(),
    }
}

/// Opens the WebSocket: a TCP connection with a time limit, then the handshake.
fn connect(ws: &str) -> Result<Socket, String> {
    let host_port = ws
        .trim_start_matches("ws://")
        .split('/')
        .next()
        .unwrap_or_default();
    let addrs: Vec<_> = host_port
        .to_socket_addrs()
        .map_err(|e| format!("cannot find {host_port}: {e}"))?
        .collect();
    let mut last = format!("cannot find {host_port}");
    let mut stream = None;
    for a in addrs {
        match TcpStream::connect_timeout(&a, CONNECT_TIMEOUT) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = format!("cannot reach {host_port}: {e}"),
        }
    }
    let stream = stream.ok_or(last)?;
    let setup = |s: &TcpStream, read: Duration| {
        s.set_read_timeout(Some(read))
            .and_then(|()| s.set_write_timeout(Some(HANDSHAKE_TIMEOUT)))
            .and_then(|()| s.set_nodelay(true))
            .map_err(|e| format!("cannot use the connection to {host_port}: {e}"))
    };
    setup(&stream, HANDSHAKE_TIMEOUT)?;
    let (socket, _) =
        tungstenite::client::client(ws, MaybeTlsStream::Plain(stream)).map_err(|e| match e {
            tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response)) => {
                let body = response.body().as_deref().unwrap_or_default();
                let text = serde_json::from_slice::<grognard_server::protocol::ErrorBody>(body)
                    .map_or_else(|_| response.status().to_string(), |b| b.error);
                format!("{host_port} would not open the game: {text}")
            }
            tungstenite::HandshakeError::Failure(e) => {
                format!("{host_port} is not a grognard server: {e}")
            }
            tungstenite::HandshakeError::Interrupted(_) => {
                format!("{host_port} did not answer in time")
            }
        })?;
    if let MaybeTlsStream::Plain(s) = socket.get_ref() {
        setup(s, POLL)?;
    }
    Ok(socket)
}

/// "Host game…": what to create, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostRequest {
    /// The server's address; with `start_server`, where to listen (port 0: any free one).
    pub url: String,
    /// Start a server on this machine first.
    pub start_server: bool,
    /// The host token of the server at `url` (a server started here brings its own).
    pub host_token: Option<String>,
    /// The new server's database file.
    pub db: PathBuf,
    /// The scenario file.
    pub scenario: PathBuf,
    /// Sides the server plays (`random`, `greedy`, `search`: the server's
    /// `--policy SIDE=…` words).
    pub policies: BTreeMap<String, String>,
    /// The seat to join once the game exists.
    pub play_as: String,
}

/// A game created by "Host game…".
#[derive(Debug)]
pub struct Hosted {
    /// The server's address.
    pub url: String,
    /// The game and one token per seat.
    pub created: Created,
    /// The server started here, if one was (dropping it stops the server).
    pub server: Option<grognard_server::Running>,
    /// The seat to join.
    pub play_as: String,
    /// The sides the server plays, with its policy (`greedy`), as the game was asked for.
    pub policies: BTreeMap<String, String>,
}

/// "Host game…" at work on a thread of its own: starting the server, gathering the
/// scenario's files and creating the game.
#[derive(Debug)]
pub struct HostJob {
    done: Receiver<Result<Hosted, String>>,
}

impl HostJob {
    /// Starts the work; `wake` is called when it is done.
    #[must_use]
    pub fn start(request: HostRequest, wake: impl Fn() + Send + 'static) -> Self {
        let (tx, done) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("grognard-host".into())
            .spawn({
                let tx = tx.clone();
                move || {
                    let _ = tx.send(host(request));
                    wake();
                }
            });
        if let Err(e) = spawned {
            let _ = tx.send(Err(format!("cannot start the work: {e}")));
        }
        Self { done }
    }

    /// The outcome, once there is one.
    #[must_use]
    pub fn poll(&self) -> Option<Result<Hosted, String>> {
        match self.done.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("hosting stopped unexpectedly".into())),
        }
    }
}

fn host(request: HostRequest) -> Result<Hosted, String> {
    let mut url = server_url(&request.url)?;
    let mut host_token = request.host_token.clone();
    let server = if request.start_server {
        let listen = url.trim_start_matches("http://").to_owned();
        if let Some(dir) = request.db.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
        }
        let running = grognard_server::spawn(&listen, &request.db)?;
        url = running.url();
        host_token = Some(running.host_token.clone());
        Some(running)
    } else {
        None
    };
    let create = grognard_server::bundle::gather(
        &request.scenario,
        BTreeMap::new(),
        None,
        request.policies.clone(),
    )
    .map_err(|e| e.to_string())?;
    let policies = request.policies.clone();
    let created = Client::new(&url)
        .and_then(|c| c.create(&create, host_token.as_deref()))
        .map_err(|e| refusal_words(&e, &url))?;
    Ok(Hosted {
        url,
        created,
        server,
        play_as: request.play_as,
        policies,
    })
}

/// What a failed create says to the player: a missing or wrong host token in the editor's
/// words (the server's own text speaks to whoever ran `grognard serve`, which the player may
/// never have done).
fn refusal_words(e: &grognard_server::client::ClientError, url: &str) -> String {
    match e {
        grognard_server::client::ClientError::Refused { status: 401, .. } => format!(
            "the server at {url} creates games only for its host: fill in its host token \
             (whoever started that server has it), or tick \"start a server here\""
        ),
        e => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_addresses_become_the_games_websocket() {
        assert_eq!(
            live_url("http://127.0.0.1:7878/", "g1").as_deref(),
            Ok("ws://127.0.0.1:7878/games/g1/live")
        );
        assert_eq!(
            live_url("localhost:9", "a-b_c").as_deref(),
            Ok("ws://localhost:9/games/a-b_c/live")
        );
        assert!(live_url("https://x:1", "g").is_err());
        assert!(live_url("http://x:1", "../g").is_err());
        assert!(live_url("http://x:1/path", "g").is_err());
        assert!(live_url("", "g").is_err());
    }

    #[test]
    fn the_pause_between_tries_grows_to_a_limit() {
        let secs: Vec<u64> = (1..=8).map(|n| backoff(n).as_secs()).collect();
        assert_eq!(secs, [1, 2, 4, 8, 16, 30, 30, 30]);
    }
}
