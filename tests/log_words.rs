//! The words of the command line's text log (issue 37): `grognard play` tells each deed
//! once, as the editor's log does (`grognard_play::text::repeats_order`): a flag set on the
//! piece whose order was just printed, that only says the order again ("fr_battery
//! artillery_fire at br_foot2 …", then "fr_battery has fired"; "fr_bde2 hold", then
//! "fr_bde2 is marked “order_hold”"), is left out. `--json` keeps every event. Run on the
//! bundled black-powder example and on the eleventh outside player's hand-haul game.

use crate::util::{Run, grognard, json_of};

const SCENARIO: &str = "examples/black-powder.yaml";
const ORDERS: &str = "examples/black-powder.orders.yaml";

fn ok(run: Run) -> Run {
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    run
}

/// The flags `--json` turns on for `piece` (by its number), in order.
fn flags_on(events: &[serde_json::Value], piece: u64) -> Vec<&str> {
    events
        .iter()
        .filter(|e| e["event"] == "flag_changed" && e["on"] == true && e["piece"] == piece)
        .filter_map(|e| e["flag"].as_str())
        .collect()
}

#[test]
fn play_tells_each_deed_once_and_json_keeps_every_event() {
    let text = ok(grognard(&["play", SCENARIO, "--orders", ORDERS])).stdout;
    let json = json_of(&ok(grognard(&[
        "play", SCENARIO, "--orders", ORDERS, "--json",
    ])));
    let events = json["events"].as_array().expect("events");
    // The example's pieces by number (scenario order): fr_bde1 0, fr_ligne 1, fr_battery 6.
    assert_eq!(flags_on(events, 6)[..2], ["fired", "fired"]);
    assert_eq!(flags_on(events, 0)[0], "order_assault");
    assert!(flags_on(events, 1).contains(&"charged"));
    // Worked by hand from the example's log: nine flag lines repeat the order printed
    // before them — six "has fired" (fr_battery twice, br_battery, br_foot1, fr_legere and
    // br_foot2), fr_ligne's "has charged", fr_bde1's "order_assault" and fr_hussars'
    // "support_charge_done" (a flag named for the order with `_done`, ed253cd) — and every
    // other event is one line.
    assert_eq!(flags_on(events, 5)[0], "support_charge_done");
    let lines = text.lines().count();
    assert_eq!(lines + 9, events.len(), "{text}");
    // prose: the order's line is there, its flag's line is not.
    for (order, flag) in [
        (
            "  fr_battery artillery_fire at br_foot2",
            "  fr_battery has fired",
        ),
        ("  br_foot1 shoot at fr_ligne", "  br_foot1 has fired"),
        ("  fr_ligne charge at br_foot1", "  fr_ligne has charged"),
        (
            "  fr_bde1 assault at br_foot1",
            "  fr_bde1 is marked “order_assault”",
        ),
    ] {
        assert!(text.contains(order), "missing `{order}` in:\n{text}");
        assert!(!text.contains(flag), "`{flag}` told again in:\n{text}");
    }
    // A flag on another piece than the one whose order it was is news, and stays.
    assert!(
        text.contains("  fr_hussars has been given an order"),
        "{text}"
    );
    // A side's text log drops the same lines.
    let blue = ok(grognard(&[
        "play", SCENARIO, "--orders", ORDERS, "--side", "blue",
    ]))
    .stdout;
    assert!(blue.contains("  fr_ligne charge at br_foot1"), "{blue}");
    assert!(!blue.contains("  fr_battery has fired"), "{blue}");
    assert!(!blue.contains("  fr_ligne has charged"), "{blue}");
    // fr_hussars' support charge is marked after its move and roll, not after its order:
    // that line is news, and is kept.
    assert!(blue.contains("  fr_hussars has charged"), "{blue}");
}

#[test]
fn the_hand_haul_game_reads_in_the_players_words() {
    // The eleventh outside player's game (issue 37, finding 2): fr_bde2 holds, orders
    // fr_battery to hand-haul, the roll fails (seed 1: score 2, no moves), and the Hold
    // order's free move (seed 003, l.1008) is the hand haul ordered (l.537-539, l.556).
    let dir = tempfile::tempdir().expect("tempdir");
    let orders = dir.path().join("haul.orders.yaml");
    std::fs::write(
        &orders,
        "orders:\n  - { side: blue, end_phase: true }\n  - { side: blue, end_phase: true }\n  - { side: blue, act: { piece: fr_bde2, action: hold } }\n  - { side: blue, act: { piece: fr_bde2, action: order, target: fr_battery, intent: [hand_haul] } }\n  - { side: blue, act: { piece: fr_battery, action: hand_haul } }\n  - { side: blue, move_to: { piece: fr_battery, to: [36, 42] } }\n",
    )
    .expect("orders");
    let orders = orders.to_str().expect("path");
    let args = ["play", SCENARIO, "--orders", orders, "--seed", "1"];
    let text = ok(grognard(&args)).stdout;
    let json = json_of(&ok(grognard(&[&args[..], &["--json"]].concat())));
    let events = json["events"].as_array().expect("events");
    // --json keeps the flags the text leaves out (fr_bde2 is piece 4, fr_battery 6).
    assert_eq!(flags_on(events, 4), ["order_hold", "command_failed"]);
    assert_eq!(
        flags_on(events, 6),
        ["ordered", "ordered_hand_haul", "hand_haul"]
    );
    // prose: what the player reads, in order — the order he gave, that it failed, why the
    // battery moves all the same and how, his hand haul and its move; nothing prolonged.
    let want = [
        "  fr_bde2 hold",
        "  fr_bde2 order at fr_battery (for hand_haul)",
        "score 2 → no_moves",
        "  fr_battery has been given an order",
        "  fr_bde2 is marked “command_failed”",
        "  note: fr_battery's order failed, but under fr_bde2's Hold order it still makes a free move",
        "  fr_battery moves 0 → 1",
        "  fr_battery is marked “ordered_hand_haul”",
        "  note: fr_battery's free move may be a hand haul, as ordered",
        "  fr_battery hand_haul",
        "  fr_battery moved (36\", 40\") → (36\", 42\"), 2\"",
        "  fr_battery moves 1 → 0",
    ];
    let mut rest = text.as_str();
    for w in want {
        let at = rest
            .find(w)
            .unwrap_or_else(|| panic!("missing `{w}` (in order) in:\n{text}"));
        rest = &rest[at + w.len()..];
    }
    for told_twice in [
        "fr_bde2 is marked “order_hold”",
        "fr_battery is marked “hand_haul”",
    ] {
        assert!(!text.contains(told_twice), "{told_twice} in:\n{text}");
    }
    assert!(!text.contains("prolong"), "{text}");
}
