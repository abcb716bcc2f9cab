//! Bases on the open table in the editor (issue 21), driven as a user drives it
//! (egui_kittest, no display): units drawn as their footprints to scale, the tape measure on
//! hover, and dragging or turning a base, with the kernel judging every move.

mod common;
use common::status;

use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui::{Pos2, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::bases::reach_area;
use grognard_editor::board::Transform;
use grognard_editor::view::pieces_from_view;
use grognard_editor::{EditorApp, Options, Saved};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::footprint::{Footprint, Placed};
use grognard_kernel::geometry::open::{Angle, Len, Point};
use grognard_kernel::piece::{Piece, Place};

const DRILL: &str = "examples/drill-open.yaml";
const FIXTURES: &str = "crates/grognard-editor/tests/fixtures";

/// The workspace root, where `rulesets/` and `examples/` are. The editor is given it as
/// its root (`Options::root`), so no test depends on the process's current folder.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn harness(options: Options) -> Harness<'static, EditorApp> {
    let app = EditorApp::new(
        Saved::default(),
        Options {
            root: Some(root()),
            ..options
        },
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run();
    h
}

fn drill() -> Harness<'static, EditorApp> {
    harness(Options {
        scenario: Some(PathBuf::from(DRILL)),
        ..Options::default()
    })
}

fn game<'a>(h: &'a Harness<'_, EditorApp>) -> &'a Game {
    &h.state().session().expect("a game").game
}

fn piece<'a>(h: &'a Harness<'_, EditorApp>, name: &str) -> &'a Piece {
    game(h).piece_by_name(name).expect("the piece")
}

fn select(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_label_contains(&format!("{name} (")).click();
    h.run();
}

/// Where a table position (inches) is on screen.
fn screen(h: &Harness<'_, EditorApp>, x: f32, y: f32) -> Pos2 {
    h.state().board_on_screen(x, y).expect("the table is drawn")
}

/// Screen points per inch.
fn scale(h: &Harness<'_, EditorApp>) -> f32 {
    screen(h, 1.0, 0.0).x - screen(h, 0.0, 0.0).x
}

fn footprint(h: &Harness<'_, EditorApp>, name: &str) -> Footprint {
    let p = piece(h, name);
    game(h)
        .rules()
        .piece_type(p.kind)
        .and_then(|t| t.footprint.get(p.mode.index()).copied().flatten())
        .expect("the type has bases in this mode")
}

/// Drags from `from` to `to` ([`common::drag`]) and lets the editor settle.
fn drag(h: &mut Harness<'_, EditorApp>, from: Pos2, to: Pos2) {
    common::drag(h, from, to);
    h.run();
}

fn hover(h: &mut Harness<'_, EditorApp>, pos: Pos2) {
    h.event(egui::Event::PointerMoved(pos));
    h.run();
}

fn at(p: &Piece) -> (Point, Angle) {
    match p.place {
        Place::Point { at, facing } => (at, facing),
        _ => panic!("{} is on the table", p.name),
    }
}

#[test]
fn bases_are_drawn_to_scale_with_the_front_edge_ahead() {
    let h = drill();
    let s = scale(&h);
    let bases = h.state().drawn_bases();
    // Every piece of the drill has bases.
    assert_eq!(bases.len(), 4, "{bases:?}");
    for name in ["b1", "b2", "r1"] {
        let f = footprint(&h, name);
        let id = piece(&h, name).id;
        let (_, c) = bases.iter().find(|(p, _)| *p == id).expect("drawn");
        let width = f.width.0 as f32 / 1000.0 * s;
        let depth = f.depth.0 as f32 / 1000.0 * s;
        assert!((c[0].distance(c[1]) - width).abs() < 0.5, "{name}: {c:?}");
        assert!((c[1].distance(c[2]) - depth).abs() < 0.5, "{name}: {c:?}");
        // The rectangle is centred on the piece's point.
        let (p, _) = at(piece(&h, name));
        let centre = c[0] + (c[2] - c[0]) / 2.0;
        let want = screen(&h, p.x.0 as f32 / 1000.0, p.y.0 as f32 / 1000.0);
        assert!(centre.distance(want) < 0.5, "{name}: {centre:?} {want:?}");
    }
    // Four 40 mm bases of infantry in line are 6.3" across (to the thou the loader rounds).
    let line = footprint(&h, "b1").width.0;
    assert!((6_290..=6_310).contains(&line), "{line}");
    // b1 faces north: its front edge is the upper one, left to the west; r1 faces south.
    let corners = |name: &str| {
        let id = piece(&h, name).id;
        bases.iter().find(|(p, _)| *p == id).expect("drawn").1
    };
    let b1 = corners("b1");
    assert!(b1[0].y < b1[3].y && b1[0].x < b1[1].x, "{b1:?}");
    let r1 = corners("r1");
    assert!(r1[0].y > r1[3].y && r1[0].x > r1[1].x, "{r1:?}");
}

