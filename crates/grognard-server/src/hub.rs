//! The games a server holds: each live game runs on a thread of its own (its Lua hooks and
//! policies with it, so one game's slow script never holds up another), takes requests
//! from a channel one at a time (one writer per game), and after every change tells its
//! watchers what each of their seats now sees. A game with no watchers and no requests for
//! a while is put away; the next request rebuilds it from the store.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicU64;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use grognard_rules::model::OrderSpec;
use tokio::sync::{broadcast, oneshot};

use crate::config::{Config, Usage};
use crate::game::{Live, Problem, now};
use crate::protocol::{
    ChatLine, CreateGame, Created, MAX_CHAT_CHARS, REFEREE, SPECTATOR, SeatState, ServerMessage,
    Table,
};
use crate::store::{GameRecord, SeatRecord, Store};
use crate::tokens;

/// How long a game with no watchers stays loaded after its last request.
const IDLE: Duration = Duration::from_secs(300);

/// What a game's thread is asked to do.
enum Command {
    State(String, oneshot::Sender<SeatState>),
    Table(oneshot::Sender<Table>),
    Orders(String, String, String, Reply<crate::protocol::OrdersReply>),
    Order(String, Box<OrderSpec>, Reply<()>),
    Undo(String, Option<String>, Reply<()>),
    Chat(String, String, Reply<ChatLine>),
    Save(oneshot::Sender<serde_json::Value>),
    Webhook(String, Option<String>, Reply<()>),
    Watch(String, bool),
}

type Reply<T> = oneshot::Sender<Result<T, Problem>>;

/// What a game's watchers receive after a change: for each watched seat, the
/// [`ServerMessage`] it is sent, already serialised.
#[derive(Debug, Default)]
pub struct Update {
    /// Seat → message text.
    pub states: HashMap<String, Arc<str>>,
    /// A chat line, to every seat.
    pub chat: Option<Arc<str>>,
}

/// A game's seats and the hashes of their tokens.
type SeatHashes = Vec<(String, Vec<u8>)>;

struct Handle {
    commands: mpsc::Sender<Command>,
    updates: broadcast::Sender<Arc<Update>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Why a request could not be served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubError {
    /// No game with that id (HTTP 404).
    NoGame(String),
    /// The token opens no seat (HTTP 401).
    BadToken(String),
    /// The game refused it (see [`Problem`]).
    Problem(Problem),
    /// A bad create request (HTTP 422).
    Invalid(String),
    /// A create request larger than a game may be (HTTP 413).
    TooLarge(String),
    /// The server's store holds all it may (HTTP 507).
    Full(String),
    /// The operating system failed the server (no random numbers; HTTP 503).
    Unavailable(String),
}

impl std::fmt::Display for HubError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoGame(m)
            | Self::BadToken(m)
            | Self::Invalid(m)
            | Self::TooLarge(m)
            | Self::Full(m)
            | Self::Unavailable(m) => f.write_str(m),
            Self::Problem(p) => p.fmt(f),
        }
    }
}

impl From<Problem> for HubError {
    fn from(p: Problem) -> Self {
        Self::Problem(p)
    }
}

/// Every game of one server.
pub struct Hub {
    store: Arc<dyn Store>,
    config: Config,
    /// The limits and what the games have used of them.
    usage: Usage,
    live: Mutex<HashMap<String, Handle>>,
    seats: Mutex<HashMap<String, SeatHashes>>,
    /// Webhooks may call local addresses (`--allow-local-webhooks`).
    allow_local_webhooks: bool,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub").finish_non_exhaustive()
    }
}

impl Hub {
    /// A hub over `store`, set up as `config` says. Games' files stay in memory and in
    /// the store: nothing is written anywhere else.
    ///
    /// # Errors
    /// The store cannot say how much it holds.
    pub fn new(store: Arc<dyn Store>, config: Config) -> Result<Arc<Self>, String> {
        let stored = store.total_bytes().map_err(|e| e.to_string())?;
        Ok(Arc::new(Self {
            store,
            allow_local_webhooks: config.allow_local_webhooks,
            usage: Usage {
                limits: config.limits.clone(),
                stored_bytes: Arc::new(AtomicU64::new(stored)),
                policy_cpu: Arc::new(crate::budget::PolicyBudget::new(&config.limits)),
            },
            config,
            live: Mutex::new(HashMap::new()),
            seats: Mutex::new(HashMap::new()),
        }))
    }

