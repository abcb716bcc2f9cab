//! The grognard editor (egui/eframe): switch rulesets, tweak charts and costs with live
//! odds, save house rules, and play on the board.
//!
//! The crate exists so the workspace has its final shape; the editor itself is built by its
//! own issue on top of the kernel, rules and Lua crates, and depends on nothing else yet.
