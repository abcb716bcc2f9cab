//! Hidden information: what each side knows of the other sides' pieces.
//!
//! A ruleset with a `sighting` section gives every side a [`Knowledge`] table: for each
//! enemy piece, the sighting level the side holds now, where and when it last saw the
//! piece, and exactly what has been disclosed (real or dummy, type, strength, full
//! identity). The kernel recomputes it after every action and at every phase start, from
//! data: offset charts read relative to the observer's front (the block rules' visibility
//! chart), range bands (Hex Command spotting, some of them needing a roll), contact between
//! pieces, concealing terrain and terrain that blocks sight.
//!
//! Everything a player receives is built from their own pieces and this table alone — see
//! [`crate::view`].

use serde::{Deserialize, Serialize};

use crate::geometry::{Cell, Facing, Grid};
use crate::ids::{ChartId, CounterId, FlagId, PieceId, PieceTypeId, TerrainId};
use crate::piece::{Piece, Place};

/// What a sighting tells about a piece: a set of facts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Disclosure(pub u8);

impl Disclosure {
    /// Nothing.
    pub const NONE: Self = Self(0);
    /// Where it is (its place and facing).
    pub const POSITION: Self = Self(1);
    /// Whether it is real or a dummy.
    pub const REAL: Self = Self(2);
    /// Its type (the marker's face).
    pub const KIND: Self = Self(4);
    /// Its strength (the ruleset's strength counter: the number of units in a command).
    pub const STRENGTH: Self = Self(8);
    /// Everything: name, mode, counters, flags, attributes.
    pub const IDENTITY: Self = Self(16);
    /// Every fact.
    pub const ALL: Self = Self(31);

    /// The names files use, in order.
    pub const NAMES: [(&'static str, Self); 5] = [
        ("position", Self::POSITION),
        ("real", Self::REAL),
        ("kind", Self::KIND),
        ("strength", Self::STRENGTH),
        ("identity", Self::IDENTITY),
    ];

    /// Both sets.
    #[must_use]
    pub const fn with(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// True when every fact of `other` is in `self`. Identity implies every other fact.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::knowledge::Disclosure;
    /// assert!(Disclosure::IDENTITY.has(Disclosure::REAL));
    /// assert!(!Disclosure::POSITION.has(Disclosure::KIND));
    /// ```
    #[must_use]
    pub const fn has(self, other: Self) -> bool {
        let mine = if self.0 & Self::IDENTITY.0 != 0 {
            Self::ALL.0
        } else {
            self.0
        };
        mine & other.0 == other.0
    }

    /// The facts' names, for messages and views.
    #[must_use]
    pub fn names(self) -> Vec<&'static str> {
        Self::NAMES
            .iter()
            .filter(|(_, d)| self.0 & d.0 != 0)
            .map(|(n, _)| *n)
            .collect()
    }
}

/// One step of a sighting scale (the block rules' A, B, C, D; or simply "seen").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelDef {
    /// Its name ("A").
    pub name: String,
    /// What it discloses.
    pub discloses: Disclosure,
    /// What it discloses besides when an observer is next to the piece (the block rules'
    /// B: "place only if adjacent").
    pub adjacent: Disclosure,
    /// A face-down marker seen at this level is turned face up for every player.
    pub flips_up: bool,
}

/// One cell of an offset chart: where the piece is relative to the observer, seen with
/// the observer facing up the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetSight {
    /// Cells to the observer's right (negative: left).
    pub right: i32,
    /// Cells ahead of the observer (negative: behind).
    pub forward: i32,
    /// The level read there (index into [`SightingRules::levels`]).
    pub level: u8,
    /// A starred entry also discloses concealed pieces.
    pub starred: bool,
}

/// One band of a range chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RangeBand {
    /// Up to this distance (cells, or inches on an open table).
    pub within: u32,
    /// A longer reach for observers standing on these terrains (a hill).
    pub from_terrain: Vec<(TerrainId, u32)>,
    /// The level it gives.
    pub level: u8,
    /// It also finds concealed pieces.
    pub concealed_too: bool,
    /// It needs a roll on this chart with this outcome, made in the spotting phases.
    pub roll: Option<(ChartId, String)>,
    /// It does not find pieces standing in these terrains (cover).
    #[serde(default)]
    pub not_in: Vec<TerrainId>,
    /// It does not find pieces that carry any of these (cover a piece makes itself: works
    /// it dug, a flag it holds).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_when: Vec<PieceMark>,
    /// It applies only while this optional rule is on.
    #[serde(default)]
    pub option: Option<usize>,
    /// It applies only while this setting has this value.
    #[serde(default)]
    pub setting: Option<(usize, i32)>,
}

/// Something a piece carries that a range band does not see through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceMark {
    /// The counter is at this value or more.
    CounterAtLeast(CounterId, i32),
    /// The flag is set.
    Flag(FlagId),
}

