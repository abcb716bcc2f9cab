//! What a player receives: a side's view of the game and that side's log.
//!
//! [`Game::view`](crate::game::Game::view) is built from the side's own pieces and its [`Knowledge`] alone, never
//! from the enemy's pieces directly; [`Game::events_for`](crate::game::Game::events_for) is the log as that side saw it,
//! redacted when each event happened. Refusals never name what the side cannot see:
//! orders naming unseen pieces get one fixed wording, moves into unseen enemies end in
//! contact instead of a refusal, and lines of sight are judged with the pieces the side
//! knows of. The channels covered, and the test that proves them, are described in
//! `docs/architecture.md`.
//!
//! [`Knowledge`]: crate::knowledge::Knowledge

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::action::Event;
use crate::geometry::Facing;
use crate::ids::{PieceId, SideId};
use crate::knowledge::{Knowledge, Seen};
use crate::piece::{Piece, Place};
use crate::rules::Rules;
use crate::state::State;

/// A piece's name as `side` may read it: the one wording of a piece for a side, used by the
/// kernel's refusals and notes ([`Game::label`](crate::game::Game)) and by the Lua
/// `game:label`. The scenario's name of every piece when the ruleset has no sighting rules;
/// else [`label_known`] from the side's knowledge.
#[must_use]
pub fn label(rules: &Rules, state: &State, side: SideId, piece: &Piece) -> String {
    if rules.sighting.is_none() {
        return piece.name.clone();
    }
    label_known(side, piece, state.knowledge.get(side.index()).as_slice())
}

/// The rule of [`label`] under sighting rules, read from what `side` knows (`knowing`: its
/// knowledge, or in an order's events its knowledge before the order and after it): the
/// scenario's name of the side's own pieces and of enemies it has identified (in any of
/// `knowing`); else the handle it knows the piece by (`enemy #N`, the first of `knowing`
/// that has one), or `an unseen enemy`.
#[must_use]
pub fn label_known(side: SideId, piece: &Piece, knowing: &[&Knowledge]) -> String {
    if piece.side == side || knowing.iter().any(|k| k.knows_identity(piece.id)) {
        return piece.name.clone();
    }
    knowing
        .iter()
        .find_map(|k| k.get(piece.id).and_then(|k| k.handle))
        .map_or_else(|| "an unseen enemy".to_owned(), |h| format!("enemy #{h}"))
}

/// `template` with `{1}`, `{2}`… replaced by the names `name` gives `pieces` (the first
/// piece for `{1}`); a number with no piece is left as written.
#[must_use]
pub fn name_pieces(
    template: &str,
    pieces: &[PieceId],
    mut name: impl FnMut(PieceId) -> String,
) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let piece = after.find('}').and_then(|close| {
            let n: usize = after[..close].parse().ok()?;
            let p = *pieces.get(n.checked_sub(1)?)?;
            Some((p, close))
        });
        match piece {
            Some((p, close)) => {
                out.push_str(&name(p));
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// An enemy piece as a side knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnemyPiece {
    /// The handle the side knows it by (the marker's number).
    pub handle: PieceId,
    /// Its owner.
    pub side: SideId,
    /// Where it is now, when the side knows.
    pub place: Option<Place>,
    /// Its facing, when the side knows where it is.
    pub facing: Option<Facing>,
    /// Where it was last seen, when the side does not know where it is now.
    pub last_seen: Option<Seen>,
    /// The sighting level held now.
    pub level: Option<String>,
    /// True when its marker is face up.
    pub face_up: bool,
    /// Real (true) or dummy, once disclosed.
    pub real: Option<bool>,
    /// Its type's name, once disclosed.
    pub kind: Option<String>,
    /// Its strength when last disclosed.
    pub strength: Option<i32>,
    /// The whole piece as last identified.
    pub identity: Option<Piece>,
    /// `facing` by name (`N`, `SE`; on an open table the angle, `90°`), when known.
    #[serde(default)]
    pub facing_name: Option<String>,
    /// `identity`'s numbers by the ruleset's names, when identified.
    #[serde(default)]
    pub names: Option<PieceNames>,
    /// Its mode by name, when the side knows where it is: a mode is public with the
    /// position (a face-down marker's mode changes reach every side that sees it).
    #[serde(default)]
    pub mode: Option<String>,
    /// The facts above (`real`, `kind`, `strength`, `identity`) shown as last disclosed,
    /// not disclosed now: a marker turned face down again is remembered as it was seen.
    #[serde(default)]
    pub remembered: Vec<String>,
}

/// A piece's type, mode, facing, counters, flags and attributes by the ruleset's names,
/// so that a client can read a view without the compiled ruleset's tables. It says
/// nothing the piece beside it does not: each field is one of its numbers, named.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceNames {
    /// The piece type's name (`kind`).
    pub kind: String,
    /// The mode's name (`mode`).
    pub mode: String,
    /// Its facing's name: a grid direction (`N`, `SE`) or, on an open table, the angle
    /// of its place (`90°`, clockwise from east).
    pub facing: String,
    /// Every counter's value by name (`counters`).
    pub counters: BTreeMap<String, i32>,
    /// The names of the flags that are set (`flags`), in the ruleset's order.
    pub flags: Vec<String>,
    /// Every attribute's value by name (`attributes`).
    pub attributes: BTreeMap<String, i32>,
    /// Its base on an open table in its mode, width by depth in thousandths of an inch
    /// (`None`: a point, or a grid piece).
    pub base: Option<crate::geometry::footprint::Footprint>,
}

