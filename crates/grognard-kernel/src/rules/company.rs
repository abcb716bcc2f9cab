//! The data a piece type declares about company on the move (passing, joining, leaving
//! the board, the flags a move leaves) and the board-wide half-hex rules, as the compiled
//! rules hold them. The rules that read them live in `crate::company`; this module imports
//! nothing above the ids.

use serde::{Deserialize, Serialize};

use crate::ids::{FlagId, PieceTypeId, TerrainId};

/// Which baseline a piece may leave the board by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExitEdge {
    /// Its own side's baseline (a leader saving his skin).
    Own,
    /// Another side's baseline (units breaking through, where a scenario allows it).
    Enemy,
    /// Any side's baseline.
    Any,
}

/// Leaving the board: by which baseline, under which optional rule, and the flag it leaves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExitRule {
    /// Which baseline.
    pub edge: ExitEdge,
    /// Only while this optional rule (by option index) is in force.
    pub option: Option<usize>,
    /// Flag set on the piece as it leaves (`escaped`), so charts and hooks can tell a piece
    /// that left from one that was removed.
    pub marks: Option<FlagId>,
}

/// A flag a move sets on the mover when it went far enough, or ended in some terrain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AfterMove {
    /// Fewest cells entered for the rule to apply (0 = any move).
    pub min_steps: u32,
    /// The move must end in one of these terrains (empty = anywhere).
    pub into: Vec<TerrainId>,
    /// The flag set.
    pub set: FlagId,
}

/// A piece type's rules for moving among own pieces, leaving the board and what a move
/// leaves behind. The default changes nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Company {
    /// Own pieces of these types may be moved through (but not stopped with).
    pub passes: Vec<PieceTypeId>,
    /// A lone own piece of one of these types may be joined: the move ends there and the
    /// two are attached.
    pub joins: Vec<PieceTypeId>,
    /// True when a piece of this type is the one attached when it joins or is joined (a
    /// leader): it is carried by its host, being carried counts as its move, and once it
    /// has moved its host leaves it behind.
    pub attaches: bool,
    /// It may leave the board across a baseline.
    pub exits: Option<ExitRule>,
    /// Flags its moves set.
    pub after_move: Vec<AfterMove>,
    /// While this optional rule (by option index) is in force, a piece of this type that has
    /// moved and then joined a host keeps the host from moving, instead of being left behind.
    #[serde(default)]
    pub holds_host_option: Option<usize>,
    /// A piece of this (`attaches`) type that the scenario sets up in the cell of one own
    /// piece it could join, or that could join it, without saying `attached_to`, is attached
    /// to that piece as the game starts (a leader in a unit's hex is with the unit).
    #[serde(default)]
    pub joins_at_set_up: bool,
}

impl Company {
    /// True when the type declares rules about own pieces (otherwise stacking alone decides).
    #[must_use]
    pub fn shares(&self) -> bool {
        !self.passes.is_empty() || !self.joins.is_empty()
    }
}

/// Which half-hexes cut by the table edge may be entered (hex boards whose scenario marks
/// them). The default lets every piece enter them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HalfHexRules {
    /// Side half-hexes (west and east edges) may be entered.
    pub sides: bool,
    /// Baseline half-hexes (north and south edges) may be entered.
    pub baselines: bool,
    /// Baseline half-hexes may also be entered while this optional rule is in force.
    pub baselines_option: Option<usize>,
}

impl Default for HalfHexRules {
    fn default() -> Self {
        Self {
            sides: true,
            baselines: true,
            baselines_option: None,
        }
    }
}
