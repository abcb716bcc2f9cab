//! Bases on the open table (issue 21): a piece whose type has a footprint is drawn as
//! that rectangle to scale, turned to its facing, its front edge marked; the area its bases
//! can reach; the tape measure between two pieces as the viewer knows them; and dragging a
//! base (or turning it by its handle) to propose a move, which the kernel judges.
//!
//! Every measurement is the kernel's, on footprints placed as the viewer is shown them
//! ([`Placed::distance`], [`Placed::arc`], [`grognard_kernel::game::footprints_see`] — what
//! `Game::table_gap`, `Game::bearing` and `Game::clear_sight` use); this module only draws
//! and asks.

use egui::{Color32, Pos2, Rect, Shape, Stroke, Vec2};
use grognard_kernel::board::Board;
use grognard_kernel::geometry::Arc;
use grognard_kernel::geometry::footprint::Placed;
use grognard_kernel::geometry::open::{Angle, Len, Point};
use grognard_kernel::ids::PieceId;
use grognard_kernel::piece::Place;
use grognard_kernel::rules::{GeometryRules, Rules};

use crate::scene::{
    BaseDrop, BoardScene, CAPTION_FONT, Captions, DrawPiece, LABEL_FONT_PER_SIZE, Look, Transform,
    inches, name_fits, piece_galley, side_color,
};

/// Screen points between the front edge and the turning handle.
const HANDLE_GAP: f32 = 18.0;
/// The turning handle's radius in screen points.
const HANDLE_RADIUS: f32 = 5.0;
/// How far (screen points) outside a base a press or hover still finds it.
const SLACK: f32 = 4.0;
/// Degrees a base turns per scroll point while it is dragged (a wheel notch, about 40
/// points, turns it 15°).
const TURN_PER_POINT: f32 = 15.0 / 40.0;

fn on_screen(t: &Transform, p: Point) -> Pos2 {
    t.to_screen(inches(p.x), inches(p.y))
}

/// The unit vector of a facing on screen (0° east, 90° south, as on the table).
fn facing_vector(facing: Angle) -> Vec2 {
    let r = (facing.tenths() as f32 / 10.0).to_radians();
    Vec2::new(r.cos(), r.sin())
}

/// A piece's bases where it stands, as the viewer is shown them (`None`: no footprint is
/// shown, or the piece is not on the open table).
#[must_use]
pub fn placed(d: &DrawPiece) -> Option<Placed> {
    let (Some(f), Place::Point { at, facing }) = (d.footprint, &d.place) else {
        return None;
    };
    Some(f.place(*at, *facing))
}

/// A base's corners on screen: front-left, front-right, rear-right, rear-left.
#[must_use]
pub fn screen_corners(d: &DrawPiece, t: &Transform) -> Option<[Pos2; 4]> {
    Some(placed(d)?.corners.map(|c| on_screen(t, c)))
}

/// The distance from `p` to the segment `a`–`b`.
fn segment_distance(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    closest_on_segment(p, a, b).distance(p)
}

fn closest_on_segment(p: Pos2, a: Pos2, b: Pos2) -> Pos2 {
    let ab = b - a;
    let len2 = ab.length_sq();
    if len2 <= f32::EPSILON {
        return a;
    }
    a + ab * ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
}

/// True when `p` is inside the convex quadrilateral `c` or within `slack` of its edges.
fn inside_or_near(c: &[Pos2; 4], p: Pos2, slack: f32) -> bool {
    let (mut left, mut right) = (false, false);
    for i in 0..4 {
        let (a, b) = (c[i], c[(i + 1) % 4]);
        let cross = (b - a).x * (p - a).y - (b - a).y * (p - a).x;
        left |= cross > 0.0;
        right |= cross < 0.0;
    }
    !(left && right) || (0..4).any(|i| segment_distance(p, c[i], c[(i + 1) % 4]) <= slack)
}

/// Whether a screen position finds a piece drawn at a point of the open table: on its base
/// (or a few points outside it), or within an inch of its point when it has none.
#[must_use]
pub fn hit_piece(d: &DrawPiece, t: &Transform, pos: Pos2) -> bool {
    if let Some(c) = screen_corners(d, t) {
        return inside_or_near(&c, pos, SLACK);
    }
    match d.place {
        Place::Point { at, .. } => on_screen(t, at).distance(pos) < t.scale,
        _ => false,
    }
}

