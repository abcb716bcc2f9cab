//! Human-readable output.

use grognard_kernel::action::{Event, RollRecord};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::Cell;
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::piece::Place;

fn path(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" → ")
}

/// Writes a line to stdout; a closed pipe ends the program with success, like other
/// command-line tools, rather than a panic.
pub fn write_line(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{args}").is_err() {
        std::process::exit(0);
    }
}

/// One roll, explained: dice, faces, each modifier, score and outcome.
pub fn roll(r: &RollRecord) -> String {
    let dice: Vec<String> = r
        .dice
        .iter()
        .map(|d| match &d.rerolled_from {
            Some(first) => format!("{} {} (re-rolled {first})", d.die, d.face),
            None => format!("{} {}", d.die, d.face),
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
    match &r.band {
        Some(band) => out.push_str(&format!("; band {} ({band})", r.score)),
        None => out.push_str(&format!("; score {}", r.score)),
    }
    out.push_str(&format!(" → {}", r.outcome));
    out
}

/// One event as a line of text, as the referee reads it.
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
pub fn event_as(game: &Game, viewer: Option<SideId>, e: &Event) -> String {
    let names = Names { game, viewer };
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
        | Event::Note { .. } => change_line(&names, e),
    }
}

/// Names of pieces and sides as one viewer may read them.
struct Names<'g> {
    game: &'g Game,
    viewer: Option<SideId>,
}

impl Names<'_> {
    /// A piece's name, or its handle when the viewer has not identified it.
    fn piece(&self, id: PieceId) -> String {
        self.game.name_as(self.viewer, id)
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
                "  {} sights {} at level {l}",
                names.side(*side),
                names.piece(*piece)
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
        Event::SpotRolled { roll: r, .. } => format!("  {} ({})", roll(r), r.purpose),
        _ => String::new(),
    }
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
                s.push_str(&format!(" — {}", roll(r)));
            }
            s
        }
        Event::Rolled { roll: r } => format!("  {} ({})", roll(r), r.purpose),
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
            format!("  {} {counter} {from} → {to}", names.piece(*piece))
        }
        Event::FlagChanged { piece, flag, on } => format!(
            "  {} is {}{flag}",
            names.piece(*piece),
            if *on { "" } else { "no longer " }
        ),
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
        Event::Removed { piece, reason } => format!("  {} removed ({reason})", names.piece(*piece)),
        Event::Note { text } => format!("  note: {text}"),
        _ => String::new(),
    }
}
