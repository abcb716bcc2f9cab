//! Decoding a located YAML tree into typed model structs, reporting *every* problem.
//!
//! [`decode`] is a serde [`Deserializer`](serde::Deserializer) over a [`Node`] tree. Where serde would stop at
//! the first error, it notes a [`Diagnostic`] and carries on:
//!
//! - **Unknown keys.** In a struct, serde tells the deserializer the struct's field names;
//!   any other key is reported at the key (`unknown key `colour` in units[0]; expected one
//!   of: name, color` with `help: did you mean `color`?`) and skipped.
//! - **Wrong kinds of value** (text where a number goes, a list where a mapping goes, 300 for
//!   a `u8`) are reported at the value and replaced by a harmless placeholder (0, empty text,
//!   an empty list...) so decoding continues and later problems are found too.
//! - **Unknown enum values** are reported with the allowed values and a suggestion, and
//!   replaced by the first variant.
//! - **Errors serde makes fatal** (a missing required key, a custom `Deserialize` refusing a
//!   value, a wrong tuple length) are reported where they arise — a missing key at the
//!   mapping that lacks it — and that value is set aside: a list carries on without the bad
//!   item, and decoding runs again with the bad value left out, so problems elsewhere are
//!   still found. Consequences of an already-reported problem are not reported again.
//!   Each such problem costs a pass or two over the tree; the number of passes is bounded
//!   (up to 100, fewer for big trees), after which a note says more may be hidden.
//!
//! Every message names the value's dotted path (`in charts.scout_fate.rows[2].score: ...`).
//! Nothing of a failed decode leaks out: any diagnostic means `Err`.
//!
//! ```
//! use serde::Deserialize;
//! use grognard_rules::{de::decode, yaml::{parse, Limits}};
//!
//! #[derive(Debug, Deserialize)]
//! struct Unit { name: String, strength: u8 }
//!
//! let text = b"- name: Guard\n  strength: 4\n- name: Line\n  strenght: 3\n  colour: red\n";
//! let root = parse("oob.yaml", text, &Limits::default()).unwrap();
//! let errors = decode::<Vec<Unit>>(&root).unwrap_err().to_string();
//! assert_eq!(errors, "\
//! oob.yaml:3:3: in [1]: missing required key `strength`
//! oob.yaml:4:3: unknown key `strenght` in [1]; expected one of: name, strength
//!   help: did you mean `strength`?
//! oob.yaml:5:3: unknown key `colour` in [1]; expected one of: name, strength");
//! ```
//!
//! # Supported serde features
//! Structs (with `default`, `rename`, `alias`, `skip`), `Option`, `Vec` and other sequences,
//! tuples, maps keyed by text, numbers or enums (`HashMap`, `BTreeMap`, ...), newtype structs,
//! unit and externally tagged enums (`kind: road` or `move: {to: ...}`), integers, floats,
//! `bool`, `char`, `String`, and [`Located`].
//!
//! Limits, all from serde's buffering of values it cannot type in advance:
//! - `#[serde(flatten)]`: the struct holding the flattened field is read as a plain map, so
//!   its unknown keys are *not* reported (serde keeps them for the flattened part), and
//!   problems inside the flattened part are reported at the enclosing mapping, with serde's
//!   wording. [`Located`] values inside it have an unknown location.
//! - `#[serde(untagged)]` and internally tagged (`#[serde(tag = "...")]`) enums work, but a
//!   value matching no variant is one problem at that value ("data did not match any
//!   variant"), without the detail of why each variant failed.
//! - `#[serde(other)]` on an enum variant is not honoured: unknown values are reported.

use core::cell::RefCell;
use std::collections::HashSet;

use serde::de::DeserializeOwned;

use crate::diag::{Diagnostic, Diagnostics};
use crate::node::{Node, Value};

mod access;
mod errors;
mod located;
mod node;

use access::{EnumDe, MapDe, SeqDe};
use errors::{DecodeError, Path, one_of, suggestion};
pub use located::Located;
use located::{LOCATED_MARKER, LocatedAccess};
use node::{NodeDe, deserialize_child};

