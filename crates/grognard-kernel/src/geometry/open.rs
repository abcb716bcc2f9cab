//! The open table: positions measured in thousandths of an inch, angles in tenths of a
//! degree, everything integer.
//!
//! Games without a grid measure with a ruler: "within 12 inches", "in its front arc",
//! "move 8 inches straight ahead", often on a reduced scale (003: "the 66% reduced scale for
//! all measurements"). A float would make "is he in range?" depend on the platform's
//! rounding, so lengths are whole thousandths of an inch ([`Len`]), angles whole tenths of a
//! degree ([`Angle`]), and every comparison that decides a rule is exact:
//!
//! - [`within`] compares squared lengths exactly.
//! - [`arc`] decides by cross-product signs against the arc's edges. Edges at multiples of
//!   45° are exact integer vectors; other edges come from an integer sine table built at
//!   compile time (good to about `2^-59`), so the answer is the same on every platform.
//! - [`bearing`] and [`advance`] use the same table and round to the nearest tenth of a
//!   degree and thousandth of an inch.
//!
//! Coordinates are supported up to `|x|, |y| <= 2^40` thou (about 17,000 miles); beyond
//! that results saturate but nothing panics.
//!
//! Angles are clockwise from east because `y` grows south (toward the viewer's bottom edge),
//! matching the grids.

use core::fmt;
use core::ops::{Add, Sub};

use serde::{Deserialize, Serialize};

use super::sector::{self, Vector};
use super::{Arc, ArcSpec};
use crate::Cost;

/// A length on the table in thousandths of an inch ("thou").
///
/// # Example
/// ```
/// use grognard_kernel::geometry::open::Len;
/// assert_eq!(Len::inches(12), Len(12_000));
/// assert_eq!(Len::inches(12).to_string(), "12\"");
/// assert_eq!(Len(8_100).to_string(), "8.1\"");
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Len(pub i64);

impl Len {
    /// No length.
    pub const ZERO: Self = Self(0);
    /// One inch: 1000 thou.
    pub const ONE_INCH: Self = Self(1000);

    /// A whole number of inches (saturating).
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::open::Len;
    /// assert_eq!(Len::inches(-3), Len(-3_000));
    /// ```
    #[must_use]
    pub const fn inches(inches: i64) -> Self {
        Self(inches.saturating_mul(Self::ONE_INCH.0))
    }

    /// The length in thousandths of an inch.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::open::Len;
    /// assert_eq!(Len::inches(2).thou(), 2_000);
    /// ```
    #[must_use]
    pub const fn thou(self) -> i64 {
        self.0
    }
}

impl Add for Len {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        Self(self.0.saturating_add(rhs.0))
    }
}

impl Sub for Len {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        Self(self.0.saturating_sub(rhs.0))
    }
}

impl fmt::Display for Len {
    /// Inches with as many decimals as needed: `12"`, `8.1"`, `0.125"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let (whole, frac) = (abs / 1000, abs % 1000);
        if frac == 0 {
            write!(f, "{sign}{whole}\"")
        } else {
            let frac = format!("{frac:03}");
            write!(f, "{sign}{whole}.{}\"", frac.trim_end_matches('0'))
        }
    }
}

/// A point on the table: `x` grows east, `y` grows south.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::open::{Len, Point};
/// let p = Point::inches(3, 4);
/// assert_eq!(p.y, Len(4_000));
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Point {
    /// East.
    pub x: Len,
    /// South.
    pub y: Len,
}

impl fmt::Display for Point {
    /// `(x, y)` in inches: `(3", 4.5")`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl Point {
    /// The point at `x`, `y`.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::open::{Len, Point};
    /// assert_eq!(Point::new(Len(5), Len(6)).x, Len(5));
    /// ```
    #[must_use]
    pub const fn new(x: Len, y: Len) -> Self {
        Self { x, y }
    }

