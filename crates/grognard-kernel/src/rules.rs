//! A ruleset as the kernel sees it: every name already resolved to an id.
//!
//! The rules crate builds this from YAML (after overlays and validation); tests build it by
//! hand. Nothing here knows about files.

pub mod company;
pub mod states;
pub mod turning;
pub mod victory;

use serde::{Deserialize, Serialize};

use crate::chart::ChartDef;
use crate::cost::Cost;
use crate::dice::{DiceExpr, DieDef};
use crate::geometry::open::Scale;
use crate::geometry::{Arc, ArcSpec};
use crate::ids::Names;
use crate::ids::{ActionId, ChartId, CounterId, FlagId, ModeId, MoveClassId, PieceTypeId, SideId};

/// Name and content hash of the merged ruleset a game was played with. Saves record it so
/// a replay under a changed ruleset is refused.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RulesetIdentity {
    /// Ruleset name.
    pub name: String,
    /// Hex digest of the merged ruleset's canonical form.
    pub hash: String,
}

/// Which board a ruleset plays on, with the numbers the geometry needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GeometryRules {
    /// Square grid with diagonals.
    Square {
        /// Cost of an orthogonal step.
        orthogonal: Cost,
        /// Cost of a diagonal step.
        diagonal: Cost,
    },
    /// Hex grid with facing.
    Hex {
        /// Cost of one hex step.
        step: Cost,
    },
    /// Open table measured in inches.
    Open {
        /// Rule distance to table distance.
        scale: Scale,
    },
}

/// A mode or formation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModeDef {
    /// Name.
    pub name: String,
    /// False when a piece in this mode may not share its place with another own piece
    /// (road columns).
    pub stacks: bool,
    /// True when a step along a road ignores terrain costs (road movement).
    pub uses_roads: bool,
    /// True when a piece in this mode may only move along roads.
    pub roads_only: bool,
    /// Modes from which taking this one needs a whole movement phase standing still (the
    /// piece must not have moved, and may not move after, in that phase).
    #[serde(default)]
    pub stationary_from: Vec<ModeId>,
}

/// A named counter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterDef {
    /// Name.
    pub name: String,
    /// Starting value.
    pub initial: i32,
    /// Lowest value.
    pub min: i32,
    /// Highest value.
    pub max: i32,
    /// Effects that fire when the counter reaches a value.
    pub triggers: Vec<Trigger>,
    /// How the log words it ("fatigue (TE) hits"); empty: its name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub called: String,
}

/// "When the counter reaches `at_least`, do `effects`."
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trigger {
    /// Threshold (inclusive).
    pub at_least: i32,
    /// What happens, to the piece carrying the counter.
    pub effects: Vec<Effect>,
}

/// When a flag clears by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Clears {
    /// Only by an effect.
    Never,
    /// At the end of every phase.
    PhaseEnd,
    /// At the end of every turn.
    TurnEnd,
}

/// A named flag.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlagDef {
    /// Name.
    pub name: String,
    /// When it clears by itself.
    pub clears: Clears,
    /// A flag the engine keeps by itself (`while:`): set exactly while this holds of the
    /// piece (`clears` is then `Never`, and no effect sets or clears it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holds: Option<states::Holds>,
    /// With `holds`: the piece types the engine keeps it on (`while: { types: [...] }`;
    /// empty: every type). A piece of another type never holds it (a general is never out
    /// of his own command).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holds_types: Vec<PieceTypeId>,
}

/// A piece type's own triggers for one counter, used instead of the counter's for pieces
/// of the type (a general gone at 2 hits where a battalion lasts to 6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeTriggers {
    /// The counter.
    pub counter: CounterId,
    /// Its triggers for pieces of this type.
    pub triggers: Vec<Trigger>,
}

/// A terrain type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrainDef {
    /// Name.
    pub name: String,
    /// True when nothing sees through it.
    pub blocks_sight: bool,
    /// Open tables: troops inside an area of it see out and are seen only within this
    /// distance of its edge, in table thou (`None`: from anywhere inside).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub see_out_within: Option<crate::geometry::open::Len>,
    /// Open tables, with `blocks_sight`: a line of sight across an area of it is clear
    /// when the line is at most this long, in table thou (`None`: it never is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub see_through: Option<crate::geometry::open::Len>,
    /// Values of the ruleset's terrain attributes (cover, elevation...), by attribute index.
    pub attributes: Vec<i32>,
}

