//! Moving on the table: threatened zones and engagement range, the measuring scale, moves by
//! margin, retiring and following through, facing the enemy to move toward it, shaken
//! units keeping their distance, hand-hauled guns, woods drift and rough ground.

use super::*;

#[test]
fn threatened_zone_stops_a_move_at_its_edge() {
    // 003 Command friction: infantry threatens 6" (3.96" on the 66% table) from its front
    // zone; a unit may not move into it unless charging, and must stop when threatened.
    let mut t = table(&format!(
        "{FACE_OFF}  - {{ id: bde, side: blue, type: brigadier, at: [34, 36], facing: 270, attributes: {{ brigade: 1, staff: 12 }} }}\n"
    ));
    let moves = ordered(&mut t, "bde", "b1");
    assert!(moves >= 1, "staff 12 fails only on a blunder");
    // A path running into r1's zone is refused at the point where it enters it: b1's
    // front edge 3.96" from r1's, so its centre at 14 + 0.7875 + 3.96 + 0.7875 (half of
    // each line's 1.575" depth).
    let refusal = refused(move_to(&mut t, "blue", "b1", 30.0, 19.0));
    assert_eq!(refusal.kind, RefusalKind::MustStop);
    assert!(
        refusal.message.contains("must stop at (30") && refusal.message.contains("19.536"),
        "{}",
        refusal.message
    );
    // Ending at the zone's edge is allowed; the unit is then stopped for the phase.
    move_to(&mut t, "blue", "b1", 30.0, 19.536).expect("stop at the edge");
    assert_eq!(at(&t, "b1"), (30.0, 19.536));
    let again = refused(move_to(&mut t, "blue", "b1", 30.0, 19.3));
    assert_eq!(again.kind, RefusalKind::AlreadyUsed);
}

#[test]
fn threatened_units_may_not_close_and_point_blank_holds_outside_the_front_arc() {
    // r1 faces away (north): no zone, but 4" (2.64" on the table) is still point blank.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [34, 36], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 20], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 14], facing: 270, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(ordered(&mut t, "bde", "b1") >= 1);
    // Edge to edge, between the two lines (each 1.575" deep): 2.425" is too close, 2.725"
    // is not.
    let refusal = refused(move_to(&mut t, "blue", "b1", 30.0, 18.0));
    assert!(
        refusal.message.contains("may not come within 2.64\""),
        "{}",
        refusal.message
    );
    move_to(&mut t, "blue", "b1", 30.0, 18.3).expect("outside point blank");
    // 003: cavalry threaten infantry out to 12" (7.92" on the table), edge to edge: b1
    // stops with its centre at 14 + 0.984 (half the regiment's 50 mm depth) + 7.92 + 0.7875.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [34, 36], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: rc, side: red, type: cavalry, at: [30, 14], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(ordered(&mut t, "bde", "b1") >= 1);
    let refusal = refused(move_to(&mut t, "blue", "b1", 30.0, 20.0));
    assert!(refusal.message.contains("23.693"), "{}", refusal.message);
}

