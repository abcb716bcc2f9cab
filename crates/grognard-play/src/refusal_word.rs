//! The one word a program reads for why an order was not taken: the kernel's
//! [`RefusalKind`] as it serializes (`out_of_phase`, `too_far`, …), or [`BAD_ORDERS`] when
//! the rules never saw the order. `grognard play --json` (`refused.kind`) and the server's
//! `RefusedKind::word` both say it through here, each adding only its own extra words
//! (`policy_failed`; `paused`, `game_full`).

use grognard_kernel::action::RefusalKind;

/// The word when the rules never saw the order: an orders file that could not be read, or an
/// order naming a side, piece or value the game does not have (one kind on purpose; the
/// message says which name).
pub const BAD_ORDERS: &str = "bad_orders";

/// The kernel's reason in its word, as [`RefusalKind`] serializes (snake case).
#[must_use]
pub fn kind_word(kind: RefusalKind) -> String {
    match serde_json::to_value(kind) {
        Ok(serde_json::Value::String(word)) => word,
        _ => format!("{kind:?}"),
    }
}

/// The word for where an order stopped: the kernel's reason when the rules refused it
/// ([`kind_word`]), [`BAD_ORDERS`] when they never saw it (`None`).
#[must_use]
pub fn refused_word(kind: Option<RefusalKind>) -> String {
    kind.map_or_else(|| BAD_ORDERS.to_owned(), kind_word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_kinds_are_their_snake_case_names_and_none_is_bad_orders() {
        assert_eq!(kind_word(RefusalKind::OutOfPhase), "out_of_phase");
        assert_eq!(kind_word(RefusalKind::TooFar), "too_far");
        assert_eq!(kind_word(RefusalKind::HookFailed), "hook_failed");
        assert_eq!(refused_word(Some(RefusalKind::MustStop)), "must_stop");
        assert_eq!(refused_word(None), "bad_orders");
    }
}
