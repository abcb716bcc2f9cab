//! Hand-to-hand: losers retire from the winner, winners make victory moves.

use super::*;

#[test]
fn hand_to_hand_losers_retire_from_the_winner_and_winners_make_victory_moves() {
    // Base assumption (page 68) and 003 Retire moves: after hand-to-hand the loser's retire
    // is made at once, to 8.1" (table) from the winner; the winner may fall back one move
    // (18" cavalry at 66% = 11.88") or advance; a unit that did not win may not.
    let pieces = "  - { id: bc, side: blue, type: cavalry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: bi, side: blue, type: line_infantry, at: [60, 40], facing: 270, attributes: { brigade: 1 } }\n  - { id: rc, side: red, type: cavalry, at: [30, 24], facing: 90, attributes: { brigade: 1 } }\n";
    let mut checked_retire = false;
    let mut checked_victory = false;
    for seed in 1..60 {
        let mut t = table_seeded(CLUB, "", seed, pieces);
        until_phase(&mut t, "blue", "initiative");
        act(&mut t, "blue", "bc", "cavalry_charge", Some("rc")).expect("charge");
        until_phase(&mut t, "blue", "close_combat");
        let events = act(&mut t, "blue", "bc", "melee", Some("rc")).expect("melee");
        let tests = rolls(&events, "break_test");
        let retired = tests.iter().any(|o| {
            (o.contains("retire") || o.contains("retreat") || o.contains("fallback"))
                && !o.starts_with("hold")
        });
        if !flag(&t, "bc", "victory_move") || !t.game.piece_by_name("rc").unwrap().on_board() {
            continue;
        }
        if retired {
            // The loser (red) retired straight back from bc, 8.1" from it edge to edge: the
            // charge put the two front to front at y 24.98, so rc's bases end with their
            // front at 16.88 and their centre half their 50 mm depth behind it.
            let (x, y) = at(&t, "rc");
            assert!(
                (x - 30.0).abs() < 0.002 && (y - 15.9).abs() < 0.002,
                "{tests:?} {x},{y}"
            );
            checked_retire = true;
        }
        let no = refused(act(&mut t, "blue", "bi", "victory_fall_back", None));
        assert!(no.message.contains("has not won"), "{}", no.message);
        act(&mut t, "blue", "bc", "victory_fall_back", None).expect("fall back");
        // From where its charge left it (centre y 25.97), one move straight back.
        let (x, y) = at(&t, "bc");
        assert!(
            (x - 30.0).abs() < 0.002 && (y - 37.85).abs() < 0.002,
            "{x},{y}"
        );
        assert!(!flag(&t, "bc", "victory_move"));
        checked_victory = true;
        if checked_retire {
            break;
        }
    }
    assert!(
        checked_victory && checked_retire,
        "no seed gave a blue win with a retire"
    );
}
