//! A ruleset's Lua hooks driving the kernel: bindings checked at load, pure hooks changing
//! movement, game hooks rolling the game's dice, scripted actions, and hostile hooks that
//! leave the game unchanged.

mod common;

use std::time::{Duration, Instant};

use common::root;

use grognard_kernel::action::{Action, Event, Order, RefusalKind};
use grognard_kernel::game::{Game, Reach};
use grognard_kernel::geometry::Cell;
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::{Ruleset, load_ruleset, scenario_from_text};

/// Loads the ruleset at `path`, from the workspace root.
fn ruleset(path: &str) -> Ruleset {
    load_ruleset(&root().join(path)).unwrap_or_else(|d| panic!("{d}"))
}

const BOARD: &str = r#"
scenario: hooks
ruleset: drill-square
seed: 7
settings: SETTINGS
board:
  cols: 6
  rows: 6
  legend: { ".": clear, W: medium_woods }
  map: |
    . . . . . .
    . . W . . .
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .
  features:
    - feature: road
      path: [[4, 5], [4, 4], [4, 3]]
sides: { blue: {}, red: {} }
pieces:
  - { id: inf, side: blue, type: infantry, at: [2, 2] }
  - { id: cav, side: blue, type: cavalry, at: [3, 5] }
  - { id: col, side: blue, type: infantry, at: [4, 5], mode: road }
  - { id: foe, side: red, type: infantry, at: [0, 0] }
"#;

