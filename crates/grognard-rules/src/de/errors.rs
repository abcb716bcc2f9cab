//! Where a value is and what was wrong with it: the dotted [`Path`] from the top of the file
//! (`charts.x.rows[2].score`) and the decode error serde reports through, worded with what
//! was expected and a "did you mean" for misspelt keys and values.

use core::fmt;

use serde::de::{self};

use crate::diag::quote;
use crate::suggest::did_you_mean;

/// Where a value is, as a dotted path from the top of the file: `charts.x.rows[2].score`.
#[derive(Clone, Copy)]
pub(super) enum Path<'p> {
    Root,
    Key(&'p Path<'p>, &'p str),
    Index(&'p Path<'p>, usize),
}

impl Path<'_> {
    pub(super) const fn is_root(&self) -> bool {
        matches!(self, Self::Root)
    }

    /// `message` prefixed by `in <path>: ` (nothing at the top level).
    pub(super) fn prefix(&self, message: &str) -> String {
        if self.is_root() {
            message.to_string()
        } else {
            format!("in {self}: {message}")
        }
    }

    /// `in <path>` or `at the top level`.
    pub(super) fn place(&self) -> String {
        if self.is_root() {
            "at the top level".to_string()
        } else {
            format!("in {self}")
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Root => Ok(()),
            Self::Key(parent, key) => {
                parent.fmt(f)?;
                let plain = !key.is_empty()
                    && key.len() <= 40
                    && key
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
                if plain {
                    if !parent.is_root() {
                        f.write_str(".")?;
                    }
                    f.write_str(key)
                } else {
                    let shown: String = key.chars().take(40).collect();
                    let cut = if shown.len() < key.len() { "…" } else { "" };
                    write!(f, "[{shown:?}{cut}]")
                }
            }
            Self::Index(parent, index) => {
                parent.fmt(f)?;
                write!(f, "[{index}]")
            }
        }
    }
}

/// The error type of the tree deserializer.
///
/// `Fresh` errors come from serde or from a `Deserialize` impl and have not been reported
/// yet; the deserializer of the innermost node they pass through reports them at that node
/// and turns them into `Reported`, which then travels up untouched.
#[derive(Debug)]
pub(super) enum DecodeError {
    Fresh {
        message: String,
        help: Option<String>,
        /// Set for "missing field" errors, which may be a consequence of a left-out value.
        missing_field: Option<&'static str>,
    },
    Reported,
}

impl DecodeError {
    pub(super) fn fresh(message: String) -> Self {
        Self::Fresh {
            message,
            help: None,
            missing_field: None,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fresh { message, .. } => f.write_str(message),
            Self::Reported => f.write_str("already reported"),
        }
    }
}

impl std::error::Error for DecodeError {}

pub(super) fn one_of(expected: &[&str]) -> String {
    if expected.is_empty() {
        "nothing (there are no values to choose from)".to_string()
    } else {
        expected.join(", ")
    }
}

pub(super) fn suggestion(word: &str, expected: &[&'static str]) -> Option<String> {
    did_you_mean(word, expected.iter().copied()).map(|s| format!("did you mean `{s}`?"))
}

impl de::Error for DecodeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self::fresh(msg.to_string())
    }

    fn invalid_type(unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        Self::fresh(format!("expected {exp}, found {unexp}"))
    }

    fn invalid_value(unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        Self::fresh(format!("expected {exp}, found {unexp}"))
    }

    fn invalid_length(len: usize, exp: &dyn de::Expected) -> Self {
        Self::fresh(format!("expected {exp}, found {len} items"))
    }

    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        Self::Fresh {
            message: format!(
                "unknown value {}; expected one of: {}",
                quote(variant),
                one_of(expected)
            ),
            help: suggestion(variant, expected),
            missing_field: None,
        }
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        Self::Fresh {
            message: format!(
                "unknown key {}; expected one of: {}",
                quote(field),
                one_of(expected)
            ),
            help: suggestion(field, expected),
            missing_field: None,
        }
    }

    fn missing_field(field: &'static str) -> Self {
        Self::Fresh {
            message: format!("missing required key `{field}`"),
            help: None,
            missing_field: Some(field),
        }
    }

    fn duplicate_field(field: &'static str) -> Self {
        Self::fresh(format!("the key `{field}` is given twice"))
    }
}
