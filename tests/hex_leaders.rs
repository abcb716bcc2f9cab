//! The `hex-leaders` variant (source 002: ordered movement of units and leaders on hexes).
//! One test per rule, each citing it, through the rules + kernel API (`reach`, `apply`) with
//! the ruleset's own Lua hooks, and through the binary.

use grognard_kernel::action::{Action, Event, Order, Refusal, RefusalKind};
use grognard_kernel::game::{Game, Reach};
use grognard_kernel::geometry::Cell;
use grognard_kernel::ids::PieceId;
use grognard_kernel::piece::Place;
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::{Ruleset, load_ruleset, load_scenario, scenario_from_text};

use crate::util::{grognard, root};

mod judge;
mod messages;
mod rulings;

const RULESET: &str = "rulesets/hex-leaders.yaml";
const EXAMPLE: &str = "examples/hex-leaders.yaml";
const ORDERS: &str = "examples/hex-leaders.orders.yaml";

fn ruleset() -> Ruleset {
    load_ruleset(&root().join(RULESET)).unwrap_or_else(|d| panic!("{d}"))
}

/// A game and the ruleset's Lua hooks.
struct Table {
    game: Game,
    hooks: LuaHooks,
}

/// A 9 × 7 board (blue's baseline south, red's north) with woods at (4,3) and a town at
/// (6,3), `board` lines added to the board (half-hexes), `options` and `pieces`.
fn table_with(board: &str, options: &str, pieces: &str) -> Table {
    let r = ruleset();
    let text = format!(
        "scenario: t\nruleset: hex-leaders\noptions: {{ {options} }}\nboard:\n  cols: 9\n  rows: 7\n{board}  terrain: {{ woods: [[4, 3]], town: [[6, 3]] }}\nsides:\n  blue: {{ baseline: south }}\n  red: {{ baseline: north }}\npieces:\n{pieces}"
    );
    let s = scenario_from_text("t.yaml", &text, &r).unwrap_or_else(|d| panic!("{d}\n{text}"));
    let mut hooks = LuaHooks::new(&r, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let game = s
        .start(None, &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    Table { game, hooks }
}

/// The board above with half-hexes along the sides and both baselines.
fn table(pieces: &str) -> Table {
    table_with(
        "  half_hexes: { sides: true, baselines: true }\n",
        "",
        pieces,
    )
}

fn id(t: &Table, name: &str) -> PieceId {
    t.game.piece_by_name(name).expect("piece").id
}

fn cells(path: &[(i32, i32)]) -> Vec<Cell> {
    path.iter().map(|(c, r)| Cell::new(*c, *r)).collect()
}

fn order(t: &Table, side: &str, action: Action) -> Order {
    Order {
        side: t.game.side_by_name(side).expect("side"),
        action,
    }
}

fn mv(t: &mut Table, side: &str, who: &str, path: &[(i32, i32)]) -> Result<Vec<Event>, Refusal> {
    let action = Action::Move {
        piece: id(t, who),
        path: cells(path),
    };
    let o = order(t, side, action);
    t.game.apply(&o, &mut t.hooks)
}

fn battle(t: &mut Table, side: &str, who: &str, target: &str) -> Result<Vec<Event>, Refusal> {
    let action = Action::Act {
        piece: id(t, who),
        action: t.game.rules().action_by_name("battle").expect("battle"),
        target: Some(id(t, target)),
        intent: Vec::new(),
    };
    let o = order(t, side, action);
    t.game.apply(&o, &mut t.hooks)
}

fn end_phase(t: &mut Table, side: &str) {
    let o = order(t, side, Action::EndPhase);
    t.game.apply(&o, &mut t.hooks).expect("end phase");
}

/// `(cell, cost)` of everything `who` can reach, costs as text.
fn reach(t: &mut Table, who: &str) -> Vec<((i32, i32), String)> {
    let piece = id(t, who);
    match t.game.reach(piece, &mut t.hooks).expect("reach") {
        Reach::Cells(c) => c
            .into_iter()
            .map(|r| ((r.cell.col, r.cell.row), r.cost.to_string()))
            .collect(),
        Reach::Radius(_) => panic!("hex boards reach cells"),
    }
}

fn reach_path(t: &mut Table, who: &str, to: (i32, i32)) -> Option<Vec<(i32, i32)>> {
    let piece = id(t, who);
    match t.game.reach(piece, &mut t.hooks).expect("reach") {
        Reach::Cells(c) => c
            .path_to(Cell::new(to.0, to.1))
            .map(|path| path.iter().map(|c| (c.col, c.row)).collect()),
        Reach::Radius(_) => None,
    }
}

fn reaches(t: &mut Table, who: &str, to: (i32, i32)) -> bool {
    reach(t, who).iter().any(|(c, _)| *c == to)
}

fn cell_of(t: &Table, who: &str) -> Option<(i32, i32)> {
    t.game
        .piece_by_name(who)
        .and_then(|p| p.place.cell())
        .map(|c| (c.col, c.row))
}

fn attached(t: &Table, who: &str) -> Option<String> {
    let p = t.game.piece_by_name(who)?;
    let host = p.attached_to?;
    t.game.piece(host).map(|h| h.name.clone())
}

fn flag(t: &Table, who: &str, name: &str) -> bool {
    let f = t
        .game
        .rules()
        .flags
        .iter()
        .position(|f| f.name == name)
        .expect("flag");
    t.game
        .piece_by_name(who)
        .expect("piece")
        .flag(grognard_kernel::ids::FlagId(f as u16))
}

fn hex_distance(a: (i32, i32), b: (i32, i32)) -> i32 {
    // Odd-r offset to cube coordinates.
    let cube = |(c, r): (i32, i32)| {
        let x = c - (r - (r & 1)) / 2;
        (x, r, -x - r)
    };
    let (ax, ay, az) = cube(a);
    let (bx, by, bz) = cube(b);
    ((ax - bx).abs()).max((ay - by).abs()).max((az - bz).abs())
}

fn farthest(t: &mut Table, who: &str) -> i32 {
    let from = cell_of(t, who).expect("on board");
    let (cols, rows) = t.game.board().dimensions().expect("grid");
    // Hexes on the board only: leaving it is the escape rule's business.
    reach(t, who)
        .iter()
        .filter(|(c, _)| (0..cols).contains(&c.0) && (0..rows).contains(&c.1))
        .map(|(c, _)| hex_distance(from, *c))
        .max()
        .unwrap_or(0)
}

fn refused(result: Result<Vec<Event>, Refusal>) -> Refusal {
    match result {
        Ok(events) => panic!("expected a refusal, got {events:?}"),
        Err(r) => r,
    }
}

// ---- Board ----

#[test]
fn side_half_hexes_are_never_entered() {
    // 002: a unit may never move onto the half-hexes that border the side of the battlefield
    // (and a leader on his own follows the same rules).
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_circle, at: [1, 2] }\n  - { id: l, side: blue, type: cavalry_leader, at: [1, 4] }\n",
    );
    // (0,2) and (0,4) are side half-hexes (even rows, west edge).
    assert!(!reaches(&mut t, "u", (0, 2)));
    assert!(!reaches(&mut t, "l", (0, 4)));
    assert!(reaches(&mut t, "u", (2, 2)));
    let r = refused(mv(&mut t, "blue", "u", &[(0, 2)]));
    assert_eq!(r.kind, RefusalKind::Impassable);
    // prose: which rule made it impassable is said in the words.
    assert!(
        r.message.contains("half-hex on the side edge"),
        "{}",
        r.message
    );
}

