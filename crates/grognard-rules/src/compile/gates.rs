//! Checks on a chart's inputs as a whole that no single input can make alone: gates
//! (`with:` / `without:`) that lead back to where they start, and `bands:` written on an
//! input whose source does not band.

use crate::de::Located;
use crate::model::ChartSpec;

use super::Cx;

/// Refuses every circle of `with:` / `without:` gates among a chart's inputs. A circle has
/// no settled reading: `close: { without: [flank] }` with `flank: { without: [close] }`
/// reads one way or the other depending on which gate is looked at first. Each circle is
/// reported once, at the gate entry that starts it, naming the inputs in order.
pub(super) fn refuse_gate_cycles(cx: &mut Cx, chart: &Located<String>, spec: &ChartSpec) {
    let names: Vec<&str> = spec.inputs.names().collect();
    // Each input's gates: the input gated on, and the entry that names it (for the
    // location and the message).
    let edges: Vec<Vec<Edge<'_>>> = spec
        .inputs
        .iter()
        .map(|i| {
            let with = i.value.with.iter().map(|g| ("with", g));
            let without = i.value.without.iter().map(|g| ("without", g));
            with.chain(without)
                .filter_map(|(kind, g)| {
                    let to = names.iter().position(|n| *n == g.value)?;
                    Some(Edge { to, kind, entry: g })
                })
                .collect()
        })
        .collect();
    let mut reported = vec![false; names.len()];
    for start in 0..names.len() {
        if reported[start] {
            continue;
        }
        let Some(path) = path_back(&edges, start) else {
            continue;
        };
        if path.iter().any(|&(i, _)| reported[i]) {
            continue;
        }
        for &(i, _) in &path {
            reported[i] = true;
        }
        let mut circle: Vec<&str> = path.iter().map(|&(i, _)| names[i]).collect();
        circle.push(names[start]);
        let words: Vec<String> = path
            .iter()
            .map(|&(i, e)| format!("`{}` is {} `{}`", names[i], e.kind, e.entry.value))
            .collect();
        cx.error_help(
            &path[0].1.entry.location,
            format!(
                "chart `{}`: the gates of inputs {} go round in a circle ({}), so their values \
                 would depend on which is read first",
                chart.value,
                circle
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(" → "),
                words.join(", "),
            ),
            Some(
                "a gate must name an input that is not gated back by it; to say \"one or the \
                 other\", gate only one of them (`close: { without: [flank] }` and leave \
                 `flank` ungated)"
                    .to_owned(),
            ),
        );
    }
}

/// One gate: the input it reads, `with` or `without`, and the entry that says so.
#[derive(Clone, Copy)]
struct Edge<'a> {
    to: usize,
    kind: &'static str,
    entry: &'a Located<String>,
}

/// A path of gates from `start` back to `start`, each step the input it leaves and the
/// gate it follows; `None` when no circle passes through `start`.
fn path_back<'a>(edges: &[Vec<Edge<'a>>], start: usize) -> Option<Vec<(usize, Edge<'a>)>> {
    let mut seen = vec![false; edges.len()];
    let mut path = Vec::new();
    if walk(edges, start, start, &mut seen, &mut path) {
        Some(path)
    } else {
        None
    }
}

/// Depth first from `at`, keeping the gates followed in `path`; true once one leads back
/// to `start`.
fn walk<'a>(
    edges: &[Vec<Edge<'a>>],
    at: usize,
    start: usize,
    seen: &mut [bool],
    path: &mut Vec<(usize, Edge<'a>)>,
) -> bool {
    seen[at] = true;
    for &edge in &edges[at] {
        path.push((at, edge));
        if edge.to == start {
            return true;
        }
        if !seen[edge.to] && walk(edges, edge.to, start, seen, path) {
            return true;
        }
        path.pop();
    }
    false
}

/// Refuses `bands:` on an input whose source does not band: only `from: distance_band`
/// and `from: table_distance_band` read it, and anywhere else it would be silently ignored
/// (`far: { from: distance, bands: [4] }` reads the plain distance).
pub(super) fn refuse_stray_bands(cx: &mut Cx, chart: &Located<String>, spec: &ChartSpec) {
    for input in spec.inputs.iter() {
        let v = &input.value;
        if v.bands.is_empty() {
            continue;
        }
        let head = v
            .from
            .as_ref()
            .and_then(|f| f.value.split_whitespace().next());
        if matches!(head, Some("distance_band" | "table_distance_band")) {
            continue;
        }
        let reads = match head {
            Some(h) => format!("reads `{h}`, which"),
            None => "has no `from:`, so it".to_owned(),
        };
        let help = match head {
            Some("distance") => "write `from: distance_band` to band the distance, or drop `bands:` to read the distance itself".to_owned(),
            Some("table_distance") => "write `from: table_distance_band` to band the table distance, or drop `bands:` to read the distance itself".to_owned(),
            _ => "`bands:` goes with `from: distance_band` or `from: table_distance_band`".to_owned(),
        };
        let at = v
            .from
            .as_ref()
            .map_or(&input.name.location, |f| &f.location);
        cx.error_help(
            at,
            format!(
                "chart `{}`, input `{}`: `bands:` is read only with `from: distance_band` or \
                 `from: table_distance_band` (the largest distance of each band); this input \
                 {reads} does not band",
                chart.value, input.name.value
            ),
            Some(help),
        );
    }
}
