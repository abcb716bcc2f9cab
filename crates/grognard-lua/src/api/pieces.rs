//! The `game` object's reads of pieces, the board and the table: turn and phase, units and
//! their state, terrain, distances and positions, sight between pieces, arcs on a table.

use std::rc::Rc;

use grognard_kernel::game::{World, footprint_of, placed_on};
use grognard_kernel::geometry::Cell;
use grognard_kernel::geometry::footprint::Placed;
use grognard_kernel::geometry::open::Angle;
use grognard_kernel::piece::Piece;
use grognard_kernel::piece::Place;
use mlua::{Lua, LuaString, Table, Value};

use crate::names::{NameList, counter_id, find_named, flag_id, interned, unit_handle};

use super::{Call, Slot, add_method, arc_name, piece, table_point, unit_list};

/// Adds these functions to the object's table.
pub(super) fn add(lua: &Lua, slot: &Rc<Slot>, game: &Table) -> mlua::Result<()> {
    add_method(lua, slot, game, "turn", turn)?;
    add_method(lua, slot, game, "phase", phase)?;
    add_method(lua, slot, game, "phasing", phasing)?;
    add_method(lua, slot, game, "units", units)?;
    add_method(lua, slot, game, "off_board_units", off_board_units)?;
    add_method(lua, slot, game, "region", region)?;
    add_method(lua, slot, game, "in_region", in_region)?;
    add_method(lua, slot, game, "unit", unit)?;
    add_method(lua, slot, game, "name", name)?;
    add_method(lua, slot, game, "side", side)?;
    add_method(lua, slot, game, "number", number)?;
    add_method(lua, slot, game, "kind", kind)?;
    add_method(lua, slot, game, "mode", mode)?;
    add_method(lua, slot, game, "on_board", on_board)?;
    add_method(lua, slot, game, "cell", cell)?;
    add_method(lua, slot, game, "counter", counter)?;
    add_method(lua, slot, game, "flag", flag)?;
    add_method(lua, slot, game, "attribute", attribute)?;
    add_method(lua, slot, game, "terrain", terrain)?;
    add_method(lua, slot, game, "terrain_of", terrain_of)?;
    add_method(lua, slot, game, "terrain_distance", terrain_distance)?;
    add_method(lua, slot, game, "distance", distance)?;
    add_method(lua, slot, game, "distance_from", distance_from)?;
    add_method(lua, slot, game, "arc_from", arc_from)?;
    add_method(lua, slot, game, "footprint", footprint)?;
    add_method(lua, slot, game, "position", position)?;
    add_method(lua, slot, game, "phase_start", phase_start)?;
    add_method(lua, slot, game, "sight", sight)?;
    add_method(lua, slot, game, "sight_from", sight_from)?;
    add_method(lua, slot, game, "known", known)?;
    add_method(lua, slot, game, "known_dummy", known_dummy)?;
    add_method(lua, slot, game, "label", label)?;
    add_method(lua, slot, game, "arc_at", arc_at)?;
    add_method(lua, slot, game, "can_stand", can_stand)?;
    add_method(lua, slot, game, "can_stand_all", can_stand_all)?;
    add_method(lua, slot, game, "setting", setting)?;
    add_method(lua, slot, game, "option", option)?;
    Ok(())
}

fn turn(_: &Lua, cx: &Call<'_, '_, '_, '_>, _: Table) -> mlua::Result<u32> {
    let world = cx.world;
    Ok(world.state.turn)
}

fn phase(lua: &Lua, cx: &Call<'_, '_, '_, '_>, _: Table) -> mlua::Result<Option<LuaString>> {
    let world = cx.world;
    let rules = world.rules;
    let step = world.state.step as usize;
    rules
        .turn_plan_step(&world.state.order, &world.state.options, step)
        .map(|(p, _)| interned(lua, NameList::Phase, step, &p.name))
        .transpose()
}

fn phasing(lua: &Lua, cx: &Call<'_, '_, '_, '_>, _: Table) -> mlua::Result<Option<LuaString>> {
    let world = cx.world;
    let rules = world.rules;
    let step = world.state.step as usize;
    rules
        .turn_plan_step(&world.state.order, &world.state.options, step)
        .and_then(|(_, s)| world.sides.get(s).map(|d| (s, d)))
        .map(|(s, d)| interned(lua, NameList::Side, s, &d.name))
        .transpose()
}

