//! The `search` policy (issue 40): it sees only what its side knows (two games that differ
//! only in what the side has not sighted give the same choices, with or without a ruleset's
//! `evaluate` hook), a seed fixes its choices, it beats the random policy, a ruleset's
//! `evaluate` hook steers it and its errors stop it in words, `--policy search...` is
//! parsed and refused in words, and its lines stop at the end of the enemy's reply.

use std::path::Path;

use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::Cell;
use grognard_kernel::hooks::{Hooks, NoHooks};
use grognard_kernel::ids::SideId;
use grognard_lua::{Limits, LuaHooks};
use grognard_play::policy::{Player, PolicyError, PolicyKind, play_out, players_for, seats};
use grognard_play::search::Budget;
use grognard_rules::load::{self, Ruleset};
use proptest::prelude::*;

use crate::hidden::{blocks, scenario, start};
use crate::util::grognard;

const FRENCH: SideId = SideId(0);

/// Two games that differ only in what the French cannot have sighted: a hidden Austrian
/// command in another place (`variant` 0), or which of two face-down Austrian markers is
/// the dummy and which the real command (1).
fn pair(variant: u32, spots: &[u32]) -> (Game, Game) {
    pair_under(&blocks(), variant, spots)
}

/// [`pair`] under `rules` (square-blocks or an overlay of it).
fn pair_under(rules: &Ruleset, variant: u32, spots: &[u32]) -> (Game, Game) {
    let french = [
        format!(
            "{{ id: s, side: french, type: scout, at: [{}, 12], facing: N }}",
            3 + spots[0] % 9
        ),
        format!(
            "{{ id: i, side: french, type: infantry, at: [{}, 13], facing: N, counters: {{ units: 4 }} }}",
            2 + spots[1] % 10
        ),
        format!(
            "{{ id: c, side: french, type: cavalry, at: [{}, 13], facing: N }}",
            3 + spots[2] % 10
        ),
    ];
    let x = 1 + spots[3] % 13;
    let y = 1 + spots[4] % 13;
    let austrian = |id: &str, kind: &str, at: (u32, u32), extra: &str| {
        format!(
            "{{ id: {id}, side: austrians, type: {kind}, at: [{}, {}], facing: S{extra} }}",
            at.0, at.1
        )
    };
    let units = ", counters: { units: 5 }";
    let (one, two) = if variant.is_multiple_of(2) {
        let hidden = ", counters: { units: 4 }, flags: [hidden]";
        (
            vec![austrian("h", "infantry", (x, 0), hidden)],
            vec![austrian("h", "infantry", ((x + 5) % 15, 0), hidden)],
        )
    } else {
        (
            vec![
                austrian("h", "dummy", (x, 0), ""),
                austrian("m", "infantry", (y, 2), units),
            ],
            vec![
                austrian("h", "infantry", (x, 0), units),
                austrian("m", "dummy", (y, 2), ""),
            ],
        )
    };
    let rest = [austrian("a1", "scout", (4 + spots[5] % 6, 3), "")];
    let text = |aus: Vec<String>| {
        let mut all: Vec<String> = french.to_vec();
        all.extend(aus);
        all.extend(rest.iter().cloned());
        scenario(&all, "")
    };
    (start(rules, &text(one)), start(rules, &text(two)))
}

/// What `side` can tell of `game`: its view and its log.
fn seen(game: &Game, side: SideId) -> (serde_json::Value, serde_json::Value) {
    (
        serde_json::to_value(game.view(side)).unwrap_or_default(),
        serde_json::to_value(game.events_for(side)).unwrap_or_default(),
    )
}

fn search(iterations: u32) -> PolicyKind {
    PolicyKind::Search(Budget::Iterations(iterations))
}

