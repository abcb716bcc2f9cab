//! Footprints on the open table: a unit's bases as one rectangle — `width` across its
//! front, `depth` from front to back — centred on the piece's point and turned to its
//! facing. Miniatures rules measure from the edges of bases, so every measurement here is
//! between footprints, with exact integer arithmetic (thou and 2⁻⁶⁰ fixed-point unit
//! vectors, as the rest of the open table); a piece without a footprint is a footprint of
//! no size, so it measures exactly as a point does.
//!
//! Constructions (documented in docs/ruleset-format.md, "Footprints"):
//! - **distance** is the shortest distance between the two rectangles, 0 when they touch
//!   or overlap, rounded down to the thou;
//! - **arcs** are judged from the edges: the front arc is the region ahead of the front
//!   edge bounded by lines from its two corners at the front half-angle to either side of
//!   the facing; the rear arc likewise behind the rear edge with the rear half-angle;
//!   a target touching the front region is in front, else one touching the rear region is
//!   in the rear, else it is on a flank;
//! - **sight** runs from the front edge's two ends and centre to the target's four
//!   corners and centre: the target is seen when any of those lines is clear.

use serde::{Deserialize, Serialize};

use super::open::{Angle, Len, Point};
use super::sector;
use super::{Arc, ArcSpec};

mod gap;

/// A unit's footprint: the rectangle its bases cover.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Footprint {
    /// Across the front.
    pub width: Len,
    /// Front to back.
    pub depth: Len,
}

/// A footprint placed on the table: its corners front-left, front-right, rear-right,
/// rear-left (left and right as the unit faces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The corners.
    pub corners: [Point; 4],
}

/// How far the arcs' edge lines are drawn: far beyond any table.
const FAR: i128 = 10_000_000;

type V = (i128, i128);

fn v(p: Point) -> V {
    (i128::from(p.x.0), i128::from(p.y.0))
}

fn sub(a: V, b: V) -> V {
    (a.0 - b.0, a.1 - b.1)
}

fn dot(a: V, b: V) -> i128 {
    a.0 * b.0 + a.1 * b.1
}

fn cross(a: V, b: V) -> i128 {
    a.0 * b.1 - a.1 * b.0
}

/// `value / 2⁶⁰`, rounded to the nearest integer (halves away from zero).
fn unscale(value: i128, shift: u32) -> i64 {
    let half = 1_i128 << (shift - 1);
    let q = (value.abs() + half) >> shift;
    let q = if value < 0 { -q } else { q };
    i64::try_from(q).unwrap_or(if q < 0 { i64::MIN } else { i64::MAX })
}

/// The point `forward` ahead and `right` to the right of `at`, given the unit vectors
/// `f` (ahead) and `r` (to the right) and both lengths doubled (so half-widths stay
/// whole), rounded once to the thou.
fn offset(at: Point, (f, r): (V, V), forward2: i128, right2: i128) -> Point {
    let dx = f.0 * forward2 + r.0 * right2;
    let dy = f.1 * forward2 + r.1 * right2;
    Point::new(
        Len(at.x.0.saturating_add(unscale(dx, 61))),
        Len(at.y.0.saturating_add(unscale(dy, 61))),
    )
}

impl Footprint {
    /// A footprint of no size: a point.
    pub const POINT: Self = Self {
        width: Len(0),
        depth: Len(0),
    };

    /// The footprint centred at `at`, facing `facing`.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::footprint::Footprint;
    /// use grognard_kernel::geometry::open::{Angle, Len, Point};
    /// let f = Footprint { width: Len::inches(6), depth: Len::inches(2) };
    /// let placed = f.place(Point::inches(10, 10), Angle::NORTH);
    /// // Facing north: the front edge is the northern one, left is west.
    /// assert_eq!(placed.corners[0], Point::inches(7, 9));
    /// assert_eq!(placed.corners[2], Point::inches(13, 11));
    /// ```
    #[must_use]
    pub fn place(self, at: Point, facing: Angle) -> Placed {
        let (d, w) = (i128::from(self.depth.0), i128::from(self.width.0));
        if d == 0 && w == 0 {
            return Placed::point(at);
        }
        let axes = (
            sector::unit_tenths(facing.tenths()),
            sector::unit_tenths(facing.turned(Angle(900)).tenths()),
        );
        Placed {
            corners: [
                offset(at, axes, d, -w),
                offset(at, axes, d, w),
                offset(at, axes, -d, w),
                offset(at, axes, -d, -w),
            ],
        }
    }
}

