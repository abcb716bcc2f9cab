//! Keeping each side's knowledge up to date: the sighting update after every accepted order
//! and at every phase start (offset charts, range bands and their rolls, contact, concealment,
//! decoys) and the `sighted` events each side receives (appended to the per-side logs with
//! the rest of what each side saw by `Game::append_side_logs`, in `view.rs`). The data
//! types and the pure reading of sighting charts are in [`crate::knowledge`].

use super::{Game, Resolution};
use crate::action::Event;
use crate::geometry::Cell;
use crate::hooks::NoHooks;
use crate::ids::{PieceId, SideId};
use crate::piece::{Piece, Place};
use crate::state::State;

use crate::knowledge::{
    Disclosure, Knowledge, Known, RangeBand, Seen, SightChartDef, SightShape, SightingRules,
    nearest, relative_offset, rows_and_others,
};

/// Pass 1 of the sighting update ([`Game::sighting_levels`]), by side then piece.
struct SightLevels {
    /// The best level the side sights the piece at, if any.
    level: Vec<Vec<Option<u8>>>,
    /// Whether the side sights it from next to it (levels may disclose more then).
    adjacent: Vec<Vec<bool>>,
}

/// The farthest any sighting can reach without a roll: the longest data chart (bands that
/// need a roll are read in the spotting phases) or the contact distance.
fn sight_reach(s: &SightingRules) -> u32 {
    let data_radius = |c: &SightChartDef| match &c.shape {
        SightShape::Range(bands) => bands
            .iter()
            .filter(|b| b.roll.is_none())
            .flat_map(|b| core::iter::once(b.within).chain(b.from_terrain.iter().map(|(_, w)| *w)))
            .max()
            .unwrap_or(0),
        SightShape::Offsets(_) => c.radius,
    };
    s.charts
        .iter()
        .map(data_radius)
        .chain(s.contact.as_ref().map(|c| c.within))
        .max()
        .unwrap_or(0)
}

impl Game {
    /// The sighting rules, when the ruleset has hidden information.
    #[must_use]
    pub fn sighting(&self) -> Option<&SightingRules> {
        self.rules().sighting.as_ref()
    }

    /// Distance between two pieces for sighting and contact (grid steps between their
    /// nearest cells, or whole rule inches on a table).
    pub(crate) fn sight_distance(&self, a: &Piece, b: &Piece) -> Option<u32> {
        match self.board().grid() {
            Some(grid) => nearest(grid, &a.place, &b.place).map(|(_, _, d)| d),
            None => self.rule_distance(a, b),
        }
    }

    /// True when the piece is concealed (in concealing terrain, flagged hidden, or a decoy).
    pub(crate) fn concealed(&self, state: &State, p: &Piece) -> bool {
        let Some(s) = self.sighting() else {
            return false;
        };
        if self.concealed_whole(state, p) {
            return true;
        }
        let terrain = match &p.place {
            Place::Cell(c) => Some(self.board().terrain(*c)),
            Place::Spread(cs) => cs.first().map(|c| self.board().terrain(*c)),
            Place::Point { at, .. } => Some(self.board().terrain_at(*at)),
            Place::Off => None,
        };
        terrain.is_some_and(|t| s.concealing.contains(&t))
    }

    /// True when the piece is concealed wherever it stands: flagged hidden, or a decoy
    /// (decoys are counters face down: only their place shows).
    fn concealed_whole(&self, state: &State, p: &Piece) -> bool {
        let Some(s) = self.sighting() else {
            return false;
        };
        s.decoys.as_ref().is_some_and(|d| {
            d.kind == p.kind
                && d.option
                    .is_none_or(|o| state.options.get(o).copied().unwrap_or(false))
        }) || s.concealed_flag.is_some_and(|f| p.flag(f))
    }

    /// True when the terrain of a grid cell conceals what stands in it.
    fn conceals_cell(&self, c: Cell) -> bool {
        self.sighting()
            .is_some_and(|s| s.concealing.contains(&self.board().terrain(c)))
    }

