//! The commands. Exit codes: 0 ok, 1 a rule or validation error, 2 a usage error.
//!
//! [`run`] dispatches every command and turns its outcome into the exit code. This file
//! owns the commands of a game's rules read straight through: `validate`, `reach` (with
//! its "not moving now" note), `play` and `replay` (with writing a save), `roll` (a chart
//! with `--set` inputs and its gate notes), `edit` and `join` (opening the editor), and the
//! bare `grognard` with no command. The others live in their own modules: `view`, `legal`
//! and `measure` in `views.rs`, `sim` and `sim-merge` in `sim/`, `tune` in `tune/`,
//! `fuzz` in `fuzz.rs`, `chart`, `schema` and `show` in `lab.rs`, `diff` and `sheet` in
//! `tools.rs`, `serve` and the remote commands in `remote.rs`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use grognard_kernel::action::RollRecord;
use grognard_kernel::chart::ChartDef;
use grognard_kernel::dice::GameRng;
use grognard_kernel::game::{Game, Reach, roll_record};
use grognard_kernel::rules::Effect;
use grognard_kernel::state::work_out_amounts;
use grognard_rules::diag::Diagnostics;
use grognard_rules::load::{self, FileKind};
use grognard_rules::save::SaveFile;
use grognard_rules::suggest::did_you_mean;
use serde_json::json;

use crate::cli::{Cli, Command};
use crate::common::{
    Failure, Outcome, apply_orders, find_chart, hooks_for, input_index, parse_options, print_json,
    replay_save,
};
use crate::output;

/// Runs a parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    let Some(command) = cli.command else {
        return plain();
    };
    let result = match command {
        Command::Validate { paths, json } => validate(&paths, json),
        Command::Reach {
            scenario,
            unit,
            orders,
            json,
        } => reach(&scenario, &unit, orders.as_deref(), json),
        Command::Play {
            scenario,
            orders,
            policy,
            seed,
            options,
            save,
            side,
            explain,
            json,
        } => play(
            &scenario,
            orders.as_deref(),
            &policy,
            seed,
            &options,
            save.as_deref(),
            side.as_deref(),
            (explain, json),
        ),
        Command::View {
            file,
            orders,
            side,
            referee,
            json,
        } => crate::views::view(&file, orders.as_deref(), side.as_deref(), referee, json),
        Command::Fuzz {
            scenario,
            games,
            seed,
            repro,
            vary,
            json,
        } => crate::fuzz::fuzz(&scenario, games, seed, repro.as_deref(), json, vary),
        Command::Legal {
            scenario,
            orders,
            side,
            json,
        } => crate::views::legal(&scenario, orders.as_deref(), &side, json),
        Command::Replay { game, json } => replay(&game, json),
        Command::Measure {
            file,
            a,
            b,
            orders,
            side,
            json,
        } => crate::views::measure(&file, orders.as_deref(), (&a, &b), side.as_deref(), json),
        Command::Roll {
            ruleset,
            chart,
            set,
            actor,
            target,
            seed,
            json,
        } => roll(
            &ruleset,
            &chart,
            (&set, (actor.as_deref(), target.as_deref())),
            seed,
            json,
        ),
        Command::Chart {
            ruleset,
            chart,
            set,
            actor,
            target,
            against,
            json,
        } => crate::lab::chart(
            &ruleset,
            &chart,
            &set,
            (actor.as_deref(), target.as_deref()),
            against.as_deref(),
            json,
        ),
        Command::Show { ruleset, json } => crate::lab::show(&ruleset, json),
        Command::Schema { kind } => crate::lab::schema(&kind),
        Command::Diff { a, b, json } => crate::tools::diff(&a, &b, json),
        Command::Sim(flags) => crate::sim::sim(&crate::sim::SimArgs::of(&flags)),
        Command::SimMerge { parts, json } => crate::sim::merge(&parts, json),
        Command::Tune(flags) => crate::tune::tune(&crate::tune::TuneArgs::of(&flags)),
        Command::TuneMerge { parts, out, json } => crate::tune::merge(&parts, out.as_deref(), json),
        Command::Sheet { ruleset, out } => crate::tools::sheet(&ruleset, &out),
        Command::Edit { ruleset, scenario } => edit(ruleset, scenario),
        Command::Serve {
            listen,
            db,
            create,
            options,
            policies,
            seed,
            host_token_file,
            open,
            allow_local_webhooks,
        } => crate::remote::serve(
            &crate::remote::ServeFlags {
                listen,
                db,
                host_token_file,
                open,
                allow_local_webhooks,
            },
            create.as_deref(),
            (&options, &policies, seed),
        ),
        Command::Remote { command } => crate::remote::remote(command),
        Command::Join { url, game, token } => join(
            &url,
            game.as_deref().unwrap_or_default(),
            token.as_deref().unwrap_or_default(),
        ),
    };
    exit_code(result)
}

