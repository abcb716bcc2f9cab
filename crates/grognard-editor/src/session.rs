//! A game being played in the editor: the scenario, the kernel's [`Game`], the ruleset's
//! hooks, the orders applied so far (for saves and undo) and the dice log in words.
//!
//! Nothing here decides a rule: every order goes through [`Game::apply`], every reach
//! question through [`Game::reach`].

use std::path::Path;

use grognard_kernel::action::{Event, Order, RollRecord};
use grognard_kernel::game::Game;
use grognard_kernel::hooks::{Hooks, NoHooks};
use grognard_lua::{Limits as LuaLimits, LuaHooks};
use grognard_play::takeback::{Lock, Takeback};
use grognard_rules::diag::Diagnostics;
use grognard_rules::load::{self, Ruleset, Scenario};
use grognard_rules::orders::{describe_order, resolve_order};
use grognard_rules::save::{SAVE_FORMAT, SaveFile};
use grognard_rules::yaml::Limits;

/// The hooks a ruleset binds: its Lua scripts in a fresh sandbox, or the data's own
/// answers (the same choice the command line makes).
///
/// # Errors
/// A script that does not load or a binding to a missing function.
pub fn hooks_for(ruleset: &Ruleset) -> Result<Box<dyn Hooks>, Diagnostics> {
    if LuaHooks::wanted(ruleset) {
        Ok(Box::new(LuaHooks::new(ruleset, LuaLimits::default())?))
    } else {
        Ok(Box::new(NoHooks))
    }
}

/// A game in progress.
pub struct Session {
    /// The scenario it started from (with the ruleset it is played under).
    pub scenario: Scenario,
    /// The game.
    pub game: Game,
    hooks: Box<dyn Hooks>,
    seed: u64,
    options: Vec<(String, bool)>,
    /// Orders applied, in sequence.
    orders: Vec<Order>,
    /// The log's length before each order (by order), so what one order or a run of them
    /// did can be read from the log (the computer's turn in short).
    marks: Vec<usize>,
    /// How many of the last orders may still be undone (none locked: see `lock`).
    undoable: usize,
    /// Why the order before those cannot be taken back (a roll, a reveal, the game's
    /// end), as the server judges a seat's undo.
    lock: Option<Lock>,
    /// Changes whenever the game does (unique across sessions), for caches of what was
    /// computed from it.
    generation: u64,
}

