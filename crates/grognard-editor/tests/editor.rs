//! The editor driven the way a user drives it: by the labels on screen (egui_kittest,
//! no display and no GPU).

mod common;
use common::status;

use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::{EditorApp, Options, Saved};
use grognard_kernel::game::Reach;
use grognard_kernel::geometry::Cell;
use grognard_kernel::hooks::NoHooks;
use grognard_kernel::piece::Place;
use grognard_rules::load::{load_ruleset, load_scenario};

/// The workspace root, where `rulesets/` and `examples/` are. The editor is given it as
/// its root (`Options::root`), so no test depends on the process's current folder.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn harness(options: Options) -> Harness<'static, EditorApp> {
    let app = EditorApp::new(
        Saved::default(),
        Options {
            root: Some(root()),
            ..options
        },
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run();
    h
}

fn with_ruleset(path: &str) -> Harness<'static, EditorApp> {
    harness(Options {
        ruleset: Some(PathBuf::from(path)),
        ..Options::default()
    })
}

fn with_scenario(path: &str) -> Harness<'static, EditorApp> {
    harness(Options {
        scenario: Some(PathBuf::from(path)),
        ..Options::default()
    })
}

fn tab(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_role_and_label(Role::Button, name).click();
    h.run();
}

/// Clicks the board at a cell's centre.
fn click_cell(h: &mut Harness<'_, EditorApp>, c: Cell) {
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
fn open_a_bundled_ruleset_from_the_menu() {
    let mut h = harness(Options::default());
    h.get_by_role_and_label(Role::ComboBox, "Ruleset").click();
    h.run();
    h.get_by_label("rulesets/drill-hex.yaml").click();
    h.run();
    let bench = h.state().workbench().expect("a ruleset is open");
    assert_eq!(bench.current.rules.identity.name, "drill-hex");
    assert!(
        status(&h).contains("opened ruleset drill-hex"),
        "{}",
        status(&h)
    );
    // The movement table shows the ruleset's own allowances, one field per type and mode.
    assert!(h.query_by_label("infantry allowance line").is_some());
}

#[test]
fn toggling_an_optional_rule_changes_the_ruleset_and_shows_in_the_diff() {
    let mut h = with_ruleset("rulesets/drill-square-mud.yaml");
    h.get_by_label_contains("roads stay firm").click();
    h.run();
    let bench = h.state().workbench().expect("open");
    let option = bench
        .current
        .rules
        .options
        .iter()
        .find(|o| o.name == "roads_stay_firm")
        .expect("the mud rule's option");
    assert!(!option.default, "the toggle turned the default off");
    tab(&mut h, "Diff");
    assert!(
        h.query_by_label_contains("option `roads_stay_firm`")
            .is_some(),
        "the diff names the option"
    );
}

#[test]
fn editing_a_chart_cell_changes_the_plotted_odds() {
    let mut h = with_ruleset("rulesets/drill-square.yaml");
    tab(&mut h, "Charts");
    // 2d6, hit on 9+: 10/36 before and after while nothing changed.
    assert!(h.query_by_label("hit: 27.78% → 27.78%").is_some());
    h.get_by_label("volley row 1 score")
        .set_text_value_accesskit("8+");
    h.run();
    // 8+ on 2d6 is 15/36.
    assert!(
        h.query_by_label("hit: 27.78% → 41.67%").is_some(),
        "odds after the edit"
    );
    assert!(h.query_by_label("miss: 72.22% → 58.33%").is_some());
}

#[test]
fn a_bad_edit_is_shown_beside_its_field_and_the_last_good_ruleset_stays() {
    let mut h = with_ruleset("rulesets/drill-square.yaml");
    let before = h
        .state()
        .workbench()
        .expect("open")
        .current
        .rules
        .identity
        .clone();
    h.get_by_label("infantry allowance battle")
        .set_text_value_accesskit("lots");
    h.run();
    let bench = h.state().workbench().expect("open");
    assert_eq!(
        bench.current.rules.identity, before,
        "the last good ruleset stays"
    );
    // A mark beside the field, the whole message above the fields.
    assert!(h.query_by_label("⚠").is_some(), "a mark beside the field");
    let error = h
        .query_by_label_contains("⚠ your edit of")
        .expect("the error above the fields");
    let text = format!("{error:?}");
    // It names the value edited and the base file's line, not the scratch file.
    // The editor keeps paths absolute when given a root: the base file as it was opened.
    let base = std::fs::canonicalize(root().join("rulesets/drill-square.yaml")).expect("base");
    assert!(
        text.contains(&format!(
            "your edit of piece types › infantry › allowance › battle (over {}:",
            base.display()
        )),
        "names file and line: {text}"
    );
    assert!(!text.contains("house-rule.yaml"), "{text}");
}

#[test]
fn saving_a_house_rule_writes_an_overlay_that_reloads_to_the_same_ruleset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = with_ruleset("rulesets/drill-square.yaml");
    h.get_by_label("infantry allowance battle")
        .set_text_value_accesskit("1");
    h.run();
    h.get_by_label("foot enter medium_woods")
        .set_text_value_accesskit("+1");
    h.run();
    tab(&mut h, "Diff");
    assert!(h.query_by_label_contains("allowance").is_some());
    h.get_by_label("Save as house rule…").click();
    h.run();
    let target = dir.path().join("club.yaml");
    h.get_by_label("Save house rule — path:")
        .set_text_value_accesskit(&target.to_string_lossy());
    h.run();
    h.get_by_label("OK").click();
    h.run();
    assert!(
        status(&h).contains("reloads to the same ruleset"),
        "{}",
        status(&h)
    );
    let text = std::fs::read_to_string(&target).expect("written");
    assert!(text.contains("extends:"), "{text}");
    assert!(text.contains("allowance"), "{text}");
    // Only what changed: the charts, terrain and sequence are inherited.
    assert!(!text.contains("charts"), "{text}");
    assert!(!text.contains("sequence"), "{text}");
    let loaded = load_ruleset(&target).expect("the overlay validates");
    let current = &h.state().workbench().expect("open").current;
    assert_eq!(loaded.rules.identity, current.rules.identity);
    let infantry = loaded
        .rules
        .piece_types
        .iter()
        .find(|t| t.name == "infantry")
        .expect("infantry");
    let battle = loaded.rules.mode_by_name("battle").expect("battle mode");
    assert_eq!(
        infantry.allowance[battle.index()].map(|c| c.hundredths()),
        Some(100)
    );
}

