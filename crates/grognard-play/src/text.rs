//! Human-readable text: events, rolls and a side's view as `grognard play` and `view`
//! print them — shared by the command line, the editor and the server (whose seats get
//! exactly the text the command line prints).

use grognard_kernel::action::{Event, RollRecord};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::Cell;
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::knowledge::Disclosure;
use grognard_kernel::piece::Place;
use grognard_kernel::view::View;

/// Appends one formatted line to a `String`.
macro_rules! push_line {
    ($text:ident, $($arg:tt)*) => {{
        $text.push_str(&format!($($arg)*));
        $text.push('\n');
    }};
}

fn path(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" → ")
}

/// One roll, explained: dice, faces, each modifier, score and outcome.
#[must_use]
pub fn roll(r: &RollRecord) -> String {
    roll_with(r, |_| false)
}

/// [`roll`] as the ruleset says it: a die with one face (black-powder's `lookup`, which
/// makes a chart a table looked up by its modifiers) varies nothing and is no roll, so
/// the line says "no roll needed", not "lookup -".
#[must_use]
pub fn roll_in(rules: &grognard_kernel::rules::Rules, r: &RollRecord) -> String {
    roll_with(r, |die| fixed_die(rules, die))
}

/// True when the ruleset's die `name` has one face: it adds the same every time.
#[must_use]
pub fn fixed_die(rules: &grognard_kernel::rules::Rules, name: &str) -> bool {
    rules
        .dice
        .iter()
        .find(|d| d.name == name)
        .is_some_and(|d| d.faces.len() <= 1)
}

fn roll_with(r: &RollRecord, fixed: impl Fn(&str) -> bool) -> String {
    let dice: Vec<String> = r
        .dice
        .iter()
        .filter(|d| !fixed(&d.die))
        .map(|d| match &d.rerolled_from {
            Some(first) => format!("{} {} (re-rolled {first})", die_name(&d.die), d.face),
            None => format!("{} {}", die_name(&d.die), d.face),
        })
        .collect();
    let mods: Vec<String> = r
        .modifiers
        .iter()
        .map(|m| format!("{:+} {}", m.value, m.name))
        .collect();
    let mut out = format!("{}: ", r.chart);
    if dice.is_empty() {
        out.push_str("no roll needed");
    } else {
        out.push_str(&dice.join(", "));
    }
    if !mods.is_empty() {
        out.push_str(&format!("; {}", mods.join(", ")));
    }
    // An amount that is the score itself shows the score as its number.
    let score_shown = r.amounts.iter().any(|a| a.steps.is_empty());
    match &r.band {
        Some(band) => out.push_str(&format!("; band {} ({band})", r.score)),
        None if r.scaled.is_empty() => out.push_str(&format!("; score {}", r.score)),
        None => {
            if !mods.is_empty() {
                let before: i32 = r.dice.iter().map(|d| d.value).sum::<i32>()
                    + r.modifiers.iter().map(|m| m.value).sum::<i32>();
                out.push_str(&format!("; score {before}"));
            }
            for (i, step) in r.scaled.iter().enumerate() {
                out.push_str(&format!(", {} ({})", step.factor.verb(), step.name));
                if let Some(round) = step.rounded {
                    out.push_str(&format!(", {}", round.words()));
                }
                if i + 1 < r.scaled.len() {
                    out.push_str(&format!(" to {}", step.value));
                }
            }
            if !score_shown {
                out.push_str(&format!("; score {}", r.score));
            }
        }
    }
    out.push_str(&format!(" → {}", result(r)));
    out
}

/// A die's name as a roll line says it: a name of the ruleset's bookkeeping, `cube_defender`
/// (the cube the defender rolls), reads `cube (defender)`, the part after its last
/// underscore saying whose or which it is; a plain name (`d6`, `cube`) as it is.
#[must_use]
pub fn die_name(name: &str) -> String {
    match name.rsplit_once('_') {
        Some((head, tail)) if !head.is_empty() && !tail.is_empty() => {
            format!("{} ({tail})", head.replace('_', " "))
        }
        _ => name.to_owned(),
    }
}

/// What came of a roll: its outcome, and each amount worked out from it
/// (`halved, rounded up → 3 hits`). An outcome named like the one counter it adds to is
/// said once (`3 hits`, not `hits: 3 hits`).
fn result(r: &RollRecord) -> String {
    let amounts: Vec<String> = r
        .amounts
        .iter()
        .map(|a| {
            let number = format!("{} {}", a.value, counted(&a.counter, a.value));
            if a.steps.is_empty() {
                number
            } else {
                format!("{} → {number}", a.steps.join(", "))
            }
        })
        .collect();
    match r.amounts.as_slice() {
        [] => r.outcome.clone(),
        [one] if one.counter == r.outcome => amounts.join(""),
        _ => format!("{}: {}", r.outcome, amounts.join("; ")),
    }
}

