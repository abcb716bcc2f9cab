//! `grognard fuzz`: plays random legal games to their end and checks, after every order,
//! what must always hold of a ruleset and its scenario:
//!
//! - no panic, and no hook error (a listed order refused because a hook failed);
//! - every order the generator lists and the random player picks is accepted;
//! - a side asked to act always has a legal order;
//! - the game ends within its turns (a bound on the orders given);
//! - the save (seed and orders) replays byte-identically, events and state;
//! - no side's view carries what its knowledge does not allow (a place it has not seen, an
//!   identity it has not learnt).
//!
//! On a failure it names it (with the hook's own message), writes a reproduction — the
//! scenario with the failing seed and an orders file, shrunk by dropping orders while the
//! failure persists — that `grognard play` reproduces, and exits 1.
//!
//! With `--vary`, every game but the first starts from a scenario *around* the one given
//! when a variant drawn for it passes the scenario's checks (see [`variant`]; the summary
//! names the games that played the given one because none did): on a grid some pieces moved onto or next to others of their side, on
//! an open table some bases moved a few inches and turned, some counters halved or
//! doubled, within what the scenario's checks accept (a scenario with a secret set-up is
//! not varied: its set-up is the players'). Dead ends that only a
//! crowded square or a full stack reaches are found that way; the reproduction is the
//! variant itself.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use grognard_kernel::action::{Action, Order, RefusalKind};
use grognard_kernel::game::Game;
use grognard_kernel::ids::SideId;
use grognard_rules::load::{self, Scenario};
use grognard_rules::model::OrderSpec;
use grognard_rules::orders::{describe_order, resolve_order};
use grognard_rules::save::first_divergence;
use serde::Serialize;
use serde_json::json;

use crate::common::{Failure, Outcome, hooks_for, print_json};
use grognard_play::policy::{Player, PolicyKind};

/// Most orders one fuzzed game may take before it counts as a game that never ends.
const MAX_ORDERS: usize = 20_000;

/// A failed check.
#[derive(Clone, Debug, Serialize)]
struct Finding {
    /// The game's seed.
    seed: u64,
    /// Which check failed (`refused`, `hook_error`, `no_legal_order`, `never_ends`,
    /// `replay`, `view_leak`, `panic`).
    kind: String,
    /// What happened, in words.
    message: String,
    /// The orders up to and including the failing one (before shrinking).
    #[serde(skip)]
    orders: Vec<OrderSpec>,
    /// The refusal of the failing (last) order, which a shrunk reproduction must keep.
    #[serde(skip)]
    cause: Option<String>,
    /// Where the reproduction was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    repro: Option<String>,
    /// True when the game started from a scenario around the one given (`--vary`).
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    varied: bool,
}

/// What the player of one game did.
struct GameRun {
    orders: Vec<OrderSpec>,
    finding: Option<Finding>,
}