/// What a boundary feature does to a step that crosses it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeatureKind {
    /// A road or trail along the step.
    Road,
    /// Something in the way (river, wall): extra cost, or impassable when `cost` is None.
    Barrier {
        /// Extra cost to cross, or `None` when it cannot be crossed.
        cost: Option<Cost>,
    },
    /// A way over barriers on the same boundary (bridge, ford), with its own extra cost.
    Crossing {
        /// Extra cost of using it.
        cost: Cost,
    },
}

/// A feature on the boundary between two cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureDef {
    /// Name.
    pub name: String,
    /// What it does.
    pub kind: FeatureKind,
    /// True when sight across it is blocked.
    pub blocks_sight: bool,
    /// Crossings: how many pieces may cross at one place each turn (a bridge's or a
    /// ford's capacity; `None`: no limit).
    #[serde(default)]
    pub capacity: Option<u32>,
    /// Barriers: modes that may not cross it at all, whatever its cost (guns deployed to
    /// fire cannot be pushed over a stream); a crossing on the same boundary still carries
    /// them.
    #[serde(default)]
    pub closed_to: Vec<ModeId>,
}

/// A movement class: what each terrain costs to enter (Wesnoth's movement types).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveClassDef {
    /// Name.
    pub name: String,
    /// Extra cost to enter each terrain (by terrain index); `None` = not allowed.
    pub enter: Vec<Option<Cost>>,
    /// True when an entered terrain with a cost stops the move there.
    pub stops_on_costly: bool,
}

/// How often a piece may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveLimit {
    /// Once in each phase that allows movement.
    PerPhase,
    /// Once per turn.
    PerTurn,
}

/// A piece type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceTypeDef {
    /// Name.
    pub name: String,
    /// Its footprint on the open table in each mode (by mode index; empty or `None`: a
    /// point, measured from its centre).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub footprint: Vec<Option<crate::geometry::footprint::Footprint>>,
    /// Its terrain cost table.
    pub move_class: MoveClassId,
    /// Allowance per mode (by mode index); `None` = cannot move in that mode.
    pub allowance: Vec<Option<Cost>>,
    /// Most cells per move in each mode (by mode index); `None` = no limit.
    pub max_steps: Vec<Option<u32>>,
    /// Weight in each stacking limit (by stack index), in hundredths (a half block = 50).
    pub stack: Vec<Cost>,
    /// Mode a piece of this type starts in when the scenario does not say.
    pub default_mode: ModeId,
    /// True when it projects a zone of control.
    pub exerts_zoc: bool,
    /// True when it may move through cells holding other own pieces.
    pub passes_friends: bool,
    /// True when it may share a cell with enemy pieces (a single figure): it may enter
    /// cells they hold, and does not keep them out of its own.
    #[serde(default)]
    pub shares_with_enemy: bool,
    /// True when it takes no room in a cell (a single figure): it may share a cell with
    /// own pieces in a mode that cannot stack, and they with it; it uses up no crossing's
    /// capacity.
    #[serde(default)]
    pub takes_no_room: bool,
    /// How often it may move.
    pub moves: MoveLimit,
    /// True for dummies (decoys).
    pub dummy: bool,
    /// True for a dummy its owner moves as a unit: it is never lifted and put down
    /// elsewhere (no `redeploy` order).
    #[serde(default)]
    pub no_redeploy: bool,
    /// How a refusal words a piece of this type ("a fake counter"); empty: its name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub called: String,
    /// True when it has a facing that matters.
    pub faces: bool,
    /// Values of the ruleset's piece attributes (class, morale...), by attribute index.
    pub attributes: Vec<i32>,
    /// Which own pieces it may pass through or join, leaving the board, and the flags its
    /// moves set.
    #[serde(default)]
    pub company: company::Company,
    /// How its facing shapes its moves: forward-only steps, the price and number of facing
    /// changes.
    #[serde(default)]
    pub turning: turning::Turning,
    /// Its own counter triggers, each replacing the counter's triggers for this type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<TypeTriggers>,
}

