//! A semantic diff of two rulesets: what a house rule changes, item by item, in words.
//!
//! The diff works on the decoded, merged models (every `extends:` layer already applied),
//! never on the text, so moving a key, re-quoting a number or writing a default explicitly
//! makes no difference. Sections are visited in the order of the file format; named items
//! (terrain, piece types, charts, options ...) in the order of the first ruleset, then
//! the second ruleset's additions in its order. Fields inside an item are compared one by
//! one (in alphabetical order), lists of rows by position and lists of named rows
//! (modifiers, phases, bands) by name.

use core::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::load::Ruleset;
use crate::model::RulesetSpec;
use crate::named::NamedMap;

/// What happened to one item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// Only in the second ruleset.
    Added,
    /// Only in the first ruleset.
    Removed,
    /// In both, different.
    Changed,
}

/// One difference between two rulesets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    /// Where, in words: ``chart `volley`, row 1, score``.
    pub path: String,
    /// Added, removed or changed.
    pub change: ChangeKind,
    /// The first ruleset's value, as text (none for additions).
    pub from: Option<String>,
    /// The second ruleset's value, as text (none for removals).
    pub to: Option<String>,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.change {
            ChangeKind::Added => {
                write!(f, "{} added", self.path)?;
                // Long values (a whole chart) are in `--json`; the line stays readable.
                match &self.to {
                    Some(to) if to.chars().count() <= 60 && to != "{}" => write!(f, " ({to})"),
                    _ => Ok(()),
                }
            }
            ChangeKind::Removed => write!(f, "{} removed", self.path),
            ChangeKind::Changed => write!(
                f,
                "{}: {} → {}",
                self.path,
                self.from.as_deref().unwrap_or("none"),
                self.to.as_deref().unwrap_or("none")
            ),
        }
    }
}

/// Every difference from `a` to `b`, in a stable order.
#[must_use]
pub fn diff(a: &Ruleset, b: &Ruleset) -> Vec<Change> {
    let mut out = diff_specs(&a.spec, &b.spec);
    // Scripts: the same module name with different text is a change even when the paths
    // are equal, and equal text under another path is none (an overlay in another folder
    // names the same file by another path).
    out.retain(|c| {
        !a.scripts.iter().any(|s| {
            c.path == format!("script `{}`", s.module)
                && b.scripts
                    .iter()
                    .any(|t| t.module == s.module && t.text == s.text)
        })
    });
    for s in &a.scripts {
        match b.scripts.iter().find(|t| t.module == s.module) {
            Some(t) if t.text != s.text => out.push(Change {
                path: format!("script `{}`", s.module),
                change: ChangeKind::Changed,
                from: Some(format!("{} ({} bytes)", s.path.display(), s.text.len())),
                to: Some(format!("{} ({} bytes)", t.path.display(), t.text.len())),
            }),
            _ => {}
        }
    }
    out
}

