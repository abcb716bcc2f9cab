//! The `hex-leaders` messages of the outside audit after issue 34 (docs/audits/hex-leaders.md,
//! #34-#40): a refusal, an empty reach and the log say the rule in its own words. Each test
//! cites the line of `../shared/seeds/002_*.txt` it speaks for and was worked by hand.

use grognard_kernel::action::Event;

use super::{Table, attached, end_phase, flag, mv, reach, refused, table, table_with};
use crate::util::grognard;

/// The 9 × 7 board with half-hexes on all four edges, the baseline half-hexes open, and
/// `options` besides.
fn open_baselines(options: &str, pieces: &str) -> Table {
    table_with(
        "  half_hexes: { sides: true, baselines: true }\n",
        &format!("baseline_half_hexes: true, {options}"),
        pieces,
    )
}

fn notes(t: &Table) -> Vec<String> {
    t.game
        .log()
        .iter()
        .filter_map(|e| match e {
            Event::Note { text } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

// ---- M1: a terrain stop names the terrain ----

#[test]
fn a_path_on_through_woods_or_a_town_is_refused_naming_the_terrain() {
    // 002 l.14: some terrain may keep a unit from moving its full distance; the ruleset's
    // reading (notes) is that woods and towns end a move. By hand: (4,4) → woods (4,3) →
    // (4,2) is refused at the woods; (6,4) → town (6,3) → (6,2) at the town; the cavalry
    // leader (5,4) → woods (4,3) → (4,2) too. Before: "(the ruleset's stop hook ends the
    // move here)" for all three.
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_circle, at: [4, 4] }\n  - { id: v, side: blue, type: infantry_circle, at: [6, 4] }\n  - { id: cl, side: blue, type: cavalry_leader, at: [5, 4] }\n",
    );
    for (who, path, words) in [
        (
            "u",
            [(4, 3), (4, 2)],
            "u must stop at (4,3) (woods end a move)",
        ),
        (
            "v",
            [(6, 3), (6, 2)],
            "v must stop at (6,3) (a town ends a move)",
        ),
        (
            "cl",
            [(4, 3), (4, 2)],
            "cl must stop at (4,3) (woods end a move)",
        ),
    ] {
        let r = refused(mv(&mut t, "blue", who, &path));
        assert!(r.message.contains(words), "{}", r.message);
    }
    // The move that ends there says so in the log.
    let events = mv(&mut t, "blue", "u", &[(4, 3)]).expect("into the woods");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Moved { stopped: Some(s), .. } if s == "woods end a move")),
        "{events:?}"
    );
}

// ---- M3: leaving by the wrong baseline names the baseline rule ----

#[test]
fn a_leader_at_the_enemy_baseline_is_told_he_escapes_only_off_his_own() {
    // 002 l.48: a leader may move off *his army's* baseline. Blue's is south; (3,0) is a
    // half-hex of red's (north) baseline. Before: "(3,0) is a half-hex on a baseline; pieces
    // may enter it only where the scenario allows", and with the half-hexes open just
    // "(3,-1) is off the board".
    let pieces = "  - { id: il, side: blue, type: infantry_leader, at: [3, 1] }\n";
    let mut closed = table(pieces);
    let r = refused(mv(&mut closed, "blue", "il", &[(3, 0), (3, -1)]));
    assert!(
        r.message
            .contains("(3,0) is a half-hex on a baseline; il may leave the board only across its own side's baseline, not red's"),
        "{}",
        r.message
    );
    let mut open = open_baselines("", pieces);
    let r = refused(mv(&mut open, "blue", "il", &[(3, 0), (3, -1)]));
    assert!(
        r.message.contains(
            "(3,-1) is off the board: il may leave the board only across its own side's baseline, not red's"
        ),
        "{}",
        r.message
    );
}

