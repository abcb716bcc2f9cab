//! Hex grids: pointy-top hexes in "odd-r" offset layout, with axial coordinates for
//! arithmetic.
//!
//! Scenario files name hexes by offset [`Cell`]s: rows run west to east, and every odd row
//! is shoved half a hex east. Pointy-top hexes have flat sides to the east and west and
//! two flat sides on each diagonal, and a unit faces a flat side (004: "forces facing the
//! FLATS of hexes, not the corners"), so there are six facings, clockwise from east:
//!
//! ```text
//!        NW(4)   NE(5)
//!     W(3)    ·     E(0)
//!        SW(2)   SE(1)
//! ```
//!
//! Arithmetic happens in axial coordinates ([`Axial`]): `r` is the row and `q` the column
//! minus half the row, rounded down, so the six steps are the same from every hex.
//!
//! # Half-hexes
//!
//! A hex board is printed on a rectangular table, and the table edges cut the hexes that
//! stick out of the rectangle (002: units may never enter the side half-hexes and leave
//! only by the baseline ones). The model, for a board of `cols × rows` cells:
//!
//! - **Side half-hexes** (`sides` on): the west table edge runs through the centres of
//!   the even rows' column 0, the east edge through the centres of the odd rows' column
//!   `cols - 1` (odd rows are shoved east, so they stick out on that side).
//! - **Baseline half-hexes** (`baselines` on): the north and south table edges run through
//!   the centres of rows 0 and `rows - 1`.
//! - A hex cut both ways (a corner) counts as a side half-hex.
//!
//! Centres on a 4 × 4 board with both switches on (`S` side, `B` baseline, `.` whole):
//!
//! ```text
//!    west edge            east edge
//!       |                    |
//!       S     B     B     B  |     row 0  (north baseline)
//!       |  .     .     .     S     row 1
//!       S     .     .     .  |     row 2
//!       |  B     B     B     S     row 3  (south baseline)
//!       |                    |
//! ```

use serde::{Deserialize, Serialize};

use super::sector::{self, Vector};
use super::{Arc, ArcSpec, Cell, Facing};

/// Number of directions on a hex grid.
pub const COUNT: u8 = 6;

/// Named directions of a pointy-top hex grid, clockwise from east; each faces a flat side.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::hex::Dir;
/// assert_eq!(Dir::SW.0, 2);
/// assert_eq!(Dir::ALL.len(), 6);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Dir;

impl Dir {
    /// East.
    pub const E: Facing = Facing(0);
    /// South-east.
    pub const SE: Facing = Facing(1);
    /// South-west.
    pub const SW: Facing = Facing(2);
    /// West.
    pub const W: Facing = Facing(3);
    /// North-west.
    pub const NW: Facing = Facing(4);
    /// North-east.
    pub const NE: Facing = Facing(5);
    /// All six, in direction order.
    pub const ALL: [Facing; 6] = [Self::E, Self::SE, Self::SW, Self::W, Self::NW, Self::NE];
}

/// Axial `(q, r)` steps of the six directions.
const STEPS: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// Axial coordinates of a hex: `r` is the row, `q` the column minus `floor(r / 2)`. The
/// third cube coordinate is `s = -q - r`.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{hex::Axial, Cell};
/// let a = Axial::from_cell(Cell::new(3, 5));
/// assert_eq!(a, Axial { q: 1, r: 5 });
/// assert_eq!(a.to_cell(), Cell::new(3, 5));
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Axial {
    /// Column axis, slanting with the rows.
    pub q: i32,
    /// Row.
    pub r: i32,
}

impl Axial {
    /// The hex at `q`, `r`.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::hex::Axial;
    /// assert_eq!(Axial::new(2, -1).q, 2);
    /// ```
    #[must_use]
    pub const fn new(q: i32, r: i32) -> Self {
        Self { q, r }
    }

    /// Axial coordinates of an offset cell. Exact inverse of [`Axial::to_cell`] for every
    /// cell whose `|col| + |row| / 2` fits an `i32` (saturates beyond).
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::{hex::Axial, Cell};
    /// assert_eq!(Axial::from_cell(Cell::new(0, -1)), Axial::new(1, -1));
    /// ```
    #[must_use]
    pub const fn from_cell(c: Cell) -> Self {
        // `row >> 1` is `floor(row / 2)` for negative rows too.
        Self {
            q: c.col.saturating_sub(c.row >> 1),
            r: c.row,
        }
    }