/// Plays one random legal game (seeded `seed`) and checks it.
fn fuzz_game(s: &Scenario, seed: u64) -> Result<GameRun, Failure> {
    let mut hooks = hooks_for(&s.ruleset)?;
    let mut game = s.start(Some(seed), &[], hooks.as_mut())?;
    let mut players: Vec<Player> = (0..game.sides().len())
        .map(|i| {
            Player::new(
                &PolicyKind::Random,
                seed,
                SideId(u8::try_from(i).unwrap_or(0)),
            )
        })
        .collect::<Result<_, _>>()
        .map_err(Failure::Rules)?;
    let mut orders: Vec<OrderSpec> = Vec::new();
    let finding = |kind: &str, message: String, orders: &[OrderSpec]| Finding {
        seed,
        kind: kind.to_owned(),
        message,
        orders: orders.to_vec(),
        cause: None,
        repro: None,
        varied: false,
    };
    loop {
        if let Some(f) = view_leak(&game) {
            return Ok(GameRun {
                finding: Some(finding("view_leak", f, &orders)),
                orders,
            });
        }
        let Some(&side) = game.to_act().first() else {
            break;
        };
        if orders.len() >= MAX_ORDERS {
            let f = finding(
                "never_ends",
                format!(
                    "the game did not end after {MAX_ORDERS} orders (turn {} of {})",
                    game.state().turn,
                    game.turns()
                ),
                &orders,
            );
            return Ok(GameRun {
                finding: Some(f),
                orders,
            });
        }
        let side_name = game.sides()[side.index()].name.clone();
        let legal = match game.legal_orders_checked(side, hooks.as_mut()) {
            Ok(legal) => legal,
            Err(fault) => {
                let f = finding(
                    "hook_error",
                    format!(
                        "{side_name}'s legal orders cannot be listed: {} failed: {fault}",
                        fault.hook
                    ),
                    &orders,
                );
                return Ok(GameRun {
                    finding: Some(f),
                    orders,
                });
            }
        };
        if legal.is_empty() {
            let phase = game
                .phase()
                .map_or_else(String::new, |(p, _)| p.name.clone());
            let why = game
                .clone()
                .apply(
                    &Order {
                        side,
                        action: Action::EndPhase,
                    },
                    hooks.as_mut(),
                )
                .err()
                .map(|r| r.message);
            let cause = why.clone();
            let why = why.map_or_else(String::new, |r| {
                format!(": ending the phase is refused: {r}")
            });
            // The reproduction ends with the order that cannot be given.
            orders.push(describe_order(
                &game,
                &Order {
                    side,
                    action: Action::EndPhase,
                },
            ));
            let mut f = finding(
                "no_legal_order",
                format!(
                    "{side_name} must act in the {phase} phase of turn {} but has no legal order{why}",
                    game.state().turn
                ),
                &orders,
            );
            f.cause = cause;
            return Ok(GameRun {
                finding: Some(f),
                orders,
            });
        }
        let action = players[side.index()]
            .choose(&game, side, &legal)
            .map_err(Failure::Rules)?;
        let order = Order { side, action };
        let spec = describe_order(&game, &order);
        orders.push(spec);
        if let Err(r) = game.apply(&order, hooks.as_mut()) {
            let kind = if r.kind == RefusalKind::HookFailed {
                "hook_error"
            } else {
                "refused"
            };
            let mut f = finding(
                kind,
                format!("{side_name}'s listed order was refused: {r}"),
                &orders,
            );
            f.cause = Some(r.message.clone());
            return Ok(GameRun {
                finding: Some(f),
                orders,
            });
        }
    }
    if let Some(message) = replay_differs(s, seed, &orders, &game)? {
        return Ok(GameRun {
            finding: Some(finding("replay", message, &orders)),
            orders,
        });
    }
    Ok(GameRun {
        orders,
        finding: None,
    })
}

/// Replays `orders` (through their saved form) on a fresh game and compares every event and
/// the final state.
fn replay_differs(
    s: &Scenario,
    seed: u64,
    orders: &[OrderSpec],
    played: &Game,
) -> Result<Option<String>, Failure> {
    let text = serde_json::to_string(orders).map_err(|e| Failure::Rules(e.to_string()))?;
    let orders: Vec<OrderSpec> =
        serde_json::from_str(&text).map_err(|e| Failure::Rules(e.to_string()))?;
    let mut hooks = hooks_for(&s.ruleset)?;
    let mut game = s.start(Some(seed), &[], hooks.as_mut())?;
    for (i, spec) in orders.iter().enumerate() {
        let order = match resolve_order(&game, spec) {
            Ok(o) => o,
            Err(m) => return Ok(Some(format!("order {} does not read back: {m}", i + 1))),
        };
        if let Err(r) = game.apply(&order, hooks.as_mut()) {
            return Ok(Some(format!("order {} is refused on replay: {r}", i + 1)));
        }
    }
    if let Some(d) = first_divergence(played.log(), game.log()) {
        return Ok(Some(format!(
            "the replay differs at event {}: {:?} then, {:?} now",
            d.index, d.saved, d.replayed
        )));
    }
    if game.state_bytes() != played.state_bytes() {
        return Ok(Some("the replay ends in another state".to_owned()));
    }
    Ok(None)
}

/// A side's view showing what its knowledge does not allow, if any.
fn view_leak(game: &Game) -> Option<String> {
    game.sighting()?;
    for (i, side) in game.sides().iter().enumerate() {
        let id = SideId(u8::try_from(i).ok()?);
        let knowledge = game.state().knowledge.get(i)?;
        for e in game.view(id).enemy {
            let Some(piece) = game.piece_by_handle(id, e.handle.0) else {
                // A handle the side lost a piece under (into concealment) is shown only
                // where it was last seen.
                let ghost = knowledge
                    .ghosts
                    .iter()
                    .any(|g| g.handle == Some(e.handle.0));
                if ghost && e.place.is_none() {
                    continue;
                }
                return Some(format!(
                    "{}'s view shows enemy #{}, a handle it was never given",
                    side.name, e.handle.0
                ));
            };
            if e.place.is_some() && !knowledge.knows_position(piece) {
                return Some(format!(
                    "{}'s view places enemy #{} without knowing where it is",
                    side.name, e.handle.0
                ));
            }
            if e.identity.is_some() && !knowledge.knows_identity(piece) {
                return Some(format!(
                    "{}'s view identifies enemy #{} without knowing it",
                    side.name, e.handle.0
                ));
            }
        }
    }
    None
}

