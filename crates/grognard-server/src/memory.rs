//! [`MemoryStore`]: the [`Store`] trait kept in memory, for driving the router in process
//! in tests and for a server that needs nothing kept (`SqliteStore` is the real one). It
//! follows the same rules: each call all or nothing, log and chat numbered from 1, the
//! chat's line limit, the bytes each game holds.

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::protocol::{ChatLine, GameSummary, MAX_CHAT_LINES, Status};
use crate::store::{Entry, GameRecord, LogRow, Store, StoreError};

/// One game as kept.
#[derive(Clone, Debug)]
struct Kept {
    record: GameRecord,
    status: Status,
    log: Vec<LogRow>,
    chat: Vec<ChatLine>,
}

/// Games kept in memory, lost when it is dropped.
#[derive(Debug, Default)]
pub struct MemoryStore {
    games: Mutex<BTreeMap<String, Kept>>,
}

impl MemoryStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut BTreeMap<String, Kept>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut games = self.games.lock().map_err(|_| StoreError::Poisoned)?;
        f(&mut games)
    }
}

fn missing(id: &str) -> StoreError {
    StoreError::NoGame(id.to_owned())
}

impl Store for MemoryStore {
    fn create(&self, game: &GameRecord, status: &Status) -> Result<(), StoreError> {
        self.with(|games| {
            if games.contains_key(&game.id) {
                return Err(StoreError::Exists(game.id.clone()));
            }
            games.insert(
                game.id.clone(),
                Kept {
                    record: game.clone(),
                    status: status.clone(),
                    log: Vec::new(),
                    chat: Vec::new(),
                },
            );
            Ok(())
        })
    }

    fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.with(|games| Ok(games.get(id).map(|k| k.record.clone())))
    }

    fn game_exists(&self, id: &str) -> Result<bool, StoreError> {
        self.with(|games| Ok(games.contains_key(id)))
    }

    fn list(&self) -> Result<Vec<GameSummary>, StoreError> {
        self.with(|games| {
            let mut list: Vec<GameSummary> = games
                .values()
                .map(|k| GameSummary {
                    game: k.record.id.clone(),
                    scenario: k.record.scenario_name.clone(),
                    ruleset: k.record.ruleset_name.clone(),
                    sides: k.record.sides.clone(),
                    policies: k
                        .record
                        .seats
                        .iter()
                        .filter_map(|s| s.policy.clone().map(|p| (s.seat.clone(), p)))
                        .collect(),
                    created_at: k.record.created_at,
                    status: k.status.clone(),
                })
                .collect();
            list.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.game.cmp(&b.game)));
            Ok(list)
        })
    }

    fn append(&self, id: &str, at: u64, entry: &Entry, status: &Status) -> Result<u64, StoreError> {
        self.with(|games| {
            let kept = games.get_mut(id).ok_or_else(|| missing(id))?;
            let seq = kept.log.len() as u64 + 1;
            let size = serde_json::to_string(entry).map_or(0, |t| t.len() as u64);
            kept.log.push(LogRow {
                seq,
                at,
                entry: entry.clone(),
            });
            kept.status = status.clone();
            kept.record.bytes += size;
            Ok(seq)
        })
    }

    fn log(&self, id: &str) -> Result<Vec<LogRow>, StoreError> {
        self.with(|games| Ok(games.get(id).map(|k| k.log.clone()).unwrap_or_default()))
    }

    fn say(&self, id: &str, seat: &str, at: u64, text: &str) -> Result<ChatLine, StoreError> {
        self.with(|games| {
            let kept = games.get_mut(id).ok_or_else(|| missing(id))?;
            let seq = kept.chat.len() as u64 + 1;
            if seq > MAX_CHAT_LINES {
                return Err(StoreError::ChatFull(id.to_owned()));
            }
            let line = ChatLine {
                seq,
                seat: seat.to_owned(),
                at,
                text: text.to_owned(),
            };
            kept.chat.push(line.clone());
            kept.record.bytes += text.len() as u64;
            Ok(line)
        })
    }

    fn chat(&self, id: &str, after: u64) -> Result<Vec<ChatLine>, StoreError> {
        self.with(|games| {
            Ok(games
                .get(id)
                .map(|k| k.chat.iter().filter(|l| l.seq > after).cloned().collect())
                .unwrap_or_default())
        })
    }

    fn set_webhook(&self, id: &str, seat: &str, url: Option<&str>) -> Result<(), StoreError> {
        self.with(|games| {
            let kept = games.get_mut(id).ok_or_else(|| missing(id))?;
            if let Some(s) = kept.record.seats.iter_mut().find(|s| s.seat == seat) {
                s.webhook = url.map(str::to_owned);
            }
            Ok(())
        })
    }

    fn total_bytes(&self) -> Result<u64, StoreError> {
        self.with(|games| Ok(games.values().map(|k| k.record.bytes).sum()))
    }
}
