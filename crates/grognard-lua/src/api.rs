//! The `game` object a game hook receives: reads of the game as it stands, and requests
//! for changes that the kernel validates after the hook returns. The object and its
//! functions are made once per sandbox and read the hook call in progress, so a script
//! that keeps `game` in a global finds it refusing every question afterwards.

use std::cell::{Cell as StdCell, RefCell};
use std::rc::Rc;

use grognard_kernel::game::World;
use grognard_kernel::geometry::Cell;
use grognard_kernel::hooks::{HookCommand, HookDice};
use grognard_kernel::ids::PieceId;
use grognard_kernel::piece::{Piece, Place};
use mlua::{FromLuaMulti, Function, IntoLuaMulti, Lua, Table, Value};

use crate::names::{
    MAX_COMMANDS_PER_CALL, UnitRef, counter_id, find_named, flag_id, mode_id, parse_dice,
    unknown_name,
};

/// The piece a Lua argument refers to.
fn unit_arg(value: &Value) -> mlua::Result<PieceId> {
    match value {
        Value::UserData(ud) => ud.borrow::<UnitRef>().map(|u| u.0).map_err(|_| {
            mlua::Error::runtime("expected a unit (as given by game:units() or game:unit())")
        }),
        other => Err(mlua::Error::runtime(format!(
            "expected a unit (as given by game:units() or game:unit()), got {}",
            other.type_name()
        ))),
    }
}

fn piece<'w>(world: &'w World<'_>, value: &Value) -> mlua::Result<&'w Piece> {
    let id = unit_arg(value)?;
    world
        .state
        .pieces
        .get(id.index())
        .ok_or_else(|| mlua::Error::runtime(format!("unit #{} does not exist in this game", id.0)))
}

/// A grid facing named as scenarios write it (`NE`, `W`).
fn facing_arg(
    grid: &grognard_kernel::geometry::grid::Grid,
    name: &str,
) -> mlua::Result<grognard_kernel::geometry::Facing> {
    (0..grid.facings())
        .map(grognard_kernel::geometry::Facing)
        .find(|f| grid.facing_name(*f) == name)
        .ok_or_else(|| {
            let known: Vec<&str> = (0..grid.facings())
                .map(|i| grid.facing_name(grognard_kernel::geometry::Facing(i)))
                .collect();
            mlua::Error::runtime(format!(
                "unknown facing `{name}`; this grid's facings are {}",
                known.join(", ")
            ))
        })
}

/// A point of an open table from inches (to the thou).
fn table_point(x: f64, y: f64) -> mlua::Result<grognard_kernel::geometry::open::Point> {
    let thou = |v: f64| {
        if v.is_finite() && v.abs() < 1.0e9 {
            Ok(grognard_kernel::geometry::open::Len(
                (v * 1000.0).round() as i64
            ))
        } else {
            Err(mlua::Error::runtime(format!(
                "expected a distance in inches, got {}",
                grognard_kernel::text::number(v)
            )))
        }
    };
    Ok(grognard_kernel::geometry::open::Point::new(
        thou(x)?,
        thou(y)?,
    ))
}

/// What the `game` object's functions read during one hook call: the world as it stands,
/// the dice the hook rolls with, and the changes it asks for.
pub(crate) struct Call<'c, 'w, 'm, 'd> {
    pub world: &'c World<'w>,
    pub dice: &'c RefCell<&'m mut HookDice<'d>>,
    pub commands: &'c RefCell<Vec<HookCommand>>,
}

impl Call<'_, '_, '_, '_> {
    /// Queues a change for the kernel to validate after the hook returns.
    fn queue(&self, command: HookCommand) -> mlua::Result<()> {
        let mut c = self.commands.borrow_mut();
        if c.len() >= MAX_COMMANDS_PER_CALL {
            return Err(mlua::Error::runtime(format!(
                "a hook may ask for at most {MAX_COMMANDS_PER_CALL} changes per call"
            )));
        }
        c.push(command);
        Ok(())
    }
}

