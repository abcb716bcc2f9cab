//! Scenario files → the kernel's [`Setup`].

use std::collections::BTreeMap;

use grognard_kernel::board::{
    Area, Board, Edge, HalfHexes, Region, RegionArea, SideDef, Surface, link_key,
};
use grognard_kernel::game::{PieceSetup, Setup};
use grognard_kernel::geometry::open::{Angle, Len, Point};
use grognard_kernel::geometry::{Cell, Facing, Grid, HexGrid, SquareGrid};
use grognard_kernel::ids::{PieceTypeId, SideId, TerrainId};
use grognard_kernel::piece::Place;
use grognard_kernel::rules::{GeometryRules, Rules};

use crate::cx::Cx;
use crate::de::Located;
use crate::diag::{Diagnostics, Location};
use crate::model::{Baseline, BoardSpec, PieceSpec, RegionSpec, ScenarioSpec, Text};
use crate::names::{NameTable, ScenarioNames, kind};
use crate::number::parse_len;

/// Largest grid side accepted (a 1000 × 1000 board is a million cells).
pub const MAX_GRID_SIDE: i32 = 1000;

/// Direction names of square grids, by facing index.
pub const SQUARE_FACINGS: [&str; 8] = ["E", "SE", "S", "SW", "W", "NW", "N", "NE"];
/// Direction names of hex grids, by facing index.
pub const HEX_FACINGS: [&str; 6] = ["E", "SE", "SW", "W", "NW", "NE"];

/// The grid a ruleset's geometry uses, if it has one.
#[must_use]
pub fn grid_of(rules: &Rules) -> Option<Grid> {
    match rules.geometry {
        GeometryRules::Square {
            orthogonal,
            diagonal,
        } => Some(Grid::Square(SquareGrid {
            orthogonal,
            diagonal,
        })),
        GeometryRules::Hex { step } => Some(Grid::Hex(HexGrid { step })),
        GeometryRules::Open { .. } => None,
    }
}

/// Reads a grid facing: a direction name (`N`, `SE`) or its number.
pub fn parse_facing(grid: &Grid, text: &str) -> Result<Facing, String> {
    let names: &[&str] = match grid {
        Grid::Square(_) => &SQUARE_FACINGS,
        Grid::Hex(_) => &HEX_FACINGS,
    };
    let t = text.trim();
    if let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(t)) {
        return Ok(Facing(i as u8));
    }
    match t.parse::<u8>() {
        Ok(n) if usize::from(n) < names.len() => Ok(Facing(n)),
        _ => Err(format!(
            "unknown facing `{t}`; expected one of {} or 0..{}",
            names.join(", "),
            names.len() - 1
        )),
    }
}

/// Reads an open-table angle in degrees (0 = east, clockwise).
pub fn parse_angle(text: &str) -> Result<Angle, String> {
    let t = text.trim().trim_end_matches('°');
    match t.parse::<f64>() {
        Ok(d) if d.is_finite() && d.abs() <= 3600.0 => Ok(Angle::new((d * 10.0).round() as i32)),
        _ => Err(format!(
            "`{t}`: expected an angle in degrees (0 = east, 90 = south)"
        )),
    }
}

fn inches(v: f64) -> Option<Len> {
    (v.is_finite() && v.abs() <= 100_000.0).then(|| Len((v * 1000.0).round() as i64))
}

fn cell_of(v: [f64; 2]) -> Option<Cell> {
    let ok = |x: f64| x.fract() == 0.0 && x.abs() <= f64::from(MAX_GRID_SIDE) * 2.0;
    (ok(v[0]) && ok(v[1])).then(|| Cell::new(v[0] as i32, v[1] as i32))
}

/// A compiled scenario: the kernel setup plus what the file called things.
#[derive(Clone, Debug)]
pub struct CompiledScenario {
    /// The setup.
    pub setup: Setup,
    /// Where each piece was written, by piece index.
    pub piece_locations: Vec<Location>,
}

