//! Computed amounts: how much an effect adds when the number comes from the roll ("hits
//! equal to the score, halved in cover, rounded up"), and the factors that scale a chart's
//! result (×½, ×2) with the rounding the ruleset names.
//!
//! An [`Amount`] is a typed tree the rules crate builds from the file once; at roll time it
//! is only walked, never parsed. Every division rounds at once, the way a player halves a
//! number at the table, so "halve, then double" and "double, then halve" can differ — the
//! order written is the order applied. [`Amount::explain`] walks the same tree and says
//! each step in words for the log, so the number shown and the number applied cannot
//! disagree.

use core::fmt;

use serde::{Deserialize, Serialize};

/// How a division that does not come out whole is rounded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// Toward minus infinity: 2½ → 2, −2½ → −3.
    #[default]
    Down,
    /// Toward plus infinity: 2½ → 3, −2½ → −2.
    Up,
    /// To the nearest whole number; a half rounds up (2½ → 3, −2½ → −2).
    Nearest,
}

impl Rounding {
    /// `num / den` rounded this way. `den` must be positive (a zero gives `num`).
    ///
    /// ```
    /// use grognard_kernel::amount::Rounding;
    /// assert_eq!(Rounding::Down.divide(5, 2), 2);
    /// assert_eq!(Rounding::Up.divide(5, 2), 3);
    /// assert_eq!(Rounding::Nearest.divide(5, 2), 3);
    /// assert_eq!(Rounding::Nearest.divide(-5, 2), -2);
    /// ```
    #[must_use]
    pub const fn divide(self, num: i64, den: i64) -> i64 {
        if den <= 0 {
            return num;
        }
        match self {
            Self::Down => num.div_euclid(den),
            Self::Up => -(-num).div_euclid(den),
            // floor(x + ½), computed in whole numbers: floor((2·num + den) / 2·den).
            Self::Nearest => (2 * num + den).div_euclid(2 * den),
        }
    }

    /// The word a ruleset writes: `down`, `up`, `nearest`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Down => "down",
            Self::Up => "up",
            Self::Nearest => "nearest",
        }
    }

    /// What the log says when it rounded: `rounded up`.
    #[must_use]
    pub const fn words(self) -> &'static str {
        match self {
            Self::Down => "rounded down",
            Self::Up => "rounded up",
            Self::Nearest => "rounded to the nearest",
        }
    }
}

/// A positive factor that scales a number: ½, 2, 3/2. Both parts are at least 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Factor {
    /// Numerator.
    pub num: u16,
    /// Denominator.
    pub den: u16,
}

impl Factor {
    /// ×½.
    pub const HALF: Self = Self { num: 1, den: 2 };
    /// ×2.
    pub const DOUBLE: Self = Self { num: 2, den: 1 };

    /// True when it scales whole numbers to whole numbers (no rounding needed).
    #[must_use]
    pub const fn is_whole(self) -> bool {
        self.den == 1
    }

    /// `value` scaled and rounded, and whether the rounding changed anything.
    ///
    /// ```
    /// use grognard_kernel::amount::{Factor, Rounding};
    /// assert_eq!(Factor::HALF.apply(5, Rounding::Up), (3, true));
    /// assert_eq!(Factor::HALF.apply(4, Rounding::Up), (2, false));
    /// assert_eq!(Factor::DOUBLE.apply(3, Rounding::Down), (6, false));
    /// ```
    #[must_use]
    pub fn apply(self, value: i32, round: Rounding) -> (i32, bool) {
        let num = i64::from(value) * i64::from(self.num);
        let den = i64::from(self.den.max(1));
        let out = round.divide(num, den);
        (saturate(out), num % den != 0)
    }

    /// The verb the log uses: `halved`, `doubled`, `tripled`, `multiplied by 3/2`.
    #[must_use]
    pub fn verb(self) -> String {
        match (self.num, self.den) {
            (1, 2) => "halved".to_owned(),
            (1, 3) => "divided by 3".to_owned(),
            (2, 1) => "doubled".to_owned(),
            (3, 1) => "tripled".to_owned(),
            (n, 1) => format!("multiplied by {n}"),
            (1, d) => format!("divided by {d}"),
            (n, d) => format!("multiplied by {n}/{d}"),
        }
    }
}

