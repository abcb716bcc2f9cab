//! The fourteenth round on the square-block game (`docs/audits/square-blocks.md`,
//! "Thirteenth outside audit"): arrows grow one square a phase, a dummy's squares bounded
//! and known dummies giving way, Scout Fate in every command phase, forward deployment's
//! announcement and arrow squares. Positions in
//! `tests/fixtures/audits/square-blocks/fourteenth/` (the auditor's tNN files, pointed at
//! this tree's ruleset, and our own). Each test cites the seed line.

use crate::util::{Played, cells, count_events, play_json_in, root};

const T14: &str = "tests/fixtures/audits/square-blocks/fourteenth";

/// stdout and stderr of a run, and its exit code.
fn run14(args: &[&str]) -> (i32, String) {
    let r = crate::util::grognard_fixtures(T14, args);
    (r.code, format!("{}{}", r.stdout, r.stderr))
}

/// `play SCENARIO --orders ORDERS --json` in the fixture folder, as `side` when given.
fn play14(scenario: &str, orders: &str, side: Option<&str>) -> Played {
    let args: Vec<&str> = side.map(|s| vec!["--side", s]).unwrap_or_default();
    play_json_in(&root().join(T14), scenario, orders, &args)
}

/// The refusal's words, asserted to be an `already_used` refusal (the kernel's kind for a
/// piece that has done all it may this phase).
fn used_up(p: &Played) -> &str {
    assert_eq!(
        p.refusal_kind.as_deref(),
        Some("already_used"),
        "{:?}",
        p.refused
    );
    p.refused.as_deref().unwrap_or_default()
}

/// The words announced to every side, in order.
fn announcements(p: &Played) -> Vec<&str> {
    (p.events.iter())
        .filter(|e| e["event"] == "announced")
        .filter_map(|e| e["text"].as_str())
        .collect()
}

/// Whether any event of the side's log puts something on (`col`, `row`).
fn names_cell(p: &Played, col: i64, row: i64) -> bool {
    let cell = serde_json::json!({"col": col, "row": row}).to_string();
    p.events.iter().any(|e| e.to_string().contains(&cell))
}

const GROWS: &str = "may lay an arrow only into a square next to one it held as this phase began";

#[test]
fn audit14_25_an_arrow_chain_grows_one_square_a_phase() {
    // 000 l.86-90 (#16): extension arrows spread a command over more squares, and the
    // command "occupies" each of them; 000 #12 and the movement chart (l.152): a
    // battle-mode infantry command has ½ mp a phase. Our reading (thirteenth outside audit
    // #25): an arrow enters its square, so each new square must be next to a square the
    // command held as the phase began; a chain grows one square outward a phase.
    //
    // Worked by hand (t20): w, infantry of 120 figures at (8,11) (strategic since the
    // fifteenth round, so its 1½ mp pays each arrow's step of 1 or 1½), lays (8,10)
    // (next to (8,11), held at the start: accepted), then (8,9): 2 squares from (8,11), the
    // only square it held as the phase began: refused. (Before the fix it laid six arrows
    // in the phase and made contact with ax at (8,3), seven squares away, the next.)
    let p = play14("t20.yaml", "t20b.orders.yaml", None);
    let chain = |at: &[(i64, i64)]| p.has("spread", "w", |e| e["cells"] == cells(at));
    assert!(chain(&[(8, 11), (8, 10)]), "{:?}", p.events);
    assert_eq!(count_events(&p.events, "spread"), 1, "{:?}", p.events);
    // prose: which rule refused the arrow is said only in its words.
    assert!(used_up(&p).starts_with(&format!("t20b.orders.yaml:5:5: refused: w {GROWS}")));
    // t21: the same chain toward the hidden dummy ax at (9,3) stops at (8,10) too, so no
    // far arrow sights it (000 l.234-236: a command sees the adjacent squares only).
    let p = play14("t21.yaml", "t21a.orders.yaml", Some("french"));
    // prose: as above.
    assert!(used_up(&p).starts_with(&format!("t21a.orders.yaml:5:5: refused: w {GROWS}")));
    let spread = p.has("spread", "w", |e| e["cells"] == cells(&[(8, 11), (8, 10)]));
    let sights = (p.events.iter()).any(|e| e["event"] == "sighted" && !e["level"].is_null());
    assert!(spread && !sights, "{:?}", p.events);
    // t25: w at (0,6) lays (0,5), then (1,5) (diagonally next to (0,6), where it stood:
    // accepted), then (2,5), 2 from (0,6): refused; the sweep along row 5 is gone.
    let p = play14("t25.yaml", "t25a.orders.yaml", Some("french"));
    let chain = |at: &[(i64, i64)]| p.has("spread", "w", |e| e["cells"] == cells(at));
    assert!(chain(&[(0, 6), (0, 5), (1, 5)]), "{:?}", p.events);
    assert_eq!(count_events(&p.events, "spread"), 2, "{:?}", p.events);
    // prose: as above.
    assert!(used_up(&p).starts_with(&format!("t25a.orders.yaml:6:5: refused: w {GROWS}")));
}

