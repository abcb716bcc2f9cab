//! Questions the kernel answers in one place, read from its source so that a second copy
//! cannot creep back: who may act in a phase (`Actor::includes`, in `rules.rs`) and the
//! words for what a phase allows (`Game::allowed_words`, in `game/sequence.rs`). Copies
//! drifted before: the same fallback was "that action" in one and "an action" in another.

use std::path::{Path, PathBuf};

/// Every kernel source file with its text, tests left out (a file's `#[cfg(test)]` tail).
fn sources() -> Vec<(PathBuf, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read the kernel's src") {
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
                let rel = path.strip_prefix(&src).expect("under src").to_path_buf();
                out.push((rel, code));
            }
        }
    }
    out.sort();
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
    for file in ["game/mod.rs", "game/legal.rs", "game/sequence.rs"] {
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
