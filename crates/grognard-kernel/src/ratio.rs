//! Exact probabilities.

use core::fmt;
use core::ops::{Add, Mul};

use serde::{Deserialize, Serialize};

/// A non-negative exact fraction, always kept in lowest terms.
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

    /// The nearest `f64`, for display only.
    #[must_use]
    pub fn to_f64(self) -> f64 {
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
        let g = gcd(self.den, rhs.den);
        let den = (self.den / g).saturating_mul(rhs.den);
        let num = self
            .num
            .saturating_mul(rhs.den / g)
            .saturating_add(rhs.num.saturating_mul(self.den / g));
        Self::new(num, den)
    }
}

impl Mul for Ratio {
    type Output = Self;
    fn mul(self, rhs: Self) -> Self {
        let a = Self::new(self.num, rhs.den);
        let b = Self::new(rhs.num, self.den);
        Self::new(a.num.saturating_mul(b.num), a.den.saturating_mul(b.den))
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
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
}
