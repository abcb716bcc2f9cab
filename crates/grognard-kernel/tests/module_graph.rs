//! No circles between the modules of any crate of the workspace (and of the binary's
//! `src/`), at every depth — the top-level modules, and the modules under one parent
//! (`game::steps` and `game::bans`, `compile::charts` and `compile::states`) — but the ones
//! docs/architecture.md admits under "Module circles outside the kernel" (issue 35). A
//! circle is where a newcomer cannot read one module before the other; `layers.rs` checks
//! the kernel's top level more strictly still.
//!
//! A use counts where code that is not a comment names a module by `crate::…`, `super::…`
//! or `self::…`, grouped imports (`use super::{bans::MoveBan, Game}`) included;
//! `#[cfg(test)]` modules are left out, since unit tests may reach anywhere. A module and
//! its parent are not a circle (`super::Game` one way, `mod steps;` the other): only
//! modules of one parent are compared, each with its submodules' uses counted as its own.
//! A method a module adds to a type of its parent (`impl Game` in `game/march.rs`, called
//! as `self.check_save` from `game/steps.rs`) names no module, and is no edge. A name a
//! parent only shows through `pub use` (`super::Command`, with `pub use commands::Command`
//! in `app/mod.rs`; `crate::Order` through `pub use orders::*`) counts as the module that
//! defines it, followed through any number of re-exports and globs.
//!
//! What it cannot see, since it reads lines, not Rust: uses inside `/* … */` comments and
//! inside string literals count as uses (a false circle), and a `//` inside a string hides
//! the rest of its line (a missed one); a name
//! re-exported under another (`pub use a::X as Y`) is known only as `X`; a `pub use a::*`
//! is followed only to items its module declares `pub` on one line (`pub struct X`),
//! not to items a macro makes; a file a `#[cfg(test)] mod x;` brings in (a test module in
//! a file of its own, not inline) is read as ordinary code; and a method or trait called
//! on a value names no module at all.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Circles docs/architecture.md admits, as (crate folder, module, module), each module by
/// its path (`compile::charts`). Each pair's
/// edges both ways are left out before circles are looked for; the test fails when a pair
/// no longer names each other (a stale entry: take it off, and off the doc's table).
const ADMITTED: &[(&str, &str, &str)] = &[("grognard-play", "policy", "search")];

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

/// The module a source file is, as its path from the crate root: `game/steps.rs` is
/// `game::steps`, `game/mod.rs` and `game.rs` are `game`, `lib.rs` and `main.rs` the root.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        let root = parts.is_empty() && matches!(stem, "lib" | "main");
        if stem != "mod" && !root {
            parts.push(stem.to_owned());
        }
    }
    parts
}

/// The paths of a use tree's text (what follows `crate::`, `super::` or `self::`), each cut
/// where it stops being a path: `a::{b::X, c}` gives `a::b::X` and `a::c`.
fn use_paths(text: &str) -> Vec<Vec<String>> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut head: Vec<String> = Vec::new();
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        if let Some(group) = trimmed.strip_prefix('{') {
            let mut out = Vec::new();
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' | ',' if depth == 0 => {
                        // `a::{self, B}` names `a` itself.
                        for tail in use_paths(&group[start..i]) {
                            let tail = tail.into_iter().filter(|t| t != "self");
                            out.push(head.iter().cloned().chain(tail).collect());
                        }
                        if c == '}' {
                            break;
                        }
                        start = i + 1;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            return out;
        }
        let name = ident(trimmed);
        if name.is_empty() {
            return if head.is_empty() {
                Vec::new()
            } else {
                vec![head]
            };
        }
        let after = trimmed[name.len()..].trim_start();
        head.push(name);
        match after.strip_prefix("::") {
            Some(more) => rest = more,
            None => return vec![head],
        }
    }
}

