//! `grognard view`, `grognard legal` and the per-side faces of `play`: what one side may
//! see, and what it may do.

use std::path::Path;

use grognard_kernel::action::Order;
use grognard_kernel::game::Game;
use grognard_kernel::hooks::Hooks;
use grognard_kernel::ids::SideId;
use grognard_kernel::piece::Place;
use grognard_rules::load;
use grognard_rules::model::OrderSpec;
use grognard_rules::orders::describe_order_as;
use serde_json::json;

use crate::common::{
    Failure, Outcome, apply_orders, hooks_for, print_json, replay_save, side_save_in,
    side_save_refusal,
};

/// The side named `name`, or a usage error listing the sides.
pub(crate) fn side_named(game: &Game, name: &str) -> Result<SideId, Failure> {
    game.side_by_name(name).ok_or_else(|| {
        let names: Vec<&str> = game.sides().iter().map(|s| s.name.as_str()).collect();
        Failure::Usage(format!(
            "no side `{name}`; the sides are {}",
            names.join(", ")
        ))
    })
}

/// A game from a scenario, with its hooks, after playing `orders` if given.
/// With `side`, that side's orders are read as its seat reads them.
fn scenario_game(
    file: &Path,
    orders: Option<&Path>,
    side: Option<&str>,
) -> Result<(Game, Box<dyn Hooks>), Failure> {
    let s = load::load_scenario(file, None)?;
    let mut hooks = hooks_for(&s.ruleset)?;
    let mut game = s.start(None, &[], hooks.as_mut())?;
    if let Some(o) = orders {
        let viewer = side.map(|n| side_named(&game, n)).transpose()?;
        apply_orders(&mut game, hooks.as_mut(), o, viewer, |_, _| {}).map_err(|(_, f, _)| f)?;
    }
    Ok((game, hooks))
}

/// A game from a scenario (plus orders) or from a save.
fn open_game(file: &Path, orders: Option<&Path>, side: Option<&str>) -> Result<Game, Failure> {
    let is_save = file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if is_save {
        if orders.is_some() {
            return Err(Failure::Usage(
                "--orders goes with a scenario; a save already holds its orders".into(),
            ));
        }
        return replay_save(file).map(|(game, _)| game);
    }
    scenario_game(file, orders, side).map(|(game, _)| game)
}

/// `grognard view`.
pub(crate) fn view(
    file: &Path,
    orders: Option<&Path>,
    side: Option<&str>,
    referee: bool,
    json: bool,
) -> Outcome {
    if let Some(shown) = side_save_view(file, orders, side, json)? {
        print_json(&shown);
        return Ok(());
    }
    let game = open_game(file, orders, side)?;
    match (side, referee) {
        (Some(_), true) | (None, false) => Err(Failure::Usage(
            "give one of --side SIDE or --referee".into(),
        )),
        (Some(name), false) => {
            let side = side_named(&game, name)?;
            let view = game.view(side);
            if json {
                print_json(&json!({"view": view, "events": game.side_events(side)}));
            } else {
                let text = grognard_play::text::side_view(&game, side);
                out!("{}", text.strip_suffix('\n').unwrap_or(&text));
            }
            Ok(())
        }
        (None, true) => {
            if json {
                print_json(&json!({
                    "state": game.state(),
                    "events": game.log(),
                    "views": (0..game.sides().len()).map(|i| game.view(SideId(i as u8))).collect::<Vec<_>>(),
                }));
            } else {
                let text = grognard_play::text::referee_view(&game);
                out!("{}", text.strip_suffix('\n').unwrap_or(&text));
            }
            Ok(())
        }
    }
}

/// `view SAVE --side S --json` of S's own redacted save: the view and log it holds, as
/// `view --side S --json` printed them when it was written (no game is rebuilt). Any other
/// read of such a save is refused in plain words; `None` when `file` is not one.
fn side_save_view(
    file: &Path,
    orders: Option<&Path>,
    side: Option<&str>,
    json: bool,
) -> Result<Option<serde_json::Value>, Failure> {
    if orders.is_some()
        || !file
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        return Ok(None);
    }
    let Ok(bytes) = grognard_rules::load::read_limited(file, &Default::default()) else {
        return Ok(None);
    };
    let Some(save) = side_save_in(&bytes) else {
        return Ok(None);
    };
    if json && side == Some(save.side.as_str()) {
        return Ok(Some(json!({"view": save.view, "events": save.events})));
    }
    Err(side_save_refusal(file, &bytes, &save))
}

