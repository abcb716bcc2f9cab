//! Command-line arguments.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// A rules engine for tabletop horse-and-musket wargames.
#[derive(Debug, Parser)]
#[command(name = "grognard", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check rulesets, scenarios and orders files; exits 0 only if all are valid.
    Validate {
        /// Files to check (the kind is read from the top-level key).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print diagnostics as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Every place a piece can reach this phase, with cost and path.
    Reach {
        /// Scenario file.
        scenario: PathBuf,
        /// Piece id (as in the scenario).
        #[arg(long = "unit")]
        unit: String,
        /// Play these orders first, then ask.
        #[arg(long)]
        orders: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Apply a file of orders and print the events.
    Play {
        /// Scenario file.
        scenario: PathBuf,
        /// Orders file.
        #[arg(long)]
        orders: PathBuf,
        /// Seed for the dice (the scenario's when absent).
        #[arg(long)]
        seed: Option<u64>,
        /// Optional rule choice, `name=on|off` (repeatable).
        #[arg(long = "option", value_name = "NAME=on|off")]
        options: Vec<String>,
        /// Write a replayable save here.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Re-run a saved game and check it reproduces every event.
    Replay {
        /// Save file.
        game: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Resolve one chart, showing the dice and every modifier.
    Roll {
        /// Ruleset file.
        ruleset: PathBuf,
        /// Chart name.
        chart: String,
        /// Input value, `name=value` (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// Seed for the dice (random when absent).
        #[arg(long)]
        seed: Option<u64>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}
