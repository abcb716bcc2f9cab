//! The tuner: the smallest change to named numbers of a ruleset that brings a side's win
//! rate to a target. `grognard tune` and the editor's Tune panel both run it; each says how
//! a candidate's games are played (a [`Candidates`] implementation: `sim`'s threads for the
//! CLI, the Simulate tab's background games for the editor) and how progress is shown.
//!
//! The designer names the numbers that may move ([`Item`]: a chart row's score, a modifier,
//! an attribute or allowance, a setting); a candidate is one value for each, written as a
//! house-rule overlay of the ruleset ([`Tuner::overlay`]) and played over the same seeds
//! (common random numbers, so candidates differ by their rules, not their dice).
//!
//! [`search`] assumes the win rate moves one way as an item moves (a better score for a
//! side, more wins for it). For each item it measures the two ends of the item's range,
//! then halves the stretch where the target lies until it holds the step where the rate
//! crosses it, then walks back towards the ruleset's value while the rate still meets the
//! target (within the candidate's 95% interval). The item that meets the target in the
//! fewest steps wins; when no item does alone, the one that came closest is set and the
//! others are searched again from there. It only ever reports what it measured.
//! [`grid`] lists every combination instead (what the search is measured against).

mod item;
mod rows;

pub use item::{Halves, Item, numeric_leaves, overlay_text, parse_halves, show};

use std::collections::BTreeMap;

use grognard_rules::node::Node;
use serde::{Deserialize, Serialize};

use crate::tally::{Estimate, Moments, Share};

/// One candidate measured: its values (one per item, in halves) and the side's wins over
/// the games that ended with a result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Measured {
    /// One value per item, in the items' order.
    pub values: Vec<Halves>,
    /// 1 per game the side won, 0 per other game with a result.
    pub wins: Moments,
}

impl Measured {
    /// The side's win rate with its 95% half-width.
    #[must_use]
    pub fn rate(&self) -> Estimate {
        self.wins.estimate()
    }

    /// The side's win rate with its Wilson 95% interval: what `grognard tune` and the
    /// editor's Tune tab show, and what [`Tuner::meets`] asks.
    #[must_use]
    pub fn share(&self) -> Share {
        Share::counted(self.wins)
    }

    /// Half the width of [`Self::share`]'s interval, 0–1: what "± points" says of it.
    #[must_use]
    pub fn half_width(&self) -> f64 {
        let s = self.share();
        (s.hi - s.lo) / 2.0
    }
}

/// What is tuned, and towards what: the ruleset as merged, the items, the side and its
/// target rate.
#[derive(Clone, Debug)]
pub struct Tuner {
    /// The merged ruleset the items are read from (and candidates are overlays of).
    pub tree: Node,
    /// The ruleset's name; a candidate is named `NAME-tuned`.
    pub name: String,
    /// The numbers that may move.
    pub items: Vec<Item>,
    /// The side whose win rate is tuned (its index in the scenario).
    pub side: usize,
    /// Its name.
    pub side_name: String,
    /// The win rate to reach, 0 to 1.
    pub target: f64,
    /// Games a candidate.
    pub runs: u32,
}

impl Tuner {
    /// The ruleset's own values.
    #[must_use]
    pub fn current(&self) -> Vec<Halves> {
        self.items.iter().map(|i| i.current).collect()
    }

    /// What a candidate changes, in words (`charts.shot.rows.0.score 9+ → 6+`).
    #[must_use]
    pub fn describe(&self, values: &[Halves]) -> String {
        let changed: Vec<String> = self
            .items
            .iter()
            .zip(values)
            .filter(|(i, v)| **v != i.current)
            .map(|(i, v)| {
                let mut words = format!("{} {} → {}", i.path, i.text(i.current), i.text(*v));
                // The rows that move with a row's score, so the rows stay contiguous.
                for (k, was, now) in i.follow(*v).unwrap_or_default() {
                    words.push_str(&format!(" ({} {was} → {now})", i.row_path(k)));
                }
                words
            })
            .collect();
        if changed.is_empty() {
            "the ruleset as it is".to_owned()
        } else {
            changed.join(", ")
        }
    }

    /// Steps from the ruleset's values, over all items.
    #[must_use]
    pub fn distance(&self, values: &[Halves]) -> usize {
        self.items
            .iter()
            .zip(values)
            .map(|(i, v)| i.steps(*v))
            .sum()
    }

