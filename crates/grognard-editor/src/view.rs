//! "View as": which pieces a viewer sees and how. The referee sees the whole state; a
//! side sees what the kernel's view for that side holds ([`Game::view`]), nothing more.
//! A remote seat, which holds only its side's view, draws it the same way
//! ([`pieces_from_view`]).
//!
//! On the open table a piece is drawn as its bases ([`DrawPiece::footprint`], from its type
//! and mode) only where the viewer is shown both: its own pieces and identified enemies. An
//! enemy known only by its position, or by its type alone, is drawn as a counter at its
//! point, so its shape gives nothing away.
//!
//! An identified enemy carries only the counters and flags its view names: the kernel
//! zeroes a private counter (a commander's traits) in the piece it hands over, and that 0
//! is no value, so it is never drawn ("cvs i 0") on a counter, hover card or panel.

use grognard_kernel::board::Board;
use grognard_kernel::game::Game;
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::piece::{Piece, Place};
use grognard_kernel::rules::Rules;
use grognard_kernel::view::{PieceNames, View};
use serde::{Deserialize, Serialize};

use crate::board::{DrawPiece, FacingMark, Look};
use crate::words::{FACE_UP, OUT_OF_SIGHT, spaced};

/// Whose eyes the board is drawn through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ViewAs {
    /// Everything, as it is.
    #[default]
    Referee,
    /// One side's knowledge.
    Side(SideId),
}

/// The label of a view in the "View as" menu.
#[must_use]
pub fn view_label(game: &Game, view: ViewAs) -> String {
    match view {
        ViewAs::Referee => "Referee".into(),
        ViewAs::Side(s) => game
            .sides()
            .get(s.index())
            .map_or_else(|| format!("side {}", s.0), |d| format!("Side {}", d.name)),
    }
}

/// Which of a piece's counters and flags the viewer is shown.
#[derive(Clone, Copy)]
enum Shown<'a> {
    /// All of them: the referee's pieces, a side's own.
    All,
    /// An identified enemy: only those its view names ([`PieceNames`]); a private
    /// counter is absent there, and its value in the piece beside it (0) is no value.
    Named(&'a PieceNames),
    /// An identified enemy from a view without names: all but the ruleset's private
    /// counters.
    Public,
}

impl Shown<'_> {
    fn counter(self, rules: &Rules, i: usize, name: &str) -> bool {
        match self {
            Shown::All => true,
            Shown::Named(n) => n.counters.contains_key(name),
            Shown::Public => !rules.private_counters.contains(&i),
        }
    }

    fn flag(self, name: &str) -> bool {
        match self {
            Shown::Named(n) => n.flags.iter().any(|f| f == name),
            Shown::All | Shown::Public => true,
        }
    }
}

/// A piece drawn face up, with the counters and flags `shown` lets the viewer read.
fn open_piece(rules: &Rules, p: &Piece, shown: Shown<'_>) -> DrawPiece {
    let mut markers = Vec::new();
    for (i, c) in rules.counters.iter().enumerate() {
        let v = p.counters.get(i).copied().unwrap_or(0);
        if v != c.initial && shown.counter(rules, i, &c.name) {
            markers.push(format!("{} {v}", spaced(&c.name)));
        }
    }
    for (i, f) in rules.flags.iter().enumerate() {
        if i < 64 && p.flags & (1 << i) != 0 && shown.flag(&f.name) {
            markers.push(spaced(&f.name));
        }
    }
    let facing = match &p.place {
        Place::Point { facing, .. } => Some(FacingMark::Angle(*facing)),
        _ if rules.piece_type(p.kind).is_some_and(|t| t.faces) => Some(FacingMark::Grid(p.facing)),
        _ => None,
    };
    DrawPiece {
        id: p.id,
        side: p.side,
        name: p.name.clone(),
        kind: rules
            .piece_type(p.kind)
            .map_or_else(String::new, |t| t.name.clone()),
        place: p.place.clone(),
        facing,
        mode: rules.mode_name(p.mode).to_owned(),
        markers,
        look: Look::Open,
        footprint: grognard_kernel::game::footprint_of(rules, p, p.mode),
    }
}

/// Every piece on the board, face up: what the referee sees.
#[must_use]
pub fn open_pieces(rules: &Rules, pieces: &[Piece]) -> Vec<DrawPiece> {
    pieces
        .iter()
        .filter(|p| p.on_board())
        .map(|p| open_piece(rules, p, Shown::All))
        .collect()
}

/// The pieces a viewer sees, in drawing order (pieces off the board are left out).
///
/// The referee sees every piece face up. A side sees exactly what [`Game::view`] gives it:
/// its own pieces in full; enemy pieces whose position it knows — face up with what it
/// has learnt of them, or face down (a block, a dummy as the enemy sees it) when it knows
/// only where they are; and ghosts where enemies it lost sight of were last seen.
#[must_use]
pub fn pieces_for(game: &Game, view: ViewAs) -> Vec<DrawPiece> {
    let ViewAs::Side(side) = view else {
        return open_pieces(game.rules(), &game.state().pieces);
    };
    // The view names pieces by the side's handles; the board selects and targets by id.
    seen_pieces(game.rules(), game.board(), &game.view(side), |h| {
        game.piece_by_handle(side, h.0).unwrap_or(h)
    })
}