#[test]
fn a_unit_at_its_own_baseline_is_told_units_exit_only_off_the_enemys() {
    // 002 l.9, the reading `units_exit_enemy_baseline` (notes): units leave only across the
    // enemy's baseline. Blue's own is south (row 6 half-hexes). Before: the half-hex
    // refusal of a closed baseline, and "(3,7) is off the board" with the half-hexes open.
    let pieces = "  - { id: u, side: blue, type: infantry_circle, at: [3, 5] }\n";
    let mut closed = table_with(
        "  half_hexes: { sides: true, baselines: true }\n",
        "units_exit_enemy_baseline: true",
        pieces,
    );
    let r = refused(mv(&mut closed, "blue", "u", &[(3, 6), (3, 7)]));
    assert!(
        r.message.contains(
            "(3,6) is a half-hex on a baseline; u may leave the board only across the enemy's baseline, not blue's"
        ),
        "{}",
        r.message
    );
    let mut open = open_baselines("units_exit_enemy_baseline: true", pieces);
    let r = refused(mv(&mut open, "blue", "u", &[(3, 6), (3, 7)]));
    assert!(
        r.message.contains(
            "(3,7) is off the board: u may leave the board only across the enemy's baseline, not blue's"
        ),
        "{}",
        r.message
    );
    // Without the option the unit leaves by no baseline and the old words stand.
    let mut none = table(pieces);
    let r = refused(mv(&mut none, "blue", "u", &[(3, 6), (3, 7)]));
    assert!(
        r.message
            .contains("pieces may enter it only where the scenario allows"),
        "{}",
        r.message
    );
}

// ---- M2: an empty reach says why ----

#[test]
fn an_empty_reach_says_the_piece_moved_or_was_carried() {
    // 002 l.5 (a unit moves once a turn) and l.36-37 (a leader with a unit is ordered with
    // it, one order). By hand: u (3,4) → (3,3) carries l; neither has a place left. Before:
    // "can reach 0 places" with no note (JSON note null).
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: l, side: blue, type: infantry_leader, at: [3, 4], attached_to: u }\n",
    );
    mv(&mut t, "blue", "u", &[(3, 3)]).expect("u moves with l");
    assert!(reach(&mut t, "u").is_empty());
    assert!(reach(&mut t, "l").is_empty());
    let u = t.game.piece_by_name("u").expect("u").id;
    let l = t.game.piece_by_name("l").expect("l").id;
    assert_eq!(
        t.game.why_not_moving(u).as_deref(),
        Some("u has already moved")
    );
    assert_eq!(
        t.game.why_not_moving(l).as_deref(),
        Some("l has already moved: it was carried with u, which moved")
    );
    end_phase(&mut t, "blue");
    // The binary prints it, in text and JSON.
    let dir = tempfile::tempdir().expect("tempdir");
    let (s, o) = super::rulings::files(
        dir.path(),
        "",
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: l, side: blue, type: infantry_leader, at: [3, 4], attached_to: u }\n",
        "  - { side: blue, move: { piece: u, path: [[3, 3]] } }\n",
    );
    let run = grognard(&["reach", &s, "--orders", &o, "--unit", "l"]);
    assert!(
        run.stdout
            .contains("note: l has already moved: it was carried with u, which moved"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    let run = grognard(&["reach", &s, "--orders", &o, "--unit", "u", "--json"]);
    // prose: the note's words (in reach --json) are what this test is about.
    assert!(
        run.stdout.contains("\"note\": \"u has already moved\""),
        "{}{}",
        run.stdout,
        run.stderr
    );
}

// ---- M4: the log shows leader attachment ----

#[test]
fn the_log_says_who_rode_along_and_who_split_off() {
    // 002 l.36: a leader with a unit moves with it, unless ordered to split (l.36, l.41).
    // By hand: u (3,4) → (3,3) carries l: the log says l went with u. m (5,4) carries k;
    // k ordered alone (5,4) → (5,3) splits: "k detached" before his move, m stays.
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: l, side: blue, type: infantry_leader, at: [3, 4], attached_to: u }\n  - { id: m, side: blue, type: infantry_circle, at: [5, 4] }\n  - { id: k, side: blue, type: infantry_leader, at: [5, 4], attached_to: m }\n",
    );
    mv(&mut t, "blue", "u", &[(3, 3)]).expect("u carries l");
    assert_eq!(notes(&t), ["l went with u"]);
    let events = mv(&mut t, "blue", "k", &[(5, 3)]).expect("k splits");
    let k = t.game.piece_by_name("k").expect("k").id;
    assert!(
        matches!(events.first(), Some(Event::Attached { piece, to: None }) if *piece == k),
        "{events:?}"
    );
    assert_eq!(attached(&t, "k"), None);
    assert!(!flag(&t, "k", "escaped"));
}

// ---- Readings the audit asked to state (in the ruleset's notes) ----

