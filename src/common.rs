//! What every command shares: how a command fails ([`Failure`], [`Outcome`]), JSON output,
//! the Lua hooks for a ruleset, playing an orders file on a game, replaying a save, and
//! finding a chart and its inputs by name, and `--option` values. The command modules
//! (`commands`, `views`, `tools`, `lab`, `remote`) all build on this; it imports none of
//! them.

use std::path::Path;

use grognard_kernel::chart::ChartDef;
use grognard_kernel::game::Game;
use grognard_kernel::hooks::{Hooks, NoHooks};
use grognard_lua::{Limits as LuaLimits, LuaHooks};
use grognard_rules::diag::{Diagnostic, Diagnostics};
use grognard_rules::load;
use grognard_rules::orders::{describe_order, resolve_order, resolve_order_as};
use grognard_rules::save::{
    SAVE_FORMAT, SIDE_SAVE_FORMAT, SaveFile, SideSaveFile, first_divergence,
};
use grognard_rules::suggest::did_you_mean;
use grognard_rules::yaml::Limits;

/// Why a command failed.
pub(crate) enum Failure {
    /// Bad files or a refused action: exit 1.
    Rules(String),
    /// The command line was wrong: exit 2.
    Usage(String),
}

impl From<Diagnostics> for Failure {
    fn from(d: Diagnostics) -> Self {
        Self::Rules(d.to_string())
    }
}

pub(crate) type Outcome = Result<(), Failure>;

/// The hooks a ruleset binds: its Lua scripts in a fresh sandbox, or the data's own answers.
pub(crate) fn hooks_for(ruleset: &load::Ruleset) -> Result<Box<dyn Hooks>, Diagnostics> {
    if LuaHooks::wanted(ruleset) {
        Ok(Box::new(LuaHooks::new(ruleset, LuaLimits::default())?))
    } else {
        Ok(Box::new(NoHooks))
    }
}

