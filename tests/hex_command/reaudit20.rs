//! Hex Command (seed 004), twentieth round: the fifteenth outside audit (issue 33), on
//! positions in tests/fixtures/audits/hex-command/twentieth/ (ours, and the auditor's in
//! `outside15/` with the ruleset path made relative). Each ruling is worked by hand.

use crate::util::{assert_reads_alike, grognard_in, root, side_reads_in};

const DIR: &str = "tests/fixtures/audits/hex-command/twentieth";

fn ok(args: &[&str]) -> String {
    let r = grognard_in(&root().join(DIR), args);
    assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
    format!("{}{}", r.stdout, r.stderr)
}

// 004 l.20 ("Cmd Kill: Red H. No other hit applied"), l.242 and l.309 (a commander attached
// to a unit is killed by a red-star casualty hit instead of the unit), 3.1 l.465-467 and
// l.264, with note 64 (a commander under a marker is not on the table until the unit is
// identified) and the fourteenth round (a roll is itemized only for a piece identified
// before it). The auditor's row 3 (s2_29.yaml) read `b2 fire at rB`, the roll itemized and
// `voss removed` as a leak, but there the arrivals phase's spotting roll (3.1 l.465: the red
// star spots a marker within 8 hexes, forest or not) had already shown rB, and voss with it,
// before any fire (`blue sights rB at level seen`). By hand, star-commander.yaml and
// star-bare.yaml differ only in voss (C2) attached to rB, hidden in forest 2 hexes from b2;
// seed 12: the spotting cube is blue (unseen), and b2's shot (Color +1 cover = Code) rolls
// the red star: a hit, so voss dies and rB takes no hit, or rB takes the hit. Blue reads
// the same in both: the marker's handle, the netted roll, nothing of voss or of the hit.
#[test]
fn a_red_star_on_an_unidentified_marker_reads_alike_with_or_without_a_commander() {
    let with = side_reads_in(DIR, "star-commander.yaml", "star.orders.yaml", "blue");
    let without = side_reads_in(DIR, "star-bare.yaml", "star.orders.yaml", "blue");
    assert_reads_alike(&with, &without, "a marker with a commander and one without");
    assert!(
        with[0].contains("fire_small_b: cube red star; +1 modifiers in all (not itemized: an unidentified piece); band 2 (Code) → hit (fire_small_b by b2 at enemy #2)"),
        "{}",
        with[0]
    );
    for read in &with {
        assert!(!read.contains("voss") && !read.contains("rB"), "{read}");
    }
    // The referee's log: the commander was killed, the unit took no hit.
    let referee = ok(&[
        "play",
        "star-commander.yaml",
        "--orders",
        "star.orders.yaml",
    ]);
    assert!(
        referee
            .contains("voss removed (commander killed by a red-star hit; the unit takes no hit)"),
        "{referee}"
    );
    // The auditor's position: rB was spotted in the arrivals phase, before the fire.
    let audit = ok(&[
        "play",
        "outside15/s2_29.yaml",
        "--orders",
        "outside15/o_fire2.yaml",
        "--side",
        "blue",
    ]);
    let sighted = audit
        .find("blue sights rB at level seen")
        .expect("rB spotted");
    let fired = audit.find("b2 fire at rB").expect("b2 fires at rB");
    assert!(sighted < fired, "{audit}");
}

// 004 l.38 (commander +CVS C to firing), l.216 (fire chart bands), l.313 (players need not
// tell a commander's capabilities until they need them), with the sixteenth round (a
// Combat value that changes nothing is not itemized). By hand, commander-c2.yaml and
// commander-c1.yaml (the auditor's s1n.yaml) differ only in voss's C (2 or 1), attached to
// rB, a marker in forest that fires at b2 two hexes off: Color (band 1), no penalty; one
// point of C reaches the automatic band, the second moves nothing. Before this round the
// C2 shot read `-2 commander`, so blue learnt C=2; now both read `-1 commander` and every
// answer blue gets is the same.
#[test]
fn a_commanders_fire_bonus_itemizes_only_the_points_that_moved_the_band() {
    let c2 = side_reads_in(DIR, "commander-c2.yaml", "commander.orders.yaml", "blue");
    let c1 = side_reads_in(DIR, "commander-c1.yaml", "commander.orders.yaml", "blue");
    assert_reads_alike(&c2, &c1, "a C2 commander and a C1 commander");
    assert!(
        c2[0].contains("fire_small_b: no roll needed; -1 commander; band 0 (automatic) → hit (fire_small_b by rB at b2)"),
        "{}",
        c2[0]
    );
}

// 004 7.3a l.410 (each side adds its modifiers to its melee value; only which is Stronger,
// Weaker or equal decides, and extra points only keep a unit superior) and l.313 (a
// commander's capabilities are kept back until needed). The auditor's row 29: b2 (2)
// meleeing rB in forest with voss (C2) read `against rB (5)`, `-20 defender's melee value`,
// voss's C told though rB was Stronger without him. Reading (notes, twentieth round): the
// roll counts only the commanders' points that gave the comparison. By hand (seed 1):
// b2 (infantry 2) against rB (2 + 1 forest = 3): rB is Stronger whatever voss's C, so none
// of it counts: `b2 (2) against rB (3)` with voss C2 or C0, and blue's every answer is the
// same. b3 (2) with hale against rD in the open (2): one point of hale's C makes b3
// Stronger, the second changes nothing: `b3 (3) against rD (2)` with hale C2 or C1, and
// red's every answer is the same. Before, blue read `rB (5)` and red `b3 (4)`.
#[test]
fn melee_values_count_only_the_commanders_points_that_decided_stronger_or_weaker() {
    let c2 = side_reads_in(DIR, "melee-22.yaml", "melee.orders.yaml", "blue");
    let c0 = side_reads_in(DIR, "melee-02.yaml", "melee.orders.yaml", "blue");
    assert_reads_alike(&c2, &c0, "voss with C2 and with C0, read by blue");
    assert!(
        c2[0].contains("(melee of b2 (2) against rB (3))"),
        "{}",
        c2[0]
    );
    let h2 = side_reads_in(DIR, "melee-22.yaml", "melee.orders.yaml", "red");
    let h1 = side_reads_in(DIR, "melee-21.yaml", "melee.orders.yaml", "red");
    assert_reads_alike(&h2, &h1, "hale with C2 and with C1, read by red");
    assert!(
        h2[0].contains("(melee of b3 (3) against rD (2))"),
        "{}",
        h2[0]
    );
}
