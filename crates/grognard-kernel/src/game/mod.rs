//! A game in progress: the rules, the board, the pieces, the phase cursor and the RNG.
//!
//! [`Game::apply`] is the only way to change a game. It works on a copy of the state and
//! commits it only when the whole action succeeded, so a refusal — or a failing hook —
//! leaves the game exactly as it was, RNG position included.
//!
//! This file keeps [`Game`], its accessors and `apply`'s gate and dispatch. Each concern is
//! a file beside it, with an `impl Game` block for its questions and an `impl Resolution`
//! block for the changes it makes (`resolution.rs` says why the two are apart);
//! docs/architecture.md's code map names every file and what it owns (one list, kept there,
//! so the two cannot drift).
//!
//! The modules these call ([`crate::state`], [`crate::knowledge`], [`crate::turning`],
//! [`crate::march`], [`crate::company`], [`crate::reach`], [`crate::hooks`]) never import
//! anything from here.

mod actions;
mod bans;
mod bases;
mod contact;
mod deploy;
mod fall_back;
mod hook_commands;
mod knowledge;
mod legal;
mod march;
mod measure;
mod moves;
pub(crate) mod placement;
mod resolution;
mod sequence;
mod setup;
mod states;
mod step_words;
mod steps;
mod threat;
mod turning;
mod view;
mod world;

pub use crate::state::{Reach, Stage, State, World, roll_record};
use bans::{MoveBan, PhaseBan};
pub use bans::{NotMoving, NotMovingWhy};
pub use legal::{Breadth, OPEN_FRACTIONS, OPEN_HEADINGS, ROUGH_TARGETS};
pub use measure::{footprint_of, footprints_see, placed_on};
pub use moves::MoveToCost;
pub(crate) use resolution::Resolution;
pub use setup::{PieceSetup, Setup, SetupError};

use std::sync::Arc;

use crate::action::{Action, Ban, Event, Order, Refusal};
use crate::board::{Board, SideDef};
use crate::hooks::{HookPoint, Hooks};
use crate::ids::{PieceId, SideId};
use crate::piece::Piece;
use crate::rules::{Allowed, PhaseDef, Rules};

/// How deep counter triggers may chain before the kernel stops them (a ruleset whose
/// triggers feed each other must not hang the game).
pub(crate) const MAX_TRIGGER_DEPTH: u32 = 8;

/// A game.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Arc<Rules>,
    /// What decides the game: the scenario's victory conditions, else the ruleset's.
    victory: Option<crate::victory::VictoryRules>,
    board: Arc<Board>,
    sides: Vec<SideDef>,
    turns: u32,
    pub(crate) state: State,
    log: Vec<Event>,
    /// Each side's log: what it saw of the events in `log` (kept only with sighting
    /// rules; otherwise every side sees the whole log).
    pub(crate) side_logs: Vec<Vec<Event>>,
    /// Orders the handles of enemy pieces a side learns of in one place (derived from
    /// the seed; see `assign_handles`).
    pub(crate) handle_key: u64,
    /// The set-up, when the scenario leaves deployments to the sides.
    pub(crate) deployment: Option<Arc<deploy::Deployment>>,
}

