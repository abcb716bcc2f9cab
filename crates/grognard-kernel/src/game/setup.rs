//! Starting a game: what a scenario says in kernel terms ([`Setup`], [`PieceSetup`]), and
//! [`Game::new`], which checks every piece's place, type, mode and attachment before the
//! first phase begins. A scenario that cannot start gives a [`SetupError`] naming the piece.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::action::Event;
use crate::board::{Board, SideDef, Surface};
use crate::dice::GameRng;
use crate::geometry::{Cell, Facing};
use crate::hooks::Hooks;
use crate::ids::{CounterId, FlagId, ModeId, PieceId, PieceTypeId, SideId};
use crate::piece::{Piece, Place};
use crate::rules::Rules;

use super::{Game, Resolution};
use crate::state::{Stage, State};

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
    /// True for a piece its side places during the set-up (it starts off the board).
    #[serde(default)]
    pub deploy: bool,
    /// Its own footprint in each mode (by mode index), overriding its type's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footprint: Option<Vec<Option<crate::geometry::footprint::Footprint>>>,
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
    /// What decides this game (replacing the ruleset's victory conditions).
    #[serde(default)]
    pub victory: Option<crate::victory::VictoryRules>,
    /// By side: the cells it deploys its pieces in during a set-up before the first turn
    /// (empty: the side has no set-up). With any side's cells given, the game begins with
    /// the set-up.
    #[serde(default)]
    pub deployment: Vec<Vec<Cell>>,
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
        let mut pieces = (setup.pieces.iter().enumerate())
            .map(|(i, p)| Self::piece_of(&rules, (i, p), &setup))
            .collect::<Result<Vec<Piece>, SetupError>>()?;
        // A leader set up in his unit's cell is with it (types with `joins_at_set_up`).
        let mut joined = Vec::new();
        for (rider, host) in
            crate::company::hosts_at_set_up(&rules, &pieces).map_err(|(i, m)| err(Some(i), m))?
        {
            let host = PieceId(host as u32);
            if let Some(p) = pieces.get_mut(rider) {
                p.attached_to = Some(host);
                joined.push(Event::Attached {
                    piece: p.id,
                    to: Some(host),
                });
            }
        }
        let turns = setup.turns.unwrap_or(rules.sequence.turns).max(1);
        let deployment = Self::deployment_of(&setup.deployment, &setup.pieces, setup.sides.len())
            .map_err(|(piece, m)| err(piece, m))?;
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
            stage: Stage::Playing,
            knowledge: Vec::new(),
            face_up: Vec::new(),
            redeployed: Vec::new(),
            crossed: Vec::new(),
            built: Vec::new(),
            phase_start: Vec::new(),
        };
        let victory = setup.victory.or_else(|| rules.victory.clone());
        let mut game = Self {
            victory,
            rules,
            board: Arc::new(setup.board),
            sides,
            turns,
            state,
            log: Vec::new(),
            side_logs: Vec::new(),
            handle_key: setup.seed.rotate_left(17) ^ 0x6a09_e667_f3bc_c908,
            deployment: deployment.map(Arc::new),
        };
        for i in 0..game.state.pieces.len() {
            game.check_placement(i).map_err(|m| err(Some(i), m))?;
        }
        let mut next = game.state.clone();
        let mut events = joined;
        if let Some(d) = &game.deployment {
            // The set-up comes first: the sides that deploy act, the others wait.
            next.stage = Stage::SettingUp;
            next.done = d.cells.iter().map(Vec::is_empty).collect();
            let deploying: Vec<&str> = game
                .sides
                .iter()
                .zip(&d.cells)
                .filter(|(_, c)| !c.is_empty())
                .map(|(s, _)| s.name.as_str())
                .collect();
            events.push(Event::PhaseBegan {
                turn: 1,
                phase: super::deploy::SETUP_PHASE_NAME.to_owned(),
                phasing: deploying.join(" and "),
                owner: None,
            });
        } else {
            game.add_decoys_to(&mut next);
            let mut resolution = Resolution::new(&game, &mut next, &mut events, hooks);
            resolution.roll_initiative();
            let begun = resolution.begin_phase();
            // A start-up hook that refuses in words about one piece, said as the set-up's
            // own checks say it (`piece NAME: ...`), is located at that piece's line.
            begun.map_err(|r| {
                let named = r
                    .message
                    .strip_prefix("piece ")
                    .and_then(|rest| rest.split_once(": "))
                    .and_then(|(name, _)| next.pieces.iter().position(|p| p.name == name));
                err(named, r.message)
            })?;
        }
        // Units set up in base contact start locked in it.
        let mut resolution = Resolution::new(&game, &mut next, &mut events, hooks);
        resolution.keep_contact_flags();
        // Flags held by a condition (shaken at a level of hits, out of command) start
        // true where it holds of the set-up.
        resolution.keep_held_flags();
        resolution.update_knowledge();
        let seen = game.seen_by_sides(&game.state, &next, &events, None);
        game.append_side_logs(seen, &mut next);
        game.state = next;
        game.draw_built(0);
        game.log = events;
        Ok(game)
    }

    /// The piece scenario entry `i` sets up: its type, side, mode and attachment checked,
    /// its counters, attributes and flags as the entry gives them over the type's.
    fn piece_of(
        rules: &Rules,
        (i, p): (usize, &PieceSetup),
        setup: &Setup,
    ) -> Result<Piece, SetupError> {
        let err = |piece: Option<usize>, message: String| SetupError { piece, message };
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
        if !ty.can_take(mode) {
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
            footprint: p.footprint.clone().map(Vec::into_boxed_slice),
            saved_toward: None,
        };
        for f in &p.flags {
            piece.set_flag(*f, true);
        }
        if let Some(message) = trigger_flag_missing(rules, ty, &piece) {
            return Err(err(Some(i), format!("piece {}: {message}", p.name)));
        }
        Ok(piece)
    }

    /// The set-up the scenario asks for, if any: each side's cells (sorted), and which
    /// pieces are deployed in it (they start off the board; a side with such pieces needs
    /// cells).
    #[allow(clippy::type_complexity)]
    fn deployment_of(
        cells: &[Vec<Cell>],
        pieces: &[PieceSetup],
        sides: usize,
    ) -> Result<Option<super::deploy::Deployment>, (Option<usize>, String)> {
        let deployable: Vec<bool> = pieces.iter().map(|p| p.deploy).collect();
        if cells.iter().all(Vec::is_empty) && !deployable.contains(&true) {
            return Ok(None);
        }
        let mut cells: Vec<Vec<Cell>> = cells.to_vec();
        cells.resize(sides, Vec::new());
        for c in &mut cells {
            c.sort_unstable();
            c.dedup();
        }
        for (i, p) in pieces.iter().enumerate() {
            if p.deploy && cells.get(p.side.index()).is_none_or(Vec::is_empty) {
                return Err((
                    Some(i),
                    format!(
                        "piece {} is to be deployed in the set-up, but its side has no                          deployment areas",
                        p.name
                    ),
                ));
            }
            if p.deploy && p.place != Place::Off {
                return Err((
                    Some(i),
                    format!(
                        "piece {} is deployed in the set-up: give it no place",
                        p.name
                    ),
                ));
            }
        }
        Ok(Some(super::deploy::Deployment { cells, deployable }))
    }

    pub(super) fn check_placement(&self, i: usize) -> Result<(), String> {
        self.check_placement_in(&self.state, i)
    }

    /// Whether piece `i` may stand where it stands in `state` (board, terrain, facing,
    /// stacking, attachment).
    pub(super) fn check_placement_in(&self, state: &State, i: usize) -> Result<(), String> {
        let Some(p) = state.pieces.get(i) else {
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
            (Place::Point { at, facing }, Surface::Open { .. }) => {
                if !self.board.contains_point(*at) {
                    return Err(format!("piece {} is off the table at {at}", p.name));
                }
                // Bases: the whole footprint on the table, clear of every other unit's.
                self.check_footprint_fits(state, p, (*at, *facing), p.mode)
                    .map_err(|r| format!("piece {}: {}", p.name, r.message))?;
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
            if let Some(msg) = self.half_hex_problem(state, c) {
                return Err(format!("piece {} stands at {c}, {msg}", p.name));
            }
            if let Some(msg) = self.stacking_problem(state, c, p.id, p.side, false) {
                return Err(format!("piece {} at {c}: {msg}", p.name));
            }
            if let Some(enemy) = state.pieces.iter().find(|q| {
                q.id < p.id
                    && q.side != p.side
                    && q.place.covers(c)
                    && self.rules.keeps_apart(p.kind, q.kind)
            }) {
                return Err(format!(
                    "piece {} at {c} shares the cell with the enemy {}",
                    p.name, enemy.name
                ));
            }
        }
        if let Some(host) = p.attached_to.and_then(|h| state.pieces.get(h.index())) {
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
            if let Some(why) = crate::company::pairing_problem(&self.rules, p, host) {
                return Err(format!("piece {why}"));
            }
        }
        Ok(())
    }

    /// Why no piece may stand at `c`, when it is a half-hex the ruleset's `half_hexes` close
    /// (a side one, or a baseline one while its option is off).
    fn half_hex_problem(&self, state: &State, c: Cell) -> Option<String> {
        let rules = &self.rules.half_hexes;
        match self.board.half_hex(c)? {
            crate::geometry::hex::HalfHex::Side if !rules.sides => {
                Some("a half-hex on the side edge of the board, where no piece may stand".into())
            }
            crate::geometry::hex::HalfHex::Baseline
                if !rules.baselines
                    && !rules
                        .baselines_option
                        .is_some_and(|o| state.options.get(o).copied().unwrap_or(false)) =>
            {
                Some(
                    "a half-hex on a baseline, where pieces may stand only where the scenario allows"
                        .into(),
                )
            }
            _ => None,
        }
    }
}

