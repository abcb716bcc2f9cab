//! Hidden information: the block rules' sightings (seed 000 chart #5 and its legend, seed
//! 001 [6.92] face-down markers), dummies, contact, decoys, and the non-interference
//! property — two games that differ only in what a side has not sighted look the same to
//! that side, byte for byte.

use grognard_kernel::action::{Action, Event, Order, RefusalKind};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::Cell;
use grognard_kernel::hooks::NoHooks;
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::view::View;
use grognard_rules::load::{Ruleset, load_ruleset, scenario_from_text};
use proptest::prelude::*;

use crate::util::{grognard, root};

const FRENCH: SideId = SideId(0);
const AUSTRIANS: SideId = SideId(1);

pub(crate) fn blocks() -> Ruleset {
    load_ruleset(&root().join("rulesets/square-blocks.yaml")).unwrap_or_else(|d| panic!("{d}"))
}

/// A 15 × 15 clear board with the given piece lines; French first.
pub(crate) fn scenario(pieces: &[String], extra: &str) -> String {
    let mut s = String::from(
        "scenario: t\nruleset: square-blocks\nseed: 7\nturns: 6\nboard:\n  cols: 15\n  rows: 15\n",
    );
    s.push_str(extra);
    s.push_str(
        "sides:\n  french: { baseline: south }\n  austrians: { baseline: north }\npieces:\n",
    );
    for p in pieces {
        s.push_str("  - ");
        s.push_str(p);
        s.push('\n');
    }
    s
}

pub(crate) fn start(rules: &Ruleset, text: &str) -> Game {
    let s = scenario_from_text("t.yaml", text, rules).unwrap_or_else(|d| panic!("{d}"));
    s.start(None, &[], &mut NoHooks)
        .unwrap_or_else(|d| panic!("{d}"))
}

pub(crate) fn piece(game: &Game, name: &str) -> PieceId {
    game.piece_by_name(name)
        .unwrap_or_else(|| panic!("no piece {name}"))
        .id
}

/// The level `side` holds on piece `name`, as its view shows it.
pub(crate) fn level(game: &Game, side: SideId, name: &str) -> Option<String> {
    let id = piece(game, name);
    game.view(side)
        .enemy
        .iter()
        .find(|e| Some(e.handle.0) == game.handle_of(side, id))
        .and_then(|e| e.level.clone())
}

/// 000 chart #5, as printed: row 0 is the observer's own row, rows count forward.
const CHART_5: [&str; 5] = [
    "D C B A* X A* B C D",
    "D D C B* A* B* C D D",
    "D D D C B C D D D",
    "D D D D C D D D D",
    "D D D D D D D D D",
];

#[test]
fn chart_5_gives_each_printed_letter_at_each_offset() {
    // 000 chart #5: a scout at (7, 9) facing north reads every square of the chart.
    let rules = blocks();
    for (forward, row) in CHART_5.iter().enumerate() {
        for (col, letter) in row.split_whitespace().enumerate() {
            if letter == "X" {
                continue;
            }
            let right = col as i32 - 4;
            let at = (7 + right, 9 - forward as i32);
            let text = scenario(
                &[
                    "{ id: s, side: french, type: scout, at: [7, 9], facing: N }".into(),
                    format!(
                        "{{ id: a, side: austrians, type: infantry, at: [{}, {}], facing: S }}",
                        at.0, at.1
                    ),
                ],
                "",
            );
            let game = start(&rules, &text);
            let printed = letter.trim_end_matches('*');
            assert_eq!(
                level(&game, FRENCH, "a").as_deref(),
                Some(printed),
                "offset right {right}, forward {forward}"
            );
        }
    }
}

#[test]
fn chart_5_turns_with_the_observer() {
    // 000 chart #5 is drawn relative to the observer's front: facing east, the square three
    // ahead (east) is C and the square three to the north (its left) is C on the row.
    let rules = blocks();
    let game = start(
        &rules,
        &scenario(
            &[
                "{ id: s, side: french, type: scout, at: [5, 7], facing: E }".into(),
                "{ id: ahead, side: austrians, type: infantry, at: [8, 7], facing: W }".into(),
                "{ id: left2, side: austrians, type: infantry, at: [5, 5], facing: W }".into(),
                "{ id: ahead_left, side: austrians, type: infantry, at: [7, 6], facing: W }".into(),
            ],
            "",
        ),
    );
    assert_eq!(level(&game, FRENCH, "ahead").as_deref(), Some("C"));
    // Two to the left on the observer's own row: B.
    assert_eq!(level(&game, FRENCH, "left2").as_deref(), Some("B"));
    // Two ahead, one to the left: C (row 2 of the chart: D D D C B C D D D).
    assert_eq!(level(&game, FRENCH, "ahead_left").as_deref(), Some("C"));
}

