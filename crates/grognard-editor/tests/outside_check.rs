//! What the outside new-player check of issue 37 found still wrong, each driven as a player
//! drives the editor (egui_kittest, by the labels on screen): the Simulate tab's legend and
//! stopped runs, the Charts tab's cells, misspelt outcomes and errors, a click on a friendly
//! piece, the orders list beside the logs, the top bar at 1280 points, labels before their
//! boxes and buttons that can never apply.

mod common;

use common::{root, scenario};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::EditorApp;

fn tab(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_role_and_label(Role::Button, name).click();
    h.run();
}

#[test]
fn the_top_bar_fits_one_row_at_1280_points() {
    let mut h = scenario("examples/square-blocks-setup.yaml", 1280.0, 800.0);
    h.run();
    let first = h.get_by_role_and_label(Role::Button, "Rules").rect();
    for last in ["Host game…", "Join game…"] {
        let r = h.get_by_role_and_label(Role::Button, last).rect();
        assert!(
            (r.center().y - first.center().y).abs() < 2.0,
            "{last} is on the tabs' row ({r:?} against {first:?})"
        );
        assert!(r.max.x <= 1280.0, "{last} is inside the window: {r:?}");
    }
    // The files are still opened from the menus.
    h.get_by_role_and_label(Role::ComboBox, "Ruleset").click();
    h.run();
    assert!(h.query_by_label("Open ruleset…").is_some());
}

/// The label's right edge is left of its box's left edge, on the same row.
fn label_before(h: &Harness<'_, EditorApp>, name: &str, role: Role) {
    let boxed = h.get_by_role_and_label(role, name).rect();
    let label = h.get_by_role_and_label(Role::Label, name).rect();
    assert!(
        label.max.x <= boxed.min.x + 0.5 && (label.center().y - boxed.center().y).abs() < 4.0,
        "{name}: its label {label:?} comes before its box {boxed:?}"
    );
}

#[test]
fn labels_come_before_their_boxes() {
    let mut h = scenario("examples/drill-square.yaml", 1500.0, 1000.0);
    tab(&mut h, "Play");
    for name in ["Ruleset", "Scenario", "View as", "blue", "red"] {
        label_before(&h, name, Role::ComboBox);
    }
    tab(&mut h, "Charts");
    label_before(&h, "Chart", Role::ComboBox);
}

/// Runs the Simulate tab's games to the end (a bounded wait).
fn simulate(h: &mut Harness<'_, EditorApp>) {
    tab(h, "Simulate");
    h.get_by_label("Run").click();
    h.run_steps(2);
    for _ in 0..600 {
        if !h.state().simulating() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.step();
    }
    h.run_steps(3);
}

#[test]
fn the_simulate_legend_names_what_each_colour_is_outside_the_plot() {
    let mut h = scenario("examples/drill-square.yaml", 1500.0, 1000.0);
    simulate(&mut h);
    let results = h
        .state()
        .simulation_results()
        .expect("results")
        .clone()
        .expect("played");
    // The legend is a row above the plot, in words: which ruleset, and its games.
    let name = format!("in force: {} (100 games)", results[0].label);
    assert_eq!(h.query_all_by_label(&name).count(), 2, "one row per plot");
    // Nothing inside a plot: no legend entry (a checkbox there), so no internal series
    // name (`… interval 0 1`) and nothing over the bars.
    let inside: Vec<String> = h
        .query_all_by_role(Role::CheckBox)
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    assert!(
        inside.is_empty(),
        "legend entries inside the plots: {inside:?}"
    );
    // Under the bars, the sides as the scenario names them.
    assert!(
        results[0].sides == ["blue", "red"],
        "{:?}",
        results[0].sides
    );
}