#[test]
fn measuring_scale_applies_to_moves_and_woods_but_not_command_distance() {
    // 003 Measuring: a 12" move is 7.92" on the table.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [10, 44], facing: 270, attributes: { brigade: 1 } }\n  - { id: bc, side: blue, type: cavalry, at: [48, 31], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let events = act(&mut t, "blue", "bde", "order", Some("b1")).expect("order");
    // The commander is 20" away on the table: one full 12" (table inches), not 30" of
    // rule distance (two).
    let roll = events
        .iter()
        .find_map(|e| match e {
            Event::Acted { roll: Some(r), .. } => Some(r.clone()),
            _ => None,
        })
        .expect("command roll");
    assert!(
        roll.inputs.contains(&("command_distance".to_owned(), 1)),
        "{:?}",
        roll.inputs
    );
    assert!(
        counter(&t, "b1", "moves") > 0,
        "staff 12: the order succeeds with this seed"
    );
    {
        let too_far = refused(move_to(&mut t, "blue", "b1", 10.0, 36.0));
        assert!(too_far.message.contains("7.92\""), "{}", too_far.message);
        move_to(&mut t, "blue", "b1", 10.0, 36.1).expect("7.9\" is within 7.92\"");
    }
    // 003 Woods: cavalry move 12" in woods — 18" plus 6" extra to enter, both scaled:
    // 11.88" allowance, 3.96" extra. 8" of path into the wood costs 11.96": too far.
    let events = act(&mut t, "blue", "bde", "order", Some("bc")).expect("order");
    assert!(
        counter(&t, "bc", "moves") > 0,
        "staff 12: the order succeeds with this seed"
    );
    {
        let refusal = refused(move_to(&mut t, "blue", "bc", 48.0, 23.0));
        assert_eq!(refusal.kind, RefusalKind::TooFar, "{events:?}");
        assert!(refusal.message.contains("11.96\""), "{}", refusal.message);
        move_to(&mut t, "blue", "bc", 48.0, 24.0).expect("7\" + 3.96\" is within 11.88\"");
    }
}

#[test]
fn moves_by_margin_are_counted_and_woods_allow_one() {
    // Base reading: each move spends one; the unit stops when none are left.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 40], facing: 270, attributes: { brigade: 1 } }\n  - { id: bw, side: blue, type: line_infantry, at: [50, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    let moves = ordered(&mut t, "bde", "b1");
    for i in 0..moves {
        move_to(&mut t, "blue", "b1", 30.0, 39.0 - f64::from(i)).expect("a move");
    }
    let none = refused(move_to(&mut t, "blue", "b1", 30.0, 30.0));
    assert!(none.message.contains("no moves left"), "{}", none.message);
    // 003 Woods: one move only (formed units), whatever the margin.
    act(&mut t, "blue", "bde", "order", Some("bw")).expect("order");
    assert!(counter(&t, "bw", "moves") <= 1);
}

#[test]
fn maneuver_halts_in_engagement_range_then_becomes_hold() {
    // 003 Brigade orders, Maneuver: halt in engagement range; unchanged, it becomes Hold.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 22], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 16], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "bde", "maneuver", None).expect("maneuver");
    // Maneuver forbids voluntary charges.
    let charge = refused(act(&mut t, "blue", "b1", "charge", Some("r1")));
    assert!(
        charge.message.contains("Maneuver or Hold"),
        "{}",
        charge.message
    );
    until_phase(&mut t, "red", "command");
    until_phase(&mut t, "blue", "command");
    assert!(flag(&t, "bde", "maneuver_halted"));
    until_phase(&mut t, "red", "command");
    until_phase(&mut t, "blue", "command");
    assert!(flag(&t, "bde", "order_hold") && !flag(&t, "bde", "order_maneuver"));
}

