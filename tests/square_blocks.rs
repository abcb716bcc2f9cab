//! The bundled `square-blocks` variant: one test per mechanic of seeds 000 (tabletop block
//! movement, scouting and visibility) and 001 (battlemap markers and movement,
//! [6.80]-[6.99]). The sighting rules (chart #5, starred letters, face-down markers, dummies
//! that cannot scout, contact) are tested in `hidden.rs`.

use grognard_kernel::Cost;
use grognard_kernel::Ratio;
use grognard_kernel::action::{Action, Event, Order, Refusal, RefusalKind};
use grognard_kernel::game::{Game, Reach};
use grognard_kernel::geometry::Cell;
use grognard_kernel::hooks::Hooks;
use grognard_kernel::ids::{ModeId, PieceId, SideId};
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::{Ruleset, load_ruleset, scenario_from_text};

use crate::hidden::{blocks, level, scenario};
use crate::util::{grognard, root};

const FRENCH: SideId = SideId(0);
const AUSTRIANS: SideId = SideId(1);

/// A game of square-blocks with its Lua hooks.
pub(crate) struct Table {
    pub(crate) game: Game,
    pub(crate) hooks: Box<dyn Hooks>,
}

impl Table {
    pub(crate) fn with(
        rules: Ruleset,
        pieces: &[&str],
        board: &str,
        options: &[(&str, bool)],
    ) -> Result<Self, String> {
        let pieces: Vec<String> = pieces.iter().map(|p| (*p).to_owned()).collect();
        let text = scenario(&pieces, board).replace(
            "ruleset: square-blocks\n",
            &format!("ruleset: {}\n", rules.rules.identity.name),
        );
        let s = scenario_from_text("t.yaml", &text, &rules).map_err(|d| d.to_string())?;
        let mut hooks: Box<dyn Hooks> =
            Box::new(LuaHooks::new(&rules, Limits::default()).map_err(|d| d.to_string())?);
        let options: Vec<(String, bool)> = options
            .iter()
            .map(|(n, on)| ((*n).to_owned(), *on))
            .collect();
        let game = s
            .start(None, &options, hooks.as_mut())
            .map_err(|d| d.to_string())?;
        Ok(Self { game, hooks })
    }

    pub(crate) fn new(pieces: &[&str], board: &str) -> Self {
        Self::with(blocks(), pieces, board, &[]).unwrap_or_else(|e| panic!("{e}"))
    }

    pub(crate) fn id(&self, name: &str) -> PieceId {
        self.game
            .piece_by_name(name)
            .unwrap_or_else(|| panic!("no piece {name}"))
            .id
    }

    pub(crate) fn order(&mut self, side: SideId, action: Action) -> Result<Vec<Event>, Refusal> {
        self.game
            .apply(&Order { side, action }, self.hooks.as_mut())
    }

    pub(crate) fn ok(&mut self, side: SideId, action: Action) -> Vec<Event> {
        self.order(side, action).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Ends phases until `side`'s movement phase (command phases need both sides' end).
    pub(crate) fn until_movement(&mut self, side: SideId) {
        for _ in 0..12 {
            if let Some((phase, phasing)) = self.game.phase()
                && phase.name == "movement"
                && phasing == side
            {
                return;
            }
            let Some((phase, phasing)) = self.game.phase() else {
                panic!("game over");
            };
            if phase.name == "command" {
                let _ = self.order(FRENCH, Action::EndPhase);
                let _ = self.order(AUSTRIANS, Action::EndPhase);
            } else {
                self.ok(phasing, Action::EndPhase);
            }
        }
        panic!("never reached {side:?}'s movement phase");
    }

    pub(crate) fn move_path(
        &mut self,
        name: &str,
        path: &[(i32, i32)],
    ) -> Result<Vec<Event>, Refusal> {
        let piece = self.id(name);
        let side = self.game.piece(piece).map_or(FRENCH, |p| p.side);
        let path = path.iter().map(|(c, r)| Cell::new(*c, *r)).collect();
        self.order(side, Action::Move { piece, path })
    }

    pub(crate) fn at(&self, name: &str) -> Option<Cell> {
        self.game.piece(self.id(name)).and_then(|p| p.place.cell())
    }

    pub(crate) fn counter(&self, name: &str, counter: &str) -> i32 {
        let c = self
            .game
            .rules()
            .counters
            .iter()
            .position(|c| c.name == counter)
            .unwrap_or_else(|| panic!("no counter {counter}"));
        self.game
            .piece(self.id(name))
            .map_or(0, |p| p.counter(grognard_kernel::ids::CounterId(c as u16)))
    }

    pub(crate) fn mode(&self, name: &str) -> ModeId {
        self.game
            .rules()
            .mode_by_name(name)
            .unwrap_or_else(|| panic!("no mode {name}"))
    }

