//! The move hooks' arguments and the `may_move` check: what a script is told of a move.
//!
//! `moved(game, unit, path, facing)` runs after a move, `path` holding its cells on a grid
//! or its start and end points on an open table, `facing` the facing before it.
//! `may_move(game, unit, path, facing)` is the check beside it, with the same `path` (on an
//! open table with the facing the move would end with, on a grid with the facing before
//! it, as `moved`). It reads the game as it stood before the order and answers `nil` or the
//! reason the move is refused. On an open table it is asked after the move's own checks,
//! before `moved`; on a grid, once the move is resolved and `moved` has run (so a refusal
//! from `moved` is the one reported; the answer is the same, read from the earlier state). The legal listing asks
//! it for every candidate move instead of trying the move with `moved`, which is the whole
//! point of binding it.
//!
//! `may_move_all(game, unit, from, moves)` is its batch form, one call for all of a piece's
//! candidate open-table moves: `from` is where the unit stands (`{x=, y=}`), `moves` a list
//! of `{x=, y=, facing=}` end points with the facing each would end with, and the answer
//! `nil` (every move allowed) or a table of reasons by move number, each a string or
//! absent (that move allowed). `apply` asks it with the one move it makes. A ruleset binds
//! one form or the other: each Lua call costs about as much as a short check, and a piece
//! has some fifteen candidate moves in a listing.

use grognard_kernel::game::World;
use grognard_kernel::geometry::open::{Angle, Len, Point};
use grognard_kernel::geometry::{Cell, Facing};
use grognard_kernel::hooks::{HookFailure, HookPoint};
use grognard_kernel::ids::PieceId;
use grognard_kernel::piece::Place;
use grognard_rules::diag::{Diagnostic, Diagnostics};
use grognard_rules::load::Ruleset;
use grognard_rules::model::GeometryKind;
use mlua::Table;

use super::{Bound, LuaHooks};
use crate::names::unit_handle;

/// Table inches, as scripts read positions.
fn inches(l: Len) -> f64 {
    l.0 as f64 / 1000.0
}

/// Degrees, as scripts read facings.
pub(super) fn degrees(facing: Angle) -> f64 {
    f64::from(facing.tenths()) / 10.0
}

/// The `path` of an open-table move: its start and its end as `{x=, y=}` points.
pub(super) fn table_path(lua: &mlua::Lua, from: Point, to: Option<Point>) -> Option<Table> {
    let mut points = vec![(inches(from.x), inches(from.y))];
    if let Some(to) = to {
        points.push((inches(to.x), inches(to.y)));
    }
    pair_list(lua, ("x", "y"), &points)
}

/// A Lua list of two-field tables (`{col=, row=}` cells of a path, `{x=, y=}` points). A
/// few hundred entries at most: building it cannot fail short of running out of memory,
/// which the sandbox reports on the next allocation, so a failure leaves the list short.
pub(super) fn pair_list<T: mlua::IntoLua + Copy>(
    lua: &mlua::Lua,
    (a, b): (&str, &str),
    items: &[(T, T)],
) -> Option<Table> {
    let list = lua.create_table_with_capacity(items.len(), 0).ok()?;
    for (x, y) in items {
        if let Ok(t) = lua.create_table_with_capacity(0, 2) {
            let _ = t.raw_set(a, *x);
            let _ = t.raw_set(b, *y);
            let _ = list.raw_push(t);
        }
    }
    Some(list)
}

impl LuaHooks {
    /// Asks the ruleset's `may_move`, when it binds one, whether `piece` may move to `to`
    /// ending turned to `facing` (see the module doc).
    pub(super) fn ask_may_move(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        to: Point,
        facing: Angle,
    ) -> Result<(), HookFailure> {
        if self.bound(HookPoint::MayMove).is_none() {
            // The batch form answers for the one move.
            return self
                .ask_may_move_all(world, piece, &[(to, facing)])
                .into_iter()
                .next()
                .unwrap_or(Ok(()));
        }
        self.constants_for(world)?;
        let Some(bound) = self.bound(HookPoint::MayMove) else {
            return Ok(());
        };
        let Some(Place::Point { at, .. }) = world.state.pieces.get(piece.index()).map(|p| &p.place)
        else {
            return Ok(());
        };
        let from = *at;
        let what = format!("hook may_move ({})", bound.label);
        self.run_check(bound, &what, world, &[], |game, lua| {
            let path = table_path(lua, from, Some(to));
            Ok((game, unit_handle(lua, piece)?, path, degrees(facing)))
        })
    }

