//! A chart's score rows kept contiguous and in order as the tuner moves one row's score
//! (issue 39): when `9+ rout` becomes `10+`, the row below it, `5-8 push`, becomes `5-9`,
//! so no score falls between the rows; a value that would leave a neighbour no score at all
//! (`9+` moved down to `5+` past `5-8`) is not a candidate. Only the rows next to the tuned
//! one in the list are moved, and only where the ruleset wrote them touching it (a gap the
//! designer left stays a gap); rows with other `when:` conditions, or bounds written as
//! `min:`/`max:`, are a table of their own and are left as written.

use grognard_rules::node::{Node, Value};

/// A row's scores, either end open: `9+` is `(9, open)`, `3-` `(open, 3)`, `7` `(7, 7)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    lo: Option<i64>,
    hi: Option<i64>,
}

impl Span {
    /// Reads a score as rows write it: `7`, `8-10`, `10+`, `3-`, `-2-0`.
    pub(super) fn parse(text: &str) -> Option<Self> {
        let t = text.trim();
        if let Some(lo) = t.strip_suffix('+') {
            return Some(Self {
                lo: Some(lo.trim().parse().ok()?),
                hi: None,
            });
        }
        if let Some(hi) = t.strip_suffix('-').filter(|h| !h.is_empty()) {
            return Some(Self {
                lo: None,
                hi: Some(hi.trim().parse().ok()?),
            });
        }
        // A dash after the first character separates a range (`-2-0` is −2 to 0).
        if let Some((i, _)) = t.char_indices().skip(1).find(|(_, c)| *c == '-') {
            return Some(Self {
                lo: Some(t[..i].trim().parse().ok()?),
                hi: Some(t[i + 1..].trim().parse().ok()?),
            });
        }
        let v = t.parse().ok()?;
        Some(Self {
            lo: Some(v),
            hi: Some(v),
        })
    }

    /// The score as a row writes it.
    fn text(self) -> String {
        match (self.lo, self.hi) {
            (Some(lo), Some(hi)) if lo == hi => lo.to_string(),
            (Some(lo), Some(hi)) => format!("{lo}-{hi}"),
            (Some(lo), None) => format!("{lo}+"),
            (None, Some(hi)) => format!("{hi}-"),
            (None, None) => "any".to_owned(),
        }
    }

    fn is_empty(self) -> bool {
        matches!((self.lo, self.hi), (Some(lo), Some(hi)) if lo > hi)
    }
}

/// A neighbour row moved with a tuned score: its index in the list, its score as the
/// ruleset writes it and its new score.
pub type Moved = (usize, String, String);

/// The rows next to a tuned row that touch it: each neighbour's index in the list, its
/// scores, and whether it lies below the tuned row (its top meets the row's bottom) or
/// above it.
#[derive(Clone, Debug)]
pub(super) struct RowLinks {
    neighbours: Vec<(usize, Span, bool)>,
}

impl RowLinks {
    /// The links of row `index` of `rows` (a chart's `rows:` list), whose score reads
    /// `own` in the ruleset; `None` when no neighbour touches it.
    pub(super) fn of(rows: &Node, index: usize, own: Span) -> Option<Self> {
        let Value::Seq(items) = &rows.value else {
            return None;
        };
        let row = items.get(index)?;
        let neighbours: Vec<(usize, Span, bool)> = [index.checked_sub(1), Some(index + 1)]
            .into_iter()
            .flatten()
            .filter_map(|k| {
                let other = items.get(k)?;
                if other.get("min").is_some()
                    || other.get("max").is_some()
                    || when(other) != when(row)
                {
                    return None;
                }
                let Value::Str(text) = &other.get("score")?.value else {
                    return None;
                };
                let span = Span::parse(text)?;
                let below = matches!((span.hi, own.lo), (Some(h), Some(l)) if h + 1 == l);
                let above = matches!((span.lo, own.hi), (Some(l), Some(h)) if l == h + 1);
                (below || above).then_some((k, span, below))
            })
            .collect();
        (!neighbours.is_empty()).then_some(Self { neighbours })
    }

