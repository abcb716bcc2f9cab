//! Kernel benchmarks of the performance issue, each against a baseline measured in the same
//! run:
//!
//! - reach of one piece from ruleset data on a 100 × 100 square board against
//!   `pathfinding`'s `dijkstra_all` and budget-bounded `dijkstra_reach` over the same costs,
//!   and on a 60 × 40 hex board against `hexx::algorithms::field_of_movement` (and
//!   `dijkstra_reach`); every baseline is checked to give the same cells (and costs, where
//!   it reports them) before anything is timed; and the square query again with 399 more
//!   pieces on the board, none in reach, against the same query with one piece;
//! - exact odds of a 2d6 chart with modifiers and of a cube band chart;
//! - chart resolutions per second, native, and with the modifiers and row lookup in Lua;
//! - load + merge + validate of every bundled ruleset;
//! - `grognard sim` of every bundled example with orders, one thread against two (runs the
//!   release binary);
//! - a full sighting update with 200 pieces a side: square-blocks' chart #5 on a 100 × 100
//!   square board, and range-and-roll spotting on a 60 × 40 hex board;
//! - `Game::legal_orders` for the side to act at the start of every bundled example (and,
//!   where no piece of that side can move at the start, at the first position of the
//!   example's own game where one can), against the sum of its pieces' moves: the reach
//!   queries (`Game::reach_as`) on a grid, `Game::open_moves_as` on an open table (each
//!   group also prints the ratio of the two timed turn about, `interleaved_ratio`);
//! - `grognard sim --policy random` of every bundled example, one thread against two.
//!
//! Run: `cargo bench --bench kernel`. Results and ratios: `docs/benchmarks.md`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grognard_kernel::dice::GameRng;
use grognard_kernel::game::{Game, Reach};
use grognard_kernel::geometry::Cell;
use grognard_kernel::geometry::hex::Axial;
use grognard_kernel::hooks::{Hooks, NoHooks};
use grognard_kernel::ids::{PieceId, SideId};
use grognard_lua::Limits;
use grognard_lua::sandbox::Sandbox;
use grognard_rules::load::{Ruleset, load_ruleset, scenario_from_text};
use hexx::Hex;
use pathfinding::prelude::{dijkstra_all, dijkstra_reach};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ruleset(path: &str) -> Ruleset {
    load_ruleset(&root().join(path)).unwrap_or_else(|d| panic!("{d}"))
}

fn game(r: &Ruleset, text: &str) -> Game {
    let s = scenario_from_text("bench.yaml", text, r).unwrap_or_else(|d| panic!("{d}"));
    s.start(None, &[], &mut NoHooks)
        .unwrap_or_else(|d| panic!("{d}"))
}

fn piece(g: &Game, name: &str) -> PieceId {
    g.piece_by_name(name).map(|p| p.id).unwrap_or_default()
}

/// One cell in five is woods (the same fixed pattern as `benches/hooks.rs`).
fn is_woods(col: i32, row: i32) -> bool {
    ((col as u32).wrapping_mul(2_654_435_761) ^ (row as u32).wrapping_mul(40_503)).is_multiple_of(5)
}

fn map_text(cols: i32, rows: i32, wood: char, sep: &str) -> String {
    let mut map = String::new();
    for r in 0..rows {
        let line: Vec<String> = (0..cols)
            .map(|c| if is_woods(c, r) { wood } else { '.' }.to_string())
            .collect();
        map.push_str("    ");
        map.push_str(&line.join(sep));
        map.push('\n');
    }
    map
}

const SQ: i32 = 100;
const SQ_START: (i32, i32) = (50, 50);
const SQ_BUDGET: u32 = 4000; // allowance 40, in hundredths

fn square_scenario() -> String {
    format!(
        "scenario: bench\nruleset: bench-kernel-square\nboard:\n  cols: {SQ}\n  rows: {SQ}\n  legend: {{ \".\": clear, W: medium_woods }}\n  map: |\n{}sides: {{ blue: {{}}, red: {{}} }}\npieces:\n  - {{ id: marcher, side: blue, type: infantry, at: [{}, {}] }}\n",
        map_text(SQ, SQ, 'W', ""),
        SQ_START.0,
        SQ_START.1
    )
}

