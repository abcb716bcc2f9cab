//! Lines of sight: whether terrain, walls or pieces block the line between two pieces, on
//! a grid (the cells the centre-to-centre line crosses) or on an open table (areas crossed,
//! and other units' footprints where the ruleset says pieces block there); and where a
//! piece on the open table stands (its footprint placed), which the lines run between.
//! Which pieces block is the caller's choice ([`Blockers`]): every piece, none, or only the
//! pieces a side knows of, so a side's sight is judged with what it can know.

use crate::board::Board;
use crate::geometry::footprint::Placed;
use crate::geometry::{Cell, LineCell};
use crate::ids::SideId;
use crate::piece::{Piece, Place};
use crate::rules::Rules;
use crate::state::{State, World};

/// Which pieces block a line of sight.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Blockers {
    /// Every piece.
    All,
    /// No piece.
    None,
    /// Pieces the side knows of.
    KnownTo(SideId),
}

impl From<Option<SideId>> for Blockers {
    fn from(side: Option<SideId>) -> Self {
        side.map_or(Self::All, Self::KnownTo)
    }
}

impl From<bool> for Blockers {
    fn from(pieces_block: bool) -> Self {
        if pieces_block { Self::All } else { Self::None }
    }
}

/// True when no area whose terrain blocks sight lies across the line from `pa` to `pb`.
/// An area the observer or the target stands in does not hide them from each other (on a
/// grid, likewise, the two end cells do not count).
pub(crate) fn open_line_clear(
    rules: &Rules,
    board: &Board,
    pa: crate::geometry::open::Point,
    pb: crate::geometry::open::Point,
) -> bool {
    !board.areas_crossed(pa, pb).any(|area| {
        let Some(t) = rules.terrain.get(area.terrain.index()) else {
            return false;
        };
        // Standing inside excuses the area — from anywhere in it, or only near its edge.
        let excused = |p| {
            crate::board::point_in_polygon(p, &area.corners)
                && t.see_out_within
                    .is_none_or(|d| crate::geometry::footprint::near_boundary(p, &area.corners, d))
        };
        // A terrain seen through up to a distance hides only what lies farther off.
        let short = t
            .see_through
            .is_some_and(|d| crate::geometry::open::distance(pa, pb) <= d);
        t.blocks_sight && !excused(pa) && !excused(pb) && !short
    })
}

/// Whether footprint `a` sees footprint `b` on the open table (terrain only: pieces do not
/// block there): from `a`'s front edge's ends and centre to `b`'s corners and centre, any
/// line clear.
pub(crate) fn footprints_see(
    rules: &Rules,
    board: &Board,
    a: &crate::geometry::footprint::Placed,
    b: &crate::geometry::footprint::Placed,
) -> bool {
    let ends = b.sight_to();
    a.sight_from()
        .into_iter()
        .any(|pa| ends.iter().any(|pb| open_line_clear(rules, board, pa, *pb)))
}

/// Where a piece on the open table stands: its footprint in its present mode, placed at
/// its point and facing (a point for a piece without one). `None` off the open table.
#[must_use]
pub fn placed_on(rules: &Rules, p: &Piece) -> Option<Placed> {
    let Place::Point { at, facing } = &p.place else {
        return None;
    };
    let footprint = footprint_of(rules, p, p.mode);
    Some(footprint.map_or_else(|| Placed::point(*at), |f| f.place(*at, *facing)))
}

/// A piece's footprint in `mode`: its own where the scenario gave it one, else its
/// type's (`None`: a point).
#[must_use]
pub fn footprint_of(
    rules: &Rules,
    p: &Piece,
    mode: crate::ids::ModeId,
) -> Option<crate::geometry::footprint::Footprint> {
    match &p.footprint {
        Some(own) => own.get(mode.index()).copied().flatten(),
        None => rules
            .piece_type(p.kind)
            .and_then(|t| t.footprint.get(mode.index()).copied().flatten()),
    }
}

