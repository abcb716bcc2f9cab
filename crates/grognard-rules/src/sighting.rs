//! Compiles a ruleset's `sighting:` section into the kernel's [`SightingRules`].
//!
//! Offset charts are written as the printed chart is drawn: rows of level names, the
//! farthest row ahead first, the observer as `X`, a `*` after a name for the letters that
//! also disclose concealed pieces.

use grognard_kernel::chart::ChartDef;
use grognard_kernel::knowledge::{
    ContactRule, DecoyRule, Disclosure, LevelDef, ObserverRule, OffsetSight, PieceMark, RangeBand,
    SightChartDef, SightShape, SightingRules,
};

use crate::cx::Cx;
use crate::de::Located;
use crate::model::{ContactSpec, DecoySpec, Fact, MarkSpec, SightChartSpec, SightingSpec};
use crate::names::{NameTable, kind};

/// What the section reads from the sections compiled before it (its names it looks up in
/// [`NameTable`]).
pub(crate) struct Compiled<'a> {
    /// Every phase of every sequence, for `spotting_phases`.
    pub phases: &'a [String],
    /// The compiled charts, for a band's `roll`.
    pub charts: &'a [ChartDef],
    /// Which piece types are dummies (by index), for `decoys`.
    pub dummy_types: &'a [bool],
    /// True on a square grid, where offset charts may be drawn.
    pub square: bool,
}

/// The facts a list names, together.
fn disclosure(facts: &[Fact]) -> Disclosure {
    facts
        .iter()
        .fold(Disclosure::NONE, |d, f| d.with(Disclosure::from(*f)))
}