/// The exit code of a command's outcome, its failure printed: 1 for a rule or validation
/// error, 2 for a usage error.
fn exit_code(result: Outcome) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Rules(message)) => {
            eprintln!("{}", message.trim_end());
            ExitCode::from(1)
        }
        Err(Failure::Usage(message)) => {
            eprintln!("error: {}", message.trim_end());
            ExitCode::from(2)
        }
    }
}

/// True when a desktop display is there to open a window on.
fn display_present() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty()))
}

/// Plain `grognard`: the editor on a desktop, the help otherwise.
fn plain() -> ExitCode {
    if display_present() {
        return match edit(None, None) {
            Ok(()) => ExitCode::SUCCESS,
            Err(Failure::Rules(m) | Failure::Usage(m)) => {
                eprintln!("{}", m.trim_end());
                ExitCode::from(1)
            }
        };
    }
    let mut command = <Cli as clap::CommandFactory>::command();
    out!("{}", command.render_long_help());
    ExitCode::SUCCESS
}

/// `grognard edit [RULESET] [SCENARIO]`; a single scenario file opens under its own ruleset.
fn edit(ruleset: Option<PathBuf>, scenario: Option<PathBuf>) -> Outcome {
    let (ruleset, scenario) = match (ruleset, scenario) {
        (Some(one), None) if load::sniff(&one) == Ok(FileKind::Scenario) => (None, Some(one)),
        other => other,
    };
    for p in ruleset.iter().chain(scenario.iter()) {
        load::sniff(p)?;
    }
    grognard_editor::run(grognard_editor::Options {
        ruleset,
        scenario,
        native_dialogs: true,
        root: None,
    })
    .map_err(|e| {
        Failure::Rules(format!(
            "cannot open the editor window: {e}\n(is a display available? `grognard --help` lists the other commands)"
        ))
    })
}

fn join(url: &str, game: &str, token: &str) -> Outcome {
    // A bad address or link is the user's to fix, not a window that failed to open.
    grognard_editor::remote::join_parts(url, game, token).map_err(Failure::Usage)?;
    grognard_editor::run_joined(url, game, token).map_err(|e| {
        Failure::Rules(format!(
            "cannot open the editor window: {e}\n(is a display available? `grognard remote view` shows a seat without one)"
        ))
    })
}

fn diagnostics_json(d: &Diagnostics) -> serde_json::Value {
    d.sorted()
        .iter()
        .map(|x| {
            json!({
                "file": x.location.as_ref().map(|l| l.file.to_string()),
                "line": x.location.as_ref().map(|l| l.line),
                "column": x.location.as_ref().map(|l| l.col),
                "message": x.message,
                "help": x.help,
            })
        })
        .collect()
}

fn validate(paths: &[PathBuf], json: bool) -> Outcome {
    let mut all = Diagnostics::default();
    let mut report = Vec::new();
    for path in paths {
        let result = load::sniff(path).and_then(|kind| match kind {
            FileKind::Ruleset => load::load_ruleset(path).and_then(|r| {
                // Loading the scripts checks every hook binding, at its line.
                hooks_for(&r)?;
                for w in &r.warnings {
                    eprintln!("warning: {w}");
                }
                Ok(format!("ruleset {}", r.rules.identity.name))
            }),
            FileKind::Scenario => load::load_scenario(path, None).and_then(|s| {
                let mut hooks = hooks_for(&s.ruleset)?;
                s.start(None, &[], hooks.as_mut())?;
                Ok(format!(
                    "scenario {} (ruleset {})",
                    s.spec.scenario.value, s.ruleset.rules.identity.name
                ))
            }),
            FileKind::Orders => load::load_orders(path).map(|o| format!("{} orders", o.len())),
            FileKind::OrderOfBattle => load::check_order_of_battle(path),
        });
        match result {
            Ok(what) => {
                report.push(json!({"path": load::display(path), "valid": true, "what": what}));
                if !json {
                    out!("ok: {} ({what})", load::display(path));
                }
            }
            Err(d) => {
                report.push(json!({"path": load::display(path), "valid": false, "diagnostics": diagnostics_json(&d)}));
                all.extend(d);
            }
        }
    }
    if json {
        print_json(&json!({ "files": report }));
    }
    if all.is_empty() {
        Ok(())
    } else if json {
        Err(Failure::Rules(String::new()))
    } else {
        Err(all.into())
    }
}

