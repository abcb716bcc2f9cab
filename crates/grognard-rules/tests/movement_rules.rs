//! Movement, stacking, zones of control and actions through the public API, on the drill
//! rulesets (which borrow the source rules' numbers). Each test cites the rule it mirrors.

use std::path::PathBuf;

use grognard_kernel::action::{Action, Event, Order, RefusalKind};
use grognard_kernel::game::{Game, Reach};
use grognard_kernel::geometry::Cell;
use grognard_kernel::geometry::open::{Len, Point};
use grognard_kernel::hooks::NoHooks;
use grognard_rules::load::{Ruleset, load_ruleset, scenario_from_text};

fn ruleset(name: &str) -> Ruleset {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../rulesets/{name}.yaml"));
    load_ruleset(&path).unwrap_or_else(|d| panic!("{d}"))
}

fn game(rules: &str, scenario: &str) -> Game {
    let r = ruleset(rules);
    let s = scenario_from_text("test.yaml", scenario, &r).unwrap_or_else(|d| panic!("{d}"));
    s.start(None, &[], &mut NoHooks)
        .unwrap_or_else(|d| panic!("{d}"))
}

fn order(game: &Game, side: &str, action: Action) -> Order {
    Order {
        side: game.side_by_name(side).expect("side"),
        action,
    }
}

fn piece(game: &Game, name: &str) -> grognard_kernel::ids::PieceId {
    game.piece_by_name(name).expect("piece").id
}

fn mv(
    game: &mut Game,
    side: &str,
    who: &str,
    path: &[(i32, i32)],
) -> Result<Vec<Event>, grognard_kernel::action::Refusal> {
    let action = Action::Move {
        piece: piece(game, who),
        path: path.iter().map(|(c, r)| Cell::new(*c, *r)).collect(),
    };
    let o = order(game, side, action);
    game.apply(&o, &mut NoHooks)
}

/// Ends phases (for whoever is acting) until `side` is phasing in `phase`. The hex drill
/// rolls initiative each turn, so tests must not assume which side goes first.
fn until_phase(game: &mut Game, side: &str, phase: &str) {
    for _ in 0..64 {
        let Some((current, phasing)) = game.phase() else {
            panic!("game over before {side}'s {phase} phase");
        };
        let phasing_name = game.sides()[phasing.index()].name.clone();
        if current.name == phase && phasing_name == side {
            return;
        }
        let o = Order {
            side: phasing,
            action: Action::EndPhase,
        };
        game.apply(&o, &mut NoHooks).expect("end phase");
    }
    panic!("never reached {side}'s {phase} phase");
}

fn moved_cost(events: &[Event]) -> String {
    events
        .iter()
        .find_map(|e| match e {
            Event::Moved { cost, .. } => Some(cost.to_string()),
            _ => None,
        })
        .unwrap_or_default()
}

const WOODS: &str = r#"
scenario: woods
ruleset: drill-square
board:
  cols: 5
  rows: 5
  legend: { ".": clear, W: medium_woods, H: heavy_woods }
  map: |
    . . . . .
    . W . H .
    . . . . .
    . . . . .
    . . . . .
sides: { blue: {}, red: {} }
pieces:
  - { id: a, side: blue, type: infantry, at: [1, 2] }
  - { id: b, side: blue, type: infantry, at: [2, 2] }
  - { id: far, side: red, type: infantry, at: [4, 4] }
"#;

#[test]
fn strategic_infantry_enters_medium_woods_orthogonally_but_not_diagonally() {
    // 000 rules 7–8 and the terrain table: 1 mp + ½ for medium woods = 1½ = the
    // strategic allowance; diagonally it is 1½ + ½ = 2, too much in one phase.
    let mut g = game("drill-square", WOODS);
    let events = mv(&mut g, "blue", "a", &[(1, 1)]).expect("orthogonal into woods");
    assert_eq!(moved_cost(&events), "1½");
    let refused = mv(&mut g, "blue", "b", &[(1, 1)]).expect_err("diagonal into woods");
    assert_eq!(refused.kind, RefusalKind::TooFar);
    assert!(refused.message.contains("costs 2"), "{}", refused.message);
}

#[test]
fn heavy_woods_are_closed() {
    // 000 terrain table: "Enter heavy woods square: not allowed".
    let mut g = game("drill-square", WOODS);
    let refused = mv(&mut g, "blue", "b", &[(3, 1)]).expect_err("heavy woods");
    assert_eq!(refused.kind, RefusalKind::Impassable);
    assert!(
        refused.message.contains("heavy_woods"),
        "{}",
        refused.message
    );
}

