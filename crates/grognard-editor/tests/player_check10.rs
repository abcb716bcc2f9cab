//! What was left of the fifth outside new-player check of issue 37 (its report's numbers),
//! each checked as the editor shows it, the tabs driven with egui_kittest.

mod common;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::{Command, EditorApp};
use grognard_kernel::action::Action;
use grognard_kernel::hooks::NoHooks;

/// The editor on one of this crate's test fixtures, `w` × `h` points large.
fn fixture(name: &str, w: f32, h: f32) -> Harness<'static, EditorApp> {
    let path = common::root()
        .join("crates/grognard-editor/tests/fixtures")
        .join(name);
    common::scenario(path.to_str().expect("a UTF-8 path"), w, h)
}

/// Gives the acting side's first legal order that is not the end of the phase, if any.
fn give_first_order(h: &mut Harness<'static, EditorApp>) -> bool {
    let action = {
        let g = &h.state().session().expect("a game").game;
        let Some(side) = g.to_act().first().copied() else {
            return false;
        };
        g.legal_orders(side, &mut NoHooks)
            .into_iter()
            .find(|a| !matches!(a, Action::EndPhase))
    };
    let Some(action) = action else { return false };
    h.state_mut().command(Command::Give(action));
    h.run();
    true
}

/// Plays to the end: each side gives its first order, then ends its phase.
fn play_out(h: &mut Harness<'static, EditorApp>) {
    for _ in 0..50 {
        if h.state().session().expect("a game").game.phase().is_none() {
            return;
        }
        give_first_order(h);
        h.state_mut().command(Command::EndPhase);
        h.run();
    }
    panic!("the game did not end");
}