fn reach(scenario: &Path, unit: &str, orders: Option<&Path>, json: bool) -> Outcome {
    let s = load::load_scenario(scenario, None)?;
    let mut hooks = hooks_for(&s.ruleset)?;
    let mut game = s.start(None, &[], hooks.as_mut())?;
    if let Some(o) = orders {
        apply_orders(&mut game, hooks.as_mut(), o, None, |_, _| {}).map_err(|(_, f, _)| f)?;
    }
    let piece = game.piece_by_name(unit).cloned().ok_or_else(|| {
        let names: Vec<&str> = game
            .state()
            .pieces
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        let hint = did_you_mean(unit, names.iter().copied())
            .map_or_else(String::new, |s| format!(" (did you mean `{s}`?)"));
        Failure::Usage(format!(
            "no piece `{unit}` in {}{hint}",
            load::display(scenario)
        ))
    })?;
    let rules = game.rules();
    let kind = rules
        .piece_type(piece.kind)
        .map_or("?", |t| t.name.as_str());
    let mode = rules.mode_name(piece.mode);
    if let Some(result) = game.result() {
        let note = format!(
            "the game is over ({}): {} moves no more",
            result.why, piece.name
        );
        if json {
            print_json(&json!({
                "piece": piece.name, "type": kind, "mode": mode,
                "over": true, "note": note, "reach": [],
            }));
        } else {
            out!("{note}");
        }
        return Ok(());
    }
    let mut note = not_moving_note(&game, &piece);
    let result = game
        .reach_allowed(piece.id, hooks.as_mut())
        .map_err(|r| Failure::Rules(r.message))?;
    // An empty reach says why, when the piece itself may not move (moved, carried, held).
    if note.is_none() && matches!(&result, Reach::Cells(c) if c.is_empty()) {
        note = game.why_not_moving(piece.id);
    }
    if let (Some(n), false) = (&note, json) {
        out!("note: {n}");
    }
    match result {
        Reach::Cells(cells) => {
            if json {
                print_json(&json!({
                    "piece": piece.name, "type": kind, "mode": mode,
                    "over": false, "moving_now": note.is_none(), "note": note,
                    "from": piece.place.cell(),
                    "reach": cells.iter().map(|r| json!({"cell": [r.cell.col, r.cell.row], "cost": r.cost.to_string(), "cost_hundredths": r.cost.hundredths(), "path": cells.path(r).iter().map(|c| [c.col, c.row]).collect::<Vec<_>>()})).collect::<Vec<_>>(),
                }));
            } else {
                let from = piece
                    .place
                    .cell()
                    .map_or_else(String::new, |c| c.to_string());
                out!(
                    "{} ({kind}, {mode} mode) at {from} can reach {} places:",
                    piece.name,
                    cells.len()
                );
                let mut sorted: Vec<_> = cells.iter().collect();
                sorted.sort_by_key(|r| (r.cost, r.cell.row, r.cell.col));
                for r in sorted {
                    let p: Vec<String> = cells.path(r).iter().map(ToString::to_string).collect();
                    out!(
                        "  {:<10} cost {:<5} via {}",
                        r.cell.to_string(),
                        r.cost.to_string(),
                        p.join(" → ")
                    );
                }
            }
        }
        Reach::Radius(r) => {
            // No radius: no move is open to the piece now, as `legal` lists none; say why.
            let stands = (r.hundredths() == 0).then(|| {
                game.phase_keeps_from_moving(&piece).map_or_else(
                    || "it cannot move now: it has no move left, or the rules refuse each it could make".to_owned(),
                    |n| n.words,
                )
            });
            if json {
                let mut v = json!({"piece": piece.name, "type": kind, "mode": mode, "radius_inches": r.to_string(), "radius_hundredths": r.hundredths()});
                if let Some(note) = &stands {
                    v["note"] = json!(note);
                }
                print_json(&v);
            } else if let Some(note) = stands {
                out!("{} ({kind}, {mode} mode): {note}", piece.name);
            } else {
                out!(
                    "{} ({kind}, {mode} mode) can move up to {r}\" in a straight line over open ground",
                    piece.name
                );
            }
        }
    }
    Ok(())
}

