//! Shards of a run and their parts: which games shard I of N plays, the part file it
//! writes, and `grognard sim-merge`, which adds the parts up into the whole run's summary.

use std::path::{Path, PathBuf};

use grognard_rules::load::{self, Scenario};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::common::{Failure, Outcome};

/// Which of the runs one `sim` plays: shard `index` (from 0) of `count` takes runs
/// `index`, `index + count`, `index + 2·count`, ... so every shard gets a fair share of
/// long and short games, and each run keeps the seed the whole run gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Shard {
    pub(crate) index: u32,
    pub(crate) count: u32,
}
use super::summary::{report, summarise};
use grognard_play::tally::Tally;

impl Shard {
    pub(crate) const WHOLE: Self = Self { index: 0, count: 1 };

    /// `I/N` with 1 ≤ I ≤ N.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
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
    pub(super) fn run(self, k: u32, runs: u32) -> Option<u32> {
        let run = u64::from(k) * u64::from(self.count) + u64::from(self.index);
        u32::try_from(run).ok().filter(|r| *r < runs)
    }

    /// How many of the `runs` this shard plays.
    pub(crate) fn len(self, runs: u32) -> u32 {
        let (runs, index, count) = (
            u64::from(runs),
            u64::from(self.index),
            u64::from(self.count),
        );
        u32::try_from(runs.saturating_sub(index).div_ceil(count)).unwrap_or(u32::MAX)
    }
}

/// The format tag of a part file.
pub(super) const PART_FORMAT: &str = "grognard-sim-part-1";

/// What one shard of a `sim` wrote: the run it belongs to (files by path and content hash,
/// policies, seed, runs) and the exact tally of its games, for `sim-merge`.
#[derive(Serialize, Deserialize)]
pub(super) struct Part {
    pub(super) format: String,
    pub(super) scenario: String,
    pub(super) scenario_hash: String,
    pub(super) orders: Option<String>,
    pub(super) orders_hash: Option<String>,
    pub(super) policies: Vec<String>,
    pub(super) seed: u64,
    pub(super) runs: u32,
    pub(super) shard: Shard,
    pub(super) ruleset_hash: String,
    pub(super) tally: Tally,
    /// The compared ruleset (`--ruleset`): its path, identity and tally.
    pub(super) other: Option<OtherPart>,
}

#[derive(Serialize, Deserialize)]
pub(super) struct OtherPart {
    pub(super) ruleset: String,
    pub(super) ruleset_hash: String,
    pub(super) tally: Tally,
}

/// Everything of a part but the tallies: what must be equal across the parts of one run.
pub(super) fn run_key(p: &Part) -> serde_json::Value {
    json!({
        "scenario": p.scenario, "scenario_hash": p.scenario_hash, "orders": p.orders,
        "orders_hash": p.orders_hash, "policies": p.policies, "seed": p.seed, "runs": p.runs,
        "shards": p.shard.count, "ruleset_hash": p.ruleset_hash,
        "other": p.other.as_ref().map(|o| (&o.ruleset, &o.ruleset_hash)),
    })
}

pub(super) fn file_hash(path: &Path) -> Result<String, Failure> {
    std::fs::read(path)
        .map(|b| load::content_hash(&b))
        .map_err(|e| {
            Failure::Rules(format!(
                "{}: cannot read the file: {e}",
                load::display(path)
            ))
        })
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
    let policies = first.policies.clone();
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
    let a = summarise(&sa, &orders, seed, ta, &policies)?;
    let b = match sb {
        Some(s) => Some(summarise(&s, &orders, seed, tb, &policies)?),
        None => None,
    };
    report(&a, b.as_ref(), (&[], None), json);
    Ok(())
}
