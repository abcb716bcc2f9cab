//! The tenth outside player's findings of issue 37 (its report's F1, F9, F10, F13–F15,
//! F17–F19): a button that fits at 800 points, a scenario broken during play told at
//! once, the odds bars and the log in words, the hot-seat screen's End phase, and Tune's
//! counts and leftovers — each checked as the editor shows it, driven with egui_kittest.

mod common;
use common::{copied, rewrite, status};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::{Command, EditorApp};

/// F14, F17: at 800 × 600, with a game in play and the scenario changed on disk, *New
/// game from the changed files* was cut off past the right edge; saved broken, the file's
/// mistake was told only after that button was clicked. The button is in the window, and
/// the mistake is told, at its line, as soon as the change is seen.
#[test]
fn the_changed_files_button_fits_and_a_broken_file_is_told_at_once() {
    let (_dir, path) = copied("drill-square");
    let text = std::fs::read_to_string(&path).expect("read");
    let mut h = common::scenario(&path.to_string_lossy(), 800.0, 600.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.state_mut().command(Command::EndPhase);
    h.run();
    assert!(!h.state().session().expect("a game").orders().is_empty());
    rewrite(&path, &format!("{text}\n# a comment\n"), 5);
    h.state_mut().check_files();
    h.run();
    let b = h
        .get_by_role_and_label(Role::Button, "New game from the changed files")
        .rect();
    assert!(b.right() <= 800.0 && b.left() >= 0.0, "{b:?}");
    assert!(h.state().scenario_problems().is_empty());
    let (bad, line) = common::broken_turns(&text);
    rewrite(&path, &bad, 10);
    h.state_mut().check_files();
    h.run();
    let s = status(&h);
    assert!(s.contains("now has 1 mistake"), "{s}");
    let problems = h.state().scenario_problems().to_vec();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains(&format!("drill-square.yaml:{line}:8")),
        "{problems:#?}"
    );
    // The game is still the one in play.
    assert!(!h.state().session().expect("a game").orders().is_empty());
}

/// F1: a scenario with a mistake opened at start (with its ruleset) said "the game goes on
/// as it started" with no game, and "mistake(s)".
#[test]
fn a_broken_scenario_at_start_says_no_game_is_in_play() {
    let (dir, path) = copied("drill-square");
    let text = std::fs::read_to_string(&path).expect("read");
    let (bad, _) = common::broken_turns(&text);
    std::fs::write(&path, bad).expect("write");
    let h = common::sized(
        grognard_editor::Options {
            ruleset: Some(dir.path().join("rulesets/drill-square.yaml")),
            scenario: Some(path.clone()),
            ..Default::default()
        },
        1400.0,
        900.0,
    );
    assert!(h.state().session().is_none());
    let s = status(&h);
    assert!(s.contains("has 1 mistake of its own"), "{s}");
    assert!(s.contains("no game is in play"), "{s}");
    assert!(!s.contains("goes on as it started"), "{s}");
}

