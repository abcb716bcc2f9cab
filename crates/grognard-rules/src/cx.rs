//! The compile context: the diagnostics the validation pass collects, with helpers that
//! report unknown names (with "did you mean") at their location. Every part of the compiler
//! (the ruleset sections, scenarios, sighting, company, turning) takes one; it imports
//! nothing from them.

use crate::de::Located;
use crate::diag::{Diagnostic, Diagnostics, Location};
use crate::suggest::did_you_mean;

/// Collects diagnostics while compiling.
pub(crate) struct Cx {
    pub diags: Diagnostics,
}

impl Cx {
    pub(crate) fn new() -> Self {
        Self {
            diags: Diagnostics::default(),
        }
    }

    pub(crate) fn error(&mut self, at: &Location, message: impl Into<String>) {
        self.diags.push(Diagnostic {
            location: Some(at.clone()),
            message: message.into(),
            help: None,
        });
    }

    pub(crate) fn error_help(&mut self, at: &Location, message: String, help: Option<String>) {
        self.diags.push(Diagnostic {
            location: Some(at.clone()),
            message,
            help,
        });
    }

    /// Resolves `name` among `candidates` (`what` names the kind: "terrain").
    pub(crate) fn lookup<'a>(
        &mut self,
        what: &str,
        name: &Located<String>,
        candidates: impl Iterator<Item = &'a str> + Clone,
    ) -> Option<usize> {
        if let Some(i) = candidates.clone().position(|c| c == name.value) {
            return Some(i);
        }
        let list: Vec<&str> = candidates.clone().collect();
        let help = did_you_mean(&name.value, candidates)
            .map(|s| format!("did you mean `{s}`?"))
            .or_else(|| {
                (!list.is_empty()).then(|| format!("known {what} names: {}", list.join(", ")))
            });
        let message = if list.is_empty() {
            format!("unknown {what} `{}`: the ruleset declares none", name.value)
        } else {
            format!("unknown {what} `{}`", name.value)
        };
        self.error_help(&name.location, message, help);
        None
    }
}