/// The same board and marcher with 399 more pieces, all out of its reach: 199 friends on
/// rows 0–1, 200 enemies on rows 98–99 (at least 48 points away; the allowance is 40).
fn crowded_square_scenario() -> String {
    let mut text = square_scenario();
    for i in 0..200 {
        if i < 199 {
            text.push_str(&format!(
                "  - {{ id: b{i}, side: blue, type: infantry, at: [{}, {}] }}\n",
                i % 100,
                i / 100
            ));
        }
        text.push_str(&format!(
            "  - {{ id: r{i}, side: red, type: infantry, at: [{}, {}] }}\n",
            i % 100,
            98 + i / 100
        ));
    }
    text
}

const HEX_COLS: i32 = 60;
const HEX_ROWS: i32 = 40;
const HEX_START: (i32, i32) = (30, 20);
const HEX_BUDGET: u32 = 20;

fn hex_scenario() -> String {
    format!(
        "scenario: bench\nruleset: bench-kernel-hex\nboard:\n  cols: {HEX_COLS}\n  rows: {HEX_ROWS}\n  legend: {{ \".\": clear, F: forest }}\n  map: |\n{}sides: {{ blue: {{}}, red: {{}} }}\npieces:\n  - {{ id: marcher, side: blue, type: infantry, at: [{}, {}], facing: E }}\n",
        map_text(HEX_COLS, HEX_ROWS, 'F', " "),
        HEX_START.0,
        HEX_START.1
    )
}

/// Our reach as cell → cost in hundredths, the start left out.
fn ours(g: &Game, id: PieceId, start: (i32, i32)) -> BTreeMap<(i32, i32), u32> {
    let Ok(Reach::Cells(cells)) = g.reach(id, &mut NoHooks) else {
        panic!("no reach");
    };
    cells
        .iter()
        .map(|r| ((r.cell.col, r.cell.row), r.cost.hundredths() as u32))
        .filter(|(c, _)| *c != start)
        .collect()
}

/// The square board's step costs, in hundredths: orthogonal 100, diagonal 150, +50 into woods.
fn square_successors(&(c, r): &(i32, i32)) -> impl Iterator<Item = ((i32, i32), u32)> + use<> {
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
        ((0..SQ).contains(&nc) && (0..SQ).contains(&nr))
            .then(|| ((nc, nr), step + if is_woods(nc, nr) { 50 } else { 0 }))
    })
}

fn on_hex_board(h: Hex) -> Option<Cell> {
    let c = Axial::new(h.x, h.y).to_cell();
    ((0..HEX_COLS).contains(&c.col) && (0..HEX_ROWS).contains(&c.row)).then_some(c)
}

fn hex_of(col: i32, row: i32) -> Hex {
    let a = Axial::from_cell(Cell::new(col, row));
    Hex::new(a.q, a.r)
}

/// The hex board's step costs, in whole points: 1 a hex, +1 into forest.
fn hex_successors(h: &Hex) -> impl Iterator<Item = (Hex, u32)> + use<> {
    h.all_neighbors()
        .into_iter()
        .filter_map(|n| on_hex_board(n).map(|c| (n, if is_woods(c.col, c.row) { 2 } else { 1 })))
}