fn units(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, side): (Table, Option<String>),
) -> mlua::Result<Table> {
    let world = cx.world;
    unit_list(lua, world, side.as_deref(), true)
}

fn off_board_units(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, side): (Table, Option<String>),
) -> mlua::Result<Table> {
    let world = cx.world;
    unit_list(lua, world, side.as_deref(), false)
}

fn region(lua: &Lua, cx: &Call<'_, '_, '_, '_>, (_, name): (Table, String)) -> mlua::Result<Table> {
    let region = find_region(cx.world, &name)?;
    let list = lua.create_table()?;
    for c in &region.cells {
        let cell = lua.create_table()?;
        cell.set("col", c.col)?;
        cell.set("row", c.row)?;
        list.raw_push(cell)?;
    }
    Ok(list)
}

/// The board's region `name`, or an error naming the known ones.
fn find_region<'w>(
    world: &'w grognard_kernel::state::World<'_>,
    name: &str,
) -> mlua::Result<&'w grognard_kernel::board::Region> {
    let regions = &world.board.regions;
    regions.iter().find(|r| r.name == name).ok_or_else(|| {
        let known: Vec<&str> = regions.iter().map(|r| r.name.as_str()).collect();
        mlua::Error::runtime(if known.is_empty() {
            format!("unknown region `{name}`: the scenario's board has none")
        } else {
            format!(
                "unknown region `{name}`; the board's regions are {}",
                known.join(", ")
            )
        })
    })
}

/// Whether unit `u` stands in region `name`: on a grid it covers one of its cells, on an
/// open table its point is in the area (as `hold` counts it); off the board, never.
fn in_region(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, name): (Table, Value, String),
) -> mlua::Result<bool> {
    let world = cx.world;
    let region = find_region(world, &name)?;
    let p = piece(world, &u)?;
    Ok(p.on_board() && region.holds(&p.place))
}

fn unit(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, name): (Table, String),
) -> mlua::Result<Option<mlua::AnyUserData>> {
    let world = cx.world;
    world
        .state
        .pieces
        .iter()
        .find(|p| p.name == name)
        .map(|p| unit_handle(lua, p.id))
        .transpose()
}

fn name(lua: &Lua, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)) -> mlua::Result<LuaString> {
    let p = piece(cx.world, &u)?;
    interned(lua, NameList::Piece, p.id.index(), &p.name)
}

fn side(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u): (Table, Value),
) -> mlua::Result<Option<LuaString>> {
    let world = cx.world;
    let p = piece(world, &u)?;
    let i = p.side.index();
    world
        .sides
        .get(i)
        .map(|s| interned(lua, NameList::Side, i, &s.name))
        .transpose()
}

fn number(_: &Lua, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)) -> mlua::Result<u32> {
    let world = cx.world;
    let p = piece(world, &u)?;
    Ok(world.state.number_in_side(p.id))
}

fn kind(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u): (Table, Value),
) -> mlua::Result<Option<LuaString>> {
    let world = cx.world;
    let rules = world.rules;
    let p = piece(world, &u)?;
    rules
        .piece_type(p.kind)
        .map(|t| interned(lua, NameList::Kind, p.kind.index(), &t.name))
        .transpose()
}

fn mode(lua: &Lua, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)) -> mlua::Result<LuaString> {
    let world = cx.world;
    let rules = world.rules;
    let mode = piece(world, &u)?.mode;
    interned(lua, NameList::Mode, mode.index(), rules.mode_name(mode))
}

fn on_board(_: &Lua, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)) -> mlua::Result<bool> {
    let world = cx.world;
    Ok(piece(world, &u)?.on_board())
}

fn cell(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u): (Table, Value),
) -> mlua::Result<(Option<i32>, Option<i32>)> {
    let world = cx.world;
    Ok(match piece(world, &u)?.place.cell() {
        Some(c) => (Some(c.col), Some(c.row)),
        None => (None, None),
    })
}

