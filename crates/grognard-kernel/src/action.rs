//! Actions players take, events the game reports, and refusals.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::chart::AppliedModifier;
use crate::cost::Cost;
use crate::geometry::open::{Angle, Point};
use crate::geometry::{Cell, Facing};
use crate::ids::{ActionId, ModeId, PieceId, SideId};

/// Something a side asks the game to do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Move along a path of adjacent cells (the start cell not included).
    Move {
        /// Which piece.
        piece: PieceId,
        /// Cells entered, in order.
        path: Vec<Cell>,
    },
    /// Move straight to a point of an open table, then face `facing` (or keep facing).
    MoveTo {
        /// Which piece.
        piece: PieceId,
        /// Destination.
        to: Point,
        /// Facing at the end.
        facing: Option<Angle>,
    },
    /// Turn to face a direction on a grid.
    Face {
        /// Which piece.
        piece: PieceId,
        /// New facing.
        facing: Facing,
    },
    /// Change mode or formation.
    Mode {
        /// Which piece.
        piece: PieceId,
        /// New mode.
        mode: ModeId,
    },
    /// A ruleset action (fire, melee, rally...).
    Act {
        /// Acting piece.
        piece: PieceId,
        /// Which action.
        action: ActionId,
        /// Target, when the action has one.
        target: Option<PieceId>,
        /// What the action is for, when the ruleset asks (an order given "to charge", "to
        /// unlimber"): names the action declares in its `intents`. Chart inputs read them
        /// (`from: intent NAME`) and the action's script sees them (`game:intent()`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        intent: Vec<String>,
    },
    /// The acting side is done with the current phase.
    EndPhase,
    /// Lifts a dummy and puts it down anywhere it could stand (once per turn).
    Redeploy {
        /// The dummy.
        piece: PieceId,
        /// Where it goes.
        to: Cell,
    },
    /// Stands still this phase and saves the movement allowance toward a neighbouring
    /// cell that costs more than one phase's allowance.
    Save {
        /// The piece.
        piece: PieceId,
        /// The cell it is saving to enter.
        toward: Cell,
    },
    /// Spreads a command into one more cell next to those it holds (an extension arrow).
    Extend {
        /// The command.
        piece: PieceId,
        /// The cell it spreads into.
        to: Cell,
    },
    /// Gathers a spread command back into its main cell.
    Gather {
        /// The command.
        piece: PieceId,
    },
    /// Places one of the side's pieces in its deployment areas during the set-up (or
    /// moves it there again before the side ends its set-up).
    Deploy {
        /// The piece.
        piece: PieceId,
        /// The cell it goes to.
        to: Cell,
        /// Its facing there (the one the scenario gave it when `None`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing: Option<crate::geometry::Facing>,
    },
}

impl Action {
    /// The piece the action is given to (`None` for `end_phase`).
    #[must_use]
    pub fn piece(&self) -> Option<PieceId> {
        match self {
            Self::Move { piece, .. }
            | Self::MoveTo { piece, .. }
            | Self::Face { piece, .. }
            | Self::Mode { piece, .. }
            | Self::Act { piece, .. }
            | Self::Redeploy { piece, .. }
            | Self::Save { piece, .. }
            | Self::Extend { piece, .. }
            | Self::Gather { piece }
            | Self::Deploy { piece, .. } => Some(*piece),
            Self::EndPhase => None,
        }
    }
}

/// An action with the side that gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    /// Who gives it.
    pub side: SideId,
    /// What.
    pub action: Action,
}

/// One die in a logged roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedDie {
    /// Die name.
    pub die: String,
    /// Face that stands.
    pub face: String,
    /// Its value.
    pub value: i32,
    /// The face first rolled, when it was re-rolled.
    pub rerolled_from: Option<String>,
}

/// An amount an effect worked out from a roll, for the log: `halved, rounded up → 3 hits`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmountRecord {
    /// The counter it adds to.
    pub counter: String,
    /// The amount.
    pub value: i32,
    /// How it was worked out, step by step (empty when it is the score itself).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<String>,
}