/// Decodes a tree into `T`, collecting every problem found.
///
/// # Errors
/// All the problems found, each with its location, dotted path and what was expected. See
/// the [module docs](self) for how decoding carries on after a problem.
///
/// ```
/// use serde::Deserialize;
/// use grognard_rules::{de::decode, yaml::{parse, Limits}};
///
/// #[derive(Debug, Deserialize, PartialEq)]
/// #[serde(rename_all = "snake_case")]
/// enum Scale { Battle, Strategic, Road }
///
/// #[derive(Debug, Deserialize)]
/// struct Rules { scale: Scale, turns: u32 }
///
/// let root = parse("r.yaml", b"scale: strategc\nturns: twelve\n", &Limits::default()).unwrap();
/// let errors = decode::<Rules>(&root).unwrap_err();
/// let text = errors.to_string();
/// assert!(text.contains("r.yaml:1:8: in scale: unknown value `strategc`; expected one of: battle, strategic, road\n  help: did you mean `strategic`?"), "{text}");
/// assert!(text.contains("r.yaml:2:8: in turns: expected a whole number, found the text `twelve`"), "{text}");
///
/// let root = parse("r.yaml", b"scale: road\nturns: 12\n", &Limits::default()).unwrap();
/// let rules: Rules = decode(&root).unwrap();
/// assert_eq!((rules.scale, rules.turns), (Scale::Road, 12));
/// ```
pub fn decode<T: DeserializeOwned>(node: &Node) -> Result<T, Diagnostics> {
    match decode_recovering(node) {
        (Some(value), d) if d.is_empty() => Ok(value),
        (_, d) => Err(d),
    }
}

/// Like [`decode`], but when the only problems were ones the decoder could step over (an
/// unknown key, a bad value left out), also returns the value it recovered, so a later
/// validation pass can report its own problems in the same run.
///
/// # Example
/// ```
/// use serde::Deserialize;
/// use grognard_rules::{de::decode_recovering, yaml::{parse, Limits}};
///
/// #[derive(Debug, Default, Deserialize)]
/// #[serde(default)]
/// struct Board { cols: u32, rows: u32 }
///
/// let root = parse("b.yaml", b"cols: 4\ncolz: 5\nrows: 3\n", &Limits::default()).unwrap();
/// let (board, problems) = decode_recovering::<Board>(&root);
/// assert_eq!(problems.len(), 1);
/// assert_eq!(board.map(|b| (b.cols, b.rows)), Some((4, 3)));
/// ```
pub fn decode_recovering<T: DeserializeOwned>(node: &Node) -> (Option<T>, Diagnostics) {
    // Each pass after the first re-decodes the whole tree with more bad values left out;
    // bound the total work so a file full of fatal errors cannot take long.
    const WORK: usize = 4_000_000;
    const MAX_PASSES: usize = 100;
    let passes = (WORK / count_nodes(node).max(1)).clamp(2, MAX_PASSES);

    let sink = RefCell::new(Session::default());
    let mut converged = false;
    let mut recovered = None;
    for _ in 0..passes {
        if let Ok(mut session) = sink.try_borrow_mut() {
            session.new_poison = false;
        }
        let outcome = T::deserialize(NodeDe::new(node, Path::Root, &sink));
        let Ok(mut session) = sink.try_borrow_mut() else {
            break;
        };
        match outcome {
            Ok(value) if session.diagnostics.is_empty() => {
                return (Some(value), Diagnostics::default());
            }
            Ok(value) => recovered = Some(value),
            Err(DecodeError::Fresh { message, help, .. }) => {
                // Only a `Deserialize` impl failing after (or without) reading the tree gets
                // here, e.g. `#[serde(try_from = ...)]` on the top-level type.
                session.record(with_help(
                    Diagnostic::new(node.location.clone(), message),
                    help,
                ));
                converged = true;
                break;
            }
            _ => {}
        }
        if !session.new_poison || session.is_poisoned(node) || session.overflowed {
            converged = true;
            break;
        }
        if session.diagnostics.is_empty() {
            // Something failed without a report (cannot happen); do not spin.
            session.record(Diagnostic::new(
                node.location.clone(),
                "the file could not be read as expected",
            ));
            break;
        }
    }
    let session = sink.into_inner();
    let mut diagnostics: Diagnostics = session.diagnostics.into_iter().collect();
    if session.overflowed {
        diagnostics.push(Diagnostic::without_location(format!(
            "too many problems: only the first {MAX_DIAGNOSTICS} are shown"
        )));
    } else if !converged {
        diagnostics.push(Diagnostic::without_location(
            "more problems may be hidden behind these; fix them and check again",
        ));
    }
    if diagnostics.is_empty() {
        // Defensive: a decode that failed must say something.
        diagnostics.push(Diagnostic::new(
            node.location.clone(),
            "the file could not be read as expected",
        ));
    }
    (recovered, diagnostics)
}