#[test]
fn opening_an_example_scenario_starts_the_game() {
    let mut h = harness(Options::default());
    h.get_by_role_and_label(Role::ComboBox, "Scenario").click();
    h.run();
    h.get_by_label("examples/drill-hex.yaml").click();
    h.run();
    tab(&mut h, "Play");
    assert!(h.query_by_label_contains("Turn 1 of").is_some());
    assert_eq!(
        h.state()
            .workbench()
            .expect("its ruleset")
            .current
            .rules
            .identity
            .name,
        "drill-hex"
    );
    assert!(!h.state().drawn_pieces().is_empty(), "pieces are drawn");
}

#[test]
fn select_a_piece_see_its_reach_move_it_and_end_the_phase() {
    let mut h = with_scenario("examples/drill-square.yaml");
    tab(&mut h, "Play");
    // What the kernel says b1 can reach, asked directly.
    let s = load_scenario(&root().join("examples/drill-square.yaml"), None).expect("scenario");
    let game = s.start(None, &[], &mut NoHooks).expect("starts");
    let b1 = game.piece_by_name("b1").expect("b1").id;
    let Ok(Reach::Cells(cells)) = game.reach(b1, &mut NoHooks) else {
        panic!("b1 moves on a grid")
    };
    h.get_by_label_contains("b1 (blue").click();
    h.run();
    assert!(
        h.query_by_label(&format!("b1 can reach {} places", cells.len()))
            .is_some()
    );
    // Click a neighbouring cell to start a path, click it again to move there.
    let target = Cell::new(4, 5);
    assert!(cells.iter().any(|r| r.cell == target));
    click_cell(&mut h, target);
    assert!(
        h.query_by_label("path: (4, 5)").is_some() || h.query_by_label_contains("path:").is_some()
    );
    click_cell(&mut h, target);
    let moved = &h.state().session().expect("game").game;
    assert_eq!(
        moved.piece(b1).map(|p| p.place.clone()),
        Some(Place::Cell(target))
    );
    // The move rolled no die, so it can be taken back.
    h.get_by_label("Undo").click();
    h.run();
    let undone = &h.state().session().expect("game").game;
    assert_eq!(
        undone.piece(b1).map(|p| p.place.clone()),
        game.piece(b1).map(|p| p.place.clone())
    );
    h.get_by_label("End phase").click();
    h.run();
    assert!(
        h.query_by_label_contains("fire phase · blue phasing")
            .is_some(),
        "{}",
        status(&h)
    );
}

