//! Hex Command (seed 004), twenty-third round: the eighteenth outside audit's findings
//! (issue 33).

use serde_json::{Value, json};

use crate::util::{
    Played, Run, assert_reads_alike, count_events, events_of, grognard_in, json_of, play_json_in,
    root, side_reads_in,
};

const OUTSIDE18: &str = "tests/fixtures/audits/hex-command/twentythird/outside18";

fn run18(args: &[&str]) -> Run {
    grognard_in(&root().join(OUTSIDE18), args)
}

/// `play SCENARIO --orders ORDERS --json ARGS` in the fixture folder.
fn played18(scenario: &str, orders: &str, args: &[&str]) -> Played {
    let p = play_json_in(&root().join(OUTSIDE18), scenario, orders, args);
    assert_eq!((p.code, &p.refused), (0, &None), "{scenario} {orders}");
    p
}

/// The events of `view SCENARIO --side SIDE --json` in the fixture folder.
fn view_events(scenario: &str, side: &str) -> Vec<Value> {
    events_of(&json_of(&run18(&[
        "view", scenario, "--side", side, "--json",
    ])))
}

/// The words of every `announced` event.
fn announcements(events: &[Value]) -> Vec<&str> {
    (events.iter())
        .filter(|e| e["event"] == "announced")
        .filter_map(|e| e["text"].as_str())
        .collect()
}

/// Whether an enemy came on from out of sight to `cell` (an `enemy_moved` from nowhere).
fn came_on(events: &[Value], col: i64, row: i64) -> bool {
    let to = json!({"cell": {"col": col, "row": row}});
    (events.iter()).any(|e| e["event"] == "enemy_moved" && e["from"].is_null() && e["to"] == to)
}

/// Whether any event turns `blocking` on.
fn blocking(events: &[Value]) -> bool {
    (events.iter())
        .any(|e| e["event"] == "flag_changed" && e["flag"] == "blocking" && e["on"] == true)
}

// 004 l.514 (4b): the enemy is told the apparent strength of an arriving force only when its
// units occupy the entry hexes. The eighteenth audit's F6: red's r1 and r2 fill both hexes of
// entry place 1 ((11,0), (11,1)) and red's hidden r8 is due there on turn 2; blue's only unit
// b1 is at (3,8), far off. By hand: in turn 2's arrivals phase r8 finds no free hex and no
// blue piece on the place, so it waits a turn, and blue is told nothing: blue's six reads
// through red's turn 2 command phase are the same as in h26b (no r8 at all). It had read
// `red: 1 unit is arriving at entry place 1, which the enemy holds; they wait a turn`. Red
// reads why in its own command phase, which blue does not read.
#[test]
fn an_arrival_held_up_by_its_own_side_is_not_announced() {
    let with = side_reads_in(OUTSIDE18, "h26a.yaml", "o_h26r.orders.yaml", "blue");
    let without = side_reads_in(OUTSIDE18, "h26b.yaml", "o_h26r.orders.yaml", "blue");
    let blue = played18("h26a.yaml", "o_h26r.orders.yaml", &["--side", "blue"]);
    // Blue's log reaches red's turn 2 command phase (in_phase panics if not), unannounced.
    blue.in_phase(2, "command", "red");
    assert!(announcements(&blue.events).is_empty(), "{:?}", blue.events);
    assert_reads_alike(&with, &without, "h26a (r8 due) vs h26b (none)");
    let red = played18("h26a.yaml", "o_h26r.orders.yaml", &["--side", "red"]);
    assert!(announcements(&red.events).is_empty(), "{:?}", red.events);
    let why = "r8 is due but found no free hex at entry place 1 (its own side's pieces fill it); it waits a turn";
    let phase = red.in_phase(2, "command", "red");
    assert_eq!(
        phase.first(),
        Some(&json!({"event": "note", "text": why})),
        "{phase:?}"
    );
    // The referee: r8 is still off the board, due on turn 2.
    let referee = run18(&[
        "view",
        "h26a.yaml",
        "--orders",
        "o_h26r.orders.yaml",
        "--referee",
    ]);
    assert_eq!(referee.code, 0, "{}", referee.stderr);
    let state = json_of(&run18(&[
        "view",
        "h26a.yaml",
        "--orders",
        "o_h26r.orders.yaml",
        "--referee",
        "--json",
    ]));
    let r8 = (state["state"]["pieces"].as_array().into_iter().flatten())
        .find(|p| p["name"] == "r8")
        .unwrap_or_else(|| panic!("no r8: {state}"));
    assert_eq!(r8["place"], "off", "{r8}");
    // prose: the referee's line says when it arrives.
    assert!(
        referee
            .stdout
            .contains("r8         red, infantry, formed mode, off the board [arrives 2"),
        "{}",
        referee.stdout
    );
}

