//! What goes over the wire: the JSON bodies of the HTTP API and the WebSocket messages,
//! with the limits the server enforces. `docs/server.md` documents each one.

use std::collections::BTreeMap;

use grognard_kernel::action::RefusalKind;
use grognard_kernel::board::Board;
use grognard_kernel::game::Game;
use grognard_kernel::rules::Rules;
use grognard_kernel::victory::GameResult;
use grognard_rules::model::OrderSpec;
use serde::{Deserialize, Serialize};

/// Largest HTTP request body: a create request carries a scenario with its ruleset.
pub const MAX_BODY_BYTES: usize = 8 << 20;
/// Most files in a create request.
pub const MAX_FILES: usize = 256;
/// Largest orders file sent in one request.
pub const MAX_ORDERS_BYTES: usize = 256 << 10;
/// Largest WebSocket message a client may send.
pub const MAX_WS_MESSAGE_BYTES: usize = 64 << 10;
/// Longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 2_000;
/// Most chat lines a game keeps; later lines are refused.
pub const MAX_CHAT_LINES: u64 = 10_000;
/// Most live orders a game holds (a bound on replay time and storage).
pub const MAX_ORDERS_PER_GAME: u64 = 200_000;
/// A WebSocket client may send this many messages in a burst...
pub const WS_BURST: u32 = 40;
/// ...and this many a second after it; beyond that the server says so and closes.
pub const WS_PER_SECOND: u32 = 20;
/// The seat names that are not sides.
pub const REFEREE: &str = "referee";
/// The seat that sees what every side may know.
pub const SPECTATOR: &str = "spectator";

/// `POST /games`: a new game from a scenario and every file it needs.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The scenario file, a path among `files`.
    pub scenario: String,
    /// Its ruleset file (the top layer), a path among `files`.
    pub ruleset: String,
    /// Every file the scenario loads (see `Scenario::source_files`), by a relative path
    /// (`/`-separated, no `..`), with its text.
    pub files: BTreeMap<String, String>,
    /// The identity hash the client's copy of the ruleset has; the server refuses a game
    /// whose copy loads differently.
    #[serde(default)]
    pub ruleset_hash: Option<String>,
    /// The content hash of the client's scenario.
    #[serde(default)]
    pub scenario_hash: Option<String>,
    /// Optional rules switched on or off (`--option NAME=on`).
    #[serde(default)]
    pub options: BTreeMap<String, bool>,
    /// Another seed than the scenario's.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Sides the server plays: `random`, `greedy`, `search[:MILLISECONDS]`, `search:it=N`
    /// or `lua:FILE[:FUNCTION]` (FILE among `files`).
    #[serde(default)]
    pub policies: BTreeMap<String, String>,
}

/// The answer to a create request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Created {
    /// The game's id.
    pub game: String,
    /// One secret token per seat: each side, `referee` and `spectator`.
    pub tokens: BTreeMap<String, String>,
}

/// One game in the list `GET /games` gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// Its id.
    pub game: String,
    /// The scenario's name.
    pub scenario: String,
    /// The ruleset's name.
    pub ruleset: String,
    /// The sides, in scenario order.
    pub sides: Vec<String>,
    /// Sides the server plays, with their policy.
    #[serde(default)]
    pub policies: BTreeMap<String, String>,
    /// When it was created (seconds since 1970, UTC).
    pub created_at: u64,
    /// Its status as of the last order.
    #[serde(flatten)]
    pub status: Status,
}

/// Where a game stands: public to every seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// The turn.
    pub turn: u32,
    /// The phase (none once the game is over).
    pub phase: Option<String>,
    /// The sides that may act now: whose turn it is.
    pub to_act: Vec<String>,
    /// Live orders given so far.
    pub orders: u64,
    /// When the last order came (seconds since 1970, UTC).
    pub last_order_at: Option<u64>,
    /// True once the game has ended.
    pub over: bool,
    /// How it ended: `null` while the game runs.
    #[serde(default, deserialize_with = "stored_verdict")]
    pub result: Option<Verdict>,
    /// Why the game is paused, or `null` while it goes on. A paused game refuses orders
    /// (409, with this reason) and lists none; its views still answer. The reason says what
    /// ends the pause: a ruleset hook that keeps failing ([`HOOK_FAULTS_TO_PAUSE`] times
    /// with no order accepted between; an undo ends it), or the server's own players out
    /// of CPU time (`policy_cpu_per_game`, `policy_cpu_per_hour`).
    #[serde(default)]
    pub paused: Option<String>,
    /// True when the host fixed the game's seed at creation (then the host could know the
    /// dice to come); false when the server drew it from the operating system, secret
    /// from every seat until the game is over.
    #[serde(default)]
    pub seed_fixed: bool,
}

