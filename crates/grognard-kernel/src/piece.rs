//! Pieces: units, leaders, blocks, markers and dummies.

use serde::{Deserialize, Serialize};

use crate::geometry::open::{Angle, Point};
use crate::geometry::{Cell, Facing};
use crate::ids::{CounterId, FlagId, ModeId, PieceId, PieceTypeId, SideId};

/// Where a piece is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// One cell of a grid.
    Cell(Cell),
    /// Several cells: a command spread by extension arrows. The first is its main cell.
    Spread(Vec<Cell>),
    /// A point on an open table, with the angle it faces.
    Point {
        /// Where.
        at: Point,
        /// Which way it faces.
        facing: Angle,
    },
    /// Off the board (removed, escaped, not yet arrived).
    Off,
}

impl Place {
    /// The main cell of a grid place.
    #[must_use]
    pub fn cell(&self) -> Option<Cell> {
        match self {
            Self::Cell(c) => Some(*c),
            Self::Spread(cells) => cells.first().copied(),
            _ => None,
        }
    }

    /// True when the place covers `c`.
    #[must_use]
    pub fn covers(&self, c: Cell) -> bool {
        match self {
            Self::Cell(x) => *x == c,
            Self::Spread(cells) => cells.contains(&c),
            _ => false,
        }
    }
}

/// A piece in play.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// Its id (index in the game's piece table).
    pub id: PieceId,
    /// The scenario's name for it ("b1", "Picton").
    pub name: String,
    /// Owner.
    pub side: SideId,
    /// Type.
    pub kind: PieceTypeId,
    /// Where it is.
    pub place: Place,
    /// Facing on a grid.
    pub facing: Facing,
    /// Mode or formation.
    pub mode: ModeId,
    /// Counter values, by counter id.
    pub counters: Vec<i32>,
    /// Flags, one bit per flag id.
    pub flags: u64,
    /// Attribute values (class, morale...), by attribute index.
    pub attributes: Vec<i32>,
    /// The piece it is attached to (a leader with a unit).
    pub attached_to: Option<PieceId>,
    /// True once it has moved in the current movement window (phase or turn, per type).
    pub moved: bool,
    /// True once it has used each ruleset action this phase (bit per action id, first 64).
    pub acted: u64,
    /// Its own footprint in each mode (by mode index), where the scenario gives this piece
    /// bases other than its type's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footprint: Option<Box<[Option<crate::geometry::footprint::Footprint>]>>,
    /// The neighbouring cell its saved movement points were saved toward (`save` orders):
    /// they pay only for the step into that cell. `None` for points given without a
    /// cell (a credit at the start), which any move may spend.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_toward: Option<crate::geometry::Cell>,
}

// Written out so that `clone_from` reuses the name, counters and attributes buffers (see
// `State`'s `Clone`).
impl Clone for Piece {
    fn clone(&self) -> Self {
        Self {
            id: self.id,
            name: self.name.clone(),
            side: self.side,
            kind: self.kind,
            place: self.place.clone(),
            facing: self.facing,
            mode: self.mode,
            counters: self.counters.clone(),
            flags: self.flags,
            attributes: self.attributes.clone(),
            attached_to: self.attached_to,
            moved: self.moved,
            acted: self.acted,
            footprint: self.footprint.clone(),
            saved_toward: self.saved_toward,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        // Destructured, so that a new field cannot be forgotten here.
        let Self {
            id,
            name,
            side,
            kind,
            place,
            facing,
            mode,
            counters,
            flags,
            attributes,
            attached_to,
            moved,
            acted,
            footprint,
            saved_toward,
        } = source;
        self.id = *id;
        self.name.clone_from(name);
        self.side = *side;
        self.kind = *kind;
        self.place.clone_from(place);
        self.facing = *facing;
        self.mode = *mode;
        self.counters.clone_from(counters);
        self.flags = *flags;
        self.attributes.clone_from(attributes);
        self.attached_to = *attached_to;
        self.moved = *moved;
        self.acted = *acted;
        if self.footprint != *footprint {
            self.footprint.clone_from(footprint);
        }
        self.saved_toward = *saved_toward;
    }
}

impl Piece {
    /// A counter's value (0 when the id is unknown).
    #[must_use]
    pub fn counter(&self, id: CounterId) -> i32 {
        self.counters.get(id.index()).copied().unwrap_or(0)
    }

    /// An attribute's value (0 when the index is unknown).
    #[must_use]
    pub fn attribute(&self, index: usize) -> i32 {
        self.attributes.get(index).copied().unwrap_or(0)
    }

    /// True when the flag is set.
    #[must_use]
    pub fn flag(&self, id: FlagId) -> bool {
        id.0 < 64 && self.flags & (1u64 << id.0) != 0
    }

    /// Sets or clears a flag (ids of 64 and above are ignored; rulesets are refused before
    /// they can declare that many).
    pub fn set_flag(&mut self, id: FlagId, on: bool) {
        if id.0 < 64 {
            if on {
                self.flags |= 1u64 << id.0;
            } else {
                self.flags &= !(1u64 << id.0);
            }
        }
    }

    /// True while the piece is on the board.
    #[must_use]
    pub fn on_board(&self) -> bool {
        !matches!(self.place, Place::Off)
    }
}
