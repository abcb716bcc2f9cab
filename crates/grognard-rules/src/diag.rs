//! Diagnostics: what went wrong in a ruleset or scenario file, and where.
//!
//! Every problem found while reading a file becomes a [`Diagnostic`]: a [`Location`]
//! (`file:line:col`, 1-based), a message in plain words that says what was expected and what
//! was found, and an optional `help:` line. Problems are collected into [`Diagnostics`] so a
//! hobbyist fixing a shared ruleset sees all of them at once, in file order.
//!
//! ```
//! use grognard_rules::diag::{Diagnostic, Diagnostics, Location};
//!
//! let mut all = Diagnostics::new();
//! all.push(
//!     Diagnostic::new(Location::new("rules.yaml", 12, 14), "expected a whole number, found the text `abc`")
//!         .with_help("write a number such as 3"),
//! );
//! all.push(Diagnostic::new(Location::new("rules.yaml", 3, 1), "unknown key `colour`"));
//! assert_eq!(
//!     all.to_string(),
//!     "rules.yaml:3:1: unknown key `colour`\n\
//!      rules.yaml:12:14: expected a whole number, found the text `abc`\n  help: write a number such as 3"
//! );
//! ```

use core::fmt;
use std::sync::Arc;

/// A place in a file: file name, 1-based line and 1-based column (in characters).
///
/// A line of `0` means "somewhere in this file" (see [`Location::unknown`]); such a location
/// displays as the bare file name.
///
/// ```
/// use grognard_rules::diag::Location;
/// assert_eq!(Location::new("rules.yaml", 3, 7).to_string(), "rules.yaml:3:7");
/// assert_eq!(Location::unknown("rules.yaml").to_string(), "rules.yaml");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    /// The file name as given by whoever read the file (usually a path).
    pub file: Arc<str>,
    /// 1-based line; `0` when unknown.
    pub line: u32,
    /// 1-based column, counted in characters; `0` when unknown.
    pub col: u32,
}

impl Location {
    /// The location `line:col` in `file`.
    #[must_use]
    pub fn new(file: impl Into<Arc<str>>, line: u32, col: u32) -> Self {
        Self {
            file: file.into(),
            line,
            col,
        }
    }

    /// Somewhere in `file`, line and column unknown (line and column are `0`).
    ///
    /// ```
    /// use grognard_rules::diag::Location;
    /// let loc = Location::unknown("house-rules.yaml");
    /// assert!(!loc.is_known());
    /// ```
    #[must_use]
    pub fn unknown(file: impl Into<Arc<str>>) -> Self {
        Self::new(file, 0, 0)
    }

    /// True when the line is known.
    #[must_use]
    pub const fn is_known(&self) -> bool {
        self.line != 0
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file: &str = if self.file.is_empty() {
            "<input>"
        } else {
            &self.file
        };
        match (self.line, self.col) {
            (0, _) => f.write_str(file),
            (line, 0) => write!(f, "{file}:{line}"),
            (line, col) => write!(f, "{file}:{line}:{col}"),
        }
    }
}

