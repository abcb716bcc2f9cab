//! Designer tools: the chart lab (`grognard chart`), the ruleset summary (`grognard show`)
//! and the JSON Schemas (`grognard schema`).

use std::path::Path;

use grognard_kernel::Ratio;
use grognard_kernel::chart::{ChartDef, Lookup};
use grognard_kernel::ids::ChartId;
use grognard_rules::amount_odds::AmountOdds;
use grognard_rules::load::{self, Ruleset};
use grognard_rules::model::RulesetSpec;
use grognard_rules::odds::{ChartCase, Delta, chart_case, parse_values, percent};
use grognard_rules::schema::{SchemaKind, schema as schema_of};
use grognard_rules::suggest::did_you_mean;
use serde_json::{Value, json};

use crate::common::{Failure, Outcome, find_chart, print_json};
use crate::lab_amounts;
use crate::lab_gates;
use crate::lab_units::{
    UNITS, parse_unit_values, resolve_set, swept_column, unit_bands, unit_reads, unit_text,
    unit_value,
};
use crate::output::print_table;

/// `--set` arguments grouped by input: each input with every value asked for, in order.
struct Sets {
    /// Inputs with one value.
    fixed: Vec<(String, i32)>,
    /// The input with several values, if any.
    vary: Option<(String, Vec<i32>)>,
}

fn parse_sets(set: &[String]) -> Result<Sets, Failure> {
    let mut grouped: Vec<(String, Vec<i32>)> = Vec::new();
    for s in set {
        let (name, value) = s
            .split_once('=')
            .ok_or_else(|| Failure::Usage(format!("--set {s}: expected NAME=VALUE")))?;
        // Designer units are kept in thou, so that a distance may be exact (48.5).
        let values = if UNITS.contains(&name) {
            parse_unit_values(value)
        } else {
            parse_values(value)
        }
        .map_err(|m| Failure::Usage(format!("--set {s}: {m}")))?;
        match grouped.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => v.extend(values),
            None => grouped.push((name.to_owned(), values)),
        }
    }
    let mut fixed = Vec::new();
    let mut vary: Option<(String, Vec<i32>)> = None;
    for (name, values) in grouped {
        if let [one] = values.as_slice() {
            fixed.push((name, *one));
        } else if let Some((other, _)) = &vary {
            return Err(Failure::Usage(format!(
                "--set gives several values to both `{other}` and `{name}`; only one input may vary"
            )));
        } else {
            vary = Some((name, values));
        }
    }
    Ok(Sets { fixed, vary })
}

/// `sets` with the inputs the actor's and the target's piece types give (`--actor
/// TYPE[:MODE]`, `--target TYPE[:MODE]`): their attributes, and 1 or 0 for a mode input
/// (the mode named, else the type's default). Inputs `--set` names keep the value given.
/// Also the lines saying what was set, for the report.
fn with_piece_types(
    r: &Ruleset,
    chart: &ChartDef,
    given: &Sets,
    (actor, target): (Option<&str>, Option<&str>),
) -> Result<(Sets, Vec<String>), Failure> {
    use grognard_kernel::chart::InputSource;
    let rules = &r.rules;
    let pick = |flag: &str, text: Option<&str>| -> Result<Option<(usize, usize)>, Failure> {
        let Some(text) = text else { return Ok(None) };
        let (type_name, mode_name) = match text.split_once(':') {
            Some((t, m)) => (t, Some(m)),
            None => (text, None),
        };
        let names: Vec<&str> = rules.piece_types.iter().map(|t| t.name.as_str()).collect();
        let t = names.iter().position(|n| *n == type_name).ok_or_else(|| {
            Failure::Usage(format!(
                "--{flag} {text}: no piece type `{type_name}` in {}{}",
                rules.identity.name,
                did_you_mean(type_name, names.iter().copied()).map_or_else(
                    || format!(" (its types: {})", names.join(", ")),
                    |m| format!("; did you mean `{m}`?")
                )
            ))
        })?;
        let mode = match mode_name {
            None => rules.piece_types[t].default_mode.0 as usize,
            Some(m) => rules
                .modes
                .iter()
                .position(|d| d.name == m)
                .ok_or_else(|| {
                    let modes: Vec<&str> = rules.modes.iter().map(|d| d.name.as_str()).collect();
                    Failure::Usage(format!(
                        "--{flag} {text}: no mode `{m}` (the modes: {})",
                        modes.join(", ")
                    ))
                })?,
        };
        Ok(Some((t, mode)))
    };
    let actor = pick("actor", actor)?;
    let target = pick("target", target)?;
    let mut sets = Sets {
        fixed: given.fixed.clone(),
        vary: given.vary.clone(),
    };
    let mut lines = Vec::new();
    let taken = |sets: &Sets, name: &str| {
        sets.fixed.iter().any(|(n, _)| n == name)
            || sets.vary.as_ref().is_some_and(|(n, _)| n == name)
    };
    for input in &chart.inputs {
        let (who, piece, value) = match &input.source {
            Some(InputSource::ActorAttribute(i)) => match actor {
                Some((t, _)) => ("actor", t, rules.piece_types[t].attributes.get(*i).copied()),
                None => continue,
            },
            Some(InputSource::TargetAttribute(i)) => match target {
                Some((t, _)) => (
                    "target",
                    t,
                    rules.piece_types[t].attributes.get(*i).copied(),
                ),
                None => continue,
            },
            Some(InputSource::ActorMode(m)) => match actor {
                Some((t, mode)) => ("actor", t, Some(i32::from(mode == m.0 as usize))),
                None => continue,
            },
            Some(InputSource::TargetMode(m)) => match target {
                Some((t, mode)) => ("target", t, Some(i32::from(mode == m.0 as usize))),
                None => continue,
            },
            _ => continue,
        };
        let Some(value) = value else { continue };
        if taken(&sets, &input.name) {
            continue;
        }
        sets.fixed.push((input.name.clone(), value));
        let head = format!(
            "from the {who}, {} ({}):",
            rules.piece_types[piece].name,
            rules
                .modes
                .get(if who == "actor" { actor } else { target }.map_or(0, |(_, m)| m))
                .map_or("", |m| m.name.as_str())
        );
        match lines
            .iter_mut()
            .find(|l: &&mut String| l.starts_with(&head))
        {
            Some(line) => line.push_str(&format!(", {} {value}", input.name)),
            None => lines.push(format!("{head} {} {value}", input.name)),
        }
    }
    if (actor.is_some() || target.is_some()) && lines.is_empty() {
        lines.push(format!(
            "(chart `{}` reads no attribute or mode of the piece types named)",
            chart.name
        ));
    }
    Ok((sets, lines))
}