/// The paths from the crate root that `code`, the code of the module `module`, names:
/// after `crate::`, and after `super::` and `self::` from where the module is (grouped
/// imports included).
fn named_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        // `$crate::` is a macro's own crate, and `grognard_kernel::` another crate's root.
        let before = code[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        found.extend(use_paths(&code[at + "crate::".len()..]));
    }
    for (at, _) in code
        .match_indices("super::")
        .chain(code.match_indices("self::"))
    {
        let before = code[..at].chars().last();
        // Only the first of `super::super::`, and not `Self::` or another word's tail.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut base = module.to_vec();
        let mut rest = &code[at..];
        loop {
            if let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            } else if let Some(r) = rest.strip_prefix("self::") {
                rest = r;
            } else {
                break;
            }
        }
        for tail in use_paths(rest) {
            found.push(base.iter().cloned().chain(tail).collect());
        }
    }
    found
}

/// The top-level modules `code` names after `crate::`, grouped imports included.
fn named_modules(code: &str) -> BTreeSet<String> {
    (named_paths(code, &[]).into_iter())
        .filter_map(|p| p.into_iter().next())
        .collect()
}

/// What a module's `pub use` lines make it show: each re-exported name (`pub use
/// commands::Command` in `app` shows `Command` as `app::commands::Command`), the modules it
/// shows whole (`pub use orders::*`), and the items it declares `pub` itself (so a glob
/// of it can be followed).
#[derive(Default)]
struct Shown {
    names: BTreeMap<String, Vec<String>>,
    globs: Vec<Vec<String>>,
    declared: BTreeSet<String>,
}

/// `code`'s `pub use` lines (any `pub(…)`), each path from the crate root, with whether
/// it ends in `*`: a path without `crate::`, `super::` or `self::` starts in `module`.
fn reexports(code: &str, module: &[String]) -> Vec<(Vec<String>, bool)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("use ") {
        let before = &code[..at];
        let head = before[before.rfind('\n').map_or(0, |n| n + 1)..].trim();
        if !(head == "pub" || head.starts_with("pub(")) {
            continue;
        }
        let Some(end) = code[at..].find(';') else {
            continue;
        };
        let text = &code[at + "use ".len()..at + end];
        let glob = text.contains('*');
        let trimmed = text.trim_start();
        let paths = if trimmed.starts_with("crate::")
            || trimmed.starts_with("super::")
            || trimmed.starts_with("self::")
        {
            named_paths(trimmed, module)
        } else {
            use_paths(trimmed)
                .into_iter()
                .map(|p| module.iter().cloned().chain(p).collect())
                .collect()
        };
        out.extend(paths.into_iter().map(|p| (p, glob)));
    }
    out
}

