//! House-rule overlays: a ruleset that `extends:` another changes only what differs.
//!
//! Layers merge as located trees, before decoding, so every value keeps the file, line and
//! column it came from: an error in what an overlay changed points at the overlay. Maps
//! merge key by key (named items — terrain, piece types, charts, options — are map entries,
//! so they merge by name); anything else, lists included, is replaced whole; `remove:`
//! deletes inherited items by dotted path.

use std::path::{Component, Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics, Location};
use crate::node::{Node, Value};

/// Most layers in one chain (club → variant → base ...), a guard against runaway chains.
pub const MAX_LAYERS: usize = 16;

/// Removes `.` and `dir/..` pairs without touching the disk, so chunk names and messages
/// read `scripts/weather.lua`, not `rulesets/../scripts/weather.lua`.
#[must_use]
pub fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        PathBuf::from(".")
    } else {
        out.iter().collect()
    }
}

/// Merges `overlay` onto `base`. A ruleset's own `notes` (the readings it chose) add to
/// the notes it inherits rather than replacing them: a variant keeps its base's readings.
#[must_use]
pub fn merge(base: Node, overlay: Node) -> Node {
    let mut overlay = overlay;
    if let (Value::Map(below), Value::Map(above)) = (&base.value, &mut overlay.value) {
        let inherited = below
            .iter()
            .find(|(k, _)| k.key_text() == "notes")
            .and_then(|(_, v)| match &v.value {
                Value::Seq(items) => Some(items.clone()),
                _ => None,
            });
        if let Some(inherited) = inherited
            && let Some((_, own)) = above.iter_mut().find(|(k, _)| k.key_text() == "notes")
            && let Value::Seq(items) = &mut own.value
        {
            let mut all = inherited;
            all.extend(std::mem::take(items));
            *items = all;
        }
    }
    merge_node(base, overlay)
}

fn merge_node(base: Node, overlay: Node) -> Node {
    match (base.value, overlay.value) {
        (Value::Map(mut entries), Value::Map(changes)) => {
            for (key, value) in changes {
                let name = key.key_text();
                match entries.iter().position(|(k, _)| k.key_text() == name) {
                    Some(i) => {
                        let (_, old) = entries.remove(i);
                        entries.insert(i, (key, merge_node(old, value)));
                    }
                    None => entries.push((key, value)),
                }
            }
            Node {
                value: Value::Map(entries),
                location: overlay.location,
            }
        }
        (_, value) => Node {
            value,
            location: overlay.location,
        },
    }
}

/// What an overlay replaced or removed of the layers below it: a dotted path and the place
/// in the overlay that did it. These are the only ways an overlay can break the text it
/// inherits (a list replaced whole, an item removed), so a problem reported in an inherited
/// file names them.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The dotted path (`charts.volley.rows`).
    pub path: String,
    /// Where the overlay wrote it.
    pub at: Location,
    /// True for a `remove:`; false for a replacement.
    pub removed: bool,
}

/// The values `overlay` replaces in `base` (not the maps it merges into, nor what it adds).
#[must_use]
pub fn replacements(base: &Node, overlay: &Node) -> Vec<Change> {
    let mut out = Vec::new();
    collect_replacements(base, overlay, String::new(), &mut out);
    out
}

fn collect_replacements(base: &Node, overlay: &Node, path: String, out: &mut Vec<Change>) {
    match (&base.value, &overlay.value) {
        (Value::Map(entries), Value::Map(changes)) => {
            for (key, value) in changes {
                let name = key.key_text();
                if let Some((_, old)) = entries.iter().find(|(k, _)| k.key_text() == name) {
                    let here = if path.is_empty() {
                        name
                    } else {
                        format!("{path}.{name}")
                    };
                    collect_replacements(old, value, here, out);
                }
            }
        }
        // A layer's own name, title and notes break nothing it inherits.
        _ if matches!(
            path.as_str(),
            "" | "ruleset" | "title" | "notes" | "description"
        ) => {}
        _ if base.value != overlay.value => out.push(Change {
            path,
            at: overlay.location.clone(),
            removed: false,
        }),
        _ => {}
    }
}

/// Help for a problem found in an inherited file: the overlays' replacements and removals
/// that may have caused it, most likely first (those sharing the most of the problem's
/// words), at most three.
#[must_use]
pub fn blame(d: &Diagnostic, changes: &[Change]) -> Option<String> {
    if changes.is_empty() {
        return None;
    }
    let words: Vec<String> = d
        .message
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.len() > 1)
        .map(str::to_owned)
        .collect();
    let score = |c: &Change| {
        c.path
            .split('.')
            .filter(|part| words.iter().any(|w| w == part))
            .count()
    };
    let mut ranked: Vec<&Change> = changes.iter().collect();
    ranked.sort_by_key(|c| std::cmp::Reverse(score(c)));
    // When some change names a word of the problem, only those are named: the others have
    // nothing to do with it and would send the designer to the wrong line.
    if ranked.first().is_some_and(|c| score(c) > 0) {
        ranked.retain(|c| score(c) > 0);
    }
    let changes = ranked.clone();
    let named: Vec<String> = ranked
        .iter()
        .take(3)
        .map(|c| {
            format!(
                "{} `{}` at {}",
                if c.removed { "removed" } else { "replaced" },
                c.path,
                c.at
            )
        })
        .collect();
    let more = changes.len().saturating_sub(3);
    Some(format!(
        "this text is inherited; the overlay {}{}: change the overlay to match, or keep what this line needs",
        named.join(", "),
        if more > 0 {
            format!(" (and {more} more)")
        } else {
            String::new()
        }
    ))
}

