//! Charts and effects: each chart's dice, inputs (and where they come from), modifiers,
//! re-rolls, rows or bands and outcomes, and each effect an outcome or trigger applies,
//! with every name resolved and every problem located.

use grognard_kernel::chart::{
    BandRow, ChartDef, FaceTest, GroupDef, InputDef, InputSource, Lookup, ModifierDef, RerollDef,
    ScoreRow,
};
use grognard_kernel::dice::DieDef;
use grognard_kernel::ids::{CounterId, DieId, FlagId, ModeId, TagId};
use grognard_kernel::rules::{Effect, Who};

use crate::de::Located;
use crate::diag::Location;
use crate::model::{ChartSpec, EffectSpec};

use super::{Cx, parse_dice, parse_range};

pub(super) struct ChartNames<'a> {
    pub(super) options: &'a [&'a str],
    pub(super) piece_attrs: &'a [&'a str],
    pub(super) counters: &'a [&'a str],
    pub(super) modes: &'a [&'a str],
    pub(super) flags: &'a [&'a str],
    pub(super) attrs: &'a [&'a str],
    pub(super) settings: &'a [&'a str],
    pub(super) tags: &'a [String],
    pub(super) intents: &'a [&'a str],
}

pub(super) struct EffectNames<'a> {
    pub(super) counters: &'a [&'a str],
    pub(super) flags: &'a [&'a str],
    pub(super) modes: &'a [&'a str],
}

pub(super) fn compile_effect(
    cx: &mut Cx,
    e: &EffectSpec,
    default_who: Who,
    names: &EffectNames<'_>,
    at: &Location,
) -> Option<Effect> {
    let who = match e.to.as_ref().map(|t| t.value.as_str()) {
        None => default_who,
        Some("actor") => Who::Actor,
        Some("target") => Who::Target,
        Some(other) => {
            if let Some(t) = &e.to {
                cx.error(
                    &t.location,
                    format!("unknown `to: {other}`; expected actor or target"),
                );
            }
            default_who
        }
    };
    let verbs = [
        e.add.is_some(),
        e.set.is_some(),
        e.clear.is_some(),
        e.mode.is_some(),
        e.remove == Some(true),
    ];
    if verbs.iter().filter(|v| **v).count() != 1 {
        cx.error(
            at,
            "each effect needs exactly one of `add`, `set`, `clear`, `mode`, `remove: true`",
        );
        return None;
    }
    if let Some(c) = &e.add {
        let i = cx.lookup("counter", c, names.counters.iter().copied())?;
        return Some(Effect::AddCounter {
            who,
            counter: CounterId(i as u16),
            amount: e.amount.unwrap_or(1),
        });
    }
    if let Some(f) = e.set.as_ref().or(e.clear.as_ref()) {
        let i = cx.lookup("flag", f, names.flags.iter().copied())?;
        return Some(Effect::SetFlag {
            who,
            flag: FlagId(i as u16),
            on: e.set.is_some(),
        });
    }
    if let Some(m) = &e.mode {
        let i = cx.lookup("mode", m, names.modes.iter().copied())?;
        return Some(Effect::SetMode {
            who,
            mode: ModeId(i as u16),
        });
    }
    Some(Effect::Remove { who })
}

