//! Writing to stdout, and aligned tables of text (the lab's); the text of events and rolls
//! is `grognard_play::text`.

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

/// Prints rows of cells as aligned columns, two spaces apart.
pub fn print_table(rows: &[Vec<String>]) {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let mut line = String::from("  ");
        for (c, text) in row.iter().enumerate() {
            let width = widths.get(c).copied().unwrap_or(0);
            if c + 1 == row.len() {
                line.push_str(text);
            } else {
                line.push_str(&format!("{text:<width$}  "));
            }
        }
        out!("{}", line.trim_end());
    }
}
