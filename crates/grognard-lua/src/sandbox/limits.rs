//! What a script may spend, and the meter that enforces it: [`Limits`] (instructions,
//! memory, time, print log), the tick constants of the count hook, the shared
//! [`Meter`] the hook and the library replacements charge, and the trip that stops a script
//! once a budget is spent (a `pcall` cannot swallow it).

use std::fmt;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use mlua::{HookTriggers, Lua, VmState};

use crate::error::HookError;

use super::SANDBOX_SHORT_SRC;

/// What one game's scripts may use. Every limit applies to each [`Sandbox::call`](super::Sandbox::call) (and to
/// running a module's top level in [`Sandbox::load_module`](super::Sandbox::load_module)), except memory, which is a cap
/// on the whole state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most bytes the Lua state may hold, code and data of all modules included.
    pub memory_bytes: usize,
    /// Most Lua VM instructions one call may execute (C library work is charged in the same
    /// unit, see the module documentation). Exhausting it is deterministic.
    pub instructions_per_call: u64,
    /// Longest one call may run, counted on the calling thread's CPU clock where the
    /// platform has one (Linux), on the wall clock elsewhere. A backstop for work the
    /// instruction count cannot see; unlike the budget it depends on the machine, so it must
    /// sit far above what any honest hook needs. CPU time, not wall time, because a game
    /// must play the same on a loaded machine: time the thread spends waiting for a core
    /// (or stopped) would otherwise trip an honest hook, and a trip inside a listing leaves
    /// orders out, so a replay or a `sim` run would quietly differ.
    pub time_per_call: Duration,
}