/// Why `piece` is not moving at this point of the game, when it is not, as the kernel words
/// it ([`Game::phase_keeps_from_moving`]), and what the places `reach` still lists below are.
fn not_moving_note(game: &Game, piece: &grognard_kernel::piece::Piece) -> Option<String> {
    use grognard_kernel::game::NotMovingWhy;
    let note = game.phase_keeps_from_moving(piece)?;
    let name = &piece.name;
    let tail = match note.why {
        NotMovingWhy::SideWaits => {
            let side = (game.sides().get(piece.side.index())).map_or("?", |d| d.name.as_str());
            format!("where {name} could go once {side} moves, as the board stands")
        }
        NotMovingWhy::NoMoves => format!("where {name} could go in a phase that does"),
        NotMovingWhy::NotMover => "where it could go in a phase it moves in".to_owned(),
    };
    Some(format!("{}; the places below are {tail}", note.words))
}

#[allow(clippy::too_many_arguments)] // the command line's flags, one each
fn play(
    scenario: &Path,
    orders: Option<&Path>,
    policies: &[String],
    seed: Option<u64>,
    options: &[String],
    save: Option<&Path>,
    side: Option<&str>,
    (explain, json): (bool, bool),
) -> Outcome {
    if orders.is_none() && policies.is_empty() {
        return Err(Failure::Usage(
            "give an orders file (--orders FILE), a policy (--policy random|greedy|search|lua:FILE), or both"
                .to_owned(),
        ));
    }
    let options = parse_options(options)?;
    let s = load::load_scenario(scenario, None)?;
    let seats = if policies.is_empty() {
        None
    } else {
        let sides = grognard_play::tally::side_names(&s);
        Some(
            grognard_play::policy::seats(policies, &sides).map_err(|e| match e {
                grognard_play::policy::PolicyError::Unknown(m) => Failure::Usage(m),
                grognard_play::policy::PolicyError::Script(m) => Failure::Rules(m),
            })?,
        )
    };
    let mut hooks = hooks_for(&s.ruleset)?;
    let mut game = s.start(seed, &options, hooks.as_mut())?;
    let viewer = side
        .map(|name| crate::views::side_named(&game, name))
        .transpose()?;
    // A side's lines are its own log, written as it reads names. A deed's flag right after
    // the order that did it ("b1 dig", "b1 has dug in") is left out, as the editor's log
    // leaves it: the order's line already tells it (`--json` keeps every event).
    let mut printed = 0;
    let mut show = |g: &Game| {
        if json {
            return;
        }
        let log = match viewer {
            Some(v) => g.events_for(v),
            None => g.log(),
        };
        for (i, e) in log.iter().enumerate().skip(printed) {
            if !grognard_play::text::repeats_order(log, i) {
                out!("{}", output::log_line(g, viewer, e, i));
            }
        }
        printed = log.len();
    };
    show(&game);
    let result = match orders {
        Some(orders) => apply_orders(&mut game, hooks.as_mut(), orders, viewer, |g, _| show(g)),
        None => Ok(Vec::new()),
    };
    let (mut applied, mut failure, mut kind) = match result {
        Ok(applied) => (applied, None, None),
        Err((applied, f, k)) => (applied, Some(f), Some(output::refused_kind(k))),
    };
    if let (Some(seats), None) = (&seats, &failure) {
        let seed = game.state().rng.seed();
        let mut players =
            grognard_play::policy::players_for(seats, seed).map_err(Failure::Rules)?;
        let mut played = grognard_play::policy::Played {
            record: Some(Vec::new()),
            ..Default::default()
        };
        while played.orders < grognard_play::policy::MAX_POLICY_ORDERS {
            let actor = game.to_act().first().map(|s| s.index());
            if !grognard_play::policy::step(&mut game, hooks.as_mut(), &mut players, &mut played) {
                break;
            }
            // The search's account comes before the events its order caused.
            if explain && !json {
                let why = actor
                    .and_then(|i| players.get(i))
                    .and_then(Option::as_ref)
                    .and_then(grognard_play::Player::explanation);
                if let Some(why) = why {
                    out!("{}", why.to_string().trim_end());
                }
            }
            show(&game);
        }
        applied.extend(played.record.take().unwrap_or_default());
        if let Some(e) = played.error {
            failure = Some(Failure::Rules(e));
            kind = Some(output::POLICY_FAILED.to_owned());
        }
    }
    if json {
        print_json(&json!({
            "ruleset": game.rules().identity,
            "events": viewer.map_or_else(|| game.log().to_vec(), |v| game.side_events(v)),
            "refused": failure.as_ref().map(|f| match f {
                Failure::Rules(m) | Failure::Usage(m) => json!({"kind": kind, "message": m}),
            }),
        }));
    }
    if let (Some(path), Some(v)) = (save, viewer) {
        let file = grognard_rules::save::side_save(&game, v, &s.spec.scenario.value, &applied);
        write_save(path, &file)?;
        if !json {
            out!(
                "saved {}'s redacted view to {}",
                file.side,
                load::display(path)
            );
        }
    } else if let Some(path) = save {
        let file = SaveFile::of(&game, &s, path, applied);
        write_save(path, &file)?;
        if !json {
            out!("saved to {}", load::display(path));
        }
    }
    match failure {
        Some(f) => Err(f),
        None => Ok(()),
    }
}

