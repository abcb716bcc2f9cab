//! The second outside umpire's artillery audit, round 3 (docs/audits/black-powder.md,
//! "Second artillery audit (round 3)"): its positions in
//! `tests/fixtures/audits/black-powder-art2`, played through the binary and asserted on
//! `play --json` and `legal --json`.

use super::artillery_audit::{input, validate_diagnostics};
use crate::util::{Played, grognard, json_of, play_json_in, root};

const DIR: &str = "tests/fixtures/audits/black-powder-art2";

fn fixture(name: &str) -> String {
    format!("{DIR}/{name}")
}

/// `play SCENARIO --orders ORDERS --json ARGS` on the audit's files, from the root.
fn played(scenario: &str, orders: &str, args: &[&str]) -> Played {
    play_json_in(&root(), &fixture(scenario), &fixture(orders), args)
}

/// The rolls of `chart` whose purpose is `purpose`.
fn rolls<'a>(p: &'a Played, chart: &str, purpose: &str) -> Vec<&'a serde_json::Value> {
    (p.events.iter())
        .filter(|e| e["event"] == "rolled" && e["roll"]["chart"] == chart)
        .map(|e| &e["roll"])
        .filter(|r| r["purpose"] == purpose)
        .collect()
}

#[test]
fn artillery_closing_fire_is_at_close_canister() {
    // 003 artillery table (../shared/seeds/003_2cb9e4d8a452c8b7.txt, l.443-449): close
    // canister, 3 dice, +1 to hit, -2 to save; the not-adopted Sheltering rule (l.567-569)
    // takes the "+1 to hit for closing fire" from a sheltering battery, so the reading is
    // that closing fire is at close canister. Audit Q14: the French 6 lb `frbat`, charged
    // by `rinf1` from 8.54 rule inches, rolled 3 dice with every band input 0, and the
    // charger saved on its plain 4+ (seed 5).
    let p = played(
        "shoot.yaml",
        "q13_closing_ctrl.orders.yaml",
        &["--seed", "5"],
    );
    assert_eq!(p.refused, None);
    let hits = rolls(&p, "to_hit", "closing fire by frbat");
    assert_eq!(hits.len(), 3, "{:?}", p.events);
    for roll in &hits {
        assert_eq!(input(roll, "close_canister"), Some(1), "{roll}");
        assert_eq!(input(roll, "canister"), Some(0), "{roll}");
        // The die plus the +1 (d6 2 scores 3).
        let die = roll["dice"][0]["value"].as_i64().expect("a die");
        assert_eq!(roll["score"].as_i64(), Some(die + 1), "{roll}");
    }
    // One hit (the 6, scoring 7, disorders): rinf1 saves at -2 for close canister.
    let saves = rolls(&p, "morale_save", "save of rinf1");
    assert_eq!(saves.len(), 1, "{:?}", p.events);
    assert_eq!(input(saves[0], "close_canister"), Some(1), "{}", saves[0]);
    assert_eq!(input(saves[0], "save"), Some(4), "{}", saves[0]);
    assert_eq!(saves[0]["score"], 0, "d6 6 - 4 - 2: {}", saves[0]);
}

#[test]
fn the_side_out_of_phase_gives_no_brigade_order_and_changes_no_formation() {
    // 003 Support Charge (../shared/seeds/003_2cb9e4d8a452c8b7.txt, l.686-690): in the
    // opponent's command phase a side may only react with a support charge. Audit Q20: after
    // blue ended its part of its command phase, red's `rbde hold` was accepted (red infantry
    // marked `may_close` in blue's turn) and `legal` listed every brigade order for red,
    // where `order` was refused in the words "orders are given in your own command phase".
    let hold = played("shoot5.yaml", "obs_red_hold.orders.yaml", &[]);
    let why = hold.refused.as_deref().unwrap_or_default();
    assert!(
        why.ends_with("orders are given in your own command phase"),
        "{why}"
    );
    assert!(!hold.has("flag_changed", "rbde", |e| e["flag"] == "order_hold"));
    assert!(!hold.has("flag_changed", "rinf1", |e| e["flag"] == "may_close"));
    // Nor may its units change formation or reform there.
    let square = played("shoot5.yaml", "red_mode.orders.yaml", &[]);
    let why = square.refused.as_deref().unwrap_or_default();
    assert!(why.ends_with("rinf1 may not change formation in the opponent's command phase (only a support charge may answer there)"), "{why}");
    let reform = played("shoot5.yaml", "red_reform.orders.yaml", &[]);
    let why = reform.refused.as_deref().unwrap_or_default();
    assert!(why.ends_with("rinf1 may not reform in the opponent's command phase (only a support charge may answer there)"), "{why}");
    // `legal` offers red only the end of the phase (no cavalry here to support-charge).
    let run = grognard(&[
        "legal",
        &fixture("shoot5.yaml"),
        "--orders",
        &fixture("q12_pre.orders.yaml"),
        "--side",
        "red",
        "--json",
    ]);
    let legal = json_of(&run);
    assert_eq!(legal["phase"], "command", "{legal}");
    assert_eq!(legal["to_act"], serde_json::json!(["red"]), "{legal}");
    assert_eq!(
        legal["orders"],
        serde_json::json!([{ "end_phase": true, "side": "red" }]),
        "{legal}"
    );
}

