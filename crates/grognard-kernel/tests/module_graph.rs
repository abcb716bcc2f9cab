//! No circles between the top-level modules of any crate of the workspace (and of the
//! binary's `src/`), but the ones docs/architecture.md admits under "Module circles outside
//! the kernel" (issue 35). A circle is where a newcomer cannot read one module before the
//! other; `layers.rs` checks the kernel more strictly still.
//!
//! A use counts where code that is not a comment names `crate::MODULE`, grouped imports
//! (`use crate::{a, b::c}`) included; `#[cfg(test)]` modules are left out, since unit tests
//! may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Circles docs/architecture.md admits, as (crate folder, module, module). Each pair's
/// edges both ways are left out before circles are looked for; the test fails when a pair
/// no longer names each other (a stale entry: take it off, and off the doc's table).
const ADMITTED: &[(&str, &str, &str)] = &[
    ("grognard-play", "policy", "search"),
    ("grognard-rules", "sheet", "sheet_pieces"),
    ("grognard-rules", "sheet", "sheet_rules"),
];

/// `text` with comments and `#[cfg(test)]` modules dropped (line by line).
fn code_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let next = lines.get(i + 1).map_or("", |l| l.trim_start());
        if line.trim() == "#[cfg(test)]"
            && (next.starts_with("mod ") || next.starts_with("pub mod "))
            && next.trim_end().ends_with('{')
        {
            let indent = line.len() - line.trim_start().len();
            let close = format!("{}}}", " ".repeat(indent));
            i = (i + 1..lines.len())
                .find(|&j| lines[j].trim_end() == close)
                .unwrap_or(lines.len())
                + 1;
            continue;
        }
        let code = line.split("//").next().unwrap_or_default();
        if !code.trim().is_empty() {
            kept.push(code);
        }
        i += 1;
    }
    kept
}

/// The top-level modules `code` names after `crate::`, grouped imports included.
fn named_modules(code: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        // `$crate::` is a macro's own crate, not a module of this one's.
        if code[..at].ends_with('$') {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        found.insert(ident(&group[start..i]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.insert(ident(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            found.insert(ident(rest));
        }
    }
    found.retain(|m| !m.is_empty());
    found
}

/// Each top-level module of the crate whose source is `src` with the ones its code names.
fn graph(src: &Path) -> Graph {
    let mut graph = Graph::new();
    let mut stack = vec![src.to_path_buf()];
    let mut files: Vec<PathBuf> = Vec::new();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    for path in files {
        let rel = path.strip_prefix(src).expect("under src");
        let first = rel.components().next().expect("a file name");
        let top = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        let text = std::fs::read_to_string(&path).expect("read a source file");
        let code = code_lines(&text).join("\n");
        graph.entry(top).or_default().extend(named_modules(&code));
    }
    // Only the crate's own modules are nodes (`crate::SomeType` re-exported at the root
    // names no module); the root file and a module's own path are no edges.
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for (module, deps) in &mut graph {
        deps.retain(|d| d != module && modules.contains(d) && d != "lib" && d != "main");
    }
    graph
}

/// A circle in `graph` as the modules around it (first repeated at the end), if any.
fn a_circle(graph: &Graph) -> Option<Vec<String>> {
    // Depth-first search with the path on a stack: an edge back into the path is a circle.
    fn visit(
        graph: &Graph,
        node: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.to_owned());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(graph, next, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(graph, node, &mut Vec::new(), &mut done))
}

/// Every crate's source folder: the workspace's crates and the binary's `src/`.
fn crates() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = vec![("grognard".to_owned(), root.join("src"))];
    for entry in std::fs::read_dir(root.join("crates")).expect("read crates/") {
        let path = entry.expect("a crate").path();
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        out.push((name, path.join("src")));
    }
    out.sort();
    out
}

#[test]
fn no_crate_has_a_module_circle_the_docs_do_not_admit() {
    let crates = crates();
    assert!(crates.len() >= 7, "found only {} crates", crates.len());
    let mut circles = Vec::new();
    for (name, src) in &crates {
        let mut graph = graph(src);
        assert!(
            graph.len() > 2,
            "{name}: found only {} modules",
            graph.len()
        );
        for (krate, a, b) in ADMITTED.iter().filter(|(k, _, _)| k == name) {
            let names = |x: &str, y: &str| graph.get(x).is_some_and(|d| d.contains(y));
            assert!(
                names(a, b) && names(b, a),
                "{krate}: `{a}` and `{b}` no longer name each other: take the pair off \
                 ADMITTED and off docs/architecture.md's circles"
            );
        }
        for (_, a, b) in ADMITTED.iter().filter(|(k, _, _)| k == name) {
            graph.entry((*a).to_owned()).or_default().remove(*b);
            graph.entry((*b).to_owned()).or_default().remove(*a);
        }
        if let Some(circle) = a_circle(&graph) {
            circles.push(format!("{name}: {}", circle.join(" → ")));
        }
    }
    assert!(
        circles.is_empty(),
        "module circles docs/architecture.md does not admit (move the shared item below \
         both, or admit the circle there and in ADMITTED):\n{}",
        circles.join("\n")
    );
}

#[test]
fn a_circle_through_grouped_imports_is_found_and_tests_and_comments_are_not_read() {
    let a = "use crate::{b::X, c};\n// crate::d in a comment\n#[cfg(test)]\nmod tests {\n    use crate::e;\n}\n";
    assert_eq!(
        named_modules(&code_lines(a).join("\n")),
        ["b", "c"].map(String::from).into()
    );
    let mut graph = Graph::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "d"), ("d", "b"), ("a", "d")] {
        graph.entry(from.into()).or_default().insert(to.into());
        graph.entry(to.into()).or_default();
    }
    let circle = a_circle(&graph).expect("b → c → d → b");
    assert_eq!(circle, ["b", "c", "d", "b"].map(String::from));
    graph.get_mut("d").expect("d").remove("b");
    assert_eq!(a_circle(&graph), None);
}