/// Compiles a scenario against its ruleset. `options` and `seed` override the file.
///
/// # Errors
/// Every unknown name and misplaced value, each with its location.
pub fn compile_scenario(
    spec: &ScenarioSpec,
    rules: &Rules,
) -> Result<CompiledScenario, Diagnostics> {
    let mut cx = Cx::new();
    let root = spec.scenario.location.clone();
    let sides_named = ScenarioNames {
        sides: spec.sides.names().collect(),
        regions: Vec::new(),
    };
    let names = NameTable::of_rules(rules, sides_named);
    let board = compile_board(&mut cx, spec, rules, &names, &root);
    let names = names.with_regions(board.regions.iter().map(|r| r.name.as_str()).collect());
    let sides = compile_sides(&mut cx, spec, &root);
    let deploying: Vec<bool> = spec
        .sides
        .names()
        .map(|n| spec.deployment.get(n).is_some())
        .collect();
    let (pieces, piece_locations) = compile_pieces(&mut cx, spec, rules, &names, &deploying);
    let deployment = compile_deployment(&mut cx, spec, &board, &names, &pieces, &piece_locations);
    let (options, settings) = compile_choices(&mut cx, spec, rules, &names);
    let victory =
        (spec.victory.as_ref()).map(|v| crate::victory::compile_victory(&mut cx, v, &names));
    if let Some(t) = spec
        .turns
        .as_ref()
        .filter(|t| !(1..=10_000).contains(&t.value))
    {
        cx.error(
            &t.location,
            format!(
                "`turns` must be a whole number of turns from 1 to 10000 (found {})",
                t.value
            ),
        );
    }
    cx.diags.into_result(())?;
    Ok(CompiledScenario {
        setup: Setup {
            board,
            sides,
            pieces,
            seed: spec.seed,
            turns: spec.turns.as_ref().map(|t| t.value),
            options,
            settings,
            victory,
            deployment,
        },
        piece_locations,
    })
}

/// The board: its surface (a grid with the map's terrain, or an open table with its
/// areas), the features on cell boundaries, and the named regions.
fn compile_board(
    cx: &mut Cx,
    spec: &ScenarioSpec,
    rules: &Rules,
    names: &NameTable,
    root: &Location,
) -> Board {
    let b = &spec.board;
    let grid = grid_of(rules);
    let surface = match &grid {
        Some(grid) => grid_surface(cx, b, *grid, names, root),
        None => open_surface(cx, b, names, root),
    };
    let mut board = Board {
        surface,
        links: BTreeMap::new(),
        regions: Vec::new(),
    };
    add_features(cx, b, names, grid.as_ref(), &mut board);
    let open = board.grid().is_none();
    board.regions = b
        .regions
        .iter()
        .filter_map(|r| compile_region(cx, &board, open, &r.name, &r.value))
        .collect();
    board
}

