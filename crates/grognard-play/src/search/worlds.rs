//! Sampling the worlds a search imagines: each iteration draws one game the searching side
//! cannot tell from the real one ([`Game::sample_world`] in the kernel, which reads only
//! what the side knows), every draw taken from the player's own random stream so that a
//! seed gives the same worlds, and so the same choice, every time.

use grognard_kernel::game::Game;
use grognard_kernel::ids::SideId;
use rand_chacha::ChaCha8Rng;

use crate::policy::below;

/// A world for `side` drawn from `rng`: the real game where the side knows it, everything
/// else (enemy markers' identities, unseen enemies' places, the dice) drawn afresh.
#[must_use]
pub fn sample(game: &Game, side: SideId, rng: &mut ChaCha8Rng) -> Game {
    let mut draw = |n: usize| below(rng, n);
    game.sample_world(side, &mut draw)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grognard_kernel::hooks::NoHooks;
    use grognard_rules::load::{load_ruleset, scenario_from_text};
    use rand_chacha::rand_core::SeedableRng;

    const SCENARIO: &str = "scenario: t\nruleset: square-blocks\nseed: 7\nturns: 6\nboard:\n  \
        cols: 15\n  rows: 15\nsides:\n  french: { baseline: south }\n  austrians: { baseline: \
        north }\npieces:\n  - { id: i, side: french, type: infantry, at: [5, 13], facing: N, \
        counters: { units: 4 } }\n  - { id: h, side: austrians, type: infantry, at: [3, 0], \
        facing: S, counters: { units: 4 }, flags: [hidden] }\n  - { id: d, side: austrians, \
        type: dummy, at: [9, 1], facing: S }\n";

    fn game() -> Game {
        let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../rulesets/square-blocks.yaml");
        let rules = load_ruleset(&rules).unwrap_or_else(|d| panic!("{d}"));
        let s = scenario_from_text("t.yaml", SCENARIO, &rules).unwrap_or_else(|d| panic!("{d}"));
        s.start(None, &[], &mut NoHooks)
            .unwrap_or_else(|d| panic!("{d}"))
    }

    #[test]
    fn a_world_keeps_what_the_side_knows_and_redraws_the_dice() {
        let g = game();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let w = sample(&g, SideId(0), &mut rng);
        // The side's own piece is exactly as it is.
        assert_eq!(w.state().pieces[0], g.state().pieces[0]);
        // The dice are not the real game's.
        assert_ne!(w.state().rng, g.state().rng);
        // The same stream gives the same world.
        let mut again = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(sample(&g, SideId(0), &mut again).state(), w.state());
    }

    #[test]
    fn an_unseen_hidden_piece_is_placed_in_its_sides_half_not_where_it_is() {
        let g = game();
        let h = g.piece_by_name("h").map(|p| p.id).unwrap_or_default();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut elsewhere = 0;
        for _ in 0..20 {
            let w = sample(&g, SideId(0), &mut rng);
            let cell = w.state().pieces[h.index()].place.cell();
            let cell = cell.unwrap_or_else(|| panic!("h placed on the board"));
            // The Austrians' half (north baseline: rows 0..8).
            assert!(cell.row < 8, "{cell}");
            if cell != grognard_kernel::geometry::Cell::new(3, 0) {
                elsewhere += 1;
            }
        }
        assert!(
            elsewhere > 10,
            "the real place is not favoured: {elsewhere}"
        );
    }
}
