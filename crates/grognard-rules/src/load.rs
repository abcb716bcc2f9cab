//! Reading ruleset, scenario and orders files: from the disk for the command line and the
//! editor, or from an in-memory bundle for the server — always through one
//! [`Source`], so every file a file names is found the same way, and a bundle's files
//! never reach outside it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use grognard_kernel::game::Game;
use grognard_kernel::hooks::Hooks;
use grognard_kernel::rules::Rules;
use sha2::{Digest, Sha256};

use crate::compile::compile;
use crate::de::{Located, decode, decode_recovering};
use crate::diag::{Diagnostic, Diagnostics, Location};
use crate::model::{OrderOfBattleSpec, OrderSpec, OrdersSpec, RulesetSpec, ScenarioSpec};
use crate::node::Node;
use crate::overlay;
use crate::scenario::{CompiledScenario, compile_scenario};
use crate::source::{Disk, ReadError, Source, tidy};
use crate::yaml::{self, Limits};

/// A loaded ruleset (with every layer it extends already merged in).
#[derive(Clone, Debug)]
pub struct Ruleset {
    /// The file it came from.
    pub path: PathBuf,
    /// The decoded, merged ruleset.
    pub spec: RulesetSpec,
    /// The compiled rules.
    pub rules: Arc<Rules>,
    /// Its Lua modules, read once so the identity hash and the Lua host see the same text.
    pub scripts: Vec<ScriptSource>,
    /// The files merged to make it, base first.
    pub layers: Vec<PathBuf>,
    /// What loads but is likely a mistake (an overlay's new piece type spelt like an
    /// inherited one): `grognard validate` prints each as a warning.
    pub warnings: Vec<Diagnostic>,
}

/// A Lua module a ruleset names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptSource {
    /// Module name (`weather`).
    pub module: String,
    /// The file, as a path from the current folder (`scripts/weather.lua`); also the
    /// chunk name, so Lua errors read `scripts/weather.lua:12: ...`.
    pub path: PathBuf,
    /// The source text.
    pub text: String,
    /// Where the ruleset names it.
    pub location: Location,
}

/// Largest Lua module accepted.
pub const MAX_SCRIPT_BYTES: u64 = 1024 * 1024;

/// A loaded scenario with its ruleset.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The file it came from.
    pub path: PathBuf,
    /// The decoded file.
    pub spec: ScenarioSpec,
    /// Content hash of the scenario file.
    pub hash: String,
    /// Its ruleset.
    pub ruleset: Ruleset,
    /// The compiled setup.
    pub compiled: CompiledScenario,
}

/// How a path is shown in messages: as the user gave it.
#[must_use]
pub fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Reads a file from the disk, refusing ones over the size limit before reading them.
///
/// # Errors
/// A diagnostic naming the file when it cannot be read or is too large.
pub fn read_limited(path: &Path, limits: &Limits) -> Result<Vec<u8>, Diagnostic> {
    read_from(&Disk, path, limits)
}

/// Reads a file from `source`, refusing ones over the size limit before reading them.
fn read_from(source: &dyn Source, path: &Path, limits: &Limits) -> Result<Vec<u8>, Diagnostic> {
    let name = display(path);
    source
        .read(path, limits.max_bytes as u64)
        .map_err(|e| Diagnostic {
            location: Some(Location::unknown(name.as_str())),
            message: match e {
                ReadError::NotAFile(m) if m.starts_with("this is a folder") => {
                    "this is a folder; expected a YAML file".into()
                }
                other => other.to_string(),
            },
            help: None,
        })
}

fn parse_file(source: &dyn Source, path: &Path) -> Result<(Node, Vec<u8>), Diagnostics> {
    let limits = Limits::default();
    let bytes = read_from(source, path, &limits).map_err(Diagnostics::from)?;
    let node = yaml::parse(&display(path), &bytes, &limits).map_err(Diagnostics::from)?;
    Ok((node, bytes))
}

/// Adds the problems of a later pass to those decoding already found: a file's decode
/// and validation problems are reported together, in one run.
/// `problems` found while decoding, then those of the next step (compiling). A value the
/// decoder refused was replaced by a placeholder (0, empty text), so a later complaint at
/// that same place is about the placeholder, not the file: it is left out.
fn after(mut problems: Diagnostics, next: Result<(), Diagnostics>) -> Result<(), Diagnostics> {
    if let Err(d) = next {
        let refused: Vec<_> = problems.iter().filter_map(|p| p.location.clone()).collect();
        problems.extend(
            d.into_iter()
                .filter(|p| p.location.as_ref().is_none_or(|l| !refused.contains(l))),
        );
    }
    problems.into_result(())
}

