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
//!   (see [`pattern`](self::pattern) for the estimate) and refuses above
//!   [`PATTERN_STEP_LIMIT`] with [`HookErrorKind::PatternTooComplex`]; accepted calls are
//!   charged a quarter of the estimate. Plain `find` is bounded too (it is `O(n·m)`).
//! * **Wall-clock deadline.** The hook also checks [`Limits::wall_clock_per_call`]. It backs
//!   up the budget for work that is slow per instruction (concatenating or comparing
//!   megabyte strings in a loop). When 1,000 instructions took over [`SLOW_TICK`], the hook
//!   switches to a tick every [`FINE_TICK`] instructions for the rest of the call, so the
//!   deadline is noticed within milliseconds. The switch never changes where the budget trips.
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
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use mlua::chunk::ChunkMode;
use mlua::{
    FromLuaMulti, Function, HookTriggers, IntoLuaMulti, Lua, LuaOptions, LuaString, StdLib, Table,
    Value, VmState,
};

use crate::error::{HookError, HookErrorKind};

/// What one game's scripts may use. Every limit applies to each [`Sandbox::call`] (and to
/// running a module's top level in [`Sandbox::load_module`]), except memory, which is a cap
/// on the whole state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most bytes the Lua state may hold, code and data of all modules included.
    pub memory_bytes: usize,
    /// Most Lua VM instructions one call may execute (C library work is charged in the same
    /// unit, see the module documentation). Exhausting it is deterministic.
    pub instructions_per_call: u64,
    /// Longest one call may run. A backstop for work the instruction count cannot see;
    /// unlike the budget it depends on the machine, so it must sit far above what any
    /// honest hook needs.
    pub wall_clock_per_call: Duration,
}

impl Default for Limits {
    /// 16 MiB, 2,000,000 instructions, 250 ms.
    ///
    /// * **16 MiB** holds a ruleset's modules and any lookup table a hook could want (a table
    ///   of 10,000 entries is well under 1 MiB) with room to spare, stays small next to a
    ///   game's own data even with several games open in the editor, and bounds the largest
    ///   string or table a single C function can be handed (copying 16 MiB takes a few ms).
    /// * **2,000,000 instructions** is about 5–15 ms of Lua (hook overhead included): a typical hook (a movement cost,
    ///   a modifier) runs 50–500 instructions, a heavy one that walks every piece of a big
    ///   game perhaps 50,000, so the budget leaves a wide margin while still stopping a
    ///   runaway loop before a user notices.
    /// * **250 ms** is 25 times what the budget allows for real work, so machine speed and
    ///   scheduler noise never make an honest hook fail (which would break replays), yet a
    ///   stuck editor frame stays under a quarter of a second.
    fn default() -> Self {
        Self {
            memory_bytes: 16 * 1024 * 1024,
            instructions_per_call: 2_000_000,
            wall_clock_per_call: Duration::from_millis(250),
        }
    }
}

/// Instructions between two hook ticks in the normal case. The budget trips only at
/// multiples of this, which is what keeps it deterministic when the tick size changes.
pub const COARSE_TICK: u32 = 1_000;
/// Instructions between two hook ticks once a call has proven slow per instruction. Divides
/// [`COARSE_TICK`].
pub const FINE_TICK: u32 = 20;
/// A coarse tick that took longer than this switches the call to [`FINE_TICK`]. Normal Lua
/// runs 1,000 instructions in a few microseconds.
pub const SLOW_TICK: Duration = Duration::from_millis(2);
/// Bytes of C library work charged as one instruction (copying 16 bytes costs about what
/// one VM instruction does).
pub const BYTES_PER_UNIT: u64 = 16;
/// Most worst-case matcher steps a single `string.find`/`match`/`gmatch`/`gsub` call may
/// need, as estimated by the pattern guard. A step costs 3–10 ns, so the worst accepted
/// call takes a few tens of milliseconds.
pub const PATTERN_STEP_LIMIT: u64 = 4_000_000;
/// Estimated matcher steps charged as one instruction.
const PATTERN_STEPS_PER_UNIT: u64 = 4;
/// Charges below this many instructions' worth are not worth reading the clock for.
const SMALL_WORK_UNITS: u64 = 256;
/// Most bytes [`Sandbox::take_printed`] keeps between two reads.
pub const PRINT_LOG_LIMIT: usize = 64 * 1024;

/// Chunk name of the sandbox's own Lua, skipped when an error names a script location.
const SANDBOX_CHUNK: &str = "=[sandbox]";
const SANDBOX_SHORT_SRC: &str = "[sandbox]";
/// First byte of every Lua binary chunk (`"\27Lua"`).
const BINARY_SIGNATURE: u8 = 0x1b;

// ---------------------------------------------------------------------------------------
// The meter: budget, deadline and the sticky trip, shared by the hook and the Rust helpers.

const NOT_TRIPPED: u8 = 0;
const TRIPPED_BUDGET: u8 = 1;
const TRIPPED_DEADLINE: u8 = 2;

struct Meter {
    base: Instant,
    instruction_limit: u64,
    wall_clock_nanos: u64,
    /// Nesting of `call`s; the hook and the charges only count inside one.
    depth: AtomicU32,
    /// VM instructions counted by hook ticks in the current outermost call.
    instructions: AtomicU64,
    /// Instructions' worth of C library work charged in the current outermost call.
    charged: AtomicU64,
    /// Current hook interval, [`COARSE_TICK`] or [`FINE_TICK`].
    tick: AtomicU32,
    deadline_nanos: AtomicU64,
    last_tick_nanos: AtomicU64,
    tripped: AtomicU8,
    /// Where the script was when the budget or the deadline tripped.
    trip_location: Mutex<Option<String>>,
}

impl Meter {
    fn new(limits: &Limits) -> Self {
        Self {
            base: Instant::now(),
            instruction_limit: limits.instructions_per_call,
            wall_clock_nanos: u64::try_from(limits.wall_clock_per_call.as_nanos())
                .unwrap_or(u64::MAX),
            depth: AtomicU32::new(0),
            instructions: AtomicU64::new(0),
            charged: AtomicU64::new(0),
            tick: AtomicU32::new(COARSE_TICK),
            deadline_nanos: AtomicU64::new(u64::MAX),
            last_tick_nanos: AtomicU64::new(0),
            tripped: AtomicU8::new(NOT_TRIPPED),
            trip_location: Mutex::new(None),
        }
    }

