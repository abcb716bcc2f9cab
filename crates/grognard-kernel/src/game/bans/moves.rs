//! Why a piece's order is refused by a rule of movement ([`MoveBan`]) and its words, split
//! from `bans.rs` for length: a move, a table move, a redeployment and a facing change
//! (`moves.rs`, `turning.rs`'s [`FacingBan`]), a mode change ([`ModeBan`], `moves.rs`), a
//! save, a spread or a gather ([`MarchBan`], `march.rs`), a piece held by what it did or
//! carries ([`HoldWhy`]). Worded by concern: `MoveBan`'s [`Ban::words`] words the path's own
//! rules and sends the rest to `held_words`, `facing_ban_words`, `mode_ban_words` and
//! `march_ban_words`, so a new rule adds an arm to its concern's match.

use crate::action::{Ban, Refusal, RefusalKind};
use crate::cost::Cost;
use crate::geometry::Cell;
use crate::geometry::open::{Angle, Point};
use crate::ids::{CounterId, FeatureId, FlagId, ModeId, TerrainId};
use crate::piece::Piece;
use crate::reach::StepBan;

use super::super::Game;
use super::{NO_GRID, UNKNOWN_TYPE, enemy_holds, no_such_facing, off_table};

/// Which movement rule an order breaks, with what its words need: a move, a facing change,
/// a mode change ([`ModeBan`]), a redeployment, or a save, a spread or a gather
/// ([`MarchBan`]). The piece is not kept: [`Ban::refuse`] is given it, with the game.
#[derive(Clone, Debug)]
pub(in crate::game) enum MoveBan<'a> {
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
    /// A save of a piece not on a single grid cell.
    NotOnCell,
    /// A change of mode the mode rules refuse ([`ModeBan`]).
    Mode(ModeBan),
    /// A save, a spread or a gather the marching rules refuse ([`MarchBan`]).
    March(MarchBan),
}

/// Which mode rule a change of mode breaks ([`MoveBan::Mode`]).
#[derive(Clone, Debug)]
pub(in crate::game) enum ModeBan {
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
    /// The new mode's bases do not fit where the piece stands.
    ModeDoesNotFit {
        /// The mode.
        mode: ModeId,
        /// Why they do not fit, as the footprint check refused it.
        why: Refusal,
    },
}

/// Which marching rule a save, a spread or a gather breaks ([`MoveBan::March`]).
#[derive(Clone, Debug)]
pub(in crate::game) enum MarchBan {
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
}

/// Which of a piece type's turning rules (`crate::turning`) refuses a facing change,
/// checked by `Game::check_turn` (`game/turning.rs`).
#[derive(Clone, Copy, Debug)]
pub(in crate::game) enum FacingBan {
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
pub(in crate::game) enum HoldWhy<'a> {
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

impl ModeBan {
    /// The kind of refusal each ban gives.
    fn kind(&self) -> RefusalKind {
        use ModeBan as B;
        match self {
            B::StillAfterMove(_) | B::StillAfterSpread(_) | B::ModeCostsMove(_) => {
                RefusalKind::AlreadyUsed
            }
            B::ModeNoRoom { .. } => RefusalKind::Occupied,
            B::NoSuchMode | B::CannotTake(_) | B::AlreadyIn(_) => RefusalKind::BadMode,
            B::ModeDoesNotFit { why, .. } => why.kind,
        }
    }
}

impl MarchBan {
    /// The kind of refusal each ban gives.
    fn kind(&self) -> RefusalKind {
        use MarchBan as B;
        match self {
            B::SaveNotNext { .. }
            | B::NotOnGrid
            | B::SpreadNotNext
            | B::NotSpread
            | B::HoldsNoCell => RefusalKind::BadPath,
            B::SaveNotNeeded { .. } | B::TooFewToSpread { .. } => RefusalKind::TooFar,
            B::SpreadNoRoom { .. } => RefusalKind::Occupied,
            B::Step { .. } | B::SpreadBarrier { .. } => RefusalKind::Impassable,
            B::SaveMode => RefusalKind::BadMode,
        }
    }
}

impl FacingBan {
    /// The kind of refusal each ban gives.
    fn kind(&self) -> RefusalKind {
        match self {
            Self::Barred(_) | Self::Used { .. } => RefusalKind::AlreadyUsed,
            Self::Costs { .. } => RefusalKind::TooFar,
        }
    }
}

impl Ban for MoveBan<'_> {
    /// The game, and the piece the order moves (every ban's words name it).
    type Cx<'c> = (&'c Game, &'c Piece);