fn replay(path: &Path, json: bool) -> Outcome {
    let (game, save) = replay_save(path)?;
    if json {
        print_json(&json!({
            "verified": true,
            "orders": save.orders.len(),
            "events": game.log().len(),
            "result": game.result(),
        }));
    } else {
        out!(
            "replay verified: {} orders reproduce all {} events of {}",
            save.orders.len(),
            game.log().len(),
            load::display(path)
        );
        if let Some(r) = game.result() {
            out!("result: {}", r.why);
        }
    }
    Ok(())
}

/// Replays a save and checks every event; the game as it ended.
/// Writes a save (full or a side's) as pretty JSON.
fn write_save(path: &Path, file: &impl serde::Serialize) -> Outcome {
    let text = serde_json::to_string_pretty(file).map_err(|e| Failure::Rules(e.to_string()))?;
    std::fs::write(path, text).map_err(|e| {
        Failure::Rules(format!(
            "{}: cannot write the save: {e}",
            load::display(path)
        ))
    })
}

/// Chart inputs by index, each with its value.
type InputValues = Vec<(usize, i32)>;

/// `roll`'s `--set NAME=VALUE`s, by input index, as `chart` takes them: an input's value
/// (`on`/`off` for 1/0), or a designer unit (`distance=5`, `inches=48.5`) as the value each
/// distance input reads for it. Also a line per unit saying what it reached.
fn parse_sets(
    r: &load::Ruleset,
    chart: &ChartDef,
    set: &[String],
) -> Result<(InputValues, Vec<String>), Failure> {
    use crate::lab_units::{UNITS, parse_unit_values, resolve_set, unit_text};
    let mut given = Vec::new();
    let mut lines = Vec::new();
    for s in set {
        let (name, value) = s
            .split_once('=')
            .ok_or_else(|| Failure::Usage(format!("--set {s}: expected NAME=VALUE")))?;
        if UNITS.contains(&name) && !chart.inputs.iter().any(|x| x.name == name) {
            let values =
                parse_unit_values(value).map_err(|m| Failure::Usage(format!("--set {s}: {m}")))?;
            let [v] = values.as_slice() else {
                return Err(Failure::Usage(format!(
                    "--set {s}: a roll takes one value (`chart` shows the odds over a range)"
                )));
            };
            given.extend(resolve_set(r, chart, name, *v)?);
            lines.extend(unit_text(r, chart, name, *v).map(|t| format!("{name}: {t}")));
            continue;
        }
        let i = input_index(chart, name)?;
        let v = match value {
            "on" | "true" | "yes" => 1,
            "off" | "false" | "no" => 0,
            v => v
                .parse::<i32>()
                .map_err(|_| Failure::Usage(format!("--set {s}: `{v}` is not a whole number")))?,
        };
        given.push((i, v));
    }
    Ok((given, lines))
}