#[test]
fn starred_letters_alone_disclose_hidden_commands() {
    // 000 legend: hidden commands are disclosed only where the chart letter has a `*`.
    let rules = blocks();
    let pieces = |flags: &str| {
        vec![
            "{ id: s, side: french, type: scout, at: [7, 9], facing: N }".into(),
            // A* (one ahead), B* (one ahead, one right), B (two right), C (three ahead).
            format!("{{ id: a1, side: austrians, type: infantry, at: [7, 8], facing: S{flags} }}"),
            format!("{{ id: b1, side: austrians, type: infantry, at: [8, 8], facing: S{flags} }}"),
            format!("{{ id: b2, side: austrians, type: infantry, at: [9, 9], facing: S{flags} }}"),
            format!("{{ id: c3, side: austrians, type: infantry, at: [7, 6], facing: S{flags} }}"),
        ]
    };
    let open = start(&rules, &scenario(&pieces(""), ""));
    let hidden = start(&rules, &scenario(&pieces(", flags: [hidden]"), ""));
    for (name, letter) in [("a1", "A"), ("b1", "B"), ("b2", "B"), ("c3", "C")] {
        assert_eq!(
            level(&open, FRENCH, name).as_deref(),
            Some(letter),
            "{name}"
        );
    }
    assert_eq!(level(&hidden, FRENCH, "a1").as_deref(), Some("A"));
    assert_eq!(level(&hidden, FRENCH, "b1").as_deref(), Some("B"));
    // Unstarred letters report nothing of a hidden command: it is not in the view at all.
    let view = hidden.view(FRENCH);
    for name in ["b2", "c3"] {
        let id = piece(&hidden, name);
        assert_eq!(hidden.handle_of(FRENCH, id), None, "{name} leaked");
        assert!(
            view.enemy
                .iter()
                .all(|e| hidden.piece_by_handle(FRENCH, e.handle.0) != Some(id)),
            "{name} leaked"
        );
    }
}

#[test]
fn only_senior_officers_and_scouts_read_beyond_the_adjacent_squares() {
    // 000: divisional or brigade officers and their commands see adjacent squares only.
    let rules = blocks();
    let with = |observer: &str| {
        start(
            &rules,
            &scenario(
                &[
                    format!("{{ id: o, side: french, type: {observer}, at: [7, 9], facing: N }}"),
                    "{ id: near, side: austrians, type: infantry, at: [8, 8], facing: S }".into(),
                    "{ id: far, side: austrians, type: infantry, at: [7, 7], facing: S }".into(),
                ],
                "",
            ),
        )
    };
    for senior in ["scout", "corps_hq", "army_hq", "nation_hq"] {
        let g = with(senior);
        assert_eq!(level(&g, FRENCH, "far").as_deref(), Some("B"), "{senior}");
    }
    for line in ["infantry", "cavalry", "artillery"] {
        let g = with(line);
        assert_eq!(level(&g, FRENCH, "near").as_deref(), Some("A"), "{line}");
        assert_eq!(level(&g, FRENCH, "far"), None, "{line}");
    }
}

#[test]
fn dummies_cannot_scout() {
    // 000 #15, 001 notes on dummy markers: dummies collect no scouting information.
    let rules = blocks();
    let game = start(
        &rules,
        &scenario(
            &[
                "{ id: d, side: french, type: dummy, at: [7, 9], facing: N }".into(),
                "{ id: a, side: austrians, type: infantry, at: [7, 7], facing: S }".into(),
            ],
            "",
        ),
    );
    assert_eq!(level(&game, FRENCH, "a"), None);
    // The block is still on the table, face down: its place is public, nothing else.
    let view = game.view(FRENCH);
    let seen = view.enemy.first().expect("the block is on the table");
    assert!(seen.place.is_some() && seen.real.is_none() && seen.kind.is_none());
}

#[test]
fn b_reports_the_number_of_units_and_places_miniatures_only_when_adjacent() {
    // 000 legend, B: place only if adjacent, otherwise tell the number of units.
    let rules = blocks();
    let game = start(
        &rules,
        &scenario(
            &[
                "{ id: s, side: french, type: scout, at: [7, 9], facing: N }".into(),
                "{ id: far, side: austrians, type: infantry, at: [7, 7], facing: S, counters: { units: 6 } }".into(),
                "{ id: near, side: austrians, type: infantry, at: [8, 8], facing: S, counters: { units: 3 } }".into(),
            ],
            "",
        ),
    );
    let view = game.view(FRENCH);
    let far = view
        .enemy
        .iter()
        .find(|e| Some(e.handle.0) == game.handle_of(FRENCH, piece(&game, "far")))
        .expect("far");
    assert_eq!(
        (far.strength, far.real, far.identity.is_some()),
        (Some(6), Some(true), false)
    );
    let near = view
        .enemy
        .iter()
        .find(|e| Some(e.handle.0) == game.handle_of(FRENCH, piece(&game, "near")))
        .expect("near");
    assert!(near.identity.as_ref().is_some_and(|p| p.name == "near"));
}

#[test]
fn markers_flip_face_up_on_a_or_b_and_back_down_on_c_or_d() {
    // 001 [6.92]: face down until an A or B sighting, then face up for all players; back face
    // down when the sighting drops to C or D.
    let rules = blocks();
    let mut game = start(
        &rules,
        &scenario(
            &[
                "{ id: s, side: french, type: scout, at: [7, 9], facing: N }".into(),
                "{ id: a, side: austrians, type: cavalry, at: [7, 7], facing: S }".into(),
            ],
            "",
        ),
    );
    let face_up = |g: &Game, side| {
        g.view(side)
            .enemy
            .iter()
            .any(|e| e.face_up && Some(e.handle.0) == g.handle_of(side, piece(g, "a")))
    };
    assert_eq!(level(&game, FRENCH, "a").as_deref(), Some("B"));
    assert!(face_up(&game, FRENCH));
    assert_eq!(
        game.view(FRENCH).enemy[0].kind.as_deref(),
        Some("cavalry"),
        "a face-up marker shows its type"
    );
    // The scout pulls back a square (turning to face its move) and faces north again: the
    // block is now three ahead, C, and face down again.
    let s = piece(&game, "s");
    // Scouts ride in the command phase.
    let orders = [
        Order {
            side: FRENCH,
            action: Action::Move {
                piece: s,
                path: vec![Cell::new(7, 10)],
            },
        },
        Order {
            side: FRENCH,
            action: Action::Face {
                piece: s,
                facing: grognard_kernel::geometry::Facing(6),
            },
        },
    ];
    for o in &orders {
        game.apply(o, &mut NoHooks)
            .unwrap_or_else(|r| panic!("{r}"));
    }
    assert_eq!(level(&game, FRENCH, "a").as_deref(), Some("C"));
    assert!(!face_up(&game, FRENCH));
}

