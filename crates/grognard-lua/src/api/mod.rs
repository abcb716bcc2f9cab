//! The `game` object a game hook receives: reads of the game as it stands, and requests
//! for changes that the kernel validates after the hook returns. The object and its
//! functions are made once per sandbox and read the hook call in progress, so a script
//! that keeps `game` in a global finds it refusing every question afterwards.

use std::cell::{Cell as StdCell, RefCell};
use std::rc::Rc;

use grognard_kernel::game::World;
use grognard_kernel::hooks::{HookCommand, HookDice};
use grognard_kernel::ids::PieceId;
use grognard_kernel::piece::Piece;
use mlua::{FromLuaMulti, Function, IntoLuaMulti, Lua, LuaString, Table, Value};

mod changes;
mod dice;
mod grid;
mod pieces;

use crate::names::{MAX_COMMANDS_PER_CALL, NameList, UnitRef, handle_from, interned, unit_handles};

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

/// An arc as the scripts name it (`nil` for the same place), one Lua string per sandbox.
fn arc_name(
    lua: &Lua,
    arc: Option<grognard_kernel::geometry::Arc>,
) -> mlua::Result<Option<LuaString>> {
    use grognard_kernel::geometry::Arc;
    let (index, name) = match arc {
        Some(Arc::Front) => (0, "front"),
        Some(Arc::Flank) => (1, "flank"),
        Some(Arc::Rear) => (2, "rear"),
        Some(Arc::Same) | None => return Ok(None),
    };
    interned(lua, NameList::Arc, index, name).map(Some)
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
    /// What `game:memo()` answers: the memo of the legal listing in progress for a check
    /// asked on the listed state, `None` (a fresh table each time) for any other call.
    pub memo: Option<Table>,
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
        // Rolls made from now on come after this change (a note stays before them).
        if let Ok(mut dice) = self.dice.try_borrow_mut() {
            dice.set_queued(c.len());
        }
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

/// The call signature of a `game` method: the Lua state, the call in progress (the world
/// it reads, the dice it may roll, the changes it may queue) and the arguments Lua passed,
/// the object itself first (`game:unit_at(3, 4)` passes `(game, 3, 4)`).
type Method<A, R> = fn(&Lua, &Call<'_, '_, '_, '_>, A) -> mlua::Result<R>;

/// Adds `f` to the object's table as the method `name`.
fn add_method<A, R>(
    lua: &Lua,
    slot: &Rc<Slot>,
    game: &Table,
    name: &str,
    f: Method<A, R>,
) -> mlua::Result<()>
where
    A: FromLuaMulti + 'static,
    R: IntoLuaMulti + 'static,
{
    game.set(name, method(lua, slot, f)?)
}

/// The object's functions, by name.
fn game_methods(lua: &Lua, slot: &Rc<Slot>) -> mlua::Result<Table> {
    let game = lua.create_table()?;
    pieces::add(lua, slot, &game)?;
    grid::add(lua, slot, &game)?;
    dice::add(lua, slot, &game)?;
    changes::add(lua, slot, &game)?;
    add_method(lua, slot, &game, "memo", memo)?;
    Ok(game)
}

/// `game:memo()`: a table a check may keep what it reads of the game in. During a legal
/// listing every check asked on the listed game gets the same table (the game does not
/// change until the listing ends: see `Hooks::listing_begins`); any other call gets a new
/// empty one. So a script stores there only what it read of the game, keyed by what it
/// asked about, and reads the game itself when the entry is missing.
fn memo(lua: &Lua, call: &Call<'_, '_, '_, '_>, _: Value) -> mlua::Result<Table> {
    match &call.memo {
        Some(memo) => Ok(memo.clone()),
        None => lua.create_table(),
    }
}

/// The units on the board (`on_board`) or off it, of one side or all, in scenario order.
/// Scripts ask for it many times a call (every friend, every enemy), so the side is found
/// once and the handles table read once.
fn unit_list(
    lua: &Lua,
    world: &World<'_>,
    side: Option<&str>,
    on_board: bool,
) -> mlua::Result<Table> {
    let list = lua.create_table_with_capacity(world.state.pieces.len(), 0)?;
    // An unknown side has no units.
    let side = match side {
        Some(s) => match world.sides.iter().position(|d| d.name == s) {
            Some(i) => Some(i),
            None => return Ok(list),
        },
        None => None,
    };
    let handles = unit_handles(lua)?;
    let mut n = 0;
    for p in world
        .state
        .pieces
        .iter()
        .filter(|p| p.on_board() == on_board && side.is_none_or(|s| p.side.index() == s))
    {
        n += 1;
        list.raw_set(n, handle_from(lua, &handles, p.id)?)?;
    }
    Ok(list)
}
