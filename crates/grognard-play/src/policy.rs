//! Policies: who plays a side when no orders file does. A policy sees only its side's
//! [`View`] and its legal orders (from [`Game::legal_orders`]) plus the public board and
//! rules — never the referee's state — and draws from its own random stream, seeded from the
//! game's seed and the side, so the game's dice do not depend on how many choices a policy
//! made.
//!
//! - `random`: ends the phase with probability 1/8, otherwise picks uniformly among the
//!   other legal orders.
//! - `greedy`: a simple heuristic. It scores each legal order: an action at an enemy 100
//!   (the nearer the target, the better), another action 10, a move by how much closer it
//!   ends to the nearest enemy its side knows of (a move that does not close scores nothing),
//!   anything else nothing; it gives the best order, ties broken by its random stream, and
//!   ends the phase when nothing scores.
//! - `search[:MILLISECONDS]` or `search:it=N`: information-set Monte Carlo tree search
//!   over the legal orders, thinking for that long (1000 ms by default) or that many
//!   iterations a decision (see [`crate::search`]).
//! - `lua:FILE[:FUNCTION]`: a designer's function (see [`crate::lua_policy`]).
//!
//! In a set-up (a scenario whose sides deploy their own pieces), `random` and `greedy`
//! place each of their pieces still off the table at a legal place drawn from their
//! stream, then end the set-up; a Lua policy chooses among the `deploy` orders itself.
//!
//! Each ends the phase after [`MAX_ORDERS_PER_PHASE`] orders in one phase, so a phase
//! cannot go on forever (turning back and forth, say).

use std::path::Path;
use std::sync::Arc;

use grognard_kernel::action::{Action, Event, Order};
use grognard_kernel::board::Board;
use grognard_kernel::game::Game;
use grognard_kernel::geometry::Grid;
use grognard_kernel::geometry::open;
use grognard_kernel::hooks::{Hooks, NoHooks};
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::piece::Place;
use grognard_kernel::view::View;
use grognard_lua::sandbox::Limits;
use grognard_rules::orders::describe_order_as;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use crate::lua_policy::{DEFAULT_FUNCTION, LuaPolicy};
use crate::search::{Budget, Explanation};

/// Most orders a policy gives in one phase before it ends the phase.
pub const MAX_ORDERS_PER_PHASE: u32 = 64;

/// The built-in policies `--policy` accepts (besides `lua:FILE[:FUNCTION]`; `search` also
/// takes a budget: `search:MILLISECONDS` or `search:it=N`).
pub const POLICY_NAMES: [&str; 3] = ["random", "greedy", "search"];

/// A Lua policy's source, read once and loaded into a sandbox per player.
#[derive(Debug, PartialEq, Eq)]
pub struct LuaSource {
    /// The file as given (messages name it).
    pub chunk: String,
    /// Its text.
    pub text: String,
    /// The function to call.
    pub function: String,
}

/// Why a `--policy` value was not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyError {
    /// An unknown policy or side (a usage mistake; the message has "did you mean").
    Unknown(String),
    /// A Lua policy file that cannot be read or does not load (`file:line: ...`).
    Script(String),
}

impl std::fmt::Display for PolicyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unknown(m) | Self::Script(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for PolicyError {}

/// A policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyKind {
    /// Uniform among the legal orders, ending the phase one time in eight.
    Random,
    /// Close on the nearest known enemy, act on enemies when able.
    Greedy,
    /// A designer's Lua function.
    Lua(Arc<LuaSource>),
    /// Information-set Monte Carlo tree search within a budget a decision.
    Search(Budget),
}

impl PolicyKind {
    /// The policy `name` names: `random`, `greedy`, `search[:MILLISECONDS]`,
    /// `search:it=N` or `lua:FILE[:FUNCTION]` (the file is read and loaded here, so that
    /// its mistakes show before any game starts).
    ///
    /// # Errors
    /// An unknown policy (with "did you mean"), a search budget that is not one, a file
    /// that cannot be read, or a script that does not load or lacks the function
    /// (`file:line: ...`).
    pub fn parse(name: &str) -> Result<Self, PolicyError> {
        if name == "search" {
            return Ok(Self::Search(
                Budget::parse("").map_err(PolicyError::Unknown)?,
            ));
        }
        if let Some(spec) = name.strip_prefix("search:") {
            return Budget::parse(spec)
                .map(Self::Search)
                .map_err(PolicyError::Unknown);
        }
        if let Some(rest) = name.strip_prefix("lua:") {
            let (file, function) = match rest.rsplit_once(':') {
                Some((file, f))
                    if !f.is_empty()
                        && f.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        && !f.starts_with(|c: char| c.is_ascii_digit()) =>
                {
                    (file, f)
                }
                _ => (rest, DEFAULT_FUNCTION),
            };
            return Self::lua_file(Path::new(file), function);
        }
        match name {
            "random" => Ok(Self::Random),
            "greedy" => Ok(Self::Greedy),
            other => {
                let hint = grognard_rules::suggest::did_you_mean(other, POLICY_NAMES)
                    .map_or_else(String::new, |s| format!("; did you mean `{s}`?"));
                Err(PolicyError::Unknown(format!(
                    "unknown policy `{other}`; the policies are random, greedy, \
                     search[:MILLISECONDS|:it=ITERATIONS] and lua:FILE[:FUNCTION]{hint}"
                )))
            }
        }
    }

