//! The sequence of play: when a phase ends and which comes next, the initiative roll that
//! orders the sides each turn, and what happens as a phase begins (windows reset, saved
//! points lapse, knowledge updated, the phase hook run).

use crate::action::{Event, LoggedDie, Refusal, RefusalKind};
use crate::hooks::{HookDice, HookPoint, Hooks};
use crate::ids::{FlagId, SideId};
use crate::rules::{Allowed, Clears, MoveLimit, PhaseDef};

use super::Game;
use crate::state::{Stage, State, World};

impl Game {
    /// An `end_phase` order: `side` has ended the phase; once every side that acts in it
    /// has, the next phase begins.
    pub(super) fn end_phase(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        side: SideId,
        (phase, phasing): (&PhaseDef, SideId),
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
        if let Some(d) = next.done.get_mut(side.index()) {
            *d = true;
        }
        let all_done = (next.done.iter().enumerate())
            .all(|(i, d)| *d || !phase.actor.includes(SideId(i as u8), phasing));
        if all_done {
            self.advance(next, events, hooks)?;
        }
        Ok(())
    }

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

    /// Ends the current phase and begins the next (or the next turn, or the end).
    pub(super) fn advance(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
        self.end_phase_hook(next, events, hooks)?;
        let rules = &*self.rules;
        let plan_len = rules.turn_plan(&next.order, &next.options).len() as u32;
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
            .turn_plan(&next.order, &next.options)
            .get(next.step as usize)
            .map(|(p, s)| ((*p).clone(), SideId(*s as u8)))
            && phase.allows.contains(&Allowed::Move)
        {
            self.expire_saved(next, |p| {
                phase.actor.includes(p.side, phasing)
                    && p.on_board()
                    && (phase.movers.is_empty() || phase.movers.contains(&p.kind))
            });
        }
        clear(next, Clears::PhaseEnd);
        for p in &mut next.pieces {
            p.acted = 0;
            if rules
                .piece_type(p.kind)
                .is_some_and(|t| t.moves == MoveLimit::PerPhase)
            {
                p.moved = false;
                crate::turning::new_window(rules, p);
            }
        }
        next.step += 1;
        if next.step >= plan_len {
            clear(next, Clears::TurnEnd);
            for p in &mut next.pieces {
                p.moved = false;
                crate::turning::new_window(rules, p);
            }
            next.redeployed.clear();
            next.crossed.clear();
            next.step = 0;
            next.turn += 1;
            if next.turn > self.turns {
                next.stage = Stage::Over(None);
                events.push(Event::GameOver { turns: self.turns });
                return Ok(());
            }
            self.roll_initiative(next, events);
        }
        next.done.iter_mut().for_each(|d| *d = false);
        self.begin_phase(next, events, hooks)
    }

    /// Rolls for the order of play this turn, when the ruleset asks for it. Ties roll again
    /// among themselves (up to ten times; then scenario order stands), all logged.
    pub(super) fn roll_initiative(&self, next: &mut State, events: &mut Vec<Event>) {
        let Some(expr) = &self.rules.sequence.initiative else {
            next.order = (0..self.sides.len()).map(|i| SideId(i as u8)).collect();
            return;
        };
        let dice = &self.rules.dice;
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
            let name = self
                .sides
                .get(side)
                .map_or_else(String::new, |s| s.name.clone());
            rolls.push((name, logged, total));
            total
        };
        // Keys compare totals first, then the tie-break rolls, then scenario order.
        let mut keys: Vec<(Vec<i32>, usize)> = (0..self.sides.len())
            .map(|s| (vec![roll(next, s)], s))
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
                let extra = roll(next, side);
                keys[i].0.push(extra);
            }
        }
        keys.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        next.order = keys.iter().map(|(_, s)| SideId(*s as u8)).collect();
        events.push(Event::Initiative {
            turn: next.turn,
            rolls,
            order: next
                .order
                .iter()
                .map(|s| {
                    self.sides
                        .get(s.index())
                        .map_or_else(String::new, |d| d.name.clone())
                })
                .collect(),
        });
    }

    /// The `phase_end` hook, as the current phase's end is ordered and before anything of
    /// the next phase: its changes and rolls are logged in the ending phase, with the
    /// dice of that phase's owner; a failure refuses the order that ended the phase.
    fn end_phase_hook(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
        if !hooks.is_bound(HookPoint::PhaseEnd) {
            return Ok(());
        }
        let plan = self.rules.turn_plan(&next.order, &next.options);
        let Some((phase, _)) = plan.get(next.step as usize) else {
            return Ok(());
        };
        let name = phase.name.clone();
        self.run_phase_hook(next, events, |world, dice| {
            hooks.phase_end(world, &name, dice)
        })?;
        self.update_knowledge(next, events);
        Ok(())
    }

    /// Runs a phase hook (`phase_begin`, `phase_end`) with the dice of the phase's owner —
    /// a copy of its generator, put back afterwards, so the hook reads the state as it is —
    /// logs the rolls it made and applies the changes it asked for.
    fn run_phase_hook(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        call: impl FnOnce(
            &World<'_>,
            &mut HookDice<'_>,
        ) -> Result<Vec<crate::hooks::HookCommand>, crate::hooks::HookFailure>,
    ) -> Result<(), Refusal> {
        let owner = self.phase_owner(next);
        let mut rng = next.dice_of(owner).clone();
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
        *next.dice_of(owner) = rng;
        for roll in rolls {
            events.push(Event::Rolled { roll });
        }
        self.apply_commands(next, events, commands)
    }

    pub(super) fn begin_phase(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
        let plan = self.rules.turn_plan(&next.order, &next.options);
        let Some((phase, side)) = plan.get(next.step as usize) else {
            return Ok(());
        };
        events.push(Event::PhaseBegan {
            turn: next.turn,
            phase: phase.name.clone(),
            phasing: self
                .sides
                .get(*side)
                .map(|s| s.name.clone())
                .unwrap_or_default(),
            owner: self.phase_owner(next),
        });
        next.phase_start = next.pieces.iter().map(|p| p.place.clone()).collect();
        // The hook sees the state as the phase begins. Phases of a side's turn roll that
        // side's dice; the others the game's own.
        let name = phase.name.clone();
        self.run_phase_hook(next, events, |world, dice| {
            hooks.phase_begin(world, &name, dice)
        })?;
        if self
            .sighting()
            .is_some_and(|s| s.spotting_phases.contains(&phase.name))
        {
            self.update_knowledge(next, events);
            self.spotting_rolls(next, events);
        }
        self.update_knowledge(next, events);
        Ok(())
    }
}
