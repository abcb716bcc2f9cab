//! Bases on an open table under sighting rules (issue 35, finding 6): a move whose bases
//! would overlap an enemy unit is refused in the words the mover's side reads that unit
//! by (its handle, when it knows where the unit is but not who), and a move into a unit
//! the side has not sighted is not refused at all — as a grid move into unseen enemies,
//! it ends in contact (here where it started, its move spent), so the answer tells no
//! more than a real table would and is no free probe. A mode change and a charge that would
//! overlap such a unit end the same way (spent, the unit where it stood); a scenario's
//! bases over a unit are named for its author, whatever the sides know.

use grognard_kernel::action::{Action, Event, Order};
use grognard_kernel::geometry::open::Point;
use grognard_kernel::hooks::NoHooks;
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::piece::Place;
use grognard_rules::load::load_scenario;

/// Units on one 6" × 4" base; a side places enemies within 12" (edge to edge) and knows
/// who they are only within 1".
const RULESET: &str = "\
ruleset: unseen-bases
geometry: { kind: open }
modes: { line: {} }
terrain: { open: {} }
movement: { foot: {} }
piece_types:
  infantry:
    movement: foot
    allowance: { line: 30 }
    footprint: { width: 6, depth: 4, bases: 1 }
sighting:
  levels:
    near: { discloses: [position, identity] }
    far: { discloses: [position] }
  charts:
    eyes:
      range:
        - { within: 1, level: near }
        - { within: 12, level: far }
  observers:
    - { chart: eyes }
sequence:
  side_turn: [ { phase: move, allows: [move] } ]
";

