//! When an order may be taken back: the one test the server (a seat's undo) and the editor
//! (its Undo button) both apply, so a move that sighted an enemy is as final in a hot-seat
//! game as in a remote one.
//!
//! An order is locked, so a side cannot take it back, when it rolled a die (the dice would
//! be thrown again), when it told the ordering side something new of the enemy (a
//! sighting, a reveal, an identity or a strength: undoing it would let a side scout for
//! free), or when it ended the game.

use grognard_kernel::game::Game;
use grognard_kernel::ids::SideId;
use grognard_kernel::view::EnemyPiece;

/// Why an order cannot be taken back by the side that gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lock {
    /// A die was rolled while it was carried out.
    Dice,
    /// It told the ordering side something new of the enemy.
    Revealed,
    /// It ended the game.
    GameOver,
}

impl Lock {
    /// The reason in a player's words, for a greyed Undo's hover and a refusal.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            Self::Dice => {
                "Dice were rolled since the last order: an order is taken back only while no \
                 die has been rolled after it."
            }
            Self::Revealed => {
                "The last order showed you something of the enemy (a sighting, a reveal, a \
                 unit's identity or strength): what has been seen cannot be unseen, so it is \
                 not taken back."
            }
            Self::GameOver => "The last order ended the game: it is not taken back.",
        }
    }
}

/// What a side knew and where the dice stood before an order, to judge it once applied.
#[derive(Debug, Clone)]
pub struct Takeback {
    side: SideId,
    dice: (u128, Vec<u128>),
    known: Vec<EnemyPiece>,
}

/// Where the game's shared dice and each side's own dice stand.
fn dice(game: &Game) -> (u128, Vec<u128>) {
    let s = game.state();
    (
        s.rng.position(),
        s.side_rngs
            .iter()
            .map(grognard_kernel::dice::GameRng::position)
            .collect(),
    )
}

impl Takeback {
    /// Notes the game as `side` is about to give an order in it.
    #[must_use]
    pub fn before(game: &Game, side: SideId) -> Self {
        Self {
            side,
            dice: dice(game),
            known: game.view(side).enemy,
        }
    }

    /// Whether the order since applied to `game` is locked, and why (dice first: they
    /// are the reason a player most expects).
    #[must_use]
    pub fn lock(&self, game: &Game) -> Option<Lock> {
        if dice(game) != self.dice {
            Some(Lock::Dice)
        } else if game.view(self.side).enemy != self.known {
            Some(Lock::Revealed)
        } else if game.result().is_some() {
            Some(Lock::GameOver)
        } else {
            None
        }
    }
}
