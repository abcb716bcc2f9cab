//! Open-table moves near the enemy, checked against the threatened zones and the closest
//! approach defined in [`crate::threat`].

use super::Game;
use crate::action::{Ban, Refusal, RefusalKind};
use crate::cost::Cost;
use crate::geometry::Arc;
use crate::geometry::footprint::Placed;
use crate::geometry::open::{self, Len, Point};
use crate::piece::{Piece, Place};
use crate::state::State;

use crate::threat::{Approach, SEARCH_STEP, closest_approach, inches, lerp};

impl Game {
    /// Whether `watcher` (standing at `at`, facing `facing`) sees the point `p`: no area of
    /// terrain that blocks sight lies between them, except one either stands in (near its
    /// edge, where the terrain says so) — the open table's sight line.
    pub(super) fn sees_point(&self, at: Point, p: Point) -> bool {
        crate::sight::open_line_clear(self.rules(), self.board(), at, p)
    }

    /// How far `enemy` threatens `piece` (a table distance), or `None`.
    pub(super) fn threat_reach(&self, enemy: &Piece, piece: &Piece) -> Option<Len> {
        let rules = self.rules();
        let threat = rules
            .open_table
            .threats
            .get(enemy.kind.index())
            .and_then(Option::as_ref)?;
        if rules
            .zoc
            .lost_with_counters
            .iter()
            .any(|c| enemy.counter(*c) > 0)
            || rules.zoc.lost_with_flags.iter().any(|f| enemy.flag(*f))
        {
            return None;
        }
        let range = threat
            .against_modes
            .iter()
            .find(|(m, _)| *m == piece.mode)
            .map(|(_, r)| *r)
            .or_else(|| {
                threat
                    .against_types
                    .iter()
                    .find(|(t, _)| *t == piece.kind)
                    .map(|(_, r)| *r)
            })
            .unwrap_or(threat.range);
        (range.hundredths() > 0).then(|| inches(self.scaled(range)))
    }

    /// Whether the point `p` lies in `enemy`'s zone reaching `reach`.
    pub(super) fn in_zone(
        &self,
        enemy_at: Point,
        facing: open::Angle,
        reach: Len,
        p: Point,
    ) -> bool {
        open::within(enemy_at, p, reach)
            && open::arc(enemy_at, facing, p, self.rules().arcs) == Arc::Front
            && (!self.rules().open_table.threat_needs_sight || self.sees_point(enemy_at, p))
    }