/// Stop collecting after this many problems: nobody reads more, and it bounds memory.
const MAX_DIAGNOSTICS: usize = 1_000;

fn count_nodes(root: &Node) -> usize {
    let mut count = 0;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        count += 1;
        match &node.value {
            Value::Seq(items) => stack.extend(items),
            Value::Map(entries) => stack.extend(entries.iter().flat_map(|(k, v)| [k, v])),
            _ => {}
        }
    }
    count
}

fn with_help(diagnostic: Diagnostic, help: Option<String>) -> Diagnostic {
    match help {
        Some(help) => diagnostic.with_help(help),
        None => diagnostic,
    }
}

/// What one [`decode`] has found so far, shared by every deserializer of the tree.
#[derive(Default)]
struct Session {
    diagnostics: Vec<Diagnostic>,
    /// Diagnostics already recorded: later passes find the same problems again.
    seen: HashSet<Diagnostic>,
    /// Nodes whose value made decoding fail; later passes leave them out.
    poisoned: HashSet<usize>,
    /// Set when this pass poisoned a node: another pass may find more.
    new_poison: bool,
    overflowed: bool,
}

impl Session {
    fn record(&mut self, diagnostic: Diagnostic) {
        if self.seen.contains(&diagnostic) {
            return;
        }
        if self.diagnostics.len() >= MAX_DIAGNOSTICS {
            self.overflowed = true;
            return;
        }
        self.seen.insert(diagnostic.clone());
        self.diagnostics.push(diagnostic);
    }

    fn is_poisoned(&self, node: &Node) -> bool {
        self.poisoned.contains(&node_id(node))
    }

    fn poison(&mut self, node: &Node) {
        if self.poisoned.insert(node_id(node)) {
            self.new_poison = true;
        }
    }
}

/// A node's identity within one decode: its address in the (borrowed, unmoving) tree.
fn node_id(node: &Node) -> usize {
    core::ptr::from_ref(node) as usize
}

type Sink = RefCell<Session>;

fn is_poisoned(sink: &Sink, node: &Node) -> bool {
    sink.try_borrow().is_ok_and(|s| s.is_poisoned(node))
}

fn poison_count(sink: &Sink) -> usize {
    sink.try_borrow().map_or(0, |s| s.poisoned.len())
}

#[cfg(test)]
mod tests {
    use super::located::parse_location;
    use super::*;
    use crate::diag::Location;

    #[test]
    fn path_rendering() {
        let root = Path::Root;
        let charts = Path::Key(&root, "charts");
        let chart = Path::Key(&charts, "scout_fate");
        let rows = Path::Key(&chart, "rows");
        let row = Path::Index(&rows, 2);
        let score = Path::Key(&row, "score");
        assert_eq!(score.to_string(), "charts.scout_fate.rows[2].score");
        let odd = Path::Key(&charts, "light woods");
        assert_eq!(odd.to_string(), "charts[\"light woods\"]");
        let top = Path::Index(&root, 0);
        assert_eq!(top.to_string(), "[0]");
    }

    #[test]
    fn location_text_round_trips() {
        let loc = parse_location("3:7:c:/rules/a:b.yaml");
        assert_eq!(loc, Location::new("c:/rules/a:b.yaml", 3, 7));
    }
}
