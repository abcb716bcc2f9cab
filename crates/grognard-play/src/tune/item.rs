//! What the tuner varies (`grognard tune --vary`, the editor's Tune panel): one number in
//! the merged ruleset, found by its dotted
//! path (`charts.volley.rows.0.score`, `piece_types.infantry.allowance.battle`,
//! `settings.rain.default`), the values it may take, and the house-rule overlay that sets
//! it. A number may stand alone (`per: -1`), be written with halves (`1½`, `+½`) or sit in
//! text with one number in it (a score `"9+"`): the tuner moves the number and keeps the
//! rest of the text as written.

use std::fmt::Write as _;

use grognard_rules::node::{Node, Value};

use super::rows::{Moved, RowLinks, Span};

/// A number in halves (`1½` is 3): every value a ruleset writes is whole or a half.
pub type Halves = i64;

/// One number the tuner may move.
#[derive(Clone, Debug)]
pub struct Item {
    /// The path as given.
    pub path: String,
    segments: Vec<Segment>,
    /// Its value in the ruleset.
    pub current: Halves,
    /// The values it may take, lowest first (the current one among them).
    pub values: Vec<Halves>,
    written: Written,
    /// For a chart row's score: the rows next to it that move with it.
    links: Option<RowLinks>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    Key(String),
    Index(usize),
}

/// How the number is written, so a new value is written the same way.
#[derive(Clone, Debug)]
enum Written {
    /// A YAML whole number.
    Int,
    /// Text: the number between `before` and `after`; `plus` when it was written `+N`.
    Text {
        before: String,
        after: String,
        plus: bool,
    },
}

impl Item {
    /// Reads `PATH[=LO..HI]` against the merged ruleset `root`. Without a range the item
    /// takes its current value ± 3 steps (a step is 1, or ½ where the value or a bound is
    /// a half).
    ///
    /// # Errors
    /// Why `spec` names no number the tuner can move, in words (the caller says which
    /// item: `grognard tune` prefixes `--vary SPEC: `).
    pub fn parse(spec: &str, root: &Node) -> Result<Self, String> {
        let (path, range) = match spec.split_once('=') {
            Some((p, r)) => (p.trim(), Some(r.trim())),
            None => (spec.trim(), None),
        };
        if path.is_empty() {
            return Err(
                "expected a dotted path into the ruleset, e.g. charts.volley.rows.0.score=6..10"
                    .to_owned(),
            );
        }
        let (segments, node) = walk(root, path)?;
        let (current, written) = read_number(node).ok_or_else(|| {
            format!(
                "`{path}` is {}, not a number the tuner can move",
                describe(node)
            )
        })?;
        let (lo, hi) = match range {
            None => None,
            Some(r) => {
                let (a, b) = r
                    .split_once("..")
                    .ok_or_else(|| "expected a range LO..HI after `=` (e.g. 6..10)".to_owned())?;
                let lo = parse_halves(a.trim()).ok_or_else(|| format!("`{a}` is not a number"))?;
                let hi = parse_halves(b.trim()).ok_or_else(|| format!("`{b}` is not a number"))?;
                if lo > hi {
                    return Err(format!("the range {a}..{b} is empty"));
                }
                Some((lo, hi))
            }
        }
        .map_or((None, None), |(lo, hi)| (Some(lo), Some(hi)));
        let halves_used = [Some(current), lo, hi]
            .into_iter()
            .flatten()
            .any(|h| h % 2 != 0);
        let step = if halves_used { 1 } else { 2 };
        let least = least_value(&segments);
        if let (Some(lo), Some((least, what))) = (lo, least)
            && lo < least
        {
            return Err(format!(
                "{what} cannot be below {}: the range must start at {} or above (e.g. {}..{})",
                show(least),
                show(least),
                show(least.max(current - 3 * step)),
                show(hi.unwrap_or(current + 3 * step)),
            ));
        }
        // The default range stays within what the item may take, in the item's own steps.
        let lo = lo.unwrap_or_else(|| {
            let mut lo = current - 3 * step;
            while least.is_some_and(|(l, _)| lo < l) && lo < current {
                lo += step;
            }
            lo
        });
        let hi = hi.unwrap_or(current + 3 * step);
        if current < lo || current > hi {
            return Err(format!(
                "the ruleset's value {} is outside {}..{}: the range must hold it, so the tuner can tell how far it moved",
                show(current),
                show(lo),
                show(hi)
            ));
        }
        let mut values = Vec::new();
        let mut v = current;
        while v - step >= lo {
            v -= step;
        }
        while v <= hi {
            values.push(v);
            v += step;
        }
        if values.len() > 200 {
            return Err(format!(
                "{} values is too many to try: narrow the range (at most 200)",
                values.len()
            ));
        }
        let mut item = Self {
            path: path.to_owned(),
            links: row_links(root, &segments, node),
            segments,
            current,
            values,
            written,
        };
        item.keep_rows_in_order(range.is_some())?;
        Ok(item)
    }

