//! What the fourth outside new-player check of issue 37 left (its remaining list, items
//! this file names), each driven as a player drives the editor (egui_kittest) or through
//! the board painter the Play and Remote tabs share.

mod common;

use common::scenario;
use egui::Rect;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::EditorApp;
use grognard_editor::board::{self, BoardScene, DrawPiece, Look, Overlay, Transform};

fn tab(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_role_and_label(Role::Button, name).click();
    h.run();
}

fn view_as(h: &mut Harness<'_, EditorApp>, who: &str) {
    h.get_by_label("View as").click();
    h.run();
    h.get_by_label(who).click();
    h.run();
}

/// The Play board as the editor drew it last: its transform and pieces.
fn drawn_board(h: &Harness<'_, EditorApp>) -> (Transform, Vec<DrawPiece>) {
    (
        common::drawn_transform(h),
        h.state().drawn_pieces().to_vec(),
    )
}

/// Item 1: square-blocks' log names the Austrians' blocks by handle ("french sights enemy
/// #9 at level D"), but the face-down blocks carried no label, and the scout #8's label
/// was cut to "…". Every enemy piece on the board now carries the name the log uses, whole.
#[test]
fn every_enemy_on_the_board_carries_the_name_the_log_uses() {
    let mut h = scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    view_as(&mut h, "Side french");
    let log = h.state().event_log().join("\n");
    let (t, pieces) = drawn_board(&h);
    let g = &h.state().session().expect("a game").game;
    let french = g.side_by_name("french").expect("french");
    let clip = Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
    let shapes = common::paint_board(&h.ctx, g, &pieces, &Overlay::default(), &t, clip);
    let drawn = common::shape_texts(&shapes);
    let enemies: Vec<&DrawPiece> = pieces.iter().filter(|p| p.side != french).collect();
    assert!(
        enemies.iter().any(|p| p.look == Look::FaceDown),
        "no face-down block to check: {enemies:?}"
    );
    // Each handle the log names is on the board, and each enemy carries its name whole.
    for word in log.split_whitespace().filter(|w| w.starts_with('#')) {
        assert!(
            enemies.iter().any(|p| p.name == word),
            "the log names {word}, no piece on the board does: {log}"
        );
    }
    for p in &enemies {
        assert!(p.name.starts_with('#'), "{p:?}");
        assert!(
            drawn.iter().any(|text| text
                .lines()
                .next()
                .is_some_and(|l| l.split(' ').next().is_some_and(|n| n == p.name))),
            "{} drawn without its name: {drawn:?}",
            p.name
        );
    }
}

/// Item 1: hovering over a face-down block names it as the log does and says what the
/// sighting level it is seen at tells (the letters alone said nothing); the legend lists
/// the levels.
#[test]
fn the_hover_card_and_legend_explain_sighting_levels() {
    let mut h = scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    view_as(&mut h, "Side french");
    let (t, pieces) = drawn_board(&h);
    let g = &h.state().session().expect("a game").game;
    let block = pieces
        .iter()
        .find(|p| p.look == Look::FaceDown && p.markers.iter().any(|m| m == "seen D"))
        .expect("a block seen at level D")
        .clone();
    let overlay = Overlay::default();
    let colors = vec![egui::Color32::from_gray(200); g.rules().terrain.len()];
    let scene = BoardScene {
        rules: g.rules(),
        board: g.board(),
        terrain_colors: &colors,
        pieces: &pieces,
        overlay: &overlay,
    };
    let at = board::counter_rects(&scene, &t)
        .into_iter()
        .find(|(id, _)| *id == block.id)
        .expect("the block's counter")
        .1
        .center();
    h.event(egui::Event::PointerMoved(at));
    h.run();
    h.event(egui::Event::PointerMoved(at + egui::vec2(1.0, 0.0)));
    h.run();
    let first = format!("{} — austrians: face down", block.name);
    assert!(h.query_by_label(&first).is_some(), "no {first:?}");
    assert!(
        h.query_by_label("level D: nothing beyond where it is")
            .is_some()
    );
    h.get_by_label("Legend").click();
    h.run();
    assert!(
        h.query_by_label_contains(
            "level B: where it is, real or dummy, its strength; next to it, all of it"
        )
        .is_some()
    );
}