/// Draws a piece's base: the rectangle in its side's colour, the front edge a thick white
/// line with a tick pointing ahead, the label in the middle or, on a base too small for
/// its name, in a caption below (face down: the colour only; a ghost: the outline only).
pub(crate) fn paint_base(
    ctx: &egui::Context,
    p: &DrawPiece,
    t: &Transform,
    clip: Rect,
    selected: bool,
    shapes: &mut Vec<Shape>,
    captions: &mut Captions,
) {
    let (Some(c), Place::Point { facing, .. }) = (screen_corners(p, t), &p.place) else {
        return;
    };
    let bounds = Rect::from_points(&c);
    if !clip.intersects(bounds.expand(HANDLE_GAP)) {
        return;
    }
    let color = side_color(p.side);
    let outline = if selected {
        Stroke::new(3.0, Color32::from_rgb(255, 200, 0))
    } else {
        Stroke::new(1.0, Color32::BLACK)
    };
    match p.look {
        Look::Ghost => {
            shapes.push(Shape::closed_line(
                c.to_vec(),
                Stroke::new(1.5, color.gamma_multiply(0.6)),
            ));
            return;
        }
        Look::FaceDown => {
            shapes.push(Shape::convex_polygon(
                c.to_vec(),
                color.gamma_multiply(0.55),
                outline,
            ));
            return;
        }
        Look::Open => shapes.push(Shape::convex_polygon(c.to_vec(), color, outline)),
    }
    // The front edge, and a tick from its middle pointing the way the unit faces.
    shapes.push(Shape::line_segment(
        [c[0], c[1]],
        Stroke::new(3.0, Color32::WHITE),
    ));
    let v = facing_vector(*facing);
    let front = c[0] + (c[1] - c[0]) / 2.0;
    let side = Vec2::new(-v.y, v.x) * 4.0;
    shapes.push(Shape::convex_polygon(
        vec![front + v * 7.0, front + side, front - side],
        Color32::WHITE,
        Stroke::new(1.0, Color32::BLACK),
    ));
    // The name inside the base when it reads there in the captions' font, else in a
    // caption below it: names on the table read alike, none in the smallest font.
    if !name_fits(ctx, p, (bounds.width(), bounds.height()), CAPTION_FONT) {
        // Above a base whose front (and its tick) is at the bottom, below the others.
        let front = c[0] + (c[1] - c[0]) / 2.0;
        captions.add(ctx, p, bounds, front.y > bounds.center().y);
        return;
    }
    // The font follows the base's depth on screen (some 0.4 of it), never below the
    // captions'.
    let depth = (c[3] - c[0]).length();
    let galley = piece_galley(
        ctx,
        p,
        (depth * 0.4).max(CAPTION_FONT) / LABEL_FONT_PER_SIZE,
        CAPTION_FONT,
        (bounds.width(), bounds.height()),
        Color32::WHITE,
    );
    let r = Rect::from_center_size(bounds.center(), galley.size());
    captions.label(r);
    shapes.push(Shape::rect_filled(
        r.expand(1.0),
        2.0,
        Color32::from_black_alpha(110),
    ));
    shapes.push(Shape::Text(egui::epaint::TextShape::new(
        r.min,
        galley,
        Color32::WHITE,
    )));
}

/// The area a base can reach with `r` inches of movement, on screen: its rectangle grown by
/// `r` on every side, the corners rounded (a convex polygon). A move costs the longest path
/// any corner travels, and no point of a base moves farther than its farthest corner, so
/// every point the base can end on lies within `r` of where it stands; moving straight,
/// without turning, it reaches all of that area (terrain aside).
#[must_use]
pub fn reach_area(base: &Placed, facing: Angle, r: f32, t: &Transform) -> Vec<Pos2> {
    let theta = facing.tenths() as f32 / 10.0;
    let mut out = Vec::with_capacity(4 * 9);
    // Around the rectangle clockwise on screen: at each corner, from the outward normal of
    // the edge before it to that of the edge after it (front, right, rear, left).
    for (k, corner) in [1, 2, 3, 0].into_iter().enumerate() {
        let c = base.corners[corner];
        let start = theta + 90.0 * k as f32;
        for s in 0..=8 {
            let a = (start + 90.0 * s as f32 / 8.0).to_radians();
            out.push(t.to_screen(inches(c.x) + r * a.cos(), inches(c.y) + r * a.sin()));
        }
    }
    out
}

