//! Hex Command (seed 004), fifteenth round (the tenth outside audit's #11 and #12, issue 33):
//! a hidden marker's mode; then the same audit's #14 (decision failure 3) and #18 (tribes),
//! on the auditor's positions in ../thirteenth/. Positions in
//! tests/fixtures/audits/hex-command/fourteenth/, each worked by hand below.
//!
//! The four scenarios differ only in what red's marker rM at (6,3), in buildings, is: limbered
//! guns, unlimbered guns, dismounted cavalry, or a fake. Blue's b1 (3,3) and bArt (3,5) are 3
//! hexes off: within the 5 of the spotting chart, but rM stands in buildings, which the
//! chart's first band does not see into, so blue knows only the marker's place and facing
//! (handle #2). rOpen, unlimbered guns at (6,5) in the open, is 3 hexes from bArt: seen, and
//! its identity is public (`public: [position, identity]`), so blue knows it by name. In red's
//! first movement phase rM unlimbers, limbers or mounts (the fake does nothing) and rOpen
//! limbers; the game is then played on to blue's second movement phase.

use serde_json::{Value, json};

use crate::util::{
    assert_reads_alike, grognard_in, json_of, play_json_in, root, side_reads, side_runs,
};

const THIRTEENTH: &str = "tests/fixtures/audits/hex-command/thirteenth";

/// The acts and mode changes among `events`, as (event, piece, what).
fn acts_and_modes(events: &[Value]) -> Vec<(String, Value, Value)> {
    (events.iter())
        .filter(|e| e["event"] == "acted" || e["event"] == "mode_changed")
        .map(|e| {
            let what = if e["event"] == "acted" {
                e["action"].clone()
            } else {
                e["to"].clone()
            };
            (
                e["event"].as_str().unwrap_or_default().to_owned(),
                e["piece"].clone(),
                what,
            )
        })
        .collect()
}

/// `legal --json`'s orders for blue on `scenario` after `orders` in ../thirteenth/.
fn legal_in_thirteenth(scenario: &str, orders: &str) -> Vec<Value> {
    let answer = json_of(&grognard_in(
        &root().join(THIRTEENTH),
        &[
            "legal", scenario, "--side", "blue", "--orders", orders, "--json",
        ],
    ));
    answer["orders"].as_array().cloned().unwrap_or_default()
}

/// Whether `orders` list a move of `piece` along `path`.
fn lists_move(orders: &[Value], piece: &str, path: Value) -> bool {
    (orders.iter()).any(|o| o["move"]["piece"] == piece && o["move"]["path"] == path)
}

/// The refusal of `play SCENARIO --orders ORDERS --json` in ../thirteenth/, asserted to be
/// a refusal of the rules' hook: its words.
fn hook_refusal(scenario: &str, orders: &str) -> String {
    let p = play_json_in(&root().join(THIRTEENTH), scenario, orders, &[]);
    assert_eq!(
        p.refusal_kind.as_deref(),
        Some("hook_failed"),
        "{:?}",
        p.refused
    );
    p.refused.unwrap_or_default()
}

const DIR: &str = "tests/fixtures/audits/hex-command/fourteenth";

/// The marker's four natures and the orders of each: (scenario, orders).
const MARKERS: [(&str, &str); 4] = [
    ("limbered.yaml", "unlimber.orders.yaml"),
    ("unlimbered.yaml", "limber.orders.yaml"),
    ("dismounted.yaml", "mount.orders.yaml"),
    ("fake.yaml", "none.orders.yaml"),
];

fn run(args: &[&str]) -> String {
    let r = grognard_in(&root().join(DIR), args);
    assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
    r.stdout
}

/// Everything blue receives of one game: its view before any order (text and JSON), then
/// what it reads ([`SIDE_READS`](crate::util::SIDE_READS)) after the orders: its log as `play`
/// prints it (text and JSON), its view (text and JSON) and its legal orders in its second
/// movement phase.
fn blue_reads(scenario: &str, orders: &str) -> (Vec<String>, Vec<String>) {
    let before = vec![
        run(&["view", scenario, "--side", "blue"]),
        run(&["view", scenario, "--json", "--side", "blue"]),
    ];
    let runs = side_runs(
        |a| grognard_in(&root().join(DIR), a),
        scenario,
        orders,
        "blue",
    );
    (before, side_reads(runs, false))
}

