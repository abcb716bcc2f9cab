//! A chart input's `from:` starts with one word of a fixed list (`InputFrom`): a word
//! outside it is an error at its `file:line:col`, listing the words and the nearest one;
//! a word of the list still needs its name after it where it takes one.

mod support;

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
    // One folder a call: the tests run side by side.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("grognard-input-from-{}-{call}", std::process::id()));
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

/// The JSON Schema offers `from:`'s first words as an `enum` (an editor's completions): they
/// are exactly the words the compiler accepts, in its order — the list its error for an
/// unknown word gives — and each one compiles.
#[test]
fn the_schema_lists_the_words_the_compiler_accepts() {
    use grognard_rules::schema::SchemaKind;
    let defs = support::schema_defs(SchemaKind::Ruleset);
    let from = &defs["InputSpec"]["properties"]["from"];
    let alternatives = from["anyOf"].as_array().expect("anyOf");
    let listed: Vec<&str> = alternatives
        .iter()
        .find_map(|a| a["enum"].as_array())
        .expect("an enum of words")
        .iter()
        .map(|w| w.as_str().expect("a word"))
        .collect();
    let text = errors("nonsense");
    let (_, compiler) = text
        .split_once("expected one of: ")
        .expect("the compiler's list");
    let compiler: Vec<&str> = compiler.lines().next().unwrap_or("").split(", ").collect();
    assert_eq!(listed, compiler);
    assert_eq!(listed.len(), 20, "{listed:?}");
    // The pattern (a word followed by its name) starts with the same words.
    let pattern = alternatives
        .iter()
        .find_map(|a| a["pattern"].as_str())
        .expect("a pattern");
    let escaped: Vec<String> = listed.iter().map(|w| w.replace('.', "\\.")).collect();
    assert!(
        pattern.contains(&format!("({})", escaped.join("|"))),
        "{pattern}"
    );
    // Every listed word is one the compiler knows (whatever else it then asks for).
    for word in listed {
        assert!(
            !errors(word).contains("unknown input source"),
            "{word}: {}",
            errors(word)
        );
    }
}
