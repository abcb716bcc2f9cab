//! The ninth outside audit of the square-block game (`docs/audits/square-blocks.md`,
//! "Ninth outside audit"), run end to end on its positions in
//! `tests/fixtures/audits/square-blocks/ninth/`. Each test cites the seed line.

use crate::util::{Played, Run, cells, json_of, play_json_in, root};

const T9: &str = "tests/fixtures/audits/square-blocks/ninth";

fn run9(args: &[&str]) -> Run {
    crate::util::grognard_fixtures(T9, args)
}

/// `play SCENARIO --orders ORDERS --json [--side SIDE]` in the fixture folder.
fn played9(scenario: &str, orders: &str, side: Option<&str>) -> Played {
    let args: Vec<&str> = side.map(|s| vec!["--side", s]).unwrap_or_default();
    play_json_in(&root().join(T9), scenario, orders, &args)
}

/// Whether `p`'s side saw enemy `handle` move from `from` to `to` (an `enemy_moved` event).
fn saw_move(p: &Played, handle: &str, from: (i64, i64), to: (i64, i64)) -> bool {
    let at = |c: (i64, i64)| serde_json::json!({"cell": cells(&[c])[0]});
    p.has("enemy_moved", handle, |e| {
        e["from"] == at(from) && e["to"] == at(to)
    })
}

/// Whether `events` hold a `sighted` event for piece number `piece` at `level`.
fn sighted(events: &[serde_json::Value], piece: u64, level: &str) -> bool {
    (events.iter()).any(|e| e["event"] == "sighted" && e["piece"] == piece && e["level"] == level)
}