impl PieceTypeDef {
    /// Whether a piece of this type can be in `mode` at all: it has a movement allowance in
    /// it (the one rule a mode change, a scenario's placement and an effect's mode ask).
    #[must_use]
    pub fn can_take(&self, mode: ModeId) -> bool {
        self.allowance
            .get(mode.index())
            .is_some_and(Option::is_some)
    }
}

/// What a stacking limit counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StackMeasure {
    /// Each piece type's weight.
    Weight,
    /// A counter of each piece (figures).
    Counter(CounterId),
}

/// A stacking limit per place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackDef {
    /// Name.
    pub name: String,
    /// Capacity, in hundredths for weights, or a plain number for counters.
    pub capacity: i32,
    /// What it counts.
    pub measure: StackMeasure,
}

/// Zones of control.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZocRules {
    /// True when pieces that exert a zone stop others that enter it.
    pub stops_movement: bool,
    /// A piece with any of these counters above zero has no zone.
    pub lost_with_counters: Vec<CounterId>,
    /// A piece with any of these flags has no zone.
    pub lost_with_flags: Vec<FlagId>,
}

/// Who an effect applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// The acting piece (or the piece carrying a triggered counter).
    Actor,
    /// The target.
    Target,
}

/// A change an outcome or trigger makes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Adds to a counter (clamped to its range).
    AddCounter {
        /// Whose counter.
        who: Who,
        /// Which counter.
        counter: CounterId,
        /// How much (may be negative).
        amount: i32,
    },
    /// Adds an amount worked out from the action's roll (`amount: score`), then clamps
    /// like `AddCounter`. Only an action's outcome has a roll: the action turns it into an
    /// `AddCounter` of the number before applying it, and logs how it was worked out.
    AddComputed {
        /// Whose counter.
        who: Who,
        /// Which counter.
        counter: CounterId,
        /// How it is worked out.
        amount: crate::amount::Amount,
    },
    /// Sets or clears a flag.
    SetFlag {
        /// Whose flag.
        who: Who,
        /// Which flag.
        flag: FlagId,
        /// On or off.
        on: bool,
    },
    /// Changes mode.
    SetMode {
        /// Whose mode.
        who: Who,
        /// The new mode.
        mode: ModeId,
    },
    /// Takes the piece off the board.
    Remove {
        /// Which piece.
        who: Who,
    },
    /// Moves the piece straight back, away from the other piece of the action (its rear on
    /// an open table; on a grid each step to the neighbour farthest from it), keeping its
    /// facing: a melee's loser falling back.
    FallBack {
        /// Which piece.
        who: Who,
        /// How far: rule inches on an open table, cells on a grid.
        distance: Cost,
        /// What happens when terrain, the table's edge or other pieces stop it short.
        blocked: states::WhenBlocked,
    },
    /// The piece advances into contact with the other piece of the action again after
    /// that one fell back (on a grid, into the cell it left): a winner following up.
    FollowUp {
        /// Which piece follows.
        who: Who,
    },
    /// The piece at once takes another action against the other piece of this one — the
    /// unit it has just beaten — with that action's checks, chart and effects (a
    /// pursuit). Refused by its checks, it is not taken and the log says why; the order
    /// that won stands. Actions only.
    Pursue {
        /// Which piece pursues.
        who: Who,
        /// The action it takes.
        action: ActionId,
    },
}

impl Who {
    /// The other party of an action.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::Actor => Self::Target,
            Self::Target => Self::Actor,
        }
    }
}

/// Who may act in a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// The phasing side.
    Phasing,
    /// The other side(s).
    NonPhasing,
    /// Every side; the phase ends when all have ended it.
    Both,
}

impl Actor {
    /// Whether `side` acts in a phase with these actors when `phasing` is the phasing side:
    /// the one answer to "may this side act" that giving orders, listing them, ending the
    /// phase and losing saved points all ask.
    #[must_use]
    pub fn includes(self, side: SideId, phasing: SideId) -> bool {
        match self {
            Self::Phasing => side == phasing,
            Self::NonPhasing => side != phasing,
            Self::Both => true,
        }
    }
}

/// An action kind a phase may allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Allowed {
    /// Moving pieces.
    Move,
    /// Changing facing.
    Face,
    /// Changing mode or formation.
    Mode,
    /// A ruleset action.
    Action(ActionId),
}

