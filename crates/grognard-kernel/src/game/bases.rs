//! Moving bases on the open table (issue 21): a footprinted unit's move costs the longest
//! path any point of its footprint travels, ends with the whole footprint on the table and
//! clear of every other unit's footprint, and a change of formation reshapes it about the
//! centre of its front edge.
//!
//! A move from one place and facing to another is taken as one rigid motion: a straight
//! move when the facing does not change, otherwise the rotation about the one point the
//! motion leaves where it was (a wheel about a flank is the rotation about that flank's
//! front corner). Each point of the footprint travels the arc about that point; the
//! farthest-moving point is a corner, and its arc is `chord × (θ/2) / sin(θ/2)` for a
//! turn of θ — computed from the exact corner positions and the kernel's integer sine
//! table, so the cost is the same on every platform.

use crate::Cost;
use crate::action::{Ban, Refusal, RefusalKind};
use crate::geometry::footprint::{Footprint, Placed};
use crate::geometry::open::{self, Angle, Len, Point};
use crate::ids::{ModeId, SideId};
use crate::piece::{Piece, Place};
use crate::state::State;

use super::Game;

/// Why a footprint may not stand where an order puts it, kept as data until its words are
/// needed (a [`Ban`], as `bans.rs` lists).
#[derive(Clone, Copy, Debug)]
enum FootprintBan<'a> {
    /// A corner of the bases would be off the table, here.
    OffTable(Point),
    /// The bases would overlap this unit's (named as the reader reads it).
    Overlaps(&'a str),
    /// The bases would overlap a unit whose place the mover's side does not know.
    DoNotFit,
}

impl Ban for FootprintBan<'_> {
    /// The piece whose bases they are.
    type Cx<'c> = &'c Piece;

    fn kind(&self) -> RefusalKind {
        match self {
            Self::OffTable(_) => RefusalKind::BadPath,
            Self::Overlaps(_) | Self::DoNotFit => RefusalKind::Occupied,
        }
    }

    fn words(self, piece: &Piece) -> String {
        let name = &piece.name;
        match self {
            Self::OffTable(c) => format!("{name}'s bases would leave the table (a corner at {c})"),
            Self::Overlaps(theirs) => format!("{name}'s bases would overlap {theirs}'s"),
            Self::DoNotFit => format!("{name}'s bases do not fit there"),
        }
    }
}

impl Game {
    /// A piece type's footprint in `mode` (`None`: a point).
    pub(crate) fn footprint_in(&self, piece: &Piece, mode: ModeId) -> Option<Footprint> {
        super::footprint_of(&self.rules, piece, mode)
    }

    /// What moving `piece`'s footprint from `(from, old)` to `(to, new)` costs: the longest
    /// path a corner travels (see the module docs), rounded up to the hundredth. `None` for
    /// a piece without a footprint (its centre's straight move is the cost).
    pub(crate) fn footprint_move_cost(
        &self,
        piece: &Piece,
        (from, old): (Point, Angle),
        (to, new): (Point, Angle),
    ) -> Option<Cost> {
        let f = self.footprint_in(piece, piece.mode)?;
        let (a, b) = (f.place(from, old), f.place(to, new));
        let turn = (new.tenths() - old.tenths()).rem_euclid(3600);
        let turn = turn.min(3600 - turn); // the smaller way round, in tenths
        let longest = a
            .corners
            .iter()
            .zip(&b.corners)
            .map(|(p, q)| arc_length(*p, *q, turn))
            .fold(0.0_f64, f64::max);
        // Hundredths of an inch, rounded up, as a straight move's cost is.
        let hundredths = (longest / 10.0).ceil();
        #[allow(clippy::cast_possible_truncation)] // bounded just below
        Some(if hundredths >= f64::from(Cost::MAX.hundredths()) {
            Cost::MAX
        } else {
            Cost::from_hundredths(hundredths as i32)
        })
    }

