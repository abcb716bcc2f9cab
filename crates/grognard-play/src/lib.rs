//! Who plays a side when no orders file does.
//!
//! A [`policy::Player`] gives one side's orders from what that side may know: its
//! [`View`](grognard_kernel::view::View) and its legal orders
//! ([`Game::legal_orders`](grognard_kernel::game::Game::legal_orders)), never the referee's
//! state. The built-in policies are `random`, `greedy` and [`search`] (information-set
//! Monte Carlo tree search over worlds drawn from what the side knows); a
//! [`lua_policy::LuaPolicy`] runs a designer's own Lua function in a sandbox of its own,
//! under the same limits as a ruleset's hooks. [`policy::play_out`] plays a game to its end with them; the CLI's `sim`
//! and `fuzz` and the editor's "Computer plays" and Simulate panel all use it.
//! [`tally::Tally`] is the exact tally of many games that `sim` and the Simulate panel
//! both report, so the two show the same numbers. [`tune`] searches named numbers of a
//! ruleset for the smallest change that brings a side's win rate to a target, for `grognard
//! tune` and the editor's Tune panel alike. [`takeback`] says whether an order may be taken
//! back, for the server's seats and the editor's Undo alike. [`refusal_word`] is the word a
//! refused order's kind is sent as, for `play --json` and the server alike.

#![warn(missing_docs)]

pub mod lua_policy;
pub mod policy;
pub mod refusal_word;
pub mod search;
pub mod takeback;
pub mod tally;
pub mod text;
pub mod tune;

pub use lua_policy::LuaPolicy;
pub use policy::{GameEnd, Played, Player, PolicyKind, play_game, play_out};