/// One problem in a file.
///
/// Displays as `file:line:col: message`, then, if there is help, a second line
/// `  help: ...`.
///
/// ```
/// use grognard_rules::diag::{Diagnostic, Location};
/// let d = Diagnostic::new(Location::new("a.yaml", 2, 5), "unknown key `colour` in units[0]")
///     .with_help("did you mean `color`?");
/// assert_eq!(d.to_string(), "a.yaml:2:5: unknown key `colour` in units[0]\n  help: did you mean `color`?");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Where the problem is; `None` when it concerns no file (e.g. a limit on the whole run).
    pub location: Option<Location>,
    /// What is wrong, in plain words, saying what was expected.
    pub message: String,
    /// How to fix it, when there is something useful to say.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at `location` with `message` and no help.
    #[must_use]
    pub fn new(location: Location, message: impl Into<String>) -> Self {
        Self {
            location: Some(location),
            message: message.into(),
            help: None,
        }
    }

    /// A diagnostic tied to no file.
    #[must_use]
    pub fn without_location(message: impl Into<String>) -> Self {
        Self {
            location: None,
            message: message.into(),
            help: None,
        }
    }

    /// The same diagnostic with a `help:` line.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The key used to render diagnostics in file order.
    fn sort_key(&self) -> (bool, Option<(&str, u32, u32)>) {
        match &self.location {
            Some(l) => (false, Some((&l.file, l.line, l.col))),
            // Diagnostics about no particular file come after the located ones.
            None => (true, None),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(location) = &self.location {
            write!(f, "{location}: ")?;
        }
        f.write_str(&self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// A list of [`Diagnostic`]s.
///
/// Kept in the order they were found; [`Display`](fmt::Display) renders them one per entry,
/// sorted stably by file, line and column.
///
/// ```
/// use grognard_rules::diag::{Diagnostic, Diagnostics, Location};
/// let mut all = Diagnostics::new();
/// assert!(all.is_empty());
/// assert_eq!(all.clone().into_result(7), Ok(7));
/// all.push(Diagnostic::new(Location::new("a.yaml", 1, 1), "bad"));
/// assert!(all.into_result(7).is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(Vec<Diagnostic>);

impl Diagnostics {
    /// No diagnostics.
    #[must_use]
    pub const fn new() -> Self {
        Self(Vec::new())
    }

    /// Adds one diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.0.push(diagnostic);
    }

    /// The diagnostic pushed last, to add a hint to it.
    pub(crate) fn last_mut(&mut self) -> Option<&mut Diagnostic> {
        self.0.last_mut()
    }

    /// Adds many diagnostics.
    pub fn extend(&mut self, diagnostics: impl IntoIterator<Item = Diagnostic>) {
        self.0.extend(diagnostics);
    }

    /// True when there is nothing to report.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many diagnostics there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The diagnostics in the order they were found.
    pub fn iter(&self) -> core::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }

    /// The diagnostics sorted stably by file, line and column (located ones first), each
    /// once: the same problem found twice (a ruleset checked on its own and again under a
    /// scenario) is reported once.
    #[must_use]
    pub fn sorted(&self) -> Vec<&Diagnostic> {
        let mut seen = std::collections::HashSet::new();
        let mut sorted: Vec<&Diagnostic> = self.0.iter().filter(|d| seen.insert(*d)).collect();
        sorted.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        sorted
    }

    /// Each diagnostic changed by `f` (to add help, for instance).
    #[must_use]
    pub fn map(self, f: impl FnMut(Diagnostic) -> Diagnostic) -> Self {
        Self(self.0.into_iter().map(f).collect())
    }

    /// `Ok(value)` when there are no diagnostics, otherwise `Err(self)`.
    ///
    /// # Errors
    /// Returns `self` when it holds at least one diagnostic.
    pub fn into_result<T>(self, value: T) -> Result<T, Self> {
        if self.is_empty() {
            Ok(value)
        } else {
            Err(self)
        }
    }

    /// The diagnostics as a vector, in the order they were found.
    #[must_use]
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.0
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, diagnostic) in self.sorted().into_iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{diagnostic}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

impl From<Diagnostic> for Diagnostics {
    fn from(diagnostic: Diagnostic) -> Self {
        Self(vec![diagnostic])
    }
}

impl From<Vec<Diagnostic>> for Diagnostics {
    fn from(diagnostics: Vec<Diagnostic>) -> Self {
        Self(diagnostics)
    }
}

impl FromIterator<Diagnostic> for Diagnostics {
    fn from_iter<I: IntoIterator<Item = Diagnostic>>(iter: I) -> Self {
        Self(iter.into_iter().collect())
    }
}

impl Extend<Diagnostic> for Diagnostics {
    fn extend<I: IntoIterator<Item = Diagnostic>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = core::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Quotes text taken from a file for use in a message: in backticks, control characters
/// escaped (a hostile file must not be able to move the cursor of the terminal showing the
/// error), and cut short after 60 characters.
///
/// ```
/// use grognard_rules::diag::quote;
/// assert_eq!(quote("colour"), "`colour`");
/// assert_eq!(quote("a\u{1b}[2J"), "`a\\u{1b}[2J`");
/// assert_eq!(quote(&"x".repeat(100)).chars().count(), 63);
/// ```
#[must_use]
pub fn quote(text: &str) -> String {
    const MAX_CHARS: usize = 60;
    let mut out = String::with_capacity(text.len().min(MAX_CHARS * 2) + 2);
    out.push('`');
    for (i, c) in text.chars().enumerate() {
        if i == MAX_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out.push('`');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_rendering_is_stable_and_puts_unlocated_last() {
        let mut all = Diagnostics::new();
        all.push(Diagnostic::without_location("too many errors"));
        all.push(Diagnostic::new(Location::new("b.yaml", 1, 1), "b1"));
        all.push(Diagnostic::new(Location::new("a.yaml", 5, 2), "a5-first"));
        all.push(Diagnostic::new(Location::new("a.yaml", 2, 9), "a2"));
        all.push(Diagnostic::new(Location::new("a.yaml", 5, 2), "a5-second"));
        assert_eq!(
            all.to_string(),
            "a.yaml:2:9: a2\na.yaml:5:2: a5-first\na.yaml:5:2: a5-second\nb.yaml:1:1: b1\ntoo many errors"
        );
        // The stored order is the order found.
        assert_eq!(
            all.iter().next().map(|d| d.message.as_str()),
            Some("too many errors")
        );
    }

    #[test]
    fn location_display_variants() {
        assert_eq!(Location::new("", 1, 2).to_string(), "<input>:1:2");
        assert_eq!(Location::new("f", 4, 0).to_string(), "f:4");
    }
}
