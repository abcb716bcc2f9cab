//! What a new player met on the board (the outside check of issue 37), driven through the
//! real app or its board painter with egui_kittest: facings drawn only where the viewer
//! knows them, names that stay apart when cut, labels clear of the facing arrow, features
//! drawn each their own way, the reach kept on the table, the tape's reading clear of the
//! hover card, counts in words, and orders in a player's words.

mod common;

use std::path::Path;

use egui::accesskit::Role;
use egui::{Rect, Shape};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::EditorApp;
use grognard_editor::board::{self, BoardScene, DrawPiece, FacingMark, Look, Overlay, Transform};
use grognard_editor::view::{ViewAs, pieces_for};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::{Cell, Facing};
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::piece::Place;

/// The scenario at `path` (from the workspace root, as `common::scenario` opens it),
/// `size` large, on the Play tab.
fn with_scenario_at(path: &str, size: egui::Vec2) -> Harness<'static, EditorApp> {
    let mut h = common::scenario(path, size.x, size.y);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h
}

fn with_scenario(path: &str) -> Harness<'static, EditorApp> {
    with_scenario_at(path, egui::vec2(1500.0, 1000.0))
}

fn game<'a>(h: &'a Harness<'_, EditorApp>) -> &'a Game {
    &h.state().session().expect("a game").game
}

fn side(g: &Game, name: &str) -> SideId {
    SideId(
        g.sides()
            .iter()
            .position(|s| s.name == name)
            .expect("the side") as u8,
    )
}

// Item 7: a facing arrow only where the viewer knows the facing.

#[test]
fn enemies_show_no_facing_the_viewer_cannot_know() {
    let h = with_scenario("examples/hex-leaders.yaml");
    let g = game(&h);
    let blue = side(g, "blue");
    // The referee sees no facing on hex-leaders' counters: no type there faces.
    assert!(g.rules().piece_types.iter().all(|t| !t.faces));
    let referee = pieces_for(g, ViewAs::Referee);
    assert!(referee.iter().all(|p| p.facing.is_none()), "{referee:?}");
    // Blue's view does carry where the red pieces it sees face...
    let view = g.view(blue);
    let seen: Vec<_> = view
        .enemy
        .iter()
        .filter(|e| e.place.is_some() && e.facing.is_some())
        .collect();
    assert!(!seen.is_empty(), "blue sees red pieces");
    // ...but draws no arrow for them, as the referee draws none.
    let drawn = pieces_for(g, ViewAs::Side(blue));
    let enemies: Vec<_> = drawn.iter().filter(|p| p.side != blue).collect();
    assert!(!enemies.is_empty());
    for p in enemies {
        assert_eq!(p.facing, None, "{} shows a facing", p.name);
    }
    // Where the type faces (hex-command's infantry), a seen enemy keeps its arrow.
    let h = with_scenario("examples/hex-command.yaml");
    let g = game(&h);
    let blue = side(g, "blue");
    let facing_enemies: Vec<_> = pieces_for(g, ViewAs::Side(blue))
        .into_iter()
        .filter(|p| p.side != blue && p.look == Look::Open && !p.kind.is_empty())
        .filter(|p| {
            g.rules()
                .piece_types
                .iter()
                .any(|t| t.name == p.kind && t.faces)
        })
        .collect();
    assert!(!facing_enemies.is_empty());
    assert!(facing_enemies.iter().all(|p| p.facing.is_some()));
}

// Item 15 (words): a count agrees with its number.

#[test]
fn counts_agree_with_their_number_in_the_dice_log() {
    use grognard_editor::session::{Session, dice_log};
    use grognard_editor::words::{amount, count};
    use grognard_kernel::action::Event;
    assert_eq!(count(1, "event"), "1 event");
    assert_eq!(count(3, "event"), "3 events");
    assert_eq!(amount(1, "hits"), "1 hit");
    assert_eq!(amount(2, "hits"), "2 hits");
    assert_eq!(amount(1, "casualties"), "1 casualty");
    assert_eq!(amount(1, "fatigue"), "1 fatigue");
    assert_eq!(amount(3, "fatigue"), "3 fatigue");
    // The dice log of a roll that came to one hit says so in the singular.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scenario =
        grognard_rules::load::load_scenario(&root.join("tests/fixtures/amounts/town.yaml"), None)
            .expect("the fixture loads");
    let orders =
        grognard_rules::load::load_orders(&root.join("tests/fixtures/amounts/town.orders.yaml"))
            .expect("orders load");
    let mut session = Session::start(scenario, &[]).expect("starts");
    for o in &orders {
        let order =
            grognard_rules::orders::resolve_order(&session.game, &o.value).expect("resolves");
        session.apply(order).expect("accepted");
    }
    let mut events: Vec<Event> = session.game.log().to_vec();
    let mut changed = false;
    for e in &mut events {
        if let Event::Acted { roll: Some(r), .. } | Event::Rolled { roll: r } = e {
            for a in &mut r.amounts {
                a.value = 1;
                changed = true;
            }
        }
    }
    assert!(changed, "the fixture's roll works out an amount");
    let log = dice_log(&session.scenario.ruleset, &events);
    let roll = log.last().expect("a roll");
    assert_eq!(roll.last().map(String::as_str), Some("  1 hit"), "{roll:?}");
}

