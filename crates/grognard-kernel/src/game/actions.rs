//! Ruleset actions (fire, melee, rally, orders...): the checks an `act` order must pass
//! (phase, type, flags, once per phase, target, range, arcs, sight, intents), the chart
//! roll, the effects listed for its outcome, and the action's script.

use crate::action::{Ban, Event, Refusal, RefusalKind};
use crate::chart::InputSource;
use crate::cost::Cost;
use crate::geometry::Arc as Bearing;
use crate::geometry::open::{self};
use crate::hooks::{HookDice, Hooks};
use crate::ids::{ActionId, CounterId, ModeId, PieceId, SideId};
use crate::piece::Place;
use crate::rules::{Effect, TargetRule, Who};

use super::bans::{ActBan, TargetBan};
use super::{Game, MAX_TRIGGER_DEPTH, Resolution};
use crate::state::{State, World, roll_record};

/// What [`Game::check_act`] found: the action, its actor and target, and how they stand.
///
/// Only `apply`'s check ([`Measure::ForChart`]) fills every field: for the legal listing
/// ([`Game::act_passes`], [`Measure::ChecksOnly`]) `table_distance` is 0 and
/// `flank_or_rear` is false. A check in [`Game::judge_act`] must therefore never read them
/// (it measures for itself), or it would answer differently in `legal` and in `apply`.
pub(super) struct ActCheck<'r, 's> {
    def: &'r crate::rules::ActionDef,
    actor: &'s crate::piece::Piece,
    target: Option<&'s crate::piece::Piece>,
    /// Distance in the ruleset's measure (cells, or inches on a table).
    distance: u32,
    /// Distance in table inches.
    table_distance: u32,
    /// The actor stands in the target's flank or rear.
    flank_or_rear: bool,
}

/// How much [`Game::judge_act`] measures: `apply` wants what the action's chart reads as
/// well; the legal listing asks only whether a candidate passes, and measures that only a
/// chart reads (a distance in table inches, a bearing) were part of the some 4% of a Black
/// Powder order once spent on refusals it threw away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Measure {
    /// Everything a chart may read, for an order about to be resolved.
    ForChart,
    /// Only what the checks need.
    ChecksOnly,
}

/// What the acting side's order stands on once checked: the actor and target as they were
/// before anything changed, how they stand, and the order's intents. A chart's inputs are
/// read from these.
struct ActFacts<'o> {
    actor: crate::piece::Piece,
    target: Option<crate::piece::Piece>,
    /// Distance in the ruleset's measure (cells, or inches on a table).
    distance: u32,
    /// Distance in table inches.
    table_distance: u32,
    /// The actor stands in the target's flank or rear.
    flank_or_rear: bool,
    intent: &'o [String],
}

/// What an action's chart roll gave ([`Resolution::roll_for_action`]).
struct ActRoll {
    /// The outcome's index (0 without a chart).
    outcome: usize,
    /// The outcome's effects.
    effects: Vec<Effect>,
    /// For each effect, the amount worked out from the roll when it is computed.
    computed: Vec<Option<i32>>,
    /// The roll as logged, when there is a chart.
    record: Option<crate::action::RollRecord>,
}

/// What an action's script is called with ([`Resolution::run_action_script`]).
struct ScriptCall<'o> {
    side: SideId,
    action: ActionId,
    intent: &'o [String],
    /// The actor and the target.
    pieces: (PieceId, Option<PieceId>),
    /// The chart outcome's name.
    outcome: Option<String>,
    /// The faces the chart's dice showed.
    faces: Vec<String>,
    /// The chart's inputs as used.
    inputs: Vec<(String, i32)>,
}

/// The intents an `act` order gives are ones its action takes.
fn check_intents<'a>(
    def: &'a crate::rules::ActionDef,
    intent: &[String],
) -> Result<(), ActBan<'a>> {
    match intent.iter().find(|i| !def.intents.contains(i)) {
        Some(bad) => Err(ActBan::Intent {
            def,
            bad: bad.clone(),
        }),
        None => Ok(()),
    }
}

