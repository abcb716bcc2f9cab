//! The rest of the third outside new-player check of issue 37 (items this file names), each
//! driven as a player drives the editor (egui_kittest, by the labels on screen).

mod common;
use common::status;

use common::scenario;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::EditorApp;

fn tab(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_role_and_label(Role::Button, name).click();
    h.run();
}

fn view_as(h: &mut Harness<'_, EditorApp>, who: &str) {
    h.get_by_role_and_label(Role::ComboBox, "View as").click();
    h.run();
    h.get_by_label(who).click();
    h.run();
}

/// Item 2: square-blocks rolls each French scout's fate on a secret chart. Viewed as the
/// French the dice log shows no roll, as `grognard view --side french` does, and says why
/// rather than "No dice rolled yet."; the referee sees the two rolls.
#[test]
fn a_side_reads_that_no_dice_it_may_see_were_rolled_and_which_charts_are_secret() {
    let mut h = scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    view_as(&mut h, "Referee");
    assert!(
        h.query_by_label_contains("— scout fate of scout1")
            .is_some()
    );
    assert!(h.query_by_label("No dice rolled yet.").is_none());
    view_as(&mut h, "Side french");
    assert!(
        h.query_by_label_contains("— scout fate of scout1")
            .is_none()
    );
    assert!(h.query_by_label("No dice rolled yet.").is_none());
    assert!(h.query_by_label("No dice you may see yet.").is_some());
    assert!(
        h.query_by_label_contains("The referee rolls scout fate in secret")
            .is_some()
    );
}