/// The call in progress, if any: where the `game` object's functions find the world.
///
/// The functions are created once per sandbox; each hook call points the slot at its
/// [`Call`] for exactly as long as [`GameObject::during`] runs, and the slot is emptied
/// (restored) when that returns or unwinds. Creating some sixty scoped functions for
/// every call instead cost more than half of a scripted game's time.
struct Slot(StdCell<*const ()>);

impl Slot {
    /// Runs `f` on the call in progress, or fails when there is none (a script that kept
    /// `game` in a global and uses it after its hook returned).
    fn with<R>(&self, f: impl FnOnce(&Call<'_, '_, '_, '_>) -> mlua::Result<R>) -> mlua::Result<R> {
        let pointer = self.0.get();
        if pointer.is_null() {
            return Err(mlua::Error::runtime(
                "the game object may only be used during the hook call it was given to",
            ));
        }
        // SAFETY: the slot is non-null only while `GameObject::during` runs, whose `Call`
        // outlives that run (it is borrowed for it) and is only read through shared
        // references. `f` is generic over the call's lifetimes, so nothing it returns
        // can keep a borrow of the call beyond this function; the lifetimes named here
        // are never observed.
        let call = unsafe { &*pointer.cast::<Call<'static, 'static, 'static, 'static>>() };
        f(call)
    }
}

/// Puts the slot back as it was when a call ends, also when it unwinds.
struct Restore<'s> {
    slot: &'s Slot,
    previous: *const (),
}

impl Drop for Restore<'_> {
    fn drop(&mut self) {
        self.slot.0.set(self.previous);
    }
}

/// The `game` object a sandbox's hooks receive: a read-only table whose functions read
/// the call in progress.
pub(crate) struct GameObject {
    table: Table,
    slot: Rc<Slot>,
}

impl GameObject {
    /// Builds the object's functions, once for a sandbox.
    pub(crate) fn new(lua: &Lua) -> mlua::Result<Self> {
        let slot = Rc::new(Slot(StdCell::new(std::ptr::null())));
        let methods = game_methods(lua, &slot)?;
        // Scripts read `game` but cannot change it: what one hook wrote into it would
        // otherwise be seen by the next.
        let table = lua.create_table()?;
        let meta = lua.create_table()?;
        meta.raw_set("__index", methods)?;
        meta.raw_set(
            "__newindex",
            lua.create_function(|_, _: mlua::MultiValue| -> mlua::Result<()> {
                Err(mlua::Error::runtime("the game object is read-only"))
            })?,
        )?;
        meta.raw_set("__metatable", false)?;
        table.set_metatable(Some(meta))?;
        Ok(Self { table, slot })
    }

    /// Runs `f` (which calls a hook with the table it is given) with the object reading
    /// `call`.
    pub(crate) fn during<R>(&self, call: &Call<'_, '_, '_, '_>, f: impl FnOnce(&Table) -> R) -> R {
        let previous = self.slot.0.replace(std::ptr::from_ref(call).cast::<()>());
        let _restore = Restore {
            slot: &self.slot,
            previous,
        };
        f(&self.table)
    }
}

/// One of the object's functions: `f` runs on the call in progress.
fn method<A, R, F>(lua: &Lua, slot: &Rc<Slot>, f: F) -> mlua::Result<Function>
where
    A: FromLuaMulti,
    R: IntoLuaMulti,
    F: Fn(&Lua, &Call<'_, '_, '_, '_>, A) -> mlua::Result<R> + 'static,
{
    let slot = Rc::clone(slot);
    lua.create_function(move |lua, args: A| slot.with(|call| f(lua, call, args)))
}

