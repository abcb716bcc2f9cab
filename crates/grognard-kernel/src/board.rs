//! The board: a grid with terrain per cell and features on cell boundaries, or an open table
//! with terrain areas; regions; sides and their baselines.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::geometry::open::{Len, Point};
use crate::geometry::{Cell, Facing, Grid};
use crate::ids::{FeatureId, TerrainId};

/// A table edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// Row 0 / y = 0.
    North,
    /// The last row / y = height.
    South,
    /// Column 0 / x = 0.
    West,
    /// The last column / x = width.
    East,
}

/// A side (army) in a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideDef {
    /// Name.
    pub name: String,
    /// The side's own baseline, if the scenario names one.
    pub baseline: Option<Edge>,
}

/// Which edge cells of a hex board are half-hexes cut by the table edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HalfHexes {
    /// Cells cut by the west and east edges.
    pub sides: bool,
    /// Cells cut by the north and south edges (the baselines).
    pub baselines: bool,
}

/// An area of terrain on an open table: a simple polygon in table inches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Area {
    /// Name ("Hougoumont wood").
    pub name: String,
    /// Its terrain.
    pub terrain: TerrainId,
    /// Corners in order.
    pub corners: Vec<Point>,
}

/// A named part of the board (battlefield sections, deployment zones, objectives): a set
/// of cells on a grid, an area on an open table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    /// Name.
    pub name: String,
    /// Cells (grids; empty on an open table).
    pub cells: Vec<Cell>,
    /// The area (open tables; `None` on a grid).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<RegionArea>,
}

/// The shape of a region on an open table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RegionArea {
    /// A simple polygon, corners in order.
    Polygon(Vec<Point>),
    /// A circle: its centre and radius.
    Circle {
        /// Centre.
        centre: Point,
        /// Radius.
        radius: Len,
    },
}

impl RegionArea {
    /// True when the point lies in the area, its edge included (exact integer arithmetic).
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        match self {
            Self::Polygon(corners) => point_in_polygon(p, corners),
            Self::Circle { centre, radius } => {
                let (dx, dy) = (
                    i128::from(p.x.0 - centre.x.0),
                    i128::from(p.y.0 - centre.y.0),
                );
                let r = i128::from(radius.0);
                dx * dx + dy * dy <= r * r
            }
        }
    }
}

impl Region {
    /// True when a piece standing at `place` is in the region: on a grid, it covers one of
    /// the region's cells; on an open table, its point (a unit's centre) is in the area.
    #[must_use]
    pub fn holds(&self, place: &crate::piece::Place) -> bool {
        match (place, &self.area) {
            (crate::piece::Place::Point { at, .. }, Some(area)) => area.contains(*at),
            _ => self.cells.iter().any(|c| place.covers(*c)),
        }
    }
}

/// The playing surface.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Surface {
    /// A square or hex grid of `cols` × `rows` cells.
    Grid {
        /// Geometry.
        grid: Grid,
        /// Columns.
        cols: i32,
        /// Rows.
        rows: i32,
        /// Terrain per cell, row-major.
        terrain: Vec<TerrainId>,
        /// Half-hexes along the edges (hex boards only).
        halves: HalfHexes,
    },
    /// An open table in inches, (0,0) at the north-west corner.
    Open {
        /// Width (east–west).
        width: Len,
        /// Depth (north–south).
        height: Len,
        /// Terrain areas; the first one containing a point wins; elsewhere terrain 0.
        areas: Vec<Area>,
    },
}

/// A whole board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// The surface.
    pub surface: Surface,
    /// Features on boundaries, keyed by the two cells in canonical (sorted) order (in
    /// JSON, a list of `[[a, b], features]` pairs: JSON keys are strings).
    #[serde(with = "links_as_pairs")]
    pub links: BTreeMap<(Cell, Cell), Vec<FeatureId>>,
    /// Named regions.
    pub regions: Vec<Region>,
}

/// The boundary features as a list of pairs, so a board serialises to JSON.
mod links_as_pairs {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::geometry::Cell;
    use crate::ids::FeatureId;

    type Links = BTreeMap<(Cell, Cell), Vec<FeatureId>>;