/// Every text painted in the last frame (shapes nested in lists included).
fn painted_texts(h: &Harness<'_, EditorApp>) -> Vec<(String, egui::Rect)> {
    fn walk(s: &egui::Shape, out: &mut Vec<(String, egui::Rect)>) {
        match s {
            egui::Shape::Text(t) => {
                out.push((t.galley.text().to_owned(), t.visual_bounding_rect()))
            }
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &h.output().shapes {
        walk(&c.shape, &mut out);
    }
    out
}

/// F15: black-powder's *command* chart: the odds plot's bars were labelled with ids
/// (`three_moves`, `no_moves`) under lines that read "three moves". The axis reads as the
/// lines do.
#[test]
fn the_odds_bars_are_labelled_in_words() {
    let mut h = common::scenario("examples/black-powder.yaml", 1400.0, 900.0);
    common::show_chart(&mut h, "command");
    h.run();
    let plot = grognard_editor::app::odds_plot_rect(&h.ctx).expect("an odds plot");
    let under: Vec<String> = painted_texts(&h)
        .into_iter()
        .filter(|(_, r)| r.top() >= plot.top() && r.top() <= plot.bottom() + 30.0)
        .map(|(t, _)| t)
        .collect();
    assert!(under.iter().any(|t| t == "three moves"), "{under:?}");
    assert!(under.iter().any(|t| t == "no moves"), "{under:?}");
    assert!(!under.iter().any(|t| t.contains('_')), "{under:?}");
}

/// F10: black-powder's log told a deed twice — "br_bde2 hold" then "br_bde2 is marked
/// “order hold”". A flag named for the order just logged (`order_hold` after `hold`) is
/// left out of the editor's log, as "has dug in" after "dig" was; the order's line reads
/// spaced.
#[test]
fn an_orders_own_flag_is_not_told_again() {
    use grognard_kernel::action::Action;
    use grognard_kernel::hooks::NoHooks;
    let mut h = common::scenario("examples/black-powder.yaml", 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    let legal_hold = |h: &Harness<'_, EditorApp>| {
        let g = &h.state().session().expect("a game").game;
        let id = g.rules().action_by_name("hold").expect("a hold order");
        let mut found = None;
        for side in g.to_act() {
            found = found.or_else(|| {
                g.legal_orders(side, &mut NoHooks)
                    .into_iter()
                    .find(|a| matches!(a, Action::Act { action, .. } if *action == id))
            });
        }
        found
    };
    // To the command phase (the third of a side's turn).
    for _ in 0..6 {
        if legal_hold(&h).is_some() {
            break;
        }
        h.state_mut().command(Command::EndPhase);
        h.run();
    }
    let hold = legal_hold(&h).expect("a legal hold");
    let Action::Act { piece, .. } = &hold else {
        unreachable!()
    };
    let name = {
        let g = &h.state().session().expect("a game").game;
        g.piece(*piece).expect("piece").name.clone()
    };
    h.state_mut().command(Command::Give(hold));
    h.run();
    let game = &h.state().session().expect("a game").game;
    // The flag was set (the CLI's log keeps it) ...
    assert!(
        game.log().iter().any(|e| matches!(e,
            grognard_kernel::action::Event::FlagChanged { flag, on: true, .. } if flag == "order_hold")),
        "{:#?}",
        game.log()
    );
    // ... and the editor's log tells the order once.
    let log = h.state().event_log().to_vec();
    assert!(
        log.iter().any(|l| l.trim() == format!("{name} hold")),
        "{log:#?}"
    );
    assert!(!log.iter().any(|l| l.contains("order hold")), "{log:#?}");
}

/// F13: behind hot-seat's "Pass the screen to …" *End phase* stayed enabled and ended the
/// side's part unseen, while E did nothing and said nothing. Both are refused there, with
/// the reason; once the board is shown, E ends the phase.
#[test]
fn behind_the_hot_seat_screen_the_phase_is_not_ended() {
    let mut h = common::scenario("examples/black-powder.yaml", 1400.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.state_mut().command(Command::HotSeat(true));
    h.run();
    let to = {
        let g = &h.state().session().expect("a game").game;
        let side = g.to_act().first().copied().expect("a side to act");
        g.sides()[side.index()].name.clone()
    };
    let _ = h.get_by_label(&format!("Pass the screen to {to}"));
    let end = h.get_by_role_and_label(Role::Button, "End phase");
    assert!(end.accesskit_node().is_disabled());
    h.key_press(egui::Key::E);
    h.run();
    let s = status(&h);
    assert_eq!(
        s,
        format!("End phase is not offered now: the screen is passed to {to}: Show board first")
    );
    h.state_mut().command(Command::EndPhase);
    h.run();
    assert!(h.state().session().expect("a game").orders().is_empty());
    h.get_by_role_and_label(Role::Button, "Show board").click();
    h.run();
    h.key_press(egui::Key::E);
    h.run();
    assert_eq!(h.state().session().expect("a game").orders().len(), 1);
}

/// The labels of every node holding `words`.
fn labels_with(h: &Harness<'_, EditorApp>, words: &str) -> Vec<String> {
    h.query_all_by_label_contains(words)
        .map(|n| {
            let n = n.accesskit_node();
            n.label().or_else(|| n.value()).unwrap_or_default()
        })
        .collect()
}

/// F9: Tune stopped before its first candidate was measured said "stopped after 17 games"
/// beside "No candidate was measured." and "0 candidates, 0 games". It says the games were
/// of the first candidate, not finished, and that nothing was measured — once.
#[test]
fn a_tune_stopped_before_a_candidate_is_measured_says_so_once() {
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    common::tune_find(&mut h, "fire small b modifier hits");
    h.get_by_label_contains("charts.fire_small_b.modifiers.0.per")
        .click();
    h.run();
    h.get_by_role_and_label(Role::Button, "Run").click();
    h.step();
    h.step();
    assert!(h.state().tuning(), "{}", status(&h));
    h.get_by_label("Stop").click();
    h.step();
    common::wait_while(&mut h, EditorApp::tuning);
    // The tab's line (the status line says it too, after "tuning").
    let stopped: Vec<String> = labels_with(&h, "stopped after")
        .into_iter()
        .filter(|l| l.starts_with("stopped after"))
        .collect();
    assert_eq!(stopped.len(), 1, "{stopped:?}");
    assert!(
        stopped[0]
            .contains("of the first candidate, before it was finished: nothing was measured yet"),
        "{stopped:?}"
    );
    assert!(labels_with(&h, "0 candidates").is_empty());
    assert!(labels_with(&h, "No candidate was measured").is_empty());
    let s = status(&h);
    assert!(s.starts_with("tuning stopped after"), "{s}");
    assert!(s.ends_with("nothing was measured yet"), "{s}");
}

/// F19: right after the edits were saved as a house rule, opening a scenario of another
/// ruleset still asked "Your edits … are not saved". Saved, they open it at once; edited
/// again after the save, they are asked about again.
#[test]
fn edits_saved_as_a_house_rule_count_as_saved() {
    use grognard_editor::app::FilePurpose;
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = common::scenario("examples/square-blocks.yaml", 1400.0, 900.0);
    let score = grognard_editor::house::field(&["charts", "scout_fate", "rows", "0", "score"]);
    let open = |h: &mut Harness<'_, EditorApp>, name: &str| {
        h.state_mut().command(Command::Chosen(
            FilePurpose::OpenScenario,
            common::root().join(format!("examples/{name}.yaml")),
        ));
        h.run();
    };
    h.state_mut()
        .command(Command::SetField(score.clone(), "9+".to_owned()));
    h.run();
    h.state_mut().command(Command::Chosen(
        FilePurpose::SaveHouseRule,
        dir.path().join("sb-house.yaml"),
    ));
    h.run();
    assert!(status(&h).starts_with("saved house rule"), "{}", status(&h));
    open(&mut h, "drill-square");
    assert!(h.query_by_label_contains("Your edits of").is_none());
    assert!(
        status(&h).contains("drill-square.yaml started under drill-square"),
        "{}",
        status(&h)
    );
    // Edited after a save: asked again.
    open(&mut h, "square-blocks");
    h.state_mut()
        .command(Command::SetField(score.clone(), "9+".to_owned()));
    h.run();
    h.state_mut().command(Command::Chosen(
        FilePurpose::SaveHouseRule,
        dir.path().join("sb-house2.yaml"),
    ));
    h.run();
    h.state_mut()
        .command(Command::SetField(score, "8+".to_owned()));
    h.run();
    open(&mut h, "drill-square");
    let _ = h.get_by_label_contains("Your edits of square-blocks are not saved");
}

/// F18: after another ruleset was opened, the Tune tab kept hex-command's number, its
/// stopped run and plot, and Run was refused on them. The list and the answer are
/// cleared; the games a candidate stay.
#[test]
fn tune_forgets_the_last_rulesets_numbers() {
    use grognard_editor::app::FilePurpose;
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    common::tune_find(&mut h, "fire small b modifier hits");
    h.get_by_label_contains("charts.fire_small_b.modifiers.0.per")
        .click();
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "games a candidate:")
        .set_value_accesskit(30.0);
    h.run();
    assert!(
        h.query_by_label_contains("charts.fire_small_b.modifiers.0.per")
            .is_some()
    );
    common::choose(
        &mut h,
        FilePurpose::OpenScenario,
        "examples/hex-leaders.yaml",
    );
    assert!(
        status(&h).contains("started under hex-leaders"),
        "{}",
        status(&h)
    );
    assert!(h.query_by_label_contains("fire_small_b").is_none());
    let games = h.get_by_role_and_label(Role::SpinButton, "games a candidate:");
    assert_eq!(games.value().as_deref(), Some("30"));
}

/// F4: pressing E at game over said "End phase is not offered now: blue does not act now",
/// as if another side did. It says the game is over.
#[test]
fn e_at_game_over_says_the_game_is_over() {
    let path = common::root().join("crates/grognard-editor/tests/fixtures/sure-shot.scenario.yaml");
    let mut h = common::scenario(path.to_str().expect("a UTF-8 path"), 1024.0, 700.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    for _ in 0..50 {
        if h.state().session().expect("a game").game.phase().is_none() {
            break;
        }
        h.state_mut().command(Command::EndPhase);
        h.run();
    }
    assert!(h.state().session().expect("a game").game.phase().is_none());
    // Seen as blue, as the player saw it.
    h.state_mut()
        .command(Command::ViewAs(grognard_editor::view::ViewAs::Side(
            grognard_kernel::ids::SideId(0),
        )));
    h.run();
    h.key_press(egui::Key::E);
    h.run();
    assert_eq!(status(&h), "End phase is not offered now: the game is over");
}

/// F7, F8: the Tune finder said "more… 14 numbers match" with 14 the whole count (it read
/// as 14 more), and "is added below" of a number added above it. It says how many match
/// and how many are in sight, and that the number is added above.
#[test]
fn the_tune_finder_counts_what_matches_and_says_where_it_adds() {
    let mut h = common::scenario("examples/hex-command.yaml", 1400.0, 900.0);
    common::tune_find(&mut h, "firer hits");
    let listed = h
        .query_all_by_role(Role::Button)
        .filter(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.contains(" = "))
        })
        .count();
    assert!(listed > 7, "{listed}");
    let _ = h.get_by_label_contains(&format!("{listed} numbers match, 7 in sight"));
    assert!(h.query_by_label_contains("more…").is_none());
    h.get_by_label("find a number:")
        .set_text_value_accesskit("fire small b modifier hits");
    h.run();
    h.get_by_label_contains("charts.fire_small_b.modifiers.0.per")
        .click();
    h.run();
    let _ = h.get_by_label_contains("is added above");
}

