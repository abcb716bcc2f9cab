//! A printable quick-reference sheet of a ruleset, as one self-contained HTML page: the
//! sequence of play, movement allowances by mode, terrain and feature costs, every chart
//! with its exact odds for its default inputs, actions, settings and the optional rules.
//!
//! When the ruleset is a house-rule overlay, pass the ruleset it extends as `base`: the
//! sheet then opens with the list of house rules (the semantic [`crate::diff`]) and marks
//! every changed cell, row and section with a highlight and a "house rule" badge.
//!
//! Every name and text from the ruleset is HTML-escaped: rulesets are shared between clubs
//! and are untrusted input (`crate::html::escape`, shared with the sheet's other sections).

use core::fmt::Write as _;

use crate::diff::{self, Change, ChangeKind};
use crate::html::escape;
use crate::load::Ruleset;
use crate::model::{Clears, FeatureKind, GeometryKind, PhaseSpec};

const CSS: &str = r#"
body { font: 11pt/1.35 "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #222; margin: 1.5em; }
h1 { font-size: 18pt; margin: 0 0 .2em; }
h2 { font-size: 13pt; border-bottom: 2px solid #555; margin: 1.2em 0 .4em; }
h3 { font-size: 11pt; margin: .8em 0 .3em; }
.meta { color: #555; font-size: 9pt; }
table { border-collapse: collapse; margin: .3em 0 .8em; }
th, td { border: 1px solid #999; padding: .15em .5em; text-align: left; vertical-align: top; }
th { background: #eee; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.changed { background: #fff2a8; }
.badge { display: inline-block; font-size: 7.5pt; font-weight: bold; color: #7a4b00; background: #ffd54f;
         border-radius: 3px; padding: 0 .35em; margin-left: .4em; vertical-align: middle; }
.chart { break-inside: avoid; page-break-inside: avoid; }
code { font: 9.5pt "DejaVu Sans Mono", monospace; }
ul.house li { margin: .1em 0; }
@media print {
  body { margin: 0; font-size: 9.5pt; }
  h2 { break-after: avoid; page-break-after: avoid; }
  table, .chart { break-inside: avoid; page-break-inside: avoid; }
  .changed { background: #fff2a8 !important; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .badge { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
@page { size: A4; margin: 12mm; }
"#;

/// Escapes `text` and sets names quoted in backticks as `<code>`.
fn code(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in escape(text).split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{part}</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// Which parts of the sheet a house rule changed.
struct Marks {
    changes: Vec<Change>,
}

impl Marks {
    /// True when something at `prefix` (or inside it) changed.
    fn at(&self, prefix: &str) -> bool {
        self.changes.iter().any(|c| {
            c.path == prefix
                || c.path
                    .strip_prefix(prefix)
                    .is_some_and(|rest| rest.starts_with(", "))
        })
    }

    /// `class="changed"` when `prefix` changed.
    fn class(&self, prefix: &str) -> &'static str {
        if self.at(prefix) {
            " class=\"changed\""
        } else {
            ""
        }
    }

    /// The badge when `prefix` changed.
    fn badge(&self, prefix: &str) -> &'static str {
        if self.at(prefix) {
            "<span class=\"badge\">house rule</span>"
        } else {
            ""
        }
    }
}

/// The inputs of `chart` read from an optional rule, by index, each at that rule's default
/// in `r` (1 on, 0 off): what a game of `r` reads unless the option is switched. A bare
/// input default would show every option off.
#[must_use]
pub fn option_inputs(r: &Ruleset, chart: &grognard_kernel::chart::ChartDef) -> Vec<(usize, i32)> {
    chart
        .inputs
        .iter()
        .enumerate()
        .filter_map(|(i, input)| match input.source {
            Some(grognard_kernel::chart::InputSource::Option(o)) => r
                .rules
                .options
                .get(o)
                .map(|def| (i, i32::from(def.default))),
            _ => None,
        })
        .collect()
}

/// The sheet for `r`; changes from `base` (the ruleset it extends) are marked.
#[must_use]
pub fn render(r: &Ruleset, base: Option<&Ruleset>) -> String {
    let marks = Marks {
        changes: base.map(|b| diff::diff(b, r)).unwrap_or_default(),
    };
    let spec = &r.spec;
    let e = escape;
    let mut h = String::new();
    let title = spec
        .title
        .clone()
        .unwrap_or_else(|| spec.ruleset.value.clone());
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} — quick reference</title>\n<style>{CSS}</style>\n</head>\n<body>\n",
        e(&title)
    );
    let _ = writeln!(h, "<h1>{}</h1>", e(&title));
    let layers: Vec<String> = r
        .layers
        .iter()
        .map(|p| {
            // File names only: a sheet is handed out, the reader's folders are not its business.
            e(&p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ))
        })
        .collect();
    let _ = writeln!(
        h,
        "<p class=\"meta\">ruleset <b>{}</b> · identity {} · geometry {} · files {}</p>",
        e(&spec.ruleset.value),
        e(r.rules
            .identity
            .hash
            .get(..12)
            .unwrap_or(&r.rules.identity.hash)),
        e(spec.geometry.kind.as_ref().map_or("", |k| k.value.word())),
        layers.join(" → ")
    );
    for n in &spec.notes {
        let _ = writeln!(h, "<p class=\"meta\">{}</p>", e(n));
    }

    if let Some(b) = base {
        let _ = writeln!(
            h,
            "<h2>House rules<span class=\"badge\">house rule</span></h2>\n<p>Changes from <b>{}</b>:</p>\n<ul class=\"house\">",
            e(&b.spec.ruleset.value)
        );
        if marks.changes.is_empty() {
            h.push_str("<li>none</li>\n");
        }
        for c in &marks.changes {
            let _ = writeln!(h, "<li>{}</li>", code(&c.to_string()));
        }
        h.push_str("</ul>\n");
    }

    sequence(&mut h, r, &marks);
    movement(&mut h, r, &marks);
    crate::sheet_pieces::piece_types(&mut h, r);
    terrain(&mut h, r, &marks);
    markers(&mut h, r, &marks);
    charts(&mut h, r, &marks);
    actions(&mut h, r, &marks);
    crate::sheet_rules::open_table(&mut h, r);
    crate::sheet_pieces::victory(&mut h, r);
    options(&mut h, r, &marks);
    h.push_str("</body>\n</html>\n");
    h
}

fn sequence(h: &mut String, r: &Ruleset, marks: &Marks) {
    let s = &r.spec.sequence;
    let _ = writeln!(h, "<h2>Sequence of play{}</h2>", marks.badge("sequence"));
    let _ = writeln!(
        h,
        "<p>{} turns{}. Each turn: turn-start phases, then each side's turn as the phasing side, then turn-end phases.</p>",
        r.rules.sequence.turns,
        s.initiative.as_ref().map_or_else(String::new, |i| format!(
            "; order of play by initiative ({} each side, highest first)",
            escape(&i.value)
        ))
    );
    h.push_str("<table>\n<tr><th>part</th><th>phase</th><th>who acts</th><th>allows</th></tr>\n");
    for (part, label, phases) in [
        ("turn-start phase", "turn start", &s.turn_start),
        ("side-turn phase", "each side", &s.side_turn),
        ("turn-end phase", "turn end", &s.turn_end),
    ] {
        for p in phases.iter() {
            phase_row(h, marks, part, label, p);
        }
    }
    h.push_str("</table>\n");
    for v in &s.variants {
        let v = &v.value;
        let _ = writeln!(
            h,
            "<p>With the optional rule <code>{}</code>, this sequence instead{}:</p>",
            escape(&v.option.value),
            if v.interleave {
                " (side-turn phases phase by phase, the sides alternating)"
            } else {
                ""
            }
        );
        h.push_str(
            "<table>\n<tr><th>part</th><th>phase</th><th>who acts</th><th>allows</th></tr>\n",
        );
        for (part, label, phases) in [
            ("turn-start phase", "turn start", &v.turn_start),
            ("side-turn phase", "each side", &v.side_turn),
            ("turn-end phase", "turn end", &v.turn_end),
        ] {
            for p in phases.iter() {
                phase_row(h, marks, part, label, p);
            }
        }
        h.push_str("</table>\n");
    }
}

fn phase_row(h: &mut String, marks: &Marks, part: &str, label: &str, p: &PhaseSpec) {
    let path = format!("sequence, {part} `{}`", p.phase.value);
    let allows: Vec<String> = p.allows.iter().map(|a| escape(&a.value)).collect();
    let _ = writeln!(
        h,
        "<tr{}><td>{label}</td><td>{}{}</td><td>{}</td><td>{}</td></tr>",
        marks.class(&path),
        escape(&p.phase.value),
        marks.badge(&path),
        p.actor.as_ref().map_or("phasing", |a| a.value.word()),
        if allows.is_empty() {
            "—".to_owned()
        } else {
            allows.join(", ")
        }
    );
}

fn movement(h: &mut String, r: &Ruleset, marks: &Marks) {
    let spec = &r.spec;
    let open = crate::sheet_rules::is_open(r);
    let _ = writeln!(
        h,
        "<h2>Movement allowances by mode{}</h2>",
        if open { " (inches)" } else { "" }
    );
    let kind = spec.geometry.kind.as_ref().map(|k| k.value);
    if kind == Some(GeometryKind::Square) {
        let _ = writeln!(
            h,
            "<p>Orthogonal step {}, diagonal step {}.</p>",
            spec.geometry
                .orthogonal
                .map_or_else(|| "1".to_owned(), |c| c.to_string()),
            spec.geometry
                .diagonal
                .map_or_else(|| "1½".to_owned(), |c| c.to_string())
        );
    } else if kind == Some(GeometryKind::Hex) {
        let _ = writeln!(
            h,
            "<p>Each hex step {}.</p>",
            spec.geometry
                .step
                .map_or_else(|| "1".to_owned(), |c| c.to_string())
        );
    } else {
        h.push_str(
            "<p>Each move goes straight to where it ends and costs its length in inches (a \
             turning unit pays the path its outer corner travels, unless its type pivots \
             freely); the allowance is the most one move may cost.</p>\n",
        );
    }
    h.push_str("<table>\n<tr><th>piece type</th><th>movement</th>");
    for m in spec.modes.iter() {
        let path = format!("mode `{}`", m.name.value);
        let _ = write!(
            h,
            "<th{}>{}{}</th>",
            marks.class(&path),
            escape(&m.name.value),
            marks.badge(&path)
        );
    }
    if !open {
        h.push_str("<th>zoc</th>");
    }
    h.push_str("</tr>\n");
    for t in spec.piece_types.iter() {
        let tpath = format!("piece type `{}`", t.name.value);
        let _ = write!(
            h,
            "<tr><td{}>{}{}</td><td>{}</td>",
            marks.class(&tpath),
            escape(&t.name.value),
            marks.badge(&tpath),
            escape(&t.value.movement.value)
        );
        for m in spec.modes.iter() {
            let cpath = format!("{tpath}, allowance `{}`", m.name.value);
            let spath = format!("{tpath}, max steps `{}`", m.name.value);
            let cell = t.value.allowance.get(&m.name.value).map_or_else(
                || "—".to_owned(),
                |a| {
                    t.value.max_steps.get(&m.name.value).map_or_else(
                        || a.to_string(),
                        |s| format!("{a} (≤{s} step{})", if *s == 1 { "" } else { "s" }),
                    )
                },
            );
            let class = if marks.at(&cpath) || marks.at(&spath) {
                " class=\"num changed\""
            } else {
                " class=\"num\""
            };
            let _ = write!(h, "<td{class}>{}</td>", escape(&cell));
        }
        if open {
            h.push_str("</tr>\n");
        } else {
            let _ = writeln!(
                h,
                "<td>{}</td></tr>",
                if t.value.zoc { "yes" } else { "no" }
            );
        }
    }
    h.push_str("</table>\n");
    let described: Vec<_> = spec
        .modes
        .iter()
        .filter(|m| m.value.description.is_some() || m.value.uses_roads || m.value.roads_only)
        .collect();
    if !described.is_empty() {
        h.push_str("<table>\n<tr><th>mode</th><th>meaning</th></tr>\n");
        for m in described {
            let mut what = m.value.description.clone().unwrap_or_default();
            for (on, text) in [
                (m.value.uses_roads, "uses roads"),
                (m.value.roads_only, "roads only"),
                (m.value.stacks == Some(false), "does not stack"),
            ] {
                if on {
                    if !what.is_empty() {
                        what.push_str("; ");
                    }
                    what.push_str(text);
                }
            }
            let path = format!("mode `{}`", m.name.value);
            let _ = writeln!(
                h,
                "<tr{}><td>{}</td><td>{}</td></tr>",
                marks.class(&path),
                escape(&m.name.value),
                escape(&what)
            );
        }
        h.push_str("</table>\n");
    }
    if !spec.stacking.is_empty() {
        h.push_str("<table>\n<tr><th>stacking limit</th><th>capacity</th><th>counts</th></tr>\n");
        for s in spec.stacking.iter() {
            let path = format!("stacking limit `{}`", s.name.value);
            let _ = writeln!(
                h,
                "<tr{}><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                marks.class(&path),
                escape(&s.name.value),
                s.value.capacity,
                escape(&s.value.counter.as_ref().map_or_else(
                    || "type weights".to_owned(),
                    |c| format!("counter {}", c.value)
                ))
            );
        }
        h.push_str("</table>\n");
    }
}

fn terrain(h: &mut String, r: &Ruleset, marks: &Marks) {
    let spec = &r.spec;
    let _ = writeln!(h, "<h2>Terrain and movement costs</h2>");
    h.push_str(if crate::sheet_rules::is_open(r) {
        "<p>Extra inches a move pays, once for each area of the terrain its bases pass over \
         (impassable: no move through it).</p>\n<table>\n<tr><th>terrain</th>"
    } else {
        "<p>Extra cost to enter, added to the step cost.</p>\n<table>\n<tr><th>terrain</th>"
    });
    for c in spec.movement.iter() {
        let _ = write!(h, "<th>{}</th>", escape(&c.name.value));
    }
    h.push_str("<th>blocks sight</th>");
    for a in &spec.terrain_attributes {
        let _ = write!(h, "<th>{}</th>", escape(&a.value));
    }
    h.push_str("</tr>\n");
    for (i, t) in spec.terrain.iter().enumerate() {
        let tpath = format!("terrain `{}`", t.name.value);
        let _ = write!(
            h,
            "<tr><td{}>{}{}{}</td>",
            marks.class(&tpath),
            escape(&t.name.value),
            if i == 0 {
                " <small>(default)</small>"
            } else {
                ""
            },
            marks.badge(&tpath)
        );
        for c in spec.movement.iter() {
            let cpath = format!(
                "movement class `{}`, enter `{}`",
                c.name.value, t.name.value
            );
            let opath = format!("movement class `{}`, others", c.name.value);
            let cost = c
                .value
                .enter
                .get(&t.name.value)
                .or(c.value.others.as_ref())
                .map_or_else(|| "0".to_owned(), |x| pretty_cost(&x.value));
            let changed = marks.at(&cpath)
                || (c.value.enter.get(&t.name.value).is_none() && marks.at(&opath));
            let _ = write!(
                h,
                "<td class=\"num{}\">{}</td>",
                if changed { " changed" } else { "" },
                escape(&cost)
            );
        }
        let _ = write!(
            h,
            "<td>{}</td>",
            if t.value.blocks_sight { "yes" } else { "no" }
        );
        for a in &spec.terrain_attributes {
            let v = t.value.attributes.get(&a.value).copied().unwrap_or(0);
            let _ = write!(h, "<td class=\"num\">{v}</td>");
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
    if !spec.features.is_empty() {
        h.push_str("<table>\n<tr><th>feature</th><th>kind</th><th>extra cost</th></tr>\n");
        for f in spec.features.iter() {
            let path = format!("feature `{}`", f.name.value);
            let kind = f.value.kind.as_ref().map(|k| k.value);
            let cost = match (kind, &f.value.cost) {
                (Some(FeatureKind::Road), _) => "uses_roads modes ignore terrain".to_owned(),
                (Some(FeatureKind::Barrier), None) => "impassable".to_owned(),
                (_, None) => "0".to_owned(),
                (_, Some(c)) => pretty_cost(&c.value),
            };
            let _ = writeln!(
                h,
                "<tr{}><td>{}{}</td><td>{}</td><td>{}</td></tr>",
                marks.class(&path),
                escape(&f.name.value),
                marks.badge(&path),
                kind.map_or("", FeatureKind::word),
                escape(&cost)
            );
        }
        h.push_str("</table>\n");
    }
}

/// `+½`, `+1`, `impassable` for a cost field's text.
fn pretty_cost(text: &str) -> String {
    match crate::number::parse_cost(text) {
        Ok(c) if c.hundredths() > 0 => format!("+{c}"),
        Ok(c) => c.to_string(),
        Err(_) => text.to_owned(),
    }
}

/// Counters and flags every piece carries.
fn markers(h: &mut String, r: &Ruleset, marks: &Marks) {
    let spec = &r.spec;
    if spec.counters.is_empty() && spec.flags.is_empty() {
        return;
    }
    let _ = writeln!(h, "<h2>Counters and flags</h2>");
    h.push_str(
        "<table>\n<tr><th>marker</th><th>range or clearing</th><th>at a threshold</th></tr>\n",
    );
    for c in spec.counters.iter() {
        let path = format!("counter `{}`", c.name.value);
        let v = &c.value;
        let range = format!(
            "{}–{} (starts at {})",
            v.min,
            v.max.map_or_else(|| "∞".to_owned(), |m| m.to_string()),
            v.initial
        );
        let triggers: Vec<String> = v
            .triggers
            .iter()
            .map(|t| {
                let effects: Vec<String> =
                    t.effects.iter().map(|e| effect_text(e, "actor")).collect();
                format!("at {}: {}", t.at, effects.join(", "))
            })
            .collect();
        let _ = writeln!(
            h,
            "<tr{}><td>{}{}</td><td>{}</td><td>{}</td></tr>",
            marks.class(&path),
            escape(&c.name.value),
            marks.badge(&path),
            escape(&range),
            escape(&triggers.join("; "))
        );
    }
    for f in spec.flags.iter() {
        let path = format!("flag `{}`", f.name.value);
        let held = crate::sheet_pieces::held_text(r, &f.name.value);
        let clears = match f.value.clears.as_ref().map(|c| c.value) {
            _ if held.is_some() => held.as_deref().unwrap_or_default(),
            Some(Clears::PhaseEnd) => "clears at the end of each phase",
            Some(Clears::TurnEnd) => "clears at the end of each turn",
            Some(Clears::Never) | None => "stays until cleared",
        };
        let _ = writeln!(
            h,
            "<tr{}><td>{} <small>(flag)</small>{}</td><td>{clears}</td><td></td></tr>",
            marks.class(&path),
            escape(&f.name.value),
            marks.badge(&path)
        );
    }
    h.push_str("</table>\n");
}

/// An effect in words: `add 1 hits (target)`.
fn effect_text(e: &crate::model::EffectSpec, default_to: &str) -> String {
    let what = if let Some(c) = &e.add {
        format!(
            "add {} {}",
            e.amount
                .as_ref()
                .map_or_else(|| "1".to_owned(), |a| a.value.to_string()),
            c.value
        )
    } else if let Some(f) = &e.set {
        format!("set {}", f.value)
    } else if let Some(f) = &e.clear {
        format!("clear {}", f.value)
    } else if let Some(m) = &e.mode {
        format!("mode {}", m.value)
    } else if e.remove == Some(true) {
        "remove".to_owned()
    } else if let Some(d) = &e.fall_back {
        let blocked = match e.blocked.as_ref().map(|b| b.value) {
            Some(crate::model::Blocked::Stay) => ", stays if blocked",
            Some(crate::model::Blocked::Remove) => ", removed if blocked",
            _ => "",
        };
        format!("fall back {}{blocked}", d.value)
    } else if e.follow_up == Some(true) {
        // The winner follows up unless the effect names the target.
        return format!(
            "follow up ({})",
            e.to.as_ref().map_or("actor", |t| t.value.word())
        );
    } else if let Some(a) = &e.pursue {
        // The winner pursues unless the effect names the target.
        return format!(
            "{} the beaten unit ({})",
            a.value,
            e.to.as_ref().map_or("actor", |t| t.value.word())
        );
    } else {
        "nothing".to_owned()
    };
    format!(
        "{what} ({})",
        e.to.as_ref().map_or(default_to, |t| t.value.word())
    )
}

fn charts(h: &mut String, r: &Ruleset, marks: &Marks) {
    if r.spec.charts.is_empty() {
        return;
    }
    let _ = writeln!(h, "<h2>Charts</h2>");
    for c in r.spec.charts.iter() {
        let path = format!("chart `{}`", c.name.value);
        let _ = writeln!(
            h,
            "<div class=\"chart\">\n<h3{}>{} — {}{}</h3>",
            marks.class(&path),
            escape(&c.name.value),
            escape(&c.value.dice.value),
            marks.badge(&path)
        );
        if let Some(d) = &c.value.description {
            let _ = writeln!(h, "<p>{}</p>", escape(d));
        }
        crate::sheet_rules::inputs(h, r, &c.name.value);
        if !c.value.modifiers.is_empty() {
            h.push_str(
                "<table>\n<tr><th>modifier</th><th>per</th><th>input</th><th>group</th></tr>\n",
            );
            for m in &c.value.modifiers {
                let mpath = format!("{path}, modifier `{}`", m.name);
                // A multiplying modifier shows its factor where an adding one shows `per`.
                let per = m
                    .times
                    .as_ref()
                    .map_or_else(|| format!("{:+}", m.per), |t| format!("×{}", t.value.0));
                let _ = writeln!(
                    h,
                    "<tr{}><td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>",
                    marks.class(&mpath),
                    escape(&m.name),
                    escape(&per),
                    escape(&m.input.value),
                    escape(m.group.as_ref().map_or("", |g| g.value.as_str()))
                );
            }
            h.push_str("</table>\n");
            if let Some(r) = &c.value.round {
                let _ = writeln!(h, "<p>Multiplied results round {}.</p>", r.word());
            }
        }
        if !c.value.rows.is_empty() {
            h.push_str("<table>\n<tr><th>score</th><th>when</th><th>result</th></tr>\n");
            for (i, row) in c.value.rows.iter().enumerate() {
                let rpath = format!("{path}, row {}", i + 1);
                let score = row.score.as_ref().map_or_else(
                    || match (row.min, row.max) {
                        (Some(a), Some(b)) => format!("{a}-{b}"),
                        (Some(a), None) => format!("{a}+"),
                        (None, Some(b)) => format!("{b}-"),
                        (None, None) => "any".to_owned(),
                    },
                    |s| s.value.clone(),
                );
                let when: Vec<String> = row
                    .natural
                    .iter()
                    .map(|n| format!("natural roll {}", n.value))
                    .chain(
                        row.when
                            .iter()
                            .map(|w| format!("{} = {}", w.name.value, w.value)),
                    )
                    .collect();
                let _ = writeln!(
                    h,
                    "<tr{}><td>{}</td><td>{}</td><td>{}</td></tr>",
                    marks.class(&rpath),
                    escape(&score),
                    escape(&when.join(", ")),
                    escape(&row.result.value)
                );
            }
            let _ = writeln!(
                h,
                "<tr><td>otherwise</td><td></td><td>{}</td></tr>\n</table>",
                escape(
                    c.value
                        .otherwise
                        .as_ref()
                        .map_or("no effect", |o| o.value.as_str())
                )
            );
        }
        if let Some(bands) = &c.value.bands {
            let _ = writeln!(
                h,
                "<table>\n<tr><th>band (base: {})</th><th>test</th><th>pass</th><th>fail</th></tr>",
                escape(&bands.base.value)
            );
            for b in &bands.rows {
                let test = if let Some(t) = &b.test {
                    t.value.word().to_owned()
                } else if !b.all.is_empty() {
                    format!("all of {}", join(&b.all))
                } else if !b.any.is_empty() {
                    format!("any of {}", join(&b.any))
                } else if let Some(n) = b.at_least {
                    format!("{n} or more")
                } else {
                    String::new()
                };
                let _ = writeln!(
                    h,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    escape(&b.band),
                    escape(&test),
                    escape(&b.pass.value),
                    escape(&b.fail.value)
                );
            }
            h.push_str("</table>\n");
        }
        odds(h, r, &c.name.value);
        crate::sheet_pieces::amounts(h, r, &c.name.value);
        h.push_str("</div>\n");
    }
}

fn join(names: &[crate::de::Located<String>]) -> String {
    names
        .iter()
        .map(|n| n.value.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The exact odds of each outcome with every input at its default.
fn odds(h: &mut String, r: &Ruleset, chart: &str) {
    let Some(def) = r.rules.charts.iter().find(|c| c.name == chart) else {
        return;
    };
    // Optional rules at their defaults, gates applied, as a game would read them.
    let inputs: Vec<i32> = def.input_values(&option_inputs(r, def));
    let odds = def.odds(&r.rules.dice, &inputs);
    let defaults: Vec<String> = def
        .inputs
        .iter()
        .zip(&inputs)
        .map(|(i, v)| format!("{}={v}", i.name))
        .collect();
    let _ = writeln!(
        h,
        "<table>\n<tr><th colspan=\"3\">exact odds{}</th></tr>\n<tr><th>outcome</th><th>chance</th><th>%</th></tr>",
        if defaults.is_empty() {
            String::new()
        } else {
            format!(" with {}", escape(&defaults.join(", ")))
        }
    );
    for (name, p) in def.outcomes.iter().zip(&odds) {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.1}%</td></tr>",
            escape(name),
            escape(&p.to_string()),
            p.to_f64() * 100.0
        );
    }
    h.push_str("</table>\n");
    if let Some(bands) = r.spec.charts.get(chart).and_then(|c| c.bands.as_ref()) {
        band_sweep(h, r, def, &bands.base.value, &inputs);
    }
}

/// A band chart's odds for each value of its base input (the others at their defaults).
fn band_sweep(
    h: &mut String,
    r: &Ruleset,
    def: &grognard_kernel::chart::ChartDef,
    base: &str,
    defaults: &[i32],
) {
    let Some(at) = def.inputs.iter().position(|i| i.name == base) else {
        return;
    };
    let input = &def.inputs[at];
    if input.max <= input.min {
        return;
    }
    let _ = write!(h, "<table>\n<tr><th>{} (base)</th>", escape(&input.name));
    for o in &def.outcomes {
        let _ = write!(h, "<th>{}</th>", escape(o));
    }
    h.push_str("</tr>\n");
    // At most 13 rows: band inputs count bands, a handful.
    for v in input.min..=input.max.min(input.min.saturating_add(12)) {
        let mut inputs = defaults.to_vec();
        inputs[at] = v;
        let _ = write!(h, "<tr><td class=\"num\">{v}</td>");
        for p in def.odds(&r.rules.dice, &inputs) {
            let _ = write!(
                h,
                "<td class=\"num\">{} <small>({:.1}%)</small></td>",
                escape(&p.to_string()),
                p.to_f64() * 100.0
            );
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
}

fn actions(h: &mut String, r: &Ruleset, marks: &Marks) {
    if r.spec.actions.is_empty() {
        return;
    }
    let _ = writeln!(h, "<h2>Actions</h2>");
    h.push_str("<table>\n<tr><th>action</th><th>chart</th><th>target</th><th>range</th><th>arcs</th><th>sight</th><th>who may</th><th>needs</th><th>barred by</th><th>afterwards</th><th>results</th></tr>\n");
    for a in r.spec.actions.iter() {
        let path = format!("action `{}`", a.name.value);
        let v = &a.value;
        let results: Vec<String> =
            v.on.iter()
                .map(|o| {
                    let effects: Vec<String> =
                        o.value.iter().map(|e| effect_text(e, "target")).collect();
                    format!("{}: {}", o.name.value, effects.join(", "))
                })
                .collect();
        let _ = writeln!(
            h,
            "<tr{}><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            marks.class(&path),
            escape(&a.name.value),
            marks.badge(&path),
            escape(v.chart.as_ref().map_or("—", |c| c.value.as_str())),
            escape(&target_text(v)),
            v.range.as_ref().map_or_else(
                || "any".to_owned(),
                |r| format!("{}–{}", r.value[0], r.value[1])
            ),
            v.arcs
                .iter()
                .map(|a| a.value.word())
                .collect::<Vec<_>>()
                .join(", "),
            if v.sight { "yes" } else { "no" },
            if v.types.is_empty() {
                "any piece".to_owned()
            } else {
                escape(&join(&v.types))
            },
            escape(&join(&v.needs)),
            escape(&join(&v.barred_by)),
            escape(&crate::sheet_rules::afterwards(v)),
            escape(&results.join("; "))
        );
    }
    h.push_str("</table>\n");
}

/// What an action targets, with the types it may (or may not) target and the flags the
/// target must (or may not) have.
fn target_text(v: &crate::model::ActionSpec) -> String {
    let word = v.target.as_ref().map_or("none", |t| t.value.word());
    let mut text = if !v.target_types.is_empty() {
        format!("{word} (only {})", join(&v.target_types))
    } else if !v.target_not_types.is_empty() {
        format!("{word} (not {})", join(&v.target_not_types))
    } else {
        word.to_owned()
    };
    if !v.target_needs.is_empty() {
        let _ = write!(text, " (with {})", join(&v.target_needs));
    }
    if !v.target_barred_by.is_empty() {
        let _ = write!(text, " (not while {})", join(&v.target_barred_by));
    }
    text
}

fn options(h: &mut String, r: &Ruleset, marks: &Marks) {
    let spec = &r.spec;
    let _ = writeln!(h, "<h2>Optional rules and settings</h2>");
    if spec.options.is_empty() {
        h.push_str("<p>No optional rules.</p>\n");
    } else {
        h.push_str(
            "<table>\n<tr><th>optional rule</th><th>default</th><th>what it changes</th></tr>\n",
        );
        for o in spec.options.iter() {
            let path = format!("option `{}`", o.name.value);
            let _ = writeln!(
                h,
                "<tr{}><td>{}{}</td><td>{}</td><td>{}</td></tr>",
                marks.class(&path),
                escape(&o.name.value),
                marks.badge(&path),
                if o.value.default { "on" } else { "off" },
                escape(o.value.description.as_deref().unwrap_or(""))
            );
        }
        h.push_str("</table>\n");
    }
    if !spec.settings.is_empty() {
        h.push_str("<table>\n<tr><th>setting</th><th>default</th></tr>\n");
        for s in spec.settings.iter() {
            let path = format!("setting `{}`", s.name.value);
            let _ = writeln!(
                h,
                "<tr{}><td>{}{}</td><td class=\"num\">{}</td></tr>",
                marks.class(&path),
                escape(&s.name.value),
                marks.badge(&path),
                s.value
            );
        }
        h.push_str("</table>\n");
    }
    if !spec.hooks.is_empty() {
        h.push_str("<table>\n<tr><th>hook</th><th>script function</th></tr>\n");
        for k in spec.hooks.iter() {
            let path = format!("hook {}", k.name.value);
            let _ = writeln!(
                h,
                "<tr{}><td>{}{}</td><td>{}</td></tr>",
                marks.class(&path),
                escape(&k.name.value),
                marks.badge(&path),
                escape(&k.value.value)
            );
        }
        h.push_str("</table>\n");
    }
    // Items a house rule removed have no row of their own: list them.
    let removed: Vec<&Change> = marks
        .changes
        .iter()
        .filter(|c| c.change == ChangeKind::Removed)
        .collect();
    if !removed.is_empty() {
        h.push_str(
            "<h3>Removed by the house rules<span class=\"badge\">house rule</span></h3>\n<ul>\n",
        );
        for c in removed {
            let _ = writeln!(h, "<li class=\"changed\">{}</li>", code(&c.path));
        }
        h.push_str("</ul>\n");
    }
}
