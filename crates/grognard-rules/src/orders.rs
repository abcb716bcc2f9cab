//! Orders files (what players do, by name) ↔ kernel [`Order`]s.

use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::Cell;
use grognard_kernel::geometry::open::{Len, Point};
use grognard_kernel::ids::{PieceId, SideId};

use crate::model::{OrderKind, OrderSpec, ScenarioSpec};
use crate::scenario::{parse_angle, parse_facing};

/// Turns one order into a kernel order, resolving names against the game as the referee
/// may: every piece by its name.
///
/// # Errors
/// What name or value is wrong, in words.
pub fn resolve_order(game: &Game, order: &OrderSpec) -> Result<Order, String> {
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
/// What name or value is wrong, in words.
pub fn resolve_order_as(
    game: &Game,
    order: &OrderSpec,
    viewer: Option<SideId>,
) -> Result<Order, String> {
    let side = game.side_by_name(&order.side).ok_or_else(|| {
        format!(
            "unknown side `{}`; the sides are {}",
            order.side,
            side_list(game)
        )
    })?;
    // `#N` names a piece by the ordering side's handle for it (what its view shows for
    // pieces it has not identified). A handle the side was never given is refused with one
    // wording, so naming one says nothing of what is there.
    let piece = |name: &str| -> Result<PieceId, String> {
        if let Some(n) = name.strip_prefix('#') {
            let handle: u32 = n
                .parse()
                .map_err(|_| format!("`{name}` is not a piece handle (`#` and a number)"))?;
            return game
                .piece_by_handle(side, handle)
                .ok_or_else(|| format!("no such enemy piece known to {}", order.side));
        }
        game.piece_by_name(name)
            .map(|p| p.id)
            .filter(|id| viewer.is_none_or(|v| game.order_name_as(Some(v), *id) == name))
            .ok_or_else(|| format!("unknown piece `{name}`"))
    };
    let action = match order.kind().map_err(|e| e.to_string())? {
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
            facing: m.facing.map(|f| parse_angle(&f.to_string())).transpose()?,
        },
        OrderKind::Face(f) => {
            let grid = game
                .board()
                .grid()
                .ok_or("on an open table, give the facing with `move_to`")?;
            Action::Face {
                piece: piece(&f.piece)?,
                facing: parse_facing(grid, &f.facing)?,
            }
        }
        OrderKind::Mode(m) => {
            let mode = game
                .rules()
                .mode_by_name(&m.mode)
                .ok_or_else(|| format!("unknown mode `{}`", m.mode))?;
            Action::Mode {
                piece: piece(&m.piece)?,
                mode,
            }
        }
        OrderKind::Act(a) => {
            let action = game
                .rules()
                .action_by_name(&a.action)
                .ok_or_else(|| format!("unknown action `{}`", a.action))?;
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
                (Some(f), Some(grid)) => Some(parse_facing(grid, f)?),
                (Some(_), None) => return Err("a set-up needs a grid board".into()),
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
fn inches(v: f64) -> Result<Len, String> {
    if v.is_finite() && v.abs() <= 100_000.0 {
        Ok(Len((v * 1000.0).round() as i64))
    } else {
        Err(format!(
            "{} is not a distance in inches",
            grognard_kernel::text::number(v)
        ))
    }
}

fn side_list(game: &Game) -> String {
    game.sides()
        .iter()
        .map(|s| s.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
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