/// Every difference between two decoded rulesets (scripts compared by path only).
#[must_use]
pub fn diff_specs(a: &RulesetSpec, b: &RulesetSpec) -> Vec<Change> {
    let mut d = Differ::default();
    d.scalar("ruleset", &a.ruleset.value, &b.ruleset.value);
    d.value("title", &a.title, &b.title);
    d.notes(&a.notes, &b.notes);
    d.value("geometry", &a.geometry, &b.geometry);
    d.value("arcs", &a.arcs, &b.arcs);
    d.named("die", &a.dice, &b.dice, no_summary);
    d.named("mode", &a.modes, &b.modes, no_summary);
    d.named("counter", &a.counters, &b.counters, no_summary);
    d.named("flag", &a.flags, &b.flags, no_summary);
    d.names("piece attribute", &a.piece_attributes, &b.piece_attributes);
    d.names(
        "terrain attribute",
        &a.terrain_attributes,
        &b.terrain_attributes,
    );
    d.named("terrain", &a.terrain, &b.terrain, no_summary);
    d.named("feature", &a.features, &b.features, no_summary);
    d.named("movement class", &a.movement, &b.movement, no_summary);
    d.named("piece type", &a.piece_types, &b.piece_types, no_summary);
    d.named("stacking limit", &a.stacking, &b.stacking, no_summary);
    d.value("zoc", &a.zoc, &b.zoc);
    d.value("open_table", &a.open_table, &b.open_table);
    d.value("sequence", &a.sequence, &b.sequence);
    d.named("chart", &a.charts, &b.charts, no_summary);
    d.named("action", &a.actions, &b.actions, no_summary);
    d.named("setting", &a.settings, &b.settings, |v| {
        Some(format!("default {}", text(v)))
    });
    d.named("option", &a.options, &b.options, |v| {
        let on = v.get("default").and_then(Value::as_bool).unwrap_or(false);
        Some(format!("default {}", if on { "on" } else { "off" }))
    });
    d.named("script", &a.scripts, &b.scripts, |v| Some(text(v)));
    // Hooks read best as "none → module.function" when one side has none.
    let hook_names = union(a.hooks.names(), b.hooks.names());
    for name in hook_names {
        let x = a.hooks.get(name).map(|h| h.value.clone());
        let y = b.hooks.get(name).map(|h| h.value.clone());
        if x != y {
            d.out.push(Change {
                path: format!("hook {name}"),
                change: ChangeKind::Changed,
                from: x,
                to: y,
            });
        }
    }
    d.out
}

fn no_summary(_: &Value) -> Option<String> {
    None
}

