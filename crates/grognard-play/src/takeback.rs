//! When an order may be taken back: the one test the server (a seat's undo) and the editor
//! (its Undo button) both apply, so a move that sighted an enemy is as final in a hot-seat
//! game as in a remote one.
//!
//! An order is locked, so a side cannot take it back, when it rolled a die (the dice would
//! be thrown again), when it told the ordering side something new of the enemy (a
//! sighting, a reveal, an identity or a strength: undoing it would let a side scout for
//! free), or when it ended the game. A ruleset that hides nothing (no sighting rules,
//! hence no hidden set-up; no private counters, attributes or flags; no secret charts)
//! shows every side everything, so no order there tells a side anything new: in
//! village-skirmish an order that hit an enemy had locked Undo as "showed you something
//! of the enemy".

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
                // The order that rolled them is the last (any later order would be
                // undoable), and may be the player's own (the fourteenth editor player).
                "The last order rolled dice: an order is taken back only while no die has been \
                 rolled in it or after it."
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
    /// The ruleset hides something from some side (see [`hides_anything`]).
    hidden: bool,
}

/// True when the ruleset keeps something from some side, as the kernel's views do: sighting
/// rules (which a secret set-up also needs: each side deploys seeing only what they show),
/// counters, attributes or flags only their own side sees, or charts the referee rolls in
/// secret. Without any, every side's view of the enemy is the whole of it.
#[must_use]
pub fn hides_anything(rules: &grognard_kernel::rules::Rules) -> bool {
    rules.sighting.is_some()
        || !rules.private_counters.is_empty()
        || !rules.private_attributes.is_empty()
        || !rules.private_flags.is_empty()
        || rules.charts.iter().any(|c| c.secret)
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
            hidden: hides_anything(game.rules()),
        }
    }

    /// Whether the order since applied to `game` is locked, and why (dice first: they
    /// are the reason a player most expects).
    #[must_use]
    pub fn lock(&self, game: &Game) -> Option<Lock> {
        if dice(game) != self.dice {
            Some(Lock::Dice)
        } else if self.hidden && game.view(self.side).enemy != self.known {
            Some(Lock::Revealed)
        } else if game.result().is_some() {
            Some(Lock::GameOver)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Lock, Takeback, dice, hides_anything};
    use grognard_kernel::action::Order;
    use grognard_kernel::hooks::NoHooks;

    /// The eighth outside player (issue 37): in village-skirmish, which hides nothing, an
    /// order that changed an enemy piece mid-game (a charge into contact marks the enemy
    /// `engaged`; a hit makes it `shaken`) locked Undo as "showed you something of the
    /// enemy". Both sides greedy to the end: some order rolls no die yet changes what its
    /// side sees of the enemy, and none is locked for showing the enemy; each rolling
    /// order is locked for its dice.
    #[test]
    fn a_game_that_hides_nothing_never_locks_undo_for_showing_the_enemy() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples/village-skirmish.yaml");
        let scenario = grognard_rules::load::load_scenario(&path, None).expect("scenario");
        let mut hooks = NoHooks;
        let mut game = scenario.start(None, &[], &mut hooks).expect("start");
        assert!(!hides_anything(game.rules()));
        let kind = crate::PolicyKind::Greedy;
        let mut players: Vec<_> = (0..game.sides().len())
            .map(|i| {
                let side = grognard_kernel::ids::SideId(i as u8);
                crate::policy::Player::new(&kind, 7, side).expect("player")
            })
            .collect();
        let (mut enemy_changed, mut rolled) = (0, 0);
        while game.result().is_none() && game.phase().is_some() {
            let side = game.to_act()[0];
            let legal = game.legal_orders(side, &mut hooks);
            let action = players[side.index()]
                .choose_with(&game, side, &legal, &mut hooks)
                .expect("an order");
            let before = Takeback::before(&game, side);
            game.apply(&Order { side, action }, &mut hooks)
                .expect("a legal order");
            if game.result().is_some() {
                break;
            }
            let lock = before.lock(&game);
            assert_ne!(lock, Some(Lock::Revealed), "{:?}", game.log().last());
            if dice(&game) != before.dice {
                rolled += 1;
                assert_eq!(lock, Some(Lock::Dice));
            } else if game.view(side).enemy != before.known {
                enemy_changed += 1;
                assert_eq!(lock, None);
            }
        }
        assert!(enemy_changed > 0, "no order changed the enemy without dice");
        assert!(rolled > 0, "no order rolled");
    }
}
