//! Board geometry: square grids with diagonals, hex grids with facing, open tables in inches.
//!
//! Contract types live here; each geometry has its own module:
//!
//! - [`square`]: eight directions, Chebyshev distance.
//! - [`hex`]: pointy-top hexes in "odd-r" offset layout, axial coordinates, half-hexes.
//! - [`grid`]: the [`Grid`] the game plays on (square or hex): neighbours, step costs,
//!   facing arcs, zone of control.
//! - [`line`](mod@line): centre-to-centre lines of sight on both grids.
//! - [`open`]: an open table measured in thousandths of an inch.
//!
//! # Exactness
//!
//! Rules are decided with integers only. Arcs are decided by the sign of cross products
//! against the arc's boundary directions (see [`Arc`] and the private `sector` module);
//! a boundary that lies on a grid direction is an exact integer vector, so a neighbour that
//! lies exactly on an arc's edge is classified exactly. Floats appear only in
//! [`Grid::center`], which is for drawing.
//!
//! # Supported coordinates
//!
//! Grid cells are supported for `|col|, |row| <= 1_000_000`, open-table points for
//! `|x|, |y| <= 2^40` thousandths of an inch (about 17,000 miles). Inside those ranges no
//! arithmetic overflows and every documented property holds. Outside them nothing panics:
//! results saturate and may be meaningless.

use serde::{Deserialize, Serialize};

pub mod footprint;
pub mod grid;
pub mod hex;
pub mod line;
pub mod open;
pub mod square;

pub use grid::{Grid, HexGrid, SquareGrid};

/// Largest supported `|col|` or `|row|` of a grid cell (see the module docs).
pub const MAX_COORD: i32 = 1_000_000;

/// A cell of a grid board in *offset* coordinates, exactly as written in scenario files.
///
/// Square boards: `col` grows east, `row` grows south; `(0, 0)` is the north-west corner.
/// Hex boards: pointy-top hexes in "odd-r" layout (odd rows are shoved half a hex east);
/// see [`hex`] for the conversion to axial coordinates.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Cell {
    /// Column, counted from the west edge.
    pub col: i32,
    /// Row, counted from the north edge.
    pub row: i32,
}

impl Cell {
    /// The cell at `col`, `row`.
    #[must_use]
    pub const fn new(col: i32, row: i32) -> Self {
        Self { col, row }
    }
}

impl core::fmt::Display for Cell {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "({},{})", self.col, self.row)
    }
}

/// A direction a piece faces or a step goes, as an index of the grid's directions, clockwise
/// from east. Square grids have 8 ([`square::Dir`] constants), hex grids 6 (pointy-top hexes
/// face their flat sides: [`hex::Dir`] constants).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Facing(pub u8);

/// Where a target lies relative to a piece's facing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arc {
    /// In the front arc.
    Front,
    /// Neither front nor rear.
    Flank,
    /// In the rear arc.
    Rear,
    /// The same place as the observer: no bearing.
    Same,
}

/// How wide the front and rear arcs are, in whole degrees either side of the facing (front)
/// and of the opposite direction (rear). Both bounds are inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ArcSpec {
    /// Half-angle of the front arc, degrees (e.g. 60 on a hex grid: the three front hexes).
    pub front_half_angle: u16,
    /// Half-angle of the rear arc, degrees (e.g. 45 on a square grid: the three rear squares).
    pub rear_half_angle: u16,
}

/// One entry of a centre-to-centre line: either a cell the line passes through, or two
/// cells the line runs exactly between (along their shared edge, or through a corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LineCell {
    /// The line passes through this cell's interior.
    One(Cell),
    /// The line runs exactly along the boundary between these two cells.
    Between(Cell, Cell),
}