fn reach_benches(c: &mut Criterion) {
    // Square: 100 × 100, allowance 40.
    let sq_rules = ruleset("benches/fixtures/bench-kernel-square.yaml");
    let sq = game(&sq_rules, &square_scenario());
    let sq_id = piece(&sq, "marcher");
    let by_us = ours(&sq, sq_id, SQ_START);
    let by_all: BTreeMap<(i32, i32), u32> = dijkstra_all(&SQ_START, square_successors)
        .into_iter()
        .filter(|(_, (_, cost))| *cost <= SQ_BUDGET)
        .map(|(n, (_, cost))| (n, cost))
        .collect();
    let by_reach: BTreeMap<(i32, i32), u32> = dijkstra_reach(&SQ_START, square_successors)
        .take_while(|i| i.total_cost <= SQ_BUDGET)
        .map(|i| (i.node, i.total_cost))
        .filter(|(n, _)| *n != SQ_START)
        .collect();
    assert_eq!(by_us, by_all, "reach and dijkstra_all disagree (square)");
    assert_eq!(
        by_us, by_reach,
        "reach and dijkstra_reach disagree (square)"
    );
    println!("square reach: {} cells", by_us.len());

    let mut g = c.benchmark_group("reach 100x100 square, allowance 40");
    g.sample_size(20);
    g.bench_function("grognard Game::reach", |b| {
        b.iter(|| black_box(sq.reach(sq_id, &mut NoHooks).ok()));
    });
    g.bench_function("pathfinding dijkstra_all (whole board)", |b| {
        b.iter(|| black_box(dijkstra_all(&SQ_START, square_successors)));
    });
    g.bench_function("pathfinding dijkstra_reach (bounded)", |b| {
        b.iter(|| {
            black_box(
                dijkstra_reach(&SQ_START, square_successors)
                    .take_while(|i| i.total_cost <= SQ_BUDGET)
                    .count(),
            )
        });
    });
    g.finish();

    // The same query with 400 pieces on the board, none in the way: same answer, and the
    // time shows what the per-step walks over the piece list cost.
    let crowded = game(&sq_rules, &crowded_square_scenario());
    let crowded_id = piece(&crowded, "marcher");
    assert_eq!(crowded.world().state.pieces.len(), 400);
    assert_eq!(
        ours(&crowded, crowded_id, SQ_START),
        by_us,
        "the crowded board changed the reach"
    );
    let mut g = c.benchmark_group("reach 100x100 square, allowance 40, pieces on board");
    g.sample_size(10);
    g.bench_function("1 piece", |b| {
        b.iter(|| black_box(sq.reach(sq_id, &mut NoHooks).ok()));
    });
    g.bench_function("400 pieces, none in reach", |b| {
        b.iter(|| black_box(crowded.reach(crowded_id, &mut NoHooks).ok()));
    });
    g.finish();

    // Hex: 60 × 40, allowance 20.
    let hex_rules = ruleset("benches/fixtures/bench-kernel-hex.yaml");
    let hx = game(&hex_rules, &hex_scenario());
    let hx_id = piece(&hx, "marcher");
    let by_us = ours(&hx, hx_id, HEX_START);
    let start = hex_of(HEX_START.0, HEX_START.1);
    let fom = |h: Hex| on_hex_board(h).map(|c| u32::from(is_woods(c.col, c.row)));
    let by_fom: std::collections::BTreeSet<(i32, i32)> =
        hexx::algorithms::field_of_movement(start, HEX_BUDGET, fom)
            .into_iter()
            .filter(|h| *h != start)
            .filter_map(on_hex_board)
            .map(|c| (c.col, c.row))
            .collect();
    let by_reach: BTreeMap<(i32, i32), u32> = dijkstra_reach(&start, hex_successors)
        .take_while(|i| i.total_cost <= HEX_BUDGET)
        .filter(|i| i.node != start)
        .filter_map(|i| on_hex_board(i.node).map(|c| ((c.col, c.row), i.total_cost * 100)))
        .collect();
    let our_cells: std::collections::BTreeSet<(i32, i32)> = by_us.keys().copied().collect();
    assert_eq!(
        our_cells, by_fom,
        "reach and field_of_movement disagree (hex)"
    );
    assert_eq!(by_us, by_reach, "reach and dijkstra_reach disagree (hex)");
    println!("hex reach: {} cells", by_us.len());

    let mut g = c.benchmark_group("reach 60x40 hex, allowance 20");
    g.sample_size(20);
    g.bench_function("grognard Game::reach", |b| {
        b.iter(|| black_box(hx.reach(hx_id, &mut NoHooks).ok()));
    });
    g.bench_function("hexx field_of_movement", |b| {
        b.iter(|| black_box(hexx::algorithms::field_of_movement(start, HEX_BUDGET, fom)));
    });
    g.bench_function("pathfinding dijkstra_reach (bounded)", |b| {
        b.iter(|| {
            black_box(
                dijkstra_reach(&start, hex_successors)
                    .take_while(|i| i.total_cost <= HEX_BUDGET)
                    .count(),
            )
        });
    });
    g.finish();
}

