//! Orders per second (issue 40): what one order costs in a game played by a policy, on every
//! bundled example, and where that time goes.
//!
//! For each example (every `examples/*.yaml` scenario that starts a game):
//!
//! - `random game, one order` and `greedy game, one order`: whole games played by the
//!   policy (`grognard_play::policy::step`: the side to act, its legal orders, the choice,
//!   `Game::apply`), timed order by order over as many games as the sample needs, seeds
//!   0, 1, 2, ... (a game that ends is followed by the next seed's, its start included);
//! - the parts of an order, each timed at every position of the random game of seed 0 in
//!   turn: `Game::legal_orders` for the side to act, `Game::apply` of the order the policy
//!   gave there (on a copy of the game made outside the timing), `Game::view` of that side,
//!   a copy of the `State`, and the search's rough listing (`Game::legal_orders_of` with
//!   `Breadth::Rough`: a few open-table moves a piece), which the summary line gives as a
//!   share of the full listing's time.
//!
//! Each example also prints one line from the same run: milliseconds an order of each
//! policy, and the parts' share of the random policy's order (they are ratios of timings of
//! this run, so a slower or faster machine shifts all of them together). `cargo bench
//! --bench orders`; a filter names an example, e.g. `-- black-powder`. Results:
//! `docs/benchmarks.md`, "Orders per second (issue 40)".

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::{Breadth, Game};
use grognard_kernel::hooks::{Hooks, NoHooks};
use grognard_kernel::ids::SideId;
use grognard_lua::Limits;
use grognard_play::policy::{Played, Player, PolicyKind, players_for, step};
use grognard_rules::load::{Scenario, load_scenario};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every bundled scenario, by name (`examples/NAME.yaml`, orders files left out).
fn examples() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("examples"))
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".orders.yaml") {
                return None;
            }
            name.strip_suffix(".yaml").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
}

/// The hooks the example's ruleset binds, as `sim` makes them.
fn hooks_for(s: &Scenario) -> Box<dyn Hooks> {
    if grognard_lua::LuaHooks::wanted(&s.ruleset) {
        Box::new(
            grognard_lua::LuaHooks::new(&s.ruleset, Limits::default())
                .unwrap_or_else(|d| panic!("{d}")),
        )
    } else {
        Box::new(NoHooks)
    }
}

/// A game being played by one policy on both sides, started again with the next seed
/// when it ends.
struct Games<'s> {
    scenario: &'s Scenario,
    kind: PolicyKind,
    seed: u64,
    game: Game,
    players: Vec<Option<Player>>,
    played: Played,
}

impl<'s> Games<'s> {
    fn new(scenario: &'s Scenario, kind: PolicyKind, hooks: &mut dyn Hooks) -> Self {
        let (game, players) = start(scenario, &kind, 0, hooks);
        Self {
            scenario,
            kind,
            seed: 0,
            game,
            players,
            played: Played::default(),
        }
    }

    /// Gives one order (starting the next game first when this one is over).
    fn order(&mut self, hooks: &mut dyn Hooks) {
        if !step(&mut self.game, hooks, &mut self.players, &mut self.played) {
            self.seed += 1;
            (self.game, self.players) = start(self.scenario, &self.kind, self.seed, hooks);
            self.played = Played::default();
            assert!(
                step(&mut self.game, hooks, &mut self.players, &mut self.played),
                "a new game gave no order"
            );
        }
    }
}

fn start(
    s: &Scenario,
    kind: &PolicyKind,
    seed: u64,
    hooks: &mut dyn Hooks,
) -> (Game, Vec<Option<Player>>) {
    let game = s
        .start(Some(seed), &[], hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    let seats = vec![Some(kind.clone()); game.sides().len()];
    let players = players_for(&seats, seed).unwrap_or_else(|e| panic!("{e}"));
    (game, players)
}

/// One position of a recorded game: the game before the order, the side that gave it and
/// what it gave.
struct Position {
    game: Game,
    side: SideId,
    action: Action,
}

/// Every position of the random policy's game of seed 0: the loop of
/// `grognard_play::policy::step`, keeping what each order was.
fn positions(s: &Scenario, hooks: &mut dyn Hooks) -> Vec<Position> {
    let (mut game, mut players) = start(s, &PolicyKind::Random, 0, hooks);
    let mut out = Vec::new();
    while let Some(&side) = game.to_act().first() {
        let legal = game.legal_orders(side, hooks);
        let Some(player) = players.get_mut(side.index()).and_then(Option::as_mut) else {
            break;
        };
        let Ok(mut action) = player.choose(&game, side, &legal) else {
            break;
        };
        let before = game.clone();
        let order = Order {
            side,
            action: action.clone(),
        };
        if game.apply(&order, hooks).is_err() {
            action = Action::EndPhase;
            let end = Order {
                side,
                action: Action::EndPhase,
            };
            if game.apply(&end, hooks).is_err() {
                break;
            }
        }
        out.push(Position {
            game: before,
            side,
            action,
        });
    }
    out
}

/// Times `part` at each position in turn, `iters` calls in all, going on from where the
/// last call left off (`next`), so that short samples do not all time the opening
/// positions; `prepare` (untimed) makes what the call needs from the position.
fn cycle<T>(
    positions: &[Position],
    next: &std::cell::Cell<usize>,
    iters: u64,
    mut prepare: impl FnMut(&Position) -> T,
    mut part: impl FnMut(&Position, T),
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let i = next.get() % positions.len();
        next.set(i + 1);
        let p = &positions[i];
        let input = prepare(p);
        let t = Instant::now();
        part(p, input);
        total += t.elapsed();
    }
    total
}

