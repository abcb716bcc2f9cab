//! What the third outside new-player check of issue 37 left (round 2, items this file
//! names), each driven as a player drives the editor (egui_kittest) or through the board
//! painter the Play and Remote tabs share.

mod common;

use common::scenario;
use egui::Rect;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::EditorApp;
use grognard_editor::board::{Look, Overlay};

fn tab(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_role_and_label(Role::Button, name).click();
    h.run();
}

/// Item 1: at 1024×700 black-powder's bases carried no names and its brigadiers read "…1".
/// Every open piece now shows its whole name in a readable font — inside when it fits,
/// else as a caption outside the counter or base — and no text on the board is a name cut
/// to its last letters.
#[test]
fn small_counters_and_bases_carry_readable_names() {
    let mut h = scenario("examples/black-powder.yaml", 1024.0, 700.0);
    tab(&mut h, "Play");
    let t = common::drawn_transform(&h);
    let app = h.state();
    let g = &app.session().expect("a game").game;
    let pieces = app.drawn_pieces().to_vec();
    let clip = Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1024.0, 700.0));
    let drawn = common::text_sizes(&common::paint_board(
        &h.ctx,
        g,
        &pieces,
        &Overlay::default(),
        &t,
        clip,
    ));
    for p in pieces.iter().filter(|p| p.look == Look::Open) {
        let shown = drawn
            .iter()
            .find(|(text, _, _)| text.lines().next().is_some_and(|l| l.starts_with(&p.name)));
        let Some((_, _, points)) = shown else {
            panic!(
                "{} carries no name at {} pt/inch: {drawn:?}",
                p.name, t.scale
            );
        };
        assert!(*points >= 7.0, "{} in {points} pt", p.name);
        // A base's name reads as large as a caption beside it, inside or out.
        if p.footprint.is_some() {
            assert!(*points >= 9.0, "base {} in {points} pt", p.name);
        }
    }
    for (text, _, _) in &drawn {
        assert!(!text.starts_with('…'), "a name cut to its end: {text:?}");
    }
}

/// Item 2: hex-command's fire chart tests rows 2–4 on the die's marks (`any: [red]`,
/// `any: [star]`, `all: [red, star]`); the Charts tab showed a blank test box there. It
/// now says the test in words, and the odds plot is drawn inside the window at 1280×800
/// (it was cut off at the bottom).
#[test]
fn a_band_chart_says_each_bands_test_and_keeps_its_odds_plot_in_sight() {
    let mut h = scenario("examples/hex-command.yaml", 1280.0, 800.0);
    tab(&mut h, "Charts");
    h.state_mut().command(grognard_editor::Command::ShowChart(
        "fire_small_a".to_owned(),
    ));
    h.run();
    for test in [
        "a face marked red",
        "a face marked star",
        "a face marked red and star",
    ] {
        assert!(h.query_by_label(test).is_some(), "no {test:?}");
    }
    let plot = grognard_editor::app::odds_plot_rect(&h.ctx).expect("a plot drawn");
    let window = h.ctx.content_rect();
    assert!(
        plot.height() >= 80.0 && window.contains_rect(plot),
        "the plot {plot:?} outside the window {window:?}"
    );
    // Above the status line at the bottom, not under it.
    let status = h
        .query_by_label_contains("started under hex-command")
        .expect("the status line")
        .rect();
    assert!(
        plot.max.y <= status.min.y + 1.0,
        "{plot:?} under {status:?}"
    );
}
