//! Decisions a variant makes that its data cannot express. The kernel asks; the Lua crate
//! answers from a ruleset's scripts; [`NoHooks`] answers with the data's own decision.
//!
//! Hooks never change the game themselves: they return [`HookCommand`]s that the kernel
//! validates and logs like any other effect, and they roll dice only through
//! [`HookDice`], which uses the game's seeded RNG and logs every roll. A failing hook
//! refuses the action that asked, and nothing changes.

use crate::action::RollRecord;
use crate::chart::Resolution;
use crate::cost::Cost;
use crate::dice::{DiceExpr, DieRoll, GameRng};
use crate::geometry::Cell;
use crate::ids::{ActionId, ChartId, CounterId, FlagId, ModeId, PieceId};
use crate::rules::Rules;
use crate::state::{World, roll_record};

/// Why a hook could not answer. The action that asked is refused and nothing changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookFailure {
    /// What went wrong, naming the script and line where there is one.
    pub message: String,
}

/// A hook that could not answer at all, as opposed to one that answered "no": it used up
/// its instruction budget, time or memory, or returned what no hook may return. A refusal
/// (a check's reason, a script's `error(...)`) is the ruleset's answer and no fault. The
/// kernel asks for faults with [`Hooks::take_fault`], so that a caller listing orders can
/// tell a side "a hook is broken" instead of silently listing fewer orders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookFault {
    /// Which hook, naming no piece (`hook moved (rules.moved)`), so it may be shown to
    /// every seat.
    pub hook: String,
    /// What went wrong, in general words (`instruction budget exhausted`).
    pub what: String,
    /// The whole message: the script's `file:line`, what the hook was asked about.
    pub message: String,
}

impl core::fmt::Display for HookFault {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message)
    }
}

/// What a `result` hook decided: the game ends now with this winner (`None`: a draw) and
/// this explanation; the points stay those the victory conditions count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookVerdict {
    /// The side that won, or `None` for a draw.
    pub winner: Option<crate::ids::SideId>,
    /// Why, in words (shown with the result).
    pub why: String,
}

impl core::fmt::Display for HookFailure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A change a hook asks for. The kernel validates and logs it like any other effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HookCommand {
    /// Add to a piece's counter.
    AddCounter {
        /// Whose.
        piece: PieceId,
        /// Which.
        counter: CounterId,
        /// How much.
        amount: i32,
    },
    /// Set or clear a piece's flag.
    SetFlag {
        /// Whose.
        piece: PieceId,
        /// Which.
        flag: FlagId,
        /// On or off.
        on: bool,
    },
    /// Change a piece's mode (ignored, with a note, if its type cannot take it).
    SetMode {
        /// Whose.
        piece: PieceId,
        /// The new mode.
        mode: ModeId,
    },
    /// Take a piece off the board.
    Remove {
        /// Which.
        piece: PieceId,
        /// Why, for the log.
        reason: String,
    },
    /// Write a note in the log.
    Note(String),
    /// Write a note that names pieces: `{1}`, `{2}`… in `template` stand for `pieces`, each
    /// side reading its own name for them (an enemy's handle where it has not identified the
    /// piece), the referee their names.
    NoteNaming {
        /// The words, with `{N}` for the Nth piece.
        template: String,
        /// The pieces named, in the order of their numbers.
        pieces: Vec<PieceId>,
        /// Every side reads it (an announcement), not only the side whose phase or order
        /// it is.
        to_all: bool,
    },
    /// Tell every side something (a note that hidden information does not filter: the
    /// block rules' "the opponent is told").
    Announce(String),
    /// Put a piece (and what is attached to it) in another cell of a grid without a move:
    /// a rout, a retreat, an advance after combat. Refused if the cell is off the board,
    /// held by the enemy or over a stacking limit.
    Place {
        /// Which.
        piece: PieceId,
        /// Where to.
        cell: Cell,
        /// Why, for the log.
        reason: String,
    },
    /// Put a piece (and what is attached to it) at a point of an open table without a
    /// move, turned to `facing` if given: a retire, a victory move, a drift. Checked like
    /// an open-table move's end point: on the table, in terrain the piece may enter, and
    /// not within the `open_table` keep-apart distance of an enemy it was not already
    /// that near.
    PlaceAt {
        /// Which.
        piece: PieceId,
        /// Where to.
        at: crate::geometry::open::Point,
        /// The new facing, if it turns.
        facing: Option<crate::geometry::open::Angle>,
        /// Why, for the log.
        reason: String,
    },
    /// Put a piece in contact with another on the open table, as an action with
    /// `contact: true` puts its actor against its target (docs: "Contact"): a unit turning
    /// to face a charge. Refused where it could not stand.
    Contact {
        /// Which.
        piece: PieceId,
        /// The piece it ends against.
        with: PieceId,
    },
    /// Turn a piece to face another grid direction.
    Face {
        /// Which.
        piece: PieceId,
        /// The new facing.
        facing: crate::geometry::Facing,
    },
    /// Attach a piece to another of its side (it joins the host's cell), or detach it.
    Attach {
        /// Which.
        piece: PieceId,
        /// The host, or `None` to detach.
        to: Option<PieceId>,
    },
    /// Draw a feature on the boundary between two neighbouring cells of a grid for the rest
    /// of the game (a bridge built, a ford found). It takes effect once the order that
    /// asked for it is done.
    AddFeature {
        /// The feature.
        feature: crate::ids::FeatureId,
        /// One cell.
        a: Cell,
        /// Its neighbour.
        b: Cell,
        /// Why, for the log.
        reason: String,
    },
}