/// Inputs by index with their values, and the lines saying where they came from.
pub(crate) type TypeInputs = (Vec<(usize, i32)>, Vec<String>);

/// The inputs the piece types named by `--actor`/`--target` give chart `chart`, by input
/// index, and the lines saying so (for `roll`, which takes single values only).
pub(crate) fn piece_type_inputs(
    r: &Ruleset,
    chart: &ChartDef,
    pieces: (Option<&str>, Option<&str>),
) -> Result<TypeInputs, Failure> {
    let none = Sets {
        fixed: Vec::new(),
        vary: None,
    };
    let (sets, lines) = with_piece_types(r, chart, &none, pieces)?;
    let by_index = sets
        .fixed
        .iter()
        .filter_map(|(n, v)| {
            chart
                .inputs
                .iter()
                .position(|i| &i.name == n)
                .map(|i| (i, *v))
        })
        .collect();
    Ok((by_index, lines))
}

/// The cases of one chart: one per value of the varying input (or one). Refuses odds that
/// outgrew exact arithmetic rather than print wrong numbers.
fn cases(r: &Ruleset, chart: &ChartDef, sets: &Sets) -> Result<Vec<ChartCase>, Failure> {
    let all = cases_unchecked(r, chart, sets)?;
    if all.iter().all(ChartCase::is_exact) {
        Ok(all)
    } else {
        Err(Failure::Rules(format!(
            "chart `{}` of {}: its dice have too many combinations to enumerate exactly (the fractions outgrow 128 bits); use fewer or smaller dice",
            chart.name, r.rules.identity.name
        )))
    }
}

fn cases_unchecked(r: &Ruleset, chart: &ChartDef, sets: &Sets) -> Result<Vec<ChartCase>, Failure> {
    Ok(case_sets(r, chart, sets)?
        .iter()
        .map(|set| chart_case(chart, &r.rules.dice, set))
        .collect())
}

/// The inputs each case sets, by index: the fixed ones, and one value of the varying one.
fn case_sets(
    r: &Ruleset,
    chart: &ChartDef,
    sets: &Sets,
) -> Result<Vec<Vec<(usize, i32)>>, Failure> {
    // Optional rules first, at this ruleset's defaults, so a `--set` still overrides them.
    let mut fixed = grognard_rules::sheet::option_inputs(r, chart);
    for (name, v) in &sets.fixed {
        fixed.extend(resolve_set(r, chart, name, *v)?);
    }
    match &sets.vary {
        None => Ok(vec![fixed]),
        Some((name, values)) => values
            .iter()
            .map(|v| {
                let mut set = fixed.clone();
                set.extend(resolve_set(r, chart, name, *v)?);
                Ok(set)
            })
            .collect(),
    }
}

fn ratio_json(outcome: &str, p: Ratio) -> Value {
    json!({
        "outcome": outcome,
        "fraction": p.to_string(),
        "numerator": u64::try_from(p.numer()).ok(),
        "denominator": u64::try_from(p.denom()).ok(),
        "probability": p.to_f64(),
        "percent": (percent(p) * 100.0).round() / 100.0,
    })
}

