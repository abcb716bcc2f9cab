//! `grognard sim`: Monte Carlo over seeds. Each game replays an orders file, is played
//! to its end by policies, or both (the file gives the opening, the policies go on); each
//! thread folds its games into an exact tally, and the tallies add up to the same summary
//! whatever the thread count. `--shard I/N --out PART.json` plays one shard of the runs
//! and writes its tally; `sim-merge` adds the parts up into the summary of the whole run.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use grognard_kernel::game::Game;
use grognard_kernel::piece::Place;
use grognard_rules::de::Located;
use grognard_rules::load::{self, Scenario};
use grognard_rules::model::OrderSpec;
use grognard_rules::orders::resolve_order;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::common::{Failure, Outcome, hooks_for, print_json};
use grognard_play::policy::{
    self, MAX_POLICY_ORDERS, PolicyError, Seats, chart_outcomes, play_out,
};

/// What `grognard sim` was asked.
pub(crate) struct SimArgs<'a> {
    /// Scenario file.
    pub scenario: &'a Path,
    /// Orders file (the opening, when policies go on from it).
    pub orders: Option<&'a Path>,
    /// `--policy` values: `NAME` for every side or `SIDE=NAME` for one.
    pub policies: &'a [String],
    /// Games to play.
    pub runs: u32,
    /// Seed of game 0 (the scenario's when absent).
    pub seed: Option<u64>,
    /// A second ruleset to compare with.
    pub other: Option<&'a Path>,
    /// Worker threads (all cores when absent).
    pub threads: Option<usize>,
    /// `I/N`: play only shard I of N.
    pub shard: Option<&'a str>,
    /// Write the tally here instead of printing the summary.
    pub out: Option<&'a Path>,
    /// Print JSON.
    pub json: bool,
}

/// Which of the runs one `sim` plays: shard `index` (from 0) of `count` takes runs
/// `index`, `index + count`, `index + 2·count`, ... so every shard gets a fair share of
/// long and short games, and each run keeps the seed the whole run gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    const WHOLE: Self = Self { index: 0, count: 1 };

    /// `I/N` with 1 ≤ I ≤ N.
    fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("--shard {text}: expected I/N with 1 ≤ I ≤ N (`--shard 2/8`)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (i, n): (u32, u32) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if i == 0 || n == 0 || i > n {
            return Err(bad());
        }
        Ok(Self {
            index: i - 1,
            count: n,
        })
    }

    /// The `k`-th run of this shard, if it is one of the `runs`.
    fn run(self, k: u32, runs: u32) -> Option<u32> {
        let run = u64::from(k) * u64::from(self.count) + u64::from(self.index);
        u32::try_from(run).ok().filter(|r| *r < runs)
    }

    /// How many of the `runs` this shard plays.
    fn len(self, runs: u32) -> u32 {
        let (runs, index, count) = (
            u64::from(runs),
            u64::from(self.index),
            u64::from(self.count),
        );
        u32::try_from(runs.saturating_sub(index).div_ceil(count)).unwrap_or(u32::MAX)
    }
}

/// The seed of game `run` of a simulation started from `seed`.
const fn run_seed(seed: u64, run: u32) -> u64 {
    seed.wrapping_add(run as u64)
}

/// How one game ended.
struct RunResult {
    /// Per piece, by id: counters, flags, on the board, where.
    pieces: Vec<PieceEnd>,
    /// Orders refused (index in the orders file) with the reason.
    refused: Vec<(usize, String)>,
    /// Each chart outcome of an action: (acting piece index, action, outcome).
    outcomes: Vec<(usize, String, String)>,
    /// A setup failure (the game could not start).
    failed: Option<String>,
    /// Orders the policies gave, and how many of those `apply` refused.
    policy_orders: u64,
    policy_refused: u64,
    /// True when the game reached its end.
    finished: bool,
    /// The turn the game ended on (or stopped at).
    turns: u32,
    /// The winner's side index (`Some(None)`: a draw; `None`: no result).
    winner: Option<Option<usize>>,
}

struct PieceEnd {
    counters: Vec<i32>,
    flags: u64,
    on_board: bool,
    place: Option<String>,
}

fn place_text(place: &Place) -> Option<String> {
    match place {
        Place::Cell(c) => Some(c.to_string()),
        Place::Spread(cells) => cells.first().map(ToString::to_string),
        Place::Point { at, .. } => Some(at.to_string()),
        Place::Off => None,
    }
}