/// `validate FILE --json`'s diagnostics: (line, message).
fn diagnostics(name: &str) -> Vec<(i64, String)> {
    validate_diagnostics(&fixture(name))
}

#[test]
fn a_battery_with_a_gun_of_another_nation_is_refused_at_its_line() {
    // 003 lists the guns by nation (../shared/seeds/003_2cb9e4d8a452c8b7.txt, l.484-510)
    // and exempts British batteries from the prolong -1 (l.552-553), which reads `nation`.
    // Audit Q21: a French battery with British 6 lb guns (gun 5) validated, and fired at -1
    // after a prolong; a British one with French 6 lb guns (gun 8) at +0.
    assert_eq!(
        diagnostics("q20_mixed.yaml"),
        [(
            11,
            "piece frbat: gun 5 is a gun of Britain (nation 2), but the battery's nation is France (3): give it a gun of its nation, or nation 2 (the British exemption from the prolong -1 follows the nation, 003 l.552-553)".to_owned()
        )]
    );
    // The other way round, at brbat's own line (the scenario's line 12).
    assert_eq!(
        diagnostics("q20_mixed_br.yaml"),
        [(
            12,
            "piece brbat: gun 8 is a gun of France (nation 3), but the battery's nation is Britain (2): give it a gun of its nation, or nation 3 (the British exemption from the prolong -1 follows the nation, 003 l.552-553)".to_owned()
        )]
    );
    // Guns of their own nations start.
    assert_eq!(diagnostics("shoot.yaml"), []);
}

#[test]
fn the_log_says_a_blunder_a_failed_order_and_lists_no_passage_without_a_move() {
    // 003 Blunders (../shared/seeds/003_2cb9e4d8a452c8b7.txt, l.710) and Moving Artillery
    // (l.550): a blundering battery makes the blunder table's moves, on prolong. Audit Q15:
    // the heavy battery's hand haul was refused as "not ordered to hand-haul" though it was
    // ordered to and blundered (seed 59: 6+6).
    let blunder = played("base2.yaml", "q14c.orders.yaml", &["--seed", "59"]);
    let why = blunder.refused.as_deref().unwrap_or_default();
    assert!(
        why.ends_with(
            "heavy blundered: it makes the blunder table's moves, on prolong, not a hand haul"
        ),
        "{why}"
    );
    assert!(blunder.flag("heavy", "blundered", true).is_some());
    // A failed order under Maneuver (seed 1: 4+5 against staff 8) gives no move: the log says
    // so after the `ordered` mark (audit: only "light has been given an order" was said).
    let failed = played(
        "base.yaml",
        "q3_maneuver_none.orders.yaml",
        &["--seed", "1"],
    );
    let said = (failed.events.iter()).position(|e| {
        e["event"] == "note" && e["text"] == "light's order failed: it makes no move on it"
    });
    let marked = failed.flag("light", "ordered", true);
    assert!(
        matches!((marked, said), (Some(m), Some(s)) if m < s),
        "{:?}",
        failed.events
    );
    // 003 Passage of Lines (l.723-737) is made on a move, unit through unit: `legal` lists
    // none by light, whose order failed, nor any by or through the brigadier (it listed
    // both); the batteries not yet ordered may still declare one before their order.
    let run = grognard(&[
        "legal",
        &fixture("base.yaml"),
        "--orders",
        &fixture("q16_man_fail.orders.yaml"),
        "--side",
        "blue",
        "--json",
    ]);
    let legal = json_of(&run);
    let passages: Vec<(String, String)> = (legal["orders"].as_array().into_iter().flatten())
        .filter(|o| o["act"]["action"] == "passage_of_lines")
        .map(|o| {
            let name = |k: &str| o["act"][k].as_str().unwrap_or_default().to_owned();
            (name("piece"), name("target"))
        })
        .collect();
    let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    assert_eq!(
        passages,
        [
            pair("foot", "light"),
            pair("horse", "light"),
            pair("horse", "heavy"),
            pair("heavy", "light"),
            pair("heavy", "horse"),
        ],
        "{legal}"
    );
}
