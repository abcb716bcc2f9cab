//! Who a token speaks for in one game: a side's seat, the referee's, or a spectator's.
//! A seat's name is read once, when its token is found ([`crate::hub::Hub::seat`]); from
//! there on the server asks the [`Seat`] what it is, never compares names with the words
//! `referee` and `spectator`. On the wire and in the store a seat is still its name.

use std::fmt;

use crate::protocol::{REFEREE, SPECTATOR};

/// One seat of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// The seat of the side of that name.
    Side(String),
    /// The referee: sees everything, may take back any order (with a reason).
    Referee,
    /// Sees the status and the chat, and the whole board once the game is over; gives no
    /// orders.
    Spectator,
}

impl Seat {
    /// The seat a stored name stands for. A side may not be named `referee` or
    /// `spectator` (creating such a game is refused), so every other name is a side's.
    #[must_use]
    pub fn parse(name: &str) -> Self {
        match name {
            REFEREE => Self::Referee,
            SPECTATOR => Self::Spectator,
            side => Self::Side(side.to_owned()),
        }
    }

    /// The seat's name, as the wire and the store spell it.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            Self::Side(side) => side,
            Self::Referee => REFEREE,
            Self::Spectator => SPECTATOR,
        }
    }

    /// The side this seat plays, if it is a side's.
    #[must_use]
    pub fn side(&self) -> Option<&str> {
        match self {
            Self::Side(side) => Some(side),
            Self::Referee | Self::Spectator => None,
        }
    }

    /// True for the referee's seat.
    #[must_use]
    pub fn is_referee(&self) -> bool {
        matches!(self, Self::Referee)
    }

    /// True for a spectator's seat.
    #[must_use]
    pub fn is_spectator(&self) -> bool {
        matches!(self, Self::Spectator)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_read_once_into_its_kind_and_spelt_back_the_same() {
        for (name, seat) in [
            ("referee", Seat::Referee),
            ("spectator", Seat::Spectator),
            ("french", Seat::Side("french".into())),
            // Only the exact words are the server's seats.
            ("Referee", Seat::Side("Referee".into())),
        ] {
            assert_eq!(Seat::parse(name), seat);
            assert_eq!(seat.name(), name);
            assert_eq!(seat.to_string(), name);
        }
        assert_eq!(Seat::parse("french").side(), Some("french"));
        assert_eq!(Seat::Referee.side(), None);
        assert!(Seat::Referee.is_referee() && !Seat::Referee.is_spectator());
        assert!(Seat::Spectator.is_spectator() && Seat::Spectator.side().is_none());
    }
}
