//! Legal orders (issue 18): `Game::legal_orders` is sound (every order it lists is accepted
//! by `Game::apply`) over every bundled example and random play, complete on small grids
//! (every move, facing, mode and action that `apply` accepts, found by brute force, is
//! listed), the same for two games that differ only in what a side has not sighted, and
//! printed by `grognard legal`.

use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::{Cell, Facing};
use grognard_kernel::hooks::{Hooks, NoHooks};
use grognard_kernel::ids::{ActionId, ModeId, PieceId, SideId};
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::load_scenario;
use proptest::prelude::*;

use crate::util::{grognard, json_of, refusal_kind, root, yaml_files};

/// Every bundled example scenario (not the orders files).
fn examples() -> Vec<String> {
    yaml_files("examples")
        .into_iter()
        .filter(|f| !f.ends_with(".orders.yaml"))
        .collect()
}

/// An example's game at `seed`, with its ruleset's hooks.
fn start(example: &str, seed: u64) -> (Game, Box<dyn Hooks>) {
    let s = load_scenario(&root().join(example), None).unwrap_or_else(|d| panic!("{d}"));
    let mut hooks: Box<dyn Hooks> = if LuaHooks::wanted(&s.ruleset) {
        Box::new(LuaHooks::new(&s.ruleset, Limits::default()).unwrap_or_else(|d| panic!("{d}")))
    } else {
        Box::new(NoHooks)
    };
    let game = s
        .start(Some(seed), &[], hooks.as_mut())
        .unwrap_or_else(|d| panic!("{d}"));
    (game, hooks)
}

/// Plays random legal orders, checking soundness of the whole list before each; returns the
/// number of orders played.
fn play_checked(
    example: &str,
    game: &mut Game,
    hooks: &mut dyn Hooks,
    picks: &[u32],
) -> Result<usize, TestCaseError> {
    let mut played = 0;
    for &pick in picks {
        let sides = game.to_act();
        if sides.is_empty() {
            break;
        }
        let side = sides[pick as usize % sides.len()];
        let list = game.legal_orders(side, hooks);
        prop_assert!(
            matches!(list.last(), Some(Action::EndPhase)),
            "{example}: a side that may act can always end the phase"
        );
        for action in &list {
            let order = Order {
                side,
                action: action.clone(),
            };
            let mut copy = game.clone();
            if let Err(r) = copy.apply(&order, hooks) {
                return Err(TestCaseError::fail(format!(
                    "{example}, turn {}: listed {action:?} was refused: {r}",
                    game.state().turn
                )));
            }
        }
        // Ending phases too eagerly would never reach later turns; too rarely, the game
        // stalls: one order in four ends the phase.
        let action = if pick % 4 == 0 {
            Action::EndPhase
        } else {
            list[(pick as usize / 4) % list.len()].clone()
        };
        let order = Order { side, action };
        prop_assert!(game.apply(&order, hooks).is_ok(), "{example}: {order:?}");
        played += 1;
    }
    Ok(played)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2, ..ProptestConfig::default() })]

    // Soundness: on every bundled example, at every point of a random game, every listed
    // order is accepted by `apply`.
    #[test]
    fn every_listed_order_is_accepted_on_every_example(
        seed in 0u64..1_000,
        picks in proptest::collection::vec(0u32..10_000, 24),
    ) {
        for example in examples() {
            let (mut game, mut hooks) = start(&example, seed);
            play_checked(&example, &mut game, hooks.as_mut(), &picks)?;
        }
    }
}

