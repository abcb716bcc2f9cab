//! How a piece's facing shapes its moves: pieces that step only into the cells ahead of
//! them (turning to face each step, so they never step back or sideways without a facing
//! change first), facing changes that cost movement points and are limited in number, and
//! flags that slow a piece to a few cells a move.
//!
//! Reach and moves both ask this module, so the cells `Game::reach` lists are exactly the
//! ones a move order may end in. A piece type that declares nothing moves as before.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use crate::action::{Ban, Refusal, RefusalKind};
use crate::cost::Cost;
use crate::geometry::{Cell, Facing, Grid};
use crate::piece::Piece;
use crate::reach::{Entry, Frame, ReachMap};
use crate::rules::Rules;

pub use crate::rules::turning::{SlowedBy, Turning};

pub(crate) fn turning<'r>(rules: &'r Rules, piece: &Piece) -> Option<&'r Turning> {
    rules.piece_type(piece.kind).map(|t| &t.turning)
}

/// The allowance left for a move once the facing changes of this window are paid for.
pub(crate) fn after_turns(rules: &Rules, piece: &Piece, allowance: Cost) -> Cost {
    let Some(t) = turning(rules, piece) else {
        return allowance;
    };
    let Some(counter) = t.counter else {
        return allowance;
    };
    let paid = t.cost.saturating_mul(piece.counter(counter).max(0));
    let left = allowance - paid;
    if left.is_negative() { Cost::ZERO } else { left }
}

/// The most cells `piece` may enter in one move: its type's limit for its mode, lowered by
/// any flag that slows it.
pub(crate) fn step_limit(
    rules: &Rules,
    options: &[bool],
    piece: &Piece,
    type_limit: Option<u32>,
) -> Option<u32> {
    rules
        .slowed_by
        .iter()
        .filter(|s| piece.flag(s.flag) && s.option.is_none_or(|o| options.get(o) == Some(&true)))
        .map(|s| s.max_steps)
        .chain(type_limit)
        .min()
}

/// A refusal when a flag that slows `piece` forbids a path of `steps` cells.
pub(crate) fn check_slowed(
    rules: &Rules,
    options: &[bool],
    piece: &Piece,
    steps: usize,
) -> Result<(), Refusal> {
    let slowest = rules
        .slowed_by
        .iter()
        .filter(|s| piece.flag(s.flag) && s.option.is_none_or(|o| options.get(o) == Some(&true)))
        .min_by_key(|s| s.max_steps);
    match slowest {
        Some(s) if steps > s.max_steps as usize => Err(TurningBan::Slowed {
            flag: s.flag,
            most: s.max_steps,
            steps,
        }
        .refuse((rules, piece))),
        _ => Ok(()),
    }
}

/// The heading after each step of `path` (from `start`, heading the piece's facing) for a
/// forward-only piece whose type's oblique rule is in force: each side step (one grid
/// direction to either side of the heading) keeps the heading (an oblique move) when the
/// rest of the path can still be walked from it, and turns the piece to face the step
/// otherwise. `None` when the rule does not apply, a step is not to a neighbour, or no
/// choice of oblique and turning steps walks the path (the move's own checks then refuse
/// it).
pub(crate) fn oblique_headings(
    rules: &Rules,
    grid: &Grid,
    options: &[bool],
    piece: &Piece,
    start: Cell,
    path: &[Cell],
) -> Option<Vec<Facing>> {
    if !turning(rules, piece).is_some_and(|t| t.forward_only) || !oblique(rules, options, piece) {
        return None;
    }
    oblique_walk(grid, start, piece.facing, path)
}

