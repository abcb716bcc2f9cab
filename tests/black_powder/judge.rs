//! The search's judge of a Black Powder position (`scripts/black_powder/judge.lua`, the
//! ruleset's `evaluate` hook): how near each army is to breaking, read from a side's view.
//! Worked by hand from the morale rules the script encodes (brigade morale, first version:
//! a brigade breaks when more than half the units that count are shaken or routed, with a
//! routed unit needed unless all are shaken; an army breaks when half its brigades do) and
//! checked against the game's own morale where the two meet.

use grognard_kernel::action::{Action, Order};
use grognard_kernel::ids::SideId;

use super::{Table, flag, table_with};
use crate::util::near;

const BLUE: SideId = SideId(0);
const RED: SideId = SideId(1);

/// Two brigades a side, as in the bundled example: line, light and skirmishers with a
/// brigadier; cavalry and a battery with another. `extra` is added
/// to the YAML of the named pieces (counters, flags), or `absent` leaves one out: a unit
/// routed before the game (its brigadier's `brigade_size` still counts it).
fn armies(extra: &[(&str, &str)]) -> Table {
    let more = |id: &str| {
        extra
            .iter()
            .filter(|(name, _)| *name == id)
            .map(|(_, yaml)| format!(", {yaml}"))
            .collect::<String>()
    };
    let piece = |id: &str, side: &str, kind: &str, x: i32, y: i32, attrs: &str| {
        let facing = if side == "blue" { 270 } else { 90 };
        if more(id).contains("absent") {
            return String::new();
        }
        format!(
            "  - {{ id: {id}, side: {side}, type: {kind}, at: [{x}, {y}], facing: {facing}, attributes: {{ {attrs} }}{} }}\n",
            more(id)
        )
    };
    let mut pieces = String::new();
    for (side, y, row) in [("blue", 44, 36), ("red", 4, 12)] {
        let p = &side[..1];
        pieces += &piece(
            &format!("{p}_bde1"),
            side,
            "brigadier",
            20,
            y,
            "staff: 8, brigade: 1, brigade_size: 3",
        );
        pieces += &piece(
            &format!("{p}_line"),
            side,
            "line_infantry",
            10,
            row,
            "brigade: 1",
        );
        pieces += &piece(
            &format!("{p}_light"),
            side,
            "light_infantry",
            20,
            row,
            "brigade: 1",
        );
        pieces += &piece(
            &format!("{p}_skirm"),
            side,
            "skirmish_company",
            30,
            row,
            "brigade: 1",
        );
        pieces += &piece(
            &format!("{p}_bde2"),
            side,
            "brigadier",
            55,
            y,
            "staff: 8, brigade: 2, brigade_size: 2",
        );
        pieces += &piece(&format!("{p}_cav"), side, "cavalry", 50, row, "brigade: 2");
        pieces += &piece(
            &format!("{p}_guns"),
            side,
            "foot_battery",
            62,
            row,
            "brigade: 2",
        );
    }
    table_with(&[], 1, &pieces)
}

/// The hook's value of `side`'s view with the search's own score `score`.
fn judged(t: &mut Table, side: SideId, score: f64) -> f64 {
    crate::util::judged(&t.game, &mut t.hooks, side, score)
}

/// Plays on (every side ending its phases) until `side`'s initiative phase has begun,
/// where the game takes that side's brigade and army morale, or the game ends there.
fn until_morale(t: &mut Table, side: &str) {
    for _ in 0..16 {
        let Some((def, phasing)) = t.game.phase() else {
            return;
        };
        if def.name == "initiative" && t.game.sides()[phasing.index()].name == side {
            return;
        }
        let who = t.game.to_act().first().copied().expect("someone acts");
        let end = Order {
            side: who,
            action: Action::EndPhase,
        };
        t.game.apply(&end, &mut t.hooks).expect("the phase ends");
    }
    panic!("no initiative phase of {side}");
}

#[test]
fn fresh_armies_are_level_and_four_tenths_of_the_search_score_stay() {
    let mut t = armies(&[]);
    assert!(near(judged(&mut t, BLUE, 0.0), 0.0));
    // 0.4 of the search's score (points and hits) and 0.6 of the morale difference (0).
    assert!(near(judged(&mut t, BLUE, 0.5), 0.2));
    assert!(near(judged(&mut t, RED, -1.0), -0.4));
}

#[test]
fn shaken_cavalry_puts_its_army_half_way_to_breaking() {
    // Blue's cavalry is shaken. Its brigade counts the cavalry and the battery (a battery
    // counts when batteries and skirmishers are half the brigade or more: 1 of 2): one of
    // two shaken is not more than half, so the brigade holds (the game agrees), but its
    // danger is 1/2. An army of two breaks when one brigade does, so blue's danger is
    // 0.8 x 1/2 (the brigade that would break it) + 0.2 x 1/4 (the mean) = 0.45.
    let mut t = armies(&[("b_cav", "counters: { hits: 3 }, flags: [shaken]")]);
    until_morale(&mut t, "blue");
    assert!(!flag(&t, "b_cav", "brigade_broken"));
    assert!(near(judged(&mut t, BLUE, 0.0), -0.6 * 0.45));
    assert!(near(judged(&mut t, RED, 0.0), 0.6 * 0.45));
}

#[test]
fn hits_short_of_stamina_count_part_of_the_way() {
    // Red's line battalion has 1 hit of its stamina 3: half of 1/3 toward shaken. Its
    // brigade counts the two battalions (skirmishers, 1 of 3, do not count), so its danger
    // is (1/6) / 2 = 1/12 and red's 0.8/12 + 0.2/24 = 0.075.
    let mut t = armies(&[("r_line", "counters: { hits: 1 }")]);
    assert!(near(judged(&mut t, BLUE, 0.0), 0.6 * 0.075));
}

#[test]
fn a_routed_and_a_shaken_battalion_break_the_brigade_and_the_army_as_the_game_does() {
    // Red's line battalion is gone (routed: its brigade_size counts 3) and its light battalion is shaken: two of
    // the brigade's three counted places, more than half with one routed — the brigade
    // breaks, and with it the army of two brigades. The game's morale says so at the
    // start of the phase, and the judge reads the broken army as 1.
    let mut t = armies(&[
        ("r_line", "absent"),
        ("r_light", "counters: { hits: 3 }, flags: [shaken]"),
    ]);
    // Red's morale is taken as red's initiative phase begins.
    until_morale(&mut t, "red");
    assert!(flag(&t, "r_light", "army_broken"), "the game's morale");
    assert!(near(judged(&mut t, BLUE, 0.0), 0.6));
    assert!(near(judged(&mut t, RED, 0.0), -0.6));
    // The routed battalion alone: the brigade's two units left are a battalion and the
    // skirmishers, who now count (half the units present), so one routed of three counted
    // is not more than half and the brigade holds (the game agrees); its danger is 1/3 and
    // red's 0.8/3 + 0.2/6 = 0.3.
    let mut units = armies(&[("r_line", "absent")]);
    until_morale(&mut units, "red");
    assert!(!flag(&units, "r_light", "brigade_broken"));
    assert!(near(judged(&mut units, BLUE, 0.0), 0.6 * 0.3));
}