/// A phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseDef {
    /// Name.
    pub name: String,
    /// Who acts.
    pub actor: Actor,
    /// What they may do.
    pub allows: Vec<Allowed>,
    /// Piece types that may move in this phase (empty: every type).
    #[serde(default)]
    pub movers: Vec<PieceTypeId>,
}

/// The sequence of play: each turn runs `turn_start`, then `side_turn` once for each side
/// as the phasing side (in scenario order), then `turn_end`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sequence {
    /// Phases once per turn, before the sides' turns.
    pub turn_start: Vec<PhaseDef>,
    /// Phases repeated for each phasing side.
    pub side_turn: Vec<PhaseDef>,
    /// Phases once per turn, after the sides' turns.
    pub turn_end: Vec<PhaseDef>,
    /// Number of turns when the scenario does not say.
    pub turns: u32,
    /// When set, every side rolls these dice at the start of each turn and the sides take
    /// their turns from the highest total down (ties roll again); otherwise scenario order.
    pub initiative: Option<DiceExpr>,
    /// `true`: `side_turn` is played phase by phase, each phase by every side in the order
    /// of play before the next phase (A's first phase, B's first phase, A's second...).
    #[serde(default)]
    pub interleaved: bool,
    /// Other sequences of play: the first whose optional rule is in force replaces
    /// `turn_start`, `side_turn`, `turn_end` and `interleaved` (turns and initiative stay).
    #[serde(default)]
    pub variants: Vec<SequenceVariant>,
}

/// A sequence of play used instead of the main one while an optional rule is in force.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SequenceVariant {
    /// The optional rule, by option index.
    pub option: usize,
    /// Phases once per turn, before the sides' turns.
    pub turn_start: Vec<PhaseDef>,
    /// Phases repeated for each phasing side.
    pub side_turn: Vec<PhaseDef>,
    /// Phases once per turn, after the sides' turns.
    pub turn_end: Vec<PhaseDef>,
    /// Side-turn phases phase by phase, alternating the sides.
    pub interleaved: bool,
}

/// The phase lists of the sequence of play in force.
#[derive(Clone, Copy, Debug)]
pub struct ActiveSequence<'a> {
    /// Phases once per turn, before the sides' turns.
    pub turn_start: &'a [PhaseDef],
    /// Phases played by each side.
    pub side_turn: &'a [PhaseDef],
    /// Phases once per turn, after the sides' turns.
    pub turn_end: &'a [PhaseDef],
    /// Side-turn phases phase by phase, alternating the sides.
    pub interleaved: bool,
}

impl Sequence {
    /// The turn plan ([`Rules::turn_plan`]) of sides playing in `order` with these optional
    /// rules in force.
    #[must_use]
    pub fn plan(&self, order: &[SideId], options: &[bool]) -> Vec<(&PhaseDef, usize)> {
        let mut plan = Vec::new();
        let mut step = 0;
        while let Some(entry) = self.plan_step(order, options, step) {
            plan.push(entry);
            step += 1;
        }
        plan
    }

    /// Entry `step` of [`Self::plan`] (`None` past its end), worked out without building
    /// the plan: asked for every order and by the scripts' `game:phase()`.
    #[must_use]
    pub fn plan_step(
        &self,
        order: &[SideId],
        options: &[bool],
        step: usize,
    ) -> Option<(&PhaseDef, usize)> {
        let seq = self.active(options);
        let first = order.first().map_or(0, |s| s.index());
        let (start, per_side) = (seq.turn_start.len(), seq.side_turn.len());
        if step < start {
            return seq.turn_start.get(step).map(|p| (p, first));
        }
        let middle = step - start;
        let sides = order.len();
        if middle < per_side * sides {
            let (phase, side) = if seq.interleaved {
                (middle / sides.max(1), middle % sides.max(1))
            } else {
                (middle % per_side.max(1), middle / per_side.max(1))
            };
            let side = order.get(side)?.index();
            return seq.side_turn.get(phase).map(|p| (p, side));
        }
        seq.turn_end
            .get(middle - per_side * sides)
            .map(|p| (p, first))
    }