#[test]
fn dummies_are_lifted_once_per_turn_and_real_blocks_never() {
    // 000 #15: dummies may be removed and put down anywhere, on any game turn.
    let rules = blocks();
    let mut game = start(
        &rules,
        &scenario(
            &[
                "{ id: d, side: french, type: dummy, at: [1, 1], facing: N }".into(),
                "{ id: i, side: french, type: infantry, at: [2, 2], facing: N }".into(),
                "{ id: a, side: austrians, type: infantry, at: [12, 12], facing: S }".into(),
            ],
            "",
        ),
    );
    let (d, i) = (piece(&game, "d"), piece(&game, "i"));
    end_command(&mut game);
    let redeploy = |piece, c, r| Order {
        side: FRENCH,
        action: Action::Redeploy {
            piece,
            to: Cell::new(c, r),
        },
    };
    let events = game
        .apply(&redeploy(d, 9, 3), &mut NoHooks)
        .unwrap_or_else(|r| panic!("{r}"));
    assert!(matches!(events.as_slice(), [Event::Redeployed { .. }, ..]));
    let again = game.apply(&redeploy(d, 3, 3), &mut NoHooks);
    let again = again.expect_err("a second redeployment");
    assert_eq!(again.kind, RefusalKind::AlreadyUsed, "{again}");
    // prose: the words say which rule.
    assert!(again.message.contains("already been redeployed this turn"));
    let real = game.apply(&redeploy(i, 3, 3), &mut NoHooks);
    let real = real.expect_err("a real block's redeployment");
    assert_eq!(real.kind, RefusalKind::BadPiece, "{real}");
    // prose: as above.
    assert!(real.message.contains("not a dummy"));
}

#[test]
fn moving_next_to_a_real_enemy_block_ends_the_move_and_both_deploy() {
    // 000 #9 and #19: moving next to an enemy real block causes deployment; the
    // non-phasing player deploys first.
    let rules = blocks();
    let mut game = start(
        &rules,
        &scenario(
            &[
                // A road column (2 mp: two squares up the road) ...
                "{ id: c, side: french, type: cavalry, at: [7, 9], facing: N, mode: road }".into(),
                // ... whose first square is diagonally next to an enemy block.
                "{ id: a, side: austrians, type: infantry, at: [8, 7], facing: S }".into(),
            ],
            "  features:\n    - feature: road\n      path: [[7, 12], [7, 11], [7, 10], [7, 9], [7, 8], [7, 7], [7, 6], [7, 5]]\n",
        ),
    );
    let c = piece(&game, "c");
    end_command(&mut game);
    let events = game
        .apply(
            &Order {
                side: FRENCH,
                action: Action::Move {
                    piece: c,
                    path: vec![Cell::new(7, 8), Cell::new(7, 7)],
                },
            },
            &mut NoHooks,
        )
        .unwrap_or_else(|r| panic!("{r}"));
    // The move ends on its first square, in contact; the rest of the path is not walked.
    assert_eq!(
        game.piece(c).and_then(|p| p.place.cell()),
        Some(Cell::new(7, 8))
    );
    let contact = events.iter().find_map(|e| match e {
        Event::Contact { at, deploy, .. } => Some((*at, deploy.clone())),
        _ => None,
    });
    let a = piece(&game, "a");
    assert_eq!(contact, Some((Cell::new(7, 8), vec![a, c])));
    // Deployed: each side now sees the other's command at A.
    assert_eq!(level(&game, FRENCH, "a").as_deref(), Some("A"));
    assert_eq!(level(&game, AUSTRIANS, "c").as_deref(), Some("A"));
}

#[test]
fn a_dummy_walking_into_an_unseen_command_goes_on_not_a_refusal() {
    // A hidden marker in the path: no refusal, whose wording could tell where it was. Two
    // dummies are never in contact (000 l.49-50: only a non-dummy command causes
    // deployment), and a dummy collects no information (000 l.79-80; 001 l.150-152), so it
    // is not stopped short either (which would tell its side something stands there): it
    // goes on as onto an empty square and shares it (square blocks, eleventh round). A real
    // block is still stopped short (tests/square_blocks_audit11.rs).
    let rules = blocks();
    let mut game = start(
        &rules,
        &scenario(
            &[
                "{ id: d, side: french, type: dummy, at: [7, 9], facing: N }".into(),
                "{ id: h, side: austrians, type: dummy, at: [7, 8], facing: S, flags: [hidden] }"
                    .into(),
            ],
            "",
        ),
    );
    let d = piece(&game, "d");
    assert!(game.view(FRENCH).enemy.is_empty());
    end_command(&mut game);
    let events = game
        .apply(
            &Order {
                side: FRENCH,
                action: Action::Move {
                    piece: d,
                    path: vec![Cell::new(7, 8)],
                },
            },
            &mut NoHooks,
        )
        .unwrap_or_else(|r| panic!("{r}"));
    assert!(!events.iter().any(|e| matches!(e, Event::Contact { .. })));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::Note { text } if text.contains("could not enter")))
    );
    assert_eq!(
        game.piece(d).and_then(|p| p.place.cell()),
        Some(Cell::new(7, 8))
    );
    assert!(game.view(FRENCH).enemy.is_empty());
}

