//! Decoding a located YAML tree into typed model structs, reporting *every* problem.
//!
//! [`decode`] is a serde [`Deserializer`] over a [`Node`] tree. Where serde would stop at
//! the first error, it notes a [`Diagnostic`] and carries on:
//!
//! - **Unknown keys.** In a struct, serde tells the deserializer the struct's field names;
//!   any other key is reported at the key (`unknown key `colour` in units[0]; expected one
//!   of: name, color` with `help: did you mean `color`?`) and skipped.
//! - **Wrong kinds of value** (text where a number goes, a list where a mapping goes, 300 for
//!   a `u8`) are reported at the value and replaced by a harmless placeholder (0, empty text,
//!   an empty list...) so decoding continues and later problems are found too.
//! - **Unknown enum values** are reported with the allowed values and a suggestion, and
//!   replaced by the first variant.
//! - **Errors serde makes fatal** (a missing required key, a custom `Deserialize` refusing a
//!   value, a wrong tuple length) are reported where they arise — a missing key at the
//!   mapping that lacks it — and that value is set aside: a list carries on without the bad
//!   item, and decoding runs again with the bad value left out, so problems elsewhere are
//!   still found. Consequences of an already-reported problem are not reported again.
//!   Each such problem costs a pass or two over the tree; the number of passes is bounded
//!   (up to 100, fewer for big trees), after which a note says more may be hidden.
//!
//! Every message names the value's dotted path (`in charts.scout_fate.rows[2].score: ...`).
//! Nothing of a failed decode leaks out: any diagnostic means `Err`.
//!
//! ```
//! use serde::Deserialize;
//! use grognard_rules::{de::decode, yaml::{parse, Limits}};
//!
//! #[derive(Debug, Deserialize)]
//! struct Unit { name: String, strength: u8 }
//!
//! let text = b"- name: Guard\n  strength: 4\n- name: Line\n  strenght: 3\n  colour: red\n";
//! let root = parse("oob.yaml", text, &Limits::default()).unwrap();
//! let errors = decode::<Vec<Unit>>(&root).unwrap_err().to_string();
//! assert_eq!(errors, "\
//! oob.yaml:3:3: in [1]: missing required key `strength`
//! oob.yaml:4:3: unknown key `strenght` in [1]; expected one of: name, strength
//!   help: did you mean `strength`?
//! oob.yaml:5:3: unknown key `colour` in [1]; expected one of: name, strength");
//! ```
//!
//! # Supported serde features
//! Structs (with `default`, `rename`, `alias`, `skip`), `Option`, `Vec` and other sequences,
//! tuples, maps keyed by text, numbers or enums (`HashMap`, `BTreeMap`, ...), newtype structs,
//! unit and externally tagged enums (`kind: road` or `move: {to: ...}`), integers, floats,
//! `bool`, `char`, `String`, and [`Located`].
//!
//! Limits, all from serde's buffering of values it cannot type in advance:
//! - `#[serde(flatten)]`: the struct holding the flattened field is read as a plain map, so
//!   its unknown keys are *not* reported (serde keeps them for the flattened part), and
//!   problems inside the flattened part are reported at the enclosing mapping, with serde's
//!   wording. [`Located`] values inside it have an unknown location.
//! - `#[serde(untagged)]` and internally tagged (`#[serde(tag = "...")]`) enums work, but a
//!   value matching no variant is one problem at that value ("data did not match any
//!   variant"), without the detail of why each variant failed.
//! - `#[serde(other)]` on an enum variant is not honoured: unknown values are reported.

use core::cell::RefCell;
use core::fmt;
use core::ops::Deref;
use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::Arc;

use serde::de::value::StrDeserializer;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};
use serde::{Deserialize, Serialize, Serializer};

use crate::diag::{Diagnostic, Diagnostics, Location, quote};
use crate::node::{Node, Value};
use crate::suggest::did_you_mean;

/// Decodes a tree into `T`, collecting every problem found.
///
/// # Errors
/// All the problems found, each with its location, dotted path and what was expected. See
/// the [module docs](self) for how decoding carries on after a problem.
///
/// ```
/// use serde::Deserialize;
/// use grognard_rules::{de::decode, yaml::{parse, Limits}};
///
/// #[derive(Debug, Deserialize, PartialEq)]
/// #[serde(rename_all = "snake_case")]
/// enum Scale { Battle, Strategic, Road }
///
/// #[derive(Debug, Deserialize)]
/// struct Rules { scale: Scale, turns: u32 }
///
/// let root = parse("r.yaml", b"scale: strategc\nturns: twelve\n", &Limits::default()).unwrap();
/// let errors = decode::<Rules>(&root).unwrap_err();
/// let text = errors.to_string();
/// assert!(text.contains("r.yaml:1:8: in scale: unknown value `strategc`; expected one of: battle, strategic, road\n  help: did you mean `strategic`?"), "{text}");
/// assert!(text.contains("r.yaml:2:8: in turns: expected a whole number, found the text `twelve`"), "{text}");
///
/// let root = parse("r.yaml", b"scale: road\nturns: 12\n", &Limits::default()).unwrap();
/// let rules: Rules = decode(&root).unwrap();
/// assert_eq!((rules.scale, rules.turns), (Scale::Road, 12));
/// ```
pub fn decode<T: DeserializeOwned>(node: &Node) -> Result<T, Diagnostics> {
    match decode_recovering(node) {
        (Some(value), d) if d.is_empty() => Ok(value),
        (_, d) => Err(d),
    }
}

