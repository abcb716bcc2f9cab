//! The fifth outside audit of the square-block game (`docs/audits/square-blocks.md`,
//! "Fifth outside audit"), run end to end on its positions in
//! `tests/fixtures/audits/square-blocks/fifth/`. Each test cites the seed line.

use crate::util::Run;
use crate::util::{Played, cells, count_events, play_json_in, root};

const T5: &str = "tests/fixtures/audits/square-blocks/fifth";

fn run5(args: &[&str]) -> Run {
    crate::util::grognard_fixtures(T5, args)
}

/// `play SCENARIO --orders ORDERS --json ARGS` in the fixture folder.
fn play5(scenario: &str, orders: &str, args: &[&str]) -> Played {
    play_json_in(&root().join(T5), scenario, orders, args)
}

/// The refusal's words, asserted to be of `kind`. prose: which rule refused is said in
/// the words.
fn refused_for<'a>(p: &'a Played, kind: &str) -> &'a str {
    assert_eq!(p.refusal_kind.as_deref(), Some(kind), "{:?}", p.refused);
    p.refused.as_deref().unwrap_or_default()
}

fn out(r: &Run) -> (i32, String, String) {
    (r.code, r.stdout.clone(), r.stderr.clone())
}

#[test]
fn audit5_1_what_legal_and_play_allow_follows_from_what_the_view_shows() {
    // 000 l.187: scouts "move on the square grid just like blocks except they are individual
    // officer miniatures"; 001 l.10-11: a coin tracks the officer figure. A scout is no
    // face-down block, so its kind is public (note: `in_view`). The no-leak property, for
    // the French looking at the Austrian piece x at (5,5) (a scout, a dummy or an infantry
    // block, the rest of the table alike): where two games' French views are the same,
    // their `legal` and `play` answers are the same. Worked by hand: cav (road mode, 2 mp)
    // may ride (5,7) → (5,6) → (5,5) into the scout's square (a scout keeps no block out,
    // 000 l.208) but not into a block's; so the two games' legal lists differ, and the
    // views must show why. Before the fix the scout was an anonymous "#N at (5,5)" like
    // the dummy while legal listed the move: the views matched and the answers did not.
    // prose: the view's line for the cell is what this test compares with legal's.
    let view = |p: &str| run5(&["view", p, "--orders", "o2.yaml", "--side", "french"]);
    let legal = |p: &str| run5(&["legal", p, "--orders", "o2.yaml", "--side", "french"]);
    let games = ["p2scout.yaml", "p2dummy.yaml", "p2real.yaml"];
    for (i, a) in games.iter().enumerate() {
        for b in &games[i + 1..] {
            let (va, vb) = (view(a), view(b));
            assert_eq!(va.code, 0, "{a}: {}", va.stderr);
            if va.stdout == vb.stdout {
                assert_eq!(out(&legal(a)), out(&legal(b)), "{a} / {b}");
            }
        }
    }
    // The dummy and the block stay face down and alike (no free test of a marker).
    assert_eq!(view("p2dummy.yaml").stdout, view("p2real.yaml").stdout);
    assert_eq!(out(&legal("p2dummy.yaml")), out(&legal("p2real.yaml")));
    // The scout is seen for what it is, and the move into its square is listed.
    let v = view("p2scout.yaml");
    let x = v
        .stdout
        .lines()
        .find(|l| l.contains("at (5,5)"))
        .unwrap_or_else(|| panic!("{}", v.stdout));
    // (Its mode, public with its position, closes the line since the ninth audit's #3.)
    assert!(
        x.ends_with("face up, real, scout, strategic mode"),
        "{}",
        v.stdout
    );
    let l = legal("p2scout.yaml");
    assert!(
        l.stdout
            .contains("move: { piece: cav, path: [[5, 6], [5, 5]] }"),
        "{}",
        l.stdout
    );
    let j = run5(&[
        "view",
        "p2scout.yaml",
        "--orders",
        "o2.yaml",
        "--side",
        "french",
        "--json",
    ]);
    assert!(j.stdout.contains("\"scout\""), "{}", j.stdout);
    // Redeploying a French dummy onto x's square (001 l.153-156): the same property for
    // `play`. The dummy may be put down with the scout (visible as one), not on a marker.
    let (vs, vd) = (view("p2rscout.yaml"), view("p2rdummy.yaml"));
    assert_ne!(vs.stdout, vd.stdout);
    let play = |p: &str| run5(&["play", p, "--orders", "f_redeploy.yaml", "--side", "french"]);
    assert_eq!(
        play("p2rscout.yaml").code,
        0,
        "{}",
        play("p2rscout.yaml").stderr
    );
    assert_ne!(play("p2rdummy.yaml").code, 0);
}