fn chart_benches(c: &mut Criterion) {
    let square = ruleset("rulesets/drill-square.yaml");
    let hex = ruleset("rulesets/drill-hex.yaml");
    let volley = square
        .rules
        .chart_by_name("volley")
        .and_then(|id| square.rules.chart(id))
        .unwrap_or_else(|| panic!("no volley chart"));
    let fire = hex
        .rules
        .chart_by_name("fire")
        .and_then(|id| hex.rules.chart(id))
        .unwrap_or_else(|| panic!("no fire chart"));
    // volley inputs: cover, firer_hits, flank. fire inputs: band, firer_hits, cover, flank, trained.
    let volley_in = volley.input_values(&[(0, 1), (1, 1), (2, 1)]);
    let fire_in = fire.input_values(&[(0, 2), (1, 1), (2, 1), (3, 1), (4, 1)]);

    let mut g = c.benchmark_group("chart odds (exact, by enumeration)");
    g.bench_function("2d6 + modifiers (drill-square volley)", |b| {
        b.iter(|| black_box(volley.odds(&square.rules.dice, black_box(&volley_in))));
    });
    g.bench_function("cube band + CP/CB (drill-hex fire)", |b| {
        b.iter(|| black_box(fire.odds(&hex.rules.dice, black_box(&fire_in))));
    });
    g.finish();

    // Resolutions: roll + modifiers + row. The Lua side does the modifiers and the row lookup
    // of the volley chart in a sandboxed function; the two dice are rolled in Rust by the same
    // `GameRng` (a Lua script has no dice of its own), so both sides roll identically.
    let sandbox = Sandbox::new(Limits::default()).unwrap_or_else(|e| panic!("{e}"));
    let module = sandbox
        .load_module(
            "bench-volley.lua",
            "local M = {}\n\
             function M.volley(d1, d2, cover, hits, flank)\n\
               local m = -cover - hits + 2 * flank\n\
               if d1 + d2 + m >= 9 then return 'hit' end\n\
               return 'miss'\n\
             end\n\
             return M\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let f = sandbox
        .function(&module, "volley")
        .unwrap_or_else(|e| panic!("{e}"));
    let term = volley
        .dice
        .terms
        .first()
        .copied()
        .unwrap_or_else(|| panic!("volley rolls no dice"));
    let die = square
        .rules
        .dice
        .get(term.die.index())
        .unwrap_or_else(|| panic!("no die"));
    let lua_volley = |rng: &mut GameRng| -> String {
        let d1 = rng.roll(term.die, die, &[]).value;
        let d2 = rng.roll(term.die, die, &[]).value;
        sandbox
            .call(
                &f,
                "bench volley",
                (d1, d2, volley_in[0], volley_in[1], volley_in[2]),
            )
            .unwrap_or_else(|e| panic!("{e}"))
    };
    // Same seed, same dice, same outcomes.
    let (mut a, mut b) = (GameRng::new(7), GameRng::new(7));
    for _ in 0..1000 {
        let native = volley.resolve(&square.rules.dice, &volley_in, &mut a);
        let name = volley.outcomes.get(native.outcome).cloned();
        assert_eq!(
            name,
            Some(lua_volley(&mut b)),
            "native and Lua volley disagree"
        );
    }

    const BATCH: u64 = 1000;
    let mut g = c.benchmark_group("chart resolutions (batch of 1000)");
    g.throughput(Throughput::Elements(BATCH));
    g.bench_function("native ChartDef::resolve (2d6 volley)", |b| {
        let mut rng = GameRng::new(1);
        b.iter(|| {
            for _ in 0..BATCH {
                black_box(volley.resolve(&square.rules.dice, &volley_in, &mut rng));
            }
        });
    });
    g.bench_function("native ChartDef::resolve (cube fire)", |b| {
        let mut rng = GameRng::new(1);
        b.iter(|| {
            for _ in 0..BATCH {
                black_box(fire.resolve(&hex.rules.dice, &fire_in, &mut rng));
            }
        });
    });
    g.bench_function("Lua modifiers + row, Rust dice (2d6 volley)", |b| {
        let mut rng = GameRng::new(1);
        b.iter(|| {
            for _ in 0..BATCH {
                black_box(lua_volley(&mut rng));
            }
        });
    });
    g.finish();
}

fn load_benches(c: &mut Criterion) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("rulesets"))
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let mut g = c.benchmark_group("load + merge + validate ruleset");
    g.sample_size(20);
    for path in &files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        g.bench_function(name, |b| {
            b.iter(|| black_box(load_ruleset(path).is_ok()));
        });
    }
    g.finish();
}