fn sim_result(games: u64, wins: [u64; 2]) -> grognard_editor::simulate::SimResult {
    use grognard_play::tally::{Moments, Tally};
    let count = |k: u64| {
        let mut m = Moments::default();
        for i in 0..games {
            m.add(i64::from(i < k));
        }
        m
    };
    grognard_editor::simulate::SimResult {
        label: "drill-square".to_owned(),
        sides: vec!["blue".to_owned(), "red".to_owned()],
        tally: Tally {
            games,
            wins: vec![count(wins[0]), count(wins[1])],
            draws: count(games - wins[0] - wins[1]),
            ..Tally::default()
        },
    }
}

/// Item 2: a simulation stopped after 0 games showed "0.0% ± 0.0" in every column and
/// empty plots; a side that won all its games read "100.0% ± 0.0", an interval of no width
/// from a sample. No games reads "no games played"; a share carries its Wilson interval.
#[test]
fn the_simulate_tab_says_no_games_and_gives_every_share_an_interval() {
    let mut h = scenario("examples/drill-square.yaml", 1280.0, 800.0);
    tab(&mut h, "Simulate");
    h.state_mut()
        .set_simulation_results(vec![sim_result(0, [0, 0])]);
    h.run();
    assert_eq!(h.query_all_by_label("no games played").count(), 3);
    assert!(h.query_all_by_label_contains("% ±").next().is_none());
    assert!(
        h.query_by_label("No game was played to its end: nothing to plot.")
            .is_some()
    );
    h.state_mut()
        .set_simulation_results(vec![sim_result(40, [40, 0])]);
    h.run();
    assert!(h.query_by_label("100.0% (95%: 91.2–100.0)").is_some());
    assert_eq!(h.query_all_by_label("0.0% (95%: 0.0–8.8)").count(), 2);
    assert!(h.query_all_by_label_contains("% ±").next().is_none());
}

/// Item 3: the dice log read "command — command by fr_bde1 at fr_ligne", "-8 staff rating
/// (input `staff` = 8, from actor.attribute staff)" and "→ three_moves": a source spelt as
/// the ruleset file spells it and names with underscores. The player now reads "the acting
/// piece's staff" and "three moves"; a piece's name stays as orders spell it.
#[test]
fn the_dice_log_reads_sources_and_outcomes_in_words() {
    let ruleset =
        grognard_rules::load::load_ruleset(&common::root().join("rulesets/black-powder-core.yaml"))
            .unwrap_or_else(|d| panic!("{d}"));
    let roll = grognard_kernel::action::RollRecord {
        chart: "command".to_owned(),
        purpose: "command by fr_bde1 at fr_ligne".to_owned(),
        inputs: vec![("staff".to_owned(), 8), ("command_distance".to_owned(), 1)],
        modifiers: vec![
            grognard_kernel::chart::AppliedModifier {
                name: "staff rating".to_owned(),
                value: -8,
            },
            grognard_kernel::chart::AppliedModifier {
                name: "each 12\" begun beyond the first 12\" from the commander".to_owned(),
                value: 1,
            },
        ],
        score: -8,
        outcome: "three_moves".to_owned(),
        ..serde_json::from_str(
            "{\"chart\":\"\",\"purpose\":\"\",\"inputs\":[],\"dice\":[],\"modifiers\":[],\
             \"score\":0,\"band\":null,\"outcome\":\"\"}",
        )
        .expect("record")
    };
    let lines = grognard_editor::session::explain_roll(&ruleset, &roll);
    let all = lines.join("\n");
    assert!(
        all.contains("−8 staff rating — staff is 8, from the acting piece's staff"),
        "{all}"
    );
    assert!(
        all.contains("command distance is 1, from the band the distance to the target falls in"),
        "{all}"
    );
    assert!(all.contains("→ three moves"), "{all}");
    assert!(
        all.contains("fr_bde1"),
        "a piece's name as orders spell it: {all}"
    );
    assert!(!all.contains("actor."), "{all}");
    assert!(!all.contains("three_moves"), "{all}");
}

