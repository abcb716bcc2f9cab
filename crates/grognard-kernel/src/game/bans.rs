//! Why an order is refused, kept as data until its words are needed — the pattern of
//! [`StepBan`](crate::reach::StepBan) for whole orders. The checks say *which* rule an order
//! breaks: a [`MoveBan`] for a move, a facing change, a mode change or a redeployment
//! (`moves.rs`) and for a save, a spread or a gather (`march.rs`; a piece held in place is
//! a [`HoldWhy`]), a [`PhaseBan`] for the phase's gate (`mod.rs`, and the set-up's in
//! `deploy.rs`), an [`ActBan`] for an `act` order's checks (`actions.rs`; the type and its
//! words are in `bans/act.rs`, for length), a [`ContactBan`] for an action's contact
//! (`contact.rs`), a [`SetupBan`] for a deployment (`deploy.rs`), [`Lacks`] for what the
//! ruleset has not at all (`march.rs`), a [`HookBan`] for a hook's failure or a change it
//! asks for that cannot be (`hook_commands.rs`, `placement.rs`, a negative step price in
//! `steps.rs`; in `bans/hook.rs`, worded by [`HookBan::refuse`]).
//! [`Game::phase_keeps_from_moving`] words the gate's answer for a move as a note, not a
//! refusal (the CLI's `reach`).
//! [`Game::refuse_move`], [`Game::refuse_in_phase`], [`Game::refuse_act`],
//! [`Game::refuse_contact`] and [`Game::refuse_setup`] are the one place each turns a ban
//! into a [`Refusal`]: its kind and the sentence a player reads. Keeping the prose here
//! leaves each check one line per rule, lets the legal listing ask a check without wording
//! what it throws away, and keeps the wording of a concern's refusals in one match. (A
//! step's refusals and stops beyond the data's `StepBan` are worded in `step_words.rs`.)

use crate::action::{Refusal, RefusalKind};
use crate::cost::Cost;
use crate::geometry::Cell;
use crate::geometry::open::{Angle, Point};
use crate::ids::{CounterId, FeatureId, FlagId, ModeId, PieceId, SideId, TerrainId};
use crate::piece::Piece;
use crate::reach::StepBan;
use crate::rules::{Allowed, PhaseDef};
use crate::state::State;

use super::Game;

mod act;
mod hook;
pub(super) use act::ActBan;
pub(super) use hook::{HookBan, hook_failed};

/// The words for a piece type the rules do not know (a corrupt piece), wherever it is met.
pub(super) const UNKNOWN_TYPE: &str = "unknown piece type";

/// The words for a board without a grid, given a grid order: a move's ban
/// ([`MoveBan::NoGrid`]) and a step's ([`StepBan::NoGrid`]) say it alike.
pub(super) const NO_GRID: &str = "this board has no grid";

/// The words for a cell an enemy holds, by a move's ban or a step's check.
pub(super) fn enemy_holds(at: impl core::fmt::Display) -> String {
    format!("{at} is held by the enemy")
}

/// The words for a piece an order names that is not the ordering side's, by every check
/// that asks whose a piece is (`piece`: its name, or `piece #N` as the side knows it).
pub(super) fn not_yours(piece: impl core::fmt::Display) -> String {
    format!("{piece} is not one of your pieces")
}

/// What an order asks for that the ruleset does not have at all, so no phase would allow
/// it: always a [`RefusalKind::NotInRules`] refusal (`march.rs`'s save and spread).
#[derive(Clone, Copy, Debug)]
pub(super) enum Lacks {
    /// Saved movement points, in a ruleset without `saving`.
    Saving,
    /// Commands spread over several cells, in a ruleset without `spread`.
    Spread,
}

impl Lacks {
    /// The refusal: its kind and its words.
    pub(super) fn refuse(self) -> Refusal {
        let words = match self {
            Self::Saving => "this ruleset has no saved movement points",
            Self::Spread => "this ruleset does not spread commands over several cells",
        };
        Refusal::new(RefusalKind::NotInRules, words)
    }
}

