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

use crate::action::Event;
use crate::game::{Game, State};
use crate::geometry::{Cell, Facing, Grid};
use crate::ids::{ChartId, FlagId, PieceId, PieceTypeId, SideId, TerrainId};
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
    /// It applies only while this optional rule is on.
    #[serde(default)]
    pub option: Option<usize>,
    /// It applies only while this setting has this value.
    #[serde(default)]
    pub setting: Option<(usize, i32)>,
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
    /// Phases (by name) at the start of which rolled spotting is made.
    pub spotting_phases: Vec<String>,
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// What one side knows of every other side's pieces, by piece id (own pieces: empty).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Knowledge {
    /// By piece id.
    pub of: Vec<Known>,
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
fn nearest(grid: &Grid, a: &Place, b: &Place) -> Option<(Cell, Cell, u32)> {
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
fn rows_and_others(rows: &[(i32, usize)], others: &[usize]) -> Vec<usize> {
    rows.iter()
        .map(|(_, i)| *i)
        .chain(others.iter().copied())
        .collect()
}

impl Game {
    /// The sighting rules, when the ruleset has hidden information.
    #[must_use]
    pub fn sighting(&self) -> Option<&SightingRules> {
        self.rules().sighting.as_ref()
    }

    /// Distance between two pieces for sighting and contact (grid steps between their
    /// nearest cells, or whole rule inches on a table).
    pub(crate) fn sight_distance(&self, a: &Piece, b: &Piece) -> Option<u32> {
        match self.board().grid() {
            Some(grid) => nearest(grid, &a.place, &b.place).map(|(_, _, d)| d),
            None => self.rule_distance(a, b),
        }
    }

    /// True when the piece is concealed (in concealing terrain, flagged hidden, or a decoy).
    pub(crate) fn concealed(&self, state: &State, p: &Piece) -> bool {
        let Some(s) = self.sighting() else {
            return false;
        };
        // Decoys are counters face down: only their place shows.
        if let Some(d) = &s.decoys
            && d.kind == p.kind
            && d.option
                .is_none_or(|o| state.options.get(o).copied().unwrap_or(false))
        {
            return true;
        }
        if s.concealed_flag.is_some_and(|f| p.flag(f)) {
            return true;
        }
        let terrain = match &p.place {
            Place::Cell(c) => Some(self.board().terrain(*c)),
            Place::Spread(cs) => cs.first().map(|c| self.board().terrain(*c)),
            Place::Point { at, .. } => Some(self.board().terrain_at(*at)),
            Place::Off => None,
        };
        terrain.is_some_and(|t| s.concealing.contains(&t))
    }

    /// True when the piece is kept off the table while no enemy sees it (a type the decoy
    /// rule covers, while that rule is on): nothing of it is public.
    pub(crate) fn behind_decoys(&self, state: &State, p: &Piece) -> bool {
        self.sighting()
            .and_then(|s| s.decoys.as_ref())
            .is_some_and(|d| {
                d.option
                    .is_none_or(|o| state.options.get(o).copied().unwrap_or(false))
                    && d.types.contains(&p.kind)
            })
    }

    fn observer_chart(&self, p: &Piece) -> Option<&SightChartDef> {
        let s = self.sighting()?;
        if !p.on_board() || self.rules().piece_type(p.kind).is_none_or(|t| t.dummy) {
            return None;
        }
        let rule = s
            .observers
            .iter()
            .find(|r| r.types.is_empty() || r.types.contains(&p.kind))?;
        if rule.barred_by.iter().any(|f| p.flag(*f)) {
            return None;
        }
        s.charts.get(rule.chart)
    }

    /// The level `observer` reads for `target` from data alone (no rolls), with whether
    /// they stand next to each other.
    fn level_from_chart(&self, state: &State, observer: &Piece, target: &Piece) -> Option<u8> {
        let chart = self.observer_chart(observer)?;
        let concealed = self.concealed(state, target);
        // The line of sight is the dear part: it is traced only for a pair the chart
        // already gives a level.
        let level = match &chart.shape {
            SightShape::Offsets(entries) => {
                let grid = self.board().grid()?;
                let (from, to, distance) = nearest(grid, &observer.place, &target.place)?;
                // No entry is farther out than the chart's own radius.
                if distance > chart.radius {
                    return None;
                }
                let (right, forward) = relative_offset(from, observer.facing, to);
                let e = entries
                    .iter()
                    .find(|e| e.right == right && e.forward == forward)?;
                if concealed && !e.starred {
                    return None;
                }
                (e.level, distance)
            }
            SightShape::Range(bands) => {
                let distance = self.sight_distance(observer, target)?;
                let level = bands
                    .iter()
                    .filter(|b| b.roll.is_none() && self.band_applies(state, b, target, concealed))
                    .filter(|b| distance <= self.band_reach(b, observer))
                    .map(|b| b.level)
                    .min()?;
                (level, distance)
            }
        };
        let (level, distance) = level;
        (distance <= 1 || self.sight_line_clear(state, observer, target, false)).then_some(level)
    }

    /// True when `band` can find `target` in this state (its option and setting are in
    /// force, and the target stands in none of the terrains it does not see into).
    fn band_applies(
        &self,
        state: &State,
        band: &RangeBand,
        target: &Piece,
        concealed: bool,
    ) -> bool {
        if concealed && !band.concealed_too {
            return false;
        }
        if band
            .option
            .is_some_and(|o| !state.options.get(o).copied().unwrap_or(false))
        {
            return false;
        }
        if band
            .setting
            .is_some_and(|(s, v)| state.settings.get(s).copied().unwrap_or(0) != v)
        {
            return false;
        }
        if !band.not_in.is_empty() {
            let terrain = match &target.place {
                Place::Cell(c) => Some(self.board().terrain(*c)),
                Place::Spread(cs) => cs.first().map(|c| self.board().terrain(*c)),
                Place::Point { at, .. } => Some(self.board().terrain_at(*at)),
                Place::Off => None,
            };
            if terrain.is_some_and(|t| band.not_in.contains(&t)) {
                return false;
            }
        }
        true
    }

    fn band_reach(&self, band: &RangeBand, observer: &Piece) -> u32 {
        let terrain = match &observer.place {
            Place::Cell(c) => Some(self.board().terrain(*c)),
            Place::Point { at, .. } => Some(self.board().terrain_at(*at)),
            Place::Spread(cs) => cs.first().map(|c| self.board().terrain(*c)),
            Place::Off => None,
        };
        terrain
            .and_then(|t| band.from_terrain.iter().find(|(x, _)| *x == t))
            .map_or(band.within, |(_, w)| (*w).max(band.within))
    }

    fn is_real(&self, p: &Piece) -> bool {
        self.rules().piece_type(p.kind).is_some_and(|t| !t.dummy)
    }

    /// The contact level between two enemy pieces, when they are in contact: within reach
    /// and at least one of them real.
    pub(crate) fn in_contact(&self, a: &Piece, b: &Piece) -> Option<u8> {
        let c = self.sighting()?.contact.as_ref()?;
        if !a.on_board() || !b.on_board() || a.side == b.side {
            return None;
        }
        if !self.is_real(a) && !self.is_real(b) {
            return None;
        }
        let both_kinds = c.types.contains(&a.kind) && c.types.contains(&b.kind);
        if !c.types.is_empty() && !both_kinds {
            return None;
        }
        (self.sight_distance(a, b)? <= c.within).then_some(c.level)
    }

    /// Rolled spotting: at the start of a spotting phase, each side rolls once for each
    /// enemy piece whose position it knows and that one of its observers has within a band
    /// that needs a roll; a success holds until the next spotting phase.
    pub(crate) fn spotting_rolls(&self, next: &mut State, events: &mut Vec<Event>) {
        if self.sighting().is_none() {
            return;
        }
        let sides = self.sides().len();
        for k in &mut next.knowledge {
            for known in &mut k.of {
                known.rolled = None;
            }
        }
        for side in 0..sides {
            let side_id = SideId(side as u8);
            for ti in 0..next.pieces.len() {
                let target = next.pieces[ti].clone();
                if target.side == side_id || !target.on_board() {
                    continue;
                }
                let knows = next
                    .knowledge
                    .get(side)
                    .is_some_and(|k| k.knows_position(target.id));
                if !knows {
                    continue;
                }
                let concealed = self.concealed(next, &target);
                // The best band any observer has the target in.
                let mut best: Option<&RangeBand> = None;
                for observer in next.pieces.iter().filter(|p| p.side == side_id) {
                    let Some(chart) = self.observer_chart(observer) else {
                        continue;
                    };
                    let SightShape::Range(bands) = &chart.shape else {
                        continue;
                    };
                    let Some(d) = self.sight_distance(observer, &target) else {
                        continue;
                    };
                    // The line is traced only for an observer whose bands could do better
                    // than the best found so far.
                    let better = bands
                        .iter()
                        .filter(|b| b.roll.is_some())
                        .filter(|b| {
                            self.band_applies(next, b, &target, concealed)
                                && d <= self.band_reach(b, observer)
                        })
                        .min_by_key(|b| b.level);
                    let Some(b) = better.filter(|b| best.is_none_or(|x| b.level < x.level)) else {
                        continue;
                    };
                    if self.sight_line_clear(next, observer, &target, false) {
                        best = Some(b);
                    }
                }
                let Some(band) = best else {
                    continue;
                };
                // Roll only when the band would tell the side something it does not know.
                let already = next
                    .knowledge
                    .get(side)
                    .and_then(|k| k.get(target.id))
                    .map_or(Disclosure::NONE, |k| k.now);
                let would = self
                    .sighting()
                    .and_then(|s| s.levels.get(usize::from(band.level)))
                    .map_or(Disclosure::NONE, |d| d.discloses);
                if already.has(would) {
                    continue;
                }
                let Some((chart_id, wanted)) = &band.roll else {
                    continue;
                };
                let Some(chart) = self.rules().charts.get(chart_id.index()) else {
                    continue;
                };
                let inputs = vec![0; chart.inputs.len()];
                let Some(rng) = next.side_rngs.get_mut(side) else {
                    continue;
                };
                let resolution = chart.resolve(&self.rules().dice, &inputs, rng);
                let purpose = format!(
                    "spotting by {}",
                    self.sides().get(side).map_or("?", |d| d.name.as_str())
                );
                let record = crate::game::roll_record(
                    self.rules(),
                    *chart_id,
                    &purpose,
                    &inputs,
                    &resolution,
                );
                let success = record.outcome == *wanted;
                events.push(Event::SpotRolled {
                    side: SideId(side as u8),
                    roll: record,
                });
                if success && let Some(k) = next.knowledge.get_mut(side) {
                    if k.of.len() <= ti {
                        k.of.resize(ti + 1, Known::default());
                    }
                    k.of[ti].rolled = Some(band.level);
                }
            }
        }
    }

    /// Recomputes every side's knowledge from the current state (the kernel does it after
    /// every order and at every phase start, so this changes nothing in a game left as
    /// `apply` left it); returns the `sighted` events of any change. For benchmarks and
    /// for tools that edit a state by hand.
    pub fn refresh_sightings(&mut self) -> Vec<Event> {
        let mut next = self.state.clone();
        let mut events = Vec::new();
        self.update_knowledge(&mut next, &mut events);
        self.state = next;
        events
    }

    /// The rolls a spotting phase would make now, made on a copy of the state: the game is
    /// unchanged. For benchmarks and referees' tools.
    #[must_use]
    pub fn spotting_preview(&self) -> Vec<Event> {
        let mut next = self.state.clone();
        let mut events = Vec::new();
        self.spotting_rolls(&mut next, &mut events);
        events
    }

    /// Recomputes every side's knowledge from the state, logging each change of level as a
    /// `sighted` event (which only the observing side and the referee see).
    pub(crate) fn update_knowledge(&self, next: &mut State, events: &mut Vec<Event>) {
        let Some(s) = self.sighting() else {
            return;
        };
        let sides = self.sides().len();
        let n = next.pieces.len();
        next.knowledge.resize(sides, Knowledge::default());
        for k in &mut next.knowledge {
            k.of.resize(n, Known::default());
        }
        // Pass 1: levels. Nothing farther than the longest chart or contact reach can give
        // a level, so such pairs are passed over on a distance check alone; and once a
        // target is seen at the best level, only adjacency is still worth asking.
        let data_radius = |c: &SightChartDef| match &c.shape {
            // Bands that need a roll are read in the spotting phases, not here.
            SightShape::Range(bands) => bands
                .iter()
                .filter(|b| b.roll.is_none())
                .flat_map(|b| {
                    core::iter::once(b.within).chain(b.from_terrain.iter().map(|(_, w)| *w))
                })
                .max()
                .unwrap_or(0),
            SightShape::Offsets(_) => c.radius,
        };
        let reach = s
            .charts
            .iter()
            .map(data_radius)
            .chain(s.contact.as_ref().map(|c| c.within))
            .max()
            .unwrap_or(0);
        // Each side's pieces on single cells, sorted by row: a grid distance is never less
        // than the difference in rows, so a target looks only at the rows within reach.
        // Spread pieces and pieces on an open table are always looked at.
        let mut by_row: Vec<Vec<(i32, usize)>> = vec![Vec::new(); sides];
        let mut others: Vec<Vec<usize>> = vec![Vec::new(); sides];
        for (i, p) in next.pieces.iter().enumerate() {
            let side = p.side.index();
            if side >= sides || !p.on_board() {
                continue;
            }
            match &p.place {
                Place::Cell(c) => by_row[side].push((c.row, i)),
                _ => others[side].push(i),
            }
        }
        for rows in &mut by_row {
            rows.sort_unstable();
        }
        let near = |side: usize, target: &Piece| -> Vec<usize> {
            match &target.place {
                Place::Cell(c) => {
                    let rows = &by_row[side];
                    let lo = c.row.saturating_sub(reach as i32);
                    let hi = c.row.saturating_add(reach as i32);
                    let start = rows.partition_point(|(r, _)| *r < lo);
                    let end = rows.partition_point(|(r, _)| *r <= hi);
                    rows[start..end]
                        .iter()
                        .map(|(_, i)| *i)
                        .chain(others[side].iter().copied())
                        .collect()
                }
                _ => rows_and_others(&by_row[side], &others[side]),
            }
        };
        let mut levels: Vec<Vec<Option<u8>>> = vec![vec![None; n]; sides];
        let mut adjacent: Vec<Vec<bool>> = vec![vec![false; n]; sides];
        for (side, row) in levels.iter_mut().enumerate() {
            for (ti, target) in next.pieces.iter().enumerate() {
                if target.side == SideId(side as u8) || !target.on_board() {
                    continue;
                }
                let mut best: Option<u8> = next.knowledge[side].of[ti].rolled;
                for oi in near(side, target) {
                    let observer = &next.pieces[oi];
                    let Some(d) = self.sight_distance(observer, target) else {
                        continue;
                    };
                    if d > reach {
                        continue;
                    }
                    let next_to = d <= 1 && self.is_real(observer);
                    if best == Some(0) && (!next_to || adjacent[side][ti]) {
                        continue;
                    }
                    let from_chart = self.level_from_chart(next, observer, target);
                    let from_contact = self.in_contact(observer, target);
                    for l in [from_chart, from_contact].into_iter().flatten() {
                        best = Some(best.map_or(l, |b| b.min(l)));
                    }
                    if next_to && (from_chart.is_some() || from_contact.is_some()) {
                        adjacent[side][ti] = true;
                    }
                }
                row[ti] = best;
            }
        }
        // Pass 2: markers seen at a flipping level turn face up for everyone.
        let face_up: Vec<bool> = (0..n)
            .map(|ti| {
                levels.iter().any(|row| {
                    row[ti]
                        .and_then(|l| s.levels.get(usize::from(l)))
                        .is_some_and(|d| d.flips_up)
                })
            })
            .collect();
        // Pass 3: what each side knows now.
        let turn = next.turn;
        for side in 0..sides {
            let side_id = SideId(side as u8);
            for ti in 0..n {
                let target = &next.pieces[ti];
                if target.side == side_id {
                    continue;
                }
                let level = levels[side][ti];
                let mut now = Disclosure::NONE;
                if target.on_board() {
                    if let Some(def) = level.and_then(|l| s.levels.get(usize::from(l))) {
                        now = now.with(def.discloses);
                        if adjacent[side][ti] {
                            now = now.with(def.adjacent);
                        }
                    }
                    if self.behind_decoys(next, target) {
                        // Off the table until sighted.
                    } else if self.concealed(next, target) {
                        now = now.with(s.concealed_public);
                        if face_up[ti] {
                            now = now.with(s.face_up).with(Disclosure::POSITION);
                        }
                    } else {
                        now = now.with(s.public);
                        if face_up[ti] {
                            now = now.with(s.face_up).with(Disclosure::POSITION);
                        }
                    }
                }
                let real = self.is_real(target);
                let strength = s.strength.map(|c| target.counter(c));
                let (kind, place, facing) = (target.kind, target.place.clone(), target.facing);
                // The whole piece is copied only when its identity is disclosed.
                let snapshot = now.has(Disclosure::IDENTITY).then(|| target.clone());
                let known = &mut next.knowledge[side].of[ti];
                let before = known.level;
                known.level = level;
                known.now = now;
                if now.has(Disclosure::POSITION) {
                    known.seen = Some(Seen {
                        place,
                        facing,
                        turn,
                    });
                }
                if now.has(Disclosure::REAL) {
                    known.real = Some(real);
                }
                if now.has(Disclosure::KIND) {
                    known.kind = Some(kind);
                }
                if now.has(Disclosure::STRENGTH) {
                    known.strength = strength;
                }
                if snapshot.is_some() {
                    known.identity = snapshot;
                }
                if before != level {
                    events.push(Event::Sighted {
                        side: side_id,
                        piece: PieceId(ti as u32),
                        level: level
                            .and_then(|l| s.levels.get(usize::from(l)))
                            .map(|d| d.name.clone()),
                    });
                }
            }
        }
        next.face_up = face_up;
    }
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
