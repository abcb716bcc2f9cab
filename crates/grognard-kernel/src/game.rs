//! A game in progress: the rules, the board, the pieces, the phase cursor and the RNG.
//!
//! [`Game::apply`] is the only way to change a game. It works on a copy of the state and
//! commits it only when the whole action succeeded, so a refusal — or a failing hook —
//! leaves the game exactly as it was, RNG position included.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::action::{Action, Event, LoggedDie, Order, Refusal, RefusalKind, RollRecord};
use crate::board::{Board, SideDef, Surface};
use crate::chart::InputSource;
use crate::cost::Cost;
use crate::dice::GameRng;
use crate::geometry::open::{self, Angle, Point};
use crate::geometry::{Arc as Bearing, Cell, Facing, Grid, LineCell};
use crate::hooks::{HookCommand, HookDice, Hooks};
use crate::ids::{ActionId, CounterId, FeatureId, FlagId, ModeId, PieceId, PieceTypeId, SideId};
use crate::piece::{Piece, Place};
use crate::reach::{Crowd, Entry, PlainSteps, ReachMap, StepBan};
use crate::rules::{
    Actor, Allowed, Clears, Effect, FeatureKind, MoveLimit, PhaseDef, Rules, StackMeasure,
    TargetRule, Who,
};

/// Which pieces block a line of sight.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Blockers {
    /// Every piece.
    All,
    /// No piece.
    None,
    /// Pieces the side knows of.
    KnownTo(SideId),
}

impl From<Option<SideId>> for Blockers {
    fn from(side: Option<SideId>) -> Self {
        side.map_or(Self::All, Self::KnownTo)
    }
}

impl From<bool> for Blockers {
    fn from(pieces_block: bool) -> Self {
        if pieces_block { Self::All } else { Self::None }
    }
}

/// How deep counter triggers may chain before the kernel stops them (a ruleset whose
/// triggers feed each other must not hang the game).
const MAX_TRIGGER_DEPTH: u32 = 8;

/// A piece as the scenario places it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceSetup {
    /// Scenario name ("b1").
    pub name: String,
    /// Owner.
    pub side: SideId,
    /// Type.
    pub kind: PieceTypeId,
    /// Where.
    pub place: Place,
    /// Facing on a grid.
    pub facing: Facing,
    /// Mode; the type's default when `None`.
    pub mode: Option<ModeId>,
    /// Counter values that differ from the defaults.
    pub counters: Vec<(CounterId, i32)>,
    /// Flags set at the start.
    pub flags: Vec<FlagId>,
    /// Index (in this list) of the piece it is attached to.
    pub attached_to: Option<usize>,
    /// Attribute values that differ from the type's, by attribute index.
    pub attributes: Vec<(usize, i32)>,
}

/// Everything a scenario says, in kernel terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The board.
    pub board: Board,
    /// Sides, in the order they take their turns.
    pub sides: Vec<SideDef>,
    /// Pieces.
    pub pieces: Vec<PieceSetup>,
    /// RNG seed.
    pub seed: u64,
    /// Number of turns (the ruleset's default when `None`).
    pub turns: Option<u32>,
    /// Optional rules in force, by option index.
    pub options: Vec<bool>,
    /// Settings, by setting index.
    pub settings: Vec<i32>,
}

/// A scenario that cannot start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// Index of the piece at fault, if one is.
    pub piece: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl core::fmt::Display for SetupError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The changing part of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    /// True after the last turn.
    pub over: bool,
    /// Each side's own dice (stream `side + 1` of the seed): the rolls one side makes in
    /// secret cannot shift the dice another side sees. `rng` stays for rolls no side owns
    /// (initiative, phases before and after the sides' turns).
    #[serde(default)]
    pub side_rngs: Vec<GameRng>,
    /// What each side knows of the others' pieces (empty without sighting rules).
    #[serde(default)]
    pub knowledge: Vec<crate::knowledge::Knowledge>,
    /// Markers turned face up for everyone, by piece id.
    #[serde(default)]
    pub face_up: Vec<bool>,
    /// Dummies redeployed this turn.
    #[serde(default)]
    pub redeployed: Vec<PieceId>,
    /// Pieces carried this turn by crossings with a capacity, by the pair of cells.
    #[serde(default)]
    pub crossed: Vec<((Cell, Cell), u32)>,
    /// Where each piece stood (and faced) as the current phase began, by piece id: for
    /// rules about where a unit or its target "started the phase".
    #[serde(default)]
    pub phase_start: Vec<Place>,
    /// Features hooks added to the board during the game (a pontoon bridge built), in the
    /// order they were added, each on the boundary between two cells. The board has them
    /// from the end of the order that added them.
    #[serde(default)]
    pub built: Vec<(Cell, Cell, FeatureId)>,
}

impl State {
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

/// A game.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Arc<Rules>,
    board: Arc<Board>,
    sides: Vec<SideDef>,
    turns: u32,
    pub(crate) state: State,
    log: Vec<Event>,
    /// Each side's log: what it saw of the events in `log` (kept only with sighting
    /// rules; otherwise every side sees the whole log).
    pub(crate) side_logs: Vec<Vec<Event>>,
}

impl Game {
    /// Starts a game. Checks every piece's place, type and mode, then begins the first
    /// phase (calling its hook).
    ///
    /// # Errors
    /// A [`SetupError`] naming the first piece that cannot be placed, or a failing hook.
    pub fn new(rules: Arc<Rules>, setup: Setup, hooks: &mut dyn Hooks) -> Result<Self, SetupError> {
        let err = |piece: Option<usize>, message: String| SetupError { piece, message };
        if setup.sides.len() < 2 {
            return Err(err(None, "a scenario needs at least two sides".into()));
        }
        if rules.sequence.side_turn.is_empty()
            && rules.sequence.turn_start.is_empty()
            && rules.sequence.turn_end.is_empty()
        {
            return Err(err(
                None,
                "the ruleset's sequence of play has no phases".into(),
            ));
        }
        let mut pieces = Vec::with_capacity(setup.pieces.len());
        for (i, p) in setup.pieces.iter().enumerate() {
            let Some(ty) = rules.piece_type(p.kind) else {
                return Err(err(
                    Some(i),
                    format!("piece {}: unknown piece type", p.name),
                ));
            };
            if p.side.index() >= setup.sides.len() {
                return Err(err(Some(i), format!("piece {}: unknown side", p.name)));
            }
            let mode = p.mode.unwrap_or(ty.default_mode);
            if ty.allowance.get(mode.index()).is_none_or(Option::is_none) {
                return Err(err(
                    Some(i),
                    format!(
                        "piece {}: {} pieces cannot be in {} mode",
                        p.name,
                        ty.name,
                        rules.mode_name(mode)
                    ),
                ));
            }
            if let Some(a) = p.attached_to
                && (a >= setup.pieces.len() || a == i)
            {
                return Err(err(
                    Some(i),
                    format!("piece {}: attached to no piece", p.name),
                ));
            }
            let mut counters: Vec<i32> = rules.counters.iter().map(|c| c.initial).collect();
            for (c, v) in &p.counters {
                if let (Some(slot), Some(def)) =
                    (counters.get_mut(c.index()), rules.counters.get(c.index()))
                {
                    *slot = (*v).clamp(def.min, def.max.max(def.min));
                }
            }
            let mut attributes = ty.attributes.clone();
            for (a, v) in &p.attributes {
                if let Some(slot) = attributes.get_mut(*a) {
                    *slot = *v;
                }
            }
            let mut piece = Piece {
                id: PieceId(i as u32),
                name: p.name.clone(),
                side: p.side,
                kind: p.kind,
                place: p.place.clone(),
                facing: p.facing,
                mode,
                counters,
                flags: 0,
                attributes,
                attached_to: p.attached_to.map(|a| PieceId(a as u32)),
                moved: false,
                acted: 0,
            };
            for f in &p.flags {
                piece.set_flag(*f, true);
            }
            pieces.push(piece);
        }
        let turns = setup.turns.unwrap_or(rules.sequence.turns).max(1);
        let sides = setup.sides;
        let state = State {
            turn: 1,
            step: 0,
            order: (0..sides.len()).map(|i| SideId(i as u8)).collect(),
            done: vec![false; sides.len()],
            pieces,
            rng: GameRng::new(setup.seed),
            side_rngs: (0..sides.len() as u64)
                .map(|i| GameRng::stream(setup.seed, i + 1))
                .collect(),
            options: setup.options,
            settings: setup.settings,
            over: false,
            knowledge: Vec::new(),
            face_up: Vec::new(),
            redeployed: Vec::new(),
            crossed: Vec::new(),
            built: Vec::new(),
            phase_start: Vec::new(),
        };
        let mut game = Self {
            rules,
            board: Arc::new(setup.board),
            sides,
            turns,
            state,
            log: Vec::new(),
            side_logs: Vec::new(),
        };
        for i in 0..game.state.pieces.len() {
            game.check_placement(i).map_err(|m| err(Some(i), m))?;
        }
        game.add_decoys();
        let mut next = game.state.clone();
        let mut events = Vec::new();
        game.roll_initiative(&mut next, &mut events);
        game.begin_phase(&mut next, &mut events, hooks)
            .map_err(|r| err(None, r.message))?;
        game.update_knowledge(&mut next, &mut events);
        let seen = game.seen_by_sides(&game.state, &next, &events, None);
        game.append_side_logs(seen);
        game.state = next;
        game.draw_built(0);
        game.log = events;
        Ok(game)
    }