/// Plays one game: the orders file first (a refused order is recorded and the next one
/// tried), then the policies of `seats`, if any, to the end of the game.
fn play_one(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seats: &Seats,
    seed: u64,
    hooks: &mut dyn grognard_kernel::hooks::Hooks,
) -> RunResult {
    let mut result = RunResult {
        pieces: Vec::new(),
        refused: Vec::new(),
        outcomes: Vec::new(),
        failed: None,
        policy_orders: 0,
        policy_refused: 0,
        finished: false,
        turns: 0,
        winner: None,
    };
    let mut game: Game = match s.start(Some(seed), &[], hooks) {
        Ok(g) => g,
        Err(d) => {
            result.failed = Some(d.to_string());
            return result;
        }
    };
    for (i, o) in orders.iter().enumerate() {
        let order = match resolve_order(&game, &o.value) {
            Ok(order) => order,
            Err(message) => {
                result.refused.push((i, message));
                continue;
            }
        };
        match game.apply(&order, hooks) {
            Ok(events) => result.outcomes.extend(chart_outcomes(events)),
            Err(refusal) => result.refused.push((i, refusal.message)),
        }
    }
    if seats.iter().any(Option::is_some) {
        let mut players = match policy::players_for(seats, seed) {
            Ok(p) => p,
            Err(e) => {
                result.failed = Some(e);
                return result;
            }
        };
        let played = play_out(&mut game, hooks, &mut players, MAX_POLICY_ORDERS);
        if let Some(e) = played.error {
            result.failed = Some(e);
            return result;
        }
        result.policy_orders = played.orders;
        result.policy_refused = played.refused.len() as u64;
        result.outcomes.extend(played.outcomes);
    }
    result.finished = game.state().over;
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
    result
}

/// Count, sum and sum of squares of whole numbers: exact, so tallies kept by different
/// threads add up to the same totals however the games were split between them.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
struct Moments {
    n: u64,
    sum: i128,
    squares: i128,
}

