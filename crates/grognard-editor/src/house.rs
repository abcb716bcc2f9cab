//! House rules: a working copy of a ruleset that the user edits field by field, checked on
//! every edit by the real loader, and saved as an overlay that `extends:` the base and holds
//! only what changed.
//!
//! The working copy is the merged ruleset model as a JSON tree (the model serialises in
//! the same shape the files use). An edit changes one value of that tree; the overlay is
//! the tree difference against the base (maps key by key, anything else whole — exactly
//! how `extends:` merges), written as YAML and loaded with
//! [`grognard_rules::load::load_ruleset`]. A failed load leaves the last good ruleset in
//! force and records the problem against the field that caused it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use grognard_rules::diff::{Change, diff};
use grognard_rules::load::{self, Ruleset, load_ruleset};
use serde_json::{Map, Value};

/// The overlay file the live checks write into the scratch folder.
const LIVE_FILE: &str = "house-rule.yaml";

/// Where an edited value lives in the ruleset tree (`["piece_types", "infantry",
/// "allowance", "battle"]`).
pub type FieldPath = Vec<String>;

/// Builds a [`FieldPath`] from string slices.
#[must_use]
pub fn field(parts: &[&str]) -> FieldPath {
    parts.iter().map(|s| (*s).to_owned()).collect()
}

/// A ruleset being edited into a house rule.
#[derive(Debug)]
pub struct Workbench {
    /// The ruleset the house rule extends.
    pub base: Ruleset,
    base_tree: Value,
    edited: Value,
    /// The last edited version that loaded: the ruleset in force.
    pub current: Ruleset,
    /// The house rule's name (`ruleset:` of the overlay).
    pub name: String,
    /// Problems of the last failed edit, by the field that caused it.
    pub field_errors: BTreeMap<FieldPath, String>,
    /// Every message of the last failed check, `file:line:col: message`.
    pub problems: Vec<String>,
    /// The fields of `field_errors` a failed load marked (cleared when the working copy
    /// loads again); the others (a refused outcome, a field that is not there) were
    /// never put into the working copy and stay marked until that field is typed again.
    load_marked: std::collections::BTreeSet<FieldPath>,
    scratch: PathBuf,
    /// The working copy as last saved as a house rule (`None`: never saved).
    saved: Option<Value>,
}

impl Workbench {
    /// Starts editing `base`; live checks write their overlay into `scratch` (a folder the
    /// caller owns).
    #[must_use]
    pub fn new(base: Ruleset, scratch: &Path) -> Self {
        let base_tree = serde_json::to_value(&base.spec).unwrap_or(Value::Null);
        let name = format!("{}-house", base.rules.identity.name);
        Self {
            current: base.clone(),
            edited: base_tree.clone(),
            base_tree,
            base,
            name,
            field_errors: BTreeMap::new(),
            problems: Vec::new(),
            load_marked: std::collections::BTreeSet::new(),
            scratch: scratch.to_path_buf(),
            saved: None,
        }
    }

    /// The value at `path` in the working copy (even when the last edit did not load).
    #[must_use]
    pub fn value(&self, path: &[String]) -> Option<&Value> {
        path.iter().try_fold(&self.edited, |v, k| match v {
            Value::Object(m) => m.get(k),
            Value::Array(a) => k.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        })
    }

    /// The value at `path` in the base ruleset.
    #[must_use]
    pub fn base_value(&self, path: &[String]) -> Option<&Value> {
        path.iter().try_fold(&self.base_tree, |v, k| match v {
            Value::Object(m) => m.get(k),
            Value::Array(a) => k.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        })
    }

    /// True when the working copy differs from the base.
    #[must_use]
    pub fn is_modified(&self) -> bool {
        overlay_tree(&self.base_tree, &self.edited).is_some()
    }

    /// True when the edits are in a house rule saved since they were last changed: they
    /// are not lost by opening another ruleset (tenth outside player F19).
    #[must_use]
    pub fn is_saved(&self) -> bool {
        self.saved.as_ref() == Some(&self.edited)
    }

    /// Notes that the edits as they stand were saved as a house rule.
    pub fn mark_saved(&mut self) {
        self.saved = Some(self.edited.clone());
    }