    /// A chart row's score may not move past a neighbour row (leaving it no score): such
    /// values are no candidates. An explicit range that holds one is refused in words;
    /// the default range stops short of it.
    fn keep_rows_in_order(&mut self, explicit: bool) -> Result<(), String> {
        if self.links.is_none() {
            return Ok(());
        }
        let mut refused = None;
        let values = std::mem::take(&mut self.values);
        for v in values {
            match self.follow(v) {
                Ok(_) => self.values.push(v),
                Err(why) => {
                    refused.get_or_insert((v, why));
                }
            }
        }
        match refused {
            Some((v, why)) if explicit => Err(format!(
                "at {} {why}; the rows must stay in order: narrow the range to {}..{}",
                self.text(v),
                show(self.values.first().copied().unwrap_or(self.current)),
                show(self.values.last().copied().unwrap_or(self.current)),
            )),
            _ => Ok(()),
        }
    }

    /// The neighbour rows' new scores when this item takes `v`, so that a chart's rows
    /// stay contiguous: each row's index, its score as written and its new score. Nothing
    /// for an item that is not a row's score.
    ///
    /// # Errors
    /// The neighbour `v` would leave without a score, in words.
    pub fn follow(&self, v: Halves) -> Result<Vec<Moved>, String> {
        let Some(links) = &self.links else {
            return Ok(Vec::new());
        };
        let moved =
            Span::parse(&self.text(v)).ok_or_else(|| "the score is unreadable".to_owned())?;
        links.follow(moved).map_err(|(k, text)| {
            format!(
                "the row would leave `{}` (`{text}`) no score",
                self.row_path(k)
            )
        })
    }

    /// `charts.NAME.rows.K`: row `k` of this item's chart.
    #[must_use]
    pub fn row_path(&self, k: usize) -> String {
        let base = self.path.strip_suffix(".score").unwrap_or(&self.path);
        let rows = base.rsplit_once('.').map_or(base, |(r, _)| r);
        format!("{rows}.{k}")
    }

    /// The path of row `k`'s score beside this item's row.
    fn neighbour_segments(&self, k: usize) -> Vec<Segment> {
        let mut segments = self.segments.clone();
        if let Some(Segment::Index(i)) = segments.iter_mut().rev().nth(1) {
            *i = k;
        }
        segments
    }

    /// The value as the ruleset would write it.
    #[must_use]
    pub fn text(&self, v: Halves) -> String {
        match &self.written {
            Written::Int => show(v),
            Written::Text {
                before,
                after,
                plus,
            } => {
                let sign = if *plus && v >= 0 { "+" } else { "" };
                format!("{before}{sign}{}{after}", show(v))
            }
        }
    }

    /// How many steps `v` is from the ruleset's value.
    #[must_use]
    pub fn steps(&self, v: Halves) -> usize {
        let i = self.values.iter().position(|x| *x == v).unwrap_or(0);
        let c = self
            .values
            .iter()
            .position(|x| *x == self.current)
            .unwrap_or(0);
        i.abs_diff(c)
    }