impl Footprint {
    /// How far any point of this footprint, placed about a point with any facing
    /// ([`Self::place`]), can lie from that point: half its diagonal, rounded up, with a
    /// margin for the corners' rounding to the thou.
    pub(crate) fn radius_bound(self) -> i64 {
        #[allow(clippy::cast_precision_loss)] // thou on a table: far below 2⁵³
        let (w, d) = (self.width.0 as f64, self.depth.0 as f64);
        #[allow(clippy::cast_possible_truncation)] // a table's size
        let half = ((w * w + d * d).sqrt() / 2.0).ceil() as i64;
        half.saturating_add(4)
    }
}

impl Placed {
    /// A point, as a footprint of no size.
    #[must_use]
    pub const fn point(at: Point) -> Self {
        Self { corners: [at; 4] }
    }

    /// The centre of the front edge.
    #[must_use]
    pub fn front_centre(&self) -> Point {
        midpoint(self.corners[0], self.corners[1])
    }

    /// The centre.
    #[must_use]
    pub fn centre(&self) -> Point {
        midpoint(self.corners[0], self.corners[2])
    }

    /// True when the two footprints touch or overlap.
    #[must_use]
    pub fn touches(&self, other: &Self) -> bool {
        if self.is_rectangle() && other.is_rectangle() {
            return !quads_separated(&self.wide(), &other.wide(), false);
        }
        !separated(&self.vertices(), &other.vertices())
    }

    /// True for a footprint with both a width and a depth.
    fn is_rectangle(&self) -> bool {
        self.corners[0] != self.corners[1] && self.corners[1] != self.corners[2]
    }

    fn wide(&self) -> [W; 4] {
        self.corners.map(|p| (p.x.0, p.y.0))
    }

    /// True when they overlap by more than touching: some area (or, for footprints of no
    /// size, some stretch) in common beyond a shared edge or corner.
    #[must_use]
    pub fn overlaps(&self, other: &Self) -> bool {
        if self.is_rectangle() && other.is_rectangle() {
            return !quads_separated(&self.wide(), &other.wide(), true);
        }
        !separated_or_touching(&self.vertices(), &other.vertices())
    }

    fn vertices(&self) -> [V; 4] {
        self.corners.map(v)
    }

