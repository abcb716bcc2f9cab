//! A ruleset's Lua scripts answering the kernel's [`Hooks`].
//!
//! **Pure hooks** (`move_cost`, `stops`) are asked on hot paths — every step of a reach
//! query — so they receive only plain values (piece type, mode, terrain names, the data's
//! cost, whether the step is diagonal, and for a `move_cost` that declares it the terrain
//! left) and may read only what is fixed for a game (its settings and optional rules,
//! through the `rules` table). Their answers are therefore a function of their arguments,
//! and are cached per game: a reach query over a big board calls Lua once per distinct
//! (type, mode, terrain, cost, diagonal[, terrain left]), not once per step.
//!
//! **Game hooks** (`phase_begin`, scripted actions) receive a `game` object that reads the
//! game as it stands and acts only by asking: `game:add_counter(...)` and friends queue
//! commands the kernel validates and logs after the hook returns; `game:roll(...)` rolls
//! the game's own seeded dice and logs the roll. A hook that fails changes nothing.

use std::cell::RefCell;
use std::collections::HashMap;

use grognard_kernel::Cost;
use grognard_kernel::game::World;
use grognard_kernel::geometry::{Cell, Grid};
use grognard_kernel::hooks::{
    HookCommand, HookDice, HookFailure, HookFault, HookPoint, HookVerdict, Hooks,
};
use grognard_kernel::ids::{ActionId, ModeId, PieceId};
use grognard_rules::compile::split_binding;
use grognard_rules::de::Located;
use grognard_rules::diag::{Diagnostic, Diagnostics, Location};
use grognard_rules::load::Ruleset;
use grognard_rules::model::ActionSpec;
use mlua::{Function, Lua, Table, Value};

use crate::api::{Call, GameObject};
use crate::error::{HookError, HookErrorKind};
pub use crate::names::{MAX_COMMANDS_PER_CALL, UnitRef};
use crate::names::{unit_handle, unknown_name};
use crate::sandbox::{Limits, Sandbox};
use pure::Pure;

mod checks;
mod moves;
mod pure;
mod verdict;

pub mod evaluate;

/// What a hook point passes, for the arity check at load and for the docs: a `match` over
/// the kernel's `hook_points!` list, so a point added there does not compile until its
/// parameters are given here.
#[must_use]
pub const fn point_parameters(point: HookPoint) -> &'static [&'static str] {
    match point {
        HookPoint::MoveCost => &[
            "kind",
            "mode",
            "terrain",
            "cost",
            "diagonal",
            "from_terrain",
        ],
        HookPoint::Stops => &["kind", "mode", "terrain"],
        HookPoint::PhaseBegin | HookPoint::PhaseEnd => &["game", "phase"],
        HookPoint::Moved | HookPoint::MayMove => &["game", "unit", "path", "facing"],
        HookPoint::Faced | HookPoint::ModeChanged => &["game", "unit", "before"],
        HookPoint::MayFace => &["game", "unit", "facing"],
        HookPoint::MayMoveAll => &["game", "unit", "from", "moves"],
        HookPoint::Result => &["game", "ended", "points"],
        HookPoint::Evaluate => &["view", "score"],
    }
}

/// What an action's script (`action`), check (`check`) and batched check (`check_all`)
/// pass: the bindings that are not `hooks:` points.
pub const ACTION_HOOK_PARAMETERS: [(&str, &[&str]); 3] = [
    ("action", BindAs::Action.parameters()),
    ("check", BindAs::Check.parameters()),
    ("check_all", BindAs::CheckAll.parameters()),
];

/// What a function is bound as: a `hooks:` point, or one of an action's scripts. Its
/// parameters and its name in messages follow from it (no look-up by name).
#[derive(Clone, Copy)]
enum BindAs {
    /// A `hooks:` entry.
    Point(HookPoint),
    /// An action's `script:`.
    Action,
    /// An action's `check:`.
    Check,
    /// An action's `check_all:`.
    CheckAll,
}

impl BindAs {
    /// What a function bound so is passed.
    const fn parameters(self) -> &'static [&'static str] {
        match self {
            Self::Point(point) => point_parameters(point),
            Self::Action => &["game", "actor", "target", "outcome"],
            Self::Check => &["game", "actor", "target"],
            Self::CheckAll => &["game", "actor", "targets"],
        }
    }

    /// Its name, as a ruleset writes it.
    const fn name(self) -> &'static str {
        match self {
            Self::Point(point) => point.name(),
            Self::Action => "action",
            Self::Check => "check",
            Self::CheckAll => "check_all",
        }
    }

    /// The binding's name in the faults it reports (`hook moved (rules.moved)`).
    fn label(self, binding: &str) -> String {
        match self {
            Self::Action => format!("action script {binding}"),
            Self::Check | Self::CheckAll => format!("action check {binding}"),
            Self::Point(point) => format!("hook {} ({binding})", point.name()),
        }
    }
}

