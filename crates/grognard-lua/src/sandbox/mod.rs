//! The Lua sandbox that every ruleset script runs in.
//!
//! Clubs share rulesets, so their Lua is untrusted. A [`Sandbox`] owns one Lua 5.4 state per
//! game (no globals, no thread-locals) and guarantees that a script can neither read the
//! disk, nor hang the engine, nor break determinism, nor crash the process. Each defence
//! below names the threat it answers, so that a reviewer can check them one by one.
//!
//! # No disk, no host
//! * The state is built by [`Lua::new_with`] from an explicit list: the base library plus
//!   `table`, `string`, `math`, `utf8`. `io`, `os`, `package`, `debug` are never loaded;
//!   `require`, `dofile`, `loadfile`, `warn`, `string.dump` are removed (`dump` is the only way
//!   to make bytecode). `coroutine` is left out: hooks are short functions that compute
//!   a value, and every coroutine call (`resume`, `wrap`, `close`) is one more way to catch an
//!   error, which the budget below would have to chase.
//! * `load` is replaced by a wrapper that always passes mode `"t"` and refuses a string
//!   starting with `"\27"` (the bytecode signature) with [`HookErrorKind::BinaryChunk`]:
//!   crafted bytecode can crash the interpreter. [`Sandbox::load_module`] refuses it too.
//!
//! # No hang
//! * **Instruction budget.** A count hook (installed with [`Lua::set_global_hook`], so that
//!   it also covers any thread) adds up executed VM instructions per call and raises
//!   [`HookErrorKind::InstructionBudget`] past [`Limits::instructions_per_call`]. The count
//!   restarts at every outermost call, and it trips only at multiples of [`COARSE_TICK`]
//!   instructions plus exact charges (below), so the same call always stops at the same
//!   instruction whatever the machine: the budget is deterministic.
//! * **Sticky.** Once the budget or the deadline is exhausted, every later hook tick raises
//!   the error again; `pcall` and `xpcall` are wrapped to re-raise it as soon as the protected
//!   call returns; `xpcall` never lets the script's message handler run for it (Lua would run
//!   the handler inside the hook, where hooks are off); `load` calls a reader function itself
//!   rather than let Lua call it in protected mode; and [`Sandbox::call`] reports the trip
//!   even if the script (or host code that called back into Lua) swallowed it and returned
//!   normally. No `pcall` loop can outlast the budget.
//! * **`__gc` refused.** Lua runs finalizers with hooks disabled, so a `__gc` metamethod
//!   with `while true do end` would hang out of the budget's sight. `setmetatable` refuses a
//!   metatable with a `__gc` field (Lua only registers a finalizer at that moment).
//! * **`<close>` refused.** When the hook raises the budget error, mlua lowers the stack of
//!   the function the hook interrupted (`lua_settop` in `callback_error_ext`), which runs the
//!   `__close` handlers of its to-be-closed variables right there, inside the hook, with
//!   hooks off. A source containing a `<close>` attribute is therefore refused, both by
//!   [`Sandbox::load_module`] ([`HookErrorKind::Syntax`]) and by `load` (which reads a reader
//!   function to the end first, so that the whole text is checked).
//! * **C functions are charged.** The count hook does not see time spent inside C library
//!   functions. Those whose work grows with their data are charged to the same budget: a
//!   result longer than 4 KiB costs one instruction per [`BYTES_PER_UNIT`] bytes (`rep`,
//!   `sub`, `upper`, `format`, `table.concat`, ...; `byte`/`unpack` per value), and so does an
//!   input scanned without a big result (`tonumber`, `utf8.len`, `load`). `table.insert`,
//!   `table.remove` and `table.move` are reimplemented in Lua, because the C versions loop
//!   as far as `#t` (a `__len` metamethod can say `math.maxinteger`) or their arguments ask,
//!   without a single hook tick. `table.sort` is too, for arrays over 100 elements (see
//!   determinism).
//! * **Patterns.** `string.find`, `match`, `gmatch` and `gsub` can backtrack exponentially
//!   inside one C call. Before each call a Rust guard bounds the matcher's worst case
//!   (see `sandbox/pattern.rs` for the estimate) and refuses above
//!   [`PATTERN_STEP_LIMIT`] with [`HookErrorKind::PatternTooComplex`]; accepted calls are
//!   charged a quarter of the estimate. Plain `find` is bounded too (it is `O(n·m)`).
//! * **Deadline.** The hook also checks [`Limits::time_per_call`], kept on the calling
//!   thread's CPU clock (Linux; the wall clock elsewhere) so that a loaded or paused machine
//!   never trips an honest hook and changes a game. It backs up the budget for work that is
//!   slow per instruction (concatenating or comparing megabyte strings in a loop). When
//!   1,000 instructions took over [`SLOW_TICK`], the hook switches to a tick every
//!   [`FINE_TICK`] instructions for the rest of the call, so the deadline is noticed within
//!   milliseconds. The switch never changes where the budget trips.
//! * **Memory.** [`Lua::set_memory_limit`] caps the state at [`Limits::memory_bytes`]; an
//!   allocation past it fails with [`HookErrorKind::Memory`] and the state collects its
//!   garbage and carries on. Recursion ends there too, or at Lua's own C-stack limit.
//! * **No re-entry.** No Rust helper of the sandbox calls back into Lua (the wrappers call the
//!   original C function from Lua after the Rust guard returned), so no Lua recursion can pile
//!   up Rust stack frames or run script code outside the budget.
//!
//! # Determinism
//! * `math.random` and `math.randomseed` are removed (dice come from the game's seeded RNG),
//!   and so is every clock (`os`).
//! * Lua seeds its string hashes from the clock and the address space, so the order of
//!   `next` over a table changes from run to run. `pairs` and `next` are replaced (in Lua, so
//!   they are budgeted) by versions that visit numbers (ascending), then strings (ascending),
//!   then `false`, `true`, then other keys (tables, functions: in raw order, which is *not*
//!   deterministic). Strings compare like Lua's `<`, i.e. with `strcoll`: bytewise as long
//!   as the process keeps the default "C" locale, which the host must not change.
//! * `table.sort` in C picks random pivots (from `clock()` and `time()`) for arrays over 100
//!   elements, which reorders equal elements from run to run. Larger arrays (and tables with
//!   metatables) are sorted by a stable merge sort written in Lua.
//! * Addresses differ between runs: `tostring`, `print` and `string.format("%s")` show a
//!   table as `table` (or its `__name`) without its address, and `%p` is refused.
//! * `print` writes to a bounded log read with [`Sandbox::take_printed`], not to stdout.
//! * The string metatable is locked (`getmetatable("")` is `false`).
//!
//! # Errors
//! Every failure is a [`HookError`]: chunks are named after their file so messages read
//! `scripts/x.lua:12: ...`; [`Sandbox::call`] adds what the engine was doing; a panic in host
//! code is caught and reported rather than unwinding through the engine. After any error the
//! sandbox keeps working.