/// The names `code` declares `pub` (any `pub(…)`): `pub struct X`, `pub const fn f`.
fn declared(code: &str) -> BTreeSet<String> {
    const KINDS: &[&str] = &[
        "struct", "enum", "fn", "trait", "type", "mod", "union", "static",
    ];
    let mut out = BTreeSet::new();
    for line in code.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if !words
            .first()
            .is_some_and(|w| *w == "pub" || w.starts_with("pub("))
        {
            continue;
        }
        // `const` names a constant unless a `fn` follows (`pub const fn f`).
        let kind = words.iter().enumerate().position(|(i, w)| {
            KINDS.contains(w) || (*w == "const" && words.get(i + 1) != Some(&"fn"))
        });
        if let Some(name) = kind.and_then(|k| words.get(k + 1)) {
            let name: String = name
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// Whether `module` declares or shows `name`, through globs too (`depth` bounds the
/// search, since two modules could show each other whole).
fn shows(shown: &BTreeMap<Vec<String>, Shown>, module: &[String], name: &str, depth: u8) -> bool {
    shown.get(module).is_some_and(|s| {
        s.declared.contains(name)
            || s.names.contains_key(name)
            || (depth > 0 && s.globs.iter().any(|g| shows(shown, g, name, depth - 1)))
    })
}

/// `path` with each name a module shows through `pub use` replaced by where it is
/// defined, as often as that goes (`app::Command` becomes `app::commands::Command`;
/// `model::Order`, shown by `pub use orders::*`, becomes `model::orders::Order`).
fn resolve(
    mut path: Vec<String>,
    modules: &BTreeSet<Vec<String>>,
    shown: &BTreeMap<Vec<String>, Shown>,
) -> Vec<String> {
    // A bound, since two modules could show each other's names round and round.
    for _ in 0..16 {
        // The longest module the path starts with (the crate root at least).
        let Some(k) = (0..path.len())
            .rev()
            .find(|&k| k == 0 || modules.contains(&path[..k]))
        else {
            break;
        };
        let Some(here) = shown.get(&path[..k]) else {
            break;
        };
        let name = &path[k];
        let target = here.names.get(name).cloned().or_else(|| {
            let from = here.globs.iter().find(|g| shows(shown, g, name, 16))?;
            Some(from.iter().chain([name]).cloned().collect())
        });
        match target {
            Some(t) if t != path[..=k] => {
                path = t.into_iter().chain(path[k + 1..].iter().cloned()).collect();
            }
            _ => break,
        }
    }
    path
}

/// Every module of the crate whose source is `src` (by its path, `game::steps`), with the
/// modules beside it (under the same parent) that its code or its submodules' name: a
/// circle can only be between modules of one parent, since a module and its parent name
/// each other as a matter of course (`super::Game`, `mod steps;`). A name the parent only
/// shows (`super::Command`, from the parent's `pub use commands::Command`) counts as the
/// module that defines it.
fn graph(src: &Path) -> Graph {
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
    let mut uses: Vec<(Vec<String>, Vec<Vec<String>>)> = Vec::new();
    let mut modules: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut shown: BTreeMap<Vec<String>, Shown> = BTreeMap::new();
    for path in files {
        let module = module_of(path.strip_prefix(src).expect("under src"));
        let text = std::fs::read_to_string(&path).expect("read a source file");
        let code = code_lines(&text).join("\n");
        let named = named_paths(&code, &module);
        let here = shown.entry(module.clone()).or_default();
        for (target, glob) in reexports(&code, &module) {
            if glob {
                here.globs.push(target);
            } else if let Some(name) = target.last() {
                here.names.insert(name.clone(), target.clone());
            }
        }
        here.declared = declared(&code);
        // A module is a node with its parents (`a::b::c` makes `a` and `a::b` nodes too).
        for n in 1..=module.len() {
            modules.insert(module[..n].to_vec());
        }
        uses.push((module, named));
    }
    let key = |m: &[String]| m.join("::");
    let mut graph: Graph = modules.iter().map(|m| (key(m), BTreeSet::new())).collect();
    for (module, named) in uses {
        for path in named {
            let path = resolve(path, &modules, &shown);
            // Where the two paths part, the module's ancestor (or itself) and the named
            // one's are modules of one parent: that is the edge, if the named one is a
            // module (not an item of the parent, as `crate::SomeType` or `super::Game`).
            let common = module.iter().zip(&path).take_while(|(a, b)| a == b).count();
            if common < module.len() && common < path.len() {
                let to = &path[..=common];
                if modules.contains(to) {
                    let from = key(&module[..=common]);
                    graph.entry(from).or_default().insert(key(to));
                }
            }
        }
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
    // A sibling named through `super::`, grouped and nested, `self` in a group, and
    // `super::super::` from a grandchild; an item of the parent (`Game`) is no module.
    let module: Vec<String> = ["game", "steps"].map(String::from).into();
    let b = "use super::{bans::{MoveBan, NO_GRID}, Game};\nuse crate::geometry::{self, Cell};\nlet x = super::super::rules::X;";
    let named: BTreeSet<String> = named_paths(&code_lines(b).join("\n"), &module)
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    let want = [
        "game::bans::MoveBan",
        "game::bans::NO_GRID",
        "game::Game",
        "geometry",
        "geometry::Cell",
        "rules::X",
    ];
    assert_eq!(named, want.map(String::from).into());
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

/// The graph of a small crate on disk: two modules under `game` that name each other
/// through `super::` are a circle; each naming its parent's `Game` is not.
#[test]
fn a_circle_between_modules_of_one_parent_is_found() {
    let src = std::env::temp_dir().join(format!("module_graph_{}", std::process::id()));
    let game = src.join("game");
    std::fs::create_dir_all(&game).expect("a scratch folder");
    let files = [
        ("lib.rs", "mod game;\nmod rules;\n"),
        ("rules.rs", "pub struct Rules;\n"),
        (
            "game/mod.rs",
            "mod a;\nmod b;\nuse crate::rules::Rules;\npub struct Game;\n",
        ),
        (
            "game/a.rs",
            "use super::Game;\nuse super::b::ban;\npub fn step() {}\n",
        ),
        (
            "game/b.rs",
            "use super::{Game, a};\npub fn ban() { a::step() }\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(src.join(name), text).expect("a scratch file");
    }
    let graph = graph(&src);
    std::fs::remove_dir_all(&src).expect("the scratch folder removed");
    let edges = |m: &str| graph.get(m).cloned().unwrap_or_default();
    assert_eq!(edges("game"), ["rules"].map(String::from).into());
    assert_eq!(edges("game::a"), ["game::b"].map(String::from).into());
    assert_eq!(edges("game::b"), ["game::a"].map(String::from).into());
    let circle = a_circle(&graph).expect("game::a ↔ game::b");
    assert_eq!(circle, ["game::a", "game::b", "game::a"].map(String::from));
}

/// Two modules that name each other only through their parent's `pub use` lines
/// (`super::Command`, `super::RemoteForm`; `crate::Order` through a `pub use orders::*`)
/// are a circle: the parent showing a name does not hide where it is defined.
#[test]
fn a_circle_through_a_reexport_is_found() {
    let src = std::env::temp_dir().join(format!("module_graph_re_{}", std::process::id()));
    std::fs::create_dir_all(src.join("app")).expect("a scratch folder");
    std::fs::create_dir_all(src.join("model")).expect("a scratch folder");
    let files = [
        ("lib.rs", "mod app;\nmod model;\npub use model::*;\n"),
        (
            "app/mod.rs",
            "mod commands;\nmod remote_tab;\npub use commands::{Command, Other};\n\
             pub use remote_tab::RemoteForm;\npub struct App;\n",
        ),
        (
            "app/commands.rs",
            "use super::{App, RemoteForm};\npub enum Command {}\npub struct Other;\n",
        ),
        (
            "app/remote_tab.rs",
            "use super::Command;\npub struct RemoteForm;\n",
        ),
        (
            "model/mod.rs",
            "mod orders;\nmod states;\npub use orders::*;\npub use states::*;\n",
        ),
        (
            "model/orders.rs",
            "pub struct Order;\npub const fn at() {}\n",
        ),
        ("model/states.rs", "use crate::Order;\npub struct State;\n"),
    ];
    for (name, text) in files {
        std::fs::write(src.join(name), text).expect("a scratch file");
    }
    let graph = graph(&src);
    std::fs::remove_dir_all(&src).expect("the scratch folder removed");
    let edges = |m: &str| graph.get(m).cloned().unwrap_or_default();
    assert_eq!(
        edges("app::commands"),
        ["app::remote_tab"].map(String::from).into()
    );
    assert_eq!(
        edges("app::remote_tab"),
        ["app::commands"].map(String::from).into()
    );
    // `crate::Order`: the root shows `model::*`, which shows `orders::*`.
    assert_eq!(
        edges("model::states"),
        ["model::orders"].map(String::from).into()
    );
    assert!(edges("model::orders").is_empty());
    let circle = a_circle(&graph).expect("app::commands ↔ app::remote_tab");
    assert_eq!(
        circle,
        ["app::commands", "app::remote_tab", "app::commands"].map(String::from)
    );
}
