//! Hex Command (seed 004): one test per mechanic, through the binary. Charts are checked
//! for their exact odds (`grognard chart --json`); rules in play with small fields written
//! to a temporary folder and played with `grognard play`. The test fields use an overlay
//! without the initiative roll, so Blue always plays first.

use serde_json::Value;

use crate::hex_field::{Field, ends, has, lacks, order, with};
use crate::util::{Run, grognard, grognard_in, root};

const RULESET: &str = "rulesets/hex-command.yaml";

// ---------------------------------------------------------------------------------------
// Charts

fn chart_json(ruleset: &str, chart: &str, sets: &[String]) -> Value {
    let mut args = vec!["chart", ruleset, chart];
    for s in sets {
        args.push("--set");
        args.push(s);
    }
    args.push("--json");
    let run = grognard(&args);
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

/// The exact fraction of `outcome` for one set of inputs.
fn odds(ruleset: &str, chart: &str, sets: &[String], outcome: &str) -> String {
    let report = chart_json(ruleset, chart, sets);
    let rows = report["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 1, "{report}");
    rows[0]["odds"]
        .as_array()
        .expect("odds")
        .iter()
        .find(|o| o["outcome"] == outcome)
        .and_then(|o| o["fraction"].as_str())
        .unwrap_or_else(|| panic!("no outcome {outcome} in {report}"))
        .to_owned()
}

/// The band a chart lands in for one set of inputs.
fn band_name(chart: &str, sets: &[String]) -> String {
    let report = chart_json(RULESET, chart, sets);
    report["rows"][0]["band"]["name"]
        .as_str()
        .unwrap_or_else(|| panic!("no band in {report}"))
        .to_owned()
}

/// What a cube must show in each band: the cube has three red faces, two starred faces, and
/// one red star.
fn cube_odds(band: &str) -> &'static str {
    match band {
        "automatic" => "1",
        "Color" => "1/2",
        "Code" => "1/3",
        "Code'n Color" => "1/6",
        _ => "0",
    }
}

/// 004 charts page, "Firing": for each weapon class, every base band, with 0, 1 and 2
/// combat penalties and 0, 1 and 2 combat bonuses (and 3 bonuses, which count as 2), the
/// needed band moves one step per CP toward impossible and one per CB toward automatic,
/// and the hit odds are the cube's for that band.
#[test]
fn fire_chart_hit_odds_for_every_band_class_penalty_and_bonus() {
    // (chart, its bands best first): rifled artillery and class C have no automatic band.
    let charts: [(&str, &[&str]); 6] = [
        (
            "fire_small_a",
            &["automatic", "Color", "Code", "Code'n Color", "out of reach"],
        ),
        (
            "fire_small_b",
            &["automatic", "Color", "Code", "Code'n Color", "out of reach"],
        ),
        (
            "fire_small_c",
            &["Color", "Code", "Code'n Color", "out of reach"],
        ),
        (
            "fire_carbine",
            &["automatic", "Color", "Code", "out of reach"],
        ),
        (
            "fire_artillery_b",
            &["automatic", "Color", "Code", "Code'n Color", "out of reach"],
        ),
        (
            "fire_artillery_a",
            &["Color", "Code", "Code'n Color", "out of reach"],
        ),
    ];
    let charts_c = (
        "fire_artillery_c",
        ["Color", "Code", "Code'n Color", "out of reach"],
    );
    let mut all: Vec<(&str, Vec<&str>)> = charts.iter().map(|(c, b)| (*c, b.to_vec())).collect();
    all.push((charts_c.0, charts_c.1.to_vec()));
    for (chart, bands) in all {
        let last = bands.len() as i32 - 1;
        for base in 0..=last {
            for cp in 0..=2 {
                for cb in 0..=3 {
                    // Penalties: hits on the firer. Bonuses: flank, commander (C 1), trained.
                    let mut sets = vec![format!("band={base}"), format!("firer_hits={cp}")];
                    if cb >= 1 {
                        sets.push("flank=1".into());
                    }
                    if cb >= 2 {
                        sets.push("command=1".into());
                    }
                    if cb >= 3 {
                        sets.push("trained=1".into());
                    }
                    let want = (base + cp - cb.min(2)).clamp(0, last) as usize;
                    let want_band = bands[want];
                    assert_eq!(
                        band_name(chart, &sets),
                        want_band,
                        "{chart} base {base} with {cp} CP and {cb} CB"
                    );
                    assert_eq!(
                        odds(RULESET, chart, &sets, "hit"),
                        cube_odds(want_band),
                        "{chart} base {base} with {cp} CP and {cb} CB"
                    );
                }
            }
        }
    }
}

/// 004 "Modifiers": each hit on the firer, each level of cover, partial obstruction, a
/// fatigued firer, out-of-arc point-blank fire and moving-and-unlimbering are one CP each;
/// flank/rear, the commander's C value and training are one CB each, at most two together.
#[test]
fn every_fire_modifier_moves_one_band() {
    let base = "band=2".to_owned(); // Code
    for penalty in [
        "firer_hits=1",
        "cover=1",
        "obstructed=1",
        "fatigued=1",
        "out_of_arc=1",
        "unlimbered_after_move=1",
    ] {
        assert_eq!(
            band_name("fire_small_b", &[base.clone(), penalty.into()]),
            "Code'n Color",
            "{penalty}"
        );
    }
    assert_eq!(
        band_name("fire_small_b", &[base.clone(), "cover=2".into()]),
        "out of reach"
    );
    for bonus in ["flank=1", "command=1", "trained=1"] {
        assert_eq!(
            band_name("fire_small_b", &[base.clone(), bonus.into()]),
            "Color",
            "{bonus}"
        );
    }
    // A C-value 2 commander alone gives both bonuses; with flank too it is still two.
    assert_eq!(
        band_name("fire_small_b", &[base.clone(), "command=2".into()]),
        "automatic"
    );
    let cnc = "band=3".to_owned();
    assert_eq!(
        band_name(
            "fire_small_b",
            &[
                cnc,
                "command=2".into(),
                "flank=1".into(),
                "trained=1".into()
            ]
        ),
        "Color",
        "bonuses cannot take Code'n Color all the way to automatic"
    );
}

/// 004 "Code 'n Color dice": the d6 stand-in (1-3 Color, 4-5 Code, 6 CnC), as the
/// hex-command-d6 overlay plays it.
#[test]
fn the_d6_stand_in_overlay_gives_its_own_odds() {
    let d6 = "rulesets/hex-command-d6.yaml";
    let want = [("1", "2/3"), ("2", "1/2"), ("3", "1/6"), ("0", "1")];
    for (band, p) in want {
        assert_eq!(
            odds(d6, "fire_small_b", &[format!("band={band}")], "hit"),
            p,
            "band {band}"
        );
    }
}

/// 004 "Melee": both roll; Stronger/Weaker by modified value; equal values: red causes a
/// hit, blue a TE hit.
#[test]
fn melee_table_by_stronger_weaker_and_equal() {
    let case = |a: i32, d: i32| -> std::collections::BTreeSet<(String, String)> {
        let report = chart_json(
            RULESET,
            "melee",
            &[format!("attacker={a}"), format!("defender={d}")],
        );
        report["rows"][0]["odds"]
            .as_array()
            .expect("odds")
            .iter()
            .filter(|o| o["fraction"] != "0")
            .map(|o| {
                (
                    o["outcome"].as_str().unwrap_or_default().to_owned(),
                    o["fraction"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect::<std::collections::BTreeSet<_>>()
    };
    let quarter = |names: &[&str]| -> std::collections::BTreeSet<(String, String)> {
        names
            .iter()
            .map(|n| ((*n).to_owned(), "1/4".to_owned()))
            .collect()
    };
    // Attacker stronger (3 against 1): both red → both hit and the weaker +1 TE; both blue
    // → weaker +1 TE; red by the stronger only → the weaker one hit; red by the weaker only
    // → the stronger one hit.
    assert_eq!(
        case(3, 1),
        quarter(&[
            "both hit and defender TE",
            "attacker hit",
            "defender hit",
            "defender TE"
        ])
    );
    // Defender stronger: the same with the roles swapped.
    assert_eq!(
        case(0, 2),
        quarter(&[
            "attacker hit",
            "defender hit",
            "attacker TE",
            "both hit and attacker TE"
        ])
    );
    // Equal: each red a hit on the other, each blue a TE hit on the other.
    assert_eq!(
        case(2, 2),
        quarter(&[
            "both hit",
            "attacker hit and defender TE",
            "defender hit and attacker TE",
            "both TE"
        ])
    );
    // A margin of one is as good as a margin of five.
    assert_eq!(case(6, 1), case(3, 2));
}

/// 004 2.2: CVS rolls pass when a d10 rolls higher than the trait.
#[test]
fn cvs_test_passes_above_the_trait() {
    for t in 4..=7 {
        let want = match 10 - t {
            6 => "3/5",
            5 => "1/2",
            4 => "2/5",
            3 => "3/10",
            _ => unreachable!(),
        };
        assert_eq!(
            odds(RULESET, "cvs_test", &[format!("trait={t}")], "pass"),
            want,
            "trait {t}"
        );
    }
}

/// 004 2.2.2: ten decision-failure results, one each on a d10.
#[test]
fn decision_failure_has_ten_results() {
    let report = chart_json(RULESET, "decision_failure", &[]);
    let odds = report["rows"][0]["odds"].as_array().expect("odds");
    let named: Vec<&Value> = odds.iter().filter(|o| o["fraction"] == "1/10").collect();
    assert_eq!(named.len(), 10, "{report}");
    assert!(
        odds.iter()
            .any(|o| o["outcome"] == "a hit to every unit" && o["fraction"] == "1/10")
    );
}

/// 004 2.2.3: the CVS table: d6 for the grade (1-2 untrained, 3-4 trained, 5-6 veteran),
/// then d6 for the row.
#[test]
fn cvs_table_by_grade_and_row() {
    for grade in ["untrained", "trained", "veteran"] {
        assert_eq!(odds(RULESET, "cvs_grade", &[], grade), "1/3");
    }
    assert_eq!(
        odds(RULESET, "cvs_values", &["grade=2".into()], "C1 M2 T4 A4 I4"),
        "1/6"
    );
    assert_eq!(
        odds(RULESET, "cvs_values", &["grade=0".into()], "C1 M1 T7 A7 I7"),
        "1/6"
    );
    assert_eq!(
        odds(RULESET, "cvs_values", &["grade=1".into()], "C0 M1 T6 A6 I6"),
        "1/6"
    );
}

/// 004 Rules by sequence 2, 3.1 grapeshot, 4d reinforcements: the cube for integrity (red
/// withdraws), grapeshot (smoothbore automatic, rifled red), and a d6 for the entry place.
#[test]
fn integrity_grapeshot_and_entry_charts() {
    assert_eq!(odds(RULESET, "integrity", &[], "withdraw"), "1/2");
    assert_eq!(odds(RULESET, "grapeshot", &["rifled=0".into()], "hit"), "1");
    assert_eq!(
        odds(RULESET, "grapeshot", &["rifled=1".into()], "hit"),
        "1/2"
    );
    for place in ["first place", "second place", "third place"] {
        assert_eq!(odds(RULESET, "entry_point", &[], place), "1/3");
    }
}

// ---------------------------------------------------------------------------------------
// Fields in play

/// A 10×8 field; `map` rows override the all-clear board, `features` and `pieces` are YAML
/// list entries, `extra` further scenario keys.
fn field(map: Option<&str>, features: &str, pieces: &str, extra: &str) -> Field {
    crate::hex_field::field(map, features, pieces, extra, 3)
}

/// Orders up to Blue's movement phase (arrivals, command).
fn to_blue_movement() -> Vec<String> {
    ends("blue", 2)
}

/// Orders up to Blue's fire phase (arrivals, command, movement; Red's defensive fire).
fn to_blue_fire() -> Vec<String> {
    let mut o = ends("blue", 3);
    o.extend(ends("red", 1));
    o
}

/// Orders up to Blue's melee phase.
fn to_blue_melee() -> Vec<String> {
    let mut o = to_blue_fire();
    o.extend(ends("blue", 1));
    o
}

/// Every end_phase of a whole turn with Blue first: arrivals, Blue's command, movement,
/// Red's defensive fire, Blue's fire, melee, rally, Red's command, movement, Blue's
/// defensive fire, Red's fire, melee, rally, turn end.
fn whole_turn() -> Vec<String> {
    let mut o = ends("blue", 3);
    o.extend(ends("red", 1));
    o.extend(ends("blue", 3));
    o.extend(ends("red", 2));
    o.extend(ends("blue", 1));
    o.extend(ends("red", 3));
    o.extend(ends("blue", 1));
    o
}

fn run(f: &Field, orders: &[String]) -> Run {
    f.play(orders, &[])
}

fn ok(f: &Field, orders: &[String]) -> String {
    f.ok(orders, &[])
}

fn refused(f: &Field, orders: &[String], why: &str) {
    f.refused(orders, &[], why);
}

/// The last value a counter line (`r te 0 → 1`) shows, 0 when it never changed.
fn final_value(out: &str, what: &str) -> i32 {
    out.lines()
        .rev()
        .filter_map(|l| l.trim().strip_prefix(what))
        .find_map(|rest| rest.rsplit(' ').next()?.parse().ok())
        .unwrap_or(0)
}

// Hex neighbours (odd rows shoved east): from (4,4) E is (5,4), W (3,4), NE (4,3),
// NW (3,3), SE (4,5), SW (3,5); from (4,5) NE is (5,4), NW (4,4), SE (5,6), SW (4,6).

// --- Movement ---------------------------------------------------------------------------

/// 004 charts page, Movement: infantry 3, cavalry/commanders/couriers 5, limbered artillery
/// 2, wagons 3 hexes.
#[test]
fn movement_allowances_by_arm() {
    let pieces = "  - { id: i, side: blue, type: infantry, at: [0, 1], facing: E }\n  - { id: c, side: blue, type: cavalry, at: [0, 2], facing: E }\n  - { id: a, side: blue, type: artillery, at: [0, 3], facing: E, mode: limbered }\n  - { id: w, side: blue, type: wagon, at: [0, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [0, 5] }\n  - { id: k, side: blue, type: courier, at: [0, 6] }\n  - { id: r, side: red, type: infantry, at: [9, 7], facing: W }\n";
    let f = field(None, "", pieces, "");
    let east = |id: &str, row: i32, n: i32| -> String {
        let path: Vec<String> = (1..=n).map(|c| format!("[{c}, {row}]")).collect();
        order(
            "blue",
            &format!("move: {{ piece: {id}, path: [{}] }}", path.join(", ")),
        )
    };
    for (id, row, allowance) in [
        ("i", 1, 3),
        ("c", 2, 5),
        ("a", 3, 2),
        ("w", 4, 3),
        ("g", 5, 5),
        ("k", 6, 5),
    ] {
        ok(&f, &with(to_blue_movement(), &[east(id, row, allowance)]));
        refused(
            &f,
            &with(to_blue_movement(), &[east(id, row, allowance + 1)]),
            "the path costs",
        );
    }
}

/// 004 5d/5e: units face the way they move and cannot move backwards (about-face first).
#[test]
fn no_backward_moves_and_facing_follows_the_move() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [9, 7], facing: W }\n";
    let f = field(None, "", pieces, "");
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[3, 4]] }")],
        ),
        "b steps only into the cells ahead of it (facing E); (3,4) is behind it: change facing first",
    );
    // Front hexes only, and each step turns the unit: E then NE then NE is fine.
    let out = ok(
        &f,
        &with(
            to_blue_movement(),
            &[order(
                "blue",
                "move: { piece: b, path: [[5, 4], [5, 3], [6, 2]] }",
            )],
        ),
    );
    has(&out, "b moved (4,4) → (5,4) → (5,3) → (6,2), cost 3");
    // About face first, then move west.
    ok(
        &f,
        &with(
            to_blue_movement(),
            &[
                order("blue", "face: { piece: b, facing: W }"),
                order("blue", "move: { piece: b, path: [[3, 4]] }"),
            ],
        ),
    );
}