#[test]
fn orders_naming_unseen_pieces_get_one_wording() {
    let rules = blocks();
    let game = start(
        &rules,
        &scenario(
            &[
                "{ id: s, side: french, type: scout, at: [7, 9], facing: N }".into(),
                "{ id: h, side: austrians, type: infantry, at: [1, 1], facing: S, flags: [hidden] }".into(),
            ],
            "",
        ),
    );
    let h = piece(&game, "h");
    let mut a = game.clone();
    let mut b = game.clone();
    let try_move = |g: &mut Game, id| {
        g.apply(
            &Order {
                side: FRENCH,
                action: Action::Face {
                    piece: id,
                    facing: grognard_kernel::geometry::Facing(0),
                },
            },
            &mut NoHooks,
        )
        .map(|_| ())
        .map_err(|r| r.message.replace(&format!("#{}", id.0), "#N"))
    };
    // An existing hidden enemy piece and a number that is no piece at all read the same.
    assert_eq!(try_move(&mut a, h), try_move(&mut b, PieceId(999)));
}

/// Ends the first command phase (both sides act in it), so the French move.
fn end_command(game: &mut Game) {
    for side in [FRENCH, AUSTRIANS] {
        game.apply(
            &Order {
                side,
                action: Action::EndPhase,
            },
            &mut NoHooks,
        )
        .unwrap_or_else(|r| panic!("{r}"));
    }
}

/// What side `s` can observe of a game: its view, its log and its redacted save.
fn observed(game: &Game, side: SideId) -> (View, String, String) {
    let save = grognard_rules::save::side_save(game, side, "t", &[]);
    (
        game.view(side),
        serde_json::to_string(game.events_for(side)).unwrap_or_default(),
        serde_json::to_string(&save).unwrap_or_default(),
    )
}

/// The facts that would tell the two games apart, as `side` knows them of piece `id`.
fn distinguishing(game: &Game, side: SideId, id: PieceId) -> bool {
    game.state()
        .knowledge
        .get(side.index())
        .and_then(|k| k.get(id))
        .is_some_and(|k| k.real.is_some() || k.strength.is_some() || k.identity.is_some())
        || game.log().iter().any(|e| match e {
            Event::Contact { deploy, .. } => deploy.contains(&id),
            _ => false,
        })
}

/// A random legal-looking order for whoever may act, drawn from `pick`.
fn random_order(game: &Game, pick: &mut impl FnMut(u32) -> u32) -> Order {
    let Some((_, phasing)) = game.phase() else {
        return Order {
            side: FRENCH,
            action: Action::EndPhase,
        };
    };
    let mine: Vec<&grognard_kernel::piece::Piece> = game
        .state()
        .pieces
        .iter()
        .filter(|p| p.side == phasing && p.on_board())
        .collect();
    let choice = pick(10);
    if choice < 2 || mine.is_empty() {
        return Order {
            side: phasing,
            action: Action::EndPhase,
        };
    }
    let p = mine[pick(mine.len() as u32) as usize];
    let at = p.place.cell().unwrap_or(Cell::new(0, 0));
    let step = |c: Cell, d: u32| {
        let (dc, dr) = [
            (0, -1),
            (1, -1),
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
        ][d as usize];
        Cell::new(c.col + dc, c.row + dr)
    };
    match choice {
        2 => Order {
            side: phasing,
            action: Action::Redeploy {
                piece: p.id,
                to: Cell::new(pick(15) as i32, pick(15) as i32),
            },
        },
        3 => Order {
            side: phasing,
            action: Action::Face {
                piece: p.id,
                facing: grognard_kernel::geometry::Facing(pick(8) as u8),
            },
        },
        4 => Order {
            side: phasing,
            action: Action::Mode {
                piece: p.id,
                mode: grognard_kernel::ids::ModeId(pick(2) as _),
            },
        },
        _ => {
            let first = step(at, pick(8));
            let mut path = vec![first];
            if pick(2) == 0 {
                path.push(step(first, pick(8)));
            }
            Order {
                side: phasing,
                action: Action::Move { piece: p.id, path },
            }
        }
    }
}

