//! Company on the move: which own pieces a piece may pass through, stop with and join
//! (leaders and the units they lead), which half-hexes cut by the table edge may be entered,
//! leaving the board across a baseline, and the flags a move leaves behind (a unit that
//! moved far may not battle).
//!
//! Everything here is data a ruleset declares per piece type ([`Company`]) or for the whole
//! board ([`HalfHexRules`]); a type that declares nothing moves exactly as before. A step
//! these rules refuse says why as a `CompanyBan`, worded only when the step is refused.

use crate::action::{Ban, Event, Refusal, RefusalKind};
use crate::board::{Board, Edge, SideDef};
use crate::cost::Cost;
use crate::geometry::hex::HalfHex;
use crate::geometry::{Cell, Facing};
use crate::ids::{PieceId, PieceTypeId, TerrainId};
use crate::piece::{Piece, Place};
use crate::reach::{Entry, StopWhy};
use crate::rules::Rules;
use crate::state::{State, World};

pub use crate::rules::company::{AfterMove, Company, ExitEdge, ExitRule, HalfHexRules};

/// The piece that holds `piece` in place, if one does: one it carries that has moved and
/// whose type's `holds_host_option` is in force (a move's refusal words it, as
/// `HoldWhy::RiderMoved`).
pub(crate) fn held<'s>(rules: &Rules, state: &'s State, piece: &Piece) -> Option<&'s Piece> {
    state.pieces.iter().find(|p| {
        p.attached_to == Some(piece.id)
            && p.moved
            && p.on_board()
            && rules.piece_type(p.kind).is_some_and(|t| {
                t.company.attaches
                    && t.company.holds_host_option.is_some()
                    && option_on(state, t.company.holds_host_option)
            })
    })
}

/// Why `rider` may not be attached to `host`, when one of them is of an `attaches` type: the
/// carried piece is the one of an `attaches` type, no such piece carries another, and where
/// the two types declare `joins` one of them must be able to join the other.
pub(crate) fn pairing_problem(rules: &Rules, rider: &Piece, host: &Piece) -> Option<String> {
    let (rt, ht) = (rules.piece_type(rider.kind)?, rules.piece_type(host.kind)?);
    let (ra, ha) = (rt.company.attaches, ht.company.attaches);
    if !ra && !ha {
        return None;
    }
    let names = format!(
        "{} ({}) may not be with {} ({})",
        rider.name, rt.name, host.name, ht.name
    );
    if ha {
        let why = if ra {
            format!(
                "{} pieces are carried, and never carry another of their kind",
                ht.name
            )
        } else {
            format!(
                "{} is the one carried (give it `attached_to: {}`)",
                host.name, rider.name
            )
        };
        return Some(format!("{names}: {why}"));
    }
    let declared = !rt.company.joins.is_empty() || !ht.company.joins.is_empty();
    let pairs = rt.company.joins.contains(&host.kind) || ht.company.joins.contains(&rider.kind);
    (declared && !pairs).then(|| format!("{names}: neither may join the other"))
}

/// The attachments the set-up makes (`joins_at_set_up`): `(rider, host)` by piece index for
/// each piece of such a type the scenario placed, with no `attached_to`, in a cell with own
/// pieces that carry no one of its kind; or the piece at fault and why.
pub(crate) fn hosts_at_set_up(
    rules: &Rules,
    pieces: &[Piece],
) -> Result<Vec<(usize, usize)>, (usize, String)> {
    let attaches = |p: &Piece| rules.piece_type(p.kind).is_some_and(|t| t.company.attaches);
    let mut made: Vec<(usize, usize)> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let Place::Cell(at) = p.place else { continue };
        let wanted = rules
            .piece_type(p.kind)
            .is_some_and(|t| t.company.attaches && t.company.joins_at_set_up);
        // Told whom it is with, or carrying someone itself: the placement checks judge it.
        if !wanted || p.attached_to.is_some() || pieces.iter().any(|q| q.attached_to == Some(p.id))
        {
            continue;
        }
        let hosts: Vec<&Piece> = pieces
            .iter()
            .filter(|q| q.id != p.id && q.side == p.side && q.place.covers(at) && !attaches(q))
            .collect();
        let host = match hosts.as_slice() {
            [] => continue,
            [only] => *only,
            many => {
                let names: Vec<&str> = many.iter().map(|q| q.name.as_str()).collect();
                return Err((
                    i,
                    format!(
                        "piece {} stands at {at} with {}: say which it is with (`attached_to`)",
                        p.name,
                        names.join(" and ")
                    ),
                ));
            }
        };
        if let Some(why) = pairing_problem(rules, p, host) {
            return Err((i, format!("piece {why}")));
        }
        let taken = pieces
            .iter()
            .find(|q| q.attached_to == Some(host.id) && attaches(q))
            .map(|q| q.name.as_str())
            .or_else(|| {
                made.iter()
                    .find(|(_, h)| *h == host.id.index())
                    .and_then(|(r, _)| pieces.get(*r))
                    .map(|q| q.name.as_str())
            });
        if let Some(other) = taken {
            return Err((
                i,
                format!(
                    "piece {} stands at {at} with {}, which already has {other} with it",
                    p.name, host.name
                ),
            ));
        }
        made.push((i, host.id.index()));
    }
    Ok(made)
}