/// Like [`decode`], but when the only problems were ones the decoder could step over (an
/// unknown key, a bad value left out), also returns the value it recovered, so a later
/// validation pass can report its own problems in the same run.
///
/// # Example
/// ```
/// use serde::Deserialize;
/// use grognard_rules::{de::decode_recovering, yaml::{parse, Limits}};
///
/// #[derive(Debug, Default, Deserialize)]
/// #[serde(default)]
/// struct Board { cols: u32, rows: u32 }
///
/// let root = parse("b.yaml", b"cols: 4\ncolz: 5\nrows: 3\n", &Limits::default()).unwrap();
/// let (board, problems) = decode_recovering::<Board>(&root);
/// assert_eq!(problems.len(), 1);
/// assert_eq!(board.map(|b| (b.cols, b.rows)), Some((4, 3)));
/// ```
pub fn decode_recovering<T: DeserializeOwned>(node: &Node) -> (Option<T>, Diagnostics) {
    // Each pass after the first re-decodes the whole tree with more bad values left out;
    // bound the total work so a file full of fatal errors cannot take long.
    const WORK: usize = 4_000_000;
    const MAX_PASSES: usize = 100;
    let passes = (WORK / count_nodes(node).max(1)).clamp(2, MAX_PASSES);

    let sink = RefCell::new(Session::default());
    let mut converged = false;
    let mut recovered = None;
    for _ in 0..passes {
        if let Ok(mut session) = sink.try_borrow_mut() {
            session.new_poison = false;
        }
        let outcome = T::deserialize(NodeDe::new(node, Path::Root, &sink));
        let Ok(mut session) = sink.try_borrow_mut() else {
            break;
        };
        match outcome {
            Ok(value) if session.diagnostics.is_empty() => {
                return (Some(value), Diagnostics::default());
            }
            Ok(value) => recovered = Some(value),
            Err(DecodeError::Fresh { message, help, .. }) => {
                // Only a `Deserialize` impl failing after (or without) reading the tree gets
                // here, e.g. `#[serde(try_from = ...)]` on the top-level type.
                session.record(with_help(
                    Diagnostic::new(node.location.clone(), message),
                    help,
                ));
                converged = true;
                break;
            }
            _ => {}
        }
        if !session.new_poison || session.is_poisoned(node) || session.overflowed {
            converged = true;
            break;
        }
        if session.diagnostics.is_empty() {
            // Something failed without a report (cannot happen); do not spin.
            session.record(Diagnostic::new(
                node.location.clone(),
                "the file could not be read as expected",
            ));
            break;
        }
    }
    let session = sink.into_inner();
    let mut diagnostics: Diagnostics = session.diagnostics.into_iter().collect();
    if session.overflowed {
        diagnostics.push(Diagnostic::without_location(format!(
            "too many problems: only the first {MAX_DIAGNOSTICS} are shown"
        )));
    } else if !converged {
        diagnostics.push(Diagnostic::without_location(
            "more problems may be hidden behind these; fix them and check again",
        ));
    }
    if diagnostics.is_empty() {
        // Defensive: a decode that failed must say something.
        diagnostics.push(Diagnostic::new(
            node.location.clone(),
            "the file could not be read as expected",
        ));
    }
    (recovered, diagnostics)
}

/// Stop collecting after this many problems: nobody reads more, and it bounds memory.
const MAX_DIAGNOSTICS: usize = 1_000;

fn count_nodes(root: &Node) -> usize {
    let mut count = 0;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        count += 1;
        match &node.value {
            Value::Seq(items) => stack.extend(items),
            Value::Map(entries) => stack.extend(entries.iter().flat_map(|(k, v)| [k, v])),
            _ => {}
        }
    }
    count
}

fn with_help(diagnostic: Diagnostic, help: Option<String>) -> Diagnostic {
    match help {
        Some(help) => diagnostic.with_help(help),
        None => diagnostic,
    }
}

/// What one [`decode`] has found so far, shared by every deserializer of the tree.
#[derive(Default)]
struct Session {
    diagnostics: Vec<Diagnostic>,
    /// Diagnostics already recorded: later passes find the same problems again.
    seen: HashSet<Diagnostic>,
    /// Nodes whose value made decoding fail; later passes leave them out.
    poisoned: HashSet<usize>,
    /// Set when this pass poisoned a node: another pass may find more.
    new_poison: bool,
    overflowed: bool,
}

impl Session {
    fn record(&mut self, diagnostic: Diagnostic) {
        if self.seen.contains(&diagnostic) {
            return;
        }
        if self.diagnostics.len() >= MAX_DIAGNOSTICS {
            self.overflowed = true;
            return;
        }
        self.seen.insert(diagnostic.clone());
        self.diagnostics.push(diagnostic);
    }

    fn is_poisoned(&self, node: &Node) -> bool {
        self.poisoned.contains(&node_id(node))
    }

