//! The exact tally of a set of games, shared by `grognard sim` and the editor's Simulate
//! tab so both show the same numbers: [`play_one`] plays one game (an orders file, then the
//! policies), [`Tally::add`] folds its [`RunResult`] in, and tallies kept by different
//! threads or shards [`Tally::merge`] into the same totals however the games were split —
//! counts, integer sums and sums of squares are exact. [`Estimate`] is a mean (a rate, for
//! wins and draws: the observed share) with its 95% half-width, rounded as `sim` prints it;
//! [`Share`] is a win or draw rate as both say it to a person: the observed share with its
//! Wilson 95% interval (the one wording `sim`'s text and the editor use).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use grognard_kernel::game::Game;
use grognard_kernel::hooks::Hooks;
use grognard_kernel::piece::Place;
use grognard_rules::de::Located;
use grognard_rules::load::Scenario;
use grognard_rules::model::OrderSpec;
use grognard_rules::orders::resolve_order;
use serde::{Deserialize, Serialize};

use crate::policy::{MAX_POLICY_ORDERS, Played, Seats, chart_outcomes, players_for, step};

/// Count, sum and sum of squares of whole numbers: exact, so tallies kept by different
/// threads add up to the same totals however the games were split between them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    /// How many numbers.
    pub n: u64,
    /// Their sum.
    pub sum: i128,
    /// The sum of their squares.
    pub squares: i128,
}

impl Moments {
    /// Counts `x`.
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += i128::from(x);
        self.squares += i128::from(x) * i128::from(x);
    }

    /// Adds another tally's numbers.
    pub fn merge(&mut self, o: &Self) {
        self.n += o.n;
        self.sum += o.sum;
        self.squares += o.squares;
    }

    /// The mean with its 95% confidence half-width (1.96·sd/√n); the sample variance is
    /// (n·Σx² − (Σx)²) / (n·(n − 1)), its numerator computed exactly.
    #[allow(clippy::cast_precision_loss)] // counts and sums of game counters stay far below 2^53
    #[must_use]
    pub fn estimate(&self) -> Estimate {
        if self.n == 0 {
            return Estimate {
                mean: 0.0,
                ci95: 0.0,
            };
        }
        let n = self.n as f64;
        let mean = self.sum as f64 / n;
        let var = if self.n > 1 {
            let spread = i128::from(self.n) * self.squares - self.sum * self.sum;
            spread as f64 / (n * (n - 1.0))
        } else {
            0.0
        };
        Estimate {
            mean: round4(mean),
            ci95: round4(1.96 * var.max(0.0).sqrt() / n.sqrt()),
        }
    }
}

/// One piece over many games.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PieceTally {
    /// Each counter's value at the end, by counter id.
    pub counters: Vec<Moments>,
    /// Games ending with each flag set, by flag id (first 64).
    pub flags: Vec<u64>,
    /// Games ending off the board.
    pub removed: u64,
    /// Games ending at each place.
    pub places: BTreeMap<String, u64>,
}

/// The chart outcomes of one piece's action over many games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionTally {
    /// The first game and event index where it was rolled: actions are listed in that order.
    pub first: (u32, usize),
    /// Times its chart was rolled.
    pub rolls: u64,
    /// Times each outcome came up.
    pub outcomes: BTreeMap<String, u64>,
}

/// A map written as a list of pairs (JSON map keys must be strings).
pub mod pairs {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the map as a list of `[key, value]` pairs.
    pub fn serialize<K: Serialize, V: Serialize, S: Serializer>(
        map: &BTreeMap<K, V>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(map.iter())
    }

    /// Reads a list of `[key, value]` pairs.
    pub fn deserialize<'de, K, V, D>(d: D) -> Result<BTreeMap<K, V>, D::Error>
    where
        K: Deserialize<'de> + Ord,
        V: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        Ok(Vec::<(K, V)>::deserialize(d)?.into_iter().collect())
    }
}

