//! The sandbox against hostile scripts.
//!
//! Every hostile script is a fixture under `tests/fixtures/lua/` (its header says what it
//! attacks and what must happen). Each must end with the expected error in under a second,
//! and the same sandbox must then still run an ordinary module correctly.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use grognard_lua::error::{HookError, HookErrorKind};
use grognard_lua::sandbox::{Limits, Sandbox};
use mlua::{Function, Table, Value};

/// Longest any hostile script may take to be stopped.
const HANG_GUARD: Duration = Duration::from_secs(1);

fn fixture_path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/lua")
        .join(file)
}

/// The chunk name a fixture is loaded under: its path from the repository root.
fn chunk_name(file: &str) -> String {
    format!("tests/fixtures/lua/{file}")
}

fn source(file: &str) -> String {
    let bytes = std::fs::read(fixture_path(file))
        .unwrap_or_else(|error| panic!("cannot read fixture {file}: {error}"));
    String::from_utf8_lossy(&bytes).into_owned()
}

fn sandbox() -> Sandbox {
    Sandbox::new(Limits::default()).expect("the sandbox builds")
}

fn load(sandbox: &Sandbox, file: &str) -> Table {
    sandbox
        .load_module(&chunk_name(file), &source(file))
        .unwrap_or_else(|error| panic!("{file} loads: {error}"))
}

fn function(sandbox: &Sandbox, module: &Table, name: &str) -> Function {
    sandbox
        .function(module, name)
        .unwrap_or_else(|error| panic!("{name}: {error}"))
}

/// Runs `file`'s function `name`, which must fail with `kind` within the hang guard.
fn expect_failure(sandbox: &Sandbox, file: &str, name: &str, kind: HookErrorKind) -> HookError {
    let module = load(sandbox, file);
    let hostile = function(sandbox, &module, name);
    let started = Instant::now();
    let result = sandbox.call::<_, Value>(&hostile, &format!("hostile {file} {name}"), ());
    let elapsed = started.elapsed();
    eprintln!("{file} {name}: {elapsed:?} -> {result:?}");
    assert!(
        elapsed < HANG_GUARD,
        "{file} {name} took {elapsed:?} to stop"
    );
    let error = match result {
        Err(error) => error,
        Ok(value) => panic!("{file} {name} should fail with {kind:?}, returned {value:?}"),
    };
    assert_eq!(error.kind, kind, "{file} {name}: {error}");
    assert!(!error.message.is_empty());
    assert_still_works(sandbox);
    error
}

/// The same sandbox still runs an ordinary module correctly.
fn assert_still_works(sandbox: &Sandbox) {
    let module = load(sandbox, "normal.lua");
    let call = |name: &str| function(sandbox, &module, name);
    let sum: i64 = sandbox.call(&call("add"), "add", (2, 3)).expect("add");
    assert_eq!(sum, 5);
    let cost: i64 = sandbox
        .call(&call("move_cost"), "move_cost", ("woods", false))
        .expect("move_cost");
    assert_eq!(cost, 2);
    let names: String = sandbox
        .call(&call("terrain_names"), "terrain_names", ())
        .expect("terrain_names");
    assert_eq!(names, "clear,marsh,town,woods");
    let sorted: String = sandbox
        .call(&call("sorted"), "sorted", (3, 1, 2))
        .expect("sorted");
    assert_eq!(sorted, "1,2,3");
}

// --- Safe library set -------------------------------------------------------------------

#[test]
fn only_the_safe_library_is_visible() {
    let sandbox = sandbox();
    let mut globals: Vec<String> = sandbox
        .lua()
        .globals()
        .pairs::<String, Value>()
        .map(|pair| pair.expect("global").0)
        .collect();
    globals.sort();
    assert_eq!(
        globals,
        [
            "_G",
            "_VERSION",
            "assert",
            "collectgarbage",
            "error",
            "getmetatable",
            "ipairs",
            "load",
            "math",
            "next",
            "pairs",
            "pcall",
            "print",
            "rawequal",
            "rawget",
            "rawlen",
            "rawset",
            "select",
            "setmetatable",
            "string",
            "table",
            "tonumber",
            "tostring",
            "type",
            "utf8",
            "xpcall",
        ]
    );
    let module = load(&sandbox, "escape_attempts.lua");
    let found: String = sandbox
        .call(&function(&sandbox, &module, "probes"), "probes", ())
        .expect("probes run");
    assert_eq!(found, "", "reachable from a script: {found}");
}

