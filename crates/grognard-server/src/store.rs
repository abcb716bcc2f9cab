//! Where games live: the [`Store`] trait, and its embedded SQLite implementation
//! ([`SqliteStore`]), one file created on first start, its schema versioned by
//! `PRAGMA user_version` and brought up to date by the migrations below.
//!
//! A game is its files, seed, options and seats, then an append-only log of entries (an
//! accepted order, or the undoing of the last one), one transaction each; its state is
//! rebuilt by replaying the log.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

use grognard_rules::model::OrderSpec;
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::protocol::{ChatLine, GameSummary, MAX_CHAT_LINES, Status};

/// Why the store could not do something. Only the start-up errors ([`SqliteStore::open`])
/// name the database file: they reach the operator, never a client. Every other error may
/// be sent to a client, and names no path of the server's disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// At start-up: the database file could not be opened or set up (`what` says which
    /// step, `why` is SQLite's reason).
    Open {
        /// The file, as the operator gave it.
        file: String,
        /// The step that failed, in words.
        what: String,
        /// SQLite's reason.
        why: String,
    },
    /// At start-up: the database file is read-only.
    ReadOnly {
        /// The file, as the operator gave it.
        file: String,
    },
    /// At start-up: the database was written by a newer grognard.
    Newer {
        /// The file, as the operator gave it.
        file: String,
        /// Its schema version.
        version: usize,
    },
    /// A read or write failed; nothing changed (SQLite's reason, which names no file).
    Failed(String),
    /// A thread panicked while it held the store.
    Poisoned,
    /// No game with that id.
    NoGame(String),
    /// A game with that id is stored already.
    Exists(String),
    /// The game's chat holds [`MAX_CHAT_LINES`] lines.
    ChatFull(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Open { file, what, why } => write!(f, "database {file}: {what}: {why}"),
            Self::ReadOnly { file } => write!(
                f,
                "database {file}: the file is read-only; the server must write it"
            ),
            Self::Newer { file, version } => write!(
                f,
                "database {file}: schema version {version} is newer than this grognard's ({SCHEMA_VERSION}); use a newer grognard"
            ),
            Self::Failed(why) => write!(f, "the server's game store failed: {why}"),
            Self::Poisoned => f.write_str("the server's game store is unusable after a panic"),
            Self::NoGame(id) => write!(f, "no game `{id}` in the store"),
            Self::Exists(id) => write!(f, "game `{id}` exists already"),
            Self::ChatFull(id) => {
                write!(f, "the chat of game {id} is full ({MAX_CHAT_LINES} lines)")
            }
        }
    }
}

impl std::error::Error for StoreError {}

/// A seat as stored: its name, the hash of its token, and what the server does for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRecord {
    /// A side's name, `referee` or `spectator`.
    pub seat: String,
    /// SHA-256 of the token.
    pub token_hash: Vec<u8>,
    /// The policy the server plays this side with, if it does.
    pub policy: Option<String>,
    /// The URL called when it becomes this seat's turn.
    pub webhook: Option<String>,
}

/// A game as created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Its id.
    pub id: String,
    /// Seconds since 1970.
    pub created_at: u64,
    /// The scenario's path among the files.
    pub scenario_path: String,
    /// The ruleset's path among the files.
    pub ruleset_path: String,
    /// The scenario's name.
    pub scenario_name: String,
    /// The ruleset's name.
    pub ruleset_name: String,
    /// The scenario's content hash.
    pub scenario_hash: String,
    /// The ruleset's identity hash.
    pub ruleset_hash: String,
    /// The seed: secret from every seat until the game is over.
    pub seed: u64,
    /// True when the host chose the seed (the game's status says so); otherwise it came
    /// from the operating system's generator.
    pub seed_fixed: bool,
    /// Bytes the game holds in the store: its files, log and chat.
    pub bytes: u64,
    /// Optional rules as chosen.
    pub options: BTreeMap<String, bool>,
    /// The sides, in order.
    pub sides: Vec<String>,
    /// The files, by path.
    pub files: BTreeMap<String, String>,
    /// Its seats.
    pub seats: Vec<SeatRecord>,
}

