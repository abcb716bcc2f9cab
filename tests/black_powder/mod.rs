//! The `black-powder` variant: the club amendments of seed 003 (`rulesets/black-powder.yaml`)
//! over our documented reading of the base game (`rulesets/black-powder-core.yaml`). Each
//! test cites the amendment it checks (`// 003 <section>: ...`) and asserts real outcomes:
//! exact odds of the charts through the kernel, games played through the rules + kernel API
//! with the ruleset's own Lua hooks, and the binary.
//!
//! This file holds the shared fixture (a table of pieces played through the rules, kernel
//! and Lua hooks) and its helpers; the tests are one file per mechanic: `tables`,
//! `movement`, `charges`, `command`, `melee`, `artillery` and `orders`; `artillery_audit`
//! replays the outside umpire's artillery audit (round 3) on its positions, and
//! `artillery_audit2` the second umpire's.

use grognard_kernel::Ratio;
use grognard_kernel::action::{Action, Event, Order, Refusal, RefusalKind};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::open::{Len, Point};
use grognard_kernel::ids::PieceId;
use grognard_kernel::piece::Place;
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::{Ruleset, load_ruleset, scenario_from_text};

use crate::util::{grognard, root};

mod artillery;
mod artillery_audit;
mod artillery_audit2;
mod charges;
mod command;
mod judge;
mod melee;
mod modules;
mod movement;
mod orders;
mod passage;
mod rulings;
mod tables;

pub(super) const CORE: &str = "rulesets/black-powder-core.yaml";

pub(super) const CLUB: &str = "rulesets/black-powder.yaml";

pub(super) fn ruleset(path: &str) -> Ruleset {
    load_ruleset(&root().join(path)).unwrap_or_else(|d| panic!("{d}"))
}

/// Exact odds of each outcome of `chart` in `ruleset` with `inputs` (the rest defaulted).
pub(super) fn odds(ruleset: &Ruleset, chart: &str, inputs: &[(&str, i32)]) -> Vec<(String, Ratio)> {
    let rules = &ruleset.rules;
    let id = rules.chart_by_name(chart).expect("chart");
    let def = rules.chart(id).expect("chart");
    let set: Vec<(usize, i32)> = inputs
        .iter()
        .map(|(name, v)| {
            let i = def
                .inputs
                .iter()
                .position(|x| x.name == *name)
                .unwrap_or_else(|| panic!("chart {chart} has no input {name}"));
            (i, *v)
        })
        .collect();
    let values = def.input_values(&set);
    def.outcomes
        .iter()
        .cloned()
        .zip(def.odds(&rules.dice, &values))
        .collect()
}

/// The probability of `outcome` (0 when the chart never gives it).
pub(super) fn p(odds: &[(String, Ratio)], outcome: &str) -> Ratio {
    odds.iter()
        .find(|(o, _)| o == outcome)
        .map_or(Ratio::ZERO, |(_, r)| *r)
}

pub(super) fn r(n: i64, d: i64) -> Ratio {
    Ratio::new(n as _, d as _)
}

// ---------------------------------------------------------------------------------------
// A game on a 72" × 48" table with the ruleset's Lua hooks.

pub(super) struct Table {
    pub(super) game: Game,
    pub(super) hooks: LuaHooks,
}

/// A game of `path` with a wood at x 44–56, y 18–28 and an orchard at x 12–22, y 20–27,
/// `options` (YAML flow entries) and `pieces` (YAML list lines).
pub(super) fn table_of(path: &str, options: &str, pieces: &str) -> Table {
    table_seeded(path, options, 0, pieces)
}

