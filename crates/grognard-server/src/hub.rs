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

use crate::budget::{QuotaError, Usage};
use crate::config::Config;
use crate::game::{Live, LoadError, Problem, now};
use crate::protocol::{
    ChatLine, CreateGame, Created, MAX_CHAT_CHARS, REFEREE, SPECTATOR, SeatState, ServerMessage,
    Table,
};
use crate::seat::Seat;
use crate::store::{GameRecord, SeatRecord, Store, StoreError};
use crate::tokens::{self, RandomError};

/// How long a game with no watchers stays loaded after its last request.
const IDLE: Duration = Duration::from_secs(300);

/// What a game's thread is asked to do.
enum Command {
    State {
        seat: Seat,
        reply: oneshot::Sender<SeatState>,
    },
    Table {
        reply: oneshot::Sender<Table>,
    },
    Orders {
        seat: Seat,
        file: String,
        text: String,
        reply: Reply<crate::protocol::OrdersReply>,
    },
    Order {
        seat: Seat,
        order: Box<OrderSpec>,
        reply: Reply<()>,
    },
    Undo {
        seat: Seat,
        reason: Option<String>,
        reply: Reply<()>,
    },
    Chat {
        seat: Seat,
        text: String,
        reply: Reply<ChatLine>,
    },
    Save {
        reply: oneshot::Sender<serde_json::Value>,
    },
    Webhook {
        seat: Seat,
        url: Option<String>,
        reply: Reply<()>,
    },
    /// Counts a watcher of `seat` in or out; with no seat, only wakes the game (its
    /// policies start).
    Watch {
        seat: Option<Seat>,
        on: bool,
    },
}

type Reply<T> = oneshot::Sender<Result<T, Problem>>;

/// What a game's watchers receive after a change: for each watched seat, the
/// [`ServerMessage`] it is sent, already serialised.
#[derive(Debug, Default)]
pub struct Update {
    /// Seat → message text.
    pub states: HashMap<Seat, Arc<str>>,
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

/// One game's place in the hub: empty until the game is loaded. Its own lock is held while
/// the game loads, so a request for that game waits for it while every other game goes on
/// (the hub's map is locked only to find or add the slot).
type Slot = Arc<Mutex<Option<Handle>>>;

/// Why a request could not be served. Each kind has its HTTP status (`crate::http`); the
/// text is what the client is told, and names no path of the server's disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubError {
    /// No game with that id (HTTP 404).
    NoGame(String),
    /// The token opens no seat of that game (HTTP 401).
    BadToken(String),
    /// The game refused it (see [`Problem`]).
    Problem(Problem),
    /// A bad create request (HTTP 422).
    Invalid(String),
    /// A create request's files are larger than a game may hold (HTTP 413).
    TooLarge {
        /// The files' bytes.
        bytes: u64,
        /// [`crate::config::Limits::store_bytes_per_game`].
        most: u64,
    },
    /// The server's store holds all it may (HTTP 507).
    Full(QuotaError),
    /// The operating system gave no random numbers (HTTP 500: the server's failure).
    Random(RandomError),
    /// The store failed; nothing changed (HTTP 503).
    Store(StoreError),
    /// The game's files or log do not load (HTTP 503).
    Load(LoadError),
    /// The game's thread could not be started or stopped answering (HTTP 503).
    Thread(String),
}

impl std::fmt::Display for HubError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoGame(id) => write!(f, "no game `{id}`"),
            Self::BadToken(id) => write!(f, "that token opens no seat of game {id}"),
            Self::Invalid(m) | Self::Thread(m) => f.write_str(m),
            Self::TooLarge { bytes, most } => write!(
                f,
                "the game's files are {bytes} bytes; a game holds at most {most} in all"
            ),
            Self::Full(e) => e.fmt(f),
            Self::Random(e) => e.fmt(f),
            Self::Store(e) => e.fmt(f),
            Self::Load(e) => e.fmt(f),
            Self::Problem(p) => p.fmt(f),
        }
    }
}

impl std::error::Error for HubError {}

impl From<Problem> for HubError {
    fn from(p: Problem) -> Self {
        Self::Problem(p)
    }
}

impl From<StoreError> for HubError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

impl From<RandomError> for HubError {
    fn from(e: RandomError) -> Self {
        Self::Random(e)
    }
}

/// The hub's map of games is unusable after a thread panicked while holding it.
fn lost() -> HubError {
    HubError::Thread("server state lost".into())
}