    /// The point at whole inches `x`, `y`.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::open::{Len, Point};
    /// assert_eq!(Point::inches(1, 2), Point::new(Len(1_000), Len(2_000)));
    /// ```
    #[must_use]
    pub const fn inches(x: i64, y: i64) -> Self {
        Self::new(Len::inches(x), Len::inches(y))
    }
}

/// A direction on the table in tenths of a degree, clockwise from east (`y` grows south):
/// 900 is south, 2700 north. Constructors normalise into `0..3600`; methods also accept a
/// raw value outside that range.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::open::Angle;
/// assert_eq!(Angle::degrees(-90), Angle(2700));
/// assert_eq!(Angle::new(3605), Angle(5));
/// assert_eq!(Angle(455).to_string(), "45.5°");
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Angle(pub i32);

impl Angle {
    /// Facing east.
    pub const EAST: Self = Self(0);
    /// Facing south.
    pub const SOUTH: Self = Self(900);
    /// Facing west.
    pub const WEST: Self = Self(1800);
    /// Facing north.
    pub const NORTH: Self = Self(2700);

    /// An angle of `tenths` tenths of a degree, normalised into `0..3600`.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::open::Angle;
    /// assert_eq!(Angle::new(-1), Angle(3599));
    /// ```
    #[must_use]
    pub const fn new(tenths: i32) -> Self {
        Self(tenths.rem_euclid(3600))
    }

    /// An angle of whole degrees, normalised.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::open::Angle;
    /// assert_eq!(Angle::degrees(450), Angle(900));
    /// ```
    #[must_use]
    pub const fn degrees(degrees: i32) -> Self {
        Self::new((degrees % 360) * 10)
    }

    /// The angle in tenths of a degree, in `0..3600`.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::open::Angle;
    /// assert_eq!(Angle(-900).tenths(), 2700);
    /// ```
    #[must_use]
    pub const fn tenths(self) -> i32 {
        self.0.rem_euclid(3600)
    }

    /// The angle turned by `delta` (positive: clockwise), normalised.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::open::Angle;
    /// assert_eq!(Angle::NORTH.turned(Angle(900)), Angle::EAST);
    /// ```
    #[must_use]
    pub const fn turned(self, delta: Self) -> Self {
        Self::new(self.tenths() + delta.tenths())
    }

    /// The opposite direction.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::open::Angle;
    /// assert_eq!(Angle::SOUTH.opposite(), Angle::NORTH);
    /// ```
    #[must_use]
    pub const fn opposite(self) -> Self {
        Self::new(self.tenths() + 1800)
    }
}

impl fmt::Display for Angle {
    /// Degrees with a tenth when needed: `45°`, `12.5°`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.tenths();
        if t % 10 == 0 {
            write!(f, "{}°", t / 10)
        } else {
            write!(f, "{}.{}°", t / 10, t % 10)
        }
    }
}

/// Converts a rule distance to a table distance: `num / den`, e.g. `2/3` for "the 66%
/// reduced scale" (003).
///
/// # Example
/// ```
/// use grognard_kernel::geometry::open::{Len, Scale};
/// let reduced = Scale::new(2, 3);
/// assert_eq!(reduced.apply(Len::inches(12)), Len::inches(8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Scale {
    /// Numerator.
    pub num: u32,
    /// Denominator. Zero means an infinite scale (see [`Scale::apply`]).
    pub den: u32,
}

impl Scale {
    /// Full scale: lengths unchanged.
    pub const IDENTITY: Self = Self::new(1, 1);

    /// The scale `num / den`.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::open::Scale;
    /// assert_eq!(Scale::new(1, 1), Scale::IDENTITY);
    /// ```
    #[must_use]
    pub const fn new(num: u32, den: u32) -> Self {
        Self { num, den }
    }

