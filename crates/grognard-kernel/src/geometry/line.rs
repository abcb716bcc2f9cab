//! Centre-to-centre lines of sight on square and hex grids.
//!
//! A line of sight is drawn "from the center of their stand ... to the center of the target
//! stand" (004, firing overview), and it is blocked by what it passes through. These
//! tracers list what a straight segment between two cell centres passes through, in order
//! from `from` to `to`, both ends included. Where the segment runs exactly along the
//! boundary between two cells, the entry is [`LineCell::Between`] with the two cells in
//! `Cell` order (smaller first); whether such a line is blocked by one side, both sides or
//! neither is the ruleset's call.
//!
//! Both tracers use integers only, so a line and its reverse are mirror images entry for
//! entry: `line(a, b)` reversed is `line(b, a)`.
//!
//! Lines longer than [`MAX_STEPS`] (beyond the supported coordinate range) are not traced:
//! they come back as just their two end cells, so no input can ask for a giant allocation.

use super::{Cell, LineCell, hex};

/// The longest line traced, in crossings (square) or hex steps: enough for any two cells
/// with `|col|, |row| <= 1_000_000`.
pub const MAX_STEPS: u64 = 4_000_000;

impl LineCell {
    /// The one or two cells of this entry.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::{Cell, LineCell};
    /// let e = LineCell::Between(Cell::new(1, 0), Cell::new(0, 1));
    /// assert_eq!(e.cells().collect::<Vec<_>>(), [Cell::new(1, 0), Cell::new(0, 1)]);
    /// assert_eq!(LineCell::One(Cell::new(2, 2)).cells().count(), 1);
    /// ```
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        match self {
            Self::One(c) => [Some(c), None],
            Self::Between(a, b) => [Some(a), Some(b)],
        }
        .into_iter()
        .flatten()
    }

    /// Whether `c` is this entry's cell or one of its two cells.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::{Cell, LineCell};
    /// let e = LineCell::Between(Cell::new(1, 0), Cell::new(0, 1));
    /// assert!(e.touches(Cell::new(0, 1)));
    /// assert!(!e.touches(Cell::new(1, 1)));
    /// ```
    #[must_use]
    pub fn touches(self, c: Cell) -> bool {
        match self {
            Self::One(x) => x == c,
            Self::Between(a, b) => a == c || b == c,
        }
    }

    /// A `Between` entry with its cells in canonical (ascending) order.
    fn between(a: Cell, b: Cell) -> Self {
        if a <= b {
            Self::Between(a, b)
        } else {
            Self::Between(b, a)
        }
    }
}

/// Where a line would be too long to trace: just the end cells.
fn ends_only(from: Cell, to: Cell) -> Vec<LineCell> {
    if from == to {
        vec![LineCell::One(from)]
    } else {
        vec![LineCell::One(from), LineCell::One(to)]
    }
}