/// True when replaying `orders` from the start still fails as `f` did: every order but the
/// last is accepted and the last is refused for the same reason (or, for a view leak, the
/// leak is there at the end).
fn still_fails(s: &Scenario, f: &Finding, orders: &[OrderSpec]) -> bool {
    let Ok(mut hooks) = hooks_for(&s.ruleset) else {
        return false;
    };
    let Ok(mut game) = s.start(Some(f.seed), &[], hooks.as_mut()) else {
        return false;
    };
    for (i, spec) in orders.iter().enumerate() {
        let Ok(order) = resolve_order(&game, spec) else {
            return false;
        };
        if let Err(r) = game.apply(&order, hooks.as_mut()) {
            return i + 1 == orders.len() && f.cause.as_deref() == Some(r.message.as_str());
        }
    }
    f.kind == "view_leak" && view_leak(&game).is_some()
}

/// Drops orders (one at a time, from the last) while the failure persists.
fn shrink(s: &Scenario, f: &Finding) -> Vec<OrderSpec> {
    let mut orders = f.orders.clone();
    if !still_fails(s, f, &orders) {
        return orders;
    }
    let mut i = orders.len();
    while i > 0 {
        i -= 1;
        // The failing order itself stays.
        if f.kind != "view_leak" && i + 1 == orders.len() {
            continue;
        }
        let mut fewer = orders.clone();
        fewer.remove(i);
        if still_fails(s, f, &fewer) {
            orders = fewer;
        }
    }
    orders
}

/// Writes the scenario (with the failing seed) and the shrunk orders into `dir`.
fn write_repro(
    s: &Scenario,
    dir: &Path,
    f: &Finding,
    orders: &[OrderSpec],
) -> Result<String, Failure> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::Rules(format!("{}: {e}", load::display(dir))))?;
    let stem = s.path.file_stem().map_or_else(
        || "scenario".to_owned(),
        |n| n.to_string_lossy().into_owned(),
    );
    let ruleset = std::fs::canonicalize(&s.ruleset.path).unwrap_or_else(|_| s.ruleset.path.clone());
    let text = if f.varied {
        // The variant exists only in memory: its spec, written out (JSON is YAML), with
        // the failing seed and the ruleset found from the new folder.
        let mut spec = s.spec.clone();
        spec.seed = f.seed;
        spec.ruleset.value = ruleset.display().to_string();
        serde_json::to_string_pretty(&spec).map_err(|e| Failure::Rules(e.to_string()))?
    } else {
        std::fs::read_to_string(&s.path)
            .map_err(|e| Failure::Rules(format!("{}: {e}", load::display(&s.path))))?
    };
    // The scenario as it is, with the seed of the failing game and its ruleset found from
    // the new folder.
    let lines: Vec<String> = if f.varied {
        text.lines().map(str::to_owned).collect()
    } else {
        let mut lines: Vec<String> = text
            .lines()
            .filter(|l| !l.starts_with("seed:") && !l.starts_with("ruleset:"))
            .map(str::to_owned)
            .collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("scenario:"))
            .map_or(0, |i| i + 1);
        lines.insert(at, format!("seed: {}", f.seed));
        lines.insert(at, format!("ruleset: {}", ruleset.display()));
        lines
    };
    let scenario = dir.join(format!("{stem}.yaml"));
    std::fs::write(&scenario, lines.join("\n") + "\n")
        .map_err(|e| Failure::Rules(format!("{}: {e}", load::display(&scenario))))?;
    let mut o = format!(
        "# grognard fuzz: {} ({}) with seed {}; `grognard play {} --orders` this file reproduces it.\norders:\n",
        f.kind,
        f.message.replace('\n', " "),
        f.seed,
        load::display(&scenario)
    );
    for spec in orders {
        let line = serde_json::to_string(spec).map_err(|e| Failure::Rules(e.to_string()))?;
        o.push_str(&format!("  - {line}\n"));
    }
    let path = dir.join(format!("{stem}.orders.yaml"));
    std::fs::write(&path, o)
        .map_err(|e| Failure::Rules(format!("{}: {e}", load::display(&path))))?;
    Ok(load::display(&path))
}

