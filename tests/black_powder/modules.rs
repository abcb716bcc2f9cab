//! The `bp` module that gathers the mechanics' functions (scripts/black_powder.lua): a name
//! two modules both give is an error naming both, never a silent pick of one.

use grognard_lua::{Limits, LuaHooks};

use super::ruleset;

#[test]
fn a_function_two_modules_both_give_is_an_error_naming_both() {
    let mut r = ruleset(super::CORE);
    // The mechanics load as they are.
    assert!(LuaHooks::new(&r, Limits::default()).is_ok());
    // bp_phases also gives `moved`, which bp_melee gives.
    let phases = (r.scripts.iter_mut())
        .find(|s| s.module == "bp_phases")
        .expect("the bp_phases module");
    phases.text = phases
        .text
        .replacen("\nreturn {", "\nbp.moved = function() end\nreturn {", 1);
    let Err(problems) = LuaHooks::new(&r, Limits::default()) else {
        panic!("a name given twice was bound without a word");
    };
    let text = problems.to_string();
    assert!(
        text.contains("bp.moved is given by both bp_melee and bp_phases"),
        "{text}"
    );
}