/// The two games of a pair: `variant` decides what differs in a piece the French have not
/// sighted.
fn pair(rules: &Ruleset, variant: u32, spots: &[u32]) -> (Game, Game, PieceId) {
    let french = [
        format!(
            "{{ id: s, side: french, type: scout, at: [{}, 12], facing: N }}",
            3 + spots[0] % 9
        ),
        format!(
            "{{ id: i, side: french, type: infantry, at: [{}, 13], facing: N, counters: {{ units: 4 }} }}",
            2 + spots[1] % 10
        ),
        format!(
            "{{ id: c, side: french, type: cavalry, at: [{}, 13], facing: N }}",
            3 + spots[2] % 10
        ),
        format!(
            "{{ id: d, side: french, type: dummy, at: [{}, 14], facing: N }}",
            1 + spots[3] % 12
        ),
    ];
    let austrians = |kind: &str, units: u32, at: (u32, u32), hidden: bool| {
        vec![
            format!(
                "{{ id: h, side: austrians, type: {kind}, at: [{}, {}], facing: S, counters: {{ units: {units} }}{} }}",
                at.0,
                at.1,
                if hidden { ", flags: [hidden]" } else { "" }
            ),
            format!(
                "{{ id: a1, side: austrians, type: infantry, at: [{}, 1], facing: S, counters: {{ units: 5 }} }}",
                2 + spots[4] % 10
            ),
            format!(
                "{{ id: a2, side: austrians, type: dummy, at: [{}, 2], facing: S }}",
                1 + spots[5] % 12
            ),
            format!(
                "{{ id: a3, side: austrians, type: scout, at: [{}, 3], facing: S }}",
                4 + spots[6] % 6
            ),
        ]
    };
    let x = 1 + spots[7] % 13;
    let (one, two) = match variant % 3 {
        // A dummy or a real command, face down on the table.
        0 => (
            austrians("dummy", 0, (x, 0), false),
            austrians("infantry", 0, (x, 0), false),
        ),
        // The same command with a different number of units.
        1 => (
            austrians("infantry", 3, (x, 0), false),
            austrians("infantry", 8, (x, 0), false),
        ),
        // A hidden command in a different place, out of sight.
        _ => (
            austrians("infantry", 4, (x, 0), true),
            austrians("infantry", 4, ((x + 5) % 15, 0), true),
        ),
    };
    let text = |aus: Vec<String>| {
        let mut all: Vec<String> = french.to_vec();
        all.extend(aus);
        scenario(&all, "")
    };
    let g1 = start(rules, &text(one));
    let g2 = start(rules, &text(two));
    let h = piece(&g1, "h");
    (g1, g2, h)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    // The non-interference property (in the spirit of OpenSpiel's resampled-infostate test):
    // two games that differ only in what the French have not sighted — a dummy or a real
    // command, a different number of units, a hidden command somewhere else — give the
    // French the same view, log, redacted save and refusal texts, order after order, until
    // they sight what differs.
    #[test]
    fn a_side_cannot_tell_apart_games_that_differ_only_in_what_it_has_not_sighted(
        variant in 0u32..3,
        spots in proptest::collection::vec(0u32..1000, 8),
        choices in proptest::collection::vec(0u32..10_000, 200),
    ) {
        let rules = blocks();
        let (mut g1, mut g2, h) = pair(&rules, variant, &spots);
        // The pair really differs (the referee can tell them apart).
        prop_assert_ne!(g1.state_bytes(), g2.state_bytes());
        let mut k = 0usize;
        let mut pick = |n: u32| {
            let v = choices[k % choices.len()] % n.max(1);
            k += 1;
            v
        };
        for _ in 0..60 {
            if distinguishing(&g1, FRENCH, h) || distinguishing(&g2, FRENCH, h) {
                break;
            }
            prop_assert_eq!(observed(&g1, FRENCH), observed(&g2, FRENCH));
            let order = random_order(&g1, &mut pick);
            let r1 = g1.apply(&order, &mut NoHooks).map(|_| ()).map_err(|r| r.message);
            let r2 = g2.apply(&order, &mut NoHooks).map(|_| ()).map_err(|r| r.message);
            if order.side == FRENCH {
                prop_assert_eq!(&r1, &r2, "a French order was answered differently");
            } else if r1.is_ok() != r2.is_ok() {
                // The Austrians know what differs and their order fared differently: from
                // here the games differ by the enemy's own doing, not by a leak.
                break;
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    // No leaks through the legal list (issue 18): what a side is offered depends only on
    // what it knows, as OpenSpiel's legal actions depend only on the information state. Two
    // games that differ only in what the French have not sighted give the French the same
    // legal orders, order after order, until they sight what differs.
    #[test]
    fn a_side_is_offered_the_same_orders_in_games_it_cannot_tell_apart(
        variant in 0u32..3,
        spots in proptest::collection::vec(0u32..1000, 8),
        choices in proptest::collection::vec(0u32..10_000, 120),
    ) {
        let rules = blocks();
        let (mut g1, mut g2, h) = pair(&rules, variant, &spots);
        let mut k = 0usize;
        let mut pick = |n: u32| {
            let v = choices[k % choices.len()] % n.max(1);
            k += 1;
            v
        };
        for _ in 0..40 {
            if distinguishing(&g1, FRENCH, h) || distinguishing(&g2, FRENCH, h) {
                break;
            }
            prop_assert_eq!(
                g1.legal_orders(FRENCH, &mut NoHooks),
                g2.legal_orders(FRENCH, &mut NoHooks),
                "the French are offered different orders"
            );
            let order = random_order(&g1, &mut pick);
            let r1 = g1.apply(&order, &mut NoHooks).is_ok();
            let r2 = g2.apply(&order, &mut NoHooks).is_ok();
            if r1 != r2 {
                // Told apart by the Austrians' own doing (see the test above).
                break;
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    // A Lua policy sees only its side's view and legal orders (issue 18). The policy below
    // prints everything it can reach — its arguments and every global of its sandbox — at
    // each choice; in two games that differ only in what the French have not sighted, it
    // prints the same text and chooses the same order.
    #[test]
    fn a_lua_policy_cannot_reach_what_its_side_has_not_sighted(
        variant in 0u32..3,
        spots in proptest::collection::vec(0u32..1000, 8),
        choices in proptest::collection::vec(0u32..10_000, 80),
    ) {
        let rules = blocks();
        let (mut g1, mut g2, h) = pair(&rules, variant, &spots);
        let kind = grognard_play::PolicyKind::parse(
            "lua:tests/fixtures/policies/dump.lua",
        )
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let p1 = grognard_play::Player::new(&kind, 7, FRENCH);
        let p2 = grognard_play::Player::new(&kind, 7, FRENCH);
        let (mut p1, mut p2) = (
            p1.map_err(TestCaseError::fail)?,
            p2.map_err(TestCaseError::fail)?,
        );
        let mut k = 0usize;
        let mut pick = |n: u32| {
            let v = choices[k % choices.len()] % n.max(1);
            k += 1;
            v
        };
        let mut asked = 0;
        let told_at_once = distinguishing(&g1, FRENCH, h) || distinguishing(&g2, FRENCH, h);
        for _ in 0..30 {
            if distinguishing(&g1, FRENCH, h) || distinguishing(&g2, FRENCH, h) {
                break;
            }
            if g1.to_act().contains(&FRENCH) {
                let l1 = g1.legal_orders(FRENCH, &mut NoHooks);
                let l2 = g2.legal_orders(FRENCH, &mut NoHooks);
                let c1 = p1.choose(&g1, FRENCH, &l1).map_err(TestCaseError::fail)?;
                let c2 = p2.choose(&g2, FRENCH, &l2).map_err(TestCaseError::fail)?;
                let (d1, d2) = (p1.take_printed(), p2.take_printed());
                prop_assert_eq!(d1.len(), 3, "the policy printed its view, orders and globals");
                prop_assert!(d1[0].contains("enemy=") && d1[1].contains("end_phase"));
                prop_assert_eq!(d1, d2, "the policy saw something different");
                prop_assert_eq!(c1, c2);
                asked += 1;
            }
            let order = random_order(&g1, &mut pick);
            let r1 = g1.apply(&order, &mut NoHooks).is_ok();
            let r2 = g2.apply(&order, &mut NoHooks).is_ok();
            if r1 != r2 {
                break;
            }
        }
        prop_assert!(asked > 0 || told_at_once, "the policy was never asked");
    }
}

#[test]
fn the_side_view_command_prints_only_what_the_side_knows() {
    let run = grognard(&["view", "examples/square-blocks.yaml", "--side", "french"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // abr1 is hidden and abr2 stands in the town: neither is in the French view (view
    // --json: no enemy named or placed at (3,2) or (6,2)).
    let french = crate::util::json_of(&grognard(&[
        "view",
        "examples/square-blocks.yaml",
        "--side",
        "french",
        "--json",
    ]));
    let enemy = french["view"]["enemy"].as_array().expect("enemy");
    assert!(!enemy.is_empty(), "{french}");
    for e in enemy {
        let cell = &e["place"]["cell"];
        let hidden_cell = [(3, 2), (6, 2)]
            .iter()
            .any(|&(col, row)| *cell == serde_json::json!({"col": col, "row": row}));
        let named = ["abr1", "abr2"].iter().any(|n| e["identity"]["name"] == *n);
        assert!(!hidden_cell && !named, "{e}");
    }
    // prose: nor does the text view's words name or place them.
    assert!(
        !run.stdout.contains("abr1") && !run.stdout.contains("abr2"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("(3,2)") && !run.stdout.contains("(6,2)"),
        "{}",
        run.stdout
    );
    let referee = grognard(&["view", "examples/square-blocks.yaml", "--referee"]);
    assert!(referee.stdout.contains("abr1"));
    let json = grognard(&[
        "view",
        "examples/square-blocks.yaml",
        "--orders",
        "examples/square-blocks.orders.yaml",
        "--side",
        "austrians",
        "--json",
    ]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap_or_default();
    assert_eq!(v["view"]["side_name"], "austrians");
    assert!(v["events"].as_array().is_some_and(|e| !e.is_empty()));
    let bad = grognard(&["view", "examples/square-blocks.yaml", "--side", "prussians"]);
    assert_eq!(bad.code, 2);
    // prose: the error names the sides.
    assert!(
        bad.stderr.contains("the sides are french, austrians"),
        "{}",
        bad.stderr
    );
}

#[test]
fn play_for_a_side_writes_a_redacted_save_without_seed_or_enemy_orders() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let save = dir.path().join("french.json");
    let run = grognard(&[
        "play",
        "examples/square-blocks.yaml",
        "--orders",
        "examples/square-blocks.orders.yaml",
        "--side",
        "french",
        "--save",
        save.to_str().unwrap_or_default(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // prose: the French log's words never name the hidden Austrian commands.
    assert!(!run.stdout.contains("abr1"), "{}", run.stdout);
    let text = std::fs::read_to_string(&save).unwrap_or_default();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    assert_eq!(v["format"], "grognard-side-save-1");
    assert!(v.get("seed").is_none());
    assert!(
        v["orders"]
            .as_array()
            .is_some_and(|o| o.iter().all(|x| x["side"] == "french"))
    );
    assert!(!text.contains("abr1"));
    // A side's save is not a referee's save: replay refuses it.
    let replay = grognard(&["replay", save.to_str().unwrap_or_default()]);
    assert_eq!(replay.code, 1);
}

// A side's redacted save read back (issue 33, the twentieth Hex Command audit's E1): replay
// and a text view refuse it in plain words (whose save, why, what can be read), at the line
// of its format tag, never a deserializer's type name; `view --side S --json` prints the view
// and log it holds, the same bytes as the live view of that position.
#[test]
fn a_side_save_read_back_says_what_it_is_and_shows_its_view() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let save = dir.path().join("french.json");
    let path = save.to_str().unwrap_or_default();
    let (scenario, orders) = (
        "examples/square-blocks.yaml",
        "examples/square-blocks.orders.yaml",
    );
    let run = grognard(&[
        "play", scenario, "--orders", orders, "--side", "french", "--save", path,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for args in [
        vec!["replay", path],
        vec!["view", path, "--side", "french"],
        vec!["view", path, "--referee"],
    ] {
        let r = grognard(&args);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stdout);
        assert!(
            r.stderr.contains(&format!(
                "{path}:2: this is french's own save of a game (written by `play --side french --save`)"
            )) && r.stderr.contains("cannot be replayed")
                && r.stderr.contains(&format!("`grognard view {path} --side french --json`")),
            "{args:?}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("SavedRef"), "{}", r.stderr);
    }
    let saved = grognard(&["view", path, "--side", "french", "--json"]);
    assert_eq!(saved.code, 0, "{}", saved.stderr);
    let live = grognard(&[
        "view", scenario, "--orders", orders, "--side", "french", "--json",
    ]);
    assert_eq!(live.code, 0, "{}", live.stderr);
    assert_eq!(saved.stdout, live.stdout);
}

fn spotting_rules() -> Ruleset {
    load_ruleset(&root().join("tests/fixtures/hidden/hex-spotting.yaml"))
        .unwrap_or_else(|d| panic!("{d}"))
}

/// A 20 × 12 hex board; `hill` and `forest` are lists of cells.
fn hex_scenario(
    pieces: &[String],
    hill: &[(i32, i32)],
    forest: &[(i32, i32)],
    seed: u64,
) -> String {
    let mut s = format!(
        "scenario: h\nruleset: hex-spotting\nseed: {seed}\nboard:\n  cols: 20\n  rows: 12\n"
    );
    if !hill.is_empty() || !forest.is_empty() {
        s.push_str("  terrain:\n");
    }
    for (name, cells) in [("hill", hill), ("forest", forest)] {
        if !cells.is_empty() {
            let list: Vec<String> = cells.iter().map(|(c, r)| format!("[{c}, {r}]")).collect();
            s.push_str(&format!("    {name}: [{}]\n", list.join(", ")));
        }
    }
    s.push_str("sides:\n  blue: {}\n  red: {}\npieces:\n");
    for p in pieces {
        s.push_str(&format!("  - {p}\n"));
    }
    s
}

fn start_with(rules: &Ruleset, text: &str, options: &[(String, bool)]) -> Game {
    let s = scenario_from_text("h.yaml", text, rules).unwrap_or_else(|d| panic!("{d}"));
    s.start(None, options, &mut NoHooks)
        .unwrap_or_else(|d| panic!("{d}"))
}

#[test]
fn markers_within_five_hexes_are_revealed_unless_in_cover() {
    // 004 3.1: at 5 hexes markers are revealed automatically, except those in forest, town
    // and the like.
    let rules = spotting_rules();
    let pieces = vec![
        "{ id: b, side: blue, type: infantry, at: [2, 5], facing: E }".to_owned(),
        "{ id: open, side: red, type: infantry, at: [7, 5], facing: W }".to_owned(),
        "{ id: wood, side: red, type: infantry, at: [6, 3], facing: W }".to_owned(),
    ];
    let game = start_with(&rules, &hex_scenario(&pieces, &[], &[(6, 3)], 1), &[]);
    let blue = SideId(0);
    assert_eq!(level(&game, blue, "open").as_deref(), Some("seen"));
    assert_eq!(level(&game, blue, "wood"), None);
}

#[test]
fn beyond_five_hexes_a_roll_spots_within_eight_or_twelve_from_a_hill() {
    // 004 3.1: roll to spot within 8 hexes, 12 from a hill; the roll is the spotting side's
    // and only its own log shows it.
    let rules = spotting_rules();
    let blue = SideId(0);
    let red = SideId(1);
    let rolls = |g: &Game, side| {
        g.events_for(side)
            .iter()
            .filter(|e| matches!(e, Event::SpotRolled { roll, .. } if roll.chart == "spot" && roll.purpose.contains("blue")))
            .count()
    };
    let mut spotted_seen = [false, false];
    for seed in 0..40 {
        let at7 = vec![
            "{ id: b, side: blue, type: infantry, at: [2, 5], facing: E }".to_owned(),
            "{ id: r, side: red, type: infantry, at: [9, 5], facing: W }".to_owned(),
        ];
        let game = start_with(&rules, &hex_scenario(&at7, &[], &[], seed), &[]);
        assert_eq!(rolls(&game, blue), 1, "one roll at 7 hexes");
        assert_eq!(rolls(&game, red), 0, "red does not see blue's roll");
        let outcome = game.events_for(blue).iter().find_map(|e| match e {
            Event::SpotRolled { roll, .. } if roll.chart == "spot" => Some(roll.outcome.clone()),
            _ => None,
        });
        let seen = level(&game, blue, "r").is_some();
        assert_eq!(outcome.as_deref() == Some("spotted"), seen);
        spotted_seen[usize::from(seen)] = true;
    }
    assert_eq!(
        spotted_seen,
        [true, true],
        "both outcomes turn up over 40 seeds"
    );
    // At 11 hexes: no roll from the plain, a roll from the hill.
    let at11 = |hill: &[(i32, i32)]| {
        let pieces = vec![
            "{ id: b, side: blue, type: infantry, at: [2, 5], facing: E }".to_owned(),
            "{ id: r, side: red, type: infantry, at: [13, 5], facing: W }".to_owned(),
        ];
        start_with(&rules, &hex_scenario(&pieces, hill, &[], 3), &[])
    };
    assert_eq!(rolls(&at11(&[]), blue), 0);
    assert_eq!(rolls(&at11(&[(2, 5)]), blue), 1);
}

#[test]
fn hidden_movement_shows_each_unseen_unit_as_two_fake_counters() {
    // 004 optional rules, Hidden Movement: units no enemy can see are replaced with two
    // fake counters.
    let rules = spotting_rules();
    let pieces = vec![
        "{ id: b, side: blue, type: infantry, at: [1, 1], facing: E }".to_owned(),
        "{ id: r, side: red, type: infantry, at: [15, 9], facing: W }".to_owned(),
    ];
    let text = hex_scenario(&pieces, &[], &[], 5);
    let blue = SideId(0);
    let plain = start_with(&rules, &text, &[]);
    let hidden = start_with(&rules, &text, &[("hidden_movement".to_owned(), true)]);
    // Without the option: one face-down marker where the unit stands.
    let markers = |g: &Game| {
        g.view(blue)
            .enemy
            .iter()
            .filter_map(|e| e.place.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(markers(&plain).len(), 1);
    // With it: two counters, neither of them the unit, both where the unit stood.
    let r = piece(&hidden, "r");
    let shown = hidden.view(blue);
    assert_eq!(shown.enemy.len(), 2);
    assert!(
        shown
            .enemy
            .iter()
            .all(|e| Some(e.handle.0) != hidden.handle_of(blue, r) && e.real.is_none())
    );
    assert_eq!(
        markers(&hidden),
        vec![grognard_kernel::piece::Place::Cell(Cell::new(15, 9)); 2]
    );
    // The red player knows which is which: its own view holds the unit and its two fakes.
    assert_eq!(hidden.view(SideId(1)).own.len(), 3);
}

#[test]
fn reach_as_a_side_ignores_enemies_it_has_not_seen() {
    // What a player is shown of its piece's reach may not depend on hidden enemies: a hidden
    // command two squares up the road blocks the referee's reach, not the French player's.
    let rules = blocks();
    let game = start(
        &rules,
        &scenario(
            &[
                "{ id: d, side: french, type: dummy, at: [7, 9], facing: N, mode: road }".into(),
                "{ id: h, side: austrians, type: infantry, at: [7, 7], facing: S, flags: [hidden] }"
                    .into(),
            ],
            "  features:\n    - feature: road\n      path: [[7, 10], [7, 9], [7, 8], [7, 7], [7, 6]]\n",
        ),
    );
    let d = piece(&game, "d");
    let cells = |r: grognard_kernel::game::Reach| match r {
        grognard_kernel::game::Reach::Cells(c) => c.into_iter().map(|x| x.cell).collect::<Vec<_>>(),
        grognard_kernel::game::Reach::Radius(_) => Vec::new(),
    };
    let referee = cells(
        game.reach(d, &mut NoHooks)
            .unwrap_or_else(|r| panic!("{r}")),
    );
    let french = cells(
        game.reach_as(FRENCH, d, &mut NoHooks)
            .unwrap_or_else(|r| panic!("{r}")),
    );
    assert!(!referee.contains(&Cell::new(7, 7)));
    assert!(french.contains(&Cell::new(7, 7)));
    // Only the side's own pieces can be asked about.
    let h = piece(&game, "h");
    assert!(game.reach_as(FRENCH, h, &mut NoHooks).is_err());
}

#[test]
fn mistakes_in_a_sighting_section_are_reported_at_their_lines() {
    let run = grognard(&["validate", "tests/fixtures/hidden/bad-chart.yaml"]);
    assert_eq!(run.code, 1);
    for line in [
        "bad-chart.yaml:9:11: sighting chart `ragged`: every row needs 3 entries like the first; this one has 2",
        "bad-chart.yaml:12:11: sighting chart `no_observer`: mark the observer with exactly one `X` (found 0)",
        "bad-chart.yaml:15:11: unknown sighting level `Q`",
        "bad-chart.yaml:18:17: unknown piece type `scuot`",
        "bad-chart.yaml:19:32: unknown sighting level `Z`",
    ] {
        assert!(
            run.stderr.contains(line),
            "missing `{line}` in\n{}",
            run.stderr
        );
    }
    let hex = grognard(&["validate", "tests/fixtures/hidden/bad-hex.yaml"]);
    assert_eq!(hex.code, 1);
    for line in [
        "offset charts need a square grid",
        "unknown phase `spoting`",
        "decoys must be of a dummy type",
    ] {
        assert!(
            hex.stderr.contains(line),
            "missing `{line}` in\n{}",
            hex.stderr
        );
    }
}
