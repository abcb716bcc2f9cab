//! Lua policies (`--policy lua:FILE[:FUNCTION]`) and the `result` hook (issue 18).

use std::path::Path;

use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Game;
use grognard_kernel::hooks::Hooks;
use grognard_kernel::ids::SideId;
use grognard_lua::{Limits, LuaHooks};
use grognard_play::policy::{Player, PolicyKind, play_out};
use grognard_rules::load;

use crate::legal::sim_json;
use crate::util::grognard;

#[test]
fn a_lua_policy_plays_whole_games_from_its_legal_orders() {
    let v = sim_json(&[
        "examples/drill-square.yaml",
        "--policy",
        "blue=lua:examples/policies/skirmisher.lua",
        "--policy",
        "red=random",
        "--runs",
        "10",
    ]);
    assert_eq!(v["games"], 10);
    assert_eq!(v["refused"], 0, "{v}");
    assert_eq!(v["unfinished"], 0, "{v}");
    // The same file played on the open table, where orders are `move_to` points.
    let v = sim_json(&[
        "examples/drill-open.yaml",
        "--policy",
        "lua:examples/policies/skirmisher.lua:choose",
        "--runs",
        "4",
    ]);
    assert_eq!(v["unfinished"], 0, "{v}");
    assert!(
        v["policy_orders"]["mean"].as_f64().unwrap_or(0.0) > 3.0,
        "{v}"
    );
}

