//! Every name a ruleset refers to is looked up by its kind (issue 35, the fifth outside
//! reading's F4): one word per kind in the messages, wherever the name is written. An
//! optional rule is an "optional rule" from a chart's `from: option NAME` and from a
//! sighting band's `option:` alike; a re-roll's die and faces, a band's face tags and a
//! sighting level are each refused at their line with their kind's word.

use grognard_rules::load::load_ruleset;

/// A ruleset with one optional rule (`mud`), one die (`cube`: faces `one` tagged `red`,
/// `two` tagged `star`) and one sighting level (`seen`); each `{…}` slot names one of them.
fn ruleset(option: &str, die: &str, face: &str, tag: &str, level: &str, band: &str) -> String {
    format!(
        "\
ruleset: words
geometry: {{ kind: square }}
modes: {{ normal: {{}} }}
terrain: {{ clear: {{}} }}
movement: {{ foot: {{}} }}
options:
  mud: {{ default: false }}
dice:
  cube:
    faces:
      - {{ label: one, tags: [red] }}
      - {{ label: two, tags: [star] }}
piece_types:
  inf: {{ movement: foot, allowance: {{ normal: 4 }} }}
charts:
  shot:
    dice: cube
    inputs:
      near: {{ from: distance }}
      wet: {{ from: {option} }}
    rerolls:
      - {{ die: {die}, faces: [{face}] }}
    bands:
      base: near
      rows:
        - {{ band: a, any: [{tag}], pass: hit, fail: miss }}
sequence:
  side_turn: [{{ phase: act, allows: [move] }}]
sighting:
  levels:
    seen: {{ discloses: [position, identity] }}
  charts:
    eyes:
      range:
        - {{ within: 5, level: {level}, option: {band} }}
  observers:
    - {{ chart: eyes }}
"
    )
}

/// The diagnostics of loading `text`, or "" when it loads.
fn errors(text: &str) -> String {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("grognard-kind-words-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("r.yaml");
    std::fs::write(&path, text).expect("write");
    let result = load_ruleset(&path);
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(_) => String::new(),
        Err(d) => d.to_string(),
    }
}

#[test]
fn each_kind_is_refused_at_its_line_in_its_own_word() {
    let good = ruleset("option mud", "cube", "one", "red", "seen", "mud");
    assert_eq!(errors(&good), "");
    // One wrong name at a time; by hand, its line and column in the file above.
    let cases = [
        (
            ruleset("option mdu", "cube", "one", "red", "seen", "mud"),
            "r.yaml:20:20: unknown optional rule `mdu`",
        ),
        (
            ruleset("option mud", "cube", "one", "red", "seen", "mdu"),
            "r.yaml:35:45: unknown optional rule `mdu`",
        ),
        (
            ruleset("option mud", "cueb", "one", "red", "seen", "mud"),
            "r.yaml:22:16: unknown die `cueb`",
        ),
        (
            ruleset("option mud", "cube", "three", "red", "seen", "mud"),
            "r.yaml:22:30: unknown face `three`",
        ),
        (
            ruleset("option mud", "cube", "one", "blue", "seen", "mud"),
            "r.yaml:26:28: unknown face tag `blue`",
        ),
        (
            ruleset("option mud", "cube", "one", "red", "sene", "mud"),
            "r.yaml:35:31: unknown sighting level `sene`",
        ),
    ];
    for (text, expected) in cases {
        let got = errors(&text);
        assert!(got.contains(expected), "{expected}\n{got}");
        assert_eq!(got.matches("unknown").count(), 1, "{got}");
        assert!(!got.contains("unknown option "), "{got}");
    }
    // The nearest name is offered, under the same word.
    let got = errors(&ruleset("option mdu", "cube", "one", "red", "seen", "mud"));
    assert!(got.contains("did you mean `mud`?"), "{got}");
}

#[test]
fn a_source_word_asks_for_its_name_with_the_right_article() {
    let got = errors(&ruleset("option", "cube", "one", "red", "seen", "mud"));
    assert!(
        got.contains("r.yaml:20:20: `option` needs an optional rule name after it"),
        "{got}"
    );
    let got = errors(&ruleset("intent", "cube", "one", "red", "seen", "mud"));
    assert!(
        got.contains("r.yaml:20:20: `intent` needs an intent name after it"),
        "{got}"
    );
}

/// A footprint's `modes:` entry is a mode of the ruleset, refused at its key with the
/// modes' word (it was looked up by hand before, beside the table of modes).
#[test]
fn a_footprint_names_a_mode_of_the_ruleset() {
    let text = |mode: &str| {
        format!(
            "\
ruleset: bases
geometry: {{ kind: open }}
modes: {{ line: {{}}, column: {{}} }}
terrain: {{ clear: {{}} }}
movement: {{ foot: {{}} }}
piece_types:
  inf:
    movement: foot
    allowance: {{ line: 4, column: 6 }}
    footprint: {{ width: 40mm, depth: 20mm, modes: {{ {mode}: {{ depth: 40mm }} }} }}
sequence:
  side_turn: [{{ phase: act, allows: [move] }}]
"
        )
    };
    assert_eq!(errors(&text("column")), "");
    let got = errors(&text("colum"));
    assert!(got.contains("r.yaml:10:53: unknown mode `colum`"), "{got}");
    assert!(got.contains("did you mean `column`?"), "{got}");
}
