//! The ruleset file format: one struct per concept, each field documented. See
//! `docs/ruleset-format.md` for the same with examples.
//!
//! Names are written once (as mapping keys) and referred to by name elsewhere; the
//! [`crate::compile`] pass resolves every reference and reports the ones that dangle.

pub mod amount;
mod orders;
mod pivot;
mod scenario;
mod states;
mod words;

use serde::{Deserialize, Serialize};

use crate::de::Located;
use crate::named::NamedMap;
use crate::number::CostValue;

pub use orders::*;
pub use pivot::*;
pub use scenario::*;
pub use states::*;
pub use words::*;

/// A scalar read as text whether it was written as a number or a word: cost fields take
/// `0.5`, `½`, `+½` and `impassable` alike.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Text(pub String);

impl core::ops::Deref for Text {
    type Target = String;
    fn deref(&self) -> &String {
        &self.0
    }
}

/// Text is a string or a number (`1`, `½`, `impassable`).
impl schemars::JsonSchema for Text {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Text".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": ["string", "number"] })
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Text;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a number or a word")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Text, E> {
                Ok(Text(v.to_owned()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Text, E> {
                Ok(Text(v.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Text, E> {
                Ok(Text(v.to_string()))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Text, E> {
                // As written (`1e308`), not expanded to hundreds of digits.
                Ok(Text(grognard_kernel::text::number(v)))
            }
        }
        d.deserialize_any(V)
    }
}

/// A whole ruleset file.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct RulesetSpec {
    /// The ruleset's name (`square-blocks`).
    pub ruleset: Located<String>,
    /// A ruleset this one changes: a path relative to this file, or a bundled ruleset's
    /// name. Maps merge, lists are replaced, `remove:` deletes inherited items.
    pub extends: Option<Located<String>>,
    /// Dotted paths of inherited items to delete (`terrain.swamp`, `options.small_tables`).
    pub remove: Vec<Located<String>>,
    /// Lua modules by name, each a path relative to the file that names it.
    pub scripts: NamedMap<Located<String>>,
    /// Hook bindings: `move_cost`, `stops`, `phase_begin`, `moved`, `faced` or `mode_changed` →
    /// `module.function`.
    pub hooks: NamedMap<Located<String>>,
    /// A title for people.
    pub title: Option<String>,
    /// Free-text notes: the readings chosen where the sources are unclear.
    pub notes: Vec<String>,
    /// Board geometry.
    pub geometry: GeometrySpec,
    /// Front and rear arc widths (defaults depend on the geometry).
    pub arcs: Option<ArcsSpec>,
    /// Dice by name. Numeric dice `dN` (d2 … d100) exist without being declared.
    pub dice: NamedMap<DieSpec>,
    /// Modes and formations. The first is the default for piece types that do not say.
    pub modes: NamedMap<ModeSpec>,
    /// Counters pieces carry.
    pub counters: NamedMap<CounterSpec>,
    /// On/off flags pieces carry (at most 64).
    pub flags: NamedMap<FlagSpec>,
    /// Names of integer piece attributes (`class`, `morale`); piece types give values,
    /// scenario pieces may override them, charts read them.
    pub piece_attributes: Vec<Located<String>>,
    /// Piece attributes only the piece's own side is shown (one that numbers another piece,
    /// such as a scout's headquarters).
    pub private_attributes: Vec<Located<String>>,
    /// Counters only the piece's own side is shown (a commander's secret traits).
    pub private_counters: Vec<Located<String>>,
    /// Flags only the piece's own side is shown (a scout's secret bookkeeping).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub private_flags: Vec<Located<String>>,
    /// Names of integer terrain attributes (`cover`, `elevation`).
    pub terrain_attributes: Vec<Located<String>>,
    /// Terrain types. The first is what unpainted cells are.
    pub terrain: NamedMap<TerrainSpec>,
    /// Features on cell boundaries.
    pub features: NamedMap<FeatureSpec>,
    /// Movement classes: extra cost to enter each terrain.
    pub movement: NamedMap<MoveClassSpec>,
    /// Piece types.
    pub piece_types: NamedMap<PieceTypeSpec>,
    /// Stacking limits per place.
    pub stacking: NamedMap<StackSpec>,
    /// Zones of control.
    pub zoc: Option<ZocSpec>,
    /// Open tables: threatened zones, closest approach and moves counted by a counter.
    pub open_table: Option<OpenTableSpec>,
    /// Lines of sight: whether pieces block them on an open table.
    pub sight: Option<SightSpec>,
    /// Sequence of play.
    pub sequence: SequenceSpec,
    /// Charts.
    pub charts: NamedMap<ChartSpec>,
    /// Ruleset actions.
    pub actions: NamedMap<ActionSpec>,
    /// Scenario settings with their defaults (`night: 0`).
    pub settings: NamedMap<i32>,
    /// Optional rules.
    pub options: NamedMap<OptionSpec>,
    /// Hidden information: sighting levels, charts, observers, contact and decoys.
    pub sighting: Option<SightingSpec>,
    /// Saved movement points.
    pub saving: Option<SavingSpec>,
    /// What decides a game (a scenario's `victory:` replaces it).
    pub victory: Option<VictorySpec>,
    /// Commands spread over several cells by extension arrows.
    pub spread: Option<SpreadSpec>,
    /// Flags that keep a piece from moving.
    pub pinned_by: Vec<Located<String>>,
    /// Flags that slow a piece to a few cells a move (`{ flag: fatigued, max_steps: 1 }`).
    pub slowed_by: Vec<Located<SlowedBySpec>>,
    /// Flags that gate the `may_move` hook on a grid: asked only of a piece carrying one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub may_move_flags: Vec<Located<String>>,
    /// Optional rules under which the `may_move` hook is asked of every piece.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub may_move_options: Vec<Located<String>>,
    /// Which half-hexes cut by the table edge may be entered (hex grids).
    pub half_hexes: Option<HalfHexRulesSpec>,
}

/// Which board.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct GeometrySpec {
    /// `square`, `hex` or `open`.
    pub kind: Option<Located<GeometryKind>>,
    /// Square grids: cost of an orthogonal step (default 1).
    pub orthogonal: Option<CostValue>,
    /// Square grids: cost of a diagonal step (default 1½).
    pub diagonal: Option<CostValue>,
    /// Hex grids: cost of a step (default 1).
    pub step: Option<CostValue>,
    /// Open tables: percentage applied to rule distances (default 100).
    pub scale_percent: Option<u32>,
}

/// Arc widths in degrees either side of the facing (front) and of the back (rear).
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
pub struct ArcsSpec {
    /// Front half-angle.
    pub front: u16,
    /// Rear half-angle.
    pub rear: u16,
}

/// A die: either `sides: N` or a list of faces.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct DieSpec {
    /// A numeric die with faces 1..=sides.
    pub sides: Option<u8>,
    /// Custom faces.
    pub faces: Vec<FaceSpec>,
}

