//! Hex Command (seed 004), nineteenth round: the fourteenth outside audit (issue 33), on
//! positions in tests/fixtures/audits/hex-command/nineteenth/ (the auditor's, with the ruleset
//! path made relative). Each ruling is worked by hand.

use serde_json::{Value, json};

use crate::util::{
    Played, assert_reads_alike, events_of, grognard_in, json_of, orders_with, play_json_in, root,
    side_reads, side_runs,
};

/// `play SCENARIO --orders ORDERS --json ARGS` in the fixture folder.
fn played(scenario: &str, orders: &str, args: &[&str]) -> Played {
    play_json_in(&root().join(DIR), scenario, orders, args)
}

/// Blue's `play --json` events (the second of `SIDE_READS`) in `reads`.
fn log_events(reads: &[String]) -> Vec<Value> {
    let json = reads[1].trim_end();
    events_of(&serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}")))
}

/// Blue's view of enemy `handle` (its `view --json`, the fourth read): where it stands and
/// how it faces.
fn marker(reads: &[String], handle: u64) -> (Value, Value) {
    let v: Value = serde_json::from_str(reads[3].trim_end()).expect("view --json");
    (v["view"]["enemy"].as_array().into_iter().flatten())
        .find(|e| e["handle"] == handle)
        .map(|e| (e["place"]["cell"].clone(), e["facing_name"].clone()))
        .unwrap_or_else(|| panic!("no #{handle}: {v}"))
}

const DIR: &str = "tests/fixtures/audits/hex-command/nineteenth";

fn run(args: &[&str]) -> (i32, String) {
    let r = grognard_in(&root().join(DIR), args);
    (r.code, format!("{}{}", r.stdout, r.stderr))
}

fn ok(args: &[&str]) -> String {
    let (code, out) = run(args);
    assert_eq!(code, 0, "{args:?}: {out}");
    out
}

/// Everything `side` receives of a game of `scenario` played to the end of `orders`
/// ([`SIDE_READS`](crate::util::SIDE_READS)), each answer's stdout and stderr.
fn reads(scenario: &str, orders: &str, side: &str) -> Vec<String> {
    let run = |args: &[&str]| grognard_in(&root().join(DIR), args);
    side_reads(side_runs(run, scenario, orders, side), true)
}

/// Blue's reads are the same, byte for byte, in every one of `scenarios`.
fn same_for_blue(scenarios: &[&str]) -> Vec<String> {
    let first = reads(scenarios[0], "rout.orders.yaml", "blue");
    for other in &scenarios[1..] {
        let next = reads(other, "rout.orders.yaml", "blue");
        assert_reads_alike(
            &first,
            &next,
            &format!("blue, {} and {other}", scenarios[0]),
        );
    }
    first
}

// 004 l.405 (7.5.1: a unit cannot move/rout through an enemy unit), l.399 (a rout into the
// enemy is destruction), 3.1 l.467 and l.264 (a marker is revealed by spotting; the enemy
// knows its place and facing and nothing else). Reading (note, nineteenth round): a rout
// meets a marker its side has not identified as an enemy unit, real or fake, as movement
// does (a fake holds its hex); the routed unit is destroyed and the marker is not unmasked
// (a rout is no fight and no spotting). By hand, rout-b{f,d,r}.yaml differ only in rM at
// (8,4), facing E, in forest (so not revealed at 5 hexes): a fake, hidden infantry with one
// hit, fresh hidden infantry. bR (5,4), facing W, 2 hits, is shot by rX from (4,4) at point
// blank (automatic hit): its third hit routs it; it turns E and falls back (6,4), (7,4),
// then (8,4), rM's hex: destroyed. Before this round the fake let bR stop at (7,4) alive, the
// fake still shown as a marker, so blue learnt it was a fake.
#[test]
fn a_rout_into_a_markers_hex_meets_it_as_a_unit_whatever_it_is() {
    let blue = same_for_blue(&["rout-bf.yaml", "rout-bd.yaml", "rout-br.yaml"]);
    // Destroyed, and never set down anywhere short of rM's hex.
    let events = log_events(&blue);
    let destroyed = json!({"event": "removed", "piece": 0, "reason": "routed: ran into the enemy and was destroyed"});
    let placed = |e: &Value| e["event"] == "placed" && e["piece"] == 0;
    assert!(
        events.contains(&destroyed) && !events.iter().any(placed),
        "{events:?}"
    );
    // The fake is not unmasked: blue still sees a marker there, and never reads rM.
    assert_eq!(marker(&blue, 3), (json!({"col": 8, "row": 4}), json!("E")));
    for read in &blue {
        // prose: no word of blue's names rM.
        assert!(!read.contains("rM"), "{read}");
    }
    // The referee's log: the fake is still on the board as the rout ends.
    let referee = json_of(&grognard_in(
        &root().join(DIR),
        &[
            "view",
            "rout-bf.yaml",
            "--orders",
            "rout.orders.yaml",
            "--referee",
            "--json",
        ],
    ));
    let rm =
        (referee["state"]["pieces"].as_array().into_iter().flatten()).find(|p| p["name"] == "rM");
    assert_eq!(
        rm.map(|p| &p["place"]["cell"]),
        Some(&json!({"col": 8, "row": 4})),
        "{referee}"
    );
}

