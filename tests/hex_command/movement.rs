//! Hex Command movement (5, 6): allowances by arm, forward-only moves and facing, facing
//! changes, reach agreeing with play, zones of control, one unit a hex, obstacles,
//! buildings, forest, artillery push and limbering, fatigue and TE recovery, road columns.

use super::*;

/// 004 charts page, Movement: infantry 3, cavalry/commanders/couriers 5, limbered artillery
/// 2, wagons 3 hexes.
#[test]
fn movement_allowances_by_arm() {
    let pieces = "  - { id: i, side: blue, type: infantry, at: [0, 1], facing: E }\n  - { id: c, side: blue, type: cavalry, at: [0, 2], facing: E }\n  - { id: a, side: blue, type: artillery, at: [0, 3], facing: E, mode: limbered }\n  - { id: w, side: blue, type: wagon, at: [0, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [0, 5] }\n  - { id: k, side: blue, type: courier, at: [0, 6] }\n  - { id: r, side: red, type: infantry, at: [9, 7], facing: W }\n";
    let f = field(None, "", pieces, "");
    let east = |id: &str, row: i32, n: i32| -> String {
        let path: Vec<String> = (1..=n).map(|c| format!("[{c}, {row}]")).collect();
        order(
            "blue",
            &format!("move: {{ piece: {id}, path: [{}] }}", path.join(", ")),
        )
    };
    for (id, row, allowance) in [
        ("i", 1, 3),
        ("c", 2, 5),
        ("a", 3, 2),
        ("w", 4, 3),
        ("g", 5, 5),
        ("k", 6, 5),
    ] {
        ok(&f, &with(to_blue_movement(), &[east(id, row, allowance)]));
        refused(
            &f,
            &with(to_blue_movement(), &[east(id, row, allowance + 1)]),
            "the path costs",
        );
    }
}

/// 004 5d/5e: units face the way they move and cannot move backwards (about-face first).
#[test]
fn no_backward_moves_and_facing_follows_the_move() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [9, 7], facing: W }\n";
    let f = field(None, "", pieces, "");
    // 004 l.524 (about face, then move): a move may begin with the turn's facing change
    // (1 point) and step back; once the change is spent it may not.
    let p = f.json(
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[3, 4]] }")],
        ),
        &[],
    );
    assert_moved(&p, "b", &[(4, 4), (3, 4)], 2);
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[
                order("blue", "face: { piece: b, facing: NE }"),
                order("blue", "move: { piece: b, path: [[3, 4]] }"),
            ],
        ),
        "b steps only into the cells ahead of it (facing NE); (3,4) is to its side, and it has no facing change left this turn (at most 1)",
    );
    // Front hexes only, and each step turns the unit: E then NE then NE is fine.
    let p = f.json(
        &with(
            to_blue_movement(),
            &[order(
                "blue",
                "move: { piece: b, path: [[5, 4], [5, 3], [6, 2]] }",
            )],
        ),
        &[],
    );
    assert_moved(&p, "b", &[(4, 4), (5, 4), (5, 3), (6, 2)], 3);
    // About face first, then move west.
    ok(
        &f,
        &with(
            to_blue_movement(),
            &[
                order("blue", "face: { piece: b, facing: W }"),
                order("blue", "move: { piece: b, path: [[3, 4]] }"),
            ],
        ),
    );
}