impl Facing {
    /// This facing turned `steps` directions clockwise (negative: anticlockwise) on a grid
    /// with `count` directions (6 on hex, 8 on square).
    ///
    /// A facing index of `count` or more is first reduced modulo `count`; a `count` of 0
    /// leaves the facing unchanged (no panic on a bad ruleset).
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::{hex, square};
    /// assert_eq!(hex::Dir::E.rotate(-1, 6), hex::Dir::NE);
    /// assert_eq!(hex::Dir::NE.rotate(1, 6), hex::Dir::E);
    /// assert_eq!(square::Dir::N.rotate(3, 8), square::Dir::SE);
    /// ```
    #[must_use]
    pub const fn rotate(self, steps: i32, count: u8) -> Self {
        if count == 0 {
            return self;
        }
        let n = count as i32;
        // Both remainders are below `n` in magnitude, so the sum cannot overflow.
        let index = (self.0 as i32 % n) + steps % n;
        Self(index.rem_euclid(n) as u8)
    }

    /// The facing pointing the other way (half a turn) on a grid with `count` directions.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::{hex, square};
    /// assert_eq!(hex::Dir::NE.opposite(6), hex::Dir::SW);
    /// assert_eq!(square::Dir::E.opposite(8), square::Dir::W);
    /// ```
    #[must_use]
    pub const fn opposite(self, count: u8) -> Self {
        self.rotate(count as i32 / 2, count)
    }

    /// The same facing with its index reduced into `0..count`.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::Facing;
    /// assert_eq!(Facing(7).normalised(6), Facing(1));
    /// ```
    #[must_use]
    pub const fn normalised(self, count: u8) -> Self {
        self.rotate(0, count)
    }

    /// The facing's bearing in tenths of a degree clockwise from east, on a grid with
    /// `count` directions (`count` of 0 is treated as 1).
    #[must_use]
    pub(crate) const fn tenths(self, count: u8) -> i32 {
        let count = if count == 0 { 1 } else { count as i32 };
        self.normalised(count as u8).0 as i32 * (3600 / count)
    }
}

impl core::fmt::Display for Facing {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "facing {}", self.0)
    }
}

impl ArcSpec {
    /// Front and rear half-angles in whole degrees.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::ArcSpec;
    /// let spec = ArcSpec::new(60, 30);
    /// assert_eq!(spec.front_half_angle, 60);
    /// ```
    #[must_use]
    pub const fn new(front_half_angle: u16, rear_half_angle: u16) -> Self {
        Self {
            front_half_angle,
            rear_half_angle,
        }
    }
}

/// Arc classification by exact sign tests, shared by every geometry.
///
/// A target is in an arc of half-angle `α` around a direction `φ` when its bearing lies in
/// the closed interval `[φ - α, φ + α]`. With `α ≤ 90°` that interval is the intersection of
/// two closed half-planes, "not clockwise of `φ - α`" and "not anticlockwise of `φ + α`",
/// each one a sign test of a cross product. With `90° < α < 180°` it is the complement of
/// the open interval `(φ + α, φ - α + 360°)`, which is again two (strict) half-planes.
/// `α ≥ 180°` takes everything; `α = 0` takes exactly the ray of `φ`.
///
/// Each geometry supplies the boundary direction for a bearing, in a plane of its choice
/// related to the real plane by an orientation-preserving linear map (so cross-product
/// signs agree). When the boundary is a lattice direction of that geometry (every 45° on
/// a square grid or an open table, every 30° on a hex grid) the geometry supplies an exact
/// integer vector, so targets on the boundary are classified exactly. Otherwise it
/// supplies `(cos, sin)` from [`cos_sin`], a fixed-point table good to about `2^-59`, and no
/// lattice vector can lie exactly on such a boundary: for boundaries at multiples of 15°
/// the slopes involved are quadratic irrationals, which integer vectors of the supported
/// size cannot approach closer than about `10^-14`, far outside the table's error, so
/// those are decided exactly too. Other whole-degree boundaries are decided against the
/// table; the result is the same on every platform (integers only) and can differ from
/// the infinitely precise answer only for a target within about `10^-17` radians of the
/// boundary.
pub(crate) mod sector {
    use super::{Arc, ArcSpec};

