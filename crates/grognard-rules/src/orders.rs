//! Orders files (what players do, by name) ↔ kernel [`Order`]s, and [`OrderError`]: why an
//! entry names no order the rules could be asked about.

use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::Cell;
use grognard_kernel::geometry::open::{Len, Point};
use grognard_kernel::ids::{PieceId, SideId};

use crate::model::{NotOneKind, OrderKind, OrderSpec, ScenarioSpec};
use crate::scenario::{parse_angle, parse_facing};

/// Why an orders-file entry does not resolve to a kernel order: the rules never see it.
/// Each variant keeps what its words need; [`Display`](std::fmt::Display) gives the words
/// `play` prints at the entry's line (suites and saves' messages quote them).
#[derive(Clone, Debug, PartialEq)]
pub enum OrderError {
    /// `side:` names no side of the game.
    UnknownSide {
        /// The name the entry gave.
        side: String,
        /// The game's sides, in order.
        sides: Vec<String>,
    },
    /// The entry sets no kind of order, or more than one.
    NotOneKind(NotOneKind),
    /// A piece written `#…` whose rest is not a number.
    NotAHandle {
        /// The text as written (`#x`).
        text: String,
    },
    /// A handle (`#N`) the ordering side was never given; worded alike whatever is there.
    UnknownHandle {
        /// The ordering side, as the entry names it.
        side: String,
    },
    /// A name no piece has, or one the ordering side could not know the piece by (a
    /// hidden enemy, a dummy's true name): the same words either way.
    UnknownPiece {
        /// The name as written.
        name: String,
    },
    /// A `mode:` the rules do not define.
    UnknownMode {
        /// The mode as written.
        name: String,
    },
    /// An `act:` action the rules do not define.
    UnknownAction {
        /// The action as written.
        name: String,
    },
    /// A `move_to` coordinate that is not a distance in inches (not finite, or beyond
    /// 100,000).
    NotInches {
        /// The number given.
        value: f64,
    },
    /// A facing or angle that does not read; the words are the scenario reader's
    /// (`parse_facing`, `parse_angle`), which list what it expected.
    BadFacing {
        /// What was wrong, in the scenario reader's words.
        why: String,
    },
    /// `face:` on an open table, where a facing goes with `move_to`.
    FaceOnOpenTable,
    /// A set-up (`deploy:`) with a facing on a board with no grid.
    SetUpNeedsGrid,
}

impl std::fmt::Display for OrderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::UnknownSide { side, sides } => {
                write!(
                    f,
                    "unknown side `{side}`; the sides are {}",
                    sides.join(", ")
                )
            }
            Self::NotOneKind(e) => e.fmt(f),
            Self::NotAHandle { text } => {
                write!(f, "`{text}` is not a piece handle (`#` and a number)")
            }
            Self::UnknownHandle { side } => write!(f, "no such enemy piece known to {side}"),
            Self::UnknownPiece { name } => write!(f, "unknown piece `{name}`"),
            Self::UnknownMode { name } => write!(f, "unknown mode `{name}`"),
            Self::UnknownAction { name } => write!(f, "unknown action `{name}`"),
            Self::NotInches { value } => write!(
                f,
                "{} is not a distance in inches",
                grognard_kernel::text::number(*value)
            ),
            Self::BadFacing { why } => f.write_str(why),
            Self::FaceOnOpenTable => {
                f.write_str("on an open table, give the facing with `move_to`")
            }
            Self::SetUpNeedsGrid => f.write_str("a set-up needs a grid board"),
        }
    }
}

impl std::error::Error for OrderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::NotOneKind(e) => Some(e),
            _ => None,
        }
    }
}

impl From<NotOneKind> for OrderError {
    fn from(e: NotOneKind) -> Self {
        Self::NotOneKind(e)
    }
}

/// A facing or angle reader's words as an [`OrderError`].
fn bad_facing(why: String) -> OrderError {
    OrderError::BadFacing { why }
}

/// Turns one order into a kernel order, resolving names against the game as the referee
/// may: every piece by its name.
///
/// # Errors
/// What name or value is wrong ([`OrderError`]; its `Display` gives the words).
pub fn resolve_order(game: &Game, order: &OrderSpec) -> Result<Order, OrderError> {
    resolve_order_as(game, order, None)
}

