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

/// Why a scenario's files could not be gathered into a create request. These errors are
/// the sender's (`remote create`, `serve --create`, the editor, the host page's scenarios
/// at `serve`'s start) and shown on its own machine, so they may name its files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GatherError {
    /// The scenario does not load here: every problem, `file:line:col`.
    Scenario(String),
    /// A `--policy SIDE=POLICY` that is not a policy (a `lua:` file that does not load).
    Policy {
        /// The side it was given for.
        side: String,
        /// The policy as given.
        policy: String,
        /// Why it is not one.
        why: String,
    },
    /// A file the scenario loads could not be read.
    Read {
        /// The file, as the scenario or command line named it.
        path: PathBuf,
        /// The operating system's reason.
        why: String,
    },
    /// A file names a path that leaves the folder the files share.
    Path(String),
    /// The files do not load from the bytes alone, as the server would load them.
    AsServer {
        /// Every problem, `file:line:col`.
        problems: String,
        /// The folder the files share, which the server will not have.
        root: PathBuf,
    },
}

impl std::fmt::Display for GatherError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Scenario(m) | Self::Path(m) => f.write_str(m),
            Self::Policy { side, policy, why } => write!(f, "--policy {side}={policy}: {why}"),
            Self::Read { path, why } => write!(f, "cannot read {}: {why}", path.display()),
            Self::AsServer { problems, root } => write!(
                f,
                "{problems}\n(as the server would load these files, from {})",
                root.display()
            ),
        }
    }
}

impl std::error::Error for GatherError {}

/// Why the server refuses a create request's files (HTTP 422, as any bad create request).
/// The text names files only by their paths inside the bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BundleError {
    /// More files than a game takes.
    TooManyFiles(usize),
    /// A path that is not a plain relative path inside the bundle (its text says which).
    Path(String),
    /// The scenario or the ruleset is not among the files.
    Missing {
        /// `scenario` or `ruleset`.
        what: &'static str,
        /// The path the request gave it.
        path: String,
    },
}

impl std::fmt::Display for BundleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooManyFiles(n) => write!(f, "{n} files; a game takes at most {MAX_FILES}"),
            Self::Path(m) => f.write_str(m),
            Self::Missing { what, path } => {
                write!(f, "the {what} `{path}` is not among the files sent")
            }
        }
    }
}

impl std::error::Error for BundleError {}

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
) -> Result<CreateGame, GatherError> {
    let loaded =
        load::load_scenario(scenario, None).map_err(|d| GatherError::Scenario(d.to_string()))?;
    let mut files: Vec<PathBuf> = loaded.source_files();
    let mut lua_policies = Vec::new();
    for (side, policy) in policies.clone() {
        // Any policy is checked here first — a `lua:` file loaded as Lua — so a file that is
        // not a policy (a path someone else's scenario suggested) is never sent.
        grognard_play::policy::PolicyKind::parse(&policy).map_err(|e| GatherError::Policy {
            side: side.clone(),
            policy: policy.clone(),
            why: e.to_string(),
        })?;
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
        .map(|f| std::fs::canonicalize(f).map_err(|e| unreadable(f, &e)))
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
        let text = std::fs::read_to_string(abs).map_err(|e| unreadable(given, &e))?;
        texts.insert(relative(abs), text);
    }
    let ruleset_abs = std::fs::canonicalize(&loaded.ruleset.path)
        .map_err(|e| unreadable(&loaded.ruleset.path, &e))?;
    let mut policies = policies;
    for (side, file, function) in lua_policies {
        let abs = std::fs::canonicalize(&file).map_err(|e| unreadable(&file, &e))?;
        let named = match function {
            Some(f) => format!("lua:{}:{f}", relative(&abs)),
            None => format!("lua:{}", relative(&abs)),
        };
        policies.insert(side, named);
    }
    let (scenario_key, ruleset_key) = (relative(&absolute[0]), relative(&ruleset_abs));
    // Load it here as the server will, from these bytes alone: a path that leaves the
    // bundle (absolute, or up past the folder the files share) shows now, at its line.
    let bundle = Bundle::new(texts.clone()).map_err(GatherError::Path)?;
    load::load_scenario_from(
        &bundle,
        Path::new(&scenario_key),
        Some(Path::new(&ruleset_key)),
    )
    .map_err(|d| GatherError::AsServer {
        problems: d.to_string().trim_end().to_owned(),
        root: root.clone(),
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

fn unreadable(path: &Path, e: &std::io::Error) -> GatherError {
    GatherError::Read {
        path: path.to_path_buf(),
        why: e.to_string(),
    }
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
pub fn check(request: &CreateGame) -> Result<(), BundleError> {
    if request.files.len() > MAX_FILES {
        return Err(BundleError::TooManyFiles(request.files.len()));
    }
    for path in request.files.keys() {
        Bundle::check_path(path).map_err(BundleError::Path)?;
    }
    for (what, path) in [
        ("scenario", &request.scenario),
        ("ruleset", &request.ruleset),
    ] {
        if !request.files.contains_key(path) {
            return Err(BundleError::Missing {
                what,
                path: path.clone(),
            });
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

    /// Each way a request's files are refused is its own kind, worded as the client reads it.
    #[test]
    fn a_request_s_files_are_refused_by_kind() {
        let request = |files: &[&str]| CreateGame {
            scenario: "s.yaml".into(),
            ruleset: "r.yaml".into(),
            files: files
                .iter()
                .map(|f| ((*f).to_owned(), String::new()))
                .collect(),
            ruleset_hash: None,
            scenario_hash: None,
            options: BTreeMap::new(),
            seed: None,
            policies: BTreeMap::new(),
        };
        assert_eq!(check(&request(&["s.yaml", "r.yaml"])), Ok(()));
        let many: Vec<String> = (0..=MAX_FILES).map(|i| format!("f{i}.lua")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let e = check(&request(&many)).unwrap_err();
        assert_eq!(e, BundleError::TooManyFiles(MAX_FILES + 1));
        assert_eq!(
            e.to_string(),
            format!("{} files; a game takes at most {MAX_FILES}", MAX_FILES + 1)
        );
        let e = check(&request(&["s.yaml", "r.yaml", "../up.lua"])).unwrap_err();
        assert!(
            matches!(&e, BundleError::Path(m) if m.contains("`../up.lua`")),
            "{e:?}"
        );
        let e = check(&request(&["s.yaml"])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the ruleset `r.yaml` is not among the files sent"
        );
    }
}