    fn yaml_value(&self, v: Halves) -> serde_json::Value {
        match &self.written {
            Written::Int if v % 2 == 0 => serde_json::Value::from(v / 2),
            _ => serde_json::Value::String(self.text(v)),
        }
    }
}

/// A value of the overlay being written, keys in the order the ruleset has them.
#[derive(Clone, Debug)]
enum Y {
    Map(Vec<(String, Y)>),
    Seq(Vec<Y>),
    Scalar(serde_json::Value),
}

impl Y {
    fn of(node: &Node) -> Self {
        match &node.value {
            Value::Map(entries) => Self::Map(
                entries
                    .iter()
                    .map(|(k, v)| (k.key_text(), Self::of(v)))
                    .collect(),
            ),
            Value::Seq(items) => Self::Seq(items.iter().map(Self::of).collect()),
            _ => Self::Scalar(node.to_json()),
        }
    }

    fn entry(&mut self, key: &str, or: impl FnOnce() -> Self) -> Option<&mut Self> {
        let Self::Map(entries) = self else {
            return None;
        };
        let i = match entries.iter().position(|(k, _)| k == key) {
            Some(i) => i,
            None => {
                entries.push((key.to_owned(), or()));
                entries.len() - 1
            }
        };
        entries.get_mut(i).map(|(_, v)| v)
    }
}

/// The text of a house-rule overlay of `extends` (a path as the overlay should name it)
/// setting each item to its value in `values`: the maps on the way are written key by key
/// (an overlay merges maps), and a list on the way is written whole, as merged, with the
/// one value changed (an overlay replaces lists).
#[must_use]
pub fn overlay_text(
    root: &Node,
    name: &str,
    extends: &str,
    items: &[Item],
    values: &[Halves],
    comment: &str,
) -> String {
    let mut tree = Y::Map(Vec::new());
    for (item, v) in items.iter().zip(values) {
        if *v == item.current {
            continue;
        }
        set_in(
            &mut tree,
            root,
            &item.segments,
            Y::Scalar(item.yaml_value(*v)),
        );
        // The rows beside a tuned score follow it (values that cannot are no candidates).
        if let Ok(moves) = item.follow(*v) {
            for (k, _, text) in moves {
                set_in(
                    &mut tree,
                    root,
                    &item.neighbour_segments(k),
                    Y::Scalar(serde_json::Value::String(text)),
                );
            }
        }
    }
    let mut out = String::new();
    for line in comment.lines() {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(out, "ruleset: {}", scalar(&serde_json::Value::from(name)));
    let _ = writeln!(
        out,
        "extends: {}",
        scalar(&serde_json::Value::from(extends))
    );
    if let Y::Map(entries) = &tree {
        write_map(&mut out, entries, 0);
    }
    out
}

/// Sets `value` at `segments`, copying the merged list (and its elements) wherever the path
/// goes through one.
fn set_in(tree: &mut Y, root: &Node, segments: &[Segment], value: Y) {
    let mut node = root;
    let mut at = tree;
    for (i, seg) in segments.iter().enumerate() {
        let Segment::Key(key) = seg else {
            return;
        };
        let Some(child) = node.get(key) else {
            return;
        };
        let rest = &segments[i + 1..];
        if rest.is_empty() {
            if let Some(slot) = at.entry(key, || Y::Scalar(serde_json::Value::Null)) {
                *slot = value;
            }
            return;
        }
        if let Value::Seq(_) = child.value {
            // The list is written whole: as merged, or as an earlier item of this
            // candidate already changed it.
            if let Some(list) = at.entry(key, || Y::of(child)) {
                set_deep(list, rest, value);
            }
            return;
        }
        let Some(next) = at.entry(key, || Y::Map(Vec::new())) else {
            return;
        };
        at = next;
        node = child;
    }
}

fn set_deep(at: &mut Y, segments: &[Segment], value: Y) {
    let Some((first, rest)) = segments.split_first() else {
        *at = value;
        return;
    };
    let next = match (first, at) {
        (Segment::Index(i), Y::Seq(items)) => items.get_mut(*i),
        (Segment::Key(k), Y::Map(entries)) => {
            entries.iter_mut().find(|(x, _)| x == k).map(|(_, v)| v)
        }
        _ => None,
    };
    if let Some(next) = next {
        set_deep(next, rest, value);
    }
}

/// Block mappings, key by key; a list one entry a line, each on one line in flow style:
/// `- { score: "7+", result: hit }`.
fn write_map(out: &mut String, entries: &[(String, Y)], depth: usize) {
    let pad = "  ".repeat(depth);
    for (k, v) in entries {
        let key = plain_key(k);
        match v {
            Y::Map(m) if !m.is_empty() => {
                let _ = writeln!(out, "{pad}{key}:");
                write_map(out, m, depth + 1);
            }
            Y::Seq(items) if !items.is_empty() => {
                let _ = writeln!(out, "{pad}{key}:");
                for item in items {
                    let _ = writeln!(out, "{pad}  - {}", flow(item));
                }
            }
            other => {
                let _ = writeln!(out, "{pad}{key}: {}", flow(other));
            }
        }
    }
}

/// A value on one line, YAML flow style.
fn flow(v: &Y) -> String {
    match v {
        Y::Map(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", plain_key(k), flow(v)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        Y::Seq(items) => {
            let parts: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", parts.join(", "))
        }
        Y::Scalar(x) => scalar(x),
    }
}

fn scalar(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) if is_plain(s) => s.clone(),
        other => json_text(other),
    }
}