#[test]
fn switching_the_ruleset_explains_what_no_longer_fits() {
    let mut h = with_scenario("examples/drill-square.yaml");
    h.get_by_role_and_label(Role::ComboBox, "Ruleset").click();
    h.run();
    h.get_by_label("rulesets/drill-hex.yaml").click();
    h.run();
    let problems = h.state().scenario_problems().to_vec();
    // The hex drill has no half blocks: b3 no longer fits, and is named.
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("piece b3: ") && p.contains("half_block")),
        "{problems:#?}"
    );
    assert!(status(&h).contains("does not fit"), "{}", status(&h));
}

#[test]
fn a_changed_ruleset_file_is_reloaded_and_a_broken_one_keeps_the_last_good() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("copy.yaml");
    let text = std::fs::read_to_string(root().join("rulesets/drill-square.yaml")).expect("read");
    std::fs::write(&path, &text).expect("write");
    let mut h = with_ruleset(&path.to_string_lossy());
    let first = h
        .state()
        .workbench()
        .expect("open")
        .current
        .rules
        .identity
        .clone();
    // A later modification time, whatever the file system's clock resolution.
    let touch = |p: &Path, body: &str| {
        std::fs::write(p, body).expect("write");
        let f = std::fs::File::options().append(true).open(p).expect("open");
        f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5))
            .expect("mtime");
    };
    touch(&path, &text.replace("turns: 3", "turns: 4"));
    h.state_mut().check_files();
    h.run();
    let second = h
        .state()
        .workbench()
        .expect("open")
        .current
        .rules
        .identity
        .clone();
    assert_ne!(first, second, "reloaded");
    touch(&path, &text.replace("dice: 2d6", "dice: [oops"));
    let f = std::fs::File::options()
        .append(true)
        .open(&path)
        .expect("open");
    f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(10))
        .expect("mtime");
    h.state_mut().check_files();
    h.run();
    assert_eq!(
        h.state().workbench().expect("open").current.rules.identity,
        second,
        "the last good ruleset stays"
    );
    let shown = h
        .query_by_label_contains("Reload error")
        .map(|n| format!("{n:?}"))
        .expect("the error is shown");
    assert!(shown.contains("copy.yaml:"), "with file and line: {shown}");
}

#[test]
fn view_as_a_side_draws_only_what_that_side_knows() {
    let fixtures = "crates/grognard-editor/tests/fixtures";
    let mut h = harness(Options {
        ruleset: Some(PathBuf::from(format!("{fixtures}/hidden-square.yaml"))),
        scenario: Some(PathBuf::from(format!(
            "{fixtures}/hidden-square.scenario.yaml"
        ))),
        ..Options::default()
    });
    let names = |h: &Harness<'_, EditorApp>| -> Vec<String> {
        h.state()
            .drawn_pieces()
            .iter()
            .map(|p| p.name.clone())
            .collect()
    };
    // The referee sees all seven pieces.
    let all = names(&h);
    assert!(
        all.contains(&"r2".to_owned()) && all.contains(&"b1".to_owned()),
        "{all:?}"
    );
    h.get_by_role_and_label(Role::ComboBox, "View as").click();
    h.run();
    h.get_by_label("Side blue").click();
    h.run();
    let game = &h.state().session().expect("game").game;
    let blue = game.side_by_name("blue").expect("blue");
    let known: Vec<String> = game
        .view(blue)
        .enemy
        .iter()
        .filter_map(|e| e.identity.as_ref().map(|p| p.name.clone()))
        .collect();
    let drawn = names(&h);
    for p in &game.state().pieces {
        let enemy = p.side != blue;
        if enemy && !known.contains(&p.name) {
            // Red is more than 2 squares from every blue piece: hidden from blue.
            assert!(
                !drawn.contains(&p.name),
                "{} is drawn for blue: {drawn:?}",
                p.name
            );
            assert!(
                h.query_by_label_contains(&format!("{} (red", p.name))
                    .is_none()
            );
        }
        if !enemy {
            assert!(drawn.contains(&p.name), "own piece {} is drawn", p.name);
        }
    }
    assert!(
        game.state()
            .pieces
            .iter()
            .any(|p| p.side != blue && !known.contains(&p.name)),
        "the fixture hides at least one red piece from blue"
    );
}

