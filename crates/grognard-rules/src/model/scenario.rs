//! The scenario file format (and a side's order of battle): the board, sides, pieces,
//! victory conditions and deployment. See `docs/scenario-format.md`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::de::Located;
use crate::named::NamedMap;

use super::Text;

/// A scenario file.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ScenarioSpec {
    /// Scenario name.
    pub scenario: Located<String>,
    /// What it depicts.
    pub description: Option<String>,
    /// The ruleset: a path relative to this file, or a bundled ruleset's name.
    pub ruleset: Located<String>,
    /// Optional rule choices (`small_tables: true`).
    pub options: NamedMap<bool>,
    /// Settings (`night: 1`).
    pub settings: NamedMap<i32>,
    /// RNG seed.
    pub seed: u64,
    /// Number of turns (the ruleset's default when absent).
    pub turns: Option<Located<u32>>,
    /// The board.
    pub board: BoardSpec,
    /// Sides, in the order they play.
    pub sides: NamedMap<SideSpec>,
    /// Pieces.
    pub pieces: Vec<PieceSpec>,
    /// What decides this game (replaces the ruleset's `victory:`).
    pub victory: Option<VictorySpec>,
    /// Sides that deploy their own pieces in a set-up before the first turn, by side
    /// name.
    pub deployment: NamedMap<DeploymentSpec>,
}

/// One side's set-up: where it may deploy, and where its order of battle is.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct DeploymentSpec {
    /// Board regions (of `board: regions:`) it deploys in.
    pub areas: Vec<Located<String>>,
    /// A file (relative to the scenario) listing the side's pieces, which only that side
    /// and the referee hold; its pieces are added after the scenario's own.
    pub order_of_battle: Option<Located<String>>,
}

/// A side's order of battle, kept in its own file: `order_of_battle: SIDE`, the scenario it
/// belongs to, and the side's pieces (`at` optional: pieces without one are deployed in
/// the set-up).
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct OrderOfBattleSpec {
    /// The side.
    pub order_of_battle: Located<String>,
    /// The scenario file it belongs to, relative to this file.
    pub scenario: Option<Located<String>>,
    /// The side's pieces (`side:` may be left out).
    pub pieces: Vec<PieceSpec>,
}

/// What decides a game: points at the end, and conditions that lose it at once.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct VictorySpec {
    /// Points for each enemy piece off the board at the end, by piece type (`any`: every
    /// type not listed).
    pub removed: NamedMap<i32>,
    /// Enemy pieces off the board with any of these flags score nothing (`[escaped]`).
    pub removed_unless: Vec<Located<String>>,
    /// Points for each enemy piece on the board at the end with the flag.
    pub flagged: NamedMap<i32>,
    /// Regions (of the scenario's `regions:`) that score for the side whose pieces alone
    /// stand in them at the end. Scenarios only.
    pub hold: Vec<Located<HoldSpec>>,
    /// Conditions under which a side loses at once.
    pub lose: Vec<Located<LoseSpec>>,
    /// Points a side must lead by to win; a smaller lead is a draw (default 1).
    pub margin: Option<i32>,
    /// A side with this many points wins at once.
    pub win_at: Option<i32>,
}

/// A region that scores at the end.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct HoldSpec {
    /// The region's name.
    pub region: Located<String>,
    /// Points for holding it.
    pub points: i32,
    /// Only this side scores it.
    pub side: Option<Located<String>>,
}

/// A condition under which a side loses at once: one of `flag`, `counter` (with
/// `at_least`) or `no_pieces`, over the pieces of `types` (all when absent).
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct LoseSpec {
    /// One of the side's pieces has this flag.
    pub flag: Option<Located<String>>,
    /// One of the side's pieces has this counter at `at_least` or more.
    pub counter: Option<Located<String>>,
    /// The counter's value that loses.
    pub at_least: Option<i32>,
    /// None of the side's pieces (of `types`) is left on the board.
    pub no_pieces: bool,
    /// The piece types the condition looks at.
    pub types: Vec<Located<String>>,
    /// Why, in words for the result (`the army is broken`).
    pub why: Option<String>,
}

