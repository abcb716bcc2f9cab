//! The ninth outside player's findings of issue 37 (its report's F1–F12): a scenario's own
//! mistake worded as its own, unsaved edits kept across the Scenario menu, one error per
//! bad value, the finder and the set-up panel, and the small ones — each checked as the
//! editor shows it, driven with egui_kittest.

mod common;
use common::{copied, rewrite, status};

use std::time::Duration;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::app::FilePurpose;
use grognard_editor::{Command, EditorApp};

/// F1: `turns: eight` in the open scenario, under its own ruleset, read "does not fit the
/// ruleset in force" and sent the player to the Ruleset menu, the first error at the
/// `scenario:` line. It is the file's own mistake, named at the `turns:` line, once.
#[test]
fn a_plain_mistake_in_the_scenario_is_its_own_and_names_its_line() {
    let (_dir, path) = copied("drill-square");
    let text = std::fs::read_to_string(&path).expect("read");
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("turns:"))
        .expect("a turns line");
    let mut h = common::scenario(&path.to_string_lossy(), 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    assert!(h.state().session().is_some(), "{}", status(&h));
    let turns = text
        .lines()
        .find(|l| l.starts_with("turns:"))
        .expect("turns");
    rewrite(&path, &text.replace(turns, "turns: eight"), 5);
    h.state_mut().check_files();
    h.run();
    let problems = h.state().scenario_problems().to_vec();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains(&format!(
            "drill-square.yaml:{line}:8: in turns: expected a whole number, found the text `eight`"
        )),
        "{problems:#?}"
    );
    assert!(h.state().scenario_own_fault());
    let s = status(&h);
    assert!(s.contains("1 mistake of its own"), "{s}");
    assert!(
        !s.contains("does not fit") && !s.contains("Ruleset menu"),
        "{s}"
    );
    let _ = h.get_by_label_contains("The scenario file has a mistake (1)");
    assert!(h.query_by_label_contains("does not fit").is_none());
}

/// The score of scout fate's first row, as the working copy holds it.
fn scout_score(h: &Harness<'_, EditorApp>) -> Option<String> {
    let path: Vec<String> = ["charts", "scout_fate", "rows", "0", "score"]
        .map(str::to_owned)
        .to_vec();
    let bench = h.state().workbench()?;
    bench.value(&path).map(|v| v.to_string())
}

/// F12: with scout fate's row 1 edited (unsaved), opening square-blocks-setup from the
/// Scenario menu — the same ruleset — dropped the edit without a word. It is kept, and
/// still in force in the new scenario's game.
#[test]
fn opening_a_scenario_of_the_same_ruleset_keeps_the_unsaved_edits() {
    let mut h = common::scenario("examples/square-blocks.yaml", 1400.0, 900.0);
    let score = grognard_editor::house::field(&["charts", "scout_fate", "rows", "0", "score"]);
    h.state_mut()
        .command(Command::SetField(score, "9+".to_owned()));
    h.run();
    assert_eq!(scout_score(&h).as_deref(), Some("\"9+\""));
    let setup = common::root().join("examples/square-blocks-setup.yaml");
    h.state_mut()
        .command(Command::Chosen(FilePurpose::OpenScenario, setup));
    h.run();
    assert!(
        status(&h).contains("square-blocks-setup.yaml started under square-blocks-house"),
        "{}",
        status(&h)
    );
    let bench = h.state().workbench().expect("a ruleset");
    assert!(bench.is_modified(), "the edit was dropped");
    assert_eq!(scout_score(&h).as_deref(), Some("\"9+\""));
    assert_eq!(bench.current.rules.identity.name, "square-blocks-house");
}