/// [`oblique_headings`] for a piece at `start` heading `facing`.
fn oblique_walk(grid: &Grid, start: Cell, facing: Facing, path: &[Cell]) -> Option<Vec<Facing>> {
    let n = usize::from(grid.facings());
    let mut dirs = Vec::with_capacity(path.len());
    let mut at = start;
    for &to in path {
        dirs.push(grid.direction_to(at, to)?);
        at = to;
    }
    // walkable[i][h]: steps i.. can be walked heading h before step i.
    let mut walkable = vec![vec![true; n]; dirs.len() + 1];
    for i in (0..dirs.len()).rev() {
        for h in 0..n {
            let heading = Facing(h as u8);
            let d = dirs[i];
            walkable[i][h] = ahead(grid, heading).contains(&d)
                && (walkable[i + 1][usize::from(d.0)] || walkable[i + 1][h]);
        }
    }
    let mut heading = facing;
    let mut out = Vec::with_capacity(dirs.len());
    for (i, &d) in dirs.iter().enumerate() {
        if !walkable[i]
            .get(usize::from(heading.0))
            .copied()
            .unwrap_or(false)
        {
            return None;
        }
        let keep = d != heading && walkable[i + 1][usize::from(heading.0)];
        if !keep {
            heading = d;
        }
        out.push(heading);
    }
    Some(out)
}

/// Whether `piece`'s type may change facing anywhere in a move (`mid_move`), not only
/// before its first step.
fn anywhere(rules: &Rules, piece: &Piece) -> bool {
    turning(rules, piece).is_some_and(|t| t.mid_move)
}

/// Whether `piece`'s type has an oblique rule and it is in force.
fn oblique(rules: &Rules, options: &[bool], piece: &Piece) -> bool {
    turning(rules, piece)
        .and_then(|t| t.oblique_option)
        .is_some_and(|o| options.get(o) == Some(&true))
}

/// The facing changes a piece that steps only forward may still make in a move (at its
/// start, or anywhere with `mid_move`): their price, and how many are left this window
/// (`None`: no limit). `None` when its type does not step only forward.
pub(crate) fn mid_turns(rules: &Rules, piece: &Piece) -> Option<(Cost, Option<u32>)> {
    let t = turning(rules, piece).filter(|t| t.forward_only)?;
    if t.barred_by.iter().any(|f| piece.flag(*f)) {
        return Some((t.cost, Some(0)));
    }
    let used = t
        .counter
        .map_or(0, |c| piece.counter(c).max(0).unsigned_abs());
    Some((t.cost, t.most.map(|m| m.saturating_sub(used))))
}

/// How a piece that steps only forward walks `path` from `start` with the fewest facing
/// changes (before the first step only, unless its type turns mid-move): for each step, whether a facing change comes just
/// before it, and the heading after it (with the oblique rule in force, side steps keep the
/// heading where they can, as [`oblique_headings`] keeps it). `None` when the rule does not
/// apply or a step is not to a neighbour.
pub(crate) fn mid_move_walk(
    rules: &Rules,
    grid: &Grid,
    options: &[bool],
    piece: &Piece,
    start: Cell,
    path: &[Cell],
) -> Option<Vec<(bool, Facing)>> {
    mid_turns(rules, piece)?;
    let oblique = oblique(rules, options, piece);
    let mut dirs = Vec::with_capacity(path.len());
    let mut at = start;
    for &to in path {
        dirs.push(grid.direction_to(at, to)?);
        at = to;
    }
    turning_walk(grid, piece.facing, &dirs, (oblique, anywhere(rules, piece)))
}

/// The headings a step in direction `dir` may leave a piece heading `heading` with: without
/// a facing change (`turned` false) only a step ahead, facing it or, obliquely, keeping the
/// heading; after one, facing the step or (obliquely) either side of it. Preferred first.
fn headings_after(
    grid: &Grid,
    heading: Facing,
    dir: Facing,
    oblique: bool,
    turned: bool,
) -> Vec<Facing> {
    let n = i32::from(grid.facings());
    let side = |k: i32| Facing((i32::from(dir.0) + k).rem_euclid(n) as u8);
    match (turned, oblique) {
        (false, _) if !ahead(grid, heading).contains(&dir) => Vec::new(),
        (false, true) if dir != heading => vec![heading, dir],
        (false, _) => vec![dir],
        (true, true) => vec![dir, side(-1), side(1)],
        (true, false) => vec![dir],
    }
}

