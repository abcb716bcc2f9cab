//! Hex Command (seed 004): one test per mechanic, through the binary. Charts are checked
//! for their exact odds (`grognard chart --json`); rules in play with small fields written
//! to a temporary folder and played with `grognard play`. The test fields use an overlay
//! without the initiative roll, so Blue always plays first.
//!
//! This file holds the shared helpers (the field builder itself is `field.rs`); the tests
//! are one file per mechanic: `charts`, `movement`, `moves` (turning, oblique moves and
//! slowed units), `fire` (fire geometry and crews), `combat`, `melee`, `commanders`,
//! `reinforcements`, `spotting` and `options`.

use serde_json::Value;

use crate::util::{Played, Run, grognard, grognard_in, root};
use field::{
    Field, assert_arrived, assert_attached, assert_counted, assert_flag, assert_mode, assert_moved,
    assert_placed, assert_removed, ends, has, in_band, lacks, last_value, modified, modifiers,
    order, roll_on, rolled, with,
};

mod audit;
mod charts;
mod combat;
mod commanders;
mod field;
mod fire;
mod leaks;
mod melee;
mod movement;
mod moves;
mod options;
mod reaudit;
mod reaudit10;
mod reaudit11;
mod reaudit12;
mod reaudit13;
mod reaudit14;
mod reaudit15;
mod reaudit16;
mod reaudit17;
mod reaudit18;
mod reaudit19;
mod reaudit2;
mod reaudit20;
mod reaudit21;
mod reaudit22;
mod reaudit23;
mod reaudit24;
mod reaudit25;
mod reaudit26;
mod reaudit27;
mod reaudit28;
mod reaudit29;
mod reaudit3;
mod reaudit30;
mod reaudit4;
mod reaudit5;
mod reaudit6;
mod reaudit7;
mod reaudit8;
mod reaudit9;
mod reinforcements;
mod spotting;

pub(super) const RULESET: &str = "rulesets/hex-command.yaml";

// ---------------------------------------------------------------------------------------
// Charts

