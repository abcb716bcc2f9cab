//! Distances a ruleset writes in its own measure — whole cells on a grid, rule inches edge
//! to edge on an open table: a command radius (`near`, which chart inputs and `while:`
//! conditions both read) and an effect's `fall_back:`. Charts and the engine's held
//! conditions both compile them, so they live below both (`charts` and `states` would
//! otherwise call into each other).

use grognard_kernel::cost::Cost;
use grognard_kernel::rules::Who;
use grognard_kernel::rules::states::{Near, WhenBlocked};

use crate::de::Located;
use crate::diag::Location;
use crate::model::EffectSpec;
use crate::number::CostValue;

use super::Cx;
use crate::names::{NameTable, kind};

/// A command radius from its types and distance, written at `at`: the distance is
/// required and above 0, the types are piece types of the ruleset.
pub(super) fn compile_near(
    cx: &mut Cx,
    types: &[Located<String>],
    within: Option<&Located<CostValue>>,
    at: &Location,
    names: &NameTable,
) -> Option<Near> {
    let types = names.ids(cx, kind::PieceType, types);
    let Some(within) = within else {
        cx.error(
            at,
            format!(
                "a command radius needs `within:`, how near the friend must be ({})",
                unit(names)
            ),
        );
        return None;
    };
    let within: Cost = within.value.into();
    if within <= Cost::ZERO {
        cx.error(at, format!("`within:` must be above 0 ({})", unit(names)));
        return None;
    }
    if !names.open && within.hundredths() % 100 != 0 {
        cx.error(
            at,
            format!(
                "`within: {within}` on a grid: cells are whole ({})",
                unit(names)
            ),
        );
        return None;
    }
    Some(Near { types, within })
}

/// The unit a distance is in, as a diagnostic names it.
fn unit(names: &NameTable) -> &'static str {
    if names.open {
        "rule inches, edge to edge, on this open table"
    } else {
        "cells on this grid"
    }
}

/// `fall_back: DISTANCE` (with `blocked:`), on `who`: whole cells on a grid.
pub(super) fn fall_back(
    cx: &mut Cx,
    e: &EffectSpec,
    d: &Located<CostValue>,
    who: Who,
    names: &NameTable,
) -> Option<grognard_kernel::rules::Effect> {
    let distance: Cost = d.value.into();
    if distance <= Cost::ZERO || (!names.open && distance.hundredths() % 100 != 0) {
        cx.error(
            &d.location,
            format!(
                "`fall_back: {distance}`: expected a distance above 0 ({})",
                unit(names)
            ),
        );
        return None;
    }
    let blocked = match e.blocked.as_ref().map(|b| b.value) {
        None | Some(crate::model::Blocked::Stop) => WhenBlocked::Stop,
        Some(crate::model::Blocked::Stay) => WhenBlocked::Stay,
        Some(crate::model::Blocked::Remove) => WhenBlocked::Remove,
    };
    Some(grognard_kernel::rules::Effect::FallBack {
        who,
        distance,
        blocked,
    })
}