    /// How the server is set up.
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Whether webhooks may call loopback, private and link-local addresses.
    #[must_use]
    pub fn allow_local_webhooks(&self) -> bool {
        self.allow_local_webhooks
    }

    /// The store.
    #[must_use]
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Creates a game: checks the request, loads and starts it (so a scenario that fails
    /// validation is refused and nothing is stored), then stores it with fresh tokens.
    ///
    /// # Errors
    /// A bad request, a scenario that does not load or start, or the store failing.
    pub fn create(&self, request: CreateGame) -> Result<Created, HubError> {
        crate::bundle::check(&request).map_err(HubError::Invalid)?;
        let bytes: u64 = request
            .files
            .iter()
            .map(|(path, text)| (path.len() + text.len()) as u64)
            .sum();
        let limits = &self.config.limits;
        if bytes > limits.store_bytes_per_game {
            return Err(HubError::TooLarge(format!(
                "the game's files are {bytes} bytes; a game holds at most {} in all",
                limits.store_bytes_per_game
            )));
        }
        let id = tokens::new_game_id().map_err(HubError::Unavailable)?;
        let scenario = crate::game::load_files(&request.files, &request.scenario, &request.ruleset)
            .map_err(HubError::Invalid)?;
        let identity = &scenario.ruleset.rules.identity;
        if request
            .ruleset_hash
            .as_ref()
            .is_some_and(|h| h != &identity.hash)
            || request
                .scenario_hash
                .as_ref()
                .is_some_and(|h| h != &scenario.hash)
        {
            return Err(HubError::Invalid(
                "the files load differently here than on the sending machine (a ruleset found outside the files sent?)".into(),
            ));
        }
        let sides: Vec<String> = scenario
            .compiled
            .setup
            .sides
            .iter()
            .map(|s| s.name.clone())
            .collect();
        if let Some(s) = sides.iter().find(|s| *s == REFEREE || *s == SPECTATOR) {
            return Err(HubError::Invalid(format!(
                "a side is named `{s}`, which is a seat of its own on the server"
            )));
        }
        for (side, policy) in &request.policies {
            if !sides.contains(side) {
                return Err(HubError::Invalid(format!(
                    "policy for `{side}`: no such side; the sides are {}",
                    sides.join(", ")
                )));
            }
            crate::game::policy_kind(&request.files, policy).map_err(HubError::Invalid)?;
        }
        // Start it once here, so options and placement problems show now.
        let mut hooks = crate::game::hooks_for(&scenario.ruleset).map_err(HubError::Invalid)?;
        let options: Vec<(String, bool)> = request.options.clone().into_iter().collect();
        // The dice: the host's seed if it fixed one, otherwise one from the operating
        // system that no seat can know (it is not the scenario's public seed).
        let seed = match request.seed {
            Some(s) => s,
            None => tokens::new_seed().map_err(HubError::Unavailable)?,
        };
        let game = scenario
            .start(Some(seed), &options, hooks.as_mut())
            .map_err(|d| HubError::Invalid(d.to_string()))?;
        let mut tokens_out = BTreeMap::new();
        let mut seats = Vec::new();
        for seat in sides.iter().map(String::as_str).chain([REFEREE, SPECTATOR]) {
            let token = tokens::new_token().map_err(HubError::Unavailable)?;
            seats.push(SeatRecord {
                seat: seat.to_owned(),
                token_hash: tokens::hash(&token),
                policy: request.policies.get(seat).cloned(),
                webhook: None,
            });
            tokens_out.insert(seat.to_owned(), token);
        }
        let record = GameRecord {
            id: id.to_owned(),
            created_at: now(),
            scenario_path: request.scenario,
            ruleset_path: request.ruleset,
            scenario_name: scenario.spec.scenario.value.clone(),
            ruleset_name: identity.name.clone(),
            scenario_hash: scenario.hash.clone(),
            ruleset_hash: identity.hash.clone(),
            seed: game.state().rng.seed(),
            seed_fixed: request.seed.is_some(),
            options: game
                .rules()
                .options
                .iter()
                .zip(&game.state().options)
                .map(|(o, on)| (o.name.clone(), *on))
                .collect(),
            sides,
            files: request.files,
            seats,
            bytes,
        };
        let mut status = crate::game::status_of(&game, 0, None);
        status.seed_fixed = record.seed_fixed;
        self.usage.store(0, bytes).map_err(HubError::Full)?;
        if let Err(e) = self.store.create(&record, &status) {
            self.usage.unstore(bytes);
            return Err(HubError::Problem(Problem::Unavailable(e.to_string())));
        }
        // A game the server plays first starts its policies now.
        if !request.policies.is_empty() {
            self.with(&id, |tx| Command::Watch(String::new(), false).pipe(tx))?;
        }
        Ok(Created {
            game: id,
            tokens: tokens_out,
        })
    }

    /// The seat `token` opens in game `id`.
    ///
    /// # Errors
    /// No such game, or a token that opens no seat.
    pub fn seat(&self, id: &str, token: &str) -> Result<String, HubError> {
        let cached = self.seats.lock().ok().and_then(|m| m.get(id).cloned());
        let seats = match cached {
            Some(s) => s,
            None => {
                let record = self
                    .store
                    .game(id)
                    .map_err(|e| HubError::Problem(Problem::Unavailable(e.to_string())))?
                    .ok_or_else(|| HubError::NoGame(format!("no game `{id}`")))?;
                let seats: Vec<(String, Vec<u8>)> = record
                    .seats
                    .into_iter()
                    .map(|s| (s.seat, s.token_hash))
                    .collect();
                if let Ok(mut m) = self.seats.lock() {
                    m.insert(id.to_owned(), seats.clone());
                }
                seats
            }
        };
        tokens::seat_for(token, &seats)
            .map(str::to_owned)
            .ok_or_else(|| HubError::BadToken(format!("that token opens no seat of game {id}")))
    }

    /// Sends a command to game `id`'s thread, starting it if it is not running.
    fn with(
        &self,
        id: &str,
        make: impl Fn(&mpsc::Sender<Command>) -> Result<(), Command>,
    ) -> Result<broadcast::Sender<Arc<Update>>, HubError> {
        for _ in 0..2 {
            let (tx, updates) = self.handle(id)?;
            if make(&tx).is_ok() {
                return Ok(updates);
            }
            // The thread had put the game away: forget it and start again.
            if let Ok(mut m) = self.live.lock() {
                m.remove(id);
            }
        }
        Err(HubError::Problem(Problem::Unavailable(format!(
            "game {id} could not be started"
        ))))
    }

    fn handle(
        &self,
        id: &str,
    ) -> Result<(mpsc::Sender<Command>, broadcast::Sender<Arc<Update>>), HubError> {
        let mut live = self
            .live
            .lock()
            .map_err(|_| HubError::Problem(Problem::Unavailable("server state lost".into())))?;
        if let Some(h) = live.get(id) {
            return Ok((h.commands.clone(), h.updates.clone()));
        }
        let record = self
            .store
            .game(id)
            .map_err(|e| HubError::Problem(Problem::Unavailable(e.to_string())))?
            .ok_or_else(|| HubError::NoGame(format!("no game `{id}`")))?;
        let (tx, rx) = mpsc::channel();
        let (updates, _) = broadcast::channel(64);
        let thread_updates = updates.clone();
        let store = Arc::clone(&self.store);
        let usage = self.usage.clone();
        let allow_local = self.allow_local_webhooks();
        // The game (with its Lua state, which stays on one thread) is built on its thread.
        let (opened_tx, opened) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name(format!("game-{id}"))
            .spawn(
                move || match Live::open(record, Arc::clone(&store), usage) {
                    Ok(game) => {
                        let _ = opened_tx.send(Ok(()));
                        run(game, &rx, &thread_updates, store.as_ref(), allow_local);
                    }
                    Err(e) => {
                        let _ = opened_tx.send(Err(e));
                    }
                },
            )
            .map_err(|e| HubError::Problem(Problem::Unavailable(e.to_string())))?;
        opened
            .recv()
            .map_err(|e| HubError::Problem(Problem::Unavailable(e.to_string())))?
            .map_err(|e| HubError::Problem(Problem::Unavailable(e)))?;
        live.insert(
            id.to_owned(),
            Handle {
                commands: tx.clone(),
                updates: updates.clone(),
                thread: Some(thread),
            },
        );
        Ok((tx, updates))
    }

    async fn ask<T: Send + 'static>(
        &self,
        id: &str,
        make: impl Fn(oneshot::Sender<T>) -> Command,
    ) -> Result<T, HubError> {
        let slot: Mutex<Option<oneshot::Receiver<T>>> = Mutex::new(None);
        self.with(id, |tx| {
            let (reply, rx) = oneshot::channel();
            tx.send(make(reply)).map_err(|e| e.0)?;
            if let Ok(mut s) = slot.lock() {
                *s = Some(rx);
            }
            Ok(())
        })?;
        let rx = slot.lock().ok().and_then(|mut s| s.take());
        match rx {
            Some(rx) => rx
                .await
                .map_err(|_| HubError::Problem(Problem::Unavailable(format!("game {id} stopped")))),
            None => Err(HubError::Problem(Problem::Unavailable(format!(
                "game {id} could not be reached"
            )))),
        }
    }