/// 004 5.1 and the hand-out: one facing change a turn (cavalry two), before or after the
/// move, costing one movement point; none while in melee.
#[test]
fn facing_changes_once_a_turn_for_a_point() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [1, 4], facing: E }\n  - { id: c, side: blue, type: cavalry, at: [1, 6], facing: E }\n  - { id: m, side: blue, type: infantry, at: [1, 2], facing: E, flags: [in_melee] }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let face =
        |id: &str, dir: &str| order("blue", &format!("face: {{ piece: {id}, facing: {dir} }}"));
    let mv =
        |id: &str, path: &str| order("blue", &format!("move: {{ piece: {id}, path: {path} }}"));
    refused(
        &f,
        &with(to_blue_movement(), &[face("b", "SE"), face("b", "E")]),
        "b has already changed facing 1 time this turn",
    );
    ok(
        &f,
        &with(to_blue_movement(), &[face("c", "SE"), face("c", "E")]),
    );
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[face("c", "SE"), face("c", "E"), face("c", "NE")],
        ),
        "c has already changed facing 2 times this turn",
    );
    // Before the move: the change costs a point of the 3.
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[face("b", "SE"), mv("b", "[[1, 5], [2, 6], [2, 7]]")],
        ),
        "the path costs 3 by (2,7), but b has 2 in formed mode",
    );
    ok(
        &f,
        &with(
            to_blue_movement(),
            &[face("b", "SE"), mv("b", "[[1, 5], [2, 6]]")],
        ),
    );
    // After the move: only with a point left.
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[mv("b", "[[2, 4], [3, 4], [4, 4]]"), face("b", "NE")],
        ),
        "b has no movement point left to change facing",
    );
    ok(
        &f,
        &with(
            to_blue_movement(),
            &[mv("b", "[[2, 4], [3, 4]]"), face("b", "NE")],
        ),
    );
    refused(
        &f,
        &with(to_blue_movement(), &[face("m", "NE")]),
        "m is in melee and cannot change facing",
    );
    // The count starts again next turn.
    let mut o = with(to_blue_movement(), &[face("b", "SE")]);
    o.extend(whole_turn().split_off(2));
    o.extend(ends("blue", 2));
    o.push(face("b", "E"));
    ok(&f, &o);
}

/// 004 5d/5e and 5.1: `reach` knows what a move may do. It lists only cells reached through
/// the front hexes (each step turning the unit), never the hex behind; a facing change
/// before the move leaves one point less; cavalry turn twice, skirmishers step anywhere; a
/// fatigued unit reaches one hex (optional disorder rule: none), a halted one nothing. Every
/// listed path plays, every neighbour left out is refused.
#[test]
fn reach_agrees_with_play_on_facing_and_turning() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: E }\n  - { id: c, side: blue, type: cavalry, at: [4, 1], facing: E }\n  - { id: s, side: blue, type: skirmishers, at: [1, 6], facing: E }\n  - { id: t, side: blue, type: infantry, at: [7, 6], facing: W, counters: { te: 3 }, flags: [fatigued] }\n  - { id: h, side: blue, type: infantry, at: [1, 1], facing: E, flags: [halted] }\n  - { id: r, side: red, type: infantry, at: [9, 7], facing: W }\n";
    let f = field(None, "", pieces, "");
    let start = to_blue_movement();
    let cells = f.reach(&start, "b").expect("reach");
    let find = |cells: &[(String, i64, String)], c: &str| cells.iter().find(|x| x.0 == c).cloned();
    // Behind (W) and the two rear hexes are never one step away; the front three are.
    assert!(find(&cells, "[3, 4]").is_none_or(|x| x.1 > 1), "{cells:?}");
    assert_eq!(find(&cells, "[5, 4]").map(|x| x.1), Some(1));
    assert_eq!(find(&cells, "[4, 3]").map(|x| x.1), Some(1));
    assert_eq!(find(&cells, "[4, 5]").map(|x| x.1), Some(1));
    assert!(find(&cells, "[3, 3]").is_none_or(|x| x.1 > 1));
    assert!(cells.iter().all(|x| x.1 <= 3));
    assert!(cells.iter().any(|x| x.1 == 3));
    let n = reach_agrees_with_play(&f, &start, "b", (4, 4));
    assert!(n >= 10, "{n}");
    // About face (one point): the hexes behind open up, at most two hexes away.
    let turned = with(
        start.clone(),
        &[order("blue", "face: { piece: b, facing: W }")],
    );
    let cells = f.reach(&turned, "b").expect("reach");
    assert_eq!(find(&cells, "[3, 4]").map(|x| x.1), Some(1));
    assert!(find(&cells, "[5, 4]").is_none());
    assert!(cells.iter().all(|x| x.1 <= 2), "{cells:?}");
    reach_agrees_with_play(&f, &turned, "b", (4, 4));
    // Cavalry: 5 points, two facing changes; after both, 3 points left.
    let c = f.reach(&start, "c").expect("reach");
    assert!(c.iter().any(|x| x.1 == 5));
    let twice = with(
        start.clone(),
        &[
            order("blue", "face: { piece: c, facing: SE }"),
            order("blue", "face: { piece: c, facing: E }"),
        ],
    );
    let c2 = f.reach(&twice, "c").expect("reach");
    assert!(
        c2.iter().all(|x| x.1 <= 3) && c2.iter().any(|x| x.1 == 3),
        "{c2:?}"
    );
    reach_agrees_with_play(&f, &twice, "c", (4, 1));
    // Skirmishers may step back (5e).
    let s = f.reach(&start, "s").expect("reach");
    assert_eq!(find(&s, "[0, 6]").map(|x| x.1), Some(1));
    reach_agrees_with_play(&f, &start, "s", (1, 6));
    // Fatigued: one hex; ahead for 1 point, or any other after the turn's facing change
    // (004 l.524), for 2.
    let t = f.reach(&start, "t").expect("reach");
    assert_eq!(t.len(), 6, "{t:?}");
    assert_eq!(t.iter().filter(|x| x.1 == 1).count(), 3, "{t:?}");
    reach_agrees_with_play(&f, &start, "t", (7, 6));
    // Halted: no move at all.
    let err = f.reach(&start, "h").expect_err("halted");
    assert!(err.contains("h cannot move: it is halted"), "{err}");
}

