//! Why an order is refused, kept as data until its words are needed — the pattern of
//! [`StepBan`](crate::reach::StepBan) for whole orders. A check returns a ban saying *which*
//! rule the order breaks; the legal listing, which asks checks by the thousand, drops it
//! unworded, and a refused order turns it into a [`Refusal`] by [`Ban::refuse`]. Every ban
//! has that one shape ([`Ban`], in `action.rs`): its `kind`, and its `words` given what
//! they need (`Cx`: the game and the piece, the rules, nothing). This module holds the
//! bans of the gate and of pieces, and the words several bans share; each other ban is
//! defined and worded in one file:
//!
//! | ban | file | refuses | `Cx` |
//! |---|---|---|---|
//! | [`PhaseBan`] | here | the phase's gate (`mod.rs`) and the set-up's (`deploy.rs`) | the game |
//! | [`PieceBan`] | here | a piece no order may name: none, not yours, off the board (`Game::own_piece`) | the game |
//! | [`SetupBan`] | here | a deployment (`deploy.rs`) | the game, the side |
//! | [`ContactBan`] | here | an action's contact (`contact.rs`) | the state, actor, target |
//! | [`Lacks`] | here | what the ruleset has not at all: saving, spreading (`march.rs`) | nothing |
//! | [`MoveBan`] ([`ModeBan`], [`MarchBan`], [`FacingBan`], [`HoldWhy`]) | `bans/moves.rs` | a move, a table move, a redeployment, a facing change, a mode change, a save, a spread, a gather (`moves.rs`, `march.rs`, `turning.rs`) | the game, the piece |
//! | [`ActBan`] ([`TargetBan`]) | `bans/act.rs` | an `act` order's action, actor, target, range, arcs, sight (`actions.rs`) | the game, the state, the side |
//! | [`HookBan`] | `bans/hook.rs` | a hook's failure, or a change it asks for that cannot be (`hook_commands.rs`, `placement.rs`, `steps.rs`) | nothing |
//! | `EnterBan` | `step_words.rs` | a step beyond the data's `StepBan`: a full crossing, the `move_cost` hook, an enemy there, no room (`steps.rs`) | the game, the piece, the step |
//! | `HiddenBan` | `view.rs` | an order naming a piece its side may not (`Game::hidden_guard`) | the game, the side |
//! | `FootprintBan` | `bases.rs` | bases that leave the table or overlap | the piece |
//! | `ThreatBan` | `threat.rs` | an open-table move near an enemy (always `MustStop`) | the two names |
//! | `TurningBan` | `crate::turning` | a path against the piece's facing or a flag that slows it | the rules, the piece |
//! | `CompanyBan` | `crate::company` | a step company or the board's edge refuses | the rules, the piece, the cell |
//!
//! A step's data ban, `StepBan` (`reach/plain.rs`), is no refusal of its own: it is worded by
//! `Game::step_ban_text` (`steps.rs`) inside [`MarchBan::Step`] or `EnterBan::Forbidden`.
//! A new rule is a new variant of its concern's ban, with an arm in its `kind` and one in its
//! `words`. [`Game::phase_keeps_from_moving`] words the gate's answer for a move as a note,
//! not a refusal (the CLI's `reach`).

use crate::action::{Ban, Refusal, RefusalKind};
use crate::geometry::Cell;
use crate::geometry::open::Point;
use crate::ids::{PieceId, SideId};
use crate::piece::Piece;
use crate::rules::{Allowed, PhaseDef};
use crate::state::State;

use super::Game;

mod act;
mod hook;
mod moves;
pub(super) use act::{ActBan, TargetBan};
pub(super) use hook::{HookBan, hook_failed};
pub(super) use moves::{FacingBan, HoldWhy, MarchBan, ModeBan, MoveBan};

/// The words for a piece type the rules do not know (a corrupt piece), wherever it is met.
pub(super) const UNKNOWN_TYPE: &str = "unknown piece type";

/// The words for a board without a grid, given a grid order: a move's ban
/// ([`MoveBan::NoGrid`]) and a step's
/// ([`StepBan::NoGrid`](crate::reach::StepBan::NoGrid)) say it alike.
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

impl Ban for Lacks {
    /// Nothing: the words are the ruleset's lack.
    type Cx<'c> = ();

    fn kind(&self) -> RefusalKind {
        RefusalKind::NotInRules
    }