#[test]
fn clearing_a_terrain_cost_removes_it_in_the_overlay() {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = load_ruleset(&root().join("rulesets/drill-square.yaml")).expect("base");
    let mut bench = grognard_editor::house::Workbench::new(base, dir.path());
    let town = grognard_editor::house::field(&["movement", "foot", "enter", "town"]);
    assert!(bench.set_text(&town, ""), "{:?}", bench.problems);
    let text = bench.overlay_text(&dir.path().join("x.yaml"));
    assert!(
        text.contains("remove: [movement.foot.enter.town]"),
        "{text}"
    );
    let foot = bench.current.spec.movement.get("foot").expect("foot");
    assert!(
        foot.enter.get("town").is_none(),
        "town costs the plain step again"
    );
    assert!(
        foot.enter.get("medium_woods").is_some(),
        "the rest is inherited"
    );
}

#[test]
fn a_saved_game_loads_back_to_the_same_position() {
    let dir = tempfile::tempdir().expect("temp dir");
    let save = dir.path().join("game.json");
    let mut h = with_scenario("examples/drill-square.yaml");
    h.get_by_label_contains("b4 (blue").click();
    h.run();
    // b4 is a road column on the road: two steps north along it.
    click_cell(&mut h, Cell::new(5, 6));
    click_cell(&mut h, Cell::new(5, 5));
    h.get_by_label("Move").click();
    h.run();
    let moved = h.state().session().expect("game").game.state_bytes();
    assert!(status(&h).starts_with("done"), "{}", status(&h));
    h.get_by_label("Save game…").click();
    h.run();
    h.get_by_label("Save game — path:")
        .set_text_value_accesskit(&save.to_string_lossy());
    h.run();
    h.get_by_label("OK").click();
    h.run();
    assert!(status(&h).contains("saved the game"), "{}", status(&h));
    h.get_by_label("End phase").click();
    h.run();
    assert_ne!(h.state().session().expect("game").game.state_bytes(), moved);
    h.get_by_label("Load game…").click();
    h.run();
    h.get_by_label("Load game — path:")
        .set_text_value_accesskit(&save.to_string_lossy());
    h.run();
    h.get_by_label("OK").click();
    h.run();
    assert!(status(&h).contains("loaded the game"), "{}", status(&h));
    assert_eq!(h.state().session().expect("game").game.state_bytes(), moved);
}

#[test]
fn on_an_open_table_a_piece_moves_to_the_point_clicked() {
    let mut h = with_scenario("examples/drill-open.yaml");
    h.get_by_label_contains("b1 (blue").click();
    h.run();
    assert!(h.query_by_label_contains("b1 can move up to").is_some());
    // b1 stands at (12", 30"), facing north; click 3" ahead of it.
    let pos = h
        .state()
        .board_on_screen(12.0, 27.0)
        .expect("the table is drawn");
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
    let game = &h.state().session().expect("game").game;
    let Some(Place::Point { at, .. }) = game.piece_by_name("b1").map(|p| p.place.clone()) else {
        panic!("b1 is on the table")
    };
    // The click lands within a hundredth of an inch of the spot (screen rounding).
    assert!(
        (at.x.0 - 12_000).abs() < 100 && (at.y.0 - 27_000).abs() < 100,
        "{at:?}: {}",
        status(&h)
    );
}

