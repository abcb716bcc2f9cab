//! `grognard serve`: an authoritative referee server for remote play, and its client.
//!
//! The server holds the truth. A game is created from a scenario and every file it loads
//! ([`bundle`]); it lives as an append-only log of accepted orders in a [`store`] (SQLite,
//! one file), and is rebuilt by replaying that log. Each seat — a side, the referee, a
//! spectator — has a secret token ([`tokens`]); a side's seat receives only what
//! `Game::view` gives that side. Live games run one thread each ([`hub`]); the HTTP API and
//! the WebSocket are in [`http`], their messages and limits in [`protocol`]. [`client`] is
//! the blocking client the `grognard remote` commands and the editor use. [`web`] is the
//! browser client the server serves itself (`/play/{game}`, `/host`).
//!
//! The protocol, limits and security model are documented in `docs/server.md`.

#![warn(missing_docs)]

pub mod admission;
pub mod budget;
pub mod bundle;
pub mod client;
pub mod config;
pub mod display;
pub mod game;
pub mod http;
pub mod hub;
pub mod memory;
pub mod protocol;
pub mod schema;
pub mod seat;
pub mod store;
pub mod tokens;
pub mod web;
pub mod webhook;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use crate::config::Config;
use crate::hub::Hub;
use crate::store::{SqliteStore, StoreError};
use crate::tokens::RandomError;

/// A server running on a thread of its own (for the editor's "Host game…" and for tests):
/// dropping it stops the server.
#[derive(Debug)]
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The host token: creating a game needs it (`Authorization: Bearer TOKEN` on
    /// `POST /games`). Empty for an open server.
    pub host_token: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    /// Its base URL (`http://127.0.0.1:7878`).
    #[must_use]
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Why a server did not start, or stopped: the start-up errors a user must see (what
/// `grognard serve` and the editor's "Host game…" print).
#[derive(Debug)]
pub enum StartError {
    /// The database cannot be opened, read or written.
    Store(StoreError),
    /// The operating system gave no random numbers for the host token.
    Random(RandomError),
    /// The address cannot be bound or listened on.
    Listen {
        /// The address (`127.0.0.1:7878`).
        listen: String,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// The bound socket cannot be read or handed to the runtime.
    Socket(std::io::Error),
    /// The server's runtime cannot be started.
    Runtime(std::io::Error),
    /// The server's thread cannot be started.
    Thread(std::io::Error),
    /// The server stopped with an error.
    Stopped(std::io::Error),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Store(e) => write!(f, "{e}"),
            Self::Random(e) => write!(f, "{e}"),
            Self::Listen { listen, error } => write!(f, "cannot listen on {listen}: {error}"),
            Self::Socket(e) | Self::Thread(e) => write!(f, "{e}"),
            Self::Runtime(e) => write!(f, "cannot start the server's runtime: {e}"),
            Self::Stopped(e) => write!(f, "the server stopped: {e}"),
        }
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Store(e) => Some(e),
            Self::Random(e) => Some(e),
            Self::Listen { error: e, .. }
            | Self::Socket(e)
            | Self::Runtime(e)
            | Self::Thread(e)
            | Self::Stopped(e) => Some(e),
        }
    }
}

impl From<StoreError> for StartError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

/// The error's words, for callers that report start-up errors as text.
impl From<StartError> for String {
    fn from(e: StartError) -> Self {
        e.to_string()
    }
}

/// Opens the database and binds the address: the start-up errors a user must see.
///
/// # Errors
/// The database cannot be opened or written, or the address cannot be bound.
fn prepare(config: Config) -> Result<(std::net::TcpListener, Arc<Hub>), StartError> {
    let listen = config.listen.clone();
    let store = SqliteStore::open(&config.db)?;
    let hub = Hub::new(Arc::new(store), config)?;
    let cannot_listen = |error| StartError::Listen {
        listen: listen.clone(),
        error,
    };
    let listener = std::net::TcpListener::bind(&listen).map_err(cannot_listen)?;
    listener.set_nonblocking(true).map_err(cannot_listen)?;
    Ok((listener, hub))
}

fn runtime() -> Result<tokio::runtime::Runtime, StartError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(StartError::Runtime)
}

/// Starts a server on a thread of its own, with a fresh host token (in
/// [`Running::host_token`]) and the default limits.
///
/// # Errors
/// As `grognard serve` at start-up.
pub fn spawn(listen: &str, db: &Path) -> Result<Running, StartError> {
    let host_token = tokens::new_token().map_err(StartError::Random)?;
    spawn_with(Config::new(listen, db, &host_token), host_token)
}

/// Starts a server set up as `config` says, on a thread of its own; `host_token` is what
/// [`Running::host_token`] then tells (the config keeps only its hash).
///
/// # Errors
/// As `grognard serve` at start-up.
pub fn spawn_with(config: Config, host_token: String) -> Result<Running, StartError> {
    let (listener, hub) = prepare(config)?;
    let addr = listener.local_addr().map_err(StartError::Socket)?;
    let rt = runtime()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("grognard-serve".into())
        .spawn(move || {
            rt.block_on(async move {
                if let Ok(listener) = tokio::net::TcpListener::from_std(listener) {
                    let _ = http::serve(listener, hub, async {
                        let _ = stopped.await;
                    })
                    .await;
                }
            });
        })
        .map_err(StartError::Thread)?;
    Ok(Running {
        addr,
        host_token,
        stop: Some(stop),
        thread: Some(thread),
    })
}

/// `grognard serve`: runs until interrupted (Ctrl-C). `ready` is told the address once it
/// listens.
///
/// # Errors
/// A start-up error (database, address).
pub fn run(config: Config, ready: impl FnOnce(SocketAddr, &Hub)) -> Result<(), StartError> {
    let (listener, hub) = prepare(config)?;
    let addr = listener.local_addr().map_err(StartError::Socket)?;
    ready(addr, &hub);
    runtime()?.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(StartError::Socket)?;
        http::serve(listener, hub, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(StartError::Stopped)
    })
}