#[test]
fn threatened_zones_need_line_of_sight() {
    // 003 Command friction: the threatened zone extends only with line of sight. Cavalry
    // threaten infantry 12" (7.92" on the table); a copse of woods (x 12-22, y 21-26) hides
    // b1: one sees only 6" (3.96") through woods (issue 32: light woods, seen through to
    // 18", can never hide a 12" zone).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [22, 44], facing: 270, attributes: { brigade: 1, staff: 12, brigade_size: 2 } }\n  - { id: b1, side: blue, type: line_infantry, at: [17, 34], facing: 270, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [34, 34], facing: 270, attributes: { brigade: 1 } }\n  - { id: rc, side: red, type: cavalry, at: [17, 19], facing: 90, attributes: { brigade: 1 } }\n  - { id: rd, side: red, type: cavalry, at: [34, 19], facing: 90, attributes: { brigade: 1 } }\n";
    let copse =
        "{ name: copse, terrain: woods, corners: [[12, 21], [22, 21], [22, 26], [12, 26]] }";
    let mut t = table_with(&[copse], 0, pieces);
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "bde", "brigade_order", Some("b1")).expect("brigade command");
    assert!(
        counter(&t, "b1", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    // Behind the copse: no zone, b1 closes to 7.13" of rc, edge to edge (its front edge
    // at y 27.11, south of the copse; rc's at 19.98, north of it).
    move_to(&mut t, "blue", "b1", 17.0, 27.9).expect("hidden by the copse");
    // In the open the same move must stop where the zone begins: b2's front edge 7.92"
    // from rd's, its centre at 19.98 + 7.92 + 0.79.
    let refusal = refused(move_to(&mut t, "blue", "b2", 34.0, 27.9));
    assert!(refusal.message.contains("28.693"), "{}", refusal.message);
}

#[test]
fn retire_blocked_by_the_table_edge_stays_marked() {
    // 003 Retire moves (8.1" on the table): a skirmish company 2" from the north edge,
    // charged from 6" to the south, would retire past the edge; it stays, marked.
    let pieces = "  - { id: bi, side: blue, type: line_infantry, at: [30, 8], facing: 270, attributes: { brigade: 1 } }\n  - { id: rs, side: red, type: skirmish_company, at: [30, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "initiative");
    let events = act(&mut t, "blue", "bi", "charge", Some("rs")).expect("charge");
    assert_eq!(at(&t, "rs"), (30.0, 2.0));
    assert!(flag(&t, "rs", "must_retire"), "{events:?}");
    assert!(
        events.iter().any(|e| matches!(e, Event::Note { text }
            if text.contains("rs cannot retire") && text.contains("off the table"))),
        "{events:?}"
    );
}

#[test]
fn engaged_range_is_12_inches_without_line_of_sight() {
    // 003 Engaged: within 18" of an enemy, 12" when there is no line of sight. Both pairs
    // of battalions stand 10.93" apart edge to edge on the table (12.5" between centres,
    // each line 1.57" deep; 16.6" at 66%): one pair sees across open ground, the other has
    // the wood (y 18-28) between, and neither stands in it.
    let pieces = "  - { id: seen, side: blue, type: line_infantry, at: [30, 29.5], facing: 270, attributes: { brigade: 1 } }\n  - { id: hidden, side: blue, type: line_infantry, at: [50, 29.5], facing: 270, attributes: { brigade: 1 } }\n  - { id: r_open, side: red, type: line_infantry, at: [30, 17], facing: 90, attributes: { brigade: 1 } }\n  - { id: r_wood, side: red, type: line_infantry, at: [50, 17], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "musketry_artillery");
    assert!(flag(&t, "seen", "engaged"));
    assert!(!flag(&t, "hidden", "engaged"));
}

#[test]
fn the_opponent_drifts_a_unit_that_failed_its_order_in_woods() {
    // 003 Order and Movement in Woods: a unit in woods failing its order on a 10 or 11 may
    // be moved 6" (3.96" at 66%) by the opponent, formation unchanged, proximity rule kept.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [50, 34], facing: 270, attributes: { staff: 8, brigade: 1 } }\n  - { id: bw, side: blue, type: line_infantry, at: [50, 23], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [50, 8], facing: 90, attributes: { brigade: 1 } }\n";
    for seed in 1..200 {
        let mut t = table_seeded(CLUB, "", seed, pieces);
        until_phase(&mut t, "blue", "command");
        let no = refused(act(&mut t, "red", "r1", "woods_drift_away", Some("bw")));
        assert!(no.message.contains("unless woods_drift"), "{}", no.message);
        let events = act(&mut t, "blue", "bde", "order", Some("bw")).expect("order");
        if rolls(&events, "command") != ["woods_drift"] {
            continue;
        }
        assert!(flag(&t, "bw", "woods_drift"));
        // The owner may not move it so.
        let own = refused(act(&mut t, "blue", "bde", "woods_drift_away", Some("bw")));
        assert!(
            own.message.contains("target") || own.message.contains("opponent"),
            "{}",
            own.message
        );
        act(&mut t, "red", "r1", "woods_drift_away", Some("bw")).expect("drift");
        let (x, y) = at(&t, "bw");
        assert!(
            (x - 50.0).abs() < 0.002 && (y - 26.96).abs() < 0.002,
            "{x},{y}"
        );
        assert_eq!(mode(&t, "bw"), "line");
        assert!(!flag(&t, "bw", "woods_drift"));
        return;
    }
    panic!("no seed gave a woods drift");
}

#[test]
fn units_must_face_an_enemy_to_move_toward_it() {
    // 003 Command friction: units must face an enemy unit before moving closer to it. b1
    // faces east, r1 outside its front arc; heading north toward r1 it must turn to face
    // it. (Turning about in place would cost a line more than its move: a wheel costs the
    // farthest corner's path.)
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 30], facing: 0, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 14], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(
        ordered(&mut t, "bde", "b1") > 0,
        "staff 12 succeeds with this seed"
    );
    let no = refused(move_to(&mut t, "blue", "b1", 30.0, 26.0));
    assert!(no.message.contains("b1 must face r1"), "{}", no.message);
    assert_eq!(at(&t, "b1"), (30.0, 30.0));
    // Turned to face r1 (the move's own facing), it may close.
    move_facing(&mut t, "b1", 30.0, 29.0, 270).expect("facing r1");
    assert_eq!(at(&t, "b1"), (30.0, 29.0));
}