fn counter(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, name): (Table, Value, LuaString),
) -> mlua::Result<i32> {
    let world = cx.world;
    let rules = world.rules;
    Ok(piece(world, &u)?.counter(counter_id(rules, &name.to_str()?)?))
}

fn flag(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, name): (Table, Value, LuaString),
) -> mlua::Result<bool> {
    let world = cx.world;
    let rules = world.rules;
    Ok(piece(world, &u)?.flag(flag_id(rules, &name.to_str()?)?))
}

fn attribute(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, name): (Table, Value, LuaString),
) -> mlua::Result<i32> {
    let world = cx.world;
    let rules = world.rules;
    let name = name.to_str()?;
    let i = find_named("piece attribute", &name, rules.piece_attributes.iter())?;
    Ok(piece(world, &u)?.attribute(i))
}

fn terrain(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, col, row): (Table, i32, i32),
) -> mlua::Result<Option<LuaString>> {
    let world = cx.world;
    let c = Cell::new(col, row);
    let id = world.board.contains(c).then(|| world.board.terrain(c));
    terrain_name(lua, world, id)
}

/// The name of terrain `id` (`nil` for none or an unknown id).
fn terrain_name(
    lua: &Lua,
    world: &World<'_>,
    id: Option<grognard_kernel::ids::TerrainId>,
) -> mlua::Result<Option<LuaString>> {
    id.and_then(|t| world.rules.terrain.get(t.index()).map(|d| (t, d)))
        .map(|(t, d)| interned(lua, NameList::Terrain, t.index(), &d.name))
        .transpose()
}

fn terrain_of(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u): (Table, Value),
) -> mlua::Result<Option<LuaString>> {
    let world = cx.world;
    let p = piece(world, &u)?;
    let terrain = match &p.place {
        Place::Point { at, .. } => Some(world.board.terrain_at(*at)),
        other => other.cell().map(|c| world.board.terrain(c)),
    };
    terrain_name(lua, world, terrain.filter(|_| p.on_board()))
}

fn terrain_distance(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, name): (Table, Value, String),
) -> mlua::Result<Option<f64>> {
    let world = cx.world;
    let p = piece(world, &u)?;
    let Some(placed) = grognard_kernel::game::placed_on(world.rules, p) else {
        return Ok(None);
    };
    let Some(terrain) = world.rules.terrain.iter().position(|t| t.name == name) else {
        return Err(mlua::Error::runtime(format!(
            "game:terrain_distance: the ruleset has no terrain `{name}`"
        )));
    };
    let id = grognard_kernel::ids::TerrainId(terrain as u16);
    Ok(world
        .board
        .distance_to_terrain(&placed.corners, id)
        .map(|d| d.0 as f64 / 1000.0))
}

fn distance(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, a, b): (Table, Value, Value),
) -> mlua::Result<Option<f64>> {
    let world = cx.world;
    let (a, b) = (piece(world, &a)?, piece(world, &b)?);
    let placed = |p| grognard_kernel::game::placed_on(world.rules, p);
    Ok(match (placed(a), placed(b)) {
        // Edge to edge between footprints.
        (Some(fa), Some(fb)) => Some(fa.distance(&fb).0 as f64 / 1000.0),
        _ => match (a.place.cell(), b.place.cell(), world.board.grid()) {
            (Some(x), Some(y), Some(g)) => Some(f64::from(g.distance(x, y))),
            _ => None,
        },
    })
}

fn distance_from(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    args: FromPlaceArgs,
) -> mlua::Result<Option<f64>> {
    let (mine, theirs, _) = as_they_would_stand(cx.world, args)?;
    Ok(theirs.map(|t| mine.distance(&t).0 as f64 / 1000.0))
}

fn arc_from(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    args: FromPlaceArgs,
) -> mlua::Result<Option<LuaString>> {
    let (mine, theirs, facing) = as_they_would_stand(cx.world, args)?;
    let arc = theirs.map(|t| mine.arc(facing, &t, cx.world.rules.arcs));
    arc_name(lua, arc)
}

