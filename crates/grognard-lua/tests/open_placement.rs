//! Hook requests that put pieces at points of an open table (`game:place_at`) and the
//! open-table reads (`game:position`, `game:sight`, `game:can_stand`), driven through the
//! kernel with the fixture `tests/fixtures/hooks/place-open.yaml`. Every refusal leaves the
//! game unchanged.

mod common;

use common::notes;
use grognard_kernel::action::{Action, Event, Order, Refusal, RefusalKind};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::open::{Angle, Point};
use grognard_kernel::piece::Place;
use grognard_lua::LuaHooks;

// A wood (blocks sight) lies between `a` and `f2`; a marsh (impassable to foot) in the
// south-west corner.
const TABLE: &str = r#"
scenario: place-open
ruleset: drill-open
seed: 7
settings: { to_x: X, to_y: Y, to_facing: F }
board:
  width: 48
  height: 36
  areas:
    - { name: the wood, terrain: wood, corners: [[24, 18], [30, 18], [30, 24], [24, 24]] }
    - { name: the marsh, terrain: marsh, corners: [[0, 30], [8, 30], [8, 36], [0, 36]] }
sides: { blue: {}, red: {} }
pieces:
  - { id: a, side: blue, type: infantry, at: [10, 10], facing: 0 }
  - { id: foe, side: red, type: infantry, at: [20, 10], facing: 180 }
  - { id: f2, side: red, type: infantry, at: [40, 30], facing: 180 }
"#;

fn start(x: i32, y: i32, facing: i32) -> (Game, LuaHooks) {
    let text = TABLE
        .replace('X', &x.to_string())
        .replace('Y', &y.to_string())
        .replace('F', &facing.to_string());
    common::start(
        "tests/fixtures/hooks/place-open.yaml",
        "place-open.yaml",
        &text,
    )
}

fn order(game: &Game, action: &str, target: &str) -> Order {
    order_for(game, action, target, &[])
}

/// [`order`] given for `intent`.
fn order_for(game: &Game, action: &str, target: &str, intent: &[&str]) -> Order {
    let piece = game.piece_by_name("a").expect("a").id;
    Order {
        side: game.piece(piece).expect("a").side,
        action: Action::Act {
            piece,
            action: game.rules().action_by_name(action).expect("action"),
            target: Some(game.piece_by_name(target).expect("target").id),
            intent: intent.iter().map(|i| (*i).to_owned()).collect(),
        },
    }
}

fn act(
    game: &mut Game,
    hooks: &mut LuaHooks,
    action: &str,
    target: &str,
) -> Result<Vec<Event>, Refusal> {
    let o = order(game, action, target);
    game.apply(&o, hooks)
}

fn place_of(game: &Game, name: &str) -> Place {
    game.piece_by_name(name).expect("piece").place.clone()
}

fn refused_unchanged(x: i32, y: i32, why: &str) {
    refused_unchanged_facing(x, y, -1, why);
}

/// [`refused_unchanged`] with the target turned to `facing` degrees (-1: as it faces).
fn refused_unchanged_facing(x: i32, y: i32, facing: i32, why: &str) {
    let (mut game, mut hooks) = start(x, y, facing);
    let o = order(&game, "push", "foe");
    common::refused_unchanged(&mut game, &mut hooks, &o, why);
}

#[test]
fn place_at_puts_a_piece_at_a_point_turns_it_and_logs_it() {
    let (mut game, mut hooks) = start(20, 20, 90);
    let events = act(&mut game, &mut hooks, "push", "foe").expect("push");
    let foe = game.piece_by_name("foe").expect("foe").id;
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::PlacedOnTable { piece, from, to, reason }
                if *piece == foe && *from == Point::inches(20, 10) && *to == Point::inches(20, 20)
                    && reason == "pushed"
        )),
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Faced { piece, .. } if *piece == foe))
    );
    assert_eq!(
        place_of(&game, "foe"),
        Place::Point {
            at: Point::inches(20, 20),
            facing: Angle::degrees(90)
        }
    );
}

#[test]
fn place_at_without_a_facing_keeps_it_and_the_enemy_log_shows_a_move() {
    let (mut game, mut hooks) = start(30, 12, -1);
    act(&mut game, &mut hooks, "push", "foe").expect("push");
    assert_eq!(
        place_of(&game, "foe"),
        Place::Point {
            at: Point::inches(30, 12),
            facing: Angle::degrees(180)
        }
    );
    // The owner's log has the placement; without sighting rules blue sees red's piece go.
    let red = game.side_by_name("red").expect("red");
    let blue = game.side_by_name("blue").expect("blue");
    assert!(
        game.events_for(red)
            .iter()
            .any(|e| matches!(e, Event::PlacedOnTable { .. }))
    );
    assert!(
        game.events_for(blue)
            .iter()
            .any(|e| matches!(e, Event::PlacedOnTable { .. } | Event::EnemyMoved { .. })),
        "{:?}",
        game.events_for(blue)
    );
}

#[test]
fn place_at_is_refused_off_the_table() {
    refused_unchanged(60, 20, "off the table");
}

