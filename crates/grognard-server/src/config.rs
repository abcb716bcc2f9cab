//! How one server is set up: who may create games (the host token, or an open server),
//! whether webhooks may call the host's own network, and the limits it holds games to.
//! `grognard serve` builds one from its flags; [`crate::spawn`] and [`crate::run`] take it.

use std::path::PathBuf;
use std::time::Duration;

/// Who may create games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// Creating a game needs the host token; the server keeps only its SHA-256.
    Host {
        /// The hash of the host token ([`crate::tokens::hash`]).
        token_hash: Vec<u8>,
    },
    /// A public server: anyone may create games, within [`Limits::creates_per_address`]
    /// per client address and [`Limits::creates_per_minute`] in all.
    Open,
}

/// The limits a server holds its games to (docs/server.md, "Limits").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// New games a minute, over the whole server (a sliding minute).
    pub creates_per_minute: usize,
    /// New games a minute from one client address, on an open server.
    pub creates_per_address: usize,
    /// Bytes one game may hold in the store: its files, its log and its chat.
    pub store_bytes_per_game: u64,
    /// Bytes every game together may hold in the store.
    pub store_bytes_total: u64,
    /// CPU time the server's own players (policies) may spend on one game, in all.
    pub policy_cpu_per_game: Duration,
    /// CPU time the server's own players may spend over every game, per hour.
    pub policy_cpu_per_hour: Duration,
    /// Orders the server's players may give in a row before a person must act (a bound
    /// on a game whose phases never end); then the game is paused with the reason.
    pub policy_orders_in_a_row: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            creates_per_minute: 120,
            creates_per_address: 10,
            store_bytes_per_game: 32 << 20,
            store_bytes_total: 2 << 30,
            policy_cpu_per_game: Duration::from_secs(600),
            policy_cpu_per_hour: Duration::from_secs(1_800),
            policy_orders_in_a_row: 20_000,
        }
    }
}

/// A server's set-up.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where it listens (`127.0.0.1:7878`).
    pub listen: String,
    /// The SQLite file.
    pub db: PathBuf,
    /// Who may create games.
    pub access: Access,
    /// Webhooks may call loopback, private and link-local addresses (a club's own LAN).
    pub allow_local_webhooks: bool,
    /// The limits.
    pub limits: Limits,
    /// The scenarios the host page offers, gathered at start (`GET /scenarios`).
    pub offered: Vec<crate::web::Offered>,
}

impl Config {
    /// A server on `listen` with games in `db`, whose host token is `host_token`, with the
    /// default limits.
    #[must_use]
    pub fn new(listen: &str, db: impl Into<PathBuf>, host_token: &str) -> Self {
        Self {
            listen: listen.to_owned(),
            db: db.into(),
            access: Access::Host {
                token_hash: crate::tokens::hash(host_token),
            },
            allow_local_webhooks: false,
            limits: Limits::default(),
            offered: Vec::new(),
        }
    }
}