/// What the own pieces in a cell mean for a piece entering it.
#[derive(Clone, Debug)]
pub(crate) enum Sharing<'a> {
    /// Nothing of the piece's own is there, or its type leaves it to stacking.
    Free,
    /// It may go through but not stop.
    Pass,
    /// It may stop there only, joining this piece.
    Join(PieceId),
    /// It may go through, or stop and join this piece.
    PassOrJoin(PieceId),
    /// It may not enter; why.
    Refused(CompanyBan<'a>),
}

impl Sharing<'_> {
    /// True when the type's own rules let it go through the cell (so a stacking limit there
    /// only keeps it from stopping).
    pub(crate) const fn passes(&self) -> bool {
        matches!(self, Self::Pass | Self::PassOrJoin(_))
    }
}

fn option_on(state: &State, option: Option<usize>) -> bool {
    option.is_none_or(|o| state.options.get(o).copied().unwrap_or(false))
}

/// The pieces that go along when `id` moves: those attached to it, except pieces of an
/// `attaches` type that have already moved (they are left behind).
pub(crate) fn passengers<'s>(
    rules: &'s Rules,
    state: &'s State,
    id: PieceId,
) -> impl Iterator<Item = &'s Piece> + 's {
    state.pieces.iter().filter(move |p| {
        p.attached_to == Some(id)
            && p.on_board()
            && !(p.moved && rules.piece_type(p.kind).is_some_and(|t| t.company.attaches))
    })
}

/// What entering `to` means for `piece` given the own pieces there.
pub(crate) fn sharing<'a>(rules: &Rules, state: &'a State, piece: &Piece, to: Cell) -> Sharing<'a> {
    let Some(ty) = rules.piece_type(piece.kind) else {
        return Sharing::Free;
    };
    let company = &ty.company;
    if !company.shares() {
        return Sharing::Free;
    }
    let riders: Vec<PieceId> = passengers(rules, state, piece.id).map(|p| p.id).collect();
    let own: Vec<&Piece> = state
        .pieces
        .iter()
        .filter(|p| {
            p.id != piece.id
                && p.side == piece.side
                && p.on_board()
                && p.place.covers(to)
                && !riders.contains(&p.id)
        })
        .collect();
    if own.is_empty() {
        return Sharing::Free;
    }
    // A piece riding a passable own piece there (a battery's crew, a commander attached to
    // it) is passed with its host.
    let passable = |p: &Piece| company.passes.contains(&p.kind);
    let pass = own.iter().all(|p| {
        passable(p)
            || p.attached_to
                .is_some_and(|h| own.iter().any(|o| o.id == h && passable(o)))
    });
    let join = match own.as_slice() {
        [only] if company.joins.contains(&only.kind) => {
            let with_others = only.attached_to.is_some()
                || state
                    .pieces
                    .iter()
                    .any(|p| p.attached_to == Some(only.id) && p.id != piece.id && p.on_board());
            if let Some(rider) = riders.first().and_then(|r| state.pieces.get(r.index())) {
                Err(CompanyBan::Carrying { rider, only })
            } else if with_others {
                Err(CompanyBan::NotAlone(only))
            } else {
                Ok(Some(only.id))
            }
        }
        _ => Ok(None),
    };
    match (pass, join) {
        (true, Ok(Some(t))) => Sharing::PassOrJoin(t),
        (true, _) => Sharing::Pass,
        (false, Ok(Some(t))) => Sharing::Join(t),
        (false, Err(ban)) => Sharing::Refused(ban),
        // A type that only passes some pieces leaves the others to stacking.
        (false, Ok(None)) if company.joins.is_empty() => Sharing::Free,
        (false, Ok(None)) => Sharing::Refused(CompanyBan::NeitherPassNorJoin(own)),
    }
}