/// A counter's name after a number: counters are named in the plural (`hits`,
/// `casualties`), so one of them reads `1 hit`, `1 casualty`.
fn counted(name: &str, value: i32) -> std::borrow::Cow<'_, str> {
    if value.abs() != 1 {
        return name.into();
    }
    if let Some(stem) = name.strip_suffix("ies") {
        return format!("{stem}y").into();
    }
    match name.strip_suffix('s') {
        Some(stem) if !stem.ends_with('s') && !stem.is_empty() => stem.into(),
        _ => name.into(),
    }
}

/// One event as a line of text, as the referee reads it.
#[must_use]
pub fn event(game: &Game, e: &Event) -> String {
    event_as(game, None, e)
}

fn place(p: &Place) -> String {
    match p {
        Place::Cell(c) => c.to_string(),
        Place::Spread(cs) => path(cs),
        Place::Point { at, .. } => at.to_string(),
        Place::Off => "off the board".to_owned(),
    }
}

/// One event as a line of text, as `viewer` reads it: enemy pieces it has not identified
/// appear by handle (`enemy #7`).
#[must_use]
pub fn event_as(game: &Game, viewer: Option<SideId>, e: &Event) -> String {
    event_line(game, viewer, e, None)
}

/// The `index`-th event of `viewer`'s log ([`Game::events_for`]) as a line of text: as
/// [`event_as`], with each enemy named by the handle the side knew it by then.
#[must_use]
pub fn log_line(game: &Game, viewer: Option<SideId>, e: &Event, index: usize) -> String {
    event_line(game, viewer, e, Some(index))
}

fn event_line(game: &Game, viewer: Option<SideId>, e: &Event, index: Option<usize>) -> String {
    let names = Names {
        game,
        viewer,
        index,
    };
    match e {
        Event::Sighted { .. }
        | Event::Contact { .. }
        | Event::EnemyMoved { .. }
        | Event::Redeployed { .. }
        | Event::Announced { .. }
        | Event::SpotRolled { .. } => sighting_line(&names, e),
        Event::PhaseBegan { .. }
        | Event::Initiative { .. }
        | Event::GameOver { .. }
        | Event::GameResult { .. } => sequence_line(e),
        Event::Moved { .. }
        | Event::MovedOnTable { .. }
        | Event::Faced { .. }
        | Event::ModeChanged { .. }
        | Event::Saved { .. }
        | Event::Spread { .. } => movement_line(&names, e),
        Event::Acted { .. } | Event::Rolled { .. } => action_line(&names, e),
        Event::CounterChanged { .. }
        | Event::FlagChanged { .. }
        | Event::Placed { .. }
        | Event::PlacedOnTable { .. }
        | Event::Arrived { .. }
        | Event::Attached { .. }
        | Event::Removed { .. }
        | Event::Note { .. }
        | Event::NoteNaming { .. } => change_line(&names, e),
    }
}

/// Names of pieces and sides as one viewer may read them.
struct Names<'g> {
    game: &'g Game,
    viewer: Option<SideId>,
    /// The event's place in the viewer's log, when known.
    index: Option<usize>,
}

impl Names<'_> {
    /// A piece's name, or its handle when the viewer has not identified it.
    fn piece(&self, id: PieceId) -> String {
        match self.index {
            Some(i) => self.game.name_in_log(self.viewer, id, i),
            None => self.game.name_as(self.viewer, id),
        }
    }

    /// A side's name.
    fn side(&self, s: SideId) -> String {
        self.game
            .sides()
            .get(s.index())
            .map_or_else(|| "?".to_owned(), |d| d.name.clone())
    }
}

/// What hidden information adds to the log: sightings, contact, enemy moves as seen, dummies
/// lifted, announcements and spotting rolls.
fn sighting_line(names: &Names<'_>, e: &Event) -> String {
    match e {
        Event::Sighted { side, piece, level } => match level {
            Some(l) => format!(
                "  {} sights {} at level {l}{}",
                names.side(*side),
                names.piece(*piece),
                unmasked(names, *side, *piece, l).unwrap_or_default()
            ),
            None => format!(
                "  {} loses sight of {}",
                names.side(*side),
                names.piece(*piece)
            ),
        },
        Event::Contact { piece, at, deploy } => {
            let who: Vec<String> = deploy.iter().map(|p| names.piece(*p)).collect();
            format!(
                "  {} comes into contact at {at}; deploying in order: {}",
                names.piece(*piece),
                who.join(", ")
            )
        }
        Event::EnemyMoved { piece, from, to } => format!(
            "  {} moved from {} to {}",
            names.piece(*piece),
            from.as_ref()
                .map_or_else(|| "out of sight".to_owned(), place),
            to.as_ref().map_or_else(|| "out of sight".to_owned(), place)
        ),
        Event::Redeployed { piece, to } => {
            format!("  {} lifted and put down at {to}", names.piece(*piece))
        }
        Event::Announced { text } => format!("  announced: {text}"),
        Event::SpotRolled { roll: r, .. } => {
            format!("  {} ({})", roll_in(names.game.rules(), r), r.purpose)
        }
        _ => String::new(),
    }
}

