//! Charges: forming square, skirmish companies and grande bande charged in the open, contact
//! and closing fire, charges made with a move, sudden charges, sweeping advances, cavalry
//! turning to face.

use super::*;

#[test]
fn cavalry_charging_formed_infantry_rolls_to_form_square() {
    // 003 Must form square: only formed infantry in the open; the result sets the formation.
    // The charge is made on a successful order from 8.23" edge to edge (12.5 rule inches):
    // beyond the initiative range, to the front, so not a sudden charge.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: bc, side: blue, type: cavalry, at: [30, 32], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 22], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(
        ordered(&mut t, "bde", "bc") >= 1,
        "staff 12 succeeds with this seed"
    );
    let events = act(&mut t, "blue", "bc", "cavalry_charge", Some("r1")).expect("charge");
    let result = rolls(&events, "form_square");
    assert_eq!(result.len(), 1, "{events:?}");
    assert_eq!(roll_input(&events, "form_square", "sudden_charge"), Some(0));
    let squared = mode(&t, "r1") == "square";
    match result[0].as_str() {
        "square" | "square_and_fire" => assert!(squared && !flag(&t, "r1", "disordered")),
        "disordered_square" => assert!(squared && flag(&t, "r1", "disordered")),
        _ => assert!(!squared && flag(&t, "r1", "disordered")),
    }
    assert!(flag(&t, "bc", "locked") && flag(&t, "r1", "locked"));
}

#[test]
fn skirmish_company_charged_in_the_open_resolves_its_table() {
    // 003 Skirmish company charged in the open: its d6 table, never closing fire.
    // The charge is bi's initiative move (6" off: within the initiative range).
    let pieces = "  - { id: bi, side: blue, type: line_infantry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: rs, side: red, type: skirmish_company, at: [30, 24], facing: 90, attributes: { brigade: 1, reliable: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "initiative");
    let events = act(&mut t, "blue", "bi", "charge", Some("rs")).expect("charge");
    let result = rolls(&events, "skirmish_company_charged");
    assert_eq!(result.len(), 1, "{events:?}");
    // Against infantry every result retires the company: 003 Retire moves, to 8.1" on the
    // table straight away from the charger, still facing it. The charge put bi's front
    // edge against the company's (y 24.39); the company's bases (20 mm deep) end 8.1" from
    // it, their centre at 24.39 - 8.1 - 0.39.
    let (x, y) = at(&t, "rs");
    assert!(
        (x - 30.0).abs() < 0.002 && (y - 15.9).abs() < 0.002,
        "{result:?} {x},{y}"
    );
    assert!(!flag(&t, "rs", "must_retire"), "{result:?}");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::PlacedOnTable { reason, .. } if reason == "retire")),
        "{events:?}"
    );
    // A reliable company re-rolled a 1: the log shows a re-roll only when it rolled one.
    assert!(rolls(&events, "to_hit").is_empty());
}

#[test]
fn grande_bande_may_charge_only_skirmishers() {
    // 003 Grande bande: may charge only grandes bandes and skirmish companies while deployed.
    let pieces = "  - { id: bg, side: blue, type: light_infantry, at: [30, 30], facing: 270, mode: grande_bande, attributes: { brigade: 1, light: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 24], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let refusal = refused(act(&mut t, "blue", "bg", "charge", Some("r1")));
    assert!(
        refusal
            .message
            .contains("grandes bandes and skirmish companies"),
        "{}",
        refusal.message
    );
    // Light infantry reform: a save or a hit, back in line.
    let events = act(&mut t, "blue", "bg", "light_infantry_reform", None).expect("reform");
    assert_eq!(mode(&t, "bg"), "line");
    let saves = rolls(&events, "morale_save");
    let expected_hits = match saves.first().map(String::as_str) {
        Some("saved") => 0,
        Some("failed_on_one") if saves.get(1).map(String::as_str) != Some("saved") => 2,
        _ => 1,
    };
    assert_eq!(counter(&t, "bg", "hits"), expected_hits, "{saves:?}");
}

#[test]
fn charge_contact_one_unit_per_facing() {
    // 003 Charge contact: only one infantry unit may contact each facing, unless massed
    // attack columns.
    let pieces = "  - { id: b1, side: blue, type: line_infantry, at: [26.5, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [33.5, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: c1, side: blue, type: line_infantry, at: [58, 26], facing: 270, mode: attack_column, attributes: { brigade: 1 } }\n  - { id: c2, side: blue, type: line_infantry, at: [62, 26], facing: 270, mode: attack_column, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 20], facing: 90, attributes: { brigade: 1 } }\n  - { id: r2, side: red, type: line_infantry, at: [60, 20], facing: 90, attributes: { brigade: 1, shooting: 6 } }\n";
    let mut t = table(pieces);
    // Every charger is within the initiative range of its target: initiative charges.
    until_phase(&mut t, "blue", "initiative");
    act(&mut t, "blue", "b1", "charge", Some("r1")).expect("first charge");
    let second = refused(act(&mut t, "blue", "b2", "charge", Some("r1")));
    assert!(
        second.message.contains("already contacts that facing"),
        "{}",
        second.message
    );
    // 003 l.323-335: two attack columns charging one after the other are not a massed
    // column — that is one charge on a brigade command (`massed_charge`, tested in
    // `rulings`): the second is refused like any second unit on a facing.
    act(&mut t, "blue", "c1", "charge", Some("r2")).expect("first column");
    let second = refused(act(&mut t, "blue", "c2", "charge", Some("r2")));
    assert!(
        second.message.contains("already contacts that facing"),
        "{}",
        second.message
    );
}