    /// True when the target lies within the candidate's Wilson 95% interval, the interval
    /// shown beside it (the normal one, ± 1.96 SE, has no width at 0 or 100% wins, and
    /// would say a target outside the shown interval was met, or one inside it was not).
    #[must_use]
    pub fn meets(&self, m: &Measured) -> bool {
        let s = m.share();
        m.wins.n > 0 && s.lo <= self.target && self.target <= s.hi
    }

    /// How far the candidate's rate is from the target.
    #[must_use]
    pub fn miss(&self, m: &Measured) -> f64 {
        (m.rate().mean - self.target).abs()
    }

    /// The candidate as a house-rule overlay of the ruleset (`extends` as the file should
    /// name it), named `NAME-tuned`, with `comment` at its head.
    #[must_use]
    pub fn overlay(&self, extends: &str, values: &[Halves], comment: &str) -> String {
        overlay_text(
            &self.tree,
            &format!("{}-tuned", self.name),
            extends,
            &self.items,
            values,
            comment,
        )
    }
}

/// How a run plays its candidates.
pub trait Candidates {
    /// Why a candidate could not be played.
    type Error;

    /// Plays the candidate's games and counts the side's wins.
    ///
    /// # Errors
    /// The candidate does not load or its games cannot be played (or the run was stopped).
    fn measure(&mut self, values: &[Halves]) -> Result<Moments, Self::Error>;

    /// Called after each new candidate is measured, to show progress.
    fn measured(&mut self, _tuner: &Tuner, _book: &Book) {}
}

/// A run's candidates so far, by their values.
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// Every candidate measured.
    pub measured: BTreeMap<Vec<Halves>, Measured>,
    /// Candidates in the order they were tried.
    pub order: Vec<Vec<Halves>>,
    /// Games played in all.
    pub games: u64,
}

impl Book {
    /// The candidate's measure: played once, then remembered.
    ///
    /// # Errors
    /// As [`Candidates::measure`].
    pub fn measure<C: Candidates>(
        &mut self,
        tuner: &Tuner,
        values: &[Halves],
        play: &mut C,
    ) -> Result<Measured, C::Error> {
        if let Some(m) = self.measured.get(values) {
            return Ok(m.clone());
        }
        let wins = play.measure(values)?;
        self.games += u64::from(tuner.runs);
        let m = Measured {
            values: values.to_vec(),
            wins,
        };
        self.measured.insert(values.to_vec(), m.clone());
        self.order.push(values.to_vec());
        play.measured(tuner, self);
        Ok(m)
    }

    /// The candidates in the order they were tried.
    pub fn tried(&self) -> impl Iterator<Item = &Measured> {
        self.order.iter().filter_map(|v| self.measured.get(v))
    }

    /// The answer: among the candidates that meet the target, the fewest steps from the
    /// ruleset (then the closest rate, then the first tried); `None` when none does.
    #[must_use]
    pub fn best(&self, tuner: &Tuner) -> Option<&Measured> {
        self.tried().filter(|m| tuner.meets(m)).min_by(|a, b| {
            tuner
                .distance(&a.values)
                .cmp(&tuner.distance(&b.values))
                .then(tuner.miss(a).total_cmp(&tuner.miss(b)))
        })
    }

    /// The candidate whose rate came closest to the target.
    #[must_use]
    pub fn closest(&self, tuner: &Tuner) -> Option<&Measured> {
        self.tried().min_by(|a, b| {
            tuner
                .miss(a)
                .total_cmp(&tuner.miss(b))
                .then(tuner.distance(&a.values).cmp(&tuner.distance(&b.values)))
        })
    }

    /// The progress line: candidates tried, games, and the best so far (or the closest,
    /// while none meets the target).
    #[must_use]
    pub fn progress(&self, tuner: &Tuner) -> String {
        let head = format!(
            "{} candidate{}, {} games",
            self.order.len(),
            if self.order.len() == 1 { "" } else { "s" },
            self.games
        );
        match (self.best(tuner), self.closest(tuner)) {
            (Some(b), _) => format!(
                "{head}; best so far: {} → {} wins {}",
                tuner.describe(&b.values),
                tuner.side_name,
                b.rate().percent()
            ),
            (None, Some(c)) => format!(
                "{head}; none meets the target yet, closest: {} → {} wins {}",
                tuner.describe(&c.values),
                tuner.side_name,
                c.rate().percent()
            ),
            (None, None) => head,
        }
    }
}

