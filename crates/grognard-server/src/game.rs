//! One live game on the server: built from its stored files and replayed from its log,
//! then changed only by orders that are stored first-thing after the kernel accepts them.
//! Everything a seat receives is computed here, from `Game::view` for a side.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_kernel::hooks::{HookFault, Hooks, NoHooks};
use grognard_kernel::ids::SideId;
use grognard_lua::{Limits as LuaLimits, LuaHooks};
use grognard_play::policy::{Player, PolicyKind};
use grognard_play::text;
use grognard_rules::load::{self, Scenario};
use grognard_rules::model::OrderSpec;
use grognard_rules::orders::{describe_order, describe_order_as, resolve_order, resolve_order_as};
use grognard_rules::save::SaveFile;
use grognard_rules::source::Bundle;
use serde_json::json;

use crate::budget::Usage;
use crate::budget::{Spent, Stopwatch};
use crate::protocol::ChatLine;
use crate::protocol::{
    HOOK_FAULTS_TO_PAUSE, MAX_ORDERS_PER_GAME, OrdersReply, RefusedKind, SeatState, Status, Table,
    Thinking,
};
use crate::seat::Seat;
use crate::store::{Entry, GameRecord, Store, StoreError};

/// Seconds since 1970.
#[must_use]
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Where `game` stands after `orders` live orders, the last at `last_order_at`.
#[must_use]
pub fn status_of(game: &Game, orders: u64, last_order_at: Option<u64>) -> Status {
    let name = |s: SideId| {
        game.sides()
            .get(s.index())
            .map_or_else(String::new, |d| d.name.clone())
    };
    Status {
        turn: game.state().turn,
        phase: game.phase().map(|(p, _)| p.name.clone()),
        to_act: game.to_act().into_iter().map(name).collect(),
        orders,
        last_order_at,
        over: game.phase().is_none(),
        result: crate::protocol::Verdict::of(game),
        paused: None,
        seed_fixed: false,
    }
}

/// The hooks a ruleset binds: its Lua scripts in a sandbox of this game's own.
pub(crate) fn hooks_for(ruleset: &load::Ruleset) -> Result<Box<dyn Hooks>, LoadError> {
    if LuaHooks::wanted(ruleset) {
        Ok(Box::new(
            LuaHooks::new(ruleset, LuaLimits::default())
                .map_err(|d| LoadError::Scripts(d.to_string()))?,
        ))
    } else {
        Ok(Box::new(NoHooks))
    }
}

/// A live order: who gave it, the order as the referee names it, and whether it is locked.
#[derive(Clone, Debug)]
struct LiveOrder {
    seat: String,
    order: OrderSpec,
    locked: bool,
}

/// A game being played.
pub struct Live {
    /// Its id.
    pub id: String,
    record: GameRecord,
    scenario: Scenario,
    hooks: Box<dyn Hooks>,
    game: Game,
    orders: Vec<LiveOrder>,
    players: Vec<Option<Player>>,
    last_order_at: Option<u64>,
    webhooks: BTreeMap<String, String>,
    store: Arc<dyn Store>,
    /// The server's limits and shared counters.
    usage: Usage,
    /// Bytes this game holds in the store.
    bytes: u64,
    /// Why the game is paused, if it is (`Status::paused`).
    paused: Option<Pause>,
    /// Hook faults met since the last order accepted ([`HOOK_FAULTS_TO_PAUSE`]).
    hook_faults: u32,
    /// The last hook fault's whole message, for the referee.
    last_fault: Option<String>,
    /// Each searching player's account of its last decision, by side index
    /// ([`SeatState::thinking`]); cleared when the game is replayed.
    thinking: Vec<Option<Thinking>>,
}

/// Why a game is paused.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pause {
    /// A ruleset hook kept failing (the reason, as the status gives it). An undo ends it.
    Hooks(String),
    /// The server's players used up a CPU budget.
    Players(Spent),
    /// The server's players gave `Limits::policy_orders_in_a_row` orders in a row with no
    /// person acting (a game whose phases never end). An undo ends it.
    Run(u32),
}