/// The dice a hook may roll: the game's own RNG, with every roll recorded for the log.
pub struct HookDice<'a> {
    rng: &'a mut GameRng,
    rules: &'a Rules,
    rolls: Vec<RollRecord>,
    action_faces: Vec<String>,
    action_intent: Vec<String>,
    /// Whether a script has read [`Self::action_intent`] (see [`Hooks::check_read_intent`]).
    intent_read: core::cell::Cell<bool>,
    action_inputs: Vec<(String, i32)>,
    /// The acting piece and its target, while an action's script rolls.
    action_pieces: Option<(PieceId, Option<PieceId>)>,
    /// How many changes the hook had asked for so far (its host says, [`Self::set_queued`]),
    /// and that number at each roll: a game hook's announcements naming pieces are logged
    /// where they were written among its rolls.
    queued: usize,
    queued_at: Vec<usize>,
}

impl<'a> HookDice<'a> {
    /// Dice over the game's RNG.
    pub fn new(rng: &'a mut GameRng, rules: &'a Rules) -> Self {
        Self {
            rng,
            rules,
            rolls: Vec::new(),
            action_faces: Vec::new(),
            action_intent: Vec::new(),
            intent_read: core::cell::Cell::new(false),
            action_inputs: Vec::new(),
            action_pieces: None,
            queued: 0,
            queued_at: Vec::new(),
        }
    }

    /// The host tells how many changes the hook has asked for so far, so that the rolls
    /// made from now on are placed after them ([`Self::into_rolls_placed`]).
    pub fn set_queued(&mut self, n: usize) {
        self.queued = n;
    }

    /// Records the face labels of the chart roll of the action a script resolves, so the
    /// script can read which faces came up (a Code 'n Color cube's red star).
    pub fn set_action_faces(&mut self, faces: Vec<String>) {
        self.action_faces = faces;
    }

    /// The face labels of the action's own chart roll (empty outside action scripts and
    /// for actions without a chart).
    #[must_use]
    pub fn action_faces(&self) -> &[String] {
        &self.action_faces
    }

    /// Records what the action a script resolves is for (its `intent`).
    pub fn set_action_intent(&mut self, intent: Vec<String>) {
        self.action_intent = intent;
    }

