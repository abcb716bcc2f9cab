//! The kernel's module layering, read from its source: the top-level modules import one
//! another without a circle, so the compiled rules (`rules` and the data modules under
//! `rules/`) sit below the rules that read them (`company`, `turning`, `victory`, `state`,
//! `reach`, ...), and nothing below `game/` reaches into `game/` (docs/architecture.md).
//!
//! A use counts where a line that is not a comment names `crate::MODULE` (grouped
//! `use crate::{...}` imports are refused, so every use is visible to this test); a file's
//! `#[cfg(test)]` tail is left out, since unit tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module of the kernel with the top-level modules its code names.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read the kernel's src") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(&src).expect("under src");
            let first = rel.components().next().expect("a file name");
            let top = first
                .as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_owned();
            let text = std::fs::read_to_string(&path).expect("read a source file");
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            let deps = graph.entry(top.clone()).or_default();
            for line in code.lines() {
                let line = line.trim_start();
                if line.starts_with("//") {
                    continue;
                }
                assert!(
                    !line.contains("crate::{"),
                    "{}: name each module in its own `use crate::MODULE::...` line",
                    rel.display()
                );
                for (i, _) in line.match_indices("crate::") {
                    // `grognard_kernel::...` or `$crate::` are not this crate's paths.
                    let before = line[..i].chars().last();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                        continue;
                    }
                    let name: String = line[i + "crate::".len()..]
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                        .collect();
                    if !name.is_empty() && name != top {
                        deps.insert(name);
                    }
                }
            }
        }
    }
    graph
}

/// The modules `from` reaches through imports, itself not included unless by a circle.
fn reachable(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<&str> = graph
        .get(from)
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    while let Some(m) = todo.pop() {
        if seen.insert(m.to_owned()) {
            todo.extend(graph.get(m).into_iter().flatten().map(String::as_str));
        }
    }
    seen
}

#[test]
fn no_module_of_the_kernel_imports_itself_through_others() {
    let graph = graph();
    assert!(
        graph.contains_key("rules") && graph.contains_key("company"),
        "{graph:?}"
    );
    let circles: Vec<String> = graph
        .keys()
        .filter(|m| reachable(&graph, m).contains(*m))
        .map(|m| {
            let back: Vec<&String> = graph[m]
                .iter()
                .filter(|d| reachable(&graph, d).contains(m))
                .collect();
            format!("{m} ↔ {back:?}")
        })
        .collect();
    assert!(circles.is_empty(), "module circles: {circles:?}");
}

#[test]
fn the_compiled_rules_import_only_data_below_them() {
    let graph = graph();
    let below: BTreeSet<String> = reachable(&graph, "rules");
    for above in [
        "company", "turning", "victory", "state", "reach", "game", "hooks", "sight",
    ] {
        assert!(
            !below.contains(above),
            "`rules` reaches `{above}`, which reads the rules: {below:?}"
        );
    }
}

#[test]
fn nothing_below_game_imports_game() {
    let graph = graph();
    let users: Vec<&String> = graph
        .iter()
        .filter(|(m, deps)| *m != "game" && *m != "lib" && deps.contains("game"))
        .map(|(m, _)| m)
        .collect();
    assert!(users.is_empty(), "modules below game/ import it: {users:?}");
}

/// The kernel does no I/O and reads no clock (docs/architecture.md): none of the standard
/// library's ways out of the process appears in its source, tests included.
#[test]
fn the_kernel_does_no_io() {
    let ways_out = [
        "std::fs",
        "std::net",
        "std::io",
        "std::env",
        "std::process",
        "std::thread",
        "std::time",
        "SystemTime",
        "Instant::now",
        "println!",
        "eprintln!",
        "print!(",
        "eprint!(",
        "dbg!(",
        "File::",
    ];
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read the kernel's src") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read a source file");
            for (n, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for way in ways_out.iter().filter(|w| line.contains(*w)) {
                    let rel = path.strip_prefix(&src).expect("under src").display();
                    found.push(format!("{rel}:{}: {way}", n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "the kernel reaches outside: {found:#?}");
}
