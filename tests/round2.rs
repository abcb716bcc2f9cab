//! Issue 36, round 2: what an outside designer (Mill Ridge) still could not say in data or
//! see in the tools. The tools first (`sheet`, `roll --actor`, `chart` on a melee, `view`
//! after the last turn and with facings, `fuzz --vary` on an open table), then the rules:
//! command radius, hit limits per type, level flags and results that move units. Every
//! number is worked by hand from the fixture `tests/fixtures/round2/brigade.yaml`.

use serde_json::Value;

use crate::util::{Played, grognard, play_json};

const BRIGADE: &str = "tests/fixtures/round2/brigade.yaml";

fn ok(args: &[&str]) -> String {
    let run = grognard(args);
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    run.stdout
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    serde_json::from_str(&ok(&all)).expect("json")
}

/// The sheet of `ruleset` as text, tags dropped.
fn sheet_text(ruleset: &str, name: &str) -> String {
    let out = std::env::temp_dir().join(format!(
        "grognard-round2-{name}-{}.html",
        std::process::id()
    ));
    let path = out.to_string_lossy().into_owned();
    ok(&["sheet", ruleset, "--out", &path]);
    let html = std::fs::read_to_string(&out).expect("sheet");
    let _ = std::fs::remove_file(&out);
    let mut text = String::new();
    let mut inside = false;
    for c in html.chars() {
        match c {
            '<' => {
                inside = true;
                text.push(' ');
            }
            '>' => inside = false,
            c if !inside => text.push(c),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The sheet says who may take each action and what it needs, each type's attributes, how
/// it turns and what its moves set, what pins a piece, the ruleset's victory and the exact
/// distribution of the melee's hits (2d6+1 for foot, the default shock 0 here: rout on
/// 9+, half the score rounded down).
#[test]
fn the_sheet_lists_types_needs_attributes_turning_pins_victory_and_amounts() {
    let t = sheet_text(BRIGADE, "sheet");
    for want in [
        // actions: who may, needs, barred by
        "melee melee enemy 0–0 no foot, horse engaged fought",
        // piece types: attributes, turning by mode, what a move sets
        "foot shock 1 line: wheels; column: turns free marched",
        "horse shock 2 line: 2 to turn",
        "A piece with any of these flags may not move: engaged.",
        // victory
        "each enemy horse off the board: 2 points",
        "a side loses at once when none of its pieces (of general) is left on the board (its general is gone)",
        // level flags, command radius, the general's own hit limit, moving results
        "shaken (flag) held while hits is 3 or more",
        "out_of_command (flag) held while no general is within 6",
        "hits: removed at 2 (instead of the counter&#39;s own)",
        "done: fall back 3 (target), follow up (actor)",
        "done: fall back 3, removed if blocked (target)",
        // the melee's hits with shock 0: 2d6 9+ rout (half, down: 4 4 5 5 6 → 10/36 of 4
        // or 5...), both sides' results
        "hits added to the target's hits by melee",
        "hits added to the actor's hits by melee",
    ] {
        // prose: the sheet is for reading.
        assert!(t.contains(want), "the sheet lacks `{want}`:\n{t}");
    }
}

/// `roll --actor/--target` reads the piece types as `chart` does; `--set` wins.
#[test]
fn roll_reads_the_actor_and_target_types() {
    let shock = |v: &Value| v["roll"]["inputs"][0].clone();
    let v = json(&["roll", BRIGADE, "melee", "--actor", "horse", "--seed", "1"]);
    assert_eq!(shock(&v), serde_json::json!(["shock", 2]), "{v}");
    // prose: where the input came from is said in words.
    assert_eq!(v["from_types"][0], "from the actor, horse (line): shock 2");
    let v = json(&[
        "roll", BRIGADE, "melee", "--actor", "horse", "--set", "shock=0", "--seed", "1",
    ]);
    assert_eq!(shock(&v), serde_json::json!(["shock", 0]), "{v}");
    let bad = grognard(&["roll", BRIGADE, "melee", "--actor", "hors"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    // prose: a usage error's suggestion.
    assert!(
        bad.stderr.contains("did you mean `horse`"),
        "{}",
        bad.stderr
    );
}

/// `chart` on the melee shows both sides' hits. Horse (shock 2): 2d6+2. The attacker is
/// repulsed (1 hit to itself) only on 2d6 = 2, 1/36; the target takes 1 on a push (2d6
/// 3–6: 14/36 = 7/18) and half the score, rounded down, on a rout (2d6 7: 9 → 4, 6/36;
/// 8, 9: 5, 9/36; 10, 11: 6, 5/36; 12: 14 → 7, 1/36); mean (14 + 24 + 45 + 30 + 7)/36 =
/// 10/3.
#[test]
fn chart_on_a_melee_shows_both_sides_hits() {
    let v = json(&["chart", BRIGADE, "melee", "--actor", "horse"]);
    let amounts = v["amounts"][0].as_array().expect("amounts");
    let of = |to: &str| {
        amounts
            .iter()
            .find(|a| a["to"] == to)
            .unwrap_or_else(|| panic!("no amount to the {to}: {v}"))
    };
    let fractions = |a: &Value| -> Vec<(i64, String)> {
        a["odds"]
            .as_array()
            .expect("odds")
            .iter()
            .map(|o| {
                (
                    o["amount"].as_i64().expect("n"),
                    o["fraction"].as_str().expect("f").to_owned(),
                )
            })
            .collect()
    };
    let target = of("target");
    assert_eq!(target["mean"], "10/3");
    assert_eq!(
        fractions(target),
        [
            (0, "1/36"),
            (1, "7/18"),
            (4, "1/6"),
            (5, "1/4"),
            (6, "5/36"),
            (7, "1/36")
        ]
        .map(|(a, f)| (a, f.to_owned()))
    );
    let actor = of("actor");
    assert_eq!(actor["mean"], "1/36");
    assert_eq!(
        fractions(actor),
        [(0, "35/36"), (1, "1/36")].map(|(a, f)| (a, f.to_owned()))
    );
}

/// A game that ran to the end of its 6 turns is over on turn 6, in the side's view and the
/// referee's, not on a turn 7 that never began; the text view shows each base's facing
/// on the open table and each unit's facing on a hex grid.
#[test]
fn view_names_the_last_turn_and_shows_facings() {
    let dir = std::env::temp_dir().join(format!("grognard-round2-view-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let save = dir.join("game.json");
    let save = save.to_string_lossy().into_owned();
    ok(&[
        "play",
        "examples/village-skirmish.yaml",
        "--orders",
        "examples/village-skirmish.orders.yaml",
        "--policy",
        "random",
        "--seed",
        "7",
        "--save",
        &save,
    ]);
    // prose: this test is about the text view's header and facings.
    let side = ok(&["view", &save, "--side", "blue"]);
    assert!(
        side.starts_with("view of blue · turn 6 · game over"),
        "{side}"
    );
    let referee = ok(&["view", &save, "--referee"]);
    assert!(referee.starts_with("referee view · turn 6\n"), "{referee}");
    let _ = std::fs::remove_dir_all(&dir);
    let start = ok(&["view", "examples/village-skirmish.yaml", "--side", "blue"]);
    assert!(
        start.contains("b_line1    infantry, formed mode, (12\", 30\"), facing 270°"),
        "{start}"
    );
    assert!(start.contains("at (12\", 6\"), facing 90°"), "{start}");
    let hex = ok(&["view", "examples/hex-command.yaml", "--referee"]);
    assert!(hex.contains(", facing NE"), "{hex}");
}

/// `fuzz --vary` varies the open table's scenario: bases moved and turned within the
/// table, and says how many games it varied.
#[test]
fn fuzz_varies_an_open_table() {
    let out = ok(&[
        "fuzz",
        "examples/village-skirmish.yaml",
        "--games",
        "4",
        "--vary",
    ]);
    let varied: u32 = out
        .split(", ")
        .find_map(|p| p.strip_suffix(" of the 3 games after the first on scenarios around it)"))
        .and_then(|n| n.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of varied games: {out}"));
    assert!(varied >= 1, "{out}");
}

const FIELD: &str = "tests/fixtures/round2/field.yaml";
const WOOD: &str = "tests/fixtures/round2/wood.yaml";

/// `play --json`'s events, as `(kind, piece or "", text)` lines for searching.
fn events(scenario: &str, orders: &str) -> Vec<Value> {
    let v = json(&["play", scenario, "--orders", orders]);
    v["events"].as_array().expect("events").clone()
}

/// The grid fixture played: b1 in command, r1 falling back short, b1 following up.
fn grid() -> Played {
    let p = play_json(
        "tests/fixtures/round2/grid.yaml",
        "tests/fixtures/round2/grid.orders.yaml",
    );
    assert_eq!((p.code, &p.refused), (0, &None));
    p
}

/// The events' thousandths of an inch for `(x, y)` inches.
fn inches(at: (f64, f64)) -> Value {
    let th = |v: f64| (v * 1000.0).round() as i64;
    serde_json::json!({"x": th(at.0), "y": th(at.1)})
}

/// Whether `name` was set down from `from` to `to` on the table, falling back.
fn fell_back(p: &Played, name: &str, from: (f64, f64), to: (f64, f64)) -> bool {
    let why = format!("{name} falls back");
    p.has("placed_on_table", name, |e| {
        e["from"] == inches(from) && e["to"] == inches(to) && e["reason"] == why.as_str()
    })
}

/// Whether `name` followed up from `from` to `to`, a move of `cost` inches.
fn followed(p: &Played, name: &str, from: (f64, f64), to: (f64, f64), cost: f64) -> bool {
    p.has("moved_on_table", name, |e| {
        e["from"] == inches(from) && crate::util::on_table_to(e, to.0, to.1, cost)
    })
}

/// Whether the ruleset's note tells that `name` fell back short. prose: the note is the
/// ruleset's own words; the distance is checked on the placement.
fn short(p: &Played, name: &str) -> bool {
    let text = format!("{name} falls back short: the way is blocked");
    crate::util::has_event(&p.events, "note", &[("text", text.into())])
}

/// A: the melee reads `actor.friends_within` (a general within 6", edge to edge). After
/// its charge b1 stands at y 14.788 (front edge on r1's): its back edge at 15.181, Blue's
/// general's front edge at 21 − 0.492 = 20.508, a gap of 5.33" — in command, input 1. A
/// flag kept while no general is within 6" (`out_of_command`) bars the charge of a unit
/// that has none near, and is set and cleared as units move.
#[test]
fn a_generals_command_radius_is_read_by_charts_and_flags() {
    let dir = std::env::temp_dir().join(format!("grognard-round2-a-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let orders = dir.join("melee.orders.yaml");
    std::fs::write(
        &orders,
        "orders:\n  - { side: blue, act: { piece: b1, action: charge, target: r1 } }\n  - { side: blue, end_phase: true }\n  - { side: blue, act: { piece: b1, action: melee, target: r1 } }\n",
    )
    .expect("write");
    let all = events(FIELD, &orders.to_string_lossy());
    let roll = all
        .iter()
        .find_map(|e| e["roll"].as_object().filter(|r| r["chart"] == "melee"))
        .unwrap_or_else(|| panic!("no melee roll: {all:?}"));
    let inputs = roll["inputs"].as_array().expect("inputs");
    assert!(
        inputs.contains(&serde_json::json!(["general", 1])),
        "b1 is within 6\" of its general: {inputs:?}"
    );
    // Red's horse has no general within 6": it may not charge.
    std::fs::write(
        &orders,
        "orders:\n  - { side: blue, end_phase: true }\n  - { side: blue, end_phase: true }\n  - { side: red, act: { piece: r_horse, action: charge, target: b1 } }\n",
    )
    .expect("write");
    let run = play_json(FIELD, &orders.to_string_lossy());
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        run.refusal_kind.as_deref(),
        Some("already_used"),
        "{:?}",
        run.refused
    );
    // prose: the flag that bars it is named in the words.
    let why = run.refused.as_deref().unwrap_or_default();
    assert!(
        why.ends_with("r_horse cannot charge while out_of_command"),
        "{why}"
    );
    // The flags as the game starts: Blue's lines are in command, Red's pieces are not.
    let start = json(&["view", FIELD, "--referee"]);
    let names: Vec<&str> = (start["state"]["pieces"].as_array().into_iter().flatten())
        .filter_map(|p| p["name"].as_str())
        .collect();
    let out_of_command: Vec<&str> = (start["events"].as_array().into_iter().flatten())
        .filter(|e| {
            e["event"] == "flag_changed" && e["flag"] == "out_of_command" && e["on"] == true
        })
        .filter_map(|e| names.get(e["piece"].as_u64()? as usize).copied())
        .collect();
    assert_eq!(
        out_of_command,
        ["b_gen", "r1", "r_horse", "r_gen"],
        "{start}"
    );
}

/// A on a grid: `friends_within` counts cells; the `in_command` flag (a general within 2
/// squares) is what `shove` needs. b1 at (2,3), its general at (4,4): 2 squares.
#[test]
fn a_command_radius_counts_cells_on_a_grid() {
    let p = grid();
    assert!(p.flag("b1", "in_command", true).is_some(), "{:?}", p.events);
}

/// B and C: a general is gone at its 2nd hit (its type's own trigger) where a line is not
/// (the counter's own, at 6); a line is shaken from its 3rd hit, and no longer once rallied
/// back to 2 — the flag follows the counter both ways, also from a set-up at 3 hits.
#[test]
fn hit_limits_per_type_and_flags_held_at_a_level() {
    let p = play_json(FIELD, "tests/fixtures/round2/levels.orders.yaml");
    assert_eq!((p.code, &p.refused), (0, &None));
    let found = |at: Option<usize>| at.unwrap_or_else(|| panic!("{:?}", p.events));
    let hits = |name: &str, from: i64, to: i64| {
        found(p.find("counter_changed", name, |e| {
            e["counter"] == "hits" && e["from"] == from && e["to"] == to
        }))
    };
    let flag = |name: &str, on: bool| found(p.flag(name, "shaken", on));
    assert!(flag("b2", true) < hits("b2", 3, 2));
    assert_eq!(flag("b2", false), hits("b2", 3, 2) + 1);
    assert_eq!(flag("r1", true), hits("r1", 2, 3) + 1);
    let removed = |name: &str| {
        p.find("removed", name, |e| {
            e["reason"] == "removed by a chart result"
        })
    };
    assert_eq!(removed("r_gen"), Some(hits("r_gen", 1, 2) + 1));
    assert_eq!(removed("r1"), None);
}

/// D on the open table: r1 (facing south, 90°) falls back 3" to its rear, north: (10, 14)
/// → (10, 11); b1 follows up into contact again, 3" on: 14.788 → 11.788.
#[test]
fn a_unit_falls_back_to_its_rear_and_the_winner_follows_up() {
    let p = play_json(FIELD, "tests/fixtures/round2/press.orders.yaml");
    assert!(
        fell_back(&p, "r1", (10.0, 14.0), (10.0, 11.0)),
        "{:?}",
        p.events
    );
    assert!(
        followed(&p, "b1", (10.0, 14.788), (10.0, 11.788), 3.0),
        "{:?}",
        p.events
    );
}

/// D, blocked: the horse's back edge is at 10 − 0.787 = 9.213, the wood (impassable to
/// horse) begins at 8: of 3" it gets 1" (in quarter inches: 1.25" would put it 0.04" into
/// the wood). `blocked: stop` leaves it there, and b1 follows up 1"; `blocked: remove`
/// takes it off the table.
#[test]
fn a_blocked_fall_back_stops_short_or_removes_as_the_ruleset_says() {
    let p = play_json(WOOD, "tests/fixtures/round2/wood-press.orders.yaml");
    // 1" of the 3", and the ruleset's note says why.
    assert!(
        fell_back(&p, "r_horse", (10.0, 10.0), (10.0, 9.0)),
        "{:?}",
        p.events
    );
    assert!(
        followed(&p, "b1", (10.0, 11.182), (10.0, 10.182), 1.0),
        "{:?}",
        p.events
    );
    assert!(short(&p, "r_horse"), "{:?}", p.events);
    let p = play_json(WOOD, "tests/fixtures/round2/wood-drive.orders.yaml");
    let removed = p.has("removed", "r_horse", |e| {
        e["reason"] == "r_horse could not fall back"
    });
    assert!(removed, "{:?}", p.events);
}

/// D on a grid: r1 (facing S) falls back 2 squares to its rear, N, but the lake on row 0
/// stops it after one, at (2,1); b1 follows up straight into (2,2), next to it.
#[test]
fn falling_back_and_following_up_on_a_grid() {
    let p = grid();
    let placed = |name: &str, from: (i64, i64), to: (i64, i64), why: &str| {
        let cell = |c: (i64, i64)| crate::util::cells(&[c])[0].clone();
        p.has("placed", name, |e| {
            e["from"] == cell(from) && e["to"] == cell(to) && e["reason"] == why
        })
    };
    assert!(
        placed("r1", (2, 2), (2, 1), "r1 falls back"),
        "{:?}",
        p.events
    );
    assert!(
        placed("b1", (2, 3), (2, 2), "b1 follows up"),
        "{:?}",
        p.events
    );
    assert!(short(&p, "r1"), "{:?}", p.events);
}

/// The new keys are checked at their lines with what was expected.
#[test]
fn bad_conditions_are_reported_at_their_lines() {
    // prose: errors at their lines, in the words saying what was expected.
    let base = std::fs::read_to_string(BRIGADE).expect("fixture");
    let dir = std::env::temp_dir().join(format!("grognard-round2-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let errors = |from: &str, to: &str| {
        assert!(base.contains(from), "{from}");
        let path = dir.join("bad.yaml");
        std::fs::write(&path, base.replacen(from, to, 1)).expect("write");
        let run = grognard(&["validate", &path.to_string_lossy()]);
        assert_eq!(run.code, 1, "{from} → {to}: {}", run.stdout);
        run.stderr
    };
    let e = errors(
        "shaken: { while: { counter: hits, at_least: 3 } }",
        "shaken: { while: { counter: hits } }",
    );
    assert!(e.contains("needs `at_least` or `at_most`"), "{e}");
    let e = errors(
        "shaken: { while: { counter: hits, at_least: 3 } }",
        "shaken: { clears: turn_end, while: { counter: hits, at_least: 3 } }",
    );
    assert!(e.contains("it cannot also clear at `turn_end`"), "{e}");
    let e = errors(
        "done: [ { add: hits, amount: -1 } ]",
        "done: [ { add: hits, amount: -1 }, { clear: shaken } ]",
    );
    assert!(e.contains("flag `shaken` is kept by the engine"), "{e}");
    let e = errors(
        "hits: [ { at: 2, effects: [ { remove: true } ] } ]",
        "hits: [ { at: 20, effects: [ { remove: true } ] } ]",
    );
    assert!(e.contains("the counter stops at 12"), "{e}");
    let e = errors(
        "hits: [ { at: 2, effects: [ { remove: true } ] } ]",
        "hits: [ { at: 2, effects: [ { fall_back: 2 } ] } ]",
    );
    assert!(e.contains("a counter trigger has no other piece"), "{e}");
    let e = errors(
        "general: { from: actor.friends_within, types: [general], within: 6, max: 1 }",
        "general: { from: actor.friends_within, types: [genral], max: 1 }",
    );
    assert!(e.contains("did you mean `general`"), "{e}");
    assert!(e.contains("needs `within:`"), "{e}");
    let e = errors(
        "done: [ { fall_back: 3, blocked: remove } ]",
        "done: [ { fall_back: 3, blocked: rout } ]",
    );
    assert!(e.contains("stop") && e.contains("stay"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