    /// True when the piece is kept off the table while no enemy sees it (a type the decoy
    /// rule covers, while that rule is on): nothing of it is public.
    pub(crate) fn behind_decoys(&self, state: &State, p: &Piece) -> bool {
        self.sighting()
            .and_then(|s| s.decoys.as_ref())
            .is_some_and(|d| {
                d.option
                    .is_none_or(|o| state.options.get(o).copied().unwrap_or(false))
                    && d.types.contains(&p.kind)
            })
    }

    pub(super) fn observer_chart(&self, p: &Piece) -> Option<&SightChartDef> {
        let s = self.sighting()?;
        if !p.on_board() || self.rules().piece_type(p.kind).is_none_or(|t| t.dummy) {
            return None;
        }
        let rule = s
            .observers
            .iter()
            .find(|r| r.types.is_empty() || r.types.contains(&p.kind))?;
        if rule.barred_by.iter().any(|f| p.flag(*f)) {
            return None;
        }
        s.charts.get(rule.chart)
    }

    /// Where `observer` reads its offset chart from: its place with `chart`, or, for a
    /// spread piece whose observer rule has a `spread_chart`, its main cell with `chart`
    /// and its other cells with the spread chart.
    fn chart_readings<'a>(
        &'a self,
        observer: &Piece,
        chart: &'a SightChartDef,
    ) -> Vec<(Place, &'a SightChartDef)> {
        let spread = self.sighting().and_then(|s| {
            let rule = s
                .observers
                .iter()
                .find(|r| r.types.is_empty() || r.types.contains(&observer.kind))?;
            s.charts.get(rule.spread_chart?)
        });
        match (&observer.place, spread) {
            (Place::Spread(cs), Some(other)) if cs.len() > 1 => vec![
                (Place::Cell(cs[0]), chart),
                (Place::Spread(cs[1..].to_vec()), other),
            ],
            _ => vec![(observer.place.clone(), chart)],
        }
    }

    /// The level `observer` reads for `target` from data alone (no rolls), with whether
    /// they stand next to each other.
    pub(super) fn level_from_chart(
        &self,
        state: &State,
        observer: &Piece,
        target: &Piece,
    ) -> Option<u8> {
        let chart = self.observer_chart(observer)?;
        let concealed = self.concealed(state, target);
        // The line of sight is the dear part: it is traced only for a pair the chart
        // already gives a level.
        let level = match &chart.shape {
            SightShape::Offsets(_) => {
                let grid = self.board().grid()?;
                // Each cell of the target is read from the observer's cell nearest to it,
                // and the target is sighted, whole, at the best of them. Concealing terrain
                // hides only the cells that stand in it (a cell there needs a starred
                // entry); a hidden flag or a decoy hides them all.
                let whole = self.concealed_whole(state, target);
                let cells: &[Cell] = match &target.place {
                    Place::Cell(c) => core::slice::from_ref(c),
                    Place::Spread(cs) => cs,
                    Place::Point { .. } | Place::Off => &[],
                };
                let mut best: Option<(u8, u32)> = None;
                let readings = self.chart_readings(observer, chart);
                for (place, chart) in &readings {
                    let SightShape::Offsets(entries) = &chart.shape else {
                        continue;
                    };
                    for to in cells {
                        let Some((from, _, distance)) = nearest(grid, place, &Place::Cell(*to))
                        else {
                            continue;
                        };
                        // No entry is farther out than the chart's own radius.
                        if distance > chart.radius {
                            continue;
                        }
                        let (right, forward) = relative_offset(from, observer.facing, *to);
                        let Some(e) = entries
                            .iter()
                            .find(|e| e.right == right && e.forward == forward)
                        else {
                            continue;
                        };
                        let hidden_here = whole || self.conceals_cell(*to);
                        if hidden_here && !e.starred {
                            continue;
                        }
                        if best.is_none_or(|(l, d)| (e.level, distance) < (l, d)) {
                            best = Some((e.level, distance));
                        }
                    }
                }
                best?
            }
            SightShape::Range(bands) => {
                let distance = self.sight_distance(observer, target)?;
                let level = bands
                    .iter()
                    .filter(|b| b.roll.is_none() && self.band_applies(state, b, target, concealed))
                    .filter(|b| distance <= self.band_reach(b, observer))
                    .map(|b| b.level)
                    .min()?;
                (level, distance)
            }
        };
        let (level, distance) = level;
        (distance <= 1 || self.sight_line_clear(state, observer, target, false)).then_some(level)
    }

    /// True when `band` can find `target` in this state (its option and setting are in
    /// force, the target stands in none of the terrains it does not see into and carries
    /// none of the marks it does not see through).
    pub(super) fn band_applies(
        &self,
        state: &State,
        band: &RangeBand,
        target: &Piece,
        concealed: bool,
    ) -> bool {
        if concealed && !band.concealed_too {
            return false;
        }
        if band
            .option
            .is_some_and(|o| !state.options.get(o).copied().unwrap_or(false))
        {
            return false;
        }
        if band
            .setting
            .is_some_and(|(s, v)| state.settings.get(s).copied().unwrap_or(0) != v)
        {
            return false;
        }
        if !band.not_in.is_empty() {
            let terrain = match &target.place {
                Place::Cell(c) => Some(self.board().terrain(*c)),
                Place::Spread(cs) => cs.first().map(|c| self.board().terrain(*c)),
                Place::Point { at, .. } => Some(self.board().terrain_at(*at)),
                Place::Off => None,
            };
            if terrain.is_some_and(|t| band.not_in.contains(&t)) {
                return false;
            }
        }
        !band.not_when.iter().any(|m| m.on(target))
    }

    pub(super) fn band_reach(&self, band: &RangeBand, observer: &Piece) -> u32 {
        let terrain = match &observer.place {
            Place::Cell(c) => Some(self.board().terrain(*c)),
            Place::Point { at, .. } => Some(self.board().terrain_at(*at)),
            Place::Spread(cs) => cs.first().map(|c| self.board().terrain(*c)),
            Place::Off => None,
        };
        terrain
            .and_then(|t| band.from_terrain.iter().find(|(x, _)| *x == t))
            .map_or(band.within, |(_, w)| (*w).max(band.within))
    }

    pub(super) fn is_real(&self, p: &Piece) -> bool {
        self.rules().piece_type(p.kind).is_some_and(|t| !t.dummy)
    }

    /// The contact level between two enemy pieces, when they are in contact: within reach
    /// and at least one of them real.
    pub(crate) fn in_contact(&self, a: &Piece, b: &Piece) -> Option<u8> {
        let c = self.sighting()?.contact.as_ref()?;
        if !a.on_board() || !b.on_board() || a.side == b.side {
            return None;
        }
        if !self.is_real(a) && !self.is_real(b) {
            return None;
        }
        let both_kinds = c.types.contains(&a.kind) && c.types.contains(&b.kind);
        if !c.types.is_empty() && !both_kinds {
            return None;
        }
        (self.sight_distance(a, b)? <= c.within).then_some(c.level)
    }

    /// Recomputes every side's knowledge from the current state (the kernel does it after
    /// every order and at every phase start, so this changes nothing in a game left as
    /// `apply` left it); returns the `sighted` events of any change. For benchmarks and
    /// for tools that edit a state by hand.
    pub fn refresh_sightings(&mut self) -> Vec<Event> {
        let mut next = self.state.clone();
        let mut events = Vec::new();
        // No hook takes part in a sighting update.
        Resolution::new(self, &mut next, &mut events, &mut NoHooks).update_knowledge();
        self.state = next;
        events
    }

    /// The rolls a spotting phase would make now, made on a copy of the state: the game is
    /// unchanged. For benchmarks and referees' tools.
    #[must_use]
    pub fn spotting_preview(&self) -> Vec<Event> {
        let mut next = self.state.clone();
        let mut events = Vec::new();
        Resolution::new(self, &mut next, &mut events, &mut NoHooks).spotting_rolls();
        events
    }

    /// Pass 1 of the sighting update: the best level each side sights each enemy at, and
    /// whether it sights it from next to it. Nothing farther than the longest chart or
    /// contact reach can give a level, so such pairs are passed over on a distance check
    /// alone; and once a target is seen at the best level, only adjacency is still worth
    /// asking.
    fn sighting_levels(&self, s: &SightingRules, next: &State) -> SightLevels {
        let sides = self.sides().len();
        let n = next.pieces.len();
        let reach = sight_reach(s);
        // Each side's pieces on single cells, sorted by row: a grid distance is never less
        // than the difference in rows, so a target looks only at the rows within reach.
        // Spread pieces and pieces on an open table are always looked at.
        let mut by_row: Vec<Vec<(i32, usize)>> = vec![Vec::new(); sides];
        let mut others: Vec<Vec<usize>> = vec![Vec::new(); sides];
        for (i, p) in next.pieces.iter().enumerate() {
            let side = p.side.index();
            if side >= sides || !p.on_board() {
                continue;
            }
            match &p.place {
                Place::Cell(c) => by_row[side].push((c.row, i)),
                _ => others[side].push(i),
            }
        }
        for rows in &mut by_row {
            rows.sort_unstable();
        }
        let near = |side: usize, target: &Piece| -> Vec<usize> {
            match &target.place {
                Place::Cell(c) => {
                    let rows = &by_row[side];
                    let lo = c.row.saturating_sub(reach as i32);
                    let hi = c.row.saturating_add(reach as i32);
                    let start = rows.partition_point(|(r, _)| *r < lo);
                    let end = rows.partition_point(|(r, _)| *r <= hi);
                    rows[start..end]
                        .iter()
                        .map(|(_, i)| *i)
                        .chain(others[side].iter().copied())
                        .collect()
                }
                _ => rows_and_others(&by_row[side], &others[side]),
            }
        };
        let mut levels: Vec<Vec<Option<u8>>> = vec![vec![None; n]; sides];
        let mut adjacent: Vec<Vec<bool>> = vec![vec![false; n]; sides];
        for (side, row) in levels.iter_mut().enumerate() {
            for (ti, target) in next.pieces.iter().enumerate() {
                if target.side == SideId(side as u8) || !target.on_board() {
                    continue;
                }
                let mut best: Option<u8> = next.knowledge[side].of[ti].rolled;
                for oi in near(side, target) {
                    let observer = &next.pieces[oi];
                    let Some(d) = self.sight_distance(observer, target) else {
                        continue;
                    };
                    if d > reach {
                        continue;
                    }
                    let next_to = d <= 1 && self.is_real(observer);
                    if best == Some(0) && (!next_to || adjacent[side][ti]) {
                        continue;
                    }
                    let from_chart = self.level_from_chart(next, observer, target);
                    let from_contact = self.in_contact(observer, target);
                    let locked = s.locked_flag.filter(|f| {
                        d <= 1 && self.is_real(target) && observer.flag(*f) && target.flag(*f)
                    });
                    // Locked together: the side keeps the level it held (it does not lose
                    // sight of the piece), and gains none by it.
                    let held = locked.and(next.knowledge[side].of[ti].level);
                    let from_contact = match (from_contact, held) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                    for l in [from_chart, from_contact].into_iter().flatten() {
                        best = Some(best.map_or(l, |b| b.min(l)));
                    }
                    if next_to && (from_chart.is_some() || from_contact.is_some()) {
                        adjacent[side][ti] = true;
                    }
                }
                row[ti] = best;
            }
        }
        SightLevels {
            level: levels,
            adjacent,
        }
    }

    /// True when `target` is a dummy that a side seeing it at `level` has face up for
    /// itself alone (`private_dummy_flips`): its flip is not shown to its owner, whom it
    /// would tell that a real enemy observer has it in sight (a dummy gathers nothing).
    pub(crate) fn flipped_for(&self, s: &SightingRules, target: &Piece, level: Option<u8>) -> bool {
        s.private_dummy_flips
            && !self.is_real(target)
            && level
                .and_then(|l| s.levels.get(usize::from(l)))
                .is_some_and(|d| d.flips_up)
    }

    /// Pass 2 of the sighting update: which pieces are face up for everyone. Markers seen
    /// at a flipping level turn face up; pieces of an `in_view` type are face up whenever
    /// they stand on the board unconcealed, unless they ride a host of their side that is
    /// face down (a scout back on its headquarters' block is part of the block until it
    /// leaves it).
    fn face_up_pieces(
        &self,
        s: &SightingRules,
        next: &State,
        levels: &[Vec<Option<u8>>],
    ) -> Vec<bool> {
        let n = next.pieces.len();
        // Under `private_dummy_flips` a dummy is never face up for everyone: each side
        // that sees it at a flipping level has it face up for itself (`flipped_for`).
        let flipped: Vec<bool> = (0..n)
            .map(|ti| {
                (!s.private_dummy_flips || self.is_real(&next.pieces[ti]))
                    && levels.iter().any(|row| {
                        row[ti]
                            .and_then(|l| s.levels.get(usize::from(l)))
                            .is_some_and(|d| d.flips_up)
                    })
            })
            .collect();
        let in_view: Vec<bool> = next
            .pieces
            .iter()
            .map(|target| {
                s.in_view.contains(&target.kind)
                    && target.on_board()
                    && !self.behind_decoys(next, target)
                    && !self.concealed(next, target)
            })
            .collect();
        (0..n)
            .map(|ti| {
                let target = &next.pieces[ti];
                let host_down = target
                    .attached_to
                    .and_then(|h| next.pieces.get(h.index()))
                    .is_some_and(|h| {
                        h.side == target.side && !flipped[h.id.index()] && !in_view[h.id.index()]
                    });
                flipped[ti] || (in_view[ti] && !host_down)
            })
            .collect()
    }

    /// What `side` is shown of each enemy piece now (by level, adjacency, concealment,
    /// decoys and face-up pieces), and which pieces are hidden riders: attached to a host
    /// the side knows too little of, so known not at all.
    fn disclosures(
        &self,
        s: &SightingRules,
        next: &State,
        side_id: SideId,
        levels: &SightLevels,
        face_up: &[bool],
    ) -> (Vec<Disclosure>, Vec<bool>) {
        let n = next.pieces.len();
        let side = side_id.index();
        let mut nows = vec![Disclosure::NONE; n];
        let mut hidden_rider = vec![false; n];
        for ti in 0..n {
            let target = &next.pieces[ti];
            if target.side == side_id {
                continue;
            }
            let level = levels.level[side][ti];
            let mut now = Disclosure::NONE;
            if target.on_board() {
                if let Some(def) = level.and_then(|l| s.levels.get(usize::from(l))) {
                    now = now.with(def.discloses);
                    if levels.adjacent[side][ti] {
                        now = now.with(def.adjacent);
                    }
                }
                let up = face_up[ti] || self.flipped_for(s, target, level);
                if self.behind_decoys(next, target) {
                    // Off the table until sighted.
                } else if self.concealed(next, target) {
                    now = now.with(s.concealed_public);
                    if up {
                        now = now.with(s.face_up).with(Disclosure::POSITION);
                    }
                } else {
                    now = now.with(s.public);
                    if up {
                        now = now.with(s.face_up).with(Disclosure::POSITION);
                    }
                }
            }
            nows[ti] = now;
        }
        // A piece attached to a host of its side is known no better than its host:
        // nothing of it while the side knows neither who nor what the host is (a
        // commander with a hidden unit, a scout back on its headquarters' face-down
        // block), since a rider seen would say what its host is.
        for ti in 0..n {
            let target = &next.pieces[ti];
            if let Some(host) = target.attached_to.and_then(|h| next.pieces.get(h.index()))
                && host.side == target.side
                && !nows[host.id.index()].has(Disclosure::IDENTITY)
                && (self.concealed(next, host)
                    || self.behind_decoys(next, host)
                    || !nows[host.id.index()].has(Disclosure::KIND))
            {
                nows[ti] = Disclosure::NONE;
                hidden_rider[ti] = true;
            }
        }
        (nows, hidden_rider)
    }
}

