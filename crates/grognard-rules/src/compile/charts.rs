//! Charts and effects: each chart's dice, inputs (and where they come from), modifiers,
//! re-rolls, rows or bands and outcomes, and each effect an outcome or trigger applies,
//! with every name resolved and every problem located.

use grognard_kernel::chart::{
    BandRow, ChartDef, FaceTest, GroupDef, InputDef, InputSource, Lookup, ModifierDef, RerollDef,
    ScaleDef, ScoreRow,
};
use grognard_kernel::dice::{DiceExpr, DieDef};
use grognard_kernel::rules::{Effect, Who};

use crate::de::Located;
use crate::diag::Location;
use crate::model::{
    BandSpec, BandTest, BandsSpec, ChartSpec, EffectSpec, EffectTo, InputFrom, InputSpec, RowSpec,
};

use super::{Cx, DiceUse, parse_dice, parse_range};
use crate::amount::{AmountScope, compile_amount, factor};
use crate::names::{Declared, NameTable, kind};

/// One effect of an outcome or a trigger, on `default_who` unless it says `to:`.
pub(super) fn compile_effect(
    cx: &mut Cx,
    e: &EffectSpec,
    default_who: Who,
    names: &NameTable,
    at: &Location,
    scope: &AmountScope<'_>,
) -> Option<Effect> {
    let who = match e.to.as_ref().map(|t| t.value) {
        None => default_who,
        Some(EffectTo::Actor) => Who::Actor,
        Some(EffectTo::Target) => Who::Target,
    };
    let verbs = [
        e.add.is_some(),
        e.set.is_some(),
        e.clear.is_some(),
        e.mode.is_some(),
        e.remove == Some(true),
        e.fall_back.is_some(),
        e.follow_up == Some(true),
        e.pursue.is_some(),
    ];
    if verbs.iter().filter(|v| **v).count() != 1 {
        cx.error(
            at,
            "each effect needs exactly one of `add`, `set`, `clear`, `mode`, `remove: true`, \
             `fall_back: DISTANCE`, `follow_up: true`, `pursue: ACTION`",
        );
        return None;
    }
    if let Some(b) = e.blocked.as_ref().filter(|_| e.fall_back.is_none()) {
        cx.error(&b.location, "`blocked:` goes with `fall_back:`");
    }
    if let Some(d) = &e.fall_back {
        return super::distances::fall_back(cx, e, d, who, names);
    }
    if e.follow_up == Some(true) {
        // The winner follows: the actor, unless the effect says otherwise.
        let who = match e.to.as_ref().map(|t| t.value) {
            Some(EffectTo::Target) => Who::Target,
            _ => Who::Actor,
        };
        return Some(Effect::FollowUp { who });
    }
    if let Some(a) = &e.pursue {
        // The winner pursues: the actor, unless the effect says otherwise.
        let who = match e.to.as_ref().map(|t| t.value) {
            Some(EffectTo::Target) => Who::Target,
            _ => Who::Actor,
        };
        let action = names.id(cx, kind::Action, a)?;
        return Some(Effect::Pursue { who, action });
    }
    if let Some(c) = &e.add {
        let counter = names.id(cx, kind::Counter, c)?;
        // A number stays a plain `AddCounter`; anything else is worked out from the roll.
        let amount = match &e.amount {
            None => 1,
            Some(a) => match a.value.number() {
                Some(n) => n,
                None => {
                    let amount = compile_amount(cx, a, scope)?;
                    return Some(Effect::AddComputed {
                        who,
                        counter,
                        amount,
                    });
                }
            },
        };
        return Some(Effect::AddCounter {
            who,
            counter,
            amount,
        });
    }
    if let Some(f) = e.set.as_ref().or(e.clear.as_ref()) {
        return Some(Effect::SetFlag {
            who,
            flag: names.id(cx, kind::Flag, f)?,
            on: e.set.is_some(),
        });
    }
    if let Some(m) = &e.mode {
        return Some(Effect::SetMode {
            who,
            mode: names.id(cx, kind::Mode, m)?,
        });
    }
    Some(Effect::Remove { who })
}