fn odds_by_name(chart: &ChartDef, case: &ChartCase, name: &str) -> Ratio {
    chart
        .outcomes
        .iter()
        .position(|o| o == name)
        .and_then(|i| case.odds.get(i).copied())
        .unwrap_or(Ratio::ZERO)
}

fn case_json(chart: &ChartDef, case: &ChartCase, value: Value, outcomes: &[String]) -> Value {
    let inputs: serde_json::Map<String, Value> = chart
        .inputs
        .iter()
        .zip(&case.inputs)
        .map(|(d, v)| (d.name.clone(), json!(v)))
        .collect();
    json!({
        "value": value,
        "inputs": inputs,
        "modifiers": case.modifiers.iter().map(|m| json!({"name": m.name, "value": m.value})).collect::<Vec<_>>(),
        "modifier_total": case.modifier_total,
        "band": case.band.as_ref().map(|(i, n)| json!({"index": i, "name": n})),
        "odds": outcomes.iter().map(|o| ratio_json(o, odds_by_name(chart, case, o))).collect::<Vec<_>>(),
    })
}

fn cell(p: Ratio) -> String {
    format!("{p} {:.2}%", percent(p))
}

fn signed(v: i32) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

/// How a chart is rolled, in words: `2d6, score chart; re-roll d6 showing 1`.
fn describe_chart(r: &Ruleset, chart: &ChartDef) -> String {
    let spec = r.spec.charts.get(&chart.name);
    let dice = spec.map_or_else(|| "?".to_owned(), |c| c.dice.value.clone());
    let kind = match chart.lookup {
        Lookup::Score { .. } => "score chart",
        Lookup::Band { .. } => "band chart",
    };
    let mut text = format!("{dice}, {kind}");
    for reroll in spec.map(|c| c.rerolls.as_slice()).unwrap_or_default() {
        let faces: Vec<&str> = reroll.faces.iter().map(|f| f.value.as_str()).collect();
        let die = reroll
            .die
            .as_ref()
            .map_or_else(|| dice.clone(), |d| d.value.clone());
        text.push_str(&format!(
            "; re-roll {die} showing {} once",
            faces.join(" or ")
        ));
        if let Some(when) = &reroll.when {
            text.push_str(&format!(" when {} is set", when.value));
        }
    }
    text
}

fn modifiers_text(case: &ChartCase) -> String {
    if case.modifiers.is_empty() {
        return "none".to_owned();
    }
    let parts: Vec<String> = case
        .modifiers
        .iter()
        .map(|m| format!("{} {}", signed(m.value), m.name))
        .collect();
    format!(
        "{} (total {})",
        parts.join(", "),
        signed(case.modifier_total)
    )
}

/// Where the requested value was clamped into the input's range: `-3 (→ 0)`.
fn value_label(requested: i32, used: Option<i32>) -> String {
    match used {
        Some(u) if u != requested => format!("{requested} (→ {u})"),
        _ => requested.to_string(),
    }
}

/// One ruleset's side of a `chart` run: its chart, the cases (one per value swept, or one)
/// and each case's computed amounts.
struct ChartSide<'r> {
    r: &'r Ruleset,
    chart: &'r ChartDef,
    cases: Vec<ChartCase>,
    amounts: Vec<Vec<AmountOdds>>,
}

impl<'r> ChartSide<'r> {
    fn of(r: &'r Ruleset, id: ChartId, chart: &'r ChartDef, sets: &Sets) -> Result<Self, Failure> {
        let cases = cases(r, chart, sets)?;
        let amounts = cases
            .iter()
            .map(|c| lab_amounts::amounts(r, id, &c.inputs))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            r,
            chart,
            cases,
            amounts,
        })
    }

    fn name(&self) -> &str {
        &self.r.rules.identity.name
    }
}

/// What `grognard chart` reports, worked out: the first ruleset's side and the other's
/// (`--against`), the outcomes of both, and the lines about the inputs.
struct ChartRun<'r> {
    a: ChartSide<'r>,
    other: Option<ChartSide<'r>>,
    /// The `--set` values with the piece types' inputs.
    sets: Sets,
    /// The first chart's outcomes, then any only the other has.
    outcomes: Vec<String>,
    /// Designer units given one value (`distance: 3 hexes → band 2`) and inputs read from
    /// the piece types named.
    converted: Vec<String>,
    /// What the gates do to the inputs: each `--set` they override.
    overridden: Vec<String>,
    /// The first ruleset's inputs as they would read with no gates.
    open_a: Vec<Vec<i32>>,
}

