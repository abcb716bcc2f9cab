//! The `game` object's requests for changes, queued for the kernel to validate after the
//! hook returns.

use std::rc::Rc;

use grognard_kernel::geometry::Cell;
use grognard_kernel::hooks::HookCommand;
use mlua::{Lua, Table, Value, Variadic};

use crate::names::{counter_id, flag_id, mode_id};

use super::{Call, Slot, add_method, facing_arg, piece, table_point};

/// Adds these functions to the object's table.
pub(super) fn add(lua: &Lua, slot: &Rc<Slot>, game: &Table) -> mlua::Result<()> {
    // Changes, queued for the kernel.
    add_method(lua, slot, game, "add_counter", add_counter)?;
    add_method(lua, slot, game, "set_flag", set_flag)?;
    add_method(lua, slot, game, "set_mode", set_mode)?;
    add_method(lua, slot, game, "remove", remove)?;
    add_method(lua, slot, game, "place", place)?;
    add_method(lua, slot, game, "place_at", place_at)?;
    add_method(lua, slot, game, "contact", contact)?;
    add_method(lua, slot, game, "face", face)?;
    add_method(lua, slot, game, "attach", attach)?;
    add_method(lua, slot, game, "add_feature", add_feature)?;
    add_method(lua, slot, game, "note", note)?;
    add_method(lua, slot, game, "refuse", refuse)?;
    add_method(lua, slot, game, "announce", announce)?;
    Ok(())
}

fn add_counter(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, name, amount): (Table, Value, String, Option<i32>),
) -> mlua::Result<()> {
    let world = cx.world;
    let rules = world.rules;
    let p = piece(world, &u)?;
    cx.queue(HookCommand::AddCounter {
        piece: p.id,
        counter: counter_id(rules, &name)?,
        amount: amount.unwrap_or(1),
    })
}

fn set_flag(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, name, on): (Table, Value, String, Option<bool>),
) -> mlua::Result<()> {
    let world = cx.world;
    let rules = world.rules;
    let p = piece(world, &u)?;
    cx.queue(HookCommand::SetFlag {
        piece: p.id,
        flag: flag_id(rules, &name)?,
        on: on.unwrap_or(true),
    })
}

fn set_mode(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, name): (Table, Value, String),
) -> mlua::Result<()> {
    let world = cx.world;
    let rules = world.rules;
    let p = piece(world, &u)?;
    cx.queue(HookCommand::SetMode {
        piece: p.id,
        mode: mode_id(rules, &name)?,
    })
}

fn remove(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, reason): (Table, Value, Option<String>),
) -> mlua::Result<()> {
    let world = cx.world;
    let p = piece(world, &u)?;
    cx.queue(HookCommand::Remove {
        piece: p.id,
        reason: reason.unwrap_or_else(|| "removed by a hook".into()),
    })
}

fn place(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, col, row, reason): (Table, Value, i32, i32, Option<String>),
) -> mlua::Result<()> {
    let world = cx.world;
    let p = piece(world, &u)?;
    cx.queue(HookCommand::Place {
        piece: p.id,
        cell: Cell::new(col, row),
        reason: reason.unwrap_or_else(|| "placed by a hook".into()),
    })
}

fn place_at(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, x, y, facing, reason): (Table, Value, f64, f64, Option<f64>, Option<String>),
) -> mlua::Result<()> {
    let world = cx.world;
    let p = piece(world, &u)?;
    let facing = match facing {
        Some(f) if f.is_finite() => Some(grognard_kernel::geometry::open::Angle::new(
            (f * 10.0).round().rem_euclid(3600.0) as i32,
        )),
        Some(_) => {
            return Err(mlua::Error::runtime("a facing must be a number of degrees"));
        }
        None => None,
    };
    cx.queue(HookCommand::PlaceAt {
        piece: p.id,
        at: table_point(x, y)?,
        facing,
        reason: reason.unwrap_or_else(|| "placed by a hook".into()),
    })
}