    fn now_nanos(&self) -> u64 {
        u64::try_from(self.base.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    fn location(&self) -> MutexGuard<'_, Option<String>> {
        self.trip_location
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Enters a call; returns whether it is the outermost one (which resets the meter).
    fn enter(&self) -> bool {
        if self.depth.fetch_add(1, Ordering::Relaxed) != 0 {
            return false;
        }
        self.instructions.store(0, Ordering::Relaxed);
        self.charged.store(0, Ordering::Relaxed);
        self.tick.store(COARSE_TICK, Ordering::Relaxed);
        let now = self.now_nanos();
        self.deadline_nanos
            .store(now.saturating_add(self.wall_clock_nanos), Ordering::Relaxed);
        self.last_tick_nanos.store(now, Ordering::Relaxed);
        self.tripped.store(NOT_TRIPPED, Ordering::Relaxed);
        *self.location() = None;
        true
    }

    /// Leaves a call; returns the trip state, which is cleared when the outermost call ends
    /// (errors raised outside calls, such as syntax errors, must not be blamed on it).
    fn leave(&self) -> u8 {
        let tripped = self.tripped();
        if self.depth.fetch_sub(1, Ordering::Relaxed) == 1 {
            self.tripped.store(NOT_TRIPPED, Ordering::Relaxed);
        }
        tripped
    }

    fn active(&self) -> bool {
        self.depth.load(Ordering::Relaxed) != 0
    }

    fn tripped(&self) -> u8 {
        self.tripped.load(Ordering::Relaxed)
    }

    /// The error to raise again after a trip, if any.
    fn sticky(&self) -> mlua::Result<()> {
        match self.tripped() {
            NOT_TRIPPED => Ok(()),
            TRIPPED_DEADLINE => Err(mlua::Error::external(Trip::Deadline)),
            _ => Err(mlua::Error::external(Trip::InstructionBudget)),
        }
    }

    fn trip(&self, lua: &Lua, code: u8) -> mlua::Error {
        if self
            .tripped
            .compare_exchange(NOT_TRIPPED, code, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            *self.location() = script_location(lua);
        }
        match self.sticky() {
            Err(error) => error,
            Ok(()) => mlua::Error::external(Trip::InstructionBudget),
        }
    }

    /// Trips the budget if the instructions (rounded down to a coarse tick, see
    /// [`COARSE_TICK`]) plus the charges exceed it.
    fn check_budget(&self, lua: &Lua, instructions: u64) -> mlua::Result<()> {
        let coarse = u64::from(COARSE_TICK);
        let counted =
            (instructions / coarse * coarse).saturating_add(self.charged.load(Ordering::Relaxed));
        if counted > self.instruction_limit {
            return Err(self.trip(lua, TRIPPED_BUDGET));
        }
        Ok(())
    }

    fn check_deadline(&self, lua: &Lua, now: u64) -> mlua::Result<()> {
        if now > self.deadline_nanos.load(Ordering::Relaxed) {
            return Err(self.trip(lua, TRIPPED_DEADLINE));
        }
        Ok(())
    }

    /// The count hook.
    fn on_tick(self: &Arc<Self>, lua: &Lua) -> mlua::Result<VmState> {
        if !self.active() {
            return Ok(VmState::Continue);
        }
        self.sticky()?;
        let tick = self.tick.load(Ordering::Relaxed);
        let instructions = self
            .instructions
            .fetch_add(u64::from(tick), Ordering::Relaxed)
            .saturating_add(u64::from(tick));
        self.check_budget(lua, instructions)?;
        let now = self.now_nanos();
        self.check_deadline(lua, now)?;
        let last = self.last_tick_nanos.swap(now, Ordering::Relaxed);
        let slow = u64::try_from(SLOW_TICK.as_nanos()).unwrap_or(u64::MAX);
        if tick != FINE_TICK && now.saturating_sub(last) > slow {
            // We are on a coarse tick, so the instruction count is a multiple of
            // COARSE_TICK and fine ticks will land on every later multiple too.
            self.tick.store(FINE_TICK, Ordering::Relaxed);
            install_hook(lua, Arc::clone(self), FINE_TICK)?;
        }
        Ok(VmState::Continue)
    }

    /// Charges C library work to the budget and checks the deadline.
    fn charge(&self, lua: &Lua, units: u64) -> mlua::Result<()> {
        if !self.active() {
            return Ok(());
        }
        self.sticky()?;
        self.charged.fetch_add(units, Ordering::Relaxed);
        self.check_budget(lua, self.instructions.load(Ordering::Relaxed))?;
        self.check_deadline(lua, self.now_nanos())
    }
}

fn install_hook(lua: &Lua, meter: Arc<Meter>, every: u32) -> mlua::Result<()> {
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(every),
        move |lua, _debug| meter.on_tick(lua),
    )
}

/// `file:line` of the innermost script frame (skipping C functions and the sandbox's Lua).
fn script_location(lua: &Lua) -> Option<String> {
    for level in 0..64 {
        let (what, short_src, line) = lua.inspect_stack(level, |debug| {
            let source = debug.source();
            let short_src = source.short_src.map(|s| s.into_owned());
            (source.what, short_src, debug.current_line())
        })?;
        let Some(short_src) = short_src else {
            continue;
        };
        if what == "C" || short_src == SANDBOX_SHORT_SRC {
            continue;
        }
        return Some(match line {
            Some(line) => format!("{short_src}:{line}"),
            None => short_src,
        });
    }
    None
}

/// The sandbox's own refusals, raised through Lua as external errors.
#[derive(Debug, Clone)]
enum Trip {
    InstructionBudget,
    Deadline,
    PatternTooComplex(String),
    BinaryChunk(String),
}

impl fmt::Display for Trip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InstructionBudget => f.write_str("instruction budget exhausted"),
            Self::Deadline => f.write_str("time limit exceeded"),
            Self::PatternTooComplex(message) | Self::BinaryChunk(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Trip {}

impl From<HookError> for mlua::Error {
    /// Lets host functions registered on [`Sandbox::lua`] propagate a nested call's error
    /// through Lua without losing its kind.
    fn from(error: HookError) -> Self {
        mlua::Error::external(error)
    }
}

// ---------------------------------------------------------------------------------------
// The sandbox.

#[derive(Default)]
struct PrintLog {
    lines: Vec<String>,
    bytes: usize,
    truncated: bool,
}

impl PrintLog {
    fn push(&mut self, line: String) {
        if self.truncated {
            return;
        }
        if self.bytes.saturating_add(line.len()) > PRINT_LOG_LIMIT {
            self.truncated = true;
            self.lines.push(format!(
                "[print output truncated at {PRINT_LOG_LIMIT} bytes]"
            ));
            return;
        }
        self.bytes += line.len();
        self.lines.push(line);
    }
}

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
                    "{location}the call ran for more than {} ms; a hook must not spend that \
                     long (look for library calls on huge strings or tables inside a loop)",
                    self.limits.wall_clock_per_call.as_millis()
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

/// Kind and message of an mlua error, collecting the innermost traceback on the way.
fn describe_error(
    error: &mlua::Error,
    traceback: &mut Option<String>,
    origin: Option<&Function>,
    limits: &Limits,
) -> (HookErrorKind, String) {
    match error {
        mlua::Error::CallbackError {
            traceback: callback_traceback,
            cause,
        } => {
            if traceback.is_none() {
                *traceback = Some(callback_traceback.clone());
            }
            describe_error(cause, traceback, origin, limits)
        }
        mlua::Error::WithContext { context, cause } => {
            let (kind, message) = describe_error(cause, traceback, origin, limits);
            (kind, format!("{context}: {message}"))
        }
        mlua::Error::ExternalError(inner) => {
            if let Some(trip) = inner.downcast_ref::<Trip>() {
                let kind = match trip {
                    Trip::InstructionBudget => HookErrorKind::InstructionBudget,
                    Trip::Deadline => HookErrorKind::Deadline,
                    Trip::PatternTooComplex(_) => HookErrorKind::PatternTooComplex,
                    Trip::BinaryChunk(_) => HookErrorKind::BinaryChunk,
                };
                (kind, trip.to_string())
            } else if let Some(hook_error) = inner.downcast_ref::<HookError>() {
                if traceback.is_none() {
                    traceback.clone_from(&hook_error.traceback);
                }
                (hook_error.kind, hook_error.to_string())
            } else {
                (HookErrorKind::Runtime, inner.to_string())
            }
        }
        mlua::Error::MemoryError(_) => (HookErrorKind::Memory, memory_message(limits)),
        mlua::Error::SyntaxError { message, .. } => (HookErrorKind::Syntax, message.clone()),
        mlua::Error::RuntimeError(message) => {
            let (message, lua_traceback) = split_traceback(message);
            if traceback.is_none() {
                *traceback = lua_traceback;
            }
            if message == "not enough memory" {
                // A memory error that a script caught with pcall and raised again.
                return (HookErrorKind::Memory, memory_message(limits));
            }
            // A library error raised through one of the sandbox's wrappers names the
            // wrapper's line; the script's line (from the traceback) is what helps.
            let message = strip_sandbox_location(&message);
            let mut message = describe_error_object(message);
            // (The location is added by `classify` from the traceback when missing.)
            if message.ends_with("stack overflow") {
                message.push_str(
                    " (a function calls itself without end, directly or through a library \
                     function or metamethod)",
                );
            }
            (HookErrorKind::Runtime, message)
        }
        mlua::Error::FromLuaConversionError { from, to, message } => {
            let place = origin
                .map(|function| {
                    let info = function.info();
                    match (info.short_src, info.line_defined) {
                        (Some(src), Some(line)) => format!("{src}:{line}: "),
                        (Some(src), None) => format!("{src}: "),
                        _ => String::new(),
                    }
                })
                .unwrap_or_default();
            let expected = lua_name_of_rust_type(to);
            let detail = message
                .as_deref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default();
            (
                HookErrorKind::WrongType,
                format!(
                    "{place}the function returned {} where {expected} was expected{detail}; \
                     return {expected}",
                    with_article(from)
                ),
            )
        }
        other => (HookErrorKind::Runtime, other.to_string()),
    }
}

fn memory_message(limits: &Limits) -> String {
    format!(
        "the script ran out of memory (the sandbox allows {} bytes, {} MiB); look for a table \
         or string that keeps growing, or recursion that never ends",
        limits.memory_bytes,
        limits.memory_bytes / (1024 * 1024)
    )
}

/// Splits mlua's `message\nstack traceback:\n...` in two.
fn split_traceback(message: &str) -> (String, Option<String>) {
    match message.find("\nstack traceback:") {
        Some(at) => (message[..at].to_owned(), Some(message[at + 1..].to_owned())),
        None => (message.to_owned(), None),
    }
}

/// `message` without a leading `[sandbox]:123: `.
fn strip_sandbox_location(message: &str) -> &str {
    message
        .strip_prefix(SANDBOX_SHORT_SRC)
        .and_then(|rest| rest.strip_prefix(':'))
        .and_then(|rest| {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            rest[digits..].strip_prefix(": ")
        })
        .unwrap_or(message)
}

/// Whether `message` starts with `file:line:`, as Lua prefixes its string errors.
fn starts_with_location(message: &str) -> bool {
    message.split_once(':').is_some_and(|(_, rest)| {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && rest.as_bytes().get(digits) == Some(&b':')
    })
}

/// `file:line` of the innermost script frame of a Lua traceback, for errors raised without
/// a position (non-string error objects, errors raised inside C functions).
fn first_script_frame(traceback: &str) -> Option<String> {
    traceback.lines().skip(1).find_map(|line| {
        let frame = line.trim_start();
        if frame.starts_with('[') || frame.starts_with('(') {
            return None;
        }
        let (file, rest) = frame.split_once(':')?;
        let line_number: String = rest.chars().take_while(char::is_ascii_digit).collect();
        (!line_number.is_empty()).then(|| format!("{file}:{line_number}"))
    })
}

/// Lua turns a non-string error object into `nil` or `table: 0x55...`; say what happened
/// instead, without an address that changes from run to run.
fn describe_error_object(message: &str) -> String {
    if message == "nil" {
        return "error raised with a nil value instead of a message; pass a string to error()"
            .to_owned();
    }
    if let Some((kind, address)) = message.rsplit_once(": 0x")
        && !kind.contains('\n')
        && !address.is_empty()
        && address.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return format!(
            "error raised with {} instead of a message; raise a string, or give the value a \
             __tostring metamethod",
            with_article(kind)
        );
    }
    message.to_owned()
}

/// How a Rust conversion target reads to a Lua author.
fn lua_name_of_rust_type(rust: &str) -> String {
    let lua = match rust {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128"
        | "usize" => "an integer",
        "f32" | "f64" => "a number",
        "String" | "&str" | "string" | "BString" | "LuaString" => "a string",
        "table" | "Table" => "a table",
        "function" | "Function" => "a function",
        "bool" | "boolean" => "a boolean",
        other => return format!("a value of type {other}"),
    };
    format!("{lua} ({rust})")
}

fn with_article(noun: &str) -> String {
    match noun {
        "nil" => "nil".to_owned(),
        _ if noun.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {noun}"),
        _ => format!("a {noun}"),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(message) = payload.downcast_ref::<&str>() {
        (*message).to_owned()
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else {
        "no message".to_owned()
    }
}

/// The closest name within a third of its length (at least 2 edits), if any.
fn did_you_mean<'a>(wanted: &str, available: &'a [String]) -> Option<&'a str> {
    let wanted_lower = wanted.to_lowercase();
    let threshold = (wanted.chars().count() / 3).max(2);
    available
        .iter()
        .map(|name| (edit_distance(&wanted_lower, &name.to_lowercase()), name))
        .filter(|(distance, _)| *distance <= threshold)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, name)| name.as_str())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = Vec::with_capacity(b.len() + 1);
        current.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