/// Hex SHA-256 of some bytes.
#[must_use]
pub fn content_hash(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Loads, validates and compiles a ruleset file from the disk.
///
/// # Errors
/// Every problem in the file, each with `file:line:col`.
pub fn load_ruleset(path: &Path) -> Result<Ruleset, Diagnostics> {
    load_ruleset_from(&Disk, path)
}

/// The ruleset at `path` as one merged tree of located values, every layer it extends
/// merged in and `remove:` applied, before decoding: what `grognard tune` reads a number
/// from and writes an overlay against.
///
/// # Errors
/// A file that does not parse, a bad `extends:` chain or a bad `remove:`.
pub fn ruleset_tree(path: &Path) -> Result<crate::node::Node, Diagnostics> {
    let mut problems = Diagnostics::default();
    let mut changes = Vec::new();
    let node = parse_layers(
        &Disk,
        path,
        &mut Vec::new(),
        &mut Vec::new(),
        &mut problems,
        &mut changes,
    )?;
    if problems.is_empty() {
        Ok(node)
    } else {
        Err(problems)
    }
}

/// Loads, validates and compiles the ruleset at `path` in `source`.
///
/// # Errors
/// Every problem in the file, each with `file:line:col`.
pub fn load_ruleset_from(source: &dyn Source, path: &Path) -> Result<Ruleset, Diagnostics> {
    let mut layers = Vec::new();
    let mut removals = Diagnostics::default();
    let mut changes = Vec::new();
    let node = parse_layers(
        source,
        path,
        &mut Vec::new(),
        &mut layers,
        &mut removals,
        &mut changes,
    )?;
    // A problem in an inherited file names what the overlays replaced or removed.
    let top = display(path);
    // A ruleset's notes follow the ones it inherits, so a note's index in the merged list
    // (`notes[8]`) is not the one in its file: a problem in the file's own note is named
    // by its place among the file's notes.
    let own_notes: Vec<Location> = match node.get("notes").map(|n| &n.value) {
        Some(crate::node::Value::Seq(items)) if layers.len() > 1 => items
            .iter()
            .map(|i| i.location.clone())
            .filter(|l| *l.file == *top)
            .collect(),
        _ => Vec::new(),
    };
    let new_types = new_piece_type_typos(&node, &top);
    let renumber = |mut d: Diagnostic| {
        // An overlay's misspelt piece type is a new, incomplete type: say so beside the
        // error about what it lacks.
        if let Some((_, help)) = new_types
            .iter()
            .find(|(name, _)| d.message.contains(&format!("piece type `{name}`")))
        {
            let help = match &d.help {
                Some(h) => format!("{h}\n  help: {help}"),
                None => help.clone(),
            };
            d = d.with_help(help);
        }
        if let (Some(at), Some(rest)) = (d.location.as_ref(), d.message.strip_prefix("in notes["))
            && let Some(i) = own_notes.iter().position(|l| l == at)
            && let Some((_, rest)) = rest.split_once(']')
        {
            d.message = format!("in notes[{i}] of this file{rest}");
        }
        d
    };
    let blame = |d: Diagnostic| {
        let d = renumber(d);
        let inherited = d.location.as_ref().is_some_and(|l| *l.file != *top);
        match overlay::blame(&d, &changes) {
            Some(note) if inherited => {
                let help = match &d.help {
                    Some(h) => format!("{h}\n  help: {note}"),
                    None => note,
                };
                d.with_help(help)
            }
            _ => d,
        }
    };
    let (spec, decoded) = decode_recovering::<RulesetSpec>(&node);
    // A bad `remove:` does not stop the rest of the file from being checked.
    let mut problems = removals;
    problems.extend(decoded);
    let Some(spec) = spec else {
        return Err(problems.map(blame));
    };
    let scripts = read_scripts(source, &spec, &mut problems);
    // The identity hashes the decoded, merged content (not the bytes: comments and layout
    // do not change it, every rule does) and each script's text — not where the files
    // are, so a game replays from any folder.
    let mut identity = spec.clone();
    for s in &mut identity.scripts.0 {
        s.value.value.clear();
    }
    let mut canonical = serde_json::to_vec(&identity).unwrap_or_default();
    for s in &scripts {
        canonical.extend_from_slice(s.module.as_bytes());
        canonical.push(0);
        canonical.extend_from_slice(s.text.as_bytes());
        canonical.push(0);
    }
    let compiled = compile(&spec, content_hash(&canonical));
    let mut rules = None;
    after(problems, compiled.map(|r| rules = Some(r))).map_err(|d| d.map(blame))?;
    let rules = rules.ok_or_else(Diagnostics::default)?;
    Ok(Ruleset {
        path: path.to_path_buf(),
        spec,
        rules: Arc::new(rules),
        scripts,
        layers,
        warnings: new_types
            .iter()
            .filter_map(|(name, help)| {
                let at = piece_type_key(&node, name)?;
                Some(Diagnostic::new(at, help.clone()).with_help(format!(
                    "an overlay adding `{name}` on purpose may keep it; else rename the key"
                )))
            })
            .collect(),
    })
}

/// The key of piece type `name` in the merged tree, where it was written.
fn piece_type_key(node: &Node, name: &str) -> Option<Location> {
    let crate::node::Value::Map(types) = &node.get("piece_types")?.value else {
        return None;
    };
    types
        .iter()
        .find(|(k, _)| k.key_text() == name)
        .map(|(k, _)| k.location.clone())
}

/// Piece types written in one file whose name is one slip from a piece type written in
/// another (an overlay's `infantri:` beside the base's `infantry:`): the overlay made a new
/// type where it meant to change one. Each with the words saying so.
fn new_piece_type_typos(node: &Node, top: &str) -> Vec<(String, String)> {
    let Some(crate::node::Value::Map(types)) = node.get("piece_types").map(|n| &n.value) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, _) in types.iter().filter(|(k, _)| *k.location.file == *top) {
        let name = k.key_text();
        let others = types
            .iter()
            .filter(|(o, _)| o.location.file != k.location.file)
            .map(|(o, _)| o.key_text())
            .collect::<Vec<_>>();
        if let Some(near) = crate::suggest::did_you_mean(&name, others.iter().map(String::as_str))
            && near != name
        {
            out.push((
                name.clone(),
                format!("new piece type `{name}`; did you mean `{near}`?"),
            ));
        }
    }
    out
}

