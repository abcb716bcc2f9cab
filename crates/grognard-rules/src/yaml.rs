//! Reading and writing YAML. The only module that knows which YAML library is used
//! (`serde-saphyr`), so it can be swapped without touching the rest of the crate.
//!
//! Ruleset and scenario files are written by hobbyists and passed around between clubs:
//! they are untrusted. [`parse`] therefore checks the raw bytes first (size, binary junk,
//! UTF-8), then parses under [`Limits`] that stop alias bombs and absurd nesting early, and
//! turns every failure into one [`Diagnostic`] naming `file:line:col` and what was expected.
//! It never panics and never runs for long: the work is bounded by [`Limits`].
//!
//! ```
//! use grognard_rules::yaml::{parse, Limits};
//! let err = parse("bad.yaml", b"units: [infantry, cavalry\n", &Limits::default()).unwrap_err();
//! assert_eq!(err.to_string(), "bad.yaml:1:8: invalid YAML: unclosed bracket '['\n  help: check the indentation, the `:` after each key and that brackets and quotes are closed");
//! ```
//!
//! YAML is read with the YAML 1.2 core schema, with these choices for hand-written files:
//! `yes`/`no`/`on`/`off`/`y`/`n` are text (only `true`/`false` are booleans); numbers with a
//! leading zero (`0812`, a hex-map coordinate) stay text; `.nan`/`.inf` are text; YAML tags
//! (`!foo`) are refused; merge keys (`<<: *base`) are applied; one document per file.

use std::sync::Arc;

use serde::Serialize;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::{MessageFormatter, Spanned};

use crate::diag::{Diagnostic, Location};
use crate::node::{Node, Value};

/// Bounds on the work [`parse`] will do for one file.
///
/// The defaults are sized for rulesets and scenarios, which are small hand-written files:
/// the largest realistic one (a 200 × 200 hex map with terrain per hex) is a few MiB and a
/// few hundred thousand values.
///
/// ```
/// use grognard_rules::yaml::Limits;
/// let strict = Limits { max_bytes: 64 * 1024, ..Limits::default() };
/// assert_eq!(strict.max_depth, 64);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest file accepted, in bytes. Checked before parsing. Default 8 MiB: several times
    /// the largest realistic scenario, small enough to read into memory without a thought.
    pub max_bytes: usize,
    /// Deepest nesting of lists and mappings. Default 64: real files nest about 8 levels
    /// (`charts.x.rows[2].conditions...`); the bound keeps the parser's recursion, and so its
    /// stack use, small. [`parse`] runs the parser on its own thread with 1 MiB of stack
    /// plus 128 KiB per level, so large values cost address space.
    pub max_depth: usize,
    /// Most aliases (`*name`) in a file. Default 1,000: anchors share unit templates and
    /// terrain blocks, a few dozen to a few hundred uses.
    pub max_aliases: usize,
    /// Most values that aliases may expand to, in total (counted as parser events). Default
    /// 50,000: a template of 50 values used 1,000 times. An alias bomb (a list aliased in a
    /// list aliased in a list ...) trips this after a few milliseconds.
    pub max_alias_expansion: usize,
    /// Most parser events (each scalar, each start and end of a list or mapping, each alias).
    /// Default 1,000,000: about what 8 MiB of dense YAML produces.
    pub max_events: usize,
    /// Most values (scalars, lists and mappings, counting alias expansions) in the tree.
    /// Default 250,000: bounds the memory of the tree to a few tens of MiB.
    pub max_nodes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: 8 * 1024 * 1024,
            max_depth: 64,
            max_aliases: 1_000,
            max_alias_expansion: 50_000,
            max_events: 1_000_000,
            max_nodes: 250_000,
        }
    }
}

