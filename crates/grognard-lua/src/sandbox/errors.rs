//! Error wording: turns what Lua and mlua report (syntax errors, runtime errors with their
//! tracebacks, type errors naming Rust types, memory errors, panics in host code) into one
//! clear message that names the script and line and suggests a fix where it can.

use mlua::Function;

use crate::error::{HookError, HookErrorKind};

use super::{Limits, SANDBOX_SHORT_SRC, Trip};

/// Kind and message of an mlua error, collecting the innermost traceback on the way.
pub(super) fn describe_error(
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

pub(super) fn memory_message(limits: &Limits) -> String {
    format!(
        "the script ran out of memory (the sandbox allows {} bytes, {} MiB); look for a table \
         or string that keeps growing, or recursion that never ends",
        limits.memory_bytes,
        limits.memory_bytes / (1024 * 1024)
    )
}

/// Splits mlua's `message\nstack traceback:\n...` in two.
pub(super) fn split_traceback(message: &str) -> (String, Option<String>) {
    match message.find("\nstack traceback:") {
        Some(at) => (message[..at].to_owned(), Some(message[at + 1..].to_owned())),
        None => (message.to_owned(), None),
    }
}

/// `message` without a leading `[sandbox]:123: `.
pub(super) fn strip_sandbox_location(message: &str) -> &str {
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
pub(super) fn starts_with_location(message: &str) -> bool {
    message.split_once(':').is_some_and(|(_, rest)| {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && rest.as_bytes().get(digits) == Some(&b':')
    })
}

/// `file:line` of the innermost script frame of a Lua traceback, for errors raised without
/// a position (non-string error objects, errors raised inside C functions).
pub(super) fn first_script_frame(traceback: &str) -> Option<String> {
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
pub(super) fn describe_error_object(message: &str) -> String {
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
pub(super) fn lua_name_of_rust_type(rust: &str) -> String {
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

pub(super) fn with_article(noun: &str) -> String {
    match noun {
        "nil" => "nil".to_owned(),
        _ if noun.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {noun}"),
        _ => format!("a {noun}"),
    }
}

pub(super) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(message) = payload.downcast_ref::<&str>() {
        (*message).to_owned()
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else {
        "no message".to_owned()
    }
}

/// The closest name within a third of its length (at least 2 edits), if any.
pub(super) fn did_you_mean<'a>(wanted: &str, available: &'a [String]) -> Option<&'a str> {
    let wanted_lower = wanted.to_lowercase();
    let threshold = (wanted.chars().count() / 3).max(2);
    available
        .iter()
        .map(|name| (edit_distance(&wanted_lower, &name.to_lowercase()), name))
        .filter(|(distance, _)| *distance <= threshold)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, name)| name.as_str())
}

pub(super) fn edit_distance(a: &str, b: &str) -> usize {
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