/// One region: cells on a grid, each on the board; an area on an open table, a polygon of
/// at least 3 corners or a circle of a positive radius. A region of the other kind is
/// refused with the kind this board takes.
fn compile_region(
    cx: &mut Cx,
    board: &Board,
    open: bool,
    name: &Located<String>,
    spec: &RegionSpec,
) -> Option<Region> {
    let at = &name.location;
    let n = &name.value;
    match (spec, open) {
        (RegionSpec::Cells(cells), false) => {
            let mut ok = true;
            for c in cells {
                if !board.contains(Cell::new(c[0], c[1])) {
                    cx.error(
                        at,
                        format!("region `{n}`: ({},{}) is off the board", c[0], c[1]),
                    );
                    ok = false;
                }
            }
            ok.then(|| Region {
                name: n.clone(),
                cells: cells.iter().map(|c| Cell::new(c[0], c[1])).collect(),
                area: None,
            })
        }
        (RegionSpec::Cells(cells), true) if cells.is_empty() => {
            cx.error(
                at,
                format!("region `{n}`: an open table's regions are areas: give `corners:` (in inches) or `centre:` and `radius:`"),
            );
            None
        }
        (RegionSpec::Cells(_), true) => {
            cx.error(
                at,
                format!("region `{n}`: this board is an open table, whose regions are areas, not cells: give `corners: [[x, y], ...]` or `centre: [x, y]` and `radius:` in inches"),
            );
            None
        }
        (RegionSpec::Area(_), false) => {
            cx.error(
                at,
                format!("region `{n}`: this board is a grid, whose regions are lists of cells (`[[col, row], ...]`), not areas"),
            );
            None
        }
        (RegionSpec::Area(a), true) => {
            let point = |c: &[f64; 2]| {
                Some(Point {
                    x: inches(c[0])?,
                    y: inches(c[1])?,
                })
            };
            let off = |cx: &mut Cx, p: Point| {
                if board.contains_point(p) {
                    false
                } else {
                    cx.error(at, format!("region `{n}`: {p} is off the table"));
                    true
                }
            };
            let area = match (a.corners.is_empty(), a.centre, a.radius) {
                (false, None, None) => {
                    let corners: Option<Vec<Point>> = a.corners.iter().map(point).collect();
                    match corners {
                        Some(c) if c.len() >= 3 => {
                            // Every corner off the table is named, not just the first.
                            let mut off_table = false;
                            for p in &c {
                                off_table |= off(cx, *p);
                            }
                            if off_table {
                                return None;
                            }
                            RegionArea::Polygon(c)
                        }
                        _ => {
                            cx.error(
                                at,
                                format!("region `{n}` needs at least 3 corners in inches"),
                            );
                            return None;
                        }
                    }
                }
                (true, Some(c), Some(r)) => {
                    let (Some(centre), Some(radius)) = (point(&c), inches(r)) else {
                        cx.error(
                            at,
                            format!("region `{n}`: its centre and radius must be inches"),
                        );
                        return None;
                    };
                    if radius.0 <= 0 {
                        cx.error(at, format!("region `{n}`: the radius must be more than 0"));
                        return None;
                    }
                    if off(cx, centre) {
                        return None;
                    }
                    RegionArea::Circle { centre, radius }
                }
                _ => {
                    cx.error(
                        at,
                        format!("region `{n}`: give either `corners:` (at least 3) or `centre:` and `radius:`"),
                    );
                    return None;
                }
            };
            Some(Region {
                name: n.clone(),
                cells: Vec::new(),
                area: Some(area),
            })
        }
    }
}

/// A grid board: its size, the terrain of each cell from the `map` and the painted
/// `terrain:` lists (the first terrain elsewhere), and its half-hexes.
fn grid_surface(
    cx: &mut Cx,
    b: &BoardSpec,
    grid: Grid,
    names: &NameTable,
    root: &Location,
) -> Surface {
    let side = |v: &Option<Located<i32>>| v.as_ref().map_or(0, |v| v.value);
    let (cols, rows) = (side(&b.cols), side(&b.rows));
    if !(1..=MAX_GRID_SIDE).contains(&cols) || !(1..=MAX_GRID_SIDE).contains(&rows) {
        // At the first bad one written, else at the scenario's top when one is missing.
        let bad = [&b.cols, &b.rows]
            .into_iter()
            .flatten()
            .find(|v| !(1..=MAX_GRID_SIDE).contains(&v.value));
        cx.error(
            bad.map_or(root, |v| &v.location),
            format!(
                "the board needs `cols` and `rows`, each a whole number from 1 to {MAX_GRID_SIDE} (found {cols} × {rows})"
            ),
        );
    }
    let (cols, rows) = (cols.clamp(1, MAX_GRID_SIDE), rows.clamp(1, MAX_GRID_SIDE));
    let mut terrain = vec![TerrainId(0); (cols * rows) as usize];
    if let Some(map) = &b.map {
        paint_map(cx, b, map, cols, names, &mut terrain);
    }
    for paint in b.terrain.iter() {
        let Some(t) = names.id(cx, kind::Terrain, &paint.name) else {
            continue;
        };
        for at in &paint.value {
            let c = Cell::new(at.value[0], at.value[1]);
            if c.col < 0 || c.row < 0 || c.col >= cols || c.row >= rows {
                cx.error(
                    &at.location,
                    format!("{c} is off the board ({cols} columns × {rows} rows, counted from 0)"),
                );
            } else {
                terrain[(c.row * cols + c.col) as usize] = t;
            }
        }
    }
    if (b.half_hexes.sides || b.half_hexes.baselines) && !matches!(grid, Grid::Hex(_)) {
        cx.error(root, "`half_hexes` only apply to hex boards");
    }
    Surface::Grid {
        grid,
        cols,
        rows,
        terrain,
        halves: HalfHexes {
            sides: b.half_hexes.sides,
            baselines: b.half_hexes.baselines,
        },
    }
}