/// A number no session state had before.
fn next_generation() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl core::fmt::Debug for Session {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Session")
            .field("scenario", &self.scenario.path)
            .field("orders", &self.orders.len())
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Starts the scenario with its own seed and option choices overridden by `options`.
    ///
    /// # Errors
    /// The scenario cannot start (a piece that does not fit) or the scripts do not load.
    pub fn start(scenario: Scenario, options: &[(String, bool)]) -> Result<Self, String> {
        let mut hooks = hooks_for(&scenario.ruleset).map_err(|d| d.to_string())?;
        let game = scenario
            .start(None, options, hooks.as_mut())
            .map_err(|d| d.to_string())?;
        Ok(Self {
            seed: game.state().rng.seed(),
            scenario,
            game,
            hooks,
            options: options.to_vec(),
            orders: Vec::new(),
            marks: Vec::new(),
            undoable: 0,
            lock: None,
            generation: next_generation(),
        })
    }

    /// The hooks, for reach questions.
    pub fn hooks(&mut self) -> &mut dyn Hooks {
        self.hooks.as_mut()
    }

    /// Applies an order through the kernel.
    ///
    /// # Errors
    /// The kernel's refusal, in words; the game is unchanged.
    pub fn apply(&mut self, order: Order) -> Result<Vec<Event>, String> {
        let takeback = Takeback::before(&self.game, order.side);
        let mark = self.game.log().len();
        let events = self
            .game
            .apply(&order, self.hooks.as_mut())
            .map_err(|r| refusal_words(&self.game, &r.message))?;
        // The server's test: dice rolled, something of the enemy shown, or the game over.
        match takeback.lock(&self.game) {
            Some(lock) => {
                self.undoable = 0;
                self.lock = Some(lock);
            }
            None => self.undoable += 1,
        }
        self.orders.push(order);
        self.marks.push(mark);
        self.generation = next_generation();
        Ok(events)
    }

    /// Why the kernel would refuse `order` now, in its own words (the ruleset's names
    /// spaced, as the buttons say them) — the refusal `grognard
    /// play` prints — tried on a copy of the game, so nothing changes; `None` when it would
    /// be accepted. An order the legal list lacks is explained by the rule that bars it,
    /// not by its absence from the list.
    pub fn refusal(&mut self, order: &Order) -> Option<String> {
        let mut copy = self.game.clone();
        let refused = copy
            .apply(order, self.hooks.as_mut())
            .err()
            .map(|r| refusal_words(&self.game, &r.message));
        // A hook that faulted on the trial is the trial's: the next listing starts clean.
        let _ = self.hooks.take_fault();
        refused
    }

    /// Identifies the game as it stands: it changes with every order, undo and load.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Every order `side` may give now (the kernel's legal-order generator).
    pub fn legal(
        &mut self,
        side: grognard_kernel::ids::SideId,
    ) -> Vec<grognard_kernel::action::Action> {
        self.game.legal_orders(side, self.hooks.as_mut())
    }

    /// True when the last order can be taken back: no order since the last locked one
    /// rolled a die, showed its side something of the enemy or ended the game.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        self.undoable > 0
    }

    /// Why the last order cannot be taken back, in a player's words, when it cannot
    /// because of what it did (None while it can, or with no order given). Once the game
    /// is over that is the reason, whatever else the last order did (village-skirmish,
    /// which hides nothing, said its last order "showed you something of the enemy").
    #[must_use]
    pub fn why_locked(&self) -> Option<&'static str> {
        if self.can_undo() {
            return None;
        }
        if !self.orders.is_empty() && self.game.result().is_some() {
            return Some(Lock::GameOver.words());
        }
        self.lock.map(Lock::words)
    }

    /// Takes back the last order by replaying every earlier one from the start (the game
    /// is deterministic, so the result is exactly the position before it).
    ///
    /// # Errors
    /// Nothing to undo (or a die was rolled since), or the replay failed.
    pub fn undo(&mut self) -> Result<(), String> {
        if !self.can_undo() {
            return Err(self
                .why_locked()
                .unwrap_or("nothing to undo: no order has been given since the game began")
                .into());
        }
        let mut orders = std::mem::take(&mut self.orders);
        orders.pop();
        let mut hooks = hooks_for(&self.scenario.ruleset).map_err(|d| d.to_string())?;
        let mut game = self
            .scenario
            .start(Some(self.seed), &self.options, hooks.as_mut())
            .map_err(|d| d.to_string())?;
        for o in &orders {
            game.apply(o, hooks.as_mut())
                .map_err(|r| format!("undo replay refused: {}", r.message))?;
        }
        self.game = game;
        self.hooks = hooks;
        self.orders = orders;
        self.marks.truncate(self.orders.len());
        self.undoable -= 1;
        self.generation = next_generation();
        Ok(())
    }

    /// The game as it stood after its first `k` orders, as a session of its own (for
    /// stepping through a finished game): replayed from the start with the same seed and
    /// options, as an undo is, so it is exactly that position. Nothing in it can be taken
    /// back.
    ///
    /// # Errors
    /// The scripts do not load, or the replay is refused (a changed ruleset).
    pub fn position(&self, k: usize) -> Result<Self, String> {
        let mut hooks = hooks_for(&self.scenario.ruleset).map_err(|d| d.to_string())?;
        let mut game = self
            .scenario
            .start(Some(self.seed), &self.options, hooks.as_mut())
            .map_err(|d| d.to_string())?;
        let orders = &self.orders[..k.min(self.orders.len())];
        for o in orders {
            game.apply(o, hooks.as_mut())
                .map_err(|r| format!("replay refused: {}", r.message))?;
        }
        Ok(Self {
            scenario: self.scenario.clone(),
            game,
            hooks,
            seed: self.seed,
            options: self.options.clone(),
            orders: orders.to_vec(),
            marks: self.marks[..orders.len()].to_vec(),
            undoable: 0,
            lock: None,
            generation: next_generation(),
        })
    }

    /// Orders applied so far.
    #[must_use]
    pub fn orders(&self) -> &[Order] {
        &self.orders
    }

    /// Where in the log order `i` began (its events follow), if it was given.
    #[must_use]
    pub fn log_mark(&self, i: usize) -> Option<usize> {
        self.marks.get(i).copied()
    }

    /// The game as a replayable save, with paths relative to `path`.
    #[must_use]
    pub fn save_file(&self, path: &Path) -> SaveFile {
        let g = &self.game;
        // Orders are described against a replay, so piece names are as they were.
        let mut specs = Vec::new();
        let mut hooks = hooks_for(&self.scenario.ruleset).ok();
        let mut replay = hooks.as_mut().and_then(|h| {
            self.scenario
                .start(Some(self.seed), &self.options, h.as_mut())
                .ok()
        });
        for o in &self.orders {
            match (&mut replay, &mut hooks) {
                (Some(r), Some(h)) => {
                    specs.push(describe_order(r, o));
                    let _ = r.apply(o, h.as_mut());
                }
                _ => specs.push(describe_order(g, o)),
            }
        }
        SaveFile::of(g, &self.scenario, path, specs)
    }

    /// Writes the save file.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text =
            serde_json::to_string_pretty(&self.save_file(path)).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))
    }

    /// Loads a save: the scenario and ruleset it names (refusing changed ones), replaying
    /// every order and checking the events match.
    ///
    /// # Errors
    /// A bad save, changed files, or a replay that diverges.
    pub fn load(path: &Path) -> Result<Self, String> {
        let bytes = load::read_limited(path, &Limits::default()).map_err(|d| d.to_string())?;
        let save: SaveFile = serde_json::from_slice(&bytes).map_err(|e| {
            format!(
                "{}:{}:{}: not a grognard save: {e}",
                path.display(),
                e.line(),
                e.column()
            )
        })?;
        if save.format != SAVE_FORMAT {
            return Err(format!(
                "{}: save format `{}` is not supported (expected {SAVE_FORMAT})",
                path.display(),
                save.format
            ));
        }
        let dir = path.parent().unwrap_or_else(|| Path::new("."));
        let scenario = load::load_scenario(
            &dir.join(&save.scenario.path),
            Some(&dir.join(&save.ruleset.path)),
        )
        .map_err(|d| d.to_string())?;
        if scenario.ruleset.rules.identity.hash != save.ruleset.hash {
            return Err(format!(
                "{}: the ruleset `{}` changed since the game was saved",
                path.display(),
                save.ruleset.name
            ));
        }
        if scenario.hash != save.scenario.hash {
            return Err(format!(
                "{}: the scenario changed since the game was saved",
                path.display()
            ));
        }
        let options: Vec<(String, bool)> =
            save.options.iter().map(|(k, v)| (k.clone(), *v)).collect();
        let mut hooks = hooks_for(&scenario.ruleset).map_err(|d| d.to_string())?;
        let mut game = scenario
            .start(Some(save.seed), &options, hooks.as_mut())
            .map_err(|d| d.to_string())?;
        let mut orders = Vec::new();
        let mut marks = Vec::new();
        for (i, spec) in save.orders.iter().enumerate() {
            let order = resolve_order(&game, spec)
                .map_err(|m| format!("{}: order {}: {m}", path.display(), i + 1))?;
            let mark = game.log().len();
            game.apply(&order, hooks.as_mut()).map_err(|r| {
                format!(
                    "{}: order {}: refused: {}",
                    path.display(),
                    i + 1,
                    r.message
                )
            })?;
            orders.push(order);
            marks.push(mark);
        }
        if let Some(d) = grognard_rules::save::first_divergence(&save.events, game.log()) {
            return Err(format!(
                "{}: the replay differs from the save at event {}",
                path.display(),
                d.index + 1
            ));
        }
        Ok(Self {
            scenario,
            game,
            hooks,
            seed: save.seed,
            options,
            orders,
            marks,
            undoable: 0,
            // A loaded game's orders were given before it was saved: none is taken back.
            lock: None,
            generation: next_generation(),
        })
    }
}