/// `a` faces north; `s` stands 4\" in front of it, edge to edge (placed, not known);
/// `h` stands 20\" east and 20\" north, out of sight.
const SCENARIO: &str = "\
scenario: unseen-bases
ruleset: r.yaml
seed: 1
board: { width: 48\", height: 48\" }
sides:
  blue: { baseline: south }
  red: { baseline: north }
pieces:
  - { id: a, side: blue, type: infantry, at: [10, 40], facing: 270 }
  - { id: s, side: red, type: infantry, at: [10, 32], facing: 90 }
  - { id: h, side: red, type: infantry, at: [30, 20], facing: 90 }
";

fn in_folder<R>(f: impl FnOnce(&std::path::Path) -> R) -> R {
    let dir = std::env::temp_dir().join(format!("grognard-unseen-bases-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("r.yaml"), RULESET).expect("write");
    std::fs::write(dir.join("s.yaml"), SCENARIO).expect("write");
    let out = f(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn move_to(x: i64, y: i64) -> Order {
    Order {
        side: SideId(0),
        action: Action::MoveTo {
            piece: PieceId(0),
            to: Point::inches(x, y),
            facing: None,
        },
    }
}

#[test]
fn bases_overlapping_an_enemy_name_it_as_the_side_knows_it_and_an_unseen_one_is_contact() {
    in_folder(|dir| {
        let scenario = load_scenario(&dir.join("s.yaml"), None).unwrap_or_else(|e| panic!("{e}"));
        let game = scenario
            .start(Some(1), &[], &mut NoHooks)
            .unwrap_or_else(|e| panic!("{e}"));
        let (a, s, h) = (PieceId(0), PieceId(1), PieceId(2));
        let blue = game.state().knowledge.first().expect("blue's knowledge");
        assert!(blue.knows_position(s) && !blue.knows_identity(s));
        assert!(!blue.knows_position(h));

        // 5" forward: a's front edge (y 33) is 1" into s's bases (y 30–34). Blue knows a
        // unit stands there, not which: it reads it by its handle, never as `s`.
        let mut g = game.clone();
        let refusal = g
            .apply(&move_to(10, 35), &mut NoHooks)
            .expect_err("an overlap with a unit the side can see is refused");
        assert_eq!(refusal.message, "a's bases would overlap enemy #1's");

        // Onto h, which blue has not sighted: no refusal (it would say a unit is there,
        // for nothing). The move runs into it and stops where a stood, its move spent.
        let mut g = game.clone();
        let events = g
            .apply(&move_to(30, 22), &mut NoHooks)
            .unwrap_or_else(|e| panic!("{}", e.message));
        let piece = &g.state().pieces[a.index()];
        assert!(
            matches!(piece.place, Place::Point { at, .. } if at == Point::inches(10, 40)),
            "{:?}",
            piece.place
        );
        assert_eq!(piece.place, game.state().pieces[a.index()].place);
        assert!(piece.moved);
        assert!(
            events.iter().any(|e| matches!(e, Event::Note { text }
                if text == "a came into contact with the enemy and stopped")),
            "{events:?}"
        );
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::MovedOnTable { .. })),
            "{events:?}"
        );
        let again = g
            .apply(&move_to(10, 38), &mut NoHooks)
            .expect_err("its move is spent");
        assert!(again.message.contains("already moved"), "{}", again.message);
    });
}

/// The same bases with a column (2" × 12", reshaped about the front edge) and a charge;
/// a `hidden` unit is concealed: no band finds it, so its side's enemy never sights it.
const RULESET_ORDERS: &str = "\
ruleset: unseen-bases-orders
geometry: { kind: open }
modes: { line: {}, column: {} }
flags: { hidden: {} }
terrain: { open: {} }
movement: { foot: {} }
piece_types:
  infantry:
    movement: foot
    allowance: { line: 30, column: 30 }
    footprint: { width: 6, depth: 4, bases: 1, modes: { column: { width: 2, depth: 12 } } }
actions:
  charge: { target: enemy, range: [0, 12], contact: true }
sighting:
  concealed_flag: hidden
  levels:
    near: { discloses: [position, identity] }
    far: { discloses: [position] }
  charts:
    eyes:
      range:
        - { within: 1, level: near }
        - { within: 12, level: far }
  observers:
    - { chart: eyes }
sequence:
  side_turn: [ { phase: move, allows: [move, mode, charge] } ]
";

/// `c` (north-facing, bases y 8–12) would reach back to y 20 in column: `r`, hidden, stands
/// at y 17–21 behind it. `k` (y 38–42) charging `t` (y 28–32, seen) would end at y 32–36,
/// over `u` (x 32–38, y 32–36), hidden beside the target.
const SCENARIO_ORDERS: &str = "\
scenario: unseen-bases-orders
ruleset: r.yaml
seed: 1
board: { width: 48\", height: 48\" }
sides:
  blue: { baseline: south }
  red: { baseline: north }
pieces:
  - { id: c, side: blue, type: infantry, at: [10, 10], facing: 270 }
  - { id: k, side: blue, type: infantry, at: [30, 40], facing: 270 }
  - { id: r, side: red, type: infantry, at: [10, 19], facing: 270, flags: [hidden] }
  - { id: t, side: red, type: infantry, at: [30, 30], facing: 90 }
  - { id: u, side: red, type: infantry, at: [35, 34], facing: 270, flags: [hidden] }
";

/// The game of `scenario` on [`RULESET_ORDERS`], or the error its start gives.
fn start_orders(scenario: &str) -> Result<grognard_kernel::game::Game, String> {
    // One folder a call: the tests run side by side.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "grognard-unseen-bases-orders-{}-{call}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("r.yaml"), RULESET_ORDERS).expect("write");
    std::fs::write(dir.join("s.yaml"), scenario).expect("write");
    let loaded = load_scenario(&dir.join("s.yaml"), None);
    let _ = std::fs::remove_dir_all(&dir);
    let loaded = loaded.unwrap_or_else(|e| panic!("{e}"));
    loaded
        .start(Some(1), &[], &mut NoHooks)
        .map_err(|e| e.to_string())
}

fn orders_game() -> grognard_kernel::game::Game {
    start_orders(SCENARIO_ORDERS).unwrap_or_else(|e| panic!("{e}"))
}

fn met_the_enemy(events: &[Event], name: &str) -> bool {
    let text = format!("{name} came into contact with the enemy and stopped");
    events
        .iter()
        .any(|e| matches!(e, Event::Note { text: t } if *t == text))
}

/// A mode change whose new shape would overlap a unit the side has not sighted is not
/// refused (a refusal would say something stands there, for nothing): the unit stays as it
/// was, in contact, its movement spent, as a move into an unseen unit ends.
#[test]
fn a_mode_change_onto_an_unseen_unit_ends_in_contact_where_it_stands() {
    let game = orders_game();
    let (c, r) = (PieceId(0), PieceId(2));
    let blue = game.state().knowledge.first().expect("blue's knowledge");
    assert!(!blue.knows_position(r));
    let column = Order {
        side: SideId(0),
        action: Action::Mode {
            piece: c,
            mode: grognard_kernel::ids::ModeId(1),
        },
    };
    let mut g = game.clone();
    let events = g
        .apply(&column, &mut NoHooks)
        .unwrap_or_else(|e| panic!("{}", e.message));
    let piece = &g.state().pieces[c.index()];
    assert_eq!(
        piece.mode,
        game.state().pieces[c.index()].mode,
        "still in line"
    );
    assert_eq!(piece.place, game.state().pieces[c.index()].place);
    assert!(piece.moved);
    assert!(met_the_enemy(&events, "c"), "{events:?}");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::ModeChanged { .. })),
        "{events:?}"
    );
    let again = g
        .apply(
            &Order {
                side: SideId(0),
                action: Action::MoveTo {
                    piece: c,
                    to: Point::inches(10, 8),
                    facing: None,
                },
            },
            &mut NoHooks,
        )
        .expect_err("its movement is spent");
    assert!(again.message.contains("already moved"), "{}", again.message);
}

