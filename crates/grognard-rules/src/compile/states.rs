//! The conditions the engine keeps by itself (issue 36, second round): command radii
//! (`{ types: [general], within: 6 }`, read by chart inputs and flags; the radius itself is
//! compiled in `distances.rs`, which charts share), flags held while a
//! condition holds (`while:`) and a piece type's own counter triggers. The check that keeps
//! them meaningful (no effect sets or clears a held flag, no trigger falls back or follows
//! up) is in `checks.rs`.

use grognard_kernel::rules::states::{Holds, Near};
use grognard_kernel::rules::{
    Clears, CounterDef, FlagDef, PieceTypeDef, Trigger, TypeTriggers, Who,
};

use crate::amount::AmountScope;
use crate::de::Located;
use crate::diag::Location;
use crate::model::{NearSpec, RulesetSpec, TriggerSpec};

use super::Cx;
use super::charts::compile_effect;
use super::checks::check_effects;
use super::distances::compile_near;
use crate::names::{NameTable, kind};

fn near_of(cx: &mut Cx, spec: &Located<NearSpec>, names: &NameTable) -> Option<Near> {
    compile_near(
        cx,
        &spec.value.types,
        spec.value.within.as_ref(),
        &spec.location,
        names,
    )
}

/// Fills in each flag's `while:` condition and each piece type's own triggers, then checks
/// that no effect sets or clears a held flag and no trigger moves a unit.
pub(super) fn compile_states(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
    flags: &mut [FlagDef],
    piece_types: &mut [PieceTypeDef],
    counters: &[CounterDef],
) {
    for (f, def) in spec.flags.iter().zip(flags.iter_mut()) {
        let Some(w) = &f.value.holds else { continue };
        let v = &w.value;
        let kinds = [v.counter.is_some(), v.near.is_some(), v.not_near.is_some()];
        if kinds.iter().filter(|k| **k).count() != 1 {
            cx.error(
                &w.location,
                format!(
                    "flag `{}`: `while:` needs exactly one of `counter` (with `at_least` or \
                     `at_most`), `near` or `not_near`",
                    f.name.value
                ),
            );
            continue;
        }
        if let Some(c) = &f.value.clears
            && c.value != crate::model::Clears::Never
        {
            cx.error(
                &c.location,
                format!(
                    "flag `{}` is held while its `while:` holds; it cannot also clear at `{}`",
                    f.name.value,
                    c.value.word()
                ),
            );
        }
        def.clears = Clears::Never;
        def.holds_types = names.ids(cx, kind::PieceType, &v.types);
        def.holds = if let Some(c) = &v.counter {
            let Some(counter) = names.id(cx, kind::Counter, c) else {
                continue;
            };
            if v.at_least.is_none() && v.at_most.is_none() {
                cx.error(
                    &c.location,
                    format!(
                        "flag `{}`: `while: {{ counter: {} }}` needs `at_least` or `at_most`",
                        f.name.value, c.value
                    ),
                );
                continue;
            }
            Some(Holds::Counter {
                counter,
                at_least: v.at_least,
                at_most: v.at_most,
            })
        } else if let Some(n) = &v.near {
            near_of(cx, n, names).map(Holds::Near)
        } else if let Some(n) = &v.not_near {
            near_of(cx, n, names).map(Holds::NotNear)
        } else {
            None
        };
    }
    for (t, def) in spec.piece_types.iter().zip(piece_types.iter_mut()) {
        for list in t.value.triggers.iter() {
            let Some(counter) = names.id(cx, kind::Counter, &list.name) else {
                continue;
            };
            let max = counters.get(counter.index()).map_or(i32::MAX, |c| c.max);
            let mut triggers = Vec::new();
            for trigger in &list.value {
                if trigger.at > max {
                    cx.error(
                        &list.name.location,
                        format!(
                            "piece type `{}`: a trigger at {} {} is never reached: the counter \
                             stops at {max} (raise its `max:`)",
                            t.name.value, trigger.at, list.name.value
                        ),
                    );
                }
                triggers.push(compile_trigger(cx, trigger, names, &list.name.location));
            }
            def.triggers.push(TypeTriggers { counter, triggers });
        }
    }
    check_effects(cx, spec, flags);
}

fn compile_trigger(cx: &mut Cx, t: &TriggerSpec, names: &NameTable, at: &Location) -> Trigger {
    Trigger {
        at_least: t.at,
        effects: t
            .effects
            .iter()
            .filter_map(|e| {
                if e.to.is_some() {
                    cx.error(
                        at,
                        "a counter trigger acts on the piece carrying the counter; `to:` has \
                         no meaning here",
                    );
                    return None;
                }
                compile_effect(
                    cx,
                    e,
                    Who::Actor,
                    names,
                    at,
                    &AmountScope::none("a counter trigger"),
                )
            })
            .collect(),
    }
}
