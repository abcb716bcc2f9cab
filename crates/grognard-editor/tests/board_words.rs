//! A readable board and plain words (issue 37 items 6–10), driven through the real app with
//! egui_kittest by the labels a user sees: labels fitted to counters, fanned stacks,
//! contrast, fords apart from bridges, the legend, the hover card, zoom and the panel, the
//! house rule saved as YAML in the user's terms, and the words of the panels.

use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::app::FilePurpose;
use grognard_editor::board::{self, BoardScene, Camera, DrawPiece, Look, Overlay, Transform};
use grognard_editor::{Command, EditorApp, Options, Saved};
use grognard_kernel::geometry::Cell;
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::piece::Place;

/// The workspace root, where `rulesets/` and `examples/` are. The editor is given it as
/// its root (`Options::root`), so no test depends on the process's current folder.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn harness(saved: Saved, options: Options, size: egui::Vec2) -> Harness<'static, EditorApp> {
    let app = EditorApp::new(
        saved,
        Options {
            root: Some(root()),
            ..options
        },
    );
    let mut h = Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run();
    h
}

fn with_scenario(path: &str) -> Harness<'static, EditorApp> {
    let options = Options {
        scenario: Some(PathBuf::from(path)),
        ..Options::default()
    };
    let mut h = harness(Saved::default(), options, egui::vec2(1500.0, 1000.0));
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h
}

fn piece_at(id: u32, cell: Cell, name: &str) -> DrawPiece {
    DrawPiece {
        id: PieceId(id),
        side: SideId(0),
        name: name.to_owned(),
        kind: "infantry".to_owned(),
        place: Place::Cell(cell),
        facing: None,
        mode: "line".to_owned(),
        markers: vec!["figures 100".to_owned()],
        look: Look::Open,
        footprint: None,
    }
}

// Item 6: labels fit counters, the whole label on hover; stacks fan out; contrast.

#[test]
fn counter_labels_are_cut_to_the_counter_and_whole_on_hover() {
    let h = with_scenario("examples/drill-square.yaml");
    let p = piece_at(0, Cell::new(1, 1), "fr_brigadier_1");
    let lines = grognard_editor::scene::label_lines(&p);
    assert_eq!(lines, ["fr_brigadier_1 L", "figures 100"]);
    let font = egui::FontId::proportional(9.0);
    let fitted = grognard_editor::scene::fit_lines(&h.ctx, &lines, &font, 30.0, 40.0);
    let width = |t: &str| {
        h.ctx
            .fonts_mut(|f| f.layout_no_wrap(t.to_owned(), font.clone(), egui::Color32::WHITE))
            .size()
            .x
    };
    assert_eq!(fitted.len(), 2);
    for line in &fitted {
        assert!(width(line) <= 30.0, "{line} spills out");
    }
    assert!(fitted[0].contains('…'), "{} is not cut", fitted[0]);
    // An amount is shortened rather than cut (`f…res 100` read badly).
    assert!(
        ["fig 100", "f100"].contains(&fitted[1].as_str()),
        "{}",
        fitted[1]
    );
    // Too short for two lines: the name alone (it was "…", which named nothing: a
    // player met an enemy "#8" drawn so); the hover card holds the rest.
    let one = grognard_editor::scene::fit_lines(&h.ctx, &lines, &font, 30.0, 12.0);
    assert_eq!(one, [fitted[0].clone()]);
    // The hover card holds the whole label and explains the mode letter.
    let card = grognard_editor::words::piece_card(&p, "blue");
    assert_eq!(
        card,
        [
            "fr_brigadier_1 — blue infantry",
            "mode: line (the L on the counter)",
            "figures 100"
        ]
    );
}

#[test]
fn a_stack_fans_out_so_each_counter_shows_and_can_be_picked() {
    let h = with_scenario("examples/drill-square.yaml");
    let game = &h.state().session().expect("a game").game;
    let cell = Cell::new(3, 3);
    let pieces = vec![
        piece_at(0, cell, "hq"),
        piece_at(1, cell, "scout"),
        piece_at(2, cell, "guns"),
    ];
    let overlay = Overlay::default();
    let scene = BoardScene {
        rules: game.rules(),
        board: game.board(),
        terrain_colors: &[],
        pieces: &pieces,
        overlay: &overlay,
    };
    let t = Transform {
        origin: egui::pos2(0.0, 0.0),
        scale: 80.0,
    };
    let fan = board::fan_out(&scene, &t);
    assert_eq!(fan.len(), 3);
    let centre = t.to_screen(3.0, 3.0);
    let spots: Vec<(PieceId, egui::Pos2, f32)> = pieces
        .iter()
        .map(|p| {
            let (shift, size) = fan[&p.id];
            (p.id, centre + shift, size)
        })
        .collect();
    for (i, a) in spots.iter().enumerate() {
        // Inside the cell, and no counter over another.
        assert!((a.1 - centre).length() < 40.0);
        for b in &spots[i + 1..] {
            assert!((a.1 - b.1).x.abs() >= a.2 || (a.1 - b.1).y.abs() >= a.2);
        }
        // A click on a counter picks that piece, not the top of the stack.
        assert_eq!(board::hit(&scene, &t, a.1).piece, Some(a.0));
    }
}