/// Plays the two games of a pair side by side while the French cannot tell them apart,
/// the French by the search (6 iterations, `seed`) asking `hooks1` and `hooks2` (the
/// ruleset's, one per game), the Austrians only ending their phases; fails when the
/// search chooses or explains apart.
fn same_choices(
    (mut g1, mut g2): (Game, Game),
    seed: u64,
    hooks1: &mut dyn Hooks,
    hooks2: &mut dyn Hooks,
) -> Result<(), TestCaseError> {
    let mut p1 = Player::new(&search(6), seed, FRENCH).map_err(TestCaseError::fail)?;
    let mut p2 = Player::new(&search(6), seed, FRENCH).map_err(TestCaseError::fail)?;
    let mut asked = 0;
    for _ in 0..16 {
        // Once the French can tell the games apart, they may well choose apart.
        if seen(&g1, FRENCH) != seen(&g2, FRENCH) || g1.to_act().is_empty() {
            break;
        }
        let order = if g1.to_act().contains(&FRENCH) {
            let l1 = g1.legal_orders(FRENCH, hooks1);
            let l2 = g2.legal_orders(FRENCH, hooks2);
            prop_assert_eq!(&l1, &l2);
            let c1 = p1
                .choose_with(&g1, FRENCH, &l1, hooks1)
                .map_err(TestCaseError::fail)?;
            let c2 = p2
                .choose_with(&g2, FRENCH, &l2, hooks2)
                .map_err(TestCaseError::fail)?;
            prop_assert_eq!(&c1, &c2, "the search chose apart");
            let (e1, e2) = (p1.explanation(), p2.explanation());
            prop_assert_eq!(e1.map(|e| &e.considered), e2.map(|e| &e.considered));
            if e1.is_some() {
                asked += 1;
            }
            Order {
                side: FRENCH,
                action: c1,
            }
        } else {
            // The Austrians only end their phases: what they would do differs.
            Order {
                side: g1.to_act()[0],
                action: Action::EndPhase,
            }
        };
        let r1 = g1.apply(&order, hooks1).is_ok();
        let r2 = g2.apply(&order, hooks2).is_ok();
        if r1 != r2 {
            break;
        }
        if !r1 {
            let end = Order {
                side: order.side,
                action: Action::EndPhase,
            };
            prop_assert!(g1.apply(&end, hooks1).is_ok() == g2.apply(&end, hooks2).is_ok());
        }
    }
    prop_assert!(asked > 0, "the search never weighed an order");
    Ok(())
}