#[test]
fn assault_forbids_moves_into_the_rear_zone() {
    // 003 Brigade orders, Assault: no unit may voluntarily move in its rear zone.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, flags: [order_assault], attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(
        ordered(&mut t, "bde", "b1") > 0,
        "staff 12 succeeds with this seed"
    );
    let no = refused(move_to(&mut t, "blue", "b1", 30.0, 35.0));
    assert!(no.message.contains("rear zone"), "{}", no.message);
    move_to(&mut t, "blue", "b1", 25.0, 30.0).expect("to the flank, away from r1");
}

#[test]
fn shaken_units_of_a_broken_brigade_keep_8_inches_from_the_enemy() {
    // 003 Brigade morale, Broken: a shaken unit may not voluntarily move within 8" (the
    // initiative range, 12" at 66% = 7.92" on the table) of an enemy. Two of the brigade's
    // three units are gone, so it is broken; bs is shaken. Its free move is a retire only
    // (003 l.757; the next test's); ordered (staff 12), its moves are held to the 8".
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [50, 44], facing: 270, attributes: { brigade: 1, brigade_size: 3, staff: 12 } }\n  - { id: bs, side: blue, type: line_infantry, at: [30, 24], facing: 270, flags: [shaken], attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 10], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    assert!(flag(&t, "bs", "brigade_broken"));
    assert!(flag(&t, "bs", "retire_only"));
    assert!(
        ordered(&mut t, "bde", "bs") >= 1,
        "staff 12 fails only on a blunder"
    );
    assert!(!flag(&t, "bs", "retire_only"));
    let no = refused(move_to(&mut t, "blue", "bs", 30.0, 17.5));
    assert!(no.message.contains("broken brigade"), "{}", no.message);
    // Edge to edge: 30 - 20 less half of each line's 1.57" depth, 8.43".
    move_to(&mut t, "blue", "bs", 30.0, 20.0).expect("8.43\" away");
}