/// [`mid_move_walk`] over the step directions `dirs`, from heading `facing`; facing changes
/// before any step with `anywhere`, else only before the first.
fn turning_walk(
    grid: &Grid,
    facing: Facing,
    dirs: &[Facing],
    (oblique, anywhere): (bool, bool),
) -> Option<Vec<(bool, Facing)>> {
    const NEVER: u32 = u32::MAX;
    let n = usize::from(grid.facings());
    // fewest[i][h]: the fewest facing changes that walk steps i.. heading h before step i.
    let mut fewest = vec![vec![NEVER; n]; dirs.len() + 1];
    fewest[dirs.len()].fill(0);
    for i in (0..dirs.len()).rev() {
        for h in 0..n {
            let heading = Facing(h as u8);
            let mut best = NEVER;
            for turned in [false, true] {
                if turned && !anywhere && i > 0 {
                    continue;
                }
                for after in headings_after(grid, heading, dirs[i], oblique, turned) {
                    let rest = fewest[i + 1][usize::from(after.0)];
                    best = best.min(rest.saturating_add(u32::from(turned)));
                }
            }
            fewest[i][h] = best;
        }
    }
    let mut heading = facing;
    let mut out = Vec::with_capacity(dirs.len());
    for (i, &d) in dirs.iter().enumerate() {
        let want = *fewest[i].get(usize::from(heading.0))?;
        if want == NEVER {
            return None;
        }
        let (turned, after) = [false, true].into_iter().find_map(|turned| {
            if turned && !anywhere && i > 0 {
                return None;
            }
            headings_after(grid, heading, d, oblique, turned)
                .into_iter()
                .find(|a| fewest[i + 1][usize::from(a.0)].saturating_add(u32::from(turned)) == want)
                .map(|a| (turned, a))
        })?;
        heading = after;
        out.push((turned, after));
    }
    Some(out)
}

/// The window a piece's moves and facing changes are counted in, in words: `phase` for a
/// type that moves each phase, else `turn` (here, below `game/`, so that the facing bans'
/// words in `game/bans.rs` and [`no_turn_left`] say it alike).
pub(crate) fn move_window(rules: &Rules, piece: &Piece) -> &'static str {
    match rules.piece_type(piece.kind).map(|t| t.moves) {
        Some(crate::rules::MoveLimit::PerPhase) => "phase",
        _ => "turn",
    }
}

/// A refusal when `piece`, heading `heading`, would need a facing change in the middle of
/// its move to step in direction `dir` to `to`, and has none left (`most` in the window).
pub(crate) fn no_turn_left(
    rules: &Rules,
    grid: &Grid,
    piece: &Piece,
    (heading, dir, to): (Facing, Facing, Cell),
) -> Refusal {
    let most = turning(rules, piece).and_then(|t| t.most).unwrap_or(0);
    TurningBan::NoTurnLeft {
        grid,
        heading,
        dir,
        to,
        most,
    }
    .refuse((rules, piece))
}

/// The directions a piece heading `heading` may step in when it steps only forward.
fn ahead(grid: &Grid, heading: Facing) -> [Facing; 3] {
    let n = i32::from(grid.facings());
    let h = i32::from(heading.0);
    [h - 1, h, h + 1].map(|d| Facing(d.rem_euclid(n) as u8))
}

/// A refusal when `piece`, heading `heading`, may not step in direction `dir` to `to`.
pub(crate) fn check_step(
    rules: &Rules,
    grid: &Grid,
    piece: &Piece,
    heading: Facing,
    dir: Facing,
    to: Cell,
) -> Result<(), Refusal> {
    if !turning(rules, piece).is_some_and(|t| t.forward_only) || ahead(grid, heading).contains(&dir)
    {
        return Ok(());
    }
    Err(TurningBan::NotAhead {
        grid,
        heading,
        dir,
        to,
    }
    .refuse((rules, piece)))
}