    /// A direction or displacement in a geometry's working plane.
    pub(crate) type Vector = (i128, i128);

    /// Fixed-point one of [`cos_sin`]: `2^60`.
    pub(crate) const ONE: i64 = 1 << 60;

    /// Table steps per right angle: the table is in twentieths of a degree, so that both
    /// tenths (arc edges) and the half-tenths between them (rounding a bearing) are in it.
    const QUADRANT: i64 = 1800;

    /// `π · 2^100`, rounded.
    const PI_2_100: i128 = 3_982_441_812_995_697_363_688_351_113_952;

    /// `sin(i · 0.05°)` for `i` in `0..=1800`, fixed point `2^60`. Built at compile time by
    /// an integer Taylor series, so it is identical on every platform (a float `sin` need
    /// not be).
    static SINE: [i64; 1801] = sine_table();

    const fn sine_table() -> [i64; 1801] {
        let mut table = [0_i64; 1801];
        let mut i = 0;
        while i <= 1800 {
            table[i] = sine_twentieths(i as i128);
            i += 1;
        }
        // Values that must come out exact: sin 30° = ½ (so that halves round the same way
        // as a ruler would) and sin 90° = 1.
        table[600] = ONE / 2;
        table[1800] = ONE;
        table
    }

    /// `sin(i · 0.05°)` for `0 <= i <= 1800`, at `2^60`, computed at `2^62`.
    const fn sine_twentieths(i: i128) -> i64 {
        const SHIFT: u32 = 62;
        let x = (i * PI_2_100 / 3600 + (1 << 37)) >> 38;
        let x2 = (x * x + (1 << (SHIFT - 1))) >> SHIFT;
        let mut term = x;
        let mut sum = x;
        let mut k: i128 = 1;
        while term != 0 {
            let denominator = ((2 * k) * (2 * k + 1)) << SHIFT;
            term = (term * x2 + denominator / 2) / denominator;
            if k % 2 == 1 {
                sum -= term;
            } else {
                sum += term;
            }
            k += 1;
        }
        ((sum + 2) >> 2) as i64
    }

    /// `(cos, sin)` of `twentieths · 0.05°` (any integer, reduced modulo 360°), fixed
    /// point `2^60`. Exact at multiples of 90° and for sin 30° and its symmetric cases.
    #[must_use]
    pub(crate) fn cos_sin(twentieths: i64) -> (i64, i64) {
        let t = twentieths.rem_euclid(4 * QUADRANT);
        let quadrant = t / QUADRANT;
        let rest = (t % QUADRANT) as usize;
        let (c, s) = (SINE[1800 - rest], SINE[rest]);
        match quadrant {
            0 => (c, s),
            1 => (-s, c),
            2 => (-c, -s),
            _ => (s, -c),
        }
    }

    /// `(cos, sin)` of a bearing in tenths of a degree, as a working-plane vector.
    #[must_use]
    pub(crate) fn unit_tenths(tenths: i32) -> Vector {
        let (c, s) = cos_sin(i64::from(tenths) * 2);
        (i128::from(c), i128::from(s))
    }

    /// `a × b`: positive when `b` is clockwise of `a` on the board (y grows south).
    #[must_use]
    pub(crate) const fn cross(a: Vector, b: Vector) -> i128 {
        a.0 * b.1 - a.1 * b.0
    }

    const fn dot(a: Vector, b: Vector) -> i128 {
        a.0 * b.0 + a.1 * b.1
    }