    /// True when the point is inside the footprint or on its edge.
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        !separated(&self.vertices(), &[v(p)])
    }

    /// The corner-to-edge pairs (both ways) whose squared distance is least, found in
    /// floating point, each given exactly as a fraction `(num, den)`: the pairs within a
    /// hair of the least, so rounding in the search cannot pick a wrong one.
    fn nearest_pairs(&self, other: &Self, mut each: impl FnMut(u128, u128, f64)) {
        let (mine, theirs) = (self.wide(), other.wide());
        // Every corner against every edge of the other, both ways, in floating point with
        // no branch and no division in the loop (each edge's 1/length² once): fast enough
        // to try all 32 rather than prune.
        #[allow(clippy::cast_precision_loss)] // thou on a table: far below 2⁵³
        let float = |p: W| (p.0 as f64, p.1 as f64);
        let edges = |poly: &[W; 4]| {
            let mut out = [((0.0, 0.0), (0.0, 0.0), 0.0); 4];
            for (k, e) in out.iter_mut().enumerate() {
                let (s, t) = (float(poly[k]), float(poly[(k + 1) % 4]));
                let d = (t.0 - s.0, t.1 - s.1);
                let len2 = d.0 * d.0 + d.1 * d.1;
                *e = (s, d, if len2 > 0.0 { 1.0 / len2 } else { 0.0 });
            }
            out
        };
        let (mine_edges, their_edges) = (edges(&mine), edges(&theirs));
        let mut d2 = [0.0_f64; 32];
        for (w, (from, to)) in [(&mine, &their_edges), (&theirs, &mine_edges)]
            .into_iter()
            .enumerate()
        {
            for (c, p) in from.iter().enumerate() {
                let p = float(*p);
                for (k, (s, d, inv)) in to.iter().enumerate() {
                    let q = (p.0 - s.0, p.1 - s.1);
                    let t = ((q.0 * d.0 + q.1 * d.1) * inv).clamp(0.0, 1.0);
                    let r = (q.0 - t * d.0, q.1 - t * d.1);
                    d2[w * 16 + c * 4 + k] = r.0 * r.0 + r.1 * r.1;
                }
            }
        }
        let mut least = d2[0];
        for d in &d2[1..] {
            if *d < least {
                least = *d;
            }
        }
        let slack = least * 1e-9 + 4.0;
        for (i, d) in d2.iter().enumerate() {
            if *d <= least + slack {
                let (from, to) = if i < 16 {
                    (&mine, &theirs)
                } else {
                    (&theirs, &mine)
                };
                let (c, k) = ((i % 16) / 4, i % 4);
                let (num, den) = point_segment_d2(wv(from[c]), wv(to[k]), wv(to[(k + 1) % 4]));
                each(num, den, least);
            }
        }
    }

    /// A circle that holds the whole footprint: its centre and [`Self::radius`], for the
    /// cheap "too far apart to matter" tests that spare the exact measures.
    pub(crate) fn bounds(&self) -> (Point, i64) {
        (self.centre(), self.radius())
    }

    /// Half the diagonal, rounded up to the thou (with a margin): every point of the
    /// footprint is within it of the centre.
    fn radius(&self) -> i64 {
        let (c, d) = (self.corners[0], self.corners[2]);
        #[allow(clippy::cast_precision_loss)] // thou on a table: far below 2⁵³
        let (dx, dy) = ((d.x.0 - c.x.0) as f64, (d.y.0 - c.y.0) as f64);
        let diagonal = (dx * dx + dy * dy).sqrt();
        #[allow(clippy::cast_possible_truncation)] // a table's size
        let half = (diagonal / 2.0).ceil() as i64;
        half.saturating_add(2)
    }

    /// The shortest distance between the two footprints (0 when they touch), rounded down
    /// to the thou.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::footprint::Footprint;
    /// use grognard_kernel::geometry::open::{Angle, Len, Point};
    /// // Two bases 4" deep facing each other, centres 10" apart: 6" between them.
    /// let f = Footprint { width: Len::inches(6), depth: Len::inches(4) };
    /// let a = f.place(Point::inches(10, 20), Angle::NORTH);
    /// let b = f.place(Point::inches(10, 10), Angle::SOUTH);
    /// assert_eq!(a.distance(&b), Len::inches(6));
    /// ```
    #[must_use]
    pub fn distance(&self, other: &Self) -> Len {
        if self.is_point() && other.is_point() {
            return super::open::distance(self.corners[0], other.corners[0]);
        }
        match gap::floor_distance(self, other) {
            Some(d) => Len(d),
            None => self.distance_by_search(other),
        }
    }

    /// The distance as [`Self::distance`] defines it, by the corner-to-edge search: for
    /// what the closed form in `gap` does not take (segments, corners that are not a
    /// parallelogram, footprints far apart), and the reference it is tested against.
    fn distance_by_search(&self, other: &Self) -> Len {
        if self.touches(other) {
            return Len::ZERO;
        }
        let mut best = u128::MAX;
        self.nearest_pairs(other, |num, den, least| {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // a table's size
            let guess = u128::from(least.sqrt() as u64);
            best = best.min(floor_sqrt_ratio(num, den, guess));
        });
        let best = if best == u128::MAX { 0 } else { best };
        Len(i64::try_from(best).unwrap_or(i64::MAX))
    }

    /// Whether the two footprints are within `r` of each other (edge to edge), exactly.
    #[must_use]
    pub fn within(&self, other: &Self, r: Len) -> bool {
        if r.0 < 0 {
            return false;
        }
        if self.is_point() && other.is_point() {
            return super::open::within(self.corners[0], other.corners[0], r);
        }
        // Edge to edge is never more than centre to centre, and never less than that less
        // both half-diagonals: only the ring between needs the exact work.
        let (ca, cb) = (self.centre(), other.centre());
        if super::open::within(ca, cb, r) {
            return true;
        }
        if !super::open::within(
            ca,
            cb,
            Len(r
                .0
                .saturating_add(self.radius())
                .saturating_add(other.radius())),
        ) {
            return false;
        }
        if self.touches(other) {
            return true;
        }
        let r2 = u128::from(r.0.unsigned_abs()).pow(2);
        let mut inside = false;
        self.nearest_pairs(other, |num, den, _| {
            inside |= num <= r2.saturating_mul(den);
        });
        inside
    }

    /// Which arc of this footprint (facing `facing`) `other` stands in, judged from the
    /// edges (see the module docs). `Same` only for two points at one place.
    #[must_use]
    pub fn arc(&self, facing: Angle, other: &Self, spec: ArcSpec) -> Arc {
        if self.is_point() && other.is_point() {
            return super::open::arc(self.corners[0], facing, other.corners[0], spec);
        }
        let [fl, fr, rr, rl] = self.corners;
        let region = |a: Point, b: Point, heading: Angle, half: i32| -> [W; 4] {
            // The edge a→b (left to right as seen looking along `heading`), and lines
            // from its ends at `half` either side of `heading`, drawn far.
            let half = half.clamp(0, 899);
            let far = |from: Point, towards: Angle| {
                let u = sector::unit_tenths(towards.tenths());
                (
                    from.x.0 + narrow((u.0 * FAR) >> 60),
                    from.y.0 + narrow((u.1 * FAR) >> 60),
                )
            };
            [
                (a.x.0, a.y.0),
                (b.x.0, b.y.0),
                far(b, heading.turned(Angle(half))),
                far(a, heading.turned(Angle(-half))),
            ]
        };
        let hits = |zone: &[W; 4]| {
            if other.is_rectangle() && zone[0] != zone[1] {
                !quads_separated(zone, &other.wide(), false)
            } else {
                !separated(
                    &zone.map(|q| (i128::from(q.0), i128::from(q.1))),
                    &other.vertices(),
                )
            }
        };
        if hits(&region(
            fl,
            fr,
            facing,
            i32::from(spec.front_half_angle) * 10,
        )) {
            return Arc::Front;
        }
        if hits(&region(
            rr,
            rl,
            facing.opposite(),
            i32::from(spec.rear_half_angle) * 10,
        )) {
            return Arc::Rear;
        }
        Arc::Flank
    }

    /// True for a footprint of no size.
    #[must_use]
    pub fn is_point(&self) -> bool {
        self.corners.iter().all(|c| *c == self.corners[0])
    }

    /// The points sight lines start from: the front edge's ends and centre (one point for
    /// a footprint of no size).
    #[must_use]
    pub fn sight_from(&self) -> Vec<Point> {
        if self.is_point() {
            return vec![self.corners[0]];
        }
        vec![self.corners[0], self.front_centre(), self.corners[1]]
    }

    /// The points sight lines end at: the four corners and the centre.
    #[must_use]
    pub fn sight_to(&self) -> Vec<Point> {
        if self.is_point() {
            return vec![self.corners[0]];
        }
        let mut out = self.corners.to_vec();
        out.push(self.centre());
        out
    }
}

