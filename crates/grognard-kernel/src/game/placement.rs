//! Changes of place, facing and attachment that hooks ask for outside a move: a rout that
//! carries a unit back, a retreat, an advance after combat, a commander joining a unit.
//! Each is checked here like the board would check a move's last step (on the board, not
//! held by the enemy, stacking), so a hook cannot put a piece where no piece may stand.

use super::Resolution;
use super::bans::HookBan;
use crate::action::{Ban, Event, Refusal};
use crate::cost::Cost;
use crate::geometry::footprint::Placed;
use crate::geometry::open::{Angle, Len, Point};
use crate::geometry::{Cell, Facing};
use crate::ids::PieceId;
use crate::piece::Place;
use crate::state::World;

/// A rule distance as measured on an open table played at a reduced scale (as
/// [`Game::scaled`](super::Game::scaled)).
fn scaled(rules: &crate::rules::Rules, c: Cost) -> Cost {
    match rules.geometry {
        crate::rules::GeometryRules::Open { scale } if scale.den > 0 => {
            let v = i64::from(c.hundredths()) * i64::from(scale.num);
            let d = i64::from(scale.den);
            Cost::from_hundredths(
                ((v + d / 2).div_euclid(d)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
            )
        }
        _ => c,
    }
}

impl Resolution<'_> {
    /// Puts `id` (and the pieces attached to it) in `cell`. A piece that is off the board
    /// comes on there (a reinforcement arriving), checked the same way.
    ///
    /// # Errors
    /// A refusal when the piece is on an open table, or the cell is off the board, held by an
    /// enemy piece or over a stacking limit for the piece's side.
    pub(super) fn place(&mut self, id: PieceId, cell: Cell, reason: String) -> Result<(), Refusal> {
        let game = self.game;
        let piece = (self.next.pieces.get(id.index()))
            .ok_or_else(|| HookBan::NoSuchPiece(id).refuse(()))?;
        let from = match &piece.place {
            Place::Off if game.board().grid().is_some() => None,
            other => Some(
                (other.cell()).ok_or_else(|| HookBan::PlaceNotOnCell(&piece.name).refuse(()))?,
            ),
        };
        if !game.board().contains(cell) {
            return Err(HookBan::PlaceOffBoard(&piece.name, cell).refuse(()));
        }
        let side = piece.side;
        let name = piece.name.clone();
        if self.next.pieces.iter().any(|p| {
            p.side != side
                && p.on_board()
                && p.place.covers(cell)
                && game.rules().keeps_apart(piece.kind, p.kind)
        }) {
            return Err(HookBan::PlaceOnEnemy(&name, cell).refuse(()));
        }
        if from == Some(cell) {
            return Ok(());
        }
        if let Some(problem) = game.stacking_problem(self.next, cell, id, side, true) {
            return Err(HookBan::PlaceCrowded(&name, cell, problem).refuse(()));
        }
        for p in &mut self.next.pieces {
            if p.id == id || p.attached_to == Some(id) {
                p.place = Place::Cell(cell);
            }
        }
        self.events.push(match from {
            Some(from) => Event::Placed {
                piece: id,
                from,
                to: cell,
                reason,
            },
            None => Event::Arrived {
                piece: id,
                at: cell,
                reason,
            },
        });
        Ok(())
    }

    /// Turns `id` to `facing`.
    ///
    /// # Errors
    /// A refusal on an open table or for a facing the grid does not have.
    pub(super) fn face(&mut self, id: PieceId, facing: Facing) -> Result<(), Refusal> {
        let game = self.game;
        let grid = game
            .board()
            .grid()
            .ok_or_else(|| HookBan::TurnOnTable.refuse(()))?;
        if facing.0 >= grid.facings() {
            return Err(HookBan::NoSuchFacing(facing.0).refuse(()));
        }
        if let Some(p) = self.next.pieces.get_mut(id.index())
            && p.on_board()
            && p.facing != facing
        {
            p.facing = facing;
            self.events.push(Event::Faced {
                piece: id,
                facing: grid.facing_name(facing).to_owned(),
            });
        }
        Ok(())
    }

    /// Attaches `id` to `to` (joining its cell), or detaches it.
    ///
    /// # Errors
    /// A refusal when either piece is off the board, the host is of another side or is the
    /// piece itself, or the host is itself attached to something.
    pub(super) fn attach(&mut self, id: PieceId, to: Option<PieceId>) -> Result<(), Refusal> {
        let Some(piece) = self.next.pieces.get(id.index()) else {
            return Err(HookBan::NoSuchPiece(id).refuse(()));
        };
        if !piece.on_board() {
            return Ok(());
        }
        let Some(host_id) = to else {
            if piece.attached_to.is_some() {
                if let Some(p) = self.next.pieces.get_mut(id.index()) {
                    p.attached_to = None;
                }
                self.events.push(Event::Attached {
                    piece: id,
                    to: None,
                });
            }
            return Ok(());
        };
        let host = (self.next.pieces.get(host_id.index()))
            .ok_or_else(|| HookBan::NoSuchPiece(host_id).refuse(()))?;
        if host_id == id || host.side != piece.side || !host.on_board() {
            return Err(HookBan::AttachNotOwn(&piece.name, &host.name).refuse(()));
        }
        if host.attached_to.is_some() || self.next.pieces.iter().any(|p| p.attached_to == Some(id))
        {
            return Err(HookBan::AttachChains(&piece.name, &host.name).refuse(()));
        }
        if piece.attached_to == Some(host_id) {
            return Ok(());
        }
        let place = host.place.clone();
        if let Some(p) = self.next.pieces.get_mut(id.index()) {
            p.attached_to = Some(host_id);
            p.place = place;
        }
        self.events.push(Event::Attached {
            piece: id,
            to: Some(host_id),
        });
        Ok(())
    }

    /// Puts `id` (and the pieces attached to it) at the point `to` of an open table, turned
    /// to `facing` if one is given: a retire, a victory move, a drift.
    ///
    /// # Errors
    /// A refusal when the piece is not on an open table or could not stand at `to` (see
    /// [`World::standing_problem`]).
    pub(super) fn place_at(
        &mut self,
        id: PieceId,
        to: Point,
        facing: Option<Angle>,
        reason: String,
    ) -> Result<(), Refusal> {
        let game = self.game;
        let world = World {
            state: self.next,
            ..game.world()
        };
        if let Some(problem) = world.standing_problem_facing(id, to, facing) {
            return Err(HookBan::PlaceCannotStand(problem).refuse(()));
        }
        let Some(Place::Point {
            at: from,
            facing: old,
        }) = self.next.pieces.get(id.index()).map(|p| p.place.clone())
        else {
            return Err(HookBan::PlaceNotOnTable(id).refuse(()));
        };
        let new_facing = facing.unwrap_or(old);
        for p in &mut self.next.pieces {
            if p.id == id || p.attached_to == Some(id) {
                p.place = Place::Point {
                    at: to,
                    facing: new_facing,
                };
            }
        }
        if from != to {
            self.events.push(Event::PlacedOnTable {
                piece: id,
                from,
                to,
                reason,
            });
        }
        if new_facing != old {
            self.events.push(Event::Faced {
                piece: id,
                facing: new_facing.to_string(),
            });
        }
        Ok(())
    }
}