/// Every order `apply` accepts from `side` now among moves (every path of up to `depth`
/// steps), facings, modes and actions (every piece as target, each intent), as the set of
/// what the list must hold: destinations for moves, whole orders for the rest.
fn accepted_by_brute_force(
    game: &Game,
    hooks: &mut dyn Hooks,
    side: SideId,
    depth: usize,
) -> (Vec<(PieceId, Cell)>, Vec<Action>) {
    let accepts = |game: &Game, hooks: &mut dyn Hooks, action: Action| {
        game.clone().apply(&Order { side, action }, hooks).is_ok()
    };
    let grid = game.board().grid().copied().expect("a grid board");
    let mut moves = Vec::new();
    let mut others = Vec::new();
    let pieces: Vec<(PieceId, Option<Cell>, Facing, ModeId)> = game
        .state()
        .pieces
        .iter()
        .filter(|p| p.side == side && p.on_board())
        .map(|p| (p.id, p.place.cell(), p.facing, p.mode))
        .collect();
    // Orders that change nothing (facing the way the piece faces, the mode it is in) are
    // not offered, like moves that end where they began.
    for (id, at, facing, mode) in &pieces {
        let Some(at) = *at else { continue };
        // Every path of up to `depth` steps (paths may revisit cells; apply decides).
        let mut frontier: Vec<Vec<Cell>> = vec![Vec::new()];
        for _ in 0..depth {
            let mut next = Vec::new();
            for path in &frontier {
                let from = path.last().copied().unwrap_or(at);
                for (_, c) in grid.neighbours(from) {
                    if !game.board().contains(c) {
                        continue;
                    }
                    let mut p = path.clone();
                    p.push(c);
                    // A move that ends where it began is not offered: the piece can stay.
                    if c != at
                        && !moves.contains(&(*id, c))
                        && accepts(
                            game,
                            hooks,
                            Action::Move {
                                piece: *id,
                                path: p.clone(),
                            },
                        )
                    {
                        moves.push((*id, c));
                    }
                    next.push(p);
                }
            }
            frontier = next;
        }
        for f in (0..grid.facings()).filter(|f| Facing(*f) != *facing) {
            let action = Action::Face {
                piece: *id,
                facing: Facing(f),
            };
            if accepts(game, hooks, action.clone()) {
                others.push(action);
            }
        }
        for m in (0..game.rules().modes.len()).filter(|m| ModeId(*m as _) != *mode) {
            let action = Action::Mode {
                piece: *id,
                mode: ModeId(m as _),
            };
            if accepts(game, hooks, action.clone()) {
                others.push(action);
            }
        }
        for (a, def) in game.rules().actions.iter().enumerate() {
            let mut targets: Vec<Option<PieceId>> = vec![None];
            targets.extend(game.state().pieces.iter().map(|p| Some(p.id)));
            let mut intents: Vec<Vec<String>> = vec![Vec::new()];
            intents.extend(def.intents.iter().map(|i| vec![i.clone()]));
            for target in targets {
                for intent in &intents {
                    let action = Action::Act {
                        piece: *id,
                        action: ActionId(a as _),
                        target,
                        intent: intent.clone(),
                    };
                    if accepts(game, hooks, action.clone()) {
                        others.push(action);
                    }
                }
            }
        }
    }
    (moves, others)
}

/// Completeness on the small grid examples, at several points of a random game.
fn complete_on(example: &str, depth: usize) {
    let (mut game, mut hooks) = start(example, 7);
    let mut checked = 0;
    for step in 0u32..24 {
        let sides = game.to_act();
        let Some(&side) = sides.first() else { break };
        let list = game.legal_orders(side, hooks.as_mut());
        let (moves, others) = accepted_by_brute_force(&game, hooks.as_mut(), side, depth);
        for (piece, cell) in &moves {
            assert!(
                list.iter().any(|a| matches!(a, Action::Move { piece: p, path } if p == piece && path.last() == Some(cell))),
                "{example}: a move of #{} to {cell} is accepted but not listed",
                piece.0
            );
        }
        for action in &others {
            assert!(
                list.contains(action),
                "{example}: {action:?} is accepted but not listed"
            );
        }
        checked += moves.len() + others.len();
        // Move on: a listed order that is not the end of the phase, now and then the end.
        let action = if step % 3 == 2 || list.len() == 1 {
            Action::EndPhase
        } else {
            list[(step as usize * 7) % (list.len() - 1)].clone()
        };
        game.apply(&Order { side, action }, hooks.as_mut())
            .unwrap_or_else(|r| panic!("{example}: {r}"));
    }
    assert!(
        checked > 20,
        "{example}: the brute force found only {checked} orders"
    );
}