    /// `len · num / den`, rounded to the nearest thou, halves away from zero. A zero
    /// denominator saturates (a non-zero length becomes `±i64::MAX` thou) rather than
    /// panicking.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::open::{Len, Scale};
    /// // 2/3 of 1 thou is 0.667: rounds to 1. 2/3 of 10" is 6.6667" → 6.667".
    /// assert_eq!(Scale::new(2, 3).apply(Len(1)), Len(1));
    /// assert_eq!(Scale::new(2, 3).apply(Len::inches(10)), Len(6_667));
    /// // Halves round away from zero.
    /// assert_eq!(Scale::new(1, 2).apply(Len(-3)), Len(-2));
    /// ```
    #[must_use]
    pub const fn apply(self, len: Len) -> Len {
        let n = len.0 as i128 * self.num as i128;
        if n == 0 {
            return Len::ZERO;
        }
        if self.den == 0 {
            return Len(if n < 0 { -i64::MAX } else { i64::MAX });
        }
        let den = self.den as i128;
        let q = (2 * n.abs() + den) / (2 * den);
        let q = if n < 0 { -q } else { q };
        Len(saturate(q))
    }
}

const fn saturate(v: i128) -> i64 {
    if v > i64::MAX as i128 {
        i64::MAX
    } else if v < i64::MIN as i128 {
        i64::MIN
    } else {
        v as i64
    }
}

/// The displacement from `a` to `b` in thou, widened so that it cannot overflow.
const fn delta(a: Point, b: Point) -> (i128, i128) {
    (b.x.0 as i128 - a.x.0 as i128, b.y.0 as i128 - a.y.0 as i128)
}

/// `dx² + dy²`, saturating (only beyond the supported range).
const fn squared_distance(a: Point, b: Point) -> u128 {
    let (dx, dy) = delta(a, b);
    let (dx, dy) = (dx.unsigned_abs(), dy.unsigned_abs());
    (dx * dx).saturating_add(dy * dy)
}

/// The distance between two points, rounded down to the thou.
///
/// Because it rounds down, `within(a, b, distance(a, b))` holds exactly when the distance
/// is a whole number of thou, and `within(a, b, distance(a, b) + Len(1))` always; use
/// [`within`] to decide a range rule.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::open::{distance, Len, Point};
/// assert_eq!(distance(Point::inches(0, 0), Point::inches(3, 4)), Len::inches(5));
/// // √2" = 1.41421...": rounded down.
/// assert_eq!(distance(Point::inches(0, 0), Point::inches(1, 1)), Len(1_414));
/// ```
#[must_use]
pub const fn distance(a: Point, b: Point) -> Len {
    Len(saturate(squared_distance(a, b).isqrt() as i128))
}

/// Whether `b` is within `r` of `a` (edge included), exactly: `dx² + dy² <= r²`. A negative
/// `r` contains nothing.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::open::{within, Len, Point};
/// // 004: when not using a hex grid, each range band is 4 inches.
/// let band = Len::inches(4);
/// assert!(within(Point::inches(0, 0), Point::inches(0, 4), band));
/// assert!(!within(Point::new(Len(0), Len(0)), Point::new(Len(2_829), Len(2_829)), band));
/// ```
#[must_use]
pub const fn within(a: Point, b: Point, r: Len) -> bool {
    if r.0 < 0 {
        return false;
    }
    let r = r.0.unsigned_abs() as u128;
    squared_distance(a, b) <= r * r
}