use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex, PoisonError};

use mlua::chunk::ChunkMode;
use mlua::{FromLuaMulti, Function, IntoLuaMulti, Lua, LuaOptions, StdLib, Table, Value};

use crate::error::{HookError, HookErrorKind};

mod errors;
mod guards;
mod library;
mod limits;

use errors::{
    describe_error, did_you_mean, first_script_frame, panic_message, starts_with_location,
    with_article,
};
use guards::{CLOSE_REFUSED, find_close_attribute};
use library::{PrintLog, install_library};
pub use limits::{
    BYTES_PER_UNIT, COARSE_TICK, FINE_TICK, Limits, PATTERN_STEP_LIMIT, PRINT_LOG_LIMIT, SLOW_TICK,
};
use limits::{
    Meter, NOT_TRIPPED, SMALL_WORK_UNITS, TRIPPED_DEADLINE, Trip, install_hook, script_location,
    units_for_steps,
};

/// Chunk name of the sandbox's own Lua, skipped when an error names a script location.
const SANDBOX_CHUNK: &str = "=[sandbox]";
const SANDBOX_SHORT_SRC: &str = "[sandbox]";
/// First byte of every Lua binary chunk (`"\27Lua"`).
const BINARY_SIGNATURE: u8 = 0x1b;

/// One game's Lua state, locked down as described in the [module documentation](self).
pub struct Sandbox {
    lua: Lua,
    meter: Arc<Meter>,
    limits: Limits,
    printed: Arc<Mutex<PrintLog>>,
    /// Weak-keyed: module table → the chunk name it was loaded from.
    module_names: Table,
}

impl fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sandbox")
            .field("limits", &self.limits)
            .field("memory_used", &self.memory_used())
            .finish_non_exhaustive()
    }
}

