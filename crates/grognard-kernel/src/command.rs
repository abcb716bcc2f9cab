//! A command radius as data: "a friendly piece of these types within this distance", which
//! chart inputs (`from: actor.friends_within`) and flags kept by a condition (`while: {
//! near: ... }`) read. It sits below both the charts and the compiled rules, which hold it;
//! `game/states.rs` measures it.

use serde::{Deserialize, Serialize};

use crate::cost::Cost;
use crate::ids::PieceTypeId;

/// "A friendly piece of one of `types` within `within`": rule inches edge to edge on an
/// open table, cells on a grid. The piece itself never counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Near {
    /// The friends' types (empty: any type).
    pub types: Vec<PieceTypeId>,
    /// How far: rule inches on an open table, whole cells on a grid.
    pub within: Cost,
}