/// Item 1 (the "…" label): a counter one row high kept "…" for its name when a marker
/// line followed ("#8", "seen D"); the name line is never given up (since the sixth
/// player's #2 it carries " …": a marker line is left out).
#[test]
fn a_counter_one_row_high_keeps_its_name() {
    let h = scenario("examples/drill-square.yaml", 400.0, 300.0);
    let ctx = &h.ctx;
    let font = egui::FontId::proportional(7.0);
    let row = ctx.fonts_mut(|f| f.row_height(&font));
    let lines = vec!["#8".to_owned(), "seen D".to_owned()];
    let fitted = grognard_editor::scene::fit_lines(ctx, &lines, &font, 40.0, row * 1.5);
    assert_eq!(fitted, ["#8 …"]);
}

/// Item 5: the Charts tab's odds inputs read raw ids (`firer_hits`,
/// `unlimbered_after_move`) and numbered the bands from 0 where the table above numbered
/// its rows from 1 ("band 2 (Code)" beside "row 3 … Code"). The inputs now carry the
/// chart's own words and the table the inputs' numbering; each input's name stays on the
/// line of its box.
#[test]
fn the_odds_inputs_use_the_charts_words_and_one_numbering() {
    let mut h = scenario("examples/hex-command.yaml", 1024.0, 700.0);
    tab(&mut h, "Charts");
    h.state_mut().command(grognard_editor::Command::ShowChart(
        "fire_small_a".to_owned(),
    ));
    h.run();
    h.state_mut()
        .command(grognard_editor::Command::ChartInput("band".to_owned(), 2));
    h.run();
    for raw in ["firer_hits", "unlimbered_after_move", "out_of_arc"] {
        assert!(h.query_by_label(raw).is_none(), "{raw} shown raw");
    }
    assert!(h.query_by_label("(Code)").is_some());
    assert!(h.query_by_label("band 2").is_some());
    assert!(h.query_by_label("row 3").is_none());
    let g = h.state().workbench().expect("a workbench");
    let rules = &g.current.rules;
    let def = rules
        .chart_by_name("fire_small_a")
        .and_then(|id| rules.chart(id))
        .expect("the chart")
        .clone();
    for i in 0..def.inputs.len() {
        let name = grognard_editor::app::odds_input_name(&def, i);
        let boxes: Vec<_> = h
            .query_all_by_role(Role::SpinButton)
            .filter(|n| {
                egui_kittest::kittest::NodeT::accesskit_node(n)
                    .label()
                    .is_some_and(|l| l == name)
            })
            .map(|n| n.rect())
            .collect();
        let Some(b) = boxes.first() else {
            panic!("no box for {name}");
        };
        // Its words (a label ending just left of it, on its line): no box starts a line
        // with its name left at the end of the line above.
        let beside = h.query_all_by_role(Role::Label).any(|n| {
            let r = n.rect();
            r.max.x <= b.min.x + 1.0
                && r.max.x >= b.min.x - 16.0
                && (r.center().y - b.center().y).abs() < 4.0
        });
        let all: Vec<_> = h.query_all_by_label(&name).map(|n| n.rect()).collect();
        assert!(
            beside,
            "{name}'s words are not on its box's line: {b:?} {all:?}"
        );
    }
}