/// `grognard legal`: every order `side` may give now, in the orders-file syntax.
pub(crate) fn legal(scenario: &Path, orders: Option<&Path>, side: &str, json: bool) -> Outcome {
    let (game, mut hooks) = scenario_game(scenario, orders, Some(side))?;
    let side = side_named(&game, side)?;
    // A hook that cannot answer (its budget used up, a wrong type) is a broken ruleset:
    // said so, with the hook and the script's line, rather than listing fewer orders.
    let list = game
        .legal_orders_checked(side, hooks.as_mut())
        .map_err(|fault| {
            let name = game
                .sides()
                .get(side.index())
                .map_or_else(String::new, |d| d.name.clone());
            Failure::Rules(format!(
                "{name}'s legal orders cannot be listed: {} failed: {fault}",
                fault.hook
            ))
        })?;
    let specs: Vec<OrderSpec> = list
        .iter()
        .map(|action| {
            let order = Order {
                side,
                action: action.clone(),
            };
            describe_order_as(&game, &order, Some(side))
        })
        .collect();
    let name = |s: SideId| {
        game.sides()
            .get(s.index())
            .map_or_else(String::new, |d| d.name.clone())
    };
    let to_act: Vec<String> = game.to_act().into_iter().map(name).collect();
    let phase = game.phase().map(|(p, _)| p.name.clone());
    if json {
        print_json(&json!({
            "side": name(side),
            "turn": game.state().turn,
            "phase": phase,
            "to_act": to_act,
            "orders": specs,
        }));
        return Ok(());
    }
    match &phase {
        Some(p) => out!("turn {} · {p} phase", game.state().turn),
        None => out!("the game is over"),
    }
    if specs.is_empty() {
        let who = if to_act.is_empty() {
            "nobody".to_owned()
        } else {
            to_act.join(" and ")
        };
        out!("{} may give no order now: {who} acts", name(side));
        return Ok(());
    }
    let plural = if specs.len() == 1 { "" } else { "s" };
    out!("{} may give {} order{plural}:", name(side), specs.len());
    for spec in &specs {
        out!(
            "- {}",
            flow_yaml(&serde_json::to_value(spec).unwrap_or_default())
        );
    }
    Ok(())
}

/// A JSON value as YAML flow style, as orders files write it:
/// `{ side: blue, move: { piece: b1, path: [[4, 5]] } }`.
fn flow_yaml(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            // The order the example orders files use: who, then what, then where.
            const FIRST: [&str; 10] = [
                "side", "piece", "action", "target", "intent", "path", "to", "toward", "facing",
                "mode",
            ];
            let rank = |k: &str| FIRST.iter().position(|f| *f == k).unwrap_or(FIRST.len());
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort_by_key(|k| (rank(k), (*k).clone()));
            let items: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{k}: {}", flow_yaml(&m[k])))
                .collect();
            format!("{{ {} }}", items.join(", "))
        }
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(flow_yaml).collect();
            format!("[{}]", items.join(", "))
        }
        Value::String(s) => {
            let plain = !s.is_empty()
                && s.chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
                && !matches!(
                    s.as_str(),
                    "true" | "false" | "null" | "yes" | "no" | "on" | "off"
                )
                && s.parse::<f64>().is_err();
            if plain { s.clone() } else { v.to_string() }
        }
        other => other.to_string(),
    }
}