/// A game pauses after this many hook faults (a hook out of its instruction budget, time
/// or memory, or answering with a wrong type) with no order accepted between them. The
/// instruction budget trips at the same point every time, so one fault would do; the
/// wall-clock deadline does not, and one slow moment on a busy host should not stop a
/// game.
pub const HOOK_FAULTS_TO_PAUSE: u32 = 3;

/// A status's result as read back: a database written before results named their sides
/// stored the kernel's form (`winner` an index, `points` a list). That is read as no result
/// rather than making the whole game list unreadable; the game's own `view` still gives
/// its result, replayed, and its next stored status is in the named form.
fn stored_verdict<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Verdict>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(d)?;
    Ok(value.and_then(|v| serde_json::from_value(v).ok()))
}

/// How a game ended, as the wire gives it: sides by name. (The kernel's [`GameResult`],
/// which saves keep, names sides by index; a client should not need the side order.)
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// The side that won, or `null` for a draw.
    pub winner: Option<String>,
    /// Each side's points, by side name.
    pub points: BTreeMap<String, i32>,
    /// Why, in words.
    pub why: String,
}

impl Verdict {
    /// How `game` ended, with its sides named; `None` while it runs.
    #[must_use]
    pub fn of(game: &Game) -> Option<Self> {
        let sides: Vec<String> = game.sides().iter().map(|d| d.name.clone()).collect();
        game.result().map(|r| Self::new(r, &sides))
    }

    /// The kernel's result with its sides named (`sides` in scenario order).
    #[must_use]
    pub fn new(result: &GameResult, sides: &[String]) -> Self {
        Self {
            winner: result.winner.and_then(|w| sides.get(w.index())).cloned(),
            points: sides
                .iter()
                .zip(&result.points)
                .map(|(side, points)| (side.clone(), *points))
                .collect(),
            why: result.why.clone(),
        }
    }
}

/// `GET /games`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct GameList {
    /// Every game, newest first.
    pub games: Vec<GameSummary>,
}

/// `POST /games/{id}/orders`: an orders file, as `play --orders` reads it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SendOrders {
    /// How messages name the file (`orders.yaml`).
    pub file: String,
    /// Its text.
    pub text: String,
}

/// What became of an orders file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OrdersReply {
    /// How many orders were accepted (each stored at once).
    pub accepted: usize,
    /// The first refusal, as `play` reports it (`file:line:col: refused: ...`); the orders
    /// after it were not tried.
    pub refused: Option<String>,
    /// Why that refusal, in a word ([`RefusedKind::word`]); absent when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused_kind: Option<String>,
    /// What this seat saw happen, as `play --side` prints it.
    pub text: Vec<String>,
}

/// `POST /games/{id}/undo`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Undo {
    /// Why (the referee must say; every seat sees it in the chat).
    #[serde(default)]
    pub reason: Option<String>,
}

/// `POST /games/{id}/chat`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Say {
    /// The line.
    pub text: String,
}

/// `PUT /games/{id}/webhook`: called with a POST when it becomes the seat's side's turn.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Webhook {
    /// An `http://` URL, or none to remove it.
    pub url: Option<String>,
}

/// One chat line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// Its number in the game's chat, from 1.
    pub seq: u64,
    /// Who said it (a seat, or `server` for the server's own notices).
    pub seat: String,
    /// When (seconds since 1970, UTC).
    pub at: u64,
    /// What.
    pub text: String,
}

/// `GET /games/{id}/chat`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Chat {
    /// The lines, oldest first.
    pub lines: Vec<ChatLine>,
}

