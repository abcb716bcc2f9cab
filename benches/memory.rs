//! Memory of a big game: 400 pieces (200 a side) on a 100 × 100 square board, counted by a
//! counting global allocator (its own bench binary, so the counter does not slow the timed
//! benchmarks). Prints the bytes live after loading the ruleset, after building the
//! scenario, and retained by the `Game` that `Scenario::start` returns, plus the peak while
//! starting. The same again with full knowledge tables: 400 pieces under
//! `rulesets/square-blocks.yaml`, whose `sighting:` section gives every side a knowledge
//! table of every piece (`State.knowledge`), measured after a full sighting update.
//!
//! Run: `cargo bench --bench memory`. Results: `docs/benchmarks.md`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use grognard_kernel::hooks::NoHooks;
use grognard_kernel::knowledge::Known;
use grognard_rules::load::{load_ruleset, scenario_from_text};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, passed on as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            let now = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// 100 × 100 board, one woods square in five, 200 infantry a side in rows 10–11 and 88–89.
fn scenario_text() -> String {
    let mut map = String::new();
    for r in 0..100u32 {
        map.push_str("    ");
        for c in 0..100u32 {
            let h = (c.wrapping_mul(2_654_435_761) ^ r.wrapping_mul(40_503)) % 5;
            map.push(if h == 0 { 'W' } else { '.' });
        }
        map.push('\n');
    }
    let mut pieces = String::new();
    for i in 0..200 {
        let (col, row) = (i % 100, 10 + i / 100);
        pieces.push_str(&format!(
            "  - {{ id: b{i}, side: blue, type: infantry, at: [{col}, {row}] }}\n"
        ));
        pieces.push_str(&format!(
            "  - {{ id: r{i}, side: red, type: infantry, at: [{col}, {}] }}\n",
            row + 78
        ));
    }
    format!(
        "scenario: bench\nruleset: bench-kernel-square\nboard:\n  cols: 100\n  rows: 100\n  legend: {{ \".\": clear, W: medium_woods }}\n  map: |\n{map}sides: {{ blue: {{}}, red: {{}} }}\npieces:\n{pieces}"
    )
}

/// 100 × 100 board, 200 pieces a side of square-blocks (every tenth a scout), facing each
/// other across the middle (the layout of the sighting benchmark in `benches/kernel.rs`).
fn sighting_scenario_text() -> String {
    let mut s = "scenario: bench\nruleset: square-blocks\nseed: 3\nboard:\n  cols: 100\n  rows: 100\nsides:\n  a: {}\n  b: {}\npieces:\n".to_owned();
    for side in 0..2 {
        for k in 0..200 {
            let col = (k * 7 + side * 3) % 100;
            let row = 44 + side * 7 + (k / 100) * 2 + (k % 3);
            let kind = if k % 10 == 0 { "scout" } else { "infantry" };
            let (name, facing) = if side == 0 { ("a", "S") } else { ("b", "N") };
            s.push_str(&format!(
                "  - {{ id: {name}{k}, side: {name}, type: {kind}, at: [{col}, {row}], facing: {facing} }}\n"
            ));
        }
    }
    s
}

fn mib(bytes: usize) -> String {
    format!("{bytes} B ({:.2} MiB)", bytes as f64 / (1024.0 * 1024.0))
}

fn main() {
    measure(
        "400 pieces on a 100 x 100 square board, no sighting rules (no knowledge tables)",
        "benches/fixtures/bench-kernel-square.yaml",
        &scenario_text(),
    );
    measure(
        "400 pieces on a 100 x 100 square board, square-blocks with full knowledge tables",
        "rulesets/square-blocks.yaml",
        &sighting_scenario_text(),
    );
}

/// Loads `ruleset`, starts `text` under it and prints what each part keeps alive.
fn measure(title: &str, ruleset: &str, text: &str) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let base = live();
    let ruleset = load_ruleset(&root.join(ruleset)).unwrap_or_else(|d| panic!("{d}"));
    let after_rules = live();
    let scenario =
        scenario_from_text("bench.yaml", text, &ruleset).unwrap_or_else(|d| panic!("{d}"));
    let after_scenario = live();
    PEAK.store(after_scenario, Ordering::Relaxed);
    let mut game = scenario
        .start(None, &[], &mut NoHooks)
        .unwrap_or_else(|d| panic!("{d}"));
    // A full sighting update on top of the one the start made (a no-op without sighting
    // rules): the tables are at their working size.
    game.refresh_sightings();
    let after_start = live();
    let peak = PEAK.load(Ordering::Relaxed);
    assert_eq!(game.world().state.pieces.len(), 400, "expected 400 pieces");
    drop(scenario);
    let game_only = live();
    let clone = game.clone();
    let after_clone = live();
    black_box(&clone);
    let tables = &game.state().knowledge;
    let entries: usize = tables.iter().map(|k| k.of.len()).sum();
    let known: usize = tables
        .iter()
        .map(|k| k.of.iter().filter(|x| x.level.is_some()).count())
        .sum();
    let table_bytes: usize = tables
        .iter()
        .map(|k| k.of.capacity() * std::mem::size_of::<Known>())
        .sum();

    println!("memory: {title}");
    println!(
        "  knowledge tables:                     {} sides, {entries} entries ({known} with a sighting level), {} in the entries' arrays",
        tables.len(),
        mib(table_bytes)
    );
    println!(
        "  ruleset (load_ruleset):               {}",
        mib(after_rules - base)
    );
    println!(
        "  scenario (scenario_from_text):        {}",
        mib(after_scenario - after_rules)
    );
    println!(
        "  retained by Scenario::start (Game):   {}",
        mib(after_start - after_scenario)
    );
    println!(
        "  peak above scenario during start:     {}",
        mib(peak - after_scenario)
    );
    println!(
        "  ruleset + Game, scenario dropped:     {}",
        mib(game_only - base)
    );
    println!(
        "  Game::clone (shares rules and board): {}",
        mib(after_clone - game_only)
    );
}
