//! What was left of the sixth outside new-player check of issue 37 (its report's numbers),
//! each checked as the editor shows it, the tabs driven with egui_kittest.

mod common;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use grognard_editor::view::ViewAs;
use grognard_editor::{Command, EditorApp};

/// Square blocks: the Austrian dummy adum2 walks toward the French dummy at (2,8) while
/// everyone else stands; the French see it at level D from turn 2 and at A on turn 3.
const DUMMY_WALKS: &str = "orders:
  - { side: french, end_phase: true }
  - { side: austrians, end_phase: true }
  - { side: french, end_phase: true }
  - { side: french, end_phase: true }
  - { side: austrians, end_phase: true }
  - { side: austrians, move: { piece: adum2, path: [[2, 4]] } }
  - { side: austrians, end_phase: true }
  - { side: french, end_phase: true }
  - { side: austrians, end_phase: true }
  - { side: french, end_phase: true }
  - { side: french, end_phase: true }
  - { side: austrians, end_phase: true }
  - { side: austrians, move: { piece: adum2, path: [[2, 5]] } }
  - { side: austrians, end_phase: true }
  - { side: french, end_phase: true }
  - { side: austrians, end_phase: true }
  - { side: french, end_phase: true }
  - { side: french, end_phase: true }
  - { side: austrians, end_phase: true }
";

/// #6: the French watched marker #9 on their board; when a sighting at level A identified
/// it, #9 left the board and the log named adum2 in every line (those written while it was
/// #9 too), with no line saying #9 was adum2. The identifying sighting says so now, in the
/// French log only.
#[test]
fn the_sighting_that_identifies_a_marker_says_which_marker_it_was() {
    let mut h = common::scenario("examples/square-blocks.yaml", 1280.0, 800.0);
    h.state_mut()
        .command(Command::Tab(grognard_editor::app::Tab::Play));
    h.run();
    common::give_orders(&mut h, DUMMY_WALKS);
    let french = ViewAs::Side(grognard_kernel::ids::SideId(0));
    h.state_mut().command(Command::ViewAs(french));
    h.run();
    assert!(
        !h.state().event_log().iter().any(|l| l.contains("marker #")),
        "{:?}",
        h.state().event_log()
    );
    common::give_orders(
        &mut h,
        "orders:\n  - { side: austrians, move: { piece: adum2, path: [[3, 6]] } }\n",
    );
    h.state_mut().command(Command::ViewAs(french));
    h.run();
    let log = h.state().event_log();
    let line = log
        .iter()
        .find(|l| l.contains("french sights adum2 at level A"))
        .unwrap_or_else(|| panic!("no identifying sighting: {log:?}"));
    assert_eq!(
        line.trim(),
        "french sights adum2 at level A: marker #9 is adum2, a dummy"
    );
    // Said once: the earlier sightings at D identified nothing.
    assert_eq!(log.iter().filter(|l| l.contains("marker #")).count(), 1);
    // The referee's log has no markers to explain.
    h.state_mut().command(Command::ViewAs(ViewAs::Referee));
    h.run();
    assert!(
        !h.state().event_log().iter().any(|l| l.contains("marker #")),
        "{:?}",
        h.state().event_log()
    );
}

/// The Charts tab on `chart` of `scenario`, with `inputs` set in turn.
fn odds_of(scenario: &str, chart: &str, inputs: &[(&str, i32)]) -> Harness<'static, EditorApp> {
    let mut h = common::scenario(scenario, 1280.0, 800.0);
    h.get_by_role_and_label(Role::Button, "Charts").click();
    h.run();
    h.state_mut().command(Command::ShowChart(chart.to_owned()));
    h.run();
    for (input, v) in inputs {
        h.state_mut()
            .command(Command::ChartInput((*input).to_owned(), *v));
        h.run();
    }
    h
}

/// The text of the first label holding `words`.
fn label_with(h: &Harness<'_, EditorApp>, words: &str) -> String {
    h.query_by_label_contains(words)
        .map(|n| {
            let n = n.accesskit_node();
            n.label().or_else(|| n.value()).unwrap_or_default()
        })
        .unwrap_or_else(|| panic!("no label with {words:?}"))
}

