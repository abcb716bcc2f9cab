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
    let name = |_: &Game, id: PieceId| game.name_as(viewer, id);
    let side_name = |s: SideId| {
        game.sides()
            .get(s.index())
            .map_or_else(|| "?".to_owned(), |d| d.name.clone())
    };
    match e {
        Event::Sighted { side, piece, level } => match level {
            Some(l) => format!(
                "  {} sights {} at level {l}",
                side_name(*side),
                name(game, *piece)
            ),
            None => format!(
                "  {} loses sight of {}",
                side_name(*side),
                name(game, *piece)
            ),
        },
        Event::Contact { piece, at, deploy } => {
            let who: Vec<String> = deploy.iter().map(|p| name(game, *p)).collect();
            format!(
                "  {} comes into contact at {at}; deploying in order: {}",
                name(game, *piece),
                who.join(", ")
            )
        }
        Event::EnemyMoved { piece, from, to } => format!(
            "  {} moved from {} to {}",
            name(game, *piece),
            from.as_ref()
                .map_or_else(|| "out of sight".to_owned(), place),
            to.as_ref().map_or_else(|| "out of sight".to_owned(), place)
        ),
        Event::Redeployed { piece, to } => {
            format!("  {} lifted and put down at {to}", name(game, *piece))
        }
        Event::Announced { text } => format!("  announced: {text}"),
        Event::SpotRolled { roll: r, .. } => format!("  {} ({})", roll(r), r.purpose),
        Event::Saved {
            piece,
            toward,
            points,
        } => format!(
            "  {} stands and saves its points toward {toward} ({points} saved)",
            name(game, *piece)
        ),
        Event::Spread { piece, cells } => match cells.as_slice() {
            [one] => format!("  {} gathers into {one}", name(game, *piece)),
            _ => format!("  {} now spreads over {}", name(game, *piece), path(cells)),
        },
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
        Event::Moved {
            piece,
            path: p,
            cost,
            stopped,
        } => {
            let mut s = format!("  {} moved {}, cost {cost}", name(game, *piece), path(p));
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
            format!("  {} moved {from} → {to}, {cost}\"", name(game, *piece))
        }
        Event::Faced { piece, facing } => format!("  {} now faces {facing}", name(game, *piece)),
        Event::ModeChanged { piece, from, to } => {
            format!("  {} changed mode {from} → {to}", name(game, *piece))
        }
        Event::Acted {
            piece,
            action,
            target,
            roll: r,
            intent,
        } => {
            let mut s = format!("  {} {action}", name(game, *piece));
            if let Some(t) = target {
                s.push_str(&format!(" at {}", name(game, *t)));
            }
            if !intent.is_empty() {
                s.push_str(&format!(" (for {})", intent.join(", ")));
            }
            if let Some(r) = r {
                s.push_str(&format!(" — {}", roll(r)));
            }
            s
        }
        Event::CounterChanged {
            piece,
            counter,
            from,
            to,
        } => {
            format!("  {} {counter} {from} → {to}", name(game, *piece))
        }
        Event::FlagChanged { piece, flag, on } => format!(
            "  {} is {}{flag}",
            name(game, *piece),
            if *on { "" } else { "no longer " }
        ),
        Event::Rolled { roll: r } => format!("  {} ({})", roll(r), r.purpose),
        Event::Placed {
            piece,
            from,
            to,
            reason,
        } => format!("  {} placed {from} → {to} ({reason})", name(game, *piece)),
        Event::PlacedOnTable {
            piece,
            from,
            to,
            reason,
        } => format!("  {} placed {from} → {to} ({reason})", name(game, *piece)),
        Event::Arrived { piece, at, reason } => {
            format!("  {} arrived at {at} ({reason})", name(game, *piece))
        }
        Event::Attached { piece, to } => match to {
            Some(host) => format!("  {} attached to {}", name(game, *piece), name(game, *host)),
            None => format!("  {} detached", name(game, *piece)),
        },
        Event::Removed { piece, reason } => format!("  {} removed ({reason})", name(game, *piece)),
        Event::Note { text } => format!("  note: {text}"),
        Event::GameOver { turns } => format!("game over after {turns} turns"),
    }
}
