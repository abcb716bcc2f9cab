//! Writing to stdout, aligned tables of text (the lab's), and the kind `play --json` gives a
//! refusal; the text of events and rolls is `grognard_play::text`.

use grognard_kernel::action::RefusalKind;
pub use grognard_play::text::{log_line, roll};

/// `play --json`'s `refused.kind` when a seat's policy failed (`--policy`), a word only the
/// CLI sends.
pub const POLICY_FAILED: &str = "policy_failed";

/// `play --json`'s `refused.kind` for where an orders file stopped: the kernel's reason
/// when the rules refused the order (`RefusalKind` as it serializes: `out_of_phase`,
/// `too_far`, …), `bad_orders` when they never saw it, in the words the server sends too
/// (`grognard_play::refusal_word`). The kinds are listed in docs/designer-tools.md.
pub fn refused_kind(kind: Option<RefusalKind>) -> String {
    grognard_play::refusal_word::refused_word(kind)
}

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