// The same with a lone blue commander on one hex of the place (r37.yaml): red's r8 comes on
// at (11,1), the other hex; r9 finds no hex free. A commander is no unit (l.514 speaks of
// units; 2a-b), so the place is not held and nothing is announced.
#[test]
fn a_lone_commander_on_the_place_holds_nothing_and_hears_nothing() {
    let blue = view_events("r37.yaml", "blue");
    assert!(
        came_on(&blue, 11, 1) && announcements(&blue).is_empty(),
        "{blue:?}"
    );
}

// 004 l.170 (integrity is checked when all commanders are killed), l.456 (10% for each
// commander lost), l.458 (reinforcements are their own force). The eighteenth audit's F2:
// red's only commander gen9 rides r9, a reinforcement due on turn 3 (h16a2.yaml, seed 2).
// He has not come on yet: he is neither killed nor lost. By hand: red has r1 on the board
// and nothing lost, so no integrity check is made in red's command phase, as with the same
// commander due on his own (h16d2) or no commander at all (h16b2). It had noted `red has
// lost all its commanders: integrity check`, and r1 rolled and withdrew, which blue saw.
#[test]
fn a_commander_still_to_arrive_is_not_lost() {
    for scenario in ["h16a2.yaml", "h16d2.yaml"] {
        let referee = played18(scenario, "o_h16s.orders.yaml", &[]);
        // Red's command phase is played, with no integrity note or roll in it, and r1 stays.
        let phase = referee.in_phase(1, "command", "red");
        let integrity = |e: &&Value| e.to_string().contains("integrity");
        assert!(
            !phase.iter().any(|e| integrity(&e)),
            "{scenario}: {phase:?}"
        );
        assert!(!referee.events.iter().any(|e| integrity(&e)), "{scenario}");
        assert!(
            !referee.has("removed", "r1", |_| true),
            "{scenario}: {:?}",
            referee.events
        );
    }
    let with = side_reads_in(OUTSIDE18, "h16a2.yaml", "o_h16s.orders.yaml", "blue");
    let without = side_reads_in(OUTSIDE18, "h16b2.yaml", "o_h16s.orders.yaml", "blue");
    assert_reads_alike(&with, &without, "h16a2 (gen9 riding r9) vs h16b2 (neither)");
}

// 004 l.514 (4b: enemy units on the entry hexes; the enemy is told the apparent strength of
// the arriving force), with 2a-b and 5.3 (a commander is a symbol of command, no unit; he
// weighs nothing in a hex) and the twentieth round's reading (a lone commander is on the table
// at any range). The eighteenth audit's F7: red's only arrival on turn 1 is the lone
// commander gen9, at entry place 1 ((11,0), (11,1)); blue's b1 stands on (11,1). Blue had read
// `red: 1 unit is arriving …` and b1 was marked blocking. By hand: he is no force the place
// keeps out, so he comes on at (11,0), the free hex, and blue sees him arrive (h28a). With b2
// on (11,0) too (h28c) no hex is free: he waits, blue is told `a commander is arriving`, and
// no blue unit is marked blocking (there is no force to make way for).
#[test]
fn a_lone_commander_arriving_is_no_unit_and_is_not_blocked() {
    let free = view_events("h28a.yaml", "blue");
    assert!(came_on(&free, 11, 0), "{free:?}");
    assert!(
        announcements(&free).is_empty() && !blocking(&free),
        "{free:?}"
    );
    let full = view_events("h28c.yaml", "blue");
    assert_eq!(
        announcements(&full),
        ["red: a commander is arriving at entry place 1, which the enemy holds; he waits a turn"]
    );
    assert!(!blocking(&full), "{full:?}");
}

/// The fire rolls of a referee's play of `scenario` with `orders`: each one's modifiers,
/// band and outcome.
fn fire_lines(scenario: &str, orders: &str) -> Vec<(Value, Value, Value)> {
    let p = played18(scenario, orders, &[]);
    (p.events.iter())
        .filter(|e| e["event"] == "rolled" && e["roll"]["chart"] == "fire_small_b")
        .map(|e| {
            let r = &e["roll"];
            assert_eq!(r["purpose"], "fire_small_b by b1 at m", "{r}");
            (
                r["modifiers"].clone(),
                r["band"].clone(),
                r["outcome"].clone(),
            )
        })
        .collect()
}

/// A fire roll's modifier named `name` worth `value`, in band `band`, with `outcome`.
fn fired(name: &str, value: i64, band: &str, outcome: &str) -> (Value, Value, Value) {
    (
        json!([{"name": name, "value": value}]),
        band.into(),
        outcome.into(),
    )
}