/// Every game of one server.
pub struct Hub {
    store: Arc<dyn Store>,
    config: Config,
    /// The limits and what the games have used of them.
    usage: Usage,
    live: Mutex<HashMap<String, Slot>>,
    seats: Mutex<HashMap<String, SeatHashes>>,
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
    pub fn new(store: Arc<dyn Store>, config: Config) -> Result<Arc<Self>, StoreError> {
        let stored = store.total_bytes()?;
        Ok(Arc::new(Self {
            store,
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
        self.config.allow_local_webhooks
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
        crate::bundle::check(&request).map_err(|e| HubError::Invalid(e.to_string()))?;
        let bytes: u64 = request
            .files
            .iter()
            .map(|(path, text)| (path.len() + text.len()) as u64)
            .sum();
        let limits = &self.config.limits;
        if bytes > limits.store_bytes_per_game {
            return Err(HubError::TooLarge {
                bytes,
                most: limits.store_bytes_per_game,
            });
        }
        let id = tokens::new_game_id()?;
        let scenario = crate::game::load_files(&request.files, &request.scenario, &request.ruleset)
            .map_err(|e| HubError::Invalid(e.to_string()))?;
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
            crate::game::policy_kind(&request.files, policy)
                .map_err(|e| HubError::Invalid(e.to_string()))?;
        }
        // Start it once here, so options and placement problems show now.
        let mut hooks = crate::game::hooks_for(&scenario.ruleset)
            .map_err(|e| HubError::Invalid(e.to_string()))?;
        let options: Vec<(String, bool)> = request.options.clone().into_iter().collect();
        // The dice: the host's seed if it fixed one, otherwise one from the operating
        // system that no seat can know (it is not the scenario's public seed).
        let seed = match request.seed {
            Some(s) => s,
            None => tokens::new_seed()?,
        };
        let game = scenario
            .start(Some(seed), &options, hooks.as_mut())
            .map_err(|d| HubError::Invalid(d.to_string()))?;
        let mut tokens_out = BTreeMap::new();
        let mut seats = Vec::new();
        for seat in sides.iter().map(String::as_str).chain([REFEREE, SPECTATOR]) {
            let token = tokens::new_token()?;
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
            return Err(HubError::Store(e));
        }
        // A game the server plays first starts its policies now.
        if !request.policies.is_empty() {
            self.send(
                &id,
                Command::Watch {
                    seat: None,
                    on: false,
                },
            )?;
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
    pub fn seat(&self, id: &str, token: &str) -> Result<Seat, HubError> {
        let cached = self.seats.lock().ok().and_then(|m| m.get(id).cloned());
        let seats = match cached {
            Some(s) => s,
            None => {
                let record = self
                    .store
                    .game(id)?
                    .ok_or_else(|| HubError::NoGame(id.to_owned()))?;
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
            .map(Seat::parse)
            .ok_or_else(|| HubError::BadToken(id.to_owned()))
    }

    /// The slot of game `id`, added if the game exists in the store. The hub's map is
    /// locked only to look the slot up or add it, never while a game loads.
    fn slot(&self, id: &str) -> Result<Slot, HubError> {
        if let Some(slot) = self.live.lock().map_err(|_| lost())?.get(id) {
            return Ok(Arc::clone(slot));
        }
        // Only games that exist get a slot, so unknown ids cannot grow the map.
        if self.store.game_exists(id)? {
            let mut live = self.live.lock().map_err(|_| lost())?;
            Ok(Arc::clone(live.entry(id.to_owned()).or_default()))
        } else {
            Err(HubError::NoGame(id.to_owned()))
        }
    }

    /// Sends `command` to game `id`'s thread, loading the game first if it is not running.
    /// Blocking: call it off the async workers.
    fn send(
        &self,
        id: &str,
        mut command: Command,
    ) -> Result<broadcast::Sender<Arc<Update>>, HubError> {
        for _ in 0..2 {
            let slot = self.slot(id)?;
            let mut loaded = slot.lock().map_err(|_| lost())?;
            if loaded.is_none() {
                *loaded = Some(self.load(id)?);
            }
            let Some(handle) = loaded.as_ref() else {
                return Err(lost());
            };
            match handle.commands.send(command) {
                Ok(()) => return Ok(handle.updates.clone()),
                // The thread had put the game away: load it again.
                Err(mpsc::SendError(back)) => {
                    command = back;
                    if let Some(mut old) = loaded.take()
                        && let Some(t) = old.thread.take()
                    {
                        let _ = t.join();
                    }
                }
            }
        }
        Err(HubError::Thread(format!("game {id} could not be started")))
    }

    /// Loads game `id` from the store onto a thread of its own (the game, with its Lua
    /// state, is built there and stays there) and waits until its log is replayed.
    fn load(&self, id: &str) -> Result<Handle, HubError> {
        let record = self
            .store
            .game(id)?
            .ok_or_else(|| HubError::NoGame(id.to_owned()))?;
        let (tx, rx) = mpsc::channel();
        let (updates, _) = broadcast::channel(64);
        let thread_updates = updates.clone();
        let store = Arc::clone(&self.store);
        let usage = self.usage.clone();
        let allow_local = self.allow_local_webhooks();
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
            .map_err(|e| HubError::Thread(e.to_string()))?;
        opened
            .recv()
            .map_err(|e| HubError::Thread(e.to_string()))?
            .map_err(HubError::Load)?;
        Ok(Handle {
            commands: tx,
            updates,
            thread: Some(thread),
        })
    }

    /// Asks game `id`'s thread something and waits for the answer. Finding (or loading)
    /// the game runs on tokio's blocking threads, never on an async worker.
    async fn ask<T: Send + 'static>(
        self: &Arc<Self>,
        id: &str,
        make: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, HubError> {
        let (reply, answer) = oneshot::channel();
        let command = make(reply);
        let (hub, game) = (Arc::clone(self), id.to_owned());
        tokio::task::spawn_blocking(move || hub.send(&game, command).map(|_| ()))
            .await
            .map_err(|e| HubError::Thread(e.to_string()))??;
        answer
            .await
            .map_err(|_| HubError::Thread(format!("game {id} stopped")))
    }

    /// What `seat` sees of game `id` now.
    ///
    /// # Errors
    /// The game cannot be loaded.
    pub async fn state(self: &Arc<Self>, id: &str, seat: &Seat) -> Result<SeatState, HubError> {
        let seat = seat.clone();
        self.ask(id, |reply| Command::State { seat, reply }).await
    }

    /// The public table of game `id`.
    ///
    /// # Errors
    /// The game cannot be loaded.
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<Table, HubError> {
        self.ask(id, |reply| Command::Table { reply }).await
    }

    /// Plays an orders file for `seat`.
    ///
    /// # Errors
    /// The game refused the request (not a refused order: that is in the reply).
    pub async fn orders(
        self: &Arc<Self>,
        id: &str,
        seat: &Seat,
        file: &str,
        text: &str,
    ) -> Result<crate::protocol::OrdersReply, HubError> {
        let (seat, file, text) = (seat.clone(), file.to_owned(), text.to_owned());
        Ok(self
            .ask(id, |reply| Command::Orders {
                seat,
                file,
                text,
                reply,
            })
            .await??)
    }

    /// Plays one order for `seat`.
    ///
    /// # Errors
    /// A refusal (`Problem::Refused`, with its kind) or a seat that may not give it.
    pub async fn order(
        self: &Arc<Self>,
        id: &str,
        seat: &Seat,
        order: &OrderSpec,
    ) -> Result<(), HubError> {
        let (seat, order) = (seat.clone(), Box::new(order.clone()));
        Ok(self
            .ask(id, |reply| Command::Order { seat, order, reply })
            .await??)
    }

    /// Takes back the last order.
    ///
    /// # Errors
    /// The seat may not.
    pub async fn undo(
        self: &Arc<Self>,
        id: &str,
        seat: &Seat,
        reason: Option<String>,
    ) -> Result<(), HubError> {
        let seat = seat.clone();
        Ok(self
            .ask(id, |reply| Command::Undo {
                seat,
                reason,
                reply,
            })
            .await??)
    }

    /// Adds a chat line from `seat`.
    ///
    /// # Errors
    /// An empty or over-long line, or a full chat.
    pub async fn say(
        self: &Arc<Self>,
        id: &str,
        seat: &Seat,
        text: &str,
    ) -> Result<ChatLine, HubError> {
        let text = text.trim();
        if text.is_empty() || text.chars().count() > MAX_CHAT_CHARS {
            return Err(HubError::Problem(Problem::Bad(format!(
                "a chat line has 1 to {MAX_CHAT_CHARS} characters"
            ))));
        }
        let (seat, text) = (seat.clone(), text.to_owned());
        Ok(self
            .ask(id, |reply| Command::Chat { seat, text, reply })
            .await??)
    }

    /// The referee's save of game `id`.
    ///
    /// # Errors
    /// The game cannot be loaded.
    pub async fn save(self: &Arc<Self>, id: &str) -> Result<serde_json::Value, HubError> {
        self.ask(id, |reply| Command::Save { reply }).await
    }

    /// Sets or clears the webhook of `seat`.
    ///
    /// # Errors
    /// A seat that plays no side, a URL a webhook may not call, or the store failing.
    pub async fn set_webhook(
        self: &Arc<Self>,
        id: &str,
        seat: &Seat,
        url: Option<String>,
    ) -> Result<(), HubError> {
        let seat = seat.clone();
        Ok(self
            .ask(id, |reply| Command::Webhook { seat, url, reply })
            .await??)
    }

    /// Starts watching game `id` as `seat`: the receiver gets every later update.
    /// Blocking (it may load the game): call it off the async workers.
    ///
    /// # Errors
    /// The game cannot be loaded.
    pub fn watch(
        &self,
        id: &str,
        seat: &Seat,
    ) -> Result<broadcast::Receiver<Arc<Update>>, HubError> {
        let seat = Some(seat.clone());
        let updates = self.send(id, Command::Watch { seat, on: true })?;
        Ok(updates.subscribe())
    }

    /// Stops watching. Blocking, as [`Hub::watch`].
    pub fn unwatch(&self, id: &str, seat: &Seat) {
        let seat = Some(seat.clone());
        let _ = self.send(id, Command::Watch { seat, on: false });
    }
}

impl Drop for Hub {
    /// Stops every game's thread and waits for it, so the store (and its lock on the
    /// database file) is released when the server stops.
    fn drop(&mut self) {
        let handles: Vec<Handle> = self
            .live
            .get_mut()
            .map(|m| {
                m.drain()
                    .filter_map(|(_, slot)| slot.lock().ok().and_then(|mut h| h.take()))
                    .collect()
            })
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

/// A game's thread: serves requests one at a time; after each change sends every watched
/// seat its new state and calls the webhooks of sides whose turn it has become.
fn run(
    mut game: Live,
    rx: &mpsc::Receiver<Command>,
    updates: &broadcast::Sender<Arc<Update>>,
    store: &dyn Store,
    allow_local_webhooks: bool,
) {
    let mut watchers: HashMap<Seat, usize> = HashMap::new();
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
            Command::State { seat, reply } => {
                let _ = reply.send(game.seat_state(&seat));
            }
            Command::Table { reply } => {
                let _ = reply.send(game.table());
            }
            Command::Save { reply } => {
                let _ = reply.send(serde_json::to_value(game.save()).unwrap_or_default());
            }
            Command::Orders {
                seat,
                file,
                text,
                reply,
            } => {
                let r = game.orders(&seat, &file, &text);
                changed = r.as_ref().is_ok_and(|r| r.accepted > 0);
                let _ = reply.send(r);
            }
            Command::Order { seat, order, reply } => {
                let r = game.order(&seat, order.as_ref());
                changed = r.is_ok();
                let _ = reply.send(r);
            }
            Command::Undo {
                seat,
                reason,
                reply,
            } => {
                let r = game.undo(&seat, reason);
                changed = r.is_ok();
                if changed && seat.is_referee() {
                    chat = store.chat(&game.id, 0).ok().and_then(|c| c.last().cloned());
                }
                let _ = reply.send(r);
            }
            Command::Chat { seat, text, reply } => {
                let r = game.say(&seat, &text);
                chat = r.as_ref().ok().cloned();
                let _ = reply.send(r);
            }
            Command::Webhook { seat, url, reply } => {
                let _ = reply.send(game.set_webhook(&seat, url, allow_local_webhooks));
            }
            Command::Watch { seat, on } => {
                if let Some(seat) = seat {
                    let n = watchers.entry(seat).or_default();
                    *n = if on { *n + 1 } else { n.saturating_sub(1) };
                }
            }
        }
        if changed || chat.is_some() {
            let chat = chat.map(|c| Arc::from(wire(&ServerMessage::Chat(c))));
            publish(
                &mut game,
                changed,
                chat,
                &watchers,
                &mut to_act,
                updates,
                allow_local_webhooks,
            );
        }
        // The seats have the state with the server's side to act (the page says it is
        // thinking, issue 40); then it acts, and they get the state after.
        if changed {
            let before = game.status();
            game.run_policies();
            if game.status() != before {
                publish(
                    &mut game,
                    true,
                    None,
                    &watchers,
                    &mut to_act,
                    updates,
                    allow_local_webhooks,
                );
            }
        }
    }
}

/// Sends every watched seat its state (when `changed`) and the chat line, and calls the
/// webhooks of sides whose turn it has become since `to_act`.
fn publish(
    game: &mut Live,
    changed: bool,
    chat: Option<Arc<str>>,
    watchers: &HashMap<Seat, usize>,
    to_act: &mut Vec<String>,
    updates: &broadcast::Sender<Arc<Update>>,
    allow_local_webhooks: bool,
) {
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
            (to_act, &now_to_act),
            allow_local_webhooks,
        );
        *to_act = now_to_act;
    }
    update.chat = chat;
    let _ = updates.send(Arc::new(update));
}

/// A message as sent; one that cannot be written becomes an error message saying so.
fn wire(message: &ServerMessage) -> String {
    serde_json::to_string(message).unwrap_or_else(|e| {
        serde_json::json!({"type": "error", "message": format!("the server could not write its answer: {e}")})
            .to_string()
    })
}