impl Sandbox {
    /// Builds a locked-down Lua state with `limits`.
    ///
    /// # Errors
    /// [`HookErrorKind::Memory`] if `limits.memory_bytes` is below what the empty sandbox
    /// already uses; [`HookErrorKind::Runtime`] if Lua itself cannot be set up.
    pub fn new(limits: Limits) -> Result<Self, HookError> {
        let setup = |error: mlua::Error| {
            HookError::new(
                HookErrorKind::Runtime,
                format!("could not set up the Lua sandbox: {error}"),
            )
        };
        let lua = Lua::new_with(
            StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8,
            LuaOptions::default(),
        )
        .map_err(setup)?;
        let meter = Arc::new(Meter::new(&limits));
        let printed = Arc::new(Mutex::new(PrintLog::default()));
        install_library(&lua, &meter, &printed).map_err(setup)?;
        // Nothing can `require` here, so the registry's table of loaded modules serves only
        // Lua's traceback, which searches it (the globals, every library) for a name for
        // each frame's function. Scripts that refuse an order by raising an error made
        // that search a third of a scripted game's time; frames are named from the call
        // site instead (`in field 'charge'`, `in function <scripts/x.lua:12>`).
        lua.set_named_registry_value("_LOADED", lua.create_table().map_err(setup)?)
            .map_err(setup)?;
        install_hook(&lua, Arc::clone(&meter), COARSE_TICK).map_err(setup)?;
        let module_names = lua.create_table().map_err(setup)?;
        let weak_keys = lua.create_table().map_err(setup)?;
        weak_keys.raw_set("__mode", "k").map_err(setup)?;
        module_names.set_metatable(Some(weak_keys)).map_err(setup)?;
        lua.gc_collect().map_err(setup)?;
        let footprint = lua.used_memory();
        if limits.memory_bytes <= footprint {
            return Err(HookError::new(
                HookErrorKind::Memory,
                format!(
                    "a memory limit of {} bytes is below the {footprint} bytes the empty sandbox \
                     uses; allow at least a few MiB",
                    limits.memory_bytes
                ),
            ));
        }
        lua.set_memory_limit(limits.memory_bytes).map_err(setup)?;
        Ok(Self {
            lua,
            meter,
            limits,
            printed,
            module_names,
        })
    }

    /// Runs a module's source and returns the table of functions it returns.
    ///
    /// `chunk_name` should be the script's path as the ruleset names it
    /// (`"scripts/weather.lua"`): errors then read `scripts/weather.lua:12: message`. Only
    /// source text is accepted. The module's top level runs under the same limits as a call.
    ///
    /// # Errors
    /// [`HookErrorKind::BinaryChunk`] for bytecode, [`HookErrorKind::Syntax`] if it does not
    /// parse, [`HookErrorKind::WrongType`] if it does not return a table, or whatever running
    /// its top level raised.
    pub fn load_module(&self, chunk_name: &str, source: &str) -> Result<Table, HookError> {
        let context = || format!("loading {chunk_name}");
        if source.as_bytes().first() == Some(&BINARY_SIGNATURE) {
            return Err(HookError::new(
                HookErrorKind::BinaryChunk,
                format!(
                    "{chunk_name}: is a precompiled (binary) Lua chunk, which the sandbox \
                     refuses because crafted bytecode can crash the interpreter; ship the \
                     Lua source instead"
                ),
            )
            .with_context(context()));
        }
        if let Some(line) = find_close_attribute(source.as_bytes()) {
            return Err(HookError::new(
                HookErrorKind::Syntax,
                format!("{chunk_name}:{line}: {CLOSE_REFUSED}"),
            )
            .with_context(context()));
        }
        let function = self
            .lua
            .load(source)
            .set_name(format!("@{chunk_name}"))
            .set_mode(ChunkMode::Text)
            .into_function()
            .map_err(|error| {
                self.classify(error, None, NOT_TRIPPED)
                    .with_context(context())
            })?;
        let value: Value = self.run(context, None, || function.call::<Value>(()))?;
        match value {
            Value::Table(module) => {
                // Only used to name the module in errors: failing to record it is harmless.
                let _ = self.module_names.raw_set(&module, chunk_name);
                Ok(module)
            }
            other => Err(HookError::new(
                HookErrorKind::WrongType,
                format!(
                    "{chunk_name}: a module must return a table of its functions, but this one \
                     returned {}; end the file with `return {{ name = function(...) ... end }}`",
                    with_article(other.type_name())
                ),
            )
            .with_context(context())),
        }
    }