// ---------------------------------------------------------------------------------------
// The library: what is removed, and the Rust helpers behind the Lua wrappers.

/// Globals that a script must never see. (`io`, `os`, `package`, `debug` are never loaded by
/// `new_with`; removing them again costs nothing and survives a future change of flags.)
const REMOVED_GLOBALS: &[&str] = &[
    "io",
    "os",
    "package",
    "require",
    "debug",
    "dofile",
    "loadfile",
    "warn",
    "coroutine",
    "print",
];

fn install_library(
    lua: &Lua,
    meter: &Arc<Meter>,
    printed: &Arc<Mutex<PrintLog>>,
) -> mlua::Result<()> {
    let globals = lua.globals();
    for name in REMOVED_GLOBALS {
        globals.raw_set(*name, Value::Nil)?;
    }
    let string: Table = globals.raw_get("string")?;
    string.raw_set("dump", Value::Nil)?;
    let math: Table = globals.raw_get("math")?;
    math.raw_set("random", Value::Nil)?;
    math.raw_set("randomseed", Value::Nil)?;

    let host = lua.create_table()?;
    let m = Arc::clone(meter);
    host.raw_set("check_trip", lua.create_function(move |_, ()| m.sticky())?)?;
    let m = Arc::clone(meter);
    host.raw_set(
        "charge",
        lua.create_function(move |lua, bytes: i64| {
            let bytes = u64::try_from(bytes).unwrap_or(0);
            m.charge(lua, bytes / BYTES_PER_UNIT)
        })?,
    )?;
    host.raw_set(
        "refuse_binary",
        lua.create_function(|lua, ()| -> mlua::Result<()> {
            let location = script_location(lua)
                .map(|l| format!("{l}: "))
                .unwrap_or_default();
            Err(mlua::Error::external(Trip::BinaryChunk(format!(
                "{location}load: binary (precompiled) chunks are refused by the sandbox, \
                 because crafted bytecode can crash the interpreter; load Lua source text"
            ))))
        })?,
    )?;
    host.raw_set(
        "check_source",
        lua.create_function(|_, (source, name): (LuaString, Option<LuaString>)| {
            let name = match name {
                Some(name) => name
                    .to_string_lossy()
                    .trim_start_matches(['=', '@'])
                    .to_owned(),
                None => "[string]".to_owned(),
            };
            Ok(find_close_attribute(&source.as_bytes())
                .map(|line| format!("{name}:{line}: {CLOSE_REFUSED}")))
        })?,
    )?;
    host.raw_set(
        "format_has_pointer",
        lua.create_function(|_, format: LuaString| Ok(format_has_pointer(&format.as_bytes())))?,
    )?;
    let m = Arc::clone(meter);
    host.raw_set(
        "guard_pattern",
        lua.create_function(
            move |lua, (op, subject, pattern, init, plain): (u8, Value, Value, Value, Value)| {
                guard_pattern(lua, &m, op, subject, pattern, init, &plain)
            },
        )?,
    )?;
    let m = Arc::clone(meter);
    let log = Arc::clone(printed);
    host.raw_set(
        "log",
        lua.create_function(move |lua, line: LuaString| {
            let line = line.to_string_lossy();
            m.charge(lua, line.len() as u64 / BYTES_PER_UNIT)?;
            log.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(line);
            Ok(())
        })?,
    )?;

    lua.load(SANDBOX_LUA)
        .set_name(SANDBOX_CHUNK)
        .set_mode(ChunkMode::Text)
        .call::<()>(host)
}

/// Whether a `string.format` format has a `%p` conversion (an address). A linear scan: a
/// Lua pattern here could itself be made to backtrack.
fn format_has_pointer(format: &[u8]) -> bool {
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if format.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        while format
            .get(i)
            .is_some_and(|&b| b"-+ #0.".contains(&b) || b.is_ascii_digit())
        {
            i += 1;
        }
        if format.get(i) == Some(&b'p') {
            return true;
        }
    }
    false
}

/// Why a to-be-closed variable is refused.
const CLOSE_REFUSED: &str = "to-be-closed variables (`<close>`) are not allowed in the sandbox: \
    when the instruction budget stops a function, Lua would run their __close handler where \
    the budget cannot stop it; release resources explicitly instead";

