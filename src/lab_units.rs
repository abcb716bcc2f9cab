//! Designer units on the command line: `--set distance=5` and `--set inches=48.5` for the
//! chart lab and `roll`, kept in thousandths so a distance may be exact, and what each
//! reaches in a chart (the band of a `distance_band` input, the inches of a `distance` one).

use grognard_kernel::chart::ChartDef;
use grognard_rules::load::Ruleset;
use grognard_rules::odds::parse_values;

use crate::common::{Failure, input_index};

/// A designer unit's value (`distance=48.5`), in thou: whole or decimal inches (at most
/// three decimals), or a range of whole ones (`1..6`).
pub(crate) fn parse_unit_values(text: &str) -> Result<Vec<i32>, String> {
    if text.contains("..") || !text.contains('.') {
        return parse_values(text)?
            .into_iter()
            .map(|v| {
                v.checked_mul(1000)
                    .ok_or_else(|| format!("`{v}` is too large"))
            })
            .collect();
    }
    let t = text.trim();
    let bad = || format!("`{t}` is not a distance (inches, at most three decimals: 48.5)");
    let (whole, frac) = t.split_once('.').ok_or_else(bad)?;
    if frac.len() > 3 || !frac.chars().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    let negative = whole.starts_with('-') || whole.starts_with('\u{2212}');
    let whole = whole.trim_start_matches(['-', '\u{2212}', '+']);
    let w: i32 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| bad())?
    };
    let f: i32 = format!("{frac:0<3}").parse().map_err(|_| bad())?;
    let thou = w
        .checked_mul(1000)
        .and_then(|v| v.checked_add(f))
        .ok_or_else(bad)?;
    Ok(vec![if negative { -thou } else { thou }])
}

/// A designer unit's value in thou as inches: `48.5`, `3`.
pub(crate) fn unit_value(thou: i32) -> String {
    let text = format!("{}.{:03}", thou / 1000, (thou % 1000).abs());
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// The designer's units `--set` accepts besides a chart's own inputs: `distance` (what the
/// rules measure: steps on a grid, rule inches on a table) for inputs read `from:
/// distance_band`, and `inches` (table inches, what the tape reads) for inputs read from
/// `table_distance_band` — and, on a table, from `distance_band`, through the scale.
pub(crate) const UNITS: [&str; 2] = ["distance", "inches"];

/// The inputs of `chart` that `unit` (`distance`, `inches`) reaches, each with the value it
/// reads for `thou` thousandths of that unit: the band of a `distance_band` input, the
/// distance of a `distance` input — as the kernel measures it, the exact distance rounded
/// up to whole inches on a table (a bound of 15 holds 15 and not 15.001).
pub(crate) fn unit_bands(
    r: &Ruleset,
    chart: &ChartDef,
    unit: &str,
    thou: i32,
) -> Vec<(usize, i32)> {
    use grognard_kernel::chart::InputSource;
    use grognard_kernel::rules::GeometryRules;
    let band = |bands: &[u32], d: u32| bands.iter().position(|b| d <= *b).unwrap_or(bands.len());
    let up = |t: i128| u32::try_from((t.max(0) + 999) / 1000).unwrap_or(u32::MAX);
    let d = up(i128::from(thou));
    let open_scale = match &r.rules.geometry {
        GeometryRules::Open { scale } if scale.num > 0 => Some(*scale),
        _ => None,
    };
    // Table inches to rule inches, as the kernel measures them.
    let rule = |scale: grognard_kernel::geometry::open::Scale| {
        up(i128::from(thou) * i128::from(scale.den) / i128::from(scale.num))
    };
    chart
        .inputs
        .iter()
        .enumerate()
        .filter_map(|(i, input)| {
            let b = match (&input.source, unit, open_scale) {
                (Some(InputSource::DistanceBand(bands)), "distance", _)
                | (Some(InputSource::TableDistanceBand(bands)), "inches", _) => band(bands, d),
                (Some(InputSource::Distance), "distance", _)
                | (Some(InputSource::TableDistance), "inches", _) => d as usize,
                (Some(InputSource::DistanceBand(bands)), "inches", Some(scale)) => {
                    band(bands, rule(scale))
                }
                (Some(InputSource::Distance), "inches", Some(scale)) => rule(scale) as usize,
                _ => return None,
            };
            Some((i, i32::try_from(b).unwrap_or(i32::MAX)))
        })
        .collect()
}

/// What `unit` counts on this ruleset's board: `hexes`, `squares`, `rule inches`, `inches`.
pub(crate) fn unit_word(r: &Ruleset, unit: &str) -> &'static str {
    use grognard_kernel::rules::GeometryRules;
    match (&r.rules.geometry, unit) {
        (GeometryRules::Open { .. }, "distance") => "rule inches",
        (_, "inches") => "inches",
        (GeometryRules::Hex { .. }, _) => "hexes",
        _ => "squares",
    }
}

