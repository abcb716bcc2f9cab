//! The grid a game is played on: square (eight directions) or hex (six), with the step
//! costs its ruleset gives.
//!
//! Everything a rule needs from a grid goes through [`Grid`]: neighbours, step costs,
//! facing arcs, the front zone of control and line of sight. The per-geometry details live
//! in [`square`] and [`hex`].
//!
//! # Arcs
//!
//! Let θ be the angle between a piece's facing and the bearing from its cell's centre to
//! the target cell's centre (`0° ..= 180°`). The target is
//!
//! - [`Arc::Front`] when `θ <= front_half_angle`,
//! - [`Arc::Rear`] when `180° - θ <= rear_half_angle`,
//! - [`Arc::Flank`] otherwise, and [`Arc::Same`] for the piece's own cell.
//!
//! Both bounds are inclusive, and front wins when a spec makes the arcs overlap. The test
//! is exact wherever a cell can lie exactly on an arc edge (edges at multiples of 45° on
//! a square grid and of 30° on a hex grid): see [`square::arc`] and [`hex::arc`].

use serde::{Deserialize, Serialize};

use super::{Arc, ArcSpec, Cell, Facing, LineCell, hex, line, square};
use crate::Cost;

/// A square grid's step costs, from the ruleset.
///
/// # Example
/// ```
/// use grognard_kernel::{geometry::SquareGrid, Cost};
/// // 000 rule 7: 1 mp orthogonally, 1½ mp diagonally.
/// let blocks = SquareGrid::new(Cost::ONE, Cost::ONE + Cost::HALF);
/// assert_eq!(blocks.diagonal, Cost::from_hundredths(150));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SquareGrid {
    /// Cost of a step east, south, west or north.
    pub orthogonal: Cost,
    /// Cost of a diagonal step.
    pub diagonal: Cost,
}

impl SquareGrid {
    /// A square grid with these step costs.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::SquareGrid, Cost};
    /// assert_eq!(SquareGrid::new(Cost::ONE, Cost::ONE).orthogonal, Cost::ONE);
    /// ```
    #[must_use]
    pub const fn new(orthogonal: Cost, diagonal: Cost) -> Self {
        Self {
            orthogonal,
            diagonal,
        }
    }
}

/// A hex grid's step cost, from the ruleset.
///
/// # Example
/// ```
/// use grognard_kernel::{geometry::HexGrid, Cost};
/// assert_eq!(HexGrid::new(Cost::ONE).step, Cost::ONE);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HexGrid {
    /// Cost of a step to any neighbour.
    pub step: Cost,
}

impl HexGrid {
    /// A hex grid with this step cost.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::HexGrid, Cost};
    /// assert_eq!(HexGrid::new(Cost::HALF).step, Cost::HALF);
    /// ```
    #[must_use]
    pub const fn new(step: Cost) -> Self {
        Self { step }
    }
}

/// The grid a game is played on.
///
/// Facing arguments are taken modulo [`Grid::facings`], so a bad facing from a ruleset or
/// a script never panics.
///
/// # Example
/// ```
/// use grognard_kernel::{geometry::{Cell, Grid, SquareGrid}, Cost};
/// let grid = Grid::Square(SquareGrid::new(Cost::ONE, Cost::ONE + Cost::HALF));
/// assert_eq!(grid.facings(), 8);
/// assert_eq!(grid.distance(Cell::new(0, 0), Cell::new(2, 3)), 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grid {
    /// Squares with diagonal moves.
    Square(SquareGrid),
    /// Pointy-top hexes, odd rows shoved east.
    Hex(HexGrid),
}

