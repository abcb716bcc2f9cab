//! The third fresh outside audit of Hex Command (docs/audits/hex-command.md, "Third outside
//! audit"): each finding worked by hand against seed 004 (line numbers of `004_*.txt`), on
//! the audit's own positions in tests/fixtures/audits/hex-command/third/ (the initiative
//! roll and the auditor's seeds kept; with seed 1 Blue plays first).

use super::*;
use crate::util::{json_of, play_json_in};
use serde_json::json;

const DIR: &str = "tests/fixtures/audits/hex-command/third";

fn at(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

fn played(args: &[&str]) -> String {
    let out = at(args);
    assert_eq!(out.code, 0, "{args:?}: {}{}", out.stdout, out.stderr);
    out.stdout
}

/// The part of a log from the line containing `from` up to the next phase heading.
fn phase<'a>(out: &'a str, from: &str) -> &'a str {
    let start = out
        .find(from)
        .unwrap_or_else(|| panic!("no `{from}` in:\n{out}"));
    let rest = &out[start..];
    let end = rest[1..].find("\nturn ").map_or(rest.len(), |e| e + 2);
    &rest[..end]
}

/// 004 l.390 (7.4: "units that advance are allowed to change their facing") and l.530 (5.1b).
/// p07: Blue's b moves to (6,5), into the fronts of A (6,4) and B (7,4), melees A and owes B
/// a round (l.480), so both melees go on into Red's melee phase (l.413). p08b gives Red no
/// melee order: both rounds are fought as Red's melee phase ends; b (2 hits) takes a third
/// from B and routs, and B advances to (6,5). Its player gives no order in that phase any
/// more, so B's facing change is offered in Red's rally phase (`legal` lists B's other
/// facings), made once (a second is refused by the turn's limit). Before: the rally phase
/// offered Red only `end_phase`, while the same melee ordered (p08c) offered the face.
#[test]
fn a_winner_of_an_owed_melee_may_still_change_facing() {
    let p = play_json_in(&root().join(DIR), "p07.yaml", "p08b.orders.yaml", &[]);
    assert_placed(&p, "B", (7, 4), (6, 5), "advanced after melee");
    let legal = played(&[
        "legal",
        "--side",
        "red",
        "p07.yaml",
        "--orders",
        "p08b.orders.yaml",
        "--json",
    ]);
    let list: Value = serde_json::from_str(&legal).expect("legal --json");
    let face = json!({"side": "red", "face": {"piece": "B", "facing": "SE"}});
    let orders = list["orders"].as_array().expect("orders");
    assert!(orders.contains(&face), "{list}");
    let p = play_json_in(&root().join(DIR), "p07.yaml", "p08b-face.orders.yaml", &[]);
    assert!(
        p.has("faced", "B", |e| e["facing"] == "SE"),
        "{:?}",
        p.events
    );
    let twice = at(&[
        "play",
        "p07.yaml",
        "--orders",
        "p08b-face-twice.orders.yaml",
    ]);
    assert_eq!(twice.code, 1, "{}", twice.stdout);
    // prose: the refusal's words.
    has(
        &twice.stderr,
        "B has already changed facing 1 time this turn",
    );
}