#[test]
fn audit5_1_the_owner_sees_its_scout_as_the_enemy_does() {
    // 000 l.187 (officer miniatures): the scout's owner is told that the enemy sees it for
    // what it is, as for a marker turned face up (note on audit #48), and a scout's turn in
    // the command phase reaches the enemy under its kind (000 l.167: only officers, scouts
    // and ADCs act then, which the view already shows).
    // p4b (seed 7): fs is removed by its first roll and rides its headquarters' face-down
    // block (seventh audit #1), so the French view no longer calls it face up and the
    // Austrians see no scout; the Austrian scout `as`, in the open at (1,1), is the one
    // its owner is told the enemy sees, and its turn in the French command phase reaches
    // the French under its handle.
    let own = run5(&["view", "p4b.yaml", "--side", "austrians"]);
    let line = own
        .stdout
        .lines()
        .find(|l| l.contains("  as "))
        .unwrap_or("");
    assert!(
        line.contains("face up: the enemy sees it"),
        "{}",
        own.stdout
    );
    // prose: the owner's and the enemy's view lines.
    let french = run5(&["view", "p4b.yaml", "--side", "french"]);
    let fs = french
        .stdout
        .lines()
        .find(|l| l.contains("  fs "))
        .unwrap_or("");
    assert!(!fs.contains("face up"), "{}", french.stdout);
    assert!(
        french.stdout.contains("face up, real, scout"),
        "{}",
        french.stdout
    );
    let enemy = play5("p4b.yaml", "a_face.yaml", &["--side", "french"]);
    assert_eq!((enemy.code, &enemy.refused), (0, &None));
    let faced = (enemy.events.iter()).any(|e| e["event"] == "faced" && e["facing"] == "E");
    assert!(faced, "{:?}", enemy.events);
}

#[test]
fn audit5_2_forward_deployment_is_told_by_its_square_not_its_marker() {
    // 000 l.120-121, 001 l.119-120: the opposite player is told the command is forward
    // deployed. iw and iw2 are two face-down French blocks in (3,3); either deploys
    // forward. The Austrians read "the command at (3,3) is deployed forward" and nothing
    // else, the same whichever did it. Before the fix their log also read "enemy #1
    // forward_deploy" or "enemy #2 forward_deploy", telling the markers apart.
    let side = |orders: &str, s: &str| {
        run5(&[
            "play",
            "p12.yaml",
            "--orders",
            orders,
            "--option",
            "small_tables=on",
            "--side",
            s,
        ])
    };
    let (a, b) = (
        side("f_fwd.yaml", "austrians"),
        side("f_fwd2.yaml", "austrians"),
    );
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(out(&a), out(&b));
    // The Austrians' log holds the announcement and no act of either marker.
    let args = ["--option", "small_tables=on", "--side", "austrians"];
    let told = play5("p12.yaml", "f_fwd.yaml", &args);
    let said = serde_json::json!({"event": "announced", "text": "the command at (3,3) is deployed forward into a wood"});
    assert!(told.events.contains(&said), "{:?}", told.events);
    assert_eq!(count_events(&told.events, "acted"), 0, "{:?}", told.events);
    // The owner still reads which of its blocks did it.
    let own = play5(
        "p12.yaml",
        "f_fwd.yaml",
        &["--option", "small_tables=on", "--side", "french"],
    );
    assert!(
        own.has("acted", "iw2", |e| e["action"] == "forward_deploy"),
        "{:?}",
        own.events
    );
}

#[test]
fn audit5_3_a_sighted_dummy_shows_its_owner_nothing_of_the_observer() {
    // 001 l.83-89: a marker sighted at A or B is "flipped over to disclose the command
    // marker information to all players"; 000 l.220-224: at A the owner places its
    // miniatures, at B it reports its units, so it always knows. In p3a the hidden
    // infantry hid at (5,5) has fd at (5,6) adjacent (A*) and the town block at (8,5) has
    // fd2 at (8,6) adjacent. p3b has neither Austrian block. The French know of the same
    // enemies in both. Since the tenth audit (W1; 000 l.79-80, 001 l.150-152: a dummy
    // collects no information) a dummy's flip is the sighting side's alone, so the French
    // see fd face down in p3a as in p3b: its flip would have told them a real enemy is in
    // sight of (5,6).
    // prose: what the French view says (a leak in words).
    let a = run5(&[
        "view", "p3a.yaml", "--orders", "o2.yaml", "--side", "french",
    ]);
    let b = run5(&[
        "view", "p3b.yaml", "--orders", "o2.yaml", "--side", "french",
    ]);
    assert_eq!(a.code, 0, "{}", a.stderr);
    let enemies = |s: &str| s.split("enemy pieces known:").nth(1).map(str::to_owned);
    assert_eq!(enemies(&a.stdout), enemies(&b.stdout));
    let fd = a
        .stdout
        .lines()
        .find(|l| l.starts_with("  fd         dummy"))
        .unwrap_or_else(|| panic!("{}", a.stdout));
    assert!(!fd.contains("face up"), "{}", a.stdout);
    assert!(!b.stdout.contains("face up"), "{}", b.stdout);
    assert!(!a.stdout.contains("(5,5)") && !a.stdout.contains("(8,5)"));
}