/// square-blocks with an `evaluate` hook that reads everything its view says of the
/// enemy (tests/fixtures/search/marked.lua's `peek`).
fn peeking() -> Ruleset {
    load::load_ruleset(Path::new("tests/fixtures/search/blocks-peek.yaml"))
        .unwrap_or_else(|d| panic!("{d}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn the_search_cannot_reach_what_its_side_has_not_sighted(
        variant in 0u32..2,
        spots in proptest::collection::vec(0u32..1000, 6),
        seed in 0u64..1000,
    ) {
        same_choices(pair(variant, &spots), seed, &mut NoHooks, &mut NoHooks)?;
    }

    #[test]
    fn a_rulesets_evaluate_cannot_reach_it_either(
        variant in 0u32..2,
        spots in proptest::collection::vec(0u32..1000, 6),
        seed in 0u64..1000,
    ) {
        // The hook's value depends on every enemy entry of the view it is given: were it
        // given the imagined world's real pieces, or the real game's, the choices would
        // part.
        let rules = peeking();
        let hooks = || LuaHooks::new(&rules, Limits::default()).map_err(|d| TestCaseError::fail(d.to_string()));
        let (mut h1, mut h2) = (hooks()?, hooks()?);
        same_choices(pair_under(&rules, variant, &spots), seed, &mut h1, &mut h2)?;
    }
}

/// A small generator of draws from `s`, the same for any game.
fn draws(s: u64) -> impl FnMut(usize) -> usize {
    let mut x = s.wrapping_mul(0x9e37_79b9) + 1;
    move |n: usize| {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((x >> 33) as usize) % n.max(1)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_same_draws_give_the_same_world_from_either_game_of_a_pair(
        variant in 0u32..2,
        spots in proptest::collection::vec(0u32..1000, 6),
        seed in 0u64..1000,
    ) {
        let (g1, g2) = pair(variant, &spots);
        prop_assume!(seen(&g1, FRENCH) == seen(&g2, FRENCH));
        let w1 = g1.sample_world(FRENCH, &mut draws(seed));
        let w2 = g2.sample_world(FRENCH, &mut draws(seed));
        prop_assert_eq!(w1.state(), w2.state());
    }
}

#[test]
fn an_unseen_command_is_placed_by_the_draw_not_found() {
    let (g1, _) = pair(0, &[1, 2, 3, 4, 5, 6]);
    let h = g1.piece_by_name("h").map(|p| p.id).unwrap_or_default();
    let real = &g1.state().pieces[h.index()].place;
    let elsewhere = (0..12)
        .filter(|s| {
            g1.sample_world(FRENCH, &mut draws(*s)).state().pieces[h.index()].place != *real
        })
        .count();
    assert!(
        elsewhere > 6,
        "the hidden command was put where it really is {} times in 12",
        12 - elsewhere
    );
}

fn duel() -> (load::Scenario, Box<dyn Hooks>) {
    let s = load::load_scenario(Path::new("tests/fixtures/search/duel.yaml"), None)
        .unwrap_or_else(|d| panic!("{d}"));
    let hooks: Box<dyn Hooks> =
        Box::new(LuaHooks::new(&s.ruleset, Limits::default()).unwrap_or_else(|d| panic!("{d}")));
    (s, hooks)
}

#[test]
fn a_seed_fixes_the_search_choices() {
    let (s, mut hooks) = duel();
    let run = |hooks: &mut dyn Hooks, seed: u64| {
        let mut game = s
            .start(Some(40), &[], hooks)
            .unwrap_or_else(|d| panic!("{d}"));
        let seats = vec![Some(search(10)), Some(PolicyKind::Random)];
        let mut players = players_for(&seats, seed).unwrap_or_else(|e| panic!("{e}"));
        let played = play_out(&mut game, hooks, &mut players, 40);
        assert!(played.error.is_none(), "{:?}", played.error);
        (game.state_bytes(), played.orders)
    };
    let a = run(hooks.as_mut(), 3);
    let b = run(hooks.as_mut(), 3);
    assert_eq!(a, b, "the same seed played the same game");
    assert_eq!(a.1, 40);
    let c = run(hooks.as_mut(), 4);
    assert_ne!(a.0, c.0, "another seed draws other worlds");
}

#[test]
fn the_search_beats_random_play() {
    // Eight games with sides swapped and common seeds: the search (20 iterations a
    // decision) against the random policy on a small hex-leaders duel. Random against
    // random wins almost none of these; the search must win most of the decided ones.
    let (s, mut hooks) = duel();
    let (mut won, mut lost) = (0, 0);
    for g in 0..8u64 {
        let searcher = (g % 2) as usize;
        let mut seats = vec![Some(PolicyKind::Random), Some(PolicyKind::Random)];
        seats[searcher] = Some(search(20));
        let mut game = s
            .start(Some(100 + g / 2), &[], hooks.as_mut())
            .unwrap_or_else(|d| panic!("{d}"));
        let mut players = players_for(&seats, 100 + g / 2).unwrap_or_else(|e| panic!("{e}"));
        let played = play_out(&mut game, hooks.as_mut(), &mut players, 2_000);
        assert!(played.error.is_none(), "{:?}", played.error);
        match game.result().and_then(|r| r.winner) {
            Some(w) if w.index() == searcher => won += 1,
            Some(_) => lost += 1,
            None => {}
        }
    }
    assert!(
        won >= 4 && won > 3 * lost,
        "search won {won}, lost {lost} of 8"
    );
}

#[test]
fn search_budgets_parse_and_bad_ones_are_refused_in_words() {
    assert_eq!(
        PolicyKind::parse("search"),
        Ok(PolicyKind::Search(Budget::Millis(1000)))
    );
    assert_eq!(
        PolicyKind::parse("search:250"),
        Ok(PolicyKind::Search(Budget::Millis(250)))
    );
    assert_eq!(PolicyKind::parse("search:it=30"), Ok(search(30)));
    assert_eq!(search(30).name(), "search:it=30");
    let sides = vec!["blue".to_owned(), "red".to_owned()];
    // `search:it=N` has an `=` of its own: it is not a side.
    let all = seats(&["search:it=5".to_owned()], &sides).unwrap_or_default();
    assert_eq!(all, vec![Some(search(5)), Some(search(5))]);
    let one = seats(&["red=search:it=5".to_owned()], &sides).unwrap_or_default();
    assert_eq!(one, vec![None, Some(search(5))]);
    for bad in ["search:fast", "search:0", "search:it=0", "search:it=many"] {
        match PolicyKind::parse(bad) {
            Err(PolicyError::Unknown(m)) => {
                assert!(m.contains("search:it=ITERATIONS"), "{bad}: {m}");
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
    match PolicyKind::parse("serch") {
        Err(PolicyError::Unknown(m)) => assert!(m.contains("did you mean `search`"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn play_explains_the_search_orders() {
    let run = grognard(&[
        "play",
        "tests/fixtures/search/duel.yaml",
        "--policy",
        "blue=search:it=8",
        "--policy",
        "red=greedy",
        "--explain",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("search: 8 iterations"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(" visits  mean "), "{}", run.stdout);
    let bad = grognard(&[
        "sim",
        "tests/fixtures/search/duel.yaml",
        "--policy",
        "search:soon",
        "--runs",
        "1",
    ]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("search:MILLISECONDS"), "{}", bad.stderr);
}

/// The duel under the hex-leaders overlay `ruleset` (a fixture beside it: `marked.yaml`
/// and the like), with its hooks; the plain duel when `None`.
fn duel_under(ruleset: Option<&str>) -> (load::Scenario, LuaHooks) {
    let rules = ruleset.map(|r| Path::new("tests/fixtures/search").join(r));
    let s = load::load_scenario(
        Path::new("tests/fixtures/search/duel.yaml"),
        rules.as_deref(),
    )
    .unwrap_or_else(|d| panic!("{d}"));
    let hooks = LuaHooks::new(&s.ruleset, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    (s, hooks)
}

const BLUE: SideId = SideId(0);

/// Blue's first order in the duel under `ruleset`, by the search with `iterations` a
/// decision and the seed `seed`, or the error that stopped it.
fn blues_first_order(
    ruleset: Option<&str>,
    iterations: u32,
    seed: u64,
) -> Result<(Game, Action), String> {
    let (s, mut hooks) = duel_under(ruleset);
    let game = s
        .start(Some(40), &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(
        game.to_act(),
        vec![BLUE],
        "blue gives the duel's first orders"
    );
    let legal = game.legal_orders(BLUE, &mut hooks);
    let mut player = Player::new(&search(iterations), seed, BLUE)?;
    let chosen = player.choose_with(&game, BLUE, &legal, &mut hooks)?;
    Ok((game, chosen))
}

/// Where `action` leaves a piece, if it is a move.
fn ends_on(action: &Action) -> Option<Cell> {
    match action {
        Action::Move { path, .. } => path.last().copied(),
        _ => None,
    }
}

#[test]
fn a_rulesets_evaluate_steers_the_search_to_what_it_values() {
    // marked.lua's `evaluate` values an own piece on hex (4, 2), one of the hexes blue's
    // first moves may close on and no better than the others by the search's own score
    // (points and material). With the same seed and 120 iterations (enough for the hook's
    // preference to stand clear of the rollouts' noise, which the search asks before it
    // leaves the greedy policy's order), the hook changes the choice to the one move that
    // ends there.
    let mark = Cell { col: 4, row: 2 };
    for seed in [1, 2, 3] {
        let (_, plain) = blues_first_order(None, 120, seed).unwrap_or_else(|e| panic!("{e}"));
        let (game, steered) =
            blues_first_order(Some("marked.yaml"), 120, seed).unwrap_or_else(|e| panic!("{e}"));
        let b2 = game.piece_by_name("b2").map(|p| p.id);
        assert_ne!(ends_on(&plain), Some(mark), "seed {seed}: {plain:?}");
        assert_eq!(ends_on(&steered), Some(mark), "seed {seed}: {steered:?}");
        assert!(
            matches!(&steered, Action::Move { piece, .. } if Some(*piece) == b2),
            "seed {seed}: only b2 reaches the mark in one move: {steered:?}"
        );
        let (_, again) =
            blues_first_order(Some("marked.yaml"), 120, seed).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again, steered, "seed {seed}: the same seed, the same order");
    }
}

#[test]
fn an_evaluate_that_fails_stops_the_search_with_its_script_and_line() {
    let line = |needle: &str| {
        let text = std::fs::read_to_string("tests/fixtures/search/marked.lua").unwrap_or_default();
        text.lines()
            .position(|l| l.contains(needle))
            .map_or(0, |i| i + 1)
    };
    let err = blues_first_order(Some("marked-error.yaml"), 5, 1)
        .err()
        .unwrap_or_default();
    let at = format!("marked.lua:{}:", line("view.nothing.here"));
    assert!(err.contains(&at), "{err}");
    assert!(err.contains("evaluate (marked.broken)"), "{err}");
    assert!(err.contains("index a nil value"), "{err}");

    let err = blues_first_order(Some("marked-word.yaml"), 5, 1)
        .err()
        .unwrap_or_default();
    let at = format!("marked.lua:{}:", line("function marked.wordy"));
    assert!(err.contains(&at), "{err}");
    assert!(
        err.contains("`marked.wordy` returned a string; return a number from -1"),
        "{err}"
    );
}

/// The phases a line passes from the first side-turn phase of `scenario` (seed `seed`) to
/// its horizon, each as `phase phasing-side`, the last where the horizon is reached: for
/// the phasing side's decision (`phasing`) or the other side's. Every side ends each phase.
fn horizon_walk(scenario: &str, seed: u64, phasing: bool) -> Vec<String> {
    use grognard_play::search::horizon::{Horizon, part};
    let s = load::load_scenario(Path::new(scenario), None).unwrap_or_else(|d| panic!("{d}"));
    let mut hooks: Box<dyn Hooks> = if LuaHooks::wanted(&s.ruleset) {
        Box::new(LuaHooks::new(&s.ruleset, Limits::default()).unwrap_or_else(|d| panic!("{d}")))
    } else {
        Box::new(NoHooks)
    };
    let mut game = s
        .start(Some(seed), &[], hooks.as_mut())
        .unwrap_or_else(|d| panic!("{d}"));
    let mut end = |game: &mut Game| {
        let side = game.to_act()[0];
        let order = Order {
            side,
            action: Action::EndPhase,
        };
        game.apply(&order, hooks.as_mut())
            .unwrap_or_else(|r| panic!("{r:?}"));
    };
    while part(&game).is_none() {
        end(&mut game);
    }
    let first = part(&game).unwrap_or(SideId(0));
    let side = if phasing { first } else { SideId(1 - first.0) };
    let name = |g: &Game| {
        g.phase()
            .map(|(p, s)| format!("{} {}", p.name, g.sides()[s.index()].name))
            .unwrap_or_default()
    };
    let mut horizon = Horizon::new(&game, side);
    let mut seen = vec![name(&game)];
    while !horizon.reached() && seen.len() < 40 {
        let before = horizon.phases();
        end(&mut game);
        horizon.observe(&game);
        if horizon.phases() != before {
            seen.push(name(&game));
        }
    }
    assert_eq!(horizon.phases() as usize, seen.len() - 1);
    seen
}

#[test]
fn a_line_stops_at_the_end_of_the_enemys_reply() {
    // Square-blocks: a side turn is a command and a movement phase; the French decide in
    // theirs and see the Austrians' whole turn; the Austrians, acting in the French
    // command phase (both sides act in it), see the rest of the French turn.
    assert_eq!(
        horizon_walk("tests/fixtures/search/blocks-hold.yaml", 41, true),
        [
            "command french",
            "movement french",
            "command austrians",
            "movement austrians",
            "command french"
        ]
    );
    assert_eq!(
        horizon_walk("tests/fixtures/search/blocks-hold.yaml", 41, false),
        ["command french", "movement french", "command austrians"]
    );
    // Hex Command: the arrivals phase belongs to no side; from the first side's command
    // phase the line plays its side turn and the enemy's, and stops at the turn's end
    // (which carries the first side but is no side's part). The side that plays second
    // sees the rest of the first side's turn.
    let hex = horizon_walk("examples/hex-command.yaml", 1863, true);
    let first = hex[0]
        .strip_prefix("command ")
        .unwrap_or_default()
        .to_owned();
    let other = if first == "blue" { "red" } else { "blue" };
    let turn = [
        "command",
        "movement",
        "defensive fire",
        "fire",
        "melee",
        "rally",
    ];
    let mut expected: Vec<String> = turn.iter().map(|p| format!("{p} {first}")).collect();
    expected.extend(turn.iter().map(|p| format!("{p} {other}")));
    expected.push(format!("turn end {first}"));
    assert_eq!(hex, expected);
    let reply = horizon_walk("examples/hex-command.yaml", 1863, false);
    assert_eq!(reply, expected[..7]);
}
