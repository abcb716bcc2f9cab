//! Orders and pieces in a player's words, shared by the tabs and a remote seat (so the
//! connection code in [`crate::remote`] needs nothing from [`crate::app`]).

/// An order in the orders-file form as one short line: `move b1 path [[4, 5]]`.
#[must_use]
pub fn order_text(spec: &serde_json::Value) -> String {
    fn plain(v: &serde_json::Value) -> String {
        match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Array(a) => {
                format!("[{}]", a.iter().map(plain).collect::<Vec<_>>().join(", "))
            }
            other => other.to_string(),
        }
    }
    let Some(map) = spec.as_object() else {
        return plain(spec);
    };
    let mut parts = Vec::new();
    for (k, v) in map {
        if k == "side" {
            continue;
        }
        match v {
            serde_json::Value::Object(inner) => {
                parts.push(k.replace('_', " "));
                if let Some(p) = inner.get("piece") {
                    parts.push(plain(p));
                }
                for (ik, iv) in inner {
                    if ik != "piece" {
                        parts.push(format!("{ik} {}", plain(iv)));
                    }
                }
            }
            serde_json::Value::Bool(true) | serde_json::Value::Null => {
                parts.push(k.replace('_', " "));
            }
            other => parts.push(format!("{} {}", k.replace('_', " "), plain(other))),
        }
    }
    parts.join(" ")
}

/// `n` of a thing in words, the noun (given in the singular) agreeing with the number:
/// `1 event`, `2 events`, `0 events`.
#[must_use]
pub fn count(n: i64, noun: &str) -> String {
    if n.abs() == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// An amount of a ruleset's counter in words: the counter's own name (`2 hits`, `3
/// fatigue`), except that a name in the plural reads in the singular for one (`1 hit`, `1
/// loss`, `1 casualty`).
#[must_use]
pub fn amount(n: i64, counter: &str) -> String {
    if n.abs() != 1 {
        return format!("{n} {counter}");
    }
    let one = if let Some(stem) = counter.strip_suffix("ies") {
        format!("{stem}y")
    } else if let Some(stem) = counter.strip_suffix("sses") {
        format!("{stem}ss")
    } else if counter.ends_with('s') && !counter.ends_with("ss") {
        counter[..counter.len() - 1].to_owned()
    } else {
        counter.to_owned()
    };
    format!("{n} {one}")
}

/// What a board cell is, in words, for the hover card: its terrain, the features on its
/// edges and what entering it costs each movement class (`+1`, `impassable`).
#[must_use]
pub fn cell_card(
    rules: &grognard_kernel::rules::Rules,
    board: &grognard_kernel::board::Board,
    cell: grognard_kernel::geometry::Cell,
) -> Vec<String> {
    let terrain = board.terrain(cell);
    let name = rules
        .terrain
        .get(terrain.index())
        .map_or("?", |t| t.name.as_str());
    let mut lines = vec![format!("cell ({},{}): {name}", cell.col, cell.row)];
    let mut features: Vec<String> = board
        .links
        .iter()
        .filter(|((a, b), _)| *a == cell || *b == cell)
        .flat_map(|((a, b), fs)| {
            let other = if *a == cell { *b } else { *a };
            fs.iter().filter_map(move |f| {
                let def = rules.features.get(f.index())?;
                Some(format!(
                    "{} towards ({},{})",
                    def.name, other.col, other.row
                ))
            })
        })
        .collect();
    features.sort();
    features.dedup();
    if !features.is_empty() {
        lines.push(format!("features: {}", features.join(", ")));
    }
    let costs: Vec<String> = rules
        .move_classes
        .iter()
        .map(|m| {
            let cost = m
                .enter
                .get(terrain.index())
                .copied()
                .flatten()
                .map_or_else(|| "impassable".to_owned(), |c| format!("+{c}"));
            format!("{} {cost}", m.name)
        })
        .collect();
    if !costs.is_empty() {
        lines.push(format!("to enter: {}", costs.join(", ")));
    }
    lines
}

/// Everything a viewer may know of a piece, in words, for the hover card: what the board
/// was given to draw it ([`crate::board::DrawPiece`] holds only what the viewer may see).
#[must_use]
pub fn piece_card(p: &crate::scene::DrawPiece, side: &str) -> Vec<String> {
    use crate::scene::Look;
    let mut lines = Vec::new();
    match p.look {
        Look::Ghost => lines.push(format!("{side}: where an enemy was last seen")),
        Look::FaceDown => lines.push(format!("{side}: face down — its position only")),
        Look::Open => {
            let name = if p.name.is_empty() { "?" } else { &p.name };
            let kind = if p.kind.is_empty() {
                "type unknown"
            } else {
                &p.kind
            };
            lines.push(format!("{name} — {side} {kind}"));
        }
    }
    if !p.mode.is_empty() {
        let letter = p
            .mode
            .chars()
            .next()
            .map(|c| c.to_ascii_uppercase())
            .unwrap_or('?');
        lines.push(format!("mode: {} (the {letter} on the counter)", p.mode));
    }
    lines.extend(p.markers.iter().cloned());
    lines
}

/// The mode letters counters show, explained: `L line, C column` (two modes sharing a
/// letter are both listed under it).
#[must_use]
pub fn mode_letters(rules: &grognard_kernel::rules::Rules) -> String {
    let mut by_letter: std::collections::BTreeMap<char, Vec<String>> =
        std::collections::BTreeMap::new();
    for i in 0..rules.modes.len() {
        let name = rules
            .modes
            .get(i)
            .map_or_else(String::new, |m| m.name.clone());
        if let Some(c) = name.chars().next() {
            by_letter
                .entry(c.to_ascii_uppercase())
                .or_default()
                .push(name);
        }
    }
    by_letter
        .into_iter()
        .map(|(c, names)| format!("{c} {}", names.join(" or ")))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::order_text;

    #[test]
    fn orders_read_as_one_line() {
        let v = serde_json::json!({"side": "blue", "move": {"piece": "b1", "path": [[4, 5]]}});
        assert_eq!(order_text(&v), "move b1 path [[4, 5]]");
        let v = serde_json::json!({"side": "blue", "end_phase": true});
        assert_eq!(order_text(&v), "end phase");
    }
}