/// Reads a file and every file it `extends`, merged base first.
fn parse_layers(
    source: &dyn Source,
    path: &Path,
    chain: &mut Vec<PathBuf>,
    layers: &mut Vec<PathBuf>,
    problems: &mut Diagnostics,
    changes: &mut Vec<overlay::Change>,
) -> Result<Node, Diagnostics> {
    let (mut node, _) = parse_file(source, path)?;
    overlay::rebase_scripts(&mut node, path);
    let extends = overlay::take_key(&mut node, "extends");
    let remove = overlay::take_key(&mut node, "remove");
    let canonical = source.identity(path);
    let Some(extends) = extends else {
        layers.push(path.to_path_buf());
        if let Some(r) = remove {
            return Err(Diagnostics::from(Diagnostic::new(
                r.location,
                "`remove:` only makes sense in a ruleset that `extends:` another",
            )));
        }
        return Ok(node);
    };
    let Some(name) = extends.as_str().map(str::to_owned) else {
        return Err(Diagnostics::from(Diagnostic::new(
            extends.location,
            "`extends:` takes a ruleset path or a bundled ruleset's name",
        )));
    };
    let located = Located {
        value: name,
        location: extends.location.clone(),
    };
    let base_path = resolve_ruleset_in(source, path, &located).map_err(Diagnostics::from)?;
    let base_canonical = source.identity(&base_path);
    chain.push(canonical.clone());
    if chain.contains(&base_canonical) || base_canonical == canonical {
        return Err(Diagnostics::from(overlay::cycle_error(
            &extends.location,
            chain,
            &base_canonical,
        )));
    }
    if chain.len() >= overlay::MAX_LAYERS {
        return Err(Diagnostics::from(Diagnostic::new(
            extends.location,
            format!(
                "more than {} rulesets extend one another here",
                overlay::MAX_LAYERS
            ),
        )));
    }
    let base = parse_layers(source, &base_path, chain, layers, problems, changes)?;
    chain.pop();
    layers.push(path.to_path_buf());
    changes.extend(overlay::replacements(&base, &node));
    let mut merged = overlay::merge(base, node);
    // Only a removal that took something away can have broken the text below it.
    changes.extend(overlay::apply_removals(&mut merged, remove, problems));
    Ok(merged)
}

