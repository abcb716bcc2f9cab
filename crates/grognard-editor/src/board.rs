//! Drawing the board: terrain, roads, rivers and bridges, the reach overlay and a list of
//! drawable pieces, for each geometry (square grid, hex grid, open table in inches); and
//! turning a click back into a cell, a point or a piece.
//!
//! The board never reads the game's pieces itself: it draws the [`DrawPiece`]s it is
//! given, so "View as" decides what a player sees in one place ([`crate::view`]). Units
//! with bases on the open table, their reach, and dragging them are in [`crate::bases`].

use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, Vec2};
use grognard_kernel::board::{Board, Surface};
use grognard_kernel::geometry::footprint::{Footprint, Placed};
use grognard_kernel::geometry::open::{Angle, Len, Point};
use grognard_kernel::geometry::{Cell, Facing, Grid};
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::piece::Place;
use grognard_kernel::rules::{FeatureKind, Rules};
use serde::{Deserialize, Serialize};

use crate::bases;

/// Hex circumradius when hex centres are one unit apart across the flats.
const HEX_RADIUS: f32 = 0.577_350_3;

/// How a piece is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Face up: type, name, mode and markers.
    Open,
    /// Face down (a hidden block): only the owner's colour.
    FaceDown,
    /// Where the enemy was last seen, no longer in sight.
    Ghost,
}

/// Which way a piece faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FacingMark {
    /// A grid direction.
    Grid(Facing),
    /// An angle on an open table.
    Angle(Angle),
}

/// A piece as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawPiece {
    /// The piece.
    pub id: PieceId,
    /// Owner.
    pub side: SideId,
    /// Its name as shown ("b1"), empty when face down.
    pub name: String,
    /// Its type as shown ("infantry"), empty when face down.
    pub kind: String,
    /// Where.
    pub place: Place,
    /// Which way it faces, when that is shown.
    pub facing: Option<FacingMark>,
    /// Its mode, when shown.
    pub mode: String,
    /// Hits and status markers ("hits 1", "shaken").
    pub markers: Vec<String>,
    /// How it is drawn.
    pub look: Look,
    /// On the open table: its bases (the footprint of its type in its mode), when the
    /// viewer is shown them (`None`: drawn as a counter at its point).
    pub footprint: Option<Footprint>,
}

/// Pan and zoom (saved with the editor's settings).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    /// Zoom relative to "fit the board".
    pub zoom: f32,
    /// Offset of the view in screen points.
    pub pan: [f32; 2],
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            zoom: 1.0,
            pan: [0.0, 0.0],
        }
    }
}

/// What to draw besides the board and pieces.
#[derive(Clone, Debug, Default)]
pub struct Overlay {
    /// Reachable cells and their cost text.
    pub reach_cells: Vec<(Cell, String)>,
    /// On an open table: the piece's position and how far it may go, in inches.
    pub reach_radius: Option<(Point, f32)>,
    /// On an open table, for a piece with bases: its footprint where it stands and its
    /// facing; the reach is then drawn as the area the bases can cover.
    pub reach_base: Option<(Placed, Angle)>,
    /// Cells of the path being planned.
    pub path: Vec<Cell>,
    /// The selected piece.
    pub selected: Option<PieceId>,
    /// Cells of the pieces the selected piece's legal actions may target.
    pub targets: Vec<Cell>,
    /// On an open table: the pieces the selected piece's legal actions may target (ringed
    /// where they stand, as `targets` are on a grid).
    pub target_pieces: Vec<PieceId>,
    /// On an open table: the legal destinations offered for the selected piece.
    pub destinations: Vec<Point>,
    /// On an open table: the piece that may be dragged to a new place (or turned by its
    /// handle); a drop is returned as a [`BaseDrop`].
    pub draggable: Option<PieceId>,
}

/// A piece dropped on the open table after a drag: the move it proposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseDrop {
    /// The piece.
    pub piece: PieceId,
    /// Where its centre would stand.
    pub to: Point,
    /// Which way it would face (`None`: as it does).
    pub facing: Option<Angle>,
}

