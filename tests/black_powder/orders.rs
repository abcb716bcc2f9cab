//! Orders and what they are for: reliable and unreliable re-rolls, gun orders and their
//! reliability, grande bande and opportunist penalties, reliable formations, support
//! charges, threatened zones faced, Hold, saves that keep intents, brigade orders (Assault
//! and its objective, Hold within command range).

use super::*;

#[test]
fn reliable_and_unreliable_orders_re_roll_command_dice() {
    // Base assumption (core notes): a Reliable unit re-rolls each command die showing a 6,
    // an Unreliable one must re-roll each die showing a 1; the second roll stands (the
    // amendments' skirmisher rule, read for a 2d6 roll where low is good).
    let core = ruleset(CORE);
    let plain = odds(&core, "command", &[("staff", 8)]);
    assert_eq!(p(&plain, "no_moves"), r(1, 4));
    let reliable = odds(&core, "command", &[("staff", 8), ("reliable", 1)]);
    assert_eq!(p(&reliable, "no_moves"), r(7, 48));
    assert_eq!(p(&reliable, "blunder"), r(1, 1296));
    assert_eq!(p(&reliable, "one_move"), r(77, 162));
    assert_eq!(p(&reliable, "two_moves"), r(49, 144));
    assert_eq!(p(&reliable, "three_moves"), r(49, 1296));
    let unreliable = odds(&core, "command", &[("staff", 8), ("unreliable", 1)]);
    assert_eq!(p(&unreliable, "no_moves"), r(49, 144));
    assert_eq!(p(&unreliable, "blunder"), r(49, 1296));
    assert_eq!(p(&unreliable, "three_moves"), r(1, 1296));
    // 003 Moving artillery: heavy guns are Unreliable when the order is a hand haul or a
    // prolong, light guns Reliable on prolong, horse batteries Unreliable when the order is
    // to unlimber; each rating counts only for an order given for that purpose.
    let club = ruleset(CLUB);
    for (rating, purpose, expected) in [
        ("unreliable_hand_haul", "hand_haul", r(49, 144)),
        ("unreliable_prolong", "prolong", r(49, 144)),
        ("reliable_prolong", "prolong", r(7, 48)),
        ("unreliable_unlimber", "unlimber", r(49, 144)),
    ] {
        let given = odds(&club, "command", &[("staff", 8), (rating, 1), (purpose, 1)]);
        assert_eq!(p(&given, "no_moves"), expected, "{rating} on {purpose}");
        let other = odds(&club, "command", &[("staff", 8), (rating, 1)]);
        assert_eq!(p(&other, "no_moves"), r(1, 4), "{rating} without {purpose}");
    }
}