/// Reads the Lua modules a ruleset names (paths already rebased to the source's root).
fn read_scripts(
    source: &dyn Source,
    spec: &RulesetSpec,
    problems: &mut Diagnostics,
) -> Vec<ScriptSource> {
    let mut out = Vec::new();
    for entry in spec.scripts.iter() {
        let path = PathBuf::from(&entry.value.value);
        let at = entry.value.location.clone();
        let fail = |m: String| {
            Diagnostic::new(
                at.clone(),
                format!("script `{}` ({}): {m}", entry.name.value, display(&path)),
            )
        };
        let bytes = match source.read(&path, MAX_SCRIPT_BYTES) {
            Ok(b) => b,
            Err(ReadError::NotAFile(m)) if m.starts_with("the file is") => {
                problems.push(fail(m.replace("files over", "scripts over")));
                continue;
            }
            Err(e @ (ReadError::Missing(_) | ReadError::Io(_))) => {
                problems.push(fail(format!(
                    "cannot read it: {}",
                    e.to_string().trim_start_matches("cannot read the file: ")
                )));
                continue;
            }
            Err(e) => {
                problems.push(fail(e.to_string()));
                continue;
            }
        };
        match String::from_utf8(bytes) {
            Ok(text) if !text.contains('\0') => out.push(ScriptSource {
                module: entry.name.value.clone(),
                path,
                text,
                location: at,
            }),
            _ => problems.push(fail(
                "not a UTF-8 text file (precompiled Lua is refused)".into(),
            )),
        }
    }
    out
}

/// Folders searched for a ruleset named without a path: `GROGNARD_RULESETS` (a
/// `:`-separated list), `rulesets/` beside the scenario's folder, and `./rulesets`.
#[must_use]
pub fn ruleset_dirs(near: &Path) -> Vec<PathBuf> {
    Disk.ruleset_dirs(near)
}

/// Finds the ruleset a scenario names on the disk: a path relative to the scenario, or a
/// bundled name.
///
/// # Errors
/// A diagnostic at the `ruleset:` line listing where it looked.
pub fn resolve_ruleset(scenario: &Path, name: &Located<String>) -> Result<PathBuf, Diagnostic> {
    resolve_ruleset_in(&Disk, scenario, name)
}

