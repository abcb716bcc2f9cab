//! Hex Command (seed 004), twenty-fifth round: the twentieth outside audit's findings (issue
//! 33), on its positions in tests/fixtures/audits/hex-command/twentyfifth/outside20/ (the
//! overlay hc.yaml drops the initiative roll, so blue plays first).

use crate::util::{assert_reads_alike, grognard_in, root, side_reads_in};

const DIR: &str = "tests/fixtures/audits/hex-command/twentyfifth/outside20";

// 6 (l.565-571: a commander attached to a unit moves with it) and 2b (l.238). h17c.yaml:
// red's hidden reinforcement r7 arrives at entry place 1, (11,3)-(11,4), with commander k7
// attached; h17a.yaml is the same without k7. By hand: r7 comes on at (11,3), the place's
// first free hex, carrying k7; (11,4) stays empty, so blue's b1 walks (9,5) → (10,4) →
// (11,4) in both games, and blue's reads are byte for byte alike. Before: k7 was set down on
// (11,4) by himself, b1 stopped at (10,4) in contact with "an unseen enemy", and blue learnt
// that the hidden arrival had brought a commander (the audit's W1 and L1).
#[test]
fn a_commander_arriving_with_his_unit_rides_on_its_hex() {
    let plain = side_reads_in(DIR, "h17a.yaml", "o_h17.yaml", "blue");
    let with = side_reads_in(DIR, "h17c.yaml", "o_h17.yaml", "blue");
    assert_reads_alike(
        &plain,
        &with,
        "a hidden arrival with and without a commander",
    );
    // Blue's play --json read (the second of SIDE_READS): b1's whole move.
    let log: serde_json::Value = serde_json::from_str(with[1].trim_end()).expect("play --json");
    let path =
        serde_json::json!([{"col": 9, "row": 5}, {"col": 10, "row": 4}, {"col": 11, "row": 4}]);
    let moved = (log["events"].as_array().into_iter().flatten())
        .any(|e| e["event"] == "moved" && e["path"] == path && e["cost"] == 200);
    assert!(moved, "{log}");
    let referee = grognard_in(
        &root().join(DIR),
        &[
            "view",
            "h17c.yaml",
            "--orders",
            "o_h17.yaml",
            "--referee",
            "--json",
        ],
    );
    assert_eq!(referee.code, 0, "{}", referee.stderr);
    let v: serde_json::Value = serde_json::from_str(&referee.stdout).expect("view --json");
    let pieces = v["state"]["pieces"].as_array().cloned().unwrap_or_default();
    let k7 = pieces
        .iter()
        .position(|p| p["name"] == "k7")
        .expect("k7 listed");
    let rides = &pieces[pieces[k7]["attached_to"].as_u64().expect("k7 attached") as usize];
    let at = serde_json::json!({"cell": {"col": 11, "row": 3}});
    assert_eq!((&pieces[k7]["place"], &rides["place"]), (&at, &at), "{v}");
    // He came on with his unit: no placement of his own.
    let own = |e: &&serde_json::Value| {
        e["piece"] == k7 && (e["event"] == "placed" || e["event"] == "arrived")
    };
    assert!(
        !v["events"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|e| own(&e)),
        "{v}"
    );
}