#[test]
fn place_at_is_refused_in_terrain_the_piece_may_not_enter() {
    refused_unchanged(4, 33, "may not stand in marsh");
}

#[test]
fn place_at_keeps_the_keep_apart_distance_from_the_enemy() {
    // 1" from `a`, inside the 2" keep-apart.
    refused_unchanged(11, 10, "may not come within 2\" of a");
}

#[test]
fn place_at_keeps_bases_on_the_table_and_off_others_as_they_will_face() {
    // foe: four 40 x 20 mm bases, 6.30" x 0.79". Facing west, at (20, 2), they run north
    // and south of it 3.15": off the table; turned to face south there they fit.
    refused_unchanged(20, 2, "foe's bases would leave the table (a corner at");
    let (mut game, mut hooks) = start(20, 2, 90);
    act(&mut game, &mut hooks, "push", "foe").expect("turned, it fits");
    // At (12, 10) facing south its line crosses a's (x 9.61-10.39, y 6.85-13.15).
    refused_unchanged_facing(12, 10, 90, "foe's bases would overlap a's");
}

#[test]
fn arc_from_and_distance_from_measure_footprints_as_they_would_stand() {
    let (mut game, mut hooks) = start(30, 12, -1);
    let events = act(&mut game, &mut hooks, "measure", "foe").expect("measure");
    let n = notes(&events);
    for expect in [
        // a at (10, 10): foe, 10" east, lies ahead facing east, behind facing west.
        "arc east front",
        "arc west rear",
        // foe standing at (10, 20) facing east: its bases (y 16.85-23.15) lie beside a's
        // (y 6.85-13.15), off both the front and the rear region: a flank.
        "arc of (10, 20) flank",
        // Front edge to front edge: 10" less half of each line's 0.787" depth (0.394",
        // the half rounded to the thou).
        "distance 9.212",
        "distance to (14, 10) 3.212",
    ] {
        assert!(n.contains(&expect.to_owned()), "{expect}: {n:?}");
    }
}

#[test]
fn contact_puts_a_piece_front_to_front_with_another() {
    // a faces east at (10, 10); foe, 10" east, is put against a's front edge (x 10.39),
    // facing west into it, lined up with where it stood (y 10).
    let (mut game, mut hooks) = start(30, 12, -1);
    act(&mut game, &mut hooks, "meet", "foe").expect("meet");
    let Place::Point { at, facing } = place_of(&game, "foe") else {
        panic!("foe is on the table");
    };
    assert_eq!(facing, Angle::degrees(180));
    assert_eq!(at.y.0, 10_000);
    let a = game.placed(game.piece_by_name("a").expect("a")).expect("a");
    let foe = game
        .placed(game.piece_by_name("foe").expect("foe"))
        .expect("foe");
    assert_eq!(a.distance(&foe).0, 0, "touching");
    assert!(!a.overlaps(&foe), "not overlapping");
}

#[test]
fn position_sight_and_can_stand_read_the_table() {
    let (mut game, mut hooks) = start(4, 33, -1);
    let events = act(&mut game, &mut hooks, "probe", "foe").expect("probe");
    let n = notes(&events);
    assert!(
        n.contains(&"position 20.000 10.000 180.0".to_owned()),
        "{n:?}"
    );
    assert!(n.contains(&"sight true".to_owned()), "{n:?}");
    assert!(
        n.iter()
            .any(|t| t.starts_with("stand ") && t.contains("marsh")),
        "{n:?}"
    );
    // The wood hides f2 from a.
    let events = act(&mut game, &mut hooks, "probe", "f2").expect("probe");
    let n = notes(&events);
    assert!(n.contains(&"sight false".to_owned()), "{n:?}");
    // A free point: nothing stops it.
    let (mut game, mut hooks) = start(30, 12, -1);
    let events = act(&mut game, &mut hooks, "probe", "foe").expect("probe");
    assert!(
        notes(&events).contains(&"stand nil".to_owned()),
        "{events:?}"
    );
}

fn move_a(game: &mut Game, hooks: &mut LuaHooks, x: i64, y: i64) -> Result<Vec<Event>, Refusal> {
    let piece = game.piece_by_name("a").expect("a").id;
    let o = Order {
        side: game.piece(piece).expect("a").side,
        action: Action::MoveTo {
            piece,
            to: Point::inches(x, y),
            facing: None,
        },
    };
    game.apply(&o, hooks)
}

#[test]
fn the_moved_hook_sees_open_table_moves_and_may_refuse_them() {
    let (mut game, mut hooks) = start(30, 12, -1);
    let before = game.state_bytes();
    let r = move_a(&mut game, &mut hooks, 16, 10).expect_err("refused");
    assert_eq!(r.kind, RefusalKind::HookFailed, "{r:?}");
    assert!(r.message.contains("no moves east of x 15"), "{}", r.message);
    assert_eq!(
        game.state_bytes(),
        before,
        "a refused move changed the game"
    );
    // `a` faces east (0°): straight back west is its rear; the hook is told where it
    // started and how it faced.
    let events = move_a(&mut game, &mut hooks, 4, 10).expect("west");
    assert!(
        notes(&events).contains(&"moved 10.0,10.0 -> 4.0,10.0 facing 0.0 rear".to_owned()),
        "{events:?}"
    );
}