#[test]
fn baseline_half_hexes_only_where_the_scenario_allows() {
    // 002: units use the baseline half-hexes only when the scenario's battle notes allow it.
    let pieces = "  - { id: u, side: blue, type: infantry_circle, at: [3, 5] }\n";
    let mut closed = table(pieces);
    assert!(!reaches(&mut closed, "u", (3, 6)));
    let r = refused(mv(&mut closed, "blue", "u", &[(3, 6)]));
    assert_eq!(r.kind, RefusalKind::Impassable);
    // prose: as above.
    assert!(
        r.message.contains("half-hex on a baseline"),
        "{}",
        r.message
    );
    let mut open = table_with(
        "  half_hexes: { sides: true, baselines: true }\n",
        "baseline_half_hexes: true",
        pieces,
    );
    assert!(reaches(&mut open, "u", (3, 6)));
    mv(&mut open, "blue", "u", &[(3, 6)]).expect("the battle notes open the half-hexes");
    assert_eq!(cell_of(&open, "u"), Some((3, 6)));
}

#[test]
fn the_battlefield_has_three_sections_and_units_cross_them() {
    // 002: ordered units may move from one section of the battlefield into another.
    let r = ruleset();
    let s = load_scenario(&root().join(EXAMPLE), None).unwrap_or_else(|d| panic!("{d}"));
    let mut hooks = LuaHooks::new(&r, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let game = s
        .start(None, &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    let regions = game.board().regions.clone();
    let names: Vec<&str> = regions.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["left", "centre", "right"]);
    // Every hex is in exactly one section.
    let (cols, rows) = game.board().dimensions().expect("grid");
    for row in 0..rows {
        for col in 0..cols {
            let c = Cell::new(col, row);
            let n = regions.iter().filter(|r| r.cells.contains(&c)).count();
            assert_eq!(n, 1, "{c} is in {n} sections");
        }
    }
    let section = |c: Cell| {
        regions
            .iter()
            .find(|r| r.cells.contains(&c))
            .map(|r| r.name.clone())
    };
    let mut t = Table { game, hooks };
    let from = Cell::new(9, 6);
    assert_eq!(section(from).as_deref(), Some("right"));
    mv(&mut t, "blue", "bk1", &[(8, 7)]).expect("cavalry rides into the centre");
    assert_eq!(section(Cell::new(8, 7)).as_deref(), Some("centre"));
}

// ---- Orders ----

#[test]
fn a_unit_moves_at_most_once_per_turn() {
    // 002: a unit may only move once per turn.
    let mut t = table("  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n");
    mv(&mut t, "blue", "u", &[(3, 3)]).expect("first move");
    assert!(reach(&mut t, "u").is_empty());
    let r = refused(mv(&mut t, "blue", "u", &[(3, 2)]));
    assert_eq!(r.kind, RefusalKind::AlreadyUsed);
    // Blue's battle, Red's two phases: the next turn it may move again.
    end_phase(&mut t, "blue");
    end_phase(&mut t, "blue");
    end_phase(&mut t, "red");
    end_phase(&mut t, "red");
    mv(&mut t, "blue", "u", &[(3, 2)]).expect("a new turn");
}

#[test]
fn an_ordered_unit_need_not_move() {
    // 002: a unit that is ordered does not have to move; it may still battle.
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_triangle, at: [3, 4] }\n  - { id: e, side: red, type: infantry_square, at: [3, 3] }\n",
    );
    end_phase(&mut t, "blue");
    assert_eq!(cell_of(&t, "u"), Some((3, 4)));
    assert!(!flag(&t, "u", "no_battle"));
    battle(&mut t, "blue", "u", "e").expect("a unit that stood may battle");
}

#[test]
fn moves_are_made_one_piece_at_a_time_and_completed() {
    // 002: movements are announced and made one unit or leader at a time, each completed
    // before the next begins: one order moves one piece (with the leader it carries) to the
    // end of its path, or is refused whole.
    let mut t = table(
        "  - { id: a, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: b, side: blue, type: infantry_circle, at: [5, 4] }\n",
    );
    let before = t.game.state_bytes();
    // Two hexes then a third: the whole order is refused, not half made.
    let r = refused(mv(&mut t, "blue", "a", &[(3, 3), (3, 2), (3, 1)]));
    assert_eq!(r.kind, RefusalKind::TooFar);
    assert_eq!(t.game.state_bytes(), before);
    let events = mv(&mut t, "blue", "a", &[(3, 3), (3, 2)]).expect("move a");
    let moved: Vec<PieceId> = events
        .iter()
        .filter_map(|e| match e {
            Event::Moved { piece, .. } => Some(*piece),
            _ => None,
        })
        .collect();
    assert_eq!(moved, [id(&t, "a")]);
    assert_eq!(cell_of(&t, "b"), Some((5, 4)));
    mv(&mut t, "blue", "b", &[(5, 3)]).expect("then b, in the player's chosen order");
}