#[test]
fn the_list_is_complete_on_the_square_drill() {
    complete_on("examples/drill-square.yaml", 3);
}

#[test]
fn the_list_is_complete_on_the_hex_drill() {
    complete_on("examples/drill-hex.yaml", 3);
}

#[test]
fn the_list_is_complete_on_the_mud_house_rule_with_its_lua_hook() {
    complete_on("examples/drill-square-mud.yaml", 3);
}

#[test]
fn legal_prints_orders_that_play_accepts() {
    let run = grognard(&[
        "legal",
        "examples/drill-square.yaml",
        "--side",
        "blue",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["to_act"], serde_json::json!(["blue"]));
    let orders = v["orders"].as_array().expect("orders");
    assert!(orders.len() > 10, "{orders:?}");
    assert_eq!(
        orders.last(),
        Some(&serde_json::json!({"side": "blue", "end_phase": true}))
    );
    // Facings are named as scenarios name them.
    let face = serde_json::json!({"side": "blue", "face": {"piece": "b1", "facing": "NE"}});
    assert!(orders.contains(&face), "{orders:?}");
    // Each line of the text form is an orders-file entry that `play` accepts.
    let text = grognard(&["legal", "examples/drill-square.yaml", "--side", "blue"]);
    // prose: the text form is the orders-file syntax.
    assert!(
        text.stdout
            .contains("- { side: blue, face: { piece: b1, facing: NE } }"),
        "{}",
        text.stdout
    );
    let dir = tempfile::tempdir().expect("temp dir");
    for line in text.stdout.lines().filter(|l| l.starts_with("- ")).take(25) {
        let file = dir.path().join("one.orders.yaml");
        std::fs::write(&file, format!("orders:\n  {line}\n")).expect("write");
        let played = grognard(&[
            "play",
            "examples/drill-square.yaml",
            "--orders",
            file.to_str().unwrap(),
        ]);
        assert_eq!(played.code, 0, "{line}: {}", played.stderr);
    }
    // A side that may not act is told who does.
    let red = grognard(&[
        "legal",
        "examples/drill-square.yaml",
        "--side",
        "red",
        "--json",
    ]);
    let red = json_of(&red);
    assert_eq!(
        (&red["orders"], &red["to_act"]),
        (&serde_json::json!([]), &serde_json::json!(["blue"]))
    );
    let red = grognard(&["legal", "examples/drill-square.yaml", "--side", "red"]);
    assert_eq!(red.code, 0, "{}", red.stderr);
    // prose: and in words.
    assert!(
        red.stdout.contains("red may give no order now: blue acts"),
        "{}",
        red.stdout
    );
}

#[test]
fn a_refusal_says_who_acts_and_what_the_phase_allows() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("o.orders.yaml");
    let kind = |file: &std::path::Path| {
        let args = [
            "play",
            "examples/drill-square.yaml",
            "--orders",
            file.to_str().unwrap(),
            "--json",
        ];
        refusal_kind(&json_of(&grognard(&args)))
    };
    std::fs::write(&file, "orders:\n  - { side: red, end_phase: true }\n").expect("write");
    assert_eq!(kind(&file).as_deref(), Some("out_of_phase"));
    let run = grognard(&[
        "play",
        "examples/drill-square.yaml",
        "--orders",
        file.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1);
    // prose: this test is about the refusals' words.
    assert!(
        run.stderr
            .contains("red may not act in the movement phase: blue acts now; red can only wait"),
        "{}",
        run.stderr
    );
    std::fs::write(
        &file,
        "orders:\n  - { side: blue, act: { piece: b4, action: volley, target: r2 } }\n",
    )
    .expect("write");
    assert_eq!(kind(&file).as_deref(), Some("out_of_phase"));
    let run = grognard(&[
        "play",
        "examples/drill-square.yaml",
        "--orders",
        file.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("the movement phase does not allow volley; it allows moving"),
        "{}",
        run.stderr
    );
}

/// `grognard sim ... --json` as JSON.
pub(crate) fn sim_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["sim"];
    all.extend_from_slice(args);
    all.push("--json");
    let run = grognard(&all);
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("json")
}

#[test]
fn policies_play_every_grid_example_to_its_end_with_no_refused_order() {
    // Whole games from legal orders: every game reaches its last turn and no order of a
    // policy is refused (the Lua-heavy examples are played by the bench and CI's fuzz run).
    for example in [
        "drill-square",
        "drill-hex",
        "drill-open",
        "drill-square-mud",
        "hex-leaders",
    ] {
        for policy in ["random", "greedy"] {
            let path = format!("examples/{example}.yaml");
            let v = sim_json(&[&path, "--policy", policy, "--runs", "12", "--seed", "3"]);
            assert_eq!(v["games"], 12, "{example} {policy}");
            assert_eq!(v["refused"], 0, "{example} {policy}: {v}");
            assert_eq!(v["unfinished"], 0, "{example} {policy}");
            assert!(
                v["policy_orders"]["mean"].as_f64().unwrap_or(0.0) > 3.0,
                "{example} {policy}"
            );
        }
    }
}

#[test]
fn policy_games_are_reproducible_and_the_dice_ignore_the_policy_choices() {
    let path = "examples/drill-square.yaml";
    let a = sim_json(&[path, "--policy", "random", "--runs", "30", "--seed", "9"]);
    let b = sim_json(&[
        path,
        "--policy",
        "random",
        "--runs",
        "30",
        "--seed",
        "9",
        "--threads",
        "1",
    ]);
    assert_eq!(
        a, b,
        "the same seeds give the same games whatever the threads"
    );
    // Per side policies; the greedy side closes on the enemy and fires when it can.
    let c = sim_json(&[
        path,
        "--policy",
        "blue=greedy",
        "--policy",
        "red=random",
        "--runs",
        "30",
    ]);
    assert_eq!(c["refused"], 0);
    let volleys: u64 = c["actions"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|x| x["action"] == "volley")
                .filter_map(|x| x["rolls"].as_u64())
                .sum()
        })
        .unwrap_or(0);
    assert!(volleys > 0, "greedy sides fire when they can: {c}");
}

