//! Orders and pieces in a player's words, shared by the tabs and a remote seat (so the
//! connection code in [`crate::remote`] needs nothing from [`crate::app`]).

/// The marker of an enemy block drawn face up though not identified: its marker is turned
/// up, which every side reads ([`piece_card`] explains it; `crate::view` draws it). Here,
/// not in `view`, so that the words need nothing from the drawing.
pub const FACE_UP: &str = "face up";

/// The marker of a face-down enemy block no piece of the viewer's side sees now, drawn
/// where it stands because positions are public ([`piece_card`] explains it).
pub const OUT_OF_SIGHT: &str = "out of sight";

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
                parts.push(spaced(k));
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
                parts.push(spaced(k));
            }
            other => parts.push(format!("{} {}", spaced(k), plain(other))),
        }
    }
    parts.join(" ")
}

/// A distance in inches as the board's tape says it: to a hundredth at most, no trailing
/// zeros (a server's `13.299` reads `13.3"`, `42.0` reads `42"`).
#[must_use]
pub fn inches_text(x: f64) -> String {
    let t = format!("{x:.2}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    let t = if t == "-0" { "0" } else { t };
    format!("{t}\"")
}

/// An order in a player's words, the piece it moves apart: `(Some("hale"), "→ (1,1), 5
/// steps")` — where it goes first, then how far; an action by what it does (`fire at r1`);
/// an order that names no piece (`end phase`) with `None`.
#[must_use]
pub fn order_words(spec: &serde_json::Value) -> (Option<String>, String) {
    let Some(map) = spec.as_object() else {
        return (None, order_text(spec));
    };
    let Some((verb, serde_json::Value::Object(inner))) = map.iter().find(|(k, _)| *k != "side")
    else {
        return (None, order_text(spec));
    };
    let piece = inner
        .get("piece")
        .and_then(|p| p.as_str())
        .map(str::to_owned);
    let cell = |v: &serde_json::Value| match v.as_array().map(Vec::as_slice) {
        Some([c, r]) => Some(format!("({c},{r})")),
        _ => None,
    };
    let num = |v: &serde_json::Value| v.as_f64().map(inches_text);
    let rest = |skip: &[&str]| -> Vec<String> {
        inner
            .iter()
            .filter(|(k, _)| k.as_str() != "piece" && !skip.contains(&k.as_str()))
            .map(|(k, v)| {
                // What an order is for reads as the piece panel's button says it:
                // `(to form line)`.
                if k == "intent"
                    && let Some(list) = v.as_array()
                {
                    let each: Vec<String> =
                        list.iter().filter_map(|i| i.as_str()).map(spaced).collect();
                    return format!("(to {})", each.join(", "));
                }
                // A cell reads as the board labels it, `(3,4)`, not as JSON; a mode or an
                // action is one of the ruleset's names, spaced as the buttons say it
                // (`mode march column`); a piece's name stays as orders spell it.
                let v = v
                    .as_str()
                    .map(|s| {
                        if matches!(k.as_str(), "mode" | "action") {
                            spaced(s)
                        } else {
                            s.to_owned()
                        }
                    })
                    .or_else(|| cell(v))
                    .unwrap_or_else(|| v.to_string());
                // `mode: {mode: line}` reads "mode line", not "mode mode line"; a facing
                // reads as the Play tab's button says it, "face E".
                if k == verb || (verb == "face" && k == "facing") {
                    v
                } else {
                    format!("{} {v}", spaced(k))
                }
            })
            .collect()
    };
    let words = match verb.as_str() {
        "move" => {
            let path = inner.get("path").and_then(|p| p.as_array());
            match path.and_then(|p| p.last().and_then(cell).map(|to| (to, p.len()))) {
                Some((to, steps)) => {
                    let mut w = format!("→ {to}, {}", count(steps as i64, "step"));
                    for extra in rest(&["path"]) {
                        w.push_str(&format!(", {extra}"));
                    }
                    w
                }
                None => order_text(spec),
            }
        }
        "move_to" => {
            let to = inner
                .get("to")
                .and_then(|t| match t.as_array().map(Vec::as_slice) {
                    Some([x, y]) => Some(format!("({}, {})", num(x)?, num(y)?)),
                    _ => None,
                });
            let mut w = format!("→ {}", to.unwrap_or_else(|| "?".into()));
            for extra in rest(&["to"]) {
                w.push_str(&format!(", {extra}"));
            }
            w
        }
        "act" => {
            let action = inner
                .get("action")
                .and_then(|a| a.as_str())
                .unwrap_or("act");
            let mut w = spaced(action);
            if let Some(target) = inner.get("target") {
                let t = target
                    .as_str()
                    .map(str::to_owned)
                    .or_else(|| cell(target))
                    .unwrap_or_else(|| target.to_string());
                w.push_str(&format!(" at {t}"));
            }
            for extra in rest(&["action", "target"]) {
                // `(to …)` follows the order as the button has it, without a comma.
                let sep = if extra.starts_with("(to ") { " " } else { ", " };
                w.push_str(&format!("{sep}{extra}"));
            }
            w
        }
        other => {
            let mut w = spaced(other);
            for extra in rest(&[]) {
                w.push_str(&format!(" {extra}"));
            }
            w
        }
    };
    (piece, words)
}

/// One piece's orders (`None`: orders naming no piece), each with its index and words.
pub type OrderGroup = (Option<String>, Vec<(usize, String)>);

/// Orders grouped by the piece they move, in the order the pieces first appear; each
/// order keeps its index in `specs` (for giving it) and its words ([`order_words`]).
/// Orders naming no piece (`end phase`) come last, under `None`.
#[must_use]
pub fn group_orders(specs: &[serde_json::Value]) -> Vec<OrderGroup> {
    let mut groups: Vec<OrderGroup> = Vec::new();
    let mut loose = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        match order_words(spec) {
            (Some(piece), words) => {
                match groups.iter_mut().find(|(p, _)| p.as_ref() == Some(&piece)) {
                    Some((_, list)) => list.push((i, words)),
                    None => groups.push((Some(piece), vec![(i, words)])),
                }
            }
            (None, words) => loose.push((i, words)),
        }
    }
    if !loose.is_empty() {
        groups.push((None, loose));
    }
    groups
}

