//! The quick-reference sheet's sections on the pieces themselves and on how a game is won:
//! each piece type's attributes, how it turns, what its moves set and what it needs to
//! move; the flags that hold a piece still; the ruleset's victory conditions; and the exact
//! distribution of every computed amount (hits equal to the score...) at the chart's
//! default inputs. [`crate::sheet`] calls these between its own sections; the escaping and
//! house-rule marks are its.

use core::fmt::Write as _;

use grognard_kernel::ids::ChartId;
use grognard_kernel::rules::Pivot;

use crate::cx::FromIndex as _;
use crate::html::escape;
use crate::load::Ruleset;

/// `a, b, c`, or `—` when empty.
fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<&str> = names.collect();
    if all.is_empty() {
        "—".to_owned()
    } else {
        all.join(", ")
    }
}

/// How a pivot reads: `wheels about a front corner`, `turns free about its centre`, `2 to
/// turn`.
fn pivot_text(p: Pivot) -> String {
    match p {
        Pivot::Wheel => "wheels".to_owned(),
        Pivot::Free => "turns free".to_owned(),
        Pivot::Cost(c) => format!("{c} to turn"),
    }
}

/// One row per piece type: its attributes, how it turns (open table: per mode; grids: the
/// cost and number of facing changes), the flags its moves set, its own counter triggers,
/// and the command it needs to move.
pub(crate) fn piece_types(h: &mut String, r: &Ruleset) {
    let rules = &r.rules;
    let spec = &r.spec;
    if spec.piece_types.is_empty() {
        return;
    }
    let open = matches!(
        rules.geometry,
        grognard_kernel::rules::GeometryRules::Open { .. }
    );
    let _ = writeln!(h, "<h2>Piece types</h2>");
    h.push_str("<table>\n<tr><th>piece type</th><th>attributes</th><th>turning</th><th>a move sets</th><th>own rules</th></tr>\n");
    for (i, t) in spec.piece_types.iter().enumerate() {
        let Some(def) = rules.piece_types.get(i) else {
            continue;
        };
        let attributes = list(
            t.value
                .attributes
                .iter()
                .map(|a| format!("{} {}", a.name.value, a.value))
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str),
        );
        let turning = if open {
            let mut by_mode: Vec<String> = Vec::new();
            for (m, mode) in rules.modes.iter().enumerate() {
                if def.allowance.get(m).is_some_and(Option::is_some) {
                    let p = rules
                        .open_table
                        .pivot(def_id(i), grognard_kernel::ids::ModeId::from_index(m));
                    by_mode.push(format!("{}: {}", mode.name, pivot_text(p)));
                }
            }
            by_mode.join("; ")
        } else if !def.faces {
            "no facing".to_owned()
        } else {
            let turn = &def.turning;
            let mut parts = Vec::new();
            if turn.forward_only {
                parts.push("moves only forward".to_owned());
            }
            parts.push(format!("a facing change costs {}", turn.cost));
            if let Some(n) = turn.most {
                parts.push(format!("at most {n} a move"));
            }
            parts.join("; ")
        };
        let sets = list(
            t.value
                .after_move
                .iter()
                .map(|a| {
                    let mut s = a.set.value.clone();
                    if a.min_steps > 0 {
                        let _ = write!(s, " (after {}+ steps)", a.min_steps);
                    }
                    if !a.into.is_empty() {
                        let into: Vec<&str> = a.into.iter().map(|x| x.value.as_str()).collect();
                        let _ = write!(s, " (entering {})", into.join(", "));
                    }
                    s
                })
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str),
        );
        let own = type_rules(r, i);
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&t.name.value),
            escape(&attributes),
            escape(&turning),
            escape(&sets),
            escape(&list(own.iter().map(String::as_str)))
        );
    }
    h.push_str("</table>\n");
    if !spec.pinned_by.is_empty() {
        let _ = writeln!(
            h,
            "<p>A piece with any of these flags may not move: {}.</p>",
            escape(&list(spec.pinned_by.iter().map(|f| f.value.as_str())))
        );
    }
}