/// A charge whose place against its target would overlap a unit the side has not sighted
/// stops where the charger stands, the charge spent and nothing rolled or moved.
#[test]
fn a_charge_onto_an_unseen_unit_ends_in_contact_where_it_stands() {
    let game = orders_game();
    let (k, t, u) = (PieceId(1), PieceId(3), PieceId(4));
    let blue = game.state().knowledge.first().expect("blue's knowledge");
    assert!(blue.knows_position(t) && !blue.knows_position(u));
    let charge = Order {
        side: SideId(0),
        action: Action::Act {
            piece: k,
            action: grognard_kernel::ids::ActionId(0),
            target: Some(t),
            intent: Vec::new(),
        },
    };
    let mut g = game.clone();
    let events = g
        .apply(&charge, &mut NoHooks)
        .unwrap_or_else(|e| panic!("{}", e.message));
    let piece = &g.state().pieces[k.index()];
    assert_eq!(piece.place, game.state().pieces[k.index()].place);
    assert!(piece.moved);
    assert!(met_the_enemy(&events, "k"), "{events:?}");
    assert!(
        !events.iter().any(|e| matches!(
            e,
            Event::Acted { .. } | Event::MovedOnTable { .. } | Event::Rolled { .. }
        )),
        "{events:?}"
    );
    let again = g
        .apply(&charge, &mut NoHooks)
        .expect_err("the charge is spent");
    assert!(again.message.contains("already"), "{}", again.message);
}

/// The set-up's check of a scenario is read by its author, not by a side: bases placed
/// over a unit no side has sighted are named as they are, not hidden behind "do not fit".
#[test]
fn a_scenario_with_bases_over_a_concealed_unit_names_it() {
    let scenario = SCENARIO_ORDERS.replace(
        "at: [10, 19], facing: 270, flags: [hidden]",
        "at: [10, 12], facing: 270, flags: [hidden]",
    );
    assert_ne!(scenario, SCENARIO_ORDERS);
    let error = start_orders(&scenario).expect_err("the bases overlap");
    assert!(
        error.contains("piece c: c's bases would overlap r's"),
        "{error}"
    );
}