#[test]
fn hovering_a_piece_reads_the_tape_measure_from_the_selected_one() {
    let mut h = drill();
    select(&mut h, "b1");
    assert!(h.state().measurement().is_none());
    let pos = screen(&h, 14.0, 8.0);
    hover(&mut h, pos);
    let g = game(&h);
    let (b1, r1) = (piece(&h, "b1"), piece(&h, "r1"));
    let m = h.state().measurement().expect("a reading").clone();
    assert_eq!((m.from, m.to), (b1.id, r1.id));
    assert_eq!(Some(m.gap), g.table_gap(b1, r1));
    assert_eq!(Some(m.arc_of_to), g.bearing(b1, r1));
    assert_eq!(Some(m.arc_of_from), g.bearing(r1, b1));
    assert_eq!(m.from_sees, g.clear_sight(g.state(), b1, r1));
    assert_eq!(m.to_sees, g.clear_sight(g.state(), r1, b1));
    assert!(m.edge_to_edge);
    // At full scale, rule inches are table inches.
    assert!((m.rule_inches - m.gap.0 as f64 / 1000.0).abs() < 1e-9);
    assert!(m.text[0].starts_with("b1 → r1: "), "{:?}", m.text);
    assert!(m.text[0].contains("edge to edge"), "{:?}", m.text);
    // Off the pieces, no reading.
    let pos = screen(&h, 40.0, 30.0);
    hover(&mut h, pos);
    assert!(h.state().measurement().is_none());
}

#[test]
fn dragging_a_base_to_a_legal_place_moves_it() {
    let mut h = drill();
    select(&mut h, "b1");
    let before = game(&h).state_bytes();
    // b1 stands at (12", 30") facing north: drag it by its base 3" ahead.
    let (from, to) = (screen(&h, 12.0, 30.0), screen(&h, 12.0, 27.0));
    drag(&mut h, from, to);
    let (p, facing) = at(piece(&h, "b1"));
    assert!(
        (p.x.0 - 12_000).abs() <= 20 && (p.y.0 - 27_000).abs() <= 20,
        "{p:?}: {}",
        status(&h)
    );
    assert_eq!(facing, Angle::NORTH, "a plain drag keeps the facing");
    assert_ne!(game(&h).state_bytes(), before);
    assert!(status(&h).starts_with("done"), "{}", status(&h));
}

#[test]
fn a_drag_off_the_table_or_onto_another_base_is_refused_and_changes_nothing() {
    let mut h = drill();
    select(&mut h, "b1");
    let before = game(&h).state_bytes();
    // 5.8" south: the centre is on the table, the rear edge is not.
    let (from, to) = (screen(&h, 12.0, 30.0), screen(&h, 12.0, 35.8));
    drag(&mut h, from, to);
    assert!(
        status(&h).contains("refused") && status(&h).contains("would leave the table"),
        "{}",
        status(&h)
    );
    assert_eq!(game(&h).state_bytes(), before);
    // Onto b2's bases (cavalry at (30", 30")).
    let (from, to) = (screen(&h, 12.0, 30.0), screen(&h, 25.0, 30.0));
    drag(&mut h, from, to);
    assert!(
        status(&h).contains("refused") && status(&h).contains("b1's bases would overlap b2's"),
        "{}",
        status(&h)
    );
    assert_eq!(game(&h).state_bytes(), before);
    // A drag that starts off the selected piece pans the board instead.
    let pan = h.state().camera().pan;
    let (from, to) = (screen(&h, 40.0, 4.0), screen(&h, 44.0, 4.0));
    drag(&mut h, from, to);
    assert_ne!(h.state().camera().pan, pan);
    assert_eq!(game(&h).state_bytes(), before);
}

#[test]
fn the_turning_handle_turns_a_base_in_place() {
    let mut h = drill();
    select(&mut h, "b1");
    let handle = h.state().turn_handle_on_screen().expect("a handle");
    // The handle stands ahead (north) of b1's front edge.
    assert!(handle.y < screen(&h, 12.0, 29.6).y, "{handle:?}");
    // Pull it round to the east of b1's centre: b1 turns to face east where it stands.
    let to = screen(&h, 20.0, 30.0);
    drag(&mut h, handle, to);
    let (p, facing) = at(piece(&h, "b1"));
    assert_eq!(facing, Angle::EAST, "{}", status(&h));
    assert_eq!(p, Point::inches(12, 30));
    // Its base is drawn turned: the front edge is now the eastern one.
    let id = piece(&h, "b1").id;
    let bases = h.state().drawn_bases();
    let c = bases.iter().find(|(p, _)| *p == id).expect("drawn").1;
    assert!(c[0].x > c[3].x && c[0].y < c[1].y, "{c:?}");
}

