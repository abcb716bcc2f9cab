//! Results that move units (`fall_back: N`, `follow_up: true` in a chart outcome's
//! effects): the loser of a melee falls back, the winner follows up.
//!
//! Falling back keeps the unit's facing and takes it away from the other piece of the
//! action:
//! - on an open table straight to its rear (its facing turned about), by the distance in
//!   rule inches, tried in quarter-inch steps: each must leave its bases on the table,
//!   clear of every other unit and out of terrain its movement class cannot enter;
//! - on a grid cell by cell: each step goes to the neighbour that is farther from the other
//!   piece, its rear cell first (for a type that faces), then the others in the grid's
//!   direction order; it must be on the board, enterable by its movement class, hold no
//!   enemy and keep the stacking limits.
//!
//! Where the way is blocked before the whole distance the ruleset's `blocked:` decides:
//! `stop` (where it got to), `stay` (it does not move) or `remove` (it is gone). It is not
//! a move: no allowance, cost or zone applies, and a piece it carries goes with it.
//!
//! Following up puts the unit back in contact with the other piece: on an open table by
//! the contact placement of a charge (`game/contact.rs`); on a grid cell by cell toward it
//! (each step to an enterable neighbour nearer to it) until next to it. When it cannot,
//! the log says why and nothing moves.

use crate::action::Event;
use crate::cost::Cost;
use crate::geometry::open::{self, Len, Point};
use crate::geometry::{Cell, Facing};
use crate::ids::PieceId;
use crate::piece::{Piece, Place};
use crate::rules::states::WhenBlocked;
use crate::state::State;

use super::{Game, Resolution};

/// An open-table fall back is tried in steps of this many thou (a quarter inch).
const TABLE_STEP: i64 = 250;

/// The squared distance between two cells' centres as drawn: it breaks ties between cells
/// the same number of steps away, toward the straight line.
fn centre_gap(grid: &crate::geometry::Grid, a: Cell, b: Cell) -> f64 {
    let ((ax, ay), (bx, by)) = (grid.center(a), grid.center(b));
    (ax - bx).powi(2) + (ay - by).powi(2)
}

impl Game {
    /// How far back `piece` gets on the table, trying `want` thou to its rear in quarter
    /// inches: the last point that fits, and the thou it got.
    fn table_fall_back(
        &self,
        state: &State,
        piece: &Piece,
        (at, facing): (Point, open::Angle),
        want: i64,
    ) -> (Point, i64) {
        let rear = facing.opposite();
        let (mut best, mut got) = (at, 0);
        let mut tried = 0;
        while tried < want {
            tried = (tried + TABLE_STEP).min(want);
            let p = open::advance(at, rear, Len(tried));
            let fits = match self.footprint_in(piece, piece.mode) {
                Some(_) => self
                    .check_footprint_clear_of(state, piece, (p, facing), piece.mode, None)
                    .is_ok(),
                None => self.board.contains_point(p),
            } && self.impassable_under(piece, (p, facing)).is_none();
            if !fits {
                break;
            }
            (best, got) = (p, tried);
        }
        (best, got)
    }

    /// The cells `piece` falls back through from `start`, away from `other`, at most
    /// `want` of them (fewer where it is blocked).
    fn grid_fall_back(
        &self,
        state: &State,
        piece: &Piece,
        start: Cell,
        other: &Piece,
        want: u32,
    ) -> Vec<Cell> {
        let (Some(grid), Some(enemy)) = (self.board.grid(), other.place.cell()) else {
            return Vec::new();
        };
        let faces = self.rules.piece_type(piece.kind).is_some_and(|t| t.faces);
        let rear = Facing((piece.facing.0 + grid.facings() / 2) % grid.facings());
        let mut path = Vec::new();
        let mut at = start;
        for _ in 0..want {
            let far = grid.distance(at, enemy);
            // The rear cell first; then the farther cells, the one whose centre lies
            // farthest from the enemy's first (straight away from it).
            let mut others: Vec<Cell> = grid.neighbours(at).map(|(_, c)| c).collect();
            others.sort_by(|a, b| {
                centre_gap(grid, *b, enemy).total_cmp(&centre_gap(grid, *a, enemy))
            });
            let mut options: Vec<Cell> = Vec::new();
            if faces {
                options.push(grid.neighbour(at, rear));
            }
            options.extend(others);
            let step = options.into_iter().find(|c| {
                grid.distance(*c, enemy) > far
                    && !path.contains(c)
                    && self.may_stand(state, piece, *c)
            });
            match step {
                Some(c) => {
                    path.push(c);
                    at = c;
                }
                None => break,
            }
        }
        path
    }

    /// True when `piece` may be put in cell `c`: on the board, terrain its class enters,
    /// no enemy there (unless one of them shares cells), within the stacking limits.
    fn may_stand(&self, state: &State, piece: &Piece, c: Cell) -> bool {
        if !self.board.contains(c) {
            return false;
        }
        let enters = self
            .rules
            .piece_type(piece.kind)
            .and_then(|t| self.rules.move_classes.get(t.move_class.index()))
            .and_then(|m| m.enter.get(self.board.terrain(c).index()))
            .is_some_and(Option::is_some);
        let enemy = state.pieces.iter().any(|o| {
            o.side != piece.side
                && o.on_board()
                && o.place.covers(c)
                && self.rules.keeps_apart(piece.kind, o.kind)
        });
        enters
            && !enemy
            && self
                .stacking_problem(state, c, piece.id, piece.side, true)
                .is_none()
    }
}

