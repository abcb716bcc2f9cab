//! The eleventh outside player's findings of issue 37 (its report's F1, F3–F11): Tune's
//! finder offering a name as a number, *New game from the changed files* offered while the
//! files are broken, a stale End-phase refusal, the hot-seat screen with no person seated,
//! a marker's own comma in a caption, the Charts, Simulate and Tune tabs at 800 × 600, and
//! a scenario broken at start — each checked as the editor shows it, driven with
//! egui_kittest.

mod common;
use common::{enabled, show_chart, side_named, status, wait_while};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::app::FilePurpose;
use grognard_editor::{Command, EditorApp};

/// The Tune finder's rows (`path = value`) and its "N numbers match" count, with the
/// search field empty.
fn tune_rows(h: &mut Harness<'_, EditorApp>) -> (Vec<String>, usize) {
    h.get_by_role_and_label(Role::Button, "Tune").click();
    h.run();
    let rows = common::tune_rows_shown(h);
    let line = {
        let n = h.get_by_label_contains("numbers match");
        let n = n.accesskit_node();
        n.label().or_else(|| n.value()).expect("the count line")
    };
    let count = line
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count");
    (rows, count)
}

/// F1: under hex-command-limber3 the finder's first row was "ruleset =
/// hex-command-limber3" — the ruleset's name offered as a number because it ends in a
/// digit; added, Run refused "`--0` is not a number". No name or colour is offered
/// (hex-command's buildings' `#a0522d` was counted too), so the count under the variant,
/// which only changes a number, is the base ruleset's.
#[test]
fn the_tune_finder_offers_no_name_that_ends_in_a_digit() {
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    let (_, base) = tune_rows(&mut h);
    common::choose(
        &mut h,
        FilePurpose::OpenRuleset,
        "rulesets/hex-command-limber3.yaml",
    );
    assert_eq!(
        h.state()
            .session()
            .expect("a game")
            .game
            .rules()
            .identity
            .name,
        "hex-command-limber3",
        "{}",
        status(&h)
    );
    let (rows, count) = tune_rows(&mut h);
    assert!(rows.len() > 100, "{rows:?}");
    for r in &rows {
        assert!(!r.starts_with("ruleset = "), "{r}");
        assert!(!r.contains("color = "), "{r}");
        let value = r.rsplit(" = ").next().expect("a value");
        assert!(
            grognard_editor::app::number_text(value),
            "{r}: not a number"
        );
    }
    assert_eq!(count, base);
    // square-blocks names its sighting chart `chart_5`: not offered either.
    let mut h = common::scenario("examples/square-blocks.yaml", 1400.0, 900.0);
    common::tune_find(&mut h, "sighting observers");
    assert!(h.query_by_label_contains("= chart_5").is_none());
    let _ = h.get_by_label_contains("nothing matches \"sighting observers\"");
}

/// F3: with the scenario saved broken during a game, *New game from the changed files*
/// stayed clickable, its hover promising a new game; a click only drew a refusal. It is
/// greyed, and its hover names the file and line to fix; fixed, it is live again.
#[test]
fn new_game_from_broken_files_is_greyed_with_the_file_and_line() {
    let (_dir, path, text, mut h) = common::drill_square_in_play();
    let (bad, line) = common::broken_turns(&text);
    common::rewrite(&path, &bad, 5);
    h.state_mut().check_files();
    h.run();
    let label = "New game from the changed files";
    assert!(!enabled(&h, label));
    h.get_by_role_and_label(Role::Button, label).hover();
    h.run();
    let hover = {
        let n = h.get_by_label_contains("No new game can start from the files as they are now");
        let n = n.accesskit_node();
        n.label().or_else(|| n.value()).unwrap_or_default()
    };
    assert!(
        hover.contains(&format!("drill-square.yaml:{line}:8")),
        "{hover}"
    );
    common::rewrite(&path, &format!("{text}\n# fixed\n"), 10);
    h.state_mut().check_files();
    h.run();
    assert!(enabled(&h, label), "{}", status(&h));
    h.get_by_role_and_label(Role::Button, label).click();
    h.run();
    assert!(
        h.state().session().expect("a game").orders().is_empty(),
        "{}",
        status(&h)
    );
}