/// 004 5.1 and the hand-out: one facing change a turn (cavalry two), before or after the
/// move, costing one movement point; none while in melee.
#[test]
fn facing_changes_once_a_turn_for_a_point() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [1, 4], facing: E }\n  - { id: c, side: blue, type: cavalry, at: [1, 6], facing: E }\n  - { id: m, side: blue, type: infantry, at: [1, 2], facing: E, flags: [in_melee] }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let face =
        |id: &str, dir: &str| order("blue", &format!("face: {{ piece: {id}, facing: {dir} }}"));
    let mv =
        |id: &str, path: &str| order("blue", &format!("move: {{ piece: {id}, path: {path} }}"));
    refused(
        &f,
        &with(to_blue_movement(), &[face("b", "SE"), face("b", "E")]),
        "b has already changed facing 1 time this turn",
    );
    ok(
        &f,
        &with(to_blue_movement(), &[face("c", "SE"), face("c", "E")]),
    );
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[face("c", "SE"), face("c", "E"), face("c", "NE")],
        ),
        "c has already changed facing 2 times this turn",
    );
    // Before the move: the change costs a point of the 3.
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[face("b", "SE"), mv("b", "[[1, 5], [2, 6], [2, 7]]")],
        ),
        "the path costs 3 by (2,7), but b has 2 in formed mode",
    );
    ok(
        &f,
        &with(
            to_blue_movement(),
            &[face("b", "SE"), mv("b", "[[1, 5], [2, 6]]")],
        ),
    );
    // After the move: only with a point left.
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[mv("b", "[[2, 4], [3, 4], [4, 4]]"), face("b", "NE")],
        ),
        "b has no movement point left to change facing",
    );
    ok(
        &f,
        &with(
            to_blue_movement(),
            &[mv("b", "[[2, 4], [3, 4]]"), face("b", "NE")],
        ),
    );
    refused(
        &f,
        &with(to_blue_movement(), &[face("m", "NE")]),
        "m is in melee and cannot change facing",
    );
    // The count starts again next turn.
    let mut o = with(to_blue_movement(), &[face("b", "SE")]);
    o.extend(whole_turn().split_off(2));
    o.extend(ends("blue", 2));
    o.push(face("b", "E"));
    ok(&f, &o);
}

impl Field {
    /// `grognard reach --json` for `unit` after `orders`: each cell with its cost and path.
    fn reach(&self, orders: &[String], unit: &str) -> Result<Vec<(String, i64, String)>, String> {
        let text: String = std::iter::once("orders:\n".to_owned())
            .chain(orders.iter().map(|o| format!("  - {o}\n")))
            .collect();
        std::fs::write(self.dir.path().join("reach-orders.yaml"), text).expect("write orders");
        let r = grognard_in(
            self.dir.path(),
            &[
                "reach",
                "field.yaml",
                "--unit",
                unit,
                "--orders",
                "reach-orders.yaml",
                "--json",
            ],
        );
        if r.code != 0 {
            return Err(r.stderr);
        }
        let v: Value = serde_json::from_str(&r.stdout).expect("reach json");
        let cell = |c: &Value| format!("[{}, {}]", c[0], c[1]);
        Ok(v["reach"]
            .as_array()
            .expect("reach list")
            .iter()
            .map(|e| {
                let path: Vec<String> = e["path"]
                    .as_array()
                    .expect("path")
                    .iter()
                    .map(cell)
                    .collect();
                (
                    cell(&e["cell"]),
                    e["cost_hundredths"].as_i64().expect("cost") / 100,
                    format!("[{}]", path.join(", ")),
                )
            })
            .collect())
    }
}

/// Every cell `reach` lists for `unit` after `before` is a move the game accepts, along
/// the listed path; and each neighbour of `from` it leaves out is refused.
fn reach_agrees_with_play(f: &Field, before: &[String], unit: &str, from: (i32, i32)) -> usize {
    let cells = f.reach(before, unit).expect("reach");
    for (cell, _, path) in &cells {
        let o = with(
            before.to_vec(),
            &[order(
                "blue",
                &format!("move: {{ piece: {unit}, path: {path} }}"),
            )],
        );
        let r = run(f, &o);
        assert_eq!(
            r.code, 0,
            "reach lists {cell} by {path}, play refuses: {}",
            r.stderr
        );
    }
    let (c, row) = from;
    let shove = row.rem_euclid(2);
    let neighbours = [
        (c + 1, row),
        (c - 1, row),
        (c - 1 + shove, row - 1),
        (c + shove, row - 1),
        (c - 1 + shove, row + 1),
        (c + shove, row + 1),
    ];
    for (nc, nr) in neighbours {
        let cell = format!("[{nc}, {nr}]");
        if cells.iter().any(|(x, _, _)| *x == cell) {
            continue;
        }
        let o = with(
            before.to_vec(),
            &[order(
                "blue",
                &format!("move: {{ piece: {unit}, path: [{cell}] }}"),
            )],
        );
        assert_eq!(
            run(f, &o).code,
            1,
            "reach leaves out {cell}, play accepts it"
        );
    }
    cells.len()
}