#[test]
fn collectgarbage_only_counts() {
    let sandbox = sandbox();
    let module = load(&sandbox, "escape_attempts.lua");
    let kilobytes: f64 = sandbox
        .call(&function(&sandbox, &module, "count"), "count", ())
        .expect("count is allowed");
    assert!(kilobytes > 0.0);
    let error = expect_failure(
        &sandbox,
        "escape_attempts.lua",
        "collect",
        HookErrorKind::Runtime,
    );
    assert!(
        error.message.contains("only collectgarbage(\"count\")"),
        "{error}"
    );
    assert!(
        error
            .message
            .starts_with("tests/fixtures/lua/escape_attempts.lua:24:"),
        "{error}"
    );
}

#[test]
fn bytecode_is_refused_from_rust() {
    let sandbox = sandbox();
    let bytes = std::fs::read(fixture_path("bytecode.luac")).expect("bytecode fixture");
    let started = Instant::now();
    let error = sandbox
        .load_module(
            &chunk_name("bytecode.luac"),
            &String::from_utf8_lossy(&bytes),
        )
        .expect_err("bytecode is refused");
    eprintln!("bytecode.luac: {:?} -> {error:?}", started.elapsed());
    assert!(started.elapsed() < HANG_GUARD);
    assert_eq!(error.kind, HookErrorKind::BinaryChunk);
    assert!(error.message.contains("ship the Lua source"), "{error}");
    assert_still_works(&sandbox);
}

#[test]
fn bytecode_is_refused_from_lua() {
    let error = expect_failure(
        &sandbox(),
        "load_bytecode.lua",
        "run",
        HookErrorKind::BinaryChunk,
    );
    assert!(
        error
            .message
            .starts_with("tests/fixtures/lua/load_bytecode.lua:4:"),
        "{error}"
    );
}

#[test]
fn load_still_loads_text() {
    let sandbox = sandbox();
    let module = sandbox
        .load_module(
            "scripts/load_text.lua",
            "return { run = function() return assert(load('return 6 * 7'))() end }",
        )
        .expect("loads");
    let answer: i64 = sandbox
        .call(&function(&sandbox, &module, "run"), "run", ())
        .expect("runs");
    assert_eq!(answer, 42);
}

// --- Determinism ------------------------------------------------------------------------

#[test]
fn nothing_random_and_no_addresses() {
    let sandbox = sandbox();
    let module = sandbox
        .load_module(
            "scripts/determinism.lua",
            r#"return {
                 run = function()
                   local t = {}
                   print("table", t, 1.5, nil, true)
                   return tostring(t) .. " " .. tostring(print) .. " " ..
                     string.format("%s|%5.1f", t, 2.25)
                 end,
               }"#,
        )
        .expect("loads");
    let text: String = sandbox
        .call(&function(&sandbox, &module, "run"), "run", ())
        .expect("runs");
    assert_eq!(text, "table function table|  2.2");
    assert_eq!(sandbox.take_printed(), ["table\ttable\t1.5\tnil\ttrue"]);
    assert!(sandbox.take_printed().is_empty());
    let error = expect_failure(
        &sandbox,
        "escape_attempts.lua",
        "address",
        HookErrorKind::Runtime,
    );
    assert!(error.message.contains("%p"), "{error}");
}

