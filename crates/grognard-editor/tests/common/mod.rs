//! Helpers shared by the editor's test files (each test file uses some of them).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui::{Pos2, Rect, Shape};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::board::{self, BoardScene, DrawPiece, Overlay, Transform};
use grognard_editor::{Command, EditorApp, Options, Saved};
use grognard_kernel::game::Game;
use grognard_kernel::ids::SideId;

/// The repository's root (the examples and rulesets the tests open).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// An editor `w` × `h` points large, opened with `options` from the repository's root.
pub fn sized(options: Options, w: f32, h: f32) -> Harness<'static, EditorApp> {
    let app = EditorApp::new(
        Saved::default(),
        Options {
            root: Some(root()),
            ..options
        },
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(w, h))
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run();
    h
}

/// An editor `w` × `h` points large, opened on the scenario at `path`.
pub fn scenario(path: &str, w: f32, h: f32) -> Harness<'static, EditorApp> {
    sized(
        Options {
            scenario: Some(PathBuf::from(path)),
            ..Options::default()
        },
        w,
        h,
    )
}

/// The primary button pressed (or let go) at `pos`.
pub fn button(pos: Pos2, pressed: bool) -> egui::Event {
    egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    }
}

/// Presses the primary button at `from`, moves the pointer to `to` in six steps and lets
/// go, one frame per step (the caller runs whatever frames the outcome needs).
pub fn drag(h: &mut Harness<'_, EditorApp>, from: Pos2, to: Pos2) {
    h.event(egui::Event::PointerMoved(from));
    h.event(button(from, true));
    h.step();
    for i in 1..=6 {
        h.event(egui::Event::PointerMoved(
            from + (to - from) * (i as f32 / 6.0),
        ));
        h.step();
    }
    h.event(button(to, false));
    h.step();
}

/// The status line's words, or nothing.
pub fn status(h: &Harness<'_, EditorApp>) -> String {
    h.state()
        .status()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

/// Writes `body` to `p` with a modification time `secs` ahead, as an edit on disk would.
pub fn rewrite(p: &Path, body: &str, secs: u64) {
    std::fs::write(p, body).expect("write");
    let f = std::fs::File::options().append(true).open(p).expect("open");
    f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(secs))
        .expect("mtime");
}

/// A copy of the bundled `name` scenario and its ruleset in a folder of their own.
pub fn copied(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    for d in ["examples", "rulesets"] {
        std::fs::create_dir_all(dir.path().join(d)).expect("dir");
    }
    for f in [
        format!("examples/{name}.yaml"),
        format!("rulesets/{name}.yaml"),
    ] {
        std::fs::copy(root().join(&f), dir.path().join(&f)).expect("copy");
    }
    let path = dir.path().join(format!("examples/{name}.yaml"));
    (dir, path)
}

/// True when the button labelled `label` is drawn and enabled.
pub fn enabled(h: &Harness<'_, EditorApp>, label: &str) -> bool {
    !h.get_by_role_and_label(Role::Button, label)
        .accesskit_node()
        .is_disabled()
}

/// Where the (last) node labelled `label` is on screen: a line may repeat.
pub fn rect_of(h: &Harness<'_, EditorApp>, label: &str) -> Rect {
    let n = h.query_all_by_label(label).last().expect(label);
    let b = n.accesskit_node().bounding_box().expect("laid out");
    Rect::from_min_max(
        egui::pos2(b.x0 as f32, b.y0 as f32),
        egui::pos2(b.x1 as f32, b.y1 as f32),
    )
}

/// The side named `name` of the game in play.
pub fn side_named(h: &Harness<'_, EditorApp>, name: &str) -> SideId {
    let g = &h.state().session().expect("a game").game;
    let i = g
        .sides()
        .iter()
        .position(|s| s.name == name)
        .expect("the side");
    SideId(u8::try_from(i).expect("a side index"))
}

/// Every text drawn among `shapes`.
pub fn shape_texts(shapes: &[Shape]) -> Vec<String> {
    shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text(t) => Some(t.galley.text().to_owned()),
            _ => None,
        })
        .collect()
}

/// Every text drawn among `shapes`, with where it stands on screen.
pub fn text_rects(shapes: &[Shape]) -> Vec<(String, Rect)> {
    text_sizes(shapes)
        .into_iter()
        .map(|(text, rect, _)| (text, rect))
        .collect()
}

