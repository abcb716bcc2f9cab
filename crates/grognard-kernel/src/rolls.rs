//! Who sees a chart roll. A side sees the dice, modifiers and result of every roll made
//! by its own pieces, of every roll made against its own pieces (the action's target is
//! its piece), and of the rolls of its own phases — unless the chart is a referee's
//! secret one (`secret: true`), whose rolls reach no side.
//!
//! A roll against a side's piece may be made by a piece the side has not sighted. What it
//! receives then names the firer only as it knows it — by name once identified, as
//! `enemy #N` (its handle) when it knows only a marker, as `an unseen enemy` otherwise —
//! and the record's `by` is kept only when the side has a handle for the firer. The
//! purpose a script wrote (which may name anything) is replaced by the kernel's words
//! whenever the roll names a piece the side has not identified, so two games that differ
//! only in who fired from out of sight give the side the same record, byte for byte.
//! Such a roll's inputs and itemized modifiers (an unidentified piece's melee value, hits,
//! cover...) are withheld too: the side reads the dice, the modifiers' net in one line,
//! the score and the outcome. Whether a piece counts as identified for this is judged as
//! the dice were rolled: identified after the order, and either before it or unmasked (its
//! concealed flag cleared) earlier in the order than the roll. A roll made while the piece
//! was an unidentified marker stays netted even when the piece is identified later in the
//! same order (a marker that routs into sight after the melee roll that routed it).

use crate::action::{Event, RollRecord};
use crate::ids::{PieceId, SideId};
use crate::knowledge::Knowledge;
use crate::state::State;

/// What `side` receives of `roll` (`None`: nothing), given what it knew before the order
/// and knows after it (`[before, now]`), the pieces unmasked before the roll, and whose
/// phase it is (`owner`).
pub(crate) fn roll_for(
    after: &State,
    side: SideId,
    [before, now]: [&Knowledge; 2],
    unmasked: &[PieceId],
    owner: Option<SideId>,
    roll: &RollRecord,
) -> Option<RollRecord> {
    if roll.secret {
        return None;
    }
    let mine = |id: PieceId| after.pieces.get(id.index()).is_some_and(|p| p.side == side);
    let visible = roll.by.is_some_and(mine)
        || roll.against.is_some_and(mine)
        || owner.is_none_or(|o| o == side);
    visible.then(|| as_seen(after, side, [before, now], unmasked, roll))
}

/// What `side` receives of an action event it sees (`seen_actor`: it knows or knew where
/// the actor is). An action aimed at one of its pieces by a piece it has no handle for
/// reaches it as the roll alone, the firer unnamed; a secret chart's roll is taken out.
pub(crate) fn acted_for(
    after: &State,
    side: SideId,
    [before, now]: [&Knowledge; 2],
    unmasked: &[PieceId],
    seen_actor: bool,
    event: &Event,
) -> Option<Event> {
    let Event::Acted {
        piece,
        target,
        roll,
        ..
    } = event
    else {
        return None;
    };
    let mine = |id: PieceId| after.pieces.get(id.index()).is_some_and(|p| p.side == side);
    if !seen_actor && !target.is_some_and(mine) {
        return None;
    }
    let roll = roll
        .as_ref()
        .filter(|r| !r.secret)
        .map(|r| as_seen(after, side, [before, now], unmasked, r));
    if !mine(*piece) && handle(now, *piece).is_none() {
        // Naming the actor would give away a piece the side has no handle for.
        if let Some(roll) = roll {
            return Some(Event::Rolled { roll });
        }
    }
    let mut seen = event.clone();
    if let Event::Acted { roll: r, .. } = &mut seen {
        *r = roll;
    }
    Some(seen)
}

/// The roll as `side` may read it (see the module doc): itemized only when the side had
/// identified every piece it names as the dice were rolled (`known_then`), not by a
/// sighting the order's later events (a rout, an advance) brought.
fn as_seen(
    after: &State,
    side: SideId,
    [before, now]: [&Knowledge; 2],
    unmasked: &[PieceId],
    roll: &RollRecord,
) -> RollRecord {
    let mine = |id: PieceId| after.pieces.get(id.index()).is_some_and(|p| p.side == side);
    let known = |id: PieceId| mine(id) || known_then(before, now, unmasked, id);
    if [roll.by, roll.against].into_iter().flatten().all(known) {
        return roll.clone();
    }
    let label = |id: PieceId| -> String {
        let name = after.pieces.get(id.index()).map(|p| p.name.clone());
        match name {
            Some(n) if known(id) => n,
            _ => handle(now, id)
                .map_or_else(|| "an unseen enemy".to_owned(), |h| format!("enemy #{h}")),
        }
    };
    let mut seen = roll.clone();
    let by = roll.by.map_or_else(|| "a hook".to_owned(), label);
    seen.purpose = match roll.against {
        Some(t) => format!("{} by {by} at {}", roll.chart, label(t)),
        None => format!("{} by {by}", roll.chart),
    };
    // The inputs and the itemized modifiers may carry the unidentified piece's own facts
    // (its arm, hits, cover, commander): the side reads only their net, which the score
    // and dice give anyway (a capped group tells no more than its cap).
    seen.inputs.clear();
    let net: i32 = roll.modifiers.iter().map(|m| m.value).sum();
    seen.modifiers = if roll.modifiers.is_empty() {
        Vec::new()
    } else {
        vec![crate::chart::AppliedModifier {
            name: HIDDEN_MODIFIERS.to_owned(),
            value: net,
        }]
    };
    let keep = |id: &PieceId| mine(*id) || handle(now, *id).is_some();
    seen.by = roll.by.filter(keep);
    seen.against = roll.against.filter(keep);
    seen
}

/// The one modifier a side reads of a roll naming a piece it has not identified: the net
/// of them all, unitemized.
pub const HIDDEN_MODIFIERS: &str = "modifiers in all (not itemized: an unidentified piece)";

/// Whether the side had identified enemy `id` when a roll of this order was made: it has
/// now, and it had before the order or the order unmasked the piece before the roll.
fn known_then(before: &Knowledge, now: &Knowledge, unmasked: &[PieceId], id: PieceId) -> bool {
    now.knows_identity(id) && (before.knows_identity(id) || unmasked.contains(&id))
}

/// The side's handle for an enemy piece, if it has one.
fn handle(now: &Knowledge, id: PieceId) -> Option<u32> {
    now.get(id).and_then(|k| k.handle)
}

/// Each side's log of `events` in a game without sighting rules, where every side sees
/// everything but the referee's secret rolls; empty (every side reads the whole log) when
/// the ruleset has no secret chart.
pub(crate) fn public_logs(
    rules: &crate::rules::Rules,
    sides: usize,
    events: &[Event],
) -> Vec<Vec<Event>> {
    if !has_secret_charts(rules) {
        return Vec::new();
    }
    let open = |e: &Event| -> Option<Event> {
        match e {
            Event::Rolled { roll } if roll.secret => None,
            Event::Acted { roll: Some(r), .. } if r.secret => {
                let mut e = e.clone();
                if let Event::Acted { roll, .. } = &mut e {
                    *roll = None;
                }
                Some(e)
            }
            _ => Some(e.clone()),
        }
    };
    vec![events.iter().filter_map(open).collect(); sides]
}

/// True when some chart's rolls are the referee's alone: then every side keeps a log of
/// its own even without sighting rules.
pub(crate) fn has_secret_charts(rules: &crate::rules::Rules) -> bool {
    rules.charts.iter().any(|c| c.secret)
}