/// [`table_of`] with the scenario's dice seed (0: the default).
pub(super) fn table_seeded(path: &str, options: &str, seed: u64, pieces: &str) -> Table {
    let r = ruleset(path);
    let seed = if seed == 0 {
        String::new()
    } else {
        format!("seed: {seed}\n")
    };
    let text = format!(
        "scenario: t\n{seed}ruleset: {}\noptions: {{ {options} }}\nboard:\n  width: 72\n  height: 48\n  areas:\n    - {{ name: wood, terrain: woods, corners: [[44, 18], [56, 18], [56, 28], [44, 28]] }}\n    - {{ name: orchard, terrain: light_woods, corners: [[12, 20], [22, 20], [22, 27], [12, 27]] }}\nsides:\n  blue: {{ baseline: south }}\n  red: {{ baseline: north }}\npieces:\n{pieces}",
        r.spec.ruleset.value
    );
    let s = scenario_from_text("t.yaml", &text, &r).unwrap_or_else(|d| panic!("{d}\n{text}"));
    let mut hooks = LuaHooks::new(&r, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let game = s
        .start(None, &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    Table { game, hooks }
}

/// A game of the club's ruleset on a 72" × 48" table with the `areas` given (YAML flow
/// entries) and the dice seed `seed` (0: the default).
pub(super) fn table_with(areas: &[&str], seed: u64, pieces: &str) -> Table {
    let r = ruleset(CLUB);
    let areas: String = if areas.is_empty() {
        "  areas: []\n".to_owned()
    } else {
        let list: String = areas.iter().map(|a| format!("    - {a}\n")).collect();
        format!("  areas:\n{list}")
    };
    let seed = if seed == 0 {
        String::new()
    } else {
        format!("seed: {seed}\n")
    };
    let text = format!(
        "scenario: t\n{seed}ruleset: black-powder\nboard:\n  width: 72\n  height: 48\n{areas}sides:\n  blue: {{ baseline: south }}\n  red: {{ baseline: north }}\npieces:\n{pieces}"
    );
    let s = scenario_from_text("t.yaml", &text, &r).unwrap_or_else(|d| panic!("{d}\n{text}"));
    let mut hooks = LuaHooks::new(&r, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let game = s
        .start(None, &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    Table { game, hooks }
}

pub(super) fn table(pieces: &str) -> Table {
    table_of(CLUB, "", pieces)
}

pub(super) fn id(t: &Table, name: &str) -> PieceId {
    t.game.piece_by_name(name).expect("piece").id
}

pub(super) fn order(t: &Table, side: &str, action: Action) -> Order {
    Order {
        side: t.game.side_by_name(side).expect("side"),
        action,
    }
}

pub(super) fn apply(t: &mut Table, side: &str, action: Action) -> Result<Vec<Event>, Refusal> {
    let o = order(t, side, action);
    t.game.apply(&o, &mut t.hooks)
}

pub(super) fn move_to(
    t: &mut Table,
    side: &str,
    who: &str,
    x: f64,
    y: f64,
) -> Result<Vec<Event>, Refusal> {
    let to = Point::new(
        Len((x * 1000.0).round() as i64),
        Len((y * 1000.0).round() as i64),
    );
    let piece = id(t, who);
    apply(
        t,
        side,
        Action::MoveTo {
            piece,
            to,
            facing: None,
        },
    )
}

pub(super) fn act(
    t: &mut Table,
    side: &str,
    who: &str,
    action: &str,
    target: Option<&str>,
) -> Result<Vec<Event>, Refusal> {
    act_for(t, side, (who, action, target), &[])
}

/// [`act`] given for `intent` (what the order says it is for).
pub(super) fn act_for(
    t: &mut Table,
    side: &str,
    (who, action, target): (&str, &str, Option<&str>),
    intent: &[&str],
) -> Result<Vec<Event>, Refusal> {
    let action = t.game.rules().action_by_name(action).expect("action");
    let piece = id(t, who);
    let target = target.map(|n| id(t, n));
    apply(
        t,
        side,
        Action::Act {
            piece,
            action,
            target,
            intent: intent.iter().map(|i| (*i).to_owned()).collect(),
        },
    )
}

/// Ends phases until `side` is phasing in `phase` (both sides end `actor: both` phases).
pub(super) fn until_phase(t: &mut Table, side: &str, phase: &str) {
    for _ in 0..64 {
        let (name, phasing) = {
            let (def, phasing) = t.game.phase().expect("game over");
            (
                def.name.clone(),
                t.game.sides()[phasing.index()].name.clone(),
            )
        };
        if name == phase && phasing == side {
            return;
        }
        for s in ["blue", "red"] {
            let o = order(t, s, Action::EndPhase);
            let _ = t.game.apply(&o, &mut t.hooks);
            if t.game.phase().is_some_and(|(d, _)| d.name != name) {
                break;
            }
        }
    }
    panic!("never reached {side}'s {phase} phase");
}

pub(super) fn flag(t: &Table, who: &str, name: &str) -> bool {
    let rules = t.game.rules();
    let f = rules
        .flags
        .iter()
        .position(|f| f.name == name)
        .expect("flag");
    t.game
        .piece_by_name(who)
        .expect("piece")
        .flag(grognard_kernel::ids::FlagId(f as u16))
}

pub(super) fn counter(t: &Table, who: &str, name: &str) -> i32 {
    let rules = t.game.rules();
    let c = rules
        .counters
        .iter()
        .position(|c| c.name == name)
        .expect("counter");
    t.game
        .piece_by_name(who)
        .expect("piece")
        .counter(grognard_kernel::ids::CounterId(c as u16))
}

pub(super) fn mode(t: &Table, who: &str) -> String {
    let p = t.game.piece_by_name(who).expect("piece");
    t.game.rules().mode_name(p.mode).to_owned()
}

pub(super) fn at(t: &Table, who: &str) -> (f64, f64) {
    match t.game.piece_by_name(who).expect("piece").place {
        Place::Point { at, .. } => (at.x.0 as f64 / 1000.0, at.y.0 as f64 / 1000.0),
        _ => panic!("not on a table"),
    }
}

/// Outcomes of every roll of `chart` in `events`.
pub(super) fn rolls(events: &[Event], chart: &str) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { roll } if roll.chart == chart => Some(roll.outcome.clone()),
            Event::Acted {
                roll: Some(roll), ..
            } if roll.chart == chart => Some(roll.outcome.clone()),
            _ => None,
        })
        .collect()
}

pub(super) fn refused(result: Result<Vec<Event>, Refusal>) -> Refusal {
    match result {
        Ok(events) => panic!("expected a refusal, got {events:?}"),
        Err(r) => r,
    }
}

/// A blue line battalion and a red one 10" apart on the table (both facing each other).
pub(super) const FACE_OFF: &str = "  - { id: b1, side: blue, type: line_infantry, at: [30, 24], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 14], facing: 90, attributes: { brigade: 1 } }\n";

/// Gives `who` its moves through the command phase's order (the dice decide how many).
pub(super) fn ordered(t: &mut Table, commander: &str, who: &str) -> i32 {
    ordered_for(t, commander, who, &[])
}

/// [`ordered`] with the order given for `intent`.
pub(super) fn ordered_for(t: &mut Table, commander: &str, who: &str, intent: &[&str]) -> i32 {
    until_phase(t, "blue", "command");
    act_for(t, "blue", (commander, "order", Some(who)), intent).expect("order");
    counter(t, who, "moves")
}

// ---------------------------------------------------------------------------------------
// Files and the binary

pub(super) fn move_facing(
    t: &mut Table,
    who: &str,
    x: f64,
    y: f64,
    degrees: i32,
) -> Result<Vec<Event>, Refusal> {
    let to = Point::new(
        Len((x * 1000.0).round() as i64),
        Len((y * 1000.0).round() as i64),
    );
    let piece = id(t, who);
    apply(
        t,
        "blue",
        Action::MoveTo {
            piece,
            to,
            facing: Some(grognard_kernel::geometry::open::Angle::degrees(degrees)),
        },
    )
}

/// The value `input` had in the first roll of `chart` in `events`.
pub(super) fn roll_input(events: &[Event], chart: &str, input: &str) -> Option<i32> {
    events.iter().find_map(|e| {
        let roll = match e {
            Event::Rolled { roll }
            | Event::Acted {
                roll: Some(roll), ..
            } => roll,
            _ => return None,
        };
        if roll.chart != chart {
            return None;
        }
        roll.inputs
            .iter()
            .find(|(name, _)| name == input)
            .map(|(_, v)| *v)
    })
}

/// A blue brigade of four batteries (staff 12) and a distant red battalion.
pub(super) const GUNS: &str = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: heavy, side: blue, type: heavy_battery, at: [10, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 10, nation: 3 } }\n  - { id: light, side: blue, type: light_battery, at: [20, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 7, nation: 3 } }\n  - { id: horse, side: blue, type: horse_battery, at: [40, 40], facing: 270, mode: limbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: foot, side: blue, type: foot_battery, at: [50, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";

/// The mode id named `name`.
pub(super) fn mode_id(t: &Table, name: &str) -> grognard_kernel::ids::ModeId {
    let m = t
        .game
        .rules()
        .modes
        .iter()
        .position(|m| m.name == name)
        .expect("mode");
    grognard_kernel::ids::ModeId(m as u16)
}

/// Puts `who` in mode `name` by a `mode` order.
pub(super) fn set_mode(
    t: &mut Table,
    side: &str,
    who: &str,
    name: &str,
) -> Result<Vec<Event>, Refusal> {
    let piece = id(t, who);
    let mode = mode_id(t, name);
    apply(t, side, Action::Mode { piece, mode })
}

/// Where `who` faces, in whole degrees.
pub(super) fn facing_of(t: &Table, who: &str) -> i32 {
    match t.game.piece_by_name(who).expect("piece").place {
        Place::Point { facing, .. } => (facing.0 + 5) / 10 % 360,
        _ => panic!("not on a table"),
    }
}

/// The intent the first `Acted` event of `action` records.
pub(super) fn acted_intent(events: &[Event], action: &str) -> Vec<String> {
    events
        .iter()
        .find_map(|e| match e {
            Event::Acted {
                action: a, intent, ..
            } if a == action => Some(intent.clone()),
            _ => None,
        })
        .expect("an Acted event")
}

pub(super) const HORSE_GUNS: &str = "  - { id: bde, side: blue, type: brigadier, at: [40, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: horse, side: blue, type: horse_battery, at: [40, 40], facing: 270, mode: limbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: r1, side: red, type: line_infantry, at: [64, 3], facing: 90, attributes: { brigade: 1 } }\n";
