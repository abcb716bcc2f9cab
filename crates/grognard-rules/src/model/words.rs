//! The words a file chooses from a fixed list (`clears: turn_end`, `kind: barrier`,
//! `round: up`, `discloses: [position]`). Each is a serde enum, so the decoder reports a word
//! outside its list at its `file:line:col` with the allowed words and a "did you mean", and
//! the JSON Schema lists them for editors. An amount's operation (`{ half: score }`) is a
//! key, not a value: the amount's reader (`model::amount`) matches it against [`AmountOp`].
//! A word serializes as written, so the ruleset's identity hash does not depend on this.

use serde::{Deserialize, Serialize};

/// Declares a word enum: each variant with the word that spells it in a file.
macro_rules! words {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $word:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
        pub enum $name {
            $($(#[$vdoc])* #[serde(rename = $word)] $variant,)+
        }

        impl $name {
            /// Every word, in the order declared.
            pub const ALL: &'static [Self] = &[$(Self::$variant,)+];

            /// The word as a file writes it.
            #[must_use]
            pub const fn word(self) -> &'static str {
                match self {
                    $(Self::$variant => $word,)+
                }
            }
        }
    };
}

words!(
    /// The board's geometry.
    GeometryKind {
        /// A square grid (eight directions).
        Square = "square",
        /// A hex grid (six directions).
        Hex = "hex",
        /// An open table measured in inches.
        Open = "open",
    }
);

words!(
    /// What a unit does when a fall back is blocked short of its distance.
    Blocked {
        /// It stops where it got to (the default).
        Stop = "stop",
        /// It does not move at all.
        Stay = "stay",
        /// It is removed (a unit that cannot retreat is lost).
        Remove = "remove",
    }
);

words!(
    /// When a flag clears itself.
    Clears {
        /// Only when an effect or a hook clears it (the default).
        Never = "never",
        /// At the end of every phase.
        PhaseEnd = "phase_end",
        /// At the end of every turn.
        TurnEnd = "turn_end",
    }
);

words!(
    /// What a boundary feature is.
    FeatureKind {
        /// Road modes ignore terrain along it.
        Road = "road",
        /// Costs extra to cross, or cannot be crossed.
        Barrier = "barrier",
        /// A way over barriers (a bridge, a ford).
        Crossing = "crossing",
    }
);

words!(
    /// How often a piece may move.
    MoveLimit {
        /// Once in every phase that allows moves (the default).
        PerPhase = "per_phase",
        /// Once a turn.
        PerTurn = "per_turn",
    }
);

words!(
    /// Which side's baseline a piece may leave the board across.
    ExitBaseline {
        /// Its own side's (the default).
        Own = "own",
        /// The enemy's.
        Enemy = "enemy",
        /// Any side's.
        Any = "any",
    }
);

words!(
    /// A side's baseline: an edge of the board.
    Baseline {
        /// The top edge (row 0).
        North = "north",
        /// The bottom edge.
        South = "south",
        /// The right edge.
        East = "east",
        /// The left edge (column 0).
        West = "west",
    }
);

words!(
    /// What an action is taken against.
    Target {
        /// Nothing: the actor alone (the default).
        None = "none",
        /// An enemy piece.
        Enemy = "enemy",
        /// Another own piece.
        Friend = "friend",
    }
);

words!(
    /// An arc around a piece's facing.
    ArcName {
        /// Ahead.
        Front = "front",
        /// To the sides.
        Flank = "flank",
        /// Behind.
        Rear = "rear",
    }
);

words!(
    /// Who acts in a phase.
    PhaseActor {
        /// The phasing side (the default).
        Phasing = "phasing",
        /// The other side.
        NonPhasing = "non_phasing",
        /// Both sides.
        Both = "both",
    }
);

words!(
    /// Which piece an effect acts on.
    EffectTo {
        /// The piece that acted (or carries the counter).
        Actor = "actor",
        /// The action's target.
        Target = "target",
    }
);

words!(
    /// A band's test that needs no face: it always passes or never does.
    BandTest {
        /// Every roll passes.
        Always = "always",
        /// No roll passes.
        Never = "never",
    }
);

words!(
    /// How a unit's bases stand on the open table.
    Arrangement {
        /// Side by side (the default).
        Line = "line",
        /// One behind another.
        Column = "column",
        /// `files` bases across, in ranks.
        Block = "block",
        /// Side by side, `spacing` apart.
        Loose = "loose",
    }
);