/// F12: opening a scenario of another ruleset over unsaved edits asks first; Cancel keeps
/// everything, Discard opens it under its own ruleset, and Save as house rule… saves them,
/// then opens it.
#[test]
fn opening_a_scenario_of_another_ruleset_over_unsaved_edits_asks_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = common::scenario("examples/square-blocks.yaml", 1400.0, 900.0);
    let score = grognard_editor::house::field(&["charts", "scout_fate", "rows", "0", "score"]);
    h.state_mut()
        .command(Command::SetField(score, "9+".to_owned()));
    h.run();
    let other = common::root().join("examples/drill-square.yaml");
    let open = |h: &mut Harness<'_, EditorApp>| {
        h.state_mut()
            .command(Command::Chosen(FilePurpose::OpenScenario, other.clone()));
        h.run();
    };
    open(&mut h);
    // Asked, nothing changed yet.
    let _ = h.get_by_label_contains("Your edits of square-blocks are not saved");
    assert_eq!(scout_score(&h).as_deref(), Some("\"9+\""));
    assert!(!status(&h).contains("started under"), "{}", status(&h));
    h.get_by_role_and_label(Role::Button, "Cancel").click();
    h.run();
    assert!(h.query_by_label_contains("Your edits of").is_none());
    assert_eq!(scout_score(&h).as_deref(), Some("\"9+\""));
    assert!(
        status(&h).contains("kept the scenario in play"),
        "{}",
        status(&h)
    );
    // Save as house rule…: the path is asked; once saved, the other scenario opens.
    open(&mut h);
    h.get_by_role_and_label(Role::Button, "Save as house rule…")
        .click();
    h.run();
    let house = dir.path().join("sb-house.yaml");
    h.state_mut()
        .command(Command::Chosen(FilePurpose::SaveHouseRule, house.clone()));
    h.run();
    let saved = std::fs::read_to_string(&house).expect("the house rule was saved");
    assert!(saved.contains("9+"), "{saved}");
    let s = status(&h);
    assert!(
        s.contains("saved house rule")
            && s.contains("drill-square.yaml started under drill-square"),
        "{s}"
    );
    // Discard: back to square-blocks, edit, then drill-square again and discard.
    let sb = common::root().join("examples/square-blocks.yaml");
    h.state_mut()
        .command(Command::Chosen(FilePurpose::OpenScenario, sb));
    h.run();
    let score = grognard_editor::house::field(&["charts", "scout_fate", "rows", "0", "score"]);
    h.state_mut()
        .command(Command::SetField(score, "8+".to_owned()));
    h.run();
    open(&mut h);
    h.get_by_role_and_label(Role::Button, "Discard the edits")
        .click();
    h.run();
    assert!(
        status(&h).contains("drill-square.yaml started under drill-square"),
        "{}",
        status(&h)
    );
    assert!(!h.state().workbench().expect("a ruleset").is_modified());
}

/// F2: Rules tab, infantry *formed* `3` → `x` showed "piece type `infantry` needs an
/// `allowance:` …" (the bad value left out) above the real error that names the value.
/// Only the one naming the value is shown; emptying the box speaks of "your edits", never
/// of an "overlay".
#[test]
fn one_bad_value_gives_the_one_error_that_names_it() {
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    let formed = grognard_editor::house::field(&["piece_types", "infantry", "allowance", "formed"]);
    h.state_mut()
        .command(Command::SetField(formed.clone(), "x".to_owned()));
    h.run();
    let bench = h.state().workbench().expect("a ruleset");
    let shown = bench.field_errors.get(&formed).expect("marked").clone();
    assert!(shown.contains("found `x`"), "{shown}");
    assert!(
        !bench
            .problems
            .iter()
            .any(|p| p.contains("needs an `allowance:`")),
        "{:#?}",
        bench.problems
    );
    h.state_mut()
        .command(Command::SetField(formed.clone(), String::new()));
    h.run();
    let bench = h.state().workbench().expect("a ruleset");
    let all = format!("{:?} {:?}", bench.field_errors, bench.problems);
    assert!(!all.contains("overlay"), "{all}");
}