const RIVER: &str = r#"
scenario: river
ruleset: drill-square
board:
  cols: 4
  rows: 4
  features:
    - feature: river
      between: [[[0, 1], [0, 2]], [[1, 1], [1, 2]], [[2, 1], [2, 2]], [[3, 1], [3, 2]]]
    - feature: bridge
      between: [[[2, 1], [2, 2]]]
    - feature: river
      between: [[[1, 3], [2, 3]]]
sides: { blue: {}, red: {} }
pieces:
  - { id: a, side: blue, type: infantry, at: [1, 2] }
  - { id: b, side: blue, type: infantry, at: [2, 2] }
  - { id: d, side: blue, type: cavalry, at: [1, 3] }
  - { id: far, side: red, type: infantry, at: [3, 0] }
"#;

#[test]
fn rivers_are_crossed_only_at_bridges() {
    // 000 terrain table: "Cross river or other impassable terrain: not allowed" — except at
    // fords and bridges.
    let mut g = game("drill-square", RIVER);
    let refused = mv(&mut g, "blue", "a", &[(1, 1)]).expect_err("river");
    assert_eq!(refused.kind, RefusalKind::Impassable);
    assert!(refused.message.contains("river"), "{}", refused.message);
    assert!(mv(&mut g, "blue", "b", &[(2, 1)]).is_ok(), "bridge");
}

#[test]
fn a_diagonal_step_cannot_slip_through_a_river_corner() {
    // The river runs straight along row 1/2: a diagonal from (1,2) to (2,1) passes through
    // a corner on that line, so it crosses the river (and there is no bridge on its edges).
    let mut g = game("drill-square", RIVER);
    let refused = mv(&mut g, "blue", "a", &[(0, 1)]).expect_err("diagonal across the river");
    assert_eq!(refused.kind, RefusalKind::Impassable);
    // A river edge that only ends at the corner does not block: (1,3)–(2,3) is one edge,
    // and the diagonal (1,3) → (2,2) can go round it through (1,2).
    assert!(mv(&mut g, "blue", "d", &[(2, 2)]).is_ok());
}

const STACKS: &str = r#"
scenario: stacks
ruleset: drill-square
board: { cols: 4, rows: 4 }
sides: { blue: {}, red: {} }
pieces:
  - { id: a, side: blue, type: infantry, at: [1, 1] }
  - { id: b, side: blue, type: infantry, at: [1, 1] }
  - { id: h, side: blue, type: half_block, at: [2, 1] }
  - { id: c, side: blue, type: infantry, at: [0, 1] }
  - { id: road, side: blue, type: infantry, at: [3, 3], mode: road }
  - { id: e, side: blue, type: infantry, at: [3, 2] }
  - { id: far, side: red, type: infantry, at: [3, 0] }
"#;

#[test]
fn no_more_than_two_and_a_half_blocks_in_a_square() {
    // 000 rule 13: at most 2½ blocks in a square, a half block counts ½, and no move may
    // exceed it.
    let mut g = game("drill-square", STACKS);
    assert!(mv(&mut g, "blue", "h", &[(1, 1)]).is_ok(), "2 + ½ fits");
    let refused = mv(&mut g, "blue", "c", &[(1, 1)]).expect_err("3½ does not");
    assert_eq!(refused.kind, RefusalKind::Occupied);
    assert!(
        refused.message.contains("over the limit of 2½"),
        "{}",
        refused.message
    );
}

#[test]
fn road_columns_cannot_stack() {
    // 001 [6.98]: command markers using road mode cannot stack.
    let mut g = game("drill-square", STACKS);
    let refused = mv(&mut g, "blue", "e", &[(3, 3)]).expect_err("onto a road column");
    assert_eq!(refused.kind, RefusalKind::Occupied);
    assert!(refused.message.contains("road mode"), "{}", refused.message);
}

#[test]
fn a_refused_order_changes_nothing_and_orders_outside_their_phase_are_refused() {
    let mut g = game("drill-square", STACKS);
    let before = g.state_bytes();
    let log = g.log().len();
    let far = piece(&g, "far");
    let o = order(
        &g,
        "red",
        Action::Move {
            piece: far,
            path: vec![Cell::new(2, 0)],
        },
    );
    let refused = g
        .apply(&o, &mut NoHooks)
        .expect_err("red moves in blue's phase");
    assert_eq!(refused.kind, RefusalKind::OutOfPhase);
    let refused = mv(&mut g, "blue", "c", &[(1, 1)]).expect_err("over-stacked");
    assert_eq!(refused.kind, RefusalKind::Occupied);
    assert_eq!(g.state_bytes(), before);
    assert_eq!(g.log().len(), log);
    // Moving twice in one phase is refused too.
    assert!(mv(&mut g, "blue", "e", &[(2, 2)]).is_ok());
    assert_eq!(
        mv(&mut g, "blue", "e", &[(1, 2)]).expect_err("twice").kind,
        RefusalKind::AlreadyUsed
    );
}