/// Deletes the item at a dotted path (`terrain.swamp`). Returns false when nothing is there.
pub fn remove_path(root: &mut Node, path: &str) -> bool {
    let parts: Vec<&str> = path.split('.').filter(|p| !p.is_empty()).collect();
    let Some((last, parents)) = parts.split_last() else {
        return false;
    };
    let mut node = root;
    for part in parents {
        let Value::Map(entries) = &mut node.value else {
            return false;
        };
        let Some(next) = entries.iter_mut().find(|(k, _)| k.key_text() == *part) else {
            return false;
        };
        node = &mut next.1;
    }
    let Value::Map(entries) = &mut node.value else {
        return false;
    };
    let before = entries.len();
    entries.retain(|(k, _)| k.key_text() != *last);
    entries.len() != before
}

/// Takes a top-level key out of a mapping.
pub fn take_key(root: &mut Node, key: &str) -> Option<Node> {
    let Value::Map(entries) = &mut root.value else {
        return None;
    };
    let i = entries.iter().position(|(k, _)| k.key_text() == key)?;
    Some(entries.remove(i).1)
}

/// Rewrites each `scripts:` path, written relative to `file`, to a path from the current
/// folder, so layers from different folders can be merged.
pub fn rebase_scripts(root: &mut Node, file: &Path) {
    let dir = file.parent().unwrap_or_else(|| Path::new(""));
    let Value::Map(entries) = &mut root.value else {
        return;
    };
    let Some((_, scripts)) = entries.iter_mut().find(|(k, _)| k.key_text() == "scripts") else {
        return;
    };
    let Value::Map(modules) = &mut scripts.value else {
        return;
    };
    for (_, path) in modules {
        if let Value::Str(text) = &mut path.value {
            *text = normalize(&dir.join(&*text)).to_string_lossy().into_owned();
        }
    }
}

/// A diagnostic for a chain that loops back on itself, naming every file in the loop.
#[must_use]
pub fn cycle_error(at: &Location, chain: &[PathBuf], again: &Path) -> Diagnostic {
    let mut names: Vec<String> = chain
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    names.push(again.to_string_lossy().into_owned());
    Diagnostic::new(
        at.clone(),
        format!("`extends` goes round in a circle: {}", names.join(" → ")),
    )
}

/// Applies an overlay's `remove:` list to the merged tree, reporting paths that match
/// nothing (at the overlay's line, with the nearest path that exists); returns the removals
/// that took something away, the only ones a problem in inherited text can be blamed on.
pub fn apply_removals(
    merged: &mut Node,
    remove: Option<Node>,
    problems: &mut Diagnostics,
) -> Vec<Change> {
    let mut done = Vec::new();
    let Some(list) = remove else { return done };
    let Value::Seq(items) = list.value else {
        problems.push(Diagnostic::new(
            list.location,
            "`remove:` takes a list of dotted paths, e.g. `[terrain.swamp]`",
        ));
        return done;
    };
    for item in items {
        match &item.value {
            Value::Str(path) => {
                if remove_path(merged, path) {
                    done.push(Change {
                        path: path.clone(),
                        at: item.location.clone(),
                        removed: true,
                    });
                } else {
                    let mut d = Diagnostic::new(
                        item.location.clone(),
                        format!("`remove: {path}`: the ruleset being extended has no such item"),
                    );
                    if let Some(near) = nearest_path(merged, path) {
                        d = d.with_help(format!("did you mean `{near}`?"));
                    }
                    problems.push(d);
                }
            }
            _ => problems.push(Diagnostic::new(
                item.location.clone(),
                "expected a dotted path such as `terrain.swamp`",
            )),
        }
    }
    done
}