/// Parses an offset chart drawn as rows around `X`.
fn offsets(
    cx: &mut Cx,
    name: &Located<String>,
    rows: &[Located<String>],
    levels: &[&str],
) -> Vec<OffsetSight> {
    let grid: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| r.value.split_whitespace().collect())
        .collect();
    let width = grid.first().map_or(0, Vec::len);
    if let Some(bad) = rows
        .iter()
        .zip(&grid)
        .find(|(_, cells)| cells.len() != width)
    {
        cx.error(
            &bad.0.location,
            format!(
                "sighting chart `{}`: every row needs {width} entries like the first; this one has {}",
                name.value,
                bad.1.len()
            ),
        );
        return Vec::new();
    }
    let xs: Vec<(usize, usize)> = grid
        .iter()
        .enumerate()
        .flat_map(|(r, cells)| {
            cells
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == "X" || c.starts_with("X="))
                .map(move |(c, _)| (r, c))
        })
        .collect();
    let [(xr, xc)] = xs[..] else {
        let at = rows.first().map_or(&name.location, |r| &r.location);
        cx.error(
            at,
            format!(
                "sighting chart `{}`: mark the observer with exactly one `X` (found {})",
                name.value,
                xs.len()
            ),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (r, (row, cells)) in rows.iter().zip(&grid).enumerate() {
        for (c, cell) in cells.iter().enumerate() {
            // `X=A*`: the observer's own cell reads that level (an enemy sharing it).
            let cell = cell.strip_prefix("X=").unwrap_or(cell);
            if cell == "X" || cell == "." {
                continue;
            }
            let (letter, starred) = match cell.strip_suffix('*') {
                Some(l) => (l, true),
                None => (cell, false),
            };
            let located = Located::new(letter.to_owned(), row.location.clone());
            let Some(level) =
                NameTable::find(cx, kind::SightLevel, &located, levels.iter().copied())
            else {
                continue;
            };
            out.push(OffsetSight {
                right: c as i32 - xc as i32,
                forward: xr as i32 - r as i32,
                level,
                starred,
            });
        }
    }
    out
}

fn chart(
    cx: &mut Cx,
    name: &Located<String>,
    spec: &SightChartSpec,
    levels: &[&str],
    names: &NameTable,
    compiled: &Compiled<'_>,
) -> SightChartDef {
    let shape = if !spec.offsets.is_empty() {
        if !spec.range.is_empty() {
            cx.error(
                &name.location,
                format!(
                    "sighting chart `{}`: give `offsets` or `range`, not both",
                    name.value
                ),
            );
        }
        if !compiled.square {
            cx.error(
                &name.location,
                format!(
                    "sighting chart `{}`: offset charts need a square grid; use `range` bands",
                    name.value
                ),
            );
        }
        SightShape::Offsets(offsets(cx, name, &spec.offsets, levels))
    } else {
        if spec.range.is_empty() {
            cx.error(
                &name.location,
                format!(
                    "sighting chart `{}` is empty: give `offsets` rows or `range` bands",
                    name.value
                ),
            );
        }
        let bands = spec
            .range
            .iter()
            .map(|b| {
                let level = NameTable::find(cx, kind::SightLevel, &b.level, levels.iter().copied())
                    .unwrap_or(0);
                let from_terrain = b
                    .from
                    .iter()
                    .filter_map(|t| names.id(cx, kind::Terrain, &t.name).map(|id| (id, t.value)))
                    .collect();
                let roll = b.roll.as_ref().and_then(|r| {
                    let id = names.id(cx, kind::Chart, &r.chart)?;
                    let def = compiled.charts.get(id.index())?;
                    cx.lookup(
                        &format!("outcome of chart `{}`", r.chart.value),
                        &r.outcome,
                        def.outcomes.iter().map(String::as_str),
                    )?;
                    Some((id, r.outcome.value.clone()))
                });
                let not_in = b
                    .not_in
                    .iter()
                    .filter_map(|t| names.id(cx, kind::Terrain, t))
                    .collect();
                let not_when = b
                    .not_when
                    .iter()
                    .filter_map(|m| piece_mark(cx, names, m))
                    .collect();
                let option = b
                    .option
                    .as_ref()
                    .and_then(|o| names.index(cx, kind::Optional, o));
                if b.setting.len() > 1 {
                    cx.error(
                        &name.location,
                        format!(
                            "sighting chart `{}`: a band's `setting` names one setting",
                            name.value
                        ),
                    );
                }
                let setting = b.setting.iter().next().and_then(|s| {
                    names
                        .index(cx, kind::Setting, &s.name)
                        .map(|i| (i, s.value))
                });
                RangeBand {
                    within: b.within,
                    from_terrain,
                    level,
                    concealed_too: b.concealed_too,
                    roll,
                    not_in,
                    not_when,
                    option,
                    setting,
                }
            })
            .collect();
        SightShape::Range(bands)
    };
    let radius = match &shape {
        SightShape::Offsets(entries) => entries
            .iter()
            .map(|e| e.right.unsigned_abs().max(e.forward.unsigned_abs()))
            .max()
            .unwrap_or(0),
        SightShape::Range(bands) => bands
            .iter()
            .flat_map(|b| std::iter::once(b.within).chain(b.from_terrain.iter().map(|(_, w)| *w)))
            .max()
            .unwrap_or(0),
    };
    SightChartDef {
        name: name.value.clone(),
        shape,
        radius,
    }
}

/// Compiles the section; problems go to `cx`.
pub(crate) fn compile_sighting(
    cx: &mut Cx,
    spec: &SightingSpec,
    names: &NameTable,
    compiled: &Compiled<'_>,
    root: &crate::diag::Location,
) -> SightingRules {
    let level_names: Vec<&str> = spec.levels.names().collect();
    if level_names.is_empty() {
        cx.error(
            root,
            "`sighting:` needs `levels:`, best first (for example `seen: {discloses: [position, identity]}`)",
        );
    }
    if level_names.len() > 200 {
        cx.error(root, "`sighting:` may declare at most 200 levels");
    }
    let levels = spec
        .levels
        .iter()
        .map(|l| LevelDef {
            name: l.name.value.clone(),
            discloses: disclosure(&l.value.discloses),
            adjacent: disclosure(&l.value.adjacent),
            flips_up: l.value.flips_up,
        })
        .collect();
    let charts: Vec<SightChartDef> = spec
        .charts
        .iter()
        .map(|c| chart(cx, &c.name, &c.value, &level_names, names, compiled))
        .collect();
    let chart_names: Vec<&str> = spec.charts.names().collect();
    let observers = observers(cx, spec, &chart_names, names);
    let contact = (spec.contact.as_ref()).map(|c| contact_rule(cx, c, &level_names, names));
    for p in &spec.spotting_phases {
        if !compiled.phases.contains(&p.value) {
            cx.lookup("phase", p, compiled.phases.iter().map(String::as_str));
        }
    }
    let decoys = spec
        .decoys
        .as_ref()
        .and_then(|d| decoy_rule(cx, d, names, compiled.dummy_types));
    SightingRules {
        levels,
        public: disclosure(&spec.public),
        concealed_public: disclosure(&spec.concealed_public),
        face_up: spec
            .face_up
            .as_ref()
            .map_or(Disclosure::KIND.with(Disclosure::REAL), |f| disclosure(f)),
        in_view: spec
            .in_view
            .iter()
            .filter_map(|t| names.id(cx, kind::PieceType, t))
            .collect(),
        concealing: spec
            .concealed_by
            .iter()
            .filter_map(|t| names.id(cx, kind::Terrain, t))
            .collect(),
        concealed_flag: spec
            .concealed_flag
            .as_ref()
            .and_then(|f| names.id(cx, kind::Flag, f)),
        charts,
        observers,
        strength: spec
            .strength
            .as_ref()
            .and_then(|c| names.id(cx, kind::Counter, c)),
        contact,
        locked_flag: spec
            .locked_flag
            .as_ref()
            .and_then(|f| names.id(cx, kind::Flag, f)),
        spotting_phases: spec
            .spotting_phases
            .iter()
            .map(|p| p.value.clone())
            .collect(),
        blind_setup: spec.blind_setup,
        private_dummy_flips: spec.private_dummy_flips,
        mode_with_identity: spec.mode_with_identity,
        known_dummies_give_way: spec.known_dummies_give_way,
        decoys,
    }
}

/// The observers: which piece types observe with which chart, and the flags that bar them.
fn observers(
    cx: &mut Cx,
    spec: &SightingSpec,
    chart_names: &[&str],
    names: &NameTable,
) -> Vec<ObserverRule> {
    spec.observers
        .iter()
        .filter_map(|o| {
            let chart = cx.lookup("sighting chart", &o.chart, chart_names.iter().copied())?;
            let types = o
                .types
                .iter()
                .filter_map(|t| names.id(cx, kind::PieceType, t))
                .collect();
            let barred_by = o
                .barred_by
                .iter()
                .filter_map(|f| names.id(cx, kind::Flag, f))
                .collect();
            let spread_chart = o
                .spread_chart
                .as_ref()
                .and_then(|c| cx.lookup("sighting chart", c, chart_names.iter().copied()));
            Some(ObserverRule {
                types,
                chart,
                barred_by,
                spread_chart,
            })
        })
        .collect()
}

/// The contact rule: how near an enemy comes before a side's piece meets it, and what it
/// then sees.
fn contact_rule(
    cx: &mut Cx,
    c: &ContactSpec,
    level_names: &[&str],
    names: &NameTable,
) -> ContactRule {
    ContactRule {
        within: c.within.max(1),
        level: NameTable::find(cx, kind::SightLevel, &c.level, level_names.iter().copied())
            .unwrap_or(0),
        stops: c.stops.unwrap_or(true),
        each_step: c.each_step,
        types: c
            .types
            .iter()
            .filter_map(|t| names.id(cx, kind::PieceType, t))
            .collect(),
    }
}

/// The decoys rule; `None` when a name it needs is unknown (reported to `cx`).
fn decoy_rule(
    cx: &mut Cx,
    d: &DecoySpec,
    names: &NameTable,
    dummy_types: &[bool],
) -> Option<DecoyRule> {
    let option = match &d.option {
        Some(o) => Some(names.index(cx, kind::Optional, o)?),
        None => None,
    };
    let kind = names.id(cx, kind::PieceType, &d.kind)?;
    if !dummy_types.get(kind.index()).copied().unwrap_or(false) {
        cx.error(
            &d.kind.location,
            format!(
                "decoys must be of a dummy type; mark piece type `{}` with `dummy: true`",
                d.kind.value
            ),
        );
    }
    if d.per_piece > 8 {
        cx.error(&d.kind.location, "at most 8 decoys per piece");
    }
    Some(DecoyRule {
        option,
        types: d
            .types
            .iter()
            .filter_map(|t| names.id(cx, kind::PieceType, t))
            .collect(),
        per_piece: d.per_piece.min(8),
        kind,
    })
}

/// A band's `not_when` entry: a counter at a level or a flag, exactly one.
fn piece_mark(cx: &mut Cx, names: &NameTable, m: &Located<MarkSpec>) -> Option<PieceMark> {
    match (&m.value.counter, &m.value.flag) {
        (Some(c), None) => {
            let id = names.id(cx, kind::Counter, c)?;
            Some(PieceMark::CounterAtLeast(id, m.value.at_least.unwrap_or(1)))
        }
        (None, Some(f)) if m.value.at_least.is_none() => {
            names.id(cx, kind::Flag, f).map(PieceMark::Flag)
        }
        _ => {
            cx.error(
                &m.location,
                "a sighting band's `not_when` entry names a counter (`{counter: works, \
                 at_least: 4}`) or a flag (`{flag: dug_in}`), one of them",
            );
            None
        }
    }
}
