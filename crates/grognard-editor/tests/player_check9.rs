//! What the fifth outside new-player check of issue 37 found (its report's numbers), each
//! checked as the editor shows it: the pieces a side's view draws, the words of its hover
//! card and legend, and the tabs driven with egui_kittest.

mod common;

use std::path::Path;

use grognard_editor::board::{DrawPiece, Look};
use grognard_editor::session::Session;
use grognard_editor::view::{ViewAs, pieces_for};
use grognard_rules::load::{load_scenario, orders_from_text};
use grognard_rules::orders::resolve_order;

/// Square-blocks with the French scout `scout1` moved to `to` (a fresh game otherwise).
fn square_blocks_after(orders: &str) -> Session {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scenario =
        load_scenario(&root.join("examples/square-blocks.yaml"), None).expect("the example loads");
    let mut session = Session::start(scenario, &[]).expect("starts");
    let orders = orders_from_text("test", orders).expect("orders parse");
    for o in &orders {
        let order = resolve_order(&session.game, &o.value).expect("resolves");
        session.apply(order).expect("accepted");
    }
    session
}

fn french_sees(session: &Session, name: &str) -> (DrawPiece, Vec<String>) {
    let g = &session.game;
    let french = g.side_by_name("french").expect("french");
    let piece = pieces_for(g, ViewAs::Side(french))
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no {name} on the French board"));
    let card = grognard_editor::words::piece_card(&piece, "austrians");
    (piece, card)
}

/// #1: at level C the French view holds that #10 is real (`view --side french`: "sighting
/// C, real"), and the legend says C tells real or dummy, but the card read "face down, its
/// position only". At level B (scout two squares off) the view holds its type (the block is
/// face up, and a face-up block shows its type to all) and strength 3; the card gave no
/// strength, and the legend did not say that a face-up block shows its type.
#[test]
fn each_sighting_level_shows_what_the_view_holds_and_the_legend_says() {
    let start = square_blocks_after("orders: []\n");
    let (c, card) = french_sees(&start, "#10");
    assert_eq!(c.look, Look::FaceDown);
    assert!(card.iter().any(|l| l == "seen C"), "{card:?}");
    assert!(card.iter().any(|l| l == "real, not a dummy"), "{card:?}");
    assert!(
        !card.iter().any(|l| l.contains("position only")),
        "{card:?}"
    );

    let near = square_blocks_after(
        "orders:\n  - { side: french, move: { piece: scout1, path: [[5, 5]] } }\n",
    );
    let (b, card) = french_sees(&near, "#10");
    assert!(card.iter().any(|l| l == "seen B"), "{card:?}");
    assert_eq!(b.kind, "artillery");
    assert!(card.iter().any(|l| l == "strength 3"), "{card:?}");

    let rules = near.game.rules();
    let legend = grognard_editor::words::sighting_levels(rules);
    assert!(
        legend
            .iter()
            .any(|l| l == "level C: where it is, real or dummy"),
        "{legend:?}"
    );
    assert!(
        legend.iter().any(|l| l
            == "level B: where it is, real or dummy, its strength; next to it, all of it \
                (type, strength, name, state); its block turns face up, showing its type"),
        "{legend:?}"
    );
}

/// #2: square-blocks' `scout_fate` rows 1 and 2 both read "removed, score 10+"; only
/// their `when: { range: N }` tells them apart, and the Charts tab did not show it. Each
/// row now says its conditions.
#[test]
fn the_charts_tab_shows_each_rows_conditions() {
    use egui_kittest::kittest::Queryable;
    let mut h = common::scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    common::show_chart(&mut h, "scout_fate");
    for range in 0..4 {
        let words = format!("when range = {range}");
        assert!(h.query_by_label(&words).is_some(), "no {words:?}");
    }
}