    /// A mode's, a march's and a facing's kind are their own.
    fn kind(&self) -> RefusalKind {
        use MoveBan as B;
        match self {
            B::Mode(ban) => ban.kind(),
            B::March(ban) => ban.kind(),
            B::Facing(ban) => ban.kind(),
            B::OpenTable
            | B::Spread
            | B::EmptyPath
            | B::OffBoard(_)
            | B::NotNext { .. }
            | B::OnGrid
            | B::OffTable(_)
            | B::ChangesNothing { .. }
            | B::NotOnCell
            | B::NoGrid => RefusalKind::BadPath,
            B::Moved
            | B::Held(_)
            | B::Redeployed
            | B::TableMoved
            | B::NoMovesLeft(_)
            | B::Pinned(_) => RefusalKind::AlreadyUsed,
            B::UnknownType | B::NotDummy | B::NoRedeploy => RefusalKind::BadPiece,
            B::TooManySteps { .. } | B::OverAllowance { .. } | B::TableTooFar { .. } => {
                RefusalKind::TooFar
            }
            B::MustStop { .. } => RefusalKind::MustStop,
            B::MayNotStop(_) | B::EnemyHolds(_) | B::NoRoom { .. } => RefusalKind::Occupied,
            B::MayNotStand { .. } | B::CannotPass(_) => RefusalKind::Impassable,
            B::FaceOnTable | B::NoFacing | B::NoSuchFacing { .. } | B::NoAllowance => {
                RefusalKind::BadMode
            }
        }
    }

    /// The words, by concern: what the piece did or carries ([`Game::held_words`]), its
    /// facing, its mode, its march, and the path's own rules here.
    fn words(self, (game, piece): Self::Cx<'_>) -> String {
        use MoveBan as B;
        let rules = &*game.rules;
        let name = &piece.name;
        let mode = |m: ModeId| rules.mode_name(m);
        let type_name = || {
            rules
                .piece_type(piece.kind)
                .map_or("?", |t| t.name.as_str())
        };
        match self {
            B::Held(why) => game.held_words(piece, why),
            B::Facing(ban) => game.facing_ban_words(piece, ban),
            B::Mode(ban) => game.mode_ban_words(piece, ban),
            B::March(ban) => game.march_ban_words(piece, ban),
            B::OpenTable => "this is an open table: move to a point".to_owned(),
            B::Moved => game.why_moved(piece),
            B::Spread => format!("{name} is spread over several cells; gather it before moving"),
            B::EmptyPath => "the path is empty".to_owned(),
            B::UnknownType => UNKNOWN_TYPE.to_owned(),
            B::NoGrid => NO_GRID.to_owned(),
            B::Pinned(flag) => format!("{name} cannot move: it is {}", rules.flag_name(flag)),
            B::NoAllowance => format!("{name} cannot move in mode {}", mode(piece.mode)),
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
            B::NotOnCell => format!("{name} is not on a grid cell"),
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
            B::NoSuchFacing { facing, facings } => {
                format!("{} (0..{facings})", no_such_facing(facing))
            }
        }
    }
}

impl Game {
    /// The words for a [`ModeBan`] of `piece`.
    fn mode_ban_words(&self, piece: &Piece, ban: ModeBan) -> String {
        use ModeBan as B;
        let name = &piece.name;
        let mode = |m: ModeId| self.rules.mode_name(m);
        match ban {
            B::NoSuchMode => "no such mode".to_owned(),
            B::CannotTake(m) => {
                let type_name =
                    (self.rules.piece_type(piece.kind)).map_or("?", |t| t.name.as_str());
                format!("{type_name} pieces cannot take {} mode", mode(m))
            }
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
            B::ModeNoRoom { mode: m, problem } => {
                format!("{name} cannot take {} mode here: {problem}", mode(m))
            }
            B::ModeDoesNotFit { mode: m, why } => {
                format!("{name} cannot take {} mode here: {}", mode(m), why.message)
            }
        }
    }

    /// The words for a [`MarchBan`] of `piece`.
    fn march_ban_words(&self, piece: &Piece, ban: MarchBan) -> String {
        use MarchBan as B;
        let rules = &*self.rules;
        let name = &piece.name;
        match ban {
            B::Step { from, to, ban } => self.step_ban_text(piece, from, to, ban),
            B::SpreadBarrier { feature, from, to } => {
                let barrier =
                    (rules.features.get(feature.index())).map_or("?", |d| d.name.as_str());
                format!("{name} cannot spread across the {barrier} between {from} and {to}")
            }
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
                    .map(|m| rules.mode_name(*m))
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
        }
    }
}

impl Game {
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