/// Line of the first `<close>` attribute (a to-be-closed variable) in Lua source, if any.
///
/// A small lexer: skips comments, quoted and long strings, and looks for the tokens `<`,
/// `close`, `>` in a row (which is also a valid, if odd, comparison `a < close > b`; the
/// refusal then asks for a rename). Malformed source is scanned as far as it goes and left
/// to the parser to report.
fn find_close_attribute(source: &[u8]) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Token {
        Less,
        Close,
        Other,
    }
    let mut line = 1;
    let mut recent = [Token::Other; 2];
    let mut less_line = 0;
    let mut i = 0;
    while i < source.len() {
        let byte = source[i];
        let token = match byte {
            b'\n' => {
                line += 1;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                i += 1;
                continue;
            }
            b'-' if source.get(i + 1) == Some(&b'-') => {
                i += 2;
                if let Some(level) = long_bracket_level(source, i) {
                    i = skip_long_bracket(source, i, level, &mut line);
                } else {
                    while i < source.len() && source[i] != b'\n' {
                        i += 1;
                    }
                }
                continue;
            }
            b'[' => {
                match long_bracket_level(source, i) {
                    Some(level) => i = skip_long_bracket(source, i, level, &mut line),
                    None => i += 1,
                }
                Token::Other
            }
            b'"' | b'\'' => {
                i += 1;
                while i < source.len() && source[i] != byte && source[i] != b'\n' {
                    if source[i] == b'\\' {
                        i += 1;
                        if source.get(i) == Some(&b'\n') {
                            line += 1;
                        }
                    }
                    i += 1;
                }
                i += 1;
                Token::Other
            }
            b'<' if !matches!(source.get(i + 1), Some(b'=' | b'<')) => {
                i += 1;
                less_line = line;
                Token::Less
            }
            b'>' if recent == [Token::Less, Token::Close]
                && !matches!(source.get(i + 1), Some(b'=' | b'>')) =>
            {
                return Some(less_line);
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' => {
                let start = i;
                while i < source.len() && (source[i].is_ascii_alphanumeric() || source[i] == b'_') {
                    i += 1;
                }
                if &source[start..i] == b"close" {
                    Token::Close
                } else {
                    Token::Other
                }
            }
            _ => {
                i += 1;
                Token::Other
            }
        };
        recent = [recent[1], token];
    }
    None
}

/// Level of the long bracket (`[[`, `[==[`) opening at `i`, if one does.
fn long_bracket_level(source: &[u8], i: usize) -> Option<usize> {
    if source.get(i) != Some(&b'[') {
        return None;
    }
    let equals = source[i + 1..].iter().take_while(|&&b| b == b'=').count();
    (source.get(i + 1 + equals) == Some(&b'[')).then_some(equals)
}

/// Index just after the long bracket of `level` opening at `i`, counting lines.
fn skip_long_bracket(source: &[u8], i: usize, level: usize, line: &mut usize) -> usize {
    let mut j = i + level + 2;
    while j < source.len() {
        if source[j] == b'\n' {
            *line += 1;
        } else if source[j] == b']'
            && source[j + 1..].iter().take_while(|&&b| b == b'=').count() == level
            && source.get(j + 1 + level) == Some(&b']')
        {
            return j + level + 2;
        }
        j += 1;
    }
    source.len()
}

fn units_for_steps(steps: u64) -> u64 {
    steps / PATTERN_STEPS_PER_UNIT
}

/// The pattern guard behind `string.find`, `match`, `gmatch` and `gsub`: refuses a call
/// whose worst case exceeds [`PATTERN_STEP_LIMIT`], charges the others. Invalid arguments are
/// let through for the original function to report.
fn guard_pattern(
    lua: &Lua,
    meter: &Meter,
    op: u8,
    subject: Value,
    pattern_value: Value,
    init: Value,
    plain: &Value,
) -> mlua::Result<()> {
    let op = match op {
        1 => pattern::Op::Find,
        2 => pattern::Op::Match,
        3 => pattern::Op::Gmatch,
        _ => pattern::Op::Gsub,
    };
    let (Some(subject), Some(pattern_string)) = (
        coerce_to_string(lua, subject)?,
        coerce_to_string(lua, pattern_value)?,
    ) else {
        return Ok(());
    };
    let subject = subject.as_bytes();
    let pattern_bytes = pattern_string.as_bytes();
    let start = if op == pattern::Op::Gsub {
        0
    } else {
        let init = match init {
            Value::Nil => 1,
            other => match lua.coerce_integer(other)? {
                Some(init) => init,
                None => return Ok(()),
            },
        };
        match start_offset(init, subject.len()) {
            Some(start) => start,
            None => return Ok(()),
        }
    };
    let plain = op == pattern::Op::Find
        && (!matches!(plain, Value::Nil | Value::Boolean(false))
            || !pattern::has_specials(&pattern_bytes));
    let steps = pattern::estimate(
        op,
        &subject,
        &pattern_bytes,
        start,
        plain,
        PATTERN_STEP_LIMIT,
    );
    if steps > PATTERN_STEP_LIMIT {
        let location = script_location(lua)
            .map(|l| format!("{l}: "))
            .unwrap_or_default();
        let shown = String::from_utf8_lossy(&pattern_bytes[..pattern_bytes.len().min(40)]);
        let ellipsis = if pattern_bytes.len() > 40 { "..." } else { "" };
        return Err(mlua::Error::external(Trip::PatternTooComplex(format!(
            "{location}string.{}: pattern \"{shown}{ellipsis}\" could backtrack for more than \
             {PATTERN_STEP_LIMIT} steps on a {}-byte string; anchor it (^...$), use fewer \
             quantified items such as .* or a-, or match a shorter string",
            op.name(),
            subject.len()
        ))));
    }
    let units =
        units_for_steps(steps) + (subject.len() + pattern_bytes.len()) as u64 / BYTES_PER_UNIT;
    if units < SMALL_WORK_UNITS {
        // No dearer than the instructions around the call; skip the clock.
        return Ok(());
    }
    meter.charge(lua, units)
}

fn coerce_to_string(lua: &Lua, value: Value) -> mlua::Result<Option<LuaString>> {
    match value {
        Value::String(string) => Ok(Some(string)),
        Value::Integer(_) | Value::Number(_) => lua.coerce_string(value),
        _ => Ok(None),
    }
}

/// Lua 5.4's `posrelatI(init) - 1`, or `None` when the call fails at once (start past the end).
fn start_offset(init: i64, len: usize) -> Option<usize> {
    let position = if init > 0 {
        usize::try_from(init).unwrap_or(usize::MAX)
    } else if init == 0 || init.unsigned_abs() > len as u64 {
        1
    } else {
        len - usize::try_from(init.unsigned_abs()).unwrap_or(len) + 1
    };
    let start = position - 1;
    (start <= len).then_some(start)
}

// ---------------------------------------------------------------------------------------
// The pattern guard's estimate.