/// Searches item `k` from `from` (the other items held where they are); see the module
/// documentation.
fn line_search<C: Candidates>(
    tuner: &Tuner,
    book: &mut Book,
    from: &[Halves],
    k: usize,
    play: &mut C,
) -> Result<(), C::Error> {
    let values = tuner.items[k].values.clone();
    let at = |i: usize| {
        let mut v = from.to_vec();
        v[k] = values[i];
        v
    };
    let here = values.iter().position(|v| *v == from[k]).unwrap_or(0);
    let r_here = book.measure(tuner, &at(here), play)?.rate().mean;
    let target = tuner.target;
    // Each end of the range, and the stretch between here and the end the target lies
    // towards. Where the walk back starts: the first value past the crossing, or an end
    // that does not cross the target but meets it within its interval.
    let last = values.len() - 1;
    let mut walks: Vec<(usize, usize)> = Vec::new();
    let mut crossed = false;
    for end in [0, last] {
        // The rate moves one way: once the target is found towards one end, the other
        // end cannot hold it.
        if end == here || crossed {
            continue;
        }
        let m_end = book.measure(tuner, &at(end), play)?;
        let r_end = m_end.rate().mean;
        if (r_end - target) * (r_here - target) > 0.0 {
            if tuner.meets(&m_end) {
                walks.push((end, end));
            }
            continue;
        }
        // The target lies between here and this end: halve the stretch.
        let (mut near, mut far) = (here, end);
        while near.abs_diff(far) > 1 {
            let mid = usize::midpoint(near, far);
            let r_mid = book.measure(tuner, &at(mid), play)?.rate().mean;
            if (r_mid - target) * (r_here - target) > 0.0 {
                near = mid;
            } else {
                far = mid;
            }
        }
        crossed = true;
        walks.push((end, far));
    }
    // Walk back towards here while a step closer still meets the target.
    for (end, from_index) in walks {
        let step_back = |i: usize| if end > here { i - 1 } else { i + 1 };
        let mut i = from_index;
        while i != here {
            let j = step_back(i);
            if j == here {
                break;
            }
            let m = book.measure(tuner, &at(j), play)?;
            if !tuner.meets(&m) {
                break;
            }
            i = j;
        }
    }
    Ok(())
}

/// The bisection search (see the module documentation), every candidate measured through
/// `play` and kept in `book`.
///
/// # Errors
/// The first candidate that could not be played.
pub fn search<C: Candidates>(tuner: &Tuner, book: &mut Book, play: &mut C) -> Result<(), C::Error> {
    let start = tuner.current();
    let base = book.measure(tuner, &start, play)?;
    if tuner.meets(&base) {
        return Ok(());
    }
    for k in 0..tuner.items.len() {
        line_search(tuner, book, &start, k, play)?;
    }
    // No single item reaches the target: set the one that came closest and search the
    // others from there, a round at most per item.
    for _ in 1..tuner.items.len() {
        if book.best(tuner).is_some() {
            break;
        }
        let Some(closest) = book.closest(tuner).map(|m| m.values.clone()) else {
            break;
        };
        for k in 0..tuner.items.len() {
            if closest[k] == start[k] {
                line_search(tuner, book, &closest, k, play)?;
            }
        }
    }
    Ok(())
}

/// Widest interval (either side of the rate) an answer is given without a warning.
pub const TRUSTED_CI95: f64 = 0.10;

/// When an answer's Wilson 95% interval (`ci95`, half its width, measured over `runs`
/// games a candidate) is wider than [`TRUSTED_CI95`], the games a candidate that would
/// narrow it to ±5 points at the same observed rate, rounded up to tens; `None` when it is
/// narrow enough. `grognard tune` and the editor's Tune tab both warn with it.
///
/// A Wilson interval does not shrink as 1/√n near 0% or 100% (0 wins of 5 is ±21.7, yet
/// 40 games, not 100, give ±5 there), so the rate's p(1−p) is read back from the
/// half-width and `runs` (the half-width is the same for p and 1−p, so that is enough), and
/// the games are counted until the Wilson half-width at that rate is 5 points or less.
#[must_use]
pub fn runs_for_5_points(runs: u32, ci95: f64) -> Option<u32> {
    if ci95 <= TRUSTED_CI95 || runs == 0 {
        return None;
    }
    const Z2: f64 = 1.96 * 1.96;
    let n = f64::from(runs);
    // half = z/(1 + z²/n) · √(pq/n + z²/4n²), solved for pq.
    let pq = (((ci95 * (1.0 + Z2 / n)).powi(2) / Z2) - Z2 / (4.0 * n * n)) * n;
    let pq = pq.clamp(0.0, 0.25);
    let half = |m: f64| (Z2.sqrt() / (1.0 + Z2 / m)) * (pq / m + Z2 / (4.0 * m * m)).sqrt();
    let mut needed = runs;
    while half(f64::from(needed)) > 0.05 && needed < 1_000_000 {
        needed = needed.saturating_add(needed.div_ceil(8).max(1));
    }
    // Back down to the least that is enough (the steps above overshoot by at most ⅛).
    let mut lo = needed - needed.div_ceil(9).min(needed);
    while lo < needed && half(f64::from(lo)) > 0.05 {
        lo += 1;
    }
    Some(lo.div_ceil(10) * 10)
}