/// Parses one YAML document into a located tree.
///
/// `file` names the file in diagnostics; `bytes` is its whole content. An empty file, or one
/// holding only comments, is a [`Value::Null`] node at line 1, column 1: whether "nothing" is
/// acceptable is for the reader of the tree to say (decoding a struct from it reports "the
/// file is empty").
///
/// # Errors
/// One [`Diagnostic`] for the first problem found:
/// - the file is larger than [`Limits::max_bytes`] (checked before anything else);
/// - it holds a NUL byte ("not a text file"; UTF-16 files land here);
/// - it is not valid UTF-8 (located at the first bad byte);
/// - it is not valid YAML, or breaks a limit (alias bomb, nesting, size);
/// - a mapping holds the same key twice (located at the second, naming the first).
///
/// ```
/// use grognard_rules::yaml::{parse, Limits};
/// let err = parse("dup.yaml", b"a: 1\nb: 2\na: 3\n", &Limits::default()).unwrap_err();
/// assert!(err.to_string().starts_with("dup.yaml:3:1: duplicate key `a`: it is already given at line 1, column 1"));
/// ```
pub fn parse(file: &str, bytes: &[u8], limits: &Limits) -> Result<Node, Diagnostic> {
    let file: Arc<str> = Arc::from(file);
    let text = check_text(&file, bytes, limits)?;
    // The parser recurses once per nesting level, and unoptimised builds use tens of KiB
    // of stack per level: run it on a thread whose stack fits `max_depth` whatever thread
    // the caller is on. This also turns a panic inside the parser into a diagnostic.
    let stack = STACK_BASE.saturating_add(limits.max_depth.saturating_mul(STACK_PER_LEVEL));
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("grognard-yaml".to_string())
            .stack_size(stack)
            .spawn_scoped(scope, || parse_text(&file, text, limits));
        match spawned {
            Ok(handle) => handle.join().unwrap_or_else(|_| {
                Err(Diagnostic::new(
                    Location::unknown(Arc::clone(&file)),
                    "the YAML reader failed on this file (an internal error); please report it with the file",
                ))
            }),
            // No threads on this platform (or none left): parse here; the caller's stack
            // must then be large enough for `max_depth`.
            Err(_) => parse_text(&file, text, limits),
        }
    })
}

/// Stack for the parser thread beyond the nesting itself.
const STACK_BASE: usize = 1024 * 1024;
/// Stack per nesting level, measured at about 50 KiB in unoptimised builds, with margin.
const STACK_PER_LEVEL: usize = 128 * 1024;

/// Parses checked text into a tree and checks it for duplicate keys.
fn parse_text(file: &Arc<str>, text: &str, limits: &Limits) -> Result<Node, Diagnostic> {
    let raw: Spanned<Raw> = serde_saphyr::from_str_with_options(text, options(limits))
        .map_err(|err| diagnose(file, &err, limits, text))?;
    let root = into_node(raw, file);
    match root.find_duplicate_key() {
        Some(duplicate) => Err(duplicate),
        None => Ok(root),
    }
}

/// Error writing YAML.
#[derive(Debug, thiserror::Error)]
#[error("could not write YAML: {message}")]
pub struct WriteError {
    message: String,
}

/// Writes a value as YAML text.
///
/// # Errors
/// When the value cannot be represented (e.g. a map with non-text keys the writer refuses,
/// or a `Serialize` impl that fails).
///
/// ```
/// use std::collections::BTreeMap;
/// let mut costs = BTreeMap::new();
/// costs.insert("clear", 1);
/// costs.insert("woods", 2);
/// assert_eq!(grognard_rules::yaml::to_string(&costs).unwrap(), "clear: 1\nwoods: 2\n");
/// ```
pub fn to_string<T: Serialize>(value: &T) -> Result<String, WriteError> {
    serde_saphyr::to_string(value).map_err(|err| WriteError {
        message: err.to_string(),
    })
}