/// One face of a custom die.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct FaceSpec {
    /// What players call it.
    pub label: String,
    /// Value when summed.
    pub value: i32,
    /// Tags charts can test.
    pub tags: Vec<Located<String>>,
}

/// A mode or formation.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ModeSpec {
    /// False when pieces in this mode may not share a place with another own piece.
    pub stacks: Option<bool>,
    /// True when road steps ignore terrain costs in this mode.
    pub uses_roads: bool,
    /// True when pieces in this mode may only move along roads.
    pub roads_only: bool,
    /// Modes from which taking this one needs a whole movement phase standing still.
    pub stationary_from: Vec<Located<String>>,
    /// What it means.
    pub description: Option<String>,
}

/// A counter.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct CounterSpec {
    /// Starting value (0).
    pub initial: i32,
    /// Lowest value (0).
    pub min: i32,
    /// Highest value (unbounded when absent).
    pub max: Option<i32>,
    /// What happens at thresholds.
    pub triggers: Vec<TriggerSpec>,
    /// How the log words it (`fatigue (TE) hits`); its name by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub called: Option<String>,
}

/// "At `at` or more, do `effects` to the piece."
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct TriggerSpec {
    /// Threshold.
    pub at: i32,
    /// Effects, on the piece carrying the counter (`to: actor`).
    pub effects: Vec<EffectSpec>,
}

/// A flag.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct FlagSpec {
    /// `never` (default), `phase_end` or `turn_end`.
    pub clears: Option<Located<Clears>>,
    /// A flag the engine keeps by itself: set exactly while this holds of the piece (a
    /// level of a counter, a friend near or none near), cleared when it stops holding.
    #[serde(rename = "while", skip_serializing_if = "Option::is_none")]
    pub holds: Option<Located<HoldsSpec>>,
}

/// A terrain type.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct TerrainSpec {
    /// True when it blocks line of sight.
    pub blocks_sight: bool,
    /// Open tables, with `blocks_sight`: troops inside an area of it see out (and are seen)
    /// only within this many rule inches of its edge; deeper in, it hides them like any
    /// other area (none: from anywhere inside).
    pub see_out_within: Option<Located<CostValue>>,
    /// Open tables, with `blocks_sight`: a line of sight across an area of it is clear
    /// when it is at most this many rule inches long ("visibility into and through woods
    /// is 6 inches"); longer lines are blocked (none: every line across it is).
    pub see_through: Option<Located<CostValue>>,
    /// Integer attributes by name (`cover: 1`).
    pub attributes: NamedMap<i32>,
    /// How it is drawn (`#2e7d32`).
    pub color: Option<String>,
}

/// A boundary feature.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct FeatureSpec {
    /// `road`, `barrier` or `crossing`.
    pub kind: Option<Located<FeatureKind>>,
    /// Barrier: extra cost, or `impassable`. Crossing: extra cost of using it.
    pub cost: Option<Located<Text>>,
    /// True when sight across it is blocked.
    pub blocks_sight: bool,
    /// Crossing: how many pieces may cross at one place each turn.
    pub capacity: Option<u32>,
    /// Barrier: modes that may not cross it at all.
    pub closed_to: Vec<Located<String>>,
}

