//! Hook bindings: the hook points a ruleset may bind, and how a binding's
//! `module.function` splits. The check that each binding names a listed module is in
//! `checks.rs`.

use grognard_kernel::hooks::HookPoint;

/// The hooks a ruleset may bind under `hooks:` (actions bind theirs with `script:`): the
/// names of the kernel's [`HookPoint`]s, in their order, so the two cannot drift apart.
pub const HOOK_POINTS: [&str; HookPoint::ALL.len()] = {
    let mut names = [""; HookPoint::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = HookPoint::ALL[i].name();
        i += 1;
    }
    names
};

/// Splits `module.function`.
#[must_use]
pub fn split_binding(text: &str) -> Option<(&str, &str)> {
    let (m, f) = text.trim().split_once('.')?;
    (!m.is_empty() && !f.is_empty() && !f.contains('.')).then_some((m, f))
}
