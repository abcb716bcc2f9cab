//! Brigade commands and morale: commands to more than half a brigade, orders in woods,
//! passage of lines, brigade and army morale, and the base reading without the amendments.

use super::*;

#[test]
fn brigade_commands_need_more_than_half_and_not_hold() {
    // 003 Brigade commands: more than half the brigade's units must be included.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, brigade_size: 2 } }\n  - { id: b1, side: blue, type: line_infantry, at: [26, 40], facing: 270, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [34, 40], facing: 270, flags: [disordered], attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let half = refused(act(&mut t, "blue", "bde", "brigade_order", Some("b1")));
    assert!(half.message.contains("more than half"), "{}", half.message);
    // 003 Hold: no brigade commands.
    act(&mut t, "blue", "bde", "hold", None).expect("hold");
    let hold = refused(act(&mut t, "blue", "bde", "brigade_order", Some("b1")));
    assert!(hold.message.contains("Hold"), "{}", hold.message);
    // 003 Reform action: disorder stays until the unit reforms.
    until_phase(&mut t, "blue", "initiative");
    assert!(flag(&t, "b2", "disordered"));
    act(&mut t, "blue", "b2", "reform", None).expect("reform");
    assert!(!flag(&t, "b2", "disordered"));
}

#[test]
fn woods_orders_go_to_one_unit_at_a_time_and_limit_visibility() {
    // 003 Woods: orders one unit at a time (lines in woods cannot share a brigade command).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [50, 34], facing: 270, attributes: { brigade: 1, brigade_size: 2 } }\n  - { id: b1, side: blue, type: line_infantry, at: [48, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [52, 32], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [50, 20], facing: 90, attributes: { brigade: 1 } }\n  - { id: r2, side: red, type: line_infantry, at: [20, 10], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "red", "musketry_artillery");
    // 003 l.59: visibility into woods is 6" (3.96" on the table); r1's front edge is 4.4"
    // (6.67" rule) from b1's, both deeper than 1" in the wood (terrain `see_through`).
    let refusal = refused(act(&mut t, "red", "r1", "shoot", Some("b1")));
    assert!(
        refusal.message.contains("r1 cannot see b1"),
        "{}",
        refusal.message
    );
    until_phase(&mut t, "blue", "command");
    let refusal = refused(act(&mut t, "blue", "bde", "brigade_order", Some("b2")));
    assert!(
        refusal.message.contains("one unit at a time"),
        "{}",
        refusal.message
    );
}

#[test]
fn passage_of_lines_rolls_for_both_and_squares_cannot_pass() {
    let pieces = "  - { id: b1, side: blue, type: line_infantry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [30, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: bs, side: blue, type: line_infantry, at: [40, 30], facing: 270, mode: square, attributes: { brigade: 1 } }\n  - { id: bk, side: blue, type: skirmish_company, at: [40, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    // 003 Passage of lines: both roll 4+ or are disordered.
    let events = act(&mut t, "blue", "b1", "passage_of_lines", Some("b2")).expect("passage");
    let results = rolls(&events, "passage_of_lines");
    assert_eq!(results.len(), 2);
    assert_eq!(flag(&t, "b1", "disordered"), results[0] == "disordered");
    assert_eq!(flag(&t, "b2", "disordered"), results[1] == "disordered");
    // A square may not pass through any unit; only skirmish companies pass a square.
    let sq = refused(act(&mut t, "blue", "bs", "passage_of_lines", Some("bk")));
    assert!(sq.message.contains("square"), "{}", sq.message);
    // Skirmishers are passed freely, without a roll.
    let free = act(&mut t, "blue", "bk", "passage_of_lines", Some("bs")).expect("free");
    assert!(rolls(&free, "passage_of_lines").is_empty());
}

#[test]
fn brigade_morale_has_two_versions_and_army_morale_follows() {
    // One brigade of 3 with one unit routed (gone) and one shaken; a second brigade intact.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, brigade_size: 3 } }\n  - { id: b1, side: blue, type: line_infantry, at: [26, 40], facing: 270, flags: [shaken], attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [34, 40], facing: 270, attributes: { brigade: 1 } }\n  - { id: bde2, side: blue, type: brigadier, at: [50, 44], facing: 270, attributes: { brigade: 2, brigade_size: 1 } }\n  - { id: b3, side: blue, type: line_infantry, at: [50, 40], facing: 270, attributes: { brigade: 2 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    // 003 Brigade morale (first version): more than half shaken or routed, one routed.
    let t = table(pieces);
    assert!(flag(&t, "b2", "brigade_broken"));
    // Army morale: half the brigades broken at the start of the turn breaks the army.
    assert!(flag(&t, "b3", "army_broken"));
    // Second version (optional): broken needs more than half routed; this one is shaken.
    let t = table_of(CLUB, "brigade_morale_second_version: true", pieces);
    assert!(flag(&t, "b2", "brigade_shaken"));
    assert!(!flag(&t, "b2", "brigade_broken"));
    assert!(!flag(&t, "b3", "army_broken"));
}

#[test]
fn the_base_reading_plays_without_the_amendments() {
    // The core ruleset: one command phase, disorder clears by itself, no threatened zones.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 14], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table_of(CORE, "", pieces);
    assert_eq!(t.game.phase().expect("phase").0.name, "command");
    act(&mut t, "blue", "bde", "order", Some("b1")).expect("order");
    assert!(
        counter(&t, "b1", "moves") > 0,
        "staff 12: the order succeeds with this seed"
    );
    {
        // At full scale and with no zones, b1 may close to 4" of r1 (no point blank limit).
        move_to(&mut t, "blue", "b1", 30.0, 18.0).expect("no threatened zone in the base");
    }
    // Cavalry may not enter woods in the base reading.
    let rules = &t.game.rules();
    let horse = rules
        .move_classes
        .iter()
        .find(|m| m.name == "horse")
        .expect("horse");
    let woods = rules
        .terrain
        .iter()
        .position(|x| x.name == "woods")
        .expect("woods");
    assert_eq!(horse.enter[woods], None);
}