    /// The function `name` of `module` (a table returned by [`Sandbox::load_module`]).
    ///
    /// Reads the table raw, so no script code runs.
    ///
    /// # Errors
    /// [`HookErrorKind::MissingFunction`] naming the module, listing the functions it has and
    /// suggesting the closest; [`HookErrorKind::WrongType`] if the field is not a function.
    pub fn function(&self, module: &Table, name: &str) -> Result<Function, HookError> {
        let module_name = self
            .module_names
            .raw_get::<Option<String>>(module)
            .ok()
            .flatten()
            .unwrap_or_else(|| "the module".to_owned());
        match module.raw_get::<Value>(name) {
            Ok(Value::Function(function)) => Ok(function),
            Ok(Value::Nil) => {
                let mut available: Vec<String> = module
                    .pairs::<Value, Value>()
                    .filter_map(Result::ok)
                    .filter_map(|(key, value)| match (key, value) {
                        (Value::String(key), Value::Function(_)) => Some(key.to_string_lossy()),
                        _ => None,
                    })
                    .collect();
                available.sort();
                let mut message = format!("{module_name} has no function `{name}`");
                if let Some(suggestion) = did_you_mean(name, &available) {
                    message.push_str(&format!("; did you mean `{suggestion}`?"));
                }
                if available.is_empty() {
                    message.push_str(" (it defines no functions)");
                } else {
                    let list: Vec<String> = available.iter().map(|n| format!("`{n}`")).collect();
                    message.push_str(&format!(" (it defines {})", list.join(", ")));
                }
                Err(HookError::new(HookErrorKind::MissingFunction, message))
            }
            Ok(other) => Err(HookError::new(
                HookErrorKind::WrongType,
                format!(
                    "{module_name}: `{name}` is {}, not a function; define it as \
                     `function(...) ... end`",
                    with_article(other.type_name())
                ),
            )),
            Err(error) => Err(self.classify(error, None, NOT_TRIPPED)),
        }
    }

    /// Calls `f` with `args` under this sandbox's budget, deadline and memory cap.
    ///
    /// `what` says what the engine is doing, e.g. `"hook move_cost for piece 12"`; errors read
    /// `scripts/x.lua:12: message (while evaluating hook move_cost for piece 12)`. A call made
    /// from host code that a call is already running (a nested call) shares the outer call's
    /// budget and deadline.
    ///
    /// # Errors
    /// Any [`HookErrorKind`]: what the script raised, a limit it hit, or
    /// [`HookErrorKind::WrongType`] if its result does not convert to `R`.
    pub fn call<A: IntoLuaMulti, R: FromLuaMulti>(
        &self,
        f: &Function,
        what: &str,
        args: A,
    ) -> Result<R, HookError> {
        self.run(
            || format!("evaluating {what}"),
            Some(f),
            || f.call::<R>(args),
        )
    }

    /// Runs `body` under the same budget, deadline, error classification and context as
    /// [`Sandbox::call`], for host code that has to build a call's arguments inside the call
    /// (a [`Lua::scope`] whose callbacks borrow the game, say) and then call `function`.
    ///
    /// # Errors
    /// As [`Sandbox::call`]; `function` locates a [`HookErrorKind::WrongType`] error.
    pub fn call_with<R>(
        &self,
        what: &str,
        function: &Function,
        body: impl FnOnce() -> mlua::Result<R>,
    ) -> Result<R, HookError> {
        self.run(|| format!("evaluating {what}"), Some(function), body)
    }

    /// The Lua state, for registering the game API. Run script code only through
    /// [`Sandbox::call`] or [`Sandbox::call_with`]: the budget and deadline count only inside
    /// them. Do not install hooks on it: the sandbox's count hook is what enforces them.
    #[must_use]
    pub fn lua(&self) -> &Lua {
        &self.lua
    }

    /// Bytes the Lua state currently holds.
    #[must_use]
    pub fn memory_used(&self) -> usize {
        self.lua.used_memory()
    }

    /// The limits this sandbox was built with.
    #[must_use]
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Lines the scripts printed since the last read (at most [`PRINT_LOG_LIMIT`] bytes).
    pub fn take_printed(&self) -> Vec<String> {
        let mut log = self.printed.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::take(&mut *log).lines
    }