    pub fn serialize<S: Serializer>(links: &Links, s: S) -> Result<S::Ok, S::Error> {
        links.iter().collect::<Vec<_>>().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Links, D::Error> {
        Ok(Vec::<((Cell, Cell), Vec<FeatureId>)>::deserialize(d)?
            .into_iter()
            .collect())
    }
}

/// The canonical key of the boundary between two cells.
#[must_use]
pub fn link_key(a: Cell, b: Cell) -> (Cell, Cell) {
    if a <= b { (a, b) } else { (b, a) }
}

impl Board {
    /// The grid, for grid boards.
    #[must_use]
    pub fn grid(&self) -> Option<&Grid> {
        match &self.surface {
            Surface::Grid { grid, .. } => Some(grid),
            Surface::Open { .. } => None,
        }
    }

    /// Columns and rows of a grid board.
    #[must_use]
    pub fn dimensions(&self) -> Option<(i32, i32)> {
        match &self.surface {
            Surface::Grid { cols, rows, .. } => Some((*cols, *rows)),
            Surface::Open { .. } => None,
        }
    }

    /// The dense index of a cell, if it is on the board.
    #[must_use]
    pub fn index(&self, c: Cell) -> Option<usize> {
        let (cols, rows) = self.dimensions()?;
        if c.col < 0 || c.row < 0 || c.col >= cols || c.row >= rows {
            return None;
        }
        usize::try_from(c.row)
            .ok()?
            .checked_mul(usize::try_from(cols).ok()?)?
            .checked_add(usize::try_from(c.col).ok()?)
    }

    /// Number of cells (0 on an open table).
    #[must_use]
    pub fn cell_count(&self) -> usize {
        match &self.surface {
            Surface::Grid { terrain, .. } => terrain.len(),
            Surface::Open { .. } => 0,
        }
    }

    /// True when the cell is on the board.
    #[must_use]
    pub fn contains(&self, c: Cell) -> bool {
        self.index(c).is_some()
    }

    /// True when the point is on the table.
    #[must_use]
    pub fn contains_point(&self, p: Point) -> bool {
        match &self.surface {
            Surface::Open { width, height, .. } => {
                p.x.0 >= 0 && p.y.0 >= 0 && p.x.0 <= width.0 && p.y.0 <= height.0
            }
            Surface::Grid { .. } => false,
        }
    }

    /// The terrain of a cell (terrain 0 off the board).
    #[must_use]
    pub fn terrain(&self, c: Cell) -> TerrainId {
        match (&self.surface, self.index(c)) {
            (Surface::Grid { terrain, .. }, Some(i)) => terrain.get(i).copied().unwrap_or_default(),
            _ => TerrainId(0),
        }
    }

    /// The terrain of the cell at board index `index` (as [`Self::index`] gives it).
    #[must_use]
    pub fn terrain_of_index(&self, index: usize) -> TerrainId {
        match &self.surface {
            Surface::Grid { terrain, .. } => terrain.get(index).copied().unwrap_or_default(),
            Surface::Open { .. } => TerrainId(0),
        }
    }

    /// The terrain of every cell by board index (as [`Self::index`] gives it), on a grid.
    #[must_use]
    pub(crate) fn terrain_cells(&self) -> Option<&[TerrainId]> {
        match &self.surface {
            Surface::Grid { terrain, .. } => Some(terrain),
            Surface::Open { .. } => None,
        }
    }

    /// The terrain at a point of an open table.
    #[must_use]
    pub fn terrain_at(&self, p: Point) -> TerrainId {
        match &self.surface {
            Surface::Open { areas, .. } => areas
                .iter()
                .find(|a| point_in_polygon(p, &a.corners))
                .map_or(TerrainId(0), |a| a.terrain),
            Surface::Grid { .. } => TerrainId(0),
        }
    }

    /// Terrain areas a straight move from `a` to `b` touches (including where it starts and
    /// ends).
    pub fn areas_crossed(&self, a: Point, b: Point) -> impl Iterator<Item = &Area> {
        let areas: &[Area] = match &self.surface {
            Surface::Open { areas, .. } => areas,
            Surface::Grid { .. } => &[],
        };
        areas
            .iter()
            .filter(move |area| segment_touches_polygon(a, b, &area.corners))
    }