/// 004 5d/5e and 5.1: `reach` knows what a move may do. It lists only cells reached through
/// the front hexes (each step turning the unit), never the hex behind; a facing change
/// before the move leaves one point less; cavalry turn twice, skirmishers step anywhere; a
/// fatigued unit reaches one hex (optional disorder rule: none), a halted one nothing. Every
/// listed path plays, every neighbour left out is refused.
#[test]
fn reach_agrees_with_play_on_facing_and_turning() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: E }\n  - { id: c, side: blue, type: cavalry, at: [4, 1], facing: E }\n  - { id: s, side: blue, type: skirmishers, at: [1, 6], facing: E }\n  - { id: t, side: blue, type: infantry, at: [7, 6], facing: W, counters: { te: 3 }, flags: [fatigued] }\n  - { id: h, side: blue, type: infantry, at: [1, 1], facing: E, flags: [halted] }\n  - { id: r, side: red, type: infantry, at: [9, 7], facing: W }\n";
    let f = field(None, "", pieces, "");
    let start = to_blue_movement();
    let cells = f.reach(&start, "b").expect("reach");
    let find = |cells: &[(String, i64, String)], c: &str| cells.iter().find(|x| x.0 == c).cloned();
    // Behind (W) and the two rear hexes are never one step away; the front three are.
    assert!(find(&cells, "[3, 4]").is_none_or(|x| x.1 > 1), "{cells:?}");
    assert_eq!(find(&cells, "[5, 4]").map(|x| x.1), Some(1));
    assert_eq!(find(&cells, "[4, 3]").map(|x| x.1), Some(1));
    assert_eq!(find(&cells, "[4, 5]").map(|x| x.1), Some(1));
    assert!(find(&cells, "[3, 3]").is_none_or(|x| x.1 > 1));
    assert!(cells.iter().all(|x| x.1 <= 3));
    assert!(cells.iter().any(|x| x.1 == 3));
    let n = reach_agrees_with_play(&f, &start, "b", (4, 4));
    assert!(n >= 10, "{n}");
    // About face (one point): the hexes behind open up, at most two hexes away.
    let turned = with(
        start.clone(),
        &[order("blue", "face: { piece: b, facing: W }")],
    );
    let cells = f.reach(&turned, "b").expect("reach");
    assert_eq!(find(&cells, "[3, 4]").map(|x| x.1), Some(1));
    assert!(find(&cells, "[5, 4]").is_none());
    assert!(cells.iter().all(|x| x.1 <= 2), "{cells:?}");
    reach_agrees_with_play(&f, &turned, "b", (4, 4));
    // Cavalry: 5 points, two facing changes; after both, 3 points left.
    let c = f.reach(&start, "c").expect("reach");
    assert!(c.iter().any(|x| x.1 == 5));
    let twice = with(
        start.clone(),
        &[
            order("blue", "face: { piece: c, facing: SE }"),
            order("blue", "face: { piece: c, facing: E }"),
        ],
    );
    let c2 = f.reach(&twice, "c").expect("reach");
    assert!(
        c2.iter().all(|x| x.1 <= 3) && c2.iter().any(|x| x.1 == 3),
        "{c2:?}"
    );
    reach_agrees_with_play(&f, &twice, "c", (4, 1));
    // Skirmishers may step back (5e).
    let s = f.reach(&start, "s").expect("reach");
    assert_eq!(find(&s, "[0, 6]").map(|x| x.1), Some(1));
    reach_agrees_with_play(&f, &start, "s", (1, 6));
    // Fatigued: one hex, and only ahead.
    let t = f.reach(&start, "t").expect("reach");
    assert_eq!(t.len(), 3, "{t:?}");
    reach_agrees_with_play(&f, &start, "t", (7, 6));
    // Halted: no move at all.
    let err = f.reach(&start, "h").expect_err("halted");
    assert!(err.contains("h cannot move: it is halted"), "{err}");
}

/// Broken `turning` and `slowed_by` data are reported at their lines with suggestions.
#[test]
fn bad_turning_data_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("bad.yaml"),
        format!(
            "ruleset: bad\nextends: {}\npiece_types:\n  infantry:\n    turning: {{ forward_only: true, cost: 1, most: 1, counter: face_change }}\n  courier:\n    turning: {{ cost: -1 }}\nslowed_by:\n  - {{ flag: fatigue, max_steps: 1 }}\n  - {{ max_steps: 1 }}\n",
            root().join(RULESET).display()
        ),
    )
    .expect("write");
    let r = grognard_in(dir.path(), &["validate", "bad.yaml"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    for want in [
        "bad.yaml:5:63: unknown counter `face_change`",
        "did you mean `face_changes`?",
        "bad.yaml:7:22: piece type `courier`: `turning.cost` cannot be negative",
        "bad.yaml:9:13: unknown flag `fatigue`",
        "bad.yaml:10:5: a `slowed_by` entry needs `flag:`",
    ] {
        assert!(r.stderr.contains(want), "expected `{want}` in {}", r.stderr);
    }
}

/// 004 5.2: the zone of control is the three front hexes; entering one ends the move; a
/// unit with a hit (or fatigued, or in melee) has none.
#[test]
fn zone_of_control_stops_and_is_lost_with_a_hit() {
    let moving = "  - { id: b, side: blue, type: cavalry, at: [1, 4], facing: E }\n";
    let go = order(
        "blue",
        "move: { piece: b, path: [[2, 4], [3, 4], [4, 4], [5, 4]] }",
    );
    let f = field(
        None,
        "",
        &format!("{moving}  - {{ id: r, side: red, type: infantry, at: [4, 3], facing: SW }}\n"),
        "",
    );
    refused(
        &f,
        &with(to_blue_movement(), std::slice::from_ref(&go)),
        "entered the zone of control of r",
    );
    for lost in [
        "counters: { hits: 1 }",
        "flags: [fatigued]",
        "flags: [in_melee]",
    ] {
        let f = field(
            None,
            "",
            &format!(
                "{moving}  - {{ id: r, side: red, type: infantry, at: [4, 3], facing: SW, {lost} }}\n"
            ),
            "",
        );
        ok(&f, &with(to_blue_movement(), std::slice::from_ref(&go)));
    }
}

/// 004 5.3: one unit per hex; light infantry may pass through others (5f), a TE hit to
/// both.
#[test]
fn one_unit_per_hex_and_light_infantry_pass_through() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: l, side: blue, type: light_infantry, at: [1, 4], facing: E }\n  - { id: g, side: blue, type: artillery, at: [5, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [9, 7], facing: W }\n";
    let f = field(None, "", pieces, "");
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order(
                "blue",
                "move: { piece: b, path: [[3, 4], [4, 4], [5, 4]] }",
            )],
        ),
        "b cannot enter (5,4)",
    );
    let out = ok(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: l, path: [[2, 4], [3, 4]] }")],
        ),
    );
    has(&out, "b te 0 → 1");
    has(&out, "l te 0 → 1");
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: l, path: [[2, 4]] }")],
        ),
        "may pass through (2,4) but not stop there",
    );
}

/// 004 5.4: crossing an obstacle costs no movement but a TE hit, unless the unit started
/// its move at it; 5.5 a road negates it.
#[test]
fn obstacles_disorder_unless_started_at_or_on_a_road() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 6], facing: NE }\n  - { id: s, side: blue, type: infantry, at: [6, 5], facing: NE }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let wall = "    - { feature: wall, between: [[[3, 5], [3, 4]], [[6, 5], [6, 4]]] }\n";
    let f = field(None, wall, pieces, "");
    // (3,6) → (3,5) → over the wall to (3,4): disordered.
    let out = ok(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[3, 5], [3, 4]] }")],
        ),
    );
    has(&out, "b te 0 → 1");
    // s starts at the wall: no TE.
    let out = ok(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: s, path: [[6, 4]] }")],
        ),
    );
    lacks(&out, "s te");
    let road = "    - { feature: wall, between: [[[3, 5], [3, 4]]] }\n    - { feature: road, path: [[3, 6], [3, 5], [3, 4]] }\n";
    let f = field(None, road, pieces, "");
    let out = ok(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[3, 5], [3, 4]] }")],
        ),
    );
    lacks(&out, "b te");
}

/// 004 5.6: moving into buildings disorders but does not stop the move.
#[test]
fn buildings_disorder_without_stopping() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . B . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(Some(map), "", pieces, "");
    let out = ok(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[3, 4], [4, 4]] }")],
        ),
    );
    has(&out, "b moved (2,4) → (3,4) → (4,4), cost 2");
    has(&out, "b te 0 → 1");
}

/// 004 5.5b: cavalry cannot enter forest except by road.
#[test]
fn cavalry_enter_forest_only_by_road() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . F F . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let pieces = "  - { id: c, side: blue, type: cavalry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(Some(map), "", pieces, "");
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: c, path: [[3, 4]] }")],
        ),
        "forbids c to enter (3,4)",
    );
    let road = "    - { feature: road, path: [[2, 4], [3, 4], [4, 4], [5, 4]] }\n";
    let f = field(Some(map), road, pieces, "");
    ok(
        &f,
        &with(
            to_blue_movement(),
            &[order(
                "blue",
                "move: { piece: c, path: [[3, 4], [4, 4], [5, 4]] }",
            )],
        ),
    );
}

/// 004 3 Push Move and "Other notes": unlimbered guns may be pushed one hex on clear flat
/// ground for a TE hit, never uphill; limbering and unlimbering cost a TE hit each.
#[test]
fn artillery_push_and_limbering_cost_te() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . h . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let pieces = "  - { id: g, side: blue, type: artillery, at: [4, 4], facing: E, mode: unlimbered }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(Some(map), "", pieces, "");
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: g, path: [[5, 4]] }")],
        ),
        "forbids g to enter (5,4)",
    );
    let out = ok(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: g, path: [[4, 3]] }")],
        ),
    );
    has(&out, "g te 0 → 1");
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: g, path: [[4, 3], [5, 2]] }")],
        ),
        "the path costs",
    );
    let out = ok(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "act: { piece: g, action: limber }")],
        ),
    );
    has(&out, "g changed mode unlimbered → limbered");
    has(&out, "g te 0 → 1");
}

/// 004 charts page, fatigue: the third TE hit fatigues a unit; a fatigued unit moves at
/// most one hex a turn; a turn without moving removes one TE hit.
#[test]
fn fatigue_and_te_recovery() {
    let pieces = "  - { id: b, side: blue, type: light_infantry, at: [1, 4], facing: E, counters: { te: 2 } }\n  - { id: f, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: t, side: blue, type: infantry, at: [1, 6], facing: E, counters: { te: 1 } }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let out = ok(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[2, 4], [3, 4]] }")],
        ),
    );
    has(&out, "b te 2 → 3");
    has(&out, "b is fatigued");
    let tired = "  - { id: b, side: blue, type: infantry, at: [1, 4], facing: E, counters: { te: 3 }, flags: [fatigued] }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f2 = field(None, "", tired, "");
    refused(
        &f2,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[2, 4], [3, 4]] }")],
        ),
        "b is fatigued and may move at most 1 cell; the path has 2",
    );
    ok(
        &f2,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[2, 4]] }")],
        ),
    );
    // A whole turn without moving: t recovers one TE at the turn's end.
    let out = ok(&f, &whole_turn());
    has(&out, "t te 1 → 0");
}

// --- Roads, hills, skirmishers, heavy guns, pursuit, the supreme commander -------------