/// One entry of a game's log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// An accepted order.
    Order {
        /// The seat that gave it (a side, the referee, or `server` for a policy).
        seat: String,
        /// The order, with pieces named as the referee names them.
        order: Box<OrderSpec>,
        /// True when it rolled dice, showed its side something new of the enemy or ended the
        /// game (`grognard_play::takeback`): no side may take it back.
        locked: bool,
    },
    /// The last live order was taken back.
    Undo {
        /// Who took it back.
        seat: String,
        /// Why (the referee's reason).
        reason: Option<String>,
    },
}

/// A stored log entry.
#[derive(Clone, Debug, PartialEq)]
pub struct LogRow {
    /// Its number, from 1.
    pub seq: u64,
    /// When (seconds since 1970).
    pub at: u64,
    /// What.
    pub entry: Entry,
}

/// What the server needs of storage. Every method is one transaction; a failure changes
/// nothing.
pub trait Store: Send + Sync {
    /// Stores a new game.
    ///
    /// # Errors
    /// The database cannot be written.
    fn create(&self, game: &GameRecord, status: &Status) -> Result<(), StoreError>;
    /// A game, if there is one with that id.
    ///
    /// # Errors
    /// The database cannot be read.
    fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError>;

    /// True when a game with that id exists (without reading it).
    ///
    /// # Errors
    /// The database cannot be read.
    fn game_exists(&self, id: &str) -> Result<bool, StoreError>;
    /// Every game, newest first.
    ///
    /// # Errors
    /// The database cannot be read.
    fn list(&self) -> Result<Vec<GameSummary>, StoreError>;
    /// Appends to a game's log and records its status after it; returns the entry's number.
    ///
    /// # Errors
    /// The database cannot be written.
    fn append(&self, id: &str, at: u64, entry: &Entry, status: &Status) -> Result<u64, StoreError>;
    /// A game's whole log, oldest first.
    ///
    /// # Errors
    /// The database cannot be read.
    fn log(&self, id: &str) -> Result<Vec<LogRow>, StoreError>;
    /// Adds a chat line.
    ///
    /// # Errors
    /// The database cannot be written, or the chat is full.
    fn say(&self, id: &str, seat: &str, at: u64, text: &str) -> Result<ChatLine, StoreError>;
    /// Chat lines after number `after`.
    ///
    /// # Errors
    /// The database cannot be read.
    fn chat(&self, id: &str, after: u64) -> Result<Vec<ChatLine>, StoreError>;
    /// Sets or clears a seat's webhook.
    ///
    /// # Errors
    /// The database cannot be written.
    fn set_webhook(&self, id: &str, seat: &str, url: Option<&str>) -> Result<(), StoreError>;

    /// Bytes every game together holds: files, logs and chat.
    ///
    /// # Errors
    /// The database cannot be read.
    fn total_bytes(&self) -> Result<u64, StoreError>;
}

/// Each migration brings the schema from its index to the next version.
const MIGRATIONS: &[&str] = &[
    // 1: games, their files and seats, the order log and the chat.
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        scenario_path TEXT NOT NULL,
        ruleset_path TEXT NOT NULL,
        scenario_name TEXT NOT NULL,
        ruleset_name TEXT NOT NULL,
        scenario_hash TEXT NOT NULL,
        ruleset_hash TEXT NOT NULL,
        seed INTEGER NOT NULL,
        options TEXT NOT NULL,
        sides TEXT NOT NULL,
        status TEXT NOT NULL
    );
    CREATE TABLE files (
        game TEXT NOT NULL REFERENCES games(id),
        path TEXT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (game, path)
    );
    CREATE TABLE seats (
        game TEXT NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        token_hash BLOB NOT NULL,
        policy TEXT,
        webhook TEXT,
        PRIMARY KEY (game, seat)
    );
    CREATE TABLE log (
        game TEXT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (game, seq)
    );
    CREATE TABLE chat (
        game TEXT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL,
        seat TEXT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (game, seq)
    );",
    // 2: whether the host fixed a game's seed (games before this used the seed they were
    // given or the scenario's, so count as fixed), and the bytes each game holds (for the
    // store's quotas).
    "ALTER TABLE games ADD COLUMN seed_fixed INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE games ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET bytes =
        (SELECT COALESCE(SUM(length(CAST(path AS BLOB)) + length(CAST(text AS BLOB))), 0)
            FROM files WHERE game = games.id)
      + (SELECT COALESCE(SUM(length(CAST(body AS BLOB))), 0) FROM log WHERE game = games.id)
      + (SELECT COALESCE(SUM(length(CAST(text AS BLOB))), 0) FROM chat WHERE game = games.id);",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: usize = MIGRATIONS.len();