fn sim(binary: &Path, example: &str, runs: u32, threads: u32) {
    sim_with(binary, example, runs, threads, false);
}

/// `grognard sim` of an example with its orders file, or (`policy`) whole games played by
/// the random policy.
fn sim_with(binary: &Path, example: &str, runs: u32, threads: u32, policy: bool) {
    let scenario = format!("examples/{example}.yaml");
    let orders = format!("examples/{example}.orders.yaml");
    let (runs, threads) = (runs.to_string(), threads.to_string());
    let mut args = vec!["sim", scenario.as_str()];
    if policy {
        args.extend(["--policy", "random"]);
    } else {
        args.extend(["--orders", orders.as_str()]);
    }
    args.extend(["--runs", runs.as_str(), "--threads", threads.as_str()]);
    let out = Command::new(binary)
        .current_dir(root())
        .args(&args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "grognard sim {example} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every bundled example that has an orders file, by name.
fn sim_examples() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("examples"))
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".orders.yaml")?.to_owned();
            root()
                .join(format!("examples/{stem}.yaml"))
                .exists()
                .then_some(stem)
        })
        .collect();
    names.sort();
    names
}

/// Runs for about half a second of single-thread play: games differ a hundredfold in
/// length between the drills and the full variants, and the serial start-up (loading the
/// ruleset, scenario and scripts) must stay small beside the games for the scaling to mean
/// anything. The time of one game is what 21 runs take beyond one run.
fn sim_runs(binary: &Path, example: &str, policy: bool) -> u32 {
    let timed = |runs: u32| {
        let started = std::time::Instant::now();
        sim_with(binary, example, runs, 1, policy);
        started.elapsed().as_secs_f64()
    };
    let one = (0..3).map(|_| timed(1)).fold(f64::MAX, f64::min);
    let many = (0..3).map(|_| timed(21)).fold(f64::MAX, f64::min);
    let per_run = ((many - one) / 20.0).max(1e-6);
    let runs = (0.5 / per_run) as u32;
    if policy {
        // Policy games of the full variants take seconds each: a few games a sample (an
        // even number, so two threads get the same share).
        (runs / 4 * 4).clamp(4, 20_000)
    } else {
        (runs / 20 * 20).clamp(20, 20_000)
    }
}

fn sim_benches(c: &mut Criterion) {
    let binary = root().join("target/release/grognard");
    if !binary.exists() {
        println!(
            "note: {} is missing; run `cargo build --release` first — skipping the sim benchmark",
            binary.display()
        );
        return;
    }
    for example in sim_examples() {
        // Calibrated on first use, so that a filtered-out group costs nothing.
        let runs = std::cell::OnceCell::new();
        let runs = || {
            *runs.get_or_init(|| {
                let n = sim_runs(&binary, &example, false);
                println!("grognard sim {example}: {n} runs a sample");
                n
            })
        };
        let mut g = c.benchmark_group(format!("grognard sim {example}"));
        g.sample_size(10);
        g.bench_function("--threads 1", |b| {
            let n = runs();
            b.iter(|| sim(&binary, &example, n, 1));
        });
        g.bench_function("--threads 2", |b| {
            let n = runs();
            b.iter(|| sim(&binary, &example, n, 2));
        });
        g.finish();
    }
}

/// Whole games played by the random policy (`sim --policy random`), one thread against two.
fn policy_sim_benches(c: &mut Criterion) {
    let binary = root().join("target/release/grognard");
    if !binary.exists() {
        println!(
            "note: {} is missing; run `cargo build --release` first — skipping the policy sim benchmark",
            binary.display()
        );
        return;
    }
    for example in sim_examples() {
        // Calibrated on first use, so that a filtered-out group costs nothing.
        let runs = std::cell::OnceCell::new();
        let runs = || {
            *runs.get_or_init(|| {
                let n = sim_runs(&binary, &example, true);
                println!("grognard sim {example} --policy random: {n} runs a sample");
                n
            })
        };
        let mut g = c.benchmark_group(format!("grognard sim {example} --policy random"));
        g.sample_size(10);
        g.bench_function("--threads 1", |b| {
            let n = runs();
            b.iter(|| sim_with(&binary, &example, n, 1, true));
        });
        g.bench_function("--threads 2", |b| {
            let n = runs();
            b.iter(|| sim_with(&binary, &example, n, 2, true));
        });
        g.finish();
    }
}

