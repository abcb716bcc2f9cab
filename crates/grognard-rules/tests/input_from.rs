//! A chart input's `from:` starts with one word of a fixed list (`InputFrom`): a word
//! outside it is an error at its `file:line:col`, listing the words and the nearest one;
//! a word of the list still needs its name after it where it takes one.

use grognard_rules::load::load_ruleset;

fn ruleset(from: &str) -> String {
    format!(
        "\
ruleset: inputs
geometry: {{ kind: square }}
modes: {{ normal: {{}} }}
counters: {{ hits: {{}} }}
terrain: {{ clear: {{}} }}
movement: {{ foot: {{}} }}
piece_types:
  inf: {{ movement: foot, allowance: {{ normal: 4 }} }}
charts:
  shot:
    dice: d6
    inputs:
      near: {{ from: {from} }}
    rows:
      - {{ score: \"4+\", result: hit }}
    otherwise: miss
sequence:
  side_turn: [{{ phase: act, allows: [move] }}]
"
    )
}

fn errors(from: &str) -> String {
    let dir = std::env::temp_dir().join(format!(
        "grognard-input-from-{}-{}",
        std::process::id(),
        from.len()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("r.yaml");
    std::fs::write(&path, ruleset(from)).expect("write");
    let result = load_ruleset(&path);
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(_) => String::new(),
        Err(d) => d.to_string(),
    }
}

#[test]
fn an_unknown_source_word_is_named_at_its_line_with_the_words_and_the_nearest() {
    let text = errors("actor.countr hits");
    assert!(
        text.contains(
            "r.yaml:13:21: unknown input source `actor.countr`; expected one of: distance, \
             table_distance, distance_band, table_distance_band, actor.counter, actor.mode, \
             target.mode, target.counter, actor.flag, target.flag, actor.attribute, \
             target.attribute, target.flank_or_rear, target.terrain, actor.terrain, \
             actor.friends_within, target.friends_within, setting, option, intent"
        ),
        "{text}"
    );
    assert!(text.contains("did you mean `actor.counter`?"), "{text}");
    // A known word still needs its name, and the name is looked up.
    let text = errors("actor.counter");
    assert!(
        text.contains("r.yaml:13:21: `actor.counter` needs a counter name after it"),
        "{text}"
    );
    let text = errors("actor.counter hitz");
    assert!(text.contains("unknown counter `hitz`"), "{text}");
    assert_eq!(errors("actor.counter hits"), "");
}