/// Whether `p` is within `r` of the boundary of the polygon `corners` (exactly).
#[must_use]
pub fn near_boundary(p: Point, corners: &[Point], r: Len) -> bool {
    if r.0 < 0 || corners.is_empty() {
        return false;
    }
    let r2 = u128::from(r.0.unsigned_abs()).pow(2);
    (0..corners.len()).any(|i| {
        let (num, den) = point_segment_d2(v(p), v(corners[i]), v(corners[(i + 1) % corners.len()]));
        num <= r2.saturating_mul(den)
    })
}

/// `⌊√(num / den)⌋`, exactly: from a close `guess`, corrected in integers.
fn floor_sqrt_ratio(num: u128, den: u128, guess: u128) -> u128 {
    if den == 0 {
        return 0;
    }
    // Below 2⁴⁰ thou (far beyond any table) x² · den stays below 2¹²⁸ for any `den` a
    // footprint's edge can have; beyond that, the careful path.
    let fits = |x: u128| x < (1 << 40) && den < (1 << 46);
    let over = |x: u128| {
        if fits(x) {
            x * x * den > num
        } else {
            x.saturating_mul(x).saturating_mul(den) > num
        }
    };
    let mut x = guess;
    while x > 0 && over(x) {
        x -= 1;
    }
    while !over(x + 1) {
        x += 1;
    }
    x
}

/// A point in thou, in the narrower arithmetic the hot paths use (tables are far smaller
/// than the ±9·10¹⁸ thou an `i64` holds, and products of two coordinates stay below
/// 10¹⁵).
type W = (i64, i64);