/// What any move generator must do for one piece, the baseline of the legal-order
/// benches: its reach query on a grid (`Game::reach_as`), and on an open table its moves
/// (`Game::open_moves_as`: the candidate places judged by the move's rules and hooks, which
/// is what "where can this piece go" means on a continuous table, where `reach_as` gives
/// only the allowance as a radius). Returns how many places it found.
fn moves_of(game: &Game, side: SideId, id: PieceId, hooks: &mut dyn Hooks) -> usize {
    if game.board().grid().is_some() {
        match game.reach_as(side, id, hooks) {
            Ok(Reach::Cells(cells)) => cells.len(),
            _ => 0,
        }
    } else {
        game.open_moves_as(side, id, hooks).map_or(0, |m| m.len())
    }
}

/// The example's own game (its orders file) up to the first position where the side to act
/// may move a piece (a move is among its legal orders); `None` when its orders never reach
/// one.
fn first_position_with_moves(example: &str, hooks: &mut dyn Hooks) -> Option<(Game, SideId)> {
    let s =
        grognard_rules::load::load_scenario(&root().join(format!("examples/{example}.yaml")), None)
            .unwrap_or_else(|d| panic!("{d}"));
    let orders =
        grognard_rules::load::load_orders(&root().join(format!("examples/{example}.orders.yaml")))
            .unwrap_or_else(|d| panic!("{d}"));
    let mut game = s.start(None, &[], hooks).unwrap_or_else(|d| panic!("{d}"));
    for spec in orders {
        if let Some(&side) = game.to_act().first()
            && may_move(&game, side, hooks)
        {
            return Some((game, side));
        }
        let order = grognard_rules::orders::resolve_order(&game, &spec.value).ok()?;
        game.apply(&order, hooks).ok()?;
    }
    None
}

/// Whether a move is among `side`'s legal orders now.
fn may_move(game: &Game, side: SideId, hooks: &mut dyn Hooks) -> bool {
    use grognard_kernel::action::Action;
    game.legal_orders(side, hooks)
        .iter()
        .any(|a| matches!(a, Action::Move { .. } | Action::MoveTo { .. }))
}

/// The side's pieces on the board.
fn mine(game: &Game, side: SideId) -> Vec<PieceId> {
    game.state()
        .pieces
        .iter()
        .filter(|p| p.side == side && p.on_board())
        .map(|p| p.id)
        .collect()
}

/// The legal orders of the side to act at the start of each example, against the moves of
/// its pieces (`moves_of`: what a move generator must do at least); and, for an example
/// whose side to act may move no piece at the start (black-powder: every move waits for an
/// order; the set-up example: the sides deploy first), again at the first position of its
/// own game where it may.
fn legal_benches(c: &mut Criterion) {
    for example in sim_examples() {
        let s = grognard_rules::load::load_scenario(
            &root().join(format!("examples/{example}.yaml")),
            None,
        )
        .unwrap_or_else(|d| panic!("{d}"));
        let mut hooks: Box<dyn Hooks> = if grognard_lua::LuaHooks::wanted(&s.ruleset) {
            Box::new(
                grognard_lua::LuaHooks::new(&s.ruleset, Limits::default())
                    .unwrap_or_else(|d| panic!("{d}")),
            )
        } else {
            Box::new(NoHooks)
        };
        let game = s
            .start(None, &[], hooks.as_mut())
            .unwrap_or_else(|d| panic!("{d}"));
        let Some(&side) = game.to_act().first() else {
            continue;
        };
        let movable = may_move(&game, side, hooks.as_mut());
        legal_group(
            c,
            &format!("{example} (start)"),
            &game,
            side,
            hooks.as_mut(),
        );
        if !movable && let Some((later, side)) = first_position_with_moves(&example, hooks.as_mut())
        {
            let name = format!("{example} (first position with a move)");
            legal_group(c, &name, &later, side, hooks.as_mut());
        }
    }
}