/// What a click on the board asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardClick {
    /// The cell clicked (grids).
    pub cell: Option<Cell>,
    /// The point clicked (open tables).
    pub point: Option<Point>,
    /// A piece under the pointer.
    pub piece: Option<PieceId>,
    /// The piece the pointer hovers over (clicked or not).
    pub hover: Option<PieceId>,
    /// A dragged piece dropped: the move it proposes.
    pub drop: Option<BaseDrop>,
}

/// The mapping between board units (cells one unit apart, or inches) and the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Screen position of board (0, 0).
    pub origin: Pos2,
    /// Screen points per board unit.
    pub scale: f32,
}

impl Transform {
    /// A board position on screen.
    #[must_use]
    pub fn to_screen(&self, x: f32, y: f32) -> Pos2 {
        self.origin + Vec2::new(x, y) * self.scale
    }

    /// A screen position on the board.
    #[must_use]
    pub fn to_board(&self, p: Pos2) -> (f32, f32) {
        let v = (p - self.origin) / self.scale;
        (v.x, v.y)
    }
}

/// The board's extent in board units: (min x, min y, max x, max y).
#[must_use]
pub fn extent(board: &Board) -> (f32, f32, f32, f32) {
    match &board.surface {
        Surface::Grid {
            grid, cols, rows, ..
        } => match grid {
            Grid::Square(_) => (-0.5, -0.5, *cols as f32 - 0.5, *rows as f32 - 0.5),
            Grid::Hex(_) => (
                -0.5,
                -HEX_RADIUS,
                *cols as f32,
                (*rows - 1).max(0) as f32 * 0.866_025_4 + HEX_RADIUS,
            ),
        },
        Surface::Open { width, height, .. } => (0.0, 0.0, inches(*width), inches(*height)),
    }
}

pub(crate) fn inches(l: Len) -> f32 {
    l.0 as f32 / 1000.0
}

/// The centre of a cell in board units.
#[must_use]
pub fn cell_center(grid: &Grid, c: Cell) -> (f32, f32) {
    let (x, y) = grid.center(c);
    (x as f32, y as f32)
}

/// The transform that fits the board into `rect` at the camera's zoom and pan.
#[must_use]
pub fn fit(board: &Board, rect: Rect, camera: &Camera) -> Transform {
    let (x0, y0, x1, y1) = extent(board);
    let (w, h) = ((x1 - x0).max(0.1), (y1 - y0).max(0.1));
    let scale = ((rect.width() - 16.0) / w)
        .min((rect.height() - 16.0) / h)
        .max(0.5)
        * camera.zoom;
    let size = Vec2::new(w, h) * scale;
    let top_left = rect.center() - size / 2.0 + Vec2::from(camera.pan);
    Transform {
        origin: top_left - Vec2::new(x0, y0) * scale,
        scale,
    }
}

/// The cell under a board position, if it is on the board.
#[must_use]
pub fn cell_at(board: &Board, x: f32, y: f32) -> Option<Cell> {
    let Surface::Grid { grid, .. } = &board.surface else {
        return None;
    };
    let guess = match grid {
        Grid::Square(_) => Cell::new(x.round() as i32, y.round() as i32),
        Grid::Hex(_) => {
            let row = (y / 0.866_025_4).round() as i32;
            let shove = if row & 1 == 0 { 0.0 } else { 0.5 };
            Cell::new((x - shove).round() as i32, row)
        }
    };
    let mut best: Option<(f32, Cell)> = None;
    for dr in -1..=1 {
        for dc in -1..=1 {
            let c = Cell::new(guess.col + dc, guess.row + dr);
            if !board.contains(c) {
                continue;
            }
            let (cx, cy) = cell_center(grid, c);
            let d = (cx - x).powi(2) + (cy - y).powi(2);
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, c));
            }
        }
    }
    let limit = match grid {
        Grid::Square(_) => 0.5,
        Grid::Hex(_) => HEX_RADIUS,
    };
    best.filter(|(d, _)| d.sqrt() <= limit * 1.5)
        .map(|(_, c)| c)
}

