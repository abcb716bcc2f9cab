//! Carrying out what hooks ask for: a game hook run over the game's `World` with the side's
//! dice, its logged rolls, and each [`HookCommand`] validated and applied like any other effect
//! (counters and their triggers, flags, places, attachments, features built on the board).

use std::sync::Arc;

use crate::action::{Ban, Event, Refusal};
use crate::geometry::Cell;
use crate::hooks::{HookCommand, HookDice, HookFailure, Hooks};

/// What a game hook answers: the changes it asks for, or why it failed.
type HookAnswer = Result<Vec<HookCommand>, HookFailure>;
use crate::ids::{FeatureId, PieceId, SideId};
use crate::piece::Place;
use crate::rules::{Effect, Who};

use super::bans::{HookBan, hook_failed};
use super::{Game, Resolution};
use crate::state::World;

impl Game {
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
}

impl Resolution<'_> {
    /// Runs a game hook on behalf of `side` — it sees the state as it is now and rolls that
    /// side's dice — then logs its rolls and applies the changes it asks for.
    pub(super) fn run_game_hook(
        &mut self,
        side: SideId,
        call: impl FnOnce(&mut dyn Hooks, &World<'_>, &mut HookDice<'_>) -> HookAnswer,
    ) -> Result<(), Refusal> {
        self.run_hook(Some(side), call)
    }

    /// Runs a hook rolling the dice of `dice` (a side's, or the game's for `None`), logs its
    /// rolls and applies the changes it asks for.
    pub(super) fn run_hook(
        &mut self,
        dice: Option<SideId>,
        call: impl FnOnce(&mut dyn Hooks, &World<'_>, &mut HookDice<'_>) -> HookAnswer,
    ) -> Result<(), Refusal> {
        let game = self.game;
        // The hook reads the state as it is and rolls on a copy of the generator, put back
        // afterwards: no copy of the whole state per hook call.
        let mut rng = self.next.dice_of(dice).clone();
        let world = World {
            rules: &game.rules,
            board: &game.board,
            sides: &game.sides,
            state: self.next,
        };
        let mut hook_dice = HookDice::new(&mut rng, &game.rules);
        let commands = call(&mut *self.hooks, &world, &mut hook_dice).map_err(hook_failed)?;
        let rolls = hook_dice.into_rolls_placed();
        *self.next.dice_of(dice) = rng;
        // An announcement naming pieces written before a roll is logged before it (an owed
        // melee's note ahead of the melee's roll, [`is_note`]); every other change still
        // follows all its rolls.
        let mut commands: Vec<Option<HookCommand>> = commands.into_iter().map(Some).collect();
        for (queued, roll) in rolls {
            for slot in commands.iter_mut().take(queued) {
                if slot.as_ref().is_some_and(is_note) {
                    let note = slot.take().into_iter().collect();
                    self.apply_commands(note)?;
                }
            }
            self.events.push(Event::Rolled { roll });
        }
        self.apply_commands(commands.into_iter().flatten().collect())
    }

    /// Checks a feature a hook adds and records it in `next.built` (the board gets it when
    /// the order is done, [`Game::draw_built`]); logs it as a note.
    pub(super) fn add_feature(
        &mut self,
        feature: FeatureId,
        (a, b): (Cell, Cell),
        reason: &str,
    ) -> Result<(), Refusal> {
        let game = self.game;
        let Some(def) = game.rules.features.get(feature.index()) else {
            return Err(HookBan::NoSuch("feature").refuse(()));
        };
        let name = def.name.as_str();
        let Some(grid) = game.board.grid() else {
            return Err(HookBan::FeatureOnTable(name).refuse(()));
        };
        if !game.board.contains(a) || !game.board.contains(b) {
            return Err(HookBan::FeatureOffBoard(name, a, b).refuse(()));
        }
        if grid.direction_to(a, b).is_none() {
            return Err(HookBan::FeatureApart(name, a, b).refuse(()));
        }
        let key = crate::board::link_key(a, b);
        let already = game.board.features_between(a, b).contains(&feature)
            || self
                .next
                .built
                .iter()
                .any(|(x, y, f)| (*x, *y) == key && *f == feature);
        if already {
            return Ok(());
        }
        self.next.built.push((key.0, key.1, feature));
        self.events.push(Event::Note {
            text: format!("{} added between {a} and {b} ({reason})", def.name),
        });
        Ok(())
    }

    /// Applies what a hook asked for, each change validated and logged like an effect.
    pub(super) fn apply_commands(&mut self, commands: Vec<HookCommand>) -> Result<(), Refusal> {
        for command in commands {
            if let Some(p) = named_piece(&command)
                && self.next.pieces.get(p.index()).is_none()
            {
                return Err(no_such_piece(p));
            }
            self.apply_command(command)?;
        }
        Ok(())
    }

    /// One hook command, on a piece that exists: a change of counter, flag or mode as the
    /// effect it is (once the counter, flag or mode is found to exist), the others by the
    /// functions that own them.
    fn apply_command(&mut self, command: HookCommand) -> Result<(), Refusal> {
        let game = self.game;
        let rules = &*game.rules;
        let who = Who::Actor;
        let (effect, piece) = match command {
            HookCommand::AddCounter {
                piece,
                counter,
                amount,
            } => {
                exists(rules.counters.get(counter.index()), "counter")?;
                let effect = Effect::AddCounter {
                    who,
                    counter,
                    amount,
                };
                (effect, piece)
            }
            HookCommand::SetFlag { piece, flag, on } => {
                exists(rules.flags.get(flag.index()), "flag")?;
                (Effect::SetFlag { who, flag, on }, piece)
            }
            HookCommand::SetMode { piece, mode } => {
                exists(rules.modes.get(mode.index()), "mode")?;
                (Effect::SetMode { who, mode }, piece)
            }
            HookCommand::Remove { piece, reason } => {
                self.remove_by_hook(piece, reason);
                return Ok(());
            }
            HookCommand::Note(text) => {
                self.events.push(Event::Note { text });
                return Ok(());
            }
            HookCommand::NoteNaming {
                template,
                pieces,
                to_all,
            } => {
                if let Some(p) = pieces
                    .iter()
                    .find(|p| self.next.pieces.get(p.index()).is_none())
                {
                    return Err(no_such_piece(*p));
                }
                let text = crate::view::name_pieces(&template, &pieces, |p| {
                    self.next.pieces[p.index()].name.clone()
                });
                self.events.push(Event::NoteNaming {
                    text,
                    template,
                    pieces,
                    to_all,
                });
                return Ok(());
            }
            HookCommand::Announce(text) => {
                self.events.push(Event::Announced { text });
                return Ok(());
            }
            HookCommand::Place {
                piece,
                cell,
                reason,
            } => return self.place(piece, cell, reason),
            HookCommand::PlaceAt {
                piece,
                at,
                facing,
                reason,
            } => {
                return self.place_at(piece, at, facing, reason);
            }
            HookCommand::Contact { piece, with } => {
                if self.next.pieces.get(with.index()).is_none() {
                    return Err(no_such_piece(with));
                }
                return self
                    .make_contact(piece, with)
                    .map_err(|r| HookBan::Check(r).refuse(()));
            }
            HookCommand::Face { piece, facing } => {
                return self.face(piece, facing);
            }
            HookCommand::Attach { piece, to } => {
                return self.attach(piece, to);
            }
            HookCommand::AddFeature {
                feature,
                a,
                b,
                reason,
            } => return self.add_feature(feature, (a, b), &reason),
        };
        self.apply_effect(&effect, piece, None, 0);
        Ok(())
    }

    /// A hook's removal: the piece leaves the board, with the hook's reason, and lets go of its
    /// host and of what it carried. Nothing happens to a piece already off the board.
    fn remove_by_hook(&mut self, piece: PieceId, reason: String) {
        if let Some(p) = self.next.pieces.get_mut(piece.index())
            && p.on_board()
        {
            p.place = Place::Off;
            p.attached_to = None;
            self.events.push(Event::Removed { piece, reason });
            for other in &mut self.next.pieces {
                if other.attached_to == Some(piece) {
                    other.attached_to = None;
                }
            }
        }
    }
}

/// The piece a hook command names, if it names one.
fn named_piece(command: &HookCommand) -> Option<PieceId> {
    match command {
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
        | HookCommand::NoteNaming { .. }
        | HookCommand::Announce(_)
        | HookCommand::AddFeature { .. } => None,
    }
}

/// Whether a hook's change is logged where the script wrote it among its rolls: only an
/// announcement naming pieces (`game:announce` with pieces), which every side reads in its
/// own names. A side's plain notes still follow the rolls, as its other changes do: where a
/// note falls among them would count the changes the hook made to pieces the side cannot
/// see (`handles`' property test found the order differ with the enemy's hidden pieces).
fn is_note(c: &HookCommand) -> bool {
    matches!(c, HookCommand::NoteNaming { to_all: true, .. })
}

fn no_such_piece(p: PieceId) -> Refusal {
    HookBan::NoSuchPiece(p).refuse(())
}

/// A counter, flag or mode a hook named exists in the rules (`what` says which).
fn exists<T>(found: Option<&T>, what: &'static str) -> Result<(), Refusal> {
    match found {
        Some(_) => Ok(()),
        None => Err(HookBan::NoSuch(what).refuse(())),
    }
}
