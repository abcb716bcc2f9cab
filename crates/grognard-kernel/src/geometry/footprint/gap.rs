//! The edge-to-edge distance between two placed footprints in closed form: the answer
//! [`Placed::distance`] gives, worked out with a handful of products instead of a search.
//!
//! A footprint placed by [`Footprint::place`](super::Footprint::place) is a parallelogram:
//! its corners are the centre plus and minus two offsets, each rounded half away from zero,
//! so opposite corners are exact reflections through the centre. Two of them (or one and a
//! point) are handled here; anything else — a footprint of no width or no depth, corners
//! set by hand that are not a parallelogram, coordinates far apart — is left to the search.
//!
//! The method:
//! 1. **Touching**, by the separating-axis test on the two parallelograms' edge normals
//!    (two axes each, opposite edges being parallel; a point's side has none): the same
//!    exact verdict [`Placed::touches`] gives, measured from one corner instead of the
//!    origin.
//! 2. **The squared distance** `D`: the nearest points of two convex shapes that do not
//!    touch include a corner of one of them, so `D` is the least, over every corner of
//!    either, of its squared distance to the other shape. For a corner outside a
//!    parallelogram the nearest point lies on an edge whose line the corner is strictly
//!    outside of (one edge, or two that meet at a corner of the parallelogram), so only
//!    those edges are measured; when the corner lies past both ends they meet at, the
//!    corner between them is the nearest point and one product pair decides it.
//! 3. **Rounding down**: `⌊√D⌋` from the float estimate, unless that lies within 2⁻²⁰ of
//!    a whole number; then the same corners and edges are measured again exactly
//!    (integers) against that whole number squared.
//!
//! Exactness: coordinates are taken relative to the first footprint's first corner and
//! must stay below 2²⁴ thou (about 1,400 feet) there, so every difference is below 2²⁵ and
//! every product, dot, cross and sum of two below 2⁵³: `f64` holds them all exactly, and
//! every comparison above (sides of an edge, feet of perpendiculars, overlaps) is exact.
//! The one inexact value is a corner's squared distance to the inside of an edge,
//! `cross² / |edge|²`, within two units in the last place (one rounding for the square,
//! one for the division); the square root adds one more, so the estimate is within 2⁻²⁵
//! thou of `√D` (which is below 2²⁶) — far inside the 2⁻²⁰ margin.
//!
//! The search this replaces gives the same `⌊√D⌋` here (it keeps every corner-to-edge
//! pair within a hair of its float least and decides among them in integers); the
//! property tests below compare the two over random footprints, facings and places.

use super::Placed;

/// Coordinates relative to the first footprint's first corner must stay below this for
/// the arithmetic to be exact (see the module docs).
const NEAR: u64 = 1 << 24;

/// Absolute coordinates must stay below this, so that [`Placed::touches`] (which
/// multiplies absolute coordinates by edge normals in `i64`) gives the exact answer this
/// module reproduces; beyond it the search answers, as it always has.
const FAR: u64 = 1 << 35;

/// A float estimate of `√D` closer than this to a whole number is settled exactly.
const MARGIN: f64 = 1.0 / (1_u64 << 20) as f64;

type F = (f64, f64);

/// A parallelogram (or a point) in relative coordinates: corners `p`, edges
/// `d[0] = p[1] - p[0]` and `d[1] = p[2] - p[1]` (the other two are their reverses), their
/// squared lengths, the inward normals `g` (each `d` turned a right angle towards the
/// inside), and the width `w` across either pair of edges on those normals' scale
/// (`|d[0] × d[1]|`; 0 for a point).
struct Shape {
    p: [F; 4],
    d: [F; 2],
    len2: [f64; 2],
    g: [F; 2],
    w: f64,
}

impl Shape {
    #[inline(always)]
    fn new(p: [F; 4]) -> Self {
        let d = [
            (p[1].0 - p[0].0, p[1].1 - p[0].1),
            (p[2].0 - p[1].0, p[2].1 - p[1].1),
        ];
        let o = d[0].0 * d[1].1 - d[0].1 * d[1].0;
        let s = if o < 0.0 { -1.0 } else { 1.0 };
        let len2 = [
            d[0].0 * d[0].0 + d[0].1 * d[0].1,
            d[1].0 * d[1].0 + d[1].1 * d[1].1,
        ];
        Self {
            p,
            d,
            len2,
            g: [(-d[0].1 * s, d[0].0 * s), (-d[1].1 * s, d[1].0 * s)],
            w: o * s,
        }
    }