const HEX: &str = r#"
scenario: zoc
ruleset: drill-hex
board: { cols: 8, rows: 8 }
sides: { blue: {}, red: {} }
pieces:
  - { id: cav, side: blue, type: cavalry, at: [4, 6], facing: NE }
  - { id: foe, side: red, type: infantry, at: [4, 2], facing: SE }
"#;

fn reach_cells(g: &Game, who: &str) -> Vec<(Cell, String)> {
    match g.reach(piece(g, who), &mut NoHooks).expect("reach") {
        Reach::Cells(c) => c
            .into_iter()
            .map(|r| (r.cell, r.cost.to_string()))
            .collect(),
        Reach::Radius(_) => Vec::new(),
    }
}

#[test]
fn the_three_front_hexes_stop_movement_until_the_unit_takes_a_hit() {
    // 004 §5.2: a unit's zone of control is its three front hexes; entering stops the move;
    // any hit removes the zone.
    let mut g = game("drill-hex", HEX);
    until_phase(&mut g, "blue", "movement");
    let reach = reach_cells(&g, "cav");
    // (4,3) is foe's SE front hex: reachable, but nothing beyond it through it.
    assert!(reach.iter().any(|(c, _)| *c == Cell::new(4, 3)));
    let mut g2 = g.clone();
    let refused = mv(&mut g2, "blue", "cav", &[(4, 5), (4, 4), (4, 3), (5, 3)])
        .expect_err("through the zone");
    assert_eq!(refused.kind, RefusalKind::MustStop);
    let hit = HEX.replace("facing: SE }", "facing: SE, counters: { hits: 1 } }");
    let mut g3 = game("drill-hex", &hit);
    until_phase(&mut g3, "blue", "movement");
    assert!(mv(&mut g3, "blue", "cav", &[(4, 5), (4, 4), (4, 3), (5, 3)]).is_ok());
}

#[test]
fn an_adjacent_target_is_hit_automatically_and_three_hits_rout() {
    // 004 charts: the neighbouring hex is an automatic hit; §7 m): the third hit routs.
    let text = r#"
scenario: rout
ruleset: drill-hex
board: { cols: 6, rows: 6 }
sides: { blue: {}, red: {} }
pieces:
  - { id: gun, side: blue, type: infantry, at: [2, 3], facing: NE }
  - { id: foe, side: red, type: infantry, at: [3, 2], facing: SW, counters: { hits: 2 } }
"#;
    let mut g = game("drill-hex", text);
    until_phase(&mut g, "blue", "fire");
    let fire = g.rules().action_by_name("fire").expect("fire");
    let o = order(
        &g,
        "blue",
        Action::Act {
            piece: piece(&g, "gun"),
            action: fire,
            target: Some(piece(&g, "foe")),
            intent: Vec::new(),
        },
    );
    let events = g.apply(&o, &mut NoHooks).expect("fire");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::FlagChanged { flag, on: true, .. } if flag == "routed")),
        "{events:?}"
    );
    // Firing twice in a phase is barred by the `fired` mark.
    assert_eq!(
        g.apply(&o, &mut NoHooks).expect_err("again").kind,
        RefusalKind::AlreadyUsed
    );
}

#[test]
fn volleys_need_range_front_arc_and_a_clear_line() {
    let text = r#"
scenario: volley
ruleset: drill-square
board:
  cols: 6
  rows: 6
  legend: { ".": clear, W: medium_woods }
  map: |
    . . . . . .
    . . . . . .
    . . W . . .
    . . . . . .
    . . . . . .
    . . . . . .
sides: { blue: {}, red: {} }
pieces:
  - { id: shooter, side: blue, type: infantry, at: [2, 3], facing: N }
  - { id: behind_wood, side: red, type: infantry, at: [2, 1] }
  - { id: behind_me, side: red, type: infantry, at: [2, 5] }
  - { id: too_far, side: red, type: infantry, at: [5, 0] }
  - { id: clear, side: red, type: infantry, at: [3, 2] }
"#;
    let mut g = game("drill-square", text);
    let end = order(&g, "blue", Action::EndPhase);
    g.apply(&end, &mut NoHooks).expect("end movement");
    let volley = g.rules().action_by_name("volley").expect("volley");
    let shoot = |g: &mut Game, target: &str| {
        let o = order(
            g,
            "blue",
            Action::Act {
                piece: piece(g, "shooter"),
                action: volley,
                target: Some(piece(g, target)),
                intent: Vec::new(),
            },
        );
        g.apply(&o, &mut NoHooks)
    };
    let r = shoot(&mut g, "too_far").expect_err("range");
    assert!(r.message.contains("reaches 1 to 2"), "{}", r.message);
    let r = shoot(&mut g, "behind_me").expect_err("arc");
    assert!(
        r.message.contains("rear arc; volley needs the front arc"),
        "{}",
        r.message
    );
    let r = shoot(&mut g, "behind_wood").expect_err("sight");
    assert!(r.message.contains("cannot see"), "{}", r.message);
    assert!(shoot(&mut g, "clear").is_ok());
}