/// Finds the ruleset a file at `scenario` names in `source`: a path relative to that
/// file, or a bundled ruleset's name.
///
/// # Errors
/// A diagnostic at the naming line: a path that leaves the source, or where it looked.
pub fn resolve_ruleset_in(
    source: &dyn Source,
    scenario: &Path,
    name: &Located<String>,
) -> Result<PathBuf, Diagnostic> {
    let value = name.value.trim();
    let is_path = value.contains('/')
        || value.contains('\\')
        || value.ends_with(".yaml")
        || value.ends_with(".yml");
    let mut tried = Vec::new();
    if is_path {
        let base = scenario.parent().unwrap_or_else(|| Path::new(""));
        let p = source
            .join(base, value)
            .map_err(|m| Diagnostic::new(name.location.clone(), m))?;
        if source.is_file(&p) {
            return Ok(source.shown(overlay::normalize(&p)));
        }
        tried.push(p);
    } else {
        for dir in source.ruleset_dirs(scenario) {
            for ext in ["yaml", "yml"] {
                let p = dir.join(format!("{value}.{ext}"));
                if source.is_file(&p) {
                    return Ok(source.shown(overlay::normalize(&p)));
                }
                tried.push(p);
            }
        }
    }
    Err(Diagnostic {
        location: Some(name.location.clone()),
        message: if value.is_empty() {
            "the scenario needs `ruleset:` (a path or a bundled ruleset name)".into()
        } else {
            format!("ruleset `{value}` not found")
        },
        help: Some(format!(
            "looked in: {}",
            tried
                .iter()
                .map(|p| display(p))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    })
}

/// Adds the pieces of each side's order of battle (`deployment: SIDE: order_of_battle:`,
/// relative to `base`) to `spec`, after the scenario's own; `only` keeps just that side's
/// (validating one side's file, the other sides' being elsewhere). Returns the files'
/// bytes, for the scenario's identity hash.
fn merge_orders_of_battle(
    source: &dyn Source,
    spec: &mut ScenarioSpec,
    base: &Path,
    only: Option<&str>,
    problems: &mut Diagnostics,
) -> Vec<u8> {
    let mut bytes = Vec::new();
    let entries: Vec<(Located<String>, Located<String>)> = spec
        .deployment
        .iter()
        .filter_map(|d| d.value.order_of_battle.clone().map(|f| (d.name.clone(), f)))
        .collect();
    for (side, file) in entries {
        if only.is_some_and(|o| o != side.value) {
            continue;
        }
        let path = match source.join(base, &file.value) {
            Ok(p) => p,
            Err(m) => {
                problems.push(Diagnostic::new(
                    file.location.clone(),
                    format!("{}'s order of battle: {m}", side.value),
                ));
                continue;
            }
        };
        let (node, raw) = match parse_file(source, &path) {
            Ok(x) => x,
            Err(d) => {
                problems.push(Diagnostic {
                    location: Some(file.location.clone()),
                    message: format!(
                        "cannot read {}'s order of battle `{}`",
                        side.value, file.value
                    ),
                    help: None,
                });
                problems.extend(d);
                continue;
            }
        };
        bytes.extend_from_slice(&raw);
        let (oob, found) = decode_recovering::<OrderOfBattleSpec>(&node);
        problems.extend(found);
        let Some(oob) = oob else { continue };
        if oob.order_of_battle.value != side.value {
            problems.push(Diagnostic {
                location: Some(oob.order_of_battle.location.clone()),
                message: format!(
                    "this is {}'s order of battle, but the scenario reads it for {}",
                    oob.order_of_battle.value, side.value
                ),
                help: None,
            });
            continue;
        }
        for mut piece in oob.pieces {
            if piece.side.value.is_empty() {
                piece.side = Located::new(side.value.clone(), piece.id.location.clone());
            } else if piece.side.value != side.value {
                problems.push(Diagnostic {
                    location: Some(piece.side.location.clone()),
                    message: format!(
                        "piece `{}` is of {}, but this is {}'s order of battle",
                        piece.id.value, piece.side.value, side.value
                    ),
                    help: None,
                });
                continue;
            }
            spec.pieces.push(piece);
        }
    }
    bytes
}

/// Checks one side's order of battle on its own: against the scenario it names (its
/// `scenario:`), with only this side's pieces added. A player holding only their own file
/// and the public scenario can check their deployment this way.
///
/// # Errors
/// Every problem in either file, each with `file:line:col`.
pub fn check_order_of_battle(path: &Path) -> Result<String, Diagnostics> {
    let (node, _) = parse_file(&Disk, path)?;
    let (oob, problems) = decode_recovering::<OrderOfBattleSpec>(&node);
    let Some(oob) = oob else {
        return Err(problems);
    };
    problems.into_result(())?;
    let Some(scenario) = &oob.scenario else {
        return Err(Diagnostics::from(Diagnostic {
            location: Some(oob.order_of_battle.location.clone()),
            message: "an order of battle names its scenario (`scenario: FILE`, relative to this                       file) so that it can be checked against it"
                .into(),
            help: None,
        }));
    };
    let base = path.parent().unwrap_or_else(|| Path::new("."));
    let scenario_path = tidy(&base.join(&scenario.value));
    let (snode, _) = parse_file(&Disk, &scenario_path)?;
    let (spec, mut problems) = decode_recovering::<ScenarioSpec>(&snode);
    let Some(mut spec) = spec else {
        return Err(problems);
    };
    let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    };
    let declared = spec.deployment.iter().find(|d| {
        d.value
            .order_of_battle
            .as_ref()
            .is_some_and(|f| same(&scenario_path.parent().unwrap_or(base).join(&f.value), path))
    });
    if declared.is_none_or(|d| d.name.value != oob.order_of_battle.value) {
        problems.push(Diagnostic {
            location: Some(oob.order_of_battle.location.clone()),
            message: format!(
                "{} does not read this file as {}'s order of battle",
                display(&scenario_path),
                oob.order_of_battle.value
            ),
            help: None,
        });
        return Err(problems);
    }
    let side = oob.order_of_battle.value.clone();
    let scenario_base = scenario_path.parent().unwrap_or(base).to_path_buf();
    merge_orders_of_battle(&Disk, &mut spec, &scenario_base, Some(&side), &mut problems);
    let ruleset = match resolve_ruleset(&scenario_path, &spec.ruleset) {
        Ok(p) => load_ruleset(&p)?,
        Err(d) => {
            problems.push(d);
            return Err(problems);
        }
    };
    after(
        problems,
        compile_scenario(&spec, &ruleset.rules).map(|_| ()),
    )?;
    Ok(format!(
        "{side}'s order of battle for scenario {} ({} pieces)",
        spec.scenario.value,
        oob.pieces.len()
    ))
}

/// Builds a scenario from text already in memory (`name` is how messages name it), against
/// a ruleset already loaded. The editor and tests use this.
///
/// # Errors
/// Every problem in the text, each with `name:line:col`.
pub fn scenario_from_text(
    name: &str,
    text: &str,
    ruleset: &Ruleset,
) -> Result<Scenario, Diagnostics> {
    let limits = Limits::default();
    let node = yaml::parse(name, text.as_bytes(), &limits).map_err(Diagnostics::from)?;
    let (spec, mut problems) = decode_recovering::<ScenarioSpec>(&node);
    let Some(mut spec) = spec else {
        return Err(problems);
    };
    let base = Path::new(name).parent().unwrap_or_else(|| Path::new("."));
    let mut bytes = text.as_bytes().to_vec();
    bytes.extend(merge_orders_of_battle(
        &Disk,
        &mut spec,
        base,
        None,
        &mut problems,
    ));
    let mut compiled = None;
    after(
        problems,
        compile_scenario(&spec, &ruleset.rules).map(|c| compiled = Some(c)),
    )?;
    let compiled = compiled.ok_or_else(Diagnostics::default)?;
    Ok(Scenario {
        path: PathBuf::from(name),
        hash: content_hash(&bytes),
        spec,
        ruleset: ruleset.clone(),
        compiled,
    })
}

/// Loads a scenario and its ruleset from the disk (`ruleset` overrides the one the file
/// names).
///
/// # Errors
/// Every problem in either file, each with `file:line:col`.
pub fn load_scenario(path: &Path, ruleset: Option<&Path>) -> Result<Scenario, Diagnostics> {
    load_scenario_from(&Disk, path, ruleset)
}

/// Loads the scenario at `path` in `source`, and its ruleset (`ruleset` overrides the one
/// the file names). Every file either names is read from `source` alone.
///
/// # Errors
/// Every problem in either file, each with `file:line:col`.
pub fn load_scenario_from(
    source: &dyn Source,
    path: &Path,
    ruleset: Option<&Path>,
) -> Result<Scenario, Diagnostics> {
    let (node, mut bytes) = parse_file(source, path)?;
    let (spec, mut problems) = decode_recovering::<ScenarioSpec>(&node);
    let Some(mut spec) = spec else {
        return Err(problems);
    };
    // The orders of battle are part of the scenario: their bytes go into its hash.
    let base = path.parent().unwrap_or_else(|| Path::new(""));
    bytes.extend(merge_orders_of_battle(
        source,
        &mut spec,
        base,
        None,
        &mut problems,
    ));
    let ruleset_path = match ruleset {
        Some(p) => p.to_path_buf(),
        None => match resolve_ruleset_in(source, path, &spec.ruleset) {
            Ok(p) => p,
            Err(d) => {
                problems.push(d);
                return Err(problems);
            }
        },
    };
    let ruleset = load_ruleset_from(source, &ruleset_path)?;
    let mut compiled = None;
    after(
        problems,
        compile_scenario(&spec, &ruleset.rules).map(|c| compiled = Some(c)),
    )?;
    let compiled = compiled.ok_or_else(Diagnostics::default)?;
    Ok(Scenario {
        path: path.to_path_buf(),
        hash: content_hash(&bytes),
        spec,
        ruleset,
        compiled,
    })
}

impl Scenario {
    /// Every file this scenario was built from, as loaded: the scenario, its orders of
    /// battle, each layer of its ruleset (base first) and the ruleset's Lua modules. A copy
    /// of these files, kept in the same places relative to one another, loads the same
    /// game (the server's create request carries them).
    #[must_use]
    pub fn source_files(&self) -> Vec<PathBuf> {
        let base = self.path.parent().unwrap_or_else(|| Path::new("."));
        let mut files = vec![self.path.clone()];
        files.extend(
            self.spec
                .deployment
                .iter()
                .filter_map(|d| d.value.order_of_battle.as_ref())
                .map(|f| tidy(&base.join(&f.value))),
        );
        files.extend(self.ruleset.layers.iter().cloned());
        files.extend(self.ruleset.scripts.iter().map(|s| s.path.clone()));
        files
    }

    /// Starts a game, optionally with another seed and option choices.
    ///
    /// # Errors
    /// A placement problem, at the piece's line in the scenario file.
    pub fn start(
        &self,
        seed: Option<u64>,
        options: &[(String, bool)],
        hooks: &mut dyn Hooks,
    ) -> Result<Game, Diagnostics> {
        let mut setup = self.compiled.setup.clone();
        if let Some(s) = seed {
            setup.seed = s;
        }
        let file = display(&self.path);
        for (name, on) in options {
            match self
                .ruleset
                .rules
                .options
                .iter()
                .position(|o| &o.name == name)
            {
                Some(i) => setup.options[i] = *on,
                None => {
                    return Err(Diagnostics::from(Diagnostic {
                        location: None,
                        message: format!(
                            "unknown optional rule `{name}`; {} has: {}",
                            self.ruleset.rules.identity.name,
                            self.ruleset
                                .rules
                                .options
                                .iter()
                                .map(|o| o.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        help: None,
                    }));
                }
            }
        }
        Game::new(Arc::clone(&self.ruleset.rules), setup, hooks).map_err(|e| {
            let location = e
                .piece
                .and_then(|i| self.compiled.piece_locations.get(i).cloned())
                .unwrap_or_else(|| self.spec.scenario.location.clone());
            let _ = &file;
            Diagnostics::from(Diagnostic {
                location: Some(location),
                message: e.message,
                help: None,
            })
        })
    }
}

/// Loads an orders file.
///
/// # Errors
/// Every problem in the file, each with `file:line:col`.
pub fn load_orders(path: &Path) -> Result<Vec<Located<OrderSpec>>, Diagnostics> {
    let (node, _) = parse_file(&Disk, path)?;
    let spec: OrdersSpec = decode(&node)?;
    Ok(spec.orders)
}

/// Reads an orders file's text already in memory (`name` is how messages name it).
///
/// # Errors
/// Every problem in the text, each with `name:line:col`.
pub fn orders_from_text(name: &str, text: &str) -> Result<Vec<Located<OrderSpec>>, Diagnostics> {
    let limits = Limits::default();
    let node = yaml::parse(name, text.as_bytes(), &limits).map_err(Diagnostics::from)?;
    let spec: OrdersSpec = decode(&node)?;
    Ok(spec.orders)
}

/// What a file is, judged by its top-level key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Has `ruleset:` and no `scenario:`.
    Ruleset,
    /// Has `scenario:`.
    Scenario,
    /// Has `orders:`.
    Orders,
    /// Has `order_of_battle:` (one side's pieces, kept apart from the scenario).
    OrderOfBattle,
}

/// Reads just enough of a file to tell what it is.
///
/// # Errors
/// Parse problems, or a file that is none of the three.
pub fn sniff(path: &Path) -> Result<FileKind, Diagnostics> {
    let (node, _) = parse_file(&Disk, path)?;
    if node.get("order_of_battle").is_some() {
        Ok(FileKind::OrderOfBattle)
    } else if node.get("scenario").is_some() {
        Ok(FileKind::Scenario)
    } else if node.get("orders").is_some() {
        Ok(FileKind::Orders)
    } else if node.get("ruleset").is_some() {
        Ok(FileKind::Ruleset)
    } else {
        Err(Diagnostics::from(Diagnostic {
            location: Some(node.location.clone()),
            message:
                "not a grognard file: expected a top-level `ruleset:`, `scenario:`, `orders:` or `order_of_battle:` key"
                    .into(),
            help: None,
        }))
    }
}