/// The order's target against the action's target rule: none when it takes none, one
/// when it needs one, a piece on the board other than the actor, an enemy or an own
/// piece as the rule says.
fn act_target<'s, 'a>(
    state: &'s State,
    side: SideId,
    def: &'a crate::rules::ActionDef,
    actor: &'a crate::piece::Piece,
    target: Option<PieceId>,
) -> Result<Option<&'s crate::piece::Piece>, ActBan<'a>> {
    match (def.target, target) {
        (TargetRule::None, None) => Ok(None),
        (TargetRule::None, Some(_)) => Err(ActBan::TakesNoTarget(def)),
        (_, None) => Err(ActBan::NeedsTarget(def)),
        (rule, Some(t)) => {
            let tp = (state.pieces.get(t.index()))
                .filter(|p| p.on_board())
                .ok_or(ActBan::NoTarget(t))?;
            if tp.id == actor.id {
                return Err(ActBan::ItselfTargeted(actor));
            }
            let enemy = tp.side != side;
            if (rule == TargetRule::Enemy) != enemy {
                return Err(ActBan::WrongSide {
                    def,
                    enemy: rule == TargetRule::Enemy,
                });
            }
            Ok(Some(tp))
        }
    }
}

impl Game {
    /// The checks an `act` order must pass before anything is rolled or changed (intents,
    /// type, flags, once per phase, target, range, arcs, sight), on `state` as it stands.
    /// [`Resolution::do_act`] runs them first; the legal-order generator runs them alone to skip
    /// candidates they refuse without trying them on a copy of the state.
    ///
    /// # Errors
    /// The refusal `do_act` would give.
    pub(super) fn check_act<'r, 's>(
        &'r self,
        state: &'s State,
        side: SideId,
        id: PieceId,
        (action, intent): (ActionId, &[String]),
        target: Option<PieceId>,
    ) -> Result<ActCheck<'r, 's>, Refusal> {
        self.judge_act(state, side, id, (action, intent), target, Measure::ForChart)
            .map_err(|ban| ban.refuse((self, state, side)))
    }

    /// Whether an `act` order given with no intent passes [`Self::check_act`]: what the
    /// legal listing asks of every actor, action and target. No refusal is worded (the
    /// checks give an [`ActBan`]), and what only a passing order's chart reads is not
    /// measured.
    pub(super) fn act_passes(
        &self,
        state: &State,
        side: SideId,
        id: PieceId,
        action: ActionId,
        target: Option<PieceId>,
    ) -> bool {
        self.judge_act(state, side, id, (action, &[]), target, Measure::ChecksOnly)
            .is_ok()
    }