// 004 l.37 (each cover level one CP), l.558 (a unit on a road not deployed counts flanked when
// fired on), l.264 and l.467 (a spotted marker is returned to the surface: the real unit is on
// the table). The eighteenth audit's F1: a unit set up hidden kept the flag once revealed, and
// fire at it counted only its ground. By hand: in f1a, m (works 4: quick works, one level of
// cover; on clear ground) is set up hidden at (5,4), 2 hexes from b1 in the open; blue has
// identified it (`sighting seen`) when b1 fires in turn 1, by the arrivals roll (seed 30: red
// star; since the twenty-sixth round works are a trench that 3.1's 5 hexes do not see into,
// l.467, so it is no longer revealed at once): the shot counts `+1 target in cover`,
// band 2 (Code), cube red → miss, the same line as f1b, where m is set up in the open (it had
// read `band 1 (Color) → hit`). In f1c m stands on a road in column (`on_road`), revealed at 3
// hexes: `-1 target's flank or rear`, band 1, as f1d (it had read band 2 with no modifier). In
// h1r6 m is in buildings with its works at 6 hexes and spotted by the arrivals roll: `+2
// target in cover`, as h1v6 (set up unhidden); it had read `+1`.
#[test]
fn fire_at_an_identified_marker_counts_its_works_and_column() {
    let f1a = fire_lines("f1a.yaml", "o_f1.orders.yaml");
    assert_eq!(f1a, [fired("target in cover", 1, "Code", "miss")]);
    assert_eq!(f1a, fire_lines("f1b.yaml", "o_f1.orders.yaml"));
    let f1c = fire_lines("f1c.yaml", "o_f1.orders.yaml");
    assert_eq!(f1c, [fired("target's flank or rear", -1, "Color", "hit")]);
    assert_eq!(f1c, fire_lines("f1d.yaml", "o_f1.orders.yaml"));
    // Band 3 is Code'n Color.
    for scenario in ["h1r6.yaml", "h1v6.yaml"] {
        let lines = fire_lines(scenario, "o_h1.orders.yaml");
        assert!(!lines.is_empty(), "{scenario}");
        let in_cover = |(m, b, _): &(Value, Value, Value)| {
            (m, b)
                == (
                    &json!([{"name": "target in cover", "value": 2}]),
                    &json!("Code'n Color"),
                )
        };
        assert!(lines.iter().all(in_cover), "{scenario}: {lines:?}");
    }
}

// 004 l.252 (optional Disorder/Fatigued: at the maximum TE hits, 3, the unit is fatigued and
// must stop all further movement). The eighteenth audit's F4: b1 (2 TE hits) moving
// (3,8) → (3,7) → (3,6) → (3,5) crosses a wall between (3,7) and (3,6) (r34true) or enters the
// forest at (3,6) (r34f): its third TE hit is taken entering (3,6), yet it walked on to (3,5).
// By hand: the move may not go past (3,6), so the three-hex path is refused in the rule's
// words and `reach` lists no cell whose path goes through (3,6) further ((2,5) is reached only
// that way); the same move ending at (3,6) is accepted, and b1 is fatigued there.
#[test]
fn the_third_te_hit_mid_move_stops_the_move_under_disorder_fatigue() {
    for scenario in ["r34true.yaml", "r34f.yaml"] {
        let run = play_json_in(&root().join(OUTSIDE18), scenario, "o_r34.orders.yaml", &[]);
        // The script refuses it (the kernel's kind for a hook's refusal); prose: the rule is
        // named in the words.
        assert_eq!(
            run.refusal_kind.as_deref(),
            Some("hook_failed"),
            "{scenario}"
        );
        let why = run.refused.as_deref().unwrap_or_default();
        assert!(
            why.ends_with(
                "refused: b1 takes its third fatigue (TE) hit at (3,6) and must stop there (Disorder/Fatigued: no further movement)"
            ),
            "{scenario}: {why}"
        );
        assert_eq!(
            count_events(&run.events, "moved"),
            0,
            "{scenario}: {:?}",
            run.events
        );
        let short = played18(scenario, "o_r34s.orders.yaml", &[]);
        let path = json!([{"col": 3, "row": 8}, {"col": 3, "row": 7}, {"col": 3, "row": 6}]);
        let moved = short.find("moved", "b1", |e| e["path"] == path && e["cost"] == 200);
        assert!(moved.is_some(), "{:?}", short.events);
        assert!(
            short.flag("b1", "fatigued", true) > moved,
            "{:?}",
            short.events
        );
    }
    let reach = json_of(&run18(&["reach", "r34f.yaml", "--unit", "b1", "--json"]));
    let cells = reach["reach"].as_array().cloned().unwrap_or_default();
    let at = |c: [i64; 2]| cells.iter().find(|r| r["cell"] == json!(c));
    assert_eq!(
        at([3, 6]).map(|r| &r["cost_hundredths"]),
        Some(&json!(200)),
        "{reach}"
    );
    assert!(at([2, 5]).is_none(), "{reach}");
}
