//! The workspace's size rules (issue 35): no file past 1,200 lines of Rust or 1,000 of Lua,
//! and no function body a reader must scroll.
//! Every `fn` in `crates/*/src` and the binary's `src/` is at most [`LIMIT`] lines, from
//! its `fn` line to its closing brace, outside tests (a file's `#[cfg(test)] mod` blocks,
//! wherever they stand, and files that are test modules are left out).
//!
//! Read from the source as rustfmt lays it out: a function whose signature starts at some
//! indentation ends at the first later line that is that indentation and `}`. A signature
//! ending in `;` (a trait method with no body) is no body.

use std::path::{Path, PathBuf};

/// The longest function body allowed, in lines.
const LIMIT: usize = 150;

/// Functions over the limit that another engineer's work in progress owns, each with why.
/// Empty this list as they are split; the test fails when one is shorter (stale entry).
const KNOWN: &[(&str, &str)] = &[];

/// Each function of `text` longer than `limit`: its name, first line (1-based) and length.
fn long_functions(text: &str, limit: usize) -> Vec<(String, usize, usize)> {
    let code = without_test_modules(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let indent = line.len() - line.trim_start().len();
        // The signature ends at the first line ending in `{` (a body) or `;` (none).
        let Some(open) = (i..lines.len()).find(|&j| {
            let l = lines[j].trim_end();
            l.ends_with('{') || l.ends_with(';')
        }) else {
            continue;
        };
        if lines[open].trim_end().ends_with(';') {
            continue;
        }
        if lines[open].trim_end().ends_with('}') {
            continue;
        }
        let close = format!("{}}}", " ".repeat(indent));
        let Some(end) = (open..lines.len()).find(|&j| lines[j].trim_end() == close) else {
            continue;
        };
        let len = end - i + 1;
        if len > limit {
            found.push((name, i + 1, len));
        }
    }
    found
}

/// `text` with each `#[cfg(test)]` module blanked, line for line (so line numbers hold).
/// Only a test *module* is cut, to its closing brace: cutting the file at the first
/// `#[cfg(test)]` would hide the code after a test module nested mid-file.
fn without_test_modules(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let next = lines.get(i + 1).map_or("", |l| l.trim_start());
        let opens_module = (next.starts_with("mod ") || next.starts_with("pub mod "))
            && next.trim_end().ends_with('{');
        if line.trim() == "#[cfg(test)]" && opens_module {
            let indent = line.len() - line.trim_start().len();
            let close = format!("{}}}", " ".repeat(indent));
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim_end() == close)
                .unwrap_or(lines.len() - 1);
            kept.extend(std::iter::repeat_n("", end - i + 1));
            i = end + 1;
            continue;
        }
        kept.push(line);
        i += 1;
    }
    kept.join("\n")
}