#[test]
fn a_volley_is_rolled_explained_in_the_dice_log_and_cannot_be_undone() {
    let mut h = with_scenario("examples/drill-square.yaml");
    h.get_by_label_contains("b2 (blue").click();
    h.run();
    click_cell(&mut h, Cell::new(7, 5));
    click_cell(&mut h, Cell::new(7, 5));
    h.get_by_label("End phase").click();
    h.run();
    assert!(
        h.query_by_label_contains("fire phase · blue phasing")
            .is_some()
    );
    h.get_by_label_contains("b2 (blue").click();
    h.run();
    assert!(h.query_by_label("No dice rolled yet.").is_some());
    // The piece panel's button (the legal list beside it says the same, "volley at r3").
    h.get_all_by_label("volley at r3")
        .last()
        .expect("a volley at r3")
        .click();
    h.run();
    assert!(status(&h).starts_with("done"), "{}", status(&h));
    // The log names the chart, each die and face, and the score and outcome.
    assert!(h.query_by_label_contains("volley — ").is_some());
    assert!(h.query_by_label_contains("dice: d6 shows").is_some());
    assert!(h.query_by_label_contains("  score ").is_some());
    // A die was rolled: the volley cannot be taken back.
    assert!(!h.state().session().expect("game").can_undo());
}

#[test]
fn every_example_opens_and_each_side_sees_only_its_view() {
    for scenario in grognard_editor::app::example_scenarios(Some(&root())) {
        let mut h = with_scenario(&scenario.to_string_lossy());
        let shown = scenario.display();
        let Some(session) = h.state().session() else {
            panic!("{shown} does not start: {}", status(&h))
        };
        let game = session.game.clone();
        let on_board = game.state().pieces.iter().filter(|p| p.on_board()).count();
        assert_eq!(h.state().drawn_pieces().len(), on_board, "{shown}: referee");
        for (i, _) in game.sides().iter().enumerate() {
            let side = grognard_kernel::ids::SideId(i as u8);
            h.state_mut().command(grognard_editor::Command::ViewAs(
                grognard_editor::view::ViewAs::Side(side),
            ));
            h.run();
            let view = game.view(side);
            for d in h.state().drawn_pieces() {
                let real = game.piece(d.id).expect("a real piece id");
                if real.side == side {
                    continue;
                }
                // The board draws real ids; the view names pieces by the side's handles.
                let known = view
                    .enemy
                    .iter()
                    .find(|e| Some(e.handle.0) == game.handle_of(side, d.id));
                assert!(
                    known.is_some(),
                    "{shown}: an enemy the side does not know of is drawn"
                );
                if !d.name.is_empty() && !d.name.starts_with('#') {
                    let identity = known.and_then(|e| e.identity.as_ref());
                    assert_eq!(
                        identity.map(|p| p.name.as_str()),
                        Some(d.name.as_str()),
                        "{shown}: a name the side has not learnt is drawn"
                    );
                }
            }
        }
    }
}

#[test]
fn hot_seat_hides_the_board_between_sides() {
    let mut h = with_scenario("examples/drill-square.yaml");
    h.get_by_label("Hot-seat").click();
    h.run();
    assert!(h.query_by_label("Pass the screen to blue").is_some());
    assert!(
        h.query_by_label_contains("b1 (blue").is_none(),
        "the board is hidden"
    );
    h.get_by_label("Show board").click();
    h.run();
    // Blue ends its movement and fire phases; the screen is hidden again for red.
    h.get_by_label("End phase").click();
    h.run();
    assert!(
        h.query_by_label("Show board").is_none(),
        "still blue's turn"
    );
    h.get_by_label("End phase").click();
    h.run();
    assert!(h.query_by_label("Pass the screen to red").is_some());
    assert!(
        h.query_by_label_contains("b1 (blue").is_none(),
        "nothing is shown"
    );
}