/// The pieces one side's [`View`] shows, as [`pieces_for`] draws them for that side, for a
/// seat that holds only the view (a remote seat: the server keeps the game). Pieces are
/// named by the side's handles, the names the seat's orders use.
#[must_use]
pub fn pieces_from_view(rules: &Rules, board: &Board, seen: &View) -> Vec<DrawPiece> {
    seen_pieces(rules, board, seen, |h| h)
}

/// A side's view drawn, with `real` turning a handle into the id the board selects by.
fn seen_pieces(
    rules: &Rules,
    board: &Board,
    seen: &View,
    real: impl Fn(PieceId) -> PieceId,
) -> Vec<DrawPiece> {
    let mut out: Vec<DrawPiece> = seen
        .own
        .iter()
        .filter(|p| p.on_board())
        .map(|p| DrawPiece {
            id: real(p.id),
            ..open_piece(rules, p, Shown::All)
        })
        .collect();
    for e in &seen.enemy {
        // Every enemy drawn carries the name the side's log gives it (the kernel's
        // `view::label`): the piece's own once identified, else the handle ("#9").
        let log_name = e
            .identity
            .as_ref()
            .map_or_else(|| format!("#{}", e.handle.0), |p| p.name.clone());
        let grid_facing = |f| board.grid().map(|_| FacingMark::Grid(f));
        if let Some(place) = e.place.clone().filter(|p| !matches!(p, Place::Off)) {
            let known = e.face_up && (e.kind.is_some() || e.identity.is_some());
            let mut d = match (&e.identity, known) {
                (Some(identity), true) => {
                    let shown = e.names.as_ref().map_or(Shown::Public, Shown::Named);
                    open_piece(rules, identity, shown)
                }
                // A block the side cannot read still carries the handle its log names it
                // by ("french sights enemy #9"), so the player can find it on the board.
                _ => DrawPiece {
                    id: real(e.handle),
                    side: e.side,
                    name: log_name.clone(),
                    kind: String::new(),
                    place: place.clone(),
                    facing: None,
                    mode: String::new(),
                    markers: Vec::new(),
                    look: if known { Look::Open } else { Look::FaceDown },
                    footprint: None,
                },
            };
            if known && e.identity.is_none() {
                d.kind = e.kind.clone().unwrap_or_default();
                d.name.clone_from(&log_name);
            }
            if let Some(level) = &e.level {
                // A level named for sight already ("seen") is not said twice.
                d.markers.push(if level.contains("seen") {
                    level.clone()
                } else {
                    format!("seen {level}")
                });
            }
            // What the level disclosed is said, face up or down: a C sighting tells a real
            // block from a dummy and a B sighting its strength, though neither turns it up
            // for the type (the card promised these and drew a blank block).
            let remembered = |fact: &str| {
                if e.remembered.iter().any(|r| r == fact) {
                    " (as last seen)"
                } else {
                    ""
                }
            };
            match e.real {
                Some(false) => d.markers.push(format!("dummy{}", remembered("real"))),
                Some(true) if e.identity.is_none() => {
                    d.markers
                        .push(format!("real, not a dummy{}", remembered("real")));
                }
                _ => {}
            }
            if let (Some(n), None) = (e.strength, &e.identity) {
                d.markers
                    .push(format!("strength {n}{}", remembered("strength")));
            }
            // Why a block seen at a low level shows its type: its marker is face up (a
            // scout's), which every side reads whatever the level (a player took "#8 at
            // level D", drawn face up, for a leak).
            if known && e.identity.is_none() {
                d.markers.push(FACE_UP.to_owned());
            }
            // A face-down block no piece of the side sees now is still drawn where it
            // stands when positions are public: it says so (the log has just said
            // "loses sight of enemy #9"; an outline is kept for a place only last seen).
            let levels = rules.sighting.as_ref().is_some_and(|s| s.levels.len() > 1);
            if !known && e.level.is_none() && levels {
                d.markers.push(OUT_OF_SIGHT.to_owned());
            }
            d.id = real(e.handle);
            d.place = place;
            // The view gives where an enemy faces whenever it knows where it is, but a
            // facing means something only for a type that faces: an arrow is drawn only
            // when the viewer knows the type and the type has a front (as the referee sees).
            let faces = rules
                .piece_types
                .iter()
                .any(|t| t.name == d.kind && t.faces);
            // A block whose type is unknown is drawn facing as the view says (facing is
            // public where the view gives it: the text view said "#9 … facing N" while the
            // board drew no arrow); a known type without a front gets none.
            d.facing = match (&d.place, e.facing) {
                (Place::Point { facing, .. }, _) => Some(FacingMark::Angle(*facing)),
                (_, Some(f)) if (known && faces) || d.kind.is_empty() => grid_facing(f),
                _ => None,
            };
            // Its mode, as the view gives it (public with the position): the letter after
            // its name, as on the side's own counters.
            if d.mode.is_empty()
                && let Some(mode) = &e.mode
            {
                d.mode.clone_from(mode);
            }
            out.push(d);
        } else if let Some(last) = &e.last_seen {
            out.push(DrawPiece {
                id: real(e.handle),
                side: e.side,
                name: log_name,
                kind: String::new(),
                place: last.place.clone(),
                facing: None,
                mode: String::new(),
                markers: vec![format!("last seen turn {}", last.turn)],
                look: Look::Ghost,
                footprint: None,
            });
        }
    }
    out
}