/// Why an order's piece cannot be ordered at all, before any rule of its concern is asked:
/// every order that names a piece says these alike ([`Game::own_piece`], `reach`).
#[derive(Clone, Copy, Debug)]
pub(super) enum PieceBan<'a> {
    /// No piece has this id.
    NoSuchPiece(PieceId),
    /// The piece is the other side's (or, by id only, unknown to the side asking).
    NotYours(PieceId, Option<&'a Piece>),
    /// The piece is off the board: it left it (its type's exit flag is set) and is out of
    /// the game, or it is simply not there (a reinforcement, say).
    OffBoard(&'a Piece),
}

impl Game {
    /// The refusal for a [`PieceBan`]: always [`RefusalKind::BadPiece`], with its words.
    pub(super) fn refuse_piece(&self, ban: PieceBan<'_>) -> Refusal {
        let words = match ban {
            PieceBan::NoSuchPiece(id) => format!("there is no piece #{}", id.0),
            PieceBan::NotYours(_, Some(piece)) => not_yours(&piece.name),
            PieceBan::NotYours(id, None) => not_yours(format_args!("piece #{}", id.0)),
            PieceBan::OffBoard(p) => {
                let left = (self.rules.piece_type(p.kind))
                    .and_then(|t| t.company.exits.as_ref())
                    .and_then(|e| e.marks)
                    .filter(|f| p.flag(*f));
                match left {
                    Some(f) => format!(
                        "{} left the board ({}) and is out of the game",
                        p.name,
                        self.rules.flag_name(f)
                    ),
                    None => format!("{} is not on the board", p.name),
                }
            }
        };
        Refusal::new(RefusalKind::BadPiece, words)
    }
}

/// The words for a facing number the grid does not have, by a facing change or the set-up.
pub(super) fn no_such_facing(facing: impl core::fmt::Display) -> String {
    format!("facing {facing} does not exist on this grid")
}

/// Which movement rule an order breaks, with what its words need. Every variant names the
/// piece through [`Game::refuse_move`]'s `piece`.
#[derive(Clone, Debug)]
pub(super) enum MoveBan<'a> {
    /// A path of cells was given on an open table.
    OpenTable,
    /// The piece has moved in this window (the words say how: [`Game::why_moved`]).
    Moved,
    /// Held in place this phase, or kept from spreading or saving, by a rule of what it
    /// did or carries ([`HoldWhy`]).
    Held(HoldWhy<'a>),
    /// The piece stands over several cells (an extension arrow laid).
    Spread,
    /// The path names no cell.
    EmptyPath,
    /// The piece's type is not in the rules.
    UnknownType,
    /// A grid order (a save, a spread) on a board without a grid.
    NoGrid,
    /// A flag that keeps the piece from moving is set.
    Pinned(FlagId),
    /// The piece's type has no movement allowance in the piece's mode.
    NoAllowance,
    /// The step from `from` into `to` that a save or a spread would make is one the data
    /// refuses (the step check's reason, worded by [`Game::step_ban_text`]).
    Step {
        /// The cell the step leaves.
        from: Cell,
        /// The cell it enters.
        to: Cell,
        /// Why it cannot be taken.
        ban: StepBan,
    },
    /// A spread across a barrier no move crosses (a river): a command's cells are one
    /// piece of ground.
    SpreadBarrier {
        /// The barrier.
        feature: FeatureId,
        /// The held cell the spread is judged from.
        from: Cell,
        /// The cell spread into.
        to: Cell,
    },
    /// More cells than the mode's step limit.
    TooManySteps {
        /// The limit.
        max: u32,
        /// The path's length.
        len: usize,
    },
    /// The path costs more than the piece's allowance by the step into `to`.
    OverAllowance {
        /// The cost so far.
        spent: Cost,
        /// The step's cell.
        to: Cell,
        /// The allowance.
        allowance: Cost,
    },
    /// The piece must stop at `to`, which is not the path's end.
    MustStop {
        /// Where.
        to: Cell,
        /// Why, in the step rules' words.
        reason: Option<&'a str>,
    },
    /// The path ends at `to`, where the piece may pass but not stop.
    MayNotStop(Cell),
    /// A cell off the board.
    OffBoard(Cell),
    /// A step to a cell that is not next to the one before.
    NotNext {
        /// The step's cell.
        to: Cell,
        /// The cell before it.
        at: Cell,
    },
    /// A redeployment of a piece that is not a dummy.
    NotDummy,
    /// A dummy already redeployed this turn.
    Redeployed,
    /// A dummy of a type its owner moves as a unit (`redeploys: false`).
    NoRedeploy,
    /// Terrain the piece's kind may not stand in.
    MayNotStand {
        /// The terrain.
        terrain: TerrainId,
        /// Where.
        at: Cell,
    },
    /// A cell an enemy holds.
    EnemyHolds(Cell),
    /// Put down over a stacking limit (`problem`: the limit in words).
    NoRoom {
        /// Where.
        at: Cell,
        /// The limit broken.
        problem: String,
    },
    /// A point move of a piece on a grid.
    OnGrid,
    /// A point off the table.
    OffTable(Point),
    /// A table move that ends where the piece stands, facing as it faces.
    ChangesNothing {
        /// Where it stands.
        to: Point,
        /// Its facing.
        facing: Angle,
    },
    /// An area of terrain the piece may not pass through.
    CannotPass(&'a str),
    /// A table move costing more than the allowance.
    TableTooFar {
        /// The move's cost.
        cost: Cost,
        /// The allowance.
        allowance: Cost,
    },
    /// An open-table piece that has moved.
    TableMoved,
    /// No move left on the move counter.
    NoMovesLeft(CounterId),
    /// A facing order on an open table.
    FaceOnTable,
    /// A piece of a type without facing (asked first by the phase's gate, whatever the
    /// phase allows, and again by the facing change's own check).
    NoFacing,
    /// A facing change the type's turning rules refuse.
    Facing(FacingBan),
    /// A facing the grid does not have.
    NoSuchFacing {
        /// The facing given.
        facing: u8,
        /// How many the grid has.
        facings: u8,
    },
    /// A mode the rules do not have.
    NoSuchMode,
    /// A mode the piece's type cannot take.
    CannotTake(ModeId),
    /// The piece is in the mode already.
    AlreadyIn(ModeId),
    /// A change that takes the phase standing still, after a move (or a save).
    StillAfterMove(ModeId),
    /// A change that takes the phase standing still, after an extension arrow.
    StillAfterSpread(ModeId),
    /// A change that costs a move, with none left.
    ModeCostsMove(ModeId),
    /// The new mode breaks a stacking limit where the piece stands (`problem`: the limit).
    ModeNoRoom {
        /// The mode.
        mode: ModeId,
        /// The limit broken.
        problem: String,
    },
    /// A save of a piece not on a single grid cell.
    NotOnCell,
    /// Points saved toward a cell that is not next to the piece's.
    SaveNotNext {
        /// The cell saved toward.
        toward: Cell,
        /// The piece's cell.
        from: Cell,
    },
    /// A save by a piece that can already afford the step: it should move.
    SaveNotNeeded {
        /// What it has.
        have: Cost,
        /// What the step costs.
        step: Cost,
        /// The cell saved toward.
        toward: Cell,
    },
    /// A save in a mode that saves nothing, toward terrain that costs no extra.
    SaveMode,
    /// A spread of a piece that is not on a grid.
    NotOnGrid,
    /// A spread into a cell not next to one the piece holds.
    SpreadNotNext,
    /// Too few figures to divide over the cells a spread would hold.
    TooFewToSpread {
        /// How many the piece has.
        total: i32,
        /// The counter that counts them.
        counter: CounterId,
        /// The cells after the spread.
        cells: i32,
        /// The least each cell must hold.
        least: i32,
    },
    /// A spread that would break a stacking limit at `to` (`problem`: the limit).
    SpreadNoRoom {
        /// Where.
        to: Cell,
        /// The limit broken.
        problem: String,
    },
    /// A gather of a piece that is not spread.
    NotSpread,
    /// A spread piece that holds no cell.
    HoldsNoCell,
    /// The new mode's bases do not fit where the piece stands.
    ModeDoesNotFit {
        /// The mode.
        mode: ModeId,
        /// Why they do not fit, as the footprint check refused it.
        why: Refusal,
    },
}

/// Which of a piece type's turning rules (`crate::turning`) refuses a facing change,
/// checked by `Game::check_turn` (`game/turning.rs`).
#[derive(Clone, Copy, Debug)]
pub(super) enum FacingBan {
    /// A flag that bars facing changes is set.
    Barred(FlagId),
    /// The facing changes allowed in the window are used.
    Used {
        /// Facing changes made this window.
        used: i32,
        /// The most allowed.
        most: u32,
    },
    /// One more facing change costs more than the piece has left.
    Costs {
        /// What one costs.
        cost: Cost,
        /// What the piece has left after the changes it made.
        left: Cost,
    },
}

/// Why a piece is held this phase ([`MoveBan::Held`], always `AlreadyUsed`): what it
/// carries (company on the move) or what it did this phase (a contact, a change of mode,
/// an extension arrow, a save) keeps it from moving, spreading or saving; or, for a spread
/// that is a step, the arrow it would lay.
#[derive(Clone, Copy, Debug)]
pub(super) enum HoldWhy<'a> {
    /// It carries this piece, which joined it after moving (`company::held`).
    RiderMoved(&'a Piece),
    /// It came into contact with the enemy this phase, which ends its movement.
    ContactEnded,
    /// It changed mode this phase by a change that takes the phase standing still.
    StoodStill {
        /// The mode it left.
        from: ModeId,
        /// The mode it took.
        to: ModeId,
    },
    /// It laid or took up an extension arrow this phase, so it saves nothing.
    SpreadNotSaved,
    /// It saved points this phase, so it lays or takes up no arrow.
    SavedNotSpread,
    /// It took up its arrows this phase (outside the relay modes), so it lays no more.
    Gathered,
    /// The arrow's square is next to none it held as the phase began.
    GrowsOneSquare,
    /// The arrow's square costs more than the piece has for it.
    ArrowTooDear {
        /// The square.
        to: Cell,
        /// What entering it costs.
        step: Cost,
        /// What the piece has toward it.
        have: Cost,
    },
    /// A dummy would hold more squares than the largest command could.
    DummyTooWide {
        /// The squares it would hold.
        n: i32,
        /// The counter that counts figures.
        counter: CounterId,
        /// The most the counter holds.
        most: i32,
        /// The least a square holds.
        least: i32,
    },
}

impl Game {
    /// The words for a [`HoldWhy`] of `piece`.
    fn held_words(&self, piece: &Piece, why: HoldWhy<'_>) -> String {
        let name = &piece.name;
        let arrows = "lay or take up no extension arrow";
        match why {
            HoldWhy::RiderMoved(rider) => format!(
                "{name} may not move: {} joined it after moving and may not move again",
                rider.name
            ),
            HoldWhy::ContactEnded => format!(
                "{name} came into contact with the enemy this phase, which ends its movement"
            ),
            HoldWhy::StoodStill { from, to } => format!(
                "{name} changed from {} to {} mode this phase, which takes the whole phase \
                 standing still: it may {arrows}",
                self.rules.mode_name(from),
                self.rules.mode_name(to)
            ),
            HoldWhy::SpreadNotSaved => format!(
                "{name} laid or took up an extension arrow this phase, which moves it: it saves \
                 no points in this phase"
            ),
            HoldWhy::SavedNotSpread => {
                format!("{name} saved points this phase, standing still: it may {arrows} in it")
            }
            HoldWhy::Gathered => format!(
                "{name} took up its extension arrows this phase: it lays no more until its next \
                 movement phase"
            ),
            HoldWhy::GrowsOneSquare => format!(
                "{name} may lay an arrow only into a square next to one it held as this phase \
                 began: an arrow enters its square, so a command grows one square outward a phase"
            ),
            HoldWhy::ArrowTooDear { to, step, have } => format!(
                "{name} may lay an arrow only into a square it could enter this phase: entering \
                 {to} costs {step} mp and it has {have} (an arrow is a step; save points toward \
                 the square first)"
            ),
            HoldWhy::DummyTooWide {
                n,
                counter,
                most,
                least,
            } => format!(
                "{name} is a dummy and holds no more squares than the largest command could \
                 ({most} {} at {least} a square): {n} is too many",
                self.rules.counter_name(counter)
            ),
        }
    }
}

impl MoveBan<'_> {
    /// The kind of refusal each ban gives.
    fn kind(&self) -> RefusalKind {
        use MoveBan as B;
        match self {
            B::OpenTable
            | B::Spread
            | B::EmptyPath
            | B::OffBoard(_)
            | B::NotNext { .. }
            | B::OnGrid
            | B::OffTable(_)
            | B::ChangesNothing { .. }
            | B::NotOnCell
            | B::SaveNotNext { .. }
            | B::NotOnGrid
            | B::SpreadNotNext
            | B::NotSpread
            | B::HoldsNoCell
            | B::NoGrid => RefusalKind::BadPath,
            B::Moved
            | B::Held(_)
            | B::Redeployed
            | B::TableMoved
            | B::NoMovesLeft(_)
            | B::StillAfterMove(_)
            | B::StillAfterSpread(_)
            | B::ModeCostsMove(_)
            | B::Pinned(_)
            | B::Facing(FacingBan::Barred(_) | FacingBan::Used { .. }) => RefusalKind::AlreadyUsed,
            B::UnknownType | B::NotDummy | B::NoRedeploy => RefusalKind::BadPiece,
            B::TooManySteps { .. }
            | B::OverAllowance { .. }
            | B::TableTooFar { .. }
            | B::SaveNotNeeded { .. }
            | B::TooFewToSpread { .. }
            | B::Facing(FacingBan::Costs { .. }) => RefusalKind::TooFar,
            B::MustStop { .. } => RefusalKind::MustStop,
            B::MayNotStop(_)
            | B::EnemyHolds(_)
            | B::NoRoom { .. }
            | B::ModeNoRoom { .. }
            | B::SpreadNoRoom { .. } => RefusalKind::Occupied,
            B::MayNotStand { .. } | B::CannotPass(_) | B::Step { .. } | B::SpreadBarrier { .. } => {
                RefusalKind::Impassable
            }
            B::FaceOnTable
            | B::NoFacing
            | B::NoSuchFacing { .. }
            | B::NoSuchMode
            | B::CannotTake(_)
            | B::AlreadyIn(_)
            | B::SaveMode
            | B::NoAllowance => RefusalKind::BadMode,
            B::ModeDoesNotFit { why, .. } => why.kind,
        }
    }
}

impl Game {
    /// The refusal of `piece`'s order for `ban`: its kind, and its words.
    pub(super) fn refuse_move(&self, piece: &Piece, ban: MoveBan<'_>) -> Refusal {
        let kind = ban.kind();
        Refusal::new(kind, self.move_ban_words(piece, ban))
    }

    /// The words for a [`MoveBan`] of `piece`.
    fn move_ban_words(&self, piece: &Piece, ban: MoveBan<'_>) -> String {
        use MoveBan as B;
        let rules = &*self.rules;
        let name = &piece.name;
        let mode = |m: ModeId| rules.mode_name(m);
        let type_name = || {
            rules
                .piece_type(piece.kind)
                .map_or("?", |t| t.name.as_str())
        };
        match ban {
            B::OpenTable => "this is an open table: move to a point".to_owned(),
            B::Moved => self.why_moved(piece),
            B::Held(why) => self.held_words(piece, why),
            B::Spread => format!("{name} is spread over several cells; gather it before moving"),
            B::EmptyPath => "the path is empty".to_owned(),
            B::UnknownType => UNKNOWN_TYPE.to_owned(),
            B::NoGrid => NO_GRID.to_owned(),
            B::Pinned(flag) => format!("{name} cannot move: it is {}", rules.flag_name(flag)),
            B::NoAllowance => format!("{name} cannot move in mode {}", mode(piece.mode)),
            B::Step { from, to, ban } => self.step_ban_text(piece, from, to, ban),
            B::SpreadBarrier { feature, from, to } => {
                let barrier =
                    (rules.features.get(feature.index())).map_or("?", |d| d.name.as_str());
                format!("{name} cannot spread across the {barrier} between {from} and {to}")
            }
            B::TooManySteps { max, len } => format!(
                "{name} may move at most {max} cell{} in {} mode; the path has {len}",
                if max == 1 { "" } else { "s" },
                mode(piece.mode),
            ),
            B::OverAllowance {
                spent,
                to,
                allowance,
            } => format!(
                "the path costs {spent} by {to}, but {name} has {allowance} in {} mode",
                mode(piece.mode)
            ),
            B::MustStop { to, reason } => format!(
                "{name} must stop at {to} ({})",
                reason.unwrap_or("the ruleset says so")
            ),
            B::MayNotStop(to) => format!("{name} may pass through {to} but not stop there"),
            B::OffBoard(to) => crate::action::off_board(to),
            B::NotNext { to, at } => format!("{to} is not next to {at}"),
            B::NotDummy => format!("{name} is not a dummy; only dummies are lifted and put down"),
            B::Redeployed => format!("{name} has already been redeployed this turn"),
            B::NoRedeploy => {
                format!("{name} is moved as a unit is; it is not lifted and put down elsewhere")
            }
            B::MayNotStand { terrain, at } => {
                let terrain = rules
                    .terrain
                    .get(terrain.index())
                    .map_or("?", |t| t.name.as_str());
                format!("{} pieces may not stand in {terrain} at {at}", type_name())
            }
            B::EnemyHolds(at) => enemy_holds(at),
            B::NoRoom { at, problem } => format!("{name} cannot be put down at {at}: {problem}"),
            B::OnGrid => "this piece is on a grid: give a path of cells".to_owned(),
            B::OffTable(to) => off_table(to),
            B::ChangesNothing { to, facing } => {
                format!("{name} already stands at {to} facing {facing}: the move changes nothing")
            }
            B::CannotPass(area) => format!("{name} cannot pass through {area}"),
            B::TableTooFar { cost, allowance } => format!(
                "the move costs {cost}\" but {name} has {allowance}\" in {} mode",
                mode(piece.mode)
            ),
            B::TableMoved => format!("{name} has already moved"),
            B::NoMovesLeft(c) => format!(
                "{name} has no moves left ({} is {})",
                rules.counter_name(c),
                piece.counter(c)
            ),
            B::FaceOnTable => "on an open table, give the facing with a move".to_owned(),
            B::NoFacing => format!(
                "{name} has no facing to change: {} pieces have no facing",
                type_name()
            ),
            B::Facing(ban) => self.facing_ban_words(piece, ban),
            B::NoSuchFacing { facing, facings } => {
                format!("{} (0..{facings})", no_such_facing(facing))
            }
            B::NoSuchMode => "no such mode".to_owned(),
            B::CannotTake(m) => format!("{} pieces cannot take {} mode", type_name(), mode(m)),
            B::AlreadyIn(m) => format!("{name} is already in {} mode", mode(m)),
            B::StillAfterMove(m) => format!(
                "changing from {} to {} mode takes a whole phase standing still, its movement \
                 points unused, and {}",
                mode(piece.mode),
                mode(m),
                self.why_moved(piece)
            ),
            B::StillAfterSpread(m) => format!(
                "changing from {} to {} mode takes a whole phase standing still, and {name} laid \
                 or took up an extension arrow this phase",
                mode(piece.mode),
                mode(m),
            ),
            B::ModeCostsMove(m) => format!(
                "changing to {} mode costs a move, and {name} has none left",
                mode(m)
            ),
            B::NotOnCell => format!("{name} is not on a grid cell"),
            B::SaveNotNext { toward, from } => format!(
                "points are saved toward a neighbouring cell; {toward} is not next to {from}"
            ),
            B::SaveNotNeeded { have, step, toward } => format!(
                "{name} already has {have} for the {step} step to {toward}: move instead (no \
                 standing reserve)"
            ),
            B::SaveMode => format!(
                "{name} may save points only in {} mode or toward terrain that costs extra",
                (rules.saving.iter())
                    .flat_map(|s| s.modes.iter())
                    .map(|m| mode(*m))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            B::NotOnGrid => format!("{name} is not on a grid"),
            B::SpreadNotNext => format!("{name} can spread only into a cell next to one it holds"),
            B::TooFewToSpread {
                total,
                counter,
                cells,
                least,
            } => format!(
                "{name} has {total} {} to divide over {cells} cells; each needs at least {least}",
                rules
                    .counters
                    .get(counter.index())
                    .map_or("?", |c| c.name.as_str()),
            ),
            B::SpreadNoRoom { to, problem } => format!("{name} cannot spread into {to}: {problem}"),
            B::NotSpread => format!("{name} is not spread"),
            B::HoldsNoCell => format!("{name} holds no cell"),
            B::ModeNoRoom { mode: m, problem } => {
                format!("{name} cannot take {} mode here: {problem}", mode(m))
            }
            B::ModeDoesNotFit { mode: m, why } => {
                format!("{name} cannot take {} mode here: {}", mode(m), why.message)
            }
        }
    }
}

/// The words for a point off the table, by a table move and an action's contact.
fn off_table(to: Point) -> String {
    format!("{to} is off the table")
}

/// Why an action's contact (`contact.rs`' `make_contact`) cannot put the actor against its
/// target. Worded by [`Game::refuse_contact`], which names both pieces.
#[derive(Clone, Debug)]
pub(super) enum ContactBan {
    /// The actor or the target is not on the open table.
    NotOnTable,
    /// The actor's bases would not fit there, as the footprint check refused it.
    Blocked(Refusal),
    /// The place (of an actor without bases) is off the table.
    OffTable(Point),
    /// The place is in an area the actor's movement class cannot enter.
    Impassable {
        /// The area's name.
        area: String,
        /// The movement class's name.
        class: String,
    },
}

impl Game {
    /// The refusal for a [`ContactBan`] of `actor`'s contact with `target` on `state`: its
    /// kind, and its words, naming both (by name; an id without a piece, by nothing).
    pub(super) fn refuse_contact(
        &self,
        state: &State,
        actor: PieceId,
        target: PieceId,
        ban: ContactBan,
    ) -> Refusal {
        let name = |id: PieceId| (state.pieces.get(id.index())).map_or("", |p| p.name.as_str());
        let (a, t) = (name(actor), name(target));
        let (kind, why) = match ban {
            ContactBan::NotOnTable => {
                let words = format!("{a} cannot contact {t}: both must stand on the open table");
                return Refusal::new(RefusalKind::BadPath, words);
            }
            ContactBan::Blocked(r) => (r.kind, r.message),
            ContactBan::OffTable(to) => (RefusalKind::BadPath, off_table(to)),
            ContactBan::Impassable { area, class } => (
                RefusalKind::Impassable,
                format!("{a} would end in {area}, which {class} cannot enter"),
            ),
        };
        Refusal::new(kind, format!("{a} cannot reach contact with {t}: {why}"))
    }
}

/// Why the phase's gate refuses an order before it is resolved: the game is over, the side
/// may not act now, or the phase does not allow this order or this piece. Worded by
/// [`Game::refuse_in_phase`].
#[derive(Clone, Copy, Debug)]
pub(super) enum PhaseBan<'a> {
    /// The game has ended.
    GameOver,
    /// The order names a side the scenario does not have.
    NoSuchSide,
    /// The side does not act in this phase (`side`: its name).
    MayNotAct {
        /// The side's name.
        side: &'a str,
        /// The phase.
        phase: &'a PhaseDef,
    },
    /// The side has ended this phase already.
    Ended {
        /// The side's name.
        side: &'a str,
        /// The phase.
        phase: &'a PhaseDef,
    },
    /// The phase does not allow this kind of order.
    NotAllowed {
        /// The phase.
        phase: &'a PhaseDef,
        /// What the order needs.
        needs: Allowed,
    },
    /// The piece is not of a type that moves in this phase.
    NotMover(&'a PhaseDef),
    /// A `deploy` order after the set-up.
    SetupOver,
    /// An order other than `deploy` and `end_phase` during the set-up.
    SetupOnly,
}

/// Why a piece is not moving now ([`Game::phase_keeps_from_moving`]): which of the gate's answers
/// for a move of it, and the kernel's words for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotMoving {
    /// Which answer.
    pub why: NotMovingWhy,
    /// The words: `red is not moving now (turn 1, blue's move phase: blue acts)`.
    pub words: String,
}

impl NotMoving {
    fn new(why: NotMovingWhy, words: String) -> Self {
        Self { why, words }
    }
}

/// Which of the gate's answers keeps a piece from moving now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotMovingWhy {
    /// Its side may not act now (it does not act in this phase, or has ended it).
    SideWaits,
    /// The phase allows no moves.
    NoMoves,
    /// The phase moves only other piece types.
    NotMover,
}

