//! The grognard kernel: a pure, deterministic model of a horse-and-musket wargame.
//!
//! No I/O, no Lua, no YAML, no GUI. A [`rules::Rules`] (built by the rules crate) and a
//! [`game::Setup`] start a [`game::Game`]; [`game::Game::apply`] turns each
//! [`action::Order`] into [`action::Event`]s or refuses it and changes nothing. Variant
//! decisions that data cannot express are asked through [`hooks::Hooks`].

#![warn(missing_docs)]

pub mod action;
pub mod amount;
pub mod board;
pub mod chart;
pub mod command;
pub mod company;
pub mod cost;
pub mod dice;
pub mod game;
pub mod geometry;
pub mod hooks;
pub mod ids;
pub mod knowledge;
pub mod march;
pub mod piece;
pub mod ratio;
pub mod reach;
mod rolls;
pub mod rules;
mod sight;
pub mod state;
pub mod text;
mod threat;
pub mod turning;
pub mod victory;
pub mod view;

pub use cost::Cost;
pub use ratio::Ratio;
