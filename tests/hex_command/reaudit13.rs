//! Hex Command (seed 004), thirteenth round (the tenth outside audit, issue 33): three leaks
//! of what a marker hides. Positions in tests/fixtures/audits/hex-command/thirteenth/ (the
//! auditor's own, ruleset path made relative), each worked by hand below.

use serde_json::Value;

use crate::util::{grognard_in, json_of, play_json_in, root};

use super::field::lacks;

/// `legal --json`'s orders for blue on `scenario` after `orders`.
fn legal_orders(scenario: &str, orders: &str) -> Vec<Value> {
    let answer = json_of(&run(&[
        "legal", scenario, "--side", "blue", "--orders", orders, "--json",
    ]));
    answer["orders"].as_array().cloned().unwrap_or_default()
}

/// The refusal of `play SCENARIO --orders ORDERS --side blue --json`: its kind and words.
fn refusal(scenario: &str, orders: &str) -> (String, String) {
    let p = play_json_in(&root().join(DIR), scenario, orders, &["--side", "blue"]);
    match (p.refusal_kind, p.refused) {
        (Some(kind), Some(words)) => (kind, words),
        _ => panic!("{scenario} {orders} was accepted: {:?}", p.events),
    }
}

const DIR: &str = "tests/fixtures/audits/hex-command/thirteenth";

fn run(args: &[&str]) -> crate::util::Run {
    grognard_in(&root().join(DIR), args)
}

/// What a refusal or a listing says, with the piece's own name and handle blanked.
fn blank(text: &str, names: &[&str]) -> String {
    let mut out = text.to_owned();
    for n in names {
        out = out.replace(n, "_");
    }
    out
}

// 004 l.260 (tribes: a failed unit "can only advance toward the enemy if the target enemy
// unit is disordered or worse") with 3.1 (l.465-467, l.264: a marker in forest shows only
// its place; note 58). t2.yaml: wavering t1, t2, t3 each next to a forest marker: #5 rfresh
// (no hits), #6 rhit (1 hit), #7 rfake (a fake). Blue knows none of their hits, so each is
// taken as fresh: no melee is listed at any of them, and play refuses all three alike (the
// auditor's run listed only `t2 melee #6` and accepted it: the hidden hit leaked).
#[test]
fn a_wavering_unit_judges_every_unidentified_marker_as_fresh() {
    let legal = run(&[
        "legal",
        "t2.yaml",
        "--side",
        "blue",
        "--orders",
        "t2.o1.yaml",
    ]);
    assert_eq!(legal.code, 0, "{}", legal.stderr);
    let orders = legal_orders("t2.yaml", "t2.o1.yaml");
    let melee = |o: &Value| o["act"]["action"] == "melee";
    assert!(
        !orders.is_empty() && !orders.iter().any(melee),
        "{orders:?}"
    );
    // Each melee is refused by the tribes rule's hook, in the same words but for the names.
    let blanked = |m: &str, unit: &str, handle: &str| {
        let (kind, words) = refusal("t2.yaml", m);
        assert_eq!(kind, "hook_failed", "{words}");
        // prose: which rule refused is said only in its words.
        assert!(words.contains("a fresh, undamaged unit"), "{words}");
        blank(&words, &[m, unit, handle])
    };
    let clean = blanked("t2.m5.yaml", "t1", "#5");
    let damaged = blanked("t2.m6.yaml", "t2", "#6");
    let fake = blanked("t2.m7.yaml", "t3", "#7");
    assert_eq!(clean, damaged);
    assert_eq!(clean, fake);
}