/// What each hook passes, by name: every hook point in [`HookPoint::ALL`]'s order (built
/// from it by [`point_parameters`]), then the action hooks.
pub const HOOK_PARAMETERS: [(&str, &[&str]); HookPoint::ALL.len() + ACTION_HOOK_PARAMETERS.len()] = {
    let mut out: [(&str, &[&str]); HookPoint::ALL.len() + ACTION_HOOK_PARAMETERS.len()] =
        [("", &[]); HookPoint::ALL.len() + ACTION_HOOK_PARAMETERS.len()];
    let mut i = 0;
    while i < HookPoint::ALL.len() {
        let point = HookPoint::ALL[i];
        out[i] = (point.name(), point_parameters(point));
        i += 1;
    }
    let mut j = 0;
    while j < ACTION_HOOK_PARAMETERS.len() {
        out[i + j] = ACTION_HOOK_PARAMETERS[j];
        j += 1;
    }
    out
};

struct Bound {
    function: Function,
    label: String,
    /// The hook point and binding, naming no piece (`hook moved (rules.moved)`), for the
    /// faults it reports.
    name: String,
    /// The function's parameters, counted once at binding (a variadic one counts as
    /// taking them all).
    params: usize,
}

/// A game hook: one bound at a hook point, or an action's script.
#[derive(Clone, Copy)]
enum GameHook {
    Point(HookPoint),
    Action(ActionId),
}

/// A ruleset's hooks, run in one sandbox per game.
pub struct LuaHooks {
    sandbox: Sandbox,
    /// The `game` object every game hook of this sandbox receives.
    game: GameObject,
    /// The `hooks:` bindings, by [`HookPoint::index`].
    points: [Option<Bound>; HookPoint::ALL.len()],
    /// The actions' scripts (`script:`), by action.
    actions: Vec<Option<Bound>>,
    /// The actions' checks (`check:`), by action.
    checks: Vec<Option<Bound>>,
    /// The actions' batch checks (`check_all:`), by action.
    checks_all: Vec<Option<Bound>>,
    /// The settings and options the pure hooks see, and their answers.
    pure: Pure,
    /// The first fault since the kernel last took it ([`Hooks::take_fault`]).
    fault: RefCell<Option<HookFault>>,
    /// Whether the last check read `game:intent()` ([`Hooks::check_read_intent`]).
    intent_read: std::cell::Cell<bool>,
    /// The legal listing in progress and the memo its checks share.
    listing: checks::Listing,
    /// The ruleset's `sequence.phase_begin_refuses` (see [`Hooks::phase_begin_refuses`]).
    phase_begin_refuses: bool,
}

impl core::fmt::Debug for LuaHooks {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("LuaHooks").finish_non_exhaustive()
    }
}

fn diag(at: &Location, e: &HookError) -> Diagnostic {
    Diagnostic::new(at.clone(), e.to_string())
}

fn failure(e: HookError) -> HookFailure {
    HookFailure {
        // A script's refusal (`game:refuse`) is the rule's words alone.
        message: if e.kind == HookErrorKind::Refused {
            e.message
        } else {
            e.to_string()
        },
    }
}

impl LuaHooks {
    /// True when the ruleset binds any hook (otherwise the kernel's data answers suffice).
    #[must_use]
    pub fn wanted(ruleset: &Ruleset) -> bool {
        !ruleset.spec.hooks.is_empty()
            || ruleset
                .spec
                .actions
                .iter()
                .any(|a| a.value.script.is_some() || a.value.check.is_some())
    }

