//! Issue 36, the open table: `after_move` flags set by open-table moves, a charge refused
//! where it would end in terrain the charger cannot enter, and a move that changes
//! nothing refused.

use crate::util::{grognard, has_event, on_table_to, play_json};

const DIR: &str = "tests/fixtures/open36";

fn play(scenario: &str, orders: &str) -> crate::util::Run {
    grognard(&[
        "play",
        &format!("{DIR}/{scenario}.yaml"),
        "--orders",
        &format!("{DIR}/{orders}.orders.yaml"),
    ])
}

#[test]
fn an_open_table_move_sets_the_after_move_flags_of_its_type() {
    // a goes 8" north from (10, 24) to (10, 16): its point ends inside the Copse (x 4–16,
    // y 10–18), and its 6" × 4" bases (y 14–18) pass over it: 8" + 3" = 11" of 12". Both
    // flags are set. c goes 6" in the open: only `marched`.
    let played = play_json(
        &format!("{DIR}/flags.yaml"),
        &format!("{DIR}/flags.orders.yaml"),
    );
    assert_eq!(played.code, 0, "{:?}", played.refused);
    let a = played.moved_on_table("a").expect("a moves");
    assert!(on_table_to(a, 10.0, 16.0, 11.0), "{a}");
    let c = played.moved_on_table("c").expect("c moves");
    assert!(on_table_to(c, 30.0, 24.0, 6.0), "{c}");
    assert!(played.flag("a", "marched", true).is_some());
    assert!(played.flag("a", "in_cover", true).is_some());
    assert!(played.flag("c", "marched", true).is_some());
    assert_eq!(
        played.flag("c", "in_cover", true),
        None,
        "{:?}",
        played.events
    );
    // prose: the lines `play` prints for them.
    let out = play("flags", "flags").stdout;
    for line in [
        "a moved (10\", 24\") → (10\", 16\"), 11\"",
        "a is in_cover",
        "c has marched",
    ] {
        assert!(out.contains(line), "{line}:\n{out}");
    }
}

#[test]
fn a_charge_that_would_end_in_terrain_the_charger_cannot_enter_is_refused() {
    // k's front edge's centre goes to (24, 22) on t's front edge; k is 1.969" deep, so its
    // centre is at (24, 21.016) and its bases cover y 20.031–22: inside the Thicket (y
    // 18–22), which horse may not enter. Refused, and k stays where it was.
    let run = play("thicket", "thicket-horse");
    assert_eq!(run.code, 1, "{}", run.stdout);
    // prose: the words name the terrain.
    assert!(
        run.stderr.contains(
            "thicket-horse.orders.yaml:3:5: refused: k cannot reach contact with t: k would end in Thicket, which horse cannot enter"
        ),
        "{}",
        run.stderr
    );
    let horse = play_json(
        &format!("{DIR}/thicket.yaml"),
        &format!("{DIR}/thicket-horse.orders.yaml"),
    );
    assert_eq!(
        (horse.code, horse.refusal_kind.as_deref()),
        (1, Some("impassable"))
    );
    assert!(horse.moved_on_table("k").is_none(), "{:?}", horse.events);
    // The same placement for infantry (foot pays 3" for a wood, so may stand in one): i's
    // front edge 8" from u's at y = 22; i is 4" deep, so it ends centred at (40, 20).
    let foot = play_json(
        &format!("{DIR}/thicket.yaml"),
        &format!("{DIR}/thicket-foot.orders.yaml"),
    );
    assert_eq!(foot.code, 0, "{:?}", foot.refused);
    let i = foot.moved_on_table("i").expect("i charges");
    assert_eq!(
        (&i["to"]["x"], &i["to"]["y"]),
        (&40000.into(), &20000.into()),
        "{i}"
    );
}

