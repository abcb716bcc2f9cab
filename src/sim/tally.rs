//! The exact tally of a set of games: counts, integer sums and sums of squares, which add
//! up to the same totals however the games are split between threads or shards.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Count, sum and sum of squares of whole numbers: exact, so tallies kept by different
/// threads add up to the same totals however the games were split between them.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub(super) struct Moments {
    pub(super) n: u64,
    pub(super) sum: i128,
    pub(super) squares: i128,
}
use super::RunResult;

impl Moments {
    pub(super) fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += i128::from(x);
        self.squares += i128::from(x) * i128::from(x);
    }

    pub(super) fn merge(&mut self, o: &Self) {
        self.n += o.n;
        self.sum += o.sum;
        self.squares += o.squares;
    }

    /// The mean with its 95% confidence half-width (1.96·sd/√n); the sample variance is
    /// (n·Σx² − (Σx)²) / (n·(n − 1)), its numerator computed exactly.
    #[allow(clippy::cast_precision_loss)] // counts and sums of game counters stay far below 2^53
    pub(super) fn estimate(&self) -> Estimate {
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
pub(super) struct PieceTally {
    pub(super) counters: Vec<Moments>,
    /// Games ending with each flag set, by flag id (first 64).
    pub(super) flags: Vec<u64>,
    /// Games ending off the board.
    pub(super) removed: u64,
    /// Games ending at each place.
    pub(super) places: BTreeMap<String, u64>,
}

/// The chart outcomes of one piece's action over many games.
#[derive(Serialize, Deserialize)]
pub(super) struct ActionTally {
    /// The first game and event index where it was rolled: actions are listed in that order.
    pub(super) first: (u32, usize),
    pub(super) rolls: u64,
    pub(super) outcomes: BTreeMap<String, u64>,
}

/// A map written as a list of pairs (JSON map keys must be strings).
pub(super) mod pairs {
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
pub(super) struct Tally {
    pub(super) games: u64,
    pub(super) pieces: Vec<PieceTally>,
    /// Pieces each side lost, per game.
    pub(super) lost: Vec<Moments>,
    /// By (acting piece index, action).
    #[serde(with = "pairs")]
    pub(super) actions: BTreeMap<(usize, String), ActionTally>,
    /// By order index: games refused, and the first game's reason.
    #[serde(with = "pairs")]
    pub(super) refused: BTreeMap<usize, (u64, u32, String)>,
    /// The first game that could not start, with the reason.
    pub(super) failed: Option<(u32, String)>,
    /// Orders refused in all (from the file and from policies).
    pub(super) refused_total: u64,
    /// Games that did not reach their end.
    pub(super) unfinished: u64,
    /// The turn each game ended on.
    pub(super) length: Moments,
    /// Orders the policies gave per game.
    pub(super) policy_orders: Moments,
    /// Per side, 1 for each game it won (0 otherwise), over games with a result.
    pub(super) wins: Vec<Moments>,
    /// 1 for each drawn game, over games with a result.
    pub(super) draws: Moments,
}

impl Tally {
    /// Adds game `run`; `side_of` gives each piece's side index.
    pub(super) fn add(&mut self, run: u32, r: RunResult, side_of: &[usize], sides: usize) {
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

    pub(super) fn merge(&mut self, o: Self) {
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

/// A mean with its 95% confidence half-width (1.96·sd/√n).
#[derive(Clone, Copy, Debug, Serialize)]
pub(super) struct Estimate {
    pub(super) mean: f64,
    pub(super) ci95: f64,
}

/// Rounded to 4 decimals so the JSON is short and stable.
pub(super) fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
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