    /// The Lua policy `function` of `file`, checked by loading it once.
    ///
    /// # Errors
    /// As [`PolicyKind::parse`].
    pub fn lua_file(file: &Path, function: &str) -> Result<Self, PolicyError> {
        let text = std::fs::read_to_string(file).map_err(|e| {
            PolicyError::Script(format!("cannot read policy file {}: {e}", file.display()))
        })?;
        Self::lua_text(&file.to_string_lossy().replace('\\', "/"), text, function)
    }

    /// The Lua policy `function` of a script already in memory, named `chunk` in messages
    /// (the server's policies come from a game's bundle, never from its disk).
    ///
    /// # Errors
    /// A script that does not load or lacks the function (`chunk:line: ...`).
    pub fn lua_text(chunk: &str, text: String, function: &str) -> Result<Self, PolicyError> {
        let source = LuaSource {
            chunk: chunk.to_owned(),
            text,
            function: function.to_owned(),
        };
        LuaPolicy::load(&source.chunk, &source.text, function, Limits::default())
            .map_err(|e| PolicyError::Script(e.to_string()))?;
        Ok(Self::Lua(Arc::new(source)))
    }

    /// How `--policy` names it.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Self::Random => "random".to_owned(),
            Self::Greedy => "greedy".to_owned(),
            Self::Lua(s) => format!("lua:{}:{}", s.chunk, s.function),
            Self::Search(b) => b.policy_name(),
        }
    }
}

/// Which policy plays each side (`None`: no policy; the side's orders come from a file).
pub type Seats = Vec<Option<PolicyKind>>;

/// Reads `--policy` values: `NAME` for every side, or `SIDE=NAME` for one (later values win).
///
/// # Errors
/// An unknown side or policy, with "did you mean".
pub fn seats(values: &[String], sides: &[String]) -> Result<Seats, PolicyError> {
    let mut seats = vec![None; sides.len()];
    for v in values {
        let side_given = v
            .split_once('=')
            .filter(|(side, _)| !side.starts_with("lua:") && !side.starts_with("search:"));
        match side_given {
            None => {
                let kind = PolicyKind::parse(v)?;
                seats.iter_mut().for_each(|s| *s = Some(kind.clone()));
            }
            Some((side, name)) => {
                let Some(i) = sides.iter().position(|s| s == side) else {
                    let hint = grognard_rules::suggest::did_you_mean(
                        side,
                        sides.iter().map(String::as_str),
                    )
                    .map_or_else(String::new, |s| format!("; did you mean `{s}`?"));
                    return Err(PolicyError::Unknown(format!(
                        "--policy {v}: unknown side `{side}`; the sides are {}{hint}",
                        sides.join(", ")
                    )));
                };
                seats[i] = Some(PolicyKind::parse(name)?);
            }
        }
    }
    Ok(seats)
}

/// One side's player: its policy and its own random stream.
pub struct Player {
    kind: PolicyKind,
    lua: Option<LuaPolicy>,
    rng: ChaCha8Rng,
    /// (turn, phase step) of the phase the count below is for.
    phase: (u32, u32),
    given: u32,
    /// The search's account of its last decision.
    explained: Option<Explanation>,
}

impl std::fmt::Debug for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Player")
            .field("kind", &self.kind.name())
            .finish_non_exhaustive()
    }
}