impl Resolution<'_> {
    /// Moves `id` back by `distance`, away from `from` (see the module docs).
    pub(super) fn fall_back(
        &mut self,
        id: PieceId,
        from: PieceId,
        distance: Cost,
        blocked: WhenBlocked,
    ) {
        let game = self.game;
        let (Some(piece), Some(other)) = (
            self.next
                .pieces
                .get(id.index())
                .filter(|p| p.on_board())
                .cloned(),
            self.next
                .pieces
                .get(from.index())
                .filter(|p| p.on_board())
                .cloned(),
        ) else {
            return;
        };
        let (place, short) = match &piece.place {
            Place::Point { at, facing } => {
                let want = i64::from(game.scaled(distance).hundredths()) * 10;
                let (to, got) = game.table_fall_back(self.next, &piece, (*at, *facing), want);
                (
                    Place::Point {
                        at: to,
                        facing: *facing,
                    },
                    got < want,
                )
            }
            Place::Cell(start) => {
                let want = u32::try_from(distance.hundredths() / 100).unwrap_or(0);
                let path = game.grid_fall_back(self.next, &piece, *start, &other, want);
                let short = (path.len() as u32) < want;
                (Place::Cell(*path.last().unwrap_or(start)), short)
            }
            _ => return,
        };
        let name = piece.name.clone();
        let place = match (short, blocked) {
            (true, WhenBlocked::Remove) => {
                self.remove_piece(id, format!("{name} could not fall back"));
                return;
            }
            (true, WhenBlocked::Stay) => {
                self.events.push(Event::Note {
                    text: format!("{name} cannot fall back: the way is blocked; it stands"),
                });
                return;
            }
            (true, WhenBlocked::Stop) => {
                self.events.push(Event::Note {
                    text: format!("{name} falls back short: the way is blocked"),
                });
                place
            }
            (false, _) => place,
        };
        self.put(id, place, "falls back");
    }

    /// Moves `id` back into contact with `to` (see the module docs).
    pub(super) fn follow_up(&mut self, id: PieceId, to: PieceId) {
        let game = self.game;
        let (Some(piece), Some(other)) = (
            self.next
                .pieces
                .get(id.index())
                .filter(|p| p.on_board())
                .cloned(),
            self.next.pieces.get(to.index()).cloned(),
        ) else {
            return;
        };
        if !other.on_board() {
            self.events.push(Event::Note {
                text: format!(
                    "{} has nothing to follow up: {} is gone",
                    piece.name, other.name
                ),
            });
            return;
        }
        match &piece.place {
            Place::Point { .. } => {
                if let Err(r) = self.make_contact(id, to) {
                    self.events.push(Event::Note {
                        text: format!("{} does not follow up: {}", piece.name, r.message),
                    });
                }
            }
            Place::Cell(start) => {
                let Some(grid) = game.board.grid() else {
                    return;
                };
                let Some(target) = other.place.cell() else {
                    return;
                };
                let mut at = *start;
                while grid.distance(at, target) > 1 {
                    let near = grid.distance(at, target);
                    // Straight at it where it can: the nearer cell whose centre lies
                    // nearest the target's.
                    let step = grid
                        .neighbours(at)
                        .map(|(_, c)| c)
                        .filter(|c| {
                            grid.distance(*c, target) < near
                                && game.may_stand(self.next, &piece, *c)
                        })
                        .min_by(|a, b| {
                            let d = |c: Cell| centre_gap(grid, c, target);
                            d(*a).total_cmp(&d(*b))
                        });
                    match step {
                        Some(c) => at = c,
                        None => break,
                    }
                }
                if at == *start {
                    self.events.push(Event::Note {
                        text: format!("{} cannot follow up: the way is blocked", piece.name),
                    });
                } else {
                    self.put(id, Place::Cell(at), "follows up");
                }
            }
            _ => {}
        }
    }

    /// Puts `id` (and what it carries) at `place`, with the event a hook's placement gives.
    fn put(&mut self, id: PieceId, place: Place, why: &str) {
        let Some(old) = self.next.pieces.get(id.index()).map(|p| p.place.clone()) else {
            return;
        };
        if old == place {
            return;
        }
        for p in &mut self.next.pieces {
            if p.id == id || p.attached_to == Some(id) {
                p.place = place.clone();
            }
        }
        let name = self
            .next
            .pieces
            .get(id.index())
            .map_or("", |p| p.name.as_str());
        let reason = format!("{name} {why}");
        match (old, place) {
            (Place::Point { at: from, .. }, Place::Point { at: to, .. }) => {
                self.events.push(Event::PlacedOnTable {
                    piece: id,
                    from,
                    to,
                    reason,
                });
            }
            (Place::Cell(from), Place::Cell(to)) => self.events.push(Event::Placed {
                piece: id,
                from,
                to,
                reason,
            }),
            _ => {}
        }
    }

    /// Takes `id` off the board, as a chart's `remove` does, with `reason`.
    pub(super) fn remove_piece(&mut self, id: PieceId, reason: String) {
        if let Some(p) = self.next.pieces.get_mut(id.index())
            && p.on_board()
        {
            p.place = Place::Off;
            p.attached_to = None;
            self.events.push(Event::Removed { piece: id, reason });
        }
        for other in &mut self.next.pieces {
            if other.attached_to == Some(id) {
                other.attached_to = None;
            }
        }
    }
}