/// Broken `turning` and `slowed_by` data are reported at their lines with suggestions.
#[test]
fn bad_turning_data_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("bad.yaml"),
        format!(
            "ruleset: bad\nextends: {}\npiece_types:\n  infantry:\n    turning: {{ forward_only: true, cost: 1, most: 1, counter: face_change }}\n  courier:\n    turning: {{ cost: -1 }}\nslowed_by:\n  - {{ flag: fatigue, max_steps: 1 }}\n  - {{ max_steps: 1 }}\n",
            root().join(RULESET).display()
        ),
    )
    .expect("write");
    let r = grognard_in(dir.path(), &["validate", "bad.yaml"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    for want in [
        "bad.yaml:5:63: unknown counter `face_change`",
        "did you mean `face_changes`?",
        "bad.yaml:7:22: piece type `courier`: `turning.cost` cannot be negative",
        "bad.yaml:9:13: unknown flag `fatigue`",
        "bad.yaml:10:5: a `slowed_by` entry needs `flag:`",
    ] {
        assert!(r.stderr.contains(want), "expected `{want}` in {}", r.stderr);
    }
}

/// 004 5.2: the zone of control is the three front hexes; entering one ends the move; a
/// unit with a hit (or fatigued, or in melee) has none.
#[test]
fn zone_of_control_stops_and_is_lost_with_a_hit() {
    let moving = "  - { id: b, side: blue, type: cavalry, at: [1, 4], facing: E }\n";
    let go = order(
        "blue",
        "move: { piece: b, path: [[2, 4], [3, 4], [4, 4], [5, 4]] }",
    );
    let f = field(
        None,
        "",
        &format!("{moving}  - {{ id: r, side: red, type: infantry, at: [4, 3], facing: SW }}\n"),
        "",
    );
    refused(
        &f,
        &with(to_blue_movement(), std::slice::from_ref(&go)),
        "entered the zone of control of r",
    );
    for lost in [
        "counters: { hits: 1 }",
        "flags: [fatigued]",
        "flags: [in_melee]",
    ] {
        let f = field(
            None,
            "",
            &format!(
                "{moving}  - {{ id: r, side: red, type: infantry, at: [4, 3], facing: SW, {lost} }}\n"
            ),
            "",
        );
        ok(&f, &with(to_blue_movement(), std::slice::from_ref(&go)));
    }
}

/// 004 5.3: one unit per hex; light infantry may pass through others (5f), a TE hit to
/// both.
#[test]
fn one_unit_per_hex_and_light_infantry_pass_through() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: l, side: blue, type: light_infantry, at: [1, 4], facing: E }\n  - { id: g, side: blue, type: artillery, at: [5, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [9, 7], facing: W }\n";
    let f = field(None, "", pieces, "");
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order(
                "blue",
                "move: { piece: b, path: [[3, 4], [4, 4], [5, 4]] }",
            )],
        ),
        // 7.5.1 l.406 lets it through the guns (thirtieth round); 5.3 keeps it off them.
        "b may pass through (5,4) but not stop there",
    );
    let p = f.json(
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: l, path: [[2, 4], [3, 4]] }")],
        ),
        &[],
    );
    assert_counted(&p, "b", "te", 0, 1);
    assert_counted(&p, "l", "te", 0, 1);
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: l, path: [[2, 4]] }")],
        ),
        "may pass through (2,4) but not stop there",
    );
}