    /// What an open-table move of `piece` from `(from, old)` to `(to, new)` costs before
    /// terrain, as its type's pivot in its mode says: a wheel costs the longest path a
    /// corner of its footprint travels ([`Self::footprint_move_cost`]; a point's straight
    /// path); a free pivot turns about the centre for nothing, so the centre's straight
    /// path is the cost; a fixed cost is that path plus the (scaled) cost when the facing
    /// changes.
    pub(crate) fn table_move_cost(
        &self,
        piece: &Piece,
        (from, old): (Point, Angle),
        (to, new): (Point, Angle),
    ) -> Cost {
        let straight = open::move_cost(from, to);
        match self.rules.open_table.pivot(piece.kind, piece.mode) {
            crate::rules::Pivot::Wheel => self
                .footprint_move_cost(piece, (from, old), (to, new))
                .unwrap_or(straight),
            crate::rules::Pivot::Free => straight,
            crate::rules::Pivot::Cost(turn) if new != old => {
                straight.saturating_add(self.scaled(turn))
            }
            crate::rules::Pivot::Cost(_) => straight,
        }
    }

    /// Checks that `piece` standing at `at` facing `facing` in `mode` has its whole
    /// footprint on the table and overlaps no other unit's footprint (in `state`; the
    /// units it carries or is carried by do not count), as the scenario has it: every unit
    /// is judged and named, whatever the sides know (the set-up's check of a scenario's
    /// pieces, which its author reads).
    ///
    /// # Errors
    /// The footprint leaves the table, or overlaps another unit.
    pub(crate) fn check_footprint_fits(
        &self,
        state: &State,
        piece: &Piece,
        place: (Point, Angle),
        mode: ModeId,
    ) -> Result<(), Refusal> {
        self.footprint_clash_for(None, state, piece, place, mode, None)
            .map(|_| ())
    }

    /// [`Self::check_footprint_fits`] as the mover's side knows the table, with one more
    /// unit, `beside`, that it may touch and is not checked against (the target a charge ends against). An overlap with a piece
    /// whose place the mover's side does not know is refused without naming it or saying
    /// what stands there: the bases do not fit.
    pub(crate) fn check_footprint_clear_of(
        &self,
        state: &State,
        piece: &Piece,
        place: (Point, Angle),
        mode: ModeId,
        beside: Option<crate::ids::PieceId>,
    ) -> Result<(), Refusal> {
        let unseen = self.footprint_clash(state, piece, place, mode, beside)?;
        if unseen.is_empty() {
            return Ok(());
        }
        Err(FootprintBan::DoNotFit.refuse(piece))
    }

    /// The footprint checks of [`Self::check_footprint_clear_of`] as the mover's side may
    /// know them: off the table, or over a unit the side knows is there (named as the side
    /// reads it, [`Self::label`]), is refused; the units it would overlap whose place the
    /// side does not know (under sighting rules) are returned, for the caller to decide
    /// (a move runs into them and stops: [`Self::check_move_to`]).
    ///
    /// # Errors
    /// The footprint leaves the table, or overlaps a unit the side knows is there.
    pub(crate) fn footprint_clash(
        &self,
        state: &State,
        piece: &Piece,
        place: (Point, Angle),
        mode: ModeId,
        beside: Option<crate::ids::PieceId>,
    ) -> Result<Vec<crate::ids::PieceId>, Refusal> {
        self.footprint_clash_for(Some(piece.side), state, piece, place, mode, beside)
    }