/// Worst-case cost of Lua 5.4's pattern matcher (`lstrlib.c`), computed before the call.
///
/// The matcher is a backtracking recursion. Its cost is counted in *steps*: one call of
/// `match` or one single-character test. For a pattern of items `i_0 … i_k` and a subject of
/// length `n`, `W_j(s)` bounds the steps needed to match items `j…` starting at offset `s`
/// *if every attempt fails* (the worst case); `W_{k+1}(s) = 1` and, with `r_j(s)` the length
/// of the run of subject bytes from `s` that item `j`'s class accepts:
///
/// | item `j`                | `W_j(s)`                                                  |
/// |-------------------------|-----------------------------------------------------------|
/// | `c` (single class)      | `1 + [c accepts s]·W_{j+1}(s+1)`                          |
/// | `c?`                    | `1 + [c accepts s]·W_{j+1}(s+1) + W_{j+1}(s)`             |
/// | `c*`, `c-`              | `1 + r + Σ_{k=0..r} W_{j+1}(s+k)`                         |
/// | `c+`                    | `1 + r + Σ_{k=1..r} W_{j+1}(s+k)` (or 1 if `r = 0`)       |
/// | `(`, `)`, `()`, `%f[…]` | `1 + W_{j+1}(s)`                                          |
/// | `%bxy`, `%1`–`%9`       | `1 + (n − s) + max_{e ≥ s} W_{j+1}(e)`                    |
/// | `$` at the end          | `1 + [s = n]`                                             |
///
/// When everything after a `*`, `+` or `-` item is only captures (the rest cannot fail), the
/// first attempt succeeds, so only that attempt is counted. The total sums `W_0(s)` over every
/// start the call can try (one start if anchored with `^`; `gmatch` and `gsub` may try every
/// position). This is an exact dynamic programme in `O(n · items)` time. It is skipped when
/// the crude bound `starts · (items + 1) · Π f_j` (with `f_j = n + 1` for `*`, `+`, `-`,
/// `%b`, back-references and 2 for `?`) is tiny anyway, and it is only run while `n · items`
/// is at most [`DP_MAX_CELLS`] and `n` at most [`DP_MAX_SUBJECT`]; beyond that the crude
/// bound decides.
/// Compared with counting `n^q` for `q` quantified items, the run lengths keep ordinary
/// patterns (`"(%w+)%s*=%s*(%w+)"` on a line of text) cheap while `a*a*a*…b` on `aaaa…`
/// is refused.
///
/// A plain `find` (or a pattern without special characters) is `memchr` + `memcmp`:
/// `(n − m + 1) · m` steps at worst.
mod pattern {
    use std::ops::Range;

    /// Largest `(n + 1) · items` the exact estimate will tabulate.
    pub(super) const DP_MAX_CELLS: usize = 4_000_000;
    /// Longest subject the exact estimate will tabulate (its tables take 20 bytes a byte).
    pub(super) const DP_MAX_SUBJECT: usize = 256 * 1024;
    /// A crude bound this small is accepted as is.
    const CRUDE_IS_CHEAP: u64 = 4096;

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub(super) enum Op {
        Find,
        Match,
        Gmatch,
        Gsub,
    }

    impl Op {
        pub(super) const fn name(self) -> &'static str {
            match self {
                Self::Find => "find",
                Self::Match => "match",
                Self::Gmatch => "gmatch",
                Self::Gsub => "gsub",
            }
        }
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    enum Quantifier {
        One,
        Optional,
        Star,
        Plus,
        Lazy,
    }

    enum Item {
        Single {
            /// Where the class is in the pattern (`%a`, `[^,]`, `.`, `x`).
            class: Range<usize>,
            quantifier: Quantifier,
        },
        /// A capture boundary or position capture: zero width, always succeeds.
        Capture,
        /// `%f[set]`: zero width, may fail.
        Frontier,
        /// `%bxy`.
        Balance(u8),
        /// `%1`–`%9`.
        BackReference,
        /// `$` as the last pattern character.
        EndAnchor,
    }

    /// Whether Lua's `find` would treat `pattern` as a plain string (`nospecials`).
    pub(super) fn has_specials(pattern: &[u8]) -> bool {
        pattern.iter().any(|b| b"^$*+?.([%-".contains(b))
    }

    /// Steps the call may take, saturated at `limit + 1`.
    pub(super) fn estimate(
        op: Op,
        subject: &[u8],
        pattern: &[u8],
        start: usize,
        plain: bool,
        limit: u64,
    ) -> u64 {
        let too_much = limit.saturating_add(1);
        let n = subject.len();
        if plain {
            let m = pattern.len();
            let rest = n.saturating_sub(start);
            if m == 0 || m > rest {
                return 1;
            }
            return ((rest - m + 1) as u64)
                .saturating_mul(m as u64)
                .saturating_add(1)
                .min(too_much);
        }
        let anchored = op != Op::Gmatch && pattern.first() == Some(&b'^');
        let body = if anchored { &pattern[1..] } else { pattern };
        let items = parse(body);
        let starts = if anchored {
            1
        } else {
            (n - start.min(n) + 1) as u64
        };

        let mut crude = starts.saturating_mul(items.len() as u64 + 1);
        for item in &items {
            let factor = match item {
                Item::Single {
                    quantifier: Quantifier::Star | Quantifier::Plus | Quantifier::Lazy,
                    ..
                }
                | Item::Balance(_)
                | Item::BackReference => n as u64 + 1,
                Item::Single {
                    quantifier: Quantifier::Optional,
                    ..
                } => 2,
                _ => 1,
            };
            crude = crude.saturating_mul(factor);
        }
        // The crude bound is exact enough for small calls; otherwise tabulate, both to refuse
        // less and to charge less.
        if crude <= CRUDE_IS_CHEAP {
            return crude;
        }
        if n > DP_MAX_SUBJECT || (n + 1).saturating_mul(items.len()) > DP_MAX_CELLS {
            return if crude <= limit { crude } else { too_much };
        }
        worst_case_steps(&items, body, subject, start, anchored, too_much)
    }

    /// The dynamic programme described in the module documentation, saturating at `cap`.
    fn worst_case_steps(
        items: &[Item],
        pattern: &[u8],
        subject: &[u8],
        start: usize,
        anchored: bool,
        cap: u64,
    ) -> u64 {
        let n = subject.len();
        let mut next = vec![1u64; n + 1];
        let mut current = vec![0u64; n + 1];
        let mut prefix = vec![0u64; n + 2];
        let mut run = vec![0usize; n + 1];
        // Whether everything after the item being processed is captures only.
        let mut rest_always_succeeds = true;
        for item in items.iter().rev() {
            match item {
                Item::Capture | Item::Frontier => {
                    for s in 0..=n {
                        current[s] = next[s].saturating_add(1);
                    }
                }
                Item::EndAnchor => {
                    for s in 0..=n {
                        current[s] = 1 + if s == n { next[s] } else { 0 };
                    }
                }
                Item::Balance(_) | Item::BackReference => {
                    // Suffix maximum of `next`, then the scan of up to n - s bytes.
                    let mut suffix_max = 0u64;
                    for s in (0..=n).rev() {
                        suffix_max = suffix_max.max(next[s]);
                        let opens = match item {
                            Item::Balance(open) => s < n && subject[s] == *open,
                            _ => true,
                        };
                        current[s] = if opens {
                            (n - s) as u64 + 1 + suffix_max
                        } else {
                            1
                        };
                    }
                }
                Item::Single { class, quantifier } => {
                    let accepts = class_set(&pattern[class.clone()]);
                    let accepts_at = |s: usize| s < n && accepts[usize::from(subject[s])];
                    match quantifier {
                        Quantifier::One => {
                            for s in 0..=n {
                                current[s] = 1 + if accepts_at(s) { next[s + 1] } else { 0 };
                            }
                        }
                        Quantifier::Optional => {
                            for s in 0..=n {
                                let with = if accepts_at(s) { next[s + 1] } else { 0 };
                                current[s] = next[s].saturating_add(with).saturating_add(1);
                            }
                        }
                        Quantifier::Star | Quantifier::Plus | Quantifier::Lazy => {
                            run[n] = 0;
                            for s in (0..n).rev() {
                                run[s] = if accepts_at(s) { run[s + 1] + 1 } else { 0 };
                            }
                            prefix[0] = 0;
                            for s in 0..=n {
                                prefix[s + 1] = prefix[s].saturating_add(next[s]);
                            }
                            for s in 0..=n {
                                let r = run[s];
                                current[s] =
                                    match quantifier {
                                        Quantifier::Plus if r == 0 => 1,
                                        Quantifier::Plus if rest_always_succeeds => {
                                            (r as u64).saturating_add(next[s + r])
                                        }
                                        Quantifier::Plus => (r as u64)
                                            .saturating_add(prefix[s + r + 1] - prefix[s + 1]),
                                        Quantifier::Lazy if rest_always_succeeds => 1 + next[s],
                                        _ if rest_always_succeeds => {
                                            (r as u64 + 1).saturating_add(next[s + r])
                                        }
                                        _ => (r as u64 + 1)
                                            .saturating_add(prefix[s + r + 1] - prefix[s]),
                                    };
                            }
                        }
                    }
                }
            }
            for value in current.iter_mut() {
                *value = (*value).min(cap);
            }
            std::mem::swap(&mut current, &mut next);
            rest_always_succeeds = rest_always_succeeds && matches!(item, Item::Capture);
        }
        let start = start.min(n);
        if anchored {
            return next[start];
        }
        next[start..]
            .iter()
            .fold(0u64, |total, steps| total.saturating_add(*steps))
            .min(cap)
    }