    /// [`Self::check_act`], its refusal kept as the rule broken. With
    /// [`Measure::ChecksOnly`] the distance in table inches and the actor's flank-or-rear
    /// bearing, which only a chart reads, are left at 0 and false.
    fn judge_act<'r, 's, 'b>(
        &'r self,
        state: &'s State,
        side: SideId,
        id: PieceId,
        (action, intent): (ActionId, &[String]),
        target: Option<PieceId>,
        measure: Measure,
    ) -> Result<ActCheck<'r, 's>, ActBan<'b>>
    where
        'r: 'b,
        's: 'b,
    {
        let def = (self.rules.actions.get(action.index())).ok_or(ActBan::NoSuchAction)?;
        check_intents(def, intent)?;
        let actor = self.own_piece(state, side, id).map_err(ActBan::Actor)?;
        self.check_actor(def, action, actor)?;
        let target_piece = act_target(state, side, def, actor, target)?;
        let mut distance = 0u32;
        let mut table_distance = 0u32;
        let mut flank_or_rear = false;
        if let Some(tp) = target_piece {
            // The target's type and flags first: they need no measuring, and they rule out
            // most targets of an action that names them.
            self.check_target_type(state, side, def, tp)?;
            self.check_target_flags(state, side, def, tp)?;
            // Charts compare exact distances with their bounds (rounded up on a table).
            distance = self.chart_distance(actor, tp, false).unwrap_or(u32::MAX);
            self.check_range(def, actor, tp, distance)?;
            self.check_arcs(def, actor, tp)?;
            if def.needs_sight && !self.sight_line_clear(state, actor, tp, Some(side)) {
                return Err(ActBan::Target(TargetBan::Unseen { actor, target: tp }));
            }
            if measure == Measure::ForChart {
                table_distance = self.chart_distance(actor, tp, true).unwrap_or(u32::MAX);
                flank_or_rear = matches!(
                    self.bearing(tp, actor),
                    Some(Bearing::Flank | Bearing::Rear)
                );
            }
        }
        Ok(ActCheck {
            def,
            actor,
            target: target_piece,
            distance,
            table_distance,
            flank_or_rear,
        })
    }

    /// The actor's own checks: its type is one the action is for, it has the flags the
    /// action needs and none that bar it, and it has not used the action this phase
    /// unless the action repeats.
    fn check_actor<'a>(
        &self,
        def: &'a crate::rules::ActionDef,
        action: ActionId,
        actor: &'a crate::piece::Piece,
    ) -> Result<(), ActBan<'a>> {
        if !def.types.is_empty() && !def.types.contains(&actor.kind) {
            return Err(ActBan::ActorType { def, actor });
        }
        if let Some(&flag) = def.barred_by.iter().find(|f| actor.flag(**f)) {
            return Err(ActBan::ActorBarred { def, actor, flag });
        }
        if let Some(&flag) = def.needs.iter().find(|f| !actor.flag(**f)) {
            return Err(ActBan::ActorNeeds { def, actor, flag });
        }
        if !def.repeats && action.0 < 64 && actor.acted & (1u64 << action.0) != 0 {
            return Err(ActBan::Used { def, actor });
        }
        Ok(())
    }

    /// An action's `range`: the target within it, edge to edge on a table, in whole cells
    /// on a grid (`distance`, in the ruleset's measure).
    fn check_range<'a>(
        &self,
        def: &'a crate::rules::ActionDef,
        actor: &'a crate::piece::Piece,
        tp: &'a crate::piece::Piece,
        distance: u32,
    ) -> Result<(), ActBan<'a>> {
        let Some((lo, hi)) = def.range else {
            return Ok(());
        };
        let in_range = match (self.placed(actor), self.placed(tp)) {
            (Some(a), Some(b)) => {
                // Edge to edge where the pieces have footprints; a range in hundredths
                // of a rule inch, scaled, against the exact length in thousandths.
                let inch = |v: Cost| open::Len(i64::from(self.scaled(v).hundredths()) * 10);
                a.within(&b, inch(hi))
                    && (lo <= Cost::ZERO || !a.within(&b, open::Len(inch(lo).0 - 1)))
            }
            // On a grid the compiler allows only whole cells.
            _ => {
                let d = i64::from(distance) * 100;
                d >= i64::from(lo.hundredths()) && d <= i64::from(hi.hundredths())
            }
        };
        if in_range {
            return Ok(());
        }
        Err(ActBan::Target(TargetBan::OutOfRange {
            def,
            actor,
            target: tp,
            distance,
            range: (lo, hi),
        }))
    }

    /// An action's `arcs`: the target stands in one of them, as seen from the actor.
    fn check_arcs<'a>(
        &self,
        def: &'a crate::rules::ActionDef,
        actor: &'a crate::piece::Piece,
        tp: &'a crate::piece::Piece,
    ) -> Result<(), ActBan<'a>> {
        if def.arcs.is_empty() {
            return Ok(());
        }
        let arc = self.bearing(actor, tp).unwrap_or(Bearing::Same);
        if def.arcs.contains(&arc) {
            return Ok(());
        }
        Err(ActBan::Target(TargetBan::OutOfArc {
            def,
            actor,
            target: tp,
            arc,
        }))
    }

    /// An action's `target_types` and `target_not_types`, judged on the target's type as
    /// the acting side knows it: under sighting rules a type not yet disclosed bars
    /// nothing, so neither the refusal nor the legal list tells a side what it has not
    /// seen (the probe the legal orders are tried on holds the same knowledge).
    fn check_target_type<'a>(
        &self,
        state: &State,
        side: SideId,
        def: &'a crate::rules::ActionDef,
        tp: &'a crate::piece::Piece,
    ) -> Result<(), ActBan<'a>> {
        if def.target_types.is_empty() && def.target_not_types.is_empty() {
            return Ok(());
        }
        let kind = if tp.side == side || self.sighting().is_none() {
            Some(tp.kind)
        } else {
            state
                .knowledge
                .get(side.index())
                .and_then(|k| k.get(tp.id))
                .and_then(|k| k.kind.or_else(|| k.identity.as_ref().map(|p| p.kind)))
        };
        let Some(kind) = kind else {
            return Ok(());
        };
        let only = !def.target_types.is_empty() && !def.target_types.contains(&kind);
        if !only && !def.target_not_types.contains(&kind) {
            return Ok(());
        }
        Err(ActBan::Target(TargetBan::TargetType {
            def,
            target: tp,
            kind,
            only,
        }))
    }

    /// An action's `target_needs` and `target_barred_by`: flags the target must have, and
    /// flags it may not have, as the acting side sees them. Under sighting rules an enemy's
    /// flags are part of its identity: one the side does not identify now is refused for
    /// none of them, so neither the refusal nor the legal list tells what it cannot see.
    fn check_target_flags<'a>(
        &self,
        state: &State,
        side: SideId,
        def: &'a crate::rules::ActionDef,
        tp: &'a crate::piece::Piece,
    ) -> Result<(), ActBan<'a>> {
        if def.target_needs.is_empty() && def.target_barred_by.is_empty() {
            return Ok(());
        }
        let seen = tp.side == side
            || self.sighting().is_none()
            || state
                .knowledge
                .get(side.index())
                .and_then(|k| k.get(tp.id))
                .is_some_and(|k| k.now.has(crate::knowledge::Disclosure::IDENTITY));
        if !seen {
            return Ok(());
        }
        if let Some(&flag) = def.target_needs.iter().find(|f| !tp.flag(**f)) {
            return Err(ActBan::Target(TargetBan::TargetNeeds {
                def,
                target: tp,
                flag,
            }));
        }
        if let Some(&flag) = def.target_barred_by.iter().find(|f| tp.flag(**f)) {
            return Err(ActBan::Target(TargetBan::TargetBarred {
                def,
                target: tp,
                flag,
            }));
        }
        Ok(())
    }

    /// The value of one of an action's chart inputs, read from the actor, the target,
    /// where they stand and the game's settings and options.
    fn input_value(&self, next: &State, source: &InputSource, facts: &ActFacts<'_>) -> i32 {
        let rules = &*self.rules;
        let (actor, target_piece) = (&facts.actor, &facts.target);
        let (distance, table_distance) = (facts.distance, facts.table_distance);
        match source {
            InputSource::Distance => i32::try_from(distance).unwrap_or(i32::MAX),
            InputSource::TableDistance => i32::try_from(table_distance).unwrap_or(i32::MAX),
            InputSource::TableDistanceBand(bands) => bands
                .iter()
                .position(|b| table_distance <= *b)
                .unwrap_or(bands.len()) as i32,
            InputSource::DistanceBand(bands) => bands
                .iter()
                .position(|b| distance <= *b)
                .unwrap_or(bands.len()) as i32,
            InputSource::ActorCounter(c) => actor.counter(*c),
            InputSource::TargetCounter(c) => target_piece.as_ref().map_or(0, |t| t.counter(*c)),
            InputSource::ActorFlag(f) => i32::from(actor.flag(*f)),
            InputSource::ActorMode(m) => i32::from(actor.mode == *m),
            InputSource::TargetMode(m) => {
                i32::from(target_piece.as_ref().is_some_and(|t| t.mode == *m))
            }
            InputSource::ActorAttribute(a) => actor.attribute(*a),
            InputSource::TargetAttribute(a) => target_piece.as_ref().map_or(0, |t| t.attribute(*a)),
            InputSource::TargetFlag(f) => {
                i32::from(target_piece.as_ref().is_some_and(|t| t.flag(*f)))
            }
            InputSource::TargetFlankOrRear => i32::from(facts.flank_or_rear),
            InputSource::TargetTerrain(attr) => target_piece
                .as_ref()
                .and_then(|t| {
                    let terrain = match &t.place {
                        Place::Point { at, .. } => self.board.terrain_at(*at),
                        other => self.board.terrain(other.cell()?),
                    };
                    rules
                        .terrain
                        .get(terrain.index())?
                        .attributes
                        .get(*attr)
                        .copied()
                })
                .unwrap_or(0),
            InputSource::ActorTerrain(attr) => {
                let terrain = match &actor.place {
                    Place::Point { at, .. } => Some(self.board.terrain_at(*at)),
                    other => other.cell().map(|c| self.board.terrain(c)),
                };
                terrain
                    .and_then(|t| rules.terrain.get(t.index()))
                    .and_then(|t| t.attributes.get(*attr).copied())
                    .unwrap_or(0)
            }
            InputSource::Setting(s) => next.settings.get(*s).copied().unwrap_or(0),
            InputSource::Option(o) => i32::from(next.options.get(*o).copied().unwrap_or(false)),
            InputSource::Intent(name) => i32::from(facts.intent.contains(name)),
            InputSource::ActorFriendsWithin(near) => self.friends_within(next, actor, near),
            InputSource::TargetFriendsWithin(near) => target_piece
                .as_ref()
                .map_or(0, |t| self.friends_within(next, t, near)),
        }
    }

    /// The action's check (`check:` beside its script), asked on `state` as it stands
    /// before anything of the action happens; its reason refuses the action.
    pub(super) fn ask_action_check(
        &self,
        state: &State,
        id: PieceId,
        (action, intent): (ActionId, &[String]),
        target: Option<PieceId>,
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
        self.ask_check(state, |world| {
            hooks.action_check(world, action, id, target, intent)
        })
    }
}

