//! Bases on an open table under sighting rules (issue 35, finding 6): a move whose bases
//! would overlap an enemy unit is refused in the words the mover's side reads that unit
//! by (its handle, when it knows where the unit is but not who), and a move into a unit
//! the side has not sighted is not refused at all — as a grid move into unseen enemies,
//! it ends in contact (here where it started, its move spent), so the answer tells no
//! more than a real table would and is no free probe.

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