/// Everything one seat may know now: pushed over the WebSocket after every change and
/// given by `GET /games/{id}/view`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatState {
    /// The game.
    pub game: String,
    /// The seat (a side's name, `referee` or `spectator`).
    pub seat: String,
    /// Where the game stands.
    pub status: Status,
    /// Exactly what `grognard view --json` prints for this seat: for a side
    /// `{"view", "events"}`, for the referee `{"state", "events", "views"}`; for a spectator
    /// nothing while the game runs (the status is what every side may know) and the
    /// referee's once it is over.
    pub view: serde_json::Value,
    /// Exactly what `grognard view` prints for this seat (empty for a spectator while the
    /// game runs).
    pub text: String,
    /// The orders this seat's side may give now (side seats), in the orders-file syntax.
    pub legal: Vec<OrderSpec>,
    /// True when this seat may take back the last order now.
    pub can_undo: bool,
    /// Why `legal` is empty although the side may act: a hook of the ruleset failed while
    /// listing its orders (out of its instruction budget, say); the message names the hook
    /// and the script's `file:line`. The referee's seat shows the last such failure of any
    /// side. `null` otherwise.
    #[serde(default)]
    pub hook_error: Option<String>,
    /// Beside each item of `legal`, in the same order: for a move on an open table what it
    /// costs and what the piece has (what a player dragging the base sees before dropping
    /// it), `null` for any other order.
    #[serde(default)]
    pub costs: Vec<Option<MoveCost>>,
    /// What the server's searching players weighed at their last decision, one entry per
    /// side the server plays with `search` that has decided something: only to that side's
    /// own seat and to the referee (it tells what the side knows), never to another side
    /// or a spectator. Absent when there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub thinking: Vec<Thinking>,
}

/// A searching player's account of one decision of the server's ([`SeatState::thinking`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Thinking {
    /// The side it plays.
    pub side: String,
    /// The turn it decided in.
    pub turn: u32,
    /// The phase it decided in.
    pub phase: Option<String>,
    /// As `grognard play --explain` prints it.
    pub text: String,
    /// The same as JSON (`grognard_play::search::Explanation`): `iterations`,
    /// `simulated_orders`, `millis` and `considered`, the most visited orders, the one
    /// given first, each `{"order", "visits", "mean"}` (`order` in the orders-file form,
    /// pieces named as the side knows them; `mean` from -1, lost, to 1, won).
    pub search: serde_json::Value,
}

/// What a listed open-table move costs: rule inches as measured on this table, with the
/// terrain it crosses and its pivot, against the piece's allowance now.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveCost {
    /// The move's cost, in inches.
    pub cost: f64,
    /// The piece's allowance, in inches.
    pub allowance: f64,
}

/// The public table a client draws on: the rules and the board (the pieces come with each
/// [`SeatState`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Table {
    /// The merged, compiled ruleset.
    pub rules: Rules,
    /// The board (terrain and features).
    pub board: Board,
    /// The sides, in order.
    pub sides: Vec<String>,
    /// The scenario's name (its `scenario:`), so a seat can say what it joined.
    #[serde(default)]
    pub scenario: String,
    /// How each terrain is drawn, by terrain id: the ruleset's `color` (`#d8e4b0`), `null`
    /// where it gives none. The compiled `rules` keep no colours, and a seat has no ruleset
    /// file of its own to read them from.
    #[serde(default)]
    pub terrain_colors: Vec<Option<String>>,
    /// The sides the server plays, with their policy as created (`"red": "search"`):
    /// public, as the game list's `policies`. Absent when people play every side.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub policies: BTreeMap<String, String>,
}

/// A message the server sends on a WebSocket.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// First, after a good `hello`: who you are and the table.
    Welcome {
        /// The seat the token opened.
        seat: String,
        /// The rules and the board.
        table: Box<Table>,
    },
    /// The seat's state, after every change.
    State(Box<SeatState>),
    /// A chat line.
    Chat(ChatLine),
    /// One of this client's orders was refused (nothing changed).
    Refused {
        /// Why, in a word a program can match on ([`RefusedKind::word`]): `play --json`'s
        /// `refused.kind` — the kernel's `RefusalKind` in snake case, or `bad_orders` — or
        /// the server's own `paused` and `game_full`. Empty from a server older than it.
        #[serde(default)]
        kind: String,
        /// Why, as `play` reports it.
        message: String,
    },
    /// A request of this client was wrong (a bad message, a rate limit); nothing changed.
    Error {
        /// What was wrong.
        message: String,
    },
}