/// The `map`'s rows of symbols into `terrain` (`cols` cells a row). Each legend entry's
/// terrain is looked up once, the first time a cell uses it, so a bad name in the legend
/// is one problem however many cells show its symbol.
fn paint_map(
    cx: &mut Cx,
    b: &BoardSpec,
    map: &Located<String>,
    cols: i32,
    names: &NameTable,
    terrain: &mut [TerrainId],
) {
    let rows = terrain.len() / cols as usize;
    let lines: Vec<&str> = map
        .value
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.len() != rows {
        cx.error(
            &map.location,
            format!("the map has {} rows; the board has {rows}", lines.len()),
        );
    }
    // Legend symbol → its terrain (`None` once reported unknown).
    let mut legend: BTreeMap<&str, Option<TerrainId>> = BTreeMap::new();
    for (r, line) in lines.iter().enumerate().take(rows) {
        let symbols: Vec<&str> = if line.contains(char::is_whitespace) {
            line.split_whitespace().collect()
        } else {
            line.char_indices()
                .map(|(i, ch)| &line[i..i + ch.len_utf8()])
                .collect()
        };
        if symbols.len() != cols as usize {
            cx.error(
                &map.location,
                format!(
                    "map row {r} has {} symbols; the board has {cols} columns",
                    symbols.len()
                ),
            );
        }
        for (c, sym) in symbols.iter().enumerate().take(cols as usize) {
            let Some((key, name)) = b.legend.get_key_value(*sym) else {
                cx.error(
                    &map.location,
                    format!("map row {r}, column {c}: symbol `{sym}` is not in the `legend`"),
                );
                continue;
            };
            let id = *legend
                .entry(key.as_str())
                .or_insert_with(|| names.id(cx, kind::Terrain, name));
            if let Some(t) = id {
                terrain[r * cols as usize + c] = t;
            }
        }
    }
}

/// An open table: its size in inches and its terrain areas.
fn open_surface(cx: &mut Cx, b: &BoardSpec, names: &NameTable, root: &Location) -> Surface {
    let mut len = |v: &Option<Located<Text>>, what: &str| -> Len {
        match v {
            Some(l) => match parse_len(&l.value) {
                Ok(x) if x > 0 => Len(x),
                Ok(_) => {
                    cx.error(&l.location, format!("the table {what} must be more than 0"));
                    Len(1000)
                }
                Err(e) => {
                    cx.error(&l.location, e);
                    Len(1000)
                }
            },
            None => {
                cx.error(
                    root,
                    format!("an open table needs `board.{what}` in inches (e.g. `72\"`)"),
                );
                Len(1000)
            }
        }
    };
    let width = len(&b.width, "width");
    let height = len(&b.height, "height");
    let areas = b
        .areas
        .iter()
        .filter_map(|a| {
            let terrain = names.id(cx, kind::Terrain, &a.terrain)?;
            let corners: Option<Vec<Point>> = a
                .corners
                .iter()
                .map(|c| {
                    Some(Point {
                        x: inches(c[0])?,
                        y: inches(c[1])?,
                    })
                })
                .collect();
            match corners {
                Some(c) if c.len() >= 3 => Some(Area {
                    name: a.name.clone(),
                    terrain,
                    corners: c,
                }),
                _ => {
                    cx.error(
                        &a.terrain.location,
                        format!("area `{}` needs at least 3 corners in inches", a.name),
                    );
                    None
                }
            }
        })
        .collect();
    Surface::Open {
        width,
        height,
        areas,
    }
}