/// What a sighting that identifies a marker adds to the side's own log: which marker it
/// was (`: marker #9 is adum2, a dummy`). The log names an identified piece by its name in
/// every line, even those written while it was a marker, so without this no line ties the
/// marker the side watched on its board to the piece it turned out to be. Said only when
/// the level reached discloses identity and the side's sighting of the piece just before
/// was a lower level (a marker it was watching), never for the referee.
fn unmasked(names: &Names<'_>, side: SideId, piece: PieceId, level: &str) -> Option<String> {
    let (Some(viewer), Some(index)) = (names.viewer, names.index) else {
        return None;
    };
    let sighting = names.game.sighting().filter(|_| viewer == side)?;
    let identifies = |name: &str| {
        sighting
            .levels
            .iter()
            .any(|d| d.name == name && d.discloses.has(Disclosure::IDENTITY))
    };
    if !identifies(level) {
        return None;
    }
    let log = names.game.events_for(side);
    let before = log.get(..index)?.iter().rev().find_map(|e| match e {
        Event::Sighted {
            side: s,
            piece: p,
            level,
        } if *s == side && *p == piece => Some(level.as_deref()),
        _ => None,
    })?;
    // A marker seen a moment ago at a level that did not identify it.
    before.filter(|b| !identifies(b))?;
    let state = names.game.state();
    let handle = state
        .knowledge
        .get(side.index())?
        .handle_at(piece, index.saturating_sub(1))?;
    let p = state.pieces.get(piece.index())?;
    let kind = names.game.rules().piece_types.get(p.kind.index())?;
    let what = if kind.dummy {
        "a dummy".to_owned()
    } else {
        kind.name.clone()
    };
    Some(format!(": marker #{handle} is {}, {what}", p.name))
}

/// The sequence of play: phases, initiative and the end of the game.
fn sequence_line(e: &Event) -> String {
    match e {
        Event::PhaseBegan {
            turn,
            phase,
            phasing,
            ..
        } => {
            format!("turn {turn} · {phase} phase ({phasing})")
        }
        Event::Initiative { turn, rolls, order } => {
            let rolls: Vec<String> = rolls
                .iter()
                .map(|(side, dice, total)| {
                    let faces: Vec<&str> = dice.iter().map(|d| d.face.as_str()).collect();
                    format!("{side} {} = {total}", faces.join("+"))
                })
                .collect();
            format!(
                "turn {turn} initiative: {}; order {}",
                rolls.join(", "),
                order.join(", ")
            )
        }
        Event::GameOver { turns } => format!("game over after {turns} turns"),
        Event::GameResult { why, .. } => format!("result: {why}"),
        _ => String::new(),
    }
}

/// Moves, facing and mode changes, saved points and spread commands.
fn movement_line(names: &Names<'_>, e: &Event) -> String {
    match e {
        Event::Moved {
            piece,
            path: p,
            cost,
            stopped,
        } => {
            let mut s = format!("  {} moved {}, cost {cost}", names.piece(*piece), path(p));
            if let Some(why) = stopped {
                s.push_str(&format!(" (stopped: {why})"));
            }
            s
        }
        Event::MovedOnTable {
            piece,
            from,
            to,
            cost,
        } => {
            format!("  {} moved {from} → {to}, {cost}\"", names.piece(*piece))
        }
        Event::Faced { piece, facing } => format!("  {} now faces {facing}", names.piece(*piece)),
        Event::ModeChanged { piece, from, to } => {
            format!("  {} changed mode {from} → {to}", names.piece(*piece))
        }
        Event::Saved {
            piece,
            toward,
            points,
        } => format!(
            "  {} stands and saves its points toward {toward} ({points} saved)",
            names.piece(*piece)
        ),
        Event::Spread { piece, cells } => match cells.as_slice() {
            [one] => format!("  {} gathers into {one}", names.piece(*piece)),
            _ => format!("  {} now spreads over {}", names.piece(*piece), path(cells)),
        },
        _ => String::new(),
    }
}

/// Actions and the rolls hooks make.
fn action_line(names: &Names<'_>, e: &Event) -> String {
    match e {
        Event::Acted {
            piece,
            action,
            target,
            roll: r,
            intent,
        } => {
            let mut s = format!("  {} {action}", names.piece(*piece));
            if let Some(t) = target {
                s.push_str(&format!(" at {}", names.piece(*t)));
            }
            if !intent.is_empty() {
                s.push_str(&format!(" (for {})", intent.join(", ")));
            }
            if let Some(r) = r {
                s.push_str(&format!(" — {}", roll_in(names.game.rules(), r)));
            }
            s
        }
        Event::Rolled { roll: r } => {
            format!("  {} ({})", roll_in(names.game.rules(), r), r.purpose)
        }
        _ => String::new(),
    }
}

