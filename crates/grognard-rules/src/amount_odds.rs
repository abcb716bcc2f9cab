//! The chart lab's numbers for computed amounts: for each action that rolls a chart and
//! adds a computed amount to a counter, the exact distribution of what it adds and its
//! mean, as exact fractions; and the signed change between two means.
//!
//! The rolls come from [`grognard_kernel::chart::ChartDef::roll_points`] in the kernel, enumerated like
//! `ChartDef::odds`, and each amount is worked out by the same [`Amount::value`] a game
//! applies, so the lab and play cannot disagree.

use core::fmt;
use std::collections::BTreeMap;

use grognard_kernel::Ratio;
use grognard_kernel::amount::{Amount, RollValues};
use grognard_kernel::chart::RollPoint;
use grognard_kernel::ids::{ChartId, CounterId};
use grognard_kernel::rules::{Effect, Rules, Who};

/// What one action adds to one counter, over every roll of its chart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmountOdds {
    /// The action.
    pub action: String,
    /// The counter.
    pub counter: String,
    /// `target` or `actor`.
    pub to: &'static str,
    /// Each amount with its exact probability, smallest first. A roll whose outcome adds
    /// nothing to the counter counts as 0.
    pub odds: Vec<(i32, Ratio)>,
    /// The mean.
    pub mean: Signed,
}

impl AmountOdds {
    /// A name for the amount: `hits` (the action's name added when two actions of the chart
    /// add to the same counter is the caller's choice).
    #[must_use]
    pub fn label(&self) -> String {
        format!("{} ({} {})", self.counter, self.action, self.to)
    }

    /// True when the probabilities add up to exactly 1 (they do, unless the enumeration
    /// outgrew 128-bit fractions).
    #[must_use]
    pub fn is_exact(&self) -> bool {
        self.odds.iter().fold(Ratio::ZERO, |a, (_, p)| a + *p) == Ratio::ONE
    }
}

/// An exact signed fraction: a mean, or the change between two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signed {
    /// True when below zero.
    pub negative: bool,
    /// Its size.
    pub magnitude: Ratio,
}

impl Signed {
    /// `plus − minus`, exactly.
    ///
    /// ```
    /// use grognard_kernel::Ratio;
    /// use grognard_rules::amount_odds::Signed;
    /// let s = Signed::difference(Ratio::new(1, 2), Ratio::new(5, 6));
    /// assert_eq!(s.to_string(), "-1/3");
    /// ```
    #[must_use]
    pub fn difference(plus: Ratio, minus: Ratio) -> Self {
        if !plus.is_exact() || !minus.is_exact() {
            return Self {
                negative: false,
                magnitude: Ratio::OVERFLOW,
            };
        }
        let a = plus.numer().checked_mul(minus.denom());
        let b = minus.numer().checked_mul(plus.denom());
        let den = plus.denom().checked_mul(minus.denom());
        match (a, b, den) {
            (Some(a), Some(b), Some(den)) => Self {
                negative: a < b,
                magnitude: Ratio::new(a.abs_diff(b), den),
            },
            _ => Self {
                negative: false,
                magnitude: Ratio::OVERFLOW,
            },
        }
    }

    /// The change from `self` to `other`.
    #[must_use]
    pub fn change_to(self, other: Self) -> Self {
        let (plus, minus) = match (self.negative, other.negative) {
            // other − self, with each side's sign moved across.
            (false, false) => (other.magnitude, self.magnitude),
            (true, true) => (self.magnitude, other.magnitude),
            (false, true) => (Ratio::ZERO, other.magnitude + self.magnitude),
            (true, false) => (other.magnitude + self.magnitude, Ratio::ZERO),
        };
        Self::difference(plus, minus)
    }

    /// As a float, for display beside the fraction.
    #[must_use]
    pub fn to_f64(self) -> f64 {
        let v = self.magnitude.to_f64();
        if self.negative { -v } else { v }
    }

    /// With a sign always shown (`+1/3`, `-1/6`, `0`): for changes.
    #[must_use]
    pub fn signed(self) -> String {
        if self.magnitude.is_zero() || self.negative {
            self.to_string()
        } else {
            format!("+{self}")
        }
    }
}

impl fmt::Display for Signed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative && !self.magnitude.is_zero() {
            write!(f, "-{}", self.magnitude)
        } else {
            write!(f, "{}", self.magnitude)
        }
    }
}