/// A movement class: terrain name → extra cost (`+½`) or `impassable`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct MoveClassSpec {
    /// Per-terrain extra cost to enter.
    pub enter: NamedMap<Located<Text>>,
    /// Cost for terrain not listed (default 0).
    pub others: Option<Located<Text>>,
    /// True when entering a terrain that costs extra ends the move.
    pub stops_on_costly: bool,
}

/// A piece type.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct PieceTypeSpec {
    /// Movement class name.
    pub movement: Located<String>,
    /// Allowance per mode (`battle: ½`); a mode not listed cannot be taken.
    pub allowance: NamedMap<CostValue>,
    /// Most cells per move, per mode.
    pub max_steps: NamedMap<u32>,
    /// Weight in each stacking limit (`blocks: ½`).
    pub stack: NamedMap<CostValue>,
    /// Starting mode when the scenario does not say (default: first mode it may take).
    pub default_mode: Option<Located<String>>,
    /// True when it projects a zone of control.
    pub zoc: bool,
    /// True when it may move through cells holding other own pieces (but not stop there
    /// over a stacking limit).
    pub passes_friends: bool,
    /// True for a single figure (a scout, an officer) that may share a cell with enemy
    /// pieces: it may enter cells they hold, and does not keep them out of its own.
    pub shares_with_enemy: bool,
    /// True for a single figure that takes no room in a cell: it may share a cell with own
    /// pieces in a mode that cannot stack (a road column), and they with it.
    pub takes_no_room: bool,
    /// `per_phase` (default) or `per_turn`.
    pub moves: Option<Located<MoveLimit>>,
    /// True for dummies.
    pub dummy: bool,
    /// False for a dummy its owner moves as a unit, never redeployed (lifted and put down
    /// elsewhere); dummies may be redeployed by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redeploys: Option<bool>,
    /// True when facing matters (default true).
    pub faces: Option<bool>,
    /// Piece attribute values (`class: 2`); unlisted attributes are 0.
    pub attributes: NamedMap<i32>,
    /// Own piece types it may move through but not stop with.
    pub passes: Vec<Located<String>>,
    /// Own piece types it may join where one stands alone: the move ends there and the two
    /// are attached.
    pub joins: Vec<Located<String>>,
    /// True when it is the one attached on joining (a leader): carried by its host, being
    /// carried counts as its move, and once moved it is left behind.
    pub attaches: bool,
    /// Leaving the board across a baseline.
    pub exits: Option<ExitSpec>,
    /// Flags its moves set (`{ min_steps: 2, set: no_battle }`).
    pub after_move: Vec<AfterMoveSpec>,
    /// While this optional rule is in force, a piece of this type that moved and then
    /// joined a host keeps the host from moving (instead of being left behind).
    pub holds_host_option: Option<Located<String>>,
    /// True when a piece of this (`attaches`) type set up in the cell of one own piece it
    /// could join, or that could join it, is attached to it as the game starts.
    pub joins_at_set_up: bool,
    /// How its facing shapes its moves (forward-only steps, the price and number of facing
    /// changes).
    pub turning: Option<TurningSpec>,
    /// What it is.
    pub description: Option<String>,
    /// How a refusal words a piece of this type (`a fake counter`); its name by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub called: Option<String>,
    /// Its bases on the open table (in every mode; `modes:` for formations that change
    /// shape). Without one it is a point.
    pub footprint: Option<Located<FootprintSpec>>,
    /// Its own counter triggers, by counter: each list replaces that counter's triggers
    /// for pieces of this type (`triggers: { hits: [ { at: 2, effects: [ { remove: true }
    /// ] } ] }`).
    #[serde(skip_serializing_if = "NamedMap::is_empty")]
    pub triggers: NamedMap<Vec<TriggerSpec>>,
}

/// A unit's bases on the open table: `bases` bases of `width` × `depth`, arranged in a
/// `line` (side by side), a `column` (one behind another), a `block` (`files` bases
/// across) or `loose` (side by side, `spacing` apart). Lengths are `40mm`, `4cm` (the
/// table's own, as the bases are cut) or inches (`1.5`, `1.5in`: rule inches, scaled with
/// the table like every rule distance).
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FootprintSpec {
    /// One base's width (across the unit's front).
    pub width: Option<Located<LengthValue>>,
    /// One base's depth.
    pub depth: Option<Located<LengthValue>>,
    /// How many bases (default 1).
    pub bases: Option<Located<u32>>,
    /// `line` (default), `column`, `block` or `loose`.
    pub arrangement: Option<Located<Arrangement>>,
    /// A block's bases across.
    pub files: Option<Located<u32>>,
    /// The gap between bases (`loose`; default 0 otherwise).
    pub spacing: Option<Located<LengthValue>>,
    /// Other footprints by mode (`column: { bases: 4, arrangement: column }`): unset fields
    /// come from this one.
    pub modes: NamedMap<FootprintSpec>,
    /// Skirmishers out in front of these bases (a mixed formation's light company, a
    /// grande bande's screen): their own bases, with `ahead`. The unit is then measured as
    /// the one rectangle enclosing its bases and the screen.
    pub screen: Option<Box<Located<FootprintSpec>>>,
    /// In a `screen` only: the gap between the main body's front edge and the screen's
    /// rear edge.
    pub ahead: Option<Located<LengthValue>>,
}