    /// Checks a straight open-table move of `piece` from `from` to `to` (facing `facing`
    /// at the end) against the enemy pieces in `state`.
    pub(crate) fn check_open_approach(
        &self,
        state: &State,
        piece: &Piece,
        (from, facing_after): (Point, open::Angle),
        to: Point,
    ) -> Result<Approach, Refusal> {
        let rules = self.rules();
        let keep_apart = inches(self.scaled(rules.open_table.keep_apart));
        let mut entered_zone = false;
        // A piece may be exempt from the zones (a flag of `threats_ignored_with_flags`).
        let ignores_threats = rules
            .open_table
            .threats_ignored_with_flags
            .iter()
            .any(|f| piece.flag(*f));
        for enemy in state
            .pieces
            .iter()
            .filter(|p| p.side != piece.side && p.on_board())
        {
            let Place::Point { at, facing } = enemy.place else {
                continue;
            };
            // Named as the mover's side may name it (a handle when it is not identified);
            // made only for a refusal, as most enemies are far from most moves.
            let enemy_name = || self.label(state, piece.side, enemy);
            if self.footprint_in(piece, piece.mode).is_some()
                || self.footprint_in(enemy, enemy.mode).is_some()
            {
                let seen = (enemy, &enemy_name as &dyn Fn() -> String);
                entered_zone |= self.check_bases_approach(
                    piece,
                    seen,
                    (from, facing_after),
                    to,
                    ignores_threats,
                )?;
                continue;
            }
            if keep_apart.0 > 0 {
                let start = open::distance(from, at);
                let closest = closest_approach(from, to, at);
                if closest < keep_apart && closest < start {
                    return Err(ThreatBan::TooClose {
                        keep_apart,
                        closest,
                    }
                    .refuse((&piece.name, &enemy_name())));
                }
            }
            if ignores_threats {
                continue;
            }
            let Some(reach) = self.threat_reach(enemy, piece) else {
                continue;
            };
            if self.in_zone(at, facing, reach, from) {
                if open::distance(to, at) < open::distance(from, at) {
                    return Err(ThreatBan::NoCloser.refuse((&piece.name, &enemy_name())));
                }
                continue;
            }
            let length = open::distance(from, to).0.max(1);
            let samples = (length / SEARCH_STEP).max(1);
            let first = (1..=samples)
                .find(|k| self.in_zone(at, facing, reach, lerp(from, to, *k, samples)));
            let Some(k) = first else {
                continue;
            };
            // Bisect between the last sample outside and the first inside, to the thou.
            let (mut lo, mut hi) = ((k - 1) * length / samples, k * length / samples);
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if self.in_zone(at, facing, reach, lerp(from, to, mid, length)) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            if rules.open_table.enter_only_faced_threats
                && open::arc(from, facing_after, at, rules.arcs) != Arc::Front
            {
                // Only the enemy it faces makes a unit stop in its zone; the zone of any
                // other enemy may not be entered at all.
                return Err(ThreatBan::NotFaced.refuse((&piece.name, &enemy_name())));
            }
            if length - hi > 2 {
                let stop = lerp(from, to, hi, length);
                return Err(ThreatBan::MustStop(stop).refuse((&piece.name, &enemy_name())));
            }
            entered_zone = true;
        }
        Ok(Approach { entered_zone })
    }