#[test]
fn audit5_4_a_road_column_laid_along_the_road_marches_as_its_marker() {
    // 001 l.141-143: road columns "normally take up additional squares along the road".
    // Our reading (note): ir (road mode, 2 mp, at (6,9) on the road) lays an arrow to
    // (6,8), the next road square; to march it takes the arrow up (free), moves (6,9) →
    // (6,8) → (6,7) for 1 + 1 = 2 mp, and lays the arrow again behind it, all in one phase.
    let r = play5("p14.yaml", "roadcol.yaml", &[]);
    assert_eq!((r.code, &r.refused), (0, &None));
    let spread = |at: &[(i64, i64)]| r.find("spread", "ir", |e| e["cells"] == cells(at));
    let laid = spread(&[(6, 9), (6, 8)]);
    let gathered = spread(&[(6, 9)]);
    let path = cells(&[(6, 9), (6, 8), (6, 7)]);
    let marched = r.find("moved", "ir", |e| e["path"] == path && e["cost"] == 200);
    let relaid = spread(&[(6, 7), (6, 8)]);
    assert!(
        laid.is_some() && laid < gathered && gathered < marched && marched < relaid,
        "{:?}",
        r.events
    );
    // Off the road an arrow is refused (road mode follows roads, 001 l.97-99); a
    // strung-out column's move is refused with words that say to gather.
    let off = play5("p14.yaml", "roadoff.yaml", &[]);
    assert!(
        refused_for(&off, "impassable")
            .ends_with("in road mode ir must follow a road, and there is none from (6,9) to (7,8)"),
        "{:?}",
        off.refused
    );
    let strung = play5("p14.yaml", "f_roadext.yaml", &[]);
    assert!(
        refused_for(&strung, "bad_path")
            .ends_with("ir is spread over several cells; gather it before moving"),
        "{:?}",
        strung.refused
    );
}

#[test]
fn audit5_5_a_save_then_a_change_into_battle_mode_is_refused_in_true_words() {
    // 000 l.74-75: strategic to battle "takes a full stationary Movement Phase"; 000
    // l.57-60, 001 l.113-115: saved points are that phase's points kept for the next. inf
    // (strategic, 1½ mp, at (6,8)) saves toward the town at (7,7) (1½ + ½ = 2 > 1½), then
    // is ordered into battle mode. Our reading (note): a phase holds a save or the change,
    // never both. Before the fix the refusal said "inf has moved", which it had not.
    for orders in ["f_savemode.yaml", "f_modesave.yaml", "f_movemode.yaml"] {
        refused_for(&play5("p1.yaml", orders, &[]), "already_used");
    }
    // prose: this test is about the refusals' words.
    let r = run5(&["play", "p1.yaml", "--orders", "f_savemode.yaml"]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains(
            "refused: changing from strategic to battle mode takes a whole phase standing \
             still, its movement points unused, and inf stood still this phase to save its \
             movement points"
        ),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("has moved"), "{}", r.stderr);
    // The other order is refused as before (audit #22), and a real move is named a move.
    let r = run5(&["play", "p1.yaml", "--orders", "f_modesave.yaml"]);
    assert!(
        r.stderr.contains(
            "inf changed from strategic to battle mode this phase, which takes the whole \
             phase standing still"
        ),
        "{}",
        r.stderr
    );
    let r = run5(&["play", "p1.yaml", "--orders", "f_movemode.yaml"]);
    assert!(
        r.stderr.contains(
            "changing from strategic to battle mode takes a whole phase standing still, its \
             movement points unused, and inf has already moved"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn audit5_6_scout_fate_counts_squares_as_a_king_moves() {
    // 000 l.206-207: "2 or 3 squares away from nearest enemy command" removes on 9 or 10,
    // "4 or 5" on 10 only. fs at (2,6), ai at (4,4): 2 across and 2 up, 2 squares as a
    // king moves (4 counted orthogonally). The seed rolls fs a 9 (HQ set up, day): the
    // "2 or 3" row removes it; the "4 or 5" row would not.
    let r = play5("sf.yaml", "empty.yaml", &[]);
    assert_eq!((r.code, &r.refused), (0, &None));
    let roll = (r.events.iter())
        .find(|e| e["event"] == "rolled" && e["roll"]["purpose"] == "scout fate of fs")
        .map(|e| {
            (
                e["roll"]["dice"][0]["value"].clone(),
                e["roll"]["score"].clone(),
                e["roll"]["outcome"].clone(),
            )
        });
    assert_eq!(
        roll,
        Some((9.into(), 9.into(), "removed".into())),
        "{:?}",
        r.events
    );
}

#[test]
fn audit5_6_a_dummy_has_no_units() {
    // 001 l.62 and l.158: a dummy has an officer "but no combat units". d77 has 5 units:
    // `validate` refuses it at its line (before: accepted, and a B sighting reported
    // "strength 5" for a dummy).
    let r = run5(&["validate", "du.yaml"]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(r.stderr.contains("du.yaml:29"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("d77 is a dummy, which has an officer but no combat units, but has 5 units"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains(".lua:"), "{}", r.stderr);
}
