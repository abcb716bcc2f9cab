//! Decisions a variant makes that its data cannot express. The kernel asks; the Lua crate
//! answers from a ruleset's scripts; [`NoHooks`] answers with the data's own decision.

use crate::cost::Cost;
use crate::game::World;
use crate::geometry::Cell;
use crate::ids::{CounterId, FlagId, PieceId};

/// Why a hook could not answer. The action that asked is refused and nothing changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookFailure {
    /// What went wrong, naming the script and line where there is one.
    pub message: String,
}

impl core::fmt::Display for HookFailure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A change a hook asks for. The kernel validates and logs it like any other effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HookCommand {
    /// Add to a piece's counter.
    AddCounter {
        /// Whose.
        piece: PieceId,
        /// Which.
        counter: CounterId,
        /// How much.
        amount: i32,
    },
    /// Set or clear a piece's flag.
    SetFlag {
        /// Whose.
        piece: PieceId,
        /// Which.
        flag: FlagId,
        /// On or off.
        on: bool,
    },
    /// Write a note in the log.
    Note(String),
}

/// The questions the kernel asks a ruleset's hooks. Every method has the data-only answer
/// as its default, so an implementation overrides only what its ruleset binds.
pub trait Hooks {
    /// The cost for `piece` to step from `from` into `to`, given what the data says
    /// (`data`: `None` = impassable). Called on hot paths (reach): keep it cheap.
    ///
    /// # Errors
    /// A failure refuses the move or the reach query.
    fn move_cost(
        &mut self,
        world: &World<'_>,
        piece: PieceId,
        from: Cell,
        to: Cell,
        data: Option<Cost>,
    ) -> Result<Option<Cost>, HookFailure> {
        let _ = (world, piece, from, to);
        Ok(data)
    }

    /// Called as each phase begins; returns changes to make.
    ///
    /// # Errors
    /// A failure refuses the action that ended the previous phase.
    fn phase_begin(
        &mut self,
        world: &World<'_>,
        phase: &str,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        let _ = (world, phase);
        Ok(Vec::new())
    }
}

/// Hooks that only ever give the data's answer.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHooks;

impl Hooks for NoHooks {}