#[test]
fn a_step_back_from_bases_is_not_a_move_closer() {
    // 003 Brigade morale, Broken, measured from the edges of bases: bs (shaken, its brigade
    // broken) stands 5.46" from the southern flank of red's battery (three 60 mm bases,
    // 7.09" of them running north–south as it faces east; its centre is 9" away), inside
    // the 7.92" limit and out of the battery's front zone. Stepping 0.3" straight back
    // leaves it 5.76" from the bases: farther than it was, so not a move closer, though
    // nearer than the battery's centre was at the start. A step toward it is refused. (On
    // its initiative move: in the command phase it would retire at once, 003 l.755.)
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [50, 44], facing: 270, attributes: { brigade: 1, brigade_size: 3 } }\n  - { id: bs, side: blue, type: line_infantry, at: [30, 19], facing: 270, flags: [shaken], attributes: { brigade: 1 } }\n  - { id: rb, side: red, type: foot_battery, at: [30, 10], facing: 0, mode: unlimbered, attributes: { brigade: 1, gun: 5, nation: 2 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "initiative");
    assert!(flag(&t, "bs", "brigade_broken"));
    let no = refused(move_to(&mut t, "blue", "bs", 30.0, 18.8));
    assert!(no.message.contains("broken brigade"), "{}", no.message);
    move_to(&mut t, "blue", "bs", 30.0, 19.3).expect("straight back, away from the bases");
    assert_eq!(at(&t, "bs"), (30.0, 19.3));
}

#[test]
fn hand_hauled_guns_move_once_not_into_a_flank_zone_turning_at_most_45_degrees() {
    // 003 Moving Unlimbered Guns, Hand Haul: one move (6", 3.96" on the table), not in a
    // flank zone, the facing turning at most 45°; the battery still fires (no prolong -1).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: ba, side: blue, type: foot_battery, at: [30, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let no = refused(act(&mut t, "blue", "ba", "hand_haul", None));
    assert!(no.message.contains("no move"), "{}", no.message);
    assert!(
        ordered_for(&mut t, "bde", "ba", &["hand_haul"]) >= 1,
        "staff 12 succeeds with this seed"
    );
    // An order is not yet a move: nothing is prolonged (003 Prolong, l.550-554).
    assert!(!flag(&t, "ba", "prolonged"));
    act(&mut t, "blue", "ba", "hand_haul", None).expect("hand haul");
    assert!(!flag(&t, "ba", "prolonged"));
    assert_eq!(counter(&t, "ba", "moves"), 1);
    // Sideways (east, 90° off its northward facing) is its flank zone.
    let flank = refused(move_to(&mut t, "blue", "ba", 33.5, 40.0));
    assert!(flank.message.contains("flank zone"), "{}", flank.message);
    // Turning 50° is too much; 45° is allowed. Turned where they stand: the battery's
    // 180 mm of bases sweep their corners' arcs (3.05" for 45°), within its 3.96".
    let turn = refused(move_facing(&mut t, "ba", 30.0, 40.0, 320));
    assert!(
        turn.message.contains("at most 45 degrees"),
        "{}",
        turn.message
    );
    move_facing(&mut t, "ba", 30.0, 40.0, 315).expect("45°");
    assert_eq!(counter(&t, "ba", "moves"), 0);
    // A hand haul is no prolong: the battery fires without the -1.
    assert!(!flag(&t, "ba", "prolonged"));
}

#[test]
fn guns_that_moved_on_prolong_are_not_hand_hauled_after() {
    // 003 Hand Haul (l.556): the hand haul is the battery's one move; Reading: guns that
    // already moved on prolong this turn have made theirs, and stay prolonged (l.550-554).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: ba, side: blue, type: foot_battery, at: [30, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    let mut checked = false;
    for seed in 1..40 {
        let mut t = table_seeded(CLUB, "", seed, pieces);
        if ordered_for(&mut t, "bde", "ba", &["prolong", "hand_haul"]) < 2 {
            continue;
        }
        move_to(&mut t, "blue", "ba", 30.0, 38.0).expect("a move on prolong");
        assert!(flag(&t, "ba", "prolonged"));
        let no = refused(act(&mut t, "blue", "ba", "hand_haul", None));
        assert!(no.message.contains("moved on prolong"), "{}", no.message);
        assert!(flag(&t, "ba", "prolonged") && !flag(&t, "ba", "hand_haul"));
        checked = true;
        break;
    }
    assert!(checked, "no seed gave two moves");
}

