//! Why an order is refused, kept as data until its words are needed — the pattern of
//! [`StepBan`](crate::reach::StepBan) for whole orders. The checks say *which* rule an order
//! breaks: a [`MoveBan`] for a move, a facing change, a mode change or a redeployment
//! (`moves.rs`) and for a save, a spread or a gather (`march.rs`), a [`PhaseBan`] for the phase's gate (`mod.rs`) and the set-up
//! (`deploy.rs`). [`Game::refuse_move`] and [`Game::refuse_in_phase`] are the one place
//! each turns a ban into a [`Refusal`]: its kind and the sentence a player reads. Keeping
//! the prose here leaves each check one line per rule, and the wording of a concern's
//! refusals in one match.

use crate::action::{Refusal, RefusalKind};
use crate::cost::Cost;
use crate::geometry::Cell;
use crate::geometry::open::{Angle, Point};
use crate::ids::{CounterId, ModeId, TerrainId};
use crate::piece::Piece;
use crate::rules::{Allowed, PhaseDef};

use super::Game;

/// The words for a piece type the rules do not know (a corrupt piece), wherever it is met.
pub(super) const UNKNOWN_TYPE: &str = "unknown piece type";

/// The words for a cell an enemy holds, by a move's ban or a step's check.
pub(super) fn enemy_holds(at: impl core::fmt::Display) -> String {
    format!("{at} is held by the enemy")
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
    /// Held in place this phase, by a rule whose words come with it (company on the move,
    /// a contact that ended its movement, a change of mode that took the phase).
    Held(String),
    /// The piece stands over several cells (an extension arrow laid).
    Spread,
    /// The path names no cell.
    EmptyPath,
    /// The piece's type is not in the rules.
    UnknownType,
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
    /// A piece of a type without facing.
    NoFacing,
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
            | B::HoldsNoCell => RefusalKind::BadPath,
            B::Moved
            | B::Held(_)
            | B::Redeployed
            | B::TableMoved
            | B::NoMovesLeft(_)
            | B::StillAfterMove(_)
            | B::StillAfterSpread(_)
            | B::ModeCostsMove(_) => RefusalKind::AlreadyUsed,
            B::UnknownType | B::NotDummy => RefusalKind::BadPiece,
            B::TooManySteps { .. }
            | B::OverAllowance { .. }
            | B::TableTooFar { .. }
            | B::SaveNotNeeded { .. }
            | B::TooFewToSpread { .. } => RefusalKind::TooFar,
            B::MustStop { .. } => RefusalKind::MustStop,
            B::MayNotStop(_)
            | B::EnemyHolds(_)
            | B::NoRoom { .. }
            | B::ModeNoRoom { .. }
            | B::SpreadNoRoom { .. } => RefusalKind::Occupied,
            B::MayNotStand { .. } | B::CannotPass(_) => RefusalKind::Impassable,
            B::FaceOnTable
            | B::NoFacing
            | B::NoSuchFacing { .. }
            | B::NoSuchMode
            | B::CannotTake(_)
            | B::AlreadyIn(_)
            | B::SaveMode => RefusalKind::BadMode,
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
            B::Held(why) => why,
            B::Spread => format!("{name} is spread over several cells; gather it before moving"),
            B::EmptyPath => "the path is empty".to_owned(),
            B::UnknownType => UNKNOWN_TYPE.to_owned(),
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
            B::OffBoard(to) => format!("{to} is off the board"),
            B::NotNext { to, at } => format!("{to} is not next to {at}"),
            B::NotDummy => format!("{name} is not a dummy; only dummies are lifted and put down"),
            B::Redeployed => format!("{name} has already been redeployed this turn"),
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
            B::OffTable(to) => format!("{to} is off the table"),
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
            B::NoFacing => format!("{name} has no facing to change"),
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
    /// A facing order for a piece whose type has no facing.
    NoFacing(&'a Piece),
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

impl Game {
    /// The refusal for a [`PhaseBan`]: its kind, and its words.
    pub(super) fn refuse_in_phase(&self, ban: PhaseBan<'_>) -> Refusal {
        use PhaseBan as B;
        let (kind, words) = match ban {
            B::GameOver => (RefusalKind::GameOver, "the game is over".to_owned()),
            B::NoSuchSide => (RefusalKind::OutOfPhase, "no such side".to_owned()),
            B::MayNotAct { side, phase } => (
                RefusalKind::OutOfPhase,
                format!(
                    "{side} may not act in the {} phase: {}; {side} can only wait",
                    phase.name,
                    self.who_acts()
                ),
            ),
            B::Ended { side, phase } => (
                RefusalKind::OutOfPhase,
                format!(
                    "{side} has already ended the {} phase: {}",
                    phase.name,
                    self.who_acts()
                ),
            ),
            B::NoFacing(piece) => (
                RefusalKind::BadMode,
                format!(
                    "{} has no facing to change: {} pieces have no facing",
                    piece.name,
                    self.rules
                        .piece_type(piece.kind)
                        .map_or("?", |t| t.name.as_str())
                ),
            ),
            B::NotAllowed { phase, needs } => (
                RefusalKind::OutOfPhase,
                format!(
                    "the {} phase does not allow {}; it allows {}",
                    phase.name,
                    self.allowed_words(needs),
                    self.phase_allows(phase)
                ),
            ),
            B::NotMover(phase) => {
                let kinds: Vec<&str> = (phase.movers.iter())
                    .filter_map(|k| self.rules.piece_type(*k).map(|t| t.name.as_str()))
                    .collect();
                (
                    RefusalKind::OutOfPhase,
                    format!(
                        "in the {} phase only {} pieces move",
                        phase.name,
                        kinds.join(", ")
                    ),
                )
            }
            B::SetupOver => (
                RefusalKind::OutOfPhase,
                "the set-up is over: pieces are deployed only before the first turn".to_owned(),
            ),
            B::SetupOnly => (
                RefusalKind::OutOfPhase,
                "in the set-up the sides only deploy their pieces (`deploy`) and end their \
                 set-up (`end_phase`)"
                    .to_owned(),
            ),
        };
        Refusal::new(kind, words)
    }
}