/// #17, the band and its distance: with 3 hexes typed (band 2) and the band then set to 1
/// in its own box, the distance box kept "3" beside "band 1 (Color)". It shows a distance
/// of band 1 now (2 hexes: band 0 is up to 1 hex, band 1 up to 2).
#[test]
fn the_distance_shown_lies_in_the_band_set() {
    let h = odds_of(
        "examples/hex-command.yaml",
        "fire_small_b",
        &[("band (hexes)", 3), ("band", 2), ("band", 1)],
    );
    let hexes = h
        .get_by_role_and_label(Role::SpinButton, "= hexes")
        .accesskit_node()
        .numeric_value();
    assert_eq!(hexes, Some(2.0));
    assert!(h.query_by_label("(Color)").is_some());
    // A distance typed and still in the band is kept.
    let h = odds_of(
        "examples/hex-command.yaml",
        "fire_small_b",
        &[("band (hexes)", 3), ("band", 2)],
    );
    let hexes = h
        .get_by_role_and_label(Role::SpinButton, "= hexes")
        .accesskit_node()
        .numeric_value();
    assert_eq!(hexes, Some(3.0));
}

/// #17, village-skirmish musketry: its halving modifiers showed "per 0" (their `per` is
/// unused), the odds named the input "skirmishers" beside the table's "skirmish order",
/// and the one row's "hits: 100.00%" said nothing of how many hits. The table shows each
/// halving's factor and what it does, the odds use the table's name, and the score's
/// spread is given.
#[test]
fn a_multiplying_modifier_shows_its_factor_and_the_score_its_spread() {
    let mut h = odds_of("examples/village-skirmish.yaml", "musketry", &[]);
    assert!(
        h.query_by_label("per").is_none(),
        "no per box for a halving"
    );
    assert!(h.query_all_by_label("times").count() >= 3);
    assert!(
        h.query_by_label("score halved while skirmishers").is_some(),
        "the halving said in words"
    );
    assert!(h.query_by_label("skirmishers").is_none());
    // The table's row and the odds' input.
    assert_eq!(h.query_all_by_label("skirmish order").count(), 2);
    let spread = label_with(&h, "score after modifiers");
    assert_eq!(
        spread,
        "score after modifiers: 1 → 16.67%, 2 → 16.67%, 3 → 16.67%, 4 → 16.67%, \
         5 → 16.67%, 6 → 16.67% (mean 3.50)"
    );
    // Against skirmishers the d6 is halved, rounded up.
    h.state_mut()
        .command(Command::ChartInput("skirmishers".to_owned(), 1));
    h.run();
    let spread = label_with(&h, "score after modifiers");
    assert_eq!(
        spread,
        "score after modifiers: 1 → 33.33%, 2 → 33.33%, 3 → 33.33% (mean 2.00)"
    );
}

/// #24: a base dragged onto another was drawn in the same orange as a legal place and
/// refused only after the drop ("b1's bases would overlap b2's"). While it is held over
/// b2, the words beside it say so (and it is drawn red); moved clear, they do not.
#[test]
fn a_dragged_base_warns_of_an_overlap_before_the_drop() {
    use grognard_editor::bases::drag_words;
    let mut h = common::scenario("examples/drill-open.yaml", 1500.0, 1000.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.get_by_label_contains("b1 (").click();
    h.run();
    let at = |h: &Harness<'_, EditorApp>, x: f32, y: f32| {
        h.state().board_on_screen(x, y).expect("the table is drawn")
    };
    let (from, over_b2, clear) = (at(&h, 12.0, 30.0), at(&h, 25.0, 30.0), at(&h, 12.0, 27.0));
    assert_eq!(drag_words(&h.ctx), None);
    h.event(egui::Event::PointerMoved(from));
    h.event(common::button(from, true));
    h.step();
    for i in 1..=6 {
        h.event(egui::Event::PointerMoved(
            from + (over_b2 - from) * (i as f32 / 6.0),
        ));
        h.step();
    }
    let words = drag_words(&h.ctx).expect("a base is being dragged");
    assert!(
        words.contains("would overlap b2: the move will be refused"),
        "{words}"
    );
    h.event(egui::Event::PointerMoved(clear));
    h.step();
    let words = drag_words(&h.ctx).expect("a base is being dragged");
    assert!(!words.contains("overlap"), "{words}");
    h.event(common::button(clear, false));
    h.step();
    h.run();
    assert_eq!(drag_words(&h.ctx), None);
}