/// F2: a ruleset broken on disk showed its error twice at the window's bottom ("Reload
/// error: …", then "reload failed, the last good ruleset stays: …").
#[test]
fn a_ruleset_broken_on_disk_is_told_once() {
    let (dir, path) = copied("drill-square");
    let mut h = common::scenario(&path.to_string_lossy(), 1400.0, 900.0);
    let rules = dir.path().join("rulesets/drill-square.yaml");
    let text = std::fs::read_to_string(&rules).expect("read");
    let broken = text.replacen(
        "allowance: { battle: ½, strategic: 1½, road: 2 }",
        "allowance: { battle: zz, strategic: 1½, road: 2 }",
        1,
    );
    assert_ne!(broken, text);
    rewrite(&rules, &broken, 5);
    h.state_mut().check_files();
    h.run();
    assert!(
        status(&h).starts_with("reload failed, the last good ruleset stays"),
        "{}",
        status(&h)
    );
    let told = h.query_all_by_label_contains("found `zz`").count();
    assert_eq!(told, 1, "the error once");
}

/// F7: Tune's finder, "houses cover" in village-skirmish: its only match added with one
/// click, the line under the field said 'nothing matches "houses cover"'. It says the
/// match is added.
#[test]
fn the_tune_finder_says_its_match_is_added_not_that_nothing_matches() {
    let mut h = common::scenario("examples/village-skirmish.yaml", 1500.0, 1000.0);
    let found = common::tune_find(&mut h, "houses cover");
    assert_eq!(found.len(), 1, "{found:?}");
    h.get_by_role_and_label(Role::Button, &found[0]).click();
    h.run();
    assert!(h.query_by_label_contains("nothing matches").is_none());
    let _ = h.get_by_label_contains("the number matching \"houses cover\" is added above");
}

/// F6: in square-blocks-setup's set-up the piece panel said "div1 cannot move now (no
/// legal move)" while its deploy cells were shaded. It says the piece may be deployed.
#[test]
fn in_the_set_up_the_piece_panel_says_the_piece_may_be_deployed() {
    let mut h = common::scenario("examples/square-blocks-setup.yaml", 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    let (piece, side, places) = {
        let s = h.state().session().expect("a game");
        let mut hooks = grognard_editor::session::hooks_for(&s.scenario.ruleset).expect("hooks");
        let side = s.game.to_act().first().copied().expect("a side sets up");
        let deploys: Vec<_> = s
            .game
            .legal_orders(side, hooks.as_mut())
            .into_iter()
            .filter_map(|a| match a {
                grognard_kernel::action::Action::Deploy { piece, .. } => Some(piece),
                _ => None,
            })
            .collect();
        let piece = deploys[0];
        (piece, side, deploys.iter().filter(|p| **p == piece).count())
    };
    let name = h
        .state()
        .session()
        .expect("a game")
        .game
        .piece(piece)
        .expect("piece")
        .name
        .clone();
    h.state_mut()
        .command(Command::ViewAs(grognard_editor::view::ViewAs::Side(side)));
    h.state_mut().command(Command::Select(Some(piece)));
    h.run();
    assert!(h.query_by_label_contains("cannot move now").is_none());
    let _ = h.get_by_label_contains(&format!("{name} may be deployed: {places} places"));
}

/// F3: names with underscores in sight — the Charts tab's dice line "Dice: cube +
/// cube_defender" (hex-command's melee), the Rules tab's rows `light_infantry`. Spaced,
/// as everywhere else.
#[test]
fn the_rules_and_charts_tabs_space_their_names() {
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Charts));
    h.state_mut()
        .command(Command::ShowChart("melee".to_owned()));
    h.run();
    let _ = h.get_by_label_contains("Dice: cube + cube defender (");
    assert!(h.query_by_label_contains("cube_defender (").is_none());
    let mut h = common::scenario("examples/black-powder.yaml", 1400.0, 900.0);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Rules));
    h.run();
    let _ = h.get_by_label("light infantry");
    assert!(h.query_by_label("light_infantry").is_none());
}