#[test]
fn an_orders_file_gives_the_opening_and_the_policy_goes_on() {
    let v = sim_json(&[
        "examples/drill-square.yaml",
        "--orders",
        "examples/drill-square.orders.yaml",
        "--policy",
        "random",
        "--runs",
        "10",
    ]);
    assert_eq!(v["unfinished"], 0);
    assert_eq!(v["refused_orders"], serde_json::json!([]));
}

#[test]
fn bad_policy_arguments_are_usage_errors_with_did_you_mean() {
    let run = grognard(&[
        "sim",
        "examples/drill-square.yaml",
        "--policy",
        "randon",
        "--runs",
        "1",
    ]);
    assert_eq!(run.code, 2);
    // prose: usage errors, with their suggestions.
    assert!(
        run.stderr.contains("unknown policy `randon`"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("did you mean `random`?"),
        "{}",
        run.stderr
    );
    let run = grognard(&[
        "sim",
        "examples/drill-square.yaml",
        "--policy",
        "bleu=random",
        "--runs",
        "1",
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unknown side `bleu`"), "{}", run.stderr);
    assert!(
        run.stderr.contains("did you mean `blue`?"),
        "{}",
        run.stderr
    );
    let run = grognard(&["sim", "examples/drill-square.yaml", "--runs", "1"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--policy"), "{}", run.stderr);
}

#[test]
fn the_example_game_ends_with_its_result_in_play_view_replay_and_the_save() {
    // Hex Command's example is played to its last turn: one point a unit off the field, two
    // a commander, one a unit still routed (the example's `victory:`).
    let dir = tempfile::tempdir().expect("temp dir");
    let save = dir.path().join("hc.game.json");
    let run = grognard(&[
        "play",
        "examples/hex-command.yaml",
        "--orders",
        "examples/hex-command.orders.yaml",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // prose: `play` prints the result last.
    assert!(
        run.stdout
            .contains("game over after 7 turns\nresult: blue wins on points (blue 5, red 3)\n"),
        "{}",
        run.stdout
    );
    let result = serde_json::json!({
        "event": "game_result",
        "points": [["blue", 5], ["red", 3]],
        "why": "blue wins on points (blue 5, red 3)",
        "winner": "blue",
    });
    let over = serde_json::json!({"event": "game_over", "turns": 7});
    let ends = |events: &serde_json::Value| {
        let events = events.as_array().cloned().unwrap_or_default();
        events.ends_with(&[over.clone(), result.clone()])
    };
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).expect("save")).expect("json");
    assert!(
        ends(&saved["events"]),
        "the save records the result: {}",
        saved["events"]
    );
    let replay = json_of(&grognard(&["replay", save.to_str().unwrap(), "--json"]));
    let why = &replay["result"]["why"];
    assert_eq!(
        (&replay["verified"], why),
        (&true.into(), &result["why"]),
        "{replay}"
    );
    let args = [
        "view",
        "examples/hex-command.yaml",
        "--orders",
        "examples/hex-command.orders.yaml",
        "--side",
        "red",
    ];
    let view = json_of(&grognard(&[&args[..], &["--json"]].concat()));
    assert!(
        ends(&view["events"]) && view["view"]["over"] == true,
        "{}",
        view["events"]
    );
    let view = grognard(&args);
    // prose: the side's view prints it.
    assert!(
        view.stdout
            .contains("result: blue wins on points (blue 5, red 3)"),
        "{}",
        view.stdout
    );
}

/// A drill scenario with the given `victory:` block, validated.
fn validate_victory(block: &str) -> crate::util::Run {
    scenario_with_victory(block, None)
}

/// A drill scenario with the given `victory:` block: validated, or played with `play`.
fn scenario_with_victory(block: &str, play: Option<&str>) -> crate::util::Run {
    scenario_with_victory_args(block, play, &[])
}

/// [`scenario_with_victory`], with `more` after `play`'s arguments (`--json`).
fn scenario_with_victory_args(block: &str, play: Option<&str>, more: &[&str]) -> crate::util::Run {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string(root().join("examples/drill-square.yaml"))
        .expect("example")
        .replace(
            "ruleset: drill-square\n",
            &format!(
                "ruleset: {}\n",
                root().join("rulesets/drill-square.yaml").display()
            ),
        );
    let text = match text.find("\nvictory:") {
        Some(i) => format!("{}\n{block}", &text[..i]),
        None => format!("{text}\n{block}"),
    };
    let path = dir.path().join("v.yaml");
    std::fs::write(&path, text).expect("write");
    let mut args = vec!["validate", path.to_str().unwrap()];
    let orders = dir.path().join("v.orders.yaml");
    if let Some(o) = play {
        std::fs::write(&orders, o).expect("write");
        args = vec![
            "play",
            path.to_str().unwrap(),
            "--orders",
            orders.to_str().unwrap(),
        ];
        args.extend_from_slice(more);
    }
    let run = grognard(&args);
    drop(dir);
    run
}

#[test]
fn victory_mistakes_are_named_at_their_line_with_the_known_names() {
    let run = validate_victory(
        "victory:\n  removed: { infantri: 1 }\n  lose:\n    - { flag: shakn }\n    - { counter: hits }\n    - { flag: shaken, no_pieces: true }\n  hold:\n    - { region: nowhere, points: 2 }\n",
    );
    assert_eq!(run.code, 1, "{}", run.stdout);
    let out = format!("{}{}", run.stdout, run.stderr);
    // prose: validation errors with the known names.
    assert!(out.contains("unknown piece type `infantri`"), "{out}");
    assert!(out.contains("did you mean `infantry`?"), "{out}");
    assert!(out.contains("unknown flag `shakn`"), "{out}");
    assert!(
        out.contains("a `counter` condition needs `at_least: N`"),
        "{out}"
    );
    assert!(out.contains("needs exactly one of"), "{out}");
    assert!(out.contains("unknown region `nowhere`"), "{out}");
    // Each at its line of the file.
    assert!(
        out.lines()
            .any(|l| l.contains("v.yaml:") && l.contains("shakn")),
        "{out}"
    );
    let ok = validate_victory(
        "victory:\n  removed: { any: 1 }\n  lose:\n    - { no_pieces: true, types: [infantry] }\n",
    );
    assert_eq!(ok.code, 0, "{}{}", ok.stdout, ok.stderr);
}

#[test]
fn a_side_that_loses_at_once_ends_the_game() {
    // Red has no half blocks: under this rule it has lost, and the game ends with the
    // first order given.
    let victory = "victory:\n  removed: { any: 1 }\n  lose:\n    - { no_pieces: true, types: [half_block], why: its half blocks are gone }\n";
    let orders = "orders:\n  - { side: blue, move: { piece: b1, path: [[4, 5]] } }\n  - { side: blue, end_phase: true }\n";
    let answer = json_of(&scenario_with_victory_args(
        victory,
        Some(orders),
        &["--json"],
    ));
    assert_eq!(
        refusal_kind(&answer).as_deref(),
        Some("game_over"),
        "{answer}"
    );
    let events = answer["events"].as_array().cloned().unwrap_or_default();
    let over = serde_json::json!({"event": "game_over", "turns": 1});
    let lost = |e: &serde_json::Value| {
        e["event"] == "game_result"
            && e["winner"] == "blue"
            && e["why"] == "red loses: its half blocks are gone"
    };
    assert!(
        events.contains(&over) && events.iter().any(lost),
        "{answer}"
    );
    let run = scenario_with_victory(victory, Some(orders));
    assert_eq!(
        run.code, 1,
        "the second order comes after the end: {}",
        run.stdout
    );
    // prose: and `play` prints it so.
    assert!(
        run.stdout
            .contains("game over after 1 turns\nresult: red loses: its half blocks are gone"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("the game is over"), "{}", run.stderr);
}

#[test]
fn a_game_without_victory_points_ends_level() {
    let (mut game, mut hooks) = start("examples/drill-square.yaml", 1);
    assert!(game.result().is_none());
    for _ in 0..200 {
        let Some(&side) = game.to_act().first() else {
            break;
        };
        game.apply(
            &Order {
                side,
                action: Action::EndPhase,
            },
            hooks.as_mut(),
        )
        .unwrap_or_else(|r| panic!("{r}"));
    }
    let result = game.result().expect("a result at the end");
    assert_eq!(result.winner, None);
    assert_eq!(result.points, vec![0, 0]);
    assert_eq!(result.why, "a draw on points (blue 0, red 0)");
}

#[test]
fn fuzz_passes_on_a_drill_and_reports_a_broken_house_rule_with_a_reproduction() {
    let run = grognard(&[
        "fuzz",
        "examples/drill-square.yaml",
        "--games",
        "4",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["failures"], serde_json::json!([]));
    assert!(v["orders"].as_u64().unwrap_or(0) > 50, "{v}");

    // A house rule whose phase hook fails on turn 2: fuzzing finds it, names the hook's own
    // message, and writes a reproduction that `play` reproduces.
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(
        d.join("broken.lua"),
        "local M = {}\nfunction M.phase_begin(game, phase)\n  if game:turn() == 2 then\n    error(\"the bridge collapsed on turn 2\")\n  end\nend\nreturn M\n",
    )
    .expect("write");
    std::fs::write(
        d.join("broken.yaml"),
        format!(
            "ruleset: broken\nextends: {}\nscripts:\n  broken: broken.lua\nhooks:\n  phase_begin: broken.phase_begin\n",
            root().join("rulesets/drill-square.yaml").display()
        ),
    )
    .expect("write");
    let scenario = std::fs::read_to_string(root().join("examples/drill-square.yaml"))
        .expect("example")
        .replace(
            "ruleset: drill-square\n",
            &format!("ruleset: {}\n", d.join("broken.yaml").display()),
        );
    std::fs::write(d.join("s.yaml"), scenario).expect("write");
    let repro = d.join("repro");
    let run = grognard(&[
        "fuzz",
        d.join("s.yaml").to_str().unwrap(),
        "--games",
        "3",
        "--repro",
        repro.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    // prose: the report names the hook's own message and the reproduction.
    assert!(
        run.stdout.contains("the bridge collapsed on turn 2"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("reproduction:"), "{}", run.stdout);
    let play = grognard(&[
        "play",
        repro.join("s.yaml").to_str().unwrap(),
        "--orders",
        repro.join("s.orders.yaml").to_str().unwrap(),
    ]);
    assert_eq!(play.code, 1, "{}{}", play.stdout, play.stderr);
    let answer = json_of(&grognard(&[
        "play",
        repro.join("s.yaml").to_str().unwrap(),
        "--orders",
        repro.join("s.orders.yaml").to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(
        refusal_kind(&answer).as_deref(),
        Some("hook_failed"),
        "{answer}"
    );
    assert!(
        play.stderr.contains("the bridge collapsed on turn 2"),
        "{}",
        play.stderr
    );
    // Shrunk: the orders that do not matter are gone (a few end-of-phase orders remain).
    let orders = std::fs::read_to_string(repro.join("s.orders.yaml")).expect("orders");
    let count = orders.lines().filter(|l| l.starts_with("  - ")).count();
    assert!(count <= 8, "{orders}");
}

#[test]
fn legal_says_which_hook_could_not_answer_rather_than_listing_fewer_orders() {
    // `dig_in`'s check never returns: every listing of blue's orders meets it. Before,
    // `legal` printed the orders the check did not stand in the way of and exited 0.
    let run = grognard(&[
        "legal",
        "tests/fixtures/stuck/scenario.yaml",
        "--side",
        "blue",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "", "no order is listed");
    // prose: the error names the hook, its file:line and the budget.
    for part in [
        "blue's legal orders cannot be listed",
        "action check stuck.may_dig_in",
        "tests/fixtures/stuck/stuck.lua:5",
        "budget of 2000000 instructions",
    ] {
        assert!(run.stderr.contains(part), "{part}: {}", run.stderr);
    }
    // Red may not act now: nothing is asked of its hooks, and it is told so as before.
    let red = grognard(&[
        "legal",
        "tests/fixtures/stuck/scenario.yaml",
        "--side",
        "red",
    ]);
    assert_eq!(red.code, 0, "{}", red.stderr);
    // The same scenario's ruleset without the broken action lists as always.
    let plain = grognard(&[
        "legal",
        "tests/fixtures/stuck/long.yaml",
        "--side",
        "blue",
        "--json",
    ]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let listed = json_of(&plain)["orders"].as_array().map_or(0, Vec::len);
    assert!(listed > 1, "{}", plain.stdout);
}

#[test]
fn fuzz_reports_a_hook_that_cannot_answer_while_listing() {
    let run = grognard(&["fuzz", "tests/fixtures/stuck/scenario.yaml", "--games", "1"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    // prose: the report names the failure's kind and the hook.
    assert!(all.contains("(hook_error)"), "{all}");
    assert!(all.contains("action check stuck.may_dig_in"), "{all}");
}

/// A policy's game whose listing meets a faulting hook stops and says so: leaving the
/// orders the hook was asked about out of the list would play another game, quietly (and,
/// with a time limit, differently on a loaded machine).
#[test]
fn a_simulation_stops_at_a_hook_that_cannot_answer_while_listing() {
    let run = grognard(&[
        "sim",
        "tests/fixtures/stuck/scenario.yaml",
        "--policy",
        "random",
        "--runs",
        "2",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    // prose: the error names the listing, the hook and its file:line.
    for part in [
        "listing blue's orders",
        "tests/fixtures/stuck/stuck.lua:5",
        "action check stuck.may_dig_in",
    ] {
        assert!(run.stderr.contains(part), "{part}: {}", run.stderr);
    }
}