impl PhaseBan<'_> {
    /// The kind of refusal each ban gives.
    fn kind(&self) -> RefusalKind {
        use PhaseBan as B;
        match self {
            B::GameOver => RefusalKind::GameOver,
            B::NoSuchSide
            | B::MayNotAct { .. }
            | B::Ended { .. }
            | B::NotAllowed { .. }
            | B::NotMover(_)
            | B::SetupOver
            | B::SetupOnly => RefusalKind::OutOfPhase,
        }
    }
}

impl Game {
    /// The refusal for a [`PhaseBan`]: its kind, and its words.
    pub(super) fn refuse_in_phase(&self, ban: PhaseBan<'_>) -> Refusal {
        let kind = ban.kind();
        Refusal::new(kind, self.phase_ban_words(ban))
    }

    /// The words for a [`PhaseBan`].
    fn phase_ban_words(&self, ban: PhaseBan<'_>) -> String {
        use PhaseBan as B;
        match ban {
            B::GameOver => "the game is over".to_owned(),
            B::NoSuchSide => "no such side".to_owned(),
            B::MayNotAct { side, phase } => format!(
                "{side} may not act in the {} phase: {}; {side} can only wait",
                phase.name,
                self.who_acts()
            ),
            B::Ended { side, phase } => format!(
                "{side} has already ended the {} phase: {}",
                phase.name,
                self.who_acts()
            ),
            B::NotAllowed { phase, needs } => format!(
                "the {} phase does not allow {}; it allows {}",
                phase.name,
                self.allowed_words(needs),
                self.phase_allows(phase)
            ),
            B::NotMover(phase) => format!(
                "in the {} phase only {} pieces move",
                phase.name,
                self.movers_words(phase)
            ),
            B::SetupOver => {
                "the set-up is over: pieces are deployed only before the first turn".to_owned()
            }
            B::SetupOnly => "in the set-up the sides only deploy their pieces (`deploy`) and end \
                             their set-up (`end_phase`)"
                .to_owned(),
        }
    }

