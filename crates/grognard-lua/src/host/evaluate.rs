//! The `evaluate` hook: a ruleset's own judgement of a position, which a search policy
//! asks at the end of each imagined line of play instead of (or on top of) its score of
//! victory points and material.
//!
//! The hook is `evaluate(view, score)`. `view` is the side's view as a Lua table — the
//! same table `grognard view --side SIDE --json` prints under `"view"` and a Lua policy
//! receives — and nothing else: no `game` object, so it cannot read what the side has not
//! sighted. `score` is the search's own value of the position, from −1 to 1. It returns a
//! number on that scale (clamped to −1..1), or `nil` to keep `score`; anything else is an
//! error, and so is what the script raises or a sandbox limit it hits, each naming the
//! script and line. This module also owns the JSON-to-Lua conversion the view goes
//! through, which Lua policies share.

use grognard_kernel::hooks::{HookFailure, HookPoint};
pub use grognard_kernel::view::View;
use mlua::{Lua, Value};

use super::LuaHooks;

/// Deepest JSON nesting converted (views are a few levels deep).
const MAX_DEPTH: usize = 32;

/// Asks the ruleset's `evaluate` hook, if it binds one, to judge `view` (see the module
/// doc); `Ok(None)` when none is bound or it returned `nil`.
pub(super) fn run(hooks: &LuaHooks, view: &View, score: f64) -> Result<Option<f64>, HookFailure> {
    let Some(bound) = hooks.bound(HookPoint::Evaluate) else {
        return Ok(None);
    };
    let what = format!("hook evaluate ({})", bound.label);
    let json = serde_json::to_value(view).map_err(|e| HookFailure {
        message: format!("{what}: the view could not be written out: {e}"),
    })?;
    let lua = hooks.sandbox.lua();
    let answer: Value = hooks
        .sandbox
        .call_with(&what, &bound.function, || {
            let view = json_to_lua(lua, &json)?;
            bound.function.call::<Value>((view, score))
        })
        .map_err(|e| hooks.failed(bound, e))?;
    let info = bound.function.info();
    let at = format!(
        "{}:{}",
        info.short_src.as_deref().unwrap_or("?"),
        info.line_defined.unwrap_or(0)
    );
    let wrong = |what: String| {
        hooks.wrong(
            bound,
            HookFailure {
                message: format!(
                    "{at}: `{}` returned {what}; return a number from -1 (as bad as a loss) \
                     to 1 (as good as a win), or nil to keep the search's own score",
                    bound.label
                ),
            },
        )
    };
    let value = match answer {
        Value::Nil => return Ok(None),
        Value::Integer(i) => i as f64,
        Value::Number(x) if x.is_finite() => x,
        Value::Number(x) => return Err(wrong(format!("{x}, which is not a finite number"))),
        other => return Err(wrong(format!("a {}", other.type_name()))),
    };
    Ok(Some(value.clamp(-1.0, 1.0)))
}

/// A JSON value as a Lua value: objects as tables with string keys, arrays as sequences,
/// `null` as `nil`.
///
/// # Errors
/// A value nested deeper than 32 levels, or the sandbox's memory running out.
pub fn json_to_lua(lua: &Lua, v: &serde_json::Value) -> mlua::Result<Value> {
    convert(lua, v, 0)
}

fn convert(lua: &Lua, v: &serde_json::Value, depth: usize) -> mlua::Result<Value> {
    use serde_json::Value as J;
    if depth > MAX_DEPTH {
        return Err(mlua::Error::runtime("value nested too deeply"));
    }
    Ok(match v {
        J::Null => Value::Nil,
        J::Bool(b) => Value::Boolean(*b),
        J::Number(n) => match n.as_i64() {
            Some(i) => Value::Integer(i),
            None => Value::Number(n.as_f64().unwrap_or(0.0)),
        },
        J::String(s) => Value::String(lua.create_string(s)?),
        J::Array(a) => {
            let t = lua.create_table_with_capacity(a.len(), 0)?;
            for (i, x) in a.iter().enumerate() {
                t.raw_set(i + 1, convert(lua, x, depth + 1)?)?;
            }
            Value::Table(t)
        }
        J::Object(m) => {
            let t = lua.create_table_with_capacity(0, m.len())?;
            for (k, x) in m {
                t.raw_set(k.as_str(), convert(lua, x, depth + 1)?)?;
            }
            Value::Table(t)
        }
    })
}