/// What effects and hooks change: counters, flags, places, arrivals, attachments, removals
/// and notes.
fn change_line(names: &Names<'_>, e: &Event) -> String {
    match e {
        Event::CounterChanged {
            piece,
            counter,
            from,
            to,
        } => {
            let called = counter_words(names.game.rules(), counter);
            format!("  {} {called} {from} → {to}", names.piece(*piece))
        }
        Event::FlagChanged { piece, flag, on } => {
            format!("  {} {}", names.piece(*piece), flag_words(flag, *on))
        }
        Event::Placed {
            piece,
            from,
            to,
            reason,
        } => format!("  {} placed {from} → {to} ({reason})", names.piece(*piece)),
        Event::PlacedOnTable {
            piece,
            from,
            to,
            reason,
        } => format!("  {} placed {from} → {to} ({reason})", names.piece(*piece)),
        Event::Arrived { piece, at, reason } => {
            format!("  {} arrived at {at} ({reason})", names.piece(*piece))
        }
        Event::Attached { piece, to } => match to {
            Some(host) => format!(
                "  {} attached to {}",
                names.piece(*piece),
                names.piece(*host)
            ),
            None => format!("  {} detached", names.piece(*piece)),
        },
        // A reason that says "removed" again reads "removed (by a chart result)", not
        // "removed (removed by a chart result)".
        Event::Removed { piece, reason } => format!(
            "  {} removed ({})",
            names.piece(*piece),
            reason.strip_prefix("removed ").unwrap_or(reason)
        ),
        Event::Note { text } | Event::NoteNaming { text, .. } => format!("  note: {text}"),
        _ => String::new(),
    }
}

/// True when the event at `index` of `log` is a deed flag set (`has fired`, `has dug in`)
/// on the piece whose order was just logged — its `Acted` line, followed only by rolls,
/// counters, flags and notes of that order: the line tells the deed a second time ("b1
/// dig", then "b1 has dug in"; issue 37, the ninth outside player's F5). The editor's log
/// and the text of `grognard play`, [`side_view`] and [`referee_view`] (`grognard view`,
/// the server's per-seat text and so the browser's log) leave such a line out; `--json`
/// and the server's view JSON keep every event. A flag named for the
/// order is the same deed whatever its wording: the order's own name (`hand_haul` after
/// "br_battery hand haul") or it under one word before it (`order_hold` after "br_bde2
/// hold"; the tenth outside player's F10).
#[must_use]
pub fn repeats_order(log: &[Event], index: usize) -> bool {
    let Some(Event::FlagChanged {
        piece,
        flag,
        on: true,
    }) = log.get(index)
    else {
        return false;
    };
    let deed = flag_words(flag, true).starts_with("has ");
    for e in log[..index].iter().rev() {
        match e {
            Event::Acted {
                piece: actor,
                action,
                ..
            } => return actor == piece && (deed || named_for(flag, action)),
            Event::CounterChanged { .. }
            | Event::FlagChanged { .. }
            | Event::Rolled { .. }
            | Event::Note { .. }
            | Event::NoteNaming { .. } => {}
            _ => return false,
        }
    }
    false
}

/// True when `flag` is named for the order `action`: the same name, or it after one word
/// (`order_hold` for `hold`), or it before a word that only says it was done
/// (`support_charge_done`, the twelfth outside player's finding 12) — not before another
/// (`rally_failed` tells how a rally went).
fn named_for(flag: &str, action: &str) -> bool {
    const DONE: [&str; 4] = ["done", "used", "made", "taken"];
    flag == action
        || flag
            .strip_suffix(action)
            .and_then(|head| head.strip_suffix('_'))
            .is_some_and(|head| !head.is_empty() && !head.contains('_'))
        || flag
            .strip_prefix(action)
            .and_then(|tail| tail.strip_prefix('_'))
            .is_some_and(|tail| DONE.contains(&tail))
}

/// A counter as the log names it: its `called:` words when the ruleset gives them (Hex
/// Command's `te` is "fatigue (TE) hits"), else its name.
#[must_use]
pub fn counter_words<'r>(rules: &'r grognard_kernel::rules::Rules, counter: &'r str) -> &'r str {
    rules
        .counters
        .iter()
        .find(|c| c.name == counter && !c.called.is_empty())
        .map_or(counter, |c| c.called.as_str())
}

