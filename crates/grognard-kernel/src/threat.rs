//! Open-table moves near the enemy: threatened zones and a closest approach.
//!
//! On a grid, zones of control are cells. On an open table a piece may instead project a
//! *threatened zone*: the part of its front arc within a range (which may depend on the
//! type and mode of the piece threatened), optionally only where it can see. A move may
//! enter such a zone only at its end point — it stops there — and a piece already inside
//! one may not end closer to that enemy than it started. With `enter_only_faced_threats`,
//! only the zone of an enemy the piece faces may be entered (and stopped in); the zones of
//! the others are closed to it. A piece with a flag of `threats_ignored_with_flags` set
//! ignores the zones altogether. Separately, no move may bring a
//! piece closer than `keep_apart` to any enemy piece. Ranges are rule distances, scaled
//! like allowances.

use crate::cost::Cost;
use crate::geometry::open::{self, Len, Point};

/// How finely a path is searched for the point where it enters a zone, before bisection.
pub(crate) const SEARCH_STEP: i64 = 50;

/// What an open-table move found out about the enemy near its path.
pub(crate) struct Approach {
    /// The move ended by entering an enemy's threatened zone: the piece may not move on.
    pub entered_zone: bool,
}

pub(crate) fn inches(c: Cost) -> Len {
    Len(i64::from(c.hundredths()) * 10)
}

pub(crate) fn lerp(from: Point, to: Point, num: i64, den: i64) -> Point {
    let at = |a: Len, b: Len| {
        Len(a.0 + (i128::from(b.0 - a.0) * i128::from(num) / i128::from(den)) as i64)
    };
    Point::new(at(from.x, to.x), at(from.y, to.y))
}

/// Closest distance from `p` to the segment `a`–`b`, to the thou.
pub(crate) fn closest_approach(a: Point, b: Point, p: Point) -> Len {
    let (ax, ay) = (a.x.0 as f64, a.y.0 as f64);
    let (dx, dy) = ((b.x.0 - a.x.0) as f64, (b.y.0 - a.y.0) as f64);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.x.0 as f64 - ax) * dx + (p.y.0 as f64 - ay) * dy) / len2).clamp(0.0, 1.0)
    };
    let q = Point::new(
        Len((ax + t * dx).round() as i64),
        Len((ay + t * dy).round() as i64),
    );
    open::distance(q, p)
}