/// What a piece type does that others may not, in words: the rules of its own.
fn type_rules(r: &Ruleset, i: usize) -> Vec<String> {
    let rules = &r.rules;
    let Some(def) = rules.piece_types.get(i) else {
        return Vec::new();
    };
    let mut own = Vec::new();
    for t in &def.triggers {
        let at: Vec<String> = t
            .triggers
            .iter()
            .map(|x| {
                let what: Vec<String> = x.effects.iter().map(|e| effect_word(r, e)).collect();
                format!("{} at {}", what.join(" and "), x.at_least)
            })
            .collect();
        own.push(format!(
            "{}: {} (instead of the counter's own)",
            rules.counter_name(t.counter),
            at.join("; ")
        ));
    }
    if def.moves == grognard_kernel::rules::MoveLimit::PerTurn {
        own.push("moves once a turn".to_owned());
    }
    for (on, text) in [
        (def.passes_friends, "passes through friends"),
        (def.shares_with_enemy, "shares a place with the enemy"),
        (def.takes_no_room, "takes no room"),
        (def.dummy, "a dummy"),
    ] {
        if on {
            own.push(text.to_owned());
        }
    }
    own
}

/// A trigger's effect in a word or two: `removed`, `set shaken`, `+1 hits`.
fn effect_word(r: &Ruleset, e: &grognard_kernel::rules::Effect) -> String {
    use grognard_kernel::rules::Effect;
    let rules = &r.rules;
    match e {
        Effect::Remove { .. } => "removed".to_owned(),
        Effect::AddCounter {
            counter, amount, ..
        } => {
            format!("{amount:+} {}", rules.counter_name(*counter))
        }
        Effect::SetFlag { flag, on, .. } => {
            format!(
                "{} {}",
                if *on { "set" } else { "clear" },
                rules.flag_name(*flag)
            )
        }
        Effect::SetMode { mode, .. } => format!("{} mode", rules.mode_name(*mode)),
        _ => "an effect".to_owned(),
    }
}

/// How a flag kept by a condition (`while:`) reads: `held while hits is 4 or more`,
/// `held while no general is within 6`. `None` for a flag without one.
pub(crate) fn held_text(r: &Ruleset, flag: &str) -> Option<String> {
    use grognard_kernel::rules::states::Holds;
    let rules = &r.rules;
    let def = rules.flags.iter().find(|f| f.name == flag)?;
    let holds = def.holds.as_ref()?;
    let only: Vec<&str> = def
        .holds_types
        .iter()
        .filter_map(|t| rules.piece_type(*t).map(|d| d.name.as_str()))
        .collect();
    let only = if only.is_empty() {
        String::new()
    } else {
        format!(" (only {})", only.join(", "))
    };
    let near = |n: &grognard_kernel::rules::states::Near| {
        let types: Vec<&str> = n
            .types
            .iter()
            .filter_map(|t| rules.piece_type(*t).map(|d| d.name.as_str()))
            .collect();
        let who = if types.is_empty() {
            "friend".to_owned()
        } else {
            types.join(" or ")
        };
        (who, n.within)
    };
    let text = match holds {
        Holds::Counter {
            counter,
            at_least,
            at_most,
        } => {
            let name = rules.counter_name(*counter);
            match (at_least, at_most) {
                (Some(lo), Some(hi)) => format!("held while {name} is {lo} to {hi}"),
                (Some(lo), None) => format!("held while {name} is {lo} or more"),
                (None, Some(hi)) => format!("held while {name} is {hi} or less"),
                (None, None) => format!("held by {name}"),
            }
        }
        Holds::Near(n) => {
            let (who, within) = near(n);
            format!("held while a {who} is within {within}")
        }
        Holds::NotNear(n) => {
            let (who, within) = near(n);
            format!("held while no {who} is within {within}")
        }
    };
    Some(text + &only)
}

fn def_id(i: usize) -> grognard_kernel::ids::PieceTypeId {
    grognard_kernel::ids::PieceTypeId::from_index(i)
}