impl Default for Limits {
    /// 16 MiB, 2,000,000 instructions, 250 ms.
    ///
    /// * **16 MiB** holds a ruleset's modules and any lookup table a hook could want (a table
    ///   of 10,000 entries is well under 1 MiB) with room to spare, stays small next to a
    ///   game's own data even with several games open in the editor, and bounds the largest
    ///   string or table a single C function can be handed (copying 16 MiB takes a few ms).
    /// * **2,000,000 instructions** is about 5–15 ms of Lua (hook overhead included): a
    ///   typical hook (a movement cost, a modifier) runs 50–500 instructions, a heavy one
    ///   that walks every piece of a big game perhaps 50,000, so the budget leaves a wide
    ///   margin while still stopping a runaway loop before a user notices.
    /// * **250 ms** (of the thread's CPU time on Linux; of the wall clock elsewhere, where a
    ///   loaded machine can still trip it) is 25 times what the budget allows for real work,
    ///   so machine speed never makes an honest hook fail (which would break replays), and on
    ///   Linux a loaded machine cannot either, since waiting for a core is not counted; yet a
    ///   stuck editor frame stays under a quarter of a second of work.
    fn default() -> Self {
        Self {
            memory_bytes: 16 * 1024 * 1024,
            instructions_per_call: 2_000_000,
            time_per_call: Duration::from_millis(250),
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
pub(super) const PATTERN_STEPS_PER_UNIT: u64 = 4;
/// Charges below this many instructions' worth are not worth reading the clock for.
pub(super) const SMALL_WORK_UNITS: u64 = 256;
/// Most bytes [`Sandbox::take_printed`](super::Sandbox::take_printed) keeps between two reads.
pub const PRINT_LOG_LIMIT: usize = 64 * 1024;

// ---------------------------------------------------------------------------------------
// The meter: budget, deadline and the sticky trip, shared by the hook and the Rust helpers.

pub(super) const NOT_TRIPPED: u8 = 0;
pub(super) const TRIPPED_BUDGET: u8 = 1;
pub(super) const TRIPPED_DEADLINE: u8 = 2;
/// [`Meter::cpu_start_nanos`] before the call's first check.
const CPU_UNREAD: u64 = u64::MAX;

pub(super) struct Meter {
    /// The wall clock's zero: ticks read the cheap wall clock, and only a call whose wall
    /// time passed the limit asks its thread's CPU clock (a system call) what it really used.
    pub(super) base: Instant,
    pub(super) instruction_limit: u64,
    pub(super) time_nanos: u64,
    /// Nesting of `call`s; the hook and the charges only count inside one.
    pub(super) depth: AtomicU32,
    /// VM instructions counted by hook ticks in the current outermost call.
    pub(super) instructions: AtomicU64,
    /// Instructions' worth of C library work charged in the current outermost call.
    pub(super) charged: AtomicU64,
    /// Current hook interval, [`COARSE_TICK`] or [`FINE_TICK`].
    pub(super) tick: AtomicU32,
    /// On the wall clock ([`Self::now_nanos`]): past it, the call's CPU time is asked.
    pub(super) deadline_nanos: AtomicU64,
    /// The thread's CPU clock at the call's first check ([`CPU_UNREAD`] before it).
    pub(super) cpu_start_nanos: AtomicU64,
    pub(super) last_tick_nanos: AtomicU64,
    pub(super) tripped: AtomicU8,
    /// Where the script was when the budget or the deadline tripped.
    pub(super) trip_location: Mutex<Option<String>>,
}

impl Meter {
    pub(super) fn new(limits: &Limits) -> Self {
        Self {
            base: Instant::now(),
            instruction_limit: limits.instructions_per_call,
            time_nanos: u64::try_from(limits.time_per_call.as_nanos()).unwrap_or(u64::MAX),
            depth: AtomicU32::new(0),
            instructions: AtomicU64::new(0),
            charged: AtomicU64::new(0),
            tick: AtomicU32::new(COARSE_TICK),
            deadline_nanos: AtomicU64::new(u64::MAX),
            cpu_start_nanos: AtomicU64::new(CPU_UNREAD),
            last_tick_nanos: AtomicU64::new(0),
            tripped: AtomicU8::new(NOT_TRIPPED),
            trip_location: Mutex::new(None),
        }
    }

    /// Wall time since the meter was made, in nanoseconds.
    pub(super) fn now_nanos(&self) -> u64 {
        u64::try_from(self.base.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    pub(super) fn location(&self) -> MutexGuard<'_, Option<String>> {
        self.trip_location
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Enters a call; returns whether it is the outermost one (which resets the meter).
    pub(super) fn enter(&self) -> bool {
        if self.depth.fetch_add(1, Ordering::Relaxed) != 0 {
            return false;
        }
        self.instructions.store(0, Ordering::Relaxed);
        self.charged.store(0, Ordering::Relaxed);
        self.tick.store(COARSE_TICK, Ordering::Relaxed);
        let now = self.now_nanos();
        self.deadline_nanos
            .store(now.saturating_add(self.time_nanos), Ordering::Relaxed);
        self.last_tick_nanos.store(now, Ordering::Relaxed);
        self.cpu_start_nanos.store(CPU_UNREAD, Ordering::Relaxed);
        self.tripped.store(NOT_TRIPPED, Ordering::Relaxed);
        *self.location() = None;
        true
    }

    /// Leaves a call; returns the trip state, which is cleared when the outermost call ends
    /// (errors raised outside calls, such as syntax errors, must not be blamed on it).
    pub(super) fn leave(&self) -> u8 {
        let tripped = self.tripped();
        if self.depth.fetch_sub(1, Ordering::Relaxed) == 1 {
            self.tripped.store(NOT_TRIPPED, Ordering::Relaxed);
        }
        tripped
    }

    pub(super) fn active(&self) -> bool {
        self.depth.load(Ordering::Relaxed) != 0
    }

    pub(super) fn tripped(&self) -> u8 {
        self.tripped.load(Ordering::Relaxed)
    }

    /// The error to raise again after a trip, if any.
    pub(super) fn sticky(&self) -> mlua::Result<()> {
        match self.tripped() {
            NOT_TRIPPED => Ok(()),
            TRIPPED_DEADLINE => Err(mlua::Error::external(Trip::Deadline)),
            _ => Err(mlua::Error::external(Trip::InstructionBudget)),
        }
    }

    pub(super) fn trip(&self, lua: &Lua, code: u8) -> mlua::Error {
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
    pub(super) fn check_budget(&self, lua: &Lua, instructions: u64) -> mlua::Result<()> {
        let coarse = u64::from(COARSE_TICK);
        let counted =
            (instructions / coarse * coarse).saturating_add(self.charged.load(Ordering::Relaxed));
        if counted > self.instruction_limit {
            return Err(self.trip(lua, TRIPPED_BUDGET));
        }
        Ok(())
    }

    /// Trips the deadline once the call has used [`Limits::time_per_call`] of its thread's
    /// CPU time (the wall time where there is no such clock). `now` is the wall clock: while
    /// it is short of the limit the CPU time is too, and nothing else is read; past it the
    /// CPU clock says whether the time was the call's own work or waiting for a core, and
    /// in the second case the wall deadline moves on by what is left.
    pub(super) fn check_deadline(&self, lua: &Lua, now: u64) -> mlua::Result<()> {
        // The CPU clock is read at a call's first check (its first tick, or a charge for C
        // library work before it: a long string or pattern search), and again only once the
        // wall clock is past the deadline: calls that end before 1,000 instructions and
        // charge nothing (most hooks) never pay for it, and the few microseconds of work
        // before the first check are not counted.
        if self.cpu_start_nanos.load(Ordering::Relaxed) == CPU_UNREAD
            && let Some(cpu) = thread_cpu_nanos()
        {
            self.cpu_start_nanos.store(cpu, Ordering::Relaxed);
        }
        if now <= self.deadline_nanos.load(Ordering::Relaxed) {
            return Ok(());
        }
        let start = self.cpu_start_nanos.load(Ordering::Relaxed);
        let used = match thread_cpu_nanos() {
            Some(cpu) if start != CPU_UNREAD => cpu.saturating_sub(start),
            _ => return Err(self.trip(lua, TRIPPED_DEADLINE)),
        };
        if used > self.time_nanos {
            return Err(self.trip(lua, TRIPPED_DEADLINE));
        }
        self.deadline_nanos.store(
            now.saturating_add(self.time_nanos - used),
            Ordering::Relaxed,
        );
        Ok(())
    }

    /// The count hook.
    pub(super) fn on_tick(self: &Arc<Self>, lua: &Lua) -> mlua::Result<VmState> {
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
    pub(super) fn charge(&self, lua: &Lua, units: u64) -> mlua::Result<()> {
        if !self.active() {
            return Ok(());
        }
        self.sticky()?;
        self.charged.fetch_add(units, Ordering::Relaxed);
        self.check_budget(lua, self.instructions.load(Ordering::Relaxed))?;
        self.check_deadline(lua, self.now_nanos())
    }
}

/// The calling thread's CPU time in nanoseconds.
#[cfg(target_os = "linux")]
fn thread_cpu_nanos() -> Option<u64> {
    use rustix::time::{ClockId, clock_gettime};
    let t = clock_gettime(ClockId::ThreadCPUTime);
    let secs = u64::try_from(t.tv_sec).ok()?;
    let nanos = u64::try_from(t.tv_nsec).ok()?;
    secs.checked_mul(1_000_000_000)?.checked_add(nanos)
}

/// The calling thread's CPU time: not asked for here (the wall clock stands in).
#[cfg(not(target_os = "linux"))]
fn thread_cpu_nanos() -> Option<u64> {
    None
}

pub(super) fn install_hook(lua: &Lua, meter: Arc<Meter>, every: u32) -> mlua::Result<()> {
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(every),
        move |lua, _debug| meter.on_tick(lua),
    )
}

/// `file:line` of the innermost script frame (skipping C functions and the sandbox's Lua).
pub(super) fn script_location(lua: &Lua) -> Option<String> {
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
pub(super) enum Trip {
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
    /// Lets host functions registered on [`Sandbox::lua`](super::Sandbox::lua) propagate a nested call's error
    /// through Lua without losing its kind.
    fn from(error: HookError) -> Self {
        mlua::Error::external(error)
    }
}

pub(super) fn units_for_steps(steps: u64) -> u64 {
    steps / PATTERN_STEPS_PER_UNIT
}
