//! Hex Command (seed 004), sixteenth round: the eleventh outside audit's leaks (issue 33),
//! on the auditor's positions (/work/audit/hex-command-11: c18, c9, c5, d, a), copied to
//! tests/fixtures/audits/hex-command/fifteenth/ in pairs that differ only in what red's
//! marker `r_m` is: a hidden infantry unit (`*-real.yaml`) or a fake (`*-fake.yaml`). Each
//! pair is worked by hand below; where the seed does not make the difference visible, every
//! answer the reading side gets is the same, byte for byte, for the two.

use serde_json::{Value, json};

use crate::util::{
    Played, assert_reads_alike, grognard_in, json_of, play_json_in, root, side_reads_in,
};

const DIR: &str = "tests/fixtures/audits/hex-command/fifteenth";

fn run(args: &[&str]) -> String {
    let r = grognard_in(&root().join(DIR), args);
    assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
    r.stdout
}

/// `play SCENARIO --orders ORDERS --json ARGS` in the fixture folder.
fn played(scenario: &str, orders: &str, args: &[&str]) -> Played {
    play_json_in(&root().join(DIR), scenario, orders, args)
}

/// The refusal of `orders` on `scenario` in `play --json`, asserted to be of `kind`.
fn refused_as(scenario: &str, orders: &str, kind: &str) {
    let p = played(scenario, orders, &[]);
    assert_eq!(
        p.refusal_kind.as_deref(),
        Some(kind),
        "{scenario} {orders}: {:?}",
        p.refused
    );
}