#[test]
fn a_broken_script_is_reported_with_its_file_and_line_and_the_last_good_rules_stay() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("rulesets")).expect("dir");
    std::fs::create_dir_all(dir.path().join("scripts")).expect("dir");
    for f in [
        "rulesets/drill-square.yaml",
        "rulesets/drill-square-mud.yaml",
        "scripts/weather.lua",
    ] {
        std::fs::copy(root().join(f), dir.path().join(f)).expect("copy");
    }
    let ruleset = dir.path().join("rulesets/drill-square-mud.yaml");
    let mut h = with_ruleset(&ruleset.to_string_lossy());
    let good = h
        .state()
        .workbench()
        .expect("open")
        .current
        .rules
        .identity
        .clone();
    let script = dir.path().join("scripts/weather.lua");
    std::fs::write(
        &script,
        "local M = {}\n\nfunction M.move_cost(\n  oops oops\nend\nreturn M\n",
    )
    .expect("write");
    let f = std::fs::File::options()
        .append(true)
        .open(&script)
        .expect("open");
    f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5))
        .expect("mtime");
    h.state_mut().check_files();
    h.run();
    assert_eq!(
        h.state().workbench().expect("open").current.rules.identity,
        good
    );
    let shown = h
        .query_by_label_contains("Reload error")
        .map(|n| format!("{n:?}"))
        .expect("the error is shown");
    assert!(
        shown.contains("weather.lua:4"),
        "names the script and line: {shown}"
    );
}

#[test]
fn block_orders_save_points_and_redeploy_a_dummy_from_the_board() {
    // The square-blocks orders that pick a cell: "Save toward…" (000 #8) and "Redeploy
    // to…" (000 #15), given by the labels a user sees.
    let mut h = with_scenario("examples/square-blocks.yaml");
    tab(&mut h, "Play");
    // The command phase is both sides': each ends it.
    for _ in 0..2 {
        h.get_by_label("End phase").click();
        h.run();
    }
    assert!(
        h.query_by_label_contains("movement phase · french phasing")
            .is_some(),
        "{}",
        status(&h)
    );
    let game = &h.state().session().expect("game").game;
    let fdum1 = game.piece_by_name("fdum1").expect("fdum1").id;
    let fdum2 = game.piece_by_name("fdum2").expect("fdum2").id;
    h.get_by_label_contains("fdum1 (french").click();
    h.run();
    h.get_by_label("More orders").click();
    h.run();
    h.get_by_label("Save toward…").click();
    h.run();
    click_cell(&mut h, Cell::new(1, 7));
    let game = &h.state().session().expect("game").game;
    assert!(
        game.log().iter().any(
            |e| matches!(e, grognard_kernel::action::Event::Saved { piece, .. } if *piece == fdum1)
        ),
        "{}",
        status(&h)
    );
    h.get_by_label_contains("fdum2 (french").click();
    h.run();
    h.get_by_label("Redeploy to…").click();
    h.run();
    click_cell(&mut h, Cell::new(10, 5));
    let game = &h.state().session().expect("game").game;
    assert_eq!(
        game.piece(fdum2).map(|p| p.place.clone()),
        Some(Place::Cell(Cell::new(10, 5))),
        "{}",
        status(&h)
    );
}