#[test]
fn a_stopped_comparison_says_how_many_games_each_ruleset_played() {
    use grognard_editor::simulate::SimJob;
    let path = root().join("examples/drill-square.yaml");
    let played = |runs| {
        let s = grognard_rules::load::load_scenario(&path, None).expect("loads");
        let seed = s.compiled.setup.seed;
        let policy = grognard_play::PolicyKind::Random;
        SimJob::start(vec![s], &policy, runs, seed, 1)
            .wait()
            .expect("played")
            .remove(0)
    };
    let mut h = scenario("examples/drill-square.yaml", 1500.0, 1000.0);
    tab(&mut h, "Simulate");
    // As a run stopped early leaves them: the edited rules 3 games, the base 5.
    let mut base = played(5);
    base.label = "drill-square-base".to_owned();
    h.state_mut().set_simulation_results(vec![played(3), base]);
    h.run();
    assert!(
        h.query_by_label_contains(
            "played different numbers of games: drill-square 3 games, drill-square-base 5 games"
        )
        .is_some(),
        "the unequal counts are said"
    );
    assert_eq!(
        h.query_all_by_label("in force: drill-square (3 games)")
            .count(),
        2
    );
    assert_eq!(
        h.query_all_by_label("base: drill-square-base (5 games)")
            .count(),
        2
    );
    // Equal counts need no note.
    h.state_mut()
        .set_simulation_results(vec![played(3), played(3)]);
    h.run();
    assert!(
        h.query_by_label_contains("played different numbers of games")
            .is_none()
    );
}

/// The width a value takes in the editor's body font.
fn text_width(h: &Harness<'_, EditorApp>, text: &str) -> f32 {
    let font = egui::TextStyle::Body.resolve(&h.ctx.global_style());
    h.ctx.fonts_mut(|f| {
        f.layout_no_wrap(text.to_owned(), font, egui::Color32::WHITE)
            .size()
            .x
    })
}

#[test]
fn chart_cells_are_wide_enough_for_their_values() {
    let mut h = scenario("examples/black-powder.yaml", 1280.0, 800.0);
    tab(&mut h, "Charts");
    h.run_steps(3);
    let mut seen = 0;
    for n in h.get_all_by_role(Role::TextInput) {
        let label = n.accesskit_node().label().unwrap_or_default();
        if !label.starts_with("command ") {
            continue;
        }
        let value = n.value().unwrap_or_default();
        let need = text_width(&h, &value);
        let r = n.rect();
        // The frame's margins (4 points a side) leave the text the rest.
        assert!(
            r.width() - 8.0 >= need - 0.5,
            "{label}: `{value}` needs {need} points, its box is {}",
            r.width()
        );
        assert!(r.max.x <= 1280.0, "{label} is cut by the window: {r:?}");
        seen += 1;
    }
    assert!(seen > 10, "the command chart's cells were checked ({seen})");
    // The long outcome names among them, whole.
    assert!(
        h.get_all_by_role(Role::TextInput)
            .any(|n| n.value().as_deref() == Some("three_moves"))
    );
}

#[test]
fn a_misspelt_outcome_is_refused_with_the_outcomes_the_chart_knows() {
    let mut h = scenario("examples/black-powder.yaml", 1500.0, 1000.0);
    tab(&mut h, "Charts");
    let path = grognard_editor::house::field(&["charts", "command", "rows", "0", "result"]);
    let before = h
        .state()
        .workbench()
        .and_then(|b| b.value(&path).cloned())
        .expect("row 1 has a result");
    assert_eq!(before, serde_json::json!("blunder"));
    h.get_by_label("command row 1 result")
        .set_text_value_accesskit("blundr");
    h.run();
    let bench = h.state().workbench().expect("open");
    assert_eq!(
        bench.value(&path),
        Some(&before),
        "the misspelling is not taken"
    );
    let why = bench
        .field_errors
        .get(&path)
        .expect("refused beside the field");
    assert!(why.contains("did you mean `blunder`"), "{why}");
    assert!(
        why.contains("three_moves"),
        "the outcomes are listed: {why}"
    );
    assert!(
        h.query_by_label_contains("did you mean `blunder`")
            .is_some()
    );
    // A name the chart knows is taken (here the one it had: the refusal goes).
    h.get_by_label("command row 1 result")
        .set_text_value_accesskit("blunder");
    h.run();
    let bench = h.state().workbench().expect("open");
    assert_eq!(bench.value(&path), Some(&before));
    assert!(bench.field_errors.is_empty(), "{:?}", bench.field_errors);
}

