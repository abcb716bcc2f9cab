//! Small typed ids. Every name in a ruleset is interned to one of these when it loads, so
//! hot paths compare integers and never hash strings.

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident($inner:ty)) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub $inner);

        impl $name {
            /// The id as an index into its table.
            #[must_use]
            pub const fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// A piece in a game (index into the game's piece table; never reused).
    PieceId(u32)
);
id_type!(
    /// A side (army/player) of a scenario.
    SideId(u8)
);
id_type!(
    /// A piece type declared by the ruleset.
    PieceTypeId(u16)
);
id_type!(
    /// A movement class (named terrain cost table) declared by the ruleset.
    MoveClassId(u16)
);
id_type!(
    /// A terrain type declared by the ruleset.
    TerrainId(u16)
);
id_type!(
    /// A feature on a cell boundary (river, wall, road, bridge, ford).
    FeatureId(u16)
);
id_type!(
    /// A mode or formation (battle, strategic, road, line, column, limbered...).
    ModeId(u16)
);
id_type!(
    /// A named counter carried by pieces (hits, TE hits, figures...).
    CounterId(u16)
);
id_type!(
    /// A named on/off status flag carried by pieces (disordered, fired, routed...).
    FlagId(u16)
);
id_type!(
    /// A die declared by the ruleset.
    DieId(u16)
);
id_type!(
    /// A chart declared by the ruleset.
    ChartId(u16)
);
id_type!(
    /// A ruleset-defined action (fire, melee, rally...).
    ActionId(u16)
);
id_type!(
    /// A stacking limit declared by the ruleset.
    StackId(u16)
);
id_type!(
    /// A face tag (red, star...) of custom dice.
    TagId(u16)
);

/// An ordered table of named items, looked up by name only while loading.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Names {
    names: Vec<String>,
}

impl Names {
    /// A table holding `names` in order.
    #[must_use]
    pub fn new(names: Vec<String>) -> Self {
        Self { names }
    }

    /// The index of `name`, if present.
    #[must_use]
    pub fn find(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The name at `index`, or `"?"` when out of range (never panics).
    #[must_use]
    pub fn name(&self, index: usize) -> &str {
        self.names.get(index).map_or("?", String::as_str)
    }

    /// Number of names.
    #[must_use]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True when empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// All names in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + Clone {
        self.names.iter().map(String::as_str)
    }
}
