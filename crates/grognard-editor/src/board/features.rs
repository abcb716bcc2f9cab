//! Boundary features on a grid board — rivers, roads, walls, bridges and fords — as
//! drawn on the board and in the legend: each feature's look from its ruleset definition,
//! its words and its shapes.

use egui::{Color32, Pos2, Shape, Stroke, Vec2};
use grognard_kernel::geometry::Grid;

use grognard_kernel::rules::FeatureKind;

use super::{BoardScene, HEX_RADIUS, Transform, cell_center};

pub(super) fn paint_features(
    scene: &BoardScene<'_>,
    grid: &Grid,
    t: &Transform,
    shapes: &mut Vec<Shape>,
) {
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
            let look = feature_look(def);
            let (a, b) = match def.kind {
                // A road runs from centre to centre, a barrier along the shared edge, a
                // crossing a short way across it.
                FeatureKind::Road => (t.to_screen(ax, ay), t.to_screen(bx, by)),
                FeatureKind::Barrier { .. } => {
                    (t.to_screen(mx - px, my - py), t.to_screen(mx + px, my + py))
                }
                FeatureKind::Crossing { .. } => {
                    let (qx, qy) = (dx / len * 0.22, dy / len * 0.22);
                    (t.to_screen(mx - qx, my - qy), t.to_screen(mx + qx, my + qy))
                }
            };
            shapes.extend(feature_shapes(look, a, b, t.scale));
        }
    }
}

/// How an edge feature is drawn. Each look is its own: a road a dashed brown track, water a
/// thin blue wavy line, a wall a thick stone-grey line with ticks on one side, a hedge a
/// dotted green line, a bridge a grey deck with dark rails and a ford stepping stones — so
/// no two kinds share a swatch in the legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureLook {
    /// A road or track along a row of cells.
    Road,
    /// A stream or river on a cell edge.
    Water,
    /// A wall (and any barrier not named as water or a hedge).
    Wall,
    /// A hedge.
    Hedge,
    /// A bridge (and any crossing not named a ford).
    Bridge,
    /// A ford.
    Ford,
}

/// The look of a feature: its kind, and for barriers and crossings its name (water and
/// hedges are barriers as walls are; they differ only by what they are called).
#[must_use]
pub fn feature_look(def: &grognard_kernel::rules::FeatureDef) -> FeatureLook {
    let name = def.name.to_ascii_lowercase();
    let named = |words: &[&str]| words.iter().any(|w| name.contains(w));
    match def.kind {
        FeatureKind::Road => FeatureLook::Road,
        FeatureKind::Barrier { .. } => {
            if named(&[
                "river", "stream", "brook", "creek", "water", "canal", "beck",
            ]) {
                FeatureLook::Water
            } else if named(&["hedge", "bocage"]) {
                FeatureLook::Hedge
            } else {
                FeatureLook::Wall
            }
        }
        FeatureKind::Crossing { .. } => match crossing_look(&def.name) {
            CrossingLook::Ford => FeatureLook::Ford,
            CrossingLook::Bridge => FeatureLook::Bridge,
        },
    }
}

/// What a look is, in the legend's words.
#[must_use]
pub fn feature_words(look: FeatureLook) -> &'static str {
    match look {
        FeatureLook::Road => "road: a dashed brown track from cell to cell",
        FeatureLook::Water => "water: a thin blue wavy line on the cell edge",
        FeatureLook::Wall => "wall: a thick grey line with ticks on the cell edge",
        FeatureLook::Hedge => "hedge: a dotted green line on the cell edge",
        FeatureLook::Bridge => "a bridge: a deck with rails across the edge",
        FeatureLook::Ford => "a ford: stepping stones across the edge",
    }
}