/// F4: the saved house rule quoted its scores unevenly: `score: 5` on the row typed, `score:
/// "6"`, `"5"`, `"-1"` … on the rows copied from the base. A number typed where the base
/// writes text stays text, and the rows read alike.
#[test]
fn a_saved_house_rule_quotes_its_scores_alike() {
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    let score = grognard_editor::house::field(&["charts", "melee", "rows", "0", "score"]);
    h.state_mut()
        .command(Command::SetField(score, "5".to_owned()));
    h.run();
    let dir = tempfile::tempdir().expect("temp dir");
    let at = dir.path().join("hc-house.yaml");
    let text = h.state().workbench().expect("a ruleset").overlay_text(&at);
    let scores: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split("score: ").nth(1))
        .collect();
    assert!(scores.len() > 1, "{text}");
    assert!(scores.iter().any(|s| s.starts_with("\"5\"")), "{text}");
    assert!(scores.iter().all(|s| s.starts_with('"')), "{text}");
}

/// F5: the event log told each deed twice — "b1 dig", then "b1 has dug in"; "r1 fire at
/// b2 …", then "r1 has fired". The flag line that only repeats the order just logged is
/// left out of the editor's log (the CLI's keeps every event).
#[test]
fn the_log_tells_a_deed_once() {
    use grognard_kernel::action::Event;
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    for side in [
        grognard_kernel::ids::SideId(0),
        grognard_kernel::ids::SideId(1),
    ] {
        h.state_mut()
            .command(Command::Seat(side, Some(grognard_play::PolicyKind::Greedy)));
    }
    let dug = |h: &Harness<'_, EditorApp>| {
        let game = &h.state().session().expect("a game").game;
        let log = game.log();
        (1..log.len()).find(|&i| {
            matches!(&log[i], Event::FlagChanged { flag, on: true, .. } if flag == "dug")
                && grognard_play::text::repeats_order(log, i)
        })
    };
    let start = std::time::Instant::now();
    while dug(&h).is_none() {
        assert!(start.elapsed() < Duration::from_secs(240), "{}", status(&h));
        assert!(
            h.state().session().expect("a game").game.phase().is_some(),
            "no dig"
        );
        std::thread::sleep(Duration::from_millis(5));
        h.run_steps(2);
    }
    h.run();
    let game = &h.state().session().expect("a game").game;
    let i = dug(&h).expect("dug");
    let Event::FlagChanged { piece, .. } = &game.log()[i] else {
        unreachable!()
    };
    let name = game.piece(*piece).expect("piece").name.clone();
    // The CLI's words for the event are kept; the editor's log does not repeat them.
    assert_eq!(
        grognard_play::text::event(game, &game.log()[i]),
        format!("  {name} has dug in")
    );
    let log = h.state().event_log().to_vec();
    assert!(
        log.iter().any(|l| l.trim() == format!("{name} dig")),
        "{log:#?}"
    );
    assert!(
        !log.iter().any(|l| l.trim() == format!("{name} has dug in")),
        "{log:#?}"
    );
}

/// F8: on the open table a click ahead of b_line1 logged "moved (12", 30") → (11.969",
/// 27.67")": a click's point kept the thousandth, a drag's is to the hundredth. A click's
/// point is to the hundredth too.
#[test]
fn a_click_on_the_open_table_moves_to_the_hundredth_of_an_inch() {
    use grognard_kernel::piece::Place;
    let mut h = common::scenario("examples/village-skirmish.yaml", 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    let (id, side) = {
        let game = &h.state().session().expect("a game").game;
        let p = game.piece_by_name("b_line1").expect("b_line1");
        (p.id, p.side)
    };
    h.state_mut()
        .command(Command::ViewAs(grognard_editor::view::ViewAs::Side(side)));
    h.state_mut().command(Command::Select(Some(id)));
    h.run();
    let at = h
        .state()
        .board_on_screen(11.9687, 27.6713)
        .expect("the table drawn");
    h.event(egui::Event::PointerMoved(at));
    h.event(common::button(at, true));
    h.step();
    h.event(common::button(at, false));
    h.run();
    let game = &h.state().session().expect("a game").game;
    let Some(Place::Point { at: p, .. }) = game.piece(id).map(|p| p.place.clone()) else {
        panic!("on the table")
    };
    assert_ne!((p.x.0, p.y.0), (12_000, 30_000), "moved: {}", status(&h));
    assert!(
        (p.x.0 - 11_970).abs() <= 20 && (p.y.0 - 27_670).abs() <= 20,
        "{p:?}"
    );
    assert_eq!((p.x.0 % 10, p.y.0 % 10), (0, 0), "{p:?}: {}", status(&h));
}

/// F10: a refused save's status repeated the field's name ("… result (your edit of charts
/// › melee › row 2 › result (over …): …") and ran off the window. It names the field once,
/// and the error is read above the fields.
#[test]
fn a_refused_save_names_the_field_once_in_a_short_line() {
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Charts));
    h.state_mut()
        .command(Command::ShowChart("melee".to_owned()));
    h.run();
    let result = grognard_editor::house::field(&["charts", "melee", "rows", "1", "result"]);
    h.state_mut()
        .command(Command::SetField(result, "attacker hti".to_owned()));
    h.run();
    h.state_mut()
        .command(Command::Ask(FilePurpose::SaveHouseRule));
    h.run();
    let s = status(&h);
    assert_eq!(
        s,
        "Not saved: a field shows an error: charts › melee › row 2 › result (`attacker hti` \
         is not an outcome of chart melee — did you mean `attacker hit`?) (marked ⚠, \
         explained above the fields). Fix it (or Revert) and save again."
    );
}