/// One side's view of a game: everything a player or client of that side receives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Whose view.
    pub side: SideId,
    /// That side's name.
    pub side_name: String,
    /// Turn number.
    pub turn: u32,
    /// The current phase's name (`None` when the game is over).
    pub phase: Option<String>,
    /// The phasing side's name.
    pub phasing: Option<String>,
    /// True after the last turn.
    pub over: bool,
    /// How the game ended, once it has (public to every side).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<crate::victory::GameResult>,
    /// The side's own pieces, in full.
    pub own: Vec<Piece>,
    /// The numbers of each piece of `own`, by name, in the same order.
    #[serde(default)]
    pub own_names: Vec<PieceNames>,
    /// Those of its own pieces whose markers are face up, which the enemy sees for what
    /// they are (a flip is made in view of every player), by their ids in `own`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub own_face_up: Vec<PieceId>,
    /// Enemy pieces the side knows anything of.
    pub enemy: Vec<EnemyPiece>,
    /// Features drawn on the board in play (`game:add_feature`: a bridge built), in the
    /// order they were made. Board changes are public: the work that makes one may be
    /// hidden, but what stands on the table when it is done is there for every side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub built: Vec<BuiltFeature>,
}

/// A feature drawn on the board in play, as every side sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuiltFeature {
    /// The feature's name in the ruleset (`bridge`).
    pub feature: String,
    /// The two neighbouring cells whose boundary it lies on.
    pub between: [crate::geometry::Cell; 2],
}

/// What a side's reading of an order's events carries from one event to the next.
pub(crate) struct Reading {
    /// Whose phase it is (a phase start changes it).
    owner: Option<SideId>,
    /// The ruleset's concealed flag (`sighting.concealed_flag`), by name.
    concealed: Option<String>,
    /// Pieces whose concealed flag this order has cleared so far: a roll they make after
    /// that is made by an unmasked piece (a marker that fires is lifted before its roll).
    unmasked: Vec<PieceId>,
    /// The ruleset's `sighting.mode_with_identity`: an enemy's mode changes and untargeted
    /// actions reach a side only once it has identified the piece, and an enemy's act aimed
    /// at one of its own side's pieces only once it has identified that target.
    pub(crate) mode_with_identity: bool,
}

impl Reading {
    pub(crate) fn new(owner: Option<SideId>, concealed: Option<&str>) -> Self {
        Self {
            owner,
            concealed: concealed.map(str::to_owned),
            unmasked: Vec::new(),
            mode_with_identity: false,
        }
    }
}