impl Player {
    /// The player of `side` in the game seeded with `seed`.
    ///
    /// # Errors
    /// A Lua policy that no longer loads (its sandbox could not be built).
    pub fn new(kind: &PolicyKind, seed: u64, side: SideId) -> Result<Self, String> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // A stream of its own per side, apart from the game's dice.
        rng.set_stream(0x706f_6c69_6379_0000 | u64::from(side.0));
        let lua = match kind {
            PolicyKind::Lua(s) => Some(
                LuaPolicy::load(&s.chunk, &s.text, &s.function, Limits::default())
                    .map_err(|e| e.to_string())?,
            ),
            _ => None,
        };
        Ok(Self {
            kind: kind.clone(),
            lua,
            rng,
            phase: (0, 0),
            given: 0,
            explained: None,
        })
    }

    /// Lines a Lua policy printed since the last read (empty for the built-in policies).
    pub fn take_printed(&self) -> Vec<String> {
        self.lua
            .as_ref()
            .map(LuaPolicy::take_printed)
            .unwrap_or_default()
    }

    /// The policy this player follows.
    #[must_use]
    pub fn kind(&self) -> &PolicyKind {
        &self.kind
    }

    /// The search's account of its last decision (`None` for the other policies, and when
    /// that decision had nothing to weigh: only the end of the phase was left, or set-up).
    #[must_use]
    pub fn explanation(&self) -> Option<&Explanation> {
        self.explained.as_ref()
    }

    /// [`Player::choose_with`] without the ruleset's hooks: a `search` player then
    /// imagines games by the data alone, so give it the hooks where the ruleset has scripts.
    ///
    /// # Errors
    /// As [`Player::choose_with`].
    pub fn choose(
        &mut self,
        game: &Game,
        side: SideId,
        legal: &[Action],
    ) -> Result<Action, String> {
        self.choose_with(game, side, legal, &mut NoHooks)
    }

    /// The order this player gives now for `side`, from `legal` (which ends with
    /// `end_phase`). It reads the game only through what `side` may know (its view, or for
    /// a search the worlds [`Game::sample_world`] draws from its knowledge), and names
    /// pieces in orders as `side` knows them. `hooks` are the ruleset's, which a search's
    /// imagined games run with.
    ///
    /// # Errors
    /// A Lua policy's error, or the error of the ruleset's `evaluate` hook a search asked
    /// (`file:line: ...`): no order is given.
    pub fn choose_with(
        &mut self,
        game: &Game,
        side: SideId,
        legal: &[Action],
        hooks: &mut dyn Hooks,
    ) -> Result<Action, String> {
        self.explained = None;
        let game_phase = (game.state().turn, game.state().step);
        if self.phase != game_phase {
            self.phase = game_phase;
            self.given = 0;
        }
        self.given += 1;
        let others: Vec<&Action> = legal.iter().filter(|a| **a != Action::EndPhase).collect();
        if self.given > MAX_ORDERS_PER_PHASE || others.is_empty() {
            return Ok(Action::EndPhase);
        }
        if game.setting_up() && !matches!(self.kind, PolicyKind::Lua(_)) {
            // The built-in policies deploy every piece before ending the set-up (each to a
            // place drawn at random), then end it.
            let to_place: Vec<&Action> = others
                .iter()
                .copied()
                .filter(|a| {
                    matches!(a, Action::Deploy { piece, .. }
                        if game.piece(*piece).is_some_and(|p| !p.on_board()))
                })
                .collect();
            return Ok(if to_place.is_empty() {
                Action::EndPhase
            } else {
                to_place[self.below(to_place.len())].clone()
            });
        }
        match &self.kind {
            PolicyKind::Random => Ok(if self.below(8) == 0 {
                Action::EndPhase
            } else {
                others[self.below(others.len())].clone()
            }),
            PolicyKind::Greedy => {
                let view = game.view(side);
                let board = game.board();
                // The view names pieces by the side's handles; the orders by id.
                let handle = |id: PieceId| PieceId(game.handle_of(side, id).unwrap_or(u32::MAX));
                let scores: Vec<i64> = others
                    .iter()
                    .map(|a| greedy_score(&view, board, a, &handle))
                    .collect();
                let best = scores.iter().copied().max().unwrap_or(0);
                if best <= 0 {
                    return Ok(Action::EndPhase);
                }
                let tied: Vec<usize> = (0..others.len()).filter(|i| scores[*i] == best).collect();
                Ok(others[tied[self.below(tied.len())]].clone())
            }
            PolicyKind::Search(budget) => {
                let (action, explained) =
                    crate::search::think(game, side, legal, hooks, *budget, &mut self.rng)?;
                self.explained = Some(explained);
                Ok(action)
            }
            PolicyKind::Lua(_) => {
                let Some(lua) = &self.lua else {
                    return Ok(Action::EndPhase);
                };
                let view = serde_json::to_value(game.view(side)).unwrap_or_default();
                let orders: Vec<serde_json::Value> = legal
                    .iter()
                    .map(|a| {
                        let order = Order {
                            side,
                            action: a.clone(),
                        };
                        serde_json::to_value(describe_order_as(game, &order, Some(side)))
                            .unwrap_or_default()
                    })
                    .collect();
                let rng = &mut self.rng;
                let mut draw = |n: usize| below(rng, n);
                let i = lua
                    .choose(&view, &orders, &mut draw)
                    .map_err(|e| e.to_string())?;
                Ok(legal[i].clone())
            }
        }
    }

    /// A uniform draw from `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        below(&mut self.rng, n)
    }
}