/// The possessive of a name: `blue's`, and `austrians'` for a name ending in s.
#[must_use]
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
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
/// edges and what entering it costs each movement class (`+1`, `impassable`). A half-hex
/// cut by the table edge that is closed says so instead of its costs (it read "clear, to
/// enter: ground +0"); `baselines_open` is whether the game opened the baseline
/// half-hexes by its option (`None`: not known here, the card says what decides it).
#[must_use]
pub fn cell_card(
    rules: &grognard_kernel::rules::Rules,
    board: &grognard_kernel::board::Board,
    cell: grognard_kernel::geometry::Cell,
    baselines_open: Option<bool>,
) -> Vec<String> {
    let terrain = board.terrain(cell);
    let name = rules
        .terrain
        .get(terrain.index())
        .map_or_else(|| "?".to_owned(), |t| spaced(&t.name));
    let closed = closed_half_hex(rules, board, cell, baselines_open);
    // A closed half-hex is named as one, not by its terrain: "cell (4,8): clear" read as a
    // hex one may enter.
    let what = if closed.is_some() {
        "closed half-hex".to_owned()
    } else {
        name
    };
    let mut lines = vec![format!("cell ({},{}): {what}", cell.col, cell.row)];
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
                    spaced(&def.name),
                    other.col,
                    other.row
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
            format!("{} {cost}", spaced(&m.name))
        })
        .collect();
    if let Some(closed) = closed {
        lines.push(closed);
    } else if !costs.is_empty() {
        lines.push(format!("to enter: {}", costs.join(", ")));
    }
    lines
}