#[test]
fn base_reading_retires_one_move_straight_away_from_the_firer() {
    // Base assumption (page 73): a retire is one move straight away from its cause, made at
    // once. A skirmish company (stamina 1) shot until a break test retires it: it goes 12"
    // (its skirmish move at full scale) straight back from the firer, still facing it.
    let pieces = "  - { id: b1, side: blue, type: line_infantry, at: [30, 34], facing: 270, attributes: { brigade: 1, shooting: 6 } }\n  - { id: rs, side: red, type: skirmish_company, at: [30, 20], facing: 90, attributes: { brigade: 1 } }\n";
    for seed in 1..80 {
        let mut t = table_seeded(CORE, "", seed, pieces);
        until_phase(&mut t, "blue", "shooting");
        let events = act(&mut t, "blue", "b1", "shoot", Some("rs")).expect("shoot");
        let tests = rolls(&events, "break_test");
        if !tests
            .iter()
            .any(|o| o.contains("retire") || o.contains("retreat"))
        {
            continue;
        }
        let (x, y) = at(&t, "rs");
        assert!(
            (x - 30.0).abs() < 0.002 && (y - 8.0).abs() < 0.002,
            "{tests:?} {x},{y}"
        );
        let facing = match t.game.piece_by_name("rs").unwrap().place {
            Place::Point { facing, .. } => facing,
            _ => unreachable!(),
        };
        assert_eq!(facing, grognard_kernel::geometry::open::Angle::degrees(90));
        return;
    }
    panic!("no seed gave a retire");
}

#[test]
fn follow_through_is_one_move_into_the_front_arc() {
    // 003 Skirmish Company, Follow Through: unless disordered, a charger with a move left
    // after contact may make one move (no charging) into its front arc. The charge itself
    // spends a move (base reading), so the order must have given two.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: bi, side: blue, type: line_infantry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: rs, side: red, type: skirmish_company, at: [30, 24], facing: 90, attributes: { brigade: 1 } }\n";
    let mut checked = false;
    for seed in 1..60 {
        let mut t = table_seeded(CLUB, "", seed, pieces);
        if ordered(&mut t, "bde", "bi") < 2 {
            continue;
        }
        act(&mut t, "blue", "bi", "charge", Some("rs")).expect("charge");
        if flag(&t, "bi", "disordered") {
            assert_eq!(counter(&t, "bi", "moves"), 0);
            assert!(!flag(&t, "bi", "follow_through"));
            continue;
        }
        assert!(flag(&t, "bi", "follow_through"));
        assert_eq!(counter(&t, "bi", "moves"), 1);
        let back = refused(move_to(&mut t, "blue", "bi", 30.0, 33.0));
        assert!(back.message.contains("front arc only"), "{}", back.message);
        // The charge put bi against the company, which retired; bi follows on.
        move_to(&mut t, "blue", "bi", 30.0, 22.0).expect("one move on");
        assert_eq!(counter(&t, "bi", "moves"), 0);
        assert!(!flag(&t, "bi", "follow_through"));
        checked = true;
        break;
    }
    assert!(checked, "no seed gave a follow-through");
}

#[test]
fn no_charge_move_during_a_passage_of_lines() {
    // 003 Passage of Lines: a charge move may not be made during the passage; the unit may
    // charge after it only with another move left.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: bk, side: blue, type: skirmish_company, at: [30, 27], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 23], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "b1", "passage_of_lines", Some("bk")).expect("passage");
    assert!(flag(&t, "b1", "passed_lines"));
    let no = refused(act(&mut t, "blue", "b1", "charge", Some("r1")));
    assert!(no.message.contains("another move left"), "{}", no.message);
    assert!(
        ordered(&mut t, "bde", "b1") >= 1,
        "staff 12 succeeds with this seed"
    );
    act(&mut t, "blue", "b1", "charge", Some("r1")).expect("charge with a move left");
}

