//! Running the binary from the workspace root.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The workspace root (where `rulesets/` and `examples/` live).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A finished run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs `grognard ARGS` in `dir`.
pub fn grognard_in(dir: &Path, args: &[&str]) -> Run {
    let start = Instant::now();
    let out: Output = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(args)
        .current_dir(dir)
        .env_remove("GROGNARD_RULESETS")
        .output()
        .unwrap_or_else(|e| panic!("cannot run grognard: {e}"));
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: start.elapsed(),
    }
}

/// Runs `grognard ARGS` from the workspace root.
pub fn grognard(args: &[&str]) -> Run {
    grognard_in(&root(), args)
}

/// Runs `grognard ARGS` from the workspace root with every `.yaml` argument taken from
/// the fixture folder `dir` (an audit's positions).
pub fn grognard_fixtures(dir: &str, args: &[&str]) -> Run {
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            if a.ends_with(".yaml") {
                format!("{dir}/{a}")
            } else {
                (*a).to_owned()
            }
        })
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    grognard(&args)
}

/// Every `.yaml` file directly in `dir` (relative to the root), sorted.
pub fn yaml_files(dir: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| {
            format!(
                "{dir}/{}",
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            )
        })
        .collect();
    out.sort();
    out
}