    /// What `seat` sees of game `id` now.
    ///
    /// # Errors
    /// The game cannot be loaded.
    pub async fn state(&self, id: &str, seat: &str) -> Result<SeatState, HubError> {
        let seat = seat.to_owned();
        self.ask(id, |r| Command::State(seat.clone(), r)).await
    }

    /// The public table of game `id`.
    ///
    /// # Errors
    /// The game cannot be loaded.
    pub async fn table(&self, id: &str) -> Result<Table, HubError> {
        self.ask(id, Command::Table).await
    }

    /// Plays an orders file for `seat`.
    ///
    /// # Errors
    /// The game refused the request (not a refused order: that is in the reply).
    pub async fn orders(
        &self,
        id: &str,
        seat: &str,
        file: &str,
        text: &str,
    ) -> Result<crate::protocol::OrdersReply, HubError> {
        let (seat, file, text) = (seat.to_owned(), file.to_owned(), text.to_owned());
        Ok(self
            .ask(id, |r| {
                Command::Orders(seat.clone(), file.clone(), text.clone(), r)
            })
            .await??)
    }

    /// Plays one order for `seat`.
    ///
    /// # Errors
    /// A refusal (`Problem::Conflict`) or a seat that may not give it.
    pub async fn order(&self, id: &str, seat: &str, order: &OrderSpec) -> Result<(), HubError> {
        let seat = seat.to_owned();
        Ok(self
            .ask(id, |r| {
                Command::Order(seat.clone(), Box::new(order.clone()), r)
            })
            .await??)
    }

