//! Properties of footprints on the open table (issue 21): edge-to-edge distance is
//! symmetric, zero exactly when the footprints touch, unchanged by moving both together,
//! never more than the centres' distance, and exactly what `within` decides; a footprint
//! of no size measures as a point.

use grognard_kernel::geometry::footprint::{Footprint, Placed};
use grognard_kernel::geometry::open::{self, Angle, Len, Point};
use grognard_kernel::geometry::{Arc, ArcSpec};
use proptest::prelude::*;

fn footprint() -> impl Strategy<Value = Footprint> {
    (0_i64..8_000, 0_i64..4_000).prop_map(|(w, d)| Footprint {
        width: Len(w),
        depth: Len(d),
    })
}

fn point() -> impl Strategy<Value = Point> {
    (0_i64..60_000, 0_i64..60_000).prop_map(|(x, y)| Point::new(Len(x), Len(y)))
}

fn angle() -> impl Strategy<Value = Angle> {
    prop_oneof![
        (0_i32..8).prop_map(|k| Angle(k * 450)),
        (0_i32..3600).prop_map(Angle),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn distance_is_symmetric_and_zero_exactly_when_touching(
        fa in footprint(), fb in footprint(), pa in point(), pb in point(), ta in angle(), tb in angle()
    ) {
        let (a, b) = (fa.place(pa, ta), fb.place(pb, tb));
        let d = a.distance(&b);
        prop_assert_eq!(d, b.distance(&a));
        prop_assert!(d.0 >= 0);
        prop_assert_eq!(d == Len::ZERO && a.touches(&b), a.touches(&b));
        if !a.touches(&b) {
            // Rounded down to the thou, so only a whole-thou gap can be 0.
            prop_assert!(a.within(&b, Len(d.0 + 1)));
        }
        prop_assert!(a.within(&b, Len(d.0 + 1)));
        if d.0 > 0 {
            prop_assert!(!a.within(&b, Len(d.0 - 1)));
        }
        // Never more than centre to centre.
        prop_assert!(d <= open::distance(a.centre(), b.centre()));
    }

    #[test]
    fn moving_both_together_changes_nothing(
        fa in footprint(), fb in footprint(), pa in point(), pb in point(), k in 0_i32..4,
        dx in -10_000_i64..10_000, dy in -10_000_i64..10_000
    ) {
        // Facings at right angles place corners exactly, so a shift is exact too.
        let t = Angle(k * 900);
        let shift = |p: Point| Point::new(Len(p.x.0 + dx), Len(p.y.0 + dy));
        let (a, b) = (fa.place(pa, t), fb.place(pb, t));
        let (a2, b2) = (fa.place(shift(pa), t), fb.place(shift(pb), t));
        prop_assert_eq!(a.distance(&b), a2.distance(&b2));
        prop_assert_eq!(a.arc(t, &b, ArcSpec::new(45, 45)), a2.arc(t, &b2, ArcSpec::new(45, 45)));
    }

    #[test]
    fn a_footprint_of_no_size_is_a_point(pa in point(), pb in point(), t in angle()) {
        let (a, b) = (Footprint::POINT.place(pa, t), Footprint::POINT.place(pb, t));
        prop_assert_eq!(a, Placed::point(pa));
        prop_assert_eq!(a.distance(&b), open::distance(pa, pb));
        prop_assert_eq!(a.within(&b, Len(1_000)), open::within(pa, pb, Len(1_000)));
        prop_assert_eq!(
            a.arc(t, &b, ArcSpec::new(45, 45)),
            open::arc(pa, t, pb, ArcSpec::new(45, 45))
        );
    }

    #[test]
    fn whatever_stands_right_in_front_is_in_the_front_arc(
        fa in footprint(), fb in footprint(), pa in point(), t in angle(), gap in 1_i64..20_000
    ) {
        // A target centred straight ahead, past the front edge, is in front.
        let a = fa.place(pa, t);
        let ahead = open::advance(pa, t, Len(fa.depth.0 / 2 + fb.depth.0 / 2 + gap));
        let b = fb.place(ahead, t.opposite());
        prop_assert_eq!(a.arc(t, &b, ArcSpec::new(45, 45)), Arc::Front);
    }
}

/// The exact distance worked out the slow way: every corner against every edge, both
/// ways, in exact integers; 0 when a corner of one lies inside the other or two edges
/// cross.
fn reference_distance(a: &Placed, b: &Placed) -> i64 {
    type V = (i128, i128);
    let v = |p: Point| (i128::from(p.x.0), i128::from(p.y.0));
    let sub = |a: V, b: V| (a.0 - b.0, a.1 - b.1);
    let dot = |a: V, b: V| a.0 * b.0 + a.1 * b.1;
    let cross = |a: V, b: V| a.0 * b.1 - a.1 * b.0;
    let edges = |p: &Placed| -> Vec<(V, V)> {
        (0..4)
            .map(|i| (v(p.corners[i]), v(p.corners[(i + 1) % 4])))
            .collect()
    };
    let inside = |p: V, poly: &Placed| {
        let signs: Vec<i128> = edges(poly)
            .iter()
            .map(|(s, e)| cross(sub(*e, *s), sub(p, *s)).signum())
            .filter(|x| *x != 0)
            .collect();
        signs.iter().all(|x| *x > 0) || signs.iter().all(|x| *x < 0)
    };
    let crosses = |(a, b): (V, V), (c, d): (V, V)| {
        let o = |p: V, q: V, r: V| cross(sub(q, p), sub(r, p)).signum();
        let (d1, d2, d3, d4) = (o(a, b, c), o(a, b, d), o(c, d, a), o(c, d, b));
        d1 * d2 < 0 && d3 * d4 < 0
    };
    if a.corners.iter().any(|p| inside(v(*p), b))
        || b.corners.iter().any(|p| inside(v(*p), a))
        || edges(a)
            .iter()
            .any(|x| edges(b).iter().any(|y| crosses(*x, *y)))
    {
        return 0;
    }
    let d2 = |p: V, s: V, e: V| -> (u128, u128) {
        let d = sub(e, s);
        let len2 = dot(d, d);
        if len2 == 0 || dot(sub(p, s), d) <= 0 {
            return (dot(sub(p, s), sub(p, s)).unsigned_abs(), 1);
        }
        if dot(sub(p, e), d) >= 0 {
            return (dot(sub(p, e), sub(p, e)).unsigned_abs(), 1);
        }
        let c = cross(d, sub(p, s)).unsigned_abs();
        (c * c, len2.unsigned_abs())
    };
    let mut best = u128::MAX;
    for (x, y) in [(a, b), (b, a)] {
        for p in x.corners {
            for (s, e) in edges(y) {
                let (n, den) = d2(v(p), s, e);
                best = best.min((n / den).isqrt());
            }
        }
    }
    i64::try_from(best).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn the_fast_distance_agrees_with_the_slow_exact_one(
        fa in footprint(), fb in footprint(), pa in point(), ta in angle(), tb in angle(),
        dx in -12_000_i64..12_000, dy in -12_000_i64..12_000
    ) {
        // Near neighbours, where touching and overlapping are common.
        let pb = Point::new(Len(pa.x.0 + dx), Len(pa.y.0 + dy));
        let (a, b) = (fa.place(pa, ta), fb.place(pb, tb));
        let slow = reference_distance(&a, &b);
        // The fast one may call "touching" what the slow one's strict edge tests see as a
        // gap under a thou: both are 0 then.
        prop_assert_eq!(a.distance(&b).0, slow);
    }
}
