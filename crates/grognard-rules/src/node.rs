//! A located YAML tree: every value knows the `file:line:col` it came from.
//!
//! [`crate::yaml::parse`] builds a [`Node`] tree; [`crate::de::decode`] turns it into typed
//! model structs. Keeping the tree (rather than decoding straight from text) lets overlays
//! merge trees before decoding and lets every later check point back at the file.
//!
//! Mappings keep file order and their keys are nodes too, so an unknown key is reported at
//! the key itself.
//!
//! ```
//! use grognard_rules::yaml::{parse, Limits};
//! let root = parse("rules.yaml", b"name: Borodino\nturns: 12\n", &Limits::default()).unwrap();
//! let turns = root.get("turns").unwrap();
//! assert_eq!(turns.as_i64(), Some(12));
//! assert_eq!((turns.location.line, turns.location.col), (2, 8));
//! assert_eq!(root.kind_name(), "a mapping");
//! ```

use crate::diag::{Diagnostic, Location, quote};

/// One YAML value with the place it was written.
///
/// Values that came through an alias (`*name`) carry the location of the anchored original,
/// which is where the text that needs fixing is.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// Where it was written.
    pub location: Location,
}

/// A YAML value (YAML 1.2 core schema, as `serde-saphyr` resolves it with grognard's
/// options: `yes`/`no`/`on`/`off` are text, `0812` is text, `.nan` and `.inf` are text).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `~`, `null`, or nothing at all (`key:` with no value, an empty file).
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A whole number that fits in `i64`.
    Int(i64),
    /// Any other number (including whole numbers beyond the range of `i64`). Always finite.
    Float(f64),
    /// Text.
    Str(String),
    /// A list.
    Seq(Vec<Node>),
    /// A mapping, in file order. Keys are unique (duplicates are refused when parsing).
    Map(Vec<(Node, Node)>),
}

impl Value {
    /// What kind of value this is, for messages: "a mapping", "a list", "text",
    /// "a whole number", "a decimal number", "true or false", "nothing".
    ///
    /// ```
    /// use grognard_rules::node::Value;
    /// assert_eq!(Value::Int(3).kind_name(), "a whole number");
    /// assert_eq!(Value::Seq(vec![]).kind_name(), "a list");
    /// ```
    #[must_use]
    pub const fn kind_name(&self) -> &'static str {
        match self {
            Self::Null => "nothing",
            Self::Bool(_) => "true or false",
            Self::Int(_) => "a whole number",
            Self::Float(_) => "a decimal number",
            Self::Str(_) => "text",
            Self::Seq(_) => "a list",
            Self::Map(_) => "a mapping",
        }
    }

    /// The value as a message shows what was found: "the text `abc`", "the whole number 12",
    /// "a list", "nothing (an empty value)".
    ///
    /// ```
    /// use grognard_rules::node::Value;
    /// assert_eq!(Value::Str("abc".into()).describe(), "the text `abc`");
    /// assert_eq!(Value::Int(12).describe(), "the whole number 12");
    /// assert_eq!(Value::Bool(true).describe(), "`true`");
    /// ```
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Self::Null => "nothing (an empty value)".to_string(),
            Self::Bool(b) => format!("`{b}`"),
            Self::Int(i) => format!("the whole number {i}"),
            Self::Float(x) => format!("the decimal number {}", grognard_kernel::text::number(*x)),
            Self::Str(s) if s.is_empty() => "empty text".to_string(),
            Self::Str(s) => format!("the text {}", quote(s)),
            Self::Seq(items) if items.is_empty() => "an empty list".to_string(),
            Self::Seq(_) => "a list".to_string(),
            Self::Map(entries) if entries.is_empty() => "an empty mapping".to_string(),
            Self::Map(_) => "a mapping".to_string(),
        }
    }
}

impl Node {
    /// A node holding `value` at `location`.
    #[must_use]
    pub const fn new(value: Value, location: Location) -> Self {
        Self { value, location }
    }

