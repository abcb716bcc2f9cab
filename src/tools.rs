//! Designer tools: `diff` (what a house rule changes) and `sheet` (a printable quick
//! reference); `sim` and `sim-merge` are in `sim/`. Exit codes as everywhere: 0 ok, 1 a rule or
//! file error, 2 a usage error.

use std::path::Path;

use grognard_rules::diff::{self, Change};
use grognard_rules::load::{self};
use serde_json::json;

use crate::common::{Failure, Outcome, print_json};

// ---------------------------------------------------------------------------------------
// diff

/// `grognard diff A B`: every semantic difference, one per line, or "no differences".
pub(crate) fn diff(a: &Path, b: &Path, json: bool) -> Outcome {
    let ra = load::load_ruleset(a)?;
    let rb = load::load_ruleset(b)?;
    let changes: Vec<Change> = diff::diff(&ra, &rb);
    if json {
        print_json(&json!({
            "a": {"path": load::display(a), "ruleset": ra.rules.identity.name, "hash": ra.rules.identity.hash},
            "b": {"path": load::display(b), "ruleset": rb.rules.identity.name, "hash": rb.rules.identity.hash},
            "changes": changes,
        }));
    } else if changes.is_empty() {
        out!(
            "no differences between {} and {}",
            load::display(a),
            load::display(b)
        );
    } else {
        out!(
            "{} ({}) → {} ({}): {} change{}",
            load::display(a),
            ra.rules.identity.name,
            load::display(b),
            rb.rules.identity.name,
            changes.len(),
            if changes.len() == 1 { "" } else { "s" }
        );
        for c in &changes {
            out!("  {c}");
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// sheet

/// `grognard sheet RULESET --out FILE.html`.
pub(crate) fn sheet(ruleset: &Path, out: &Path) -> Outcome {
    let r = load::load_ruleset(ruleset)?;
    let base = match r.layers.len() {
        0 | 1 => None,
        n => match r.layers.get(n - 2) {
            Some(p) => Some(load::load_ruleset(p)?),
            None => None,
        },
    };
    let html = grognard_rules::sheet::render(&r, base.as_ref());
    std::fs::write(out, html).map_err(|e| {
        Failure::Rules(format!(
            "{}: cannot write the sheet: {e}",
            load::display(out)
        ))
    })?;
    out!(
        "wrote {} (ruleset {}{})",
        load::display(out),
        r.rules.identity.name,
        base.as_ref().map_or_else(String::new, |b| format!(
            ", changes from {} marked",
            b.rules.identity.name
        ))
    );
    Ok(())
}