/// A length as written: a number of inches, or a number with a unit (`40mm`, `4cm`,
/// `1.5in`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct LengthValue(pub String);

impl schemars::JsonSchema for LengthValue {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Length".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": ["string", "number"],
            "description": "A length: inches (1.5, \"1.5in\") or with a unit (\"40mm\", \"4cm\")",
        })
    }
}

impl<'de> Deserialize<'de> for LengthValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = LengthValue;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a length: inches (`1.5`) or with a unit (`40mm`, `4cm`, `1.5in`)")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<LengthValue, E> {
                Ok(LengthValue(v.to_owned()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<LengthValue, E> {
                Ok(LengthValue(v.to_string()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<LengthValue, E> {
                Ok(LengthValue(v.to_string()))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<LengthValue, E> {
                Ok(LengthValue(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// How a piece type's facing shapes its moves.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct TurningSpec {
    /// Each step enters one of the cells ahead and turns the piece to face it: no stepping
    /// back or sideways without a facing change first.
    pub forward_only: bool,
    /// Movement points a facing change costs out of the same window's allowance.
    pub cost: Option<Located<CostValue>>,
    /// Most facing changes per movement window (turn or phase).
    pub most: Option<u32>,
    /// The counter that counts facing changes (needed for `cost` and `most`).
    pub counter: Option<Located<String>>,
    /// With `forward_only`: while this optional rule is in force, a step to either side of
    /// the heading may keep the heading (an oblique move) instead of turning the piece.
    pub oblique_option: Option<Located<String>>,
    /// With `forward_only` and `counter`: a move may change facing in its middle, where its
    /// path needs it, paid and counted as a facing change.
    pub mid_move: Option<Located<bool>>,
    /// Flags that bar every facing change while set: `face` orders, a move's first or
    /// middle one. (Left out of the identity when empty, so rulesets that set none keep
    /// the hash their saved games carry.)
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub barred_by: Vec<Located<String>>,
}

/// A flag that slows a piece to a few cells a move.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SlowedBySpec {
    /// The flag.
    pub flag: Located<String>,
    /// Only while this optional rule is in force.
    pub option: Option<Located<String>>,
    /// Most cells a move may enter while slowed (0: it cannot move).
    pub max_steps: u32,
}

/// Leaving the board across a baseline.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ExitSpec {
    /// `own` (default), `enemy` or `any` side's baseline.
    pub baseline: Option<Located<ExitBaseline>>,
    /// Only while this optional rule is in force.
    pub option: Option<Located<String>>,
    /// Flag set on the piece as it leaves.
    pub marks: Option<Located<String>>,
}

/// A flag a move sets.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct AfterMoveSpec {
    /// Fewest cells entered for it to apply (default 0: any move).
    pub min_steps: u32,
    /// Terrains the move must end in (default: anywhere).
    pub into: Vec<Located<String>>,
    /// The flag set.
    pub set: Located<String>,
}

/// Which half-hexes cut by the table edge may be entered.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct HalfHexRulesSpec {
    /// Side half-hexes may be entered (default true).
    pub sides: Option<bool>,
    /// Baseline half-hexes may be entered (default true).
    pub baselines: Option<bool>,
    /// Baseline half-hexes may also be entered while this optional rule is in force.
    pub baselines_option: Option<Located<String>>,
}

/// A stacking limit.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct StackSpec {
    /// Capacity (`2½` blocks, `150` figures).
    pub capacity: CostValue,
    /// Count a counter (`figures`) instead of type weights.
    pub counter: Option<Located<String>>,
}

/// Zones of control.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ZocSpec {
    /// True when entering an enemy zone ends a move.
    pub stops_movement: bool,
    /// Counters that, above zero, remove a piece's zone.
    pub lost_with_counters: Vec<Located<String>>,
    /// Flags that remove a piece's zone.
    pub lost_with_flags: Vec<Located<String>>,
}

/// Open-table movement near the enemy.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct OpenTableSpec {
    /// No move may bring a piece closer than this (rule inches) to an enemy piece.
    pub keep_apart: Option<CostValue>,
    /// Threatened zones reach only where the threatening piece can see.
    pub threat_needs_sight: bool,
    /// A move may enter (and stop in) only the threatened zone of an enemy the piece faces
    /// (in the front arc of its facing at the end of the move, seen from where it starts);
    /// entering any other enemy's zone is refused.
    pub enter_only_faced_threats: bool,
    /// Flags that let a piece ignore threatened zones (it may enter, cross and move closer
    /// within them; `keep_apart` still holds).
    pub threats_ignored_with_flags: Vec<Located<String>>,
    /// Piece type → its threatened zone in its front arc.
    pub threats: NamedMap<ThreatSpec>,
    /// Counter holding how many moves a piece may still make; each move spends one.
    pub move_counter: Option<Located<String>>,
    /// Modes that cost one of those moves to change into (limbering up).
    pub mode_costs_a_move: Vec<Located<String>>,
    /// A flag the engine keeps set on a piece while its footprint touches an enemy's.
    pub contact_flag: Option<Located<String>>,
    /// Piece type → how it turns as it moves: `wheel`, `free` or a cost, for every mode
    /// or per mode (`{ line: wheel, column: free }`).
    pub pivots: NamedMap<PivotSpec>,
}

/// Lines of sight.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SightSpec {
    /// Open tables: other units' footprints block lines of sight.
    pub pieces_block: Option<Located<bool>>,
}