/// 004 5.5.1: a unit whose move ends along a road is in column and counts as flanked when
/// fired on (one CB to the firer), unless it deploys astride the road, disordered (a TE
/// hit); a move off the road ends the column.
#[test]
fn road_column_counts_flanked_until_deployed() {
    let road = "    - feature: road\n      path: [[1, 4], [2, 4], [3, 4], [4, 4], [5, 4]]\n";
    let pieces = "  - { id: b, side: blue, type: infantry, at: [1, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [6, 4], facing: W }\n";
    let red_fire = order("red", "act: { piece: r, action: fire, target: b }");
    let along = order("blue", "move: { piece: b, path: [[2, 4], [3, 4]] }");
    let f = field(None, road, pieces, "");
    let mut o = with(to_blue_movement(), std::slice::from_ref(&along));
    o.extend(ends("blue", 1));
    o.push(red_fire.clone());
    let out = ok(&f, &o);
    has(&out, "b is on_road");
    has(&out, "-1 target's flank or rear");
    // Deployed: a TE hit, no flank bonus.
    let mut o = with(
        to_blue_movement(),
        &[along, order("blue", "act: { piece: b, action: deploy }")],
    );
    o.extend(ends("blue", 1));
    o.push(red_fire.clone());
    let out = ok(&f, &o);
    has(&out, "b te 0 → 1");
    lacks(&out, "flank or rear");
    // The same move with no road: no column.
    let plain = field(None, "", pieces, "");
    let mut o = with(
        to_blue_movement(),
        &[order("blue", "move: { piece: b, path: [[2, 4], [3, 4]] }")],
    );
    o.extend(ends("blue", 1));
    o.push(red_fire);
    let out = ok(&plain, &o);
    lacks(&out, "on_road");
    lacks(&out, "flank or rear");
    refused(
        &plain,
        &with(
            to_blue_movement(),
            &[order("blue", "act: { piece: b, action: deploy }")],
        ),
        "b is not in column on a road",
    );
}

/// 004 5c: a unit that reaches the foot of a hill with no movement left cannot melee the
/// enemy on the hill above; with a point left it can.
#[test]
fn no_melee_up_a_hill_without_movement_left() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . h . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let pieces = "  - { id: b, side: blue, type: infantry, at: [1, 4], facing: E }\n  - { id: c, side: blue, type: infantry, at: [3, 6], facing: NE }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: W }\n";
    let f = field(Some(map), "", pieces, "");
    let to_melee = |mv: &str, by: &str| {
        let mut o = with(to_blue_movement(), &[order("blue", mv)]);
        o.extend(ends("blue", 1));
        o.extend(ends("red", 1));
        o.extend(ends("blue", 1));
        o.push(melee(by, "r"));
        o
    };
    refused(
        &f,
        &to_melee("move: { piece: b, path: [[2, 4], [3, 4], [4, 4]] }", "b"),
        "b has no movement left at the foot of the hill and cannot melee r above it",
    );
    // c reaches (4,5) in two hexes, with one point left.
    let out = ok(
        &f,
        &to_melee("move: { piece: c, path: [[3, 5], [4, 5]] }", "c"),
    );
    has(&out, "melee of c");
}

/// 004 charts page (melee): skirmishers may fire at a unit in melee only at point blank and
/// in the first melee round, and their hits are TE hits; other units never fire into a
/// melee.
#[test]
fn skirmishers_fire_into_melee() {
    let pieces = "  - { id: s, side: blue, type: skirmishers, at: [3, 4], facing: E }\n  - { id: b, side: blue, type: infantry, at: [3, 6], facing: NE }\n  - { id: k, side: blue, type: skirmishers, at: [2, 3], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, counters: { melee_rounds: 1 }, flags: [in_melee] }\n";
    let f = field(None, "", pieces, "");
    let out = ok(&f, &with(to_blue_fire(), &[fire("s", "r")]));
    has(&out, "r te 0 → 1");
    lacks(&out, "r hits");
    refused(
        &f,
        &with(to_blue_fire(), &[fire("b", "r")]),
        "no firing into a melee (r is in melee)",
    );
    refused(
        &f,
        &with(to_blue_fire(), &[fire("k", "r")]),
        "k may fire into a melee only at point blank and before its second round",
    );
    let later = pieces.replace("melee_rounds: 1", "melee_rounds: 2");
    refused(
        &field(None, "", &later, ""),
        &with(to_blue_fire(), &[fire("s", "r")]),
        "s may fire into a melee only at point blank",
    );
}

/// 004 hand-out and 3 (artillery): heavy artillery does double damage and cannot move and
/// fire in the same turn (a heavy gun that fired stays put).
#[test]
fn heavy_artillery_hits_twice_and_moves_or_fires() {
    let pieces = "  - { id: h, side: blue, type: artillery, at: [2, 4], facing: E, mode: unlimbered, attributes: { heavy: 1 } }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n  - { id: q, side: red, type: artillery, at: [6, 6], facing: W, mode: unlimbered, attributes: { heavy: 1 } }\n  - { id: t, side: blue, type: infantry, at: [4, 6], facing: E }\n";
    let f = field(None, "", pieces, "");
    let out = ok(&f, &with(to_blue_fire(), &[fire("h", "r")]));
    has(&out, "r hits 0 → 2");
    let mut o = with(
        to_blue_movement(),
        &[order("blue", "move: { piece: h, path: [[3, 4]] }")],
    );
    o.extend(ends("blue", 1));
    o.extend(ends("red", 1));
    o.push(fire("h", "r"));
    refused(
        &f,
        &o,
        "h is heavy artillery and has moved this turn: it cannot fire",
    );
    // Red's heavy gun fires in Blue's turn, then cannot move in its own.
    let mut o = ends("blue", 3);
    o.push(order("red", "act: { piece: q, action: fire, target: t }"));
    o.extend(ends("red", 1));
    o.extend(ends("blue", 3));
    o.extend(ends("red", 1));
    o.push(order("red", "move: { piece: q, path: [[5, 6]] }"));
    refused(&f, &o, "q cannot move: it is emplaced");
}

/// 004 charts page (pursuit): cavalry are not pursued after melee by infantry; an infantry
/// winner does advance into the hex of routed infantry.
#[test]
fn infantry_do_not_pursue_cavalry() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b, counters: { cvs_c: 2 } }\n  - { id: c, side: red, type: cavalry, at: [4, 4], facing: W, counters: { hits: 2 } }\n";
    let f = field(None, "", pieces, "");
    over_seeds(
        &f,
        &with(to_blue_melee(), &[melee("b", "c")]),
        &["defender hit"],
        |outcome, out| {
            if outcome == "defender hit" {
                has(out, "c is routed");
                lacks(out, "advanced after melee");
            }
        },
    );
    let foot = pieces.replace("type: cavalry", "type: infantry");
    over_seeds(
        &field(None, "", &foot, ""),
        &with(to_blue_melee(), &[melee("b", "c")]),
        &["defender hit"],
        |outcome, out| {
            if outcome == "defender hit" {
                has(out, "b placed (3,4) → (4,4) (advanced after melee)");
            }
        },
    );
}

/// 004 break point: when the supreme commander is killed, every unit of his force rolls the
/// cube at once and on red withdraws two turns' distance to its rear.
#[test]
fn supreme_commander_death_makes_every_unit_roll() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n  - { id: v, side: red, type: commander, at: [4, 4], attached_to: r, attributes: { supreme: 1 } }\n  - { id: q, side: red, type: infantry, at: [1, 6], facing: W }\n";
    let f = field(None, "", pieces, "");
    let orders = with(to_blue_fire(), &[fire("b", "r")]);
    let refs: Vec<&str> = orders.iter().map(String::as_str).collect();
    let (mut went, mut stayed) = (false, false);
    for seed in 0..300 {
        let seed = seed.to_string();
        let r = f.play(&refs, &["--seed", &seed]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        if !r.stdout.contains("v removed (commander killed") {
            lacks(&r.stdout, "supreme commander");
            continue;
        }
        has(
            &r.stdout,
            "note: red's supreme commander is dead: every unit rolls for integrity",
        );
        has(&r.stdout, "(integrity of q (supreme commander killed))");
        let line = r
            .stdout
            .lines()
            .find(|l| l.contains("(integrity of q (supreme commander killed))"))
            .expect("q's roll");
        if line.contains("withdraw") {
            has(
                &r.stdout,
                "q placed (1,6) → (7,6) (withdrew two turns' distance (supreme commander killed))",
            );
            went = true;
        } else {
            lacks(&r.stdout, "q placed");
            stayed = true;
        }
        if went && stayed {
            return;
        }
    }
    panic!("300 seeds: withdrew {went}, held {stayed}");
}

// --- Reinforcements ----------------------------------------------------------------------

/// A field whose board has the three entry places of 004 4d as regions `entry_1` (two
/// hexes on the west edge), `entry_2` (one on the east edge) and `entry_3` (one north).
fn field_with_entries(pieces: &str) -> Field {
    let f = field(None, "", pieces, "");
    let path = f.dir.path().join("field.yaml");
    let text = std::fs::read_to_string(&path).expect("read scenario");
    let text = text.replacen(
        "  rows: 8\n",
        "  rows: 8\n  regions: { entry_1: [[0, 3], [0, 4]], entry_2: [[9, 3]], entry_3: [[5, 0]] }\n",
        1,
    );
    std::fs::write(&path, text).expect("write scenario");
    f
}

/// Orders through Red's movement phase of turn 2 (Blue first each turn).
fn to_red_movement_turn_2() -> Vec<String> {
    let mut o = whole_turn();
    o.extend(ends("blue", 3));
    o.extend(ends("red", 1));
    o.extend(ends("blue", 3));
    o.extend(ends("red", 1));
    o
}

/// 004 4a-4b: reinforcements set up off the board come on in the arrivals phase of their
/// turn at their entry place, one unit a hex; before then they are not on the board. When
/// the enemy holds the place they wait, the enemy is told how many are coming, and the
/// blocking unit may make two full moves away (and then not move again that turn); the
/// reinforcements come on the next turn.
#[test]
fn reinforcements_arrive_at_their_place_and_blockers_may_withdraw() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 6], facing: E }\n  - { id: ra, side: blue, type: infantry, off_board: true, facing: E, counters: { arrives: 2, entry: 1 } }\n  - { id: rb, side: blue, type: cavalry, off_board: true, facing: E, counters: { arrives: 2, entry: 1 } }\n  - { id: rc, side: blue, type: infantry, off_board: true, facing: W, counters: { arrives: 2, entry: 2 } }\n  - { id: x, side: red, type: infantry, at: [9, 3], facing: W }\n  - { id: r, side: red, type: infantry, at: [7, 7], facing: W }\n";
    let f = field_with_entries(pieces);
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: ra, path: [[1, 3]] }")],
        ),
        "ra is not on the board",
    );
    let mut turn_1 = whole_turn();
    turn_1.pop();
    lacks(&ok(&f, &turn_1), "arrived");
    let out = ok(&f, &whole_turn());
    has(
        &out,
        "ra arrived at (0,3) (reinforcement arriving at entry place 1)",
    );
    has(
        &out,
        "rb arrived at (0,4) (reinforcement arriving at entry place 1)",
    );
    has(
        &out,
        "announced: blue: 1 unit is arriving at entry place 2, which the enemy holds; they wait a turn",
    );
    lacks(&out, "rc arrived");
    has(&out, "x is blocking");
    // The arrivals move in Blue's movement phase like any unit.
    let mut o = with(whole_turn(), &ends("blue", 2));
    o.push(order("blue", "move: { piece: ra, path: [[1, 3], [2, 3]] }"));
    ok(&f, &o);
    // x withdraws two moves (6 hexes) straight away from the place, stopping before r.
    let withdraw = order("red", "act: { piece: x, action: withdraw }");
    let out = ok(
        &f,
        &with(to_red_movement_turn_2(), std::slice::from_ref(&withdraw)),
    );
    has(
        &out,
        "x placed (9,3) → (8,6) (withdrew two moves from the arriving force)",
    );
    refused(
        &f,
        &with(
            to_red_movement_turn_2(),
            &[
                withdraw.clone(),
                order("red", "move: { piece: x, path: [[7, 6]] }"),
            ],
        ),
        "x cannot move: it is withdrawn",
    );
    refused(
        &f,
        &with(
            to_red_movement_turn_2(),
            &[order("red", "act: { piece: r, action: withdraw }")],
        ),
        "r is not blocking an arrival",
    );
    let mut o = with(to_red_movement_turn_2(), &[withdraw]);
    o.extend(ends("red", 1));
    o.extend(ends("blue", 1));
    o.extend(ends("red", 3));
    o.extend(ends("blue", 2));
    let out = ok(&f, &o);
    has(
        &out,
        "rc arrived at (9,3) (reinforcement arriving at entry place 2)",
    );
}