/// F4: E pressed as the computer (red) took its turn left in red "End phase is not offered
/// now: not among blue's legal orders now; the Legal orders list has them" beside an
/// enabled End phase. A refusal of End phase goes from the status line once End phase is
/// offered, and the reasons are plain words.
#[test]
fn a_refusal_of_end_phase_goes_once_end_phase_is_offered() {
    use grognard_editor::view::ViewAs;
    let mut h = common::scenario("examples/drill-square.yaml", 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    let (blue, red) = (side_named(&h, "blue"), side_named(&h, "red"));
    // Seen as red while blue acts: refused, with who acts; seen as blue: gone.
    h.state_mut().command(Command::ViewAs(ViewAs::Side(red)));
    h.run();
    h.key_press(egui::Key::E);
    h.run();
    assert_eq!(
        status(&h),
        "End phase is not offered now: red does not act now: blue acts"
    );
    h.state_mut().command(Command::ViewAs(ViewAs::Side(blue)));
    h.run();
    assert_eq!(status(&h), "");
    assert!(enabled(&h, "End phase"));
    // An order blue may not give now, in plain words.
    let b1 = h
        .state()
        .session()
        .expect("a game")
        .game
        .piece_by_name("b1")
        .expect("b1")
        .id;
    let why = h
        .state()
        .greyed_reason(&grognard_kernel::action::Action::Gather { piece: b1 });
    assert_eq!(
        why,
        "blue cannot give that order now; the Legal orders list shows what blue can do"
    );
    // End phase, greyed while blue acts (as in the frame the computer handed the phase
    // over, with the list not yet read again), in plain words too.
    let why = h
        .state()
        .greyed_reason(&grognard_kernel::action::Action::EndPhase);
    assert_eq!(why, "blue cannot end this phase now");
}

/// F5: with Hot-seat on and the computer set to play both sides, the board was hidden
/// behind "Pass the screen to the referee" while the two computers played. With no person
/// seated nothing is hidden; a person seated again gets the screen back at their turn.
#[test]
fn with_the_computer_on_every_side_the_board_is_not_hidden() {
    use grognard_play::PolicyKind;
    let mut h = common::scenario("examples/drill-square.yaml", 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.state_mut().command(Command::HotSeat(true));
    h.run();
    let _ = h.get_by_label("Pass the screen to blue");
    let (blue, red) = (side_named(&h, "blue"), side_named(&h, "red"));
    h.state_mut()
        .set_computer_pace(std::time::Duration::from_secs(3600));
    h.state_mut()
        .command(Command::Seat(red, Some(PolicyKind::Greedy)));
    h.step();
    let _ = h.get_by_label("Pass the screen to blue");
    h.state_mut()
        .command(Command::Seat(blue, Some(PolicyKind::Greedy)));
    h.step();
    h.step();
    assert!(h.query_by_label_contains("Pass the screen").is_none());
    assert!(
        h.query_by_role_and_label(Role::Button, "Show board")
            .is_none()
    );
    // Seen as a side, still nothing to hide from.
    h.state_mut()
        .command(Command::ViewAs(grognard_editor::view::ViewAs::Side(red)));
    h.step();
    assert!(h.query_by_label_contains("Pass the screen").is_none());
    // Hot-seat ticked again with no person seated: the board stays.
    h.state_mut().command(Command::HotSeat(false));
    h.state_mut().command(Command::HotSeat(true));
    h.step();
    assert!(h.query_by_label_contains("Pass the screen").is_none());
}

/// F6: square-blocks' caption "#8 S · seen D, real, not a dummy, +1 more" named two
/// markers, but "real, not a dummy" is one: it read as three. Markers stand apart by
/// "; ", so a marker's own comma never splits it.
#[test]
fn a_markers_own_comma_does_not_split_it_in_a_caption() {
    use grognard_editor::board::DrawPiece;
    let h = common::scenario("examples/square-blocks.yaml", 1400.0, 900.0);
    let block = DrawPiece {
        id: grognard_kernel::ids::PieceId(8),
        side: grognard_kernel::ids::SideId(1),
        name: "#8".to_owned(),
        kind: "scout".to_owned(),
        place: grognard_kernel::piece::Place::Cell(grognard_kernel::geometry::Cell::new(2, 2)),
        facing: None,
        mode: "s".to_owned(),
        markers: ["seen D", "real, not a dummy", "face up"]
            .iter()
            .map(|m| (*m).to_owned())
            .collect(),
        look: grognard_editor::board::Look::Open,
        footprint: None,
    };
    let under = egui::Rect::from_min_size(egui::pos2(200.0, 200.0), egui::vec2(20.0, 20.0));
    let texts = common::caption_texts(&h.ctx, &block, under);
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(
        texts[0].ends_with(" · seen D; real, not a dummy; +1 more"),
        "{texts:?}"
    );
}

/// F9: the Tune finder's word `a` matched inside "small", so `small a hits` listed
/// fire_small_b's and fire_small_c's numbers too. A word matches from a word's start.
#[test]
fn a_finder_word_matches_from_a_words_start() {
    use grognard_editor::app::number_matches;
    let b = (
        "charts.fire_small_b.modifiers.0.per",
        Some("fire small b modifier hits on the firer per"),
    );
    assert!(!number_matches("small a hits", b.0, b.1));
    assert!(!number_matches("a", b.0, b.1));
    assert!(number_matches("small b hits", b.0, b.1));
    assert!(number_matches("fir hit", b.0, b.1));
    assert!(number_matches("fire_small_b.modifiers", b.0, b.1));
    assert!(!number_matches("ire_small_b.modifiers", b.0, b.1));
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    let rows = common::tune_find(&mut h, "small a hits");
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r.contains("fire_small_a")), "{rows:#?}");
}

