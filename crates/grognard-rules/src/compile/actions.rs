//! What pieces do and what happens to them: counters with their triggers, and the
//! ruleset's actions (checks, chart, effects by outcome, scripts). The checks of hook
//! bindings, of the number of actions and of pursuits are in `checks.rs`.

use grognard_kernel::Cost;
use grognard_kernel::chart::ChartDef;
use grognard_kernel::geometry::Arc;
use grognard_kernel::ids::{FlagId, PieceTypeId};
use grognard_kernel::rules::{ActionDef, CounterDef, TargetRule, Trigger, Who};

use crate::de::Located;
use crate::model::{self, ActionSpec, ArcName, EffectTo, RulesetSpec};

use super::Cx;
use super::charts::compile_effect;
use super::checks::{check_binding, check_pursuits};
use crate::amount::AmountScope;
use crate::names::{NameTable, kind};

/// The counters, each with its bounds and the effects of its thresholds on the piece
/// carrying it.
pub(super) fn compile_counters(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
) -> Vec<CounterDef> {
    spec.counters
        .iter()
        .map(|c| {
            let v = &c.value;
            let max = v.max.unwrap_or(i32::MAX);
            if max < v.min {
                cx.error(
                    &c.name.location,
                    format!(
                        "counter `{}`: max {max} is below min {}",
                        c.name.value, v.min
                    ),
                );
            }
            CounterDef {
                name: c.name.value.clone(),
                called: v.called.clone().unwrap_or_default(),
                initial: v.initial.clamp(v.min, max.max(v.min)),
                min: v.min,
                max,
                triggers: v
                    .triggers
                    .iter()
                    .map(|t| Trigger {
                        at_least: t.at,
                        effects: t
                            .effects
                            .iter()
                            .filter_map(|e| {
                                if let Some(to) =
                                    e.to.as_ref().filter(|t| t.value == EffectTo::Target)
                                {
                                    cx.error(
                                        &to.location,
                                        "a counter trigger acts on the piece carrying the \
                                         counter; `to: target` has no meaning here",
                                    );
                                    return None;
                                }
                                compile_effect(
                                    cx,
                                    e,
                                    Who::Actor,
                                    names,
                                    &c.name.location,
                                    &AmountScope::none("a counter trigger"),
                                )
                            })
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The actions (at most [`MAX_ACTIONS`]).
pub(super) fn compile_actions(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
    charts: &[ChartDef],
) -> Vec<ActionDef> {
    let defs: Vec<ActionDef> = spec
        .actions
        .iter()
        .map(|a| compile_action(cx, spec, names, charts, &a.name, &a.value))
        .collect();
    check_pursuits(cx, spec, &defs);
    defs
}

/// An `on:` name the chart's rows lost because a row written in another file (an overlay
/// that replaced the rows) misspells it: the mistake is the row's, so it is reported at
/// the row, with the name the action handles (`hrt` → `hurt`), and not at the inherited
/// `on:` line, which is right. True when so reported.
fn misspelt_row(
    cx: &mut Cx,
    action: &Located<String>,
    on: &Located<String>,
    rows: &[crate::model::RowSpec],
    v: &ActionSpec,
) -> bool {
    if rows.iter().any(|r| r.result.value == on.value) {
        return false;
    }
    let handled = |r: &str| v.on.iter().any(|o| o.name.value == r);
    let Some(row) = rows.iter().find(|r| {
        !handled(&r.result.value)
            && r.result.location.file != on.location.file
            && crate::suggest::did_you_mean(&r.result.value, [on.value.as_str()]).is_some()
    }) else {
        return false;
    };
    cx.error_help(
        &row.result.location,
        format!(
            "outcome `{}`: action `{}` handles no such outcome",
            row.result.value, action.value
        ),
        Some(format!(
            "did you mean `{}`? (action `{}` handles it at {})",
            on.value, action.value, on.location
        )),
    );
    true
}

fn compile_action(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
    charts: &[ChartDef],
    name: &Located<String>,
    v: &ActionSpec,
) -> ActionDef {
    let chart = v.chart.as_ref().and_then(|c| names.id(cx, kind::Chart, c));
    let target = match v.target.as_ref().map(|t| t.value) {
        None | Some(model::Target::None) => TargetRule::None,
        Some(model::Target::Enemy) => TargetRule::Enemy,
        Some(model::Target::Friend) => TargetRule::Friend,
    };
    let arcs = v
        .arcs
        .iter()
        .map(|arc| match arc.value {
            ArcName::Front => Arc::Front,
            ArcName::Flank => Arc::Flank,
            ArcName::Rear => Arc::Rear,
        })
        .collect();
    let outcomes: Vec<String> = chart
        .and_then(|c| charts.get(c.index()))
        .map_or_else(|| vec!["always".to_owned()], |c| c.outcomes.clone());
    let chart_def = chart.and_then(|c| charts.get(c.index()));
    let place = format!("action `{}`", name.value);
    let inputs: Vec<&str> = chart_def
        .map(|c| c.inputs.iter().map(|i| i.name.as_str()).collect())
        .unwrap_or_default();
    let scope = chart_def.map_or_else(
        || AmountScope::none(&place),
        |c| AmountScope::of_chart(c, &inputs, &place),
    );
    let mut effects = vec![Vec::new(); outcomes.len()];
    let rows = v
        .chart
        .as_ref()
        .and_then(|c| spec.charts.get(&c.value))
        .map_or(&[][..], |c| c.rows.as_slice());
    for on in v.on.iter() {
        if misspelt_row(cx, name, &on.name, rows, v) {
            continue;
        }
        let Some(i) = cx.lookup("outcome", &on.name, outcomes.iter().map(String::as_str)) else {
            continue;
        };
        effects[i] = on
            .value
            .iter()
            .filter_map(|e| compile_effect(cx, e, Who::Target, names, &on.name.location, &scope))
            .collect();
    }
    if let Some(script) = &v.script {
        check_binding(cx, script, names);
    }
    if let Some(check) = &v.check {
        check_binding(cx, check, names);
    }
    if let Some(all) = &v.check_all {
        check_binding(cx, all, names);
        if v.check.is_some() {
            cx.error(
                &all.location,
                "`check_all` is the batch form of `check`: give one or the other",
            );
        } else if target == TargetRule::None {
            cx.error(
                &all.location,
                "`check_all` answers for many targets at once: an action with no target \
                 has one `check`",
            );
        }
    }
    let contact = v.contact.as_ref().is_some_and(|c| c.value);
    if let Some(c) = v.contact.as_ref().filter(|c| c.value) {
        if target == TargetRule::None {
            cx.error(
                &c.location,
                "`contact: true` needs a target to contact (`target: enemy` or `friend`)",
            );
        } else if !names.open {
            cx.error(
                &c.location,
                "`contact: true` is for open tables (`geometry: { kind: open }`), where \
                 units stand on bases; on a grid, units in adjacent cells are in contact",
            );
        }
    }
    ActionDef {
        contact,
        private: v.private,
        scripted: v.script.is_some(),
        checked: v.check.is_some() || v.check_all.is_some(),
        repeats: v.repeats,
        intents: v.intents.iter().map(|i| i.value.clone()).collect(),
        name: name.value.clone(),
        chart,
        target,
        range: compile_range(cx, names, v),
        arcs,
        needs_sight: v.sight,
        barred_by: names.ids(cx, kind::Flag, &v.barred_by),
        needs: names.ids(cx, kind::Flag, &v.needs),
        marks: v.marks.as_ref().and_then(|f| names.id(cx, kind::Flag, f)),
        effects,
        types: names.ids(cx, kind::PieceType, &v.types),
        target_types: target_filter(cx, names, v, &v.target_types, target),
        target_not_types: target_filter(cx, names, v, &v.target_not_types, target),
        target_needs: target_flags(cx, names, v, &v.target_needs, target),
        target_barred_by: target_flags(cx, names, v, &v.target_barred_by, target),
    }
}

/// `target_needs:` or `target_barred_by:`: flag names, for an action that has a target; a
/// flag in both would bar every target, and is refused at its second mention.
fn target_flags(
    cx: &mut Cx,
    names: &NameTable,
    v: &ActionSpec,
    list: &[Located<String>],
    target: TargetRule,
) -> Vec<FlagId> {
    let Some(first) = list.first() else {
        return Vec::new();
    };
    if target == TargetRule::None {
        cx.error(
            &first.location,
            "a target flag filter needs a target (`target: enemy` or `friend`)",
        );
    } else if std::ptr::eq(list, v.target_barred_by.as_slice()) {
        for f in list {
            if v.target_needs.iter().any(|n| n.value == f.value) {
                cx.error(
                    &f.location,
                    format!(
                        "flag `{}` is in both `target_needs` and `target_barred_by`: no \
                         target could be taken",
                        f.value
                    ),
                );
            }
        }
    }
    names.ids(cx, kind::Flag, list)
}

/// `range: [lo, hi]`: whole cells on a grid; on an open table rule inches to the hundredth,
/// which the kernel compares with the exact distance.
fn compile_range(cx: &mut Cx, names: &NameTable, v: &ActionSpec) -> Option<(Cost, Cost)> {
    let range = v.range.as_ref()?;
    let [lo, hi] = range.value;
    let (lo, hi) = (lo.0, hi.0);
    if lo < Cost::ZERO || hi < Cost::ZERO {
        cx.error(
            &range.location,
            format!("`range: [{lo}, {hi}]`: a distance cannot be negative"),
        );
    } else if hi < lo {
        cx.error(
            &range.location,
            format!("`range: [{lo}, {hi}]`: the nearest distance is beyond the farthest"),
        );
    } else if !names.open && (lo.hundredths() % 100 != 0 || hi.hundredths() % 100 != 0) {
        cx.error_help(
            &range.location,
            format!("`range: [{lo}, {hi}]`: a grid counts whole cells"),
            Some(
                "fractions of an inch are for open tables (`geometry: { kind: open }`)".to_owned(),
            ),
        );
    }
    Some((lo, hi))
}

/// `target_types:` or `target_not_types:`: type names, for an action that has a target;
/// giving both is refused at the second (one of them says it all).
fn target_filter(
    cx: &mut Cx,
    names: &NameTable,
    v: &ActionSpec,
    list: &[Located<String>],
    target: TargetRule,
) -> Vec<PieceTypeId> {
    let Some(first) = list.first() else {
        return Vec::new();
    };
    if target == TargetRule::None {
        cx.error(
            &first.location,
            "a target type filter needs a target (`target: enemy` or `friend`)",
        );
    } else if std::ptr::eq(list, v.target_not_types.as_slice()) && !v.target_types.is_empty() {
        cx.error(
            &first.location,
            "give `target_types` (the types it may target) or `target_not_types` (those it \
             may not), not both",
        );
    }
    names.ids(cx, kind::PieceType, list)
}
