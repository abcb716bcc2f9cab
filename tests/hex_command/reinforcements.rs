//! Hex Command reinforcements (4): arrival places, blockers withdrawing, bad set-ups named,
//! random entry places, and forced moves losing the TE recovery.

use super::*;
use crate::util::count_events;

/// 004 4a-4b: reinforcements set up off the board come on in the arrivals phase of their
/// turn at their entry place, one unit a hex; before then they are not on the board. When
/// the enemy holds the place they wait, the enemy is told how many are coming, and the
/// blocking unit may make two full moves away (and then not move again that turn); the
/// reinforcements come on the next turn.
#[test]
fn reinforcements_arrive_at_their_place_and_blockers_may_withdraw() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 6], facing: E }\n  - { id: ra, side: blue, type: infantry, off_board: true, facing: E, counters: { arrives: 2, entry: 1 } }\n  - { id: rb, side: blue, type: cavalry, off_board: true, facing: E, counters: { arrives: 2, entry: 1 } }\n  - { id: rc, side: blue, type: infantry, off_board: true, facing: W, counters: { arrives: 2, entry: 2 } }\n  - { id: x, side: red, type: infantry, at: [9, 3], facing: W }\n  - { id: r, side: red, type: infantry, at: [7, 7], facing: W }\n";
    let f = field_with_entries(pieces);
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: ra, path: [[1, 3]] }")],
        ),
        "ra is not on the board",
    );
    let mut turn_1 = whole_turn();
    turn_1.pop();
    // On --json: nothing arrives before the arrivals phase of turn 2; then ra and rb do,
    // and rc, whose place x holds, does not.
    let early = f.json(&turn_1, &[]);
    assert_eq!(
        count_events(&early.events, "arrived"),
        0,
        "{:?}",
        early.events
    );
    let p = f.json(&whole_turn(), &[]);
    let arrivals = p.in_phase(2, "arrivals", "blue");
    let arrived = |name: &str| {
        let piece = p.piece(name);
        (arrivals.iter()).any(|e| e["event"] == "arrived" && e["piece"] == piece)
    };
    assert!(
        arrived("ra") && arrived("rb") && !arrived("rc"),
        "{arrivals:?}"
    );
    assert_eq!(count_events(&p.events, "arrived"), 2, "{:?}", p.events);
    assert_arrived(&p, "ra", (0, 3), 1);
    assert_arrived(&p, "rb", (0, 4), 1);
    // The enemy is told how many wait (the announcement's words are its content).
    assert!(
        p.announced(
            "blue: 1 unit is arriving at entry place 2, which the enemy holds; they wait a turn"
        ),
        "{:?}",
        p.events
    );
    assert_flag(&p, "x", "blocking", true);
    // The arrivals move in Blue's movement phase like any unit.
    let mut o = with(whole_turn(), &ends("blue", 2));
    o.push(order("blue", "move: { piece: ra, path: [[1, 3], [2, 3]] }"));
    let p = f.json(&o, &[]);
    let ra = p.piece("ra");
    assert!(
        p.in_phase(2, "movement", "blue")
            .iter()
            .any(|e| e["event"] == "moved" && e["piece"] == ra)
    );
    // x withdraws two moves (6 hexes) away from the place, round r and its zone, to the
    // farthest hex it can reach (issue 33: no longer a straight line into the edge).
    let withdraw = order("red", "act: { piece: x, action: withdraw }");
    let p = f.json(
        &with(to_red_movement_turn_2(), std::slice::from_ref(&withdraw)),
        &[],
    );
    let why = "withdrew two moves from the arriving force";
    assert_placed(&p, "x", (9, 3), (5, 0), why);
    refused(
        &f,
        &with(
            to_red_movement_turn_2(),
            &[
                withdraw.clone(),
                order("red", "move: { piece: x, path: [[7, 6]] }"),
            ],
        ),
        "x cannot move: it is withdrawn",
    );
    refused(
        &f,
        &with(
            to_red_movement_turn_2(),
            &[order("red", "act: { piece: r, action: withdraw }")],
        ),
        "r blocks no arriving force: only a unit on their entry place may withdraw from them (4b)",
    );
    let mut o = with(to_red_movement_turn_2(), &[withdraw]);
    o.extend(ends("red", 1));
    o.extend(ends("blue", 1));
    o.extend(ends("red", 3));
    o.extend(ends("blue", 2));
    let p = f.json(&o, &[]);
    assert_arrived(&p, "rc", (9, 3), 2);
}

/// Asserts that `piece` arrived at `at` as a reinforcement at entry place `place`.
#[track_caller]
fn assert_arrived(p: &crate::util::Played, piece: &str, (col, row): (i64, i64), place: u32) {
    let why = format!("reinforcement arriving at entry place {place}");
    assert!(
        p.has("arrived", piece, |e| e["at"]
            == serde_json::json!({"col": col, "row": row})
            && e["reason"] == why),
        "expected {piece} arrived at ({col},{row}) ({why}) in {:?}",
        p.events
    );
}

