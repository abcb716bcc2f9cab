//! Paired games of a policy against another on one scenario, sides swapped, common seeds
//! (the scenario's seed + game, as `grognard sim` gives them), one thread: the search's
//! strength measurements of docs/benchmarks.md without the whole CLI. Prints, per side the
//! first policy plays, its wins–losses–draws, the mean milliseconds and iterations of its
//! searched decisions, and in how many of them it kept greedy's order where its tree ranked
//! another first.
//!
//! `cargo run --release -p grognard-play --example search_duel -- SCENARIO POLICY OTHER GAMES [FIRST_SEED [SIDE]]`
//!
//! With `SIDE` (a side's name) the first policy plays that side only.

use std::path::Path;

use grognard_kernel::hooks::{Hooks, NoHooks};
use grognard_lua::{Limits, LuaHooks};
use grognard_play::policy::{MAX_POLICY_ORDERS, Played, PolicyKind, players_for, step};
use grognard_rules::load;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [scenario, policy, other, games, rest @ ..] = args.as_slice() else {
        return Err(
            "usage: search_duel SCENARIO POLICY OTHER GAMES [FIRST_SEED [SIDE]]".to_owned(),
        );
    };
    let s = load::load_scenario(Path::new(scenario), None).map_err(|d| d.to_string())?;
    let mut hooks: Box<dyn Hooks> = if LuaHooks::wanted(&s.ruleset) {
        Box::new(LuaHooks::new(&s.ruleset, Limits::default()).map_err(|d| d.to_string())?)
    } else {
        Box::new(NoHooks)
    };
    let games: u64 = games.parse().map_err(|_| "GAMES: a number".to_owned())?;
    let first = match rest.first() {
        Some(f) => f.parse().map_err(|_| "FIRST_SEED: a number".to_owned())?,
        None => s.compiled.setup.seed,
    };
    let mine = PolicyKind::parse(policy).map_err(|e| e.to_string())?;
    let theirs = PolicyKind::parse(other).map_err(|e| e.to_string())?;
    let names = grognard_play::tally::side_names(&s);
    let sides = names.len();
    let only = rest
        .get(1)
        .map(|side| {
            names
                .iter()
                .position(|n| n == side)
                .ok_or_else(|| format!("SIDE: `{side}` is none of {}", names.join(", ")))
        })
        .transpose()?;
    for me in (0..sides).filter(|m| only.is_none_or(|o| o == *m)) {
        let (mut w, mut l, mut d) = (0, 0, 0);
        let (mut decisions, mut millis, mut iterations, mut kept) = (0u64, 0u64, 0u64, 0u64);
        let mut per_game = String::new();
        for g in 0..games {
            let seed = first + g;
            let mut game = s
                .start(Some(seed), &[], hooks.as_mut())
                .map_err(|d| d.to_string())?;
            let mut seats = vec![Some(theirs.clone()); sides];
            seats[me] = Some(mine.clone());
            let mut players = players_for(&seats, seed)?;
            let mut played = Played::default();
            while played.orders < MAX_POLICY_ORDERS {
                let actor = game.to_act().first().map(|s| s.index());
                if !step(&mut game, hooks.as_mut(), &mut players, &mut played) {
                    break;
                }
                let why = actor
                    .filter(|a| *a == me)
                    .and_then(|a| players.get(a))
                    .and_then(Option::as_ref)
                    .and_then(grognard_play::Player::explanation);
                if let Some(why) = why {
                    decisions += 1;
                    millis += why.millis;
                    iterations += u64::from(why.iterations);
                    kept += u64::from(why.kept_default);
                }
            }
            if let Some(e) = played.error {
                return Err(e);
            }
            let mark = match game.result().and_then(|r| r.winner) {
                Some(x) if x.index() == me => {
                    w += 1;
                    'W'
                }
                Some(_) => {
                    l += 1;
                    'L'
                }
                None => {
                    d += 1;
                    'D'
                }
            };
            per_game.push(mark);
        }
        println!(
            "{policy} as {} vs {other}: {w}-{l}-{d} ({per_game}, seeds {first}..{}); {} decisions, {:.1} ms and {:.0} iterations a decision; greedy's order kept over the tree's first in {kept}",
            names[me],
            first + games - 1,
            decisions,
            millis as f64 / decisions.max(1) as f64,
            iterations as f64 / decisions.max(1) as f64,
        );
    }
    Ok(())
}