impl Resolution<'_> {
    pub(super) fn do_act(
        &mut self,
        side: SideId,
        id: PieceId,
        (action, intent): (ActionId, &[String]),
        target: Option<PieceId>,
    ) -> Result<(), Refusal> {
        let game = self.game;
        let checked = game.check_act(self.next, side, id, (action, intent), target)?;
        let def = checked.def;
        if def.checked {
            game.ask_action_check(self.next, id, (action, intent), target, self.hooks)?;
        }
        // A charge that would run into units its side has not sighted: spent, nothing rolled.
        if def.contact
            && let Some(t) = target
            && game.charge_meets_unseen(self.next, id, t)
        {
            if let Some(p) = self.next.pieces.get_mut(id.index())
                && action.0 < 64
            {
                p.acted |= 1u64 << action.0;
            }
            self.stopped_by_unseen(id, None);
            return Ok(());
        }
        let facts = ActFacts {
            actor: checked.actor.clone(),
            target: checked.target.cloned(),
            distance: checked.distance,
            table_distance: checked.table_distance,
            flank_or_rear: checked.flank_or_rear,
            intent,
        };
        let rolled = self.roll_for_action(side, def, &facts, (id, target))?;
        // Read before the roll's record moves into the log.
        let script = def.scripted.then(|| ScriptCall {
            side,
            action,
            intent,
            pieces: (id, target),
            outcome: def
                .chart
                .and_then(|c| game.rules.chart(c))
                .and_then(|c| c.outcomes.get(rolled.outcome).cloned()),
            faces: rolled
                .record
                .as_ref()
                .map(|r| r.dice.iter().map(|d| d.face.clone()).collect())
                .unwrap_or_default(),
            inputs: rolled
                .record
                .as_ref()
                .map(|r| r.inputs.clone())
                .unwrap_or_default(),
        });
        self.events.push(Event::Acted {
            piece: id,
            action: def.name.clone(),
            target,
            roll: rolled.record,
            intent: intent.to_vec(),
        });
        if let Some(p) = self.next.pieces.get_mut(id.index())
            && action.0 < 64
        {
            p.acted |= 1u64 << action.0;
        }
        if let Some(mark) = def.marks {
            self.apply_effect(
                &Effect::SetFlag {
                    who: Who::Actor,
                    flag: mark,
                    on: true,
                },
                id,
                target,
                0,
            );
        }
        // A charge: the actor is put in contact with its target before the outcome's
        // effects and the script, which then see the two in contact.
        if def.contact
            && let Some(t) = target
        {
            self.make_contact(id, t)?;
        }
        self.apply_outcome((id, target), (&rolled.effects, &rolled.computed))?;
        if let Some(script) = script {
            self.run_action_script(script)?;
        }
        Ok(())
    }

    /// Rolls the action's chart, when it has one, with the inputs the facts give: the
    /// outcome, its effects with any computed amounts worked out, and the roll's record.
    /// Without a chart, the action's first (only) list of effects.
    fn roll_for_action(
        &mut self,
        side: SideId,
        def: &crate::rules::ActionDef,
        facts: &ActFacts<'_>,
        (id, target): (PieceId, Option<PieceId>),
    ) -> Result<ActRoll, Refusal> {
        let game = self.game;
        let rules = &*game.rules;
        let Some(chart_id) = def.chart else {
            return Ok(ActRoll {
                outcome: 0,
                effects: def.effects.first().cloned().unwrap_or_default(),
                computed: Vec::new(),
                record: None,
            });
        };
        let chart = (rules.chart(chart_id))
            .ok_or_else(|| ActBan::NoChart.refuse((game, self.next, side)))?;
        let set: Vec<(usize, i32)> = chart
            .inputs
            .iter()
            .enumerate()
            .filter_map(|(i, input)| {
                Some((
                    i,
                    game.input_value(self.next, input.source.as_ref()?, facts),
                ))
            })
            .collect();
        let inputs = chart.input_values(&set);
        let resolution = chart.resolve(&rules.dice, &inputs, self.next.dice_of(Some(side)));
        let outcome = resolution.outcome;
        let effects = def.effects.get(outcome).cloned().unwrap_or_default();
        let (actor, target_piece) = (&facts.actor, &facts.target);
        let purpose = match target_piece {
            Some(t) => format!("{} by {} at {}", def.name, actor.name, t.name),
            None => format!("{} by {}", def.name, actor.name),
        };
        let mut record = roll_record(rules, chart_id, &purpose, &inputs, &resolution);
        let computed = crate::state::work_out_amounts(
            rules,
            chart,
            &inputs,
            &resolution,
            &effects,
            &mut record,
        );
        record.by = Some(id);
        record.against = target;
        Ok(ActRoll {
            outcome,
            effects,
            computed,
            record: Some(record),
        })
    }

    /// The outcome's effects in order, a computed amount applied as the number worked
    /// out (and logged) with the roll, a pursuit as an action of its own.
    fn apply_outcome(
        &mut self,
        (id, target): (PieceId, Option<PieceId>),
        (effects, computed): (&[Effect], &[Option<i32>]),
    ) -> Result<(), Refusal> {
        for (i, effect) in effects.iter().enumerate() {
            let fixed;
            let effect = match (effect, computed.get(i).copied().flatten()) {
                (Effect::AddComputed { who, counter, .. }, Some(amount)) => {
                    fixed = Effect::AddCounter {
                        who: *who,
                        counter: *counter,
                        amount,
                    };
                    &fixed
                }
                _ => effect,
            };
            if let Effect::Pursue { who, action } = effect {
                self.pursue((id, target), *who, *action)?;
                continue;
            }
            self.apply_effect(effect, id, target, 0);
        }
        Ok(())
    }

    /// The action's script, told the outcome, the faces rolled, the intent and the chart's
    /// inputs; its rolls are logged and its commands applied.
    fn run_action_script(&mut self, call: ScriptCall<'_>) -> Result<(), Refusal> {
        let game = self.game;
        let (id, target) = call.pieces;
        // The script reads the state as it is and rolls on a copy of the side's
        // generator, put back afterwards (no copy of the whole state per call).
        let mut rng = self.next.dice_of(Some(call.side)).clone();
        let world = World {
            rules: &game.rules,
            board: &game.board,
            sides: &game.sides,
            state: self.next,
        };
        let mut dice = HookDice::new(&mut rng, &game.rules);
        dice.set_action_faces(call.faces);
        dice.set_action_intent(call.intent.to_vec());
        dice.set_action_inputs(call.inputs);
        dice.set_action_pieces(id, target);
        let commands = self
            .hooks
            .action(
                &world,
                call.action,
                id,
                target,
                call.outcome.as_deref(),
                &mut dice,
            )
            .map_err(super::bans::hook_failed)?;
        let rolls = dice.into_rolls();
        *self.next.dice_of(Some(call.side)) = rng;
        for roll in rolls {
            self.events.push(Event::Rolled { roll });
        }
        self.apply_commands(commands)
    }

    /// A pursuit (`pursue: ACTION`): the piece `who` names takes `action` against the
    /// other piece of the action just resolved — the unit it beat — as an order of its own
    /// side would, phase aside. If that action is refused (out of range, barred, the unit
    /// gone), nothing of it happens and the log says why; the order that won stands.
    fn pursue(
        &mut self,
        (actor, target): (PieceId, Option<PieceId>),
        who: Who,
        action: ActionId,
    ) -> Result<(), Refusal> {
        let game = self.game;
        let piece = |w: Who| match w {
            Who::Actor => Some(actor),
            Who::Target => target,
        };
        let (Some(pursuer), Some(beaten)) = (piece(who), piece(who.other())) else {
            return Ok(());
        };
        let Some(side) = self
            .next
            .pieces
            .get(pursuer.index())
            .filter(|p| p.on_board())
            .map(|p| p.side)
        else {
            return Ok(());
        };
        // Tried on a copy: a pursuit refused half way (a charge that cannot reach contact)
        // leaves nothing behind.
        let mut trial = self.next.clone();
        let mut more = Vec::new();
        let tried =
            self.on(&mut trial, &mut more)
                .do_act(side, pursuer, (action, &[]), Some(beaten));
        match tried {
            Ok(()) => {
                *self.next = trial;
                self.events.append(&mut more);
            }
            Err(r) if r.kind == RefusalKind::HookFailed => return Err(r),
            Err(r) => {
                // Each named as the pursuer's side knows it.
                let name = |id: PieceId| {
                    self.next
                        .pieces
                        .get(id.index())
                        .map_or_else(String::new, |p| game.label(self.next, side, p))
                };
                let action = game
                    .rules
                    .actions
                    .get(action.index())
                    .map_or("pursue", |a| a.name.as_str());
                self.events.push(Event::Note {
                    text: format!(
                        "{} does not {action} {}: {}",
                        name(pursuer),
                        name(beaten),
                        r.message
                    ),
                });
            }
        }
        Ok(())
    }

    pub(crate) fn apply_effect(
        &mut self,
        effect: &Effect,
        actor: PieceId,
        target: Option<PieceId>,
        depth: u32,
    ) {
        let game = self.game;
        let rules = &*game.rules;
        let who = |w: Who| match w {
            Who::Actor => Some(actor),
            Who::Target => target,
        };
        match effect {
            Effect::AddCounter {
                who: w,
                counter,
                amount,
            } => {
                let Some(pid) = who(*w) else { return };
                self.add_counter((pid, target), *counter, *amount, depth);
            }
            // Worked out from the roll and applied as `AddCounter` by `do_act`, the only
            // place with a roll; the ruleset compiler refuses it anywhere else (triggers).
            Effect::AddComputed { .. } => {}
            Effect::SetFlag { who: w, flag, on } => {
                let Some(pid) = who(*w) else { return };
                let Some(p) = self.next.pieces.get_mut(pid.index()) else {
                    return;
                };
                if p.flag(*flag) != *on && p.on_board() {
                    p.set_flag(*flag, *on);
                    self.events.push(Event::FlagChanged {
                        piece: pid,
                        flag: rules.flag_name(*flag).to_owned(),
                        on: *on,
                    });
                }
            }
            Effect::SetMode { who: w, mode } => {
                let Some(pid) = who(*w) else { return };
                self.force_mode(pid, *mode);
            }
            Effect::FallBack {
                who: w,
                distance,
                blocked,
            } => {
                let (Some(pid), Some(from)) = (who(*w), who(w.other())) else {
                    return;
                };
                self.fall_back(pid, from, *distance, *blocked);
            }
            Effect::FollowUp { who: w } => {
                let (Some(pid), Some(to)) = (who(*w), who(w.other())) else {
                    return;
                };
                self.follow_up(pid, to);
            }
            // Taken by `do_act`, which has the hooks an action may need; the compiler
            // allows it in actions' results only.
            Effect::Pursue { .. } => {}
            Effect::Remove { who: w } => {
                let Some(pid) = who(*w) else { return };
                self.remove_piece(pid, "removed by a chart result".into());
            }
        }
    }

    /// Adds `amount` to a counter of piece `pid` within the counter's bounds, keeps the
    /// flags held at its levels, and runs the triggers it crosses upward (the piece
    /// type's own, or else the counter's), `depth` levels deep at most.
    fn add_counter(
        &mut self,
        (pid, target): (PieceId, Option<PieceId>),
        counter: CounterId,
        amount: i32,
        depth: u32,
    ) {
        let game = self.game;
        let rules = &*game.rules;
        let Some(def) = rules.counters.get(counter.index()) else {
            return;
        };
        let Some(p) = self.next.pieces.get_mut(pid.index()) else {
            return;
        };
        if !p.on_board() {
            return;
        }
        let Some(slot) = p.counters.get_mut(counter.index()) else {
            return;
        };
        let from = *slot;
        let to = from
            .saturating_add(amount)
            .clamp(def.min, def.max.max(def.min));
        if to == from {
            return;
        }
        *slot = to;
        let kind = p.kind;
        self.events.push(Event::CounterChanged {
            piece: pid,
            counter: def.name.clone(),
            from,
            to,
        });
        // Flags held at a level of this counter follow it both ways, before any
        // trigger runs.
        self.keep_levels_of(pid, counter);
        if depth >= MAX_TRIGGER_DEPTH {
            self.events.push(Event::Note {
                text: format!("counter triggers nested deeper than {MAX_TRIGGER_DEPTH}; stopped"),
            });
            return;
        }
        // A piece type's own triggers for the counter replace the counter's.
        let triggers = rules
            .piece_type(kind)
            .and_then(|t| t.triggers.iter().find(|t| t.counter == counter))
            .map_or(def.triggers.as_slice(), |t| t.triggers.as_slice());
        for trigger in triggers {
            if from < trigger.at_least && to >= trigger.at_least {
                for e in &trigger.effects {
                    self.apply_effect(e, pid, target, depth + 1);
                }
            }
        }
    }

    /// A result's change of mode: ignored, with a note saying why, when the piece's type
    /// has no such mode or the new formation would break stacking where it stands.
    fn force_mode(&mut self, pid: PieceId, mode: ModeId) {
        let game = self.game;
        let rules = &*game.rules;
        let Some(p) = self.next.pieces.get_mut(pid.index()) else {
            return;
        };
        let allowed = rules.piece_type(p.kind).is_some_and(|t| t.can_take(mode));
        if !allowed {
            let text = format!(
                "{} cannot take {} mode; the effect is ignored",
                p.name,
                rules.mode_name(mode)
            );
            self.events.push(Event::Note { text });
            return;
        }
        if p.mode == mode || !p.on_board() {
            return;
        }
        let from = rules.mode_name(p.mode).to_owned();
        let (old, side, cell) = (p.mode, p.side, p.place.cell());
        p.mode = mode;
        if let Some(c) = cell
            && let Some(problem) = game.stacking_problem(self.next, c, pid, side, false)
        {
            // A forced change of formation that would break stacking does not
            // happen; the log says why.
            if let Some(p) = self.next.pieces.get_mut(pid.index()) {
                p.mode = old;
            }
            let name = self
                .next
                .pieces
                .get(pid.index())
                .map_or_else(String::new, |p| p.name.clone());
            let text = format!(
                "{name} cannot take {} mode here ({problem}); the effect is ignored",
                rules.mode_name(mode)
            );
            self.events.push(Event::Note { text });
            return;
        }
        self.events.push(Event::ModeChanged {
            piece: pid,
            from,
            to: rules.mode_name(mode).to_owned(),
        });
    }
}
