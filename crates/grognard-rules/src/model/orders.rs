//! The orders file format: one order per entry, a side and exactly one action. See
//! "Orders files" in `docs/scenario-format.md`.
//!
//! An entry is read as [`OrderSpec`], a side beside one optional field per kind of order
//! (the file's shape: `{side: blue, move: {piece, path}}`); [`OrderSpec::kind`] turns it
//! into an [`OrderKind`], one variant per kind, or says that it names none or several. It
//! names every field of the entry, so a kind added to the entry does not compile until it
//! has its variant, and every `match` on the variant (resolving an order) until it has its
//! arm.
//!
//! Why the entry is not itself a serde enum: `side:` sits beside the kind's key in the same
//! mapping, and an externally tagged enum beside another field needs `#[serde(flatten)]`.
//! This crate's decoder reads a struct holding a flattened field as a plain map, so it
//! would no longer report a misspelt key in an order (`peice:`), and would give the values
//! inside the flattened enum no location (the *Limits* of de/mod.rs's `//!`): a bad
//! order would be reported at its entry, not at its line. And `end_phase: true` is a flag,
//! not the form of a unit variant. The struct keeps both the reports and the file's shape;
//! `OrderSpec::slots`, which names every field, keeps the enum exhaustive.

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

/// The kind of an orders-file entry, with what it says: the one kind field of an
/// [`OrderSpec`] that is set ([`OrderSpec::kind`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OrderKind<'a> {
    /// `move: {piece, path}`.
    Move(&'a MoveSpec),
    /// `move_to: {piece, to, facing}`.
    MoveTo(&'a MoveToSpec),
    /// `face: {piece, facing}`.
    Face(&'a FaceOrderSpec),
    /// `mode: {piece, mode}`.
    Mode(&'a ModeOrderSpec),
    /// `act: {piece, action, target, intent}`.
    Act(&'a ActSpec),
    /// `redeploy: {piece, to}`.
    Redeploy(&'a RedeploySpec),
    /// `save: {piece, toward}`.
    Save(&'a SaveSpec),
    /// `extend: {piece, to}`.
    Extend(&'a RedeploySpec),
    /// `gather: NAME`.
    Gather(&'a str),
    /// `deploy: {piece, at, facing}`.
    Deploy(&'a DeploySpec),
    /// `end_phase: true`.
    EndPhase,
}

/// An entry that names no kind of order, or more than one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotOneKind;

impl core::fmt::Display for NotOneKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let keys: Vec<String> = OrderSpec::default()
            .slots()
            .iter()
            .map(|(key, _)| format!("`{key}`"))
            .collect();
        write!(f, "each order needs exactly one of {}", keys.join(", "))
    }
}

impl std::error::Error for NotOneKind {}

impl OrderSpec {
    /// The order's kind: the one kind field that is set.
    ///
    /// # Errors
    /// [`NotOneKind`] when none is set or several are; its words list the kinds.
    pub fn kind(&self) -> Result<OrderKind<'_>, NotOneKind> {
        let mut set = self.slots().into_iter().filter_map(|(_, kind)| kind);
        match (set.next(), set.next()) {
            (Some(kind), None) => Ok(kind),
            _ => Err(NotOneKind),
        }
    }

    /// Each kind's key, as the file writes it, and its variant when the entry sets it. The
    /// pattern names every field (no `..`): a field added to the entry is a compile error
    /// here until it has its slot.
    fn slots(&self) -> [(&'static str, Option<OrderKind<'_>>); 11] {
        let Self {
            side: _,
            r#move,
            move_to,
            face,
            mode,
            act,
            end_phase,
            redeploy,
            save,
            extend,
            gather,
            deploy,
        } = self;
        [
            ("move", r#move.as_ref().map(OrderKind::Move)),
            ("move_to", move_to.as_ref().map(OrderKind::MoveTo)),
            ("face", face.as_ref().map(OrderKind::Face)),
            ("mode", mode.as_ref().map(OrderKind::Mode)),
            ("act", act.as_ref().map(OrderKind::Act)),
            ("redeploy", redeploy.as_ref().map(OrderKind::Redeploy)),
            ("save", save.as_ref().map(OrderKind::Save)),
            ("extend", extend.as_ref().map(OrderKind::Extend)),
            ("gather", gather.as_deref().map(OrderKind::Gather)),
            ("deploy", deploy.as_ref().map(OrderKind::Deploy)),
            ("end_phase: true", end_phase.then_some(OrderKind::EndPhase)),
        ]
    }
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