/// A message a client sends on a WebSocket.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: the seat's token.
    Hello {
        /// The token.
        token: String,
    },
    /// One order, as in an orders file.
    Order {
        /// The order.
        order: Box<OrderSpec>,
    },
    /// A chat line.
    Chat {
        /// The line.
        text: String,
    },
    /// Take back the last order.
    Undo {
        /// Why (the referee must say).
        #[serde(default)]
        reason: Option<String>,
    },
}

/// An error body: `{"error": "..."}`, and `kind` when the game refused an order.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ErrorBody {
    /// What went wrong.
    pub error: String,
    /// For an order the game refused, why in a word ([`RefusedKind::word`]); absent for
    /// every other error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// Why a game did not take an order, as a program matches on it: the kind
/// [`ServerMessage::Refused`] (and an [`ErrorBody`] or [`OrdersReply`]) sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusedKind {
    /// The rules refused it: the kernel's reason (`out_of_phase`, `too_far`, …).
    Rules(RefusalKind),
    /// The rules never saw it: it names a side, piece or value the game does not have, or
    /// has no one kind (`bad_orders`, as `play --json` says it).
    BadOrders,
    /// The game is paused (a hook kept failing, a budget ran out): `paused`.
    Paused,
    /// The game holds the most orders, or the most bytes, it may: `game_full`.
    GameFull,
}

impl RefusedKind {
    /// The word sent: the kernel's kinds as they serialize (snake case) and `bad_orders`,
    /// the words `play --json` gives too (`grognard_play::refusal_word`), then the server's
    /// own `paused` and `game_full`.
    #[must_use]
    pub fn word(self) -> String {
        use grognard_play::refusal_word::{BAD_ORDERS, kind_word};
        match self {
            Self::Rules(kind) => kind_word(kind),
            Self::BadOrders => BAD_ORDERS.to_owned(),
            Self::Paused => "paused".to_owned(),
            Self::GameFull => "game_full".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use grognard_kernel::ids::SideId;

    use super::*;

    /// The kinds a refusal is sent with: the kernel's as `play --json` words them, then the
    /// server's own; and the `refused` message carries its kind beside the words.
    #[test]
    fn each_refused_kind_has_its_word() {
        use grognard_kernel::action::RefusalKind;
        let words = [
            RefusedKind::Rules(RefusalKind::OutOfPhase),
            RefusedKind::Rules(RefusalKind::NotInRules),
            RefusedKind::BadOrders,
            RefusedKind::Paused,
            RefusedKind::GameFull,
        ]
        .map(RefusedKind::word);
        assert_eq!(
            words,
            [
                "out_of_phase",
                "not_in_rules",
                "bad_orders",
                "paused",
                "game_full"
            ]
        );
        let sent = ServerMessage::Refused {
            kind: RefusedKind::Rules(RefusalKind::TooFar).word(),
            message: "refused: b1 cannot reach (4,4)".into(),
        };
        assert_eq!(
            serde_json::to_string(&sent).unwrap(),
            r#"{"type":"refused","kind":"too_far","message":"refused: b1 cannot reach (4,4)"}"#
        );
    }

    #[test]
    fn a_result_names_its_sides_and_a_running_game_says_null() {
        let sides = ["blue".to_owned(), "red".to_owned()];
        let won = GameResult {
            winner: Some(SideId(1)),
            points: vec![3, 5],
            why: "red wins on points (blue 3, red 5)".into(),
        };
        let verdict = Verdict::new(&won, &sides);
        let running = Status::default();
        assert_eq!(
            serde_json::to_value(&running).unwrap()["result"],
            serde_json::Value::Null,
            "the key is there while the game runs"
        );
        let over = Status {
            over: true,
            result: Some(verdict),
            ..Status::default()
        };
        assert_eq!(
            serde_json::to_value(&over).unwrap()["result"],
            serde_json::json!({
                "winner": "red",
                "points": {"blue": 3, "red": 5},
                "why": "red wins on points (blue 3, red 5)",
            })
        );
        let draw = GameResult {
            winner: None,
            points: vec![0, 0],
            why: "a draw".into(),
        };
        assert_eq!(Verdict::new(&draw, &sides).winner, None);
        // A status stored in the kernel's form still reads.
        let old: Status = serde_json::from_str(
            r#"{"turn": 3, "phase": null, "to_act": [], "orders": 9, "last_order_at": 5,
                "over": true, "result": {"winner": 1, "points": [3, 5], "why": "w"}}"#,
        )
        .unwrap();
        assert!(old.over && old.result.is_none());
    }
}
