//! Mappings whose keys are names: kept in file order, each key with its location, so ids
//! follow the order people wrote things in and errors can point at the key.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::de::Located;

/// One entry of a [`NamedMap`].
#[derive(Clone, Debug, PartialEq)]
pub struct Named<T> {
    /// The key, with where it was written.
    pub name: Located<String>,
    /// The value.
    pub value: T,
}

/// A YAML mapping from names to `T`, in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedMap<T>(pub Vec<Named<T>>);

impl<T> Default for NamedMap<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<T> NamedMap<T> {
    /// Entries in order.
    pub fn iter(&self) -> impl Iterator<Item = &Named<T>> {
        self.0.iter()
    }

    /// The index of `name`.
    #[must_use]
    pub fn position(&self, name: &str) -> Option<usize> {
        self.0.iter().position(|n| n.name.value == name)
    }

    /// The value for `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&T> {
        self.0
            .iter()
            .find(|n| n.name.value == name)
            .map(|n| &n.value)
    }

    /// Names in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|n| n.name.value.as_str())
    }

    /// Number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A mapping from names to `T` (an empty value, `~`, reads as an empty mapping).
impl<T: schemars::JsonSchema> schemars::JsonSchema for NamedMap<T> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("NamedMap_of_{}", T::schema_name()).into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": ["object", "null"],
            "additionalProperties": generator.subschema_for::<T>(),
        })
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for NamedMap<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = NamedMap<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping of names")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(name) = map.next_key::<Located<String>>()? {
                    let value = map.next_value::<T>()?;
                    out.push(Named { name, value });
                }
                Ok(NamedMap(out))
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(NamedMap(Vec::new()))
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}

impl<T: Serialize> Serialize for NamedMap<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for n in &self.0 {
            m.serialize_entry(&n.name.value, &n.value)?;
        }
        m.end()
    }
}
