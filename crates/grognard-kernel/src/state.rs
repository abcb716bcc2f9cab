//! The changing part of a game and what hooks and queries read of it: [`State`] (turn,
//! cursor, pieces, dice, knowledge), [`Stage`] (setting up, playing, over with its result),
//! [`World`] (a read-only view of rules, board and state), [`Reach`], and [`roll_record`],
//! which turns a chart resolution into a log record. `form.rs` is the state's serialized
//! form, the one views and the server's referee seat have always received.
//!
//! This module sits below everything that works on a game: it never imports [`crate::game`]
//! (only the data modules below it — ids, pieces, rules, dice, board, actions, reach maps,
//! knowledge records, charts, amounts, costs, geometry), so the helpers the game calls
//! (knowledge, turning, marching, company, hooks) can share these types without an import
//! circle.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::action::{LoggedDie, RollRecord};
use crate::board::{Board, SideDef};
use crate::cost::Cost;
use crate::dice::GameRng;
use crate::geometry::Cell;
use crate::ids::{FeatureId, PieceId, SideId};
use crate::piece::{Piece, Place};
use crate::reach::ReachMap;
use crate::rules::Rules;
use crate::rules::victory::GameResult;

mod form;

/// Where a game stands in its life: one value, so that "over", "its result" and "setting
/// up" cannot disagree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// The secret set-up before turn 1, while the sides deploy their pieces.
    SettingUp,
    /// The turns are being played.
    #[default]
    Playing,
    /// The game has ended. The result is `None` only while the order that ended it is
    /// still being resolved (`Game::apply` records it before committing), or in a state
    /// read from a form that had none.
    Over(Option<GameResult>),
}

/// The changing part of a game.
///
/// `Clone` is written out so that `clone_from` reuses the target's buffers field by field
/// (piece names, counters, knowledge tables): the legal-order generator tries each candidate
/// on one scratch copy refreshed with `clone_from`, which then allocates nothing.
///
/// Its serialized form is written out in `form.rs`: [`Stage`] is kept there as the three
/// keys it replaced (`over`, `result`, `setting_up`), in their old places.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    /// Turn number, from 1.
    pub turn: u32,
    /// Index into the turn plan ([`Rules::turn_plan`]).
    pub step: u32,
    /// The order the sides play in this turn.
    pub order: Vec<SideId>,
    /// Sides that have ended the current phase.
    pub done: Vec<bool>,
    /// Pieces, by id.
    pub pieces: Vec<Piece>,
    /// The dice.
    pub rng: GameRng,
    /// Optional rules in force.
    pub options: Vec<bool>,
    /// Settings.
    pub settings: Vec<i32>,
    /// Setting up, playing, or over (with the result).
    pub stage: Stage,
    /// Each side's own dice (stream `side + 1` of the seed): the rolls one side makes in
    /// secret cannot shift the dice another side sees. `rng` stays for rolls no side owns
    /// (initiative, phases before and after the sides' turns).
    pub side_rngs: Vec<GameRng>,
    /// What each side knows of the others' pieces (empty without sighting rules).
    pub knowledge: Vec<crate::knowledge::Knowledge>,
    /// Markers turned face up for everyone, by piece id.
    pub face_up: Vec<bool>,
    /// Dummies redeployed this turn.
    pub redeployed: Vec<PieceId>,
    /// Pieces carried this turn by crossings with a capacity, by the side whose pieces
    /// crossed and the pair of cells: each side counts only its own crossings, so no
    /// refusal tells it that an unseen enemy crossed.
    pub crossed: Vec<((SideId, Cell, Cell), u32)>,
    /// Where each piece stood (and faced) as the current phase began, by piece id: for
    /// rules about where a unit or its target "started the phase".
    pub phase_start: Vec<Place>,
    /// Features hooks added to the board during the game (a pontoon bridge built), in the
    /// order they were added, each on the boundary between two cells. The board has them
    /// from the end of the order that added them.
    pub built: Vec<(Cell, Cell, FeatureId)>,
}

impl Clone for State {
    fn clone(&self) -> Self {
        let Self {
            turn,
            step,
            order,
            done,
            pieces,
            rng,
            options,
            settings,
            stage,
            side_rngs,
            knowledge,
            face_up,
            redeployed,
            crossed,
            phase_start,
            built,
        } = self;
        Self {
            turn: *turn,
            step: *step,
            order: order.clone(),
            done: done.clone(),
            pieces: pieces.clone(),
            rng: rng.clone(),
            options: options.clone(),
            settings: settings.clone(),
            stage: stage.clone(),
            side_rngs: side_rngs.clone(),
            knowledge: knowledge.clone(),
            face_up: face_up.clone(),
            redeployed: redeployed.clone(),
            crossed: crossed.clone(),
            phase_start: phase_start.clone(),
            built: built.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        // Destructured, so that a new field cannot be forgotten here.
        let Self {
            turn,
            step,
            order,
            done,
            pieces,
            rng,
            options,
            settings,
            stage,
            side_rngs,
            knowledge,
            face_up,
            redeployed,
            crossed,
            phase_start,
            built,
        } = source;
        self.turn = *turn;
        self.step = *step;
        self.order.clone_from(order);
        self.done.clone_from(done);
        self.pieces.clone_from(pieces);
        self.rng.clone_from(rng);
        self.options.clone_from(options);
        self.settings.clone_from(settings);
        self.stage.clone_from(stage);
        self.side_rngs.clone_from(side_rngs);
        self.knowledge.clone_from(knowledge);
        self.face_up.clone_from(face_up);
        self.redeployed.clone_from(redeployed);
        self.crossed.clone_from(crossed);
        self.phase_start.clone_from(phase_start);
        self.built.clone_from(built);
    }
}

impl State {
    /// True once the game has ended.
    #[must_use]
    pub fn over(&self) -> bool {
        matches!(self.stage, Stage::Over(_))
    }