    fn poison(&mut self, node: &Node) {
        if self.poisoned.insert(node_id(node)) {
            self.new_poison = true;
        }
    }
}

/// A node's identity within one decode: its address in the (borrowed, unmoving) tree.
fn node_id(node: &Node) -> usize {
    core::ptr::from_ref(node) as usize
}

type Sink = RefCell<Session>;

fn is_poisoned(sink: &Sink, node: &Node) -> bool {
    sink.try_borrow().is_ok_and(|s| s.is_poisoned(node))
}

fn poison_count(sink: &Sink) -> usize {
    sink.try_borrow().map_or(0, |s| s.poisoned.len())
}

/// Where a value is, as a dotted path from the top of the file: `charts.x.rows[2].score`.
#[derive(Clone, Copy)]
enum Path<'p> {
    Root,
    Key(&'p Path<'p>, &'p str),
    Index(&'p Path<'p>, usize),
}

impl Path<'_> {
    const fn is_root(&self) -> bool {
        matches!(self, Self::Root)
    }

    /// `message` prefixed by `in <path>: ` (nothing at the top level).
    fn prefix(&self, message: &str) -> String {
        if self.is_root() {
            message.to_string()
        } else {
            format!("in {self}: {message}")
        }
    }

    /// `in <path>` or `at the top level`.
    fn place(&self) -> String {
        if self.is_root() {
            "at the top level".to_string()
        } else {
            format!("in {self}")
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Root => Ok(()),
            Self::Key(parent, key) => {
                parent.fmt(f)?;
                let plain = !key.is_empty()
                    && key.len() <= 40
                    && key
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
                if plain {
                    if !parent.is_root() {
                        f.write_str(".")?;
                    }
                    f.write_str(key)
                } else {
                    let shown: String = key.chars().take(40).collect();
                    let cut = if shown.len() < key.len() { "…" } else { "" };
                    write!(f, "[{shown:?}{cut}]")
                }
            }
            Self::Index(parent, index) => {
                parent.fmt(f)?;
                write!(f, "[{index}]")
            }
        }
    }
}

/// The error type of the tree deserializer.
///
/// `Fresh` errors come from serde or from a `Deserialize` impl and have not been reported
/// yet; the deserializer of the innermost node they pass through reports them at that node
/// and turns them into `Reported`, which then travels up untouched.
#[derive(Debug)]
enum DecodeError {
    Fresh {
        message: String,
        help: Option<String>,
        /// Set for "missing field" errors, which may be a consequence of a left-out value.
        missing_field: Option<&'static str>,
    },
    Reported,
}

impl DecodeError {
    fn fresh(message: String) -> Self {
        Self::Fresh {
            message,
            help: None,
            missing_field: None,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fresh { message, .. } => f.write_str(message),
            Self::Reported => f.write_str("already reported"),
        }
    }
}

impl std::error::Error for DecodeError {}

fn one_of(expected: &[&str]) -> String {
    if expected.is_empty() {
        "nothing (there are no values to choose from)".to_string()
    } else {
        expected.join(", ")
    }
}

fn suggestion(word: &str, expected: &[&'static str]) -> Option<String> {
    did_you_mean(word, expected.iter().copied()).map(|s| format!("did you mean `{s}`?"))
}

impl de::Error for DecodeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self::fresh(msg.to_string())
    }

    fn invalid_type(unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        Self::fresh(format!("expected {exp}, found {unexp}"))
    }

    fn invalid_value(unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        Self::fresh(format!("expected {exp}, found {unexp}"))
    }

    fn invalid_length(len: usize, exp: &dyn de::Expected) -> Self {
        Self::fresh(format!("expected {exp}, found {len} items"))
    }

    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        Self::Fresh {
            message: format!(
                "unknown value {}; expected one of: {}",
                quote(variant),
                one_of(expected)
            ),
            help: suggestion(variant, expected),
            missing_field: None,
        }
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        Self::Fresh {
            message: format!(
                "unknown key {}; expected one of: {}",
                quote(field),
                one_of(expected)
            ),
            help: suggestion(field, expected),
            missing_field: None,
        }
    }

    fn missing_field(field: &'static str) -> Self {
        Self::Fresh {
            message: format!("missing required key `{field}`"),
            help: None,
            missing_field: Some(field),
        }
    }

    fn duplicate_field(field: &'static str) -> Self {
        Self::fresh(format!("the key `{field}` is given twice"))
    }
}

static NULL: Value = Value::Null;

/// The serde deserializer for one node.
struct NodeDe<'a, 'p> {
    node: &'a Node,
    path: Path<'p>,
    sink: &'a Sink,
    /// Read as "nothing" (an enum variant written without the value it needs), while
    /// reporting at `node`.
    absent: bool,
}

impl<'a, 'p> NodeDe<'a, 'p> {
    const fn new(node: &'a Node, path: Path<'p>, sink: &'a Sink) -> Self {
        Self {
            node,
            path,
            sink,
            absent: false,
        }
    }

