//! The chart lab's arithmetic: a chart's exact odds for given inputs (with the inputs and
//! modifiers that produced them), the change between two odds, and `--set` value ranges.
//!
//! The odds themselves come from [`ChartDef::odds`] in the kernel, which enumerates every
//! face and re-roll beside the code that rolls them; this module only arranges them.

use core::fmt;

use grognard_kernel::Ratio;
use grognard_kernel::chart::{AppliedModifier, ChartDef, Lookup};
use grognard_kernel::dice::DieDef;

/// Most values one `--set NAME=A..B` range may name.
pub const MAX_RANGE: usize = 201;

/// One case of a chart: the inputs as used, what they added, and the exact odds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartCase {
    /// Every input's value after defaults and clamping, in the chart's input order.
    pub inputs: Vec<i32>,
    /// The non-zero modifiers (and group caps) that applied.
    pub modifiers: Vec<AppliedModifier>,
    /// Their total after caps.
    pub modifier_total: i32,
    /// Band charts: the band used (index and name).
    pub band: Option<(usize, String)>,
    /// Probability of each outcome, in the chart's outcome order.
    pub odds: Vec<Ratio>,
}

impl ChartCase {
    /// True when the odds add up to exactly 1. They always do, unless the enumeration
    /// outgrew the kernel's 128-bit fractions (dozens of d100s), whose arithmetic
    /// saturates: such odds are wrong and must not be shown.
    #[must_use]
    pub fn is_exact(&self) -> bool {
        self.odds.iter().fold(Ratio::ZERO, |a, b| a + *b) == Ratio::ONE
    }
}

/// The exact odds of `chart` with the inputs `set` (by input index; the rest take their
/// defaults; values are clamped into each input's range as in play).
///
/// # Example
/// ```
/// use grognard_kernel::chart::{ChartDef, Lookup, ScoreRow};
/// use grognard_kernel::dice::{DiceExpr, DiceTerm, DieDef};
/// use grognard_kernel::{ids::DieId, Ratio};
/// use grognard_rules::odds::chart_case;
/// let chart = ChartDef {
///     name: "test".into(),
///     dice: DiceExpr { terms: vec![DiceTerm { count: 1, die: DieId(0) }] },
///     inputs: vec![], modifiers: vec![], groups: vec![], rerolls: vec![],
///     lookup: Lookup::Score {
///         rows: vec![ScoreRow { min: Some(5), max: None, when: vec![], natural: None, outcome: 1 }],
///         default: 0,
///     },
///     outcomes: vec!["fail".into(), "pass".into()],
///     secret: false, scales: vec![], round: None, constant: 0,
/// };
/// let case = chart_case(&chart, &[DieDef::numeric("d6", 6)], &[]);
/// assert_eq!(case.odds, vec![Ratio::new(2, 3), Ratio::new(1, 3)]);
/// ```
#[must_use]
pub fn chart_case(chart: &ChartDef, dice: &[DieDef], set: &[(usize, i32)]) -> ChartCase {
    let inputs = chart.input_values(set);
    let (modifiers, modifier_total) = chart.modifiers_for(&inputs);
    let band = match &chart.lookup {
        Lookup::Band { base, rows } => {
            let base_value = inputs.get(*base).copied().unwrap_or(0);
            let index = ChartDef::band_index(rows, base_value, modifier_total);
            rows.get(index).map(|r| (index, r.name.clone()))
        }
        Lookup::Score { .. } => None,
    };
    let odds = chart.odds(dice, &inputs);
    ChartCase {
        inputs,
        modifiers,
        modifier_total,
        band,
        odds,
    }
}

/// A signed change between two probabilities, kept exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delta {
    /// True when the odds went down.
    pub negative: bool,
    /// Size of the change.
    pub magnitude: Ratio,
}

impl Delta {
    /// The change from `from` to `to`.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::Ratio;
    /// use grognard_rules::odds::Delta;
    /// let d = Delta::between(Ratio::new(5, 12), Ratio::new(1, 2));
    /// assert_eq!(d.to_string(), "+1/12");
    /// assert_eq!(format!("{:.2}", d.points()), "8.33");
    /// assert_eq!(Delta::between(Ratio::new(1, 2), Ratio::new(1, 3)).to_string(), "-1/6");
    /// ```
    #[must_use]
    pub fn between(from: Ratio, to: Ratio) -> Self {
        let a = from.numer().saturating_mul(to.denom());
        let b = to.numer().saturating_mul(from.denom());
        let den = from.denom().saturating_mul(to.denom());
        Self {
            negative: b < a,
            magnitude: Ratio::new(a.abs_diff(b), den),
        }
    }