    /// Sets one value as the user typed it and checks the result. Text that reads as a
    /// whole number becomes a number, `true`/`false` a boolean, empty text "not set";
    /// anything else stays text (costs such as `1½` or `impassable`, outcome names).
    ///
    /// Returns true when the edited ruleset loaded and is now in force.
    pub fn set_text(&mut self, path: &[String], text: &str) -> bool {
        let mut value = typed(text);
        // A number typed where the base writes text (a chart's score `"6"`) stays text,
        // so the saved house rule writes its rows alike (`score: "5"` beside `"6"`, not
        // `5`: the ninth outside player's F4).
        if value.is_number() && self.base_value(path).is_some_and(Value::is_string) {
            value = Value::from(text.trim());
        }
        self.set(path, value)
    }

    /// Sets one value and checks the result (see [`Self::set_text`]).
    pub fn set(&mut self, path: &[String], value: Value) -> bool {
        if !put(&mut self.edited, path, value) {
            self.field_errors
                .insert(path.to_vec(), "there is no such field to change".into());
            return false;
        }
        self.check(Some(path))
    }

    /// Renames the house rule and checks it again.
    pub fn rename(&mut self, name: &str) -> bool {
        name.trim().clone_into(&mut self.name);
        self.check(None)
    }

    /// Takes a new version of the base (reloaded from disk) and applies the same edits
    /// on top of it.
    pub fn rebase(&mut self, base: Ruleset) {
        let edits = overlay_tree(&self.base_tree, &self.edited);
        self.base_tree = serde_json::to_value(&base.spec).unwrap_or(Value::Null);
        self.edited = self.base_tree.clone();
        if let Some(e) = &edits {
            merge_into(&mut self.edited, e);
        }
        self.base = base;
        self.check(None);
    }

    /// Puts the whole working copy back to the base.
    pub fn revert(&mut self) {
        self.edited = self.base_tree.clone();
        self.current = self.base.clone();
        self.field_errors.clear();
        self.load_marked.clear();
        self.problems.clear();
    }

    /// The working copy loads again: the marks a failed load left go, and so does the
    /// edited field's own (it holds a new value now). A field whose typed text was refused
    /// before it reached the working copy (an unknown outcome) keeps its mark: its box
    /// still shows the refused text, and the value in force is not what it shows.
    fn loaded_again(&mut self, edited: Option<&[String]>) {
        let marked = std::mem::take(&mut self.load_marked);
        self.field_errors
            .retain(|p, _| !marked.contains(p) && edited.is_none_or(|e| e != p.as_slice()));
        self.problems.clear();
    }

    /// Why the house rule cannot be saved now, naming each field that shows an error
    /// (saving then would write the last good value, not what the field shows); `None`
    /// when it can.
    #[must_use]
    pub fn unsaved_reason(&self) -> Option<String> {
        if !self.field_errors.is_empty() {
            // The fields by name only: each error is told in full above the fields, and
            // quoted here it named the field twice and ran off the window (F10).
            let fields: Vec<String> = self
                .field_errors
                .iter()
                .map(|(p, e)| format!("{} ({})", path_words(p), short_error(e)))
                .collect();
            let one = fields.len() == 1;
            return Some(format!(
                "Not saved: {} an error: {} (marked ⚠, explained above the fields). Fix {} \
                 (or Revert) and save again.",
                if one {
                    "a field shows"
                } else {
                    "these fields show"
                },
                fields.join("; "),
                if one { "it" } else { "them" }
            ));
        }
        if !self.problems.is_empty() {
            return Some(format!(
                "Not saved: the last edit does not load, fix it first: {}",
                self.problems.join("; ")
            ));
        }
        None
    }