/// A kernel refusal as the editor shows it: the ruleset's names spaced as the buttons say
/// them (`hale has already used change orders this phase`, not `change_orders`); a
/// piece's name stays as orders spell it.
fn refusal_words(game: &grognard_kernel::game::Game, message: &str) -> String {
    crate::words::log_line(game.rules(), message)
}

/// One roll explained: the dice and faces, each modifier with the input it read and where
/// that input comes from, the score and the outcome.
#[must_use]
pub fn explain_roll(ruleset: &Ruleset, r: &RollRecord) -> Vec<String> {
    // The ruleset's names as a player reads them (`fire small`, `the acting piece's
    // staff`); a piece's name, which orders spell, stays as it is.
    let rules = &ruleset.rules;
    let said = |t: &str| crate::words::log_line(rules, t);
    let mut lines = vec![format!(
        "{} — {}",
        crate::words::spaced(&r.chart),
        said(&r.purpose)
    )];
    // A one-faced die (black-powder's `lookup`) is no roll: "lookup shows - (total 0)"
    // read as a throw of nothing.
    let rolled: Vec<_> = r
        .dice
        .iter()
        .filter(|d| !grognard_play::text::fixed_die(rules, &d.die))
        .collect();
    let dice: Vec<String> = rolled
        .iter()
        .map(|d| match &d.rerolled_from {
            Some(first) => format!(
                "{} shows {} (re-rolled from {first})",
                grognard_play::text::die_name(&d.die),
                d.face
            ),
            None => format!("{} shows {}", grognard_play::text::die_name(&d.die), d.face),
        })
        .collect();
    if dice.is_empty() {
        lines.push("  no dice needed".into());
    } else {
        let total: i32 = rolled.iter().map(|d| d.value).sum();
        lines.push(format!("  dice: {} (total {total})", dice.join(", ")));
    }
    let chart = ruleset.spec.charts.get(&r.chart);
    for m in &r.modifiers {
        let input = chart.and_then(|c| c.modifiers.iter().find(|x| x.name == m.name));
        let source = input.and_then(|x| {
            let name = &x.input.value;
            let value = r.inputs.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
            let from = chart
                .and_then(|c| c.inputs.get(name))
                .and_then(|i| i.from.as_ref())
                .map_or_else(
                    || "set by the ruleset's scripts or its default".to_owned(),
                    |f| format!("from {}", crate::words::source_words(&f.value)),
                );
            value.map(|v| format!("{} is {v}, {from}", crate::words::spaced(name)))
        });
        let what = crate::words::spaced(&m.name);
        // One level of brackets: the source after a dash, not "(trait = 5, from the
        // ruleset's scripts (or its default))"; a minus sign as the Charts tab writes it.
        let value = crate::words::signed(m.value);
        match source {
            Some(s) => lines.push(format!("  {value} {what} — {s}")),
            None => lines.push(format!("  {value} {what}")),
        }
    }
    // Multiplying modifiers, in the order applied, each with the score it left.
    for step in &r.scaled {
        let rounded = step
            .rounded
            .map_or_else(String::new, |x| format!(", {}", x.words()));
        lines.push(format!(
            "  {} ({}){rounded}: {}",
            step.factor.verb(),
            step.name,
            step.value
        ));
    }
    match &r.band {
        Some(band) => lines.push(format!(
            "  band {} ({band}) → {}",
            r.score,
            crate::words::spaced(&r.outcome)
        )),
        None => lines.push(format!(
            "  score {} → {}",
            r.score,
            crate::words::spaced(&r.outcome)
        )),
    }
    // Amounts the outcome worked out from the roll (`amount: score`).
    for a in &r.amounts {
        let how = if a.steps.is_empty() {
            String::new()
        } else {
            format!(" ({})", a.steps.join(", "))
        };
        lines.push(format!(
            "  {}{how}",
            crate::words::amount(i64::from(a.value), &a.counter)
        ));
    }
    lines
}

