//! The data a piece type declares about facing on the move, and the flags that slow a
//! piece, as the compiled rules hold them. The rules that read them live in
//! `crate::turning`; this module imports nothing above the ids and costs.

use serde::{Deserialize, Serialize};

use crate::cost::Cost;
use crate::ids::{CounterId, FlagId};

/// A piece type's rules for facing while it moves. The default changes nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turning {
    /// Each step enters one of the cells ahead (the facing, or one grid direction to either
    /// side of it) and turns the piece to face the step: no stepping back or sideways.
    pub forward_only: bool,
    /// Movement points each facing change costs out of the allowance of the same movement
    /// window (turn or phase, as the type moves).
    pub cost: Cost,
    /// Most facing changes per movement window (`None`: no limit).
    pub most: Option<u32>,
    /// The counter that counts facing changes in the window; the kernel adds one for each
    /// facing change ordered and clears it when the piece's moves reset.
    pub counter: Option<CounterId>,
    /// Oblique moves: while this optional rule (by option index) is in force, a step into
    /// a cell one grid direction to either side of the piece's heading keeps the heading
    /// instead of turning the piece to face the step.
    #[serde(default)]
    pub oblique_option: Option<usize>,
    /// With `forward_only`: a move may change facing in its middle. A step that the
    /// heading does not allow is then a facing change followed by the step, paid `cost` and
    /// counted against `most`, as long as one is left this window. Without it a move may
    /// still begin with such a facing change (as a facing order just before it would), so
    /// reach and moves list and accept the cells a unit reaches by turning first.
    #[serde(default)]
    pub mid_move: bool,
    /// Flags that bar every facing change while one is set on the piece: a `face` order, and
    /// a move's facing change at its start or in its middle.
    #[serde(default)]
    pub barred_by: Vec<FlagId>,
}

/// A flag that slows a piece: while it is set (and the optional rule, if any, is in force)
/// a move enters at most `max_steps` cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlowedBy {
    /// The flag.
    pub flag: FlagId,
    /// Only while this optional rule (by option index) is in force.
    pub option: Option<usize>,
    /// Most cells per move while slowed (0: it cannot move).
    pub max_steps: u32,
}