/// The baseline `piece` may leave the board by now, if any.
pub(crate) fn exit_edges(
    rules: &Rules,
    sides: &[SideDef],
    state: &State,
    piece: &Piece,
) -> Vec<Edge> {
    let Some(rule) = rules
        .piece_type(piece.kind)
        .and_then(|t| t.company.exits.as_ref())
    else {
        return Vec::new();
    };
    if !option_on(state, rule.option) {
        return Vec::new();
    }
    let mut edges: Vec<Edge> = sides
        .iter()
        .enumerate()
        .filter(|(i, _)| match rule.edge {
            ExitEdge::Own => *i == piece.side.index(),
            ExitEdge::Enemy => *i != piece.side.index(),
            ExitEdge::Any => true,
        })
        .filter_map(|(_, s)| s.baseline)
        .collect();
    edges.sort_by_key(|e| *e as u8);
    edges.dedup();
    edges
}

/// The exit rule `piece` breaks when it would leave across `edge`, a side's baseline its
/// type's exit rule (in force) does not allow. `None` when no such rule speaks to that edge.
fn wrong_baseline<'a>(
    rules: &Rules,
    sides: &'a [SideDef],
    state: &State,
    piece: &Piece,
    edge: Edge,
) -> Option<WrongBaseline<'a>> {
    let rule = rules
        .piece_type(piece.kind)
        .and_then(|t| t.company.exits.as_ref())?;
    if !option_on(state, rule.option) {
        return None;
    }
    let owner = sides.iter().find(|s| s.baseline == Some(edge))?;
    let whose = match rule.edge {
        ExitEdge::Own => "its own side's baseline",
        ExitEdge::Enemy => "the enemy's baseline",
        ExitEdge::Any => return None,
    };
    Some(WrongBaseline {
        whose,
        owner: &owner.name,
    })
}

/// The edge beyond which `c` lies, when it is just off a grid board of `cols` × `rows`
/// across one edge (corners beyond two edges count for neither).
///
/// # Example
/// ```
/// use grognard_kernel::board::Edge;
/// use grognard_kernel::company::beyond;
/// use grognard_kernel::geometry::Cell;
/// // 002: a leader leaves by his own baseline, one step past its last row.
/// assert_eq!(beyond(Cell::new(4, -1), 13, 9), Some(Edge::North));
/// assert_eq!(beyond(Cell::new(4, 9), 13, 9), Some(Edge::South));
/// assert_eq!(beyond(Cell::new(-1, -1), 13, 9), None);
/// assert_eq!(beyond(Cell::new(4, 4), 13, 9), None);
/// ```
#[must_use]
pub fn beyond(c: Cell, cols: i32, rows: i32) -> Option<Edge> {
    let in_cols = (0..cols).contains(&c.col);
    let in_rows = (0..rows).contains(&c.row);
    match (c.col, c.row) {
        (_, -1) if in_cols => Some(Edge::North),
        (_, r) if r == rows && in_cols => Some(Edge::South),
        (-1, _) if in_rows => Some(Edge::West),
        (k, _) if k == cols && in_rows => Some(Edge::East),
        _ => None,
    }
}

