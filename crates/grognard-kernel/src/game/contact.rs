//! Contact, on the open table and on a grid: the code takes them in that order.
//!
//! "Contact" is three rules of the ruleset, each kept here:
//!
//! | the rule | what it does | kept by |
//! |---|---|---|
//! | an action's `contact: true` (open table) | a charge ends with the actor's front edge against the target's edge facing it; the engine puts it there | [`Game::contact_place`], `make_contact` |
//! | `open_table.contact_flag` | a flag kept set on exactly the pieces whose footprints touch an enemy's, after every order and at the start | `keep_contact_flags` |
//! | `sighting.contact` (grid) | a move or a spread into enemies the side has not sighted, or a step within the rule's reach of an enemy, ends in contact: the pieces met deploy and the mover with them | [`Game::unseen_enemies_at`], [`Game::meets_there`], [`Game::new_contacts`], [`Game::contact_event`] |
//!
//! On the open table (issue 21) the charge's placement is constructed below. On a grid
//! (issue 19 and the square-blocks rounds) the moves that ask are in `moves.rs` and
//! `march.rs`, and the contact levels of sighting are in `crate::knowledge`.
//!
//! The charge's placement on the open table, documented in docs/ruleset-format.md
//! ("Contact"):
//! - the target's edge facing the actor is the edge of the arc the actor stands in, judged
//!   from the target's edges as every arc is
//!   ([`Placed::arc`](crate::geometry::footprint::Placed::arc)): the front edge, the rear
//!   edge, or the left or right flank edge (left or right by the side of the target's
//!   centre line the actor's centre is on);
//! - the actor turns to face straight into that edge (the edge's outward direction,
//!   reversed) and stands with the centre of its front edge on the point of that edge
//!   nearest its own centre — lined up with the target where it came from, its front
//!   edge's centre kept within the edge (a charger square in front of a line's end meets
//!   that end; two columns charging one line side by side meet it side by side);
//! - a piece without a footprint is a point: its point is its front edge's centre, and as
//!   a target its one point is every edge's centre.
//!
//! The placement must leave the actor's whole footprint on the table, clear of every unit
//! but the target, and out of every terrain area its movement class cannot enter (cavalry
//! is not put in a wood); otherwise the action is refused and nothing changes — but for a
//! place whose only overlap is with units the side has not sighted: the charge then stops
//! where the actor stands, spent, nothing rolled (`charge_meets_unseen`,
//! `stopped_by_unseen`, as a move or a mode change that meets them). It is not a move: the
//! action's own range says how far a charge reaches, and no allowance, terrain cost or zone
//! applies to it.

use crate::action::{Ban, Event, Refusal};
use crate::geometry::Arc;
use crate::geometry::Cell;
use crate::geometry::footprint::Footprint;
use crate::geometry::open::{self, Angle, Len, Point};
use crate::ids::{CounterId, PieceId, SideId};
use crate::piece::{Piece, Place};
use crate::rules::{Effect, Who};
use crate::state::State;

use super::bans::{ContactBan, MoveBan, PieceBan};
use super::{Game, Resolution};

/// The point of the segment `a`–`b` nearest `p` (its projection, kept within the
/// segment), rounded to the nearest thou.
fn nearest_on(a: Point, b: Point, p: Point) -> Point {
    let (dx, dy) = (i128::from(b.x.0 - a.x.0), i128::from(b.y.0 - a.y.0));
    let len2 = dx * dx + dy * dy;
    if len2 == 0 {
        return a;
    }
    let dot = i128::from(p.x.0 - a.x.0) * dx + i128::from(p.y.0 - a.y.0) * dy;
    let dot = dot.clamp(0, len2);
    // a + (b - a) · dot / len2, each coordinate rounded half away from zero.
    let along = |d: i128| {
        let n = d * dot;
        let q = (2 * n.abs() + len2) / (2 * len2);
        #[allow(clippy::cast_possible_truncation)] // within the segment's own coordinates
        let q = q as i64;
        if n < 0 { -q } else { q }
    };
    Point::new(Len(a.x.0 + along(dx)), Len(a.y.0 + along(dy)))
}

