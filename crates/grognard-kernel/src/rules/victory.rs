//! Victory conditions as the compiled rules hold them, and the result of a game. How they
//! are judged lives in `crate::victory`; this module imports nothing above the ids.

use serde::{Deserialize, Serialize};

use crate::ids::{CounterId, FlagId, PieceTypeId, SideId};

/// What decides a game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VictoryRules {
    /// Points for each enemy piece off the board at the end, by type; `None` is every type
    /// not listed. Pieces of types with no entry score nothing.
    pub removed: Vec<(Option<PieceTypeId>, i32)>,
    /// Pieces off the board with any of these flags score nothing (a leader who escaped).
    #[serde(default)]
    pub removed_unless: Vec<FlagId>,
    /// Points for each enemy piece on the board at the end with the flag.
    pub flagged: Vec<(FlagId, i32)>,
    /// Regions held at the end.
    pub hold: Vec<HoldRule>,
    /// Conditions under which a side loses at once.
    pub lose: Vec<LoseRule>,
    /// How many points a side must lead by to win; a smaller lead is a draw (at least 1).
    pub margin: i32,
    /// A side with this many points wins at once (the victory banners of a Commands &
    /// Colors game).
    #[serde(default)]
    pub win_at: Option<i32>,
}

/// A region that scores for the side whose pieces alone stand in it at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HoldRule {
    /// The region's name (a scenario `regions:` entry).
    pub region: String,
    /// Points for holding it.
    pub points: i32,
    /// Only this side scores it (`None`: whichever side holds it).
    pub side: Option<SideId>,
}

/// When a side loses at once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoseWhen {
    /// One of its pieces (of the rule's types) has the flag.
    Flag(FlagId),
    /// One of its pieces (of the rule's types) has the counter at least this high.
    CounterAtLeast(CounterId, i32),
    /// None of its pieces of the rule's types is left on the board.
    NoPieces,
}

/// A condition under which a side loses at once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoseRule {
    /// The condition.
    pub when: LoseWhen,
    /// The piece types it looks at (empty: every type).
    pub types: Vec<PieceTypeId>,
    /// Why, in words for the result (`the army is broken`).
    pub why: String,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner (`None`: a draw).
    pub winner: Option<SideId>,
    /// Each side's points, by side index.
    pub points: Vec<i32>,
    /// Why, in words.
    pub why: String,
}