#[test]
fn a_leader_with_a_unit_is_ordered_with_it() {
    // 002: a leader and the unit he leads are ordered together for a single order, and he
    // moves with the unit to its new hex.
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: l, side: blue, type: infantry_leader, at: [3, 4], attached_to: u }\n",
    );
    mv(&mut t, "blue", "u", &[(3, 3), (3, 2)]).expect("the unit moves");
    assert_eq!(cell_of(&t, "l"), Some((3, 2)));
    assert_eq!(attached(&t, "l").as_deref(), Some("u"));
    // That was his order too: he may not now move on his own.
    assert!(reach(&mut t, "l").is_empty());
    let r = refused(mv(&mut t, "blue", "l", &[(4, 2)]));
    assert_eq!(r.kind, RefusalKind::AlreadyUsed);
}

// ---- Unit movement ----

#[test]
fn units_never_move_onto_or_through_other_units_or_enemy_leaders() {
    // 002: two units may not occupy the same hex, and a unit may not move onto or through a
    // hex with friendly units or with enemy units and leaders.
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: f, side: blue, type: infantry_square, at: [3, 3] }\n  - { id: e, side: red, type: infantry_square, at: [4, 4] }\n  - { id: el, side: red, type: cavalry_leader, at: [2, 4] }\n",
    );
    for (path, what) in [
        (vec![(3, 3)], "onto a friendly unit"),
        (vec![(3, 3), (3, 2)], "through a friendly unit"),
        (vec![(4, 4)], "onto an enemy unit"),
        (vec![(2, 4)], "onto an enemy leader"),
        (vec![(2, 4), (1, 4)], "through an enemy leader"),
    ] {
        let r = refused(mv(&mut t, "blue", "u", &path));
        assert_eq!(r.kind, RefusalKind::Occupied, "{what}: {}", r.message);
    }
    let reached = reach(&mut t, "u");
    for c in [(3, 3), (4, 4), (2, 4)] {
        assert!(
            !reached.iter().any(|(x, _)| *x == c),
            "{c:?} in {reached:?}"
        );
    }
    // No path the engine offers runs through an occupied hex.
    let t_ref = &mut t;
    let targets: Vec<(i32, i32)> = reach(t_ref, "u").into_iter().map(|(c, _)| c).collect();
    for c in targets {
        let path = reach_path(t_ref, "u", c).expect("path");
        for occupied in [(3, 3), (4, 4), (2, 4)] {
            assert!(!path.contains(&occupied), "{c:?} by {path:?}");
        }
    }
}

#[test]
fn units_do_not_split_and_reduced_units_do_not_combine() {
    // 002: a unit moves as a whole, and a unit reduced by casualties may not combine with
    // another unit.
    let mut t = table(
        "  - { id: a, side: blue, type: infantry_circle, at: [3, 4], counters: { losses: 2 } }\n  - { id: b, side: blue, type: infantry_circle, at: [3, 3], counters: { losses: 2 } }\n",
    );
    let r = refused(mv(&mut t, "blue", "a", &[(3, 3)]));
    assert_eq!(r.kind, RefusalKind::Occupied);
    mv(&mut t, "blue", "a", &[(2, 3)]).expect("a moves whole");
    let a = t.game.piece_by_name("a").expect("a");
    assert_eq!(a.counters[0], 2, "its losses go with it");
    assert_eq!(t.game.state().pieces.len(), 2, "no piece was split off");
}

#[test]
fn a_circle_infantry_unit_moves_two_and_may_battle() {
    // 002: an ordered infantry unit with a circle may move up to 2 hexes and battle.
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: e, side: red, type: infantry_square, at: [3, 1] }\n",
    );
    assert_eq!(farthest(&mut t, "u"), 2);
    mv(&mut t, "blue", "u", &[(3, 3), (3, 2)]).expect("two hexes");
    assert!(!flag(&t, "u", "no_battle"));
    end_phase(&mut t, "blue");
    battle(&mut t, "blue", "u", "e").expect("it may battle after 2");
}

#[test]
fn a_triangle_infantry_unit_moves_one_and_battles_or_two_and_does_not() {
    // 002: an ordered infantry unit with a triangle may move 1 hex and battle, or 2 hexes
    // and not battle.
    let mut t = table(
        "  - { id: near, side: blue, type: infantry_triangle, at: [3, 4] }\n  - { id: far, side: blue, type: infantry_triangle, at: [6, 5] }\n  - { id: e1, side: red, type: infantry_square, at: [3, 2] }\n  - { id: e2, side: red, type: infantry_square, at: [6, 2] }\n",
    );
    assert_eq!(farthest(&mut t, "far"), 2, "its reach is 2 hexes");
    mv(&mut t, "blue", "near", &[(3, 3)]).expect("one hex");
    mv(&mut t, "blue", "far", &[(6, 4), (6, 3)]).expect("two hexes");
    assert!(!flag(&t, "near", "no_battle"));
    assert!(
        flag(&t, "far", "no_battle"),
        "moving 2 is recorded on the piece"
    );
    end_phase(&mut t, "blue");
    battle(&mut t, "blue", "near", "e1").expect("after 1 hex it may battle");
    let r = refused(battle(&mut t, "blue", "far", "e2"));
    assert_eq!(r.kind, RefusalKind::AlreadyUsed);
    // prose: the flag that bars it is named in the words.
    assert!(r.message.contains("no_battle"), "{}", r.message);
    // The mark lasts the turn only.
    end_phase(&mut t, "blue");
    end_phase(&mut t, "red");
    end_phase(&mut t, "red");
    assert!(!flag(&t, "far", "no_battle"));
}

