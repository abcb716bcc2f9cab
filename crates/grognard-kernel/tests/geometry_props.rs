//! Property tests of the board geometry: metrics, neighbours, coordinate round trips, arc
//! symmetries, lines of sight and open-table measurement.

use grognard_kernel::Cost;
use grognard_kernel::geometry::hex::{self, Axial};
use grognard_kernel::geometry::open::{self, Angle, Len, Point};
use grognard_kernel::geometry::{
    Arc, ArcSpec, Cell, Facing, Grid, HexGrid, LineCell, MAX_COORD, SquareGrid, square,
};
use proptest::prelude::*;

fn hex_grid() -> Grid {
    Grid::Hex(HexGrid::new(Cost::ONE))
}

fn square_grid() -> Grid {
    // 000 rule 7: 1 mp orthogonal, 1½ mp diagonal.
    Grid::Square(SquareGrid::new(Cost::ONE, Cost::ONE + Cost::HALF))
}

/// Any cell in the supported range.
fn cell() -> impl Strategy<Value = Cell> {
    (-MAX_COORD..=MAX_COORD, -MAX_COORD..=MAX_COORD).prop_map(|(c, r)| Cell::new(c, r))
}

/// A cell near the origin, for lines and arcs that should be quick to compute.
fn near_cell() -> impl Strategy<Value = Cell> {
    (-40..=40, -40..=40).prop_map(|(c, r)| Cell::new(c, r))
}

fn any_cell() -> impl Strategy<Value = Cell> {
    (any::<i32>(), any::<i32>()).prop_map(|(c, r)| Cell::new(c, r))
}

fn spec() -> impl Strategy<Value = ArcSpec> {
    // Mostly angles that land on grid directions, sometimes anything.
    let angle = prop_oneof![
        (0_u16..=12).prop_map(|k| k * 15),
        0_u16..=200,
        Just(u16::MAX),
    ];
    (angle.clone(), angle).prop_map(|(f, r)| ArcSpec::new(f, r))
}

fn point() -> impl Strategy<Value = Point> {
    let coord = prop_oneof![-50_000_i64..=50_000, -(1_i64 << 40)..=(1_i64 << 40)];
    (coord.clone(), coord).prop_map(|(x, y)| Point::new(Len(x), Len(y)))
}

/// A point close enough that a move's cost does not saturate (under a million inches).
fn table_point() -> impl Strategy<Value = Point> {
    let coord = prop_oneof![-50_000_i64..=50_000, -1_000_000_000_i64..=1_000_000_000];
    (coord.clone(), coord).prop_map(|(x, y)| Point::new(Len(x), Len(y)))
}

/// Rotates a hex displacement 60° clockwise about `origin`.
fn hex_rotate(origin: Cell, target: Cell) -> Cell {
    let o = Axial::from_cell(origin);
    let t = Axial::from_cell(target);
    let (dq, dr) = (t.q - o.q, t.r - o.r);
    // Cube (q, r, s) → (-r, -s, -q).
    Axial::new(o.q - dr, o.r + dq + dr).to_cell()
}

/// Mirrors a hex across the east-west line through `origin`.
fn hex_mirror(origin: Cell, target: Cell) -> Cell {
    let o = Axial::from_cell(origin);
    let t = Axial::from_cell(target);
    let (dq, dr) = (t.q - o.q, t.r - o.r);
    // Doubled-width (X, Y) → (X, -Y): axial (q, r) → (q + r, -r).
    Axial::new(o.q + dq + dr, o.r - dr).to_cell()
}

fn entry_cells(e: LineCell) -> Vec<Cell> {
    e.cells().collect()
}