/// Where a piece's turning handle is drawn: ahead of the middle of its front edge (of its
/// counter, for a piece without bases).
#[must_use]
pub fn turn_handle(d: &DrawPiece, t: &Transform) -> Option<(Pos2, Pos2)> {
    let Place::Point { at, facing } = d.place else {
        return None;
    };
    let v = facing_vector(facing);
    let front = match screen_corners(d, t) {
        Some(c) => c[0] + (c[1] - c[0]) / 2.0,
        None => on_screen(t, at) + v * t.scale * 1.6 * 0.62,
    };
    Some((front, front + v * HANDLE_GAP))
}

/// Draws the turning handle of the draggable piece.
pub(crate) fn paint_handle(scene: &BoardScene<'_>, t: &Transform, shapes: &mut Vec<Shape>) {
    let Some(d) = scene
        .overlay
        .draggable
        .and_then(|id| scene.pieces.iter().find(|p| p.id == id))
    else {
        return;
    };
    let Some((front, handle)) = turn_handle(d, t) else {
        return;
    };
    let ink = Color32::from_rgb(250, 120, 0);
    shapes.push(Shape::line_segment([front, handle], Stroke::new(1.5, ink)));
    shapes.push(Shape::circle_filled(handle, HANDLE_RADIUS, Color32::WHITE));
    shapes.push(Shape::circle_stroke(
        handle,
        HANDLE_RADIUS,
        Stroke::new(2.0, ink),
    ));
}

/// A piece being dragged on the open table: moved by its base, or turned in place by its
/// handle. Kept in egui's memory from the press to the drop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BaseDrag {
    piece: PieceId,
    /// Turned in place by the handle (else moved, keeping or wheel-turning its facing).
    turn_only: bool,
    /// Where it stood and which way it faced.
    at: Point,
    facing: Angle,
    /// Where the pointer went down and where it is now, in inches.
    grab: (f32, f32),
    pointer: (f32, f32),
    /// Degrees the scroll wheel has turned it while dragged.
    turn: f32,
}

/// A drag starting at `origin` on screen: on the handle or the base of the overlay's
/// draggable piece (anything else pans the board).
pub(crate) fn grab(scene: &BoardScene<'_>, t: &Transform, origin: Pos2) -> Option<BaseDrag> {
    let id = scene.overlay.draggable?;
    let d = scene
        .pieces
        .iter()
        .find(|p| p.id == id && p.look == Look::Open)?;
    let Place::Point { at, facing } = d.place else {
        return None;
    };
    let turn_only =
        turn_handle(d, t).is_some_and(|(_, h)| h.distance(origin) <= HANDLE_RADIUS + SLACK);
    if !turn_only && !hit_piece(d, t, origin) {
        return None;
    }
    let grab = t.to_board(origin);
    Some(BaseDrag {
        piece: id,
        turn_only,
        at,
        facing,
        grab,
        pointer: grab,
        turn: 0.0,
    })
}

/// A length in inches as the nearest hundredth of an inch, in thou.
fn snap(x: f32) -> Len {
    Len((x * 100.0).round() as i64 * 10)
}

impl BaseDrag {
    /// The pointer is now at `pos` on screen.
    pub(crate) fn point_at(&mut self, t: &Transform, pos: Pos2) {
        self.pointer = t.to_board(pos);
    }

    /// The scroll wheel moved `points` while dragging: the base turns with it.
    pub(crate) fn turn_by(&mut self, points: f32) {
        if !self.turn_only {
            self.turn += points * TURN_PER_POINT;
        }
    }

    /// Where the drop would put the piece's centre (to the hundredth of an inch) and which
    /// way it would face (to the degree).
    #[must_use]
    pub fn proposal(&self) -> (Point, Angle) {
        let (x, y) = (inches(self.at.x), inches(self.at.y));
        if self.turn_only {
            let degrees = (self.pointer.1 - y).atan2(self.pointer.0 - x).to_degrees();
            return (self.at, Angle::degrees(degrees.round() as i32));
        }
        let to = Point::new(
            snap(x + self.pointer.0 - self.grab.0),
            snap(y + self.pointer.1 - self.grab.1),
        );
        (
            to,
            self.facing.turned(Angle::degrees(self.turn.round() as i32)),
        )
    }

    /// The move the drop proposes (`None` when it would change nothing).
    #[must_use]
    pub fn drop(&self) -> Option<BaseDrop> {
        let (to, facing) = self.proposal();
        if self.turn_only {
            return (facing != self.facing).then_some(BaseDrop {
                piece: self.piece,
                to: self.at,
                facing: Some(facing),
            });
        }
        (to != self.at || facing != self.facing).then_some(BaseDrop {
            piece: self.piece,
            to,
            facing: (facing != self.facing).then_some(facing),
        })
    }
}