/// A flag set or cleared, as a rulebook says it: a state read after "is" (`is routed`,
/// `is no longer in_melee`, `is awaiting_fate`), what the piece did this turn after "has"
/// (`has fired`, `has dug in`, `has been given an order`), any other name as the marker it
/// is (`is marked “may_close”`, `is no longer marked “fought_SE”`): a ruleset's flags are
/// named for its bookkeeping, and "is may close", "is fought SE" or "is fired" read as
/// garbled. A name reads as a deed when it is one word naming something a piece does by
/// itself (`DEEDS`: "is fired" would say someone fired it); as a state when it is one word
/// ending as a participle or adjective does (`routed`, `shaken`, `holding`, `inactive`,
/// `cautious`) or one of the short ones (`lost`, `adrift`), or begins with a preposition
/// (`in_melee`, `out_of_command`, `on_road`) or an -ing word (`awaiting_fate`,
/// `holding_fire`). A deed cleared reads as its marker (`is no longer marked “fired”`): the
/// piece did fire; only the mark of it goes.
#[must_use]
pub fn flag_words(flag: &str, on: bool) -> String {
    let no_longer = if on { "" } else { "no longer " };
    let words: Vec<&str> = flag.split('_').filter(|w| !w.is_empty()).collect();
    if on
        && let [one] = words.as_slice()
        && let Some((_, said)) = DEEDS.iter().find(|(name, _)| name == one)
    {
        return format!("has {said}");
    }
    let state = match words.as_slice() {
        [one] if DEEDS.iter().any(|(name, _)| name == one) => false,
        [one] => {
            ["ed", "en", "wn", "ing", "ive", "ous", "ful"]
                .iter()
                .any(|end| one.len() > end.len() + 1 && one.ends_with(end))
                || [
                    "lost", "hurt", "adrift", "held", "stuck", "spent", "cut", "hit",
                ]
                .contains(one)
        }
        [first, ..] => {
            ["in", "on", "out", "off", "at", "under", "within"].contains(first)
                // `facing_fixed` is no state of facing: "is facing fixed" misleads.
                || (first.len() > 4 && first.ends_with("ing") && *first != "facing")
        }
        [] => false,
    };
    if state {
        format!("is {no_longer}{flag}")
    } else {
        format!("is {no_longer}marked “{flag}”")
    }
}

/// One-word flags that name what the piece itself did this turn or phase, and how that
/// reads after "has": every such flag of the bundled rulesets (black-powder's `fired`,
/// `charged`, `ordered`, `blundered`, `prolonged`; hex-command's `fired`, `dug`, `rallied`,
/// `withdrawn`; village-skirmish's `fought`; hex-leaders' `escaped`) and the common verbs a
/// new ruleset may use. A passive one ("disordered", "routed", "shaken", "emplaced") is a
/// state the piece is in, not a deed, and is not here.
const DEEDS: &[(&str, &str)] = &[
    ("fired", "fired"),
    ("shot", "shot"),
    ("charged", "charged"),
    ("fought", "fought"),
    ("moved", "moved"),
    ("marched", "marched"),
    ("advanced", "advanced"),
    ("retired", "retired"),
    ("retreated", "retreated"),
    ("withdrew", "withdrawn"),
    ("withdrawn", "withdrawn"),
    ("dug", "dug in"),
    ("rallied", "rallied"),
    ("blundered", "blundered"),
    ("escaped", "escaped"),
    ("prolonged", "moved on prolong"),
    ("ordered", "been given an order"),
    ("attacked", "attacked"),
    ("meleed", "meleed"),
    ("acted", "acted"),
    ("activated", "been activated"),
];

/// Where a piece is, in a few characters: `c4`, `c4+d4` for a spread, a table point, or
/// `off the board`.
#[must_use]
pub fn place_text(p: &Place) -> String {
    match p {
        Place::Cell(c) => c.to_string(),
        Place::Spread(cs) => cs
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("+"),
        Place::Point { at, .. } => at.to_string(),
        Place::Off => "off the board".to_owned(),
    }
}

/// The turn a view names: the turn being played, or once the game ran past its last turn
/// the last turn (the game ended on it; the state's count has already moved on).
fn turn_shown(game: &Game, turn: u32, over: bool) -> u32 {
    if over { turn.min(game.turns()) } else { turn }
}

/// True when a piece's facing means something on this board: always on an open table; on
/// a grid when its type faces (or, for an enemy whose type the side does not know, when
/// any type of the ruleset does).
fn shows_facing(
    game: &Game,
    kind: Option<grognard_kernel::ids::PieceTypeId>,
    place: &Place,
) -> bool {
    if matches!(place, Place::Point { .. }) {
        return true;
    }
    if matches!(place, Place::Off) {
        return false;
    }
    let rules = game.rules();
    match kind.and_then(|k| rules.piece_type(k)) {
        Some(t) => t.faces,
        None => rules.piece_types.iter().any(|t| t.faces),
    }
}

/// A piece's counters that moved off their starting value (hits 2) and the flags it
/// carries, as a view lists them after the piece.
fn marks(rules: &grognard_kernel::rules::Rules, p: &grognard_kernel::piece::Piece) -> Vec<String> {
    let mut extra: Vec<String> = rules
        .counters
        .iter()
        .zip(&p.counters)
        .filter(|(c, v)| **v != c.initial)
        .map(|(c, v)| format!("{} {v}", c.name))
        .collect();
    extra.extend(
        rules
            .flags
            .iter()
            .enumerate()
            .filter(|(i, _)| p.flag(grognard_kernel::ids::FlagId(*i as u16)))
            .map(|(_, f)| f.name.clone()),
    );
    extra
}