#[test]
fn a_move_to_where_the_piece_stands_facing_as_it_faces_is_refused() {
    let played = play_json(
        &format!("{DIR}/flags.yaml"),
        &format!("{DIR}/still.orders.yaml"),
    );
    assert_eq!(
        (played.code, played.refusal_kind.as_deref()),
        (1, Some("bad_path"))
    );
    assert!(played.moved_on_table("c").is_none(), "{:?}", played.events);
    let run = play("flags", "still");
    assert_eq!(run.code, 1, "{}", run.stdout);
    // prose: the words say why nothing would change.
    assert!(
        run.stderr.contains(
            "still.orders.yaml:3:5: refused: c already stands at (30\", 30\") facing 270°: the move changes nothing"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn an_after_move_entry_that_cannot_apply_on_an_open_table_is_named_at_its_line() {
    let run = grognard(&["validate", &format!("{DIR}/bad-steps.yaml")]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let out = format!("{}{}", run.stdout, run.stderr);
    // prose: a validation error at its line.
    assert!(
        out.contains(
            "bad-steps.yaml:7:30: an `after_move` entry with `min_steps: 2` never applies on an open table, where a move counts as one step"
        ),
        "{out}"
    );
}

#[test]
fn regions_on_an_open_table_are_circles_and_polygons_that_hold_counts() {
    // town: a circle of 4" about (20, 20); a's point (22, 23) is √13 = 3.61" from it.
    // ridge: the triangle (26, 24), (34, 24), (30, 12); r's point (30, 20) lies between
    // its edges at y = 20 (x 27.33 to 32.67). Blue holds the town, red the ridge.
    let played = play_json(
        &format!("{DIR}/town.yaml"),
        &format!("{DIR}/end.orders.yaml"),
    );
    let won = serde_json::json!({
        "event": "game_result",
        "points": [["blue", 3], ["red", 2]],
        "why": "blue wins on points (blue 3, red 2)",
        "winner": "blue",
    });
    assert!(played.events.contains(&won), "{:?}", played.events);
    let run = play("town", "end");
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    // prose: `play` prints the result.
    assert!(
        run.stdout
            .contains("result: blue wins on points (blue 3, red 2)"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_region_of_the_wrong_kind_for_its_board_says_which_kind_the_board_takes() {
    // prose: validation errors at their lines.
    let run = grognard(&["validate", &format!("{DIR}/bad-regions.yaml")]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let out = format!("{}{}", run.stdout, run.stderr);
    for e in [
        "bad-regions.yaml:8:5: region `town`: this board is an open table, whose regions are areas, not cells",
        "bad-regions.yaml:9:5: region `ring`: give either `corners:` (at least 3) or `centre:` and `radius:`",
        "bad-regions.yaml:10:5: region `shard` needs at least 3 corners in inches",
        "bad-regions.yaml:11:5: region `away`: (60\", 20\") is off the table",
    ] {
        assert!(out.contains(e), "{e}\n{out}");
    }
    let run = grognard(&["validate", &format!("{DIR}/grid-region.yaml")]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let out = format!("{}{}", run.stdout, run.stderr);
    assert!(
        out.contains("grid-region.yaml:9:5: region `town`: this board is a grid, whose regions are lists of cells"),
        "{out}"
    );
}

#[test]
fn a_free_pivot_turns_for_nothing_and_a_fixed_one_for_its_cost() {
    // Wheeling, an about-face in place turns the 6" × 4" bases 180° about their centre:
    // each corner, √(3² + 2²) = 3.606" out, travels a half circle, π × 3.606 = 11.33".
    let played = |scenario: &str, orders: &str| {
        let p = play_json(
            &format!("{DIR}/{scenario}.yaml"),
            &format!("{DIR}/{orders}.orders.yaml"),
        );
        assert_eq!((p.code, &p.refused), (0, &None));
        p
    };
    let moved = |p: &crate::util::Played, name: &str, x: f64, y: f64, inches: f64| {
        let m = p.moved_on_table(name);
        assert!(
            m.is_some_and(|e| on_table_to(e, x, y, inches)),
            "{name}: {:?}",
            p.events
        );
    };
    moved(&played("pivot-wheel", "about-face"), "a", 10.0, 30.0, 11.33);
    // Free in line: the same about-face costs 0". In column a turn costs 2": c's 4"
    // straight move and about-face, 6". Cavalry 1½": k's 4" and quarter turn, 5½".
    let p = played("pivot", "pivot");
    moved(&p, "a", 10.0, 30.0, 0.0);
    assert!(
        p.has("faced", "a", |e| e["facing"] == "90°"),
        "{:?}",
        p.events
    );
    moved(&p, "c", 30.0, 26.0, 6.0);
    moved(&p, "k", 50.0, 26.0, 5.5);
}

#[test]
fn the_contact_flag_is_kept_while_bases_touch_an_enemys() {
    // p's bases (x 8–12) touch q's (x 12–16) as the game starts. i's charge puts its front
    // edge on u's, along y = 22; u's step back to (40, 30) leaves a 6" gap.
    let played = play_json(
        &format!("{DIR}/melee-scn.yaml"),
        &format!("{DIR}/melee.orders.yaml"),
    );
    assert_eq!(played.code, 0, "{:?}", played.refused);
    let events = &played.events;
    let at = |found: Option<usize>, what: &str| {
        found.unwrap_or_else(|| panic!("no event: {what}, in {events:?}"))
    };
    let charge = at(played.find("acted", "i", |_| true), "i's charge");
    let i_moved = at(
        played.find("moved_on_table", "i", |e| e["to"]["y"] == 20000),
        "i moves to (40, 20)",
    );
    let u_moved = at(
        played.find("moved_on_table", "u", |e| e["to"]["y"] == 30000),
        "u steps back to (40, 30)",
    );
    assert!(at(played.flag("p", "engaged", true), "p engaged") < charge);
    assert!(at(played.flag("q", "engaged", true), "q engaged") < charge);
    assert!(i_moved < at(played.flag("i", "engaged", true), "i engaged"));
    assert!(charge < at(played.flag("u", "engaged", true), "u engaged"));
    assert!(u_moved < at(played.flag("i", "engaged", false), "i disengaged"));
    assert!(u_moved < at(played.flag("u", "engaged", false), "u disengaged"));
    // p and q never part.
    assert_eq!(played.flag("p", "engaged", false), None, "{events:?}");
    // prose: the line `play` prints for a charge.
    let out = play("melee-scn", "melee").stdout;
    assert!(out.contains("i charge at u"), "{out}");
}

#[test]
fn with_pieces_blocking_sight_a_unit_between_two_hides_them_and_measure_says_so() {
    // s's bases (x 7–13, y 18–22) lie across every line from a's front edge (x 7–13,
    // y 28) to t's corners and centre (x 7–13, y 8–12).
    let seen = |scenario: &str| {
        let run = grognard(&[
            "measure",
            &format!("{DIR}/{scenario}.yaml"),
            "a",
            "t",
            "--json",
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let m: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
        (m["a_sees_b"].clone(), m["b_sees_a"].clone())
    };
    assert_eq!(seen("sight"), (false.into(), false.into()));
    assert_eq!(seen("sight-plain"), (true.into(), true.into()));
}

#[test]
fn pivots_and_sight_written_wrong_are_named_at_their_line() {
    let run = grognard(&["validate", &format!("{DIR}/bad-melee.yaml")]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let out = format!("{}{}", run.stdout, run.stderr);
    for e in [
        "bad-melee.yaml:7:5: pivot of `infantry`: `spin` is not `wheel`, `free` or a cost of 0 or more",
        // A pivot's mode is looked up as every mode is, at its own key.
        "bad-melee.yaml:8:16: unknown mode `skirmish`\n  help: known mode names: line, column",
        "bad-melee.yaml:9:17: unknown flag `locked`",
    ] {
        assert!(out.contains(e), "{e}\n{out}");
    }
    let run = grognard(&["validate", &format!("{DIR}/grid-sight.yaml")]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let out = format!("{}{}", run.stdout, run.stderr);
    assert!(
        out.contains("`sight.pieces_block` is for open tables; on a grid every piece blocks sight"),
        "{out}"
    );
}

#[test]
fn a_hook_asks_whether_a_unit_stands_in_an_open_table_region() {
    // a ends at (22, 21), √(2² + 1²) = 2.24" from the town's centre (radius 4"): in it.
    // r ends at (34, 20), 14" from it: outside.
    // The hook's notes are its own words, asserted as the events it wrote.
    let played = play_json(
        &format!("{DIR}/town-hook-scn.yaml"),
        &format!("{DIR}/town-hook.orders.yaml"),
    );
    assert_eq!((played.code, &played.refused), (0, &None));
    let note = |text: &str| has_event(&played.events, "note", &[("text", text.into())]);
    assert!(
        note("a is in the town") && note("r is outside the town"),
        "{:?}",
        played.events
    );
}

/// `pinned_by` holds a piece on an open table as on a grid (found by the outside designer's
/// check): p and q are set up touching, so both are `engaged`, and with `pinned_by:
/// [engaged]` p may not step back — `play` refuses what `legal` and `reach` already left
/// out, and nothing changes.
#[test]
fn a_pinned_piece_may_not_move_on_an_open_table() {
    let out = play("pinned-scn", "pinned");
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    // prose: the words name the flag that holds it.
    assert!(
        out.stderr.contains("refused: p cannot move: it is engaged"),
        "{}",
        out.stderr
    );
    let played = play_json(
        &format!("{DIR}/pinned-scn.yaml"),
        &format!("{DIR}/pinned.orders.yaml"),
    );
    assert_eq!(
        (played.code, played.refusal_kind.as_deref()),
        (1, Some("already_used"))
    );
    assert!(played.moved_on_table("p").is_none(), "{:?}", played.events);
    let legal = grognard(&[
        "legal",
        &format!("{DIR}/pinned-scn.yaml"),
        "--side",
        "blue",
        "--json",
    ]);
    let legal: serde_json::Value = serde_json::from_str(&legal.stdout).expect("legal --json");
    let moves_of = |piece: &str| {
        legal["orders"]
            .as_array()
            .expect("orders")
            .iter()
            .filter(|o| o["move_to"]["piece"] == piece)
            .count()
    };
    // Blue's other piece may move; p may not.
    assert!(moves_of("i") > 0, "{legal}");
    assert_eq!(moves_of("p"), 0, "{legal}");
}