/// How far a piece type threatens (rule inches), by what it threatens.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ThreatSpec {
    /// Reach against anything not listed.
    pub range: CostValue,
    /// Reach against these piece types.
    pub types: NamedMap<CostValue>,
    /// Reach against pieces in these modes (wins over `types`).
    pub modes: NamedMap<CostValue>,
}

/// Sequence of play.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SequenceSpec {
    /// Turns in a game unless the scenario says.
    pub turns: Option<u32>,
    /// Dice every side rolls at the start of each turn to decide the order of play
    /// (highest first, ties roll again); without it sides play in scenario order.
    pub initiative: Option<Located<String>>,
    /// Phases once per turn, before the sides' turns.
    pub turn_start: Vec<PhaseSpec>,
    /// Phases each side plays as the phasing side.
    pub side_turn: Vec<PhaseSpec>,
    /// Phases once per turn, after the sides' turns.
    pub turn_end: Vec<PhaseSpec>,
    /// `true`: the side-turn phases are played phase by phase, each by every side in the
    /// order of play, rather than side by side.
    pub interleave: bool,
    /// Other sequences of play, each used instead of this one while its optional rule is in
    /// force (the first listed whose rule is on).
    pub variants: Vec<Located<SequenceVariantSpec>>,
    /// `false`: the ruleset promises that its `phase_begin` hook refuses nothing, so the
    /// legal orders list `end_phase` without running the next phase's hook on a copy
    /// (a refusal there is then a ruleset bug, which `grognard fuzz` reports). Unset: true
    /// (and left out of the identity, so saved games of rulesets without it still replay).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase_begin_refuses: Option<bool>,
}

/// A sequence of play used while an optional rule is in force.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SequenceVariantSpec {
    /// The optional rule.
    pub option: Located<String>,
    /// Phases once per turn, before the sides' turns.
    pub turn_start: Vec<PhaseSpec>,
    /// Phases each side plays as the phasing side.
    pub side_turn: Vec<PhaseSpec>,
    /// Phases once per turn, after the sides' turns.
    pub turn_end: Vec<PhaseSpec>,
    /// Side-turn phases phase by phase, alternating the sides.
    pub interleave: bool,
}

/// A phase.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct PhaseSpec {
    /// Name.
    pub phase: Located<String>,
    /// `phasing` (default), `non_phasing` or `both`.
    pub actor: Option<Located<PhaseActor>>,
    /// `move`, `face`, `mode` and ruleset action names.
    pub allows: Vec<Located<String>>,
    /// Piece types that may move in this phase (default: every type).
    pub movers: Vec<Located<String>>,
}

/// A chart.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ChartSpec {
    /// What it is for.
    pub description: Option<String>,
    /// What is rolled: `2d6`, `d10`, `cube`, `2 cube`.
    pub dice: Located<String>,
    /// Named inputs.
    pub inputs: NamedMap<InputSpec>,
    /// Modifiers.
    pub modifiers: Vec<ModifierSpec>,
    /// Caps on groups of modifiers.
    pub groups: NamedMap<GroupSpec>,
    /// Re-roll policies.
    pub rerolls: Vec<RerollSpec>,
    /// Score chart rows (first match wins).
    pub rows: Vec<RowSpec>,
    /// Outcome when no row matches.
    pub otherwise: Option<Located<String>>,
    /// Band chart: which input gives the band, and the bands.
    pub bands: Option<BandsSpec>,
    /// A referee's secret roll: its rolls are logged for the referee only.
    pub secret: bool,
    /// How a result that is not whole rounds, for the chart's multiplying modifiers and
    /// the halvings of its actions' amounts: `down`, `up` or `nearest` (a half rounds up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<Round>,
}

/// A chart input.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct InputSpec {
    /// Default value (0).
    pub default: i32,
    /// Lowest value (0).
    pub min: Option<i32>,
    /// Highest value (1).
    pub max: Option<i32>,
    /// Where an action takes it from: `distance`, `distance_band [1, 2, 3]`,
    /// `actor.counter NAME`, `target.counter NAME`, `actor.flag NAME`, `target.flag NAME`,
    /// `actor.attribute NAME`, `target.attribute NAME`, `option NAME`,
    /// `target.flank_or_rear`, `target.terrain ATTRIBUTE`, `setting NAME`, `intent NAME`
    /// (1 when the action was given for NAME, one of its `intents`).
    #[schemars(schema_with = "words::input_from_schema")]
    pub from: Option<Located<String>>,
    /// For `distance_band`: the largest distance of each band.
    pub bands: Vec<u32>,
    /// Other inputs of the chart that must all be non-zero for this one to count (it reads
    /// 0 otherwise): `with: [opportunist]`.
    pub with: Vec<Located<String>>,
    /// Other inputs of the chart that must all be 0 for this one to count (an optional rule
    /// that replaces it): `without: [by_outcome]`.
    pub without: Vec<Located<String>>,
    /// For `actor.friends_within` and `target.friends_within`: the friends' piece types
    /// (any type when empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<Located<String>>,
    /// For `actor.friends_within` and `target.friends_within`: how near (rule inches on an
    /// open table, cells on a grid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<Located<CostValue>>,
}