    pub(crate) fn reach_cost(&mut self, name: &str, cell: (i32, i32)) -> Option<Cost> {
        let id = self.id(name);
        match self.game.reach(id, self.hooks.as_mut()) {
            Ok(Reach::Cells(cells)) => cells
                .iter()
                .find(|r| r.cell == Cell::new(cell.0, cell.1))
                .map(|r| r.cost),
            other => panic!("{other:?}"),
        }
    }
}

/// Asserts that `result` was refused with `kind` (the kernel's reason, or `HookFailed` for
/// a refusal of the ruleset's scripts) in words that say `words` (prose: which rule refused
/// is said only in them).
pub(crate) fn refused(result: Result<Vec<Event>, Refusal>, kind: RefusalKind, words: &str) {
    match result {
        Ok(events) => panic!("expected a refusal ({words}), got {events:?}"),
        Err(r) => {
            assert_eq!(r.kind, kind, "{}", r.message);
            assert!(
                r.message.contains(words),
                "expected `{words}` in: {}",
                r.message
            );
        }
    }
}

pub(crate) fn half(n: i32) -> Cost {
    Cost::from_hundredths(50 * n)
}

const WOODS: &str = "  terrain:\n    medium_woods: [[8, 6], [6, 6]]\n    heavy_woods: [[7, 8]]\n    swamp: [[6, 7]]\n    town: [[8, 7]]\n";

#[test]
fn an_orthogonal_step_costs_one_point_and_a_diagonal_one_and_a_half() {
    // 000 #7, 001 [6.92].
    let mut t = Table::new(
        &["{ id: i, side: french, type: infantry, at: [7, 7], facing: N }"],
        "",
    );
    assert_eq!(t.reach_cost("i", (7, 6)), Some(half(2)));
    assert_eq!(t.reach_cost("i", (8, 6)), Some(half(3)));
    // Two orthogonal squares cost 2, over the 1½ of strategic mode.
    assert_eq!(t.reach_cost("i", (7, 5)), None);
}

#[test]
fn the_movement_chart_gives_each_command_its_allowance_per_mode() {
    // 000 Tabletop map movement chart: battle / strategic / road.
    let rules = blocks();
    let r = &rules.rules;
    let chart: [(&str, [Option<i32>; 3]); 8] = [
        ("infantry", [Some(1), Some(3), Some(4)]),
        ("cavalry", [Some(2), Some(3), Some(4)]),
        ("legion", [Some(2), Some(3), Some(4)]),
        ("artillery", [Some(1), Some(3), Some(4)]),
        ("siege", [Some(1), Some(2), Some(3)]),
        ("train", [Some(1), Some(2), Some(3)]),
        ("scout", [None, Some(3), Some(3)]),
        ("army_hq", [Some(2), Some(3), Some(4)]),
    ];
    for (kind, halves) in chart {
        let ty = r
            .piece_types
            .iter()
            .find(|t| t.name == kind)
            .unwrap_or_else(|| panic!("{kind}"));
        for (mode, want) in ["battle", "strategic", "road"].iter().zip(halves) {
            let m = r.mode_by_name(mode).unwrap_or_else(|| panic!("{mode}"));
            let got = ty.allowance.get(m.index()).copied().flatten();
            assert_eq!(got, want.map(half), "{kind} in {mode} mode");
        }
    }
    // 001 [6.83]: every battlemap marker type is there.
    for kind in [
        "infantry",
        "half_infantry",
        "cavalry",
        "artillery",
        "legion",
        "grenadier",
        "guard_infantry",
        "guard_cavalry",
        "cossack",
        "park",
        "siege",
        "supply",
        "small_infantry",
        "small_cavalry",
        "small_artillery",
        "dummy",
        "corps_hq",
        "army_hq",
        "nation_hq",
        "scout",
        "adc",
        "officer",
    ] {
        assert!(r.piece_types.iter().any(|t| t.name == kind), "{kind}");
    }
}

#[test]
fn infantry_enters_medium_woods_orthogonally_but_saves_its_points_for_a_diagonal() {
    // 000 #8 and the terrain table; 001 [6.93]: the whole cost is paid before the block is
    // in the square. Strategic infantry has 1½: woods orthogonally cost 1 + ½, diagonally
    // 1½ + ½ = 2.
    let mut t = Table::new(
        &[
            "{ id: i, side: french, type: infantry, at: [7, 7], facing: N }",
            "{ id: j, side: french, type: infantry, at: [9, 6], facing: N }",
        ],
        WOODS,
    );
    t.until_movement(FRENCH);
    assert!(t.move_path("j", &[(8, 6)]).is_ok(), "orthogonal into woods");
    let diagonal = t.move_path("i", &[(6, 6)]);
    refused(diagonal, RefusalKind::TooFar, "the path costs 2");
    let i = t.id("i");
    t.ok(
        FRENCH,
        Action::Save {
            piece: i,
            toward: Cell::new(6, 6),
        },
    );
    assert_eq!(t.counter("i", "saved_mp"), 3, "1½ saved, in half points");
    assert_eq!(
        t.at("i"),
        Some(Cell::new(7, 7)),
        "it stays in its square meanwhile"
    );
    t.ok(FRENCH, Action::EndPhase);
    t.until_movement(FRENCH);
    assert!(t.move_path("i", &[(6, 6)]).is_ok());
    assert_eq!(t.counter("i", "saved_mp"), 0, "spent");
}