/// Bad reinforcement set-ups are refused with the file and line: a piece both off the
/// board and placed; a reinforcement whose entry place the board does not have (the
/// arrivals hook fails and names the missing region).
#[test]
fn bad_reinforcement_setups_are_named() {
    let placed = "  - { id: b, side: blue, type: infantry, at: [2, 6], facing: E }\n  - { id: ra, side: blue, type: infantry, off_board: true, at: [3, 3], counters: { arrives: 2, entry: 1 } }\n  - { id: r, side: red, type: infantry, at: [7, 7], facing: W }\n";
    let f = field_with_entries(placed);
    let r = grognard_in(f.dir.path(), &["validate", "field.yaml"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("piece `ra` starts off the board: give it no `at` or `spread`"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("field.yaml:"), "{}", r.stderr);
    let pieces = placed.replace(" at: [3, 3],", "");
    let f = field(None, "", &pieces, "");
    refused(
        &f,
        &whole_turn(),
        "unknown region `entry_1`: the scenario's board has none",
    );
}

/// 004 4d: with three places given, the side rolls a d6 for where its reinforcements come
/// on (1-2 the first, 3-4 the second, 5-6 the third); over seeds every place is used and
/// each arrival matches its roll.
#[test]
fn random_entry_place_by_the_d6() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 6], facing: E }\n  - { id: ra, side: blue, type: infantry, off_board: true, facing: E, counters: { arrives: 1 } }\n  - { id: r, side: red, type: infantry, at: [7, 7], facing: W }\n";
    let f = field_with_entries(pieces);
    let orders = ends("blue", 1);
    let refs: Vec<&str> = orders.iter().map(String::as_str).collect();
    let mut seen = std::collections::BTreeSet::new();
    for seed in 1..=24 {
        let seed = seed.to_string();
        let r = f.play(&refs, &["--seed", &seed]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let roll = r
            .stdout
            .lines()
            .find(|l| l.contains("(entry place of blue's reinforcements)"))
            .unwrap_or_else(|| panic!("no entry roll in {}", r.stdout));
        let face: u32 = roll
            .split("d6 ")
            .nth(1)
            .and_then(|x| x.split(';').next())
            .and_then(|x| x.trim().parse().ok())
            .unwrap_or_else(|| panic!("no d6 face in {roll}"));
        let (place, cell) = match face {
            1 | 2 => ("first place", "(0,3)"),
            3 | 4 => ("second place", "(9,3)"),
            _ => ("third place", "(5,0)"),
        };
        assert!(roll.contains(place), "{roll}");
        has(&r.stdout, &format!("ra arrived at {cell}"));
        seen.insert(place);
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
}

/// 004 charts page, removing TE hits: a turn without moving removes one TE hit, but a unit
/// forced to move (here routed back by fire) or meleed loses the attempt for that turn.
#[test]
fn forced_moves_and_melee_lose_the_te_recovery() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [8, 4], facing: W }\n  - { id: r, side: red, type: infantry, at: [7, 4], facing: E, counters: { hits: 2, te: 1 } }\n  - { id: q, side: red, type: infantry, at: [8, 0], facing: W, counters: { te: 1 } }\n";
    let f = field(None, "", pieces, "");
    let mut o = with(to_blue_fire(), &[fire("b", "r")]);
    let rest: Vec<String> = whole_turn().split_off(o.len() - 1);
    o.extend(rest);
    let out = ok(&f, &o);
    has(&out, "r placed (7,4) → (4,4) (routed)");
    has(&out, "r placed (4,4) → (1,4) (routed)");
    has(&out, "q te 1 → 0");
    lacks(&out, "r te 1 → 0");
    // Meleed, though the melee is over by the turn's end (the attacker routed): the
    // defender, which did not move, still does not recover.
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E, counters: { hits: 2 } }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, counters: { te: 1 } }\n";
    let f = field(None, "", pieces, "");
    let mut o = with(to_blue_melee(), &[melee("b", "r")]);
    let rest: Vec<String> = whole_turn().split_off(o.len() - 1);
    o.extend(rest);
    over_seeds(&f, &o, &["attacker hit"], |outcome, out| {
        if outcome == "attacker hit" {
            has(out, "b is routed");
            has(out, "r is no longer in_melee");
            lacks(out, "r te 1 → 0");
        }
    });
}

// --- Fire -------------------------------------------------------------------------------

fn fire(by: &str, at: &str) -> String {
    order(
        "blue",
        &format!("act: {{ piece: {by}, action: fire, target: {at} }}"),
    )
}

/// 004 Firing: a neighbouring target in the front arc is an automatic hit; the third hit
/// routs: the unit turns about and moves 3 hexes directly away.
#[test]
fn automatic_hit_and_the_third_hit_routs() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [5, 4], facing: W }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: E, counters: { hits: 2 } }\n";
    let f = field(None, "", pieces, "");
    let out = ok(&f, &with(to_blue_fire(), &[fire("b", "r")]));
    has(&out, "band 0 (automatic) → hit");
    has(&out, "r hits 2 → 3");
    has(&out, "r is routed");
    has(&out, "r now faces W");
    has(&out, "r placed (4,4) → (1,4) (routed)");
}

/// 004 7.5: cavalry and artillery rout 4 hexes; a routed unit keeps routing each movement
/// phase until rallied, and leaves the field at the edge.
#[test]
fn cavalry_rout_four_and_keep_routing() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [6, 4], facing: W }\n  - { id: c, side: red, type: cavalry, at: [5, 4], facing: E, counters: { hits: 2 } }\n";
    let f = field(None, "", pieces, "");
    let mut o = with(to_blue_fire(), &[fire("b", "c")]);
    o.extend(ends("blue", 3)); // fire, melee, rally
    o.extend(ends("red", 1)); // command
    let out = ok(&f, &o);
    has(&out, "c placed (5,4) → (1,4) (routed)");
    o.extend(ends("red", 1)); // Red's movement phase begins: the rout goes on
    let out = ok(&f, &o);
    // From (1,4) west: the board ends after one hex.
    has(&out, "c removed (routed: left the field)");
}

/// 004 7.5/7.5.1: routing through one friend into an empty hex beyond gives the friend a
/// TE hit; with no room beyond, or into an enemy zone of control, the router is destroyed.
#[test]
fn routing_through_friends_and_into_zones() {
    let base = "  - { id: b, side: blue, type: infantry, at: [6, 4], facing: W }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: E, counters: { hits: 2 } }\n  - { id: f, side: red, type: infantry, at: [4, 4], facing: E }\n";
    let f = field(None, "", base, "");
    let out = ok(&f, &with(to_blue_fire(), &[fire("b", "r")]));
    has(&out, "f te 0 → 1");
    has(&out, "r placed (5,4) → (2,4) (routed)");
    let crowded =
        format!("{base}  - {{ id: g, side: red, type: infantry, at: [3, 4], facing: E }}\n");
    let f = field(None, "", &crowded, "");
    let out = ok(&f, &with(to_blue_fire(), &[fire("b", "r")]));
    has(&out, "r removed (routed: no room behind f; destroyed)");
    let zoc = "  - { id: b, side: blue, type: infantry, at: [6, 4], facing: W }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: E, counters: { hits: 2 } }\n  - { id: z, side: blue, type: infantry, at: [4, 5], facing: NW }\n";
    let f = field(None, "", zoc, "");
    let out = ok(&f, &with(to_blue_fire(), &[fire("b", "r")]));
    has(
        &out,
        "r removed (routed: fell back into an enemy zone of control and was destroyed)",
    );
}

/// 004 7o: a routed unit that is hit again is destroyed; 7m rare units take four hits.
#[test]
fn routed_units_hit_again_are_destroyed_and_rare_units_hold_at_three() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [5, 4], facing: W }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, counters: { hits: 3 }, flags: [routed] }\n";
    let f = field(None, "", pieces, "");
    let out = ok(&f, &with(to_blue_fire(), &[fire("b", "r")]));
    has(&out, "r removed (a routed unit was hit again: destroyed)");
    let rare = "  - { id: b, side: blue, type: infantry, at: [5, 4], facing: W }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: E, counters: { hits: 2 }, attributes: { rare: 1 } }\n";
    let f = field(None, "", rare, "");
    let out = ok(&f, &with(to_blue_fire(), &[fire("b", "r")]));
    has(&out, "r hits 2 → 3");
    lacks(&out, "r is routed");
}