#[test]
fn a_charge_is_made_with_a_move_from_an_order_or_the_initiative() {
    // Base reading (core notes): a charge is a move — a successful order's or an
    // initiative move's — and spends it. b1 stands 7" (10.6 rule inches) from r1: within
    // the initiative range; bc 10" (15.2) from r2: within its charge reach, beyond it.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [40, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 29], facing: 270, attributes: { brigade: 1 } }\n  - { id: bc, side: blue, type: cavalry, at: [42, 32], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 22], facing: 90, attributes: { brigade: 1 } }\n  - { id: r2, side: red, type: line_infantry, at: [42, 22], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "initiative");
    assert_eq!(counter(&t, "bc", "moves"), 0);
    let no = refused(act(&mut t, "blue", "bc", "cavalry_charge", Some("r2")));
    assert!(
        no.message.contains("no move to charge with"),
        "{}",
        no.message
    );
    // The initiative move may be a charge, and is spent by it.
    assert_eq!(counter(&t, "b1", "moves"), 1);
    act(&mut t, "blue", "b1", "charge", Some("r1")).expect("initiative charge");
    assert_eq!(counter(&t, "b1", "moves"), 0);
    // In the command phase a charge needs a successful order.
    until_phase(&mut t, "blue", "command");
    let no = refused(act(&mut t, "blue", "bc", "cavalry_charge", Some("r2")));
    assert!(
        no.message.contains("no move to charge with"),
        "{}",
        no.message
    );
    let events = act_for(&mut t, "blue", ("bde", "order", Some("bc")), &["charge"]).expect("order");
    assert_eq!(acted_intent(&events, "order"), ["charge"]);
    let moves = counter(&t, "bc", "moves");
    assert!(moves >= 1, "staff 12 succeeds with this seed");
    act(&mut t, "blue", "bc", "cavalry_charge", Some("r2")).expect("charge on the order");
    assert_eq!(
        counter(&t, "bc", "moves"),
        moves - 1,
        "the charge spends a move"
    );
    // The base reading: one command phase, the initiative move granted as it begins
    // (within 12 table inches there): b1 has one, bc (14" from r2) none.
    let core_pieces = pieces.replace("at: [42, 32]", "at: [42, 36]");
    let mut core = table_of(CORE, "", &core_pieces);
    assert_eq!(core.game.phase().expect("phase").0.name, "command");
    let no = refused(act(&mut core, "blue", "bc", "cavalry_charge", Some("r2")));
    assert!(
        no.message.contains("no move to charge with"),
        "{}",
        no.message
    );
    assert_eq!(counter(&core, "b1", "moves"), 1);
    act(&mut core, "blue", "b1", "charge", Some("r1")).expect("base initiative charge");
}

#[test]
fn sudden_charge_from_initiative_range() {
    // 003 Must Form Square, Sudden Charge: a charge from initiative range (the cavalry
    // stood within 8" of the square as the phase began) is -1 and disorders unless a 6.
    let pieces = "  - { id: bc, side: blue, type: cavalry, at: [30, 29], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 22], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "initiative");
    let events = act(&mut t, "blue", "bc", "cavalry_charge", Some("r1")).expect("charge");
    assert_eq!(roll_input(&events, "form_square", "sudden_charge"), Some(1));
    assert!(
        events.iter().any(|e| matches!(e, Event::Note { text }
            if text.contains("sudden charge (from initiative range)"))),
        "{events:?}"
    );
    let result = rolls(&events, "form_square");
    // -1: a natural 6 still forms square (and fires), 3-5 only a disordered square.
    match result[0].as_str() {
        "square_and_fire" | "square" => assert!(!flag(&t, "r1", "disordered")),
        _ => assert!(flag(&t, "r1", "disordered"), "{result:?}"),
    }
}

