//! Hex Command (seed 004), twentieth round: the fifteenth outside audit (issue 33), on
//! positions in tests/fixtures/audits/hex-command/twentieth/ (ours, and the auditor's in
//! `outside15/` with the ruleset path made relative). Each ruling is worked by hand.

use serde_json::{Value, json};

use crate::util::{assert_reads_alike, events_of, grognard_in, play_json_in, root, side_reads_in};

const DIR: &str = "tests/fixtures/audits/hex-command/twentieth";

/// The roll records of `chart` in a side's `play --json` read (the second of `SIDE_READS`).
fn rolls(reads: &[String], chart: &str) -> Vec<Value> {
    let json: Value = serde_json::from_str(reads[1].trim_end()).expect("play --json");
    (events_of(&json).into_iter())
        .filter(|e| e["event"] == "rolled" && e["roll"]["chart"] == chart)
        .map(|e| e["roll"].clone())
        .collect()
}

/// A roll's purpose, modifiers, band and outcome.
fn told(roll: &Value) -> (Value, Value, Value, Value) {
    let r = roll.clone();
    (
        r["purpose"].clone(),
        r["modifiers"].clone(),
        r["band"].clone(),
        r["outcome"].clone(),
    )
}

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
    let fire = rolls(&with, "fire_small_b");
    let netted =
        json!([{"name": "modifiers in all (not itemized: an unidentified piece)", "value": 1}]);
    let want = (
        json!("fire_small_b by b2 at enemy #2"),
        netted,
        json!("Code"),
        json!("hit"),
    );
    assert_eq!(fire.iter().map(told).collect::<Vec<_>>(), [want]);
    assert_eq!(
        (&fire[0]["dice"][0]["face"], &fire[0]["inputs"]),
        (&json!("red star"), &json!([]))
    );
    for read in &with {
        // prose: no word of blue's names voss or rB.
        assert!(!read.contains("voss") && !read.contains("rB"), "{read}");
    }
    // The referee's log: the commander was killed, the unit took no hit.
    let referee = play_json_in(
        &root().join(DIR),
        "star-commander.yaml",
        "star.orders.yaml",
        &[],
    );
    let killed = "commander killed by a red-star hit; the unit takes no hit";
    assert!(
        referee.has("removed", "voss", |e| e["reason"] == killed),
        "{:?}",
        referee.events
    );
    let rb_hit = referee.has("counter_changed", "rB", |e| e["counter"] == "hits");
    assert!(!rb_hit, "{:?}", referee.events);
    // The auditor's position: rB was spotted in the arrivals phase, before the fire.
    let audit = play_json_in(
        &root().join(DIR),
        "outside15/s2_29.yaml",
        "outside15/o_fire2.yaml",
        &["--side", "blue"],
    );
    // rB by blue's number for it, the target of b2's fire.
    let fired = audit
        .find("acted", "b2", |e| e["action"] == "fire")
        .unwrap_or_else(|| panic!("b2 fires: {:?}", audit.events));
    let rb = audit.events[fired]["target"].clone();
    let sighted = (audit.events.iter())
        .position(|e| e["event"] == "sighted" && e["piece"] == rb && e["level"] == "seen");
    assert!(sighted.is_some_and(|s| s < fired), "{:?}", audit.events);
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
    let fire: Vec<_> = rolls(&c2, "fire_small_b").iter().map(told).collect();
    let commander = json!([{"name": "commander", "value": -1}]);
    let want = (
        json!("fire_small_b by rB at b2"),
        commander,
        json!("automatic"),
        json!("hit"),
    );
    assert_eq!(fire, [want]);
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
    let purposes = |reads: &[String]| -> Vec<Value> {
        rolls(reads, "melee")
            .iter()
            .map(|r| r["purpose"].clone())
            .collect()
    };
    assert!(
        purposes(&c2).contains(&json!("melee of b2 (2) against rB (3)")),
        "{}",
        c2[1]
    );
    let h2 = side_reads_in(DIR, "melee-22.yaml", "melee.orders.yaml", "red");
    let h1 = side_reads_in(DIR, "melee-21.yaml", "melee.orders.yaml", "red");
    assert_reads_alike(&h2, &h1, "hale with C2 and with C1, read by red");
    assert!(
        purposes(&h2).contains(&json!("melee of b3 (3) against rD (2)")),
        "{}",
        h2[1]
    );
}

