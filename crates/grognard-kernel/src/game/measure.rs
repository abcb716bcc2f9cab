//! Measuring between pieces: distance (in cells or table inches), the rule distance that
//! charts and actions read, bearing (which arc of one piece the other is in), and sight
//! between two pieces with the blockers the caller chooses.

use crate::geometry::Arc as Bearing;
use crate::geometry::open;
use crate::piece::{Piece, Place};

use super::Game;
use crate::sight::{Blockers, line_clear};
use crate::state::State;

impl Game {
    /// Distance between two pieces: grid steps, or whole inches (rounded down) on a table.
    #[must_use]
    pub fn distance(&self, a: &Piece, b: &Piece) -> Option<u32> {
        match (&a.place, &b.place) {
            (Place::Point { at: pa, .. }, Place::Point { at: pb, .. }) => {
                let d = open::distance(*pa, *pb);
                u32::try_from(d.0 / 1000).ok()
            }
            _ => {
                let (ca, cb) = (a.place.cell()?, b.place.cell()?);
                Some(self.board.grid()?.distance(ca, cb))
            }
        }
    }

    /// Distance between two pieces in the rules' own units: on an open table played at a
    /// reduced scale, the measured inches converted back to rule inches (whole inches,
    /// rounded down), so that charts read the distances the rules print; otherwise as
    /// [`Self::distance`].
    #[must_use]
    pub fn rule_distance(&self, a: &Piece, b: &Piece) -> Option<u32> {
        match (&a.place, &b.place, &self.rules.geometry) {
            (
                Place::Point { at: pa, .. },
                Place::Point { at: pb, .. },
                crate::rules::GeometryRules::Open { scale },
            ) if scale.num > 0 => {
                let d = i128::from(open::distance(*pa, *pb).0) * i128::from(scale.den)
                    / i128::from(scale.num);
                u32::try_from(d / 1000).ok()
            }
            _ => self.distance(a, b),
        }
    }

    /// Where `b` lies in `a`'s arcs.
    #[must_use]
    pub fn bearing(&self, a: &Piece, b: &Piece) -> Option<Bearing> {
        match (&a.place, &b.place) {
            (Place::Point { at: pa, facing }, Place::Point { at: pb, .. }) => {
                Some(open::arc(*pa, *facing, *pb, self.rules.arcs))
            }
            _ => {
                let (ca, cb) = (a.place.cell()?, b.place.cell()?);
                Some(self.board.grid()?.arc(ca, a.facing, cb, self.rules.arcs))
            }
        }
    }

    /// True when the centre-to-centre line from `a` to `b` crosses no cell that blocks
    /// sight (terrain that blocks it, or a piece). A line running between two cells is
    /// blocked only when both block. Open tables: blocked by areas whose terrain blocks.
    #[must_use]
    pub fn clear_sight(&self, state: &State, a: &Piece, b: &Piece) -> bool {
        self.sight_line_clear(state, a, b, None)
    }

    /// [`Self::clear_sight`] as one side can judge it: pieces block the line only when
    /// they are that side's own or enemy pieces it knows are there (`viewer: None`: every
    /// piece blocks). Sighting calls it with pieces not blocking at all (`false`).
    pub(crate) fn sight_line_clear(
        &self,
        state: &State,
        a: &Piece,
        b: &Piece,
        viewer: impl Into<Blockers>,
    ) -> bool {
        let blockers = viewer.into();
        let piece_blocks = |p: &Piece| match blockers {
            Blockers::All => true,
            Blockers::None => false,
            Blockers::KnownTo(side) => {
                p.side == side
                    || self.sighting().is_none()
                    || state
                        .knowledge
                        .get(side.index())
                        .is_some_and(|k| k.knows_position(p.id))
            }
        };
        let pieces_block = !matches!(blockers, Blockers::None);
        line_clear(
            &self.rules,
            &self.board,
            state,
            a,
            b,
            pieces_block.then_some(piece_blocks),
        )
    }
}