#[test]
fn pairs_and_next_visit_keys_in_a_fixed_order() {
    let sandbox = sandbox();
    let module = sandbox
        .load_module(
            "scripts/order.lua",
            r#"local t = { zulu = 1, alpha = 2, mike = 3, [10] = 4, [2] = 5, [2.5] = 6,
                          [true] = 7, [false] = 8, echo = 9, delta = 10 }
               return {
                 pairs = function()
                   local keys = {}
                   for k in pairs(t) do keys[#keys + 1] = tostring(k) end
                   return table.concat(keys, " ")
                 end,
                 next = function()
                   local keys = {}
                   local k = next(t)
                   while k ~= nil do
                     keys[#keys + 1] = tostring(k)
                     k = next(t, k)
                   end
                   return table.concat(keys, " ")
                 end,
                 clear_while_walking = function()
                   local copy = {}
                   for k, v in pairs(t) do copy[k] = v end
                   local n = 0
                   for k in pairs(copy) do copy[k] = nil; n = n + 1 end
                   return n, next(copy) == nil
                 end,
               }"#,
        )
        .expect("loads");
    let expected = "2 2.5 10 alpha delta echo mike zulu false true";
    for name in ["pairs", "next"] {
        let keys: String = sandbox
            .call(&function(&sandbox, &module, name), name, ())
            .expect("runs");
        assert_eq!(keys, expected, "{name}");
    }
    let (visited, empty): (i64, bool) = sandbox
        .call(
            &function(&sandbox, &module, "clear_while_walking"),
            "clear",
            (),
        )
        .expect("runs");
    assert_eq!((visited, empty), (10, true));
}

#[test]
fn big_sorts_are_stable() {
    let sandbox = sandbox();
    // Lua's C sort picks clock-seeded pivots above 100 elements, which reorders ties.
    let module = sandbox
        .load_module(
            "scripts/sort.lua",
            r#"return { run = function()
                 local t = {}
                 for i = 1, 500 do t[i] = { rank = i % 3, id = i } end
                 table.sort(t, function(a, b) return a.rank < b.rank end)
                 for i = 2, #t do
                   local a, b = t[i - 1], t[i]
                   if a.rank > b.rank or (a.rank == b.rank and a.id > b.id) then
                     return "out of order at " .. i
                   end
                 end
                 local n = {}
                 for i = 1, 300 do n[i] = (i * 7919) % 301 end
                 table.sort(n)
                 for i = 2, #n do if n[i - 1] > n[i] then return "numbers at " .. i end end
                 return "ok"
               end }"#,
        )
        .expect("loads");
    let verdict: String = sandbox
        .call(&function(&sandbox, &module, "run"), "run", ())
        .expect("runs");
    assert_eq!(verdict, "ok");
}

#[test]
fn the_budget_trips_at_the_same_instruction_every_time() {
    let source =
        "counter = 0 return { run = function() while true do counter = counter + 1 end end }";
    let trip_count = |warm_up: bool| {
        let sandbox = sandbox();
        if warm_up {
            // Earlier calls leave the hook's count mid-interval; it must not matter.
            let module = load(&sandbox, "normal.lua");
            for i in 0..7 {
                let _: i64 = sandbox
                    .call(&function(&sandbox, &module, "add"), "add", (i, 1))
                    .expect("add");
            }
        }
        let module = sandbox
            .load_module("scripts/count.lua", source)
            .expect("loads");
        let error = sandbox
            .call::<_, ()>(&function(&sandbox, &module, "run"), "run", ())
            .expect_err("runs out");
        assert_eq!(error.kind, HookErrorKind::InstructionBudget);
        sandbox
            .lua()
            .globals()
            .get::<i64>("counter")
            .expect("counter")
    };
    let first = trip_count(false);
    assert!(first > 100_000, "{first}");
    assert_eq!(trip_count(false), first);
    assert_eq!(trip_count(true), first);
}

// --- Memory -----------------------------------------------------------------------------

