//! The seventh outside player's leftovers of issue 37, part B (its report's #8–#11 and the
//! Simulate and Tune draws): the log's words, a house rule saved while a field shows an
//! error, one look for a seat's view in the editor and the browser, and a run in which
//! every game was drawn — each checked as the editor shows it, driven with egui_kittest.

mod common;
use common::status;

use std::path::PathBuf;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::app::FilePurpose;
use grognard_editor::house::field;
use grognard_editor::view::ViewAs;
use grognard_editor::{Command, EditorApp, Options};
use grognard_kernel::ids::SideId;

fn with_ruleset(path: &str) -> Harness<'static, EditorApp> {
    common::sized(
        Options {
            ruleset: Some(PathBuf::from(path)),
            ..Options::default()
        },
        1500.0,
        1000.0,
    )
}

// #10: a house rule saved while a field shows an error.

/// #10: a row's result typed as `hti` is refused (not an outcome of the chart) and marked
/// ⚠; a later good edit of another cell cleared that mark, and *Save as house rule* then
/// wrote the last good value silently while the cell still showed `hti`. The mark stays
/// until the cell is fixed, the button is greyed saying which field is wrong, and a save
/// asked for anyway (the Ruleset menu's) writes nothing and names the field.
#[test]
fn saving_a_house_rule_while_a_field_shows_an_error_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = with_ruleset("rulesets/black-powder-core.yaml");
    h.get_by_role_and_label(Role::Button, "Charts").click();
    h.run();
    let result = field(&["charts", "to_hit", "rows", "0", "result"]);
    let score = field(&["charts", "to_hit", "rows", "0", "score"]);
    h.state_mut()
        .command(Command::SetField(result.clone(), "hti".to_owned()));
    h.run();
    // Another cell edited well after it: the first cell still shows its error.
    h.state_mut()
        .command(Command::SetField(score.clone(), "5+".to_owned()));
    h.run();
    let bench = h.state().workbench().expect("a ruleset");
    assert!(
        bench.field_errors.contains_key(&result),
        "the refused cell keeps its mark: {:?}",
        bench.field_errors
    );
    let why = bench.unsaved_reason().expect("not savable");
    assert!(
        why.contains("charts › to hit › row 1 › result") && why.contains("hti"),
        "{why}"
    );
    let save = h.get_by_role_and_label(Role::Button, "Save as house rule…");
    assert!(
        save.accesskit_node().is_disabled(),
        "greyed while a field is wrong"
    );
    assert!(
        h.query_by_label_contains("fix the field marked ⚠ to save")
            .is_some()
    );
    // Asked anyway: nothing written, the field named.
    let target = dir.path().join("house.yaml");
    h.state_mut()
        .command(Command::Chosen(FilePurpose::SaveHouseRule, target.clone()));
    h.run();
    assert!(!target.exists(), "nothing saved");
    assert!(
        status(&h).contains("charts › to hit › row 1 › result"),
        "{}",
        status(&h)
    );
    // Fixed: it saves.
    h.state_mut()
        .command(Command::SetField(result, "hit".to_owned()));
    h.run();
    assert!(
        h.state()
            .workbench()
            .expect("bench")
            .unsaved_reason()
            .is_none()
    );
    h.state_mut()
        .command(Command::Chosen(FilePurpose::SaveHouseRule, target.clone()));
    h.run();
    assert!(target.exists(), "{}", status(&h));
    assert!(
        status(&h).contains("reloads to the same ruleset"),
        "{}",
        status(&h)
    );
}

/// #10, a number: `x` typed in a modifier's `per` does not load; saving then is refused
/// naming that field, and nothing is written.
#[test]
fn saving_with_a_bad_number_in_a_chart_cell_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = with_ruleset("rulesets/black-powder-core.yaml");
    let per = field(&["charts", "to_hit", "modifiers", "0", "per"]);
    h.state_mut()
        .command(Command::SetField(per, "x".to_owned()));
    h.run();
    let target = dir.path().join("house.yaml");
    h.state_mut()
        .command(Command::Chosen(FilePurpose::SaveHouseRule, target.clone()));
    h.run();
    assert!(!target.exists(), "nothing saved");
    assert!(
        status(&h)
            .starts_with("Not saved: a field shows an error: charts › to hit › modifier 1 › per"),
        "{}",
        status(&h)
    );
}

// Simulate and Tune: every game drawn.

fn root() -> PathBuf {
    common::root()
}

/// The duel of `tests/fixtures/tune/` (one shot decides: a d10 scoring the row's number
/// wins, a miss is a draw) with its row made `11+`, which a d10 never scores: every game
/// is drawn.
fn duel_that_always_draws(tab: &str) -> Harness<'static, EditorApp> {
    let mut h = common::sized(
        Options {
            scenario: Some(root().join("tests/fixtures/tune/duel-scenario.yaml")),
            ..Options::default()
        },
        1500.0,
        1400.0,
    );
    h.state_mut().command(Command::SetField(
        field(&["charts", "shot", "rows", "0", "score"]),
        "11+".to_owned(),
    ));
    h.run();
    h.get_by_role_and_label(Role::Button, tab).click();
    h.run();
    h
}