/// F10: the red "ruleset: `--0` is not a number" stayed in the status line after its row
/// was removed; after *Save tuned as house rule…* the row still read "now 3". A refusal
/// about a row goes with the row, and a row whose number the ruleset in force has changed
/// says the value now and the one it was added at.
#[test]
fn a_tune_rows_refusal_goes_with_it_and_its_value_follows_the_ruleset() {
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    let path = "piece_types.infantry.allowance.formed";
    common::tune_find(&mut h, path);
    h.get_by_label_contains(&format!("{path} = 3")).click();
    h.run();
    let _ = h.get_by_label("now 3");
    h.get_by_role_and_label(Role::TextInput, "from")
        .set_text_value_accesskit("x");
    h.run();
    h.get_by_role_and_label(Role::Button, "Run").click();
    h.run();
    assert!(!h.state().tuning());
    let s = status(&h);
    assert!(s.starts_with(&format!("{path}: ")), "{s}");
    h.get_by_role_and_label(Role::Button, "remove").click();
    h.run();
    assert_eq!(status(&h), "");
    // Added again, then the ruleset's number changed (as the save of a tuned answer
    // changes it): the row says both.
    h.get_by_label_contains(&format!("{path} = 3")).click();
    h.run();
    let field = grognard_editor::house::field(&["piece_types", "infantry", "allowance", "formed"]);
    h.state_mut()
        .command(Command::SetField(field, "0".to_owned()));
    h.run();
    let _ = h.get_by_label("now 0 (was 3)");
}