/// Why a path is refused by the piece's facing or by a flag that slows it, kept as data
/// until its words are needed (a [`Ban`], as `game/bans.rs` lists them).
#[derive(Clone, Copy)]
enum TurningBan<'g> {
    /// A flag that slows the piece to at most `most` cells; the path has `steps`.
    Slowed {
        /// The flag.
        flag: crate::ids::FlagId,
        /// The most cells it allows (0: the piece cannot move).
        most: u32,
        /// The path's cells.
        steps: usize,
    },
    /// A step to `to`, in direction `dir`, outside the cells ahead of `heading`.
    NotAhead {
        /// The grid the step is on.
        grid: &'g Grid,
        /// The piece's heading.
        heading: Facing,
        /// The step's direction.
        dir: Facing,
        /// The cell stepped into.
        to: Cell,
    },
    /// As `NotAhead`, for a piece that would turn in the middle of its move and has no
    /// facing change left (`most` in the window).
    NoTurnLeft {
        /// The grid the step is on.
        grid: &'g Grid,
        /// The piece's heading.
        heading: Facing,
        /// The step's direction.
        dir: Facing,
        /// The cell stepped into.
        to: Cell,
        /// The most facing changes in the window.
        most: u32,
    },
}

impl Ban for TurningBan<'_> {
    /// The rules and the moving piece.
    type Cx<'c> = (&'c Rules, &'c Piece);

    fn kind(&self) -> RefusalKind {
        match self {
            Self::Slowed { .. } => RefusalKind::TooFar,
            Self::NotAhead { .. } | Self::NoTurnLeft { .. } => RefusalKind::BadPath,
        }
    }

    fn words(self, (rules, piece): Self::Cx<'_>) -> String {
        let name = &piece.name;
        // Where a step outside the cells ahead goes, from the heading.
        let aside = |grid: &Grid, heading: Facing, dir: Facing| {
            if dir.0 == (heading.0 + grid.facings() / 2) % grid.facings() {
                "behind it"
            } else {
                "to its side"
            }
        };
        match self {
            // Worded as a flag that pins the piece (`MoveBan::Pinned`): one fact, one
            // sentence.
            Self::Slowed { flag, most: 0, .. } => {
                format!("{name} cannot move: it is {}", rules.flag_name(flag))
            }
            Self::Slowed { flag, most, steps } => format!(
                "{name} is {} and may move at most {most} cell{}; the path has {steps}",
                rules.flag_name(flag),
                if most == 1 { "" } else { "s" }
            ),
            Self::NotAhead {
                grid,
                heading,
                dir,
                to,
            } => format!(
                "{name} steps only into the cells ahead of it (facing {}); {to} is {}: change facing first",
                grid.facing_name(heading),
                aside(grid, heading, dir)
            ),
            Self::NoTurnLeft {
                grid,
                heading,
                dir,
                to,
                most,
            } => format!(
                "{name} steps only into the cells ahead of it (facing {}); {to} is {}, and it has no facing change left this {} (at most {most})",
                grid.facing_name(heading),
                aside(grid, heading, dir),
                move_window(rules, piece)
            ),
        }
    }
}

/// A search state: the cell (by index), the heading, the steps taken (when a step limit
/// applies) and the facing changes made in the middle of the move.
type Key = (usize, u8, u32, u8);

/// Every cell `piece` can end a move in: [`crate::reach::reach`], or for a piece that steps
/// only forward a search over (cell, heading) that follows only the steps ahead.
pub(crate) fn reach(
    rules: &Rules,
    options: &[bool],
    piece: &Piece,
    frame: Frame<'_>,
    index: impl Fn(Cell) -> Option<usize>,
    enter: impl FnMut(Cell, Facing, Cell, Cost) -> Option<Entry>,
) -> ReachMap {
    if !turning(rules, piece).is_some_and(|t| t.forward_only) {
        return crate::reach::reach_in(frame, index, enter);
    }
    let oblique = oblique(rules, options, piece);
    forward_reach(
        frame,
        piece.facing,
        (oblique, mid_turns(rules, piece), anywhere(rules, piece)),
        index,
        enter,
    )
}

