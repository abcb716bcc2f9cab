//! The `game` object a game hook receives: reads of the game as it stands, and requests
//! for changes that the kernel validates after the hook returns. Its functions are
//! created for one call and borrow the game only for that call, so a script that keeps
//! `game` in a global finds it dead afterwards.

use std::cell::RefCell;

use grognard_kernel::game::World;
use grognard_kernel::geometry::Cell;
use grognard_kernel::hooks::{HookCommand, HookDice};
use grognard_kernel::ids::PieceId;
use grognard_kernel::piece::{Piece, Place};
use mlua::{Lua, Scope, Table, Value};

use crate::host::{
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

/// Builds the `game` table for one hook call.
pub(crate) fn game_table<'scope, 'env: 'scope, 'w: 'env, 'm: 'env, 'd: 'm>(
    lua: &Lua,
    scope: &'scope Scope<'scope, 'env>,
    world: &'env World<'w>,
    dice: &'env RefCell<&'m mut HookDice<'d>>,
    commands: &'env RefCell<Vec<HookCommand>>,
) -> mlua::Result<Table> {
    let game = lua.create_table()?;
    let rules = world.rules;
    let queue = move |command: HookCommand| -> mlua::Result<()> {
        let mut c = commands.borrow_mut();
        if c.len() >= MAX_COMMANDS_PER_CALL {
            return Err(mlua::Error::runtime(format!(
                "a hook may ask for at most {MAX_COMMANDS_PER_CALL} changes per call"
            )));
        }
        c.push(command);
        Ok(())
    };

    game.set(
        "turn",
        scope.create_function(move |_, _: Table| Ok(world.state.turn))?,
    )?;
    game.set(
        "phase",
        scope.create_function(move |_, _: Table| {
            let plan = rules.turn_plan(&world.state.order);
            Ok(plan
                .get(world.state.step as usize)
                .map(|(p, _)| p.name.clone()))
        })?,
    )?;
    game.set(
        "phasing",
        scope.create_function(move |_, _: Table| {
            let plan = rules.turn_plan(&world.state.order);
            Ok(plan
                .get(world.state.step as usize)
                .and_then(|(_, s)| world.sides.get(*s))
                .map(|s| s.name.clone()))
        })?,
    )?;
    game.set(
        "units",
        scope.create_function(move |lua, (_, side): (Table, Option<String>)| {
            let list = lua.create_table()?;
            for p in world.state.pieces.iter().filter(|p| p.on_board()) {
                let of_side = side
                    .as_deref()
                    .is_none_or(|s| world.sides.get(p.side.index()).is_some_and(|d| d.name == s));
                if of_side {
                    list.raw_push(lua.create_userdata(UnitRef(p.id))?)?;
                }
            }
            Ok(list)
        })?,
    )?;
    game.set(
        "unit",
        scope.create_function(move |lua, (_, name): (Table, String)| {
            world
                .state
                .pieces
                .iter()
                .find(|p| p.name == name)
                .map(|p| lua.create_userdata(UnitRef(p.id)))
                .transpose()
        })?,
    )?;
    game.set(
        "name",
        scope
            .create_function(move |_, (_, u): (Table, Value)| Ok(piece(world, &u)?.name.clone()))?,
    )?;
    game.set(
        "side",
        scope.create_function(move |_, (_, u): (Table, Value)| {
            let p = piece(world, &u)?;
            Ok(world.sides.get(p.side.index()).map(|s| s.name.clone()))
        })?,
    )?;
    game.set(
        "kind",
        scope.create_function(move |_, (_, u): (Table, Value)| {
            let p = piece(world, &u)?;
            Ok(rules.piece_type(p.kind).map(|t| t.name.clone()))
        })?,
    )?;
    game.set(
        "mode",
        scope.create_function(move |_, (_, u): (Table, Value)| {
            Ok(rules.mode_name(piece(world, &u)?.mode).to_owned())
        })?,
    )?;
    game.set(
        "on_board",
        scope.create_function(move |_, (_, u): (Table, Value)| Ok(piece(world, &u)?.on_board()))?,
    )?;
    game.set(
        "cell",
        scope.create_function(move |_, (_, u): (Table, Value)| {
            Ok(match piece(world, &u)?.place.cell() {
                Some(c) => (Some(c.col), Some(c.row)),
                None => (None, None),
            })
        })?,
    )?;
    game.set(
        "counter",
        scope.create_function(move |_, (_, u, name): (Table, Value, String)| {
            Ok(piece(world, &u)?.counter(counter_id(rules, &name)?))
        })?,
    )?;
    game.set(
        "flag",
        scope.create_function(move |_, (_, u, name): (Table, Value, String)| {
            Ok(piece(world, &u)?.flag(flag_id(rules, &name)?))
        })?,
    )?;
    game.set(
        "attribute",
        scope.create_function(move |_, (_, u, name): (Table, Value, String)| {
            let i = find_named("piece attribute", &name, rules.piece_attributes.iter())?;
            Ok(piece(world, &u)?.attribute(i))
        })?,
    )?;
    game.set(
        "terrain",
        scope.create_function(move |_, (_, col, row): (Table, i32, i32)| {
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
        })?,
    )?;
    game.set(
        "distance",
        scope.create_function(move |_, (_, a, b): (Table, Value, Value)| {
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
        })?,
    )?;
    game.set(
        "setting",
        scope.create_function(move |_, (_, name): (Table, String)| {
            let i = find_named(
                "setting",
                &name,
                rules.settings.iter().map(|s| s.name.as_str()),
            )?;
            Ok(world.state.settings.get(i).copied().unwrap_or(0))
        })?,
    )?;
    game.set(
        "option",
        scope.create_function(move |_, (_, name): (Table, String)| {
            let i = find_named(
                "optional rule",
                &name,
                rules.options.iter().map(|s| s.name.as_str()),
            )?;
            Ok(world.state.options.get(i).copied().unwrap_or(false))
        })?,
    )?;

    // Dice, through the game's RNG; every roll is logged by the kernel.
    game.set(
        "roll",
        scope.create_function(
            move |lua, (_, text, purpose): (Table, String, Option<String>)| {
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
        "resolve",
        scope.create_function(move |_, (_, chart, inputs, purpose): (Table, String, Option<Table>, Option<String>)| {
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
            Ok(def.outcomes.get(resolution.outcome).cloned())
        })?,
    )?;

    // Changes, queued for the kernel.
    game.set(
        "add_counter",
        scope.create_function(
            move |_, (_, u, name, amount): (Table, Value, String, Option<i32>)| {
                let p = piece(world, &u)?;
                queue(HookCommand::AddCounter {
                    piece: p.id,
                    counter: counter_id(rules, &name)?,
                    amount: amount.unwrap_or(1),
                })
            },
        )?,
    )?;
    game.set(
        "set_flag",
        scope.create_function(
            move |_, (_, u, name, on): (Table, Value, String, Option<bool>)| {
                let p = piece(world, &u)?;
                queue(HookCommand::SetFlag {
                    piece: p.id,
                    flag: flag_id(rules, &name)?,
                    on: on.unwrap_or(true),
                })
            },
        )?,
    )?;
    game.set(
        "set_mode",
        scope.create_function(move |_, (_, u, name): (Table, Value, String)| {
            let p = piece(world, &u)?;
            queue(HookCommand::SetMode {
                piece: p.id,
                mode: mode_id(rules, &name)?,
            })
        })?,
    )?;
    game.set(
        "remove",
        scope.create_function(move |_, (_, u, reason): (Table, Value, Option<String>)| {
            let p = piece(world, &u)?;
            queue(HookCommand::Remove {
                piece: p.id,
                reason: reason.unwrap_or_else(|| "removed by a hook".into()),
            })
        })?,
    )?;
    game.set(
        "note",
        scope.create_function(move |_, (_, text): (Table, String)| {
            let text: String = text.chars().take(500).collect();
            queue(HookCommand::Note(text))
        })?,
    )?;
    Ok(game)
}