/// What a drag shows until the drop: the bases (or the point) where the piece would stand,
/// a line from where it stands, and how far and which way.
pub(crate) fn drag_preview(
    ctx: &egui::Context,
    scene: &BoardScene<'_>,
    t: &Transform,
    drag: &BaseDrag,
) -> Vec<Shape> {
    let (to, facing) = drag.proposal();
    let overlapped = overlapped_by(scene, drag);
    // Red while the drop would be refused for an overlap: said before the drop, not after.
    let ink = if overlapped.is_empty() {
        Color32::from_rgb(250, 120, 0)
    } else {
        Color32::from_rgb(230, 40, 40)
    };
    let (from, end) = (on_screen(t, drag.at), on_screen(t, to));
    let mut shapes = vec![Shape::line_segment([from, end], Stroke::new(1.5, ink))];
    let footprint = scene
        .pieces
        .iter()
        .find(|p| p.id == drag.piece)
        .and_then(|p| p.footprint);
    match footprint {
        Some(f) => {
            let c = f.place(to, facing).corners.map(|c| on_screen(t, c));
            shapes.push(Shape::closed_line(c.to_vec(), Stroke::new(2.0, ink)));
            shapes.push(Shape::line_segment([c[0], c[1]], Stroke::new(4.0, ink)));
        }
        None => {
            shapes.push(Shape::circle_stroke(end, 6.0, Stroke::new(2.0, ink)));
            shapes.push(Shape::line_segment(
                [end, end + facing_vector(facing) * 14.0],
                Stroke::new(2.0, ink),
            ));
        }
    }
    let moved = grognard_kernel::geometry::open::distance(drag.at, to);
    let mut text = format!("{moved} · facing {}°", facing.tenths() / 10);
    if !overlapped.is_empty() {
        text.push_str(&format!(
            "\nwould overlap {}: the move will be refused",
            overlapped.join(", ")
        ));
    }
    ctx.data_mut(|d| d.insert_temp(drag_words_id(), text.clone()));
    let galley =
        ctx.fonts_mut(|f| f.layout_no_wrap(text, egui::FontId::proportional(13.0), Color32::WHITE));
    let r = Rect::from_min_size(end + Vec2::new(12.0, 12.0), galley.size());
    shapes.push(Shape::rect_filled(
        r.expand(3.0),
        3.0,
        Color32::from_black_alpha(190),
    ));
    shapes.push(Shape::Text(egui::epaint::TextShape::new(
        r.min,
        galley,
        Color32::WHITE,
    )));
    shapes
}

/// The pieces whose bases, as the viewer is shown them, the dragged piece's bases would
/// overlap where the drop would put them (the kernel refuses such a move).
fn overlapped_by(scene: &BoardScene<'_>, drag: &BaseDrag) -> Vec<String> {
    let (to, facing) = drag.proposal();
    let Some(mine) = scene
        .pieces
        .iter()
        .find(|p| p.id == drag.piece)
        .and_then(|p| p.footprint)
        .map(|f| f.place(to, facing))
    else {
        return Vec::new();
    };
    scene
        .pieces
        .iter()
        .filter(|p| p.id != drag.piece)
        .filter_map(|p| match (p.footprint, &p.place) {
            (Some(f), Place::Point { at, facing }) => f
                .place(*at, *facing)
                .overlaps(&mine)
                .then(|| p.name.clone()),
            _ => None,
        })
        .collect()
}

fn drag_words_id() -> egui::Id {
    egui::Id::unique("grognard base drag words")
}

/// The words beside a base being dragged (distance, facing, and an overlap the drop would
/// be refused for), as last drawn; `None` when no base is being dragged.
#[must_use]
pub fn drag_words(ctx: &egui::Context) -> Option<String> {
    ctx.data(|d| d.get_temp(drag_words_id()))
}

/// Forgets the words of a drag that has ended.
pub(crate) fn drag_ended(ctx: &egui::Context) {
    ctx.data_mut(|d| d.remove::<String>(drag_words_id()));
}