    /// Loads a ruleset's scripts into a fresh sandbox and binds its hooks.
    ///
    /// # Errors
    /// Every script that does not load and every binding to a missing function or one that
    /// expects more arguments than its hook passes, at the ruleset line that names it.
    pub fn new(ruleset: &Ruleset, limits: Limits) -> Result<Self, Diagnostics> {
        let sandbox = Sandbox::new(limits)
            .map_err(|e| Diagnostics::from(Diagnostic::without_location(e.to_string())))?;
        let (game, shared) = prepare_api(&sandbox, ruleset)?;
        let mut problems = Diagnostics::default();
        let modules = load_modules(&sandbox, ruleset, &shared, &mut problems);
        let bind = |hook: BindAs, binding: &Located<String>, problems: &mut Diagnostics| {
            bind_function(&sandbox, &modules, hook, binding, problems)
        };
        let mut points: [Option<Bound>; HookPoint::ALL.len()] = Default::default();
        for h in ruleset.spec.hooks.iter() {
            // The rules crate has reported a name that is no hook point.
            let Some(point) = HookPoint::from_name(&h.name.value) else {
                continue;
            };
            if let Some(slot) = points.get_mut(point.index()) {
                *slot = bind(BindAs::Point(point), &h.value, &mut problems);
            }
        }
        moves::check_may_move_forms(ruleset, &points, &mut problems);
        // Each action's script, check and batched check, bound by the action's index.
        let mut per_action = |hook: BindAs, field: fn(&ActionSpec) -> Option<&Located<String>>| {
            (ruleset.spec.actions.iter())
                .map(|a| field(&a.value).and_then(|s| bind(hook, s, &mut problems)))
                .collect::<Vec<_>>()
        };
        let actions = per_action(BindAs::Action, |a| a.script.as_ref());
        let checks = per_action(BindAs::Check, |a| a.check.as_ref());
        let checks_all = per_action(BindAs::CheckAll, |a| a.check_all.as_ref());
        let hooks = Self {
            sandbox,
            game,
            points,
            actions,
            checks,
            checks_all,
            pure: Pure::default(),
            fault: RefCell::new(None),
            intent_read: std::cell::Cell::new(true),
            listing: checks::Listing::default(),
            phase_begin_refuses: ruleset.spec.sequence.phase_begin_refuses != Some(false),
        };
        problems.into_result(hooks)
    }

    /// Runs a game hook: points the sandbox's `game` object at this call (its functions read
    /// the world and the dice only during the call), calls the hook under the sandbox's
    /// budget, and returns the changes it asked for.
    fn run_hook<A: mlua::IntoLuaMulti>(
        &self,
        bound: &Bound,
        what: &str,
        world: &World<'_>,
        dice: &mut HookDice<'_>,
        args: impl FnOnce(Table, &Lua) -> mlua::Result<A>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let commands: RefCell<Vec<HookCommand>> = RefCell::new(Vec::new());
        let dice = RefCell::new(dice);
        let (sandbox, game) = (&self.sandbox, &self.game);
        let lua = sandbox.lua();
        sandbox
            .call_with(what, &bound.function, || {
                let call = Call {
                    world,
                    dice: &dice,
                    commands: &commands,
                    memo: None,
                };
                game.during(&call, |game| {
                    bound.function.call::<()>(args(game.clone(), lua)?)
                })
            })
            .map_err(|e| self.failed(bound, e))?;
        Ok(commands.into_inner())
    }

    /// The binding at a hook point, if the ruleset binds one.
    fn bound(&self, point: HookPoint) -> Option<&Bound> {
        self.points.get(point.index())?.as_ref()
    }

    /// Runs the game hook `which` names, when it is bound (otherwise it changes nothing):
    /// reads the game's constants, words the call for messages (`what`, from the
    /// binding's label) and calls it with `args` through [`Self::run_hook`].
    fn run_game_hook<A: mlua::IntoLuaMulti>(
        &mut self,
        which: GameHook,
        world: &World<'_>,
        dice: &mut HookDice<'_>,
        what: impl FnOnce(&str) -> String,
        args: impl FnOnce(Table, &Lua) -> mlua::Result<A>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        // Looked up in the tables themselves, so the binding stays borrowed while the
        // constants (another field) are refreshed.
        let bound = match which {
            GameHook::Point(point) => self.points.get(point.index()),
            GameHook::Action(action) => self.actions.get(action.index()),
        };
        let Some(bound) = bound.and_then(Option::as_ref) else {
            return Ok(Vec::new());
        };
        // `rules.setting` / `rules.option` read the same table in every hook.
        (self.pure)
            .refresh(self.sandbox.lua(), world)
            .map_err(|e| self.api_failed(&e))?;
        let what = what(&bound.label);
        self.run_hook(bound, &what, world, dice, args)
    }

    /// A failure of a call to `bound`: the script's own error (`error(...)`, or Lua's at a
    /// line of the script) is its answer, and refuses what asked; anything else (budget,
    /// time, memory, a wrong type) is also recorded as the hook's fault.
    fn failed(&self, bound: &Bound, e: HookError) -> HookFailure {
        if e.kind != HookErrorKind::Runtime && e.kind != HookErrorKind::Refused {
            self.record(&bound.name, &e.kind.to_string(), &e.to_string());
        }
        failure(e)
    }