#[test]
fn table_bomb_hits_the_memory_cap() {
    let sandbox = sandbox();
    let error = expect_failure(&sandbox, "table_bomb.lua", "run", HookErrorKind::Memory);
    assert!(error.message.contains("16 MiB"), "{error}");
    assert!(
        sandbox.memory_used() < 2 * 1024 * 1024,
        "garbage collected after the bomb"
    );
}

#[test]
fn string_rep_bomb_hits_the_memory_cap() {
    expect_failure(
        &sandbox(),
        "string_rep_bomb.lua",
        "run",
        HookErrorKind::Memory,
    );
}

#[test]
fn string_doubling_hits_the_memory_cap() {
    expect_failure(
        &sandbox(),
        "string_doubling.lua",
        "run",
        HookErrorKind::Memory,
    );
}

// --- Instruction budget -----------------------------------------------------------------

#[test]
fn an_endless_loop_runs_out_of_budget() {
    let error = expect_failure(
        &sandbox(),
        "infinite_loop.lua",
        "run",
        HookErrorKind::InstructionBudget,
    );
    assert!(
        error
            .message
            .starts_with("tests/fixtures/lua/infinite_loop.lua:4: "),
        "{error}"
    );
    assert!(error.message.contains("2000000 instructions"), "{error}");
    assert_eq!(
        error.context.as_deref(),
        Some("evaluating hostile infinite_loop.lua run")
    );
}

#[test]
fn later_errors_are_not_blamed_on_an_earlier_trip() {
    let sandbox = sandbox();
    expect_failure(
        &sandbox,
        "infinite_loop.lua",
        "run",
        HookErrorKind::InstructionBudget,
    );
    let error = sandbox
        .load_module(&chunk_name("syntax_error.lua"), &source("syntax_error.lua"))
        .expect_err("does not parse");
    assert_eq!(error.kind, HookErrorKind::Syntax, "{error}");
    let module = load(&sandbox, "normal.lua");
    let error = sandbox.function(&module, "nope").expect_err("missing");
    assert_eq!(error.kind, HookErrorKind::MissingFunction, "{error}");
}

#[test]
fn a_module_that_never_finishes_loading_runs_out_of_budget() {
    let sandbox = sandbox();
    let started = Instant::now();
    let error = sandbox
        .load_module(
            &chunk_name("infinite_loop_at_load.lua"),
            &source("infinite_loop_at_load.lua"),
        )
        .expect_err("never loads");
    eprintln!(
        "infinite_loop_at_load.lua: {:?} -> {error:?}",
        started.elapsed()
    );
    assert!(started.elapsed() < HANG_GUARD);
    assert_eq!(error.kind, HookErrorKind::InstructionBudget);
    assert_eq!(
        error.context.as_deref(),
        Some("loading tests/fixtures/lua/infinite_loop_at_load.lua")
    );
    assert_still_works(&sandbox);
}

#[test]
fn pcall_cannot_swallow_the_budget() {
    expect_failure(
        &sandbox(),
        "pcall_swallow.lua",
        "run",
        HookErrorKind::InstructionBudget,
    );
}

#[test]
fn xpcall_cannot_swallow_the_budget() {
    expect_failure(
        &sandbox(),
        "xpcall_swallow.lua",
        "run",
        HookErrorKind::InstructionBudget,
    );
}

#[test]
fn load_cannot_swallow_the_budget() {
    expect_failure(
        &sandbox(),
        "load_reader_swallow.lua",
        "run",
        HookErrorKind::InstructionBudget,
    );
}

#[test]
fn host_code_cannot_swallow_the_budget() {
    let sandbox = sandbox();
    let swallow = sandbox
        .lua()
        .create_function(|_, f: Function| {
            let _ignored = f.call::<()>(());
            Ok(())
        })
        .expect("function");
    sandbox
        .lua()
        .globals()
        .set("swallow", swallow)
        .expect("register");
    expect_failure(
        &sandbox,
        "host_swallow.lua",
        "run",
        HookErrorKind::InstructionBudget,
    );
}

