//! The twelfth outside player's findings of issue 37 (/work/audit/editor-player-12): the
//! idle hint back mid-game, a ruleset broken by the first change after a game began, Tune's
//! numbers that change nothing and its stale answer, the Charts inputs at 0, and the
//! cosmetic points — each checked as the editor shows it, driven with egui_kittest.

mod common;
use common::status;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::app::Tab;
use grognard_editor::{Command, EditorApp};

const HINT: &str = "Open a ruleset or a scenario to begin.";

/// Finding 1: a refusal cleared mid-game (here Undo's, cleared by a change of tab) left the
/// status line empty, and the empty line read "Open a ruleset or a scenario to begin." as
/// if the game had been closed. The hint is for an empty editor only.
#[test]
fn the_idle_hint_is_shown_only_when_nothing_is_open() {
    let mut empty = common::sized(grognard_editor::Options::default(), 1400.0, 900.0);
    empty.run();
    let _ = empty.get_by_label(HINT);

    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    h.state_mut().command(Command::Tab(Tab::Play));
    h.run();
    h.state_mut().command(Command::Undo);
    h.run();
    assert!(
        h.state().status().is_some_and(|s| s.error),
        "{}",
        status(&h)
    );
    h.state_mut().command(Command::Tab(Tab::Rules));
    h.run();
    assert!(h.state().status().is_none(), "{}", status(&h));
    assert!(h.state().session().is_some(), "the game is still open");
    assert!(
        h.query_by_label(HINT).is_none(),
        "the idle hint came back mid-game"
    );
}

/// The words of the first node whose label or value holds `part`.
fn words_with(h: &Harness<'_, EditorApp>, part: &str) -> String {
    let n = h.get_by_label_contains(part);
    let n = n.accesskit_node();
    n.label().or_else(|| n.value()).unwrap_or_default()
}

/// Finding 3: a ruleset broken by the first change after a game began gave only the red
/// status line — no *New game from the changed files* row, which came (greyed) only when a
/// good change had come first. It comes greyed at once, its hover naming the file and line;
/// fixed, it is live.
#[test]
fn a_ruleset_broken_by_its_first_change_greys_the_new_game_row() {
    let (dir, _, _, mut h) = common::drill_square_in_play();
    let rules = dir.path().join("rulesets/drill-square.yaml");
    let text = std::fs::read_to_string(&rules).expect("read");
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("  hits: { max: 3,"))
        .expect("the hits line");
    let label = "New game from the changed files";
    assert!(h.query_by_label(label).is_none());
    common::rewrite(
        &rules,
        &text.replace("  hits: { max: 3,", "  hits: { max: three,"),
        5,
    );
    h.state_mut().check_files();
    h.run();
    assert!(
        h.state().status().is_some_and(|s| s.error),
        "{}",
        status(&h)
    );
    assert!(
        !common::enabled(&h, label),
        "the row is greyed while the ruleset is broken"
    );
    h.get_by_role_and_label(Role::Button, label).hover();
    h.run();
    let hover = words_with(&h, "No new game can start from the files as they are now");
    assert!(
        hover.contains(&format!("drill-square.yaml:{line}:")),
        "{hover}"
    );
    common::rewrite(&rules, &format!("{text}\n# fixed\n"), 10);
    h.state_mut().check_files();
    h.run();
    assert!(common::enabled(&h, label), "{}", status(&h));
}

/// The duel of `tests/fixtures/tune` (one shot decides) with a setting its ruleset gives
/// 30 and its scenario sets to 80: a number no game reads.
fn duel_with_a_setting() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let fixtures = common::root().join("tests/fixtures/tune");
    let rules = std::fs::read_to_string(fixtures.join("duel.yaml")).expect("duel");
    std::fs::write(
        dir.path().join("duel.yaml"),
        format!("{rules}settings:\n  break_point: 30\n"),
    )
    .expect("write");
    let scenario =
        std::fs::read_to_string(fixtures.join("duel-scenario.yaml")).expect("duel scenario");
    let path = dir.path().join("duel-scenario.yaml");
    std::fs::write(
        &path,
        format!("{scenario}settings: {{ break_point: 80 }}\n"),
    )
    .expect("write");
    (dir, path)
}

