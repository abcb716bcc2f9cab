//! Where the loader reads files from. Every file a ruleset or scenario names — its
//! `extends:`, `order_of_battle:`, `scripts:` — is found through one [`Source`]: the disk
//! for the command line and the editor ([`Disk`]), or an in-memory file set for the server
//! ([`Bundle`]), which never opens a path of the machine it runs on.
//!
//! A bundle is strict: every path is relative, `/`-separated, and stays inside the
//! bundle. A path that is absolute, names a drive or a scheme, or climbs out with `..` is
//! refused with a message the loader places at the line that named it.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use crate::overlay;

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// No such file (the message says where it looked).
    Missing(String),
    /// The path may not be read from this source (it leaves the bundle).
    Outside(String),
    /// A folder, a special file, or larger than allowed.
    NotAFile(String),
    /// The file is there but could not be read.
    Io(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Missing(m) | Self::Outside(m) | Self::NotAFile(m) | Self::Io(m) => f.write_str(m),
        }
    }
}

/// A set of files the loader reads.
pub trait Source: Sync {
    /// The bytes of the file at `path`, refused if it is larger than `max` bytes (checked
    /// before it is read).
    ///
    /// # Errors
    /// See [`ReadError`].
    fn read(&self, path: &Path, max: u64) -> Result<Vec<u8>, ReadError>;

    /// True when a file is at `path`.
    fn is_file(&self, path: &Path) -> bool;

    /// The path a file in folder `dir` means by `name` (`../rulesets/x.yaml`).
    ///
    /// # Errors
    /// A name this source may not follow, in words (the caller adds the file and line).
    fn join(&self, dir: &Path, name: &str) -> Result<PathBuf, String>;

    /// One name per file, to tell two paths to the same file apart from two files
    /// (a cycle of `extends:`).
    fn identity(&self, path: &Path) -> PathBuf;

    /// The folders searched for a ruleset named without a path, for a scenario at `near`.
    fn ruleset_dirs(&self, near: &Path) -> Vec<PathBuf>;

    /// How a found path is named in messages and as a script's chunk name.
    fn shown(&self, path: PathBuf) -> PathBuf {
        path
    }
}

/// The disk, as the user's shell sees it: paths relative to the current folder, ruleset
/// names searched in `GROGNARD_RULESETS` and the `rulesets/` folders near a scenario.
#[derive(Clone, Copy, Debug, Default)]
pub struct Disk;

impl Source for Disk {
    fn read(&self, path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
        let meta = std::fs::metadata(path)
            .map_err(|e| ReadError::Missing(format!("cannot read the file: {e}")))?;
        if meta.is_dir() {
            return Err(ReadError::NotAFile(
                "this is a folder; expected a file".into(),
            ));
        }
        if !meta.is_file() {
            return Err(ReadError::NotAFile(
                "this is a device, pipe or socket; expected a file".into(),
            ));
        }
        if meta.len() > max {
            return Err(ReadError::NotAFile(format!(
                "the file is {} bytes; files over {max} bytes are refused",
                meta.len()
            )));
        }
        std::fs::read(path).map_err(|e| ReadError::Io(format!("cannot read the file: {e}")))
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn join(&self, dir: &Path, name: &str) -> Result<PathBuf, String> {
        Ok(tidy(&dir.join(name)))
    }

    fn identity(&self, path: &Path) -> PathBuf {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
    }

    fn ruleset_dirs(&self, near: &Path) -> Vec<PathBuf> {
        // Work from the scenario's real folder, so `grognard validate x.yaml` run inside
        // the scenarios folder still finds `../rulesets`.
        let near = std::fs::canonicalize(near).unwrap_or_else(|_| near.to_path_buf());
        let mut dirs: Vec<PathBuf> = std::env::var_os("GROGNARD_RULESETS")
            .map(|v| std::env::split_paths(&v).collect())
            .unwrap_or_default();
        dirs.extend(near_rulesets(&near));
        dirs.push(PathBuf::from("rulesets"));
        dirs
    }

    fn shown(&self, path: PathBuf) -> PathBuf {
        // Found files are named from the current folder where possible, as the user would
        // write them (and as script chunk names then read).
        std::env::current_dir()
            .ok()
            .and_then(|cwd| path.strip_prefix(&cwd).ok().map(overlay::normalize))
            .unwrap_or(path)
    }
}

/// `rulesets/` beside a scenario's folder and beside the folder above it.
fn near_rulesets(scenario: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(parent) = scenario.parent() {
        dirs.push(parent.join("rulesets"));
        if let Some(grand) = parent.parent() {
            dirs.push(grand.join("rulesets"));
        }
    }
    dirs
}

/// `path` with `.` and `dir/..` pairs taken out (a leading `..` stays).
#[must_use]
pub fn tidy(path: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match (c, out.last()) {
            (Component::CurDir, Some(_)) => {}
            (Component::ParentDir, Some(Component::Normal(_))) => {
                out.pop();
            }
            _ => out.push(c),
        }
    }
    out.iter().collect()
}