/// Everything the summary needs from a set of games. Each thread folds its games into its
/// own tally as they end (so no game's record outlives it or crosses threads), and the
/// tallies merge into the same totals whatever the thread count: sums are exact integers,
/// and where order matters (which refusal reason, which action first) the earliest game
/// wins. The same holds across shards, whose tallies `sim-merge` adds up.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Games played (that could start).
    pub games: u64,
    /// Per piece, by id.
    pub pieces: Vec<PieceTally>,
    /// Pieces each side lost, per game.
    pub lost: Vec<Moments>,
    /// By (acting piece index, action).
    #[serde(with = "pairs")]
    pub actions: BTreeMap<(usize, String), ActionTally>,
    /// By order index: games refused, and the first game's reason.
    #[serde(with = "pairs")]
    pub refused: BTreeMap<usize, (u64, u32, String)>,
    /// The first game that could not start, with the reason.
    pub failed: Option<(u32, String)>,
    /// Orders refused in all (from the file and from policies).
    pub refused_total: u64,
    /// Games that did not reach their end.
    pub unfinished: u64,
    /// The turn each game ended on.
    pub length: Moments,
    /// Orders the policies gave per game.
    pub policy_orders: Moments,
    /// Per side, 1 for each game it won (0 otherwise), over games with a result.
    pub wins: Vec<Moments>,
    /// 1 for each drawn game, over games with a result.
    pub draws: Moments,
    /// Games by the turn they ended on (parts written before it was kept read as empty).
    #[serde(default, with = "pairs")]
    pub lengths: BTreeMap<u32, u64>,
}

impl Tally {
    /// Adds game `run`; `side_of` gives each piece's side index.
    #[allow(clippy::needless_pass_by_value)] // the game's record is folded in and dropped
    pub fn add(&mut self, run: u32, r: RunResult, side_of: &[usize], sides: usize) {
        if let Some(why) = r.failed {
            if self.failed.as_ref().is_none_or(|(first, _)| run < *first) {
                self.failed = Some((run, why));
            }
            return;
        }
        self.games += 1;
        self.refused_total += r.refused.len() as u64 + r.policy_refused;
        self.unfinished += u64::from(!r.finished);
        self.length.add(i64::from(r.turns));
        *self.lengths.entry(r.turns).or_default() += 1;
        self.policy_orders
            .add(i64::try_from(r.policy_orders).unwrap_or(i64::MAX));
        if let Some(winner) = r.winner {
            self.wins
                .resize_with(sides.max(self.wins.len()), Moments::default);
            for (i, m) in self.wins.iter_mut().enumerate() {
                m.add(i64::from(winner == Some(i)));
            }
            self.draws.add(i64::from(winner.is_none()));
        }
        if self.pieces.len() < r.pieces.len() {
            self.pieces.resize_with(r.pieces.len(), PieceTally::default);
        }
        self.lost
            .resize_with(sides.max(self.lost.len()), Moments::default);
        let mut lost = vec![0i64; sides];
        for (i, (end, t)) in r.pieces.into_iter().zip(&mut self.pieces).enumerate() {
            if t.counters.len() < end.counters.len() {
                t.counters.resize_with(end.counters.len(), Moments::default);
            }
            for (m, v) in t.counters.iter_mut().zip(&end.counters) {
                m.add(i64::from(*v));
            }
            if t.flags.len() < 64 {
                t.flags.resize(64, 0);
            }
            for (f, count) in t.flags.iter_mut().enumerate() {
                *count += (end.flags >> f) & 1;
            }
            if !end.on_board {
                t.removed += 1;
                if let Some(l) = side_of.get(i).and_then(|s| lost.get_mut(*s)) {
                    *l += 1;
                }
            }
            let place = end.place.unwrap_or_else(|| "off the board".to_owned());
            *t.places.entry(place).or_default() += 1;
        }
        for (m, l) in self.lost.iter_mut().zip(lost) {
            m.add(l);
        }
        for (k, (piece, action, outcome)) in r.outcomes.into_iter().enumerate() {
            let a = self
                .actions
                .entry((piece, action))
                .or_insert_with(|| ActionTally {
                    first: (run, k),
                    rolls: 0,
                    outcomes: BTreeMap::new(),
                });
            a.first = a.first.min((run, k));
            a.rolls += 1;
            *a.outcomes.entry(outcome).or_default() += 1;
        }
        for (i, reason) in r.refused {
            let x = self.refused.entry(i).or_insert((0, run, reason.clone()));
            x.0 += 1;
            if run < x.1 {
                (x.1, x.2) = (run, reason);
            }
        }
    }