fn footprint(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u): (Table, Value),
) -> mlua::Result<Option<Table>> {
    let world = cx.world;
    let p = piece(world, &u)?;
    let Some(placed) = grognard_kernel::game::placed_on(world.rules, p) else {
        return Ok(None);
    };
    let footprint = grognard_kernel::game::footprint_of(world.rules, p, p.mode).unwrap_or_default();
    let inches = |l: grognard_kernel::geometry::open::Len| l.0 as f64 / 1000.0;
    let t = lua.create_table()?;
    t.set("width", inches(footprint.width))?;
    t.set("depth", inches(footprint.depth))?;
    let corners = lua.create_table()?;
    for (i, c) in placed.corners.iter().enumerate() {
        let xy = lua.create_table()?;
        xy.set("x", inches(c.x))?;
        xy.set("y", inches(c.y))?;
        corners.set(i + 1, xy)?;
    }
    t.set("corners", corners)?;
    Ok(Some(t))
}

fn position(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u): (Table, Value),
) -> mlua::Result<(Option<f64>, Option<f64>, Option<f64>)> {
    let world = cx.world;
    Ok(match &piece(world, &u)?.place {
        Place::Point { at, facing } => (
            Some(at.x.0 as f64 / 1000.0),
            Some(at.y.0 as f64 / 1000.0),
            Some(f64::from(facing.tenths()) / 10.0),
        ),
        _ => (None, None, None),
    })
}

fn phase_start(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u): (Table, Value),
) -> mlua::Result<(Option<f64>, Option<f64>, Option<f64>)> {
    let world = cx.world;
    let p = piece(world, &u)?;
    Ok(match world.state.phase_start(p.id) {
        Some(Place::Point { at, facing }) => (
            Some(at.x.0 as f64 / 1000.0),
            Some(at.y.0 as f64 / 1000.0),
            Some(f64::from(facing.tenths()) / 10.0),
        ),
        _ => (None, None, None),
    })
}

fn sight(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, a, b): (Table, Value, Value),
) -> mlua::Result<bool> {
    let world = cx.world;
    let (a, b) = (piece(world, &a)?, piece(world, &b)?);
    Ok(a.on_board() && b.on_board() && world.clear_sight(a, b))
}

/// `game:sight_from(u, x, y, facing, e [, ex, ey, efacing])`: `game:sight(u, e)` with `u`
/// standing at (x, y) turned to `facing`, and `e` where it stands or at the place given —
/// a check judging a move before it is made sees what the unit would see from its end.
/// `false` when either is not on the table.
fn sight_from(_: &Lua, cx: &Call<'_, '_, '_, '_>, args: FromPlaceArgs) -> mlua::Result<bool> {
    let world = cx.world;
    let (_, u, x, y, facing, e, ex, ey, ef) = args;
    let (u, e) = (piece(world, &u)?, piece(world, &e)?);
    let on_table = |p: &Piece| p.on_board() && matches!(p.place, Place::Point { .. });
    if !on_table(u) || !on_table(e) {
        return Ok(false);
    }
    let stand = |p: &Piece, x: f64, y: f64, facing: f64| -> mlua::Result<Piece> {
        let mut moved = p.clone();
        moved.place = Place::Point {
            at: table_point(x, y)?,
            facing: facing_degrees(facing)?,
        };
        Ok(moved)
    };
    let mine = stand(u, x, y, facing)?;
    Ok(match (ex, ey) {
        (Some(ex), Some(ey)) => world.clear_sight(&mine, &stand(e, ex, ey, ef.unwrap_or(0.0))?),
        _ => world.clear_sight(&mine, e),
    })
}

/// `game:known(u, side)`: whether `side` knows where `u` stands now — its own pieces, every
/// piece on the board in a ruleset without sighting rules, else what the side's knowledge
/// table holds (a marker's place is known; an enemy it has not sighted is not). Lets a hook
/// judge an order as the side giving it can (a fire line an unseen unit does not block).
fn known(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, side): (Table, Value, LuaString),
) -> mlua::Result<bool> {
    let world = cx.world;
    let (p, s) = piece_for_side(world, &u, &side)?;
    if !p.on_board() {
        return Ok(false);
    }
    if p.side.index() == s || world.rules.sighting.is_none() {
        return Ok(true);
    }
    Ok(world
        .state
        .knowledge
        .get(s)
        .is_some_and(|k| k.knows_position(p.id)))
}