    /// How far inside edge `k` (0 or 1) each corner of `q` lies, on the scale of
    /// `|d[k]|` (negative outside); inside edge `k + 2` it is `w` minus that.
    #[inline(always)]
    fn heights(&self, q: &Self) -> [[f64; 4]; 2] {
        let mut h = [[0.0; 4]; 2];
        for (k, row) in h.iter_mut().enumerate() {
            let g = self.g[k];
            let at = g.0 * (q.p[0].0 - self.p[k].0) + g.1 * (q.p[0].1 - self.p[k].1);
            let a = g.0 * q.d[0].0 + g.1 * q.d[0].1;
            let b = g.0 * q.d[1].0 + g.1 * q.d[1].1;
            // Corners 1, 2, 3 are corner 0 plus d[0], d[0] + d[1], d[1]: each sum is
            // itself a height, so exact.
            *row = [at, at + a, at + a + b, at + b];
        }
        h
    }

    /// True when one of this shape's axes separates the other's corners (`h`) from it.
    #[inline(always)]
    fn separates(&self, h: &[[f64; 4]; 2]) -> bool {
        h.iter().any(|row| {
            let hi = row[0].max(row[1]).max(row[2].max(row[3]));
            let lo = row[0].min(row[1]).min(row[2].min(row[3]));
            hi < 0.0 || lo > self.w
        })
    }

    /// The squared distance from `x` to edge `e` (0 to 3; 2 and 3 run back along `d[0]`
    /// and `d[1]`), which `x` lies outside of by `cross` (its height, on the scale of the
    /// edge's length).
    #[inline(always)]
    fn to_edge(&self, x: F, e: usize, cross: f64) -> Gap {
        let k = e & 1;
        let sign = if e < 2 { 1.0 } else { -1.0 };
        let (s, d) = (self.p[e], (self.d[k].0 * sign, self.d[k].1 * sign));
        let q = (x.0 - s.0, x.1 - s.1);
        let along = q.0 * d.0 + q.1 * d.1;
        if along <= 0.0 {
            Gap::Corner(q.0 * q.0 + q.1 * q.1)
        } else if along >= self.len2[k] {
            let r = (q.0 - d.0, q.1 - d.1);
            Gap::Corner(r.0 * r.0 + r.1 * r.1)
        } else {
            Gap::Edge(cross, self.len2[k])
        }
    }

    /// Every corner of `q` measured to this shape, as in the module docs: `visit` sees,
    /// for each, the candidates its least distance is among (for a point, its one corner
    /// four times over).
    #[inline(always)]
    fn measure(&self, q: &Self, h: &[[f64; 4]; 2], visit: &mut impl FnMut(Gap)) {
        let (d0, d1) = (self.d[0], self.d[1]);
        for (j, x) in q.p.iter().copied().enumerate() {
            let (h0, h1) = (h[0][j], h[1][j]);
            // The edge of each pair `x` is outside of, if any, with its height.
            let a = if h0 < 0.0 {
                Some((0, h0))
            } else if h0 > self.w {
                Some((2, self.w - h0))
            } else {
                None
            };
            let b = if h1 < 0.0 {
                Some((1, h1))
            } else if h1 > self.w {
                Some((3, self.w - h1))
            } else {
                None
            };
            match (a, b) {
                (Some((ea, ca)), Some((eb, cb))) => {
                    // Outside two edges, which meet at corner `c`: `x` is nearest to `c`
                    // when it lies past the end of the one coming in and before the start
                    // of the one going out.
                    let (c, d_in, d_out) = match (ea, eb) {
                        (0, 1) => (1, d0, d1),
                        (2, 1) => (2, d1, (-d0.0, -d0.1)),
                        (2, 3) => (3, (-d0.0, -d0.1), (-d1.0, -d1.1)),
                        _ => (0, (-d1.0, -d1.1), d0),
                    };
                    let r = (x.0 - self.p[c].0, x.1 - self.p[c].1);
                    if r.0 * d_in.0 + r.1 * d_in.1 >= 0.0 && r.0 * d_out.0 + r.1 * d_out.1 <= 0.0 {
                        visit(Gap::Corner(r.0 * r.0 + r.1 * r.1));
                    } else {
                        visit(self.to_edge(x, ea, ca));
                        visit(self.to_edge(x, eb, cb));
                    }
                }
                (Some((e, c)), None) | (None, Some((e, c))) => visit(self.to_edge(x, e, c)),
                // Inside both pairs of edges: inside the shape, which the separating axis
                // has ruled out.
                (None, None) => {}
            }
        }
    }
}