/// 004 5.4: crossing an obstacle costs no movement but a TE hit, unless the unit started
/// its move at it; 5.5 a road negates it.
#[test]
fn obstacles_disorder_unless_started_at_or_on_a_road() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 6], facing: NE }\n  - { id: s, side: blue, type: infantry, at: [6, 5], facing: NE }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let wall = "    - { feature: wall, between: [[[3, 5], [3, 4]], [[6, 5], [6, 4]]] }\n";
    let f = field(None, wall, pieces, "");
    // (3,6) → (3,5) → over the wall to (3,4): disordered.
    let p = f.json(
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[3, 5], [3, 4]] }")],
        ),
        &[],
    );
    assert_counted(&p, "b", "te", 0, 1);
    // s starts at the wall: no TE.
    let played = f.json(
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: s, path: [[6, 4]] }")],
        ),
        &[],
    );
    assert!(played.find("moved", "s", |_| true).is_some());
    assert!(!counter_changed(&played, "s", "te"));
    let road = "    - { feature: wall, between: [[[3, 5], [3, 4]]] }\n    - { feature: road, path: [[3, 6], [3, 5], [3, 4]] }\n";
    let f = field(None, road, pieces, "");
    let played = f.json(
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[3, 5], [3, 4]] }")],
        ),
        &[],
    );
    assert!(played.find("moved", "b", |_| true).is_some());
    assert!(!counter_changed(&played, "b", "te"));
}

/// 004 5.6: moving into buildings disorders but does not stop the move.
#[test]
fn buildings_disorder_without_stopping() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . B . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(Some(map), "", pieces, "");
    let p = f.json(
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[3, 4], [4, 4]] }")],
        ),
        &[],
    );
    assert_moved(&p, "b", &[(2, 4), (3, 4), (4, 4)], 2);
    assert_counted(&p, "b", "te", 0, 1);
}

/// 004 5.5b: cavalry cannot enter forest except by road.
#[test]
fn cavalry_enter_forest_only_by_road() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . F F . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let pieces = "  - { id: c, side: blue, type: cavalry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(Some(map), "", pieces, "");
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: c, path: [[3, 4]] }")],
        ),
        "mounted troops may not enter a forest off the road: they must dismount before moving in (5b, 5.5b)",
    );
    let road = "    - { feature: road, path: [[2, 4], [3, 4], [4, 4], [5, 4]] }\n";
    let f = field(Some(map), road, pieces, "");
    ok(
        &f,
        &with(
            to_blue_movement(),
            &[order(
                "blue",
                "move: { piece: c, path: [[3, 4], [4, 4], [5, 4]] }",
            )],
        ),
    );
}

/// 004 3 Push Move and "Other notes": unlimbered guns may be pushed one hex on clear flat
/// ground for a TE hit, never uphill; limbering and unlimbering cost a TE hit each.
#[test]
fn artillery_push_and_limbering_cost_te() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . h . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let pieces = "  - { id: g, side: blue, type: artillery, at: [4, 4], facing: E, mode: unlimbered }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(Some(map), "", pieces, "");
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: g, path: [[5, 4]] }")],
        ),
        "guns cannot be pushed uphill: a push is over open, clear, flat ground (Artillery, Push Move)",
    );
    let p = f.json(
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: g, path: [[4, 3]] }")],
        ),
        &[],
    );
    assert_counted(&p, "g", "te", 0, 1);
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: g, path: [[4, 3], [5, 2]] }")],
        ),
        "the path costs",
    );
    let p = f.json(
        &with(
            to_blue_movement(),
            &[order("blue", "act: { piece: g, action: limber }")],
        ),
        &[],
    );
    assert_mode(&p, "g", "unlimbered", "limbered");
    assert_counted(&p, "g", "te", 0, 1);
}