/// The mean time of `run` over about a second, for the summary line (criterion's estimates
/// are printed too, but not handed back).
fn mean(mut run: impl FnMut(u64) -> Duration) -> Duration {
    let one = run(1).max(Duration::from_micros(1));
    let n = (1_000_000_000 / one.as_nanos().max(1)).clamp(1, 1_000_000) as u64;
    run(n) / u32::try_from(n).unwrap_or(u32::MAX)
}

fn orders_benches(c: &mut Criterion) {
    // A filter that names examples skips the others' recordings too.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let names = examples();
    let named = |e: &str| filter.iter().any(|f| e.contains(f.as_str()));
    let by_example = names.iter().any(|e| named(e));
    for example in names.iter().filter(|e| !by_example || named(e)) {
        let Ok(s) = load_scenario(&root().join(format!("examples/{example}.yaml")), None) else {
            continue;
        };
        let mut hooks = hooks_for(&s);
        if s.start(Some(0), &[], hooks.as_mut()).is_err() {
            continue;
        }
        let positions = positions(&s, hooks.as_mut());
        let hooks = hooks.as_mut();
        let next = std::cell::Cell::new(0);
        let mut random = Games::new(&s, PolicyKind::Random, hooks);
        let mut greedy = Games::new(&s, PolicyKind::Greedy, hooks);
        let game_order = |games: &mut Games<'_>, hooks: &mut dyn Hooks, iters: u64| {
            let t = Instant::now();
            for _ in 0..iters {
                games.order(hooks);
            }
            t.elapsed()
        };
        // `Game::legal_orders` is the full listing of every piece: `legal_orders_of` with
        // no pieces named and `Breadth::Full`.
        let listing = |breadth: Breadth, hooks: &mut dyn Hooks, iters: u64| {
            cycle(
                &positions,
                &next,
                iters,
                |_| (),
                |p, ()| {
                    black_box(p.game.legal_orders_of(p.side, None, breadth, hooks));
                },
            )
        };
        let legal = |hooks: &mut dyn Hooks, iters: u64| listing(Breadth::Full, hooks, iters);
        let rough = |hooks: &mut dyn Hooks, iters: u64| listing(Breadth::Rough, hooks, iters);
        let apply = |hooks: &mut dyn Hooks, iters: u64| {
            let order = |p: &Position| Order {
                side: p.side,
                action: p.action.clone(),
            };
            cycle(
                &positions,
                &next,
                iters,
                |p| p.game.clone(),
                |p, mut g| {
                    black_box(g.apply(&order(p), hooks).ok());
                },
            )
        };
        let view = |iters: u64| {
            cycle(
                &positions,
                &next,
                iters,
                |_| (),
                |p, ()| {
                    black_box(p.game.view(p.side));
                },
            )
        };
        let clone = |iters: u64| {
            cycle(
                &positions,
                &next,
                iters,
                |_| (),
                |p, ()| {
                    black_box(p.game.state().clone());
                },
            )
        };

        let mut g = c.benchmark_group(format!("orders, {example}"));
        g.bench_function("random game, one order", |b| {
            b.iter_custom(|n| game_order(&mut random, hooks, n))
        });
        g.bench_function("greedy game, one order", |b| {
            b.iter_custom(|n| game_order(&mut greedy, hooks, n))
        });
        g.bench_function("Game::legal_orders", |b| b.iter_custom(|n| legal(hooks, n)));
        g.bench_function("Game::legal_orders_of, rough", |b| {
            b.iter_custom(|n| rough(hooks, n))
        });
        g.bench_function("Game::apply", |b| b.iter_custom(|n| apply(hooks, n)));
        g.bench_function("Game::view", |b| b.iter_custom(view));
        g.bench_function("State clone", |b| b.iter_custom(clone));
        g.finish();

        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let whole = mean(|n| game_order(&mut random, hooks, n));
        let greedy_order = mean(|n| game_order(&mut greedy, hooks, n));
        let full = mean(|n| legal(hooks, n));
        let rough_listing = mean(|n| rough(hooks, n));
        let parts = [
            ("legal_orders", full),
            ("apply", mean(|n| apply(hooks, n))),
            ("view", mean(view)),
            ("State clone", mean(clone)),
        ];
        let share = parts
            .iter()
            .map(|(name, d)| {
                format!(
                    "{name} {:.3} ms ({:.0}%)",
                    ms(*d),
                    100.0 * d.as_secs_f64() / whole.as_secs_f64()
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        println!(
            "{example}: random {:.3} ms an order ({:.0}/s), greedy {:.3} ms an order; \
             {} positions; of a random order: {share}; the rough listing {:.3} ms, {:.0}% \
             of the full one",
            ms(whole),
            1.0 / whole.as_secs_f64(),
            ms(greedy_order),
            positions.len(),
            ms(rough_listing),
            100.0 * rough_listing.as_secs_f64() / full.as_secs_f64()
        );
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = orders;
    config = config();
    targets = orders_benches
}
criterion_main!(orders);