/// 004 7e-g: primary arc only (point-blank out of arc at 1 CP), closest target first, no
/// firing into melee; 7.1a at most two units of one arm on a target.
#[test]
fn target_rules() {
    // Out of arc at point blank: r is on b's flank, one hex away: one CP.
    let flank = "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [3, 5], facing: E }\n";
    let f = field(None, "", flank, "");
    let out = ok(&f, &with(to_blue_fire(), &[fire("b", "r")]));
    has(&out, "+1 out of arc at point blank; band 1 (Color)");
    let rear = "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [3, 4], facing: E }\n";
    refused(
        &field(None, "", rear, ""),
        &with(to_blue_fire(), &[fire("b", "r")]),
        "r is not in b's front arc",
    );
    // Closest target first.
    let two = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: n, side: red, type: infantry, at: [3, 4], facing: W }\n  - { id: far, side: red, type: infantry, at: [4, 6], facing: W }\n";
    refused(
        &field(None, "", two, ""),
        &with(to_blue_fire(), &[fire("b", "far")]),
        "n is nearer and must be the target",
    );
    // 7f with 7h: a nearer enemy the firer cannot see (a forest between) does not count.
    let wood = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . F . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let hidden = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: n, side: red, type: infantry, at: [4, 4], facing: W }\n  - { id: far, side: red, type: infantry, at: [4, 6], facing: W }\n";
    let out = ok(
        &field(Some(wood), "", hidden, ""),
        &with(to_blue_fire(), &[fire("b", "far")]),
    );
    has(&out, "fire_small_b by b at far");
    let open = hidden.replace("at: [4, 4]", "at: [3, 4]");
    refused(
        &field(Some(wood), "", &open, ""),
        &with(to_blue_fire(), &[fire("b", "far")]),
        "n is nearer and must be the target",
    );
    // No firing into melee.
    let melee = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W, flags: [in_melee] }\n";
    refused(
        &field(None, "", melee, ""),
        &with(to_blue_fire(), &[fire("b", "r")]),
        "no firing into a melee",
    );
    // Ganging up: a third unit of the same arm may not fire at the same target.
    let gang = "  - { id: b1, side: blue, type: infantry, at: [5, 5], facing: NE }\n  - { id: b2, side: blue, type: infantry, at: [4, 5], facing: NE }\n  - { id: b3, side: blue, type: infantry, at: [6, 5], facing: NW }\n  - { id: r, side: red, type: infantry, at: [5, 3], facing: SW }\n";
    let f = field(None, "", gang, "");
    refused(
        &f,
        &with(
            to_blue_fire(),
            &[fire("b1", "r"), fire("b2", "r"), fire("b3", "r")],
        ),
        "two units have already fired at r this phase",
    );
}

/// 004 Modifiers: target in cover 1 CP, target's flank 1 CB, commander's C as CB, each hit
/// on the firer 1 CP.
#[test]
fn fire_modifiers_in_play() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . F . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E, counters: { hits: 1 } }\n  - { id: g, side: blue, type: commander, at: [2, 4], attached_to: b, counters: { cvs_c: 2 } }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: NE }\n";
    let f = field(Some(map), "", pieces, "");
    let out = ok(&f, &with(to_blue_fire(), &[fire("b", "r")]));
    has(
        &out,
        "+1 hits on the firer, +1 target in cover, -1 target's flank or rear, -2 commander, +1 cap on bonuses",
    );
}

/// 004 3: guns fire only unlimbered, two hexes a band (smoothbore automatic at 2, Color at
/// 3); rifled guns have no automatic band; mounted infantry cannot fire mounted.
#[test]
fn artillery_bands_and_who_may_fire() {
    let pieces = "  - { id: g, side: blue, type: artillery, at: [2, 4], facing: E, mode: unlimbered }\n  - { id: l, side: blue, type: artillery, at: [2, 6], facing: E, mode: limbered }\n  - { id: a, side: blue, type: artillery, at: [2, 2], facing: E, mode: unlimbered, attributes: { class: 1 } }\n  - { id: m, side: blue, type: mounted_infantry, at: [2, 0], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n  - { id: s, side: red, type: infantry, at: [5, 6], facing: W }\n  - { id: q, side: red, type: infantry, at: [4, 2], facing: W }\n  - { id: t, side: red, type: infantry, at: [3, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let out = ok(&f, &with(to_blue_fire(), &[fire("g", "r")]));
    has(&out, "fire_artillery_b: no roll needed; band 0 (automatic)");
    let out = ok(&f, &with(to_blue_fire(), &[fire("a", "q")]));
    has(&out, "fire_artillery_a: cube");
    has(&out, "band 0 (Color)");
    refused(
        &f,
        &with(to_blue_fire(), &[fire("l", "s")]),
        "l must unlimber to fire",
    );
    refused(
        &f,
        &with(to_blue_fire(), &[fire("m", "t")]),
        "m cannot fire while mounted",
    );
}

/// 004 2e/2g: a commander attached to a unit hit on a red star is killed instead, and the
/// unit takes no hit; on any other face the unit takes the hit.
#[test]
fn commander_killed_on_a_red_star() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n  - { id: v, side: red, type: commander, at: [4, 4], attached_to: r }\n";
    let f = field(None, "", pieces, "");
    let orders = with(to_blue_fire(), &[fire("b", "r")]);
    let refs: Vec<&str> = orders.iter().map(String::as_str).collect();
    let (mut star, mut plain) = (false, false);
    for seed in 0..200 {
        let seed = seed.to_string();
        let r = f.play(&refs, &["--seed", &seed]);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        if r.stdout.contains("cube red star;") {
            has(
                &r.stdout,
                "v removed (commander killed by a red-star hit; the unit takes no hit)",
            );
            lacks(&r.stdout, "r hits 0 → 1");
            star = true;
        } else if r.stdout.contains("cube red;") {
            has(&r.stdout, "r hits 0 → 1");
            lacks(&r.stdout, "v removed");
            plain = true;
        }
        if star && plain {
            return;
        }
    }
    panic!("200 seeds gave no red star and red hit (star {star}, plain {plain})");
}

// --- Melee ------------------------------------------------------------------------------

fn melee(by: &str, at: &str) -> String {
    order(
        "blue",
        &format!("act: {{ piece: {by}, action: melee, target: {at} }}"),
    )
}

/// Plays `orders` over seeds until every outcome of the melee chart in `want` is seen;
/// `check` asserts the effects of each outcome on the output.
fn over_seeds(f: &Field, orders: &[String], want: &[&str], check: impl Fn(&str, &str)) {
    let refs: Vec<&str> = orders.iter().map(String::as_str).collect();
    let mut seen: Vec<String> = Vec::new();
    for seed in 0..300 {
        let seed = seed.to_string();
        let r = f.play(&refs, &["--seed", &seed]);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let line = r
            .stdout
            .lines()
            .find(|l| l.contains("melee: cube"))
            .expect("a melee roll");
        let outcome = line
            .split(" → ")
            .nth(1)
            .and_then(|s| s.split(" (").next())
            .expect("outcome")
            .to_owned();
        check(&outcome, &r.stdout);
        if !seen.contains(&outcome) {
            seen.push(outcome);
        }
        if want.iter().all(|w| seen.iter().any(|s| s == w)) {
            return;
        }
    }
    panic!("outcomes seen: {seen:?}, wanted {want:?}");
}

/// 004 7.3 and the melee chart: the Stronger unit (here the attacker with a commander) and
/// the four results, applied to the right unit.
#[test]
fn melee_results_fall_on_the_right_unit() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b, counters: { cvs_c: 1 } }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n";
    let f = field(None, "", pieces, "");
    let orders = with(to_blue_melee(), &[melee("b", "r")]);
    over_seeds(
        &f,
        &orders,
        &[
            "both hit and defender TE",
            "attacker hit",
            "defender hit",
            "defender TE",
        ],
        |outcome, out| {
            has(out, "melee of b (3) against r (2)");
            match outcome {
                "both hit and defender TE" => {
                    has(out, "b hits 0 → 1");
                    has(out, "r hits 0 → 1");
                    has(out, "r te 0 → 1");
                }
                "attacker hit" => {
                    has(out, "b hits 0 → 1");
                    lacks(out, "r hits");
                }
                "defender hit" => {
                    has(out, "r hits 0 → 1");
                    lacks(out, "b hits");
                }
                "defender TE" => {
                    has(out, "r te 0 → 1");
                    lacks(out, "hits");
                }
                other => panic!("unexpected {other}"),
            }
            // Both are now locked in melee (and so have no zone of control).
            has(out, "b is in_melee");
        },
    );
}

/// 004 melee chart notes: a unit meleed in its flank or rear takes its results doubled.
#[test]
fn flank_melee_doubles_the_results() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: NE }\n";
    let f = field(None, "", pieces, "");
    let orders = with(to_blue_melee(), &[melee("b", "r")]);
    over_seeds(
        &f,
        &orders,
        &["defender hit", "defender TE"],
        |outcome, out| {
            // Flank gives the attacker +1: 3 against 2.
            has(out, "melee of b (3) against r (2)");
            match outcome {
                "defender hit" => has(out, "r hits 0 → 2"),
                "defender TE" => has(out, "r te 1 → 2"),
                "both hit and defender TE" => {
                    has(out, "r hits 0 → 2");
                    has(out, "r te 1 → 2");
                }
                _ => {}
            }
        },
    );
}

/// 004 3.1 and 7.2: artillery meleed in its front arc fires grapeshot once (smoothbore:
/// automatic), then the crew abandons the guns; skirmishers do not melee.
#[test]
fn guns_and_skirmishers_in_melee() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: red, type: artillery, at: [4, 4], facing: W, mode: unlimbered }\n  - { id: k, side: blue, type: infantry, at: [3, 6], facing: E }\n  - { id: s, side: red, type: skirmishers, at: [4, 6], facing: W }\n";
    let f = field(None, "", pieces, "");
    let out = ok(
        &f,
        &with(to_blue_melee(), &[melee("b", "g"), melee("k", "s")]),
    );
    has(&out, "grapeshot: no roll needed; band 0 (automatic) → hit");
    has(&out, "b hits 0 → 1");
    has(&out, "g removed (crew abandoned the guns to b)");
    has(&out, "s removed (skirmishers contacted in melee)");
}

/// 004 7.3i: cover in melee degrades one level each round (forts +2, +1, 0).
#[test]
fn melee_cover_degrades_round_by_round() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . T . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    for (rounds, value) in [(0, 4), (1, 3), (2, 2), (3, 2)] {
        let pieces = format!(
            "  - {{ id: b, side: blue, type: infantry, at: [3, 4], facing: E }}\n  - {{ id: r, side: red, type: infantry, at: [4, 4], facing: W, counters: {{ melee_rounds: {rounds} }}, flags: [in_melee] }}\n"
        );
        let f = field(Some(map), "", &pieces, "");
        let out = ok(&f, &with(to_blue_melee(), &[melee("b", "r")]));
        has(&out, &format!("melee of b (2) against r ({value})"));
    }
}

// --- Commanders, rally and the sequence ----------------------------------------------

/// 004 8: a unit with a commander attached rallies at the end of its side's turn: routed
/// status and TE hits go, and one hit.
#[test]
fn rally_with_a_commander() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: W, counters: { hits: 2, te: 1 }, flags: [routed] }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b }\n  - { id: n, side: blue, type: infantry, at: [3, 6], facing: E, counters: { hits: 1 } }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let mut o = ends("blue", 1); // arrivals
    o.extend(ends("blue", 1)); // command; movement begins: b routs on first
    o.extend(ends("blue", 1));
    o.extend(ends("red", 1));
    o.extend(ends("blue", 2)); // fire, melee → rally begins
    let out = ok(&f, &o);
    has(&out, "b placed (3,4) → (0,4) (routed)");
    has(&out, "b is no longer routed");
    has(&out, "b te 1 → 0");
    has(&out, "b hits 2 → 1");
    lacks(&out, "n hits");
    let all = f.play(
        &o.iter().map(String::as_str).collect::<Vec<_>>(),
        &["--option", "rally_all_hits=on"],
    );
    has(&all.stdout, "b hits 2 → 0");
}

