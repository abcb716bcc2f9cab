//! Measuring between pieces: distance (in cells or table inches), the rule distance that
//! charts and actions read, bearing (which arc of one piece the other is in), and sight
//! between two pieces with the blockers the caller chooses.

use crate::geometry::Arc as Bearing;
use crate::geometry::footprint::Placed;
use crate::geometry::open;
use crate::ids::SideId;
use crate::piece::{Piece, Place};
use crate::rules::Rules;

use super::Game;
use crate::sight::{Blockers, line_clear};
use crate::state::State;

/// Whether footprint `a` sees footprint `b` on an open table of `board` under `rules`
/// (terrain blocks; pieces do not there): the same test as [`Game::clear_sight`] between
/// two pieces standing there. For a client that has the rules and the board but no game
/// (the editor's remote seat).
#[must_use]
pub fn footprints_see(rules: &Rules, board: &crate::board::Board, a: &Placed, b: &Placed) -> bool {
    crate::sight::footprints_see(rules, board, a, b)
}

pub use crate::sight::{footprint_of, placed_on};

impl Game {
    /// Where a piece on the open table stands (see [`placed_on`]).
    #[must_use]
    pub fn placed(&self, p: &Piece) -> Option<Placed> {
        placed_on(&self.rules, p)
    }

    /// Whether footprint `a` sees footprint `b` on the open table, as [`Self::clear_sight`]
    /// judges two pieces standing there (terrain blocks; pieces do not on an open table).
    /// For tools that place footprints themselves — the editor's tape measure, for a
    /// piece as a side is shown it.
    #[must_use]
    pub fn footprints_see(&self, a: &Placed, b: &Placed) -> bool {
        footprints_see(&self.rules, &self.board, a, b)
    }

    /// The edge-to-edge distance between two pieces on the open table, in thou.
    #[must_use]
    pub fn table_gap(&self, a: &Piece, b: &Piece) -> Option<open::Len> {
        Some(self.placed(a)?.distance(&self.placed(b)?))
    }

    /// Distance between two pieces: grid steps, or whole inches (rounded down) on a table,
    /// edge to edge where they have footprints.
    #[must_use]
    pub fn distance(&self, a: &Piece, b: &Piece) -> Option<u32> {
        match (&a.place, &b.place) {
            (Place::Point { .. }, Place::Point { .. }) => {
                let d = self.table_gap(a, b)?;
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
                Place::Point { .. },
                Place::Point { .. },
                crate::rules::GeometryRules::Open { scale },
            ) if scale.num > 0 => {
                let d = i128::from(self.table_gap(a, b)?.0) * i128::from(scale.den)
                    / i128::from(scale.num);
                u32::try_from(d / 1000).ok()
            }
            _ => self.distance(a, b),
        }
    }

    /// The exact distance between two pieces on the open table in the rules' own inches
    /// (the table gap converted back through the scale), in thou; `None` off the table.
    #[must_use]
    pub fn rule_gap(&self, a: &Piece, b: &Piece) -> Option<open::Len> {
        let gap = self.table_gap(a, b)?;
        match &self.rules.geometry {
            crate::rules::GeometryRules::Open { scale } if scale.num > 0 => {
                let d = i128::from(gap.0) * i128::from(scale.den) / i128::from(scale.num);
                Some(open::Len(i64::try_from(d).unwrap_or(i64::MAX)))
            }
            _ => Some(gap),
        }
    }

    /// The distance a chart reads between two pieces (`from: distance`, `distance_band`;
    /// with `table: true`, `table_distance`, `table_distance_band`): grid steps, or on an
    /// open table the exact distance rounded *up* to whole inches — so a row or band "up
    /// to 15" (`max: 15`, a band bound 15) holds 15.000 inches and not 15.001, as the
    /// exact distance compared with the bound would.
    #[must_use]
    pub fn chart_distance(&self, a: &Piece, b: &Piece, table: bool) -> Option<u32> {
        match (&a.place, &b.place) {
            (Place::Point { .. }, Place::Point { .. }) => {
                let thou = if table {
                    self.table_gap(a, b)?
                } else {
                    self.rule_gap(a, b)?
                };
                u32::try_from((thou.0.max(0) + 999) / 1000).ok()
            }
            _ => self.distance(a, b),
        }
    }

    /// Where `b` lies in `a`'s arcs.
    #[must_use]
    pub fn bearing(&self, a: &Piece, b: &Piece) -> Option<Bearing> {
        match (&a.place, &b.place) {
            (Place::Point { facing, .. }, Place::Point { .. }) => Some(self.placed(a)?.arc(
                *facing,
                &self.placed(b)?,
                self.rules.arcs,
            )),
            _ => {
                let (ca, cb) = (a.place.cell()?, b.place.cell()?);
                Some(self.board.grid()?.arc(ca, a.facing, cb, self.rules.arcs))
            }
        }
    }

    /// The sighting level `observer` gives `target` as the pieces stand, by the ruleset's
    /// sighting data alone: its chart (no rolls; a rolled band counts only once rolled)
    /// and contact, the best of the two. `None` when the ruleset has no sighting rules,
    /// `observer` reads no chart, or neither gives a level. This is what the next sighting
    /// update would give the pair, so the referee's tape measure agrees with the charts.
    #[must_use]
    pub fn sighting_level(&self, state: &State, observer: &Piece, target: &Piece) -> Option<&str> {
        let s = self.sighting()?;
        if observer.side == target.side {
            return None;
        }
        let chart = self.level_from_chart(state, observer, target);
        let contact = self.in_contact(observer, target);
        let level = chart.into_iter().chain(contact).min()?;
        s.levels.get(usize::from(level)).map(|l| l.name.as_str())
    }

    /// True when the centre-to-centre line from `a` to `b` crosses no cell that blocks
    /// sight (terrain that blocks it, or a piece). A line running between two cells is
    /// blocked only when both block. Open tables: blocked by areas whose terrain blocks.
    #[must_use]
    pub fn clear_sight(&self, state: &State, a: &Piece, b: &Piece) -> bool {
        self.sight_line_clear(state, a, b, None)
    }

    /// [`Self::clear_sight`] as `side` can judge it: only pieces it knows are there block.
    #[must_use]
    pub fn clear_sight_as(&self, state: &State, a: &Piece, b: &Piece, side: SideId) -> bool {
        self.sight_line_clear(state, a, b, Some(side))
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