    fn run<R>(
        &self,
        context: impl FnOnce() -> String,
        origin: Option<&Function>,
        body: impl FnOnce() -> mlua::Result<R>,
    ) -> Result<R, HookError> {
        if self.meter.enter() {
            // Restarts the instruction count, so that where the budget trips never depends
            // on what ran before this call.
            if let Err(error) = install_hook(&self.lua, Arc::clone(&self.meter), COARSE_TICK) {
                let tripped = self.meter.leave();
                return Err(self.classify(error, None, tripped).with_context(context()));
            }
        }
        let outcome = panic::catch_unwind(AssertUnwindSafe(body));
        let tripped = self.meter.leave();
        let result = match outcome {
            Ok(Ok(value)) if tripped == NOT_TRIPPED => return Ok(value),
            Ok(Ok(_)) => Err(self.trip_error(tripped, None)),
            Ok(Err(error)) => Err(self.classify(error, origin, tripped)),
            Err(payload) => Err(HookError::new(
                HookErrorKind::Runtime,
                format!(
                    "engine bug: a host function panicked ({}); the script is not at fault",
                    panic_message(payload.as_ref())
                ),
            )),
        };
        result.map_err(|error| {
            if error.kind == HookErrorKind::Memory {
                // Whatever the script was building is garbage now; give the room back at
                // once rather than at the next failed allocation.
                let _ = self.lua.gc_collect();
            }
            error.with_context(context())
        })
    }

    fn trip_error(&self, tripped: u8, traceback: Option<String>) -> HookError {
        let location = self
            .meter
            .location()
            .clone()
            .map(|location| format!("{location}: "))
            .unwrap_or_default();
        let error = if tripped == TRIPPED_DEADLINE {
            HookError::new(
                HookErrorKind::Deadline,
                format!(
                    "{location}the call worked for more than {} ms; a hook must not spend that \
                     long (look for library calls on huge strings or tables inside a loop)",
                    self.limits.time_per_call.as_millis()
                ),
            )
        } else {
            HookError::new(
                HookErrorKind::InstructionBudget,
                format!(
                    "{location}the call used up its budget of {} instructions; look for a loop \
                     that never ends, or do less work per call",
                    self.limits.instructions_per_call
                ),
            )
        };
        match traceback {
            Some(traceback) => error.with_traceback(traceback),
            None => error,
        }
    }

    fn classify(&self, error: mlua::Error, origin: Option<&Function>, tripped: u8) -> HookError {
        let mut traceback = None;
        if tripped != NOT_TRIPPED {
            describe_error(&error, &mut traceback, origin, &self.limits);
            return self.trip_error(tripped, traceback);
        }
        let (kind, mut message) = describe_error(&error, &mut traceback, origin, &self.limits);
        // Errors raised without a position (non-string error objects, errors from C functions
        // and from the sandbox's guards after a tail call) get the innermost script frame.
        if matches!(
            kind,
            HookErrorKind::Runtime | HookErrorKind::PatternTooComplex | HookErrorKind::BinaryChunk
        ) && !starts_with_location(&message)
            && let Some(location) = traceback.as_deref().and_then(first_script_frame)
        {
            message = format!("{location}: {message}");
        }
        let error = HookError::new(kind, message);
        match traceback {
            Some(traceback) => error.with_traceback(traceback),
            None => error,
        }
    }
}

// ---------------------------------------------------------------------------------------
// The pattern guard's estimate.

mod pattern;

// ---------------------------------------------------------------------------------------
// The sandbox's own Lua.

/// Runs once with the Rust helpers as its argument, before any ruleset code. Each wrapper
/// keeps the original in a local named like the function (so `bad argument` messages still
/// name it), which no script can reach: there is no debug library.
const SANDBOX_LUA: &str = include_str!("prelude.lua");

#[cfg(test)]
mod tests {
    use super::find_close_attribute;

    #[test]
    fn pointer_conversions_are_found() {
        use super::library::format_has_pointer;
        assert!(format_has_pointer(b"%p"));
        assert!(format_has_pointer(b"x=%-10p"));
        assert!(!format_has_pointer(b"%%p %d %s"));
        assert!(!format_has_pointer(b"100%% pure"));
        assert!(format_has_pointer(b"%%%p"));
    }

    #[test]
    fn close_attributes_are_found_outside_strings_and_comments() {
        assert_eq!(find_close_attribute(b"local x <close> = y"), Some(1));
        assert_eq!(find_close_attribute(b"\n\nlocal x < close\n> = y"), Some(3));
        assert_eq!(find_close_attribute(b"local x <const> = 1"), None);
        assert_eq!(
            find_close_attribute(b"local s = '<close>' -- <close>"),
            None
        );
        assert_eq!(
            find_close_attribute(b"local s = [==[\n<close>]==] x = 1"),
            None
        );
        assert_eq!(
            find_close_attribute(b"--[[ <close>\n]] local y <close> = z"),
            Some(2)
        );
        assert_eq!(find_close_attribute(b"local s = \"a\\\"<close>\""), None);
        assert_eq!(find_close_attribute(b"if a <= close then end"), None);
        assert_eq!(
            find_close_attribute(b"t[ [[x]] ] = 1 local z <close> = w"),
            Some(1)
        );
    }
}