/// Turns one order into a kernel order, resolving names as `viewer` may use them
/// (`None`: the referee, who names every piece). A side names its own pieces and the
/// enemies it has identified by name, other enemies by its handle for them (`#N`).
///
/// A side that names a piece it could not know by that name — a hidden enemy, a dummy's
/// true name — is told the same words as for a name no piece has, so its refusals never
/// say which names exist.
///
/// # Errors
/// What name or value is wrong ([`OrderError`]; its `Display` gives the words).
pub fn resolve_order_as(
    game: &Game,
    order: &OrderSpec,
    viewer: Option<SideId>,
) -> Result<Order, OrderError> {
    let side = game
        .side_by_name(&order.side)
        .ok_or_else(|| OrderError::UnknownSide {
            side: order.side.clone(),
            sides: game.sides().iter().map(|s| s.name.clone()).collect(),
        })?;
    // `#N` names a piece by the ordering side's handle for it (what its view shows for
    // pieces it has not identified). A handle the side was never given is refused with one
    // wording, so naming one says nothing of what is there.
    let piece = |name: &str| -> Result<PieceId, OrderError> {
        if let Some(n) = name.strip_prefix('#') {
            let handle: u32 = n.parse().map_err(|_| OrderError::NotAHandle {
                text: name.to_owned(),
            })?;
            return game
                .piece_by_handle(side, handle)
                .ok_or_else(|| OrderError::UnknownHandle {
                    side: order.side.clone(),
                });
        }
        game.piece_by_name(name)
            .map(|p| p.id)
            .filter(|id| viewer.is_none_or(|v| game.order_name_as(Some(v), *id) == name))
            .ok_or_else(|| OrderError::UnknownPiece {
                name: name.to_owned(),
            })
    };
    let action = match order.kind()? {
        OrderKind::Move(m) => Action::Move {
            piece: piece(&m.piece)?,
            path: m.path.iter().map(|c| Cell::new(c[0], c[1])).collect(),
        },
        OrderKind::MoveTo(m) => Action::MoveTo {
            piece: piece(&m.piece)?,
            to: Point {
                x: inches(m.to[0])?,
                y: inches(m.to[1])?,
            },
            facing: m
                .facing
                .map(|f| parse_angle(&f.to_string()))
                .transpose()
                .map_err(bad_facing)?,
        },
        OrderKind::Face(f) => {
            let grid = game.board().grid().ok_or(OrderError::FaceOnOpenTable)?;
            Action::Face {
                piece: piece(&f.piece)?,
                facing: parse_facing(grid, &f.facing).map_err(bad_facing)?,
            }
        }
        OrderKind::Mode(m) => {
            let mode =
                game.rules()
                    .mode_by_name(&m.mode)
                    .ok_or_else(|| OrderError::UnknownMode {
                        name: m.mode.clone(),
                    })?;
            Action::Mode {
                piece: piece(&m.piece)?,
                mode,
            }
        }
        OrderKind::Act(a) => {
            let action = game.rules().action_by_name(&a.action).ok_or_else(|| {
                OrderError::UnknownAction {
                    name: a.action.clone(),
                }
            })?;
            Action::Act {
                piece: piece(&a.piece)?,
                action,
                target: a.target.as_deref().map(piece).transpose()?,
                intent: a.intent.clone(),
            }
        }
        OrderKind::Save(sv) => Action::Save {
            piece: piece(&sv.piece)?,
            toward: Cell::new(sv.toward[0], sv.toward[1]),
        },
        OrderKind::Extend(x) => Action::Extend {
            piece: piece(&x.piece)?,
            to: Cell::new(x.to[0], x.to[1]),
        },
        OrderKind::Gather(g) => Action::Gather { piece: piece(g)? },
        OrderKind::Deploy(d) => {
            let facing = match (&d.facing, game.board().grid()) {
                (Some(f), Some(grid)) => Some(parse_facing(grid, f).map_err(bad_facing)?),
                (Some(_), None) => return Err(OrderError::SetUpNeedsGrid),
                (None, _) => None,
            };
            Action::Deploy {
                piece: piece(&d.piece)?,
                to: Cell::new(d.at[0], d.at[1]),
                facing,
            }
        }
        OrderKind::Redeploy(r) => Action::Redeploy {
            piece: piece(&r.piece)?,
            to: Cell::new(r.to[0], r.to[1]),
        },
        OrderKind::EndPhase => Action::EndPhase,
    };
    Ok(Order { side, action })
}