/// Every cell just off the board across one of `edges`, in a fixed order: the places a
/// path may end in to leave the board.
pub(crate) fn exit_cells(board: &Board, edges: &[Edge]) -> Vec<Cell> {
    let Some((cols, rows)) = board.dimensions() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in edges {
        match e {
            Edge::North => out.extend((0..cols).map(|c| Cell::new(c, -1))),
            Edge::South => out.extend((0..cols).map(|c| Cell::new(c, rows))),
            Edge::West => out.extend((0..rows).map(|r| Cell::new(-1, r))),
            Edge::East => out.extend((0..rows).map(|r| Cell::new(cols, r))),
        }
    }
    out
}

/// The cost of stepping from `from` off the board in `dir`: one grid step, except from a
/// baseline half-hex, which with the step off counts as a single hex (the step onto the
/// half-hex paid for both).
pub(crate) fn exit_cost(board: &Board, from: Cell, dir: Facing) -> Cost {
    if board.half_hex(from) == Some(HalfHex::Baseline) {
        return Cost::ZERO;
    }
    board.grid().map_or(Cost::ONE, |g| g.step_cost(dir))
}

/// Whether `piece` may enter the half-hex `to`: `Ok(true)` when it may stop there,
/// `Ok(false)` when it may only pass through it to leave the board across that baseline,
/// `Err` when it may not enter.
pub(crate) fn half_hex_entry<'a>(
    rules: &Rules,
    board: &Board,
    sides: &'a [SideDef],
    state: &State,
    piece: &Piece,
    from: Cell,
    to: Cell,
) -> Result<bool, CompanyBan<'a>> {
    let option = rules.half_hexes.baselines_option;
    let baselines_open =
        rules.half_hexes.baselines || (option.is_some() && option_on(state, option));
    // A closed baseline half-hex is only a way off the board: nothing goes on from it
    // along the board.
    if !baselines_open && board.half_hex(from) == Some(HalfHex::Baseline) {
        return Err(CompanyBan::FromBaseline(from));
    }
    match board.half_hex(to) {
        None => Ok(true),
        Some(HalfHex::Side) if rules.half_hexes.sides => Ok(true),
        Some(HalfHex::Side) => Err(CompanyBan::SideHalfHex),
        Some(HalfHex::Baseline) if baselines_open => Ok(true),
        Some(HalfHex::Baseline) => {
            let on_edge = |e: Edge| board.on_edge(to, e);
            if exit_edges(rules, sides, state, piece)
                .into_iter()
                .any(on_edge)
            {
                Ok(false)
            } else {
                let wrong = [Edge::North, Edge::South, Edge::West, Edge::East]
                    .into_iter()
                    .filter(|e| board.on_edge(to, *e))
                    .find_map(|e| wrong_baseline(rules, sides, state, piece, e));
                Err(CompanyBan::BaselineHalfHex(wrong))
            }
        }
    }
}

/// Finishes a move of `id` that ended at `end` after `steps` cells: attaches carried
/// leaders as moved, joins the lone piece there, takes a piece that left the board off it,
/// and sets the flags the move leaves. Runs after the mover and its passengers were placed.
pub(crate) fn settle(
    rules: &Rules,
    board: &Board,
    next: &mut State,
    events: &mut Vec<Event>,
    id: PieceId,
    steps: usize,
    end: Cell,
) {
    let Some(mover) = next.pieces.get(id.index()).cloned() else {
        return;
    };
    let Some(ty) = rules.piece_type(mover.kind) else {
        return;
    };
    // Whom it joins is decided before its riders count as moved (and so stop being riders).
    let target = if board.contains(end) {
        match sharing(rules, next, &mover, end) {
            Sharing::Join(t) | Sharing::PassOrJoin(t) => Some(t),
            _ => None,
        }
    } else {
        None
    };
    // Being carried counts as a move for pieces that attach (a leader ordered with his unit).
    for p in &mut next.pieces {
        if p.attached_to == Some(id) && rules.piece_type(p.kind).is_some_and(|t| t.company.attaches)
        {
            p.moved = true;
        }
    }
    if !board.contains(end) {
        // Each piece that leaves is given its own type's mark (a leader carried off by his
        // unit has left the board as much as one who walked off).
        let marks = |p: &Piece| {
            rules
                .piece_type(p.kind)
                .and_then(|t| t.company.exits.as_ref())
                .and_then(|e| e.marks)
        };
        for p in &mut next.pieces {
            if p.id == id || p.attached_to == Some(id) {
                p.place = Place::Off;
                events.push(Event::Removed {
                    piece: p.id,
                    reason: format!("left the board at {end}"),
                });
                if let Some(f) = marks(p)
                    && !p.flag(f)
                {
                    p.set_flag(f, true);
                    events.push(Event::FlagChanged {
                        piece: p.id,
                        flag: rules.flag_name(f).to_owned(),
                        on: true,
                    });
                }
            }
        }
        return;
    }
    if let Some(t) = target {
        let target_attaches = next
            .pieces
            .get(t.index())
            .and_then(|p| rules.piece_type(p.kind))
            .is_some_and(|tt| tt.company.attaches);
        let (rider, host) = if !ty.company.attaches && target_attaches {
            (t, id)
        } else {
            (id, t)
        };
        if let Some(p) = next.pieces.get_mut(rider.index()) {
            p.attached_to = Some(host);
            events.push(Event::Attached {
                piece: rider,
                to: Some(host),
            });
        }
    }
    after_move_flags(rules, next, events, id, steps, board.terrain(end));
}