/// A chart roll, with everything needed to explain it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollRecord {
    /// Chart name.
    pub chart: String,
    /// Why it was rolled ("fire by b2 at r1").
    pub purpose: String,
    /// Chart inputs as used.
    pub inputs: Vec<(String, i32)>,
    /// Dice.
    pub dice: Vec<LoggedDie>,
    /// Modifiers that applied.
    pub modifiers: Vec<AppliedModifier>,
    /// Score (dice + modifiers) or band index.
    pub score: i32,
    /// Band, on band charts.
    pub band: Option<String>,
    /// Outcome name.
    pub outcome: String,
    /// Rolled by the referee in secret (a `secret` chart): in no side's log.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub secret: bool,
    /// How the chart's multiplying modifiers scaled the score, in the order applied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scaled: Vec<crate::chart::ScaleStep>,
    /// The amounts the outcome's effects worked out from this roll (`amount: score`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub amounts: Vec<AmountRecord>,
    /// The piece whose action rolled it (the firer), when an action rolled it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<PieceId>,
    /// The piece it was rolled against (the action's target), if any: its side sees the
    /// roll (see `crate::rolls`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub against: Option<PieceId>,
}

impl RollRecord {
    /// Renames the pieces the roll names through `f`.
    pub fn relabel(&mut self, f: &mut dyn FnMut(PieceId) -> PieceId) {
        for p in [&mut self.by, &mut self.against].into_iter().flatten() {
            *p = f(*p);
        }
    }
}

