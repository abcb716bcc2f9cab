//! Fixed-point movement and distance costs.
//!
//! Rules talk in halves and quarters ("1½ mp", "+½ mp") and, on an open table, in inches.
//! Comparing floats for equality would make "can I afford this square?" depend on rounding,
//! so every cost is an integer count of hundredths.

use core::fmt;
use core::ops::{Add, AddAssign, Neg, Sub, SubAssign};

use serde::{Deserialize, Serialize};

/// A movement cost or allowance in hundredths of a movement point (or of an inch on an open
/// table).
///
/// # Example
/// ```
/// use grognard_kernel::Cost;
/// let diagonal = Cost::ONE + Cost::HALF;
/// assert_eq!(diagonal, Cost::from_hundredths(150));
/// assert_eq!(diagonal.to_string(), "1½");
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Cost(i32);

impl Cost {
    /// No cost at all.
    pub const ZERO: Self = Self(0);
    /// One whole point (or inch).
    pub const ONE: Self = Self(100);
    /// Half a point.
    pub const HALF: Self = Self(50);
    /// The largest representable cost; used as "unbounded" by searches.
    pub const MAX: Self = Self(i32::MAX);

    /// A cost of `hundredths` / 100 points.
    #[must_use]
    pub const fn from_hundredths(hundredths: i32) -> Self {
        Self(hundredths)
    }

    /// A cost of whole points.
    #[must_use]
    pub const fn whole(points: i32) -> Self {
        Self(points * 100)
    }

    /// The cost in hundredths.
    #[must_use]
    pub const fn hundredths(self) -> i32 {
        self.0
    }

    /// Sum that saturates instead of overflowing, so hostile rulesets cannot wrap a cost
    /// around to a negative number.
    #[must_use]
    pub const fn saturating_add(self, other: Self) -> Self {
        Self(self.0.saturating_add(other.0))
    }

    /// Multiplies by a whole number, saturating.
    #[must_use]
    pub const fn saturating_mul(self, times: i32) -> Self {
        Self(self.0.saturating_mul(times))
    }

    /// True when the cost is below zero.
    #[must_use]
    pub const fn is_negative(self) -> bool {
        self.0 < 0
    }
}

impl Add for Cost {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        self.saturating_add(rhs)
    }
}

impl AddAssign for Cost {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl Sub for Cost {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        Self(self.0.saturating_sub(rhs.0))
    }
}

impl SubAssign for Cost {
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl Neg for Cost {
    type Output = Self;
    fn neg(self) -> Self {
        Self(self.0.saturating_neg())
    }
}

impl fmt::Display for Cost {
    /// Quarters print as vulgar fractions (`1½`, `¾`), anything else as a decimal (`0.33`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let (whole, frac) = (abs / 100, abs % 100);
        let glyph = match frac {
            0 => Some(""),
            25 => Some("¼"),
            50 => Some("½"),
            75 => Some("¾"),
            _ => None,
        };
        match glyph {
            Some(g) if whole == 0 && !g.is_empty() => write!(f, "{sign}{g}"),
            Some(g) => write!(f, "{sign}{whole}{g}"),
            None => {
                let frac = format!("{frac:02}");
                write!(f, "{sign}{whole}.{}", frac.trim_end_matches('0'))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_uses_fractions_for_quarters() {
        assert_eq!(Cost::from_hundredths(150).to_string(), "1½");
        assert_eq!(Cost::from_hundredths(50).to_string(), "½");
        assert_eq!(Cost::from_hundredths(-50).to_string(), "-½");
        assert_eq!(Cost::from_hundredths(200).to_string(), "2");
        assert_eq!(Cost::from_hundredths(33).to_string(), "0.33");
        assert_eq!(Cost::from_hundredths(110).to_string(), "1.1");
        assert_eq!(Cost::ZERO.to_string(), "0");
    }

    #[test]
    fn arithmetic_saturates() {
        assert_eq!(Cost::MAX + Cost::ONE, Cost::MAX);
        assert_eq!(
            Cost::from_hundredths(i32::MIN) - Cost::ONE,
            Cost::from_hundredths(i32::MIN)
        );
    }
}