    /// A hook's answer that no hook may give (a wrong type, a change asked of a check):
    /// recorded as its fault, and refusing what asked.
    fn wrong(&self, bound: &Bound, failure: HookFailure) -> HookFailure {
        self.record(
            &bound.name,
            &HookErrorKind::WrongType.to_string(),
            &failure.message,
        );
        failure
    }

    /// Keeps the first fault until the kernel takes it.
    fn record(&self, hook: &str, what: &str, message: &str) {
        let mut slot = self.fault.borrow_mut();
        if slot.is_none() {
            *slot = Some(HookFault {
                hook: hook.to_owned(),
                what: what.to_owned(),
                message: message.to_owned(),
            });
        }
    }

    /// The sandbox (for tests and the editor's script console).
    #[must_use]
    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// Makes the game's settings and options visible to pure hooks ([`Pure::refresh`]).
    fn constants_for(&mut self, world: &World<'_>) -> Result<(), HookFailure> {
        self.pure
            .refresh(self.sandbox.lua(), world)
            .map_err(|e| self.api_failed(&e))
    }

    /// A failure to show the game's constants to the scripts: the engine's fault.
    fn api_failed(&self, e: &mlua::Error) -> HookFailure {
        let message = format!("cannot update the Lua API: {e}");
        self.record("the Lua API", "engine error", &message);
        HookFailure { message }
    }
}

/// Makes the sandbox's API: the `rules` table, the `game` object and the `scripts` table
/// through which modules reach each other's tables (by module name), so a variant can keep
/// its shared helpers in one module and its mechanics in others.
fn prepare_api(sandbox: &Sandbox, ruleset: &Ruleset) -> Result<(GameObject, Table), Diagnostics> {
    let failed = |e: mlua::Error| {
        Diagnostics::from(Diagnostic::without_location(format!(
            "cannot prepare the Lua API: {e}"
        )))
    };
    install_rules_table(sandbox.lua(), ruleset).map_err(failed)?;
    let game = GameObject::new(sandbox.lua()).map_err(failed)?;
    let shared = sandbox.lua().create_table().map_err(failed)?;
    sandbox
        .lua()
        .globals()
        .set("scripts", &shared)
        .map_err(failed)?;
    Ok((game, shared))
}

/// Loads the ruleset's scripts in order, each into `shared` under its module name: a
/// module's top level sees the modules listed before it; its functions, called later, see
/// them all. A script that does not load is a problem at its ruleset line.
fn load_modules(
    sandbox: &Sandbox,
    ruleset: &Ruleset,
    shared: &Table,
    problems: &mut Diagnostics,
) -> HashMap<String, Table> {
    let mut modules: HashMap<String, Table> = HashMap::new();
    for script in &ruleset.scripts {
        let chunk = script.path.to_string_lossy().replace('\\', "/");
        match sandbox.load_module(&chunk, &script.text) {
            Ok(table) => {
                if let Err(e) = shared.raw_set(script.module.as_str(), &table) {
                    problems.push(Diagnostic::new(
                        script.location.clone(),
                        format!("cannot share module `{}`: {e}", script.module),
                    ));
                }
                modules.insert(script.module.clone(), table);
            }
            Err(e) => problems.push(diag(&script.location, &e)),
        }
    }
    modules
}

/// Binds one hook, action script or check to its `module.function`, checking that the
/// function takes no more parameters than the hook passes; a problem at the binding's
/// line otherwise.
fn bind_function(
    sandbox: &Sandbox,
    modules: &HashMap<String, Table>,
    hook: BindAs,
    binding: &Located<String>,
    problems: &mut Diagnostics,
) -> Option<Bound> {
    let (module, name) = split_binding(&binding.value)?;
    let table = modules.get(module)?;
    let function = match sandbox.function(table, name) {
        Ok(f) => f,
        Err(e) => {
            problems.push(diag(&binding.location, &e));
            return None;
        }
    };
    let params = hook.parameters();
    let info = function.info();
    if usize::from(info.num_params) > params.len() {
        problems.push(Diagnostic::new(
            binding.location.clone(),
            format!(
                "`{}` takes {} parameters, but the {} hook passes {} ({})",
                binding.value,
                info.num_params,
                hook.name(),
                params.len(),
                params.join(", ")
            ),
        ));
        return None;
    }
    Some(Bound {
        function,
        label: binding.value.clone(),
        name: hook.label(&binding.value),
        params: if info.is_vararg {
            usize::MAX
        } else {
            usize::from(info.num_params)
        },
    })
}

