//! Hex Command (seed 004), tenth round: decision failure results 3 and 4 (2.2.2, l.339-340)
//! given their effect. The positions are in tests/fixtures/audits/hex-command/tenth/ (Blue
//! first: no initiative roll), each worked by hand below; the audit page reruns them.

use serde_json::{Value, json};

use crate::util::{Played, Run, grognard_in, json_of, play_json_in, root};

use super::field::{assert_moved, has};

const DIR: &str = "tests/fixtures/audits/hex-command/tenth";

fn at(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

/// `play SCENARIO --orders ORDERS --json` in the fixture folder.
fn played_json(scenario: &str, orders: &str) -> Played {
    let p = play_json_in(&root().join(DIR), scenario, orders, &[]);
    assert_eq!(p.code, 0, "{orders}: {:?}", p.refused);
    p
}

/// Whether some flag of piece `name` named in `flags` was turned on.
fn set_any(p: &Played, name: &str, flags: &[&str]) -> bool {
    p.has("flag_changed", name, |e| {
        e["on"] == true && flags.iter().any(|f| e["flag"] == *f)
    })
}

/// The cells `reach --json` lists for `unit` on fixed.yaml, with their costs in hundredths.
fn reach_cells(unit: &str) -> Vec<(Value, i64)> {
    let answer = json_of(&at(&[
        "reach",
        "fixed.yaml",
        "--unit",
        unit,
        "--orders",
        "fixed.at.yaml",
        "--json",
    ]));
    (answer["reach"].as_array().into_iter().flatten())
        .map(|r| {
            (
                r["cell"].clone(),
                r["cost_hundredths"].as_i64().unwrap_or(-1),
            )
        })
        .collect()
}

fn refused(scenario: &str, orders: &str, why: &str) {
    let out = at(&["play", scenario, "--orders", orders]);
    assert_eq!(out.code, 1, "{orders}: {}{}", out.stdout, out.stderr);
    has(&out.stderr, why);
}

/// 004 l.339 (2.2.2, result 3): "Cannot move in the enemy's direction until passing
/// Aggressiveness. Can move in other directions however." caution.yaml: g (Tactical 10, so
/// his order change fails; Aggressiveness 0, so his test passes) tries a change in turn 1;
/// seed 1 rolls the cube d10 4 (fail: not higher than 10), then a 3 on the decision-failure
/// table. Red's r stands at (8,4), 5 hexes east of Blue's b at (3,4) (facing E). Seventeenth
/// round (the twelfth outside audit's #21): a cautious unit may move any way and turn freely
/// so long as no hex of its move is nearer r than its start. b's step to (4,4) (4 hexes from
/// r) is refused in the rule's words; its sidesteps (3,3), (3,5) stay 5 off and are listed
/// (before: b could not move at all with r ahead: `toward_enemy`). c at (3,6) faces W and
/// may turn E (before: `facing_fixed` refused it) but not step to (4,6), nearer r. c steps
/// west to (2,6); b turns W and steps to (2,4). In turn 2, as Blue's command phase begins, g
/// tests his Aggressiveness: d10 1 against A 0, a pass, and b steps back east to (3,4).
#[test]
fn decision_failure_three_bars_moves_toward_the_enemy_until_aggressiveness_passes() {
    // b and c are made cautious, and nothing bars their moves or turns.
    let p = played_json("caution.yaml", "caution.orders.yaml");
    let failure = |e: &Value| {
        e["roll"]["purpose"] == "decision failure of g"
            && e["roll"]["outcome"] == "no advance until aggressive"
    };
    assert!(p.events.iter().any(failure), "{:?}", p.events);
    for unit in ["b", "c"] {
        assert!(set_any(&p, unit, &["cautious"]), "{:?}", p.events);
        let barred = set_any(&p, unit, &["toward_enemy", "facing_fixed"]);
        assert!(!barred, "{unit}: {:?}", p.events);
    }
    assert_moved(&p, "c", &[(3, 6), (2, 6)], 1);
    assert_moved(&p, "b", &[(3, 4), (2, 4)], 1);
    // Turn 2: g's Aggressiveness test, d10 1, passes; b is no longer cautious and steps back.
    let test = (p.in_phase(2, "command", "blue").iter())
        .map(|e| &e["roll"])
        .find(|r| r["purpose"] == "aggressiveness of g")
        .unwrap_or_else(|| panic!("no aggressiveness test in {:?}", p.events));
    assert_eq!(
        (&test["dice"][0]["value"], &test["outcome"]),
        (&json!(1), &json!("pass"))
    );
    assert!(p.flag("b", "cautious", false).is_some(), "{:?}", p.events);
    assert_moved(&p, "b", &[(2, 4), (3, 4)], 2);
    let nearer = |u: &str| {
        format!(
            "refused: {u} may not move in the enemy's direction until its commander passes his \
             Aggressiveness test (decision failure 3): this move ends nearer r"
        )
    };
    refused("caution.yaml", "caution-b.orders.yaml", &nearer("b"));
    refused("caution.yaml", "caution-c.orders.yaml", &nearer("c"));
    let face = played_json("caution.yaml", "caution-c-face.orders.yaml");
    assert!(
        face.has("faced", "c", |e| e["facing"] == "E"),
        "{:?}",
        face.events
    );
    // The legal orders agree: b's sidesteps, c's turns, no step nearer r.
    let out = at(&[
        "legal",
        "caution.yaml",
        "--side",
        "blue",
        "--orders",
        "caution.at.yaml",
    ]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let answer = json_of(&at(&[
        "legal",
        "caution.yaml",
        "--side",
        "blue",
        "--orders",
        "caution.at.yaml",
        "--json",
    ]));
    let orders = answer["orders"].as_array().cloned().unwrap_or_default();
    let first_step = |piece: &str, to: [i64; 2]| {
        orders
            .iter()
            .any(|o| o["move"]["piece"] == piece && o["move"]["path"][0] == json!(to))
    };
    let faces = |piece: &str, to: &str| {
        (orders.iter()).any(|o| o["face"]["piece"] == piece && o["face"]["facing"] == to)
    };
    assert!(
        first_step("b", [3, 3]) && first_step("b", [3, 5]),
        "{answer}"
    );
    assert!(!first_step("b", [4, 4]), "{answer}");
    assert!(faces("c", "E") && first_step("c", [2, 6]), "{answer}");
    assert!(!first_step("c", [4, 6]), "{answer}");
}

/// 004 l.340 (2.2.2, result 4): "Hold until new orders are received." hold.yaml: the same
/// position; seed 31 rolls a 4 for g's failed change. b and c hold (`holding`, pinned; it
/// does not clear as the turn ends): b may still turn (a face order to W is accepted) but a
/// move is refused — "b cannot move: it is holding" — in turn 1 and again in turn 2 before
/// new orders. In turn 2 h (Tactical 0) changes orders: d10 8 is higher than 0, accepted,
/// and the force has its new orders: b and c hold no longer, and b steps from (3,4) to (2,4).
/// Before: result 4 had no effect at all.
#[test]
fn decision_failure_four_holds_the_force_until_new_orders_are_accepted() {
    refused(
        "hold.yaml",
        "hold-b.orders.yaml",
        "refused: b cannot move: it is holding",
    );
    refused(
        "hold.yaml",
        "hold-turn2.orders.yaml",
        "refused: b cannot move: it is holding",
    );
    // g's order change failed (a 4 on the table: hold), h's passed; g's never did. b and
    // c hold until then, and b, turned about, then moves.
    let p = played_json("hold.yaml", "hold.orders.yaml");
    let hold = |e: &Value| {
        e["roll"]["purpose"] == "decision failure of g"
            && e["roll"]["outcome"] == "hold for new orders"
    };
    assert!(p.events.iter().any(hold), "{:?}", p.events);
    assert!(
        p.has("faced", "b", |e| e["facing"] == "W"),
        "{:?}",
        p.events
    );
    assert_moved(&p, "b", &[(3, 4), (2, 4)], 1);
    let change = |by: &str, outcome: &str| {
        let purpose = format!("order change by {by}");
        (p.events.iter())
            .any(|e| e["roll"]["purpose"] == purpose && e["roll"]["outcome"] == outcome)
    };
    assert!(change("g", "fail") && change("h", "pass"), "{:?}", p.events);
    assert!(!change("g", "pass"), "{:?}", p.events);
    for unit in ["b", "c"] {
        assert!(p.flag(unit, "holding", false).is_some(), "{:?}", p.events);
    }
}

/// The kernel's `turning.barred_by` (general; Hex Command bars its turns with the flag
/// `facing_fixed`, which decision failure 3 set until the seventeenth round and a scenario
/// may still set): fixed.yaml, Blue's b (infantry, 3 points) and k (cavalry, mid-move turns)
/// at (4,4) and (4,6) facing E, both `facing_fixed` (and cautious, with Red's r at (0,5)
/// straight behind them; the scripts no longer set or clear the flag); f at
/// (4,2), free. `reach` lists for b only the cells its steps ahead reach, none that a facing
/// change at the move's start would open: (4,3), (5,4), (4,5) at cost 1, nothing west of
/// column 4 (before: (3,3), (3,4), (3,5) at cost 2, turning first); f still reaches (3,2) at
/// cost 2 by turning. k has no mid-move turn either: (3,5), a turn then a step, is not listed
/// at cost 2. A face order of b is refused.
#[test]
fn a_barring_flag_stops_every_facing_change_of_a_move_and_of_a_face_order() {
    // On reach --json: b's cells ahead at cost 1, none west of column 4; f turns to (3,2)
    // at cost 2; k does not reach (3,5) at cost 2.
    let b = reach_cells("b");
    for cell in [[5, 4], [4, 3], [4, 5]] {
        assert!(b.contains(&(json!(cell), 100)), "{cell:?}: {b:?}");
    }
    for cell in [[3, 3], [3, 4], [3, 5]] {
        assert!(b.iter().all(|(c, _)| *c != json!(cell)), "{cell:?}: {b:?}");
    }
    assert!(reach_cells("f").contains(&(json!([3, 2]), 200)));
    let k = reach_cells("k");
    assert!(!k.is_empty() && !k.contains(&(json!([3, 5]), 200)), "{k:?}");
    refused(
        "fixed.yaml",
        "fixed-face.orders.yaml",
        "refused: b cannot change facing while facing_fixed",
    );
}

/// 004 l.260 (Tribes and Light Infantry), followed to the letter: "some units may have to
/// check morale at the beginning of the game. If failing (rolling higher than the Tactical
/// skill value of the commander), said designated units can only advance toward the enemy if
/// the target enemy unit is disordered or worse; if a fresh, undamaged unit, they will not
/// move to melee." tribes.yaml (`tribes`): Blue's tribal t (class 3, the designated units)
/// with g (Tactical 4) attached at (3,4) facing E; Red's r_fresh (no hits) at (4,4) and r_hit
/// (one hit) at (3,5), both next to it. In Blue's first command phase t rolls its check:
/// seed 2 rolls d10 10, higher than 4: failed (`wavering`, for the game). It will not melee
/// r_fresh ("t failed its morale check (tribes): it will not melee r_fresh, a fresh,
/// undamaged unit"), but melees r_hit, damaged ("melee of t (2) against r_hit (1)": t's 2,
/// g's C 1 not counted as t is Stronger without it (twentieth round); r_hit's 2 less its hit). Its step to (3,3) keeps it next to r_fresh without closing
/// on it, so it is allowed (eleventh round: reaudit11.rs). With seed 1 the roll is a 4, not higher than
/// 4: passed, and t melees r_fresh. Before: a roll at each melee, passing on a d10 higher
/// than T (the reverse of the text), and no limit on moving.
#[test]
fn tribes_check_morale_once_at_the_start_and_a_failed_unit_closes_only_with_a_damaged_enemy() {
    refused(
        "tribes.yaml",
        "tribes-fresh.orders.yaml",
        "refused: t failed its morale check (tribes): it will not melee r_fresh, a fresh, undamaged unit",
    );
    // Eleventh round (reaudit11.rs): a failed unit is not held still; this step keeps it
    // next to r_fresh (it closes on no fresh enemy), so it is allowed.
    let step = played_json("tribes.yaml", "tribes-move.orders.yaml");
    assert_moved(&step, "t", &[(3, 4), (3, 3)], 1);
    let hit = played_json("tribes.yaml", "tribes-hit.orders.yaml");
    let morale = |p: &Played| {
        (p.events.iter())
            .map(|e| &e["roll"])
            .find(|r| r["purpose"] == "tribal morale of t (fails above 4)")
            .map(|r| r["dice"][0]["value"].clone())
    };
    assert_eq!(morale(&hit), Some(json!(10)), "{:?}", hit.events);
    assert!(
        hit.flag("t", "wavering", true).is_some(),
        "{:?}",
        hit.events
    );
    let fought =
        (hit.events.iter()).any(|e| e["roll"]["purpose"] == "melee of t (2) against r_hit (1)");
    assert!(fought, "{:?}", hit.events);
    let dir = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(root().join(DIR).join("tribes.yaml"))
        .expect("tribes.yaml")
        .replace("seed: 2", "seed: 1")
        .replace(
            "./hc.yaml",
            &root().join(DIR).join("hc.yaml").display().to_string(),
        );
    std::fs::write(dir.path().join("tribes1.yaml"), text).expect("write");
    let out = grognard_in(
        dir.path(),
        &[
            "play",
            "tribes1.yaml",
            "--orders",
            &root()
                .join(DIR)
                .join("tribes-fresh.orders.yaml")
                .display()
                .to_string(),
        ],
    );
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    // On --json: a 4, not above 4; t is not made wavering and melees r_fresh.
    let orders = root().join(DIR).join("tribes-fresh.orders.yaml");
    let p = play_json_in(
        dir.path(),
        "tribes1.yaml",
        &orders.display().to_string(),
        &[],
    );
    assert_eq!(morale(&p), Some(json!(4)), "{:?}", p.events);
    assert!(!set_any(&p, "t", &["wavering"]), "{:?}", p.events);
    let r_fresh = p.piece("r_fresh");
    let melee = |e: &Value| e["action"] == "melee" && e["target"] == r_fresh;
    assert!(p.has("acted", "t", melee), "{:?}", p.events);
    let purpose = "melee of t (3) against r_fresh (2)";
    assert!(
        p.events.iter().any(|e| e["roll"]["purpose"] == purpose),
        "{:?}",
        p.events
    );
}