/// A modifier.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ModifierSpec {
    /// What players call it.
    pub name: String,
    /// The input it scales.
    pub input: Located<String>,
    /// Value per unit of the input.
    pub per: i32,
    /// A multiplying modifier instead: while the input is non-zero the score is scaled by
    /// this factor (`1/2`, `½`, `2`, `3/2`), after the adding modifiers, in the order
    /// written, rounded as the chart's `round:` says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub times: Option<Located<Text>>,
    /// Cap group.
    pub group: Option<Located<String>>,
}

/// A cap group.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct GroupSpec {
    /// Lowest total.
    pub min: Option<i32>,
    /// Highest total.
    pub max: Option<i32>,
}

/// A re-roll policy.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct RerollSpec {
    /// Die name (default: the chart's first die).
    pub die: Option<Located<String>>,
    /// Face labels re-rolled once; the second roll stands.
    pub faces: Vec<Located<String>>,
    /// Active only when this input is non-zero.
    pub when: Option<Located<String>>,
}

/// A score-chart row.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct RowSpec {
    /// Score or range: `7`, `"8-10"`, `"10+"`.
    pub score: Option<Located<String>>,
    /// Lowest score.
    pub min: Option<i32>,
    /// Highest score.
    pub max: Option<i32>,
    /// Conditions on inputs (`class: 1`).
    pub when: NamedMap<i32>,
    /// Range of the natural roll (the dice before modifiers): `12`, `"10-11"`, `"2-"`.
    pub natural: Option<Located<String>>,
    /// Outcome name.
    pub result: Located<String>,
}

/// The bands of a band chart.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct BandsSpec {
    /// Input holding the unmodified band index.
    pub base: Located<String>,
    /// Bands, best first.
    pub rows: Vec<BandSpec>,
}

/// One band.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct BandSpec {
    /// Band name.
    pub band: String,
    /// `always` or `never`; or a face test: `all`, `any` or `at_least`.
    pub test: Option<Located<BandTest>>,
    /// Tags that must all be on the face.
    pub all: Vec<Located<String>>,
    /// Tags of which one must be on the face.
    pub any: Vec<Located<String>>,
    /// Lowest face value that passes.
    pub at_least: Option<i32>,
    /// Outcome on a pass.
    pub pass: Located<String>,
    /// Outcome on a fail.
    pub fail: Located<String>,
}

/// A ruleset action.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ActionSpec {
    /// What it is.
    pub description: Option<String>,
    /// Chart rolled.
    pub chart: Option<Located<String>>,
    /// `none` (default), `enemy` or `friend`.
    pub target: Option<Located<Target>>,
    /// `[min, max]` distance: whole cells on a grid, rule inches on an open table
    /// (`[0, 4.5]`, to the hundredth).
    pub range: Option<Located<[CostValue; 2]>>,
    /// Arcs the target must be in: `front`, `flank`, `rear`.
    pub arcs: Vec<Located<ArcName>>,
    /// True when the line to the target must be clear.
    pub sight: bool,
    /// Flags that forbid it.
    pub barred_by: Vec<Located<String>>,
    /// Flags the actor must have (all of them) to take it.
    pub needs: Vec<Located<String>>,
    /// Flag set on the actor after acting.
    pub marks: Option<Located<String>>,
    /// Piece types that may take it (all when empty).
    pub types: Vec<Located<String>>,
    /// Piece types it may target (all when empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub target_types: Vec<Located<String>>,
    /// Piece types it may not target ("generals may not be fired on").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub target_not_types: Vec<Located<String>>,
    /// Flags the target must have (all of them): an enemy that failed its order in woods.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub target_needs: Vec<Located<String>>,
    /// Flags the target may not have (any of them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub target_barred_by: Vec<Located<String>>,
    /// Effects by outcome name (`hit: [...]`); `always` for actions without a chart.
    pub on: NamedMap<Vec<EffectSpec>>,
    /// A Lua function (`module.function`) that resolves the action after its checks and
    /// its chart; it may roll dice and return changes.
    pub script: Option<Located<String>>,
    /// A Lua function (`module.function`) that says whether the action may be taken now,
    /// before its chart and script: it reads the game (actor, target, `game:intent()`),
    /// changes nothing, and returns `nil` to allow it or a string saying why not. The
    /// legal-order generator lists the action on its word, so the script must refuse
    /// nothing the check allows.
    pub check: Option<Located<String>>,
    /// The batch form of `check:`, for an action with a target (one or the other): a Lua
    /// function `(game, actor, targets)` answering for all the targets at once, `nil` or a
    /// table of reasons by target number. The legal-order generator asks it once per
    /// actor and intent instead of once per target; `apply` asks it with its one target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_all: Option<Located<String>>,
    /// True when a piece may take it more than once in a phase (default: once).
    pub repeats: bool,
    /// What an order of it may say it is for (`intent:` in orders files): `[charge,
    /// unlimber]`. Chart inputs read them with `from: intent NAME`.
    pub intents: Vec<Located<String>>,
    /// True when the actor moves into contact with its target as the action resolves (open
    /// tables): the engine puts its front edge against the target's edge facing it.
    pub contact: Option<Located<bool>>,
    /// True when only the actor's side sees the action taken (its log line names the
    /// actor); the other sides learn only what its script announces (a forward
    /// deployment announced by its square, not by the marker).
    pub private: bool,
}