/// Every text drawn among `shapes`, with where it stands on screen and its font's size.
pub fn text_sizes(shapes: &[Shape]) -> Vec<(String, Rect, f32)> {
    shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text(t) => Some((
                t.galley.text().to_owned(),
                Rect::from_min_size(t.pos, t.galley.size()),
                t.galley
                    .job
                    .sections
                    .first()
                    .map_or(0.0, |s| s.format.font_id.size),
            )),
            _ => None,
        })
        .collect()
}

/// The shapes the board of `g` paints with `pieces` and `overlay` at `t`, clipped to
/// `clip`, every terrain a light grey.
pub fn paint_board(
    ctx: &egui::Context,
    g: &Game,
    pieces: &[DrawPiece],
    overlay: &Overlay,
    t: &Transform,
    clip: Rect,
) -> Vec<Shape> {
    let colors = vec![egui::Color32::from_gray(200); g.rules().terrain.len()];
    let scene = BoardScene {
        rules: g.rules(),
        board: g.board(),
        terrain_colors: &colors,
        pieces,
        overlay,
    };
    board::paint(ctx, &scene, t, clip)
}

/// The transform the Play tab drew its grid board with (from two cells' centres on screen).
pub fn board_transform(h: &Harness<'_, EditorApp>) -> Transform {
    use grognard_kernel::geometry::Cell;
    let g = &h.state().session().expect("a game").game;
    let grid = g.board().grid().expect("a grid");
    let (a, b) = (Cell::new(0, 0), Cell::new(1, 0));
    let sa = h.state().cell_on_screen(a).expect("drawn");
    let sb = h.state().cell_on_screen(b).expect("drawn");
    let (ax, ay) = board::cell_center(grid, a);
    let (bx, _) = board::cell_center(grid, b);
    let scale = (sb.x - sa.x) / (bx - ax);
    Transform {
        origin: sa - egui::vec2(ax, ay) * scale,
        scale,
    }
}

/// The transform the Play tab drew its board with, from where the points (0, 0) and
/// (1, 0) of the table are on screen.
pub fn drawn_transform(h: &Harness<'_, EditorApp>) -> Transform {
    let app = h.state();
    let (a, b) = (
        app.board_on_screen(0.0, 0.0).expect("drawn"),
        app.board_on_screen(1.0, 0.0).expect("drawn"),
    );
    Transform {
        origin: a,
        scale: b.x - a.x,
    }
}

/// Turns the mouse wheel at `at` by `dy` points (positive: toward the top), then runs
/// `frames` frames for the scroll to end.
pub fn wheel(h: &mut Harness<'_, EditorApp>, at: Pos2, dy: f32, frames: usize) {
    h.event(egui::Event::PointerMoved(at));
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, dy),
        modifiers: egui::Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
    for _ in 0..frames {
        h.step();
    }
}

/// The duel fixture (tests/fixtures/tune/duel-scenario.yaml) on the Tune tab at 1500×1400,
/// 10 games a candidate, the shot chart's first row's score (9+) added to vary over 9..9,
/// and *Run* pressed: the run the Tune tests read their answer from.
pub fn tune_duel_shot_run() -> Harness<'static, EditorApp> {
    tune_duel_shot(10.0, "9", "9")
}

/// [`tune_duel_shot_run`] with `games` a candidate and the score varied over `from..to`.
pub fn tune_duel_shot(games: f64, from: &str, to: &str) -> Harness<'static, EditorApp> {
    let mut h = sized(
        Options {
            scenario: Some(root().join("tests/fixtures/tune/duel-scenario.yaml")),
            ..Options::default()
        },
        1500.0,
        1400.0,
    );
    h.get_by_role_and_label(Role::Button, "Tune").click();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "games a candidate:")
        .set_value_accesskit(games);
    h.run();
    vary_shot_row(&mut h, from, to);
    h.get_by_role_and_label(Role::Button, "Run").click();
    h
}

/// On the Tune tab, adds the shot chart's first row's score (9+) to vary over `from..to`.
pub fn vary_shot_row(h: &mut Harness<'_, EditorApp>, from: &str, to: &str) {
    h.get_by_label("find a number:")
        .set_text_value_accesskit("shot");
    h.run();
    h.get_by_label("charts.shot.rows.0.score = 9+").click();
    h.run();
    h.get_by_label("from").set_text_value_accesskit(from);
    h.run();
    h.get_by_label("to").set_text_value_accesskit(to);
    h.run();
}

