//! The `game` object's dice and charts, through the game's generator (every roll is logged
//! by the kernel), and what the action being resolved was given.

use std::rc::Rc;

use mlua::{Lua, Table, Value};

use crate::names::{parse_dice, unknown_name};

use super::{Call, Slot, add_method, method, piece};

/// Adds these functions to the object's table.
pub(super) fn add(lua: &Lua, slot: &Rc<Slot>, game: &Table) -> mlua::Result<()> {
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
                let (_, def) = chart_named(rules, &chart)?;
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
    add_method(lua, slot, game, "resolve", resolve)?;
    Ok(())
}

/// The chart a script names, or an error listing the charts there are (built only then:
/// `game:resolve` runs on every roll).
fn chart_named<'r>(
    rules: &'r grognard_kernel::rules::Rules,
    chart: &str,
) -> mlua::Result<(
    grognard_kernel::ids::ChartId,
    &'r grognard_kernel::chart::ChartDef,
)> {
    let id = rules.chart_by_name(chart).ok_or_else(|| {
        let names: Vec<String> = rules.charts.iter().map(|c| c.name.clone()).collect();
        unknown_name("chart", chart, &names)
    })?;
    let def = rules
        .chart(id)
        .ok_or_else(|| mlua::Error::runtime("chart vanished"))?;
    Ok((id, def))
}

/// `game:resolve(chart [, inputs [, purpose [, { by = piece, against = piece }]]])`.
type ResolveArgs = (Table, String, Option<Table>, Option<String>, Option<Table>);

fn resolve(
    lua: &Lua,
    cx: &Call<'_, '_, '_, '_>,
    (_, chart, inputs, purpose, between): ResolveArgs,
) -> mlua::Result<(Option<String>, Table)> {
    let world = cx.world;
    let rules = world.rules;
    let dice = cx.dice;
    let (id, def) = chart_named(rules, &chart)?;
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
    // `{ by = piece, against = piece }`: the roll is made by one piece against
    // another (read by their sides), as an action's are.
    let pieces = match between {
        Some(t) => {
            let by: Value = t.get("by")?;
            let against: Value = t.get("against")?;
            let by = piece(world, &by)?.id;
            let against = match against {
                Value::Nil => None,
                v => Some(piece(world, &v)?.id),
            };
            Some((by, against))
        }
        None => None,
    };
    let resolution = match pieces {
        Some((by, against)) => dice
            .borrow_mut()
            .resolve_between(id, &set, &purpose, by, against),
        None => dice.borrow_mut().resolve(id, &set, &purpose),
    }
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
}