/// A colour from `#rrggbb` text.
#[must_use]
pub fn parse_color(text: &str) -> Option<Color32> {
    let hex = text.trim().strip_prefix('#')?;
    if hex.len() != 6 {
        return None;
    }
    let v = u32::from_str_radix(hex, 16).ok()?;
    Some(Color32::from_rgb((v >> 16) as u8, (v >> 8) as u8, v as u8))
}

/// A side's colour.
#[must_use]
pub fn side_color(side: SideId) -> Color32 {
    const COLORS: [Color32; 6] = [
        Color32::from_rgb(52, 92, 168),
        Color32::from_rgb(178, 48, 48),
        Color32::from_rgb(60, 130, 70),
        Color32::from_rgb(190, 140, 30),
        Color32::from_rgb(110, 70, 150),
        Color32::from_rgb(40, 40, 40),
    ];
    COLORS[side.index() % COLORS.len()]
}

fn hex_corners(t: &Transform, cx: f32, cy: f32) -> Vec<Pos2> {
    (0..6)
        .map(|i| {
            // Pointy-top: corners at 30° + 60°·i.
            let a = (30.0 + 60.0 * i as f32).to_radians();
            t.to_screen(cx + HEX_RADIUS * a.cos(), cy + HEX_RADIUS * a.sin())
        })
        .collect()
}

/// Everything the board needs to draw one frame.
pub struct BoardScene<'a> {
    /// The rules (terrain and feature kinds).
    pub rules: &'a Rules,
    /// The board.
    pub board: &'a Board,
    /// Terrain colours, by terrain id.
    pub terrain_colors: &'a [Color32],
    /// The pieces to draw.
    pub pieces: &'a [DrawPiece],
    /// Reach, path, selection.
    pub overlay: &'a Overlay,
}

/// Draws the board into the space left in `ui`; handles pan (drag) and zoom (scroll or
/// pinch); returns what was clicked and the transform used.
///
/// On an open table, a drag that starts on the overlay's [`Overlay::draggable`] piece
/// moves that piece instead of the board (the scroll wheel turns it meanwhile), and one
/// that starts on its turning handle turns it in place; the drop is returned as
/// [`BoardClick::drop`], for the caller to give as an order.
pub fn show(
    ui: &mut egui::Ui,
    scene: &BoardScene<'_>,
    camera: &mut Camera,
) -> (BoardClick, Transform) {
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    let drag_id = response.id.with("base drag");
    let mut drag: Option<bases::BaseDrag> = ui.data(|d| d.get_temp(drag_id));
    let mut click = BoardClick::default();
    if response.drag_started_by(egui::PointerButton::Primary)
        && let Some(origin) = ui.input(|i| i.pointer.press_origin())
    {
        drag = bases::grab(scene, &fit(scene.board, rect, camera), origin);
    }
    if let Some(d) = &mut drag {
        let t = fit(scene.board, rect, camera);
        if let Some(pos) = ui.input(|i| i.pointer.latest_pos()) {
            d.point_at(&t, pos);
        }
        d.turn_by(ui.input(|i| i.smooth_scroll_delta.y));
        if response.drag_stopped() {
            click.drop = d.drop();
            drag = None;
        } else if !ui.input(|i| i.pointer.primary_down()) {
            // The drag ended elsewhere (the board was not shown): nothing is proposed.
            drag = None;
        }
    } else {
        if response.dragged() {
            let d = response.drag_delta();
            camera.pan[0] += d.x;
            camera.pan[1] += d.y;
        }
        if response.hovered() {
            let zoom = ui.input(|i| i.zoom_delta());
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            let factor = zoom * (1.0 + scroll * 0.002);
            if (factor - 1.0).abs() > f32::EPSILON {
                camera.zoom = (camera.zoom * factor).clamp(0.2, 20.0);
            }
        }
    }
    ui.data_mut(|m| match drag {
        Some(d) => {
            m.insert_temp(drag_id, d);
        }
        None => m.remove::<bases::BaseDrag>(drag_id),
    });
    let t = fit(scene.board, rect, camera);
    let painter = ui.painter_at(rect);
    let mut shapes = paint(ui.ctx(), scene, &t, rect);
    if let Some(d) = &drag {
        shapes.extend(bases::drag_preview(ui.ctx(), scene, &t, d));
    }
    painter.extend(shapes);
    if response.clicked()
        && let Some(pos) = response.interact_pointer_pos()
    {
        click = BoardClick {
            drop: click.drop,
            ..hit(scene, &t, pos)
        };
    }
    if drag.is_none()
        && let Some(pos) = response.hover_pos()
    {
        click.hover = hit(scene, &t, pos).piece;
    }
    (click, t)
}