    /// True during the set-up before the first turn.
    #[must_use]
    pub fn setting_up(&self) -> bool {
        self.stage == Stage::SettingUp
    }

    /// How the game ended, once that is recorded.
    #[must_use]
    pub fn result(&self) -> Option<&GameResult> {
        match &self.stage {
            Stage::Over(result) => result.as_ref(),
            Stage::SettingUp | Stage::Playing => None,
        }
    }

    /// `id`'s number among its side's pieces, from 0 in scenario order: the handle its own
    /// side knows it by (`Game::handle_of`), and `game:number` in Lua.
    #[must_use]
    pub fn number_in_side(&self, id: PieceId) -> u32 {
        let Some(piece) = self.pieces.get(id.index()) else {
            return u32::MAX;
        };
        let before = self.pieces.get(..id.index()).unwrap_or_default();
        before.iter().filter(|p| p.side == piece.side).count() as u32
    }

    /// Where `id` stood as the current phase began (`None`: unknown, or off the board).
    #[must_use]
    pub fn phase_start(&self, id: PieceId) -> Option<&Place> {
        self.phase_start
            .get(id.index())
            .filter(|p| !matches!(p, Place::Off))
    }

    /// The dice `side` rolls with (`None`: the game's own, for rolls no side owns).
    pub(crate) fn dice_of(&mut self, side: Option<SideId>) -> &mut GameRng {
        match side {
            Some(s) if s.index() < self.side_rngs.len() => &mut self.side_rngs[s.index()],
            _ => &mut self.rng,
        }
    }
}

/// A read-only view of a game for hooks and queries.
#[derive(Clone, Copy)]
pub struct World<'a> {
    /// The rules.
    pub rules: &'a Arc<Rules>,
    /// The board.
    pub board: &'a Arc<Board>,
    /// The sides.
    pub sides: &'a [SideDef],
    /// The state.
    pub state: &'a State,
}

/// What a piece can reach this phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    /// On a grid: each cell with its cost, and the paths.
    Cells(ReachMap),
    /// On an open table: how far it may go in a straight line over open ground.
    Radius(Cost),
}

/// A chart resolution as a log record, with names in place of ids.
#[must_use]
pub fn roll_record(
    rules: &Rules,
    chart: crate::ids::ChartId,
    purpose: &str,
    inputs: &[i32],
    resolution: &crate::chart::Resolution,
) -> RollRecord {
    let def = rules.chart(chart);
    let face_label = |die: crate::ids::DieId, face: u8| {
        rules
            .dice
            .get(die.index())
            .and_then(|d| d.faces.get(usize::from(face)))
            .map_or_else(|| face.to_string(), |f| f.label.clone())
    };
    RollRecord {
        chart: def.map_or_else(String::new, |c| c.name.clone()),
        purpose: purpose.to_owned(),
        inputs: def
            .map(|c| {
                c.inputs
                    .iter()
                    .zip(inputs)
                    .map(|(i, v)| (i.name.clone(), *v))
                    .collect()
            })
            .unwrap_or_default(),
        dice: resolution
            .dice
            .iter()
            .map(|d| LoggedDie {
                die: rules
                    .dice
                    .get(d.die.index())
                    .map_or_else(String::new, |x| x.name.clone()),
                face: face_label(d.die, d.face),
                value: d.value,
                rerolled_from: d.rerolled_from.map(|f| face_label(d.die, f)),
            })
            .collect(),
        modifiers: resolution.modifiers.clone(),
        score: resolution.score,
        band: resolution.band.clone(),
        outcome: def
            .and_then(|c| c.outcomes.get(resolution.outcome))
            .map_or_else(String::new, Clone::clone),
        secret: def.is_some_and(|c| c.secret),
        // The steps are worked out again from the dice, exactly as `resolve` scaled them.
        scaled: def
            .filter(|_| resolution.band.is_none())
            .map(|c| {
                let natural = resolution
                    .dice
                    .iter()
                    .fold(0i32, |a, d| a.saturating_add(d.value));
                c.scaled(inputs, natural.saturating_add(resolution.modifier_total))
                    .1
            })
            .unwrap_or_default(),
        amounts: Vec::new(),
        by: None,
        against: None,
    }
}

/// Works out the computed amounts of an outcome's `effects` from a chart's roll, in order,
/// and logs each on `record` (`halved, rounded up → 3 hits`): one entry per effect, `Some`
/// for the computed ones. An action applies them; `grognard roll` only shows them.
#[must_use]
pub fn work_out_amounts(
    rules: &Rules,
    chart: &crate::chart::ChartDef,
    inputs: &[i32],
    resolution: &crate::chart::Resolution,
    effects: &[crate::rules::Effect],
    record: &mut RollRecord,
) -> Vec<Option<i32>> {
    let dice: Vec<i32> = resolution.dice.iter().map(|d| d.value).collect();
    let values = crate::amount::RollValues {
        natural: dice.iter().fold(0i32, |a, v| a.saturating_add(*v)),
        score: resolution.score,
        dice: &dice,
        inputs,
    };
    let names: Vec<String> = chart.inputs.iter().map(|i| i.name.clone()).collect();
    effects
        .iter()
        .map(|e| {
            let crate::rules::Effect::AddComputed {
                counter, amount, ..
            } = e
            else {
                return None;
            };
            let explained = amount.explain(&values, &names);
            record.amounts.push(crate::action::AmountRecord {
                counter: rules.counter_name(*counter).to_owned(),
                value: explained.value,
                steps: explained.steps,
            });
            Some(explained.value)
        })
        .collect()
}