    /// The items of `pattern` (after any `^`), as far as it is well formed: Lua raises an
    /// error when the matcher reaches a malformed item, which ends the call like a failure.
    fn parse(pattern: &[u8]) -> Vec<Item> {
        let mut items = Vec::new();
        let mut i = 0;
        while i < pattern.len() {
            match pattern[i] {
                b'(' => {
                    items.push(Item::Capture);
                    i += if pattern.get(i + 1) == Some(&b')') {
                        2
                    } else {
                        1
                    };
                }
                b')' => {
                    items.push(Item::Capture);
                    i += 1;
                }
                b'$' if i + 1 == pattern.len() => {
                    items.push(Item::EndAnchor);
                    i += 1;
                }
                b'%' if pattern.get(i + 1) == Some(&b'b') => {
                    let Some(&open) = pattern.get(i + 2) else {
                        break;
                    };
                    if pattern.get(i + 3).is_none() {
                        break;
                    }
                    items.push(Item::Balance(open));
                    i += 4;
                }
                b'%' if pattern.get(i + 1) == Some(&b'f') => {
                    if pattern.get(i + 2) != Some(&b'[') {
                        break;
                    }
                    let Some(end) = class_end(pattern, i + 2) else {
                        break;
                    };
                    items.push(Item::Frontier);
                    i = end;
                }
                b'%' if pattern.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                    items.push(Item::BackReference);
                    i += 2;
                }
                _ => {
                    let Some(end) = class_end(pattern, i) else {
                        break;
                    };
                    let quantifier = match pattern.get(end) {
                        Some(b'?') => Quantifier::Optional,
                        Some(b'*') => Quantifier::Star,
                        Some(b'+') => Quantifier::Plus,
                        Some(b'-') => Quantifier::Lazy,
                        _ => Quantifier::One,
                    };
                    items.push(Item::Single {
                        class: i..end,
                        quantifier,
                    });
                    i = if quantifier == Quantifier::One {
                        end
                    } else {
                        end + 1
                    };
                }
            }
        }
        items
    }

    /// End (exclusive) of the single-character class starting at `i` (`classEnd`).
    fn class_end(pattern: &[u8], i: usize) -> Option<usize> {
        match pattern.get(i)? {
            b'%' => {
                pattern.get(i + 1)?;
                Some(i + 2)
            }
            b'[' => {
                let mut j = i + 1;
                if pattern.get(j) == Some(&b'^') {
                    j += 1;
                }
                loop {
                    let c = *pattern.get(j)?;
                    j += 1;
                    if c == b'%' {
                        pattern.get(j)?;
                        j += 1;
                    }
                    if pattern.get(j) == Some(&b']') {
                        return Some(j + 1);
                    }
                }
            }
            _ => Some(i + 1),
        }
    }

    /// The bytes a single-character class (`.`, `%a`, `[a-z%d]`, `x`) accepts.
    fn class_set(class: &[u8]) -> Box<[bool; 256]> {
        let mut accepts = Box::new([false; 256]);
        for (c, slot) in accepts.iter_mut().enumerate() {
            let Ok(c) = u8::try_from(c) else {
                continue;
            };
            *slot = match class {
                [b'.'] => true,
                [b'%', escape] => matches_class(c, *escape),
                [b'[', .., b']'] => matches_bracket(c, class),
                [literal, ..] => c == *literal,
                [] => false,
            };
        }
        accepts
    }

    /// `match_class` in the C locale.
    fn matches_class(c: u8, class: u8) -> bool {
        let result = match class.to_ascii_lowercase() {
            b'a' => c.is_ascii_alphabetic(),
            b'c' => c.is_ascii_control(),
            b'd' => c.is_ascii_digit(),
            b'g' => c.is_ascii_graphic(),
            b'l' => c.is_ascii_lowercase(),
            b'p' => c.is_ascii_punctuation(),
            b's' => matches!(c, b' ' | b'\t'..=b'\r'),
            b'u' => c.is_ascii_uppercase(),
            b'w' => c.is_ascii_alphanumeric(),
            b'x' => c.is_ascii_hexdigit(),
            _ => return c == class,
        };
        if class.is_ascii_uppercase() {
            !result
        } else {
            result
        }
    }

    /// `matchbracketclass`: `class` is the whole `[...]`.
    fn matches_bracket(c: u8, class: &[u8]) -> bool {
        let end = class.len() - 1;
        let mut p = 1;
        let mut accept = true;
        if class.get(1) == Some(&b'^') {
            accept = false;
            p = 2;
        }
        while p < end {
            if class[p] == b'%' && p + 1 < end {
                p += 1;
                if matches_class(c, class[p]) {
                    return accept;
                }
                p += 1;
            } else if class.get(p + 1) == Some(&b'-') && p + 2 < end {
                if class[p] <= c && c <= class[p + 2] {
                    return accept;
                }
                p += 3;
            } else {
                if class[p] == c {
                    return accept;
                }
                p += 1;
            }
        }
        !accept
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        const LIMIT: u64 = super::super::PATTERN_STEP_LIMIT;

        fn find(subject: &[u8], pattern: &[u8]) -> u64 {
            estimate(Op::Find, subject, pattern, 0, false, LIMIT)
        }

        #[test]
        fn classes_follow_the_c_locale() {
            let set = class_set(b"[a-c%d_]");
            assert!(set[usize::from(b'b')] && set[usize::from(b'7')] && set[usize::from(b'_')]);
            assert!(!set[usize::from(b'd')] && !set[usize::from(b' ')]);
            let negated = class_set(b"[^,]");
            assert!(negated[usize::from(b'x')] && !negated[usize::from(b',')]);
            let space = class_set(b"%s");
            assert!(space[0x0b] && space[usize::from(b' ')] && !space[usize::from(b'x')]);
            let not_digit = class_set(b"%D");
            assert!(not_digit[usize::from(b'x')] && !not_digit[usize::from(b'3')]);
            assert!(class_set(b"%]")[usize::from(b']')]);
        }

        #[test]
        fn nested_stars_on_a_long_run_are_refused() {
            let subject = vec![b'a'; 5000];
            let pattern = [b"a*".repeat(30), b"b".to_vec()].concat();
            assert!(find(&subject, &pattern) > LIMIT);
            // Even two on a long enough run.
            assert!(find(&vec![b'a'; 3000], b"a*a*b") > LIMIT);
        }

        #[test]
        fn ordinary_patterns_are_cheap() {
            let line = b"strength=12";
            assert!(find(line, b"^(%w+)=(%d+)$") < 10_000);
            let text = b"the quick  brown fox\tjumps over the lazy dog ".repeat(23);
            assert!(text.len() > 1000);
            assert!(estimate(Op::Gsub, &text, b"%s+", 0, false, LIMIT) < 20_000);
            assert!(estimate(Op::Gmatch, &text, b"(%w+)%s*=%s*(%w+)", 0, false, LIMIT) < 200_000);
            let spaces = vec![b' '; 1024];
            assert!(estimate(Op::Gsub, &spaces, b"%s+", 0, false, LIMIT) < 2_000_000);
        }

        #[test]
        fn plain_find_is_bounded_by_n_times_m() {
            let subject = vec![b'a'; 1 << 20];
            let needle = [vec![b'a'; 1 << 19], b"b".to_vec()].concat();
            assert!(estimate(Op::Find, &subject, &needle, 0, true, LIMIT) > LIMIT);
            assert!(estimate(Op::Find, &subject, b"needle", 0, true, LIMIT) < 10_000_000);
        }

        #[test]
        fn malformed_tails_count_what_comes_before() {
            let subject = vec![b'a'; 3000];
            assert!(find(&subject, b"a*a*a*b%") > LIMIT);
            assert!(find(b"abc", b"[a") <= 10);
        }
    }
}

// ---------------------------------------------------------------------------------------
// The sandbox's own Lua.