/// The bearing from `from` to `to`, rounded to the nearest tenth of a degree (east for
/// the same point).
///
/// # Example
/// ```
/// use grognard_kernel::geometry::open::{bearing, Angle, Point};
/// let o = Point::inches(0, 0);
/// assert_eq!(bearing(o, Point::inches(1, 1)), Angle(450));
/// assert_eq!(bearing(o, Point::inches(0, -5)), Angle::NORTH);
/// assert_eq!(bearing(o, Point::inches(-1, 0)), Angle::WEST);
/// // atan(1/2) = 26.565°.
/// assert_eq!(bearing(o, Point::inches(2, 1)), Angle(266));
/// ```
#[must_use]
pub fn bearing(from: Point, to: Point) -> Angle {
    let (mut x, mut y) = delta(from, to);
    if (x, y) == (0, 0) {
        return Angle::EAST;
    }
    // Turn anticlockwise by right angles into the first quadrant, x > 0 and y >= 0.
    let mut quadrant = 0;
    while !(x > 0 && y >= 0) {
        (x, y) = (y, -x);
        quadrant += 1;
    }
    // Count the half-tenth marks (0.05°, 0.15°, ..., 89.95°) at or before the bearing:
    // that is the bearing rounded to the nearest tenth, halves up. A binary search,
    // because the marks are in order.
    let (mut lo, mut hi) = (0_i64, 900_i64);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let (c, s) = sector::cos_sin(2 * mid + 1);
        if sector::cross((i128::from(c), i128::from(s)), (x, y)) >= 0 {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    // `lo` is at most 900, so the sum fits easily.
    Angle::new(quadrant * 900 + lo as i32)
}

/// Where `to` lies relative to a piece at `from` facing `facing`: the same definition as
/// on grids (see [`Grid::arc`](super::Grid::arc)): front when the angle between the
/// facing and the bearing is at most the front half-angle, rear when it is at least 180°
/// minus the rear half-angle, else flank; front wins if both; `Same` at the same point.
///
/// The bearing is not rounded: the test is by cross products against the arc's edges,
/// exact for edges at multiples of 45° and otherwise decided with the integer sine table
/// (deterministic on every platform, see the module docs).
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{open::{arc, Angle, Point}, Arc, ArcSpec};
/// let spec = ArcSpec::new(45, 45);
/// let o = Point::inches(0, 0);
/// assert_eq!(arc(o, Angle::NORTH, Point::inches(5, -5), spec), Arc::Front);
/// assert_eq!(arc(o, Angle::NORTH, Point::inches(5, -4), spec), Arc::Flank);
/// assert_eq!(arc(o, Angle::NORTH, Point::inches(0, 3), spec), Arc::Rear);
/// ```
#[must_use]
pub fn arc(from: Point, facing: Angle, to: Point, spec: ArcSpec) -> Arc {
    sector::classify(facing.tenths(), spec, delta(from, to), boundary)
}

/// Working-plane direction of a bearing in tenths: the table itself.
fn boundary(tenths: i32) -> Vector {
    if tenths % 450 == 0 {
        const OCTANTS: [Vector; 8] = [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ];
        OCTANTS[((tenths / 450) % 8) as usize]
    } else {
        sector::unit_tenths(tenths)
    }
}

/// The point `dist` straight ahead of `from` along `facing`, rounded to the nearest thou
/// (halves away from zero). A negative `dist` moves backwards.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::open::{advance, Angle, Len, Point};
/// let o = Point::inches(0, 0);
/// assert_eq!(advance(o, Angle::NORTH, Len::inches(6)), Point::inches(0, -6));
/// // 10" at 30° south of east: (8.660", 5").
/// assert_eq!(advance(o, Angle::degrees(30), Len::inches(10)), Point::new(Len(8_660), Len(5_000)));
/// ```
#[must_use]
pub fn advance(from: Point, facing: Angle, dist: Len) -> Point {
    let (c, s) = sector::unit_tenths(facing.tenths());
    let d = i128::from(dist.0);
    let step = |unit: i128| {
        let n = d * unit;
        let half = 1_i128 << 59;
        let q = (n.abs() + half) >> 60;
        if n < 0 { -q } else { q }
    };
    Point::new(
        Len(saturate(i128::from(from.x.0) + step(c))),
        Len(saturate(i128::from(from.y.0) + step(s))),
    )
}

/// What a straight move from `from` to `to` costs: one inch is [`Cost::ONE`], rounded up
/// to the hundredth, so a move never costs less than its length. Saturates at
/// [`Cost::MAX`] (moves longer than about 21 million inches).
///
/// # Example
/// ```
/// use grognard_kernel::{geometry::open::{move_cost, Len, Point}, Cost};
/// assert_eq!(move_cost(Point::inches(0, 0), Point::inches(3, 4)), Cost::whole(5));
/// // √2" = 1.41421...": 1.42.
/// assert_eq!(move_cost(Point::inches(0, 0), Point::inches(1, 1)), Cost::from_hundredths(142));
/// // One thou still costs a hundredth.
/// assert_eq!(move_cost(Point::inches(0, 0), Point::new(Len(1), Len(0))), Cost::from_hundredths(1));
/// ```
#[must_use]
pub fn move_cost(from: Point, to: Point) -> Cost {
    let d2 = squared_distance(from, to);
    let root = d2.isqrt();
    let ceil_thou = if root * root < d2 { root + 1 } else { root };
    // 10 thou per hundredth of an inch.
    let hundredths = ceil_thou.div_ceil(10);
    i32::try_from(hundredths).map_or(Cost::MAX, Cost::from_hundredths)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i64, y: i64) -> Point {
        Point::new(Len(x), Len(y))
    }

    #[test]
    fn lengths_print_in_inches() {
        assert_eq!(
            Point::new(Len(3_000), Len(4_500)).to_string(),
            "(3\", 4.5\")"
        );
        assert_eq!(Len::inches(12).to_string(), "12\"");
        assert_eq!(Len(8_100).to_string(), "8.1\"");
        assert_eq!(Len(125).to_string(), "0.125\"");
        assert_eq!(Len(-500).to_string(), "-0.5\"");
        assert_eq!(Len(0).to_string(), "0\"");
        assert_eq!(Len(i64::MIN).to_string(), "-9223372036854775.808\"");
    }

    #[test]
    fn reduced_scale_is_two_thirds() {
        // 003 measuring: "the 66% reduced scale" — a 24" musket range is 16" on the table.
        let reduced = Scale::new(2, 3);
        assert_eq!(reduced.apply(Len::inches(24)), Len::inches(16));
        assert_eq!(reduced.apply(Len::inches(-24)), Len::inches(-16));
        assert_eq!(reduced.apply(Len(1_000)), Len(667));
        assert_eq!(Scale::new(1, 2).apply(Len(3)), Len(2));
        assert_eq!(Scale::new(1, 0).apply(Len(3)), Len(i64::MAX));
        assert_eq!(Scale::new(1, 0).apply(Len(0)), Len(0));
        assert_eq!(Scale::new(u32::MAX, 1).apply(Len(i64::MAX)), Len(i64::MAX));
    }

    #[test]
    fn range_bands_are_exact() {
        // 004: off the grid, each range band is 4". A target 4" away is in the first band,
        // one thou further is not.
        let band = Len::inches(4);
        let o = p(0, 0);
        assert!(within(o, p(2_400, 3_200), band)); // 3-4-5 triangle: exactly 4".
        assert!(!within(o, p(2_400, 3_201), band));
        assert_eq!(distance(o, p(2_400, 3_201)), band); // rounded down
        assert!(!within(o, o, Len(-1)));
        assert!(within(o, o, Len(0)));
    }

    #[test]
    fn extreme_points_do_not_overflow() {
        let a = p(i64::MIN, i64::MIN);
        let b = p(i64::MAX, i64::MAX);
        assert_eq!(distance(a, b), Len(i64::MAX));
        assert!(within(a, b, Len(i64::MAX)) || !within(a, b, Len(i64::MAX)));
        assert_eq!(move_cost(a, b), Cost::MAX);
        let _ = bearing(a, b);
        let _ = arc(a, Angle(45), b, ArcSpec::new(45, 45));
        let _ = advance(b, Angle::EAST, Len(i64::MAX));
        assert_eq!(advance(b, Angle::EAST, Len(i64::MAX)).x, Len(i64::MAX));
    }

    #[test]
    fn bearings_round_to_the_tenth() {
        let o = p(0, 0);
        assert_eq!(bearing(o, p(1, 0)), Angle(0));
        assert_eq!(bearing(o, p(0, 1)), Angle(900));
        assert_eq!(bearing(o, p(-1, 1)), Angle(1350));
        assert_eq!(bearing(o, p(-1, -1)), Angle(2250));
        assert_eq!(bearing(o, p(1, -1)), Angle(3150));
        // A hair north of east rounds to 0, not 3600.
        assert_eq!(bearing(o, p(1_000_000, -1)), Angle(0));
        // tan 30° = 0.57735: (1000, 577) is 29.9986°.
        assert_eq!(bearing(o, p(1_000, 577)), Angle(300));
        // atan(3/4) = 36.87°.
        assert_eq!(bearing(o, p(4, 3)), Angle(369));
        assert_eq!(bearing(o, p(-4, -3)), Angle(2169));
    }

    #[test]
    fn bearing_agrees_with_float_atan2_away_from_rounding_marks() {
        let o = p(0, 0);
        for x in -30..=30_i64 {
            for y in -30..=30_i64 {
                if (x, y) == (0, 0) {
                    continue;
                }
                let exact = (y as f64).atan2(x as f64).to_degrees().rem_euclid(360.0) * 10.0;
                let near_mark = (exact - exact.floor() - 0.5).abs() < 1e-6;
                if near_mark {
                    continue;
                }
                let expected = Angle::new(exact.round() as i32);
                assert_eq!(bearing(o, p(x, y)), expected, "({x}, {y})");
            }
        }
    }

    #[test]
    fn advancing_then_measuring_back() {
        let o = Point::inches(10, 10);
        for deg in [0, 30, 45, 60, 90, 135, 200, 271, 359] {
            let to = advance(o, Angle::degrees(deg), Len::inches(8));
            let d = distance(o, to);
            assert!((d.0 - 8_000).abs() <= 1, "{deg}°: {d}");
            let b = bearing(o, to);
            assert!((b.tenths() - deg * 10).abs() <= 1, "{deg}°: {b}");
        }
        assert_eq!(
            advance(o, Angle::WEST, Len::inches(8)),
            Point::inches(2, 10)
        );
        assert_eq!(
            advance(o, Angle::SOUTH, Len::inches(-2)),
            Point::inches(10, 8)
        );
    }

    #[test]
    fn open_arcs_match_the_grid_definition() {
        let o = p(0, 0);
        let spec = ArcSpec::new(45, 45);
        // Facing east: 45° exactly is front, 90° is flank, 135° is rear.
        assert_eq!(arc(o, Angle::EAST, p(7, 7), spec), Arc::Front);
        assert_eq!(arc(o, Angle::EAST, p(0, 7), spec), Arc::Flank);
        assert_eq!(arc(o, Angle::EAST, p(-7, 7), spec), Arc::Rear);
        assert_eq!(arc(o, Angle::EAST, o, spec), Arc::Same);
        // A facing off the grid: 10° with a 30° front arc reaches 40° and -20°.
        let narrow = ArcSpec::new(30, 0);
        let facing = Angle::degrees(10);
        assert_eq!(
            arc(o, facing, advance(o, Angle(399), Len::inches(20)), narrow),
            Arc::Front
        );
        assert_eq!(
            arc(o, facing, advance(o, Angle(401), Len::inches(20)), narrow),
            Arc::Flank
        );
        assert_eq!(
            arc(o, facing, advance(o, Angle(3401), Len::inches(20)), narrow),
            Arc::Front
        );
        assert_eq!(
            arc(o, facing, advance(o, Angle(3399), Len::inches(20)), narrow),
            Arc::Flank
        );
    }

    #[test]
    fn move_costs_round_up() {
        let o = p(0, 0);
        assert_eq!(move_cost(o, o), Cost::ZERO);
        assert_eq!(move_cost(o, p(10, 0)), Cost::from_hundredths(1));
        assert_eq!(move_cost(o, p(11, 0)), Cost::from_hundredths(2));
        assert_eq!(move_cost(o, Point::inches(6, 8)), Cost::whole(10));
        // 1 thou over 10": 10.01.
        assert_eq!(move_cost(o, p(10_001, 0)), Cost::from_hundredths(1_001));
    }
}