/// The tape measure between two pieces on the open table, read with the kernel's
/// measurements from the pieces as the viewer is shown them.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The piece measured from (the one selected).
    pub from: PieceId,
    /// The piece measured to (the one under the pointer).
    pub to: PieceId,
    /// The distance on the table, edge to edge ([`Placed::distance`]).
    pub gap: Len,
    /// The same in the rules' inches (through the table's scale), as `grognard measure`.
    pub rule_inches: f64,
    /// True when either piece has bases (else the distance runs centre to centre).
    pub edge_to_edge: bool,
    /// Which of `from`'s arcs `to` stands in ([`Placed::arc`]).
    pub arc_of_to: Arc,
    /// Which of `to`'s arcs `from` stands in.
    pub arc_of_from: Arc,
    /// Whether `from` sees `to` ([`grognard_kernel::game::footprints_see`]).
    pub from_sees: bool,
    /// Whether `to` sees `from`.
    pub to_sees: bool,
    /// The nearest two points of the two pieces, in inches (from's, then to's).
    pub line: [(f32, f32); 2],
    /// The reading as shown, one line per row.
    pub text: Vec<String>,
}

/// A piece's footprint where it is drawn, as the viewer is shown it (with its facing): its
/// bases when the drawing shows them, else a point — so an enemy not identified measures
/// as a point and nothing hidden shows through its shape.
fn as_shown(d: &DrawPiece) -> Option<(Placed, Angle)> {
    let Place::Point { at, facing } = &d.place else {
        return None;
    };
    let placed = d
        .footprint
        .map_or_else(|| Placed::point(*at), |f| f.place(*at, *facing));
    Some((placed, *facing))
}

fn arc_word(a: Arc) -> &'static str {
    match a {
        Arc::Front => "front",
        Arc::Flank => "flank",
        Arc::Rear => "rear",
        Arc::Same => "same place",
    }
}

fn shown_name(d: &DrawPiece) -> String {
    if d.name.is_empty() {
        "a hidden piece".into()
    } else {
        d.name.clone()
    }
}

/// The nearest two points of two footprints, in inches.
fn nearest(a: &Placed, b: &Placed) -> [(f32, f32); 2] {
    let pos = |p: Point| Pos2::new(inches(p.x), inches(p.y));
    let (pa, pb) = (a.corners.map(pos), b.corners.map(pos));
    let mut best = (f32::INFINITY, [pa[0], pb[0]]);
    for (from, to, flip) in [(pa, pb, false), (pb, pa, true)] {
        for p in from {
            for i in 0..4 {
                let q = closest_on_segment(p, to[i], to[(i + 1) % 4]);
                let d = p.distance(q);
                if d < best.0 {
                    best = (d, if flip { [q, p] } else { [p, q] });
                }
            }
        }
    }
    best.1.map(|p| (p.x, p.y))
}

/// The tape measure from `from` to `to` (both on the open table), or `None` when either is
/// elsewhere.
#[must_use]
pub fn measure(
    (rules, board): (&Rules, &Board),
    from: &DrawPiece,
    to: &DrawPiece,
) -> Option<Measurement> {
    let ((fa, facing_a), (fb, facing_b)) = (as_shown(from)?, as_shown(to)?);
    let gap = fa.distance(&fb);
    let table = gap.0 as f64 / 1000.0;
    let rule_inches = match &rules.geometry {
        GeometryRules::Open { scale } if scale.num > 0 => {
            table * f64::from(scale.den) / f64::from(scale.num)
        }
        _ => table,
    };
    let edge_to_edge = !(fa.is_point() && fb.is_point());
    let arcs = rules.arcs;
    let arc_of_to = fa.arc(facing_a, &fb, arcs);
    let arc_of_from = fb.arc(facing_b, &fa, arcs);
    let from_sees = grognard_kernel::game::footprints_see(rules, board, &fa, &fb);
    let to_sees = grognard_kernel::game::footprints_see(rules, board, &fb, &fa);
    let (na, nb) = (shown_name(from), shown_name(to));
    let yes = |x: bool| if x { "yes" } else { "no" };
    let text = vec![
        format!(
            "{na} → {nb}: {table:.2}\" on the table ({}), {rule_inches:.2}\" in rule inches",
            if edge_to_edge {
                "edge to edge"
            } else {
                "centre to centre"
            }
        ),
        format!(
            "{nb} in {} {} arc · {na} in {} {} arc",
            crate::words::possessive(&na),
            arc_word(arc_of_to),
            crate::words::possessive(&nb),
            arc_word(arc_of_from)
        ),
        format!(
            "{na} sees {nb}: {} · {nb} sees {na}: {}",
            yes(from_sees),
            yes(to_sees)
        ),
    ];
    Some(Measurement {
        from: from.id,
        to: to.id,
        gap,
        rule_inches,
        edge_to_edge,
        arc_of_to,
        arc_of_from,
        from_sees,
        to_sees,
        line: nearest(&fa, &fb),
        text,
    })
}

