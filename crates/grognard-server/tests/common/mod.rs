//! What the server's integration tests share: where the repository's files are, and a
//! bundled example gathered as a create request.
// Each test binary uses its own share of these.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use grognard_server::bundle;
use grognard_server::protocol::CreateGame;

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The create request for a bundled example (a path from the root), with no options,
/// seed or policies.
pub fn example(path: &str) -> CreateGame {
    bundle::gather(&root().join(path), BTreeMap::new(), None, BTreeMap::new())
        .unwrap_or_else(|e| panic!("{path} gathers: {e}"))
}