    /// The phases in force with these optional rules (`options[i]`: option `i` is on).
    #[must_use]
    pub fn active(&self, options: &[bool]) -> ActiveSequence<'_> {
        match self
            .variants
            .iter()
            .find(|v| options.get(v.option) == Some(&true))
        {
            Some(v) => ActiveSequence {
                turn_start: &v.turn_start,
                side_turn: &v.side_turn,
                turn_end: &v.turn_end,
                interleaved: v.interleaved,
            },
            None => ActiveSequence {
                turn_start: &self.turn_start,
                side_turn: &self.side_turn,
                turn_end: &self.turn_end,
                interleaved: self.interleaved,
            },
        }
    }
}

/// Which pieces an action may target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetRule {
    /// No target.
    None,
    /// An enemy piece.
    Enemy,
    /// An own piece.
    Friend,
}

/// A ruleset action (fire, melee, rally...): checks, a chart, and effects per outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionDef {
    /// Name.
    pub name: String,
    /// The chart rolled, if any.
    pub chart: Option<ChartId>,
    /// What it targets.
    pub target: TargetRule,
    /// Allowed distance to the target, inclusive: whole cells on a grid (the compiler
    /// refuses a fraction there), rule inches to the hundredth on an open table (`4.5`),
    /// compared with the exact distance.
    pub range: Option<(Cost, Cost)>,
    /// Where the target must lie in the actor's arcs (empty = anywhere).
    pub arcs: Vec<Arc>,
    /// True when the line from actor to target must be clear.
    pub needs_sight: bool,
    /// The actor may not have any of these flags.
    pub barred_by: Vec<FlagId>,
    /// The actor must have every one of these flags.
    #[serde(default)]
    pub needs: Vec<FlagId>,
    /// Flag set on the actor once it has acted (e.g. `fired`).
    pub marks: Option<FlagId>,
    /// Effects for each outcome of the chart (by outcome index); without a chart, one list.
    pub effects: Vec<Vec<Effect>>,
    /// Piece types that may take it (empty = all).
    pub types: Vec<PieceTypeId>,
    /// Piece types it may target (empty = all): `target_types:`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_types: Vec<PieceTypeId>,
    /// Piece types it may not target (`target_not_types:`, "generals may not be fired on").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_not_types: Vec<PieceTypeId>,
    /// Flags the target must have (`target_needs:`: only a unit that failed its order in
    /// woods drifts). The legal listing rules the others out before any script is asked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_needs: Vec<FlagId>,
    /// Flags the target may not have (`target_barred_by:`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_barred_by: Vec<FlagId>,
    /// True when the ruleset's `action` hook resolves it (after its chart, if any).
    pub scripted: bool,
    /// True when the ruleset gives it a check beside its script (`check:`): the hooks'
    /// [`crate::hooks::Hooks::action_check`] decides, before its chart and script, whether
    /// it may be taken, and the legal-order generator lists it on the check's word alone.
    #[serde(default)]
    pub checked: bool,
    /// True when a piece may take it more than once in a phase (a commander giving orders).
    #[serde(default)]
    pub repeats: bool,
    /// What an order of this action may say it is for (`charge`, `unlimber`...); an
    /// [`crate::action::Action::Act`] naming anything else is refused.
    #[serde(default)]
    pub intents: Vec<String>,
    /// True when the actor moves into contact with its target as the action resolves (open
    /// tables; see [`crate::game::Game::contact_place`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub contact: bool,
    /// True when only the actor's side sees that it was taken (and by which piece): the
    /// other sides learn only what its script announces.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
}

/// An integer setting a scenario may choose (night, weather...).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingDef {
    /// Name.
    pub name: String,
    /// Value when the scenario does not set it.
    pub default: i32,
}

/// An optional rule: a switch picked at game start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionDef {
    /// Name.
    pub name: String,
    /// On unless chosen otherwise.
    pub default: bool,
}

/// How far a piece type threatens on an open table, in rule inches (see
/// [`OpenTableRules`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Threat {
    /// Reach against any piece not listed below.
    pub range: Cost,
    /// Reach against pieces of these types.
    pub against_types: Vec<(PieceTypeId, Cost)>,
    /// Reach against pieces in these modes (wins over `against_types`).
    pub against_modes: Vec<(ModeId, Cost)>,
}