/// F11: given only a broken scenario, the editor opened nothing ("no ruleset", "not
/// opened"); given it with its ruleset, the Play tab said "No game: open a scenario" under
/// the scenario's own mistake. The ruleset the file names is opened, the mistake is told
/// at its line over the board with nothing under it, and once fixed the game starts.
#[test]
fn a_scenario_broken_at_start_opens_its_ruleset_and_says_only_its_mistake() {
    let (_dir, path) = common::copied("drill-square");
    let text = std::fs::read_to_string(&path).expect("read");
    let (bad, line) = common::broken_turns(&text);
    std::fs::write(&path, &bad).expect("write");
    let mut h = common::scenario(&path.to_string_lossy(), 1400.0, 900.0);
    assert!(h.state().session().is_none());
    let s = status(&h);
    assert!(s.contains("has 1 mistake of its own"), "{s}");
    assert!(!s.contains("not opened"), "{s}");
    assert!(h.state().scenario_own_fault());
    let problems = h.state().scenario_problems().to_vec();
    assert!(
        problems[0].contains(&format!("drill-square.yaml:{line}:8")),
        "{problems:#?}"
    );
    let _ = h.get_by_label_contains("The scenario file has a mistake (1)");
    assert!(
        h.query_by_label_contains("No game: open a scenario")
            .is_none()
    );
    common::rewrite(&path, &text, 5);
    h.state_mut().check_files();
    h.run();
    let g = &h.state().session().expect("a game once fixed").game;
    assert_eq!(g.rules().identity.name, "drill-square");
}

/// F8: at 800 points the Simulate table's last heading was cut ("ended on turr") with no
/// way to see the rest. The table scrolls sideways: its last heading can be brought
/// whole into the window.
#[test]
fn the_simulate_tables_last_heading_can_be_seen_at_800_points() {
    let mut h = common::scenario("examples/hex-command.yaml", 800.0, 600.0);
    // An edit: the table compares the ruleset in force with its base, two rows.
    let field = grognard_editor::house::field(&["piece_types", "infantry", "allowance", "formed"]);
    h.state_mut()
        .command(Command::SetField(field, "2".to_owned()));
    h.state_mut().command(Command::RenameHouse(
        "hex-command-limber3-house-of-the-club".to_owned(),
    ));
    h.run();
    h.get_by_role_and_label(Role::Button, "Simulate").click();
    h.run();
    h.state_mut().command(Command::Simulate {
        policy: grognard_play::PolicyKind::Random,
        runs: 2,
    });
    wait_while(&mut h, EditorApp::simulating);
    let heading = h.get_by_label("ended on turn");
    heading.scroll_to_me();
    h.run();
    let r = h.get_by_label("ended on turn").rect();
    assert!(r.left() >= 0.0 && r.right() <= 800.0, "{r:?}");
}

/// F7: at 800 × 600 the Charts tab's odds plot for hex-command's *decision choice* (9
/// outcomes) showed only after scrolling the odds area, its bar labels cut. Where the
/// lines and the plot do not both fit, the lines fold (one click opens them) and the
/// plot, with the labels under it, is in sight without scrolling.
#[test]
fn the_odds_plot_is_in_sight_at_800_by_600() {
    let mut h = common::scenario("examples/hex-command.yaml", 800.0, 600.0);
    show_chart(&mut h, "decision_choice");
    h.run();
    let plot = grognard_editor::app::odds_plot_rect(&h.ctx).expect("an odds plot");
    // Over the status line at the window's foot.
    let status_top = h
        .query_all_by_role(Role::Label)
        .map(|n| n.rect())
        .filter(|r| r.top() > 540.0)
        .map(|r| r.top())
        .fold(600.0_f32, f32::min);
    assert!(plot.height() >= 120.0, "{plot:?}");
    // Room for the bar labels under the plot.
    assert!(
        plot.bottom() + 16.0 <= status_top,
        "{plot:?} over {status_top}"
    );
    // The lines are one click away.
    let _ = h.get_by_label_contains("each outcome's odds");
    // At 1400 × 900 they are open as before.
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    show_chart(&mut h, "decision_choice");
    h.run();
    assert!(h.query_by_label_contains("each outcome's odds").is_none());
    let plot = grognard_editor::app::odds_plot_rect(&h.ctx).expect("an odds plot");
    assert!(plot.bottom() <= 870.0, "{plot:?}");
}