impl Pause {
    fn reason(&self) -> String {
        match self {
            Self::Hooks(reason) => reason.clone(),
            Self::Players(spent) => spent.reason(),
            Self::Run(most) => format!(
                "paused: the server's players gave {most} orders in a row with no person acting, the most they may; the referee may take an order back to go on"
            ),
        }
    }
}

/// Why a request to a game failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The seat may not do that (HTTP 403).
    Forbidden(String),
    /// The request does not fit the game now (HTTP 409).
    Conflict(String),
    /// The game did not take an order (HTTP 409; `refused` on a WebSocket), and why in a
    /// word.
    Refused {
        /// Why, as a program matches on it.
        kind: RefusedKind,
        /// Why, in words (`play`'s, without its `refused: `).
        message: String,
    },
    /// The request itself is malformed (HTTP 400).
    Bad(String),
    /// The server could not store it; nothing changed (HTTP 503).
    Unavailable(String),
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Forbidden(m)
            | Self::Conflict(m)
            | Self::Bad(m)
            | Self::Unavailable(m)
            | Self::Refused { message: m, .. } => f.write_str(m),
        }
    }
}

/// An order the game did not take: why, as a kind and in words.
fn refused(kind: RefusedKind, message: String) -> Problem {
    Problem::Refused { kind, message }
}