#[test]
fn audit14_25_a_command_that_gathered_lays_no_more_arrows_in_the_phase() {
    // 000 l.86-90 (#16) with 000 #12: taking the arrows up moves the command back into its
    // main square; laying again in the phase would move it out once more, a second chain
    // in one phase (thirteenth outside audit #25). Only a road column relays its arrows
    // behind its march (001 [6.98]; the ruleset's `relay_modes: [road]`, the fifth audit's
    // #4 test still passing). Worked by hand (t25, gl): w lays (0,5), gathers into (0,6),
    // and the arrow to (1,5), next to (0,6), is refused for the gather.
    let p = play14("t25.yaml", "gl.orders.yaml", None);
    assert!(
        p.has("spread", "w", |e| e["cells"] == cells(&[(0, 6)])),
        "{:?}",
        p.events
    );
    // prose: the gather is named as the reason only in the words.
    assert_eq!(
        used_up(&p),
        "gl.orders.yaml:7:5: refused: w took up its extension arrows this phase: it lays no more until its next movement phase"
    );
}

#[test]
fn audit14_26_a_dummy_holds_no_more_squares_than_the_largest_command() {
    // 000 l.79 (#15: dummies act just like blocks), 000 l.86-90 (#16: at least 5 figures a
    // square), 001 [6.98] (150 figures a square, the `figures` counter's most). Our reading
    // (thirteenth outside audit #26): a dummy may hold as many squares as a command of the
    // largest size could, 150 / 5 = 30, whatever its own figures. Worked by hand (dw): fd
    // holds 30 squares (a 6 x 5 block, (0,2)-(5,6)); a 31st, (6,6), next to (5,6) where it
    // stood, is refused. (Before the fix a one-figure dummy laid 35 arrows in a phase.)
    let p = play14("dw.yaml", "dw.orders.yaml", None);
    assert_eq!(p.code, 1);
    // prose: the bound and the count are said in the words.
    assert_eq!(
        used_up(&p),
        "dw.orders.yaml:5:5: refused: fd is a dummy and holds no more squares than the largest command could (150 figures at 5 a square): 31 is too many"
    );
}

#[test]
fn audit14_26_a_known_dummy_bars_no_square_an_unknown_one_bars_as_a_real_one() {
    // 001 notes on dummy markers: dummies "cannot block LOC"; 000 l.79 (#15): a dummy acts
    // just like a block, so an enemy that has not identified it must be answered as for a
    // real command (thirteenth outside audit #26). Worked by hand:
    // - kd1 (kd: fd a dummy; kr: fd real infantry): fd lays an arrow to (3,3); ay, cavalry
    //   at (3,1), has seen neither marker close (ahq at (7,0) sees nothing at D) and is
    //   ordered (3,2) → (3,3): both games refuse it alike, "(3,3) is held by the enemy".
    // - kd2: ay steps to (3,2), next to the arrow square (3,3): it sees fd at A (adjacent,
    //   X=A*) and so knows it is a dummy; next turn it enters (3,3), fd's arrow square, at
    //   1 mp, and nobody deploys. (Before the fix: "(3,3) is held by the enemy".)
    let (cd, dummy) = run14(&[
        "play",
        "kd.yaml",
        "--orders",
        "kd1.orders.yaml",
        "--side",
        "austrians",
    ]);
    let (cr, real) = run14(&[
        "play",
        "kr.yaml",
        "--orders",
        "kd1.orders.yaml",
        "--side",
        "austrians",
    ]);
    assert_ne!(cd, 0, "{dummy}");
    assert_eq!((cd, &dummy), (cr, &real));
    let p = play14("kd.yaml", "kd1.orders.yaml", Some("austrians"));
    assert_eq!(
        p.refusal_kind.as_deref(),
        Some("occupied"),
        "{:?}",
        p.refused
    );
    // prose: the words a side reads for a square it may not enter.
    assert!(
        dummy.contains("kd1.orders.yaml:9:5: refused: (3,3) is held by the enemy"),
        "{dummy}"
    );
    let p = play14("kd.yaml", "kd2.orders.yaml", None);
    assert_eq!(p.code, 0, "{:?}", p.refused);
    assert!(p.has("sighted", "fd", |e| e["side"] == 1 && e["level"] == "A"));
    let entered = p.has("moved", "ay", |e| {
        e["path"] == cells(&[(3, 2), (3, 3)]) && e["cost"] == 100
    });
    assert!(
        entered && count_events(&p.events, "contact") == 0,
        "{:?}",
        p.events
    );
}