    /// What the action being resolved says it is for (empty outside action scripts and
    /// for actions given without an intent).
    #[must_use]
    pub fn action_intent(&self) -> &[String] {
        self.intent_read.set(true);
        &self.action_intent
    }

    /// True once [`Self::action_intent`] has been read: a check that never read it gave
    /// an answer that holds for every intent ([`Hooks::check_read_intent`]).
    #[must_use]
    pub fn intent_read(&self) -> bool {
        self.intent_read.get()
    }

    /// Records the inputs the action's own chart roll used, so a script can roll the same
    /// chart again with them (a re-roll of the whole result).
    pub fn set_action_inputs(&mut self, inputs: Vec<(String, i32)>) {
        self.action_inputs = inputs;
    }

    /// Records the piece whose action a script resolves and its target: every roll the
    /// script makes is the actor's, made against the target (whose side sees it).
    pub fn set_action_pieces(&mut self, by: PieceId, against: Option<PieceId>) {
        self.action_pieces = Some((by, against));
    }

    /// Resolves a chart as [`Self::resolve`] does, its roll made by `by` against `against`
    /// (a hook's roll between two pieces outside an action — a melee fought on as a phase
    /// ends): it is marked with them, as an action's rolls are, so the sides that read it
    /// are theirs, and each reads it named and itemized as it knows the two.
    pub fn resolve_between(
        &mut self,
        chart: ChartId,
        set: &[(usize, i32)],
        purpose: &str,
        by: PieceId,
        against: Option<PieceId>,
    ) -> Option<Resolution> {
        let saved = self.action_pieces.replace((by, against));
        let resolution = self.resolve(chart, set, purpose);
        self.action_pieces = saved;
        resolution
    }

    /// Marks a roll with the action's pieces, if a script of an action made it.
    fn mark(&self, mut record: RollRecord) -> RollRecord {
        if let Some((by, against)) = self.action_pieces {
            record.by = Some(by);
            record.against = against;
        }
        record
    }

    /// The inputs of the action's own chart roll, by name (empty outside action scripts
    /// and for actions without a chart).
    #[must_use]
    pub fn action_inputs(&self) -> &[(String, i32)] {
        &self.action_inputs
    }

    /// Rolls `expr` (no re-rolls) and logs it under `purpose`; returns the dice and total.
    pub fn roll(&mut self, expr: &DiceExpr, purpose: &str) -> (Vec<DieRoll>, i32) {
        let mut rolled = Vec::new();
        for term in &expr.terms {
            let Some(def) = self.rules.dice.get(term.die.index()) else {
                continue;
            };
            for _ in 0..term.count {
                rolled.push(self.rng.roll(term.die, def, &[]));
            }
        }
        let total = rolled.iter().map(|d| d.value).sum();
        let resolution = Resolution {
            dice: rolled.clone(),
            modifiers: Vec::new(),
            modifier_total: 0,
            score: total,
            band: None,
            outcome: 0,
        };
        let mut record = roll_record(self.rules, ChartId(u16::MAX), purpose, &[], &resolution);
        record.chart = "dice".to_owned();
        record.outcome = total.to_string();
        let record = self.mark(record);
        self.rolls.push(record);
        self.queued_at.push(self.queued);
        (rolled, total)
    }

    /// Resolves a chart with explicit input values (by input index) and logs it.
    pub fn resolve(
        &mut self,
        chart: ChartId,
        set: &[(usize, i32)],
        purpose: &str,
    ) -> Option<Resolution> {
        let def = self.rules.chart(chart)?;
        let inputs = def.input_values(set);
        let resolution = def.resolve(&self.rules.dice, &inputs, self.rng);
        let record = self.mark(roll_record(
            self.rules,
            chart,
            purpose,
            &inputs,
            &resolution,
        ));
        self.rolls.push(record);
        self.queued_at.push(self.queued);
        Some(resolution)
    }

