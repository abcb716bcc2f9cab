//! Source guards run before a chunk is loaded: to-be-closed variables (`<close>`) are
//! refused, found by a scan that skips strings, long brackets and comments.

/// Why a to-be-closed variable is refused.
pub(super) const CLOSE_REFUSED: &str = "to-be-closed variables (`<close>`) are not allowed in the sandbox: \
    when the instruction budget stops a function, Lua would run their __close handler where \
    the budget cannot stop it; release resources explicitly instead";

/// Line of the first `<close>` attribute (a to-be-closed variable) in Lua source, if any.
///
/// A small lexer: skips comments, quoted and long strings, and looks for the tokens `<`,
/// `close`, `>` in a row (which is also a valid, if odd, comparison `a < close > b`; the
/// refusal then asks for a rename). Malformed source is scanned as far as it goes and left
/// to the parser to report.
pub(super) fn find_close_attribute(source: &[u8]) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Token {
        Less,
        Close,
        Other,
    }
    let mut line = 1;
    let mut recent = [Token::Other; 2];
    let mut less_line = 0;
    let mut i = 0;
    while i < source.len() {
        let byte = source[i];
        let token = match byte {
            b'\n' => {
                line += 1;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                i += 1;
                continue;
            }
            b'-' if source.get(i + 1) == Some(&b'-') => {
                i += 2;
                if let Some(level) = long_bracket_level(source, i) {
                    i = skip_long_bracket(source, i, level, &mut line);
                } else {
                    while i < source.len() && source[i] != b'\n' {
                        i += 1;
                    }
                }
                continue;
            }
            b'[' => {
                match long_bracket_level(source, i) {
                    Some(level) => i = skip_long_bracket(source, i, level, &mut line),
                    None => i += 1,
                }
                Token::Other
            }
            b'"' | b'\'' => {
                i += 1;
                while i < source.len() && source[i] != byte && source[i] != b'\n' {
                    if source[i] == b'\\' {
                        i += 1;
                        if source.get(i) == Some(&b'\n') {
                            line += 1;
                        }
                    }
                    i += 1;
                }
                i += 1;
                Token::Other
            }
            b'<' if !matches!(source.get(i + 1), Some(b'=' | b'<')) => {
                i += 1;
                less_line = line;
                Token::Less
            }
            b'>' if recent == [Token::Less, Token::Close]
                && !matches!(source.get(i + 1), Some(b'=' | b'>')) =>
            {
                return Some(less_line);
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' => {
                let start = i;
                while i < source.len() && (source[i].is_ascii_alphanumeric() || source[i] == b'_') {
                    i += 1;
                }
                if &source[start..i] == b"close" {
                    Token::Close
                } else {
                    Token::Other
                }
            }
            _ => {
                i += 1;
                Token::Other
            }
        };
        recent = [recent[1], token];
    }
    None
}

/// Level of the long bracket (`[[`, `[==[`) opening at `i`, if one does.
pub(super) fn long_bracket_level(source: &[u8], i: usize) -> Option<usize> {
    if source.get(i) != Some(&b'[') {
        return None;
    }
    let equals = source[i + 1..].iter().take_while(|&&b| b == b'=').count();
    (source.get(i + 1 + equals) == Some(&b'[')).then_some(equals)
}

/// Index just after the long bracket of `level` opening at `i`, counting lines.
pub(super) fn skip_long_bracket(source: &[u8], i: usize, level: usize, line: &mut usize) -> usize {
    let mut j = i + level + 2;
    while j < source.len() {
        if source[j] == b'\n' {
            *line += 1;
        } else if source[j] == b']'
            && source[j + 1..].iter().take_while(|&&b| b == b'=').count() == level
            && source.get(j + 1 + level) == Some(&b']')
        {
            return j + level + 2;
        }
        j += 1;
    }
    source.len()
}