// 004 l.399 (a rout "onto and into an enemy zone of control (an enemy firing arc or
// movement arc)" destroys the routing unit), 5.2 l.535-538 (a zone is the three front hexes;
// any hit or fatigue removes it), 3.1 l.467 and l.264. Reading (note 64, sixth outside
// audit, and this round): a marker the side has not identified has a unit's zone, whatever it
// is, for movement and owed melees; a rout is judged the same way. By hand,
// rout-{f,d,r}.yaml differ only in rM at (9,4), facing W, in forest: a fake, hidden infantry
// with one hit (no true zone), fresh hidden infantry. bR is routed as above and falls back
// E: (6,4), (7,4), (8,4), the last in rM's front (W, NW, SW of (9,4)): destroyed every time.
// Before this round only the fresh real marker destroyed it (the marker's true zone), so
// blue learnt the marker's hits or that it was a fake.
#[test]
fn a_rout_into_a_markers_front_is_judged_by_what_the_routing_side_knows() {
    let blue = same_for_blue(&["rout-f.yaml", "rout-d.yaml", "rout-r.yaml"]);
    let events = log_events(&blue);
    let destroyed = json!({
        "event": "removed",
        "piece": 0,
        "reason": "routed: fell back into an enemy zone of control and was destroyed",
    });
    let placed = |e: &Value| e["event"] == "placed" && e["piece"] == 0;
    assert!(
        events.contains(&destroyed) && !events.iter().any(placed),
        "{events:?}"
    );
    assert_eq!(marker(&blue, 3), (json!({"col": 9, "row": 4}), json!("W")));
}