/// A small deterministic stream (SplitMix64) for drawing variants from a game's seed.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n.max(1)
    }
}

/// How many of the games after the first were varied, and the seeds of those that were
/// not (at most ten named), with why: no draw passed the scenario's checks.
fn unvaried_text(games: u32, varied: u32, unvaried: &[u64]) -> String {
    let mut text = format!(
        ", {varied} of the {} games after the first on scenarios around it",
        games - 1
    );
    if !unvaried.is_empty() {
        let mut seeds: Vec<String> = unvaried.iter().take(10).map(u64::to_string).collect();
        if unvaried.len() > 10 {
            seeds.push(format!("and {} more", unvaried.len() - 10));
        }
        text.push_str(&format!(
            "; seed{} {} played the given one, as no variant drawn for {} passed the \
             scenario's checks in 20 tries",
            if unvaried.len() == 1 { "" } else { "s" },
            seeds.join(", "),
            if unvaried.len() == 1 { "it" } else { "them" },
        ));
    }
    text
}

/// A scenario around `s` for the game seeded `seed`, on a grid board without a set-up:
/// each piece standing on a cell may be moved (one in two) onto the cell of another piece
/// of its side or next to where it stands, and may have its counters halved or doubled
/// (one in four; the counters' own ranges still hold). A draw that the scenario's checks
/// refuse (stacking, terrain, the enemy in the cell, the ruleset's hooks as the game
/// starts) is drawn again, up to 20 times; `None` when none starts.
fn variant(s: &Scenario, seed: u64) -> Option<Scenario> {
    if !s.spec.deployment.is_empty() {
        return None;
    }
    if let grognard_kernel::board::Surface::Open { width, height, .. } =
        &s.compiled.setup.board.surface
    {
        return open_variant(s, seed, (width.0, height.0));
    }
    // Only a grid has dimensions in cells.
    let (cols, rows) = s.compiled.setup.board.dimensions()?;
    let mut draw = Draw(seed ^ 0x005E_ED0F_F022);
    for _ in 0..20 {
        let mut spec = s.spec.clone();
        let cells: Vec<(String, [f64; 2])> = spec
            .pieces
            .iter()
            .filter_map(|p| p.at.as_ref().map(|a| (p.side.value.clone(), a.value)))
            .collect();
        for p in &mut spec.pieces {
            let Some(at) = p.at.as_mut() else { continue };
            if p.attached_to.is_some() || draw.below(2) == 0 {
                continue;
            }
            let friends: Vec<[f64; 2]> = cells
                .iter()
                .filter(|(side, c)| *side == p.side.value && *c != at.value)
                .map(|(_, c)| *c)
                .collect();
            let to = if !friends.is_empty() && draw.below(2) == 0 {
                friends[draw.below(friends.len() as u64) as usize]
            } else {
                let d = |v: f64, n: i32, step: u64| {
                    (v + step as f64 - 1.0).clamp(0.0, f64::from(n - 1))
                };
                [
                    d(at.value[0], cols, draw.below(3)),
                    d(at.value[1], rows, draw.below(3)),
                ]
            };
            at.value = to;
            if draw.below(2) == 0 {
                for c in &mut p.counters.0 {
                    c.value = if draw.below(2) == 0 {
                        c.value / 2
                    } else {
                        c.value.saturating_mul(2)
                    };
                }
            }
        }
        if draw.below(2) == 0 {
            fill_a_stack(&mut spec, &s.ruleset.rules);
        }
        match starts(s, spec, seed) {
            Some(Ok(v)) => return Some(v),
            Some(Err(())) => {}
            None => return None,
        }
    }
    None
}

/// The variant `spec` of `s` when it compiles and its game starts (`Some(Err)`: draw
/// again); `None` when the ruleset's hooks cannot be loaded at all.
fn starts(
    s: &Scenario,
    spec: grognard_rules::model::ScenarioSpec,
    seed: u64,
) -> Option<Result<Scenario, ()>> {
    let Ok(compiled) = grognard_rules::scenario::compile_scenario(&spec, &s.ruleset.rules) else {
        return Some(Err(()));
    };
    let v = Scenario {
        path: s.path.clone(),
        spec,
        hash: s.hash.clone(),
        ruleset: s.ruleset.clone(),
        compiled,
    };
    let mut hooks = hooks_for(&v.ruleset).ok()?;
    Some(if v.start(Some(seed), &[], hooks.as_mut()).is_ok() {
        Ok(v)
    } else {
        Err(())
    })
}

