//! The same movement decision — "mud: every step costs ½ more per level of rain, except a
//! road column on a road" — made three ways: by the data alone (no hook: the baseline),
//! by a native Rust hook, and by the ruleset's Lua hook (`scripts/weather.lua`). Measured
//! per call and inside a full reach query on a 100 × 100 board.
//!
//! Run: `cargo bench --bench hooks`. Results and ratios: `docs/benchmarks.md`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use grognard_kernel::Cost;
use grognard_kernel::game::{Game, World};
use grognard_kernel::geometry::Cell;
use grognard_kernel::hooks::{HookFailure, Hooks, NoHooks};
use grognard_kernel::ids::PieceId;
use grognard_lua::sandbox::Sandbox;
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::{Ruleset, load_ruleset, scenario_from_text};

/// The mud rule written in Rust, exactly as `scripts/weather.lua` has it.
struct NativeMud;

impl Hooks for NativeMud {
    fn move_cost(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        _from: Cell,
        _to: Cell,
        data: Option<Cost>,
    ) -> Result<Option<Cost>, HookFailure> {
        let Some(cost) = data else { return Ok(None) };
        let rain = world.state.settings.first().copied().unwrap_or(0);
        if rain <= 0 {
            return Ok(Some(cost));
        }
        let road = world
            .state
            .pieces
            .get(piece.index())
            .is_some_and(|p| world.rules.mode_name(p.mode) == "road");
        if road && world.state.options.first().copied().unwrap_or(false) {
            return Ok(Some(cost));
        }
        Ok(Some(cost + Cost::from_hundredths(50 * rain)))
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A 100 × 100 board, one woods square in five (a fixed pattern), a road down column 50.
fn scenario_text(rain: i32) -> String {
    let mut map = String::new();
    for r in 0..100u32 {
        for c in 0..100u32 {
            let h = (c.wrapping_mul(2_654_435_761) ^ r.wrapping_mul(40_503)) % 5;
            map.push(if h == 0 { 'W' } else { '.' });
        }
        map.push('\n');
    }
    let road: Vec<String> = (0..100).map(|r| format!("[50, {r}]")).collect();
    let indented: String = map.lines().map(|l| format!("    {l}\n")).collect();
    format!(
        "scenario: bench\nruleset: bench-square\nsettings: {{ rain: {rain} }}\nboard:\n  cols: 100\n  rows: 100\n  legend: {{ \".\": clear, W: medium_woods }}\n  map: |\n{indented}  features:\n    - feature: road\n      path: [{}]\nsides: {{ blue: {{}}, red: {{}} }}\npieces:\n  - {{ id: marcher, side: blue, type: infantry, at: [49, 50] }}\n  - {{ id: foe, side: red, type: infantry, at: [0, 0] }}\n",
        road.join(", ")
    )
}

fn game(r: &Ruleset, rain: i32) -> Game {
    let s =
        scenario_from_text("bench.yaml", &scenario_text(rain), r).unwrap_or_else(|d| panic!("{d}"));
    s.start(None, &[], &mut NoHooks)
        .unwrap_or_else(|d| panic!("{d}"))
}

fn benches(c: &mut Criterion) {
    let ruleset = load_ruleset(&root().join("benches/fixtures/bench-square.yaml"))
        .unwrap_or_else(|d| panic!("{d}"));
    let wet = game(&ruleset, 1);
    let marcher = wet
        .piece_by_name("marcher")
        .map(|p| p.id)
        .unwrap_or_default();
    let world = wet.world();
    let steps: Vec<(Cell, Cell)> = (0..64)
        .map(|i| {
            (
                Cell::new(10 + i % 8, 10 + i / 8),
                Cell::new(11 + i % 8, 10 + i / 8),
            )
        })
        .collect();

    let mut per_call = c.benchmark_group("move_cost per call");
    per_call.bench_function("data (no hook)", |b| {
        let mut h = NoHooks;
        b.iter(|| {
            for (from, to) in &steps {
                black_box(
                    h.move_cost(&world, marcher, *from, *to, Some(Cost::ONE))
                        .ok(),
                );
            }
        });
    });
    per_call.bench_function("native Rust hook", |b| {
        let mut h = NativeMud;
        b.iter(|| {
            for (from, to) in &steps {
                black_box(
                    h.move_cost(&world, marcher, *from, *to, Some(Cost::ONE))
                        .ok(),
                );
            }
        });
    });
    per_call.bench_function("Lua hook (cached, as the engine runs it)", |b| {
        let mut h = LuaHooks::new(&ruleset, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
        b.iter(|| {
            for (from, to) in &steps {
                black_box(
                    h.move_cost(&world, marcher, *from, *to, Some(Cost::ONE))
                        .ok(),
                );
            }
        });
    });
    per_call.bench_function("Lua call (uncached, through the sandbox)", |b| {
        let sandbox = Sandbox::new(Limits::default()).unwrap_or_else(|e| panic!("{e}"));
        let text = std::fs::read_to_string(root().join("scripts/weather.lua")).unwrap_or_default();
        // The pure hook reads `rules.setting`; give it the same answers the host would.
        let prelude = sandbox
            .load_module(
                "bench-prelude",
                "rules = { setting = function(n) return 1 end, option = function(n) return true end }\nreturn {}",
            )
            .unwrap_or_else(|e| panic!("{e}"));
        black_box(prelude);
        let module = sandbox.load_module("scripts/weather.lua", &text).unwrap_or_else(|e| panic!("{e}"));
        let f = sandbox.function(&module, "move_cost").unwrap_or_else(|e| panic!("{e}"));
        b.iter(|| {
            for _ in &steps {
                let v: Option<f64> = sandbox
                    .call(&f, "bench", ("infantry", "strategic", "clear", 1.0, false))
                    .unwrap_or(None);
                black_box(v);
            }
        });
    });
    per_call.finish();

    // The same question answered three ways must get the same answer.
    let data_rules = load_ruleset(&root().join("benches/fixtures/bench-square-data.yaml"))
        .unwrap_or_else(|d| panic!("{d}"));
    let data_game = game(&data_rules, 1);
    let mut lua = LuaHooks::new(&ruleset, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let by_data = data_game.reach(marcher, &mut NoHooks).ok();
    let by_native = wet.reach(marcher, &mut NativeMud).ok();
    let by_lua = wet.reach(marcher, &mut lua).ok();
    assert_eq!(by_data, by_native, "data and native hook disagree");
    assert_eq!(by_data, by_lua, "data and Lua hook disagree");

    let mut reach = c.benchmark_group("reach on 100x100, allowance 40");
    reach.sample_size(20);
    reach.bench_function("data (no hook)", |b| {
        let mut h = NoHooks;
        b.iter(|| black_box(data_game.reach(marcher, &mut h).ok()));
    });
    reach.bench_function("native Rust hook", |b| {
        let mut h = NativeMud;
        b.iter(|| black_box(wet.reach(marcher, &mut h).ok()));
    });
    reach.bench_function("Lua hook", |b| {
        b.iter(|| black_box(wet.reach(marcher, &mut lua).ok()));
    });
    reach.finish();
}

criterion_group!(hooks, benches);
criterion_main!(hooks);