proptest! {
    // ---- hex metric and coordinates -------------------------------------------------

    #[test]
    fn hex_distance_is_a_metric(a in cell(), b in cell(), c in cell()) {
        prop_assert_eq!(hex::distance(a, b), hex::distance(b, a));
        prop_assert_eq!(hex::distance(a, b) == 0, a == b);
        prop_assert!(hex::distance(a, c) <= hex::distance(a, b) + hex::distance(b, c));
    }

    #[test]
    fn offset_axial_round_trip(c in cell()) {
        prop_assert_eq!(Axial::from_cell(c).to_cell(), c);
        let a = Axial::from_cell(c);
        prop_assert_eq!(Axial::from_cell(a.to_cell()), a);
        prop_assert_eq!(a.distance(Axial::new(0, 0)), hex::distance(c, Cell::new(0, 0)));
    }

    #[test]
    fn neighbours_are_one_step_and_invert(c in cell()) {
        for grid in [hex_grid(), square_grid()] {
            let mut count = 0;
            for (dir, n) in grid.neighbours(c) {
                count += 1;
                prop_assert_eq!(grid.neighbour(c, dir), n);
                prop_assert_eq!(grid.distance(c, n), 1);
                prop_assert_eq!(grid.direction_to(c, n), Some(dir));
                let back = dir.opposite(grid.facings());
                prop_assert_eq!(grid.neighbour(n, back), c);
            }
            prop_assert_eq!(count, usize::from(grid.facings()));
            prop_assert_eq!(grid.direction_to(c, c), None);
        }
    }

    #[test]
    fn direction_to_is_none_beyond_one_step(a in near_cell(), b in near_cell()) {
        for grid in [hex_grid(), square_grid()] {
            let d = grid.direction_to(a, b);
            prop_assert_eq!(d.is_some(), grid.distance(a, b) == 1);
            if let Some(dir) = d {
                prop_assert_eq!(grid.neighbour(a, dir), b);
            }
        }
    }

    // ---- square metric --------------------------------------------------------------

    #[test]
    fn square_distance_is_chebyshev(a in cell(), b in cell(), c in cell()) {
        let d = square::distance(a, b);
        let dx = (i64::from(a.col) - i64::from(b.col)).unsigned_abs();
        let dy = (i64::from(a.row) - i64::from(b.row)).unsigned_abs();
        prop_assert_eq!(u64::from(d), dx.max(dy));
        prop_assert_eq!(d, square::distance(b, a));
        prop_assert_eq!(d == 0, a == b);
        prop_assert!(square::distance(a, c) <= d + square::distance(b, c));
        // A king needs at least as many steps as the larger difference, at most the sum.
        prop_assert!(u64::from(d) <= dx + dy);
    }

    // ---- facings --------------------------------------------------------------------

    #[test]
    fn rotations_compose(f in 0_u8..8, a in -20_i32..20, b in -20_i32..20) {
        for count in [6_u8, 8] {
            let f = Facing(f).normalised(count);
            prop_assert_eq!(f.rotate(a, count).rotate(b, count), f.rotate(a + b, count));
            prop_assert_eq!(f.opposite(count).opposite(count), f);
            prop_assert_eq!(f.rotate(i32::from(count), count), f);
        }
    }

    // ---- arcs -----------------------------------------------------------------------

    #[test]
    fn hex_arcs_are_invariant_under_a_sixth_turn(
        from in near_cell(), to in near_cell(), f in 0_u8..6, spec in spec()
    ) {
        let grid = hex_grid();
        let class = grid.arc(from, Facing(f), to, spec);
        let turned = grid.arc(from, Facing(f).rotate(1, 6), hex_rotate(from, to), spec);
        prop_assert_eq!(class, turned);
    }

    #[test]
    fn square_arcs_are_invariant_under_a_quarter_turn(
        from in near_cell(), to in near_cell(), f in 0_u8..8, spec in spec()
    ) {
        let grid = square_grid();
        let class = grid.arc(from, Facing(f), to, spec);
        let (dx, dy) = (to.col - from.col, to.row - from.row);
        let turned_to = Cell::new(from.col - dy, from.row + dx);
        prop_assert_eq!(class, grid.arc(from, Facing(f).rotate(2, 8), turned_to, spec));
    }

    #[test]
    fn neighbour_ring_arcs_turn_with_the_facing(
        c in cell(), f in 0_u8..8, d in 0_u8..8, spec in spec()
    ) {
        for grid in [hex_grid(), square_grid()] {
            let n = grid.facings();
            let (f, d) = (Facing(f).normalised(n), Facing(d).normalised(n));
            let class = grid.arc(c, f, grid.neighbour(c, d), spec);
            let turned = grid.arc(c, f.rotate(1, n), grid.neighbour(c, d.rotate(1, n)), spec);
            prop_assert_eq!(class, turned);
        }
    }

    #[test]
    fn arcs_are_mirror_symmetric(
        from in near_cell(), to in near_cell(), f in 0_u8..8, spec in spec()
    ) {
        let grid = hex_grid();
        let hf = Facing(f % 6);
        let mirrored_facing = Facing((6 - hf.0) % 6);
        prop_assert_eq!(
            grid.arc(from, hf, to, spec),
            grid.arc(from, mirrored_facing, hex_mirror(from, to), spec)
        );
        let grid = square_grid();
        let sf = Facing(f);
        let mirrored = Cell::new(to.col, 2 * from.row - to.row);
        prop_assert_eq!(
            grid.arc(from, sf, to, spec),
            grid.arc(from, Facing((8 - f) % 8), mirrored, spec)
        );
    }

    #[test]
    fn default_arcs_are_front_ahead_and_rear_behind(c in cell(), f in 0_u8..8) {
        for grid in [hex_grid(), square_grid()] {
            let n = grid.facings();
            let f = Facing(f).normalised(n);
            let spec = grid.default_arcs();
            prop_assert_eq!(grid.arc(c, f, grid.neighbour(c, f), spec), Arc::Front);
            prop_assert_eq!(grid.arc(c, f, grid.neighbour(c, f.opposite(n)), spec), Arc::Rear);
            prop_assert_eq!(grid.arc(c, f, c, spec), Arc::Same);
            for z in grid.front_cells(c, f) {
                prop_assert_eq!(grid.arc(c, f, z, spec), Arc::Front);
                prop_assert_eq!(grid.distance(c, z), 1);
            }
        }
    }

    #[test]
    fn widening_an_arc_never_loses_a_target(
        from in near_cell(), to in near_cell(), f in 0_u8..6, a in 0_u16..=180
    ) {
        let grid = hex_grid();
        let narrow = grid.arc(from, Facing(f), to, ArcSpec::new(a, 0));
        let wide = grid.arc(from, Facing(f), to, ArcSpec::new(a + 1, 0));
        if narrow == Arc::Front {
            prop_assert_eq!(wide, Arc::Front);
        }
    }

    // ---- lines of sight -------------------------------------------------------------

    #[test]
    fn lines_reverse_exactly(a in near_cell(), b in near_cell()) {
        for grid in [hex_grid(), square_grid()] {
            let mut back = grid.line(b, a);
            back.reverse();
            prop_assert_eq!(grid.line(a, b), back);
        }
    }

    #[test]
    fn lines_start_and_end_at_their_cells(a in near_cell(), b in near_cell()) {
        let hex_line = hex_grid().line(a, b);
        prop_assert_eq!(hex_line.len(), hex::distance(a, b) as usize + 1);
        let square_line = square_grid().line(a, b);
        let (dx, dy) = ((b.col - a.col).unsigned_abs(), (b.row - a.row).unsigned_abs());
        prop_assert_eq!(square_line.len(), (dx + dy) as usize + 1);
        for line in [hex_line, square_line] {
            prop_assert_eq!(line.first(), Some(&LineCell::One(a)));
            prop_assert_eq!(line.last(), Some(&LineCell::One(b)));
        }
    }

    #[test]
    fn consecutive_line_entries_touch(a in near_cell(), b in near_cell()) {
        for grid in [hex_grid(), square_grid()] {
            let line = grid.line(a, b);
            for pair in line.windows(2) {
                for x in entry_cells(pair[0]) {
                    for y in entry_cells(pair[1]) {
                        prop_assert_eq!(grid.distance(x, y), 1, "{:?}", line);
                    }
                }
            }
            for entry in &line {
                if let LineCell::Between(x, y) = *entry {
                    prop_assert!(x < y, "canonical order");
                    prop_assert_eq!(grid.distance(x, y), 1);
                }
            }
            // A boundary entry is never first or last, and never next to another.
            for pair in line.windows(2) {
                let both = matches!(pair, [LineCell::Between(..), LineCell::Between(..)]);
                prop_assert!(!both);
            }
        }
    }

    #[test]
    fn lines_stay_between_their_ends(a in near_cell(), b in near_cell()) {
        for grid in [hex_grid(), square_grid()] {
            let total = grid.distance(a, b);
            for entry in grid.line(a, b) {
                for c in entry.cells() {
                    prop_assert!(grid.distance(a, c) <= total);
                    prop_assert!(grid.distance(c, b) <= total);
                }
            }
        }
    }

    // ---- nothing panics, whatever the input -----------------------------------------

    #[test]
    fn no_panics_on_any_cells(a in any_cell(), b in any_cell(), f in any::<u8>(), spec in spec()) {
        for grid in [hex_grid(), square_grid()] {
            let _ = grid.distance(a, b);
            let _ = grid.neighbour(a, Facing(f));
            let _ = grid.neighbours(a).count();
            let _ = grid.direction_to(a, b);
            let _ = grid.front_cells(a, Facing(f));
            let _ = grid.arc(a, Facing(f), b, spec);
            let _ = grid.step_cost(Facing(f));
            let _ = grid.center(a);
            let line = grid.line(a, b);
            prop_assert!(!line.is_empty());
        }
        let _ = Axial::from_cell(a).to_cell();
        let _ = hex::is_edge_half(a, b.col, b.row, true, true);
    }

    #[test]
    fn no_panics_on_any_points(
        ax in any::<i64>(), ay in any::<i64>(), bx in any::<i64>(), by in any::<i64>(),
        facing in any::<i32>(), r in any::<i64>(), num in any::<u32>(), den in any::<u32>(),
        spec in spec()
    ) {
        let a = Point::new(Len(ax), Len(ay));
        let b = Point::new(Len(bx), Len(by));
        let _ = open::distance(a, b);
        let _ = open::within(a, b, Len(r));
        let _ = open::bearing(a, b);
        let _ = open::arc(a, Angle(facing), b, spec);
        let _ = open::advance(a, Angle(facing), Len(r));
        let _ = open::move_cost(a, b);
        let _ = open::Scale::new(num, den).apply(Len(r));
        let _ = Angle(facing).to_string();
        let _ = Len(r).to_string();
    }

    // ---- open table -----------------------------------------------------------------

    #[test]
    fn within_agrees_with_distance(a in point(), b in point()) {
        // `distance` rounds down: the true distance is in [d, d + 1 thou).
        let d = open::distance(a, b);
        prop_assert!(open::within(a, b, Len(d.0 + 1)));
        if d.0 > 0 {
            prop_assert!(!open::within(a, b, Len(d.0 - 1)));
        }
        let dx = i128::from(b.x.0 - a.x.0);
        let dy = i128::from(b.y.0 - a.y.0);
        let exact = i128::from(d.0) * i128::from(d.0) == dx * dx + dy * dy;
        prop_assert_eq!(open::within(a, b, d), exact);
        prop_assert_eq!(open::distance(a, b), open::distance(b, a));
    }

    #[test]
    fn a_move_never_costs_less_than_its_length(a in table_point(), b in table_point()) {
        let cost = open::move_cost(a, b);
        let d = open::distance(a, b);
        // One hundredth of an inch is 10 thou.
        prop_assert!(i64::from(cost.hundredths()) * 10 >= d.0);
        prop_assert!(i64::from(cost.hundredths()) * 10 <= d.0 + 10);
        prop_assert!(open::within(a, b, Len(i64::from(cost.hundredths()) * 10)));
    }

    #[test]
    fn open_arcs_are_invariant_under_a_quarter_turn(
        a in point(), b in point(), facing in 0_i32..3600, spec in spec()
    ) {
        let class = open::arc(a, Angle(facing), b, spec);
        let (dx, dy) = (b.x.0 - a.x.0, b.y.0 - a.y.0);
        let turned = Point::new(Len(a.x.0 - dy), Len(a.y.0 + dx));
        prop_assert_eq!(class, open::arc(a, Angle(facing).turned(Angle(900)), turned, spec));
    }

    #[test]
    fn open_arcs_are_mirror_symmetric(
        a in point(), b in point(), facing in 0_i32..3600, spec in spec()
    ) {
        let mirrored = Point::new(b.x, Len(2 * a.y.0 - b.y.0));
        prop_assert_eq!(
            open::arc(a, Angle(facing), b, spec),
            open::arc(a, Angle::new(-facing), mirrored, spec)
        );
    }

    #[test]
    fn open_arcs_agree_with_square_arcs_on_grid_points(
        from in near_cell(), to in near_cell(), f in 0_u8..8, spec in spec()
    ) {
        let p = |c: Cell| Point::inches(i64::from(c.col), i64::from(c.row));
        prop_assert_eq!(
            square_grid().arc(from, Facing(f), to, spec),
            open::arc(p(from), Angle(i32::from(f) * 450), p(to), spec)
        );
    }

    #[test]
    fn advancing_goes_the_right_way(a in point(), facing in 0_i32..3600, inches in 10_i64..200) {
        let to = open::advance(a, Angle(facing), Len::inches(inches));
        let d = open::distance(a, to);
        prop_assert!((d.0 - inches * 1000).abs() <= 1);
        let b = open::bearing(a, to).tenths();
        let diff = (b - facing).rem_euclid(3600);
        prop_assert!(diff <= 1 || diff >= 3599, "bearing {} vs facing {}", b, facing);
        prop_assert_eq!(open::arc(a, Angle(facing), to, ArcSpec::new(1, 0)), Arc::Front);
    }
}