/// A scenario around `s` on an open table `size` thou across, for the game seeded `seed`:
/// each piece (one in two) moved up to 3 inches each way, staying on the table, and turned
/// (one in three) by 45°, 90° or 180° either way; counters halved or doubled as on a grid.
/// Bases that would overlap, enter what their terrain forbids or stand too near the enemy
/// are refused by the scenario's own checks and drawn again, up to 20 times.
fn open_variant(s: &Scenario, seed: u64, (width, height): (i64, i64)) -> Option<Scenario> {
    let mut draw = Draw(seed ^ 0x0FE4_7AB1_E000);
    let (w, h) = (width as f64 / 1000.0, height as f64 / 1000.0);
    for _ in 0..20 {
        let mut spec = s.spec.clone();
        for p in &mut spec.pieces {
            let Some(at) = p.at.as_mut() else { continue };
            if p.attached_to.is_some() || draw.below(2) == 0 {
                continue;
            }
            let shift =
                |v: f64, most: f64, d: &mut Draw| (v + d.below(7) as f64 - 3.0).clamp(0.0, most);
            at.value = [
                shift(at.value[0], w, &mut draw),
                shift(at.value[1], h, &mut draw),
            ];
            if draw.below(3) == 0 {
                let now = p
                    .facing
                    .as_ref()
                    .and_then(|f| f.value.trim_end_matches('°').trim().parse::<f64>().ok())
                    .unwrap_or(0.0);
                let turn = [45.0, -45.0, 90.0, -90.0, 180.0][draw.below(5) as usize];
                let to = (now + turn).rem_euclid(360.0);
                let location = p.id.location.clone();
                p.facing = Some(grognard_rules::de::Located::new(
                    grognard_rules::model::Text(format!("{to}")),
                    location,
                ));
            }
            if draw.below(4) == 0 {
                for c in &mut p.counters.0 {
                    c.value = if draw.below(2) == 0 {
                        c.value / 2
                    } else {
                        c.value.saturating_mul(2)
                    };
                }
            }
        }
        match starts(s, spec, seed) {
            Some(Ok(v)) => return Some(v),
            Some(Err(())) => {}
            None => return None,
        }
    }
    None
}

/// Fills the most crowded cell of the variant exactly to the first stacking limit that
/// counts a counter (150 figures): one piece there takes what the others leave. A full
/// stack is where a piece sent back to it, or one more step in, is refused.
fn fill_a_stack(
    spec: &mut grognard_rules::model::ScenarioSpec,
    rules: &grognard_kernel::rules::Rules,
) {
    use grognard_kernel::rules::StackMeasure;
    let Some((si, counter, capacity)) =
        rules
            .stacking
            .iter()
            .enumerate()
            .find_map(|(i, d)| match d.measure {
                StackMeasure::Counter(c) => Some((i, c, d.capacity)),
                StackMeasure::Weight => None,
            })
    else {
        return;
    };
    let Some(def) = rules.counters.get(counter.index()) else {
        return;
    };
    // Pieces that count toward the limit, by side and cell.
    let counts = |p: &grognard_rules::model::PieceSpec| {
        rules
            .piece_types
            .iter()
            .find(|t| t.name == p.kind.value)
            .is_some_and(|t| t.stack.get(si).is_none_or(|w| w.hundredths() > 0))
    };
    let value = |p: &grognard_rules::model::PieceSpec| {
        p.counters.get(&def.name).copied().unwrap_or(def.initial)
    };
    let key = |p: &grognard_rules::model::PieceSpec| {
        p.at.as_ref()
            .map(|a| (p.side.value.clone(), a.value[0] as i32, a.value[1] as i32))
    };
    let mut best: Option<(usize, (String, i32, i32))> = None;
    for p in spec.pieces.iter().filter(|p| counts(p)) {
        let Some(k) = key(p) else { continue };
        let n = spec
            .pieces
            .iter()
            .filter(|q| counts(q) && key(q).as_ref() == Some(&k))
            .count();
        if best.as_ref().is_none_or(|(m, _)| n > *m) {
            best = Some((n, k));
        }
    }
    let Some((_, cell)) = best else { return };
    let group: Vec<usize> = (0..spec.pieces.len())
        .filter(|i| counts(&spec.pieces[*i]) && key(&spec.pieces[*i]).as_ref() == Some(&cell))
        .collect();
    let total: i32 = group.iter().map(|i| value(&spec.pieces[*i])).sum();
    let Some(&biggest) = group.iter().max_by_key(|i| value(&spec.pieces[**i])) else {
        return;
    };
    let p = &mut spec.pieces[biggest];
    let want = value(p) + (capacity - total);
    if want < def.min.max(0) || want > def.max {
        return;
    }
    match p.counters.0.iter_mut().find(|c| c.name.value == def.name) {
        Some(c) => c.value = want,
        None => p.counters.0.push(grognard_rules::named::Named {
            name: grognard_rules::de::Located::new(def.name.clone(), p.id.location.clone()),
            value: want,
        }),
    }
}

