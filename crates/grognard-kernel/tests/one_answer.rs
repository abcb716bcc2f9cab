//! Questions the kernel answers in one place, read from the sources so that a second copy
//! cannot creep back: who may act in a phase (`Actor::includes`, in `rules.rs`, asked by
//! `Game::may_act`, which `to_act`, the order gate and every client use), whether a piece
//! moves in a phase (`game::is_mover`), the words for what a phase allows
//! (`Game::allowed_words`, in `game/sequence.rs`), and why the phase keeps a piece from
//! moving (`Game::phase_keeps_from_moving`, worded in `game/bans.rs`; `reach` asks it).
//! Copies drifted before: the same fallback was "that action" in one and "an action" in
//! another, and the editor and the CLI each wrote "who acts now" again.

use std::path::{Path, PathBuf};

/// Every source file under `src` with its text, tests left out (a file's `#[cfg(test)]`
/// tail), named relative to `src`.
fn sources_under(src: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read a src folder") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("read a source file");
                let code = text
                    .split("#[cfg(test)]")
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                let rel = path.strip_prefix(src).expect("under src").to_path_buf();
                out.push((rel, code));
            }
        }
    }
    out.sort();
    out
}

/// Every kernel source file with its text, tests left out.
fn sources() -> Vec<(PathBuf, String)> {
    sources_under(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// Every other crate's source (the workspace's `crates/*/src` and the binary's `src/`),
/// named from the workspace root.
fn other_crates() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut srcs = vec![(String::from("src"), root.join("src"))];
    for entry in std::fs::read_dir(root.join("crates")).expect("read crates/") {
        let dir = entry.expect("a directory entry").path();
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if name != "grognard-kernel" && dir.join("src").is_dir() {
            srcs.push((format!("crates/{name}/src"), dir.join("src")));
        }
    }
    assert!(
        srcs.len() > 3,
        "the workspace's crates were not found: {srcs:?}"
    );
    let mut out = Vec::new();
    for (name, src) in srcs {
        for (rel, code) in sources_under(&src) {
            out.push((format!("{name}/{}", rel.display()), code));
        }
    }
    out
}

/// The files whose code contains `needle`.
fn files_with(needle: &str) -> Vec<String> {
    sources()
        .into_iter()
        .filter(|(_, code)| code.contains(needle))
        .map(|(p, _)| p.display().to_string())
        .collect()
}

#[test]
fn whether_a_side_acts_in_a_phase_is_decided_only_by_actor_includes() {
    // `includes` matches on `Self::...`; a match on `Actor::...` anywhere is a second answer.
    for arm in [
        "Actor::Phasing =>",
        "Actor::NonPhasing =>",
        "Actor::Both =>",
    ] {
        let copies = files_with(arm);
        assert!(
            copies.is_empty(),
            "`{arm}` is matched outside `Actor::includes`: {copies:?}"
        );
    }
    assert_eq!(
        files_with("pub fn includes(self, side: SideId"),
        ["rules.rs"]
    );
    // `includes` is asked wherever the question comes up, not answered again.
    let askers = files_with("actor.includes(");
    for file in ["game/legal.rs", "game/sequence.rs"] {
        assert!(
            askers.iter().any(|a| a == file),
            "{file} does not ask: {askers:?}"
        );
    }
}

#[test]
fn what_a_phase_allows_is_worded_in_one_place() {
    for words in ["\"moving\"", "\"changing facing\"", "\"changing mode\""] {
        assert_eq!(
            files_with(words),
            ["game/sequence.rs"],
            "{words} is written twice"
        );
    }
}

/// Outside the kernel, no crate decides who may act or who moves: the editor, the CLI,
/// the server and the players ask `Game::to_act` / `Game::acting_words` /
/// `game::is_mover`. (The rules crate builds `Actor` from the ruleset's words: it names
/// the variants as values, never matches on them.)
#[test]
fn no_other_crate_answers_who_may_act_or_who_moves_again() {
    let code = other_crates();
    for needle in [
        "Actor::Phasing =>",
        "Actor::NonPhasing =>",
        "Actor::Both =>",
        "actor.includes(",
        "movers.contains(",
        "movers.is_empty()",
        "\"nobody acts",
    ] {
        let copies: Vec<&str> = code
            .iter()
            .filter(|(_, c)| starts_a_word(c, needle))
            .map(|(p, _)| p.as_str())
            .collect();
        assert!(
            copies.is_empty(),
            "`{needle}` outside the kernel: {copies:?}"
        );
    }
    // And the kernel states the mover rule once.
    assert_eq!(files_with("movers.contains("), ["game/mod.rs"]);
}

/// Outside the kernel, no crate re-asks the phase's gate for a move or words its answer
/// again: `reach`'s note once re-derived "the phase allows moving" and "only these types
/// move" and wrote both a second time ("does not allow moving", the movers list); it now
/// asks `Game::phase_keeps_from_moving`. Looked for in the code with its line breaks and
/// spaces taken out (rustfmt splits a chain of calls over lines), comments left out, and
/// in the words a refusal of the gate uses, whatever it does not allow.
#[test]
fn no_other_crate_asks_the_phase_gate_again_or_words_it() {
    let code = other_crates();
    let copies = |needles: &[&str], text: fn(&str) -> String| -> Vec<String> {
        let mut found = Vec::new();
        for (path, c) in &code {
            let c = text(c);
            for needle in needles {
                if c.contains(needle) {
                    found.push(format!("{path}: `{needle}`"));
                }
            }
        }
        found
    };
    let calls = copies(
        &["allows.contains(", "allows.iter().any(", ".movers.iter("],
        |c| squeezed(&without_comments(c)),
    );
    assert!(calls.is_empty(), "the gate asked again: {calls:?}");
    let words = copies(
        &["does not allow", "pieces move", "is not moving now"],
        without_comments,
    );
    assert!(words.is_empty(), "the gate worded again: {words:?}");
    // In the kernel, the gate's words are in one file.
    for phrase in ["does not allow", "pieces move", "is not moving now"] {
        let files: Vec<String> = sources()
            .into_iter()
            .filter(|(_, c)| without_comments(c).contains(phrase))
            .map(|(p, _)| p.display().to_string())
            .collect();
        assert_eq!(files, ["game/bans.rs"], "`{phrase}` is written twice");
    }
}

/// `code` without its comment lines (`//`, `///`, `//!`).
fn without_comments(code: &str) -> String {
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `code` with every space and line break taken out.
fn squeezed(code: &str) -> String {
    code.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Whether `needle` occurs in `code` not as the tail of a longer name (the rules crate's
/// `PhaseActor::Phasing =>` is not `Actor::Phasing =>`).
fn starts_a_word(code: &str, needle: &str) -> bool {
    code.match_indices(needle).any(|(at, _)| {
        !code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}
