//! A side's view carries no value for an enemy's private counters (hex-command's CVS
//! traits, supply, grade): the editor drew the zeros the kernel puts in their place
//! ("voss F sup 0", "cvs i 0") on counters, hover cards and the piece panel, on the Play
//! tab's side views and the Remote board, and pushed a public "hits 1" off its counter.

mod common;

use common::scenario;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use grognard_editor::board::Overlay;
use grognard_editor::scene::{DrawPiece, label_lines};
use grognard_editor::view::{ViewAs, pieces_for, pieces_from_view};
use grognard_editor::words::piece_card;

fn named<'a>(pieces: &'a [DrawPiece], name: &str) -> &'a DrawPiece {
    pieces
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("{name} is not drawn: {pieces:?}"))
}

/// No line that reads a private counter (its name, or the "sup" it is shortened to).
fn assert_no_private(lines: &[String]) {
    for l in lines {
        assert!(
            !l.contains("cvs") && !l.contains("sup") && !l.contains("grade"),
            "a private counter is shown: {l:?} in {lines:?}"
        );
    }
}

#[test]
fn blue_reads_none_of_reds_private_counters_and_keeps_r1s_hits_on_its_counter() {
    let mut h = scenario("examples/hex-command.yaml", 1280.0, 800.0);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    h.get_by_role_and_label(Role::ComboBox, "View as").click();
    h.run();
    h.get_by_label("Side blue").click();
    h.run();
    h.run();
    let app = h.state();
    let drawn = app.drawn_pieces().to_vec();
    let g = &app.session().expect("a game").game;
    let blue = grognard_kernel::ids::SideId(
        u8::try_from(
            g.sides()
                .iter()
                .position(|s| s.name == "blue")
                .expect("blue"),
        )
        .expect("a side index"),
    );
    // The referee does read voss's traits: the test is about what blue is shown.
    let referee = pieces_for(g, ViewAs::Referee);
    let lines = label_lines(named(&referee, "voss"));
    assert!(lines.iter().any(|l| l == "cvs i 4"), "{lines:?}");

    // The Play tab's side view, and the Remote board, which draws the same view as a seat
    // holding only the view would. The piece panel lists the same markers.
    let remote = pieces_from_view(g.rules(), g.board(), &g.view(blue));
    for pieces in [&drawn, &remote] {
        let voss = named(pieces, "voss");
        assert_no_private(&label_lines(voss));
        assert_no_private(&piece_card(voss, "red"));
        let r1 = named(pieces, "r1");
        assert_no_private(&piece_card(r1, "red"));
        let lines = label_lines(r1);
        assert_eq!(
            lines.get(1).map(String::as_str),
            Some("hits 1"),
            "{lines:?}"
        );
    }

    // On the board as the Play tab lays it out, r1's counter shows its hits (`hits 1`, or
    // that amount shortened), pushed off neither by a line of private zeros nor by the
    // sight level after it (`h1 …`: the rest is on the hover card).
    let t = common::drawn_transform(&h);
    let clip = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
    let shapes = common::paint_board(&h.ctx, g, &drawn, &Overlay::default(), &t, clip);
    let texts = common::shape_texts(&shapes);
    let r1 = texts
        .iter()
        .find(|t| t.lines().next().is_some_and(|l| l.starts_with("r1")))
        .unwrap_or_else(|| panic!("r1 carries no label: {texts:?}"));
    assert!(
        r1.lines()
            .skip(1)
            .map(|l| l.trim_end_matches(" …"))
            .any(|l| l == "hits 1" || l == "h1"),
        "r1's hits fell off its counter: {r1:?}"
    );
    // No red counter carries a private line (blue's own commanders do carry theirs).
    let red: Vec<&str> = drawn
        .iter()
        .filter(|p| p.side != blue && !p.name.is_empty())
        .map(|p| p.name.as_str())
        .collect();
    assert!(red.contains(&"voss"), "{red:?}");
    for text in &texts {
        let first = text.lines().next().unwrap_or_default();
        if red.iter().any(|n| first.starts_with(n)) {
            assert_no_private(std::slice::from_ref(text));
        }
    }
}