/// #11: the game-over line read "Game over: blue wins: blue wins on points (blue 5, red 3)
/// (points…" — the winner and the scores said twice, and cut by the phase bar's slot. It is
/// one sentence now, under the bar's row, whole.
#[test]
fn the_game_over_line_is_one_whole_sentence() {
    let mut h = fixture("sure-shot.scenario.yaml", 1024.0, 700.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    play_out(&mut h);
    let sentence = "blue wins on points (blue 1, red 0)";
    let node = h.get_by_label(sentence);
    let rect = node.rect();
    assert!(rect.right() <= 1024.0 && rect.left() >= 0.0, "{rect:?}");
    assert!(
        h.query_by_label_contains("blue wins: blue wins").is_none(),
        "the winner said twice"
    );
    assert!(
        h.query_by_label_contains("(points:").is_none(),
        "the scores said twice"
    );
    // A reason that does not name the winner keeps the winner before it, and scores the
    // reason lacks are added once.
    let scores = ["blue 2".to_owned(), "red 0".to_owned()];
    assert_eq!(
        grognard_editor::words::result_sentence(
            Some("blue"),
            "red loses: no guns left",
            Some(&scores)
        ),
        "blue wins — red loses: no guns left (points: blue 2, red 0)"
    );
}

/// Every label on screen holding an underscore (a ruleset name left unspaced).
fn underscored(h: &Harness<'static, EditorApp>) -> Vec<String> {
    h.query_all_by_label_contains("_")
        .filter_map(|n| n.accesskit_node().label())
        .collect()
}

/// #17: raw ids with underscores met a player in the chart menu ("fire_small_b"), the
/// secret-roll line ("cvs_grade"), the piece panel's buttons ("change_orders"), the legend
/// ("medium_woods"), the phase name ("musketry_artillery phase") and the pieces list's
/// types ("skirmish_company"). On a ruleset whose every name holds an underscore, each of
/// those places says it spaced, and no label anywhere keeps one.
#[test]
fn every_ruleset_name_a_player_reads_is_spaced() {
    use grognard_editor::view::ViewAs;
    use grognard_kernel::ids::SideId;
    let mut h = fixture("under-score.scenario.yaml", 1280.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.state_mut()
        .command(Command::ViewAs(ViewAs::Side(SideId(0))));
    h.run();
    // The phase bar and the pieces list.
    assert!(h.query_by_label_contains("· aimed fire phase ·").is_some());
    h.get_by_label("m (blue sharp shooter)").click();
    h.run();
    // The piece panel: its type and mode, and its action's button as the legal list says it.
    assert!(
        h.query_by_label("m — sharp shooter, at ease mode")
            .is_some()
    );
    // Both the legal list and the piece panel offer it, in the same words.
    assert_eq!(
        h.query_all_by_role_and_label(Role::Button, "take aim at t")
            .count(),
        2
    );
    // The referee's secret chart, in the dice log's note.
    assert!(
        h.query_by_label_contains("The referee rolls referee roll in secret")
            .is_some()
    );
    // The legend: terrain, features.
    h.get_by_label("Legend").click();
    h.run();
    assert!(h.query_by_label("open ground").is_some());
    assert!(h.query_by_label_contains("low wall — ").is_some());
    assert_eq!(underscored(&h), Vec::<String>::new(), "on the Play tab");
    // The Charts tab's chart menu, shut and open.
    common::show_chart(&mut h, "long_shot");
    assert_eq!(underscored(&h), Vec::<String>::new(), "on the Charts tab");
    let menu = h.get_by_role_and_label(Role::ComboBox, "Chart");
    assert_eq!(menu.accesskit_node().value().as_deref(), Some("long shot"));
    menu.click();
    h.run();
    assert!(h.query_by_label("referee roll").is_some());
    assert_eq!(underscored(&h), Vec::<String>::new(), "in the chart menu");
}

/// #20: "awaiting fate" read "aw…ate" on a square-blocks counter: a word cut inside reads
/// as no word. A line of words is cut between words, or, when not even its first word
/// fits, shows "…" (its hover card says it whole); a name keeps the piece's handle.
#[test]
fn counter_labels_are_cut_between_words_never_inside_one() {
    use grognard_editor::scene::fit_lines;
    let h = fixture("sure-shot.scenario.yaml", 400.0, 300.0);
    let ctx = h.ctx.clone();
    let font = egui::FontId::proportional(9.0);
    let width_of = |t: &str| {
        ctx.fonts_mut(|f| f.layout_no_wrap(t.to_owned(), font.clone(), egui::Color32::WHITE))
            .size()
            .x
    };
    let lines = vec!["#12".to_owned(), "awaiting fate".to_owned()];
    // Room for "aw…ate" but not for "awaiting…".
    let width = width_of("aw…ate").max(width_of("#12")) + 1.0;
    assert!(width < width_of("awaiting…"));
    let fitted = fit_lines(&ctx, &lines, &font, width, 100.0);
    assert_eq!(
        fitted.first().map(String::as_str),
        Some("#12"),
        "{fitted:?}"
    );
    for line in &fitted[1..] {
        let kept = line.trim_end_matches('…');
        // What is kept is whole words of the line.
        assert!(
            kept.split(' ')
                .filter(|k| !k.is_empty())
                .all(|k| ["awaiting", "fate"].contains(&k)),
            "{line:?} cuts a word: {fitted:?}"
        );
        assert!(!line.contains("…a"), "{fitted:?}");
    }
    // With room for the first word, it is cut after it.
    let roomy = fit_lines(&ctx, &lines, &font, width_of("awaiting…") + 1.0, 100.0);
    assert_eq!(roomy, vec!["#12".to_owned(), "awaiting…".to_owned()]);
}

/// A view piece may come with no mode (hex-command's hidden markers will not carry one):
/// its counter then shows no mode letter and its card no mode line.
#[test]
fn a_piece_with_no_mode_shows_no_mode_letter() {
    use grognard_editor::board::{DrawPiece, Look};
    use grognard_kernel::geometry::Cell;
    use grognard_kernel::ids::{PieceId, SideId};
    use grognard_kernel::piece::Place;
    let piece = DrawPiece {
        id: PieceId(0),
        side: SideId(1),
        name: "#7".to_owned(),
        kind: String::new(),
        place: Place::Cell(Cell::new(1, 1)),
        facing: None,
        mode: String::new(),
        markers: vec!["hidden".to_owned()],
        look: Look::Open,
        footprint: None,
    };
    let lines = grognard_editor::scene::label_lines(&piece);
    assert_eq!(lines, vec!["#7".to_owned(), "hidden".to_owned()]);
    let card = grognard_editor::words::piece_card(&piece, "red");
    assert!(!card.iter().any(|l| l.starts_with("mode")), "{card:?}");
    let with_mode = DrawPiece {
        mode: "skirmish_order".to_owned(),
        ..piece
    };
    assert_eq!(grognard_editor::scene::label_lines(&with_mode)[0], "#7 S");
    let card = grognard_editor::words::piece_card(&with_mode, "red");
    assert!(
        card.iter()
            .any(|l| l == "mode: skirmish order (the S on the counter)"),
        "{card:?}"
    );
}

/// #3: at 1024×700, opening the Legend pushed the Play tab's right panel off its left edge
/// ("…ers of french (31)", "…ium_woods"): a legend row laid out wider than the panel. With
/// the Legend open, on every bundled example, the panel keeps within its 40% of the window
/// and no line of it starts left of the panel.
#[test]
fn the_legend_keeps_the_right_panel_in_the_window_at_1024_by_700() {
    for example in [
        "square-blocks",
        "hex-command",
        "black-powder",
        "hex-leaders",
        "village-skirmish",
        "drill-square",
    ] {
        let mut h = common::scenario(&format!("examples/{example}.yaml"), 1024.0, 700.0);
        h.get_by_role_and_label(Role::Button, "Play").click();
        h.run();
        h.get_by_label("Legend").click();
        h.run();
        let panel_left = h.get_by_label("Legend").rect().left();
        assert!(
            panel_left >= 1024.0 * 0.6 - 20.0,
            "{example}: the panel starts at {panel_left}"
        );
        let legal = h.get_by_label_contains("Legal orders").rect();
        assert!(legal.left() >= panel_left - 1.0, "{example}: {legal:?}");
        for n in h.query_all_by_label_contains(" — ") {
            let r = n.rect();
            if r.left() >= 1024.0 * 0.5 {
                assert!(
                    r.right() <= 1024.5,
                    "{example}: {:?} at {r:?}",
                    n.accesskit_node().label()
                );
            }
        }
    }
}

/// #14: hex-command's odds read "band 1 (Color)" beside the band input while +3 hits on the
/// firer sent the roll "out of reach" (0% hit), and the modifiers listed only "per" with no
/// direction. The band used after the modifiers is said, with how it got there, and each
/// modifier's row says its sign and what it counts.
#[test]
fn the_odds_say_the_band_used_and_each_modifiers_sign() {
    let mut h = common::scenario("examples/hex-command.yaml", 1280.0, 900.0);
    common::show_chart(&mut h, "fire_small_b");
    for (input, v) in [("band", 1), ("firer_hits", 3)] {
        h.state_mut()
            .command(Command::ChartInput(input.to_owned(), v));
        h.run();
    }
    assert!(
        h.query_by_label("band used: 4 (out of reach) — band 1 +3 from modifiers")
            .is_some(),
        "the band used"
    );
    assert!(h.query_by_label("+1 for each firer hits").is_some());
    assert!(h.query_by_label("−1 for each command").is_some());
}

/// #18: Simulate said "simulation done: 1 games", turned a typed 0 into 1 without a word,
/// showed "`sim``s" with its backticks, and "ended on turn 5.27 ± 0.59" did not say what
/// the ± is. The game-length plot's count axis had no ticks and its top mark was cut.
#[test]
fn the_simulate_tab_says_its_numbers_plainly() {
    let mut h = fixture("sure-shot.scenario.yaml", 1280.0, 1000.0);
    h.get_by_role_and_label(Role::Button, "Simulate").click();
    h.run();
    let games = h.get_by_role_and_label(Role::SpinButton, "games:");
    games.set_value_accesskit(0.0);
    h.run();
    assert!(
        h.query_by_label("at least 1 game (at most 10000)")
            .is_some()
    );
    assert!(
        h.get_by_role_and_label(Role::Button, "Run")
            .accesskit_node()
            .is_disabled(),
        "Run waits for a number of games"
    );
    h.get_by_role_and_label(Role::SpinButton, "games:")
        .set_value_accesskit(1.0);
    h.run();
    h.get_by_role_and_label(Role::Button, "Run").click();
    let started = std::time::Instant::now();
    h.step();
    while h.state().simulation_results().is_none() {
        assert!(started.elapsed() < std::time::Duration::from_secs(120));
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    h.run();
    assert!(
        h.query_by_label_contains("simulation done: 1 game")
            .is_some()
    );
    assert!(h.query_by_label_contains("1 games").is_none());
    assert!(h.query_by_label_contains("`").is_none(), "backticks shown");
    assert!(
        h.query_by_label(grognard_editor::app::ENDED_ON_TURN)
            .is_some(),
        "the ± explained"
    );
    // Count marks: whole steps, three to ten of them, the top one above the tallest bar.
    use grognard_editor::app::{count_step, count_top};
    for most in [1, 3, 7, 20, 37, 100, 999] {
        let step = count_step(most);
        assert_eq!(step.fract(), 0.0, "{most}");
        let top = count_top(most);
        assert!(top > most as f64, "{most}: top {top}");
        let marks = top / step;
        assert!((2.0..=10.0).contains(&marks), "{most}: {marks} marks");
    }
}

/// #10: choosing search in Simulate gave no warning before Run (hex-command at 200
/// iterations would have taken hours). Once search is chosen, the tab says it is slow and,
/// from a short sample measured in the background, about how long a game and the run take.
#[test]
fn choosing_search_in_simulate_says_how_slow_before_running() {
    let mut h = fixture("sure-shot.scenario.yaml", 1280.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Simulate").click();
    h.run();
    assert!(h.query_by_label_contains("search is slow").is_none());
    h.get_by_label("search").click();
    h.run();
    let started = std::time::Instant::now();
    while h.query_by_label_contains("search is slow: about").is_none() {
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.step();
    }
    let said = h
        .get_by_label_contains("search is slow: about")
        .accesskit_node()
        .value()
        .or_else(|| {
            h.get_by_label_contains("search is slow: about")
                .accesskit_node()
                .label()
        })
        .unwrap_or_default();
    assert!(
        said.contains("a game here at 200 iterations an order"),
        "{said}"
    );
    assert!(said.contains("for 100 games"), "{said}");
    // Nothing was run: no results, no job.
    assert!(h.state().simulation_results().is_none());
}

/// #19: the browser page lists hex-command's b4 "(not yet arrived)"; the editor's pieces
/// list left it out. A side's pieces off the board are listed under "Off the board", a
/// reinforcement still to come as not yet arrived; an enemy's are not listed for a side.
#[test]
fn pieces_not_yet_arrived_are_listed_as_the_browser_lists_them() {
    use grognard_editor::view::ViewAs;
    let mut h = common::scenario("examples/hex-command.yaml", 1280.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    let blue = {
        let g = &h.state().session().expect("a game").game;
        g.side_by_name("blue").expect("blue")
    };
    h.state_mut().command(Command::ViewAs(ViewAs::Side(blue)));
    h.run();
    assert!(h.query_by_label("Off the board").is_some());
    assert!(
        h.query_by_label("b4 (blue infantry) — not yet arrived")
            .is_some()
    );
    let g = &h.state().session().expect("a game").game;
    let off = grognard_editor::app::off_board(g, ViewAs::Side(blue));
    assert!(off.iter().all(|(side, _)| *side == blue), "{off:?}");
}
