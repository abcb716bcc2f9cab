//! The file model of the conditions issue 36's second round added: a command radius
//! (`{ types: [general], within: 6 }`), flags the engine keeps while a condition holds
//! (`while: { counter: hits, at_least: 4 }`), and how a fall back that is blocked ends.

use serde::{Deserialize, Serialize};

use crate::de::Located;
use crate::number::CostValue;

/// "A friendly piece of one of `types` within `within`" (rule inches edge to edge on an
/// open table, cells on a grid): a general's command radius.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct NearSpec {
    /// The friends' piece types (any type when empty).
    pub types: Vec<Located<String>>,
    /// How far: rule inches on an open table, cells on a grid.
    pub within: Option<Located<CostValue>>,
}

/// When a flag holds: exactly one of a counter's level (`counter` with `at_least` and/or
/// `at_most`), `near` or `not_near`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct HoldsSpec {
    /// The piece's counter the flag follows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter: Option<Located<String>>,
    /// The flag holds while the counter is at least this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_least: Option<i32>,
    /// The flag holds while the counter is at most this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_most: Option<i32>,
    /// The flag holds while a friend of these types is this near (in command).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub near: Option<Located<NearSpec>>,
    /// The flag holds while no friend of these types is this near (out of command).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_near: Option<Located<NearSpec>>,
    /// The piece types the flag is kept on (every type when empty): a shaken level for
    /// foot only, out of command for all but the generals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<Located<String>>,
}

/// Something a piece carries: a counter at a level (`counter` with `at_least`, 1 when
/// absent) or a flag (`flag`). A sighting band's `not_when` names the cover a piece makes
/// itself (works it dug).
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct MarkSpec {
    /// The piece's counter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter: Option<Located<String>>,
    /// The counter's least value (1 when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_least: Option<i32>,
    /// The piece's flag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag: Option<Located<String>>,
}