    /// The rules the dice belong to.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        self.rules
    }

    /// The rolls made so far, in order.
    #[must_use]
    pub fn into_rolls(self) -> Vec<RollRecord> {
        self.rolls
    }

    /// The rolls made, in order, each with the number of changes the hook had asked for
    /// before it.
    #[must_use]
    pub fn into_rolls_placed(self) -> Vec<(usize, RollRecord)> {
        self.queued_at.into_iter().zip(self.rolls).collect()
    }
}

/// Declares [`HookPoint`] from one list of variants and names: the enum, its
/// [`HookPoint::ALL`] (every variant, in declaration order, so `ALL[i].index() == i`) and
/// [`HookPoint::name`]. A point added to the list is in all three; none can be left out of
/// one by hand.
macro_rules! hook_points {
    ($($(#[$doc:meta])* $variant:ident => $name:literal,)*) => {
        /// A point of the game at which a ruleset may bind a hook (`hooks:` in the
        /// ruleset), for [`Hooks::is_bound`] and for an implementation's table of
        /// bindings.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum HookPoint {
            $($(#[$doc])* $variant,)*
        }

        impl HookPoint {
            /// Every point, in the order of [`HookPoint::index`].
            pub const ALL: [Self; [$($name),*].len()] = [$(Self::$variant),*];

            /// The name a ruleset binds it by (`phase_begin`).
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $name,)*
                }
            }
        }
    };
}

hook_points! {
    /// [`Hooks::move_cost`].
    MoveCost => "move_cost",
    /// [`Hooks::stops`] (and [`Hooks::stop_reason`]).
    Stops => "stops",
    /// [`Hooks::phase_begin`].
    PhaseBegin => "phase_begin",
    /// [`Hooks::phase_end`].
    PhaseEnd => "phase_end",
    /// [`Hooks::moved`] and [`Hooks::moved_on_table`]: one binding for both boards.
    Moved => "moved",
    /// [`Hooks::faced`].
    Faced => "faced",
    /// [`Hooks::may_face`].
    MayFace => "may_face",
    /// [`Hooks::may_move_on_table`] and [`Hooks::may_move_on_grid`].
    MayMove => "may_move",
    /// The batch form of `may_move` ([`Hooks::may_move_on_table_all`]): one call for all
    /// of a piece's candidate open-table moves. An implementation that binds it answers
    /// [`Hooks::is_bound`]`(MayMove)` true too, since it decides the same moves.
    MayMoveAll => "may_move_all",
    /// [`Hooks::mode_changed`].
    ModeChanged => "mode_changed",
    /// [`Hooks::result`].
    Result => "result",
    /// [`Hooks::evaluate`].
    Evaluate => "evaluate",
}

impl HookPoint {
    /// The point a ruleset's name stands for.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Its position in [`HookPoint::ALL`], to index a table of bindings.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The questions the kernel asks a ruleset's hooks. Every method has the data-only answer
/// as its default, so an implementation overrides only what its ruleset binds.
pub trait Hooks {
    /// The cost for `piece` to step from `from` into `to`, given what the data says
    /// (`data`: `None` = impassable). Called on hot paths (reach): keep it cheap.
    ///
    /// # Errors
    /// A failure refuses the move or the reach query.
    fn move_cost(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        from: Cell,
        to: Cell,
        data: Option<Cost>,
    ) -> Result<Option<Cost>, HookFailure> {
        let _ = (world, piece, from, to);
        Ok(data)
    }

    /// Why `piece` may not step from `from` into `to`, in the rule's words, when
    /// [`Hooks::move_cost`] refused the step and gave a reason (a Lua `move_cost` hook may
    /// return a string instead of `nil`); `None` for the kernel's general wording. Asked only
    /// for the messages of moves, never by reach queries.
    fn move_ban_reason(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        from: Cell,
        to: Cell,
        data: Option<Cost>,
    ) -> Option<String> {
        let _ = (world, piece, from, to, data);
        None
    }

