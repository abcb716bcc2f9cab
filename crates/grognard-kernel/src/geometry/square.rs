//! Square grids with diagonal moves: eight directions and king-move (Chebyshev) distance.
//!
//! A block moves from square to square "vertically, horizontally or diagonally" (000 rule 6),
//! so a square has eight neighbours. Directions are numbered clockwise from east:
//!
//! ```text
//!          col-1   col   col+1
//! row-1   NW(5)   N(6)   NE(7)
//! row     W(4)     ·     E(0)
//! row+1   SW(3)   S(2)   SE(1)
//! ```
//!
//! Odd directions are diagonals. What a step costs is the ruleset's business (see
//! [`SquareGrid`](super::SquareGrid)); this module knows only the shape of the grid.

use super::sector::{self, Vector};
use super::{Arc, ArcSpec, Cell, Facing};

/// Number of directions on a square grid.
pub const COUNT: u8 = 8;

/// Named directions of a square grid, clockwise from east.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::square::Dir;
/// assert_eq!(Dir::SE.0, 1);
/// assert_eq!(Dir::ALL.len(), 8);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Dir;

impl Dir {
    /// East: `col + 1`.
    pub const E: Facing = Facing(0);
    /// South-east: `col + 1, row + 1`.
    pub const SE: Facing = Facing(1);
    /// South: `row + 1`.
    pub const S: Facing = Facing(2);
    /// South-west: `col - 1, row + 1`.
    pub const SW: Facing = Facing(3);
    /// West: `col - 1`.
    pub const W: Facing = Facing(4);
    /// North-west: `col - 1, row - 1`.
    pub const NW: Facing = Facing(5);
    /// North: `row - 1`.
    pub const N: Facing = Facing(6);
    /// North-east: `col + 1, row - 1`.
    pub const NE: Facing = Facing(7);
    /// All eight, in direction order.
    pub const ALL: [Facing; 8] = [
        Self::E,
        Self::SE,
        Self::S,
        Self::SW,
        Self::W,
        Self::NW,
        Self::N,
        Self::NE,
    ];
}

const OFFSETS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The `(dcol, drow)` of one step in `dir` (taken modulo 8).
///
/// # Example
/// ```
/// use grognard_kernel::geometry::square::{offset, Dir};
/// assert_eq!(offset(Dir::NE), (1, -1));
/// assert_eq!(offset(Dir::W), (-1, 0));
/// ```
#[must_use]
pub const fn offset(dir: Facing) -> (i32, i32) {
    OFFSETS[(dir.0 % COUNT) as usize]
}

/// Whether `dir` (taken modulo 8) is a diagonal.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::square::{is_diagonal, Dir};
/// assert!(is_diagonal(Dir::SW));
/// assert!(!is_diagonal(Dir::N));
/// ```
#[must_use]
pub const fn is_diagonal(dir: Facing) -> bool {
    dir.0 % 2 == 1
}

/// The cell one step from `c` in `dir` (saturating at the ends of `i32`).
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{square::{neighbour, Dir}, Cell};
/// assert_eq!(neighbour(Cell::new(3, 3), Dir::SW), Cell::new(2, 4));
/// ```
#[must_use]
pub const fn neighbour(c: Cell, dir: Facing) -> Cell {
    let (dc, dr) = offset(dir);
    Cell::new(c.col.saturating_add(dc), c.row.saturating_add(dr))
}

/// The direction of the step from `from` to `to`, if they are neighbours.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{square::{direction_to, Dir}, Cell};
/// assert_eq!(direction_to(Cell::new(0, 0), Cell::new(1, 1)), Some(Dir::SE));
/// assert_eq!(direction_to(Cell::new(0, 0), Cell::new(2, 0)), None);
/// assert_eq!(direction_to(Cell::new(0, 0), Cell::new(0, 0)), None);
/// ```
#[must_use]
pub const fn direction_to(from: Cell, to: Cell) -> Option<Facing> {
    let dc = to.col as i64 - from.col as i64;
    let dr = to.row as i64 - from.row as i64;
    let mut i = 0;
    while i < OFFSETS.len() {
        if OFFSETS[i].0 as i64 == dc && OFFSETS[i].1 as i64 == dr {
            return Some(Facing(i as u8));
        }
        i += 1;
    }
    None
}