pub(crate) fn print_json(value: &serde_json::Value) {
    out!(
        "{}",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

/// Where [`apply_orders`] stopped: the orders applied before, the failure, and the kernel's
/// kind of refusal when the rules refused an order (`None` when the file could not be read
/// or an order named what the game does not have: the rules never saw it).
pub(crate) type Stopped = (
    Vec<grognard_rules::model::OrderSpec>,
    Failure,
    Option<grognard_kernel::action::RefusalKind>,
);

/// Plays `orders` on `game`; returns the orders applied. Stops at the first refusal. With
/// a `viewer` (`--side`), that side's orders are read as its seat reads them
/// (`resolve_order_as`): a name it has not been shown is as unknown as no name at all.
pub(crate) fn apply_orders(
    game: &mut Game,
    hooks: &mut dyn Hooks,
    orders_path: &Path,
    viewer: Option<grognard_kernel::ids::SideId>,
    mut each: impl FnMut(&Game, &[grognard_kernel::action::Event]),
) -> Result<Vec<grognard_rules::model::OrderSpec>, Stopped> {
    let orders = load::load_orders(orders_path).map_err(|d| (Vec::new(), d.into(), None))?;
    let mut applied = Vec::new();
    for located in &orders {
        let at = &located.location;
        let as_side = viewer.filter(|v| game.side_by_name(&located.value.side) == Some(*v));
        let resolved = match as_side {
            Some(v) => resolve_order_as(game, &located.value, Some(v)),
            None => resolve_order(game, &located.value),
        };
        let order = match resolved {
            Ok(o) => o,
            // One kind for every entry that does not resolve (`None`: `bad_orders`), on
            // purpose; the error's words say which name or value (designer-tools.md).
            Err(error) => {
                return Err((
                    applied,
                    Failure::Rules(Diagnostic::new(at.clone(), error.to_string()).to_string()),
                    None,
                ));
            }
        };
        match game.apply(&order, hooks) {
            Ok(events) => {
                each(game, &events);
                applied.push(describe_order(game, &order));
            }
            Err(refusal) => {
                let d = Diagnostic::new(at.clone(), format!("refused: {}", refusal.message));
                return Err((applied, Failure::Rules(d.to_string()), Some(refusal.kind)));
            }
        }
    }
    Ok(applied)
}

/// A side's redacted save (`play --side S --save`) read from `bytes`, if that is what they
/// hold: its format tag says so.
pub(crate) fn side_save_in(bytes: &[u8]) -> Option<SideSaveFile> {
    #[derive(serde::Deserialize)]
    struct Tag {
        format: Option<String>,
    }
    let tag: Tag = serde_json::from_slice(bytes).ok()?;
    (tag.format.as_deref() == Some(SIDE_SAVE_FORMAT))
        .then(|| serde_json::from_slice(bytes).ok())
        .flatten()
}

/// Why a side's redacted save cannot be replayed, and what can be read from it, at the line
/// of its format tag.
pub(crate) fn side_save_refusal(path: &Path, bytes: &[u8], save: &SideSaveFile) -> Failure {
    let text = String::from_utf8_lossy(bytes);
    let line = text
        .lines()
        .position(|l| l.contains("\"format\""))
        .map_or(1, |i| i + 1);
    let file = load::display(path);
    let side = &save.side;
    Failure::Rules(format!(
        "{file}:{line}: this is {side}'s own save of a game (written by `play --side {side} \
         --save`): it keeps only what {side} may know (its view, its log and its own orders), \
         with no seed and none of the enemy's orders, so the game cannot be replayed or rebuilt \
         for another read; `grognard view {file} --side {side} --json` prints the view and log it \
         holds. The referee's save (`play --save`, without --side) replays."
    ))
}

pub(crate) fn replay_save(path: &Path) -> Result<(Game, SaveFile), Failure> {
    let bytes =
        load::read_limited(path, &Limits::default()).map_err(|d| Failure::Rules(d.to_string()))?;
    if let Some(side_save) = side_save_in(&bytes) {
        return Err(side_save_refusal(path, &bytes, &side_save));
    }
    let save: SaveFile = serde_json::from_slice(&bytes).map_err(|e| {
        Failure::Rules(format!(
            "{}:{}:{}: not a grognard save: {e}",
            load::display(path),
            e.line(),
            e.column()
        ))
    })?;
    if save.format != SAVE_FORMAT {
        return Err(Failure::Rules(format!(
            "{}: save format `{}` is not supported (expected {SAVE_FORMAT})",
            load::display(path),
            save.format
        )));
    }
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let scenario_path = dir.join(&save.scenario.path);
    let ruleset_path = dir.join(&save.ruleset.path);
    let s = load::load_scenario(&scenario_path, Some(&ruleset_path))?;
    if s.ruleset.rules.identity.hash != save.ruleset.hash {
        return Err(Failure::Rules(format!(
            "{}: the game was played with ruleset `{}` {}, but {} is now {}: the ruleset changed, so the replay is refused",
            load::display(path),
            save.ruleset.name,
            &save.ruleset.hash[..save.ruleset.hash.len().min(12)],
            load::display(&ruleset_path),
            &s.ruleset.rules.identity.hash[..12.min(s.ruleset.rules.identity.hash.len())]
        )));
    }
    if s.hash != save.scenario.hash {
        return Err(Failure::Rules(format!(
            "{}: the scenario {} changed since the game was saved; the replay is refused",
            load::display(path),
            load::display(&scenario_path)
        )));
    }
    let options: Vec<(String, bool)> = save.options.iter().map(|(k, v)| (k.clone(), *v)).collect();
    let mut hooks = hooks_for(&s.ruleset)?;
    let mut game = s.start(Some(save.seed), &options, hooks.as_mut())?;
    for (i, spec) in save.orders.iter().enumerate() {
        let order = resolve_order(&game, spec).map_err(|m| {
            Failure::Rules(format!("{}: order {}: {m}", load::display(path), i + 1))
        })?;
        if let Err(r) = game.apply(&order, hooks.as_mut()) {
            return Err(Failure::Rules(format!(
                "{}: order {} was refused on replay: {}",
                load::display(path),
                i + 1,
                r.message
            )));
        }
    }
    if let Some(d) = first_divergence(&save.events, game.log()) {
        let show = |e: &Option<grognard_kernel::action::Event>| {
            e.as_ref().map_or_else(
                || "nothing".to_owned(),
                |e| serde_json::to_string(e).unwrap_or_default(),
            )
        };
        return Err(Failure::Rules(format!(
            "{}: the replay diverges at event {}: the save has {}, the replay produced {}",
            load::display(path),
            d.index + 1,
            show(&d.saved),
            show(&d.replayed)
        )));
    }
    Ok((game, save))
}

/// The index of the input `name` of `chart`, or a usage error with "did you mean".
pub(crate) fn input_index(chart: &ChartDef, name: &str) -> Result<usize, Failure> {
    chart
        .inputs
        .iter()
        .position(|x| x.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = chart.inputs.iter().map(|x| x.name.as_str()).collect();
            let hint = did_you_mean(name, names.iter().copied()).map_or_else(
                || format!("; inputs: {}", names.join(", ")),
                |s| format!("; did you mean `{s}`?"),
            );
            Failure::Usage(format!(
                "chart `{}` has no input `{name}`{hint}",
                chart.name
            ))
        })
}

/// The chart `name` of `rules`, or a usage error with "did you mean".
pub(crate) fn find_chart<'r>(
    rules: &'r grognard_kernel::rules::Rules,
    name: &str,
) -> Result<(grognard_kernel::ids::ChartId, &'r ChartDef), Failure> {
    let found = rules
        .chart_by_name(name)
        .and_then(|id| rules.chart(id).map(|c| (id, c)));
    found.ok_or_else(|| {
        let names: Vec<&str> = rules.charts.iter().map(|c| c.name.as_str()).collect();
        let hint = did_you_mean(name, names.iter().copied()).map_or_else(
            || format!("; charts: {}", names.join(", ")),
            |s| format!("; did you mean `{s}`?"),
        );
        Failure::Usage(format!(
            "ruleset `{}` has no chart `{name}`{hint}",
            rules.identity.name
        ))
    })
}

/// `--option NAME=on|off` values, in the order given (shared by `play`-like commands and
/// the remote client's `create`).
pub(crate) fn parse_options(options: &[String]) -> Result<Vec<(String, bool)>, Failure> {
    options
        .iter()
        .map(|o| {
            let (name, value) = o.split_once('=').ok_or_else(|| {
                Failure::Usage(format!("--option {o}: expected NAME=on or NAME=off"))
            })?;
            let on = match value {
                "on" | "true" | "yes" | "1" => true,
                "off" | "false" | "no" | "0" => false,
                _ => {
                    return Err(Failure::Usage(format!(
                        "--option {o}: expected on or off after ="
                    )));
                }
            };
            Ok((name.to_owned(), on))
        })
        .collect()
}
