//! Compiles an effect's `amount:` (see `model::amount`) into the kernel's typed
//! [`Amount`]: names resolved against the action's chart (its inputs, how many dice it
//! rolls, whether it has a score), each halving given its rounding (the amount's nearest
//! `round:`, else the chart's), and every problem reported at its line and column.

use grognard_kernel::amount::{Amount, Factor, Rounding};

use crate::cx::Cx;
use crate::de::Located;
use crate::diag::Location;
use crate::model::AmountOp;
use crate::model::amount::AmountSpec;
use crate::suggest::did_you_mean;

/// What an amount may read: the chart the action rolls, if any.
pub(crate) struct AmountScope<'a> {
    /// The chart's name; `None` for an action without a chart or a counter trigger.
    pub chart: Option<&'a str>,
    /// Where the amount is written, in words, for messages without a chart ("a counter
    /// trigger", "action `rally`").
    pub place: &'a str,
    /// The chart's input names, in order.
    pub inputs: &'a [&'a str],
    /// How many dice the chart rolls.
    pub dice: usize,
    /// False for band charts, whose "score" is a band index.
    pub score_chart: bool,
    /// The chart's `round:`.
    pub round: Option<Rounding>,
}

/// The kernel's amount for `spec`, or `None` after reporting why not. A plain number
/// compiles to [`Amount::Fixed`] anywhere.
pub(crate) fn compile_amount(
    cx: &mut Cx,
    spec: &Located<AmountSpec>,
    scope: &AmountScope<'_>,
) -> Option<Amount> {
    walk(cx, spec, scope, scope.round)
}

fn walk(
    cx: &mut Cx,
    spec: &Located<AmountSpec>,
    scope: &AmountScope<'_>,
    round: Option<Rounding>,
) -> Option<Amount> {
    let at = &spec.location;
    match &spec.value {
        AmountSpec::Number(n) => Some(Amount::Fixed(*n)),
        AmountSpec::Word(word) => word_amount(cx, word, at, scope),
        AmountSpec::Op {
            op,
            args,
            round: own,
        } => {
            let round = own.map(Rounding::from).or(round);
            let parts: Vec<Option<Amount>> =
                args.iter().map(|a| walk(cx, a, scope, round)).collect();
            let parts: Vec<Amount> = parts.into_iter().collect::<Option<_>>()?;
            let one = || Box::new(parts.first().cloned().unwrap_or(Amount::Fixed(0)));
            match op {
                AmountOp::Half => {
                    let Some(round) = round else {
                        let chart = scope
                            .chart
                            .map_or_else(String::new, |c| format!(", or `round:` to chart `{c}`"));
                        cx.error(
                            at,
                            format!(
                                "`half` needs a rounding: add `round: down`, `round: up` or `round: nearest` to this amount{chart}"
                            ),
                        );
                        return None;
                    };
                    Some(Amount::Scale(one(), Factor::HALF, round))
                }
                AmountOp::Double => Some(Amount::Scale(one(), Factor::DOUBLE, Rounding::Down)),
                AmountOp::Negate => Some(Amount::Negate(one())),
                AmountOp::Sum => Some(Amount::Sum(parts)),
                AmountOp::Min => Some(Amount::Min(parts)),
                AmountOp::Max => Some(Amount::Max(parts)),
            }
        }
    }
}

fn word_amount(cx: &mut Cx, word: &str, at: &Location, scope: &AmountScope<'_>) -> Option<Amount> {
    let Some(chart) = scope.chart else {
        cx.error(
            at,
            format!(
                "`amount: {word}` needs a roll, and {} has none: write a whole number",
                scope.place
            ),
        );
        return None;
    };
    let rolled = |cx: &mut Cx, what: &str| {
        if !scope.score_chart {
            cx.error(
                at,
                format!(
                    "`{what}` needs a score chart; chart `{chart}` is a band chart (an amount there may read its inputs)"
                ),
            );
        }
        scope.score_chart
    };
    match word {
        "score" => return rolled(cx, "score").then_some(Amount::Score),
        "natural" => return rolled(cx, "natural").then_some(Amount::Natural),
        _ => {}
    }
    if let Some(n) = word.strip_prefix("die") {
        let n = n.trim();
        if !n.is_empty() || word == "die" {
            if !rolled(cx, "die") {
                return None;
            }
            return match n.parse::<usize>() {
                Ok(i) if (1..=scope.dice).contains(&i) => Some(Amount::Die((i - 1) as u8)),
                _ => {
                    cx.error(
                        at,
                        format!(
                            "`{word}`: expected `die N` with N from 1 to {}, the dice chart `{chart}` rolls",
                            scope.dice
                        ),
                    );
                    None
                }
            };
        }
    }
    if let Some(i) = scope.inputs.iter().position(|i| *i == word) {
        return Some(Amount::Input(i));
    }
    let mut known = vec!["score", "natural"];
    known.extend(scope.inputs.iter().copied());
    let help = did_you_mean(word, known.iter().copied())
        .map(|s| format!("did you mean `{s}`?"))
        .or_else(|| {
            (!scope.inputs.is_empty())
                .then(|| format!("chart `{chart}`'s inputs: {}", scope.inputs.join(", ")))
        });
    cx.error_help(
        at,
        format!(
            "unknown amount `{word}`; expected a whole number, `score`, `natural`, `die N` or an input of chart `{chart}`"
        ),
        help,
    );
    None
}

/// A multiplying modifier's `times:` (`1/2`, `½`, `2`, `3/2`, `1.5`) as a factor in lowest
/// terms, or `None` after reporting why not. Factors are positive: a modifier that takes
/// the result away is `per:`'s business, not a multiplier's.
pub(crate) fn factor(cx: &mut Cx, text: &Located<crate::model::Text>) -> Option<Factor> {
    let written = text.value.trim();
    let parsed: Option<(u64, u64)> = match written.split_once('/') {
        Some((a, b)) if !a.contains(' ') => a.trim().parse().ok().zip(b.trim().parse().ok()),
        _ => crate::number::parse_cost(written)
            .ok()
            .and_then(|c| u64::try_from(c.hundredths()).ok())
            .map(|h| (h, 100)),
    };
    let reduced = parsed.filter(|(n, d)| *n > 0 && *d > 0).and_then(|(n, d)| {
        let g = gcd(n, d);
        Some(Factor {
            num: u16::try_from(n / g).ok()?,
            den: u16::try_from(d / g).ok()?,
        })
    });
    if reduced.is_none() {
        cx.error(
            &text.location,
            format!(
                "`times: {written}`: expected a positive factor such as `1/2`, `½`, `2` or `3/2`"
            ),
        );
    }
    reduced
}

const fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl<'a> AmountScope<'a> {
    /// No roll to read: a counter trigger, an action without a chart.
    pub(crate) const fn none(place: &'a str) -> Self {
        Self {
            chart: None,
            place,
            inputs: &[],
            dice: 0,
            score_chart: false,
            round: None,
        }
    }

    /// The roll of `chart`, whose input names are `inputs`.
    pub(crate) fn of_chart(
        chart: &'a grognard_kernel::chart::ChartDef,
        inputs: &'a [&'a str],
        place: &'a str,
    ) -> Self {
        Self {
            chart: Some(&chart.name),
            place,
            inputs,
            dice: chart.dice.terms.iter().map(|t| usize::from(t.count)).sum(),
            score_chart: matches!(chart.lookup, grognard_kernel::chart::Lookup::Score { .. }),
            round: chart.round,
        }
    }
}