/// F11: while stepping through a finished game the greyed Undo's tooltip began in lower
/// case ("you are stepping through the finished game …") where the others are sentences.
#[test]
fn undo_while_stepping_through_says_a_sentence() {
    let mut h = common::scenario("examples/drill-square.yaml", 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    for side in [
        grognard_kernel::ids::SideId(0),
        grognard_kernel::ids::SideId(1),
    ] {
        h.state_mut()
            .command(Command::Seat(side, Some(grognard_play::PolicyKind::Greedy)));
    }
    let start = std::time::Instant::now();
    while h.state().session().expect("a game").game.phase().is_some() {
        assert!(start.elapsed() < Duration::from_secs(240), "{}", status(&h));
        std::thread::sleep(Duration::from_millis(5));
        h.run_steps(2);
    }
    h.run();
    h.state_mut().command(Command::Review(Some(1)));
    h.run();
    h.get_by_role_and_label(Role::Button, "Undo").hover();
    h.run();
    let _ = h.get_by_label_contains("You are stepping through the finished game");
    assert!(
        h.query_by_label_contains("you are stepping through")
            .is_none()
    );
}

/// F9: at 800×600 hex-command's captions ("kern F · cvs i 4, cvs c 0, c…") ran past the
/// board's right edge, cut under the right panel. A caption near the edge is moved inside.
#[test]
fn a_caption_at_the_boards_edge_is_kept_inside_it() {
    use grognard_editor::board::DrawPiece;
    use grognard_editor::scene::Captions;
    let h = common::scenario("examples/hex-command.yaml", 800.0, 600.0);
    let kern = DrawPiece {
        id: grognard_kernel::ids::PieceId(3),
        side: grognard_kernel::ids::SideId(1),
        name: "kern".to_owned(),
        kind: "commander".to_owned(),
        place: grognard_kernel::piece::Place::Cell(grognard_kernel::geometry::Cell::new(11, 1)),
        facing: None,
        mode: "formed".to_owned(),
        markers: vec![
            "cvs i 4".to_owned(),
            "cvs c 0".to_owned(),
            "cvs l 2".to_owned(),
        ],
        look: grognard_editor::board::Look::Open,
        footprint: None,
    };
    let board = egui::Rect::from_min_max(egui::pos2(0.0, 40.0), egui::pos2(420.0, 560.0));
    // The counter's right side at the board's edge.
    let under = egui::Rect::from_min_size(egui::pos2(400.0, 100.0), egui::vec2(20.0, 20.0));
    let mut captions = Captions::default();
    captions.add(&h.ctx, &kern, under, false);
    let texts: Vec<egui::Rect> = captions
        .into_shapes_within(board)
        .iter()
        .filter_map(|s| match s {
            egui::Shape::Text(t) => Some(t.visual_bounding_rect()),
            _ => None,
        })
        .collect();
    assert_eq!(texts.len(), 1);
    assert!(board.contains_rect(texts[0]), "{:?} in {board:?}", texts[0]);
}