    /// The offset cell of these axial coordinates.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::{hex::Axial, Cell};
    /// assert_eq!(Axial::new(-1, 3).to_cell(), Cell::new(0, 3));
    /// ```
    #[must_use]
    pub const fn to_cell(self) -> Cell {
        Cell::new(self.q.saturating_add(self.r >> 1), self.r)
    }

    /// The third cube coordinate, `-q - r` (widened so that it cannot overflow).
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::hex::Axial;
    /// assert_eq!(Axial::new(2, 3).s(), -5);
    /// ```
    #[must_use]
    pub const fn s(self) -> i64 {
        -(self.q as i64) - self.r as i64
    }

    /// The axial step of one move in `dir` (taken modulo 6).
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::hex::{Axial, Dir};
    /// assert_eq!(Axial::step(Dir::NE), Axial::new(1, -1));
    /// ```
    #[must_use]
    pub const fn step(dir: Facing) -> Self {
        let (q, r) = STEPS[(dir.0 % COUNT) as usize];
        Self { q, r }
    }

    /// Steps between two hexes.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::hex::Axial;
    /// assert_eq!(Axial::new(0, 0).distance(Axial::new(2, -3)), 3);
    /// ```
    #[must_use]
    pub const fn distance(self, other: Self) -> u32 {
        Wide(self.q as i64, self.r as i64).distance_wide(Wide(other.q as i64, other.r as i64))
    }
}

/// Steps between two hexes.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{hex::distance, Cell};
/// // From (0,0) to (2,2): two rows down, and row 2 is not shoved, so one more step east.
/// assert_eq!(distance(Cell::new(0, 0), Cell::new(2, 2)), 3);
/// assert_eq!(distance(Cell::new(0, 0), Cell::new(1, 2)), 2);
/// ```
#[must_use]
pub const fn distance(a: Cell, b: Cell) -> u32 {
    wide(a).distance_wide(wide(b))
}

/// The hex one step from `c` in `dir` (taken modulo 6; saturating at the ends of `i32`).
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{hex::{neighbour, Dir}, Cell};
/// // Row 0 is even: its south-east neighbour is straight below in the cell numbering.
/// assert_eq!(neighbour(Cell::new(2, 0), Dir::SE), Cell::new(2, 1));
/// // Row 1 is odd (shoved east): its south-east neighbour is one column further.
/// assert_eq!(neighbour(Cell::new(2, 1), Dir::SE), Cell::new(3, 2));
/// ```
#[must_use]
pub const fn neighbour(c: Cell, dir: Facing) -> Cell {
    let (dc, dr) = offset(c.row, dir);
    Cell::new(c.col.saturating_add(dc), c.row.saturating_add(dr))
}

/// The `(dcol, drow)` of a step in `dir` from a hex in row `row`.
const fn offset(row: i32, dir: Facing) -> (i32, i32) {
    const EVEN: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1)];
    const ODD: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (0, -1), (1, -1)];
    let i = (dir.0 % COUNT) as usize;
    if row & 1 == 0 { EVEN[i] } else { ODD[i] }
}

/// The direction of the step from `from` to `to`, if they are neighbours.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{hex::{direction_to, Dir}, Cell};
/// assert_eq!(direction_to(Cell::new(2, 1), Cell::new(2, 0)), Some(Dir::NW));
/// assert_eq!(direction_to(Cell::new(2, 1), Cell::new(4, 1)), None);
/// ```
#[must_use]
pub const fn direction_to(from: Cell, to: Cell) -> Option<Facing> {
    let a = wide(from);
    let b = wide(to);
    let (dq, dr) = (b.0 - a.0, b.1 - a.1);
    let mut i = 0;
    while i < STEPS.len() {
        if STEPS[i].0 as i64 == dq && STEPS[i].1 as i64 == dr {
            return Some(Facing(i as u8));
        }
        i += 1;
    }
    None
}

/// Axial coordinates widened to `i64`, so that no cell can overflow them.
#[derive(Clone, Copy)]
struct Wide(i64, i64);

const fn wide(c: Cell) -> Wide {
    Wide(c.col as i64 - (c.row >> 1) as i64, c.row as i64)
}

impl Wide {
    const fn distance_wide(self, other: Self) -> u32 {
        let dq = self.0 - other.0;
        let dr = self.1 - other.1;
        let d = (dq.abs() + dr.abs() + (dq + dr).abs()) / 2;
        if d > u32::MAX as i64 {
            u32::MAX
        } else {
            d as u32
        }
    }
}

/// Axial coordinates of `c` widened to `i64` (cube `s` is `-q - r`). Used by the line
/// tracer, which must not overflow on any cell.
pub(crate) const fn axial_wide(c: Cell) -> (i64, i64) {
    let w = wide(c);
    (w.0, w.1)
}