    /// True when [`Self::move_cost`] is a function of the mover's type and mode, the
    /// terrain entered, whether the step is a square grid's diagonal, the data cost and the
    /// game's options and settings — nothing else in the game. A reach query may then ask
    /// it once per terrain and kind of step for its mover instead of on every step. The
    /// default is `false`: an implementation that overrides `move_cost` must say so itself.
    /// With [`Self::move_cost_reads_from`] the terrain left counts among those values too.
    fn move_cost_is_pure(&self) -> bool {
        false
    }

    /// True when [`Self::move_cost`]'s answer may depend on the terrain of the cell left
    /// as well as the one entered (a class that may enter woods from open ground but not
    /// go from woods to woods). A reach query then keeps a pure hook's answers per pair of
    /// terrains and takes the general search. The default is `false`.
    fn move_cost_reads_from(&self) -> bool {
        false
    }

    /// True when `piece` must end its move on entering `to` (a special movement stop).
    /// Called on hot paths too.
    ///
    /// # Errors
    /// A failure refuses the move or the reach query.
    fn stops(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        from: Cell,
        to: Cell,
    ) -> Result<bool, HookFailure> {
        let _ = (world, piece, from, to);
        Ok(false)
    }

    /// Why `piece` must end its move on entering `to`, in the rule's words, when
    /// [`Hooks::stops`] said it must and the hook gave a reason (a Lua `stops` hook may return
    /// a string instead of `true`); `None` for the kernel's general wording. Asked only for
    /// messages, never by reach queries.
    fn stop_reason(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        from: Cell,
        to: Cell,
    ) -> Option<String> {
        let _ = (world, piece, from, to);
        None
    }

    /// Called as each phase begins; returns changes to make. May roll dice.
    ///
    /// # Errors
    /// A failure refuses the action that ended the previous phase.
    fn phase_begin(
        &mut self,
        world: &World<'_>,
        phase: &str,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let _ = (world, phase, dice);
        Ok(Vec::new())
    }

    /// Called as a phase's end is ordered, before the next phase begins (its changes and
    /// rolls are logged in the ending phase); returns changes to make. May roll dice.
    ///
    /// # Errors
    /// A failure refuses the action that ended the phase.
    fn phase_end(
        &mut self,
        world: &World<'_>,
        phase: &str,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let _ = (world, phase, dice);
        Ok(Vec::new())
    }

    /// Called after a piece has moved on a grid (`path` runs from its start cell to its
    /// end cell, `facing` is how it faced before the move); returns changes to make (a
    /// disorder hit for crossing a wall, say). May roll dice.
    ///
    /// # Errors
    /// A failure refuses the move.
    fn moved(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        path: &[Cell],
        facing: crate::geometry::Facing,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let _ = (world, piece, path, facing, dice);
        Ok(Vec::new())
    }

    /// Called after a piece has moved on an open table (from `from`, where it faced
    /// `facing`, to where it stands now); returns changes to make. A failure refuses the
    /// move, so a ruleset can forbid moves its data cannot describe (toward an enemy the
    /// piece does not face, say). May roll dice.
    ///
    /// # Errors
    /// A failure refuses the move.
    fn moved_on_table(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        from: crate::geometry::open::Point,
        facing: crate::geometry::open::Angle,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let _ = (world, piece, from, facing, dice);
        Ok(Vec::new())
    }

    /// Called after a `face` order has turned a piece (`before` is its old facing); returns
    /// changes to make. May roll dice.
    ///
    /// # Errors
    /// A failure refuses the facing change.
    fn faced(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        before: crate::geometry::Facing,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let _ = (world, piece, before, dice);
        Ok(Vec::new())
    }

    /// Called after a `mode` order has changed a piece's mode (`before` is its old mode,
    /// the piece already stands in the new one); returns changes to make. A failure
    /// refuses the change, so a ruleset can hold a change to what the piece's order said
    /// (guns unlimbered without an order to unlimber, say). Mode changes made by charts
    /// and scripts do not call it. May roll dice.
    ///
    /// # Errors
    /// A failure refuses the mode change.
    fn mode_changed(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        before: ModeId,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let _ = (world, piece, before, dice);
        Ok(Vec::new())
    }