#[test]
fn phase_start_and_intent_read_where_a_piece_began_and_what_the_action_is_for() {
    // `foe` is pushed away; `game:phase_start` still gives where it stood (and faced) as the
    // phase began, while `game:position` follows it.
    let (mut game, mut hooks) = start(30, 12, 90);
    act(&mut game, &mut hooks, "push", "foe").expect("push");
    let o = order_for(&game, "probe", "foe", &["look", "listen"]);
    let events = game.apply(&o, &mut hooks).expect("probe");
    let n = notes(&events);
    assert!(
        n.contains(&"position 30.000 12.000 90.0".to_owned()),
        "{n:?}"
    );
    assert!(
        n.contains(&"phase start 20.000 10.000 180.0".to_owned()),
        "{n:?}"
    );
    assert!(n.contains(&"intent look,listen".to_owned()), "{n:?}");
    // Without an intent the list is empty; one the action does not declare is refused
    // before anything happens.
    let events = act(&mut game, &mut hooks, "probe", "foe").expect("probe");
    assert!(notes(&events).contains(&"intent ".to_owned()), "{events:?}");
    let before = game.state().clone();
    let o = order_for(&game, "probe", "foe", &["shout"]);
    let refusal = game.apply(&o, &mut hooks).expect_err("undeclared intent");
    assert_eq!(refusal.kind, RefusalKind::BadTarget);
    assert!(
        refusal.message.contains("may be for look, listen"),
        "{}",
        refusal.message
    );
    assert_eq!(game.state(), &before);
    // The next phase (blue's of turn 2) starts where the pieces now stand.
    let side = game.piece_by_name("a").expect("a").side;
    while game.state().turn < 2 || game.phase().is_some_and(|(_, p)| p != side) {
        let (_, phasing) = game.phase().expect("game goes on");
        let end = Order {
            side: phasing,
            action: Action::EndPhase,
        };
        game.apply(&end, &mut hooks).expect("end phase");
    }
    let events = act(&mut game, &mut hooks, "probe", "foe").expect("probe");
    assert!(
        notes(&events).contains(&"phase start 30.000 12.000 90.0".to_owned()),
        "{events:?}"
    );
}

fn change_mode(game: &mut Game, hooks: &mut LuaHooks, mode: &str) -> Result<Vec<Event>, Refusal> {
    let piece = game.piece_by_name("a").expect("a").id;
    let m = game
        .rules()
        .modes
        .iter()
        .position(|m| m.name == mode)
        .expect("mode");
    let o = Order {
        side: game.piece(piece).expect("a").side,
        action: Action::Mode {
            piece,
            mode: grognard_kernel::ids::ModeId(m as u16),
        },
    };
    game.apply(&o, hooks)
}

#[test]
fn mode_changed_hook_sees_both_modes_and_may_refuse() {
    // The hook runs after a `mode` order, seeing the new mode and given the old one.
    let (mut game, mut hooks) = start(30, 30, -1);
    let events = change_mode(&mut game, &mut hooks, "column").expect("column");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Note { text } if text == "mode line -> column")),
        "{events:?}"
    );
    assert!(
        events.iter().any(
            |e| matches!(e, Event::ModeChanged { from, to, .. } if from == "line" && to == "column")
        ),
        "{events:?}"
    );
    change_mode(&mut game, &mut hooks, "line").expect("back to line");
    // A failing hook refuses the change, and nothing of it happens.
    let (mut game, mut hooks) = start(0, 30, -1);
    let before = game.state().clone();
    let refusal = change_mode(&mut game, &mut hooks, "column").expect_err("refused");
    assert_eq!(refusal.kind, RefusalKind::HookFailed);
    assert!(
        refusal.message.contains("no column while to_x is 0"),
        "{}",
        refusal.message
    );
    assert_eq!(game.state(), &before);
    let a = game.piece_by_name("a").expect("a");
    assert_eq!(game.rules().mode_name(a.mode), "line");
}

#[test]
fn can_stand_all_judges_placements_in_turn_each_after_the_ones_before() {
    // a and b each fit turned to face south where they stand; turned both, their lines
    // (6.30" by 0.79") cross, whichever turns first.
    let text = TABLE
        .replace("settings: { to_x: X, to_y: Y, to_facing: F }\n", "")
        .replace("ruleset: drill-open", "ruleset: drill-open-stand-all-test")
        .replace(
            "  - { id: foe, side: red, type: infantry, at: [20, 10], facing: 180 }\n",
            "  - { id: b, side: blue, type: infantry, at: [15, 10.5], facing: 0 }\n",
        );
    let (mut game, mut hooks) = common::start(
        "tests/fixtures/hooks/stand-all.yaml",
        "stand-all.yaml",
        &text,
    );
    let events = act(&mut game, &mut hooks, "stand_all", "f2").expect("noted");
    assert_eq!(
        notes(&events),
        [
            "a alone nil",
            "b alone nil",
            "a as it faces nil",
            "together b's bases would overlap a's",
            "b first a's bases would overlap b's",
            "none nil",
        ]
    );
}