/// What `side` sees of one event.
pub(crate) fn redact(
    after: &State,
    side: SideId,
    before: &Knowledge,
    now: &Knowledge,
    reading: &mut Reading,
    e: &Event,
) -> Option<Event> {
    if let Event::FlagChanged {
        piece,
        flag,
        on: false,
    } = e
        && reading.concealed.as_deref() == Some(flag.as_str())
    {
        reading.unmasked.push(*piece);
    }
    let mode_with_identity = reading.mode_with_identity;
    let owner = &mut reading.owner;
    let unmasked = reading.unmasked.as_slice();
    let mine = |id: PieceId| after.pieces.get(id.index()).is_some_and(|p| p.side == side);
    let seen = |id: PieceId| mine(id) || before.knows_position(id) || now.knows_position(id);
    // Where a knowledge puts a piece, when it knows where it is.
    let place_in = |k: &Knowledge, id: PieceId| {
        k.knows_position(id)
            .then(|| {
                k.get(id)
                    .and_then(|k| k.seen.as_ref())
                    .map(|s| s.place.clone())
            })
            .flatten()
    };
    let enemy_moved = |id: PieceId| {
        let (from, to) = (place_in(before, id), place_in(now, id));
        (from.is_some() || to.is_some()).then_some(Event::EnemyMoved {
            piece: id,
            from,
            to,
        })
    };
    match e {
        Event::PhaseBegan { owner: o, .. } => {
            *owner = *o;
            Some(e.clone())
        }
        Event::Initiative { .. }
        | Event::GameOver { .. }
        | Event::GameResult { .. }
        | Event::Announced { .. } => Some(e.clone()),
        Event::Sighted { side: s, .. } | Event::SpotRolled { side: s, .. } => {
            (*s == side).then(|| e.clone())
        }
        Event::Contact { deploy, .. } => deploy.iter().any(|p| mine(*p)).then(|| e.clone()),
        Event::Moved { piece, .. }
        | Event::MovedOnTable { piece, .. }
        | Event::Redeployed { piece, .. } => {
            if mine(*piece) {
                Some(e.clone())
            } else {
                enemy_moved(*piece)
            }
        }
        Event::EnemyMoved { .. } => None,
        // Saving is secret: the block stands still either way.
        Event::Saved { piece, .. } => mine(*piece).then(|| e.clone()),
        Event::Spread { piece, .. } => {
            if mine(*piece) {
                Some(e.clone())
            } else {
                enemy_moved(*piece)
            }
        }
        Event::Faced { piece, .. } => {
            (mine(*piece) || now.knows_position(*piece)).then(|| e.clone())
        }
        // A mode is public with the position, or under `mode_with_identity` with the
        // identity (a hidden marker's unlimbering would tell its arm, and that it is real).
        Event::ModeChanged { piece, .. } => {
            let shown =
                now.knows_position(*piece) && (!mode_with_identity || now.knows_identity(*piece));
            (mine(*piece) || shown).then(|| e.clone())
        }
        Event::Acted { piece, target, .. }
            if mode_with_identity
                && !mine(*piece)
                && target.map_or(!now.knows_identity(*piece), |t| {
                    !mine(t) && !now.knows_identity(t)
                }) =>
        {
            // An untargeted act of a piece the side has not identified (a marker's unlimber
            // or mount), or an enemy's act aimed at a piece of its own side that this side has
            // not identified (a commander attached to a marker: which marker he rides with,
            // and that it is real), is not named: the side reads at most the act's roll,
            // netted.
            match crate::rolls::acted_for(after, side, [before, now], unmasked, seen(*piece), e) {
                Some(
                    Event::Acted {
                        roll: Some(roll), ..
                    }
                    | Event::Rolled { roll },
                ) => Some(Event::Rolled { roll }),
                _ => None,
            }
        }
        Event::Acted { piece, .. } => {
            crate::rolls::acted_for(after, side, [before, now], unmasked, seen(*piece), e)
        }
        Event::CounterChanged { piece, .. } | Event::FlagChanged { piece, .. } => {
            (mine(*piece) || now.knows_identity(*piece)).then(|| e.clone())
        }
        Event::Removed { piece, .. } => {
            (mine(*piece) || before.knows_position(*piece)).then(|| e.clone())
        }
        Event::Placed { piece, .. }
        | Event::PlacedOnTable { piece, .. }
        | Event::Arrived { piece, .. }
        | Event::Attached { piece, .. } => {
            if mine(*piece) {
                Some(e.clone())
            } else {
                enemy_moved(*piece)
            }
        }
        // Whose rolls a side sees (its own, those against its pieces, its phases'; never
        // the referee's secret ones): `crate::rolls`.
        Event::Rolled { roll } => {
            crate::rolls::roll_for(after, side, [before, now], unmasked, *owner, roll)
                .map(|roll| Event::Rolled { roll })
        }
        Event::Note { .. } => owner.is_none_or(|o| o == side).then(|| e.clone()),
        // Each side reads the pieces by its own names for them.
        Event::NoteNaming {
            template, pieces, ..
        } => told(e, *owner, side).then(|| Event::Note {
            text: name_pieces(template, pieces, |p| match after.pieces.get(p.index()) {
                Some(piece) => label_known(side, piece, &[before, now]),
                None => "an unseen enemy".to_owned(),
            }),
        }),
    }
}

/// Whether `side` reads a note: the side whose phase or order it is (every side outside
/// the sides' turns), or every side when it is an announcement naming pieces.
fn told(e: &Event, owner: Option<SideId>, side: SideId) -> bool {
    matches!(e, Event::NoteNaming { to_all: true, .. }) || owner.is_none_or(|o| o == side)
}
