//! Issue 36, the open table: `after_move` flags set by open-table moves, a charge refused
//! where it would end in terrain the charger cannot enter, and a move that changes
//! nothing refused.

use crate::util::grognard;

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
    let run = play("flags", "flags");
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let out = &run.stdout;
    for line in [
        "a moved (10\", 24\") → (10\", 16\"), 11\"",
        "a is marched",
        "a is in_cover",
        "c moved (30\", 30\") → (30\", 24\"), 6\"",
        "c is marched",
    ] {
        assert!(out.contains(line), "{line}:\n{out}");
    }
    assert!(!out.contains("c is in_cover"), "{out}");
}

#[test]
fn a_charge_that_would_end_in_terrain_the_charger_cannot_enter_is_refused() {
    // k's front edge's centre goes to (24, 22) on t's front edge; k is 1.969" deep, so its
    // centre is at (24, 21.016) and its bases cover y 20.031–22: inside the Thicket (y
    // 18–22), which horse may not enter. Refused, and k stays where it was.
    let run = play("thicket", "thicket-horse");
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stderr.contains(
            "thicket-horse.orders.yaml:3:5: refused: k cannot reach contact with t: k would end in Thicket, which horse cannot enter"
        ),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("k moved"), "{}", run.stdout);
    // The same placement for infantry (foot pays 3" for a wood, so may stand in one): i's
    // front edge 8" from u's at y = 22; i is 4" deep, so it ends centred at (40, 20).
    let run = play("thicket", "thicket-foot");
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("i moved (40\", 12\") → (40\", 20\")"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_move_to_where_the_piece_stands_facing_as_it_faces_is_refused() {
    let run = play("flags", "still");
    assert_eq!(run.code, 1, "{}", run.stdout);
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
    let run = play("town", "end");
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("result: blue wins on points (blue 3, red 2)"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_region_of_the_wrong_kind_for_its_board_says_which_kind_the_board_takes() {
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