    fn value(&self) -> &'a Value {
        if self.absent { &NULL } else { &self.node.value }
    }

    fn report_at(&self, location: &Location, message: String, help: Option<String>) {
        if let Ok(mut session) = self.sink.try_borrow_mut() {
            session.record(with_help(Diagnostic::new(location.clone(), message), help));
        }
    }

    /// Reports `message` (prefixed with the path) at this node.
    fn report(&self, message: &str, help: Option<String>) {
        self.report_at(&self.node.location, self.path.prefix(message), help);
    }

    fn describe(&self) -> String {
        if self.absent {
            "nothing".to_string()
        } else {
            self.node.describe()
        }
    }

    /// Reports "expected `expected`, found ...".
    fn mismatch(&self, expected: &str, help: Option<String>) {
        self.report(
            &format!("expected {expected}, found {}", self.describe()),
            help,
        );
    }

    fn poison(&self) {
        if let Ok(mut session) = self.sink.try_borrow_mut() {
            session.poison(self.node);
        }
    }

    /// Settles the visitor's result for this node. A fresh error is reported here (unless
    /// it is a consequence of a placeholder or of a left-out value: `consequential`) and
    /// the node is set aside for the next pass.
    fn finish<T>(
        &self,
        result: Result<T, DecodeError>,
        consequential: impl FnOnce(Option<&'static str>) -> bool,
    ) -> Result<T, DecodeError> {
        match result {
            Ok(value) => Ok(value),
            Err(DecodeError::Reported) => Err(DecodeError::Reported),
            Err(DecodeError::Fresh {
                message,
                help,
                missing_field,
            }) => {
                if !consequential(missing_field) {
                    self.report(&message, help);
                }
                self.poison();
                Err(DecodeError::Reported)
            }
        }
    }

    /// [`Self::finish`] where a placeholder (`tainted`) makes any error a consequence.
    fn settle<T>(&self, result: Result<T, DecodeError>, tainted: bool) -> Result<T, DecodeError> {
        self.finish(result, |_| tainted)
    }

    /// A whole number in `min..=max`, or `None` after reporting why not.
    fn whole_number(&self, min: i128, max: i128) -> Option<i128> {
        let found = match *self.value() {
            Value::Int(i) => Some(i128::from(i)),
            // 3.0 is a whole number, however it was written.
            #[allow(clippy::cast_possible_truncation)]
            Value::Float(x) if x.fract() == 0.0 && x.abs() < 1e30 => Some(x as i128),
            _ => None,
        };
        match found {
            Some(n) if (min..=max).contains(&n) => Some(n),
            Some(_) => {
                self.mismatch(&format!("a whole number from {min} to {max}"), None);
                None
            }
            None => {
                let help = match self.value() {
                    Value::Str(s) if s.trim().parse::<i128>().is_ok() => {
                        Some("remove the quotes around the number".to_string())
                    }
                    _ => None,
                };
                self.mismatch("a whole number", help);
                None
            }
        }
    }

    fn number(&self) -> Option<f64> {
        match *self.value() {
            // Whole numbers in files are small; the nearest f64 is what the writer meant.
            #[allow(clippy::cast_precision_loss)]
            Value::Int(i) => Some(i as f64),
            Value::Float(x) => Some(x),
            _ => {
                let help = match self.value() {
                    Value::Str(s) if s.trim().parse::<f64>().is_ok_and(f64::is_finite) => {
                        Some("remove the quotes around the number".to_string())
                    }
                    _ => None,
                };
                self.mismatch("a number", help);
                None
            }
        }
    }

    /// The node as text: text as is, whole numbers and booleans in their spelling.
    fn text(&self) -> Option<Cow<'a, str>> {
        match self.value() {
            Value::Str(s) => Some(Cow::Borrowed(s)),
            Value::Int(i) => Some(Cow::Owned(i.to_string())),
            Value::Bool(b) => Some(Cow::Owned(b.to_string())),
            Value::Float(x) => {
                self.mismatch("text", Some(format!("put the number in quotes: \"{x}\"")));
                None
            }
            _ => {
                self.mismatch("text", None);
                None
            }
        }
    }

    /// Reads the node as a list.
    fn seq<'de, V: Visitor<'de>>(
        self,
        visitor: V,
        expected: &str,
    ) -> Result<V::Value, DecodeError> {
        let items: &[Node] = match self.value() {
            Value::Seq(items) => items,
            Value::Null => &[],
            _ => {
                let help = matches!(
                    self.value(),
                    Value::Str(_) | Value::Int(_) | Value::Float(_)
                )
                .then(|| "write a list as `[a, b]`, or one `- item` per line".to_string());
                self.mismatch(expected, help);
                let mut empty = SeqDe::new(&[], self.path, self.sink);
                let result = visitor.visit_seq(&mut empty);
                return self.settle(result, true);
            }
        };
        let mut access = SeqDe::new(items, self.path, self.sink);
        let result = visitor.visit_seq(&mut access);
        let truncated = access.truncated;
        self.settle(result, truncated)
    }

    /// Reads the node as a mapping; `fields` are a struct's keys (others are reported).
    fn map<'de, V: Visitor<'de>>(
        self,
        visitor: V,
        fields: Option<&'static [&'static str]>,
    ) -> Result<V::Value, DecodeError> {
        let mut tainted = false;
        let entries: &[(Node, Node)] = match self.value() {
            Value::Map(entries) => entries,
            Value::Null if self.path.is_root() && !self.absent => {
                self.report(
                    "the file is empty (or holds only comments); expected a mapping",
                    None,
                );
                tainted = true;
                &[]
            }
            Value::Null => &[],
            _ => {
                self.mismatch("a mapping", None);
                tainted = true;
                &[]
            }
        };
        let mut access = MapDe {
            entries,
            index: 0,
            path: self.path,
            sink: self.sink,
            fields,
            pending: None,
            skipped: Vec::new(),
        };
        let result = visitor.visit_map(&mut access);
        let skipped = access.skipped;
        self.finish(result, |missing| {
            tainted || missing.is_some_and(|field| skipped.contains(&field))
        })
    }
}