/// King-move distance: the number of steps from `a` to `b` when diagonals are allowed
/// (the larger of the column and row differences). Saturates at `u32::MAX`.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{square::distance, Cell};
/// assert_eq!(distance(Cell::new(0, 0), Cell::new(3, -5)), 5);
/// ```
#[must_use]
pub const fn distance(a: Cell, b: Cell) -> u32 {
    let dc = (a.col as i64 - b.col as i64).abs();
    let dr = (a.row as i64 - b.row as i64).abs();
    let d = if dc > dr { dc } else { dr };
    if d > u32::MAX as i64 {
        u32::MAX
    } else {
        d as u32
    }
}

/// Where `to` lies relative to a piece on `from` facing `facing` (see [`Arc`] and
/// [`Grid::arc`](super::Grid::arc) for the definition).
///
/// The bearing of a square is the direction of the integer vector between centres, and
/// arc edges at multiples of 45° are the integer vectors of [`offset`], so a square exactly
/// on an edge is classified exactly. With the default `45/45` spec the three squares ahead
/// are front, the two beside are flank and the three behind are rear.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{square::{arc, Dir}, Arc, ArcSpec, Cell};
/// let spec = ArcSpec::new(45, 45);
/// let at = Cell::new(5, 5);
/// assert_eq!(arc(at, Dir::N, Cell::new(6, 4), spec), Arc::Front);
/// assert_eq!(arc(at, Dir::N, Cell::new(6, 5), spec), Arc::Flank);
/// assert_eq!(arc(at, Dir::N, Cell::new(4, 6), spec), Arc::Rear);
/// ```
#[must_use]
pub fn arc(from: Cell, facing: Facing, to: Cell, spec: ArcSpec) -> Arc {
    let v: Vector = (
        i128::from(to.col) - i128::from(from.col),
        i128::from(to.row) - i128::from(from.row),
    );
    sector::classify(facing.tenths(COUNT), spec, v, boundary)
}

/// Working-plane direction of a bearing in tenths: the plane is the board itself.
fn boundary(tenths: i32) -> Vector {
    if tenths % 450 == 0 {
        let (dc, dr) = offset(Facing((tenths / 450) as u8));
        (i128::from(dc), i128::from(dr))
    } else {
        sector::unit_tenths(tenths)
    }
}

