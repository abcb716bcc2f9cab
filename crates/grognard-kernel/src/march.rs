//! Marching procedures that block games share: saving movement points toward a costly
//! square, spreading a command over several cells, and crossings that carry only so many
//! pieces a turn.
//!
//! Saved points live in a ruleset counter, in units the ruleset chooses (half points for
//! the block rules). A piece saves by standing still for a phase in which it could move;
//! its next move gets the saved points on top of its allowance, and they are gone once it
//! moves, or after a phase in which it could move and neither moved nor saved again: no
//! standing reserve.

use serde::{Deserialize, Serialize};

use crate::cost::Cost;
use crate::ids::{CounterId, ModeId};

/// How movement points are saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavingRules {
    /// The counter holding saved points.
    pub counter: CounterId,
    /// What one on the counter is worth (½ for the block rules).
    pub unit: Cost,
    /// Modes in which a piece may always save.
    pub modes: Vec<ModeId>,
    /// A piece in any mode may save toward a cell whose terrain costs it extra.
    pub costly_terrain: bool,
}

/// How commands spread over several cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpreadRules {
    /// The counter that is divided among the cells (figures).
    pub counter: Option<CounterId>,
    /// The least each cell must hold.
    pub min_per_cell: i32,
    /// A command grows at most one cell outward a phase: each cell it spreads into must be
    /// next to a cell it held as the phase began, and once it has gathered in the phase it
    /// spreads no more (except in `relay_modes`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_phase_start: bool,
    /// Modes in which a command that gathered this phase may spread again in it (a road
    /// column taking its arrows up, marching and laying them behind it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relay_modes: Vec<ModeId>,
    /// A spread is a step: the cell must be one the command could enter this phase from
    /// the cell it spreads from (its allowance with the points saved toward that cell,
    /// which it then spends), and a command that spread or gathered this phase saves
    /// nothing in it, one that saved spreads and gathers nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub costs_step: bool,
}