/// Whether `side` knows that `u` is a dummy (a piece of a `dummy` type): its own dummies,
/// every dummy on the board without sighting rules, else a dummy whose real-or-dummy fact a
/// sighting disclosed to it, now or earlier (a dummy stays one).
fn known_dummy(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, side): (Table, Value, LuaString),
) -> mlua::Result<bool> {
    let world = cx.world;
    let (p, s) = piece_for_side(world, &u, &side)?;
    if !p.on_board() || !world.rules.piece_type(p.kind).is_some_and(|t| t.dummy) {
        return Ok(false);
    }
    if p.side.index() == s || world.rules.sighting.is_none() {
        return Ok(true);
    }
    Ok(world
        .state
        .knowledge
        .get(s)
        .and_then(|k| k.get(p.id))
        .is_some_and(|k| k.real == Some(false)))
}

/// The piece `u` names and the index of the side named `side`: what `game:known`,
/// `game:known_dummy` and `game:label` each ask about first.
fn piece_for_side<'w>(
    world: &'w World<'_>,
    u: &Value,
    side: &LuaString,
) -> mlua::Result<(&'w Piece, usize)> {
    let p = piece(world, u)?;
    let name = side.to_str()?;
    let s = find_named("side", &name, world.sides.iter().map(|s| s.name.as_str()))?;
    Ok((p, s))
}

/// `game:label(u, side)`: `u`'s name as `side` may read it, in the kernel's one wording of
/// pieces for a side (`view::label`): the scenario id of its own pieces, of every piece
/// without sighting rules and of enemies it has identified; else its handle (`enemy #N`),
/// or `an unseen enemy`. For a refusal that names an enemy piece the ordering side has not
/// identified.
fn label(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, side): (Table, Value, LuaString),
) -> mlua::Result<String> {
    let world = cx.world;
    let (p, s) = piece_for_side(world, &u, &side)?;
    let side = grognard_kernel::ids::SideId(u8::try_from(s).map_err(mlua::Error::external)?);
    // The kernel's own wording, so a script's refusal names a piece as the engine's do.
    Ok(grognard_kernel::view::label(
        world.rules,
        world.state,
        side,
        p,
    ))
}

fn arc_at(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, x, y, facing, tx, ty): (Table, f64, f64, f64, f64, f64),
) -> mlua::Result<Option<LuaString>> {
    let world = cx.world;
    let rules = world.rules;
    let facing = facing_degrees(facing)?;
    let arc = grognard_kernel::geometry::open::arc(
        table_point(x, y)?,
        facing,
        table_point(tx, ty)?,
        rules.arcs,
    );
    arc_name(lua, Some(arc))
}

/// `game:can_stand(u, x, y [, facing])`: why `game:place_at(u, x, y, facing)` would be
/// refused, or `nil`.
fn can_stand(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, u, x, y, facing): (Table, Value, f64, f64, Option<f64>),
) -> mlua::Result<Option<String>> {
    let world = cx.world;
    let p = piece(world, &u)?;
    let facing = facing.map(facing_degrees).transpose()?;
    Ok(world.standing_problem_facing(p.id, table_point(x, y)?, facing))
}