/// Bad reinforcement set-ups are refused with the file and line: a piece both off the
/// board and placed; a reinforcement whose entry place the board does not have (the
/// arrivals hook fails and names the missing region).
#[test]
fn bad_reinforcement_setups_are_named() {
    let placed = "  - { id: b, side: blue, type: infantry, at: [2, 6], facing: E }\n  - { id: ra, side: blue, type: infantry, off_board: true, at: [3, 3], counters: { arrives: 2, entry: 1 } }\n  - { id: r, side: red, type: infantry, at: [7, 7], facing: W }\n";
    let f = field_with_entries(placed);
    let r = grognard_in(f.dir.path(), &["validate", "field.yaml"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    // prose: the error's words and its file and line are what this test is about.
    assert!(
        r.stderr
            .contains("piece `ra` starts off the board: give it no `at` or `spread`"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("field.yaml:"), "{}", r.stderr);
    let pieces = placed.replace(" at: [3, 3],", "");
    let f = field(None, "", &pieces, "");
    refused(
        &f,
        &whole_turn(),
        "unknown region `entry_1`: the scenario's board has none",
    );
}

/// 004 4d: with three places given, the side rolls a d6 for where its reinforcements come
/// on (1-2 the first, 3-4 the second, 5-6 the third); over seeds every place is used and
/// each arrival matches its roll.
#[test]
fn random_entry_place_by_the_d6() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 6], facing: E }\n  - { id: ra, side: blue, type: infantry, off_board: true, facing: E, counters: { arrives: 1 } }\n  - { id: r, side: red, type: infantry, at: [7, 7], facing: W }\n";
    let f = field_with_entries(pieces);
    let orders = ends("blue", 1);
    let mut seen = std::collections::BTreeSet::new();
    for seed in 1..=24 {
        let seed = seed.to_string();
        let p = f.json(&orders, &["--seed", &seed]);
        let roll = (p.events.iter())
            .map(|e| &e["roll"])
            .find(|r| r["purpose"] == "entry place of blue's reinforcements")
            .unwrap_or_else(|| panic!("no entry roll in {:?}", p.events));
        let face = roll["dice"][0]["value"].as_i64().unwrap_or_default();
        let (place, at) = match face {
            1 | 2 => (1, (0, 3)),
            3 | 4 => (2, (9, 3)),
            5 | 6 => (3, (5, 0)),
            _ => panic!("seed {seed}: no d6 face in {roll}"),
        };
        assert_arrived(&p, "ra", at, place);
        seen.insert(place);
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
}

/// 004 charts page, removing TE hits: a turn without moving removes one TE hit, but a unit
/// forced to move (here routed back by fire) or meleed loses the attempt for that turn.
#[test]
fn forced_moves_and_melee_lose_the_te_recovery() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [8, 4], facing: W }\n  - { id: r, side: red, type: infantry, at: [7, 4], facing: E, counters: { hits: 2, te: 1 } }\n  - { id: q, side: red, type: infantry, at: [8, 0], facing: W, counters: { te: 1 } }\n";
    let f = field(None, "", pieces, "");
    let mut o = with(to_blue_fire(), &[fire("b", "r")]);
    let rest: Vec<String> = whole_turn().split_off(o.len() - 1);
    o.extend(rest);
    // q recovers its TE hit, r (routed back, then on in Red's movement) does not.
    let p = f.json(&o, &[]);
    assert_placed(&p, "r", (7, 4), (4, 4), "routed");
    assert_placed(&p, "r", (4, 4), (1, 4), "routed");
    assert!(
        field::counted(&p, "q", "te", Some((1, 0))),
        "{:?}",
        p.events
    );
    assert!(
        !field::counted(&p, "r", "te", Some((1, 0))),
        "{:?}",
        p.events
    );
    // Meleed, though the melee is over by the turn's end (the attacker routed): the
    // defender, which did not move, still does not recover.
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E, counters: { hits: 2 } }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, counters: { te: 1 } }\n";
    let f = field(None, "", pieces, "");
    let mut o = with(to_blue_melee(), &[melee("b", "r")]);
    let rest: Vec<String> = whole_turn().split_off(o.len() - 1);
    o.extend(rest);
    over_seeds_json(&f, &o, &["attacker hit"], |outcome, p| {
        if outcome == "attacker hit" {
            assert!(p.flag("b", "routed", true).is_some(), "{:?}", p.events);
            assert!(p.flag("r", "in_melee", false).is_some(), "{:?}", p.events);
            assert!(
                !field::counted(p, "r", "te", Some((1, 0))),
                "{:?}",
                p.events
            );
        }
    });
}

// --- Fire -------------------------------------------------------------------------------
