//! Open-table moves near the enemy, checked against the threatened zones and the closest
//! approach defined in [`crate::threat`].

use super::Game;
use crate::action::{Refusal, RefusalKind};
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
                    return Err(too_close(&piece.name, keep_apart, &enemy_name(), closest));
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
                    return Err(no_closer(&piece.name, &enemy_name()));
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
                return Err(not_faced(&piece.name, &enemy_name()));
            }
            if length - hi > 2 {
                let stop = lerp(from, to, hi, length);
                return Err(must_stop(&piece.name, stop, &enemy_name()));
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
        if start_gap.min(path_gap) > keep_apart.0.max(reach.map_or(0, |r| r.0)) {
            return Ok(false);
        }
        if keep_apart.0 > 0 {
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
                return Err(too_close(&piece.name, keep_apart, &enemy_name(), closest));
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
                return Err(no_closer(&piece.name, &enemy_name()));
            }
            return Ok(false);
        }
        // A sample whose circle lies beyond the reach is out of the zone without placing
        // the bases there (`Placed::within` makes the same test after placing them).
        let near = Len(reach.0.saturating_add(radius + shape_radius + 4));
        let samples = (length / SEARCH_STEP).max(1);
        let Some(k) = (1..=samples).find(|k| {
            let q = lerp(from, to, *k, samples);
            open::within(centre, q, near) && in_zone(&at(q))
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
            return Err(not_faced(&piece.name, &enemy_name()));
        }
        if length - hi > 2 {
            let stop = lerp(from, to, hi, length);
            return Err(must_stop(&piece.name, stop, &enemy_name()));
        }
        Ok(true)
    }
}

/// A move that would come within `keep_apart` of an enemy.
fn too_close(name: &str, keep_apart: Len, enemy: &str, closest: Len) -> Refusal {
    Refusal::new(
        RefusalKind::MustStop,
        format!(
            "{name} may not come within {}\" of {enemy} (the path passes {}\" from it)",
            Cost::from_hundredths((keep_apart.0 / 10) as i32),
            Cost::from_hundredths((closest.0 / 10) as i32),
        ),
    )
}

/// A threatened piece moving closer to the enemy that threatens it.
fn no_closer(name: &str, enemy: &str) -> Refusal {
    Refusal::new(
        RefusalKind::MustStop,
        format!("{name} is threatened by {enemy} and may not move closer to it"),
    )
}

/// A move into the zone of an enemy the piece does not face.
fn not_faced(name: &str, enemy: &str) -> Refusal {
    Refusal::new(
        RefusalKind::MustStop,
        format!("{name} may not move into the zone {enemy} threatens: it does not face it"),
    )
}

/// A move that runs on into a zone: it must stop where it enters.
fn must_stop(name: &str, stop: Point, enemy: &str) -> Refusal {
    Refusal::new(
        RefusalKind::MustStop,
        format!("{name} must stop at {stop}, where it enters the zone {enemy} threatens"),
    )
}
