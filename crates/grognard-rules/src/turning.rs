//! Compiles the `turning:` rules of piece types and the ruleset's `slowed_by`, resolving
//! the counters, flags and optional rules they name.

use grognard_kernel::Cost;
use grognard_kernel::turning::{SlowedBy, Turning};

use crate::cx::Cx;
use crate::de::Located;
use crate::model::{SlowedBySpec, TurningSpec};
use crate::names::{NameTable, kind};

/// One piece type's `turning:` rules (`name` is the type, for messages).
pub(crate) fn compile_turning(
    cx: &mut Cx,
    names: &NameTable<'_>,
    name: &str,
    spec: Option<&TurningSpec>,
) -> Turning {
    let Some(spec) = spec else {
        return Turning::default();
    };
    let counter = spec
        .counter
        .as_ref()
        .and_then(|c| names.id(cx, kind::Counter, c));
    let cost = spec.cost.as_ref().map_or(Cost::ZERO, |c| c.value.0);
    if let Some(c) = &spec.cost {
        if cost.is_negative() {
            cx.error(
                &c.location,
                format!("piece type `{name}`: `turning.cost` cannot be negative"),
            );
        } else if cost > Cost::ZERO && spec.counter.is_none() {
            cx.error(
                &c.location,
                format!(
                    "piece type `{name}`: a facing change that costs points needs \
                     `turning.counter` (the counter that counts facing changes)"
                ),
            );
        }
    }
    let oblique_option = spec
        .oblique_option
        .as_ref()
        .and_then(|o| names.id(cx, kind::Optional, o));
    if let Some(o) = &spec.oblique_option
        && !spec.forward_only
    {
        cx.error(
            &o.location,
            format!(
                "piece type `{name}`: `turning.oblique_option` needs `forward_only: true` \
                 (only a piece that steps forward turns as it moves)"
            ),
        );
    }
    let mid_move = spec.mid_move.as_ref().is_some_and(|m| m.value);
    if let Some(m) = &spec.mid_move
        && m.value
        && (!spec.forward_only || spec.counter.is_none())
    {
        cx.error(
            &m.location,
            format!(
                "piece type `{name}`: `turning.mid_move` needs `forward_only: true` and \
                 `turning.counter` (a facing change inside a move is one of the counted ones)"
            ),
        );
    }
    let barred_by = spec
        .barred_by
        .iter()
        .filter_map(|f| names.id(cx, kind::Flag, f))
        .collect();
    Turning {
        forward_only: spec.forward_only,
        cost,
        most: spec.most,
        counter,
        oblique_option,
        mid_move,
        barred_by,
    }
}

/// The ruleset's `slowed_by` list.
pub(crate) fn compile_slowed_by(
    cx: &mut Cx,
    names: &NameTable<'_>,
    specs: &[Located<SlowedBySpec>],
) -> Vec<SlowedBy> {
    specs
        .iter()
        .filter_map(|entry| {
            let s = &entry.value;
            if s.flag.value.is_empty() {
                cx.error(
                    &entry.location,
                    "a `slowed_by` entry needs `flag:` (the flag that slows a piece)",
                );
                return None;
            }
            let flag = names.id(cx, kind::Flag, &s.flag)?;
            let option = match &s.option {
                Some(o) => Some(names.id(cx, kind::Optional, o)?),
                None => None,
            };
            Some(SlowedBy {
                flag,
                option,
                max_steps: s.max_steps,
            })
        })
        .collect()
}