/// A game's files held in memory, by relative `/`-separated paths: what a server is sent.
/// Nothing outside it can be named, and nothing is read from any disk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bundle {
    files: BTreeMap<String, String>,
}

/// Longest path in a bundle, in characters.
pub const MAX_BUNDLE_PATH_CHARS: usize = 400;

impl Bundle {
    /// A bundle of `files` (path → text). Each path is checked as [`Bundle::check_path`]
    /// does.
    ///
    /// # Errors
    /// The first path that is not a plain relative path inside the bundle, named.
    pub fn new(files: BTreeMap<String, String>) -> Result<Self, String> {
        for path in files.keys() {
            Self::check_path(path)?;
        }
        Ok(Self { files })
    }

    /// The files.
    #[must_use]
    pub fn files(&self) -> &BTreeMap<String, String> {
        &self.files
    }

    /// Checks a path as a bundle holds it: not empty, at most
    /// [`MAX_BUNDLE_PATH_CHARS`], `/`-separated names with no `.`, `..`, root, drive,
    /// scheme, `\` or NUL.
    ///
    /// # Errors
    /// What is wrong with it, naming it.
    pub fn check_path(path: &str) -> Result<(), String> {
        let bad = |why: &str| Err(format!("file path `{path}`: {why}"));
        if path.is_empty() || path.chars().count() > MAX_BUNDLE_PATH_CHARS {
            return bad("empty or too long");
        }
        if path.contains('\\') || path.contains('\0') || path.contains(':') {
            return bad("use `/` between folders, and no `\\`, `:` or NUL");
        }
        if path
            .split('/')
            .any(|part| part.is_empty() || part == "." || part == "..")
        {
            return bad("must be relative, with no `.`, `..`, empty part or root");
        }
        Ok(())
    }

    /// The key a path names in the bundle, if it is a plain relative path inside it.
    fn key(path: &Path) -> Result<String, ReadError> {
        let mut parts = Vec::new();
        for c in path.components() {
            match c {
                Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
                Component::CurDir => {}
                _ => {
                    return Err(ReadError::Outside(format!(
                        "`{}` is outside the game's files (they name one another by relative paths inside the bundle)",
                        path.display()
                    )));
                }
            }
        }
        Ok(parts.join("/"))
    }
}

impl Source for Bundle {
    fn read(&self, path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
        let key = Self::key(path)?;
        let text = self
            .files
            .get(&key)
            .ok_or_else(|| ReadError::Missing(format!("`{key}` is not among the game's files")))?;
        if text.len() as u64 > max {
            return Err(ReadError::NotAFile(format!(
                "the file is {} bytes; files over {max} bytes are refused",
                text.len()
            )));
        }
        Ok(text.as_bytes().to_vec())
    }

    fn is_file(&self, path: &Path) -> bool {
        Self::key(path).is_ok_and(|k| self.files.contains_key(&k))
    }