fn wv(p: W) -> V {
    (i128::from(p.0), i128::from(p.1))
}

fn narrow(x: i128) -> i64 {
    i64::try_from(x).unwrap_or(if x < 0 { i64::MIN } else { i64::MAX })
}

/// The separating-axis test for two convex quadrilaterals by their edges' normals: true
/// when one separates them (`strict`: or they only touch along it).
fn quads_separated(a: &[W; 4], b: &[W; 4], strict: bool) -> bool {
    let span = |poly: &[W; 4], n: W| {
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        for p in poly {
            let x = p.0 * n.0 + p.1 * n.1;
            lo = lo.min(x);
            hi = hi.max(x);
        }
        (lo, hi)
    };
    for poly in [a, b] {
        for i in 0..4 {
            let (s, e) = (poly[i], poly[(i + 1) % 4]);
            let n = (s.1 - e.1, e.0 - s.0);
            if n == (0, 0) {
                continue;
            }
            let (a0, a1) = span(a, n);
            let (b0, b1) = span(b, n);
            if a1 < b0 || b1 < a0 || (strict && (a1 == b0 || b1 == a0)) {
                return true;
            }
        }
    }
    false
}

fn midpoint(a: Point, b: Point) -> Point {
    let m = |x: i64, y: i64| Len(unscale(i128::from(x) + i128::from(y), 1));
    Point::new(m(a.x.0, b.x.0), m(a.y.0, b.y.0))
}

/// The squared distance from `p` to the segment `s`–`e`, as a fraction.
fn point_segment_d2(p: V, s: V, e: V) -> (u128, u128) {
    let d = sub(e, s);
    let len2 = dot(d, d);
    let to_s = sub(p, s);
    if len2 == 0 || dot(to_s, d) <= 0 {
        return (dot(to_s, to_s).unsigned_abs(), 1);
    }
    let to_e = sub(p, e);
    if dot(to_e, d) >= 0 {
        return (dot(to_e, to_e).unsigned_abs(), 1);
    }
    let c = cross(d, to_s).unsigned_abs();
    (c * c, len2.unsigned_abs())
}

/// The axes the separating-axis test tries: every edge's normal and direction, and the
/// line between the two shapes' first vertices (enough for points and segments too).
fn axes(a: &[V], b: &[V]) -> Vec<V> {
    let mut out = Vec::with_capacity(2 * (a.len() + b.len()) + 1);
    for poly in [a, b] {
        for i in 0..poly.len() {
            let d = sub(poly[(i + 1) % poly.len()], poly[i]);
            if d != (0, 0) {
                out.push((-d.1, d.0));
                out.push(d);
            }
        }
    }
    let between = sub(b[0], a[0]);
    if between != (0, 0) {
        out.push(between);
    }
    out
}

fn span(poly: &[V], axis: V) -> (i128, i128) {
    poly.iter()
        .map(|p| dot(*p, axis))
        .fold((i128::MAX, i128::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)))
}

/// True when some axis separates the two convex shapes (touching is not separated).
fn separated(a: &[V], b: &[V]) -> bool {
    axes(a, b).into_iter().any(|axis| {
        let (a0, a1) = span(a, axis);
        let (b0, b1) = span(b, axis);
        a1 < b0 || b1 < a0
    })
}

