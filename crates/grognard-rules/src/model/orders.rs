//! The orders file format: one order per entry, a side and exactly one action. See
//! "Orders files" in `docs/scenario-format.md`.

use serde::{Deserialize, Serialize};

use crate::de::Located;

/// An orders file.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct OrdersSpec {
    /// Orders in sequence.
    pub orders: Vec<Located<OrderSpec>>,
}

/// One order: a side and exactly one action.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct OrderSpec {
    /// Who gives it.
    pub side: String,
    /// Move a piece along a path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#move: Option<MoveSpec>,
    /// Move a piece to a point of an open table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_to: Option<MoveToSpec>,
    /// Turn a piece.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face: Option<FaceOrderSpec>,
    /// Change a piece's mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<ModeOrderSpec>,
    /// A ruleset action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub act: Option<ActSpec>,
    /// End the phase.
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub end_phase: bool,
    /// Lift a dummy and put it down elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redeploy: Option<RedeploySpec>,
    /// Stand still and save movement points toward a cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save: Option<SaveSpec>,
    /// Spread a command into one more cell (`{piece, to}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extend: Option<RedeploySpec>,
    /// Gather a spread command (its name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gather: Option<String>,
    /// Place a piece during the set-up (`{piece, at, facing}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deploy: Option<DeploySpec>,
}

/// `deploy: {piece, at, facing}`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct DeploySpec {
    /// The piece.
    pub piece: String,
    /// The cell it is placed in, `[column, row]`.
    pub at: [i32; 2],
    /// Its facing there (direction name or number); the one its order of battle gives
    /// when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facing: Option<String>,
}

/// `redeploy: {piece, to}`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct RedeploySpec {
    /// The dummy.
    pub piece: String,
    /// The cell it is put down in.
    pub to: [i32; 2],
}

/// `move: {piece, path}`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct MoveSpec {
    /// Piece id.
    pub piece: String,
    /// Cells entered.
    pub path: Vec<[i32; 2]>,
}

/// `move_to: {piece, to, facing}`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct MoveToSpec {
    /// Piece id.
    pub piece: String,
    /// Destination in inches.
    pub to: [f64; 2],
    /// Facing in degrees at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facing: Option<f64>,
}

/// `face: {piece, facing}`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct FaceOrderSpec {
    /// Piece id.
    pub piece: String,
    /// Direction name or number.
    pub facing: String,
}

/// `mode: {piece, mode}`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ModeOrderSpec {
    /// Piece id.
    pub piece: String,
    /// New mode.
    pub mode: String,
}

/// `act: {piece, action, target}`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ActSpec {
    /// Acting piece id.
    pub piece: String,
    /// Action name.
    pub action: String,
    /// Target piece id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// What the action is for, from the action's `intents`: `intent: [charge]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub intent: Vec<String>,
}

/// `save: {piece, toward}`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SaveSpec {
    /// The piece.
    pub piece: String,
    /// The neighbouring cell it saves to enter.
    pub toward: [i32; 2],
}
