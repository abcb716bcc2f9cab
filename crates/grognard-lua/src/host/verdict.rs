//! The `result` hook's answer read into a verdict: `nil`, or who won (or a draw) and why.

use grognard_kernel::game::World;
use grognard_kernel::hooks::{HookFailure, HookVerdict};
use mlua::Value;

/// A `result` hook's answer: `nil` (no verdict), or `{winner = "side"}` / `{draw = true}`
/// with an optional `why`.
pub(super) fn verdict_from_lua(
    value: &Value,
    label: &str,
    world: &World<'_>,
) -> Result<Option<HookVerdict>, HookFailure> {
    let fail = |message: String| HookFailure {
        message: format!("{label} returned {message}"),
    };
    let table = match value {
        Value::Nil => return Ok(None),
        Value::Table(t) => t,
        other => {
            return Err(fail(format!(
                "{}; expected nil (no verdict) or a table {{winner = SIDE}} or {{draw = true}}",
                other.type_name()
            )));
        }
    };
    let winner: Value = table.raw_get("winner").unwrap_or(Value::Nil);
    let draw = matches!(table.raw_get::<Value>("draw"), Ok(Value::Boolean(true)));
    let names: Vec<&str> = world.sides.iter().map(|s| s.name.as_str()).collect();
    let winner = match (&winner, draw) {
        (Value::Nil, true) => None,
        (Value::String(s), false) => {
            let name = s.to_string_lossy();
            let i = names.iter().position(|n| *n == name).ok_or_else(|| {
                fail(format!(
                    "winner `{name}`, which is not a side; the sides are {}",
                    names.join(", ")
                ))
            })?;
            Some(grognard_kernel::ids::SideId(
                u8::try_from(i).unwrap_or(u8::MAX),
            ))
        }
        (Value::Nil, false) => {
            return Err(fail(
                "a table with neither `winner` nor `draw = true`; say who won, or that it is a \
                 draw, or return nil"
                    .to_owned(),
            ));
        }
        _ => {
            return Err(fail(format!(
                "winner = {} with draw = {draw}; give a side's name as `winner`, or \
                 `draw = true`, not both",
                winner.type_name()
            )));
        }
    };
    let why = match table.raw_get::<Value>("why") {
        Ok(Value::String(s)) => s.to_string_lossy(),
        _ => match winner {
            Some(w) => format!("{} wins ({label})", names[w.index()]),
            None => format!("a draw ({label})"),
        },
    };
    Ok(Some(HookVerdict { winner, why }))
}