/// One legal-orders group: `Game::legal_orders` against the sum of `moves_of` the side's
/// pieces.
fn legal_group(c: &mut Criterion, name: &str, game: &Game, side: SideId, hooks: &mut dyn Hooks) {
    let mine = mine(game, side);
    let orders = game.legal_orders(side, hooks).len();
    let places: usize = mine.iter().map(|id| moves_of(game, side, *id, hooks)).sum();
    println!(
        "{name}: {orders} legal orders for the side to act, {} pieces, {places} places to move to",
        mine.len()
    );
    let ratio = interleaved_ratio(|legal| {
        if legal {
            black_box(game.legal_orders(side, hooks).len());
        } else {
            for id in &mine {
                black_box(moves_of(game, side, *id, hooks));
            }
        }
    });
    println!("{name}: legal_orders ÷ the moves of its pieces, interleaved: {ratio:.2}×");
    let mut g = c.benchmark_group(format!("legal orders, {name}"));
    g.bench_function("Game::legal_orders", |b| {
        b.iter(|| black_box(game.legal_orders(side, hooks).len()))
    });
    g.bench_function(
        "sum of the moves of its pieces (reach_as / open_moves_as)",
        |b| {
            b.iter(|| {
                for id in &mine {
                    black_box(moves_of(game, side, *id, hooks));
                }
            })
        },
    );
    g.finish();
}