/// `grognard fuzz`.
pub(crate) fn fuzz(
    scenario: &Path,
    games: u32,
    seed: Option<u64>,
    repro: Option<&Path>,
    json: bool,
    vary: bool,
) -> Outcome {
    if games == 0 {
        return Err(Failure::Usage("--games must be at least 1".to_owned()));
    }
    let s = load::load_scenario(scenario, None)?;
    let first = seed.unwrap_or(s.compiled.setup.seed);
    let mut played = 0u64;
    let mut varied = 0u32;
    // The games after the first that --vary could not vary (no draw passed the checks):
    // they play the given scenario, and the summary names them.
    let mut unvaried: Vec<u64> = Vec::new();
    let mut findings: Vec<Finding> = Vec::new();
    for g in 0..games {
        let seed = first.wrapping_add(u64::from(g));
        // With --vary, every game but the first starts from a scenario around the given one.
        let around = if vary && g > 0 {
            variant(&s, seed)
        } else {
            None
        };
        varied += u32::from(around.is_some());
        if vary && g > 0 && around.is_none() {
            unvaried.push(seed);
        }
        let s = around.as_ref().unwrap_or(&s);
        let run = catch_unwind(AssertUnwindSafe(|| fuzz_game(s, seed)));
        let run = match run {
            Ok(r) => r?,
            Err(p) => {
                let message = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|m| (*m).to_owned()))
                    .unwrap_or_else(|| "a panic".to_owned());
                GameRun {
                    orders: Vec::new(),
                    finding: Some(Finding {
                        seed,
                        kind: "panic".to_owned(),
                        message,
                        orders: Vec::new(),
                        cause: None,
                        repro: None,
                        varied: false,
                    }),
                }
            }
        };
        played += run.orders.len() as u64;
        if let Some(mut f) = run.finding {
            f.varied = around.is_some();
            if let Some(dir) = repro {
                let orders = shrink(s, &f);
                f.repro = Some(write_repro(s, dir, &f, &orders)?);
            }
            findings.push(f);
            // One reproduction is what a designer needs; stop at the first failure.
            break;
        }
    }
    if json {
        print_json(&json!({
            "scenario": load::display(&s.path),
            "games": games,
            "varied": varied,
            "unvaried_seeds": unvaried,
            "seed": first,
            "orders": played,
            "failures": findings,
        }));
    } else if findings.is_empty() {
        let around = if vary && varied == 0 && games > 1 {
            let why = if s.spec.deployment.is_empty() {
                "no variant drawn passed the scenario's checks"
            } else {
                "a scenario with a secret set-up is not varied"
            };
            format!(", none on a scenario around it: {why}")
        } else if vary && games > 1 {
            unvaried_text(games, varied, &unvaried)
        } else if vary {
            ", the only game on the given scenario (--vary varies the games after the first)"
                .to_owned()
        } else {
            String::new()
        };
        out!(
            "fuzz: {games} random legal games of {} (seeds {first}..{}{around}), {played} orders: every check passed",
            load::display(&s.path),
            first.wrapping_add(u64::from(games) - 1)
        );
    } else {
        for f in &findings {
            out!(
                "fuzz: game with seed {}{} failed ({}): {}",
                f.seed,
                if f.varied {
                    " on a scenario around the given one"
                } else {
                    ""
                },
                f.kind,
                f.message
            );
            if let Some(r) = &f.repro {
                out!("  reproduction: {r}");
            }
        }
    }
    if findings.is_empty() {
        Ok(())
    } else {
        Err(Failure::Rules(format!(
            "{} fuzzed game failed a check",
            findings.len()
        )))
    }
}