/// Something that happened. The log of events is the game's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A phase began.
    PhaseBegan {
        /// Turn number, from 1.
        turn: u32,
        /// Phase name.
        phase: String,
        /// Phasing side name.
        phasing: String,
        /// The side whose turn it belongs to (`None`: a phase before or after the sides'
        /// turns). Its dice and its hooks' secrets are that side's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        owner: Option<SideId>,
    },
    /// The sides rolled for initiative; they play this turn in `order`.
    Initiative {
        /// Turn number.
        turn: u32,
        /// Each side's dice and total, in scenario order (ties re-rolled are logged too).
        rolls: Vec<(String, Vec<LoggedDie>, i32)>,
        /// Side names, first to last.
        order: Vec<String>,
    },
    /// A piece moved on a grid.
    Moved {
        /// Which piece.
        piece: PieceId,
        /// Cells from start to end.
        path: Vec<Cell>,
        /// Cost paid.
        cost: Cost,
        /// Why it had to stop there, if it did.
        stopped: Option<String>,
    },
    /// A piece moved on an open table.
    MovedOnTable {
        /// Which piece.
        piece: PieceId,
        /// Start.
        from: Point,
        /// End.
        to: Point,
        /// Cost paid (inches).
        cost: Cost,
    },
    /// A piece turned.
    Faced {
        /// Which piece.
        piece: PieceId,
        /// New facing (grid) or angle (open table), as text.
        facing: String,
    },
    /// A piece changed mode.
    ModeChanged {
        /// Which piece.
        piece: PieceId,
        /// Old mode.
        from: String,
        /// New mode.
        to: String,
    },
    /// A ruleset action was taken.
    Acted {
        /// Acting piece.
        piece: PieceId,
        /// Action name.
        action: String,
        /// Target.
        target: Option<PieceId>,
        /// The chart roll, if any.
        roll: Option<RollRecord>,
        /// What the order said it was for (its `intent`), if anything; logs from before
        /// intents existed read as none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        intent: Vec<String>,
    },
    /// A hook rolled dice or resolved a chart.
    Rolled {
        /// The roll.
        roll: RollRecord,
    },
    /// A counter changed.
    CounterChanged {
        /// Whose.
        piece: PieceId,
        /// Counter name.
        counter: String,
        /// Old value.
        from: i32,
        /// New value.
        to: i32,
    },
    /// A flag changed.
    FlagChanged {
        /// Whose.
        piece: PieceId,
        /// Flag name.
        flag: String,
        /// New state.
        on: bool,
    },
    /// A piece was put in another cell without a move (a hook's rout, retreat or
    /// advance), or attached to another piece.
    Placed {
        /// Which piece.
        piece: PieceId,
        /// Where it was.
        from: Cell,
        /// Where it is now.
        to: Cell,
        /// Why.
        reason: String,
    },
    /// A piece was put at another point of an open table without a move (a hook's
    /// retire, victory move or drift).
    PlacedOnTable {
        /// Which piece.
        piece: PieceId,
        /// Where it was.
        from: Point,
        /// Where it is now.
        to: Point,
        /// Why.
        reason: String,
    },
    /// A piece that was off the board came on at a cell, put there by a hook (a
    /// reinforcement arriving).
    Arrived {
        /// Which piece.
        piece: PieceId,
        /// Where it came on.
        at: Cell,
        /// Why.
        reason: String,
    },
    /// A piece was attached to another (`to`), or detached (`None`).
    Attached {
        /// Which piece.
        piece: PieceId,
        /// Its host, if any.
        to: Option<PieceId>,
    },
    /// A piece left the board.
    Removed {
        /// Which piece.
        piece: PieceId,
        /// Why.
        reason: String,
    },
    /// A hook reported something.
    Note {
        /// What.
        text: String,
    },
    /// A hook reported something that names pieces: each side reads it worded with its own
    /// names for them (the view turns it into a [`Event::Note`]); the referee reads `text`.
    NoteNaming {
        /// The words with the pieces' names, as the referee reads them.
        text: String,
        /// The words with `{N}` for the Nth piece.
        template: String,
        /// The pieces named.
        pieces: Vec<PieceId>,
        /// Every side reads it (`game:announce` with pieces), not only the side whose phase
        /// or order it is.
        #[serde(default, skip_serializing_if = "core::ops::Not::not")]
        to_all: bool,
    },
    /// The last turn ended (or a side lost at once).
    GameOver {
        /// Turns played.
        turns: u32,
    },
    /// How the game ended: the winner (none: a draw), each side's points, and why.
    GameResult {
        /// The winning side's name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        winner: Option<String>,
        /// Each side's points.
        points: Vec<(String, i32)>,
        /// Why, in words.
        why: String,
    },
    /// A side's sighting of an enemy piece changed (only that side and the referee see
    /// this event).
    Sighted {
        /// The observing side.
        side: SideId,
        /// The piece seen.
        piece: PieceId,
        /// The level now held (`None`: lost from sight).
        level: Option<String>,
    },
    /// A move came into contact with enemy pieces and ended; the pieces in contact deploy,
    /// the non-phasing side's first.
    Contact {
        /// The moving piece.
        piece: PieceId,
        /// Where its move ended.
        at: Cell,
        /// The pieces that deploy, in order.
        deploy: Vec<PieceId>,
    },
    /// An enemy piece moved, as a side saw it: where it was seen leaving and where it is
    /// now, each only when the side knew (side logs only; the full log has the move).
    EnemyMoved {
        /// The piece's handle.
        piece: PieceId,
        /// Where the side last knew it to be before the move.
        from: Option<crate::piece::Place>,
        /// Where the side sees it now.
        to: Option<crate::piece::Place>,
    },
    /// A side rolled to spot an enemy piece (only that side and the referee see it).
    SpotRolled {
        /// The side rolling.
        side: SideId,
        /// The roll.
        roll: RollRecord,
    },
    /// Something every side is told.
    Announced {
        /// What.
        text: String,
    },
    /// A piece stood still and saved movement points toward a cell.
    Saved {
        /// The piece.
        piece: PieceId,
        /// The cell it is saving to enter.
        toward: Cell,
        /// The points it now has saved.
        points: Cost,
    },
    /// A command now holds these cells (spread by extension arrows, or gathered back).
    Spread {
        /// The command.
        piece: PieceId,
        /// The cells it holds, its main cell first.
        cells: Vec<Cell>,
    },
    /// A dummy was lifted and put down elsewhere by its owner.
    Redeployed {
        /// Which dummy.
        piece: PieceId,
        /// Where it is now.
        to: Cell,
    },
}

/// The piece an event is about (the actor of an action), as `&PieceId` or `&mut PieceId`
/// after the event's own reference: one list of the variants for reading and renaming.
macro_rules! event_piece {
    ($event:expr) => {
        match $event {
            Event::Moved { piece, .. }
            | Event::MovedOnTable { piece, .. }
            | Event::Faced { piece, .. }
            | Event::ModeChanged { piece, .. }
            | Event::CounterChanged { piece, .. }
            | Event::FlagChanged { piece, .. }
            | Event::Placed { piece, .. }
            | Event::PlacedOnTable { piece, .. }
            | Event::Arrived { piece, .. }
            | Event::Removed { piece, .. }
            | Event::Sighted { piece, .. }
            | Event::EnemyMoved { piece, .. }
            | Event::Saved { piece, .. }
            | Event::Spread { piece, .. }
            | Event::Redeployed { piece, .. }
            | Event::Acted { piece, .. }
            | Event::Attached { piece, .. }
            | Event::Contact { piece, .. } => Some(piece),
            Event::PhaseBegan { .. }
            | Event::Initiative { .. }
            | Event::Rolled { .. }
            | Event::Note { .. }
            | Event::NoteNaming { .. }
            | Event::GameOver { .. }
            | Event::GameResult { .. }
            | Event::SpotRolled { .. }
            | Event::Announced { .. } => None,
        }
    };
}