impl Grid {
    /// The name of a direction on this grid (`N`, `SE`...), as scenario and orders files
    /// write it; `?` for an index the grid does not have.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::geometry::{Facing, Grid, HexGrid};
    /// use grognard_kernel::Cost;
    /// assert_eq!(Grid::Hex(HexGrid::new(Cost::ONE)).facing_name(Facing(3)), "W");
    /// ```
    #[must_use]
    pub const fn facing_name(&self, facing: Facing) -> &'static str {
        const SQUARE: [&str; 8] = ["E", "SE", "S", "SW", "W", "NW", "N", "NE"];
        const HEX: [&str; 6] = ["E", "SE", "SW", "W", "NW", "NE"];
        let i = facing.0 as usize;
        match self {
            Self::Square(_) if i < SQUARE.len() => SQUARE[i],
            Self::Hex(_) if i < HEX.len() => HEX[i],
            _ => "?",
        }
    }

    /// Number of directions: 8 on squares, 6 on hexes.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::{Grid, HexGrid}, Cost};
    /// assert_eq!(Grid::Hex(HexGrid::new(Cost::ONE)).facings(), 6);
    /// ```
    #[must_use]
    pub const fn facings(&self) -> u8 {
        match self {
            Self::Square(_) => square::COUNT,
            Self::Hex(_) => hex::COUNT,
        }
    }

    /// Every neighbour of `c` with the direction to it, in direction order (clockwise from
    /// east). Does not allocate.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::{hex, Cell, Grid, HexGrid}, Cost};
    /// let grid = Grid::Hex(HexGrid::new(Cost::ONE));
    /// let mut it = grid.neighbours(Cell::new(0, 0));
    /// assert_eq!(it.next(), Some((hex::Dir::E, Cell::new(1, 0))));
    /// assert_eq!(it.count(), 5);
    /// ```
    pub fn neighbours(&self, c: Cell) -> impl Iterator<Item = (Facing, Cell)> + '_ {
        let count = usize::from(self.facings());
        let mut all = [(Facing(0), c); 8];
        for (i, slot) in all.iter_mut().enumerate().take(count) {
            // `i < 8`, so the cast is lossless.
            let dir = Facing(i as u8);
            *slot = (dir, self.neighbour(c, dir));
        }
        all.into_iter().take(count)
    }

    /// The cell one step from `c` in `dir`.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::{square, Cell, Grid, SquareGrid}, Cost};
    /// let grid = Grid::Square(SquareGrid::new(Cost::ONE, Cost::ONE));
    /// assert_eq!(grid.neighbour(Cell::new(1, 1), square::Dir::NW), Cell::new(0, 0));
    /// ```
    #[must_use]
    pub const fn neighbour(&self, c: Cell, dir: Facing) -> Cell {
        match self {
            Self::Square(_) => square::neighbour(c, dir),
            Self::Hex(_) => hex::neighbour(c, dir),
        }
    }

    /// What one step in `dir` costs before terrain: orthogonal or diagonal on squares, the
    /// one step cost on hexes.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::{square, Grid, SquareGrid}, Cost};
    /// // 000 rule 7: diagonal square-to-square movement costs 1½ mp.
    /// let grid = Grid::Square(SquareGrid::new(Cost::ONE, Cost::ONE + Cost::HALF));
    /// assert_eq!(grid.step_cost(square::Dir::NE), Cost::from_hundredths(150));
    /// assert_eq!(grid.step_cost(square::Dir::N), Cost::ONE);
    /// ```
    #[must_use]
    pub const fn step_cost(&self, dir: Facing) -> Cost {
        match self {
            Self::Square(g) => {
                if square::is_diagonal(dir) {
                    g.diagonal
                } else {
                    g.orthogonal
                }
            }
            Self::Hex(g) => g.step,
        }
    }

    /// The direction from `from` to `to` when they are neighbours, else `None` (also for
    /// the same cell).
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::{hex, Cell, Grid, HexGrid}, Cost};
    /// let grid = Grid::Hex(HexGrid::new(Cost::ONE));
    /// assert_eq!(grid.direction_to(Cell::new(0, 1), Cell::new(1, 2)), Some(hex::Dir::SE));
    /// assert_eq!(grid.direction_to(Cell::new(0, 1), Cell::new(0, 3)), None);
    /// ```
    #[must_use]
    pub const fn direction_to(&self, from: Cell, to: Cell) -> Option<Facing> {
        match self {
            Self::Square(_) => square::direction_to(from, to),
            Self::Hex(_) => hex::direction_to(from, to),
        }
    }

    /// Steps between two cells (king moves on squares).
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::{Cell, Grid, HexGrid}, Cost};
    /// let grid = Grid::Hex(HexGrid::new(Cost::ONE));
    /// assert_eq!(grid.distance(Cell::new(0, 0), Cell::new(2, 2)), 3);
    /// ```
    #[must_use]
    pub const fn distance(&self, a: Cell, b: Cell) -> u32 {
        match self {
            Self::Square(_) => square::distance(a, b),
            Self::Hex(_) => hex::distance(a, b),
        }
    }

    /// The centre of `c` for drawing (cells 1.0 wide, the centre of `(0, 0)` at the
    /// origin). Never used by rules.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::{Cell, Grid, HexGrid}, Cost};
    /// let grid = Grid::Hex(HexGrid::new(Cost::ONE));
    /// assert_eq!(grid.center(Cell::new(0, 1)).0, 0.5);
    /// ```
    #[must_use]
    pub fn center(&self, c: Cell) -> (f64, f64) {
        match self {
            Self::Square(_) => square::center(c),
            Self::Hex(_) => hex::center(c),
        }
    }

    /// The front zone of control of a piece on `c` facing `facing`: the cell ahead and its
    /// two neighbours in the facing ring, in the order `facing - 1`, `facing`,
    /// `facing + 1`. On hexes these are the three front hexes (004: the frontal zone of
    /// control); on squares the square ahead and the two diagonals beside it (or, facing a
    /// diagonal, the diagonal and the two orthogonals beside it).
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::{hex, Cell, Grid, HexGrid}, Cost};
    /// let grid = Grid::Hex(HexGrid::new(Cost::ONE));
    /// assert_eq!(
    ///     grid.front_cells(Cell::new(2, 2), hex::Dir::E),
    ///     [Cell::new(2, 1), Cell::new(3, 2), Cell::new(2, 3)]
    /// );
    /// ```
    #[must_use]
    pub const fn front_cells(&self, c: Cell, facing: Facing) -> [Cell; 3] {
        let n = self.facings();
        [
            self.neighbour(c, facing.rotate(-1, n)),
            self.neighbour(c, facing.normalised(n)),
            self.neighbour(c, facing.rotate(1, n)),
        ]
    }

    /// Where `to` lies relative to a piece on `from` facing `facing` (see the module docs
    /// for the definition).
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::{hex, Arc, Cell, Grid, HexGrid}, Cost};
    /// let grid = Grid::Hex(HexGrid::new(Cost::ONE));
    /// let spec = grid.default_arcs();
    /// let at = Cell::new(3, 3);
    /// assert_eq!(grid.arc(at, hex::Dir::E, Cell::new(6, 3), spec), Arc::Front);
    /// assert_eq!(grid.arc(at, hex::Dir::E, Cell::new(1, 3), spec), Arc::Rear);
    /// assert_eq!(grid.arc(at, hex::Dir::E, Cell::new(3, 1), spec), Arc::Flank);
    /// ```
    #[must_use]
    pub fn arc(&self, from: Cell, facing: Facing, to: Cell, spec: ArcSpec) -> Arc {
        match self {
            Self::Square(_) => square::arc(from, facing, to, spec),
            Self::Hex(_) => hex::arc(from, facing, to, spec),
        }
    }

    /// The centre-to-centre line of sight from `from` to `to`, both ends included (see
    /// [`line`](mod@line) for how boundaries are reported).
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::{Cell, Grid, LineCell, SquareGrid}, Cost};
    /// let grid = Grid::Square(SquareGrid::new(Cost::ONE, Cost::ONE + Cost::HALF));
    /// let line = grid.line(Cell::new(0, 0), Cell::new(0, 2));
    /// assert_eq!(line[1], LineCell::One(Cell::new(0, 1)));
    /// ```
    #[must_use]
    pub fn line(&self, from: Cell, to: Cell) -> Vec<LineCell> {
        match self {
            Self::Square(_) => line::square_line(from, to),
            Self::Hex(_) => line::hex_line(from, to),
        }
    }

    /// The usual arcs of this grid when a ruleset gives none.
    ///
    /// - Square: front 45°, rear 45°: of the eight neighbours, the three ahead are front,
    ///   the two abeam flank and the three behind rear.
    /// - Hex: front 60°, rear 30°: the three front hexes are front, the two at ±120° flank,
    ///   and only the hex straight behind (Hex Command's centre rear hex) is rear.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{geometry::{ArcSpec, Grid, HexGrid}, Cost};
    /// assert_eq!(Grid::Hex(HexGrid::new(Cost::ONE)).default_arcs(), ArcSpec::new(60, 30));
    /// ```
    #[must_use]
    pub const fn default_arcs(&self) -> ArcSpec {
        match self {
            Self::Square(_) => ArcSpec::new(45, 45),
            Self::Hex(_) => ArcSpec::new(60, 30),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks() -> Grid {
        // 000 rule 7: 1 mp vertical or horizontal, 1½ mp diagonal.
        Grid::Square(SquareGrid::new(Cost::ONE, Cost::ONE + Cost::HALF))
    }

    fn hexes() -> Grid {
        Grid::Hex(HexGrid::new(Cost::ONE))
    }

    #[test]
    fn a_square_diagonal_step_costs_one_and_a_half() {
        // 000 rule 7: orthogonal 1 mp, diagonal 1½ mp.
        let grid = blocks();
        let costs: Vec<i32> = square::Dir::ALL
            .into_iter()
            .map(|d| grid.step_cost(d).hundredths())
            .collect();
        assert_eq!(costs, [100, 150, 100, 150, 100, 150, 100, 150]);
        // Two diagonal steps (3 mp) reach (2, 2); four orthogonal ones would cost 4 mp.
        let path = [square::Dir::SE, square::Dir::SE];
        let total = path
            .iter()
            .fold(Cost::ZERO, |sum, &d| sum + grid.step_cost(d));
        assert_eq!(total, Cost::whole(3));
    }

    #[test]
    fn every_hex_step_costs_the_same() {
        let grid = Grid::Hex(HexGrid::new(Cost::HALF));
        for d in hex::Dir::ALL {
            assert_eq!(grid.step_cost(d), Cost::HALF);
        }
    }

    #[test]
    fn neighbours_come_in_direction_order() {
        let got: Vec<_> = blocks().neighbours(Cell::new(0, 0)).collect();
        assert_eq!(got.len(), 8);
        assert_eq!(got[0], (square::Dir::E, Cell::new(1, 0)));
        assert_eq!(got[7], (square::Dir::NE, Cell::new(1, -1)));
        let got: Vec<_> = hexes()
            .neighbours(Cell::new(1, 1))
            .map(|(_, c)| c)
            .collect();
        assert_eq!(
            got,
            [
                Cell::new(2, 1),
                Cell::new(2, 2),
                Cell::new(1, 2),
                Cell::new(0, 1),
                Cell::new(1, 0),
                Cell::new(2, 0)
            ]
        );
        for grid in [blocks(), hexes()] {
            for (dir, n) in grid.neighbours(Cell::new(5, 5)) {
                assert_eq!(grid.direction_to(Cell::new(5, 5), n), Some(dir));
                assert_eq!(grid.distance(Cell::new(5, 5), n), 1);
            }
        }
    }

    #[test]
    fn hex_front_cells_for_every_facing() {
        // 004 §7.2.3: the frontal zone of control is the three hexes ahead. From the even
        // row hex (2, 2):
        let grid = hexes();
        let c = Cell::new(2, 2);
        let e = Cell::new(3, 2);
        let se = Cell::new(2, 3);
        let sw = Cell::new(1, 3);
        let w = Cell::new(1, 2);
        let nw = Cell::new(1, 1);
        let ne = Cell::new(2, 1);
        assert_eq!(grid.front_cells(c, hex::Dir::E), [ne, e, se]);
        assert_eq!(grid.front_cells(c, hex::Dir::SE), [e, se, sw]);
        assert_eq!(grid.front_cells(c, hex::Dir::SW), [se, sw, w]);
        assert_eq!(grid.front_cells(c, hex::Dir::W), [sw, w, nw]);
        assert_eq!(grid.front_cells(c, hex::Dir::NW), [w, nw, ne]);
        assert_eq!(grid.front_cells(c, hex::Dir::NE), [nw, ne, e]);
        // Every front cell is in the front arc of the default spec.
        for f in hex::Dir::ALL {
            for cell in grid.front_cells(c, f) {
                assert_eq!(grid.arc(c, f, cell, grid.default_arcs()), Arc::Front);
            }
        }
    }

    #[test]
    fn square_front_cells() {
        let grid = blocks();
        let c = Cell::new(0, 0);
        assert_eq!(
            grid.front_cells(c, square::Dir::N),
            [Cell::new(-1, -1), Cell::new(0, -1), Cell::new(1, -1)]
        );
        assert_eq!(
            grid.front_cells(c, square::Dir::NE),
            [Cell::new(0, -1), Cell::new(1, -1), Cell::new(1, 0)]
        );
        // A facing out of range is taken modulo 8.
        assert_eq!(
            grid.front_cells(c, Facing(14)),
            grid.front_cells(c, square::Dir::N)
        );
    }

    #[test]
    fn default_arcs_classify_every_neighbour() {
        // Hex: three front, two flank, the centre rear hex alone is rear (004).
        let grid = hexes();
        for c in [Cell::new(3, 4), Cell::new(3, 5)] {
            for facing in hex::Dir::ALL {
                let classes: Vec<Arc> = grid
                    .neighbours(c)
                    .map(|(_, n)| grid.arc(c, facing, n, grid.default_arcs()))
                    .collect();
                let front = classes.iter().filter(|&&a| a == Arc::Front).count();
                let flank = classes.iter().filter(|&&a| a == Arc::Flank).count();
                let rear = classes.iter().filter(|&&a| a == Arc::Rear).count();
                assert_eq!((front, flank, rear), (3, 2, 1));
                let behind = grid.neighbour(c, facing.opposite(6));
                assert_eq!(grid.arc(c, facing, behind, grid.default_arcs()), Arc::Rear);
            }
        }
        // Square: three front, two flank, three rear.
        let grid = blocks();
        let c = Cell::new(0, 0);
        for facing in square::Dir::ALL {
            let classes: Vec<Arc> = grid
                .neighbours(c)
                .map(|(_, n)| grid.arc(c, facing, n, grid.default_arcs()))
                .collect();
            let count = |a: Arc| classes.iter().filter(|&&x| x == a).count();
            assert_eq!(
                (count(Arc::Front), count(Arc::Flank), count(Arc::Rear)),
                (3, 2, 3)
            );
        }
    }

    #[test]
    fn lines_dispatch_by_grid() {
        let a = Cell::new(0, 0);
        let b = Cell::new(4, 0);
        assert_eq!(blocks().line(a, b).len(), 5);
        assert_eq!(hexes().line(a, b).len(), 5);
        assert_eq!(hexes().line(a, Cell::new(2, 4)).len(), 5);
    }

    #[test]
    fn grids_round_trip_through_serde() {
        let grid = blocks();
        let json = serde_json::to_string(&grid).unwrap();
        assert_eq!(json, r#"{"square":{"orthogonal":100,"diagonal":150}}"#);
        assert_eq!(serde_json::from_str::<Grid>(&json).unwrap(), grid);
    }
}