    /// [`Self::footprint_clash`] read by `reader`: a side (the mover's), or the referee
    /// (`None`), who knows every unit and reads it by its name.
    fn footprint_clash_for(
        &self,
        reader: Option<SideId>,
        state: &State,
        piece: &Piece,
        (at, facing): (Point, Angle),
        mode: ModeId,
        beside: Option<crate::ids::PieceId>,
    ) -> Result<Vec<crate::ids::PieceId>, Refusal> {
        let Some(f) = self.footprint_in(piece, mode) else {
            return Ok(Vec::new());
        };
        let placed = f.place(at, facing);
        if let Some(c) = placed
            .corners
            .iter()
            .find(|c| !self.board.contains_point(**c))
        {
            return Err(FootprintBan::OffTable(*c).refuse(piece));
        }
        let unknown = |o: &Piece| {
            reader.is_some_and(|side| {
                let knowledge = state.knowledge.get(side.index());
                self.sighting().is_some()
                    && o.side != side
                    && !knowledge.is_some_and(|k| k.knows_position(o.id))
            })
        };
        let mut unseen = Vec::new();
        for other in state.pieces.iter().filter(|o| {
            o.id != piece.id
                && Some(o.id) != beside
                && o.on_board()
                && o.attached_to != Some(piece.id)
                && piece.attached_to != Some(o.id)
        }) {
            let Some(theirs) = self.placed_footprint(other) else {
                continue;
            };
            if !placed.overlaps(&theirs) {
                continue;
            }
            if unknown(other) {
                unseen.push(other.id);
                continue;
            }
            let theirs = match reader {
                Some(side) => self.label(state, side, other),
                None => other.name.clone(),
            };
            return Err(FootprintBan::Overlaps(&theirs).refuse(piece));
        }
        Ok(unseen)
    }

    /// The footprint of a piece that has one, where it stands.
    fn placed_footprint(&self, p: &Piece) -> Option<Placed> {
        let Place::Point { at, facing } = &p.place else {
            return None;
        };
        Some(self.footprint_in(p, p.mode)?.place(*at, *facing))
    }

    /// Where `piece`'s centre stands after it takes `mode`: the new footprint keeps the
    /// centre of the front edge where it was (a unit forms column behind its front). The
    /// same point when either shape is a point.
    pub(crate) fn reshaped_centre(&self, piece: &Piece, mode: ModeId) -> Option<Point> {
        let Place::Point { at, facing } = &piece.place else {
            return None;
        };
        let before = self
            .footprint_in(piece, piece.mode)
            .unwrap_or(Footprint::POINT);
        let after = self.footprint_in(piece, mode).unwrap_or(Footprint::POINT);
        // Front edge centre = centre + depth/2 ahead; the new centre is new depth/2 behind.
        let front = open::advance(*at, *facing, Len(before.depth.0 / 2));
        Some(open::advance(front, *facing, Len(-(after.depth.0 / 2))))
    }
}

/// The length of the arc a point travels from `p` to `q` while the unit turns `turn`
/// tenths of a degree (the straight line when it does not turn), in thou.
fn arc_length(p: Point, q: Point, turn: i32) -> f64 {
    #[allow(clippy::cast_precision_loss)] // thou on a table: far below 2⁵³
    let chord = ((q.x.0 - p.x.0) as f64).hypot((q.y.0 - p.y.0) as f64);
    if turn == 0 || chord == 0.0 {
        return chord;
    }
    // sin(θ/2) from the integer table: `cos_sin` takes half-tenths, so θ/2 in half-tenths
    // is `turn` itself.
    let (_, s) = crate::geometry::sector::cos_sin(i64::from(turn));
    #[allow(clippy::cast_precision_loss)]
    let sin_half = (s as f64) / (1_u64 << 60) as f64;
    let half = f64::from(turn) * std::f64::consts::PI / 3600.0;
    chord * half / sin_half
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_move_costs_its_length_and_a_wheel_its_arc() {
        let p = Point::inches(0, 0);
        assert!((arc_length(p, Point::inches(3, 4), 0) - 5_000.0).abs() < 1e-9);
        // A quarter turn about a point 6" away: chord 6√2, arc 6·π/2.
        let q = Point::inches(0, 6);
        let arc = arc_length(Point::inches(6, 0), q, 900);
        assert!(
            (arc - 6_000.0 * std::f64::consts::FRAC_PI_2).abs() < 0.01,
            "{arc}"
        );
    }
}
