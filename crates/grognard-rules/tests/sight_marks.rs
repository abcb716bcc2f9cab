//! A sighting band's `not_when` (issue 33, the twentieth outside audit's W3): a band does
//! not find a piece that carries a counter at a level or a flag (cover the piece made
//! itself, such as works it dug), as `not_in` does for terrain; a name the ruleset does not
//! declare is refused at its line.

use grognard_kernel::hooks::NoHooks;
use grognard_kernel::ids::PieceId;
use grognard_rules::load::{load_ruleset, load_scenario};

/// Blue sees within 5 hexes, except pieces with `works` 4 or more or flag `dug`.
fn ruleset(not_when: &str) -> String {
    format!(
        "\
ruleset: marks
geometry: {{ kind: hex }}
modes: {{ line: {{}} }}
terrain: {{ clear: {{}} }}
movement: {{ foot: {{ enter: {{}} }} }}
piece_types:
  infantry: {{ movement: foot, allowance: {{ line: 3 }} }}
counters:
  works: {{ max: 6 }}
flags:
  dug: {{}}
sequence:
  side_turn: [ {{ phase: movement, allows: [move] }} ]
sighting:
  levels:
    seen: {{ discloses: [position, identity] }}
  charts:
    eyes:
      range:
        - {{ within: 5, level: seen, not_when: {not_when} }}
  observers:
    - {{ chart: eyes }}
"
    )
}

/// b at (0,3); red's four pieces all 3 hexes away, in the open: works 4, works 3, flag
/// `dug`, and nothing.
const SCENARIO: &str = "\
scenario: marks
ruleset: r.yaml
seed: 1
board:
  cols: 8
  rows: 8
sides:
  blue: { baseline: west }
  red: { baseline: east }
pieces:
  - { id: b, side: blue, type: infantry, at: [0, 3], facing: E }
  - { id: w4, side: red, type: infantry, at: [3, 3], facing: W, counters: { works: 4 } }
  - { id: w3, side: red, type: infantry, at: [3, 2], facing: W, counters: { works: 3 } }
  - { id: d, side: red, type: infantry, at: [3, 4], facing: W, flags: [dug] }
  - { id: o, side: red, type: infantry, at: [3, 5], facing: W }
";

fn in_folder<R>(tag: &str, ruleset: &str, f: impl FnOnce(&std::path::Path) -> R) -> R {
    let dir = std::env::temp_dir().join(format!("grognard-marks-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("r.yaml"), ruleset).expect("write");
    std::fs::write(dir.join("s.yaml"), SCENARIO).expect("write");
    let out = f(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn a_band_does_not_find_a_piece_under_its_own_cover() {
    let rules = ruleset("[{ counter: works, at_least: 4 }, { flag: dug }]");
    in_folder("ok", &rules, |dir| {
        let scenario = load_scenario(&dir.join("s.yaml"), None).unwrap_or_else(|e| panic!("{e}"));
        let game = scenario
            .start(Some(1), &[], &mut NoHooks)
            .unwrap_or_else(|e| panic!("{e}"));
        let blue = game.state().knowledge.first().expect("blue's knowledge");
        // By hand: w4 has works 4 (≥ 4) and d the flag: unseen; w3 (works 3 < 4) and o
        // are found by the band.
        let (w4, w3, d, o) = (PieceId(1), PieceId(2), PieceId(3), PieceId(4));
        assert!(!blue.knows_position(w4), "works 4 is cover");
        assert!(!blue.knows_position(d), "the flag is cover");
        assert!(blue.knows_identity(w3), "works 3 is not");
        assert!(blue.knows_identity(o), "in the open");
    });
}

#[test]
fn a_band_naming_an_unknown_counter_or_flag_is_refused_at_its_line() {
    for (keys, want) in [
        (
            "[{ counter: trench, at_least: 4 }]",
            "r.yaml:20:59: unknown counter `trench`",
        ),
        (
            "[{ flag: entrenched }]",
            "r.yaml:20:56: unknown flag `entrenched`",
        ),
        (
            "[{ counter: works, flag: dug }]",
            "names a counter (`{counter: works, at_least: 4}`) or a flag",
        ),
    ] {
        let errors = in_folder("bad", &ruleset(keys), |dir| {
            load_ruleset(&dir.join("r.yaml"))
                .map(|_| ())
                .map_err(|d| d.to_string())
        })
        .expect_err(keys);
        assert!(errors.contains(want), "{keys}: {errors}");
    }
}