    /// Whether `v` lies within `half` tenths of a degree either side of the bearing
    /// `centre` (tenths), edges included.
    fn within(centre: i32, half: i32, v: Vector, boundary: &impl Fn(i32) -> Vector) -> bool {
        if half >= 1800 {
            return true;
        }
        if half <= 0 {
            let f = boundary(centre.rem_euclid(3600));
            return cross(f, v) == 0 && dot(f, v) > 0;
        }
        let lo = boundary((centre - half).rem_euclid(3600));
        let hi = boundary((centre + half).rem_euclid(3600));
        if half <= 900 {
            cross(lo, v) >= 0 && cross(v, hi) >= 0
        } else {
            !(cross(hi, v) > 0 && cross(v, lo) > 0)
        }
    }

    /// The arc of the displacement `v` seen from an observer facing `facing` (tenths of a
    /// degree), with `boundary` giving the working-plane direction of a bearing in tenths
    /// (`0..3600`). Front wins over rear when a spec makes them overlap.
    #[must_use]
    pub(crate) fn classify(
        facing: i32,
        spec: ArcSpec,
        v: Vector,
        boundary: impl Fn(i32) -> Vector,
    ) -> Arc {
        if v == (0, 0) {
            return Arc::Same;
        }
        if within(facing, i32::from(spec.front_half_angle) * 10, v, &boundary) {
            Arc::Front
        } else if within(
            facing + 1800,
            i32::from(spec.rear_half_angle) * 10,
            v,
            &boundary,
        ) {
            Arc::Rear
        } else {
            Arc::Flank
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn sine_table_matches_float_sine() {
            for i in 0..=1800_i64 {
                let exact = (i as f64 * 0.05).to_radians().sin();
                let ours = SINE[i as usize] as f64 / ONE as f64;
                assert!((exact - ours).abs() < 1e-15, "sin({}°)", i as f64 * 0.05);
            }
        }

        #[test]
        fn sine_table_hits_known_values_to_the_last_bits() {
            // Reference values from a 60-digit computation: round(sin(x) · 2^60).
            assert_eq!(SINE[0], 0);
            assert_eq!(SINE[600], ONE / 2);
            assert_eq!(SINE[1800], ONE);
            assert!((SINE[900] - 815_238_614_083_298_888).abs() <= 2);
            assert!((SINE[1200] - 998_459_311_558_907_194).abs() <= 2);
        }

        #[test]
        fn cos_sin_is_exact_on_the_axes() {
            assert_eq!(cos_sin(0), (ONE, 0));
            assert_eq!(cos_sin(1800), (0, ONE));
            assert_eq!(cos_sin(3600), (-ONE, 0));
            assert_eq!(cos_sin(5400), (0, -ONE));
            assert_eq!(cos_sin(-1800), (0, -ONE));
            assert_eq!(cos_sin(7200), (ONE, 0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_wraps_both_ways() {
        assert_eq!(Facing(0).rotate(-1, 6), Facing(5));
        assert_eq!(Facing(5).rotate(1, 6), Facing(0));
        assert_eq!(Facing(0).rotate(-1, 8), Facing(7));
        assert_eq!(Facing(3).rotate(i32::MIN, 8), Facing(3));
        assert_eq!(Facing(3).rotate(i32::MAX, 6), Facing(4));
        assert_eq!(Facing(200).rotate(0, 6), Facing(2));
        assert_eq!(Facing(4).rotate(5, 0), Facing(4));
    }

    #[test]
    fn opposite_is_half_a_turn() {
        for f in 0..6 {
            assert_eq!(Facing(f).opposite(6).opposite(6), Facing(f));
            assert_eq!(Facing(f).opposite(6), Facing((f + 3) % 6));
        }
        for f in 0..8 {
            assert_eq!(Facing(f).opposite(8), Facing((f + 4) % 8));
        }
    }

    #[test]
    fn facing_bearings() {
        assert_eq!(Facing(1).tenths(6), 600);
        assert_eq!(Facing(7).tenths(8), 3150);
        assert_eq!(Facing(9).tenths(8), 450);
        assert_eq!(Facing(3).tenths(0), 0);
    }
}