// Readings stated (notes, twentieth round), each the engine's behaviour pinned.
//
// #41, marker handles: the kernel already gives a side's handles in order of where it saw
// the pieces (row, then column; ties by a hash keyed by the game's seed), never by the
// scenario's list (s1's rA #5, rB #6, rF #7 ran down the rows 2, 4, 6 as the list did). By
// hand: handles-real-first.yaml and handles-fake-first.yaml differ only in the order rB
// (real, (7,4)) and rF (a fake, (7,6)) are listed, both hidden in forest 2-3 hexes from b2;
// seed 1 spots neither. Blue reads the same: #2 at (7,4), #3 at (7,6), both times.
#[test]
fn marker_handles_follow_the_place_not_the_scenarios_list() {
    let real = side_reads_in(
        DIR,
        "handles-real-first.yaml",
        "handles.orders.yaml",
        "blue",
    );
    let fake = side_reads_in(
        DIR,
        "handles-fake-first.yaml",
        "handles.orders.yaml",
        "blue",
    );
    assert_reads_alike(
        &real,
        &fake,
        "the real marker listed first and the fake first",
    );
    let view: Value = serde_json::from_str(real[3].trim_end()).expect("view --json");
    let markers: Vec<(Value, Value)> = (view["view"]["enemy"].as_array().into_iter().flatten())
        .map(|e| (e["handle"].clone(), e["place"]["cell"].clone()))
        .collect();
    let want = [(2, 7, 4), (3, 7, 6)].map(|(h, c, r)| (json!(h), json!({"col": c, "row": r})));
    assert!(want.iter().all(|m| markers.contains(m)), "{markers:?}");
}

// #40 (l.264 'Units that cannot be seen by any enemy are replaced'; 2a-b l.236-237, a
// commander figure is a symbol of command strength, not a unit): hidden movement hides
// units, so a lone commander stays on the table at any range. hm.yaml (hidden_movement):
// kern alone at (19,0), 17 hexes from blue's nearest unit, is shown to blue.
// #39 (2d l.240 'ignoring all obstacles'; 5.2 l.535-538): obstacles are the terrain's (5.4:
// walls, streams), not the enemy; a lone commander stops on entering an enemy zone as any
// piece does. zh_fake.yaml / zh_real.yaml: hale's path runs through a marker's front and
// stops at (4,5) for the fake and the real marker alike.
// #30 (3.1 l.439-441 with l.35): grapeshot is the guns' answer in the melee process, rolled
// on its own table (smoothbore automatic, rifled Color) with no fire modifiers, and, like
// melee (eighteenth round), it does not unmask a marker; it names the marker by its handle.
#[test]
fn lone_commanders_zones_and_grapeshot_are_read_as_stated() {
    // prose: blue's view line for the lone commander.
    let hm = ok(&["view", "outside15/hm.yaml", "--side", "blue"]);
    assert!(hm.contains("kern       at (19,0), real, commander"), "{hm}");
    for file in ["outside15/zh_fake.yaml", "outside15/zh_real.yaml"] {
        let r = grognard_in(
            &root().join(DIR),
            &[
                "play",
                file,
                "--orders",
                "outside15/o_hm.yaml",
                "--side",
                "blue",
            ],
        );
        let out = format!("{}{}", r.stdout, r.stderr);
        let p = play_json_in(
            &root().join(DIR),
            file,
            "outside15/o_hm.yaml",
            &["--side", "blue"],
        );
        assert_eq!(
            p.refusal_kind.as_deref(),
            Some("must_stop"),
            "{file}: {:?}",
            p.refused
        );
        // prose: the words name the marker by blue's handle.
        assert!(
            out.contains(
                "refused: hale must stop at (4,5) (entered the zone of control of enemy #3)"
            ),
            "{file}: {out}"
        );
    }
    let art = ok(&[
        "play",
        "outside15/artr.yaml",
        "--orders",
        "outside15/o_art2.yaml",
        "--side",
        "blue",
    ]);
    let p = play_json_in(
        &root().join(DIR),
        "outside15/artr.yaml",
        "outside15/o_art2.yaml",
        &["--side", "blue"],
    );
    let grape = (p.events.iter())
        .find(|e| e["event"] == "rolled" && e["roll"]["chart"] == "grapeshot")
        .map(|e| told(&e["roll"]));
    let want = (
        json!("grapeshot by enemy #3 at b1"),
        json!([]),
        json!("Color"),
        json!("hit"),
    );
    assert_eq!(grape, Some(want), "{:?}", p.events);
    // prose: the roll's line names the marker by its handle only.
    assert!(
        art.contains("grapeshot: cube red; band 1 (Color) → hit (grapeshot by enemy #3 at b1)"),
        "{art}"
    );
    assert!(!art.contains("rG"), "{art}");
}