    /// Takes back the last order.
    ///
    /// # Errors
    /// The seat may not.
    pub async fn undo(&self, id: &str, seat: &str, reason: Option<String>) -> Result<(), HubError> {
        let seat = seat.to_owned();
        Ok(self
            .ask(id, |r| Command::Undo(seat.clone(), reason.clone(), r))
            .await??)
    }

    /// Adds a chat line from `seat`.
    ///
    /// # Errors
    /// An empty or over-long line, or a full chat.
    pub async fn say(&self, id: &str, seat: &str, text: &str) -> Result<ChatLine, HubError> {
        let text = text.trim();
        if text.is_empty() || text.chars().count() > MAX_CHAT_CHARS {
            return Err(HubError::Problem(Problem::Bad(format!(
                "a chat line has 1 to {MAX_CHAT_CHARS} characters"
            ))));
        }
        let (seat, text) = (seat.to_owned(), text.to_owned());
        Ok(self
            .ask(id, |r| Command::Chat(seat.clone(), text.clone(), r))
            .await??)
    }

    /// The referee's save of game `id`.
    ///
    /// # Errors
    /// The game cannot be loaded.
    pub async fn save(&self, id: &str) -> Result<serde_json::Value, HubError> {
        self.ask(id, Command::Save).await
    }

    /// Sets or clears the webhook of `seat`.
    ///
    /// # Errors
    /// A seat that plays no side, a URL a webhook may not call, or the store failing.
    pub async fn set_webhook(
        &self,
        id: &str,
        seat: &str,
        url: Option<String>,
    ) -> Result<(), HubError> {
        let seat = seat.to_owned();
        Ok(self
            .ask(id, |r| Command::Webhook(seat.clone(), url.clone(), r))
            .await??)
    }

    /// Starts watching game `id` as `seat`: the receiver gets every later update.
    ///
    /// # Errors
    /// The game cannot be loaded.
    pub fn watch(
        &self,
        id: &str,
        seat: &str,
    ) -> Result<broadcast::Receiver<Arc<Update>>, HubError> {
        let updates = self.with(id, |tx| Command::Watch(seat.to_owned(), true).pipe(tx))?;
        Ok(updates.subscribe())
    }