// 004 l.264 (a unit no enemy sees is a counter on the table; the owner alone knows what it
// is) and l.166 (markers revealed only by spotting); the ruleset's note 58: a hidden marker
// shows its place and facing and nothing else, in every answer. A marker's mode (the guns
// limbered or unlimbered, the horse dismounted; a fake is always formed) told blue its arm
// and that it was real (the auditor's `view --side blue`: `#1 … unlimbered mode`, `#2 …
// limbered mode`, `#3 … dismounted mode`, `#5 formed mode`), and red's unlimber and mount
// reached blue's log (`enemy #2 unlimber`, `enemy #2 changed mode limbered → unlimbered`,
// `enemy #3 mount`). With `sighting.mode_with_identity` blue's every answer is the same, byte
// for byte, whichever of the four the marker is and whatever it did.
#[test]
fn a_markers_mode_and_its_mode_changes_do_not_reach_the_enemy() {
    let reads: Vec<_> = MARKERS.iter().map(|(s, o)| blue_reads(s, o)).collect();
    let (before, after) = &reads[0];
    for (m, (other_before, other_after)) in MARKERS.iter().zip(&reads).skip(1) {
        let what = format!("blue, {} and {}", MARKERS[0].0, m.0);
        assert_eq!(
            before, other_before,
            "{what}: the view before any order differs"
        );
        assert_reads_alike(after, other_after, &what);
    }
    let (view, log) = (&after[2], &after[0]);
    // The marker by its handle, its place and facing, nothing more.
    let marker = view
        .lines()
        .find(|l| l.trim_start().starts_with("#2 "))
        .unwrap_or_else(|| panic!("no marker #2 in blue's view: {view}"));
    assert_eq!(marker.trim(), "#2         at (6,3), facing W");
    let json: serde_json::Value = serde_json::from_str(&after[3]).expect("view --json");
    let enemy = json["view"]["enemy"].as_array().expect("enemy pieces");
    let two = enemy.iter().find(|e| e["handle"] == 2).expect("#2");
    assert!(two["mode"].is_null(), "{two}");
    // The one act and mode change blue's play --json log has are rOpen's (#3), in the open;
    // nothing of the marker #2.
    let played: Value = serde_json::from_str(&after[1]).expect("play --json");
    let events = played["events"].as_array().expect("events");
    let open = json!(3);
    let expected = [
        ("acted".to_owned(), open.clone(), json!("limber")),
        ("mode_changed".to_owned(), open, json!("limbered")),
    ];
    assert_eq!(acts_and_modes(events), expected, "{played}");
    assert!(!events.iter().any(|e| e["piece"] == 2), "{played}");
    // prose: nor do the log's words name the marker or its arm.
    for word in ["enemy #2", "rM", "mount", "dismounted"] {
        assert!(!log.contains(word), "blue's log reads {word:?}: {log}");
    }
}

// The same switch leaves what blue may know as it was: its own guns' mode, and the mode of
// an enemy it has identified (rOpen, in the open: l.214, everything done in the open is done
// in the opponent's view), with that enemy's limbering in its log; red, the marker's owner,
// reads its own marker's mode and act.
#[test]
fn own_and_identified_modes_are_shown_as_before() {
    let (scenario, orders) = MARKERS[0];
    let view = |side: &str| {
        let text = run(&[
            "view", scenario, "--orders", orders, "--side", side, "--json",
        ]);
        serde_json::from_str::<Value>(&text).expect("view --json")
    };
    let blue = view("blue");
    let mode_of = |list: &Value, key: &str, id: Value| {
        (list.as_array().into_iter().flatten())
            .find(|p| p[key] == id)
            .map(|p| p["mode"].clone())
            .unwrap_or_else(|| panic!("no {id} in {list}"))
    };
    // bArt's mode is a number in the own list: 2, unlimbered (modes: formed, limbered,
    // unlimbered, dismounted).
    assert_eq!(
        mode_of(&blue["view"]["own"], "name", json!("bArt")),
        2,
        "{blue}"
    );
    assert_eq!(
        mode_of(&blue["view"]["enemy"], "handle", json!(3)),
        "limbered",
        "{blue}"
    );
    let limbering = [
        ("acted".to_owned(), json!(3), json!("limber")),
        ("mode_changed".to_owned(), json!(3), json!("limbered")),
    ];
    assert_eq!(
        acts_and_modes(blue["events"].as_array().expect("events")),
        limbering
    );
    let red = view("red");
    let events = red["events"].as_array().expect("events");
    let rm = (red["view"]["own"].as_array().into_iter().flatten())
        .find(|p| p["name"] == "rM")
        .map(|p| p["id"].clone())
        .expect("rM");
    let unlimbers =
        |e: &Value| e["event"] == "mode_changed" && e["piece"] == rm && e["to"] == "unlimbered";
    assert!(events.iter().any(unlimbers), "{red}");
}