impl Moments {
    fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += i128::from(x);
        self.squares += i128::from(x) * i128::from(x);
    }

    fn merge(&mut self, o: &Self) {
        self.n += o.n;
        self.sum += o.sum;
        self.squares += o.squares;
    }

    /// The mean with its 95% confidence half-width (1.96·sd/√n); the sample variance is
    /// (n·Σx² − (Σx)²) / (n·(n − 1)), its numerator computed exactly.
    #[allow(clippy::cast_precision_loss)] // counts and sums of game counters stay far below 2^53
    fn estimate(&self) -> Estimate {
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
#[derive(Default, Serialize, Deserialize)]
struct PieceTally {
    counters: Vec<Moments>,
    /// Games ending with each flag set, by flag id (first 64).
    flags: Vec<u64>,
    /// Games ending off the board.
    removed: u64,
    /// Games ending at each place.
    places: BTreeMap<String, u64>,
}

/// The chart outcomes of one piece's action over many games.
#[derive(Serialize, Deserialize)]
struct ActionTally {
    /// The first game and event index where it was rolled: actions are listed in that order.
    first: (u32, usize),
    rolls: u64,
    outcomes: BTreeMap<String, u64>,
}

/// A map written as a list of pairs (JSON map keys must be strings).
mod pairs {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<K: Serialize, V: Serialize, S: Serializer>(
        map: &BTreeMap<K, V>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(map.iter())
    }

    pub(super) fn deserialize<'de, K, V, D>(d: D) -> Result<BTreeMap<K, V>, D::Error>
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
#[derive(Default, Serialize, Deserialize)]
struct Tally {
    games: u64,
    pieces: Vec<PieceTally>,
    /// Pieces each side lost, per game.
    lost: Vec<Moments>,
    /// By (acting piece index, action).
    #[serde(with = "pairs")]
    actions: BTreeMap<(usize, String), ActionTally>,
    /// By order index: games refused, and the first game's reason.
    #[serde(with = "pairs")]
    refused: BTreeMap<usize, (u64, u32, String)>,
    /// The first game that could not start, with the reason.
    failed: Option<(u32, String)>,
    /// Orders refused in all (from the file and from policies).
    refused_total: u64,
    /// Games that did not reach their end.
    unfinished: u64,
    /// The turn each game ended on.
    length: Moments,
    /// Orders the policies gave per game.
    policy_orders: Moments,
    /// Per side, 1 for each game it won (0 otherwise), over games with a result.
    wins: Vec<Moments>,
    /// 1 for each drawn game, over games with a result.
    draws: Moments,
}

impl Tally {
    /// Adds game `run`; `side_of` gives each piece's side index.
    fn add(&mut self, run: u32, r: RunResult, side_of: &[usize], sides: usize) {
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

    fn merge(&mut self, o: Self) {
        self.games += o.games;
        self.refused_total += o.refused_total;
        self.unfinished += o.unfinished;
        self.length.merge(&o.length);
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

/// Plays `runs` games on all cores and tallies them; the tally is the same whatever the
/// thread count.
#[allow(clippy::too_many_arguments)]
fn play_many(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seats: &Seats,
    (seed, runs, shard): (u64, u32, Shard),
    threads: usize,
    label: &str,
    quiet: bool,
) -> Result<Tally, Failure> {
    // Check the hooks load once here, so a bad script is one clear error, not one per thread.
    drop(hooks_for(&s.ruleset)?);
    let side_of: Vec<usize> = s
        .compiled
        .setup
        .pieces
        .iter()
        .map(|p| p.side.index())
        .collect();
    let sides = s.compiled.setup.sides.len();
    let mine = shard.len(runs);
    let threads = threads.clamp(1, mine.max(1) as usize);
    // Threads take the next run as they finish one, so one thread's long games do not
    // leave the others idle.
    let next = AtomicU32::new(0);
    let done = AtomicU32::new(0);
    let show = !quiet && std::io::stderr().is_terminal();
    let tally = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (next, done, side_of) = (&next, &done, &side_of);
                scope.spawn(move || -> Result<Tally, String> {
                    // Lua hooks are not Send: every thread builds its own.
                    let mut hooks = hooks_for(&s.ruleset).map_err(|d| d.to_string())?;
                    let mut tally = Tally::default();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(run) = shard.run(k, runs) else {
                            break;
                        };
                        let result =
                            play_one(s, orders, seats, run_seed(seed, run), hooks.as_mut());
                        tally.add(run, result, side_of, sides);
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(tally)
                })
            })
            .collect();
        if show {
            // On a terminal only (and never with --json): games, games per second, time left.
            let bar = indicatif::ProgressBar::new(u64::from(mine));
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{msg} [{bar:30}] {pos}/{len} games, {per_sec}, {eta} left",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.set_message(label.to_owned());
            while !handles
                .iter()
                .all(std::thread::ScopedJoinHandle::is_finished)
            {
                bar.set_position(u64::from(done.load(Ordering::Relaxed)));
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            bar.finish_and_clear();
        }
        let mut all = Tally::default();
        for h in handles {
            match h.join() {
                Ok(Ok(t)) => all.merge(t),
                Ok(Err(m)) => return Err(Failure::Rules(m)),
                Err(_) => return Err(Failure::Rules("a simulation thread failed".to_owned())),
            }
        }
        Ok(all)
    })?;
    if let Some((_, m)) = tally.failed {
        return Err(Failure::Rules(m));
    }
    Ok(tally)
}

/// A mean with its 95% confidence half-width (1.96·sd/√n).
#[derive(Clone, Copy, Debug, Serialize)]
struct Estimate {
    mean: f64,
    ci95: f64,
}

/// Rounded to 4 decimals so the JSON is short and stable.
fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

#[derive(Debug, Serialize)]
struct PieceSummary {
    piece: String,
    side: String,
    #[serde(rename = "type")]
    kind: String,
    removed: f64,
    counters: BTreeMap<String, Estimate>,
    flags: BTreeMap<String, f64>,
    places: Vec<(String, f64)>,
}

#[derive(Debug, Serialize)]
struct SideSummary {
    side: String,
    pieces: usize,
    lost: Estimate,
}

#[derive(Debug, Serialize)]
struct ActionSummary {
    piece: String,
    action: String,
    /// Times the action's chart was rolled, over all games.
    rolls: u64,
    /// Outcome → (count, share of rolls).
    outcomes: BTreeMap<String, (u64, f64)>,
}

#[derive(Debug, Serialize)]
struct RefusedSummary {
    /// 1-based position in the orders file.
    order: usize,
    line: u32,
    /// Games in which it was refused.
    games: u64,
    /// The first reason given.
    reason: String,
}

#[derive(Debug, Serialize)]
struct ResultsSummary {
    /// Games that ended with a result.
    games: u64,
    /// Side name → its share of wins.
    wins: BTreeMap<String, Estimate>,
    /// The share of draws.
    draws: Estimate,
}

#[derive(Debug, Serialize)]
struct SimSummary {
    scenario: String,
    ruleset: String,
    ruleset_hash: String,
    runs: u32,
    seed: u64,
    /// Games played.
    games: u64,
    /// Orders refused over all games (0 when policies play: they give legal orders).
    refused: u64,
    /// Games that did not reach their end.
    unfinished: u64,
    /// The turn games ended on.
    length: Estimate,
    /// Orders the policies gave per game.
    policy_orders: Estimate,
    /// Of the games with a result: each side's share of wins, and of draws, as rates with
    /// 95% intervals (`games` is how many had a result).
    results: ResultsSummary,
    /// The orders of the orders file that were refused, with the games and first reason.
    refused_orders: Vec<RefusedSummary>,
    pieces: Vec<PieceSummary>,
    sides: Vec<SideSummary>,
    actions: Vec<ActionSummary>,
}

#[allow(clippy::cast_precision_loss)] // game counts stay far below 2^53
fn summarise(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seed: u64,
    tally: Tally,
) -> Result<SimSummary, Failure> {
    // A game in its starting position names pieces, sides, counters and flags.
    let mut hooks = hooks_for(&s.ruleset)?;
    let game = s.start(Some(seed), &[], hooks.as_mut())?;
    let rules = game.rules();
    let n = tally.games.max(1) as f64;
    let share = |k: u64| round4(k as f64 / n);
    let no_piece = PieceTally::default();
    let mut pieces = Vec::new();
    for (i, p) in game.state().pieces.iter().enumerate() {
        let t = tally.pieces.get(i).unwrap_or(&no_piece);
        let counters = rules
            .counters
            .iter()
            .enumerate()
            .map(|(c, def)| {
                let m = t.counters.get(c).copied().unwrap_or_default();
                (def.name.clone(), m.estimate())
            })
            .collect();
        let flags = rules
            .flags
            .iter()
            .enumerate()
            .map(|(f, def)| {
                (
                    def.name.clone(),
                    share(t.flags.get(f).copied().unwrap_or(0)),
                )
            })
            .collect();
        let mut places: Vec<(&String, u64)> = t.places.iter().map(|(c, k)| (c, *k)).collect();
        places.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        pieces.push(PieceSummary {
            piece: p.name.clone(),
            side: game
                .sides()
                .get(p.side.0 as usize)
                .map_or_else(String::new, |d| d.name.clone()),
            kind: rules
                .piece_type(p.kind)
                .map_or_else(String::new, |t| t.name.clone()),
            removed: share(t.removed),
            counters,
            flags,
            places: places
                .into_iter()
                .take(3)
                .map(|(c, k)| (c.clone(), share(k)))
                .collect(),
        });
    }
    let sides = game
        .sides()
        .iter()
        .enumerate()
        .map(|(si, d)| SideSummary {
            side: d.name.clone(),
            pieces: game
                .state()
                .pieces
                .iter()
                .filter(|p| p.side.0 as usize == si)
                .count(),
            lost: tally.lost.get(si).copied().unwrap_or_default().estimate(),
        })
        .collect();
    let mut actions: Vec<((u32, usize), ActionSummary)> = tally
        .actions
        .into_iter()
        .map(|((piece, action), a)| {
            let name = game
                .state()
                .pieces
                .get(piece)
                .map_or_else(|| format!("#{piece}"), |p| p.name.clone());
            let rolls = a.rolls.max(1) as f64;
            let summary = ActionSummary {
                piece: name,
                action,
                rolls: a.rolls,
                outcomes: a
                    .outcomes
                    .into_iter()
                    .map(|(o, k)| (o, (k, round4(k as f64 / rolls))))
                    .collect(),
            };
            (a.first, summary)
        })
        .collect();
    // In the order the actions were first rolled, game by game.
    actions.sort_by_key(|(first, _)| *first);
    let refused = tally
        .refused
        .into_iter()
        .map(|(i, (games, _, reason))| RefusedSummary {
            order: i + 1,
            line: orders.get(i).map_or(0, |o| o.location.line),
            games,
            reason,
        })
        .collect();
    Ok(SimSummary {
        scenario: load::display(&s.path),
        ruleset: rules.identity.name.clone(),
        ruleset_hash: rules.identity.hash.clone(),
        runs: u32::try_from(tally.games).unwrap_or(u32::MAX),
        seed,
        games: tally.games,
        refused: tally.refused_total,
        unfinished: tally.unfinished,
        length: tally.length.estimate(),
        policy_orders: tally.policy_orders.estimate(),
        results: ResultsSummary {
            games: tally.draws.n,
            wins: game
                .sides()
                .iter()
                .enumerate()
                .map(|(i, d)| {
                    let m = tally.wins.get(i).copied().unwrap_or_default();
                    (d.name.clone(), m.estimate())
                })
                .collect(),
            draws: tally.draws.estimate(),
        },
        refused_orders: refused,
        pieces,
        sides,
        actions: actions.into_iter().map(|(_, a)| a).collect(),
    })
}

/// One ruleset's games: the scenario as loaded with it and their tally.
struct Played {
    scenario: Scenario,
    tally: Tally,
}

fn simulate(
    args: &SimArgs<'_>,
    ruleset: Option<&Path>,
    orders: &[Located<OrderSpec>],
    threads: usize,
    shard: Shard,
) -> Result<Played, Failure> {
    let s = load::load_scenario(args.scenario, ruleset)?;
    let seed = args.seed.unwrap_or(s.compiled.setup.seed);
    let label = s.ruleset.rules.identity.name.clone();
    let seats = seats_for(&s, args.policies)?;
    let quiet = args.json;
    let tally = play_many(
        &s,
        orders,
        &seats,
        (seed, args.runs, shard),
        threads,
        &label,
        quiet,
    )?;
    Ok(Played { scenario: s, tally })
}

fn seats_for(s: &Scenario, policies: &[String]) -> Result<Seats, Failure> {
    let sides: Vec<String> = s
        .compiled
        .setup
        .sides
        .iter()
        .map(|d| d.name.clone())
        .collect();
    policy::seats(policies, &sides).map_err(|e| match e {
        PolicyError::Unknown(m) => Failure::Usage(m),
        PolicyError::Script(m) => Failure::Rules(m),
    })
}

/// The format tag of a part file.
const PART_FORMAT: &str = "grognard-sim-part-1";

/// What one shard of a `sim` wrote: the run it belongs to (files by path and content hash,
/// policies, seed, runs) and the exact tally of its games, for `sim-merge`.
#[derive(Serialize, Deserialize)]
struct Part {
    format: String,
    scenario: String,
    scenario_hash: String,
    orders: Option<String>,
    orders_hash: Option<String>,
    policies: Vec<String>,
    seed: u64,
    runs: u32,
    shard: Shard,
    ruleset_hash: String,
    tally: Tally,
    /// The compared ruleset (`--ruleset`): its path, identity and tally.
    other: Option<OtherPart>,
}

#[derive(Serialize, Deserialize)]
struct OtherPart {
    ruleset: String,
    ruleset_hash: String,
    tally: Tally,
}

/// Everything of a part but the tallies: what must be equal across the parts of one run.
fn run_key(p: &Part) -> serde_json::Value {
    json!({
        "scenario": p.scenario, "scenario_hash": p.scenario_hash, "orders": p.orders,
        "orders_hash": p.orders_hash, "policies": p.policies, "seed": p.seed, "runs": p.runs,
        "shards": p.shard.count, "ruleset_hash": p.ruleset_hash,
        "other": p.other.as_ref().map(|o| (&o.ruleset, &o.ruleset_hash)),
    })
}

fn file_hash(path: &Path) -> Result<String, Failure> {
    std::fs::read(path)
        .map(|b| load::content_hash(&b))
        .map_err(|e| {
            Failure::Rules(format!(
                "{}: cannot read the file: {e}",
                load::display(path)
            ))
        })
}

/// `grognard sim`: the same orders over `runs` seeds, summarised (or one shard of them,
/// tallied to a part file).
pub(crate) fn sim(args: &SimArgs<'_>) -> Outcome {
    if args.runs == 0 {
        return Err(Failure::Usage(
            "--runs 0: expected at least 1 game".to_owned(),
        ));
    }
    if args.threads == Some(0) {
        return Err(Failure::Usage("--threads must be at least 1".to_owned()));
    }
    if args.orders.is_none() && args.policies.is_empty() {
        return Err(Failure::Usage(
            "give an orders file (--orders FILE), a policy (--policy random|greedy|lua:FILE), or both"
                .to_owned(),
        ));
    }
    let shard = match args.shard {
        Some(text) => Shard::parse(text).map_err(Failure::Usage)?,
        None => Shard::WHOLE,
    };
    if args.shard.is_some() && args.out.is_none() {
        return Err(Failure::Usage(
            "--shard needs --out PART.json: a shard's games are summed up by `grognard sim-merge`"
                .to_owned(),
        ));
    }
    let orders = match args.orders {
        Some(path) => load::load_orders(path)?,
        None => Vec::new(),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let a = simulate(args, None, &orders, threads, shard)?;
    let b = match args.other {
        Some(path) => Some(simulate(args, Some(path), &orders, threads, shard)?),
        None => None,
    };
    if let Some(out) = args.out {
        let seed = args.seed.unwrap_or(a.scenario.compiled.setup.seed);
        let part = Part {
            format: PART_FORMAT.to_owned(),
            scenario: load::display(args.scenario),
            scenario_hash: a.scenario.hash.clone(),
            orders: args.orders.map(load::display),
            orders_hash: args.orders.map(file_hash).transpose()?,
            policies: args.policies.to_vec(),
            seed,
            runs: args.runs,
            shard,
            ruleset_hash: a.scenario.ruleset.rules.identity.hash.clone(),
            tally: a.tally,
            other: match (b, args.other) {
                (Some(b), Some(path)) => Some(OtherPart {
                    ruleset: load::display(path),
                    ruleset_hash: b.scenario.ruleset.rules.identity.hash.clone(),
                    tally: b.tally,
                }),
                _ => None,
            },
        };
        let text = serde_json::to_string(&part)
            .map_err(|e| Failure::Rules(format!("cannot write the part: {e}")))?;
        std::fs::write(out, text).map_err(|e| {
            Failure::Rules(format!(
                "{}: cannot write the part: {e}",
                load::display(out)
            ))
        })?;
        if !args.json {
            out!(
                "shard {}/{}: {} of {} games tallied in {}",
                shard.index + 1,
                shard.count,
                shard.len(args.runs),
                args.runs,
                load::display(out)
            );
        }
        return Ok(());
    }
    let seed = args.seed.unwrap_or(a.scenario.compiled.setup.seed);
    let sa = summarise(&a.scenario, &orders, seed, a.tally)?;
    let sb = match b {
        Some(b) => Some(summarise(&b.scenario, &orders, seed, b.tally)?),
        None => None,
    };
    report(&sa, sb.as_ref(), args.json);
    Ok(())
}

fn report(a: &SimSummary, b: Option<&SimSummary>, json: bool) {
    if json {
        match b {
            Some(b) => print_json(&json!({ "a": a, "b": b })),
            None => print_json(&json!(a)),
        }
        return;
    }
    match b {
        None => print_summary(a),
        Some(b) => print_comparison(a, b),
    }
}

/// `grognard sim-merge`: the parts of one sharded run added up into the summary the whole
/// run prints. The parts must be of one run (same files, policies, seed, runs and number
/// of shards) and hold every shard once; the files they name must still be the same.
pub(crate) fn merge(paths: &[PathBuf], json: bool) -> Outcome {
    let mut parts: Vec<(PathBuf, Part)> = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Failure::Rules(format!(
                "{}: cannot read the part: {e}",
                load::display(path)
            ))
        })?;
        let part: Part = serde_json::from_str(&text).map_err(|e| {
            Failure::Rules(format!(
                "{}: not a part written by `grognard sim --shard I/N --out` ({e})",
                load::display(path)
            ))
        })?;
        if part.format != PART_FORMAT {
            return Err(Failure::Rules(format!(
                "{}: a part of format `{}`; this grognard reads `{PART_FORMAT}`",
                load::display(path),
                part.format
            )));
        }
        parts.push((path.clone(), part));
    }
    parts.sort_by_key(|(_, p)| p.shard.index);
    let (first_path, first) = &parts[0];
    let key = run_key(first);
    for (path, p) in &parts[1..] {
        if run_key(p) != key {
            return Err(Failure::Rules(format!(
                "{} and {} are parts of different runs (scenario, orders, policies, seed, runs, \
                 rulesets or number of shards differ)",
                load::display(first_path),
                load::display(path)
            )));
        }
    }
    let count = first.shard.count;
    let have: Vec<u32> = parts.iter().map(|(_, p)| p.shard.index).collect();
    for (path, p) in &parts {
        if have.iter().filter(|i| **i == p.shard.index).count() > 1 {
            return Err(Failure::Rules(format!(
                "shard {}/{count} is given twice ({})",
                p.shard.index + 1,
                load::display(path)
            )));
        }
    }
    let missing: Vec<String> = (0..count)
        .filter(|i| !have.contains(i))
        .map(|i| format!("{}/{count}", i + 1))
        .collect();
    if !missing.is_empty() {
        let (what, verb) = if missing.len() == 1 {
            ("shard", "is")
        } else {
            ("shards", "are")
        };
        return Err(Failure::Rules(format!(
            "{what} {} {verb} missing: the run has {count} shards",
            missing.join(", ")
        )));
    }
    let scenario_path = PathBuf::from(&first.scenario);
    let orders = match &first.orders {
        Some(o) => {
            let path = PathBuf::from(o);
            if first.orders_hash.as_deref() != Some(file_hash(&path)?.as_str()) {
                return Err(Failure::Rules(format!(
                    "{o}: the orders file changed since the parts were played"
                )));
            }
            load::load_orders(&path)?
        }
        None => Vec::new(),
    };
    let load = |ruleset: Option<&Path>, hash: &str| -> Result<Scenario, Failure> {
        let s = load::load_scenario(&scenario_path, ruleset)?;
        if s.hash != first.scenario_hash {
            return Err(Failure::Rules(format!(
                "{}: the scenario changed since the parts were played",
                first.scenario
            )));
        }
        if s.ruleset.rules.identity.hash != hash {
            return Err(Failure::Rules(format!(
                "{}: the ruleset changed since the parts were played",
                s.ruleset.rules.identity.name
            )));
        }
        Ok(s)
    };
    let sa = load(None, &first.ruleset_hash)?;
    let sb = match &first.other {
        Some(o) => Some(load(Some(Path::new(&o.ruleset)), &o.ruleset_hash)?),
        None => None,
    };
    let seed = first.seed;
    let mut ta = Tally::default();
    let mut tb = Tally::default();
    for (_, p) in parts {
        ta.merge(p.tally);
        if let Some(o) = p.other {
            tb.merge(o.tally);
        }
    }
    if let Some((_, m)) = ta.failed.take() {
        return Err(Failure::Rules(m));
    }
    let a = summarise(&sa, &orders, seed, ta)?;
    let b = match sb {
        Some(s) => Some(summarise(&s, &orders, seed, tb)?),
        None => None,
    };
    report(&a, b.as_ref(), json);
    Ok(())
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn rate(e: Estimate) -> String {
    format!("{:.1}% ± {:.1}", e.mean * 100.0, e.ci95 * 100.0)
}

fn est(e: Estimate) -> String {
    format!("{:.2} ± {:.2}", e.mean, e.ci95)
}

fn print_summary(s: &SimSummary) {
    out!(
        "{} games of {} with ruleset {} (seeds {}..{}); means with 95% intervals",
        s.runs,
        s.scenario,
        s.ruleset,
        s.seed,
        run_seed(s.seed, s.runs.saturating_sub(1))
    );
    print_refused(s);
    print_games(s);
    out!("pieces:");
    for p in &s.pieces {
        let mut parts = Vec::new();
        for (name, e) in &p.counters {
            parts.push(format!("{name} {}", est(*e)));
        }
        for (name, f) in &p.flags {
            if *f > 0.0 {
                parts.push(format!("{name} {}", pct(*f)));
            }
        }
        if p.removed > 0.0 {
            parts.push(format!("removed {}", pct(p.removed)));
        }
        let places: Vec<String> = p
            .places
            .iter()
            .map(|(c, f)| format!("{c} {}", pct(*f)))
            .collect();
        out!(
            "  {:<6} {:<5} {:<12} {}; ends at {}",
            p.piece,
            p.side,
            p.kind,
            parts.join(", "),
            places.join(", ")
        );
    }
    out!("sides:");
    for d in &s.sides {
        out!(
            "  {:<6} lost {} of {} piece{}",
            d.side,
            est(d.lost),
            d.pieces,
            if d.pieces == 1 { "" } else { "s" }
        );
    }
    if !s.actions.is_empty() {
        out!("actions:");
        for a in &s.actions {
            let o: Vec<String> = a
                .outcomes
                .iter()
                .map(|(name, (_, f))| format!("{name} {}", pct(*f)))
                .collect();
            out!(
                "  {} {}: {} rolls; {}",
                a.piece,
                a.action,
                a.rolls,
                o.join(", ")
            );
        }
    }
}

/// Game length, unfinished games, and the policies' orders when they played.
fn print_games(s: &SimSummary) {
    let unfinished = if s.unfinished == 0 {
        "every game finished".to_owned()
    } else {
        format!("{} of {} games did not finish", s.unfinished, s.games)
    };
    out!("games: {unfinished}; ended on turn {}", est(s.length));
    if s.results.games > 0 {
        let wins: Vec<String> = s
            .results
            .wins
            .iter()
            .map(|(side, e)| format!("{side} wins {}", rate(*e)))
            .collect();
        out!(
            "results ({} games): {}, draws {}",
            s.results.games,
            wins.join(", "),
            rate(s.results.draws)
        );
    }
    if s.policy_orders.mean > 0.0 {
        out!(
            "policies: {} orders a game, {} refused in all",
            est(s.policy_orders),
            s.refused
        );
    }
}

fn print_refused(s: &SimSummary) {
    for r in &s.refused_orders {
        out!(
            "  order {} (line {}) refused in {} of {} games: {}",
            r.order,
            r.line,
            r.games,
            s.runs,
            r.reason
        );
    }
}

fn print_comparison(a: &SimSummary, b: &SimSummary) {
    out!(
        "{} games of {} each (seeds {}..{}): {} vs {}; means with 95% intervals",
        a.runs,
        a.scenario,
        a.seed,
        run_seed(a.seed, a.runs.saturating_sub(1)),
        a.ruleset,
        b.ruleset
    );
    for s in [a, b] {
        if !s.refused_orders.is_empty() {
            out!("refused with {}:", s.ruleset);
            print_refused(s);
        }
    }
    out!(
        "  {:<24} {:>16} {:>16} {:>8}",
        "",
        a.ruleset,
        b.ruleset,
        "change"
    );
    let row = |what: String, x: Estimate, y: Estimate| {
        if x.mean == 0.0 && y.mean == 0.0 && x.ci95 == 0.0 && y.ci95 == 0.0 {
            return;
        }
        // Significant when the intervals do not overlap.
        let mark = if (x.mean - y.mean).abs() > x.ci95 + y.ci95 {
            " *"
        } else {
            ""
        };
        out!(
            "  {:<24} {:>16} {:>16} {:>+8.2}{mark}",
            what,
            est(x),
            est(y),
            y.mean - x.mean
        );
    };
    for p in &a.pieces {
        let Some(q) = b.pieces.iter().find(|q| q.piece == p.piece) else {
            continue;
        };
        for (name, x) in &p.counters {
            if let Some(y) = q.counters.get(name) {
                row(format!("{} {name}", p.piece), *x, *y);
            }
        }
        let removed = |f: f64| Estimate {
            mean: f,
            ci95: round4(1.96 * (f * (1.0 - f) / f64::from(a.runs.max(1))).sqrt()),
        };
        if p.removed > 0.0 || q.removed > 0.0 {
            row(
                format!("{} removed", p.piece),
                removed(p.removed),
                removed(q.removed),
            );
        }
        let pa = p.places.first().map_or("?", |x| x.0.as_str());
        let pb = q.places.first().map_or("?", |x| x.0.as_str());
        if pa != pb {
            out!(
                "  {:<24} {:>16} {:>16}",
                format!("{} mostly at", p.piece),
                pa,
                pb
            );
        }
    }
    for x in &a.actions {
        let Some(y) = b
            .actions
            .iter()
            .find(|y| y.piece == x.piece && y.action == x.action)
        else {
            continue;
        };
        for (outcome, (_, p)) in &x.outcomes {
            let q = y.outcomes.get(outcome).map_or(0.0, |o| o.1);
            #[allow(clippy::cast_precision_loss)] // roll counts stay far below 2^53
            let rate = |p: f64, n: u64| Estimate {
                mean: p,
                ci95: round4(1.96 * (p * (1.0 - p) / n.max(1) as f64).sqrt()),
            };
            row(
                format!("{} {} {outcome}", x.piece, x.action),
                rate(*p, x.rolls),
                rate(q, y.rolls),
            );
        }
    }
    for d in &a.sides {
        if let Some(e) = b.sides.iter().find(|e| e.side == d.side) {
            row(format!("{} pieces lost", d.side), d.lost, e.lost);
        }
    }
    out!("(* the 95% intervals do not overlap)");
}

#[cfg(test)]
mod tests {
    use super::Moments;

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