    /// The piece types that move in a phase with movers, in words: `scout, adc, officer`.
    fn movers_words(&self, phase: &PhaseDef) -> String {
        let kinds: Vec<&str> = (phase.movers.iter())
            .filter_map(|k| self.rules.piece_type(*k).map(|t| t.name.as_str()))
            .collect();
        kinds.join(", ")
    }

    /// Why `piece` is not moving at this point of the game, when it is not: the gate's
    /// answer for a move of it (its side may not act now, the phase allows no moves, or
    /// the piece is not one of the phase's movers), as a note that does not refuse
    /// anything (`reach` shows where the piece could go all the same). `None` when it
    /// could move now, or once the game is over.
    #[must_use]
    pub fn phase_keeps_from_moving(&self, piece: &Piece) -> Option<NotMoving> {
        let (phase, phasing) = self.phase()?;
        let name = |s: SideId| self.sides.get(s.index()).map_or("?", |d| d.name.as_str());
        let turn = self.state.turn;
        let now = format!("turn {turn}, {}'s {} phase", name(phasing), phase.name);
        if self.may_act(piece.side).is_err() {
            let words = format!(
                "{} is not moving now ({now}: {})",
                name(piece.side),
                self.acting_words()
            );
            return Some(NotMoving::new(NotMovingWhy::SideWaits, words));
        }
        if !phase.allows.contains(&Allowed::Move) {
            let words = format!(
                "the {} phase does not allow {} ({now})",
                phase.name,
                self.allowed_words(Allowed::Move)
            );
            return Some(NotMoving::new(NotMovingWhy::NoMoves, words));
        }
        (!super::is_mover(phase, piece.kind)).then(|| {
            let words = format!(
                "{} does not move in the {} phase ({now}: only {} pieces move)",
                piece.name,
                phase.name,
                self.movers_words(phase)
            );
            NotMoving::new(NotMovingWhy::NotMover, words)
        })
    }