/// Runs once with the Rust helpers as its argument, before any ruleset code. Each wrapper
/// keeps the original in a local named like the function (so `bad argument` messages still
/// name it), which no script can reach: there is no debug library.
const SANDBOX_LUA: &str = r##"
local host = ...
local check_trip, charge, refuse_binary, guard_pattern, log_line, check_source =
  host.check_trip, host.charge, host.refuse_binary, host.guard_pattern, host.log,
  host.check_source
local format_has_pointer = host.format_has_pointer
local type, select, error, rawget, getmetatable, tointeger, maxinteger =
  type, select, error, rawget, getmetatable, math.tointeger, math.maxinteger
-- Originals used by the wrappers themselves, on text they control or with plain search.
local raw_match, raw_find, raw_tostring = string.match, string.find, tostring

-- Results up to this many bytes (or values) are paid for by the call instruction itself.
local BIG = 4096

local function pass(...) return ... end

local function charged(s)
  if #s > BIG then charge(#s) end
  return s
end

local function charged_count(...)
  local n = select("#", ...)
  if n > BIG then charge(n * 16) end
  return ...
end

local function charge_input(s)
  if type(s) == "string" and #s > BIG then charge(#s) end
end

-- An exhausted budget or deadline is raised again as soon as a protected call returns.
local function after_protected(...)
  check_trip()
  return ...
end

do
  local pcall, xpcall = pcall, xpcall
  _ENV.pcall = function(...) return after_protected(pcall(...)) end
  -- Lua calls the message handler where the error is raised. For a trip that is inside the
  -- count hook, where hooks are off: the script's handler must never run there.
  _ENV.xpcall = function(f, handler, ...)
    if type(handler) ~= "function" then
      error("bad argument #2 to 'xpcall' (function expected, got " ..
        (handler == nil and "no value" or type(handler)) .. ")", 2)
    end
    local function guarded_handler(e)
      check_trip()
      return handler(e)
    end
    return after_protected(xpcall(f, guarded_handler, ...))
  end
end

-- Text without addresses, which change from run to run.
local function describe(v)
  local t = type(v)
  if t == "string" or t == "number" or t == "boolean" or t == "nil" then
    return raw_tostring(v)
  end
  local s = raw_tostring(v)
  -- Only Lua's own `kind: 0x...` is short; a long text came from __tostring.
  if #s > 80 then return s end
  return raw_match(s, "^(.*): 0x%x+$") or s
end

do
  _ENV.tostring = function(...)
    if select("#", ...) == 0 then
      error("bad argument #1 to 'tostring' (value expected)", 2)
    end
    return describe((...))
  end
end

do
  local concat = table.concat
  _ENV.print = function(...)
    local parts = {}
    for i = 1, select("#", ...) do
      parts[i] = describe((select(i, ...)))
    end
    log_line(concat(parts, "\t"))
  end
end

do
  local setmetatable = setmetatable
  _ENV.setmetatable = function(t, mt)
    if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
      error("setmetatable: __gc metamethods are not allowed in the sandbox (finalizers run " ..
        "outside the instruction budget); release resources explicitly instead", 2)
    end
    return (setmetatable(t, mt))
  end
end

do
  local collectgarbage = collectgarbage
  _ENV.collectgarbage = function(option)
    if option == "count" then
      return (collectgarbage("count"))
    end
    local shown = type(option) == "string" and ("%q"):format(option) or describe(option)
    error("collectgarbage(" .. shown .. ") is not allowed in the sandbox; only " ..
      "collectgarbage(\"count\") is (the host manages memory)", 2)
  end
end

do
  local load, byte, concat = load, string.byte, table.concat
  _ENV.load = function(chunk, chunkname, mode, ...)
    if type(chunk) == "function" then
      -- Read it all here: Lua would call the reader in protected mode (swallowing a trip),
      -- and the whole text must be checked before it is compiled.
      local pieces, n = {}, 0
      while true do
        local piece = chunk()
        if piece == nil or piece == "" then break end
        if type(piece) ~= "string" then
          return nil, "reader function must return a string"
        end
        n = n + 1
        pieces[n] = piece
      end
      chunk = concat(pieces)
    end
    if type(chunk) == "string" then
      if byte(chunk, 1) == 27 then refuse_binary() end
      charge_input(chunk)
      local refused = check_source(chunk, type(chunkname) == "string" and chunkname or nil)
      if refused then return nil, refused end
    end
    if select("#", ...) > 0 then
      return after_protected(load(chunk, chunkname, "t", (...)))
    end
    return after_protected(load(chunk, chunkname, "t"))
  end
end

do
  local tonumber = tonumber
  _ENV.tonumber = function(v, ...)
    charge_input(v)
    return pass(tonumber(v, ...))
  end
end

-- Deterministic traversal: Lua seeds string hashes from the clock, so raw `next` order
-- changes from run to run. Keys are visited as numbers (ascending), strings (ascending),
-- false, true, then other keys in raw order. The keys are distinct, so Lua's sort (whatever
-- pivots it picks) has only one possible result.
do
  local next, pairs, sort, rawequal = next, pairs, table.sort, rawequal

  local function sorted_keys(t)
    local keys, strings, others = {}, {}, nil
    local n, n_strings, n_others, has_false, has_true = 0, 0, 0, false, false
    for k in next, t do
      local kind = type(k)
      if kind == "number" then
        n = n + 1; keys[n] = k
      elseif kind == "string" then
        n_strings = n_strings + 1; strings[n_strings] = k
      elseif k == false then
        has_false = true
      elseif k == true then
        has_true = true
      else
        others = others or {}
        n_others = n_others + 1; others[n_others] = k
      end
    end
    sort(keys)
    sort(strings)
    for i = 1, n_strings do n = n + 1; keys[n] = strings[i] end
    if has_false then n = n + 1; keys[n] = false end
    if has_true then n = n + 1; keys[n] = true end
    for i = 1, n_others do n = n + 1; keys[n] = others[i] end
    return keys
  end

  -- Sorting is most of the cost, so the sorted keys of each table are kept (weakly) and
  -- reused while the table still has exactly those keys: as many keys, all still present.
  local sorted_cache = setmetatable({}, { __mode = "k" })
  local function ordered_keys(t)
    local keys = sorted_cache[t]
    if keys ~= nil then
      local count = 0
      for _ in next, t do count = count + 1 end
      if count == #keys then
        for i = 1, count do
          if rawget(t, keys[i]) == nil then
            count = -1
            break
          end
        end
        if count >= 0 then return keys end
      end
    end
    keys = sorted_keys(t)
    sorted_cache[t] = keys
    return keys
  end

  local function check(t, name)
    if type(t) ~= "table" then
      error("bad argument #1 to '" .. name .. "' (table expected, got " ..
        (t == nil and "no value" or type(t)) .. ")", 3)
    end
  end

  _ENV.pairs = function(t)
    if type(t) == "table" then
      local mt = getmetatable(t)
      if not (type(mt) == "table" and rawget(mt, "__pairs") ~= nil) then
        local keys, i = ordered_keys(t), 0
        return function()
          while true do
            i = i + 1
            local k = keys[i]
            if k == nil then return nil end
            local v = rawget(t, k)
            if v ~= nil then return k, v end
          end
        end, t, nil
      end
    end
    return pass(pairs(t))
  end

  -- `next` remembers the last table it walked, so `for k, v in next, t` sorts once.
  local walked, walked_keys, walked_at = nil, nil, 0

  local function first_key(t)
    local number, string, has_false, has_true, other
    for k in next, t do
      local kind = type(k)
      if kind == "number" then
        if number == nil or k < number then number = k end
      elseif kind == "string" then
        if string == nil or k < string then string = k end
      elseif k == false then
        has_false = true
      elseif k == true then
        has_true = true
      elseif other == nil then
        other = k
      end
    end
    if number ~= nil then return number end
    if string ~= nil then return string end
    if has_false then return false end
    if has_true then return true end
    return other
  end

  _ENV.next = function(t, k)
    check(t, "next")
    if k == nil then
      local first = first_key(t)
      if first == nil then return nil end
      return first, rawget(t, first)
    end
    if walked ~= t or not rawequal(walked_keys[walked_at], k) then
      walked, walked_keys, walked_at = t, ordered_keys(t), nil
      for i = 1, #walked_keys do
        if rawequal(walked_keys[i], k) then walked_at = i; break end
      end
      if walked_at == nil then
        walked = nil
        error("invalid key to 'next'", 2)
      end
    end
    while true do
      walked_at = walked_at + 1
      local nk = walked_keys[walked_at]
      if nk == nil then return nil end
      local v = rawget(t, nk)
      if v ~= nil then return nk, v end
    end
  end
