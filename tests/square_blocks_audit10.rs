//! The tenth outside audit of the square-block game (`docs/audits/square-blocks.md`,
//! "Tenth outside audit"), run end to end on its positions in
//! `tests/fixtures/audits/square-blocks/tenth/`. Each test cites the seed line.

use crate::util::{Played, Run, cells, count_events, json_of, play_json_in, root};

const T10: &str = "tests/fixtures/audits/square-blocks/tenth";

fn run10(args: &[&str]) -> Run {
    crate::util::grognard_fixtures(T10, args)
}

/// What `play SCENARIO --orders ORDERS [--side SIDE]` prints, whatever its exit code.
fn play10(scenario: &str, orders: &str, side: Option<&str>) -> String {
    let mut args = vec!["play", scenario, "--orders", orders];
    if let Some(s) = side {
        args.extend(["--side", s]);
    }
    let r = run10(&args);
    format!("{}{}", r.stdout, r.stderr)
}

/// `play SCENARIO --orders ORDERS --json [--side SIDE]` in the fixture folder.
fn played10(scenario: &str, orders: &str, side: Option<&str>) -> Played {
    let args: Vec<&str> = side.map(|s| vec!["--side", s]).unwrap_or_default();
    play_json_in(&root().join(T10), scenario, orders, &args)
}

/// Whether `name` was lifted and put down on `(col, row)`, every order accepted.
fn put_down(p: &Played, name: &str, at: (i64, i64)) -> Option<usize> {
    p.refused.as_ref().map_or_else(
        || p.find("redeployed", name, |e| e["to"] == cells(&[at])[0]),
        |_| None,
    )
}

/// The refusal's words, asserted to be of `kind`. prose: which rule refused is said in
/// the words.
fn refused_for<'a>(p: &'a Played, kind: &str) -> &'a str {
    assert_eq!(p.refusal_kind.as_deref(), Some(kind), "{:?}", p.refused);
    p.refused.as_deref().unwrap_or_default()
}

