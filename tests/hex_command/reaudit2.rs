//! The second fresh outside audit of Hex Command (docs/audits/hex-command.md, "Second fresh
//! audit"): each finding worked by hand against seed 004 (line numbers of `004_*.txt`), on
//! the audit's own positions in tests/fixtures/audits/hex-command/second/.

use super::*;
use crate::util::play_json_in;

const DIR: &str = "tests/fixtures/audits/hex-command/second";

fn at(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

/// 004 l.514 (4b) with l.516 (4d: three places, of which a scenario may use only some):
/// t13.yaml defines only `entry_1` ((0,8), (1,8)); Red's r1 stands on (1,8), so Blue's two
/// arrivals wait and r1 is marked blocking. In Red's movement phase r1 may withdraw, and
/// `legal` lists it. Before: the withdrawal check asked for `entry_2`, the hook errored
/// ("sequence.lua:109: unknown region entry_2"), play refused and `legal` dropped the order.
#[test]
fn a_scenario_may_define_only_some_entry_places() {
    let p = play_json_in(&root().join(DIR), "t13.yaml", "o13e.yaml", &[]);
    assert_eq!(p.code, 0, "{:?}", p.refused);
    assert_flag(&p, "r1", "withdrawn", true);
    let legal = at(&[
        "legal",
        "t13.yaml",
        "--side",
        "red",
        "--orders",
        "o13e_before.yaml",
        "--json",
    ]);
    assert_eq!(legal.code, 0, "{}{}", legal.stdout, legal.stderr);
    let list: Value = serde_json::from_str(&legal.stdout).expect("legal --json");
    let withdraw = serde_json::json!({"side": "red", "act": {"piece": "r1", "action": "withdraw"}});
    assert!(
        list["orders"]
            .as_array()
            .is_some_and(|o| o.contains(&withdraw)),
        "{list}"
    );
}

/// 004 l.256 (optional supply): "each turn a unit fires, it spends one point of supply".
/// t06.yaml: b1 (2,4, facing E, one point) fires at r1 (5,4) in Blue's fire phase and pays
/// its point (1 → 0); in Blue's defensive fire of the same turn it fires at r1 again, free
/// (the turn is paid for). Before: "b1 is out of supply", while a unit with points left fired
/// the second time free.
#[test]
fn a_unit_that_paid_this_turns_supply_fires_again_that_turn() {
    // b1 fires twice (the second time in Red's defensive fire) and pays one point, 1 → 0,
    // and no other.
    let p = play_json_in(&root().join(DIR), "t06.yaml", "o06b_second.yaml", &[]);
    assert_eq!(p.code, 0, "{:?}", p.refused);
    let b1 = p.piece("b1");
    let again = |e: &Value| e["event"] == "acted" && e["action"] == "fire" && e["piece"] == b1;
    assert!(
        p.in_phase(1, "defensive fire", "red").iter().any(again),
        "{:?}",
        p.events
    );
    let fired = (p.events.iter())
        .filter(|e| e["event"] == "acted" && e["action"] == "fire" && e["piece"] == b1);
    assert_eq!(fired.count(), 2, "{:?}", p.events);
    assert!(
        field::counted(&p, "b1", "supply", Some((1, 0))),
        "{:?}",
        p.events
    );
    let supply = (p.events.iter()).filter(|e| e["counter"] == "supply" && e["piece"] == b1);
    assert_eq!(supply.count(), 1, "{:?}", p.events);
}

/// 004 l.524 ("they must change facing (About Face) and then move") and l.529 (one facing
/// change a turn, one point): t01.yaml, bi (infantry, 3 points) at (2,4) facing E. Turning
/// W first (1 point) it reaches (1,4) for 2 and (0,4) for 3, as the face and move orders
/// play; `reach` lists them (before: it left them out, while it listed the cavalry's), and
/// the move order alone walks them, putting the facing change first and counting it.
#[test]
fn reach_lists_the_hexes_infantry_reaches_by_turning_first() {
    let out = at(&["reach", "t01.yaml", "--unit", "bi", "--json"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let reach: Value = serde_json::from_str(&out.stdout).expect("reach --json");
    let listed = |cell: [i64; 2], cost: i64, path: &[[i64; 2]]| {
        (reach["reach"].as_array().into_iter().flatten()).any(|e| {
            e["cell"] == serde_json::json!(cell)
                && e["cost_hundredths"] == cost * 100
                && e["path"] == serde_json::json!(path)
        })
    };
    assert!(listed([1, 4], 2, &[[1, 4]]), "{reach}");
    assert!(listed([0, 4], 3, &[[1, 4], [0, 4]]), "{reach}");
    let p = play_json_in(&root().join(DIR), "t01.yaml", "o_turn_first.yaml", &[]);
    assert_eq!(p.code, 0, "{:?}", p.refused);
    assert_moved(&p, "bi", &[(2, 4), (1, 4), (0, 4)], 3);
    assert_counted(&p, "bi", "face_changes", 0, 1);
}
