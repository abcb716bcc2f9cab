//! The one error type of the Lua host: [`HookError`], classified by [`HookErrorKind`].
//!
//! A hook error is always the *script's* fault (or the ruleset author's), never a reason for
//! the engine to panic. Its [`Display`](fmt::Display) form is meant for a ruleset author:
//!
//! ```text
//! scripts/x.lua:12: attempt to index a nil value (while evaluating hook move_cost for piece 12)
//! ```
//!
//! The message names the file and line when Lua knows them; the context says what the engine
//! was doing; for the sandbox's own refusals the message also says how to fix the script.

use std::fmt;

/// What went wrong in a script, so callers can react without parsing messages.
///
/// `#[non_exhaustive]`: new sandbox defences may add kinds; match with a `_` arm.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HookErrorKind {
    /// The script raised an error while running: `error(...)`, indexing `nil`, calling a
    /// missing global, a refused sandbox feature (a `__gc` metamethod, `collectgarbage`
    /// with an option other than `"count"`, `%p` in `string.format`), or a stack overflow.
    /// Fix the script at the line the message names; the traceback shows how it got there.
    Runtime,
    /// The call executed more Lua instructions than
    /// [`Limits::instructions_per_call`](crate::sandbox::Limits::instructions_per_call).
    /// Usually a loop that never ends; otherwise the hook does too much work per call and
    /// should precompute or cache. Deterministic: the same call always stops at the same point.
    InstructionBudget,
    /// The call ran longer than
    /// [`Limits::time_per_call`](crate::sandbox::Limits::time_per_call), typically
    /// in library functions working on huge strings or tables (which the instruction count
    /// cannot see). Work on smaller data. This limit depends on the machine, so a ruleset that
    /// ever hits it is broken, not merely slow.
    Deadline,
    /// The script tried to use more memory than
    /// [`Limits::memory_bytes`](crate::sandbox::Limits::memory_bytes): a table or string that
    /// grows without end, or runaway recursion. Keep only the data the hook needs.
    Memory,
    /// A precompiled (binary) Lua chunk was offered where source text is required. Bytecode is
    /// refused because crafted bytecode can crash the interpreter; ship the `.lua` source.
    BinaryChunk,
    /// A `string.find`/`match`/`gmatch`/`gsub` pattern could backtrack for too long on this
    /// subject (for example several `.*` or `a*` items in a row on a long string). Anchor the
    /// pattern (`^...$`), use fewer quantified items, or split the subject into shorter parts.
    PatternTooComplex,
    /// A hook returned (or a module is) a value of the wrong type, e.g. a string where the
    /// engine expects an integer. The message names the type expected; return that type.
    WrongType,
    /// The module has no function by the requested name. The message lists the functions it
    /// does define and suggests the closest one; fix the name in the ruleset or the script.
    MissingFunction,
    /// The script does not parse. The message names the file and line (`scripts/x.lua:12:`);
    /// fix the syntax there.
    Syntax,
    /// The script refused the order with `game:refuse(text)`: the text, in the rule's words,
    /// is the whole refusal a player sees (no script location, no context); the location
    /// of the call is kept in the error's traceback. Not a fault of the script.
    Refused,
}

impl HookErrorKind {
    /// A one-line suggestion for a user interface, independent of the particular error.
    #[must_use]
    pub const fn hint(self) -> &'static str {
        match self {
            Self::Runtime => "fix the script at the line named in the message",
            Self::InstructionBudget => {
                "look for a loop that never ends, or do less work per hook call"
            }
            Self::Deadline => "work on smaller strings or tables in a single hook call",
            Self::Memory => {
                "keep less data alive: look for a table or string that grows without end, \
                 or runaway recursion"
            }
            Self::BinaryChunk => "ship the Lua source text, not precompiled bytecode",
            Self::PatternTooComplex => {
                "anchor the pattern, use fewer quantified items, or match shorter strings"
            }
            Self::WrongType => "return a value of the type the engine expects",
            Self::MissingFunction => "check the function name in the ruleset and the script",
            Self::Syntax => "fix the syntax at the line named in the message",
            Self::Refused => "the rules refuse the order; the message says why",
        }
    }
}

impl fmt::Display for HookErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Self::Runtime => "runtime error",
            Self::InstructionBudget => "instruction budget exhausted",
            Self::Deadline => "time limit exceeded",
            Self::Memory => "memory limit exceeded",
            Self::BinaryChunk => "binary chunk refused",
            Self::PatternTooComplex => "pattern too complex",
            Self::WrongType => "wrong type",
            Self::MissingFunction => "missing function",
            Self::Syntax => "syntax error",
            Self::Refused => "refused",
        };
        f.write_str(name)
    }
}

/// An error from loading or running a ruleset's Lua.
///
/// `Display` prints `message (while context)`; the traceback, when there is one, is kept apart
/// so that a one-line report stays one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookError {
    /// What went wrong, for matching.
    pub kind: HookErrorKind,
    /// The message, starting with `file:line:` when Lua knows where it happened.
    pub message: String,
    /// What the engine was doing, e.g. `evaluating hook move_cost for piece 12`.
    pub context: Option<String>,
    /// The Lua stack traceback at the error, when Lua produced one.
    pub traceback: Option<String>,
}

impl HookError {
    /// An error of `kind` with `message`, no context and no traceback.
    #[must_use]
    pub fn new(kind: HookErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            context: None,
            traceback: None,
        }
    }

    /// The same error, saying what the engine was doing (`evaluating hook move_cost`).
    #[must_use]
    pub fn with_context(mut self, context: impl Into<String>) -> Self {
        self.context = Some(context.into());
        self
    }

    /// The same error with a Lua traceback attached.
    #[must_use]
    pub fn with_traceback(mut self, traceback: impl Into<String>) -> Self {
        self.traceback = Some(traceback.into());
        self
    }
}

impl fmt::Display for HookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(context) = &self.context {
            write!(f, " (while {context})")?;
        }
        Ok(())
    }
}

impl std::error::Error for HookError {}