macro_rules! whole_number_methods {
    ($($method:ident => $ty:ty, $visit:ident, $max:expr;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
            let found = self.whole_number(i128::try_from(<$ty>::MIN).unwrap_or(i128::MIN), $max);
            let value = found.and_then(|n| <$ty>::try_from(n).ok()).unwrap_or_default();
            let result = visitor.$visit(value);
            self.settle(result, found.is_none())
        }
    )*};
}

impl<'de> Deserializer<'de> for NodeDe<'_, '_> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.value() {
            Value::Null => {
                let result = visitor.visit_unit();
                self.settle(result, false)
            }
            Value::Bool(b) => {
                let result = visitor.visit_bool(*b);
                self.settle(result, false)
            }
            Value::Int(i) => {
                let result = match u64::try_from(*i) {
                    Ok(u) => visitor.visit_u64(u),
                    Err(_) => visitor.visit_i64(*i),
                };
                self.settle(result, false)
            }
            Value::Float(x) => {
                let result = visitor.visit_f64(*x);
                self.settle(result, false)
            }
            Value::Str(s) => {
                let result = visitor.visit_str(s);
                self.settle(result, false)
            }
            Value::Seq(_) => self.seq(visitor, "a list"),
            Value::Map(_) => self.map(visitor, None),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let found = match self.value() {
            Value::Bool(b) => Some(*b),
            Value::Str(s) => {
                let lowered = s.trim().to_ascii_lowercase();
                let help = ["yes", "no", "on", "off", "y", "n"]
                    .contains(&lowered.as_str())
                    .then(|| "write `true` or `false`".to_string());
                self.mismatch("`true` or `false`", help);
                None
            }
            _ => {
                self.mismatch("`true` or `false`", None);
                None
            }
        };
        let result = visitor.visit_bool(found.unwrap_or(false));
        self.settle(result, found.is_none())
    }

    whole_number_methods! {
        deserialize_i8 => i8, visit_i8, i128::from(i8::MAX);
        deserialize_i16 => i16, visit_i16, i128::from(i16::MAX);
        deserialize_i32 => i32, visit_i32, i128::from(i32::MAX);
        deserialize_i64 => i64, visit_i64, i128::from(i64::MAX);
        deserialize_i128 => i128, visit_i128, i128::MAX;
        deserialize_u8 => u8, visit_u8, i128::from(u8::MAX);
        deserialize_u16 => u16, visit_u16, i128::from(u16::MAX);
        deserialize_u32 => u32, visit_u32, i128::from(u32::MAX);
        deserialize_u64 => u64, visit_u64, i128::from(u64::MAX);
        deserialize_u128 => u128, visit_u128, i128::MAX;
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let found = self.number();
        // f32 targets accept the nearest f32, as any YAML or JSON reader does.
        #[allow(clippy::cast_possible_truncation)]
        let result = visitor.visit_f32(found.unwrap_or(0.0) as f32);
        self.settle(result, found.is_none())
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let found = self.number();
        let result = visitor.visit_f64(found.unwrap_or(0.0));
        self.settle(result, found.is_none())
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let found = match self.value() {
            Value::Str(s) if s.chars().count() == 1 => s.chars().next(),
            _ => None,
        };
        if found.is_none() {
            self.mismatch("a single character", None);
        }
        let result = visitor.visit_char(found.unwrap_or(' '));
        self.settle(result, found.is_none())
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let found = self.text();
        let result = visitor.visit_str(found.as_deref().unwrap_or(""));
        self.settle(result, found.is_none())
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let found = self.text();
        let result = visitor.visit_bytes(found.as_deref().unwrap_or("").as_bytes());
        self.settle(result, found.is_none())
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        if matches!(self.value(), Value::Null) {
            let result = visitor.visit_none();
            self.settle(result, false)
        } else {
            let (node, path, sink) = (self.node, self.path, self.sink);
            let result = visitor.visit_some(self);
            NodeDe::new(node, path, sink).settle(result, false)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        if !matches!(self.value(), Value::Null) {
            self.mismatch("nothing (an empty value)", None);
        }
        let result = visitor.visit_unit();
        self.settle(result, false)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        if name == LOCATED_MARKER {
            let mut access = LocatedAccess {
                node: self.node,
                path: self.path,
                sink: self.sink,
                absent: self.absent,
                step: 0,
            };
            let result = visitor.visit_map(&mut access);
            return self.settle(result, false);
        }
        let (node, path, sink, absent) = (self.node, self.path, self.sink, self.absent);
        let result = visitor.visit_newtype_struct(self);
        NodeDe {
            node,
            path,
            sink,
            absent,
        }
        .settle(result, false)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.seq(visitor, "a list")
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        let expected = format!("a list of {len} items");
        self.seq(visitor, &expected)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.map(visitor, None)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.map(visitor, Some(fields))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        // The variant's name node and its content, if written as `{variant: content}`.
        let (name_node, content): (&Node, Option<&Node>) = match self.value() {
            Value::Map(entries) if entries.len() == 1 => match entries.first() {
                Some((key, value)) => (key, Some(value)),
                None => (self.node, None),
            },
            Value::Map(_) => {
                self.mismatch(
                    &format!(
                        "one of: {}, or a mapping with exactly one key naming one",
                        one_of(variants)
                    ),
                    None,
                );
                return self.placeholder_variant(variants, visitor);
            }
            Value::Seq(_) | Value::Null | Value::Float(_) => {
                self.mismatch(&format!("one of: {}", one_of(variants)), None);
                return self.placeholder_variant(variants, visitor);
            }
            _ => (self.node, None),
        };
        let name = match &name_node.value {
            Value::Str(s) => Cow::Borrowed(s.as_str()),
            Value::Int(_) | Value::Bool(_) => Cow::Owned(name_node.key_text()),
            _ => {
                self.mismatch(&format!("one of: {}", one_of(variants)), None);
                return self.placeholder_variant(variants, visitor);
            }
        };
        let Some(variant) = variants.iter().copied().find(|v| *v == name) else {
            self.report_at(
                &name_node.location,
                self.path.prefix(&format!(
                    "unknown value {}; expected one of: {}",
                    quote(&name),
                    one_of(variants)
                )),
                suggestion(&name, variants),
            );
            return self.placeholder_variant(variants, visitor);
        };
        let access = EnumDe {
            de: &self,
            variant,
            content,
        };
        let result = visitor.visit_enum(access);
        self.settle(result, false)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let found = match self.value() {
            Value::Str(s) => Some(Cow::Borrowed(s.as_str())),
            Value::Int(_) | Value::Bool(_) => Some(Cow::Owned(self.node.key_text())),
            _ => {
                self.mismatch("a name", None);
                None
            }
        };
        let result = visitor.visit_str(found.as_deref().unwrap_or(""));
        self.settle(result, found.is_none())
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let result = visitor.visit_unit();
        self.settle(result, false)
    }
}