    /// [`Self::check_open_approach`] against one enemy where either has bases: the same
    /// rules, measured between footprints — the enemy's where it stands, the mover's at
    /// each point of its path with the facing it ends with (its starting footprint for
    /// where it starts). Returns whether the move ends by entering the enemy's zone.
    fn check_bases_approach(
        &self,
        piece: &Piece,
        (enemy, enemy_name): (&Piece, &dyn Fn() -> String),
        (from, facing_after): (Point, open::Angle),
        to: Point,
        ignores_threats: bool,
    ) -> Result<bool, Refusal> {
        let rules = self.rules();
        let Some(theirs) = self.placed(enemy) else {
            return Ok(false);
        };
        let Place::Point {
            facing: enemy_facing,
            ..
        } = enemy.place
        else {
            return Ok(false);
        };
        let mine = self.placed(piece).unwrap_or_else(|| Placed::point(from));
        let shape = self.footprint_in(piece, piece.mode);
        let at = |q: Point| shape.map_or_else(|| Placed::point(q), |f| f.place(q, facing_after));
        let length = open::distance(from, to).0.max(1);
        let along = |k: i64| at(lerp(from, to, k, length));
        let keep_apart = inches(self.scaled(rules.open_table.keep_apart));
        let reach = if ignores_threats {
            None
        } else {
            self.threat_reach(enemy, piece)
        };
        // A bound first: the gap between the two pieces' bases anywhere along the path is at
        // least the distance from a circle holding the enemy's bases to the mover's start
        // and to its path, less the mover's own radius. Beyond both the closest approach
        // allowed and the enemy's threat, nothing below can refuse or stop the move (most
        // enemies are far from most moves), so the exact measures are spared.
        let (centre, radius) = theirs.bounds();
        let (mine_centre, mine_radius) = mine.bounds();
        let shape_radius = shape.map_or(0, |f| f.radius_bound());
        let start_gap = open::distance(centre, mine_centre).0 - radius - mine_radius;
        // `closest_approach` rounds to the thou and `lerp` truncates: 4 thou spare.
        let path_gap = closest_approach(from, to, centre).0 - radius - shape_radius - 4;
        let matters = keep_apart.0.max(reach.map_or(0, |r| r.0));
        if start_gap.min(path_gap) > matters {
            return Ok(false);
        }
        // Where the circles are too coarse, tighter bounds from the bases' edges (see
        // `Separation`): the start as it stands, and the bases swept along the path with the
        // facing they end with.
        let first = at(from);
        let sweep = Separation::new(&theirs, &first.corners).across(from, to);
        let path_gap = path_gap.max(sweep.gap_swept(&first.corners, &at(to).corners));
        let start_gap = if start_gap > matters {
            start_gap
        } else {
            start_gap.max(Separation::new(&theirs, &mine.corners).gap(&mine.corners))
        };
        if start_gap.min(path_gap) > matters {
            return Ok(false);
        }
        // The same bound for the closest approach alone: a path whose every point keeps the
        // bases farther apart than `keep_apart` cannot come too close, so the search along
        // it (some fifty placements and measures) is spared when only the threat is near.
        if keep_apart.0 > 0 && path_gap <= keep_apart.0 {
            let start = theirs.distance(&mine);
            // The gap between two convex shapes, one moving in a straight line, is convex
            // along the way: a ternary search finds the closest approach.
            let (mut lo, mut hi) = (0, length);
            while hi - lo > 2 {
                let (a, b) = (lo + (hi - lo) / 3, hi - (hi - lo) / 3);
                if theirs.distance(&along(a)) <= theirs.distance(&along(b)) {
                    hi = b;
                } else {
                    lo = a;
                }
            }
            let closest = (lo..=hi)
                .map(|k| theirs.distance(&along(k)))
                .min()
                .unwrap_or(start);
            if closest < keep_apart && closest < start {
                return Err(ThreatBan::TooClose {
                    keep_apart,
                    closest,
                }
                .refuse((&piece.name, &enemy_name())));
            }
        }
        let Some(reach) = reach else {
            return Ok(false);
        };
        let in_zone = |m: &Placed| {
            theirs.within(m, reach)
                && theirs.arc(enemy_facing, m, rules.arcs) == Arc::Front
                && (!rules.open_table.threat_needs_sight || self.footprints_see(&theirs, m))
        };
        if in_zone(&mine) {
            if theirs.distance(&along(length)) < theirs.distance(&mine) {
                return Err(ThreatBan::NoCloser.refuse((&piece.name, &enemy_name())));
            }
            return Ok(false);
        }
        // A sample whose circle lies beyond the reach is out of the zone without placing
        // the bases there (`Placed::within` makes the same test after placing them), and so
        // is one whose bases, the first placement moved there, are proved farther apart
        // than the reach along some edge's axis.
        let near = Len(reach.0.saturating_add(radius + shape_radius + 4));
        let samples = (length / SEARCH_STEP).max(1);
        let behind = Behind::new(&theirs, enemy_facing);
        let Some(k) = (1..=samples).find(|k| {
            let q = lerp(from, to, *k, samples);
            let shift = (q.x.0 - from.x.0, q.y.0 - from.y.0);
            open::within(centre, q, near)
                && sweep.gap_moved(&first.corners, shift) <= reach.0
                && !behind.moved(&first.corners, shift)
                && in_zone(&at(q))
        }) else {
            return Ok(false);
        };
        let (mut lo, mut hi) = ((k - 1) * length / samples, k * length / samples);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if in_zone(&along(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        if rules.open_table.enter_only_faced_threats
            && at(from).arc(facing_after, &theirs, rules.arcs) != Arc::Front
        {
            return Err(ThreatBan::NotFaced.refuse((&piece.name, &enemy_name())));
        }
        if length - hi > 2 {
            let stop = lerp(from, to, hi, length);
            return Err(ThreatBan::MustStop(stop).refuse((&piece.name, &enemy_name())));
        }
        Ok(true)
    }
}

/// Why an open-table move near an enemy is refused, kept as data until its words are
/// needed (a [`Ban`], as `bans.rs` lists): every one is a `must_stop` refusal.
#[derive(Clone, Copy, Debug)]
enum ThreatBan {
    /// The path would come within `keep_apart` of the enemy (`closest`: how near it passes).
    TooClose {
        /// The distance pieces keep apart.
        keep_apart: Len,
        /// How near the path passes.
        closest: Len,
    },
    /// A threatened piece moving closer to the enemy that threatens it.
    NoCloser,
    /// A move into the zone of an enemy the piece does not face.
    NotFaced,
    /// A move that runs on into a zone: it must stop where it enters, here.
    MustStop(Point),
}

impl Ban for ThreatBan {
    /// The mover's name and the enemy's, as the mover's side may name it.
    type Cx<'c> = (&'c str, &'c str);

    /// Always [`RefusalKind::MustStop`].
    fn kind(&self) -> RefusalKind {
        RefusalKind::MustStop
    }

    fn words(self, (name, enemy): Self::Cx<'_>) -> String {
        match self {
            Self::TooClose {
                keep_apart,
                closest,
            } => format!(
                "{name} may not come within {}\" of {enemy} (the path passes {}\" from it)",
                Cost::from_hundredths((keep_apart.0 / 10) as i32),
                Cost::from_hundredths((closest.0 / 10) as i32),
            ),
            Self::NoCloser => {
                format!("{name} is threatened by {enemy} and may not move closer to it")
            }
            Self::NotFaced => {
                format!("{name} may not move into the zone {enemy} threatens: it does not face it")
            }
            Self::MustStop(stop) => {
                format!("{name} must stop at {stop}, where it enters the zone {enemy} threatens")
            }
        }
    }
}

/// Lower bounds on the gap between an enemy's bases and the mover's, from the separating
/// axes: along any direction, two shapes are at least as far apart as their shadows on it.
/// The axes are the edges' normals of both footprints (and, for a move, the normal of its
/// path); each bound is taken [`SPARE`] thou short, for the rounding of placed corners to
/// the thou and of `lerp`'s points along a path, so a bound above a distance proves that
/// the exact measure ([`Placed::distance`], [`Placed::within`]) would be above it too.
struct Separation {
    /// The enemy's corners, as floats.
    theirs: [(f64, f64); 4],
    /// Unit axes (up to five; unused ones are zero and skipped).
    axes: [(f64, f64); 5],
}

/// Whether the mover's bases lie wholly behind the line of an enemy's front edge, so not in
/// its front arc: the front region [`Placed::arc`] draws runs forward from that edge (its
/// sides at most 89.9° off the facing), so bases [`SPARE`] thou or more behind the line
/// cannot meet it, and no sample there is in the enemy's zone.
struct Behind {
    /// The enemy's facing as a unit vector, and its front edge's level along it (`None`
    /// for an enemy with no bases, whose arcs a point judges).
    front: Option<((f64, f64), f64)>,
}

impl Behind {
    fn new(theirs: &Placed, facing: open::Angle) -> Self {
        if theirs.is_point() {
            return Self { front: None };
        }
        let (c, s) = crate::geometry::sector::unit_tenths(facing.tenths());
        #[allow(clippy::cast_precision_loss)] // a unit vector's fixed-point parts
        let (c, s) = (c as f64, s as f64);
        let len = c.hypot(s);
        let h = (c / len, s / len);
        let along = |p: Point| {
            let (x, y) = xy(p);
            x * h.0 + y * h.1
        };
        let level = along(theirs.corners[0]).min(along(theirs.corners[1]));
        Self {
            front: Some((h, level)),
        }
    }

    /// Whether `corners` moved by `shift` (thou) lie wholly behind the front edge's line.
    fn moved(&self, corners: &[Point; 4], shift: (i64, i64)) -> bool {
        let Some((h, level)) = self.front else {
            return false;
        };
        #[allow(clippy::cast_precision_loss)] // thou on a table
        let shift = (shift.0 as f64, shift.1 as f64);
        corners.iter().all(|&c| {
            let (x, y) = xy(c);
            (x + shift.0) * h.0 + (y + shift.1) * h.1 < level - SPARE
        })
    }
}

/// Thou taken off every bound: corners and path points are each rounded to the thou.
const SPARE: f64 = 8.0;

fn xy(p: Point) -> (f64, f64) {
    #[allow(clippy::cast_precision_loss)] // thou on a table: far below 2⁵³
    (p.x.0 as f64, p.y.0 as f64)
}

/// The unit normal of the direction from `a` to `b`, or zero for no direction.
fn normal(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy);
    if len < 1.0 {
        (0.0, 0.0)
    } else {
        (-dy / len, dx / len)
    }
}

impl Separation {
    /// The axes of the enemy's footprint `theirs` and of the mover's corners `mine`.
    fn new(theirs: &Placed, mine: &[Point; 4]) -> Self {
        let t = theirs.corners.map(xy);
        let m = mine.map(xy);
        Self {
            theirs: t,
            axes: [
                normal(t[0], t[1]),
                normal(t[1], t[2]),
                normal(m[0], m[1]),
                normal(m[1], m[2]),
                (0.0, 0.0),
            ],
        }
    }