/// The `rules` global: read-only facts fixed for a game.
fn install_rules_table(lua: &Lua, ruleset: &Ruleset) -> mlua::Result<()> {
    let rules = lua.create_table()?;
    rules.set("name", ruleset.rules.identity.name.as_str())?;
    rules.set("_settings", lua.create_table()?)?;
    rules.set("_options", lua.create_table()?)?;
    let setting_names: Vec<String> = ruleset
        .rules
        .settings
        .iter()
        .map(|s| s.name.clone())
        .collect();
    let option_names: Vec<String> = ruleset
        .rules
        .options
        .iter()
        .map(|o| o.name.clone())
        .collect();
    rules.set(
        "setting",
        lua.create_function(move |lua, name: String| {
            let rules: Table = lua.globals().get("rules")?;
            let table: Table = rules.get("_settings")?;
            match table.get::<Option<i64>>(name.as_str())? {
                Some(v) => Ok(v),
                None => Err(unknown_name("setting", &name, &setting_names)),
            }
        })?,
    )?;
    rules.set(
        "option",
        lua.create_function(move |lua, name: String| {
            let rules: Table = lua.globals().get("rules")?;
            let table: Table = rules.get("_options")?;
            match table.get::<Option<bool>>(name.as_str())? {
                Some(v) => Ok(v),
                None => Err(unknown_name("optional rule", &name, &option_names)),
            }
        })?,
    )?;
    lua.globals().set("rules", rules)
}

fn cost_from_lua(value: &Value, label: &str) -> Result<Option<Cost>, HookFailure> {
    let points = match value {
        // A string is impassable too, in the rule's words ([`Hooks::move_ban_reason`]).
        Value::Nil | Value::Boolean(false) | Value::String(_) => return Ok(None),
        Value::Integer(i) => *i as f64,
        Value::Number(n) => *n,
        other => {
            return Err(HookFailure {
                message: format!(
                    "{label} returned {}; expected a cost in points (a number), or nil or a reason (a string) for impassable",
                    other.type_name()
                ),
            });
        }
    };
    if !points.is_finite() || !(0.0..=1_000_000.0).contains(&points) {
        return Err(HookFailure {
            message: format!(
                "{label} returned {}; a cost must be from 0 to 1,000,000 points",
                grognard_kernel::text::number(points)
            ),
        });
    }
    Ok(Some(Cost::from_hundredths((points * 100.0).round() as i32)))
}

/// The names a pure hook receives for a piece entering a terrain: its type, mode and the
/// terrain's name.
fn pure_names<'w>(
    world: &'w World<'_>,
    piece: &grognard_kernel::piece::Piece,
    terrain: grognard_kernel::ids::TerrainId,
) -> (&'w str, &'w str, &'w str) {
    let rules = world.rules;
    (
        rules
            .piece_type(piece.kind)
            .map_or("?", |t| t.name.as_str()),
        rules.mode_name(piece.mode),
        rules
            .terrain
            .get(terrain.index())
            .map_or("?", |t| t.name.as_str()),
    )
}

fn piece_label(world: &World<'_>, piece: PieceId) -> String {
    world
        .state
        .pieces
        .get(piece.index())
        .map_or_else(|| format!("#{}", piece.0), |p| p.name.clone())
}

impl Hooks for LuaHooks {
    /// The hook is called with plain values only (type, mode and terrain names, the data
    /// cost, diagonal or not) and reads the ruleset's constants, which the options and
    /// settings set: its answers are kept per game on exactly those (see `PureTable`).
    fn move_cost_is_pure(&self) -> bool {
        true
    }

    /// A `move_cost` function that declares a sixth parameter (or is variadic) sees the
    /// terrain the step leaves.
    fn move_cost_reads_from(&self) -> bool {
        self.bound(HookPoint::MoveCost)
            .is_some_and(|b| b.params >= 6)
    }

    /// `may_move` is bound in either form: the batch form decides the same moves.
    fn is_bound(&self, point: HookPoint) -> bool {
        self.bound(point).is_some()
            || (point == HookPoint::MayMove && self.bound(HookPoint::MayMoveAll).is_some())
    }

    /// A `may_face` function that declares no third parameter (and is not variadic)
    /// cannot see the facing it is asked about.
    fn may_face_reads_facing(&self) -> bool {
        self.bound(HookPoint::MayFace)
            .is_some_and(|b| b.params >= 3)
    }

    fn check_read_intent(&self) -> bool {
        self.intent_read.get()
    }

    fn action_check_batched(&self, action: ActionId) -> bool {
        matches!(self.checks_all.get(action.index()), Some(Some(_)))
    }