#[test]
fn a_long_error_wraps_and_names_rows_as_the_file_counts_them() {
    let mut h = scenario("examples/black-powder.yaml", 1280.0, 800.0);
    tab(&mut h, "Charts");
    let field = "command modifier disordered units cannot be ordered per";
    let before = h.get_by_label(field).rect();
    h.get_by_label(field)
        .set_text_value_accesskit("a great many, far more than the page is wide");
    h.run_steps(3);
    // The third modifier, as a person counts (the tree's index is 2).
    assert!(h.query_by_label_contains("› 2 ›").is_none());
    let shown = h
        .query_by_label_contains("your edit of charts › command › modifier 3 › per")
        .expect("the error is shown, the modifier counted from 1");
    let r = shown.rect();
    assert!(
        r.max.x <= 1280.0,
        "the message wraps inside the window: {r:?}"
    );
    assert!(r.height() > 20.0, "on more than one line: {r:?}");
    let after = h.get_by_label(field).rect();
    assert!(
        after.max.x <= 1280.0 && after.left() < 1280.0,
        "{after:?} / {before:?}"
    );
}

fn select(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_label_contains(name).click();
    h.run();
}

fn click_cell(h: &mut Harness<'_, EditorApp>, c: grognard_kernel::geometry::Cell) {
    let pos = h.state().cell_on_screen(c).expect("the board is drawn");
    for pressed in [true, false] {
        h.event(egui::Event::PointerMoved(pos));
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    h.run();
}

#[test]
fn a_click_on_a_friendly_piece_selects_it_rather_than_planning_a_move() {
    use grognard_kernel::geometry::Cell;
    let mut h = scenario("examples/drill-square.yaml", 1500.0, 1000.0);
    tab(&mut h, "Play");
    select(&mut h, "b3 (blue");
    assert!(h.query_by_label_contains("b3 — half block").is_some());
    // A path being planned: b3 one step to (5,6), next to b4.
    click_cell(&mut h, Cell::new(5, 6));
    assert!(h.query_by_label_contains("path:").is_some());
    // A click on b4, a friendly piece, picks it: it does not add its cell to b3's path.
    click_cell(&mut h, Cell::new(5, 7));
    assert!(
        h.query_by_label_contains("b4 — infantry").is_some(),
        "b4 is selected"
    );
    assert!(
        h.query_by_label_contains("path:").is_none(),
        "no move planned"
    );
    // An empty cell still plans b4's path.
    click_cell(&mut h, Cell::new(5, 6));
    assert!(h.query_by_label_contains("path:").is_some());
}

#[test]
fn the_logs_stay_in_sight_whatever_the_orders_panel_holds() {
    let mut h = scenario("examples/drill-square.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    select(&mut h, "b1 (blue");
    // Everything the panel can unfold: the piece's orders, its reach list, the legend.
    for header in ["Reach (cell, cost)", "Legend"] {
        h.get_by_label_contains(header).click();
        h.run();
    }
    for log in ["Event log", "Dice log"] {
        let r = h.get_by_label_contains(log).rect();
        assert!(
            r.max.y <= 800.0 && r.min.y >= 0.0,
            "{log} is in sight: {r:?}"
        );
    }
}

#[test]
fn orders_that_can_never_apply_are_hidden_and_the_others_greyed_with_a_reason() {
    let mut h = scenario("examples/hex-command.yaml", 1500.0, 1000.0);
    tab(&mut h, "Play");
    // Past the arrivals, the command phase allows attach and change orders, both for
    // commanders only: a commander is offered them.
    h.get_by_role_and_label(Role::Button, "End phase").click();
    h.run();
    assert!(h.query_all_by_label_contains("command phase").count() > 0);
    select(&mut h, "hale (blue");
    assert!(h.query_all_by_label_contains("change orders").count() > 0);
    select(&mut h, "b1 (blue");
    assert!(h.query_by_label_contains("b1 — infantry").is_some());
    assert!(h.query_by_label("change orders").is_none());
    assert!(h.query_by_label("attach").is_none());
    // No spreading, saving or dummies in this ruleset: no such orders at all.
    assert!(h.query_by_label("More orders").is_none());
    assert!(h.query_by_label("Redeploy to…").is_none());
}