/// `sim` with one side's policy says who played the other (issue 40, the search player's
/// report C3: `--policy blue=search:it=20` won 2 of 2 and nothing said red had no player);
/// `--json` names each side's policy, `null` for none, and `sim --help` says what a side
/// given none does.
#[test]
fn sim_names_every_sides_policy_and_a_side_given_none() {
    let v = sim_json(&[
        "examples/drill-square.yaml",
        "--policy",
        "blue=search:it=3",
        "--runs",
        "1",
    ]);
    assert_eq!(
        v["policies"],
        serde_json::json!({"blue": "search:it=3", "red": null}),
        "{v}"
    );
    let run = grognard(&[
        "sim",
        "examples/drill-square.yaml",
        "--policy",
        "greedy",
        "--policy",
        "red=random",
        "--runs",
        "2",
        "--threads",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("\nwho played: blue greedy, red random\n"),
        "{}",
        run.stdout
    );
    let run = grognard(&[
        "sim",
        "examples/drill-square.yaml",
        "--policy",
        "red=greedy",
        "--runs",
        "1",
    ]);
    // prose: the summary's words name each side's policy.
    assert!(
        run.stdout.contains(
            "who played: blue no policy (ends each phase it is asked to act in), red greedy"
        ),
        "{}",
        run.stdout
    );
    let help = grognard(&["sim", "--help"]).stdout;
    assert!(
        help.contains("A side given no policy plays no one"),
        "{help}"
    );
}

#[test]
fn a_broken_policy_is_named_at_its_file_and_line() {
    let bad = "tests/fixtures/policies/bad.lua";
    for (function, line, says) in [
        ("out_of_list", 4, "which is not in the list"),
        ("raises", 10, "attempt to index a nil value"),
        ("spins", 14, "budget"),
        ("peeks", 18, "global 'game'"),
    ] {
        let policy = format!("blue=lua:{bad}:{function}");
        let run = grognard(&[
            "sim",
            "examples/drill-square.yaml",
            "--policy",
            &policy,
            "--runs",
            "1",
        ]);
        assert_eq!(run.code, 1, "{function}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!("{bad}:{line}:")) && run.stderr.contains(says),
            "{function}: {}",
            run.stderr
        );
    }
    let run = grognard(&[
        "sim",
        "examples/drill-square.yaml",
        "--policy",
        "lua:tests/fixtures/policies/bad.lua:chose",
        "--runs",
        "1",
    ]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("has no function `chose`"),
        "{}",
        run.stderr
    );
    let run = grognard(&[
        "sim",
        "examples/drill-square.yaml",
        "--policy",
        "lua:no/such/file.lua",
        "--runs",
        "1",
    ]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("cannot read policy file no/such/file.lua"),
        "{}",
        run.stderr
    );
}

fn drill(ruleset: Option<&str>) -> (Game, Box<dyn Hooks>) {
    let s = load::load_scenario(
        Path::new("examples/drill-square.yaml"),
        ruleset.map(Path::new),
    )
    .expect("scenario");
    let mut hooks: Box<dyn Hooks> =
        Box::new(LuaHooks::new(&s.ruleset, Limits::default()).expect("hooks"));
    let game = s.start(None, &[], hooks.as_mut()).expect("start");
    (game, hooks)
}

#[test]
fn a_policy_error_leaves_the_game_as_it_was() {
    let (mut game, mut hooks) = drill(None);
    let before = game.state_bytes();
    let kind = PolicyKind::parse("lua:tests/fixtures/policies/bad.lua:out_of_list").expect("loads");
    let mut players: Vec<Option<Player>> = (0..2)
        .map(|i| Some(Player::new(&kind, 1, SideId(i)).expect("player")))
        .collect();
    let played = play_out(&mut game, hooks.as_mut(), &mut players, 100);
    let error = played.error.expect("the policy's answer is refused");
    assert!(error.contains("bad.lua:4:"), "{error}");
    assert_eq!(played.orders, 0);
    assert_eq!(game.state_bytes(), before, "nothing changed");
}

/// The drill under the `result` hook fixture, its `result_mode` setting at `mode`.
fn result_drill(mode: i32) -> (Game, Box<dyn Hooks>) {
    let ruleset =
        load::load_ruleset(Path::new("tests/fixtures/policies/result.yaml")).expect("ruleset");
    let text = std::fs::read_to_string("examples/drill-square.yaml")
        .expect("example")
        .replace(
            "ruleset: drill-square\n",
            &format!("ruleset: drill-square-result-test\nsettings: {{ result_mode: {mode} }}\n"),
        );
    let s = load::scenario_from_text("result-drill.yaml", &text, &ruleset).expect("scenario");
    let mut hooks: Box<dyn Hooks> =
        Box::new(LuaHooks::new(&s.ruleset, Limits::default()).expect("hooks"));
    let game = s.start(None, &[], hooks.as_mut()).expect("start");
    (game, hooks)
}

fn end_phase(game: &Game) -> Order {
    Order {
        side: *game.to_act().first().expect("someone acts"),
        action: Action::EndPhase,
    }
}

#[test]
fn the_result_hook_ends_the_game_when_it_gives_a_verdict() {
    let (mut game, mut hooks) = result_drill(0);
    let blue = game.side_by_name("blue").expect("blue");
    // Nobody holds the road cell yet: no verdict, the game goes on.
    let mut guard = 0;
    while game.to_act().first() != Some(&blue)
        || game.phase().is_none_or(|(p, _)| p.name != "movement")
    {
        game.apply(&end_phase(&game), hooks.as_mut())
            .expect("end phase");
        assert!(game.result().is_none());
        guard += 1;
        assert!(guard < 20, "never reached blue's movement phase");
    }
    // A blue piece steps onto the road at (5, 6).
    let reach = game.legal_orders(blue, hooks.as_mut());
    let onto_bridge = reach
        .into_iter()
        .find(|a| {
            matches!(a, Action::Move { path, .. }
                if path.last().is_some_and(|c| c.col == 5 && c.row == 6))
        })
        .expect("a blue piece may step onto the road");
    let events = game
        .apply(
            &Order {
                side: blue,
                action: onto_bridge,
            },
            hooks.as_mut(),
        )
        .expect("move");
    let result = game.result().expect("the hook ended the game");
    assert_eq!(result.winner, Some(blue));
    assert_eq!(result.why, "blue holds the crossroads");
    assert!(game.state().over());
    assert!(
        events
            .iter()
            .any(|e| matches!(e, grognard_kernel::action::Event::GameResult { .. }))
    );
}

#[test]
fn at_the_end_the_result_hook_decides_or_the_data_does() {
    let (mut game, mut hooks) = result_drill(0);
    let mut guard = 0;
    while !game.state().over() {
        game.apply(&end_phase(&game), hooks.as_mut())
            .expect("end phase");
        guard += 1;
        assert!(guard < 200);
    }
    let result = game.result().expect("a result");
    assert_eq!(result.winner, None);
    assert!(
        result
            .why
            .starts_with("nobody holds the town (blue 0, red 0)"),
        "{}",
        result.why
    );
}

#[test]
fn a_result_hook_that_answers_wrongly_refuses_the_order_and_changes_nothing() {
    for (mode, says) in [
        (
            1,
            "winner `green`, which is not a side; the sides are blue, red",
        ),
        (2, "the result hook may only read the game"),
        (3, "returned integer; expected nil (no verdict) or a table"),
    ] {
        let (mut game, mut hooks) = result_drill(mode);
        let before = game.state_bytes();
        let refusal = game
            .apply(&end_phase(&game), hooks.as_mut())
            .expect_err("refused");
        assert!(
            refusal.message.contains(says),
            "{mode}: {}",
            refusal.message
        );
        assert!(
            refusal.message.contains("verdict.result"),
            "{mode}: {}",
            refusal.message
        );
        assert_eq!(game.state_bytes(), before);
    }
}