/// `grognard measure FILE A B`: what a player reads off the table between two pieces.
/// Without `side`, as the referee measures it (every piece where it really is, by scenario
/// id), and the text says so. With `side`, as that side knows the table: pieces named as
/// its orders name them (`#N` for a marker), an enemy whose place it does not know refused,
/// a marker measured as a marker (place and facing: distance and arcs), lines of sight
/// judged with the pieces it knows of, and no sight or sighting level read from a marker.
/// Between footprints the distance runs edge to edge (centre to centre for units without
/// one), arcs are judged from the edges.
pub(crate) fn measure(
    file: &Path,
    orders: Option<&Path>,
    (a, b): (&str, &str),
    side: Option<&str>,
    json: bool,
) -> Outcome {
    use grognard_kernel::geometry::Arc;
    let game = open_game(file, orders, side)?;
    let viewer = side.map(|n| side_named(&game, n)).transpose()?;
    let piece = |name: &str| {
        let p = match viewer {
            None => game.piece_by_name(name).ok_or_else(|| {
                let names = game.state().pieces.iter().map(|p| p.name.as_str());
                let hint = grognard_rules::suggest::did_you_mean(name, names)
                    .map_or_else(String::new, |s| format!("; did you mean `{s}`?"));
                Failure::Usage(format!("no piece `{name}`{hint}"))
            })?,
            Some(v) => sided_piece(&game, v, name).ok_or_else(|| {
                Failure::Usage(format!(
                    "no piece `{name}` known to {} (name a marker by its handle, `#N`)",
                    side.unwrap_or_default()
                ))
            })?,
        };
        if p.on_board() {
            Ok(p)
        } else {
            Err(Failure::Rules(format!("{name} is not on the board")))
        }
    };
    let (pa, pb) = (piece(a)?, piece(b)?);
    let arc = |x: Option<Arc>| match x {
        Some(Arc::Front) => "front",
        Some(Arc::Flank) => "flank",
        Some(Arc::Rear) => "rear",
        Some(Arc::Same) | None => "same place",
    };
    // A marker the side has not identified: what it is, and so what it sees, is not known.
    let marker = |p: &grognard_kernel::piece::Piece| {
        viewer.is_some_and(|v| game.order_name_as(Some(v), p.id).starts_with('#'))
    };
    let (ma, mb) = (marker(pa), marker(pb));
    // A piece whose type has no facing (`faces: false`: a commander) has no arcs; a marker
    // is measured by the facing it shows, whatever it hides.
    let faces = |p: &grognard_kernel::piece::Piece, m: bool| {
        m || game.rules().piece_type(p.kind).is_none_or(|t| t.faces)
    };
    let arc_ab = faces(pa, ma).then(|| arc(game.bearing(pa, pb)));
    let arc_ba = faces(pb, mb).then(|| arc(game.bearing(pb, pa)));
    let line = |x: &grognard_kernel::piece::Piece, y: &grognard_kernel::piece::Piece| match viewer {
        None => Some(game.clear_sight(game.state(), x, y)),
        Some(_) if marker(x) => None,
        Some(v) => Some(game.clear_sight_as(game.state(), x, y, v)),
    };
    let (sees_ab, sees_ba) = (line(pa, pb), line(pb, pa));
    // Under sighting rules what a piece learns comes from the charts, not the bare line:
    // say the level each reads of the other (enemies only), so the tape agrees with them.
    let sighting = game.sighting().is_some() && pa.side != pb.side;
    let level = |x, y| {
        (!ma && !mb)
            .then(|| game.sighting_level(game.state(), x, y))
            .flatten()
    };
    let (sights_ab, sights_ba) = (level(pa, pb), level(pb, pa));
    let (distance, rule_distance, unit) = tape_distance(&game, pa, pb);
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    if json {
        print_json(&json!({
            "view": side.unwrap_or("referee"),
            "a": a, "b": b, "unit": unit,
            "distance": round(distance), "rule_distance": round(rule_distance),
            "a_sees_b": sees_ab, "b_sees_a": sees_ba,
            "arc_of_b_from_a": arc_ab, "arc_of_a_from_b": arc_ba,
            "a_sights_b": sights_ab, "b_sights_a": sights_ba,
        }));
        return Ok(());
    }
    print_tape(&Tape {
        game: &game,
        names: (a, b),
        pieces: (pa, pb),
        side,
        markers: (ma, mb),
        sighting,
        distance: (distance, rule_distance, unit),
        arcs: (arc_ab, arc_ba),
        lines: (sees_ab, sees_ba),
        levels: (sights_ab, sights_ba),
    });
    Ok(())
}