/// What lies under a screen position.
#[must_use]
pub fn hit(scene: &BoardScene<'_>, t: &Transform, pos: Pos2) -> BoardClick {
    let (x, y) = t.to_board(pos);
    let mut click = BoardClick::default();
    match &scene.board.surface {
        Surface::Grid { .. } => {
            click.cell = cell_at(scene.board, x, y);
            if let Some(c) = click.cell {
                click.piece = scene
                    .pieces
                    .iter()
                    .rev()
                    .find(|p| p.place.covers(c) && p.look != Look::Ghost)
                    .map(|p| p.id);
            }
        }
        Surface::Open { .. } => {
            let p = Point::new(
                Len((x * 1000.0).round() as i64),
                Len((y * 1000.0).round() as i64),
            );
            if scene.board.contains_point(p) {
                click.point = Some(p);
            }
            click.piece = scene
                .pieces
                .iter()
                .rev()
                .filter(|d| d.look != Look::Ghost)
                .find(|d| bases::hit_piece(d, t, pos))
                .map(|d| d.id);
        }
    }
    click
}

/// The shapes of one frame (terrain, features, overlay, pieces), culled to `clip`; piece
/// labels are laid out with `ctx`'s fonts.
#[must_use]
pub fn paint(ctx: &egui::Context, scene: &BoardScene<'_>, t: &Transform, clip: Rect) -> Vec<Shape> {
    let mut shapes = Vec::new();
    let line = Stroke::new(1.0, Color32::from_black_alpha(60));
    let terrain_color = |i: usize| {
        scene
            .terrain_colors
            .get(i)
            .copied()
            .unwrap_or(Color32::from_gray(200))
    };
    match &scene.board.surface {
        Surface::Grid {
            grid,
            cols,
            rows,
            terrain,
            ..
        } => {
            let visible = |cx: f32, cy: f32| {
                let p = t.to_screen(cx, cy);
                clip.expand(t.scale).contains(p)
            };
            let fill_of = |col: i32, row: i32| {
                terrain_color(
                    terrain
                        .get((row * cols + col) as usize)
                        .map_or(0, |id| id.index()),
                )
            };
            for row in 0..*rows {
                match grid {
                    // Runs of one terrain along a row are one rectangle: a 100 × 100 board
                    // is a few hundred shapes instead of ten thousand.
                    Grid::Square(_) => {
                        let mut run: Option<(i32, Color32)> = None;
                        for col in 0..=*cols {
                            let fill = (col < *cols).then(|| fill_of(col, row));
                            if let Some((first, color)) = run
                                && fill != Some(color)
                            {
                                let r = Rect::from_min_max(
                                    t.to_screen(first as f32 - 0.5, row as f32 - 0.5),
                                    t.to_screen(col as f32 - 0.5, row as f32 + 0.5),
                                );
                                if r.intersects(clip) {
                                    shapes.push(Shape::rect_filled(r, 0.0, color));
                                }
                                run = None;
                            }
                            if let (None, Some(f)) = (run, fill) {
                                run = Some((col, f));
                            }
                        }
                    }
                    Grid::Hex(_) => {
                        for col in 0..*cols {
                            let (cx, cy) = cell_center(grid, Cell::new(col, row));
                            if visible(cx, cy) {
                                shapes.push(Shape::convex_polygon(
                                    hex_corners(t, cx, cy),
                                    fill_of(col, row),
                                    line,
                                ));
                            }
                        }
                    }
                }
            }
            if matches!(grid, Grid::Square(_)) {
                for col in 0..=*cols {
                    let x = col as f32 - 0.5;
                    shapes.push(Shape::line_segment(
                        [t.to_screen(x, -0.5), t.to_screen(x, *rows as f32 - 0.5)],
                        line,
                    ));
                }
                for row in 0..=*rows {
                    let y = row as f32 - 0.5;
                    shapes.push(Shape::line_segment(
                        [t.to_screen(-0.5, y), t.to_screen(*cols as f32 - 0.5, y)],
                        line,
                    ));
                }
            }
            paint_features(scene, grid, t, &mut shapes);
            for (c, _) in &scene.overlay.reach_cells {
                let (cx, cy) = cell_center(grid, *c);
                let fill = Color32::from_rgba_unmultiplied(255, 230, 0, 90);
                match grid {
                    Grid::Square(_) => shapes.push(Shape::rect_filled(
                        Rect::from_center_size(t.to_screen(cx, cy), Vec2::splat(t.scale * 0.9)),
                        2.0,
                        fill,
                    )),
                    Grid::Hex(_) => shapes.push(Shape::convex_polygon(
                        hex_corners(t, cx, cy),
                        fill,
                        Stroke::NONE,
                    )),
                }
            }
            for c in &scene.overlay.targets {
                let (cx, cy) = cell_center(grid, *c);
                shapes.push(Shape::circle_stroke(
                    t.to_screen(cx, cy),
                    t.scale * 0.48,
                    Stroke::new(3.0, Color32::from_rgb(220, 30, 30)),
                ));
            }
            if scene.overlay.path.len() > 1 {
                let pts: Vec<Pos2> = scene
                    .overlay
                    .path
                    .iter()
                    .map(|c| {
                        let (x, y) = cell_center(grid, *c);
                        t.to_screen(x, y)
                    })
                    .collect();
                shapes.push(Shape::line(
                    pts,
                    Stroke::new(3.0, Color32::from_rgb(250, 120, 0)),
                ));
            }
        }
        Surface::Open {
            width,
            height,
            areas,
        } => {
            shapes.push(Shape::rect_filled(
                Rect::from_min_max(
                    t.to_screen(0.0, 0.0),
                    t.to_screen(inches(*width), inches(*height)),
                ),
                0.0,
                terrain_color(0),
            ));
            for a in areas {
                let pts: Vec<Pos2> = a
                    .corners
                    .iter()
                    .map(|p| t.to_screen(inches(p.x), inches(p.y)))
                    .collect();
                shapes.push(Shape::convex_polygon(
                    pts,
                    terrain_color(a.terrain.index()),
                    line,
                ));
            }
            // A 6" grid of faint lines helps judge distance.
            let (w, h) = (inches(*width), inches(*height));
            let mut x = 6.0;
            while x < w {
                shapes.push(Shape::line_segment(
                    [t.to_screen(x, 0.0), t.to_screen(x, h)],
                    line,
                ));
                x += 6.0;
            }
            let mut y = 6.0;
            while y < h {
                shapes.push(Shape::line_segment(
                    [t.to_screen(0.0, y), t.to_screen(w, y)],
                    line,
                ));
                y += 6.0;
            }
            if let Some((p, r)) = scene.overlay.reach_radius {
                let centre = t.to_screen(inches(p.x), inches(p.y));
                let fill = Color32::from_rgba_unmultiplied(255, 230, 0, 60);
                match scene.overlay.reach_base {
                    // A base: the area it can cover (its rectangle grown by the reach), and
                    // where its centre can go, outlined.
                    Some((base, facing)) => {
                        shapes.push(Shape::convex_polygon(
                            bases::reach_area(&base, facing, r, t),
                            fill,
                            Stroke::NONE,
                        ));
                        shapes.push(Shape::circle_stroke(
                            centre,
                            r * t.scale,
                            Stroke::new(1.0, Color32::from_rgb(200, 150, 0)),
                        ));
                    }
                    None => shapes.push(Shape::circle_filled(centre, r * t.scale, fill)),
                }
            }
            for p in &scene.overlay.destinations {
                shapes.push(Shape::circle_filled(
                    t.to_screen(inches(p.x), inches(p.y)),
                    3.0,
                    Color32::from_rgb(200, 150, 0),
                ));
            }
        }
    }
    paint_pieces(ctx, scene, t, clip, &mut shapes);
    if matches!(scene.board.surface, Surface::Open { .. }) {
        paint_target_rings(scene, t, &mut shapes);
        bases::paint_handle(scene, t, &mut shapes);
    }
    shapes
}