pub(super) fn compile_chart(
    cx: &mut Cx,
    name: &Located<String>,
    spec: &ChartSpec,
    dice: &mut Vec<DieDef>,
    die_names: &mut Vec<String>,
    names: &ChartNames<'_>,
) -> ChartDef {
    let expr = parse_dice(cx, &spec.dice, dice, die_names);
    let input_names: Vec<&str> = spec.inputs.names().collect();
    let inputs: Vec<InputDef> = spec
        .inputs
        .iter()
        .map(|i| {
            let v = &i.value;
            let source = v.from.as_ref().and_then(|from| {
                let mut words = from.value.split_whitespace();
                let head = words.next().unwrap_or("");
                let arg = words.next();
                let need = |cx: &mut Cx, list: &[&str], what: &str| -> Option<usize> {
                    match arg {
                        Some(a) => cx.lookup(what, &Located { value: a.to_owned(), location: from.location.clone() }, list.iter().copied()),
                        None => {
                            cx.error(&from.location, format!("`{head}` needs a {what} name after it"));
                            None
                        }
                    }
                };
                match head {
                    "distance" => Some(InputSource::Distance),
                    "table_distance" => Some(InputSource::TableDistance),
                    "table_distance_band" => {
                        if v.bands.is_empty() {
                            cx.error(&from.location, "`table_distance_band` needs `bands: [..]`, the largest distance of each band");
                        }
                        Some(InputSource::TableDistanceBand(v.bands.clone()))
                    }
                    "actor.mode" => need(cx, names.modes, "mode").map(|m| InputSource::ActorMode(ModeId(m as u16))),
                    "target.mode" => need(cx, names.modes, "mode").map(|m| InputSource::TargetMode(ModeId(m as u16))),
                    "distance_band" => {
                        if v.bands.is_empty() {
                            cx.error(&from.location, "`distance_band` needs `bands: [..]`, the largest distance of each band");
                        }
                        Some(InputSource::DistanceBand(v.bands.clone()))
                    }
                    "actor.counter" => need(cx, names.counters, "counter").map(|c| InputSource::ActorCounter(CounterId(c as u16))),
                    "target.counter" => need(cx, names.counters, "counter").map(|c| InputSource::TargetCounter(CounterId(c as u16))),
                    "actor.flag" => need(cx, names.flags, "flag").map(|c| InputSource::ActorFlag(FlagId(c as u16))),
                    "target.flag" => need(cx, names.flags, "flag").map(|c| InputSource::TargetFlag(FlagId(c as u16))),
                    "target.flank_or_rear" => Some(InputSource::TargetFlankOrRear),
                    "actor.attribute" => need(cx, names.piece_attrs, "piece attribute").map(InputSource::ActorAttribute),
                    "target.attribute" => need(cx, names.piece_attrs, "piece attribute").map(InputSource::TargetAttribute),
                    "target.terrain" => need(cx, names.attrs, "terrain attribute").map(InputSource::TargetTerrain),
                    "actor.terrain" => need(cx, names.attrs, "terrain attribute").map(InputSource::ActorTerrain),
                    "setting" => need(cx, names.settings, "setting").map(InputSource::Setting),
                    "option" => need(cx, names.options, "optional rule").map(InputSource::Option),
                    "intent" => need(cx, names.intents, "intent").map(|i| InputSource::Intent(names.intents[i].to_owned())),
                    other => {
                        cx.error(
                            &from.location,
                            format!("unknown input source `{other}`; expected distance, table_distance, distance_band, table_distance_band, actor.counter, actor.mode, target.mode, target.counter, actor.flag, target.flag, actor.attribute, target.attribute, target.flank_or_rear, target.terrain, actor.terrain, setting, option or intent"),
                        );
                        None
                    }
                }
            });
            // Sourced inputs read counters, attributes and settings that may be negative.
            let min = v.min.unwrap_or(match &source {
                Some(InputSource::ActorCounter(_) | InputSource::TargetCounter(_) | InputSource::ActorAttribute(_) | InputSource::TargetAttribute(_) | InputSource::TargetTerrain(_) | InputSource::ActorTerrain(_) | InputSource::Setting(_)) => -1_000_000,
                _ => 0,
            });
            let max = v.max.unwrap_or(match &source {
                Some(InputSource::DistanceBand(b) | InputSource::TableDistanceBand(b)) => b.len() as i32,
                Some(InputSource::Distance | InputSource::TableDistance | InputSource::ActorAttribute(_) | InputSource::TargetAttribute(_) | InputSource::ActorCounter(_) | InputSource::TargetCounter(_) | InputSource::TargetTerrain(_) | InputSource::ActorTerrain(_) | InputSource::Setting(_)) => i32::MAX,
                _ => 1.max(v.default),
            });
            if max < min {
                cx.error(&i.name.location, format!("input `{}`: max {max} is below min {min}", i.name.value));
            }
            let with = v
                .with
                .iter()
                .filter_map(|w| cx.lookup("chart input", w, input_names.iter().copied()))
                .collect();
            let without = v
                .without
                .iter()
                .filter_map(|w| cx.lookup("chart input", w, input_names.iter().copied()))
                .collect();
            InputDef {
                name: i.name.value.clone(),
                default: v.default,
                min,
                max,
                source,
                with,
                without,
            }
        })
        .collect();
    let group_names: Vec<&str> = spec.groups.names().collect();
    let groups: Vec<GroupDef> = spec
        .groups
        .iter()
        .map(|g| GroupDef {
            name: g.name.value.clone(),
            min: g.value.min,
            max: g.value.max,
        })
        .collect();
    let modifiers: Vec<ModifierDef> = spec
        .modifiers
        .iter()
        .filter_map(|m| {
            let input = cx.lookup("chart input", &m.input, input_names.iter().copied())?;
            let group = match &m.group {
                Some(g) => Some(cx.lookup("modifier group", g, group_names.iter().copied())?),
                None => None,
            };
            Some(ModifierDef {
                name: if m.name.is_empty() {
                    m.input.value.clone()
                } else {
                    m.name.clone()
                },
                input,
                per: m.per,
                group,
            })
        })
        .collect();
    let first_die = expr.terms.first().map(|t| t.die);
    let rerolls: Vec<RerollDef> = spec
        .rerolls
        .iter()
        .filter_map(|r| {
            let die = match &r.die {
                Some(d) => DieId(cx.lookup("die", d, die_names.iter().map(String::as_str))? as u16),
                None => first_die?,
            };
            let def = dice.get(die.index())?;
            let faces = r
                .faces
                .iter()
                .filter_map(|f| {
                    cx.lookup("face", f, def.faces.iter().map(|x| x.label.as_str()))
                        .map(|i| i as u8)
                })
                .collect();
            let when = match &r.when {
                Some(w) => Some(cx.lookup("chart input", w, input_names.iter().copied())?),
                None => None,
            };
            Some(RerollDef { die, faces, when })
        })
        .collect();

    let mut outcomes: Vec<String> = Vec::new();
    let mut outcome = |name: &str| -> usize {
        outcomes.iter().position(|o| o == name).unwrap_or_else(|| {
            outcomes.push(name.to_owned());
            outcomes.len() - 1
        })
    };
    let lookup = match (&spec.bands, spec.rows.is_empty()) {
        (Some(b), true) => {
            let base = cx
                .lookup("chart input", &b.base, input_names.iter().copied())
                .unwrap_or(0);
            let rows = b
                .rows
                .iter()
                .map(|r| {
                    let tags = |cx: &mut Cx, list: &[Located<String>]| -> Vec<TagId> {
                        list.iter()
                            .filter_map(|t| cx.lookup("face tag", t, names.tags.iter().map(String::as_str)))
                            .map(|i| TagId(i as u16))
                            .collect()
                    };
                    let test = match (r.test.as_ref().map(|t| t.value.as_str()), r.all.is_empty(), r.any.is_empty(), r.at_least) {
                        (Some("always"), true, true, None) => FaceTest::Always,
                        (Some("never"), true, true, None) => FaceTest::Never,
                        (None, false, true, None) => FaceTest::AllTags(tags(cx, &r.all)),
                        (None, true, false, None) => FaceTest::AnyTag(tags(cx, &r.any)),
                        (None, true, true, Some(v)) => FaceTest::AtLeast(v),
                        _ => {
                            cx.error(
                                &r.pass.location,
                                format!("band `{}` needs exactly one test: `test: always`, `test: never`, `all: [tags]`, `any: [tags]` or `at_least: N`", r.band),
                            );
                            FaceTest::Never
                        }
                    };
                    BandRow {
                        name: r.band.clone(),
                        test,
                        pass: outcome(&r.pass.value),
                        fail: outcome(&r.fail.value),
                    }
                })
                .collect::<Vec<_>>();
            if rows.is_empty() {
                cx.error(
                    &name.location,
                    format!("chart `{}`: `bands.rows` is empty", name.value),
                );
            }
            Lookup::Band { base, rows }
        }
        (None, _) => {
            let rows = spec
                .rows
                .iter()
                .map(|r| {
                    let (mut min, mut max) = (r.min, r.max);
                    if let Some(s) = &r.score {
                        match parse_range(&s.value) {
                            Some((lo, hi)) => {
                                min = min.or(lo);
                                max = max.or(hi);
                            }
                            None => cx.error(&s.location, format!("`score: {}`: expected a number or a range like `8-10`, `10+` or `3-`", s.value)),
                        }
                    }
                    let when = r
                        .when
                        .iter()
                        .filter_map(|w| cx.lookup("chart input", &w.name, input_names.iter().copied()).map(|i| (i, w.value)))
                        .collect();
                    let natural = r.natural.as_ref().and_then(|n| match parse_range(&n.value) {
                        Some(range) => Some(range),
                        None => {
                            cx.error(&n.location, format!("`natural: {}`: expected a number or a range like `10-11`, `12` or `2-`", n.value));
                            None
                        }
                    });
                    ScoreRow {
                        min,
                        max,
                        when,
                        natural,
                        outcome: outcome(&r.result.value),
                    }
                })
                .collect::<Vec<_>>();
            let default = match &spec.otherwise {
                Some(o) => outcome(&o.value),
                None => outcome("no effect"),
            };
            if rows.is_empty() {
                cx.error(
                    &name.location,
                    format!(
                        "chart `{}` needs `rows:` (score charts) or `bands:` (band charts)",
                        name.value
                    ),
                );
            }
            Lookup::Score { rows, default }
        }
        (Some(_), false) => {
            cx.error(
                &name.location,
                format!(
                    "chart `{}` has both `rows:` and `bands:`; use one",
                    name.value
                ),
            );
            Lookup::Score {
                rows: Vec::new(),
                default: outcome("no effect"),
            }
        }
    };
    ChartDef {
        name: name.value.clone(),
        dice: expr,
        inputs,
        modifiers,
        groups,
        rerolls,
        lookup,
        outcomes,
        secret: spec.secret,
    }
}