#[test]
fn audit14_21_scout_fate_is_rolled_at_the_start_of_every_command_phase() {
    // 000 l.189: "At the start of every Command Phase, roll each deployed scout"; 000
    // l.167: scouts move in both command phases of a game turn (two command phases a turn;
    // our sequence has one in each side's turn). So every side's deployed scouts roll in
    // both (thirteenth outside audit #21, replacing "once a turn, in its own side's").
    // Worked by hand (t8, seed 4): sc (French) and asc (Austrian) each roll in the French
    // command phase of turn 1 and again in the Austrian one: 2 rolls each in turn 1.
    // (Before the fix each rolled once a turn, in its own side's phase.)
    let p = play14("t8.yaml", "t8.orders.yaml", None);
    assert_eq!(p.code, 0, "{:?}", p.refused);
    for phasing in ["french", "austrians"] {
        let phase = p.in_phase(1, "command", phasing);
        for s in ["scout fate of sc", "scout fate of asc"] {
            let rolled = (phase.iter()).any(|e| {
                e["event"] == "rolled"
                    && e["roll"]["chart"] == "scout_fate"
                    && e["roll"]["purpose"] == s
            });
            assert!(rolled, "{phasing}, {s}: {phase:?}");
        }
    }
}

#[test]
fn audit14_41_a_sighted_town_command_is_announced_as_the_command_seen() {
    // 000 l.120-121 (#18c): all opposite players are advised that the block is forward
    // deployed into the terrain feature. A command concealed in a town is announced
    // without its square only while the other side has not sighted it (naming the square
    // would undo the concealment); one it does sight is announced as the command it sees
    // (thirteenth outside audit #41). Worked by hand (t4fc, fc): the French scout sc at
    // (7,5) facing E sights ab (marker in the town at (10,5), arrow on (9,5)) at B in turn
    // 1; ab deploys forward and then leaves battle mode in the Austrians' movement phase:
    // both lines name (10,5), as the French view lists ab there and the mode change beside
    // them reads "enemy #4 changed mode". (Before the fix both said "a command out of
    // sight".) Without the scout (t4fc_unseen) the French sight nothing and both lines
    // stay "a command out of sight".
    let p = play14("t4fc.yaml", "fc.orders.yaml", Some("french"));
    assert_eq!(p.code, 0, "{:?}", p.refused);
    assert_eq!(
        announcements(&p),
        [
            "the command at (10,5) is deployed forward into a town",
            "the command at (10,5) is no longer deployed forward: it has left battle mode"
        ]
    );
    let mode = |e: &serde_json::Value| {
        e["event"] == "mode_changed" && e["from"] == "battle" && e["to"] == "strategic"
    };
    assert!(p.events.iter().any(mode), "{:?}", p.events);
    let p = play14("t4fc_unseen.yaml", "fc.orders.yaml", Some("french"));
    assert_eq!(p.code, 0, "{:?}", p.refused);
    assert_eq!(
        announcements(&p),
        [
            "a command out of sight is deployed forward into a town",
            "a command out of sight is no longer deployed forward: it has left battle mode"
        ]
    );
    assert!(!names_cell(&p, 10, 5), "{:?}", p.events);
    let (_, out) = run14(&[
        "play",
        "t4fc_unseen.yaml",
        "--orders",
        "fc.orders.yaml",
        "--side",
        "french",
    ]);
    // prose: nor do the words the French read name the town's square.
    assert!(
        !out.contains("(10,5)") && out.contains("out of sight"),
        "{out}"
    );
}