// The auditor's own positions (tests/fixtures/audits/hex-command/thirteenth/h3.yaml, notes
// 58 and l.264 as above): unlimbered guns #1, limbered guns #2, dismounted horse #3,
// infantry #4 and a fake #5, all hidden in buildings 3 hexes from b1. Blue reads five
// markers alike (the auditor's `#1 … unlimbered mode` … `#5 formed mode`), and red's
// unlimber (rLim) and mount (rCav) in h3.o1.yaml leave nothing in blue's log (the auditor's
// `enemy #2 unlimber`, `enemy #3 mount`, and their mode changes).
#[test]
fn the_auditors_five_markers_read_alike() {
    let dir = root().join("tests/fixtures/audits/hex-command/thirteenth");
    let view = json_of(&grognard_in(
        &dir,
        &["view", "h3.yaml", "--side", "blue", "--json"],
    ));
    let enemy = view["view"]["enemy"].as_array().expect("enemy");
    for (n, row) in [1, 3, 5, 7, 9].into_iter().enumerate() {
        let marker = (enemy.iter())
            .find(|e| e["handle"] == n + 1)
            .unwrap_or_else(|| panic!("no #{} in {view}", n + 1));
        assert_eq!(
            marker["place"]["cell"],
            json!({"col": 6, "row": row}),
            "{marker}"
        );
        assert_eq!(marker["facing_name"], "W", "{marker}");
        assert!(
            marker["mode"].is_null() && marker["kind"].is_null(),
            "{marker}"
        );
    }
    let played = play_json_in(&dir, "h3.yaml", "h3.o1.yaml", &["--side", "blue"]);
    assert_eq!(played.code, 0, "{:?}", played.refused);
    assert_eq!(acts_and_modes(&played.events), [], "{:?}", played.events);
    let play = grognard_in(
        &dir,
        &[
            "play",
            "h3.yaml",
            "--orders",
            "h3.o1.yaml",
            "--side",
            "blue",
        ],
    );
    assert_eq!(play.code, 0, "{}", play.stderr);
    // prose: nor do the log's words tell of them.
    for word in ["enemy #2", "enemy #3", "mount", "limber", "changed mode"] {
        assert!(!play.stdout.contains(word), "{word:?} in {}", play.stdout);
    }
}

// 004 l.339, decision failure 3: "cannot move in the enemy's direction until passing
// Aggressiveness; can move in other directions". The auditor's c1s1.yaml (seed 1): bgen
// (T 10) fails his order change, d10 = 3, so b1 and b2 are cautious. b2 at (4,8) faces W
// with r1 (10,5), 8 hexes off (`grognard measure c1s1.yaml b2 r1`), in its rear arc: its
// first step heads away, but the path (3,7) → (4,6) → (5,6) curls round and ends 6 hexes
// from r1 (5 columns nearer, one row off), facing it: a move in the enemy's direction,
// refused (the auditor's run accepted it and listed it). Straight away, (3,8) → (2,8) →
// (1,8) ends 9 hexes off and is still listed.
#[test]
fn a_cautious_unit_may_not_curl_round_toward_the_enemy() {
    let words = hook_refusal("c1s1.yaml", "c1.o3.yaml");
    // prose: which rule refused is said in its words.
    assert!(
        words.contains(
            "refused: b2 may not move in the enemy's direction until its commander passes his \
             Aggressiveness test (decision failure 3): this move ends nearer r1"
        ),
        "{words}"
    );
    let legal = legal_in_thirteenth("c1s1.yaml", "c1.o2.yaml");
    let curl = json!([[3, 7], [4, 6], [5, 6]]);
    assert!(!lists_move(&legal, "b2", curl), "{legal:?}");
    assert!(
        lists_move(&legal, "b2", json!([[3, 8], [2, 8], [1, 8]])),
        "{legal:?}"
    );
}

// 004 l.260 (tribes): failed units "can only advance toward the enemy if the target enemy
// unit is disordered or worse; if a fresh, undamaged unit, they will not move to melee".
// The auditor's t1.yaml: wavering t1 at (4,5); r1, fresh, at (7,5), 3 hexes off; r2, one hit,
// at (9,2). The move (5,5) → (6,5) ends next to r1 (1 hex: `grognard measure`) and nearer r2:
// the eleventh round's reading let the damaged r2 far off excuse it (the auditor's #18). It
// is refused now: closing up next to a fresh unit is moving to melee it. (6,4) and (6,6), 2
// hexes from r1 and nearer r2, stay listed: advancing on the damaged target.
#[test]
fn a_wavering_unit_does_not_close_up_next_to_a_fresh_enemy() {
    let text = hook_refusal("t1.yaml", "../fourteenth/tribe-next-to-fresh.orders.yaml");
    // prose: which rule refused is said in its words.
    assert!(
        text.contains(
            "refused: t1 failed its morale check (tribes): it will not move to melee r1, a \
             fresh, undamaged unit, and this move ends next to it"
        ),
        "{text}"
    );
    let legal = legal_in_thirteenth("t1.yaml", "t1.o1.yaml");
    let t1 = |path: Value| lists_move(&legal, "t1", path);
    assert!(!t1(json!([[5, 5], [6, 5]])), "{legal:?}");
    assert!(t1(json!([[5, 4], [6, 4]])), "{legal:?}");
    assert!(t1(json!([[5, 6], [6, 6]])), "{legal:?}");
}
