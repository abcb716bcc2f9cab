//! Issue 21's speed targets for footprints, at the geometry level: one pair's edge-to-edge
//! distance and front-arc test (target ≤ 100 ns each), against the same for two points
//! (the native baseline: `open::distance`, `open::arc`), and the all-pairs pass a
//! sighting or threat update makes with 100 footprinted units a side — each unit placed
//! once, then distance and both arcs for every unit against every enemy (target ≤ 1 ms).
//! The whole-game version, with sight lines through terrain, is in the workspace's
//! `benches/kernel.rs` (`footprints:` groups).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grognard_kernel::geometry::ArcSpec;
use grognard_kernel::geometry::footprint::{Footprint, Placed};
use grognard_kernel::geometry::open::{self, Angle, Len, Point};

fn benches(c: &mut Criterion) {
    // A battalion of four 40 × 20 mm bases in line: 6.299" × 0.787".
    let f = Footprint {
        width: Len(6_299),
        depth: Len(787),
    };
    let (pa, pb) = (
        Point::new(Len(12_000), Len(30_000)),
        Point::new(Len(31_500), Len(9_250)),
    );
    let (ta, tb) = (Angle(2_655), Angle(1_137));
    let (a, b) = (f.place(pa, ta), f.place(pb, tb));
    let spec = ArcSpec::new(45, 45);
    let mut g = c.benchmark_group("footprints: one pair");
    g.bench_function("native: distance between two points", |x| {
        x.iter(|| black_box(open::distance(black_box(pa), black_box(pb))));
    });
    g.bench_function("edge-to-edge distance between two footprints", |x| {
        x.iter(|| black_box(black_box(&a).distance(black_box(&b))));
    });
    g.bench_function("native: arc of a point from a point", |x| {
        x.iter(|| black_box(open::arc(black_box(pa), ta, black_box(pb), spec)));
    });
    g.bench_function("front arc judged from the edges", |x| {
        x.iter(|| black_box(black_box(&a).arc(ta, black_box(&b), spec)));
    });
    g.bench_function("placing a footprint (its four corners)", |x| {
        x.iter(|| black_box(f.place(black_box(pa), black_box(ta))));
    });
    g.finish();

    // 100 units a side, two lines of battalions facing each other across 40".
    let units = |y0: i64, facing: Angle| -> Vec<(Point, Angle)> {
        (0..100_i64)
            .map(|k| {
                let at = Point::new(Len(5_000 + (k % 14) * 8_000), Len(y0 + (k / 14) * 2_000));
                (at, facing)
            })
            .collect()
    };
    let (ours, theirs) = (units(44_000, Angle::NORTH), units(4_000, Angle::SOUTH));
    let mut g = c.benchmark_group("footprints: 100 units a side, every unit against every enemy");
    g.throughput(Throughput::Elements((ours.len() * theirs.len()) as u64));
    let range = Len(36_000);
    g.bench_function("native: points, distance + both arcs", |x| {
        x.iter(|| {
            let mut near = 0u32;
            for (p, tp) in &ours {
                for (q, tq) in &theirs {
                    if open::within(*p, *q, range) {
                        near += 1;
                        black_box((open::arc(*p, *tp, *q, spec), open::arc(*q, *tq, *p, spec)));
                    }
                }
            }
            black_box(near)
        });
    });
    g.bench_function(
        "footprints: place each once, then distance + both arcs",
        |x| {
            x.iter(|| {
                let placed = |u: &[(Point, Angle)]| -> Vec<(Placed, Angle)> {
                    u.iter().map(|(p, t)| (f.place(*p, *t), *t)).collect()
                };
                let (mine, enemy) = (placed(&ours), placed(&theirs));
                let mut near = 0u32;
                for (p, tp) in &mine {
                    for (q, tq) in &enemy {
                        if p.within(q, range) {
                            near += 1;
                            black_box((p.arc(*tp, q, spec), q.arc(*tq, p, spec)));
                        }
                    }
                }
                black_box(near)
            });
        },
    );
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = footprint;
    config = config();
    targets = benches
}
criterion_main!(footprint);