    fn action_check_all(
        &mut self,
        world: &World<'_>,
        action: ActionId,
        actor: PieceId,
        targets: &[PieceId],
        intent: &[String],
    ) -> Vec<Result<(), HookFailure>> {
        self.ask_action_check_all(world, action, actor, targets, intent)
    }

    fn phase_begin_refuses(&self) -> bool {
        self.phase_begin_refuses
    }

    fn listing_begins(&mut self, state: &grognard_kernel::state::State) {
        self.listing.begin(state);
    }

    fn listing_ends(&mut self) {
        self.listing.end();
    }

    fn take_fault(&mut self) -> Option<HookFault> {
        self.fault.get_mut().take()
    }

    fn has_fault(&self) -> bool {
        self.fault.borrow().is_some()
    }

    fn evaluate(&mut self, view: &evaluate::View, score: f64) -> Result<Option<f64>, HookFailure> {
        evaluate::run(self, view, score)
    }

    fn may_move_on_table_all(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        moves: &[(
            grognard_kernel::geometry::open::Point,
            grognard_kernel::geometry::open::Angle,
        )],
    ) -> Vec<Result<(), HookFailure>> {
        self.ask_may_move_all(world, piece, moves)
    }

    fn may_move_on_table(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        to: grognard_kernel::geometry::open::Point,
        facing: grognard_kernel::geometry::open::Angle,
    ) -> Result<(), HookFailure> {
        self.ask_may_move(world, piece, to, facing)
    }

    fn may_move_on_grid(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        path: &[Cell],
        facing: grognard_kernel::geometry::Facing,
    ) -> Result<(), HookFailure> {
        self.ask_may_move_on_grid(world, piece, path, facing)
    }

    fn may_face(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        facing: grognard_kernel::geometry::Facing,
    ) -> Result<(), HookFailure> {
        if !self.is_bound(HookPoint::MayFace) {
            return Ok(());
        }
        self.constants_for(world)?;
        let Some(bound) = self.bound(HookPoint::MayFace) else {
            return Ok(());
        };
        let what = format!("hook may_face ({})", bound.label);
        let facing = world.board.grid().map(|g| g.facing_name(facing).to_owned());
        self.run_check(bound, &what, world, &[], |game, lua| {
            Ok((game, unit_handle(lua, piece)?, facing))
        })
    }

    fn action_check(
        &mut self,
        world: &World<'_>,
        action: ActionId,
        actor: PieceId,
        target: Option<PieceId>,
        intent: &[String],
    ) -> Result<(), HookFailure> {
        if !matches!(self.checks.get(action.index()), Some(Some(_))) {
            // The batch form answers for the one target.
            return match target {
                Some(t) if self.action_check_batched(action) => self
                    .ask_action_check_all(world, action, actor, &[t], intent)
                    .into_iter()
                    .next()
                    .unwrap_or(Ok(())),
                _ => Ok(()),
            };
        }
        self.constants_for(world)?;
        let Some(Some(bound)) = self.checks.get(action.index()) else {
            return Ok(());
        };
        let what = format!("action check {}", bound.label);
        self.run_check(bound, &what, world, intent, |game, lua| {
            let target = target.map(|t| unit_handle(lua, t)).transpose()?;
            Ok((game, unit_handle(lua, actor)?, target))
        })
    }

    fn move_cost(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        from: Cell,
        to: Cell,
        data: Option<Cost>,
    ) -> Result<Option<Cost>, HookFailure> {
        if !self.is_bound(HookPoint::MoveCost) {
            return Ok(data);
        }
        self.constants_for(world)?;
        let Some(p) = world.state.pieces.get(piece.index()) else {
            return Ok(data);
        };
        let terrain = world.board.terrain(to);
        let diagonal = matches!(world.board.grid(), Some(Grid::Square(_)))
            && world
                .board
                .grid()
                .and_then(|g| g.direction_to(from, to))
                .is_some_and(grognard_kernel::geometry::square::is_diagonal);
        let data_key = data.map(Cost::hundredths);
        let left = self
            .move_cost_reads_from()
            .then(|| world.board.terrain(from));
        let left_key = left.map_or(u16::MAX, |t| t.0);
        if let Some(hit) = self
            .pure
            .move_cache
            .slot(world, p.kind.0, p.mode.0, terrain.0, diagonal)
            .and_then(|seen| {
                seen.iter()
                    .find(|(d, l, _)| *d == data_key && *l == left_key)
            })
        {
            return Ok(hit.2);
        }
        let Some(bound) = self.bound(HookPoint::MoveCost) else {
            return Ok(data);
        };
        let (kind, mode, terrain_name) = pure_names(world, p, terrain);
        let left_name = left.map(|t| pure_names(world, p, t).2);
        let cost_arg = data.map(|c| f64::from(c.hundredths()) / 100.0);
        let what = format!(
            "hook move_cost ({}) for piece {} entering {to}",
            bound.label, p.name
        );
        let value: Value = self
            .sandbox
            .call(
                &bound.function,
                &what,
                (kind, mode, terrain_name, cost_arg, diagonal, left_name),
            )
            .map_err(|e| self.failed(bound, e))?;
        let cost = cost_from_lua(
            &value,
            &format!("{} (for {} entering {to})", bound.label, p.name),
        )
        .map_err(|f| self.wrong(bound, f))?;
        if let Some(seen) = self
            .pure
            .move_cache
            .slot(world, p.kind.0, p.mode.0, terrain.0, diagonal)
        {
            seen.push((data_key, left_key, cost));
        }
        Ok(cost)
    }

