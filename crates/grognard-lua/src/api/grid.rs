//! The `game` object's grid reads: facings, arcs, neighbours, who stands where, zones of
//! control, attachments, and the line of sight between two cells.

use std::rc::Rc;

use grognard_kernel::geometry::Cell;
use grognard_kernel::piece::Place;
use mlua::{Lua, LuaString, Table, Value};

use crate::names::{NameList, find_named, interned, unit_handle};

use super::{Call, Slot, add_method, facing_arg, piece};

/// Adds these functions to the object's table.
pub(super) fn add(lua: &Lua, slot: &Rc<Slot>, game: &Table) -> mlua::Result<()> {
    // Grid reads: facing, arcs, neighbours, who stands where, zones, attachments.
    add_method(lua, slot, game, "facing", facing)?;
    add_method(lua, slot, game, "arc", arc)?;
    add_method(lua, slot, game, "neighbour", neighbour)?;
    add_method(lua, slot, game, "turned", turned)?;
    add_method(lua, slot, game, "unit_at", unit_at)?;
    add_method(lua, slot, game, "units_at", units_at)?;
    add_method(lua, slot, game, "zoc", zoc)?;
    add_method(lua, slot, game, "terrain_attribute", terrain_attribute)?;
    add_method(lua, slot, game, "features", features)?;
    // The centre-to-centre line between two cells, as the engine's line of sight traces
    // it: what a ruleset needs to judge its own obstacles (dead ground, firing over).
    add_method(lua, slot, game, "line", line)?;
    add_method(lua, slot, game, "blocks_sight", blocks_sight)?;
    add_method(lua, slot, game, "moved", moved)?;
    add_method(lua, slot, game, "allowance", allowance)?;
    add_method(lua, slot, game, "host", host)?;
    add_method(lua, slot, game, "attached", attached)?;
    Ok(())
}

fn facing(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u): (Table, Value),
) -> mlua::Result<Option<LuaString>> {
    let world = cx.world;
    let p = piece(world, &u)?;
    world
        .board
        .grid()
        .filter(|_| p.place.cell().is_some())
        .map(|g| {
            interned(
                lua,
                NameList::Facing,
                usize::from(p.facing.0),
                g.facing_name(p.facing),
            )
        })
        .transpose()
}

fn arc(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, a, b): (Table, Value, Value),
) -> mlua::Result<Option<LuaString>> {
    let world = cx.world;
    let rules = world.rules;
    let (a, b) = (piece(world, &a)?, piece(world, &b)?);
    let placed = |p| grognard_kernel::game::placed_on(rules, p);
    let arc = match (&a.place, &b.place) {
        // Judged from the edges between footprints.
        (Place::Point { facing, .. }, Place::Point { .. }) => placed(a)
            .zip(placed(b))
            .map(|(fa, fb)| fa.arc(*facing, &fb, rules.arcs)),
        _ => match (a.place.cell(), b.place.cell(), world.board.grid()) {
            (Some(x), Some(y), Some(g)) if x != y => Some(g.arc(x, a.facing, y, rules.arcs)),
            _ => None,
        },
    };
    super::arc_name(lua, arc)
}

fn neighbour(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, col, row, dir): (Table, i32, i32, String),
) -> mlua::Result<(Option<i32>, Option<i32>)> {
    let world = cx.world;
    let Some(grid) = world.board.grid() else {
        return Ok((None, None));
    };
    let facing = facing_arg(grid, &dir)?;
    let c = grid.neighbour(Cell::new(col, row), facing);
    Ok(if world.board.contains(c) {
        (Some(c.col), Some(c.row))
    } else {
        (None, None)
    })
}

fn turned(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, dir, steps): (Table, String, i32),
) -> mlua::Result<String> {
    let world = cx.world;
    let grid = world
        .board
        .grid()
        .ok_or_else(|| mlua::Error::runtime("an open table has no grid facings"))?;
    let facing = facing_arg(grid, &dir)?;
    let n = i32::from(grid.facings());
    let turned = (i32::from(facing.0) + steps).rem_euclid(n);
    Ok(grid
        .facing_name(grognard_kernel::geometry::Facing(turned as u8))
        .to_owned())
}

fn unit_at(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, col, row): (Table, i32, i32),
) -> mlua::Result<Option<mlua::AnyUserData>> {
    let world = cx.world;
    let c = Cell::new(col, row);
    world
        .state
        .pieces
        .iter()
        .find(|p| p.on_board() && p.attached_to.is_none() && p.place.covers(c))
        .map(|p| unit_handle(lua, p.id))
        .transpose()
}

fn units_at(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, col, row): (Table, i32, i32),
) -> mlua::Result<Table> {
    let world = cx.world;
    let c = Cell::new(col, row);
    let list = lua.create_table()?;
    for p in world
        .state
        .pieces
        .iter()
        .filter(|p| p.on_board() && p.place.covers(c))
    {
        list.raw_push(unit_handle(lua, p.id)?)?;
    }
    Ok(list)
}