/// Findings 2 and 13: Tune listed `settings.break_point = 30` though the scenario sets 80,
/// a run over it gave every candidate the same rate with no word why, and the answer
/// stayed on screen after the numbers to vary changed. The list and the row name the
/// scenario's value; after the run a note says no value tried changed the result; a
/// changed range puts "Run again" in the answer's place.
#[test]
fn tune_names_the_value_in_force_a_flat_run_and_a_stale_answer() {
    let (_dir, path) = duel_with_a_setting();
    let mut h = common::scenario(&path.to_string_lossy(), 1500.0, 1400.0);
    h.get_by_role_and_label(Role::Button, "Tune").click();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "games a candidate:")
        .set_value_accesskit(10.0);
    h.run();
    // Out of reach (blue hits 2 shots in 10 here), so the search tries every value.
    h.get_by_role_and_label(Role::SpinButton, "target win rate, %:")
        .set_value_accesskit(95.0);
    h.run();
    h.get_by_label("find a number:")
        .set_text_value_accesskit("break");
    h.run();
    h.get_by_label("settings.break_point (in force: 80, the scenario's) = 30")
        .click();
    h.run();
    let _ = h.get_by_label_contains("now 30; the scenario sets 80, so this number changes nothing");
    h.get_by_label("from").set_text_value_accesskit("29");
    h.run();
    h.get_by_label("to").set_text_value_accesskit("31");
    h.run();
    h.get_by_role_and_label(Role::Button, "Run").click();
    common::wait_while(&mut h, EditorApp::tuning);
    let note = words_with(&h, "No value tried changed the result");
    assert!(
        note.contains(
            "the number may be unused, set by the scenario, or overwritten by the \
                       ruleset's scripts"
        ),
        "{note}"
    );
    assert!(note.contains("3 candidates, each 20.0%"), "{note}");
    let answer = h.state().tune_answer().expect("an answer");
    assert!(h.query_by_label(&answer).is_some(), "{answer}");
    // The range changed: the answer for the old one is not shown as the new one's.
    h.get_by_label("to").set_text_value_accesskit("33");
    h.run();
    let _ =
        h.get_by_label("The numbers to vary changed since the last run: Run again for an answer.");
    assert!(
        h.query_by_label_contains("No value tried changed")
            .is_none()
    );
    assert!(
        h.query_by_role_and_label(Role::Button, "Save tuned as house rule…")
            .is_none()
    );
    // Put back, the run's answer is its own again.
    h.get_by_label("to").set_text_value_accesskit("31");
    h.run();
    let _ = words_with(&h, "No value tried changed the result");
    assert!(h.query_by_label(&answer).is_some(), "{answer}");
}

/// The number in the box of the chart input the Charts tab calls `label`.
fn input_box(h: &Harness<'_, EditorApp>, label: &str) -> Option<f64> {
    h.get_by_role_and_label(Role::SpinButton, label)
        .accesskit_node()
        .numeric_value()
}