/// The boundary features (`features:` lines, by `path` or `between` pairs of neighbouring
/// cells) into the board's links.
fn add_features(
    cx: &mut Cx,
    b: &BoardSpec,
    names: &NameTable,
    grid: Option<&Grid>,
    board: &mut Board,
) {
    for line in &b.features {
        let Some(f) = names.id(cx, kind::Feature, &line.feature) else {
            continue;
        };
        let Some(grid) = grid else {
            cx.error(
                &line.feature.location,
                "boundary features need a grid board",
            );
            continue;
        };
        let mut pairs: Vec<(Cell, Cell, &Location)> = line
            .path
            .windows(2)
            .map(|w| {
                (
                    Cell::new(w[0].value[0], w[0].value[1]),
                    Cell::new(w[1].value[0], w[1].value[1]),
                    &w[1].location,
                )
            })
            .collect();
        pairs.extend(line.between.iter().map(|p| {
            (
                Cell::new(p.value[0][0], p.value[0][1]),
                Cell::new(p.value[1][0], p.value[1][1]),
                &p.location,
            )
        }));
        if line.path.len() == 1 {
            cx.error(
                &line.feature.location,
                "a feature `path` needs at least two cells",
            );
        }
        for (a, c, at) in pairs {
            if !board.contains(a) || !board.contains(c) {
                cx.error(at, format!("{a}–{c} is off the board"));
            } else if grid.direction_to(a, c).is_none() {
                cx.error(at, format!("{a} and {c} are not neighbours"));
            } else {
                let e = board.links.entry(link_key(a, c)).or_default();
                if !e.contains(&f) {
                    e.push(f);
                }
            }
        }
    }
}

/// The sides, in turn order, with their baselines.
fn compile_sides(cx: &mut Cx, spec: &ScenarioSpec, root: &Location) -> Vec<SideDef> {
    if spec.sides.len() < 2 {
        cx.error(root, "a scenario needs at least two `sides:`");
    }
    let sides: Vec<SideDef> = spec
        .sides
        .iter()
        .map(|s| SideDef {
            name: s.name.value.clone(),
            baseline: s.value.baseline.as_ref().map(|bl| match bl.value {
                Baseline::North => Edge::North,
                Baseline::South => Edge::South,
                Baseline::East => Edge::East,
                Baseline::West => Edge::West,
            }),
        })
        .collect();
    sides
}