/// The existing dotted path closest to `path`: its parents followed as far as they exist,
/// then the closest name among the keys there (`charts.melle` → `charts.melee`).
fn nearest_path(root: &Node, path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split('.').filter(|p| !p.is_empty()).collect();
    let mut node = root;
    let mut found: Vec<String> = Vec::new();
    for part in &parts {
        let Value::Map(entries) = &node.value else {
            return None;
        };
        let keys: Vec<String> = entries.iter().map(|(k, _)| k.key_text()).collect();
        let name = if keys.iter().any(|k| k == part) {
            (*part).to_owned()
        } else {
            crate::suggest::did_you_mean(part, keys.iter().map(String::as_str))?.to_owned()
        };
        node = &entries.iter().find(|(k, _)| k.key_text() == name)?.1;
        found.push(name);
    }
    let near = found.join(".");
    (near != path).then_some(near)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(file: &str, text: &str) -> Node {
        crate::yaml::parse(file, text.as_bytes(), &crate::yaml::Limits::default())
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Replacements are the values an overlay writes over inherited ones: not what it adds,
    /// not the maps it merges into, not its own name; a problem's words rank them.
    #[test]
    fn replacements_and_blame_name_what_an_overlay_overwrote() {
        let base = tree(
            "base.yaml",
            "ruleset: b\ncharts:\n  volley:\n    rows: [1]\n    dice: 2d6\nterrain:\n  clear: {}\n",
        );
        let over = tree(
            "over.yaml",
            "ruleset: o\ncharts:\n  volley:\n    rows: [2]\n    dice: 2d6\n  melee: {}\nterrain:\n  clear: { cost: 1 }\n",
        );
        let changes = replacements(&base, &over);
        let paths: Vec<&str> = changes.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(paths, ["charts.volley.rows"]);
        assert_eq!(changes[0].at.to_string(), "over.yaml:4:11");
        let d = Diagnostic::new(Location::new("base.yaml", 9, 1), "unknown outcome `hit`");
        let note = blame(&d, &changes).unwrap_or_default();
        assert!(
            note.contains("replaced `charts.volley.rows` at over.yaml:4:11"),
            "{note}"
        );
        assert_eq!(blame(&d, &[]), None);
    }

    /// A `remove:` of a path that does not exist once coloured three unrelated errors'
    /// help ("removed `charts.melle`"): it removed nothing, so it is blamed for nothing; it
    /// is its own error at the overlay's line, with the path that exists; and a problem is
    /// blamed only on the changes that share its words (outside designer, issue 39).
    #[test]
    fn a_removal_that_removed_nothing_is_its_own_error_and_blames_nothing() {
        let mut merged = tree(
            "base.yaml",
            "ruleset: b\ncharts:\n  melee: {}\npiece_types:\n  general: {}\n  infantry: {}\n",
        );
        let remove = tree("over.yaml", "[charts.melle, piece_types.general]\n");
        let mut problems = Diagnostics::default();
        let done = apply_removals(&mut merged, Some(remove), &mut problems);
        let paths: Vec<&str> = done.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(paths, ["piece_types.general"]);
        let text = problems.to_string();
        assert!(
            text.contains("over.yaml:1:2: `remove: charts.melle`"),
            "{text}"
        );
        assert!(text.contains("did you mean `charts.melee`?"), "{text}");
        let replaced = Change {
            path: "charts.volley.rows".to_owned(),
            at: Location::new("over.yaml", 9, 1),
            removed: false,
        };
        let mut changes = done;
        changes.push(replaced);
        let d = Diagnostic::new(
            Location::new("base.yaml", 9, 1),
            "unknown piece type `general`",
        );
        let note = blame(&d, &changes).unwrap_or_default();
        assert!(note.contains("removed `piece_types.general`"), "{note}");
        assert!(!note.contains("charts"), "{note}");
    }

    /// A variant's notes add to its base's (the readings it inherits stay stated); any other
    /// list is replaced whole, and a `notes` key below the top is an ordinary value.
    #[test]
    fn an_overlays_notes_add_to_the_bases() {
        let base = tree(
            "base.yaml",
            "ruleset: b\nnotes: [one, two]\ncharts:\n  volley:\n    rows: [1]\n    notes: [x]\n",
        );
        let over = tree(
            "over.yaml",
            "ruleset: o\nnotes: [three]\ncharts:\n  volley:\n    rows: [2]\n    notes: [y]\n",
        );
        let merged = merge(base, over);
        let Value::Map(top) = &merged.value else {
            panic!("a map")
        };
        let texts = |n: &Node| match &n.value {
            Value::Seq(items) => items
                .iter()
                .map(|i| match &i.value {
                    Value::Str(s) => s.clone(),
                    _ => String::new(),
                })
                .collect::<Vec<_>>(),
            _ => Vec::new(),
        };
        let get = |m: &[(Node, Node)], k: &str| {
            m.iter()
                .find(|(key, _)| key.key_text() == k)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("no {k}"))
        };
        assert_eq!(texts(&get(top, "notes")), ["one", "two", "three"]);
        let Value::Map(charts) = get(top, "charts").value else {
            panic!("charts")
        };
        let Value::Map(volley) = get(&charts, "volley").value else {
            panic!("volley")
        };
        assert_eq!(texts(&get(&volley, "rows")).len(), 1);
        assert_eq!(texts(&get(&volley, "notes")), ["y"]);
    }

    #[test]
    fn normalize_drops_parent_pairs() {
        assert_eq!(
            normalize(Path::new("rulesets/../scripts/w.lua")),
            PathBuf::from("scripts/w.lua")
        );
        assert_eq!(normalize(Path::new("./a/b/../c")), PathBuf::from("a/c"));
        assert_eq!(normalize(Path::new("../x")), PathBuf::from("../x"));
    }
}
