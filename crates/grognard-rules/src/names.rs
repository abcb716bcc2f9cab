//! The one table of the names a ruleset declares, by kind, in declaration order (a name's
//! position is its kernel id), and the one look-up of a name of each kind. Every part of
//! the compiler resolves its references here: the sections of `compile/`, the `company`,
//! `turning` and `victory` compilers, `sighting`, and a scenario's pieces, board, set-up
//! and choices (`scenario`).
//!
//! A kind ([`kind::Flag`], [`kind::PieceType`], …) ties together the word the messages use
//! ("unknown piece type `x`", with "did you mean" from [`Cx::lookup`]) and the id a name
//! resolves to, and for the names a ruleset declares ([`Declared`]) the table it is looked
//! for in, so a call site names only the kind: `names.id(cx, kind::Flag, name)` is a
//! `FlagId`, `names.ids(cx, kind::Mode, list)` the `ModeId`s of a list,
//! `names.index(cx, kind::Terrain, name)` the position, for the tables kept by index. The
//! few kinds whose names are a list the caller holds (the dice, as charts add numeric ones;
//! a die's faces; a sighting section's levels) are looked up with [`NameTable::find`] and the
//! same kind words.
//!
//! A ruleset's table is built from the decoded file before any section is compiled
//! ([`NameTable::new`]); a scenario's from the compiled rules, with its sides and regions
//! ([`NameTable::of_rules`]).
//!
//! Not to be confused with the kernel's `grognard_kernel::ids::Names`, one interned list of
//! names (a compiled ruleset's attributes and face tags), which the compiler builds from
//! this table.

use grognard_kernel::rules::{GeometryRules, Rules};

use crate::cx::{Cx, FromIndex};
use crate::de::Located;
use crate::model::{GeometryKind, RulesetSpec};
use crate::named::NamedMap;

/// Every table of names the sections of a ruleset (or a scenario's `victory:`) refer to.
pub(crate) struct NameTable<'a> {
    pub(crate) modes: Vec<&'a str>,
    pub(crate) counters: Vec<&'a str>,
    pub(crate) flags: Vec<&'a str>,
    pub(crate) piece_attrs: Vec<&'a str>,
    pub(crate) terrain_attrs: Vec<&'a str>,
    pub(crate) terrain: Vec<&'a str>,
    /// Features on cell boundaries.
    pub(crate) features: Vec<&'a str>,
    /// Movement classes.
    pub(crate) classes: Vec<&'a str>,
    /// Stacking limits.
    pub(crate) stacks: Vec<&'a str>,
    /// Piece types.
    pub(crate) types: Vec<&'a str>,
    pub(crate) settings: Vec<&'a str>,
    pub(crate) options: Vec<&'a str>,
    pub(crate) charts: Vec<&'a str>,
    pub(crate) actions: Vec<&'a str>,
    /// Lua modules under `scripts:`.
    pub(crate) scripts: Vec<&'a str>,
    /// Every intent some action declares, sorted, for `from: intent NAME`.
    pub(crate) intents: Vec<&'a str>,
    /// Face tags, in order of first use on the dice.
    pub(crate) tags: Vec<&'a str>,
    /// True on an open table (`geometry: { kind: open }`).
    pub(crate) open: bool,
    /// A scenario's sides and the regions of its board: `None` in a ruleset, which has
    /// neither.
    pub(crate) scenario: Option<ScenarioNames<'a>>,
}

/// The names only a scenario declares.
pub(crate) struct ScenarioNames<'a> {
    pub(crate) sides: Vec<&'a str>,
    pub(crate) regions: Vec<&'a str>,
}