/// A note for each `--set NAME=VALUE` that the input's `with:`/`without:` gate overrides:
/// the value the roll reads (`inputs`) is not the one given (the last, where one is given
/// twice), as `chart` says it.
fn gate_notes(chart: &ChartDef, from_set: &[(usize, i32)], inputs: &[i32]) -> Vec<String> {
    let open = crate::lab_gates::ungated(chart, &[from_set.to_vec()]);
    let open = open.first().map_or(&[][..], Vec::as_slice);
    let mut notes = Vec::new();
    for (k, &(i, v)) in from_set.iter().enumerate() {
        if from_set[k + 1..].iter().any(|(j, _)| *j == i) {
            continue;
        }
        let (Some(input), Some(now), Some(was)) = (chart.inputs.get(i), inputs.get(i), open.get(i))
        else {
            continue;
        };
        if let Some(gate) = crate::lab_gates::gate_text(chart, i).filter(|_| now != was) {
            let name = &input.name;
            notes.push(format!(
                "note: --set {name}={v} is overridden by its gate ({gate}): {name} reads {now}"
            ));
        }
    }
    notes
}

fn roll(
    ruleset: &Path,
    chart_name: &str,
    (set, pieces): (&[String], (Option<&str>, Option<&str>)),
    seed: Option<u64>,
    json: bool,
) -> Outcome {
    let r = load::load_ruleset(ruleset)?;
    let rules = &r.rules;
    let (id, chart) = find_chart(rules, chart_name)?;
    let (mut given, converted) = parse_sets(&r, chart, set)?;
    let from_set = given.clone();
    // The piece types' attributes and modes fill the inputs --set leaves alone.
    let (from_types, lines) = crate::lab::piece_type_inputs(&r, chart, pieces)?;
    for (i, v) in from_types {
        if !given.iter().any(|(g, _)| *g == i) {
            given.push((i, v));
        }
    }
    // Optional rules read their defaults in this ruleset, as in a game.
    for (i, v) in grognard_rules::sheet::option_inputs(&r, chart) {
        if !given.iter().any(|(g, _)| *g == i) {
            given.push((i, v));
        }
    }
    let inputs = chart.input_values(&given);
    // A `--set` its gate overrides is said to be, as `chart` says it: the roll reads the
    // gated value, and the printed inputs show that value.
    let gated = gate_notes(chart, &from_set, &inputs);
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mut rng = GameRng::new(seed);
    let resolution = chart.resolve(&rules.dice, &inputs, &mut rng);
    let record = roll_record(
        rules,
        id,
        "roll from the command line",
        &inputs,
        &resolution,
    );
    // Each action that works amounts out of this chart shows them, as its roll in a game
    // would (`... → 3 hits`).
    let mut by_action: Vec<(String, RollRecord)> = Vec::new();
    for action in rules.actions.iter().filter(|a| a.chart == Some(id)) {
        let computes = action
            .effects
            .iter()
            .flatten()
            .any(|e| matches!(e, Effect::AddComputed { .. }));
        if !computes {
            continue;
        }
        let effects = action
            .effects
            .get(resolution.outcome)
            .map_or(&[][..], Vec::as_slice);
        let mut explained = record.clone();
        let _ = work_out_amounts(rules, chart, &inputs, &resolution, effects, &mut explained);
        by_action.push((action.name.clone(), explained));
    }
    if json {
        let amounts: Vec<serde_json::Value> = by_action
            .iter()
            .map(|(a, r)| json!({"action": a, "amounts": r.amounts}))
            .collect();
        print_json(
            &json!({"seed": seed, "roll": record, "amounts": amounts, "converted": converted, "from_types": lines, "gated": gated}),
        );
    } else {
        let inputs: Vec<String> = record
            .inputs
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        if !inputs.is_empty() {
            out!("inputs: {}", inputs.join(", "));
        }
        for line in converted.iter().chain(&lines).chain(&gated) {
            out!("{line}");
        }
        let mut lines: Vec<String> = by_action
            .iter()
            .map(|(a, r)| {
                let line = output::roll(r);
                if by_action.len() > 1 {
                    format!("{line} (action {a})")
                } else {
                    line
                }
            })
            .collect();
        if lines.is_empty() {
            lines.push(output::roll(&record));
        }
        lines.dedup();
        for line in lines {
            out!("{line}");
        }
        out!("(seed {seed})");
    }
    Ok(())
}