#[test]
fn c_loops_that_never_tick_are_reimplemented() {
    let sandbox = sandbox();
    expect_failure(
        &sandbox,
        "table_move_hang.lua",
        "run",
        HookErrorKind::InstructionBudget,
    );
    expect_failure(
        &sandbox,
        "table_insert_len.lua",
        "run",
        HookErrorKind::InstructionBudget,
    );
}

#[test]
fn table_functions_keep_their_behaviour() {
    let sandbox = sandbox();
    let module = sandbox
        .load_module(
            "scripts/tables.lua",
            r#"return { run = function()
                 local t = { 1, 2, 3 }
                 table.insert(t, 4)
                 table.insert(t, 1, 0)
                 local removed = table.remove(t, 2)
                 local last = table.remove(t)
                 table.move(t, 1, 3, 2)
                 local moved = table.move({ 7, 8 }, 1, 2, 1, {})
                 local ok, err = pcall(table.insert, t, 9, 1)
                 return table.concat(t, ",") .. " " .. removed .. " " .. last .. " " ..
                   table.concat(moved, ",") .. " " .. tostring(ok) .. " " .. err
               end }"#,
        )
        .expect("loads");
    let text: String = sandbox
        .call(&function(&sandbox, &module, "run"), "run", ())
        .expect("runs");
    assert_eq!(
        text,
        "0,0,2,3 1 4 7,8 false bad argument #2 to 'insert' (position out of bounds)"
    );
}

// --- Deadline ---------------------------------------------------------------------------

#[test]
fn slow_c_heavy_loops_hit_the_deadline() {
    let error = expect_failure(
        &sandbox(),
        "slow_concat_loop.lua",
        "run",
        HookErrorKind::Deadline,
    );
    assert!(error.message.contains("250 ms"), "{error}");
    assert!(
        error
            .message
            .starts_with("tests/fixtures/lua/slow_concat_loop.lua:"),
        "{error}"
    );
}

/// The deadline counts the call's own work, not time its thread spent off a core: on a
/// loaded machine (or a stopped process) an honest hook must answer as on an idle one, or a
/// replay or a `sim` run would quietly differ. A host function standing in for the wait
/// sleeps past the limit between two stretches of Lua long enough to tick.
#[cfg(target_os = "linux")]
#[test]
fn time_off_the_core_does_not_count_toward_the_deadline() {
    let sandbox = sandbox();
    let nap = sandbox
        .lua()
        .create_function(|_, ()| {
            std::thread::sleep(Duration::from_millis(400));
            Ok(())
        })
        .expect("function");
    sandbox.lua().globals().set("nap", nap).expect("register");
    let module = sandbox
        .load_module(
            "napper.lua",
            "local M = {}\n\
             function M.run()\n\
               local n = 0\n\
               for i = 1, 5000 do n = n + i end\n\
               nap()\n\
               for i = 1, 5000 do n = n + i end\n\
               return n\n\
             end\n\
             return M\n",
        )
        .expect("loads");
    let run = sandbox.function(&module, "run").expect("run");
    let answer = sandbox.call::<_, i64>(&run, "napper run", ());
    assert_eq!(
        answer.expect("an honest call that waited is not stopped"),
        25_005_000
    );
}

// --- Patterns ---------------------------------------------------------------------------

#[test]
fn pathological_patterns_are_refused_quickly() {
    let sandbox = sandbox();
    for file in [
        "pattern_backtracking.lua",
        "pattern_gsub_backtracking.lua",
        "plain_find_quadratic.lua",
    ] {
        let error = expect_failure(&sandbox, file, "run", HookErrorKind::PatternTooComplex);
        assert!(
            error
                .message
                .starts_with(&format!("tests/fixtures/lua/{file}:")),
            "{error}"
        );
    }
}