#[test]
fn a_square_infantry_unit_moves_one_and_may_battle() {
    // 002: an ordered infantry unit with a square may move up to 1 hex and battle.
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_square, at: [3, 4] }\n  - { id: e, side: red, type: infantry_square, at: [4, 2] }\n",
    );
    assert_eq!(farthest(&mut t, "u"), 1);
    assert_eq!(reach(&mut t, "u").len(), 6);
    let r = refused(mv(&mut t, "blue", "u", &[(3, 3), (3, 2)]));
    assert_eq!(r.kind, RefusalKind::TooFar);
    mv(&mut t, "blue", "u", &[(3, 3)]).expect("one hex");
    end_phase(&mut t, "blue");
    battle(&mut t, "blue", "u", "e").expect("it may battle");
}

#[test]
fn a_square_cavalry_unit_moves_two_and_may_battle() {
    // 002: an ordered cavalry unit with a square may move up to 2 hexes and battle.
    let mut t = table(
        "  - { id: k, side: blue, type: cavalry_square, at: [3, 4] }\n  - { id: e, side: red, type: infantry_square, at: [3, 1] }\n",
    );
    assert_eq!(farthest(&mut t, "k"), 2);
    mv(&mut t, "blue", "k", &[(3, 3), (3, 2)]).expect("two hexes");
    assert!(!flag(&t, "k", "no_battle"));
    end_phase(&mut t, "blue");
    battle(&mut t, "blue", "k", "e").expect("it may battle after 2");
}

#[test]
fn terrain_may_stop_a_move_or_forbid_battle() {
    // 002: some terrain stops a unit short of its full distance or keeps it from battling.
    // Default (ruleset notes): woods and towns end a move; a unit ending in woods may not
    // battle that turn.
    let mut t = table(
        "  - { id: w, side: blue, type: infantry_circle, at: [4, 4] }\n  - { id: tn, side: blue, type: infantry_circle, at: [6, 4] }\n  - { id: l, side: blue, type: cavalry_leader, at: [5, 5] }\n  - { id: e1, side: red, type: infantry_square, at: [4, 2] }\n  - { id: e2, side: red, type: infantry_square, at: [6, 2] }\n",
    );
    // (4,3) is woods: w may enter it but not go on through it.
    let r = refused(mv(&mut t, "blue", "w", &[(4, 3), (5, 2)]));
    assert_eq!(r.kind, RefusalKind::MustStop);
    assert!(reaches(&mut t, "w", (4, 3)));
    let targets: Vec<(i32, i32)> = reach(&mut t, "w").into_iter().map(|(c, _)| c).collect();
    for c in targets {
        let path = reach_path(&mut t, "w", c).expect("path");
        let woods = path.iter().position(|x| *x == (4, 3));
        assert!(woods.is_none_or(|i| i + 1 == path.len()), "{path:?}");
    }
    // A leader on his own obeys the same terrain.
    let r = refused(mv(&mut t, "blue", "l", &[(5, 4), (4, 3), (3, 3)]));
    assert_eq!(r.kind, RefusalKind::MustStop);
    mv(&mut t, "blue", "w", &[(4, 3)]).expect("into the woods");
    mv(&mut t, "blue", "tn", &[(6, 3)]).expect("into the town");
    assert!(flag(&t, "w", "no_battle"));
    assert!(!flag(&t, "tn", "no_battle"));
    end_phase(&mut t, "blue");
    refused(battle(&mut t, "blue", "w", "e1"));
    battle(&mut t, "blue", "tn", "e2").expect("a town stops the move but not the battle");
}

// ---- Joining leaders ----

#[test]
fn an_infantry_unit_joins_a_lone_leader_of_either_arm_and_stops() {
    // 002: an infantry unit without a leader may move onto a lone friendly leader (infantry
    // or cavalry); it must stop there and join him.
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: v, side: blue, type: infantry_triangle, at: [6, 4] }\n  - { id: il, side: blue, type: infantry_leader, at: [3, 3] }\n  - { id: cl, side: blue, type: cavalry_leader, at: [6, 3] }\n",
    );
    assert!(reaches(&mut t, "u", (3, 3)));
    // (3,2) is still in reach, but round the leader, not through him.
    let path = reach_path(&mut t, "u", (3, 2)).expect("(3,2) in reach");
    assert!(!path.contains(&(3, 3)), "{path:?}");
    let r = refused(mv(&mut t, "blue", "u", &[(3, 3), (3, 2)]));
    assert_eq!(r.kind, RefusalKind::MustStop);
    // prose: why it must stop is said in the words.
    assert!(r.message.contains("joined il"), "{}", r.message);
    let events = mv(&mut t, "blue", "u", &[(3, 3)]).expect("onto the leader");
    assert!(events.contains(&Event::Attached {
        piece: id(&t, "il"),
        to: Some(id(&t, "u")),
    }));
    assert_eq!(attached(&t, "il").as_deref(), Some("u"));
    mv(&mut t, "blue", "v", &[(6, 3)]).expect("onto a cavalry leader too");
    assert_eq!(attached(&t, "cl").as_deref(), Some("v"));
}

#[test]
fn a_unit_that_has_a_leader_joins_no_other() {
    // 002: ...as long as the unit does not already have a leader.
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: mine, side: blue, type: infantry_leader, at: [3, 4], attached_to: u }\n  - { id: il, side: blue, type: infantry_leader, at: [3, 3] }\n",
    );
    assert!(!reaches(&mut t, "u", (3, 3)));
    let r = refused(mv(&mut t, "blue", "u", &[(3, 3)]));
    assert_eq!(r.kind, RefusalKind::Occupied);
    // prose: as above.
    assert!(r.message.contains("already has mine"), "{}", r.message);
}

