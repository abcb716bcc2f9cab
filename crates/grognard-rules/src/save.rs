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