/// One effect: exactly one of `add`, `set`, `clear`, `mode`, `remove`, `fall_back`,
/// `follow_up`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct EffectSpec {
    /// Counter to add to.
    pub add: Option<Located<String>>,
    /// Amount for `add` (1): a whole number, or worked out from the action's roll
    /// (`score`, `natural`, `die N`, a chart input, `{ half: score }`, `{ sum: [...] }`...).
    pub amount: Option<Located<amount::AmountSpec>>,
    /// Flag to set.
    pub set: Option<Located<String>>,
    /// Flag to clear.
    pub clear: Option<Located<String>>,
    /// Mode to take.
    pub mode: Option<Located<String>>,
    /// Remove the piece (`remove: true`).
    pub remove: Option<bool>,
    /// Fall back this far (rule inches on an open table, cells on a grid), straight away
    /// from the other piece of the action, keeping the facing. Actions only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fall_back: Option<Located<CostValue>>,
    /// With `fall_back`: what a unit blocked short of the distance does, `stop` (the
    /// default: where it got to), `stay` or `remove`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked: Option<Located<Blocked>>,
    /// Follow up: move back into contact with the other piece of the action (`to:`
    /// defaults to the actor here). Actions only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follow_up: Option<bool>,
    /// Pursue: take this action at once against the other piece of the action, the unit
    /// just beaten (`to:` defaults to the actor here). Actions only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pursue: Option<Located<String>>,
    /// `actor` or `target` (default `target` in actions, `actor` in triggers).
    pub to: Option<Located<EffectTo>>,
}

/// An optional rule.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct OptionSpec {
    /// On unless chosen otherwise.
    pub default: bool,
    /// What it changes.
    pub description: Option<String>,
}

/// Hidden information.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SightingSpec {
    /// The sighting scale, best first (`A`, `B`, `C`, `D`; or `seen`).
    pub levels: NamedMap<LevelSpec>,
    /// What every side knows of an enemy piece that is not concealed: a list of
    /// `position`, `real`, `kind`, `strength`, `identity`.
    pub public: Vec<Fact>,
    /// What a face-up marker shows everyone (default `[kind, real]`).
    pub face_up: Option<Vec<Fact>>,
    /// Piece types never face down (single figures on the table, not markers): what
    /// `face_up` shows is known of them by every side whenever they are not concealed.
    pub in_view: Vec<Located<String>>,
    /// What every side knows of a concealed piece (default nothing; `[position]` for a
    /// hidden marker on the table).
    pub concealed_public: Vec<Fact>,
    /// The counter that is a piece's strength (the number of units in a command).
    pub strength: Option<Located<String>>,
    /// Terrains that conceal the pieces in them.
    pub concealed_by: Vec<Located<String>>,
    /// A flag that conceals a piece.
    pub concealed_flag: Option<Located<String>>,
    /// Sighting charts by name.
    pub charts: NamedMap<SightChartSpec>,
    /// Who observes with which chart, first match wins; pieces no entry names do not
    /// observe, and dummies never do.
    pub observers: Vec<ObserverSpec>,
    /// Pieces that come this close are revealed to each other, and a move ends there.
    pub contact: Option<ContactSpec>,
    /// Two enemy pieces next to each other that both carry this flag keep the level they
    /// see each other at (units locked in melee do not lose sight of each other).
    pub locked_flag: Option<Located<String>>,
    /// Phases at whose start spotting rolls are made.
    pub spotting_phases: Vec<Located<String>>,
    /// True when nothing is sighted while the sides set up: no side learns anything of the
    /// other's pieces until the first phase has begun (and its `phase_begin` hook run).
    pub blind_setup: bool,
    /// True when a dummy marker seen at a flipping level is turned face up for the sides
    /// that see it so only: its owner (and every other side) still has it face down, so a
    /// dummy learns nothing from its own flip.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub private_dummy_flips: bool,
    /// True when a piece's mode is disclosed with its identity, not with its position: a
    /// side that has not identified an enemy piece (a hidden marker) is not shown its mode,
    /// its mode changes or the untargeted actions it takes (a marker shows only its place
    /// and facing). Without it an enemy's mode is public wherever its position is.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub mode_with_identity: bool,
    /// True when an enemy marker a side knows to be a dummy keeps none of the side's pieces
    /// out of its cells (they may enter, pass and share them); a marker the side has not
    /// identified as a dummy keeps them out as a real one would.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub known_dummies_give_way: bool,
    /// Decoys shown for pieces no enemy can see.
    pub decoys: Option<DecoySpec>,
}

