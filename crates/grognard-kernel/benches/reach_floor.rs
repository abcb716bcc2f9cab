//! The two reach queries of the root `benches/kernel.rs` (a 100 × 100 square board,
//! allowance 40; a 60 × 40 hex board, allowance 20; one in five cells woods in the same
//! pattern) rebuilt from kernel types alone, so they build and run without the rest of the
//! workspace, each against `pathfinding`'s `dijkstra_reach` stopped at the allowance over the
//! same costs; the cells and costs are asserted equal before anything is timed.
//!
//! Run: `cargo bench -p grognard-kernel --bench reach_floor`.
#[path = "../tests/common/mod.rs"]
#[allow(dead_code, unused_imports)]
mod common;

use std::collections::BTreeMap;
use std::hint::black_box;

use common::{BoardSpec, CLEAR, FOOT, Geo, INFANTRY, Roads, WOODS};
use criterion::{Criterion, criterion_group, criterion_main};
use grognard_kernel::Cost;
use grognard_kernel::board::Surface;
use grognard_kernel::game::{Game, Reach};
use grognard_kernel::geometry::{Cell, Facing};
use grognard_kernel::hooks::NoHooks;
use grognard_kernel::ids::PieceId;
use pathfinding::prelude::dijkstra_reach;
use std::sync::Arc;

fn is_woods(col: i32, row: i32) -> bool {
    ((col as u32).wrapping_mul(2_654_435_761) ^ (row as u32).wrapping_mul(40_503)).is_multiple_of(5)
}

fn make(geo: Geo, cols: i32, rows: i32, start: (i32, i32), budget: i32, woods: Cost) -> Game {
    let mut rules = common::rules(geo);
    rules.piece_types[INFANTRY.index()].allowance[0] = Some(Cost::from_hundredths(budget));
    rules.move_classes[FOOT.index()].enter[WOODS.index()] = Some(woods);
    let spec = BoardSpec {
        roads: Roads::Anywhere,
        geo,
        cols,
        rows,
        terrain: vec![0; (cols * rows) as usize],
        links: vec![255; (cols * rows * 8) as usize],
    };
    let (_, mut setup) = common::scenario(&spec, &[], 1);
    setup.board.links.clear();
    if let Surface::Grid { terrain, .. } = &mut setup.board.surface {
        for r in 0..rows {
            for c in 0..cols {
                terrain[(r * cols + c) as usize] = if is_woods(c, r) { WOODS } else { CLEAR };
            }
        }
    }
    let rules = Arc::new(rules);
    setup.pieces.push(grognard_kernel::game::PieceSetup {
        name: "marcher".into(),
        side: grognard_kernel::ids::SideId(0),
        kind: INFANTRY,
        place: grognard_kernel::piece::Place::Cell(Cell::new(start.0, start.1)),
        facing: Facing(0),
        mode: Some(grognard_kernel::ids::ModeId(0)),
        counters: vec![],
        flags: vec![],
        attached_to: None,
        attributes: vec![],
        deploy: false,
        footprint: None,
    });
    common::start(&rules, &setup)
}

fn ours(g: &Game, start: (i32, i32)) -> BTreeMap<(i32, i32), u32> {
    let Ok(Reach::Cells(cells)) = g.reach(PieceId(0), &mut NoHooks) else {
        panic!("no reach")
    };
    cells
        .iter()
        .map(|r| ((r.cell.col, r.cell.row), r.cost.hundredths() as u32))
        .filter(|(c, _)| *c != start)
        .collect()
}

fn sq_succ(&(c, r): &(i32, i32)) -> impl Iterator<Item = ((i32, i32), u32)> + use<> {
    const STEPS: [(i32, i32, u32); 8] = [
        (1, 0, 100),
        (0, 1, 100),
        (-1, 0, 100),
        (0, -1, 100),
        (1, 1, 150),
        (-1, 1, 150),
        (-1, -1, 150),
        (1, -1, 150),
    ];
    STEPS.into_iter().filter_map(move |(dc, dr, step)| {
        let (nc, nr) = (c + dc, r + dr);
        ((0..100).contains(&nc) && (0..100).contains(&nr))
            .then(|| ((nc, nr), step + if is_woods(nc, nr) { 50 } else { 0 }))
    })
}

fn hex_succ(&(c, r): &(i32, i32)) -> impl Iterator<Item = ((i32, i32), u32)> + use<> {
    (0..6u8).filter_map(move |d| {
        let n = grognard_kernel::geometry::hex::neighbour(Cell::new(c, r), Facing(d));
        ((0..60).contains(&n.col) && (0..40).contains(&n.row)).then(|| {
            (
                (n.col, n.row),
                if is_woods(n.col, n.row) { 200 } else { 100 },
            )
        })
    })
}

fn benches(c: &mut Criterion) {
    let sq = make(Geo::Square, 100, 100, (50, 50), 4000, Cost::HALF);
    let by_us = ours(&sq, (50, 50));
    let by_reach: BTreeMap<(i32, i32), u32> = dijkstra_reach(&(50, 50), sq_succ)
        .take_while(|i| i.total_cost <= 4000)
        .map(|i| (i.node, i.total_cost))
        .filter(|(n, _)| *n != (50, 50))
        .collect();
    assert_eq!(by_us, by_reach);
    println!("square: {} cells", by_us.len());
    let mut g = c.benchmark_group("kreach square");
    g.sample_size(30);
    g.bench_function("ours", |b| {
        b.iter(|| black_box(sq.reach(PieceId(0), &mut NoHooks).ok()))
    });
    g.bench_function("dijkstra_reach", |b| {
        b.iter(|| {
            black_box(
                dijkstra_reach(&(50, 50), sq_succ)
                    .take_while(|i| i.total_cost <= 4000)
                    .count(),
            )
        })
    });
    g.finish();
    let hx = make(Geo::Hex, 60, 40, (30, 20), 2000, Cost::ONE);
    let by_us = ours(&hx, (30, 20));
    let by_reach: BTreeMap<(i32, i32), u32> = dijkstra_reach(&(30, 20), hex_succ)
        .take_while(|i| i.total_cost <= 2000)
        .map(|i| (i.node, i.total_cost))
        .filter(|(n, _)| *n != (30, 20))
        .collect();
    assert_eq!(by_us, by_reach);
    println!("hex: {} cells", by_us.len());
    let mut g = c.benchmark_group("kreach hex");
    g.sample_size(30);
    g.bench_function("ours", |b| {
        b.iter(|| black_box(hx.reach(PieceId(0), &mut NoHooks).ok()))
    });
    g.bench_function("dijkstra_reach", |b| {
        b.iter(|| {
            black_box(
                dijkstra_reach(&(30, 20), hex_succ)
                    .take_while(|i| i.total_cost <= 2000)
                    .count(),
            )
        })
    });
    g.finish();
}

criterion_group!(b, benches);
criterion_main!(b);