// 004 l.260 again, for moves. t3h0.yaml / t3h1.yaml differ only in the forest marker rm's
// hits (0 or 1) at (9,5); wavering w1 at (3,5). Blue's `legal` list is the same for both
// (the auditor counted 20 moves against 29), and the move to (6,5) (4 hexes from it → 3,
// closer, ending no nearer to any known damaged enemy) is refused in both with the same
// words, the marker taken as fresh.
#[test]
fn a_wavering_units_moves_do_not_depend_on_a_markers_hidden_hits() {
    let legal = |s: &str| {
        let r = run(&["legal", s, "--side", "blue", "--orders", "t3.o1.yaml"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let (h0, h1) = (legal("t3h0.yaml"), legal("t3h1.yaml"));
    assert_eq!(h0, h1);
    let w1 = legal_orders("t3h0.yaml", "t3.o1.yaml");
    assert!(w1.iter().any(|o| o["move"]["piece"] == "w1"), "{w1:?}");
    let (p0, p1) = (
        refusal("t3h0.yaml", "t3.mv.yaml"),
        refusal("t3h1.yaml", "t3.mv.yaml"),
    );
    assert_eq!(p0.0, "hook_failed", "{}", p0.1);
    // prose: the rule's words, which must not tell the marker's hits apart.
    assert!(
        p0.1.contains("closes on enemy #2, a fresh, undamaged unit"),
        "{}",
        p0.1
    );
    assert_eq!(p0, p1);
}

/// Blue's `play --json` events of h2.yaml.
fn blue_events(orders: &str, seed: &str) -> Vec<Value> {
    let dir = root().join(DIR);
    let played = play_json_in(&dir, "h2.yaml", orders, &["--seed", seed, "--side", "blue"]);
    played.events
}

/// Blue's roll records of the melee phase (JSON `rolled` events of chart melee).
fn melee_rolls(orders: &str, seed: &str) -> Vec<Value> {
    (blue_events(orders, seed).into_iter())
        .filter(|e| e["event"] == "rolled" && e["roll"]["chart"] == "melee")
        .map(|e| e["roll"].clone())
        .collect()
}

// 004 l.214 (the roll and its modifiers are watched) with 3.1 (l.465-467; notes 58, 63):
// a melee at a marker shows the side the dice, the net and the outcome, never the marker's
// melee value. h2.yaml, seed 1: b1 melees #4 (rA, clean: 2 + 1 forest = 3), b2 melees #5
// (rB, 2 hits and commander C2: 2 - 2 + 2 + 1 = 3); rB takes its third hit, routs to (9,5)
// and blue sights it once b2 has advanced — after the dice. Blue reads both rolls alike:
// the same dice, `-4 modifiers in all (not itemized…)`, no inputs, score -3, defender hit
// (the auditor's run itemized rB's line, `against rB (3)`, input `defender 3`: rgen's C).
#[test]
fn a_roll_made_while_a_marker_was_hidden_stays_netted_when_it_routs_into_sight() {
    let rolls = melee_rolls("h2.o1.yaml", "1");
    assert!(rolls.len() >= 2, "{rolls:?}");
    let (a, b) = (&rolls[0], &rolls[1]);
    assert_eq!(a["purpose"], "melee by b1 at enemy #4");
    assert_eq!(b["purpose"], "melee by b2 at enemy #5");
    for key in ["dice", "inputs", "modifiers", "score", "outcome"] {
        assert_eq!(a[key], b[key], "{key}: {a} against {b}");
    }
    assert_eq!(b["inputs"], serde_json::json!([]));
    assert_eq!(b["modifiers"][0]["value"], -4);
    let text = run(&[
        "play",
        "h2.yaml",
        "--orders",
        "h2.o1.yaml",
        "--seed",
        "1",
        "--side",
        "blue",
    ]);
    // The case is the one asked: rB (blue's #5) did rout into blue's sight, after the roll.
    let events = blue_events("h2.o1.yaml", "1");
    let roll = (events.iter()).position(|e| e["roll"]["purpose"] == "melee by b2 at enemy #5");
    let seen = (events.iter())
        .position(|e| e["event"] == "sighted" && e["piece"] == 5 && e["level"] == "seen");
    assert!(
        matches!((roll, seen), (Some(r), Some(s)) if r < s),
        "{events:?}"
    );
    // prose: nor do the log's words itemize rB's value.
    lacks(&text.stdout, "blue sights rB", "against rB (");
}

// The same in red's melee phase (h2.o4.yaml): rA melees b1 and rB melees b2; rB routs into
// sight after its roll. Blue's line for rB is netted as rA's is (no inputs, one net).
#[test]
fn a_markers_own_melee_roll_stays_netted_when_it_routs_into_sight() {
    let rolls = melee_rolls("h2.o4.yaml", "1863");
    let by_red: Vec<&Value> = rolls
        .iter()
        .filter(|r| {
            r["purpose"]
                .as_str()
                .is_some_and(|p| p.contains("by enemy #"))
        })
        .collect();
    assert_eq!(by_red.len(), 2, "{rolls:?}");
    for r in by_red {
        assert_eq!(r["inputs"], serde_json::json!([]), "{r}");
        assert_eq!(r["modifiers"].as_array().map(Vec::len), Some(1), "{r}");
        assert!(
            r["modifiers"][0]["name"]
                .as_str()
                .is_some_and(|n| n.contains("not itemized")),
            "{r}"
        );
    }
}