    /// Whether `piece` may turn to `facing` now, asked by a ruleset that binds `may_face`
    /// beside its `faced` hook: it reads the game as it stands before the turn (the
    /// kernel's own checks of the turn have passed), changes nothing and rolls no dice. A
    /// failure refuses the turn, which `apply` asks before the `faced` hook, and the
    /// legal-order generator asks instead of trying each facing on a copy: the `faced`
    /// hook must then refuse nothing that `may_face` allows (the soundness property tests
    /// and `grognard fuzz` check it).
    ///
    /// # Errors
    /// The reason the turn is refused.
    fn may_face(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        facing: crate::geometry::Facing,
    ) -> Result<(), HookFailure> {
        let _ = (world, piece, facing);
        Ok(())
    }

    /// False when [`Hooks::may_face`] cannot see the facing asked about (a Lua
    /// `may_face(game, unit)` that declares no `facing` parameter), so its answer holds for
    /// every facing of the piece and the legal-order generator asks it once per piece. The
    /// default is the safe answer.
    fn may_face_reads_facing(&self) -> bool {
        true
    }

    /// Whether `piece` may make the open-table move to `to`, ending facing `facing`, asked
    /// by a ruleset that binds `may_move` beside its `moved` hook: it reads the game as it
    /// stands before the move (the kernel's own checks of the move have passed), changes
    /// nothing and rolls no dice, so a script judges the end point with
    /// `game:distance_from`, `game:arc_from` and `game:sight_from`. A failure refuses the
    /// move, which `apply` asks before the `moved` hook, and the legal-order generator
    /// asks instead of trying each candidate move on a copy: the `moved` hook must then
    /// refuse nothing that `may_move` allows (the soundness property tests and `grognard
    /// fuzz` check it). Grid moves ask [`Hooks::may_move_on_grid`].
    ///
    /// # Errors
    /// The reason the move is refused.
    fn may_move_on_table(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        to: crate::geometry::open::Point,
        facing: crate::geometry::open::Angle,
    ) -> Result<(), HookFailure> {
        let _ = (world, piece, to, facing);
        Ok(())
    }

    /// The same check for a grid move along `path` (its cells from the start, as the
    /// `moved` hook's), `facing` the piece's facing before the move: asked by `apply` once
    /// the move's own checks have passed, on the game as it stood before it, and by the
    /// legal-order generator for the path reach gives each cell it lists, so a rule that
    /// reach cannot know (where a move may end) refuses the same moves in both.
    ///
    /// # Errors
    /// The reason the move is refused.
    fn may_move_on_grid(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        path: &[crate::geometry::Cell],
        facing: crate::geometry::Facing,
    ) -> Result<(), HookFailure> {
        let _ = (world, piece, path, facing);
        Ok(())
    }

    /// Whether `actor` may take the ruleset action `action` (at `target`, for `intent`)
    /// now, asked for an action that declares a `check:` beside its `script:`. It reads
    /// the game as it stands before anything of the action happens (the action's data
    /// checks have passed: type, flags, range, arcs, sight), changes nothing and rolls no
    /// dice. A failure refuses the action: `apply` asks it before the action's chart and
    /// script, and the legal-order generator lists the action on its word alone, so the
    /// script must refuse nothing its check allows (the soundness property tests and
    /// `grognard fuzz` check it).
    ///
    /// # Errors
    /// The reason the action is refused.
    fn action_check(
        &mut self,
        world: &World<'_>,
        action: ActionId,
        actor: PieceId,
        target: Option<PieceId>,
        intent: &[String],
    ) -> Result<(), HookFailure> {
        let _ = (world, action, actor, target, intent);
        Ok(())
    }

    /// False when the last [`Hooks::action_check`] call did not read the intent it was
    /// asked with (a Lua check that never called `game:intent()`): its answer, for that
    /// actor and target on the same game, is then the same whatever the intent, and the
    /// legal-order generator asks the other intents nothing. The default is the safe
    /// answer.
    fn check_read_intent(&self) -> bool {
        true
    }