/// [`reach`] for a piece heading `facing` that steps only into the cells ahead: Dijkstra
/// over (cell, heading), and steps when a step limit applies. With `oblique`, a step to
/// either side of the heading may also keep the heading. With `turns` (the price of a
/// facing change in a move, and how many are left), the first step (any step with
/// `anywhere`) may also be a facing change and then the step ([`headings_after`]),
/// counted in the state.
fn forward_reach(
    frame: Frame<'_>,
    facing: Facing,
    (oblique, turns, anywhere): (bool, Option<(Cost, Option<u32>)>, bool),
    index: impl Fn(Cell) -> Option<usize>,
    mut enter: impl FnMut(Cell, Facing, Cell, Cost) -> Option<Entry>,
) -> ReachMap {
    let Frame {
        grid,
        start,
        budget,
        max_steps,
        ..
    } = frame;
    let Some(start_index) = index(start) else {
        return ReachMap::default();
    };
    let layer = |steps: u32| if max_steps.is_some() { steps } else { 0 };
    let s0: Key = (start_index, facing.0, 0, 0);
    let all: Vec<Facing> = (0..grid.facings()).map(Facing).collect();
    let mut go: HashMap<Key, (Cost, Option<Key>)> = HashMap::new();
    let mut stop: HashMap<Key, (Cost, u32, Key)> = HashMap::new();
    let mut cell_at: HashMap<usize, Cell> = HashMap::new();
    let mut done: HashSet<Key> = HashSet::new();
    let mut heap = BinaryHeap::new();
    go.insert(s0, (Cost::ZERO, None));
    cell_at.insert(start_index, start);
    heap.push(Reverse((Cost::ZERO, 0u32, s0)));
    while let Some(Reverse((spent, steps, key))) = heap.pop() {
        if !done.insert(key) || go.get(&key).is_some_and(|(c, _)| spent > *c) {
            continue;
        }
        if max_steps.is_some_and(|m| steps >= m) {
            continue;
        }
        let here = cell_at.get(&key.0).copied().unwrap_or(start);
        let front = ahead(grid, Facing(key.1));
        // A facing change left for the middle of the move, and its price.
        let turn = turns
            .filter(|_| anywhere || key == s0)
            .filter(|(_, left)| left.is_none_or(|l| u32::from(key.3) < l))
            .map(|(cost, left)| (cost, u8::from(left.is_some())));
        let dirs: &[Facing] = if turn.is_some() { &all } else { &front };
        for &dir in dirs {
            let next = grid.neighbour(here, dir);
            let Some(next_index) = index(next) else {
                continue;
            };
            let Some(entry) = enter(here, dir, next, spent) else {
                continue;
            };
            let total = spent.saturating_add(entry.cost);
            if total > budget || entry.cost.is_negative() {
                continue;
            }
            cell_at.insert(next_index, next);
            // A side step turns the piece, or with the oblique rule may keep its heading;
            // a facing change first leaves it facing the step (or either side, obliquely).
            let free = front.contains(&dir);
            let kept = (free && oblique && dir.0 != key.1).then_some((key.1, Cost::ZERO, 0));
            let plain = free.then_some((dir.0, Cost::ZERO, 0));
            let turned = turn.into_iter().flat_map(|(cost, count)| {
                headings_after(grid, Facing(key.1), dir, oblique, true)
                    .into_iter()
                    .map(move |h| (h.0, cost, count))
            });
            for (heading, extra, count) in plain.into_iter().chain(kept).chain(turned) {
                let total = total.saturating_add(extra);
                if total > budget {
                    continue;
                }
                let next_key: Key = (next_index, heading, layer(steps + 1), key.3 + count);
                if entry.can_stop
                    && stop
                        .get(&next_key)
                        .is_none_or(|(c, s, _)| (total, steps + 1) < (*c, *s))
                {
                    stop.insert(next_key, (total, steps + 1, key));
                }
                if entry.can_continue
                    && !done.contains(&next_key)
                    && go.get(&next_key).is_none_or(|(c, _)| total < *c)
                {
                    go.insert(next_key, (total, Some(key)));
                    heap.push(Reverse((total, steps + 1, next_key)));
                }
            }
        }
    }
    // For each cell, its cheapest stop (fewest steps, then the lowest key, on a tie).
    let mut chosen: HashMap<usize, (Cost, u32, Key)> = HashMap::new();
    for (key, (cost, steps, _)) in &stop {
        if key.0 == start_index {
            continue;
        }
        let better = chosen
            .get(&key.0)
            .is_none_or(|old| (*cost, *steps, *key) < *old);
        if better {
            chosen.insert(key.0, (*cost, *steps, *key));
        }
    }
    ReachMap::from_paths(chosen.into_values().filter_map(|(cost, _, key)| {
        let cell = *cell_at.get(&key.0)?;
        let mut path = vec![cell];
        let mut at = stop.get(&key).map(|(_, _, prev)| *prev);
        while let Some(k) = at.filter(|k| *k != s0) {
            path.push(*cell_at.get(&k.0)?);
            at = go.get(&k).and_then(|(_, prev)| *prev);
        }
        path.reverse();
        Some((cell, cost, path))
    }))
}