    fn join(&self, dir: &Path, name: &str) -> Result<PathBuf, String> {
        let outside = || {
            Err(format!(
                "`{name}` leaves the game's files: a path here is relative to this file, with no drive, scheme or root, and stays inside the files sent"
            ))
        };
        if name.is_empty()
            || name.starts_with('/')
            || name.contains('\\')
            || name.contains('\0')
            || name.contains(':')
        {
            return outside();
        }
        let mut parts: Vec<String> = Self::key(dir)
            .map_err(|e| e.to_string())?
            .split('/')
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
            .collect();
        for part in name.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() {
                        return outside();
                    }
                }
                p => parts.push(p.to_owned()),
            }
        }
        if parts.is_empty() {
            return outside();
        }
        Ok(PathBuf::from(parts.join("/")))
    }

    fn identity(&self, path: &Path) -> PathBuf {
        Self::key(path).map_or_else(|_| path.to_path_buf(), PathBuf::from)
    }

    fn ruleset_dirs(&self, near: &Path) -> Vec<PathBuf> {
        let mut dirs = near_rulesets(near);
        dirs.push(PathBuf::from("rulesets"));
        dirs.retain(|d| Self::key(d).is_ok());
        dirs.dedup();
        dirs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle() -> Bundle {
        Bundle::new(BTreeMap::from([
            ("examples/a.yaml".to_owned(), "scenario: a".to_owned()),
            ("rulesets/r.yaml".to_owned(), "ruleset: r".to_owned()),
        ]))
        .unwrap()
    }

    #[test]
    fn a_bundle_follows_relative_names_and_refuses_every_way_out() {
        let b = bundle();
        let dir = Path::new("examples");
        assert_eq!(
            b.join(dir, "../rulesets/r.yaml").unwrap(),
            PathBuf::from("rulesets/r.yaml")
        );
        assert_eq!(
            b.join(dir, "./x/y.yaml").unwrap(),
            PathBuf::from("examples/x/y.yaml")
        );
        for bad in [
            "/etc/passwd",
            "/dev/zero",
            "../../x.yaml",
            "../..",
            "..",
            "c:/x",
            "C:\\x",
            "file:///etc/passwd",
            "a\\..\\..\\b",
            "",
        ] {
            let err = b.join(dir, bad).unwrap_err();
            assert!(err.contains("leaves the game's files"), "{bad}: {err}");
            assert!(!err.contains("/work"), "{err}");
        }
    }

    #[test]
    fn a_bundle_reads_only_its_own_files() {
        let b = bundle();
        assert_eq!(
            b.read(Path::new("rulesets/r.yaml"), 100).unwrap(),
            b"ruleset: r"
        );
        assert!(matches!(
            b.read(Path::new("/etc/passwd"), 100),
            Err(ReadError::Outside(_))
        ));
        assert!(matches!(
            b.read(Path::new("../x"), 100),
            Err(ReadError::Outside(_))
        ));
        assert!(matches!(
            b.read(Path::new("rulesets/none.yaml"), 100),
            Err(ReadError::Missing(_))
        ));
        assert!(matches!(
            b.read(Path::new("rulesets/r.yaml"), 3),
            Err(ReadError::NotAFile(_))
        ));
        assert!(b.is_file(Path::new("examples/a.yaml")));
        assert!(!b.is_file(Path::new("/examples/a.yaml")));
    }

    #[test]
    fn bundle_paths_are_plain_relative_names() {
        for bad in [
            "",
            "/etc/passwd",
            "../x.yaml",
            "a/../../x",
            "a\\b",
            "./a",
            "c:x",
            "a//b",
        ] {
            assert!(Bundle::check_path(bad).is_err(), "{bad}");
        }
        for good in ["a.yaml", "rulesets/x.yaml", "examples/setup/french.yaml"] {
            assert!(Bundle::check_path(good).is_ok(), "{good}");
        }
    }

    #[test]
    fn the_disk_refuses_devices_and_folders() {
        assert!(matches!(
            Disk.read(Path::new("/dev/zero"), 1 << 20),
            Err(ReadError::NotAFile(_))
        ));
        assert!(matches!(
            Disk.read(Path::new("/"), 1 << 20),
            Err(ReadError::NotAFile(_))
        ));
    }
}