/// The name a line declares as a function, if it starts one: any visibility (`pub`,
/// `pub(crate)`, `pub(super)`, `pub(self)`, `pub(in path)`), then any of `default`,
/// `const`, `async`, `unsafe` and `extern` with or without its ABI string, in any order.
fn fn_name(line: &str) -> Option<String> {
    let mut rest = line.trim_start();
    if let Some(after) = rest.strip_prefix("pub") {
        if let Some(inner) = after.strip_prefix('(') {
            rest = inner.split_once(')')?.1.trim_start();
        } else if after.starts_with(' ') {
            rest = after.trim_start();
        }
    }
    loop {
        let before = rest;
        for qualifier in ["default ", "const ", "async ", "unsafe ", "extern "] {
            rest = rest.strip_prefix(qualifier).unwrap_or(rest).trim_start();
        }
        if let Some(abi) = rest.strip_prefix('"') {
            rest = abi.split_once('"')?.1.trim_start();
        }
        if rest == before {
            break;
        }
    }
    let rest = rest.strip_prefix("fn ")?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Every Rust source file under `dir`, test modules left out.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if path.is_dir() {
            if name != "tests" {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

#[test]
fn no_function_is_longer_than_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    for krate in std::fs::read_dir(root.join("crates")).expect("read crates/") {
        sources(&krate.expect("a crate").path().join("src"), &mut files);
    }
    files.sort();
    assert!(files.len() > 50, "found only {} source files", files.len());
    let mut long = Vec::new();
    let mut known_seen = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read a source file");
        let rel = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string();
        for (name, line, len) in long_functions(&text, LIMIT) {
            if KNOWN.iter().any(|(k, _)| *k == name) {
                known_seen.push(name);
                continue;
            }
            long.push(format!("{rel}:{line} `{name}` is {len} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "functions over {LIMIT} lines (split them into named steps):\n{}",
        long.join("\n")
    );
    for (k, why) in KNOWN {
        assert!(
            known_seen.iter().any(|s| s == k),
            "`{k}` is no longer over {LIMIT} lines: take it off KNOWN ({why})"
        );
    }
}

#[test]
fn the_counter_finds_a_long_body_and_skips_tests_and_bodiless_signatures() {
    let body = "        let x = 1;\n".repeat(LIMIT);
    let text = format!(
        "trait T {{\n    fn sig(&self);\n}}\n\nimpl S {{\n    pub(crate) fn long(\n        &self,\n    ) {{\n{body}    }}\n\n    fn short() {{}}\n}}\n\n#[cfg(test)]\nmod tests {{\n    fn in_tests() {{\n{body}    }}\n}}\n"
    );
    let found = long_functions(&text, LIMIT);
    assert_eq!(found, vec![("long".to_owned(), 6, LIMIT + 4)]);
    assert!(long_functions(&text, LIMIT + 4).is_empty());
}

#[test]
fn the_counter_sees_every_form_of_fn() {
    for (line, name) in [
        ("fn plain(", "plain"),
        ("    pub fn a(", "a"),
        ("    pub(crate) fn b(", "b"),
        ("    pub(super) fn c(", "c"),
        ("    pub(self) fn c2(", "c2"),
        ("pub(in crate::game) fn d(", "d"),
        ("    pub(in crate::game) fn hook_failed<'a>(", "hook_failed"),
        ("pub const fn e(", "e"),
        ("pub(crate) const unsafe fn f(", "f"),
        ("    async fn g(", "g"),
        ("pub(crate) async unsafe fn h(", "h"),
        ("unsafe fn i(", "i"),
        ("extern \"C\" fn j(", "j"),
        ("pub unsafe extern \"C\" fn k(", "k"),
        ("extern fn l(", "l"),
        ("default fn m(", "m"),
    ] {
        assert_eq!(fn_name(line).as_deref(), Some(name), "{line}");
    }
    for line in [
        "let fn_name = 1;",
        "pub struct F;",
        "// fn commented(",
        "pub(crate) use x::fn_y;",
        "pub(in crate::game) enum TargetBan<'a> {",
        "extern crate alloc;",
        "\"fn\" in a string",
    ] {
        assert_eq!(fn_name(line), None, "{line}");
    }
    // A long body behind `pub(in path)` is counted like any other.
    let body = "    let x = 1;\n".repeat(LIMIT);
    let text = format!("pub(in crate::game) fn long() {{\n{body}}}\n");
    assert_eq!(
        long_functions(&text, LIMIT),
        vec![("long".to_owned(), 1, LIMIT + 2)]
    );
}

#[test]
fn the_counter_reads_on_past_a_test_module_nested_mid_file() {
    let body = "        let x = 1;\n".repeat(LIMIT);
    // As in geometry/mod.rs: an inner module's tests, then more code of the file.
    let text = format!(
        "mod inner {{\n    #[cfg(test)]\n    mod tests {{\n        fn in_tests() {{\n{body}        }}\n    }}\n}}\n\nfn after() {{\n{body}}}\n\n#[cfg(test)]\nmod tests {{\n    fn t() {{\n{body}    }}\n}}\n"
    );
    let found = long_functions(&text, LIMIT);
    let after = LIMIT + 9;
    assert_eq!(found, vec![("after".to_owned(), after, LIMIT + 2)]);
}

/// The longest Rust source file allowed, in lines (test files included).
const RUST_FILE_LIMIT: usize = 1_200;
/// The longest Lua script allowed, in lines.
const LUA_FILE_LIMIT: usize = 1_000;

/// Every file under `dir` (recursively) whose name ends in `.ext`.
fn files_with(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                files_with(&path, ext, out);
            }
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

#[test]
fn no_file_is_longer_than_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut over = Vec::new();
    for (dirs, ext, limit) in [
        (
            &["src", "crates", "tests", "benches"][..],
            "rs",
            RUST_FILE_LIMIT,
        ),
        // The rulesets' scripts, the sandbox's prelude and the example policies.
        (
            &["scripts", "crates/grognard-lua/src", "examples"][..],
            "lua",
            LUA_FILE_LIMIT,
        ),
    ] {
        let mut files = Vec::new();
        for dir in dirs {
            files_with(&root.join(dir), ext, &mut files);
        }
        assert!(!files.is_empty(), "no .{ext} files found");
        for file in files {
            let lines = std::fs::read_to_string(&file)
                .expect("read a source file")
                .lines()
                .count();
            if lines > limit {
                let rel = file
                    .strip_prefix(&root)
                    .unwrap_or(&file)
                    .display()
                    .to_string();
                over.push(format!("{rel} is {lines} lines (at most {limit})"));
            }
        }
    }
    over.sort();
    assert!(
        over.is_empty(),
        "files over the house's size (give them inner walls by concern):\n{}",
        over.join("\n")
    );
}
