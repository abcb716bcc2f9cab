//! Why the search chose what it chose: the orders it weighed most at its last decision,
//! each with how often it was tried and the mean score it earned, and what the decision
//! cost. `play --explain` prints it after each of the search's orders; the editor and the
//! server can show the same value (it serialises to JSON).

use std::fmt;

use serde::Serialize;

/// How many of the most visited orders an explanation lists.
pub const SHOWN: usize = 5;

/// One order the search weighed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Considered {
    /// The order in the orders-file form, as the searching side names pieces.
    pub order: serde_json::Value,
    /// Iterations that tried it.
    pub visits: u32,
    /// The mean score they earned, from −1 (lost) to 1 (won).
    pub mean: f64,
}

/// The search's account of one decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// Iterations made (each: one imagined world, one path down the tree, one rollout).
    pub iterations: u32,
    /// Orders applied in imagined games, the tree's and the rollouts'.
    pub simulated_orders: u64,
    /// Wall time the decision took, in milliseconds (not part of what a seed fixes).
    pub millis: u64,
    /// The most visited orders, most visited first; the first is the one given.
    pub considered: Vec<Considered>,
    /// The order given is the greedy player's own, kept although another scored better,
    /// because the better one did not beat it by [`super::tree::SURE`] standard errors
    /// (`Tree::chosen`): too few imagined games to overrule it.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub kept_default: bool,
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "search: {} iterations, {} imagined orders, {} ms",
            self.iterations, self.simulated_orders, self.millis
        )?;
        for (i, c) in self.considered.iter().enumerate() {
            let mark = if i == 0 { "*" } else { " " };
            let kept = if i == 0 && self.kept_default {
                "  (greedy's choice kept: too few imagined games to overrule it)"
            } else {
                ""
            };
            writeln!(
                f,
                "  {mark} {:>5} visits  mean {:+.3}  {}{kept}",
                c.visits,
                c.mean,
                order_words(&c.order)
            )?;
        }
        Ok(())
    }
}

/// An order's JSON in one line without its side (`move: {piece: b1, path: [[4,5]]}`).
fn order_words(order: &serde_json::Value) -> String {
    match order.as_object() {
        Some(o) => o
            .iter()
            .filter(|(k, _)| k.as_str() != "side")
            .map(|(k, v)| format!("{k}: {}", compact(v)))
            .collect::<Vec<_>>()
            .join(", "),
        None => compact(order),
    }
}

/// A JSON value in a short form: strings without quotes.
fn compact(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Object(o) => format!(
            "{{{}}}",
            o.iter()
                .map(|(k, v)| format!("{k}: {}", compact(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        serde_json::Value::Array(a) => {
            format!("[{}]", a.iter().map(compact).collect::<Vec<_>>().join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_explanation_lists_orders_with_visits_and_means() {
        let e = Explanation {
            iterations: 10,
            simulated_orders: 120,
            millis: 3,
            considered: vec![
                Considered {
                    order: serde_json::json!({"side": "blue", "move": {"piece": "b1", "path": [[4, 5]]}}),
                    visits: 7,
                    mean: 0.25,
                },
                Considered {
                    order: serde_json::json!({"side": "blue", "end_phase": true}),
                    visits: 3,
                    mean: -0.5,
                },
            ],
            kept_default: false,
        };
        let text = e.to_string();
        assert!(text.contains("10 iterations"), "{text}");
        assert!(
            text.contains("*     7 visits  mean +0.250  move: {path: [[4, 5]], piece: b1}"),
            "{text}"
        );
        assert!(
            text.contains("3 visits  mean -0.500  end_phase: true"),
            "{text}"
        );
        assert!(!text.contains("blue"), "{text}");
        assert!(!text.contains("kept"), "{text}");
        assert!(!serde_json::to_string(&e).unwrap().contains("kept_default"));
        // Greedy's order kept over one tried more: its line says so, and the JSON too.
        let kept = Explanation {
            kept_default: true,
            ..e
        };
        let text = kept.to_string();
        assert!(
            text.contains(
                "end_phase: true\n" // the weighed line has no note
            ) && text.contains(
                "piece: b1}  (greedy's choice kept: too few imagined games to overrule it)"
            ),
            "{text}"
        );
        assert!(
            serde_json::to_string(&kept)
                .unwrap()
                .contains("\"kept_default\":true")
        );
    }
}