end

-- Patterns: the Rust guard bounds the worst case before the C matcher runs.
do
  local find = string.find
  function string.find(s, pattern, init, plain)
    guard_pattern(1, s, pattern, init, plain)
    return pass(find(s, pattern, init, plain))
  end
end
do
  local match = string.match
  function string.match(s, pattern, init)
    guard_pattern(2, s, pattern, init, nil)
    return pass(match(s, pattern, init))
  end
end
do
  local gmatch = string.gmatch
  function string.gmatch(s, pattern, init)
    guard_pattern(3, s, pattern, init, nil)
    return pass(gmatch(s, pattern, init))
  end
end
do
  local gsub = string.gsub
  function string.gsub(s, pattern, repl, n)
    guard_pattern(4, s, pattern, nil, nil)
    local result, count = gsub(s, pattern, repl, n)
    return charged(result), count
  end
end

-- String functions whose work grows with their result are charged for big results.
do
  local rep = string.rep
  function string.rep(...) return charged(rep(...)) end
end
do
  local sub = string.sub
  function string.sub(...) return charged(sub(...)) end
end
do
  local upper = string.upper
  function string.upper(...) return charged(upper(...)) end
end
do
  local lower = string.lower
  function string.lower(...) return charged(lower(...)) end
end
do
  local reverse = string.reverse
  function string.reverse(...) return charged(reverse(...)) end
end
do
  local char = string.char
  function string.char(...) return charged(char(...)) end
end
do
  local pack = string.pack
  function string.pack(...) return charged(pack(...)) end
end
do
  local byte = string.byte
  function string.byte(...) return charged_count(byte(...)) end
end
do
  local unpack = string.unpack
  function string.unpack(fmt, s, ...)
    charge_input(s)
    return pass(unpack(fmt, s, ...))
  end
end
do
  local format, unpack = string.format, table.unpack
  local function object(v)
    local t = type(v)
    return t == "table" or t == "function" or t == "userdata" or t == "thread"
  end
  function string.format(fmt, ...)
    if type(fmt) == "string" and raw_find(fmt, "p", 1, true) and format_has_pointer(fmt) then
      error("bad argument #1 to 'format' (%p shows an address, which changes from run " ..
        "to run; the sandbox does not allow it)", 2)
    end
    local n = select("#", ...)
    for i = 1, n do
      if object((select(i, ...))) then
        local args = { ... }
        for j = i, n do
          if object(args[j]) then args[j] = describe(args[j]) end
        end
        return charged(format(fmt, unpack(args, 1, n)))
      end
    end
    return charged(format(fmt, ...))
  end
end

do
  local char, codepoint, len, offset = utf8.char, utf8.codepoint, utf8.len, utf8.offset
  function utf8.char(...) return charged(char(...)) end
  function utf8.codepoint(...) return charged_count(codepoint(...)) end
  function utf8.len(s, ...)
    charge_input(s)
    return pass(len(s, ...))
  end
  function utf8.offset(s, ...)
    charge_input(s)
    return pass(offset(s, ...))
  end
end

-- Tables: the C versions loop as far as #t or their arguments say without a hook tick;
-- these loops are Lua, so every step is counted.
do
  local concat, unpack = table.concat, table.unpack
  function table.concat(...) return charged(concat(...)) end
  function table.unpack(...) return charged_count(unpack(...)) end
end

local function check_table(t, position, name)
  local kind = type(t)
  if kind ~= "table" and kind ~= "userdata" then
    error("bad argument #" .. position .. " to '" .. name .. "' (table expected, got " ..
      (kind == "nil" and "no value" or kind) .. ")", 3)
  end
end

local function check_integer(v, position, name)
  local i = tointeger(v)
  if i == nil then
    local kind = type(v)
    error("bad argument #" .. position .. " to '" .. name .. "' (" ..
      (kind == "number" and "number has no integer representation" or
       "number expected, got " .. (kind == "nil" and "no value" or kind)) .. ")", 3)
  end
  return i
end

function table.insert(t, ...)
  check_table(t, 1, "insert")
  local e = #t + 1
  local n = select("#", ...)
  if n == 1 then
    t[e] = ...
    return
  elseif n ~= 2 then
    error("wrong number of arguments to 'insert'", 2)
  end
  local pos, value = ...
  pos = check_integer(pos, 2, "insert")
  if pos < 1 or pos > e then
    error("bad argument #2 to 'insert' (position out of bounds)", 2)
  end
  for i = e, pos + 1, -1 do
    t[i] = t[i - 1]
  end
  t[pos] = value
end

function table.remove(t, pos)
  check_table(t, 1, "remove")
  local size = #t
  if pos == nil then
    pos = size
  else
    pos = check_integer(pos, 2, "remove")
    if pos ~= size and (pos < 1 or pos > size + 1) then
      error("bad argument #2 to 'remove' (position out of bounds)", 2)
    end
  end
  local result = t[pos]
  while pos < size do
    t[pos] = t[pos + 1]
    pos = pos + 1
  end
  t[pos] = nil
  return result
end

function table.move(a1, f, e, t, a2)
  f = check_integer(f, 2, "move")
  e = check_integer(e, 3, "move")
  t = check_integer(t, 4, "move")
  if a2 == nil then a2 = a1 end
  check_table(a1, 1, "move")
  check_table(a2, 5, "move")
  if e >= f then
    if not (f > 0 or e < maxinteger + f) then
      error("bad argument #3 to 'move' (too many elements to move)", 2)
    end
    local n = e - f + 1
    if t > maxinteger - n + 1 then
      error("bad argument #4 to 'move' (destination wrap around)", 2)
    end
    if t > e or t <= f or a1 ~= a2 then
      for i = 0, n - 1 do
        a2[t + i] = a1[f + i]
      end
    else
      for i = n - 1, 0, -1 do
        a2[t + i] = a1[f + i]
      end
    end
  end
  return a2
end

do
  local sort = table.sort
  local function less(a, b) return a < b end
  -- Stable bottom-up merge sort: deterministic whatever the comparator says.
  local function merge_sort(t, n, lt)
    local a, b = {}, {}
    for i = 1, n do a[i] = t[i] end
    local width = 1
    while width < n do
      local lo = 1
      while lo <= n do
        local mid = lo + width
        if mid > n + 1 then mid = n + 1 end
        local hi = mid + width
        if hi > n + 1 then hi = n + 1 end
        local l, r, k = lo, mid, lo
        while l < mid and r < hi do
          if lt(a[r], a[l]) then
            b[k] = a[r]; r = r + 1
          else
            b[k] = a[l]; l = l + 1
          end
          k = k + 1
        end
        while l < mid do b[k] = a[l]; l = l + 1; k = k + 1 end
        while r < hi do b[k] = a[r]; r = r + 1; k = k + 1 end
        lo = hi
      end
      a, b = b, a
      width = width * 2
    end
    for i = 1, n do t[i] = a[i] end
  end
  function table.sort(t, lt)
    check_table(t, 1, "sort")
    if lt ~= nil and type(lt) ~= "function" then
      error("bad argument #2 to 'sort' (function expected, got " .. type(lt) .. ")", 2)
    end
    local n = #t
    -- Lua's own sort only randomizes pivots above 100 elements.
    if n <= 100 and type(t) == "table" and getmetatable(t) == nil then
      sort(t, lt)
      return
    end
    merge_sort(t, n, lt or less)
  end
end

getmetatable("").__metatable = false
"##;

#[cfg(test)]
mod tests {
    use super::find_close_attribute;

    #[test]
    fn pointer_conversions_are_found() {
        use super::format_has_pointer;
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