/// Item 6: hex-leaders shades a leader's reach past the board's edge (the step off his
/// baseline) like any other cell, unexplained. Those cells are drawn apart and labelled
/// "exit", and the legend says what they are.
#[test]
fn reach_off_the_board_is_marked_as_an_exit_and_explained() {
    let mut h = scenario("examples/hex-leaders.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    h.get_by_label_contains("bl1 (blue").click();
    h.run();
    let (t, pieces) = drawn_board(&h);
    let overlay = h.state().board_overlay();
    let g = &h.state().session().expect("a game").game;
    let off: Vec<_> = overlay
        .reach_cells
        .iter()
        .filter(|(c, _)| !g.board().contains(*c))
        .collect();
    assert!(!off.is_empty(), "bl1 can step off its baseline");
    let clip = Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
    let drawn = common::shape_texts(&common::paint_board(&h.ctx, g, &pieces, &overlay, &t, clip));
    assert_eq!(
        drawn.iter().filter(|s| *s == board::EXIT_MARK).count(),
        off.len(),
        "{drawn:?}"
    );
    h.get_by_label("Legend").click();
    h.run();
    assert!(
        h.query_by_label_contains("may step off the board there")
            .is_some()
    );
}

/// Item 4: village-skirmish's gun read "ou…and" for `out of command`, a line cut inside
/// its words; a line of words is now cut between them.
#[test]
fn a_line_of_words_is_cut_between_words() {
    let h = scenario("examples/drill-square.yaml", 400.0, 300.0);
    let ctx = &h.ctx;
    let font = egui::FontId::proportional(7.0);
    let width = ctx
        .fonts_mut(|f| f.layout_no_wrap("out of co".to_owned(), font.clone(), egui::Color32::WHITE))
        .size()
        .x;
    let lines = vec!["b_guns F".to_owned(), "out of command".to_owned()];
    let fitted = grognard_editor::scene::fit_lines(ctx, &lines, &font, width, 100.0);
    assert_eq!(fitted[1], "out of…", "{fitted:?}");
}

/// Item 7: the Remote tab's heading read "Legal orders for ames (4)" over ames's group of
/// 3 orders: it counted end phase, which is no order of ames. It counts what the group does.
#[test]
fn the_remote_heading_counts_the_selected_pieces_orders_as_its_group_does() {
    let spec = |v: serde_json::Value| -> grognard_rules::model::OrderSpec {
        serde_json::from_value(v).expect("an order")
    };
    let orders = [
        spec(serde_json::json!({"side": "blue", "move": {"piece": "ames", "path": [[11, 5]]}})),
        spec(serde_json::json!({"side": "blue", "move": {"piece": "ames", "path": [[10, 5]]}})),
        spec(serde_json::json!({"side": "blue", "move": {"piece": "ames", "path": [[12, 5]]}})),
        spec(serde_json::json!({"side": "blue", "end_phase": true})),
    ];
    let listed: Vec<&grognard_rules::model::OrderSpec> = orders.iter().collect();
    assert_eq!(
        grognard_editor::app::legal_heading(&listed, Some("ames")),
        "Legal orders for ames (3)"
    );
    assert_eq!(
        grognard_editor::app::legal_heading(&listed, None),
        "Legal orders (4)"
    );
}

/// Item 7: with the computer seated on the sides, the view turned by itself (to a side a
/// person plays, and with the hot seat on at every phase) although the player had picked
/// the referee's. A view the player picked is kept.
#[test]
fn the_view_the_player_picked_stays_when_the_computer_takes_the_seats() {
    use grognard_editor::view::ViewAs;
    use grognard_kernel::ids::SideId;
    let mut h = scenario("examples/drill-square.yaml", 1280.0, 800.0);
    h.state_mut().set_computer_pace(std::time::Duration::ZERO);
    tab(&mut h, "Play");
    view_as(&mut h, "Referee");
    h.state_mut()
        .command(grognard_editor::Command::HotSeat(true));
    h.run_steps(2);
    // Hot seat on, as the referee: the view is the player's still.
    view_as(&mut h, "Referee");
    for side in [0, 1] {
        h.state_mut().command(grognard_editor::Command::Seat(
            SideId(side),
            Some(grognard_play::PolicyKind::Random),
        ));
        h.run_steps(3);
        assert_eq!(
            h.state().view_as(),
            ViewAs::Referee,
            "after seating side {side}"
        );
    }
    let start = h.state().session().expect("a game").game.log().len();
    for _ in 0..60 {
        h.run_steps(2);
        assert_eq!(h.state().view_as(), ViewAs::Referee);
    }
    let played = h.state().session().expect("a game").game.log().len();
    assert!(played > start, "the computer played on");
}

/// Item 7: the Tune tab's default range for an item was ± 3 steps about its value, so a
/// modifier of −1 was tried from −4 to +2 (a penalty turned bonus) and a count of 1 at −2.
/// The default range keeps to the item's side of zero.
#[test]
fn the_tune_tabs_default_range_keeps_to_its_items_side_of_zero() {
    let tree =
        grognard_rules::load::ruleset_tree(&common::root().join("rulesets/black-powder-core.yaml"))
            .unwrap_or_else(|d| panic!("{d}"));
    // The staff rating: −1 a point of staff.
    let (lo, hi) = grognard_editor::app::default_range("charts.command.modifiers.0.per", &tree)
        .expect("a number");
    assert_eq!((lo.as_str(), hi.as_str()), ("-4", "0"));
}

/// Rests the pointer on the button `name` until its tooltip shows.
fn rest_on(h: &mut Harness<'_, EditorApp>, name: &str) {
    let at = h.get_by_role_and_label(Role::Button, name).rect().center();
    h.event(egui::Event::PointerMoved(at));
    h.run();
    std::thread::sleep(std::time::Duration::from_millis(600));
    h.event(egui::Event::PointerMoved(at + egui::vec2(1.0, 0.0)));
    h.run();
}

/// Item 7: a disabled Undo said "nothing to take back: no order of this side since the
/// last roll" at the start of a game, before any order or roll. It says why for the case
/// at hand: no order yet, or dice rolled since the last one.
#[test]
fn undo_says_why_it_is_off_in_the_case_at_hand() {
    let mut h = scenario("examples/drill-square.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    rest_on(&mut h, "Undo");
    assert!(
        h.query_by_label("No order has been given yet: nothing to take back.")
            .is_some()
    );
    assert!(h.query_by_label_contains("since the last roll").is_none());
}

/// Item 7: the Host form did not say which ruleset the game is hosted under: it sends
/// the one the scenario names, as saved, whatever the Ruleset menu has in force. It says so.
#[test]
fn the_host_form_says_which_ruleset_it_sends() {
    let mut h = scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    h.get_by_role_and_label(Role::Button, "Host game…").click();
    h.run();
    assert!(
        h.query_by_label("Ruleset sent: square-blocks, the one the scenario names.")
            .is_some()
    );
}

/// Item 4: at 1024×700 the hosted game's seat rows ran their long links first and pushed
/// the Copy and Join buttons off the window, and a copy said nothing. The buttons come
/// first, in sight, and a copy says which link it copied.
#[test]
fn the_hosted_seats_buttons_stay_in_sight_and_a_copy_says_so() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut h = scenario("examples/square-blocks.yaml", 1024.0, 700.0);
    h.get_by_role_and_label(Role::Button, "Host game…").click();
    h.run_steps(2);
    for (field, text) in [
        ("Server", "http://127.0.0.1:0".to_owned()),
        (
            "Database",
            dir.path().join("hosted.sqlite").display().to_string(),
        ),
    ] {
        h.get_by_role_and_label(Role::TextInput, field).focus();
        h.step();
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.step();
        h.get_by_role_and_label(Role::TextInput, field)
            .type_text(&text);
        h.run_steps(2);
    }
    h.get_by_role_and_label(Role::Button, "Host").click();
    let start = std::time::Instant::now();
    while h.state().hosted().is_none() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "no game hosted"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.run_steps(2);
    }
    h.run_steps(3);
    let window = h.ctx.content_rect();
    for name in [
        "Copy french's link",
        "Copy referee's link",
        "Join as referee",
    ] {
        let r = h.get_by_role_and_label(Role::Button, name).rect();
        assert!(
            window.contains_rect(r),
            "{name} at {r:?}, out of {window:?}"
        );
    }
    h.get_by_role_and_label(Role::Button, "Copy referee's link")
        .click();
    h.run_steps(2);
    assert!(h.query_by_label("copied referee's link").is_some());
}
