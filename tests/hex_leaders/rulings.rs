//! The `hex-leaders` rulings of issue 34: what a scenario may set up (leaders in a unit's
//! hex, one leader per hex, who may lead whom, half-hexes), the banner a leader carried off
//! the board gives, and the words `reach` and a `face` order answer with. Each test cites
//! the line of `../shared/seeds/002_*.txt` it rules on and was worked by hand.

use grognard_kernel::action::{Action, Event, RefusalKind};
use grognard_kernel::geometry::Facing;
use grognard_kernel::piece::Place;
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::scenario_from_text;

use super::{Table, attached, cell_of, end_phase, flag, id, mv, order, reach, refused, ruleset};
use crate::util::{grognard, json_of, play_json_in, root};

/// The scenario text of the module's usual 9 × 7 board (half-hexes on all four edges),
/// with `options` and `pieces`; the first piece is on line 13.
fn scenario(options: &str, pieces: &str) -> String {
    format!(
        "scenario: t\nruleset: hex-leaders\noptions: {{ {options} }}\nboard:\n  cols: 9\n  rows: 7\n  half_hexes: {{ sides: true, baselines: true }}\n  terrain: {{ woods: [[4, 3]], town: [[6, 3]] }}\nsides:\n  blue: {{ baseline: south }}\n  red: {{ baseline: north }}\npieces:\n{pieces}"
    )
}

/// The game the scenario starts, or its diagnostics as printed (`t.yaml:LINE:COL: ...`).
fn start(options: &str, pieces: &str) -> Result<Table, String> {
    let r = ruleset();
    let text = scenario(options, pieces);
    let s = scenario_from_text("t.yaml", &text, &r).map_err(|d| d.to_string())?;
    let mut hooks = LuaHooks::new(&r, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let game = s.start(None, &[], &mut hooks).map_err(|d| d.to_string())?;
    Ok(Table { game, hooks })
}

fn started(options: &str, pieces: &str) -> Table {
    start(options, pieces).unwrap_or_else(|e| panic!("{e}"))
}

fn set_up_error(options: &str, pieces: &str) -> String {
    match start(options, pieces) {
        Ok(_) => panic!("the scenario should be refused:\n{pieces}"),
        Err(e) => e,
    }
}

/// Writes a scenario file (and an orders file) into `dir`, for the binary.
pub(super) fn files(
    dir: &std::path::Path,
    options: &str,
    pieces: &str,
    orders: &str,
) -> (String, String) {
    let text = scenario(options, pieces).replace(
        "ruleset: hex-leaders\n",
        &format!(
            "ruleset: {}\n",
            root().join("rulesets/hex-leaders.yaml").display()
        ),
    );
    let s = dir.join("s.yaml");
    let o = dir.join("s.orders.yaml");
    std::fs::write(&s, text).expect("write");
    std::fs::write(&o, format!("orders:\n{orders}")).expect("write");
    (
        s.to_str().expect("utf-8").to_owned(),
        o.to_str().expect("utf-8").to_owned(),
    )
}

// ---- Item 1: a leader in a unit's hex moves with it ----

#[test]
fn a_leader_set_up_in_a_units_hex_is_with_it_and_rides_with_it() {
    // 002 l.36: a leader in the same hex as a friendly unit moves with the unit when it is
    // ordered. Reading: a scenario that places him there without `attached_to` means him to
    // be with it, so he is attached at set-up (`joins_at_set_up`). By hand: u goes (3,4) →
    // (3,3) → (3,2), 2 hexes, and l with it; being carried is his move for the turn.
    let mut t = started(
        "",
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: l, side: blue, type: infantry_leader, at: [3, 4] }\n",
    );
    assert_eq!(attached(&t, "l").as_deref(), Some("u"));
    assert!(
        t.game.log().contains(&Event::Attached {
            piece: id(&t, "l"),
            to: Some(id(&t, "u")),
        }),
        "the set-up says he is with u: {:?}",
        t.game.log()
    );
    mv(&mut t, "blue", "u", &[(3, 3), (3, 2)]).expect("the unit moves");
    assert_eq!(cell_of(&t, "l"), Some((3, 2)), "he is not left behind");
    assert!(reach(&mut t, "l").is_empty(), "that was his move too");
    // A cavalry leader set up with cavalry, the other way round in the file, likewise.
    let t = started(
        "",
        "  - { id: cl, side: blue, type: cavalry_leader, at: [5, 4] }\n  - { id: k, side: blue, type: cavalry_square, at: [5, 4] }\n",
    );
    assert_eq!(attached(&t, "cl").as_deref(), Some("k"));
}