/// Every bundled example with an orders file plays in an editor session — the path the
/// board's clicks and the order panel take (`Session::apply`) — every order accepted; the
/// game saved from the editor loads back (*Load game…*) and replays to the same log.
#[test]
fn every_example_plays_its_orders_in_a_session_and_its_save_loads() {
    let mut played = 0;
    for scenario in grognard_editor::app::example_scenarios(Some(&root())) {
        let shown = scenario.display().to_string();
        let stem = scenario
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let orders_path = scenario.with_file_name(format!("{stem}.orders.yaml"));
        if !orders_path.exists() {
            continue;
        }
        let s = load_scenario(&scenario, None).unwrap_or_else(|d| panic!("{shown}: {d}"));
        let mut session = grognard_editor::session::Session::start(s, &[])
            .unwrap_or_else(|e| panic!("{shown}: {e}"));
        let orders = grognard_rules::load::load_orders(&orders_path)
            .unwrap_or_else(|d| panic!("{shown}: {d}"));
        for o in &orders {
            let order = grognard_rules::orders::resolve_order(&session.game, &o.value)
                .unwrap_or_else(|e| panic!("{shown}: order at line {}: {e}", o.location.line));
            session
                .apply(order)
                .unwrap_or_else(|e| panic!("{shown}: order at line {}: {e}", o.location.line));
        }
        assert!(
            session.game.log().len() > orders.len(),
            "{shown}: the orders played"
        );
        let save = std::env::temp_dir().join(format!(
            "grognard-editor-{}-{stem}.json",
            std::process::id()
        ));
        session
            .save(&save)
            .unwrap_or_else(|e| panic!("{shown}: {e}"));
        let loaded = grognard_editor::session::Session::load(&save);
        let _ = std::fs::remove_file(&save);
        let loaded = loaded.unwrap_or_else(|e| panic!("{shown}: {e}"));
        assert_eq!(
            loaded.game.log(),
            session.game.log(),
            "{shown}: the save replays"
        );
        played += 1;
    }
    assert!(
        played >= 8,
        "only {played} examples with orders were played"
    );
}

#[test]
fn the_legal_orders_panel_lists_what_the_kernel_offers_and_gives_it() {
    let mut h = with_scenario("examples/drill-square.yaml");
    tab(&mut h, "Play");
    let s = load_scenario(&root().join("examples/drill-square.yaml"), None).expect("scenario");
    let game = s.start(None, &[], &mut NoHooks).expect("starts");
    let blue = game.side_by_name("blue").expect("blue");
    let b1 = game.piece_by_name("b1").expect("b1").id;
    let legal = game.legal_orders(blue, &mut NoHooks);
    // Every order of b1 (the heading counts what b1's group counts; ending the phase is
    // listed beside them, not counted as b1's).
    let of_b1 = legal.iter().filter(|a| a.piece() == Some(b1)).count();
    h.get_by_label_contains("b1 (blue").click();
    h.run();
    assert!(
        h.query_by_label_contains(&format!("Legal orders of blue: b1 ({of_b1})"))
            .is_some(),
        "{} orders of b1 expected",
        of_b1
    );
    h.get_by_label("→ (4,5), 1 step").click();
    h.run();
    let moved = &h.state().session().expect("game").game;
    assert_eq!(
        moved.piece(b1).map(|p| p.place.clone()),
        Some(Place::Cell(Cell::new(4, 5)))
    );
}

#[test]
fn the_computer_plays_a_side_and_the_person_sees_only_their_own_view() {
    let mut h = with_scenario("examples/square-blocks.yaml");
    h.state_mut().set_computer_pace(std::time::Duration::ZERO);
    tab(&mut h, "Play");
    h.get_by_label("austrians").click();
    h.run();
    h.get_by_label("greedy").click();
    // The computer keeps the frames coming while it plays: step, do not wait to settle.
    // In square-blocks' first phase both sides act, so the computer may already have given
    // its first order (it acts at once in a shared phase) and the status line says which.
    h.run_steps(2);
    let said = status(&h);
    assert!(
        said.contains("the computer plays austrians (greedy)")
            || said.starts_with("the computer (austrians): "),
        "{said}"
    );
    // The board turned to the side the person plays.
    assert!(h.query_by_label_contains("View as").is_some());
    let game = &h.state().session().expect("game").game;
    let french = game.side_by_name("french").expect("french");
    let austrians = game.side_by_name("austrians").expect("austrians");
    // The person ends each phase; the computer answers for the Austrians.
    for _ in 0..40 {
        let game = &h.state().session().expect("game").game;
        if game.state().turn > 1 || game.state().over() {
            break;
        }
        if game.to_act().first() == Some(&french) {
            h.get_by_label("End phase").click();
        }
        h.run_steps(5);
    }
    let session = h.state().session().expect("game");
    assert!(
        session.game.state().turn > 1,
        "the first turn was played out"
    );
    assert!(
        session.orders().iter().any(|o| o.side == austrians),
        "the computer gave the Austrians' orders"
    );
    // The person sees the French view.
    assert_eq!(
        h.state().view_as(),
        grognard_editor::view::ViewAs::Side(french)
    );
}

