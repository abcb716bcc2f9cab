//! The compiler's last hand look-ups, through the shared ones (issue 35, the sixth outside
//! reading's N4). A pivot's mode and a die in a dice expression are looked up by their kind
//! in the one name table, so they are refused at their own key with "did you mean" like any
//! other name; a `round:` word, an amount's rounding and the facts a sighting level
//! discloses are words of a fixed list, refused by the decoder at their line with the
//! allowed words (and listed as such in the JSON Schema).

mod support;

use grognard_kernel::amount::Rounding;
use grognard_kernel::ids::{ModeId, PieceTypeId};
use grognard_kernel::knowledge::Disclosure;
use grognard_kernel::rules::{Pivot, PivotRule};
use grognard_rules::load::{Ruleset, load_ruleset};

/// An open-table ruleset: modes `line` and `column`, one declared die (`cube`), a chart
/// rolling two of them, an amount that halves, and one sighting level. Each `{…}` slot
/// holds one word the tests write wrong.
fn ruleset(mode: &str, die: &str, round: &str, halving: &str, fact: &str) -> String {
    format!(
        "\
ruleset: lookups
geometry: {{ kind: open }}
modes: {{ line: {{}}, column: {{}} }}
terrain: {{ clear: {{}} }}
movement: {{ foot: {{}} }}
counters: {{ hits: {{ max: 9 }} }}
dice:
  cube:
    faces: [ {{ label: one }}, {{ label: two }} ]
piece_types:
  inf: {{ movement: foot, allowance: {{ line: 4, column: 6 }} }}
open_table:
  pivots:
    inf: {{ line: wheel, {mode}: free }}
charts:
  shot:
    dice: 2 {die}
    round: {round}
    rows:
      - {{ score: \"1+\", result: hit }}
actions:
  fire:
    chart: shot
    target: enemy
    range: [1, 3]
    on:
      hit: [{{ add: hits, amount: {{ half: score, round: {halving} }} }}]
sequence:
  side_turn: [{{ phase: act, allows: [move, fire] }}]
sighting:
  levels:
    seen: {{ discloses: [{fact}, identity] }}
"
    )
}

const GOOD: [&str; 5] = ["column", "cube", "down", "nearest", "position"];

/// Loads `text` as `r.yaml` from a directory of its own; its errors name the file alone.
fn load(text: &str) -> Result<Ruleset, String> {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "grognard-shared-lookups-{}-{call}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("r.yaml");
    std::fs::write(&path, text).expect("write");
    let result = load_ruleset(&path);
    let _ = std::fs::remove_dir_all(&dir);
    let prefix = format!("{}/", dir.display());
    result.map_err(|d| d.to_string().replace(&prefix, ""))
}

/// The ruleset with the word of slot `slot` (0 to 4, as `ruleset` takes them) replaced.
fn with(slot: usize, word: &str) -> String {
    let mut words = GOOD;
    words[slot] = word;
    let [m, d, r, h, f] = words;
    ruleset(m, d, r, h, f)
}

#[test]
fn the_words_written_right_compile_to_what_they_name() {
    let rules = load(&with(0, "column")).expect("loads").rules;
    // `inf: { line: wheel, column: free }`: one rule per mode, in the order written.
    assert_eq!(
        rules.open_table.pivots,
        vec![
            PivotRule {
                piece_type: PieceTypeId(0),
                mode: Some(ModeId(0)),
                pivot: Pivot::Wheel,
            },
            PivotRule {
                piece_type: PieceTypeId(0),
                mode: Some(ModeId(1)),
                pivot: Pivot::Free,
            },
        ]
    );
    // The spec is written back with the modes by name, as when they were a sorted map:
    // the ruleset's identity hash is of this form.
    let ruleset = load(&with(0, "column")).expect("loads");
    let pivots = serde_json::to_string(&ruleset.spec.open_table.as_ref().expect("open").pivots)
        .expect("json");
    assert_eq!(pivots, r#"{"inf":{"column":"free","line":"wheel"}}"#);
    // `2 cube`: two of the one declared die.
    let shot = &rules.charts[0];
    assert_eq!(shot.dice.terms.len(), 1);
    assert_eq!(shot.dice.terms[0].count, 2);
    assert_eq!(rules.dice[shot.dice.terms[0].die.index()].name, "cube");
    assert_eq!(shot.round, Some(Rounding::Down));
    // `discloses: [position, identity]`.
    assert_eq!(
        rules.sighting.as_ref().expect("sighting").levels[0].discloses,
        Disclosure::POSITION.with(Disclosure::IDENTITY)
    );
}

#[test]
fn each_word_written_wrong_is_refused_at_its_line_with_the_nearest_word() {
    // By hand: the line and column of each slot in `ruleset` above.
    let cases = [
        (
            0,
            "colum",
            "r.yaml:14:25: unknown mode `colum`\n  help: did you mean `column`?",
        ),
        (
            1,
            "cueb",
            "r.yaml:17:11: unknown die `cueb`\n  help: did you mean `cube`?; a plain die of N faces \
             is written dN (`d6`, `d10`) without declaring it",
        ),
        (
            2,
            "dwn",
            "r.yaml:18:12: in charts.shot.round: unknown value `dwn`; expected one of: down, up, \
             nearest\n  help: did you mean `down`?",
        ),
        (
            3,
            "nearst",
            "r.yaml:27:56: in actions.fire.on.hit[0].amount.round: unknown value `nearst`; \
             expected one of: down, up, nearest\n  help: did you mean `nearest`?",
        ),
        (
            4,
            "postion",
            "r.yaml:32:25: in sighting.levels.seen.discloses[0]: unknown value `postion`; \
             expected one of: position, real, kind, strength, identity\n  help: did you mean \
             `position`?",
        ),
    ];
    for (slot, word, expected) in cases {
        let got = load(&with(slot, word)).err().unwrap_or_default();
        assert_eq!(got, expected, "slot {slot}");
    }
}

/// Far from every mode and die, the help lists the known names, as for any other name.
#[test]
fn a_word_near_nothing_is_told_the_known_names() {
    let got = load(&with(0, "skirmish")).err().unwrap_or_default();
    assert_eq!(
        got,
        "r.yaml:14:25: unknown mode `skirmish`\n  help: known mode names: line, column"
    );
    let got = load(&with(1, "bone")).err().unwrap_or_default();
    assert_eq!(
        got,
        "r.yaml:17:11: unknown die `bone`\n  help: known die names: cube; a plain die of N faces is \
         written dN (`d6`, `d10`) without declaring it"
    );
    // A numeric die needs no declaring, and is then known like a declared one.
    assert!(load(&with(1, "d6")).is_ok());
}

/// The schema an editor reads lists the new word lists, and the fields that take them.
#[test]
fn the_schema_lists_the_rounding_and_disclosure_words() {
    use grognard_rules::schema::SchemaKind;
    let defs = support::schema_defs(SchemaKind::Ruleset);
    support::assert_word_lists(
        &defs,
        &[
            ("Round", &["down", "up", "nearest"][..]),
            (
                "Fact",
                &["position", "real", "kind", "strength", "identity"],
            ),
        ],
    );
    let round = defs["ChartSpec"]["properties"]["round"].to_string();
    assert!(round.contains("Round"), "{round}");
    let discloses = defs["LevelSpec"]["properties"]["discloses"].to_string();
    assert!(discloses.contains("Fact"), "{discloses}");
    let public = defs["SightingSpec"]["properties"]["public"].to_string();
    assert!(public.contains("Fact"), "{public}");
}