    /// Terrain areas that share any point with the convex polygon `hull` (its corners in
    /// order, either way round): an edge of the hull touches the area, or the area lies
    /// wholly inside the hull.
    pub fn areas_touching(&self, hull: &[Point]) -> impl Iterator<Item = &Area> {
        let areas: &[Area] = match &self.surface {
            Surface::Open { areas, .. } => areas,
            Surface::Grid { .. } => &[],
        };
        let n = hull.len();
        areas.iter().filter(move |area| {
            (0..n).any(|i| segment_touches_polygon(hull[i], hull[(i + 1) % n], &area.corners))
                || area
                    .corners
                    .first()
                    .is_some_and(|c| point_in_polygon(*c, hull))
        })
    }

    /// The distance from the polygon `hull` (a footprint's corners, or one point) to the
    /// nearest open-table area of `terrain`: 0 when they touch or overlap, `None` when the
    /// board has no such area.
    #[must_use]
    pub fn distance_to_terrain(&self, hull: &[Point], terrain: TerrainId) -> Option<Len> {
        let areas: &[Area] = match &self.surface {
            Surface::Open { areas, .. } => areas,
            Surface::Grid { .. } => &[],
        };
        areas
            .iter()
            .filter(|a| a.terrain == terrain)
            .map(|a| polygon_gap(hull, &a.corners))
            .min()
    }

    /// True when some cells of this board are half-hexes cut by the table edge.
    #[must_use]
    pub fn has_half_hexes(&self) -> bool {
        matches!(
            &self.surface,
            Surface::Grid { grid: Grid::Hex(_), halves, .. } if halves.sides || halves.baselines
        )
    }

    /// Whether a cell is a half-hex cut by the table edge.
    #[must_use]
    pub fn half_hex(&self, c: Cell) -> Option<crate::geometry::hex::HalfHex> {
        match &self.surface {
            Surface::Grid {
                grid: Grid::Hex(_),
                cols,
                rows,
                halves,
                ..
            } => {
                crate::geometry::hex::is_edge_half(c, *cols, *rows, halves.sides, halves.baselines)
            }
            _ => None,
        }
    }

    /// True when the cell lies on `edge` of a grid board.
    #[must_use]
    pub fn on_edge(&self, c: Cell, edge: Edge) -> bool {
        let Some((cols, rows)) = self.dimensions() else {
            return false;
        };
        self.contains(c)
            && match edge {
                Edge::North => c.row == 0,
                Edge::South => c.row == rows - 1,
                Edge::West => c.col == 0,
                Edge::East => c.col == cols - 1,
            }
    }

    /// Features on the boundary between two adjacent cells.
    #[must_use]
    pub fn features_between(&self, a: Cell, b: Cell) -> &[FeatureId] {
        self.links.get(&link_key(a, b)).map_or(&[], Vec::as_slice)
    }

