//! Hook bindings: the hook points a ruleset may bind, and the check that each binding is
//! `module.function` with a module listed under `scripts:`.

use grognard_kernel::hooks::HookPoint;

use crate::de::Located;

use super::Cx;

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

pub(super) fn check_binding(cx: &mut Cx, binding: &Located<String>, modules: &[&str]) {
    match split_binding(&binding.value) {
        Some((module, _)) => {
            let located = Located {
                value: module.to_owned(),
                location: binding.location.clone(),
            };
            cx.lookup("script module", &located, modules.iter().copied());
        }
        None => cx.error(
            &binding.location,
            format!(
                "`{}`: expected `module.function`, with the module listed under `scripts:`",
                binding.value
            ),
        ),
    }
}