impl fmt::Display for Factor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "×{}", self.num)
        } else {
            write!(f, "×{}/{}", self.num, self.den)
        }
    }
}

fn saturate(v: i64) -> i32 {
    i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX })
}

/// What a roll offers an amount: the dice, the score and the chart's inputs as used.
#[derive(Clone, Copy, Debug)]
pub struct RollValues<'a> {
    /// The dice total before modifiers (the natural roll).
    pub natural: i32,
    /// The score: dice plus modifiers, after any scaling (band charts: the band index).
    pub score: i32,
    /// Each die's value, in the order rolled.
    pub dice: &'a [i32],
    /// Every chart input's value as used (after defaults, clamps and gates).
    pub inputs: &'a [i32],
}

/// An effect's amount: a number, or computed from the roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Amount {
    /// A fixed number.
    Fixed(i32),
    /// The chart's score (dice plus modifiers, scaled as the chart says).
    Score,
    /// The dice total before modifiers.
    Natural,
    /// One die's value (0 = the first die rolled).
    Die(u8),
    /// A chart input's value (by index).
    Input(usize),
    /// A number scaled by a factor and rounded at once.
    Scale(Box<Self>, Factor, Rounding),
    /// The opposite of a number (a rally that takes hits away).
    Negate(Box<Self>),
    /// The sum of numbers.
    Sum(Vec<Self>),
    /// The smallest of numbers ("at most 6").
    Min(Vec<Self>),
    /// The largest of numbers ("at least 1").
    Max(Vec<Self>),
}

/// An amount worked out, with the steps the log shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// The amount.
    pub value: i32,
    /// Each step in words (`halved`, `rounded up`, `+ 1`, `at least 1`); empty when the
    /// amount is the score itself.
    pub steps: Vec<String>,
}

impl Amount {
    /// True when it reads one die by position (the lab then enumerates dice one by one,
    /// rather than their totals).
    #[must_use]
    pub fn reads_dice(&self) -> bool {
        match self {
            Self::Die(_) => true,
            Self::Fixed(_) | Self::Score | Self::Natural | Self::Input(_) => false,
            Self::Scale(a, ..) | Self::Negate(a) => a.reads_dice(),
            Self::Sum(v) | Self::Min(v) | Self::Max(v) => v.iter().any(Self::reads_dice),
        }
    }

    /// True when it needs a roll (anything but a fixed number and inputs).
    #[must_use]
    pub fn reads_roll(&self) -> bool {
        match self {
            Self::Score | Self::Natural | Self::Die(_) => true,
            Self::Fixed(_) | Self::Input(_) => false,
            Self::Scale(a, ..) | Self::Negate(a) => a.reads_roll(),
            Self::Sum(v) | Self::Min(v) | Self::Max(v) => v.iter().any(Self::reads_roll),
        }
    }

    /// The amount for this roll.
    ///
    /// ```
    /// use grognard_kernel::amount::{Amount, Factor, RollValues, Rounding};
    /// let roll = RollValues { natural: 5, score: 5, dice: &[5], inputs: &[] };
    /// let half_up = Amount::Scale(Box::new(Amount::Score), Factor::HALF, Rounding::Up);
    /// assert_eq!(half_up.value(&roll), 3);
    /// ```
    #[must_use]
    pub fn value(&self, r: &RollValues<'_>) -> i32 {
        saturate(self.eval(r, &mut None, &[]))
    }

    /// The amount for this roll with its steps in words; `inputs` names the chart's inputs.
    ///
    /// ```
    /// use grognard_kernel::amount::{Amount, Factor, RollValues, Rounding};
    /// let roll = RollValues { natural: 5, score: 5, dice: &[5], inputs: &[] };
    /// let half_up = Amount::Scale(Box::new(Amount::Score), Factor::HALF, Rounding::Up);
    /// let e = half_up.explain(&roll, &[]);
    /// assert_eq!((e.value, e.steps.join(", ")), (3, "halved, rounded up".to_owned()));
    /// ```
    #[must_use]
    pub fn explain(&self, r: &RollValues<'_>, inputs: &[String]) -> Explained {
        let mut steps = Vec::new();
        let value = saturate(self.eval(r, &mut Some(&mut steps), inputs));
        Explained { value, steps }
    }