// Item 11: each feature kind drawn its own way, the legend's words matching.

#[test]
fn walls_streams_roads_and_bridges_each_look_their_own() {
    use board::{FeatureLook, feature_look, feature_shapes, feature_words};
    let h = with_scenario("examples/hex-command.yaml");
    let rules = game(&h).rules();
    let look = |name: &str| {
        feature_look(
            rules
                .features
                .iter()
                .find(|f| f.name == name)
                .expect("the feature"),
        )
    };
    assert_eq!(look("stream"), FeatureLook::Water);
    assert_eq!(look("wall"), FeatureLook::Wall);
    assert_eq!(look("road"), FeatureLook::Road);
    assert_eq!(look("bridge"), FeatureLook::Bridge);
    let (a, b) = (egui::pos2(0.0, 0.0), egui::pos2(30.0, 0.0));
    let all = [
        FeatureLook::Road,
        FeatureLook::Water,
        FeatureLook::Wall,
        FeatureLook::Hedge,
        FeatureLook::Bridge,
        FeatureLook::Ford,
    ];
    // No two looks share their strokes' colours (what a swatch is seen by).
    let colours = |l: FeatureLook| {
        let mut c: Vec<[u8; 4]> = feature_shapes(l, a, b, 40.0)
            .iter()
            .flat_map(|s| match s {
                Shape::LineSegment { stroke, .. } => vec![stroke.color.to_array()],
                Shape::Path(p) => match p.stroke.color {
                    egui::epaint::ColorMode::Solid(c) => vec![c.to_array()],
                    _ => vec![],
                },
                Shape::Circle(c) => vec![c.fill.to_array(), c.stroke.color.to_array()],
                _ => vec![],
            })
            .collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    for (i, x) in all.iter().enumerate() {
        for y in &all[i + 1..] {
            assert_ne!(colours(*x), colours(*y), "{x:?} and {y:?} look alike");
            assert_ne!(feature_words(*x), feature_words(*y));
        }
    }
    // A road is dashed (several pieces), water wavy (one bending path), a wall has ticks.
    assert!(feature_shapes(FeatureLook::Road, a, b, 40.0).len() > 2);
    assert!(matches!(
        feature_shapes(FeatureLook::Water, a, b, 40.0).as_slice(),
        [Shape::Path(p)] if p.points.iter().any(|q| q.y.abs() > 1.0)
    ));
    assert!(feature_shapes(FeatureLook::Wall, a, b, 40.0).len() > 1);
}

// Item 14: the reach ends at the table's edge.

#[test]
fn the_reach_of_a_base_is_cut_at_the_tables_edge() {
    let h = with_scenario("examples/black-powder.yaml");
    let g = game(&h);
    let pieces = pieces_for(g, ViewAs::Referee);
    let p = pieces
        .iter()
        .find(|p| p.footprint.is_some())
        .expect("a unit with bases");
    let Place::Point { at, facing } = p.place else {
        panic!("on the table")
    };
    let placed = grognard_editor::bases::placed(p).expect("bases");
    let grognard_kernel::board::Surface::Open { width, height, .. } = g.board().surface else {
        panic!("an open table")
    };
    // A reach far larger than the table: without the cut it would spill on every side.
    let overlay = Overlay {
        reach_radius: Some((at, 200.0)),
        reach_base: Some((placed, facing)),
        ..Overlay::default()
    };
    let t = Transform {
        origin: egui::pos2(50.0, 50.0),
        scale: 5.0,
    };
    let screen = Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(2000.0, 2000.0));
    let shapes = common::paint_board(&h.ctx, g, &pieces, &overlay, &t, screen);
    let table = Rect::from_min_max(
        t.to_screen(0.0, 0.0),
        t.to_screen(width.0 as f32 / 1000.0, height.0 as f32 / 1000.0),
    )
    .expand(0.5);
    let reach_fill = egui::Color32::from_rgba_unmultiplied(255, 230, 0, 60);
    let reach_line = egui::Color32::from_rgb(200, 150, 0);
    let mut seen = 0;
    for s in &shapes {
        match s {
            Shape::Path(path) if path.fill == reach_fill => {
                seen += 1;
                for q in &path.points {
                    assert!(table.contains(*q), "{q:?} outside {table:?}");
                }
            }
            Shape::LineSegment { points, stroke } if stroke.color == reach_line => {
                for q in points {
                    assert!(table.contains(*q), "{q:?} outside {table:?}");
                }
            }
            Shape::Circle(c) if c.stroke.color == reach_line || c.fill == reach_fill => {
                panic!("an uncut reach circle")
            }
            _ => {}
        }
    }
    assert_eq!(seen, 1, "the reach is drawn");
}

