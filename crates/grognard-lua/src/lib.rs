//! The sandboxed Lua host that runs a ruleset's hooks for the kernel.

pub mod error;
pub mod sandbox;
