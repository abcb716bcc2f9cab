//! The serde deserializer for one node of the located tree: scalars, lists, maps and enums,
//! reading numbers, booleans and strings the way ruleset authors write them, and setting
//! aside the nodes that failed so one pass reports every problem.

use std::borrow::Cow;

use serde::de::{DeserializeSeed, Deserializer, Visitor};

use crate::diag::{Diagnostic, Location, quote};
use crate::node::{Node, Value};

use super::{
    DecodeError, EnumDe, LOCATED_MARKER, LocatedAccess, MapDe, Path, SeqDe, Sink, one_of,
    poison_count, suggestion, with_help,
};

pub(super) static NULL: Value = Value::Null;

/// The serde deserializer for one node.
pub(super) struct NodeDe<'a, 'p> {
    pub(super) node: &'a Node,
    pub(super) path: Path<'p>,
    pub(super) sink: &'a Sink,
    /// Read as "nothing" (an enum variant written without the value it needs), while
    /// reporting at `node`.
    pub(super) absent: bool,
}

impl<'a, 'p> NodeDe<'a, 'p> {
    pub(super) const fn new(node: &'a Node, path: Path<'p>, sink: &'a Sink) -> Self {
        Self {
            node,
            path,
            sink,
            absent: false,
        }
    }

    pub(super) fn value(&self) -> &'a Value {
        if self.absent { &NULL } else { &self.node.value }
    }

    pub(super) fn report_at(&self, location: &Location, message: String, help: Option<String>) {
        if let Ok(mut session) = self.sink.try_borrow_mut() {
            session.record(with_help(Diagnostic::new(location.clone(), message), help));
        }
    }

    /// Reports `message` (prefixed with the path) at this node.
    pub(super) fn report(&self, message: &str, help: Option<String>) {
        self.report_at(&self.node.location, self.path.prefix(message), help);
    }

    pub(super) fn describe(&self) -> String {
        if self.absent {
            "nothing".to_string()
        } else {
            self.node.describe()
        }
    }

    /// Reports "expected `expected`, found ...".
    pub(super) fn mismatch(&self, expected: &str, help: Option<String>) {
        self.report(
            &format!("expected {expected}, found {}", self.describe()),
            help,
        );
    }

    pub(super) fn poison(&self) {
        if let Ok(mut session) = self.sink.try_borrow_mut() {
            session.poison(self.node);
        }
    }

    /// Settles the visitor's result for this node. A fresh error is reported here (unless
    /// it is a consequence of a placeholder or of a left-out value: `consequential`) and
    /// the node is set aside for the next pass.
    pub(super) fn finish<T>(
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
    pub(super) fn settle<T>(
        &self,
        result: Result<T, DecodeError>,
        tainted: bool,
    ) -> Result<T, DecodeError> {
        self.finish(result, |_| tainted)
    }

    /// A whole number in `min..=max`, or `None` after reporting why not.
    pub(super) fn whole_number(&self, min: i128, max: i128) -> Option<i128> {
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

    pub(super) fn number(&self) -> Option<f64> {
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
    pub(super) fn text(&self) -> Option<Cow<'a, str>> {
        match self.value() {
            Value::Str(s) => Some(Cow::Borrowed(s)),
            Value::Int(i) => Some(Cow::Owned(i.to_string())),
            Value::Bool(b) => Some(Cow::Owned(b.to_string())),
            Value::Float(x) => {
                self.mismatch(
                    "text",
                    Some(format!(
                        "put the number in quotes: \"{}\"",
                        grognard_kernel::text::number(*x)
                    )),
                );
                None
            }
            // `- Rule: melee hurts on 5+`: the `: ` made the text a mapping of one entry.
            Value::Map(entries) if entries.len() == 1 => {
                let (k, v) = &entries[0];
                let value = match &v.value {
                    Value::Str(t) => t.clone(),
                    Value::Null => String::new(),
                    other => other.kind_name().to_owned(),
                };
                let whole = format!("{}: {value}", k.key_text());
                self.mismatch(
                    "text",
                    Some(format!(
                        "the `: ` in the text makes YAML read `{}` as a key: put the whole text in quotes, \"{}\"",
                        k.key_text(),
                        whole.trim_end().replace('"', "\\\"")
                    )),
                );
                None
            }
            _ => {
                self.mismatch("text", None);
                None
            }
        }
    }

    /// Reads the node as a list.
    pub(super) fn seq<'de, V: Visitor<'de>>(
        self,
        visitor: V,
        expected: &str,
    ) -> Result<V::Value, DecodeError> {
        let items: &[Node] = match self.value() {
            Value::Seq(items) => items,
            Value::Null => &[],
            _ => {
                let help = match self.value() {
                    // `-a` with no space after the dash is text, not a list item.
                    Value::Str(s) if s.starts_with('-') && !s.starts_with("- ") => Some(
                        "put a space after each `-` that starts a list item (`- a`, not `-a`)"
                            .to_string(),
                    ),
                    Value::Str(_) | Value::Int(_) | Value::Float(_) => {
                        Some("write a list as `[a, b]`, or one `- item` per line".to_string())
                    }
                    _ => None,
                };
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
    pub(super) fn map<'de, V: Visitor<'de>>(
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
    pub(super) fn placeholder_variant<'de, V: Visitor<'de>>(
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
pub(super) fn deserialize_child<'de, S: DeserializeSeed<'de>>(
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
