//! What the fourth outside new-player check of issue 37 still left after player_check7
//! (the ninth editor round): captions kept off other pieces' labels and a readable floor
//! for every text on the board, through the board painter the Play and Remote tabs share.

mod common;

use common::scenario;
use egui::accesskit::Role;
use egui::{Rect, Shape};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use grognard_editor::EditorApp;
use grognard_editor::board::{DrawPiece, Overlay, Transform};
use grognard_kernel::geometry::open::Len;
use grognard_kernel::piece::Place;

fn tab(h: &mut Harness<'_, EditorApp>, name: &str) {
    h.get_by_role_and_label(Role::Button, name).click();
    h.run();
}

/// Every text the board painter draws for `pieces`, with its rectangle on screen, on the
/// Play tab's board as last drawn.
fn drawn_texts(
    h: &Harness<'_, EditorApp>,
    pieces: &[DrawPiece],
    size: egui::Vec2,
) -> (Transform, Vec<(String, Rect)>) {
    let app = h.state();
    let t = common::drawn_transform(h);
    let g = &app.session().expect("a game").game;
    let clip = Rect::from_min_size(egui::Pos2::ZERO, size);
    let texts = common::paint_board(&h.ctx, g, pieces, &Overlay::default(), &t, clip)
        .iter()
        .filter_map(|s| match s {
            Shape::Text(t) => Some((
                t.galley.text().to_owned(),
                t.galley.rect.translate(t.pos.to_vec2()),
            )),
            _ => None,
        })
        .collect();
    (t, texts)
}

fn text_of<'a>(texts: &'a [(String, Rect)], start: &str) -> Option<&'a (String, Rect)> {
    texts.iter().find(|(t, _)| t.starts_with(start))
}

/// No two texts among `texts` are drawn over each other.
fn apart(texts: &[(String, Rect)]) {
    for (i, (a, ra)) in texts.iter().enumerate() {
        for (b, rb) in &texts[i + 1..] {
            assert!(
                !ra.shrink(0.5).intersects(rb.shrink(0.5)),
                "{a:?} at {ra:?} is drawn over {b:?} at {rb:?}"
            );
        }
    }
}

/// Item 1: at 1024×700 black-powder's captions (names of bases too small to hold them)
/// were drawn below their base whatever was there, and after a few moves one covered a
/// neighbour's name inside its base ("fr_legere L" over "fr_battery"). Here fr_battery is
/// put where fr_legere's caption goes: the caption moves off its label, and no text on
/// the board is drawn over another.
#[test]
fn captions_are_never_drawn_over_another_pieces_label() {
    let size = egui::vec2(1024.0, 700.0);
    let mut h = scenario("examples/black-powder.yaml", size.x, size.y);
    tab(&mut h, "Play");
    let mut pieces = h.state().drawn_pieces().to_vec();
    let (t, before) = drawn_texts(&h, &pieces, size);
    apart(&before);
    let caption = text_of(&before, "fr_legere")
        .expect("fr_legere's caption")
        .1;
    let label = text_of(&before, "fr_battery")
        .expect("fr_battery's label")
        .1;
    // Move fr_battery so its label sits on fr_legere's caption.
    let shift = (caption.center() - label.center()) / t.scale;
    let battery = pieces
        .iter_mut()
        .find(|p| p.name == "fr_battery")
        .expect("fr_battery");
    let Place::Point { at, .. } = &mut battery.place else {
        panic!("fr_battery is on the table");
    };
    at.x = Len(at.x.0 + (shift.x * 1000.0).round() as i64);
    at.y = Len(at.y.0 + (shift.y * 1000.0).round() as i64);
    let (_, after) = drawn_texts(&h, &pieces, size);
    let label = text_of(&after, "fr_battery").expect("fr_battery's label").1;
    assert!(
        label.intersects(caption.shrink(1.0)),
        "the label {label:?} moved onto the caption's old place {caption:?}"
    );
    apart(&after);
    assert!(
        text_of(&after, "fr_legere").is_some(),
        "fr_legere keeps its caption, elsewhere: {after:?}"
    );
}

/// Item 2: at 1024×700 square-blocks' counters were labelled in 7 points, too small to
/// read. No text on the board is smaller than the captions' 9 points; a label that does
/// not fit shows less (the name alone, or a caption), and each of the viewer's own pieces
/// on the board still carries its name whole.
#[test]
fn square_blocks_labels_stay_readable_at_1024_by_700() {
    let size = egui::vec2(1024.0, 700.0);
    let mut h = scenario("examples/square-blocks.yaml", size.x, size.y);
    tab(&mut h, "Play");
    h.get_by_label("View as").click();
    h.run();
    h.get_by_label("Side french").click();
    h.run();
    let pieces = h.state().drawn_pieces().to_vec();
    let (_, texts) = drawn_texts(&h, &pieces, size);
    assert!(texts.len() > 5, "{texts:?}");
    for (text, _, points) in &sized_texts(&h, &pieces, size) {
        assert!(*points >= 9.0, "{text:?} in {points} pt");
    }
    let french = h
        .state()
        .session()
        .expect("a game")
        .game
        .side_by_name("french")
        .expect("french");
    for p in pieces
        .iter()
        .filter(|p| p.side == french && !p.name.is_empty())
    {
        assert!(
            texts
                .iter()
                .any(|(t, _)| t.split([' ', '\n']).next() == Some(p.name.as_str())),
            "{} drawn without its name: {texts:?}",
            p.name
        );
    }
}

/// Every text the board painter draws for `pieces`, with its font's size.
fn sized_texts(
    h: &Harness<'_, EditorApp>,
    pieces: &[DrawPiece],
    size: egui::Vec2,
) -> Vec<(String, Rect, f32)> {
    let app = h.state();
    let t = common::drawn_transform(h);
    let g = &app.session().expect("a game").game;
    let clip = Rect::from_min_size(egui::Pos2::ZERO, size);
    common::paint_board(&h.ctx, g, pieces, &Overlay::default(), &t, clip)
        .iter()
        .filter_map(|s| match s {
            Shape::Text(t) => Some((
                t.galley.text().to_owned(),
                t.galley.rect.translate(t.pos.to_vec2()),
                t.galley
                    .job
                    .sections
                    .first()
                    .map_or(0.0, |s| s.format.font_id.size),
            )),
            _ => None,
        })
        .collect()
}