/// Every amount of the actions that roll chart `id` and compute one, with `inputs` (as
/// `ChartDef::input_values` gives them): one entry per action and counter (the actor's or
/// the target's) some outcome adds to, computed or fixed, in the ruleset's order. `None` when the chart's dice are too
/// many to enumerate one by one and an amount reads a single die.
#[must_use]
pub fn amount_odds(rules: &Rules, id: ChartId, inputs: &[i32]) -> Option<Vec<AmountOdds>> {
    let chart = rules.chart(id)?;
    let mut out = Vec::new();
    for action in rules.actions.iter().filter(|a| a.chart == Some(id)) {
        let mut keys: Vec<(Who, CounterId)> = Vec::new();
        let mut by_die = false;
        let mut computes = false;
        // Every counter some outcome adds to, fixed or computed: a melee whose rout hurts
        // the target by the score and whose repulse costs the attacker 1 hit shows both.
        for e in action.effects.iter().flatten() {
            let key = match e {
                Effect::AddComputed {
                    who,
                    counter,
                    amount,
                } => {
                    by_die |= amount.reads_dice();
                    computes = true;
                    (*who, *counter)
                }
                Effect::AddCounter { who, counter, .. } => (*who, *counter),
                _ => continue,
            };
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        if !computes {
            continue;
        }
        let points = chart.roll_points(&rules.dice, inputs, by_die)?;
        for (who, counter) in keys {
            let odds = distribution(&points, &action.effects, (who, counter), inputs);
            out.push(AmountOdds {
                action: action.name.clone(),
                counter: rules.counter_name(counter).to_owned(),
                to: match who {
                    Who::Actor => "actor",
                    Who::Target => "target",
                },
                mean: mean(&odds),
                odds,
            });
        }
    }
    Some(out)
}

/// What an outcome's effects add to one counter for one roll (fixed and computed alike).
fn added(effects: &[Effect], key: (Who, CounterId), roll: &RollValues<'_>) -> i32 {
    effects
        .iter()
        .map(|e| match e {
            Effect::AddCounter {
                who,
                counter,
                amount,
            } if (*who, *counter) == key => *amount,
            Effect::AddComputed {
                who,
                counter,
                amount,
            } if (*who, *counter) == key => Amount::value(amount, roll),
            _ => 0,
        })
        .fold(0i32, i32::saturating_add)
}

fn distribution(
    points: &[RollPoint],
    effects: &[Vec<Effect>],
    key: (Who, CounterId),
    inputs: &[i32],
) -> Vec<(i32, Ratio)> {
    let mut odds: BTreeMap<i32, Ratio> = BTreeMap::new();
    for point in points {
        let roll = RollValues {
            natural: point.natural,
            score: point.score,
            dice: &point.dice,
            inputs,
        };
        let amount = effects
            .get(point.outcome)
            .map_or(0, |e| added(e, key, &roll));
        let slot = odds.entry(amount).or_insert(Ratio::ZERO);
        *slot = *slot + point.p;
    }
    odds.into_iter().filter(|(_, p)| !p.is_zero()).collect()
}

/// The exact mean of a distribution.
#[must_use]
pub fn mean(odds: &[(i32, Ratio)]) -> Signed {
    let (mut plus, mut minus) = (Ratio::ZERO, Ratio::ZERO);
    for (v, p) in odds {
        let term = Ratio::new(u128::from(v.unsigned_abs()), 1) * *p;
        if *v < 0 {
            minus = minus + term;
        } else {
            plus = plus + term;
        }
    }
    Signed::difference(plus, minus)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_and_changes_are_exact_and_signed() {
        let d6: Vec<(i32, Ratio)> = (1..=6).map(|v| (v, Ratio::new(1, 6))).collect();
        assert_eq!(mean(&d6).to_string(), "7/2");
        let rally = [(-2, Ratio::new(1, 2)), (1, Ratio::new(1, 2))];
        let m = mean(&rally);
        assert_eq!(
            (m.to_string(), m.signed()),
            ("-1/2".to_owned(), "-1/2".to_owned())
        );
        assert_eq!(mean(&d6).change_to(m).signed(), "-4");
        assert_eq!(m.change_to(mean(&d6)).signed(), "+4");
        assert_eq!(mean(&d6).change_to(mean(&d6)).signed(), "0");
        let three = Signed::difference(Ratio::new(3, 1), Ratio::ZERO);
        assert_eq!(three.change_to(mean(&d6)).signed(), "+1/2");
    }
}