impl World<'_> {
    /// Why `id` could not stand at the point `at` of an open table, facing as it does now,
    /// or `None` if it could (see [`Self::standing_problem_facing`]).
    #[must_use]
    pub fn standing_problem(&self, id: PieceId, at: Point) -> Option<String> {
        self.standing_problem_facing(id, at, None)
    }

    /// Why `id` could not stand at the point `at` of an open table, turned to `facing` (or
    /// as it faces now), or `None` if it could: the checks an open-table move makes of its
    /// end point. The point must be on the table, in terrain the piece's movement class
    /// may enter, and no nearer than the `open_table` keep-apart distance to an enemy piece
    /// it was not already that near (edge to edge where either has a footprint); a piece
    /// with a footprint must have its whole footprint on the table, overlapping no other
    /// unit's.
    #[must_use]
    pub fn standing_problem_facing(
        &self,
        id: PieceId,
        at: Point,
        facing: Option<Angle>,
    ) -> Option<String> {
        let rules = &**self.rules;
        let Some(piece) = self.state.pieces.get(id.index()) else {
            return Some(format!("piece #{} does not exist", id.0));
        };
        let Place::Point {
            at: from,
            facing: now,
        } = piece.place
        else {
            return Some(format!("{} is not on an open table", piece.name));
        };
        if !self.board.contains_point(at) {
            return Some(format!("{at} is off the table"));
        }
        let terrain = self.board.terrain_at(at);
        let enters = rules
            .piece_type(piece.kind)
            .and_then(|t| rules.move_classes.get(t.move_class.index()))
            .is_none_or(|c| c.enter.get(terrain.index()).copied().flatten().is_some());
        if !enters {
            let name = rules
                .terrain
                .get(terrain.index())
                .map_or("that terrain", |t| t.name.as_str());
            return Some(format!("{} may not stand in {name} at {at}", piece.name));
        }
        let footprint = super::footprint_of(rules, piece, piece.mode);
        let mine =
            footprint.map_or_else(|| Placed::point(at), |f| f.place(at, facing.unwrap_or(now)));
        let before = super::placed_on(rules, piece).unwrap_or_else(|| Placed::point(from));
        if footprint.is_some() {
            if let Some(c) = mine
                .corners
                .iter()
                .find(|c| !self.board.contains_point(**c))
            {
                return Some(format!(
                    "{}'s bases would leave the table (a corner at {c})",
                    piece.name
                ));
            }
            let clash = self.state.pieces.iter().find(|o| {
                o.id != piece.id
                    && o.on_board()
                    && o.attached_to != Some(piece.id)
                    && piece.attached_to != Some(o.id)
                    && super::footprint_of(rules, o, o.mode).is_some()
                    && super::placed_on(rules, o).is_some_and(|t| mine.overlaps(&t))
            });
            if let Some(o) = clash {
                return Some(format!("{}'s bases would overlap {}'s", piece.name, o.name));
            }
        }
        let keep_apart = scaled(rules, rules.open_table.keep_apart);
        let keep = Len(i64::from(keep_apart.hundredths()) * 10);
        if keep.0 > 0 {
            for enemy in self
                .state
                .pieces
                .iter()
                .filter(|p| p.side != piece.side && p.on_board())
            {
                let Some(theirs) = super::placed_on(rules, enemy) else {
                    continue;
                };
                let end = mine.distance(&theirs);
                if end < keep && end < before.distance(&theirs) {
                    return Some(format!(
                        "{} may not come within {keep_apart}\" of {} ({} from it at {at})",
                        piece.name,
                        enemy.name,
                        Cost::from_hundredths((end.0 / 10) as i32),
                    ));
                }
            }
        }
        None
    }
}
