//! Saved games: ruleset identity + scenario + seed + orders, with the events they produced
//! so a replay can prove it reproduces them.

use std::collections::BTreeMap;

use grognard_kernel::action::Event;
use serde::{Deserialize, Serialize};

use crate::model::OrderSpec;

/// The save format's name and version.
pub const SAVE_FORMAT: &str = "grognard-save/1";

/// A saved game (JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveFile {
    /// Always [`SAVE_FORMAT`].
    pub format: String,
    /// The merged ruleset it was played with.
    pub ruleset: SavedRef,
    /// The scenario it started from.
    pub scenario: SavedRef,
    /// RNG seed.
    pub seed: u64,
    /// Optional rules in force.
    pub options: BTreeMap<String, bool>,
    /// Orders in the sequence they were applied (refused orders are not saved).
    pub orders: Vec<OrderSpec>,
    /// Every event the orders produced, from the start of the game.
    pub events: Vec<Event>,
}

/// A file a save depends on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedRef {
    /// Its name.
    pub name: String,
    /// Path, relative to the save file where possible.
    pub path: String,
    /// Content hash.
    pub hash: String,
}

/// Where two event logs first differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// Index of the first differing event.
    pub index: usize,
    /// What the save recorded there (if anything).
    pub saved: Option<Event>,
    /// What the replay produced there (if anything).
    pub replayed: Option<Event>,
}

/// The first difference between a saved and a replayed log.
#[must_use]
pub fn first_divergence(saved: &[Event], replayed: &[Event]) -> Option<Divergence> {
    let n = saved.len().max(replayed.len());
    (0..n)
        .find(|i| saved.get(*i) != replayed.get(*i))
        .map(|index| Divergence {
            index,
            saved: saved.get(index).cloned(),
            replayed: replayed.get(index).cloned(),
        })
}

/// The format tag of a side's redacted save.
pub const SIDE_SAVE_FORMAT: &str = "grognard-side-save-1";

/// One side's redacted save: what that side may keep of a game with hidden information.
/// It holds no seed, no scenario hash (a hash of the full scenario could be matched
/// against candidate set-ups) and no enemy orders, so it cannot be replayed; the referee's
/// full save ([`SaveFile`]) can.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideSaveFile {
    /// Always [`SIDE_SAVE_FORMAT`].
    pub format: String,
    /// The ruleset's name and identity hash (public: both sides play the same rules).
    pub ruleset: SavedRef,
    /// The scenario's name.
    pub scenario: String,
    /// Whose save.
    pub side: String,
    /// The side's view at the end.
    pub view: grognard_kernel::view::View,
    /// The side's log.
    pub events: Vec<Event>,
    /// The side's own orders, enemy pieces it has not identified named by handle (`#7`).
    pub orders: Vec<OrderSpec>,
}

/// A side's redacted save of `game`: its view, its log and its own orders.
#[must_use]
pub fn side_save(
    game: &grognard_kernel::game::Game,
    side: grognard_kernel::ids::SideId,
    scenario: &str,
    orders: &[OrderSpec],
) -> SideSaveFile {
    let side_name = game
        .sides()
        .get(side.index())
        .map_or_else(String::new, |s| s.name.clone());
    let view = game.view(side);
    // Orders name enemy pieces the side has not identified by handle.
    let identified: Vec<String> = view
        .enemy
        .iter()
        .filter_map(|e| e.identity.as_ref().map(|p| p.name.clone()))
        .collect();
    let own: Vec<String> = view.own.iter().map(|p| p.name.clone()).collect();
    let rename = |name: &str| -> String {
        if own.iter().any(|n| n == name) || identified.iter().any(|n| n == name) {
            name.to_owned()
        } else {
            game.piece_by_name(name)
                .map_or_else(|| name.to_owned(), |p| game.order_name_as(Some(side), p.id))
        }
    };
    let orders = orders
        .iter()
        .filter(|o| o.side == side_name)
        .map(|o| {
            let mut o = o.clone();
            if let Some(a) = &mut o.act
                && let Some(t) = &a.target
            {
                a.target = Some(rename(t));
            }
            o
        })
        .collect();
    SideSaveFile {
        format: SIDE_SAVE_FORMAT.to_owned(),
        ruleset: SavedRef {
            name: game.rules().identity.name.clone(),
            path: String::new(),
            hash: game.rules().identity.hash.clone(),
        },
        scenario: scenario.to_owned(),
        side: side_name,
        view,
        events: game.side_events(side),
        orders,
    }
}

impl SaveFile {
    /// The referee's save of `game`, started from `scenario`, written to `save_path` (the
    /// ruleset and scenario paths are stored relative to it).
    #[must_use]
    pub fn of(
        game: &grognard_kernel::game::Game,
        scenario: &crate::load::Scenario,
        save_path: &std::path::Path,
        orders: Vec<OrderSpec>,
    ) -> Self {
        Self {
            format: SAVE_FORMAT.to_owned(),
            ruleset: SavedRef {
                name: game.rules().identity.name.clone(),
                path: relative_to(save_path, &scenario.ruleset.path),
                hash: game.rules().identity.hash.clone(),
            },
            scenario: SavedRef {
                name: scenario.spec.scenario.value.clone(),
                path: relative_to(save_path, &scenario.path),
                hash: scenario.hash.clone(),
            },
            seed: game.state().rng.seed(),
            options: game
                .rules()
                .options
                .iter()
                .zip(&game.state().options)
                .map(|(o, on)| (o.name.clone(), *on))
                .collect(),
            orders,
            events: game.log().to_vec(),
        }
    }
}

/// `target` as a path relative to the folder of `base` (a bare file name's folder is the
/// current one); both are resolved first where they exist.
#[must_use]
pub fn relative_to(base: &std::path::Path, target: &std::path::Path) -> String {
    use std::path::{Path, PathBuf};
    let base_dir = base
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let abs = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let (b, t) = (abs(base_dir), abs(target));
    let common = b
        .components()
        .zip(t.components())
        .take_while(|(x, y)| x == y)
        .count();
    let mut out = PathBuf::new();
    for _ in b.components().skip(common) {
        out.push("..");
    }
    for c in t.components().skip(common) {
        out.push(c);
    }
    out.to_string_lossy().into_owned()
}
