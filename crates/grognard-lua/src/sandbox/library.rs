//! The library set a script gets and its safe replacements: the globals removed, the print
//! log, `string.format` without `%p`, and the guarded pattern functions (`find`, `match`,
//! `gmatch`, `gsub`) that price a pattern before running it.

use std::sync::{Arc, Mutex, PoisonError};

use mlua::chunk::ChunkMode;
use mlua::{Lua, LuaString, Table, Value};

use super::{
    BYTES_PER_UNIT, CLOSE_REFUSED, Meter, PATTERN_STEP_LIMIT, PRINT_LOG_LIMIT, SANDBOX_CHUNK,
    SANDBOX_LUA, SMALL_WORK_UNITS, Trip, find_close_attribute, pattern, script_location,
    units_for_steps,
};

// ---------------------------------------------------------------------------------------
// The sandbox.

#[derive(Default)]
pub(super) struct PrintLog {
    pub(super) lines: Vec<String>,
    pub(super) bytes: usize,
    pub(super) truncated: bool,
}

impl PrintLog {
    pub(super) fn push(&mut self, line: String) {
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

// ---------------------------------------------------------------------------------------
// The library: what is removed, and the Rust helpers behind the Lua wrappers.

/// Globals that a script must never see. (`io`, `os`, `package`, `debug` are never loaded by
/// `new_with`; removing them again costs nothing and survives a future change of flags.)
pub(super) const REMOVED_GLOBALS: &[&str] = &[
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

pub(super) fn install_library(
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
pub(super) fn format_has_pointer(format: &[u8]) -> bool {
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

/// The pattern guard behind `string.find`, `match`, `gmatch` and `gsub`: refuses a call
/// whose worst case exceeds [`PATTERN_STEP_LIMIT`], charges the others. Invalid arguments are
/// let through for the original function to report.
pub(super) fn guard_pattern(
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

pub(super) fn coerce_to_string(lua: &Lua, value: Value) -> mlua::Result<Option<LuaString>> {
    match value {
        Value::String(string) => Ok(Some(string)),
        Value::Integer(_) | Value::Number(_) => lua.coerce_string(value),
        _ => Ok(None),
    }
}

/// Lua 5.4's `posrelatI(init) - 1`, or `None` when the call fails at once (start past the end).
pub(super) fn start_offset(init: i64, len: usize) -> Option<usize> {
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