/// Checks size, NUL bytes and UTF-8, in that order, and returns the text.
fn check_text<'b>(
    file: &Arc<str>,
    bytes: &'b [u8],
    limits: &Limits,
) -> Result<&'b str, Diagnostic> {
    if bytes.len() > limits.max_bytes {
        return Err(Diagnostic::new(
            Location::unknown(Arc::clone(file)),
            format!(
                "the file is too large: {} bytes ({}), the limit is {} bytes ({})",
                bytes.len(),
                human_size(bytes.len()),
                limits.max_bytes,
                human_size(limits.max_bytes)
            ),
        )
        .with_help("rulesets and scenarios are small text files; is this the right file?"));
    }
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        let (line, col) = line_col(bytes, at);
        return Err(Diagnostic::new(
            Location::new(Arc::clone(file), line, col),
            "not a text file: it contains a NUL byte; expected YAML text in UTF-8",
        )
        .with_help("if the file was saved as UTF-16 or in a word processor, save it again as plain UTF-8 text"));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(err) => {
            let at = err.valid_up_to();
            let (line, col) = line_col(bytes, at);
            let byte = bytes.get(at).copied().unwrap_or(0);
            Err(Diagnostic::new(
                Location::new(Arc::clone(file), line, col),
                format!(
                    "the file is not valid UTF-8: byte 0x{byte:02X} here does not start or continue a UTF-8 character"
                ),
            )
            .with_help("save the file as UTF-8 (it may have been saved as Latin-1 or Windows-1252)"))
        }
    }
}

/// 1-based line and column (in characters) of byte `at`.
fn line_col(bytes: &[u8], at: usize) -> (u32, u32) {
    let before = bytes.get(..at).unwrap_or(bytes);
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1; // Files are at most a few MiB.
    let col = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (saturate(line), saturate(col))
}

fn saturate(n: impl TryInto<u32>) -> u32 {
    n.try_into().unwrap_or(u32::MAX)
}

fn human_size(bytes: usize) -> String {
    const MIB: usize = 1024 * 1024;
    if bytes >= MIB {
        format!("{} MiB", bytes.div_ceil(MIB))
    } else {
        format!("{} KiB", bytes.div_ceil(1024))
    }
}

/// The parser options for `limits` and grognard's YAML dialect (see the module docs).
fn options(limits: &Limits) -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_reader_input_bytes = Some(limits.max_bytes);
    budget.max_depth = limits.max_depth;
    // Flow collections (`[[[...]]]`) are limited by the parser itself; keep them in step
    // with block nesting so both report the same limit.
    budget.flow_nesting_limit = limits.max_depth.saturating_add(1);
    budget.max_aliases = limits.max_aliases;
    budget.max_anchors = limits.max_aliases;
    budget.max_events = limits.max_events;
    budget.max_nodes = limits.max_nodes;
    budget.max_recorded_anchor_events = limits.max_nodes;
    budget.max_documents = 2;

    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options.alias_limits.max_total_replayed_events = limits.max_alias_expansion;
    options.alias_limits.max_replay_stack_depth = limits.max_depth;
    // Duplicates are found on the finished tree, where both locations are known.
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
    options.strict_booleans = true;
    options.leading_zero_numbers_as_strings = true;
    options.non_finite_float_policy = serde_saphyr::NonFiniteFloatPolicy::AsString;
    options.reject_unsupported_tags = true;
    options.with_snippet = false;
    options
}

/// One [`Diagnostic`] for a parser error, in plain words.
fn diagnose(file: &Arc<str>, err: &serde_saphyr::Error, limits: &Limits, text: &str) -> Diagnostic {
    let location = err.location().map_or_else(
        || Location::unknown(Arc::clone(file)),
        |l| to_location(file, l),
    );
    let (message, help) = explain(err, limits, false);
    let line = usize::try_from(location.line)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| text.lines().nth(i));
    let help = line
        .and_then(|l| common_slip(&message, l, location.line))
        .or_else(|| opened_earlier(&message, text, location.line))
        .or(help);
    let diagnostic = Diagnostic::new(location, message);
    match help {
        Some(help) => diagnostic.with_help(help),
        None => diagnostic,
    }
}