/// The hexes a straight line from the centre of `from` to the centre of `to` passes
/// through: exactly `distance + 1` entries.
///
/// The line is sampled at `distance + 1` evenly spaced points (the cube-coordinate lerp),
/// scaled by the distance `N` so that every sample is an integer. Each sample lies in one
/// hex, or exactly on the edge between two adjacent hexes: the latter happens when the
/// line runs along a hex spine (for example due 30° from a centre) and is reported as
/// [`LineCell::Between`]. A sample can never be a hex corner: one cube coordinate of the
/// step (the one of largest size, `N`) is whole at every sample, and a corner has no
/// whole coordinate.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{line::hex_line, Cell, LineCell::{Between, One}};
/// // Three hexes east: four entries.
/// assert_eq!(hex_line(Cell::new(0, 0), Cell::new(3, 0)).len(), 4);
/// // Due south from (1,0) to (1,2) the line runs along the edge between (0,1) and (1,1).
/// assert_eq!(
///     hex_line(Cell::new(1, 0), Cell::new(1, 2)),
///     [One(Cell::new(1, 0)), Between(Cell::new(0, 1), Cell::new(1, 1)), One(Cell::new(1, 2))]
/// );
/// ```
#[must_use]
pub fn hex_line(from: Cell, to: Cell) -> Vec<LineCell> {
    let (qa, ra) = hex::axial_wide(from);
    let (qb, rb) = hex::axial_wide(to);
    let a = [
        i128::from(qa),
        i128::from(ra),
        -i128::from(qa) - i128::from(ra),
    ];
    let b = [
        i128::from(qb),
        i128::from(rb),
        -i128::from(qb) - i128::from(rb),
    ];
    let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let n = d[0].abs().max(d[1].abs()).max(d[2].abs());
    if n == 0 {
        return vec![LineCell::One(from)];
    }
    if n.unsigned_abs() > u128::from(MAX_STEPS) {
        return ends_only(from, to);
    }
    // The axis of largest step is whole at every sample; `u` is rounded and `w` follows
    // from q + r + s = 0.
    let major = if d[0].abs() == n {
        0
    } else if d[1].abs() == n {
        1
    } else {
        2
    };
    let u = (major + 1) % 3;
    let w = (major + 2) % 3;
    let cell = |major_value: i128, u_value: i128| {
        let mut cube = [0_i128; 3];
        cube[major] = major_value;
        cube[u] = u_value;
        cube[w] = -major_value - u_value;
        // Inside MAX_STEPS of two i32 cells, every value fits an i64.
        hex::cell_from_wide(saturate(cube[0]), saturate(cube[1]))
    };
    let mut out = Vec::with_capacity(usize::try_from(n + 1).unwrap_or(0));
    let mut i = 0;
    while i <= n {
        let major_value = (a[major] * n + d[major] * i) / n;
        let scaled = a[u] * n + d[u] * i;
        let (floor, rest) = (scaled.div_euclid(n), scaled.rem_euclid(n));
        let entry = if 2 * rest == n {
            LineCell::between(cell(major_value, floor), cell(major_value, floor + 1))
        } else {
            let rounded = if 2 * rest > n { floor + 1 } else { floor };
            LineCell::One(cell(major_value, rounded))
        };
        out.push(entry);
        i += 1;
    }
    out
}

fn saturate(v: i128) -> i64 {
    i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
}