    fn check_placement(&self, i: usize) -> Result<(), String> {
        let Some(p) = self.state.pieces.get(i) else {
            return Ok(());
        };
        let Some(ty) = self.rules.piece_type(p.kind) else {
            return Err(format!("piece {}: unknown piece type", p.name));
        };
        let class = self.rules.move_classes.get(ty.move_class.index());
        let terrain_ok = |t: crate::ids::TerrainId| {
            class.is_some_and(|c| c.enter.get(t.index()).is_some_and(Option::is_some))
        };
        let terrain_name = |t: crate::ids::TerrainId| {
            self.rules
                .terrain
                .get(t.index())
                .map_or("?", |d| d.name.as_str())
        };
        match (&p.place, &self.board.surface) {
            (Place::Cell(_) | Place::Spread(_), Surface::Grid { cols, rows, .. }) => {
                let cells: &[Cell] = match &p.place {
                    Place::Cell(c) => core::slice::from_ref(c),
                    Place::Spread(cs) => cs,
                    _ => &[],
                };
                if cells.is_empty() {
                    return Err(format!(
                        "piece {}: a spread place needs at least one cell",
                        p.name
                    ));
                }
                for c in cells {
                    if !self.board.contains(*c) {
                        return Err(format!(
                            "piece {} is off the board at {c}: the board is {cols} columns by {rows} rows (0-based)",
                            p.name
                        ));
                    }
                    let t = self.board.terrain(*c);
                    if !terrain_ok(t) {
                        return Err(format!(
                            "piece {} stands on {} at {c}, where {} pieces may not go",
                            p.name,
                            terrain_name(t),
                            ty.name
                        ));
                    }
                }
                if let Some(g) = self.board.grid()
                    && usize::from(p.facing.0) >= usize::from(g.facings())
                {
                    return Err(format!(
                        "piece {}: facing {} does not exist on this grid (0..{})",
                        p.name,
                        p.facing.0,
                        g.facings()
                    ));
                }
            }
            (Place::Point { at, .. }, Surface::Open { .. }) => {
                if !self.board.contains_point(*at) {
                    return Err(format!("piece {} is off the table at {at}", p.name));
                }
                let t = self.board.terrain_at(*at);
                if !terrain_ok(t) {
                    return Err(format!(
                        "piece {} stands in {} at {at}, where {} pieces may not go",
                        p.name,
                        terrain_name(t),
                        ty.name
                    ));
                }
            }
            (Place::Off, _) => {}
            _ => {
                return Err(format!(
                    "piece {}: its place does not fit this board (cells on a grid, points on an open table)",
                    p.name
                ));
            }
        }
        let covered: Vec<Cell> = match &p.place {
            Place::Cell(c) => vec![*c],
            Place::Spread(cs) => cs.clone(),
            _ => Vec::new(),
        };
        for c in covered {
            if let Some(msg) = self.stacking_problem(&self.state, c, p.id, p.side, false) {
                return Err(format!("piece {} at {c}: {msg}", p.name));
            }
            if let Some(enemy) = self
                .state
                .pieces
                .iter()
                .find(|q| q.id < p.id && q.side != p.side && q.place.covers(c))
            {
                return Err(format!(
                    "piece {} at {c} shares the cell with the enemy {}",
                    p.name, enemy.name
                ));
            }
        }
        if let Some(host) = p.attached_to.and_then(|h| self.state.pieces.get(h.index())) {
            if host.side != p.side {
                return Err(format!(
                    "piece {} is attached to {}, an enemy piece",
                    p.name, host.name
                ));
            }
            if host.place != p.place {
                return Err(format!(
                    "piece {} is attached to {} but does not stand with it",
                    p.name, host.name
                ));
            }
        }
        Ok(())
    }

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

    /// The current phase and its phasing side, or `None` when the game is over.
    #[must_use]
    pub fn phase(&self) -> Option<(&PhaseDef, SideId)> {
        if self.state.over {
            return None;
        }
        let plan = self.rules.turn_plan(&self.state.order, &self.state.options);
        plan.get(self.state.step as usize)
            .map(|(p, s)| (*p, SideId(*s as u8)))
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
        if self.state.over {
            return Err(Refusal::new(RefusalKind::GameOver, "the game is over"));
        }
        let Some((phase, phasing)) = self.phase() else {
            return Err(Refusal::new(RefusalKind::GameOver, "the game is over"));
        };
        let phase = phase.clone();
        let side_name = self
            .sides
            .get(order.side.index())
            .map(|s| s.name.clone())
            .ok_or_else(|| Refusal::new(RefusalKind::OutOfPhase, "no such side"))?;
        let may_act = match phase.actor {
            Actor::Phasing => order.side == phasing,
            Actor::NonPhasing => order.side != phasing,
            Actor::Both => true,
        };
        if !may_act {
            return Err(Refusal::new(
                RefusalKind::OutOfPhase,
                format!("{side_name} may not act in the {} phase", phase.name),
            ));
        }
        if self
            .state
            .done
            .get(order.side.index())
            .copied()
            .unwrap_or(false)
        {
            return Err(Refusal::new(
                RefusalKind::OutOfPhase,
                format!("{side_name} has already ended the {} phase", phase.name),
            ));
        }
        self.hidden_guard(order)?;
        let needs = match &order.action {
            Action::Move { .. } | Action::MoveTo { .. } => Some(Allowed::Move),
            Action::Face { .. } => Some(Allowed::Face),
            Action::Mode { .. } => Some(Allowed::Mode),
            Action::Act { action, .. } => Some(Allowed::Action(*action)),
            Action::EndPhase => None,
            Action::Redeploy { .. }
            | Action::Save { .. }
            | Action::Extend { .. }
            | Action::Gather { .. } => Some(Allowed::Move),
        };
        if let Some(needs) = needs
            && !phase.allows.contains(&needs)
        {
            let what = match needs {
                Allowed::Move => "moving".to_owned(),
                Allowed::Face => "changing facing".to_owned(),
                Allowed::Mode => "changing mode".to_owned(),
                Allowed::Action(a) => self
                    .rules
                    .actions
                    .get(a.index())
                    .map_or("that action".to_owned(), |d| d.name.clone()),
            };
            return Err(Refusal::new(
                RefusalKind::OutOfPhase,
                format!("the {} phase does not allow {what}", phase.name),
            ));
        }
        if let (Action::Move { piece, .. } | Action::MoveTo { piece, .. }, false) =
            (&order.action, phase.movers.is_empty())
            && let Some(p) = self.state.pieces.get(piece.index())
            && p.side == order.side
            && !phase.movers.contains(&p.kind)
        {
            let kinds: Vec<&str> = phase
                .movers
                .iter()
                .filter_map(|k| self.rules.piece_type(*k).map(|t| t.name.as_str()))
                .collect();
            return Err(Refusal::new(
                RefusalKind::OutOfPhase,
                format!(
                    "in the {} phase only {} pieces move",
                    phase.name,
                    kinds.join(", ")
                ),
            ));
        }
        let mut next = self.state.clone();
        let mut events = Vec::new();
        match &order.action {
            Action::Move { piece, path } => {
                self.do_move(&mut next, &mut events, order.side, *piece, path, hooks)?;
            }
            Action::MoveTo { piece, to, facing } => {
                self.do_move_to(&mut next, &mut events, order.side, *piece, *to, *facing)?;
                self.after_move_to(&mut next, &mut events, order.side, *piece, hooks)?;
            }
            Action::Face { piece, facing } => {
                let before = next.pieces.get(piece.index()).map(|p| p.facing);
                self.do_face(&mut next, &mut events, order.side, *piece, *facing)?;
                if let Some(before) = before {
                    self.after_face(&mut next, &mut events, (order.side, *piece, before), hooks)?;
                }
            }
            Action::Mode { piece, mode } => {
                let before = next.pieces.get(piece.index()).map(|p| p.mode);
                self.do_mode(&mut next, &mut events, order.side, *piece, *mode)?;
                if let Some(before) = before {
                    let (side, id) = (order.side, *piece);
                    self.run_game_hook(&mut next, &mut events, side, |world, dice| {
                        hooks.mode_changed(world, id, before, dice)
                    })?;
                }
            }
            Action::Act {
                piece,
                action,
                target,
                intent,
            } => {
                self.do_act(
                    &mut next,
                    &mut events,
                    order.side,
                    *piece,
                    (*action, intent),
                    *target,
                    hooks,
                )?;
            }
            Action::Redeploy { piece, to } => {
                self.do_redeploy(&mut next, &mut events, order.side, *piece, *to)?;
            }
            Action::Save { piece, toward } => {
                self.do_save(&mut next, &mut events, order.side, *piece, *toward)?;
            }
            Action::Extend { piece, to } => {
                self.do_extend(&mut next, &mut events, order.side, *piece, *to)?;
            }
            Action::Gather { piece } => {
                self.do_gather(&mut next, &mut events, order.side, *piece)?;
            }
            Action::EndPhase => {
                if let Some(d) = next.done.get_mut(order.side.index()) {
                    *d = true;
                }
                let all_done = match phase.actor {
                    Actor::Phasing => true,
                    Actor::Both => next.done.iter().all(|d| *d),
                    Actor::NonPhasing => next
                        .done
                        .iter()
                        .enumerate()
                        .all(|(i, d)| *d || i == phasing.index()),
                };
                if all_done {
                    self.advance(&mut next, &mut events, hooks)?;
                }
            }
        }
        self.update_knowledge(&mut next, &mut events);
        let seen = self.seen_by_sides(&self.state, &next, &events, Some(order.side));
        self.append_side_logs(seen);
        let built = self.state.built.len();
        self.state = next;
        self.draw_built(built);
        self.log.extend(events.iter().cloned());
        Ok(events)
    }