impl PieceMark {
    /// True when `piece` carries it.
    #[must_use]
    pub fn on(self, piece: &Piece) -> bool {
        match self {
            Self::CounterAtLeast(c, at) => piece.counter(c) >= at,
            Self::Flag(f) => piece.flag(f),
        }
    }
}

/// How a sighting chart reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SightShape {
    /// Offsets from the observer, relative to its front (square grids).
    Offsets(Vec<OffsetSight>),
    /// Distance bands, nearest first.
    Range(Vec<RangeBand>),
}

/// A sighting chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SightChartDef {
    /// Its name.
    pub name: String,
    /// How it reads.
    pub shape: SightShape,
    /// The farthest any of its entries reaches (cells, or inches), so that pairs beyond it
    /// are passed over at once.
    pub radius: u32,
}

/// Which pieces observe with which chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObserverRule {
    /// Piece types (empty: every type not named by an earlier rule).
    pub types: Vec<PieceTypeId>,
    /// The chart (index into [`SightingRules::charts`]).
    pub chart: usize,
    /// A piece carrying any of these flags does not observe (a lost scout).
    #[serde(default)]
    pub barred_by: Vec<FlagId>,
    /// The chart a spread piece's cells other than its main cell read (then `chart` is
    /// read from the main cell only; `None`: every cell reads `chart`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread_chart: Option<usize>,
}

/// Pieces that come within reach of each other are revealed to each other (the block
/// rules' deployment), and a move that brings them there ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContactRule {
    /// Distance at which contact happens (1: next to).
    pub within: u32,
    /// The level both sides get.
    pub level: u8,
    /// A move that comes into contact ends there.
    pub stops: bool,
    /// Every cell a move enters within reach of an enemy is contact, even for a piece
    /// already in contact with that enemy (otherwise only new contact counts).
    #[serde(default)]
    pub each_step: bool,
    /// The piece types that come into contact (empty: every type). Both pieces must be
    /// of them.
    pub types: Vec<PieceTypeId>,
}

/// Decoys for pieces no enemy can see (Hex Command's hidden movement).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecoyRule {
    /// Only while this optional rule is on (always when `None`).
    pub option: Option<usize>,
    /// Piece types that get decoys and are hidden from the enemy until sighted.
    pub types: Vec<PieceTypeId>,
    /// Decoys per piece.
    pub per_piece: u32,
    /// The decoys' type (a dummy type).
    pub kind: PieceTypeId,
}

/// A ruleset's hidden-information rules.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SightingRules {
    /// The scale, best first. A piece on no level is unknown.
    pub levels: Vec<LevelDef>,
    /// What every side knows of an enemy piece that is not concealed (face-down blocks on
    /// the table: their position).
    pub public: Disclosure,
    /// What a face-up marker tells every side.
    pub face_up: Disclosure,
    /// Piece types that are never face down (single figures on the table, not markers):
    /// face up for every side whenever they are on the board and not concealed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub in_view: Vec<crate::ids::PieceTypeId>,
    /// What every side knows of a concealed piece (a hidden marker on the table: its
    /// position; default nothing).
    #[serde(default)]
    pub concealed_public: Disclosure,
    /// Terrains that conceal the pieces in them.
    pub concealing: Vec<TerrainId>,
    /// A flag that conceals a piece (a hidden command).
    pub concealed_flag: Option<FlagId>,
    /// Sighting charts.
    pub charts: Vec<SightChartDef>,
    /// Who observes with which chart; a piece no rule names does not observe.
    pub observers: Vec<ObserverRule>,
    /// The counter that is a piece's strength.
    pub strength: Option<crate::ids::CounterId>,
    /// Contact between pieces.
    pub contact: Option<ContactRule>,
    /// Two enemy pieces next to each other that both carry this flag keep the level they
    /// see each other at, rolls or cover notwithstanding (units locked in melee do not lose
    /// sight of each other; they gain none by it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locked_flag: Option<FlagId>,
    /// Phases (by name) at the start of which rolled spotting is made.
    pub spotting_phases: Vec<String>,
    /// Nothing is sighted while the sides set up.
    #[serde(default)]
    pub blind_setup: bool,
    /// A dummy seen at a flipping level is face up for the sides that see it so only (its
    /// owner is not told).
    #[serde(default)]
    pub private_dummy_flips: bool,
    /// A piece's mode is known with its identity, not with its position: an enemy the side
    /// has not identified shows no mode, and its mode changes and untargeted actions do
    /// not reach the side.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mode_with_identity: bool,
    /// An enemy dummy the side knows to be one keeps none of its pieces out of its cells;
    /// one it has not identified keeps them out as a real piece would.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub known_dummies_give_way: bool,
    /// Decoys.
    pub decoys: Option<DecoyRule>,
}