    /// False when the ruleset promises that its `phase_begin` hook refuses nothing
    /// (`sequence.phase_begin_refuses: false`): ending a phase is then accepted from a side
    /// that may act, and the legal-order generator lists `end_phase` without running the
    /// next phase on a copy. A refusal there breaks the promise, which the soundness
    /// property tests and `grognard fuzz` report (a listed order refused). The default is
    /// the safe answer.
    fn phase_begin_refuses(&self) -> bool {
        true
    }

    /// True when the ruleset answers `action`'s check for many targets in one call
    /// ([`Hooks::action_check_all`]: its `check_all:`), so the legal-order generator asks
    /// it once per actor and intent instead of once per target. The default is `false`.
    fn action_check_batched(&self, action: ActionId) -> bool {
        let _ = action;
        false
    }

    /// [`Hooks::action_check`] for `actor` at each of `targets` at once, for one `intent`:
    /// the answers in the same order, each the one [`Hooks::action_check`] gives for that
    /// target on the same game. Asked by the legal-order generator where
    /// [`Hooks::action_check_batched`] says so, with the targets that passed the action's
    /// data checks; afterwards [`Hooks::check_read_intent`] says whether the call read the
    /// intent (for any target). The default asks the check once per target.
    fn action_check_all(
        &mut self,
        world: &World<'_>,
        action: ActionId,
        actor: PieceId,
        targets: &[PieceId],
        intent: &[String],
    ) -> Vec<Result<(), HookFailure>> {
        targets
            .iter()
            .map(|&t| self.action_check(world, action, actor, Some(t), intent))
            .collect()
    }

    /// [`Hooks::may_move_on_table`] for many open-table moves of one piece at once, each an
    /// end point and the facing the move would end with, asked by the legal-order generator
    /// for a piece's candidate moves that passed their own checks: the answers in the same
    /// order, each the one [`Hooks::may_move_on_table`] gives for that move on the same game.
    /// The default asks it once per move; a ruleset that binds the batch form
    /// (`may_move_all`) answers them all in one call.
    fn may_move_on_table_all(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        moves: &[(crate::geometry::open::Point, crate::geometry::open::Angle)],
    ) -> Vec<Result<(), HookFailure>> {
        moves
            .iter()
            .map(|&(to, facing)| self.may_move_on_table(world, piece, to, facing))
            .collect()
    }

    /// A legal-order listing begins on `state` (the game as the listing side knows it).
    /// Until the matching [`Hooks::listing_ends`], `state` does not change: the listing
    /// only reads it (orders are tried on copies, which are other states), so every check
    /// ([`Hooks::may_move_on_table`], [`Hooks::action_check`], [`Hooks::may_face`]) asked
    /// with a world whose `state` is this one reads the same game, and what it read once
    /// may be kept for the next. Listings do not nest. The default keeps nothing.
    fn listing_begins(&mut self, state: &crate::state::State) {
        let _ = state;
    }

    /// The listing begun by [`Hooks::listing_begins`] is over: its state may change from
    /// now on, and nothing read of it may be kept.
    fn listing_ends(&mut self) {}

    /// Whether the ruleset binds a hook at `point`. `false` is a promise that the point
    /// gives the data's answer, which lets the kernel skip work:
    ///
    /// - `faced`: a facing change is then accepted or refused alike whatever the facing,
    ///   so the legal-order generator tries one facing of a piece for all of them;
    /// - `phase_begin`: ending a phase is then always accepted from a side that may act,
    ///   and the generator lists `end_phase` without trying it;
    /// - `stops`: a reach query need not ask [`Hooks::stops`] at every step;
    /// - `moved`: [`Hooks::moved_on_table`] then never refuses nor changes anything, so an
    ///   open-table move that passes its own checks is listed without a trial.
    ///
    /// `may_face` and `may_move` read the other way: `true` is a promise that
    /// [`Hooks::may_face`] decides what the `faced` hook would refuse (and
    /// [`Hooks::may_move_on_table`] what the `moved` hook would), so the kernel asks it
    /// (see there). `evaluate` is
    /// asked only where bound, since building the view it reads costs a search time.
    ///
    /// The default is the safe answer: `true` at every point but `may_face`, `may_move`,
    /// `may_move_all` and `evaluate`.
    fn is_bound(&self, point: HookPoint) -> bool {
        !matches!(
            point,
            HookPoint::MayFace | HookPoint::MayMove | HookPoint::MayMoveAll | HookPoint::Evaluate
        )
    }