    /// Adds another tally (another thread's or shard's games).
    pub fn merge(&mut self, o: Self) {
        self.games += o.games;
        self.refused_total += o.refused_total;
        self.unfinished += o.unfinished;
        self.length.merge(&o.length);
        for (turns, k) in &o.lengths {
            *self.lengths.entry(*turns).or_default() += k;
        }
        self.policy_orders.merge(&o.policy_orders);
        if self.wins.len() < o.wins.len() {
            self.wins.resize_with(o.wins.len(), Moments::default);
        }
        for (a, b) in self.wins.iter_mut().zip(&o.wins) {
            a.merge(b);
        }
        self.draws.merge(&o.draws);
        if self.pieces.len() < o.pieces.len() {
            self.pieces.resize_with(o.pieces.len(), PieceTally::default);
        }
        for (t, p) in self.pieces.iter_mut().zip(o.pieces) {
            if t.counters.len() < p.counters.len() {
                t.counters.resize_with(p.counters.len(), Moments::default);
            }
            for (a, b) in t.counters.iter_mut().zip(&p.counters) {
                a.merge(b);
            }
            if t.flags.len() < p.flags.len() {
                t.flags.resize(p.flags.len(), 0);
            }
            for (a, b) in t.flags.iter_mut().zip(&p.flags) {
                *a += b;
            }
            t.removed += p.removed;
            for (place, k) in p.places {
                *t.places.entry(place).or_default() += k;
            }
        }
        if self.lost.len() < o.lost.len() {
            self.lost.resize_with(o.lost.len(), Moments::default);
        }
        for (a, b) in self.lost.iter_mut().zip(&o.lost) {
            a.merge(b);
        }
        for (key, b) in o.actions {
            match self.actions.get_mut(&key) {
                Some(a) => {
                    a.first = a.first.min(b.first);
                    a.rolls += b.rolls;
                    for (outcome, k) in b.outcomes {
                        *a.outcomes.entry(outcome).or_default() += k;
                    }
                }
                None => {
                    self.actions.insert(key, b);
                }
            }
        }
        for (i, (games, run, reason)) in o.refused {
            let x = self.refused.entry(i).or_insert((0, run, reason.clone()));
            x.0 += games;
            if run < x.1 {
                (x.1, x.2) = (run, reason);
            }
        }
        if let Some((run, why)) = o.failed
            && self.failed.as_ref().is_none_or(|(first, _)| run < *first)
        {
            self.failed = Some((run, why));
        }
    }
}

impl Tally {
    /// Side `side`'s share of the games with a result, as `sim` reports it.
    #[must_use]
    pub fn win_rate(&self, side: usize) -> Estimate {
        self.wins.get(side).copied().unwrap_or_default().estimate()
    }

    /// The share of draws among the games with a result.
    #[must_use]
    pub fn draw_rate(&self) -> Estimate {
        self.draws.estimate()
    }

    /// Side `side`'s share of the games with a result, with its Wilson 95% interval: the
    /// words `sim` prints and the editor shows.
    #[must_use]
    pub fn win_share(&self, side: usize) -> Share {
        Share::counted(self.wins.get(side).copied().unwrap_or_default())
    }

    /// The share of draws among the games with a result, with its Wilson 95% interval.
    #[must_use]
    pub fn draw_share(&self) -> Share {
        Share::counted(self.draws)
    }

    /// Games that ended with a result (a win or a draw).
    #[must_use]
    pub const fn decided(&self) -> u64 {
        self.draws.n
    }
}

/// The seed of game `run` of a simulation started from `seed`.
#[must_use]
pub const fn run_seed(seed: u64, run: u32) -> u64 {
    seed.wrapping_add(run as u64)
}

