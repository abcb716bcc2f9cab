//! The move hooks' arguments and the `may_move` check: what a script is told of a move.
//!
//! `moved(game, unit, path, facing)` runs after a move, `path` holding its cells on a grid
//! or its start and end points on an open table, `facing` the facing before it.
//! `may_move(game, unit, path, facing)` is the open-table check beside it: asked before the
//! move, with the same `path` and the facing the move would end with, it reads the game as
//! it stands and answers `nil` or the reason the move is refused. The legal listing asks
//! it for every candidate move instead of trying the move with `moved`, which is the whole
//! point of binding it.

use grognard_kernel::game::World;
use grognard_kernel::geometry::open::{Angle, Len, Point};
use grognard_kernel::hooks::{HookFailure, HookPoint};
use grognard_kernel::ids::PieceId;
use mlua::Table;

use super::LuaHooks;
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
            return Ok(());
        }
        self.constants_for(world)?;
        let Some(bound) = self.bound(HookPoint::MayMove) else {
            return Ok(());
        };
        let Some(grognard_kernel::piece::Place::Point { at, .. }) =
            world.state.pieces.get(piece.index()).map(|p| &p.place)
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
}