/// #4: hex-leaders' half-hexes were drawn as full clear hexes, hovering (2,8) read "clear,
/// to enter: ground +0", and the exits past row 8 looked two rows away. A closed half-hex
/// is drawn as the half on the table, greyed, and its card says it is closed.
#[test]
fn closed_half_hexes_are_drawn_as_halves_and_said_closed() {
    use egui::{Rect, Shape};
    use grognard_editor::board::{self, Overlay, Transform};
    use grognard_kernel::geometry::Cell;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scenario =
        load_scenario(&root.join("examples/hex-leaders.yaml"), None).expect("the example loads");
    let session = Session::start(scenario, &[]).expect("starts");
    let g = &session.game;
    let words = |c: Cell| grognard_editor::words::cell_card(g.rules(), g.board(), c, Some(false));
    let baseline = words(Cell::new(2, 8));
    assert!(
        baseline
            .iter()
            .any(|l| l.starts_with("closed baseline half-hex")),
        "{baseline:?}"
    );
    assert!(
        !baseline.iter().any(|l| l.starts_with("to enter")),
        "{baseline:?}"
    );
    let side = words(Cell::new(0, 2));
    assert!(
        side.iter()
            .any(|l| l == "closed half-hex on the side edge: never entered"),
        "{side:?}"
    );
    let whole = words(Cell::new(3, 7));
    assert!(whole.iter().any(|l| l.starts_with("to enter")), "{whole:?}");

    // Drawn: the half-hex (2,8) ends at its centre's row, the table's edge.
    let t = Transform {
        origin: egui::pos2(40.0, 40.0),
        scale: 40.0,
    };
    let clip = Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(2000.0, 2000.0));
    let ctx = egui::Context::default();
    let shapes = common::paint_board(&ctx, g, &[], &Overlay::default(), &t, clip);
    let grid = g.board().grid().expect("a hex grid");
    let (cx, cy) = board::cell_center(grid, Cell::new(2, 8));
    let centre = t.to_screen(cx, cy);
    let cell = shapes
        .iter()
        .find_map(|s| match s {
            Shape::Path(p)
                if p.points.len() >= 3
                    && Rect::from_points(&p.points).contains(centre + egui::vec2(0.0, -5.0))
                    && Rect::from_points(&p.points).width() < t.scale * 1.5 =>
            {
                Some(p.clone())
            }
            _ => None,
        })
        .expect("the cell (2,8) drawn");
    let bottom = cell.points.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    assert!(
        (bottom - centre.y).abs() < 0.5,
        "the half-hex reaches {bottom}, the edge is at {}",
        centre.y
    );
    assert_ne!(cell.fill, egui::Color32::from_gray(200), "not greyed");
}

/// #8: Tune read "french wins 0.0% ± 0.0" in its progress line, answer and table, and
/// drew no whisker at 0%: the reading the Simulate tab's Wilson intervals replaced. Every
/// rate on the tab is now the observed share with its Wilson interval.
#[test]
fn the_tune_tab_says_rates_with_wilson_intervals() {
    use egui_kittest::kittest::Queryable;
    let mut h = common::tune_duel_shot_run();
    let started = std::time::Instant::now();
    h.step();
    while h.state().tuning() {
        assert!(started.elapsed() < std::time::Duration::from_secs(240));
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.step();
    }
    h.run();
    let answer = h.state().tune_answer().expect("an answer");
    assert!(answer.contains("% (95%: "), "{answer}");
    assert!(!answer.contains("% ± "), "{answer}");
    // The progress line and the table of candidates say it the same way.
    assert!(
        h.query_by_label_contains("1 candidate, 10 games")
            .is_some_and(|n| {
                use egui_kittest::kittest::NodeT;
                n.accesskit_node()
                    .value()
                    .is_some_and(|v| v.contains("% (95%: ") && !v.contains("% ± "))
            }),
        "the progress line"
    );
    assert!(
        h.query_by_label_contains("% ± ").is_none()
            || h.query_all_by_label_contains("% ± ").all(|n| {
                use egui_kittest::kittest::NodeT;
                n.accesskit_node()
                    .value()
                    .is_some_and(|v| v.contains("too wide"))
            })
    );
}

/// #9: a piece that left the board stayed selected (hex-command's routed b2: the panel
/// kept "b2 — infantry … no legal order now" with its Face buttons). Here hex-leaders'
/// red leader rl2 is selected and escapes off his baseline: the selection goes with him.
#[test]
fn a_piece_that_leaves_the_board_is_no_longer_selected() {
    use grognard_editor::Command;
    let mut h = common::scenario("examples/hex-leaders.yaml", 1280.0, 800.0);
    let root = common::root();
    let orders = grognard_rules::load::load_orders(&root.join("examples/hex-leaders.orders.yaml"))
        .expect("orders load");
    for o in &orders {
        let order = {
            let g = &h.state().session().expect("a game").game;
            resolve_order(g, &o.value).expect("resolves")
        };
        let escape = format!("{:?}", o.value).contains("rl2");
        let id = if escape {
            let g = &h.state().session().expect("a game").game;
            let id = g.piece_by_name("rl2").expect("rl2").id;
            h.state_mut().apply(Command::Select(Some(id)));
            h.run();
            assert_eq!(h.state().board_overlay().selected, Some(id));
            Some(id)
        } else {
            None
        };
        h.state_mut().apply(Command::Give(order.action));
        h.run();
        if let Some(id) = id {
            let g = &h.state().session().expect("a game").game;
            assert!(!g.piece(id).expect("rl2").on_board(), "rl2 escaped");
            assert_eq!(h.state().board_overlay().selected, None, "still selected");
            return;
        }
    }
    panic!("no order moved rl2");
}