/// Gives each order of an orders file's text in the open game, viewed as the side each
/// names (as a player at that seat would give it).
pub fn give_orders(h: &mut Harness<'static, EditorApp>, orders: &str) {
    use grognard_editor::view::ViewAs;
    for o in grognard_rules::load::orders_from_text("test", orders).expect("orders parse") {
        let order = {
            let game = &h.state().session().expect("a game").game;
            grognard_rules::orders::resolve_order(game, &o.value).expect("resolves")
        };
        h.state_mut()
            .command(Command::ViewAs(ViewAs::Side(order.side)));
        h.state_mut().command(Command::Give(order.action));
        h.run();
    }
}

/// Runs frames until `busy` stops holding, failing after four minutes.
pub fn wait_while(h: &mut Harness<'_, EditorApp>, busy: impl Fn(&EditorApp) -> bool) {
    let started = std::time::Instant::now();
    h.step();
    while busy(h.state()) {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(240),
            "still running: {}",
            status(h)
        );
        std::thread::sleep(std::time::Duration::from_millis(30));
        h.step();
    }
    h.run();
}

/// The Tune finder's rows (`path = value`) as they read now.
pub fn tune_rows_shown(h: &Harness<'_, EditorApp>) -> Vec<String> {
    h.query_all_by_role(Role::Button)
        .filter_map(|n| n.accesskit_node().label())
        .filter(|l| l.contains(" = "))
        .collect()
}

/// Opens the Tune tab, types `words` in its finder and gives the rows it lists.
pub fn tune_find(h: &mut Harness<'_, EditorApp>, words: &str) -> Vec<String> {
    h.get_by_role_and_label(Role::Button, "Tune").click();
    h.run();
    h.get_by_label("find a number:")
        .set_text_value_accesskit(words);
    h.run();
    tune_rows_shown(h)
}

/// Opens the Charts tab on the chart `name`.
pub fn show_chart(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_role_and_label(Role::Button, "Charts").click();
    h.run();
    h.state_mut().command(Command::ShowChart(name.to_owned()));
    h.run();
}

/// A copy of drill-square (its folder, its scenario's path and text) opened at 1400 × 900
/// on the Play tab, its first phase ended: a game in play whose files the test may break.
pub fn drill_square_in_play() -> (
    tempfile::TempDir,
    PathBuf,
    String,
    Harness<'static, EditorApp>,
) {
    let (dir, path) = copied("drill-square");
    let text = std::fs::read_to_string(&path).expect("read");
    let mut h = scenario(&path.to_string_lossy(), 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.state_mut().command(Command::EndPhase);
    h.run();
    (dir, path, text, h)
}

/// The `turns:` line of the scenario `text` replaced by `turns: eight`, and its line number.
pub fn broken_turns(text: &str) -> (String, usize) {
    let i = text
        .lines()
        .position(|l| l.starts_with("turns:"))
        .expect("a turns line");
    let old = text.lines().nth(i).expect("line");
    (text.replace(old, "turns: eight"), i + 1)
}

/// Chooses the file `rel` (from the repository's root) for `purpose`, as the file dialog
/// would, and runs a frame.
pub fn choose(
    h: &mut Harness<'_, EditorApp>,
    purpose: grognard_editor::app::FilePurpose,
    rel: &str,
) {
    h.state_mut()
        .command(Command::Chosen(purpose, root().join(rel)));
    h.run();
}

/// What the combo box labelled `label` shows.
pub fn combo_value(h: &Harness<'_, EditorApp>, label: &str) -> String {
    h.get_by_role_and_label(Role::ComboBox, label)
        .accesskit_node()
        .value()
        .unwrap_or_default()
}

/// The texts of the captions drawn for `piece` alone over the counter at `under`.
pub fn caption_texts(ctx: &egui::Context, piece: &DrawPiece, under: Rect) -> Vec<String> {
    let mut captions = grognard_editor::scene::Captions::default();
    captions.add(ctx, piece, under, false);
    shape_texts(&captions.into_shapes())
}
