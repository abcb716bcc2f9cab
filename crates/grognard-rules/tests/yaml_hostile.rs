//! Hostile input: files shared between clubs are untrusted. Each must be refused with a
//! clear, located message — never a panic, never a hang.
//!
//! The time bound (1 s) guards against hangs; it is not a benchmark.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use grognard_rules::diag::Diagnostic;
use grognard_rules::node::Node;
use grognard_rules::yaml::{Limits, parse};
use proptest::prelude::*;

/// Far above what any of these files takes (tens of milliseconds in a debug build on a
/// quiet machine; about a second with the machine's cores all busy building): it catches a
/// parse that hangs, not a slow one (speed is measured in `benches/`).
const HANG_GUARD: Duration = Duration::from_secs(10);

fn fixture(name: &str) -> (String, Vec<u8>) {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "..",
        "tests",
        "fixtures",
        "hostile",
        name,
    ]
    .iter()
    .collect();
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (name.to_string(), bytes)
}

/// Parses with the default limits, asserting it finished within the hang guard.
fn timed_parse(file: &str, bytes: &[u8]) -> Result<Node, Diagnostic> {
    let start = Instant::now();
    let result = parse(file, bytes, &Limits::default());
    let elapsed = start.elapsed();
    assert!(elapsed < HANG_GUARD, "{file}: parse took {elapsed:?}");
    result
}

fn line_col(d: &Diagnostic) -> (u32, u32) {
    d.location.as_ref().map_or((0, 0), |l| (l.line, l.col))
}

#[test]
fn alias_bomb_is_refused_quickly() {
    let (name, bytes) = fixture("alias-bomb.yaml");
    let err = timed_parse(&name, &bytes).unwrap_err();
    assert!(
        err.message
            .starts_with("too many aliases/expansions (limit 50000 expanded values)"),
        "{err}"
    );
    assert!(err.message.contains("alias bomb"), "{err}");
    let (line, col) = line_col(&err);
    // Located at one of the `- *numbers` uses (lines 5..), at the `*`.
    assert!(line >= 5, "{err}");
    assert_eq!(col, 5, "{err}");
    assert!(err.to_string().starts_with("alias-bomb.yaml:"), "{err}");
}

#[test]
fn billion_laughs_is_refused_quickly() {
    let (name, bytes) = fixture("billion-laughs.yaml");
    let err = timed_parse(&name, &bytes).unwrap_err();
    assert!(err.message.contains("alias bomb"), "{err}");
    assert!(line_col(&err).0 > 1, "{err}");
}

#[test]
fn too_many_aliases_is_refused_with_the_alias_limit() {
    // Many cheap aliases rather than a few expensive ones.
    let mut text = String::from("small: &s 1\nrefs:\n");
    for _ in 0..1_500 {
        text.push_str("  - *s\n");
    }
    let err = timed_parse("aliases.yaml", text.as_bytes()).unwrap_err();
    assert!(
        err.message
            .starts_with("too many aliases/expansions (limit 1000 aliases)"),
        "{err}"
    );
    assert_eq!(line_col(&err), (1003, 5), "{err}");
}

#[test]
fn deep_flow_nesting_is_refused_quickly() {
    let (name, bytes) = fixture("deep-nesting.yaml");
    assert!(bytes.len() < 300 * 1024);
    let err = timed_parse(&name, &bytes).unwrap_err();
    assert!(
        err.message.starts_with("nested deeper than 64 levels"),
        "{err}"
    );
    assert_eq!(line_col(&err), (1, 66), "{err}");
}

#[test]
fn deep_block_nesting_is_refused_quickly() {
    // `- - - ... x`: 100,000 nested block lists on one line.
    let text = format!("{}x\n", "- ".repeat(100_000));
    let err = timed_parse("deep-block.yaml", text.as_bytes()).unwrap_err();
    assert!(
        err.message.starts_with("nested deeper than 64 levels"),
        "{err}"
    );
    assert_eq!(line_col(&err).0, 1, "{err}");

    // And deep mappings, one level per line.
    let mut text = String::new();
    for depth in 0..1_000 {
        text.push_str(&"  ".repeat(depth));
        text.push_str("a:\n");
    }
    let err = timed_parse("deep-map.yaml", text.as_bytes()).unwrap_err();
    assert!(
        err.message.starts_with("nested deeper than 64 levels"),
        "{err}"
    );
    assert_eq!(line_col(&err).0, 65, "{err}");
}

#[test]
fn nesting_at_the_limit_is_accepted_without_exhausting_the_stack() {
    // Test threads have small stacks; 64 levels must still fit comfortably.
    let flow = format!("{}1{}", "[".repeat(64), "]".repeat(64));
    let mut node = timed_parse("flow.yaml", flow.as_bytes()).unwrap();
    let mut depth = 0;
    while let Some([inner]) = node.as_seq() {
        node = inner.clone();
        depth += 1;
    }
    assert_eq!((depth, node.as_i64()), (64, Some(1)));

    let block = format!("{}x\n", "- ".repeat(64));
    assert!(timed_parse("block.yaml", block.as_bytes()).is_ok());
    let over = format!("{}1{}", "[".repeat(65), "]".repeat(65));
    assert!(timed_parse("flow.yaml", over.as_bytes()).is_err());
}