#[test]
fn ordinary_patterns_still_work() {
    let sandbox = sandbox();
    let module = load(&sandbox, "normal.lua");
    let (key, value): (String, i64) = sandbox
        .call(
            &function(&sandbox, &module, "parse_setting"),
            "parse_setting",
            "strength=12",
        )
        .expect("parse_setting");
    assert_eq!((key.as_str(), value), ("strength", 12));
    let text = "the quick  brown fox\tjumps over the lazy dog ".repeat(25);
    assert!(text.len() >= 1024);
    let started = Instant::now();
    let (count, squeezed): (i64, String) = sandbox
        .call(
            &function(&sandbox, &module, "words"),
            "words",
            text.as_str(),
        )
        .expect("words");
    assert_eq!(count, 225);
    assert!(!squeezed.contains("  ") && !squeezed.contains('\t'));
    let spaces = " ".repeat(1024);
    let (count, squeezed): (i64, String) = sandbox
        .call(&function(&sandbox, &module, "words"), "words", spaces)
        .expect("words on blanks");
    assert_eq!((count, squeezed.as_str()), (0, " "));
    assert!(started.elapsed() < HANG_GUARD);
}

// --- Errors -----------------------------------------------------------------------------

#[test]
fn runaway_recursion_ends_with_a_clear_error() {
    let sandbox = sandbox();
    let module = load(&sandbox, "deep_recursion.lua");
    let started = Instant::now();
    let error = sandbox
        .call::<_, Value>(&function(&sandbox, &module, "run"), "recursion", ())
        .expect_err("overflows");
    eprintln!("deep_recursion.lua: {:?} -> {error:?}", started.elapsed());
    assert!(started.elapsed() < HANG_GUARD);
    assert!(
        matches!(
            error.kind,
            HookErrorKind::Memory | HookErrorKind::Runtime | HookErrorKind::InstructionBudget
        ),
        "{error}"
    );
    assert_still_works(&sandbox);
}

#[test]
fn recursion_through_c_functions_ends_with_a_stack_overflow() {
    let sandbox = sandbox();
    for name in [
        "through_gsub",
        "through_sort",
        "through_index",
        "through_tostring",
    ] {
        let error = expect_failure(
            &sandbox,
            "c_boundary_recursion.lua",
            name,
            HookErrorKind::Runtime,
        );
        assert!(error.message.contains("stack overflow"), "{name}: {error}");
    }
}

#[test]
fn non_string_error_values_are_described() {
    let sandbox = sandbox();
    let error = expect_failure(
        &sandbox,
        "error_objects.lua",
        "table_value",
        HookErrorKind::Runtime,
    );
    assert!(
        error.message.contains("a table instead of a message"),
        "{error}"
    );
    assert!(!error.message.contains("0x"), "no address: {error}");
    let error = expect_failure(
        &sandbox,
        "error_objects.lua",
        "nil_value",
        HookErrorKind::Runtime,
    );
    assert!(
        error.message.contains("nil value instead of a message"),
        "{error}"
    );
    let error = expect_failure(
        &sandbox,
        "error_objects.lua",
        "tostring_fails",
        HookErrorKind::Runtime,
    );
    assert!(!error.message.contains("0x"), "{error}");
    let error = expect_failure(
        &sandbox,
        "error_objects.lua",
        "tostring_works",
        HookErrorKind::Runtime,
    );
    assert!(error.message.contains("custom failure"), "{error}");
}

#[test]
fn a_wrong_return_type_names_the_expected_type() {
    let sandbox = sandbox();
    let module = load(&sandbox, "wrong_type.lua");
    let hook = function(&sandbox, &module, "move_cost");
    let error = sandbox
        .call::<_, i64>(&hook, "hook move_cost for piece 12", 12)
        .expect_err("a string is not a cost");
    assert_eq!(error.kind, HookErrorKind::WrongType, "{error}");
    let expected = "tests/fixtures/lua/wrong_type.lua:3: the function returned a string where \
                    an integer (i64) was expected";
    assert!(error.message.starts_with(expected), "{error}");
    assert_still_works(&sandbox);
}