/// `grognard chart RULESET CHART [--set NAME=VALUE...] [--against OTHER] [--json]`.
pub fn chart(
    ruleset: &Path,
    chart_name: &str,
    set: &[String],
    pieces: (Option<&str>, Option<&str>),
    against: Option<&Path>,
    json: bool,
) -> Outcome {
    let given = parse_sets(set)?;
    let a = load::load_ruleset(ruleset)?;
    let (id_a, chart_a) = find_chart(&a.rules, chart_name)?;
    let (sets, mut from_types) = with_piece_types(&a, chart_a, &given, pieces)?;
    let side_a = ChartSide::of(&a, id_a, chart_a, &sets)?;
    let b = match against {
        Some(path) => Some(load::load_ruleset(path)?),
        None => None,
    };
    // The other ruleset's inputs as they would read with no gates.
    let mut open_b = Vec::new();
    let other = match &b {
        Some(b) => {
            let (id_b, chart_b) = find_chart(&b.rules, chart_name)?;
            // The other ruleset's own types: an overlay that changes an attribute shows.
            let (sets_b, from_b) = with_piece_types(b, chart_b, &given, pieces)?;
            for line in from_b {
                if !from_types.contains(&line) {
                    from_types.push(format!("{line} (in {})", b.rules.identity.name));
                }
            }
            let side = ChartSide::of(b, id_b, chart_b, &sets_b)?;
            open_b = lab_gates::ungated(chart_b, &case_sets(b, chart_b, &sets_b)?);
            Some(side)
        }
        None => None,
    };
    // Outcomes: the first chart's, then any only the second has.
    let mut outcomes = chart_a.outcomes.clone();
    if let Some(o) = &other {
        for name in &o.chart.outcomes {
            if !outcomes.contains(name) {
                outcomes.push(name.clone());
            }
        }
    }
    let mut converted: Vec<String> = sets
        .fixed
        .iter()
        .filter_map(|(n, v)| unit_text(&a, chart_a, n, *v).map(|t| format!("{n}: {t}")))
        .collect();
    converted.extend(from_types);
    let open_a = lab_gates::ungated(chart_a, &case_sets(&a, chart_a, &sets)?);
    let overridden = overridden_lines(
        &given,
        (&side_a, &open_a),
        other.as_ref().map(|o| (o, open_b.as_slice())),
    );
    let run = ChartRun {
        a: side_a,
        other,
        sets,
        outcomes,
        converted,
        overridden,
        open_a,
    };
    if json {
        print_json(&run.json());
    } else {
        run.print_text();
    }
    Ok(())
}