    /// The barrier features a step from `from` in direction `dir` to `to` crosses, with
    /// `is_barrier` telling barriers from other features.
    ///
    /// A hex step, or an orthogonal square step, crosses the one boundary between the two
    /// cells. A diagonal square step passes through a corner: it crosses the barriers drawn
    /// on the four edges around that corner when, taken together, they cut both ways round
    /// the corner (a river running straight through it, or a wall meeting a river there),
    /// as well as any placed directly on the diagonal link.
    #[must_use]
    pub fn barriers_crossed(
        &self,
        from: Cell,
        dir: Facing,
        to: Cell,
        is_barrier: impl Fn(FeatureId) -> bool,
    ) -> Vec<FeatureId> {
        let mut out: Vec<FeatureId> = self
            .features_between(from, to)
            .iter()
            .copied()
            .filter(|f| is_barrier(*f))
            .collect();
        let diagonal = matches!(self.grid(), Some(Grid::Square(_)))
            && crate::geometry::square::is_diagonal(dir);
        if !diagonal {
            return out;
        }
        // The two cells beside the corner.
        let s1 = Cell::new(to.col, from.row);
        let s2 = Cell::new(from.col, to.row);
        let blocked = |a: Cell, b: Cell| self.features_between(a, b).iter().any(|f| is_barrier(*f));
        let cut_1 = blocked(from, s1) || blocked(s1, to);
        let cut_2 = blocked(from, s2) || blocked(s2, to);
        if cut_1 && cut_2 {
            for (a, b) in [(from, s1), (s1, to), (to, s2), (s2, from)] {
                for f in self.features_between(a, b) {
                    if is_barrier(*f) && !out.contains(f) {
                        out.push(*f);
                    }
                }
            }
        }
        out
    }
}

/// Exact even-odd point-in-polygon test (points on the boundary count as inside).
#[must_use]
pub fn point_in_polygon(p: Point, poly: &[Point]) -> bool {
    if poly.len() < 3 {
        return false;
    }
    let mut inside = false;
    let n = poly.len();
    for i in 0..n {
        let a = poly[i];
        let b = poly[(i + 1) % n];
        if on_segment(p, a, b) {
            return true;
        }
        let (ay, by, py) = (a.y.0, b.y.0, p.y.0);
        if (ay > py) != (by > py) {
            // x of the edge at height py, compared without division.
            let lhs = i128::from(p.x.0 - a.x.0) * i128::from(by - ay);
            let rhs = i128::from(b.x.0 - a.x.0) * i128::from(py - ay);
            if (by > ay && lhs < rhs) || (by < ay && lhs > rhs) {
                inside = !inside;
            }
        }
    }
    inside
}

fn cross(o: Point, a: Point, b: Point) -> i128 {
    i128::from(a.x.0 - o.x.0) * i128::from(b.y.0 - o.y.0)
        - i128::from(a.y.0 - o.y.0) * i128::from(b.x.0 - o.x.0)
}

fn on_segment(p: Point, a: Point, b: Point) -> bool {
    cross(a, b, p) == 0
        && p.x.0 >= a.x.0.min(b.x.0)
        && p.x.0 <= a.x.0.max(b.x.0)
        && p.y.0 >= a.y.0.min(b.y.0)
        && p.y.0 <= a.y.0.max(b.y.0)
}

fn segments_intersect(p1: Point, p2: Point, q1: Point, q2: Point) -> bool {
    let d1 = cross(q1, q2, p1).signum();
    let d2 = cross(q1, q2, p2).signum();
    let d3 = cross(p1, p2, q1).signum();
    let d4 = cross(p1, p2, q2).signum();
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && on_segment(p1, q1, q2))
        || (d2 == 0 && on_segment(p2, q1, q2))
        || (d3 == 0 && on_segment(q1, p1, p2))
        || (d4 == 0 && on_segment(q2, p1, p2))
}