/// `game:can_stand_all({ {u, x, y, facing}, ... })`: why placing each piece in turn, as
/// `game:place_at` calls in that order would, would be refused (the first problem met), or
/// `nil`. Each is judged with the pieces before it already placed (and what is attached
/// to them moved with them), so a script's check can judge a brigade's turns together —
/// one turn may block the next — without trying the order on a copy of the game.
fn can_stand_all(
    _: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, list): (Table, Table),
) -> mlua::Result<Option<String>> {
    let world = cx.world;
    let n = list.raw_len();
    // The game with the placements so far: copied only when a later one must see them.
    let mut moved: Option<grognard_kernel::state::State> = None;
    for i in 1..=n {
        let entry: Table = list.raw_get(i).map_err(|_| {
            mlua::Error::runtime(format!(
                "game:can_stand_all: entry {i} is not a table {{unit, x, y [, facing]}}"
            ))
        })?;
        let u: Value = entry.raw_get(1)?;
        let (x, y): (f64, f64) = (entry.raw_get(2)?, entry.raw_get(3)?);
        let facing: Option<f64> = entry.raw_get(4)?;
        let id = piece(world, &u)?.id;
        let at = table_point(x, y)?;
        let facing = facing.map(facing_degrees).transpose()?;
        let now = World {
            state: moved.as_ref().unwrap_or(world.state),
            ..*world
        };
        if let Some(problem) = now.standing_problem_facing(id, at, facing) {
            return Ok(Some(problem));
        }
        if i == n {
            break;
        }
        let state = moved.get_or_insert_with(|| world.state.clone());
        // As `place_at` puts it: the piece and what is attached to it, at the point,
        // turned to the facing if one is given.
        let Some(Place::Point { facing: old, .. }) =
            state.pieces.get(id.index()).map(|p| p.place.clone())
        else {
            continue;
        };
        let facing = facing.unwrap_or(old);
        for p in &mut state.pieces {
            if p.id == id || p.attached_to == Some(id) {
                p.place = Place::Point { at, facing };
            }
        }
    }
    Ok(None)
}

fn setting(_: &Lua, cx: &Call<'_, '_, '_, '_>, (_, name): (Table, LuaString)) -> mlua::Result<i32> {
    let world = cx.world;
    let rules = world.rules;
    let name = name.to_str()?;
    let i = find_named(
        "setting",
        &name,
        rules.settings.iter().map(|s| s.name.as_str()),
    )?;
    Ok(world.state.settings.get(i).copied().unwrap_or(0))
}

fn option(_: &Lua, cx: &Call<'_, '_, '_, '_>, (_, name): (Table, LuaString)) -> mlua::Result<bool> {
    let world = cx.world;
    let rules = world.rules;
    let name = name.to_str()?;
    let i = find_named(
        "optional rule",
        &name,
        rules.options.iter().map(|s| s.name.as_str()),
    )?;
    Ok(world.state.options.get(i).copied().unwrap_or(false))
}

/// A facing given in degrees by a script, as the table's angle (tenths of a degree,
/// turned into 0..360).
fn facing_degrees(facing: f64) -> mlua::Result<grognard_kernel::geometry::open::Angle> {
    if !facing.is_finite() {
        return Err(mlua::Error::runtime("a facing must be a number of degrees"));
    }
    Ok(grognard_kernel::geometry::open::Angle::new(
        (facing * 10.0).round().rem_euclid(3600.0) as i32,
    ))
}

/// The arguments of `game:distance_from` and `game:arc_from`: the game, `u`, the point and
/// facing it would stand at, `e`, and optionally where `e` would stand.
type FromPlaceArgs = (
    Table,
    Value,
    f64,
    f64,
    f64,
    Value,
    Option<f64>,
    Option<f64>,
    Option<f64>,
);

/// `u` and `e` placed as `game:distance_from` and `game:arc_from` read them, each in its
/// mode now: `u` at (x, y) turned to the facing given; `e` where it stands, or at the place
/// given after it (`None` when it is off the table). With `u`'s facing.
fn as_they_would_stand(
    world: &grognard_kernel::game::World<'_>,
    (_, u, x, y, facing, e, ex, ey, ef): FromPlaceArgs,
) -> mlua::Result<(Placed, Option<Placed>, Angle)> {
    let (u, e) = (piece(world, &u)?, piece(world, &e)?);
    let facing = facing_degrees(facing)?;
    let stand = |p: &Piece, at, facing| {
        footprint_of(world.rules, p, p.mode)
            .map_or_else(|| Placed::point(at), |f| f.place(at, facing))
    };
    let mine = stand(u, table_point(x, y)?, facing);
    let theirs = match (ex, ey) {
        (Some(ex), Some(ey)) => {
            let ef = facing_degrees(ef.unwrap_or(0.0))?;
            Some(stand(e, table_point(ex, ey)?, ef))
        }
        _ => placed_on(world.rules, e),
    };
    Ok((mine, theirs, facing))
}