/// True when the line from `a` to `b` is not blocked by terrain, walls or (where
/// `piece_blocks` says so; `None`: no piece blocks) pieces: the test behind
/// [`Game::clear_sight`].
pub(crate) fn line_clear(
    rules: &Rules,
    board: &Board,
    state: &State,
    a: &Piece,
    b: &Piece,
    piece_blocks: Option<impl Fn(&Piece) -> bool>,
) -> bool {
    match (&a.place, &b.place) {
        (Place::Point { .. }, Place::Point { .. }) => {
            // Between footprints: from the front edge's ends and centre to the target's
            // corners and centre, seen when any line is clear (one line between points).
            let (Some(fa), Some(fb)) = (placed_on(rules, a), placed_on(rules, b)) else {
                return false;
            };
            // With `sight.pieces_block`, the footprints of the other units that block (as
            // the caller says) stand in the way; units without one do not.
            let blockers: Vec<Placed> = match &piece_blocks {
                Some(blocks) if rules.open_table.pieces_block_sight => state
                    .pieces
                    .iter()
                    .filter(|p| p.id != a.id && p.id != b.id && p.on_board() && blocks(p))
                    .filter(|p| footprint_of(rules, p, p.mode).is_some())
                    .filter_map(|p| placed_on(rules, p))
                    .collect(),
                _ => Vec::new(),
            };
            if blockers.is_empty() {
                return footprints_see(rules, board, &fa, &fb);
            }
            let ends = fb.sight_to();
            fa.sight_from().into_iter().any(|pa| {
                ends.iter().any(|pb| {
                    open_line_clear(rules, board, pa, *pb)
                        && !blockers
                            .iter()
                            .any(|x| crate::board::segment_touches_polygon(pa, *pb, &x.corners))
                })
            })
        }
        _ => {
            let (Some(ca), Some(cb), Some(grid)) = (a.place.cell(), b.place.cell(), board.grid())
            else {
                return false;
            };
            let line = grid.line(ca, cb);
            // The cells of the line a piece stands on that blocks: found with one walk over
            // the pieces for the whole line, and none at all when pieces do not block (the
            // sighting update asks for thousands of lines).
            let mut occupied: Vec<Cell> = Vec::new();
            if let Some(piece_blocks) = &piece_blocks {
                let on_line = |c: &Cell| {
                    line.iter().any(|e| match e {
                        LineCell::One(x) => x == c,
                        LineCell::Between(x, y) => x == c || y == c,
                    })
                };
                for p in state.pieces.iter().filter(|p| p.on_board()) {
                    let covered: &[Cell] = match &p.place {
                        Place::Cell(c) => std::slice::from_ref(c),
                        Place::Spread(cells) => cells,
                        Place::Point { .. } | Place::Off => &[],
                    };
                    let hit: Vec<Cell> = covered.iter().copied().filter(on_line).collect();
                    if !hit.is_empty() && piece_blocks(p) {
                        occupied.extend(hit);
                    }
                }
            }
            let blocks = |c: Cell| {
                c != ca
                    && c != cb
                    && (rules
                        .terrain
                        .get(board.terrain(c).index())
                        .is_some_and(|t| t.blocks_sight)
                        || occupied.contains(&c))
            };
            let feature_blocks = |a: Cell, b: Cell| {
                board.features_between(a, b).iter().any(|f| {
                    rules
                        .features
                        .get(f.index())
                        .is_some_and(|d| d.blocks_sight)
                })
            };
            let walls = line.windows(2).any(|w| match (w[0], w[1]) {
                (LineCell::One(a), LineCell::One(b)) => feature_blocks(a, b),
                _ => false,
            });
            !walls
                && line.into_iter().all(|entry| match entry {
                    LineCell::One(c) => !blocks(c),
                    LineCell::Between(x, y) => !(blocks(x) && blocks(y)),
                })
        }
    }
}

impl World<'_> {
    /// [`Game::clear_sight`](crate::game::Game::clear_sight) for hooks: true when the line from `a` to `b` crosses nothing
    /// that blocks sight (terrain, walls, or on a grid any piece).
    #[must_use]
    pub fn clear_sight(&self, a: &Piece, b: &Piece) -> bool {
        line_clear(
            self.rules,
            self.board,
            self.state,
            a,
            b,
            Some(|_: &Piece| true),
        )
    }
}