/// Why a side may not give an order now ([`Game::may_act`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum NotNow<'g> {
    /// The game is over.
    Over,
    /// The side is not one of this phase's actors.
    NotActor(&'g PhaseDef),
    /// The side has ended this phase.
    Ended(&'g PhaseDef),
}

/// Whether a piece of `kind` may move in `phase`: only the phase's movers move, save,
/// spread, gather, are lifted or turn in it (a phase naming no movers lets every piece).
/// The one statement of the rule: the order gate, the legal-order listing, the loss of
/// saved points at a phase's end and the CLI's notes all ask it.
#[must_use]
pub fn is_mover(phase: &PhaseDef, kind: crate::ids::PieceTypeId) -> bool {
    phase.movers.is_empty() || phase.movers.contains(&kind)
}

impl Game {
    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The shared handle to the rules.
    #[must_use]
    pub fn rules_arc(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The sides.
    #[must_use]
    pub fn sides(&self) -> &[SideDef] {
        &self.sides
    }

    /// The names of a piece's side and type, for listings (`?` for unknown ones).
    #[must_use]
    pub fn side_and_type_names(&self, piece: &Piece) -> (&str, &str) {
        (
            self.sides
                .get(piece.side.index())
                .map_or("?", |s| s.name.as_str()),
            self.rules
                .piece_type(piece.kind)
                .map_or("?", |t| t.name.as_str()),
        )
    }

    /// The state.
    #[must_use]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The number of turns in this game.
    #[must_use]
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Every event so far.
    #[must_use]
    pub fn log(&self) -> &[Event] {
        &self.log
    }

    /// A piece by id.
    #[must_use]
    pub fn piece(&self, id: PieceId) -> Option<&Piece> {
        self.state.pieces.get(id.index())
    }

    /// A piece by scenario name.
    #[must_use]
    pub fn piece_by_name(&self, name: &str) -> Option<&Piece> {
        self.state.pieces.iter().find(|p| p.name == name)
    }

    /// A side by name.
    #[must_use]
    pub fn side_by_name(&self, name: &str) -> Option<SideId> {
        self.sides
            .iter()
            .position(|s| s.name == name)
            .map(|i| SideId(i as u8))
    }

    /// A read-only view for hooks and queries.
    #[must_use]
    pub fn world(&self) -> World<'_> {
        World {
            rules: &self.rules,
            board: &self.board,
            sides: &self.sides,
            state: &self.state,
        }
    }

    /// Asks a ruleset's check (`check:` beside an action script, `may_face` beside the
    /// `faced` hook) on `state` as it stands; the reason it gives refuses the order.
    pub(super) fn ask_check(
        &self,
        state: &State,
        check: impl FnOnce(&World<'_>) -> Result<(), crate::hooks::HookFailure>,
    ) -> Result<(), Refusal> {
        let world = World {
            rules: &self.rules,
            board: &self.board,
            sides: &self.sides,
            state,
        };
        check(&world).map_err(bans::hook_failed)
    }

    /// The current phase and its phasing side, or `None` when the game is over.
    #[must_use]
    pub fn phase(&self) -> Option<(&PhaseDef, SideId)> {
        match self.state.stage {
            Stage::Over(_) => None,
            Stage::SettingUp => {
                let first = self.state.done.iter().position(|d| !*d).unwrap_or(0);
                Some((&deploy::SETUP_PHASE, SideId(first as u8)))
            }
            Stage::Playing => self
                .rules
                .turn_plan_step(
                    &self.state.order,
                    &self.state.options,
                    self.state.step as usize,
                )
                .map(|(p, s)| (p, SideId(s as u8))),
        }
    }

    /// The whole state as canonical bytes (JSON), for "nothing changed" checks.
    #[must_use]
    pub fn state_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(&self.state).unwrap_or_default()
    }

    /// Applies an order: validates it, resolves it and returns what happened, or refuses
    /// it and changes nothing.
    ///
    /// # Errors
    /// A [`Refusal`] saying what was wrong.
    pub fn apply(&mut self, order: &Order, hooks: &mut dyn Hooks) -> Result<Vec<Event>, Refusal> {
        let (mut next, mut events) = self.resolve(order, hooks)?;
        let mut resolution = Resolution::new(self, &mut next, &mut events, hooks);
        resolution.decide()?;
        resolution.update_knowledge();
        let seen = self.seen_by_sides(&self.state, &next, &events, Some(order.side));
        self.append_side_logs(seen, &mut next);
        let built = self.state.built.len();
        self.state = next;
        self.draw_built(built);
        self.log.extend(events.iter().cloned());
        Ok(events)
    }

    /// How the game ended (`None` while it goes on).
    #[must_use]
    pub fn result(&self) -> Option<&crate::victory::GameResult> {
        self.state.result()
    }

    /// Checks and resolves an order on a copy of the state: the new state and the events,
    /// before knowledge is updated. [`Game::apply`] commits it; [`Game::legal_orders`]
    /// tries candidates with [`Game::resolve_into`] and keeps the game as it was. The state
    /// is copied once, after the phase's gate has let the order through.
    pub(crate) fn resolve(
        &self,
        order: &Order,
        hooks: &mut dyn Hooks,
    ) -> Result<(State, Vec<Event>), Refusal> {
        let gate = self.gate(order)?;
        let mut next = self.state.clone();
        let events = self.resolve_past_gate(order, hooks, &mut next, gate)?;
        Ok((next, events))
    }

    /// [`Game::resolve`] into `next`, which is made a copy of the state with `clone_from`
    /// once the gate lets the order through (so a scratch state reused for many trials
    /// allocates nothing, and an order the gate refuses copies nothing); on a refusal
    /// `next` holds a partial resolution, to be ignored.
    ///
    /// # Errors
    /// A [`Refusal`] saying what was wrong.
    pub(crate) fn resolve_into(
        &self,
        order: &Order,
        hooks: &mut dyn Hooks,
        next: &mut State,
    ) -> Result<Vec<Event>, Refusal> {
        let gate = self.gate(order)?;
        next.clone_from(&self.state);
        self.resolve_past_gate(order, hooks, next, gate)
    }

    /// The phase's gate: may this side act now ([`Self::side_may_act`]), and, past the
    /// set-up, does the phase allow this order ([`Self::phase_allows_order`]). The current
    /// phase, its phasing side, and whether the order is the set-up's.
    fn gate(&self, order: &Order) -> Result<(&PhaseDef, SideId, bool), Refusal> {
        let (phase, phasing) = self.side_may_act(order)?;
        let setup = self.state.setting_up() || matches!(order.action, Action::Deploy { .. });
        if !setup {
            self.phase_allows_order(order, phase)?;
        }
        Ok((phase, phasing, setup))
    }

    /// The order's own resolution once the gate has let it through, on `next`, a copy of
    /// the state: the set-up's orders, or the dispatch to the order's file; held and
    /// contact flags are brought up to date after a dispatch.
    fn resolve_past_gate(
        &self,
        order: &Order,
        hooks: &mut dyn Hooks,
        next: &mut State,
        (phase, phasing, setup): (&PhaseDef, SideId, bool),
    ) -> Result<Vec<Event>, Refusal> {
        let mut events = Vec::new();
        if setup {
            Resolution::new(self, next, &mut events, hooks).resolve_setup(order)?;
            return Ok(events);
        }
        let mut resolution = Resolution::new(self, next, &mut events, hooks);
        resolution.dispatch(order, (phase, phasing))?;
        resolution.keep_contact_flags();
        resolution.keep_held_flags();
        Ok(events)
    }

    /// The first half of the gate: the game goes on, the side exists, acts in this phase
    /// and has not ended it, and the order names nothing the side cannot see. The current
    /// phase and its phasing side.
    fn side_may_act(&self, order: &Order) -> Result<(&PhaseDef, SideId), Refusal> {
        let side = (self.sides.get(order.side.index())).map(|s| s.name.as_str());
        let (phase, phasing) = match (self.may_act(order.side), side) {
            (Err(NotNow::Over), _) => return Err(PhaseBan::GameOver.refuse(self)),
            (_, None) => return Err(PhaseBan::NoSuchSide.refuse(self)),
            (Err(NotNow::NotActor(phase)), Some(side)) => {
                return Err(PhaseBan::MayNotAct { side, phase }.refuse(self));
            }
            (Err(NotNow::Ended(phase)), Some(side)) => {
                return Err(PhaseBan::Ended { side, phase }.refuse(self));
            }
            (Ok(now), Some(_)) => now,
        };
        self.hidden_guard(order)?;
        Ok((phase, phasing))
    }

    /// The second half of the gate, once the turns are played: the phase allows this kind
    /// of order, and its piece is one of the phase's movers.
    fn phase_allows_order(&self, order: &Order, phase: &PhaseDef) -> Result<(), Refusal> {
        // A piece without facing has none to change, whatever the phase allows.
        if let Action::Face { piece, .. } = &order.action
            && let Some(p) = self.state.pieces.get(piece.index())
            && p.side == order.side
            && let Some(t) = self.rules.piece_type(p.kind)
            && !t.faces
        {
            return Err(MoveBan::NoFacing.refuse((self, p)));
        }
        let needs = match &order.action {
            Action::Move { .. } | Action::MoveTo { .. } => Some(Allowed::Move),
            Action::Face { .. } => Some(Allowed::Face),
            Action::Mode { .. } => Some(Allowed::Mode),
            Action::Act { action, .. } => Some(Allowed::Action(*action)),
            Action::EndPhase | Action::Deploy { .. } => None,
            Action::Redeploy { .. }
            | Action::Save { .. }
            | Action::Extend { .. }
            | Action::Gather { .. } => Some(Allowed::Move),
        };
        if let Some(needs) = needs
            && !phase.allows.contains(&needs)
        {
            return Err(PhaseBan::NotAllowed { phase, needs }.refuse(self));
        }
        // Every kind is named, so a new order kind must say whether only movers give it.
        let mover = match &order.action {
            Action::Move { piece, .. }
            | Action::MoveTo { piece, .. }
            | Action::Save { piece, .. }
            | Action::Extend { piece, .. }
            | Action::Gather { piece }
            | Action::Redeploy { piece, .. }
            | Action::Face { piece, .. } => Some(piece),
            Action::Mode { .. } | Action::Act { .. } | Action::EndPhase | Action::Deploy { .. } => {
                None
            }
        };
        if let Some(piece) = mover
            && let Some(p) = self.state.pieces.get(piece.index())
            && p.side == order.side
            && !is_mover(phase, p.kind)
        {
            return Err(PhaseBan::NotMover(phase).refuse(self));
        }
        Ok(())
    }

    /// `side`'s piece `id` on the board, or the [`bans::PieceBan`] that says why not.
    pub(crate) fn own_piece<'s>(
        &self,
        state: &'s State,
        side: SideId,
        id: PieceId,
    ) -> Result<&'s Piece, Refusal> {
        let piece = state
            .pieces
            .get(id.index())
            .ok_or_else(|| bans::PieceBan::NoSuchPiece(id).refuse(self))?;
        if piece.side != side {
            return Err(bans::PieceBan::NotYours(id, Some(piece)).refuse(self));
        }
        if !piece.on_board() {
            return Err(bans::PieceBan::OffBoard(piece).refuse(self));
        }
        Ok(piece)
    }
}