// Items 9 and 10: labels that stay apart when cut, never blank, and clear of the arrow.

#[test]
fn cut_names_keep_their_distinguishing_end() {
    let h = with_scenario("examples/drill-square.yaml");
    let font = egui::FontId::proportional(9.0);
    let fit = |name: &str| {
        grognard_editor::scene::fit_lines(&h.ctx, &[format!("{name} S")], &font, 22.0, 12.0)
    };
    let (one, two) = (fit("adum1"), fit("adum2"));
    assert!(one[0].contains('…'), "{one:?}");
    assert_ne!(one, two);
    assert!(
        one[0].ends_with("1 S") && two[0].ends_with("2 S"),
        "{one:?} {two:?}"
    );
    // Given a little more room, the start shows too: "ad…m1".
    let wider =
        grognard_editor::scene::fit_lines(&h.ctx, &["adumbrated1".to_owned()], &font, 32.0, 12.0);
    assert!(
        wider[0].starts_with('a') && wider[0].ends_with("d1"),
        "{wider:?}"
    );
}

#[test]
fn every_counter_keeps_a_label_on_a_small_window() {
    let h = with_scenario_at("examples/hex-leaders.yaml", egui::vec2(800.0, 600.0));
    let t = common::board_transform(&h);
    let g = game(&h);
    let pieces = h.state().drawn_pieces().to_vec();
    assert!(!pieces.is_empty());
    let overlay = Overlay::default();
    let colors = vec![egui::Color32::from_gray(200); g.rules().terrain.len()];
    let scene = BoardScene {
        rules: g.rules(),
        board: g.board(),
        terrain_colors: &colors,
        pieces: &pieces,
        overlay: &overlay,
    };
    let clip = Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0));
    let drawn = common::text_rects(&board::paint(&h.ctx, &scene, &t, clip));
    let open = pieces.iter().filter(|p| p.look == Look::Open).count();
    let named: Vec<_> = drawn
        .iter()
        .filter(|(t, _)| t.chars().any(char::is_alphanumeric))
        .collect();
    assert_eq!(named.len(), open, "some counters are blank: {drawn:?}");
    // The two leaders side by side in one hex still read apart.
    let fanned = board::fan_out(&scene, &t);
    assert!(!fanned.is_empty(), "a stack at this size");
    let mut lines: Vec<&str> = named
        .iter()
        .map(|(t, _)| t.lines().next().unwrap_or(""))
        .collect();
    lines.sort_unstable();
    let all = lines.len();
    lines.dedup();
    assert_eq!(lines.len(), all, "two counters read alike: {lines:?}");
}

fn facing_piece(facing: u8) -> DrawPiece {
    DrawPiece {
        id: PieceId(0),
        side: SideId(0),
        name: "hale".to_owned(),
        kind: "commander".to_owned(),
        place: Place::Cell(Cell::new(2, 2)),
        facing: Some(FacingMark::Grid(Facing(facing))),
        mode: "formed".to_owned(),
        markers: vec!["hits 1".to_owned()],
        look: Look::Open,
        footprint: None,
    }
}

#[test]
fn the_facing_arrow_never_covers_the_name() {
    let h = with_scenario("examples/hex-command.yaml");
    let g = game(&h);
    let overlay = Overlay::default();
    let t = Transform {
        origin: egui::pos2(40.0, 40.0),
        scale: 90.0,
    };
    let clip = Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1000.0, 1000.0));
    for facing in 0..6 {
        let pieces = vec![facing_piece(facing)];
        let shapes = common::paint_board(&h.ctx, g, &pieces, &overlay, &t, clip);
        let arrow = shapes
            .iter()
            .find_map(|s| match s {
                Shape::Path(p) if p.points.len() == 3 && p.fill == egui::Color32::WHITE => {
                    Some(Rect::from_points(&p.points))
                }
                _ => None,
            })
            .expect("an arrow");
        let drawn = common::text_rects(&shapes);
        let (text, rect) = drawn.first().expect("a label");
        assert!(text.starts_with("hale"), "{text}");
        assert!(
            !rect.intersects(arrow),
            "facing {facing}: the label {rect:?} meets the arrow {arrow:?}"
        );
    }
}