    /// Asks the ruleset's `may_move`, when it binds one, whether `piece` may move along the
    /// grid cells `path` (its start first), `facing` its facing before the move.
    pub(super) fn ask_may_move_on_grid(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        path: &[Cell],
        facing: Facing,
    ) -> Result<(), HookFailure> {
        if self.bound(HookPoint::MayMove).is_none() {
            return Ok(());
        }
        self.constants_for(world)?;
        let Some(bound) = self.bound(HookPoint::MayMove) else {
            return Ok(());
        };
        let what = format!("hook may_move ({})", bound.label);
        let facing = world.board.grid().map(|g| g.facing_name(facing).to_owned());
        self.run_check(bound, &what, world, &[], |game, lua| {
            let cells: Vec<(i32, i32)> = path.iter().map(|c| (c.col, c.row)).collect();
            let list = pair_list(lua, ("col", "row"), &cells);
            Ok((game, unit_handle(lua, piece)?, list, facing))
        })
    }

    /// Asks the ruleset's `may_move_all` about every move of `piece` in `moves` (end points
    /// and the facing each ends with) in one call, or its `may_move` once per move when it
    /// binds that form; one answer per move, in order (see the module doc). A wrong answer
    /// — not `nil` nor a table, a key that is no move's number, a reason that is no string
    /// — is the hook's fault, named with the script's file and line, and refuses them all.
    pub(super) fn ask_may_move_all(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        moves: &[(Point, Angle)],
    ) -> Vec<Result<(), HookFailure>> {
        if self.bound(HookPoint::MayMoveAll).is_none() {
            return moves
                .iter()
                .map(|&(to, facing)| self.ask_may_move(world, piece, to, facing))
                .collect();
        }
        if moves.is_empty() {
            return Vec::new();
        }
        if let Err(e) = self.constants_for(world) {
            return vec![Err(e); moves.len()];
        }
        let Some(bound) = self.bound(HookPoint::MayMoveAll) else {
            return vec![Ok(()); moves.len()];
        };
        let Some(Place::Point { at, .. }) = world.state.pieces.get(piece.index()).map(|p| &p.place)
        else {
            return vec![Ok(()); moves.len()];
        };
        let from = *at;
        let what = format!("hook may_move_all ({})", bound.label);
        let value = self.run_check_value(bound, &what, world, &[], |game, lua| {
            let list = lua.create_table_with_capacity(moves.len(), 0)?;
            for &(to, facing) in moves {
                let m = lua.create_table_with_capacity(0, 3)?;
                m.raw_set("x", inches(to.x))?;
                m.raw_set("y", inches(to.y))?;
                m.raw_set("facing", degrees(facing))?;
                list.raw_push(m)?;
            }
            let start = lua.create_table_with_capacity(0, 2)?;
            start.raw_set("x", inches(from.x))?;
            start.raw_set("y", inches(from.y))?;
            Ok((game, unit_handle(lua, piece)?, start, list))
        });
        match value {
            Err(e) => vec![Err(e); moves.len()],
            Ok(value) => self
                .batch_answers(bound, value, moves.len(), ("may_move_all", "move"))
                .unwrap_or_else(|e| vec![Err(e); moves.len()]),
        }
    }
}

/// A ruleset binds `may_move` in one form: both bound would leave the listing and `apply`
/// asking different functions. The batch form judges open-table moves only.
pub(super) fn check_may_move_forms(
    ruleset: &Ruleset,
    points: &[Option<Bound>],
    problems: &mut Diagnostics,
) {
    if points[HookPoint::MayMoveAll.index()].is_none() {
        return;
    }
    let Some(at) = ruleset
        .spec
        .hooks
        .iter()
        .find(|h| h.name.value == HookPoint::MayMoveAll.name())
        .map(|h| h.name.location.clone())
    else {
        return;
    };
    if points[HookPoint::MayMove.index()].is_some() {
        problems.push(Diagnostic::new(
            at,
            "bind `may_move` or its batch form `may_move_all`, not both: the listing asks \
             one and `apply` would ask the other"
                .to_owned(),
        ));
    } else if !ruleset
        .spec
        .geometry
        .kind
        .as_ref()
        .is_some_and(|k| k.value == GeometryKind::Open)
    {
        problems.push(Diagnostic::new(
            at,
            "`may_move_all` judges open-table moves (`geometry: { kind: open }`); on a grid \
             bind `may_move`"
                .to_owned(),
        ));
    }
}