/// F12: a black-powder brigadier's caption named every flag ("br_bde2 M · objective 6,
/// disordered, command failed, order reserve, passed lines, assault new") and ran across
/// the board under other counters. It names two and counts the rest (the hover card lists
/// them all).
#[test]
fn a_caption_names_two_markers_and_counts_the_rest() {
    use grognard_editor::board::DrawPiece;
    let h = common::scenario("examples/black-powder.yaml", 1400.0, 900.0);
    let markers = [
        "objective 6",
        "disordered",
        "command failed",
        "order reserve",
        "passed lines",
        "assault new",
    ];
    let bde = DrawPiece {
        id: grognard_kernel::ids::PieceId(3),
        side: grognard_kernel::ids::SideId(1),
        name: "br_bde2".to_owned(),
        kind: "brigadier".to_owned(),
        place: grognard_kernel::piece::Place::Cell(grognard_kernel::geometry::Cell::new(1, 1)),
        facing: None,
        mode: "mounted".to_owned(),
        markers: markers.iter().map(|m| (*m).to_owned()).collect(),
        look: grognard_editor::board::Look::Open,
        footprint: None,
    };
    let under = egui::Rect::from_min_size(egui::pos2(200.0, 200.0), egui::vec2(20.0, 20.0));
    let texts = common::caption_texts(&h.ctx, &bde, under);
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(
        texts[0].ends_with(" · objective 6; disordered; +4 more"),
        "{texts:?}"
    );
}