/// A feature from `a` to `b` on screen (`scale`: points per cell): along the step for a
/// road, along the edge for a barrier, across the edge for a crossing.
#[must_use]
pub fn feature_shapes(look: FeatureLook, a: Pos2, b: Pos2, scale: f32) -> Vec<Shape> {
    let along = b - a;
    let length = along.length().max(1e-3);
    let n = Vec2::new(-along.y, along.x) / length;
    match look {
        FeatureLook::Road => {
            let width = (scale * 0.1).max(2.0);
            Shape::dashed_line(
                &[a, b],
                Stroke::new(width, Color32::from_rgb(160, 115, 55)),
                width * 2.5,
                width * 1.2,
            )
        }
        FeatureLook::Water => {
            // Two waves an edge, whatever the zoom.
            let amplitude = (scale * 0.03).max(1.5);
            let points: Vec<Pos2> = (0..=24)
                .map(|i| {
                    let f = i as f32 / 24.0;
                    a + along * f + n * amplitude * (f * std::f32::consts::TAU * 2.0).sin()
                })
                .collect();
            vec![Shape::line(
                points,
                Stroke::new((scale * 0.05).max(1.5), Color32::from_rgb(40, 110, 220)),
            )]
        }
        FeatureLook::Wall => {
            let width = (scale * 0.1).max(3.0);
            let stone = Color32::from_rgb(85, 80, 75);
            let mut out = vec![Shape::line_segment([a, b], Stroke::new(width, stone))];
            let ticks = 4;
            for i in 0..ticks {
                let p = a + along * ((i as f32 + 0.5) / ticks as f32);
                out.push(Shape::line_segment(
                    [p, p + n * width * 1.3],
                    Stroke::new((width * 0.4).max(1.0), stone),
                ));
            }
            out
        }
        FeatureLook::Hedge => {
            let r = (scale * 0.035).max(1.5);
            (0..6)
                .map(|i| {
                    Shape::circle_filled(
                        a + along * ((i as f32 + 0.5) / 6.0),
                        r,
                        Color32::from_rgb(40, 110, 40),
                    )
                })
                .collect()
        }
        FeatureLook::Bridge => crossing_shapes(CrossingLook::Bridge, a, b, scale),
        FeatureLook::Ford => crossing_shapes(CrossingLook::Ford, a, b, scale),
    }
}

/// How a crossing is drawn: a bridge as a deck with rails, a ford as stepping stones, so
/// the two read apart on the board and in the legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrossingLook {
    /// A bridge (and any crossing not named a ford).
    Bridge,
    /// A ford: water crossed on foot.
    Ford,
}

/// The look of the crossing feature `name` (a ford when its name says so).
#[must_use]
pub fn crossing_look(name: &str) -> CrossingLook {
    if name.to_ascii_lowercase().contains("ford") {
        CrossingLook::Ford
    } else {
        CrossingLook::Bridge
    }
}

/// A crossing from `a` to `b` on screen (`scale`: points per cell).
#[must_use]
pub fn crossing_shapes(look: CrossingLook, a: Pos2, b: Pos2, scale: f32) -> Vec<Shape> {
    let along = b - a;
    let n = Vec2::new(-along.y, along.x).normalized();
    match look {
        CrossingLook::Bridge => {
            let half = (scale * 0.1).max(3.0);
            let deck = Color32::from_rgb(140, 140, 135);
            let rail = Stroke::new(1.5, Color32::from_rgb(40, 25, 10));
            vec![
                Shape::line_segment([a, b], Stroke::new(half * 2.0, deck)),
                Shape::line_segment([a + n * half, b + n * half], rail),
                Shape::line_segment([a - n * half, b - n * half], rail),
            ]
        }
        CrossingLook::Ford => {
            let r = (scale * 0.05).max(2.0);
            (0..4)
                .map(|i| {
                    let p = a + along * ((i as f32 + 0.5) / 4.0);
                    Shape::Circle(egui::epaint::CircleShape {
                        center: p,
                        radius: r,
                        fill: Color32::from_rgb(215, 200, 160),
                        stroke: Stroke::new(1.0, Color32::from_rgb(70, 110, 160)),
                    })
                })
                .collect()
        }
    }
}