    /// The words for a [`FacingBan`] of `piece`.
    fn facing_ban_words(&self, piece: &Piece, ban: FacingBan) -> String {
        let name = &piece.name;
        match ban {
            FacingBan::Barred(flag) => format!(
                "{name} cannot change facing while {}",
                self.rules.flag_name(flag)
            ),
            FacingBan::Used { used, most } => format!(
                "{name} has already changed facing {used} time{} this {} (at most {most})",
                if used == 1 { "" } else { "s" },
                self.move_window(piece)
            ),
            FacingBan::Costs { cost, left } => format!(
                "a facing change costs {cost} and {name} has {left} left this {}",
                self.move_window(piece)
            ),
        }
    }

    /// The window a piece's moves and facing changes are counted in, in words: `phase` for
    /// a type that moves each phase, else `turn`.
    fn move_window(&self, piece: &Piece) -> &'static str {
        crate::turning::move_window(&self.rules, piece)
    }
}

/// Why a `deploy` order of the set-up is refused (`deploy.rs`): the piece, where it goes
/// and how it faces. Worded by [`Game::refuse_setup`]. (The set-up's gate, a deployment
/// after the set-up or another order during it, is a [`PhaseBan`].)
#[derive(Clone, Debug)]
pub(super) enum SetupBan<'a> {
    /// The order names no piece of the scenario.
    NoSuchPiece,
    /// The piece is the other side's.
    NotYours(&'a Piece),
    /// The scenario places the piece; only the order of battle's unplaced pieces deploy.
    PlacedByScenario(&'a Piece),
    /// The piece rides another and deploys with it.
    Attached {
        /// The piece.
        piece: &'a Piece,
        /// The piece it rides.
        host: &'a Piece,
    },
    /// The cell is outside the side's deployment areas.
    OutsideAreas(Cell),
    /// A facing the grid does not have.
    NoSuchFacing(u8),
    /// The piece stands there already, facing so.
    ChangesNothing {
        /// The piece.
        piece: &'a Piece,
        /// Where it stands.
        to: Cell,
    },
    /// Put down over a stacking limit (the limit in words).
    NoRoom(String),
}

impl SetupBan<'_> {
    /// The kind of refusal each ban gives.
    fn kind(&self) -> RefusalKind {
        use SetupBan as B;
        match self {
            B::NoSuchPiece | B::NotYours(_) | B::PlacedByScenario(_) | B::Attached { .. } => {
                RefusalKind::BadPiece
            }
            B::OutsideAreas(_) | B::NoSuchFacing(_) | B::ChangesNothing { .. } => {
                RefusalKind::BadPath
            }
            B::NoRoom(_) => RefusalKind::Occupied,
        }
    }
}