/// 004 l.489 (7.2.2: a joiner locks the enemy from advancing) with l.474 (the phasing player
/// declares the primary melee): a stated reading (notes, "Third fresh audit"). Melees are
/// fought in the order they are ordered, so a unit locks a winner only when already in melee
/// with it. p09 (seed 1): X (2 hits) melees R first and routs; R, with no enemy yet in melee
/// with it, advances to (5,5); Y's melee then takes it in the flank (Y stands E of R,
/// which faces SW): two TE hits. With Y's melee ordered first (p09b) Y is R's primary
/// opponent and X the second, which R may hurt only with TE hits (l.471), so X cannot rout.
#[test]
fn melees_are_fought_in_the_order_they_are_declared() {
    let p = play_json_in(
        &root().join(DIR),
        "p09.yaml",
        "p09.orders.yaml",
        &["--seed", "1"],
    );
    let melee = p.in_phase(1, "melee", "blue");
    let big_r = p.piece("R");
    let r_events: Vec<&Value> = melee.iter().filter(|e| e["piece"] == big_r).collect();
    let placed = json!({"event": "placed", "piece": big_r, "from": {"col": 6, "row": 4}, "to": {"col": 5, "row": 5}, "reason": "advanced after winning the melee it defended"});
    let te = |from: i64| json!({"event": "counter_changed", "piece": big_r, "counter": "te", "from": from, "to": from + 1});
    let at = |want: &Value| r_events.iter().position(|e| *e == want);
    let (moved, first, second) = (at(&placed), at(&te(0)), at(&te(1)));
    assert!(
        moved.is_some() && moved < first && first.map(|i| i + 1) == second,
        "{r_events:?}"
    );
    // On --json: Y's and X's melees at R are fought in Blue's melee phase; nobody is
    // routed and R does not advance (no placement at all).
    let p = play_json_in(
        &root().join(DIR),
        "p09.yaml",
        "p09b.orders.yaml",
        &["--seed", "1"],
    );
    let r = p.piece("R");
    let melee = p.in_phase(1, "melee", "blue");
    let at_r = |e: &&Value| e["event"] == "acted" && e["action"] == "melee" && e["target"] == r;
    assert_eq!(melee.iter().filter(at_r).count(), 2, "{melee:?}");
    let routed = |e: &&Value| e["event"] == "flag_changed" && e["flag"] == "routed";
    let placed = |e: &&Value| e["event"] == "placed";
    assert!(!melee.iter().any(|e| routed(&e) || placed(&e)), "{melee:?}");
    // The rule's reading is in the notes.
    let rules = std::fs::read_to_string(root().join(RULESET)).expect("ruleset");
    assert!(rules.contains("a unit locks a winner only if it is already in melee with it"));
}

/// Stated reading (notes): the document gives horse fighting on foot no melee value, so
/// dismounted cavalry keep the cavalry value 3 (infantry 2). dc (dismounted) melees t.
#[test]
fn dismounted_cavalry_melee_at_the_cavalry_value() {
    let p = play_json_in(
        &root().join(DIR),
        "dismounted-melee.yaml",
        "dismounted-melee.orders.yaml",
        &[],
    );
    assert!(
        rolled(&p, "melee of dc (3) against t (2)"),
        "{:?}",
        p.events
    );
}

/// 5.2 (l.535: the zone is the three front hexes; the "center rear" hex straight behind is
/// the rear): the ruleset sets the arcs (`arcs: { front: 60, rear: 30 }`). c at (5,5) facing
/// E; of its six neighbours E, NE and SE are front, NW and SW flank, W rear.
#[test]
fn the_arcs_are_the_three_front_hexes_two_flanks_and_one_rear() {
    let rules = std::fs::read_to_string(root().join(RULESET)).expect("ruleset");
    assert!(rules.contains("\narcs: { front: 60, rear: 30 }\n"));
    for (piece, arc) in [
        ("e", "front"),
        ("ne", "front"),
        ("se", "front"),
        ("nw", "flank"),
        ("sw", "flank"),
        ("w", "rear"),
    ] {
        let tape = json_of(&at(&["measure", "arcs.yaml", "c", piece, "--json"]));
        assert_eq!(tape["arc_of_b_from_a"], arc, "{tape}");
    }
}