/// A counter set up at or past a trigger's level whose trigger sets a lasting flag (one that
/// clears only by an effect) the piece is not set up with (Hex Command's `te: 3` without `fatigued`): triggers fire only as a counter
/// rises in play, so the piece would start at the level without what the level means. The
/// scenario must say both (the twenty-second Hex Command audit's remark on R12).
fn trigger_flag_missing(
    rules: &Rules,
    ty: &crate::rules::PieceTypeDef,
    piece: &Piece,
) -> Option<String> {
    for (c, def) in rules.counters.iter().enumerate() {
        let value = piece.counters.get(c).copied().unwrap_or(def.initial);
        let triggers = ty
            .triggers
            .iter()
            .find(|t| t.counter.index() == c)
            .map_or(def.triggers.as_slice(), |t| t.triggers.as_slice());
        for t in triggers {
            if t.at_least <= def.initial || value < t.at_least {
                continue;
            }
            for e in &t.effects {
                if let crate::rules::Effect::SetFlag {
                    who: crate::rules::Who::Actor,
                    flag,
                    on: true,
                } = e
                    && !piece.flag(*flag)
                    && rules.flags.get(flag.index()).is_some_and(|f| {
                        f.clears == crate::rules::Clears::Never && f.holds.is_none()
                    })
                {
                    return Some(format!(
                        "{} {value} needs flag `{}` (the counter sets it at {}): add it to \
                         the piece's flags, or set the counter lower",
                        def.name,
                        rules.flag_name(*flag),
                        t.at_least
                    ));
                }
            }
        }
    }
    None
}