    fn move_ban_reason(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        from: Cell,
        to: Cell,
        data: Option<Cost>,
    ) -> Option<String> {
        // Asked only for a move's refusal: the hook is called again, uncached.
        let p = world.state.pieces.get(piece.index())?;
        let bound = self.bound(HookPoint::MoveCost)?;
        let (kind, mode, terrain) = pure_names(world, p, world.board.terrain(to));
        let left = self
            .move_cost_reads_from()
            .then(|| pure_names(world, p, world.board.terrain(from)).2);
        let diagonal = matches!(world.board.grid(), Some(Grid::Square(_)))
            && (world.board.grid()?.direction_to(from, to))
                .is_some_and(grognard_kernel::geometry::square::is_diagonal);
        let cost = data.map(|c| f64::from(c.hundredths()) / 100.0);
        let what = format!("hook move_cost ({}) for piece {}", bound.label, p.name);
        let args = (kind, mode, terrain, cost, diagonal, left);
        match self.sandbox.call(&bound.function, &what, args).ok()? {
            Value::String(s) => Some(s.to_string_lossy()),
            _ => None,
        }
    }

    fn stops(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        _from: Cell,
        to: Cell,
    ) -> Result<bool, HookFailure> {
        if !self.is_bound(HookPoint::Stops) {
            return Ok(false);
        }
        self.constants_for(world)?;
        let Some(p) = world.state.pieces.get(piece.index()) else {
            return Ok(false);
        };
        let terrain = world.board.terrain(to);
        if let Some(Some(hit)) = self
            .pure
            .stop_cache
            .slot(world, p.kind.0, p.mode.0, terrain.0, false)
            .map(|s| *s)
        {
            return Ok(hit);
        }
        let Some(bound) = self.bound(HookPoint::Stops) else {
            return Ok(false);
        };
        let (kind, mode, terrain_name) = pure_names(world, p, terrain);
        let what = format!(
            "hook stops ({}) for piece {} entering {to}",
            bound.label, p.name
        );
        let value: Value = self
            .sandbox
            .call(&bound.function, &what, (kind, mode, terrain_name))
            .map_err(|e| self.failed(bound, e))?;
        let mut reason = None;
        let stop = match value {
            Value::Boolean(b) => b,
            Value::Nil => false,
            Value::String(s) => {
                reason = Some(s.to_string_lossy());
                true
            }
            other => {
                let failure = HookFailure {
                    message: format!(
                        "{} returned {} (for {} entering {to}); expected true, false or a reason",
                        bound.label,
                        other.type_name(),
                        p.name
                    ),
                };
                return Err(self.wrong(bound, failure));
            }
        };
        if let Some(slot) = self
            .pure
            .stop_cache
            .slot(world, p.kind.0, p.mode.0, terrain.0, false)
        {
            *slot = Some(stop);
        }
        if let Some(slot) = self
            .pure
            .stop_reasons
            .slot(world, p.kind.0, p.mode.0, terrain.0, false)
        {
            *slot = reason;
        }
        Ok(stop)
    }

    fn stop_reason(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        from: Cell,
        to: Cell,
    ) -> Option<String> {
        // Asking again fills the slot when the answer came from before a reset.
        if !self.stops(world, piece, from, to).ok()? {
            return None;
        }
        let p = world.state.pieces.get(piece.index())?;
        let terrain = world.board.terrain(to);
        self.pure
            .stop_reasons
            .slot(world, p.kind.0, p.mode.0, terrain.0, false)?
            .clone()
    }

    fn phase_begin(
        &mut self,
        world: &World<'_>,
        phase: &str,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        self.run_game_hook(
            GameHook::Point(HookPoint::PhaseBegin),
            world,
            dice,
            |label| format!("hook phase_begin ({label}) as the {phase} phase begins"),
            |game, _| Ok((game, phase.to_owned())),
        )
    }