    pub(crate) fn own_piece<'s>(
        &self,
        state: &'s State,
        side: SideId,
        id: PieceId,
    ) -> Result<&'s Piece, Refusal> {
        let piece = state.pieces.get(id.index()).ok_or_else(|| {
            Refusal::new(
                RefusalKind::BadPiece,
                format!("there is no piece #{}", id.0),
            )
        })?;
        if piece.side != side {
            return Err(Refusal::new(
                RefusalKind::BadPiece,
                format!("{} is not one of your pieces", piece.name),
            ));
        }
        if !piece.on_board() {
            return Err(Refusal::new(
                RefusalKind::BadPiece,
                format!("{} is not on the board", piece.name),
            ));
        }
        Ok(piece)
    }

    pub(crate) fn allowance(&self, piece: &Piece) -> Result<Cost, Refusal> {
        let ty = self
            .rules
            .piece_type(piece.kind)
            .ok_or_else(|| Refusal::new(RefusalKind::BadPiece, "unknown piece type"))?;
        ty.allowance
            .get(piece.mode.index())
            .copied()
            .flatten()
            .map(|c| crate::turning::after_turns(&self.rules, piece, self.scaled(c)))
            .ok_or_else(|| {
                Refusal::new(
                    RefusalKind::BadMode,
                    format!(
                        "{} cannot move in mode {}",
                        piece.name,
                        self.rules.mode_name(piece.mode)
                    ),
                )
            })
    }

    /// A rule distance as measured on this table: open tables played at a reduced scale
    /// shrink every distance the rules give; grids are unchanged.
    #[must_use]
    pub fn scaled(&self, c: Cost) -> Cost {
        match self.rules.geometry {
            crate::rules::GeometryRules::Open { scale } if scale.den > 0 => {
                let v = i64::from(c.hundredths()) * i64::from(scale.num);
                let d = i64::from(scale.den);
                Cost::from_hundredths(
                    ((v + d / 2).div_euclid(d)).clamp(i64::from(i32::MIN), i64::from(i32::MAX))
                        as i32,
                )
            }
            _ => c,
        }
    }

    /// The data's cost for `piece` to step from `from` to `to` (grid step, terrain and
    /// boundary features), or why it cannot.
    pub(crate) fn data_step_cost(
        &self,
        piece: &Piece,
        from: Cell,
        dir: Facing,
        to: Cell,
    ) -> Result<Cost, String> {
        self.data_step_price(piece, from, dir, to, false)
            .map_err(|ban| self.step_ban_text(piece, from, to, ban))
    }

    /// [`Self::data_step_cost`] with the reason kept as data: a reach query tries tens of
    /// thousands of steps and needs no words for the ones it cannot take. `unlinked` says
    /// that no boundary feature touches either cell, so none is looked up.
    fn data_step_price(
        &self,
        piece: &Piece,
        from: Cell,
        dir: Facing,
        to: Cell,
        unlinked: bool,
    ) -> Result<Cost, StepBan> {
        let rules = &*self.rules;
        let grid = self.board.grid().ok_or(StepBan::NoGrid)?;
        let ty = rules.piece_type(piece.kind).ok_or(StepBan::UnknownType)?;
        let mode = rules
            .modes
            .get(piece.mode.index())
            .ok_or(StepBan::UnknownMode)?;
        let kind = |f: FeatureId| rules.features.get(f.index()).map(|d| &d.kind);
        // Roads and crossings count only on the link itself; barriers also at corners.
        let direct = if unlinked {
            &[]
        } else {
            self.board.features_between(from, to)
        };
        let on_road = direct.iter().any(|f| kind(*f) == Some(&FeatureKind::Road));
        if mode.roads_only && !on_road {
            return Err(StepBan::RoadsOnly);
        }
        let mut cost = grid.step_cost(dir);
        let barriers = if unlinked {
            Vec::new()
        } else {
            self.board.barriers_crossed(from, dir, to, |f| {
                matches!(kind(f), Some(FeatureKind::Barrier { .. }))
            })
        };
        if !barriers.is_empty() {
            let crossing = direct.iter().find_map(|f| match kind(*f) {
                Some(FeatureKind::Crossing { cost }) => Some(*cost),
                _ => None,
            });
            match crossing {
                // A bridge or ford carries the step over every barrier on its boundary,
                // at its own cost, once.
                Some(c) => cost = cost.saturating_add(c),
                None => {
                    for f in &barriers {
                        let closed = rules
                            .features
                            .get(f.index())
                            .is_some_and(|d| d.closed_to.contains(&piece.mode));
                        match kind(*f) {
                            Some(FeatureKind::Barrier { cost: Some(c) }) if !closed => {
                                cost = cost.saturating_add(*c);
                            }
                            _ => return Err(StepBan::Barrier(*f)),
                        }
                    }
                }
            }
        }
        // A road spares a road column the terrain's cost, never the terrain's ban: a road
        // into a lake does not make the lake enterable.
        let terrain = self.board.terrain(to);
        let class = rules
            .move_classes
            .get(ty.move_class.index())
            .ok_or(StepBan::UnknownClass)?;
        match class.enter.get(terrain.index()).copied().flatten() {
            Some(extra) if !(on_road && mode.uses_roads) => cost = cost.saturating_add(extra),
            Some(_) => {}
            None => return Err(StepBan::Terrain(terrain)),
        }
        Ok(cost)
    }

    /// The words for a [`StepBan`].
    fn step_ban_text(&self, piece: &Piece, from: Cell, to: Cell, ban: StepBan) -> String {
        let rules = &*self.rules;
        match ban {
            StepBan::NoGrid => "this board has no grid".to_owned(),
            StepBan::UnknownType => "unknown piece type".to_owned(),
            StepBan::UnknownMode => "unknown mode".to_owned(),
            StepBan::UnknownClass => "unknown movement class".to_owned(),
            StepBan::RoadsOnly => format!(
                "in {} mode {} must follow a road, and there is none from {from} to {to}",
                rules
                    .modes
                    .get(piece.mode.index())
                    .map_or("?", |m| m.name.as_str()),
                piece.name
            ),
            StepBan::Barrier(f) => {
                let name = rules
                    .features
                    .get(f.index())
                    .map_or("?", |d| d.name.as_str());
                format!("the {name} between {from} and {to} cannot be crossed here")
            }
            StepBan::Terrain(t) => {
                let name = rules
                    .terrain
                    .get(t.index())
                    .map_or("?", |t| t.name.as_str());
                let ty = rules
                    .piece_type(piece.kind)
                    .map_or("?", |t| t.name.as_str());
                format!("{ty} pieces may not enter {name} at {to}")
            }
        }
    }

    /// The first stacking limit that `mover` would break at `cell`, as a message.
    pub(crate) fn stacking_problem(
        &self,
        state: &State,
        cell: Cell,
        mover: PieceId,
        side: SideId,
        entering: bool,
    ) -> Option<String> {
        self.stacking_problem_among(state, cell, mover, side, entering, true)
    }

    /// [`Self::stacking_problem`]; with `anyone_there` false, the caller knows no other
    /// piece of the side is at `cell` and the piece list is not walked.
    fn stacking_problem_among(
        &self,
        state: &State,
        cell: Cell,
        mover: PieceId,
        side: SideId,
        entering: bool,
        anyone_there: bool,
    ) -> Option<String> {
        let rules = &*self.rules;
        let me = state.pieces.get(mover.index())?;
        let listed: &[Piece] = if anyone_there { &state.pieces } else { &[] };
        let others = || {
            listed.iter().filter(move |p| {
                p.id != mover
                    && p.side == side
                    && p.place.covers(cell)
                    && p.attached_to != Some(mover)
                    && me.attached_to != Some(p.id)
            })
        };
        let my_mode_stacks = rules.modes.get(me.mode.index()).is_none_or(|m| m.stacks);
        if others().next().is_some() {
            let blocker =
                others().find(|p| rules.modes.get(p.mode.index()).is_some_and(|m| !m.stacks));
            if !my_mode_stacks {
                return Some(format!(
                    "pieces in {} mode cannot share a place",
                    rules.mode_name(me.mode)
                ));
            }
            if let Some(b) = blocker {
                return Some(format!(
                    "{} is in {} mode and cannot share its place",
                    b.name,
                    rules.mode_name(b.mode)
                ));
            }
        }
        for (si, stack) in rules.stacking.iter().enumerate() {
            let measure = |p: &Piece| -> i64 {
                match stack.measure {
                    StackMeasure::Weight => rules
                        .piece_type(p.kind)
                        .and_then(|t| t.stack.get(si))
                        .map_or(0, |c| i64::from(c.hundredths())),
                    StackMeasure::Counter(c) => i64::from(p.counter(c)),
                }
            };
            let mine = measure(me);
            if mine == 0 {
                continue;
            }
            let total: i64 = others().map(measure).sum::<i64>() + mine;
            if total > i64::from(stack.capacity) {
                let shown = |v: i64| match stack.measure {
                    StackMeasure::Weight => Cost::from_hundredths(v as i32).to_string(),
                    StackMeasure::Counter(_) => v.to_string(),
                };
                let verb = if entering {
                    "moving in would make"
                } else {
                    "it makes"
                };
                return Some(format!(
                    "{verb} {} {} there, over the limit of {}",
                    shown(total),
                    stack.name,
                    shown(i64::from(stack.capacity))
                ));
            }
        }
        None
    }

    fn zone_holder<'s>(&self, state: &'s State, cell: Cell, side: SideId) -> Option<&'s Piece> {
        state.pieces.iter().find(|p| {
            self.zone_cells(p, side)
                .is_some_and(|cells| cells.contains(&cell))
        })
    }

    /// The cells where `p` holds pieces of `side` in its zone of control, if it has one.
    fn zone_cells(&self, p: &Piece, side: SideId) -> Option<[Cell; 3]> {
        let rules = &*self.rules;
        let grid = self.board.grid()?;
        if !rules.zoc.stops_movement || p.side == side || !p.on_board() {
            return None;
        }
        let ty = rules.piece_type(p.kind)?;
        if !ty.exerts_zoc
            || rules
                .zoc
                .lost_with_counters
                .iter()
                .any(|c| p.counter(*c) > 0)
            || rules.zoc.lost_with_flags.iter().any(|f| p.flag(*f))
        {
            return None;
        }
        let at = p.place.cell()?;
        Some(grid.front_cells(at, p.facing))
    }

    /// Who stands where in `state`, by cell, as `mover` sees it for a reach query.
    fn crowd(&self, state: &State, mover: &Piece) -> Crowd {
        let board = &self.board;
        let mut crowd = Crowd::new(board.cell_count());
        for (a, b) in board.links.keys() {
            for i in [a, b].into_iter().filter_map(|c| board.index(*c)) {
                crowd.link(i);
            }
        }
        for p in &state.pieces {
            let covered: &[Cell] = match &p.place {
                Place::Cell(c) => std::slice::from_ref(c),
                Place::Spread(cells) => cells,
                Place::Point { .. } | Place::Off => &[],
            };
            if p.id != mover.id {
                for i in covered.iter().filter_map(|c| board.index(*c)) {
                    crowd.occupy(i, p.side != mover.side);
                }
            }
            for i in self
                .zone_cells(p, mover.side)
                .into_iter()
                .flatten()
                .filter_map(|c| board.index(c))
            {
                crowd.zone(i, p.id);
            }
        }
        // With no one else there, the cell does not matter.
        let alone = mover
            .place
            .cell()
            .and_then(|c| self.stacking_problem_among(state, c, mover.id, mover.side, true, false));
        crowd.set_alone(alone);
        crowd
    }

    /// A refusal when a flag keeps `piece` from moving.
    pub(crate) fn pinned(&self, piece: &Piece) -> Result<(), Refusal> {
        match self.rules.pinned_by.iter().find(|f| piece.flag(**f)) {
            Some(f) => Err(Refusal::new(
                RefusalKind::AlreadyUsed,
                format!(
                    "{} cannot move: it is {}",
                    piece.name,
                    self.rules.flag_name(*f)
                ),
            )),
            None => Ok(()),
        }
    }

    /// What entering `to` means for `piece`, or why it cannot.
    ///
    /// A move passes no `crowd` and gets every refusal and stop reason in words. A reach
    /// query passes its index of who stands where (so no step walks the piece list) and
    /// keeps only the entries and the kinds of refusal: its messages are left empty, apart
    /// from a failing hook's, which the query reports.
    #[allow(clippy::too_many_arguments)]
    fn enter(
        &self,
        state: &State,
        piece: &Piece,
        from: Cell,
        dir: Facing,
        to: Cell,
        hooks: &mut dyn Hooks,
        crowd: Option<&Crowd>,
    ) -> Result<(Entry, Option<String>), Refusal> {
        let say = |words: &dyn Fn() -> String| {
            if crowd.is_some() {
                String::new()
            } else {
                words()
            }
        };
        if !self.board.contains(to) {
            return crate::company::exit_entry(
                &self.rules,
                &self.board,
                &self.sides,
                state,
                piece,
                from,
                dir,
                to,
            );
        }
        let world = World {
            rules: &self.rules,
            board: &self.board,
            sides: &self.sides,
            state,
        };
        // On the board (checked above), so the index exists.
        let at = self.board.index(to).unwrap_or(usize::MAX);
        let unlinked = crowd.is_some_and(|c| {
            self.board
                .index(from)
                .is_some_and(|here| c.unlinked(here, at))
        });
        if !unlinked && self.crossing_room(state, from, to) == Some(0) {
            return Err(Refusal::new(
                RefusalKind::Impassable,
                say(&|| {
                    format!(
                        "the crossing between {from} and {to} has carried all the pieces it can this turn"
                    )
                }),
            ));
        }
        let data = self.data_step_price(piece, from, dir, to, unlinked);
        let cost = hooks
            .move_cost(&world, piece.id, from, to, data.ok())
            .map_err(|e| Refusal::new(RefusalKind::HookFailed, e.message))?;
        let cost = match (cost, data) {
            (Some(c), _) if c.is_negative() => {
                return Err(Refusal::new(
                    RefusalKind::HookFailed,
                    format!(
                        "the ruleset's move_cost hook gave a negative cost ({c}) for {} to enter {to}",
                        piece.name
                    ),
                ));
            }
            (Some(c), _) => c,
            (None, Err(ban)) => {
                return Err(Refusal::new(
                    RefusalKind::Impassable,
                    say(&|| self.step_ban_text(piece, from, to, ban)),
                ));
            }
            (None, Ok(_)) => {
                return Err(Refusal::new(
                    RefusalKind::Impassable,
                    say(&|| format!("the ruleset forbids {} to enter {to}", piece.name)),
                ));
            }
        };
        let enemy_there = match crowd {
            Some(c) => c.enemy_at(at),
            None => state
                .pieces
                .iter()
                .any(|p| p.side != piece.side && p.on_board() && p.place.covers(to)),
        };
        if enemy_there {
            return Err(Refusal::new(
                RefusalKind::Occupied,
                say(&|| format!("{to} is held by the enemy")),
            ));
        }
        let ty = self.rules.piece_type(piece.kind);
        let mut can_stop = crate::company::half_hex_entry(
            &self.rules,
            &self.board,
            &self.sides,
            state,
            piece,
            from,
            to,
        )
        .map_err(|why| Refusal::new(RefusalKind::Impassable, why))?;
        // With no other own piece there, sharing is free and only the mover counts for
        // stacking: the walks over the piece list are skipped.
        let friends_there = crowd.is_none_or(|c| c.friend_at(at));
        let sharing = if friends_there {
            crate::company::sharing(&self.rules, state, piece, to)
        } else {
            crate::company::Sharing::Free
        };
        let (share_stop, share_go, mut stop_reason) = match sharing {
            crate::company::Sharing::Free => (true, true, None),
            _ => crate::company::sharing_entry(state, &sharing)?,
        };
        can_stop &= share_stop;
        let problem = match crowd {
            Some(c) if !friends_there => c.alone().map(std::borrow::Cow::Borrowed),
            _ => self
                .stacking_problem(state, to, piece.id, piece.side, true)
                .map(std::borrow::Cow::Owned),
        };
        if let Some(problem) = problem {
            if ty.is_some_and(|t| t.passes_friends) || sharing.passes() {
                can_stop = false;
            } else {
                return Err(Refusal::new(
                    RefusalKind::Occupied,
                    say(&|| format!("{} cannot enter {to}: {problem}", piece.name)),
                ));
            }
        }
        let mut can_continue = share_go;
        let holder = match crowd {
            Some(c) => c.zone_at(at).and_then(|id| state.pieces.get(id.index())),
            None => self.zone_holder(state, to, piece.side),
        };
        if let Some(holder) = holder {
            can_continue = false;
            stop_reason = Some(say(&|| {
                format!(
                    "entered the zone of control of {}",
                    self.label(state, piece.side, holder)
                )
            }));
        }
        if hooks
            .stops(&world, piece.id, from, to)
            .map_err(|e| Refusal::new(RefusalKind::HookFailed, e.message))?
        {
            can_continue = false;
            stop_reason.get_or_insert_with(|| {
                say(&|| "the ruleset's stop hook ends the move here".to_owned())
            });
        }
        let class = ty.and_then(|t| self.rules.move_classes.get(t.move_class.index()));
        if class.is_some_and(|c| c.stops_on_costly) {
            let grid_cost = self.board.grid().map_or(Cost::ZERO, |g| g.step_cost(dir));
            if cost > grid_cost {
                can_continue = false;
                stop_reason.get_or_insert_with(|| {
                    say(&|| {
                        let t = self.board.terrain(to);
                        let costly_terrain = class
                            .and_then(|c| c.enter.get(t.index()).copied().flatten())
                            .is_some_and(|extra| extra > Cost::ZERO);
                        match self.rules.terrain.get(t.index()) {
                            Some(d) if costly_terrain => {
                                format!("entering {} ends the move", d.name)
                            }
                            _ => "a step that costs extra ends the move".to_owned(),
                        }
                    })
                });
            }
        }
        Ok((
            Entry {
                cost,
                can_stop,
                can_continue,
            },
            stop_reason,
        ))
    }

    /// [`Self::enter`] for a step a reach query has found plain ([`PlainSteps::plain`]): no
    /// boundary feature at either cell, nobody on the cell entered, no half-hex, and the
    /// mover breaks no stacking limit alone. What is left of the rules — the terrain's price,
    /// the hooks, a zone of control, a costly step that ends the move — is asked in the same
    /// order as `enter` asks it, with the per-query lookups made once. `None`: the step is
    /// not allowed; a failing hook also leaves its refusal in `failure`. (The entry comes
    /// back in a register: a reach query takes tens of thousands of steps.) With `priced`
    /// (the hook is pure), the hook's answers are kept by terrain and kind of step.
    #[allow(clippy::too_many_arguments)]
    fn plain_entry(
        &self,
        state: &State,
        piece: &Piece,
        (from, dir, to): (Cell, Facing, Cell),
        (at, plain, crowd): (usize, &PlainSteps<'_>, &Crowd),
        priced: Option<&mut [Option<Option<Cost>>]>,
        hooks: &mut dyn Hooks,
        failure: &mut Option<Refusal>,
    ) -> Option<Entry> {
        let world = World {
            rules: &self.rules,
            board: &self.board,
            sides: &self.sides,
            state,
        };
        let mut fail = |message: String| {
            failure.get_or_insert(Refusal::new(RefusalKind::HookFailed, message));
            None
        };
        let step = plain.grid.step_cost(dir);
        let terrain = self.board.terrain_of_index(at).index();
        let data = if plain.roads_only {
            None
        } else {
            plain
                .enter
                .get(terrain)
                .copied()
                .flatten()
                .map(|extra| step.saturating_add(extra))
        };
        let diagonal =
            matches!(plain.grid, Grid::Square(_)) && crate::geometry::square::is_diagonal(dir);
        let slot = priced.and_then(|p| p.get_mut(terrain * 2 + usize::from(diagonal)));
        let asked = match slot {
            Some(Some(known)) => Ok(*known),
            Some(slot) => {
                let answer = hooks.move_cost(&world, piece.id, from, to, data);
                if let Ok(a) = &answer {
                    *slot = Some(*a);
                }
                answer
            }
            None => hooks.move_cost(&world, piece.id, from, to, data),
        };
        let cost = match asked {
            Ok(Some(c)) if c.is_negative() => {
                return fail(format!(
                    "the ruleset's move_cost hook gave a negative cost ({c}) for {} to enter {to}",
                    piece.name
                ));
            }
            Ok(Some(c)) => c,
            Ok(None) => return None,
            Err(e) => return fail(e.message),
        };
        let mut can_continue = crowd.zone_at(at).is_none();
        match hooks.stops(&world, piece.id, from, to) {
            Ok(true) => can_continue = false,
            Ok(false) => {}
            Err(e) => return fail(e.message),
        }
        if plain.stops_on_costly && cost > step {
            can_continue = false;
        }
        Some(Entry {
            cost,
            can_stop: true,
            can_continue,
        })
    }

    /// Every place `piece` can reach with a move now.
    ///
    /// # Errors
    /// A refusal when the piece cannot move at all, or a hook fails.
    pub fn reach(&self, id: PieceId, hooks: &mut dyn Hooks) -> Result<Reach, Refusal> {
        self.reach_in(&self.state, id, hooks)
    }

    /// [`Self::reach`] over `state` (a side's perceived state).
    pub(crate) fn reach_in(
        &self,
        state: &State,
        id: PieceId,
        hooks: &mut dyn Hooks,
    ) -> Result<Reach, Refusal> {
        let piece = state
            .pieces
            .get(id.index())
            .filter(|p| p.on_board())
            .ok_or_else(|| {
                Refusal::new(
                    RefusalKind::BadPiece,
                    format!("there is no piece #{} on the board", id.0),
                )
            })?;
        self.pinned(piece)?;
        let allowance = self
            .allowance(piece)?
            .saturating_add(self.saved_points(piece));
        let Some(grid) = self.board.grid() else {
            return Ok(Reach::Radius(if piece.moved {
                Cost::ZERO
            } else {
                allowance
            }));
        };
        if piece.moved || crate::company::held(&self.rules, &self.state, piece).is_some() {
            return Ok(Reach::Cells(ReachMap::default()));
        }
        let start = piece
            .place
            .cell()
            .ok_or_else(|| Refusal::new(RefusalKind::BadPiece, "the piece has no cell"))?;
        let max_steps = self
            .rules
            .piece_type(piece.kind)
            .and_then(|t| t.max_steps.get(piece.mode.index()).copied().flatten());
        let max_steps = crate::turning::step_limit(&self.rules, &state.options, piece, max_steps);
        let mut failure: Option<Refusal> = None;
        let board = &self.board;
        // Cells just off the board across a baseline the piece may leave by get indices
        // after the board's own, so leaving the board is one more place to end a move.
        let exits = crate::company::exit_cells(
            board,
            &crate::company::exit_edges(&self.rules, &self.sides, &self.state, piece),
        );
        let crowd = self.crowd(state, piece);
        let fast = PlainSteps::of(&self.rules, board, piece);
        // A pure move_cost hook answers a plain step by its terrain and kind of step alone
        // (the mover, options and settings being fixed for the query): asked once each.
        let mut priced: Option<Vec<Option<Option<Cost>>>> = hooks
            .move_cost_is_pure()
            .then(|| vec![None; self.rules.terrain.len() * 2]);
        let cells = crate::turning::reach(
            &self.rules,
            &state.options,
            piece,
            grid,
            start,
            allowance,
            max_steps,
            board.cell_count() + exits.len(),
            |c| {
                board.index(c).or_else(|| {
                    exits
                        .iter()
                        .position(|e| *e == c)
                        .map(|i| board.cell_count() + i)
                })
            },
            |from, dir, to, _spent| {
                let plain = fast
                    .as_ref()
                    .and_then(|f| f.plain(board, &crowd, from, to).map(|at| (f, at)));
                if let Some((f, at)) = plain {
                    return self.plain_entry(
                        state,
                        piece,
                        (from, dir, to),
                        (at, f, &crowd),
                        priced.as_deref_mut(),
                        hooks,
                        &mut failure,
                    );
                }
                match self.enter(state, piece, from, dir, to, hooks, Some(&crowd)) {
                    Ok((entry, _)) => Some(entry),
                    Err(r) if r.kind == RefusalKind::HookFailed => {
                        failure.get_or_insert(r);
                        None
                    }
                    Err(_) => None,
                }
            },
        );
        match failure {
            Some(r) => Err(r),
            None => Ok(Reach::Cells(cells)),
        }
    }

    fn do_move(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        side: SideId,
        id: PieceId,
        path: &[Cell],
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
        let piece = self.own_piece(next, side, id)?.clone();
        let grid = self.board.grid().ok_or_else(|| {
            Refusal::new(
                RefusalKind::BadPath,
                "this is an open table: move to a point",
            )
        })?;
        self.pinned(&piece)?;
        let allowance = self
            .allowance(&piece)?
            .saturating_add(self.saved_points(&piece));
        if piece.moved {
            return Err(Refusal::new(
                RefusalKind::AlreadyUsed,
                format!("{} has already moved", piece.name),
            ));
        }
        if let Some(why) = crate::company::held(&self.rules, next, &piece) {
            return Err(Refusal::new(RefusalKind::AlreadyUsed, why));
        }
        let start = match &piece.place {
            Place::Cell(c) => *c,
            _ => {
                return Err(Refusal::new(
                    RefusalKind::BadPath,
                    format!(
                        "{} is spread over several cells; gather it before moving",
                        piece.name
                    ),
                ));
            }
        };
        if path.is_empty() {
            return Err(Refusal::new(RefusalKind::BadPath, "the path is empty"));
        }
        let ty = self
            .rules
            .piece_type(piece.kind)
            .ok_or_else(|| Refusal::new(RefusalKind::BadPiece, "unknown piece type"))?;
        if let Some(max) = ty.max_steps.get(piece.mode.index()).copied().flatten()
            && path.len() > max as usize
        {
            return Err(Refusal::new(
                RefusalKind::TooFar,
                format!(
                    "{} may move at most {max} cell{} in {} mode; the path has {}",
                    piece.name,
                    if max == 1 { "" } else { "s" },
                    self.rules.mode_name(piece.mode),
                    path.len()
                ),
            ));
        }
        crate::turning::check_slowed(&self.rules, &next.options, &piece, path.len())?;
        let mut spent = Cost::ZERO;
        let mut at = start;
        let mut last_dir = piece.facing;
        // With an oblique rule in force, which side steps keep the heading.
        let headings =
            crate::turning::oblique_headings(&self.rules, grid, &next.options, &piece, start, path);
        let mut stopped = None;
        let mut contact: Option<Vec<PieceId>> = None;
        let mut taken = 0;
        let may_exit =
            !crate::company::exit_edges(&self.rules, &self.sides, next, &piece).is_empty();
        for (i, &to) in path.iter().enumerate() {
            if !self.board.contains(to) && !may_exit {
                return Err(Refusal::new(
                    RefusalKind::BadPath,
                    format!("{to} is off the board"),
                ));
            }
            let Some(dir) = grid.direction_to(at, to) else {
                return Err(Refusal::new(
                    RefusalKind::BadPath,
                    format!("{to} is not next to {at}"),
                ));
            };
            crate::turning::check_step(&self.rules, grid, &piece, last_dir, dir, to)?;
            // Walking into enemies the side did not know were there is contact, not a
            // refusal: a refusal's wording would tell what is there.
            let unseen = self.unseen_enemies_at(next, side, to);
            if !unseen.is_empty() {
                contact = Some(unseen);
                break;
            }
            let (entry, reason) = self.enter(next, &piece, at, dir, to, hooks, None)?;
            spent = spent.saturating_add(entry.cost);
            if spent > allowance {
                return Err(Refusal::new(
                    RefusalKind::TooFar,
                    format!(
                        "the path costs {spent} by {to}, but {} has {allowance} in {} mode",
                        piece.name,
                        self.rules.mode_name(piece.mode)
                    ),
                ));
            }
            let last = i + 1 == path.len();
            if !entry.can_continue && !last {
                return Err(Refusal::new(
                    RefusalKind::MustStop,
                    format!(
                        "{} must stop at {to} ({})",
                        piece.name,
                        reason.unwrap_or_else(|| "the ruleset says so".into())
                    ),
                ));
            }
            if last && !entry.can_stop {
                return Err(Refusal::new(
                    RefusalKind::Occupied,
                    format!("{} may pass through {to} but not stop there", piece.name),
                ));
            }
            if last && !entry.can_continue {
                stopped = reason;
            }
            let from = at;
            at = to;
            last_dir = headings
                .as_ref()
                .and_then(|h| h.get(i))
                .copied()
                .unwrap_or(dir);
            taken = i + 1;
            self.count_crossing(next, from, to);
            let met = self.new_contacts(next, &piece, from, to);
            if !met.is_empty() {
                contact = Some(met);
                break;
            }
        }
        let faces = ty.faces;
        let mut full_path = Vec::with_capacity(path.len() + 1);
        full_path.push(start);
        full_path.extend_from_slice(&path[..taken]);
        crate::company::leave_behind(&self.rules, next, events, id);
        for p in &mut next.pieces {
            if p.id == id {
                p.place = Place::Cell(at);
                p.moved = true;
                p.attached_to = None;
                if faces {
                    p.facing = last_dir;
                }
            } else if p.attached_to == Some(id) {
                p.place = Place::Cell(at);
            }
        }
        let steps = full_path.len() - 1;
        if steps > 0 {
            self.spend_saved(next, id);
        }
        let moved_path = full_path.clone();
        if steps > 0 {
            events.push(Event::Moved {
                piece: id,
                path: full_path,
                cost: spent,
                stopped: if contact.is_some() {
                    Some("came into contact with the enemy".to_owned())
                } else {
                    stopped
                },
            });
        }
        crate::company::settle(&self.rules, &self.board, next, events, id, steps, at);
        if let Some(met) = contact {
            events.push(self.contact_event(next, id, at, met));
        }
        if steps > 0 {
            self.after_move(next, events, (side, id, piece.facing), &moved_path, hooks)?;
        }
        Ok(())
    }

    /// Asks the `faced` hook what a facing change brings with it (or whether the ruleset
    /// forbids it), and applies it.
    fn after_face(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        (side, id, before): (SideId, PieceId, Facing),
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
        self.run_game_hook(next, events, side, |world, dice| {
            hooks.faced(world, id, before, dice)
        })
    }

    /// Runs a game hook on behalf of `side` — it sees the state as it is now and rolls that
    /// side's dice — then logs its rolls and applies the changes it asks for.
    fn run_game_hook(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        side: SideId,
        call: impl FnOnce(
            &World<'_>,
            &mut HookDice<'_>,
        ) -> Result<Vec<HookCommand>, crate::hooks::HookFailure>,
    ) -> Result<(), Refusal> {
        let view = next.clone();
        let world = World {
            rules: &self.rules,
            board: &self.board,
            sides: &self.sides,
            state: &view,
        };
        let mut dice = HookDice::new(next.dice_of(Some(side)), &self.rules);
        let commands = call(&world, &mut dice)
            .map_err(|e| Refusal::new(RefusalKind::HookFailed, e.message))?;
        for roll in dice.into_rolls() {
            events.push(Event::Rolled { roll });
        }
        self.apply_commands(next, events, commands)
    }

    /// Asks the `moved` hook what a finished grid move brings with it, and applies it.
    fn after_move(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        (side, id, facing): (SideId, PieceId, Facing),
        path: &[Cell],
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
        self.run_game_hook(next, events, side, |world, dice| {
            hooks.moved(world, id, path, facing, dice)
        })
    }

    /// Asks the `moved_on_table` hook what a finished open-table move brings with it (the
    /// last `MovedOnTable` event gives where it started), and applies it.
    fn after_move_to(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        side: SideId,
        id: PieceId,
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
        let Some(from) = events.iter().rev().find_map(|e| match e {
            Event::MovedOnTable { piece, from, .. } if *piece == id => Some(*from),
            _ => None,
        }) else {
            return Ok(());
        };
        let facing = self
            .state
            .pieces
            .get(id.index())
            .and_then(|p| match p.place {
                Place::Point { facing, .. } => Some(facing),
                _ => None,
            })
            .unwrap_or_default();
        self.run_game_hook(next, events, side, |world, dice| {
            hooks.moved_on_table(world, id, from, facing, dice)
        })
    }

    /// Lifts a dummy and puts it down elsewhere (once per turn).
    fn do_redeploy(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        side: SideId,
        id: PieceId,
        to: Cell,
    ) -> Result<(), Refusal> {
        let piece = self.own_piece(next, side, id)?.clone();
        let ty = self
            .rules
            .piece_type(piece.kind)
            .ok_or_else(|| Refusal::new(RefusalKind::BadPiece, "unknown piece type"))?;
        if !ty.dummy {
            return Err(Refusal::new(
                RefusalKind::BadPiece,
                format!(
                    "{} is not a dummy; only dummies are lifted and put down",
                    piece.name
                ),
            ));
        }
        if next.redeployed.contains(&id) {
            return Err(Refusal::new(
                RefusalKind::AlreadyUsed,
                format!("{} has already been redeployed this turn", piece.name),
            ));
        }
        if !self.board.contains(to) {
            return Err(Refusal::new(
                RefusalKind::BadPath,
                format!("{to} is off the board"),
            ));
        }
        let terrain = self.board.terrain(to);
        let enterable = self
            .rules
            .move_classes
            .get(ty.move_class.index())
            .is_some_and(|c| c.enter.get(terrain.index()).is_some_and(Option::is_some));
        if !enterable {
            let name = self
                .rules
                .terrain
                .get(terrain.index())
                .map_or("?", |t| t.name.as_str());
            return Err(Refusal::new(
                RefusalKind::Impassable,
                format!("{} pieces may not stand in {name} at {to}", ty.name),
            ));
        }
        let known_enemy = next.pieces.iter().any(|p| {
            p.side != side
                && p.on_board()
                && p.place.covers(to)
                && (self.sighting().is_none()
                    || next
                        .knowledge
                        .get(side.index())
                        .is_some_and(|k| k.knows_position(p.id)))
        });
        if known_enemy {
            return Err(Refusal::new(
                RefusalKind::Occupied,
                format!("{to} is held by the enemy"),
            ));
        }
        if let Some(problem) = self.stacking_problem(next, to, id, side, true) {
            return Err(Refusal::new(
                RefusalKind::Occupied,
                format!("{} cannot be put down at {to}: {problem}", piece.name),
            ));
        }
        next.redeployed.push(id);
        let unseen = self.unseen_enemies_at(next, side, to);
        if !unseen.is_empty() {
            // Enemies the side did not know of hold the cell: the dummy stays where it
            // was and the two sides are in contact, as a move into them would be.
            let at = piece.place.cell().unwrap_or(to);
            events.push(self.contact_event(next, id, at, unseen));
            return Ok(());
        }
        for p in &mut next.pieces {
            if p.id == id {
                p.place = Place::Cell(to);
                p.attached_to = None;
            } else if p.attached_to == Some(id) {
                p.attached_to = None;
            }
        }
        events.push(Event::Redeployed { piece: id, to });
        Ok(())
    }

    fn do_move_to(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        side: SideId,
        id: PieceId,
        to: Point,
        facing: Option<Angle>,
    ) -> Result<(), Refusal> {
        let piece = self.own_piece(next, side, id)?.clone();
        let Place::Point {
            at: from,
            facing: old,
        } = piece.place
        else {
            return Err(Refusal::new(
                RefusalKind::BadPath,
                "this piece is on a grid: give a path of cells",
            ));
        };
        let allowance = self.allowance(&piece)?;
        let move_counter = self.rules.open_table.move_counter;
        if piece.moved {
            return Err(Refusal::new(
                RefusalKind::AlreadyUsed,
                format!("{} has already moved", piece.name),
            ));
        }
        if let Some(c) = move_counter
            && piece.counter(c) < 1
        {
            return Err(Refusal::new(
                RefusalKind::AlreadyUsed,
                format!(
                    "{} has no moves left ({} is {})",
                    piece.name,
                    self.rules.counter_name(c),
                    piece.counter(c)
                ),
            ));
        }
        if !self.board.contains_point(to) {
            return Err(Refusal::new(
                RefusalKind::BadPath,
                format!("{to} is off the table"),
            ));
        }
        let mut cost = open::move_cost(from, to);
        let ty = self.rules.piece_type(piece.kind);
        let class = ty.and_then(|t| self.rules.move_classes.get(t.move_class.index()));
        for area in self.board.areas_crossed(from, to) {
            match class.and_then(|c| c.enter.get(area.terrain.index()).copied().flatten()) {
                // An area's extra cost is a rule distance, so it shrinks with the scale.
                Some(extra) => cost = cost.saturating_add(self.scaled(extra)),
                None => {
                    return Err(Refusal::new(
                        RefusalKind::Impassable,
                        format!("{} cannot pass through {}", piece.name, area.name),
                    ));
                }
            }
        }
        if cost > allowance {
            return Err(Refusal::new(
                RefusalKind::TooFar,
                format!(
                    "the move costs {cost}\" but {} has {allowance}\" in {} mode",
                    piece.name,
                    self.rules.mode_name(piece.mode)
                ),
            ));
        }
        let new_facing = facing.unwrap_or(old);
        let approach = self.check_open_approach(next, &piece, (from, new_facing), to)?;
        for p in &mut next.pieces {
            if p.id == id {
                p.place = Place::Point {
                    at: to,
                    facing: new_facing,
                };
                // With a move counter, a piece moves again until the counter runs out or
                // it stops in an enemy's threatened zone.
                p.moved = move_counter.is_none() || approach.entered_zone;
                p.attached_to = None;
            } else if p.attached_to == Some(id) {
                p.place = Place::Point {
                    at: to,
                    facing: new_facing,
                };
            }
        }
        events.push(Event::MovedOnTable {
            piece: id,
            from,
            to,
            cost,
        });
        if new_facing != old {
            events.push(Event::Faced {
                piece: id,
                facing: new_facing.to_string(),
            });
        }
        if let Some(counter) = move_counter {
            let effect = Effect::AddCounter {
                who: Who::Actor,
                counter,
                amount: -1,
            };
            self.apply_effect(next, events, &effect, id, None, 0);
        }
        Ok(())
    }

    fn do_face(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        side: SideId,
        id: PieceId,
        facing: Facing,
    ) -> Result<(), Refusal> {
        let piece = self.own_piece(next, side, id)?;
        let grid: &Grid = self.board.grid().ok_or_else(|| {
            Refusal::new(
                RefusalKind::BadMode,
                "on an open table, give the facing with a move",
            )
        })?;
        if self.rules.piece_type(piece.kind).is_some_and(|t| !t.faces) {
            return Err(Refusal::new(
                RefusalKind::BadMode,
                format!("{} has no facing to change", piece.name),
            ));
        }
        if facing.0 >= grid.facings() {
            return Err(Refusal::new(
                RefusalKind::BadMode,
                format!(
                    "facing {} does not exist on this grid (0..{})",
                    facing.0,
                    grid.facings()
                ),
            ));
        }
        let _ = piece;
        self.count_turn(next, events, id)?;
        if let Some(p) = next.pieces.get_mut(id.index()) {
            p.facing = facing;
        }
        events.push(Event::Faced {
            piece: id,
            facing: grid.facing_name(facing).to_owned(),
        });
        Ok(())
    }

    fn do_mode(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        side: SideId,
        id: PieceId,
        mode: ModeId,
    ) -> Result<(), Refusal> {
        let piece = self.own_piece(next, side, id)?;
        let Some(mode_def) = self.rules.modes.get(mode.index()) else {
            return Err(Refusal::new(RefusalKind::BadMode, "no such mode"));
        };
        let ty = self
            .rules
            .piece_type(piece.kind)
            .ok_or_else(|| Refusal::new(RefusalKind::BadPiece, "unknown piece type"))?;
        if ty.allowance.get(mode.index()).is_none_or(Option::is_none) {
            return Err(Refusal::new(
                RefusalKind::BadMode,
                format!("{} pieces cannot take {} mode", ty.name, mode_def.name),
            ));
        }
        if piece.mode == mode {
            return Err(Refusal::new(
                RefusalKind::BadMode,
                format!("{} is already in {} mode", piece.name, mode_def.name),
            ));
        }
        // Some changes take a whole movement phase standing still (the block rules'
        // strategic → battle): the piece must not have moved, and may not move after.
        let stationary = mode_def.stationary_from.contains(&piece.mode);
        if stationary && piece.moved {
            return Err(Refusal::new(
                RefusalKind::AlreadyUsed,
                format!(
                    "changing from {} to {} mode takes a whole phase standing still, and {} has moved",
                    self.rules.mode_name(piece.mode),
                    mode_def.name,
                    piece.name
                ),
            ));
        }
        // On an open table with counted moves, some changes cost a move (limbering up).
        let spends = self
            .rules
            .open_table
            .move_counter
            .filter(|_| self.rules.open_table.mode_costs_a_move.contains(&mode));
        if let Some(c) = spends
            && (piece.counter(c) < 1 || piece.moved)
        {
            return Err(Refusal::new(
                RefusalKind::AlreadyUsed,
                format!(
                    "changing to {} mode costs a move, and {} has none left",
                    mode_def.name, piece.name
                ),
            ));
        }
        let from = self.rules.mode_name(piece.mode).to_owned();
        let name = piece.name.clone();
        if let Some(p) = next.pieces.get_mut(id.index()) {
            p.mode = mode;
            if stationary {
                p.moved = true;
            }
        }
        if let Some(c) = next.pieces.get(id.index()).and_then(|p| p.place.cell())
            && let Some(problem) = self.stacking_problem(next, c, id, side, false)
        {
            return Err(Refusal::new(
                RefusalKind::Occupied,
                format!("{name} cannot take {} mode here: {problem}", mode_def.name),
            ));
        }
        events.push(Event::ModeChanged {
            piece: id,
            from,
            to: mode_def.name.clone(),
        });
        if let Some(counter) = spends {
            let effect = Effect::AddCounter {
                who: Who::Actor,
                counter,
                amount: -1,
            };
            self.apply_effect(next, events, &effect, id, None, 0);
        }
        Ok(())
    }

    /// Distance between two pieces: grid steps, or whole inches (rounded down) on a table.
    #[must_use]
    pub fn distance(&self, a: &Piece, b: &Piece) -> Option<u32> {
        match (&a.place, &b.place) {
            (Place::Point { at: pa, .. }, Place::Point { at: pb, .. }) => {
                let d = open::distance(*pa, *pb);
                u32::try_from(d.0 / 1000).ok()
            }
            _ => {
                let (ca, cb) = (a.place.cell()?, b.place.cell()?);
                Some(self.board.grid()?.distance(ca, cb))
            }
        }
    }

    /// Distance between two pieces in the rules' own units: on an open table played at a
    /// reduced scale, the measured inches converted back to rule inches (whole inches,
    /// rounded down), so that charts read the distances the rules print; otherwise as
    /// [`Self::distance`].
    #[must_use]
    pub fn rule_distance(&self, a: &Piece, b: &Piece) -> Option<u32> {
        match (&a.place, &b.place, &self.rules.geometry) {
            (
                Place::Point { at: pa, .. },
                Place::Point { at: pb, .. },
                crate::rules::GeometryRules::Open { scale },
            ) if scale.num > 0 => {
                let d = i128::from(open::distance(*pa, *pb).0) * i128::from(scale.den)
                    / i128::from(scale.num);
                u32::try_from(d / 1000).ok()
            }
            _ => self.distance(a, b),
        }
    }

    /// Where `b` lies in `a`'s arcs.
    #[must_use]
    pub fn bearing(&self, a: &Piece, b: &Piece) -> Option<Bearing> {
        match (&a.place, &b.place) {
            (Place::Point { at: pa, facing }, Place::Point { at: pb, .. }) => {
                Some(open::arc(*pa, *facing, *pb, self.rules.arcs))
            }
            _ => {
                let (ca, cb) = (a.place.cell()?, b.place.cell()?);
                Some(self.board.grid()?.arc(ca, a.facing, cb, self.rules.arcs))
            }
        }
    }

    /// True when the centre-to-centre line from `a` to `b` crosses no cell that blocks
    /// sight (terrain that blocks it, or a piece). A line running between two cells is
    /// blocked only when both block. Open tables: blocked by areas whose terrain blocks.
    #[must_use]
    pub fn clear_sight(&self, state: &State, a: &Piece, b: &Piece) -> bool {
        self.sight_line_clear(state, a, b, None)
    }

    /// [`Self::clear_sight`] as one side can judge it: pieces block the line only when
    /// they are that side's own or enemy pieces it knows are there (`viewer: None`: every
    /// piece blocks). Sighting calls it with pieces not blocking at all (`false`).
    pub(crate) fn sight_line_clear(
        &self,
        state: &State,
        a: &Piece,
        b: &Piece,
        viewer: impl Into<Blockers>,
    ) -> bool {
        let blockers = viewer.into();
        let piece_blocks = |p: &Piece| match blockers {
            Blockers::All => true,
            Blockers::None => false,
            Blockers::KnownTo(side) => {
                p.side == side
                    || self.sighting().is_none()
                    || state
                        .knowledge
                        .get(side.index())
                        .is_some_and(|k| k.knows_position(p.id))
            }
        };
        let pieces_block = !matches!(blockers, Blockers::None);
        line_clear(
            &self.rules,
            &self.board,
            state,
            a,
            b,
            pieces_block.then_some(piece_blocks),
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn do_act(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        side: SideId,
        id: PieceId,
        (action, intent): (ActionId, &[String]),
        target: Option<PieceId>,
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
        let rules = &*self.rules;
        let def = rules
            .actions
            .get(action.index())
            .ok_or_else(|| Refusal::new(RefusalKind::OutOfPhase, "no such action"))?;
        if let Some(bad) = intent.iter().find(|i| !def.intents.contains(i)) {
            let known = if def.intents.is_empty() {
                "it takes no intent".to_owned()
            } else {
                format!("it may be for {}", def.intents.join(", "))
            };
            return Err(Refusal::new(
                RefusalKind::BadTarget,
                format!("{} cannot be given for `{bad}`: {known}", def.name),
            ));
        }
        let actor = self.own_piece(next, side, id)?.clone();
        if !def.types.is_empty() && !def.types.contains(&actor.kind) {
            return Err(Refusal::new(
                RefusalKind::BadPiece,
                format!("{} cannot {}", actor.name, def.name),
            ));
        }
        if let Some(f) = def.barred_by.iter().find(|f| actor.flag(**f)) {
            return Err(Refusal::new(
                RefusalKind::AlreadyUsed,
                format!(
                    "{} cannot {} while {}",
                    actor.name,
                    def.name,
                    rules.flag_name(*f)
                ),
            ));
        }
        if !def.repeats && action.0 < 64 && actor.acted & (1u64 << action.0) != 0 {
            return Err(Refusal::new(
                RefusalKind::AlreadyUsed,
                format!("{} has already used {} this phase", actor.name, def.name),
            ));
        }
        let target_piece = match (def.target, target) {
            (TargetRule::None, None) => None,
            (TargetRule::None, Some(_)) => {
                return Err(Refusal::new(
                    RefusalKind::BadTarget,
                    format!("{} takes no target", def.name),
                ));
            }
            (_, None) => {
                return Err(Refusal::new(
                    RefusalKind::BadTarget,
                    format!("{} needs a target", def.name),
                ));
            }
            (rule, Some(t)) => {
                let tp = next
                    .pieces
                    .get(t.index())
                    .filter(|p| p.on_board())
                    .ok_or_else(|| {
                        Refusal::new(
                            RefusalKind::BadTarget,
                            format!("there is no piece #{} on the board", t.0),
                        )
                    })?
                    .clone();
                if tp.id == actor.id {
                    return Err(Refusal::new(
                        RefusalKind::BadTarget,
                        format!("{} cannot target itself", actor.name),
                    ));
                }
                let enemy = tp.side != side;
                if (rule == TargetRule::Enemy) != enemy {
                    return Err(Refusal::new(
                        RefusalKind::BadTarget,
                        format!(
                            "{} must target {} piece",
                            def.name,
                            if rule == TargetRule::Enemy {
                                "an enemy"
                            } else {
                                "an own"
                            }
                        ),
                    ));
                }
                Some(tp)
            }
        };
        let mut distance = 0u32;
        let mut table_distance = 0u32;
        let mut flank_or_rear = false;
        if let Some(tp) = &target_piece {
            let tp_label = self.label(next, side, tp);
            table_distance = self.distance(&actor, tp).unwrap_or(u32::MAX);
            distance = self.rule_distance(&actor, tp).unwrap_or(u32::MAX);
            let in_range = |lo: u32, hi: u32| match (&actor.place, &tp.place) {
                (Place::Point { at: a, .. }, Place::Point { at: b, .. }) => {
                    let inch = |v: u32| {
                        open::Len(i64::from(self.scaled(Cost::whole(v as i32)).hundredths()) * 10)
                    };
                    open::within(*a, *b, inch(hi))
                        && (lo == 0 || !open::within(*a, *b, open::Len(inch(lo).0 - 1)))
                }
                _ => distance >= lo && distance <= hi,
            };
            if let Some((lo, hi)) = def.range
                && !in_range(lo, hi)
            {
                return Err(Refusal::new(
                    RefusalKind::BadTarget,
                    format!(
                        "{tp_label} is {distance} away; {} reaches {lo} to {hi}",
                        def.name
                    ),
                ));
            }
            if !def.arcs.is_empty() {
                let arc = self.bearing(&actor, tp).unwrap_or(Bearing::Same);
                if !def.arcs.contains(&arc) {
                    let name = |a: &Bearing| match a {
                        Bearing::Front => "front",
                        Bearing::Flank => "flank",
                        Bearing::Rear => "rear",
                        Bearing::Same => "same place",
                    };
                    let wanted: Vec<&str> = def.arcs.iter().map(name).collect();
                    return Err(Refusal::new(
                        RefusalKind::BadTarget,
                        format!(
                            "{tp_label} is in {}'s {} arc; {} needs the {} arc",
                            actor.name,
                            name(&arc),
                            def.name,
                            wanted.join(" or ")
                        ),
                    ));
                }
            }
            if def.needs_sight && !self.sight_line_clear(next, &actor, tp, Some(side)) {
                return Err(Refusal::new(
                    RefusalKind::BadTarget,
                    format!("{} cannot see {tp_label}", actor.name),
                ));
            }
            flank_or_rear = matches!(
                self.bearing(tp, &actor),
                Some(Bearing::Flank | Bearing::Rear)
            );
        }
        let mut outcome = 0usize;
        let mut roll = None;
        if let Some(chart_id) = def.chart {
            let chart = rules.chart(chart_id).ok_or_else(|| {
                Refusal::new(RefusalKind::OutOfPhase, "the action's chart is missing")
            })?;
            let set: Vec<(usize, i32)> = chart
                .inputs
                .iter()
                .enumerate()
                .filter_map(|(i, input)| {
                    let v = match input.source.as_ref()? {
                        InputSource::Distance => i32::try_from(distance).unwrap_or(i32::MAX),
                        InputSource::TableDistance => {
                            i32::try_from(table_distance).unwrap_or(i32::MAX)
                        }
                        InputSource::TableDistanceBand(bands) => bands
                            .iter()
                            .position(|b| table_distance <= *b)
                            .unwrap_or(bands.len())
                            as i32,
                        InputSource::DistanceBand(bands) => bands
                            .iter()
                            .position(|b| distance <= *b)
                            .unwrap_or(bands.len())
                            as i32,
                        InputSource::ActorCounter(c) => actor.counter(*c),
                        InputSource::TargetCounter(c) => {
                            target_piece.as_ref().map_or(0, |t| t.counter(*c))
                        }
                        InputSource::ActorFlag(f) => i32::from(actor.flag(*f)),
                        InputSource::ActorMode(m) => i32::from(actor.mode == *m),
                        InputSource::TargetMode(m) => {
                            i32::from(target_piece.as_ref().is_some_and(|t| t.mode == *m))
                        }
                        InputSource::ActorAttribute(a) => actor.attribute(*a),
                        InputSource::TargetAttribute(a) => {
                            target_piece.as_ref().map_or(0, |t| t.attribute(*a))
                        }
                        InputSource::TargetFlag(f) => {
                            i32::from(target_piece.as_ref().is_some_and(|t| t.flag(*f)))
                        }
                        InputSource::TargetFlankOrRear => i32::from(flank_or_rear),
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
                        InputSource::Option(o) => {
                            i32::from(next.options.get(*o).copied().unwrap_or(false))
                        }
                        InputSource::Intent(name) => i32::from(intent.contains(name)),
                    };
                    Some((i, v))
                })
                .collect();
            let inputs = chart.input_values(&set);
            let resolution = chart.resolve(&rules.dice, &inputs, next.dice_of(Some(side)));
            outcome = resolution.outcome;
            let purpose = match &target_piece {
                Some(t) => format!("{} by {} at {}", def.name, actor.name, t.name),
                None => format!("{} by {}", def.name, actor.name),
            };
            roll = Some(roll_record(rules, chart_id, &purpose, &inputs, &resolution));
        }
        let rolled_faces: Vec<String> = roll
            .as_ref()
            .map(|r| r.dice.iter().map(|d| d.face.clone()).collect())
            .unwrap_or_default();
        let rolled_inputs = roll.as_ref().map(|r| r.inputs.clone()).unwrap_or_default();
        events.push(Event::Acted {
            piece: id,
            action: def.name.clone(),
            target,
            roll,
            intent: intent.to_vec(),
        });
        if let Some(p) = next.pieces.get_mut(id.index())
            && action.0 < 64
        {
            p.acted |= 1u64 << action.0;
        }
        if let Some(mark) = def.marks {
            self.apply_effect(
                next,
                events,
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
        let effects = def.effects.get(outcome).cloned().unwrap_or_default();
        for effect in &effects {
            self.apply_effect(next, events, effect, id, target, 0);
        }
        if def.scripted {
            let outcome_name = def
                .chart
                .and_then(|c| rules.chart(c))
                .and_then(|c| c.outcomes.get(outcome).cloned());
            let view = next.clone();
            let world = World {
                rules: &self.rules,
                board: &self.board,
                sides: &self.sides,
                state: &view,
            };
            let mut dice = HookDice::new(next.dice_of(Some(side)), rules);
            dice.set_action_faces(rolled_faces);
            dice.set_action_intent(intent.to_vec());
            dice.set_action_inputs(rolled_inputs);
            let commands = hooks
                .action(
                    &world,
                    action,
                    id,
                    target,
                    outcome_name.as_deref(),
                    &mut dice,
                )
                .map_err(|e| Refusal::new(RefusalKind::HookFailed, e.message))?;
            for roll in dice.into_rolls() {
                events.push(Event::Rolled { roll });
            }
            self.apply_commands(next, events, commands)?;
        }
        Ok(())
    }

    pub(crate) fn apply_effect(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        effect: &Effect,
        actor: PieceId,
        target: Option<PieceId>,
        depth: u32,
    ) {
        let rules = &*self.rules;
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
                let Some(def) = rules.counters.get(counter.index()) else {
                    return;
                };
                let Some(p) = next.pieces.get_mut(pid.index()) else {
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
                    .saturating_add(*amount)
                    .clamp(def.min, def.max.max(def.min));
                if to == from {
                    return;
                }
                *slot = to;
                events.push(Event::CounterChanged {
                    piece: pid,
                    counter: def.name.clone(),
                    from,
                    to,
                });
                if depth >= MAX_TRIGGER_DEPTH {
                    events.push(Event::Note {
                        text: format!(
                            "counter triggers nested deeper than {MAX_TRIGGER_DEPTH}; stopped"
                        ),
                    });
                    return;
                }
                for trigger in &def.triggers {
                    if from < trigger.at_least && to >= trigger.at_least {
                        for e in &trigger.effects {
                            self.apply_effect(next, events, e, pid, target, depth + 1);
                        }
                    }
                }
            }
            Effect::SetFlag { who: w, flag, on } => {
                let Some(pid) = who(*w) else { return };
                let Some(p) = next.pieces.get_mut(pid.index()) else {
                    return;
                };
                if p.flag(*flag) != *on && p.on_board() {
                    p.set_flag(*flag, *on);
                    events.push(Event::FlagChanged {
                        piece: pid,
                        flag: rules.flag_name(*flag).to_owned(),
                        on: *on,
                    });
                }
            }
            Effect::SetMode { who: w, mode } => {
                let Some(pid) = who(*w) else { return };
                let Some(p) = next.pieces.get_mut(pid.index()) else {
                    return;
                };
                let allowed = rules
                    .piece_type(p.kind)
                    .is_some_and(|t| t.allowance.get(mode.index()).is_some_and(Option::is_some));
                if !allowed {
                    let text = format!(
                        "{} cannot take {} mode; the effect is ignored",
                        p.name,
                        rules.mode_name(*mode)
                    );
                    events.push(Event::Note { text });
                    return;
                }
                if p.mode != *mode && p.on_board() {
                    let from = rules.mode_name(p.mode).to_owned();
                    let (old, side, cell) = (p.mode, p.side, p.place.cell());
                    p.mode = *mode;
                    if let Some(c) = cell
                        && let Some(problem) = self.stacking_problem(next, c, pid, side, false)
                    {
                        // A forced change of formation that would break stacking does not
                        // happen; the log says why.
                        if let Some(p) = next.pieces.get_mut(pid.index()) {
                            p.mode = old;
                        }
                        let name = next
                            .pieces
                            .get(pid.index())
                            .map_or_else(String::new, |p| p.name.clone());
                        let text = format!(
                            "{name} cannot take {} mode here ({problem}); the effect is ignored",
                            rules.mode_name(*mode)
                        );
                        events.push(Event::Note { text });
                        return;
                    }
                    events.push(Event::ModeChanged {
                        piece: pid,
                        from,
                        to: rules.mode_name(*mode).to_owned(),
                    });
                }
            }
            Effect::Remove { who: w } => {
                let Some(pid) = who(*w) else { return };
                let Some(p) = next.pieces.get_mut(pid.index()) else {
                    return;
                };
                if p.on_board() {
                    p.place = Place::Off;
                    p.attached_to = None;
                    events.push(Event::Removed {
                        piece: pid,
                        reason: "removed by a chart result".into(),
                    });
                }
                for other in &mut next.pieces {
                    if other.attached_to == Some(pid) {
                        other.attached_to = None;
                    }
                }
            }
        }
    }

    /// Ends the current phase and begins the next (or the next turn, or the end).
    fn advance(
        &self,
        next: &mut State,
        events: &mut Vec<Event>,
        hooks: &mut dyn Hooks,
    ) -> Result<(), Refusal> {
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
                let side_acts = match phase.actor {
                    Actor::Phasing => p.side == phasing,
                    Actor::NonPhasing => p.side != phasing,
                    Actor::Both => true,
                };
                side_acts
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
                next.over = true;
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
    fn roll_initiative(&self, next: &mut State, events: &mut Vec<Event>) {
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

    fn begin_phase(
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
        // The hook sees the state as the phase begins; its dice use the game's RNG.
        let view = next.clone();
        let world = World {
            rules: &self.rules,
            board: &self.board,
            sides: &self.sides,
            state: &view,
        };
        // Phases of a side's turn roll that side's dice; the others the game's own.
        let owner = self.phase_owner(next);
        let mut dice = HookDice::new(next.dice_of(owner), &self.rules);
        let commands = hooks
            .phase_begin(&world, &phase.name, &mut dice)
            .map_err(|e| Refusal::new(RefusalKind::HookFailed, e.message))?;
        for roll in dice.into_rolls() {
            events.push(Event::Rolled { roll });
        }
        self.apply_commands(next, events, commands)?;
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

    /// Checks a feature a hook adds and records it in `next.built` (the board gets it when
    /// the order is done, [`Game::draw_built`]); logs it as a note.
    fn add_feature(
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
    fn draw_built(&mut self, from: usize) {
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
    fn apply_commands(
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
                    crate::placement::place(self, next, events, piece, cell, reason)?;
                    None
                }
                HookCommand::PlaceAt {
                    piece,
                    at,
                    facing,
                    reason,
                } => {
                    crate::placement::place_at(self, next, events, piece, at, facing, reason)?;
                    None
                }
                HookCommand::Face { piece, facing } => {
                    crate::placement::face(self, next, events, piece, facing)?;
                    None
                }
                HookCommand::Attach { piece, to } => {
                    crate::placement::attach(next, events, piece, to)?;
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

/// True when the line from `a` to `b` is not blocked by terrain, walls or (where
/// `piece_blocks` says so; `None`: no piece blocks) pieces: the test behind
/// [`Game::clear_sight`].
fn line_clear(
    rules: &Rules,
    board: &Board,
    state: &State,
    a: &Piece,
    b: &Piece,
    piece_blocks: Option<impl Fn(&Piece) -> bool>,
) -> bool {
    match (&a.place, &b.place) {
        (Place::Point { at: pa, .. }, Place::Point { at: pb, .. }) => {
            // An area the observer or the target stands in does not hide them from each
            // other (on a grid, likewise, the two end cells do not count).
            !board.areas_crossed(*pa, *pb).any(|area| {
                rules
                    .terrain
                    .get(area.terrain.index())
                    .is_some_and(|t| t.blocks_sight)
                    && !crate::board::point_in_polygon(*pa, &area.corners)
                    && !crate::board::point_in_polygon(*pb, &area.corners)
            })
        }
        _ => {
            let (Some(ca), Some(cb), Some(grid)) = (a.place.cell(), b.place.cell(), board.grid())
            else {
                return false;
            };
            let line = grid.line(ca, cb);
            // The cells of the line a piece stands on that blocks: found with one walk over
            // the pieces for the whole line, and none at all when pieces do not block (the
            // sighting update asks for thousands of lines).
            let mut occupied: Vec<Cell> = Vec::new();
            if let Some(piece_blocks) = &piece_blocks {
                let on_line = |c: &Cell| {
                    line.iter().any(|e| match e {
                        LineCell::One(x) => x == c,
                        LineCell::Between(x, y) => x == c || y == c,
                    })
                };
                for p in state.pieces.iter().filter(|p| p.on_board()) {
                    let covered: &[Cell] = match &p.place {
                        Place::Cell(c) => std::slice::from_ref(c),
                        Place::Spread(cells) => cells,
                        Place::Point { .. } | Place::Off => &[],
                    };
                    let hit: Vec<Cell> = covered.iter().copied().filter(on_line).collect();
                    if !hit.is_empty() && piece_blocks(p) {
                        occupied.extend(hit);
                    }
                }
            }
            let blocks = |c: Cell| {
                c != ca
                    && c != cb
                    && (rules
                        .terrain
                        .get(board.terrain(c).index())
                        .is_some_and(|t| t.blocks_sight)
                        || occupied.contains(&c))
            };
            let feature_blocks = |a: Cell, b: Cell| {
                board.features_between(a, b).iter().any(|f| {
                    rules
                        .features
                        .get(f.index())
                        .is_some_and(|d| d.blocks_sight)
                })
            };
            let walls = line.windows(2).any(|w| match (w[0], w[1]) {
                (LineCell::One(a), LineCell::One(b)) => feature_blocks(a, b),
                _ => false,
            });
            !walls
                && line.into_iter().all(|entry| match entry {
                    LineCell::One(c) => !blocks(c),
                    LineCell::Between(x, y) => !(blocks(x) && blocks(y)),
                })
        }
    }
}

impl World<'_> {
    /// [`Game::clear_sight`] for hooks: true when the line from `a` to `b` crosses nothing
    /// that blocks sight (terrain, walls, or on a grid any piece).
    #[must_use]
    pub fn clear_sight(&self, a: &Piece, b: &Piece) -> bool {
        line_clear(
            self.rules,
            self.board,
            self.state,
            a,
            b,
            Some(|_: &Piece| true),
        )
    }
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
    }
}
