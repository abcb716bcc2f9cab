//! Hex Command (seed 004), the three gaps left after the sixth outside audit: skirmishers
//! swept off when an enemy touches a hex next to them (7.2, l.475), two leaks under hidden
//! movement (l.264), and decision failures 6 and 7 falling back to cover (l.342-343). The
//! positions are in tests/fixtures/audits/hex-command/seventh/ (Blue first: no initiative
//! roll), each worked by hand below; the audit page reruns them.

use crate::util::{
    Played, Run, assert_reads_alike, coded_reads, grognard_in, json_of, play_json_in, root,
    side_runs_any,
};

use serde_json::{Value, json};

use super::field::{assert_counted, assert_placed, assert_removed, has};

const DIR: &str = "tests/fixtures/audits/hex-command/seventh";

fn at(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

/// `play skirmishers.yaml --orders ORDERS --json MORE`: the events, for the rule's outcome.
fn events(orders: &str, more: &[&str]) -> Played {
    let played = play_json_in(&root().join(DIR), "skirmishers.yaml", orders, more);
    assert_eq!(played.code, 0, "{orders}: refused {:?}", played.refused);
    played
}

/// 004 l.475 (7.2): "Skirmisher units do not melee; if contacted by cavalry they are
/// destroyed; if contacted by any other force players can choose to a. voluntarily rout them
/// or b. remove them once the enemy unit touches a neighboring hex of the skirmish unit."
/// Red's skirmishers s stand at (5,3), whose neighbours are (4,3), (6,3), (5,2), (6,2), (5,4)
/// and (6,4). Blue's b (infantry) moves (1,3) → (4,3): it touches a neighbour, so s are
/// removed (the owner's choice b, the default) as the move ends — no melee needed; with the
/// optional rule `skirmishers_rout` (choice a) they rout 3 hexes to their rear instead, from
/// (5,3) facing E to (8,3). Blue's cavalry c moves (1,5) → (5,4): s are destroyed, with the
/// option too. Blue's p passes by, (4,4) → (5,4) → (6,4) → (7,4), ending out of touch: it
/// touched two neighbours on the way, so s are removed. Guns (a, limbered, to (6,3)) and
/// skirmishers (k, to (6,4)) do not melee, so they sweep no one; an advance after melee
/// into a neighbouring hex sweeps them as a move does. Before: s stayed in every
/// game (only a melee against them removed them).
#[test]
fn skirmishers_are_swept_off_when_an_enemy_touches_a_hex_next_to_them() {
    // The path a piece moved along, as the events give it (its cells, the start first).
    let moved_along = |ev: &Played, piece: &str, path: &[(i64, i64)]| {
        ev.has("moved", piece, |e| e["path"] == crate::util::cells(path))
    };
    let touched = |by: &str| format!("skirmishers touched by {by} next to them: removed");
    let ev = events("sk-infantry.orders.yaml", &[]);
    assert!(moved_along(&ev, "b", &[(1, 3), (2, 3), (3, 3), (4, 3)]));
    assert_removed(&ev, "s", &touched("b"));
    // Routed, not removed as well.
    let ev = events(
        "sk-infantry.orders.yaml",
        &["--option", "skirmishers_rout=on"],
    );
    assert_placed(&ev, "s", (5, 3), (8, 3), "routed");
    assert_eq!(ev.find("removed", "s", |_| true), None);
    for option in ["skirmishers_rout=off", "skirmishers_rout=on"] {
        let ev = events("sk-cavalry.orders.yaml", &["--option", option]);
        assert_removed(&ev, "s", "skirmishers contacted by cavalry (c): destroyed");
    }
    let ev = events("sk-passing.orders.yaml", &[]);
    assert!(moved_along(&ev, "p", &[(4, 4), (5, 4), (6, 4), (7, 4)]));
    assert_removed(&ev, "s", &touched("p"));
    for (orders, mover, path) in [
        ("sk-guns.orders.yaml", "a", &[(7, 1), (7, 2), (6, 3)][..]),
        (
            "sk-skirmishers.orders.yaml",
            "k",
            &[(8, 5), (7, 5), (7, 4), (6, 4)][..],
        ),
    ] {
        // The mover ends its move next to s, and s neither leaves nor moves.
        let ev = events(orders, &[]);
        assert!(moved_along(&ev, mover, path), "{:?}", ev.events);
        assert_eq!(ev.find("removed", "s", |_| true), None);
        assert_eq!(ev.find("placed", "s", |_| true), None);
    }
    // An advance after melee touches too (sk-advance.yaml, seed 1): b (2) melees r (2 hits),
    // both cubes red, score 7: r takes its third hit and routs to (7,4); b advances into
    // (4,4), next to s at (4,5).
    let ev = play_json_in(
        &root().join(DIR),
        "sk-advance.yaml",
        "sk-advance.orders.yaml",
        &[],
    );
    assert_placed(&ev, "b", (3, 4), (4, 4), "advanced after melee");
    assert_removed(&ev, "s", &touched("b"));
    let rules = std::fs::read_to_string(root().join(super::RULESET)).expect("ruleset");
    assert!(rules.contains("once an enemy force touches a hex next to them"));
}

/// What Blue reads ([`SIDE_READS`](crate::util::SIDE_READS), with exit codes) in
/// `hidden.yaml`: at the point the `.at.yaml` file reaches, and after the whole orders file.
fn blue_gets(variant: &str) -> [Vec<String>; 2] {
    let reads = |orders: &str| coded_reads(side_runs_any(at, "hidden.yaml", orders, "blue"));
    [
        reads(&format!("hidden-{variant}.at.yaml")),
        reads(&format!("hidden-{variant}.orders.yaml")),
    ]
}

/// 004 l.264 (hidden movement: units no enemy can see are replaced by two fake counters;
/// sight 6 hexes on a dull day). hidden.yaml: Blue's guns g (0,3) and h (1,5) fire at t
/// (8,3), 8 hexes off (band 4 of [2, 4, 6, 8]), which s spots from (14,3), 6 hexes off.
/// Red's k starts at (7,1) and, in Red's movement phase, either steps onto g's fire line
/// ((7,2) → (7,3): 7 hexes from g, 7 from s, 8 from h), or to (7,2) (7 hexes from g and h,
/// in h's band 4 with t, 8 from s), or stays (8 from all three): in every game Blue never
/// sights it. A line of fire is judged on what the firing side knows: a unit it has not
/// sighted is off the table for it, so it neither blocks the line nor counts as another
/// target for ganging up (7.1a) or closest target first (7f); the shot goes on to its
/// target. So Blue's view, its legal orders in its defensive fire phase and its log of both
/// shots are byte-identical in the three games. Before: g's shot was refused "g cannot see
/// t: k stands in the way" and h's "no ganging up on t: k is in the same range band" —
/// naming a unit Blue had not sighted.
#[test]
fn an_unseen_unit_neither_blocks_a_fire_line_nor_stops_ganging_up() {
    let [upto, all] = blue_gets("line");
    for other in ["band", "stays"] {
        let [got_upto, got_all] = blue_gets(other);
        let what = format!("Blue's reads, k on the line and k {other}");
        assert_reads_alike(&upto, &got_upto, &format!("{what}, in the fire phase"));
        assert_reads_alike(&all, &got_all, &format!("{what}, after both shots"));
    }
    // SIDE_READS: play, play --json, view, view --json, legal.
    let (view, legal, log) = (&upto[3], &upto[4], &all[0]);
    // Blue's view --json places no enemy on k's line: (7,2) or (7,3).
    let json = view.split_once('\n').map_or("", |(_, rest)| rest); // after `exit N`
    let view: Value = serde_json::from_str(json).expect("view --json");
    let enemy = view["view"]["enemy"].as_array().expect("enemy");
    let on_line = |e: &&Value| {
        let cell = &e["place"]["cell"];
        cell == &json!({"col": 7, "row": 2}) || cell == &json!({"col": 7, "row": 3})
    };
    assert!(
        !enemy.is_empty() && !enemy.iter().any(|e| on_line(&e)),
        "{view}"
    );
    // prose: what Blue reads (its legal list and log, compared above game by game) names
    // both fires at t.
    has(
        legal,
        "{ side: blue, act: { piece: g, action: fire, target: t } }",
    );
    has(
        legal,
        "{ side: blue, act: { piece: h, action: fire, target: t } }",
    );
    assert!(log.starts_with("exit 0"), "{log}");
    has(log, "(fire_artillery_b by g at t)");
    has(log, "(fire_artillery_b by h at t)");
    // The referee sees k on the line; the shots still go to t (play --json: both fires at
    // t, t marked, no hit on k; exit 0 above: nothing refused).
    let p = play_json_in(
        &root().join(DIR),
        "hidden.yaml",
        "hidden-line.orders.yaml",
        &[],
    );
    let k_path = crate::util::cells(&[(7, 1), (7, 2), (7, 3)]);
    assert!(
        p.has("moved", "k", |e| e["path"] == k_path),
        "{:?}",
        p.events
    );
    let t = p.piece("t");
    for gun in ["g", "h"] {
        let at_t = |e: &Value| e["action"] == "fire" && e["target"] == t;
        assert!(p.has("acted", gun, at_t), "{gun}: {:?}", p.events);
    }
    assert!(p.flag("t", "shot_art_2", true).is_some(), "{:?}", p.events);
    assert!(
        !super::field::counted(&p, "k", "hits", None),
        "{:?}",
        p.events
    );
}

/// 004 l.264 with 7.2.1 (l.480, the owed melee): contact.yaml, a dull day, Red's r in forest
/// at (4,3), two hexes from Blue's b. The option's sight (6 hexes) finds a unit whatever its
/// terrain, and nothing stands between neighbours, so an enemy next to a unit — the only
/// enemy the owed-melee rule and melee contact read — is always one its side has sighted
/// (the rule now also reads only enemies the side knows, `game:known`). Blue sees r as real
/// infantry before moving; b steps to (3,3), into r's front, and the melee it owes is fought
/// as Blue's melee phase ends (b 2 against r 3 in forest).
#[test]
fn an_enemy_next_to_a_unit_is_always_sighted_under_hidden_movement() {
    let view = json_of(&at(&["view", "--side", "blue", "contact.yaml", "--json"]));
    let enemy = view["view"]["enemy"].as_array().expect("enemy pieces");
    let r = (enemy.iter()).find(|e| e["identity"]["name"] == "r");
    let r = r.unwrap_or_else(|| panic!("r is not in Blue's view: {view}"));
    assert_eq!(
        (&r["level"], &r["face_up"], &r["kind"]),
        (&json!("seen"), &json!(true), &json!("infantry")),
        "{r}"
    );
    assert_eq!(
        r["identity"]["place"],
        json!({"cell": {"col": 4, "row": 3}}),
        "{r}"
    );
    let p = play_json_in(
        &root().join(DIR),
        "contact.yaml",
        "contact.orders.yaml",
        &[],
    );
    let melee = p.in_phase(1, "melee", "blue");
    assert!(
        melee
            .iter()
            .any(|e| e["roll"]["purpose"] == "melee of b (2) against r (3)"),
        "{melee:?}"
    );
    let owed = "b entered the front of r and must melee it too";
    assert!(melee.iter().any(|e| e["text"] == owed), "{melee:?}");
}

/// 004 l.342-343 (2.2.2, results 6 and 7): "Each unit about-faces and moves towards the rear
/// until cover of some kind is been reached whereupon they defend until new orders are
/// received"; 7 adds a TE hit. fallback.yaml, seed 3: g (Tactical 9) rolls 7 to change
/// orders (fail: not above 9) and 7 on the failure table. Every unit takes a TE hit and
/// turns about (E → W), then is moved straight on at most its allowance (infantry 3) until
/// it stands in cover: b (5,4) → (4,4) → (3,4) → (2,4), forest, in cover; e, in front of b
/// at (6,4), is held up by b only until b has gone: (5,4) → (4,4) → (3,4), allowance spent;
/// c (5,6) → (2,6), no cover within reach. Then each defends: halted for the turn, so in
/// Blue's movement phase none may move or change facing (no advance and no turning back to
/// face the enemy); the commander g stands free (a unit with a commander attached would be
/// spared the roll: eighth round). Before: the units were only turned about and could face
/// the enemy again and advance in the same turn.
#[test]
fn decision_failure_six_and_seven_fall_back_to_cover_and_defend() {
    let p = play_json_in(
        &root().join(DIR),
        "fallback.yaml",
        "fallback.orders.yaml",
        &[],
    );
    let failure = (p.events.iter())
        .map(|e| &e["roll"])
        .find(|r| r["chart"] == "decision_failure")
        .unwrap_or_else(|| panic!("no decision failure in {:?}", p.events));
    assert_eq!(
        (&failure["score"], &failure["outcome"]),
        (&json!(7), &json!("fall back to cover and TE"))
    );
    assert_counted(&p, "b", "te", 0, 1);
    assert!(
        p.has("faced", "b", |e| e["facing"] == "W"),
        "{:?}",
        p.events
    );
    let why = "fell back toward cover (decision failure)";
    assert_placed(&p, "b", (5, 4), (2, 4), why);
    assert_placed(&p, "e", (6, 4), (3, 4), why);
    assert_placed(&p, "c", (5, 6), (2, 6), why);
    for unit in ["b", "e", "c"] {
        assert!(
            p.flag(unit, "halted", true).is_some(),
            "{unit}: {:?}",
            p.events
        );
    }
    let legal = crate::util::json_of(&at(&[
        "legal",
        "--side",
        "blue",
        "fallback.yaml",
        "--orders",
        "fallback.orders.yaml",
        "--json",
    ]));
    let orders = legal["orders"].as_array().expect("orders");
    assert!(!orders.is_empty(), "{legal}");
    for unit in ["b", "c", "e"] {
        let turns = |o: &Value| o["move"]["piece"] == unit || o["face"]["piece"] == unit;
        assert!(!orders.iter().any(turns), "{unit}: {legal}");
    }
    let refused = at(&[
        "play",
        "fallback.yaml",
        "--orders",
        "fallback-face.orders.yaml",
    ]);
    assert_eq!(refused.code, 1, "{}{}", refused.stdout, refused.stderr);
    // prose: the refusal's words.
    has(
        &refused.stderr,
        "refused: b is halted by a failed order change and cannot change facing",
    );
    let rules = std::fs::read_to_string(root().join(super::RULESET)).expect("ruleset");
    assert!(rules.contains("falls back at once straight to its new front"));
}
