//! grognard ruleset and scenario files.
//!
//! YAML goes in through one small module ([`yaml`]) into a located tree ([`node`]); a
//! decoder ([`de`]) turns the tree into the typed model ([`model`]) while collecting every
//! problem with its `file:line:col`; [`compile`] then checks the whole ruleset and builds
//! the kernel's [`grognard_kernel::rules::Rules`]; [`scenario`] does the same for boards
//! and pieces. [`load`] reads files; [`save`] is the replayable save format.

#![warn(missing_docs)]

mod amount;
pub mod amount_odds;
mod company;
pub mod compile;
mod cx;
pub mod de;
pub mod diag;
pub mod diff;
pub mod html;
pub mod load;
pub mod model;
pub mod named;
mod names;
pub mod node;
pub mod number;
pub mod odds;
pub mod orders;
pub mod overlay;
pub mod save;
pub mod scenario;
pub mod schema;
pub mod sheet;
mod sheet_pieces;
mod sheet_rules;
mod sighting;
pub mod source;
pub mod suggest;
mod turning;
mod victory;
pub mod yaml;