/// Sets the flags the mover's type's `after_move` entries give for a move of `steps` cells
/// that ended in `terrain`, logging each newly set. An open-table move counts as one step
/// and ends in the terrain at the piece's point.
pub(crate) fn after_move_flags(
    rules: &Rules,
    next: &mut State,
    events: &mut Vec<Event>,
    id: PieceId,
    steps: usize,
    terrain: TerrainId,
) {
    let Some(p) = next.pieces.get_mut(id.index()) else {
        return;
    };
    let Some(ty) = rules.piece_type(p.kind) else {
        return;
    };
    for rule in &ty.company.after_move {
        let far = steps >= rule.min_steps as usize;
        let there = rule.into.is_empty() || rule.into.contains(&terrain);
        if far && there && !p.flag(rule.set) {
            p.set_flag(rule.set, true);
            events.push(Event::FlagChanged {
                piece: id,
                flag: rules.flag_name(rule.set).to_owned(),
                on: true,
            });
        }
    }
}

/// Detaches from `id` the pieces that will not go along with it (already moved pieces of an
/// `attaches` type), logging each.
pub(crate) fn leave_behind(rules: &Rules, next: &mut State, events: &mut Vec<Event>, id: PieceId) {
    for p in &mut next.pieces {
        if p.attached_to == Some(id)
            && p.moved
            && rules.piece_type(p.kind).is_some_and(|t| t.company.attaches)
        {
            p.attached_to = None;
            events.push(Event::Attached {
                piece: p.id,
                to: None,
            });
        }
    }
}

/// What a step off the board at `to` (from `from`, heading `dir`) means for `piece`: the
/// end of its move across a baseline it may leave by, or a refusal.
pub(crate) fn exit_entry(
    world: &World<'_>,
    piece: &Piece,
    (from, dir, to): (Cell, Facing, Cell),
) -> Result<(Entry, Option<StopWhy>), Refusal> {
    let (rules, board, sides, state) = (world.rules, world.board, world.sides, world.state);
    let (cols, rows) = board.dimensions().unwrap_or((0, 0));
    let edges = exit_edges(rules, sides, state, piece);
    match beyond(to, cols, rows) {
        Some(e) if edges.contains(&e) => Ok((
            Entry {
                cost: exit_cost(board, from, dir),
                can_stop: true,
                can_continue: false,
            },
            Some(StopWhy::LeftBoard),
        )),
        other => {
            let wrong = other.and_then(|e| wrong_baseline(rules, sides, state, piece, e));
            Err(CompanyBan::OffBoard(wrong).refuse((rules, piece, to)))
        }
    }
}

/// What the sharing rules allow on `piece` entering `to`: whether it may stop there, may
/// go on, and why it must stop; or the refusal.
pub(crate) fn sharing_entry(
    rules: &Rules,
    piece: &Piece,
    to: Cell,
    sharing: &Sharing<'_>,
) -> Result<(bool, bool, Option<StopWhy>), Refusal> {
    match sharing {
        Sharing::Free => Ok((true, true, None)),
        Sharing::Pass => Ok((false, true, None)),
        Sharing::Join(t) => Ok((true, false, Some(StopWhy::Joined(*t)))),
        Sharing::PassOrJoin(_) => Ok((true, true, None)),
        Sharing::Refused(ban) => Err(ban.clone().refuse((rules, piece, to))),
    }
}