    /// Stops watching.
    pub fn unwatch(&self, id: &str, seat: &str) {
        let _ = self.with(id, |tx| Command::Watch(seat.to_owned(), false).pipe(tx));
    }
}

impl Drop for Hub {
    /// Stops every game's thread and waits for it, so the store (and its lock on the
    /// database file) is released when the server stops.
    fn drop(&mut self) {
        let handles: Vec<Handle> = self
            .live
            .get_mut()
            .map(|m| m.drain().map(|(_, h)| h).collect())
            .unwrap_or_default();
        let threads: Vec<_> = handles
            .into_iter()
            .filter_map(|mut h| h.thread.take())
            .collect();
        for t in threads {
            let _ = t.join();
        }
    }
}

impl Command {
    fn pipe(self, tx: &mpsc::Sender<Self>) -> Result<(), Self> {
        tx.send(self).map_err(|e| e.0)
    }
}

/// A game's thread: serves requests one at a time; after each change sends every watched
/// seat its new state and calls the webhooks of sides whose turn it has become.
fn run(
    mut game: Live,
    rx: &mpsc::Receiver<Command>,
    updates: &broadcast::Sender<Arc<Update>>,
    store: &dyn Store,
    allow_local_webhooks: bool,
) {
    let mut watchers: HashMap<String, usize> = HashMap::new();
    let mut to_act = game.to_act();
    // A game whose first move is the server's.
    game.run_policies();
    loop {
        let command = match rx.recv_timeout(IDLE) {
            Ok(c) => c,
            Err(mpsc::RecvTimeoutError::Timeout) if watchers.values().all(|n| *n == 0) => return,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        // A game paused for the server's hourly CPU budget goes on once it refills.
        let mut changed = game.resume_players();
        let mut chat = None;
        match command {
            Command::State(seat, reply) => {
                let _ = reply.send(game.seat_state(&seat));
            }
            Command::Table(reply) => {
                let _ = reply.send(game.table());
            }
            Command::Save(reply) => {
                let _ = reply.send(serde_json::to_value(game.save()).unwrap_or_default());
            }
            Command::Orders(seat, file, text, reply) => {
                let r = game.orders(&seat, &file, &text);
                changed = r.as_ref().is_ok_and(|r| r.accepted > 0);
                let _ = reply.send(r);
            }
            Command::Order(seat, order, reply) => {
                let r = game.order(&seat, order.as_ref());
                changed = r.is_ok();
                let _ = reply.send(r);
            }
            Command::Undo(seat, reason, reply) => {
                let r = game.undo(&seat, reason);
                changed = r.is_ok();
                if changed && seat == REFEREE {
                    chat = store.chat(&game.id, 0).ok().and_then(|c| c.last().cloned());
                }
                let _ = reply.send(r);
            }
            Command::Chat(seat, text, reply) => {
                let r = game.say(&seat, &text);
                chat = r.as_ref().ok().cloned();
                let _ = reply.send(r);
            }
            Command::Webhook(seat, url, reply) => {
                let _ = reply.send(game.set_webhook(&seat, url, allow_local_webhooks));
            }
            Command::Watch(seat, on) => {
                if !seat.is_empty() {
                    let n = watchers.entry(seat).or_default();
                    *n = if on { *n + 1 } else { n.saturating_sub(1) };
                }
            }
        }
        if changed || chat.is_some() {
            let mut update = Update::default();
            if changed {
                for (seat, _) in watchers.iter().filter(|(_, n)| **n > 0) {
                    let message = ServerMessage::State(Box::new(game.seat_state(seat)));
                    update
                        .states
                        .insert(seat.clone(), Arc::from(wire(&message)));
                }
                let now_to_act = game.to_act();
                crate::webhook::notify(
                    &game.id,
                    &game.status(),
                    game.webhooks(),
                    (&to_act, &now_to_act),
                    allow_local_webhooks,
                );
                to_act = now_to_act;
            }
            update.chat = chat.map(|c| Arc::from(wire(&ServerMessage::Chat(c))));
            let _ = updates.send(Arc::new(update));
        }
    }
}

/// A message as sent; one that cannot be written becomes an error message saying so.
fn wire(message: &ServerMessage) -> String {
    serde_json::to_string(message).unwrap_or_else(|e| {
        serde_json::json!({"type": "error", "message": format!("the server could not write its answer: {e}")})
            .to_string()
    })
}