fn zoc(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, col, row, side): (Table, i32, i32, String),
) -> mlua::Result<Option<mlua::AnyUserData>> {
    let world = cx.world;
    let rules = world.rules;
    let c = Cell::new(col, row);
    let Some(grid) = world.board.grid() else {
        return Ok(None);
    };
    world
        .state
        .pieces
        .iter()
        .find(|p| {
            p.on_board()
                && world
                    .sides
                    .get(p.side.index())
                    .is_some_and(|s| s.name == side)
                && rules.piece_type(p.kind).is_some_and(|t| t.exerts_zoc)
                && !rules
                    .zoc
                    .lost_with_counters
                    .iter()
                    .any(|k| p.counter(*k) > 0)
                && !rules.zoc.lost_with_flags.iter().any(|f| p.flag(*f))
                && p.place
                    .cell()
                    .is_some_and(|at| grid.front_cells(at, p.facing).contains(&c))
        })
        .map(|p| unit_handle(lua, p.id))
        .transpose()
}

fn terrain_attribute(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, col, row, name): (Table, i32, i32, String),
) -> mlua::Result<i32> {
    let world = cx.world;
    let rules = world.rules;
    let i = find_named("terrain attribute", &name, rules.terrain_attributes.iter())?;
    let c = Cell::new(col, row);
    Ok(world
        .board
        .contains(c)
        .then(|| {
            rules
                .terrain
                .get(world.board.terrain(c).index())
                .and_then(|t| t.attributes.get(i).copied())
        })
        .flatten()
        .unwrap_or(0))
}

fn features(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, c1, r1, c2, r2): (Table, i32, i32, i32, i32),
) -> mlua::Result<Table> {
    let world = cx.world;
    let rules = world.rules;
    let list = lua.create_table()?;
    for f in world
        .board
        .features_between(Cell::new(c1, r1), Cell::new(c2, r2))
    {
        if let Some(def) = rules.features.get(f.index()) {
            list.raw_push(def.name.clone())?;
        }
    }
    Ok(list)
}

fn line(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, c1, r1, c2, r2): (Table, i32, i32, i32, i32),
) -> mlua::Result<Table> {
    let world = cx.world;
    let grid = world
        .board
        .grid()
        .ok_or_else(|| mlua::Error::runtime("an open table has no cells to trace"))?;
    let (from, to) = (Cell::new(c1, r1), Cell::new(c2, r2));
    for (c, end) in [(from, "first"), (to, "second")] {
        if !world.board.contains(c) {
            return Err(mlua::Error::runtime(format!(
                "game:line: the {end} cell ({},{}) is off the board",
                c.col, c.row
            )));
        }
    }
    let list = lua.create_table()?;
    for entry in grid.line(from, to) {
        let t = lua.create_table()?;
        let mut cells = entry.cells();
        if let Some(a) = cells.next() {
            t.set("col", a.col)?;
            t.set("row", a.row)?;
        }
        if let Some(b) = cells.next() {
            t.set("col2", b.col)?;
            t.set("row2", b.row)?;
        }
        list.raw_push(t)?;
    }
    Ok(list)
}

fn blocks_sight(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, col, row): (Table, i32, i32),
) -> mlua::Result<bool> {
    let world = cx.world;
    let rules = world.rules;
    let c = Cell::new(col, row);
    Ok(world.board.contains(c)
        && rules
            .terrain
            .get(world.board.terrain(c).index())
            .is_some_and(|t| t.blocks_sight))
}

fn moved(_: &Lua, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)) -> mlua::Result<bool> {
    let world = cx.world;
    Ok(piece(world, &u)?.moved)
}

fn allowance(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u): (Table, Value),
) -> mlua::Result<Option<f64>> {
    let world = cx.world;
    let rules = world.rules;
    let p = piece(world, &u)?;
    Ok(rules
        .piece_type(p.kind)
        .and_then(|t| t.allowance.get(p.mode.index()).copied().flatten())
        .map(|c| f64::from(c.hundredths()) / 100.0))
}

fn host(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u): (Table, Value),
) -> mlua::Result<Option<mlua::AnyUserData>> {
    let world = cx.world;
    piece(world, &u)?
        .attached_to
        .map(|h| unit_handle(lua, h))
        .transpose()
}

fn attached(lua: &Lua, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)) -> mlua::Result<Table> {
    let world = cx.world;
    let id = piece(world, &u)?.id;
    let list = lua.create_table()?;
    for p in world
        .state
        .pieces
        .iter()
        .filter(|p| p.on_board() && p.attached_to == Some(id))
    {
        list.raw_push(unit_handle(lua, p.id)?)?;
    }
    Ok(list)
}
