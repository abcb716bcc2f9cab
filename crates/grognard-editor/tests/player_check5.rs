//! The rest of the third outside new-player check of issue 37 (items this file names), each
//! driven as a player drives the editor (egui_kittest, by the labels on screen).

mod common;

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
        h.query_by_label_contains("The referee rolls scout_fate in secret")
            .is_some()
    );
}