/// Item 3: the log and the piece panel read flag and counter names spaced, a piece's name
/// (`r3_crew`, which orders spell) as it is, and a sighting at a named level as a state.
#[test]
fn the_log_and_panel_read_flags_and_counters_spaced_and_sightings_as_states() {
    let mut h = scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    view_as(&mut h, "Referee");
    let log = h.state().event_log().join("\n");
    assert!(log.contains("scout1 is marked “fate rolled”"), "{log}");
    // (Every side's scouts roll in every command phase since the square-blocks
    // thirteenth outside audit #21, so ascout has rolled too.)
    assert!(log.contains("ascout is marked “fate rolled”"), "{log}");
    assert!(
        !log.contains("fate_rolled") && !log.contains("awaiting_fate"),
        "{log}"
    );
    h.get_by_label_contains("scout1 (french").click();
    h.run();
    // In the log's words (eighth outside player F5: one wording for both).
    assert!(h.query_by_label("scout1 is marked “fate rolled”").is_some());
    assert!(h.query_by_label_contains("fate_rolled").is_none());

    let mut h = scenario("examples/hex-command.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    view_as(&mut h, "Referee");
    let log = h.state().event_log().join("\n");
    assert!(log.contains("blue sights r3 (seen)"), "{log}");
    assert!(log.contains("blue sights r3_crew (seen)"), "{log}");
    assert!(!log.contains("at level seen"), "{log}");
    h.get_by_label_contains("ames (blue").click();
    h.run();
    assert!(h.query_by_label("ames cvs i 4").is_some());
}

/// Item 3: the heading over a selected piece's orders counts what its group counts (the
/// end-phase button is not one of the piece's orders).
#[test]
fn the_legal_heading_counts_the_selected_pieces_orders_as_its_group_does() {
    let mut h = scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    view_as(&mut h, "Side french");
    h.get_by_label_contains("scout1 (french").click();
    h.run();
    let group = h
        .query_by_label_contains("scout1: ")
        .map(|n| {
            egui_kittest::kittest::NodeT::accesskit_node(&n)
                .label()
                .unwrap_or_default()
        })
        .expect("the piece's group");
    let n: usize = group
        .trim_start_matches("scout1: ")
        .trim_end_matches(" orders")
        .parse()
        .expect("a count");
    let heading = format!("Legal orders of french: scout1 ({n})");
    assert!(
        h.query_by_label(&heading).is_some(),
        "{heading} over {group}"
    );
}

/// Item 3: End phase says what it ended (was "done (0 events)").
#[test]
fn end_phase_says_which_phase_ended_and_what_comes_next() {
    let mut h = scenario("examples/drill-square.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    h.get_by_label("End phase").click();
    h.run();
    let said = status(&h);
    assert!(!said.contains("events"), "{said}");
    assert!(
        said == "the movement phase ended; now the fire phase",
        "{said}"
    );
}

/// Item 3: a counter's amount that does not fit reads `units 4` or `u4`, never `uni 4`;
/// a long name still shortens to three letters (`fig 48`).
#[test]
fn a_short_counter_name_is_never_cut_to_three_letters() {
    let h = scenario("examples/drill-square.yaml", 400.0, 300.0);
    let font = egui::FontId::proportional(9.0);
    for width in 8..80 {
        let units = grognard_editor::scene::fit_lines(
            &h.ctx,
            &["units 4".to_owned()],
            &font,
            width as f32,
            20.0,
        );
        assert_ne!(units[0], "uni 4", "at {width}");
    }
    let figures: Vec<String> = (8..80)
        .map(|w| {
            grognard_editor::scene::fit_lines(
                &h.ctx,
                &["figures 48".to_owned()],
                &font,
                w as f32,
                20.0,
            )
            .remove(0)
        })
        .collect();
    assert!(figures.iter().any(|f| f == "fig 48"), "{figures:?}");
}

/// The top and bottom of the node labelled exactly `label`, on screen.
fn span(h: &Harness<'_, EditorApp>, label: &str) -> (f64, f64) {
    let n = h.get_by_label(label);
    let b = egui_kittest::kittest::NodeT::accesskit_node(&n)
        .bounding_box()
        .expect("laid out");
    (b.y0, b.y1)
}

/// Runs frames as the editor's window does: one, then another only while the last asked
/// for one at once (no input comes in between).
fn settle(h: &mut Harness<'_, EditorApp>) {
    h.step();
    for _ in 0..20 {
        if !h.ctx.requested_repaint_last_pass() {
            return;
        }
        h.step();
    }
}

/// Item 4: the event log keeps its newest line in sight as lines arrive (from the
/// player's own order or the computer's, which repaints the editor once), unless the
/// player scrolled up to read older ones.
#[test]
fn the_event_log_follows_new_lines_unless_scrolled_up() {
    let mut h = scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    tab(&mut h, "Play");
    view_as(&mut h, "Referee");
    let last_in_sight = |h: &Harness<'_, EditorApp>| {
        let log = h.state().event_log().to_vec();
        let last = log.last().expect("a log").clone();
        // The last node so labelled: a line may repeat (the same Scout Fate roll in
        // both command phases).
        let node = h.query_all_by_label(&last).last().expect("the last line");
        let bottom = egui_kittest::kittest::NodeT::accesskit_node(&node)
            .bounding_box()
            .expect("laid out")
            .y1;
        let (dice, _) = span(h, "Dice log");
        (
            bottom <= dice,
            format!(
                "{} lines, {last:?} ends at {bottom}, the log's foot at {dice}",
                log.len()
            ),
        )
    };
    for round in 0..4 {
        // An order that comes from outside the panel (as the computer's does): the editor
        // runs the frames it asks for, and no more.
        h.state_mut().command(grognard_editor::Command::Give(
            grognard_kernel::action::Action::EndPhase,
        ));
        settle(&mut h);
        let (seen, why) = last_in_sight(&h);
        assert!(seen, "round {round}: {why}");
    }
    // Scrolled up, the log stays where the player put it.
    // Where the log's first line stands, from the log's foot (the panels above it change
    // height as orders come and go).
    let first = h.state().event_log()[0].clone();
    let from_foot = |h: &Harness<'_, EditorApp>| span(h, &first).0 - span(h, "Dice log").0;
    let before = from_foot(&h);
    let (dice, _) = span(&h, "Dice log");
    let over = egui::pos2(1100.0, (dice - 40.0) as f32);
    common::wheel(&mut h, over, 2000.0, 30);
    h.run();
    let up = from_foot(&h);
    assert!(up > before, "scrolled up: {before} → {up}");
    h.state_mut().command(grognard_editor::Command::Give(
        grognard_kernel::action::Action::EndPhase,
    ));
    settle(&mut h);
    let after = from_foot(&h);
    assert_eq!(after, up, "the first line stays put");
}

/// Item 6: a band chart with no rows of its own and no modifiers (hex-command's `spot`)
/// says "none" under those headings rather than showing them over nothing.
#[test]
fn an_empty_part_of_a_chart_says_none() {
    let mut h = scenario("examples/hex-command.yaml", 1280.0, 800.0);
    tab(&mut h, "Charts");
    h.state_mut()
        .command(grognard_editor::Command::ShowChart("spot".to_owned()));
    h.run();
    assert!(h.query_by_label("Modifiers").is_some());
    assert!(h.query_by_label("Bands").is_some());
    let nones = h.query_all_by_label("none").count();
    let rows = usize::from(h.query_by_label("Rows").is_some());
    assert_eq!(
        nones,
        1 + rows,
        "one 'none' under Modifiers and one under an empty Rows"
    );
}

/// Item 6: a band chart's band input shows the band's name beside its number.
#[test]
fn a_band_input_names_its_band() {
    let mut h = scenario("examples/hex-command.yaml", 1280.0, 800.0);
    tab(&mut h, "Charts");
    h.state_mut().command(grognard_editor::Command::ShowChart(
        "fire_small_a".to_owned(),
    ));
    h.run();
    h.state_mut()
        .command(grognard_editor::Command::ChartInput("band".to_owned(), 2));
    h.run();
    let rules = &h.state().workbench().expect("a ruleset").current.rules;
    let def = rules
        .chart_by_name("fire_small_a")
        .and_then(|id| rules.chart(id))
        .expect("the chart");
    let grognard_kernel::chart::Lookup::Band { rows, .. } = &def.lookup else {
        panic!("a band chart");
    };
    let name = format!("({})", rows[2].name);
    assert!(h.query_by_label(&name).is_some(), "{name} beside band 2");
}

/// Item 5: a square counter whose facing arrow points into a corner (square-blocks, facing
/// SW) keeps its label in the full-width band above the arrow, clear of its outline, not in
/// a narrow full-height band whose last line ran into the arrow.
#[test]
fn a_corner_arrow_leaves_the_label_a_full_width_band() {
    let counter = egui::Rect::from_min_size(egui::pos2(0.0, 0.0), egui::vec2(100.0, 100.0));
    // The arrow of a counter facing SW: a triangle in its lower left corner.
    let arrow = egui::Rect::from_min_max(egui::pos2(6.0, 67.0), egui::pos2(33.0, 94.0));
    let room = grognard_editor::board::clear_of(counter, arrow);
    assert_eq!(room.width(), 100.0, "{room:?}");
    assert!(
        room.max.y <= arrow.min.y - 1.0,
        "clear of the outline: {room:?}"
    );
    // A mark that leaves no full-width band of use still gives the largest part.
    let tall = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(30.0, 100.0));
    let room = grognard_editor::board::clear_of(counter, tall);
    assert!(room.min.x >= 31.0 && room.height() == 100.0, "{room:?}");
}