    fn words(self, (): ()) -> String {
        match self {
            Self::Saving => "this ruleset has no saved movement points",
            Self::Spread => "this ruleset does not spread commands over several cells",
        }
        .to_owned()
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

impl Ban for PieceBan<'_> {
    /// The game (a piece that left the board is named with the flag that marks it).
    type Cx<'c> = &'c Game;

    /// Always [`RefusalKind::BadPiece`].
    fn kind(&self) -> RefusalKind {
        RefusalKind::BadPiece
    }

    fn words(self, game: &Game) -> String {
        match self {
            PieceBan::NoSuchPiece(id) => format!("there is no piece #{}", id.0),
            PieceBan::NotYours(_, Some(piece)) => not_yours(&piece.name),
            PieceBan::NotYours(id, None) => not_yours(format_args!("piece #{}", id.0)),
            PieceBan::OffBoard(p) => {
                let left = (game.rules.piece_type(p.kind))
                    .and_then(|t| t.company.exits.as_ref())
                    .and_then(|e| e.marks)
                    .filter(|f| p.flag(*f));
                match left {
                    Some(f) => format!(
                        "{} left the board ({}) and is out of the game",
                        p.name,
                        game.rules.flag_name(f)
                    ),
                    None => format!("{} is not on the board", p.name),
                }
            }
        }
    }
}

/// The words for a facing number the grid does not have, by a facing change or the set-up.
pub(super) fn no_such_facing(facing: impl core::fmt::Display) -> String {
    format!("facing {facing} does not exist on this grid")
}

/// The words for a point off the table, by a table move and an action's contact.
fn off_table(to: Point) -> String {
    format!("{to} is off the table")
}

/// Why an action's contact (`contact.rs`' `make_contact`) cannot put the actor against its
/// target. Its words name both pieces.
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

impl Ban for ContactBan {
    /// The state, the actor and the target: the words name both (by name; an id without a
    /// piece, by nothing).
    type Cx<'c> = (&'c State, PieceId, PieceId);

    fn kind(&self) -> RefusalKind {
        match self {
            Self::NotOnTable | Self::OffTable(_) => RefusalKind::BadPath,
            Self::Blocked(r) => r.kind,
            Self::Impassable { .. } => RefusalKind::Impassable,
        }
    }

    fn words(self, (state, actor, target): Self::Cx<'_>) -> String {
        let name = |id: PieceId| (state.pieces.get(id.index())).map_or("", |p| p.name.as_str());
        let (a, t) = (name(actor), name(target));
        let why = match self {
            Self::NotOnTable => {
                return format!("{a} cannot contact {t}: both must stand on the open table");
            }
            Self::Blocked(r) => r.message,
            Self::OffTable(to) => off_table(to),
            Self::Impassable { area, class } => {
                format!("{a} would end in {area}, which {class} cannot enter")
            }
        };
        format!("{a} cannot reach contact with {t}: {why}")
    }
}

/// Why the phase's gate refuses an order before it is resolved: the game is over, the side
/// may not act now, or the phase does not allow this order or this piece.
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

impl Ban for PhaseBan<'_> {
    /// The game (the words say who acts and what the phase allows).
    type Cx<'c> = &'c Game;

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

    fn words(self, game: &Game) -> String {
        use PhaseBan as B;
        match self {
            B::GameOver => "the game is over".to_owned(),
            B::NoSuchSide => "no such side".to_owned(),
            B::MayNotAct { side, phase } => format!(
                "{side} may not act in the {} phase: {}; {side} can only wait",
                phase.name,
                game.who_acts()
            ),
            B::Ended { side, phase } => format!(
                "{side} has already ended the {} phase: {}",
                phase.name,
                game.who_acts()
            ),
            B::NotAllowed { phase, needs } => format!(
                "the {} phase does not allow {}; it allows {}",
                phase.name,
                game.allowed_words(needs),
                game.phase_allows(phase)
            ),
            B::NotMover(phase) => format!(
                "in the {} phase only {} pieces move",
                phase.name,
                game.movers_words(phase)
            ),
            B::SetupOver => {
                "the set-up is over: pieces are deployed only before the first turn".to_owned()
            }
            B::SetupOnly => "in the set-up the sides only deploy their pieces (`deploy`) and end \
                             their set-up (`end_phase`)"
                .to_owned(),
        }
    }
}

impl Game {
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
}

/// Why a `deploy` order of the set-up is refused (`deploy.rs`): the piece, where it goes
/// and how it faces. (The set-up's gate, a deployment
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

impl Ban for SetupBan<'_> {
    /// The game and the side whose order it is (its deployment areas are named).
    type Cx<'c> = (&'c Game, SideId);

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

    fn words(self, (game, side): Self::Cx<'_>) -> String {
        use SetupBan as B;
        match self {
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
                let side_name = (game.sides.get(side.index())).map_or("?", |s| s.name.as_str());
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