/// Where and when a piece was last seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    /// Its place.
    pub place: Place,
    /// Its facing on a grid.
    pub facing: Facing,
    /// The turn.
    pub turn: u32,
}

/// What one side knows of one enemy piece.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Known {
    /// The level held now (`None`: not sighted now).
    pub level: Option<u8>,
    /// A level won by a spotting roll, held until the next spotting phase.
    pub rolled: Option<u8>,
    /// What is known now.
    pub now: Disclosure,
    /// Where it was last seen (or is now).
    pub seen: Option<Seen>,
    /// Real (true) or dummy, once disclosed.
    pub real: Option<bool>,
    /// Its type, once disclosed.
    pub kind: Option<PieceTypeId>,
    /// Its strength when last disclosed.
    pub strength: Option<i32>,
    /// The whole piece when last identified.
    pub identity: Option<Piece>,
    /// The number the side knows it by, from when it first learnt anything of it (see
    /// [`Knowledge::learnt`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handle: Option<u32>,
}

impl Known {
    /// True once the side knows anything of the piece (and so has a handle for it).
    #[must_use]
    pub fn anything(&self) -> bool {
        self.level.is_some()
            || self.seen.is_some()
            || self.real.is_some()
            || self.kind.is_some()
            || self.strength.is_some()
            || self.identity.is_some()
    }
}

/// What one side knows of every other side's pieces, by piece id (own pieces: empty).
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Knowledge {
    /// By piece id.
    pub of: Vec<Known>,
    /// The enemy pieces the side has learnt of, in the order it learnt of them: the
    /// `k`-th has handle `own + k`, where `own` is the number of the side's own pieces
    /// (which are numbered `0..own` in their own order). Handles are never reused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub learnt: Vec<PieceId>,
    /// What the side knew of pieces it lost track of into concealment (a town, a hidden
    /// flag, behind decoys), each under the handle it had: shown where it was last seen.
    /// The piece itself is known afresh, under a new handle, when seen again; it takes
    /// its old handle back (and the record goes) only when identified.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ghosts: Vec<Known>,
    /// The handles a piece had before it was lost into concealment: the side's log names
    /// `piece` by `handle` in its first `until` events (`u32::MAX` until the order that
    /// lost it is logged).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub renames: Vec<Rename>,
}

/// A handle a side knew a piece by until it lost track of it (see [`Knowledge::renames`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rename {
    /// The piece.
    pub piece: PieceId,
    /// Its handle until then.
    pub handle: u32,
    /// The number of the side's log events that name it so.
    pub until: u32,
}

// `Known` and `Knowledge` write out `Clone` so that `clone_from` reuses the buffers of the
// identity a side has learnt (see `State`'s `Clone`): the legal-order generator refreshes
// one scratch state per trial.
impl Clone for Known {
    fn clone(&self) -> Self {
        Self {
            level: self.level,
            rolled: self.rolled,
            now: self.now,
            seen: self.seen.clone(),
            real: self.real,
            kind: self.kind,
            strength: self.strength,
            identity: self.identity.clone(),
            handle: self.handle,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        // Destructured, so that a new field cannot be forgotten here.
        let Self {
            level,
            rolled,
            now,
            seen,
            real,
            kind,
            strength,
            identity,
            handle,
        } = source;
        self.level = *level;
        self.rolled = *rolled;
        self.now = *now;
        self.seen.clone_from(seen);
        self.real = *real;
        self.kind = *kind;
        self.strength = *strength;
        self.identity.clone_from(identity);
        self.handle = *handle;
    }
}

impl Clone for Knowledge {
    fn clone(&self) -> Self {
        Self {
            of: self.of.clone(),
            learnt: self.learnt.clone(),
            ghosts: self.ghosts.clone(),
            renames: self.renames.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let Self {
            of,
            learnt,
            ghosts,
            renames,
        } = source;
        self.of.clone_from(of);
        self.learnt.clone_from(learnt);
        self.ghosts.clone_from(ghosts);
        self.renames.clone_from(renames);
    }
}

impl Knowledge {
    /// What is known of `id`.
    #[must_use]
    pub fn get(&self, id: PieceId) -> Option<&Known> {
        self.of.get(id.index())
    }

    /// True when the side knows where `id` is now.
    #[must_use]
    pub fn knows_position(&self, id: PieceId) -> bool {
        self.get(id)
            .is_some_and(|k| k.now.has(Disclosure::POSITION))
    }

    /// True when the side knows who `id` is.
    #[must_use]
    pub fn knows_identity(&self, id: PieceId) -> bool {
        self.get(id).is_some_and(|k| k.identity.is_some())
    }