/// Every roll in `events` (a game's log, or the log as one side saw it), explained,
/// oldest first.
#[must_use]
pub fn dice_log(ruleset: &Ruleset, events: &[Event]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for e in events {
        match e {
            Event::Acted { roll: Some(r), .. } | Event::Rolled { roll: r } => {
                out.push(explain_roll(ruleset, r));
            }
            Event::Initiative { turn, rolls, order } => {
                let mut lines = vec![format!("initiative, turn {turn}")];
                for (side, dice, total) in rolls {
                    let faces: Vec<String> = dice
                        .iter()
                        .map(|d| {
                            format!("{} shows {}", grognard_play::text::die_name(&d.die), d.face)
                        })
                        .collect();
                    lines.push(format!("  {side}: {} = {total}", faces.join(", ")));
                }
                lines.push(format!("  order: {}", order.join(", ")));
                out.push(lines);
            }
            _ => {}
        }
    }
    out
}

/// What the dice log says above its rolls, from what `log` (the rolls shown) holds: when it
/// is empty, that no dice were rolled yet — for a side, that none it may see were — and,
/// for a side, which of the ruleset's charts the referee rolls in secret (those charts are
/// no secret themselves: the ruleset names them), so a result with no dice is explained.
#[must_use]
pub fn dice_note(ruleset: &Ruleset, side: bool, log: &[Vec<String>]) -> Vec<String> {
    let mut out = Vec::new();
    if log.is_empty() {
        out.push(if side {
            "No dice you may see yet.".to_owned()
        } else {
            "No dice rolled yet.".to_owned()
        });
    }
    let secret: Vec<String> = ruleset
        .rules
        .charts
        .iter()
        .filter(|c| c.secret)
        .map(|c| crate::words::spaced(&c.name))
        .collect();
    if side && !secret.is_empty() {
        out.push(format!(
            "The referee rolls {} in secret: no side sees those dice, only what comes of them.",
            secret.join(", ")
        ));
    }
    out
}