#[test]
fn the_simulate_tab_plays_whole_games_beside_the_base_rules() {
    let mut h = harness(Options {
        ruleset: Some(PathBuf::from("rulesets/drill-square-mud.yaml")),
        scenario: Some(PathBuf::from("examples/drill-square-mud.yaml")),
        ..Options::default()
    });
    tab(&mut h, "Rules");
    h.get_by_label_contains("roads stay firm").click();
    h.run();
    tab(&mut h, "Simulate");
    h.get_by_label("Run").click();
    h.run_steps(2);
    for _ in 0..600 {
        if !h.state().simulating() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.step();
    }
    h.run_steps(2);
    let results = h
        .state()
        .simulation_results()
        .expect("results")
        .clone()
        .expect("the games were played");
    assert_eq!(results.len(), 2, "the ruleset in force and its base");
    for r in &results {
        let t = &r.tally;
        assert_eq!(r.games(), 100);
        assert_eq!(t.refused_total, 0);
        assert_eq!(t.unfinished, 0);
        assert_eq!(
            t.lengths.values().sum::<u64>(),
            100,
            "every game in the histogram"
        );
        // Every game of this drill is drawn: the rates shown are the observed ones
        // (no side won: 0.0%, not the centre of an interval around it).
        assert_eq!(t.decided(), 100);
        assert_eq!(r.draw_rate().mean, 1.0);
        assert!((0..r.sides.len()).all(|i| r.win_rate(i).mean == 0.0));
    }
    // Two rulesets × two sides that never won, and two columns of draws, each with the
    // width its 95% interval keeps at the ends (100 games: up to 3.7%), not "± 0.0".
    assert_eq!(h.query_all_by_label("0.0% (95%: 0.0–3.7)").count(), 4);
    assert_eq!(h.query_all_by_label("100.0% (95%: 96.3–100.0)").count(), 2);
    assert_eq!(h.query_all_by_label_contains("% ±").count(), 0);
    assert_eq!(results[1].label, "drill-square-mud");
    assert!(
        status(&h).contains("simulation done: 200 games"),
        "{}",
        status(&h)
    );
    assert!(h.query_by_label_contains("draws").is_some());
}

#[test]
fn in_a_secret_set_up_the_legal_orders_panel_deploys_a_piece() {
    // The set-up example: the French place their blocks from the legal orders panel, which
    // lists each piece's places in the French deployment area.
    let mut h = with_scenario("examples/square-blocks-setup.yaml");
    tab(&mut h, "Play");
    // (The event log below names it too.)
    assert!(
        h.query_all_by_label_contains("set-up")
            .any(|n| format!("{n:?}").contains("Turn ")),
        "the phase bar names the set-up"
    );
    // Selecting the piece (in the pieces list: it is not on the board yet) narrows the list
    // to its places.
    h.get_by_label_contains("army (french").click();
    h.run();
    assert!(
        h.query_by_label_contains("Legal orders of french: army")
            .is_some()
    );
    h.get_by_label("deploy at (0,6)").click();
    h.run();
    let game = &h.state().session().expect("game").game;
    let army = game.piece_by_name("army").expect("army").id;
    assert_eq!(
        game.piece(army).map(|p| p.place.clone()),
        Some(Place::Cell(Cell::new(0, 6)))
    );
    assert!(game.setting_up());
}

#[test]
fn a_distance_band_can_be_set_by_its_distance_in_hexes() {
    // The drill's fire chart reads its band from the distance (bands 1, 2, 3, 4 hexes): the
    // chart panel offers the distance beside the band, as `grognard chart --set distance=3`.
    let mut h = with_ruleset("rulesets/drill-hex.yaml");
    tab(&mut h, "Charts");
    h.get_by_label("= hexes").set_value_accesskit(3.0);
    h.run();
    let band = h
        .state()
        .chart_input("fire", "band")
        .expect("the band was set");
    assert_eq!(band, 2, "3 hexes is band 2");
}