#[test]
fn a_cavalry_unit_neither_enters_nor_passes_a_lone_infantry_leader() {
    // 002 l.11 (no unit onto or through a friendly piece's hex) with l.16 (cavalry joins
    // only a lone cavalry leader): our reading, stated in the notes. By hand: k (3,4) and
    // the lone infantry leader il at (3,3): k may not stop there nor go on through it;
    // (3,2) is still reached round it, via (2,3).
    let mut t = table(
        "  - { id: k, side: blue, type: cavalry_square, at: [3, 4] }\n  - { id: il, side: blue, type: infantry_leader, at: [3, 3] }\n",
    );
    let places: Vec<(i32, i32)> = reach(&mut t, "k").into_iter().map(|(c, _)| c).collect();
    assert!(!places.contains(&(3, 3)), "{places:?}");
    assert!(places.contains(&(3, 2)), "{places:?}");
    refused(mv(&mut t, "blue", "k", &[(3, 3)]));
    refused(mv(&mut t, "blue", "k", &[(3, 3), (3, 2)]));
}

#[test]
fn an_open_baseline_half_hex_costs_a_full_hex_and_the_step_off_nothing_more() {
    // 002 l.52 (the baseline half-hexes are not counted as a full hex), our reading under
    // `baseline_half_hexes` (notes): entering a half-hex ((2,6) or (3,6), below il's (2,5)
    // on an odd row) costs a hex, and going along the row from il2's (5,6) to (4,6) or (6,6)
    // a hex each; the step off from a half-hex costs 0, so il escapes at cost 1, and il2,
    // already on one, escapes for 0.
    let mut t = open_baselines(
        "",
        "  - { id: il, side: blue, type: infantry_leader, at: [2, 5] }\n  - { id: il2, side: blue, type: infantry_leader, at: [5, 6] }\n",
    );
    let r = reach(&mut t, "il");
    for (cell, cost) in [((2, 6), "1"), ((3, 6), "1"), ((2, 7), "1")] {
        assert!(r.contains(&(cell, cost.to_owned())), "{cell:?} {r:?}");
    }
    let r = reach(&mut t, "il2");
    for (cell, cost) in [((4, 6), "1"), ((6, 6), "1"), ((5, 7), "0")] {
        assert!(r.contains(&(cell, cost.to_owned())), "{cell:?} {r:?}");
    }
    mv(&mut t, "blue", "il2", &[(5, 7)]).expect("off for nothing");
    assert!(flag(&t, "il2", "escaped"));
}

#[test]
fn the_second_audits_positions_answer_as_the_page_says() {
    // docs/audits/hex-leaders.md #34-#42: each row's command from the repository root and a
    // piece of the answer the page gives (worked by hand there).
    let d = "tests/fixtures/audits/hex-leaders";
    let f = |name: &str| format!("{d}/{name}");
    let out = |args: &[&str]| {
        let r = grognard(args);
        format!("{}{}", r.stdout, r.stderr)
    };
    let play = |s: &str, o: &str, opts: &[&str]| {
        let (s, o) = (f(s), f(o));
        let mut args = vec!["play", s.as_str(), "--orders", o.as_str()];
        for opt in opts {
            args.extend(["--option", opt]);
        }
        out(&args)
    };
    for (got, want) in [
        (
            play("y1.yaml", "y1b.orders.yaml", &[]),
            "(8,3) is a half-hex on the side edge",
        ),
        (
            play("f8.yaml", "f8.orders.yaml", &[]),
            "IL2 moved (2,8) → (2,9), cost 0 (stopped: left the board)",
        ),
        (
            play("g1.yaml", "g1_tthru.orders.yaml", &[]),
            "C2 must stop at (6,4) (a town ends a move)",
        ),
        (
            play(
                "f1.yaml",
                "f1_enemybl.orders.yaml",
                &["baseline_half_hexes=on"],
            ),
            "(3,-1) is off the board: IL5 may leave the board only across its own side's baseline, not red's",
        ),
        (
            play(
                "b3.yaml",
                "b3_own.orders.yaml",
                &["units_exit_enemy_baseline=on"],
            ),
            "C3 may leave the board only across the enemy's baseline, not blue's",
        ),
        (
            out(&[
                "reach",
                &f("e1.yaml"),
                "--unit",
                "IL",
                "--orders",
                &f("e1_c1.orders.yaml"),
            ]),
            "note: IL has already moved: it was carried with C, which moved",
        ),
        (
            play("e1.yaml", "e1_c1.orders.yaml", &[]),
            "note: IL went with C",
        ),
        (play("e1.yaml", "e1_split.orders.yaml", &[]), "IL detached"),
    ] {
        assert!(got.contains(want), "missing `{want}` in\n{got}");
    }
}
