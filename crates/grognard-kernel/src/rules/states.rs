//! The data of conditions the engine keeps on pieces by itself, as the compiled rules hold
//! them: friends near a piece (a general's command radius, read by charts and by flags),
//! flags that hold exactly while a condition holds ("shaken while hits ≥ 4"), and how a
//! unit falls back. The rules that read them live in `crate::game` (`game/states.rs`,
//! `game/fall_back.rs`); this module imports nothing above the ids and costs.

use serde::{Deserialize, Serialize};

use crate::ids::CounterId;

pub use crate::command::Near;

/// When a flag holds (`while:`): the engine sets it exactly while this is true of the
/// piece, and clears it when it stops being true, after every change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Holds {
    /// The piece's counter is within these bounds (inclusive; `None`: open).
    Counter {
        /// The counter.
        counter: CounterId,
        /// Lowest value at which it holds.
        at_least: Option<i32>,
        /// Highest value at which it holds.
        at_most: Option<i32>,
    },
    /// A friend of the types is near (in command).
    Near(Near),
    /// No friend of the types is near (out of command).
    NotNear(Near),
}

impl Holds {
    /// True when a counter at `value` satisfies the bounds (`None` for a condition that
    /// is not about counter `counter`).
    #[must_use]
    pub fn counter_level(&self, counter: CounterId, value: i32) -> Option<bool> {
        match self {
            Self::Counter {
                counter: c,
                at_least,
                at_most,
            } if *c == counter => {
                Some(at_least.is_none_or(|lo| value >= lo) && at_most.is_none_or(|hi| value <= hi))
            }
            _ => None,
        }
    }
}

/// What a unit that cannot fall back the whole distance does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WhenBlocked {
    /// It goes as far as it can and stops there.
    #[default]
    Stop,
    /// It does not move at all.
    Stay,
    /// It is removed (a unit that cannot retreat surrenders).
    Remove,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bounds are inclusive and either end may be open; another counter is not this one's
    /// business.
    #[test]
    fn counter_levels_hold_within_their_bounds() {
        let shaken = Holds::Counter {
            counter: CounterId(0),
            at_least: Some(4),
            at_most: None,
        };
        assert_eq!(shaken.counter_level(CounterId(0), 3), Some(false));
        assert_eq!(shaken.counter_level(CounterId(0), 4), Some(true));
        assert_eq!(shaken.counter_level(CounterId(0), 9), Some(true));
        assert_eq!(shaken.counter_level(CounterId(1), 9), None);
        let fresh = Holds::Counter {
            counter: CounterId(0),
            at_least: Some(1),
            at_most: Some(2),
        };
        assert_eq!(
            [0, 1, 2, 3].map(|v| fresh.counter_level(CounterId(0), v)),
            [Some(false), Some(true), Some(true), Some(false)]
        );
    }
}