/// The squares a straight line from the centre of `from` to the centre of `to` passes
/// through.
///
/// Squares are unit cells centred on their coordinates; the line passes through a square
/// when it crosses its interior. Where the line goes exactly through a corner, it passes
/// from one square to the diagonally opposite one and only touches the other two at that
/// point: those two are reported as [`LineCell::Between`], between the two squares the
/// line passes through. A line along a 45° diagonal thus alternates squares and corners.
/// A centre-to-centre line never runs along a side of a square (centres are whole, sides
/// half-way between), so corners are the only boundary case. The line has
/// `|dcol| + |drow| + 1` entries.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{line::square_line, Cell, LineCell::{Between, One}};
/// assert_eq!(
///     square_line(Cell::new(0, 0), Cell::new(1, 1)),
///     [One(Cell::new(0, 0)), Between(Cell::new(0, 1), Cell::new(1, 0)), One(Cell::new(1, 1))]
/// );
/// // A knight's move crosses two sides, no corner.
/// assert_eq!(
///     square_line(Cell::new(0, 0), Cell::new(2, 1)),
///     [One(Cell::new(0, 0)), One(Cell::new(1, 0)), One(Cell::new(1, 1)), One(Cell::new(2, 1))]
/// );
/// ```
#[must_use]
pub fn square_line(from: Cell, to: Cell) -> Vec<LineCell> {
    let dx = i64::from(to.col) - i64::from(from.col);
    let dy = i64::from(to.row) - i64::from(from.row);
    let (nx, ny) = (dx.abs(), dy.abs());
    if nx.unsigned_abs() + ny.unsigned_abs() > MAX_STEPS {
        return ends_only(from, to);
    }
    let (sx, sy) = (dx.signum() as i32, dy.signum() as i32);
    let mut cur = from;
    let mut out = Vec::with_capacity(usize::try_from(nx + ny + 1).unwrap_or(0));
    out.push(LineCell::One(cur));
    // The line crosses the k-th vertical side at t = (2k + 1) / (2 nx) and the k-th
    // horizontal side at t = (2k + 1) / (2 ny); compare them cross-multiplied.
    let (mut ix, mut iy) = (0_i64, 0_i64);
    while ix < nx || iy < ny {
        let order = if ix == nx {
            core::cmp::Ordering::Greater
        } else if iy == ny {
            core::cmp::Ordering::Less
        } else {
            ((2 * ix + 1) * ny).cmp(&((2 * iy + 1) * nx))
        };
        // Every cell visited lies between `from` and `to`, so these additions stay in range.
        match order {
            core::cmp::Ordering::Less => {
                cur.col = cur.col.saturating_add(sx);
                ix += 1;
            }
            core::cmp::Ordering::Greater => {
                cur.row = cur.row.saturating_add(sy);
                iy += 1;
            }
            core::cmp::Ordering::Equal => {
                let side_x = Cell::new(cur.col.saturating_add(sx), cur.row);
                let side_y = Cell::new(cur.col, cur.row.saturating_add(sy));
                out.push(LineCell::between(side_x, side_y));
                cur = Cell::new(side_x.col, side_y.row);
                ix += 1;
                iy += 1;
            }
        }
        out.push(LineCell::One(cur));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use LineCell::{Between, One};

    fn c(col: i32, row: i32) -> Cell {
        Cell::new(col, row)
    }

    #[test]
    fn a_line_to_yourself_is_one_cell() {
        assert_eq!(hex_line(c(3, 3), c(3, 3)), [One(c(3, 3))]);
        assert_eq!(square_line(c(3, 3), c(3, 3)), [One(c(3, 3))]);
    }

    #[test]
    fn hex_line_along_a_row() {
        assert_eq!(
            hex_line(c(0, 1), c(3, 1)),
            [One(c(0, 1)), One(c(1, 1)), One(c(2, 1)), One(c(3, 1))]
        );
    }

    #[test]
    fn hex_line_along_a_spine_runs_between_hexes() {
        // Due 30° south of east: axial (2, 2) is offset (3, 2); the line follows the edges
        // between E/SE neighbours at every other sample.
        assert_eq!(
            hex_line(c(0, 0), c(3, 2)),
            [
                One(c(0, 0)),
                Between(c(0, 1), c(1, 0)),
                One(c(1, 1)),
                Between(c(2, 1), c(2, 2)),
                One(c(3, 2)),
            ]
        );
        // Straight south (90°): between the SW and SE neighbours.
        assert_eq!(
            hex_line(c(1, 0), c(1, 2)),
            [One(c(1, 0)), Between(c(0, 1), c(1, 1)), One(c(1, 2))]
        );
    }

    #[test]
    fn hex_line_reverses_exactly() {
        let a = c(-2, 3);
        let b = c(4, -5);
        let mut back = hex_line(b, a);
        back.reverse();
        assert_eq!(hex_line(a, b), back);
    }

    #[test]
    fn hex_line_off_axis() {
        // Axial (3, 1) from the origin: four samples apart, one midway tie at (1.5, .5).
        let to = hex::Axial::new(3, 1).to_cell();
        let got = hex_line(c(0, 0), to);
        assert_eq!(got.len(), 5);
        assert_eq!(
            got[2],
            Between(
                hex::Axial::new(1, 1).to_cell(),
                hex::Axial::new(2, 0).to_cell()
            )
        );
    }

    #[test]
    fn square_lines_straight_and_diagonal() {
        assert_eq!(
            square_line(c(0, 0), c(0, -2)),
            [One(c(0, 0)), One(c(0, -1)), One(c(0, -2))]
        );
        assert_eq!(
            square_line(c(2, 0), c(0, 2)),
            [
                One(c(2, 0)),
                Between(c(1, 0), c(2, 1)),
                One(c(1, 1)),
                Between(c(0, 1), c(1, 2)),
                One(c(0, 2)),
            ]
        );
    }

    #[test]
    fn square_line_through_a_corner_off_the_diagonal() {
        // (0,0) → (3,1) crosses x = 0.5, x = 1.5 (through the corner at y = 0.5), x = 2.5.
        assert_eq!(
            square_line(c(0, 0), c(3, 1)),
            [
                One(c(0, 0)),
                One(c(1, 0)),
                Between(c(1, 1), c(2, 0)),
                One(c(2, 1)),
                One(c(3, 1)),
            ]
        );
    }

    #[test]
    fn huge_lines_are_not_traced() {
        let a = c(i32::MIN, i32::MIN);
        let b = c(i32::MAX, i32::MAX);
        assert_eq!(square_line(a, b), [One(a), One(b)]);
        assert_eq!(hex_line(a, b), [One(a), One(b)]);
    }
}
