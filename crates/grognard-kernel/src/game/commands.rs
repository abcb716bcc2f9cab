//! Carrying out what hooks ask for: a game hook run over the game's `World` with the side's
//! dice, its logged rolls, and each [`HookCommand`] validated and applied like any other effect
//! (counters and their triggers, flags, places, attachments, features built on the board).

use std::sync::Arc;

use crate::action::{Event, Refusal, RefusalKind};
use crate::geometry::Cell;
use crate::hooks::{HookCommand, HookDice};
use crate::ids::{FeatureId, SideId};
use crate::piece::Place;
use crate::rules::{Effect, Who};

use super::Game;
use crate::state::{State, World};

impl Game {
    /// Runs a game hook on behalf of `side` — it sees the state as it is now and rolls that
    /// side's dice — then logs its rolls and applies the changes it asks for.
    pub(super) fn run_game_hook(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        side: SideId,
        call: impl FnOnce(
            &World<'_>,
            &mut HookDice<'_>,
        ) -> Result<Vec<HookCommand>, crate::hooks::HookFailure>,
    ) -> Result<(), Refusal> {
        // The hook reads the state as it is and rolls on a copy of the side's generator,
        // put back afterwards: no copy of the whole state per hook call.
        let mut rng = next.dice_of(Some(side)).clone();
        let world = World {
            rules: &self.rules,
            board: &self.board,
            sides: &self.sides,
            state: next,
        };
        let mut dice = HookDice::new(&mut rng, &self.rules);
        let commands = call(&world, &mut dice)
            .map_err(|e| Refusal::new(RefusalKind::HookFailed, e.message))?;
        let rolls = dice.into_rolls();
        *next.dice_of(Some(side)) = rng;
        for roll in rolls {
            events.push(Event::Rolled { roll });
        }
        self.apply_commands(next, events, commands)
    }

    /// Checks a feature a hook adds and records it in `next.built` (the board gets it when
    /// the order is done, [`Game::draw_built`]); logs it as a note.
    pub(super) fn add_feature(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        feature: FeatureId,
        (a, b): (Cell, Cell),
        reason: &str,
    ) -> Result<(), Refusal> {
        let fail = |m: String| Err(Refusal::new(RefusalKind::HookFailed, m));
        let Some(def) = self.rules.features.get(feature.index()) else {
            return fail("a hook named a feature that does not exist".into());
        };
        let Some(grid) = self.board.grid() else {
            return fail(format!("cannot add a {} on an open table", def.name));
        };
        if !self.board.contains(a) || !self.board.contains(b) {
            return fail(format!(
                "cannot add a {} between {a} and {b}: off the board",
                def.name
            ));
        }
        if grid.direction_to(a, b).is_none() {
            return fail(format!(
                "cannot add a {} between {a} and {b}: they are not neighbours",
                def.name
            ));
        }
        let key = crate::board::link_key(a, b);
        let already = self.board.features_between(a, b).contains(&feature)
            || next
                .built
                .iter()
                .any(|(x, y, f)| (*x, *y) == key && *f == feature);
        if already {
            return Ok(());
        }
        next.built.push((key.0, key.1, feature));
        events.push(Event::Note {
            text: format!("{} added between {a} and {b} ({reason})", def.name),
        });
        Ok(())
    }

    /// Draws on the board the features hooks added since `from` entries of `built` (the
    /// board is shared between clones of a game, so it is copied first if need be).
    pub(super) fn draw_built(&mut self, from: usize) {
        if self.state.built.len() <= from {
            return;
        }
        let board = Arc::make_mut(&mut self.board);
        for (a, b, f) in self.state.built.iter().skip(from) {
            let list = board.links.entry((*a, *b)).or_default();
            if !list.contains(f) {
                list.push(*f);
            }
        }
    }

