//! Showing text another seat wrote (chat lines, the referee's reasons) to a person: what a
//! terminal or the editor would act on instead of showing is written out as an escape.
//!
//! The server stores and sends what was said unchanged; clients call [`escape_controls`]
//! just before they show it, so an escape sequence, a carriage return or a bidi override
//! in a chat line cannot recolour a terminal, hide what came before it, forge a line from
//! another seat, or reorder the text around it.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` is shown escaped: C0 controls (newline and tab included: a line from a seat
/// stays one line), DEL, C1 controls, the bidirectional formatting characters (embeddings,
/// overrides, isolates and marks) and the line and paragraph separators.
#[must_use]
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every character of [`is_unsafe_char`] written as a Rust-style escape
/// (`\u{1b}`); everything else, accents and other scripts included, as it is.
///
/// ```
/// use grognard_server::display::escape_controls;
/// assert_eq!(escape_controls("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
/// assert_eq!(escape_controls("grüß dich"), "grüß dich");
/// ```
#[must_use]
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_characters_are_escaped() {
        let cases = [
            ("\u{1b}[31mred", "\\u{1b}[31mred"),
            ("over\rwrite", "over\\u{d}write"),
            ("two\nlines", "two\\u{a}lines"),
            ("tab\there", "tab\\u{9}here"),
            ("nul\0", "nul\\u{0}"),
            ("del\u{7f}", "del\\u{7f}"),
            ("csi\u{9b}2J", "csi\\u{9b}2J"),
            ("abc\u{202E}fed", "abc\\u{202e}fed"),
            (
                "\u{202A}\u{202B}\u{202C}\u{202D}",
                "\\u{202a}\\u{202b}\\u{202c}\\u{202d}",
            ),
            (
                "\u{2066}\u{2067}\u{2068}\u{2069}",
                "\\u{2066}\\u{2067}\\u{2068}\\u{2069}",
            ),
            ("\u{200E}\u{200F}\u{061C}", "\\u{200e}\\u{200f}\\u{61c}"),
            ("para\u{2029}line\u{2028}", "para\\u{2029}line\\u{2028}"),
        ];
        for (text, shown) in cases {
            assert_eq!(escape_controls(text), shown, "{text:?}");
        }
    }

    #[test]
    fn ordinary_text_is_shown_as_it_is() {
        for text in [
            "",
            "bonjour",
            "guten Tag, grüß dich",
            "שלום עולם",
            "مرحبا",
            "日本語 ♞ — “quotes”",
            "a\\u{1b} written out by hand",
        ] {
            assert!(
                matches!(escape_controls(text), Cow::Borrowed(t) if t == text),
                "{text:?}"
            );
        }
    }
}
