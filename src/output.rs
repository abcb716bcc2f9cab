//! Writing to stdout; the text of events and rolls is `grognard_play::text`.

pub use grognard_play::text::{log_line, roll};

/// Writes a line to stdout; a closed pipe ends the program with success, like other
/// command-line tools, rather than a panic.
pub fn write_line(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{args}").is_err() {
        std::process::exit(0);
    }
}