#[test]
fn labels_take_the_colour_that_reads_on_their_counter() {
    use grognard_editor::scene::text_on;
    assert_eq!(
        text_on(egui::Color32::from_rgb(190, 220, 150)),
        egui::Color32::BLACK
    );
    assert_eq!(text_on(board::side_color(SideId(0))), egui::Color32::WHITE);
    assert_eq!(text_on(board::side_color(SideId(1))), egui::Color32::WHITE);
}

#[test]
fn a_level_named_seen_is_not_said_twice() {
    let mut h = with_scenario("examples/hex-command.yaml");
    h.get_by_role_and_label(Role::ComboBox, "View as").click();
    h.run();
    h.get_by_label("Side blue").click();
    h.run();
    h.run();
    let markers: Vec<String> = h
        .state()
        .drawn_pieces()
        .iter()
        .flat_map(|p| p.markers.clone())
        .collect();
    assert!(markers.iter().any(|m| m == "seen"), "{markers:?}");
    assert!(!markers.iter().any(|m| m.contains("seen seen")));
}

// Item 7: fords and bridges apart, a legend, the hover card.

#[test]
fn fords_and_bridges_are_drawn_apart_and_the_legend_names_them() {
    use board::{CrossingLook, crossing_look, crossing_shapes};
    assert_eq!(crossing_look("ford"), CrossingLook::Ford);
    assert_eq!(crossing_look("bridge"), CrossingLook::Bridge);
    let (a, b) = (egui::pos2(0.0, 0.0), egui::pos2(20.0, 0.0));
    assert_ne!(
        crossing_shapes(CrossingLook::Ford, a, b, 40.0),
        crossing_shapes(CrossingLook::Bridge, a, b, 40.0)
    );
    let mut h = with_scenario("examples/square-blocks.yaml");
    h.get_by_label("Legend").click();
    h.run();
    assert!(
        h.query_by_label_contains("ford — a ford: stepping stones")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("bridge — a bridge: a deck with rails")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("Letters after a counter's name are its mode:")
            .is_some()
    );
}

#[test]
fn hovering_a_cell_shows_its_terrain_and_what_entering_costs() {
    let mut h = with_scenario("examples/drill-square.yaml");
    let cell = Cell::new(0, 0);
    let at = h.state().cell_on_screen(cell).expect("on screen");
    h.hover_at(at);
    for _ in 0..8 {
        h.step();
    }
    h.run();
    assert!(h.query_by_label_contains("cell (0,0):").is_some());
    assert!(h.query_by_label_contains("to enter:").is_some());
    let game = &h.state().session().expect("a game").game;
    let card = grognard_editor::words::cell_card(game.rules(), game.board(), cell, None);
    assert!(card[0].starts_with("cell (0,0): "));
}

// Item 8: zoom on the cursor, fit board, a view per scenario, the panel.

#[test]
fn zoom_keeps_the_point_under_the_pointer() {
    let rect = egui::Rect::from_min_size(egui::pos2(0.0, 0.0), egui::vec2(800.0, 600.0));
    let mut camera = Camera::default();
    let at = egui::pos2(600.0, 150.0);
    // The board point under `at` at a given camera, on a 10 × 10 board.
    let under = |c: &Camera| {
        let scale = 58.4 * c.zoom;
        let q = (at - rect.center() - egui::Vec2::from(c.pan)) / scale;
        (q.x, q.y)
    };
    let before = under(&camera);
    board::zoom_at(&mut camera, rect, at, 2.0);
    assert!((camera.zoom - 2.0).abs() < 1e-6);
    let after = under(&camera);
    assert!((before.0 - after.0).abs() < 1e-4 && (before.1 - after.1).abs() < 1e-4);
}