    /// Applies what a hook asked for, each change validated and logged like an effect.
    pub(super) fn apply_commands(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        commands: Vec<HookCommand>,
    ) -> Result<(), Refusal> {
        let rules = &*self.rules;
        for command in commands {
            let piece = match &command {
                HookCommand::AddCounter { piece, .. }
                | HookCommand::SetFlag { piece, .. }
                | HookCommand::SetMode { piece, .. }
                | HookCommand::Remove { piece, .. }
                | HookCommand::Place { piece, .. }
                | HookCommand::PlaceAt { piece, .. }
                | HookCommand::Face { piece, .. }
                | HookCommand::Contact { piece, .. }
                | HookCommand::Attach { piece, .. } => Some(*piece),
                HookCommand::Note(_)
                | HookCommand::Announce(_)
                | HookCommand::AddFeature { .. } => None,
            };
            if let Some(p) = piece
                && next.pieces.get(p.index()).is_none()
            {
                return Err(Refusal::new(
                    RefusalKind::HookFailed,
                    format!("a hook named piece #{}, which does not exist", p.0),
                ));
            }
            let effect = match command {
                HookCommand::AddCounter {
                    piece,
                    counter,
                    amount,
                } => {
                    if rules.counters.get(counter.index()).is_none() {
                        return Err(Refusal::new(
                            RefusalKind::HookFailed,
                            "a hook named a counter that does not exist",
                        ));
                    }
                    Some((
                        Effect::AddCounter {
                            who: Who::Actor,
                            counter,
                            amount,
                        },
                        piece,
                    ))
                }
                HookCommand::SetFlag { piece, flag, on } => {
                    if rules.flags.get(flag.index()).is_none() {
                        return Err(Refusal::new(
                            RefusalKind::HookFailed,
                            "a hook named a flag that does not exist",
                        ));
                    }
                    Some((
                        Effect::SetFlag {
                            who: Who::Actor,
                            flag,
                            on,
                        },
                        piece,
                    ))
                }
                HookCommand::SetMode { piece, mode } => {
                    if rules.modes.get(mode.index()).is_none() {
                        return Err(Refusal::new(
                            RefusalKind::HookFailed,
                            "a hook named a mode that does not exist",
                        ));
                    }
                    Some((
                        Effect::SetMode {
                            who: Who::Actor,
                            mode,
                        },
                        piece,
                    ))
                }
                HookCommand::Remove { piece, reason } => {
                    if let Some(p) = next.pieces.get_mut(piece.index())
                        && p.on_board()
                    {
                        p.place = Place::Off;
                        p.attached_to = None;
                        events.push(Event::Removed { piece, reason });
                        for other in &mut next.pieces {
                            if other.attached_to == Some(piece) {
                                other.attached_to = None;
                            }
                        }
                    }
                    None
                }
                HookCommand::Note(text) => {
                    events.push(Event::Note { text });
                    None
                }
                HookCommand::Announce(text) => {
                    events.push(Event::Announced { text });
                    None
                }
                HookCommand::Place {
                    piece,
                    cell,
                    reason,
                } => {
                    super::placement::place(self, next, events, piece, cell, reason)?;
                    None
                }
                HookCommand::PlaceAt {
                    piece,
                    at,
                    facing,
                    reason,
                } => {
                    super::placement::place_at(self, next, events, piece, at, facing, reason)?;
                    None
                }
                HookCommand::Contact { piece, with } => {
                    if next.pieces.get(with.index()).is_none() {
                        return Err(Refusal::new(
                            RefusalKind::HookFailed,
                            format!("a hook named piece #{}, which does not exist", with.0),
                        ));
                    }
                    self.make_contact(next, events, piece, with)
                        .map_err(|r| Refusal::new(RefusalKind::HookFailed, r.message))?;
                    None
                }
                HookCommand::Face { piece, facing } => {
                    super::placement::face(self, next, events, piece, facing)?;
                    None
                }
                HookCommand::Attach { piece, to } => {
                    super::placement::attach(next, events, piece, to)?;
                    None
                }
                HookCommand::AddFeature {
                    feature,
                    a,
                    b,
                    reason,
                } => {
                    self.add_feature(next, events, feature, (a, b), &reason)?;
                    None
                }
            };
            if let Some((effect, piece)) = effect {
                self.apply_effect(next, events, &effect, piece, None, 0);
            }
        }
        Ok(())
    }
}