pub(super) fn chart_json(ruleset: &str, chart: &str, sets: &[String]) -> Value {
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
pub(super) fn odds(ruleset: &str, chart: &str, sets: &[String], outcome: &str) -> String {
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
pub(super) fn band_name(chart: &str, sets: &[String]) -> String {
    let report = chart_json(RULESET, chart, sets);
    report["rows"][0]["band"]["name"]
        .as_str()
        .unwrap_or_else(|| panic!("no band in {report}"))
        .to_owned()
}

/// What a cube must show in each band: the cube has three red faces, two starred faces, and
/// one red star.
pub(super) fn cube_odds(band: &str) -> &'static str {
    match band {
        "automatic" => "1",
        "Color" => "1/2",
        "Code" => "1/3",
        "Code'n Color" => "1/6",
        _ => "0",
    }
}

/// A 10×8 field; `map` rows override the all-clear board, `features` and `pieces` are YAML
/// list entries, `extra` further scenario keys.
pub(super) fn field(map: Option<&str>, features: &str, pieces: &str, extra: &str) -> Field {
    field::field(map, features, pieces, extra, 3)
}

/// Orders up to Blue's movement phase (arrivals, command).
pub(super) fn to_blue_movement() -> Vec<String> {
    ends("blue", 2)
}

/// Orders up to Blue's fire phase (arrivals, command, movement; Red's defensive fire).
pub(super) fn to_blue_fire() -> Vec<String> {
    let mut o = ends("blue", 3);
    o.extend(ends("red", 1));
    o
}

/// Orders up to Blue's melee phase.
pub(super) fn to_blue_melee() -> Vec<String> {
    let mut o = to_blue_fire();
    o.extend(ends("blue", 1));
    o
}

/// Every end_phase of a whole turn with Blue first: arrivals, Blue's command, movement,
/// Red's defensive fire, Blue's fire, melee, rally, Red's command, movement, Blue's
/// defensive fire, Red's fire, melee, rally, turn end.
pub(super) fn whole_turn() -> Vec<String> {
    let mut o = ends("blue", 3);
    o.extend(ends("red", 1));
    o.extend(ends("blue", 3));
    o.extend(ends("red", 2));
    o.extend(ends("blue", 1));
    o.extend(ends("red", 3));
    o.extend(ends("blue", 1));
    o
}

pub(super) fn run(f: &Field, orders: &[String]) -> Run {
    f.play(orders, &[])
}

pub(super) fn ok(f: &Field, orders: &[String]) -> String {
    f.ok(orders, &[])
}

pub(super) fn refused(f: &Field, orders: &[String], why: &str) {
    f.refused(orders, &[], why);
}

// Hex neighbours (odd rows shoved east): from (4,4) E is (5,4), W (3,4), NE (4,3),
// NW (3,3), SE (4,5), SW (3,5); from (4,5) NE is (5,4), NW (4,4), SE (5,6), SW (4,6).

// --- Movement ---------------------------------------------------------------------------

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
pub(super) fn reach_agrees_with_play(
    f: &Field,
    before: &[String],
    unit: &str,
    from: (i32, i32),
) -> usize {
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

/// A field whose board has the three entry places of 004 4d as regions `entry_1` (two
/// hexes on the west edge), `entry_2` (one on the east edge) and `entry_3` (one north).
pub(super) fn field_with_entries(pieces: &str) -> Field {
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
pub(super) fn to_red_movement_turn_2() -> Vec<String> {
    let mut o = whole_turn();
    o.extend(ends("blue", 3));
    o.extend(ends("red", 1));
    o.extend(ends("blue", 3));
    o.extend(ends("red", 1));
    o
}

pub(super) fn fire(by: &str, at: &str) -> String {
    order(
        "blue",
        &format!("act: {{ piece: {by}, action: fire, target: {at} }}"),
    )
}

pub(super) fn melee(by: &str, at: &str) -> String {
    order(
        "blue",
        &format!("act: {{ piece: {by}, action: melee, target: {at} }}"),
    )
}

/// Plays `orders` over seeds until every outcome of the melee chart in `want` is seen, read
/// on `play --json` (the log's words play no part): `check` gets the outcome of each seed's
/// melee roll and its events, and asserts that outcome's effects.
pub(super) fn over_seeds_json(
    f: &Field,
    orders: &[String],
    want: &[&str],
    check: impl Fn(&str, &Played),
) {
    let mut seen: Vec<String> = Vec::new();
    for seed in 0..300 {
        let seed = seed.to_string();
        let played = f.json(orders, &["--seed", &seed]);
        let outcome = played
            .events
            .iter()
            .find_map(|e| {
                let roll = &e["roll"];
                (roll["chart"] == "melee").then(|| roll["outcome"].as_str().map(str::to_owned))?
            })
            .expect("a melee roll");
        check(&outcome, &played);
        if !seen.contains(&outcome) {
            seen.push(outcome);
        }
        if want.iter().all(|w| seen.iter().any(|s| s == w)) {
            return;
        }
    }
    panic!("outcomes seen: {seen:?}, wanted {want:?}");
}

/// Whether piece `name`'s counter `counter` changed in the events.
pub(super) fn counter_changed(p: &Played, name: &str, counter: &str) -> bool {
    p.find("counter_changed", name, |e| e["counter"] == counter)
        .is_some()
}

/// Whether piece `name` was removed in the events.
pub(super) fn was_removed(p: &Played, name: &str) -> bool {
    p.find("removed", name, |_| true).is_some()
}

/// Whether piece `name` was placed (not moved) with `reason` in the events.
pub(super) fn placed_for(p: &Played, name: &str, reason: &str) -> bool {
    p.find("placed", name, |e| e["reason"] == reason).is_some()
}

/// Plays `orders` with seeds until their events on `play --json` satisfy `want` (a flag
/// turned on, a removal, a roll's outcome); returns that seed. The log's words play no part.
pub(super) fn seed_showing(
    f: &Field,
    orders: &[String],
    args: &[&str],
    want: impl Fn(&Played) -> bool,
) -> String {
    for seed in 0..300 {
        let seed = seed.to_string();
        let mut all = args.to_vec();
        all.extend_from_slice(&["--seed", seed.as_str()]);
        if want(&f.json(orders, &all)) {
            return seed;
        }
    }
    panic!("300 seeds and never the wanted events");
}
