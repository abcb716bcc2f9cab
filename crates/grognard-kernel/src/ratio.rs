//! Exact probabilities.

use core::fmt;
use core::ops::{Add, Mul};

use serde::{Deserialize, Serialize};

/// A non-negative exact fraction, always kept in lowest terms.
///
/// Arithmetic is checked: a result that would not fit in 128 bits is [`Ratio::OVERFLOW`],
/// which stays overflowed through further arithmetic, prints as `overflow` and converts to
/// NaN — odds that cannot be computed exactly are never shown as a plausible wrong number.
///
/// # Example
/// ```
/// use grognard_kernel::Ratio;
/// let half = Ratio::new(3, 6);
/// assert_eq!(half, Ratio::new(1, 2));
/// assert_eq!(half + Ratio::new(1, 3), Ratio::new(5, 6));
/// assert_eq!(half.to_string(), "1/2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ratio {
    num: u128,
    den: u128,
}

const fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Ratio {
    /// Zero.
    pub const ZERO: Self = Self { num: 0, den: 1 };
    /// One.
    pub const ONE: Self = Self { num: 1, den: 1 };
    /// The result of arithmetic that outgrew 128 bits.
    pub const OVERFLOW: Self = Self { num: 1, den: 0 };

    /// False for [`Ratio::OVERFLOW`].
    #[must_use]
    pub const fn is_exact(self) -> bool {
        self.den != 0
    }

    /// `num / den` in lowest terms; a zero denominator gives zero (never panics).
    #[must_use]
    pub const fn new(num: u128, den: u128) -> Self {
        if den == 0 || num == 0 {
            return Self::ZERO;
        }
        let g = gcd(num, den);
        Self {
            num: num / g,
            den: den / g,
        }
    }

    /// Numerator in lowest terms.
    #[must_use]
    pub const fn numer(self) -> u128 {
        self.num
    }

    /// Denominator in lowest terms.
    #[must_use]
    pub const fn denom(self) -> u128 {
        self.den
    }

    /// The nearest `f64`, for display only (NaN after an overflow).
    #[must_use]
    pub fn to_f64(self) -> f64 {
        if self.den == 0 {
            return f64::NAN;
        }
        self.num as f64 / self.den as f64
    }

    /// True when zero.
    #[must_use]
    pub const fn is_zero(self) -> bool {
        self.num == 0
    }

    /// `1 - self`, saturating at zero.
    #[must_use]
    pub fn complement(self) -> Self {
        if self.den == 0 {
            return Self::OVERFLOW;
        }
        if self.num >= self.den {
            Self::ZERO
        } else {
            Self::new(self.den - self.num, self.den)
        }
    }
}

impl Add for Ratio {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        if !self.is_exact() || !rhs.is_exact() {
            return Self::OVERFLOW;
        }
        let g = gcd(self.den, rhs.den);
        let sum = (|| {
            let den = (self.den / g).checked_mul(rhs.den)?;
            let num = self
                .num
                .checked_mul(rhs.den / g)?
                .checked_add(rhs.num.checked_mul(self.den / g)?)?;
            Some(Self::new(num, den))
        })();
        sum.unwrap_or(Self::OVERFLOW)
    }
}

impl Mul for Ratio {
    type Output = Self;
    fn mul(self, rhs: Self) -> Self {
        if !self.is_exact() || !rhs.is_exact() {
            return Self::OVERFLOW;
        }
        let a = Self::new(self.num, rhs.den);
        let b = Self::new(rhs.num, self.den);
        match (a.num.checked_mul(b.num), a.den.checked_mul(b.den)) {
            (Some(num), Some(den)) => Self::new(num, den),
            _ => Self::OVERFLOW,
        }
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 0 {
            f.write_str("overflow")
        } else if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_and_products_stay_reduced() {
        let sixth = Ratio::new(1, 6);
        let mut total = Ratio::ZERO;
        for _ in 0..6 {
            total = total + sixth;
        }
        assert_eq!(total, Ratio::ONE);
        assert_eq!(sixth * sixth, Ratio::new(1, 36));
        assert_eq!(Ratio::new(1, 4).complement(), Ratio::new(3, 4));
        assert_eq!(Ratio::new(5, 0), Ratio::ZERO);
    }

    #[test]
    fn overflow_is_never_a_plausible_number() {
        // 100^20 outgrows 128 bits: the twentieth factor of 1/100 overflows.
        let mut p = Ratio::ONE;
        for _ in 0..20 {
            p = p * Ratio::new(1, 100);
        }
        assert_eq!(p, Ratio::OVERFLOW);
        assert!(!p.is_exact());
        assert!((p + Ratio::ONE).to_f64().is_nan());
        assert_eq!((p * Ratio::ZERO).to_string(), "overflow");
        assert_eq!(p.complement(), Ratio::OVERFLOW);
    }
}
