//! How the chart lab reports inputs that `with:` / `without:` gates govern: an input whose
//! gate opens and shuts from row to row "varies by row", one a gate holds at another value
//! than it would read "is set by its gate", and a `--set` a gate overrides is said to be.

use grognard_kernel::chart::ChartDef;
use grognard_rules::odds::ChartCase;

/// Each case's input values as they would read with no gates: what was set (or the
/// default), clamped into range.
pub(crate) fn ungated(chart: &ChartDef, sets: &[Vec<(usize, i32)>]) -> Vec<Vec<i32>> {
    let mut open = chart.clone();
    for input in &mut open.inputs {
        input.with.clear();
        input.without.clear();
    }
    sets.iter().map(|s| open.input_values(s)).collect()
}

/// An input's gates as written: `without long`, `with a, without b`; `None` when ungated.
pub(crate) fn gate_text(chart: &ChartDef, i: usize) -> Option<String> {
    let input = chart.inputs.get(i)?;
    let names = |list: &[usize]| -> Vec<&str> {
        list.iter()
            .filter_map(|j| chart.inputs.get(*j).map(|x| x.name.as_str()))
            .collect()
    };
    let mut parts = Vec::new();
    if !input.with.is_empty() {
        parts.push(format!("with {}", names(&input.with).join(", ")));
    }
    if !input.without.is_empty() {
        parts.push(format!("without {}", names(&input.without).join(", ")));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The names of the inputs of `chart` whose value is not the same in every case.
pub(crate) fn varying(chart: &ChartDef, cases: &[ChartCase]) -> Vec<String> {
    chart
        .inputs
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let mut values = cases.iter().filter_map(|c| c.inputs.get(*i));
            let first = values.next();
            values.any(|v| Some(v) != first)
        })
        .map(|(_, x)| x.name.clone())
        .collect()
}

/// The header line of inputs other than the varied one (`skip`): `name=value` each, but
/// `varies by row` for one that changes from row to row here or in the other ruleset
/// (`against`: its name, chart and cases), `name=0 → 1 in OTHER` for one the other
/// ruleset holds at another value, and `(set by its gate …)` for one a gate holds away
/// from what it would read.
pub(crate) fn inputs_text(
    chart: &ChartDef,
    cases: &[ChartCase],
    ungated: &[Vec<i32>],
    skip: Option<usize>,
    against: Option<(&str, &ChartDef, &[ChartCase])>,
) -> String {
    let Some(first) = cases.first() else {
        return "none".to_owned();
    };
    let here = varying(chart, cases);
    let there = against.map(|(_, c, cs)| varying(c, cs)).unwrap_or_default();
    // The other ruleset's value of the input `name`, when it holds one different from `v`.
    let other_value = |name: &str, v: i32| -> Option<(String, i32)> {
        let (other, c, cs) = against?;
        let i = c.inputs.iter().position(|x| x.name == name)?;
        let w = *cs.first()?.inputs.get(i)?;
        (w != v).then(|| (other.to_owned(), w))
    };
    let parts: Vec<String> = chart
        .inputs
        .iter()
        .zip(&first.inputs)
        .enumerate()
        .filter(|(i, _)| Some(*i) != skip)
        .map(|(i, (d, v))| {
            let gate = gate_text(chart, i);
            let gate_note = gate.as_ref().map(|g| format!(" (gate: {g})"));
            if here.contains(&d.name) || there.contains(&d.name) {
                return format!("{}=varies by row{}", d.name, gate_note.unwrap_or_default());
            }
            if let Some((other, w)) = other_value(&d.name, *v) {
                return format!(
                    "{}={v} → {w} in {other}{}",
                    d.name,
                    gate_note.unwrap_or_default()
                );
            }
            let open = ungated.first().and_then(|u| u.get(i)).copied();
            match gate {
                Some(g) if open != Some(*v) => format!("{}={v} (set by its gate: {g})", d.name),
                _ => format!("{}={v}", d.name),
            }
        })
        .collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

/// One line for each `--set NAME=VALUE` (`given`, by input index) that a gate overrides in
/// some case: where, and what the input reads there.
pub(crate) fn overridden(
    chart: &ChartDef,
    given: &[(usize, i32)],
    cases: &[ChartCase],
    ungated: &[Vec<i32>],
) -> Vec<String> {
    let mut lines = Vec::new();
    for &(i, v) in given {
        let Some(input) = chart.inputs.get(i) else {
            continue;
        };
        let Some(gate) = gate_text(chart, i) else {
            continue;
        };
        let rows: Vec<i32> = cases
            .iter()
            .zip(ungated)
            .filter_map(|(c, u)| {
                let (now, open) = (c.inputs.get(i)?, u.get(i)?);
                (now != open).then_some(*now)
            })
            .collect();
        let Some(reads) = rows.first() else {
            continue;
        };
        let name = &input.name;
        lines.push(if cases.len() == 1 {
            format!("note: --set {name}={v} is overridden by its gate ({gate}): {name} reads {reads}")
        } else {
            format!(
                "note: --set {name}={v} is overridden by its gate ({gate}) in {} of {} rows, where {name} reads {reads}",
                rows.len(),
                cases.len()
            )
        });
    }
    lines
}