#[test]
fn each_scenario_keeps_its_own_view_and_fit_board_resets_it() {
    let zoomed = Camera {
        zoom: 3.0,
        pan: [40.0, -20.0],
    };
    let mut saved = Saved::default();
    saved
        .cameras
        .insert("examples/drill-square.yaml".to_owned(), zoomed);
    let options = Options {
        scenario: Some(PathBuf::from("examples/drill-square.yaml")),
        ..Options::default()
    };
    let mut h = harness(saved, options, egui::vec2(1500.0, 1000.0));
    assert_eq!(h.state().camera(), zoomed);
    // Another scenario opens fitted, not with the last one's zoom.
    h.state_mut().command(Command::Chosen(
        FilePurpose::OpenScenario,
        PathBuf::from("examples/drill-hex.yaml"),
    ));
    h.run();
    assert_eq!(h.state().camera(), Camera::default());
    h.state_mut().command(Command::Chosen(
        FilePurpose::OpenScenario,
        PathBuf::from("examples/drill-square.yaml"),
    ));
    h.run();
    assert_eq!(h.state().camera(), zoomed);
    h.get_by_role_and_label(Role::Button, "Fit board").click();
    h.run();
    assert_eq!(h.state().camera(), Camera::default());
}

#[test]
fn the_right_panel_is_narrow_on_a_small_window_and_folds_away() {
    let options = Options {
        scenario: Some(PathBuf::from("examples/drill-square.yaml")),
        ..Options::default()
    };
    let mut h = harness(Saved::default(), options, egui::vec2(800.0, 700.0));
    h.run();
    let legal = h.get_by_label_contains("Legal orders").rect();
    // The panel takes at most 40% of an 800-point window.
    assert!(legal.left() >= 800.0 * 0.6 - 20.0, "{legal:?}");
    h.get_by_role_and_label(Role::Button, "Hide panel ▶")
        .click();
    h.run();
    h.run();
    assert!(h.query_by_label_contains("Legal orders").is_none());
    assert!(h.state().saved.panel_hidden);
    h.get_by_role_and_label(Role::Button, "Show panel ◀")
        .click();
    h.run();
    h.run();
    assert!(h.query_by_label_contains("Legal orders").is_some());
}

// Item 9: layout and the house rule.

fn with_ruleset(path: &str) -> Harness<'static, EditorApp> {
    let options = Options {
        ruleset: Some(PathBuf::from(path)),
        ..Options::default()
    };
    harness(Saved::default(), options, egui::vec2(1500.0, 1000.0))
}

