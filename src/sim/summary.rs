//! What `grognard sim` prints: the summary a tally makes, in text, JSON or as a comparison
//! of two rulesets.

use std::collections::BTreeMap;

use grognard_rules::de::Located;
use grognard_rules::load::{self, Scenario};
use grognard_rules::model::OrderSpec;
use serde::Serialize;
use serde_json::json;

use crate::common::{Failure, hooks_for, print_json};

#[derive(Debug, Serialize)]
pub(super) struct PieceSummary {
    pub(super) piece: String,
    pub(super) side: String,
    #[serde(rename = "type")]
    pub(super) kind: String,
    pub(super) removed: f64,
    pub(super) counters: BTreeMap<String, Estimate>,
    pub(super) flags: BTreeMap<String, f64>,
    pub(super) places: Vec<(String, f64)>,
}

#[derive(Debug, Serialize)]
pub(super) struct SideSummary {
    pub(super) side: String,
    pub(super) pieces: usize,
    pub(super) lost: Estimate,
}
use grognard_play::tally::{Estimate, PieceTally, Share, Tally, round4, run_seed};

#[derive(Debug, Serialize)]
pub(super) struct ActionSummary {
    pub(super) piece: String,
    pub(super) action: String,
    /// Times the action's chart was rolled, over all games.
    pub(super) rolls: u64,
    /// Outcome → (count, share of rolls).
    pub(super) outcomes: BTreeMap<String, (u64, f64)>,
}

#[derive(Debug, Serialize)]
pub(super) struct RefusedSummary {
    /// 1-based position in the orders file.
    pub(super) order: usize,
    pub(super) line: u32,
    /// Games in which it was refused.
    pub(super) games: u64,
    /// The first reason given.
    pub(super) reason: String,
}

#[derive(Debug, Serialize)]
pub(super) struct ResultsSummary {
    /// Games that ended with a result.
    pub(super) games: u64,
    /// Side name → its share of wins.
    pub(super) wins: BTreeMap<String, Rate>,
    /// The share of draws.
    pub(super) draws: Rate,
}

/// A win or draw rate. In JSON, `mean` and `ci95` (the half-width 1.96·sd/√n) are what
/// the tuner and scripts read and stay as they were; `wilson` adds the Wilson 95% interval
/// `[low, high]`, which the text prints since it keeps its width when every game went one
/// way (the editor's Simulate tab says it in the same words, `Share::words`).
#[derive(Clone, Copy, Debug, Serialize)]
pub(super) struct Rate {
    #[serde(flatten)]
    pub(super) estimate: Estimate,
    pub(super) wilson: [f64; 2],
    #[serde(skip)]
    pub(super) share: Share,
}

impl Rate {
    fn of(estimate: Estimate, share: Share) -> Self {
        Self {
            estimate,
            wilson: share.rounded(),
            share,
        }
    }
}

impl Default for Rate {
    fn default() -> Self {
        Self::of(Estimate::default(), Share::of(0, 0))
    }
}

#[derive(Debug, Serialize)]
pub(super) struct SimSummary {
    pub(super) scenario: String,
    pub(super) ruleset: String,
    pub(super) ruleset_hash: String,
    pub(super) runs: u32,
    pub(super) seed: u64,
    /// Games played.
    pub(super) games: u64,
    /// Orders refused over all games (0 when policies play: they give legal orders).
    pub(super) refused: u64,
    /// Games that did not reach their end.
    pub(super) unfinished: u64,
    /// The turn games ended on.
    pub(super) length: Estimate,
    /// Orders the policies gave per game.
    pub(super) policy_orders: Estimate,
    /// Who played each side: its policy as `--policy` names it, `null` for a side given
    /// none (its orders file's orders, then it ends each phase it is asked to act in).
    pub(super) policies: BTreeMap<String, Option<String>>,
    /// Of the games with a result: each side's share of wins, and of draws, as rates with
    /// 95% intervals (`games` is how many had a result).
    pub(super) results: ResultsSummary,
    /// The orders of the orders file that were refused, with the games and first reason.
    pub(super) refused_orders: Vec<RefusedSummary>,
    pub(super) pieces: Vec<PieceSummary>,
    pub(super) sides: Vec<SideSummary>,
    pub(super) actions: Vec<ActionSummary>,
    /// Against another ruleset (this summary being the other's): true when every game
    /// went exactly as under the first ruleset, seed for seed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) same_games: Option<bool>,
}