/// Finding 4: black-powder's *command* chart opened with a staff rating of 0, so its odds
/// read "no moves 97.22%" until a staff of 8 was guessed. An input read from a piece's
/// attribute starts at the value most of the scenario's pieces have (its brigadiers: 8, 8,
/// 8 and 7, examples/black-powder.yaml l.22–36), its hover says so; an input read from
/// elsewhere (the command distance) still starts at its default, 0; a value typed stays.
#[test]
fn a_chart_input_read_from_an_attribute_starts_at_the_scenarios_value() {
    let mut h = common::scenario("examples/black-powder.yaml", 1400.0, 900.0);
    h.state_mut().command(Command::Tab(Tab::Charts));
    h.state_mut()
        .command(Command::ShowChart("command".to_owned()));
    h.run();
    assert_eq!(input_box(&h, "staff rating"), Some(8.0));
    assert_eq!(
        input_box(
            &h,
            "each 12\" begun beyond the first 12\" from the commander"
        ),
        Some(0.0)
    );
    h.query_all(
        egui_kittest::kittest::by()
            .role(Role::Label)
            .value("staff rating"),
    )
    .next()
    .expect("the input's words")
    .hover();
    h.run();
    let _ = h.get_by_label_contains("it starts at 8, the staff most of the scenario's pieces have");
    h.state_mut()
        .command(Command::ChartInput("staff".to_owned(), 5));
    h.run();
    assert_eq!(input_box(&h, "staff rating"), Some(5.0));
}

/// Finding 5: b3_crew's counter read "b3_crew / di…rbed" — its marker *disturbed* cut
/// inside the word, and no mode letter, though its hover card says "the F on the counter".
/// A name too wide for its letter gives the letter a line of its own (kept as "F …" on a
/// counter's last row), and a one-word marker that does not fit shows "…", never a cut word.
#[test]
fn a_counter_keeps_its_mode_letter_and_cuts_no_marker_inside_a_word() {
    use grognard_editor::board::{DrawPiece, Look};
    use grognard_editor::scene::{SMALLEST_LABEL_FONT, piece_galley};
    use grognard_kernel::geometry::Cell;
    use grognard_kernel::ids::{PieceId, SideId};
    use grognard_kernel::piece::Place;
    let h = common::sized(grognard_editor::Options::default(), 400.0, 300.0);
    let ctx = h.ctx.clone();
    let font = egui::FontId::proportional(SMALLEST_LABEL_FONT);
    let width_of = |t: &str| {
        ctx.fonts_mut(|f| f.layout_no_wrap(t.to_owned(), font.clone(), egui::Color32::WHITE))
            .size()
            .x
    };
    let row = ctx.fonts_mut(|f| f.row_height(&font));
    let piece = DrawPiece {
        id: PieceId(0),
        side: SideId(0),
        name: "b3_crew".to_owned(),
        kind: "crew".to_owned(),
        place: Place::Cell(Cell::new(3, 8)),
        facing: None,
        mode: "formed".to_owned(),
        markers: vec!["disturbed".to_owned()],
        look: Look::Open,
        footprint: None,
    };
    // Room for the name, not for "b3_crew F" nor for "disturbed" (fit_lines is given the
    // room less 4 points across and 2 down).
    let width = width_of("b3_crew") + 1.0;
    assert!(width < width_of("b3_crew F") && width < width_of("disturbed"));
    let text = |rows: f32| {
        piece_galley(
            &ctx,
            &piece,
            30.0,
            SMALLEST_LABEL_FONT,
            (width + 4.0, rows * row + 2.5),
            egui::Color32::WHITE,
        )
        .text()
        .to_owned()
    };
    assert_eq!(text(3.0), "b3_crew\nF\n…");
    assert_eq!(text(2.0), "b3_crew\nF …");
}