    /// With the normal of the path from `from` to `to` as one more axis.
    fn across(mut self, from: Point, to: Point) -> Self {
        self.axes[4] = normal(xy(from), xy(to));
        self
    }

    /// The bound, in thou (negative when no axis separates them), for the mover's corners
    /// each spread over the given (start, end) projections.
    fn bound(&self, spans: impl Fn((f64, f64)) -> (f64, f64)) -> i64 {
        let mut best = f64::NEG_INFINITY;
        for &n in &self.axes {
            if n == (0.0, 0.0) {
                continue;
            }
            let along = |p: (f64, f64)| p.0 * n.0 + p.1 * n.1;
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for &c in &self.theirs {
                let v = along(c);
                lo = lo.min(v);
                hi = hi.max(v);
            }
            let (mlo, mhi) = spans(n);
            best = best.max((mlo - hi).max(lo - mhi));
        }
        #[allow(clippy::cast_possible_truncation)] // a table's size
        let gap = (best - SPARE).floor() as i64;
        gap
    }

    /// A bound on the gap to the mover's bases at `corners`.
    fn gap(&self, corners: &[Point; 4]) -> i64 {
        self.gap_moved(corners, (0, 0))
    }

    /// A bound on the gap to the mover's bases at `corners` moved by `shift` (thou).
    fn gap_moved(&self, corners: &[Point; 4], shift: (i64, i64)) -> i64 {
        let m = corners.map(xy);
        #[allow(clippy::cast_precision_loss)] // thou on a table
        let shift = (shift.0 as f64, shift.1 as f64);
        self.bound(|n| {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for c in m {
                let v = (c.0 + shift.0) * n.0 + (c.1 + shift.1) * n.1;
                lo = lo.min(v);
                hi = hi.max(v);
            }
            (lo, hi)
        })
    }