/// The end cells `grognard reach` lists for `unit` (its JSON), sorted.
fn reach_cells(scenario: &str, orders: &str, unit: &str) -> Vec<(i64, i64)> {
    let out = ok(&[
        "reach", scenario, "--orders", orders, "--unit", unit, "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let mut cells: Vec<(i64, i64)> = v["reach"]
        .as_array()
        .expect("reach")
        .iter()
        .map(|r| {
            (
                r["cell"][0].as_i64().expect("col"),
                r["cell"][1].as_i64().expect("row"),
            )
        })
        .collect();
    cells.sort_unstable();
    cells
}

/// The orders `legal --side side --json` lists after `orders` on `scenario`.
fn legal_orders(scenario: &str, orders: &str, side: &str) -> Vec<Value> {
    let out = ok(&[
        "legal", scenario, "--orders", orders, "--side", side, "--json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    v["orders"].as_array().cloned().unwrap_or_default()
}

/// The end cells of `unit`'s moves in `legal --side side`, sorted.
fn legal_cells(scenario: &str, orders: &str, side: &str, unit: &str) -> Vec<(i64, i64)> {
    let mut cells: Vec<(i64, i64)> = (legal_orders(scenario, orders, side).iter())
        .filter(|o| o["move"]["piece"] == unit)
        .filter_map(|o| {
            let end = o["move"]["path"].as_array()?.last()?.clone();
            Some((end[0].as_i64()?, end[1].as_i64()?))
        })
        .collect();
    cells.sort_unstable();
    cells
}

// 004 l.339 (decision failure 3: no move in the enemy's direction until Aggressiveness is
// passed) and l.260 (a failed tribal unit advances toward the enemy only against a
// disordered one), with 5.1 (the moves themselves). The ruleset's note (facing) says
// `grognard reach` lists exactly the cells a move may end in; reach ignored the orders in
// force (`may_move`), which `play` and `legal` apply. Now reach leaves out the cells whose
// move `may_move` refuses, as legal does (kernel `Game::reach_allowed`, general: any
// ruleset's `may_move`). By hand, cautious.yaml (seed 1, the auditor's h3s1): hale fails
// with result 3, so b2 at (7,4) facing W is cautious; reach listed 26 cells before this
// round, (6,4) among them, one step W toward r1, which play refuses ("ends nearer"). Now
// reach lists exactly legal's end cells and not (6,4). tribes.yaml (seed 6, h4s): t1 and t2
// are wavering (d10 above kern's T=1). reach listed (4,3), (3,3), (4,4) for t1, which play
// then refused (this round's #26 allows them: see below); for t2 at (5,4) it listed (5,3)
// and (5,5), which play refuses (next to bF, fresh, and to the marker #7, taken as fresh:
// "it will not move to melee"). Now reach lists exactly legal's end cells for both.
#[test]
fn reach_lists_the_cells_legal_and_play_accept_for_cautious_and_wavering_units() {
    let b2 = reach_cells("cautious.yaml", "cautious.orders.yaml", "b2");
    assert_eq!(
        b2,
        legal_cells("cautious.yaml", "cautious.orders.yaml", "blue", "b2")
    );
    assert!(!b2.is_empty() && !b2.contains(&(6, 4)), "{b2:?}");
    let refused = format!(
        "{}  - {{ side: blue, move: {{ piece: b2, path: [[6, 4]] }} }}\n",
        std::fs::read_to_string(root().join(DIR).join("cautious.orders.yaml")).expect("orders")
    );
    let path = std::env::temp_dir().join(format!("hc-reaudit19-{}-b2.yaml", std::process::id()));
    std::fs::write(&path, refused).expect("write orders");
    let p = played("cautious.yaml", &path.to_string_lossy(), &[]);
    assert_eq!(
        p.refusal_kind.as_deref(),
        Some("hook_failed"),
        "{:?}",
        p.refused
    );
    // prose: the rule's words.
    let why = p.refused.as_deref().unwrap_or_default();
    assert!(
        why.contains("refused: b2 may not move in the enemy's direction"),
        "{why}"
    );

    for unit in ["t1", "t2"] {
        let cells = reach_cells("tribes.yaml", "tribes.orders.yaml", unit);
        assert_eq!(
            cells,
            legal_cells("tribes.yaml", "tribes.orders.yaml", "red", unit)
        );
        assert!(!cells.is_empty(), "{unit}: {cells:?}");
    }
    let t2 = reach_cells("tribes.yaml", "tribes.orders.yaml", "t2");
    for c in [(5, 3), (5, 5)] {
        assert!(!t2.contains(&c), "{c:?} in {t2:?}");
    }
}

/// The ruleset's notes (the `notes:` list before `piece_types:`).
fn notes() -> Vec<String> {
    let text =
        std::fs::read_to_string(root().join("rulesets/hex-command.yaml")).unwrap_or_default();
    text.lines()
        .take_while(|l| !l.starts_with("piece_types:"))
        .filter(|l| l.starts_with("  - \""))
        .map(str::to_owned)
        .collect()
}

// 004 l.467 (3.1: markers are spotted by the cube roll at 8 hexes, 12 from a hill, and
// revealed at 5 hexes without a roll except in cover), l.264 (units no enemy can see are
// replaced by fake counters; sight is the enemy's, 9 or 6 hexes). Reading (note, nineteenth
// round): a fake does not spot; the owner's 'face up: the enemy sees it' tag stays, as the
// reveal is made in both players' sight, and the note says why. By hand, face-up.yaml:
// blue's hidden bM1 (6,1) and bM2 (6,7) stand in the open, 4 hexes from red's markers rR
// (2,1, real) and rF (2,7, a fake), both in forest (not revealed to blue). rR reveals bM1
// (4 hexes, open): blue's view tags it face up; rF does not reveal bM2. face-up-real.yaml
// makes rF real: bM2 is face up too. The tag so shows blue which of the two is real, the
// cost of the seed's rule, now stated.
#[test]
fn a_fake_does_not_spot_and_the_owners_face_up_tag_is_stated() {
    // prose: the ruleset's note and the view's tags, in words.
    assert!(
        notes().iter().any(
            |n| n.contains("A fake does not spot (3.1 l.467 with l.264, #34)")
                && n.contains("the reveal is the table's")
        ),
        "no note states the face-up tag's reading"
    );
    let fake = ok(&["view", "face-up.yaml", "--side", "blue"]);
    assert!(
        fake.contains(
            "bM1        infantry, formed mode, (6,1), facing W [hidden, face up: the enemy sees it]"
        ),
        "{fake}"
    );
    assert!(
        fake.contains("bM2        infantry, formed mode, (6,7), facing W [hidden]\n"),
        "{fake}"
    );
    let real = ok(&["view", "face-up-real.yaml", "--side", "blue"]);
    assert!(
        real.contains(
            "bM2        infantry, formed mode, (6,7), facing W [hidden, face up: the enemy sees it]"
        ),
        "{real}"
    );
}

// 004 l.260 (tribes: a failed unit "can only advance toward the enemy if the target enemy
// unit is disordered or worse"), read with l.339's enemy as the eighteenth round reads it (the
// nearest known enemy). Reading (note, nineteenth round): the enemy a move advances toward is
// the nearest known enemy where it ends. By hand, tribes.yaml: wavering t1 at (5,2), facing
// E, next to blue's fresh bF (6,2); blue's line runs down column 6 (bD (6,4) one hit, the
// markers #7 (6,6) and #8 (6,8)). t1 → (4,2) → (3,3) steps away from the line: where it
// ends, its nearest enemies are bF and bD, 3 hexes off (1 and 2 at its start), so it is no
// advance; the fake #8 six rows south comes one hex nearer (6 → 5), which refused the move
// before ("closes on enemy #8"). Now accepted, and listed by legal and reach.
#[test]
fn a_wavering_unit_may_step_away_from_the_line_though_it_nears_a_far_marker() {
    let away = orders_with(
        DIR,
        "tribes.orders.yaml",
        "  - { side: red, move: { piece: t1, path: [[4, 2], [3, 3]] } }\n",
        "away",
    );
    let p = played("tribes.yaml", &away, &["--side", "red"]);
    let path = json!([{"col": 5, "row": 2}, {"col": 4, "row": 2}, {"col": 3, "row": 3}]);
    let moved = p.has("moved", "t1", |e| e["path"] == path && e["cost"] == 300);
    assert!(
        p.refused.is_none() && moved,
        "{:?} {:?}",
        p.refused,
        p.events
    );
    assert!(legal_cells("tribes.yaml", "tribes.orders.yaml", "red", "t1").contains(&(3, 3)));
    assert!(reach_cells("tribes.yaml", "tribes.orders.yaml", "t1").contains(&(3, 3)));
}

// 004 l.342 (decision failure 6: about face, fall back to cover, "whereupon they defend until
// new orders are received"; 7 adds a TE hit) with l.340 (result 4: "hold until new orders
// are received"). Reading (note, nineteenth round): the same words, the same standing: the
// units halt for the rest of the turn and then hold (`holding`) until an order change of
// their side is accepted or a commander joins them. By hand, fall-back.yaml (seed 10, the
// auditor's h3s10): hale (T=10) fails his change, d10 6: fall back to cover; b1 has hale
// attached and is spared; b2 (7,4) and b3 (8,6) turn E and fall back 3 hexes to (10,4) and
// (11,6) (no cover on the way). In turn 2's blue movement phase (fall-back.orders.yaml) they
// may turn but not move: legal lists their facings and no move, and play refuses b2 → (9,4)
// ("b2 cannot move: it is holding"). Before, the halt ended with turn 1 and b2 moved.
#[test]
fn units_that_fell_back_to_cover_hold_until_new_orders() {
    let p = played(
        "fall-back.yaml",
        "fall-back.orders.yaml",
        &["--side", "blue"],
    );
    assert_eq!((p.code, &p.refused), (0, &None));
    let reason = "fell back toward cover (decision failure)";
    let fell = |name: &str, from: (i64, i64), to: (i64, i64)| {
        let cell = |c: (i64, i64)| json!({"col": c.0, "row": c.1});
        p.find("placed", name, |e| {
            e["from"] == cell(from) && e["to"] == cell(to) && e["reason"] == reason
        })
    };
    for (name, from, to) in [("b2", (7, 4), (10, 4)), ("b3", (8, 6), (11, 6))] {
        let at = fell(name, from, to);
        assert!(
            at.is_some() && at < p.flag(name, "holding", true),
            "{name}: {:?}",
            p.events
        );
    }
    // Blue's log reaches its turn 2 movement phase (in_phase panics if not).
    p.in_phase(2, "movement", "blue");
    let legal = legal_orders("fall-back.yaml", "fall-back.orders.yaml", "blue");
    for unit in ["b2", "b3"] {
        assert!(
            !legal.iter().any(|o| o["move"]["piece"] == unit),
            "{legal:?}"
        );
        let face = json!({"side": "blue", "face": {"piece": unit, "facing": "W"}});
        assert!(legal.contains(&face), "{legal:?}");
    }
    let moved = orders_with(
        DIR,
        "fall-back.orders.yaml",
        "  - { side: blue, move: { piece: b2, path: [[9, 4]] } }\n",
        "hold",
    );
    let p = played("fall-back.yaml", &moved, &[]);
    assert_eq!(
        p.refusal_kind.as_deref(),
        Some("already_used"),
        "{:?}",
        p.refused
    );
    // prose: the flag that holds it is named in the words.
    let why = p.refused.as_deref().unwrap_or_default();
    assert!(
        why.ends_with("refused: b2 cannot move: it is holding"),
        "{why}"
    );
}