/// How one game ended.
#[derive(Debug, Default)]
pub struct RunResult {
    /// Per piece, by id: counters, flags, on the board, where.
    pub pieces: Vec<PieceEnd>,
    /// Orders refused (index in the orders file) with the reason.
    pub refused: Vec<(usize, String)>,
    /// Each chart outcome of an action: (acting piece index, action, outcome).
    pub outcomes: Vec<(usize, String, String)>,
    /// A setup failure (the game could not start).
    pub failed: Option<String>,
    /// Orders the policies gave.
    pub policy_orders: u64,
    /// Of those, how many `apply` refused.
    pub policy_refused: u64,
    /// True when the game reached its end.
    pub finished: bool,
    /// The turn the game ended on (or stopped at).
    pub turns: u32,
    /// The winner's side index (`Some(None)`: a draw; `None`: no result).
    pub winner: Option<Option<usize>>,
}

/// One piece at the end of a game.
#[derive(Debug)]
pub struct PieceEnd {
    /// Its counters, by id.
    pub counters: Vec<i32>,
    /// Its flags, one bit each.
    pub flags: u64,
    /// False when it ended off the board.
    pub on_board: bool,
    /// Where it ended (the first cell of a spread piece).
    pub place: Option<String>,
}

fn place_text(place: &Place) -> Option<String> {
    match place {
        Place::Cell(c) => Some(c.to_string()),
        Place::Spread(cells) => cells.first().map(ToString::to_string),
        Place::Point { at, .. } => Some(at.to_string()),
        Place::Off => None,
    }
}

/// The scenario's side names, in order: what policy seats are named by.
#[must_use]
pub fn side_names(s: &Scenario) -> Vec<String> {
    s.compiled
        .setup
        .sides
        .iter()
        .map(|d| d.name.clone())
        .collect()
}

/// Each piece's side index, in the scenario's piece order: what [`Tally::add`] reads
/// removals by.
#[must_use]
pub fn piece_sides(s: &Scenario) -> Vec<usize> {
    s.compiled
        .setup
        .pieces
        .iter()
        .map(|p| p.side.index())
        .collect()
}

/// Plays one game: the orders file first (a refused order is recorded and the next one
/// tried), then the policies of `seats`, if any, to the end of the game.
pub fn play_one(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seats: &Seats,
    seed: u64,
    hooks: &mut dyn Hooks,
) -> RunResult {
    play(s, orders, seats, seed, hooks, false, None).0.result
}

/// What someone watching a game from another thread sees of it and may ask: every order a
/// policy gives adds one to `orders`, and `stop` set ends the game before its next order.
#[derive(Clone, Copy, Debug)]
pub struct Watch<'a> {
    /// Set by the watcher to stop the game between two orders.
    pub stop: &'a AtomicBool,
    /// Policy orders given so far (shared by all the games that add to it).
    pub orders: &'a AtomicU64,
}

/// Plays one game as [`play_one`] does, under `watch`: `None` when it was stopped before
/// its end (a stopped game is no result and is not tallied).
pub fn play_one_watched(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seats: &Seats,
    seed: u64,
    hooks: &mut dyn Hooks,
    watch: Watch<'_>,
) -> Option<RunResult> {
    let (recorded, stopped) = play(s, orders, seats, seed, hooks, false, Some(watch));
    (!stopped).then_some(recorded.result)
}

/// One game played as [`play_one`] plays it, kept whole: what `sim --save-games` saves.
#[derive(Debug)]
pub struct Recorded {
    /// How it ended.
    pub result: RunResult,
    /// The game as it ended (`None` when it could not start).
    pub game: Option<Game>,
    /// Every order applied, in the order applied: replaying them gives the same game.
    pub orders: Vec<OrderSpec>,
}

/// Plays one game as [`play_one`] does and keeps the game and the orders applied.
pub fn play_recorded(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seats: &Seats,
    seed: u64,
    hooks: &mut dyn Hooks,
) -> Recorded {
    play(s, orders, seats, seed, hooks, true, None).0
}