/// Help for the YAML mistakes people make most, read from the line the parser stopped at
/// (`line`, number `line_no`): an unquoted `: ` inside a value, a tab, a stray or unclosed
/// quote, an apostrophe inside single quotes.
fn common_slip(message: &str, line: &str, line_no: u32) -> Option<String> {
    let body = line.trim_start();
    let key_of = |l: &str| {
        l.trim_start()
            .trim_start_matches("- ")
            .split_once(':')
            .map(|(k, _)| k.trim().to_owned())
    };
    if message.contains("tab") || line.starts_with('\t') || body.starts_with('\t') {
        return Some(
            "this line is indented with a tab: YAML indents with spaces only; replace the tab with spaces (two per level)"
                .to_owned(),
        );
    }
    if message.contains("mapping values are not allowed") {
        // `title: Drill: square` — the value holds `: `.
        if let Some((key, value)) = body.trim_start_matches("- ").split_once(": ")
            && value.contains(": ")
            && !value.trim_start().starts_with(['"', '\'', '{', '['])
        {
            return Some(format!(
                "the value of `{}` holds `: `, which YAML reads as another key: put the whole value in quotes, `{}: \"{}\"`",
                key.trim(),
                key.trim(),
                value.trim().replace('"', "\\\"")
            ));
        }
        // A key at a deeper indent than its neighbours, or a key after a value.
        return Some(
            "a `key: value` stands where YAML expects a value: check this line's indentation against the line above, or quote a value that holds `: `"
                .to_owned(),
        );
    }
    // `-{ score: "5+" }`, `-[a]`, `-"text"`: a dash glued to what follows is no list item.
    if let Some(rest) = body.strip_prefix('-')
        && rest.starts_with(['{', '[', '"', '\''])
    {
        return Some(format!(
            "put a space after the `-` that starts a list item: `- {}`, not `-{}`",
            rest.trim_end(),
            rest.trim_end()
        ));
    }
    if message.contains("trailing content after single-quoted") {
        return Some(
            "an apostrophe ends text written in single quotes: write it twice (`'it''s here'`) or use double quotes (`\"it's here\"`)"
                .to_owned(),
        );
    }
    if message.contains("unclosed quote")
        || message.contains("trailing content after double-quoted")
    {
        let opened = body.matches('"').count() % 2 == 1 || body.matches('\'').count() % 2 == 1;
        let what = key_of(body).map_or_else(String::new, |k| format!(" (the value of `{k}`)"));
        if opened {
            return Some(format!(
                "line {line_no} opens a quote{what} that does not close on that line: add the closing quote, or remove the stray one"
            ));
        }
    }
    None
}

/// For a quote the parser found unclosed only lines later (`title: "Village` on line 3,
/// reported at line 5): the nearest line at or before `line_no` that opens a `"` it does not
/// close, when that is not the line reported.
fn opened_earlier(message: &str, text: &str, line_no: u32) -> Option<String> {
    if !(message.contains("unclosed quote")
        || message.contains("trailing content after double-quoted"))
    {
        return None;
    }
    let last = usize::try_from(line_no).ok()?;
    let lines: Vec<&str> = text.lines().take(last).collect();
    let (i, opened) = lines.iter().enumerate().rev().skip(1).find(|(_, l)| {
        let code = l.split(" #").next().unwrap_or(l);
        code.matches('"').count() % 2 == 1
    })?;
    let key = opened
        .trim_start()
        .trim_start_matches("- ")
        .split_once(':')
        .map_or_else(String::new, |(k, _)| {
            format!(" (the value of `{}`)", k.trim())
        });
    Some(format!(
        "line {} opens a quote{key} that does not close on that line; YAML read on until line {line_no}: add the closing quote on line {}",
        i + 1,
        i + 1
    ))
}

fn alias_bomb(limit: usize, what: &str) -> (String, Option<String>) {
    (
        format!(
            "too many aliases/expansions (limit {limit} {what}): the file may be an alias bomb"
        ),
        Some("use fewer `*alias` references, or copy the values out".to_string()),
    )
}