#[allow(clippy::cast_precision_loss)] // game counts stay far below 2^53
pub(super) fn summarise(
    s: &Scenario,
    orders: &[Located<OrderSpec>],
    seed: u64,
    mut tally: Tally,
    policies: &[String],
) -> Result<SimSummary, Failure> {
    let seats = super::seats_for(s, policies)?;
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
    let mut actions: Vec<((u32, usize), ActionSummary)> = std::mem::take(&mut tally.actions)
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
    let refused = std::mem::take(&mut tally.refused)
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
        policies: game
            .sides()
            .iter()
            .zip(&seats)
            .map(|(d, seat)| (d.name.clone(), seat.as_ref().map(|k| k.name())))
            .collect(),
        results: ResultsSummary {
            games: tally.decided(),
            wins: game
                .sides()
                .iter()
                .enumerate()
                .map(|(i, d)| {
                    let rate = Rate::of(tally.win_rate(i), tally.win_share(i));
                    (d.name.clone(), rate)
                })
                .collect(),
            draws: Rate::of(tally.draw_rate(), tally.draw_share()),
        },
        refused_orders: refused,
        same_games: None,
        pieces,
        sides,
        actions: actions.into_iter().map(|(_, a)| a).collect(),
    })
}

pub(super) fn report(
    a: &SimSummary,
    b: Option<&SimSummary>,
    (saved, asked): (&[super::save::SavedGame], Option<&str>),
    json: bool,
) {
    if json {
        let mut value = match b {
            Some(b) => json!({ "a": a, "b": b }),
            None => json!(a),
        };
        if (!saved.is_empty() || asked.is_some())
            && let Some(map) = value.as_object_mut()
        {
            map.insert("saved".to_owned(), json!(saved));
        }
        print_json(&value);
        return;
    }
    match b {
        None => print_summary(a),
        Some(b) => print_comparison(a, b),
    }
    if saved.is_empty() {
        if let Some(which) = asked {
            out!("{}", super::save::none_saved(which));
        }
    } else {
        out!(
            "saved {} game{} (`grognard replay FILE` checks one, `grognard view FILE` reads it):",
            saved.len(),
            if saved.len() == 1 { "" } else { "s" }
        );
        for g in saved {
            out!(
                "  {} — game {} (seed {}): {}, turn {}, {} orders",
                g.file,
                g.game,
                g.seed,
                g.result,
                g.turns,
                g.orders
            );
        }
    }
}

/// A comparison's column: as wide as the widest rate, `100.0% (95%: 96.3–100.0)`.
const W: usize = 24;

pub(super) fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// A rate as people read it: the observed share with its Wilson 95% interval.
pub(super) fn rate(r: Rate) -> String {
    r.share.words()
}

pub(super) fn est(e: Estimate) -> String {
    e.plain()
}

