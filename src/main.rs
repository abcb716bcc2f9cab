//! `grognard`: the command line face of the engine.

use std::process::ExitCode;

use clap::Parser;

/// `println!` that ends the program quietly when stdout is closed (`grognard ... | head`),
/// instead of panicking on the broken pipe.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_line(format_args!($($arg)*))
    };
}

mod cli;
mod commands;
mod common;
mod fuzz;
mod lab;
mod lab_amounts;
mod lab_gates;
mod lab_units;
mod output;
mod remote;
mod sim;
mod tools;
mod tune;
mod views;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => {
            // clap prints help and version to stdout with success; usage errors exit 2.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    commands::run(args)
}
