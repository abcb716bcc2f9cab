//! The sixth outside new-player check of issue 37 (its report's numbers), each checked as
//! the editor shows it, the tabs driven with egui_kittest.

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::app::phase_line;
use grognard_editor::scene::{DrawPiece, FacingMark, Look, fit_lines, label_lines};
use grognard_editor::{Command, EditorApp};
use grognard_kernel::geometry::Cell;
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::piece::Place;
use grognard_server::bundle;
use grognard_server::client::Client;
use grognard_server::protocol::Created;

/// Selects everything in the text field `field` and types `text` over it.
fn retype(h: &mut Harness<'_, EditorApp>, field: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, field).focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.get_by_role_and_label(Role::TextInput, field)
        .type_text(text);
    h.run_steps(2);
}

/// Runs frames until `done` holds, or fails after a minute.
fn wait(h: &mut Harness<'_, EditorApp>, what: &str, done: impl Fn(&EditorApp) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{what}: {:?}",
            h.state().status().map(|s| &s.text)
        );
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(2);
    }
    h.run_steps(2);
}

/// #1: after a first game hosted on this editor's own server, a second Host there failed
/// with the server's "creating a game needs the host token … printed by `grognard serve`":
/// the editor sent no token, though the server is its own. The second game is created.
#[test]
fn a_second_game_hosted_on_the_editors_own_server_is_created() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut h = common::scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    h.get_by_role_and_label(Role::Button, "Host game…").click();
    h.run_steps(2);
    retype(&mut h, "Server", "http://127.0.0.1:0");
    let db = dir.path().join("hosted.sqlite");
    retype(&mut h, "Database", &db.display().to_string());
    h.get_by_role_and_label(Role::Button, "Host").click();
    wait(&mut h, "no first game hosted", |a| a.hosted().is_some());
    let first = h.state().hosted().expect("a game").1.game.clone();
    wait(&mut h, "the first game not joined", |a| {
        a.remote().is_some()
    });
    h.get_by_role_and_label(Role::Button, "Leave").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Host game…").click();
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("this editor's server, at")
            .is_some(),
        "the form names the editor's own server"
    );
    h.get_by_role_and_label(Role::Button, "Host").click();
    let refused = |a: &EditorApp| {
        a.status()
            .is_some_and(|s| s.error && s.text.starts_with("cannot host"))
    };
    wait(&mut h, "no second game hosted", |a| {
        a.hosted().is_some_and(|(_, c)| c.game != first) || refused(a)
    });
    let status = h.state().status().expect("a status line");
    assert!(!refused(h.state()), "second Host refused: {}", status.text);
    assert!(!status.text.contains("grognard serve"), "{}", status.text);
}

/// Ends every phase of the game on the server, each side ending its share in turn, until
/// the game is over.
fn play_out(client: &Client, created: &Created) {
    for _ in 0..400 {
        let status = client
            .view(&created.game, &created.tokens["referee"])
            .expect("the referee's view")
            .status;
        if status.over {
            return;
        }
        for side in &status.to_act {
            let orders = format!("orders:\n  - {{ side: {side}, end_phase: true }}\n");
            client
                .orders(&created.game, &created.tokens[side], "orders.yaml", &orders)
                .expect("the phase ends");
        }
    }
    panic!("the game did not end");
}