/// Message and help for a parser error. `via_alias` is set inside an alias expansion.
fn explain(
    err: &serde_saphyr::Error,
    limits: &Limits,
    via_alias: bool,
) -> (String, Option<String>) {
    use serde_saphyr::Error as E;
    let depth = || {
        (
            format!("nested deeper than {} levels", limits.max_depth),
            Some("rulesets nest a handful of levels; look for unclosed `[` or `{`".to_string()),
        )
    };
    match err {
        E::WithSnippet { error, .. } => explain(error, limits, via_alias),
        E::AliasError { error, .. } => explain(error, limits, true),
        E::Budget { breach, .. } => match breach {
            BudgetBreach::Aliases { .. } | BudgetBreach::AliasAnchorRatio { .. } => {
                alias_bomb(limits.max_aliases, "aliases")
            }
            BudgetBreach::Anchors { .. } => alias_bomb(limits.max_aliases, "anchors"),
            BudgetBreach::RecordedAnchorEvents { .. }
            | BudgetBreach::RecordedAnchorBytes { .. } => {
                alias_bomb(limits.max_nodes, "values under anchors")
            }
            BudgetBreach::Nodes { .. } if via_alias => {
                alias_bomb(limits.max_nodes, "values after expansion")
            }
            BudgetBreach::Depth { .. } => depth(),
            BudgetBreach::Nodes { .. } => (
                format!("the file holds more than {} values", limits.max_nodes),
                Some("rulesets and scenarios are far smaller; is this the right file?".to_string()),
            ),
            BudgetBreach::Events { .. } if via_alias => {
                alias_bomb(limits.max_events, "parser events after expansion")
            }
            BudgetBreach::Events { .. } => (
                format!(
                    "the file is too complex: more than {} YAML events",
                    limits.max_events
                ),
                None,
            ),
            BudgetBreach::InputBytes { .. } => (
                format!("the file is larger than {} bytes", limits.max_bytes),
                None,
            ),
            BudgetBreach::Documents { .. } => multiple_documents(),
            other => (
                format!("the file is too large or too complex ({other:?})"),
                None,
            ),
        },
        E::AliasReplayLimitExceeded { .. } | E::AliasReplayCounterOverflow { .. } => {
            alias_bomb(limits.max_alias_expansion, "expanded values")
        }
        E::AliasExpansionLimitExceeded {
            max_expansions_per_anchor,
            ..
        } => alias_bomb(*max_expansions_per_anchor, "expansions of one anchor"),
        E::AliasReplayStackDepthExceeded { .. } => depth(),
        E::MultipleDocuments { .. } => multiple_documents(),
        E::UnknownAnchor { .. } => (
            "this alias refers to an anchor that is not defined before it".to_string(),
            Some("define `&name` on a value above, then refer to it with `*name`".to_string()),
        ),
        E::UnsupportedTag { tag, .. } => (
            format!(
                "unsupported YAML tag {}: grognard files do not use tags",
                crate::diag::quote(tag)
            ),
            Some("remove the tag (the word starting with `!`)".to_string()),
        ),
        E::Eof { .. } => (
            "the file ends in the middle of a value".to_string(),
            Some("look for an unclosed `[`, `{` or quote".to_string()),
        ),
        E::InvalidUtf8Input => (
            "the file is not valid UTF-8".to_string(),
            Some("save the file as UTF-8".to_string()),
        ),
        other => {
            let text = serde_saphyr::UserMessageFormatter.format_message(other);
            if text.contains("recursion limit exceeded") {
                return depth();
            }
            (
                format!("invalid YAML: {}", sanitize(&text)),
                Some(
                    "check the indentation, the `:` after each key and that brackets and quotes are closed"
                        .to_string(),
                ),
            )
        }
    }
}

fn multiple_documents() -> (String, Option<String>) {
    (
        "a second YAML document starts here; expected exactly one document per file".to_string(),
        Some("remove the `---` line, or split the file in two".to_string()),
    )
}