    /// A number standing as an operand: `1`, `strength 2`, `score 5`, `die 2 (4)`.
    fn operand(&self, value: i64, r: &RollValues<'_>, inputs: &[String]) -> String {
        match self {
            Self::Fixed(n) => n.to_string(),
            Self::Score => format!("score {}", r.score),
            Self::Natural => format!("natural {}", r.natural),
            Self::Die(i) => format!("die {} ({value})", u16::from(*i) + 1),
            Self::Input(i) => match inputs.get(*i) {
                Some(name) => format!("{name} {value}"),
                None => value.to_string(),
            },
            _ => value.to_string(),
        }
    }

    /// Walks the tree; with `steps`, the first operand of each operation names itself (the
    /// score excepted: the roll already shows it) and each operation says what it did.
    fn eval(
        &self,
        r: &RollValues<'_>,
        steps: &mut Option<&mut Vec<String>>,
        inputs: &[String],
    ) -> i64 {
        let leaf = |v: i64, steps: &mut Option<&mut Vec<String>>| {
            if let Some(s) = steps.as_deref_mut()
                && !matches!(self, Self::Score)
            {
                s.push(self.operand(v, r, inputs));
            }
            v
        };
        match self {
            Self::Fixed(n) => leaf(i64::from(*n), steps),
            Self::Score => leaf(i64::from(r.score), steps),
            Self::Natural => leaf(i64::from(r.natural), steps),
            Self::Die(i) => leaf(
                i64::from(r.dice.get(usize::from(*i)).copied().unwrap_or(0)),
                steps,
            ),
            Self::Input(i) => leaf(i64::from(r.inputs.get(*i).copied().unwrap_or(0)), steps),
            Self::Scale(a, factor, round) => {
                let v = saturate(a.eval(r, steps, inputs));
                let (out, rounded) = factor.apply(v, *round);
                if let Some(s) = steps.as_deref_mut() {
                    s.push(factor.verb());
                    if rounded {
                        s.push(round.words().to_owned());
                    }
                }
                i64::from(out)
            }
            Self::Negate(a) => {
                let v = a.eval(r, steps, inputs);
                if let Some(s) = steps.as_deref_mut() {
                    s.push("negated".to_owned());
                }
                -v
            }
            Self::Sum(parts) | Self::Min(parts) | Self::Max(parts) => {
                let Some((first, rest)) = parts.split_first() else {
                    return 0;
                };
                let mut acc = first.eval(r, steps, inputs);
                for part in rest {
                    let v = part.eval(r, &mut None, inputs);
                    let (next, word) = match self {
                        Self::Sum(_) => (acc.saturating_add(v), if v < 0 { "-" } else { "+" }),
                        Self::Min(_) => (acc.min(v), "at most"),
                        _ => (acc.max(v), "at least"),
                    };
                    // A cap that did not bite is not worth a word in the log.
                    let said = matches!(self, Self::Sum(_)) || next != acc;
                    if let Some(s) = steps.as_deref_mut()
                        && said
                    {
                        s.push(match (self, part) {
                            // A number reads as a signed term (`-6`); a named one as
                            // `+ strength 2`.
                            (Self::Sum(_), Self::Fixed(n)) => format!("{word}{}", n.unsigned_abs()),
                            _ => format!("{word} {}", part.operand(v, r, inputs)),
                        });
                    }
                    acc = next;
                }
                acc
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll(score: i32) -> RollValues<'static> {
        RollValues {
            natural: score,
            score,
            dice: &[],
            inputs: &[],
        }
    }

    fn half(a: Amount, round: Rounding) -> Amount {
        Amount::Scale(Box::new(a), Factor::HALF, round)
    }

    fn double(a: Amount) -> Amount {
        Amount::Scale(Box::new(a), Factor::DOUBLE, Rounding::Down)
    }

    /// Worked by hand: d6 = 5 halved is 2½, which rounds up to 3, down to 2, and to the
    /// nearest 3 (a half rounds up). 4 halved is 2 whatever the rounding, and says nothing
    /// of rounding.
    #[test]
    fn five_halved_rounds_three_ways() {
        assert_eq!(half(Amount::Score, Rounding::Up).value(&roll(5)), 3);
        assert_eq!(half(Amount::Score, Rounding::Down).value(&roll(5)), 2);
        assert_eq!(half(Amount::Score, Rounding::Nearest).value(&roll(5)), 3);
        for r in [Rounding::Up, Rounding::Down, Rounding::Nearest] {
            let e = half(Amount::Score, r).explain(&roll(4), &[]);
            assert_eq!((e.value, e.steps), (2, vec!["halved".to_owned()]));
        }
        let e = half(Amount::Score, Rounding::Up).explain(&roll(5), &[]);
        assert_eq!(e.steps, ["halved", "rounded up"]);
    }

    /// Nearest: 1½ → 2, 2½ → 3 (halves up, not to even), −2½ → −2, 7/3 → 2, 8/3 → 3.
    #[test]
    fn nearest_rounds_halves_up() {
        let n = Rounding::Nearest;
        assert_eq!(
            [n.divide(3, 2), n.divide(5, 2), n.divide(-5, 2)],
            [2, 3, -2]
        );
        assert_eq!([n.divide(7, 3), n.divide(8, 3)], [2, 3]);
        assert_eq!(
            [Rounding::Up.divide(-5, 2), Rounding::Down.divide(-5, 2)],
            [-2, -3]
        );
    }

    /// The order written is the order applied: 5 halved (up) is 3, doubled 6; 5 doubled is
    /// 10, halved 5. Rounded down: 5 → 2 → 4 against 5 → 10 → 5.
    #[test]
    fn doubling_then_halving_differs_from_halving_then_doubling() {
        let up = Rounding::Up;
        assert_eq!(double(half(Amount::Score, up)).value(&roll(5)), 6);
        assert_eq!(half(double(Amount::Score), up).value(&roll(5)), 5);
        let down = Rounding::Down;
        assert_eq!(double(half(Amount::Score, down)).value(&roll(5)), 4);
        assert_eq!(half(double(Amount::Score), down).value(&roll(5)), 5);
        let e = double(half(Amount::Score, up)).explain(&roll(5), &[]);
        assert_eq!(e.steps, ["halved", "rounded up", "doubled"]);
    }

    #[test]
    fn sums_caps_and_operands_are_explained() {
        let names = ["strength".to_owned()];
        let r = RollValues {
            natural: 7,
            score: 8,
            dice: &[3, 4],
            inputs: &[2],
        };
        let sum = Amount::Sum(vec![Amount::Score, Amount::Input(0), Amount::Fixed(-1)]);
        let e = sum.explain(&r, &names);
        assert_eq!(
            (e.value, e.steps.join(", ")),
            (9, "+ strength 2, -1".to_owned())
        );
        // A floor that bites is said; a ceiling that does not is not.
        let capped = Amount::Min(vec![
            Amount::Max(vec![half(Amount::Die(0), Rounding::Down), Amount::Fixed(2)]),
            Amount::Fixed(6),
        ]);
        let e = capped.explain(&r, &names);
        assert_eq!(
            (e.value, e.steps.join(", ")),
            (2, "die 1 (3), halved, rounded down, at least 2".to_owned())
        );
        assert!(capped.reads_dice() && capped.reads_roll());
        assert!(!Amount::Input(0).reads_roll());
        let neg = Amount::Negate(Box::new(Amount::Natural));
        let e = neg.explain(&r, &names);
        assert_eq!(
            (e.value, e.steps.join(", ")),
            (-7, "natural 7, negated".to_owned())
        );
    }

    #[test]
    fn factors_name_themselves_and_never_divide_by_zero() {
        let third = Factor { num: 1, den: 3 };
        assert_eq!(third.apply(7, Rounding::Nearest), (2, true));
        assert_eq!(Factor { num: 3, den: 2 }.verb(), "multiplied by 3/2");
        assert_eq!(Factor::HALF.to_string(), "×1/2");
        assert_eq!(Rounding::Up.divide(5, 0), 5);
        assert_eq!(Factor::DOUBLE.apply(i32::MAX, Rounding::Down).0, i32::MAX);
    }
}