/// The `--set` values the gates override, in the first ruleset and then in the other (each
/// line the first does not already give, named with the other's name).
fn overridden_lines(
    given: &Sets,
    (a, open_a): (&ChartSide<'_>, &[Vec<i32>]),
    other: Option<(&ChartSide<'_>, &[Vec<i32>])>,
) -> Vec<String> {
    let given_in = |chart: &ChartDef| -> Vec<(usize, i32)> {
        given
            .fixed
            .iter()
            .filter_map(|(n, v)| Some((chart.inputs.iter().position(|x| &x.name == n)?, *v)))
            .collect()
    };
    let mut overridden = lab_gates::overridden(a.chart, &given_in(a.chart), &a.cases, open_a);
    if let Some((b, open_b)) = other {
        for line in lab_gates::overridden(b.chart, &given_in(b.chart), &b.cases, open_b) {
            let line = format!("{line} (in {})", b.name());
            if !overridden.iter().any(|l| line.starts_with(l.as_str())) {
                overridden.push(line);
            }
        }
    }
    overridden
}

impl ChartRun<'_> {
    /// Where the swept input is among a chart's inputs (a designer unit: the first input
    /// it bands).
    fn vary_index(&self, c: &ChartDef) -> Option<usize> {
        self.sets.vary.as_ref().and_then(|(n, _)| {
            c.inputs
                .iter()
                .position(|d| &d.name == n)
                .or_else(|| unit_bands(self.a.r, c, n, 0).first().map(|(i, _)| *i))
        })
    }

    /// The `--json` report.
    fn json(&self) -> Value {
        let (a, outcomes, sets) = (&self.a, &self.outcomes, &self.sets);
        let values: Vec<Option<i32>> = match &sets.vary {
            Some((_, v)) => v.iter().copied().map(Some).collect(),
            None => vec![None],
        };
        let rows = |c: &ChartDef, cs: &[ChartCase]| -> Vec<Value> {
            cs.iter()
                .zip(&values)
                .map(|(case, v)| {
                    // A designer unit's value is kept in thou: shown in inches.
                    let value = match (v, &sets.vary) {
                        (Some(v), Some((n, _)))
                            if UNITS.contains(&n.as_str())
                                && !c.inputs.iter().any(|x| &x.name == n) =>
                        {
                            if v % 1000 == 0 {
                                json!(v / 1000)
                            } else {
                                json!(f64::from(*v) / 1000.0)
                            }
                        }
                        (Some(v), Some((n, _))) if UNITS.contains(&n.as_str()) => json!(v / 1000),
                        _ => json!(v),
                    };
                    case_json(c, case, value, outcomes)
                })
                .collect()
        };
        let describe = |side: &ChartSide<'_>| {
            let (r, c) = (side.r, side.chart);
            json!({
                "ruleset": r.rules.identity.name,
                "path": load::display(&r.path),
                "dice": r.spec.charts.get(&c.name).map(|s| s.dice.value.clone()),
                "summary": describe_chart(r, c),
                "lookup": match c.lookup { Lookup::Score { .. } => "score", Lookup::Band { .. } => "band" },
                "description": r.spec.charts.get(&c.name).and_then(|s| s.description.clone()),
                "rows": rows(c, &side.cases),
            })
        };
        let changes = self.other.as_ref().map(|b| {
            a.cases
                .iter()
                .zip(&b.cases)
                .map(|(ca, cb)| {
                    outcomes
                        .iter()
                        .map(|o| {
                            let d = Delta::between(
                                odds_by_name(a.chart, ca, o),
                                odds_by_name(b.chart, cb, o),
                            );
                            json!({"outcome": o, "change": d.to_string(), "points": (d.points() * 100.0).round() / 100.0})
                        })
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        });
        let mut report = describe(a);
        if let (Some((n, asked)), Some(rows)) = (
            &sets.vary,
            report.get_mut("rows").and_then(Value::as_array_mut),
        ) {
            for (row, v) in rows.iter_mut().zip(asked) {
                if let (Some(t), Some(map)) = (unit_text(a.r, a.chart, n, *v), row.as_object_mut())
                {
                    map.insert("value_text".into(), json!(t));
                }
            }
        }
        let amounts_json = |all: &[Vec<AmountOdds>]| {
            json!(all.iter().map(|x| lab_amounts::json(x)).collect::<Vec<_>>())
        };
        if let Some(map) = report.as_object_mut() {
            map.insert("chart".into(), json!(a.chart.name));
            map.insert("converted".into(), json!(self.converted));
            map.insert("overridden".into(), json!(self.overridden));
            map.insert("outcomes".into(), json!(outcomes));
            map.insert(
                "vary".into(),
                json!(sets.vary.as_ref().map(|(n, _)| n.clone())),
            );
            map.insert(
                "against".into(),
                self.other.as_ref().map_or(Value::Null, describe),
            );
            // Computed amounts, per row: each amount's distribution and exact mean.
            map.insert("amounts".into(), amounts_json(&a.amounts));
            if let Some(b) = &self.other {
                map.insert("amounts_against".into(), amounts_json(&b.amounts));
            }
            map.insert("changes".into(), json!(changes));
        }
        report
    }

    /// The text report: the chart in words, the inputs, and then the odds as the run asks
    /// them (one case or a sweep, alone or against another ruleset).
    fn print_text(&self) {
        let a = &self.a;
        let skip = self.vary_index(a.chart);
        out!(
            "chart `{}` of {}: {}",
            a.chart.name,
            a.name(),
            describe_chart(a.r, a.chart)
        );
        if let Some(b) = &self.other {
            out!("against {}: {}", b.name(), describe_chart(b.r, b.chart));
        }
        if !a.cases.is_empty() {
            let label = if skip.is_some() {
                "other inputs"
            } else {
                "inputs"
            };
            let against = self
                .other
                .as_ref()
                .map(|b| (b.name(), b.chart, b.cases.as_slice()));
            out!(
                "{label}: {}",
                lab_gates::inputs_text(a.chart, &a.cases, &self.open_a, skip, against)
            );
        }
        for line in self.converted.iter().chain(&self.overridden) {
            out!("{line}");
        }
        match (&self.sets.vary, &self.other) {
            (None, None) => self.print_one(),
            (None, Some(b)) => self.print_one_against(b),
            (Some((name, asked)), None) => self.print_sweep(name, asked, skip),
            (Some((name, asked)), Some(b)) => self.print_sweep_against(name, asked, skip, b),
        }
    }

    /// One case: its modifiers and each outcome's odds.
    fn print_one(&self) {
        let a = &self.a;
        if let Some(case) = a.cases.first() {
            out!("modifiers: {}", modifiers_text(case));
            if let Some(text) = lab_amounts::scaling_text(a.chart, &case.inputs) {
                out!("multiplying modifiers: {text}");
            }
            if let Some((i, name)) = &case.band {
                out!("band: {i} ({name})");
            }
            let rows: Vec<Vec<String>> = self
                .outcomes
                .iter()
                .map(|o| {
                    let p = odds_by_name(a.chart, case, o);
                    vec![o.clone(), p.to_string(), format!("{:.2}%", percent(p))]
                })
                .collect();
            print_table(&rows);
        }
        if let Some(amounts) = a.amounts.first() {
            lab_amounts::print((a.name(), None), amounts, None);
        }
    }

    /// One case in both rulesets: the modifiers where they differ, and each outcome's odds
    /// side by side with the change.
    fn print_one_against(&self, b: &ChartSide<'_>) {
        let a = &self.a;
        if let (Some(ca), Some(cb)) = (a.cases.first(), b.cases.first()) {
            out!("modifiers: {}", modifiers_text(ca));
            let (sa, sb) = (
                lab_amounts::scaling_text(a.chart, &ca.inputs),
                lab_amounts::scaling_text(b.chart, &cb.inputs),
            );
            if let Some(text) = &sa {
                out!("multiplying modifiers: {text}");
            }
            if sb != sa
                && let Some(text) = sb
            {
                out!("multiplying modifiers against: {text}");
            }
            if modifiers_text(cb) != modifiers_text(ca) {
                out!("modifiers against: {}", modifiers_text(cb));
            }
            let mut rows = vec![vec![
                "outcome".to_owned(),
                a.name().to_owned(),
                b.name().to_owned(),
                "change".to_owned(),
            ]];
            for o in &self.outcomes {
                let (pa, pb) = (odds_by_name(a.chart, ca, o), odds_by_name(b.chart, cb, o));
                let d = Delta::between(pa, pb);
                rows.push(vec![
                    o.clone(),
                    cell(pa),
                    cell(pb),
                    format!("{d} ({:+.2} pp)", d.points()),
                ]);
            }
            print_table(&rows);
        }
        if let (Some(xa), Some(xb)) = (a.amounts.first(), b.amounts.first()) {
            lab_amounts::print((a.name(), Some(b.name())), xa, Some(xb));
        }
    }

    /// A sweep of input `name` over the values `asked`: one row per value, with the band
    /// it reads and the modifiers, then the amounts' means.
    fn print_sweep(&self, name: &str, asked: &[i32], skip: Option<usize>) {
        let a = &self.a;
        let band_chart = matches!(a.chart.lookup, Lookup::Band { .. });
        let (unit, first) = swept_column(a.r, a.chart, name);
        let mut header = vec![first];
        if band_chart {
            header.push("→ band".to_owned());
        }
        header.push("modifiers".to_owned());
        header.extend(self.outcomes.iter().cloned());
        let mut rows = vec![header];
        for (case, v) in a.cases.iter().zip(asked) {
            let mut row = vec![if unit {
                let reached = unit_bands(a.r, a.chart, name, *v);
                let bands: Vec<String> = reached
                    .iter()
                    .map(|(i, b)| unit_reads(a.chart, *i, *b, reached.len()))
                    .collect();
                format!("{} → {}", unit_value(*v), bands.join(", "))
            } else {
                value_label(*v, skip.and_then(|i| case.inputs.get(i).copied()))
            }];
            if band_chart {
                row.push(
                    case.band
                        .as_ref()
                        .map_or_else(String::new, |(_, n)| n.clone()),
                );
            }
            row.push(signed(case.modifier_total));
            row.extend(
                self.outcomes
                    .iter()
                    .map(|o| cell(odds_by_name(a.chart, case, o))),
            );
            rows.push(row);
        }
        print_table(&rows);
        print_means(&rows, &a.amounts, None);
    }

    /// A sweep in both rulesets: each cell the first's odds, the other's and the change. A
    /// designer unit reads each ruleset's own bands (an overlay may band the distance
    /// differently): the value in its unit, then what each ruleset reads.
    fn print_sweep_against(
        &self,
        name: &str,
        asked: &[i32],
        skip: Option<usize>,
        b: &ChartSide<'_>,
    ) {
        let a = &self.a;
        out!("each cell: {} → {} (change)", a.name(), b.name());
        let (unit, first) = swept_column(a.r, a.chart, name);
        let mut header = vec![first];
        if unit {
            header.push(format!("→ {}", a.name()));
            header.push(format!("→ {}", b.name()));
        }
        header.extend(self.outcomes.iter().cloned());
        let mut rows = vec![header];
        let skip_b = self.vary_index(b.chart);
        for ((ca, cb), v) in a.cases.iter().zip(&b.cases).zip(asked) {
            let mut row = if unit {
                let reads = |r: &Ruleset, c: &ChartDef| {
                    let reached = unit_bands(r, c, name, *v);
                    let parts: Vec<String> = reached
                        .iter()
                        .map(|(i, b)| unit_reads(c, *i, *b, reached.len()))
                        .collect();
                    parts.join(", ")
                };
                vec![unit_value(*v), reads(a.r, a.chart), reads(b.r, b.chart)]
            } else {
                let (ua, ub) = (
                    skip.and_then(|i| ca.inputs.get(i).copied()),
                    skip_b.and_then(|i| cb.inputs.get(i).copied()),
                );
                vec![match (ua, ub) {
                    (Some(x), Some(y)) if x != y => {
                        format!("{v} (→ {x} | → {y} in {})", b.name())
                    }
                    _ => value_label(*v, ua),
                }]
            };
            for o in &self.outcomes {
                let (pa, pb) = (odds_by_name(a.chart, ca, o), odds_by_name(b.chart, cb, o));
                let d = Delta::between(pa, pb);
                row.push(format!("{pa} → {pb} ({:+.2} pp)", d.points()));
            }
            rows.push(row);
        }
        print_table(&rows);
        print_means(&rows, &a.amounts, Some(&b.amounts));
    }
}

/// The amounts' means under a sweep's table: one line per row, named by its first cell.
fn print_means(
    rows: &[Vec<String>],
    amounts: &[Vec<AmountOdds>],
    against: Option<&[Vec<AmountOdds>]>,
) {
    let means: Vec<(String, Vec<_>)> = rows
        .iter()
        .skip(1)
        .filter_map(|r| r.first().cloned())
        .zip(amounts.iter().cloned())
        .collect();
    lab_amounts::print_means(&means, &rows[0][0], against);
}

/// `grognard show RULESET [--json]`: what a ruleset is made of, with the optional rules and
/// their defaults.
pub fn show(ruleset: &Path, json: bool) -> Outcome {
    let r = load::load_ruleset(ruleset)?;
    let spec = &r.spec;
    let settings: serde_json::Map<String, Value> = spec
        .settings
        .iter()
        .map(|s| (s.name.value.clone(), json!(s.value)))
        .collect();
    let facts = ShowFacts {
        geometry: geometry_words(spec),
        hooks: hook_bindings(spec),
        settings,
        layers: r.layers.iter().map(|p| load::display(p)).collect(),
    };
    if json {
        print_json(&show_json(&r, &facts));
    } else {
        show_text(&r, &facts);
    }
    Ok(())
}

/// What `show` prints both as text and as JSON.
struct ShowFacts<'s> {
    /// The grid's kind and its step costs and scale in words.
    geometry: (&'s str, Vec<String>),
    /// Each hook bound, and each action's script, as `{"hook", "function"}`.
    hooks: Vec<Value>,
    /// The settings' defaults by name.
    settings: serde_json::Map<String, Value>,
    /// The ruleset's files, base first.
    layers: Vec<String>,
}

/// The grid's kind, and its step costs and scale in words.
fn geometry_words(spec: &RulesetSpec) -> (&str, Vec<String>) {
    let g = &spec.geometry;
    let mut parts = Vec::new();
    if let Some(c) = &g.orthogonal {
        parts.push(format!("orthogonal {c}"));
    }
    if let Some(c) = &g.diagonal {
        parts.push(format!("diagonal {c}"));
    }
    if let Some(c) = &g.step {
        parts.push(format!("step {c}"));
    }
    if let Some(p) = g.scale_percent {
        parts.push(format!("scale {p}%"));
    }
    (g.kind.as_ref().map_or("", |k| k.value.word()), parts)
}

/// The hooks a ruleset binds under `hooks:`, then its actions' scripts.
fn hook_bindings(spec: &RulesetSpec) -> Vec<Value> {
    let hooks: Vec<Value> = spec
        .hooks
        .iter()
        .map(|h| json!({"hook": h.name.value, "function": h.value.value}))
        .collect();
    let actions: Vec<Value> =
        spec.actions
            .iter()
            .filter_map(|a| {
                a.value.script.as_ref().map(
                    |s| json!({"hook": format!("action {}", a.name.value), "function": s.value}),
                )
            })
            .collect();
    hooks.into_iter().chain(actions).collect()
}

/// `show --json`.
fn show_json(r: &Ruleset, f: &ShowFacts<'_>) -> Value {
    let spec = &r.spec;
    let rules = &r.rules;
    let options: Vec<Value> = spec
        .options
        .iter()
        .map(|o| json!({"name": o.name.value, "default": o.value.default, "description": o.value.description}))
        .collect();
    let modes: Vec<Value> = spec
        .modes
        .iter()
        .map(|m| json!({"name": m.name.value, "description": m.value.description}))
        .collect();
    let pieces: Vec<Value> = spec
        .piece_types
        .iter()
        .map(|p| {
            let allowance: serde_json::Map<String, Value> = p
                .value
                .allowance
                .iter()
                .map(|a| (a.name.value.clone(), json!(a.value.to_string())))
                .collect();
            json!({
                "name": p.name.value,
                "movement": p.value.movement.value,
                "allowance": allowance,
                "description": p.value.description,
            })
        })
        .collect();
    let charts: Vec<Value> = rules
        .charts
        .iter()
        .map(|c| {
            let s = spec.charts.get(&c.name);
            json!({
                "name": c.name,
                "dice": s.map(|s| s.dice.value.clone()),
                "lookup": match c.lookup { Lookup::Score { .. } => "score", Lookup::Band { .. } => "band" },
                "inputs": c.inputs.iter().map(|i| i.name.clone()).collect::<Vec<_>>(),
                "outcomes": c.outcomes,
                "description": s.and_then(|s| s.description.clone()),
            })
        })
        .collect();
    json!({
        "ruleset": rules.identity.name,
        "hash": rules.identity.hash,
        "title": spec.title,
        "path": load::display(&r.path),
        "extends": f.layers.get(..f.layers.len().saturating_sub(1)),
        "layers": f.layers,
        "geometry": {"kind": f.geometry.0, "details": f.geometry.1},
        "options": options,
        "modes": modes,
        "piece_types": pieces,
        "charts": charts,
        "settings": f.settings,
        "hooks": f.hooks,
        "notes": spec.notes,
    })
}

/// `show` as text.
fn show_text(r: &Ruleset, f: &ShowFacts<'_>) {
    let spec = &r.spec;
    let rules = &r.rules;
    let title = spec
        .title
        .as_ref()
        .map_or_else(String::new, |t| format!(" — {t}"));
    out!("ruleset {}{title}", rules.identity.name);
    out!(
        "file: {} (hash {})",
        load::display(&r.path),
        &rules.identity.hash[..rules.identity.hash.len().min(12)]
    );
    if f.layers.len() > 1 {
        out!("layers (base first): {}", f.layers.join(" → "));
    }
    if f.geometry.1.is_empty() {
        out!("geometry: {}", f.geometry.0);
    } else {
        out!("geometry: {} ({})", f.geometry.0, f.geometry.1.join(", "));
    }
    if spec.options.is_empty() {
        out!("optional rules: none");
    } else {
        out!("optional rules (switch with --option NAME=on|off):");
        let rows: Vec<Vec<String>> = spec
            .options
            .iter()
            .map(|o| {
                vec![
                    o.name.value.clone(),
                    if o.value.default { "on" } else { "off" }.to_owned(),
                    o.value.description.clone().unwrap_or_default(),
                ]
            })
            .collect();
        print_table(&rows);
    }
    out!(
        "modes: {}",
        spec.modes.names().collect::<Vec<_>>().join(", ")
    );
    out!("piece types:");
    let rows: Vec<Vec<String>> = spec
        .piece_types
        .iter()
        .map(|p| {
            let allowance: Vec<String> = p
                .value
                .allowance
                .iter()
                .map(|a| format!("{} {}", a.name.value, a.value))
                .collect();
            let mut row = vec![
                p.name.value.clone(),
                format!("moves as {}", p.value.movement.value),
                format!("allowance {}", allowance.join(", ")),
            ];
            let feet = footprint_text(rules, &p.name.value);
            if !feet.is_empty() {
                row.push(feet);
            }
            row
        })
        .collect();
    print_table(&rows);
    if rules.charts.is_empty() {
        out!("charts: none");
    } else {
        out!("charts:");
        let rows: Vec<Vec<String>> = rules
            .charts
            .iter()
            .map(|c| {
                vec![
                    c.name.clone(),
                    describe_chart(r, c),
                    format!("→ {}", c.outcomes.join(", ")),
                ]
            })
            .collect();
        print_table(&rows);
    }
    if !f.settings.is_empty() {
        let parts: Vec<String> = f.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out!("settings (defaults): {}", parts.join(", "));
    }
    if f.hooks.is_empty() {
        out!("hooks: none");
    } else {
        out!("hooks:");
        let rows: Vec<Vec<String>> = f
            .hooks
            .iter()
            .map(|h| {
                vec![
                    h["hook"].as_str().unwrap_or_default().to_owned(),
                    format!("→ {}", h["function"].as_str().unwrap_or_default()),
                ]
            })
            .collect();
        print_table(&rows);
    }
}

/// `grognard schema ruleset|scenario|orders|view`: the JSON Schema of a file kind, or of
/// a side's view (`view --json`, what a seat of `grognard serve` receives).
pub fn schema(kind: &str) -> Outcome {
    if kind == "view" {
        print_json(&grognard_server::schema::view_schema());
        return Ok(());
    }
    let kind = SchemaKind::from_word(kind).ok_or_else(|| {
        let words: Vec<&str> = SchemaKind::ALL.iter().map(|(w, _)| *w).collect();
        Failure::Usage(format!(
            "no schema for `{kind}`; choose one of {}, view",
            words.join(", ")
        ))
    })?;
    print_json(&schema_of(kind));
    Ok(())
}

/// A piece type's footprints as `show` prints them: `bases line 6.30" × 0.79", column
/// 3.15" × 1.57"` (table inches), in the modes it has an allowance for (every mode when it
/// has none), or nothing for a point.
fn footprint_text(rules: &grognard_kernel::rules::Rules, type_name: &str) -> String {
    let Some(t) = rules.piece_types.iter().find(|t| t.name == type_name) else {
        return String::new();
    };
    let takes = |i: usize| t.allowance.get(i).copied().flatten().is_some();
    let any_mode = !(0..t.footprint.len()).any(takes);
    let parts: Vec<String> = t
        .footprint
        .iter()
        .enumerate()
        .filter(|(i, _)| any_mode || takes(*i))
        .filter_map(|(i, f)| {
            let f = (*f)?;
            #[allow(clippy::cast_precision_loss)] // thou on a table
            let inches = |l: grognard_kernel::geometry::open::Len| l.0 as f64 / 1000.0;
            Some(format!(
                "{} {:.2}\" × {:.2}\"",
                rules.mode_name(grognard_kernel::ids::ModeId(u16::try_from(i).unwrap_or(0))),
                inches(f.width),
                inches(f.depth)
            ))
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("bases {}", parts.join(", "))
    }
}