/// Finding 14: opening another scenario put every side back to *person*, so a player who
/// had set "me against the computer" set it again. hex-command and hex-leaders both name
/// their sides blue and red (examples/hex-leaders.yaml l.31–33): red stays the computer's,
/// and the status line says so; square-blocks has no red, and the status line says that
/// red's seat was not kept.
#[test]
fn opening_another_scenario_keeps_the_seats_of_sides_of_the_same_name() {
    use grognard_editor::app::FilePurpose;
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    // The computer gives no order in this test: its seat is what is looked at.
    h.state_mut()
        .set_computer_pace(std::time::Duration::from_secs(3600));
    h.state_mut().command(Command::Tab(Tab::Play));
    h.run();
    let red = common::side_named(&h, "red");
    h.state_mut()
        .command(Command::Seat(red, Some(grognard_play::PolicyKind::Greedy)));
    h.run();
    assert_eq!(common::combo_value(&h, "red"), "greedy");
    common::choose(
        &mut h,
        FilePurpose::OpenScenario,
        "examples/hex-leaders.yaml",
    );
    let said = status(&h);
    assert!(said.contains("hex-leaders.yaml started under"), "{said}");
    assert!(
        said.contains("the computer's seat is kept: red (greedy)"),
        "{said}"
    );
    assert_eq!(common::combo_value(&h, "red"), "greedy");
    assert_eq!(common::combo_value(&h, "blue"), "person");
    common::choose(
        &mut h,
        FilePurpose::OpenScenario,
        "examples/square-blocks.yaml",
    );
    let said = status(&h);
    assert!(
        said.contains("no side here is named red, so the computer's seat there was not kept"),
        "{said}"
    );
    assert_eq!(common::combo_value(&h, "austrians"), "person");
    assert_eq!(common::combo_value(&h, "french"), "person");
}

/// Finding 7: at 800 × 600 the Simulate tab cut the game-length histogram at its foot
/// (no turn axis, "games" read "es") and the page did not scroll. The results scroll: the
/// wheel over them brings the histogram's heading up.
#[test]
fn simulate_results_scroll_at_800_by_600() {
    use grognard_editor::simulate::SimJob;
    let path = common::root().join("examples/drill-square.yaml");
    let s = grognard_rules::load::load_scenario(&path, None).expect("loads");
    let seed = s.compiled.setup.seed;
    let played = SimJob::start(vec![s], &grognard_play::PolicyKind::Random, 3, seed, 1)
        .wait()
        .expect("played");
    let mut h = common::scenario("examples/drill-square.yaml", 800.0, 600.0);
    h.state_mut().command(Command::Tab(Tab::Simulate));
    h.run();
    h.state_mut().set_simulation_results(played);
    h.run();
    let heading = "Game length: games by the turn they ended on";
    let top = |h: &Harness<'_, EditorApp>| h.get_by_label(heading).rect().min.y;
    let before = top(&h);
    // The histogram (its heading, legend and a plot 180 points tall) ends below the window.
    assert!(before + 200.0 > 600.0, "{before}");
    let over = h
        .get_by_label_contains("Win and draw rates are")
        .rect()
        .center();
    common::wheel(&mut h, over, -400.0, 30);
    h.run();
    let after = top(&h);
    assert!(
        after < before - 100.0,
        "the page did not scroll: {before} → {after}"
    );
}

/// Finding 9: the red box of a broken scenario stood over the phase bar, pushing every
/// row down some 37 points; fixed, they jumped back, and the button under the pointer
/// moved away. The box comes under the two rows: *New game* keeps its place throughout.
#[test]
fn a_scenario_mistake_box_moves_no_button() {
    let (_dir, path, text, mut h) = common::drill_square_in_play();
    let at = |h: &Harness<'_, EditorApp>| h.get_by_role_and_label(Role::Button, "New game").rect();
    let before = at(&h);
    common::rewrite(&path, &common::broken_turns(&text).0, 5);
    h.state_mut().check_files();
    h.run();
    assert!(!h.state().scenario_problems().is_empty(), "{}", status(&h));
    let _ = h.get_by_label_contains("The scenario file has a mistake");
    assert_eq!(at(&h), before, "the box moved the row");
    common::rewrite(&path, &format!("{text}\n# fixed\n"), 10);
    h.state_mut().check_files();
    h.run();
    assert!(h.state().scenario_problems().is_empty(), "{}", status(&h));
    assert_eq!(at(&h), before);
}