#[test]
fn gun_orders_say_what_they_are_for_and_take_the_guns_reliability() {
    // 003 Moving artillery: the order says whether the guns hand-haul, prolong or
    // unlimber; the battery's rating for that purpose goes into the command roll.
    let mut t = table(GUNS);
    until_phase(&mut t, "blue", "command");
    let order = |t: &mut Table, who: &str, intent: &[&str]| {
        act_for(t, "blue", ("bde", "order", Some(who)), intent)
    };
    let heavy = order(&mut t, "heavy", &["hand_haul"]).expect("heavy hand haul");
    assert_eq!(
        roll_input(&heavy, "command", "unreliable_hand_haul"),
        Some(1)
    );
    assert_eq!(roll_input(&heavy, "command", "unreliable_prolong"), Some(0));
    assert!(flag(&t, "heavy", "ordered_hand_haul"));
    let light = order(&mut t, "light", &["prolong"]).expect("light prolong");
    assert_eq!(roll_input(&light, "command", "reliable_prolong"), Some(1));
    let horse = order(&mut t, "horse", &["unlimber"]).expect("horse unlimber");
    assert_eq!(
        roll_input(&horse, "command", "unreliable_unlimber"),
        Some(1)
    );
    // A foot battery has no rating: prolonging changes nothing for it.
    let foot = order(&mut t, "foot", &["prolong"]).expect("foot prolong");
    assert_eq!(roll_input(&foot, "command", "reliable_prolong"), Some(0));
    assert_eq!(roll_input(&foot, "command", "unreliable_prolong"), Some(0));
    assert!(flag(&t, "foot", "ordered_prolong"));

    // The order is held to what it said: a battery ordered to prolong does not hand-haul,
    // and one ordered without `prolong` does not move on prolong (the heavy guns' -1 could
    // otherwise be dodged).
    let mut t = table(GUNS);
    until_phase(&mut t, "blue", "command");
    order(&mut t, "heavy", &["prolong"]).expect("order");
    assert!(
        counter(&t, "heavy", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    let no = refused(act(&mut t, "blue", "heavy", "hand_haul", None));
    assert!(
        no.message.contains("not ordered to hand-haul"),
        "{}",
        no.message
    );
    move_to(&mut t, "blue", "heavy", 10.0, 37.0).expect("a prolong move");
    order(&mut t, "foot", &[]).expect("order");
    assert!(
        counter(&t, "foot", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    let no = refused(move_to(&mut t, "blue", "foot", 50.0, 37.0));
    assert!(
        no.message.contains("not ordered to move on prolong"),
        "{}",
        no.message
    );
    // An intent that does not fit the unit is refused, and so is one the action does not
    // declare (the kernel's check); neither rolls.
    let no = refused(order(&mut t, "light", &["unlimber"]));
    assert!(
        no.message.contains("cannot be ordered to unlimber"),
        "{}",
        no.message
    );
    let no = refused(order(&mut t, "light", &["retreat"]));
    assert_eq!(no.kind, RefusalKind::BadTarget);
    assert!(
        no.message.contains("cannot be given for `retreat`"),
        "{}",
        no.message
    );
    assert!(!flag(&t, "light", "ordered"));
}

#[test]
fn grande_bande_ordered_into_a_flank_zone_takes_minus_one_staff() {
    // 003 Grande Bande, Orders: -1 staff for any order that includes movement into either
    // flank zone. The order says so (intent `into_flank`); without it, no flank move.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: gb, side: blue, type: light_infantry, at: [30, 36], facing: 270, mode: grande_bande, attributes: { brigade: 1 } }\n  - { id: b1, side: blue, type: line_infantry, at: [40, 36], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let plain = act(&mut t, "blue", "bde", "order", Some("gb")).expect("order");
    assert_eq!(
        roll_input(&plain, "command", "grande_bande_into_flank"),
        Some(0)
    );
    assert!(
        counter(&t, "gb", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    // West is its flank zone (it faces north).
    let no = refused(move_to(&mut t, "blue", "gb", 26.0, 36.0));
    assert!(
        no.message.contains("not ordered into a flank zone"),
        "{}",
        no.message
    );
    move_to(&mut t, "blue", "gb", 30.0, 33.0).expect("forward is free");
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let flank = act_for(
        &mut t,
        "blue",
        ("bde", "order", Some("gb")),
        &["into_flank"],
    )
    .expect("order");
    assert_eq!(
        roll_input(&flank, "command", "grande_bande_into_flank"),
        Some(1)
    );
    assert!(
        counter(&t, "gb", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    move_to(&mut t, "blue", "gb", 26.0, 36.0).expect("ordered into its flank zone");
    // Only a grande bande is ordered into a flank zone.
    let no = refused(act_for(
        &mut t,
        "blue",
        ("bde", "order", Some("b1")),
        &["into_flank"],
    ));
    assert!(
        no.message
            .contains("cannot be ordered to move into a flank zone"),
        "{}",
        no.message
    );
}

#[test]
fn opportunists_ordered_to_charge_in_their_own_turn_take_minus_one() {
    // 003 Support Charge: opportunist chargers take -1 to the command check when ordered
    // to charge during their own turn; the order says so (intent `charge`).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: hus, side: blue, type: cavalry, at: [30, 30], facing: 270, attributes: { brigade: 1, opportunist: 1 } }\n  - { id: drg, side: blue, type: cavalry, at: [50, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 21], facing: 90, attributes: { brigade: 1 } }\n  - { id: r2, side: red, type: line_infantry, at: [50, 21], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let given = act_for(&mut t, "blue", ("bde", "order", Some("hus")), &["charge"]).expect("order");
    assert_eq!(roll_input(&given, "command", "opportunist_charge"), Some(1));
    assert!(flag(&t, "hus", "ordered_charge"));
    // Non-opportunists ordered to charge take nothing.
    let drg = act_for(&mut t, "blue", ("bde", "order", Some("drg")), &["charge"]);
    let events = drg.expect("order");
    assert_eq!(
        roll_input(&events, "command", "opportunist_charge"),
        Some(0)
    );
    // Ordered without saying so, an opportunist may not charge on that order.
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "bde", "order", Some("hus")).expect("order");
    let no = refused(act(&mut t, "blue", "hus", "cavalry_charge", Some("r1")));
    assert!(
        no.message.contains("not ordered to charge"),
        "{}",
        no.message
    );
    // The odds: -1 staff for the opportunist ordered to charge.
    let club = ruleset(CLUB);
    let minus = odds(
        &club,
        "command",
        &[("staff", 8), ("opportunist", 1), ("opportunist_charge", 1)],
    );
    assert_eq!(p(&minus, "no_moves"), r(14, 36));
}

#[test]
fn reliable_formations_optional_rule_adds_one_when_the_first_order_is_to_form() {
    // 003 Reliable Formations (optional, off by default): a unit Reliable in line or attack
    // column gets +1 staff when its first order is to change into that formation.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 36], facing: 270, mode: attack_column, attributes: { brigade: 1, reliable_line: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    let mut off = table(pieces);
    until_phase(&mut off, "blue", "command");
    let events = act_for(
        &mut off,
        "blue",
        ("bde", "order", Some("b1")),
        &["form_line"],
    )
    .expect("order");
    assert_eq!(
        roll_input(&events, "command", "reliable_formation"),
        Some(0)
    );
    let mut on = table_of(CLUB, "reliable_formations: true", pieces);
    until_phase(&mut on, "blue", "command");
    let events = act_for(
        &mut on,
        "blue",
        ("bde", "order", Some("b1")),
        &["form_line"],
    )
    .expect("order");
    assert_eq!(
        roll_input(&events, "command", "reliable_formation"),
        Some(1)
    );
    // The first order is to form line: it does so before it moves.
    assert!(
        counter(&on, "b1", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    let no = refused(move_to(&mut on, "blue", "b1", 30.0, 33.0));
    assert!(
        no.message.contains("ordered first to form line"),
        "{}",
        no.message
    );
    // Forming attack column when Reliable only in line gives nothing.
    let mut on = table_of(
        CLUB,
        "reliable_formations: true",
        &pieces.replace("attack_column", "line"),
    );
    until_phase(&mut on, "blue", "command");
    let events = act_for(
        &mut on,
        "blue",
        ("bde", "order", Some("b1")),
        &["form_attack_column"],
    )
    .expect("order");
    assert_eq!(
        roll_input(&events, "command", "reliable_formation_column"),
        Some(0)
    );
    let club = ruleset(CLUB);
    let plus = odds(
        &club,
        "command",
        &[
            ("staff", 8),
            ("reliable_formations", 1),
            ("reliable_line", 1),
            ("reliable_formation", 1),
        ],
    );
    assert_eq!(p(&plus, "no_moves"), r(5, 36));
}

#[test]
fn support_charge_is_minus_two_when_the_target_did_not_start_in_the_front_arc() {
    // 003 Support Charge: -2 to the command check if the enemy unit did not start (the
    // phase) in the cavalry's front arc. The kernel keeps where every unit stood as the
    // phase began (`game:phase_start`).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 40], facing: 270, attributes: { brigade: 1, staff: 8 } }\n  - { id: hus, side: blue, type: cavalry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: rbde, side: red, type: brigadier, at: [44, 10], facing: 90, attributes: { brigade: 1, staff: 12 } }\n  - { id: r1, side: red, type: line_infantry, at: [46, 27], facing: 180, attributes: { brigade: 1 } }\n";
    // r1 starts on the hussars' flank (wholly east of the 45-degree line from their front
    // right corner at (33.94, 29.02)), then moves into their front arc, 8.75" away edge to
    // edge (beyond the 7.92" they threaten infantry).
    let mut t = table(pieces);
    until_phase(&mut t, "red", "command");
    act(&mut t, "red", "rbde", "order", Some("r1")).expect("order");
    assert!(
        counter(&t, "r1", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    let to = Point::new(Len(42_000), Len(21_000));
    let r1 = id(&t, "r1");
    apply(
        &mut t,
        "red",
        Action::MoveTo {
            piece: r1,
            to,
            facing: None,
        },
    )
    .expect("r1 moves into the hussars' front arc");
    let events = act(&mut t, "blue", "hus", "support_charge", Some("r1")).expect("support charge");
    assert_eq!(
        roll_input(&events, "support_charge", "not_front_arc"),
        Some(1)
    );
    // A target that stood in the front arc as the phase began: no -2.
    let mut t = table(&pieces.replace("at: [46, 27]", "at: [42, 21]"));
    until_phase(&mut t, "red", "command");
    // 003 Support Charge: not against a unit moving by initiative — only one on an order.
    let no = refused(act(&mut t, "blue", "hus", "support_charge", Some("r1")));
    assert!(
        no.message.contains("not moving on an order"),
        "{}",
        no.message
    );
    act(&mut t, "red", "rbde", "order", Some("r1")).expect("order");
    let events = act(&mut t, "blue", "hus", "support_charge", Some("r1")).expect("support charge");
    assert_eq!(
        roll_input(&events, "support_charge", "not_front_arc"),
        Some(0)
    );
}

#[test]
fn a_unit_stops_in_the_zone_of_the_enemy_it_faces_and_may_not_enter_others() {
    // 003 Command Friction: units may not voluntarily move into threatened range unless
    // charging; moving toward the enemy, a unit must stop when threatened by the enemy it
    // is facing. Reading: the zone of the enemy faced may be entered (the move stops
    // there); the zone of an enemy not faced is closed.
    // r2 faces west; its front edge runs along x 45.21, y 26.85-33.15.
    let pieces = |b1: &str| {
        format!(
            "  - {{ id: bde, side: blue, type: brigadier, at: [34, 44], facing: 270, attributes: {{ brigade: 1, staff: 12 }} }}\n  - {{ id: b1, side: blue, type: line_infantry, {b1}, attributes: {{ brigade: 1 }} }}\n  - {{ id: r2, side: red, type: line_infantry, at: [46, 30], facing: 180, attributes: {{ brigade: 1 }} }}\n"
        )
    };
    let north = pieces("at: [33, 28], facing: 270");
    let mut t = table(&north);
    assert!(
        ordered(&mut t, "bde", "b1") >= 1,
        "staff 12 fails only on a blunder"
    );
    // Facing north, b1 does not face r2 (r2's bases lie east of the 45-degree line from
    // b1's front right corner): r2's 3.96" zone is closed to it. The move would end with
    // b1's right end 3.06" in front of r2's front edge.
    let no = refused(move_facing(&mut t, "b1", 39.0, 28.5, 270));
    assert_eq!(no.kind, RefusalKind::MustStop);
    assert!(no.message.contains("does not face it"), "{}", no.message);
    // Facing r2 (east), a move toward it is an approach: it stops where its front edge
    // enters r2's zone, 3.96" short of r2's front edge.
    let mut t = table(&pieces("at: [36, 29], facing: 0"));
    assert!(ordered(&mut t, "bde", "b1") >= 1);
    let stop = refused(move_facing(&mut t, "b1", 41.5, 29.0, 0));
    assert!(
        stop.message.contains("must stop at (40.464\""),
        "{}",
        stop.message
    );
    // The core reading has no threatened zones at all.
    let mut core = table_of(CORE, "", &north);
    assert!(ordered(&mut core, "bde", "b1") >= 1);
    move_facing(&mut core, "b1", 39.0, 28.5, 270).expect("no zones in the base reading");
}

#[test]
fn under_a_hold_order_the_staff_stand_does_not_move() {
    // 003 Brigade Orders, Hold: the staff stand may not move until its order is changed.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 8 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 36], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    assert_eq!(counter(&t, "bde", "moves"), 1);
    act(&mut t, "blue", "bde", "hold", None).expect("hold");
    let no = refused(move_to(&mut t, "blue", "bde", 30.0, 40.0));
    assert!(
        no.message.contains("staff stand may not move"),
        "{}",
        no.message
    );
    // Changing the order frees it.
    act(&mut t, "blue", "bde", "assault", Some("r1")).expect("assault");
    move_to(&mut t, "blue", "bde", 30.0, 40.0).expect("moves under Assault");
}

#[test]
fn a_save_keeps_what_an_order_was_for_and_replays() {
    // The intent is part of the order: the save writes it back and a replay reproduces the
    // roll it changed (the opportunists' -1 in the example's last order).
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("bp.save.json");
    let save = save.to_str().expect("path");
    let run = grognard(&[
        "play",
        "examples/black-powder.yaml",
        "--orders",
        "examples/black-powder.orders.yaml",
        "--save",
        save,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(save).expect("save");
    let json: serde_json::Value = serde_json::from_str(&text).expect("json");
    let last = json["orders"]
        .as_array()
        .and_then(|o| o.last())
        .expect("orders");
    assert_eq!(last["act"]["intent"], serde_json::json!(["charge"]));
    let run = grognard(&["replay", save]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("replay verified"), "{}", run.stdout);
}

#[test]
fn optional_rule_re_rolls_a_reliable_units_failed_order_and_an_unreliable_units_passed_one() {
    // Base assumption, other reading (optional rule `reliability_rerolls_orders`): Reliable
    // re-rolls a failed order, Unreliable must re-roll a passed one; the second result
    // stands, and the single-die re-rolls are off.
    let core = ruleset(CORE);
    let off = odds(
        &core,
        "command",
        &[("staff", 8), ("reliable", 1), ("by_outcome", 1)],
    );
    assert_eq!(p(&off, "no_moves"), r(1, 4));
    // Staff 2 all but always fails: the Reliable light battalion's order is rolled again.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 2 } }\n  - { id: lt, side: blue, type: light_infantry, at: [30, 36], facing: 270, attributes: { brigade: 1, reliable: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table_of(CLUB, "reliability_rerolls_orders: true", pieces);
    until_phase(&mut t, "blue", "command");
    let events = act(&mut t, "blue", "bde", "order", Some("lt")).expect("order");
    assert_eq!(roll_input(&events, "command", "reliable_dice"), Some(0));
    let results = rolls(&events, "command");
    assert_eq!(results.len(), 2, "{results:?}");
    assert_ne!(results[0], "one_move");
    // The second result stands: its moves, and a failure ends the brigadier's orders.
    let moves = match results[1].as_str() {
        "one_move" => 1,
        "two_moves" => 2,
        "three_moves" => 3,
        _ => 0,
    };
    if results[1] != "blunder" {
        assert_eq!(counter(&t, "lt", "moves"), moves);
    }
    assert_eq!(flag(&t, "bde", "command_failed"), moves == 0);
    // Staff 12 all but always passes: the Unreliable battalion must roll again.
    let pieces = pieces
        .replace("staff: 2", "staff: 12")
        .replace("reliable: 1", "unreliable: 1");
    let mut t = table_of(CLUB, "reliability_rerolls_orders: true", &pieces);
    until_phase(&mut t, "blue", "command");
    let events = act(&mut t, "blue", "bde", "order", Some("lt")).expect("order");
    assert_eq!(rolls(&events, "command").len(), 2);
    // Without the option, one roll with its dice re-rolled.
    let mut t = table_of(CLUB, "", &pieces);
    until_phase(&mut t, "blue", "command");
    let events = act(&mut t, "blue", "bde", "order", Some("lt")).expect("order");
    assert_eq!(rolls(&events, "command").len(), 1);
    assert_eq!(roll_input(&events, "command", "unreliable_dice"), Some(1));
}

#[test]
fn a_brigade_command_says_what_it_is_for_and_marks_the_units_it_fits() {
    // 003 Brigade Commands with the Support Charge's opportunist -1: one roll for the
    // command; the -1 applies when an opportunist of the command is ordered to charge.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: hus, side: blue, type: cavalry, at: [30, 30], facing: 270, attributes: { brigade: 1, opportunist: 1 } }\n  - { id: b1, side: blue, type: line_infantry, at: [40, 34], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let no = refused(act_for(
        &mut t,
        "blue",
        ("bde", "brigade_order", Some("b1")),
        &["prolong"],
    ));
    assert!(
        no.message
            .contains("no unit of the brigade command can move unlimbered guns on prolong"),
        "{}",
        no.message
    );
    let events = act_for(
        &mut t,
        "blue",
        ("bde", "brigade_order", Some("b1")),
        &["charge"],
    )
    .expect("brigade command");
    assert_eq!(
        roll_input(&events, "command", "opportunist_charge"),
        Some(1)
    );
    assert!(flag(&t, "hus", "ordered_charge"));
    assert!(flag(&t, "b1", "ordered_charge"));
}

// Mode changes held to the order, charges as moves, sudden charges, turning to face,
// rough ground

#[test]
fn the_acted_event_records_the_intent_and_old_logs_still_read() {
    // The log's Acted event keeps what the order was for; an empty intent is left out, so
    // logs written before intents existed read back unchanged.
    let mut t = table(HORSE_GUNS);
    until_phase(&mut t, "blue", "command");
    let events = act_for(
        &mut t,
        "blue",
        ("bde", "order", Some("horse")),
        &["unlimber"],
    )
    .expect("order");
    let acted = events
        .iter()
        .find(|e| matches!(e, Event::Acted { .. }))
        .expect("acted")
        .clone();
    let json = serde_json::to_string(&acted).expect("json");
    assert!(json.contains(r#""intent":["unlimber"]"#), "{json}");
    assert_eq!(serde_json::from_str::<Event>(&json).expect("reads"), acted);
    let old = r#"{"event":"acted","piece":1,"action":"assault","target":null,"roll":null}"#;
    let read: Event = serde_json::from_str(old).expect("an old log entry reads");
    assert!(matches!(&read, Event::Acted { intent, .. } if intent.is_empty()));
    assert_eq!(serde_json::to_string(&read).expect("json"), old);
}

#[test]
fn under_assault_infantry_and_artillery_may_move_into_threatened_range() {
    // 003 Brigade Orders, Assault: infantry and artillery may move to close range; Maneuver:
    // units may not voluntarily advance to close range. Reading: close range is the
    // threatened range. b1 faces north, r2 off its front arc: under Maneuver (the general
    // rule) r2's 3.96" zone is closed to it; under Assault on r2 it turns to face r2 and
    // runs into the zone without stopping — but not within the 4" limit (2.64" on the
    // table). r2 faces west; its front edge runs along x 45.21, y 26.85-33.15.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [34, 44], facing: 270, attributes: { brigade: 1, staff: 12, brigade_size: 3 } }\n  - { id: b1, side: blue, type: line_infantry, at: [36, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: bc, side: blue, type: cavalry, at: [10, 40], facing: 270, attributes: { brigade: 1 } }\n  - { id: ba, side: blue, type: foot_battery, at: [60, 44], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: r2, side: red, type: line_infantry, at: [46, 30], facing: 180, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(
        ordered(&mut t, "bde", "b1") >= 1,
        "staff 12 fails only on a blunder"
    );
    act(&mut t, "blue", "bde", "maneuver", None).expect("maneuver");
    assert!(!flag(&t, "b1", "may_close"));
    let no = refused(move_facing(&mut t, "b1", 38.5, 30.0, 270));
    assert!(no.message.contains("does not face it"), "{}", no.message);
    act(&mut t, "blue", "bde", "assault", Some("r2")).expect("assault");
    // Infantry and artillery may close; cavalry may not.
    assert!(flag(&t, "b1", "may_close") && flag(&t, "ba", "may_close"));
    assert!(!flag(&t, "bc", "may_close"));
    // The order turned b1 to face its objective (r2 lies due east of it).
    assert_eq!(facing_of(&t, "b1"), 0);
    // Front edge 2.42" from r2's: too close. 2.72": in the zone, outside the limit.
    let near = refused(move_facing(&mut t, "b1", 42.0, 30.0, 0));
    assert!(
        near.message.contains("may not come within"),
        "{}",
        near.message
    );
    move_facing(&mut t, "b1", 41.7, 30.0, 0).expect("into r2's zone under Assault");
    assert_eq!(at(&t, "b1"), (41.7, 30.0));
    // A new order takes the permission away again.
    act(&mut t, "blue", "bde", "reserve", None).expect("reserve");
    assert!(!flag(&t, "b1", "may_close") && !flag(&t, "ba", "may_close"));
}

#[test]
fn under_hold_infantry_close_with_the_enemy_only_within_command_range() {
    // 003 Brigade Orders, Hold: infantry may voluntarily advance to close range if they stay
    // in command range. Reading: close range is the threatened range, command range 12
    // table inches from the brigadier (setting `command_range`). b1 faces r2 across 10".
    let pieces = |bde: &str| {
        format!(
            "  - {{ id: bde, side: blue, type: brigadier, at: [{bde}], facing: 270, attributes: {{ brigade: 1, staff: 12 }} }}\n  - {{ id: b1, side: blue, type: line_infantry, at: [36, 30], facing: 0, attributes: {{ brigade: 1 }} }}\n  - {{ id: r2, side: red, type: line_infantry, at: [46, 30], facing: 180, attributes: {{ brigade: 1 }} }}\n"
        )
    };
    // The brigadier 8.43" from b1's bases where b1 ends (their corner at (40.91, 33.15)):
    // b1 runs into r2's zone.
    let mut t = table(&pieces("36, 40"));
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "bde", "hold", None).expect("hold");
    assert!(flag(&t, "b1", "may_close"));
    assert!(
        ordered(&mut t, "bde", "b1") >= 1,
        "Hold: a free move even on a failure"
    );
    move_facing(&mut t, "b1", 41.7, 30.0, 0).expect("within command range");
    assert_eq!(at(&t, "b1"), (41.7, 30.0));
    // The brigadier 12.86" away: the same move is refused.
    let mut t = table(&pieces("34, 44"));
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "bde", "hold", None).expect("hold");
    assert!(
        ordered(&mut t, "bde", "b1") >= 1,
        "Hold: a free move even on a failure"
    );
    let no = refused(move_facing(&mut t, "b1", 41.7, 30.0, 0));
    assert!(
        no.message
            .contains("beyond command range (12 inches) of bde")
            && no.message.contains("threatened range of r2"),
        "{}",
        no.message
    );
    assert_eq!(at(&t, "b1"), (36.0, 30.0));
}

#[test]
fn an_assault_names_its_objective_faces_it_and_closes_on_it() {
    // 003 Brigade Orders, Assault: the brigade moves toward its stated objective (Reading:
    // an enemy unit, the order's target); on the turn of the order its units face it (the
    // order turns them; their moves keep it in the front arc), and a brigade command must
    // include at least one move toward it.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12, brigade_size: 2 } }\n  - { id: b1, side: blue, type: line_infantry, at: [26, 36], facing: 90, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [34, 36], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 10], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let none = refused(act(&mut t, "blue", "bde", "assault", None));
    assert!(none.message.contains("target"), "{}", none.message);
    act(&mut t, "blue", "bde", "assault", Some("r1")).expect("assault");
    assert_eq!(
        counter(&t, "bde", "objective"),
        id(&t, "r1").index() as i32 + 1
    );
    // b1 faced south, away from r1 (at 279 degrees from it): the order turned it.
    assert_eq!(facing_of(&t, "b1"), 279);
    assert_eq!(facing_of(&t, "b2"), 270, "r1 already in b2's front arc");
    act(&mut t, "blue", "bde", "brigade_order", Some("b1")).expect("brigade command");
    let n = counter(&t, "b1", "moves");
    assert!(n >= 1, "staff 12 (+3) fails only on a blunder");
    assert_eq!(counter(&t, "b2", "moves"), n);
    // On the turn of the order a move may not turn away from the objective.
    let away = refused(move_facing(&mut t, "b2", 35.0, 36.0, 0));
    assert!(
        away.message
            .contains("must keep its objective r1 in its front arc"),
        "{}",
        away.message
    );
    // Reading: the command's first move must be the one toward r1 — a sideways step is
    // refused, by either unit.
    for (who, x) in [("b1", 25.0), ("b2", 35.0)] {
        let side = refused(move_facing(&mut t, who, x, 36.0, 270));
        assert!(
            side.message
                .contains("must include a move toward its objective r1: its first move"),
            "{}",
            side.message
        );
    }
    assert_eq!(at(&t, "b1"), (26.0, 36.0));
    move_facing(&mut t, "b2", 34.0, 32.0, 270).expect("toward r1");
    assert!(flag(&t, "bde", "assault_advanced"));
    // Then the others are free (sideways, still facing r1).
    move_facing(&mut t, "b1", 25.0, 36.0, 270).expect("sideways after the advance");
    // The objective stays on the brigadier for the orders to come.
    assert_eq!(
        counter(&t, "bde", "objective"),
        id(&t, "r1").index() as i32 + 1
    );
}

#[test]
fn an_assault_whose_turns_do_not_fit_is_refused_by_its_check_and_not_listed() {
    // The order turns b1 (facing east, its line running north-south) to face r1, to the
    // north: turned, its line runs east-west over b2's bases. The check (bp.assault_check,
    // game:can_stand_all) judges it before the script: refused, and the legal orders, which
    // list the order on the check's word, leave it out.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12, brigade_size: 2 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 36], facing: 0, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [34, 36], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 10], facing: 90, attributes: { brigade: 1 } }\n";
    let assault = |t: &Table| Action::Act {
        piece: id(t, "bde"),
        action: t.game.rules().action_by_name("assault").expect("assault"),
        target: Some(id(t, "r1")),
        intent: Vec::new(),
    };
    let listed = |t: &mut Table| {
        let side = t.game.side_by_name("blue").expect("blue");
        let order = assault(t);
        t.game.legal_orders(side, &mut t.hooks).contains(&order)
    };
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    assert!(
        !listed(&mut t),
        "an assault whose turn does not fit was listed"
    );
    let order = assault(&t);
    let no = refused(apply(&mut t, "blue", order));
    assert!(
        no.message.contains("b1's bases would overlap b2's"),
        "{}",
        no.message
    );
    assert_eq!(facing_of(&t, "b1"), 0, "the refused order turned nothing");
    // With b2 further east the turn fits: listed, and the order turns b1.
    let mut t = table(&pieces.replace("at: [34, 36]", "at: [40, 36]"));
    until_phase(&mut t, "blue", "command");
    assert!(listed(&mut t), "a fitting assault was not listed");
    let order = assault(&t);
    apply(&mut t, "blue", order).expect("assault");
    assert_eq!(facing_of(&t, "b1"), 270);
}

#[test]
fn a_charge_on_the_objective_is_the_assault_commands_move_toward_it() {
    // 003 Brigade Orders, Assault: units may charge; a brigade command must include a move
    // toward the objective — a charge on the objective is one (then the others are free).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12, brigade_size: 2 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 20], facing: 270, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [50, 36], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 14], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "bde", "assault", Some("r1")).expect("assault");
    act(&mut t, "blue", "bde", "brigade_order", Some("b1")).expect("brigade command");
    assert!(
        counter(&t, "b2", "moves") >= 2,
        "staff 12 (+3) gives two moves or more with this seed"
    );
    let side = refused(move_facing(&mut t, "b2", 52.0, 36.0, 250));
    assert!(side.message.contains("its first move"), "{}", side.message);
    act(&mut t, "blue", "b1", "charge", Some("r1")).expect("charge");
    assert!(flag(&t, "bde", "assault_advanced"));
    move_facing(&mut t, "b2", 52.0, 36.0, 250).expect("free after the charge");
}