/// The Charts tab on hex-command's *decision failure*, `w` × `h` points large: the texts
/// painted under the odds plot (lines joined) and the chart's outcomes.
fn decision_failure_axis(
    w: f32,
    hgt: f32,
) -> (Harness<'static, EditorApp>, Vec<String>, Vec<String>) {
    let mut h = common::scenario("examples/hex-command.yaml", w, hgt);
    common::show_chart(&mut h, "decision_failure");
    h.run();
    let outcomes: Vec<String> = {
        let g = &h.state().session().expect("a game").game;
        let rules = g.rules();
        let id = rules.chart_by_name("decision_failure").expect("the chart");
        rules.chart(id).expect("chart").outcomes.clone()
    };
    assert_eq!(outcomes.len(), 11);
    let plot = grognard_editor::app::odds_plot_rect(&h.ctx).expect("an odds plot");
    let under: Vec<String> = painted_texts(&h)
        .into_iter()
        .filter(|(_, r)| r.top() >= plot.top() && r.top() <= plot.bottom() + 40.0)
        .map(|(t, _)| t.replace('\n', " "))
        .collect();
    (h, under, outcomes)
}

/// F20: hex-command's *decision failure* chart has 11 outcomes; the odds plot labelled 6
/// of its bars, the others' labels dropped for want of room. Every bar is labelled: by
/// its words (long names broken over lines), or, where a word is wider than its bar (at
/// 800 points wide), by its number, the lines above numbered alike.
#[test]
fn a_crowded_odds_plot_labels_every_bar() {
    let (_h, under, outcomes) = decision_failure_axis(1400.0, 900.0);
    for o in &outcomes {
        let said = o.replace('_', " ");
        assert!(under.contains(&said), "{said:?} not in {under:?}");
    }
    let (h, under, outcomes) = decision_failure_axis(800.0, 900.0);
    for i in 1..=outcomes.len() {
        assert!(under.contains(&i.to_string()), "{i} not in {under:?}");
    }
    let first = outcomes[0].replace('_', " ");
    let _ = h.get_by_label_contains(&format!("1. {first}: "));
    let last = outcomes[10].replace('_', " ");
    let _ = h.get_by_label_contains(&format!("11. {last}: "));
}