/// A candidate squared distance: to a corner (an exact whole number), or to the inside of
/// an edge, `cross² / len2`.
#[derive(Clone, Copy)]
enum Gap {
    Corner(f64),
    Edge(f64, f64),
}

/// The two footprints as shapes, which of them are points (a point has no edges to measure
/// to, nor axes to test), and each one's heights of the other's corners.
struct Pair {
    a: Shape,
    b: Shape,
    a_point: bool,
    b_point: bool,
    ha: [[f64; 4]; 2],
    hb: [[f64; 4]; 2],
    ok: bool,
}

impl Pair {
    /// The two footprints' shapes; `ok` when they are both parallelograms, or one and a
    /// point. (Built in place, not returned in an `Option`: moving it costs.)
    #[inline(always)]
    fn new(ra: [F; 4], rb: [F; 4]) -> Self {
        let parallelogram =
            |p: &[F; 4]| p[0].0 + p[2].0 == p[1].0 + p[3].0 && p[0].1 + p[2].1 == p[1].1 + p[3].1;
        let ok = parallelogram(&ra) && parallelogram(&rb);
        // A parallelogram with two corners at one place is a point or a segment.
        let (a_point, b_point) = (
            ra[0] == ra[1] && ra[1] == ra[2],
            rb[0] == rb[1] && rb[1] == rb[2],
        );
        let (a, b) = (Shape::new(ra), Shape::new(rb));
        let ok = ok && !(a_point && b_point) && (a_point || a.w != 0.0) && (b_point || b.w != 0.0);
        let (ha, hb) = (a.heights(&b), b.heights(&a));
        Self {
            a,
            b,
            a_point,
            b_point,
            ha,
            hb,
            ok,
        }
    }

    /// True when no axis of either separates them.
    #[inline(always)]
    fn touching(&self) -> bool {
        (self.a_point || !self.a.separates(&self.ha))
            && (self.b_point || !self.b.separates(&self.hb))
    }

    /// Every corner of either measured to the other (each that has edges).
    #[inline(always)]
    fn each(&self, visit: &mut impl FnMut(Gap)) {
        if !self.a_point {
            self.a.measure(&self.b, &self.ha, visit);
        }
        if !self.b_point {
            self.b.measure(&self.a, &self.hb, visit);
        }
    }

    /// Whether any candidate is below `k²`, exactly (integers).
    #[cold]
    #[inline(never)]
    fn under(&self, k: i64) -> bool {
        let mut under = false;
        self.each(&mut |g| {
            #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)] // exact
            let below = match g {
                Gap::Corner(v) => v < (k * k) as f64,
                Gap::Edge(c, len2) => {
                    let c = i128::from(c as i64);
                    c * c < i128::from(k * k) * i128::from(len2 as i64)
                }
            };
            under |= below;
        });
        under
    }
}

/// `⌊edge-to-edge distance⌋` of `a` and `b` in thou (0 when they touch), exactly as
/// [`Placed::distance`] defines it, or `None` when they are not two parallelograms (or one
/// and a point) close enough together for the exact float arithmetic (see the module docs).
pub(super) fn floor_distance(a: &Placed, b: &Placed) -> Option<i64> {
    let o = a.corners[0];
    let mut far = 0_u64;
    let mut near = 0_u64;
    let mut ra = [(0.0, 0.0); 4];
    let mut rb = [(0.0, 0.0); 4];
    for i in 0..4 {
        let (p, q) = (a.corners[i], b.corners[i]);
        far |= p.x.0.unsigned_abs()
            | p.y.0.unsigned_abs()
            | q.x.0.unsigned_abs()
            | q.y.0.unsigned_abs();
        let r = (p.x.0.wrapping_sub(o.x.0), p.y.0.wrapping_sub(o.y.0));
        let s = (q.x.0.wrapping_sub(o.x.0), q.y.0.wrapping_sub(o.y.0));
        near |= r.0.unsigned_abs() | r.1.unsigned_abs() | s.0.unsigned_abs() | s.1.unsigned_abs();
        #[allow(clippy::cast_precision_loss)] // below 2²⁴, checked next
        {
            ra[i] = (r.0 as f64, r.1 as f64);
            rb[i] = (s.0 as f64, s.1 as f64);
        }
    }
    // With every coordinate below 2³⁵, no difference above has wrapped.
    if far >= FAR || near >= NEAR {
        return None;
    }
    let pair = Pair::new(ra, rb);
    if !pair.ok {
        return None;
    }
    if pair.touching() {
        return Some(0);
    }
    let mut least = f64::INFINITY;
    pair.each(&mut |g| {
        let v = match g {
            Gap::Corner(v) => v,
            Gap::Edge(c, len2) => c * c / len2,
        };
        if v < least {
            least = v;
        }
    });
    let estimate = least.sqrt();
    #[allow(clippy::cast_possible_truncation)] // below 2²⁶
    let whole = estimate as i64;
    #[allow(clippy::cast_precision_loss)]
    let frac = estimate - whole as f64;
    if (MARGIN..=1.0 - MARGIN).contains(&frac) {
        return Some(whole);
    }
    // Near a whole number k: the distance is at least k exactly when no candidate is
    // below k², and otherwise just under it.
    #[allow(clippy::cast_possible_truncation)] // below 2²⁶
    let k = (estimate + 0.5) as i64;
    Some(if pair.under(k) { k - 1 } else { k })
}