// What an order is for (its intent), gun reliability, where units started the phase

#[test]
fn light_woods_are_rough_ground_for_movement() {
    // 003 Woods: orchards and light woods count as rough ground for movement; the core's
    // base reading of rough ground: half pace for infantry (+6"), cavalry (+9") and guns,
    // skirmish companies as normal (at 66%: +3.96" and +5.94" on the table). The orchard
    // lies at x 12-22, y 20-27.
    // Each unit on a table of its own, facing east toward the orchard across y 23.5; a move
    // enters the orchard when any part of its bases does.
    let ordered_alone = |who: &str, unit: &str| {
        let pieces = format!(
            "  - {{ id: bde, side: blue, type: brigadier, at: [10, 40], facing: 270, attributes: {{ brigade: 1, staff: 12 }} }}\n{unit}  - {{ id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: {{ brigade: 1 }} }}\n"
        );
        let mut t = table(&pieces);
        until_phase(&mut t, "blue", "command");
        act(&mut t, "blue", "bde", "order", Some(who)).expect("order");
        assert!(
            counter(&t, who, "moves") >= 1,
            "staff 12 succeeds with this seed"
        );
        t
    };
    // Infantry (front edge at x 10.79): 5" on, into the orchard, costs 5 + 3.96 > 7.92; 3"
    // costs 6.96.
    let mut t = ordered_alone(
        "bi",
        "  - { id: bi, side: blue, type: line_infantry, at: [10, 23.5], facing: 0, attributes: { brigade: 1 } }\n",
    );
    let no = refused(move_to(&mut t, "blue", "bi", 15.0, 23.5));
    assert!(no.message.contains("7.92\""), "{}", no.message);
    move_to(&mut t, "blue", "bi", 13.0, 23.5).expect("3\" in rough ground");
    // A skirmish company moves through at its full 7.92".
    let mut t = ordered_alone(
        "bk",
        "  - { id: bk, side: blue, type: skirmish_company, at: [8, 23.5], facing: 0, attributes: { brigade: 1 } }\n",
    );
    move_to(&mut t, "blue", "bk", 15.5, 23.5).expect("skirmishers as normal");
    // Cavalry (front edge at x 5.98): 11.88" a move; 6.5" that takes the front edge into
    // the orchard costs 6.5 + 5.94; 5.5" stops it 0.52" short.
    let mut t = ordered_alone(
        "bc",
        "  - { id: bc, side: blue, type: cavalry, at: [5, 23.5], facing: 0, attributes: { brigade: 1 } }\n",
    );
    let no = refused(move_to(&mut t, "blue", "bc", 11.5, 23.5));
    assert!(no.message.contains("11.88\""), "{}", no.message);
    move_to(&mut t, "blue", "bc", 10.5, 23.5).expect("5.5\" short of the orchard");
    // The core's own rough ground (terrain `rough`) costs the same.
    let core = table_of(CORE, "", FACE_OFF);
    let rules = core.game.rules();
    let rough = rules
        .terrain
        .iter()
        .position(|x| x.name == "rough")
        .expect("rough");
    let class = |name: &str| {
        rules
            .move_classes
            .iter()
            .find(|m| m.name == name)
            .expect("class")
            .enter[rough]
    };
    assert_eq!(class("foot"), Some(grognard_kernel::Cost::whole(6)));
    assert_eq!(class("horse"), Some(grognard_kernel::Cost::whole(9)));
    assert_eq!(class("guns"), Some(grognard_kernel::Cost::whole(6)));
    assert_eq!(class("skirmishers"), Some(grognard_kernel::Cost::ZERO));
}
