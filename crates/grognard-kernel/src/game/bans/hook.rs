//! Why a ruleset hook's answer fails the order ([`HookBan`]) and its words, split from
//! `bans.rs` for length: a script's own error, a change it asks for that names what does
//! not exist or cannot be (`hook_commands.rs`, `placement.rs`), or a step price below nothing
//! (`steps.rs`). Every one is a [`RefusalKind::HookFailed`] refusal, worded by its
//! [`Ban`] words only.

use crate::action::{Ban, Refusal, RefusalKind};
use crate::cost::Cost;
use crate::geometry::Cell;
use crate::hooks::HookFailure;
use crate::ids::PieceId;

/// What went wrong with a hook, kept as data until [`Ban::refuse`] words it. Names are
/// the pieces' and features' own (a hook's failure is the ruleset's fault, told as is).
#[derive(Clone, Debug)]
pub(in crate::game) enum HookBan<'a> {
    /// The script failed or refused; its message says where and why.
    Script(HookFailure),
    /// A refusal made by a check a hook's change went through (a contact's), told as the
    /// hook's failure in the check's own words.
    Check(Refusal),
    /// A hook named a piece no piece has the id of.
    NoSuchPiece(PieceId),
    /// A hook named a counter, flag, mode or feature (`what`) the rules do not have.
    NoSuch(&'static str),
    /// A feature (its name) added on a board without a grid.
    FeatureOnTable(&'a str),
    /// A feature added between two cells, one of them off the board.
    FeatureOffBoard(&'a str, Cell, Cell),
    /// A feature added between two cells that are not neighbours.
    FeatureApart(&'a str, Cell, Cell),
    /// A `move_cost` hook's price below nothing for the piece (its name) entering `to`.
    NegativeCost(&'a str, Cost, Cell),
    /// A grid placement of a piece (its name) not on a grid cell.
    PlaceNotOnCell(&'a str),
    /// A grid placement of a piece off the board.
    PlaceOffBoard(&'a str, Cell),
    /// A grid placement into a cell the enemy holds.
    PlaceOnEnemy(&'a str, Cell),
    /// A grid placement over the cell's stacking limit (`problem`: the limit's words).
    PlaceCrowded(&'a str, Cell, String),
    /// An open-table placement the piece could not stand at (`World::standing_problem`'s
    /// words).
    PlaceCannotStand(String),
    /// An open-table placement of a piece that is not on an open table.
    PlaceNotOnTable(PieceId),
    /// A turn of a piece on an open table (hooks turn grid pieces only).
    TurnOnTable,
    /// A facing the grid does not have.
    NoSuchFacing(u8),
    /// An attachment to a host (the names: piece, host) that is not another piece of its
    /// side on the board.
    AttachNotOwn(&'a str, &'a str),
    /// An attachment that would chain (the host carried, or the piece carrying).
    AttachChains(&'a str, &'a str),
}

impl Ban for HookBan<'_> {
    /// Nothing: a failure names what it is about itself.
    type Cx<'c> = ();

    /// Always [`RefusalKind::HookFailed`].
    fn kind(&self) -> RefusalKind {
        RefusalKind::HookFailed
    }

    /// The sentence a player (or the ruleset's author) reads.
    fn words(self, (): ()) -> String {
        match self {
            Self::Script(e) => e.message,
            Self::Check(r) => r.message,
            Self::NoSuchPiece(p) => format!("a hook named piece #{}, which does not exist", p.0),
            Self::NoSuch(what) => format!("a hook named a {what} that does not exist"),
            Self::FeatureOnTable(name) => format!("cannot add a {name} on an open table"),
            Self::FeatureOffBoard(name, a, b) => {
                format!("cannot add a {name} between {a} and {b}: off the board")
            }
            Self::FeatureApart(name, a, b) => {
                format!("cannot add a {name} between {a} and {b}: they are not neighbours")
            }
            Self::NegativeCost(name, c, to) => format!(
                "the ruleset's move_cost hook gave a negative cost ({c}) for {name} to enter {to}"
            ),
            Self::PlaceNotOnCell(name) => {
                format!("a hook asked to place {name}, which is not on a grid cell")
            }
            Self::PlaceOffBoard(name, cell) => {
                format!("a hook asked to place {name} at {cell}, which is off the board")
            }
            Self::PlaceOnEnemy(name, cell) => {
                format!("a hook asked to place {name} at {cell}, which is held by the enemy")
            }
            Self::PlaceCrowded(name, cell, problem) => {
                format!("a hook asked to place {name} at {cell}: {problem}")
            }
            Self::PlaceCannotStand(problem) => format!("a hook asked to place a piece: {problem}"),
            Self::PlaceNotOnTable(p) => format!(
                "a hook asked to place piece #{} on an open table, where it is not",
                p.0
            ),
            Self::TurnOnTable => "a hook asked to turn a piece on an open table".to_owned(),
            Self::NoSuchFacing(f) => {
                format!("a hook asked for facing {f}, which this grid does not have")
            }
            Self::AttachNotOwn(name, host) => format!(
                "a hook asked to attach {name} to {host}, which is not another piece of its side on the board"
            ),
            Self::AttachChains(name, host) => {
                format!("a hook asked to attach {name} to {host}: attachments do not chain")
            }
        }
    }
}

/// The refusal for a hook's own failure (its script's error): the common case, short.
pub(in crate::game) fn hook_failed(e: HookFailure) -> Refusal {
    HookBan::Script(e).refuse(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words each failure had when it was built with `format!` where it was found
    /// (before `HookBan`), byte for byte; the kind is always `HookFailed`.
    #[test]
    fn each_hook_failure_keeps_its_words() {
        let (a, b) = (Cell::new(1, 2), Cell::new(3, 4));
        let cases: Vec<(HookBan<'_>, String)> = vec![
            (
                HookBan::Script(HookFailure {
                    message: "rules.lua:7: no".into(),
                }),
                "rules.lua:7: no".into(),
            ),
            (
                HookBan::NoSuchPiece(PieceId(9)),
                "a hook named piece #9, which does not exist".into(),
            ),
            (
                HookBan::NoSuch("flag"),
                "a hook named a flag that does not exist".into(),
            ),
            (
                HookBan::FeatureOnTable("bridge"),
                "cannot add a bridge on an open table".into(),
            ),
            (
                HookBan::FeatureApart("bridge", a, b),
                format!("cannot add a bridge between {a} and {b}: they are not neighbours"),
            ),
            (
                HookBan::NegativeCost("b2", Cost::from_hundredths(-150), b),
                format!(
                    "the ruleset's move_cost hook gave a negative cost (-1½) for b2 to enter {b}"
                ),
            ),
            (
                HookBan::PlaceCrowded("b2", a, "too many".into()),
                format!("a hook asked to place b2 at {a}: too many"),
            ),
            (
                HookBan::AttachChains("l1", "b2"),
                "a hook asked to attach l1 to b2: attachments do not chain".into(),
            ),
            (
                HookBan::NoSuchFacing(7),
                "a hook asked for facing 7, which this grid does not have".into(),
            ),
        ];
        for (ban, words) in cases {
            let r = ban.refuse(());
            assert_eq!(r.kind, RefusalKind::HookFailed);
            assert_eq!(r.message, words);
        }
    }
}