#[cfg(test)]
mod tests {
    use super::super::Footprint;
    use super::*;
    use crate::geometry::open::{Angle, Len, Point};
    use proptest::prelude::*;

    /// Both ways round, the closed form (when it answers) and `distance` must give what
    /// the search gives.
    fn agree(a: &Placed, b: &Placed) -> Result<(), TestCaseError> {
        for (x, y) in [(a, b), (b, a)] {
            let search = x.distance_by_search(y);
            if x.is_point() && y.is_point() {
                continue;
            }
            if let Some(d) = floor_distance(x, y) {
                prop_assert_eq!(d, search.0, "closed form, {:?} to {:?}", x, y);
            }
            prop_assert_eq!(x.distance(y), search, "{:?} to {:?}", x, y);
        }
        Ok(())
    }

    fn footprint() -> impl Strategy<Value = Footprint> {
        fn f((w, d): (i64, i64)) -> Footprint {
            Footprint {
                width: Len(w),
                depth: Len(d),
            }
        }
        prop_oneof![
            (0_i64..8_000, 0_i64..4_000).prop_map(f),
            // Next to no size: segments, points, and corners that rounding may collapse.
            (0_i64..4, 0_i64..4).prop_map(f),
            (0_i64..4, 0_i64..4_000).prop_map(f),
            (0_i64..8_000, 0_i64..4).prop_map(f),
            // Whole half-inches: exact distances at right angles, touching edges.
            (0_i64..16, 0_i64..8).prop_map(|(w, d)| f((w * 500, d * 500))),
        ]
    }

    fn angle() -> impl Strategy<Value = Angle> {
        prop_oneof![
            (0_i32..4).prop_map(|k| Angle(k * 900)),
            (0_i32..8).prop_map(|k| Angle(k * 450)),
            (0_i32..3600).prop_map(Angle),
        ]
    }

    fn at(x: i64, y: i64) -> Point {
        Point::new(Len(x), Len(y))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn near_neighbours_measure_as_the_search_does(
            fa in footprint(), fb in footprint(), ta in angle(), tb in angle(),
            x in 0_i64..60_000, y in 0_i64..60_000,
            dx in -12_000_i64..12_000, dy in -12_000_i64..12_000
        ) {
            let a = fa.place(at(x, y), ta);
            let b = fb.place(at(x + dx, y + dy), tb);
            agree(&a, &b)?;
        }

        #[test]
        fn far_apart_and_far_out_measure_as_the_search_does(
            fa in footprint(), fb in footprint(), ta in angle(), tb in angle(),
            x in -(1_i64 << 37)..(1_i64 << 37), y in -(1_i64 << 37)..(1_i64 << 37),
            far in prop_oneof![Just(1_i64 << 20), Just(1_i64 << 24), Just(1_i64 << 26)],
            fx in -1.0_f64..1.0, fy in -1.0_f64..1.0,
            table in any::<bool>()
        ) {
            // On a table, or anywhere in the supported range; up to beyond the reach of
            // the closed form apart.
            let (x, y) = if table { (x.rem_euclid(60_000), y.rem_euclid(60_000)) } else { (x, y) };
            #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
            let (dx, dy) = ((fx * far as f64) as i64, (fy * far as f64) as i64);
            let a = fa.place(at(x, y), ta);
            let b = fb.place(at(x + dx, y + dy), tb);
            agree(&a, &b)?;
        }

        #[test]
        fn right_angles_on_whole_half_inches_measure_as_the_search_does(
            fa in footprint(), fb in footprint(), ka in 0_i32..4, kb in 0_i32..4,
            x in 0_i64..120, y in 0_i64..120, dx in -24_i64..24, dy in -24_i64..24,
            nudge in -2_i64..3
        ) {
            // Edges exactly together, a thou or two apart or over: exact distances, many
            // of them whole numbers (the estimate's margin), and touching.
            let a = fa.place(at(x * 500, y * 500), Angle(ka * 900));
            let b = fb.place(at((x + dx) * 500 + nudge, (y + dy) * 500), Angle(kb * 900));
            agree(&a, &b)?;
        }

        #[test]
        fn side_by_side_measure_as_the_search_does(
            fa in footprint(), fb in footprint(), t in angle(), x in 0_i64..60_000,
            y in 0_i64..60_000, gap in -3_i64..4, slide in -8_000_i64..8_000
        ) {
            // Two footprints facing the same way, the second to the right of the first
            // by the sum of their half-widths and `gap`, slid forward by `slide`.
            let a = fa.place(at(x, y), t);
            let right = open_advance(at(x, y), t.turned(Angle(900)), (fa.width.0 + fb.width.0) / 2 + gap);
            let b = fb.place(open_advance(right, t, slide), t);
            agree(&a, &b)?;
        }

        #[test]
        fn points_and_hand_set_corners_measure_as_the_search_does(
            fa in footprint(), ta in angle(), x in 0_i64..60_000, y in 0_i64..60_000,
            p in (-12_000_i64..12_000, -12_000_i64..12_000),
            q in prop::array::uniform4((-12_000_i64..12_000, -12_000_i64..12_000))
        ) {
            let a = fa.place(at(x, y), ta);
            agree(&a, &Placed::point(at(x + p.0, y + p.1)))?;
            let quad = Placed { corners: q.map(|(u, v)| at(x + u, y + v)) };
            agree(&a, &quad)?;
        }
    }

