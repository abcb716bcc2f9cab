//! The sequence of play: when a phase ends and which comes next, the initiative roll that
//! orders the sides each turn, and what happens as a phase begins (windows reset, saved
//! points lapse, knowledge updated, the phase hook run).

use crate::action::{Event, LoggedDie, Refusal};
use crate::hooks::{HookDice, HookPoint, Hooks};
use crate::ids::{FlagId, SideId};
use crate::rules::{Allowed, Clears, MoveLimit, PhaseDef};

use super::{Game, Resolution};
use crate::state::{Stage, State, World};

impl Game {
    /// What a phase may allow, in the words refusals use: `moving`, `changing facing`,
    /// `changing mode`, or the action's name.
    pub(super) fn allowed_words(&self, allowed: Allowed) -> String {
        match allowed {
            Allowed::Move => "moving".to_owned(),
            Allowed::Face => "changing facing".to_owned(),
            Allowed::Mode => "changing mode".to_owned(),
            Allowed::Action(id) => self
                .rules
                .actions
                .get(id.index())
                .map_or_else(|| "an action".to_owned(), |d| d.name.clone()),
        }
    }
}

impl Resolution<'_> {
    /// An `end_phase` order: `side` has ended the phase; once every side that acts in it
    /// has, the next phase begins.
    pub(super) fn end_phase(
        &mut self,
        side: SideId,
        (phase, phasing): (&PhaseDef, SideId),
    ) -> Result<(), Refusal> {
        if let Some(d) = self.next.done.get_mut(side.index()) {
            *d = true;
        }
        if self.every_actor_ended((phase, phasing)) {
            self.advance()?;
        }
        Ok(())
    }

    /// Whether every side that acts in `phase` (`phasing`: the side whose turn it is) has
    /// ended it in the next state: what ends a phase, and the set-up (whose phase every
    /// side acts in, `deploy.rs`).
    pub(super) fn every_actor_ended(&self, (phase, phasing): (&PhaseDef, SideId)) -> bool {
        (self.next.done.iter().enumerate())
            .all(|(i, d)| *d || !phase.actor.includes(SideId(i as u8), phasing))
    }

    /// Ends the current phase and begins the next (or the next turn, or the end).
    pub(super) fn advance(&mut self) -> Result<(), Refusal> {
        let game = self.game;
        self.end_phase_hook()?;
        let rules = &*game.rules;
        let plan_len = rules.turn_plan(&self.next.order, &self.next.options).len() as u32;
        let clear = |next: &mut State, when: Clears| {
            for p in &mut next.pieces {
                for (i, f) in rules.flags.iter().enumerate() {
                    if f.clears == when || (when == Clears::TurnEnd && f.clears == Clears::PhaseEnd)
                    {
                        p.set_flag(FlagId(i as u16), false);
                    }
                }
            }
        };
        // Saved points not spent or added to in a phase the piece could move in are lost.
        if let Some((phase, phasing)) = rules
            .turn_plan(&self.next.order, &self.next.options)
            .get(self.next.step as usize)
            .map(|(p, s)| ((*p).clone(), SideId(*s as u8)))
            && phase.allows.contains(&Allowed::Move)
        {
            self.expire_saved(|p| {
                phase.actor.includes(p.side, phasing)
                    && p.on_board()
                    && super::is_mover(&phase, p.kind)
            });
        }
        clear(self.next, Clears::PhaseEnd);
        for p in &mut self.next.pieces {
            p.acted = 0;
            if rules
                .piece_type(p.kind)
                .is_some_and(|t| t.moves == MoveLimit::PerPhase)
            {
                p.moved = false;
                crate::turning::new_window(rules, p);
            }
        }
        self.next.step += 1;
        if self.next.step >= plan_len {
            clear(self.next, Clears::TurnEnd);
            for p in &mut self.next.pieces {
                p.moved = false;
                crate::turning::new_window(rules, p);
            }
            self.next.redeployed.clear();
            self.next.crossed.clear();
            self.next.step = 0;
            self.next.turn += 1;
            if self.next.turn > game.turns {
                self.next.stage = Stage::Over(None);
                self.events.push(Event::GameOver { turns: game.turns });
                return Ok(());
            }
            self.roll_initiative();
        }
        self.next.done.iter_mut().for_each(|d| *d = false);
        self.begin_phase()
    }

    /// Rolls for the order of play this turn, when the ruleset asks for it. Ties roll again
    /// among themselves (up to ten times; then scenario order stands), all logged.
    pub(super) fn roll_initiative(&mut self) {
        let game = self.game;
        let Some(expr) = &game.rules.sequence.initiative else {
            self.next.order = (0..game.sides.len()).map(|i| SideId(i as u8)).collect();
            return;
        };
        let dice = &game.rules.dice;
        let mut rolls = Vec::new();
        let mut roll = |next: &mut State, side: usize| -> i32 {
            let mut logged = Vec::new();
            let mut total = 0i32;
            for term in &expr.terms {
                let Some(def) = dice.get(term.die.index()) else {
                    continue;
                };
                for _ in 0..term.count {
                    let r = next.rng.roll(term.die, def, &[]);
                    total = total.saturating_add(r.value);
                    logged.push(LoggedDie {
                        die: def.name.clone(),
                        face: def
                            .faces
                            .get(usize::from(r.face))
                            .map_or_else(String::new, |f| f.label.clone()),
                        value: r.value,
                        rerolled_from: None,
                    });
                }
            }
            let name = game
                .sides
                .get(side)
                .map_or_else(String::new, |s| s.name.clone());
            rolls.push((name, logged, total));
            total
        };
        // Keys compare totals first, then the tie-break rolls, then scenario order.
        let mut keys: Vec<(Vec<i32>, usize)> = (0..game.sides.len())
            .map(|s| (vec![roll(self.next, s)], s))
            .collect();
        for _ in 0..10 {
            keys.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let tied: Vec<usize> = (0..keys.len())
                .filter(|&i| {
                    (i > 0 && keys[i - 1].0 == keys[i].0)
                        || (i + 1 < keys.len() && keys[i + 1].0 == keys[i].0)
                })
                .collect();
            if tied.is_empty() {
                break;
            }
            for i in tied {
                let side = keys[i].1;
                let extra = roll(self.next, side);
                keys[i].0.push(extra);
            }
        }
        keys.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        self.next.order = keys.iter().map(|(_, s)| SideId(*s as u8)).collect();
        self.events.push(Event::Initiative {
            turn: self.next.turn,
            rolls,
            order: self
                .next
                .order
                .iter()
                .map(|s| {
                    game.sides
                        .get(s.index())
                        .map_or_else(String::new, |d| d.name.clone())
                })
                .collect(),
        });
    }

    /// The `phase_end` hook, as the current phase's end is ordered and before anything of
    /// the next phase: its changes and rolls are logged in the ending phase, with the
    /// dice of that phase's owner; a failure refuses the order that ended the phase.
    fn end_phase_hook(&mut self) -> Result<(), Refusal> {
        let game = self.game;
        if !self.hooks.is_bound(HookPoint::PhaseEnd) {
            return Ok(());
        }
        let plan = game.rules.turn_plan(&self.next.order, &self.next.options);
        let Some((phase, _)) = plan.get(self.next.step as usize) else {
            return Ok(());
        };
        let name = phase.name.clone();
        self.run_phase_hook(|hooks, world, dice| hooks.phase_end(world, &name, dice))?;
        self.update_knowledge();
        Ok(())
    }

    /// Runs a phase hook (`phase_begin`, `phase_end`) with the dice of the phase's owner
    /// ([`Resolution::run_hook`]).
    fn run_phase_hook(
        &mut self,
        call: impl FnOnce(
            &mut dyn Hooks,
            &World<'_>,
            &mut HookDice<'_>,
        ) -> Result<Vec<crate::hooks::HookCommand>, crate::hooks::HookFailure>,
    ) -> Result<(), Refusal> {
        let owner = self.game.phase_owner(self.next);
        self.run_hook(owner, call)
    }

    pub(super) fn begin_phase(&mut self) -> Result<(), Refusal> {
        let game = self.game;
        let plan = game.rules.turn_plan(&self.next.order, &self.next.options);
        let Some((phase, side)) = plan.get(self.next.step as usize) else {
            return Ok(());
        };
        self.events.push(Event::PhaseBegan {
            turn: self.next.turn,
            phase: phase.name.clone(),
            phasing: game
                .sides
                .get(*side)
                .map(|s| s.name.clone())
                .unwrap_or_default(),
            owner: game.phase_owner(self.next),
        });
        self.next.phase_start = self.next.pieces.iter().map(|p| p.place.clone()).collect();
        // The game's first phase: its hook reads what the sides know of the table as it was
        // set up (`game:known`), so it is computed now — unless the set-up is blind, where
        // nothing is sighted until this hook has run (`sighting.blind_setup`).
        if self.next.turn == 1
            && self.next.step == 0
            && game.sighting().is_some_and(|s| !s.blind_setup)
        {
            self.update_knowledge();
        }
        // The hook sees the state as the phase begins. Phases of a side's turn roll that
        // side's dice; the others the game's own.
        let name = phase.name.clone();
        self.run_phase_hook(|hooks, world, dice| hooks.phase_begin(world, &name, dice))?;
        if game
            .sighting()
            .is_some_and(|s| s.spotting_phases.contains(&phase.name))
        {
            self.update_knowledge();
            self.spotting_rolls();
        }
        self.update_knowledge();
        Ok(())
    }
}