/// A red ring round each legal target on an open table: round its bases when it is drawn
/// with them, round its counter otherwise.
fn paint_target_rings(scene: &BoardScene<'_>, t: &Transform, shapes: &mut Vec<Shape>) {
    for id in &scene.overlay.target_pieces {
        let Some(p) = scene.pieces.iter().find(|p| p.id == *id) else {
            continue;
        };
        let Place::Point { at, .. } = p.place else {
            continue;
        };
        let half = match p.footprint {
            Some(f) => {
                let (w, d) = (inches(f.width), inches(f.depth));
                (w * w + d * d).sqrt() / 2.0 * t.scale
            }
            // A counter is a square `1.6 × scale` across (see `paint_pieces`).
            None => t.scale * 1.6 * std::f32::consts::FRAC_1_SQRT_2,
        };
        shapes.push(Shape::circle_stroke(
            t.to_screen(inches(at.x), inches(at.y)),
            half + 4.0,
            Stroke::new(3.0, Color32::from_rgb(220, 30, 30)),
        ));
    }
}

fn paint_features(scene: &BoardScene<'_>, grid: &Grid, t: &Transform, shapes: &mut Vec<Shape>) {
    for ((a, b), features) in &scene.board.links {
        let (ax, ay) = cell_center(grid, *a);
        let (bx, by) = cell_center(grid, *b);
        let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
        let (dx, dy) = (bx - ax, by - ay);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        // Half the length of the shared edge, along the perpendicular.
        let half = match grid {
            Grid::Square(_) => 0.5,
            Grid::Hex(_) => HEX_RADIUS / 2.0,
        };
        let (px, py) = (-dy / len * half, dx / len * half);
        for f in features {
            let Some(def) = scene.rules.features.get(f.index()) else {
                continue;
            };
            match def.kind {
                FeatureKind::Road => shapes.push(Shape::line_segment(
                    [t.to_screen(ax, ay), t.to_screen(bx, by)],
                    Stroke::new((t.scale * 0.12).max(2.0), Color32::from_rgb(150, 110, 60)),
                )),
                FeatureKind::Barrier { .. } => shapes.push(Shape::line_segment(
                    [t.to_screen(mx - px, my - py), t.to_screen(mx + px, my + py)],
                    Stroke::new((t.scale * 0.1).max(2.0), Color32::from_rgb(60, 120, 210)),
                )),
                FeatureKind::Crossing { .. } => {
                    let (qx, qy) = (dx / len * 0.2, dy / len * 0.2);
                    shapes.push(Shape::line_segment(
                        [t.to_screen(mx - qx, my - qy), t.to_screen(mx + qx, my + qy)],
                        Stroke::new((t.scale * 0.25).max(3.0), Color32::from_rgb(110, 90, 70)),
                    ));
                }
            }
        }
    }
}

