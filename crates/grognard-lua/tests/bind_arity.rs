//! A function bound as an action's script, check or batched check is held to what that
//! binding passes (issue 35, the sixth outside reading's N10: the host is told what it
//! binds, instead of finding the parameters by the binding's name). A function taking
//! more than it is given is refused at load, at its line, naming the binding's kind and
//! its parameters; one taking what it is given loads.

mod common;

use grognard_lua::{Limits, LuaHooks};

const SCRIPT: &str = "\
local M = {}
function M.act(game, actor, target, outcome) end
function M.act5(game, actor, target, outcome, extra) end
function M.check(game, actor, target) end
function M.check4(game, actor, target, extra) end
function M.all(game, actor, targets) end
function M.all4(game, actor, targets, extra) end
return M
";

/// What loading the hooks of a ruleset binding `one`'s script and check and `two`'s
/// script and batched check says: "" when they load.
fn problems(script: &str, check: &str, check_all: &str) -> String {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("grognard-bind-arity-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("arity.lua"), SCRIPT).expect("lua");
    std::fs::write(
        dir.join("arity.yaml"),
        format!(
            "ruleset: arity\nextends: {}\nscripts:\n  arity: arity.lua\nactions:\n  \
             one: {{ target: friend, script: arity.{script}, check: arity.{check} }}\n  \
             two: {{ target: friend, script: arity.act, check_all: arity.{check_all} }}\n",
            common::root().join("rulesets/drill-square.yaml").display()
        ),
    )
    .expect("yaml");
    let r = grognard_rules::load::load_ruleset(&dir.join("arity.yaml"));
    let _ = std::fs::remove_dir_all(&dir);
    let r = r.unwrap_or_else(|d| panic!("{d}"));
    match LuaHooks::new(&r, Limits::default()) {
        Ok(_) => String::new(),
        Err(d) => d.to_string().replace(&format!("{}/", dir.display()), ""),
    }
}

#[test]
fn each_binding_is_held_to_its_own_parameters() {
    assert_eq!(problems("act", "check", "all"), "");
    // By hand: `one:` is line 6, its script at column 34 and (after `arity.act`) its
    // check at 52; `two:`'s batched check at line 7, column 56.
    assert_eq!(
        problems("act5", "check", "all"),
        "arity.yaml:6:34: `arity.act5` takes 5 parameters, but the action hook passes 4 \
         (game, actor, target, outcome)"
    );
    assert_eq!(
        problems("act", "check4", "all"),
        "arity.yaml:6:52: `arity.check4` takes 4 parameters, but the check hook passes 3 \
         (game, actor, target)"
    );
    assert_eq!(
        problems("act", "check", "all4"),
        "arity.yaml:7:56: `arity.all4` takes 4 parameters, but the check_all hook passes 3 \
         (game, actor, targets)"
    );
}