/// The ratio of two timings taken turn about, `run(true)` over `run(false)`, so that a
/// machine that slows down or speeds up during the run (a shared virtual machine) weighs on
/// both alike: the median over 101 rounds, each side run enough times in a round to take
/// about a millisecond. Criterion's groups time the two far apart, and their ratio carries
/// that drift; the docs report both.
fn interleaved_ratio(mut run: impl FnMut(bool)) -> f64 {
    use std::time::{Duration, Instant};
    let mut time = |which: bool, n: u32| {
        let t = Instant::now();
        for _ in 0..n {
            run(which);
        }
        t.elapsed()
    };
    // Repetitions per round from one warm-up call of each.
    let one = time(true, 1)
        .max(time(false, 1))
        .max(Duration::from_nanos(100));
    let n = u32::try_from(1_000_000 / one.as_nanos().max(1))
        .unwrap_or(1)
        .clamp(1, 10_000);
    let mut ratios: Vec<f64> = (0..101)
        .map(|_| {
            let a = time(true, n);
            let b = time(false, n);
            a.as_secs_f64() / b.as_secs_f64().max(1e-12)
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

/// 200 pieces a side spread over the board: every tenth a scout (full chart), the rest
/// blocks that see only their neighbours; the sides face each other across the middle.
fn sighting_scenario(
    ruleset: &str,
    cols: i32,
    rows: i32,
    kinds: [&str; 2],
    facings: [&str; 2],
    terrain: &str,
) -> String {
    let mut s = format!(
        "scenario: bench\nruleset: {ruleset}\nseed: 3\nboard:\n  cols: {cols}\n  rows: {rows}\n{terrain}sides:\n  a: {{}}\n  b: {{}}\npieces:\n"
    );
    for side in 0..2 {
        for k in 0..200 {
            let col = (k * 7 + side * 3) % cols;
            let band = rows / 2 - 6 + side * 7;
            let row = band + (k / cols) * 2 + (k % 3);
            let kind = if k % 10 == 0 { kinds[0] } else { kinds[1] };
            let facing = facings[side as usize];
            let name = if side == 0 { "a" } else { "b" };
            s.push_str(&format!(
                "  - {{ id: {name}{k}, side: {name}, type: {kind}, at: [{col}, {row}], facing: {facing} }}\n"
            ));
        }
    }
    s
}

fn sighting_benches(c: &mut Criterion) {
    let blocks = ruleset("rulesets/square-blocks.yaml");
    let mut square = game(
        &blocks,
        &sighting_scenario(
            "square-blocks",
            100,
            100,
            ["scout", "infantry"],
            ["S", "N"],
            "",
        ),
    );
    let spotting = ruleset("tests/fixtures/hidden/hex-spotting.yaml");
    let hills = "  terrain:\n    hill: [[5, 14], [25, 14], [45, 14]]\n    forest: [[10, 26], [30, 26], [50, 26]]\n";
    let mut hex = game(
        &spotting,
        &sighting_scenario(
            "hex-spotting",
            60,
            40,
            ["infantry", "infantry"],
            ["SE", "NW"],
            hills,
        ),
    );
    // Both games really have something to see.
    assert!(
        square
            .state()
            .knowledge
            .iter()
            .all(|k| k.of.iter().any(|x| x.level.is_some()))
    );
    assert!(
        hex.state()
            .knowledge
            .iter()
            .all(|k| k.of.iter().any(|x| x.level.is_some()))
    );
    let mut g = c.benchmark_group("sighting update, 200 pieces a side");
    g.bench_function("square-blocks chart #5 (100x100 square)", |b| {
        b.iter(|| black_box(square.refresh_sightings()));
    });
    g.bench_function("range spotting (60x40 hex)", |b| {
        b.iter(|| black_box(hex.refresh_sightings()));
    });
    // The rolls of one spotting phase: every pair within a rolled band's reach is looked
    // at, and a line traced for each observer that could do better.
    let rolls = hex.spotting_preview();
    assert!(!rolls.is_empty(), "the spotting phase rolls nothing");
    println!("spotting phase: {} rolls", rolls.len());
    g.bench_function("spotting phase rolls (60x40 hex)", |b| {
        b.iter(|| black_box(hex.spotting_preview()));
    });
    g.finish();
}

/// Issue 21: the pass a sighting or threat update makes on the open table through the
/// `Game` API — distance, arcs both ways and sight through terrain for every unit against
/// every enemy — with 100 footprinted units a side. One pair's distance and arc, against
/// points, are in the kernel's own bench (`cargo bench -p grognard-kernel --bench
/// footprint`).
fn footprint_benches(c: &mut Criterion) {
    // 100 infantry a side (four 40 × 20 mm bases each) on a 120" × 60" table with woods.
    let drill = ruleset("rulesets/drill-open.yaml");
    let mut text = String::from(
        "scenario: bench\nruleset: drill-open\nseed: 3\nboard:\n  width: 120\"\n  height: 60\"\n  areas:\n    - { name: W1, terrain: wood, corners: [[30, 25], [40, 25], [40, 35], [30, 35]] }\n    - { name: W2, terrain: wood, corners: [[80, 22], [92, 22], [92, 34], [80, 34]] }\nsides:\n  a: {}\n  b: {}\npieces:\n",
    );
    for side in 0..2 {
        for k in 0..100 {
            let (name, y0, facing) = if side == 0 {
                ("a", 44, 270)
            } else {
                ("b", 4, 90)
            };
            let x = 5 + (k % 14) * 8;
            let y = y0 + (k / 14) * 2;
            text.push_str(&format!(
                "  - {{ id: {name}{k}, side: {name}, type: infantry, at: [{x}, {y}], facing: {facing} }}\n"
            ));
        }
    }
    let g0 = game(&drill, &text);
    let pieces: Vec<_> = g0.state().pieces.clone();
    let (ours, theirs): (Vec<_>, Vec<_>) = pieces.iter().partition(|p| p.side.0 == 0);
    let mut g = c.benchmark_group("footprints: 100 units a side, every unit against every enemy");
    g.throughput(Throughput::Elements((ours.len() * theirs.len()) as u64));
    g.bench_function("distance + arc + sight, both ways", |x| {
        x.iter(|| {
            let mut seen = 0u32;
            for p in &ours {
                for q in &theirs {
                    let near = g0.table_gap(p, q).is_some_and(|d| d.0 <= 36_000);
                    let front = g0.bearing(p, q);
                    if near && g0.clear_sight(g0.state(), p, q) {
                        seen += 1;
                    }
                    black_box((front, g0.bearing(q, p)));
                }
            }
            black_box(seen)
        });
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = kernel;
    config = config();
    targets = reach_benches, chart_benches, load_benches, sim_benches, sighting_benches,
        legal_benches, policy_sim_benches, footprint_benches
}
criterion_main!(kernel);
