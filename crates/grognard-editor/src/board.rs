//! Drawing the board: terrain, roads, rivers and bridges, the reach overlay and a list of
//! drawable pieces, for each geometry (square grid, hex grid, open table in inches); and
//! turning a click back into a cell, a point or a piece.
//!
//! The board never reads the game's pieces itself: it draws the [`DrawPiece`]s it is
//! given, so "View as" decides what a player sees in one place ([`crate::view`]). Units
//! with bases on the open table, their reach, and dragging them are in [`crate::bases`];
//! boundary features (rivers, roads, walls, crossings) in `features`.

use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, Vec2};
use grognard_kernel::board::{Board, Surface};
use grognard_kernel::geometry::open::{Len, Point};
use grognard_kernel::geometry::{Cell, Grid};
use grognard_kernel::ids::PieceId;
use grognard_kernel::piece::Place;
use serde::{Deserialize, Serialize};

mod features;
mod regions;

pub use features::{
    CrossingLook, FeatureLook, crossing_look, crossing_shapes, feature_look, feature_shapes,
    feature_words,
};
pub use regions::region_legend;

use crate::bases;
pub(crate) use crate::scene::inches;
pub use crate::scene::{
    BaseDrop, BoardScene, DrawPiece, FacingMark, Look, Overlay, Transform, piece_galley, side_color,
};
use crate::scene::{Captions, SMALLEST_LABEL_FONT, name_fits, text_on};

/// Hex circumradius when hex centres are one unit apart across the flats.
const HEX_RADIUS: f32 = 0.577_350_3;

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
    /// The cell under the pointer (grids), for the hover card.
    pub hover_cell: Option<Cell>,
    /// The point under the pointer (open tables).
    pub hover_point: Option<Point>,
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

/// The centre of a cell in board units.
#[must_use]
pub fn cell_center(grid: &Grid, c: Cell) -> (f32, f32) {
    let (x, y) = grid.center(c);
    (x as f32, y as f32)
}