/// A side's view as `grognard view --side` prints it, without the log.
#[must_use]
pub fn view(game: &Game, view: &View) -> String {
    let mut text = String::new();
    let rules = game.rules();
    push_line!(
        text,
        "view of {} · turn {} · {}",
        view.side_name,
        turn_shown(game, view.turn, view.over),
        match (&view.phase, &view.phasing) {
            (Some(p), Some(s)) => format!("{p} phase ({s})"),
            _ => "game over".to_owned(),
        }
    );
    if let Some(r) = &view.result {
        push_line!(text, "result: {}", r.why);
    }
    push_line!(text, "own pieces:");
    for (i, p) in view.own.iter().enumerate() {
        let kind = rules.piece_type(p.kind).map_or("?", |t| t.name.as_str());
        let mut extra = marks(rules, p);
        if view.own_face_up.contains(&p.id) {
            extra.push("face up: the enemy sees it".to_owned());
        }
        let extra = if extra.is_empty() {
            String::new()
        } else {
            format!(" [{}]", extra.join(", "))
        };
        let facing = view
            .own_names
            .get(i)
            .filter(|_| shows_facing(game, Some(p.kind), &p.place))
            .map_or_else(String::new, |n| format!(", facing {}", n.facing));
        push_line!(
            text,
            "  {:<10} {kind}, {} mode, {}{facing}{extra}",
            p.name,
            rules.mode_name(p.mode),
            place_text(&p.place)
        );
    }
    push_line!(text, "enemy pieces known:");
    if view.enemy.is_empty() {
        push_line!(text, "  none");
    }
    for e in &view.enemy {
        let mut facts = whereabouts(game, e);
        if let Some(l) = &e.level {
            facts.push(format!("sighting {l}"));
        }
        if e.face_up {
            facts.push("face up".to_owned());
        }
        // Facts shown from an earlier sighting, not disclosed now (a marker turned face
        // down again), are said once, together, after the current ones.
        // (A piece whose whereabouts are unknown is all "last seen": its line says so first.)
        let remembered = |f: &str| e.place.is_some() && e.remembered.iter().any(|r| r == f);
        let mut last = Vec::new();
        match e.real {
            Some(true) => facts.push("real".to_owned()),
            Some(false) => facts.push("a dummy".to_owned()),
            None => {}
        }
        if remembered("real") {
            last.extend(facts.pop());
        }
        // A dummy type named `dummy` would only say "a dummy" again.
        let dummy_type = |k: &str| e.real == Some(false) && k == "dummy";
        if let Some(k) = e.kind.as_ref().filter(|k| !dummy_type(k)) {
            if remembered("kind") {
                &mut last
            } else {
                &mut facts
            }
            .push(k.clone());
        }
        if let Some(n) = e.strength {
            let dummy_none = e.real == Some(false) && n == 0;
            if !dummy_none {
                let at = if remembered("strength") {
                    &mut last
                } else {
                    &mut facts
                };
                at.push(format!("strength {n}"));
            }
        }
        // Its mode, public with its position (else as last identified).
        if let Some(m) = e.mode.as_ref().or(e.names.as_ref().map(|n| &n.mode)) {
            facts.push(format!("{m} mode"));
        }
        let others: Vec<String> = e
            .remembered
            .iter()
            .filter(|f| !matches!(f.as_str(), "real" | "kind" | "strength"))
            .cloned()
            .collect();
        if !others.is_empty() && e.place.is_some() {
            last.push(remembered_words(&others, e.real));
        }
        if !last.is_empty() {
            facts.push(format!("as last seen: {}", last.join(", ")));
        }
        // An identified piece: its counters and flags as the view's `names` disclose them
        // (private counters are not there), written as an own piece's are.
        let mut extra = String::new();
        if let Some(n) = &e.names {
            if e.kind.is_none() {
                facts.push(n.kind.clone());
            }
            let marks: Vec<String> = rules
                .counters
                .iter()
                .filter_map(|c| {
                    let v = *n.counters.get(&c.name)?;
                    (v != c.initial).then(|| format!("{} {v}", c.name))
                })
                .chain(n.flags.iter().cloned())
                .collect();
            if !marks.is_empty() {
                extra = format!(" [{}]", marks.join(", "));
            }
        }
        let label = e
            .identity
            .as_ref()
            .map_or_else(|| format!("#{}", e.handle.0), |p| p.name.clone());
        push_line!(text, "  {label:<10} {}{extra}", facts.join(", "));
    }
    built_lines(&mut text, view);
    text
}

