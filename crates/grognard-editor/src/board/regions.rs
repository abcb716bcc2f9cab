//! The scenario's entry regions on the board (where reinforcements arrive: a region whose
//! name starts with `entry`, as Hex Command's `entry_1`…`entry_3`), each outlined dashed
//! round its edge and labelled with its name, and the legend's line for them. A player met
//! reinforcements arriving at `entry_1` with nothing on the board to say where that was.
//! Other regions (victory objectives, deployment areas, a board's sections) are not drawn:
//! hex-leaders' three sections cover the whole board.

use egui::{Color32, Pos2, Shape, Stroke};
use grognard_kernel::board::{Board, RegionArea, Surface};
use grognard_kernel::geometry::{Cell, Grid};

use super::{Transform, cell_at, cell_center, hex_corners};
use crate::scene::inches;
use crate::words::spaced;

/// The regions' ink: a dark violet no terrain colour or side colour uses.
const INK: Color32 = Color32::from_rgb(90, 40, 120);

/// True for a region reinforcements arrive in, by its name (`entry_1`, `Entry north`).
fn is_entry(region: &grognard_kernel::board::Region) -> bool {
    region.name.to_ascii_lowercase().starts_with("entry")
}

/// Outlines every entry region of `board` into `shapes`; returns their names' labels, for
/// the caller to draw over the pieces. On a grid the name stands in the region's first
/// cell no piece of `pieces` stands in; when a piece stands in every one, it goes into
/// `shapes`, under the pieces (drawn over a piece, "entry 1" hid its name; outside player
/// E8).
pub(super) fn paint_regions(
    ctx: &egui::Context,
    board: &Board,
    pieces: &[super::DrawPiece],
    t: &Transform,
    shapes: &mut Vec<Shape>,
) -> Vec<Shape> {
    let stroke = Stroke::new(2.0, INK);
    let mut labels = Vec::new();
    for region in board.regions.iter().filter(|r| is_entry(r)) {
        let mut under = false;
        let label_at = match (&board.surface, &region.area) {
            (Surface::Grid { grid, .. }, _) => {
                for (a, b) in grid_edge(board, grid, t, &region.cells) {
                    shapes.extend(Shape::dashed_line(&[a, b], stroke, 6.0, 4.0));
                }
                let free = region
                    .cells
                    .iter()
                    .find(|c| !pieces.iter().any(|p| p.place.covers(**c)));
                under = free.is_none();
                free.or(region.cells.first()).map(|c| {
                    let (cx, cy) = cell_center(grid, *c);
                    t.to_screen(cx, cy)
                })
            }
            (Surface::Open { .. }, Some(area)) => {
                let ring = area_ring(area);
                let pts: Vec<Pos2> = ring.iter().map(|(x, y)| t.to_screen(*x, *y)).collect();
                let mut closed = pts.clone();
                closed.extend(pts.first().copied());
                shapes.extend(Shape::dashed_line(&closed, stroke, 8.0, 5.0));
                centroid(&pts)
            }
            (Surface::Open { .. }, None) => None,
        };
        if let Some(at) = label_at {
            let font = egui::FontId::proportional((t.scale * 0.22).clamp(9.0, 13.0));
            let galley = ctx.fonts_mut(|f| f.layout_no_wrap(spaced(&region.name), font, INK));
            let r = egui::Rect::from_center_size(at, galley.size());
            let into = if under { &mut *shapes } else { &mut labels };
            into.push(Shape::rect_filled(
                r.expand(2.0),
                2.0,
                Color32::from_white_alpha(200),
            ));
            into.push(Shape::Text(egui::epaint::TextShape::new(
                r.min, galley, INK,
            )));
        }
    }
    labels
}

/// The edges (on screen) of `cells` that no other cell of them shares: its outline.
fn grid_edge(board: &Board, grid: &Grid, t: &Transform, cells: &[Cell]) -> Vec<(Pos2, Pos2)> {
    let mut out = Vec::new();
    for c in cells {
        let (cx, cy) = cell_center(grid, *c);
        let corners: Vec<Pos2> = match grid {
            Grid::Square(_) => [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
                .iter()
                .map(|(dx, dy)| t.to_screen(cx + dx, cy + dy))
                .collect(),
            Grid::Hex(_) => hex_corners(t, cx, cy),
        };
        for i in 0..corners.len() {
            let (a, b) = (corners[i], corners[(i + 1) % corners.len()]);
            // The cell across this edge: just past its middle, away from the centre.
            let (mx, my) = t.to_board(a + (b - a) / 2.0);
            let (across_x, across_y) = (mx + (mx - cx) * 0.5, my + (my - cy) * 0.5);
            let across = cell_at(board, across_x, across_y);
            if !across.is_some_and(|n| n != *c && cells.contains(&n)) {
                out.push((a, b));
            }
        }
    }
    out
}

/// An open-table region's boundary in inches (a circle as 48 points).
fn area_ring(area: &RegionArea) -> Vec<(f32, f32)> {
    match area {
        RegionArea::Polygon(corners) => {
            corners.iter().map(|p| (inches(p.x), inches(p.y))).collect()
        }
        RegionArea::Circle { centre, radius } => {
            let (x, y, r) = (inches(centre.x), inches(centre.y), inches(*radius));
            (0..48)
                .map(|i| {
                    let a = (i as f32 * 7.5).to_radians();
                    (x + r * a.cos(), y + r * a.sin())
                })
                .collect()
        }
    }
}

fn centroid(pts: &[Pos2]) -> Option<Pos2> {
    if pts.is_empty() {
        return None;
    }
    let n = pts.len() as f32;
    let (x, y) = pts.iter().fold((0.0, 0.0), |(x, y), p| (x + p.x, y + p.y));
    Some(Pos2::new(x / n, y / n))
}

/// The legend's line for the board's entry regions, `None` when it has none: `Dashed
/// violet outlines: where reinforcements arrive (entry 1, entry 2).`
#[must_use]
pub fn region_legend(board: &Board) -> Option<String> {
    let names: Vec<String> = board
        .regions
        .iter()
        .filter(|r| is_entry(r))
        .map(|r| spaced(&r.name))
        .collect();
    (!names.is_empty()).then(|| {
        format!(
            "Dashed violet outlines: where reinforcements arrive ({}).",
            names.join(", ")
        )
    })
}
