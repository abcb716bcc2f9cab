//! Issue 21: units as bases on the open table, measured edge to edge — the issue's
//! hand-worked cases through the binary, and footprints written wrong.

use crate::util::{Played, grognard, on_table_to, play_json};

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

const FACING: &str = "tests/fixtures/footprints/facing.yaml";

#[test]
fn bases_facing_each_other_ten_inches_apart_and_four_deep_are_six_inches_apart() {
    let run = grognard(&["measure", FACING, "a", "b", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let m = json(&run.stdout);
    assert_eq!(m["distance"], 6.0);
    assert_eq!(m["rule_distance"], 6.0);
    assert_eq!(m["arc_of_b_from_a"], "front");
    assert_eq!(m["arc_of_a_from_b"], "front");
    let text = grognard(&["measure", FACING, "a", "b"]);
    // prose: the text says how it measured.
    assert!(text.stdout.contains("(edge to edge)"), "{}", text.stdout);
    // c stands 21" east of a's centre, facing it; a faces north, so its 6" front runs
    // east–west and its east edge is 3" from its centre: 21 − 3 − 2 = 16".
    let m = json(&grognard(&["measure", FACING, "a", "c", "--json"]).stdout);
    assert_eq!(m["distance"], 16.0);
    assert_eq!(m["arc_of_b_from_a"], "flank");
    assert_eq!(m["arc_of_a_from_b"], "front");
}

#[test]
fn a_shot_is_measured_edge_to_edge() {
    // 21" centre to centre, 17" edge to edge once a faces c: inside the 18" range.
    let p = play_json(FACING, "tests/fixtures/footprints/shoot.orders.yaml");
    assert_eq!((p.code, &p.refused), (0, &None));
    let c = p.piece("c");
    assert!(
        p.has("acted", "a", |e| e["action"] == "shoot" && e["target"] == c),
        "{:?}",
        p.events
    );
}

#[test]
fn show_lists_each_modes_bases() {
    let run = grognard(&["show", "tests/fixtures/footprints/bases.yaml"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // prose: `show` is a summary for reading.
    // One 6" × 4" base in line; three 2" × 4" bases one behind another in column.
    assert!(
        run.stdout
            .contains("bases line 6.00\" × 4.00\", column 2.00\" × 12.00\""),
        "{}",
        run.stdout
    );
    let run = grognard(&["show", "rulesets/drill-open.yaml"]);
    // Four 40 × 20 mm bases: 160 mm = 6.30" by 20 mm = 0.79"; two by two in column.
    assert!(
        run.stdout
            .contains("bases line 6.30\" × 0.79\", column 3.15\" × 1.57\""),
        "{}",
        run.stdout
    );
    // Black Powder: only the modes each type may take. A skirmish company has one; a
    // battery's two 60 × 80 mm bases and spacer are 7.09" across unlimbered, 9.45" long
    // limbered; a battalion in mixed formation is 40 mm deep, 2.5" (1.65" at 66%) of open
    // ground and its light company's 20 mm stands: 4.01" deep.
    let run = grognard(&["show", "rulesets/black-powder.yaml"]);
    let line = |name: &str| {
        run.stdout
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in:\n{}", run.stdout))
            .to_owned()
    };
    assert!(
        line("skirmish_company").ends_with("bases skirmish 5.38\" × 0.79\""),
        "{}",
        run.stdout
    );
    assert!(
        line("foot_battery")
            .ends_with("bases limbered 2.36\" × 9.45\", unlimbered 7.09\" × 3.15\""),
        "{}",
        run.stdout
    );
    assert!(
        line("line_infantry").contains("mixed_formation 6.30\" × 4.01\""),
        "{}",
        run.stdout
    );
}

#[test]
fn footprints_written_wrong_are_named_at_their_line() {
    let run = grognard(&["validate", "tests/fixtures/footprints/bad.yaml"]);
    assert_eq!(run.code, 1);
    let lines: Vec<&str> = run.stderr.lines().chain(run.stdout.lines()).collect();
    let expect = [
        "bad.yaml:6:25: footprint width `0mm`: a base's size must be more than 0",
        "bad.yaml:8:57: in piece_types.cavalry.footprint.arrangement: unknown value `wedge`; \
         expected one of: line, column, block, loose",
        "bad.yaml:12:67: a `block` footprint needs `files:`",
    ];
    for e in expect {
        assert_eq!(
            lines.iter().filter(|l| l.contains(e)).count(),
            1,
            "once: {e}\n{}",
            lines.join("\n")
        );
    }
    let run = grognard(&["validate", "tests/fixtures/footprints/grid.yaml"]);
    assert_eq!(run.code, 1);
    let out = format!("{}{}", run.stdout, run.stderr);
    // prose: the error's words at its file and line.
    assert!(
        out.contains("grid.yaml:6:16: piece type `infantry`: footprints are for the open table"),
        "{out}"
    );
}

fn play(orders: &str) -> Played {
    play_json(
        FACING,
        &format!("tests/fixtures/footprints/{orders}.orders.yaml"),
    )
}

/// The refusal's words, asserted to be of `kind` with nothing applied after it.
fn refused_for<'a>(p: &'a Played, kind: &str) -> &'a str {
    assert_eq!(
        (p.code, p.refusal_kind.as_deref()),
        (1, Some(kind)),
        "{:?}",
        p.refused
    );
    p.refused.as_deref().unwrap_or_default()
}

#[test]
fn a_wheel_costs_the_arc_its_outer_corner_travels() {
    // A 45° wheel about the left front corner of a 6"-wide, 4"-deep base: the outer rear
    // corner, √(6² + 4²) = 7.211" from the pivot, travels the farthest: 7.211 × π/4 =
    // 5.664", 5.67" rounded up. (Its centre moves only 3.54" in a straight line.)
    let p = play("wheel");
    let wheel = p
        .moved_on_table("a")
        .filter(|e| on_table_to(e, 7.707, 21.536, 5.67));
    assert!(wheel.is_some(), "{:?}", p.events);
}

#[test]
fn bases_stay_on_the_table_and_off_each_other() {
    let p = play("overlap");
    // prose (here and below): the refusal's words name what is in the way.
    assert_eq!(
        refused_for(&p, "occupied"),
        "tests/fixtures/footprints/overlap.orders.yaml:3:5: refused: a's bases would overlap b's"
    );
    assert!(p.moved_on_table("a").is_none(), "{:?}", p.events);
    let p = play("edge");
    assert!(
        refused_for(&p, "bad_path")
            .ends_with("refused: a's bases would leave the table (a corner at (-1\", 18\"))"),
        "{:?}",
        p.refused
    );
    // prose: a validation error at its line.
    let run = grognard(&["validate", "tests/fixtures/footprints/overlapping.yaml"]);
    assert_eq!(run.code, 1);
    assert!(
        format!("{}{}", run.stdout, run.stderr)
            .contains("overlapping.yaml:11:11: piece a: a's bases would overlap b's"),
        "{}{}",
        run.stdout,
        run.stderr
    );
}

#[test]
fn a_formation_change_reshapes_about_the_front_edge_and_must_fit() {
    // Line 6" × 4" → column 2" × 12": the front edge stays at y 18, so the centre goes
    // from y 20 to y 24, and the gap to b in front is still 6".
    let view = grognard(&[
        "view",
        FACING,
        "--orders",
        "tests/fixtures/footprints/column.orders.yaml",
        "--side",
        "blue",
        "--json",
    ]);
    let view = json(&view.stdout);
    let (a, names) = (&view["view"]["own"][0], &view["view"]["own_names"][0]);
    assert_eq!(
        (&a["name"], &names["mode"]),
        (&"a".into(), &"column".into()),
        "{view}"
    );
    let centre = serde_json::json!({"x": 10000, "y": 24000});
    assert_eq!(a["place"]["point"]["at"], centre, "{a}");
    let m = json(
        &grognard(&[
            "measure",
            FACING,
            "a",
            "b",
            "--orders",
            "tests/fixtures/footprints/column.orders.yaml",
            "--json",
        ])
        .stdout,
    );
    assert_eq!(m["distance"], 6.0);
    // With d in column behind it there is no room: refused, and a stays in line.
    let p = play("crowded");
    // prose: the words name the unit in the way.
    assert!(
        refused_for(&p, "occupied")
            .ends_with("refused: a cannot take column mode here: a's bases would overlap d's"),
        "{:?}",
        p.refused
    );
    let to_column = |e: &serde_json::Value| e["from"] == "line" && e["to"] == "column";
    assert!(p.has("mode_changed", "d", to_column), "{:?}", p.events);
    assert!(!p.has("mode_changed", "a", |_| true), "{:?}", p.events);
}

#[test]
fn a_unit_just_inside_the_edge_of_woods_sees_out_and_one_deeper_does_not() {
    // Woods with `see_out_within: 1`: a's front edge is 0.9" inside, b's 1.1".
    let scenario = "tests/fixtures/footprints/woods-edge.yaml";
    let a = json(&grognard(&["measure", scenario, "a", "t", "--json"]).stdout);
    assert_eq!(a["a_sees_b"], true);
    assert_eq!(a["b_sees_a"], true);
    let b = json(&grognard(&["measure", scenario, "b", "t", "--json"]).stdout);
    assert_eq!(b["a_sees_b"], false);
    assert_eq!(b["b_sees_a"], false);
}

#[test]
fn threatened_zones_and_the_closest_approach_are_measured_between_bases() {
    // b threatens 4" ahead of its front edge (y 12); no move comes within 2" of it. a's
    // front edge starts 6" away (y 18), its centre 10".
    let scenario = "tests/fixtures/footprints/threats-facing.yaml";
    let p = play_json(scenario, "tests/fixtures/footprints/approach.orders.yaml");
    // Centre to centre the path would pass 5.5" from b: edge to edge it passes 1.5".
    // prose (here and below): the distances are said in the words.
    assert!(
        refused_for(&p, "must_stop")
            .ends_with("refused: a may not come within 2\" of b (the path passes 1½\" from it)"),
        "{:?}",
        p.refused
    );
    let p = play_json(scenario, "tests/fixtures/footprints/zone.orders.yaml");
    // The front edge reaches the zone (4" from b's bases) when the centre is at y 18.
    assert!(
        refused_for(&p, "must_stop").ends_with(
            "refused: a must stop at (10\", 18\"), where it enters the zone b threatens"
        ),
        "{:?}",
        p.refused
    );
}

#[test]
fn a_scenario_may_give_one_piece_bases_of_its_own() {
    // a stands on 3" × 2" bases instead of its type's 6" × 4": its front edge is 1" from
    // its centre, so 10 − 1 − 2 = 7" to b.
    let m = json(
        &grognard(&[
            "measure",
            "tests/fixtures/footprints/own-bases.yaml",
            "a",
            "b",
            "--json",
        ])
        .stdout,
    );
    assert_eq!(m["distance"], 7.0);
    let run = grognard(&["validate", "tests/fixtures/footprints/own-bases-bad.yaml"]);
    assert_eq!(run.code, 1);
    // prose: a validation error at its line.
    assert!(
        format!("{}{}", run.stdout, run.stderr).contains(
            "own-bases-bad.yaml:11:89: footprint width `0mm`: a base's size must be more than 0"
        ),
        "{}{}",
        run.stdout,
        run.stderr
    );
}

#[test]
fn terrain_is_paid_for_where_any_part_of_the_bases_passes() {
    // wood-side: the copse lies 2" east of a's line of advance: its centre misses it, its
    // right-hand bases go through it. wood-between: the copse is narrower than a's line and
    // lies between its centre and its right-hand corner: no corner and not the centre
    // passes through it, the front edge does. Either way the 12" advance costs
    // 12 + 3 = 15" (a point would pay 12).
    for scenario in ["wood-side", "wood-between"] {
        let p = play_json(
            &format!("tests/fixtures/footprints/{scenario}.yaml"),
            "tests/fixtures/footprints/wood-side.orders.yaml",
        );
        // prose: the cost, 15", is said in the words.
        assert!(
            refused_for(&p, "too_far")
                .ends_with("refused: the move costs 15\" but a has 12\" in line mode"),
            "{scenario}: {:?}",
            p.refused
        );
    }
}

#[test]
fn a_screen_out_in_front_is_measured_with_its_bases() {
    // Column mode: the 6" x 4" base, 2" of open ground, then four 2" x 1" stands 1" apart
    // (11" across): one rectangle 11" wide and 4 + 2 + 1 = 7" deep.
    let run = grognard(&["show", "tests/fixtures/footprints/screen.yaml"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // prose: `show`'s summary, and validation errors at their lines.
    assert!(
        run.stdout
            .contains("bases line 6.00\" × 4.00\", column 11.00\" × 7.00\""),
        "{}",
        run.stdout
    );
    let run = grognard(&["validate", "tests/fixtures/footprints/screen-bad.yaml"]);
    assert_eq!(run.code, 1);
    let out = format!("{}{}", run.stdout, run.stderr);
    for e in [
        "screen-bad.yaml:6:45: `ahead` belongs in a footprint's `screen:`",
        "screen-bad.yaml:8:46: a footprint's `screen:` needs `ahead:`",
    ] {
        assert!(out.contains(e), "{e}\n{out}");
    }
}

const CHARGES: &str = "tests/fixtures/footprints/charges.yaml";

/// Plays `orders` (a `charge-*` file) on the charges scenario.
fn charge(orders: &str) -> Played {
    play_json(
        CHARGES,
        &format!("tests/fixtures/footprints/charge-{orders}.orders.yaml"),
    )
}

/// Whether `name` moved on the table from `from` to `to` (inches).
fn charged(p: &Played, name: &str, from: (f64, f64), to: (f64, f64)) -> bool {
    let th = |v: f64| (v * 1000.0).round() as i64;
    let at = |(x, y): (f64, f64)| serde_json::json!({"x": th(x), "y": th(y)});
    p.has("moved_on_table", name, |e| {
        e["from"] == at(from) && e["to"] == at(to)
    })
}

/// The tape measure between `a` and `b` after `orders`.
fn measured_after(orders: &str, a: &str, b: &str) -> serde_json::Value {
    let run = grognard(&[
        "measure",
        CHARGES,
        a,
        b,
        "--orders",
        &format!("tests/fixtures/footprints/charge-{orders}.orders.yaml"),
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    json(&run.stdout)
}

#[test]
fn a_charge_ends_front_edge_to_the_edge_it_faces() {
    // t: 6" × 4", facing south at (24", 24"): its front edge runs along y = 26 from x 21
    // to 27. f (facing north, its front edge 6" south and its centre 2" east of t's) ends
    // lined up where it came from, its front edge's centre on the nearest point of t's
    // front edge, (26", 26"): centre (26", 26" + 2"), facing north.
    let p = charge("front");
    assert_eq!((p.code, &p.refused), (0, &None));
    assert!(
        charged(&p, "f", (26.0, 34.0), (26.0, 28.0)),
        "{:?}",
        p.events
    );
    let m = measured_after("front", "f", "t");
    assert_eq!(m["distance"], 0.0);
    assert_eq!(m["arc_of_b_from_a"], "front");
    assert_eq!(m["arc_of_a_from_b"], "front");
}

#[test]
fn a_charge_on_a_flank_or_the_rear_meets_that_edge() {
    // t faces south, so its right flank is the western edge (x = 21, y 22-26) and its left
    // the eastern (x = 27). l ends 2" west of it facing east, r 2" east facing west, each
    // lined up where it came from (y 23 and 25, both within the 4" edge).
    let p = charge("flanks");
    assert_eq!((p.code, &p.refused), (0, &None));
    assert!(
        charged(&p, "l", (13.0, 23.0), (19.0, 23.0)),
        "{:?}",
        p.events
    );
    assert!(
        charged(&p, "r", (35.0, 25.0), (29.0, 25.0)),
        "{:?}",
        p.events
    );
    // Each now has t dead ahead, touching. (Its 6" front overhangs t's 4" flank and
    // reaches the line of t's front edge, y = 26 — r past it: judged from the edges, t has
    // it in front, as any unit reaching its front region.)
    for unit in ["l", "r"] {
        let m = measured_after("flanks", unit, "t");
        assert_eq!(m["distance"], 0.0, "{unit}");
        assert_eq!(m["arc_of_b_from_a"], "front", "{unit}");
        assert_eq!(m["arc_of_a_from_b"], "front", "{unit}");
    }
    // b, behind t, meets its rear edge (y = 22), facing south.
    let p = charge("rear");
    assert_eq!((p.code, &p.refused), (0, &None));
    assert!(
        charged(&p, "b", (24.0, 14.0), (24.0, 20.0)),
        "{:?}",
        p.events
    );
    let m = measured_after("rear", "b", "t");
    assert_eq!(m["distance"], 0.0);
    assert_eq!(m["arc_of_a_from_b"], "rear");
}

#[test]
fn a_charge_with_no_room_to_make_contact_is_refused_and_changes_nothing() {
    let p = charge("blocked");
    // prose: the words name what is in the way.
    assert_eq!(
        refused_for(&p, "occupied"),
        "tests/fixtures/footprints/charge-blocked.orders.yaml:4:5: refused: k cannot reach contact with u: k's bases would overlap z's"
    );
    assert!(
        p.moved_on_table("k").is_none() && !p.has("acted", "k", |_| true),
        "{:?}",
        p.events
    );
    // A ruleset may ask for contact only where there is something to contact, on a table.
    let bad = grognard(&["validate", "tests/fixtures/footprints/charge-bad.yaml"]);
    assert_eq!(bad.code, 1, "{}", bad.stdout);
    let out = format!("{}{}", bad.stdout, bad.stderr);
    // prose: a validation error at its line.
    assert!(
        out.contains("charge-bad.yaml:9:14: `contact: true` needs a target to contact"),
        "{out}"
    );
}