#[test]
fn syntax_errors_name_file_and_line() {
    let sandbox = sandbox();
    let error = sandbox
        .load_module(&chunk_name("syntax_error.lua"), &source("syntax_error.lua"))
        .expect_err("does not parse");
    assert_eq!(error.kind, HookErrorKind::Syntax);
    assert!(
        error
            .message
            .starts_with("tests/fixtures/lua/syntax_error.lua:4:"),
        "{error}"
    );
    assert_still_works(&sandbox);
}

#[test]
fn runtime_errors_read_file_line_message_and_context() {
    let sandbox = sandbox();
    let module = load(&sandbox, "runtime_error.lua");
    let error = sandbox
        .call::<_, i64>(
            &function(&sandbox, &module, "move_cost"),
            "hook move_cost for piece 12",
            12,
        )
        .expect_err("indexes nil");
    assert_eq!(error.kind, HookErrorKind::Runtime);
    assert_eq!(
        error.to_string(),
        "tests/fixtures/lua/runtime_error.lua:5: attempt to index a nil value (local 'terrain') \
         (while evaluating hook move_cost for piece 12)"
    );
    assert!(
        error
            .traceback
            .as_deref()
            .is_some_and(|traceback| traceback.contains("runtime_error.lua:5")),
        "{error:?}"
    );
}

#[test]
fn to_be_closed_variables_are_refused() {
    let sandbox = sandbox();
    let started = Instant::now();
    let error = sandbox
        .load_module(
            &chunk_name("close_handler_loop.lua"),
            &source("close_handler_loop.lua"),
        )
        .expect_err("<close> is refused");
    eprintln!(
        "close_handler_loop.lua: {:?} -> {error:?}",
        started.elapsed()
    );
    assert!(started.elapsed() < HANG_GUARD);
    assert_eq!(error.kind, HookErrorKind::Syntax);
    assert!(
        error
            .message
            .starts_with("tests/fixtures/lua/close_handler_loop.lua:9: to-be-closed variables"),
        "{error}"
    );
    let error = expect_failure(&sandbox, "load_close.lua", "run", HookErrorKind::Runtime);
    assert!(
        error.message.contains("smuggled:2: to-be-closed variables"),
        "{error}"
    );
}

#[test]
fn finalizers_are_refused() {
    let error = expect_failure(
        &sandbox(),
        "gc_finalizer.lua",
        "run",
        HookErrorKind::Runtime,
    );
    assert!(error.message.contains("__gc"), "{error}");
}

#[test]
fn a_missing_function_lists_what_the_module_has() {
    let sandbox = sandbox();
    let module = load(&sandbox, "normal.lua");
    let error = sandbox
        .function(&module, "move_cots")
        .expect_err("no such function");
    assert_eq!(error.kind, HookErrorKind::MissingFunction);
    assert_eq!(
        error.message,
        "tests/fixtures/lua/normal.lua has no function `move_cots`; did you mean `move_cost`? \
         (it defines `add`, `move_cost`, `parse_setting`, `sorted`, `terrain_names`, `words`)"
    );
}

#[test]
fn a_module_must_return_a_table() {
    let sandbox = sandbox();
    let error = sandbox
        .load_module("scripts/empty.lua", "local x = 1")
        .expect_err("returns nothing");
    assert_eq!(error.kind, HookErrorKind::WrongType);
    assert!(error.message.starts_with("scripts/empty.lua: "), "{error}");
}

#[test]
fn default_limits() {
    let limits = Limits::default();
    assert_eq!(limits.memory_bytes, 16 * 1024 * 1024);
    assert_eq!(limits.instructions_per_call, 2_000_000);
    assert_eq!(limits.time_per_call, Duration::from_millis(250));
    let sandbox = sandbox();
    assert!(sandbox.memory_used() > 0 && sandbox.memory_used() < limits.memory_bytes / 4);
    let too_small = Sandbox::new(Limits {
        memory_bytes: 1024,
        ..Limits::default()
    })
    .expect_err("1 KiB is too small");
    assert_eq!(too_small.kind, HookErrorKind::Memory);
}