#[test]
fn smaller_limits_are_obeyed_and_named() {
    let limits = Limits {
        max_depth: 8,
        max_nodes: 1_000,
        ..Limits::default()
    };
    let err = parse("d.yaml", b"a: [[[[[[[[[1]]]]]]]]]\n", &limits).unwrap_err();
    assert!(
        err.message.starts_with("nested deeper than 8 levels"),
        "{err}"
    );

    let many = format!("[{}]", vec!["1"; 5_000].join(", "));
    let err = parse("n.yaml", many.as_bytes(), &limits).unwrap_err();
    assert!(
        err.message
            .starts_with("the file holds more than 1000 values"),
        "{err}"
    );

    let tiny = Limits {
        max_bytes: 10,
        ..Limits::default()
    };
    let err = parse("s.yaml", b"name: too long for ten bytes\n", &tiny).unwrap_err();
    assert!(err.message.contains("the limit is 10 bytes"), "{err}");
}

#[test]
fn binary_junk_is_not_a_text_file() {
    let (name, bytes) = fixture("binary-junk.yaml");
    let err = timed_parse(&name, &bytes).unwrap_err();
    assert!(err.message.starts_with("not a text file"), "{err}");
    let first_nul = bytes.iter().position(|&b| b == 0).unwrap_or(0);
    let line = 1 + bytes[..first_nul].iter().filter(|&&b| b == b'\n').count();
    assert_eq!(usize::try_from(line_col(&err).0).ok(), Some(line), "{err}");
    assert!(
        err.help.as_deref().is_some_and(|h| h.contains("UTF-8")),
        "{err}"
    );
}

#[test]
fn utf16_is_not_a_text_file_with_a_hint() {
    let utf16: Vec<u8> = "\u{feff}name: x\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let err = timed_parse("utf16.yaml", &utf16).unwrap_err();
    assert!(err.message.starts_with("not a text file"), "{err}");
    assert!(
        err.help.as_deref().is_some_and(|h| h.contains("UTF-16")),
        "{err}"
    );
}

#[test]
fn invalid_utf8_points_at_the_bad_byte() {
    let (name, bytes) = fixture("invalid-utf8.yaml");
    let err = timed_parse(&name, &bytes).unwrap_err();
    // `leader: Napol` is 13 characters: the bad byte is column 14 of line 3.
    assert_eq!(line_col(&err), (3, 14), "{err}");
    assert!(err.message.contains("not valid UTF-8"), "{err}");
    assert!(err.message.contains("0xE9"), "{err}");
    assert!(
        err.to_string().starts_with("invalid-utf8.yaml:3:14: "),
        "{err}"
    );
}

#[test]
fn duplicate_keys_name_both_places() {
    let (name, bytes) = fixture("duplicate-keys.yaml");
    let err = timed_parse(&name, &bytes).unwrap_err();
    assert_eq!(
        err.to_string(),
        "duplicate-keys.yaml:7:3: duplicate key `woods`: it is already given at line 3, column 3; \
         a key may appear only once in a mapping\n  help: remove one of the two, or merge them"
    );
}

#[test]
fn a_fifty_megabyte_file_is_refused_before_parsing() {
    let unique = format!(
        "grognard-hostile-{}-{}.yaml",
        std::process::id(),
        Instant::now().elapsed().as_nanos()
    );
    let path = std::env::temp_dir().join(unique);
    let line = b"- {name: filler, strength: 4, morale: 3}\n";
    let mut bytes = Vec::with_capacity(50 * 1024 * 1024 + line.len());
    while bytes.len() < 50 * 1024 * 1024 {
        bytes.extend_from_slice(line);
    }
    std::fs::write(&path, &bytes).unwrap();
    let read = std::fs::read(&path);
    let _ = std::fs::remove_file(&path);
    let read = read.unwrap();
    let err = timed_parse("huge.yaml", &read).unwrap_err();
    assert!(
        err.message
            .starts_with(&format!("the file is too large: {} bytes", read.len())),
        "{err}"
    );
    assert!(
        err.message.contains("the limit is 8388608 bytes (8 MiB)"),
        "{err}"
    );
    assert_eq!(err.to_string().split(':').next(), Some("huge.yaml"));
}

#[test]
fn syntax_errors_are_located_and_plain() {
    for (text, line, col) in [
        ("a: 1\n  b: 2\n", 2, 4),
        ("a: [1, 2\nb: 3\n", 2, 2),
        ("a: \"unclosed\n", 1, 4),
        ("a: 1\n---\nb: 2\n", 3, 1),
        ("a: *missing\n", 1, 4),
    ] {
        let err = timed_parse("s.yaml", text.as_bytes()).unwrap_err();
        assert_eq!(line_col(&err), (line, col), "{text:?}: {err}");
        assert!(!err.message.contains("Budget"), "{err}");
    }
}

#[test]
fn control_characters_in_messages_are_escaped() {
    let err = timed_parse("t.yaml", b"a: !\x1b[2Jevil x\n").unwrap_err();
    assert!(!err.to_string().contains('\u{1b}'), "{err:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = timed_parse("p.yaml", &bytes);
    }

    #[test]
    fn yaml_shaped_text_never_panics(text in "[-a-z0-9 :,\\[\\]{}&*!|>'\"#?\\n\\t%@`]{0,300}") {
        let _ = timed_parse("p.yaml", text.as_bytes());
    }
}
