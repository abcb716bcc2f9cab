//! A designer's policy written in Lua.
//!
//! The file is a module that returns a table of functions, like a ruleset's scripts; the
//! policy is one of its functions (`choose` unless `lua:FILE:FUNCTION` names another). It is
//! called as `choose(view, orders, random)`:
//! - `view` is the side's view, the table `grognard view --side SIDE --json` prints under
//!   `"view"` (own pieces in full, enemy pieces only as far as the side knows them);
//! - `orders` is the list of legal orders, each in the orders-file form that
//!   `grognard legal --json` prints (`{side = "blue", move = {piece = "b1", path = {{4, 5}}}}`);
//!   the last one ends the phase;
//! - `random(n)` draws a whole number from 1 to `n` from the player's own random stream.
//!
//! It returns the index of the order it gives (1 to `#orders`) or one of the `orders`
//! tables itself. It runs in a sandbox of its own — not the ruleset's, so it sees no `game`
//! object and no ruleset module — under [`Limits`]; whatever it keeps in its module's
//! locals between calls is its memory of the game.

use std::cell::RefCell;
use std::fmt;

use grognard_lua::error::{HookError, HookErrorKind};
use grognard_lua::host::evaluate::json_to_lua;
use grognard_lua::sandbox::{Limits, Sandbox};
use mlua::{Function, Table, Value};

/// The function a policy file is asked for when `lua:FILE` names none.
pub const DEFAULT_FUNCTION: &str = "choose";

/// A Lua policy, loaded and ready to choose (one per player: a Lua state is not shared
/// between threads).
pub struct LuaPolicy {
    sandbox: Sandbox,
    function: Function,
    /// `FILE:FUNCTION`, for messages.
    label: String,
    /// Where the function is defined, for messages about what it returned.
    line: i32,
    chunk: String,
}

impl fmt::Debug for LuaPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LuaPolicy")
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

impl LuaPolicy {
    /// Loads `source` (read from the file `chunk`, as messages name it) and finds its
    /// `function`.
    ///
    /// # Errors
    /// The script does not load (`chunk:line: ...`), or has no such function (naming the
    /// functions it has).
    pub fn load(
        chunk: &str,
        source: &str,
        function: &str,
        limits: Limits,
    ) -> Result<Self, HookError> {
        let sandbox = Sandbox::new(limits)?;
        let module = sandbox.load_module(chunk, source)?;
        let f = sandbox.function(&module, function)?;
        let line = f
            .info()
            .line_defined
            .map_or(0, |l| i32::try_from(l).unwrap_or(0));
        Ok(Self {
            sandbox,
            function: f,
            label: format!("{chunk}:{function}"),
            line,
            chunk: chunk.to_owned(),
        })
    }

    /// `FILE:FUNCTION`.
    #[must_use]
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Lines the policy printed since the last read.
    pub fn take_printed(&self) -> Vec<String> {
        self.sandbox.take_printed()
    }

    /// Asks the policy which of `orders` (JSON, in the orders-file form) to give, seeing
    /// `view` (JSON); `random(n)` answers from `draw`.
    ///
    /// # Errors
    /// What the script raised or a limit it hit (`file:line: ...`), or an answer that is
    /// not one of the orders.
    pub fn choose(
        &self,
        view: &serde_json::Value,
        orders: &[serde_json::Value],
        draw: &mut dyn FnMut(usize) -> usize,
    ) -> Result<usize, HookError> {
        let lua = self.sandbox.lua();
        let what = format!("policy {}", self.label);
        let draw = RefCell::new(draw);
        let (answer, list) = self.sandbox.call_with(&what, &self.function, || {
            lua.scope(|scope| {
                let view = json_to_lua(lua, view)?;
                let list = lua.create_table_with_capacity(orders.len(), 0)?;
                for o in orders {
                    list.raw_push(json_to_lua(lua, o)?)?;
                }
                let random = scope.create_function(|_, n: i64| {
                    let n = usize::try_from(n).ok().filter(|n| *n > 0).ok_or_else(|| {
                        mlua::Error::runtime(format!(
                            "random({n}): expected a whole number of at least 1"
                        ))
                    })?;
                    let mut draw = draw.borrow_mut();
                    Ok(i64::try_from((*draw)(n)).unwrap_or(0) + 1)
                })?;
                let answer = self.function.call::<Value>((view, list.clone(), random))?;
                Ok((answer, list))
            })
        })?;
        self.index_of(&answer, &list, orders.len())
    }

    /// The 0-based index `answer` names among `list` (of `n` orders).
    fn index_of(&self, answer: &Value, list: &Table, n: usize) -> Result<usize, HookError> {
        let wrong = |what: String| {
            HookError::new(
                HookErrorKind::WrongType,
                format!(
                    "{}:{}: `{}` returned {what}; return the index of a legal order (1 to {n}) \
                     or one of the order tables it was given",
                    self.chunk,
                    self.line,
                    self.label.rsplit(':').next().unwrap_or_default(),
                ),
            )
        };
        match answer {
            Value::Integer(i) => usize::try_from(*i)
                .ok()
                .filter(|i| (1..=n).contains(i))
                .map(|i| i - 1)
                .ok_or_else(|| wrong(format!("{i}, which is not in the list"))),
            Value::Number(x) if x.fract() == 0.0 && *x >= 1.0 && *x <= n as f64 => {
                Ok(*x as usize - 1)
            }
            Value::Table(t) => list
                .sequence_values::<Value>()
                .position(|v| matches!(v, Ok(Value::Table(o)) if o == *t))
                .ok_or_else(|| wrong("a table that is not one of the legal orders".to_owned())),
            other => Err(wrong(other.type_name().to_owned())),
        }
    }
}