/// The pieces: each one's side, type, place (checked against the grid), facing, mode,
/// counters, flags, attachment and attributes, with where it was written.
fn compile_pieces(
    cx: &mut Cx,
    spec: &ScenarioSpec,
    rules: &Rules,
    names: &NameTable,
    deploying: &[bool],
) -> (Vec<PieceSetup>, Vec<Location>) {
    let grid = grid_of(rules);
    let ids: Vec<&str> = spec.pieces.iter().map(|p| p.id.value.as_str()).collect();

    let mut pieces = Vec::with_capacity(spec.pieces.len());
    let mut piece_locations = Vec::with_capacity(spec.pieces.len());
    for (i, p) in spec.pieces.iter().enumerate() {
        if p.id.value.trim().is_empty() {
            cx.error(&p.id.location, "every piece needs an `id`");
        } else if ids[..i].contains(&p.id.value.as_str()) {
            cx.error(
                &p.id.location,
                format!("piece id `{}` is used twice", p.id.value),
            );
        }
        let side = names.id(cx, kind::Side, &p.side).unwrap_or(SideId(0));
        let piece_type = names
            .id(cx, kind::PieceType, &p.kind)
            .unwrap_or(PieceTypeId(0));
        // A piece of a side that deploys, given no place, is placed in the set-up.
        let deploy = deploying.get(side.index()).copied().unwrap_or(false)
            && p.at.is_none()
            && p.spread.is_empty()
            && !p.off_board;
        let (place, facing) = piece_place(cx, p, grid.as_ref(), deploy);
        let mode = p.mode.as_ref().and_then(|m| names.id(cx, kind::Mode, m));
        let counters = p
            .counters
            .iter()
            .filter_map(|c| names.id(cx, kind::Counter, &c.name).map(|i| (i, c.value)))
            .collect();
        let attributes = p
            .attributes
            .iter()
            .filter_map(|a| {
                names
                    .index(cx, kind::PieceAttribute, &a.name)
                    .map(|i| (i, a.value))
            })
            .collect();
        let flags = names.ids(cx, kind::Flag, &p.flags);
        let attached_to = p
            .attached_to
            .as_ref()
            .and_then(|a| cx.lookup("piece id", a, ids.iter().copied()));
        // A footprint of its own, overriding its type's (open tables).
        let footprint = p.footprint.as_ref().map(|f| {
            let (open, scale) = match &rules.geometry {
                grognard_kernel::rules::GeometryRules::Open { scale } => (true, *scale),
                _ => (false, grognard_kernel::geometry::open::Scale::IDENTITY),
            };
            let owner = format!("piece `{}`", p.id.value);
            crate::compile::footprints(cx, Some(f), &owner, names, open, scale)
        });
        pieces.push(PieceSetup {
            footprint,
            name: p.id.value.clone(),
            side,
            kind: piece_type,
            place,
            facing,
            mode,
            counters,
            flags,
            attached_to,
            attributes,
            deploy,
        });
        piece_locations.push(p.id.location.clone());
    }
    (pieces, piece_locations)
}

/// Where a piece starts, and its grid facing (an open-table piece's angle is in its place).
fn piece_place(cx: &mut Cx, p: &PieceSpec, grid: Option<&Grid>, deploy: bool) -> (Place, Facing) {
    let place = match (grid, &p.at, p.spread.is_empty()) {
        _ if deploy => Place::Off,
        (Some(_), None, true) if p.off_board => Place::Off,
        (_, _, _) if p.off_board => {
            cx.error(
                &p.id.location,
                format!(
                    "piece `{}` starts off the board: give it no `at` or `spread` (and only on a grid)",
                    p.id.value
                ),
            );
            Place::Off
        }
        (Some(_), Some(at), true) => match cell_of(at.value) {
            Some(c) => Place::Cell(c),
            None => {
                cx.error(
                    &at.location,
                    "a grid place is `[column, row]` in whole numbers",
                );
                Place::Off
            }
        },
        (Some(_), None, false) => Place::Spread(
            p.spread
                .iter()
                .map(|c| Cell::new(c.value[0], c.value[1]))
                .collect(),
        ),
        (None, Some(at), true) => match (inches(at.value[0]), inches(at.value[1])) {
            (Some(x), Some(y)) => Place::Point {
                at: Point { x, y },
                facing: Angle(0),
            },
            _ => {
                cx.error(&at.location, "an open-table place is `[x, y]` in inches");
                Place::Off
            }
        },
        (None, None, true) => {
            cx.error(
                &p.id.location,
                format!("piece `{}` needs `at: [x, y]` in inches", p.id.value),
            );
            Place::Off
        }
        _ => {
            cx.error(
                &p.id.location,
                format!(
                    "piece `{}` needs exactly one of `at` or `spread` (spread only on grids)",
                    p.id.value
                ),
            );
            Place::Off
        }
    };
    let mut facing = Facing(0);
    let mut place = place;
    if let Some(f) = &p.facing {
        match (grid, &mut place) {
            (Some(g), _) => match parse_facing(g, &f.value) {
                Ok(x) => facing = x,
                Err(e) => cx.error(&f.location, e),
            },
            (None, Place::Point { facing: angle, .. }) => match parse_angle(&f.value) {
                Ok(a) => *angle = a,
                Err(e) => cx.error(&f.location, e),
            },
            _ => {}
        }
    }
    (place, facing)
}