#[test]
fn sudden_charge_on_an_order_from_within_initiative_range_and_the_other_reading() {
    // 003 Sudden Charge from initiative range, read as where the charger stood as the phase
    // began: a charge on an order from 7" is sudden too; with the optional rule
    // `sudden_charge_on_initiative_only` only a charge on an initiative move is.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: bc, side: blue, type: cavalry, at: [30, 29], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 22], facing: 90, attributes: { brigade: 1 } }\n";
    for (options, sudden) in [("", 1), ("sudden_charge_on_initiative_only: true", 0)] {
        let mut t = table_of(CLUB, options, pieces);
        assert!(
            ordered(&mut t, "bde", "bc") >= 1,
            "staff 12 succeeds with this seed"
        );
        let events = act(&mut t, "blue", "bc", "cavalry_charge", Some("r1")).expect("charge");
        assert_eq!(
            roll_input(&events, "form_square", "sudden_charge"),
            Some(sudden),
            "{options}"
        );
    }
    // On an initiative move it is sudden under either reading.
    let mut t = table_of(CLUB, "sudden_charge_on_initiative_only: true", pieces);
    until_phase(&mut t, "blue", "initiative");
    let events = act(&mut t, "blue", "bc", "cavalry_charge", Some("r1")).expect("charge");
    assert_eq!(roll_input(&events, "form_square", "sudden_charge"), Some(1));
}

#[test]
fn sweeping_advance_charges_a_fresh_enemy_as_a_sudden_charge() {
    // Base reading: a sweeping advance — victorious cavalry charges a fresh enemy within one
    // move in its front arc; 003 Sudden Charge: a charge during a sweeping advance is sudden
    // (here r2 stood 11.7" away, to the square's front: only the sweep makes it sudden).
    let pieces = "  - { id: bc, side: blue, type: cavalry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: bc2, side: blue, type: cavalry, at: [42, 28], facing: 270, attributes: { brigade: 1 } }\n  - { id: rc, side: red, type: small_cavalry, at: [30, 24], facing: 90, attributes: { brigade: 1 } }\n  - { id: r2, side: red, type: line_infantry, at: [36, 20], facing: 90, attributes: { brigade: 2 } }\n";
    let mut checked = false;
    for seed in 1..80 {
        let mut t = table_seeded(CLUB, "", seed, pieces);
        until_phase(&mut t, "blue", "initiative");
        act(&mut t, "blue", "bc", "cavalry_charge", Some("rc")).expect("charge");
        until_phase(&mut t, "blue", "close_combat");
        act(&mut t, "blue", "bc", "melee", Some("rc")).expect("melee");
        if !flag(&t, "bc", "victory_move") || flag(&t, "bc", "locked") {
            continue;
        }
        // Only a unit that won may sweep on.
        let no = refused(act(&mut t, "blue", "bc2", "sweeping_advance", Some("r2")));
        assert!(
            no.message.contains("has not won a combat"),
            "{}",
            no.message
        );
        let events = act(&mut t, "blue", "bc", "sweeping_advance", Some("r2")).expect("sweep");
        assert_eq!(roll_input(&events, "form_square", "sudden_charge"), Some(1));
        assert!(
            events.iter().any(|e| matches!(e, Event::Note { text }
                if text.contains("sudden charge (during a sweeping advance)"))),
            "{events:?}"
        );
        assert!(
            !flag(&t, "bc", "victory_move"),
            "the sweep replaces the victory move"
        );
        assert!(flag(&t, "bc", "locked") && flag(&t, "r2", "locked"));
        checked = true;
        break;
    }
    assert!(checked, "no seed gave bc a free victory");
}

#[test]
fn cavalry_charged_in_the_flank_turn_to_face_the_charger() {
    // 003 Flank Attacks: cavalry may be able to turn and face the charging unit. Reading:
    // unless disordered, shaken or already in combat it does, and so is not attacked in the
    // flank; the optional rule `cavalry_flank_charges_stand` is the other reading.
    let pieces = "  - { id: b1, side: blue, type: line_infantry, at: [30, 27.5], facing: 270, attributes: { brigade: 1 } }\n  - { id: rc, side: red, type: cavalry, at: [30, 20], facing: 0, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "initiative");
    // rc faces east; b1, south of it, stands wholly in its flank zone (clear of the lines
    // drawn at 45 degrees from the corners of its 50 mm-deep, 7.88"-wide front and rear edges).
    act(&mut t, "blue", "b1", "charge", Some("rc")).expect("charge");
    assert_eq!(
        facing_of(&t, "rc"),
        90,
        "rc turned to face b1, to its south"
    );
    // It turned in contact: its front edge now against b1's (y 23.94, where b1's charge
    // met its flank), its centre half its 50 mm depth behind that.
    assert_eq!(at(&t, "rc"), (30.0, 22.953));
    // The other reading: it stays attacked in the flank.
    let mut t = table_of(CLUB, "cavalry_flank_charges_stand: true", pieces);
    until_phase(&mut t, "blue", "initiative");
    act(&mut t, "blue", "b1", "charge", Some("rc")).expect("charge");
    assert_eq!(facing_of(&t, "rc"), 0);
    // Disordered cavalry cannot turn.
    let disordered = pieces.replace(
        "facing: 0, attributes: { brigade: 1 } }",
        "facing: 0, flags: [disordered], attributes: { brigade: 1 } }",
    );
    let mut t = table(&disordered);
    until_phase(&mut t, "blue", "initiative");
    act(&mut t, "blue", "b1", "charge", Some("rc")).expect("charge");
    assert_eq!(facing_of(&t, "rc"), 0);
}
