//! [`Located<T>`]: a decoded value with the file, line and column it came from, so the
//! validation pass can point at it. The decoder hands the location over through a private
//! newtype name and key.

use core::fmt;
use core::ops::Deref;
use std::sync::Arc;

use serde::de::value::StrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::diag::Location;
use crate::node::Node;

use super::{DecodeError, Path, Sink, deserialize_child};

/// The private newtype name [`Located`] asks for; [`decode`] answers it with the location.
pub(super) const LOCATED_MARKER: &str = "__grognard_private_located";
/// The key under which [`decode`] hands a [`Located`] its location.
pub(super) const LOCATION_KEY: &str = "__grognard_private_location";

/// Hands a [`Located`] visitor the node's location, then the node itself.
pub(super) struct LocatedAccess<'a, 'p> {
    pub(super) node: &'a Node,
    pub(super) path: Path<'p>,
    pub(super) sink: &'a Sink,
    pub(super) absent: bool,
    pub(super) step: u8,
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
/// Decoded through [`decode`](super::decode), `location` is the `file:line:col` of the value's node, so
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

pub(super) struct LocatedVisitor<T>(core::marker::PhantomData<T>);

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
pub(super) fn parse_location(text: &str) -> Location {
    let mut parts = text.splitn(3, ':');
    let line = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let col = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let file: Arc<str> = Arc::from(parts.next().unwrap_or(""));
    Location::new(file, line, col)
}