/// A `move_to` coordinate in inches, as the kernel's thousandths.
fn inches(value: f64) -> Result<Len, OrderError> {
    if value.is_finite() && value.abs() <= 100_000.0 {
        Ok(Len((value * 1000.0).round() as i64))
    } else {
        Err(OrderError::NotInches { value })
    }
}

/// Writes a kernel order back as an orders-file entry (for saves).
#[must_use]
pub fn describe_order(game: &Game, order: &Order) -> OrderSpec {
    describe_order_as(game, order, None)
}

/// Writes a kernel order as an orders-file entry in the words `viewer` may use: pieces it
/// has not identified are named by handle (`#7`); `None` is the referee, who names all.
#[must_use]
pub fn describe_order_as(game: &Game, order: &Order, viewer: Option<SideId>) -> OrderSpec {
    let name = |id: PieceId| game.order_name_as(viewer, id);
    let side = game
        .sides()
        .get(order.side.index())
        .map_or_else(String::new, |s| s.name.clone());
    let mut spec = OrderSpec {
        side,
        ..OrderSpec::default()
    };
    match &order.action {
        Action::Move { piece, path } => {
            spec.r#move = Some(crate::model::MoveSpec {
                piece: name(*piece),
                path: path.iter().map(|c| [c.col, c.row]).collect(),
            });
        }
        Action::MoveTo { piece, to, facing } => {
            spec.move_to = Some(crate::model::MoveToSpec {
                piece: name(*piece),
                to: [to.x.0 as f64 / 1000.0, to.y.0 as f64 / 1000.0],
                facing: facing.map(|a| f64::from(a.0) / 10.0),
            });
        }
        Action::Face { piece, facing } => {
            // By name (`NE`), as scenarios and orders files write it.
            spec.face = Some(crate::model::FaceOrderSpec {
                piece: name(*piece),
                facing: game.board().grid().map_or_else(
                    || facing.0.to_string(),
                    |g| g.facing_name(*facing).to_owned(),
                ),
            });
        }
        Action::Mode { piece, mode } => {
            spec.mode = Some(crate::model::ModeOrderSpec {
                piece: name(*piece),
                mode: game.rules().mode_name(*mode).to_owned(),
            });
        }
        Action::Act {
            piece,
            action,
            target,
            intent,
        } => {
            spec.act = Some(crate::model::ActSpec {
                piece: name(*piece),
                action: game
                    .rules()
                    .actions
                    .get(action.index())
                    .map_or_else(String::new, |a| a.name.clone()),
                target: target.map(name),
                intent: intent.clone(),
            });
        }
        Action::EndPhase => spec.end_phase = true,
        Action::Redeploy { piece, to } => {
            spec.redeploy = Some(crate::model::RedeploySpec {
                piece: name(*piece),
                to: [to.col, to.row],
            });
        }
        Action::Save { piece, toward } => {
            spec.save = Some(crate::model::SaveSpec {
                piece: name(*piece),
                toward: [toward.col, toward.row],
            });
        }
        Action::Extend { piece, to } => {
            spec.extend = Some(crate::model::RedeploySpec {
                piece: name(*piece),
                to: [to.col, to.row],
            });
        }
        Action::Gather { piece } => spec.gather = Some(name(*piece)),
        Action::Deploy { piece, to, facing } => {
            spec.deploy = Some(crate::model::DeploySpec {
                piece: name(*piece),
                at: [to.col, to.row],
                facing: facing
                    .and_then(|f| game.board().grid().map(|g| g.facing_name(f).to_owned())),
            });
        }
    }
    spec
}

/// The side names of a scenario, for messages.
#[must_use]
pub fn scenario_sides(spec: &ScenarioSpec) -> Vec<String> {
    spec.sides.names().map(str::to_owned).collect()
}