fn set_score(h: &mut Harness<'_, EditorApp>, value: &str) {
    let path: Vec<String> = ["charts", "to_hit", "rows", "0", "score"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    h.state_mut()
        .command(Command::SetField(path, value.to_owned()));
    h.run();
}

#[test]
fn save_as_house_rule_is_in_the_ruleset_menu_and_on_the_charts_tab() {
    let mut h = with_ruleset("rulesets/drill-square.yaml");
    let chart = h
        .state()
        .workbench()
        .and_then(|b| b.current.spec.charts.names().next().map(str::to_owned))
        .expect("a chart");
    h.get_by_role_and_label(Role::Button, "Charts").click();
    h.run();
    // Nothing changed yet: offered, but greyed.
    assert!(
        h.get_by_role_and_label(Role::Button, "Save as house rule…")
            .accesskit_node()
            .is_disabled()
    );
    let path: Vec<String> = ["charts", &chart, "rows", "0", "score"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    h.state_mut()
        .command(Command::SetField(path, "5+".to_owned()));
    h.run();
    h.get_by_role_and_label(Role::Button, "Save as house rule…")
        .click();
    h.run();
    assert!(
        h.query_by_label_contains("Save house rule — path:")
            .is_some()
    );
    h.get_by_role_and_label(Role::Button, "Cancel").click();
    h.run();
    h.get_by_role_and_label(Role::ComboBox, "Ruleset").click();
    h.run();
    // The menu's entry beside the Charts tab's button.
    assert_eq!(h.query_all_by_label("Save as house rule…").count(), 2);
    // And the chart panel says which dice the chart rolls (item 10).
    assert!(h.query_by_label_contains("Dice: ").is_some());
}

#[test]
fn tab_buttons_stay_put_whatever_the_rulesets_name() {
    let mut h = with_ruleset("rulesets/drill-hex.yaml");
    let before = h.get_by_role_and_label(Role::Button, "Play").rect();
    h.state_mut().command(Command::Chosen(
        FilePurpose::OpenRuleset,
        PathBuf::from("rulesets/square-blocks-battlemap.yaml"),
    ));
    h.run();
    let after = h.get_by_role_and_label(Role::Button, "Play").rect();
    assert_eq!(before, after);
}

#[test]
fn a_house_rule_is_written_as_yaml_a_person_would_write() {
    let mut h = with_ruleset("rulesets/black-powder-core.yaml");
    set_score(&mut h, "5+");
    let bench = h.state().workbench().expect("bench");
    assert!(bench.problems.is_empty(), "{:?}", bench.problems);
    let text = bench.overlay_text(&root().join("rulesets/house.yaml"));
    assert!(text.contains("  to_hit:\n    rows:\n      - { "), "{text}");
    assert!(text.contains("score: 5+"), "{text}");
    assert!(!text.contains("[{\""), "{text}");
}

#[test]
fn a_bad_edit_names_the_field_and_the_base_file_not_a_temporary_one() {
    let mut h = with_ruleset("rulesets/black-powder-core.yaml");
    set_score(&mut h, "{oops");
    let bench = h.state().workbench().expect("bench");
    let all = bench.problems.join("\n");
    assert!(!bench.problems.is_empty());
    assert!(!all.contains("grognard-editor-"), "{all}");
    assert!(!all.contains("house-rule.yaml"), "{all}");
    // The editor keeps paths absolute when given a root: the base file as it was opened.
    let base = std::fs::canonicalize(root().join("rulesets/black-powder-core.yaml")).expect("base");
    assert!(
        all.contains(&format!(
            "your edit of charts › to hit › row 1 › score (over {}:",
            base.display()
        )),
        "{all}"
    );
}

#[test]
fn repeated_problems_are_listed_once_with_a_count_and_the_board_stays() {
    let grouped = grognard_editor::app::group_problems(&[
        "piece a: unknown type".to_owned(),
        "piece b: unknown mode".to_owned(),
        "piece a: unknown type".to_owned(),
    ]);
    assert_eq!(
        grouped,
        ["piece a: unknown type (×2)", "piece b: unknown mode"]
    );
    let mut h = with_scenario("examples/hex-command.yaml");
    h.state_mut().command(Command::Chosen(
        FilePurpose::OpenRuleset,
        PathBuf::from("rulesets/drill-square.yaml"),
    ));
    h.run();
    h.run();
    assert!(!h.state().scenario_problems().is_empty());
    assert!(
        h.query_by_label_contains("The scenario does not fit the ruleset in force")
            .is_some()
    );
    // The board is still drawn: the game goes on under the ruleset it started with.
    assert!(!h.state().drawn_pieces().is_empty());
}

// Item 10: words.

#[test]
fn the_roll_explanation_says_where_an_input_comes_from_in_plain_words() {
    let ruleset =
        grognard_rules::load::load_ruleset(&root().join("rulesets/black-powder-core.yaml"))
            .unwrap_or_else(|d| panic!("{d}"));
    let roll = grognard_kernel::action::RollRecord {
        chart: "morale_save".to_owned(),
        purpose: "save of b1".to_owned(),
        inputs: vec![("save".to_owned(), 4)],
        dice: Vec::new(),
        modifiers: vec![grognard_kernel::chart::AppliedModifier {
            name: "save value".to_owned(),
            value: -4,
        }],
        score: 0,
        band: None,
        outcome: "saved".to_owned(),
        ..serde_json::from_str("{\"chart\":\"\",\"purpose\":\"\",\"inputs\":[],\"dice\":[],\"modifiers\":[],\"score\":0,\"band\":null,\"outcome\":\"\"}").expect("record")
    };
    let lines = grognard_editor::session::explain_roll(&ruleset, &roll);
    let line = lines
        .iter()
        .find(|l| l.contains("save value"))
        .expect("the modifier");
    // Said without brackets in brackets (the sixth outside player's #22).
    assert_eq!(
        line.trim(),
        "−4 save value — save is 4, set by the ruleset's scripts or its default"
    );
    assert!(!line.contains("by hand or a hook"));
}

#[test]
fn the_mode_letters_are_explained() {
    let ruleset =
        grognard_rules::load::load_ruleset(&root().join("rulesets/black-powder-core.yaml"))
            .unwrap_or_else(|d| panic!("{d}"));
    let letters = grognard_editor::words::mode_letters(&ruleset.rules);
    assert!(letters.contains("L line"), "{letters}");
}