/// #3: the Remote tab's phase bar said "Game over after turn 8" in a 7-turn scenario
/// while its log said "game over after 7 turns": it showed the status's turn, which has
/// moved past the last one. It says the turns the game lasted, as the log does.
#[test]
fn the_remote_phase_bar_counts_the_turns_the_game_lasted() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let running =
        grognard_server::spawn("127.0.0.1:0", &dir.path().join("g.sqlite")).expect("a server");
    let client = Client::new(&running.url()).expect("a client");
    let scenario = common::root().join("examples/square-blocks.yaml");
    let request = bundle::gather(&scenario, BTreeMap::new(), Some(7), BTreeMap::new())
        .expect("the scenario gathers");
    let created = client
        .create(&request, Some(&running.host_token))
        .expect("the game is created");
    play_out(&client, &created);
    let turns = grognard_rules::load::load_scenario(&scenario, None)
        .expect("the scenario loads")
        .compiled
        .setup
        .turns
        .expect("the scenario says its turns");
    let mut h = common::scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    h.state_mut().apply(Command::Join {
        url: running.url(),
        game: created.game.clone(),
        token: created.tokens["french"].clone(),
    });
    wait(&mut h, "the seat's state", |a| {
        a.remote().is_some_and(|s| s.state().is_some())
    });
    let line = phase_line(h.state().remote().and_then(|s| s.state()).expect("a state"));
    assert!(
        line.starts_with(&format!("Game over after turn {turns}")),
        "{line} in a {turns}-turn game"
    );
    assert!(
        h.query_by_label(&line).is_some(),
        "the phase bar shows {line}"
    );
}

/// A face-up piece named `name` in mode `mode` with `markers`, at cell (1, 1).
fn marked_piece(name: &str, mode: &str, markers: &[&str]) -> DrawPiece {
    DrawPiece {
        id: PieceId(3),
        side: SideId(0),
        name: name.to_owned(),
        kind: "infantry".to_owned(),
        place: Place::Cell(Cell::new(1, 1)),
        facing: None,
        mode: mode.to_owned(),
        markers: markers.iter().map(|m| (*m).to_owned()).collect(),
        look: Look::Open,
        footprint: None,
    }
}

/// #2: hex-command's b3, one row high in a stack, read "b3 U" with its hit left out and
/// nothing to say so; a base too thin for its label, 6 hits and shaken, read "b_line3 F".
/// A one-row counter carries "…" after its name when markers are left out, and a caption
/// carries the markers after the name.
#[test]
fn damage_left_out_of_a_small_counter_is_marked_and_a_caption_carries_it() {
    let h = common::scenario("examples/hex-command.yaml", 800.0, 600.0);
    let font = egui::FontId::proportional(9.0);
    let width_of = |t: &str| {
        h.ctx
            .fonts_mut(|f| f.layout_no_wrap(t.to_owned(), font.clone(), egui::Color32::WHITE))
            .size()
            .x
    };
    let b3 = marked_piece("b3", "unformed", &["hits 1"]);
    let lines = label_lines(&b3);
    let one_row = fit_lines(&h.ctx, &lines, &font, width_of("b3 U …") + 1.0, 12.0);
    assert_eq!(one_row, ["b3 U …"]);
    // Without room for the mode letter too, the letter gives way, never the name.
    let narrow = fit_lines(&h.ctx, &lines, &font, width_of("b3 …") + 1.0, 12.0);
    assert_eq!(narrow, ["b3 …"]);
    // Nothing left out: no mark.
    let unhurt = marked_piece("b3", "unformed", &[]);
    let alone = fit_lines(&h.ctx, &label_lines(&unhurt), &font, 60.0, 12.0);
    assert_eq!(alone, ["b3 U"]);
    let line3 = marked_piece("b_line3", "formed", &["hits 6", "shaken"]);
    let under = egui::Rect::from_min_size(egui::pos2(100.0, 100.0), egui::vec2(40.0, 4.0));
    let texts = common::caption_texts(&h.ctx, &line3, under);
    assert_eq!(texts, ["b_line3 F · hits 6; shaken"]);
}

