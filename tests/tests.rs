//! End-to-end tests of the `grognard` binary, compiled as one test binary.

mod black_powder;
mod cli;
mod editor_cli;
mod footprints;
mod handles;
mod hex_command;
mod hex_leaders;
mod hidden;
mod hostile;
mod lab;
mod legal;
mod overlays;
mod policies;
mod remote;
mod rolls_seen;
mod scale;
mod setup;
mod sim_editor;
mod square_blocks;
mod square_blocks_audit;
mod square_blocks_rulings;
mod tools;
mod util;