pub(super) fn print_summary(s: &SimSummary) {
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

/// Each side with its policy, or what it did with none (`blue search:it=20, red no policy:
/// ends each phase`); the search player's report (issue 40, C3) could not tell who played
/// red when only blue was given.
pub(super) fn who_played(s: &SimSummary) -> String {
    s.policies
        .iter()
        .map(|(side, policy)| match policy {
            Some(p) => format!("{side} {p}"),
            None => format!("{side} no policy (ends each phase it is asked to act in)"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Game length, unfinished games, and the policies' orders when they played.
pub(super) fn print_games(s: &SimSummary) {
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
            "results ({} game{}): {}, draws {}",
            s.results.games,
            if s.results.games == 1 { "" } else { "s" },
            wins.join(", "),
            rate(s.results.draws)
        );
    }
    out!("who played: {}", who_played(s));
    if s.policy_orders.mean > 0.0 {
        out!(
            "policies: {} orders a game, {} refused in all",
            est(s.policy_orders),
            s.refused
        );
    }
}

/// Whether `y - x` is outside the noise: the difference of two means is significant at
/// about 95% when it exceeds 1.96 times the standard error of the difference, here from
/// the two half-widths as if the games were independent (they share seeds, which only
/// makes the real noise smaller, so the test errs on the side of "within the noise").
pub(super) fn outside_noise(x: Estimate, y: Estimate) -> bool {
    (y.mean - x.mean).abs() > x.ci95.hypot(y.ci95)
}

/// The rows about whole games in a comparison: who wins, draws, when games end, how many
/// did not finish, and the policies' orders.
/// Returns how many rows it printed that may carry a mark.
fn print_compared_games(a: &SimSummary, b: &SimSummary) -> u32 {
    let shown = std::cell::Cell::new(0u32);
    let mark = |x: Estimate, y: Estimate| if outside_noise(x, y) { " *" } else { "" };
    let rate_row = |what: String, x: Rate, y: Rate| {
        shown.set(shown.get() + 1);
        out!(
            "  {:<24} {:>W$} {:>W$} {:>+7.1}%{}",
            what,
            rate(x),
            rate(y),
            (y.estimate.mean - x.estimate.mean) * 100.0,
            mark(x.estimate, y.estimate)
        );
    };
    if a.results.games > 0 || b.results.games > 0 {
        for (side, x) in &a.results.wins {
            let y = b.results.wins.get(side).copied().unwrap_or_default();
            rate_row(format!("{side} wins"), *x, y);
        }
        rate_row("draws".to_owned(), a.results.draws, b.results.draws);
    }
    let (x, y) = (a.length, b.length);
    shown.set(shown.get() + 1);
    out!(
        "  {:<24} {:>W$} {:>W$} {:>+8.2}{}",
        "ended on turn",
        est(x),
        est(y),
        y.mean - x.mean,
        mark(x, y)
    );
    if a.unfinished > 0 || b.unfinished > 0 {
        out!(
            "  {:<24} {:>W$} {:>W$} {:>+8}",
            "games unfinished",
            a.unfinished,
            b.unfinished,
            i128::from(b.unfinished) - i128::from(a.unfinished)
        );
    }
    if a.policy_orders.mean > 0.0 || b.policy_orders.mean > 0.0 {
        let (x, y) = (a.policy_orders, b.policy_orders);
        shown.set(shown.get() + 1);
        out!(
            "  {:<24} {:>W$} {:>W$} {:>+8.2}{}",
            "policy orders a game",
            est(x),
            est(y),
            y.mean - x.mean,
            mark(x, y)
        );
    }
    shown.get()
}

pub(super) fn print_refused(s: &SimSummary) {
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

pub(super) fn print_comparison(a: &SimSummary, b: &SimSummary) {
    out!(
        "{} games of {} each (seeds {}..{}): {} vs {}; means with 95% intervals",
        a.runs,
        a.scenario,
        a.seed,
        run_seed(a.seed, a.runs.saturating_sub(1)),
        a.ruleset,
        b.ruleset
    );
    out!("who played: {}", who_played(a));
    for s in [a, b] {
        if !s.refused_orders.is_empty() {
            out!("refused with {}:", s.ruleset);
            print_refused(s);
        }
    }
    if b.same_games == Some(true) {
        out!(
            "the two rulesets played the same {} games: no game differed, seed for seed (result, length, orders, every chart outcome, every piece's end); the change never came into play here (does the scenario set what the house rule changes, e.g. a piece's own attribute?)",
            a.games
        );
    }
    out!(
        "  {:<24} {:>W$} {:>W$} {:>8}",
        "",
        a.ruleset,
        b.ruleset,
        "change"
    );
    // A row that is the same constant under both rulesets says nothing: counted, not shown.
    let equal = std::cell::Cell::new(0u32);
    let shown = std::cell::Cell::new(0u32);
    let row = |what: String, x: Estimate, y: Estimate| {
        if x.ci95 == 0.0 && y.ci95 == 0.0 && x.mean == y.mean {
            equal.set(equal.get() + 1);
            return;
        }
        shown.set(shown.get() + 1);
        let mark = if outside_noise(x, y) { " *" } else { "" };
        out!(
            "  {:<24} {:>W$} {:>W$} {:>+8.2}{mark}",
            what,
            est(x),
            est(y),
            y.mean - x.mean
        );
    };
    shown.set(print_compared_games(a, b));
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
                "  {:<24} {:>W$} {:>W$}",
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
    if equal.get() > 0 {
        let n = equal.get();
        out!(
            "  ({n} {} equal: the same value in every game under both rulesets, not shown)",
            if n == 1 { "row" } else { "rows" }
        );
    }
    // Each row is tested alone at 95%: with many rows some are marked by chance, and the
    // footer says how many to expect rather than letting a mark read as proof.
    let n = shown.get();
    out!(
        "(* outside the noise for that row alone: the difference is more than 1.96 standard errors, which 1 row in 20 reaches by chance when nothing changed; of these {n} rows about {:.1} marked by chance alone are expected)",
        f64::from(n) / 20.0
    );
}