#[test]
fn audit9_1_a_dummy_in_battle_mode_steps_a_square_each_phase_as_cavalry_does() {
    // 000 l.79 (#15): dummy blocks "act and move just like normal blocks"; 001 l.64: they
    // "can move and act like any real command". 000 l.153/157 (chart): cavalry, legion and
    // HQs have 1 mp in battle mode, infantry ½; 000 l.32 (#7): an orthogonal step costs 1.
    //
    // p28.yaml, worked by hand: bcav (cavalry) and bdum (dummy), both in battle mode, at
    // (3,6) and (6,6). In the French movement phase of turn 1 each steps north one square
    // (1 mp; the cavalry has 1), and again on turn 2. Before the fix the dummy had
    // infantry's ½ ("the path costs 1 by (6,5), but bdum has ½ in battle mode"), so the
    // Austrians, seeing #1 step twice running in battle mode, knew it real. Now both
    // markers do the same in the Austrians' log.
    let p = played9("p28.yaml", "p28d.orders.yaml", Some("austrians"));
    assert_eq!((p.code, &p.refused), (0, &None));
    assert!(saw_move(&p, "#1", (3, 6), (3, 5)), "{:?}", p.events);
    assert!(saw_move(&p, "#2", (6, 6), (6, 5)), "{:?}", p.events);
    assert!(saw_move(&p, "#1", (3, 5), (3, 4)), "{:?}", p.events);
    assert!(saw_move(&p, "#2", (6, 5), (6, 4)), "{:?}", p.events);
    // `reach` lists the dummy's orthogonal squares in battle mode (1 mp), not the
    // diagonals (1½).
    let r = run9(&["reach", "p28.yaml", "--unit", "bdum", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let reach = json_of(&r)["reach"].as_array().map(Vec::len);
    assert_eq!(reach, Some(4), "{}", r.stdout);
}

#[test]
fn audit9_2_saved_points_and_the_square_they_are_saved_toward_are_the_owners_alone() {
    // 000 l.57 (#11) and 001 l.113 ([6.95]): saved points are the block's own reserve for
    // its next movement phase; the ruleset's note on forward deployment's ½ mp reads them as
    // unseen by the opponent (saving is standing still). `private_counters: [saved_mp]`.
    //
    // p19.yaml, worked by hand: fb (French infantry, battle mode, ½ mp) at (4,6), aobs
    // (Austrian infantry) at (5,7), adjacent diagonally, so the Austrians hold fb at A
    // (adjacent sight, A*) and know it by name. In the French movement phase of turn 1 fb
    // saves toward (4,5): its ½ goes on `saved_mp` (1 half point). Before the fix the
    // Austrians' view showed `saved_mp 1` and, in JSON, `saved_toward: (4,5)`.
    let r = run9(&[
        "view",
        "p19.yaml",
        "--side",
        "austrians",
        "--orders",
        "p19.orders.yaml",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // prose: the view's words name fb and no saved points (the JSON is checked below).
    assert!(r.stdout.contains("fb         at (4,6)"), "{}", r.stdout);
    assert!(!r.stdout.contains("saved_mp"), "{}", r.stdout);
    let r = run9(&[
        "view",
        "p19.yaml",
        "--side",
        "austrians",
        "--orders",
        "p19.orders.yaml",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    let fb = v["view"]["enemy"]
        .as_array()
        .and_then(|e| e.iter().find(|p| p["identity"]["name"] == "fb"))
        .expect("fb is identified");
    assert!(fb["identity"]["saved_toward"].is_null(), "{fb}");
    assert_eq!(fb["identity"]["counters"][2], 0, "{fb}");
    assert!(fb["names"]["counters"].get("saved_mp").is_none(), "{fb}");
    // Nothing in the Austrians' JSON names the square saved toward.
    assert!(!r.stdout.contains("saved_toward\": {"), "{}", r.stdout);
    // p19mid: the Austrians look in the middle of the French movement phase, just after
    // the save. fb stood still; before the fix its identity read `moved: true` (a block
    // that neither moved nor changed mode had saved). Now it reads as standing still.
    let r = run9(&[
        "view",
        "p19.yaml",
        "--side",
        "austrians",
        "--orders",
        "p19mid.orders.yaml",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    let fb = &v["view"]["enemy"][0]["identity"];
    assert_eq!(fb["name"], "fb", "{fb}");
    assert_eq!(fb["moved"], false, "{fb}");
    assert!(fb["saved_toward"].is_null(), "{fb}");
    // The owner still sees its points.
    let r = run9(&[
        "view",
        "p19.yaml",
        "--side",
        "french",
        "--orders",
        "p19.orders.yaml",
    ]);
    // prose: the owner's view prints the counter (its JSON has it as a number).
    assert!(r.stdout.contains("saved_mp 1"), "{}", r.stdout);
}

#[test]
fn audit9_3_a_face_down_markers_mode_is_shown_as_its_mode_changes_are_logged() {
    // 000 l.72 (#14): battle mode is an officer figure placed on the block, in view of the
    // table; the ruleset's note makes a face-down block's mode public as its square is,
    // and the log reports each change ("enemy #2 changed mode battle → strategic").
    //
    // p28.yaml, worked by hand: the Austrians (corps, handle 0) see three face-down French
    // markers: #1 bcav (battle), #2 bdum (battle), #3 army (strategic, the army HQ's
    // default). Before any order the view lists those starting modes. p28b: in the French
    // movement phase bdum goes to strategic and army to battle. Before the fix the view
    // showed no mode for any face-down marker.
    let r = run9(&["view", "p28.yaml", "--side", "austrians"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // prose: the view's lines show each marker's mode (before the fix they showed none);
    // the JSON's modes are checked below.
    assert!(
        r.stdout
            .contains("#1         at (3,6), facing N, battle mode"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("#2         at (6,6), facing N, battle mode"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("#3         at (0,9), facing N, strategic mode"),
        "{}",
        r.stdout
    );
    let args = [
        "view",
        "p28.yaml",
        "--side",
        "austrians",
        "--orders",
        "p28b.orders.yaml",
    ];
    let r = run9(&args);
    // prose: as above.
    assert!(
        r.stdout
            .contains("#2         at (6,6), facing N, strategic mode"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("#3         at (0,9), facing N, battle mode"),
        "{}",
        r.stdout
    );
    let mut json = args.to_vec();
    json.push("--json");
    let r = run9(&json);
    let v = json_of(&r);
    let changed = |e: &serde_json::Value| {
        e["event"] == "mode_changed"
            && e["piece"] == 2
            && e["from"] == "battle"
            && e["to"] == "strategic"
    };
    assert!(
        v["events"]
            .as_array()
            .is_some_and(|e| e.iter().any(changed)),
        "{v}"
    );
    let modes: Vec<(u64, String)> = v["view"]["enemy"]
        .as_array()
        .expect("enemy")
        .iter()
        .map(|e| {
            (
                e["handle"].as_u64().unwrap_or(0),
                e["mode"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        modes,
        [
            (1, "battle".into()),
            (2, "strategic".into()),
            (3, "battle".into())
        ]
    );
}

#[test]
fn audit9_5_a_marker_turned_face_down_again_is_shown_as_remembered() {
    // 001 l.83-89 ([6.92]): a marker is turned face up on a B or A sighting and back face
    // down on C or D. What the side saw while it was face up it keeps, as last seen.
    //
    // flip.yaml, worked by hand: the Austrian corps HQ (chart #5) at (5,0) faces S; fcav
    // (cavalry, 4 units) at (5,2) is 2 squares straight ahead: B, so it turns face up
    // (type cavalry, strength 4). In the French movement phase it steps to (5,3), 3 ahead:
    // C, face down again. The view still lists cavalry, strength 4 from the B sighting;
    // before the fix nothing said those were not seen now.
    let r = run9(&[
        "view",
        "flip.yaml",
        "--side",
        "austrians",
        "--orders",
        "flip.orders.yaml",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // prose: the line says what was seen is as last seen.
    assert!(
        r.stdout.contains(
            "#1         at (5,3), facing S, sighting C, real, strategic mode, as last seen: cavalry, strength 4"
        ),
        "{}",
        r.stdout
    );
    let r = run9(&[
        "view",
        "flip.yaml",
        "--side",
        "austrians",
        "--orders",
        "flip.orders.yaml",
        "--json",
    ]);
    let v = json_of(&r);
    let events = v["events"].as_array().cloned().unwrap_or_default();
    assert!(sighted(&events, 1, "B") && sighted(&events, 1, "C"), "{v}");
    assert_eq!(
        v["view"]["enemy"][0]["remembered"],
        serde_json::json!(["kind", "strength"])
    );
    assert_eq!(v["view"]["enemy"][0]["face_up"], false);
}

#[test]
fn audit9_6_a_block_faces_its_last_step_and_may_turn_back_free_in_the_same_phase() {
    // 000 l.217-245 (chart #5 is read from the observer's facing); the seeds say nothing of
    // a block's facing after a move. Our reading (ruleset notes): a move leaves the block
    // facing its last step, and a `face` in the same movement phase costs nothing.
    //
    // flip.yaml, worked by hand: the corps HQ at (5,0) facing S sees fcav at (5,2), 2
    // ahead, at B. In its movement phase it steps west to (4,0) (1 mp): it now faces W, and
    // fcav, behind its shoulder, is out of sight (D). Turning S again in the same phase puts
    // fcav at 2 ahead and 1 to the side: C.
    let p = played9("flip.yaml", "backface.orders.yaml", Some("austrians"));
    assert_eq!((p.code, &p.refused), (0, &None));
    let moved = p.find("moved", "corps", |e| {
        e["path"] == cells(&[(5, 0), (4, 0)]) && e["cost"] == 100
    });
    let lost = p.find("sighted", "#1", |e| e["level"].is_null());
    let faced = p.find("faced", "corps", |e| e["facing"] == "S");
    let seen = p.find("sighted", "#1", |e| e["level"] == "C");
    assert!(
        moved < lost && lost < faced && faced < seen && moved.is_some(),
        "{:?}",
        p.events
    );
}

#[test]
fn audit9_4_a_small_command_counts_a_whole_block_and_a_half_block_a_half() {
    // 000 l.66-69 (#13): at most 2½ blocks a square, a half-size block counting ½; 001
    // l.43 ([6.83]): small commands are 10 figures or less. Our reading (ruleset notes): a
    // small command is a marker type, not a half-size block, so it counts as a whole block;
    // the half block is the `half_infantry` type.
    //
    // small.yaml, worked by hand: fa and fb (infantry, 20 figures each) hold (4,4): 2
    // blocks. fs (small_infantry, 8 figures) stepping in from (4,5) would make 3 blocks,
    // over 2½ (the figures, 48, are well under 150). fh (half_infantry, 8 figures) stepping
    // in diagonally from (5,5) (1½ mp, strategic 1½) makes 2½: allowed.
    let p = played9("small.yaml", "small.orders.yaml", None);
    assert_eq!(
        p.refusal_kind.as_deref(),
        Some("occupied"),
        "{:?}",
        p.refused
    );
    // prose: the count of blocks and the limit are said in the words.
    assert_eq!(
        p.refused.as_deref(),
        Some(
            "small.orders.yaml:4:5: refused: fs cannot enter (4,4): moving in would make 3 blocks there, over the limit of 2½"
        )
    );
    let p = played9("small.yaml", "half.orders.yaml", None);
    assert_eq!((p.code, &p.refused), (0, &None));
    let moved = p.has("moved", "fh", |e| {
        e["path"] == cells(&[(5, 5), (4, 4)]) && e["cost"] == 150
    });
    assert!(moved, "{:?}", p.events);
}