    /// The value of `key` when this node is a mapping with a text key `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|(_, value)| value)
    }

    /// The key node and the value node of `key` in a mapping.
    #[must_use]
    pub fn entry(&self, key: &str) -> Option<(&Node, &Node)> {
        match &self.value {
            Value::Map(entries) => entries
                .iter()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(k, v)| (k, v)),
            _ => None,
        }
    }

    /// The text, when this node is text.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The number, when this node is a whole number.
    #[must_use]
    pub const fn as_i64(&self) -> Option<i64> {
        match self.value {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The number, when this node is any number.
    #[must_use]
    pub fn as_f64(&self) -> Option<f64> {
        match self.value {
            // Whole numbers in files are small; the nearest f64 is what a reader expects.
            #[allow(clippy::cast_precision_loss)]
            Value::Int(i) => Some(i as f64),
            Value::Float(x) => Some(x),
            _ => None,
        }
    }

    /// The flag, when this node is `true` or `false`.
    #[must_use]
    pub const fn as_bool(&self) -> Option<bool> {
        match self.value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The items, when this node is a list.
    #[must_use]
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// The entries, when this node is a mapping.
    #[must_use]
    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// True for `~`, `null` and empty values.
    #[must_use]
    pub const fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    /// See [`Value::kind_name`].
    #[must_use]
    pub const fn kind_name(&self) -> &'static str {
        self.value.kind_name()
    }

    /// See [`Value::describe`].
    #[must_use]
    pub fn describe(&self) -> String {
        self.value.describe()
    }

    /// The tree as JSON (for `--json` output and for tools). Mapping keys that are not text
    /// become their YAML spelling (`1`, `true`, `null`); list or mapping keys become their
    /// JSON text. Object keys come out in `serde_json`'s order (sorted, unless its
    /// `preserve_order` feature is on).
    ///
    /// ```
    /// use grognard_rules::yaml::{parse, Limits};
    /// let root = parse("a.yaml", b"a: [1, 1.5, x, ~]\n2: true\n", &Limits::default()).unwrap();
    /// assert_eq!(root.to_json()["a"].to_string(), r#"[1,1.5,"x",null]"#);
    /// assert_eq!(root.to_json()["2"], serde_json::Value::Bool(true));
    /// ```
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match &self.value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::Float(x) => serde_json::Number::from_f64(*x).map_or(J::Null, J::Number),
            Value::Str(s) => J::String(s.clone()),
            Value::Seq(items) => J::Array(items.iter().map(Self::to_json).collect()),
            Value::Map(entries) => J::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.key_text(), v.to_json()))
                    .collect(),
            ),
        }
    }

    /// The text a key stands for: text as is, scalars in their YAML spelling, containers as
    /// JSON.
    #[must_use]
    pub fn key_text(&self) -> String {
        match &self.value {
            Value::Str(s) => s.clone(),
            Value::Null => "null".to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(x) => x.to_string(),
            Value::Seq(_) | Value::Map(_) => self.to_json().to_string(),
        }
    }

    /// The first mapping, in file order, that holds the same key twice: a diagnostic at the
    /// second occurrence naming the first.
    pub(crate) fn find_duplicate_key(&self) -> Option<Diagnostic> {
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            match &node.value {
                Value::Seq(items) => stack.extend(items.iter().rev()),
                Value::Map(entries) => {
                    let mut seen: std::collections::HashMap<KeyId<'_>, &Location> =
                        std::collections::HashMap::with_capacity(entries.len());
                    for (key, _) in entries {
                        if let Some(first) = seen.insert(KeyId::of(key), &key.location) {
                            return Some(duplicate_key(key, first));
                        }
                    }
                    // Depth-first in file order: push the values in reverse.
                    for (key, value) in entries.iter().rev() {
                        stack.push(value);
                        stack.push(key);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

fn duplicate_key(key: &Node, first: &Location) -> Diagnostic {
    let first_at = if first.file == key.location.file {
        format!("line {}, column {}", first.line, first.col)
    } else {
        first.to_string()
    };
    Diagnostic::new(
        key.location.clone(),
        format!(
            "duplicate key {}: it is already given at {first_at}; a key may appear only once in a mapping",
            quote(&key.key_text())
        ),
    )
    .with_help("remove one of the two, or merge them")
}

/// Identity of a key for duplicate detection: `1` and `"1"` are different keys, as in YAML.
#[derive(PartialEq, Eq, Hash)]
enum KeyId<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(&'a str),
    Complex(String),
}

impl<'a> KeyId<'a> {
    fn of(node: &'a Node) -> Self {
        match &node.value {
            Value::Null => Self::Null,
            Value::Bool(b) => Self::Bool(*b),
            Value::Int(i) => Self::Int(*i),
            Value::Float(x) => Self::Float(x.to_bits()),
            Value::Str(s) => Self::Str(s),
            Value::Seq(_) | Value::Map(_) => Self::Complex(node.to_json().to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32, col: u32) -> Location {
        Location::new("t.yaml", line, col)
    }

    fn s(text: &str, line: u32, col: u32) -> Node {
        Node::new(Value::Str(text.into()), at(line, col))
    }

    #[test]
    fn duplicate_keys_name_both_places() {
        let inner = Node::new(
            Value::Map(vec![
                (s("a", 2, 3), Node::new(Value::Int(1), at(2, 6))),
                (s("a", 3, 3), Node::new(Value::Int(2), at(3, 6))),
            ]),
            at(2, 3),
        );
        let root = Node::new(Value::Map(vec![(s("outer", 1, 1), inner)]), at(1, 1));
        let d = root.find_duplicate_key().unwrap();
        assert_eq!(
            d.to_string(),
            "t.yaml:3:3: duplicate key `a`: it is already given at line 2, column 3; a key may \
             appear only once in a mapping\n  help: remove one of the two, or merge them"
        );
    }

    #[test]
    fn int_and_text_keys_differ() {
        let root = Node::new(
            Value::Map(vec![
                (
                    Node::new(Value::Int(1), at(1, 1)),
                    Node::new(Value::Null, at(1, 3)),
                ),
                (s("1", 2, 1), Node::new(Value::Null, at(2, 5))),
            ]),
            at(1, 1),
        );
        assert!(root.find_duplicate_key().is_none());
    }
}
