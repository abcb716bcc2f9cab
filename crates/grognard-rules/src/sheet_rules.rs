//! The sheet's words for what its tables alone do not explain: where each chart input
//! takes its value from, what an action does besides its results (the flag it marks, a
//! charge's contact), and the open table's own rules (how close units may come, threatened
//! zones, moves counted, units locked in contact, bases blocking sight). Text from the
//! ruleset is escaped here, as everywhere on the sheet.

use core::fmt::Write as _;

use crate::html::escape;
use crate::load::Ruleset;
use crate::model::{ActionSpec, GeometryKind, InputSpec};

/// True when the ruleset plays on an open table (inches) rather than a grid.
pub(crate) fn is_open(r: &Ruleset) -> bool {
    r.spec.geometry.kind.as_ref().map(|k| k.value) == Some(GeometryKind::Open)
}

/// Each input of chart `chart`: what it reads, its default and bounds, and its gates.
pub(crate) fn inputs(h: &mut String, r: &Ruleset, chart: &str) {
    let Some(c) = r.spec.charts.iter().find(|c| c.name.value == chart) else {
        return;
    };
    if c.value.inputs.is_empty() {
        return;
    }
    h.push_str("<table>\n<tr><th>input</th><th>reads</th><th>default</th></tr>\n");
    for i in c.value.inputs.iter() {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>",
            escape(&i.name.value),
            escape(&reads(&i.value, is_open(r))),
            i.value.default
        );
    }
    h.push_str("</table>\n");
}

/// Where an input takes its value from, in words: `1 when the target is in skirmish
/// mode`, `distance band: 0 up to 4", 1 beyond`.
fn reads(i: &InputSpec, open: bool) -> String {
    let unit = if open { "\"" } else { " cells" };
    let from = i.from.as_ref().map(|f| f.value.trim());
    let (source, arg) = from.map_or(("", ""), |f| f.split_once(' ').unwrap_or((f, "")));
    let arg = arg.trim();
    let who = |s: &str| {
        if s.starts_with("actor.") {
            "the actor"
        } else {
            "the target"
        }
    };
    let bands = || {
        let mut parts: Vec<String> = i
            .bands
            .iter()
            .enumerate()
            .map(|(n, b)| format!("{n} up to {b}{unit}"))
            .collect();
        parts.push(format!("{} beyond", i.bands.len()));
        parts.join(", ")
    };
    let mut text = match source {
        "" => "nothing in play: its default (`roll --set` sets it)".to_owned(),
        "distance" if open => "the distance to the target in inches, rounded up".to_owned(),
        "distance" => "the distance to the target in cells".to_owned(),
        "table_distance" => "the distance to the target in table inches, rounded up".to_owned(),
        "distance_band" => format!("distance band: {}", bands()),
        "table_distance_band" => format!("distance band in table inches: {}", bands()),
        "actor.mode" | "target.mode" => format!("1 when {} is in {arg} mode", who(source)),
        "actor.flag" | "target.flag" => format!("1 when {} is {arg}", who(source)),
        "actor.counter" | "target.counter" => format!("{}'s {arg}", who(source)),
        "actor.attribute" | "target.attribute" => format!("{}'s {arg}", who(source)),
        "actor.terrain" | "target.terrain" => {
            format!("the {arg} of the terrain under {}", who(source))
        }
        "actor.friends_within" | "target.friends_within" => {
            let types: Vec<&str> = i.types.iter().map(|t| t.value.as_str()).collect();
            let friends = if types.is_empty() {
                "friends".to_owned()
            } else {
                // Type names are singular ("general"): name them as types, not as a
                // plural the sheet cannot form.
                let noun = if types.len() == 1 { "type" } else { "types" };
                format!("friendly pieces of {noun} {}", types.join(" or "))
            };
            let within = i
                .within
                .as_ref()
                .map_or_else(String::new, |w| format!(" within {}{unit}", w.value));
            format!("how many {friends}{within} of {}", who(source))
        }
        "target.flank_or_rear" => {
            "1 when the actor stands in the target's flank or rear".to_owned()
        }
        "setting" => format!("the scenario's setting {arg}"),
        "option" => format!("1 while the optional rule {arg} is in force"),
        "intent" => format!("1 when the order is given for {arg}"),
        _ => from.unwrap_or_default().to_owned(),
    };
    match (i.min, i.max) {
        (Some(lo), Some(hi)) => text.push_str(&format!(", kept within {lo} to {hi}")),
        (Some(lo), None) => text.push_str(&format!(", at least {lo}")),
        (None, Some(hi)) => text.push_str(&format!(", at most {hi}")),
        (None, None) => {}
    }
    for (gate, word) in [(&i.with, "only while"), (&i.without, "only without")] {
        if !gate.is_empty() {
            let names: Vec<&str> = gate.iter().map(|g| g.value.as_str()).collect();
            text.push_str(&format!("; counts {word} {}", names.join(", ")));
        }
    }
    text
}

