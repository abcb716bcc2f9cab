//! A game's files travel as a bundle: every file its scenario loads, by a path relative to
//! the folder they all share. The client gathers a bundle ([`gather`]) and loads it back
//! from memory before sending, so a file that names something outside the bundle is
//! reported on the sender's machine; the server checks its paths ([`check`]) and loads
//! the game from the bytes alone (`grognard_rules::source::Bundle`), never from its disk.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use grognard_rules::load;
use grognard_rules::source::Bundle;

use crate::protocol::{CreateGame, MAX_FILES};

/// The create request for `scenario`: the scenario loaded here first (so its mistakes show
/// before anything is sent), then every file it loads, and the Lua files of any `lua:`
/// policy.
///
/// # Errors
/// The scenario does not load (every problem, `file:line:col`), or a file cannot be read.
pub fn gather(
    scenario: &Path,
    options: BTreeMap<String, bool>,
    seed: Option<u64>,
    policies: BTreeMap<String, String>,
) -> Result<CreateGame, String> {
    let loaded = load::load_scenario(scenario, None).map_err(|d| d.to_string())?;
    let mut files: Vec<PathBuf> = loaded.source_files();
    let mut lua_policies = Vec::new();
    for (side, policy) in policies.clone() {
        // Any policy is checked here first — a `lua:` file loaded as Lua — so a file that is
        // not a policy (a path someone else's scenario suggested) is never sent.
        grognard_play::policy::PolicyKind::parse(&policy)
            .map_err(|e| format!("--policy {side}={policy}: {e}"))?;
        if let Some(rest) = policy.strip_prefix("lua:") {
            let (file, function) = match rest.rsplit_once(':') {
                Some((f, func)) if Path::new(f).exists() => (f, Some(func)),
                _ => (rest, None),
            };
            files.push(PathBuf::from(file));
            lua_policies.push((side, PathBuf::from(file), function.map(str::to_owned)));
        }
    }
    let absolute: Vec<PathBuf> = files
        .iter()
        .map(|f| std::fs::canonicalize(f).map_err(|e| format!("cannot read {}: {e}", f.display())))
        .collect::<Result<_, _>>()?;
    let root = common_folder(&absolute);
    let relative = |abs: &Path| -> String {
        abs.strip_prefix(&root)
            .unwrap_or(abs)
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/")
    };
    let mut texts = BTreeMap::new();
    for (given, abs) in files.iter().zip(&absolute) {
        let text = std::fs::read_to_string(abs)
            .map_err(|e| format!("cannot read {}: {e}", given.display()))?;
        texts.insert(relative(abs), text);
    }
    let ruleset_abs = std::fs::canonicalize(&loaded.ruleset.path)
        .map_err(|e| format!("cannot read {}: {e}", loaded.ruleset.path.display()))?;
    let mut policies = policies;
    for (side, file, function) in lua_policies {
        let abs = std::fs::canonicalize(&file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let named = match function {
            Some(f) => format!("lua:{}:{f}", relative(&abs)),
            None => format!("lua:{}", relative(&abs)),
        };
        policies.insert(side, named);
    }
    let (scenario_key, ruleset_key) = (relative(&absolute[0]), relative(&ruleset_abs));
    // Load it here as the server will, from these bytes alone: a path that leaves the
    // bundle (absolute, or up past the folder the files share) shows now, at its line.
    let bundle = Bundle::new(texts.clone())?;
    load::load_scenario_from(
        &bundle,
        Path::new(&scenario_key),
        Some(Path::new(&ruleset_key)),
    )
    .map_err(|d| {
        format!(
            "{}\n(as the server would load these files, from {})",
            d.to_string().trim_end(),
            root.display()
        )
    })?;
    Ok(CreateGame {
        scenario: scenario_key,
        ruleset: ruleset_key,
        files: texts,
        ruleset_hash: Some(loaded.ruleset.rules.identity.hash.clone()),
        scenario_hash: Some(loaded.hash.clone()),
        options,
        seed,
        policies,
    })
}

/// The deepest folder holding every one of `files`.
fn common_folder(files: &[PathBuf]) -> PathBuf {
    let mut root: Option<PathBuf> = None;
    for f in files {
        let dir = f.parent().unwrap_or(f).to_path_buf();
        root = Some(match root {
            None => dir,
            Some(r) => r
                .components()
                .zip(dir.components())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a.as_os_str())
                .collect(),
        });
    }
    root.unwrap_or_default()
}

/// Checks a create request's paths: at most [`MAX_FILES`] files, each a plain relative path
/// inside the bundle ([`Bundle::check_path`]), and the scenario and ruleset among them.
///
/// # Errors
/// The first bad path, named.
pub fn check(request: &CreateGame) -> Result<(), String> {
    if request.files.len() > MAX_FILES {
        return Err(format!(
            "{} files; a game takes at most {MAX_FILES}",
            request.files.len()
        ));
    }
    for path in request.files.keys() {
        Bundle::check_path(path)?;
    }
    for (what, path) in [
        ("scenario", &request.scenario),
        ("ruleset", &request.ruleset),
    ] {
        if !request.files.contains_key(path) {
            return Err(format!("the {what} `{path}` is not among the files sent"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_folder_is_the_deepest_shared_one() {
        let files = [
            PathBuf::from("/w/g/examples/a.yaml"),
            PathBuf::from("/w/g/rulesets/r.yaml"),
            PathBuf::from("/w/g/scripts/s.lua"),
        ];
        assert_eq!(common_folder(&files), PathBuf::from("/w/g"));
        assert_eq!(common_folder(&files[..1]), PathBuf::from("/w/g/examples"));
    }
}