#[test]
fn heavy_woods_are_closed_and_swamps_and_towns_cost_half_a_point_more() {
    // 000 terrain table.
    let mut t = Table::new(
        &["{ id: c, side: french, type: cavalry, at: [7, 7], facing: N, mode: battle }"],
        WOODS,
    );
    assert_eq!(t.reach_cost("c", (7, 8)), None, "heavy woods");
    let mut s = Table::new(
        &["{ id: i, side: french, type: infantry, at: [7, 7], facing: N }"],
        WOODS,
    );
    assert_eq!(s.reach_cost("i", (6, 7)), Some(half(3)), "swamp: 1 + ½");
    assert_eq!(s.reach_cost("i", (8, 7)), Some(half(3)), "town: 1 + ½");
}

const RIVER: &str = "  features:\n    - feature: river\n      between: [[[3, 7], [3, 8]], [[4, 7], [4, 8]], [[5, 7], [5, 8]], [[6, 7], [6, 8]], [[7, 7], [7, 8]]]\n    - feature: bridge\n      between: [[[5, 7], [5, 8]]]\n    - feature: ford\n      between: [[[3, 7], [3, 8]]]\n";

#[test]
fn rivers_are_crossed_only_at_fords_and_bridges_each_with_a_capacity_per_turn() {
    // 000 terrain table: rivers not allowed; fords, bridges and narrow passes carry so many
    // commands a turn (this ruleset: a bridge 2, a ford 1).
    let mut t = Table::new(
        &[
            "{ id: a, side: french, type: infantry, at: [5, 8], facing: N }",
            "{ id: h, side: french, type: half_infantry, at: [5, 8], facing: N }",
            "{ id: k, side: french, type: half_infantry, at: [5, 8], facing: N }",
            "{ id: c, side: french, type: infantry, at: [6, 8], facing: N }",
            "{ id: d, side: french, type: infantry, at: [3, 8], facing: N }",
            "{ id: e, side: french, type: half_infantry, at: [3, 8], facing: N }",
        ],
        RIVER,
    );
    assert_eq!(t.reach_cost("c", (6, 7)), None, "no crossing there");
    assert_eq!(t.reach_cost("a", (5, 7)), Some(half(2)), "over the bridge");
    t.until_movement(FRENCH);
    t.move_path("a", &[(5, 7)])
        .unwrap_or_else(|e| panic!("{e}"));
    t.move_path("h", &[(5, 7)])
        .unwrap_or_else(|e| panic!("{e}"));
    let third = t.move_path("k", &[(5, 7)]);
    refused(
        third,
        RefusalKind::Impassable,
        "carried all the pieces it can this turn",
    );
    t.move_path("d", &[(3, 7)])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        t.move_path("e", &[(3, 7)]).is_err(),
        "the ford has carried its one"
    );
    // Next turn the bridge carries again.
    t.ok(FRENCH, Action::EndPhase);
    t.until_movement(FRENCH);
    t.move_path("k", &[(5, 7)])
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_fortress_is_entered_only_through_its_gateway() {
    // 000 terrain table: "enter fortress square via gateway".
    let walls = "  terrain:\n    fortress: [[7, 6]]\n  features:\n    - feature: fortress_wall\n      between: [[[7, 6], [7, 7]], [[7, 6], [6, 6]], [[7, 6], [8, 6]], [[7, 6], [7, 5]]]\n    - feature: gateway\n      between: [[[7, 6], [7, 7]]]\n";
    let mut t = Table::new(
        &["{ id: i, side: french, type: infantry, at: [7, 7], facing: N }"],
        walls,
    );
    assert_eq!(
        t.reach_cost("i", (7, 6)),
        Some(half(2)),
        "through the gateway"
    );
    let mut u = Table::new(
        &["{ id: i, side: french, type: infantry, at: [6, 6], facing: E }"],
        walls,
    );
    assert_eq!(u.reach_cost("i", (7, 6)), None, "over the wall");
}

#[test]
fn road_mode_follows_the_road_ignores_terrain_and_pays_one_and_a_half_on_a_diagonal() {
    // 000 #10, 001 [6.93]: road movement omits terrain costs, follows the road square by
    // square, and a diagonal road step costs 1½.
    let road = "  terrain:\n    medium_woods: [[7, 6]]\n  features:\n    - feature: road\n      path: [[7, 8], [7, 7], [7, 6], [8, 5], [8, 4]]\n";
    let mut t = Table::new(
        &["{ id: i, side: french, type: infantry, at: [7, 8], facing: N, mode: road }"],
        road,
    );
    assert_eq!(
        t.reach_cost("i", (7, 6)),
        Some(half(4)),
        "1 + 1 through the wood, no +½"
    );
    let mut u = Table::new(
        &["{ id: i, side: french, type: infantry, at: [7, 6], facing: N, mode: road }"],
        road,
    );
    assert_eq!(
        u.reach_cost("i", (8, 5)),
        Some(half(3)),
        "diagonal road step"
    );
    assert_eq!(u.reach_cost("i", (6, 5)), None, "off the road");
}