impl Resolution<'_> {
    /// Rolled spotting: at the start of a spotting phase, each side rolls once for each
    /// enemy piece whose position it knows and that one of its observers has within a band
    /// that needs a roll; a success holds until the next spotting phase.
    pub(crate) fn spotting_rolls(&mut self) {
        let game = self.game;
        if game.sighting().is_none() {
            return;
        }
        let sides = game.sides().len();
        for k in &mut self.next.knowledge {
            for known in &mut k.of {
                known.rolled = None;
            }
        }
        for side in 0..sides {
            let side_id = SideId(side as u8);
            for ti in 0..self.next.pieces.len() {
                let target = self.next.pieces[ti].clone();
                if target.side == side_id || !target.on_board() {
                    continue;
                }
                let knows = self
                    .next
                    .knowledge
                    .get(side)
                    .is_some_and(|k| k.knows_position(target.id));
                if !knows {
                    continue;
                }
                let concealed = game.concealed(self.next, &target);
                // The best band any observer has the target in.
                let mut best: Option<&RangeBand> = None;
                for observer in self.next.pieces.iter().filter(|p| p.side == side_id) {
                    let Some(chart) = game.observer_chart(observer) else {
                        continue;
                    };
                    let SightShape::Range(bands) = &chart.shape else {
                        continue;
                    };
                    let Some(d) = game.sight_distance(observer, &target) else {
                        continue;
                    };
                    // The line is traced only for an observer whose bands could do better
                    // than the best found so far.
                    let better = bands
                        .iter()
                        .filter(|b| b.roll.is_some())
                        .filter(|b| {
                            game.band_applies(self.next, b, &target, concealed)
                                && d <= game.band_reach(b, observer)
                        })
                        .min_by_key(|b| b.level);
                    let Some(b) = better.filter(|b| best.is_none_or(|x| b.level < x.level)) else {
                        continue;
                    };
                    if game.sight_line_clear(self.next, observer, &target, false) {
                        best = Some(b);
                    }
                }
                let Some(band) = best else {
                    continue;
                };
                // Roll only when the band would tell the side something it does not know.
                let already = self
                    .next
                    .knowledge
                    .get(side)
                    .and_then(|k| k.get(target.id))
                    .map_or(Disclosure::NONE, |k| k.now);
                let would = game
                    .sighting()
                    .and_then(|s| s.levels.get(usize::from(band.level)))
                    .map_or(Disclosure::NONE, |d| d.discloses);
                if already.has(would) {
                    continue;
                }
                let Some((chart_id, wanted)) = &band.roll else {
                    continue;
                };
                let Some(chart) = game.rules().charts.get(chart_id.index()) else {
                    continue;
                };
                let inputs = vec![0; chart.inputs.len()];
                let Some(rng) = self.next.side_rngs.get_mut(side) else {
                    continue;
                };
                let resolution = chart.resolve(&game.rules().dice, &inputs, rng);
                let purpose = format!(
                    "spotting by {}",
                    game.sides().get(side).map_or("?", |d| d.name.as_str())
                );
                let record = crate::game::roll_record(
                    game.rules(),
                    *chart_id,
                    &purpose,
                    &inputs,
                    &resolution,
                );
                let success = record.outcome == *wanted;
                self.events.push(Event::SpotRolled {
                    side: SideId(side as u8),
                    roll: record,
                });
                if success && let Some(k) = self.next.knowledge.get_mut(side) {
                    if k.of.len() <= ti {
                        k.of.resize(ti + 1, Known::default());
                    }
                    k.of[ti].rolled = Some(band.level);
                }
            }
        }
    }

    /// Recomputes every side's knowledge from the state, logging each change of level as a
    /// `sighted` event (which only the observing side and the referee see).
    pub(crate) fn update_knowledge(&mut self) {
        let game = self.game;
        let Some(s) = game.sighting() else {
            return;
        };
        let sides = game.sides().len();
        let n = self.next.pieces.len();
        self.next.knowledge.resize(sides, Knowledge::default());
        for k in &mut self.next.knowledge {
            k.of.resize(n, Known::default());
        }
        // A blind set-up: nobody sights anything before the first phase begins.
        if self.next.setting_up() && s.blind_setup {
            return;
        }
        let levels = game.sighting_levels(s, self.next);
        let face_up = game.face_up_pieces(s, self.next, &levels.level);
        // Pass 3: what each side knows now.
        let mut sighted = Vec::new();
        for side in 0..sides {
            let side_id = SideId(side as u8);
            let (nows, hidden_rider) = game.disclosures(s, self.next, side_id, &levels, &face_up);
            for ti in 0..n {
                if self.next.pieces[ti].side == side_id {
                    continue;
                }
                let level = if hidden_rider[ti] {
                    None
                } else {
                    levels.level[side][ti]
                };
                let before = self.record_known(s, (side_id, ti), level, nows[ti]);
                if before != level {
                    sighted.push(Event::Sighted {
                        side: side_id,
                        piece: PieceId(ti as u32),
                        level: level
                            .and_then(|l| s.levels.get(usize::from(l)))
                            .map(|d| d.name.clone()),
                    });
                }
            }
        }
        self.next.face_up = face_up;
        self.assign_handles();
        // Each side's sightings in the order of its handles, never in scenario order.
        sighted.sort_by_key(|e| match e {
            Event::Sighted { side, piece, .. } => (
                side.0,
                self.next
                    .knowledge
                    .get(side.index())
                    .and_then(|k| k.get(*piece))
                    .and_then(|k| k.handle)
                    .unwrap_or(u32::MAX),
            ),
            _ => (u8::MAX, u32::MAX),
        });
        self.events.extend(sighted);
    }

    /// Writes what side `side` now knows of piece `ti`, at `level` and shown `now`: where
    /// it saw it last, whether it is real, its kind, strength and identity as disclosed.
    /// Returns the level the side knew it at before.
    fn record_known(
        &mut self,
        s: &SightingRules,
        (side, ti): (SideId, usize),
        level: Option<u8>,
        now: Disclosure,
    ) -> Option<u8> {
        let game = self.game;
        let turn = self.next.turn;
        let target = &self.next.pieces[ti];
        let real = game.is_real(target);
        let strength = s.strength.map(|c| target.counter(c));
        let on_board = target.on_board();
        let (kind, place, facing) = (target.kind, target.place.clone(), target.facing);
        // The whole piece is copied only when its identity is disclosed.
        let snapshot = now.has(Disclosure::IDENTITY).then(|| target.clone());
        // A piece the side saw until now goes out of its sight into concealment (a town,
        // a hidden flag, behind decoys), where it may change places with another marker
        // unseen: what the side knew of it stays with its handle, where it was last seen,
        // and the piece is known afresh (a new handle) when seen again.
        let lost = on_board
            && !now.has(Disclosure::POSITION)
            && (game.concealed(self.next, target) || game.behind_decoys(self.next, target));
        let knowledge = &mut self.next.knowledge[side.index()];
        let before = knowledge.of[ti].level;
        if lost && knowledge.of[ti].now.has(Disclosure::POSITION) {
            let mut ghost = core::mem::take(&mut knowledge.of[ti]);
            if let Some(handle) = ghost.handle {
                ghost.level = None;
                ghost.rolled = None;
                ghost.now = Disclosure::NONE;
                knowledge.renames.push(crate::knowledge::Rename {
                    piece: PieceId(ti as u32),
                    handle,
                    until: u32::MAX,
                });
                knowledge.ghosts.push(ghost);
            }
        }
        let known = &mut knowledge.of[ti];
        // A piece the side saw until now leaves the table in its sight (it is
        // removed): the side knows it is gone, not where it was.
        if !on_board && known.now.has(Disclosure::POSITION) {
            known.seen = Some(Seen {
                place: Place::Off,
                facing,
                turn,
            });
        }
        known.level = level;
        known.now = now;
        if now.has(Disclosure::POSITION) {
            known.seen = Some(Seen {
                place,
                facing,
                turn,
            });
        }
        if now.has(Disclosure::REAL) {
            known.real = Some(real);
        }
        if now.has(Disclosure::KIND) {
            known.kind = Some(kind);
        }
        if now.has(Disclosure::STRENGTH) {
            known.strength = strength;
        }
        if snapshot.is_some() {
            known.identity = snapshot;
        }
        before
    }

    /// Gives each enemy piece a side has just learnt of its handle for that side: the next
    /// numbers after those already given, in order of where the side saw them (row, then
    /// column, or y then x on a table), pieces seen in one place ordered by a hash of their
    /// names keyed by the game's seed. Never by their order in the scenario, so a handle
    /// says nothing the side has not seen (as long as the seed is kept from the players,
    /// as it must be for the dice anyway).
    fn assign_handles(&mut self) {
        let game = self.game;
        let sides = self.next.knowledge.len();
        for side in 0..sides {
            let side_id = SideId(side as u8);
            let knowledge = &self.next.knowledge[side];
            let mut fresh: Vec<usize> = knowledge
                .of
                .iter()
                .enumerate()
                .filter(|(ti, k)| {
                    k.handle.is_none()
                        && k.anything()
                        && self.next.pieces.get(*ti).is_some_and(|p| p.side != side_id)
                })
                .map(|(ti, _)| ti)
                .collect();
            if fresh.is_empty() {
                continue;
            }
            let own = self
                .next
                .pieces
                .iter()
                .filter(|p| p.side == side_id)
                .count() as u32;
            fresh.sort_by_cached_key(|&ti| {
                let place = knowledge.of[ti].seen.as_ref().map(|s| &s.place);
                (
                    place_key(place),
                    keyed_hash(game.handle_key, side, &self.next.pieces[ti].name),
                )
            });
            let knowledge = &mut self.next.knowledge[side];
            for ti in fresh {
                let handle = own + knowledge.learnt.len() as u32;
                knowledge.of[ti].handle = Some(handle);
                knowledge.learnt.push(PieceId(ti as u32));
            }
        }
        self.relink_identified();
    }

    /// A piece the side lost track of into concealment and now identifies again takes its
    /// old handle back, and what the side remembered of it under that handle goes: knowing
    /// who it is, the side knows it is the piece it saw there before. The handle it was
    /// seen again under names it in the log up to now.
    fn relink_identified(&mut self) {
        for knowledge in &mut self.next.knowledge {
            if knowledge.ghosts.is_empty() {
                continue;
            }
            let mut g = 0;
            while g < knowledge.ghosts.len() {
                let Some(id) = knowledge.ghosts[g].identity.as_ref().map(|p| p.id) else {
                    g += 1;
                    continue;
                };
                let Some(known) = knowledge.of.get_mut(id.index()) else {
                    g += 1;
                    continue;
                };
                if known.identity.is_none() || !known.now.has(Disclosure::POSITION) {
                    g += 1;
                    continue;
                }
                let ghost = knowledge.ghosts.remove(g);
                if let Some(fresh) = known.handle {
                    knowledge.renames.push(crate::knowledge::Rename {
                        piece: id,
                        handle: fresh,
                        until: u32::MAX,
                    });
                }
                known.handle = ghost.handle;
            }
        }
    }
}

/// Where a side saw a piece, as a sort key: cells by row then column, then points on a
/// table by y then x, then pieces seen nowhere.
fn place_key(place: Option<&Place>) -> (u8, i64, i64) {
    match place {
        Some(Place::Cell(c)) => (0, i64::from(c.row), i64::from(c.col)),
        Some(Place::Spread(cs)) => cs
            .iter()
            .map(|c| (0, i64::from(c.row), i64::from(c.col)))
            .min()
            .unwrap_or((2, 0, 0)),
        Some(Place::Point { at, .. }) => (1, at.y.0, at.x.0),
        Some(Place::Off) | None => (2, 0, 0),
    }
}

/// A hash of a piece's name for one side, keyed by the game (FNV-1a, then a SplitMix64
/// finish): stable across platforms and Rust versions, so replays give the same handles.
fn keyed_hash(key: u64, side: usize, name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ key;
    for b in (side as u64).to_le_bytes().iter().chain(name.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}