/// Clears the facing-change count of a piece whose moves reset.
pub(crate) fn new_window(rules: &Rules, piece: &mut Piece) {
    let Some(counter) = turning(rules, piece).and_then(|t| t.counter) else {
        return;
    };
    let floor = rules.counters.get(counter.index()).map_or(0, |d| d.min);
    if let Some(v) = piece.counters.get_mut(counter.index()) {
        *v = 0.max(floor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::HexGrid;

    /// Brute force over every forward-only path: the grid, the budget, the step limit and
    /// whether side steps may keep the heading, what a step costs, and which cells are on
    /// the board.
    struct Brute<'a, E, B> {
        grid: &'a Grid,
        limits: (Cost, Option<u32>, bool),
        enter: &'a E,
        on_board: &'a B,
    }

    impl<E, B> Brute<'_, E, B>
    where
        E: Fn(Cell, Facing, Cell) -> Option<Entry>,
        B: Fn(Cell) -> bool,
    {
        /// Every end cell of every forward-only path from `at` (heading `heading`, `spent`
        /// and `steps` taken so far) within the budget, with its cheapest cost, into `best`.
        fn walk(
            &self,
            (at, heading): (Cell, Facing),
            spent: Cost,
            steps: u32,
            best: &mut HashMap<(i32, i32), Cost>,
        ) {
            let (budget, max_steps, oblique) = self.limits;
            if max_steps.is_some_and(|m| steps >= m) {
                return;
            }
            for dir in ahead(self.grid, heading) {
                let next = self.grid.neighbour(at, dir);
                if !(self.on_board)(next) {
                    continue;
                }
                let Some(e) = (self.enter)(at, dir, next) else {
                    continue;
                };
                let total = spent + e.cost;
                if total > budget {
                    continue;
                }
                if e.can_stop {
                    let slot = best.entry((next.col, next.row)).or_insert(Cost::MAX);
                    *slot = (*slot).min(total);
                }
                if e.can_continue {
                    let kept = (oblique && dir != heading).then_some(heading);
                    for h in std::iter::once(dir).chain(kept) {
                        self.walk((next, h), total, steps + 1, best);
                    }
                }
            }
        }
    }

    /// The headings [`oblique_headings`] gives a path, for a piece whose oblique rule is in
    /// force.
    fn walk_obliquely(grid: &Grid, start: Cell, facing: Facing, path: &[Cell]) -> Vec<Facing> {
        oblique_walk(grid, start, facing, path).expect("walkable path")
    }

    /// An oblique walk keeps the heading on side steps while the rest of the path allows,
    /// and turns where only turning walks on.
    #[test]
    fn oblique_walk_keeps_the_heading_where_it_can() {
        let grid = Grid::Hex(HexGrid::new(Cost::ONE));
        use crate::geometry::hex::Dir;
        let (east, ne, nw) = (Dir::E, Dir::NE, Dir::NW);
        let start = Cell::new(4, 4);
        // Two steps north-east, heading east: both oblique, still facing east.
        let a = grid.neighbour(start, ne);
        let b = grid.neighbour(a, ne);
        assert_eq!(
            oblique_walk(&grid, start, east, &[a, b]),
            Some(vec![east, east])
        );
        // North-east then north-west: the first step must turn (north-west is not ahead of
        // east), the second may then keep north-east.
        let c = grid.neighbour(a, nw);
        assert_eq!(
            oblique_walk(&grid, start, east, &[a, c]),
            Some(vec![ne, ne])
        );
        // Straight back is never walkable.
        let w = grid.neighbour(start, Dir::W);
        assert_eq!(oblique_walk(&grid, start, east, &[w]), None);
    }

    /// The forward-only search finds exactly the cells (and cheapest costs) brute force
    /// finds, and each path it gives steps only ahead and costs what it says.
    #[test]
    fn forward_reach_agrees_with_brute_force() {
        let grid = Grid::Hex(HexGrid::new(Cost::ONE));
        let (cols, rows) = (9i32, 8i32);
        let on_board = |c: Cell| c.col >= 0 && c.row >= 0 && c.col < cols && c.row < rows;
        let index = |c: Cell| on_board(c).then(|| (c.row * cols + c.col) as usize);
        for seed in 0..30u32 {
            let kind = |c: Cell| (c.col as u32 * 7 + c.row as u32 * 13 + seed * 31) % 6;
            let enter = |_: Cell, _: Facing, to: Cell| {
                let k = kind(to);
                (k != 5).then(|| Entry {
                    cost: Cost::ONE + Cost::from_hundredths(if k == 4 { 100 } else { 0 }),
                    can_stop: k != 3,
                    can_continue: k != 2,
                })
            };
            for (max, oblique) in [
                (None, false),
                (Some(2), false),
                (None, true),
                (Some(2), true),
            ] {
                let start = Cell::new((seed % 9) as i32, (seed % 8) as i32);
                let facing = Facing((seed % 6) as u8);
                let budget = Cost::whole(4);
                let frame = Frame {
                    grid: &grid,
                    start,
                    budget,
                    max_steps: max,
                    cells: (cols * rows) as usize,
                };
                let got = forward_reach(
                    frame,
                    facing,
                    (oblique, None, false),
                    index,
                    |a, d, b, _| enter(a, d, b),
                );
                let mut want = HashMap::new();
                let brute = Brute {
                    grid: &grid,
                    limits: (budget, max, oblique),
                    enter: &enter,
                    on_board: &on_board,
                };
                brute.walk((start, facing), Cost::ZERO, 0, &mut want);
                want.remove(&(start.col, start.row));
                let got_map: HashMap<(i32, i32), Cost> = got
                    .iter()
                    .map(|r| ((r.cell.col, r.cell.row), r.cost))
                    .collect();
                assert_eq!(got_map, want, "seed {seed}, max {max:?}, oblique {oblique}");
                for r in &got {
                    let (mut at, mut heading, mut cost) = (start, facing, Cost::ZERO);
                    let path = got.path(r);
                    // With oblique moves the path is walked by the headings the move
                    // order would choose.
                    let headings = oblique.then(|| walk_obliquely(&grid, start, facing, &path));
                    for (i, &next) in path.iter().enumerate() {
                        let dir = grid.direction_to(at, next).expect("adjacent");
                        assert!(ahead(&grid, heading).contains(&dir), "seed {seed}: {r:?}");
                        cost += enter(at, dir, next).expect("enterable").cost;
                        let after = headings.as_ref().map_or(dir, |h| h[i]);
                        (at, heading) = (next, after);
                    }
                    assert_eq!((at, cost), (r.cell, r.cost), "seed {seed}");
                }
            }
        }
    }
}