/// Each side's deployment cells (empty for a side without a set-up), from the regions its
/// `deployment:` names. The sides' areas may not overlap, no piece placed by the files may
/// stand in another side's area, and a piece a side's own order of battle places must
/// stand in that side's areas.
fn compile_deployment(
    cx: &mut Cx,
    spec: &ScenarioSpec,
    board: &Board,
    names: &NameTable,
    pieces: &[PieceSetup],
    locations: &[Location],
) -> Vec<Vec<Cell>> {
    if spec.deployment.is_empty() {
        return Vec::new();
    }
    let side_names: Vec<&str> = spec.sides.names().collect();
    let mut cells: Vec<Vec<Cell>> = vec![Vec::new(); side_names.len()];
    let mut owner: std::collections::HashMap<Cell, usize> = std::collections::HashMap::new();
    for d in spec.deployment.iter() {
        let Some(side) = names.index(cx, kind::Side, &d.name) else {
            continue;
        };
        if board.grid().is_none() {
            cx.error(
                &d.name.location,
                "a set-up needs a grid board: deployment areas are regions of cells",
            );
            continue;
        }
        if d.value.areas.is_empty() {
            cx.error(
                &d.name.location,
                format!(
                    "side `{}` deploys in the set-up but names no `areas` (regions of the board)",
                    d.name.value
                ),
            );
        }
        for area in &d.value.areas {
            let Some(r) = names.index(cx, kind::Region, area) else {
                continue;
            };
            let mut clash: Vec<(Cell, usize)> = Vec::new();
            for &c in board.regions.get(r).map_or(&[][..], |r| r.cells.as_slice()) {
                match owner.get(&c) {
                    Some(&other) if other != side => clash.push((c, other)),
                    _ => {
                        owner.insert(c, side);
                        cells[side].push(c);
                    }
                }
            }
            if let Some(&(first, other)) = clash.first() {
                let more = match clash.len() {
                    1 => String::new(),
                    n => format!(" and {} more cells", n - 1),
                };
                cx.error(
                    &area.location,
                    format!(
                        "`{}` overlaps {}'s deployment areas at {first}{more}; the sides' areas \
                         may not overlap",
                        area.value, side_names[other]
                    ),
                );
            }
        }
    }
    for (p, at) in pieces.iter().zip(locations) {
        let Place::Cell(c) = p.place else { continue };
        let side = p.side.index();
        match owner.get(&c) {
            Some(&area_side) if area_side != side => cx.error(
                at,
                format!(
                    "piece `{}` ({}) stands at {c}, in {}'s deployment areas",
                    p.name,
                    side_names.get(side).copied().unwrap_or("?"),
                    side_names[area_side]
                ),
            ),
            None if at.file.as_ref() != spec.scenario.location.file.as_ref()
                && !cells[side].is_empty() =>
            {
                cx.error(
                    at,
                    format!(
                        "piece `{}` stands at {c}, outside {}'s deployment areas",
                        p.name,
                        side_names.get(side).copied().unwrap_or("?")
                    ),
                );
            }
            _ => {}
        }
    }
    cells
}

/// The optional rules and settings the scenario chooses, over the ruleset's defaults.
fn compile_choices(
    cx: &mut Cx,
    spec: &ScenarioSpec,
    rules: &Rules,
    names: &NameTable,
) -> (Vec<bool>, Vec<i32>) {
    let mut options: Vec<bool> = rules.options.iter().map(|o| o.default).collect();
    for o in spec.options.iter() {
        if let Some(i) = names.index(cx, kind::Optional, &o.name) {
            options[i] = o.value;
        }
    }
    let mut settings: Vec<i32> = rules.settings.iter().map(|s| s.default).collect();
    for s in spec.settings.iter() {
        if let Some(i) = names.index(cx, kind::Setting, &s.name) {
            settings[i] = s.value;
        }
    }
    (options, settings)
}