fn facing_vector(mark: FacingMark, grid: Option<&Grid>) -> Vec2 {
    let degrees = match (mark, grid) {
        (FacingMark::Grid(f), Some(Grid::Square(_))) => f32::from(f.0) * 45.0,
        (FacingMark::Grid(f), _) => f32::from(f.0) * 60.0,
        (FacingMark::Angle(a), _) => a.tenths() as f32 / 10.0,
    };
    let r = degrees.to_radians();
    Vec2::new(r.cos(), r.sin())
}

fn paint_pieces(
    ctx: &egui::Context,
    scene: &BoardScene<'_>,
    t: &Transform,
    clip: Rect,
    shapes: &mut Vec<Shape>,
) {
    let grid = scene.board.grid();
    let size = match grid {
        Some(_) => t.scale * 0.62,
        None => t.scale * 1.6,
    };
    // A stack is fanned out diagonally around the cell's centre so every label shows.
    let mut stack: std::collections::HashMap<Cell, (u32, u32)> = std::collections::HashMap::new();
    for p in scene.pieces {
        if let Place::Cell(c) = p.place {
            stack.entry(c).or_insert((0, 0)).1 += 1;
        }
    }
    for p in scene.pieces {
        if p.footprint.is_some() && matches!(p.place, Place::Point { .. }) {
            let selected = scene.overlay.selected == Some(p.id);
            bases::paint_base(ctx, p, t, clip, selected, shapes);
            continue;
        }
        let centers: Vec<Pos2> = match (&p.place, grid) {
            (Place::Cell(c), Some(g)) => {
                let (n, count) = stack.get_mut(c).map_or((0, 1), |e| {
                    e.0 += 1;
                    (e.0 - 1, e.1)
                });
                let step = size * 0.32;
                let offset = (n as f32 - (count - 1) as f32 / 2.0) * step;
                let (x, y) = cell_center(g, *c);
                vec![t.to_screen(x, y) + Vec2::new(offset, offset)]
            }
            (Place::Spread(cells), Some(g)) => cells
                .iter()
                .map(|c| {
                    let (x, y) = cell_center(g, *c);
                    t.to_screen(x, y)
                })
                .collect(),
            (Place::Point { at, .. }, _) => vec![t.to_screen(inches(at.x), inches(at.y))],
            _ => Vec::new(),
        };
        for (i, center) in centers.into_iter().enumerate() {
            if !clip.expand(size).contains(center) {
                continue;
            }
            let rect = Rect::from_center_size(center, Vec2::splat(size));
            let color = side_color(p.side);
            let selected = scene.overlay.selected == Some(p.id);
            let outline = if selected {
                Stroke::new(3.0, Color32::from_rgb(255, 200, 0))
            } else {
                Stroke::new(1.0, Color32::BLACK)
            };
            match p.look {
                Look::Ghost => {
                    shapes.push(Shape::rect_stroke(
                        rect,
                        3.0,
                        Stroke::new(1.5, color.gamma_multiply(0.6)),
                        egui::StrokeKind::Inside,
                    ));
                    continue;
                }
                Look::FaceDown => {
                    shapes.push(Shape::rect_filled(rect, 3.0, color.gamma_multiply(0.55)));
                    shapes.push(Shape::rect_stroke(
                        rect,
                        3.0,
                        outline,
                        egui::StrokeKind::Inside,
                    ));
                    continue;
                }
                Look::Open => {
                    shapes.push(Shape::rect_filled(rect, 3.0, color));
                    shapes.push(Shape::rect_stroke(
                        rect,
                        3.0,
                        outline,
                        egui::StrokeKind::Inside,
                    ));
                }
            }
            if let Some(mark) = p.facing {
                let v = facing_vector(mark, grid);
                let tip = center + v * size * 0.62;
                let side = Vec2::new(-v.y, v.x) * size * 0.18;
                let base = center + v * size * 0.42;
                shapes.push(Shape::convex_polygon(
                    vec![tip, base + side, base - side],
                    Color32::WHITE,
                    Stroke::new(1.0, Color32::BLACK),
                ));
            }
            if i == 0 && size >= 14.0 {
                shapes.push(Shape::Text(egui::epaint::TextShape::new(
                    rect.left_top() + Vec2::new(2.0, 1.0),
                    piece_galley(ctx, p, size),
                    Color32::WHITE,
                )));
            }
        }
    }
}

pub(crate) fn piece_galley(
    ctx: &egui::Context,
    p: &DrawPiece,
    size: f32,
) -> std::sync::Arc<egui::Galley> {
    let mut text = p.name.clone();
    if let Some(m) = p.mode.chars().next() {
        text.push(' ');
        text.push(m.to_ascii_uppercase());
    }
    for m in &p.markers {
        text.push('\n');
        text.push_str(m);
    }
    let font = egui::FontId::proportional((size * 0.26).clamp(7.0, 14.0));
    ctx.fonts_mut(|fonts| fonts.layout_no_wrap(text, font, Color32::WHITE))
}