    fn check(&mut self, edited: Option<&[String]>) -> bool {
        if !self.is_modified() {
            self.current = self.base.clone();
            self.loaded_again(edited);
            return true;
        }
        let result = std::fs::create_dir_all(&self.scratch)
            .map_err(|e| format!("{}: {e}", self.scratch.display()))
            .and_then(|()| {
                let path = self.scratch.join(LIVE_FILE);
                std::fs::write(&path, self.overlay_text(&path))
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                load_ruleset(&path).map_err(|d| d.to_string())
            });
        match result {
            Ok(r) => {
                self.current = r;
                self.loaded_again(edited);
                true
            }
            Err(message) => {
                // A good edit is not blamed, nor named, for another field's error.
                let blamed = edited.filter(|p| !self.fault_is_elsewhere(p));
                let live = self.scratch.join(LIVE_FILE);
                let message = self.in_users_words(&message, &live, blamed);
                self.problems = message.lines().map(str::to_owned).collect();
                if let Some(p) = blamed {
                    self.problems = naming_the_value(std::mem::take(&mut self.problems), p);
                }
                let shown = self
                    .problems
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "the ruleset does not load".into());
                if let Some(p) = blamed {
                    self.field_errors.insert(p.to_vec(), shown);
                    self.load_marked.insert(p.to_vec());
                }
                false
            }
        }
    }

    /// True when the working copy fails to load because of another field already marked,
    /// not the one just edited at `path`: with `path` put back to the base the copy still
    /// fails. A good edit made while another field shows an error is then not marked with
    /// that field's error (cavalry's allowance typed `fast`, then guns 4 → 5, marked guns
    /// with cavalry's message); it comes into force once the other field is fixed.
    fn fault_is_elsewhere(&mut self, path: &[String]) -> bool {
        if !self.load_marked.iter().any(|m| m.as_slice() != path) {
            return false;
        }
        let typed = self.edited.clone();
        let base = self.base_value(path).cloned().unwrap_or(Value::Null);
        put(&mut self.edited, path, base);
        let live = self.scratch.join(LIVE_FILE);
        let still_fails = std::fs::write(&live, self.overlay_text(&live)).is_err()
            || load_ruleset(&live).is_err();
        self.edited = typed;
        still_fails
    }

    /// A loader message about the overlay the live check wrote (a file in the scratch
    /// folder, which the user never sees) put in the user's terms: the value they edited,
    /// and the base ruleset's file and line where that value stands. Every mention of the
    /// scratch file is replaced, each by its own edit where the loader names it (its help
    /// line lists the overlay's changes, "replaced `a.b` at …/house-rule.yaml:10:15, …":
    /// the eighth outside player still read the scratch file there).
    fn in_users_words(&self, message: &str, live: &Path, edited: Option<&[String]>) -> String {
        let shown_live = live.display().to_string();
        let place = match edited {
            Some(path) => self.edit_place(path),
            None => format!("your edits (over {})", load::display(&self.base.path)),
        };
        message
            .lines()
            .map(|l| {
                let l = players_words(&self.only_faulty_changes(l, edited));
                let mut out = String::with_capacity(l.len());
                let mut rest = l.as_str();
                while let Some(i) = rest.find(&shown_live) {
                    let head = &rest[..i];
                    // `replaced `a.b.c` at LIVE:10:15`: that change's own place.
                    let named = head
                        .strip_suffix("` at ")
                        .and_then(|h| h.rsplit_once('`'))
                        .map(|(_, dotted)| self.edit_place(&dotted_field(dotted)));
                    out.push_str(head);
                    out.push_str(named.as_deref().unwrap_or(&place));
                    // Drop the scratch file's `:line:col`, keeping a `: ` that followed it.
                    let after = &rest[i + shown_live.len()..];
                    let tail = after.trim_start_matches(|c: char| c == ':' || c.is_ascii_digit());
                    if after[..after.len() - tail.len()].ends_with(':') && tail.starts_with(' ') {
                        out.push(':');
                    }
                    rest = tail;
                }
                out.push_str(rest);
                out
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The loader's help line for an inherited line that fails ("the overlay replaced
    /// `a` at …, replaced `b` at …: change the overlay to match …") with only the changes
    /// of fields at fault (the one just blamed, those marked ⚠) when it lists any: a good
    /// edit standing beside a bad one is not offered as a cause (village-skirmish's guns
    /// 5 beside cavalry's `fast`). Any other line as it is.
    fn only_faulty_changes(&self, line: &str, edited: Option<&[String]>) -> String {
        const HEAD: &str = "this text is inherited; the overlay ";
        const TAIL: &str = ": change the overlay to match";
        let (Some(h), Some(t)) = (line.find(HEAD), line.rfind(TAIL)) else {
            return line.to_owned();
        };
        let start = h + HEAD.len();
        if t < start {
            return line.to_owned();
        }
        let listed = &line[start..t];
        let listed = listed.split(" (and ").next().unwrap_or(listed);
        let faulty = |item: &&str| {
            item.split('`').nth(1).is_some_and(|dotted| {
                let f = dotted_field(dotted);
                edited.is_some_and(|e| e == f.as_slice()) || self.load_marked.contains(&f)
            })
        };
        let items: Vec<&str> = listed.split(", ").collect();
        let kept: Vec<&str> = items.iter().copied().filter(|i| faulty(i)).collect();
        if kept.is_empty() || kept.len() == items.len() {
            return line.to_owned();
        }
        format!("{}{}{}", &line[..start], kept.join(", "), &line[t..])
    }

    /// Where an edit stands, in the user's terms: `your edit of charts › to_hit › row 1 ›
    /// score (over rulesets/x.yaml:231)` (the base file's line of the value, when found).
    #[must_use]
    pub fn edit_place(&self, path: &[String]) -> String {
        let base = load::display(&self.base.path);
        let at =
            line_of(&self.base.path, path).map_or_else(|| base.clone(), |l| format!("{base}:{l}"));
        format!("your edit of {} (over {at})", path_words(path))
    }

    /// The overlay that makes the base into the working copy, as a YAML file to be
    /// written at `at` (`extends:` is the base, relative to `at` where possible).
    #[must_use]
    pub fn overlay_text(&self, at: &Path) -> String {
        let mut out = String::from(
            "# A house rule written by the grognard editor: only what differs from the base.\n",
        );
        out.push_str(&format!(
            "ruleset: {}\n",
            yaml_scalar(&Value::from(self.name.as_str()))
        ));
        let base = extends_path(at, &self.base.path);
        out.push_str(&format!("extends: {}\n", yaml_scalar(&Value::from(base))));
        let mut edited = self.edited.clone();
        let mut removed = Vec::new();
        cleared(&self.base_tree, &mut edited, "", &mut removed);
        if !removed.is_empty() {
            let list: Vec<Value> = removed.into_iter().map(Value::from).collect();
            out.push_str(&format!("remove: {}\n", yaml_scalar(&Value::Array(list))));
        }
        if let Some(Value::Object(changes)) = overlay_tree(&self.base_tree, &edited) {
            let mut rest = changes;
            rest.remove("ruleset");
            rest.remove("extends");
            write_map(&rest, 0, &mut out);
        }
        out
    }

    /// What the ruleset in force changes from the base, item by item.
    #[must_use]
    pub fn changes(&self) -> Vec<Change> {
        diff(&self.base, &self.current)
    }

    /// Writes the house rule to `path`, loads it back and checks it is the ruleset in
    /// force (same identity). Returns the reloaded ruleset.
    ///
    /// # Errors
    /// A field shows an error or the last edit does not load ([`Self::unsaved_reason`]:
    /// nothing is written), the file cannot be written, does not load, or loads to another
    /// ruleset.
    pub fn save(&self, path: &Path) -> Result<Ruleset, String> {
        if let Some(why) = self.unsaved_reason() {
            return Err(why);
        }
        std::fs::write(path, self.overlay_text(path))
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
        let loaded = load_ruleset(path).map_err(|d| d.to_string())?;
        if loaded.rules.identity != self.current.rules.identity {
            return Err(format!(
                "{} reloads as {} {}, not the edited {} {}",
                path.display(),
                loaded.rules.identity.name,
                loaded.rules.identity.hash,
                self.current.rules.identity.name,
                self.current.rules.identity.hash
            ));
        }
        Ok(loaded)
    }
}

/// Text as the user typed it, as a value of the tree.
#[must_use]
pub fn typed(text: &str) -> Value {
    let t = text.trim();
    if t.is_empty() {
        Value::Null
    } else if let Ok(n) = t.parse::<i64>() {
        Value::from(n)
    } else if t == "true" || t == "false" {
        Value::Bool(t == "true")
    } else {
        Value::from(t)
    }
}

/// A value as it is shown in a cell.
#[must_use]
pub fn shown(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

fn put(root: &mut Value, path: &[String], value: Value) -> bool {
    let Some((last, parents)) = path.split_last() else {
        return false;
    };
    let mut at = root;
    for k in parents {
        at = match at {
            Value::Object(m) => m
                .entry(k.clone())
                .or_insert_with(|| Value::Object(Map::new())),
            Value::Array(a) => match k.parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
                Some(v) => v,
                None => return false,
            },
            _ => return false,
        };
    }
    match at {
        Value::Object(m) => {
            m.insert(last.clone(), value);
            true
        }
        Value::Array(a) => match last.parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
            Some(v) => {
                *v = value;
                true
            }
            None => false,
        },
        _ => false,
    }
}

/// What `edited` changes from `base`, in the shape `extends:` merges: maps key by key,
/// anything else (lists included) whole. `None` when nothing changed.
#[must_use]
pub fn overlay_tree(base: &Value, edited: &Value) -> Option<Value> {
    match (base, edited) {
        (Value::Object(b), Value::Object(e)) => {
            let mut out = Map::new();
            for (k, ev) in e {
                let changed = match b.get(k) {
                    Some(bv) => overlay_tree(bv, ev),
                    None if is_blank(ev) => None,
                    None => Some(ev.clone()),
                };
                if let Some(c) = changed {
                    out.insert(k.clone(), c);
                }
            }
            (!out.is_empty()).then_some(Value::Object(out))
        }
        _ => (base != edited).then(|| edited.clone()),
    }
}

/// Named entries the user blanked out (a terrain cost cleared back to "the step's cost"):
/// taken out of `edited` and listed as dotted paths for the overlay's `remove:`.
fn cleared(base: &Value, edited: &mut Value, at: &str, out: &mut Vec<String>) {
    let (Value::Object(b), Value::Object(e)) = (base, edited) else {
        return;
    };
    let keys: Vec<String> = e.keys().cloned().collect();
    for k in keys {
        let path = if at.is_empty() {
            k.clone()
        } else {
            format!("{at}.{k}")
        };
        let Some(bv) = b.get(&k) else { continue };
        if e.get(&k).is_some_and(Value::is_null) && !bv.is_null() && !k.contains('.') {
            e.remove(&k);
            // Keep the base value so the tree difference sees no change here.
            e.insert(k, bv.clone());
            out.push(path);
        } else if let Some(ev) = e.get_mut(&k) {
            cleared(bv, ev, &path, out);
        }
    }
}

/// Merges an overlay tree into `target` the way `extends:` does.
fn merge_into(target: &mut Value, overlay: &Value) {
    match (target, overlay) {
        (Value::Object(t), Value::Object(o)) => {
            for (k, v) in o {
                match t.get_mut(k) {
                    Some(slot) => merge_into(slot, v),
                    None => {
                        t.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (slot, v) => *slot = v.clone(),
    }
}

fn is_blank(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

/// Drops unset fields and empty lists and maps (the loader's defaults) from a value
/// written whole, so a replaced chart row reads as the user would write it.
fn pruned(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, x)| !is_blank(x))
                .map(|(k, x)| (k.clone(), pruned(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(pruned).collect()),
        other => other.clone(),
    }
}

fn yaml_key(k: &str) -> String {
    let bare = !k.is_empty()
        && k.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        && !matches!(k, "true" | "false" | "null" | "yes" | "no" | "on" | "off")
        && k.parse::<f64>().is_err();
    if bare {
        k.to_owned()
    } else {
        serde_json::to_string(k).unwrap_or_default()
    }
}

/// A value in YAML flow style as a person writes it: `{ score: 8+, result: hit }`,
/// `[a, b]`, words bare, quoted only when YAML would read them as something else.
fn yaml_scalar(v: &Value) -> String {
    match pruned(v) {
        Value::String(s) => yaml_text(&s),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(yaml_scalar).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(m) if m.is_empty() => "{}".to_owned(),
        Value::Object(m) => format!(
            "{{ {} }}",
            m.iter()
                .map(|(k, x)| format!("{}: {}", yaml_key(k), yaml_scalar(x)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

/// A string bare when YAML reads it back as that same string in a flow, quoted otherwise
/// (numbers, booleans, `+1`, text with `: `, `#`, brackets or commas).
fn yaml_text(s: &str) -> String {
    let lower = s.to_ascii_lowercase();
    let number_like = s.parse::<f64>().is_ok()
        || s.strip_prefix(['+', '-', '.'])
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
        || s.starts_with(|c: char| c.is_ascii_digit()) && s.parse::<f64>().is_ok();
    let special = s.is_empty()
        || s.trim() != s
        || number_like
        || matches!(
            lower.as_str(),
            "true" | "false" | "null" | "~" | "yes" | "no" | "on" | "off" | "y" | "n"
        )
        || s.starts_with([
            '-', '?', ':', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', '#',
        ])
        || s.contains(": ")
        || s.contains(" #")
        || s.ends_with(':')
        || s.contains([',', '[', ']', '{', '}', '\n']);
    if special {
        serde_json::to_string(s).unwrap_or_default()
    } else {
        s.to_owned()
    }
}

fn write_map(m: &Map<String, Value>, indent: usize, out: &mut String) {
    for (k, v) in m {
        out.push_str(&" ".repeat(indent));
        out.push_str(&yaml_key(k));
        match v {
            Value::Object(inner) if !inner.is_empty() => {
                out.push_str(":\n");
                write_map(inner, indent + 2, out);
            }
            // A list of maps (a chart's rows) is a block list, one flow map a line.
            Value::Array(items) if items.iter().any(Value::is_object) => {
                out.push_str(":\n");
                for item in items {
                    out.push_str(&" ".repeat(indent + 2));
                    out.push_str("- ");
                    out.push_str(&yaml_scalar(item));
                    out.push('\n');
                }
            }
            _ => {
                out.push_str(": ");
                out.push_str(&yaml_scalar(v));
                out.push('\n');
            }
        }
    }
}

/// The line of `file` where the value at `path` stands: each key of the path looked for
/// in turn below the one before (list positions skipped), so `charts › fire › rows`
/// finds the `rows:` of the `fire:` chart. `None` when a key is not in the file (the value
/// comes from a lower layer).
fn line_of(file: &Path, path: &[String]) -> Option<usize> {
    let text = std::fs::read_to_string(file).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    let mut at = 0;
    let mut found = None;
    for key in path {
        if let Ok(n) = key.parse::<usize>() {
            // The list's item `n` (from 0): its `n + 1`th `- ` line after the list's key.
            let i = lines
                .iter()
                .enumerate()
                .skip(at)
                .filter(|(_, l)| l.trim_start().starts_with("- "))
                .nth(n)
                .map(|(i, _)| i)?;
            at = i;
            found = Some(i + 1);
            continue;
        }
        // A key inside a flow map (`{ band: Code, fail: miss }`) is looked for only on the
        // line that holds the map (the list item or the key just found): elsewhere ` bands:`
        // met an input's `{ from: distance_band, bands: [1, 2] }` and led to a wrong line.
        let holder = found.map_or(at, |f| f - 1);
        let i = lines
            .iter()
            .enumerate()
            .skip(at.min(holder))
            .find_map(|(i, l)| {
                let t = l
                    .trim_start()
                    .trim_start_matches("- ")
                    .trim_start_matches("{ ");
                let block = i >= at && t.starts_with(&format!("{key}:"));
                (block || (i == holder && l.contains(&format!(" {key}:")))).then_some(i)
            })?;
        // A value given by an alias (`bands: *bands_auto`) is written at its anchor: the
        // rest of the path is looked for there, not in whatever follows the alias (which
        // named the next chart's line).
        let alias = lines[i]
            .split_once(&format!("{key}:"))
            .map(|(_, v)| v.trim())
            .and_then(|v| v.strip_prefix('*'))
            .filter(|a| !a.is_empty() && !a.contains(' '));
        if let Some(alias) = alias {
            let anchor = format!("&{alias}");
            let a = lines
                .iter()
                .position(|l| l.split_whitespace().any(|w| w == anchor))?;
            at = a + 1;
            found = Some(a + 1);
            continue;
        }
        at = i + 1;
        found = Some(i + 1);
    }
    found
}

/// When `path` is a chart cell that names an outcome (a row's `result`, `otherwise`, a
/// band's `pass` or `fail`) and `typed` is none of the outcomes the chart knows, the
/// refusal: the closest known outcome ("did you mean") and the whole list. The loader
/// would take any word as a new outcome, so a slip of the keyboard would pass unseen.
#[must_use]
pub fn outcome_refusal(
    rules: &grognard_kernel::rules::Rules,
    path: &[String],
    typed: &str,
) -> Option<String> {
    let chart = match path {
        [c, chart, rest @ ..] if c == "charts" => {
            let names_outcome = match rest {
                [o] => o == "otherwise",
                [rows, _, key] => rows == "rows" && key == "result",
                [bands, rows, _, key] => {
                    bands == "bands" && rows == "rows" && (key == "pass" || key == "fail")
                }
                _ => false,
            };
            names_outcome.then_some(chart)?
        }
        _ => return None,
    };
    let typed = typed.trim();
    let def = rules.chart_by_name(chart).and_then(|id| rules.chart(id))?;
    if typed.is_empty() || def.outcomes.iter().any(|o| o == typed) {
        return None;
    }
    let closest = def
        .outcomes
        .iter()
        .min_by_key(|o| edit_distance(o, typed))
        .filter(|o| edit_distance(o, typed) <= o.chars().count().max(typed.chars().count()) / 2);
    let guess = closest.map_or_else(|| ".".to_owned(), |o| format!(" — did you mean `{o}`?"));
    Some(format!(
        "`{typed}` is not an outcome of chart {}{guess} Its outcomes: {}. (A new outcome \
         is added in the ruleset file, where its effects are written.)",
        chart.replace('_', " "),
        def.outcomes.join(", ")
    ))
}

/// The number of one-letter insertions, deletions, changes and swaps of two neighbours
/// that turn `a` into `b` (a swap counts once: `hti` is one slip from `hit`).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: the distance between a's first i letters and b's first j.
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let change = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + change);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// A field's path as a person reads it, in the Charts tab's words: keys spaced and joined
/// by ` › `, a list's items counted from 1 as the file shows them, by what the list holds
/// (`charts › command › modifier 3 › per`, `charts › to hit › row 1 › score`), never the
/// 0-based index the tree uses — but a chart's bands (`bands › rows › 2`) named as the tab
/// numbers them, from 0 (`charts › fire small b › band 2 › fail`: "row 3" pointed a player
/// at the tab's band 3).
#[must_use]
pub fn path_words(path: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    for key in path {
        match key.parse::<usize>() {
            Ok(i) if out.len() >= 2 && out.ends_with(&["bands".to_owned(), "rows".to_owned()]) => {
                out.truncate(out.len() - 2);
                out.push(format!("band {i}"));
            }
            Ok(i) => {
                let list = out.pop().unwrap_or_default();
                let one = list
                    .strip_suffix("ies")
                    .map(|s| format!("{s}y"))
                    .or_else(|| list.strip_suffix('s').map(str::to_owned))
                    .unwrap_or_else(|| format!("{list} item"));
                out.push(format!("{one} {}", i + 1));
            }
            Err(_) => out.push(key.replace('_', " ")),
        }
    }
    out.join(" › ")
}

/// How an overlay at `at` names its base: a path relative to the overlay's folder when
/// they share a root, otherwise the absolute path.
fn extends_path(at: &Path, base: &Path) -> String {
    let abs = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let dir = at
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let (d, b) = (abs(dir), abs(base));
    let common = d
        .components()
        .zip(b.components())
        .take_while(|(x, y)| x == y)
        .count();
    if common <= 1 {
        return b.to_string_lossy().replace('\\', "/");
    }
    let mut out = PathBuf::new();
    for _ in d.components().skip(common) {
        out.push("..");
    }
    for c in b.components().skip(common) {
        out.push(c);
    }
    out.to_string_lossy().replace('\\', "/")
}

/// A loader's dotted path of a value (`charts.command.rows[0].result`) as a field path.
/// The loader's problems after an edit of `path`: when one of them names that value (`in
/// piece_types.infantry.allowance.formed: expected a number …, found `x``), that one with
/// its help lines alone. The others follow from the value being left out ("piece type
/// `infantry` needs an `allowance:`…", the ninth outside player's F2) and would be read
/// first; any that does not will show again once the value is fixed.
fn naming_the_value(problems: Vec<String>, path: &[String]) -> Vec<String> {
    let dotted = path.iter().fold(String::new(), |mut d, part| {
        if part.parse::<usize>().is_ok() {
            d.push_str(&format!("[{part}]"));
        } else {
            if !d.is_empty() {
                d.push('.');
            }
            d.push_str(part);
        }
        d
    });
    let needle = format!(": in {dotted}: ");
    let Some(at) = problems.iter().position(|l| l.contains(&needle)) else {
        return problems;
    };
    let help = problems[at + 1..]
        .iter()
        .take_while(|l| l.starts_with(' '))
        .count();
    problems[at..=at + help].to_vec()
}

/// A field's error cut short for the status line: without the place it names again
/// (`your edit of … (over file:line): `, `file:line:col: in a.b.c: `), to its first
/// sentence and at most some 90 characters.
fn short_error(e: &str) -> String {
    let mut rest = e.lines().next().unwrap_or(e);
    if rest.starts_with("your edit of ")
        && let Some(i) = rest.find("): ")
    {
        rest = &rest[i + 3..];
    }
    if let Some(i) = rest.find(": in ") {
        rest = &rest[i + 2..];
    }
    if let Some(tail) = rest.strip_prefix("in ")
        && let Some(i) = tail.find(": ")
    {
        rest = &tail[i + 2..];
    }
    let end = [". ", "? "]
        .iter()
        .filter_map(|p| rest.find(p).map(|i| i + 1))
        .min()
        .unwrap_or(rest.len());
    let first = &rest[..end];
    if first.chars().count() > 90 {
        format!("{}…", first.chars().take(89).collect::<String>())
    } else {
        first.to_owned()
    }
}

/// A loader line in a player's words: the live check's overlay is the player's edits.
fn players_words(line: &str) -> String {
    line.replace(
        "this text is inherited; the overlay ",
        "this line is the base ruleset's, and your edits ",
    )
    .replace(
        ": change the overlay to match",
        ": change your edits to match",
    )
}

fn dotted_field(dotted: &str) -> Vec<String> {
    dotted
        .split('.')
        .flat_map(|part| part.split(['[', ']']))
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlay_tree_keeps_only_changed_leaves() {
        let base = serde_json::json!({"a": {"x": 1, "y": 2}, "l": [1, 2], "n": "k"});
        let edited = serde_json::json!({"a": {"x": 1, "y": 3}, "l": [1, 2], "n": "k"});
        assert_eq!(
            overlay_tree(&base, &edited),
            Some(serde_json::json!({"a": {"y": 3}}))
        );
        assert_eq!(overlay_tree(&base, &base), None);
    }

    #[test]
    fn typed_text_reads_numbers_words_and_blanks() {
        assert_eq!(typed(" 3 "), Value::from(3));
        assert_eq!(typed("1½"), Value::from("1½"));
        assert_eq!(typed(""), Value::Null);
        assert_eq!(typed("true"), Value::Bool(true));
    }

    #[test]
    fn values_are_written_as_a_person_writes_yaml() {
        let row = serde_json::json!({"result": "hit", "score": "8+"});
        assert_eq!(yaml_scalar(&row), "{ result: hit, score: 8+ }");
        assert_eq!(yaml_scalar(&Value::from("+1")), "\"+1\"");
        assert_eq!(yaml_scalar(&Value::from("yes")), "\"yes\"");
        assert_eq!(yaml_scalar(&Value::from("1½")), "1½");
        assert_eq!(yaml_scalar(&Value::from("a: b")), "\"a: b\"");
        let mut out = String::new();
        let m = serde_json::json!({"rows": [row]});
        write_map(m.as_object().expect("map"), 0, &mut out);
        assert_eq!(out, "rows:\n  - { result: hit, score: 8+ }\n");
    }

    #[test]
    fn yaml_keys_that_read_as_other_types_are_quoted() {
        assert_eq!(yaml_key("medium_woods"), "medium_woods");
        assert_eq!(yaml_key("on"), "\"on\"");
        assert_eq!(yaml_key("2"), "\"2\"");
    }
}