/// True when `line` opens a bracket inside another.
fn nested_brackets(line: &str) -> bool {
    let mut depth = 0;
    for c in line.chars() {
        match c {
            '(' if depth > 0 => return true,
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
    }
    false
}

/// #22: hex-command's dice log explained the commander's order-change test as "-5 trait
/// value (trait = 5, from the ruleset's scripts (or its default))": brackets in brackets,
/// an `=` and a hyphen for a minus. It reads "−5 trait value — trait is 5, set by the
/// ruleset's scripts or its default" now, and no line of the dice log or the event log
/// opens a bracket inside another.
#[test]
fn the_dice_log_says_where_a_modifier_comes_from_without_brackets_in_brackets() {
    let mut h = common::scenario("examples/hex-command.yaml", 1280.0, 1000.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    common::give_orders(
        &mut h,
        "orders:
  - { side: blue, end_phase: true }
  - { side: blue, act: { piece: hale, action: change_orders } }
",
    );
    let line = h
        .query_all_by_label_contains("trait value")
        .filter_map(|n| {
            n.accesskit_node()
                .label()
                .or_else(|| n.accesskit_node().value())
        })
        .find(|l| l.contains(" — "))
        .expect("the dice log's trait line")
        .trim()
        .to_owned();
    assert!(
        line.starts_with("−")
            && line.contains("trait value — trait is ")
            && line.ends_with(", set by the ruleset's scripts or its default"),
        "{line}"
    );
    assert!(!nested_brackets(&line), "{line}");
    for l in h.state().event_log() {
        assert!(!nested_brackets(l), "{l}");
    }
}

/// #22: the editor's log spaces a piece type's name as it does a flag's: the rider of an
/// identifying sighting named square-blocks' headquarters type `army_hq`.
#[test]
fn the_log_spaces_piece_type_and_terrain_names() {
    let root = common::root();
    let ruleset = grognard_rules::load::load_ruleset(&root.join("rulesets/square-blocks.yaml"))
        .expect("the ruleset loads");
    let rules = &ruleset.rules;
    assert_eq!(
        grognard_editor::words::log_line(
            rules,
            "  french sights ahq at level A: marker #9 is ahq, army_hq"
        ),
        "  french sights ahq at level A: marker #9 is ahq, army hq"
    );
    assert_eq!(
        grognard_editor::words::log_line(rules, "  div1 moved (4,7) → (4,6) into medium_woods"),
        "  div1 moved (4,7) → (4,6) into medium woods"
    );
}

/// #23: the Rules tab named hex-command's optional rules in snake case
/// ("skirmishers_rout") and showed the designer's citations to players ("7.2 (l.475), …",
/// "… : sixth outside audit)"). The names are spaced, and the citations are set apart as a
/// muted designer's note.
#[test]
fn optional_rules_are_named_in_words_and_the_designers_citations_set_apart() {
    use grognard_editor::words::description_for_player;
    let mut h = common::scenario("examples/hex-command.yaml", 1280.0, 1000.0);
    h.get_by_role_and_label(Role::Button, "Rules").click();
    h.run();
    let rout = label_with(&h, "skirmishers rout — ");
    assert!(
        rout.starts_with("skirmishers rout — 7.2, the owner's first choice"),
        "{rout}"
    );
    assert!(!rout.contains("l.475"), "{rout}");
    assert!(h.query_by_label_contains("skirmishers_rout").is_none());
    assert!(h.query_by_label("designer's note: l.475").is_some());
    let sphere = label_with(&h, "command sphere — ");
    assert!(!sphere.contains("audit"), "{sphere}");
    assert!(sphere.ends_with("(single cover only). The red-star hit still kills only the commander attached to the unit hit."), "{sphere}");
    // A bracket that cites nothing stays.
    assert_eq!(
        description_for_player("Rally removes every hit (reading a), not one (l.12)."),
        (
            "Rally removes every hit (reading a), not one.".to_owned(),
            Some("l.12".to_owned())
        )
    );
    assert_eq!(
        description_for_player("Plain."),
        ("Plain.".to_owned(), None)
    );
}

/// #18: hex-command's commander counters read "cvs i 4 / c0 …" and "o2 …": `cvs i`, `cvs
/// c` and `cvs t` all shortened to `cvs`/`c`, `order changes` to `o`, and nothing said
/// what the short forms stood for. A name of several words is shortened to its initials
/// (`ci 4`, `oc 2`), and the legend lists every short form.
#[test]
fn short_counter_names_are_told_apart_and_explained() {
    use grognard_editor::scene::fit_lines;
    let mut h = common::scenario("examples/hex-command.yaml", 1280.0, 1000.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    let font = egui::FontId::proportional(9.0);
    let width = |t: &str| {
        h.ctx
            .fonts_mut(|f| f.layout_no_wrap(t.to_owned(), font.clone(), egui::Color32::WHITE))
            .size()
            .x
    };
    // Counters as narrow as the short forms (their names short enough to fit too).
    let lines = ["a1".to_owned(), "cvs i 4".to_owned(), "cvs c 0".to_owned()];
    let room = width("ci 4").max(width("cc 0")) + 1.0;
    assert!(room < width("cvs i 4"));
    let fitted = fit_lines(&h.ctx, &lines, &font, room, 40.0);
    assert_eq!(fitted, ["a1", "ci 4", "cc 0"]);
    let two = ["h1".to_owned(), "order changes 2".to_owned()];
    let fitted = fit_lines(&h.ctx, &two, &font, width("oc 2") + 1.0, 40.0);
    assert_eq!(fitted, ["h1", "oc 2"]);
    h.get_by_label("Legend").click();
    h.run();
    let legend = label_with(&h, "On small counters: ");
    for said in ["ci cvs i", "cc cvs c", "oc order changes", "h hits"] {
        assert!(legend.contains(said), "{said}: {legend}");
    }
}

/// Hex Command's reinforcements arrive at `entry_1`…`entry_3`, regions of its scenario the
/// board never drew: a player could not tell where b4 would come on. The board outlines
/// each entry region (dashed, under the pieces) and names it, and the legend says what the
/// outlines are; a scenario with no entry region draws none and says nothing of them.
#[test]
fn the_board_draws_where_reinforcements_arrive() {
    use grognard_editor::board::{Overlay, Transform};
    let mut h = common::scenario("examples/hex-command.yaml", 1280.0, 1000.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.get_by_label("Legend").click();
    h.run();
    assert!(
        h.query_by_label(
            "Dashed violet outlines: where reinforcements arrive (entry 1, entry 2, entry 3)."
        )
        .is_some()
    );
    let paint = |h: &Harness<'_, EditorApp>| {
        let g = &h.state().session().expect("a game").game;
        let t = Transform {
            origin: egui::pos2(40.0, 40.0),
            scale: 60.0,
        };
        let clip = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1200.0, 1000.0));
        common::paint_board(&h.ctx, g, &[], &Overlay::default(), &t, clip)
    };
    let shapes = paint(&h);
    let texts = common::shape_texts(&shapes);
    assert_eq!(texts, ["entry 1", "entry 2", "entry 3"], "{texts:?}");
    let violet = egui::Color32::from_rgb(90, 40, 120);
    let dashes = shapes
        .iter()
        .filter(|s| matches!(s, egui::Shape::LineSegment { stroke, .. } if stroke.color == violet))
        .count();
    assert!(dashes > 6, "{dashes} dashes");
    // No entry region, no outline and no legend line.
    let mut h = common::scenario("examples/drill-hex.yaml", 1280.0, 1000.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.get_by_label("Legend").click();
    h.run();
    assert!(h.query_by_label_contains("On small counters").is_some());
    assert!(h.query_by_label_contains("Dashed violet").is_none());
    let shapes = paint(&h);
    assert!(
        !shapes.iter().any(
            |s| matches!(s, egui::Shape::LineSegment { stroke, .. } if stroke.color == violet)
        )
    );
}

/// #19, hex-leaders' baseline: the exit cells a leader may step off to were drawn a third
/// of a hex below the table's edge (which runs through the half-hexes' centres), floating
/// apart from the board; and hovering a closed half-hex read "cell (4,8): clear", as if it
/// could be entered. The exit cells meet the edge, and the card names the half-hex.
#[test]
fn exit_cells_meet_the_tables_edge_and_a_closed_half_hex_is_named_so() {
    use grognard_editor::board::{self, Transform};
    use grognard_kernel::geometry::Cell;
    let mut h = common::scenario("examples/hex-leaders.yaml", 1280.0, 800.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    {
        let g = &h.state().session().expect("a game").game;
        let card = grognard_editor::words::cell_card(g.rules(), g.board(), Cell::new(4, 8), None);
        assert_eq!(card[0], "cell (4,8): closed half-hex", "{card:?}");
    }
    h.get_by_label_contains("bl3 (").click();
    h.run();
    let overlay = h.state().board_overlay();
    let g = &h.state().session().expect("a game").game;
    assert!(
        overlay
            .reach_cells
            .iter()
            .any(|(c, _)| !g.board().contains(*c)),
        "bl3 may step off the board"
    );
    let t = Transform {
        origin: egui::pos2(40.0, 40.0),
        scale: 60.0,
    };
    let clip = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1200.0, 1000.0));
    let exit = egui::Color32::from_rgba_unmultiplied(255, 140, 0, 140);
    let tops: Vec<f32> = common::paint_board(&h.ctx, g, &[], &overlay, &t, clip)
        .iter()
        .filter_map(|s| match s {
            egui::Shape::Path(p) if p.fill == exit => p.points.iter().map(|q| q.y).reduce(f32::min),
            _ => None,
        })
        .collect();
    assert!(!tops.is_empty(), "no exit cell drawn");
    let Some(grid) = g.board().grid() else {
        panic!("a grid")
    };
    let (_, edge) = board::cell_center(grid, Cell::new(0, 8));
    let edge = t.to_screen(0.0, edge).y;
    for top in tops {
        assert!(
            (top - edge).abs() < 0.5,
            "an exit cell's top at {top}, the edge at {edge}"
        );
    }
}

/// #19, the seams: hex-leaders' half-hexes cut by the table's edge were drawn with a
/// corner twice over where a hex corner lies on the edge (the clip kept the corner and
/// the crossing, the same point), and the zero-length edge between them showed as a pale
/// seam across the grey. No drawn cell repeats a corner.
#[test]
fn a_half_hex_repeats_no_corner() {
    use grognard_editor::board::{Overlay, Transform};
    let h = common::scenario("examples/hex-leaders.yaml", 1280.0, 800.0);
    let g = &h.state().session().expect("a game").game;
    let t = Transform {
        origin: egui::pos2(40.0, 40.0),
        scale: 60.0,
    };
    let clip = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1200.0, 1000.0));
    let mut cells = 0;
    for s in common::paint_board(&h.ctx, g, &[], &Overlay::default(), &t, clip) {
        if let egui::Shape::Path(p) = s
            && p.closed
        {
            cells += 1;
            let n = p.points.len();
            for i in 0..n {
                let (a, b) = (p.points[i], p.points[(i + 1) % n]);
                assert!(a.distance(b) > 0.01, "a corner twice over: {:?}", p.points);
            }
        }
    }
    assert!(cells > 50, "{cells} cells drawn");
}
