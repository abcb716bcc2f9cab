//! The chart lab's computed amounts (`grognard chart` on a chart whose actions add
//! `amount: score` and the like): each amount's exact distribution and mean, the means
//! across a `--set` range, and `--against` the change of each mean, all exact fractions.
//! The numbers are `grognard_rules::amount_odds`; this module only prints them.

use grognard_kernel::Ratio;
use grognard_kernel::chart::ChartDef;
use grognard_kernel::ids::ChartId;
use grognard_rules::amount_odds::{AmountOdds, Signed, amount_odds};
use grognard_rules::load::Ruleset;
use grognard_rules::odds::percent;
use serde_json::{Value, json};

use crate::common::Failure;

/// The amounts of chart `id` for `inputs`, refusing odds that outgrew exact arithmetic.
pub(crate) fn amounts(
    r: &Ruleset,
    id: ChartId,
    inputs: &[i32],
) -> Result<Vec<AmountOdds>, Failure> {
    let name = r.rules.chart(id).map_or("", |c| c.name.as_str());
    let found = amount_odds(&r.rules, id, inputs).ok_or_else(|| {
        Failure::Rules(format!(
            "chart `{name}`: an amount reads single dice, and its dice have too many combinations to enumerate one by one; use fewer dice"
        ))
    })?;
    if found.iter().all(AmountOdds::is_exact) {
        Ok(found)
    } else {
        Err(Failure::Rules(format!(
            "chart `{name}`: its dice have too many combinations to enumerate exactly (the fractions outgrow 128 bits); use fewer or smaller dice"
        )))
    }
}

/// The multiplying modifiers that apply with `inputs`, in order, and the rounding:
/// `halved (cover), doubled (flank); rounding up`. `None` for a chart without any.
pub(crate) fn scaling_text(chart: &ChartDef, inputs: &[i32]) -> Option<String> {
    if chart.scales.is_empty() {
        return None;
    }
    let on: Vec<String> = chart
        .scales
        .iter()
        .filter(|s| inputs.get(s.input).is_some_and(|v| *v != 0))
        .map(|s| format!("{} ({})", s.factor.verb(), s.name))
        .collect();
    Some(if on.is_empty() {
        "none apply".to_owned()
    } else {
        let round = chart
            .round
            .map_or_else(String::new, |r| format!("; rounding {}", r.name()));
        format!("{}{round}", on.join(", "))
    })
}

/// `hits` when the chart's actions add to each counter once; `hits (fire)` otherwise.
fn labels(all: &[AmountOdds]) -> Vec<String> {
    all.iter()
        .map(|a| {
            let twice = all
                .iter()
                .filter(|b| b.counter == a.counter && b.to == a.to)
                .count()
                > 1;
            if twice {
                format!("{} ({})", a.counter, a.action)
            } else {
                a.counter.clone()
            }
        })
        .collect()
}

fn mean_text(m: Signed) -> String {
    format!("{m} ({:.2})", m.to_f64())
}

fn cell(p: Ratio) -> String {
    format!("{p} {:.2}%", percent(p))
}

fn odds_of(a: &AmountOdds, v: i32) -> Ratio {
    a.odds
        .iter()
        .find(|(x, _)| *x == v)
        .map_or(Ratio::ZERO, |(_, p)| *p)
}

/// One amount's distribution, or two side by side with the change (`--against`).
pub(crate) fn print(names: (&str, Option<&str>), a: &[AmountOdds], b: Option<&[AmountOdds]>) {
    for (x, label) in a.iter().zip(labels(a)) {
        let y = b.and_then(|b| {
            b.iter()
                .find(|y| y.action == x.action && y.counter == x.counter && y.to == x.to)
        });
        let whom = if x.to == "target" {
            "the target's"
        } else {
            "the actor's"
        };
        match (y, names.1) {
            (Some(y), Some(other)) => {
                out!(
                    "amount {label}: added to {whom} {} by `{}`; mean {} → {} ({})",
                    x.counter,
                    x.action,
                    mean_text(x.mean),
                    mean_text(y.mean),
                    x.mean.change_to(y.mean).signed()
                );
                let mut values: Vec<i32> = x.odds.iter().chain(&y.odds).map(|(v, _)| *v).collect();
                values.sort_unstable();
                values.dedup();
                let mut rows = vec![vec![
                    x.counter.clone(),
                    names.0.to_owned(),
                    other.to_owned(),
                    "change".to_owned(),
                ]];
                for v in values {
                    let (pa, pb) = (odds_of(x, v), odds_of(y, v));
                    let d = grognard_rules::odds::Delta::between(pa, pb);
                    rows.push(vec![
                        v.to_string(),
                        cell(pa),
                        cell(pb),
                        format!("{d} ({:+.2} pp)", d.points()),
                    ]);
                }
                crate::output::print_table(&rows);
            }
            _ => {
                out!(
                    "amount {label}: added to {whom} {} by `{}`; mean {}",
                    x.counter,
                    x.action,
                    mean_text(x.mean)
                );
                if b.is_some() {
                    out!(
                        "  (the other ruleset's `{}` adds no computed {})",
                        x.action,
                        x.counter
                    );
                }
                let mut rows = vec![vec![x.counter.clone(), "probability".to_owned()]];
                rows.extend(x.odds.iter().map(|(v, p)| vec![v.to_string(), cell(*p)]));
                crate::output::print_table(&rows);
            }
        }
    }
}

/// The means across a `--set` range: one row per value (its label), one column per amount;
/// with `against`, each cell is `A → B (change)`.
pub(crate) fn print_means(
    rows: &[(String, Vec<AmountOdds>)],
    vary: &str,
    against: Option<&[Vec<AmountOdds>]>,
) {
    let Some((_, first)) = rows.first() else {
        return;
    };
    if first.is_empty() {
        return;
    }
    let mut table = vec![
        std::iter::once(vary.to_owned())
            .chain(labels(first).into_iter().map(|l| format!("mean {l}")))
            .collect::<Vec<_>>(),
    ];
    for (i, (label, all)) in rows.iter().enumerate() {
        let other = against.and_then(|b| b.get(i));
        table.push(
            std::iter::once(label.clone())
                .chain(all.iter().map(|x| {
                    let y = other.and_then(|o| {
                        o.iter().find(|y| {
                            y.action == x.action && y.counter == x.counter && y.to == x.to
                        })
                    });
                    match y {
                        Some(y) => format!(
                            "{} → {} ({})",
                            x.mean,
                            y.mean,
                            x.mean.change_to(y.mean).signed()
                        ),
                        None => mean_text(x.mean),
                    }
                }))
                .collect(),
        );
    }
    out!("computed amounts:");
    crate::output::print_table(&table);
}

/// The amounts as JSON: `[{action, counter, to, mean, mean_value, odds: [{amount,
/// fraction, probability, percent}]}]`.
pub(crate) fn json(all: &[AmountOdds]) -> Value {
    json!(
        all.iter()
            .map(|a| json!({
                "action": a.action,
                "counter": a.counter,
                "to": a.to,
                "mean": a.mean.to_string(),
                "mean_value": a.mean.to_f64(),
                "odds": a.odds.iter().map(|(v, p)| json!({
                    "amount": v,
                    "fraction": p.to_string(),
                    "probability": p.to_f64(),
                    "percent": (percent(*p) * 100.0).round() / 100.0,
                })).collect::<Vec<_>>(),
            }))
            .collect::<Vec<_>>()
    )
}