/// The ruleset's victory conditions (a scenario may give its own instead).
pub(crate) fn victory(h: &mut String, r: &Ruleset) {
    let _ = writeln!(h, "<h2>Victory</h2>");
    let Some(v) = &r.spec.victory else {
        h.push_str("<p>The ruleset sets no victory conditions: each scenario says (without any, a game is a draw at its end).</p>\n");
        return;
    };
    let mut items: Vec<String> = Vec::new();
    for n in v.removed.iter() {
        let what = if n.name.value == "any" {
            "each enemy piece off the board (of a type not listed)".to_owned()
        } else {
            format!("each enemy {} off the board", n.name.value)
        };
        items.push(format!("{}: {} points", what, n.value));
    }
    if !v.removed_unless.is_empty() {
        items.push(format!(
            "pieces off the board with {} score nothing",
            list(v.removed_unless.iter().map(|f| f.value.as_str()))
        ));
    }
    for n in v.flagged.iter() {
        items.push(format!(
            "each enemy piece with {} at the end: {} points",
            n.name.value, n.value
        ));
    }
    for hold in &v.hold {
        items.push(format!(
            "holding {} alone at the end: {} points{}",
            hold.value.region.value,
            hold.value.points,
            hold.value
                .side
                .as_ref()
                .map_or_else(String::new, |s| format!(" ({} only)", s.value))
        ));
    }
    for lose in &v.lose {
        let l = &lose.value;
        let of = if l.types.is_empty() {
            String::new()
        } else {
            format!(" (of {})", list(l.types.iter().map(|t| t.value.as_str())))
        };
        let when = if let Some(f) = &l.flag {
            format!("one of its pieces{of} has {}", f.value)
        } else if let Some(c) = &l.counter {
            format!(
                "one of its pieces{of} has {} {} or more",
                c.value,
                l.at_least.unwrap_or(1)
            )
        } else {
            format!("none of its pieces{of} is left on the board")
        };
        items.push(format!(
            "a side loses at once when {when}{}",
            l.why
                .as_ref()
                .map_or_else(String::new, |w| format!(" ({w})"))
        ));
    }
    if let Some(n) = v.win_at {
        items.push(format!("a side with {n} points wins at once"));
    }
    items.push(format!(
        "the side ahead by {} or more points wins at the end; a smaller lead is a draw",
        v.margin.unwrap_or(1)
    ));
    h.push_str("<ul>\n");
    for i in items {
        let _ = writeln!(h, "<li>{}</li>", escape(&i));
    }
    h.push_str("</ul>\n");
}

/// The distribution and exact mean of each computed amount of chart `name`'s actions, with
/// every input at its default (both sides' results when the chart gives both).
pub(crate) fn amounts(h: &mut String, r: &Ruleset, name: &str) {
    let Some(i) = r.rules.charts.iter().position(|c| c.name == name) else {
        return;
    };
    let Some(def) = r.rules.charts.get(i) else {
        return;
    };
    let inputs: Vec<i32> = def.inputs.iter().map(|x| x.default).collect();
    let id = ChartId(u16::try_from(i).unwrap_or(u16::MAX));
    let Some(all) = crate::amount_odds::amount_odds(&r.rules, id, &inputs) else {
        return;
    };
    for a in all.iter().filter(|a| a.is_exact()) {
        let _ = write!(
            h,
            "<table>\n<tr><th colspan=\"{}\">{} added to the {}'s {} by {} (mean {})</th></tr>\n<tr>",
            a.odds.len() + 1,
            escape(&a.counter),
            a.to,
            escape(&a.counter),
            escape(&a.action),
            escape(&a.mean.to_string())
        );
        let _ = write!(h, "<th>amount</th>");
        for (v, _) in &a.odds {
            let _ = write!(h, "<td class=\"num\">{v}</td>");
        }
        h.push_str("</tr>\n<tr><th>chance</th>");
        for (_, p) in &a.odds {
            let _ = write!(
                h,
                "<td class=\"num\">{} <small>({:.1}%)</small></td>",
                escape(&p.to_string()),
                p.to_f64() * 100.0
            );
        }
        h.push_str("</tr>\n</table>\n");
    }
}
