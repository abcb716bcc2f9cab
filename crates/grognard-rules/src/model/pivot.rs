//! A piece type's pivot on the open table (`open_table.pivots`): `wheel`, `free` or a cost,
//! for all its modes or per mode. Read by hand rather than as an untagged enum, so each
//! mode keeps the location of its key.

use serde::{Deserialize, Serialize};

use super::Text;
use crate::named::NamedMap;

/// A piece type's pivot: one for all its modes, or one per mode.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum PivotSpec {
    /// `wheel`, `free` or a cost in rule inches, in every mode.
    All(Text),
    /// Per mode, each mode's name with where it was written.
    #[serde(serialize_with = "by_mode_name")]
    Modes(#[schemars(with = "std::collections::BTreeMap<String, Text>")] NamedMap<Text>),
}

/// The modes sorted by name, last entry of a name winning, as they were written when this
/// was a `BTreeMap`: the ruleset's identity hash is of this form.
fn by_mode_name<S: serde::Serializer>(modes: &NamedMap<Text>, s: S) -> Result<S::Ok, S::Error> {
    let sorted: std::collections::BTreeMap<&str, &Text> = modes
        .iter()
        .map(|m| (m.name.value.as_str(), &m.value))
        .collect();
    sorted.serialize(s)
}

/// Read by hand, not as `#[serde(untagged)]`: the decoder buffers an untagged value, which
/// loses the modes' locations (de/mod.rs, "Limits"), and an unknown mode is reported at its
/// key.
impl<'de> Deserialize<'de> for PivotSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = PivotSpec;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("`wheel`, `free`, a cost, or a mapping of modes to those")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<PivotSpec, E> {
                Ok(PivotSpec::All(Text(v.to_owned())))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<PivotSpec, E> {
                Ok(PivotSpec::All(Text(v.to_string())))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<PivotSpec, E> {
                Ok(PivotSpec::All(Text(v.to_string())))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<PivotSpec, E> {
                Ok(PivotSpec::All(Text(grognard_kernel::text::number(v))))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<PivotSpec, A::Error> {
                let modes = serde::de::value::MapAccessDeserializer::new(map);
                NamedMap::deserialize(modes).map(PivotSpec::Modes)
            }
        }
        d.deserialize_any(V)
    }
}