impl NodeDe<'_, '_> {
    /// Continues with the first variant after an unknown or malformed enum value.
    fn placeholder_variant<'de, V: Visitor<'de>>(
        self,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        let Some(&variant) = variants.first() else {
            self.poison();
            return Err(DecodeError::Reported);
        };
        let placeholder = NodeDe {
            absent: true,
            ..NodeDe::new(self.node, self.path, self.sink)
        };
        let access = EnumDe {
            de: &placeholder,
            variant,
            content: None,
        };
        let result = visitor.visit_enum(access);
        self.settle(result, true)
    }
}

/// Deserializes `node` with `seed`, settling an error at `node` (see [`NodeDe::finish`]).
///
/// With `climb`, a failure that set nothing new aside (it repeats a problem reported in an
/// earlier pass) sets `node` itself aside, so that the next pass leaves out a larger part
/// and gets further. Lists and mappings climb: they can leave an item or entry out.
fn deserialize_child<'de, S: DeserializeSeed<'de>>(
    seed: S,
    node: &Node,
    path: Path<'_>,
    sink: &Sink,
    absent: bool,
    climb: bool,
) -> Result<S::Value, DecodeError> {
    let before = poison_count(sink);
    let de = NodeDe {
        node,
        path,
        sink,
        absent,
    };
    match seed.deserialize(de) {
        Ok(value) => Ok(value),
        Err(err) => {
            let here = NodeDe {
                node,
                path,
                sink,
                absent,
            };
            let _ = here.settle::<()>(Err(err), false);
            if climb
                && poison_count(sink) == before
                && let Ok(mut session) = sink.try_borrow_mut()
            {
                session.poison(node);
            }
            Err(DecodeError::Reported)
        }
    }
}

/// The items of a list, skipping those set aside by earlier passes.
struct SeqDe<'a, 'p> {
    items: &'a [Node],
    index: usize,
    path: Path<'p>,
    sink: &'a Sink,
    /// Set when an item failed and the list was cut short there.
    truncated: bool,
}

impl<'a, 'p> SeqDe<'a, 'p> {
    const fn new(items: &'a [Node], path: Path<'p>, sink: &'a Sink) -> Self {
        Self {
            items,
            index: 0,
            path,
            sink,
            truncated: false,
        }
    }
}

impl<'de> SeqAccess<'de> for SeqDe<'_, '_> {
    type Error = DecodeError;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, DecodeError> {
        while let Some(item) = self.items.get(self.index) {
            let index = self.index;
            self.index += 1;
            if is_poisoned(self.sink, item) {
                continue;
            }
            let path = Path::Index(&self.path, index);
            if let Ok(value) = deserialize_child(seed, item, path, self.sink, false, true) {
                return Ok(Some(value));
            }
            // The problem is reported and the item set aside for the next pass; end the
            // list here so the rest of the file is still checked in this pass.
            self.truncated = true;
            self.index = self.items.len();
            return Ok(None);
        }
        Ok(None)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len().saturating_sub(self.index))
    }
}