/// One chart. Dice a chart names that the ruleset does not declare (`d10`) are added to
/// `dice` and `die_names`.
pub(super) fn compile_chart(
    cx: &mut Cx,
    name: &Located<String>,
    spec: &ChartSpec,
    dice: &mut Vec<DieDef>,
    die_names: &mut Vec<String>,
    names: &NameTable,
) -> ChartDef {
    let (expr, constant) = parse_dice(cx, &spec.dice, dice, die_names, DiceUse::Chart);
    if constant != 0 && spec.bands.is_some() {
        cx.error(
            &spec.dice.location,
            format!(
                "chart `{}`: a fixed amount (`{}`) adds to a score; a band chart tests the \
                 first die alone",
                name.value,
                spec.dice.value.trim()
            ),
        );
    }
    super::gates::refuse_stray_bands(cx, name, spec);
    super::gates::refuse_gate_cycles(cx, name, spec);
    let input_names: Vec<&str> = spec.inputs.names().collect();
    let inputs: Vec<InputDef> = spec
        .inputs
        .iter()
        .map(|i| compile_input(cx, &i.name, &i.value, &input_names, names))
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
    let mut scales: Vec<ScaleDef> = Vec::new();
    let modifiers: Vec<ModifierDef> = spec
        .modifiers
        .iter()
        .filter_map(|m| {
            let input = cx.lookup("chart input", &m.input, input_names.iter().copied())?;
            let label = if m.name.is_empty() {
                m.input.value.clone()
            } else {
                m.name.clone()
            };
            if let Some(times) = &m.times {
                scale_modifier(cx, name, spec, m, times, (label, input), &mut scales);
                return None;
            }
            if !scales.is_empty() {
                cx.error(
                    &m.input.location,
                    format!(
                        "modifier `{label}`: adding modifiers come before multiplying ones (they are summed, with their caps, and the sum is then scaled in order); move it above the `times:` modifiers"
                    ),
                );
            }
            let group = match &m.group {
                Some(g) => Some(cx.lookup("modifier group", g, group_names.iter().copied())?),
                None => None,
            };
            Some(ModifierDef {
                name: label,
                input,
                per: m.per,
                group,
            })
        })
        .collect();
    let round = spec.round.map(grognard_kernel::amount::Rounding::from);
    if spec.round.is_none()
        && let Some(s) = scales.iter().find(|s| !s.factor.is_whole())
    {
        cx.error(
            &name.location,
            format!(
                "chart `{}`: modifier `{}` multiplies by {}, which is not whole; say how it rounds: `round: down`, `round: up` or `round: nearest`",
                name.value,
                s.name,
                s.factor.to_string().trim_start_matches('×')
            ),
        );
    }
    let rerolls = compile_rerolls(cx, spec, &expr, dice, die_names, &input_names);
    let mut outcomes = Outcomes::default();
    let lookup = match (&spec.bands, spec.rows.is_empty()) {
        (Some(b), true) => band_lookup(cx, name, b, &input_names, names, &mut outcomes),
        (None, _) => score_lookup(cx, name, spec, &input_names, &mut outcomes),
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
                default: outcomes.id("no effect"),
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
        outcomes: outcomes.0,
        secret: spec.secret,
        scales,
        round,
        constant,
    }
}

/// A multiplying modifier (`times:`): a factor for score charts, taking no `per` or
/// `group`.
fn scale_modifier(
    cx: &mut Cx,
    chart: &Located<String>,
    spec: &ChartSpec,
    m: &crate::model::ModifierSpec,
    times: &Located<crate::model::Text>,
    (label, input): (String, usize),
    scales: &mut Vec<ScaleDef>,
) {
    if m.per != 0 || m.group.is_some() {
        cx.error(
            &times.location,
            format!("modifier `{label}` multiplies (`times:`), so it takes no `per` or `group`"),
        );
    }
    if spec.bands.is_some() {
        cx.error(
            &times.location,
            format!(
                "modifier `{label}`: `times:` scales a score, and chart `{}` is a band chart, whose modifiers shift the band",
                chart.value
            ),
        );
    }
    if let Some(factor) = factor(cx, times) {
        scales.push(ScaleDef {
            name: label,
            input,
            factor,
        });
    }
}