fn json_text(v: &serde_json::Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn plain_key(k: &str) -> String {
    if is_plain(k) {
        k.to_owned()
    } else {
        json_text(&serde_json::Value::from(k))
    }
}

/// Text YAML reads back as the same text without quotes: a name of letters, digits, `_`
/// and `-` that does not start like a number and is not a YAML keyword.
fn is_plain(s: &str) -> bool {
    let keyword = matches!(
        s.to_ascii_lowercase().as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "y" | "n"
    );
    !s.is_empty()
        && !keyword
        && s.chars().next().is_some_and(char::is_alphabetic)
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// Follows a dotted path; digits index a list.
fn walk<'n>(root: &'n Node, path: &str) -> Result<(Vec<Segment>, &'n Node), String> {
    let mut node = root;
    let mut segments = Vec::new();
    let mut so_far = String::new();
    for part in path.split('.') {
        let here = if so_far.is_empty() {
            "the ruleset".to_owned()
        } else {
            format!("`{so_far}`")
        };
        match &node.value {
            Value::Seq(items) => {
                let i: usize = part.parse().map_err(|_| {
                    format!(
                        "{here} is a list: expected an index 0 to {} after it, found `{part}`",
                        items.len().saturating_sub(1)
                    )
                })?;
                node = items.get(i).ok_or_else(|| {
                    format!(
                        "{here} has {} entr{}: no index {i}",
                        items.len(),
                        if items.len() == 1 { "y" } else { "ies" }
                    )
                })?;
                segments.push(Segment::Index(i));
            }
            Value::Map(entries) => {
                node = node.get(part).ok_or_else(|| {
                    let keys: Vec<String> = entries.iter().map(|(k, _)| k.key_text()).collect();
                    let hint = grognard_rules::suggest::did_you_mean(
                        part,
                        keys.iter().map(String::as_str),
                    )
                    .map_or_else(
                        || format!(" (it has {})", keys.join(", ")),
                        |m| format!("; did you mean `{m}`?"),
                    );
                    format!("{here} has no `{part}`{hint}")
                })?;
                segments.push(Segment::Key(part.to_owned()));
            }
            _ => return Err(format!("{here} is {}: the path ends there", describe(node))),
        }
        if !so_far.is_empty() {
            so_far.push('.');
        }
        so_far.push_str(part);
    }
    Ok((segments, node))
}

/// The neighbours of a chart row's score (`charts.NAME.rows.N.score` written as text).
fn row_links(root: &Node, segments: &[Segment], node: &Node) -> Option<RowLinks> {
    let [
        Segment::Key(charts),
        Segment::Key(_),
        Segment::Key(rows),
        Segment::Index(n),
        Segment::Key(score),
    ] = segments
    else {
        return None;
    };
    if charts != "charts" || rows != "rows" || score != "score" {
        return None;
    }
    let Value::Str(text) = &node.value else {
        return None;
    };
    let own = Span::parse(text)?;
    let list = segments[..3].iter().try_fold(root, |at, seg| match seg {
        Segment::Key(k) => at.get(k),
        Segment::Index(_) => None,
    })?;
    RowLinks::of(list, *n, own)
}

/// The least value the ruleset lets the number at `segments` take, and what it is in
/// words: allowances, stacking weights, costs and distances cannot be negative (the loader
/// refuses them), so the tuner neither tries nor offers such a value.
fn least_value(segments: &[Segment]) -> Option<(Halves, &'static str)> {
    let keys: Vec<&str> = segments
        .iter()
        .filter_map(|s| match s {
            Segment::Key(k) => Some(k.as_str()),
            Segment::Index(_) => None,
        })
        .collect();
    let has = |k: &str| keys.contains(&k);
    let what = match keys.first().copied() {
        Some("piece_types") if has("allowance") => "an allowance",
        Some("piece_types") if has("stack") => "a stacking weight",
        Some("piece_types") if has("turning") && keys.last() == Some(&"cost") => {
            "a facing change's cost"
        }
        Some("geometry")
            if matches!(
                keys.last().copied(),
                Some("orthogonal" | "diagonal" | "step")
            ) =>
        {
            "a step's cost"
        }
        Some("actions") if keys.last() == Some(&"range") => "a distance",
        _ if keys.iter().any(|k| *k == "cost" || *k == "costs") => "a cost",
        _ => return None,
    };
    Some((0, what))
}

fn describe(node: &Node) -> String {
    match &node.value {
        Value::Str(s) => format!("the text \"{s}\""),
        other => other.kind_name().to_owned(),
    }
}

fn read_number(node: &Node) -> Option<(Halves, Written)> {
    match &node.value {
        Value::Int(i) => Some((i.checked_mul(2)?, Written::Int)),
        #[allow(clippy::cast_possible_truncation)] // checked whole below
        Value::Float(x) => {
            let h = x * 2.0;
            (h.fract() == 0.0 && h.abs() < 1e12).then(|| {
                (
                    h as i64,
                    Written::Text {
                        before: String::new(),
                        after: String::new(),
                        plus: false,
                    },
                )
            })
        }
        Value::Str(s) => {
            let (start, end) = number_span(s)?;
            let token = &s[start..end];
            Some((
                parse_halves(token)?,
                Written::Text {
                    before: s[..start].to_owned(),
                    after: s[end..].to_owned(),
                    plus: token.starts_with('+'),
                },
            ))
        }
        _ => None,
    }
}

/// Where the one number in `s` is: an optional sign, digits and an optional `½` or `.5`
/// (or a lone `½`). None when `s` holds no number or more than one.
fn number_span(s: &str) -> Option<(usize, usize)> {
    let bytes: Vec<(usize, char)> = s.char_indices().collect();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let (at, c) = bytes[i];
        let starts_number = c.is_ascii_digit() || c == '½';
        let signed = (c == '+' || c == '-')
            && bytes
                .get(i + 1)
                .is_some_and(|(_, d)| d.is_ascii_digit() || *d == '½')
            && (i == 0 || !bytes[i - 1].1.is_ascii_digit());
        if starts_number || signed {
            let mut j = i + 1;
            while j < bytes.len() && (bytes[j].1.is_ascii_digit()) {
                j += 1;
            }
            if j < bytes.len() && bytes[j].1 == '½' && c != '½' {
                j += 1;
            } else if j + 1 < bytes.len() && bytes[j].1 == '.' && bytes[j + 1].1 == '5' {
                j += 2;
            }
            let end = bytes.get(j).map_or(s.len(), |(p, _)| *p);
            spans.push((at, end));
            i = j;
        } else {
            i += 1;
        }
    }
    (spans.len() == 1).then(|| spans[0])
}