/// Where an enemy piece is as its side knows: at a place (with its facing, where facings
/// show), last seen somewhere, or unknown.
fn whereabouts(game: &Game, e: &grognard_kernel::view::EnemyPiece) -> Vec<String> {
    let mut facts = Vec::new();
    match (&e.place, &e.last_seen) {
        (Some(p), _) => {
            facts.push(format!("at {}", place_text(p)));
            let kind = e.identity.as_ref().map(|i| i.kind);
            if let Some(f) = e
                .facing_name
                .as_ref()
                .filter(|_| shows_facing(game, kind, p))
            {
                facts.push(format!("facing {f}"));
            }
        }
        (None, Some(s)) => facts.push(format!(
            "last seen at {} on turn {}",
            place_text(&s.place),
            s.turn
        )),
        (None, None) => facts.push("whereabouts unknown".to_owned()),
    }
    facts
}

/// Board changes made in play (a bridge built), on the table for every side: the view's
/// last lines, when there are any.
fn built_lines(text: &mut String, view: &View) {
    if view.built.is_empty() {
        return;
    }
    text.push_str("built on the board:\n");
    for b in &view.built {
        text.push_str(&format!(
            "  {} between {} and {}\n",
            b.feature, b.between[0], b.between[1]
        ));
    }
}