/// A board.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct BoardSpec {
    /// Grid columns.
    pub cols: Option<Located<i32>>,
    /// Grid rows.
    pub rows: Option<Located<i32>>,
    /// Terrain as text: one symbol per cell, rows top to bottom (spaces ignored).
    pub map: Option<Located<String>>,
    /// What each map symbol means (`W: woods`).
    pub legend: BTreeMap<String, Located<String>>,
    /// Terrain painted on listed cells (`woods: [[3,4], [4,4]]`), after the map.
    pub terrain: NamedMap<Vec<Located<[i32; 2]>>>,
    /// Boundary features.
    pub features: Vec<FeatureLineSpec>,
    /// Half-hexes cut by the table edges (hex boards).
    pub half_hexes: HalfHexSpec,
    /// Named regions: cells on a grid, areas on an open table.
    pub regions: NamedMap<RegionSpec>,
    /// Open table width in inches.
    pub width: Option<Located<Text>>,
    /// Open table depth in inches.
    pub height: Option<Located<Text>>,
    /// Open table terrain areas.
    pub areas: Vec<AreaSpec>,
}

/// Features along a path of cells (each consecutive pair gets it) or on listed boundaries.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct FeatureLineSpec {
    /// Feature name.
    pub feature: Located<String>,
    /// Consecutive cells; each neighbouring pair's boundary gets the feature.
    pub path: Vec<Located<[i32; 2]>>,
    /// Boundaries as pairs of adjacent cells.
    pub between: Vec<Located<[[i32; 2]; 2]>>,
}

/// Half-hexes.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct HalfHexSpec {
    /// On the west and east edges.
    pub sides: bool,
    /// On the north and south edges.
    pub baselines: bool,
}

/// A region: a list of `[col, row]` cells on a grid; on an open table an area, a polygon
/// (`corners:`) or a circle (`centre:` and `radius:`), in inches.
#[derive(Clone, Debug, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum RegionSpec {
    /// Cells of a grid.
    Cells(Vec<[i32; 2]>),
    /// An area of an open table.
    Area(RegionAreaSpec),
}

/// An open-table region's area: `corners:` (at least 3), or `centre:` and `radius:`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RegionAreaSpec {
    /// Polygon corners in inches, in order.
    pub corners: Vec<[f64; 2]>,
    /// A circle's centre in inches.
    pub centre: Option<[f64; 2]>,
    /// A circle's radius in inches.
    pub radius: Option<f64>,
}

/// An open-table terrain area.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct AreaSpec {
    /// Name.
    pub name: String,
    /// Terrain.
    pub terrain: Located<String>,
    /// Corners in inches.
    pub corners: Vec<[f64; 2]>,
}

/// A side.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SideSpec {
    /// Its baseline: `north`, `south`, `east` or `west`.
    pub baseline: Option<Located<crate::model::Baseline>>,
}

/// A piece.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct PieceSpec {
    /// Unique id within the scenario (`b1`).
    pub id: Located<String>,
    /// Owner.
    pub side: Located<String>,
    /// Piece type.
    #[serde(rename = "type")]
    pub kind: Located<String>,
    /// Grid cell `[col, row]`, or `[x, y]` inches on an open table.
    pub at: Option<Located<[f64; 2]>>,
    /// Several cells for a spread command.
    pub spread: Vec<Located<[i32; 2]>>,
    /// True for a piece that starts off the board (a reinforcement a hook brings on later);
    /// it then has neither `at` nor `spread`.
    pub off_board: bool,
    /// Grid direction name (`N`, `SE`) or number; degrees on an open table.
    pub facing: Option<Located<Text>>,
    /// Mode.
    pub mode: Option<Located<String>>,
    /// Counter values.
    pub counters: NamedMap<i32>,
    /// Attribute values that differ from the piece type's.
    pub attributes: NamedMap<i32>,
    /// Flags set at the start.
    pub flags: Vec<Located<String>>,
    /// Id of the piece it is attached to.
    pub attached_to: Option<Located<String>>,
    /// Its own bases on the open table, overriding its type's footprint (the same keys as
    /// a piece type's `footprint:`).
    pub footprint: Option<Located<crate::model::FootprintSpec>>,
}