impl Game {
    /// Where `actor` stands in contact with `target`, in `state`: its centre and facing
    /// (see the module docs). `None` when either is not on the open table.
    #[must_use]
    pub fn contact_place(
        &self,
        state: &State,
        actor: PieceId,
        target: PieceId,
    ) -> Option<(Point, Angle)> {
        let a = state.pieces.get(actor.index())?;
        let t = state.pieces.get(target.index())?;
        let (
            Place::Point { at: a_at, .. },
            Place::Point {
                at: t_at,
                facing: t_facing,
            },
        ) = (&a.place, &t.place)
        else {
            return None;
        };
        let (a_at, t_at, t_facing) = (*a_at, *t_at, *t_facing);
        let theirs = super::placed_on(&self.rules, t)?;
        let mine = super::placed_on(&self.rules, a)?;
        let [fl, fr, rr, rl] = theirs.corners;
        // The edge facing the actor: its two ends and the direction pointing out of it.
        let ((p, q), out) = match theirs.arc(t_facing, &mine, self.rules.arcs) {
            Arc::Front | Arc::Same => ((fl, fr), t_facing),
            Arc::Rear => ((rr, rl), t_facing.opposite()),
            Arc::Flank => {
                // Right of the centre line: a bearing from the target less than half a
                // turn clockwise of its facing (the kernel's angles turn clockwise).
                let relative =
                    (open::bearing(t_at, a_at).tenths() - t_facing.tenths()).rem_euclid(3600);
                if relative < 1800 {
                    ((fr, rr), t_facing.turned(Angle(900)))
                } else {
                    ((rl, fl), t_facing.turned(Angle(-900)))
                }
            }
        };
        // Where on it: lined up with the actor's centre.
        let edge = nearest_on(p, q, a_at);
        let depth = self
            .footprint_in(a, a.mode)
            .unwrap_or(Footprint::POINT)
            .depth;
        let facing = out.opposite();
        let mut at = open::advance(edge, out, Len(depth.0 / 2));
        // Rounding to the thou can leave the two a thou inside each other: step out along
        // the edge's direction until they only touch.
        if let Some(f) = self.footprint_in(a, a.mode) {
            for _ in 0..4 {
                if !f.place(at, facing).overlaps(&theirs) {
                    break;
                }
                at = open::advance(at, out, Len(1));
            }
        }
        Some((at, facing))
    }

    /// The first terrain area that `piece`, standing at `place`, would stand in (any part
    /// of its footprint touching it; its point, without one) and that its movement class
    /// cannot enter, with the class's name. A charge may not end there, though the
    /// placement is not a move.
    pub(super) fn impassable_under(
        &self,
        piece: &Piece,
        (at, facing): (Point, Angle),
    ) -> Option<(String, String)> {
        let class = self
            .rules
            .piece_type(piece.kind)
            .and_then(|t| self.rules.move_classes.get(t.move_class.index()))?;
        let closed = |area: &&crate::board::Area| {
            class
                .enter
                .get(area.terrain.index())
                .is_some_and(Option::is_none)
        };
        let area = match self.footprint_in(piece, piece.mode) {
            Some(f) => self
                .board
                .areas_touching(&f.place(at, facing).corners)
                .find(closed),
            None => self.board.areas_crossed(at, at).find(closed),
        }?;
        Some((area.name.clone(), class.name.clone()))
    }
}