/// #4, #5: seen as the French, square-blocks' scout #8, sighted at level D, is drawn face
/// up with its type (its marker is face up: the ruleset's `face_up` shows every side its
/// type and that it is real, whatever the level — the view gives exactly that), and #9,
/// once out of sight, stays a dim block where it stands (positions are public there), as
/// #7 is. Neither said why: #8 reads "face up" and its card explains it; a face-down block
/// no French piece sees reads "out of sight", and the legend says both.
#[test]
fn a_face_up_enemy_and_an_unseen_block_say_why_they_are_drawn_so() {
    let mut h = common::scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.get_by_label("View as").click();
    h.run();
    h.get_by_label("Side french").click();
    h.run();
    let pieces = h.state().drawn_pieces().to_vec();
    let named = |n: &str| {
        pieces
            .iter()
            .find(|p| p.name == n)
            .unwrap_or_else(|| panic!("{n} drawn: {pieces:?}"))
            .clone()
    };
    let scout = named("#8");
    assert_eq!((scout.look, scout.kind.as_str()), (Look::Open, "scout"));
    assert!(scout.markers.iter().any(|m| m == "face up"), "{scout:?}");
    let card = grognard_editor::words::piece_card(&scout, "austrians");
    assert!(
        card.iter()
            .any(|l| l.starts_with("face up: its marker is turned up")),
        "{card:?}"
    );
    let unseen = named("#7");
    assert_eq!(unseen.look, Look::FaceDown);
    assert_eq!(unseen.markers, ["out of sight"]);
    let card = grognard_editor::words::piece_card(&unseen, "austrians");
    assert!(
        card.iter()
            .any(|l| l.starts_with("out of sight: no piece of yours sees it now")),
        "{card:?}"
    );
    // A block in sight says its level, not "out of sight".
    let seen = named("#9");
    assert_eq!(seen.markers, ["seen D"]);
    h.get_by_label("Legend").click();
    h.run();
    assert!(
        h.query_by_label_contains("\"out of sight\" when no piece")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("an enemy marked \"face up\"")
            .is_some()
    );
}

/// #7: the Remote tab's text view listed "#9 at (2,8), facing N, strategic mode" while
/// the board drew the block with no facing arrow and no mode letter. The board draws what
/// the view gives: a face-down block's facing and mode letter (the Remote tab and the Play
/// tab draw a side's view with the same code).
#[test]
fn a_face_down_block_is_drawn_with_the_facing_and_mode_the_view_gives() {
    let h = common::scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    let game = &h.state().session().expect("a game").game;
    let view = game.view(SideId(0));
    let block = view
        .enemy
        .iter()
        .find(|e| e.handle == PieceId(9))
        .expect("#9 in the French view");
    assert_eq!(block.mode.as_deref(), Some("strategic"));
    let facing = block.facing.expect("the view gives #9's facing");
    let drawn = grognard_editor::view::pieces_from_view(game.rules(), game.board(), &view);
    let nine = drawn.iter().find(|p| p.name == "#9").expect("#9 drawn");
    assert_eq!(nine.look, Look::FaceDown);
    assert_eq!(nine.facing, Some(FacingMark::Grid(facing)));
    assert_eq!(label_lines(nine).first().map(String::as_str), Some("#9 S"));
}

/// #8: a typo `mss` in hex-command's fire small b, field "band 2 · fail", was reported at
/// "charts › fire_small_b › bands › row 3 › fail (over rulesets/hex-command.yaml:571)":
/// row 3 is "Code'n Color" on the tab, the name was raw, and line 571 is the next chart's
/// (the chart's bands are an alias). The message names the band as the tab does, the chart
/// spaced, and the line of the anchor's band 2.
#[test]
fn a_typo_in_a_band_is_placed_as_the_charts_tab_shows_it() {
    let mut h = common::scenario("examples/hex-command.yaml", 1280.0, 800.0);
    h.get_by_role_and_label(Role::Button, "Charts").click();
    h.run();
    h.state_mut()
        .apply(Command::ShowChart("fire_small_b".to_owned()));
    h.run();
    h.get_by_label("fire_small_b band 2 fail").focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.event(egui::Event::Text("mss".to_owned()));
    h.run();
    let node = h
        .query_by_label_contains("⚠ your edit of")
        .expect("the message above the fields");
    let text = {
        let n = node.accesskit_node();
        n.label().or_else(|| n.value()).unwrap_or_default()
    };
    let yaml = std::fs::read_to_string(common::root().join("rulesets/hex-command.yaml"))
        .expect("the ruleset");
    let anchor = yaml
        .lines()
        .position(|l| l.contains("&bands_auto"))
        .expect("the bands' anchor");
    let line = yaml
        .lines()
        .enumerate()
        .skip(anchor)
        .filter(|(_, l)| l.trim_start().starts_with("- "))
        .nth(2)
        .map(|(i, _)| i + 1)
        .expect("band 2's line");
    assert!(
        yaml.lines()
            .nth(line - 1)
            .is_some_and(|l| l.contains("band: Code,")),
        "line {line} is band 2"
    );
    assert!(
        text.contains("your edit of charts › fire small b › band 2 › fail (over ")
            && text.contains(&format!("rulesets/hex-command.yaml:{line})"))
            && text.contains("is not an outcome of chart fire small b — did you mean `miss`?"),
        "{text}"
    );
}