#[test]
fn open_table_moves_pay_for_woods_and_cannot_cross_a_marsh() {
    let text = r#"
scenario: open
ruleset: drill-open
board:
  width: 48"
  height: 36"
  areas:
    - { name: Wood, terrain: wood, corners: [[10, 10], [14, 10], [14, 30], [10, 30]] }
    - { name: Fen, terrain: marsh, corners: [[30, 10], [34, 10], [34, 30], [30, 30]] }
sides: { blue: {}, red: {} }
pieces:
  - { id: foot, side: blue, type: infantry, at: [5, 20], facing: 0 }
  - { id: horse, side: blue, type: cavalry, at: [25, 20], facing: 0 }
  - { id: far, side: red, type: infantry, at: [40, 5] }
"#;
    let mut g = game("drill-open", text);
    let to = |x: i64, y: i64| Point {
        x: Len::inches(x),
        y: Len::inches(y),
    };
    // 5" → 13": 8" of move plus 3" for the wood = 11", inside the 12" allowance.
    let o = order(
        &g,
        "blue",
        Action::MoveTo {
            piece: piece(&g, "foot"),
            to: to(13, 20),
            facing: None,
        },
    );
    let events = g.apply(&o, &mut NoHooks).expect("through the wood");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::MovedOnTable { cost, .. } if cost.to_string() == "11")),
        "{events:?}"
    );
    let o = order(
        &g,
        "blue",
        Action::MoveTo {
            piece: piece(&g, "horse"),
            to: to(36, 20),
            facing: None,
        },
    );
    let refused = g.apply(&o, &mut NoHooks).expect_err("marsh");
    assert_eq!(refused.kind, RefusalKind::Impassable);
    assert!(refused.message.contains("Fen"), "{}", refused.message);
}

#[test]
fn initiative_is_rolled_each_turn_and_the_higher_roll_goes_first() {
    // 004 sequence of play: both players roll; the winner is the phasing player A.
    for seed in 0..20u64 {
        let text = HEX.replace("scenario: zoc", &format!("scenario: zoc\nseed: {seed}"));
        let g = game("drill-hex", &text);
        let Some(Event::Initiative { rolls, order, turn }) = g.log().first().cloned() else {
            panic!("the first event is the initiative roll: {:?}", g.log());
        };
        assert_eq!(turn, 1);
        // Each side's first roll, in scenario order; ties add more rolls after them.
        let first = |side: &str| {
            rolls
                .iter()
                .find(|r| r.0 == side)
                .map(|r| r.2)
                .expect("rolled")
        };
        let (blue, red) = (first("blue"), first("red"));
        if blue != red {
            let winner = if blue > red { "blue" } else { "red" };
            assert_eq!(order[0], winner, "seed {seed}: {rolls:?}");
        } else {
            assert!(rolls.len() > 2, "seed {seed}: a tie rolls again: {rolls:?}");
        }
        let (_, phasing) = g.phase().expect("phase");
        assert_eq!(g.sides()[phasing.index()].name, order[0]);
    }
}

#[test]
fn a_trained_firer_needs_one_band_less() {
    // 004 charts: "Trained/Repeater: +1 CB" — one band toward automatic.
    let r = ruleset("drill-hex");
    let chart = r
        .rules
        .chart(r.rules.chart_by_name("fire").expect("fire"))
        .expect("chart");
    let input = |name: &str| {
        chart
            .inputs
            .iter()
            .position(|i| i.name == name)
            .expect(name)
    };
    let hit = chart.outcomes.iter().position(|o| o == "hit").expect("hit");
    let at_two = chart.input_values(&[(input("band"), 1)]);
    let trained = chart.input_values(&[(input("band"), 1), (input("trained"), 1)]);
    assert_eq!(
        chart.odds(&r.rules.dice, &at_two)[hit],
        grognard_kernel::Ratio::new(1, 2)
    );
    assert_eq!(
        chart.odds(&r.rules.dice, &trained)[hit],
        grognard_kernel::Ratio::ONE
    );
}