/// One sighting level.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct LevelSpec {
    /// What it discloses: `position`, `real`, `kind`, `strength`, `identity`.
    pub discloses: Vec<Fact>,
    /// What it discloses besides when the observer is next to the piece.
    pub adjacent: Vec<Fact>,
    /// True when a face-down marker seen at this level turns face up for all.
    pub flips_up: bool,
    /// What it means.
    pub description: Option<String>,
}

/// A sighting chart: either offsets drawn as a grid of level names around `X`, or range
/// bands.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SightChartSpec {
    /// Rows of level names, farthest ahead first, the observer written `X`; a `*` after a
    /// name discloses concealed pieces too; `.` is off the chart. Square grids.
    pub offsets: Vec<Located<String>>,
    /// Distance bands, nearest first.
    pub range: Vec<RangeBandSpec>,
    /// What it is.
    pub description: Option<String>,
}

/// A range band of a sighting chart.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct RangeBandSpec {
    /// Up to this distance.
    pub within: u32,
    /// Longer reach from these terrains (`hill: 12`).
    pub from: NamedMap<u32>,
    /// The level it gives.
    pub level: Located<String>,
    /// True when it finds concealed pieces too.
    pub concealed_too: bool,
    /// A roll it needs, made at the start of the spotting phases.
    pub roll: Option<SightRollSpec>,
    /// Terrains it does not find pieces in (cover).
    pub not_in: Vec<Located<String>>,
    /// What a piece carries that it does not find it under (`{counter: works, at_least: 4}`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_when: Vec<Located<MarkSpec>>,
    /// Only while this optional rule is on.
    pub option: Option<Located<String>>,
    /// Only while a setting has a value (`{clear_day: 1}`).
    pub setting: NamedMap<i32>,
}

/// A spotting roll.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SightRollSpec {
    /// The chart rolled.
    pub chart: Located<String>,
    /// The outcome that spots.
    pub outcome: Located<String>,
}

/// Which pieces observe with which chart.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ObserverSpec {
    /// Piece types (none: every other type).
    pub types: Vec<Located<String>>,
    /// The sighting chart.
    pub chart: Located<String>,
    /// Flags that keep a piece from observing.
    pub barred_by: Vec<Located<String>>,
    /// The chart a spread piece's cells other than its main cell read (`chart` is then
    /// read from the main cell only; none: every cell reads `chart`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spread_chart: Option<Located<String>>,
}

/// Contact between enemy pieces.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ContactSpec {
    /// Distance (1: next to).
    pub within: u32,
    /// The level both sides get.
    pub level: Located<String>,
    /// True when a move that comes into contact ends there (default true).
    pub stops: Option<bool>,
    /// True when every cell a move enters within reach of an enemy is contact again, even
    /// for a piece already in contact with it (default false: only new contact counts).
    pub each_step: bool,
    /// Piece types that come into contact (default: every type).
    pub types: Vec<Located<String>>,
}

/// Decoys for unseen pieces.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct DecoySpec {
    /// Only while this optional rule is on.
    pub option: Option<Located<String>>,
    /// Piece types that get decoys and stay hidden until sighted.
    pub types: Vec<Located<String>>,
    /// Decoys per piece.
    pub per_piece: u32,
    /// The decoys' piece type (a dummy type).
    #[serde(rename = "type")]
    pub kind: Located<String>,
}

/// Saved movement points.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SavingSpec {
    /// The counter that holds them.
    pub counter: Located<String>,
    /// What one on the counter is worth (default 1; `½` for half points).
    pub unit: Option<CostValue>,
    /// Modes in which a piece may always save.
    pub modes: Vec<Located<String>>,
    /// True when a piece in any mode may save toward terrain that costs it extra.
    pub costly_terrain: bool,
}

/// Spreading commands over several cells.
#[derive(Clone, Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SpreadSpec {
    /// The counter divided among the cells (`figures`).
    pub counter: Option<Located<String>>,
    /// The least each cell must hold.
    pub min_per_cell: i32,
    /// True when a command grows at most one cell outward a phase: each cell it spreads
    /// into is next to a cell it held as the phase began, and a command that gathered in
    /// the phase spreads no more in it (except in `relay_modes`).
    pub from_phase_start: bool,
    /// Modes in which a command that gathered this phase may spread again in it.
    pub relay_modes: Vec<Located<String>>,
    /// True when a spread is a step: the cell must be one the command could enter this
    /// phase from the cell it spreads from (its allowance with saved points), points saved
    /// toward it are spent on it, and saving and spreading do not share a phase.
    pub costs_step: bool,
}