/// The entries of a mapping. With `fields` (a struct), other keys are reported and skipped.
struct MapDe<'a, 'p> {
    entries: &'a [(Node, Node)],
    index: usize,
    path: Path<'p>,
    sink: &'a Sink,
    fields: Option<&'static [&'static str]>,
    /// The entry whose key was handed out last.
    pending: Option<&'a (Node, Node)>,
    /// Struct keys left out because their value failed in an earlier pass.
    skipped: Vec<&'a str>,
}

impl<'de> MapAccess<'de> for MapDe<'_, '_> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DecodeError> {
        while let Some(entry) = self.entries.get(self.index) {
            self.index += 1;
            let (key, value) = entry;
            if is_poisoned(self.sink, value) || is_poisoned(self.sink, key) {
                if let Value::Str(name) = &key.value {
                    self.skipped.push(name);
                }
                continue;
            }
            if let Some(fields) = self.fields {
                let name = key.key_text();
                if !fields.contains(&name.as_str()) {
                    self.unknown_key(key, &name, fields);
                    continue;
                }
            }
            self.pending = Some(entry);
            return deserialize_child(seed, key, self.path, self.sink, false, true).map(Some);
        }
        Ok(None)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, DecodeError> {
        let Some((key, value)) = self.pending.take() else {
            return Err(DecodeError::fresh(
                "a value was asked for before its key".to_string(),
            ));
        };
        let key_text: Cow<'_, str> = match &key.value {
            Value::Str(s) => Cow::Borrowed(s),
            _ => Cow::Owned(key.key_text()),
        };
        let path = Path::Key(&self.path, &key_text);
        deserialize_child(seed, value, path, self.sink, false, true)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len().saturating_sub(self.index))
    }
}

impl MapDe<'_, '_> {
    fn unknown_key(&self, key: &Node, name: &str, fields: &'static [&'static str]) {
        let message = format!(
            "unknown key {} {}; expected one of: {}",
            quote(name),
            self.path.place(),
            one_of(fields)
        );
        if let Ok(mut session) = self.sink.try_borrow_mut() {
            session.record(with_help(
                Diagnostic::new(key.location.clone(), message),
                suggestion(name, fields),
            ));
        }
    }
}

/// An enum value: its variant name and, if written as `{variant: content}`, the content.
struct EnumDe<'d, 'a, 'p> {
    de: &'d NodeDe<'a, 'p>,
    variant: &'static str,
    content: Option<&'a Node>,
}

impl<'a> EnumDe<'_, 'a, '_> {
    /// The deserializer of the content (or of "nothing" at the value, when there is none).
    fn content_de<'b>(&'b self, path: Path<'b>) -> NodeDe<'a, 'b> {
        match self.content {
            Some(node) => NodeDe::new(node, path, self.de.sink),
            None => NodeDe {
                absent: true,
                ..NodeDe::new(self.de.node, path, self.de.sink)
            },
        }
    }
}

impl<'de> EnumAccess<'de> for EnumDe<'_, '_, '_> {
    type Error = DecodeError;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self), DecodeError> {
        let name: StrDeserializer<'_, DecodeError> = self.variant.into_deserializer();
        let value = seed.deserialize(name)?;
        Ok((value, self))
    }
}