/// Sequence of play, rally (optional): a routed unit that rallies takes one TE hit; 8c: a
/// unit valuable enough (attribute `self_rally`) removes one hit without a commander.
#[test]
fn rally_variants() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: W, counters: { hits: 2, te: 1 }, flags: [routed] }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b }\n  - { id: n, side: blue, type: infantry, at: [3, 6], facing: E, counters: { hits: 1 }, attributes: { self_rally: 1 } }\n  - { id: m, side: blue, type: infantry, at: [6, 6], facing: E, counters: { hits: 1 } }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let mut o = ends("blue", 3);
    o.extend(ends("red", 1));
    o.extend(ends("blue", 2));
    let refs: Vec<&str> = o.iter().map(String::as_str).collect();
    let plain = f.play(&refs, &[]);
    has(&plain.stdout, "n hits 1 → 0");
    has(&plain.stdout, "note: n rallies on its own");
    lacks(&plain.stdout, "m hits");
    assert_eq!(final_value(&plain.stdout, "b te"), 0);
    let te = f.play(&refs, &["--option", "rally_costs_te=on"]);
    has(&te.stdout, "b te 1 → 0");
    has(&te.stdout, "b te 0 → 1");
    assert_eq!(final_value(&te.stdout, "b te"), 1);
}

/// 004 6 and 5.3: commanders attach at the start of the turn, one per unit, never to a
/// routed unit; a unit that routs loses its commander, captured.
#[test]
fn attaching_commanders() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: c, side: blue, type: infantry, at: [3, 6], facing: E }\n  - { id: u, side: blue, type: infantry, at: [5, 6], facing: E, flags: [routed] }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b }\n  - { id: h, side: blue, type: commander, at: [3, 6], attached_to: c }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let attach = |who: &str, to: &str| {
        order(
            "blue",
            &format!("act: {{ piece: {who}, action: attach, target: {to} }}"),
        )
    };
    refused(
        &f,
        &with(ends("blue", 1), &[attach("g", "c")]),
        "c already has a commander (h)",
    );
    refused(
        &f,
        &with(ends("blue", 1), &[attach("g", "u")]),
        "cannot be attached to a routed unit",
    );
    let free = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: c, side: blue, type: infantry, at: [3, 6], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", free, "");
    let out = ok(&f, &with(ends("blue", 1), &[attach("g", "c")]));
    has(&out, "g attached to c");
}

/// 004 2.2.1/2.2.2: order changes up to the Initiative value; a failure rolls on the
/// decision-failure table.
#[test]
fn order_changes_limited_by_initiative() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b, counters: { cvs_i: 1, cvs_t: 9 } }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "");
    let change = order("blue", "act: { piece: g, action: change_orders }");
    let out = ok(&f, &with(ends("blue", 1), std::slice::from_ref(&change)));
    has(&out, "g order_changes 0 → 1");
    has(&out, "cvs_test: d10");
    // Tactical 9: only a 10 passes; otherwise the decision-failure table is rolled.
    if out.contains("→ fail") {
        has(&out, "decision_failure: d10");
    }
    // Second attempt in a later turn is over the limit of 1.
    let mut o = with(ends("blue", 1), std::slice::from_ref(&change));
    o.extend(whole_turn().split_off(1));
    o.extend(ends("blue", 1)); // turn 2: arrivals
    o.push(change);
    refused(&f, &o, "g has used all 1 order changes");
}

/// 004 Rules by sequence 2: past the break point every unit rolls; red withdraws 3 hexes
/// to the rear.
#[test]
fn army_integrity_withdraws_on_red() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [5, 4], facing: E }\n  - { id: d, side: blue, type: infantry, at: [5, 6], facing: E, flags: [routed] }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    // One unit of two routed: 50% lost, at the break point of 50.
    let f = field(None, "", pieces, "settings: { break_point: 50 }");
    let orders = ends("blue", 1);
    let refs: Vec<&str> = orders.iter().map(String::as_str).collect();
    let (mut held, mut withdrew) = (false, false);
    for seed in 0..100 {
        let seed = seed.to_string();
        let r = f.play(&refs, &["--seed", &seed]);
        has(&r.stdout, "note: blue has lost 50%: integrity check");
        if r.stdout.contains("→ withdraw (integrity of b)") {
            has(
                &r.stdout,
                "b placed (5,4) → (2,4) (withdrew (army integrity))",
            );
            withdrew = true;
        } else {
            has(&r.stdout, "→ hold (integrity of b)");
            lacks(&r.stdout, "b placed");
            held = true;
        }
        if held && withdrew {
            break;
        }
    }
    assert!(held && withdrew);
    let safe = field(None, "", pieces, "settings: { break_point: 51 }");
    let r = safe.play(&refs, &[]);
    lacks(&r.stdout, "integrity");
}

/// 004 2.2.3: random CVS traits from the table at the start of the game.
#[test]
fn random_cvs_rolls_each_commander() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(None, "", pieces, "options: { random_cvs: true }");
    let r = f.play(&[] as &[&str], &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    has(&r.stdout, "(grade of g)");
    has(&r.stdout, "(CVS of g)");
    assert!(r.stdout.contains("note: g is "), "{}", r.stdout);
}

/// 004 Optional rules: supply (12 points, one per shot, refilled near a wagon), rate of
/// fire (once a turn), pike-and-shot muskets (class A counts as B, once a turn).
#[test]
fn optional_fire_rules() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E, counters: { supply: 1 }, attributes: { class: 1 } }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: W }\n";
    let f = field(None, "", pieces, "");
    let shot = fire("b", "r");
    // Supply: the one point left is spent, then b is out.
    let once = with(to_blue_fire(), std::slice::from_ref(&shot));
    let refs: Vec<&str> = once.iter().map(String::as_str).collect();
    let r = f.play(&refs, &["--option", "supply=on"]);
    has(&r.stdout, "b supply 1 → 0");
    let mut twice = with(to_blue_fire(), std::slice::from_ref(&shot));
    twice.extend(ends("blue", 3));
    twice.extend(ends("red", 2));
    twice.push(order("blue", "act: { piece: b, action: fire, target: r }"));
    let refs: Vec<&str> = twice.iter().map(String::as_str).collect();
    let r = f.play(&refs, &["--option", "supply=on"]);
    assert!(
        r.stderr.contains("b is out of supply"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    // Without supply, b fires again in Red's turn (A/B system); with rate of fire it may not.
    let r = f.play(&refs, &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let r = f.play(&refs, &["--option", "rate_of_fire=on"]);
    assert!(
        r.stderr.contains("b has already fired this turn"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    // Class A small arms reach Code at 3 hexes; pike and shot makes them class B.
    let r = f.play(&once.iter().map(String::as_str).collect::<Vec<_>>(), &[]);
    has(&r.stdout, "fire_small_a:");
    let r = f.play(
        &once.iter().map(String::as_str).collect::<Vec<_>>(),
        &["--option", "pike_and_shot=on"],
    );
    has(&r.stdout, "fire_small_b:");
}

/// 004 Optional rules: disorder/fatigue (entering forest is a TE hit, fatigued units stand
/// still), mounted infantry meleed by cavalry rout at once, the hand-out's unlimbering.
#[test]
fn optional_movement_and_melee_rules() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . F . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: t, side: blue, type: infantry, at: [2, 6], facing: E, counters: { te: 3 }, flags: [fatigued] }\n  - { id: c, side: blue, type: cavalry, at: [6, 2], facing: E }\n  - { id: m, side: red, type: mounted_infantry, at: [7, 2], facing: W }\n  - { id: g, side: blue, type: artillery, at: [0, 0], facing: E, mode: limbered }\n  - { id: r, side: red, type: infantry, at: [4, 0], facing: W }\n";
    let f = field(Some(map), "", pieces, "");
    let into_forest = with(
        to_blue_movement(),
        &[order("blue", "move: { piece: b, path: [[3, 4]] }")],
    );
    let refs: Vec<&str> = into_forest.iter().map(String::as_str).collect();
    lacks(&f.play(&refs, &[]).stdout, "b te");
    has(
        &f.play(&refs, &["--option", "disorder_fatigue=on"]).stdout,
        "b te 0 → 1",
    );
    let tired = with(
        to_blue_movement(),
        &[order("blue", "move: { piece: t, path: [[3, 6]] }")],
    );
    let refs: Vec<&str> = tired.iter().map(String::as_str).collect();
    assert_eq!(f.play(&refs, &[]).code, 0);
    let r = f.play(&refs, &["--option", "disorder_fatigue=on"]);
    assert!(
        r.stderr.contains("t is fatigued and cannot move"),
        "{}",
        r.stderr
    );
    let out = ok(&f, &with(to_blue_melee(), &[melee("c", "m")]));
    has(&out, "m is routed");
    // Move, unlimber, fire: at 1 CP by the artillery section; not at all by the hand-out.
    let mut o = with(
        to_blue_movement(),
        &[
            order("blue", "move: { piece: g, path: [[1, 0]] }"),
            order("blue", "act: { piece: g, action: unlimber }"),
        ],
    );
    o.extend(ends("blue", 1));
    o.extend(ends("red", 1));
    o.push(fire("g", "r"));
    let refs: Vec<&str> = o.iter().map(String::as_str).collect();
    let r = f.play(&refs, &[]);
    has(&r.stdout, "+1 moved and unlimbered");
    let r = f.play(&refs, &["--option", "unlimber_fires_next_turn=on"]);
    assert!(
        r.stderr
            .contains("g moved and unlimbered this turn and fires next turn"),
        "{}",
        r.stderr
    );
}

/// 004 charts page, Constructions: quick works take 4 turns (cover 1), a redoubt 6 (cover
/// 2); a unit digging does not move, and leaves its works behind when it moves on.
#[test]
fn digging_in_gives_cover() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [5, 4], facing: W, counters: { works: 3 } }\n  - { id: d, side: blue, type: infantry, at: [5, 6], facing: W, counters: { works: 5 } }\n  - { id: r, side: red, type: infantry, at: [2, 4], facing: E }\n";
    let f = field(None, "", pieces, "");
    let dig = |id: &str| order("blue", &format!("act: {{ piece: {id}, action: dig }}"));
    let out = ok(&f, &with(to_blue_movement(), &[dig("b"), dig("d")]));
    has(&out, "note: b has built quick works (cover 1)");
    has(&out, "note: d has built a redoubt (cover 2)");
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[
                dig("b"),
                order("blue", "move: { piece: b, path: [[4, 4]] }"),
            ],
        ),
        "b cannot move: it is dug",
    );
    let out = ok(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[4, 4]] }")],
        ),
    );
    has(&out, "b works 3 → 0");
    // Red fires at the entrenched unit in its own turn: one CP of cover.
    let dug = "  - { id: b, side: blue, type: infantry, at: [5, 4], facing: W, counters: { works: 4 } }\n  - { id: r, side: red, type: infantry, at: [2, 4], facing: E }\n";
    let f = field(None, "", dug, "");
    let mut o = ends("blue", 3);
    o.extend(ends("red", 1));
    o.extend(ends("blue", 3));
    o.extend(ends("red", 2));
    o.extend(ends("blue", 1));
    o.push(order("red", "act: { piece: r, action: fire, target: b }"));
    let out = ok(&f, &o);
    has(&out, "+1 target in cover; band 3 (Code'n Color)");
}

