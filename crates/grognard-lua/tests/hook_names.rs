//! The hook names live in three places: the kernel's `HookPoint` (the source), the rules
//! crate's `HOOK_POINTS` (what a ruleset may bind under `hooks:`, built from `HookPoint` at
//! compile time) and the Lua host's `HOOK_PARAMETERS` (each hook's parameters, for the arity
//! check at load and the docs), built from `HookPoint::ALL` by `point_parameters` (a match
//! the compiler holds to every point) and the action hooks. This checks the built list
//! names every point and the action hooks once (an action hook named like a point would
//! shadow its parameters).

use grognard_kernel::hooks::HookPoint;
use grognard_lua::host::HOOK_PARAMETERS;

/// The hooks an action binds with `script:`, `check:` and `check_all:`, which are not
/// `hooks:` points.
const ACTION_HOOKS: [&str; 3] = ["action", "check", "check_all"];

#[test]
fn the_hosts_parameter_list_names_every_hook_point_and_the_action_hooks_once() {
    let listed: Vec<&str> = HOOK_PARAMETERS.iter().map(|(name, _)| *name).collect();
    let mut expected: Vec<&str> = HookPoint::ALL.iter().map(|p| p.name()).collect();
    expected.extend(ACTION_HOOKS);
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        listed.len(),
        "a hook listed twice: {listed:?}"
    );
    let mut want = expected.clone();
    want.sort_unstable();
    assert_eq!(
        sorted, want,
        "HOOK_PARAMETERS against HookPoint::ALL + action hooks"
    );
}