    fn open_advance(from: Point, facing: Angle, by: i64) -> Point {
        if by < 0 {
            crate::geometry::open::advance(from, facing.opposite(), Len(-by))
        } else {
            crate::geometry::open::advance(from, facing, Len(by))
        }
    }

    #[test]
    fn the_closed_form_takes_footprints_and_points_on_a_table() {
        // What it is for: footprints with both a width and a depth (and pieces of no
        // size) anywhere on a table, at any facing.
        let f = Footprint {
            width: Len(6_299),
            depth: Len(787),
        };
        for tenths in (0..3600).step_by(37) {
            let a = f.place(at(12_000, 30_000), Angle(tenths));
            let b = f.place(at(31_500, 9_250), Angle(3_599 - tenths));
            let p = Placed::point(at(40_000, 40_000));
            for (x, y) in [(&a, &b), (&b, &a), (&a, &p), (&p, &b)] {
                assert_eq!(
                    floor_distance(x, y).map(Len),
                    Some(x.distance_by_search(y)),
                    "{tenths}"
                );
            }
        }
        // And what it leaves to the search: a footprint of no depth, corners far apart.
        let line = Footprint {
            width: Len(6_000),
            depth: Len(0),
        };
        let a = f.place(at(0, 0), Angle::NORTH);
        assert_eq!(
            floor_distance(&a, &line.place(at(0, 9_000), Angle::NORTH)),
            None
        );
        assert_eq!(
            floor_distance(&a, &f.place(at(1 << 24, 0), Angle::NORTH)),
            None
        );
    }

    #[test]
    fn whole_number_distances_settle_exactly() {
        // 3-4-5 between corners, 6" between facing edges, a touch, and a thou apart.
        let f = Footprint {
            width: Len(2_000),
            depth: Len(2_000),
        };
        let a = f.place(at(0, 0), Angle::NORTH);
        let cases = [
            (at(5_000, 6_000), 5_000),
            (at(0, 8_000), 6_000),
            (at(2_000, 1_000), 0),
            (at(2_001, 0), 1),
        ];
        for (centre, want) in cases {
            let b = f.place(centre, Angle::SOUTH);
            assert_eq!(floor_distance(&a, &b), Some(want), "{centre:?}");
            assert_eq!(a.distance_by_search(&b), Len(want), "{centre:?}");
        }
        // A point 8,832 and 600,000 thou past the corner (1000, 1000): √(600,065² - 1),
        // a millionth of a thou short of 600,065; and 600,065 straight past it.
        for (p, want) in [(at(9_832, 601_000), 600_064), (at(1_000, 601_065), 600_065)] {
            let b = Placed::point(p);
            assert_eq!(floor_distance(&a, &b), Some(want), "{p:?}");
            assert_eq!(floor_distance(&b, &a), Some(want), "{p:?}");
            assert_eq!(a.distance_by_search(&b), Len(want), "{p:?}");
        }
    }
}
