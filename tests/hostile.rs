//! Hostile and broken files: each gets a clear error naming the file (and line where there
//! is one) in under a second, never a panic.

use std::time::Duration;

use crate::util::{grognard, grognard_in, yaml_files};

const QUICK: Duration = Duration::from_secs(1);

#[test]
fn hostile_yaml_is_refused_quickly() {
    let files = yaml_files("tests/fixtures/hostile");
    assert!(files.len() >= 5, "{files:?}");
    for f in &files {
        let run = grognard(&["validate", f]);
        assert_eq!(run.code, 1, "{f}: {}{}", run.stdout, run.stderr);
        let name = f.rsplit('/').next().unwrap_or(f);
        assert!(
            run.stderr.contains(name),
            "{f}: error does not name the file: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("panicked"), "{f}: {}", run.stderr);
        assert!(run.elapsed < QUICK, "{f} took {:?}", run.elapsed);
    }
}

#[test]
fn a_50_megabyte_file_is_refused_before_parsing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let big = dir.path().join("big.yaml");
    let line = "key: value value value value value value value value value value\n";
    let text = line.repeat(50 * 1024 * 1024 / line.len() + 1);
    std::fs::write(&big, text).expect("write");
    let run = grognard_in(dir.path(), &["validate", "big.yaml"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("big.yaml") && run.stderr.contains("bytes"),
        "{}",
        run.stderr
    );
    assert!(run.elapsed < QUICK, "took {:?}", run.elapsed);
}

#[test]
fn a_piece_off_the_board_is_reported_at_its_line() {
    let run = grognard(&["validate", "tests/fixtures/bad/off-board.yaml"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("off-board.yaml:7:"), "{}", run.stderr);
    assert!(
        run.stderr.contains("r1 is off the board at (7,2)"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_piece_on_impassable_terrain_is_reported_at_its_line() {
    let run = grognard(&["validate", "tests/fixtures/bad/impassable.yaml"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("impassable.yaml:14:"), "{}", run.stderr);
    assert!(run.stderr.contains("heavy_woods"), "{}", run.stderr);
}

#[test]
fn every_typo_is_reported_with_a_suggestion() {
    let run = grognard(&["validate", "tests/fixtures/bad/typos.yaml"]);
    assert_eq!(run.code, 1);
    for expected in [
        "`colz`",
        "did you mean `cols`?",
        "`infantery`",
        "did you mean `infantry`?",
        "`strategc`",
        "NNE",
    ] {
        assert!(
            run.stderr.contains(expected),
            "missing {expected}: {}",
            run.stderr
        );
    }
}

#[test]
fn illegal_and_malformed_orders_are_refused_with_their_line() {
    let scenario = "examples/drill-square.yaml";
    let cases = [
        (
            "illegal.orders.yaml",
            ":3:",
            "refused: (4,3) is not next to (4,6)",
        ),
        ("malformed.orders.yaml", ":2:", "exactly one of"),
        ("unknown-piece.orders.yaml", ":2:", "unknown piece `b9`"),
    ];
    for (file, line, message) in cases {
        let path = format!("tests/fixtures/bad/{file}");
        let run = grognard(&["play", scenario, "--orders", &path]);
        assert_eq!(run.code, 1, "{file}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!("{file}{line}")),
            "{file}: {}",
            run.stderr
        );
        assert!(run.stderr.contains(message), "{file}: {}", run.stderr);
        assert!(run.elapsed < QUICK);
    }
}

#[test]
fn a_ruleset_with_broken_hook_bindings_fails_validation_at_their_lines() {
    let run = grognard(&["validate", "tests/fixtures/hooks/broken.yaml"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stderr
            .contains("broken.yaml:6:14: `broken.too_many` takes 7 parameters"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("broken.yaml:7:10:"), "{}", run.stderr);
    let run = grognard(&["validate", "tests/fixtures/hooks/syntax.yaml"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("tests/fixtures/hooks/syntax.lua:4:"),
        "{}",
        run.stderr
    );
}