fn start(r: &Ruleset, settings: &str) -> (Game, LuaHooks) {
    let text = BOARD.replace("SETTINGS", settings);
    let s = scenario_from_text("hooks.yaml", &text, r).unwrap_or_else(|d| panic!("{d}"));
    let mut hooks = LuaHooks::new(r, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let game = s
        .start(None, &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    (game, hooks)
}

fn step(
    game: &mut Game,
    hooks: &mut LuaHooks,
    who: &str,
    to: (i32, i32),
) -> Result<Vec<Event>, grognard_kernel::action::Refusal> {
    let piece = game.piece_by_name(who).expect("piece").id;
    let side = game.piece(piece).expect("piece").side;
    game.apply(
        &Order {
            side,
            action: Action::Move {
                piece,
                path: vec![Cell::new(to.0, to.1)],
            },
        },
        hooks,
    )
}

fn reach_cost(game: &Game, hooks: &mut LuaHooks, who: &str, to: (i32, i32)) -> Option<String> {
    let piece = game.piece_by_name(who).expect("piece").id;
    match game.reach(piece, hooks).expect("reach") {
        Reach::Cells(cells) => cells
            .into_iter()
            .find(|r| r.cell == Cell::new(to.0, to.1))
            .map(|r| r.cost.to_string()),
        Reach::Radius(_) => None,
    }
}

#[test]
fn the_mud_house_rule_changes_what_a_move_costs() {
    let r = ruleset("rulesets/drill-square-mud.yaml");
    // Dry: the data's costs (000 rule 7: diagonal 1½).
    let (dry, mut hooks) = start(&r, "{ rain: 0 }");
    assert_eq!(
        reach_cost(&dry, &mut hooks, "cav", (2, 4)).as_deref(),
        Some("1½")
    );
    assert_eq!(
        reach_cost(&dry, &mut hooks, "inf", (2, 1)).as_deref(),
        Some("1½")
    );
    // Rain: every step ½ dearer, so the cavalry's diagonal (2) is out of reach and the
    // woods (1 + ½ + ½) too; the road column on its road is spared.
    let (mut wet, mut hooks) = start(&r, "{ rain: 1 }");
    assert_eq!(reach_cost(&wet, &mut hooks, "cav", (2, 4)), None);
    assert_eq!(
        reach_cost(&wet, &mut hooks, "cav", (3, 4)).as_deref(),
        Some("1½")
    );
    assert_eq!(reach_cost(&wet, &mut hooks, "inf", (2, 1)), None);
    assert_eq!(
        reach_cost(&wet, &mut hooks, "col", (4, 3)).as_deref(),
        Some("2")
    );
    let refused = step(&mut wet, &mut hooks, "cav", (2, 4)).expect_err("too dear in the mud");
    assert_eq!(refused.kind, RefusalKind::TooFar);
}

#[test]
fn bindings_are_checked_at_load_with_their_lines() {
    let r = ruleset("tests/fixtures/hooks/broken.yaml");
    let problems = LuaHooks::new(&r, Limits::default())
        .expect_err("broken bindings")
        .to_string();
    assert!(problems.contains("broken.yaml:6:14"), "{problems}");
    assert!(
        problems.contains("takes 7 parameters, but the move_cost hook passes 6"),
        "{problems}"
    );
    assert!(problems.contains("broken.yaml:7:10"), "{problems}");
    assert!(
        problems.contains("fine"),
        "a did-you-mean for `fien`: {problems}"
    );
    // An unknown hook name is a ruleset error, found before any Lua runs.
    let unknown = load_ruleset(&root().join("tests/fixtures/hooks/unknown-hook.yaml"))
        .expect_err("unknown hook");
    assert!(
        unknown.to_string().contains("unknown hook `phase_begn`"),
        "{unknown}"
    );
    assert!(
        unknown.to_string().contains("did you mean `phase_begin`?"),
        "{unknown}"
    );
}

#[test]
fn a_syntax_error_names_the_script_and_line() {
    let r = ruleset("tests/fixtures/hooks/syntax.yaml");
    let problems = LuaHooks::new(&r, Limits::default())
        .expect_err("syntax error")
        .to_string();
    assert!(
        problems.contains("tests/fixtures/hooks/syntax.lua:4:"),
        "{problems}"
    );
}

#[test]
fn a_runaway_hook_is_stopped_and_changes_nothing() {
    let r = ruleset("tests/fixtures/hooks/runaway.yaml");
    let (mut game, mut hooks) = start(&r, "{}");
    let before = game.state_bytes();
    let log = game.log().len();
    let started = Instant::now();
    // Entering the woods at (2,1) runs the endless loop.
    let refused = step(&mut game, &mut hooks, "inf", (2, 1)).expect_err("stopped");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(refused.kind, RefusalKind::HookFailed);
    assert!(
        refused
            .message
            .contains("tests/fixtures/hooks/runaway.lua:4"),
        "{}",
        refused.message
    );
    assert!(refused.message.contains("move_cost"), "{}", refused.message);
    assert!(
        refused.message.contains("for piece inf"),
        "{}",
        refused.message
    );
    assert_eq!(game.state_bytes(), before);
    assert_eq!(game.log().len(), log);
    // The engine goes on: a move the hook answers normally is accepted.
    assert!(step(&mut game, &mut hooks, "inf", (2, 3)).is_ok());
    // A reach query through the woods fails cleanly too, naming the hook.
    let piece = game.piece_by_name("cav").expect("cav").id;
    let err = game.reach(piece, &mut hooks);
    assert!(
        err.is_ok()
            || err
                .as_ref()
                .is_err_and(|r| r.kind == RefusalKind::HookFailed)
    );
}

#[test]
fn a_hook_returning_a_huge_number_is_refused_with_the_number_as_people_write_it() {
    let r = ruleset("tests/fixtures/hooks/huge.yaml");
    let (mut game, mut hooks) = start(&r, "{}");
    let refused = step(&mut game, &mut hooks, "inf", (2, 3)).expect_err("too large");
    assert_eq!(refused.kind, RefusalKind::HookFailed);
    assert!(
        refused
            .message
            .contains("returned 1e308; a cost must be from 0 to 1,000,000 points"),
        "{}",
        refused.message
    );
    assert!(refused.message.len() < 300, "{}", refused.message);
}

#[test]
fn a_hook_returning_the_wrong_type_is_refused_clearly() {
    let r = ruleset("tests/fixtures/hooks/wrong-type.yaml");
    let (mut game, mut hooks) = start(&r, "{}");
    let refused = step(&mut game, &mut hooks, "inf", (2, 3)).expect_err("wrong type");
    assert_eq!(refused.kind, RefusalKind::HookFailed);
    assert!(
        refused.message.contains("returned table"),
        "{}",
        refused.message
    );
}

fn end_phase(game: &mut Game, hooks: &mut LuaHooks) -> Vec<Event> {
    let (_, side) = game.phase().expect("phase");
    game.apply(
        &Order {
            side,
            action: Action::EndPhase,
        },
        hooks,
    )
    .expect("end phase")
}

#[test]
fn phase_hooks_roll_the_games_dice_and_every_roll_is_logged() {
    let r = ruleset("tests/fixtures/hooks/phase.yaml");
    let play = || {
        let (mut game, mut hooks) = start(&r, "{}");
        // Seven ends: the game starts in Blue's movement, and three more movement phases
        // begin before turn 3.
        for _ in 0..7 {
            end_phase(&mut game, &mut hooks);
        }
        game
    };
    let a = play();
    let rolls: Vec<&Event> = a
        .log()
        .iter()
        .filter(|e| matches!(e, Event::Rolled { roll } if roll.purpose == "march attrition"))
        .collect();
    // Game hooks read the game's settings through `rules` too, and may roll any dN die
    // (a d10 here, which the ruleset never declares).
    assert!(
        a.log()
            .iter()
            .any(|e| matches!(e, Event::Note { text } if text.starts_with("fog 2, sight "))),
        "{:?}",
        a.log()
    );
    assert!(a.log().iter().any(
        |e| matches!(e, Event::Rolled { roll } if roll.purpose == "fog" && roll.dice[0].die == "d10")
    ));
    // Four movement phases began (two turns × two sides, the first at game start).
    assert_eq!(rolls.len(), 4, "{:?}", a.log());
    assert!(
        a.log()
            .iter()
            .any(|e| matches!(e, Event::Note { text } if text.starts_with("attrition ")))
    );
    for e in &rolls {
        let Event::Rolled { roll } = e else { continue };
        assert_eq!(roll.purpose, "march attrition");
        assert_eq!(roll.dice.len(), 1);
    }
    // Same seed, same hooks, same log: hooks cannot break determinism.
    let b = play();
    assert_eq!(a.log(), b.log());
}

#[test]
fn a_scripted_action_acts_through_the_kernel() {
    let r = ruleset("tests/fixtures/hooks/phase.yaml");
    let text = BOARD.replace("SETTINGS", "{}").replace(
        "- { id: cav, side: blue, type: cavalry, at: [3, 5] }",
        "- { id: cav, side: blue, type: cavalry, at: [3, 5], counters: { hits: 2 } }\n  - { id: aide, side: blue, type: half_block, at: [3, 4] }",
    );
    let s = scenario_from_text("hooks.yaml", &text, &r).unwrap_or_else(|d| panic!("{d}"));
    let mut hooks = LuaHooks::new(&r, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let mut game = s
        .start(None, &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    // Reach Blue's fire phase (attrition may have added a hit at the start).
    while game
        .phase()
        .is_some_and(|(p, s)| !(p.name == "fire" && game.sides()[s.index()].name == "blue"))
    {
        end_phase(&mut game, &mut hooks);
    }
    let cav = game.piece_by_name("cav").expect("cav").id;
    let before = game.piece(cav).expect("cav").counters[0];
    let aide = game.piece_by_name("aide").expect("aide").id;
    let rally = game.rules().action_by_name("rally").expect("rally");
    let side = game.piece(aide).expect("aide").side;
    let events = game
        .apply(
            &Order {
                side,
                action: Action::Act {
                    piece: aide,
                    action: rally,
                    target: Some(cav),
                    intent: Vec::new(),
                },
            },
            &mut hooks,
        )
        .expect("rally");
    assert_eq!(
        game.piece(cav).expect("cav").counters[0],
        before - 1,
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Note { text } if text == "aide rallies cav")),
        "{events:?}"
    );
}

#[test]
fn a_hook_cannot_change_the_game_object_the_next_call_receives() {
    // Every hook of a sandbox receives the same `game` object; one that writes into it is
    // refused, so no call can leave it changed for the next.
    let r = ruleset("tests/fixtures/hooks/keeps-game.yaml");
    let (mut game, mut hooks) = start(&r, "{}");
    let before = game.state_bytes();
    let refused = step(&mut game, &mut hooks, "inf", (2, 3)).expect_err("read-only");
    assert_eq!(refused.kind, RefusalKind::HookFailed);
    assert!(
        refused.message.contains("keeps-game.lua:6")
            && refused.message.contains("the game object is read-only"),
        "{}",
        refused.message
    );
    assert_eq!(game.state_bytes(), before);
}

#[test]
fn a_phase_end_hook_is_logged_in_the_ending_phase_and_may_refuse_the_end() {
    let r = ruleset("tests/fixtures/hooks/phase-end.yaml");
    let (mut game, mut hooks) = start(&r, "{}");
    // The game starts in Blue's movement phase; ending it runs the hook before the fire
    // phase begins, so its roll and note are logged in the movement phase.
    let events = end_phase(&mut game, &mut hooks);
    let at = |want: &dyn Fn(&Event) -> bool| {
        events
            .iter()
            .position(want)
            .unwrap_or_else(|| panic!("{events:?}"))
    };
    let roll = at(&|e| matches!(e, Event::Rolled { roll } if roll.purpose == "stragglers"));
    let note =
        at(&|e| matches!(e, Event::Note { text } if text.starts_with("blue counts stragglers: ")));
    let began = at(&|e| matches!(e, Event::PhaseBegan { phase, .. } if phase == "fire"));
    assert!(roll < note && note < began, "{events:?}");
    // A refusal in the hook refuses the end_phase in its words, and changes nothing.
    let (mut game, mut hooks) = start(&r, "{ stubborn: 1 }");
    end_phase(&mut game, &mut hooks);
    let before = game.state_bytes();
    let (_, side) = game.phase().expect("phase");
    let refused = game
        .apply(
            &Order {
                side,
                action: Action::EndPhase,
            },
            &mut hooks,
        )
        .expect_err("stubborn");
    assert_eq!(
        refused.message,
        "the fire phase goes on until every musket has spoken"
    );
    assert_eq!(game.state_bytes(), before);
}

#[test]
fn a_move_cost_hook_may_refuse_a_step_in_the_rules_words() {
    let r = ruleset("tests/fixtures/hooks/ban-reason.yaml");
    let (mut game, mut hooks) = start(&r, "{}");
    // The woods at (2,1) are impassable: reach leaves them out, and a move there is
    // refused with the hook's words rather than the kernel's general ones.
    assert_eq!(reach_cost(&game, &mut hooks, "inf", (2, 1)), None);
    assert!(reach_cost(&game, &mut hooks, "inf", (1, 1)).is_some());
    let refused = step(&mut game, &mut hooks, "inf", (2, 1)).expect_err("flooded");
    assert_eq!(refused.kind, RefusalKind::Impassable);
    assert_eq!(
        refused.message,
        "the woods are flooded: no one may enter them this game"
    );
}
