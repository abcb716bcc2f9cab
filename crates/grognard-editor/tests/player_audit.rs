//! What a new player met on the board (the outside check of issue 37), driven through the
//! real app or its board painter with egui_kittest: facings drawn only where the viewer
//! knows them, names that stay apart when cut, labels clear of the facing arrow, features
//! drawn each their own way, the reach kept on the table, the tape's reading clear of the
//! hover card, counts in words, and orders in a player's words.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};

use egui::accesskit::Role;
use egui::{Pos2, Rect, Shape};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::board::{self, BoardScene, DrawPiece, FacingMark, Look, Overlay, Transform};
use grognard_editor::view::{ViewAs, pieces_for};
use grognard_editor::{EditorApp, Options, Saved};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::{Cell, Facing};
use grognard_kernel::ids::{PieceId, SideId};


/// The tests share the process's current folder (the workspace root), so they take turns.
fn at_root() -> MutexGuard<'static, ()> {
    static LOCK: OnceLock<Mutex<()>> = OnceLock::new();
    let guard = LOCK
        .get_or_init(|| Mutex::new(()))
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::env::set_current_dir(&root).expect("workspace root");
    guard
}

fn with_scenario_at(path: &str, size: egui::Vec2) -> Harness<'static, EditorApp> {
    let options = Options {
        scenario: Some(PathBuf::from(path)),
        ..Options::default()
    };
    let app = EditorApp::new(Saved::default(), options);
    let mut h = Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run();
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

/// The transform the Play tab drew its board with (from two cells' centres on screen).
fn board_transform(h: &Harness<'_, EditorApp>) -> Transform {
    let g = game(h);
    let grid = g.board().grid().expect("a grid");
    let (a, b) = (Cell::new(0, 0), Cell::new(1, 0));
    let (sa, sb) = (
        h.state().cell_on_screen(a).expect("drawn"),
        h.state().cell_on_screen(b).expect("drawn"),
    );
    let (ax, ay) = board::cell_center(grid, a);
    let (bx, _) = board::cell_center(grid, b);
    let scale = (sb.x - sa.x) / (bx - ax);
    Transform {
        origin: sa - egui::vec2(ax, ay) * scale,
        scale,
    }
}

/// Every text drawn among `shapes`, with where it stands on screen.
fn texts(shapes: &[Shape]) -> Vec<(String, Rect)> {
    shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text(t) => Some((
                t.galley.text().to_owned(),
                Rect::from_min_size(t.pos, t.galley.size()),
            )),
            _ => None,
        })
        .collect()
}

// Item 7: a facing arrow only where the viewer knows the facing.

#[test]
fn enemies_show_no_facing_the_viewer_cannot_know() {
    let _root = at_root();
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