/// Draws a reading: the tape between the nearest points, and the text beside the pointer
/// (kept inside `clip`).
pub fn paint_measure(
    painter: &egui::Painter,
    t: &Transform,
    m: &Measurement,
    pointer: Pos2,
    clip: Rect,
) {
    let [a, b] = m.line.map(|(x, y)| t.to_screen(x, y));
    if m.gap > Len::ZERO {
        let tape = Stroke::new(2.0, Color32::from_rgb(30, 30, 30));
        painter.line_segment([a, b], Stroke::new(4.0, Color32::WHITE));
        painter.line_segment([a, b], tape);
        painter.circle_filled(a, 3.0, Color32::from_rgb(30, 30, 30));
        painter.circle_filled(b, 3.0, Color32::from_rgb(30, 30, 30));
    }
    let galley = painter.layout_no_wrap(
        m.text.join("\n"),
        egui::FontId::proportional(13.0),
        Color32::WHITE,
    );
    let r = reading_rect(galley.size(), pointer, clip, &tooltip_rects(painter.ctx()));
    painter.ctx().data_mut(|d| d.insert_temp(reading_id(), r));
    painter.rect_filled(r.expand(4.0), 3.0, Color32::from_black_alpha(200));
    painter.galley(r.min, galley, Color32::WHITE);
}

fn reading_id() -> egui::Id {
    egui::Id::unique("grognard tape reading")
}

/// Where the last tape reading was drawn on screen (its text), for tests and tools.
#[must_use]
pub fn last_reading_rect(ctx: &egui::Context) -> Option<Rect> {
    ctx.data(|d| d.get_temp(reading_id()))
}

/// The hover cards (tooltips) on screen now or in the last frame.
fn tooltip_rects(ctx: &egui::Context) -> Vec<Rect> {
    ctx.memory(|m| {
        m.areas()
            .visible_layer_ids()
            .into_iter()
            .filter(|l| l.order == egui::Order::Tooltip)
            .filter_map(|l| m.area_rect(l.id))
            .collect()
    })
}

/// Where a tape reading of `size` goes beside the `pointer`, inside `clip`, clear of every
/// rectangle in `avoid` (the hover card egui puts under the pointer): above and to the
/// right first, so it does not jump when the card appears below; then below, then to the
/// left; if every place is covered, the one covered least.
#[must_use]
pub fn reading_rect(size: Vec2, pointer: Pos2, clip: Rect, avoid: &[Rect]) -> Rect {
    const GAP: f32 = 16.0;
    let candidates = [
        pointer + Vec2::new(GAP, -GAP - size.y),
        pointer + Vec2::new(GAP, GAP),
        pointer + Vec2::new(-GAP - size.x, -GAP - size.y),
        pointer + Vec2::new(-GAP - size.x, GAP),
    ]
    .map(|min| keep_inside(Rect::from_min_size(min, size), clip));
    let covered = |r: &Rect| -> f32 {
        avoid
            .iter()
            .map(|a| {
                let i = a.intersect(r.expand(4.0));
                if i.is_positive() { i.area() } else { 0.0 }
            })
            .sum()
    };
    candidates
        .iter()
        .find(|r| covered(r) <= 0.0)
        .copied()
        .unwrap_or_else(|| {
            candidates
                .into_iter()
                .min_by(|a, b| covered(a).total_cmp(&covered(b)))
                .unwrap_or(candidates[0])
        })
}

/// `r` moved (not resized) to lie inside `clip` as far as it can, 4 points from its edges.
fn keep_inside(mut r: Rect, clip: Rect) -> Rect {
    let inner = clip.shrink(4.0);
    if r.right() > inner.right() {
        r = r.translate(Vec2::new(inner.right() - r.right(), 0.0));
    }
    if r.left() < inner.left() {
        r = r.translate(Vec2::new(inner.left() - r.left(), 0.0));
    }
    if r.bottom() > inner.bottom() {
        r = r.translate(Vec2::new(0.0, inner.bottom() - r.bottom()));
    }
    if r.top() < inner.top() {
        r = r.translate(Vec2::new(0.0, inner.top() - r.top()));
    }
    r
}