/// 004 charts page, fatigue: the third TE hit fatigues a unit; a fatigued unit moves at
/// most one hex a turn; a turn without moving removes one TE hit.
#[test]
fn fatigue_and_te_recovery() {
    let pieces = "  - { id: b, side: blue, type: light_infantry, at: [1, 4], facing: E, counters: { te: 2 } }\n  - { id: f, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: t, side: blue, type: infantry, at: [1, 6], facing: E, counters: { te: 1 } }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let p = f.json(
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[2, 4], [3, 4]] }")],
        ),
        &[],
    );
    assert_counted(&p, "b", "te", 2, 3);
    assert_flag(&p, "b", "fatigued", true);
    let tired = "  - { id: b, side: blue, type: infantry, at: [1, 4], facing: E, counters: { te: 3 }, flags: [fatigued] }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f2 = field(None, "", tired, "");
    refused(
        &f2,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[2, 4], [3, 4]] }")],
        ),
        "b is fatigued and may move at most 1 cell; the path has 2",
    );
    ok(
        &f2,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[2, 4]] }")],
        ),
    );
    // A whole turn without moving: t recovers one TE at the turn's end.
    let p = f.json(&whole_turn(), &[]);
    assert_counted(&p, "t", "te", 1, 0);
}

// --- Roads, hills, skirmishers, heavy guns, pursuit, the supreme commander -------------

/// 004 5.5.1: a unit whose move ends along a road is in column and counts as flanked when
/// fired on (one CB to the firer), unless it deploys astride the road, disordered (a TE
/// hit); a move off the road ends the column.
#[test]
fn road_column_counts_flanked_until_deployed() {
    let road = "    - feature: road\n      path: [[1, 4], [2, 4], [3, 4], [4, 4], [5, 4]]\n";
    let pieces = "  - { id: b, side: blue, type: infantry, at: [1, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [6, 4], facing: W }\n";
    let red_fire = order("red", "act: { piece: r, action: fire, target: b }");
    let along = order("blue", "move: { piece: b, path: [[2, 4], [3, 4]] }");
    let f = field(None, road, pieces, "");
    let mut o = with(to_blue_movement(), std::slice::from_ref(&along));
    o.extend(ends("blue", 1));
    o.push(red_fire.clone());
    let p = f.json(&o, &[]);
    assert_flag(&p, "b", "on_road", true);
    assert!(fired_with(&p).is_some_and(|m| m.contains(&FLANK.to_owned())));
    // Deployed: a TE hit, no flank bonus.
    let mut o = with(
        to_blue_movement(),
        &[along, order("blue", "act: { piece: b, action: deploy }")],
    );
    o.extend(ends("blue", 1));
    o.push(red_fire.clone());
    let played = f.json(&o, &[]);
    assert!(
        played
            .find("counter_changed", "b", |e| e["counter"] == "te"
                && e["to"] == 1)
            .is_some()
    );
    assert!(fired_with(&played).is_some_and(|m| !m.contains(&FLANK.to_owned())));
    // The same move with no road: no column.
    let plain = field(None, "", pieces, "");
    let mut o = with(
        to_blue_movement(),
        &[order("blue", "move: { piece: b, path: [[2, 4], [3, 4]] }")],
    );
    o.extend(ends("blue", 1));
    o.push(red_fire);
    let played = plain.json(&o, &[]);
    assert_eq!(played.flag("b", "on_road", true), None);
    assert!(fired_with(&played).is_some_and(|m| !m.contains(&FLANK.to_owned())));
    refused(
        &plain,
        &with(
            to_blue_movement(),
            &[order("blue", "act: { piece: b, action: deploy }")],
        ),
        "b is not in column on a road: only a unit whose move ended along a road deploys astride it (5.5.1c)",
    );
}

/// The fire chart's modifier for a target's flank or rear.
const FLANK: &str = "target's flank or rear";

/// The names of the modifiers of the first fire roll in the events, if one was rolled.
fn fired_with(played: &crate::util::Played) -> Option<Vec<String>> {
    played
        .events
        .iter()
        .find(|e| {
            e["roll"]["chart"]
                .as_str()
                .is_some_and(|c| c.starts_with("fire_"))
        })
        .map(|e| {
            e["roll"]["modifiers"]
                .as_array()
                .map(|m| {
                    m.iter()
                        .filter_map(|x| x["name"].as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        })
}