impl Resolution<'_> {
    /// Keeps the ruleset's `contact_flag` (if any) set on exactly the pieces on the open
    /// table whose footprints touch an enemy's (a point touches only what covers it),
    /// logging each change: run after every order, so units in base contact stay locked
    /// until one is gone or breaks off.
    pub(super) fn keep_contact_flags(&mut self) {
        let game = self.game;
        let Some(flag) = game.rules.open_table.contact_flag else {
            return;
        };
        let placed: Vec<Option<(crate::ids::SideId, crate::geometry::footprint::Placed)>> = self
            .next
            .pieces
            .iter()
            .map(|p| {
                p.on_board()
                    .then(|| super::placed_on(&game.rules, p).map(|f| (p.side, f)))
                    .flatten()
            })
            .collect();
        for (i, mine) in placed.iter().enumerate() {
            let touching = mine.as_ref().is_some_and(|(side, a)| {
                placed
                    .iter()
                    .flatten()
                    .any(|(other, b)| other != side && a.touches(b))
            });
            let Some(p) = self.next.pieces.get_mut(i) else {
                continue;
            };
            if p.flag(flag) != touching {
                p.set_flag(flag, touching);
                self.events.push(Event::FlagChanged {
                    piece: p.id,
                    flag: game.rules.flag_name(flag).to_owned(),
                    on: touching,
                });
            }
        }
    }

    /// An open-table order whose bases would run into enemies its side has not sighted (a
    /// move's end, a mode change's new shape, a charge's place against its target): the
    /// unit stays as it stands, in contact, its movement spent (and one off `spends`, the
    /// move counter the order would have used), and its side is told no more than that it
    /// met the enemy — as a grid move into unseen enemies ends in contact, rather than a
    /// refusal that would say something stands there and cost nothing to ask.
    pub(super) fn stopped_by_unseen(&mut self, id: PieceId, spends: Option<CounterId>) {
        let Some(p) = self.next.pieces.get_mut(id.index()) else {
            return;
        };
        p.moved = true;
        let text = format!("{} came into contact with the enemy and stopped", p.name);
        if let Some(counter) = spends {
            let effect = Effect::AddCounter {
                who: Who::Actor,
                counter,
                amount: -1,
            };
            self.apply_effect(&effect, id, None, 0);
        }
        self.events.push(Event::Note { text });
    }

    /// Puts `actor` in contact with `target` (see the module docs), with the events a move
    /// and a turn give; the pieces it carries go with it.
    ///
    /// # Errors
    /// The place is off the table or overlaps a unit other than the target (the caller's
    /// state is then left as it was).
    pub(super) fn make_contact(&mut self, actor: PieceId, target: PieceId) -> Result<(), Refusal> {
        let game = self.game;
        let refuse = |next: &State, ban: ContactBan| ban.refuse((next, actor, target));
        let Some((to, facing)) = game.contact_place(self.next, actor, target) else {
            return Err(refuse(self.next, ContactBan::NotOnTable));
        };
        let piece: Piece = self
            .next
            .pieces
            .get(actor.index())
            .cloned()
            .ok_or_else(|| PieceBan::NoSuchPiece(actor).refuse(game))?;
        let Place::Point {
            at: from,
            facing: old,
        } = piece.place
        else {
            return Err(MoveBan::OnGrid.refuse((game, &piece)));
        };
        if game.footprint_in(&piece, piece.mode).is_some() {
            // Clear of every unit but the target, which it touches.
            let fits = game.check_footprint_clear_of(
                self.next,
                &piece,
                (to, facing),
                piece.mode,
                Some(target),
            );
            if let Err(r) = fits {
                return Err(refuse(self.next, ContactBan::Blocked(r)));
            }
        } else if !game.board.contains_point(to) {
            return Err(refuse(self.next, ContactBan::OffTable(to)));
        }
        if let Some((area, class)) = game.impassable_under(&piece, (to, facing)) {
            return Err(refuse(self.next, ContactBan::Impassable { area, class }));
        }
        for p in &mut self.next.pieces {
            if p.id == actor || p.attached_to == Some(actor) {
                p.place = Place::Point { at: to, facing };
            }
        }
        if to != from {
            self.events.push(Event::MovedOnTable {
                piece: actor,
                from,
                to,
                cost: open::move_cost(from, to),
            });
        }
        if facing != old {
            self.events.push(Event::Faced {
                piece: actor,
                facing: facing.to_string(),
            });
        }
        Ok(())
    }
}

impl Game {
    /// Whether `actor`'s charge against `target` would run into units its side has not
    /// sighted: at its place against the target, its bases are on the table and overlap no
    /// unit the side knows of, but some it does not (a place that does not fit otherwise is
    /// left to [`Resolution::make_contact`] to refuse).
    pub(super) fn charge_meets_unseen(
        &self,
        state: &State,
        actor: PieceId,
        target: PieceId,
    ) -> bool {
        let (Some(piece), Some(place)) = (
            state.pieces.get(actor.index()),
            self.contact_place(state, actor, target),
        ) else {
            return false;
        };
        self.footprint_in(piece, piece.mode).is_some()
            && self
                .footprint_clash(state, piece, place, piece.mode, Some(target))
                .is_ok_and(|unseen| !unseen.is_empty())
    }
}

