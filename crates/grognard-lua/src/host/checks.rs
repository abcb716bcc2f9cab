//! Checks (`may_face`, `may_move` and `may_move_all`, an action's `check:` and
//! `check_all:`): the read-only calls that answer
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

use std::cell::RefCell;

use grognard_kernel::dice::GameRng;
use grognard_kernel::game::World;
use grognard_kernel::hooks::{HookCommand, HookDice, HookFailure, Hooks};
use grognard_kernel::ids::{ActionId, PieceId};
use grognard_kernel::state::State;
use mlua::{Lua, Table, Value};

use super::{Bound, LuaHooks};
use crate::api::Call;
use crate::names::{handle_from, unit_handle, unit_handles};

/// How a read-only hook is called ([`LuaHooks::run_read_only`]).
pub(super) struct ReadOnly<'a> {
    /// What `game:intent()` reads (an action check's intent; nothing for other hooks).
    pub(super) intent: &'a [String],
    /// Whether the call may get the listing's memo from `game:memo()` (checks do).
    pub(super) memo: bool,
    /// Where to keep whether the call read the intent (checks only).
    pub(super) intent_read: Option<&'a std::cell::Cell<bool>>,
    /// The hook's kind, and what it should do instead of a change, for the fault's words.
    pub(super) who: &'a str,
    pub(super) instead: &'a str,
}

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
        match self.run_check_value(bound, what, world, intent, args)? {
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

    /// [`Self::run_check`] up to the check's answer, which it returns as the script gave it
    /// (a batch check answers with a table): an error, a change asked for or a roll is a
    /// failure. Whether the call read the intent is kept for [`Hooks::check_read_intent`].
    pub(super) fn run_check_value<A: mlua::IntoLuaMulti>(
        &self,
        bound: &Bound,
        what: &str,
        world: &World<'_>,
        intent: &[String],
        args: impl FnOnce(Table, &Lua) -> mlua::Result<A>,
    ) -> Result<Value, HookFailure> {
        let how = ReadOnly {
            intent,
            memo: true,
            intent_read: Some(&self.intent_read),
            who: "a check",
            instead: "make changes in the action's script or the `faced` or `moved` hook",
        };
        self.run_read_only(bound, what, world, &how, args)
    }

    /// Calls `bound` as a hook that may only read the game (a check, or the `result` hook):
    /// its `game` object reads `world` and `how.intent`, rolls no dice and queues no
    /// changes; a change asked for or a roll is the hook's fault (and refuses), worded with
    /// `how`. Returns the hook's answer as it gave it.
    pub(super) fn run_read_only<A: mlua::IntoLuaMulti>(
        &self,
        bound: &Bound,
        what: &str,
        world: &World<'_>,
        how: &ReadOnly<'_>,
        args: impl FnOnce(Table, &Lua) -> mlua::Result<A>,
    ) -> Result<Value, HookFailure> {
        let mut rng = GameRng::new(0);
        let mut hook_dice = HookDice::new(&mut rng, world.rules);
        hook_dice.set_action_intent(how.intent.to_vec());
        let dice = RefCell::new(&mut hook_dice);
        let commands: RefCell<Vec<HookCommand>> = RefCell::new(Vec::new());
        let (sandbox, game) = (&self.sandbox, &self.game);
        let lua = sandbox.lua();
        let value = sandbox.call_with(what, &bound.function, || {
            let call = Call {
                world,
                dice: &dice,
                commands: &commands,
                memo: if how.memo {
                    self.listing.memo_for(world, lua)
                } else {
                    None
                },
            };
            game.during(&call, |game| {
                bound.function.call::<Value>(args(game.clone(), lua)?)
            })
        });
        let _ = dice.into_inner();
        // Kept for a refusal by error too: it holds for every intent only if unread.
        if let Some(read) = how.intent_read {
            read.set(hook_dice.intent_read());
        }
        let value: Value = value.map_err(|e| self.failed(bound, e))?;
        if !commands.into_inner().is_empty() || !hook_dice.into_rolls().is_empty() {
            let failure = HookFailure {
                message: format!(
                    "{}: {} may only read the game (it asked for a change or rolled dice); {}",
                    bound.label, how.who, how.instead
                ),
            };
            return Err(self.wrong(bound, failure));
        }
        Ok(value)
    }

    /// Asks an action's batch check (`check_all:`) about `actor` at every one of `targets`
    /// for `intent`, in one call; with a one-target `check:` instead, asks it once per
    /// target. One answer per target, in order; afterwards [`Hooks::check_read_intent`]
    /// says whether any of it read the intent. A wrong answer (see [`Self::batch_answers`])
    /// refuses every target.
    pub(super) fn ask_action_check_all(
        &mut self,
        world: &World<'_>,
        action: ActionId,
        actor: PieceId,
        targets: &[PieceId],
        intent: &[String],
    ) -> Vec<Result<(), HookFailure>> {
        let n = targets.len();
        if !self.action_check_batched(action) {
            let mut read = false;
            let out = targets
                .iter()
                .map(|&t| {
                    let r = self.action_check(world, action, actor, Some(t), intent);
                    read |= self.intent_read.get();
                    r
                })
                .collect();
            self.intent_read.set(read);
            return out;
        }
        if n == 0 {
            return Vec::new();
        }
        if let Err(e) = self.constants_for(world) {
            return vec![Err(e); n];
        }
        let Some(Some(bound)) = self.checks_all.get(action.index()) else {
            return vec![Ok(()); n];
        };
        let what = format!("action check {}", bound.label);
        let value = self.run_check_value(bound, &what, world, intent, |game, lua| {
            let cache = unit_handles(lua)?;
            let list = lua.create_table_with_capacity(n, 0)?;
            for &t in targets {
                list.raw_push(handle_from(lua, &cache, t)?)?;
            }
            Ok((game, unit_handle(lua, actor)?, list))
        });
        match value {
            Err(e) => vec![Err(e); n],
            Ok(value) => self
                .batch_answers(bound, value, n, ("check_all", "target"))
                .unwrap_or_else(|e| vec![Err(e); n]),
        }
    }

    /// The answers a batch check (`may_move_all`, an action's `check_all`) gave for `n`
    /// things asked about (`form` names the check, `noun` the things): `nil` allows them
    /// all, a table gives a reason (a string) by number for each one refused. Anything else
    /// — another type, a key that is no thing's number, a reason that is no string — is the
    /// hook's fault, named with the file and line the function begins on.
    pub(super) fn batch_answers(
        &self,
        bound: &Bound,
        value: Value,
        n: usize,
        (form, noun): (&str, &str),
    ) -> Result<Vec<Result<(), HookFailure>>, HookFailure> {
        let wrong = |what: String| {
            self.wrong(
                bound,
                HookFailure {
                    message: format!(
                        "{}{} {what}; {form} returns nil to allow every {noun}, or a table of \
                         reasons by {noun} number (a string refuses that {noun}, no entry \
                         allows it)",
                        place_of(&bound.function),
                        bound.label
                    ),
                },
            )
        };
        let mut out = vec![Ok(()); n];
        let table = match value {
            Value::Nil => return Ok(out),
            Value::Table(t) => t,
            other => return Err(wrong(format!("returned {}", other.type_name()))),
        };
        for pair in table.pairs::<Value, Value>() {
            let (key, reason) =
                pair.map_err(|e| wrong(format!("returned an unreadable table ({e})")))?;
            let slot = match key {
                Value::Integer(i) => usize::try_from(i)
                    .ok()
                    .filter(|i| (1..=n).contains(i))
                    .map(|i| i - 1),
                _ => None,
            };
            let Some(slot) = slot else {
                return Err(wrong(format!(
                    "returned a table with key {} (it was asked about {n} {noun}s)",
                    key_words(&key)
                )));
            };
            match reason {
                Value::String(reason) => {
                    out[slot] = Err(HookFailure {
                        message: reason.to_string_lossy(),
                    });
                }
                other => {
                    return Err(wrong(format!(
                        "returned {} for {noun} {}",
                        other.type_name(),
                        slot + 1
                    )));
                }
            }
        }
        Ok(out)
    }
}

/// `file:line: ` where `function` is defined, to name a script's wrong answer.
fn place_of(function: &mlua::Function) -> String {
    let info = function.info();
    match (info.short_src, info.line_defined) {
        (Some(src), Some(line)) => format!("{src}:{line}: "),
        (Some(src), None) => format!("{src}: "),
        _ => String::new(),
    }
}

/// A table key as a message shows it.
fn key_words(key: &Value) -> String {
    match key {
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("\"{}\"", s.to_string_lossy()),
        other => format!("of type {}", other.type_name()),
    }
}