/// A uniform draw from `0..n` (`n` > 0) from `rng`.
pub(crate) fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n.max(1) as u64;
    // Rejection sampling keeps the draw exactly uniform.
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// Where an own piece stands, from the view.
fn own_place(view: &View, piece: PieceId) -> Option<&Place> {
    view.own.iter().find(|p| p.id == piece).map(|p| &p.place)
}

/// Distance between two places in the board's own measure (cells, or thousandths of an
/// inch on the open table); `None` when either is off the board.
fn distance(grid: Option<&Grid>, a: &Place, b: &Place) -> Option<i64> {
    match (a, b) {
        (Place::Point { at: pa, .. }, Place::Point { at: pb, .. }) => {
            Some(open::distance(*pa, *pb).0)
        }
        _ => {
            let (ca, cb) = (a.cell()?, b.cell()?);
            grid.map(|g| i64::from(g.distance(ca, cb)))
        }
    }
}

/// How far `place` is from the nearest enemy the view knows the place of.
fn nearest_enemy(view: &View, grid: Option<&Grid>, place: &Place) -> Option<i64> {
    view.enemy
        .iter()
        .filter_map(|e| e.place.as_ref())
        .filter_map(|p| distance(grid, place, p))
        .min()
}

/// The greedy policy's score of one order (see the module doc).
pub(crate) fn greedy_score(
    view: &View,
    board: &Board,
    action: &Action,
    handle: &dyn Fn(PieceId) -> PieceId,
) -> i64 {
    let grid = board.grid();
    let own_place = |view, piece| own_place(view, handle(piece));
    match action {
        Action::Act {
            target: Some(t),
            piece,
            ..
        } => {
            let near = view
                .enemy
                .iter()
                .find(|e| e.handle == handle(*t))
                .and_then(|e| e.place.as_ref())
                .zip(own_place(view, *piece))
                .and_then(|(tp, pp)| distance(grid, pp, tp))
                .unwrap_or(0);
            // Nearer targets first, but any action at an enemy beats any move.
            100 + (50 - near.min(50_000) / 1000).max(0)
        }
        Action::Act { target: None, .. } => 10,
        Action::Move { piece, path } => {
            let (Some(from), Some(to)) = (own_place(view, *piece), path.last()) else {
                return 0;
            };
            closing(view, grid, from, &Place::Cell(*to)).map_or(0, |d| d.max(0) * 1000)
        }
        Action::MoveTo { piece, to, .. } => {
            let Some(from) = own_place(view, *piece) else {
                return 0;
            };
            let facing = match from {
                Place::Point { facing, .. } => *facing,
                _ => return 0,
            };
            let dest = Place::Point { at: *to, facing };
            closing(view, grid, from, &dest).map_or(0, |d| d.max(0))
        }
        _ => 0,
    }
}

/// How much closer to the nearest known enemy a piece ends at `to` than at `from`.
fn closing(view: &View, grid: Option<&Grid>, from: &Place, to: &Place) -> Option<i64> {
    Some(nearest_enemy(view, grid, from)? - nearest_enemy(view, grid, to)?)
}

/// The chart outcome of each action among `events`: (acting piece index, action, outcome).
pub fn chart_outcomes(events: Vec<Event>) -> impl Iterator<Item = (usize, String, String)> {
    events.into_iter().filter_map(|e| match e {
        Event::Acted {
            piece,
            action,
            roll: Some(roll),
            ..
        } => Some((piece.0 as usize, action, roll.outcome)),
        _ => None,
    })
}

/// What playing a game with policies gave.
#[derive(Debug, Default)]
pub struct Played {
    /// Orders given by policies.
    pub orders: u64,
    /// Orders of theirs that `apply` refused (only where a side could not see what was
    /// there); the phase was ended instead.
    pub refused: Vec<String>,
    /// Each chart outcome of an action: (acting piece index, action, outcome).
    pub outcomes: Vec<(usize, String, String)>,
    /// A policy's error, which stopped the game where it stood.
    pub error: Option<String>,
    /// When `Some`, every order applied, as a save writes it (a refused order is left out
    /// and the end of phase given instead is kept): what `sim --save-games` saves.
    pub record: Option<Vec<grognard_rules::model::OrderSpec>>,
}