/// The centre of `c` for drawing, with cells 1.0 wide and the centre of `(0, 0)` at the
/// origin. Never used by rules.
///
/// # Example
/// ```
/// use grognard_kernel::geometry::{square::center, Cell};
/// assert_eq!(center(Cell::new(2, -1)), (2.0, -1.0));
/// ```
#[must_use]
pub fn center(c: Cell) -> (f64, f64) {
    (f64::from(c.col), f64::from(c.row))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: ArcSpec = ArcSpec::new(45, 45);

    #[test]
    fn offsets_follow_the_compass() {
        // Row grows south, column grows east.
        assert_eq!(offset(Dir::E), (1, 0));
        assert_eq!(offset(Dir::S), (0, 1));
        assert_eq!(offset(Dir::N), (0, -1));
        assert_eq!(offset(Dir::NW), (-1, -1));
        assert_eq!(offset(Facing(9)), offset(Dir::SE));
    }

    #[test]
    fn diagonals_are_the_odd_directions() {
        // 000 rule 6: moves are vertical, horizontal or diagonal; rule 7 prices the
        // diagonal ones differently, so the grid must tell them apart.
        let diagonals: Vec<_> = Dir::ALL.into_iter().filter(|&d| is_diagonal(d)).collect();
        assert_eq!(diagonals, [Dir::SE, Dir::SW, Dir::NW, Dir::NE]);
    }

    #[test]
    fn a_diagonal_step_is_one_square_away() {
        // 000 rule 6: diagonal moves go square to square, so a diagonal neighbour is at
        // distance 1 like an orthogonal one.
        let c = Cell::new(4, 4);
        for d in Dir::ALL {
            assert_eq!(distance(c, neighbour(c, d)), 1);
            assert_eq!(direction_to(c, neighbour(c, d)), Some(d));
        }
        assert_eq!(distance(c, Cell::new(7, 6)), 3);
    }

    #[test]
    fn distance_saturates_instead_of_overflowing() {
        let a = Cell::new(i32::MIN, 0);
        let b = Cell::new(i32::MAX, 0);
        assert_eq!(distance(a, b), u32::MAX);
        assert_eq!(neighbour(b, Dir::E), b);
    }

    #[test]
    fn default_arcs_split_the_eight_neighbours_three_two_three() {
        // Every facing: the square ahead and the two diagonals beside it are front, the two
        // squares at right angles are flank, the three behind are rear.
        let c = Cell::new(0, 0);
        for facing in Dir::ALL {
            for step in 0..8 {
                let dir = facing.rotate(step, 8);
                let expected = match step {
                    0 | 1 | 7 => Arc::Front,
                    2 | 6 => Arc::Flank,
                    _ => Arc::Rear,
                };
                let got = arc(c, facing, neighbour(c, dir), SPEC);
                assert_eq!(got, expected, "facing {facing:?}, step {step}");
            }
            assert_eq!(arc(c, facing, c, SPEC), Arc::Same);
        }
    }

    #[test]
    fn arc_edges_are_exact_far_away() {
        // (100, -100) is exactly on the 45° edge of a north-facing front arc.
        let c = Cell::new(0, 0);
        assert_eq!(arc(c, Dir::N, Cell::new(100, -100), SPEC), Arc::Front);
        assert_eq!(arc(c, Dir::N, Cell::new(101, -100), SPEC), Arc::Flank);
        assert_eq!(arc(c, Dir::N, Cell::new(-100, 100), SPEC), Arc::Rear);
        assert_eq!(arc(c, Dir::N, Cell::new(-100, 99), SPEC), Arc::Flank);
        // A 90° front arc takes the squares abeam; a zero rear arc takes only the file
        // straight behind.
        let wide = ArcSpec::new(90, 0);
        assert_eq!(arc(c, Dir::N, Cell::new(7, 0), wide), Arc::Front);
        assert_eq!(arc(c, Dir::N, Cell::new(0, 7), wide), Arc::Rear);
        assert_eq!(arc(c, Dir::N, Cell::new(1, 7), wide), Arc::Flank);
    }

    #[test]
    fn non_grid_angles_use_the_table() {
        // A 30° front arc facing east: tan 30° ≈ 0.577, so (100, 57) is in, (100, 58) out.
        let c = Cell::new(0, 0);
        let spec = ArcSpec::new(30, 0);
        assert_eq!(arc(c, Dir::E, Cell::new(100, 57), spec), Arc::Front);
        assert_eq!(arc(c, Dir::E, Cell::new(100, 58), spec), Arc::Flank);
        assert_eq!(arc(c, Dir::E, Cell::new(100, -57), spec), Arc::Front);
        assert_eq!(arc(c, Dir::E, Cell::new(100, -58), spec), Arc::Flank);
    }

    #[test]
    fn wide_and_overlapping_specs() {
        let c = Cell::new(0, 0);
        // Front wins when the arcs overlap.
        let silly = ArcSpec::new(135, 135);
        assert_eq!(arc(c, Dir::E, Cell::new(-1, 1), silly), Arc::Front);
        assert_eq!(arc(c, Dir::E, Cell::new(-1, 0), silly), Arc::Rear);
        // 180° or more covers the whole circle.
        let all = ArcSpec::new(180, 0);
        assert_eq!(arc(c, Dir::E, Cell::new(-5, 0), all), Arc::Front);
        let big = ArcSpec::new(u16::MAX, 0);
        assert_eq!(arc(c, Dir::E, Cell::new(-5, 1), big), Arc::Front);
        // 100° front arc: 135° is outside, 90° inside.
        let broad = ArcSpec::new(100, 0);
        assert_eq!(arc(c, Dir::E, Cell::new(0, 3), broad), Arc::Front);
        assert_eq!(arc(c, Dir::E, Cell::new(-1, 1), broad), Arc::Flank);
        assert_eq!(arc(c, Dir::E, Cell::new(-10, 57), broad), Arc::Front); // ~99.95°
        assert_eq!(arc(c, Dir::E, Cell::new(-10, 56), broad), Arc::Flank); // ~100.1°
    }
}