    /// The value of a position for the side whose `view` it is, asked by a search policy
    /// at the end of each imagined line of play that has not ended the game: a number from
    /// −1 (as bad as a loss) to 1 (as good as a win); `score` is the search's own value of
    /// the same position on that scale, which the answer may refine or replace. `None`
    /// keeps `score`. It reads the view alone, so it cannot learn what the side does not
    /// know. Asked only when [`Hooks::is_bound`] says `evaluate` is bound.
    ///
    /// # Errors
    /// The hook failed or gave what is not a number; the search stops with that error.
    fn evaluate(
        &mut self,
        view: &crate::view::View,
        score: f64,
    ) -> Result<Option<f64>, HookFailure> {
        let _ = (view, score);
        Ok(None)
    }

    /// Asked after every order while a game goes on (`ended` false) and once as it ends
    /// (`ended` true: its last turn is over, or a victory condition of the data ended it),
    /// with the points its victory conditions count per side. `Some` ends the game now with
    /// that verdict (it overrides the data's result); `None` lets the game go on, or keeps
    /// the data's result. It reads the game and changes nothing. `points` counts the points
    /// only when asked, so that a game without the hook does not pay for them every order.
    ///
    /// # Errors
    /// A failure refuses the order that led to the question.
    fn result(
        &mut self,
        world: &World<'_>,
        ended: bool,
        points: &dyn Fn() -> Vec<i32>,
    ) -> Result<Option<HookVerdict>, HookFailure> {
        let _ = (world, ended, points);
        Ok(None)
    }

    /// The first fault (see [`HookFault`]) since the last time it was taken, which clears
    /// it. A fault also fails the call that met it (refusing what asked), like any failure;
    /// this tells the caller that the failure was no answer. The default records none.
    fn take_fault(&mut self) -> Option<HookFault> {
        None
    }

    /// True while a fault is recorded and not yet taken: the legal-order generator stops
    /// trying orders then, since every later trial would likely meet it again.
    fn has_fault(&self) -> bool {
        false
    }

    /// Resolves a scripted ruleset action after its checks (and its chart, if it has one:
    /// `outcome` is that chart's outcome name). May roll dice.
    ///
    /// # Errors
    /// A failure refuses the action.
    fn action(
        &mut self,
        world: &World<'_>,
        action: ActionId,
        actor: PieceId,
        target: Option<PieceId>,
        outcome: Option<&str>,
        dice: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let _ = (world, action, actor, target, outcome, dice);
        Ok(Vec::new())
    }
}

/// Hooks that only ever give the data's answer.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHooks;

impl Hooks for NoHooks {
    /// The data cost unchanged: pure.
    fn move_cost_is_pure(&self) -> bool {
        true
    }

    /// No hook anywhere.
    fn is_bound(&self, _: HookPoint) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::HookPoint;

    /// `ALL` holds every point once, at its own index (a table of bindings sized by
    /// `ALL.len()` is indexed by `index()`), and each name leads back to its point.
    #[test]
    fn every_hook_point_is_in_all_at_its_index_and_named_once() {
        for (i, point) in HookPoint::ALL.into_iter().enumerate() {
            assert_eq!(point.index(), i, "{point:?}");
            assert_eq!(HookPoint::from_name(point.name()), Some(point));
        }
        let mut names: Vec<&str> = HookPoint::ALL.iter().map(|p| p.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), HookPoint::ALL.len(), "two points share a name");
    }
}