#[test]
fn the_reach_of_a_base_is_its_rectangle_grown_by_the_allowance() {
    let f = Footprint {
        width: Len::inches(6),
        depth: Len::inches(2),
    };
    let base: Placed = f.place(Point::inches(10, 10), Angle::NORTH);
    let t = Transform {
        origin: Pos2::ZERO,
        scale: 1.0,
    };
    let area = reach_area(&base, Angle::NORTH, 12.0, &t);
    let (mut lo, mut hi) = (Pos2::new(f32::MAX, f32::MAX), Pos2::new(f32::MIN, f32::MIN));
    for p in &area {
        lo = lo.min(*p);
        hi = hi.max(*p);
        // Every point of the outline is 12" from the rectangle (7..13 × 9..11).
        let dx = (7.0 - p.x).max(p.x - 13.0).max(0.0);
        let dy = (9.0 - p.y).max(p.y - 11.0).max(0.0);
        assert!((Vec2::new(dx, dy).length() - 12.0).abs() < 1e-3, "{p:?}");
    }
    assert!(lo.distance(Pos2::new(-5.0, -3.0)) < 1e-3, "{lo:?}");
    assert!(hi.distance(Pos2::new(25.0, 23.0)) < 1e-3, "{hi:?}");
}

#[test]
fn an_unidentified_enemy_is_drawn_and_measured_as_a_point() {
    let mut h = harness(Options {
        ruleset: Some(PathBuf::from(format!("{FIXTURES}/hidden-open.yaml"))),
        scenario: Some(PathBuf::from(format!(
            "{FIXTURES}/hidden-open.scenario.yaml"
        ))),
        ..Options::default()
    });
    h.get_by_role_and_label(Role::ComboBox, "View as").click();
    h.run();
    h.get_by_label("Side blue").click();
    h.run();
    let g = game(&h);
    let blue = g.side_by_name("blue").expect("blue");
    let (r1, r2) = (piece(&h, "r1").id, piece(&h, "r2").id);
    // r2 (identified) is drawn as its bases; r1 (only its position known) as a counter.
    let drawn = h.state().drawn_pieces();
    let shape = |id| drawn.iter().find(|d| d.id == id).map(|d| d.footprint);
    assert_eq!(shape(r1), Some(None), "{drawn:?}");
    assert!(matches!(shape(r2), Some(Some(_))), "{drawn:?}");
    // The remote seat draws the same from the same view.
    let remote = pieces_from_view(g.rules(), g.board(), &g.view(blue));
    let mut shown: Vec<_> = remote.iter().map(|d| d.footprint.is_some()).collect();
    shown.sort_unstable();
    assert_eq!(shown, [false, true, true], "{remote:?}");
    // Measured from b1, r1 is a point: its hidden bases do not show through the reading.
    select(&mut h, "b1");
    let pos = screen(&h, 36.0, 6.0);
    hover(&mut h, pos);
    let g = game(&h);
    let b1 = g.piece_by_name("b1").expect("b1");
    let (r1_at, _) = at(g.piece(r1).expect("r1"));
    let m = h.state().measurement().expect("a reading").clone();
    assert_eq!(m.to, r1);
    let expected = g.placed(b1).expect("b1").distance(&Placed::point(r1_at));
    assert_eq!(m.gap, expected);
    assert_ne!(Some(m.gap), g.table_gap(b1, g.piece(r1).expect("r1")));
    // Named by its handle, as the side's log names it; nothing of what it is.
    assert!(m.text[0].starts_with("b1 → #"), "{:?}", m.text);
}

#[test]
fn the_wheel_turns_a_base_while_it_is_dragged() {
    let mut h = drill();
    select(&mut h, "b1");
    let (from, to) = (screen(&h, 12.0, 30.0), screen(&h, 12.0, 26.0));
    let button = common::button;
    h.event(egui::Event::PointerMoved(from));
    h.event(button(from, true));
    h.step();
    h.event(egui::Event::PointerMoved(from + (to - from) / 2.0));
    h.step();
    // Six notches of the wheel while the base is held: a quarter turn.
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Line,
        delta: egui::vec2(0.0, 6.0),
        modifiers: egui::Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
    for _ in 0..60 {
        h.step();
    }
    h.event(egui::Event::PointerMoved(to));
    h.step();
    h.event(button(to, false));
    h.step();
    h.run();
    let (p, facing) = at(piece(&h, "b1"));
    assert!(
        (p.x.0 - 12_000).abs() <= 20 && (p.y.0 - 26_000).abs() <= 20,
        "{p:?}: {}",
        status(&h)
    );
    assert_eq!(facing, Angle::EAST, "{}", status(&h));
}