#[test]
fn the_binary_shows_the_leader_set_up_with_his_unit_and_moving_with_it() {
    // 002 l.36, through `play --json`: the set-up attaches him to the unit, and the unit's
    // move takes him along (the referee's view has him at (3,2), none left at (3,4)).
    let dir = tempfile::tempdir().expect("tempdir");
    let (s, o) = files(
        dir.path(),
        "",
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: l, side: blue, type: infantry_leader, at: [3, 4] }\n",
        "  - { side: blue, move: { piece: u, path: [[3, 3], [3, 2]] } }\n",
    );
    let run = grognard(&["validate", &s]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let played = play_json_in(dir.path(), &s, &o, &[]);
    assert_eq!(played.code, 0, "{:?}", played.refused);
    let u = played.piece("u");
    assert!(
        played.has("attached", "l", |e| e["to"] == u),
        "{:?}",
        played.events
    );
    let view = json_of(&grognard(&[
        "view",
        &s,
        "--orders",
        &o,
        "--referee",
        "--json",
    ]));
    let places: Vec<(&str, &serde_json::Value)> = (view["state"]["pieces"].as_array())
        .unwrap_or_else(|| panic!("no pieces: {view}"))
        .iter()
        .map(|p| (p["name"].as_str().unwrap_or_default(), &p["place"]))
        .collect();
    let at = |col: i64, row: i64| serde_json::json!({ "cell": { "col": col, "row": row } });
    assert_eq!(places, [("u", &at(3, 2)), ("l", &at(3, 2))], "{view}");
}

// ---- Item 2: who may be with whom, and where pieces may be set up ----

#[test]
fn a_leader_attached_to_a_leader_is_refused_at_his_line() {
    // 002 l.47: only one leader may occupy a hex, so no leader is with another leader. By
    // hand: l2 is the second piece, on line 14 of the scenario.
    let e = set_up_error(
        "",
        "  - { id: l1, side: blue, type: infantry_leader, at: [3, 4] }\n  - { id: l2, side: blue, type: cavalry_leader, at: [3, 4], attached_to: l1 }\n",
    );
    assert!(e.starts_with("t.yaml:14:"), "{e}");
    // prose: the error names the piece and why.
    assert!(e.contains("l2"), "{e}");
    assert!(e.contains("leader"), "{e}");
    // Two lone leaders in one hex: refused by the leaders' stacking (one per hex), at the
    // first of them.
    let e = set_up_error(
        "",
        "  - { id: l1, side: blue, type: infantry_leader, at: [3, 4] }\n  - { id: l2, side: blue, type: cavalry_leader, at: [3, 4] }\n",
    );
    assert!(e.starts_with("t.yaml:13:"), "{e}");
    // prose: the stacking limit named.
    assert!(e.contains("over the limit of 1"), "{e}");
    // A second leader set up with a unit that already has one: the same.
    let e = set_up_error(
        "",
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: l1, side: blue, type: infantry_leader, at: [3, 4], attached_to: u }\n  - { id: l2, side: blue, type: cavalry_leader, at: [3, 4] }\n",
    );
    assert!(e.starts_with("t.yaml:15:"), "{e}");
}