/// A chart's outcomes in order of first mention; a name's position is its id.
#[derive(Default)]
struct Outcomes(Vec<String>);

impl Outcomes {
    fn id(&mut self, name: &str) -> usize {
        self.0.iter().position(|o| o == name).unwrap_or_else(|| {
            self.0.push(name.to_owned());
            self.0.len() - 1
        })
    }
}

/// One chart input: where it comes from, its bounds, and the inputs it goes with.
fn compile_input(
    cx: &mut Cx,
    name: &Located<String>,
    v: &InputSpec,
    input_names: &[&str],
    names: &NameTable,
) -> InputDef {
    let source = v
        .from
        .as_ref()
        .and_then(|from| input_source(cx, from, v, names));
    // Sourced inputs read counters, attributes and settings that may be negative.
    let min = v.min.unwrap_or(match &source {
        Some(
            InputSource::ActorCounter(_)
            | InputSource::TargetCounter(_)
            | InputSource::ActorAttribute(_)
            | InputSource::TargetAttribute(_)
            | InputSource::TargetTerrain(_)
            | InputSource::ActorTerrain(_)
            | InputSource::Setting(_),
        ) => -1_000_000,
        _ => 0,
    });
    let max = v.max.unwrap_or(match &source {
        Some(InputSource::DistanceBand(b) | InputSource::TableDistanceBand(b)) => b.len() as i32,
        Some(
            InputSource::Distance
            | InputSource::TableDistance
            | InputSource::ActorAttribute(_)
            | InputSource::TargetAttribute(_)
            | InputSource::ActorCounter(_)
            | InputSource::TargetCounter(_)
            | InputSource::TargetTerrain(_)
            | InputSource::ActorTerrain(_)
            | InputSource::Setting(_),
        ) => i32::MAX,
        _ => 1.max(v.default),
    });
    if max < min {
        cx.error(
            &name.location,
            format!("input `{}`: max {max} is below min {min}", name.value),
        );
    }
    let mut inputs = |list: &[Located<String>]| -> Vec<usize> {
        list.iter()
            .filter_map(|w| cx.lookup("chart input", w, input_names.iter().copied()))
            .collect()
    };
    let with = inputs(&v.with);
    let without = inputs(&v.without);
    InputDef {
        name: name.value.clone(),
        default: v.default,
        min,
        max,
        source,
        with,
        without,
    }
}

