//! The cross-checks of a ruleset that build nothing: each reads the spec (and, for some,
//! what a section compiled) and reports what is wrong with its location — hook names and
//! `module.function` bindings, how many actions there are, pursuits, negative costs and
//! weights, and effects that would touch a flag the engine holds. The sections that
//! build the [`Rules`](grognard_kernel::rules::Rules) call them; they live here so a
//! reader looking for "where is X refused" finds every check of this kind in one file.

use grognard_kernel::rules::{ActionDef, FlagDef, TargetRule};

use crate::de::Located;
use crate::diag::Location;
use crate::model::{EffectSpec, RulesetSpec};
use crate::suggest::did_you_mean;

use super::bindings::split_binding;
use super::{Cx, HOOK_POINTS, MAX_ACTIONS};
use crate::names::{NameTable, kind};

/// Each `hooks:` entry names a hook point the kernel asks and binds a listed module.
pub(super) fn check_hooks(cx: &mut Cx, spec: &RulesetSpec, names: &NameTable) {
    for h in spec.hooks.iter() {
        if !HOOK_POINTS.contains(&h.name.value.as_str()) {
            let help = did_you_mean(&h.name.value, HOOK_POINTS.iter().copied())
                .map(|s| format!("did you mean `{s}`?"));
            cx.error_help(
                &h.name.location,
                format!(
                    "unknown hook `{}`; the kernel asks {}",
                    h.name.value,
                    HOOK_POINTS.join(", ")
                ),
                help,
            );
        }
        check_binding(cx, &h.value, names);
    }
}

/// Reports a ruleset with more actions than "used this phase" can hold.
pub(super) fn check_action_count(cx: &mut Cx, spec: &RulesetSpec) {
    if spec.actions.len() > MAX_ACTIONS {
        cx.error(
            &spec.ruleset.location,
            format!(
                "the ruleset declares {} actions; at most {MAX_ACTIONS}",
                spec.actions.len()
            ),
        );
    }
}

/// A pursuit (`pursue: ACTION`) takes an action that has a target (the unit beaten) and
/// does not pursue again itself, so one result sets off at most one more action.
pub(super) fn check_pursuits(cx: &mut Cx, spec: &RulesetSpec, defs: &[ActionDef]) {
    let pursues = |d: &ActionDef| {
        d.effects
            .iter()
            .flatten()
            .any(|e| matches!(e, grognard_kernel::rules::Effect::Pursue { .. }))
    };
    for a in spec.actions.iter() {
        for e in a.value.on.iter().flat_map(|o| o.value.iter()) {
            let Some(p) = &e.pursue else { continue };
            let Some(def) = defs.iter().find(|d| d.name == p.value) else {
                continue;
            };
            if def.target == TargetRule::None {
                cx.error(
                    &p.location,
                    format!(
                        "`pursue: {}`: a pursuit is taken against the unit just beaten, so \
                         `{}` needs a target (`target: enemy`)",
                        p.value, p.value
                    ),
                );
            } else if pursues(def) {
                cx.error(
                    &p.location,
                    format!(
                        "`pursue: {}`: `{}` pursues in turn; a pursuit may not set off another",
                        p.value, p.value
                    ),
                );
            }
        }
    }
}

pub(super) fn check_binding(cx: &mut Cx, binding: &Located<String>, names: &NameTable) {
    match split_binding(&binding.value) {
        Some((module, _)) => {
            let located = Located {
                value: module.to_owned(),
                location: binding.location.clone(),
            };
            names.index(cx, kind::Script, &located);
        }
        None => cx.error(
            &binding.location,
            format!(
                "`{}`: expected `module.function`, with the module listed under `scripts:`",
                binding.value
            ),
        ),
    }
}

/// Steps and allowances cannot be negative anywhere.
pub(super) fn check_not_negative(cx: &mut Cx, spec: &RulesetSpec) {
    let negative = |c: Option<&crate::number::CostValue>| c.is_some_and(|v| v.0.is_negative());
    if negative(spec.geometry.orthogonal.as_ref())
        || negative(spec.geometry.diagonal.as_ref())
        || negative(spec.geometry.step.as_ref())
    {
        let at = spec
            .geometry
            .kind
            .as_ref()
            .map_or(&spec.ruleset.location, |k| &k.location);
        cx.error(at, "step costs cannot be negative");
    }
    for p in spec.piece_types.iter() {
        if p.value.allowance.iter().any(|a| a.value.0.is_negative())
            || p.value.stack.iter().any(|a| a.value.0.is_negative())
        {
            cx.error(
                &p.name.location,
                format!(
                    "piece type `{}`: allowances and stacking weights cannot be negative",
                    p.name.value
                ),
            );
        }
    }
}

/// Held flags are the engine's: no effect, mark or move sets or clears them. Triggers have
/// no other piece, so they neither fall back nor follow up.
pub(super) fn check_effects(cx: &mut Cx, spec: &RulesetSpec, flags: &[FlagDef]) {
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