#[test]
fn an_infantry_leader_with_cavalry_is_refused_at_his_line() {
    // 002 l.16 (cavalry joins only a cavalry leader) and l.43 (an infantry leader joins only
    // infantry): an infantry leader may not be with a cavalry unit, whether the scenario
    // says `attached_to` or only places him in its hex. A cavalry leader with infantry is
    // fine (l.15, l.44).
    for pieces in [
        "  - { id: k, side: blue, type: cavalry_square, at: [3, 4] }\n  - { id: il, side: blue, type: infantry_leader, at: [3, 4], attached_to: k }\n",
        "  - { id: k, side: blue, type: cavalry_square, at: [3, 4] }\n  - { id: il, side: blue, type: infantry_leader, at: [3, 4] }\n",
    ] {
        let e = set_up_error("", pieces);
        assert!(e.starts_with("t.yaml:14:"), "{e}");
        // prose: the error names both pieces and their types.
        assert!(
            e.contains("il (infantry_leader) may not be with k (cavalry_square)"),
            "{e}"
        );
    }
    let t = started(
        "",
        "  - { id: u, side: blue, type: infantry_square, at: [3, 4] }\n  - { id: cl, side: blue, type: cavalry_leader, at: [3, 4], attached_to: u }\n",
    );
    assert_eq!(attached(&t, "cl").as_deref(), Some("u"));
    // Nor is a unit "attached to" a leader: the leader is the one who is with a unit.
    let e = set_up_error(
        "",
        "  - { id: cl, side: blue, type: cavalry_leader, at: [3, 4] }\n  - { id: u, side: blue, type: infantry_square, at: [3, 4], attached_to: cl }\n",
    );
    assert!(e.starts_with("t.yaml:14:"), "{e}");
}

#[test]
fn pieces_set_up_on_side_or_closed_baseline_half_hexes_are_refused_at_their_line() {
    // 002 l.8: no unit ever stands on a side half-hex, and l.40: a leader on his own obeys
    // the same rules. l.9 (our reading): baseline half-hexes only where the scenario opens
    // them. By hand: (0,2) is a side half-hex (even row, west edge), (8,3) one too (odd row,
    // east edge of 9 columns), (3,6) a south baseline half-hex of the 7-row board.
    let e = set_up_error(
        "",
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: s, side: blue, type: infantry_circle, at: [0, 2] }\n",
    );
    assert!(e.starts_with("t.yaml:14:"), "{e}");
    // prose: which half-hex (also below).
    assert!(e.contains("half-hex on the side edge"), "{e}");
    let e = set_up_error(
        "",
        "  - { id: l, side: blue, type: cavalry_leader, at: [8, 3] }\n",
    );
    assert!(e.starts_with("t.yaml:13:"), "{e}");
    let e = set_up_error(
        "",
        "  - { id: b, side: blue, type: infantry_circle, at: [3, 6] }\n",
    );
    assert!(e.starts_with("t.yaml:13:"), "{e}");
    assert!(e.contains("half-hex on a baseline"), "{e}");
    // Opened by the battle notes, the baseline half-hex may be stood on; a side one never.
    started(
        "baseline_half_hexes: true",
        "  - { id: b, side: blue, type: infantry_circle, at: [3, 6] }\n",
    );
    set_up_error(
        "baseline_half_hexes: true",
        "  - { id: s, side: blue, type: infantry_circle, at: [0, 2] }\n",
    );
    // (1,2) is a full hex next to the side half-hexes: fine.
    started(
        "",
        "  - { id: f, side: blue, type: infantry_circle, at: [1, 2] }\n",
    );
}