/// `legal --json`'s orders for `side` after `orders` on `scenario`.
fn legal_orders(scenario: &str, orders: &str, side: &str) -> Vec<Value> {
    let out = run(&[
        "legal", scenario, "--orders", orders, "--side", side, "--json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    v["orders"].as_array().cloned().unwrap_or_default()
}

fn refusal(args: &[&str]) -> String {
    let r = grognard_in(&root().join(DIR), args);
    assert_ne!(r.code, 0, "{args:?} was accepted: {}", r.stdout);
    r.stderr
}

/// Everything `side` receives of a game played to the end of `orders` (`util::SIDE_READS`:
/// its log as `play` prints it, text and JSON, its view, text and JSON, its legal orders).
fn reads(scenario: &str, orders: &str, side: &str) -> Vec<String> {
    side_reads_in(DIR, scenario, orders, side)
}

fn same_reads(pair: &str, orders: &str, side: &str) {
    let real = reads(&format!("{pair}-real.yaml"), orders, side);
    let fake = reads(&format!("{pair}-fake.yaml"), orders, side);
    let what = format!("{side} after {orders} tells {pair}'s real marker from its fake");
    assert_reads_alike(&real, &fake, &what);
}

/// Red's own legal orders, less the acts only a real unit has (dig): red knows which its
/// marker is, but a standing order must bind the two alike.
fn red_legal(scenario: &str, orders: &str) -> Vec<String> {
    run(&["legal", scenario, "--orders", orders, "--side", "red"])
        .lines()
        .filter(|l| !l.contains("action: dig") && !l.contains("may give"))
        .map(str::to_string)
        .collect()
}

// 004 l.337-343 (2.2.2, the decision-failure table) with 3.1 (l.465-467) and l.264 (the owner
// moves his fakes as units; the enemy sees a marker's place and facing). kern (T9) changes
// orders in red's first command phase. By hand, from the dice of each seed: seed 18 rolls
// the CVS test d10 ≤ 9, a fail, and the failure table 1, "halt" (l.337: no advance, no
// facing change); seed 9 rolls 4, "hold for new orders" (l.340); seed 5 rolls 6, "fall back
// to cover" (l.342: about-face, move to the rear until cover, defend). The failure binds
// every unit of the force without a commander; r_m has none. So a real r_m is halted or
// holds (no move; halted: no turn either), or turns E and steps 3 hexes to (15,6), and its
// fake must do the same: before this round the fake was bound by nothing — it moved during
// a halt (the auditor's `enemy #5 moved (12,6)->(9,6)`), was listed moves while holding,
// and stayed facing W while the force fell back. Now blue's every answer is the same for
// the two, and red's own legal list binds both alike (a real unit may also dig).
#[test]
fn decision_failures_bind_a_fake_as_they_bind_a_unit() {
    for (pair, failure) in [
        ("halt", "halt"),
        ("hold", "hold for new orders"),
        ("fallback", "fall back to cover"),
    ] {
        let log = run(&[
            "play",
            &format!("{pair}-fake.yaml"),
            "--orders",
            "failure.orders.yaml",
            "--side",
            "red",
        ]);
        assert!(
            log.contains(&format!("kern's order change fails: {failure}")),
            "{log}"
        );
        same_reads(pair, "failure.orders.yaml", "blue");
        let (real, fake) = (
            red_legal(&format!("{pair}-real.yaml"), "failure.orders.yaml"),
            red_legal(&format!("{pair}-fake.yaml"), "failure.orders.yaml"),
        );
        assert_eq!(real, fake, "{pair}: red's legal orders for r_m differ");
        assert!(
            !fake.iter().any(|l| l.contains("move: { piece: r_m")),
            "{pair}: the fake is listed moves: {fake:?}"
        );
    }
    // Halt and hold: the fake's move is refused with the words a unit's gets.
    for pair in ["halt", "hold"] {
        let words: Vec<String> = ["real", "fake"]
            .iter()
            .map(|n| {
                refusal(&[
                    "play",
                    &format!("{pair}-{n}.yaml"),
                    "--orders",
                    "failure-move.orders.yaml",
                ])
            })
            .collect();
        assert_eq!(words[0], words[1], "{pair}");
        assert!(words[1].contains("r_m cannot move"), "{pair}: {}", words[1]);
    }
    // Fall back: both about-face and stand at (15,6), facing E, as blue sees them.
    let view = run(&[
        "view",
        "fallback-fake.yaml",
        "--orders",
        "failure.orders.yaml",
        "--side",
        "blue",
    ]);
    assert!(view.contains("at (15,6), facing E"), "{view}");
}

// 004 l.460-461 (army integrity: each unit rolls, and on red moves 3 hexes to its rear) with
// 3.1 and l.264. Break point 0: red checks in its first command phase (seed 3). By hand, the
// cube rolls in unit order r1, r_m, r_c: red, red, blue star: r1 and r_m withdraw to (15,2)
// and (15,6), r_c holds. Before this round a fake rolled nothing, so r_c took the second die
// (red) and withdrew while the fake stayed: a marker seen to withdraw was real, one that
// stayed while its neighbours went was likely a fake. Reading chosen: fakes roll and
// withdraw as units do (the ruleset's note, sixteenth round).
#[test]
fn fakes_roll_army_integrity_as_units_do() {
    let red = played(
        "integrity-fake.yaml",
        "integrity.orders.yaml",
        &["--side", "red"],
    );
    let rolled = |purpose: &str, outcome: &str| {
        (red.events.iter()).any(|e| {
            e["event"] == "rolled"
                && e["roll"]["chart"] == "integrity"
                && e["roll"]["purpose"] == purpose
                && e["roll"]["outcome"] == outcome
        })
    };
    assert!(rolled("integrity of r_m", "withdraw"), "{:?}", red.events);
    assert!(rolled("integrity of r_c", "hold"), "{:?}", red.events);
    same_reads("integrity", "integrity.orders.yaml", "blue");
    let blue = played(
        "integrity-fake.yaml",
        "integrity.orders.yaml",
        &["--side", "blue"],
    );
    let at = |c: i64, r: i64| json!({"cell": {"col": c, "row": r}});
    let seen = json!({"event": "enemy_moved", "piece": 4, "from": at(12, 6), "to": at(15, 6)});
    assert!(blue.events.contains(&seen), "{:?}", blue.events);
}

// 004 l.264 and the ruleset's note 45: the owner moves his fakes as units. The kernel's
// `redeploy` (lift a dummy and put it down anywhere, once a turn: square blocks' rule of
// 001) was offered for Hex Command's fakes and hidden-movement decoys; blue read impossible
// jumps (`enemy #5 moved from (12,6) to (14,0)` during a halt). The fake_counter type now
// says `redeploys: false`: no redeploy is listed, and one is refused in words.
#[test]
fn fakes_are_never_redeployed() {
    let redeploys = |listed: &[Value]| listed.iter().any(|o| o.get("redeploy").is_some());
    let legal = legal_orders("halt-fake.yaml", "failure.orders.yaml", "red");
    assert!(!legal.is_empty() && !redeploys(&legal), "{legal:?}");
    refused_as(
        "halt-fake.yaml",
        "failure-redeploy.orders.yaml",
        "bad_piece",
    );
    // prose: the refusal's words (here and below).
    let why = refusal(&[
        "play",
        "halt-fake.yaml",
        "--orders",
        "failure-redeploy.orders.yaml",
    ]);
    assert!(
        why.contains("r_m is moved as a unit is; it is not lifted and put down elsewhere"),
        "{why}"
    );
    // Hidden movement's decoys are of the same type (decoys.yaml: halt-real.yaml with the
    // option; red's units are shown as decoy pairs at their places, all halted).
    let legal = legal_orders("decoys.yaml", "failure.orders.yaml", "red");
    assert!(!legal.is_empty() && !redeploys(&legal), "{legal:?}");
    refused_as("decoys.yaml", "decoys-redeploy.orders.yaml", "bad_piece");
    let why = refusal(&[
        "play",
        "decoys.yaml",
        "--orders",
        "decoys-redeploy.orders.yaml",
    ]);
    assert!(
        why.contains("decoy-5742 is moved as a unit is; it is not lifted and put down elsewhere"),
        "{why}"
    );
}

// 004 5.1b (l.530) and note 41: in the melee phase only a unit that has just won a melee
// turns; in the rally phase only one just rallied (or that won as the melee phase ended).
// The auditor's a4/a6: red's melee and rally phases of turn 1, r_m in forest at (7,6) next
// to blue's b4, no melee fought. A real r_m may not turn there, so neither may a fake: before
// this round the fake's five turns were listed and `enemy #9 now faces NW` reached blue.
#[test]
fn a_fake_turns_in_the_melee_and_rally_phases_only_where_a_unit_may() {
    for orders in ["to-melee.orders.yaml", "to-rally.orders.yaml"] {
        let fake = legal_orders("turn-fake.yaml", orders, "red");
        assert!(
            !fake.is_empty() && !fake.iter().any(|o| o["face"]["piece"] == "r_m"),
            "{orders}: {fake:?}"
        );
    }
    refused_as("turn-fake.yaml", "turn.orders.yaml", "hook_failed");
    let words: Vec<String> = ["real", "fake"]
        .iter()
        .map(|n| {
            refusal(&[
                "play",
                &format!("turn-{n}.yaml"),
                "--orders",
                "turn.orders.yaml",
            ])
        })
        .collect();
    assert_eq!(words[0], words[1]);
    // prose: both read the rule's words.
    assert!(
        words[1].contains("r_m may change facing in the melee phase only after winning a melee"),
        "{}",
        words[1]
    );
}

// 004 3.1 (l.465-467) and l.264 with the ruleset's note 64: a commander attached to a unit
// under a marker is off the table for the enemy until that unit is identified. The auditor's
// c60/c60d: in red's second command phase kern (at (15,9), seen) joins hidden r_m at (12,4);
// attach.yaml has a second hidden infantry r_n at (12,6) instead of c60's fake (a fake takes
// no commander). Blue read `kern attach at enemy #4` (JSON `acted`, target 4): which marker
// the commander rides with, and that it is real. Now blue reads only that kern left its
// sight, the same whichever marker he joined, in every answer.
#[test]
fn a_commander_joining_a_marker_names_no_target_to_the_enemy() {
    let m = reads("attach.yaml", "attach-m.orders.yaml", "blue");
    let n = reads("attach.yaml", "attach-n.orders.yaml", "blue");
    assert_reads_alike(&m, &n, "blue's answers tell which marker kern joined");
    // Blue's play --json read: kern left its sight, and no act or attachment names a target.
    let log: Value = serde_json::from_str(m[1].trim_end()).expect("play --json");
    let events = log["events"].as_array().cloned().unwrap_or_default();
    let left = json!({"cell": {"col": 15, "row": 9}});
    let gone = |e: &Value| e["event"] == "enemy_moved" && e["from"] == left && e["to"].is_null();
    let attach = |e: &Value| e["event"] == "attached" || e["action"] == "attach";
    assert!(
        events.iter().any(gone) && !events.iter().any(attach),
        "{log}"
    );
    // prose: nor do blue's words.
    assert!(!m[0].contains("attach"), "{}", m[0]);
    // Red reads its own act as before.
    let red = played("attach.yaml", "attach-m.orders.yaml", &["--side", "red"]);
    let r_m = red.piece("r_m");
    assert!(
        red.has("acted", "kern", |e| e["action"] == "attach"
            && e["target"] == r_m),
        "{:?}",
        red.events
    );
}

// 004 l.313 (a commander's capabilities are kept back until they are needed) with l.214 (fire
// is declared in the opponent's view). The auditor's a9: red's hidden r_cmd at (7,4), voss
// attached, fires in its defensive fire phase at b3 (6,4), one hex off: band 0 of
// fire_small_b, the automatic hit. r_cmd is unmasked as it fires (thirteenth round), so blue
// reads the roll itemized, and it read `no roll needed; -2 commander; automatic`: voss's
// Combat value, though the bonus changed nothing (band 0 + 0 penalties − 2 stays band 0).
// By hand: no hits on r_cmd, b3 in the open (cover 0), in its front arc, no flank: the band
// is 0 without the commander, so his bonus is not counted. Blue's every answer is the same
// whether voss's Combat is 1 or 2.
#[test]
fn a_commanders_bonus_that_changes_nothing_is_not_shown() {
    let c1 = reads("commander-c1.yaml", "commander.orders.yaml", "blue");
    let c2 = reads("commander-c2.yaml", "commander.orders.yaml", "blue");
    assert_reads_alike(&c1, &c2, "blue's answers tell voss's Combat value");
    let log: Value = serde_json::from_str(c2[1].trim_end()).expect("play --json");
    let fire = (log["events"].as_array().into_iter().flatten())
        .find(|e| e["event"] == "rolled" && e["roll"]["purpose"] == "fire_small_b by r_cmd at b3")
        .map(|e| {
            (
                e["roll"]["modifiers"].clone(),
                e["roll"]["band"].clone(),
                e["roll"]["outcome"].clone(),
            )
        });
    assert_eq!(
        fire,
        Some((json!([]), json!("automatic"), json!("hit"))),
        "{log}"
    );
    // prose: blue's line for the roll.
    assert!(
        c2[0].contains(
            "fire_small_b: no roll needed; band 0 (automatic) → hit (fire_small_b by r_cmd at b3)"
        ),
        "{}",
        c2[0]
    );
    assert!(!c2[0].contains("commander"), "{}", c2[0]);
}

// 004 7.5 (l.396): a routed unit moves to the rear "until rallied or they leave the field";
// it does nothing else. The auditor's g/g_dismount: b4 shoots red's cavalry r4 (10,9), two
// hits, at point blank in blue's fire phase: the third hit routs it (4 hexes for cavalry, to
// (14,9), and on to (18,9) as red's turn begins). In red's movement phase r4 was listed a
// dismount and it was accepted. Now dismount and mount are barred to a routed unit as every
// other act is: none of r4's is listed, and the order is refused in words.
#[test]
fn a_routed_unit_does_not_dismount() {
    let view = json_of(&grognard_in(
        &root().join(DIR),
        &[
            "view",
            "rout.yaml",
            "--orders",
            "rout.orders.yaml",
            "--side",
            "red",
            "--json",
        ],
    ));
    let r4 = (view["view"]["own"].as_array().into_iter().flatten())
        .find(|p| p["name"] == "r4")
        .map(|p| p["id"].clone())
        .expect("r4 in red's view");
    let cell = |c: i64, r: i64| json!({"col": c, "row": r});
    let routed = json!({"event": "placed", "piece": r4, "from": cell(14, 9), "to": cell(18, 9), "reason": "routed"});
    assert!(
        view["events"]
            .as_array()
            .is_some_and(|e| e.contains(&routed)),
        "{view}"
    );
    let legal = legal_orders("rout.yaml", "rout.orders.yaml", "red");
    let of_r4 = |o: &Value| {
        o.as_object()
            .into_iter()
            .flatten()
            .any(|(_, v)| v["piece"] == "r4")
    };
    assert!(!legal.is_empty() && !legal.iter().any(of_r4), "{legal:?}");
    refused_as("rout.yaml", "rout-dismount.orders.yaml", "already_used");
    // prose: the refusal's words.
    let why = refusal(&["play", "rout.yaml", "--orders", "rout-dismount.orders.yaml"]);
    assert!(why.contains("r4 cannot dismount while routed"), "{why}");
}

// The tenth outside audit's #10 (left in the fifteenth round): 004 l.214 (the opponent
// watches the roll) and 7.3b (l.411: each player rolls; the melee goes on each melee phase,
// 7.3d l.413). The auditor's h2 (../thirteenth/): blue's b1 and b2 melee red's markers rA
// and rB in blue's melee phase and the melees lock; in red's melee phase they are fought on
// by the phase hook, as the phase ends. A hook's roll named no pieces, so it went to the
// phase's owner (red) alone: blue read its units' hits change and no roll. `game:resolve`
// now takes the roll's pieces (`{ by = a, against = d }`, kernel
// `HookDice::resolve_between`), so blue reads both rounds, netted as every roll with an
// unidentified marker is: by hand, rA (1) against b1 (2): red, red: score -1, both hit and
// attacker TE; rB (2) against b2 (2): blue, red: score 2, attacker hit and defender TE.
#[test]
fn a_locked_melee_fought_as_the_phase_ends_shows_its_roll_to_both_sides() {
    let r = grognard_in(
        &root().join("tests/fixtures/audits/hex-command/thirteenth"),
        &[
            "play",
            "h2.yaml",
            "--orders",
            "h2.o3.yaml",
            "--side",
            "blue",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let red_phase = r
        .stdout
        .split("turn 1 · melee phase (red)")
        .nth(1)
        .expect("red's melee phase");
    for line in [
        "melee: cube red, cube (defender) red; -4 modifiers in all (not itemized: an unidentified piece); score -1 → both hit and attacker TE (melee by enemy #4 at b1)",
        "melee: cube blue, cube (defender) red; +0 modifiers in all (not itemized: an unidentified piece); score 2 → attacker hit and defender TE (melee by enemy #5 at b2)",
    ] {
        assert!(red_phase.contains(line), "{line}\nnot in:\n{red_phase}");
    }
    assert!(!red_phase.contains("rA (1)"), "{red_phase}");
}