fn contact(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, e): (Table, Value, Value),
) -> mlua::Result<()> {
    let world = cx.world;
    let (p, e) = (piece(world, &u)?, piece(world, &e)?);
    if world.board.grid().is_some() {
        return Err(mlua::Error::runtime("contact is for the open table"));
    }
    cx.queue(HookCommand::Contact {
        piece: p.id,
        with: e.id,
    })
}

fn face(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, dir): (Table, Value, String),
) -> mlua::Result<()> {
    let world = cx.world;
    let p = piece(world, &u)?;
    let grid = world
        .board
        .grid()
        .ok_or_else(|| mlua::Error::runtime("an open table has no grid facings"))?;
    cx.queue(HookCommand::Face {
        piece: p.id,
        facing: facing_arg(grid, &dir)?,
    })
}

fn attach(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, host): (Table, Value, Value),
) -> mlua::Result<()> {
    let world = cx.world;
    let p = piece(world, &u)?;
    let to = match host {
        Value::Nil => None,
        other => Some(piece(world, &other)?.id),
    };
    cx.queue(HookCommand::Attach { piece: p.id, to })
}

fn add_feature(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, name, c1, r1, c2, r2, reason): (Table, String, i32, i32, i32, i32, Option<String>),
) -> mlua::Result<()> {
    let world = cx.world;
    let rules = world.rules;
    let feature = rules
        .features
        .iter()
        .position(|f| f.name == name)
        .ok_or_else(|| mlua::Error::runtime(format!("unknown feature `{name}`")))?;
    cx.queue(HookCommand::AddFeature {
        feature: grognard_kernel::ids::FeatureId(feature as u16),
        a: Cell::new(c1, r1),
        b: Cell::new(c2, r2),
        reason: reason.unwrap_or_else(|| "added by a hook".into()),
    })
}

/// `game:note(text [, u1, u2, …])`: with pieces given, `{1}`, `{2}`… in `text` name them,
/// each side reading its own names for them.
fn note(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, text, named): (Table, String, Variadic<Value>),
) -> mlua::Result<()> {
    let text: String = text.chars().take(500).collect();
    if named.is_empty() {
        return cx.queue(HookCommand::Note(text));
    }
    naming(cx, text, &named, false)
}

/// A note naming `named` at `{1}`, `{2}`…, read by every side when `to_all`.
fn naming(
    cx: &Call<'_, '_, '_, '_>,
    text: String,
    named: &[Value],
    to_all: bool,
) -> mlua::Result<()> {
    if named.len() > 16 {
        return Err(mlua::Error::runtime("a note may name at most 16 pieces"));
    }
    let pieces = named
        .iter()
        .map(|u| piece(cx.world, u).map(|p| p.id))
        .collect::<mlua::Result<Vec<_>>>()?;
    cx.queue(HookCommand::NoteNaming {
        template: text,
        pieces,
        to_all,
    })
}

fn refuse(lua: &Lua, _cx: &Call<'_, '_, '_, '_>, (_, text): (Table, String)) -> mlua::Result<()> {
    // The rule's words reach the player as they are; where the script refused
    // is kept for its author (the error's traceback).
    let text: String = text.chars().take(500).collect();
    let at = lua
        .inspect_stack(1, |d| {
            let s = d.source();
            format!(
                "{}:{}",
                s.short_src.as_deref().unwrap_or("?"),
                d.current_line().unwrap_or(0)
            )
        })
        .unwrap_or_default();
    Err(mlua::Error::external(
        crate::error::HookError::new(crate::error::HookErrorKind::Refused, text).with_traceback(at),
    ))
}

/// `game:announce(text [, u1, u2, …])`: every side is told; with pieces, `{1}`, `{2}`… name
/// them, each side reading its own names for them.
fn announce(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, text, named): (Table, String, Variadic<Value>),
) -> mlua::Result<()> {
    let text: String = text.chars().take(500).collect();
    if named.is_empty() {
        return cx.queue(HookCommand::Announce(text));
    }
    naming(cx, text, &named, true)
}