#[test]
fn the_bundled_scenarios_still_set_up() {
    let run = grognard(&[
        "validate",
        "rulesets/hex-leaders.yaml",
        "examples/hex-leaders.yaml",
        "examples/hex-leaders.orders.yaml",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

// ---- Item 3: no banner for a leader who left the board ----

#[test]
fn a_leader_carried_off_the_enemy_baseline_gives_the_enemy_no_banner() {
    // 002 l.54: a leader who moves off the battlefield gives the enemy no victory banner.
    // Under `units_exit_enemy_baseline` his unit carries him off Red's baseline (row 0 is
    // the north half-hex row: (3,1) → (3,0) → (3,-1) costs 1). He is flagged `escaped`.
    // The unit's own point is outside the source; our reading (notes): it was not lost, so
    // it gives the enemy no banner either (flag `broke_through`). By hand: nothing of Blue's
    // was lost, nothing of Red's: a draw, 0 to 0 — not "red 2, blue 0".
    // Once with the example's banners written in the scenario, once with the ruleset's own.
    for victory in [
        "victory:\n  removed: { any: 1 }\n  removed_unless: [escaped, broke_through]\n",
        "",
    ] {
        let mut t = started(
            "units_exit_enemy_baseline: true",
            &format!(
                "  - {{ id: u, side: blue, type: infantry_circle, at: [3, 1] }}\n  - {{ id: l, side: blue, type: infantry_leader, at: [3, 1], attached_to: u }}\n  - {{ id: r, side: red, type: infantry_circle, at: [7, 3] }}\n{victory}"
            ),
        );
        mv(&mut t, "blue", "u", &[(3, 0), (3, -1)]).expect("off the enemy baseline");
        assert!(matches!(
            t.game.piece_by_name("l").map(|p| &p.place),
            Some(Place::Off)
        ));
        assert!(flag(&t, "l", "escaped"), "he left the board, not fell");
        assert!(flag(&t, "u", "broke_through"));
        // To the end of the 6 turns.
        while let Some((_, side)) = t.game.phase() {
            let name = t.game.sides()[side.index()].name.clone();
            end_phase(&mut t, &name);
        }
        let result = t.game.result().cloned().expect("a result");
        assert_eq!(result.points, [0, 0], "{}", result.why);
        assert_eq!(result.winner, None, "{}", result.why);
        // prose: the result's reason.
        assert!(result.why.contains("a draw on points"), "{}", result.why);
    }
}

#[test]
fn the_example_with_breakthroughs_on_counts_no_banner_for_a_leader_who_left() {
    // 002 l.54, through `play --json` on the bundled example (its own victory: banners for
    // eliminated pieces, none for escaped ones) with the option on. Blue's bc1 and the
    // leader bl1 riding with it go off Red's baseline: both removed, bl1 flagged `escaped`
    // and bc1 `broke_through`, the flags the example's banners spare.
    let dir = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(root().join("examples/hex-leaders.yaml"))
        .expect("example")
        .replace(
            "baseline_half_hexes: false",
            "baseline_half_hexes: false\n  units_exit_enemy_baseline: true",
        )
        .replace(
            "ruleset: hex-leaders\n",
            &format!(
                "ruleset: {}\n",
                root().join("rulesets/hex-leaders.yaml").display()
            ),
        )
        .replace("at: [2, 6] }", "at: [2, 1] }")
        .replace(
            "at: [2, 6], attached_to: bc1",
            "at: [2, 1], attached_to: bc1",
        );
    let s = dir.path().join("s.yaml");
    std::fs::write(&s, text).expect("write");
    let o = dir.path().join("o.yaml");
    std::fs::write(
        &o,
        "orders:\n  - { side: blue, move: { piece: bc1, path: [[2, 0], [2, -1]] } }\n",
    )
    .expect("write");
    let s = s.to_str().expect("utf-8");
    let o = o.to_str().expect("utf-8");
    let played = play_json_in(dir.path(), s, o, &[]);
    assert_eq!(played.code, 0, "{:?}", played.refused);
    for (piece, flag) in [("bc1", "broke_through"), ("bl1", "escaped")] {
        assert!(
            played.has("removed", piece, |_| true) && played.flag(piece, flag, true).is_some(),
            "{piece} {flag}: {:?}",
            played.events
        );
    }
}

// ---- Messages ----

#[test]
fn reach_of_a_leader_who_left_the_board_says_so() {
    // 002 l.48, l.54: a leader who left the board is out for the rest of the game; `reach`
    // says that, not an internal piece number.
    let dir = tempfile::tempdir().expect("tempdir");
    let (s, o) = files(
        dir.path(),
        "",
        "  - { id: u, side: blue, type: infantry_circle, at: [6, 4] }\n  - { id: il, side: blue, type: infantry_leader, at: [3, 5] }\n",
        "  - { side: blue, move: { piece: il, path: [[3, 6], [3, 7]] } }\n",
    );
    let run = grognard(&["reach", &s, "--orders", &o, "--unit", "il"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    // prose: the message is the test's subject.
    assert!(!all.contains('#'), "{all}");
    assert!(all.contains("il left the board"), "{all}");
    assert!(all.contains("out of the game"), "{all}");
}

#[test]
fn an_order_for_a_leader_who_left_the_board_says_so_as_reach_does() {
    // Every order that names a piece says an escaped piece the way `reach` does (one
    // `PieceBan`, issue 35), not "is not on the board" as if it had never come on.
    let dir = tempfile::tempdir().expect("tempdir");
    let (s, o) = files(
        dir.path(),
        "",
        "  - { id: u, side: blue, type: infantry_circle, at: [6, 4] }\n  - { id: il, side: blue, type: infantry_leader, at: [3, 5] }\n",
        "  - { side: blue, move: { piece: il, path: [[3, 6], [3, 7]] } }\n  - { side: blue, move: { piece: il, path: [[3, 6]] } }\n",
    );
    let played = play_json_in(dir.path(), &s, &o, &[]);
    assert_eq!(played.refusal_kind.as_deref(), Some("bad_piece"));
    assert!(played.flag("il", "escaped", true).is_some());
    let run = grognard(&["play", &s, "--orders", &o]);
    let all = format!("{}{}", run.stdout, run.stderr);
    // prose: the refusal's words are the test's subject.
    assert!(
        all.contains("il left the board (escaped) and is out of the game"),
        "{all}"
    );
    assert!(!all.contains("il is not on the board"), "{all}");
}

#[test]
fn reach_says_when_the_piece_is_not_moving_now() {
    // 002 l.1: movements are made by the player whose turn it is. `reach` of a piece of the
    // side that is not moving says so above the places (where it could go once its side
    // moves), and after the game is over it says that nothing moves any more.
    let dir = tempfile::tempdir().expect("tempdir");
    let (s, _) = files(
        dir.path(),
        "",
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: r, side: red, type: infantry_circle, at: [6, 2] }\n",
        "",
    );
    let moving_now = |unit: &str| {
        json_of(&grognard(&["reach", &s, "--unit", unit, "--json"]))["moving_now"].clone()
    };
    assert_eq!(moving_now("r"), serde_json::Value::Bool(false));
    assert_eq!(moving_now("u"), serde_json::Value::Bool(true));
    let run = grognard(&["reach", &s, "--unit", "r"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // prose: the note's words, above the places.
    let first = run.stdout.lines().next().unwrap_or_default();
    assert!(
        first.contains("red is not moving now") && first.contains("blue"),
        "{}",
        run.stdout
    );
    let run = grognard(&["reach", &s, "--unit", "u"]);
    // prose: no such note for the moving side; its first line lists the places.
    let first = run.stdout.lines().next().unwrap_or_default();
    assert!(first.contains("can reach"), "{}", run.stdout);
    assert!(!run.stdout.contains("not moving"), "{}", run.stdout);
    // Six turns of both sides ending both their phases.
    let mut ends = String::from("orders:\n");
    for _ in 0..6 {
        for side in ["blue", "blue", "red", "red"] {
            ends.push_str(&format!("  - {{ side: {side}, end_phase: true }}\n"));
        }
    }
    let o = dir.path().join("end.orders.yaml");
    std::fs::write(&o, ends).expect("write");
    let o = o.to_str().expect("utf-8");
    let run = grognard(&["reach", &s, "--orders", o, "--unit", "u"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // prose: the words; the outcome is read on --json below.
    assert!(run.stdout.contains("the game is over"), "{}", run.stdout);
    assert!(!run.stdout.contains("via"), "{}", run.stdout);
    let run = grognard(&["reach", &s, "--orders", o, "--unit", "u", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["over"], true, "{v}");
    assert_eq!(v["reach"].as_array().map(Vec::len), Some(0), "{v}");
}

#[test]
fn a_face_order_is_refused_because_pieces_have_no_facing() {
    // The ruleset's board note: hexes without facing (002 never turns a piece). A `face`
    // order is refused for that reason, in any phase, not because of the phase.
    let mut t = started(
        "",
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n",
    );
    let action = Action::Face {
        piece: id(&t, "u"),
        facing: Facing(1),
    };
    let o = order(&t, "blue", action);
    let r = refused(t.game.apply(&o, &mut t.hooks));
    assert_eq!(r.kind, RefusalKind::BadMode, "{}", r.message);
    // prose: the refusal gives the true reason.
    assert!(r.message.contains("u has no facing"), "{}", r.message);
    assert!(!r.message.contains("phase"), "{}", r.message);
}

// ---- Readings ----

#[test]
fn an_attached_leader_may_split_off_and_escape_in_one_move() {
    // 002 l.41 with l.52 (our reading, in the notes): a leader ordered to split from his
    // unit moves on his own from the first step, so he is "not with a unit" by the time he
    // reaches the edge and may go off in the same move. By hand: (3,5) → half-hex (3,6) →
    // off at (3,7) costs 1 (the half-hex and the step off are one hex).
    let mut t = started(
        "",
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 5] }\n  - { id: l, side: blue, type: infantry_leader, at: [3, 5], attached_to: u }\n",
    );
    assert!(reach(&mut t, "l").contains(&((3, 7), "1".to_owned())));
    mv(&mut t, "blue", "l", &[(3, 6), (3, 7)]).expect("splits and escapes");
    assert!(flag(&t, "l", "escaped"));
    assert_eq!(cell_of(&t, "u"), Some((3, 5)), "the unit stays");
}

// ---- The audit page ----

#[test]
fn the_audit_positions_answer_as_the_page_says() {
    // docs/audits/hex-leaders.md: each row's command, from the repository root, and a piece
    // of the answer the page gives (worked by hand there).
    // prose: the page quotes the answers' words, so this checks them; the rulings themselves
    // are read on `--json` and on the game's state in the tests above.
    let d = "tests/fixtures/audits/hex-leaders";
    let field = format!("{d}/field.yaml");
    let orders = |name: &str| format!("{d}/{name}.orders.yaml");
    let play = |o: &str| grognard(&["play", &field, "--orders", &orders(o)]);
    let reach_of = |unit: &str| grognard(&["reach", &field, "--unit", unit]);
    let out = |r: crate::util::Run| format!("{}{}", r.stdout, r.stderr);
    for (got, want) in [
        (
            out(reach_of("c")),
            "c (infantry_circle, formed mode) at (2,5) can reach 16 places",
        ),
        (out(reach_of("k")), "can reach 15 places"),
        (out(reach_of("il")), "(3,9)      cost 1"),
        (out(reach_of("e")), "can reach 5 places"),
        (out(play("triangle")), "t is marked “no_battle”"),
        (
            out(play("join")),
            "c moved (2,5) → (3,6) → (3,7), cost 2 (stopped: joined il)",
        ),
        (out(play("unit-carries")), "lg attached to u"),
        (out(play("escape")), "il has escaped"),
        (out(play("chain")), "il detached"),
        (
            out(play("split-escape")),
            "lg moved (7,7) → (7,8) → (7,9), cost 1",
        ),
        (out(play("face")), "c has no facing to change"),
        (out(play("woods")), "t is marked “no_battle”"),
        (
            out(grognard(&[
                "validate",
                &format!("{d}/leader-on-leader.yaml"),
            ])),
            "leader-on-leader.yaml:13:11: piece l2 (cavalry_leader) may not be with l1",
        ),
        (
            out(grognard(&[
                "validate",
                &format!("{d}/infantry-leader-cavalry.yaml"),
            ])),
            "infantry-leader-cavalry.yaml:13:11: piece il (infantry_leader) may not be with k",
        ),
        (
            out(grognard(&[
                "validate",
                &format!("{d}/side-half-setup.yaml"),
            ])),
            "side-half-setup.yaml:12:11: piece s stands at (0,2), a half-hex on the side edge",
        ),
        (
            out(grognard(&[
                "validate",
                &format!("{d}/baseline-half-setup.yaml"),
            ])),
            "baseline-half-setup.yaml:12:11: piece b stands at (3,6), a half-hex on a baseline",
        ),
        (
            out(grognard(&[
                "play",
                &format!("{d}/breakthrough.yaml"),
                "--orders",
                &orders("breakthrough"),
            ])),
            "result: a draw on points (blue 0, red 0)",
        ),
        (
            out(grognard(&[
                "reach",
                &field,
                "--orders",
                &orders("escape"),
                "--unit",
                "il",
            ])),
            "il left the board (escaped) and is out of the game",
        ),
        (out(reach_of("rl")), "note: red is not moving now"),
        (
            out(grognard(&[
                "reach",
                &field,
                "--orders",
                &orders("over"),
                "--unit",
                "c",
            ])),
            "the game is over",
        ),
    ] {
        assert!(got.contains(want), "missing `{want}` in\n{got}");
    }
}