    /// The handle the side's log names `id` by in its `index`-th event: the handle it had
    /// then, if the side has since lost track of it (see [`Knowledge::renames`]), else the
    /// one it has now.
    #[must_use]
    pub fn handle_at(&self, id: PieceId, index: usize) -> Option<u32> {
        self.renames
            .iter()
            .find(|r| r.piece == id && (r.until as usize) > index)
            .map(|r| r.handle)
            .or_else(|| self.get(id).and_then(|k| k.handle))
    }
}

/// The offset of `to` from `from` turned so that an observer facing `facing` looks up the
/// chart: `(right, forward)`. Square grids only; a diagonal facing turns each ring of cells
/// around the observer by its own radius, so distances are kept exactly.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{Cell, Facing};
/// use grognard_kernel::knowledge::relative_offset;
/// // Facing north (6): a cell two rows up is two ahead.
/// assert_eq!(relative_offset(Cell::new(5, 5), Facing(6), Cell::new(5, 3)), (0, 2));
/// // Facing east (0): the same cell is two to the left.
/// assert_eq!(relative_offset(Cell::new(5, 5), Facing(0), Cell::new(5, 3)), (-2, 0));
/// ```
#[must_use]
pub fn relative_offset(from: Cell, facing: Facing, to: Cell) -> (i32, i32) {
    let (dx, dy) = (to.col - from.col, to.row - from.row);
    let r = dx.abs().max(dy.abs());
    if r == 0 {
        return (0, 0);
    }
    // Index along the ring of radius r, clockwise from its north-west corner.
    let index = if dy == -r && dx < r {
        dx + r
    } else if dx == r && dy < r {
        2 * r + dy + r
    } else if dy == r && dx > -r {
        4 * r + r - dx
    } else {
        6 * r + r - dy
    };
    // Turning by (6 - facing) eighths clockwise brings the observer's front to north.
    let turns = (6 - i32::from(facing.0 % 8)).rem_euclid(8);
    let index = (index + turns * r).rem_euclid(8 * r);
    let (x, y) = if index < 2 * r {
        (index - r, -r)
    } else if index < 4 * r {
        (r, index - 2 * r - r)
    } else if index < 6 * r {
        (r - (index - 4 * r), r)
    } else {
        (-r, r - (index - 6 * r))
    };
    (x, -y)
}

/// The nearest pair of cells of two places, and their distance.
pub(crate) fn nearest(grid: &Grid, a: &Place, b: &Place) -> Option<(Cell, Cell, u32)> {
    fn cells(p: &Place) -> &[Cell] {
        match p {
            Place::Cell(c) => core::slice::from_ref(c),
            Place::Spread(cs) => cs,
            _ => &[],
        }
    }
    let mut best: Option<(Cell, Cell, u32)> = None;
    for x in cells(a) {
        for y in cells(b) {
            let d = grid.distance(*x, *y);
            if best.is_none_or(|(_, _, bd)| d < bd) {
                best = Some((*x, *y, d));
            }
        }
    }
    best
}

/// Every piece of a side's index.
pub(crate) fn rows_and_others(rows: &[(i32, usize)], others: &[usize]) -> Vec<usize> {
    rows.iter()
        .map(|(_, i)| *i)
        .chain(others.iter().copied())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn offsets_turn_with_the_observer() {
        let o = Cell::new(10, 10);
        // Facing south (2): a cell below is ahead, a cell to the west is on the right.
        assert_eq!(relative_offset(o, Facing(2), Cell::new(10, 12)), (0, 2));
        assert_eq!(relative_offset(o, Facing(2), Cell::new(9, 10)), (1, 0));
        // Facing west (4): west is ahead.
        assert_eq!(relative_offset(o, Facing(4), Cell::new(7, 10)), (0, 3));
        // Facing north-east (7): the cell to the north-east is straight ahead; the cell
        // to the east is one ring-step clockwise of it, to the front right.
        assert_eq!(relative_offset(o, Facing(7), Cell::new(11, 9)), (0, 1));
        assert_eq!(relative_offset(o, Facing(7), Cell::new(11, 10)), (1, 1));
    }

    proptest! {
        // Turning keeps the ring (Chebyshev distance), and a full turn of facings visits a
        // cell's offset at every eighth of the ring.
        #[test]
        fn turning_keeps_distance(dx in -6i32..=6, dy in -6i32..=6, f in 0u8..8) {
            let o = Cell::new(20, 20);
            let t = Cell::new(20 + dx, 20 + dy);
            let (r, fw) = relative_offset(o, Facing(f), t);
            prop_assert_eq!(r.abs().max(fw.abs()), dx.abs().max(dy.abs()));
            // Facing north is the chart's own orientation.
            prop_assert_eq!(relative_offset(o, Facing(6), t), (dx, -dy));
            // Orthogonal facings are exact quarter turns.
            prop_assert_eq!(relative_offset(o, Facing(0), t), (dy, dx));
            prop_assert_eq!(relative_offset(o, Facing(2), t), (-dx, dy));
        }
    }
}
