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
use crate::store::SqliteStore;

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

/// Opens the database and binds the address: the start-up errors a user must see.
///
/// # Errors
/// The database cannot be opened or written, or the address cannot be bound.
fn prepare(config: Config) -> Result<(std::net::TcpListener, Arc<Hub>), String> {
    let listen = config.listen.clone();
    let store = SqliteStore::open(&config.db).map_err(|e| e.to_string())?;
    let hub = Hub::new(Arc::new(store), config).map_err(|e| e.to_string())?;
    let listener = std::net::TcpListener::bind(&listen)
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    Ok((listener, hub))
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))
}

/// Starts a server on a thread of its own, with a fresh host token (in
/// [`Running::host_token`]) and the default limits.
///
/// # Errors
/// As `grognard serve` at start-up.
pub fn spawn(listen: &str, db: &Path) -> Result<Running, String> {
    let host_token = tokens::new_token().map_err(|e| e.to_string())?;
    spawn_with(Config::new(listen, db, &host_token), host_token)
}

/// Starts a server set up as `config` says, on a thread of its own; `host_token` is what
/// [`Running::host_token`] then tells (the config keeps only its hash).
///
/// # Errors
/// As `grognard serve` at start-up.
pub fn spawn_with(config: Config, host_token: String) -> Result<Running, String> {
    let (listener, hub) = prepare(config)?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
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
        .map_err(|e| e.to_string())?;
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
pub fn run(config: Config, ready: impl FnOnce(SocketAddr, &Hub)) -> Result<(), String> {
    let (listener, hub) = prepare(config)?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    ready(addr, &hub);
    runtime()?.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(|e| e.to_string())?;
        http::serve(listener, hub, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| format!("the server stopped: {e}"))
    })
}