/// Zooms `camera` by `factor` keeping the board point under `at` where it is on screen
/// (zoom centres on the cursor). The board is drawn at `rect.center() + pan + q·scale` for
/// a point `q` from the board's centre, and the scale follows the zoom, so the pan that
/// keeps `at` still is `at - centre - (at - centre - pan)·factor`.
pub fn zoom_at(camera: &mut Camera, rect: Rect, at: Pos2, factor: f32) {
    let zoom = (camera.zoom * factor).clamp(0.2, 20.0);
    let factor = zoom / camera.zoom;
    let from_centre = at - rect.center();
    let pan = Vec2::from(camera.pan);
    let pan = from_centre - (from_centre - pan) * factor;
    camera.zoom = zoom;
    camera.pan = [pan.x, pan.y];
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

/// A hex cell as drawn: a whole hex, or a half-hex cut by the table edge drawn as the half
/// on the table (its centre lies on the edge), greyed when closed — a full clear hex there
/// read as a hex one may enter, and made an exit beyond it look two rows away.
fn hex_cell_shape(
    scene: &BoardScene<'_>,
    grid: &Grid,
    t: &Transform,
    c: Cell,
    fill: Color32,
) -> Shape {
    use grognard_kernel::geometry::hex::HalfHex;
    let (cx, cy) = cell_center(grid, c);
    let corners = hex_corners(t, cx, cy);
    let Some(half) = scene.board.half_hex(c) else {
        return Shape::convex_polygon(corners, fill, grid_line());
    };
    let Surface::Grid { cols, rows, .. } = &scene.board.surface else {
        return Shape::convex_polygon(corners, fill, grid_line());
    };
    // The table's edges run through the centres of the half-hexes: the first and last
    // rows, column 0 of an even row and the last column of an odd one.
    let centre = |col: i32, row: i32| {
        let (x, y) = cell_center(grid, Cell::new(col, row));
        t.to_screen(x, y)
    };
    let min = centre(0, 0);
    let far_col = (*cols - 1).max(0);
    let max_x = centre(far_col, (*rows).min(2) - 1).x;
    let max_y = centre(0, (*rows - 1).max(0)).y;
    let table = Rect::from_min_max(min, egui::pos2(max_x, max_y));
    let on_table = clip_to_rect(&corners, table);
    let halves = &scene.rules.half_hexes;
    let closed = match half {
        HalfHex::Side => !halves.sides,
        HalfHex::Baseline => !halves.baselines && !scene.overlay.open_baselines,
    };
    let fill = if closed {
        // Greyed and faded: no piece stands there (the hover card says why).
        let g = Color32::from_gray(150);
        Color32::from_rgb(
            ((u16::from(fill.r()) + u16::from(g.r())) / 2) as u8,
            ((u16::from(fill.g()) + u16::from(g.g())) / 2) as u8,
            ((u16::from(fill.b()) + u16::from(g.b())) / 2) as u8,
        )
        .gamma_multiply(0.6)
    } else {
        fill
    };
    Shape::convex_polygon(on_table, fill, grid_line())
}

/// The part of the convex polygon `poly` inside `r` (Sutherland–Hodgman, one edge of the
/// rectangle at a time).
fn clip_to_rect(poly: &[Pos2], r: Rect) -> Vec<Pos2> {
    let mut out = poly.to_vec();
    let edges: [fn(Pos2, Rect) -> f32; 4] = [
        |p, r| p.x - r.min.x,
        |p, r| r.max.x - p.x,
        |p, r| p.y - r.min.y,
        |p, r| r.max.y - p.y,
    ];
    for inside in edges {
        let input = std::mem::take(&mut out);
        let n = input.len();
        for i in 0..n {
            let (a, b) = (input[i], input[(i + 1) % n]);
            let (da, db) = (inside(a, r), inside(b, r));
            if da >= 0.0 {
                out.push(a);
            }
            if (da >= 0.0) != (db >= 0.0) {
                out.push(a + (b - a) * (da / (da - db)));
            }
        }
    }
    // A corner on the rectangle's edge is kept and also found as a crossing: the same
    // point twice: a zero-length edge, which anti-aliasing can feather into a pale seam.
    out.dedup_by(|a, b| a.distance(*b) <= 0.01);
    if out.len() > 1 && out[0].distance(out[out.len() - 1]) <= 0.01 {
        out.pop();
    }
    out
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

/// Draws the board into the space left in `ui`; handles pan (drag) and zoom (scroll or
/// pinch, centred on the pointer); returns what was clicked, the transform used and the
/// board's response (for a hover card).
///
/// On an open table, a drag that starts on the overlay's [`Overlay::draggable`] piece
/// moves that piece instead of the board (the scroll wheel turns it meanwhile), and one
/// that starts on its turning handle turns it in place; the drop is returned as
/// [`BoardClick::drop`], for the caller to give as an order.
pub fn show(
    ui: &mut egui::Ui,
    scene: &BoardScene<'_>,
    camera: &mut Camera,
) -> (BoardClick, Transform, egui::Response) {
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
                let at = ui.input(|i| i.pointer.hover_pos()).unwrap_or(rect.center());
                zoom_at(camera, rect, at, factor);
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
    match &drag {
        Some(d) => shapes.extend(bases::drag_preview(ui.ctx(), scene, &t, d)),
        None => bases::drag_ended(ui.ctx()),
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
        let under = hit(scene, &t, pos);
        click.hover = under.piece;
        click.hover_cell = under.cell;
        click.hover_point = under.point;
    }
    (click, t, response)
}

/// What lies under a screen position.
#[must_use]
pub fn hit(scene: &BoardScene<'_>, t: &Transform, pos: Pos2) -> BoardClick {
    let (x, y) = t.to_board(pos);
    let mut click = BoardClick::default();
    match &scene.board.surface {
        Surface::Grid { .. } => {
            click.cell = cell_at(scene.board, x, y);
            // The counter drawn under the pointer, topmost first: a fanned counter may
            // reach past its cell's edge, and a click on it is a click on its piece.
            click.piece = counter_rects(scene, t)
                .into_iter()
                .rev()
                .find(|(_, r)| r.contains(pos))
                .map(|(id, _)| id);
            if click.piece.is_none()
                && let Some(c) = click.cell
            {
                // In a fanned stack, the counter nearest the pointer.
                let fan = fan_out(scene, t);
                let centre = scene
                    .board
                    .grid()
                    .map(|g| {
                        let (x, y) = cell_center(g, c);
                        t.to_screen(x, y)
                    })
                    .unwrap_or(pos);
                click.piece = scene
                    .pieces
                    .iter()
                    .rev()
                    .filter(|p| p.place.covers(c) && p.look != Look::Ghost)
                    .min_by(|a, b| {
                        let d = |p: &DrawPiece| {
                            let shift = fan.get(&p.id).map_or(Vec2::ZERO, |f| f.0);
                            (centre + shift).distance(pos)
                        };
                        d(a).total_cmp(&d(b))
                    })
                    .map(|p| p.id);
            }
        }
        Surface::Open { .. } => {
            // To the hundredth of an inch, as a drag's drop is: a click logged
            // "(11.969", 27.67")" beside "(12", 30")" (the ninth outside player's F8).
            let p = Point::new(
                Len((x * 100.0).round() as i64 * 10),
                Len((y * 100.0).round() as i64 * 10),
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

/// Where each counter on a grid board is drawn, in drawing order (the last on top): its
/// piece and its square on screen, as [`paint`] draws it (fanned in a stack, one square
/// per cell of a spread piece). Ghosts (plans) are left out: they are not picked.
#[must_use]
pub fn counter_rects(scene: &BoardScene<'_>, t: &Transform) -> Vec<(PieceId, Rect)> {
    let Some(grid) = scene.board.grid() else {
        return Vec::new();
    };
    let full = t.scale * 0.62;
    let fan = fan_out(scene, t);
    let mut out = Vec::new();
    for p in scene.pieces.iter().filter(|p| p.look != Look::Ghost) {
        let (shift, size) = fan.get(&p.id).copied().unwrap_or((Vec2::ZERO, full));
        let cells: Vec<(Cell, Vec2)> = match &p.place {
            Place::Cell(c) => vec![(*c, shift)],
            Place::Spread(cells) => cells.iter().map(|c| (*c, Vec2::ZERO)).collect(),
            _ => Vec::new(),
        };
        for (c, shift) in cells {
            let (x, y) = cell_center(grid, c);
            out.push((
                p.id,
                Rect::from_center_size(t.to_screen(x, y) + shift, Vec2::splat(size)),
            ));
        }
    }
    out
}

/// The shapes of one frame (terrain, features, overlay, pieces), culled to `clip`; piece
/// labels are laid out with `ctx`'s fonts.
#[must_use]
pub fn paint(ctx: &egui::Context, scene: &BoardScene<'_>, t: &Transform, clip: Rect) -> Vec<Shape> {
    let mut shapes = Vec::new();
    // Entry regions' outlines under the pieces, their names over them.
    let region_names = match &scene.board.surface {
        Surface::Grid { grid, .. } => {
            paint_grid_terrain(scene, t, clip, &mut shapes);
            features::paint_features(scene, grid, t, &mut shapes);
            let names = regions::paint_regions(ctx, scene.board, scene.pieces, t, &mut shapes);
            paint_grid_overlay(ctx, scene, grid, t, &mut shapes);
            names
        }
        Surface::Open { width, height, .. } => {
            paint_open_table(scene, t, &mut shapes);
            let names = regions::paint_regions(ctx, scene.board, scene.pieces, t, &mut shapes);
            paint_open_overlay(scene, t, (inches(*width), inches(*height)), &mut shapes);
            names
        }
    };
    let captions = paint_pieces(ctx, scene, t, clip, &mut shapes);
    shapes.extend(region_names);
    let open = matches!(scene.board.surface, Surface::Open { .. });
    if open {
        paint_target_rings(scene, t, &mut shapes);
    }
    // Over the target rings: a ring drawn across a caption made its ";" read as ","
    // (twelfth player, finding 10).
    shapes.extend(captions);
    if open {
        bases::paint_handle(scene, t, &mut shapes);
    }
    shapes
}

/// Faint lines between cells and round the table's areas.
fn grid_line() -> Stroke {
    Stroke::new(1.0, Color32::from_black_alpha(60))
}

/// Terrain `i`'s fill (grey where the scene has no colour for it).
fn terrain_color(scene: &BoardScene<'_>, i: usize) -> Color32 {
    scene
        .terrain_colors
        .get(i)
        .copied()
        .unwrap_or(Color32::from_gray(200))
}

/// A grid's cells in their terrain's colour, and a square grid's lines.
fn paint_grid_terrain(scene: &BoardScene<'_>, t: &Transform, clip: Rect, shapes: &mut Vec<Shape>) {
    let Surface::Grid {
        grid,
        cols,
        rows,
        terrain,
        ..
    } = &scene.board.surface
    else {
        return;
    };
    let line = grid_line();
    let visible = |cx: f32, cy: f32| {
        let p = t.to_screen(cx, cy);
        clip.expand(t.scale).contains(p)
    };
    let fill_of = |col: i32, row: i32| {
        terrain_color(
            scene,
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
                    let c = Cell::new(col, row);
                    let (cx, cy) = cell_center(grid, c);
                    if visible(cx, cy) {
                        shapes.push(hex_cell_shape(scene, grid, t, c, fill_of(col, row)));
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
}

/// On a grid: the selected piece's reach, its legal targets ringed and the path planned.
fn paint_grid_overlay(
    ctx: &egui::Context,
    scene: &BoardScene<'_>,
    grid: &Grid,
    t: &Transform,
    shapes: &mut Vec<Shape>,
) {
    for (c, _) in &scene.overlay.reach_cells {
        let (cx, mut cy) = cell_center(grid, *c);
        // A reach cell past the board's edge is a step off it (a leader escaping across
        // his baseline): drawn apart and labelled, as the legend explains.
        let exit = !scene.board.contains(*c);
        if exit {
            cy += exit_shift(scene.board, grid, *c);
        }
        let fill = if exit {
            Color32::from_rgba_unmultiplied(255, 140, 0, 140)
        } else {
            Color32::from_rgba_unmultiplied(255, 230, 0, 90)
        };
        shapes.push(cell_fill(grid, t, cx, cy, fill));
        if exit && t.scale >= 24.0 {
            let font = egui::FontId::proportional((t.scale * 0.3).min(14.0));
            let ink = Color32::WHITE;
            let galley = ctx.fonts_mut(|f| f.layout_no_wrap(EXIT_MARK.to_owned(), font, ink));
            let at = t.to_screen(cx, cy) - galley.size() / 2.0;
            shapes.push(Shape::Text(egui::epaint::TextShape::new(at, galley, ink)));
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

/// The word on a reach cell off the board: a step off it.
pub const EXIT_MARK: &str = "exit";

/// How far (board units, down positive) an exit cell past a hex board's first or last row
/// is drawn from its place so that it meets the table's edge: the edge runs through the
/// centres of the half-hexes there, and drawn in place the exit row floated a third of a
/// hex beyond it. Nothing for a cell past a side, or on a square grid.
fn exit_shift(board: &Board, grid: &Grid, c: Cell) -> f32 {
    let Surface::Grid { rows, .. } = &board.surface else {
        return 0.0;
    };
    if !matches!(grid, Grid::Hex(_)) {
        return 0.0;
    }
    let gap = 0.866_025_4 - HEX_RADIUS;
    if c.row >= *rows {
        -gap
    } else if c.row < 0 {
        gap
    } else {
        0.0
    }
}

/// A cell's shape on screen, filled.
fn cell_fill(grid: &Grid, t: &Transform, cx: f32, cy: f32, fill: Color32) -> Shape {
    match grid {
        Grid::Square(_) => Shape::rect_filled(
            Rect::from_center_size(t.to_screen(cx, cy), Vec2::splat(t.scale * 0.9)),
            2.0,
            fill,
        ),
        Grid::Hex(_) => Shape::convex_polygon(hex_corners(t, cx, cy), fill, Stroke::NONE),
    }
}

/// The open table in its base terrain's colour, its areas, and a 6" grid of faint lines.
fn paint_open_table(scene: &BoardScene<'_>, t: &Transform, shapes: &mut Vec<Shape>) {
    let Surface::Open {
        width,
        height,
        areas,
    } = &scene.board.surface
    else {
        return;
    };
    let line = grid_line();
    shapes.push(Shape::rect_filled(
        Rect::from_min_max(
            t.to_screen(0.0, 0.0),
            t.to_screen(inches(*width), inches(*height)),
        ),
        0.0,
        terrain_color(scene, 0),
    ));
    for a in areas {
        let pts: Vec<Pos2> = a
            .corners
            .iter()
            .map(|p| t.to_screen(inches(p.x), inches(p.y)))
            .collect();
        shapes.push(Shape::convex_polygon(
            pts,
            terrain_color(scene, a.terrain.index()),
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
}

/// On the open table (`w` × `h` inches): the selected piece's reach, kept on the table,
/// and the legal destinations.
fn paint_open_overlay(
    scene: &BoardScene<'_>,
    t: &Transform,
    (w, h): (f32, f32),
    shapes: &mut Vec<Shape>,
) {
    if let Some((p, r)) = scene.overlay.reach_radius {
        // The reach ends at the table's edge: nothing beyond it can be reached.
        let table = Rect::from_min_max(t.to_screen(0.0, 0.0), t.to_screen(w, h));
        let centre = t.to_screen(inches(p.x), inches(p.y));
        let fill = Color32::from_rgba_unmultiplied(255, 230, 0, 60);
        let area = match scene.overlay.reach_base {
            // A base: the area it can cover (its rectangle grown by the reach).
            Some((base, facing)) => bases::reach_area(&base, facing, r, t),
            None => circle_points(centre, r * t.scale),
        };
        let area = clip_convex(&area, table);
        if area.len() >= 3 {
            shapes.push(Shape::convex_polygon(area, fill, Stroke::NONE));
        }
        if scene.overlay.reach_base.is_some() {
            // Where its centre can go, outlined (the part on the table).
            let ring = circle_points(centre, r * t.scale);
            let stroke = Stroke::new(1.0, Color32::from_rgb(200, 150, 0));
            for i in 0..ring.len() {
                let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
                if let Some(seg) = clip_segment(a, b, table) {
                    shapes.push(Shape::line_segment(seg, stroke));
                }
            }
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

/// A circle as a polygon of 72 corners.
fn circle_points(centre: Pos2, radius: f32) -> Vec<Pos2> {
    (0..72)
        .map(|i| {
            let a = (i as f32 * 5.0).to_radians();
            centre + Vec2::new(a.cos(), a.sin()) * radius
        })
        .collect()
}

/// The part of the convex polygon `poly` inside `rect` (Sutherland–Hodgman: cut by each
/// side of the rectangle in turn; a convex polygon stays convex).
#[must_use]
pub fn clip_convex(poly: &[Pos2], rect: Rect) -> Vec<Pos2> {
    // Each side as a signed distance, positive inside.
    let sides: [fn(Pos2, Rect) -> f32; 4] = [
        |p, r| p.x - r.min.x,
        |p, r| r.max.x - p.x,
        |p, r| p.y - r.min.y,
        |p, r| r.max.y - p.y,
    ];
    let mut out = poly.to_vec();
    for inside in sides {
        let input = std::mem::take(&mut out);
        for i in 0..input.len() {
            let (a, b) = (input[i], input[(i + 1) % input.len()]);
            let (da, db) = (inside(a, rect), inside(b, rect));
            if da >= 0.0 {
                out.push(a);
            }
            if (da >= 0.0) != (db >= 0.0) {
                out.push(a + (b - a) * (da / (da - db)));
            }
        }
    }
    out
}

/// The part of the segment `a`–`b` inside `rect`, if any (Liang–Barsky).
fn clip_segment(a: Pos2, b: Pos2, rect: Rect) -> Option<[Pos2; 2]> {
    let d = b - a;
    let (mut t0, mut t1) = (0.0_f32, 1.0_f32);
    for (p, q) in [
        (-d.x, a.x - rect.min.x),
        (d.x, rect.max.x - a.x),
        (-d.y, a.y - rect.min.y),
        (d.y, rect.max.y - a.y),
    ] {
        if p.abs() < f32::EPSILON {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 <= t1).then(|| [a + d * t0, a + d * t1])
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

fn facing_vector(mark: FacingMark, grid: Option<&Grid>) -> Vec2 {
    let degrees = match (mark, grid) {
        (FacingMark::Grid(f), Some(Grid::Square(_))) => f32::from(f.0) * 45.0,
        (FacingMark::Grid(f), _) => f32::from(f.0) * 60.0,
        (FacingMark::Angle(a), _) => a.tenths() as f32 / 10.0,
    };
    let r = degrees.to_radians();
    Vec2::new(r.cos(), r.sin())
}

/// Draws the pieces into `shapes`; returns their captions' shapes, to be drawn over
/// everything else on the board.
fn paint_pieces(
    ctx: &egui::Context,
    scene: &BoardScene<'_>,
    t: &Transform,
    clip: Rect,
    shapes: &mut Vec<Shape>,
) -> Vec<Shape> {
    let grid = scene.board.grid();
    let size = match grid {
        Some(_) => t.scale * 0.62,
        None => t.scale * 1.6,
    };
    let fan = fan_out(scene, t);
    let mut captions = Captions::default();
    for p in scene.pieces {
        if p.footprint.is_some() && matches!(p.place, Place::Point { .. }) {
            let selected = scene.overlay.selected == Some(p.id);
            bases::paint_base(ctx, p, t, clip, selected, shapes, &mut captions);
            continue;
        }
        let (shift, size) = fan.get(&p.id).copied().unwrap_or((Vec2::ZERO, size));
        let centers: Vec<Pos2> = match (&p.place, grid) {
            (Place::Cell(c), Some(g)) => {
                let (x, y) = cell_center(g, *c);
                vec![t.to_screen(x, y) + shift]
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
            // A face-down block is labelled on its dimmed face, in ink that reads on it.
            let mut fill = color;
            match p.look {
                Look::Ghost => {
                    shapes.push(Shape::rect_stroke(
                        rect,
                        3.0,
                        Stroke::new(1.5, color.gamma_multiply(0.6)),
                        egui::StrokeKind::Inside,
                    ));
                    // Named as the side's log names it, so "enemy #9 last seen" is found.
                    if i == 0 && size >= SMALLEST_LABELLED_COUNTER && !p.name.is_empty() {
                        captions.add(ctx, p, rect, false);
                    }
                    continue;
                }
                Look::FaceDown => {
                    fill = color.gamma_multiply(0.55);
                    shapes.push(Shape::rect_filled(rect, 3.0, fill));
                    shapes.push(Shape::rect_stroke(
                        rect,
                        3.0,
                        outline,
                        egui::StrokeKind::Inside,
                    ));
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
            let mut room = rect;
            let mut arrow_down = false;
            if let Some(mark) = p.facing {
                arrow_down = facing_vector(mark, grid).y > 0.5;
                let arrow = facing_arrow(center, facing_vector(mark, grid), size);
                room = clear_of(rect, Rect::from_points(&arrow));
                shapes.push(Shape::convex_polygon(
                    arrow,
                    Color32::WHITE,
                    Stroke::new(1.0, Color32::BLACK),
                ));
            }
            if i == 0 && size >= SMALLEST_LABELLED_COUNTER {
                if name_fits(ctx, p, (room.width(), room.height()), SMALLEST_LABEL_FONT) {
                    // Fitted inside the counter, clear of its facing arrow, in the colour
                    // that reads on it.
                    let ink = text_on(fill);
                    let galley = piece_galley(
                        ctx,
                        p,
                        size,
                        SMALLEST_LABEL_FONT,
                        (room.width(), room.height()),
                        ink,
                    );
                    let at = room.left_top() + Vec2::new(2.0, 1.0);
                    captions.label(Rect::from_min_size(at, galley.size()));
                    shapes.push(Shape::Text(egui::epaint::TextShape::new(at, galley, ink)));
                } else {
                    // Clear of a facing arrow pointing down.
                    captions.add(ctx, p, rect, arrow_down);
                }
            }
        }
    }
    captions.into_shapes_within(clip)
}

/// Counters smaller than this (screen points across) are drawn without a label or caption
/// (the board seen whole: dots a caption each would bury; hovering names them).
const SMALLEST_LABELLED_COUNTER: f32 = 9.0;

/// A counter's facing arrow: a triangle from inside its edge pointing out along `v`.
fn facing_arrow(center: Pos2, v: Vec2, size: f32) -> Vec<Pos2> {
    let tip = center + v * size * 0.62;
    let side = Vec2::new(-v.y, v.x) * size * 0.18;
    let base = center + v * size * 0.42;
    vec![tip, base + side, base - side]
}

/// The largest part of `counter` (a full-width band above or below, or a full-height band
/// left or right) that `mark` (with its outline) does not reach into: where the label goes,
/// so the facing arrow never covers the name. A full-width band wins a near tie: a label's
/// lines run across, and a narrow full-height band cut them while its last lines ran
/// into an arrow in a corner.
#[must_use]
pub fn clear_of(counter: Rect, mark: Rect) -> Rect {
    let inside = counter.intersect(mark.expand(1.5));
    if !inside.is_positive() {
        return counter;
    }
    let across = [
        Rect::from_min_max(counter.min, Pos2::new(counter.max.x, inside.min.y)),
        Rect::from_min_max(Pos2::new(counter.min.x, inside.max.y), counter.max),
    ]
    .into_iter()
    .filter(|b| b.is_positive())
    .max_by(|a, b| a.area().total_cmp(&b.area()));
    let bands = [
        Rect::from_min_max(counter.min, Pos2::new(counter.max.x, inside.min.y)),
        Rect::from_min_max(Pos2::new(counter.min.x, inside.max.y), counter.max),
        Rect::from_min_max(counter.min, Pos2::new(inside.min.x, counter.max.y)),
        Rect::from_min_max(Pos2::new(inside.max.x, counter.min.y), counter.max),
    ];
    let best = bands
        .into_iter()
        .filter(|b| b.is_positive())
        .max_by(|a, b| a.area().total_cmp(&b.area()))
        .unwrap_or(counter);
    match across {
        Some(a) if a.area() >= 0.9 * best.area() => a,
        _ => best,
    }
}

/// Where each counter of a stack (several pieces in one cell) is drawn: its shift from the
/// cell's centre and its size. A stack's counters shrink and fan out across the cell, so
/// none hides another (a lost scout no longer covers its HQ); a lone piece is absent
/// (centred, full size).
#[must_use]
pub fn fan_out(
    scene: &BoardScene<'_>,
    t: &Transform,
) -> std::collections::HashMap<PieceId, (Vec2, f32)> {
    let mut out = std::collections::HashMap::new();
    if scene.board.grid().is_none() {
        return out;
    }
    let mut stacks: std::collections::BTreeMap<(i32, i32), Vec<PieceId>> =
        std::collections::BTreeMap::new();
    for p in scene.pieces {
        if let Place::Cell(c) = p.place {
            stacks.entry((c.row, c.col)).or_default().push(p.id);
        }
    }
    let full = t.scale * 0.62;
    for ids in stacks.values().filter(|s| s.len() > 1) {
        let n = ids.len() as f32;
        // Side by side across 90% of the cell, in two rows beyond three.
        let per_row = if ids.len() > 3 { n / 2.0 } else { n }.ceil();
        let size = (t.scale * 0.9 / per_row).min(full * 0.8);
        for (k, id) in ids.iter().enumerate() {
            let (row, col) = ((k as f32 / per_row).floor(), k as f32 % per_row);
            let rows = (n / per_row).ceil();
            let x = (col - (per_row - 1.0) / 2.0) * size * 1.05;
            let y = (row - (rows - 1.0) / 2.0) * size * 1.05;
            out.insert(*id, (Vec2::new(x, y), size));
        }
    }
    out
}