fn play(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seats: &Seats,
    seed: u64,
    hooks: &mut dyn Hooks,
    record: bool,
    watch: Option<Watch<'_>>,
) -> (Recorded, bool) {
    let mut result = RunResult::default();
    let mut applied = Vec::new();
    let mut game: Game = match s.start(Some(seed), &[], hooks) {
        Ok(g) => g,
        Err(d) => {
            result.failed = Some(d.to_string());
            let recorded = Recorded {
                result,
                game: None,
                orders: applied,
            };
            return (recorded, false);
        }
    };
    for (i, o) in orders.iter().enumerate() {
        let order = match resolve_order(&game, &o.value) {
            Ok(order) => order,
            Err(message) => {
                result.refused.push((i, message.to_string()));
                continue;
            }
        };
        match game.apply(&order, hooks) {
            Ok(events) => {
                if record {
                    applied.push(o.value.clone());
                }
                result.outcomes.extend(chart_outcomes(events));
            }
            Err(refusal) => result.refused.push((i, refusal.message)),
        }
    }
    if seats.iter().any(Option::is_some) {
        let mut players = match players_for(seats, seed) {
            Ok(p) => p,
            Err(e) => {
                result.failed = Some(e);
                let recorded = Recorded {
                    result,
                    game: Some(game),
                    orders: applied,
                };
                return (recorded, false);
            }
        };
        let mut played = Played {
            record: record.then(Vec::new),
            ..Played::default()
        };
        // `policy::play_on`'s loop, asking the watcher between orders: a search policy
        // can take many seconds per order, so a stop waits for one order, not one game.
        while played.orders < MAX_POLICY_ORDERS {
            if watch.is_some_and(|w| w.stop.load(Ordering::Relaxed)) {
                let recorded = Recorded {
                    result,
                    game: Some(game),
                    orders: applied,
                };
                return (recorded, true);
            }
            if !step(&mut game, hooks, &mut players, &mut played) {
                break;
            }
            if let Some(w) = watch {
                w.orders.fetch_add(1, Ordering::Relaxed);
            }
        }
        applied.extend(played.record.take().unwrap_or_default());
        if let Some(e) = played.error {
            result.failed = Some(e);
            let recorded = Recorded {
                result,
                game: Some(game),
                orders: applied,
            };
            return (recorded, false);
        }
        result.policy_orders = played.orders;
        result.policy_refused = played.refused.len() as u64;
        result.outcomes.extend(played.outcomes);
    }
    result.finished = game.state().over();
    result.winner = game.result().map(|r| r.winner.map(|s| s.index()));
    // After the last turn the cursor stands on the turn after it.
    result.turns = game.state().turn.min(game.turns());
    result.pieces = game
        .state()
        .pieces
        .iter()
        .map(|p| PieceEnd {
            counters: p.counters.clone(),
            flags: p.flags,
            on_board: p.on_board(),
            place: place_text(&p.place),
        })
        .collect();
    let recorded = Recorded {
        result,
        game: Some(game),
        orders: applied,
    };
    (recorded, false)
}

/// A mean with its 95% confidence half-width (1.96·sd/√n).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Estimate {
    /// The mean (for a rate, the observed share).
    pub mean: f64,
    /// The half-width of its 95% interval.
    pub ci95: f64,
}

impl Estimate {
    /// A rate as `sim` prints it: `42.5% ± 15.5`.
    #[must_use]
    pub fn percent(self) -> String {
        format!("{:.1}% ± {:.1}", self.mean * 100.0, self.ci95 * 100.0)
    }

    /// A mean as `sim` prints it: `3.25 ± 0.41`.
    #[must_use]
    pub fn plain(self) -> String {
        format!("{:.2} ± {:.2}", self.mean, self.ci95)
    }
}

/// `k` games of `n` as a share, with the Wilson score interval at 95%. The half-width
/// 1.96·sd/√n ([`Estimate`]) has no width when every game or none went one way, which a
/// sample never proves; the Wilson interval keeps its width there (1 of 1 is not surely
/// 100%). `grognard sim`'s text and the editor's Simulate tab both say a rate this way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Share {
    /// Games that went this way.
    pub k: u64,
    /// Games counted (those with a result).
    pub n: u64,
    /// The observed share, 0–1 (0 when no game was counted).
    pub share: f64,
    /// The interval's low end, 0–1.
    pub lo: f64,
    /// The interval's high end, 0–1.
    pub hi: f64,
}