/// What an action does besides its results: the flag it marks on the actor and a
/// charge's contact.
pub(crate) fn afterwards(v: &ActionSpec) -> String {
    let mut parts = Vec::new();
    if let Some(m) = &v.marks {
        parts.push(format!("the actor is {}", m.value));
    }
    if v.contact.as_ref().is_some_and(|c| c.value) {
        parts.push(
            "the actor moves into contact with the target (front edge to its nearest edge)"
                .to_owned(),
        );
    }
    if parts.is_empty() {
        "—".to_owned()
    } else {
        parts.join("; ")
    }
}

/// The open table's own rules, when the ruleset has any: how close units may come to the
/// enemy, threatened zones, moves counted by a counter, units locked in contact, and
/// whether bases block sight.
pub(crate) fn open_table(h: &mut String, r: &Ruleset) {
    if !is_open(r) {
        return;
    }
    let spec = &r.spec;
    let mut rules: Vec<String> = Vec::new();
    let pieces_block = spec
        .sight
        .as_ref()
        .and_then(|s| s.pieces_block.as_ref())
        .is_some_and(|b| b.value);
    rules.push(if pieces_block {
        "Units' bases block lines of sight, as sight-blocking terrain does (either side's; a \
         unit without bases does not)."
            .to_owned()
    } else {
        "Units do not block lines of sight; only terrain does.".to_owned()
    });
    if let Some(o) = &spec.open_table {
        if let Some(k) = o.keep_apart.filter(|k| k.0.hundredths() > 0) {
            rules.push(format!(
                "No move may bring a unit closer than {k}\" to an enemy, anywhere along its \
                 path (edge to edge between bases); a unit already closer may move away."
            ));
        }
        for t in o.threats.iter() {
            let mut reach = vec![format!("{}\"", t.value.range)];
            reach.extend(
                t.value
                    .types
                    .iter()
                    .chain(t.value.modes.iter())
                    .map(|x| format!("{}\" against {}", x.value, x.name.value)),
            );
            rules.push(format!(
                "{} threatens its front arc to {}: an enemy move may enter that zone only at \
                 its end{}.",
                t.name.value,
                reach.join(", "),
                if o.threat_needs_sight {
                    ", and only where the threatening unit can see"
                } else {
                    ""
                }
            ));
        }
        if o.enter_only_faced_threats {
            rules.push(
                "A unit may move into the threatened zone only of an enemy it faces.".to_owned(),
            );
        }
        if let Some(c) = &o.move_counter {
            rules.push(format!(
                "A unit makes as many moves a phase as its {} counter holds, each a full move.",
                c.value
            ));
        }
        if let Some(f) = &o.contact_flag {
            rules.push(format!(
                "A unit whose bases touch an enemy's is {}, until they no longer touch.",
                f.value
            ));
        }
    }
    let _ = writeln!(h, "<h2>The open table</h2>\n<ul>");
    for rule in rules {
        let _ = writeln!(h, "<li>{}</li>", escape(&rule));
    }
    h.push_str("</ul>\n");
}
