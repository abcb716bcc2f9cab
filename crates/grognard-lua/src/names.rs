//! What scripts and the engine say to each other by name: [`UnitRef`], the handle a script
//! holds for a piece (an id resolved against the game on every use), the cap on the changes
//! one call may queue, and the look-ups that turn a script's counter, flag, mode and dice
//! names into ids, with "did you mean" when a name is unknown, and the other way the
//! strings the engine hands scripts (kinds, modes, sides, phases, terrain, piece names,
//! arcs), made once per sandbox (`interned`). Both the hook host and the `game` object
//! use these; this module imports neither.

use grognard_kernel::dice::{DiceExpr, DiceTerm};
use grognard_kernel::ids::{CounterId, DieId, FlagId, ModeId, PieceId};
use grognard_rules::suggest::did_you_mean;
use mlua::{AnyUserData, Lua, LuaString, MetaMethod, Table, UserData, UserDataMethods, Value};

/// Most changes one hook call may queue: a guard against a script that loops asking.
pub const MAX_COMMANDS_PER_CALL: usize = 10_000;

/// A piece as Lua holds it: an id, resolved against the game on every use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitRef(pub PieceId);

impl UserData for UnitRef {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("id", |_, this, ()| Ok(this.0.0));
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| {
            Ok(format!("unit #{}", this.0.0))
        });
        methods.add_meta_method(MetaMethod::Eq, |_, this, other: mlua::AnyUserData| {
            Ok(other.borrow::<UnitRef>().is_ok_and(|o| *o == *this))
        });
    }
}

/// The handles already made, by piece: one userdata per piece for the sandbox's life, so
/// that handing a unit to a script costs a table read, not a new userdata, and a unit is
/// the same Lua value every time (usable as a table key across calls).
struct UnitHandles(Table);

/// The handle of piece `id` as a Lua value (see [`UnitRef`]).
pub(crate) fn unit_handle(lua: &Lua, id: PieceId) -> mlua::Result<AnyUserData> {
    handle_from(lua, &unit_handles(lua)?, id)
}

/// The table of the handles made so far, by piece id plus one, made on first use: a list
/// of units reads it once, not once per unit.
pub(crate) fn unit_handles(lua: &Lua) -> mlua::Result<Table> {
    if let Some(handles) = lua.app_data_ref::<UnitHandles>() {
        return Ok(handles.0.clone());
    }
    let table = lua.create_table()?;
    lua.set_app_data(UnitHandles(table.clone()));
    Ok(table)
}

/// The handle of piece `id` from `cache` (the [`unit_handles`] table), made if new.
pub(crate) fn handle_from(lua: &Lua, cache: &Table, id: PieceId) -> mlua::Result<AnyUserData> {
    let key = i64::from(id.0) + 1;
    if let Value::UserData(handle) = cache.raw_get::<Value>(key)? {
        return Ok(handle);
    }
    let handle = lua.create_userdata(UnitRef(id))?;
    cache.raw_set(key, &handle)?;
    Ok(handle)
}

/// Which of the game's lists a name handed to a script comes from: [`interned`] keeps one
/// Lua string per list and index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameList {
    /// Piece types (`game:kind`), by type id.
    Kind,
    /// Modes (`game:mode`), by mode id.
    Mode,
    /// Sides (`game:side`, `game:phasing`), by side index.
    Side,
    /// Phases (`game:phase`), by turn-plan step.
    Phase,
    /// Terrain types (`game:terrain`, `game:terrain_of`), by terrain id.
    Terrain,
    /// Pieces' scenario names (`game:name`), by piece id.
    Piece,
    /// Grid facings (`game:facing`), by facing.
    Facing,
    /// Arcs (`game:arc`, `game:arc_from`, `game:arc_at`): front, flank, rear.
    Arc,
}

impl NameList {
    const COUNT: usize = 8;
}

/// The Lua strings already made for names, by [`NameList`] and index.
#[derive(Default)]
struct Interned(Vec<Vec<Option<LuaString>>>);

/// `name`, the `index`-th of `list`, as a Lua string made once per sandbox: checks ask for
/// kinds, modes and sides thousands of times a listing, and a new Rust `String` copied into
/// Lua each time was some 5% of a Black Powder order. The string kept is compared with
/// `name` on every use, so a sandbox that plays another scenario (other sides, other
/// piece names) never hands out a stale one: it is made again.
pub(crate) fn interned(
    lua: &Lua,
    list: NameList,
    index: usize,
    name: &str,
) -> mlua::Result<LuaString> {
    if let Some(kept) = lua.app_data_ref::<Interned>()
        && let Some(Some(s)) = kept.0.get(list as usize).and_then(|l| l.get(index))
        && *s.as_bytes() == *name.as_bytes()
    {
        return Ok(s.clone());
    }
    let made = lua.create_string(name)?;
    if lua.app_data_ref::<Interned>().is_none() {
        lua.set_app_data(Interned(vec![Vec::new(); NameList::COUNT]));
    }
    if let Some(mut kept) = lua.app_data_mut::<Interned>()
        && let Some(l) = kept.0.get_mut(list as usize)
    {
        if l.len() <= index {
            l.resize(index + 1, None);
        }
        l[index] = Some(made.clone());
    }
    Ok(made)
}

