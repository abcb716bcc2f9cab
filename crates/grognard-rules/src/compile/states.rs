//! The conditions the engine keeps by itself (issue 36, second round): command radii
//! (`{ types: [general], within: 6 }`, read by chart inputs and flags), flags held while a
//! condition holds (`while:`), a piece type's own counter triggers, and the checks that
//! keep them meaningful: no effect sets or clears a held flag, no trigger falls back or
//! follows up (a trigger has no other piece to move from or to).

use grognard_kernel::cost::Cost;
use grognard_kernel::ids::{CounterId, PieceTypeId};
use grognard_kernel::rules::states::{Holds, Near, WhenBlocked};
use grognard_kernel::rules::{
    Clears, CounterDef, FlagDef, PieceTypeDef, Trigger, TypeTriggers, Who,
};

use crate::amount::AmountScope;
use crate::de::Located;
use crate::diag::Location;
use crate::model::{EffectSpec, NearSpec, RulesetSpec, TriggerSpec};
use crate::number::CostValue;

use super::Cx;
use super::charts::compile_effect;
use super::names::Names;

/// A command radius from its types and distance, written at `at`: the distance is
/// required and above 0, the types are piece types of the ruleset.
pub(super) fn compile_near(
    cx: &mut Cx,
    types: &[Located<String>],
    within: Option<&Located<CostValue>>,
    at: &Location,
    names: &Names,
) -> Option<Near> {
    let types = cx.lookup_ids::<PieceTypeId>("piece type", types, &names.types);
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

fn unit(names: &Names) -> &'static str {
    if names.open {
        "rule inches, edge to edge, on this open table"
    } else {
        "cells on this grid"
    }
}

fn near_of(cx: &mut Cx, spec: &Located<NearSpec>, names: &Names) -> Option<Near> {
    compile_near(
        cx,
        &spec.value.types,
        spec.value.within.as_ref(),
        &spec.location,
        names,
    )
}

/// `fall_back: DISTANCE` (with `blocked:`), on `who`: whole cells on a grid.
pub(super) fn fall_back(
    cx: &mut Cx,
    e: &EffectSpec,
    d: &Located<CostValue>,
    who: Who,
    names: &Names,
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

/// Fills in each flag's `while:` condition and each piece type's own triggers, then checks
/// that no effect sets or clears a held flag and no trigger moves a unit.
pub(super) fn compile_states(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &Names,
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
        def.holds_types = cx.lookup_ids::<PieceTypeId>("piece type", &v.types, &names.types);
        def.holds = if let Some(c) = &v.counter {
            let Some(counter) = cx.lookup_id::<CounterId>("counter", c, &names.counters) else {
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
            let Some(counter) = cx.lookup_id::<CounterId>("counter", &list.name, &names.counters)
            else {
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

fn compile_trigger(cx: &mut Cx, t: &TriggerSpec, names: &Names, at: &Location) -> Trigger {
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

/// Held flags are the engine's: no effect, mark or move sets or clears them. Triggers have
/// no other piece, so they neither fall back nor follow up.
fn check_effects(cx: &mut Cx, spec: &RulesetSpec, flags: &[FlagDef]) {
    let held = |name: &str| flags.iter().any(|f| f.name == name && f.holds.is_some());
    let refuse = |cx: &mut Cx, name: &Located<String>, how: &str| {
        if held(&name.value) {
            cx.error(
                &name.location,
                format!(
                    "flag `{}` is kept by the engine while its `while:` holds; {how} cannot set \
                     or clear it",
                    name.value
                ),
            );
        }
    };
    let each_effect = |cx: &mut Cx, e: &EffectSpec, trigger: Option<&Location>| {
        for f in e.set.iter().chain(e.clear.iter()) {
            refuse(cx, f, "an effect");
        }
        if let Some(at) = trigger
            && (e.fall_back.is_some() || e.follow_up.is_some() || e.pursue.is_some())
        {
            cx.error(
                at,
                "a counter trigger has no other piece to fall back from, follow up or pursue: \
                 use `fall_back`, `follow_up` and `pursue` in an action's results",
            );
        }
    };
    for c in spec.counters.iter() {
        for t in &c.value.triggers {
            for e in &t.effects {
                each_effect(cx, e, Some(&c.name.location));
            }
        }
    }
    for t in spec.piece_types.iter() {
        for list in t.value.triggers.iter() {
            for trigger in &list.value {
                for e in &trigger.effects {
                    each_effect(cx, e, Some(&list.name.location));
                }
            }
        }
        for a in &t.value.after_move {
            each_effect(
                cx,
                &EffectSpec {
                    set: Some(a.set.clone()),
                    ..EffectSpec::default()
                },
                None,
            );
        }
    }
    for a in spec.actions.iter() {
        for list in a.value.on.iter() {
            for e in &list.value {
                each_effect(cx, e, None);
            }
        }
        if let Some(m) = &a.value.marks {
            refuse(cx, m, "an action's `marks:`");
        }
    }
    if let Some(f) = spec
        .open_table
        .as_ref()
        .and_then(|o| o.contact_flag.as_ref())
    {
        refuse(cx, f, "`contact_flag`");
    }
}