// Item 3: the tape's reading clear of the hover card.

#[test]
fn the_tape_reading_is_clear_of_the_hover_card() {
    let mut h = with_scenario("examples/drill-open.yaml");
    h.get_by_label_contains("b1 (blue").click();
    h.run();
    let pos = h.state().board_on_screen(14.0, 8.0).expect("drawn");
    h.event(egui::Event::PointerMoved(pos));
    // Let the hover card's delay pass.
    for _ in 0..90 {
        h.step();
    }
    assert!(h.state().measurement().is_some(), "a reading");
    let card = h
        .ctx
        .memory(|m| {
            m.areas()
                .visible_layer_ids()
                .into_iter()
                .filter(|l| l.order == egui::Order::Tooltip)
                .filter_map(|l| m.area_rect(l.id))
                .next()
        })
        .expect("the hover card is shown");
    let reading = grognard_editor::bases::last_reading_rect(&h.ctx).expect("drawn");
    assert!(
        !reading.intersects(card),
        "the reading {reading:?} is under the card {card:?}"
    );
    // The placement keeps it beside the pointer, inside the board, whatever is in the way.
    let clip = Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(600.0, 400.0));
    let size = egui::vec2(300.0, 50.0);
    let below = Rect::from_min_size(egui::pos2(300.0, 212.0), egui::vec2(250.0, 80.0));
    let r = grognard_editor::bases::reading_rect(size, egui::pos2(300.0, 200.0), clip, &[below]);
    assert!(
        !r.expand(4.0).intersects(below) && clip.contains_rect(r),
        "{r:?}"
    );
    let above = below.translate(egui::vec2(0.0, -100.0));
    let r = grognard_editor::bases::reading_rect(size, egui::pos2(300.0, 200.0), clip, &[above]);
    assert!(
        !r.expand(4.0).intersects(above) && clip.contains_rect(r),
        "{r:?}"
    );
}

// Item 11 in the legend, item 12 and item 15 on the Play tab.

#[test]
fn the_legend_shows_each_feature_as_the_board_draws_it() {
    let mut h = with_scenario("examples/hex-command.yaml");
    h.get_by_label("Legend").click();
    h.run();
    for line in [
        "stream — water: a thin blue wavy line",
        "wall — wall: a thick grey line with ticks",
        "road — road: a dashed brown track",
        "bridge — a bridge: a deck with rails",
    ] {
        assert!(h.query_by_label_contains(line).is_some(), "{line}");
    }
}

#[test]
fn legal_orders_read_in_words_grouped_by_piece() {
    let mut h = with_scenario("examples/drill-square.yaml");
    // Nothing selected: one folded group per piece, no order in the orders file's form.
    assert!(h.query_by_label_contains("path [[").is_none());
    let s = grognard_rules::load::load_scenario(
        &common::root().join("examples/drill-square.yaml"),
        None,
    )
    .expect("scenario");
    let g = s
        .start(None, &[], &mut grognard_kernel::hooks::NoHooks)
        .expect("starts");
    let b1 = g.piece_by_name("b1").expect("b1").id;
    let blue = side(&g, "blue");
    let of_b1 = g
        .legal_orders(blue, &mut grognard_kernel::hooks::NoHooks)
        .iter()
        .filter(|a| a.piece() == Some(b1))
        .count();
    let header = format!("b1: {of_b1} orders");
    assert!(h.query_by_label(&header).is_some(), "{header}");
    assert!(h.query_by_label("→ (4,5), 1 step").is_none(), "folded");
    // Selected, its group opens: the destination first, then how far.
    h.get_by_label_contains("b1 (blue").click();
    h.run();
    h.get_by_label("→ (4,5), 1 step").click();
    h.run();
    let status = h
        .state()
        .status()
        .map(|s| s.text.clone())
        .unwrap_or_default();
    assert!(status.starts_with("done ("), "{status}");
    assert!(!status.contains("(1 events)"), "{status}");
    let moved = game(&h).piece(b1).map(|p| p.place.clone());
    assert_eq!(moved, Some(Place::Cell(Cell::new(4, 5))));
}
