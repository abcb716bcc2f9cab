//! One order's resolution in progress: the game being changed, the state it becomes, the
//! events written on the way, and the hooks that answer for the ruleset's scripts.
//!
//! [`Resolution`] is what every function that changes the state an order is turning the
//! game into takes (but for the few named at the end), instead of the
//! `next`, `events` and `hooks` each of them used to pass on by hand. The split between the
//! two types is by what a function does:
//!
//! - `impl Resolution` blocks (in the file of each concern: `mod.rs`'s dispatch and
//!   `decide`, moves, marches, turning, actions, commands, the sequence, the set-up and placement,
//!   knowledge, held flags, contact, falling back) hold
//!   the functions that write the next state or its events: carrying out an order, applying
//!   an effect or a hook's commands, ending a phase, updating what each side knows.
//! - `impl Game` blocks hold the questions: checks, prices, reach, measures, views. They
//!   take the state they read as an argument, because the legal-order listing and the views
//!   ask them of states other than the one being written (a probe, a side's picture of the
//!   board), and they write nothing. The phase's gate is one of them (`mod.rs`: `gate`,
//!   `side_may_act`, `phase_allows_order`): it reads the state the order was given in, so
//!   it is asked before any copy is made; `resolve_past_gate` then starts the resolution.
//!
//! A resolution reads the game it resolves through `game` (whose own `state` is the state
//! before the order), and writes only `next` and `events`; dropping it without committing
//! `next` (a refusal) leaves the game as it was.
//!
//! `Game` has two public methods that take `&mut self`, and both are transactions around a
//! resolution rather than resolution steps: [`Game::apply`] (an order) and
//! [`Game::refresh_sightings`] (a sighting update for benchmarks and tools that edit a
//! state by hand). Each copies the state, runs a `Resolution` on the copy and keeps it.
//! They stay on `Game` because their callers are outside the crate, where `Resolution` is
//! not seen. Two private steps of `apply` also take `&mut Game`, once the resolution is
//! over: `append_side_logs` (`view.rs`: each side's log of what it saw, kept in the game
//! and in the next state) and `draw_built` (`hook_commands.rs`: draws the features a hook built
//! on the board the game's clones share). They write what the game keeps beside its
//! state, which a resolution does not hold.

use super::Game;
use crate::action::Event;
use crate::hooks::Hooks;
use crate::state::State;

/// An order being resolved: the game it changes, the state it is turning into, the events
/// it has written and the hooks it may run.
pub(crate) struct Resolution<'g> {
    /// The game before the order (its `state` is the state the order was given in).
    pub(crate) game: &'g Game,
    /// The state being written.
    pub(crate) next: &'g mut State,
    /// The events written so far.
    pub(crate) events: &'g mut Vec<Event>,
    /// The ruleset's hooks.
    pub(crate) hooks: &'g mut dyn Hooks,
}

impl<'g> Resolution<'g> {
    /// A resolution of `game` writing into `next` and `events`.
    pub(crate) fn new(
        game: &'g Game,
        next: &'g mut State,
        events: &'g mut Vec<Event>,
        hooks: &'g mut dyn Hooks,
    ) -> Self {
        Resolution {
            game,
            next,
            events,
            hooks,
        }
    }

    /// The same game and hooks writing into another state and event list: a trial of an
    /// order on a copy (the board as a side knows it, a pursuit that may not happen) whose
    /// writes are kept or thrown away by the caller.
    pub(crate) fn on<'t>(
        &'t mut self,
        next: &'t mut State,
        events: &'t mut Vec<Event>,
    ) -> Resolution<'t> {
        Resolution {
            game: self.game,
            next,
            events,
            hooks: &mut *self.hooks,
        }
    }
}