/// Where an input comes from: `from: distance`, `from: actor.counter hits`, ...
fn input_source(
    cx: &mut Cx,
    from: &Located<String>,
    v: &InputSpec,
    names: &NameTable,
) -> Option<InputSource> {
    let mut words = from.value.split_whitespace();
    let head = words.next().unwrap_or("");
    let arg = words.next().map(|a| Located {
        value: a.to_owned(),
        location: from.location.clone(),
    });
    // The name after the source's word, a name of `kind` the ruleset declares.
    let need = |cx: &mut Cx, kind: &str| -> Option<Located<String>> {
        if arg.is_none() {
            let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            cx.error(
                &from.location,
                format!("`{head}` needs {article} {kind} name after it"),
            );
        }
        arg.clone()
    };
    fn named<K: Declared>(
        cx: &mut Cx,
        names: &NameTable,
        kind: K,
        need: impl Fn(&mut Cx, &'static str) -> Option<Located<String>>,
    ) -> Option<K::Id> {
        let name = need(cx, K::WHAT)?;
        names.id(cx, kind, &name)
    }
    let bands = |cx: &mut Cx| {
        if v.bands.is_empty() {
            cx.error(
                &from.location,
                format!("`{head}` needs `bands: [..]`, the largest distance of each band"),
            );
        }
        v.bands.clone()
    };
    let Some(&word) = InputFrom::ALL.iter().find(|w| w.word() == head) else {
        let words: Vec<&str> = InputFrom::ALL.iter().map(|w| w.word()).collect();
        let help = crate::suggest::did_you_mean(head, words.iter().copied())
            .map(|s| format!("did you mean `{s}`?"));
        cx.error_help(
            &from.location,
            format!(
                "unknown input source `{head}`; expected one of: {}",
                words.join(", ")
            ),
            help,
        );
        return None;
    };
    match word {
        InputFrom::Distance => Some(InputSource::Distance),
        InputFrom::TableDistance => Some(InputSource::TableDistance),
        InputFrom::TableDistanceBand => Some(InputSource::TableDistanceBand(bands(cx))),
        InputFrom::DistanceBand => Some(InputSource::DistanceBand(bands(cx))),
        InputFrom::ActorMode => named(cx, names, kind::Mode, need).map(InputSource::ActorMode),
        InputFrom::TargetMode => named(cx, names, kind::Mode, need).map(InputSource::TargetMode),
        InputFrom::ActorCounter => {
            named(cx, names, kind::Counter, need).map(InputSource::ActorCounter)
        }
        InputFrom::TargetCounter => {
            named(cx, names, kind::Counter, need).map(InputSource::TargetCounter)
        }
        InputFrom::ActorFlag => named(cx, names, kind::Flag, need).map(InputSource::ActorFlag),
        InputFrom::TargetFlag => named(cx, names, kind::Flag, need).map(InputSource::TargetFlag),
        InputFrom::TargetFlankOrRear => Some(InputSource::TargetFlankOrRear),
        InputFrom::ActorAttribute => {
            named(cx, names, kind::PieceAttribute, need).map(InputSource::ActorAttribute)
        }
        InputFrom::TargetAttribute => {
            named(cx, names, kind::PieceAttribute, need).map(InputSource::TargetAttribute)
        }
        InputFrom::TargetTerrain => {
            named(cx, names, kind::TerrainAttribute, need).map(InputSource::TargetTerrain)
        }
        InputFrom::ActorTerrain => {
            named(cx, names, kind::TerrainAttribute, need).map(InputSource::ActorTerrain)
        }
        InputFrom::Setting => named(cx, names, kind::Setting, need).map(InputSource::Setting),
        InputFrom::Option => named(cx, names, kind::Optional, need).map(InputSource::Option),
        InputFrom::Intent => named(cx, names, kind::Intent, need)
            .map(|i| InputSource::Intent(names.intents[i].to_owned())),
        InputFrom::ActorFriendsWithin => {
            super::distances::compile_near(cx, &v.types, v.within.as_ref(), &from.location, names)
                .map(InputSource::ActorFriendsWithin)
        }
        InputFrom::TargetFriendsWithin => {
            super::distances::compile_near(cx, &v.types, v.within.as_ref(), &from.location, names)
                .map(InputSource::TargetFriendsWithin)
        }
    }
}

/// A chart's re-roll policies: which die (the first by default), which faces, when.
fn compile_rerolls(
    cx: &mut Cx,
    spec: &ChartSpec,
    expr: &DiceExpr,
    dice: &[DieDef],
    die_names: &[String],
    input_names: &[&str],
) -> Vec<RerollDef> {
    let first_die = expr.terms.first().map(|t| t.die);
    spec.rerolls
        .iter()
        .filter_map(|r| {
            let die = match &r.die {
                Some(d) => NameTable::find(cx, kind::Die, d, die_names.iter().map(String::as_str))?,
                None => first_die?,
            };
            let def = dice.get(die.index())?;
            let faces = r
                .faces
                .iter()
                .filter_map(|f| {
                    NameTable::find(
                        cx,
                        kind::Face,
                        f,
                        def.faces.iter().map(|x| x.label.as_str()),
                    )
                })
                .collect();
            let when = match &r.when {
                Some(w) => Some(cx.lookup("chart input", w, input_names.iter().copied())?),
                None => None,
            };
            Some(RerollDef { die, faces, when })
        })
        .collect()
}

/// A band chart's lookup: the input giving the band, and each band's face test.
fn band_lookup(
    cx: &mut Cx,
    name: &Located<String>,
    b: &BandsSpec,
    input_names: &[&str],
    names: &NameTable,
    outcomes: &mut Outcomes,
) -> Lookup {
    let base = cx
        .lookup("chart input", &b.base, input_names.iter().copied())
        .unwrap_or(0);
    let rows = b
        .rows
        .iter()
        .map(|r| BandRow {
            name: r.band.clone(),
            test: face_test(cx, r, names),
            pass: outcomes.id(&r.pass.value),
            fail: outcomes.id(&r.fail.value),
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

/// A band's test: exactly one of `test: always`, `test: never`, `all`, `any`, `at_least`.
fn face_test(cx: &mut Cx, r: &BandSpec, names: &NameTable) -> FaceTest {
    let tags = |cx: &mut Cx, list: &[Located<String>]| names.ids(cx, kind::Tag, list);
    let test = r.test.as_ref().map(|t| t.value);
    match (test, r.all.is_empty(), r.any.is_empty(), r.at_least) {
        (Some(BandTest::Always), true, true, None) => FaceTest::Always,
        (Some(BandTest::Never), true, true, None) => FaceTest::Never,
        (None, false, true, None) => FaceTest::AllTags(tags(cx, &r.all)),
        (None, true, false, None) => FaceTest::AnyTag(tags(cx, &r.any)),
        (None, true, true, Some(v)) => FaceTest::AtLeast(v),
        _ => {
            cx.error(
                &r.pass.location,
                format!(
                    "band `{}` needs exactly one test: `test: always`, `test: never`, `all: \
                     [tags]`, `any: [tags]` or `at_least: N`",
                    r.band
                ),
            );
            FaceTest::Never
        }
    }
}

/// A score chart's lookup: its rows (score ranges, conditions on inputs, natural rolls)
/// and the outcome when none matches.
fn score_lookup(
    cx: &mut Cx,
    name: &Located<String>,
    spec: &ChartSpec,
    input_names: &[&str],
    outcomes: &mut Outcomes,
) -> Lookup {
    let rows = spec
        .rows
        .iter()
        .map(|r| score_row(cx, r, input_names, outcomes))
        .collect::<Vec<_>>();
    let default = match &spec.otherwise {
        Some(o) => outcomes.id(&o.value),
        None => outcomes.id("no effect"),
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

fn score_row(cx: &mut Cx, r: &RowSpec, input_names: &[&str], outcomes: &mut Outcomes) -> ScoreRow {
    let (mut min, mut max) = (r.min, r.max);
    if let Some(s) = &r.score {
        match parse_range(&s.value) {
            Some((lo, hi)) => {
                min = min.or(lo);
                max = max.or(hi);
            }
            None => cx.error(
                &s.location,
                format!(
                    "`score: {}`: expected a number or a range like `8-10`, `10+` or `3-`",
                    s.value
                ),
            ),
        }
    }
    let when = r
        .when
        .iter()
        .filter_map(|w| {
            cx.lookup("chart input", &w.name, input_names.iter().copied())
                .map(|i| (i, w.value))
        })
        .collect();
    let natural = r
        .natural
        .as_ref()
        .and_then(|n| match parse_range(&n.value) {
            Some(range) => Some(range),
            None => {
                cx.error(
                    &n.location,
                    format!(
                        "`natural: {}`: expected a number or a range like `10-11`, `12` or `2-`",
                        n.value
                    ),
                );
                None
            }
        });
    ScoreRow {
        min,
        max,
        when,
        natural,
        outcome: outcomes.id(&r.result.value),
    }
}