/// How one `--set NAME=VALUE` reaches the chart: the input `NAME`, or a designer unit
/// (`distance=3`) as the band each distance input reads for it.
pub(crate) fn resolve_set(
    r: &Ruleset,
    chart: &ChartDef,
    name: &str,
    v: i32,
) -> Result<Vec<(usize, i32)>, Failure> {
    if !UNITS.contains(&name) {
        return Ok(vec![(input_index(chart, name)?, v)]);
    }
    if chart.inputs.iter().any(|x| x.name == name) {
        // An input of the chart named like a unit: it takes whole numbers.
        if v % 1000 != 0 {
            return Err(Failure::Usage(format!(
                "--set {name}={}: input `{name}` takes a whole number",
                unit_value(v)
            )));
        }
        return Ok(vec![(input_index(chart, name)?, v / 1000)]);
    }
    if v < 0 {
        return Err(Failure::Usage(format!(
            "--set {name}={}: a distance is 0 or more",
            unit_value(v)
        )));
    }
    let bands = unit_bands(r, chart, name, v);
    if bands.is_empty() {
        let names: Vec<&str> = chart.inputs.iter().map(|x| x.name.as_str()).collect();
        return Err(Failure::Usage(format!(
            "--set {name}: chart `{}` reads no input from {} ({} in {}); its inputs are {}",
            chart.name,
            if name == "distance" {
                "distance or distance_band"
            } else {
                "table_distance or table_distance_band"
            },
            unit_word(r, name),
            r.rules.identity.name,
            names.join(", ")
        )));
    }
    Ok(bands)
}

/// `3 hexes → band 2` for a designer unit's value (`band 2` per input when several).
pub(crate) fn unit_text(r: &Ruleset, chart: &ChartDef, name: &str, v: i32) -> Option<String> {
    if chart.inputs.iter().any(|x| x.name == name) || !UNITS.contains(&name) {
        return None;
    }
    let bands = unit_bands(r, chart, name, v);
    let parts: Vec<String> = bands
        .iter()
        .map(|(i, b)| unit_reads(chart, *i, *b, bands.len()))
        .collect();
    Some(format!(
        "{} {} → {}",
        unit_value(v),
        unit_word(r, name),
        parts.join(", ")
    ))
}

/// What input `i` reads for a designer unit: `band 2`, or the whole inches `16` of a
/// `distance` input (`range 16` when the unit reaches several inputs).
pub(crate) fn unit_reads(chart: &ChartDef, i: usize, b: i32, reached: usize) -> String {
    use grognard_kernel::chart::InputSource;
    let input = &chart.inputs[i];
    let what = match input.source {
        Some(InputSource::Distance | InputSource::TableDistance) => format!("{b}"),
        _ => format!("band {b}"),
    };
    match reached {
        1 => what,
        _ => format!("{} {what}", input.name),
    }
}

/// The first column of a chart swept over the input `name`: whether it is a designer unit
/// (`distance`, `inches`: the chart has no input of that name, so the value is converted),
/// and its heading (with the unit's word when it is one).
pub(crate) fn swept_column(r: &Ruleset, chart: &ChartDef, name: &str) -> (bool, String) {
    let unit = UNITS.contains(&name) && !chart.inputs.iter().any(|x| x.name == name);
    let heading = if unit {
        format!("{name} ({})", unit_word(r, name))
    } else {
        name.to_owned()
    };
    (unit, heading)
}