/// The remembered facts of an enemy piece in words: `type and strength`.
fn remembered_words(facts: &[String], real: Option<bool>) -> String {
    let words: Vec<&str> = facts
        .iter()
        .map(|f| match f.as_str() {
            "real" if real == Some(false) => "a dummy",
            "real" => "real",
            "kind" => "type",
            "identity" => "the rest",
            other => other,
        })
        .collect();
    match words.as_slice() {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A side's view and its log, exactly as `grognard view FILE --side SIDE` prints them (a
/// flag line that repeats the order just logged left out: [`repeats_order`]).
#[must_use]
pub fn side_view(game: &Game, side: SideId) -> String {
    let mut text = view(game, &game.view(side));
    text.push_str("log:\n");
    let log = game.events_for(side);
    for (i, e) in log.iter().enumerate() {
        if !repeats_order(log, i) {
            push_line!(text, "{}", log_line(game, Some(side), e, i));
        }
    }
    text
}

/// The referee's view (every piece where it is) and the whole log, exactly as
/// `grognard view FILE --referee` prints them.
#[must_use]
pub fn referee_view(game: &Game) -> String {
    let mut text = String::new();
    let state = game.state();
    push_line!(
        text,
        "referee view · turn {}",
        turn_shown(game, state.turn, state.over())
    );
    // The referee sees at least what a side sees: the result, each piece's mode and marks.
    if let Some(r) = game.result() {
        push_line!(text, "result: {}", r.why);
    }
    let rules = game.rules();
    for p in &state.pieces {
        let (side, kind) = game.side_and_type_names(p);
        let facing = if shows_facing(game, Some(p.kind), &p.place) {
            match &p.place {
                Place::Point { facing, .. } => format!(", facing {facing}"),
                _ => game.board().grid().map_or_else(String::new, |g| {
                    format!(", facing {}", g.facing_name(p.facing))
                }),
            }
        } else {
            String::new()
        };
        let extra = marks(rules, p);
        let extra = if extra.is_empty() {
            String::new()
        } else {
            format!(" [{}]", extra.join(", "))
        };
        push_line!(
            text,
            "  {:<10} {side}, {kind}, {} mode, {}{facing}{extra}",
            p.name,
            rules.mode_name(p.mode),
            place_text(&p.place)
        );
    }
    text.push_str("log:\n");
    for (i, e) in game.log().iter().enumerate() {
        if !repeats_order(game.log(), i) {
            push_line!(text, "{}", event(game, e));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::counted;

    /// Issue 37 (ninth outside player, F5): "b1 dig", "b1 works 0 → 1", "b1 has dug in"
    /// told the deed twice. The flag right after its piece's order repeats it; a flag set
    /// on another piece, a state flag, or one after a move is news.
    #[test]
    fn a_deed_flag_right_after_its_pieces_order_repeats_it() {
        use grognard_kernel::action::Event;
        use grognard_kernel::ids::PieceId;
        let (b1, r1) = (PieceId(0), PieceId(1));
        let flag = |piece, flag: &str| Event::FlagChanged {
            piece,
            flag: flag.to_owned(),
            on: true,
        };
        let log = vec![
            Event::Acted {
                piece: b1,
                action: "dig".to_owned(),
                target: None,
                roll: None,
                intent: Vec::new(),
            },
            Event::CounterChanged {
                piece: b1,
                counter: "works".to_owned(),
                from: 0,
                to: 1,
            },
            flag(b1, "dug"),
            flag(r1, "fired"),
            flag(b1, "routed"),
        ];
        let repeats: Vec<bool> = (0..log.len())
            .map(|i| super::repeats_order(&log, i))
            .collect();
        assert_eq!(repeats, [false, false, true, false, false]);
    }

    /// Issue 37 (tenth outside player, F10): "br_battery hand haul" then "is marked “hand
    /// haul”", "br_bde2 hold" then "is marked “order hold”". A flag named for the order
    /// repeats it; one that tells how it went, or an old order's flag cleared, is news.
    #[test]
    fn a_flag_named_for_its_pieces_order_repeats_it() {
        use grognard_kernel::action::Event;
        use grognard_kernel::ids::PieceId;
        let b = PieceId(0);
        let acted = |action: &str| Event::Acted {
            piece: b,
            action: action.to_owned(),
            target: None,
            roll: None,
            intent: Vec::new(),
        };
        let flag = |flag: &str, on| Event::FlagChanged {
            piece: b,
            flag: flag.to_owned(),
            on,
        };
        let log = vec![
            acted("hand_haul"),
            flag("hand_haul", true),
            acted("hold"),
            flag("order_maneuver", false),
            flag("order_hold", true),
            acted("rally"),
            flag("rally_failed", true),
            flag("my_order_rally", true),
        ];
        let repeats: Vec<bool> = (0..log.len())
            .map(|i| super::repeats_order(&log, i))
            .collect();
        assert_eq!(
            repeats,
            [false, true, false, false, true, false, false, false]
        );
    }

    /// Issue 37 (twelfth outside player, finding 12): `grognard play` on
    /// examples/black-powder.orders.yaml told "fr_hussars support_charge at br_dragoons"
    /// then "fr_hussars is marked “support_charge_done”" (rulesets/black-powder.yaml l.614:
    /// the order `marks: support_charge_done`). A flag that is the order's name and
    /// `_done` repeats it; one that says how it went, or a new state, is news.
    #[test]
    fn a_flag_that_says_its_pieces_order_was_done_repeats_it() {
        use grognard_kernel::action::Event;
        use grognard_kernel::ids::PieceId;
        let b = PieceId(0);
        let acted = |action: &str| Event::Acted {
            piece: b,
            action: action.to_owned(),
            target: Some(PieceId(1)),
            roll: None,
            intent: Vec::new(),
        };
        let flag = |flag: &str| Event::FlagChanged {
            piece: b,
            flag: flag.to_owned(),
            on: true,
        };
        let log = vec![
            acted("support_charge"),
            flag("support_charge_done"),
            acted("assault"),
            flag("assault_new"),
            acted("charge"),
            flag("charge_failed"),
            flag("support_charge_done"),
        ];
        let repeats: Vec<bool> = (0..log.len())
            .map(|i| super::repeats_order(&log, i))
            .collect();
        assert_eq!(repeats, [false, true, false, false, false, false, false]);
    }

    #[test]
    fn a_flag_reads_as_a_state_or_as_a_marker() {
        use super::flag_words;
        assert_eq!(flag_words("routed", true), "is routed");
        assert_eq!(flag_words("shaken", false), "is no longer shaken");
        assert_eq!(flag_words("in_melee", true), "is in_melee");
        assert_eq!(flag_words("awaiting_fate", true), "is awaiting_fate");
        assert_eq!(flag_words("may_close", true), "is marked “may_close”");
        assert_eq!(
            flag_words("fought_SE", false),
            "is no longer marked “fought_SE”"
        );
        assert_eq!(flag_words("victor", true), "is marked “victor”");
        assert_eq!(flag_words("adrift", true), "is adrift");
        // What the piece did this turn reads after "has" (the eighth outside player's
        // "r2 is fired", "r3 is dug", "br_bde1 is ordered"); its clearing as the marker.
        assert_eq!(flag_words("fought", true), "has fought");
        assert_eq!(flag_words("fired", true), "has fired");
        assert_eq!(flag_words("fired", false), "is no longer marked “fired”");
        assert_eq!(flag_words("dug", true), "has dug in");
        assert_eq!(flag_words("charged", true), "has charged");
        assert_eq!(flag_words("ordered", true), "has been given an order");
        assert_eq!(flag_words("withdrawn", true), "has withdrawn");
        // Black-powder's guns move "on prolong" (seed 003, l.545-554): not "prolonge", the
        // eleventh outside player's puzzle (issue 37).
        assert_eq!(flag_words("prolonged", true), "has moved on prolong");
        // A passive participle stays a state.
        assert_eq!(flag_words("disordered", true), "is disordered");
        assert_eq!(flag_words("emplaced", true), "is emplaced");
    }

    /// The seventh outside player read hex-command's melee line "cube blue, cube_defender
    /// red star": a die named for the ruleset's bookkeeping reads `cube (defender)`.
    #[test]
    fn a_die_named_with_an_underscore_says_whose_it_is() {
        use super::die_name;
        assert_eq!(die_name("cube_defender"), "cube (defender)");
        assert_eq!(die_name("melee_d6_defender"), "melee d6 (defender)");
        assert_eq!(die_name("d6"), "d6");
    }

    #[test]
    fn one_of_a_counter_reads_in_the_singular() {
        assert_eq!(counted("hits", 1), "hit");
        assert_eq!(counted("hits", -1), "hit");
        assert_eq!(counted("hits", 3), "hits");
        assert_eq!(counted("casualties", 1), "casualty");
        assert_eq!(counted("stress", 1), "stress");
        assert_eq!(counted("morale", 1), "morale");
    }
}