/// The convex hull of `points`, counter-clockwise (y up) without collinear points; a
/// point or a segment when they all lie on one.
#[must_use]
pub fn convex_hull(points: &[Point]) -> Vec<Point> {
    let mut ps = points.to_vec();
    ps.sort_by_key(|p| (p.x.0, p.y.0));
    ps.dedup();
    if ps.len() < 3 {
        return ps;
    }
    // Andrew's monotone chain: the lower hull, then the upper.
    let mut hull: Vec<Point> = Vec::with_capacity(ps.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        for &p in &ps {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
        if pass == 0 {
            ps.reverse();
        }
    }
    hull
}

/// True when the segment `a`–`b` touches the polygon (crosses an edge or lies inside).
#[must_use]
pub fn segment_touches_polygon(a: Point, b: Point, poly: &[Point]) -> bool {
    if point_in_polygon(a, poly) || point_in_polygon(b, poly) {
        return true;
    }
    let n = poly.len();
    (0..n).any(|i| segments_intersect(a, b, poly[i], poly[(i + 1) % n]))
}

/// The distance between two polygons (either may be one point): 0 when they touch, else
/// the shortest distance between their edges, rounded to the thou.
#[must_use]
pub fn polygon_gap(a: &[Point], b: &[Point]) -> Len {
    let edges = |p: &[Point]| -> Vec<(Point, Point)> {
        let n = p.len();
        (0..n).map(|i| (p[i], p[(i + 1) % n])).collect()
    };
    let inside =
        |p: &[Point], q: &[Point]| q.len() > 2 && p.iter().any(|c| point_in_polygon(*c, q));
    if a.is_empty() || b.is_empty() {
        return Len(i64::MAX);
    }
    if inside(a, b)
        || inside(b, a)
        || edges(a).iter().any(|(p, q)| {
            edges(b)
                .iter()
                .any(|(r, s)| segments_intersect(*p, *q, *r, *s))
        })
    {
        return Len(0);
    }
    // Shortest distance between two segments that do not cross: from an end of one to
    // the other.
    let to_segment = |p: Point, (a, b): (Point, Point)| -> f64 {
        let (px, py) = (p.x.0 as f64, p.y.0 as f64);
        let (ax, ay, bx, by) = (a.x.0 as f64, a.y.0 as f64, b.x.0 as f64, b.y.0 as f64);
        let (dx, dy) = (bx - ax, by - ay);
        let len2 = dx * dx + dy * dy;
        let t = if len2 > 0.0 {
            (((px - ax) * dx + (py - ay) * dy) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (ax + t * dx - px).hypot(ay + t * dy - py)
    };
    let mut best = f64::MAX;
    for ea in edges(a) {
        for eb in edges(b) {
            best = best
                .min(to_segment(ea.0, eb))
                .min(to_segment(ea.1, eb))
                .min(to_segment(eb.0, ea))
                .min(to_segment(eb.1, ea));
        }
    }
    #[allow(clippy::cast_possible_truncation)] // table distances in thou
    Len(best.round() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::open::Len;

    #[test]
    fn polygon_gaps_are_zero_touching_and_edge_to_edge_apart() {
        let square = [pt(0, 0), pt(10, 0), pt(10, 10), pt(0, 10)];
        // A point 3" east of the square's east edge; a box overlapping it; one inside it.
        assert_eq!(polygon_gap(&[pt(13, 5)], &square), Len(3000));
        let over = [pt(8, 8), pt(12, 8), pt(12, 12), pt(8, 12)];
        assert_eq!(polygon_gap(&over, &square), Len(0));
        let within = [pt(4, 4), pt(6, 4), pt(6, 6), pt(4, 6)];
        assert_eq!(polygon_gap(&within, &square), Len(0));
        // Corner to corner: 3-4-5.
        let off = [pt(13, 14), pt(15, 14), pt(15, 16), pt(13, 16)];
        assert_eq!(polygon_gap(&off, &square), Len(5000));
    }

    fn pt(x: i64, y: i64) -> Point {
        Point {
            x: Len(x * 1000),
            y: Len(y * 1000),
        }
    }

    #[test]
    fn polygon_tests_are_exact_on_edges() {
        let square = [pt(0, 0), pt(10, 0), pt(10, 10), pt(0, 10)];
        assert!(point_in_polygon(pt(5, 5), &square));
        assert!(point_in_polygon(pt(10, 5), &square));
        assert!(!point_in_polygon(pt(11, 5), &square));
        assert!(segment_touches_polygon(pt(-5, 5), pt(20, 5), &square));
        assert!(!segment_touches_polygon(pt(-5, -5), pt(-1, 20), &square));
    }

    #[test]
    fn convex_hull_keeps_the_outer_corners() {
        // Two unit squares' corners, one 3 to the right of the other: a 4 x 1 rectangle.
        let pts = [
            pt(0, 0),
            pt(1, 0),
            pt(1, 1),
            pt(0, 1),
            pt(3, 0),
            pt(4, 0),
            pt(4, 1),
            pt(3, 1),
        ];
        let hull = convex_hull(&pts);
        assert_eq!(hull.len(), 4, "{hull:?}");
        for corner in [pt(0, 0), pt(4, 0), pt(4, 1), pt(0, 1)] {
            assert!(hull.contains(&corner), "{hull:?}");
        }
        assert!(point_in_polygon(pt(2, 0), &hull));
        assert_eq!(convex_hull(&[pt(1, 1), pt(1, 1)]), vec![pt(1, 1)]);
    }
}
