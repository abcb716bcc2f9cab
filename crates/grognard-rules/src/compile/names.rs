//! The names a ruleset declares, by kind, in declaration order: a name's position is its
//! kernel id. Built once from the decoded file before any section is compiled, so every
//! section resolves references against the same table.

use crate::model::{GeometryKind, RulesetSpec};
use crate::named::NamedMap;

/// Every table of names the sections of a ruleset refer to.
pub(super) struct Names<'a> {
    pub(super) modes: Vec<&'a str>,
    pub(super) counters: Vec<&'a str>,
    pub(super) flags: Vec<&'a str>,
    pub(super) piece_attrs: Vec<&'a str>,
    pub(super) terrain_attrs: Vec<&'a str>,
    pub(super) terrain: Vec<&'a str>,
    /// Movement classes.
    pub(super) classes: Vec<&'a str>,
    /// Stacking limits.
    pub(super) stacks: Vec<&'a str>,
    /// Piece types.
    pub(super) types: Vec<&'a str>,
    pub(super) settings: Vec<&'a str>,
    pub(super) options: Vec<&'a str>,
    pub(super) charts: Vec<&'a str>,
    pub(super) actions: Vec<&'a str>,
    /// Lua modules under `scripts:`.
    pub(super) scripts: Vec<&'a str>,
    /// Every intent some action declares, sorted, for `from: intent NAME`.
    pub(super) intents: Vec<&'a str>,
    /// Face tags, in order of first use on the dice.
    pub(super) tags: Vec<String>,
    /// True on an open table (`geometry: { kind: open }`).
    pub(super) open: bool,
}

impl<'a> Names<'a> {
    pub(super) fn new(spec: &'a RulesetSpec, tags: Vec<String>) -> Self {
        let mut intents: Vec<&str> = spec
            .actions
            .iter()
            .flat_map(|a| a.value.intents.iter().map(|i| i.value.as_str()))
            .collect();
        intents.sort_unstable();
        intents.dedup();
        let texts = |list: &'a [crate::de::Located<String>]| -> Vec<&'a str> {
            list.iter().map(|a| a.value.as_str()).collect()
        };
        Self {
            modes: named(&spec.modes),
            counters: named(&spec.counters),
            flags: named(&spec.flags),
            piece_attrs: texts(&spec.piece_attributes),
            terrain_attrs: texts(&spec.terrain_attributes),
            terrain: named(&spec.terrain),
            classes: named(&spec.movement),
            stacks: named(&spec.stacking),
            types: named(&spec.piece_types),
            settings: named(&spec.settings),
            options: named(&spec.options),
            charts: named(&spec.charts),
            actions: named(&spec.actions),
            scripts: named(&spec.scripts),
            intents,
            tags,
            open: spec
                .geometry
                .kind
                .as_ref()
                .is_some_and(|k| k.value == GeometryKind::Open),
        }
    }
}

impl Names<'_> {
    /// The names company and half-hex rules refer to.
    pub(super) fn company(&self) -> crate::company::CompanyNames<'_> {
        crate::company::CompanyNames {
            types: &self.types,
            flags: &self.flags,
            terrain: &self.terrain,
            options: &self.options,
            open: self.open,
        }
    }
}

/// The names of a map's entries, in order.
pub(super) fn named<T>(map: &NamedMap<T>) -> Vec<&str> {
    map.names().collect()
}