/// Why a closed half-hex is no ordinary cell, in words; `None` for a whole hex or an open
/// half-hex (its costs are then the terrain's).
#[must_use]
pub fn closed_half_hex(
    rules: &grognard_kernel::rules::Rules,
    board: &grognard_kernel::board::Board,
    cell: grognard_kernel::geometry::Cell,
    baselines_open: Option<bool>,
) -> Option<String> {
    use grognard_kernel::geometry::hex::HalfHex;
    let halves = &rules.half_hexes;
    match board.half_hex(cell)? {
        HalfHex::Side if halves.sides => None,
        HalfHex::Side => Some("closed half-hex on the side edge: never entered".into()),
        HalfHex::Baseline if halves.baselines => None,
        HalfHex::Baseline => {
            let option = halves
                .baselines_option
                .and_then(|o| rules.options.get(o))
                .map(|o| spaced(&o.name));
            match (baselines_open, option) {
                (Some(true), Some(_)) => None,
                (None, Some(name)) => Some(format!(
                    "baseline half-hex: closed unless the option {name} is on; a way off \
                     the board, crossed only to leave it"
                )),
                _ => Some(
                    "closed baseline half-hex: never stood on, only crossed to leave the \
                     board (that step counts with the step off as one)"
                        .into(),
                ),
            }
        }
    }
}