#[test]
fn a_cavalry_unit_joins_only_a_lone_cavalry_leader() {
    // 002: a cavalry unit may move onto a lone friendly cavalry leader (not an infantry
    // leader); it must stop there and join him.
    let mut t = table(
        "  - { id: k, side: blue, type: cavalry_square, at: [3, 4] }\n  - { id: il, side: blue, type: infantry_leader, at: [2, 4] }\n  - { id: cl, side: blue, type: cavalry_leader, at: [3, 3] }\n",
    );
    assert!(!reaches(&mut t, "k", (2, 4)));
    let r = refused(mv(&mut t, "blue", "k", &[(2, 4)]));
    assert_eq!(r.kind, RefusalKind::Occupied);
    let r = refused(mv(&mut t, "blue", "k", &[(3, 3), (3, 2)]));
    assert_eq!(r.kind, RefusalKind::MustStop);
    mv(&mut t, "blue", "k", &[(3, 3)]).expect("onto the cavalry leader");
    assert_eq!(attached(&t, "cl").as_deref(), Some("k"));
}

#[test]
fn a_unit_that_joined_an_ordered_leader_does_not_move_again() {
    // 002: an ordered unit may not move, join a leader and move again when the leader is
    // also ordered.
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n  - { id: il, side: blue, type: infantry_leader, at: [3, 3] }\n",
    );
    mv(&mut t, "blue", "u", &[(3, 3)]).expect("joins");
    let r = refused(mv(&mut t, "blue", "u", &[(3, 2)]));
    assert_eq!(r.kind, RefusalKind::AlreadyUsed);
    // The leader's own order moves him alone: the unit stays where it joined him.
    mv(&mut t, "blue", "il", &[(3, 2)]).expect("the leader splits off");
    assert_eq!(cell_of(&t, "u"), Some((3, 3)));
    assert_eq!(attached(&t, "il"), None);
}

// ---- Leader movement ----

#[test]
fn a_leader_moves_with_his_unit_unless_ordered_to_split() {
    // 002: a leader with a unit moves with it when it is ordered, unless he is ordered to
    // split from it; then he moves by his own allowance.
    let mut t = table(
        "  - { id: u, side: blue, type: infantry_square, at: [3, 4] }\n  - { id: cl, side: blue, type: cavalry_leader, at: [3, 4], attached_to: u }\n",
    );
    // Split: his own 3 hexes, not the square unit's 1.
    assert_eq!(farthest(&mut t, "cl"), 3);
    mv(&mut t, "blue", "cl", &[(3, 3), (3, 2), (3, 1)]).expect("splits off");
    assert_eq!(attached(&t, "cl"), None);
    assert_eq!(cell_of(&t, "u"), Some((3, 4)));
    mv(&mut t, "blue", "u", &[(2, 4)]).expect("the unit moves alone");
    assert_eq!(cell_of(&t, "cl"), Some((3, 1)));
}

#[test]
fn a_lone_infantry_leader_moves_two_and_a_cavalry_leader_three() {
    // 002: an ordered infantry leader on his own may move up to 2 hexes, a cavalry leader up
    // to 3.
    let mut t = table(
        "  - { id: il, side: blue, type: infantry_leader, at: [2, 3] }\n  - { id: cl, side: blue, type: cavalry_leader, at: [6, 3] }\n",
    );
    assert_eq!(farthest(&mut t, "il"), 2);
    // (6,3) is a town, which ends the move of a piece entering it, not one leaving it.
    assert_eq!(farthest(&mut t, "cl"), 3);
}

#[test]
fn a_cavalry_leader_reaches_three_hexes_through_friends() {
    // 002: a leader may move onto and through hexes with friendly units, friendly units with
    // leaders, and lone friendly leaders.
    // A corridor along row 3 walled by Red: the only way east is through Blue's pieces.
    let mut pieces = String::from(
        "  - { id: cl, side: blue, type: cavalry_leader, at: [1, 3] }\n  - { id: k, side: blue, type: cavalry_square, at: [2, 3] }\n  - { id: kl, side: blue, type: cavalry_leader, at: [2, 3], attached_to: k }\n  - { id: il, side: blue, type: infantry_leader, at: [3, 3] }\n",
    );
    for (i, c) in [
        (1, 2),
        (2, 2),
        (3, 2),
        (4, 2),
        (1, 4),
        (2, 4),
        (3, 4),
        (4, 4),
    ]
    .iter()
    .enumerate()
    {
        pieces.push_str(&format!(
            "  - {{ id: w{i}, side: red, type: infantry_square, at: [{}, {}] }}\n",
            c.0, c.1
        ));
    }
    let mut t = table(&pieces);
    assert_eq!(
        reach_path(&mut t, "cl", (4, 3)),
        Some(vec![(2, 3), (3, 3), (4, 3)])
    );
    assert!(reach(&mut t, "cl").contains(&((4, 3), "3".to_owned())));
    // He may pass those hexes but not stop in them: a unit with a leader, a lone leader.
    assert!(!reaches(&mut t, "cl", (2, 3)));
    assert!(!reaches(&mut t, "cl", (3, 3)));
    let r = refused(mv(&mut t, "blue", "cl", &[(2, 3)]));
    assert_eq!(r.kind, RefusalKind::Occupied);
    mv(&mut t, "blue", "cl", &[(2, 3), (3, 3), (4, 3)]).expect("through friends");
    assert_eq!(cell_of(&t, "cl"), Some((4, 3)));
}

