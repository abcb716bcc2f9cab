//! The eleventh round on the square-block game (`docs/audits/square-blocks.md`, "Eleventh
//! round"): a dummy's move or arrow must not find unseen enemies. Positions in
//! `tests/fixtures/audits/square-blocks/eleventh/`. Each test cites the seed line.

use serde_json::{Value, json};

use crate::util::{
    Played, Run, assert_reads_alike, cells, count_events, play_json_in, root, side_reads, side_runs,
};

const T11: &str = "tests/fixtures/audits/square-blocks/eleventh";

fn run11(args: &[&str]) -> Run {
    crate::util::grognard_fixtures(T11, args)
}

/// What `COMMAND SCENARIO --orders ORDERS --side SIDE [EXTRA]` prints (stdout, stderr).
fn out11(command: &str, scenario: &str, orders: &str, side: &str, extra: &[&str]) -> String {
    let mut args = vec![command, scenario, "--orders", orders, "--side", side];
    args.extend(extra);
    let r = run11(&args);
    assert_eq!(r.code, 0, "{command} {scenario}: {}", r.stderr);
    format!("{}{}", r.stdout, r.stderr)
}

/// `play SCENARIO --orders ORDERS --side SIDE --json` in the fixture folder, all accepted.
fn played11(scenario: &str, orders: &str, side: &str) -> Played {
    let p = play_json_in(&root().join(T11), scenario, orders, &["--side", side]);
    assert_eq!(
        (p.code, &p.refused),
        (0, &None),
        "{scenario} {orders} {side}"
    );
    p
}

/// Everything the French read after `orders` on `scenario` (`util::SIDE_READS`: their log
/// in text and JSON, their view in text and JSON, their legal orders), stdout and stderr.
fn french_reads(scenario: &str, orders: &str) -> Vec<String> {
    side_reads(side_runs(run11, scenario, orders, "french"), true)
}

#[test]
fn audit11_a_dummys_move_reads_the_same_over_an_unseen_command_as_over_empty_squares() {
    // 000 l.79-80 (#15): dummy blocks "cannot collect scouting information"; 001 l.150-152:
    // dummy marker movement "cannot be used to scout enemy command markers, collect any
    // information".
    //
    // Worked by hand (m.orders.yaml): fb (battle, 1 mp) steps (7,5) → (7,4), cost 1; fs
    // (strategic, 1½) (5,5) → (5,4), cost 1; fg (strategic) diagonally (0,5) → (1,4), cost
    // 1½; fr (road, 2) along the road (3,5) → (3,4) → (3,3), cost 2. A dummy has no two-
    // square diagonal move (3 mp) and no two-square move off a road (2 mp > 1½). The hidden
    // Austrian command ah stands on none of the paths (empty), on the square fb, fs or fg
    // ends on (b1, s1, g1), the square fr passes through (rthrough) or ends on (ronto).
    // Before the fix each of those read "note: fb could not enter (7,4)" (or fr "stopped:
    // could not enter (3,3)"): the owner learnt something stands there. Now the dummy goes
    // on as over empty ground and shares the square; nobody deploys. l.orders.yaml goes on
    // to the French movement phase of turn 2, where `legal` lists the dummies' next moves
    // from the squares they share.
    for orders in ["m.orders.yaml", "l.orders.yaml"] {
        let empty = french_reads("empty.yaml", orders);
        for s in [
            "b1.yaml",
            "s1.yaml",
            "g1.yaml",
            "rthrough.yaml",
            "ronto.yaml",
        ] {
            let there = french_reads(s, orders);
            assert_reads_alike(&empty, &there, &format!("{s} {orders}"));
        }
    }
    // Its whole path, not stopped, and no contact.
    let p = played11("ronto.yaml", "m.orders.yaml", "french");
    let walked = p.has("moved", "fr", |e| {
        e["path"] == cells(&[(3, 5), (3, 4), (3, 3)]) && e["cost"] == 200 && e["stopped"].is_null()
    });
    assert!(
        walked && count_events(&p.events, "contact") == 0,
        "{:?}",
        p.events
    );
}

