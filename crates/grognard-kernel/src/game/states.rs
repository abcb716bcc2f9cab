//! What the engine keeps on pieces by itself from the ruleset's conditions: the friends
//! near a piece (a general's command radius: `from: actor.friends_within`, `while: { near:
//! ... }`), and flags that hold exactly while their condition does (`shaken: { while: {
//! counter: hits, at_least: 4 } }`), set and cleared both ways as counters change and
//! pieces move. The data is `crate::rules::states`.

use crate::action::Event;
use crate::geometry::open;
use crate::ids::{FlagId, PieceTypeId};
use crate::piece::{Piece, Place};
use crate::rules::states::{Holds, Near};
use crate::state::State;

use super::{Game, Resolution};

impl Game {
    /// How many friendly pieces of `near`'s types (the piece itself aside) stand within
    /// its distance of `piece` in `state`: edge to edge in rule inches on an open table,
    /// in cells on a grid. Pieces off the board never count.
    pub(crate) fn friends_within(&self, state: &State, piece: &Piece, near: &Near) -> i32 {
        if !piece.on_board() {
            return 0;
        }
        let count = state
            .pieces
            .iter()
            .filter(|f| {
                f.id != piece.id
                    && f.side == piece.side
                    && f.on_board()
                    && (near.types.is_empty() || near.types.contains(&f.kind))
                    && self.is_within(piece, f, near)
            })
            .count();
        i32::try_from(count).unwrap_or(i32::MAX)
    }

    /// True when `b` is within `near.within` of `a`.
    fn is_within(&self, a: &Piece, b: &Piece, near: &Near) -> bool {
        match (&a.place, &b.place) {
            (Place::Point { .. }, Place::Point { .. }) => self
                .rule_gap(a, b)
                .is_some_and(|gap| gap <= open::Len(i64::from(near.within.hundredths()) * 10)),
            _ => self
                .distance(a, b)
                .is_some_and(|d| i64::from(d) * 100 <= i64::from(near.within.hundredths())),
        }
    }

    /// Whether flag condition `holds` is true of `piece` in `state`.
    fn holds_for(&self, state: &State, piece: &Piece, holds: &Holds) -> bool {
        match holds {
            Holds::Counter { counter, .. } => holds
                .counter_level(*counter, piece.counter(*counter))
                .unwrap_or(false),
            Holds::Near(near) => self.friends_within(state, piece, near) > 0,
            Holds::NotNear(near) => self.friends_within(state, piece, near) == 0,
        }
    }
}

impl Resolution<'_> {
    /// Sets or clears every flag the ruleset keeps by a condition (`while:`) on every
    /// piece on the board so that it holds exactly while its condition does, logging each
    /// change. Run after every order and as the game starts, and for one piece's counter
    /// levels at once as a counter changes ([`Self::keep_levels_of`]).
    pub(super) fn keep_held_flags(&mut self) {
        let game = self.game;
        let held: Vec<(FlagId, &Holds, &[PieceTypeId])> = game
            .rules
            .flags
            .iter()
            .enumerate()
            .filter_map(|(i, f)| Some((FlagId(i as u16), f.holds.as_ref()?, &f.holds_types[..])))
            .collect();
        if held.is_empty() {
            return;
        }
        // Judged on the state as the order left it, then written, so that one piece's flag
        // never depends on the order the pieces are visited in.
        let mut changes = Vec::new();
        for p in self.next.pieces.iter().filter(|p| p.on_board()) {
            for (flag, holds, types) in &held {
                let on = applies(types, p) && game.holds_for(self.next, p, holds);
                if p.flag(*flag) != on {
                    changes.push((p.id, *flag, on));
                }
            }
        }
        for (id, flag, on) in changes {
            self.put_flag(id, flag, on);
        }
    }

    /// The counter-level flags of one piece, right after its counter `counter` changed:
    /// a later effect of the same result (or a trigger) sees them already.
    pub(super) fn keep_levels_of(
        &mut self,
        id: crate::ids::PieceId,
        counter: crate::ids::CounterId,
    ) {
        let game = self.game;
        let Some(p) = self.next.pieces.get(id.index()).filter(|p| p.on_board()) else {
            return;
        };
        let value = p.counter(counter);
        let changes: Vec<(FlagId, bool)> = game
            .rules
            .flags
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let on =
                    f.holds.as_ref()?.counter_level(counter, value)? && applies(&f.holds_types, p);
                let flag = FlagId(i as u16);
                (p.flag(flag) != on).then_some((flag, on))
            })
            .collect();
        for (flag, on) in changes {
            self.put_flag(id, flag, on);
        }
    }

    fn put_flag(&mut self, id: crate::ids::PieceId, flag: FlagId, on: bool) {
        let game = self.game;
        if let Some(p) = self.next.pieces.get_mut(id.index()) {
            p.set_flag(flag, on);
            self.events.push(Event::FlagChanged {
                piece: id,
                flag: game.rules.flag_name(flag).to_owned(),
                on,
            });
        }
    }
}

/// True when a held flag limited to `types` (none: every type) is kept on `piece`.
fn applies(types: &[PieceTypeId], piece: &Piece) -> bool {
    types.is_empty() || types.contains(&piece.kind)
}