impl Game {
    /// The refusal for a [`SetupBan`] of `side`'s order: its kind, and its words.
    pub(super) fn refuse_setup(&self, side: SideId, ban: SetupBan<'_>) -> Refusal {
        let kind = ban.kind();
        Refusal::new(kind, self.setup_ban_words(side, ban))
    }

    /// The words for a [`SetupBan`] of `side`'s order.
    fn setup_ban_words(&self, side: SideId, ban: SetupBan<'_>) -> String {
        use SetupBan as B;
        match ban {
            B::NoSuchPiece => not_yours("that piece"),
            B::NotYours(piece) => not_yours(&piece.name),
            B::PlacedByScenario(piece) => format!(
                "{} stands where the scenario puts it; only the pieces the order of battle \
                 leaves unplaced are deployed",
                piece.name
            ),
            B::Attached { piece, host } => format!(
                "{} is attached to {} and deploys with it",
                piece.name, host.name
            ),
            B::OutsideAreas(to) => {
                let side_name = (self.sides.get(side.index())).map_or("?", |s| s.name.as_str());
                format!("{to} is outside {side_name}'s deployment areas")
            }
            B::NoSuchFacing(facing) => no_such_facing(facing),
            B::ChangesNothing { piece, to } => format!(
                "{} already stands at {to}: the deployment changes nothing",
                piece.name
            ),
            B::NoRoom(problem) => problem,
        }
    }
}