/// The object's functions, by name.
fn game_methods(lua: &Lua, slot: &Rc<Slot>) -> mlua::Result<Table> {
    let game = lua.create_table()?;

    game.set(
        "turn",
        method(lua, slot, move |_, cx: &Call<'_, '_, '_, '_>, _: Table| {
            let world = cx.world;
            Ok(world.state.turn)
        })?,
    )?;
    game.set(
        "phase",
        method(lua, slot, move |_, cx: &Call<'_, '_, '_, '_>, _: Table| {
            let world = cx.world;
            let rules = world.rules;
            let plan = rules.turn_plan(&world.state.order, &world.state.options);
            Ok(plan
                .get(world.state.step as usize)
                .map(|(p, _)| p.name.clone()))
        })?,
    )?;
    game.set(
        "phasing",
        method(lua, slot, move |_, cx: &Call<'_, '_, '_, '_>, _: Table| {
            let world = cx.world;
            let rules = world.rules;
            let plan = rules.turn_plan(&world.state.order, &world.state.options);
            Ok(plan
                .get(world.state.step as usize)
                .and_then(|(_, s)| world.sides.get(*s))
                .map(|s| s.name.clone()))
        })?,
    )?;
    game.set(
        "units",
        method(
            lua,
            slot,
            move |lua, cx: &Call<'_, '_, '_, '_>, (_, side): (Table, Option<String>)| {
                let world = cx.world;
                unit_list(lua, world, side.as_deref(), true)
            },
        )?,
    )?;
    game.set(
        "off_board_units",
        method(
            lua,
            slot,
            move |lua, cx: &Call<'_, '_, '_, '_>, (_, side): (Table, Option<String>)| {
                let world = cx.world;
                unit_list(lua, world, side.as_deref(), false)
            },
        )?,
    )?;
    game.set(
        "region",
        method(
            lua,
            slot,
            move |lua, cx: &Call<'_, '_, '_, '_>, (_, name): (Table, String)| {
                let world = cx.world;
                let regions = &world.board.regions;
                let i = regions.iter().position(|r| r.name == name).ok_or_else(|| {
                    let known: Vec<&str> = regions.iter().map(|r| r.name.as_str()).collect();
                    mlua::Error::runtime(if known.is_empty() {
                        format!("unknown region `{name}`: the scenario's board has none")
                    } else {
                        format!(
                            "unknown region `{name}`; the board's regions are {}",
                            known.join(", ")
                        )
                    })
                })?;
                let list = lua.create_table()?;
                for c in regions
                    .get(i)
                    .map(|r| r.cells.as_slice())
                    .unwrap_or_default()
                {
                    let cell = lua.create_table()?;
                    cell.set("col", c.col)?;
                    cell.set("row", c.row)?;
                    list.raw_push(cell)?;
                }
                Ok(list)
            },
        )?,
    )?;
    game.set(
        "unit",
        method(
            lua,
            slot,
            move |lua, cx: &Call<'_, '_, '_, '_>, (_, name): (Table, String)| {
                let world = cx.world;
                world
                    .state
                    .pieces
                    .iter()
                    .find(|p| p.name == name)
                    .map(|p| lua.create_userdata(UnitRef(p.id)))
                    .transpose()
            },
        )?,
    )?;
    game.set(
        "name",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                Ok(piece(cx.world, &u)?.name.clone())
            },
        )?,
    )?;
    game.set(
        "side",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                let p = piece(world, &u)?;
                Ok(world.sides.get(p.side.index()).map(|s| s.name.clone()))
            },
        )?,
    )?;
    game.set(
        "number",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                let p = piece(world, &u)?;
                Ok(world
                    .state
                    .pieces
                    .get(..p.id.index())
                    .unwrap_or_default()
                    .iter()
                    .filter(|q| q.side == p.side)
                    .count())
            },
        )?,
    )?;
    game.set(
        "kind",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                let rules = world.rules;
                let p = piece(world, &u)?;
                Ok(rules.piece_type(p.kind).map(|t| t.name.clone()))
            },
        )?,
    )?;
    game.set(
        "mode",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                let rules = world.rules;
                Ok(rules.mode_name(piece(world, &u)?.mode).to_owned())
            },
        )?,
    )?;
    game.set(
        "on_board",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                Ok(piece(world, &u)?.on_board())
            },
        )?,
    )?;
    game.set(
        "cell",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                Ok(match piece(world, &u)?.place.cell() {
                    Some(c) => (Some(c.col), Some(c.row)),
                    None => (None, None),
                })
            },
        )?,
    )?;
    game.set(
        "counter",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u, name): (Table, Value, String)| {
                let world = cx.world;
                let rules = world.rules;
                Ok(piece(world, &u)?.counter(counter_id(rules, &name)?))
            },
        )?,
    )?;
    game.set(
        "flag",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u, name): (Table, Value, String)| {
                let world = cx.world;
                let rules = world.rules;
                Ok(piece(world, &u)?.flag(flag_id(rules, &name)?))
            },
        )?,
    )?;
    game.set(
        "attribute",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u, name): (Table, Value, String)| {
                let world = cx.world;
                let rules = world.rules;
                let i = find_named("piece attribute", &name, rules.piece_attributes.iter())?;
                Ok(piece(world, &u)?.attribute(i))
            },
        )?,
    )?;
    game.set(
        "terrain",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, col, row): (Table, i32, i32)| {
                let world = cx.world;
                let rules = world.rules;
                let c = Cell::new(col, row);
                Ok(world
                    .board
                    .contains(c)
                    .then(|| {
                        rules
                            .terrain
                            .get(world.board.terrain(c).index())
                            .map(|t| t.name.clone())
                    })
                    .flatten())
            },
        )?,
    )?;
    game.set(
        "terrain_of",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                let rules = world.rules;
                let p = piece(world, &u)?;
                let terrain = match &p.place {
                    Place::Point { at, .. } => Some(world.board.terrain_at(*at)),
                    other => other.cell().map(|c| world.board.terrain(c)),
                };
                Ok(terrain
                    .filter(|_| p.on_board())
                    .and_then(|t| rules.terrain.get(t.index()))
                    .map(|t| t.name.clone()))
            },
        )?,
    )?;
    game.set(
        "distance",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, a, b): (Table, Value, Value)| {
                let world = cx.world;
                let (a, b) = (piece(world, &a)?, piece(world, &b)?);
                Ok(match (&a.place, &b.place) {
                    (Place::Point { at: pa, .. }, Place::Point { at: pb, .. }) => Some(
                        f64::from(grognard_kernel::geometry::open::distance(*pa, *pb).0 as i32)
                            / 1000.0,
                    ),
                    _ => match (a.place.cell(), b.place.cell(), world.board.grid()) {
                        (Some(x), Some(y), Some(g)) => Some(f64::from(g.distance(x, y))),
                        _ => None,
                    },
                })
            },
        )?,
    )?;
    game.set(
        "position",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                Ok(match &piece(world, &u)?.place {
                    Place::Point { at, facing } => (
                        Some(at.x.0 as f64 / 1000.0),
                        Some(at.y.0 as f64 / 1000.0),
                        Some(f64::from(facing.tenths()) / 10.0),
                    ),
                    _ => (None, None, None),
                })
            },
        )?,
    )?;
    game.set(
        "phase_start",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
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
            },
        )?,
    )?;
    game.set(
        "sight",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, a, b): (Table, Value, Value)| {
                let world = cx.world;
                let (a, b) = (piece(world, &a)?, piece(world, &b)?);
                Ok(a.on_board() && b.on_board() && world.clear_sight(a, b))
            },
        )?,
    )?;
    game.set(
        "arc_at",
        method(
            lua,
            slot,
            move |_,
                  cx: &Call<'_, '_, '_, '_>,
                  (_, x, y, facing, tx, ty): (Table, f64, f64, f64, f64, f64)| {
                let world = cx.world;
                let rules = world.rules;
                if !facing.is_finite() {
                    return Err(mlua::Error::runtime("a facing must be a number of degrees"));
                }
                let facing = grognard_kernel::geometry::open::Angle::new(
                    (facing * 10.0).round().rem_euclid(3600.0) as i32,
                );
                let arc = grognard_kernel::geometry::open::arc(
                    table_point(x, y)?,
                    facing,
                    table_point(tx, ty)?,
                    rules.arcs,
                );
                Ok(match arc {
                    grognard_kernel::geometry::Arc::Front => Some("front"),
                    grognard_kernel::geometry::Arc::Flank => Some("flank"),
                    grognard_kernel::geometry::Arc::Rear => Some("rear"),
                    #[allow(unreachable_patterns)]
                    _ => None,
                })
            },
        )?,
    )?;
    game.set(
        "can_stand",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u, x, y): (Table, Value, f64, f64)| {
                let world = cx.world;
                let p = piece(world, &u)?;
                Ok(world.standing_problem(p.id, table_point(x, y)?))
            },
        )?,
    )?;
    game.set(
        "setting",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, name): (Table, String)| {
                let world = cx.world;
                let rules = world.rules;
                let i = find_named(
                    "setting",
                    &name,
                    rules.settings.iter().map(|s| s.name.as_str()),
                )?;
                Ok(world.state.settings.get(i).copied().unwrap_or(0))
            },
        )?,
    )?;
    game.set(
        "option",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, name): (Table, String)| {
                let world = cx.world;
                let rules = world.rules;
                let i = find_named(
                    "optional rule",
                    &name,
                    rules.options.iter().map(|s| s.name.as_str()),
                )?;
                Ok(world.state.options.get(i).copied().unwrap_or(false))
            },
        )?,
    )?;

    // Grid reads: facing, arcs, neighbours, who stands where, zones, attachments.
    game.set(
        "facing",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                let p = piece(world, &u)?;
                Ok(world
                    .board
                    .grid()
                    .filter(|_| p.place.cell().is_some())
                    .map(|g| g.facing_name(p.facing).to_owned()))
            },
        )?,
    )?;
    game.set(
        "arc",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, a, b): (Table, Value, Value)| {
                let world = cx.world;
                let rules = world.rules;
                let (a, b) = (piece(world, &a)?, piece(world, &b)?);
                let arc = match (&a.place, &b.place) {
                    (Place::Point { at: pa, facing }, Place::Point { at: pb, .. }) => Some(
                        grognard_kernel::geometry::open::arc(*pa, *facing, *pb, rules.arcs),
                    ),
                    _ => match (a.place.cell(), b.place.cell(), world.board.grid()) {
                        (Some(x), Some(y), Some(g)) if x != y => {
                            Some(g.arc(x, a.facing, y, rules.arcs))
                        }
                        _ => None,
                    },
                };
                Ok(arc.and_then(|arc| match arc {
                    grognard_kernel::geometry::Arc::Front => Some("front"),
                    grognard_kernel::geometry::Arc::Flank => Some("flank"),
                    grognard_kernel::geometry::Arc::Rear => Some("rear"),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }))
            },
        )?,
    )?;
    game.set(
        "neighbour",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, col, row, dir): (Table, i32, i32, String)| {
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
            },
        )?,
    )?;
    game.set(
        "turned",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, dir, steps): (Table, String, i32)| {
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
            },
        )?,
    )?;
    game.set(
        "unit_at",
        method(
            lua,
            slot,
            move |lua, cx: &Call<'_, '_, '_, '_>, (_, col, row): (Table, i32, i32)| {
                let world = cx.world;
                let c = Cell::new(col, row);
                world
                    .state
                    .pieces
                    .iter()
                    .find(|p| p.on_board() && p.attached_to.is_none() && p.place.covers(c))
                    .map(|p| lua.create_userdata(UnitRef(p.id)))
                    .transpose()
            },
        )?,
    )?;
    game.set(
        "units_at",
        method(
            lua,
            slot,
            move |lua, cx: &Call<'_, '_, '_, '_>, (_, col, row): (Table, i32, i32)| {
                let world = cx.world;
                let c = Cell::new(col, row);
                let list = lua.create_table()?;
                for p in world
                    .state
                    .pieces
                    .iter()
                    .filter(|p| p.on_board() && p.place.covers(c))
                {
                    list.raw_push(lua.create_userdata(UnitRef(p.id))?)?;
                }
                Ok(list)
            },
        )?,
    )?;
    game.set(
        "zoc",
        method(
            lua,
            slot,
            move |lua,
                  cx: &Call<'_, '_, '_, '_>,
                  (_, col, row, side): (Table, i32, i32, String)| {
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
                    .map(|p| lua.create_userdata(UnitRef(p.id)))
                    .transpose()
            },
        )?,
    )?;
    game.set(
        "terrain_attribute",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, col, row, name): (Table, i32, i32, String)| {
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
            },
        )?,
    )?;
    game.set(
        "features",
        method(
            lua,
            slot,
            move |lua,
                  cx: &Call<'_, '_, '_, '_>,
                  (_, c1, r1, c2, r2): (Table, i32, i32, i32, i32)| {
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
            },
        )?,
    )?;
    // The centre-to-centre line between two cells, as the engine's line of sight traces
    // it: what a ruleset needs to judge its own obstacles (dead ground, firing over).
    game.set(
        "line",
        method(
            lua,
            slot,
            move |lua,
                  cx: &Call<'_, '_, '_, '_>,
                  (_, c1, r1, c2, r2): (Table, i32, i32, i32, i32)| {
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
            },
        )?,
    )?;
    game.set(
        "blocks_sight",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, col, row): (Table, i32, i32)| {
                let world = cx.world;
                let rules = world.rules;
                let c = Cell::new(col, row);
                Ok(world.board.contains(c)
                    && rules
                        .terrain
                        .get(world.board.terrain(c).index())
                        .is_some_and(|t| t.blocks_sight))
            },
        )?,
    )?;
    game.set(
        "moved",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                Ok(piece(world, &u)?.moved)
            },
        )?,
    )?;
    game.set(
        "allowance",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                let rules = world.rules;
                let p = piece(world, &u)?;
                Ok(rules
                    .piece_type(p.kind)
                    .and_then(|t| t.allowance.get(p.mode.index()).copied().flatten())
                    .map(|c| f64::from(c.hundredths()) / 100.0))
            },
        )?,
    )?;
    game.set(
        "host",
        method(
            lua,
            slot,
            move |lua, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                piece(world, &u)?
                    .attached_to
                    .map(|h| lua.create_userdata(UnitRef(h)))
                    .transpose()
            },
        )?,
    )?;
    game.set(
        "attached",
        method(
            lua,
            slot,
            move |lua, cx: &Call<'_, '_, '_, '_>, (_, u): (Table, Value)| {
                let world = cx.world;
                let id = piece(world, &u)?.id;
                let list = lua.create_table()?;
                for p in world
                    .state
                    .pieces
                    .iter()
                    .filter(|p| p.on_board() && p.attached_to == Some(id))
                {
                    list.raw_push(lua.create_userdata(UnitRef(p.id))?)?;
                }
                Ok(list)
            },
        )?,
    )?;

    // Dice, through the game's RNG; every roll is logged by the kernel.
    game.set(
        "roll",
        method(
            lua,
            slot,
            move |lua,
                  cx: &Call<'_, '_, '_, '_>,
                  (_, text, purpose): (Table, String, Option<String>)| {
                let world = cx.world;
                let rules = world.rules;
                let dice = cx.dice;
                let expr = parse_dice(rules, &text).map_err(mlua::Error::runtime)?;
                let purpose = purpose.unwrap_or_else(|| format!("{text} rolled by a hook"));
                let (rolled, total) = dice.borrow_mut().roll(&expr, &purpose);
                let faces = lua.create_table()?;
                for d in &rolled {
                    let label = rules
                        .dice
                        .get(d.die.index())
                        .and_then(|def| def.faces.get(usize::from(d.face)))
                        .map_or_else(|| d.value.to_string(), |f| f.label.clone());
                    faces.raw_push(label)?;
                }
                Ok((total, faces))
            },
        )?,
    )?;
    game.set(
        "band",
        method(
            lua,
            slot,
            move |_,
                  cx: &Call<'_, '_, '_, '_>,
                  (_, chart, input, distance): (Table, String, String, u32)| {
                let world = cx.world;
                let rules = world.rules;
                let names: Vec<String> = rules.charts.iter().map(|c| c.name.clone()).collect();
                let id = rules
                    .chart_by_name(&chart)
                    .ok_or_else(|| unknown_name("chart", &chart, &names))?;
                let def = rules
                    .chart(id)
                    .ok_or_else(|| mlua::Error::runtime("chart vanished"))?;
                let input_names: Vec<String> = def.inputs.iter().map(|i| i.name.clone()).collect();
                let found = def
                    .inputs
                    .iter()
                    .find(|x| x.name == input)
                    .ok_or_else(|| unknown_name("chart input", &input, &input_names))?;
                match &found.source {
                    Some(
                        grognard_kernel::chart::InputSource::DistanceBand(bands)
                        | grognard_kernel::chart::InputSource::TableDistanceBand(bands),
                    ) => Ok(bands
                        .iter()
                        .position(|b| distance <= *b)
                        .unwrap_or(bands.len()) as i32),
                    _ => Err(mlua::Error::runtime(format!(
                        "input `{input}` of chart `{chart}` is not read from distance_band"
                    ))),
                }
            },
        )?,
    )?;
    game.set(
        "intent",
        method(
            lua,
            slot,
            move |lua, cx: &Call<'_, '_, '_, '_>, _: Table| {
                let dice = cx.dice;
                lua.create_sequence_from(dice.borrow().action_intent().iter().cloned())
            },
        )?,
    )?;
    game.set(
        "action_inputs",
        method(
            lua,
            slot,
            move |lua, cx: &Call<'_, '_, '_, '_>, _: Table| {
                let dice = cx.dice;
                let inputs = lua.create_table()?;
                for (name, value) in dice.borrow().action_inputs() {
                    inputs.raw_set(name.clone(), *value)?;
                }
                Ok(inputs)
            },
        )?,
    )?;
    game.set(
        "action_faces",
        method(
            lua,
            slot,
            move |lua, cx: &Call<'_, '_, '_, '_>, _: Table| {
                let dice = cx.dice;
                lua.create_sequence_from(dice.borrow().action_faces().iter().cloned())
            },
        )?,
    )?;
    game.set(
        "resolve",
        method(lua, slot, move |lua, cx: &Call<'_, '_, '_, '_>, (_, chart, inputs, purpose): (Table, String, Option<Table>, Option<String>)| { let world = cx.world; let rules = world.rules; let dice = cx.dice;
            let names: Vec<String> = rules.charts.iter().map(|c| c.name.clone()).collect();
            let id = rules.chart_by_name(&chart).ok_or_else(|| unknown_name("chart", &chart, &names))?;
            let def = rules.chart(id).ok_or_else(|| mlua::Error::runtime("chart vanished"))?;
            let mut set = Vec::new();
            if let Some(inputs) = inputs {
                for pair in inputs.pairs::<String, i32>() {
                    let (name, v) = pair?;
                    let input_names: Vec<String> = def.inputs.iter().map(|i| i.name.clone()).collect();
                    let i = def
                        .inputs
                        .iter()
                        .position(|x| x.name == name)
                        .ok_or_else(|| unknown_name("chart input", &name, &input_names))?;
                    set.push((i, v));
                }
            }
            set.sort_unstable();
            let purpose = purpose.unwrap_or_else(|| format!("{chart} resolved by a hook"));
            let resolution = dice
                .borrow_mut()
                .resolve(id, &set, &purpose)
                .ok_or_else(|| mlua::Error::runtime("chart vanished"))?;
            let faces = lua.create_table()?;
            for d in &resolution.dice {
                let label = rules
                    .dice
                    .get(d.die.index())
                    .and_then(|x| x.faces.get(usize::from(d.face)))
                    .map_or_else(|| d.value.to_string(), |f| f.label.clone());
                faces.raw_push(label)?;
            }
            Ok((def.outcomes.get(resolution.outcome).cloned(), faces))
        })?,
    )?;

    // Changes, queued for the kernel.
    game.set(
        "add_counter",
        method(
            lua,
            slot,
            move |_,
                  cx: &Call<'_, '_, '_, '_>,
                  (_, u, name, amount): (Table, Value, String, Option<i32>)| {
                let world = cx.world;
                let rules = world.rules;
                let p = piece(world, &u)?;
                cx.queue(HookCommand::AddCounter {
                    piece: p.id,
                    counter: counter_id(rules, &name)?,
                    amount: amount.unwrap_or(1),
                })
            },
        )?,
    )?;
    game.set(
        "set_flag",
        method(
            lua,
            slot,
            move |_,
                  cx: &Call<'_, '_, '_, '_>,
                  (_, u, name, on): (Table, Value, String, Option<bool>)| {
                let world = cx.world;
                let rules = world.rules;
                let p = piece(world, &u)?;
                cx.queue(HookCommand::SetFlag {
                    piece: p.id,
                    flag: flag_id(rules, &name)?,
                    on: on.unwrap_or(true),
                })
            },
        )?,
    )?;
    game.set(
        "set_mode",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u, name): (Table, Value, String)| {
                let world = cx.world;
                let rules = world.rules;
                let p = piece(world, &u)?;
                cx.queue(HookCommand::SetMode {
                    piece: p.id,
                    mode: mode_id(rules, &name)?,
                })
            },
        )?,
    )?;
    game.set(
        "remove",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u, reason): (Table, Value, Option<String>)| {
                let world = cx.world;
                let p = piece(world, &u)?;
                cx.queue(HookCommand::Remove {
                    piece: p.id,
                    reason: reason.unwrap_or_else(|| "removed by a hook".into()),
                })
            },
        )?,
    )?;
    game.set(
        "place",
        method(
            lua,
            slot,
            move |_,
                  cx: &Call<'_, '_, '_, '_>,
                  (_, u, col, row, reason): (Table, Value, i32, i32, Option<String>)| {
                let world = cx.world;
                let p = piece(world, &u)?;
                cx.queue(HookCommand::Place {
                    piece: p.id,
                    cell: Cell::new(col, row),
                    reason: reason.unwrap_or_else(|| "placed by a hook".into()),
                })
            },
        )?,
    )?;
    game.set(
        "place_at",
        method(
            lua,
            slot,
            move |_,
                  cx: &Call<'_, '_, '_, '_>,
                  (_, u, x, y, facing, reason): (
                Table,
                Value,
                f64,
                f64,
                Option<f64>,
                Option<String>,
            )| {
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
            },
        )?,
    )?;
    game.set(
        "face",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u, dir): (Table, Value, String)| {
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
            },
        )?,
    )?;
    game.set(
        "attach",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, u, host): (Table, Value, Value)| {
                let world = cx.world;
                let p = piece(world, &u)?;
                let to = match host {
                    Value::Nil => None,
                    other => Some(piece(world, &other)?.id),
                };
                cx.queue(HookCommand::Attach { piece: p.id, to })
            },
        )?,
    )?;
    game.set(
        "add_feature",
        method(
            lua,
            slot,
            move |_,
                  cx: &Call<'_, '_, '_, '_>,
                  (_, name, c1, r1, c2, r2, reason): (
                Table,
                String,
                i32,
                i32,
                i32,
                i32,
                Option<String>,
            )| {
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
            },
        )?,
    )?;
    game.set(
        "note",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, text): (Table, String)| {
                let text: String = text.chars().take(500).collect();
                cx.queue(HookCommand::Note(text))
            },
        )?,
    )?;
    game.set(
        "announce",
        method(
            lua,
            slot,
            move |_, cx: &Call<'_, '_, '_, '_>, (_, text): (Table, String)| {
                let text: String = text.chars().take(500).collect();
                cx.queue(HookCommand::Announce(text))
            },
        )?,
    )?;
    Ok(game)
}

/// The units on the board (`on_board`) or off it, of one side or all, in scenario order.
fn unit_list(
    lua: &Lua,
    world: &World<'_>,
    side: Option<&str>,
    on_board: bool,
) -> mlua::Result<Table> {
    let list = lua.create_table()?;
    for p in world
        .state
        .pieces
        .iter()
        .filter(|p| p.on_board() == on_board)
    {
        let of_side =
            side.is_none_or(|s| world.sides.get(p.side.index()).is_some_and(|d| d.name == s));
        if of_side {
            list.raw_push(lua.create_userdata(UnitRef(p.id))?)?;
        }
    }
    Ok(list)
}