/// Every number the tuner can move in `root` (a merged ruleset), by dotted path, with its
/// value as the ruleset writes it, in the ruleset's order: what the editor's Tune panel
/// offers to vary.
#[must_use]
pub fn numeric_leaves(root: &Node) -> Vec<(String, String)> {
    fn visit(node: &Node, path: &mut Vec<String>, out: &mut Vec<(String, String)>) {
        match &node.value {
            Value::Map(entries) => {
                for (k, v) in entries {
                    path.push(k.key_text());
                    visit(v, path, out);
                    path.pop();
                }
            }
            Value::Seq(items) => {
                for (i, v) in items.iter().enumerate() {
                    path.push(i.to_string());
                    visit(v, path, out);
                    path.pop();
                }
            }
            // A number in words (a description's "a d10 roll") is not one to tune: only
            // a value that is one token (`9+`, `1½`, `d10`) is offered.
            Value::Str(s) => {
                if !s.contains(char::is_whitespace) && read_number(node).is_some() {
                    out.push((path.join("."), s.clone()));
                }
            }
            _ => {
                if let Some((h, _)) = read_number(node) {
                    out.push((path.join("."), show(h)));
                }
            }
        }
    }
    let mut out = Vec::new();
    visit(root, &mut Vec::new(), &mut out);
    out
}