#[test]
fn audit11_the_enemy_sees_the_dummy_arrive_and_nobody_deploys() {
    // 000 l.47-51 (#9): only an enemy real block ("non-dummy command") causes deployment;
    // 001 l.150-152. The hidden ah at (3,3) (ronto) sees fr arrive in its own square, next
    // to it, at A (its own adjacent sight), as it would see a real marker arrive; no
    // contact is made, and ah stays hidden from the French.
    let au = played11("ronto.yaml", "m.orders.yaml", "austrians");
    let at = |c: (i64, i64)| json!({"cell": cells(&[c])[0]});
    let arrived = (au.events.iter())
        .position(|e| {
            e["event"] == "enemy_moved" && e["from"] == at((3, 5)) && e["to"] == at((3, 3))
        })
        .unwrap_or_else(|| panic!("{:?}", au.events));
    let fr = au.events[arrived]["piece"].clone();
    let seen = |e: &Value| {
        e["event"] == "sighted" && e["piece"] == fr && e["side"] == 1 && e["level"] == "A"
    };
    assert!(au.events[arrived..].iter().any(seen), "{:?}", au.events);
    assert_eq!(count_events(&au.events, "contact"), 0, "{:?}", au.events);
    let fr = out11("view", "ronto.yaml", "m.orders.yaml", "french", &["--json"]);
    let v: serde_json::Value = serde_json::from_str(&fr).unwrap();
    // The French list one enemy marker, the Austrian HQ at (9,0): ah is not among them.
    let enemies = v["view"]["enemy"].as_array().cloned().unwrap_or_default();
    assert_eq!(enemies.len(), 1, "{fr}");
    assert_eq!(
        enemies[0]["place"]["cell"],
        serde_json::json!({"col": 9, "row": 0}),
        "{fr}"
    );
}

#[test]
fn audit11_a_real_blocks_move_is_unchanged() {
    // 000 l.47-51 (#9) and the sixth audit's #5 (a dummy keeps enemy blocks out of its
    // square): a real command collects information. real.yaml, worked by hand: the French
    // infantry fi, road mode, marches (3,5) → (3,4) → (3,3) toward the hidden Austrian
    // dummy ad at (3,3); it stops at (3,4), cost 1, "could not enter (3,3)", and its
    // adjacent sight then has ad at A.
    let p = played11("real.yaml", "r.orders.yaml", "french");
    let stopped = p.find("moved", "fi", |e| {
        e["path"] == cells(&[(3, 5), (3, 4)])
            && e["cost"] == 100
            && e["stopped"] == "could not enter (3,3)"
    });
    let at_a = |e: &Value| e["event"] == "sighted" && e["side"] == 0 && e["level"] == "A";
    let seen = p.events.iter().position(at_a);
    assert!(stopped.is_some() && stopped < seen, "{:?}", p.events);
}

#[test]
fn audit11_a_dummys_arrow_reads_the_same_over_an_unseen_command() {
    // 000 l.79-80 (#15), 001 l.150-152 as above; 000 l.86-91 (#16) arrows; the note on
    // dummies and arrows (a dummy lays arrows as a real command would). e.orders.yaml,
    // worked by hand: fb, fs and fr lay an arrow a square north ((7,4), (5,4), (3,4); fr
    // along the road). Before the fix fs's arrow onto the hidden ah at (5,4) (s1) read "fs
    // comes into contact at (5,5); deploying in order: an unseen enemy, fs": a dummy
    // deployed an unseen real command, and its owner learnt where it stood. Now each
    // arrow is laid as over empty ground, whichever square ah holds.
    let orders = "e.orders.yaml";
    let empty = french_reads("empty.yaml", orders);
    for s in ["b1.yaml", "s1.yaml", "rthrough.yaml"] {
        let there = french_reads(s, orders);
        assert_reads_alike(&empty, &there, s);
    }
    let p = played11("s1.yaml", orders, "french");
    assert!(
        p.has("spread", "fs", |e| e["cells"] == cells(&[(5, 5), (5, 4)])),
        "{:?}",
        p.events
    );
    let au = played11("s1.yaml", orders, "austrians");
    let spreads = |e: &Value| e["event"] == "enemy_moved" && e["to"]["spread"].is_array();
    assert!(
        au.events.iter().filter(|e| spreads(e)).count() == 3,
        "{:?}",
        au.events
    );
    assert_eq!(count_events(&au.events, "contact"), 0, "{:?}", au.events);
}