/// Open-table movement near the enemy, and moves counted by a counter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenTableRules {
    /// No move may bring a piece closer than this (rule inches) to an enemy; 0: no limit.
    pub keep_apart: Cost,
    /// Threatened zone of each piece type (by type index); `None`: projects none.
    pub threats: Vec<Option<Threat>>,
    /// A threatened zone reaches only where its piece can see.
    pub threat_needs_sight: bool,
    /// A move may enter (and stop in) only the zone of an enemy the piece faces at the end
    /// of the move (in that facing's front arc, seen from the start); other zones are
    /// closed to it.
    #[serde(default)]
    pub enter_only_faced_threats: bool,
    /// A piece with any of these flags set ignores threatened zones: it may enter, cross
    /// and move closer within them (`keep_apart` still holds).
    #[serde(default)]
    pub threats_ignored_with_flags: Vec<FlagId>,
    /// When set, a piece may make as many moves in a phase as this counter holds, each
    /// spending one, instead of one move per phase or turn.
    pub move_counter: Option<CounterId>,
    /// Modes that cost one move of the `move_counter` to change into (limbering up).
    #[serde(default)]
    pub mode_costs_a_move: Vec<ModeId>,
    /// A flag the engine keeps set on every piece whose footprint touches an enemy's
    /// (locked in melee), and clears when it no longer does, after every order.
    #[serde(default)]
    pub contact_flag: Option<FlagId>,
    /// Pieces' footprints block lines of sight between other pieces.
    #[serde(default)]
    pub pieces_block_sight: bool,
    /// How piece types (or a type in one mode) turn as they move; a type with no entry
    /// wheels.
    #[serde(default)]
    pub pivots: Vec<PivotRule>,
}

/// How a unit on the open table turns as it moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pivot {
    /// The turn is a wheel about a front corner: the move costs the longest path a corner
    /// travels.
    #[default]
    Wheel,
    /// It turns about its centre for nothing: the move costs its centre's straight path.
    Free,
    /// A turn costs this much (rule inches) on top of the centre's straight path.
    Cost(Cost),
}

/// The pivot of a piece type, in one mode or (`mode: None`) in every mode not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PivotRule {
    /// The piece type.
    pub piece_type: PieceTypeId,
    /// The mode (`None`: any mode without its own entry).
    pub mode: Option<ModeId>,
    /// How it turns.
    pub pivot: Pivot,
}

impl OpenTableRules {
    /// How a piece of type `kind` in `mode` turns: its mode's entry, else its type's, else
    /// a wheel.
    #[must_use]
    pub fn pivot(&self, kind: PieceTypeId, mode: ModeId) -> Pivot {
        let of = |m: Option<ModeId>| {
            self.pivots
                .iter()
                .find(|r| r.piece_type == kind && r.mode == m)
                .map(|r| r.pivot)
        };
        of(Some(mode)).or_else(|| of(None)).unwrap_or_default()
    }
}

