//! The hook of the game's first phase reads what the sides know of the table as it was set
//! up (issue 35, fourth reading): the knowledge is computed before that `phase_begin` runs,
//! not after it, so a script's `game:known` of an enemy in plain sight is true from the
//! first phase on. Under `sighting.blind_setup` nothing is sighted until that hook has run
//! (a scout's fate comes before any information), as before.

use grognard_kernel::hooks::{HookCommand, HookDice, HookFailure, Hooks};
use grognard_kernel::ids::PieceId;
use grognard_kernel::state::World;
use grognard_rules::load::load_scenario;

/// `a` (blue) and `s` (red) 4" apart: each side places the other within 12".
fn ruleset(blind: bool) -> String {
    format!(
        "\
ruleset: first-phase
geometry: {{ kind: open }}
modes: {{ line: {{}} }}
terrain: {{ open: {{}} }}
movement: {{ foot: {{}} }}
piece_types:
  infantry:
    movement: foot
    allowance: {{ line: 30 }}
    footprint: {{ width: 6, depth: 4, bases: 1 }}
sighting:
  blind_setup: {blind}
  levels:
    far: {{ discloses: [position] }}
  charts:
    eyes:
      range:
        - {{ within: 12, level: far }}
  observers:
    - {{ chart: eyes }}
sequence:
  side_turn: [ {{ phase: move, allows: [move] }} ]
"
    )
}

const SCENARIO: &str = "\
scenario: first-phase
ruleset: r.yaml
seed: 1
board: { width: 48\", height: 48\" }
sides:
  blue: { baseline: south }
  red: { baseline: north }
pieces:
  - { id: a, side: blue, type: infantry, at: [10, 40], facing: 270 }
  - { id: s, side: red, type: infantry, at: [10, 32], facing: 90 }
";

/// Records, at each phase's start, whether blue knows where `s` is.
#[derive(Default)]
struct Watch {
    seen: Vec<(String, bool)>,
}

impl Hooks for Watch {
    fn phase_begin(
        &mut self,
        world: &World<'_>,
        phase: &str,
        _: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let blue_knows =
            (world.state.knowledge.first()).is_some_and(|k| k.knows_position(PieceId(1)));
        self.seen.push((phase.to_owned(), blue_knows));
        Ok(Vec::new())
    }
}

/// What the first phase's hook saw, and whether blue knows `s` once the game has started.
fn first_hook(blind: bool) -> (Vec<(String, bool)>, bool) {
    let dir = std::env::temp_dir().join(format!(
        "grognard-first-phase-{}-{blind}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("r.yaml"), ruleset(blind)).expect("write");
    std::fs::write(dir.join("s.yaml"), SCENARIO).expect("write");
    let scenario = load_scenario(&dir.join("s.yaml"), None);
    let _ = std::fs::remove_dir_all(&dir);
    let scenario = scenario.unwrap_or_else(|e| panic!("{e}"));
    let mut watch = Watch::default();
    let game = scenario
        .start(Some(1), &[], &mut watch)
        .unwrap_or_else(|e| panic!("{e}"));
    let known = (game.state().knowledge.first()).is_some_and(|k| k.knows_position(PieceId(1)));
    (watch.seen, known)
}

#[test]
fn the_first_phase_hook_reads_the_sides_knowledge_of_the_set_up() {
    let (seen, known) = first_hook(false);
    assert_eq!(seen, vec![("move".to_owned(), true)]);
    assert!(known);
}

#[test]
fn under_a_blind_set_up_the_first_phase_hook_still_reads_nothing() {
    let (seen, known) = first_hook(true);
    assert_eq!(seen, vec![("move".to_owned(), false)]);
    assert!(known, "sighted once that hook has run");
}