/// Names of `a` in order, then those only in `b`.
fn union<'a>(a: impl Iterator<Item = &'a str>, b: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = a.collect();
    for n in b {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

fn to_value<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// A value as people read it: text bare, `null` as `none`, lists in brackets.
#[must_use]
pub fn text(v: &Value) -> String {
    match v {
        Value::Null => "none".to_owned(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(text).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .filter(|(_, v)| !is_empty(v))
                .map(|(k, v)| format!("{k}: {}", text(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// A score row as players read it: `9+ hit`, `3-5 (class 1) retreat`.
fn row_text(v: &Value) -> String {
    let score = match v.get("score").and_then(Value::as_str) {
        Some(s) => s.to_owned(),
        None => match (
            v.get("min").and_then(Value::as_i64),
            v.get("max").and_then(Value::as_i64),
        ) {
            (Some(a), Some(b)) => format!("{a}-{b}"),
            (Some(a), None) => format!("{a}+"),
            (None, Some(b)) => format!("{b}-"),
            (None, None) => "any".to_owned(),
        },
    };
    let when = match v.get("when").and_then(Value::as_object) {
        Some(w) if !w.is_empty() => {
            let parts: Vec<String> = w.iter().map(|(k, x)| format!("{k} {}", text(x))).collect();
            format!(" ({})", parts.join(", "))
        }
        _ => String::new(),
    };
    let natural = match v.get("natural") {
        Some(n) if !n.is_null() => format!(" (natural {})", text(n)),
        _ => String::new(),
    };
    let result = v.get("result").map_or_else(String::new, text);
    format!("{score}{natural}{when} {result}")
}

/// A movement or feature cost as an extra (`+½`, `+1`, `impassable`); other values as
/// [`text`].
fn cost_text(path: &str, v: &Value) -> String {
    let t = text(v);
    let is_cost = path.contains(", enter `")
        || path.ends_with(", others")
        || (path.starts_with("feature `") && path.ends_with(", cost"));
    if !is_cost {
        return t;
    }
    match crate::number::parse_cost(&t) {
        Ok(c) if c.hundredths() > 0 => format!("+{c}"),
        Ok(c) => c.to_string(),
        Err(_) => t,
    }
}

/// Null, `false`, empty lists and maps: what an absent key decodes to.
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// How the items of a field read: `rows` → `row`, `inputs` → `input`.
fn singular(field: &str) -> Option<&'static str> {
    Some(match field {
        "rows" => "row",
        "modifiers" => "modifier",
        "rerolls" => "re-roll",
        "triggers" => "trigger",
        "effects" => "effect",
        "turn_start" => "turn-start phase",
        "side_turn" => "side-turn phase",
        "turn_end" => "turn-end phase",
        "faces" => "face",
        "inputs" => "input",
        "groups" => "group",
        "enter" => "enter",
        "allowance" => "allowance",
        "max_steps" => "max steps",
        "stack" => "stack weight in",
        "attributes" => "attribute",
        "on" => "on",
        "when" => "when",
        _ => return None,
    })
}

/// The field that names the items of a list, when every item has a distinct one.
fn key_field(a: &[Value], b: &[Value]) -> Option<&'static str> {
    ["phase", "name", "band"].into_iter().find(|k| {
        let names = |xs: &[Value]| -> Option<Vec<String>> {
            let v: Option<Vec<String>> = xs
                .iter()
                .map(|x| x.get(*k).and_then(Value::as_str).map(str::to_owned))
                .collect();
            v.filter(|v| {
                let mut s = v.clone();
                s.sort();
                s.dedup();
                s.len() == v.len() && !v.is_empty()
            })
        };
        names(a).is_some() && names(b).is_some()
    })
}

#[derive(Default)]
struct Differ {
    out: Vec<Change>,
}

impl Differ {
    fn push(&mut self, path: &str, change: ChangeKind, from: Option<String>, to: Option<String>) {
        self.out.push(Change {
            path: path.to_owned(),
            change,
            from,
            to,
        });
    }

    fn scalar(&mut self, path: &str, a: &str, b: &str) {
        if a != b {
            self.push(
                path,
                ChangeKind::Changed,
                Some(a.to_owned()),
                Some(b.to_owned()),
            );
        }
    }

    /// The rulesets' notes: an overlay's own notes add to its base's (see
    /// `overlay::merge`), so notes added at the end are listed one by one, each cut to a
    /// readable length; any other change is the whole list's.
    fn notes(&mut self, a: &[String], b: &[String]) {
        if b.len() > a.len() && b.starts_with(a) {
            for note in &b[a.len()..] {
                let short: String = if note.chars().count() > 70 {
                    note.chars().take(69).chain(['…']).collect()
                } else {
                    note.clone()
                };
                self.push(&format!("note \"{short}\""), ChangeKind::Added, None, None);
            }
        } else {
            self.value("notes", &a.to_vec(), &b.to_vec());
        }
    }

    fn value<T: Serialize>(&mut self, path: &str, a: &T, b: &T) {
        self.walk(path, None, &to_value(a), &to_value(b));
    }

    /// A map of named items.
    fn named<T: Serialize>(
        &mut self,
        label: &str,
        a: &NamedMap<T>,
        b: &NamedMap<T>,
        summary: fn(&Value) -> Option<String>,
    ) {
        for name in union(a.names(), b.names()) {
            let path = format!("{label} `{name}`");
            match (a.get(name), b.get(name)) {
                (Some(x), Some(y)) => self.walk(&path, None, &to_value(x), &to_value(y)),
                (Some(_), None) => self.push(&path, ChangeKind::Removed, None, None),
                (None, Some(y)) => {
                    let y = to_value(y);
                    let s = summary(&y);
                    self.push(&path, ChangeKind::Added, None, s.or_else(|| Some(text(&y))));
                }
                (None, None) => {}
            }
        }
        // A reordering matters where order has a meaning (the first terrain, the first mode).
        let common = |x: &NamedMap<T>, other: &NamedMap<T>| -> Vec<String> {
            x.names()
                .filter(|n| other.get(n).is_some())
                .map(str::to_owned)
                .collect()
        };
        let (ca, cb) = (common(a, b), common(b, a));
        if ca != cb {
            self.push(
                &format!("{label} order"),
                ChangeKind::Changed,
                Some(ca.join(", ")),
                Some(cb.join(", ")),
            );
        }
    }

    /// A list of declared names.
    fn names(
        &mut self,
        label: &str,
        a: &[crate::de::Located<String>],
        b: &[crate::de::Located<String>],
    ) {
        for x in a {
            if !b.iter().any(|y| y.value == x.value) {
                self.push(
                    &format!("{label} `{}`", x.value),
                    ChangeKind::Removed,
                    None,
                    None,
                );
            }
        }
        for y in b {
            if !a.iter().any(|x| x.value == y.value) {
                self.push(
                    &format!("{label} `{}`", y.value),
                    ChangeKind::Added,
                    None,
                    None,
                );
            }
        }
    }

    /// Compares two values at `path`; `item` is how the children of a map read when they
    /// are named items (``input `cover` ``), or none for plain fields.
    fn walk(&mut self, path: &str, item: Option<&str>, a: &Value, b: &Value) {
        if a == b || (is_empty(a) && is_empty(b)) {
            return;
        }
        // An absent map or list compares as an empty one, so its items read one by one.
        let (empty_map, empty_list) = (
            Value::Object(serde_json::Map::new()),
            Value::Array(Vec::new()),
        );
        let (a, b) = match (a, b) {
            (x, Value::Object(_)) if is_empty(x) => (&empty_map, b),
            (Value::Object(_), y) if is_empty(y) => (a, &empty_map),
            (x, Value::Array(_)) if is_empty(x) => (&empty_list, b),
            (Value::Array(_), y) if is_empty(y) => (a, &empty_list),
            _ => (a, b),
        };
        let join = |path: &str, seg: String| {
            if path.is_empty() {
                seg
            } else {
                format!("{path}, {seg}")
            }
        };
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                let keys = union(x.keys().map(String::as_str), y.keys().map(String::as_str));
                for k in keys {
                    let seg = match item {
                        Some(label) => format!("{label} `{k}`"),
                        None => k.to_owned(),
                    };
                    let child_item = if item.is_none() { singular(k) } else { None };
                    // Named children say what they are (`input `cover``), so the field
                    // holding them (`inputs`) is left out of the path.
                    let p = if child_item.is_some() {
                        path.to_owned()
                    } else {
                        join(path, seg)
                    };
                    match (x.get(k), y.get(k)) {
                        (Some(u), Some(v)) => self.walk(&p, child_item, u, v),
                        (Some(u), None) if item.is_some() && !is_empty(u) => {
                            self.push(&p, ChangeKind::Removed, None, None);
                        }
                        (None, Some(v)) if item.is_some() && !is_empty(v) => {
                            self.push(&p, ChangeKind::Added, None, Some(cost_text(&p, v)));
                        }
                        (Some(u), None) => self.walk(&p, child_item, u, &Value::Null),
                        (None, Some(v)) => self.walk(&p, child_item, &Value::Null, v),
                        (None, None) => {}
                    }
                }
            }
            (Value::Array(x), Value::Array(y))
                if x.iter().chain(y).all(Value::is_object) && item.is_some() =>
            {
                let label = item.unwrap_or("item");
                if let Some(key) = key_field(x, y) {
                    let name =
                        |v: &Value| v.get(key).and_then(Value::as_str).unwrap_or("").to_owned();
                    let (nx, ny): (Vec<String>, Vec<String>) =
                        (x.iter().map(name).collect(), y.iter().map(name).collect());
                    for n in union(nx.iter().map(String::as_str), ny.iter().map(String::as_str)) {
                        let p = join(path, format!("{label} `{n}`"));
                        let u = x.iter().find(|v| name(v) == n);
                        let v = y.iter().find(|v| name(v) == n);
                        match (u, v) {
                            (Some(u), Some(v)) => self.walk(&p, None, u, v),
                            (Some(_), None) => self.push(&p, ChangeKind::Removed, None, None),
                            (None, Some(v)) => {
                                self.push(&p, ChangeKind::Added, None, Some(text(v)));
                            }
                            (None, None) => {}
                        }
                    }
                    let common_a: Vec<&String> = nx.iter().filter(|n| ny.contains(n)).collect();
                    let common_b: Vec<&String> = ny.iter().filter(|n| nx.contains(n)).collect();
                    if common_a != common_b {
                        let j = |v: Vec<&String>| {
                            v.into_iter()
                                .map(String::as_str)
                                .collect::<Vec<_>>()
                                .join(", ")
                        };
                        self.push(
                            &join(path, format!("{label} order")),
                            ChangeKind::Changed,
                            Some(j(common_a)),
                            Some(j(common_b)),
                        );
                    }
                } else {
                    for i in 0..x.len().max(y.len()) {
                        let p = join(path, format!("{label} {}", i + 1));
                        match (x.get(i), y.get(i)) {
                            // A score row reads as a whole: `row 1: 9+ hit → 8+ hit`.
                            (Some(u), Some(v)) if label == "row" && u != v => {
                                self.push(
                                    &p,
                                    ChangeKind::Changed,
                                    Some(row_text(u)),
                                    Some(row_text(v)),
                                );
                            }
                            (Some(u), Some(v)) => self.walk(&p, None, u, v),
                            (Some(u), None) => {
                                self.push(&p, ChangeKind::Removed, Some(text(u)), None);
                            }
                            (None, Some(v)) => {
                                self.push(&p, ChangeKind::Added, None, Some(text(v)));
                            }
                            (None, None) => {}
                        }
                    }
                }
            }
            _ => self.push(
                path,
                ChangeKind::Changed,
                Some(cost_text(path, a)),
                Some(cost_text(path, b)),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::de::Located;
    use crate::model::{OptionSpec, PhaseSpec, RowSpec, TerrainSpec};
    use crate::named::Named;

    fn loc(s: &str) -> Located<String> {
        Located::new(s.to_owned(), crate::diag::Location::unknown(""))
    }

    fn named<T>(items: Vec<(&str, T)>) -> NamedMap<T> {
        NamedMap(
            items
                .into_iter()
                .map(|(n, value)| Named {
                    name: loc(n),
                    value,
                })
                .collect(),
        )
    }

    fn lines(a: &RulesetSpec, b: &RulesetSpec) -> Vec<String> {
        diff_specs(a, b).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn identical_specs_have_no_differences() {
        let a = RulesetSpec::default();
        assert!(diff_specs(&a, &a.clone()).is_empty());
    }

    #[test]
    fn terrain_order_matters_because_the_first_is_the_default() {
        let a = RulesetSpec {
            terrain: named(vec![
                ("clear", TerrainSpec::default()),
                ("woods", TerrainSpec::default()),
            ]),
            ..RulesetSpec::default()
        };
        let mut b = a.clone();
        b.terrain.0.reverse();
        assert_eq!(
            lines(&a, &b),
            ["terrain order: clear, woods → woods, clear"]
        );
    }

    #[test]
    fn score_rows_read_whole_and_phases_match_by_name() {
        let row = |score: &str, result: &str| RowSpec {
            score: Some(loc(score)),
            result: loc(result),
            ..RowSpec::default()
        };
        let phase = |name: &str| PhaseSpec {
            phase: loc(name),
            ..PhaseSpec::default()
        };
        let mut a = RulesetSpec {
            charts: named(vec![(
                "morale",
                crate::model::ChartSpec {
                    rows: vec![row("9+", "hold"), row("5-8", "retreat")],
                    ..Default::default()
                },
            )]),
            ..RulesetSpec::default()
        };
        a.sequence.side_turn = vec![phase("move"), phase("fire")];
        let mut b = a.clone();
        b.charts.0[0].value.rows[1] = row("5-8", "rout");
        b.sequence.side_turn = vec![phase("fire"), phase("move"), phase("rally")];
        b.options = named(vec![(
            "mud",
            OptionSpec {
                default: true,
                description: None,
            },
        )]);
        assert_eq!(
            lines(&a, &b),
            [
                "sequence, side-turn phase `rally` added ({phase: rally})",
                "sequence, side-turn phase order: move, fire → fire, move",
                "chart `morale`, row 2: 5-8 retreat → 5-8 rout",
                "option `mud` added (default on)",
            ]
        );
    }
}
