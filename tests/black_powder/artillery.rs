//! Artillery: limbering costs a move, unlimbered guns move on prolong, and guns unlimber
//! only on an order to unlimber (or on their initiative move).

use super::*;

#[test]
fn limbering_costs_a_move_and_unlimbered_guns_move_on_prolong() {
    // 003 Moving artillery: limbering always costs one move; unlimbered foot guns move 6"
    // (3.96" on the table) on prolong, light guns 12".
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: ba, side: blue, type: foot_battery, at: [30, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let limber = t
        .game
        .rules()
        .modes
        .iter()
        .position(|m| m.name == "limbered")
        .expect("mode");
    let ba = id(&t, "ba");
    let limbered = grognard_kernel::ids::ModeId(limber as u16);
    let refusal = refused(apply(
        &mut t,
        "blue",
        Action::Mode {
            piece: ba,
            mode: limbered,
        },
    ));
    assert!(
        refusal.message.contains("costs a move"),
        "{}",
        refusal.message
    );
    let moves = ordered_for(&mut t, "bde", "ba", &["prolong"]);
    assert!(moves >= 1, "staff 12 succeeds with this seed");
    let too_far = refused(move_to(&mut t, "blue", "ba", 30.0, 36.0));
    assert!(too_far.message.contains("3.96\""), "{}", too_far.message);
    move_to(&mut t, "blue", "ba", 30.0, 36.1).expect("3.9\" on prolong");
    assert!(flag(&t, "ba", "prolonged"));
    if counter(&t, "ba", "moves") > 0 {
        apply(
            &mut t,
            "blue",
            Action::Mode {
                piece: ba,
                mode: limbered,
            },
        )
        .expect("limber with a move left");
        assert_eq!(mode(&t, "ba"), "limbered");
    }
}

#[test]
fn guns_unlimber_only_on_an_order_to_unlimber() {
    // 003 Moving Artillery: unlimbering is free at the end of a move, but the order to
    // unlimber must be part of the order (horse batteries Unreliable on it). The ruleset's
    // `mode_changed` hook refuses the mode order otherwise.
    let mut t = table(HORSE_GUNS);
    until_phase(&mut t, "blue", "command");
    let no = refused(set_mode(&mut t, "blue", "horse", "unlimbered"));
    assert_eq!(no.kind, RefusalKind::HookFailed);
    assert!(
        no.message.contains("not ordered to unlimber"),
        "{}",
        no.message
    );
    assert_eq!(
        mode(&t, "horse"),
        "limbered",
        "a refused change changes nothing"
    );
    // An order that does not say so does not allow it either.
    act(&mut t, "blue", "bde", "order", Some("horse")).expect("order");
    assert!(counter(&t, "horse", "moves") >= 1);
    let still = refused(set_mode(&mut t, "blue", "horse", "unlimbered"));
    assert!(
        still.message.contains("not ordered to unlimber"),
        "{}",
        still.message
    );
    // Ordered to unlimber (Unreliable: the rating goes into the roll), it may.
    let mut t = table(HORSE_GUNS);
    until_phase(&mut t, "blue", "command");
    let events = act_for(
        &mut t,
        "blue",
        ("bde", "order", Some("horse")),
        &["unlimber"],
    )
    .expect("order to unlimber");
    assert_eq!(
        roll_input(&events, "command", "unreliable_unlimber"),
        Some(1)
    );
    assert_eq!(acted_intent(&events, "order"), ["unlimber"]);
    assert!(flag(&t, "horse", "ordered_unlimber"));
    move_to(&mut t, "blue", "horse", 40.0, 36.0).expect("a move first");
    set_mode(&mut t, "blue", "horse", "unlimbered").expect("then unlimber, free");
    assert_eq!(mode(&t, "horse"), "unlimbered");
    // Limbering is not held to the order (it costs a move instead); the base reading has
    // no such check at all.
    let mut core = table_of(CORE, "", HORSE_GUNS);
    set_mode(&mut core, "blue", "horse", "unlimbered").expect("base reading: no check");
}

#[test]
fn guns_in_initiative_range_unlimber_on_their_initiative_move() {
    // 003 Moving Artillery with the turn sequence: an initiative move is not an order;
    // Reading: a battery with an initiative move (an enemy within 8") may unlimber then.
    let near = HORSE_GUNS.replace("at: [64, 3], facing: 90", "at: [40, 33], facing: 90");
    let mut t = table(&near);
    until_phase(&mut t, "blue", "initiative");
    set_mode(&mut t, "blue", "horse", "unlimbered").expect("initiative unlimber");
    let mut t = table(HORSE_GUNS);
    until_phase(&mut t, "blue", "initiative");
    let no = refused(set_mode(&mut t, "blue", "horse", "unlimbered"));
    assert!(no.message.contains("no initiative move"), "{}", no.message);
}

#[test]
fn a_failed_order_marks_no_intent_except_the_free_unlimber() {
    // What an order is for counts only when it succeeds; 003 Moving Artillery: limbered
    // guns failing an order still get their free move and may unlimber at its end, if the
    // order said so. A staff 2 brigadier fails every order but a double 1.
    let weak = HORSE_GUNS.replace("staff: 12", "staff: 2")
        + "  - { id: foot, side: blue, type: foot_battery, at: [50, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n";
    let mut checked = (false, false);
    for seed in 1..80 {
        let mut t = table_seeded(CLUB, "", seed, &weak);
        until_phase(&mut t, "blue", "command");
        let events = act_for(
            &mut t,
            "blue",
            ("bde", "order", Some("horse")),
            &["unlimber"],
        )
        .expect("order");
        if rolls(&events, "command") != ["no_moves"] {
            continue;
        }
        // The log keeps what the failed order was for.
        assert_eq!(acted_intent(&events, "order"), ["unlimber"]);
        assert_eq!(
            counter(&t, "horse", "moves"),
            1,
            "the limbered guns' free move"
        );
        assert!(flag(&t, "horse", "ordered_unlimber"));
        set_mode(&mut t, "blue", "horse", "unlimbered").expect("unlimber on the free move");
        checked.0 = true;
        // Another failed order (next turn) given to prolong marks nothing.
        until_phase(&mut t, "red", "command");
        until_phase(&mut t, "blue", "command");
        let events =
            act_for(&mut t, "blue", ("bde", "order", Some("foot")), &["prolong"]).expect("order");
        if rolls(&events, "command") == ["no_moves"] {
            assert_eq!(acted_intent(&events, "order"), ["prolong"]);
            assert!(!flag(&t, "foot", "ordered_prolong"));
            assert!(flag(&t, "foot", "ordered"));
            checked.1 = true;
        }
        if checked.0 && checked.1 {
            break;
        }
    }
    assert!(checked.0 && checked.1, "no seed failed both orders plainly");
}

/// The opening of the example up to fr_bde2's Hold and its order to fr_battery (unlimbered
/// foot guns) given for `intent`, then `rest`: with the dice seed 1 the order scores 2, no
/// moves (the eleventh outside editor player's game, issue 37).
fn hold_then_order_the_guns(intent: &str, rest: &str) -> crate::util::Played {
    let dir = tempfile::tempdir().expect("tempdir");
    let orders = dir.path().join("o.yaml");
    let text = format!(
        "orders:\n  - {{ side: blue, end_phase: true }}\n  - {{ side: blue, end_phase: true }}\n  - {{ side: blue, act: {{ piece: fr_bde2, action: hold }} }}\n  - {{ side: blue, act: {{ piece: fr_bde2, action: order, target: fr_battery, intent: [{intent}] }} }}\n{rest}"
    );
    std::fs::write(&orders, text).expect("orders");
    let played = crate::util::play_json_in(
        &root(),
        "examples/black-powder.yaml",
        orders.to_str().expect("path"),
        &["--seed", "1"],
    );
    let order = played
        .find("acted", "fr_bde2", |e| e["action"] == "order")
        .expect("the order");
    assert_eq!(played.events[order]["roll"]["outcome"], "no_moves");
    assert!(played.flag("fr_bde2", "command_failed", true).is_some());
    played
}

#[test]
fn under_hold_a_failed_order_gives_unlimbered_guns_the_free_move_it_named() {
    // 003 Brigade Orders, Hold (../shared/seeds/003_2cb9e4d8a452c8b7.txt, l.1008): a failed
    // order still gives a free move. 003 Moving Artillery (l.537-539): limbered guns use
    // theirs as ordered (moving and unlimbering); Reading: so do unlimbered guns, whose
    // every move is a prolong or a hand haul (l.543-559). The hand haul (l.556) is their one
    // move, and no prolong (l.550-554): the battery is never marked `prolonged` (fire -1).
    let hauled = hold_then_order_the_guns(
        "hand_haul",
        "  - { side: blue, act: { piece: fr_battery, action: hand_haul } }\n  - { side: blue, move_to: { piece: fr_battery, to: [36, 42] } }\n",
    );
    assert_eq!(hauled.refused, None);
    assert!(hauled.has("counter_changed", "fr_battery", |e| {
        e["counter"] == "moves" && e["from"] == 0 && e["to"] == 1
    }));
    // prose: the log says why a failed order gives a move, and what the move may be.
    let notes: Vec<&str> = (hauled.events.iter())
        .filter(|e| e["event"] == "note")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(
        notes,
        [
            "fr_battery's order failed, but under fr_bde2's Hold order it still makes a free move",
            "fr_battery's free move may be a hand haul, as ordered",
        ]
    );
    assert!(
        hauled
            .flag("fr_battery", "ordered_hand_haul", true)
            .is_some()
    );
    assert!(hauled.flag("fr_battery", "hand_haul", true).is_some());
    let moved = hauled.moved_on_table("fr_battery").expect("hand-hauled");
    assert!(crate::util::on_table_to(moved, 36.0, 42.0, 2.0), "{moved}");
    assert_eq!(hauled.flag("fr_battery", "prolonged", true), None);

    // An order that named neither leaves the free move nothing the guns may do: no prolong
    // (heavy guns' Unreliable rating rides on the order naming it) and no hand haul.
    let plain = hold_then_order_the_guns(
        "",
        "  - { side: blue, move_to: { piece: fr_battery, to: [36, 42] } }\n",
    );
    let no = plain.refused.as_deref().expect("refused");
    assert!(no.contains("not ordered to move on prolong"), "{no}");
    assert_eq!(plain.flag("fr_battery", "prolonged", true), None);
    assert_eq!(plain.moved_on_table("fr_battery"), None);
}

#[test]
fn guns_are_marked_prolonged_by_a_prolong_move_not_by_the_order() {
    // 003 Prolong (l.550-554): the -1 is for firing after a move on prolong; an order that
    // gives moves is no move. Under Hold, a failed order given to prolong is one prolong.
    let prolonged = hold_then_order_the_guns(
        "prolong",
        "  - { side: blue, move_to: { piece: fr_battery, to: [36, 42] } }\n",
    );
    assert_eq!(prolonged.refused, None);
    let order = prolonged
        .find("acted", "fr_bde2", |e| e["action"] == "order")
        .expect("order");
    let moved = prolonged
        .find("moved_on_table", "fr_battery", |_| true)
        .expect("a move on prolong");
    let marked = prolonged
        .flag("fr_battery", "prolonged", true)
        .expect("marked by the move");
    assert!(order < moved && moved < marked, "{order} {moved} {marked}");
}