/// Log rows read under one hold of the connection ([`SqliteStore`]'s `log`).
const LOG_PAGE: i64 = 2_000;

/// Games in one SQLite file.
pub struct SqliteStore {
    conn: Mutex<Connection>,
    name: String,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("file", &self.name)
            .finish_non_exhaustive()
    }
}

#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)] // seeds and times as SQLite integers
impl SqliteStore {
    /// Opens (creating if need be) the database at `path` and migrates it.
    ///
    /// # Errors
    /// The file cannot be created or written (read-only, locked by another process), is
    /// not a SQLite database, or has a newer schema than this build knows.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let name = path.display().to_string();
        let fail = |what: &str, e: &dyn std::fmt::Display| StoreError::Open {
            file: name.clone(),
            what: what.to_owned(),
            why: e.to_string(),
        };
        let conn = Connection::open(path).map_err(|e| fail("cannot open it", &e))?;
        conn.busy_timeout(std::time::Duration::from_secs(2))
            .map_err(|e| fail("cannot set it up", &e))?;
        // One server per file: the lock taken by the first write below is held until the
        // server stops, so a second server on the same file is refused at its start (one
        // writer per game).
        conn.pragma_update(None, "locking_mode", "EXCLUSIVE")
            .map_err(|e| fail("cannot set it up", &e))?;
        if conn.is_readonly("main").unwrap_or(false) {
            return Err(StoreError::ReadOnly { file: name.clone() });
        }
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| match locked(&e) {
                true => fail(
                    "it is in use by another process (another grognard serve?)",
                    &e,
                ),
                false => fail("not a grognard database", &e),
            })?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(|e| fail("cannot write it (read-only or locked?)", &e))?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| fail("cannot set it up", &e))?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(|e| fail("cannot set it up", &e))?;
        let version = usize::try_from(version).unwrap_or(usize::MAX);
        if version > SCHEMA_VERSION {
            return Err(StoreError::Newer {
                file: name.clone(),
                version,
            });
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version) {
            let tx = conn
                .unchecked_transaction()
                .map_err(|e| fail("cannot write it (read-only or locked?)", &e))?;
            tx.execute_batch(sql)
                .and_then(|()| {
                    tx.pragma_update(
                        None,
                        "user_version",
                        i64::try_from(i + 1).unwrap_or(i64::MAX),
                    )
                })
                .and_then(|()| tx.commit())
                .map_err(|e| fail(&format!("migration to version {}", i + 1), &e))?;
        }
        // A write now, so that a locked or read-only file shows at start, not at the first
        // order.
        conn.execute_batch("BEGIN IMMEDIATE; COMMIT;")
            .map_err(|e| fail("cannot write it (read-only or locked?)", &e))?;
        Ok(Self {
            conn: Mutex::new(conn),
            name,
        })
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let mut conn = self.conn.lock().map_err(|_| StoreError::Poisoned)?;
        // The file's name is for the operator's start-up messages only: these errors reach
        // clients, and no path of the server's disk is ever sent to one.
        f(&mut conn).map_err(|e| StoreError::Failed(e.to_string()))
    }
}

/// True for SQLite's "busy" and "locked" errors.
fn locked(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn parse<T: for<'de> Deserialize<'de>>(text: &str) -> rusqlite::Result<T> {
    serde_json::from_str(text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
    })
}