/// Simulate: 0% for each side and a flat chart did not say that every game was a draw.
#[test]
fn simulate_says_when_every_game_was_drawn() {
    let mut h = duel_that_always_draws("Simulate");
    h.get_by_role_and_label(Role::SpinButton, "games:")
        .set_value_accesskit(20.0);
    h.run();
    h.get_by_role_and_label(Role::Button, "Run").click();
    common::wait_while(&mut h, |a| {
        a.simulation_results().is_none() || a.simulating()
    });
    // The ruleset in force (11+) drew every game; its base (9+) did not.
    let note = "duel-house: Every game was drawn (20 of 20): no side won any game. This \
                usually means the game ends at its turn limit before either side meets its \
                victory terms; try more turns, or check the victory terms (how to win, on \
                the Play tab).";
    assert!(
        h.query_by_label(note).is_some(),
        "{:?}",
        h.state().simulation_results()
    );
    assert!(
        h.query_by_label_contains("duel: Every game was drawn")
            .is_none(),
        "the base won games: no such note for it"
    );
}

/// Tune: every candidate's games drawn read as "blue wins 0.0%" with no word of why.
#[test]
fn tune_says_when_every_game_was_drawn() {
    let mut h = duel_that_always_draws("Tune");
    h.get_by_label("find a number:")
        .set_text_value_accesskit("shot");
    h.run();
    h.get_by_label("charts.shot.rows.0.score = 11+").click();
    h.run();
    h.get_by_label("from").set_text_value_accesskit("11");
    h.run();
    h.get_by_label("to").set_text_value_accesskit("12");
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "games a candidate:")
        .set_value_accesskit(20.0);
    h.run();
    h.get_by_role_and_label(Role::Button, "Run").click();
    common::wait_while(&mut h, EditorApp::tuning);
    assert!(
        h.query_by_label_contains("Every game was drawn (")
            .is_some(),
        "{}",
        status(&h)
    );
    // Both candidates (11+ and 12+) drew every game, and the table says so of each.
    assert_eq!(h.query_all_by_label("every game drawn").count(), 2);
}

// #11: one look for a seat's view, in the editor and on the browser page.

/// What the editor shows of the French seat's opening position in square-blocks, pinned
/// here and in the page's test alike
/// (`crates/grognard-server/tests/browser_support/player7.rs`).
const OWN_LABEL: &str = "scout1 S";
const MODE_LETTERS: &str = "B battle, R road, S strategic";
const A_MOVE: &str = "→ (5,5), 1 step";

/// #11: the editor and the page drew one seat's view differently (face-down enemy blocks,
/// mode letters, the words of orders). The page now follows the editor; this pins the
/// editor's side of the one look: an unidentified enemy block face down (the side's
/// colour, faded), the own counter's mode letter after its name and the legend's words
/// for the letters, and a move worded "→ (5,5), 1 step".
#[test]
fn a_seats_view_is_drawn_and_worded_as_the_page_draws_it() {
    use grognard_editor::scene::{Look, label_lines, side_color};
    let mut h = common::scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.state_mut()
        .command(Command::ViewAs(ViewAs::Side(SideId(0))));
    h.run();
    let pieces = h.state().drawn_pieces();
    let nine = pieces
        .iter()
        .find(|p| p.name == "#9")
        .unwrap_or_else(|| panic!("no #9: {pieces:?}"));
    assert_eq!(nine.look, Look::FaceDown);
    assert_eq!(side_color(nine.side), egui::Color32::from_rgb(178, 48, 48));
    let scout1 = pieces
        .iter()
        .find(|p| p.name == "scout1")
        .expect("scout1 drawn");
    assert_eq!(
        label_lines(scout1).first().map(String::as_str),
        Some(OWN_LABEL)
    );
    let game = &h.state().session().expect("a game").game;
    assert_eq!(
        grognard_editor::words::mode_letters(game.rules()),
        MODE_LETTERS
    );
    // The French legal orders in the orders-file form, as the Play tab words them.
    let scenario = grognard_rules::load::load_scenario(
        &common::root().join("examples/square-blocks.yaml"),
        None,
    )
    .expect("the scenario loads");
    let mut session = grognard_editor::session::Session::start(scenario, &[]).expect("starts");
    let specs: Vec<serde_json::Value> = session
        .legal(SideId(0))
        .into_iter()
        .map(|action| {
            let order = grognard_kernel::action::Order {
                side: SideId(0),
                action,
            };
            let spec =
                grognard_rules::orders::describe_order_as(&session.game, &order, Some(SideId(0)));
            serde_json::to_value(spec).expect("a spec")
        })
        .collect();
    let words: Vec<(Option<String>, String)> = specs
        .iter()
        .map(grognard_editor::words::order_words)
        .collect();
    assert!(
        words.contains(&(Some("scout1".to_owned()), A_MOVE.to_owned())),
        "{words:?}"
    );
}

// #9: the dice log named the defender's cube by the ruleset's bookkeeping name
// (`cube_defender shows red star`); it says whose die it is, as the event log does.
#[test]
fn the_dice_log_says_whose_cube_it_is() {
    let ruleset =
        grognard_rules::load::load_ruleset(&common::root().join("rulesets/hex-command.yaml"))
            .unwrap_or_else(|d| panic!("{d}"));
    let die = grognard_kernel::action::LoggedDie {
        die: "cube_defender".to_owned(),
        face: "red star".to_owned(),
        value: 0,
        rerolled_from: None,
    };
    let roll = grognard_kernel::action::RollRecord {
        chart: "melee".to_owned(),
        purpose: "melee of b2 against r1".to_owned(),
        dice: vec![die],
        outcome: "defender hit".to_owned(),
        ..serde_json::from_str("{\"chart\":\"\",\"purpose\":\"\",\"inputs\":[],\"dice\":[],\"modifiers\":[],\"score\":0,\"band\":null,\"outcome\":\"\"}").expect("record")
    };
    let lines = grognard_editor::session::explain_roll(&ruleset, &roll);
    let all = lines.join("\n");
    assert!(all.contains("cube (defender) shows red star"), "{all}");
    assert!(!all.contains("cube_defender"), "{all}");
}