#[test]
fn an_infantry_leader_joins_infantry_and_a_cavalry_leader_any_unit() {
    // 002: an infantry leader may stop with a friendly infantry unit and join it; a cavalry
    // leader may stop with any friendly unit and join it.
    let mut t = table(
        "  - { id: il, side: blue, type: infantry_leader, at: [2, 4] }\n  - { id: cl, side: blue, type: cavalry_leader, at: [6, 4] }\n  - { id: k, side: blue, type: cavalry_square, at: [2, 3] }\n  - { id: u, side: blue, type: infantry_triangle, at: [1, 4] }\n  - { id: k2, side: blue, type: cavalry_square, at: [6, 5] }\n",
    );
    // The infantry leader may pass the cavalry but not stop with it.
    assert!(!reaches(&mut t, "il", (2, 3)));
    let r = refused(mv(&mut t, "blue", "il", &[(2, 3)]));
    assert_eq!(r.kind, RefusalKind::Occupied);
    // prose: he may pass but not stop, said in the words.
    assert!(r.message.contains("not stop"), "{}", r.message);
    assert!(reaches(&mut t, "il", (1, 4)));
    mv(&mut t, "blue", "il", &[(1, 4)]).expect("joins the infantry");
    assert_eq!(attached(&t, "il").as_deref(), Some("u"));
    assert!(reaches(&mut t, "cl", (6, 5)));
    mv(&mut t, "blue", "cl", &[(6, 5)]).expect("joins the cavalry");
    assert_eq!(attached(&t, "cl").as_deref(), Some("k2"));
}

#[test]
fn a_leader_may_pass_a_unit_he_could_join() {
    // 002: joining is a choice: a cavalry leader may go through a lone friendly unit's hex
    // and on, or stop there and join it.
    let mut t = table(
        "  - { id: cl, side: blue, type: cavalry_leader, at: [3, 5] }\n  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n",
    );
    mv(&mut t, "blue", "cl", &[(3, 4), (3, 3)]).expect("through");
    assert_eq!(attached(&t, "cl"), None);
    assert_eq!(cell_of(&t, "cl"), Some((3, 3)));
}

#[test]
fn a_leader_never_stops_with_the_enemy_and_one_leader_holds_a_hex() {
    // 002: a leader may not stop in a hex with an enemy unit or leader; only one leader may
    // occupy a hex.
    let mut t = table(
        "  - { id: cl, side: blue, type: cavalry_leader, at: [3, 4] }\n  - { id: other, side: blue, type: infantry_leader, at: [3, 3] }\n  - { id: e, side: red, type: infantry_circle, at: [4, 4] }\n  - { id: el, side: red, type: infantry_leader, at: [2, 4] }\n",
    );
    for c in [(4, 4), (2, 4), (3, 3)] {
        assert!(!reaches(&mut t, "cl", c), "{c:?}");
    }
    assert_eq!(
        refused(mv(&mut t, "blue", "cl", &[(4, 4)])).kind,
        RefusalKind::Occupied
    );
    assert_eq!(
        refused(mv(&mut t, "blue", "cl", &[(2, 4)])).kind,
        RefusalKind::Occupied
    );
    let r = refused(mv(&mut t, "blue", "cl", &[(3, 3)]));
    assert_eq!(r.kind, RefusalKind::Occupied);
    // prose: as above.
    assert!(r.message.contains("not stop"), "{}", r.message);
}

#[test]
fn a_leader_who_joined_an_ordered_unit_is_left_behind() {
    // 002: an ordered leader may not move, join a unit and move again when the unit is also
    // ordered.
    let mut t = table(
        "  - { id: il, side: blue, type: infantry_leader, at: [3, 5] }\n  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n",
    );
    mv(&mut t, "blue", "il", &[(3, 4)]).expect("joins");
    assert_eq!(attached(&t, "il").as_deref(), Some("u"));
    let events = mv(&mut t, "blue", "u", &[(3, 3), (3, 2)]).expect("the unit's own order");
    assert!(events.contains(&Event::Attached {
        piece: id(&t, "il"),
        to: None,
    }));
    assert_eq!(cell_of(&t, "il"), Some((3, 4)));
    assert_eq!(cell_of(&t, "u"), Some((3, 2)));
}

// ---- Escape ----

#[test]
fn a_lone_leader_escapes_off_his_own_baseline() {
    // 002: a leader not with a unit may move off his own side of the battlefield if he has
    // the movement: from a hex next to the board side that is one hex, and the baseline
    // half-hexes do not count as a full hex. He is out for the rest of the game, and the
    // enemy gets no banner for him: his standard is saved.
    let mut t = table(
        "  - { id: il, side: blue, type: infantry_leader, at: [3, 5] }\n  - { id: far, side: blue, type: infantry_leader, at: [3, 3] }\n  - { id: u, side: blue, type: infantry_circle, at: [5, 5] }\n",
    );
    // Row 6 is half-hexes; row 7 is off the board. From row 5: the half-hex and off = 1.
    let reached = reach(&mut t, "il");
    assert!(reached.contains(&((3, 7), "1".to_owned())), "{reached:?}");
    assert!(reached.contains(&((4, 7), "1".to_owned())), "{reached:?}");
    // From row 3 it takes 3: more than an infantry leader's 2.
    assert!(!reach(&mut t, "far").iter().any(|(c, _)| c.1 == 7));
    let r = refused(mv(&mut t, "blue", "far", &[(3, 4), (3, 5), (3, 6), (3, 7)]));
    assert_eq!(r.kind, RefusalKind::TooFar);
    // A unit may not.
    assert!(!reach(&mut t, "u").iter().any(|(c, _)| c.1 == 7));
    refused(mv(&mut t, "blue", "u", &[(5, 6), (5, 7)]));
    // The half-hex is only a way off: he may not walk along the half-hex row.
    let r = refused(mv(&mut t, "blue", "il", &[(3, 6), (2, 6)]));
    assert_eq!(r.kind, RefusalKind::Impassable);
    // prose: the half-hex's rule is said in the words.
    assert!(
        r.message.contains("may only leave the board"),
        "{}",
        r.message
    );
    let targets: Vec<(i32, i32)> = reach(&mut t, "il").into_iter().map(|(c, _)| c).collect();
    for c in targets {
        let path = reach_path(&mut t, "il", c).expect("path");
        assert!(
            path.windows(2).all(|w| !(w[0].1 == 6 && w[1].1 == 6)),
            "{path:?}"
        );
    }
    let events = mv(&mut t, "blue", "il", &[(3, 6), (3, 7)]).expect("escapes");
    assert!(matches!(
        t.game.piece_by_name("il").map(|p| &p.place),
        Some(Place::Off)
    ));
    assert!(flag(&t, "il", "escaped"));
    assert!(events.iter().any(|e| matches!(e, Event::Removed { .. })));
    assert!(
        events
            .iter()
            .all(|e| !matches!(e, Event::CounterChanged { .. }))
    );
    // He may not return.
    end_phase(&mut t, "blue");
    end_phase(&mut t, "blue");
    end_phase(&mut t, "red");
    end_phase(&mut t, "red");
    assert_eq!(
        refused(mv(&mut t, "blue", "il", &[(3, 6)])).kind,
        RefusalKind::BadPiece
    );
}