/// `3`, `-2`, `+½`, `1½`, `1.5` in halves.
#[must_use]
pub fn parse_halves(text: &str) -> Option<Halves> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, half) = if let Some(w) = body.strip_suffix('½') {
        (w, 1)
    } else if let Some(w) = body.strip_suffix(".5") {
        (w, 1)
    } else {
        (body, 0)
    };
    let whole: i64 = if whole.is_empty() {
        if half == 0 {
            return None;
        }
        0
    } else if whole.chars().all(|c| c.is_ascii_digit()) {
        whole.parse().ok()?
    } else {
        return None;
    };
    let h = whole.checked_mul(2)? + half;
    Some(if negative { -h } else { h })
}

/// Halves as the rulesets write them: `3`, `-2`, `1½`, `½`, `-½`.
#[must_use]
pub fn show(h: Halves) -> String {
    let sign = if h < 0 { "-" } else { "" };
    let a = h.abs();
    match (a / 2, a % 2) {
        (w, 0) => format!("{sign}{w}"),
        (0, _) => format!("{sign}½"),
        (w, _) => format!("{sign}{w}½"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grognard_rules::yaml::{Limits, parse};

    fn root() -> Node {
        let text = b"charts:\n  volley:\n    description: A d10 roll, once\n    rows:\n      - { score: \"9+\", result: hit }\n      - { score: \"12\", result: rout }\n    modifiers:\n      - { name: cover, input: cover, per: -1 }\npiece_types:\n  infantry:\n    allowance: { battle: \"\xc2\xbd\", strategic: \"1\xc2\xbd\" }\n";
        parse("r.yaml", text, &Limits::default()).expect("yaml")
    }

    #[test]
    fn numbers_in_halves_read_and_write_as_rulesets_do() {
        for (text, h) in [
            ("3", 6),
            ("-2", -4),
            ("+½", 1),
            ("1½", 3),
            ("1.5", 3),
            ("½", 1),
        ] {
            assert_eq!(parse_halves(text), Some(h), "{text}");
        }
        assert_eq!(parse_halves("x"), None);
        assert_eq!(parse_halves(""), None);
        assert_eq!(show(3), "1½");
        assert_eq!(show(-1), "-½");
        assert_eq!(show(8), "4");
    }

    #[test]
    fn a_score_moves_its_number_and_keeps_its_text() {
        let r = root();
        let item =
            Item::parse("charts.volley.rows.0.score=7..11", &r).unwrap_or_else(|_| panic!("item"));
        assert_eq!(item.current, 18);
        assert_eq!(item.values, vec![14, 16, 18, 20, 22]);
        assert_eq!(item.text(14), "7+");
        assert_eq!(item.steps(22), 2);
        let text = overlay_text(&r, "t", "base.yaml", &[item], &[14], "a test");
        assert_eq!(
            text,
            "# a test\nruleset: t\nextends: \"base.yaml\"\ncharts:\n  volley:\n    rows:\n      - { score: \"7+\", result: hit }\n      - { score: \"12\", result: rout }\n"
        );
    }

    #[test]
    fn halves_and_signed_numbers_step_by_halves_or_wholes() {
        let r = root();
        let a = Item::parse("piece_types.infantry.allowance.strategic=1..2", &r)
            .unwrap_or_else(|_| panic!("item"));
        assert_eq!(a.values, vec![2, 3, 4]);
        assert_eq!(a.text(4), "2");
        let m = Item::parse("charts.volley.modifiers.0.per", &r).unwrap_or_else(|_| panic!("item"));
        assert_eq!(m.values.first(), Some(&-8));
        assert_eq!(m.values.last(), Some(&4));
        let text = overlay_text(&r, "t", "b.yaml", &[m], &[-4], "");
        assert!(
            text.contains("      - { name: cover, input: cover, per: -2 }"),
            "{text}"
        );
    }

    /// An allowance of ½ once tried −1 by default: the candidate did not load and the whole
    /// run stopped after games were played (outside designer, issue 39).
    #[test]
    fn an_allowance_never_goes_below_zero_by_default_and_is_refused_below_it() {
        let r = root();
        let a = Item::parse("piece_types.infantry.allowance.battle", &r)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.values, vec![0, 1, 2, 3, 4], "½ steps from 0 to 2");
        let s = Item::parse("piece_types.infantry.allowance.strategic", &r)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.values.first(), Some(&0));
        assert_eq!(s.values.last(), Some(&6));
        let err = Item::parse("piece_types.infantry.allowance.battle=-1..2", &r)
            .err()
            .unwrap_or_else(|| panic!("a negative allowance accepted"));
        assert!(
            err.contains("an allowance cannot be below 0") && err.contains("start at 0"),
            "{err}"
        );
        // A modifier may be negative: its default range is not cut.
        let m = Item::parse("charts.volley.modifiers.0.per", &r).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(m.values.first(), Some(&-8));
    }

    #[test]
    fn bad_paths_and_ranges_say_what_is_there() {
        let r = root();
        let err = |spec: &str| match Item::parse(spec, &r) {
            Err(m) => m,
            _ => panic!("{spec} accepted"),
        };
        assert!(err("charts.voley.rows.0.score").contains("did you mean `volley`"));
        assert!(err("charts.volley.rows.5.score").contains("has 2 entries: no index 5"));
        assert!(err("charts.volley.rows.0.result").contains("not a number"));
        assert!(err("charts.volley.rows.0.score=10..12").contains("outside 10..12"));
        assert!(err("charts.volley.rows.0.score=9").contains("expected a range"));
    }

    #[test]
    fn the_numbers_offered_are_the_ones_an_item_can_name() {
        let r = root();
        let leaves = numeric_leaves(&r);
        let paths: Vec<&str> = leaves.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "charts.volley.rows.0.score",
                "charts.volley.rows.1.score",
                "charts.volley.modifiers.0.per",
                "piece_types.infantry.allowance.battle",
                "piece_types.infantry.allowance.strategic",
            ]
        );
        assert_eq!(leaves[0].1, "9+");
        assert_eq!(leaves[2].1, "-1");
        for (p, _) in &leaves {
            assert!(Item::parse(p, &r).is_ok(), "{p}");
        }
    }
}