/// A whole ruleset, ready to play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// Name and hash.
    pub identity: RulesetIdentity,
    /// Board geometry.
    pub geometry: GeometryRules,
    /// Front/rear arc widths.
    pub arcs: ArcSpec,
    /// Modes and formations.
    pub modes: Vec<ModeDef>,
    /// Counters.
    pub counters: Vec<CounterDef>,
    /// Names of integer piece attributes (class, morale rating...).
    pub piece_attributes: Names,
    /// The piece attributes (by index) shown only to the piece's own side.
    #[serde(default)]
    pub private_attributes: Vec<usize>,
    /// The counters (by index) shown only to the piece's own side.
    #[serde(default)]
    pub private_counters: Vec<usize>,
    /// The flags (by index) shown only to the piece's own side.
    #[serde(default)]
    pub private_flags: Vec<usize>,
    /// Flags (at most 64).
    pub flags: Vec<FlagDef>,
    /// Face tags.
    pub tags: Names,
    /// Dice.
    pub dice: Vec<DieDef>,
    /// Terrain attribute names (cover, elevation...).
    pub terrain_attributes: Names,
    /// Terrain types; index 0 is the default for cells the scenario does not describe.
    pub terrain: Vec<TerrainDef>,
    /// Boundary features.
    pub features: Vec<FeatureDef>,
    /// Movement classes.
    pub move_classes: Vec<MoveClassDef>,
    /// Piece types.
    pub piece_types: Vec<PieceTypeDef>,
    /// Stacking limits.
    pub stacking: Vec<StackDef>,
    /// Zones of control.
    pub zoc: ZocRules,
    /// Sequence of play.
    pub sequence: Sequence,
    /// Charts.
    pub charts: Vec<ChartDef>,
    /// Actions.
    pub actions: Vec<ActionDef>,
    /// Scenario settings.
    pub settings: Vec<SettingDef>,
    /// Optional rules.
    pub options: Vec<OptionDef>,
    /// Open tables: threatened zones, closest approach, moves counted by a counter.
    #[serde(default)]
    pub open_table: OpenTableRules,
    /// Which half-hexes cut by the table edge pieces may enter.
    #[serde(default)]
    pub half_hexes: company::HalfHexRules,
    /// Hidden information: sighting levels, charts and observers (`None`: every piece is
    /// in plain view).
    #[serde(default)]
    pub sighting: Option<crate::knowledge::SightingRules>,
    /// What decides a game, unless the scenario says (`None`: a draw at the end).
    #[serde(default)]
    pub victory: Option<victory::VictoryRules>,
    /// Saved movement points (`None`: points not spent are lost).
    #[serde(default)]
    pub saving: Option<crate::march::SavingRules>,
    /// Spreading a command over several cells (`None`: pieces hold one cell).
    #[serde(default)]
    pub spread: Option<crate::march::SpreadRules>,
    /// Flags that keep a piece from moving (a lost scout, a pinned unit).
    #[serde(default)]
    pub pinned_by: Vec<FlagId>,
    /// Flags that slow a piece to a few cells a move (a fatigued unit).
    #[serde(default)]
    pub slowed_by: Vec<turning::SlowedBy>,
    /// The flags that gate the `may_move` hook on a grid: when any are named it is asked
    /// only of a piece carrying one of them (every other move needs no asking), so a check
    /// that concerns a few marked pieces costs nothing for the rest.
    #[serde(default)]
    pub may_move_flags: Vec<FlagId>,
    /// Optional rules (by option index) under which the `may_move` hook is asked of every
    /// piece whatever its flags: a check such a rule brings concerns any piece.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub may_move_options: Vec<usize>,
}

impl Rules {
    /// The piece type, if the id is valid.
    #[must_use]
    pub fn piece_type(&self, id: PieceTypeId) -> Option<&PieceTypeDef> {
        self.piece_types.get(id.index())
    }

    /// True when a piece of type `a` and an enemy piece of type `b` may not stand in one
    /// cell: neither is a type that shares cells with the enemy.
    #[must_use]
    pub fn keeps_apart(&self, a: PieceTypeId, b: PieceTypeId) -> bool {
        let shares = |k: PieceTypeId| self.piece_type(k).is_some_and(|t| t.shares_with_enemy);
        !shares(a) && !shares(b)
    }

    /// The name of a mode (or `"?"`).
    #[must_use]
    pub fn mode_name(&self, id: ModeId) -> &str {
        self.modes.get(id.index()).map_or("?", |m| m.name.as_str())
    }

    /// The name of a counter (or `"?"`).
    #[must_use]
    pub fn counter_name(&self, id: CounterId) -> &str {
        self.counters
            .get(id.index())
            .map_or("?", |c| c.name.as_str())
    }

    /// The name of a flag (or `"?"`).
    #[must_use]
    pub fn flag_name(&self, id: FlagId) -> &str {
        self.flags.get(id.index()).map_or("?", |f| f.name.as_str())
    }

    /// The chart, if the id is valid.
    #[must_use]
    pub fn chart(&self, id: ChartId) -> Option<&ChartDef> {
        self.charts.get(id.index())
    }

    /// Finds a chart by name.
    #[must_use]
    pub fn chart_by_name(&self, name: &str) -> Option<ChartId> {
        self.charts
            .iter()
            .position(|c| c.name == name)
            .map(|i| ChartId(i as u16))
    }

    /// Finds an action by name.
    #[must_use]
    pub fn action_by_name(&self, name: &str) -> Option<ActionId> {
        self.actions
            .iter()
            .position(|a| a.name == name)
            .map(|i| ActionId(i as u16))
    }