impl Share {
    /// `k` of `n`.
    #[allow(clippy::cast_precision_loss)] // game counts stay far below 2^53
    #[must_use]
    pub fn of(k: u64, n: u64) -> Self {
        if n == 0 {
            return Self {
                k,
                n,
                share: 0.0,
                lo: 0.0,
                hi: 1.0,
            };
        }
        const Z: f64 = 1.96;
        let nf = n as f64;
        let p = k.min(n) as f64 / nf;
        let z2 = Z * Z;
        let centre = (p + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
        let half = Z / (1.0 + z2 / nf) * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
        Self {
            k,
            n,
            share: p,
            lo: (centre - half).max(0.0),
            hi: (centre + half).min(1.0),
        }
    }

    /// The share a 0/1 tally counts: its sum of ones of its `n`.
    #[must_use]
    pub fn counted(m: Moments) -> Self {
        Self::of(u64::try_from(m.sum.max(0)).unwrap_or(u64::MAX), m.n)
    }

    /// The share in words: `42.5% (95%: 28.5–57.8)`; `—` when no game was counted.
    #[must_use]
    pub fn words(self) -> String {
        if self.n == 0 {
            return "—".to_owned();
        }
        format!(
            "{:.1}% (95%: {:.1}–{:.1})",
            self.share * 100.0,
            self.lo * 100.0,
            self.hi * 100.0
        )
    }

    /// The interval's ends rounded as `sim --json` writes them: `[low, high]`, 0–1.
    #[must_use]
    pub fn rounded(self) -> [f64; 2] {
        [round4(self.lo), round4(self.hi)]
    }
}

/// Rounded to 4 decimals so the JSON is short and stable.
#[must_use]
pub fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::{Moments, Share};

    /// The Wilson interval: 0 of 100 reaches 3.7%, 100 of 100 starts at 96.3%, 17 of 40
    /// is 28.5–57.8 (the textbook values); nothing counted is "—"; a 0/1 tally's share is
    /// its ones of its count.
    #[test]
    fn shares_carry_wilson_intervals_with_width_at_the_ends() {
        assert_eq!(Share::of(0, 100).words(), "0.0% (95%: 0.0–3.7)");
        assert_eq!(Share::of(100, 100).words(), "100.0% (95%: 96.3–100.0)");
        assert_eq!(Share::of(17, 40).words(), "42.5% (95%: 28.5–57.8)");
        assert_eq!(Share::of(0, 0).words(), "—");
        assert_eq!(Share::of(17, 40).rounded(), [0.2851, 0.5781]);
        let mut m = Moments::default();
        [1, 0, 1, 1].iter().for_each(|x| m.add(*x));
        assert_eq!(Share::counted(m), Share::of(3, 4));
    }

    /// The exact one-pass moments give the textbook mean and sample variance, and a tally
    /// split in two and merged equals the whole.
    #[test]
    fn moments_estimate_and_merge() {
        let xs = [1i64, 2, 3, 4, 7, -2, 0, 5];
        let mut whole = Moments::default();
        xs.iter().for_each(|x| whole.add(*x));
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<i64>() as f64 / n;
        let var = xs.iter().map(|x| (*x as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let e = whole.estimate();
        assert!((e.mean - mean).abs() < 1e-4, "{e:?}");
        assert!(
            (e.ci95 - 1.96 * var.sqrt() / n.sqrt()).abs() < 1e-4,
            "{e:?}"
        );
        let (mut a, mut b) = (Moments::default(), Moments::default());
        xs[..3].iter().for_each(|x| a.add(*x));
        xs[3..].iter().for_each(|x| b.add(*x));
        a.merge(&b);
        assert_eq!((a.n, a.sum, a.squares), (whole.n, whole.sum, whole.squares));
        let one = {
            let mut m = Moments::default();
            m.add(5);
            m.estimate()
        };
        assert_eq!((one.mean, one.ci95), (5.0, 0.0));
    }
}