/// True when some axis separates the two shapes or they only touch along it.
fn separated_or_touching(a: &[V], b: &[V]) -> bool {
    axes(a, b).into_iter().any(|axis| {
        let (a0, a1) = span(a, axis);
        let (b0, b1) = span(b, axis);
        a1 <= b0 || b1 <= a0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(w: i64, d: i64) -> Footprint {
        Footprint {
            width: Len::inches(w),
            depth: Len::inches(d),
        }
    }

    #[test]
    fn the_bounding_circles_hold_every_corner() {
        // The open table's approach check passes over an enemy on these circles alone: they
        // must hold the whole footprint, whatever its size, place and facing.
        let sizes = [
            (0, 0),
            (1, 3),
            (6_000, 2_000),
            (4_000, 4_000),
            (7_777, 13),
            (40, 80_001),
        ];
        for (w, d) in sizes {
            let f = Footprint {
                width: Len(w),
                depth: Len(d),
            };
            for tenths in (0..3600).step_by(7) {
                for at in [
                    Point::new(Len(0), Len(0)),
                    Point::new(Len(123_457), Len(-98_765)),
                ] {
                    let placed = f.place(at, Angle(tenths));
                    let (centre, radius) = placed.bounds();
                    for c in placed.corners {
                        assert!(super::super::open::within(at, c, Len(f.radius_bound())));
                        assert!(super::super::open::within(centre, c, Len(radius)));
                    }
                }
            }
        }
    }

    #[test]
    fn bases_facing_each_other_measure_edge_to_edge() {
        // Centres 10" apart, each 4" deep: 6" between the front edges.
        let a = fp(6, 4).place(Point::inches(10, 20), Angle::NORTH);
        let b = fp(6, 4).place(Point::inches(10, 10), Angle::SOUTH);
        assert_eq!(a.distance(&b), Len::inches(6));
        assert!(a.within(&b, Len::inches(6)));
        assert!(!a.within(&b, Len(5_999)));
        assert_eq!(a.arc(Angle::NORTH, &b, ArcSpec::new(45, 45)), Arc::Front);
        assert_eq!(b.arc(Angle::SOUTH, &a, ArcSpec::new(45, 45)), Arc::Front);
    }

    #[test]
    fn touching_bases_are_zero_apart_and_overlap_only_with_area() {
        let a = fp(4, 2).place(Point::inches(0, 0), Angle::NORTH);
        let b = fp(4, 2).place(Point::inches(4, 0), Angle::NORTH);
        assert_eq!(a.distance(&b), Len::ZERO);
        assert!(a.touches(&b));
        assert!(!a.overlaps(&b), "side by side, sharing an edge");
        let c = fp(4, 2).place(Point::inches(3, 0), Angle::NORTH);
        assert!(a.overlaps(&c));
    }

    #[test]
    fn a_corner_to_corner_gap_is_the_diagonal() {
        let a = fp(2, 2).place(Point::inches(0, 0), Angle::NORTH);
        let b = fp(2, 2).place(Point::inches(5, 6), Angle::NORTH);
        // Nearest corners (1,1) and (4,5): 3-4-5.
        assert_eq!(a.distance(&b), Len::inches(5));
    }

    #[test]
    fn points_measure_as_points() {
        let a = Placed::point(Point::inches(0, 0));
        let b = Placed::point(Point::inches(3, 4));
        assert_eq!(a.distance(&b), Len::inches(5));
        assert_eq!(
            a.arc(Angle::EAST, &b, ArcSpec::new(45, 45)),
            super::super::open::arc(
                Point::inches(0, 0),
                Angle::EAST,
                Point::inches(3, 4),
                ArcSpec::new(45, 45)
            )
        );
    }

    #[test]
    fn arcs_are_judged_from_the_edges() {
        let spec = ArcSpec::new(45, 45);
        // A 6"-wide line facing north at the origin: front edge from (-3,-1) to (3,-1).
        let line = fp(6, 2).place(Point::inches(0, 0), Angle::NORTH);
        let small = |x, y| fp(1, 1).place(Point::inches(x, y), Angle::SOUTH);
        // Straight ahead of the right-hand end: in front, though the centres are 56° apart.
        assert_eq!(line.arc(Angle::NORTH, &small(4, -3), spec), Arc::Front);
        // Level with the line, off to the side: a flank.
        assert_eq!(line.arc(Angle::NORTH, &small(8, 0), spec), Arc::Flank);
        // Behind the rear edge: the rear.
        assert_eq!(line.arc(Angle::NORTH, &small(0, 5), spec), Arc::Rear);
    }

    #[test]
    fn a_turned_footprint_keeps_its_size() {
        let f = fp(6, 2);
        for tenths in (0..3600).step_by(75) {
            let p = f.place(Point::inches(50, 50), Angle(tenths));
            let side = |i: usize, j: usize| {
                let (a, b) = (p.corners[i], p.corners[j]);
                super::super::open::distance(a, b).0
            };
            assert!(
                (side(0, 1) - 6_000).abs() <= 2,
                "{tenths}: width {}",
                side(0, 1)
            );
            assert!(
                (side(1, 2) - 2_000).abs() <= 2,
                "{tenths}: depth {}",
                side(1, 2)
            );
        }
    }
}
