//! Checks (`may_face`, `may_move`, an action's `check:`): the read-only calls that answer
//! `nil` or the reason they refuse, and the memo a legal listing lends them.
//!
//! A legal listing asks one piece's checks many times over on the same game — every
//! candidate move, every target and intent — and each call reads the same things back
//! (the piece's brigadier, its enemies, its friends' bases) through a few hundred calls
//! to the `game` object. The kernel brackets a listing with [`Hooks::listing_begins`] and
//! [`Hooks::listing_ends`] and promises that the state it names does not change in
//! between; a check asked on that very state gets one Lua table, the same for every such
//! call, from `game:memo()`, where a script keeps what it read. Every other call (a check
//! asked by `apply`, or on a trial's copy, and every hook that may change the game) gets a
//! fresh empty table, so a script that memoises is right everywhere and fast in listings.
//!
//! [`Hooks::listing_begins`]: grognard_kernel::hooks::Hooks::listing_begins
//! [`Hooks::listing_ends`]: grognard_kernel::hooks::Hooks::listing_ends

use std::cell::RefCell;

use grognard_kernel::dice::GameRng;
use grognard_kernel::game::World;
use grognard_kernel::hooks::{HookCommand, HookDice, HookFailure};
use grognard_kernel::state::State;
use mlua::{Lua, Table, Value};

use super::{Bound, LuaHooks};
use crate::api::Call;

/// The legal listing in progress, if any: the state it lists and the memo lent to the
/// checks asked on it.
#[derive(Default)]
pub(super) struct Listing {
    /// The listed state's address, compared with a check's `world.state`. The listing
    /// holds that state borrowed from `listing_begins` to `listing_ends`, so no other state
    /// can take its address meanwhile, and a trial's copy never has it.
    state: Option<usize>,
    /// The memo, made for the first check that asks on the listed state.
    memo: RefCell<Option<Table>>,
}

impl Listing {
    /// A listing of `state` begins; a memo left from another is dropped.
    pub(super) fn begin(&mut self, state: &State) {
        self.state = Some(std::ptr::from_ref(state) as usize);
        *self.memo.get_mut() = None;
    }

    /// The listing is over: nothing read in it is kept.
    pub(super) fn end(&mut self) {
        self.state = None;
        *self.memo.get_mut() = None;
    }

    /// The memo for a check reading `world`: the listing's when `world` is the listed
    /// state, `None` (each `game:memo()` a fresh table) otherwise.
    fn memo_for(&self, world: &World<'_>, lua: &Lua) -> Option<Table> {
        if self.state != Some(std::ptr::from_ref(world.state) as usize) {
            return None;
        }
        let mut memo = self.memo.borrow_mut();
        if memo.is_none() {
            // Out of memory here leaves the check without a memo: it reads the game itself.
            *memo = lua.create_table().ok();
        }
        memo.clone()
    }
}

impl LuaHooks {
    /// Runs a check (`may_face`, an action's `check:`): the `game` object reads the world
    /// as it stands, with no dice to roll and no changes to queue. `nil` allows, a string
    /// is the reason it refuses; anything else, a change asked for, or a roll is an error
    /// of the script (which refuses too). A check asked on the state of the listing in
    /// progress gets the listing's memo (see [`Listing`]).
    pub(super) fn run_check<A: mlua::IntoLuaMulti>(
        &self,
        bound: &Bound,
        what: &str,
        world: &World<'_>,
        intent: &[String],
        args: impl FnOnce(Table, &Lua) -> mlua::Result<A>,
    ) -> Result<(), HookFailure> {
        let mut rng = GameRng::new(0);
        let mut hook_dice = HookDice::new(&mut rng, world.rules);
        hook_dice.set_action_intent(intent.to_vec());
        let dice = RefCell::new(&mut hook_dice);
        let commands: RefCell<Vec<HookCommand>> = RefCell::new(Vec::new());
        let (sandbox, game) = (&self.sandbox, &self.game);
        let lua = sandbox.lua();
        let value = sandbox.call_with(what, &bound.function, || {
            let call = Call {
                world,
                dice: &dice,
                commands: &commands,
                memo: self.listing.memo_for(world, lua),
            };
            game.during(&call, |game| {
                bound.function.call::<Value>(args(game.clone(), lua)?)
            })
        });
        let _ = dice.into_inner();
        // Kept for a refusal by error too: it holds for every intent only if unread.
        self.intent_read.set(hook_dice.intent_read());
        let value: Value = value.map_err(|e| self.failed(bound, e))?;
        if !commands.into_inner().is_empty() || !hook_dice.into_rolls().is_empty() {
            let failure = HookFailure {
                message: format!(
                    "{}: a check may only read the game (it asked for a change or rolled \
                     dice); make changes in the action's script or the `faced` or `moved` hook",
                    bound.label
                ),
            };
            return Err(self.wrong(bound, failure));
        }
        match value {
            Value::Nil => Ok(()),
            Value::String(reason) => Err(HookFailure {
                message: reason.to_string_lossy(),
            }),
            other => Err(self.wrong(
                bound,
                HookFailure {
                    message: format!(
                        "{} returned {}; a check returns nil to allow, or a string saying why not",
                        bound.label,
                        other.type_name()
                    ),
                },
            )),
        }
    }
}
