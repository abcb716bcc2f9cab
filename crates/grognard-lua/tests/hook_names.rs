//! The hook names live in three places: the kernel's `HookPoint` (the source), the rules
//! crate's `HOOK_POINTS` (what a ruleset may bind under `hooks:`, built from `HookPoint` at
//! compile time) and the Lua host's `HOOK_PARAMETERS` (each hook's parameters, for the arity
//! check at load and the docs). This ties the host's list to the kernel's, so a point added
//! to one and not the other fails here rather than loading without its arity check.

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