#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)] // seeds and times as SQLite integers
impl Store for SqliteStore {
    fn create(&self, g: &GameRecord, status: &Status) -> Result<(), StoreError> {
        self.with(|conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "INSERT INTO games (id, created_at, scenario_path, ruleset_path, scenario_name,
                    ruleset_name, scenario_hash, ruleset_hash, seed, options, sides, status,
                    seed_fixed, bytes)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                params![
                    g.id,
                    g.created_at as i64,
                    g.scenario_path,
                    g.ruleset_path,
                    g.scenario_name,
                    g.ruleset_name,
                    g.scenario_hash,
                    g.ruleset_hash,
                    g.seed as i64,
                    json(&g.options),
                    json(&g.sides),
                    json(status),
                    g.seed_fixed,
                    g.bytes as i64,
                ],
            )?;
            for (path, text) in &g.files {
                tx.execute(
                    "INSERT INTO files (game, path, text) VALUES (?1, ?2, ?3)",
                    params![g.id, path, text],
                )?;
            }
            for s in &g.seats {
                tx.execute(
                    "INSERT INTO seats (game, seat, token_hash, policy, webhook)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![g.id, s.seat, s.token_hash, s.policy, s.webhook],
                )?;
            }
            tx.commit()
        })
    }

    fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.with(|conn| {
            let tx = conn.transaction()?;
            let Some(mut g) = tx
                .query_row(
                    "SELECT created_at, scenario_path, ruleset_path, scenario_name, ruleset_name,
                        scenario_hash, ruleset_hash, seed, options, sides, seed_fixed, bytes
                        FROM games WHERE id = ?1",
                    [id],
                    |r| {
                        Ok(GameRecord {
                            id: id.to_owned(),
                            created_at: r.get::<_, i64>(0)? as u64,
                            scenario_path: r.get(1)?,
                            ruleset_path: r.get(2)?,
                            scenario_name: r.get(3)?,
                            ruleset_name: r.get(4)?,
                            scenario_hash: r.get(5)?,
                            ruleset_hash: r.get(6)?,
                            seed: r.get::<_, i64>(7)? as u64,
                            options: parse(&r.get::<_, String>(8)?)?,
                            sides: parse(&r.get::<_, String>(9)?)?,
                            seed_fixed: r.get(10)?,
                            bytes: r.get::<_, i64>(11)? as u64,
                            files: BTreeMap::new(),
                            seats: Vec::new(),
                        })
                    },
                )
                .optional()?
            else {
                return Ok(None);
            };
            let mut files = tx.prepare("SELECT path, text FROM files WHERE game = ?1")?;
            g.files = files
                .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()?;
            let mut seats = tx.prepare(
                "SELECT seat, token_hash, policy, webhook FROM seats WHERE game = ?1 ORDER BY rowid",
            )?;
            g.seats = seats
                .query_map([id], |r| {
                    Ok(SeatRecord {
                        seat: r.get(0)?,
                        token_hash: r.get(1)?,
                        policy: r.get(2)?,
                        webhook: r.get(3)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            Ok(Some(g))
        })
    }

    fn list(&self) -> Result<Vec<GameSummary>, StoreError> {
        self.with(|conn| {
            let mut q = conn.prepare(
                "SELECT id, scenario_name, ruleset_name, sides, created_at, status FROM games
                 ORDER BY created_at DESC, id",
            )?;
            let rows: Vec<GameSummary> = q
                .query_map([], |r| {
                    Ok(GameSummary {
                        game: r.get(0)?,
                        scenario: r.get(1)?,
                        ruleset: r.get(2)?,
                        sides: parse(&r.get::<_, String>(3)?)?,
                        policies: BTreeMap::new(),
                        created_at: r.get::<_, i64>(4)? as u64,
                        status: parse(&r.get::<_, String>(5)?)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            let mut pq = conn.prepare(
                "SELECT game, seat, policy FROM seats WHERE policy IS NOT NULL ORDER BY game",
            )?;
            let policies: Vec<(String, String, String)> = pq
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<rusqlite::Result<_>>()?;
            let mut rows = rows;
            for (game, seat, policy) in policies {
                if let Some(g) = rows.iter_mut().find(|g| g.game == game) {
                    g.policies.insert(seat, policy);
                }
            }
            Ok(rows)
        })
    }

    fn append(&self, id: &str, at: u64, entry: &Entry, status: &Status) -> Result<u64, StoreError> {
        self.with(|conn| {
            let tx = conn.transaction()?;
            let seq: i64 = tx.query_row(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM log WHERE game = ?1",
                [id],
                |r| r.get(0),
            )?;
            let body = json(entry);
            tx.execute(
                "INSERT INTO log (game, seq, at, body) VALUES (?1, ?2, ?3, ?4)",
                params![id, seq, at as i64, body],
            )?;
            tx.execute(
                "UPDATE games SET status = ?2, bytes = bytes + ?3 WHERE id = ?1",
                params![id, json(status), body.len() as i64],
            )?;
            tx.commit()?;
            Ok(seq as u64)
        })
    }

    /// Read a page at a time, each under the connection's lock only while SQLite reads it
    /// and decoded after: a game with a long log (200,000 orders) would otherwise hold
    /// every other game's writes for as long as the whole read takes. Pages cannot tear:
    /// only the game's own thread appends to its log, and it is the one reading.
    fn log(&self, id: &str) -> Result<Vec<LogRow>, StoreError> {
        let mut rows = Vec::new();
        loop {
            let after = rows.last().map_or(0, |r: &LogRow| r.seq as i64);
            let page: Vec<(i64, i64, String)> = self.with(|conn| {
                let mut q = conn.prepare_cached(
                    "SELECT seq, at, body FROM log WHERE game = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
                )?;
                q.query_map(params![id, after, LOG_PAGE], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })?
                .collect()
            })?;
            let full = page.len() as i64 == LOG_PAGE;
            for (seq, at, body) in page {
                rows.push(LogRow {
                    seq: seq as u64,
                    at: at as u64,
                    entry: parse(&body).map_err(|e| StoreError::Failed(e.to_string()))?,
                });
            }
            if !full {
                return Ok(rows);
            }
        }
    }

    fn say(&self, id: &str, seat: &str, at: u64, text: &str) -> Result<ChatLine, StoreError> {
        let seq = self.with(|conn| {
            let tx = conn.transaction()?;
            let seq: i64 = tx.query_row(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE game = ?1",
                [id],
                |r| r.get(0),
            )?;
            if seq as u64 > MAX_CHAT_LINES {
                return Ok(None);
            }
            tx.execute(
                "INSERT INTO chat (game, seq, at, seat, text) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, seq, at as i64, seat, text],
            )?;
            tx.execute(
                "UPDATE games SET bytes = bytes + ?2 WHERE id = ?1",
                params![id, text.len() as i64],
            )?;
            tx.commit()?;
            Ok(Some(seq as u64))
        })?;
        let seq = seq.ok_or_else(|| StoreError::ChatFull(id.to_owned()))?;
        Ok(ChatLine {
            seq,
            seat: seat.to_owned(),
            at,
            text: text.to_owned(),
        })
    }

    fn chat(&self, id: &str, after: u64) -> Result<Vec<ChatLine>, StoreError> {
        self.with(|conn| {
            let mut q = conn.prepare(
                "SELECT seq, seat, at, text FROM chat WHERE game = ?1 AND seq > ?2 ORDER BY seq",
            )?;
            q.query_map(params![id, after as i64], |r| {
                Ok(ChatLine {
                    seq: r.get::<_, i64>(0)? as u64,
                    seat: r.get(1)?,
                    at: r.get::<_, i64>(2)? as u64,
                    text: r.get(3)?,
                })
            })?
            .collect()
        })
    }

    fn game_exists(&self, id: &str) -> Result<bool, StoreError> {
        self.with(|conn| {
            conn.query_row("SELECT 1 FROM games WHERE id = ?1", [id], |_| Ok(()))
                .optional()
                .map(|found| found.is_some())
        })
    }

    fn total_bytes(&self) -> Result<u64, StoreError> {
        self.with(|conn| {
            conn.query_row("SELECT COALESCE(SUM(bytes), 0) FROM games", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(|b| b as u64)
        })
    }

    fn set_webhook(&self, id: &str, seat: &str, url: Option<&str>) -> Result<(), StoreError> {
        self.with(|conn| {
            conn.execute(
                "UPDATE seats SET webhook = ?3 WHERE game = ?1 AND seat = ?2",
                params![id, seat, url],
            )
            .map(|_| ())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str) -> GameRecord {
        GameRecord {
            id: id.to_owned(),
            created_at: 5,
            scenario_path: "s.yaml".into(),
            ruleset_path: "r.yaml".into(),
            scenario_name: "s".into(),
            ruleset_name: "r".into(),
            scenario_hash: "h".into(),
            ruleset_hash: "k".into(),
            seed: u64::MAX,
            seed_fixed: false,
            bytes: 0,
            options: BTreeMap::from([("fog".to_owned(), true)]),
            sides: vec!["red".into(), "blue".into()],
            files: BTreeMap::from([("s.yaml".to_owned(), "x".to_owned())]),
            seats: vec![SeatRecord {
                seat: "red".into(),
                token_hash: vec![1, 2, 3],
                policy: Some("random".into()),
                webhook: None,
            }],
        }
    }

    #[test]
    fn games_logs_and_chat_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.sqlite");
        {
            let s = SqliteStore::open(&path).unwrap();
            s.create(&record("a"), &Status::default()).unwrap();
            let entry = Entry::Undo {
                seat: "referee".into(),
                reason: Some("misclick".into()),
            };
            let status = Status {
                turn: 2,
                ..Status::default()
            };
            assert_eq!(s.append("a", 7, &entry, &status).unwrap(), 1);
            assert_eq!(s.append("a", 8, &entry, &status).unwrap(), 2);
            s.say("a", "red", 9, "hello").unwrap();
        }
        let s = SqliteStore::open(&path).unwrap();
        // Each log entry and chat line is counted against the store's quotas.
        let entry_bytes = serde_json::to_string(&Entry::Undo {
            seat: "referee".into(),
            reason: Some("misclick".into()),
        })
        .unwrap()
        .len() as u64;
        let mut expected = record("a");
        expected.bytes = 2 * entry_bytes + "hello".len() as u64;
        assert_eq!(s.game("a").unwrap(), Some(expected.clone()));
        assert_eq!(s.total_bytes().unwrap(), expected.bytes);
        assert_eq!(s.game("b").unwrap(), None);
        assert_eq!(s.log("a").unwrap().len(), 2);
        let list = s.list().unwrap();
        assert_eq!(list[0].status.turn, 2);
        assert_eq!(list[0].policies["red"], "random");
        assert_eq!(s.chat("a", 0).unwrap()[0].text, "hello");
        assert!(s.chat("a", 1).unwrap().is_empty());
    }

    /// A log longer than a page comes back whole, in order, and only the game's own.
    #[test]
    fn a_log_longer_than_a_page_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let s = SqliteStore::open(&dir.path().join("g.sqlite")).unwrap();
        s.create(&record("a"), &Status::default()).unwrap();
        s.create(&record("b"), &Status::default()).unwrap();
        let n = 2 * LOG_PAGE as u64 + 1;
        for at in 0..n {
            let entry = Entry::Undo {
                seat: "red".into(),
                reason: Some(at.to_string()),
            };
            s.append("a", at, &entry, &Status::default()).unwrap();
            if at % 1_000 == 0 {
                s.append("b", at, &entry, &Status::default()).unwrap();
            }
        }
        let log = s.log("a").unwrap();
        assert_eq!(log.len() as u64, n);
        for (i, row) in log.iter().enumerate() {
            assert_eq!((row.seq, row.at), (i as u64 + 1, i as u64));
            assert!(
                matches!(&row.entry, Entry::Undo { reason: Some(r), .. } if *r == i.to_string())
            );
        }
        assert_eq!(s.log("b").unwrap().len(), 5);
    }

    #[test]
    fn a_file_that_is_not_a_database_is_refused_at_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("junk.sqlite");
        std::fs::write(&path, vec![7u8; 4096]).unwrap();
        let e = SqliteStore::open(&path).unwrap_err();
        assert!(
            matches!(&e, StoreError::Open { file, .. } if file.ends_with("junk.sqlite")),
            "{e:?}"
        );
        assert!(e.to_string().contains("junk.sqlite"), "{e}");
    }

    #[test]
    fn a_second_server_on_the_same_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.sqlite");
        let first = SqliteStore::open(&path).unwrap();
        let e = SqliteStore::open(&path).unwrap_err();
        assert!(
            matches!(&e, StoreError::Open { what, .. } if what.contains("in use by another process")),
            "{e:?}"
        );
        drop(first);
        assert!(
            SqliteStore::open(&path).is_ok(),
            "free again once the first has stopped"
        );
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.sqlite");
        let c = Connection::open(&path).unwrap();
        c.pragma_update(None, "user_version", 99).unwrap();
        drop(c);
        let e = SqliteStore::open(&path).unwrap_err();
        assert!(matches!(&e, StoreError::Newer { version: 99, .. }), "{e:?}");
        assert!(e.to_string().contains("newer"), "{e}");
    }
}