    /// Finds a mode by name.
    #[must_use]
    pub fn mode_by_name(&self, name: &str) -> Option<ModeId> {
        self.modes
            .iter()
            .position(|m| m.name == name)
            .map(|i| ModeId(i as u16))
    }

    /// The ordered list of every phase of one turn whose sides play in `order`, with these
    /// optional rules in force (`options[i]`: option `i` is on; they choose among the
    /// sequence's variants), as `(phase, phasing side index)`; turn-wide phases carry the
    /// first side of the order.
    #[must_use]
    pub fn turn_plan(&self, order: &[SideId], options: &[bool]) -> Vec<(&PhaseDef, usize)> {
        self.sequence.plan(order, options)
    }

    /// Entry `step` of [`Self::turn_plan`], without building the plan.
    #[must_use]
    pub fn turn_plan_step(
        &self,
        order: &[SideId],
        options: &[bool],
        step: usize,
    ) -> Option<(&PhaseDef, usize)> {
        self.sequence.plan_step(order, options, step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three sides with side 1 phasing: who acts under each kind of phase.
    #[test]
    fn a_phase_s_actors_are_its_phasing_side_the_others_or_all() {
        let acts = |actor: Actor| -> Vec<bool> {
            (0..3)
                .map(|s| actor.includes(SideId(s), SideId(1)))
                .collect()
        };
        assert_eq!(acts(Actor::Phasing), [false, true, false]);
        assert_eq!(acts(Actor::NonPhasing), [true, false, true]);
        assert_eq!(acts(Actor::Both), [true, true, true]);
    }

    fn phase(name: &str) -> PhaseDef {
        PhaseDef {
            name: name.into(),
            actor: Actor::Phasing,
            allows: vec![],
            movers: vec![],
        }
    }

    fn names(plan: &[(&PhaseDef, usize)]) -> Vec<String> {
        plan.iter()
            .map(|(p, s)| format!("{} {s}", p.name))
            .collect()
    }

    /// Side turns play side by side, or phase by phase when interleaved; a variant replaces
    /// the phases while its option is on, and only then.
    #[test]
    fn plans_interleave_and_switch_with_options() {
        let mut seq = Sequence {
            turn_start: vec![phase("start")],
            side_turn: vec![phase("move"), phase("fire")],
            turn_end: vec![phase("end")],
            turns: 1,
            ..Sequence::default()
        };
        let order = [SideId(1), SideId(0)];
        assert_eq!(
            names(&seq.plan(&order, &[])),
            ["start 1", "move 1", "fire 1", "move 0", "fire 0", "end 1"]
        );
        seq.variants.push(SequenceVariant {
            option: 1,
            turn_start: vec![],
            side_turn: vec![phase("group 1"), phase("group 2")],
            turn_end: vec![phase("fire")],
            interleaved: true,
        });
        assert_eq!(
            names(&seq.plan(&order, &[true, false])),
            ["start 1", "move 1", "fire 1", "move 0", "fire 0", "end 1"]
        );
        assert_eq!(
            names(&seq.plan(&order, &[false, true])),
            ["group 1 1", "group 1 0", "group 2 1", "group 2 0", "fire 1"]
        );
        seq.interleaved = true;
        assert_eq!(
            names(&seq.plan(&order, &[])),
            ["start 1", "move 1", "move 0", "fire 1", "fire 0", "end 1"]
        );
        // Three sides, interleaved and not: every step of the plan, and nothing past it.
        let three = [SideId(2), SideId(0), SideId(1)];
        assert_eq!(
            names(&seq.plan(&three, &[])),
            [
                "start 2", "move 2", "move 0", "move 1", "fire 2", "fire 0", "fire 1", "end 2"
            ]
        );
        seq.interleaved = false;
        assert_eq!(
            names(&seq.plan(&three, &[])),
            [
                "start 2", "move 2", "fire 2", "move 0", "fire 0", "move 1", "fire 1", "end 2"
            ]
        );
        assert!(seq.plan_step(&three, &[], 8).is_none());
        assert_eq!(names(&seq.plan(&[], &[])), ["start 0", "end 0"]);
    }
}