impl<'a> NameTable<'a> {
    /// A ruleset's names, from its decoded file (`tags` as the dice section found them).
    pub(crate) fn new(spec: &'a RulesetSpec, tags: Vec<&'a str>) -> Self {
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
            features: named(&spec.features),
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
            scenario: None,
        }
    }

    /// A scenario's names: its ruleset's, read back from the compiled `rules`, and its own
    /// sides and regions (the regions once its board is compiled: [`NameTable::with_regions`]).
    pub(crate) fn of_rules(rules: &'a Rules, scenario: ScenarioNames<'a>) -> Self {
        Self {
            modes: rules.modes.iter().map(|m| m.name.as_str()).collect(),
            counters: rules.counters.iter().map(|c| c.name.as_str()).collect(),
            flags: rules.flags.iter().map(|f| f.name.as_str()).collect(),
            piece_attrs: rules.piece_attributes.iter().collect(),
            terrain_attrs: rules.terrain_attributes.iter().collect(),
            terrain: rules.terrain.iter().map(|t| t.name.as_str()).collect(),
            features: rules.features.iter().map(|f| f.name.as_str()).collect(),
            classes: rules.move_classes.iter().map(|c| c.name.as_str()).collect(),
            stacks: rules.stacking.iter().map(|s| s.name.as_str()).collect(),
            types: rules.piece_types.iter().map(|t| t.name.as_str()).collect(),
            settings: rules.settings.iter().map(|s| s.name.as_str()).collect(),
            options: rules.options.iter().map(|o| o.name.as_str()).collect(),
            charts: rules.charts.iter().map(|c| c.name.as_str()).collect(),
            actions: rules.actions.iter().map(|a| a.name.as_str()).collect(),
            scripts: Vec::new(),
            intents: Vec::new(),
            tags: Vec::new(),
            open: matches!(rules.geometry, GeometryRules::Open { .. }),
            scenario: Some(scenario),
        }
    }

    /// The same names with a scenario's regions, known once its board is compiled.
    pub(crate) fn with_regions(mut self, regions: Vec<&'a str>) -> Self {
        if let Some(s) = &mut self.scenario {
            s.regions = regions;
        }
        self
    }

    /// The id of `name`, a name of `kind`; an unknown name is reported (with "did you mean")
    /// and gives `None`.
    pub(crate) fn id<K: Declared>(
        &self,
        cx: &mut Cx,
        kind: K,
        name: &Located<String>,
    ) -> Option<K::Id> {
        self.index(cx, kind, name).map(K::Id::from_index)
    }

    /// The ids of every name of a list, leaving out (and reporting) the unknown.
    pub(crate) fn ids<K: Declared>(
        &self,
        cx: &mut Cx,
        kind: K,
        list: &[Located<String>],
    ) -> Vec<K::Id> {
        list.iter().filter_map(|n| self.id(cx, kind, n)).collect()
    }

    /// The positions of every name of a list (for the tables kept by index), leaving out
    /// (and reporting) the unknown.
    pub(crate) fn indices<K: Declared>(
        &self,
        cx: &mut Cx,
        kind: K,
        list: &[Located<String>],
    ) -> Vec<usize> {
        list.iter()
            .filter_map(|n| self.index(cx, kind, n))
            .collect()
    }

    /// The position of `name` in its kind's table (for the tables kept by index).
    pub(crate) fn index<K: Declared>(
        &self,
        cx: &mut Cx,
        kind: K,
        name: &Located<String>,
    ) -> Option<usize> {
        Self::position(cx, kind, name, K::table(self).iter().copied())
    }

    /// The id of `name`, a name of `kind` found among `list`, a table the caller holds (the
    /// dice as the charts add to them, a die's faces, a sighting section's levels); an
    /// unknown name is reported as [`NameTable::id`] reports it.
    pub(crate) fn find<'l, K: Kind>(
        cx: &mut Cx,
        kind: K,
        name: &Located<String>,
        list: impl Iterator<Item = &'l str> + Clone,
    ) -> Option<K::Id> {
        Self::position(cx, kind, name, list).map(K::Id::from_index)
    }

    /// The one look-up every kind goes through: the position of `name` in `list`, reported
    /// with the kind's word when it is not there.
    fn position<'l, K: Kind>(
        cx: &mut Cx,
        _: K,
        name: &Located<String>,
        list: impl Iterator<Item = &'l str> + Clone,
    ) -> Option<usize> {
        cx.lookup(K::WHAT, name, list)
    }
}

/// The names of a map's entries, in order.
pub(crate) fn named<T>(map: &NamedMap<T>) -> Vec<&str> {
    map.names().collect()
}

/// A kind of name: the word messages use and the id a name resolves to. The kinds are the
/// unit structs of [`kind`].
pub(crate) trait Kind: Copy {
    /// What a name of this kind resolves to (a plain `usize` for the tables the kernel
    /// keeps by index: options, settings, attributes).
    type Id: FromIndex;
    /// The word for the kind in messages: "unknown piece type `x`".
    const WHAT: &'static str;
}

/// A kind of name the ruleset (or scenario) declares, kept in a table of [`NameTable`].
pub(crate) trait Declared: Kind {
    /// The names of this kind, in order.
    fn table<'n>(names: &'n NameTable<'_>) -> &'n [&'n str];
}

/// The kinds of name, one unit struct each.
pub(crate) mod kind {
    use grognard_kernel::ids::{
        ActionId, ChartId, CounterId, DieId, FeatureId, FlagId, ModeId, MoveClassId, PieceTypeId,
        SideId, StackId, TagId, TerrainId,
    };

    use super::{Declared, Kind, NameTable};

    macro_rules! kinds {
        ($($kind:ident: $id:ty, $what:literal $(, |$n:ident| $table:expr)?;)+) => {
            $(
                #[doc = concat!("A ", $what, " name.")]
                #[derive(Clone, Copy)]
                pub(crate) struct $kind;

                impl Kind for $kind {
                    type Id = $id;
                    const WHAT: &'static str = $what;
                }

                $(impl Declared for $kind {
                    fn table<'n>($n: &'n NameTable<'_>) -> &'n [&'n str] {
                        $table
                    }
                })?
            )+
        };
    }

    kinds! {
        Action: ActionId, "action", |n| &n.actions;
        Chart: ChartId, "chart", |n| &n.charts;
        Counter: CounterId, "counter", |n| &n.counters;
        Feature: FeatureId, "feature", |n| &n.features;
        Flag: FlagId, "flag", |n| &n.flags;
        Mode: ModeId, "mode", |n| &n.modes;
        MoveClass: MoveClassId, "movement class", |n| &n.classes;
        PieceType: PieceTypeId, "piece type", |n| &n.types;
        Stack: StackId, "stacking limit", |n| &n.stacks;
        Terrain: TerrainId, "terrain", |n| &n.terrain;
        Optional: usize, "optional rule", |n| &n.options;
        Setting: usize, "setting", |n| &n.settings;
        PieceAttribute: usize, "piece attribute", |n| &n.piece_attrs;
        TerrainAttribute: usize, "terrain attribute", |n| &n.terrain_attrs;
        Script: usize, "script module", |n| &n.scripts;
        Tag: TagId, "face tag", |n| &n.tags;
        Intent: usize, "intent", |n| &n.intents;
        Side: SideId, "side", |n| n.scenario.as_ref().map_or(&[], |s| &s.sides);
        Region: usize, "region", |n| n.scenario.as_ref().map_or(&[], |s| &s.regions);
        // Names in a list the caller holds: `NameTable::find`.
        Die: DieId, "die";
        Face: u8, "face";
        SightLevel: u8, "sighting level";
        // A phase's `allows` entry that is not `move`, `face` or `mode`.
        PhaseAction: ActionId, "action (or move, face, mode)";
    }
}