    /// The change in percentage points.
    #[must_use]
    pub fn points(self) -> f64 {
        let p = self.magnitude.to_f64() * 100.0;
        if self.negative { -p } else { p }
    }
}

impl fmt::Display for Delta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.magnitude.is_zero() {
            f.write_str("0")
        } else if self.negative {
            write!(f, "-{}", self.magnitude)
        } else {
            write!(f, "+{}", self.magnitude)
        }
    }
}

/// A probability as a percentage, for display.
#[must_use]
pub fn percent(p: Ratio) -> f64 {
    p.to_f64() * 100.0
}

/// The values a `--set` value names: one whole number (`2`, `-1`, `+1`, `−1` with a
/// Unicode minus) or an inclusive range `A..B` (`-3..3`). `on`/`true`/`yes` are 1 and
/// `off`/`false`/`no` are 0, as for `grognard roll`.
///
/// # Errors
/// A message when the text is neither, the range is backwards, or it names more than
/// [`MAX_RANGE`] values.
///
/// # Example
/// ```
/// use grognard_rules::odds::parse_values;
/// assert_eq!(parse_values("-1..2"), Ok(vec![-1, 0, 1, 2]));
/// assert_eq!(parse_values("on"), Ok(vec![1]));
/// assert!(parse_values("3..1").is_err());
/// ```
pub fn parse_values(text: &str) -> Result<Vec<i32>, String> {
    let one = |t: &str| -> Result<i32, String> {
        let t = t.trim();
        match t {
            "on" | "true" | "yes" => return Ok(1),
            "off" | "false" | "no" => return Ok(0),
            _ => {}
        }
        let normal = t.replace('\u{2212}', "-");
        let normal = normal.strip_prefix('+').unwrap_or(&normal);
        normal
            .parse::<i32>()
            .map_err(|_| format!("`{t}` is not a whole number"))
    };
    match text.split_once("..") {
        None => one(text).map(|v| vec![v]),
        Some((a, b)) => {
            let (a, b) = (one(a)?, one(b)?);
            if b < a {
                return Err(format!("the range {a}..{b} is backwards; write {b}..{a}"));
            }
            let count = i64::from(b) - i64::from(a) + 1;
            if count > MAX_RANGE as i64 {
                return Err(format!(
                    "the range {a}..{b} has {count} values; at most {MAX_RANGE} are allowed"
                ));
            }
            Ok((a..=b).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_are_exact_and_signed() {
        let d = Delta::between(Ratio::new(7, 12), Ratio::new(1, 2));
        assert!(d.negative);
        assert_eq!(d.magnitude, Ratio::new(1, 12));
        assert_eq!(Delta::between(Ratio::ONE, Ratio::ONE).to_string(), "0");
        assert_eq!(Delta::between(Ratio::ZERO, Ratio::ONE).to_string(), "+1");
    }

    /// The lab's source charts (`tests/fixtures/lab/sources.yaml` at the workspace root),
    /// through the library: the d10 Scout Fate table at 4-5 squares with its headquarters
    /// in transit needs d10 + 2 ≥ 10, i.e. 8, 9 or 10: 3/10; and the cube's Code band with
    /// one combat penalty shifts to Code'n Color, the red star: 1/6.
    #[test]
    fn source_charts_through_the_library() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/lab/sources.yaml");
        let r = crate::load::load_ruleset(&path).expect("fixture loads");
        let chart = |name: &str| {
            r.rules
                .charts
                .iter()
                .find(|c| c.name == name)
                .expect("chart")
        };
        let fate = chart("scout_fate");
        let case = chart_case(fate, &r.rules.dice, &[(0, 1), (1, 1)]);
        assert_eq!(case.odds, vec![Ratio::new(3, 10), Ratio::new(7, 10)]);
        assert_eq!(case.modifier_total, 2);
        assert!(case.is_exact());
        let fire = chart("cube_fire");
        let case = chart_case(fire, &r.rules.dice, &[(0, 2), (1, 1)]);
        assert_eq!(case.band, Some((3, "Code'n Color".to_owned())));
        assert_eq!(case.odds[0], Ratio::new(1, 6));
    }

    #[test]
    fn values_and_ranges() {
        assert_eq!(parse_values("\u{2212}3..+3").map(|v| v.len()), Ok(7));
        assert_eq!(parse_values(" 4 "), Ok(vec![4]));
        assert!(parse_values("x").is_err());
        assert!(parse_values("0..5000").is_err());
        assert_eq!(parse_values("-100..100").map(|v| v.len()), Ok(MAX_RANGE));
        assert!(parse_values("1..").is_err());
    }
}
