//! The compile context: the diagnostics the validation pass collects, with the one helper
//! that reports an unknown name (with "did you mean") at its location, [`Cx::lookup`]. Every
//! part of the compiler (the ruleset sections, scenarios, sighting, company, turning) takes
//! one; it imports nothing from them. A name of a kind (a flag, a die, an optional rule) is
//! looked up through `crate::names::NameTable`, which calls `lookup` with the kind's table and
//! word; `lookup` is called directly only for the names local to one section (a chart's
//! inputs, a sighting section's charts and phases).

use grognard_kernel::ids::{
    ActionId, ChartId, CounterId, DieId, FeatureId, FlagId, ModeId, MoveClassId, PieceTypeId,
    SideId, StackId, TagId, TerrainId,
};

use crate::de::Located;
use crate::diag::{Diagnostic, Diagnostics, Location};
use crate::suggest::did_you_mean;

/// Collects diagnostics while compiling.
pub(crate) struct Cx {
    pub diags: Diagnostics,
}

impl Cx {
    pub(crate) fn new() -> Self {
        Self {
            diags: Diagnostics::default(),
        }
    }

    pub(crate) fn error(&mut self, at: &Location, message: impl Into<String>) {
        self.diags.push(Diagnostic {
            location: Some(at.clone()),
            message: message.into(),
            help: None,
        });
    }

    pub(crate) fn error_help(&mut self, at: &Location, message: String, help: Option<String>) {
        self.diags.push(Diagnostic {
            location: Some(at.clone()),
            message,
            help,
        });
    }

    /// Resolves `name` among `candidates` (`what` names the kind: "terrain").
    pub(crate) fn lookup<'a>(
        &mut self,
        what: &str,
        name: &Located<String>,
        candidates: impl Iterator<Item = &'a str> + Clone,
    ) -> Option<usize> {
        if let Some(i) = candidates.clone().position(|c| c == name.value) {
            return Some(i);
        }
        let list: Vec<&str> = candidates.clone().collect();
        let help = did_you_mean(&name.value, candidates)
            .map(|s| format!("did you mean `{s}`?"))
            .or_else(|| {
                (!list.is_empty()).then(|| format!("known {what} names: {}", list.join(", ")))
            });
        let message = if list.is_empty() {
            format!("unknown {what} `{}`: the ruleset declares none", name.value)
        } else {
            format!("unknown {what} `{}`", name.value)
        };
        self.error_help(&name.location, message, help);
        None
    }
}

/// A kernel id made from its index in the ruleset's table of such names. The tables are
/// built from the files' maps, which the input limits keep far below `u16::MAX` entries.
pub(crate) trait FromIndex {
    fn from_index(index: usize) -> Self;
}

macro_rules! from_index {
    ($($id:ident),+) => {
        $(impl FromIndex for $id {
            fn from_index(index: usize) -> Self {
                $id(index as u16)
            }
        })+
    };
}

impl FromIndex for SideId {
    fn from_index(index: usize) -> Self {
        SideId(index as u8)
    }
}

/// A sighting level or a die's face: the sighting section allows at most 200 levels and a
/// die at most 100 faces (larger ones are refused with their own messages).
impl FromIndex for u8 {
    fn from_index(index: usize) -> Self {
        index as u8
    }
}

/// A plain index, for the tables the kernel keeps by index (`Rules::private_counters`,
/// `private_flags`, `private_attributes`).
impl FromIndex for usize {
    fn from_index(index: usize) -> Self {
        index
    }
}

from_index!(
    ActionId,
    ChartId,
    CounterId,
    DieId,
    FeatureId,
    FlagId,
    ModeId,
    MoveClassId,
    PieceTypeId,
    StackId,
    TagId,
    TerrainId
);