/// Most combinations [`grid`] lists.
pub const MAX_GRID: usize = 10_000;

/// Every combination of the items' values, the first item's slowest.
///
/// # Errors
/// How many there are, when more than [`MAX_GRID`].
pub fn grid(items: &[Item]) -> Result<Vec<Vec<Halves>>, usize> {
    let count: usize = items
        .iter()
        .map(|i| i.values.len())
        .try_fold(1usize, usize::checked_mul)
        .unwrap_or(usize::MAX);
    if count > MAX_GRID {
        return Err(count);
    }
    let mut all = vec![Vec::new()];
    for item in items {
        all = all
            .into_iter()
            .flat_map(|v: Vec<Halves>| {
                item.values.iter().map(move |x| {
                    let mut w = v.clone();
                    w.push(*x);
                    w
                })
            })
            .collect();
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grognard_rules::yaml::{Limits, parse};

    /// A side that wins (11 − N)/10 of the games for a row "N+", counted exactly over
    /// 400 games: the duel of `tests/fixtures/tune/`, without playing it.
    struct Exact {
        calls: usize,
    }

    impl Candidates for Exact {
        type Error = String;
        fn measure(&mut self, values: &[Halves]) -> Result<Moments, String> {
            self.calls += 1;
            let n = values[0] / 2;
            let wins = (11 - n).clamp(0, 10) * 40;
            let mut m = Moments::default();
            for g in 0..400 {
                m.add(i64::from(g < wins));
            }
            Ok(m)
        }
    }

    fn tuner(target: f64) -> Tuner {
        let tree = parse(
            "duel.yaml",
            b"charts:\n  shot:\n    rows:\n      - { score: \"9+\", result: hit }\n",
            &Limits::default(),
        )
        .expect("yaml");
        let item = Item::parse("charts.shot.rows.0.score=2..10", &tree).expect("item");
        Tuner {
            tree,
            name: "duel".into(),
            items: vec![item],
            side: 0,
            side_name: "blue".into(),
            target,
            runs: 400,
        }
    }

    /// `k` wins of `n` decided games.
    fn measured(k: i128, n: u64) -> Measured {
        Measured {
            values: vec![18],
            wins: Moments {
                n,
                sum: k,
                squares: k,
            },
        }
    }

    /// Near 0% the old 1/√n scaling said 100 games for ±5 at 0 of 5 (outside designer,
    /// issue 39): at 0% a Wilson interval is z²/2(n+z²) wide either side, ±5 from 35 games.
    #[test]
    fn games_for_5_points_follow_the_wilson_interval_at_the_observed_rate() {
        let at = |k: u64, n: u64| {
            let s = Share::of(k, n);
            runs_for_5_points(u32::try_from(n).unwrap_or(0), (s.hi - s.lo) / 2.0)
        };
        assert_eq!(at(0, 5), Some(40));
        assert_eq!(at(5, 5), Some(40));
        // The answer is enough and the games ten fewer are not.
        for (k, n) in [(0u64, 5u64), (1, 10), (5, 10), (20, 40), (2, 20)] {
            let need = at(k, n).unwrap_or_else(|| panic!("{k}/{n}: no warning"));
            let p = k as f64 / n as f64;
            let width = |m: u32| {
                let m = u64::from(m);
                let kk = (p * m as f64).round() as u64;
                let s = Share::of(kk, m);
                (s.hi - s.lo) / 2.0
            };
            assert!(
                width(need) <= 0.0505,
                "{k}/{n}: {need} games give ± {}",
                width(need)
            );
            assert!(width(need - 10) > 0.0495, "{k}/{n}: {} would do", need - 10);
        }
        // At 50%: 381 games give ±5.0, rounded up to tens.
        assert_eq!(at(20, 40), Some(390));
        assert_eq!(at(400, 400 * 2), None);
    }

    /// "Meets the target" asks the interval the designer is shown, Wilson's. Worked by
    /// hand at 10 games: 0 wins is 0% (95%: 0–27.8), so a target of 10% is met, where the
    /// normal interval (0 ± 0) said it was not; 5 wins is 50% (95%: 23.7–76.3), so 22% is
    /// not met, where the normal one (50 ± 31.0) said it was.
    #[test]
    fn meeting_the_target_asks_the_interval_shown() {
        let none = measured(0, 10);
        let s = none.share();
        assert!(s.lo == 0.0 && (s.hi - 0.2775).abs() < 0.001, "{s:?}");
        assert!(tuner(0.10).meets(&none));
        assert!(!tuner(0.30).meets(&none));
        let half = measured(5, 10);
        let s = half.share();
        assert!(
            (s.lo - 0.2366).abs() < 0.001 && (s.hi - 0.7634).abs() < 0.001,
            "{s:?}"
        );
        assert!(!tuner(0.22).meets(&half));
        assert!(tuner(0.25).meets(&half));
        assert!((half.half_width() - 0.2634).abs() < 0.001);
    }

    /// Few games a candidate, so wide intervals: the rate falls from 70% at "9+" by 2
    /// points a step towards "2+" and never crosses 50%, but "2+" (56%) and the steps
    /// nearer meet the target within their intervals (±15 points at 40 games). The answer
    /// is the nearest that meets it — found by walking back from the end that meets the
    /// target though the rate does not cross it (an outside designer saw a step skipped).
    struct Wide;

    impl Candidates for Wide {
        type Error = String;
        fn measure(&mut self, values: &[Halves]) -> Result<Moments, String> {
            let n = values[0] / 2;
            let wins = 28 - (9 - n).clamp(0, 7) * 8 / 10;
            let mut m = Moments::default();
            for g in 0..40 {
                m.add(i64::from(g < wins));
            }
            Ok(m)
        }
    }

    #[test]
    fn an_end_that_meets_the_target_without_crossing_it_is_walked_back_from() {
        let mut t = tuner(0.5);
        t.runs = 40;
        let mut book = Book::default();
        search(&t, &mut book, &mut Wide).expect("search");
        let best = book.best(&t).expect("an answer");
        // Every value from the answer to "2+" meets; the one before the answer does not.
        let steps = t.items[0].steps(best.values[0]);
        let before = best.values[0] + 2;
        let m = book
            .measured
            .get(&vec![before])
            .expect("the step nearer was measured");
        assert!(!t.meets(m), "{:?}", m.rate());
        assert!(
            steps < 7,
            "the answer {} is not the far end",
            t.items[0].text(best.values[0])
        );
    }

    #[test]
    fn the_search_finds_the_known_balance_in_a_few_candidates() {
        let t = tuner(0.5);
        let mut book = Book::default();
        let mut play = Exact { calls: 0 };
        search(&t, &mut book, &mut play).expect("search");
        let best = book.best(&t).expect("an answer");
        assert_eq!(t.items[0].text(best.values[0]), "6+");
        assert_eq!(t.describe(&best.values), "charts.shot.rows.0.score 9+ → 6+");
        assert_eq!(play.calls, book.order.len(), "each candidate played once");
        assert!(book.order.len() <= 6, "{:?}", book.order);
        assert_eq!(book.games, 400 * book.order.len() as u64);
        assert!(
            book.progress(&t)
                .contains("best so far: charts.shot.rows.0.score 9+ → 6+")
        );
        let text = t.overlay("duel.yaml", &best.values, "tuned");
        assert!(text.contains("- { score: \"6+\", result: hit }"), "{text}");
    }

    #[test]
    fn a_target_out_of_reach_reports_the_closest_and_the_grid_lists_every_value() {
        let t = tuner(0.99);
        let mut book = Book::default();
        search(&t, &mut book, &mut Exact { calls: 0 }).expect("search");
        assert!(book.best(&t).is_none());
        let closest = book.closest(&t).expect("closest");
        assert_eq!(t.items[0].text(closest.values[0]), "2+");
        assert!(book.progress(&t).contains("none meets the target yet"));
        assert_eq!(grid(&t.items).map(|g| g.len()), Ok(9));
    }
}