/// 004 Optional rules: the commander's sphere rallies his unit's neighbours too; melee
/// points give the Stronger unit's target a TE hit; tribes must pass Tactical to close
/// with a fresh enemy; a halted force (decision failure 1-2) neither moves nor turns.
#[test]
fn optional_command_and_melee_rules() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b, counters: { cvs_c: 1, cvs_t: 9 } }\n  - { id: n, side: blue, type: infantry, at: [3, 5], facing: E, counters: { hits: 1 } }\n  - { id: h, side: blue, type: infantry, at: [1, 1], facing: E, flags: [halted] }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n";
    let f = field(None, "", pieces, "");
    let mut to_rally = to_blue_fire();
    to_rally.extend(ends("blue", 2));
    let refs: Vec<&str> = to_rally.iter().map(String::as_str).collect();
    lacks(&f.play(&refs, &[]).stdout, "n hits 1 → 0");
    has(
        &f.play(&refs, &["--option", "command_sphere=on"]).stdout,
        "n hits 1 → 0",
    );
    let fight = with(to_blue_melee(), &[melee("b", "r")]);
    let refs: Vec<&str> = fight.iter().map(String::as_str).collect();
    let r = f.play(&refs, &["--option", "melee_points=on"]);
    // 2, +1 for the commander, +1 for n, a second friend touching r.
    has(&r.stdout, "melee of b (4) against r (2)");
    // Same dice without the option: r ends with exactly one TE hit less.
    let plain = f.play(&refs, &[]);
    assert_eq!(
        final_value(&r.stdout, "r te"),
        final_value(&plain.stdout, "r te") + 1
    );
    let tribal = pieces.replace(
        "at: [3, 4], facing: E }",
        "at: [3, 4], facing: E, attributes: { class: 3 } }",
    );
    let f2 = field(None, "", &tribal, "options: { tribes: true }");
    let r = f2.play(&refs, &[]);
    has(&r.stdout, "(tribal resolve of b)");
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: h, path: [[2, 1]] }")],
        ),
        "h cannot move: it is halted",
    );
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "face: { piece: h, facing: SE }")],
        ),
        "h is halted by a failed order change and cannot change facing",
    );
}

/// The bundled example plays fire, melee and a rout from the command line.
#[test]
fn the_example_plays_fire_melee_and_a_rout() {
    let r = grognard(&[
        "play",
        "examples/hex-command.yaml",
        "--orders",
        "examples/hex-command.orders.yaml",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    has(&r.stdout, "r1 fire at b1");
    has(&r.stdout, "b1 melee at r1");
    has(&r.stdout, "b1 is routed");
    has(
        &r.stdout,
        "hale removed (commander captured: his unit routed)",
    );
    has(&r.stdout, "r2 melee at b2");
    has(
        &r.stdout,
        "b4 arrived at (0,9) (reinforcement arriving at entry place 1)",
    );
    has(&r.stdout, "b4 moved (0,9) → (1,8) → (1,7)");
    // 7.4: the defender that wins advances too (issue 7).
    has(
        &r.stdout,
        "r1 placed (4,3) → (5,4) (advanced after winning the melee it defended)",
    );
    // Reference "Melee and Rout": the crew steps back from a melee and leaves its guns,
    // which the enemy then captures and fires; a crew can be fired upon and does not melee.
    has(&r.stdout, "note: r3_crew abandons the guns of r3");
    has(
        &r.stdout,
        "r3_crew placed (7,2) → (6,2) (crew stepped back from the melee)",
    );
    has(&r.stdout, "r3 removed (guns captured by b2)");
    has(&r.stdout, "b2 fire_guns at r1");
    has(&r.stdout, "r1 is routed");
    has(&r.stdout, "b2 fire_guns at r3_crew");
    has(
        &r.stdout,
        "r3_crew placed (6,2) → (5,2) (crew stepped back from the melee)",
    );
    let v = grognard(&[
        "validate",
        RULESET,
        "rulesets/hex-command-d6.yaml",
        "rulesets/hex-command-limber3.yaml",
    ]);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
}

/// Spotting and hidden movement, through the kernel's sighting model (3.1 and the optional
/// Hidden Movement rule).
mod spotting {
    use grognard_kernel::action::Event;
    use grognard_kernel::game::Game;
    use grognard_kernel::ids::SideId;
    use grognard_lua::{Limits, LuaHooks};
    use grognard_rules::load::{load_ruleset, scenario_from_text};

    use crate::util::root;

    const BLUE: SideId = SideId(0);
    const RED: SideId = SideId(1);

    fn start(
        pieces: &[&str],
        terrain: &str,
        options: &[(&str, bool)],
        settings: &str,
        seed: u64,
    ) -> Game {
        let rules = load_ruleset(&root().join("rulesets/hex-command.yaml"))
            .unwrap_or_else(|d| panic!("{d}"));
        let mut text = format!(
            "scenario: s\nruleset: hex-command\nseed: {seed}\n{settings}board:\n  cols: 20\n  rows: 12\n{terrain}sides:\n  blue: {{ baseline: south }}\n  red: {{ baseline: north }}\npieces:\n"
        );
        for p in pieces {
            text.push_str(&format!("  - {p}\n"));
        }
        let s = scenario_from_text("s.yaml", &text, &rules).unwrap_or_else(|d| panic!("{d}"));
        let mut hooks = LuaHooks::new(&rules, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
        let options: Vec<(String, bool)> = options
            .iter()
            .map(|(n, on)| ((*n).to_owned(), *on))
            .collect();
        s.start(None, &options, &mut hooks)
            .unwrap_or_else(|d| panic!("{d}"))
    }

    /// What `side` knows of `name`: (position known, identity known).
    fn known(g: &Game, side: SideId, name: &str) -> (bool, bool) {
        let id = g.piece_by_name(name).map(|p| p.id).unwrap_or_default();
        g.view(side)
            .enemy
            .iter()
            .find(|e| e.handle == id)
            .map_or((false, false), |e| {
                (e.place.is_some(), e.identity.is_some())
            })
    }

    #[test]
    fn a_hidden_marker_within_five_hexes_is_revealed_unless_in_cover() {
        // 3.1: at 5 hexes markers are revealed automatically, except those in forest, town
        // (buildings), trench and the like.
        let g = start(
            &[
                "{ id: b, side: blue, type: infantry, at: [2, 6], facing: E }",
                "{ id: open, side: red, type: infantry, at: [6, 6], facing: W, flags: [hidden] }",
                "{ id: wood, side: red, type: infantry, at: [6, 4], facing: W, flags: [hidden] }",
                "{ id: far, side: red, type: infantry, at: [18, 10], facing: W }",
            ],
            "  terrain:\n    forest: [[6, 4]]\n",
            &[],
            "",
            1,
        );
        assert_eq!(known(&g, BLUE, "open"), (true, true), "revealed");
        assert_eq!(known(&g, BLUE, "wood"), (true, false), "still a marker");
        // Units not set up hidden are in plain view at any distance.
        assert_eq!(known(&g, BLUE, "far"), (true, true));
    }

    #[test]
    fn a_red_star_spots_a_marker_within_eight_hexes_or_twelve_from_a_hill() {
        // 3.1: roll red H (the red star) to spot within 8 hexes, 12 from a hill; the rolls are
        // made in the arrivals phase and only the rolling side's log shows them.
        let mut spotted = [false, false];
        for seed in 0..40 {
            let g = start(
                &[
                    "{ id: b, side: blue, type: infantry, at: [2, 6], facing: E }",
                    "{ id: m, side: red, type: infantry, at: [9, 6], facing: W, flags: [hidden] }",
                ],
                "",
                &[],
                "",
                seed,
            );
            let rolls = |side| {
                g.events_for(side)
                    .iter()
                    .filter(|e| matches!(e, Event::SpotRolled { roll, .. } if roll.chart == "spot" && roll.purpose.contains("blue")))
                    .count()
            };
            assert_eq!(rolls(BLUE), 1, "one roll at 7 hexes");
            assert_eq!(rolls(RED), 0, "red does not see blue's roll");
            spotted[usize::from(known(&g, BLUE, "m").1)] = true;
        }
        assert_eq!(
            spotted,
            [true, true],
            "a sixth of the rolls spot, over 40 seeds"
        );
        let at11 = |hill: &str| {
            start(
                &[
                    "{ id: b, side: blue, type: infantry, at: [2, 6], facing: E }",
                    "{ id: m, side: red, type: infantry, at: [13, 6], facing: W, flags: [hidden] }",
                ],
                hill,
                &[],
                "",
                5,
            )
        };
        let count = |g: &Game| {
            g.events_for(BLUE)
                .iter()
                .filter(|e| matches!(e, Event::SpotRolled { roll, .. } if roll.chart == "spot"))
                .count()
        };
        assert_eq!(count(&at11("")), 0, "11 hexes from the plain: out of reach");
        assert_eq!(
            count(&at11("  terrain:\n    hill: [[2, 6]]\n")),
            1,
            "from a hill"
        );
    }

    #[test]
    fn hidden_movement_shows_two_fake_counters_and_sight_is_nine_or_six_hexes() {
        // Optional rules, Hidden Movement.
        let pieces = [
            "{ id: b, side: blue, type: infantry, at: [2, 6], facing: E }",
            "{ id: near, side: red, type: infantry, at: [10, 6], facing: W }",
            "{ id: far, side: red, type: infantry, at: [18, 2], facing: W }",
        ];
        let on = [("hidden_movement", true)];
        let clear = start(&pieces, "", &on, "", 1);
        // 8 hexes away on a clear day: seen. 16 away: off the table, shown as two fakes.
        assert_eq!(known(&clear, BLUE, "near"), (true, true));
        assert_eq!(known(&clear, BLUE, "far"), (false, false));
        let enemy = clear.view(BLUE).enemy;
        let unknown = enemy
            .iter()
            .filter(|e| e.identity.is_none() && e.place.is_some())
            .count();
        let fakes_seen = enemy.iter().filter(|e| e.real == Some(false)).count();
        assert_eq!(unknown, 2, "the far unit's two fake counters, face down");
        assert_eq!(
            fakes_seen, 2,
            "the near unit's fakes, in sight, are seen to be fakes"
        );
        let grey = start(&pieces, "", &on, "settings: { clear_day: 0 }\n", 1);
        assert_eq!(
            known(&grey, BLUE, "near"),
            (false, false),
            "6 hexes on other days"
        );
        let off = start(&pieces, "", &[], "", 1);
        assert_eq!(
            known(&off, BLUE, "far"),
            (true, true),
            "without the option all is seen"
        );
        assert_eq!(off.view(BLUE).enemy.len(), 2);
    }
}