#[test]
fn audit14_42_a_feature_in_an_arrow_square_allows_forward_deployment() {
    // 000 l.86-90 (#16: a command with arrows occupies each of its squares) and 000 #17
    // (each square it occupies is a deployment square), 000 #18 (a terrain feature in the
    // forward half of the square): a feature in any square the command holds qualifies
    // (thirteenth outside audit #42). Worked by hand (t4ff): ab's marker on open ground at
    // (9,5), its arrow in the town at (10,5), battle mode, ½ mp saved: the forward
    // deployment is accepted and announced by the marker's square (public, on the open
    // table) and the town's. (Before the fix: "no terrain feature ... in the forward half
    // of its square".)
    let p = play14("t4ff.yaml", "t4.orders.yaml", None);
    assert_eq!(p.code, 0, "{:?}", p.refused);
    assert!(p.announced("the command at (9,5) is deployed forward into a town at (10,5)"));
    // fg: ab then takes its arrow up into (9,5), open ground: it holds no feature now, and
    // as the next phase begins (no hook follows a gather) every player is told it ended.
    let p = play14("t4ff.yaml", "fg.orders.yaml", Some("french"));
    assert_eq!(p.code, 0, "{:?}", p.refused);
    let ended =
        "the command at (9,5) is no longer deployed forward: it no longer holds its feature";
    let next = p.in_phase(2, "command", "french");
    assert!(
        next.iter()
            .any(|e| e["event"] == "announced" && e["text"] == ended),
        "{next:?}"
    );
}

#[test]
fn audit14_34_45_a_view_says_each_fact_once() {
    // 001 [6.92]: a marker turned face down again keeps what was seen of it as last seen;
    // 001 notes on dummy markers: a dummy has an officer but no combat units. Cosmetic
    // (thirteenth outside audit #34, #45): each fact is said once. Worked by hand:
    // - t23, t23a: the French saw #3 at B (real, infantry, strength 4), then lost it: its
    //   line lists the public facts and then "as last seen: real, infantry, strength 4"
    //   (before: "real, infantry, strength 4, strategic mode, real, type and strength as
    //   last seen").
    // - t15a_dum: ah, sighted at A as a dummy: "a dummy" once, no type "dummy" and no
    //   "strength 0" after it (before: "a dummy, dummy, strength 0").
    // prose: this test is about the view's words (each fact said once).
    let (code, out) = run14(&[
        "view",
        "t23.yaml",
        "--orders",
        "t23a.orders.yaml",
        "--side",
        "french",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("#3         at (5,6), facing S, strategic mode, as last seen: real, infantry, strength 4\n"),
        "{out}"
    );
    let (code, out) = run14(&[
        "view",
        "t15a_dum.yaml",
        "--orders",
        "t15a.orders.yaml",
        "--side",
        "french",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("ah         at (4,5), facing S, sighting A, face up, a dummy, strategic mode"),
        "{out}"
    );
}

#[test]
fn audit14_41_the_end_after_a_move_never_names_an_unsighted_town_square() {
    // 000 l.120-121 (#18c) with l.231 (a concealed command is disclosed only by a starred
    // letter): the end of a forward deployment is told as its start was. Worked by hand
    // (t4fc_unseen_cav, fm): ab, cavalry in the town at (10,5), unsighted, deploys forward
    // ("a command out of sight"), gathers, and next turn steps out to (9,5), open ground
    // the French see: its end must not name (10,5), the square it was concealed in, which
    // the French never saw it on ("a command out of sight … has left its square"). (Before
    // this the end named "(10,5)", since the French see the command once it is out.)
    let p = play14("t4fc_unseen_cav.yaml", "fm.orders.yaml", Some("french"));
    assert_eq!(p.code, 0, "{:?}", p.refused);
    assert!(
        p.announced("a command out of sight is no longer deployed forward: it has left its square")
    );
    assert!(!names_cell(&p, 10, 5), "{:?}", p.events);
    let (_, out) = run14(&[
        "play",
        "t4fc_unseen_cav.yaml",
        "--orders",
        "fm.orders.yaml",
        "--side",
        "french",
    ]);
    // prose: nor do the words the French read name it.
    assert!(
        !out.contains("(10,5)") && out.contains("out of sight"),
        "{out}"
    );
}
