//! The `black-powder` variant: the club amendments of seed 003 (`rulesets/black-powder.yaml`)
//! over our documented reading of the base game (`rulesets/black-powder-core.yaml`). Each
//! test cites the amendment it checks (`// 003 <section>: ...`) and asserts real outcomes:
//! exact odds of the charts through the kernel, games played through the rules + kernel API
//! with the ruleset's own Lua hooks, and the binary.

use grognard_kernel::Ratio;
use grognard_kernel::action::{Action, Event, Order, Refusal, RefusalKind};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::open::{Len, Point};
use grognard_kernel::ids::PieceId;
use grognard_kernel::piece::Place;
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::{Ruleset, load_ruleset, scenario_from_text};

use crate::util::{grognard, root};

const CORE: &str = "rulesets/black-powder-core.yaml";
const CLUB: &str = "rulesets/black-powder.yaml";

fn ruleset(path: &str) -> Ruleset {
    load_ruleset(&root().join(path)).unwrap_or_else(|d| panic!("{d}"))
}

/// Exact odds of each outcome of `chart` in `ruleset` with `inputs` (the rest defaulted).
fn odds(ruleset: &Ruleset, chart: &str, inputs: &[(&str, i32)]) -> Vec<(String, Ratio)> {
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
fn p(odds: &[(String, Ratio)], outcome: &str) -> Ratio {
    odds.iter()
        .find(|(o, _)| o == outcome)
        .map_or(Ratio::ZERO, |(_, r)| *r)
}

fn r(n: i64, d: i64) -> Ratio {
    Ratio::new(n as _, d as _)
}

// ---------------------------------------------------------------------------------------
// A game on a 72" × 48" table with the ruleset's Lua hooks.

struct Table {
    game: Game,
    hooks: LuaHooks,
}

/// A game of `path` with a wood at x 44–56, y 18–28 and an orchard at x 12–22, y 20–27,
/// `options` (YAML flow entries) and `pieces` (YAML list lines).
fn table_of(path: &str, options: &str, pieces: &str) -> Table {
    table_seeded(path, options, 0, pieces)
}

/// [`table_of`] with the scenario's dice seed (0: the default).
fn table_seeded(path: &str, options: &str, seed: u64, pieces: &str) -> Table {
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

fn table(pieces: &str) -> Table {
    table_of(CLUB, "", pieces)
}

fn id(t: &Table, name: &str) -> PieceId {
    t.game.piece_by_name(name).expect("piece").id
}

fn order(t: &Table, side: &str, action: Action) -> Order {
    Order {
        side: t.game.side_by_name(side).expect("side"),
        action,
    }
}

fn apply(t: &mut Table, side: &str, action: Action) -> Result<Vec<Event>, Refusal> {
    let o = order(t, side, action);
    t.game.apply(&o, &mut t.hooks)
}

fn move_to(t: &mut Table, side: &str, who: &str, x: f64, y: f64) -> Result<Vec<Event>, Refusal> {
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

fn act(
    t: &mut Table,
    side: &str,
    who: &str,
    action: &str,
    target: Option<&str>,
) -> Result<Vec<Event>, Refusal> {
    act_for(t, side, (who, action, target), &[])
}

/// [`act`] given for `intent` (what the order says it is for).
fn act_for(
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
fn until_phase(t: &mut Table, side: &str, phase: &str) {
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

fn flag(t: &Table, who: &str, name: &str) -> bool {
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

fn counter(t: &Table, who: &str, name: &str) -> i32 {
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

fn mode(t: &Table, who: &str) -> String {
    let p = t.game.piece_by_name(who).expect("piece");
    t.game.rules().mode_name(p.mode).to_owned()
}

fn at(t: &Table, who: &str) -> (f64, f64) {
    match t.game.piece_by_name(who).expect("piece").place {
        Place::Point { at, .. } => (at.x.0 as f64 / 1000.0, at.y.0 as f64 / 1000.0),
        _ => panic!("not on a table"),
    }
}

/// Outcomes of every roll of `chart` in `events`.
fn rolls(events: &[Event], chart: &str) -> Vec<String> {
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

fn refused(result: Result<Vec<Event>, Refusal>) -> Refusal {
    match result {
        Ok(events) => panic!("expected a refusal, got {events:?}"),
        Err(r) => r,
    }
}

/// A blue line battalion and a red one 10" apart on the table (both facing each other).
const FACE_OFF: &str = "  - { id: b1, side: blue, type: line_infantry, at: [30, 24], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 14], facing: 90, attributes: { brigade: 1 } }\n";

/// Gives `who` its moves through the command phase's order (the dice decide how many).
fn ordered(t: &mut Table, commander: &str, who: &str) -> i32 {
    ordered_for(t, commander, who, &[])
}

/// [`ordered`] with the order given for `intent`.
fn ordered_for(t: &mut Table, commander: &str, who: &str, intent: &[&str]) -> i32 {
    until_phase(t, "blue", "command");
    act_for(t, "blue", (commander, "order", Some(who)), intent).expect("order");
    counter(t, who, "moves")
}

// ---------------------------------------------------------------------------------------
// Files and the binary

#[test]
fn both_rulesets_and_the_example_validate() {
    let run = grognard(&[
        "validate",
        CORE,
        CLUB,
        "examples/black-powder.yaml",
        "examples/black-powder.orders.yaml",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("ok: rulesets/black-powder.yaml (ruleset black-powder)")
    );
}

#[test]
fn diff_reads_as_the_list_of_amendments() {
    let run = grognard(&["diff", CORE, CLUB]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for line in [
        // 003 Measuring: the 66% scale...
        "geometry, scale_percent: 100 → 66",
        // ...except the command distance penalty, measured on the table.
        "chart `command`, input `command_distance`, from: distance_band → table_distance_band",
        // 003 Woods: every unit may enter woods; cavalry and artillery move 12" and 6" there.
        "movement class `horse`, enter `woods`: impassable → +6",
        "movement class `guns`, enter `woods`: impassable → +6",
        // 003 Command friction: reforming is an action now.
        "flag `disordered`, clears: turn_end → never",
        "action `reform` added",
        // 003 Turn sequence.
        "sequence, side-turn phase `initiative` added",
        "sequence, side-turn phase `musketry_artillery` added",
        // 003 Moving artillery: unlimbered guns move 6" (light guns 12") on prolong.
        "piece type `light_battery`, allowance `unlimbered`: 0 → 12",
        // 003 Cavalry formations and skirmishers.
        "mode `echelon` added",
        "piece type `light_infantry`, allowance `grande_bande` added (12)",
        "chart `form_square` added",
        "chart `skirmish_company_charged` added",
        "chart `grande_bande_charged` added",
        "chart `passage_of_lines` added",
        "chart `support_charge` added",
        // 003 Not adopted rules, reliable formations, two brigade morale versions.
        "option `sheltering_artillery` added (default off)",
        "option `reliable_formations` added (default off)",
        "option `brigade_morale_second_version` added (default off)",
        // 003 Command friction: a unit stops only for the enemy it faces.
        "open_table, enter_only_faced_threats: false → true",
        // 003 Moving artillery: the guns' reliability, by what the order is for.
        "piece type `heavy_battery`, attribute `unreliable_hand_haul` added (1)",
        "piece type `light_battery`, attribute `reliable_prolong` added (1)",
        "piece type `horse_battery`, attribute `unreliable_unlimber` added (1)",
        "action `order`, intents: [] → [charge, into_flank, prolong, hand_haul, unlimber, form_line, form_attack_column]",
        // 003 Support charge: opportunists ordered to charge in their own turn -1.
        "chart `command`, modifier `opportunist ordered to charge` added",
        // 003 Woods: light woods and orchards count as rough ground for movement.
        "movement class `foot`, enter `light_woods` added (+6)",
        "movement class `horse`, enter `light_woods` added (+9)",
        // 003 Flank attacks: the other reading of cavalry turning to face.
        "option `cavalry_flank_charges_stand` added (default off)",
        "option `sudden_charge_on_initiative_only` added (default off)",
        // 003 Brigade Orders: close range is the threatened range; Assault's objective.
        "open_table, threats_ignored_with_flags: [] → [may_close]",
        "counter `objective` added",
        "setting `command_range` added (default 12)",
        // Charges on an initiative move; sweeping advances in close combat.
        "sequence, side-turn phase `initiative` added",
    ] {
        assert!(
            run.stdout.contains(line),
            "missing `{line}` in:\n{}",
            run.stdout
        );
    }
    // 003 Command friction: the threatened zones and the 4" limit are listed too.
    assert!(run.stdout.contains("open_table"), "{}", run.stdout);
}

#[test]
fn example_plays_its_orders_from_the_command_line() {
    let run = grognard(&[
        "play",
        "examples/black-powder.yaml",
        "--orders",
        "examples/black-powder.orders.yaml",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for line in [
        // 003 Brigade orders: Assault, and a brigade command at +3 while unengaged.
        "fr_bde1 is order_assault",
        "-3 brigade command while unengaged",
        // Moves by margin: each move spends one.
        "fr_ligne moves 3 → 2",
        // 003 Artillery: a French 6 lb at 39" (rule inches) is at long range.
        "+39 distance; score 39 → long",
        // 003 Support charge: doubled command distance, opportunist +2.
        "+2 command distance (doubled), -2 opportunist chargers",
        // 003 Support charge: opportunists ordered to charge in their own turn take -1
        // (the order says what it is for: `intent: [charge]`).
        "+1 opportunist ordered to charge",
        // The log records what the order was for (Event::Acted.intent).
        "fr_bde2 order at fr_hussars (for charge)",
        // Base reading: a charge is a move — here the attack column's initiative move.
        "fr_ligne charge at br_foot1",
        "fr_ligne moves 1 → 0",
        // 003 Break test: the club's hand-to-hand column for cavalry.
        "→ retreat_disordered_with_supports (break test of fr_hussars)",
        // 003 Retire moves: to 8.1" on the table from the cause (here already farther).
        "fr_hussars is already 8.1 inches (table) or more from br_dragoons",
        // Base assumption (page 68): the winner's victory move, one move straight back.
        "br_dragoons placed (62\", 21.5\") → (62\", 9.62\") (fall back (victory move))",
        // 003 Reform action.
        "fr_hussars is no longer disordered",
    ] {
        assert!(
            run.stdout.contains(line),
            "missing `{line}` in:\n{}",
            run.stdout
        );
    }
    // The hussars' order to charge failed: its intent is not marked on them.
    assert!(
        run.stdout.contains("→ no_moves") && !run.stdout.contains("fr_hussars is ordered_charge"),
        "{}",
        run.stdout
    );
}

#[test]
fn chart_command_prints_the_exact_odds_of_the_form_square_table() {
    // 003 Must form square: a sudden charge is -1 and disorders unless a natural 6.
    let run = grognard(&["chart", CLUB, "form_square", "--set", "sudden_charge=0..1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "1              -1         0 0.00%          1/6 16.67%  1/2 50.00%         1/3 33.33%"
        ),
        "{}",
        run.stdout
    );
}

// ---------------------------------------------------------------------------------------
// Exact odds of the tables

#[test]
fn form_square_table_with_its_modifiers() {
    let club = ruleset(CLUB);
    // 003 Must form square: 0-1 disordered, 2 disordered square, 3-5 square, 6 square and fire.
    let plain = odds(&club, "form_square", &[]);
    assert_eq!(p(&plain, "square_and_fire"), r(1, 6));
    assert_eq!(p(&plain, "square"), r(1, 2));
    assert_eq!(p(&plain, "disordered_square"), r(1, 6));
    assert_eq!(p(&plain, "disordered_no_square"), r(1, 6));
    // Sudden charge: -1, so no square-and-fire; formed squares are disordered unless the
    // die showed a natural 6.
    let sudden = odds(&club, "form_square", &[("sudden_charge", 1)]);
    assert_eq!(p(&sudden, "square_and_fire"), Ratio::ZERO);
    assert_eq!(p(&sudden, "square"), r(1, 6));
    assert_eq!(p(&sudden, "disordered_square"), r(1, 2));
    assert_eq!(p(&sudden, "disordered_no_square"), r(1, 3));
    // An attack column is not automatically disordered by a sudden charge.
    let column = odds(
        &club,
        "form_square",
        &[("sudden_charge", 1), ("attack_column", 1)],
    );
    assert_eq!(p(&column, "square"), r(1, 2));
    assert_eq!(p(&column, "disordered_square"), r(1, 6));
    assert_eq!(p(&column, "disordered_no_square"), r(1, 3));
}

#[test]
fn skirmish_company_charged_in_the_open_with_reliable_and_unreliable() {
    let club = ruleset(CLUB);
    // 003 Skirmish company, charged by infantry: 1 flee, 2 fall back, 3-5 fire and evade,
    // 6 rapid fire and evade.
    let inf = odds(&club, "skirmish_company_charged", &[]);
    assert_eq!(p(&inf, "flee_retire_then_one_hit"), r(1, 6));
    assert_eq!(p(&inf, "fall_back_retire"), r(1, 6));
    assert_eq!(p(&inf, "fire_one_hit_then_retire"), r(1, 2));
    assert_eq!(p(&inf, "disordering_hit_then_retire"), r(1, 6));
    // By cavalry: 1-2 overrun; Reliable re-rolls a 1 (the second roll stands).
    let reliable = odds(
        &club,
        "skirmish_company_charged",
        &[("by_cavalry", 1), ("reliable", 1)],
    );
    assert_eq!(p(&reliable, "overrun_break"), r(2, 9));
    assert_eq!(p(&reliable, "fire_one_hit_then_break"), r(7, 12));
    assert_eq!(
        p(&reliable, "disordering_hit_then_fight_as_skirmishers"),
        r(7, 36)
    );
    // Unreliable must re-roll a 6.
    let unreliable = odds(
        &club,
        "skirmish_company_charged",
        &[("by_cavalry", 1), ("unreliable", 1)],
    );
    assert_eq!(
        p(&unreliable, "disordering_hit_then_fight_as_skirmishers"),
        r(1, 36)
    );
    assert_eq!(p(&unreliable, "overrun_break"), r(7, 18));
    // Support within 6": the company may shelter instead of firing (3-6 against cavalry).
    let support = odds(
        &club,
        "skirmish_company_charged",
        &[("by_cavalry", 1), ("support", 1)],
    );
    assert_eq!(
        p(&support, "evade_to_support_or_fire_one_hit_then_break"),
        r(1, 2)
    );
    assert_eq!(
        p(&support, "evade_to_support_or_disordering_hit_then_fight"),
        r(1, 6)
    );
}

#[test]
fn grande_bande_charged_in_the_open() {
    let club = ruleset(CLUB);
    // 003 Grande bande vs infantry: 1 hit then retire, 2 retire, 3-6 closing fire and retire.
    let inf = odds(&club, "grande_bande_charged", &[]);
    assert_eq!(p(&inf, "one_hit_then_retire"), r(1, 6));
    assert_eq!(p(&inf, "retire"), r(1, 6));
    assert_eq!(p(&inf, "closing_fire_then_retire"), r(2, 3));
    // Light infantry may form line instead of retiring (*).
    let light = odds(&club, "grande_bande_charged", &[("light", 1)]);
    assert_eq!(p(&light, "closing_fire_then_retire_or_form_line"), r(2, 3));
    // Vs cavalry: 1 overrun, 2 fire then break, 3-5 fight as skirmishers, 6 disordered square.
    let cav = odds(&club, "grande_bande_charged", &[("by_cavalry", 1)]);
    assert_eq!(p(&cav, "overrun_break"), r(1, 6));
    assert_eq!(p(&cav, "normal_fire_then_break_in_hand_to_hand"), r(1, 6));
    assert_eq!(p(&cav, "closing_fire_then_fight_as_skirmishers"), r(1, 2));
    assert_eq!(
        p(&cav, "closing_fire_then_fight_as_disordered_square"),
        r(1, 6)
    );
    // Light infantry forms a disordered square instead of firing (**).
    let cav_light = odds(
        &club,
        "grande_bande_charged",
        &[("by_cavalry", 1), ("light", 1)],
    );
    assert_eq!(p(&cav_light, "disordered_square"), r(1, 2));
    // Reliable re-rolls the 1.
    let reliable = odds(
        &club,
        "grande_bande_charged",
        &[("by_cavalry", 1), ("reliable", 1)],
    );
    assert_eq!(p(&reliable, "overrun_break"), r(1, 36));
}

#[test]
fn break_test_table_every_column() {
    let club = ruleset(CLUB);
    let bt = |inputs: &[(&str, i32)]| odds(&club, "break_test", inputs);
    // 2d6: P(2)=1/36 ... P(7)=6/36.
    // 003 Break test, infantry, shooting: 7+ hold, 5-6 hold disordered or retreat, 3-4 and 2
    // retreat disordered (no casualties, not shaken).
    let inf = bt(&[("class", 0), ("hand_to_hand", 0)]);
    assert_eq!(p(&inf, "hold"), r(21, 36));
    assert_eq!(p(&inf, "hold_disordered_or_retreat_good_order"), r(9, 36));
    assert_eq!(p(&inf, "retreat_disordered"), r(6, 36));
    // Shaken and with casualties: 3 breaks (if shaken), 2 breaks (casualties).
    let inf_worn = bt(&[
        ("class", 0),
        ("hand_to_hand", 0),
        ("shaken", 1),
        ("casualties", 1),
    ]);
    assert_eq!(p(&inf_worn, "break"), r(3, 36));
    // Infantry, hand-to-hand: 8+ hold locked, 6-7 fall back, 5 fall back with supports,
    // 3-4 retreat with supports (break if shaken), 2 break.
    let inf_cc = bt(&[("class", 0), ("hand_to_hand", 1)]);
    assert_eq!(p(&inf_cc, "hold_locked"), r(15, 36));
    assert_eq!(
        p(&inf_cc, "fallback_disordered_through_supports"),
        r(11, 36)
    );
    assert_eq!(
        p(&inf_cc, "fallback_with_supports_all_disordered"),
        r(4, 36)
    );
    assert_eq!(p(&inf_cc, "retreat_with_supports_all_disordered"), r(5, 36));
    assert_eq!(p(&inf_cc, "break"), r(1, 36));
    // Cavalry, shooting: 8+ hold, 7 retreat in good order, 5-6 retreat disordered, 3-4
    // break if shaken.
    let cav = bt(&[("class", 1), ("hand_to_hand", 0), ("shaken", 1)]);
    assert_eq!(p(&cav, "hold"), r(15, 36));
    assert_eq!(p(&cav, "retreat_good_order"), r(6, 36));
    assert_eq!(p(&cav, "retreat_disordered"), r(10, 36));
    assert_eq!(p(&cav, "break"), r(5, 36));
    // Cavalry, hand-to-hand: 10+ hold, 8-9 fall back, 6-7 retreat with supports, 4-5
    // retreat with all supports (break if shaken), 3- break.
    let cav_cc = bt(&[("class", 1), ("hand_to_hand", 1)]);
    assert_eq!(p(&cav_cc, "hold_locked"), r(6, 36));
    assert_eq!(p(&cav_cc, "fallback_disordered_through_supports"), r(9, 36));
    assert_eq!(p(&cav_cc, "retreat_disordered_with_supports"), r(11, 36));
    assert_eq!(p(&cav_cc, "retreat_with_supports_all_disordered"), r(7, 36));
    assert_eq!(p(&cav_cc, "break"), r(3, 36));
    // Skirmishers, shooting: 10+ hold, 9 retreat in good order, 8 and 5 break if shaken,
    // 6-7 retreat disordered, 4 break if any casualties, 3- break.
    let sk = bt(&[("class", 2), ("hand_to_hand", 0), ("casualties", 1)]);
    assert_eq!(p(&sk, "hold"), r(6, 36));
    assert_eq!(p(&sk, "retreat_good_order"), r(4, 36));
    assert_eq!(p(&sk, "retreat_disordered"), r(20, 36));
    assert_eq!(p(&sk, "break"), r(6, 36));
    // Skirmishers, hand-to-hand: 10+ hold, 8-9 retreat, 7- break.
    let sk_cc = bt(&[("class", 2), ("hand_to_hand", 1)]);
    assert_eq!(p(&sk_cc, "hold_locked"), r(6, 36));
    assert_eq!(p(&sk_cc, "retreat_disordered_through_supports"), r(4, 36));
    assert_eq!(p(&sk_cc, "retreat_disordered"), r(5, 36));
    assert_eq!(p(&sk_cc, "break"), r(21, 36));
    // 003 Flank attacks: -1 (a 10 becomes a 9); stand-off: +2 to the cavalry's test.
    let flank = bt(&[("class", 0), ("hand_to_hand", 1), ("flank_or_rear", 1)]);
    assert_eq!(p(&flank, "break"), r(3, 36));
    let stand_off = bt(&[("class", 1), ("hand_to_hand", 1), ("stand_off", 1)]);
    assert_eq!(p(&stand_off, "hold_locked"), r(15, 36));
}

#[test]
fn artillery_ranges_by_nation_and_gun() {
    let club = ruleset(CLUB);
    // 003 Napoleonic artillery: close canister, canister, effective and long range, by gun.
    let table: [(i32, &str, [i32; 4]); 15] = [
        (1, "Austria 3 lb", [6, 9, 12, 30]),
        (2, "Austria 6 lb", [6, 12, 15, 33]),
        (3, "Austria 12 lb", [6, 10, 21, 40]),
        (4, "Britain 3 lb", [6, 9, 12, 36]),
        (5, "Britain 6 lb", [6, 12, 21, 42]),
        (6, "Britain 9 lb", [6, 15, 24, 48]),
        (7, "France 4 lb", [6, 12, 21, 39]),
        (8, "France 6 lb", [6, 15, 24, 48]),
        (9, "France 8 lb", [6, 18, 23, 48]),
        (10, "France 12 lb", [6, 18, 30, 56]),
        (11, "Prussia 3 lb", [6, 9, 15, 33]),
        (12, "Prussia 6 lb", [6, 12, 27, 48]),
        (13, "Prussia 12 lb", [6, 18, 20, 62]),
        (14, "Russia 6 lb", [6, 12, 24, 48]),
        (15, "Russia 12 lb", [6, 18, 24, 62]),
    ];
    let bands = [
        "close_canister",
        "canister",
        "effective",
        "long",
        "out_of_range",
    ];
    for (gun, name, limits) in table {
        let mut lo = 0;
        for (i, hi) in limits.iter().copied().chain([999]).enumerate() {
            for range in [lo, hi.min(lo + 100)] {
                let o = odds(&club, "artillery_range", &[("gun", gun), ("range", range)]);
                assert_eq!(p(&o, bands[i]), Ratio::ONE, "{name} at {range}\"");
            }
            lo = hi + 1;
        }
    }
    // Dice 3/3/2/1 by band.
    let rules = &club.rules;
    let setting = |n: &str| {
        rules
            .settings
            .iter()
            .find(|s| s.name == n)
            .map(|s| s.default)
    };
    assert_eq!(setting("artillery_dice_close_canister"), Some(3));
    assert_eq!(setting("artillery_dice_canister"), Some(3));
    assert_eq!(setting("artillery_dice_effective"), Some(2));
    assert_eq!(setting("artillery_dice_long"), Some(1));
}

#[test]
fn artillery_to_hit_and_save_modifiers() {
    let club = ruleset(CLUB);
    let hit = |i: &[(&str, i32)]| p(&odds(&club, "to_hit", i), "hit");
    // 003 Artillery: to hit +1 close canister, +0 canister and effective, -1 long (4+ base).
    assert_eq!(hit(&[("close_canister", 1)]), r(2, 3));
    assert_eq!(hit(&[("canister", 1)]), r(1, 2));
    assert_eq!(hit(&[("effective", 1)]), r(1, 2));
    assert_eq!(hit(&[("long", 1)]), r(1, 3));
    // * 12 lb batteries and British 9 lb are +0 at long range.
    assert_eq!(hit(&[("long", 1), ("heavy_long", 1)]), r(1, 2));
    // 003 Prolong: fire after one move at -1 more.
    assert_eq!(hit(&[("effective", 1), ("prolonged", 1)]), r(1, 3));
    let saved = |i: &[(&str, i32)]| p(&odds(&club, "morale_save", i), "saved");
    // Saves -2/-2/-2/-1 on a 4+ save: need 6, 6, 6, 5.
    assert_eq!(saved(&[("close_canister", 1)]), r(1, 6));
    assert_eq!(saved(&[("canister", 1)]), r(1, 6));
    assert_eq!(saved(&[("effective", 1)]), r(1, 6));
    assert_eq!(saved(&[("long", 1)]), r(1, 3));
    // ** 3 lb and 4 lb are only -1 at effective range.
    assert_eq!(saved(&[("effective", 1), ("light_guns", 1)]), r(1, 3));
    // The base reading differs: effective range is only -1 there.
    let core = ruleset(CORE);
    assert_eq!(
        p(&odds(&core, "morale_save", &[("effective", 1)]), "saved"),
        r(1, 3)
    );
}

#[test]
fn cavalry_formation_and_square_modifiers() {
    let club = ruleset(CLUB);
    let hit = |i: &[(&str, i32)]| p(&odds(&club, "to_hit", i), "hit");
    let saved = |i: &[(&str, i32)]| p(&odds(&club, "morale_save", i), "saved");
    // 003 Cavalry formations: echelon gets no +1 to hit when charging.
    assert_eq!(hit(&[("charging", 1)]), r(2, 3));
    assert_eq!(hit(&[("charging", 1), ("echelon_charging", 1)]), r(1, 2));
    // Small cavalry or echelon/column attacking a cavalry line: -1 to hit.
    assert_eq!(hit(&[("against_cavalry_line", 1)]), r(1, 3));
    // 003 Square vs cavalry: broken momentum, no charge bonus.
    assert_eq!(hit(&[("charging", 1), ("broken_momentum", 1)]), r(1, 2));
    // 003 Massed columns: no +1 to hit for charging.
    assert_eq!(hit(&[("charging", 1), ("massed_column", 1)]), r(1, 2));
    // Echelon: +1 save against non-artillery closing fire; line: +1 against cavalry hits;
    // steady square +2 against cavalry; lancers -1; disordered -1 in close combat.
    assert_eq!(saved(&[("echelon_vs_closing_fire", 1)]), r(2, 3));
    assert_eq!(saved(&[("line_vs_cavalry", 1)]), r(2, 3));
    assert_eq!(saved(&[("steady_square_vs_cavalry", 1)]), r(5, 6));
    assert_eq!(
        saved(&[("steady_square_vs_cavalry", 1), ("lancers", 1)]),
        r(2, 3)
    );
    assert_eq!(saved(&[("disordered_in_combat", 1)]), r(1, 3));
    // 003 Woods: skirmish companies and grandes bandes +1 to saves.
    assert_eq!(saved(&[("woods_skirmishers", 1)]), r(2, 3));
    // 003 Massed columns: no +1 save for the attack column.
    assert_eq!(saved(&[("attack_column_vs_closing_fire", 1)]), r(2, 3));
    assert_eq!(
        saved(&[("attack_column_vs_closing_fire", 1), ("massed_column", 1)]),
        r(1, 2)
    );
    // Light infantry reform: a natural 1 means a second save.
    let reform = odds(&club, "morale_save", &[]);
    assert_eq!(p(&reform, "failed_on_one"), r(1, 6));
    assert_eq!(p(&reform, "failed"), r(1, 3));
}

#[test]
fn command_roll_moves_by_margin_blunders_and_woods() {
    let club = ruleset(CLUB);
    // Base reading: staff 8; a natural 12 blunders; 2 = three moves, 3-5 two, 6-8 one.
    let plain = odds(&club, "command", &[("staff", 8)]);
    assert_eq!(p(&plain, "blunder"), r(1, 36));
    assert_eq!(p(&plain, "three_moves"), r(1, 36));
    assert_eq!(p(&plain, "two_moves"), r(9, 36));
    assert_eq!(p(&plain, "one_move"), r(16, 36));
    assert_eq!(p(&plain, "no_moves"), r(9, 36));
    // A natural 12 blunders whatever the modifiers.
    let bonus = odds(&club, "command", &[("staff", 8), ("brigade_bonus", 1)]);
    assert_eq!(p(&bonus, "blunder"), r(1, 36));
    // 003 Brigade orders: +3 while unengaged.
    assert_eq!(p(&bonus, "no_moves"), Ratio::ZERO);
    // 003 Woods: a failed order on a natural 10 or 11 lets the opponent move the unit.
    let woods = odds(&club, "command", &[("staff", 8), ("in_woods", 1)]);
    assert_eq!(p(&woods, "woods_drift"), r(5, 36));
    assert_eq!(p(&woods, "no_moves"), r(4, 36));
    // 003 Cavalry formations: echelon +1 staff.
    let echelon = odds(&club, "command", &[("staff", 8), ("echelon", 1)]);
    assert_eq!(p(&echelon, "no_moves"), r(5, 36));
    // 003 Grande bande: -1 staff to move into a flank zone.
    let flank = odds(
        &club,
        "command",
        &[
            ("staff", 8),
            ("grande_bande", 1),
            ("grande_bande_into_flank", 1),
        ],
    );
    assert_eq!(p(&flank, "no_moves"), r(14, 36));
    // ...and only for a grande bande: the same order to another unit is not penalised.
    let other = odds(
        &club,
        "command",
        &[("staff", 8), ("grande_bande_into_flank", 1)],
    );
    assert_eq!(p(&other, "no_moves"), r(9, 36));
    // 003 Support charge: command distance doubled, -2 out of the front arc, opportunists +2.
    let sc = odds(
        &club,
        "support_charge",
        &[("staff", 8), ("command_distance", 1)],
    );
    assert_eq!(p(&sc, "charge"), r(15, 36));
    let sc = odds(
        &club,
        "support_charge",
        &[("staff", 8), ("not_front_arc", 1), ("opportunist", 1)],
    );
    assert_eq!(p(&sc, "charge"), r(26, 36));
    assert_eq!(p(&sc, "blunder"), r(1, 36));
}

#[test]
fn passage_of_lines_odds() {
    let club = ruleset(CLUB);
    // 003 Passage of lines: 4+ to avoid disorder, 3+ on a brigade order.
    assert_eq!(p(&odds(&club, "passage_of_lines", &[]), "steady"), r(1, 2));
    assert_eq!(
        p(
            &odds(&club, "passage_of_lines", &[("brigade_command", 1)]),
            "steady"
        ),
        r(2, 3)
    );
}

// ---------------------------------------------------------------------------------------
// Games

#[test]
fn threatened_zone_stops_a_move_at_its_edge() {
    // 003 Command friction: infantry threatens 6" (3.96" on the 66% table) from its front
    // zone; a unit may not move into it unless charging, and must stop when threatened.
    let mut t = table(&format!(
        "{FACE_OFF}  - {{ id: bde, side: blue, type: brigadier, at: [34, 36], facing: 270, attributes: {{ brigade: 1, staff: 12 }} }}\n"
    ));
    let moves = ordered(&mut t, "bde", "b1");
    assert!(moves >= 1, "staff 12 fails only on a blunder");
    // A path running into r1's zone is refused at the point where it enters it.
    let refusal = refused(move_to(&mut t, "blue", "b1", 30.0, 17.0));
    assert_eq!(refusal.kind, RefusalKind::MustStop);
    assert!(
        refusal.message.contains("must stop at (30") && refusal.message.contains("17.96"),
        "{}",
        refusal.message
    );
    // Ending at the zone's edge is allowed; the unit is then stopped for the phase.
    move_to(&mut t, "blue", "b1", 30.0, 17.96).expect("stop at the edge");
    assert_eq!(at(&t, "b1"), (30.0, 17.96));
    let again = refused(move_to(&mut t, "blue", "b1", 30.0, 17.5));
    assert_eq!(again.kind, RefusalKind::AlreadyUsed);
}

#[test]
fn threatened_units_may_not_close_and_point_blank_holds_outside_the_front_arc() {
    // r1 faces away (north): no zone, but 4" (2.64" on the table) is still point blank.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [34, 36], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 20], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 14], facing: 270, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(ordered(&mut t, "bde", "b1") >= 1);
    let refusal = refused(move_to(&mut t, "blue", "b1", 30.0, 16.5));
    assert!(
        refusal.message.contains("may not come within 2.64\""),
        "{}",
        refusal.message
    );
    move_to(&mut t, "blue", "b1", 30.0, 16.7).expect("outside point blank");
    // 003: cavalry threaten infantry out to 12" (7.92" on the table).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [34, 36], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: rc, side: red, type: cavalry, at: [30, 14], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(ordered(&mut t, "bde", "b1") >= 1);
    let refusal = refused(move_to(&mut t, "blue", "b1", 30.0, 20.0));
    assert!(refusal.message.contains("21.92"), "{}", refusal.message);
}

#[test]
fn measuring_scale_applies_to_moves_and_woods_but_not_command_distance() {
    // 003 Measuring: a 12" move is 7.92" on the table.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [10, 44], facing: 270, attributes: { brigade: 1 } }\n  - { id: bc, side: blue, type: cavalry, at: [48, 31], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let events = act(&mut t, "blue", "bde", "order", Some("b1")).expect("order");
    // The commander is 20" away on the table: one full 12" (table inches), not 30" of
    // rule distance (two).
    let roll = events
        .iter()
        .find_map(|e| match e {
            Event::Acted { roll: Some(r), .. } => Some(r.clone()),
            _ => None,
        })
        .expect("command roll");
    assert!(
        roll.inputs.contains(&("command_distance".to_owned(), 1)),
        "{:?}",
        roll.inputs
    );
    assert!(
        counter(&t, "b1", "moves") > 0,
        "staff 12: the order succeeds with this seed"
    );
    {
        let too_far = refused(move_to(&mut t, "blue", "b1", 10.0, 36.0));
        assert!(too_far.message.contains("7.92\""), "{}", too_far.message);
        move_to(&mut t, "blue", "b1", 10.0, 36.1).expect("7.9\" is within 7.92\"");
    }
    // 003 Woods: cavalry move 12" in woods — 18" plus 6" extra to enter, both scaled:
    // 11.88" allowance, 3.96" extra. 8" of path into the wood costs 11.96": too far.
    let events = act(&mut t, "blue", "bde", "order", Some("bc")).expect("order");
    assert!(
        counter(&t, "bc", "moves") > 0,
        "staff 12: the order succeeds with this seed"
    );
    {
        let refusal = refused(move_to(&mut t, "blue", "bc", 48.0, 23.0));
        assert_eq!(refusal.kind, RefusalKind::TooFar, "{events:?}");
        assert!(refusal.message.contains("11.96\""), "{}", refusal.message);
        move_to(&mut t, "blue", "bc", 48.0, 24.0).expect("7\" + 3.96\" is within 11.88\"");
    }
}

#[test]
fn moves_by_margin_are_counted_and_woods_allow_one() {
    // Base reading: each move spends one; the unit stops when none are left.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 40], facing: 270, attributes: { brigade: 1 } }\n  - { id: bw, side: blue, type: line_infantry, at: [50, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    let moves = ordered(&mut t, "bde", "b1");
    for i in 0..moves {
        move_to(&mut t, "blue", "b1", 30.0, 39.0 - f64::from(i)).expect("a move");
    }
    let none = refused(move_to(&mut t, "blue", "b1", 30.0, 30.0));
    assert!(none.message.contains("no moves left"), "{}", none.message);
    // 003 Woods: one move only (formed units), whatever the margin.
    act(&mut t, "blue", "bde", "order", Some("bw")).expect("order");
    assert!(counter(&t, "bw", "moves") <= 1);
}

#[test]
fn cavalry_charging_formed_infantry_rolls_to_form_square() {
    // 003 Must form square: only formed infantry in the open; the result sets the formation.
    // The charge is made on a successful order from 8" (12.1 rule inches): beyond the
    // initiative range, to the front, so not a sudden charge.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: bc, side: blue, type: cavalry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 22], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(
        ordered(&mut t, "bde", "bc") >= 1,
        "staff 12 succeeds with this seed"
    );
    let events = act(&mut t, "blue", "bc", "cavalry_charge", Some("r1")).expect("charge");
    let result = rolls(&events, "form_square");
    assert_eq!(result.len(), 1, "{events:?}");
    assert_eq!(roll_input(&events, "form_square", "sudden_charge"), Some(0));
    let squared = mode(&t, "r1") == "square";
    match result[0].as_str() {
        "square" | "square_and_fire" => assert!(squared && !flag(&t, "r1", "disordered")),
        "disordered_square" => assert!(squared && flag(&t, "r1", "disordered")),
        _ => assert!(!squared && flag(&t, "r1", "disordered")),
    }
    assert!(flag(&t, "bc", "locked") && flag(&t, "r1", "locked"));
}

#[test]
fn skirmish_company_charged_in_the_open_resolves_its_table() {
    // 003 Skirmish company charged in the open: its d6 table, never closing fire.
    // The charge is bi's initiative move (6" off: within the initiative range).
    let pieces = "  - { id: bi, side: blue, type: line_infantry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: rs, side: red, type: skirmish_company, at: [30, 24], facing: 90, attributes: { brigade: 1, reliable: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "initiative");
    let events = act(&mut t, "blue", "bi", "charge", Some("rs")).expect("charge");
    let result = rolls(&events, "skirmish_company_charged");
    assert_eq!(result.len(), 1, "{events:?}");
    // Against infantry every result retires the company: 003 Retire moves, to 8.1" on the
    // table straight away from the charger (6" off at the start), still facing it.
    let (x, y) = at(&t, "rs");
    assert!(
        (x - 30.0).abs() < 0.002 && (y - 21.9).abs() < 0.002,
        "{result:?} {x},{y}"
    );
    assert!(!flag(&t, "rs", "must_retire"), "{result:?}");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::PlacedOnTable { reason, .. } if reason == "retire")),
        "{events:?}"
    );
    // A reliable company re-rolled a 1: the log shows a re-roll only when it rolled one.
    assert!(rolls(&events, "to_hit").is_empty());
}

#[test]
fn grande_bande_may_charge_only_skirmishers() {
    // 003 Grande bande: may charge only grandes bandes and skirmish companies while deployed.
    let pieces = "  - { id: bg, side: blue, type: light_infantry, at: [30, 30], facing: 270, mode: grande_bande, attributes: { brigade: 1, light: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 24], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let refusal = refused(act(&mut t, "blue", "bg", "charge", Some("r1")));
    assert!(
        refusal
            .message
            .contains("grandes bandes and skirmish companies"),
        "{}",
        refusal.message
    );
    // Light infantry reform: a save or a hit, back in line.
    let events = act(&mut t, "blue", "bg", "light_infantry_reform", None).expect("reform");
    assert_eq!(mode(&t, "bg"), "line");
    let saves = rolls(&events, "morale_save");
    let expected_hits = match saves.first().map(String::as_str) {
        Some("saved") => 0,
        Some("failed_on_one") if saves.get(1).map(String::as_str) != Some("saved") => 2,
        _ => 1,
    };
    assert_eq!(counter(&t, "bg", "hits"), expected_hits, "{saves:?}");
}

#[test]
fn brigade_commands_need_more_than_half_and_not_hold() {
    // 003 Brigade commands: more than half the brigade's units must be included.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, brigade_size: 2 } }\n  - { id: b1, side: blue, type: line_infantry, at: [26, 40], facing: 270, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [34, 40], facing: 270, flags: [disordered], attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let half = refused(act(&mut t, "blue", "bde", "brigade_order", Some("b1")));
    assert!(half.message.contains("more than half"), "{}", half.message);
    // 003 Hold: no brigade commands.
    act(&mut t, "blue", "bde", "hold", None).expect("hold");
    let hold = refused(act(&mut t, "blue", "bde", "brigade_order", Some("b1")));
    assert!(hold.message.contains("Hold"), "{}", hold.message);
    // 003 Reform action: disorder stays until the unit reforms.
    until_phase(&mut t, "blue", "initiative");
    assert!(flag(&t, "b2", "disordered"));
    act(&mut t, "blue", "b2", "reform", None).expect("reform");
    assert!(!flag(&t, "b2", "disordered"));
}

#[test]
fn woods_orders_go_to_one_unit_at_a_time_and_limit_visibility() {
    // 003 Woods: orders one unit at a time (lines in woods cannot share a brigade command).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [50, 34], facing: 270, attributes: { brigade: 1, brigade_size: 2 } }\n  - { id: b1, side: blue, type: line_infantry, at: [48, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [52, 32], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [50, 20], facing: 90, attributes: { brigade: 1 } }\n  - { id: r2, side: red, type: line_infantry, at: [20, 10], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "red", "musketry_artillery");
    // Visibility into woods is 6" (3.96" on the table); r1 is 6" (9.1" rule) from b1.
    let refusal = refused(act(&mut t, "red", "r1", "shoot", Some("b1")));
    assert!(
        refusal.message.contains("visibility there is 6 inches"),
        "{}",
        refusal.message
    );
    until_phase(&mut t, "blue", "command");
    let refusal = refused(act(&mut t, "blue", "bde", "brigade_order", Some("b2")));
    assert!(
        refusal.message.contains("one unit at a time"),
        "{}",
        refusal.message
    );
}

#[test]
fn passage_of_lines_rolls_for_both_and_squares_cannot_pass() {
    let pieces = "  - { id: b1, side: blue, type: line_infantry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [30, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: bs, side: blue, type: line_infantry, at: [40, 30], facing: 270, mode: square, attributes: { brigade: 1 } }\n  - { id: bk, side: blue, type: skirmish_company, at: [40, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    // 003 Passage of lines: both roll 4+ or are disordered.
    let events = act(&mut t, "blue", "b1", "passage_of_lines", Some("b2")).expect("passage");
    let results = rolls(&events, "passage_of_lines");
    assert_eq!(results.len(), 2);
    assert_eq!(flag(&t, "b1", "disordered"), results[0] == "disordered");
    assert_eq!(flag(&t, "b2", "disordered"), results[1] == "disordered");
    // A square may not pass through any unit; only skirmish companies pass a square.
    let sq = refused(act(&mut t, "blue", "bs", "passage_of_lines", Some("bk")));
    assert!(sq.message.contains("square"), "{}", sq.message);
    // Skirmishers are passed freely, without a roll.
    let free = act(&mut t, "blue", "bk", "passage_of_lines", Some("bs")).expect("free");
    assert!(rolls(&free, "passage_of_lines").is_empty());
}

#[test]
fn brigade_morale_has_two_versions_and_army_morale_follows() {
    // One brigade of 3 with one unit routed (gone) and one shaken; a second brigade intact.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, brigade_size: 3 } }\n  - { id: b1, side: blue, type: line_infantry, at: [26, 40], facing: 270, flags: [shaken], attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [34, 40], facing: 270, attributes: { brigade: 1 } }\n  - { id: bde2, side: blue, type: brigadier, at: [50, 44], facing: 270, attributes: { brigade: 2, brigade_size: 1 } }\n  - { id: b3, side: blue, type: line_infantry, at: [50, 40], facing: 270, attributes: { brigade: 2 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    // 003 Brigade morale (first version): more than half shaken or routed, one routed.
    let t = table(pieces);
    assert!(flag(&t, "b2", "brigade_broken"));
    // Army morale: half the brigades broken at the start of the turn breaks the army.
    assert!(flag(&t, "b3", "army_broken"));
    // Second version (optional): broken needs more than half routed; this one is shaken.
    let t = table_of(CLUB, "brigade_morale_second_version: true", pieces);
    assert!(flag(&t, "b2", "brigade_shaken"));
    assert!(!flag(&t, "b2", "brigade_broken"));
    assert!(!flag(&t, "b3", "army_broken"));
}

#[test]
fn the_base_reading_plays_without_the_amendments() {
    // The core ruleset: one command phase, disorder clears by itself, no threatened zones.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 14], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table_of(CORE, "", pieces);
    assert_eq!(t.game.phase().expect("phase").0.name, "command");
    act(&mut t, "blue", "bde", "order", Some("b1")).expect("order");
    assert!(
        counter(&t, "b1", "moves") > 0,
        "staff 12: the order succeeds with this seed"
    );
    {
        // At full scale and with no zones, b1 may close to 4" of r1 (no point blank limit).
        move_to(&mut t, "blue", "b1", 30.0, 18.0).expect("no threatened zone in the base");
    }
    // Cavalry may not enter woods in the base reading.
    let rules = &t.game.rules();
    let horse = rules
        .move_classes
        .iter()
        .find(|m| m.name == "horse")
        .expect("horse");
    let woods = rules
        .terrain
        .iter()
        .position(|x| x.name == "woods")
        .expect("woods");
    assert_eq!(horse.enter[woods], None);
}

#[test]
fn limbering_costs_a_move_and_unlimbered_guns_move_on_prolong() {
    // 003 Moving artillery: limbering always costs one move; unlimbered foot guns move 6"
    // (3.96" on the table) on prolong, light guns 12".
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: ba, side: blue, type: foot_battery, at: [30, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let limber = t
        .game
        .rules()
        .modes
        .iter()
        .position(|m| m.name == "limbered")
        .expect("mode");
    let ba = id(&t, "ba");
    let limbered = grognard_kernel::ids::ModeId(limber as u16);
    let refusal = refused(apply(
        &mut t,
        "blue",
        Action::Mode {
            piece: ba,
            mode: limbered,
        },
    ));
    assert!(
        refusal.message.contains("costs a move"),
        "{}",
        refusal.message
    );
    let moves = ordered_for(&mut t, "bde", "ba", &["prolong"]);
    assert!(moves >= 1, "staff 12 succeeds with this seed");
    let too_far = refused(move_to(&mut t, "blue", "ba", 30.0, 36.0));
    assert!(too_far.message.contains("3.96\""), "{}", too_far.message);
    move_to(&mut t, "blue", "ba", 30.0, 36.1).expect("3.9\" on prolong");
    assert!(flag(&t, "ba", "prolonged"));
    if counter(&t, "ba", "moves") > 0 {
        apply(
            &mut t,
            "blue",
            Action::Mode {
                piece: ba,
                mode: limbered,
            },
        )
        .expect("limber with a move left");
        assert_eq!(mode(&t, "ba"), "limbered");
    }
}

#[test]
fn charge_contact_one_unit_per_facing_and_massed_columns_share_closing_fire() {
    // 003 Charge contact: only one infantry unit may contact each facing, unless massed
    // attack columns; a massed column suffers the closing fire on every unit.
    let pieces = "  - { id: b1, side: blue, type: line_infantry, at: [28, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [32, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: c1, side: blue, type: line_infantry, at: [58, 26], facing: 270, mode: attack_column, attributes: { brigade: 1 } }\n  - { id: c2, side: blue, type: line_infantry, at: [62, 26], facing: 270, mode: attack_column, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 20], facing: 90, attributes: { brigade: 1 } }\n  - { id: r2, side: red, type: line_infantry, at: [60, 20], facing: 90, attributes: { brigade: 1, shooting: 6 } }\n";
    let mut t = table(pieces);
    // Every charger is within the initiative range of its target: initiative charges.
    until_phase(&mut t, "blue", "initiative");
    act(&mut t, "blue", "b1", "charge", Some("r1")).expect("first charge");
    let second = refused(act(&mut t, "blue", "b2", "charge", Some("r1")));
    assert!(
        second.message.contains("already contacts that facing"),
        "{}",
        second.message
    );
    act(&mut t, "blue", "c1", "charge", Some("r2")).expect("first column");
    let events = act(&mut t, "blue", "c2", "charge", Some("r2")).expect("second column");
    // Six closing-fire dice; the hits (if any) are saved by each column, without the +1.
    let hits = rolls(&events, "to_hit")
        .iter()
        .filter(|o| o.contains("hit"))
        .count();
    let saves: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { roll } if roll.chart == "morale_save" => Some(roll.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(saves.len(), 2 * hits, "{events:?}");
    for s in &saves {
        assert!(
            s.inputs.contains(&("massed_column".to_owned(), 1)),
            "{:?}",
            s.inputs
        );
    }
}

#[test]
fn maneuver_halts_in_engagement_range_then_becomes_hold() {
    // 003 Brigade orders, Maneuver: halt in engagement range; unchanged, it becomes Hold.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 22], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 16], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "bde", "maneuver", None).expect("maneuver");
    // Maneuver forbids voluntary charges.
    let charge = refused(act(&mut t, "blue", "b1", "charge", Some("r1")));
    assert!(
        charge.message.contains("Maneuver or Hold"),
        "{}",
        charge.message
    );
    until_phase(&mut t, "red", "command");
    until_phase(&mut t, "blue", "command");
    assert!(flag(&t, "bde", "maneuver_halted"));
    until_phase(&mut t, "red", "command");
    until_phase(&mut t, "blue", "command");
    assert!(flag(&t, "bde", "order_hold") && !flag(&t, "bde", "order_maneuver"));
}

#[test]
fn threatened_zones_need_line_of_sight() {
    // 003 Command friction: the threatened zone extends only with line of sight. Cavalry
    // threaten infantry 12" (7.92" on the table); the orchard (x 12-22, y 20-27) hides b1.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [22, 44], facing: 270, attributes: { brigade: 1, staff: 12, brigade_size: 2 } }\n  - { id: b1, side: blue, type: line_infantry, at: [17, 34], facing: 270, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [27, 34], facing: 270, attributes: { brigade: 1 } }\n  - { id: rc, side: red, type: cavalry, at: [17, 19.5], facing: 90, attributes: { brigade: 1 } }\n  - { id: rd, side: red, type: cavalry, at: [27, 19.5], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "bde", "brigade_order", Some("b1")).expect("brigade command");
    assert!(
        counter(&t, "b1", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    // Behind the orchard: no zone, b1 closes to 7.7" of rc.
    move_to(&mut t, "blue", "b1", 17.0, 27.2).expect("hidden by the orchard");
    // In the open the same move must stop where the zone begins.
    let refusal = refused(move_to(&mut t, "blue", "b2", 27.0, 27.2));
    assert!(refusal.message.contains("27.42"), "{}", refusal.message);
}

#[test]
fn retire_blocked_by_the_table_edge_stays_marked() {
    // 003 Retire moves (8.1" on the table): a skirmish company 2" from the north edge,
    // charged from 6" to the south, would retire past the edge; it stays, marked.
    let pieces = "  - { id: bi, side: blue, type: line_infantry, at: [30, 8], facing: 270, attributes: { brigade: 1 } }\n  - { id: rs, side: red, type: skirmish_company, at: [30, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "initiative");
    let events = act(&mut t, "blue", "bi", "charge", Some("rs")).expect("charge");
    assert_eq!(at(&t, "rs"), (30.0, 2.0));
    assert!(flag(&t, "rs", "must_retire"), "{events:?}");
    assert!(
        events.iter().any(|e| matches!(e, Event::Note { text }
            if text.contains("rs cannot retire") && text.contains("off the table"))),
        "{events:?}"
    );
}

#[test]
fn hand_to_hand_losers_retire_from_the_winner_and_winners_make_victory_moves() {
    // Base assumption (page 68) and 003 Retire moves: after hand-to-hand the loser's retire
    // is made at once, to 8.1" (table) from the winner; the winner may fall back one move
    // (18" cavalry at 66% = 11.88") or advance; a unit that did not win may not.
    let pieces = "  - { id: bc, side: blue, type: cavalry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: bi, side: blue, type: line_infantry, at: [60, 40], facing: 270, attributes: { brigade: 1 } }\n  - { id: rc, side: red, type: cavalry, at: [30, 24], facing: 90, attributes: { brigade: 1 } }\n";
    let mut checked_retire = false;
    let mut checked_victory = false;
    for seed in 1..60 {
        let mut t = table_seeded(CLUB, "", seed, pieces);
        until_phase(&mut t, "blue", "initiative");
        act(&mut t, "blue", "bc", "cavalry_charge", Some("rc")).expect("charge");
        until_phase(&mut t, "blue", "close_combat");
        let events = act(&mut t, "blue", "bc", "melee", Some("rc")).expect("melee");
        let tests = rolls(&events, "break_test");
        let retired = tests.iter().any(|o| {
            (o.contains("retire") || o.contains("retreat") || o.contains("fallback"))
                && !o.starts_with("hold")
        });
        if !flag(&t, "bc", "victory_move") || !t.game.piece_by_name("rc").unwrap().on_board() {
            continue;
        }
        if retired {
            // The loser (red) retired straight back from bc, 8.1" from it.
            let (x, y) = at(&t, "rc");
            assert!(
                (x - 30.0).abs() < 0.002 && (y - 21.9).abs() < 0.002,
                "{tests:?} {x},{y}"
            );
            checked_retire = true;
        }
        let no = refused(act(&mut t, "blue", "bi", "victory_fall_back", None));
        assert!(no.message.contains("has not won"), "{}", no.message);
        act(&mut t, "blue", "bc", "victory_fall_back", None).expect("fall back");
        let (x, y) = at(&t, "bc");
        assert!(
            (x - 30.0).abs() < 0.002 && (y - 41.88).abs() < 0.002,
            "{x},{y}"
        );
        assert!(!flag(&t, "bc", "victory_move"));
        checked_victory = true;
        if checked_retire {
            break;
        }
    }
    assert!(
        checked_victory && checked_retire,
        "no seed gave a blue win with a retire"
    );
}

#[test]
fn engaged_range_is_12_inches_without_line_of_sight() {
    // 003 Engaged: within 18" of an enemy, 12" when there is no line of sight. Both pairs
    // stand 11" apart on the table (16.7" at 66%): one pair sees across open ground, the
    // other has the wood (y 18-28) between.
    let pieces = "  - { id: seen, side: blue, type: line_infantry, at: [30, 29], facing: 270, attributes: { brigade: 1 } }\n  - { id: hidden, side: blue, type: line_infantry, at: [50, 28.5], facing: 270, attributes: { brigade: 1 } }\n  - { id: r_open, side: red, type: line_infantry, at: [30, 18], facing: 90, attributes: { brigade: 1 } }\n  - { id: r_wood, side: red, type: line_infantry, at: [50, 17.5], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "musketry_artillery");
    assert!(flag(&t, "seen", "engaged"));
    assert!(!flag(&t, "hidden", "engaged"));
}

#[test]
fn the_opponent_drifts_a_unit_that_failed_its_order_in_woods() {
    // 003 Order and Movement in Woods: a unit in woods failing its order on a 10 or 11 may
    // be moved 6" (3.96" at 66%) by the opponent, formation unchanged, proximity rule kept.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [50, 34], facing: 270, attributes: { staff: 8, brigade: 1 } }\n  - { id: bw, side: blue, type: line_infantry, at: [50, 23], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [50, 8], facing: 90, attributes: { brigade: 1 } }\n";
    for seed in 1..200 {
        let mut t = table_seeded(CLUB, "", seed, pieces);
        until_phase(&mut t, "blue", "command");
        let no = refused(act(&mut t, "red", "r1", "woods_drift_away", Some("bw")));
        assert!(no.message.contains("has not failed"), "{}", no.message);
        let events = act(&mut t, "blue", "bde", "order", Some("bw")).expect("order");
        if rolls(&events, "command") != ["woods_drift"] {
            continue;
        }
        assert!(flag(&t, "bw", "woods_drift"));
        // The owner may not move it so.
        let own = refused(act(&mut t, "blue", "bde", "woods_drift_away", Some("bw")));
        assert!(
            own.message.contains("target") || own.message.contains("opponent"),
            "{}",
            own.message
        );
        act(&mut t, "red", "r1", "woods_drift_away", Some("bw")).expect("drift");
        let (x, y) = at(&t, "bw");
        assert!(
            (x - 50.0).abs() < 0.002 && (y - 26.96).abs() < 0.002,
            "{x},{y}"
        );
        assert_eq!(mode(&t, "bw"), "line");
        assert!(!flag(&t, "bw", "woods_drift"));
        return;
    }
    panic!("no seed gave a woods drift");
}

fn move_facing(
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

#[test]
fn units_must_face_an_enemy_to_move_toward_it() {
    // 003 Command friction: units must face an enemy unit before moving closer to it. b1
    // faces south, away from r1; heading north toward r1 it must turn to face it.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 30], facing: 90, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 14], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(
        ordered(&mut t, "bde", "b1") > 0,
        "staff 12 succeeds with this seed"
    );
    let no = refused(move_to(&mut t, "blue", "b1", 30.0, 26.0));
    assert!(no.message.contains("b1 must face r1"), "{}", no.message);
    assert_eq!(at(&t, "b1"), (30.0, 30.0));
    // Turned to face r1 (the move's own facing), it may close.
    move_facing(&mut t, "b1", 30.0, 26.0, 270).expect("facing r1");
    assert_eq!(at(&t, "b1"), (30.0, 26.0));
}

#[test]
fn assault_forbids_moves_into_the_rear_zone() {
    // 003 Brigade orders, Assault: no unit may voluntarily move in its rear zone.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, flags: [order_assault], attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(
        ordered(&mut t, "bde", "b1") > 0,
        "staff 12 succeeds with this seed"
    );
    let no = refused(move_to(&mut t, "blue", "b1", 30.0, 35.0));
    assert!(no.message.contains("rear zone"), "{}", no.message);
    move_to(&mut t, "blue", "b1", 25.0, 30.0).expect("to the flank, away from r1");
}

#[test]
fn shaken_units_of_a_broken_brigade_keep_8_inches_from_the_enemy() {
    // 003 Brigade morale, Broken: a shaken unit may not voluntarily move within 8" (the
    // initiative range, 12" at 66% = 7.92" on the table) of an enemy. Two of the brigade's
    // three units are gone, so it is broken; bs is shaken and gets its free move.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [50, 44], facing: 270, attributes: { brigade: 1, brigade_size: 3 } }\n  - { id: bs, side: blue, type: line_infantry, at: [30, 24], facing: 270, flags: [shaken], attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 10], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    assert!(flag(&t, "bs", "brigade_broken"));
    assert_eq!(counter(&t, "bs", "moves"), 1);
    let no = refused(move_to(&mut t, "blue", "bs", 30.0, 17.5));
    assert!(no.message.contains("broken brigade"), "{}", no.message);
    move_to(&mut t, "blue", "bs", 30.0, 19.0).expect("9\" away");
}

#[test]
fn hand_hauled_guns_move_once_not_into_a_flank_zone_turning_at_most_45_degrees() {
    // 003 Moving Unlimbered Guns, Hand Haul: one move (6", 3.96" on the table), not in a
    // flank zone, the facing turning at most 45°; the battery still fires (no prolong -1).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: ba, side: blue, type: foot_battery, at: [30, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let no = refused(act(&mut t, "blue", "ba", "hand_haul", None));
    assert!(no.message.contains("no move"), "{}", no.message);
    assert!(
        ordered_for(&mut t, "bde", "ba", &["hand_haul"]) >= 1,
        "staff 12 succeeds with this seed"
    );
    assert!(flag(&t, "ba", "prolonged"));
    act(&mut t, "blue", "ba", "hand_haul", None).expect("hand haul");
    assert!(!flag(&t, "ba", "prolonged"));
    assert_eq!(counter(&t, "ba", "moves"), 1);
    // Sideways (east, 90° off its northward facing) is its flank zone.
    let flank = refused(move_to(&mut t, "blue", "ba", 33.5, 40.0));
    assert!(flank.message.contains("flank zone"), "{}", flank.message);
    // Turning 60° is too much; 45° is allowed.
    let turn = refused(move_facing(&mut t, "ba", 30.0, 37.0, 330));
    assert!(
        turn.message.contains("at most 45 degrees"),
        "{}",
        turn.message
    );
    move_facing(&mut t, "ba", 30.0, 37.0, 315).expect("45°");
    assert_eq!(counter(&t, "ba", "moves"), 0);
}

#[test]
fn base_reading_retires_one_move_straight_away_from_the_firer() {
    // Base assumption (page 73): a retire is one move straight away from its cause, made at
    // once. A skirmish company (stamina 1) shot until a break test retires it: it goes 12"
    // (its skirmish move at full scale) straight back from the firer, still facing it.
    let pieces = "  - { id: b1, side: blue, type: line_infantry, at: [30, 34], facing: 270, attributes: { brigade: 1, shooting: 6 } }\n  - { id: rs, side: red, type: skirmish_company, at: [30, 20], facing: 90, attributes: { brigade: 1 } }\n";
    for seed in 1..80 {
        let mut t = table_seeded(CORE, "", seed, pieces);
        until_phase(&mut t, "blue", "shooting");
        let events = act(&mut t, "blue", "b1", "shoot", Some("rs")).expect("shoot");
        let tests = rolls(&events, "break_test");
        if !tests
            .iter()
            .any(|o| o.contains("retire") || o.contains("retreat"))
        {
            continue;
        }
        let (x, y) = at(&t, "rs");
        assert!(
            (x - 30.0).abs() < 0.002 && (y - 8.0).abs() < 0.002,
            "{tests:?} {x},{y}"
        );
        let facing = match t.game.piece_by_name("rs").unwrap().place {
            Place::Point { facing, .. } => facing,
            _ => unreachable!(),
        };
        assert_eq!(facing, grognard_kernel::geometry::open::Angle::degrees(90));
        return;
    }
    panic!("no seed gave a retire");
}

#[test]
fn follow_through_is_one_move_into_the_front_arc() {
    // 003 Skirmish Company, Follow Through: unless disordered, a charger with a move left
    // after contact may make one move (no charging) into its front arc. The charge itself
    // spends a move (base reading), so the order must have given two.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: bi, side: blue, type: line_infantry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: rs, side: red, type: skirmish_company, at: [30, 24], facing: 90, attributes: { brigade: 1 } }\n";
    let mut checked = false;
    for seed in 1..60 {
        let mut t = table_seeded(CLUB, "", seed, pieces);
        if ordered(&mut t, "bde", "bi") < 2 {
            continue;
        }
        act(&mut t, "blue", "bi", "charge", Some("rs")).expect("charge");
        if flag(&t, "bi", "disordered") {
            assert_eq!(counter(&t, "bi", "moves"), 0);
            assert!(!flag(&t, "bi", "follow_through"));
            continue;
        }
        assert!(flag(&t, "bi", "follow_through"));
        assert_eq!(counter(&t, "bi", "moves"), 1);
        let back = refused(move_to(&mut t, "blue", "bi", 30.0, 33.0));
        assert!(back.message.contains("front arc only"), "{}", back.message);
        move_to(&mut t, "blue", "bi", 30.0, 27.0).expect("one move on");
        assert_eq!(counter(&t, "bi", "moves"), 0);
        assert!(!flag(&t, "bi", "follow_through"));
        checked = true;
        break;
    }
    assert!(checked, "no seed gave a follow-through");
}

#[test]
fn no_charge_move_during_a_passage_of_lines() {
    // 003 Passage of Lines: a charge move may not be made during the passage; the unit may
    // charge after it only with another move left.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: bk, side: blue, type: skirmish_company, at: [30, 27], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 23], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "b1", "passage_of_lines", Some("bk")).expect("passage");
    assert!(flag(&t, "b1", "passed_lines"));
    let no = refused(act(&mut t, "blue", "b1", "charge", Some("r1")));
    assert!(no.message.contains("another move left"), "{}", no.message);
    assert!(
        ordered(&mut t, "bde", "b1") >= 1,
        "staff 12 succeeds with this seed"
    );
    act(&mut t, "blue", "b1", "charge", Some("r1")).expect("charge with a move left");
}

// ---------------------------------------------------------------------------------------
// What an order is for (its intent), gun reliability, where units started the phase

/// The value `input` had in the first roll of `chart` in `events`.
fn roll_input(events: &[Event], chart: &str, input: &str) -> Option<i32> {
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

#[test]
fn reliable_and_unreliable_orders_re_roll_command_dice() {
    // Base assumption (core notes): a Reliable unit re-rolls each command die showing a 6,
    // an Unreliable one must re-roll each die showing a 1; the second roll stands (the
    // amendments' skirmisher rule, read for a 2d6 roll where low is good).
    let core = ruleset(CORE);
    let plain = odds(&core, "command", &[("staff", 8)]);
    assert_eq!(p(&plain, "no_moves"), r(1, 4));
    let reliable = odds(&core, "command", &[("staff", 8), ("reliable", 1)]);
    assert_eq!(p(&reliable, "no_moves"), r(7, 48));
    assert_eq!(p(&reliable, "blunder"), r(1, 1296));
    assert_eq!(p(&reliable, "one_move"), r(77, 162));
    assert_eq!(p(&reliable, "two_moves"), r(49, 144));
    assert_eq!(p(&reliable, "three_moves"), r(49, 1296));
    let unreliable = odds(&core, "command", &[("staff", 8), ("unreliable", 1)]);
    assert_eq!(p(&unreliable, "no_moves"), r(49, 144));
    assert_eq!(p(&unreliable, "blunder"), r(49, 1296));
    assert_eq!(p(&unreliable, "three_moves"), r(1, 1296));
    // 003 Moving artillery: heavy guns are Unreliable when the order is a hand haul or a
    // prolong, light guns Reliable on prolong, horse batteries Unreliable when the order is
    // to unlimber; each rating counts only for an order given for that purpose.
    let club = ruleset(CLUB);
    for (rating, purpose, expected) in [
        ("unreliable_hand_haul", "hand_haul", r(49, 144)),
        ("unreliable_prolong", "prolong", r(49, 144)),
        ("reliable_prolong", "prolong", r(7, 48)),
        ("unreliable_unlimber", "unlimber", r(49, 144)),
    ] {
        let given = odds(&club, "command", &[("staff", 8), (rating, 1), (purpose, 1)]);
        assert_eq!(p(&given, "no_moves"), expected, "{rating} on {purpose}");
        let other = odds(&club, "command", &[("staff", 8), (rating, 1)]);
        assert_eq!(p(&other, "no_moves"), r(1, 4), "{rating} without {purpose}");
    }
}

/// A blue brigade of four batteries (staff 12) and a distant red battalion.
const GUNS: &str = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: heavy, side: blue, type: heavy_battery, at: [10, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 10, nation: 3 } }\n  - { id: light, side: blue, type: light_battery, at: [20, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 7, nation: 3 } }\n  - { id: horse, side: blue, type: horse_battery, at: [40, 40], facing: 270, mode: limbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: foot, side: blue, type: foot_battery, at: [50, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";

#[test]
fn gun_orders_say_what_they_are_for_and_take_the_guns_reliability() {
    // 003 Moving artillery: the order says whether the guns hand-haul, prolong or
    // unlimber; the battery's rating for that purpose goes into the command roll.
    let mut t = table(GUNS);
    until_phase(&mut t, "blue", "command");
    let order = |t: &mut Table, who: &str, intent: &[&str]| {
        act_for(t, "blue", ("bde", "order", Some(who)), intent)
    };
    let heavy = order(&mut t, "heavy", &["hand_haul"]).expect("heavy hand haul");
    assert_eq!(
        roll_input(&heavy, "command", "unreliable_hand_haul"),
        Some(1)
    );
    assert_eq!(roll_input(&heavy, "command", "unreliable_prolong"), Some(0));
    assert!(flag(&t, "heavy", "ordered_hand_haul"));
    let light = order(&mut t, "light", &["prolong"]).expect("light prolong");
    assert_eq!(roll_input(&light, "command", "reliable_prolong"), Some(1));
    let horse = order(&mut t, "horse", &["unlimber"]).expect("horse unlimber");
    assert_eq!(
        roll_input(&horse, "command", "unreliable_unlimber"),
        Some(1)
    );
    // A foot battery has no rating: prolonging changes nothing for it.
    let foot = order(&mut t, "foot", &["prolong"]).expect("foot prolong");
    assert_eq!(roll_input(&foot, "command", "reliable_prolong"), Some(0));
    assert_eq!(roll_input(&foot, "command", "unreliable_prolong"), Some(0));
    assert!(flag(&t, "foot", "ordered_prolong"));

    // The order is held to what it said: a battery ordered to prolong does not hand-haul,
    // and one ordered without `prolong` does not move on prolong (the heavy guns' -1 could
    // otherwise be dodged).
    let mut t = table(GUNS);
    until_phase(&mut t, "blue", "command");
    order(&mut t, "heavy", &["prolong"]).expect("order");
    assert!(
        counter(&t, "heavy", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    let no = refused(act(&mut t, "blue", "heavy", "hand_haul", None));
    assert!(
        no.message.contains("not ordered to hand-haul"),
        "{}",
        no.message
    );
    move_to(&mut t, "blue", "heavy", 10.0, 37.0).expect("a prolong move");
    order(&mut t, "foot", &[]).expect("order");
    assert!(
        counter(&t, "foot", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    let no = refused(move_to(&mut t, "blue", "foot", 50.0, 37.0));
    assert!(
        no.message.contains("not ordered to move on prolong"),
        "{}",
        no.message
    );
    // An intent that does not fit the unit is refused, and so is one the action does not
    // declare (the kernel's check); neither rolls.
    let no = refused(order(&mut t, "light", &["unlimber"]));
    assert!(
        no.message.contains("cannot be ordered to unlimber"),
        "{}",
        no.message
    );
    let no = refused(order(&mut t, "light", &["retreat"]));
    assert_eq!(no.kind, RefusalKind::BadTarget);
    assert!(
        no.message.contains("cannot be given for `retreat`"),
        "{}",
        no.message
    );
    assert!(!flag(&t, "light", "ordered"));
}

#[test]
fn grande_bande_ordered_into_a_flank_zone_takes_minus_one_staff() {
    // 003 Grande Bande, Orders: -1 staff for any order that includes movement into either
    // flank zone. The order says so (intent `into_flank`); without it, no flank move.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: gb, side: blue, type: light_infantry, at: [30, 36], facing: 270, mode: grande_bande, attributes: { brigade: 1 } }\n  - { id: b1, side: blue, type: line_infantry, at: [40, 36], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let plain = act(&mut t, "blue", "bde", "order", Some("gb")).expect("order");
    assert_eq!(
        roll_input(&plain, "command", "grande_bande_into_flank"),
        Some(0)
    );
    assert!(
        counter(&t, "gb", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    // West is its flank zone (it faces north).
    let no = refused(move_to(&mut t, "blue", "gb", 26.0, 36.0));
    assert!(
        no.message.contains("not ordered into a flank zone"),
        "{}",
        no.message
    );
    move_to(&mut t, "blue", "gb", 30.0, 33.0).expect("forward is free");
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let flank = act_for(
        &mut t,
        "blue",
        ("bde", "order", Some("gb")),
        &["into_flank"],
    )
    .expect("order");
    assert_eq!(
        roll_input(&flank, "command", "grande_bande_into_flank"),
        Some(1)
    );
    assert!(
        counter(&t, "gb", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    move_to(&mut t, "blue", "gb", 26.0, 36.0).expect("ordered into its flank zone");
    // Only a grande bande is ordered into a flank zone.
    let no = refused(act_for(
        &mut t,
        "blue",
        ("bde", "order", Some("b1")),
        &["into_flank"],
    ));
    assert!(
        no.message
            .contains("cannot be ordered to move into a flank zone"),
        "{}",
        no.message
    );
}

#[test]
fn opportunists_ordered_to_charge_in_their_own_turn_take_minus_one() {
    // 003 Support Charge: opportunist chargers take -1 to the command check when ordered
    // to charge during their own turn; the order says so (intent `charge`).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: hus, side: blue, type: cavalry, at: [30, 30], facing: 270, attributes: { brigade: 1, opportunist: 1 } }\n  - { id: drg, side: blue, type: cavalry, at: [50, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 21], facing: 90, attributes: { brigade: 1 } }\n  - { id: r2, side: red, type: line_infantry, at: [50, 21], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let given = act_for(&mut t, "blue", ("bde", "order", Some("hus")), &["charge"]).expect("order");
    assert_eq!(roll_input(&given, "command", "opportunist_charge"), Some(1));
    assert!(flag(&t, "hus", "ordered_charge"));
    // Non-opportunists ordered to charge take nothing.
    let drg = act_for(&mut t, "blue", ("bde", "order", Some("drg")), &["charge"]);
    let events = drg.expect("order");
    assert_eq!(
        roll_input(&events, "command", "opportunist_charge"),
        Some(0)
    );
    // Ordered without saying so, an opportunist may not charge on that order.
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "bde", "order", Some("hus")).expect("order");
    let no = refused(act(&mut t, "blue", "hus", "cavalry_charge", Some("r1")));
    assert!(
        no.message.contains("not ordered to charge"),
        "{}",
        no.message
    );
    // The odds: -1 staff for the opportunist ordered to charge.
    let club = ruleset(CLUB);
    let minus = odds(
        &club,
        "command",
        &[("staff", 8), ("opportunist", 1), ("opportunist_charge", 1)],
    );
    assert_eq!(p(&minus, "no_moves"), r(14, 36));
}

#[test]
fn reliable_formations_optional_rule_adds_one_when_the_first_order_is_to_form() {
    // 003 Reliable Formations (optional, off by default): a unit Reliable in line or attack
    // column gets +1 staff when its first order is to change into that formation.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 36], facing: 270, mode: attack_column, attributes: { brigade: 1, reliable_line: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut off = table(pieces);
    until_phase(&mut off, "blue", "command");
    let events = act_for(
        &mut off,
        "blue",
        ("bde", "order", Some("b1")),
        &["form_line"],
    )
    .expect("order");
    assert_eq!(
        roll_input(&events, "command", "reliable_formation"),
        Some(0)
    );
    let mut on = table_of(CLUB, "reliable_formations: true", pieces);
    until_phase(&mut on, "blue", "command");
    let events = act_for(
        &mut on,
        "blue",
        ("bde", "order", Some("b1")),
        &["form_line"],
    )
    .expect("order");
    assert_eq!(
        roll_input(&events, "command", "reliable_formation"),
        Some(1)
    );
    // The first order is to form line: it does so before it moves.
    assert!(
        counter(&on, "b1", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    let no = refused(move_to(&mut on, "blue", "b1", 30.0, 33.0));
    assert!(
        no.message.contains("ordered first to form line"),
        "{}",
        no.message
    );
    // Forming attack column when Reliable only in line gives nothing.
    let mut on = table_of(
        CLUB,
        "reliable_formations: true",
        &pieces.replace("attack_column", "line"),
    );
    until_phase(&mut on, "blue", "command");
    let events = act_for(
        &mut on,
        "blue",
        ("bde", "order", Some("b1")),
        &["form_attack_column"],
    )
    .expect("order");
    assert_eq!(
        roll_input(&events, "command", "reliable_formation_column"),
        Some(0)
    );
    let club = ruleset(CLUB);
    let plus = odds(
        &club,
        "command",
        &[
            ("staff", 8),
            ("reliable_formations", 1),
            ("reliable_line", 1),
            ("reliable_formation", 1),
        ],
    );
    assert_eq!(p(&plus, "no_moves"), r(5, 36));
}

#[test]
fn support_charge_is_minus_two_when_the_target_did_not_start_in_the_front_arc() {
    // 003 Support Charge: -2 to the command check if the enemy unit did not start (the
    // phase) in the cavalry's front arc. The kernel keeps where every unit stood as the
    // phase began (`game:phase_start`).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 40], facing: 270, attributes: { brigade: 1, staff: 8 } }\n  - { id: hus, side: blue, type: cavalry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: rbde, side: red, type: brigadier, at: [44, 10], facing: 90, attributes: { brigade: 1, staff: 12 } }\n  - { id: r1, side: red, type: line_infantry, at: [42, 24], facing: 180, attributes: { brigade: 1 } }\n";
    // r1 starts 63 degrees off the hussars' facing (their flank), then moves into their
    // front arc, 10.3" away (beyond the 7.92" they threaten infantry).
    let mut t = table(pieces);
    until_phase(&mut t, "red", "command");
    act(&mut t, "red", "rbde", "order", Some("r1")).expect("order");
    assert!(
        counter(&t, "r1", "moves") > 0,
        "staff 12 succeeds with this seed"
    );
    let to = Point::new(Len(35_000), Len(21_000));
    let r1 = id(&t, "r1");
    apply(
        &mut t,
        "red",
        Action::MoveTo {
            piece: r1,
            to,
            facing: Some(grognard_kernel::geometry::open::Angle::degrees(120)),
        },
    )
    .expect("r1 moves into the hussars' front arc");
    let events = act(&mut t, "blue", "hus", "support_charge", Some("r1")).expect("support charge");
    assert_eq!(
        roll_input(&events, "support_charge", "not_front_arc"),
        Some(1)
    );
    // A target that stood in the front arc as the phase began: no -2.
    let mut t = table(&pieces.replace("at: [42, 24], facing: 180", "at: [35, 21], facing: 120"));
    until_phase(&mut t, "red", "command");
    // 003 Support Charge: not against a unit moving by initiative — only one on an order.
    let no = refused(act(&mut t, "blue", "hus", "support_charge", Some("r1")));
    assert!(
        no.message.contains("not moving on an order"),
        "{}",
        no.message
    );
    act(&mut t, "red", "rbde", "order", Some("r1")).expect("order");
    let events = act(&mut t, "blue", "hus", "support_charge", Some("r1")).expect("support charge");
    assert_eq!(
        roll_input(&events, "support_charge", "not_front_arc"),
        Some(0)
    );
}

#[test]
fn a_unit_stops_in_the_zone_of_the_enemy_it_faces_and_may_not_enter_others() {
    // 003 Command Friction: units may not voluntarily move into threatened range unless
    // charging; moving toward the enemy, a unit must stop when threatened by the enemy it
    // is facing. Reading: the zone of the enemy faced may be entered (the move stops
    // there); the zone of an enemy not faced is closed.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [34, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [33, 28], facing: 270, attributes: { brigade: 1 } }\n  - { id: r2, side: red, type: line_infantry, at: [40, 24], facing: 180, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(
        ordered(&mut t, "bde", "b1") >= 1,
        "staff 12 fails only on a blunder"
    );
    // Facing north, b1 does not face r2 (60 degrees off): r2's 3.96" zone is closed to it.
    let no = refused(move_facing(&mut t, "b1", 37.0, 24.5, 270));
    assert_eq!(no.kind, RefusalKind::MustStop);
    assert!(no.message.contains("does not face it"), "{}", no.message);
    // Facing r2, the same move is an approach: it stops where it enters r2's zone.
    let stop = refused(move_facing(&mut t, "b1", 37.0, 24.5, 330));
    assert!(stop.message.contains("must stop at"), "{}", stop.message);
    // The core reading has no threatened zones at all.
    let mut core = table_of(CORE, "", pieces);
    assert!(ordered(&mut core, "bde", "b1") >= 1);
    move_facing(&mut core, "b1", 37.0, 24.5, 270).expect("no zones in the base reading");
}

#[test]
fn under_a_hold_order_the_staff_stand_does_not_move() {
    // 003 Brigade Orders, Hold: the staff stand may not move until its order is changed.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 8 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 36], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    assert_eq!(counter(&t, "bde", "moves"), 1);
    act(&mut t, "blue", "bde", "hold", None).expect("hold");
    let no = refused(move_to(&mut t, "blue", "bde", 30.0, 40.0));
    assert!(
        no.message.contains("staff stand may not move"),
        "{}",
        no.message
    );
    // Changing the order frees it.
    act(&mut t, "blue", "bde", "assault", Some("r1")).expect("assault");
    move_to(&mut t, "blue", "bde", 30.0, 40.0).expect("moves under Assault");
}

#[test]
fn a_save_keeps_what_an_order_was_for_and_replays() {
    // The intent is part of the order: the save writes it back and a replay reproduces the
    // roll it changed (the opportunists' -1 in the example's last order).
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("bp.save.json");
    let save = save.to_str().expect("path");
    let run = grognard(&[
        "play",
        "examples/black-powder.yaml",
        "--orders",
        "examples/black-powder.orders.yaml",
        "--save",
        save,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(save).expect("save");
    let json: serde_json::Value = serde_json::from_str(&text).expect("json");
    let last = json["orders"]
        .as_array()
        .and_then(|o| o.last())
        .expect("orders");
    assert_eq!(last["act"]["intent"], serde_json::json!(["charge"]));
    let run = grognard(&["replay", save]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("replay verified"), "{}", run.stdout);
}

#[test]
fn optional_rule_re_rolls_a_reliable_units_failed_order_and_an_unreliable_units_passed_one() {
    // Base assumption, other reading (optional rule `reliability_rerolls_orders`): Reliable
    // re-rolls a failed order, Unreliable must re-roll a passed one; the second result
    // stands, and the single-die re-rolls are off.
    let core = ruleset(CORE);
    let off = odds(
        &core,
        "command",
        &[("staff", 8), ("reliable", 1), ("by_outcome", 1)],
    );
    assert_eq!(p(&off, "no_moves"), r(1, 4));
    // Staff 2 all but always fails: the Reliable light battalion's order is rolled again.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 2 } }\n  - { id: lt, side: blue, type: light_infantry, at: [30, 36], facing: 270, attributes: { brigade: 1, reliable: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table_of(CLUB, "reliability_rerolls_orders: true", pieces);
    until_phase(&mut t, "blue", "command");
    let events = act(&mut t, "blue", "bde", "order", Some("lt")).expect("order");
    assert_eq!(roll_input(&events, "command", "reliable_dice"), Some(0));
    let results = rolls(&events, "command");
    assert_eq!(results.len(), 2, "{results:?}");
    assert_ne!(results[0], "one_move");
    // The second result stands: its moves, and a failure ends the brigadier's orders.
    let moves = match results[1].as_str() {
        "one_move" => 1,
        "two_moves" => 2,
        "three_moves" => 3,
        _ => 0,
    };
    if results[1] != "blunder" {
        assert_eq!(counter(&t, "lt", "moves"), moves);
    }
    assert_eq!(flag(&t, "bde", "command_failed"), moves == 0);
    // Staff 12 all but always passes: the Unreliable battalion must roll again.
    let pieces = pieces
        .replace("staff: 2", "staff: 12")
        .replace("reliable: 1", "unreliable: 1");
    let mut t = table_of(CLUB, "reliability_rerolls_orders: true", &pieces);
    until_phase(&mut t, "blue", "command");
    let events = act(&mut t, "blue", "bde", "order", Some("lt")).expect("order");
    assert_eq!(rolls(&events, "command").len(), 2);
    // Without the option, one roll with its dice re-rolled.
    let mut t = table_of(CLUB, "", &pieces);
    until_phase(&mut t, "blue", "command");
    let events = act(&mut t, "blue", "bde", "order", Some("lt")).expect("order");
    assert_eq!(rolls(&events, "command").len(), 1);
    assert_eq!(roll_input(&events, "command", "unreliable_dice"), Some(1));
}

#[test]
fn a_brigade_command_says_what_it_is_for_and_marks_the_units_it_fits() {
    // 003 Brigade Commands with the Support Charge's opportunist -1: one roll for the
    // command; the -1 applies when an opportunist of the command is ordered to charge.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: hus, side: blue, type: cavalry, at: [30, 30], facing: 270, attributes: { brigade: 1, opportunist: 1 } }\n  - { id: b1, side: blue, type: line_infantry, at: [40, 34], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let no = refused(act_for(
        &mut t,
        "blue",
        ("bde", "brigade_order", Some("b1")),
        &["prolong"],
    ));
    assert!(
        no.message
            .contains("no unit of the brigade command can move unlimbered guns on prolong"),
        "{}",
        no.message
    );
    let events = act_for(
        &mut t,
        "blue",
        ("bde", "brigade_order", Some("b1")),
        &["charge"],
    )
    .expect("brigade command");
    assert_eq!(
        roll_input(&events, "command", "opportunist_charge"),
        Some(1)
    );
    assert!(flag(&t, "hus", "ordered_charge"));
    assert!(flag(&t, "b1", "ordered_charge"));
}

// ---------------------------------------------------------------------------------------
// Mode changes held to the order, charges as moves, sudden charges, turning to face,
// rough ground

/// The mode id named `name`.
fn mode_id(t: &Table, name: &str) -> grognard_kernel::ids::ModeId {
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
fn set_mode(t: &mut Table, side: &str, who: &str, name: &str) -> Result<Vec<Event>, Refusal> {
    let piece = id(t, who);
    let mode = mode_id(t, name);
    apply(t, side, Action::Mode { piece, mode })
}

/// Where `who` faces, in whole degrees.
fn facing_of(t: &Table, who: &str) -> i32 {
    match t.game.piece_by_name(who).expect("piece").place {
        Place::Point { facing, .. } => (facing.0 + 5) / 10 % 360,
        _ => panic!("not on a table"),
    }
}

/// The intent the first `Acted` event of `action` records.
fn acted_intent(events: &[Event], action: &str) -> Vec<String> {
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

const HORSE_GUNS: &str = "  - { id: bde, side: blue, type: brigadier, at: [40, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: horse, side: blue, type: horse_battery, at: [40, 40], facing: 270, mode: limbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";

#[test]
fn guns_unlimber_only_on_an_order_to_unlimber() {
    // 003 Moving Artillery: unlimbering is free at the end of a move, but the order to
    // unlimber must be part of the order (horse batteries Unreliable on it). The ruleset's
    // `mode_changed` hook refuses the mode order otherwise.
    let mut t = table(HORSE_GUNS);
    until_phase(&mut t, "blue", "command");
    let no = refused(set_mode(&mut t, "blue", "horse", "unlimbered"));
    assert_eq!(no.kind, RefusalKind::HookFailed);
    assert!(
        no.message.contains("not ordered to unlimber"),
        "{}",
        no.message
    );
    assert_eq!(
        mode(&t, "horse"),
        "limbered",
        "a refused change changes nothing"
    );
    // An order that does not say so does not allow it either.
    act(&mut t, "blue", "bde", "order", Some("horse")).expect("order");
    assert!(counter(&t, "horse", "moves") >= 1);
    let still = refused(set_mode(&mut t, "blue", "horse", "unlimbered"));
    assert!(
        still.message.contains("not ordered to unlimber"),
        "{}",
        still.message
    );
    // Ordered to unlimber (Unreliable: the rating goes into the roll), it may.
    let mut t = table(HORSE_GUNS);
    until_phase(&mut t, "blue", "command");
    let events = act_for(
        &mut t,
        "blue",
        ("bde", "order", Some("horse")),
        &["unlimber"],
    )
    .expect("order to unlimber");
    assert_eq!(
        roll_input(&events, "command", "unreliable_unlimber"),
        Some(1)
    );
    assert_eq!(acted_intent(&events, "order"), ["unlimber"]);
    assert!(flag(&t, "horse", "ordered_unlimber"));
    move_to(&mut t, "blue", "horse", 40.0, 36.0).expect("a move first");
    set_mode(&mut t, "blue", "horse", "unlimbered").expect("then unlimber, free");
    assert_eq!(mode(&t, "horse"), "unlimbered");
    // Limbering is not held to the order (it costs a move instead); the base reading has
    // no such check at all.
    let mut core = table_of(CORE, "", HORSE_GUNS);
    set_mode(&mut core, "blue", "horse", "unlimbered").expect("base reading: no check");
}

#[test]
fn guns_in_initiative_range_unlimber_on_their_initiative_move() {
    // 003 Moving Artillery with the turn sequence: an initiative move is not an order;
    // Reading: a battery with an initiative move (an enemy within 8") may unlimber then.
    let near = HORSE_GUNS.replace("at: [70, 2], facing: 90", "at: [40, 33], facing: 90");
    let mut t = table(&near);
    until_phase(&mut t, "blue", "initiative");
    set_mode(&mut t, "blue", "horse", "unlimbered").expect("initiative unlimber");
    let mut t = table(HORSE_GUNS);
    until_phase(&mut t, "blue", "initiative");
    let no = refused(set_mode(&mut t, "blue", "horse", "unlimbered"));
    assert!(no.message.contains("no initiative move"), "{}", no.message);
}

#[test]
fn a_failed_order_marks_no_intent_except_the_free_unlimber() {
    // What an order is for counts only when it succeeds; 003 Moving Artillery: limbered
    // guns failing an order still get their free move and may unlimber at its end, if the
    // order said so. A staff 2 brigadier fails every order but a double 1.
    let weak = HORSE_GUNS.replace("staff: 12", "staff: 2")
        + "  - { id: foot, side: blue, type: foot_battery, at: [50, 40], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n";
    let mut checked = (false, false);
    for seed in 1..80 {
        let mut t = table_seeded(CLUB, "", seed, &weak);
        until_phase(&mut t, "blue", "command");
        let events = act_for(
            &mut t,
            "blue",
            ("bde", "order", Some("horse")),
            &["unlimber"],
        )
        .expect("order");
        if rolls(&events, "command") != ["no_moves"] {
            continue;
        }
        // The log keeps what the failed order was for.
        assert_eq!(acted_intent(&events, "order"), ["unlimber"]);
        assert_eq!(
            counter(&t, "horse", "moves"),
            1,
            "the limbered guns' free move"
        );
        assert!(flag(&t, "horse", "ordered_unlimber"));
        set_mode(&mut t, "blue", "horse", "unlimbered").expect("unlimber on the free move");
        checked.0 = true;
        // Another failed order (next turn) given to prolong marks nothing.
        until_phase(&mut t, "red", "command");
        until_phase(&mut t, "blue", "command");
        let events =
            act_for(&mut t, "blue", ("bde", "order", Some("foot")), &["prolong"]).expect("order");
        if rolls(&events, "command") == ["no_moves"] {
            assert_eq!(acted_intent(&events, "order"), ["prolong"]);
            assert!(!flag(&t, "foot", "ordered_prolong"));
            assert!(flag(&t, "foot", "ordered"));
            checked.1 = true;
        }
        if checked.0 && checked.1 {
            break;
        }
    }
    assert!(checked.0 && checked.1, "no seed failed both orders plainly");
}

#[test]
fn a_charge_is_made_with_a_move_from_an_order_or_the_initiative() {
    // Base reading (core notes): a charge is a move — a successful order's or an
    // initiative move's — and spends it. b1 stands 7" (10.6 rule inches) from r1: within
    // the initiative range; bc 10" (15.2) from r2: within its charge reach, beyond it.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [40, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 29], facing: 270, attributes: { brigade: 1 } }\n  - { id: bc, side: blue, type: cavalry, at: [42, 32], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 22], facing: 90, attributes: { brigade: 1 } }\n  - { id: r2, side: red, type: line_infantry, at: [42, 22], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "initiative");
    assert_eq!(counter(&t, "bc", "moves"), 0);
    let no = refused(act(&mut t, "blue", "bc", "cavalry_charge", Some("r2")));
    assert!(
        no.message.contains("no move to charge with"),
        "{}",
        no.message
    );
    // The initiative move may be a charge, and is spent by it.
    assert_eq!(counter(&t, "b1", "moves"), 1);
    act(&mut t, "blue", "b1", "charge", Some("r1")).expect("initiative charge");
    assert_eq!(counter(&t, "b1", "moves"), 0);
    // In the command phase a charge needs a successful order.
    until_phase(&mut t, "blue", "command");
    let no = refused(act(&mut t, "blue", "bc", "cavalry_charge", Some("r2")));
    assert!(
        no.message.contains("no move to charge with"),
        "{}",
        no.message
    );
    let events = act_for(&mut t, "blue", ("bde", "order", Some("bc")), &["charge"]).expect("order");
    assert_eq!(acted_intent(&events, "order"), ["charge"]);
    let moves = counter(&t, "bc", "moves");
    assert!(moves >= 1, "staff 12 succeeds with this seed");
    act(&mut t, "blue", "bc", "cavalry_charge", Some("r2")).expect("charge on the order");
    assert_eq!(
        counter(&t, "bc", "moves"),
        moves - 1,
        "the charge spends a move"
    );
    // The base reading: one command phase, the initiative move granted as it begins
    // (within 12 table inches there): b1 has one, bc (14" from r2) none.
    let core_pieces = pieces.replace("at: [42, 32]", "at: [42, 36]");
    let mut core = table_of(CORE, "", &core_pieces);
    assert_eq!(core.game.phase().expect("phase").0.name, "command");
    let no = refused(act(&mut core, "blue", "bc", "cavalry_charge", Some("r2")));
    assert!(
        no.message.contains("no move to charge with"),
        "{}",
        no.message
    );
    assert_eq!(counter(&core, "b1", "moves"), 1);
    act(&mut core, "blue", "b1", "charge", Some("r1")).expect("base initiative charge");
}

#[test]
fn sudden_charge_from_initiative_range() {
    // 003 Must Form Square, Sudden Charge: a charge from initiative range (the cavalry
    // stood within 8" of the square as the phase began) is -1 and disorders unless a 6.
    let pieces = "  - { id: bc, side: blue, type: cavalry, at: [30, 29], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 22], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "initiative");
    let events = act(&mut t, "blue", "bc", "cavalry_charge", Some("r1")).expect("charge");
    assert_eq!(roll_input(&events, "form_square", "sudden_charge"), Some(1));
    assert!(
        events.iter().any(|e| matches!(e, Event::Note { text }
            if text.contains("sudden charge (from initiative range)"))),
        "{events:?}"
    );
    let result = rolls(&events, "form_square");
    // -1: a natural 6 still forms square (and fires), 3-5 only a disordered square.
    match result[0].as_str() {
        "square_and_fire" | "square" => assert!(!flag(&t, "r1", "disordered")),
        _ => assert!(flag(&t, "r1", "disordered"), "{result:?}"),
    }
}

#[test]
fn sudden_charge_on_an_order_from_within_initiative_range_and_the_other_reading() {
    // 003 Sudden Charge from initiative range, read as where the charger stood as the phase
    // began: a charge on an order from 7" is sudden too; with the optional rule
    // `sudden_charge_on_initiative_only` only a charge on an initiative move is.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: bc, side: blue, type: cavalry, at: [30, 29], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 22], facing: 90, attributes: { brigade: 1 } }\n";
    for (options, sudden) in [("", 1), ("sudden_charge_on_initiative_only: true", 0)] {
        let mut t = table_of(CLUB, options, pieces);
        assert!(
            ordered(&mut t, "bde", "bc") >= 1,
            "staff 12 succeeds with this seed"
        );
        let events = act(&mut t, "blue", "bc", "cavalry_charge", Some("r1")).expect("charge");
        assert_eq!(
            roll_input(&events, "form_square", "sudden_charge"),
            Some(sudden),
            "{options}"
        );
    }
    // On an initiative move it is sudden under either reading.
    let mut t = table_of(CLUB, "sudden_charge_on_initiative_only: true", pieces);
    until_phase(&mut t, "blue", "initiative");
    let events = act(&mut t, "blue", "bc", "cavalry_charge", Some("r1")).expect("charge");
    assert_eq!(roll_input(&events, "form_square", "sudden_charge"), Some(1));
}

#[test]
fn sweeping_advance_charges_a_fresh_enemy_as_a_sudden_charge() {
    // Base reading: a sweeping advance — victorious cavalry charges a fresh enemy within one
    // move in its front arc; 003 Sudden Charge: a charge during a sweeping advance is sudden
    // (here r2 stood 11.7" away, to the square's front: only the sweep makes it sudden).
    let pieces = "  - { id: bc, side: blue, type: cavalry, at: [30, 30], facing: 270, attributes: { brigade: 1 } }\n  - { id: bc2, side: blue, type: cavalry, at: [42, 28], facing: 270, attributes: { brigade: 1 } }\n  - { id: rc, side: red, type: small_cavalry, at: [30, 24], facing: 90, attributes: { brigade: 1 } }\n  - { id: r2, side: red, type: line_infantry, at: [36, 20], facing: 90, attributes: { brigade: 2 } }\n";
    let mut checked = false;
    for seed in 1..80 {
        let mut t = table_seeded(CLUB, "", seed, pieces);
        until_phase(&mut t, "blue", "initiative");
        act(&mut t, "blue", "bc", "cavalry_charge", Some("rc")).expect("charge");
        until_phase(&mut t, "blue", "close_combat");
        act(&mut t, "blue", "bc", "melee", Some("rc")).expect("melee");
        if !flag(&t, "bc", "victory_move") || flag(&t, "bc", "locked") {
            continue;
        }
        // Only a unit that won may sweep on.
        let no = refused(act(&mut t, "blue", "bc2", "sweeping_advance", Some("r2")));
        assert!(
            no.message.contains("has not won a combat"),
            "{}",
            no.message
        );
        let events = act(&mut t, "blue", "bc", "sweeping_advance", Some("r2")).expect("sweep");
        assert_eq!(roll_input(&events, "form_square", "sudden_charge"), Some(1));
        assert!(
            events.iter().any(|e| matches!(e, Event::Note { text }
                if text.contains("sudden charge (during a sweeping advance)"))),
            "{events:?}"
        );
        assert!(
            !flag(&t, "bc", "victory_move"),
            "the sweep replaces the victory move"
        );
        assert!(flag(&t, "bc", "locked") && flag(&t, "r2", "locked"));
        checked = true;
        break;
    }
    assert!(checked, "no seed gave bc a free victory");
}

#[test]
fn cavalry_charged_in_the_flank_turn_to_face_the_charger() {
    // 003 Flank Attacks: cavalry may be able to turn and face the charging unit. Reading:
    // unless disordered, shaken or already in combat it does, and so is not attacked in the
    // flank; the optional rule `cavalry_flank_charges_stand` is the other reading.
    let pieces = "  - { id: b1, side: blue, type: line_infantry, at: [30, 26], facing: 270, attributes: { brigade: 1 } }\n  - { id: rc, side: red, type: cavalry, at: [30, 20], facing: 0, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "initiative");
    // rc faces east; b1, due south of it, is in its flank zone.
    act(&mut t, "blue", "b1", "charge", Some("rc")).expect("charge");
    assert_eq!(
        facing_of(&t, "rc"),
        90,
        "rc turned to face b1, to its south"
    );
    assert_eq!(at(&t, "rc"), (30.0, 20.0));
    // The other reading: it stays attacked in the flank.
    let mut t = table_of(CLUB, "cavalry_flank_charges_stand: true", pieces);
    until_phase(&mut t, "blue", "initiative");
    act(&mut t, "blue", "b1", "charge", Some("rc")).expect("charge");
    assert_eq!(facing_of(&t, "rc"), 0);
    // Disordered cavalry cannot turn.
    let disordered = pieces.replace(
        "facing: 0, attributes: { brigade: 1 } }",
        "facing: 0, flags: [disordered], attributes: { brigade: 1 } }",
    );
    let mut t = table(&disordered);
    until_phase(&mut t, "blue", "initiative");
    act(&mut t, "blue", "b1", "charge", Some("rc")).expect("charge");
    assert_eq!(facing_of(&t, "rc"), 0);
}

#[test]
fn light_woods_are_rough_ground_for_movement() {
    // 003 Woods: orchards and light woods count as rough ground for movement; the core's
    // base reading of rough ground: half pace for infantry (+6"), cavalry (+9") and guns,
    // skirmish companies as normal (at 66%: +3.96" and +5.94" on the table). The orchard
    // lies at x 12-22, y 20-27.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [10, 40], facing: 270, attributes: { brigade: 1, staff: 12 } }\n  - { id: bi, side: blue, type: line_infantry, at: [10, 22], facing: 0, attributes: { brigade: 1 } }\n  - { id: bk, side: blue, type: skirmish_company, at: [8, 25], facing: 0, attributes: { brigade: 1 } }\n  - { id: bc, side: blue, type: cavalry, at: [6, 23.5], facing: 0, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [70, 2], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    for who in ["bi", "bk", "bc"] {
        act(&mut t, "blue", "bde", "order", Some(who)).expect("order");
        assert!(
            counter(&t, who, "moves") >= 1,
            "staff 12 succeeds with this seed"
        );
    }
    // Infantry: 5" into the orchard costs 5 + 3.96 > 7.92; 3" costs 6.96.
    let no = refused(move_to(&mut t, "blue", "bi", 15.0, 22.0));
    assert!(no.message.contains("7.92\""), "{}", no.message);
    move_to(&mut t, "blue", "bi", 13.0, 22.0).expect("3\" in rough ground");
    // A skirmish company moves through at its full 7.92".
    move_to(&mut t, "blue", "bk", 15.5, 25.0).expect("skirmishers as normal");
    // Cavalry: 11.88" a move; 6.5" that ends in the orchard costs 6.5 + 5.94.
    let no = refused(move_to(&mut t, "blue", "bc", 12.5, 23.5));
    assert!(no.message.contains("11.88\""), "{}", no.message);
    move_to(&mut t, "blue", "bc", 11.5, 23.5).expect("5.5\" short of the orchard");
    // The core's own rough ground (terrain `rough`) costs the same.
    let core = table_of(CORE, "", pieces);
    let rules = core.game.rules();
    let rough = rules
        .terrain
        .iter()
        .position(|x| x.name == "rough")
        .expect("rough");
    let class = |name: &str| {
        rules
            .move_classes
            .iter()
            .find(|m| m.name == name)
            .expect("class")
            .enter[rough]
    };
    assert_eq!(class("foot"), Some(grognard_kernel::Cost::whole(6)));
    assert_eq!(class("horse"), Some(grognard_kernel::Cost::whole(9)));
    assert_eq!(class("guns"), Some(grognard_kernel::Cost::whole(6)));
    assert_eq!(class("skirmishers"), Some(grognard_kernel::Cost::ZERO));
}

#[test]
fn the_acted_event_records_the_intent_and_old_logs_still_read() {
    // The log's Acted event keeps what the order was for; an empty intent is left out, so
    // logs written before intents existed read back unchanged.
    let mut t = table(HORSE_GUNS);
    until_phase(&mut t, "blue", "command");
    let events = act_for(
        &mut t,
        "blue",
        ("bde", "order", Some("horse")),
        &["unlimber"],
    )
    .expect("order");
    let acted = events
        .iter()
        .find(|e| matches!(e, Event::Acted { .. }))
        .expect("acted")
        .clone();
    let json = serde_json::to_string(&acted).expect("json");
    assert!(json.contains(r#""intent":["unlimber"]"#), "{json}");
    assert_eq!(serde_json::from_str::<Event>(&json).expect("reads"), acted);
    let old = r#"{"event":"acted","piece":1,"action":"assault","target":null,"roll":null}"#;
    let read: Event = serde_json::from_str(old).expect("an old log entry reads");
    assert!(matches!(&read, Event::Acted { intent, .. } if intent.is_empty()));
    assert_eq!(serde_json::to_string(&read).expect("json"), old);
}

#[test]
fn under_assault_infantry_and_artillery_may_move_into_threatened_range() {
    // 003 Brigade Orders, Assault: infantry and artillery may move to close range; Maneuver:
    // units may not voluntarily advance to close range. Reading: close range is the
    // threatened range. b1 faces north, 60 degrees off r2: under Maneuver (the general rule)
    // r2's 3.96" zone is closed to it; under Assault on r2 it turns to face r2 and runs into
    // the zone without stopping — but not within the 4" limit (2.64" on the table).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [34, 44], facing: 270, attributes: { brigade: 1, staff: 12, brigade_size: 3 } }\n  - { id: b1, side: blue, type: line_infantry, at: [33, 28], facing: 270, attributes: { brigade: 1 } }\n  - { id: bc, side: blue, type: cavalry, at: [10, 44], facing: 270, attributes: { brigade: 1 } }\n  - { id: ba, side: blue, type: foot_battery, at: [60, 44], facing: 270, mode: unlimbered, attributes: { brigade: 1, gun: 8, nation: 3 } }\n  - { id: r2, side: red, type: line_infantry, at: [40, 24], facing: 180, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    assert!(
        ordered(&mut t, "bde", "b1") >= 1,
        "staff 12 fails only on a blunder"
    );
    act(&mut t, "blue", "bde", "maneuver", None).expect("maneuver");
    assert!(!flag(&t, "b1", "may_close"));
    let no = refused(move_facing(&mut t, "b1", 37.0, 24.5, 345));
    assert!(no.message.contains("must stop at"), "{}", no.message);
    act(&mut t, "blue", "bde", "assault", Some("r2")).expect("assault");
    // Infantry and artillery may close; cavalry may not.
    assert!(flag(&t, "b1", "may_close") && flag(&t, "ba", "may_close"));
    assert!(!flag(&t, "bc", "may_close"));
    // The order turned b1 to face its objective (r2 lies at 330 degrees from it).
    assert_eq!(facing_of(&t, "b1"), 330);
    let near = refused(move_facing(&mut t, "b1", 38.0, 24.2, 345));
    assert!(
        near.message.contains("may not come within"),
        "{}",
        near.message
    );
    move_facing(&mut t, "b1", 37.0, 24.5, 345).expect("into r2's zone under Assault");
    assert_eq!(at(&t, "b1"), (37.0, 24.5));
    // A new order takes the permission away again.
    act(&mut t, "blue", "bde", "reserve", None).expect("reserve");
    assert!(!flag(&t, "b1", "may_close") && !flag(&t, "ba", "may_close"));
}

#[test]
fn under_hold_infantry_close_with_the_enemy_only_within_command_range() {
    // 003 Brigade Orders, Hold: infantry may voluntarily advance to close range if they stay
    // in command range. Reading: close range is the threatened range, command range 12
    // table inches from the brigadier (setting `command_range`).
    let pieces = |bde: &str| {
        format!(
            "  - {{ id: bde, side: blue, type: brigadier, at: [{bde}], facing: 270, attributes: {{ brigade: 1, staff: 12 }} }}\n  - {{ id: b1, side: blue, type: line_infantry, at: [33, 28], facing: 330, attributes: {{ brigade: 1 }} }}\n  - {{ id: r2, side: red, type: line_infantry, at: [40, 24], facing: 180, attributes: {{ brigade: 1 }} }}\n"
        )
    };
    // The brigadier 9.55" from where b1 ends: b1 runs into r2's zone.
    let mut t = table(&pieces("36, 34"));
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "bde", "hold", None).expect("hold");
    assert!(flag(&t, "b1", "may_close"));
    assert!(
        ordered(&mut t, "bde", "b1") >= 1,
        "Hold: a free move even on a failure"
    );
    move_facing(&mut t, "b1", 37.0, 24.5, 345).expect("within command range");
    assert_eq!(at(&t, "b1"), (37.0, 24.5));
    // The brigadier 19.7" away: the same move is refused.
    let mut t = table(&pieces("34, 44"));
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "bde", "hold", None).expect("hold");
    assert!(
        ordered(&mut t, "bde", "b1") >= 1,
        "Hold: a free move even on a failure"
    );
    let no = refused(move_facing(&mut t, "b1", 37.0, 24.5, 345));
    assert!(
        no.message
            .contains("beyond command range (12 inches) of bde")
            && no.message.contains("threatened range of r2"),
        "{}",
        no.message
    );
    assert_eq!(at(&t, "b1"), (33.0, 28.0));
}

#[test]
fn an_assault_names_its_objective_faces_it_and_closes_on_it() {
    // 003 Brigade Orders, Assault: the brigade moves toward its stated objective (Reading:
    // an enemy unit, the order's target); on the turn of the order its units face it (the
    // order turns them; their moves keep it in the front arc), and a brigade command must
    // include at least one move toward it.
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12, brigade_size: 2 } }\n  - { id: b1, side: blue, type: line_infantry, at: [26, 36], facing: 90, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [34, 36], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 10], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    let none = refused(act(&mut t, "blue", "bde", "assault", None));
    assert!(none.message.contains("target"), "{}", none.message);
    act(&mut t, "blue", "bde", "assault", Some("r1")).expect("assault");
    assert_eq!(
        counter(&t, "bde", "objective"),
        id(&t, "r1").index() as i32 + 1
    );
    // b1 faced south, away from r1 (at 279 degrees from it): the order turned it.
    assert_eq!(facing_of(&t, "b1"), 279);
    assert_eq!(facing_of(&t, "b2"), 270, "r1 already in b2's front arc");
    act(&mut t, "blue", "bde", "brigade_order", Some("b1")).expect("brigade command");
    let n = counter(&t, "b1", "moves");
    assert!(n >= 1, "staff 12 (+3) fails only on a blunder");
    assert_eq!(counter(&t, "b2", "moves"), n);
    // On the turn of the order a move may not turn away from the objective.
    let away = refused(move_facing(&mut t, "b2", 35.0, 36.0, 0));
    assert!(
        away.message
            .contains("must keep its objective r1 in its front arc"),
        "{}",
        away.message
    );
    // Reading: the command's first move must be the one toward r1 — a sideways step is
    // refused, by either unit.
    for (who, x) in [("b1", 25.0), ("b2", 35.0)] {
        let side = refused(move_facing(&mut t, who, x, 36.0, 270));
        assert!(
            side.message
                .contains("must include a move toward its objective r1: its first move"),
            "{}",
            side.message
        );
    }
    assert_eq!(at(&t, "b1"), (26.0, 36.0));
    move_facing(&mut t, "b2", 34.0, 32.0, 270).expect("toward r1");
    assert!(flag(&t, "bde", "assault_advanced"));
    // Then the others are free (sideways, still facing r1).
    move_facing(&mut t, "b1", 25.0, 36.0, 270).expect("sideways after the advance");
    // The objective stays on the brigadier for the orders to come.
    assert_eq!(
        counter(&t, "bde", "objective"),
        id(&t, "r1").index() as i32 + 1
    );
}

#[test]
fn a_charge_on_the_objective_is_the_assault_commands_move_toward_it() {
    // 003 Brigade Orders, Assault: units may charge; a brigade command must include a move
    // toward the objective — a charge on the objective is one (then the others are free).
    let pieces = "  - { id: bde, side: blue, type: brigadier, at: [30, 44], facing: 270, attributes: { brigade: 1, staff: 12, brigade_size: 2 } }\n  - { id: b1, side: blue, type: line_infantry, at: [30, 20], facing: 270, attributes: { brigade: 1 } }\n  - { id: b2, side: blue, type: line_infantry, at: [50, 36], facing: 270, attributes: { brigade: 1 } }\n  - { id: r1, side: red, type: line_infantry, at: [30, 14], facing: 90, attributes: { brigade: 1 } }\n";
    let mut t = table(pieces);
    until_phase(&mut t, "blue", "command");
    act(&mut t, "blue", "bde", "assault", Some("r1")).expect("assault");
    act(&mut t, "blue", "bde", "brigade_order", Some("b1")).expect("brigade command");
    assert!(
        counter(&t, "b2", "moves") >= 2,
        "staff 12 (+3) gives two moves or more with this seed"
    );
    let side = refused(move_facing(&mut t, "b2", 52.0, 36.0, 250));
    assert!(side.message.contains("its first move"), "{}", side.message);
    act(&mut t, "blue", "b1", "charge", Some("r1")).expect("charge");
    assert!(flag(&t, "bde", "assault_advanced"));
    move_facing(&mut t, "b2", 52.0, 36.0, 250).expect("free after the charge");
}