    /// A bound on the gap to the mover's bases anywhere between `first` and `last` (the
    /// same footprint with the same facing, moved in a straight line): their shadows
    /// sweep between the two.
    fn gap_swept(&self, first: &[Point; 4], last: &[Point; 4]) -> i64 {
        let (a, b) = (first.map(xy), last.map(xy));
        self.bound(|n| {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for c in a.iter().chain(b.iter()) {
                let v = c.0 * n.0 + c.1 * n.1;
                lo = lo.min(v);
                hi = hi.max(v);
            }
            (lo, hi)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::footprint::Footprint;
    use crate::geometry::open::Angle;

    /// A small deterministic generator, so a failure names its case.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: i64) -> i64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            i64::try_from((self.0 >> 33) % n.unsigned_abs()).unwrap_or(0)
        }

        fn footprint(&mut self) -> Footprint {
            // One case in five a point (a commander), the rest bases of up to 8" by 3".
            if self.below(5) == 0 {
                return Footprint::POINT;
            }
            Footprint {
                width: Len(200 + self.below(7_800)),
                depth: Len(200 + self.below(2_800)),
            }
        }

        fn point(&mut self) -> Point {
            Point::new(Len(self.below(30_000)), Len(self.below(30_000)))
        }

        fn angle(&mut self) -> Angle {
            Angle::new(i32::try_from(self.below(3_600)).unwrap_or(0))
        }
    }

    #[test]
    fn the_separation_bounds_never_exceed_the_exact_gap() {
        let mut r = Lcg(40);
        for case in 0..4_000 {
            let theirs = r.footprint().place(r.point(), r.angle());
            let shape = r.footprint();
            let facing = r.angle();
            let (from, to) = (r.point(), r.point());
            let first = shape.place(from, facing);
            let last = shape.place(to, facing);
            let exact = |m: &Placed| theirs.distance(m).0;
            let s = Separation::new(&theirs, &first.corners);
            assert!(s.gap(&first.corners) <= exact(&first), "case {case}: start");
            let sweep = s.across(from, to);
            let swept = sweep.gap_swept(&first.corners, &last.corners);
            let length = open::distance(from, to).0.max(1);
            for k in (0..=length).step_by(usize::try_from(length / 40 + 1).unwrap_or(1)) {
                let q = lerp(from, to, k, length);
                let placed = shape.place(q, facing);
                assert!(
                    swept <= exact(&placed),
                    "case {case}: swept, at {k} of {length}"
                );
                let moved = sweep.gap_moved(&first.corners, (q.x.0 - from.x.0, q.y.0 - from.y.0));
                assert!(
                    moved <= exact(&placed),
                    "case {case}: moved, at {k} of {length}"
                );
            }
        }
    }

    #[test]
    fn bases_proved_behind_an_enemy_are_never_in_its_front_arc() {
        let mut r = Lcg(7);
        let spec = crate::geometry::ArcSpec {
            front_half_angle: 90,
            rear_half_angle: 45,
        };
        let mut proved = 0;
        for case in 0..4_000 {
            let facing = r.angle();
            let theirs = r.footprint().place(r.point(), facing);
            let mine = r.footprint().place(r.point(), r.angle());
            if Behind::new(&theirs, facing).moved(&mine.corners, (0, 0)) {
                proved += 1;
                assert!(
                    theirs.arc(facing, &mine, spec) != Arc::Front,
                    "case {case}: proved behind, yet in front"
                );
            }
        }
        // Random places on a 30" table: about half of them lie behind the enemy's front.
        assert!(proved > 1_000, "only {proved} proved behind");
    }

    #[test]
    fn the_separation_bounds_see_bases_far_apart() {
        // Two 6" x 2" lines side by side, 10" between their flanks, the mover sliding 3"
        // along its own line away from the other: the circles about them (about 3.2" each)
        // allow no more than ~9.7", the edges prove the whole 10" less the spare.
        let f = Footprint {
            width: Len::inches(6),
            depth: Len::inches(2),
        };
        let theirs = f.place(Point::inches(10, 10), Angle::NORTH);
        let (from, to) = (Point::inches(26, 10), Point::inches(29, 10));
        let first = f.place(from, Angle::NORTH);
        let last = f.place(to, Angle::NORTH);
        let s = Separation::new(&theirs, &first.corners);
        assert!(s.gap(&first.corners) >= 10_000 - 10);
        let sweep = s.across(from, to);
        assert!(sweep.gap_swept(&first.corners, &last.corners) >= 10_000 - 10);
        assert!(sweep.gap_moved(&first.corners, (3_000, 0)) >= 13_000 - 10);
        assert!(theirs.distance(&first).0 == 10_000);
    }
}