/// The offset cell of widened axial coordinates, saturating into `i32`.
pub(crate) const fn cell_from_wide(q: i64, r: i64) -> Cell {
    let col = q + (r >> 1);
    Cell::new(clamp_i32(col), clamp_i32(r))
}

const fn clamp_i32(v: i64) -> i32 {
    if v > i32::MAX as i64 {
        i32::MAX
    } else if v < i32::MIN as i64 {
        i32::MIN
    } else {
        v as i32
    }
}

/// Where `to` lies relative to a piece on `from` facing `facing` (see
/// [`Grid::arc`](super::Grid::arc) for the definition).
///
/// Computed exactly in doubled-width coordinates `(X, Y) = (2q + r, r)`, whose real
/// vector is `(X · √3/2, Y · 3/2)`: that map keeps the sign of every cross product, and arc
/// edges at multiples of 30° are integer vectors there (`(2, 0)` east, `(3, 1)` at 30°,
/// `(1, 1)` at 60°, ...). So a hex exactly on an edge (a neighbour at 60° from the facing
/// with a 60° front arc, or a hex on a 30° spine) is classified exactly. Other whole-degree
/// edges use the integer sine table, as described in the geometry module docs.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{hex::{arc, neighbour, Dir}, Arc, ArcSpec, Cell};
/// let spec = ArcSpec::new(60, 30);
/// let at = Cell::new(4, 4);
/// assert_eq!(arc(at, Dir::E, neighbour(at, Dir::NE), spec), Arc::Front);
/// assert_eq!(arc(at, Dir::E, neighbour(at, Dir::NW), spec), Arc::Flank);
/// assert_eq!(arc(at, Dir::E, neighbour(at, Dir::W), spec), Arc::Rear);
/// ```
#[must_use]
pub fn arc(from: Cell, facing: Facing, to: Cell, spec: ArcSpec) -> Arc {
    // Doubled-width coordinates of the displacement, in i64 so no cell can overflow.
    let (a, b) = (wide(from), wide(to));
    let (dq, dr) = (b.0 - a.0, b.1 - a.1);
    let v: Vector = (i128::from(2 * dq + dr), i128::from(dr));
    sector::classify(facing.tenths(COUNT), spec, v, boundary)
}

/// `√3 · 2^60`, rounded.
const SQRT3: i128 = 1_996_918_623_117_814_388;

/// Doubled-width directions of the bearings 0°, 30°, ..., 330°.
const SPINES: [(i128, i128); 12] = [
    (1, 0),
    (3, 1),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-3, 1),
    (-1, 0),
    (-3, -1),
    (-1, -1),
    (0, -1),
    (1, -1),
    (3, -1),
];

/// Working-plane direction of a bearing in tenths: the real direction `(cos, sin)` is
/// `(√3 cos, sin)` up to scale in doubled-width coordinates.
fn boundary(tenths: i32) -> Vector {
    if tenths % 300 == 0 {
        SPINES[((tenths / 300) % 12) as usize]
    } else {
        let (c, s) = sector::unit_tenths(tenths);
        ((c * SQRT3 + (1 << 59)) >> 60, s)
    }
}

/// The centre of `c` for drawing, with hexes 1.0 wide (flat side to flat side) and the
/// centre of `(0, 0)` at the origin; rows are `√3/2` apart. Never used by rules.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{hex::center, Cell};
/// let (x, y) = center(Cell::new(2, 1));
/// assert_eq!(x, 2.5);
/// assert!((y - 0.866).abs() < 1e-3);
/// ```
#[must_use]
pub fn center(c: Cell) -> (f64, f64) {
    const ROW_HEIGHT: f64 = 0.866_025_403_784_438_6;
    let shove = if c.row & 1 == 0 { 0.0 } else { 0.5 };
    (f64::from(c.col) + shove, f64::from(c.row) * ROW_HEIGHT)
}

/// Which table edge cuts a hex in half (see the module docs for the model).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HalfHex {
    /// Cut by the west or east table edge.
    Side,
    /// Cut by the north or south table edge (a baseline).
    Baseline,
}