/// `view SCENARIO --orders ORDERS --side SIDE [--json]`'s output.
fn view10(scenario: &str, orders: &str, side: &str, json: bool) -> String {
    let mut args = vec!["view", scenario, "--orders", orders, "--side", side];
    if json {
        args.push("--json");
    }
    let r = run10(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
}

#[test]
fn audit10_w1_a_dummys_owner_reads_the_same_whether_its_neighbour_is_real_or_a_dummy() {
    // 000 l.79-80 (#15): dummy blocks "cannot collect scouting information"; 001 l.150-152:
    // dummy marker movement "cannot be used to scout enemy command markers, collect any
    // information". 001 l.83-89 ([6.92]) flips markers sighted at A or B.
    //
    // w1real / w1dummy, worked by hand: the French dummy fd at (2,3) faces the Austrian
    // marker ax at (2,2), a real infantry command in w1real and a dummy in w1dummy. The
    // HQs stand at (7,6) and (7,0), out of chart #5's reach of (2,2)/(2,3) (five columns
    // across: D). A dummy observes nothing, so only ax, when real, sights fd: adjacent,
    // A*, which flips a marker. Before the fix fd read "face up: the enemy sees it" in
    // w1real only, telling the French that (2,2) is real. Now a dummy's flip is the
    // sighting side's: the French view (text and JSON, the editor's data) and log are the
    // same in both positions.
    let o = "w1.orders.yaml";
    for json in [false, true] {
        let real = view10("w1real.yaml", o, "french", json);
        let dummy = view10("w1dummy.yaml", o, "french", json);
        assert_eq!(real, dummy, "json {json}");
    }
    let real = view10("w1real.yaml", o, "french", false);
    // prose: the owner's view line (a leak in words).
    assert!(!real.contains("face up"), "{real}");
    assert_eq!(
        play10("w1real.yaml", o, Some("french")),
        play10("w1dummy.yaml", o, Some("french"))
    );
    // The Austrians, whose real ax sights fd at A, still have it face up: a dummy.
    let au = view10("w1real.yaml", o, "austrians", true);
    let v: serde_json::Value = serde_json::from_str(&au).unwrap();
    let fd = v["view"]["enemy"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["level"] == "A")
        .unwrap_or_else(|| panic!("{au}"));
    assert_eq!(fd["face_up"], true, "{au}");
    assert_eq!(fd["real"], false, "{au}");
    assert_eq!(fd["kind"], "dummy", "{au}");
    // Its owner's JSON lists no face-up piece (`own_face_up` is left out when empty).
    let fr = view10("w1real.yaml", o, "french", true);
    let v: serde_json::Value = serde_json::from_str(&fr).unwrap();
    assert!(
        v["view"]["own_face_up"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "{fr}"
    );
}

#[test]
fn audit10_w2_a_put_down_reads_the_same_on_an_empty_square_and_an_unseen_command() {
    // 000 l.79-81 (#15): dummies "can be removed and redeployed on any game turn, at any
    // tabletop location"; l.79-80: they collect no information. 000 chart #5 legend: a
    // hidden command is disclosed only by a starred sighting.
    //
    // w2hidden / w2empty, worked by hand: the French lift fd from (5,6) and put it down at
    // (1,1), where the hidden Austrian infantry ah stands (w2hidden) or nothing does
    // (w2empty, ah at (4,0)). Before the fix w2hidden read "fd could not be put down at
    // (1,1)": the hidden command located. Now it is put down in both, and the French log
    // and view are the same; no contact (a dummy causes none, 000 l.49-50).
    let o = "w2.orders.yaml";
    let hidden = play10("w2hidden.yaml", o, Some("french"));
    assert_eq!(hidden, play10("w2empty.yaml", o, Some("french")));
    let french = played10("w2hidden.yaml", o, Some("french"));
    assert!(
        put_down(&french, "fd", (1, 1)).is_some(),
        "{:?}",
        french.events
    );
    for json in [false, true] {
        assert_eq!(
            view10("w2hidden.yaml", o, "french", json),
            view10("w2empty.yaml", o, "french", json),
            "json {json}"
        );
    }
    let all = played10("w2hidden.yaml", o, None);
    assert!(put_down(&all, "fd", (1, 1)).is_some(), "{:?}", all.events);
    assert_eq!(count_events(&all.events, "contact"), 0, "{:?}", all.events);
    // The Austrians see a marker put down on ah's square; ah, sharing it, sights it at A
    // (X=A*) and knows it a dummy. ah may still move off.
    let au = played10("w2hidden.yaml", o, Some("austrians"));
    let at = |c: (i64, i64)| serde_json::json!({"cell": cells(&[c])[0]});
    let seen = au.find("enemy_moved", "#2", |e| {
        e["from"] == at((5, 6)) && e["to"] == at((1, 1))
    });
    let sighted = au.find("sighted", "#2", |e| e["side"] == 1 && e["level"] == "A");
    assert!(seen.is_some() && seen < sighted, "{:?}", au.events);
    let legal = run10(&[
        "legal",
        "w2hidden.yaml",
        "--orders",
        o,
        "--side",
        "austrians",
        "--json",
    ]);
    let step = serde_json::json!({"side": "austrians", "move": {"piece": "ah", "path": [[1, 0]]}});
    let listed = json_of(&legal)["orders"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(listed.contains(&step), "{listed:?}");
}

#[test]
fn audit10_u1_a_dummy_may_be_lifted_and_move_in_one_phase_either_way() {
    // 000 l.79-81 (#15): dummies "act and move just like normal blocks" and "can be
    // removed and redeployed on any game turn ... at the owning player's whim"; 001
    // l.155-156: picked up and placed back elsewhere. The seed does not make the lift the
    // dummy's move (a reading, stated in the notes): fd (1½ mp, strategic) is lifted from
    // (5,6) to (3,3) and steps north to (3,2) for 1 mp; or steps (5,6) → (5,5) first and
    // is then lifted to (3,3). Both are accepted in one movement phase.
    let step = |p: &Played, from: (i64, i64), to: (i64, i64)| {
        p.find("moved", "fd", |e| {
            e["path"] == cells(&[from, to]) && e["cost"] == 100
        })
    };
    let a = played10("w2empty.yaml", "u1a.orders.yaml", Some("french"));
    let (lift, moved) = (put_down(&a, "fd", (3, 3)), step(&a, (3, 3), (3, 2)));
    assert!(
        lift.is_some() && lift < moved,
        "{:?} {:?}",
        a.refused,
        a.events
    );
    let b = played10("w2empty.yaml", "u1b.orders.yaml", Some("french"));
    let (moved, lift) = (step(&b, (5, 6), (5, 5)), put_down(&b, "fd", (3, 3)));
    assert!(
        moved.is_some() && moved < lift,
        "{:?} {:?}",
        b.refused,
        b.events
    );
}

#[test]
fn audit10_u2_an_enemy_reads_no_scout_fate_flags() {
    // 000 l.189-212 (Scout Fate, rolled by the referee "before any information is
    // collected"): the roll and its bookkeeping are secret. u2, worked by hand: the French
    // scout fs at (5,3) has rolled its fate in the French command phase (`fate_rolled`);
    // the Austrian infantry ai at (4,3) is next to it and sights it at A. Before the fix
    // the Austrians' JSON named the flag `fate_rolled`; now their view of fs names no flag
    // and its identity carries none, while the French still read it on their own scout.
    let o = "u2.orders.yaml";
    let au = view10("u2.yaml", o, "austrians", true);
    let v: serde_json::Value = serde_json::from_str(&au).unwrap();
    let enemy = v["view"]["enemy"].as_array().unwrap();
    let fs = enemy
        .iter()
        .find(|e| e["kind"] == "scout")
        .unwrap_or_else(|| panic!("{au}"));
    assert_eq!(fs["level"], "A", "{au}");
    assert_eq!(fs["names"]["flags"], serde_json::json!([]), "{au}");
    assert_eq!(fs["identity"]["flags"], 0, "{au}");
    // Nothing in the Austrians' JSON names the flags, as the French JSON does.
    assert!(
        !au.contains("fate_rolled") && !au.contains("awaiting_fate"),
        "{au}"
    );
    let fr = view10("u2.yaml", o, "french", true);
    assert!(fr.contains("fate_rolled"), "{fr}");
    let log = play10("u2.yaml", o, Some("austrians"));
    // prose: nor does the Austrians' log, in words.
    assert!(!log.contains("fate") && log.contains("turn 1"), "{log}");
}

#[test]
fn audit10_u3_a_strategic_train_never_steps_diagonally_onto_clear_ground() {
    // 000 l.152-155 (movement chart): a train has 1 mp in strategic mode; 000 l.32-35 and
    // 001 [6.92] (l.81): a diagonal step costs 1½; 001 [6.94]: points are saved in battle
    // or road mode or toward terrain that costs extra. u3: t1 on the road at (2,4); the
    // diagonal (3,3) is clear. The step (1½ > 1) and the save (strategic, clear) are both
    // refused, as the note says.
    let save = played10("u3.yaml", "u3.orders.yaml", None);
    assert!(
        refused_for(&save, "bad_mode").ends_with(
            "refused: t1 may save points only in battle or road mode or toward terrain that costs extra"
        ),
        "{:?}",
        save.refused
    );
    let step = played10("u3.yaml", "u3move.orders.yaml", None);
    assert!(
        refused_for(&step, "too_far")
            .ends_with("refused: the path costs 1½ by (3,3), but t1 has 1 in strategic mode"),
        "{:?}",
        step.refused
    );
}

#[test]
fn audit10_u4_the_two_marker_cap_is_the_battlemap_overlays() {
    // 000 l.66-69 (#13): 2½ blocks a square, a half block counting ½; 001 [6.98]
    // (l.137-141): on the battlemap up to 2 markers share a square. u4: a1 and a2 hold
    // (2,2) (2 blocks, 120 figures); the half block h1 (20 figures) moves in: 2½ blocks,
    // 140 figures, allowed by the base ruleset; the battlemap overlay refuses a third
    // marker.
    let base = played10("u4base.yaml", "u4.orders.yaml", None);
    let moved = base.has("moved", "h1", |e| {
        e["path"] == cells(&[(2, 3), (2, 2)]) && e["cost"] == 100
    });
    assert!(
        base.refused.is_none() && moved,
        "{:?} {:?}",
        base.refused,
        base.events
    );
    let bm = played10("u4bm.yaml", "u4.orders.yaml", None);
    assert!(
        refused_for(&bm, "occupied").ends_with(
            "h1 cannot enter (2,2): moving in would make 3 markers there, over the limit of 2"
        ),
        "{:?}",
        bm.refused
    );
}