/// Escapes control characters so a message cannot drive the terminal showing it.
fn sanitize(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_debug().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

fn to_location(file: &Arc<str>, l: serde_saphyr::Location) -> Location {
    Location::new(Arc::clone(file), saturate(l.line()), saturate(l.column()))
}

/// The parsed tree before file names are attached: the parser's own span type per value.
#[derive(Debug)]
enum Raw {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Raw>>),
    Map(Vec<(Spanned<Raw>, Spanned<Raw>)>),
}

fn into_node(raw: Spanned<Raw>, file: &Arc<str>) -> Node {
    // For values reached through an alias the anchored original is the text to fix.
    let spot = if raw.defined == serde_saphyr::Location::UNKNOWN {
        raw.referenced
    } else {
        raw.defined
    };
    let value = match raw.value {
        Raw::Null => Value::Null,
        Raw::Bool(b) => Value::Bool(b),
        Raw::Int(i) => Value::Int(i),
        Raw::Float(x) => Value::Float(x),
        Raw::Str(s) => Value::Str(s),
        Raw::Seq(items) => Value::Seq(items.into_iter().map(|i| into_node(i, file)).collect()),
        Raw::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| (into_node(k, file), into_node(v, file)))
                .collect(),
        ),
    };
    Node::new(value, to_location(file, spot))
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }

    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Raw, D::Error> {
        Raw::deserialize(deserializer)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Int(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Raw, E> {
        // Beyond i64 a number is a float, as in JSON; no ruleset counts that high.
        #[allow(clippy::cast_precision_loss)]
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }

    fn visit_i128<E>(self, v: i128) -> Result<Raw, E> {
        #[allow(clippy::cast_precision_loss)]
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }

    fn visit_u128<E>(self, v: u128) -> Result<Raw, E> {
        #[allow(clippy::cast_precision_loss)]
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
        Ok(if v.is_finite() {
            Raw::Float(v)
        } else {
            Raw::Str(v.to_string())
        })
    }

    fn visit_char<E>(self, v: char) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_string()))
    }

    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::Str(v))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Raw, E> {
        match std::str::from_utf8(v) {
            Ok(text) => Ok(Raw::Str(text.to_string())),
            Err(_) => Err(E::custom("binary data is not allowed; expected text")),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Raw>>()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<Raw>>()? {
            let value = map.next_value::<Spanned<Raw>>()?;
            entries.push((key, value));
        }
        Ok(Raw::Map(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Node, Diagnostic> {
        parse("t.yaml", text.as_bytes(), &Limits::default())
    }

    #[test]
    fn locations_are_one_based_and_exact() {
        let root = parse_str("# header\nname: x\nlist:\n  - 1\n  - [a, 2.5]\n").unwrap();
        assert_eq!((root.location.line, root.location.col), (2, 1));
        let list = root.get("list").unwrap().as_seq().unwrap();
        assert_eq!((list[0].location.line, list[0].location.col), (4, 5));
        let inner = list[1].as_seq().unwrap();
        assert_eq!((inner[1].location.line, inner[1].location.col), (5, 9));
        assert_eq!(inner[1].value, Value::Float(2.5));
    }

    #[test]
    fn dialect_choices() {
        let root =
            parse_str("a: yes\nb: 0812\nc: .nan\nd: true\ne: 18446744073709551615\n").unwrap();
        assert_eq!(root.get("a").unwrap().as_str(), Some("yes"));
        assert_eq!(root.get("b").unwrap().as_str(), Some("0812"));
        assert_eq!(root.get("c").unwrap().as_str(), Some(".nan"));
        assert_eq!(root.get("d").unwrap().as_bool(), Some(true));
        assert!(matches!(root.get("e").unwrap().value, Value::Float(_)));
    }

    #[test]
    fn empty_and_comment_only_files_are_null() {
        for text in ["", "\n\n", "# only a comment\n", "---\n"] {
            let root = parse_str(text).unwrap();
            assert!(root.is_null(), "{text:?}");
        }
    }

    #[test]
    fn merge_keys_and_aliases() {
        let root = parse_str("base: &b {x: 1, y: 2}\nder:\n  <<: *b\n  y: 3\n").unwrap();
        let der = root.get("der").unwrap();
        assert_eq!(der.get("y").unwrap().as_i64(), Some(3));
        assert_eq!(der.get("x").unwrap().as_i64(), Some(1));
        // The merged value points at its definition.
        assert_eq!(der.get("x").unwrap().location.line, 1);
    }

    #[test]
    fn plain_word_errors() {
        let two_docs = parse_str("a: 1\n---\nb: 2\n").unwrap_err();
        assert!(
            two_docs.message.contains("expected exactly one document"),
            "{two_docs}"
        );
        let anchor = parse_str("a: *nope\n").unwrap_err();
        assert!(anchor.message.contains("not defined"), "{anchor}");
        let tag = parse_str("a: !foo bar\n").unwrap_err();
        assert!(tag.message.contains("unsupported YAML tag `!foo`"), "{tag}");
        let syntax = parse_str("a: 1\n  b: 2\n").unwrap_err();
        assert_eq!(
            syntax.location.as_ref().map(|l| (l.line, l.col)),
            Some((2, 4))
        );
        assert!(syntax.message.starts_with("invalid YAML: "), "{syntax}");
    }

    /// The mistakes people make most get help that says what to change (issue 39).
    #[test]
    fn common_slips_say_how_to_fix_them() {
        let help = |text: &str| parse_str(text).unwrap_err().help.unwrap_or_default();
        assert_eq!(
            help("ruleset: x\ntitle: Drill: square\n"),
            "the value of `title` holds `: `, which YAML reads as another key: put the whole value in quotes, `title: \"Drill: square\"`"
        );
        assert!(
            help("ruleset: x\nnotes:\n\t- a\n").contains("indented with a tab"),
            "tab"
        );
        assert!(
            help("ruleset: x\ntitle: \"Drill\nnotes: []\n")
                .contains("line 2 opens a quote (the value of `title`)"),
            "stray quote"
        );
        assert!(
            help("title: 'it's here'\n").contains("write it twice (`'it''s here'`)"),
            "apostrophe"
        );
        // A dash glued to a flow mapping, and a quote left open lines before the error
        // (outside designer, issue 39: both had the general help, the second at line 5).
        assert!(
            help("rows:\n  -{ score: \"5+\", result: hurt }\n")
                .contains("put a space after the `-`"),
            "glued dash"
        );
        let open =
            parse_str("ruleset: x\ntitle: \"Village, house\nnotes:\n  - \"one\"\n").unwrap_err();
        assert!(
            open.help
                .unwrap_or_default()
                .contains("line 2 opens a quote (the value of `title`)"),
            "quote opened earlier, reported at line {}",
            open.location.map_or(0, |l| l.line)
        );
        // Other syntax errors keep the general help.
        assert!(help("a: [1, 2\n").contains("brackets and quotes are closed"));
    }

    #[test]
    fn utf8_errors_point_at_the_byte() {
        let err = parse("t.yaml", b"a: 1\nb: caf\xE9\n", &Limits::default()).unwrap_err();
        assert_eq!(err.location.as_ref().map(|l| (l.line, l.col)), Some((2, 7)));
        assert!(err.message.contains("0xE9"), "{err}");
    }

    #[test]
    fn writes_yaml() {
        #[derive(Serialize)]
        struct Unit {
            name: &'static str,
            strength: u8,
        }
        let text = to_string(&Unit {
            name: "Old Guard",
            strength: 4,
        })
        .unwrap();
        assert_eq!(text, "name: Old Guard\nstrength: 4\n");
        let back = parse("out.yaml", text.as_bytes(), &Limits::default()).unwrap();
        assert_eq!(back.get("strength").unwrap().as_i64(), Some(4));
    }
}