/// Whether `c` is a half-hex on a board of `cols × rows` hexes, with side and baseline
/// half-hexes switched on or off by the scenario. `None` for whole hexes and for cells off
/// the board. A corner hex cut both ways is a [`HalfHex::Side`].
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{hex::{is_edge_half, HalfHex}, Cell};
/// // 002: units may never enter the side half-hexes.
/// assert_eq!(is_edge_half(Cell::new(0, 2), 13, 9, true, true), Some(HalfHex::Side));
/// assert_eq!(is_edge_half(Cell::new(12, 3), 13, 9, true, true), Some(HalfHex::Side));
/// assert_eq!(is_edge_half(Cell::new(0, 3), 13, 9, true, true), None);
/// assert_eq!(is_edge_half(Cell::new(5, 8), 13, 9, true, true), Some(HalfHex::Baseline));
/// assert_eq!(is_edge_half(Cell::new(5, 8), 13, 9, true, false), None);
/// ```
#[must_use]
pub const fn is_edge_half(
    c: Cell,
    cols: i32,
    rows: i32,
    sides: bool,
    baselines: bool,
) -> Option<HalfHex> {
    if c.col < 0 || c.row < 0 || c.col >= cols || c.row >= rows {
        return None;
    }
    // Both subtractions are safe: cols > c.col >= 0 and rows > c.row >= 0 here.
    let even = c.row & 1 == 0;
    if sides && ((even && c.col == 0) || (!even && c.col == cols - 1)) {
        return Some(HalfHex::Side);
    }
    if baselines && (c.row == 0 || c.row == rows - 1) {
        return Some(HalfHex::Baseline);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_of_an_even_row_hex() {
        // Row 2 is even: its upper and lower neighbours are at col-1 and col.
        let c = Cell::new(3, 2);
        let got: Vec<_> = Dir::ALL.into_iter().map(|d| neighbour(c, d)).collect();
        assert_eq!(
            got,
            [
                Cell::new(4, 2), // E
                Cell::new(3, 3), // SE
                Cell::new(2, 3), // SW
                Cell::new(2, 2), // W
                Cell::new(2, 1), // NW
                Cell::new(3, 1), // NE
            ]
        );
    }

    #[test]
    fn neighbours_of_an_odd_row_hex() {
        // Row 3 is odd, shoved east: its upper and lower neighbours are at col and col+1.
        let c = Cell::new(3, 3);
        let got: Vec<_> = Dir::ALL.into_iter().map(|d| neighbour(c, d)).collect();
        assert_eq!(
            got,
            [
                Cell::new(4, 3), // E
                Cell::new(4, 4), // SE
                Cell::new(3, 4), // SW
                Cell::new(2, 3), // W
                Cell::new(3, 2), // NW
                Cell::new(4, 2), // NE
            ]
        );
    }

    #[test]
    fn negative_rows_keep_the_odd_r_shove() {
        // Row -1 is odd, so it is shoved east like row 1.
        let c = Cell::new(0, -1);
        assert_eq!(neighbour(c, Dir::SE), Cell::new(1, 0));
        assert_eq!(neighbour(c, Dir::SW), Cell::new(0, 0));
        assert_eq!(neighbour(Cell::new(0, 0), Dir::NE), Cell::new(0, -1));
        for d in Dir::ALL {
            assert_eq!(neighbour(neighbour(c, d), d.opposite(6)), c);
        }
    }

    #[test]
    fn axial_neighbours_are_the_same_everywhere() {
        for c in [Cell::new(0, 0), Cell::new(5, 1), Cell::new(-3, -7)] {
            let a = Axial::from_cell(c);
            for d in Dir::ALL {
                let s = Axial::step(d);
                let n = Axial::new(a.q + s.q, a.r + s.r);
                assert_eq!(n.to_cell(), neighbour(c, d));
                assert_eq!(distance(c, n.to_cell()), 1);
                assert_eq!(direction_to(c, n.to_cell()), Some(d));
            }
        }
    }

    #[test]
    fn distances_count_hex_steps() {
        let o = Cell::new(0, 0);
        assert_eq!(distance(o, o), 0);
        assert_eq!(distance(o, Cell::new(4, 0)), 4);
        // Straight down the SE/SW zig-zag: 4 rows cost 4 steps when the column drifts by 2.
        assert_eq!(distance(o, Cell::new(2, 4)), 4);
        assert_eq!(distance(o, Cell::new(-2, 4)), 4);
        assert_eq!(distance(o, Cell::new(3, 4)), 5);
        assert_eq!(
            distance(Cell::new(i32::MIN, i32::MIN), Cell::new(i32::MAX, i32::MAX)),
            u32::MAX
        );
    }

    #[test]
    fn default_hex_arcs_front_three_flank_two_rear_one() {
        // 004: a unit fires and moves through its three front hexes; only the hex straight
        // behind is the centre rear hex. With front 60°, rear 30°:
        let spec = ArcSpec::new(60, 30);
        for c in [Cell::new(4, 4), Cell::new(4, 5)] {
            for facing in Dir::ALL {
                for step in 0..6 {
                    let target = neighbour(c, facing.rotate(step, 6));
                    let expected = match step {
                        0 | 1 | 5 => Arc::Front,
                        2 | 4 => Arc::Flank,
                        _ => Arc::Rear,
                    };
                    assert_eq!(
                        arc(c, facing, target, spec),
                        expected,
                        "{c} {facing:?} {step}"
                    );
                }
                assert_eq!(arc(c, facing, c, spec), Arc::Same);
            }
        }
    }

    #[test]
    fn spine_hexes_sit_exactly_on_thirty_degree_edges() {
        let o = Cell::new(0, 0);
        // Axial (1, 1) is (3, 1) in doubled-width coordinates: exactly 30° south of east.
        let spine = Axial::new(1, 1).to_cell();
        assert_eq!(arc(o, Dir::E, spine, ArcSpec::new(30, 0)), Arc::Front);
        assert_eq!(arc(o, Dir::E, spine, ArcSpec::new(29, 0)), Arc::Flank);
        // ...and 90° from NW, at the edge of a 90° front arc.
        assert_eq!(arc(o, Dir::NE, spine, ArcSpec::new(90, 0)), Arc::Front);
        assert_eq!(arc(o, Dir::NE, spine, ArcSpec::new(89, 0)), Arc::Flank);
        // Two hexes E then one SE is at atan(√3/5) ≈ 19.1°.
        let off = Axial::new(2, 1).to_cell();
        assert_eq!(arc(o, Dir::E, off, ArcSpec::new(20, 0)), Arc::Front);
        assert_eq!(arc(o, Dir::E, off, ArcSpec::new(19, 0)), Arc::Flank);
    }

    #[test]
    fn fifteen_degree_edges_separate_nearby_hexes() {
        // tan 15° = 2 - √3 ≈ 0.2679. The hex at axial (q, 1) lies at atan(√3 / (2q + 1)).
        let o = Cell::new(0, 0);
        let spec = ArcSpec::new(15, 0);
        // 2q + 1 = 7: atan(0.2474) ≈ 13.9° inside; 2q + 1 = 5: 19.1° outside.
        assert_eq!(arc(o, Dir::E, Axial::new(3, 1).to_cell(), spec), Arc::Front);
        assert_eq!(arc(o, Dir::E, Axial::new(2, 1).to_cell(), spec), Arc::Flank);
        // Far away: axial (q, r) with √3 r / (2q + r) close to tan 15°.
        // r = 15, 2q + r = 97: 25.98/97 = 0.26784 < 0.26795 (inside).
        assert_eq!(
            arc(o, Dir::E, Axial::new(41, 15).to_cell(), spec),
            Arc::Front
        );
        // r = 15, 2q + r = 95 → 0.27349 (outside).
        assert_eq!(
            arc(o, Dir::E, Axial::new(40, 15).to_cell(), spec),
            Arc::Flank
        );
    }

    #[test]
    fn half_hexes_follow_the_documented_model() {
        let (cols, rows) = (4, 4);
        let grid: Vec<String> = (0..rows)
            .map(|row| {
                (0..cols)
                    .map(
                        |col| match is_edge_half(Cell::new(col, row), cols, rows, true, true) {
                            Some(HalfHex::Side) => 'S',
                            Some(HalfHex::Baseline) => 'B',
                            None => '.',
                        },
                    )
                    .collect()
            })
            .collect();
        // The picture in the module docs.
        assert_eq!(grid, ["SBBB", "...S", "S...", "BBBS"]);
        assert_eq!(is_edge_half(Cell::new(-1, 0), cols, rows, true, true), None);
        assert_eq!(is_edge_half(Cell::new(0, 4), cols, rows, true, true), None);
        assert_eq!(
            is_edge_half(Cell::new(0, 0), cols, rows, false, false),
            None
        );
        assert_eq!(
            is_edge_half(Cell::new(0, 0), cols, rows, false, true),
            Some(HalfHex::Baseline)
        );
        assert_eq!(
            is_edge_half(Cell::new(0, 0), i32::MIN, i32::MIN, true, true),
            None
        );
    }

    #[test]
    fn conversions_survive_extreme_cells() {
        let c = Cell::new(i32::MIN, i32::MAX);
        let _ = Axial::from_cell(c).to_cell();
        let _ = neighbour(c, Dir::NE);
        assert_eq!(direction_to(c, c), None);
        let _ = arc(
            c,
            Dir::E,
            Cell::new(i32::MAX, i32::MIN),
            ArcSpec::new(60, 30),
        );
    }
}