    /// The neighbours' new scores when the tuned row reads `moved`: `Ok` with each
    /// neighbour's index, its score as written and its new score, or `Err` with the
    /// neighbour (index and score as written) that `moved` would leave without a score.
    pub(super) fn follow(&self, moved: Span) -> Result<Vec<Moved>, (usize, String)> {
        self.neighbours
            .iter()
            .map(|&(k, span, below)| {
                let new = if below {
                    Span {
                        hi: moved.lo.map(|l| l - 1),
                        ..span
                    }
                } else {
                    Span {
                        lo: moved.hi.map(|h| h + 1),
                        ..span
                    }
                };
                if new.is_empty() {
                    Err((k, span.text()))
                } else {
                    Ok((k, span.text(), new.text()))
                }
            })
            .collect()
    }
}

/// A row's `when:` conditions as JSON, for telling its table apart from another's.
fn when(row: &Node) -> Option<serde_json::Value> {
    row.get("when").map(Node::to_json)
}

#[cfg(test)]
mod tests {
    use super::super::{Item, overlay_text};
    use super::*;
    use grognard_rules::yaml::{Limits, parse};

    /// A melee chart: rout on 9+, push on 5-8, shaken on 4 or less; and a fire chart whose
    /// rows leave a gap (9+ and 3-) and a row of its own table (`when:`).
    fn root() -> Node {
        let text = b"charts:\n  melee:\n    rows:\n      - { score: \"9+\", result: rout }\n      - { score: \"5-8\", result: push }\n      - { score: \"4-\", result: shaken }\n  fire:\n    rows:\n      - { score: \"9+\", result: hit }\n      - { score: \"3-\", result: miss }\n      - { score: \"8\", result: graze, when: { close: 1 } }\n";
        parse("r.yaml", text, &Limits::default()).expect("yaml")
    }

    /// 9+ → 10+ moves push's top to 9 (5-9); 9+ → 6+ moves it to 5 (5-5). The default
    /// range (6..12) holds no value that would swallow push; asked for 4..12, the tuner
    /// says at 4+ push would have no score and which range keeps the rows in order.
    #[test]
    fn a_rows_neighbours_follow_its_score_and_are_never_swallowed() {
        let r = root();
        let rout = Item::parse("charts.melee.rows.0.score", &r).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rout.values, vec![12, 14, 16, 18, 20, 22, 24]);
        let text = overlay_text(&r, "t", "base.yaml", std::slice::from_ref(&rout), &[20], "");
        assert!(
            text.contains(
                "      - { score: \"10+\", result: rout }\n      - { score: \"5-9\", result: push }\n      - { score: \"4-\", result: shaken }\n"
            ),
            "{text}"
        );
        let text = overlay_text(&r, "t", "base.yaml", std::slice::from_ref(&rout), &[12], "");
        assert!(text.contains("{ score: \"5\", result: push }"), "{text}");
        let err = Item::parse("charts.melee.rows.0.score=4..12", &r).expect_err("4+ swallows push");
        assert_eq!(
            err,
            "at 4+ the row would leave `charts.melee.rows.1` (`5-8`) no score; the rows must stay in order: narrow the range to 6..12"
        );
        // From below: shaken 4- → 6- moves push's bottom to 7; 8- would leave it none.
        let shaken = Item::parse("charts.melee.rows.2.score", &r).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(shaken.values.last(), Some(&14));
        assert_eq!(
            shaken.follow(12),
            Ok(vec![(1, "5-8".to_owned(), "7-8".to_owned())])
        );
    }

    /// Rows that do not touch (a gap the designer left) and rows of another `when:` table
    /// stay as written.
    #[test]
    fn rows_that_do_not_touch_stay_as_written() {
        let r = root();
        let hit = Item::parse("charts.fire.rows.0.score", &r).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(hit.follow(24), Ok(Vec::new()));
        let graze = Item::parse("charts.fire.rows.2.score", &r).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(graze.follow(18), Ok(Vec::new()));
    }

    #[test]
    fn scores_read_and_write_as_rows_write_them() {
        for text in ["7", "8-10", "10+", "3-", "-2-0"] {
            let span = Span::parse(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(span.text(), text);
        }
        assert_eq!(Span::parse("x"), None);
    }
}