impl<'de> VariantAccess<'de> for EnumDe<'_, '_, '_> {
    type Error = DecodeError;

    fn unit_variant(self) -> Result<(), DecodeError> {
        if let Some(content) = self.content
            && !content.is_null()
        {
            let path = Path::Key(&self.de.path, self.variant);
            let de = NodeDe::new(content, path, self.de.sink);
            de.report(
                &format!(
                    "`{}` takes no value, found {}",
                    self.variant,
                    content.describe()
                ),
                Some(format!("write just `{}`", self.variant)),
            );
        }
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<S::Value, DecodeError> {
        let path = Path::Key(&self.de.path, self.variant);
        match self.content {
            Some(node) => deserialize_child(seed, node, path, self.de.sink, false, false),
            None => deserialize_child(seed, self.de.node, path, self.de.sink, true, false),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        let path = Path::Key(&self.de.path, self.variant);
        self.content_de(path).deserialize_tuple(len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        let path = Path::Key(&self.de.path, self.variant);
        self.content_de(path)
            .deserialize_struct(self.variant, fields, visitor)
    }
}

/// The private newtype name [`Located`] asks for; [`decode`] answers it with the location.
const LOCATED_MARKER: &str = "__grognard_private_located";
/// The key under which [`decode`] hands a [`Located`] its location.
const LOCATION_KEY: &str = "__grognard_private_location";

/// Hands a [`Located`] visitor the node's location, then the node itself.
struct LocatedAccess<'a, 'p> {
    node: &'a Node,
    path: Path<'p>,
    sink: &'a Sink,
    absent: bool,
    step: u8,
}

impl<'de> MapAccess<'de> for LocatedAccess<'_, '_> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DecodeError> {
        let key = match self.step {
            0 => LOCATION_KEY,
            1 => "value",
            _ => return Ok(None),
        };
        let key: StrDeserializer<'_, DecodeError> = key.into_deserializer();
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, DecodeError> {
        self.step += 1;
        if self.step == 1 {
            let location = &self.node.location;
            let text = format!("{}:{}:{}", location.line, location.col, location.file);
            seed.deserialize(text.into_deserializer())
        } else {
            deserialize_child(seed, self.node, self.path, self.sink, self.absent, false)
        }
    }
}

/// A value together with where it was written.
///
/// Decoded through [`decode`], `location` is the `file:line:col` of the value's node, so
/// checks run after decoding (a unit type that does not exist, a chart row out of order)
/// can still point at the file. Decoded by any other deserializer (`serde_json`, ...), the
/// value is read as a plain `T` and the location is unknown (empty file name, line 0).
///
/// Serializes exactly as `T`. Compares, orders and hashes by value alone: the location is
/// a note about the value, not part of it.
///
/// ```
/// use serde::Deserialize;
/// use grognard_rules::{de::{decode, Located}, yaml::{parse, Limits}};
///
/// #[derive(Deserialize)]
/// struct Unit { kind: Located<String> }
///
/// let root = parse("oob.yaml", b"kind:   grenadiers\n", &Limits::default()).unwrap();
/// let unit: Unit = decode(&root).unwrap();
/// assert_eq!(unit.kind.value, "grenadiers");
/// assert_eq!(unit.kind.location.to_string(), "oob.yaml:1:9");
///
/// let plain: Located<u32> = serde_json::from_str("5").unwrap();
/// assert_eq!(*plain, 5);
/// assert!(!plain.location.is_known());
/// assert_eq!(serde_json::to_string(&plain).unwrap(), "5");
/// ```
#[derive(Clone, Debug)]
pub struct Located<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub location: Location,
}

impl<T> Located<T> {
    /// `value` written at `location`.
    #[must_use]
    pub const fn new(value: T, location: Location) -> Self {
        Self { value, location }
    }

    /// The value, without its location.
    #[must_use]
    pub fn into_inner(self) -> T {
        self.value
    }

    /// The same location with the value transformed.
    #[must_use]
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Located<U> {
        Located {
            value: f(self.value),
            location: self.location,
        }
    }
}

/// A located value has the schema of its value: the location is not part of the file.
impl<T: schemars::JsonSchema> schemars::JsonSchema for Located<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

impl<T: Default> Default for Located<T> {
    /// The default value at an unknown location.
    fn default() -> Self {
        Self::new(T::default(), Location::unknown(""))
    }
}

impl<T> Deref for Located<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: PartialEq> PartialEq for Located<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Eq> Eq for Located<T> {}

impl<T: PartialOrd> PartialOrd for Located<T> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        self.value.partial_cmp(&other.value)
    }
}

impl<T: Ord> Ord for Located<T> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.value.cmp(&other.value)
    }
}

impl<T: core::hash::Hash> core::hash::Hash for Located<T> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.value.hash(state);
    }
}

impl<T: Serialize> Serialize for Located<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Located<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_newtype_struct(LOCATED_MARKER, LocatedVisitor(core::marker::PhantomData))
    }
}

struct LocatedVisitor<T>(core::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for LocatedVisitor<T> {
    type Value = Located<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Located<T>, D::Error> {
        T::deserialize(deserializer).map(|value| Located::new(value, Location::unknown("")))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Located<T>, A::Error> {
        let key: Option<String> = map.next_key()?;
        if key.as_deref() != Some(LOCATION_KEY) {
            return Err(de::Error::custom("expected a located value"));
        }
        let text: String = map.next_value()?;
        let location = parse_location(&text);
        let key: Option<String> = map.next_key()?;
        if key.as_deref() != Some("value") {
            return Err(de::Error::custom("expected a located value"));
        }
        let value: T = map.next_value()?;
        Ok(Located::new(value, location))
    }
}

/// Reads back the `line:col:file` text [`LocatedAccess`] hands out.
fn parse_location(text: &str) -> Location {
    let mut parts = text.splitn(3, ':');
    let line = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let col = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let file: Arc<str> = Arc::from(parts.next().unwrap_or(""));
    Location::new(file, line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_rendering() {
        let root = Path::Root;
        let charts = Path::Key(&root, "charts");
        let chart = Path::Key(&charts, "scout_fate");
        let rows = Path::Key(&chart, "rows");
        let row = Path::Index(&rows, 2);
        let score = Path::Key(&row, "score");
        assert_eq!(score.to_string(), "charts.scout_fate.rows[2].score");
        let odd = Path::Key(&charts, "light woods");
        assert_eq!(odd.to_string(), "charts[\"light woods\"]");
        let top = Path::Index(&root, 0);
        assert_eq!(top.to_string(), "[0]");
    }

    #[test]
    fn location_text_round_trips() {
        let loc = parse_location("3:7:c:/rules/a:b.yaml");
        assert_eq!(loc, Location::new("c:/rules/a:b.yaml", 3, 7));
    }
}