/// Everything a viewer may know of a piece, in words, for the hover card: what the board
/// was given to draw it ([`crate::board::DrawPiece`] holds only what the viewer may see).
#[must_use]
pub fn piece_card(p: &crate::scene::DrawPiece, side: &str) -> Vec<String> {
    use crate::scene::Look;
    let mut lines = Vec::new();
    match p.look {
        // Named as the side's log names it (`#9`), so a log line's piece is found here.
        Look::Ghost => lines.push(format!("{} — {side}: where it was last seen", p.name)),
        // The markers below say what else its sighting level told (real, strength).
        Look::FaceDown => lines.push(format!("{} — {side}: face down", p.name)),
        Look::Open => {
            let name = if p.name.is_empty() { "?" } else { &p.name };
            let kind = if p.kind.is_empty() {
                "type unknown".to_owned()
            } else {
                spaced(&p.kind)
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
        lines.push(format!(
            "mode: {} (the {letter} on the counter)",
            spaced(&p.mode)
        ));
    }
    lines.extend(p.markers.iter().map(|m| {
        match m.as_str() {
            FACE_UP => "face up: its marker is turned up, so every side sees \
                                 what a face-up marker shows, whatever the sighting level"
                .to_owned(),
            OUT_OF_SIGHT => "out of sight: no piece of yours sees it now; where \
                                      it stands is known to every side"
                .to_owned(),
            m => m.to_owned(),
        }
    }));
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
            .map_or_else(String::new, |m| spaced(&m.name));
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

/// A ruleset's name as a player reads it: `fate_rolled` is `fate rolled`, `medium_woods`
/// `medium woods`. The one spacing of names the editor has: every place that shows a
/// player a name from the ruleset (charts, phases, actions, modes, terrain, features,
/// piece types, flags and counters) says it through this. (A ruleset gives its names no
/// label of their own; the name is it.)
#[must_use]
pub fn spaced(name: &str) -> String {
    name.replace('_', " ")
}

/// `text` as a sentence: its first letter upper case (a tooltip reads as the others do,
/// "You are stepping through …", not "you are …": the ninth outside player's F11).
#[must_use]
pub fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// `v` with its sign, a minus sign for a negative (`−1`) as the modifiers table writes it
/// (the Charts tab's summary read `-1 commander` beside its table's `−1`; the dice log
/// says modifiers so too).
#[must_use]
pub fn signed(v: i32) -> String {
    if v < 0 {
        format!("−{}", v.unsigned_abs())
    } else {
        format!("+{v}")
    }
}

/// An optional rule's description split for a player: the description without the
/// designer's citations, and those citations (`None`: there were none). A bracket that
/// cites a line of the source (`(l.475)`) or an audit (`(… : sixth outside audit)`) is
/// the designer's, not the player's: the Rules tab shows it apart, muted, as a designer's
/// note.
#[must_use]
pub fn description_for_player(text: &str) -> (String, Option<String>) {
    let mut kept = String::with_capacity(text.len());
    let mut notes = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        let Some(len) = closing_bracket(&rest[open..]) else {
            break;
        };
        let inner = &rest[open + 1..open + len];
        if cites_the_source(inner) {
            kept.push_str(rest[..open].trim_end());
            notes.push(inner.trim().to_owned());
        } else {
            kept.push_str(&rest[..=open + len]);
        }
        rest = &rest[open + len + 1..];
    }
    kept.push_str(rest);
    // What a removed bracket leaves: "7.2 , the" and "choice ." read "7.2, the", "choice.".
    let kept = kept
        .replace(" ,", ",")
        .replace(" .", ".")
        .replace(" ;", ";")
        .replace("  ", " ");
    let notes = (!notes.is_empty()).then(|| notes.join("; "));
    (kept.trim().to_owned(), notes)
}

/// The byte length from an opening bracket at the start of `text` to its closing one.
fn closing_bracket(text: &str) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// True when a bracket's words cite a line of the source (`l.475`) or an audit.
fn cites_the_source(inner: &str) -> bool {
    let line_number = inner.match_indices("l.").any(|(i, _)| {
        let before_ok = inner[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        before_ok && inner[i + 2..].starts_with(|c: char| c.is_ascii_digit())
    });
    line_number || inner.contains("audit")
}

/// A marker of a piece's counter (`te 2`, the ruleset's name spaced) or flag (`no battle`)
/// as the event log words it (`grognard_play::text`), for the piece panel: `b2 fatigue
/// (TE) hits 2`, `bt1 is marked “no battle”`, `r3 is routed` — one wording for the log and
/// the panel. Any other marker (a sighting's `dummy`, `face up`) is said as it is.
#[must_use]
pub fn marker_line(rules: &grognard_kernel::rules::Rules, piece: &str, marker: &str) -> String {
    use grognard_play::text::{counter_words, flag_words};
    if let Some(f) = rules.flags.iter().find(|f| spaced(&f.name) == marker) {
        return format!("{piece} {}", log_line(rules, &flag_words(&f.name, true)));
    }
    if let Some((name, value)) = marker.rsplit_once(' ')
        && value.parse::<i64>().is_ok()
        && let Some(c) = rules.counters.iter().find(|c| spaced(&c.name) == name)
    {
        let called = counter_words(rules, &c.name);
        return format!("{piece} {} {value}", log_line(rules, called));
    }
    format!("marker: {marker}")
}

/// The legend's line for the short counter names a small counter shows (`ci 4`, `f6`): each
/// of the ruleset's counters with its short forms, `None` for a ruleset with none.
/// `On small counters: fig or f figures, ci cvs i, oc order changes.`
#[must_use]
pub fn short_counter_names(rules: &grognard_kernel::rules::Rules) -> Option<String> {
    let each: Vec<String> = rules
        .counters
        .iter()
        .map(|c| {
            let name = spaced(&c.name);
            format!("{} {name}", crate::scene::short_forms(&name).join(" or "))
        })
        .collect();
    (!each.is_empty()).then(|| format!("On small counters: {}.", each.join(", ")))
}

/// How a game ended, as one sentence from the winner's name (`None`: a draw), the
/// kernel's reason and, where known, the scores (`blue 5`, `red 3`). The reason usually
/// names the outcome itself (`blue wins on points (blue 5, red 3)`, `a draw on points
/// (…)`): it is then said alone, not after a second "blue wins"; the scores are added only
/// when the reason does not hold them already.
#[must_use]
pub fn result_sentence(winner: Option<&str>, why: &str, scores: Option<&[String]>) -> String {
    let who = winner.map_or_else(|| "a draw".to_owned(), |w| format!("{w} wins"));
    let mut out = if why.is_empty() {
        who
    } else if why.starts_with(&who) {
        why.to_owned()
    } else {
        // A dash, not a colon: "red wins: blue loses: …" read two colons in a row
        // (thirteenth player F7).
        format!("{who} — {why}")
    };
    if let Some(scores) = scores
        && !scores.iter().all(|s| out.contains(s.as_str()))
    {
        out.push_str(&format!(" (points: {})", scores.join(", ")));
    }
    out
}

/// A line of the event log (`grognard view`'s words) as the editor shows it: the
/// ruleset's flag and counter names spaced (`scout1 is fate rolled`, `cvs i 4`) — a
/// piece's name, which orders spell, stays as it is — and a sighting at a named level read
/// as a state (`blue sights r3 (seen)`, where a lettered level keeps `at level D`).
#[must_use]
pub fn log_line(rules: &grognard_kernel::rules::Rules, line: &str) -> String {
    // Every ruleset name a log line may carry (flags, counters, actions, charts, their
    // outcomes, modes): a player reads `fire small`, not `fire_small`.
    let names: Vec<&str> = rules
        .flags
        .iter()
        .map(|f| f.name.as_str())
        .chain(rules.counters.iter().map(|c| c.name.as_str()))
        .chain(rules.actions.iter().map(|a| a.name.as_str()))
        .chain(rules.charts.iter().map(|c| c.name.as_str()))
        .chain(
            rules
                .charts
                .iter()
                .flat_map(|c| c.outcomes.iter().map(String::as_str)),
        )
        .chain(rules.modes.iter().map(|m| m.name.as_str()))
        // Phases too: black-powder's log read "musketry_artillery phase".
        .chain(phase_names(rules))
        // And what a piece is and stands on ("marker #10 is abat, army_hq").
        .chain(rules.piece_types.iter().map(|t| t.name.as_str()))
        .chain(rules.terrain.iter().map(|t| t.name.as_str()))
        .chain(rules.features.iter().map(|f| f.name.as_str()))
        .filter(|n| n.contains('_'))
        .collect();
    let mut out = String::with_capacity(line.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if names.contains(&word.as_str()) {
            out.push_str(&spaced(word));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in line.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    if out.contains(" sights ")
        && let Some((head, rest)) = out.rsplit_once(" at level ")
    {
        // What follows the level (`: marker #9 is adum2, a dummy`) stays after it.
        let (level, tail) = rest
            .split_once(": ")
            .map_or((rest, None), |(l, t)| (l, Some(t)));
        if level.chars().count() > 1 {
            return match tail {
                Some(t) => format!("{head} ({level}): {t}"),
                None => format!("{head} ({level})"),
            };
        }
    }
    out
}

/// Where a chart's input is read from, in words (`actor.attribute staff` is "the acting
/// piece's staff"), from the ruleset's `from:` text; a text it does not know is spaced.
#[must_use]
pub fn source_words(from: &str) -> String {
    let (head, name) = from
        .split_once(' ')
        .map_or((from, ""), |(h, n)| (h, n.trim()));
    let name = spaced(name);
    let (whose, what) = match head.split_once('.') {
        Some(("actor", w)) => ("the acting piece", w),
        Some(("target", w)) => ("the target", w),
        _ => ("", head),
    };
    match (whose, what) {
        (_, "distance") => "the distance to the target".to_owned(),
        (_, "table_distance") => "the distance to the target measured on the table".to_owned(),
        (_, "distance_band" | "table_distance_band") => {
            "the band the distance to the target falls in".to_owned()
        }
        ("", "setting") => format!("the scenario's {name} setting"),
        ("", "option") => format!("whether the optional rule {name} is in force"),
        ("", "intent") => format!("whether the order is for {name}"),
        ("", _) => spaced(from),
        (w, "counter" | "attribute") => format!("{w}'s {name}"),
        (w, "mode") => format!("whether {w} is in {name} mode"),
        (w, "flag") => format!("whether {w} is {name}"),
        (w, "terrain") => format!("the {name} of {w}'s ground"),
        (_, "flank_or_rear") => {
            "whether the acting piece is on the target's flank or rear".to_owned()
        }
        (w, "friends_within") => format!("friendly pieces near {w}"),
        (w, other) => format!("{w}'s {}", spaced(other)),
    }
}

/// Every phase name of the ruleset's sequence and its optional variants.
fn phase_names(rules: &grognard_kernel::rules::Rules) -> impl Iterator<Item = &str> {
    let s = &rules.sequence;
    let lists = [&s.turn_start, &s.side_turn, &s.turn_end]
        .into_iter()
        .chain(
            s.variants
                .iter()
                .flat_map(|v| [&v.turn_start, &v.side_turn, &v.turn_end]),
        );
    lists.flat_map(|l| l.iter().map(|p| p.name.as_str()))
}

/// Where a game stands, for [`ended_words`]: its turn and phase (`None` once over), the
/// phase named as a player reads it (`musketry artillery`).
#[must_use]
pub fn stage_of(game: &grognard_kernel::game::Game) -> Option<(u32, String)> {
    let (phase, _) = game.phase()?;
    Some((game.state().turn, spaced(&phase.name)))
}

/// What an end-phase order did, said after it (`done (0 events)` told nothing): the phase
/// over and the one begun, or, in a phase sides share, that `side`'s part is done and who
/// still acts.
#[must_use]
pub fn ended_words(
    before: Option<&(u32, String)>,
    game: &grognard_kernel::game::Game,
    side: &str,
) -> String {
    let Some((turn, phase)) = before else {
        return "phase ended".to_owned();
    };
    match stage_of(game) {
        None => format!("the {phase} phase ended, and with it the game"),
        Some(now) if now == (*turn, phase.clone()) => {
            let who: Vec<&str> = game
                .to_act()
                .iter()
                .filter_map(|s| game.sides().get(s.index()).map(|d| d.name.as_str()))
                .collect();
            format!(
                "{side} ended its part of the {phase} phase; {} still to act",
                who.join(" and ")
            )
        }
        Some((t, p)) if t != *turn => {
            format!("the {phase} phase ended; turn {t} begins with the {p} phase")
        }
        Some((_, p)) => format!("the {phase} phase ended; now the {p} phase"),
    }
}

/// A time in whole seconds, rounded up, as a person reads it: `8 s`, `3 min 20 s`, and
/// from an hour on in hours and minutes (`3 h 57 min`: "236 min 44 s" read as no time a
/// person plans by).
#[must_use]
pub fn seconds_text(secs: f64) -> String {
    let secs = secs.ceil();
    if secs < 60.0 {
        format!("{secs:.0} s")
    } else if secs < 3600.0 {
        format!("{:.0} min {:.0} s", (secs / 60.0).floor(), secs % 60.0)
    } else {
        let minutes = (secs / 60.0).round();
        format!(
            "{:.0} h {:.0} min",
            (minutes / 60.0).floor(),
            minutes % 60.0
        )
    }
}

/// What a side knows of an enemy at sighting level `level` (`A`…`D` on the block rules'
/// chart), in words, for the hover card and the legend: `level B: where it is, real or
/// dummy, its strength; next to it, all of it`. `None` for a name that is no level.
#[must_use]
pub fn sighting_level(rules: &grognard_kernel::rules::Rules, level: &str) -> Option<String> {
    use grognard_kernel::knowledge::Disclosure;
    let sighting = rules.sighting.as_ref()?;
    let def = sighting.levels.iter().find(|l| l.name == level)?;
    let facts = |d: Disclosure| -> Vec<&'static str> {
        if d.has(Disclosure::IDENTITY) {
            return vec!["all of it (type, strength, name, state)"];
        }
        [
            (Disclosure::POSITION, "where it is"),
            (Disclosure::REAL, "real or dummy"),
            (Disclosure::KIND, "its type"),
            (Disclosure::STRENGTH, "its strength"),
        ]
        .into_iter()
        .filter(|(f, _)| d.has(*f))
        .map(|(_, w)| w)
        .collect()
    };
    // What every side sees of a piece in the open is known at any level.
    let known = facts(def.discloses.with(sighting.public));
    let mut text = format!("level {level}: ");
    if def.discloses == Disclosure::NONE {
        text.push_str("nothing beyond ");
    }
    text.push_str(&if known.is_empty() {
        "that it is there".to_owned()
    } else {
        known.join(", ")
    });
    if def.adjacent != Disclosure::NONE {
        let more = facts(def.adjacent);
        if !more.is_empty() {
            text.push_str(&format!("; next to it, {}", more.join(", ")));
        }
    }
    if def.flips_up {
        // A face-up block shows what `face_up` discloses to every side (its type), at
        // any distance: say so, or a type seen two squares off reads as a leak.
        let shows: Vec<&str> = facts(sighting.face_up)
            .into_iter()
            .filter(|f| !known.contains(f))
            .collect();
        text.push_str("; its block turns face up");
        if !shows.is_empty() {
            text.push_str(&format!(", showing {}", shows.join(", ")));
        }
    }
    Some(text)
}

/// The sighting levels of a ruleset with a scale of more than one step, each in words
/// ([`sighting_level`]), best first; empty without one.
#[must_use]
pub fn sighting_levels(rules: &grognard_kernel::rules::Rules) -> Vec<String> {
    let Some(sighting) = rules.sighting.as_ref().filter(|s| s.levels.len() > 1) else {
        return Vec::new();
    };
    sighting
        .levels
        .iter()
        .filter_map(|l| sighting_level(rules, &l.name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::order_text;

    #[test]
    fn input_sources_read_as_words() {
        use super::source_words;
        assert_eq!(
            source_words("actor.attribute staff"),
            "the acting piece's staff"
        );
        assert_eq!(source_words("target.counter hits"), "the target's hits");
        assert_eq!(
            source_words("actor.mode skirmish_order"),
            "whether the acting piece is in skirmish order mode"
        );
        assert_eq!(source_words("distance"), "the distance to the target");
        assert_eq!(
            source_words("setting night"),
            "the scenario's night setting"
        );
        assert_eq!(source_words("some_new_thing"), "some new thing");
    }

    #[test]
    fn orders_read_as_one_line() {
        let v = serde_json::json!({"side": "blue", "move": {"piece": "b1", "path": [[4, 5]]}});
        assert_eq!(order_text(&v), "move b1 path [[4, 5]]");
        let v = serde_json::json!({"side": "blue", "end_phase": true});
        assert_eq!(order_text(&v), "end phase");
    }

    #[test]
    fn orders_read_destination_first_grouped_by_piece() {
        use super::{group_orders, order_words};
        let mv = serde_json::json!({"side": "blue", "move": {"piece": "hale", "path": [[3, 5], [2, 4], [2, 3], [1, 2], [1, 1]]}});
        assert_eq!(
            order_words(&mv),
            (Some("hale".into()), "→ (1,1), 5 steps".into())
        );
        let one = serde_json::json!({"move": {"piece": "b1", "path": [[4, 5]]}});
        assert_eq!(order_words(&one).1, "→ (4,5), 1 step");
        let to = serde_json::json!({"move_to": {"piece": "fr_bde1", "to": [29.96, 42.0]}});
        assert_eq!(order_words(&to).1, "→ (29.96\", 42\")");
        // As a server sends them (a remote seat's list): rounded as the Play tab's.
        let far = serde_json::json!({"move_to": {"piece": "b", "to": [13.299, 30.75]}});
        assert_eq!(order_words(&far).1, "→ (13.3\", 30.75\")");
        let near = serde_json::json!({"move_to": {"piece": "b", "to": [0.001, 7.0]}});
        assert_eq!(order_words(&near).1, "→ (0\", 7\")");
        let fire = serde_json::json!({"act": {"piece": "b1", "action": "fire", "target": "r1"}});
        assert_eq!(order_words(&fire).1, "fire at r1");
        let mode = serde_json::json!({"mode": {"piece": "fr_ligne", "mode": "line"}});
        assert_eq!(order_words(&mode).1, "mode line");
        // As the piece panel's buttons say it (an outside player read "face facing E").
        let face = serde_json::json!({"face": {"piece": "scout1", "facing": "E"}});
        assert_eq!(order_words(&face).1, "face E");
        let save = serde_json::json!({"save": {"piece": "b1", "toward": [3, 4]}});
        assert_eq!(order_words(&save).1, "save toward (3,4)");
        let end = serde_json::json!({"side": "blue", "end_phase": true});
        assert_eq!(order_words(&end), (None, "end phase".into()));
        let groups = group_orders(&[mv, fire, end, one]);
        let names: Vec<_> = groups.iter().map(|(p, l)| (p.clone(), l.len())).collect();
        assert_eq!(
            names,
            [(Some("hale".into()), 1), (Some("b1".into()), 2), (None, 1)]
        );
        assert_eq!(groups[1].1[1].0, 3, "each order keeps its index");
    }

    #[test]
    fn a_name_ending_in_s_takes_an_apostrophe_alone() {
        assert_eq!(super::possessive("austrians"), "austrians'");
        assert_eq!(super::possessive("blue"), "blue's");
    }
}