/// 004 l.507 (7.1a: no more than two units of the same arm fire at one target): p15a, f1 and
/// f2 (small arms) and the battery g1 fire at t; f3, the third small-arms unit, is refused
/// in the rule's words. Before: "two units have already fired at t this phase", while three
/// units had.
#[test]
fn the_ganging_limit_names_the_arm() {
    let out = at(&["play", "p15a.yaml", "--orders", "p15a.orders.yaml"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    let p = play_json_in(&root().join(DIR), "p15a.yaml", "p15a.orders.yaml", &[]);
    let g1 = p.piece("g1");
    assert!(
        p.has("acted", "g1", |e| e["target"] == p.piece("t")),
        "{g1}: {:?}",
        p.events
    );
    // prose: the refusal names the arm in the rule's words.
    has(
        &out.stderr,
        "refused: two small-arms units have already fired at t this phase: no more than two units of the same arm fire at one target (7.1a)",
    );
}

/// 5.5.1c (l.555-556): only a unit in column on a road deploys astride it. p28: a, off any
/// road, is refused in those words. Before: "a cannot deploy unless on_road" (a flag name).
#[test]
fn deploying_off_a_road_is_refused_in_the_rules_words() {
    let out = at(&["play", "p28.yaml", "--orders", "p28-deploy.orders.yaml"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    // prose: the refusal's words are what this test is about.
    has(
        &out.stderr,
        "refused: a is not in column on a road: only a unit whose move ended along a road deploys astride it (5.5.1c)",
    );
}

/// 004 l.480 (7.2.1: a unit melees every enemy whose front it entered) and l.413 (7.3d: a
/// melee goes on in the following phase): the melees fought unordered as a melee phase
/// ends belong to that phase. p07: b moves into the fronts of A and B and melees A; it owes
/// B a round, fought as Blue's melee phase ends (the ruleset's `phase_end` hook) and logged
/// there, in `play`, `--json` and `view`. p08-goes-on: both melees go on in Red's melee
/// phase and are logged in it. Before: both were printed under the next heading, `rally
/// phase`.
#[test]
fn melees_fought_as_the_melee_phase_ends_are_logged_in_it() {
    // prose: where the log and the view print the owed melee (under which phase heading) is
    // what this test is about; the roll's phase is checked on --json too.
    let out = played(&["play", "p07.yaml", "--orders", "p07.orders.yaml"]);
    let melee = phase(&out, "turn 1 · melee phase (blue)");
    has(
        melee,
        "note: b entered the front of B and must melee it too",
    );
    has(melee, "(melee of b (2) against B (2))");
    // On --json: b's melee roll at B is in Blue's melee phase, none in its rally phase.
    let p = play_json_in(&root().join(DIR), "p07.yaml", "p07.orders.yaml", &[]);
    let b_at_big_b = |e: &&Value| {
        e["event"] == "rolled"
            && e["roll"]["chart"] == "melee"
            && e["roll"]["by"] == p.piece("b")
            && e["roll"]["against"] == p.piece("B")
    };
    let fought = |phase: &str| {
        p.in_phase(1, phase, "blue")
            .iter()
            .filter(b_at_big_b)
            .count()
    };
    assert_eq!((fought("melee"), fought("rally")), (1, 0), "{:?}", p.events);
    let view = played(&[
        "view",
        "p07.yaml",
        "--side",
        "blue",
        "--orders",
        "p07.orders.yaml",
    ]);
    has(
        phase(&view, "turn 1 · melee phase (blue)"),
        "b entered the front of B and must melee it too",
    );
    let json = played(&["play", "p07.yaml", "--orders", "p07.orders.yaml", "--json"]);
    let v: Value = serde_json::from_str(&json).expect("json");
    let events = v["events"].as_array().expect("events");
    let began = |name: &str| {
        events
            .iter()
            .rposition(|e| e["event"] == "phase_began" && e["phase"] == name)
            .unwrap_or_else(|| panic!("no {name} in {json}"))
    };
    let note = events
        .iter()
        .position(|e| e.to_string().contains("must melee it too"))
        .expect("the owed melee's note");
    assert!(began("melee") < note && note < began("rally"), "{json}");
    let out = played(&["play", "p07.yaml", "--orders", "p08-goes-on.orders.yaml"]);
    let red = phase(&out, "turn 1 · melee phase (red)");
    has(red, "note: the melee of A and b goes on");
    has(red, "note: the melee of B and b goes on");
}

/// 004 l.521 (5b) and l.553 (5.5b): mounted troops may not enter a forest off the road
/// (dismounted, they may). p04: cav (formed) at (5,9) steps into the forest at (4,7) off
/// the road: refused in the rule's words (the `move_cost` hook returns the reason). Before:
/// "the ruleset forbids cav to enter (4,7)", the kernel's general words.
#[test]
fn mounted_cavalry_into_forest_is_refused_in_the_rules_words() {
    let out = at(&["play", "p04.yaml", "--orders", "p04b.orders.yaml"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    // prose: the refusal's words are what this test is about.
    has(
        &out.stderr,
        "refused: mounted troops may not enter a forest off the road: they must dismount before moving in (5b, 5.5b)",
    );
}

/// 004 l.432 (Artillery, Push Move: one hex over open, clear, flat ground, never uphill):
/// p28, g2 (unlimbered) at (6,8) facing E; the hill at (7,8) ahead. `reach` lists only
/// (6,7) and (6,9); a push onto the hill is refused in the rule's words. Before: "the
/// ruleset forbids g2 to enter (7,8)".
#[test]
fn guns_pushed_uphill_are_refused_in_the_rules_words() {
    let reach = json_of(&at(&[
        "reach",
        "p28.yaml",
        "--unit",
        "g2",
        "--orders",
        "o_tomove.yaml",
        "--json",
    ]));
    let cells: Vec<&Value> = (reach["reach"].as_array().into_iter().flatten())
        .map(|r| &r["cell"])
        .collect();
    assert_eq!(cells, [&json!([6, 7]), &json!([6, 9])], "{reach}");
    let out = at(&[
        "play",
        "p28.yaml",
        "--orders",
        "p28-push-uphill.orders.yaml",
    ]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    // prose: the refusal's words are what this test is about.
    has(
        &out.stderr,
        "refused: guns cannot be pushed uphill: a push is over open, clear, flat ground (Artillery, Push Move)",
    );
}

/// Found by `fuzz` (seed 131), not by the audit: b2 melees r2 with the commander ames
/// standing unattached in its hex, loses and routs; r2, the defender, wins and advances
/// into the hex b2 left (7.4, l.390) — where ames now stands alone. 004 says nothing of a
/// commander figure caught so; our reading (notes): he is captured, as a commander whose
/// unit routs is. Before, the kernel refused the hook's placement ("held by the enemy"),
/// the melee order was refused, and so was `end_phase`: the game could not go on.
#[test]
fn an_enemy_commander_alone_in_the_hex_a_winner_advances_into_is_captured() {
    let p = crate::util::play_json_in(
        &crate::util::root().join(DIR),
        "seed-131.yaml",
        "seed-131.orders.yaml",
        &[],
    );
    assert_eq!((p.code, &p.refused), (0, &None));
    let captured = p.find("removed", "ames", |e| {
        e["reason"] == "commander captured: r2 entered his hex"
    });
    let cell = |c: i64, r: i64| serde_json::json!({"col": c, "row": r});
    let advanced = p.find("placed", "r2", |e| {
        e["from"] == cell(8, 3)
            && e["to"] == cell(9, 4)
            && e["reason"] == "advanced after winning the melee it defended"
    });
    assert!(captured.is_some() && advanced.is_some(), "{:?}", p.events);
    // The game goes on: Blue may end its melee phase.
    let legal = played(&[
        "legal",
        "seed-131.yaml",
        "--orders",
        "seed-131.orders.yaml",
        "--side",
        "blue",
        "--json",
    ]);
    let legal: serde_json::Value = serde_json::from_str(&legal).expect("legal --json");
    let end = serde_json::json!({"side": "blue", "end_phase": true});
    assert!(
        legal["orders"].as_array().is_some_and(|o| o.contains(&end)),
        "{legal}"
    );
}