#[test]
fn escape_counts_one_hex_from_the_edge_and_only_by_the_own_baseline() {
    // 002: the move off the board from a hex next to the board side counts one hex; it is
    // his own side of the battlefield only.
    let mut t = table_with(
        "",
        "",
        "  - { id: cl, side: blue, type: cavalry_leader, at: [3, 4] }\n  - { id: b2, side: blue, type: cavalry_leader, at: [2, 1] }\n  - { id: rl, side: red, type: infantry_leader, at: [5, 1] }\n",
    );
    // No half-hexes: row 6 is the last row, two hexes away; off is the third.
    let reached = reach(&mut t, "cl");
    assert!(reached.contains(&((3, 7), "3".to_owned())), "{reached:?}");
    // Blue's leaders cannot leave by Red's baseline.
    assert!(!reach(&mut t, "b2").iter().any(|(c, _)| c.1 == -1));
    let r = refused(mv(&mut t, "blue", "b2", &[(2, 0), (2, -1)]));
    assert_eq!(r.kind, RefusalKind::BadPath);
    // prose: whose baseline is said in the words.
    assert!(r.message.contains("off the board"), "{}", r.message);
    mv(&mut t, "blue", "cl", &[(3, 5), (3, 6), (3, 7)]).expect("off his own baseline");
    // Red's leader, by the north edge.
    end_phase(&mut t, "blue");
    end_phase(&mut t, "blue");
    assert!(reach(&mut t, "rl").contains(&((5, -1), "2".to_owned())));
    mv(&mut t, "red", "rl", &[(5, 0), (5, -1)]).expect("off Red's baseline");
    assert!(flag(&t, "rl", "escaped"));
}

#[test]
fn units_leave_by_the_enemy_baseline_only_under_the_option() {
    // 002, the other reading of the half-hex rule: units leave the board by the baseline
    // only where the battle notes allow it (option `units_exit_enemy_baseline`).
    let pieces = "  - { id: u, side: blue, type: infantry_circle, at: [3, 1] }\n";
    let mut off = table(pieces);
    assert!(!reach(&mut off, "u").iter().any(|(c, _)| c.1 == -1));
    let mut on = table_with(
        "  half_hexes: { sides: true, baselines: true }\n",
        "units_exit_enemy_baseline: true",
        pieces,
    );
    assert!(reaches(&mut on, "u", (3, -1)));
    mv(&mut on, "blue", "u", &[(3, 0), (3, -1)]).expect("off the enemy baseline");
    assert!(!on.game.piece_by_name("u").expect("u").on_board());
}

// ---- Battle eligibility ----

#[test]
fn battle_eligibility_is_part_of_the_piece_and_shown() {
    // 002: how far a unit moved decides whether it may battle; the engine keeps that on the
    // piece (flag `no_battle`), for charts, hooks and the printed log.
    let r = ruleset();
    let flag_def = r
        .rules
        .flags
        .iter()
        .find(|f| f.name == "no_battle")
        .expect("no_battle flag");
    assert_eq!(flag_def.clears, grognard_kernel::rules::Clears::TurnEnd);
    let played = crate::util::play_json(EXAMPLE, ORDERS);
    assert_eq!((played.code, &played.refused), (0, &None));
    assert!(
        played.flag("bt1", "no_battle", true).is_some(),
        "{:?}",
        played.events
    );
}

// ---- The command line ----

/// A move as the log tells it: the piece, its path, its cost in hundredths, why it stopped.
type Told = (
    &'static str,
    &'static [(i64, i64)],
    i64,
    Option<&'static str>,
);