/// What `measure` found, for its text.
struct Tape<'g, 'n> {
    game: &'g Game,
    names: (&'n str, &'n str),
    pieces: (
        &'g grognard_kernel::piece::Piece,
        &'g grognard_kernel::piece::Piece,
    ),
    side: Option<&'n str>,
    markers: (bool, bool),
    sighting: bool,
    distance: (f64, f64, &'static str),
    arcs: (Option<&'static str>, Option<&'static str>),
    lines: (Option<bool>, Option<bool>),
    levels: (Option<&'g str>, Option<&'g str>),
}

/// `measure`'s text: whose view it is, the distance, the arcs and the lines of sight.
fn print_tape(t: &Tape) {
    let game = t.game;
    let (a, b) = t.names;
    let (pa, pb) = t.pieces;
    let side = t.side;
    let (ma, mb) = t.markers;
    let sighting = t.sighting;
    let (distance, rule_distance, unit) = t.distance;
    let (arc_ab, arc_ba) = t.arcs;
    let (sees_ab, sees_ba) = t.lines;
    let (sights_ab, sights_ba) = t.levels;
    let yes = |x: Option<bool>| match x {
        Some(true) => "yes",
        Some(false) => "no",
        None => "not known (a marker)",
    };
    let clear = |x: Option<bool>| match x {
        Some(true) => "clear",
        Some(false) => "blocked",
        None => "not known (a marker)",
    };
    match side {
        None => out!(
            "referee's view: every piece as it really is, by scenario id (a side's view: --side SIDE)"
        ),
        Some(s) => out!(
            "{s}'s view: pieces as {s} knows them, lines of sight judged with the pieces it knows of"
        ),
    }
    for (name, m) in [(a, ma), (b, mb)] {
        if m {
            out!(
                "{name} is a marker to {}: measured by its place and facing only (what it is, and what it sees, are not known)",
                side.unwrap_or_default()
            );
        }
    }
    if unit == "inches" {
        let points = [pa, pb]
            .iter()
            .all(|p| game.placed(p).is_some_and(|f| f.is_point()));
        out!(
            "{a} to {b}: {:.2}\" on the table, {:.2}\" in rule inches ({})",
            distance,
            rule_distance,
            if points {
                "centre to centre"
            } else {
                "edge to edge"
            }
        );
    }
    // A zero distance has no bearing (the kernel's `same place`): say where the two stand
    // (the twenty-first Hex Command outside audit's remark), not an arc.
    let cell = match unit {
        "hexes" => "hex",
        "squares" => "square",
        _ => "spot",
    };
    if unit != "inches" {
        // One step is `1 hex`, not `1 hexes` (the twenty-fourth outside audit's remark).
        let unit = if (distance - 1.0).abs() < f64::EPSILON {
            cell
        } else {
            unit
        };
        out!("{a} to {b}: {distance} {unit}");
    }
    let arcs = |x: &str, y: &str, arc: Option<&str>| match arc {
        Some("same place") => format!("{y} is on the same {cell} as {x}"),
        Some(arc) => format!("{y} is in {x}'s {arc} arc"),
        None => format!("{x} has no facing, so no arcs"),
    };
    out!("{}; {}", arcs(a, b, arc_ab), arcs(b, a, arc_ba));
    if sighting {
        let level =
            |l: Option<&str>| l.map_or_else(|| "no level".to_owned(), |l| format!("level {l}"));
        out!(
            "line of sight {a} to {b}: {}; {b} to {a}: {}",
            clear(sees_ab),
            clear(sees_ba)
        );
        if !ma && !mb {
            out!(
                "sighting by the charts (before any roll): {a} sights {b} at {}; {b} sights {a} at {}",
                level(sights_ab),
                level(sights_ba)
            );
        }
    } else {
        out!(
            "{a} sees {b}: {}; {b} sees {a}: {}",
            yes(sees_ab),
            yes(sees_ba)
        );
    }
}

/// The distance between two pieces: on the table and in rule inches (open table), or in
/// grid steps (twice), with the unit's name.
fn tape_distance(
    game: &Game,
    pa: &grognard_kernel::piece::Piece,
    pb: &grognard_kernel::piece::Piece,
) -> (f64, f64, &'static str) {
    match (&pa.place, &pb.place, game.board().grid()) {
        (Place::Point { .. }, Place::Point { .. }, _) => {
            let gap = game
                .table_gap(pa, pb)
                .unwrap_or(grognard_kernel::geometry::open::Len(0));
            #[allow(clippy::cast_precision_loss)] // thousandths of an inch on a table
            let table = gap.0 as f64 / 1000.0;
            let rule = match &game.rules().geometry {
                grognard_kernel::rules::GeometryRules::Open { scale } if scale.num > 0 => {
                    table * f64::from(scale.den) / f64::from(scale.num)
                }
                _ => table,
            };
            (table, rule, "inches")
        }
        _ => {
            let steps = f64::from(game.distance(pa, pb).unwrap_or(0));
            let unit = match game.board().grid() {
                Some(grognard_kernel::geometry::Grid::Hex(_)) => "hexes",
                _ => "squares",
            };
            (steps, steps, unit)
        }
    }
}

/// The piece `side` names `name` (as its orders do: its own pieces and identified enemies
/// by name, other enemies by handle `#N`), if that side knows where it is now.
fn sided_piece<'g>(
    game: &'g Game,
    side: SideId,
    name: &str,
) -> Option<&'g grognard_kernel::piece::Piece> {
    let id = match name.strip_prefix('#') {
        Some(n) => game.piece_by_handle(side, n.parse().ok()?)?,
        None => game
            .piece_by_name(name)
            .map(|p| p.id)
            .filter(|id| game.order_name_as(Some(side), *id) == name)?,
    };
    let p = game.state().pieces.get(id.index())?;
    let placed = p.side == side
        || game.sighting().is_none()
        || game
            .state()
            .knowledge
            .get(side.index())
            .is_some_and(|k| k.knows_position(id));
    placed.then_some(p)
}