/// Why a game could not be built from its files, or rebuilt from its log. The texts name
/// files only as the bundle names them, never a path of the server's disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// A path outside the bundle, or a scenario or ruleset that does not load (every
    /// problem at its `file:line:col`).
    Files(String),
    /// The ruleset's Lua scripts do not load.
    Scripts(String),
    /// The scenario does not start (its options, its pieces' placement).
    Start(String),
    /// The stored files load, but not the game they were stored with (game id).
    Changed(String),
    /// An order of the log no longer names what it named.
    Unresolved {
        /// The game's id.
        game: String,
        /// The order's number in the live orders, from 1.
        order: usize,
        /// Why.
        why: String,
    },
    /// The rules refuse an order of the log.
    Refused {
        /// The game's id.
        game: String,
        /// The order's number in the live orders, from 1.
        order: usize,
        /// The refusal's reason.
        why: String,
    },
    /// A server player's policy does not load.
    Policy(PolicyError),
    /// The store could not give the game's log.
    Store(StoreError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Files(m) | Self::Scripts(m) | Self::Start(m) => f.write_str(m),
            Self::Changed(game) => write!(
                f,
                "game {game}: its files no longer load the game it was created with"
            ),
            Self::Unresolved { game, order, why } => {
                write!(f, "game {game}: order {order} does not replay: {why}")
            }
            Self::Refused { game, order, why } => {
                write!(f, "game {game}: order {order} is refused on replay: {why}")
            }
            Self::Policy(e) => e.fmt(f),
            Self::Store(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

/// A game that cannot be rebuilt cannot serve the request: the server's failure (503),
/// with nothing changed.
impl From<LoadError> for Problem {
    fn from(e: LoadError) -> Self {
        Self::Unavailable(e.to_string())
    }
}

/// Why a seat's policy (`greedy`, `lua:FILE[:FUNCTION]`, …) cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyError {
    /// A `lua:` policy names a file the game was not sent.
    NotSent {
        /// The policy as given.
        policy: String,
        /// The file it names.
        file: String,
    },
    /// No such policy, or a Lua file that does not load as one (the reason).
    Invalid(String),
}

impl std::fmt::Display for PolicyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotSent { policy, file } => write!(
                f,
                "policy `{policy}`: `{file}` is not among the game's files"
            ),
            Self::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for PolicyError {}

/// Loads the scenario of a stored (or about to be stored) game from its files, held in
/// memory: nothing is read from the server's disk, and every path a file names must lie
/// among the files sent.
///
/// # Errors
/// A bad path, or a scenario or ruleset that does not load (every problem at its
/// `file:line:col`, as the bundle names the files).
pub fn load_files(
    files: &BTreeMap<String, String>,
    scenario: &str,
    ruleset: &str,
) -> Result<Scenario, LoadError> {
    let bundle = Bundle::new(files.clone()).map_err(LoadError::Files)?;
    load::load_scenario_from(&bundle, Path::new(scenario), Some(Path::new(ruleset)))
        .map_err(|d| LoadError::Files(d.to_string()))
}

impl Live {
    /// Rebuilds game `record` from its files and replays its log.
    ///
    /// # Errors
    /// The files no longer load the same game, or the log does not replay.
    pub fn open(
        record: GameRecord,
        store: Arc<dyn Store>,
        usage: Usage,
    ) -> Result<Self, LoadError> {
        let scenario = load_files(&record.files, &record.scenario_path, &record.ruleset_path)?;
        if scenario.ruleset.rules.identity.hash != record.ruleset_hash
            || scenario.hash != record.scenario_hash
        {
            return Err(LoadError::Changed(record.id));
        }
        let mut hooks = hooks_for(&scenario.ruleset)?;
        let options: Vec<(String, bool)> = record.options.clone().into_iter().collect();
        let game = scenario
            .start(Some(record.seed), &options, hooks.as_mut())
            .map_err(|d| LoadError::Start(d.to_string()))?;
        let webhooks = record
            .seats
            .iter()
            .filter_map(|s| s.webhook.clone().map(|w| (s.seat.clone(), w)))
            .collect();
        let mut live = Self {
            id: record.id.clone(),
            webhooks,
            players: Vec::new(),
            thinking: Vec::new(),
            record,
            scenario,
            hooks,
            game,
            orders: Vec::new(),
            last_order_at: None,
            store,
            usage,
            bytes: 0,
            paused: None,
            hook_faults: 0,
            last_fault: None,
        };
        live.bytes = live.record.bytes;
        live.replay()?;
        Ok(live)
    }

    /// Plays the stored log from the start.
    fn replay(&mut self) -> Result<(), LoadError> {
        let log = self.store.log(&self.id).map_err(LoadError::Store)?;
        let mut orders: Vec<LiveOrder> = Vec::new();
        for row in &log {
            match &row.entry {
                Entry::Order {
                    seat,
                    order,
                    locked,
                } => orders.push(LiveOrder {
                    seat: seat.clone(),
                    order: order.as_ref().clone(),
                    locked: *locked,
                }),
                Entry::Undo { .. } => {
                    orders.pop();
                }
            }
        }
        self.last_order_at = log.last().map(|r| r.at);
        self.orders = orders;
        self.replay_live()
    }

    /// The server's players, each seeded from the game's seed and the orders so far, so a
    /// restart gives the same choices from the same position.
    fn new_players(&self) -> Result<Vec<Option<Player>>, LoadError> {
        let seed = self.record.seed ^ (self.orders.len() as u64).rotate_left(32);
        self.record
            .sides
            .iter()
            .enumerate()
            .map(|(i, side)| {
                let Some(policy) = self
                    .record
                    .seats
                    .iter()
                    .find(|s| &s.seat == side)
                    .and_then(|s| s.policy.as_ref())
                else {
                    return Ok(None);
                };
                let kind = policy_kind(&self.record.files, policy).map_err(LoadError::Policy)?;
                Player::new(&kind, seed, SideId(u8::try_from(i).unwrap_or(u8::MAX)))
                    .map(Some)
                    .map_err(|e| LoadError::Policy(PolicyError::Invalid(e)))
            })
            .collect()
    }

    /// The webhook of each seat that has one.
    #[must_use]
    pub fn webhooks(&self) -> &BTreeMap<String, String> {
        &self.webhooks
    }

    /// Sets or clears a side's seat's webhook (stored first). `allow_local`: the server lets
    /// webhooks call local addresses (`--allow-local-webhooks`).
    ///
    /// # Errors
    /// A seat that plays no side (the referee, a spectator), a URL a webhook may not call,
    /// or the store failing.
    pub fn set_webhook(
        &mut self,
        seat: &Seat,
        url: Option<String>,
        allow_local: bool,
    ) -> Result<(), Problem> {
        if self.side_of(seat).is_none() {
            return Err(Problem::Forbidden(format!(
                "the {seat}'s seat plays no side, so no turn of its own comes: only a side's seat has a webhook"
            )));
        }
        if let Some(u) = &url {
            crate::webhook::check_url(u, allow_local).map_err(|e| Problem::Bad(e.to_string()))?;
        }
        self.store
            .set_webhook(&self.id, seat.name(), url.as_deref())
            .map_err(|e| Problem::Unavailable(e.to_string()))?;
        match url {
            Some(u) => self.webhooks.insert(seat.name().to_owned(), u),
            None => self.webhooks.remove(seat.name()),
        };
        Ok(())
    }

    /// The game as it stands.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The side a seat plays, if it is a side's seat.
    fn side_of(&self, seat: &Seat) -> Option<SideId> {
        seat.side().and_then(|side| self.game.side_by_name(side))
    }

    /// Where the game stands.
    #[must_use]
    pub fn status(&self) -> Status {
        let mut status = status_of(&self.game, self.orders.len() as u64, self.last_order_at);
        status.paused = self.paused.as_ref().map(Pause::reason);
        status.seed_fixed = self.record.seed_fixed;
        status
    }

    /// Counts a hook fault, and pauses the game once they keep coming (see
    /// [`HOOK_FAULTS_TO_PAUSE`]). The reason names the hook but no piece: every seat sees it.
    fn hook_fault(&mut self, fault: &HookFault) {
        self.hook_faults += 1;
        self.last_fault = Some(fault.message.clone());
        if self.hook_faults >= HOOK_FAULTS_TO_PAUSE && self.paused.is_none() {
            self.paused = Some(Pause::Hooks(format!(
                "paused: the ruleset's {} failed {} times with no order given between ({}), \
                 so a side's orders cannot be listed; orders are refused until an undo takes \
                 the game back (the referee's view shows the failure)",
                fault.hook, self.hook_faults, fault.what
            )));
        }
    }

    /// Lets the server's players go on when the pause was the server's hourly budget and
    /// it has refilled; true when the game changed.
    pub fn resume_players(&mut self) -> bool {
        if !matches!(self.paused, Some(Pause::Players(Spent::Hour(_))))
            || self.usage.policy_cpu.spent(&self.id).is_some()
        {
            return false;
        }
        self.paused = None;
        let before = self.orders.len();
        self.run_policies();
        self.orders.len() != before || self.paused.is_some()
    }

    /// The sides whose turn it is.
    #[must_use]
    pub fn to_act(&self) -> Vec<String> {
        self.status().to_act
    }

    /// The public table.
    #[must_use]
    pub fn table(&self) -> Table {
        Table {
            rules: self.game.rules().clone(),
            board: self.game.board().clone(),
            sides: self.record.sides.clone(),
            scenario: self.record.scenario_name.clone(),
            policies: self
                .record
                .seats
                .iter()
                .filter_map(|s| Some((s.seat.clone(), s.policy.clone()?)))
                .collect(),
            terrain_colors: self
                .game
                .rules()
                .terrain
                .iter()
                .map(|t| {
                    let spec = self.scenario.ruleset.spec.terrain.get(&t.name)?;
                    spec.color.clone()
                })
                .collect(),
        }
    }

    /// Everything `seat` may know now.
    #[must_use]
    pub fn seat_state(&mut self, seat: &Seat) -> SeatState {
        let referee = |game: &Game| {
            let views: Vec<_> = (0..game.sides().len())
                .map(|i| game.view(SideId(u8::try_from(i).unwrap_or(u8::MAX))))
                .collect();
            (
                json!({"state": game.state(), "events": game.log(), "views": views}),
                text::referee_view(game),
            )
        };
        let mut hook_error = None;
        let mut costs = Vec::new();
        let (view, text, legal) = if let Some(side) = self.side_of(seat) {
            let view = json!({"view": self.game.view(side), "events": self.game.side_events(side)});
            // A paused game lists nothing: a hook that keeps failing is not run again on
            // every view.
            let legal = if self.paused.is_none() && self.game.to_act().contains(&side) {
                match self.game.legal_orders_checked(side, self.hooks.as_mut()) {
                    Ok(list) => {
                        costs = list
                            .iter()
                            .map(|a| move_cost(&self.game, side, a))
                            .collect();
                        list.into_iter()
                            .map(|action| {
                                describe_order_as(&self.game, &Order { side, action }, Some(side))
                            })
                            .collect()
                    }
                    Err(fault) => {
                        self.hook_fault(&fault);
                        hook_error = Some(format!(
                            "your orders cannot be listed: the ruleset's {} failed: {}",
                            fault.hook, fault.message
                        ));
                        Vec::new()
                    }
                }
            } else {
                Vec::new()
            };
            (view, text::side_view(&self.game, side), legal)
        } else if seat.is_referee() || (seat.is_spectator() && self.game.phase().is_none()) {
            let (v, t) = referee(&self.game);
            (v, t, Vec::new())
        } else {
            (serde_json::Value::Null, String::new(), Vec::new())
        };
        if seat.is_referee() {
            hook_error.clone_from(&self.last_fault);
        }
        SeatState {
            game: self.id.clone(),
            seat: seat.name().to_owned(),
            can_undo: self.may_undo(seat).is_ok(),
            status: self.status(),
            view,
            text,
            legal,
            hook_error,
            costs,
            thinking: self.thinking_for(seat),
        }
    }

    /// The searching players' accounts `seat` may read: its own side's, or every side's
    /// for the referee.
    fn thinking_for(&self, seat: &Seat) -> Vec<Thinking> {
        let own = self.side_of(seat);
        self.thinking
            .iter()
            .enumerate()
            .filter(|(i, _)| seat.is_referee() || own.is_some_and(|s| s.index() == *i))
            .filter_map(|(_, t)| t.clone())
            .collect()
    }

    /// Whether `seat` may take back the last live order now, and if not, why.
    fn may_undo(&self, seat: &Seat) -> Result<(), Problem> {
        let Some(last) = self.orders.last() else {
            return Err(Problem::Conflict("there is no order to take back".into()));
        };
        if seat.is_referee() {
            return Ok(());
        }
        if last.seat != seat.name() {
            return Err(Problem::Forbidden(format!(
                "the last order is {}'s; a side may take back only its own",
                last.seat
            )));
        }
        if last.locked {
            return Err(Problem::Forbidden(
                "that order rolled dice, showed its side something new of the enemy or ended \
                 the game; only the referee may take it back"
                    .into(),
            ));
        }
        Ok(())
    }

    /// Takes back the last live order (stored as an undo entry, then the game replayed).
    ///
    /// # Errors
    /// The seat may not, or the store failed (nothing changed).
    pub fn undo(&mut self, seat: &Seat, reason: Option<String>) -> Result<(), Problem> {
        if seat.is_spectator() {
            return Err(Problem::Forbidden("a spectator gives no orders".into()));
        }
        self.may_undo(seat)?;
        let reason = reason.filter(|r| !r.trim().is_empty());
        if seat.is_referee() && reason.is_none() {
            return Err(Problem::Bad(
                "the referee must give a reason to take an order back".into(),
            ));
        }
        let popped = self.orders.pop();
        let status = {
            self.replay_live()?;
            self.status()
        };
        let entry = Entry::Undo {
            seat: seat.name().to_owned(),
            reason: reason.clone(),
        };
        let at = now();
        if let Err(e) = self.store.append(&self.id, at, &entry, &status) {
            // Not stored: put the game back as the store has it.
            if let Some(p) = popped {
                self.orders.push(p);
            }
            self.replay()?;
            return Err(Problem::Unavailable(e.to_string()));
        }
        self.last_order_at = Some(at);
        // The game is back where the failing hook was not asked yet.
        if matches!(self.paused, Some(Pause::Hooks(_) | Pause::Run(_))) {
            self.paused = None;
        }
        self.hook_faults = 0;
        if seat.is_referee() {
            let line = format!(
                "the referee took back the last order: {}",
                reason.unwrap_or_default()
            );
            let _ = self.store.say(&self.id, "server", at, &line);
        }
        // If the order taken back was the server's players', it is their turn again: the
        // hub sends the seats this state, then calls `run_policies`.
        Ok(())
    }

    /// Starts the game again and plays the live orders held in memory (after loading the
    /// log, and after an undo).
    fn replay_live(&mut self) -> Result<(), LoadError> {
        let options: Vec<(String, bool)> = self.record.options.clone().into_iter().collect();
        self.hooks = hooks_for(&self.scenario.ruleset)?;
        self.game = self
            .scenario
            .start(Some(self.record.seed), &options, self.hooks.as_mut())
            .map_err(|d| LoadError::Start(d.to_string()))?;
        for (i, o) in self.orders.iter().enumerate() {
            let order =
                resolve_order(&self.game, &o.order).map_err(|why| LoadError::Unresolved {
                    game: self.id.clone(),
                    order: i + 1,
                    why: why.to_string(),
                })?;
            self.game
                .apply(&order, self.hooks.as_mut())
                .map_err(|r| LoadError::Refused {
                    game: self.id.clone(),
                    order: i + 1,
                    why: r.message,
                })?;
        }
        self.players = self.new_players()?;
        self.thinking.clear();
        Ok(())
    }

    /// Plays an orders file's text for `seat`, stopping at the first refusal; each accepted
    /// order is stored before the next is tried. The server's policies act after, when the
    /// hub has sent the seats the new state (`run_policies`).
    ///
    /// # Errors
    /// The text is not an orders file, or the seat may give no orders.
    pub fn orders(&mut self, seat: &Seat, file: &str, text: &str) -> Result<OrdersReply, Problem> {
        let orders = load::orders_from_text(file, text).map_err(|d| Problem::Bad(d.to_string()))?;
        // A paused game refuses the request as a whole (409), not order by order.
        if let Some(pause) = self.paused.as_ref().filter(|_| !seat.is_spectator()) {
            return Err(refused(RefusedKind::Paused, pause.reason()));
        }
        let viewer = self.side_of(seat);
        let log_len = |g: &Game| viewer.map_or_else(|| g.log().len(), |v| g.events_for(v).len());
        let mut reply = OrdersReply::default();
        for located in &orders {
            let before = log_len(&self.game);
            match self.give(seat, &located.value) {
                Ok(()) => {
                    reply.accepted += 1;
                    let log = viewer.map_or_else(|| self.game.log(), |v| self.game.events_for(v));
                    reply.text.extend(
                        log.iter()
                            .enumerate()
                            .skip(before)
                            .map(|(i, e)| text::log_line(&self.game, viewer, e, i)),
                    );
                }
                Err(Problem::Refused { kind, message }) => {
                    let d = grognard_rules::diag::Diagnostic::new(
                        located.location.clone(),
                        format!("refused: {message}"),
                    );
                    reply.refused = Some(d.to_string());
                    reply.refused_kind = Some(kind.word());
                    break;
                }
                Err(other) => return Err(other),
            }
        }
        Ok(reply)
    }

    /// Plays one order for `seat` (a WebSocket's order); the server's policies act after,
    /// as for `orders`.
    ///
    /// # Errors
    /// The order is refused (`Conflict`, with the reason), or the seat may not give it.
    pub fn order(&mut self, seat: &Seat, spec: &OrderSpec) -> Result<(), Problem> {
        self.give(seat, spec)
    }

    /// One order: checked against the seat, tried, stored.
    fn give(&mut self, seat: &Seat, spec: &OrderSpec) -> Result<(), Problem> {
        match self.side_of(seat) {
            Some(_) if spec.side != seat.name() => {
                return Err(Problem::Forbidden(format!(
                    "this seat plays {seat}; the order is for `{}`",
                    spec.side
                )));
            }
            None if seat.is_spectator() => {
                return Err(Problem::Forbidden("a spectator gives no orders".into()));
            }
            _ => {}
        }
        if let Some(pause) = &self.paused {
            return Err(refused(RefusedKind::Paused, pause.reason()));
        }
        if self.orders.len() as u64 >= MAX_ORDERS_PER_GAME {
            return Err(refused(
                RefusedKind::GameFull,
                format!("the game holds {MAX_ORDERS_PER_GAME} orders, the most a game may"),
            ));
        }
        // A side's names are resolved as that side may use them (its refusals then never
        // tell a hidden piece's name from a name no piece has); the referee names all.
        let order = resolve_order_as(&self.game, spec, self.side_of(seat))
            .map_err(|e| refused(RefusedKind::BadOrders, e.to_string()))?;
        self.commit(seat.name(), &order)
    }

    /// Applies an order, works out whether it is locked, and stores it; if the store fails
    /// the game is rebuilt from the store, so nothing changes.
    fn commit(&mut self, seat: &str, order: &Order) -> Result<(), Problem> {
        // Locked: the order rolled dice, taught the ordering side something of the enemy,
        // or ended the game (the editor's Undo judges by the same test).
        let takeback = grognard_play::takeback::Takeback::before(&self.game, order.side);
        if let Err(r) = self.game.apply(order, self.hooks.as_mut()) {
            if let Some(fault) = self.hooks.take_fault() {
                self.hook_fault(&fault);
            }
            return Err(refused(RefusedKind::Rules(r.kind), r.message));
        }
        // Accepted: the game has moved on from where a hook failed.
        let _ = self.hooks.take_fault();
        self.hook_faults = 0;
        let locked = takeback.lock(&self.game).is_some();
        let live = LiveOrder {
            seat: seat.to_owned(),
            order: describe_order(&self.game, order),
            locked,
        };
        let entry = Entry::Order {
            seat: live.seat.clone(),
            order: Box::new(live.order.clone()),
            locked,
        };
        let size = serde_json::to_string(&entry).map_or(0, |t| t.len() as u64);
        if let Err(full) = self.usage.store(self.bytes, size) {
            self.replay_live()?;
            return Err(refused(
                RefusedKind::GameFull,
                format!("{full}; the order was not stored and the game is as it was"),
            ));
        }
        self.orders.push(live);
        let at = now();
        if let Err(e) = self.store.append(&self.id, at, &entry, &self.status()) {
            self.usage.unstore(size);
            self.orders.pop();
            self.replay_live()?;
            return Err(Problem::Unavailable(format!(
                "{e}; the order was not stored and the game is as it was"
            )));
        }
        self.last_order_at = Some(at);
        self.bytes += size;
        Ok(())
    }

    /// Adds a chat line from `seat`, within the store's quotas.
    ///
    /// # Errors
    /// A quota would be passed, or the store failed (nothing stored either way).
    pub fn say(&mut self, seat: &Seat, text: &str) -> Result<ChatLine, Problem> {
        let size = text.len() as u64;
        self.usage
            .store(self.bytes, size)
            .map_err(|full| Problem::Conflict(full.to_string()))?;
        match self.store.say(&self.id, seat.name(), now(), text) {
            Ok(line) => {
                self.bytes += size;
                Ok(line)
            }
            Err(e) => {
                self.usage.unstore(size);
                Err(Problem::Unavailable(e.to_string()))
            }
        }
    }

    /// Lets the server's players act while it is one of their sides' turn, within their
    /// CPU budgets (`crate::budget`): each order they give is timed and counted, and once
    /// a budget is spent they stop and the game is paused with the reason.
    pub fn run_policies(&mut self) {
        let most = self.usage.limits.policy_orders_in_a_row;
        for _ in 0..most {
            if self.paused.is_some() {
                return;
            }
            let to_act = self.game.to_act();
            let Some(side) = to_act
                .iter()
                .copied()
                .find(|s| self.players.get(s.index()).is_some_and(Option::is_some))
            else {
                return;
            };
            if let Some(spent) = self.usage.policy_cpu.spent(&self.id) {
                self.paused = Some(Pause::Players(spent));
                return;
            }
            let watch = Stopwatch::start();
            let went_on = self.policy_order(side);
            self.usage.policy_cpu.charge(&self.id, watch.elapsed());
            if !went_on {
                return;
            }
        }
        // Still the players' turn after the longest run they may make: say so, rather than
        // leave the game stalled with no reason.
        if self.paused.is_none()
            && self
                .game
                .to_act()
                .iter()
                .any(|s| self.players.get(s.index()).is_some_and(Option::is_some))
        {
            self.paused = Some(Pause::Run(most));
        }
    }

    /// One order of the server's player of `side`; false when the players must stop.
    fn policy_order(&mut self, side: SideId) -> bool {
        let legal = match self.game.legal_orders_checked(side, self.hooks.as_mut()) {
            Ok(legal) => legal,
            Err(fault) => {
                // Asked again until the faults pause the game (a deadline may pass).
                self.hook_fault(&fault);
                return self.paused.is_none();
            }
        };
        let Some(player) = self.players.get_mut(side.index()).and_then(Option::as_mut) else {
            return false;
        };
        // A `search` player imagines games with the game's own hooks (it clears any fault
        // they meet there: none of them is the real game's).
        let action = match player.choose_with(&self.game, side, &legal, self.hooks.as_mut()) {
            Ok(action) => action,
            // A search's `evaluate` hook failed in an imagined game: the side ends its phase
            // rather than stall the game, and the referee's view says why.
            Err(message) => {
                self.last_fault = Some(message);
                Action::EndPhase
            }
        };
        if let Some(e) = player.explanation() {
            let thinking = Thinking {
                side: self.record.sides[side.index()].clone(),
                turn: self.game.state().turn,
                phase: self.game.phase().map(|(p, _)| p.name.clone()),
                text: e.to_string(),
                search: serde_json::to_value(e).unwrap_or_default(),
            };
            if self.thinking.len() <= side.index() {
                self.thinking.resize(side.index() + 1, None);
            }
            self.thinking[side.index()] = Some(thinking);
        }
        let seat = self.record.sides[side.index()].clone();
        let order = Order { side, action };
        if self.commit(&seat, &order).is_err() {
            let end = Order {
                side,
                action: Action::EndPhase,
            };
            if self.commit(&seat, &end).is_err() {
                return false;
            }
        }
        true
    }

    /// The referee's save, as `grognard play --save` writes it (file paths as the bundle
    /// names them).
    #[must_use]
    pub fn save(&self) -> SaveFile {
        let orders = self.orders.iter().map(|o| o.order.clone()).collect();
        let mut save = SaveFile::of(&self.game, &self.scenario, Path::new("game.json"), orders);
        save.ruleset.path.clone_from(&self.record.ruleset_path);
        save.scenario.path.clone_from(&self.record.scenario_path);
        save
    }
}

/// The policy a seat names, with a `lua:` file found among the game's files.
///
/// # Errors
/// An unknown policy, or a Lua file that does not load.
pub fn policy_kind(
    files: &BTreeMap<String, String>,
    policy: &str,
) -> Result<PolicyKind, PolicyError> {
    match policy.strip_prefix("lua:") {
        Some(rest) => {
            let (file, function) = match rest.rsplit_once(':') {
                Some((f, func)) if files.contains_key(f) => (f, func),
                _ => (rest, grognard_play::lua_policy::DEFAULT_FUNCTION),
            };
            let text = files.get(file).ok_or_else(|| PolicyError::NotSent {
                policy: policy.to_owned(),
                file: file.to_owned(),
            })?;
            PolicyKind::lua_text(file, text.clone(), function)
                .map_err(|e| PolicyError::Invalid(e.to_string()))
        }
        None => PolicyKind::parse(policy).map_err(|e| PolicyError::Invalid(e.to_string())),
    }
}

/// What a listed open-table move costs `side` (see [`crate::protocol::MoveCost`]).
fn move_cost(
    game: &Game,
    side: SideId,
    action: &grognard_kernel::action::Action,
) -> Option<crate::protocol::MoveCost> {
    let grognard_kernel::action::Action::MoveTo { piece, to, facing } = action else {
        return None;
    };
    let c = game.move_to_cost(side, *piece, *to, *facing)?;
    let inches = |c: grognard_kernel::cost::Cost| f64::from(c.hundredths()) / 100.0;
    Some(crate::protocol::MoveCost {
        cost: inches(c.cost),
        allowance: inches(c.allowance),
    })
}