#[test]
fn the_ruleset_validates_and_the_example_plays() {
    let run = grognard(&["validate", RULESET, EXAMPLE, ORDERS]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // The moves on play --json: each piece's path, cost (hundredths) and why it stopped.
    let played = crate::util::play_json(EXAMPLE, ORDERS);
    assert_eq!((played.code, &played.refused), (0, &None));
    let moves: [Told; 6] = [
        ("bt1", &[(5, 6), (5, 5), (5, 4)], 200, None),
        ("bk1", &[(9, 6), (8, 7)], 100, Some("joined bl2")),
        ("bc2", &[(4, 6), (4, 5)], 100, Some("woods end a move")),
        (
            "rl2",
            &[(4, 1), (4, 0), (4, -1)],
            100,
            Some("left the board"),
        ),
        ("rl1", &[(9, 2), (8, 2), (7, 2), (7, 3)], 300, None),
        (
            "bl3",
            &[(4, 6), (4, 7), (4, 8), (4, 9)],
            200,
            Some("left the board"),
        ),
    ];
    for (name, path, cost, stopped) in moves {
        let path = crate::util::cells(path);
        let stopped = stopped.map_or(serde_json::Value::Null, Into::into);
        let as_told = |e: &serde_json::Value| {
            e["path"] == path && e["cost"] == cost && e["stopped"] == stopped
        };
        assert!(
            played.has("moved", name, as_told),
            "{name}: {:?}",
            played.events
        );
    }
}

#[test]
fn reach_from_the_command_line_lists_the_escape() {
    let run = grognard(&["reach", EXAMPLE, "--unit", "rl2", "--json"]);
    let answer = crate::util::json_of(&run);
    let cells = answer["reach"].as_array().expect("reach");
    assert!(
        cells
            .iter()
            .any(|r| r["cell"] == serde_json::json!([4, -1])),
        "{answer}"
    );
}

#[test]
fn mistakes_in_the_company_keys_are_reported_at_their_lines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = root().join(RULESET);
    let text = format!(
        "ruleset: broken\nextends: {}\npiece_types:\n  infantry_leader:\n    passes: [infantry_cirle]\n    exits: {{ baseline: sideways, marks: escapd }}\n    after_move: [ {{ min_steps: 1, set: no_batle }} ]\nhalf_hexes: {{ baselines_option: baseline_halfhexes }}\n",
        base.display()
    );
    let path = dir.path().join("broken.yaml");
    std::fs::write(&path, text).expect("write");
    let run = grognard(&["validate", path.to_str().expect("utf-8 path")]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let out = format!("{}{}", run.stdout, run.stderr);
    for expected in [
        "broken.yaml:5:14: unknown piece type `infantry_cirle`",
        "did you mean `infantry_circle`?",
        "broken.yaml:6:24: in piece_types.infantry_leader.exits.baseline: unknown value \
         `sideways`; expected one of: own, enemy, any",
        "broken.yaml:6:41: unknown flag `escapd`",
        "broken.yaml:7:40: unknown flag `no_batle`",
        "broken.yaml:8:33: unknown optional rule `baseline_halfhexes`",
    ] {
        // prose: each error's words at its line.
        assert!(out.contains(expected), "missing `{expected}` in\n{out}");
    }
}

#[test]
fn hooks_read_battle_eligibility_from_the_piece() {
    // 002: a triangle unit that moved 2 may not battle; a Lua hook sees that on the piece.
    let dir = tempfile::tempdir().expect("tempdir");
    let overlay = format!(
        "ruleset: hex-leaders-watch\nextends: {}\nscripts:\n  watch: watch.lua\nhooks:\n  phase_begin: watch.begin\n",
        root().join(RULESET).display()
    );
    let script = "local M = {}\nfunction M.begin(game, phase)\n  if phase ~= \"battle\" then return end\n  for _, u in ipairs(game:units(game:phasing())) do\n    if game:flag(u, \"no_battle\") then game:note(game:name(u) .. \" may not battle\") end\n  end\nend\nreturn M\n";
    let scenario = std::fs::read_to_string(root().join(EXAMPLE))
        .expect("example")
        .replace("ruleset: hex-leaders\n", "ruleset: watch.yaml\n");
    std::fs::write(dir.path().join("watch.yaml"), overlay).expect("write");
    std::fs::write(dir.path().join("watch.lua"), script).expect("write");
    std::fs::write(dir.path().join("s.yaml"), scenario).expect("write");
    let orders = root().join(ORDERS);
    let orders = orders.to_str().expect("utf-8");
    let played = crate::util::play_json_in(dir.path(), "s.yaml", orders, &[]);
    assert_eq!((played.code, &played.refused), (0, &None));
    // The hook's notes (its words are what it writes, the point here), as play --json has
    // them: Blue's turn 1: the unit that ended in woods and the triangle that moved 2 (in
    // scenario order); by Red's battle phase nothing of Red's moved far.
    let notes: Vec<&str> = (played.events.iter())
        .filter(|e| e["event"] == "note")
        .filter_map(|e| e["text"].as_str())
        .filter(|t| t.ends_with("may not battle"))
        .collect();
    assert_eq!(
        notes,
        ["bc2 may not battle", "bt1 may not battle"],
        "{:?}",
        played.events
    );
}

#[test]
fn under_the_option_a_moved_leader_holds_the_unit_he_joined() {
    // 002, the other reading of "an ordered leader may not join a unit and move again":
    // the unit he joined may not move at all (option `leader_holds_unit`).
    let mut t = table_with(
        "",
        "leader_holds_unit: true",
        "  - { id: il, side: blue, type: infantry_leader, at: [3, 5] }\n  - { id: u, side: blue, type: infantry_circle, at: [3, 4] }\n",
    );
    mv(&mut t, "blue", "il", &[(3, 4)]).expect("joins");
    assert!(reach(&mut t, "u").is_empty());
    let r = refused(mv(&mut t, "blue", "u", &[(3, 3)]));
    assert_eq!(r.kind, RefusalKind::AlreadyUsed);
    // prose: why it is used is said in the words.
    assert!(
        r.message.contains("il joined it after moving"),
        "{}",
        r.message
    );
    // Next turn he is no longer "moved", and they go together.
    end_phase(&mut t, "blue");
    end_phase(&mut t, "blue");
    end_phase(&mut t, "red");
    end_phase(&mut t, "red");
    mv(&mut t, "blue", "u", &[(3, 3)]).expect("together");
    assert_eq!(cell_of(&t, "il"), Some((3, 3)));
}

#[test]
fn a_sides_view_carries_battle_eligibility() {
    // 002: battle eligibility after movement is part of the piece's state: a side's own
    // view shows the triangle unit that moved 2 flagged `no_battle`, the square unit not.
    let dir = tempfile::tempdir().expect("tempdir");
    let all = std::fs::read_to_string(root().join(ORDERS)).expect("orders");
    // Blue's first order-and-move phase only.
    let mut first = String::new();
    for line in all.lines() {
        first.push_str(line);
        first.push('\n');
        if line.contains("end_phase") {
            break;
        }
    }
    let orders = dir.path().join("first.orders.yaml");
    std::fs::write(&orders, first).expect("write");
    let run = grognard(&[
        "view",
        EXAMPLE,
        "--orders",
        orders.to_str().expect("utf-8"),
        "--side",
        "blue",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let bit = 1u64
        << ruleset()
            .rules
            .flags
            .iter()
            .position(|f| f.name == "no_battle")
            .expect("flag");
    let flags = |name: &str| {
        v["view"]["own"]
            .as_array()
            .expect("own pieces")
            .iter()
            .find(|p| p["name"] == name)
            .and_then(|p| p["flags"].as_u64())
            .unwrap_or_else(|| panic!("{name} in {v}"))
    };
    assert_eq!(flags("bt1") & bit, bit);
    assert_eq!(flags("bs1") & bit, 0);
}