impl Resolution<'_> {
    /// Ends the game here, before its turns are played out (a sudden win or loss, or the
    /// `result` hook's verdict): the stage and the `game_over` event every side sees.
    fn end_game_now(&mut self) {
        self.next.stage = Stage::Over(None);
        self.events.push(Event::GameOver {
            turns: self.next.turn,
        });
    }

    /// Ends the game when a side has lost or won at once (by the data's victory conditions
    /// or the `result` hook), and records the result of a game that has ended (with its
    /// `game_result` event, which every side sees).
    ///
    /// # Errors
    /// The `result` hook failed, or tried to change the game.
    fn decide(&mut self) -> Result<(), Refusal> {
        let game = self.game;
        // Nothing is decided while the sides are still deploying, nor twice.
        match self.next.stage {
            Stage::SettingUp | Stage::Over(Some(_)) => return Ok(()),
            Stage::Playing | Stage::Over(None) => {}
        }
        let loser = if self.next.over() {
            None
        } else {
            let loss = game
                .victory
                .as_ref()
                .and_then(|v| crate::victory::sudden_loss(v, &game.sides, self.next));
            let won = game
                .victory
                .as_ref()
                .and_then(|v| crate::victory::sudden_win(v, &game.board, &game.sides, self.next));
            if loss.is_some() || won.is_some() {
                self.end_game_now();
            }
            loss
        };
        let points = |state: &State| {
            game.victory.as_ref().map_or_else(
                || vec![0; game.sides.len()],
                |v| crate::victory::points(v, &game.board, &game.sides, state),
            )
        };
        let world = World {
            rules: &game.rules,
            board: &game.board,
            sides: &game.sides,
            state: self.next,
        };
        let verdict = self
            .hooks
            .result(&world, self.next.over(), &|| points(world.state))
            .map_err(bans::hook_failed)?;
        let result = match verdict {
            Some(v) => {
                if !self.next.over() {
                    self.end_game_now();
                }
                crate::victory::GameResult {
                    winner: v.winner,
                    points: points(self.next),
                    why: v.why,
                }
            }
            None if self.next.over() => crate::victory::result(
                game.victory.as_ref(),
                &game.board,
                &game.sides,
                self.next,
                loser,
            ),
            None => return Ok(()),
        };
        let name = |s: SideId| {
            game.sides
                .get(s.index())
                .map_or_else(String::new, |d| d.name.clone())
        };
        self.events.push(Event::GameResult {
            winner: result.winner.map(name),
            points: game
                .sides
                .iter()
                .zip(&result.points)
                .map(|(d, p)| (d.name.clone(), *p))
                .collect(),
            why: result.why.clone(),
        });
        self.next.stage = Stage::Over(Some(result));
        Ok(())
    }

    /// Resolves an order the gate let through, each kind by the file that owns it.
    fn dispatch(
        &mut self,
        order: &Order,
        (phase, phasing): (&PhaseDef, SideId),
    ) -> Result<(), Refusal> {
        let game = self.game;
        let side = order.side;
        match &order.action {
            Action::Move { piece, path } => {
                self.do_move(side, *piece, path)?;
                if self.hooks.is_bound(HookPoint::MayMove) {
                    game.ask_may_move_on_grid(&game.state, *piece, path, self.hooks)?;
                }
                Ok(())
            }
            Action::MoveTo { piece, to, facing } => {
                self.do_move_to(side, *piece, *to, *facing)?;
                if self.hooks.is_bound(HookPoint::MayMove) {
                    game.ask_may_move(&game.state, *piece, *to, *facing, self.hooks)?;
                }
                self.after_move_to(side, *piece)
            }
            Action::Face { piece, facing } => {
                let before = self.next.pieces.get(piece.index()).map(|p| p.facing);
                self.do_face(side, *piece, *facing)?;
                if self.hooks.is_bound(HookPoint::MayFace) {
                    game.ask_may_face(&game.state, *piece, *facing, self.hooks)?;
                }
                match before {
                    Some(before) => self.after_face((side, *piece, before)),
                    None => Ok(()),
                }
            }
            Action::Mode { piece, mode } => {
                let before = self.next.pieces.get(piece.index()).map(|p| p.mode);
                self.do_mode(side, *piece, *mode)?;
                let Some(before) = before else {
                    return Ok(());
                };
                let id = *piece;
                self.run_game_hook(side, |hooks, world, dice| {
                    hooks.mode_changed(world, id, before, dice)
                })
            }
            Action::Act {
                piece,
                action,
                target,
                intent,
            } => self.do_act(side, *piece, (*action, intent), *target),
            Action::Redeploy { piece, to } => self.do_redeploy(side, *piece, *to),
            Action::Save { piece, toward } => self.do_save(side, *piece, *toward),
            Action::Extend { piece, to } => self.do_extend(side, *piece, *to),
            Action::Gather { piece } => self.do_gather(side, *piece),
            // Deploy orders never get here: the set-up resolves them (or refuses them late).
            Action::Deploy { .. } => Ok(()),
            Action::EndPhase => self.end_phase(side, (phase, phasing)),
        }
    }
}
