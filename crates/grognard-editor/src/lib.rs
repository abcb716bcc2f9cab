//! The grognard editor (egui/eframe): switch rulesets, tweak charts and costs with live
//! odds, save house rules, and play on the board.
//!
//! The app lives here so tests drive the real thing; `grognard edit` only calls [`run`].
//! No rule is decided in this crate: edits are checked by the rules crate's loader, odds
//! come from the kernel's enumeration, moves and reach from [`grognard_kernel::game::Game`].
//!
//! - [`app`]: the application — saved settings, runtime state, panels and commands.
//! - [`house`]: the house-rule workbench (live-checked edits, overlay files).
//! - [`session`]: a game in progress (orders, undo, saves, the dice log).
//! - [`simulate`]: the Simulate panel's background policy games and their tallies.
//! - [`tune`]: the Tune panel's background search (`grognard tune`'s, from
//!   `grognard_play::tune`), each candidate's games played as Simulate plays them.
//! - [`scene`]: what a board frame is made of (pieces as seen, overlay, transform,
//!   labels), below both [`board`] and [`bases`].
//! - [`board`]: drawing the board and pieces for every geometry.
//! - [`bases`]: bases on the open table — drawn to scale, their reach, the tape measure,
//!   dragging and turning them.
//! - [`view`]: "View as" — which pieces a viewer sees.
//! - [`words`]: orders and piece details in a player's words, for every tab and a remote
//!   seat alike.
//! - [`remote`]: remote play — a seat's live connection to a `grognard serve` server, and
//!   hosting a game there ([`run_joined`] opens the editor joined to a seat).

#![warn(missing_docs)]

pub mod app;
pub mod bases;
pub mod board;
pub mod house;
pub mod remote;
pub mod scene;
pub mod session;
pub mod simulate;
pub mod tune;
pub mod view;
pub mod words;

pub use app::{Command, EditorApp, Options, Saved, Tab, run, run_joined};