/// Plays `game` to its end with the players of `players` (sides without one end each phase
/// they are asked to act in). Stops after `max_orders` orders at most, or at a policy's
/// error (the game is left as it was before the order it could not give).
pub fn play_out(
    game: &mut Game,
    hooks: &mut dyn Hooks,
    players: &mut [Option<Player>],
    max_orders: u64,
) -> Played {
    let mut played = Played::default();
    play_on(game, hooks, players, max_orders, &mut played);
    played
}

/// [`play_out`] into `played` (which may ask for the orders to be recorded).
pub fn play_on(
    game: &mut Game,
    hooks: &mut dyn Hooks,
    players: &mut [Option<Player>],
    max_orders: u64,
    played: &mut Played,
) {
    while played.orders < max_orders {
        if !step(game, hooks, players, played) {
            break;
        }
    }
}

/// Gives one order in `game` from whoever is to act (ending the phase for a side with no
/// player). False when nobody acts (the game is over) or nothing more can be done.
pub fn step(
    game: &mut Game,
    hooks: &mut dyn Hooks,
    players: &mut [Option<Player>],
    played: &mut Played,
) -> bool {
    let Some(&side) = game.to_act().first() else {
        return false;
    };
    let action = match players.get_mut(side.index()).and_then(Option::as_mut) {
        Some(player) => {
            // A hook that faults while the orders are listed (its budget or time spent, a
            // script error) would leave the orders it was asked about out of the list, and
            // the game would go on as a different game: it stops here instead, and says why.
            let legal = match game.legal_orders_checked(side, hooks) {
                Ok(legal) => legal,
                Err(fault) => {
                    let name = game.sides().get(side.index()).map_or("a side", |s| &s.name);
                    played.error = Some(format!("listing {name}'s orders: {fault}"));
                    return false;
                }
            };
            match player.choose_with(game, side, &legal, hooks) {
                Ok(a) => a,
                Err(e) => {
                    played.error = Some(e);
                    return false;
                }
            }
        }
        None => Action::EndPhase,
    };
    played.orders += 1;
    let order = Order { side, action };
    match game.apply(&order, hooks) {
        Ok(events) => {
            if let Some(record) = &mut played.record {
                record.push(grognard_rules::orders::describe_order(game, &order));
            }
            played.outcomes.extend(chart_outcomes(events));
        }
        Err(r) => {
            played.refused.push(r.message);
            let end = Order {
                side,
                action: Action::EndPhase,
            };
            if game.apply(&end, hooks).is_err() {
                return false;
            }
            if let Some(record) = &mut played.record {
                record.push(grognard_rules::orders::describe_order(game, &end));
            }
        }
    }
    true
}

/// Most orders the policies give in one game: a bound on a game whose phases never end.
pub const MAX_POLICY_ORDERS: u64 = 200_000;

/// A player for each side a policy plays (`None` where none does), for the game seeded
/// `seed`.
///
/// # Errors
/// A Lua policy that no longer loads.
pub fn players_for(seats: &[Option<PolicyKind>], seed: u64) -> Result<Vec<Option<Player>>, String> {
    seats
        .iter()
        .enumerate()
        .map(|(i, k)| {
            k.as_ref()
                .map(|k| Player::new(k, seed, SideId(u8::try_from(i).unwrap_or(u8::MAX))))
                .transpose()
        })
        .collect()
}

/// How one policy game ended.
#[derive(Debug)]
pub struct GameEnd {
    /// The game as it stands at the end.
    pub game: Game,
    /// What the policies did.
    pub played: Played,
}

/// Starts `scenario` with `seed` and plays it to its end with the policies of `seats` (one
/// per side; a side without one ends each phase it is asked to act in).
///
/// # Errors
/// The scenario does not start, or a Lua policy fails to load.
pub fn play_game(
    scenario: &grognard_rules::load::Scenario,
    seats: &[Option<PolicyKind>],
    seed: u64,
    hooks: &mut dyn Hooks,
) -> Result<GameEnd, String> {
    let mut game = scenario
        .start(Some(seed), &[], hooks)
        .map_err(|d| d.to_string())?;
    let mut players = players_for(seats, seed)?;
    let played = play_out(&mut game, hooks, &mut players, MAX_POLICY_ORDERS);
    Ok(GameEnd { game, played })
}