#[test]
fn at_most_two_squares_in_strategic_mode_and_one_in_battle_mode() {
    // 000 #12, 001 [6.94]: even with points in hand.
    let mut t = Table::with(
        blocks(),
        &[
            "{ id: c, side: french, type: cavalry, at: [7, 7], facing: N, mode: battle, counters: { saved_mp: 2 } }",
            "{ id: s, side: french, type: infantry, at: [3, 7], facing: N, counters: { saved_mp: 4 } }",
        ],
        "",
        &[],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    t.until_movement(FRENCH);
    let two = t.move_path("c", &[(7, 6), (7, 5)]);
    refused(two, RefusalKind::TooFar, "at most 1 cell in battle mode");
    let three = t.move_path("s", &[(3, 6), (3, 5), (3, 4)]);
    refused(
        three,
        RefusalKind::TooFar,
        "at most 2 cells in strategic mode",
    );
}

#[test]
fn points_are_saved_only_for_a_reason_and_never_kept_in_reserve() {
    // 001 [6.94]-[6.95], 000 #11: saving in battle or road mode or toward costly terrain;
    // none beyond the next phase they could be spent in; no standing reserve.
    let mut t = Table::new(
        &[
            "{ id: tr, side: french, type: train, at: [7, 7], facing: N }",
            "{ id: i, side: french, type: infantry, at: [3, 7], facing: N }",
            "{ id: b, side: french, type: infantry, at: [10, 7], facing: N, mode: battle }",
        ],
        WOODS,
    );
    t.until_movement(FRENCH);
    let (tr, i, b) = (t.id("tr"), t.id("i"), t.id("b"));
    // A strategic train (1 mp) cannot save for a diagonal over clear ground (1½).
    let train = t.order(
        FRENCH,
        Action::Save {
            piece: tr,
            toward: Cell::new(6, 8),
        },
    );
    refused(train, RefusalKind::BadMode, "only in battle or road mode");
    // Strategic infantry has all it needs for an orthogonal step: no reserve.
    let reserve = t.order(
        FRENCH,
        Action::Save {
            piece: i,
            toward: Cell::new(3, 6),
        },
    );
    refused(reserve, RefusalKind::TooFar, "no standing reserve");
    // Battle mode saves to reach an adjacent square: ½ now, ½ next phase, then it steps.
    t.ok(
        FRENCH,
        Action::Save {
            piece: b,
            toward: Cell::new(10, 6),
        },
    );
    assert_eq!(t.counter("b", "saved_mp"), 1);
    t.ok(FRENCH, Action::EndPhase);
    t.until_movement(FRENCH);
    t.move_path("b", &[(10, 6)])
        .unwrap_or_else(|e| panic!("{e}"));
    // Saved points expire after a phase in which the block could move and did not.
    t.ok(FRENCH, Action::EndPhase);
    t.until_movement(FRENCH);
    t.ok(
        FRENCH,
        Action::Save {
            piece: b,
            toward: Cell::new(10, 5),
        },
    );
    t.ok(FRENCH, Action::EndPhase);
    t.until_movement(FRENCH);
    assert_eq!(t.counter("b", "saved_mp"), 1);
    t.ok(FRENCH, Action::EndPhase);
    assert_eq!(t.counter("b", "saved_mp"), 0, "not spent: lost");
}

#[test]
fn strategic_to_battle_takes_a_stationary_phase_and_battle_to_strategic_is_immediate() {
    // 000 #14, 001 [6.99]; the overlay square-blocks-battlemap makes the way back slow too.
    let pieces = [
        "{ id: i, side: french, type: infantry, at: [7, 7], facing: N }",
        "{ id: j, side: french, type: infantry, at: [3, 7], facing: N, mode: battle }",
    ];
    let mut t = Table::new(&pieces, "");
    t.until_movement(FRENCH);
    let (i, j) = (t.id("i"), t.id("j"));
    let battle = t.mode("battle");
    let strategic = t.mode("strategic");
    t.move_path("i", &[(7, 6)])
        .unwrap_or_else(|e| panic!("{e}"));
    let late = t.order(
        FRENCH,
        Action::Mode {
            piece: i,
            mode: battle,
        },
    );
    refused(late, RefusalKind::AlreadyUsed, "standing still");
    t.ok(
        FRENCH,
        Action::Mode {
            piece: j,
            mode: strategic,
        },
    );
    t.move_path("j", &[(3, 6)])
        .unwrap_or_else(|e| panic!("{e}"));
    t.ok(FRENCH, Action::EndPhase);
    t.until_movement(FRENCH);
    t.ok(
        FRENCH,
        Action::Mode {
            piece: i,
            mode: battle,
        },
    );
    let after = t.move_path("i", &[(7, 5)]);
    refused(
        after,
        RefusalKind::AlreadyUsed,
        "changed from strategic to battle mode this phase",
    );

    let overlay = load_ruleset(&root().join("rulesets/square-blocks-battlemap.yaml"))
        .unwrap_or_else(|d| panic!("{d}"));
    let mut o = Table::with(overlay, &pieces, "", &[]).unwrap_or_else(|e| panic!("{e}"));
    o.until_movement(FRENCH);
    let j = o.id("j");
    o.ok(
        FRENCH,
        Action::Mode {
            piece: j,
            mode: strategic,
        },
    );
    assert!(
        o.move_path("j", &[(3, 6)]).is_err(),
        "the battlemap reading: a phase's delay"
    );
}

#[test]
fn no_more_than_two_and_a_half_blocks_dummies_included() {
    // 000 #13, 001 [6.98]: half blocks count ½; dummies count.
    let mut t = Table::new(
        &[
            "{ id: a, side: french, type: infantry, at: [7, 7], facing: N }",
            "{ id: d, side: french, type: dummy, at: [7, 7], facing: N }",
            "{ id: h, side: french, type: half_infantry, at: [7, 8], facing: N }",
            "{ id: k, side: french, type: half_infantry, at: [6, 8], facing: N }",
        ],
        "",
    );
    t.until_movement(FRENCH);
    t.move_path("h", &[(7, 7)])
        .unwrap_or_else(|e| panic!("{e}"));
    let over = t.move_path("k", &[(7, 7)]);
    refused(
        over,
        RefusalKind::Occupied,
        "3 blocks there, over the limit of 2½",
    );
}

#[test]
fn a_square_holds_at_most_150_figures_and_road_columns_never_stack() {
    // 001 [6.98].
    let mut t = Table::new(
        &[
            "{ id: a, side: french, type: infantry, at: [7, 7], facing: N, counters: { figures: 100 } }",
            "{ id: b, side: french, type: infantry, at: [7, 8], facing: N, counters: { figures: 60 } }",
            "{ id: c, side: french, type: infantry, at: [6, 8], facing: N, counters: { figures: 40 } }",
        ],
        "",
    );
    t.until_movement(FRENCH);
    let over = t.move_path("b", &[(7, 7)]);
    refused(
        over,
        RefusalKind::Occupied,
        "160 figures there, over the limit of 150",
    );
    t.move_path("c", &[(7, 7)])
        .unwrap_or_else(|e| panic!("{e}"));
    let road = "  features:\n    - feature: road\n      path: [[7, 9], [7, 8], [7, 7]]\n";
    let mut r = Table::new(
        &[
            "{ id: a, side: french, type: infantry, at: [7, 7], facing: N, mode: road }",
            "{ id: b, side: french, type: infantry, at: [7, 8], facing: N, mode: road }",
        ],
        road,
    );
    r.until_movement(FRENCH);
    let stack = r.move_path("b", &[(7, 7)]);
    refused(stack, RefusalKind::Occupied, "road mode cannot share");
}

#[test]
fn extension_arrows_spread_a_command_with_at_least_five_figures_a_square() {
    // 000 #16.
    let mut t = Table::new(
        &[
            "{ id: a, side: french, type: infantry, at: [7, 7], facing: N, counters: { figures: 12 } }",
        ],
        "",
    );
    t.until_movement(FRENCH);
    let a = t.id("a");
    let events = t.ok(
        FRENCH,
        Action::Extend {
            piece: a,
            to: Cell::new(8, 7),
        },
    );
    assert!(matches!(&events[..], [Event::Spread { cells, .. }, ..] if cells.len() == 2));
    let third = t.order(
        FRENCH,
        Action::Extend {
            piece: a,
            to: Cell::new(9, 7),
        },
    );
    refused(
        third,
        RefusalKind::TooFar,
        "12 figures to divide over 3 cells",
    );
    let moving = t.move_path("a", &[(7, 6)]);
    refused(moving, RefusalKind::BadPath, "gather it before moving");
    t.ok(FRENCH, Action::Gather { piece: a });
    assert_eq!(t.at("a"), Some(Cell::new(7, 7)));
}

#[test]
fn forward_deployment_needs_battle_mode_a_feature_and_half_a_point_and_is_announced() {
    // 000 #18.
    let mut t = Table::new(
        &[
            "{ id: w, side: french, type: infantry, at: [8, 6], facing: N, mode: battle, counters: { saved_mp: 1 } }",
            "{ id: o, side: french, type: infantry, at: [3, 3], facing: N, mode: battle, counters: { saved_mp: 1 } }",
            "{ id: s, side: french, type: infantry, at: [6, 6], facing: N, counters: { saved_mp: 1 } }",
            "{ id: n, side: french, type: infantry, at: [8, 7], facing: N, mode: battle }",
            "{ id: x, side: austrians, type: infantry, at: [12, 1], facing: S }",
        ],
        WOODS,
    );
    t.until_movement(FRENCH);
    let fd = t
        .game
        .rules()
        .action_by_name("forward_deploy")
        .unwrap_or_else(|| panic!("no forward_deploy"));
    let act = |t: &mut Table, name: &str| {
        let piece = t.id(name);
        t.order(
            FRENCH,
            Action::Act {
                piece,
                action: fd,
                target: None,
                intent: Vec::new(),
            },
        )
    };
    refused(
        act(&mut t, "o"),
        RefusalKind::HookFailed,
        "no terrain feature",
    );
    refused(act(&mut t, "s"), RefusalKind::HookFailed, "battle mode");
    refused(
        act(&mut t, "n"),
        RefusalKind::HookFailed,
        "needs ½ mp saved",
    );
    act(&mut t, "w").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.counter("w", "saved_mp"), 0);
    // The opponent is told.
    assert!(
        t.game
            .events_for(AUSTRIANS)
            .iter()
            .any(|e| matches!(e, Event::Announced { text } if text == "the command at (8,6) is deployed forward into a wood"))
    );
}