/// Contact on a grid under sighting rules: what a move or a spread into a cell meets.
impl Game {
    /// Enemy pieces at `cell` whose position `side` does not know.
    pub(crate) fn unseen_enemies_at(
        &self,
        state: &State,
        side: SideId,
        cell: Cell,
        mover: crate::ids::PieceTypeId,
    ) -> Vec<PieceId> {
        if self.sighting().is_none() {
            return Vec::new();
        }
        let knowledge = state.knowledge.get(side.index());
        state
            .pieces
            .iter()
            .filter(|p| {
                p.side != side
                    && p.on_board()
                    && p.place.covers(cell)
                    && self.rules.keeps_apart(mover, p.kind)
                    && !knowledge.is_some_and(|k| k.knows_position(p.id))
            })
            .map(|p| p.id)
            .collect()
    }

    /// Of the unseen enemies `unseen` holding `at`, those `piece` would be in contact with
    /// there under the ruleset's contact rule (its types, dummies): they deploy. When none
    /// is, the piece is only stopped short of `at` and learns nothing of what is there.
    pub(crate) fn meets_there(
        &self,
        piece: &Piece,
        at: Cell,
        unseen: Vec<PieceId>,
        state: &State,
    ) -> Vec<PieceId> {
        // Without a contact rule, walking into any unseen enemy is contact.
        if self.sighting().and_then(|s| s.contact.as_ref()).is_none() {
            return unseen;
        }
        let mut there = piece.clone();
        there.place = Place::Cell(at);
        unseen
            .into_iter()
            .filter(|q| {
                state
                    .pieces
                    .get(q.index())
                    .is_some_and(|q| self.in_contact(&there, q).is_some())
            })
            .collect()
    }

    /// Enemies a step from `from` to `to` brings `piece` into contact with, when the
    /// ruleset's contact ends moves.
    pub(crate) fn new_contacts(
        &self,
        state: &State,
        piece: &Piece,
        from: Cell,
        to: Cell,
    ) -> Vec<PieceId> {
        let Some(rule) = self
            .sighting()
            .and_then(|s| s.contact.as_ref())
            .filter(|c| c.stops)
        else {
            return Vec::new();
        };
        let again = rule.each_step;
        let mut before = piece.clone();
        before.place = Place::Cell(from);
        let mut after = piece.clone();
        after.place = Place::Cell(to);
        state
            .pieces
            .iter()
            .filter(|q| {
                self.in_contact(&after, q).is_some()
                    && (again || self.in_contact(&before, q).is_none())
            })
            .map(|q| q.id)
            .collect()
    }

    /// The contact event: the pieces met deploy first (they are not the mover's side),
    /// then the mover.
    pub(crate) fn contact_event(
        &self,
        _state: &State,
        mover: PieceId,
        at: Cell,
        mut met: Vec<PieceId>,
    ) -> Event {
        met.sort_unstable();
        met.push(mover);
        Event::Contact {
            piece: mover,
            at,
            deploy: met,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::nearest_on;
    use crate::geometry::open::{Len, Point};

    #[test]
    fn the_nearest_point_of_an_edge_is_kept_within_it() {
        let pt = |x, y| Point::new(Len(x), Len(y));
        let (a, b) = (pt(0, 0), pt(6000, 0));
        assert_eq!(nearest_on(a, b, pt(2000, 5000)), pt(2000, 0));
        assert_eq!(nearest_on(a, b, pt(-3000, 5000)), a);
        assert_eq!(nearest_on(a, b, pt(9000, -1000)), b);
        // A slanting edge: (0,0)-(3,3); the point (3,0) projects to its middle.
        assert_eq!(nearest_on(a, pt(3000, 3000), pt(3000, 0)), pt(1500, 1500));
        assert_eq!(nearest_on(a, a, pt(5, 5)), a);
    }
}