pub(crate) fn unknown_name(what: &str, name: &str, known: &[String]) -> mlua::Error {
    if known.is_empty() {
        return mlua::Error::runtime(format!(
            "unknown {what} `{name}`: the ruleset declares none"
        ));
    }
    let hint = did_you_mean(name, known.iter().map(String::as_str)).map_or_else(
        || format!("; known: {}", known.join(", ")),
        |s| format!("; did you mean `{s}`?"),
    );
    mlua::Error::runtime(format!("unknown {what} `{name}`{hint}"))
}

/// Resolves a dice expression the way rulesets write it (`2d6`, `d10`, `cube`).
pub(crate) fn parse_dice(
    rules: &grognard_kernel::rules::Rules,
    text: &str,
) -> Result<DiceExpr, String> {
    let mut terms = Vec::new();
    for part in text.split('+').map(str::trim).filter(|p| !p.is_empty()) {
        let split = part
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(part.len());
        let count: u8 = if split == 0 {
            1
        } else {
            part[..split]
                .parse()
                .map_err(|_| format!("bad dice `{text}`"))?
        };
        let name = part[split..].trim();
        let die = rules
            .dice
            .iter()
            .position(|d| d.name == name)
            .ok_or_else(|| {
                format!(
                    "unknown die `{name}` in `{text}`; the ruleset has {}",
                    rules
                        .dice
                        .iter()
                        .map(|d| d.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
        if count == 0 || count > 20 {
            return Err(format!("`{part}`: roll 1 to 20 dice"));
        }
        terms.push(DiceTerm {
            count,
            die: DieId(die as u16),
        });
    }
    if terms.is_empty() {
        return Err(format!("`{text}`: expected dice such as `2d6`"));
    }
    Ok(DiceExpr { terms })
}

/// The index of `name` among `names`, or a Lua error naming what was unknown with a
/// did-you-mean.
pub(crate) fn find_named<'a>(
    what: &str,
    name: &str,
    names: impl Iterator<Item = &'a str> + Clone,
) -> mlua::Result<usize> {
    names
        .clone()
        .position(|n| n == name)
        .ok_or_else(|| unknown_name(what, name, &names.map(str::to_owned).collect::<Vec<_>>()))
}

pub(crate) fn counter_id(
    rules: &grognard_kernel::rules::Rules,
    name: &str,
) -> mlua::Result<CounterId> {
    find_named(
        "counter",
        name,
        rules.counters.iter().map(|c| c.name.as_str()),
    )
    .map(|i| CounterId(i as u16))
}

pub(crate) fn flag_id(rules: &grognard_kernel::rules::Rules, name: &str) -> mlua::Result<FlagId> {
    find_named("flag", name, rules.flags.iter().map(|c| c.name.as_str())).map(|i| FlagId(i as u16))
}

pub(crate) fn mode_id(rules: &grognard_kernel::rules::Rules, name: &str) -> mlua::Result<ModeId> {
    find_named("mode", name, rules.modes.iter().map(|c| c.name.as_str())).map(|i| ModeId(i as u16))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name is made once and handed out again while it is the same; when the game's name
    /// at that index differs (another scenario in the same sandbox), the new one is made
    /// and kept, never the stale one.
    #[test]
    fn interned_names_are_kept_and_never_stale() -> mlua::Result<()> {
        let lua = Lua::new();
        let first = interned(&lua, NameList::Side, 1, "french")?;
        let again = interned(&lua, NameList::Side, 1, "french")?;
        assert_eq!(first.to_str()?, "french");
        assert_eq!(again.to_str()?, "french");
        let other = interned(&lua, NameList::Side, 1, "austrians")?;
        assert_eq!(other.to_str()?, "austrians");
        // Lists do not share indices: kind 1 is not side 1.
        assert_eq!(
            interned(&lua, NameList::Kind, 1, "cavalry")?.to_str()?,
            "cavalry"
        );
        assert_eq!(
            interned(&lua, NameList::Side, 1, "austrians")?.to_str()?,
            "austrians"
        );
        // An index past the ones seen grows the list.
        assert_eq!(interned(&lua, NameList::Piece, 40, "b3")?.to_str()?, "b3");
        Ok(())
    }
}