impl Event {
    /// The piece the event is about, if any (the actor of an action).
    #[must_use]
    pub fn piece(&self) -> Option<PieceId> {
        event_piece!(self).copied()
    }

    /// Renames every piece the event names through `f` (a side's handles for its log).
    pub fn relabel(&mut self, f: &mut dyn FnMut(PieceId) -> PieceId) {
        if let Some(piece) = event_piece!(self) {
            *piece = f(*piece);
        }
        match self {
            Self::Acted {
                target: Some(t), ..
            }
            | Self::Attached { to: Some(t), .. } => *t = f(*t),
            Self::Contact { deploy, .. } => {
                for d in deploy {
                    *d = f(*d);
                }
            }
            _ => {}
        }
        match self {
            Self::Acted { roll: Some(r), .. } | Self::Rolled { roll: r } => r.relabel(f),
            _ => {}
        }
    }
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RefusalKind {
    /// The game is over.
    GameOver,
    /// Not this side's turn to act, or the phase does not allow it.
    OutOfPhase,
    /// No such piece, or not the side's own piece, or not on the board.
    BadPiece,
    /// The path is not a chain of adjacent cells on the board.
    BadPath,
    /// The piece has already moved or acted as often as allowed.
    AlreadyUsed,
    /// Terrain or a boundary cannot be crossed.
    Impassable,
    /// The move costs more than the allowance, or takes too many steps.
    TooFar,
    /// A cell is occupied, or stacking would be exceeded.
    Occupied,
    /// The piece had to stop before the end of the path.
    MustStop,
    /// The mode or facing is not valid for the piece.
    BadMode,
    /// The target is missing, of the wrong side, out of range, arc or sight.
    BadTarget,
    /// A ruleset hook failed; nothing changed.
    HookFailed,
    /// The order asks for what the rules do not have: an action they do not define, an
    /// action whose chart they lack (rules built by hand, not compiled), saved movement
    /// points or spread commands in a ruleset without them. Not a matter of the phase:
    /// no phase would allow it.
    NotInRules,
}

/// A refused action: nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    /// Category.
    pub kind: RefusalKind,
    /// What was wrong, in words a player understands.
    pub message: String,
}

impl Refusal {
    /// A refusal of `kind` saying `message`.
    #[must_use]
    pub fn new(kind: RefusalKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

/// Why an order is refused, kept as data until its words are needed: the one shape of every
/// ban (`game/bans.rs` lists them, with the file each is in). A check returns the ban; the
/// legal listing, which asks checks by the thousand, drops it unworded; `apply` turns it
/// into a [`Refusal`] with [`Ban::refuse`]. Defined here, beside `Refusal`, so that the
/// bans below `game/` (`company.rs`, `turning.rs`) have the same shape.
pub(crate) trait Ban: Sized {
    /// What the words need beside the ban itself: the game and the ordered piece, the
    /// rules, a side, or nothing (`()`).
    type Cx<'c>;

    /// The kind of refusal the ban gives.
    fn kind(&self) -> RefusalKind;

    /// The sentence a player reads.
    fn words(self, cx: Self::Cx<'_>) -> String;

    /// The refusal: its kind and its words.
    fn refuse(self, cx: Self::Cx<'_>) -> Refusal {
        let kind = self.kind();
        Refusal::new(kind, self.words(cx))
    }
}

/// The words for a cell off the board: a move's ban (`game/bans.rs`) and a step beyond the
/// edge (`company.rs`, which may add why the edge is not the piece's way out) say it alike.
pub(crate) fn off_board(to: Cell) -> String {
    format!("{to} is off the board")
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Refusal {}