#[test]
fn small_tables_give_every_block_a_free_half_point() {
    // 000 #20 (optional): infantry can advance two squares at once (1½ + ½).
    let pieces = ["{ id: i, side: french, type: infantry, at: [7, 7], facing: N }"];
    let mut off = Table::new(&pieces, "");
    off.until_movement(FRENCH);
    assert!(off.move_path("i", &[(7, 6), (7, 5)]).is_err());
    let mut on = Table::with(blocks(), &pieces, "", &[("small_tables", true)])
        .unwrap_or_else(|e| panic!("{e}"));
    on.until_movement(FRENCH);
    on.move_path("i", &[(7, 6), (7, 5)])
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn officers_and_scouts_move_in_both_command_phases_and_blocks_in_the_movement_phase() {
    // 000 movement chart footnote: unattached officers, ADCs and scouts move in both
    // command phases of a turn.
    let mut t = Table::new(
        &[
            "{ id: s, side: french, type: officer, at: [7, 12], facing: N }",
            "{ id: i, side: french, type: infantry, at: [3, 12], facing: N }",
            // An unattached officer (no Scout Fate roll: since the thirteenth outside audit
            // #21 every side's scouts roll in every command phase, and a roll could lose it).
            "{ id: ahq, side: austrians, type: corps_hq, at: [0, 0], facing: S, mode: battle }",
            "{ id: a, side: austrians, type: officer, at: [7, 1], facing: S }",
        ],
        "",
    );
    // Turn 1, the French command phase: both sides' officers ride.
    t.move_path("s", &[(7, 11)])
        .unwrap_or_else(|e| panic!("{e}"));
    t.move_path("a", &[(7, 2)])
        .unwrap_or_else(|e| panic!("{e}"));
    let block = t.move_path("i", &[(3, 11)]);
    refused(
        block,
        RefusalKind::OutOfPhase,
        "only scout, adc, officer pieces move",
    );
    t.until_movement(FRENCH);
    let officer = t.move_path("s", &[(7, 10)]);
    refused(
        officer,
        RefusalKind::OutOfPhase,
        "in the movement phase only",
    );
    t.move_path("i", &[(3, 11)])
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn scout_fate_odds_follow_the_table_with_its_night_and_transit_modifiers() {
    // 000 Scout Fate Table (d10): remove on 10 beyond 5 squares, 10 at 4-5 squares, 9-10 at
    // 2-3, 8-10 at 1 or less; +2 for a headquarters in transit, +2 at night (the starred
    // rows only).
    let rules = blocks();
    let r = &rules.rules;
    let (_, chart) = r
        .charts
        .iter()
        .enumerate()
        .find(|(_, c)| c.name == "scout_fate")
        .unwrap_or_else(|| panic!("scout_fate"));
    let removed = chart
        .outcomes
        .iter()
        .position(|o| o == "removed")
        .unwrap_or(0);
    let input = |n: &str| chart.inputs.iter().position(|i| i.name == n).unwrap_or(0);
    let case = |range, transit, night| {
        let c = grognard_rules::odds::chart_case(
            chart,
            &r.dice,
            &[
                (input("range"), range),
                (input("transit"), transit),
                (input("night"), night),
            ],
        );
        c.odds[removed]
    };
    assert_eq!(case(0, 0, 0), Ratio::new(1, 10));
    assert_eq!(
        case(0, 1, 1),
        Ratio::new(1, 10),
        "no asterisk beyond 5 squares"
    );
    assert_eq!(case(1, 0, 0), Ratio::new(1, 10));
    assert_eq!(case(1, 1, 0), Ratio::new(3, 10));
    assert_eq!(case(2, 0, 0), Ratio::new(2, 10));
    assert_eq!(case(2, 0, 1), Ratio::new(4, 10));
    assert_eq!(case(3, 0, 0), Ratio::new(3, 10));
    assert_eq!(case(3, 1, 1), Ratio::new(7, 10));
    // The same, as the chart lab prints it.
    let run = grognard(&[
        "chart",
        "rulesets/square-blocks.yaml",
        "scout_fate",
        "--set",
        "range=3",
        "--set",
        "night=1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // prose: the odds as the text answer writes them.
    assert!(run.stdout.contains("1/2"), "{}", run.stdout);
}

#[test]
fn headquarters_send_out_two_three_or_five_scouts_and_one_more_per_dummy() {
    // 000 scouting: corps/wing 2, army 3, nation 5; 001: +1 per dummy in the battle zone.
    let scouts = |n: usize| -> Vec<String> {
        (0..n)
            .map(|k| format!("{{ id: s{k}, side: french, type: scout, at: [{}, 12], facing: N, attributes: {{ hq: 0 }} }}", 2 + k))
            .collect()
    };
    let start = |pieces: Vec<String>| {
        let mut all =
            vec!["{ id: corps, side: french, type: corps_hq, at: [7, 13], facing: N }".to_owned()];
        all.extend(pieces);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        Table::with(blocks(), &refs, "", &[])
    };
    assert!(start(scouts(2)).is_ok());
    let three = start(scouts(3));
    // prose: a scenario that cannot start is told in the loader's words.
    assert!(
        three
            .as_ref()
            .is_err_and(|e| e.contains("may send out 2 scouts") && e.contains("plus one per dummy")),
        "{:?}",
        three.err()
    );
    let mut with_dummy = scouts(3);
    with_dummy.push("{ id: d, side: french, type: dummy, at: [12, 12], facing: N }".to_owned());
    assert!(start(with_dummy).is_ok());
}

#[test]
fn a_lost_scout_goes_back_to_its_headquarters_and_sits_out_the_turn() {
    // 000 scouting: removed scouts return to their headquarters base for a new assignment
    // next turn. A scout next to enemy blocks is removed on 8-10 (with the HQ in transit,
    // 6-10); find a seed where it is.
    for seed in 0..60u64 {
        let text = scenario(
            &[
                "{ id: hq, side: french, type: corps_hq, at: [7, 13], facing: N }".into(),
                "{ id: s, side: french, type: scout, at: [7, 5], facing: N, attributes: { hq: 0 } }".into(),
                "{ id: a, side: austrians, type: infantry, at: [7, 4], facing: S }".into(),
            ],
            "",
        )
        .replace("seed: 7", &format!("seed: {seed}"));
        let rules = blocks();
        let s = scenario_from_text("t.yaml", &text, &rules).unwrap_or_else(|d| panic!("{d}"));
        let mut hooks = LuaHooks::new(&rules, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
        let game = s
            .start(None, &[], &mut hooks)
            .unwrap_or_else(|d| panic!("{d}"));
        let scout = game.piece_by_name("s").map(|p| (p.place.cell(), p.id));
        let Some((Some(cell), id)) = scout else {
            continue;
        };
        if cell != Cell::new(7, 13) {
            continue;
        }
        let mut t = Table {
            game,
            hooks: Box::new(hooks),
        };
        assert_eq!(
            level(&t.game, FRENCH, "a"),
            None,
            "a lost scout reports nothing"
        );
        let stuck = t.order(
            FRENCH,
            Action::Move {
                piece: id,
                path: vec![Cell::new(7, 12)],
            },
        );
        refused(stuck, RefusalKind::AlreadyUsed, "cannot move: it is lost");
        // Next turn it rides again (unless the new turn's fate roll loses it once more).
        t.until_movement(AUSTRIANS);
        t.ok(AUSTRIANS, Action::EndPhase);
        let lost = t
            .game
            .rules()
            .flags
            .iter()
            .position(|f| f.name == "lost")
            .map(|f| grognard_kernel::ids::FlagId(f as u16));
        let lost_now = t
            .game
            .piece(id)
            .is_some_and(|p| lost.is_some_and(|f| p.flag(f)));
        let again = t.order(
            FRENCH,
            Action::Move {
                piece: id,
                path: vec![Cell::new(7, 12)],
            },
        );
        assert_eq!(again.is_ok(), !lost_now, "{again:?}");
        return;
    }
    panic!("no seed in 0..60 lost the scout");
}

#[test]
fn the_example_plays_and_every_side_sees_only_its_own() {
    let run = grognard(&[
        "play",
        "examples/square-blocks.yaml",
        "--orders",
        "examples/square-blocks.orders.yaml",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // On play --json: fdum1's saved diagonal step at cost 2, cav1's contact at (6,4)
    // deploying abat then cav1.
    let played = crate::util::play_json(
        "examples/square-blocks.yaml",
        "examples/square-blocks.orders.yaml",
    );
    let diagonal = crate::util::cells(&[(2, 8), (1, 7)]);
    let saved = |e: &serde_json::Value| e["path"] == diagonal && e["cost"] == 200;
    assert!(played.has("moved", "fdum1", saved), "{:?}", played.events);
    let order = [played.piece("abat"), played.piece("cav1")];
    let contact = |e: &serde_json::Value| {
        e["at"] == serde_json::json!({"col": 6, "row": 4})
            && e["deploy"] == serde_json::json!(order)
    };
    assert!(
        played.has("contact", "cav1", contact),
        "{:?}",
        played.events
    );
    // prose: the log's lines for them and for the save and the lift.
    for line in [
        "fdum1 stands and saves its points toward (1,7) (1½ saved)",
        "fdum1 moved (2,8) → (1,7), cost 2",
        "adum1 lifted and put down at (3,6)",
        "cav1 comes into contact at (6,4); deploying in order: abat, cav1",
    ] {
        assert!(
            run.stdout.contains(line),
            "missing `{line}` in\n{}",
            run.stdout
        );
    }
}

#[test]
fn the_battlemap_holds_two_markers_a_square() {
    // 001 [6.98]: at most 2 command markers in a square (the battlemap overlay); the same
    // three pieces fit the tabletop's 2½ blocks.
    let pieces = [
        "{ id: a, side: french, type: infantry, at: [7, 7], facing: N }",
        "{ id: b, side: french, type: half_infantry, at: [7, 7], facing: N }",
        "{ id: c, side: french, type: half_infantry, at: [7, 8], facing: N }",
    ];
    let mut table = Table::new(&pieces, "");
    table.until_movement(FRENCH);
    table
        .move_path("c", &[(7, 7)])
        .unwrap_or_else(|e| panic!("{e}"));
    let overlay = load_ruleset(&root().join("rulesets/square-blocks-battlemap.yaml"))
        .unwrap_or_else(|d| panic!("{d}"));
    let mut map = Table::with(overlay, &pieces, "", &[]).unwrap_or_else(|e| panic!("{e}"));
    map.until_movement(FRENCH);
    let third = map.move_path("c", &[(7, 7)]);
    refused(
        third,
        RefusalKind::Occupied,
        "3 markers there, over the limit of 2",
    );
}

#[test]
fn small_commands_hold_ten_figures_or_less() {
    // 001 [6.82]-[6.83]: a marker stands for 1 to 150 figures; small commands (park, siege,
    // supply, small infantry/cavalry/artillery) for 10 or less.
    let start = |figures: u32| {
        let piece = format!(
            "{{ id: p, side: french, type: small_cavalry, at: [7, 7], facing: N, counters: {{ figures: {figures} }} }}"
        );
        Table::with(blocks(), &[piece.as_str()], "", &[])
    };
    assert!(start(10).is_ok());
    let eleven = start(11);
    // prose: a scenario that cannot start is told in the loader's words.
    assert!(
        eleven
            .as_ref()
            .is_err_and(|e| e.contains("small commands hold 10 or less")),
        "{:?}",
        eleven.err()
    );
    // The counter itself stops at 150.
    let big = Table::new(
        &[
            "{ id: b, side: french, type: infantry, at: [7, 7], facing: N, counters: { figures: 400 } }",
        ],
        "",
    );
    assert_eq!(big.counter("b", "figures"), 150);
}

#[test]
fn lost_scouts_rejoin_a_headquarters_beside_a_road_column_without_a_refusal() {
    // 000 scouting, with the road rule of 001 (commands in road mode share no square): two
    // scouts of one headquarters are lost in the same command phase, the first in road
    // mode. It rejoins the headquarters as an attached piece; the second, placed after it
    // on the same square, must not be refused (found by `grognard fuzz`: the hook read the
    // game as the phase began and did not see the first scout's road column arrive).
    let mut both_lost = 0;
    for seed in 0..400u64 {
        let text = scenario(
            &[
                "{ id: hq, side: french, type: corps_hq, at: [7, 13], facing: N, mode: battle }".into(),
                "{ id: s1, side: french, type: scout, at: [7, 5], facing: N, mode: road, attributes: { hq: 0 } }".into(),
                "{ id: s2, side: french, type: scout, at: [9, 5], facing: N, attributes: { hq: 0 } }".into(),
                "{ id: a, side: austrians, type: infantry, at: [8, 4], facing: S }".into(),
            ],
            "",
        )
        .replace("seed: 7", &format!("seed: {seed}"));
        let rules = blocks();
        let s = scenario_from_text("t.yaml", &text, &rules).unwrap_or_else(|d| panic!("{d}"));
        let mut hooks = LuaHooks::new(&rules, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
        // The scouts' fate is rolled as the first command phase begins: starting the game
        // must not fail, whatever the dice.
        let game = s
            .start(None, &[], &mut hooks)
            .unwrap_or_else(|d| panic!("seed {seed}: {d}"));
        let at = |name: &str| game.piece_by_name(name).and_then(|p| p.place.cell());
        if at("s1") == Some(Cell::new(7, 13)) && at("s2") == Some(Cell::new(7, 13)) {
            both_lost += 1;
            let host = game.piece_by_name("s1").and_then(|p| p.attached_to);
            assert_eq!(host, game.piece_by_name("hq").map(|p| p.id), "seed {seed}");
        }
    }
    assert!(both_lost > 0, "no seed lost both scouts");
}
