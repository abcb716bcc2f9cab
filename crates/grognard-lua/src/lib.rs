//! The sandboxed Lua host that runs a ruleset's hooks for the kernel.
//!
//! [`sandbox`] is the locked-down Lua state (no disk, no clock, budgets per call);
//! [`host::LuaHooks`] binds a ruleset's scripts to the kernel's hook points; [`api`] is
//! the `game` object game hooks receive.

#![warn(missing_docs)]

pub mod api;
pub mod error;
pub mod host;
pub mod names;
pub mod sandbox;

pub use host::LuaHooks;
pub use sandbox::Limits;