/// #9: the Simulate tab's search warning said "about 78 min 55 s a game … so about 236 min
/// 44 s for 6 games": no hours, and 6 × 79 min is not 237 min unless the games run two at
/// a time, which it did not say. Times from an hour on read in hours and minutes, and the
/// warning says how many games run at once.
#[test]
fn the_search_warning_reads_hours_and_says_how_many_games_run_at_once() {
    use grognard_editor::words::seconds_text;
    assert_eq!(seconds_text(4734.2), "1 h 19 min");
    assert_eq!(seconds_text(14_204.0), "3 h 57 min");
    assert_eq!(seconds_text(3599.0), "59 min 59 s");
    assert_eq!(seconds_text(7199.0), "2 h 0 min");
    let path = common::root().join("crates/grognard-editor/tests/fixtures/sure-shot.scenario.yaml");
    let mut h = common::scenario(path.to_str().expect("a UTF-8 path"), 1280.0, 900.0);
    h.get_by_role_and_label(Role::Button, "Simulate").click();
    h.run();
    h.get_by_label("search").click();
    h.run();
    let started = Instant::now();
    while h.query_by_label_contains("search is slow: about").is_none() {
        assert!(started.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
    let node = h.get_by_label_contains("search is slow: about");
    let said = {
        let n = node.accesskit_node();
        n.value().or_else(|| n.label()).unwrap_or_default()
    };
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let at_once = cores.min(100);
    let expected = if at_once > 1 {
        format!("for 100 games, {at_once} at a time on {at_once} threads")
    } else {
        "for 100 games, one at a time on 1 thread".to_owned()
    };
    assert!(said.contains(&expected), "{said}");
}

/// The relative luminance of `c` (WCAG), for a contrast ratio.
fn luminance(c: egui::Color32) -> f32 {
    let lin = |v: u8| {
        let v = f32::from(v) / 255.0;
        if v <= 0.039_28 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c.r()) + 0.7152 * lin(c.g()) + 0.0722 * lin(c.b())
}

/// Every text the editor drew in its last frame, with its first section's colour and its
/// number of rows.
fn drawn_texts(h: &Harness<'_, EditorApp>) -> Vec<(String, egui::Color32, usize)> {
    h.output()
        .shapes
        .iter()
        .filter_map(|s| match &s.shape {
            egui::Shape::Text(t) => Some((
                t.galley.text().to_owned(),
                t.galley
                    .job
                    .sections
                    .first()
                    .map_or(t.fallback_color, |s| s.format.color),
                t.galley.rows.len(),
            )),
            _ => None,
        })
        .collect()
}

/// #10: the pieces list's selected entry was the side's blue on the selection's teal,
/// unreadable; a narrow list wrapped "hale (blue commander)" with a lone ")" on a line and
/// split "fr_voltigeurs" mid-name. The selected entry takes the selection's text colour,
/// and each entry keeps to one line (cut with "…", whole on hover).
#[test]
fn the_pieces_list_reads_its_selected_entry_and_keeps_each_to_one_line() {
    for example in ["examples/hex-command.yaml", "examples/black-powder.yaml"] {
        let mut h = common::scenario(example, 1024.0, 700.0);
        h.get_by_role_and_label(Role::Button, "Play").click();
        h.run();
        let first = h
            .state()
            .drawn_pieces()
            .iter()
            .find(|p| p.look == Look::Open)
            .expect("a piece listed")
            .clone();
        h.state_mut().apply(Command::Select(Some(first.id)));
        h.run();
        let names: Vec<String> = h
            .state()
            .drawn_pieces()
            .iter()
            .filter(|p| p.look == Look::Open)
            .map(|p| format!("{} (", p.name))
            .collect();
        let texts = drawn_texts(&h);
        let entries: Vec<_> = texts
            .iter()
            .filter(|(t, _, _)| names.iter().any(|n| t.starts_with(n.as_str())))
            .collect();
        assert!(!entries.is_empty(), "{example}: no entries among {texts:?}");
        for (text, _, rows) in &entries {
            assert_eq!(*rows, 1, "{example}: {text:?} wraps");
        }
        let selected = format!("{} (", first.name);
        let (_, color, _) = entries
            .iter()
            .find(|(t, _, _)| t.starts_with(&selected))
            .expect("the selected entry");
        let fill = h.ctx.global_style().visuals.selection.bg_fill;
        let (a, b) = (luminance(*color), luminance(fill));
        let ratio = (a.max(b) + 0.05) / (a.min(b) + 0.05);
        assert!(
            ratio >= 4.5,
            "{example}: selected entry {color:?} on {fill:?}: contrast {ratio:.2}"
        );
    }
}

/// #12: black-powder's top bar said "musketry artillery phase" while its log and the status
/// line after End phase said "musketry_artillery phase". Both say phase names spaced.
#[test]
fn phase_names_read_spaced_in_the_log_and_the_status_line() {
    let mut h = common::scenario("examples/black-powder.yaml", 1280.0, 800.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    let mut statuses = Vec::new();
    for _ in 0..12 {
        if h.state().event_log().iter().any(|l| l.contains("musketry")) {
            break;
        }
        h.get_by_role_and_label(Role::Button, "End phase").click();
        h.run();
        statuses.extend(h.state().status().map(|s| s.text.clone()));
    }
    let log = h.state().event_log().join("\n");
    assert!(log.contains("musketry artillery phase"), "{log}");
    assert!(
        statuses
            .iter()
            .any(|s| s.contains("musketry artillery phase")),
        "{statuses:?}"
    );
    assert!(!log.contains("musketry_artillery"), "{log}");
    assert!(statuses.iter().all(|s| !s.contains('_')), "{statuses:?}");
}

/// #11: after a view picked in one game (hex-command), seating the computer on red in
/// drill-square-mud left the view on the referee's, where hex-command had turned it to the
/// player's side: the pick was carried into the next scenario. In every example, seating
/// the computer on the second side turns the view to the first, the person's.
#[test]
fn seating_the_computer_turns_a_new_games_view_to_the_persons_side() {
    use grognard_editor::app::FilePurpose;
    use grognard_editor::view::ViewAs;
    let mut h = common::scenario("examples/hex-command.yaml", 1280.0, 800.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.get_by_label("View as").click();
    h.run();
    h.get_by_label("Referee").click();
    h.run();
    for example in [
        "examples/drill-square-mud.yaml",
        "examples/drill-square.yaml",
        "examples/drill-hex.yaml",
        "examples/drill-open.yaml",
        "examples/black-powder.yaml",
        "examples/hex-leaders.yaml",
        "examples/village-skirmish.yaml",
        "examples/square-blocks.yaml",
        "examples/hex-command.yaml",
    ] {
        h.state_mut().command(Command::Chosen(
            FilePurpose::OpenScenario,
            std::path::PathBuf::from(example),
        ));
        h.run();
        h.state_mut().command(Command::Seat(
            SideId(1),
            Some(grognard_play::PolicyKind::Random),
        ));
        h.run_steps(2);
        assert_eq!(
            h.state().view_as(),
            ViewAs::Side(SideId(0)),
            "{example}: {:?}",
            h.state().status().map(|s| &s.text)
        );
    }
}

/// Hosts the open scenario on a server started here, the server playing `policies`, and
/// joins `play_as`; returns the folder holding the server's games.
fn host_here(
    h: &mut Harness<'_, EditorApp>,
    scenario: &str,
    policies: &[(&str, &str)],
    play_as: &str,
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    h.state_mut()
        .command(Command::Host(grognard_editor::remote::HostRequest {
            url: "http://127.0.0.1:0".to_owned(),
            start_server: true,
            host_token: None,
            db: dir.path().join("hosted.sqlite"),
            scenario: common::root().join(scenario),
            policies: policies
                .iter()
                .map(|(s, p)| ((*s).to_owned(), (*p).to_owned()))
                .collect(),
            play_as: play_as.to_owned(),
        }));
    wait(h, "no game hosted", |a| a.hosted().is_some());
    wait(h, "the game not joined", |a| {
        a.remote().is_some_and(|s| s.state().is_some())
    });
    dir
}

/// #14, #15: "Host game…" while a game was joined did nothing visible; after Leave the old
/// game's seats and links stayed listed under the form of another scenario; "Join as
/// austrians" was offered for the seat the server plays; and "copied …'s link", said
/// beside its button, moved the link column sideways.
#[test]
fn hosting_while_joined_says_leave_and_the_seats_list_keeps_to_its_game() {
    let mut h = common::scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    let _dir = host_here(
        &mut h,
        "examples/square-blocks.yaml",
        &[("austrians", "random")],
        "french",
    );
    h.run_steps(2);
    assert!(
        h.query_by_label("Join as austrians").is_none(),
        "the server plays the austrians"
    );
    assert!(h.query_by_label("Join as referee").is_some());
    let before = h.get_by_label("Join as referee").rect();
    h.get_by_label("Copy french's link").click();
    h.run_steps(2);
    assert!(h.query_by_label("copied french's link").is_some());
    assert_eq!(
        h.get_by_label("Join as referee").rect(),
        before,
        "a copy moves nothing"
    );
    h.get_by_role_and_label(Role::Button, "Host game…").click();
    h.run_steps(2);
    let status = h.state().status().expect("a status line");
    assert!(
        status.error && status.text.contains("press Leave"),
        "{}",
        status.text
    );
    h.get_by_role_and_label(Role::Button, "Leave").click();
    h.run_steps(2);
    assert!(
        h.state().hosted().is_some(),
        "the game just left keeps its links"
    );
    h.state_mut().command(Command::Chosen(
        grognard_editor::app::FilePurpose::OpenScenario,
        std::path::PathBuf::from("examples/drill-square.yaml"),
    ));
    h.run_steps(2);
    assert!(
        h.state().hosted().is_none(),
        "another scenario's form lists no old seats"
    );
    assert!(h.query_by_label_contains("Join as").is_none());
}

/// #13: the Ruleset menu's Recent list held scenario files among the rulesets (a click
/// opened a scenario from the Ruleset menu). Rulesets are listed there, scenarios in the
/// Scenario menu's own Recent list; an older editor's mixed list is sorted on start.
#[test]
fn recent_rulesets_and_scenarios_are_listed_in_their_own_menus() {
    let root = std::fs::canonicalize(common::root()).expect("the repository");
    let saved = grognard_editor::Saved {
        recent: vec![
            root.join("examples/hex-command.yaml"),
            root.join("rulesets/black-powder.yaml"),
        ],
        ..grognard_editor::Saved::default()
    };
    let app = EditorApp::new(
        saved,
        grognard_editor::Options {
            root: Some(root.clone()),
            scenario: Some(std::path::PathBuf::from("examples/square-blocks.yaml")),
            ..grognard_editor::Options::default()
        },
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run();
    h.get_by_label("Ruleset").click();
    h.run();
    assert!(
        h.query_by_label("recent: rulesets/black-powder.yaml")
            .is_some()
    );
    assert!(h.query_by_label_contains("recent: examples/").is_none());
    h.key_press(egui::Key::Escape);
    h.run();
    h.get_by_label("Scenario").click();
    h.run();
    for shown in [
        "recent: examples/square-blocks.yaml",
        "recent: examples/hex-command.yaml",
    ] {
        assert!(
            h.query_by_label(shown).is_some(),
            "{shown} in the Scenario menu"
        );
    }
    assert!(h.query_by_label_contains("recent: rulesets/").is_none());
}

/// #20: one simulated game read "ended on turn 6.00 ± 0.00", an interval of no width from
/// one game. One game's turn is given alone, saying one game gives no interval.
#[test]
fn one_simulated_game_gives_its_turn_without_an_interval() {
    use grognard_play::tally::{Moments, Tally};
    let mut length = Moments::default();
    length.add(6);
    assert_eq!(
        grognard_editor::app::ended_on_turn(&length),
        "6 (one game: no interval)"
    );
    let mut h = common::scenario("examples/drill-square.yaml", 1280.0, 800.0);
    h.get_by_role_and_label(Role::Button, "Simulate").click();
    h.run();
    let mut win = Moments::default();
    win.add(1);
    let mut none = Moments::default();
    none.add(0);
    h.state_mut()
        .set_simulation_results(vec![grognard_editor::simulate::SimResult {
            label: "drill-square".to_owned(),
            sides: vec!["blue".to_owned(), "red".to_owned()],
            tally: Tally {
                games: 1,
                wins: vec![win, none],
                draws: none,
                length,
                ..Tally::default()
            },
        }]);
    h.run();
    assert!(h.query_by_label("6 (one game: no interval)").is_some());
    assert!(h.query_by_label_contains("± 0.00").is_none());
}

/// #16: the Tune tab's number finder found nothing for "firer hits" and said nothing; its
/// results named the chart `fire_small_b`. Words are found in any order, underscores read
/// as spaces, the Charts-tab words are spaced, and a search that finds nothing says so.
#[test]
fn the_tune_finder_finds_words_and_says_when_nothing_matches() {
    use grognard_editor::app::number_matches;
    assert!(number_matches(
        "firer hits",
        "charts.fire.inputs.firer_hits.max",
        None
    ));
    assert!(number_matches(
        "hits firer",
        "charts.fire_small_b.modifiers.0.per",
        Some("fire small b modifier hits on the firer per")
    ));
    assert!(!number_matches(
        "charts.shot.rows.0",
        "charts.shot.rows.10.score",
        None
    ));
    let mut h = common::scenario("examples/hex-command.yaml", 1500.0, 1000.0);
    let found = common::tune_find(&mut h, "firer hits");
    assert!(
        found
            .iter()
            .any(|l| l.contains("(fire small b modifier hits on the firer per)")),
        "{found:?}"
    );
    assert!(
        found.iter().all(|l| !l.contains("(fire_small_b")),
        "{found:?}"
    );
    assert!(h.query_by_label_contains("nothing matches").is_none());
    h.get_by_label("find a number:")
        .set_text_value_accesskit("zzzz");
    h.run();
    assert!(
        h.query_by_label_contains("nothing matches \"zzzz\"")
            .is_some()
    );
}

/// #17 (in part): the odds summary read "modifiers: +2 hits on the firer, -1 commander"
/// with a hyphen under a table that writes "−1". Both write a minus sign.
#[test]
fn the_odds_summary_writes_minus_signs_as_the_table_does() {
    use grognard_editor::app::signed;
    assert_eq!(
        (signed(-1), signed(2), signed(0)),
        ("−1".into(), "+2".into(), "+0".into())
    );
    let mut h = common::scenario("examples/hex-command.yaml", 1280.0, 800.0);
    common::show_chart(&mut h, "fire_small_a");
    for (input, v) in [("band", 2), ("command", 1)] {
        h.state_mut()
            .command(Command::ChartInput(input.to_owned(), v));
        h.run();
    }
    let line = h
        .query_by_label_contains("modifiers: ")
        .map(|n| {
            let n = n.accesskit_node();
            n.label().or_else(|| n.value()).unwrap_or_default()
        })
        .expect("the modifiers' summary");
    assert!(line.contains("−1 commander"), "{line}");
    assert!(!line.contains('-'), "{line}");
}