    fn phase_end(
        &mut self,
        world: &World<'_>,
        phase: &str,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        self.run_game_hook(
            GameHook::Point(HookPoint::PhaseEnd),
            world,
            dice,
            |label| format!("hook phase_end ({label}) as the {phase} phase ends"),
            |game, _| Ok((game, phase.to_owned())),
        )
    }

    fn moved(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        path: &[Cell],
        facing: grognard_kernel::geometry::Facing,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let what = |label: &str| {
            let piece = piece_label(world, piece);
            format!("hook moved ({label}) for piece {piece}")
        };
        self.run_game_hook(
            GameHook::Point(HookPoint::Moved),
            world,
            dice,
            what,
            |game, lua| {
                let cells: Vec<(i32, i32)> = path.iter().map(|c| (c.col, c.row)).collect();
                let list = moves::pair_list(lua, ("col", "row"), &cells);
                let facing = world.board.grid().map(|g| g.facing_name(facing).to_owned());
                Ok((game, unit_handle(lua, piece)?, list, facing))
            },
        )
    }

    fn moved_on_table(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        from: grognard_kernel::geometry::open::Point,
        facing: grognard_kernel::geometry::open::Angle,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let what = |label: &str| {
            let piece = piece_label(world, piece);
            format!("hook moved ({label}) for piece {piece}")
        };
        self.run_game_hook(
            GameHook::Point(HookPoint::Moved),
            world,
            dice,
            what,
            |game, lua| {
                let at = match world.state.pieces.get(piece.index()).map(|p| &p.place) {
                    Some(grognard_kernel::piece::Place::Point { at, .. }) => Some(*at),
                    _ => None,
                };
                let list = moves::table_path(lua, from, at);
                Ok((game, unit_handle(lua, piece)?, list, moves::degrees(facing)))
            },
        )
    }

    fn faced(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        before: grognard_kernel::geometry::Facing,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let what = |label: &str| {
            let piece = piece_label(world, piece);
            format!("hook faced ({label}) for piece {piece}")
        };
        self.run_game_hook(
            GameHook::Point(HookPoint::Faced),
            world,
            dice,
            what,
            |game, lua| {
                let before = world.board.grid().map(|g| g.facing_name(before).to_owned());
                Ok((game, unit_handle(lua, piece)?, before))
            },
        )
    }

    fn mode_changed(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        before: ModeId,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let what = |label: &str| {
            let piece = piece_label(world, piece);
            format!("hook mode_changed ({label}) for piece {piece}")
        };
        let point = GameHook::Point(HookPoint::ModeChanged);
        self.run_game_hook(point, world, dice, what, |game, lua| {
            let before = world.rules.mode_name(before).to_owned();
            Ok((game, unit_handle(lua, piece)?, before))
        })
    }

    fn action(
        &mut self,
        world: &World<'_>,
        action: ActionId,
        actor: PieceId,
        target: Option<PieceId>,
        outcome: Option<&str>,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let what = |label: &str| {
            let actor = piece_label(world, actor);
            format!("action script {label} for piece {actor}")
        };
        let script = GameHook::Action(action);
        self.run_game_hook(script, world, dice, what, |game, lua| {
            let target = target.map(|t| unit_handle(lua, t)).transpose()?;
            Ok((
                game,
                unit_handle(lua, actor)?,
                target,
                outcome.map(str::to_owned),
            ))
        })
    }

    fn result(
        &mut self,
        world: &World<'_>,
        ended: bool,
        points: &dyn Fn() -> Vec<i32>,
    ) -> Result<Option<HookVerdict>, HookFailure> {
        if !self.is_bound(HookPoint::Result) {
            return Ok(None);
        }
        self.constants_for(world)?;
        let Some(bound) = self.bound(HookPoint::Result) else {
            return Ok(None);
        };
        let what = format!("hook result ({})", bound.label);
        // The hook only reads: its `game` rolls no dice and queues no changes, and any it
        // asks for refuse the order.
        let how = checks::ReadOnly {
            intent: &[],
            memo: false,
            intent_read: None,
            who: "the result hook",
            instead: "change the game in phase_begin or an action script",
        };
        let value = self.run_read_only(bound, &what, world, &how, |game, lua| {
            let by_side = lua.create_table()?;
            for (side, p) in world.sides.iter().zip(points()) {
                by_side.raw_set(side.name.as_str(), p)?;
            }
            Ok((game, ended, by_side))
        })?;
        verdict::verdict_from_lua(&value, &bound.label, world).map_err(|f| self.wrong(bound, f))
    }
}