/// The exit rule a piece breaks by leaving across a baseline it may not leave by: whose
/// baseline the rule allows, and the side whose baseline it is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WrongBaseline<'a> {
    /// The baseline the rule allows, in words ("its own side's baseline").
    whose: &'static str,
    /// The name of the side whose baseline the piece would leave by.
    owner: &'a str,
}

/// Why a piece's company or the board's edge refuses a step into a cell, kept as data
/// until its words are needed (a [`Ban`], as `game/bans.rs` lists them). The mover and the
/// cell are given when it is worded.
#[derive(Clone, Debug)]
pub(crate) enum CompanyBan<'a> {
    /// The mover carries `rider` and so may not join `only`.
    Carrying {
        /// The piece it carries.
        rider: &'a Piece,
        /// The lone piece it would join.
        only: &'a Piece,
    },
    /// The piece it would join is not alone there.
    NotAlone(&'a Piece),
    /// Its type may neither pass nor join the own pieces there.
    NeitherPassNorJoin(Vec<&'a Piece>),
    /// It stands on a closed baseline half-hex (this cell), from which it may only leave.
    FromBaseline(Cell),
    /// The cell is a half-hex on the side edge, closed to all.
    SideHalfHex,
    /// The cell is a closed half-hex on a baseline; the exit rule it breaks, if one does.
    BaselineHalfHex(Option<WrongBaseline<'a>>),
    /// The cell is off the board and no exit; the exit rule it breaks, if one does.
    OffBoard(Option<WrongBaseline<'a>>),
}

impl Ban for CompanyBan<'_> {
    /// The rules, the mover and the cell it would enter.
    type Cx<'c> = (&'c Rules, &'c Piece, Cell);

    fn kind(&self) -> RefusalKind {
        match self {
            Self::Carrying { .. } | Self::NotAlone(_) | Self::NeitherPassNorJoin(_) => {
                RefusalKind::Occupied
            }
            Self::FromBaseline(_) | Self::SideHalfHex | Self::BaselineHalfHex(_) => {
                RefusalKind::Impassable
            }
            Self::OffBoard(_) => RefusalKind::BadPath,
        }
    }

    fn words(self, (rules, piece, to): Self::Cx<'_>) -> String {
        let name = &piece.name;
        let type_name = |k: PieceTypeId| rules.piece_type(k).map_or("?", |t| t.name.as_str());
        let wrong = |w: WrongBaseline<'_>| {
            format!(
                "{name} may leave the board only across {}, not {}'s",
                w.whose, w.owner
            )
        };
        match self {
            Self::Carrying { rider, only } => format!(
                "{name} cannot enter {to}: {name} already has {} with it and cannot join {}",
                rider.name, only.name
            ),
            Self::NotAlone(only) => format!(
                "{name} cannot enter {to}: {} at {to} is not alone",
                only.name
            ),
            Self::NeitherPassNorJoin(own) => {
                let names: Vec<String> = own
                    .iter()
                    .map(|p| format!("{} ({})", p.name, type_name(p.kind)))
                    .collect();
                format!(
                    "{name} cannot enter {to}: {} may neither pass nor join {}",
                    type_name(piece.kind),
                    names.join(", ")
                )
            }
            Self::FromBaseline(from) => {
                format!("{from} is a baseline half-hex; from it {name} may only leave the board")
            }
            Self::SideHalfHex => {
                format!("{to} is a half-hex on the side edge of the board; no piece may enter it")
            }
            Self::BaselineHalfHex(w) => match w {
                Some(w) => format!("{to} is a half-hex on a baseline; {}", wrong(w)),
                None => format!(
                    "{to} is a half-hex on a baseline; pieces may enter it only where the scenario allows"
                ),
            },
            Self::OffBoard(w) => match w {
                Some(w) => format!("{}: {}", crate::action::off_board(to), wrong(w)),
                None => crate::action::off_board(to),
            },
        }
    }
}