words!(
    /// The first word of a chart input's `from:` (`actor.counter hits`: `actor.counter`,
    /// then the counter's name): where the input's value comes from.
    InputFrom {
        /// The distance from actor to target, in cells (or rule inches).
        Distance = "distance",
        /// The distance in whole inches as measured on the table, whatever the scale.
        TableDistance = "table_distance",
        /// The band of `bands:` the distance falls in.
        DistanceBand = "distance_band",
        /// The band of `bands:` the table distance falls in.
        TableDistanceBand = "table_distance_band",
        /// A counter of the actor.
        ActorCounter = "actor.counter",
        /// Whether the actor is in a mode.
        ActorMode = "actor.mode",
        /// Whether the target is in a mode.
        TargetMode = "target.mode",
        /// A counter of the target.
        TargetCounter = "target.counter",
        /// A flag of the actor.
        ActorFlag = "actor.flag",
        /// A flag of the target.
        TargetFlag = "target.flag",
        /// An attribute of the actor's type.
        ActorAttribute = "actor.attribute",
        /// An attribute of the target's type.
        TargetAttribute = "target.attribute",
        /// Whether the actor is in the target's flank or rear arc.
        TargetFlankOrRear = "target.flank_or_rear",
        /// An attribute of the terrain under the target.
        TargetTerrain = "target.terrain",
        /// An attribute of the terrain under the actor.
        ActorTerrain = "actor.terrain",
        /// How many friends of the types stand within the distance of the actor.
        ActorFriendsWithin = "actor.friends_within",
        /// The same about the target.
        TargetFriendsWithin = "target.friends_within",
        /// A scenario setting's value.
        Setting = "setting",
        /// Whether an optional rule is on.
        Option = "option",
        /// Whether the order says it is for this intent.
        Intent = "intent",
    }
);

words!(
    /// How a result that is not whole rounds (a chart's multiplying modifiers, an amount's
    /// halvings).
    Round {
        /// Toward minus infinity.
        Down = "down",
        /// Toward plus infinity.
        Up = "up",
        /// To the nearest whole number; a half rounds up.
        Nearest = "nearest",
    }
);

impl From<Round> for grognard_kernel::amount::Rounding {
    fn from(r: Round) -> Self {
        match r {
            Round::Down => Self::Down,
            Round::Up => Self::Up,
            Round::Nearest => Self::Nearest,
        }
    }
}

words!(
    /// The one operation of a computed amount: the key of `{ half: score }`.
    AmountOp {
        /// Half of one amount, rounded.
        Half = "half",
        /// Twice one amount.
        Double = "double",
        /// Minus one amount.
        Negate = "negate",
        /// The sum of a list of amounts.
        Sum = "sum",
        /// The smallest of a list of amounts.
        Min = "min",
        /// The largest of a list of amounts.
        Max = "max",
    }
);

impl AmountOp {
    /// True for the operations on one amount (`half: score`); the others take a list.
    #[must_use]
    pub const fn unary(self) -> bool {
        matches!(self, Self::Half | Self::Double | Self::Negate)
    }
}

words!(
    /// A fact a sighting level (or what every side knows) discloses of a piece.
    Fact {
        /// Where it is.
        Position = "position",
        /// Whether it is a real piece or a dummy.
        Real = "real",
        /// Its piece type.
        Kind = "kind",
        /// Its strength.
        Strength = "strength",
        /// Which piece it is (and so everything about it).
        Identity = "identity",
    }
);

impl From<Fact> for grognard_kernel::knowledge::Disclosure {
    fn from(f: Fact) -> Self {
        match f {
            Fact::Position => Self::POSITION,
            Fact::Real => Self::REAL,
            Fact::Kind => Self::KIND,
            Fact::Strength => Self::STRENGTH,
            Fact::Identity => Self::IDENTITY,
        }
    }
}

/// The JSON Schema of a chart input's `from:`: one of [`InputFrom`]'s words (listed as an
/// `enum`, so an editor offers them), alone or followed by the name it takes
/// (`actor.counter hits`, matched by a `pattern` starting with one of the same words). The
/// compiler reads the first word against the same list.
pub(crate) fn input_from_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let words: Vec<&str> = InputFrom::ALL.iter().map(|w| w.word()).collect();
    let alternatives: Vec<String> = words.iter().map(|w| w.replace('.', "\\.")).collect();
    let pattern = format!("^\\s*({})(\\s.*)?$", alternatives.join("|"));
    schemars::json_schema!({
        "anyOf": [
            { "enum": words },
            { "type": "string", "pattern": pattern },
            { "type": "null" },
        ],
    })
}
