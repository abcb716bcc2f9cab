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