/// Finding 10: on black-powder's table the red rings round legal targets were drawn over
/// the captions ("objective 4; disordered" read with a ","). Every caption's backdrop is
/// drawn after every ring.
#[test]
fn target_rings_are_drawn_under_the_captions() {
    use grognard_editor::board::{Overlay, Transform};
    let h = common::scenario("examples/black-powder.yaml", 1400.0, 900.0);
    let g = &h.state().session().expect("a game").game;
    let pieces = h.state().drawn_pieces().to_vec();
    assert!(!pieces.is_empty());
    let overlay = Overlay {
        target_pieces: pieces.iter().map(|p| p.id).collect(),
        ..Overlay::default()
    };
    // Small: the bases carry no names, so every piece has a caption.
    let t = Transform {
        origin: egui::pos2(20.0, 20.0),
        scale: 12.0,
    };
    let clip = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1400.0, 900.0));
    let shapes = common::paint_board(&h.ctx, g, &pieces, &overlay, &t, clip);
    let red = egui::Color32::from_rgb(220, 30, 30);
    let rings: Vec<usize> = shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, egui::Shape::Circle(c) if c.stroke.color == red))
        .map(|(i, _)| i)
        .collect();
    let backdrop = egui::Color32::from_black_alpha(170);
    let captions: Vec<usize> = shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, egui::Shape::Rect(r) if r.fill == backdrop))
        .map(|(i, _)| i)
        .collect();
    assert!(
        !rings.is_empty() && !captions.is_empty(),
        "{rings:?} {captions:?}"
    );
    let last_ring = rings.iter().max().expect("a ring");
    let first_caption = captions.iter().min().expect("a caption");
    assert!(
        last_ring < first_caption,
        "a ring at {last_ring} over a caption at {first_caption}"
    );
}

/// Finding 8: in square-blocks the army and two lost scouts stood in one cell of the
/// board's bottom row; their three captions stacked under it, the third running off the
/// board's bottom edge and touching the second. Each caption stays inside the board and
/// clear of the others.
#[test]
fn stacked_captions_stay_on_the_board_and_apart() {
    use grognard_editor::board::{DrawPiece, Look};
    use grognard_editor::scene::Captions;
    let h = common::sized(grognard_editor::Options::default(), 400.0, 300.0);
    let piece = |i: u32, name: &str, markers: &[&str]| DrawPiece {
        id: grognard_kernel::ids::PieceId(i),
        side: grognard_kernel::ids::SideId(0),
        name: name.to_owned(),
        kind: "block".to_owned(),
        place: grognard_kernel::piece::Place::Cell(grognard_kernel::geometry::Cell::new(5, 9)),
        facing: None,
        mode: "strategic".to_owned(),
        markers: markers.iter().map(|m| (*m).to_owned()).collect(),
        look: Look::Open,
        footprint: None,
    };
    let board = egui::Rect::from_min_max(egui::pos2(0.0, 40.0), egui::pos2(400.0, 300.0));
    // The cell's counter a few points above the board's bottom edge.
    let under = egui::Rect::from_min_size(egui::pos2(190.0, 268.0), egui::vec2(20.0, 20.0));
    let mut captions = Captions::default();
    for p in [
        piece(0, "army", &["figures 6"]),
        piece(1, "scout1", &["figures 1", "lost", "seen"]),
        piece(2, "scout2", &["figures 1", "lost", "seen"]),
    ] {
        captions.add(&h.ctx, &p, under, false);
    }
    let backdrops: Vec<egui::Rect> = captions
        .into_shapes_within(board)
        .iter()
        .filter_map(|s| match s {
            egui::Shape::Rect(r) => Some(r.rect),
            _ => None,
        })
        .collect();
    assert_eq!(backdrops.len(), 3, "{backdrops:?}");
    for (i, r) in backdrops.iter().enumerate() {
        assert!(board.contains_rect(*r), "{r:?} leaves {board:?}");
        for o in &backdrops[i + 1..] {
            assert!(!r.expand(0.5).intersects(*o), "{r:?} touches {o:?}");
        }
    }
}
