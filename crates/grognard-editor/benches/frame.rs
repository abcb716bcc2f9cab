//! One full editor frame (layout, board drawing and tessellation, headless) on a 100 × 100
//! square board with 400 pieces, and the reach overlay of a selected piece. Target: under
//! 4 ms of CPU per frame. Results are recorded in `docs/benchmarks.md`.

use std::fmt::Write as _;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Pos2, Rect, Vec2};
use grognard_editor::board::{self, BoardScene, Camera, Overlay};
use grognard_editor::{Command, EditorApp, Options, Saved, Tab};
use grognard_kernel::game::Reach;
use grognard_kernel::hooks::NoHooks;
use grognard_rules::load::load_scenario;

const SIZE: i32 = 100;
const PIECES: i32 = 400;

/// A 100 × 100 drill board with woods in stripes, a road down the middle and 400 pieces.
fn big_scenario(dir: &Path) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let ruleset = std::fs::canonicalize(root.join("rulesets/drill-square.yaml")).expect("ruleset");
    let mut s = String::new();
    let _ = writeln!(
        s,
        "scenario: bench\nruleset: {}\nseed: 1\nboard:",
        ruleset.display()
    );
    let _ = writeln!(
        s,
        "  cols: {SIZE}\n  rows: {SIZE}\n  legend: {{ \".\": clear, W: medium_woods }}\n  map: |"
    );
    for row in 0..SIZE {
        let line: Vec<&str> = (0..SIZE)
            .map(|col| {
                if (col / 7 + row / 5) % 4 == 0 {
                    "W"
                } else {
                    "."
                }
            })
            .collect();
        let _ = writeln!(s, "    {}", line.join(" "));
    }
    let road: Vec<String> = (0..SIZE).map(|r| format!("[50, {r}]")).collect();
    let _ = writeln!(
        s,
        "  features:\n    - feature: road\n      path: [{}]",
        road.join(", ")
    );
    let _ = writeln!(
        s,
        "sides:\n  blue: {{ baseline: south }}\n  red: {{ baseline: north }}\npieces:"
    );
    for i in 0..PIECES {
        let side = if i % 2 == 0 { "blue" } else { "red" };
        let (col, row) = ((i * 7) % SIZE, (i * 7) / SIZE * 3 + i % 3);
        let _ = writeln!(
            s,
            "  - {{ id: p{i}, side: {side}, type: infantry, at: [{col}, {row}], facing: N }}"
        );
    }
    let path = dir.join("bench.yaml");
    std::fs::write(&path, s).expect("write scenario");
    path
}

fn input() -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(Rect::from_min_size(Pos2::ZERO, Vec2::new(1600.0, 1000.0))),
        ..egui::RawInput::default()
    }
}

fn bench_frame(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = big_scenario(dir.path());
    let mut app = EditorApp::new(
        Saved::default(),
        Options {
            scenario: Some(scenario.clone()),
            ..Options::default()
        },
    );
    app.saved.tab = Tab::Play;
    let ctx = egui::Context::default();
    let frame = |app: &mut EditorApp| {
        let out = ctx.run_ui(input(), |ui| app.show(ui));
        ctx.tessellate(out.shapes, out.pixels_per_point)
    };
    // Settle the layout (panels size themselves over the first frames).
    for _ in 0..3 {
        frame(&mut app);
    }
    assert_eq!(
        app.drawn_pieces().len(),
        PIECES as usize,
        "every piece is drawn ({:?})",
        app.status()
    );
    c.bench_function("editor frame, 100x100 board, 400 pieces", |b| {
        b.iter(|| frame(&mut app));
    });
    let id = app
        .session()
        .and_then(|s| s.game.piece_by_name("p0"))
        .map(|p| p.id);
    app.command(Command::Select(id));
    frame(&mut app);
    c.bench_function("editor frame, 400 pieces, reach overlay shown", |b| {
        b.iter(|| frame(&mut app));
    });

    // The reach overlay alone: the kernel's reach query plus the shapes that draw it.
    let s = load_scenario(&scenario, None).expect("scenario");
    let game = s.start(None, &[], &mut NoHooks).expect("starts");
    let piece = game.piece_by_name("p0").expect("p0").id;
    let colors = vec![egui::Color32::GRAY; game.rules().terrain.len()];
    let rect = Rect::from_min_size(Pos2::ZERO, Vec2::new(1200.0, 900.0));
    c.bench_function("reach overlay (query + shapes), 100x100 board", |b| {
        b.iter(|| {
            let Ok(Reach::Cells(cells)) = game.reach(piece, &mut NoHooks) else {
                panic!("grid reach")
            };
            let overlay = Overlay {
                reach_cells: cells.iter().map(|r| (r.cell, r.cost.to_string())).collect(),
                selected: Some(piece),
                ..Overlay::default()
            };
            let scene = BoardScene {
                rules: game.rules(),
                board: game.board(),
                terrain_colors: &colors,
                pieces: &[],
                overlay: &overlay,
            };
            let t = board::fit(game.board(), rect, &Camera::default());
            board::paint(&ctx, &scene, &t, rect).len()
        });
    });
}

criterion_group!(benches, bench_frame);
criterion_main!(benches);
