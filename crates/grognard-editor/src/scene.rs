//! What a board frame is made of, shared by the board ([`crate::board`]) and the open
//! table's bases ([`crate::bases`]) and kept below both: a piece as one viewer sees it
//! ([`DrawPiece`]), the overlay, the scene, the board-to-screen [`Transform`], side
//! colours and the label drawn on a counter or base ([`piece_galley`]: fitted to the
//! space it has, the full text kept for hover).

use egui::{Color32, Pos2, Vec2};
use grognard_kernel::board::Board;
use grognard_kernel::geometry::footprint::{Footprint, Placed};
use grognard_kernel::geometry::open::{Angle, Len, Point};
use grognard_kernel::geometry::{Cell, Facing};
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::piece::Place;
use grognard_kernel::rules::Rules;

/// How a piece is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Face up: type, name, mode and markers.
    Open,
    /// Face down (a hidden block): only the owner's colour.
    FaceDown,
    /// Where the enemy was last seen, no longer in sight.
    Ghost,
}

/// Which way a piece faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FacingMark {
    /// A grid direction.
    Grid(Facing),
    /// An angle on an open table.
    Angle(Angle),
}

/// A piece as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawPiece {
    /// The piece.
    pub id: PieceId,
    /// Owner.
    pub side: SideId,
    /// Its name as shown ("b1"), empty when face down.
    pub name: String,
    /// Its type as shown ("infantry"), empty when face down.
    pub kind: String,
    /// Where.
    pub place: Place,
    /// Which way it faces, when that is shown.
    pub facing: Option<FacingMark>,
    /// Its mode, when shown.
    pub mode: String,
    /// Hits and status markers ("hits 1", "shaken").
    pub markers: Vec<String>,
    /// How it is drawn.
    pub look: Look,
    /// On the open table: its bases (the footprint of its type in its mode), when the
    /// viewer is shown them (`None`: drawn as a counter at its point).
    pub footprint: Option<Footprint>,
}

/// What to draw besides the board and pieces.
#[derive(Clone, Debug, Default)]
pub struct Overlay {
    /// Reachable cells and their cost text.
    pub reach_cells: Vec<(Cell, String)>,
    /// On an open table: the piece's position and how far it may go, in inches.
    pub reach_radius: Option<(Point, f32)>,
    /// On an open table, for a piece with bases: its footprint where it stands and its
    /// facing; the reach is then drawn as the area the bases can cover.
    pub reach_base: Option<(Placed, Angle)>,
    /// Cells of the path being planned.
    pub path: Vec<Cell>,
    /// The selected piece.
    pub selected: Option<PieceId>,
    /// Cells of the pieces the selected piece's legal actions may target.
    pub targets: Vec<Cell>,
    /// On an open table: the pieces the selected piece's legal actions may target (ringed
    /// where they stand, as `targets` are on a grid).
    pub target_pieces: Vec<PieceId>,
    /// On an open table: the legal destinations offered for the selected piece.
    pub destinations: Vec<Point>,
    /// On an open table: the piece that may be dragged to a new place (or turned by its
    /// handle); a drop is returned as a [`BaseDrop`].
    pub draggable: Option<PieceId>,
    /// On a hex board whose ruleset lets an option open the baseline half-hexes: whether
    /// the game opened them (closed half-hexes are drawn greyed).
    pub open_baselines: bool,
}

/// A piece dropped on the open table after a drag: the move it proposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseDrop {
    /// The piece.
    pub piece: PieceId,
    /// Where its centre would stand.
    pub to: Point,
    /// Which way it would face (`None`: as it does).
    pub facing: Option<Angle>,
}

/// The mapping between board units (cells one unit apart, or inches) and the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Screen position of board (0, 0).
    pub origin: Pos2,
    /// Screen points per board unit.
    pub scale: f32,
}

impl Transform {
    /// A board position on screen.
    #[must_use]
    pub fn to_screen(&self, x: f32, y: f32) -> Pos2 {
        self.origin + Vec2::new(x, y) * self.scale
    }

    /// A screen position on the board.
    #[must_use]
    pub fn to_board(&self, p: Pos2) -> (f32, f32) {
        let v = (p - self.origin) / self.scale;
        (v.x, v.y)
    }
}

pub(crate) fn inches(l: Len) -> f32 {
    l.0 as f32 / 1000.0
}

/// A side's colour.
#[must_use]
pub fn side_color(side: SideId) -> Color32 {
    const COLORS: [Color32; 6] = [
        Color32::from_rgb(52, 92, 168),
        Color32::from_rgb(178, 48, 48),
        Color32::from_rgb(60, 130, 70),
        Color32::from_rgb(190, 140, 30),
        Color32::from_rgb(110, 70, 150),
        Color32::from_rgb(40, 40, 40),
    ];
    COLORS[side.index() % COLORS.len()]
}

/// Everything the board needs to draw one frame.
pub struct BoardScene<'a> {
    /// The rules (terrain and feature kinds).
    pub rules: &'a Rules,
    /// The board.
    pub board: &'a Board,
    /// Terrain colours, by terrain id.
    pub terrain_colors: &'a [Color32],
    /// The pieces to draw.
    pub pieces: &'a [DrawPiece],
    /// Reach, path, selection.
    pub overlay: &'a Overlay,
}

/// A piece's whole label, one item a line: its name and mode, then its markers — what a
/// counter shows when there is room, and what hovering over it always shows.
#[must_use]
pub fn label_lines(p: &DrawPiece) -> Vec<String> {
    let mut first = p.name.clone();
    if let Some(m) = p.mode.chars().next() {
        first.push(' ');
        first.push(m.to_ascii_uppercase());
    }
    let mut lines = vec![first];
    lines.extend(p.markers.iter().cloned());
    lines.retain(|l| !l.trim().is_empty());
    lines
}

/// The colour text must have to be read on `fill`: black on light fills, white on dark.
#[must_use]
pub fn text_on(fill: Color32) -> Color32 {
    let [r, g, b, _] = fill.to_array();
    let luma = 0.299 * f32::from(r) + 0.587 * f32::from(g) + 0.114 * f32::from(b);
    if luma > 150.0 {
        Color32::BLACK
    } else {
        Color32::WHITE
    }
}

/// `lines` fitted to a box `width` × `height` points in `font`: a counter's amount too
/// long for the width shortened (`figures 6` to `fig 6` or `f6`), any other line cut with
/// `…` to the width, and lines that do not fit replaced by one `…` (kept beside an amount
/// that falls on the last row: `hits 1 …`).
///
/// A line of several words (`out of command`) is cut between words (`out of…`). A
/// one-word line is cut in its middle, keeping more of its end than its start: names of one
/// family differ at their end (`adum1`, `adum2`), so `ad…m1` and `ad…m2` still tell them
/// apart where `adu…` would not.
#[must_use]
pub fn fit_lines(
    ctx: &egui::Context,
    lines: &[String],
    font: &egui::FontId,
    width: f32,
    height: f32,
) -> Vec<String> {
    let measure = |t: &str| text_width(ctx, t, font);
    let row = ctx.fonts_mut(|f| f.row_height(font)).max(1.0);
    let rows = ((height / row).floor() as usize).max(1);
    let mut out: Vec<String> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        // The name line is never given up for the mark that more follows: a counter one
        // row high carries its name ("#8"), not "…" (a player met an enemy labelled so).
        if i > 0 && out.len() + 1 == rows && i + 1 < lines.len() {
            // The last row: a counter's amount (`hits 1`) is worth keeping there, with the
            // mark that more follows, when the two fit (`hits 1 …`, `h1 …`); a word-only
            // line after it (`seen`) is left to the hover card.
            let shorter = abbreviations(line);
            // A mode letter on a line of its own (a name too wide for it) is kept too.
            let amount = (!shorter.is_empty() || line.chars().count() == 1)
                .then(|| {
                    std::iter::once(line.clone())
                        .chain(shorter)
                        .map(|t| format!("{t} …"))
                        .find(|t| measure(t) <= width)
                })
                .flatten();
            out.push(amount.unwrap_or_else(|| "…".to_owned()));
            break;
        }
        let mut text = line.clone();
        if measure(&text) > width
            && let Some(short) = abbreviations(line)
                .into_iter()
                .find(|c| measure(c) <= width)
        {
            // A counter's amount (`figures 6`) reads better as `fig 6` than as `f…res 6`.
            text = short;
        } else if measure(&text) > width {
            // A mode letter after the name (`adum1 S`) is kept whole; the name is cut.
            let (stem, suffix) = match line.rsplit_once(' ') {
                Some((stem, letter)) if letter.chars().count() == 1 && !stem.is_empty() => {
                    (stem, format!(" {letter}"))
                }
                _ => (line.as_str(), String::new()),
            };
            let chars: Vec<char> = stem.chars().collect();
            text = "…".to_owned();
            // Words are cut between words ("out of…"), never inside one ("ou…and"):
            // a word cut in two reads as another word.
            if let Some(cut) = cut_between_words(stem, &suffix, width, &measure) {
                out.push(cut);
                continue;
            }
            // A marker of one word is cut no more than one of several: "di…rbed" for
            // "disturbed" read as no word (twelfth player, finding 5). Only the name is
            // cut inside, its end kept (`ad…m1`).
            if i > 0 || stem.split(' ').filter(|w| !w.is_empty()).count() > 1 {
                // Not even its first word fits: a word cut inside it ("aw…ate" for
                // "awaiting fate") reads as no word at all; "…" says more is on hover.
                out.push("…".to_owned());
                if out.len() >= rows {
                    break;
                }
                continue;
            }
            for keep in (1..chars.len()).rev() {
                let candidate = elide_middle(&chars, keep) + &suffix;
                if measure(&candidate) <= width {
                    text = candidate;
                    break;
                }
            }
        }
        out.push(text);
        // A counter one row high holds its name alone; the hover card has the rest, and a
        // "…" after the name says there is more (a player read "b3 U" on a counter with a
        // hit and took it for unhurt).
        if out.len() >= rows {
            if i + 1 < lines.len()
                && let Some(last) = out.last_mut()
            {
                mark_more(last, width, &measure);
            }
            break;
        }
    }
    out
}

/// `line` given a trailing " …" (more is left out), its mode letter dropped to make room
/// if need be (the name is never cut for it); unchanged when neither fits.
fn mark_more(line: &mut String, width: f32, measure: &impl Fn(&str) -> f32) {
    if line.ends_with('…') {
        return;
    }
    let stem = match line.rsplit_once(' ') {
        Some((stem, letter)) if letter.chars().count() == 1 && !stem.is_empty() => stem,
        _ => line.as_str(),
    };
    let marked = [format!("{line} …"), format!("{stem} …")]
        .into_iter()
        .find(|m| measure(m) <= width);
    if let Some(marked) = marked {
        *line = marked;
    }
}

/// `stem` (words) cut after its last whole word that fits with `…` and `suffix` in
/// `width`; `None` for a single word or when not even the first fits.
fn cut_between_words(
    stem: &str,
    suffix: &str,
    width: f32,
    measure: &impl Fn(&str) -> f32,
) -> Option<String> {
    let words: Vec<&str> = stem.split(' ').filter(|w| !w.is_empty()).collect();
    if words.len() < 2 {
        return None;
    }
    (1..words.len())
        .rev()
        .map(|keep| format!("{}…{suffix}", words[..keep].join(" ")))
        .find(|c| measure(c) <= width)
}

/// Shorter forms of a counter's amount, `figures 6`: `fig 6`, then `f6`; a name of several
/// words by its initials (`cvs i 4`: `ci 4`, where `cvs 4` and `c4` told its three cvs
/// counters apart no more); none for a line that does not end in a number. The Play tab's
/// legend lists the forms ([`short_forms`]).
fn abbreviations(line: &str) -> Vec<String> {
    let Some((word, number)) = line.rsplit_once(' ') else {
        return Vec::new();
    };
    if number.parse::<i64>().is_err() || word.is_empty() {
        return Vec::new();
    }
    short_forms(word)
        .into_iter()
        .map(|short| {
            if short.chars().count() == 1 {
                format!("{short}{number}")
            } else {
                format!("{short} {number}")
            }
        })
        .collect()
}

/// The short names a counter named `name` (spaced: `figures`, `order changes`) may take on
/// a counter too small for its whole name: `fig` and `f`, or the initials of its words
/// (`oc`).
#[must_use]
pub fn short_forms(name: &str) -> Vec<String> {
    let words: Vec<&str> = name.split(' ').filter(|w| !w.is_empty()).collect();
    if words.len() > 1 {
        return vec![words.iter().filter_map(|w| w.chars().next()).collect()];
    }
    let chars: Vec<char> = name.chars().collect();
    let Some(first) = chars.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // A short word (`units`) is kept whole: `uni 4` reads worse than `units 4` or `u4`.
    if chars.len() > 5 {
        out.push(chars[..3].iter().collect());
    }
    out.push(first.to_string());
    out
}

fn text_width(ctx: &egui::Context, text: &str, font: &egui::FontId) -> f32 {
    ctx.fonts_mut(|f| f.layout_no_wrap(text.to_owned(), font.clone(), Color32::WHITE))
        .size()
        .x
}

/// `chars` cut to `keep` characters and a `…`: three fifths of them from the end.
fn elide_middle(chars: &[char], keep: usize) -> String {
    let tail = (keep * 3).div_ceil(5).min(keep);
    let head = keep - tail;
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[chars.len() - tail..]);
    out
}

/// The smallest font a label inside a counter shrinks to, the captions' own: below it a
/// name no longer reads (a player met brigadiers labelled "…1" in 5 points, and
/// square-blocks' counters at 1024×700 in 7). A label that does not fit at this size shows
/// less rather than smaller — the name without its mode letter, markers that do not fit as
/// "…" (the hover card has all) — and a counter whose name does not fit whole carries it as
/// a caption outside ([`Captions`]).
pub const SMALLEST_LABEL_FONT: f32 = CAPTION_FONT;

/// The font of a caption drawn outside a counter or base too small for its name.
pub const CAPTION_FONT: f32 = 9.0;

/// A label's starting font, in points per point of the size [`piece_galley`] is given.
pub const LABEL_FONT_PER_SIZE: f32 = 0.26;

/// Whether `p`'s name fits whole inside a box `room` (width, height) in a font of `points`
/// (a counter asks for [`SMALLEST_LABEL_FONT`], a base for [`CAPTION_FONT`]): if not, the
/// name goes in a caption outside.
#[must_use]
pub fn name_fits(ctx: &egui::Context, p: &DrawPiece, room: (f32, f32), points: f32) -> bool {
    let font = egui::FontId::proportional(points);
    let row = ctx.fonts_mut(|f| f.row_height(&font));
    p.name.is_empty() || (text_width(ctx, &p.name, &font) <= room.0 - 4.0 && row <= room.1 - 2.0)
}

/// The captions of one board frame: names drawn beside counters and bases too small to
/// carry them, on a dark backdrop. They are placed once every piece is drawn, so each
/// knows every label drawn inside a piece ([`Captions::label`]): a caption goes below its
/// piece, else above, else beside it, moved past what is in the way, and is never drawn
/// over another piece's label (at 1024×700 a black-powder caption hid its neighbour's
/// name); one with no such place is left out (the hover card names the piece). Two
/// captions keep apart where they can. They are drawn after every piece, so no counter
/// covers a caption.
#[derive(Default)]
pub struct Captions {
    labels: Vec<egui::Rect>,
    pending: Vec<(std::sync::Arc<egui::Galley>, egui::Rect, bool)>,
}

/// The most markers a caption names; the rest are counted.
const CAPTION_MARKERS: usize = 2;

impl Captions {
    /// Adds `p`'s caption (its name and mode letter, whole) beside `under`, its counter or
    /// base on screen: below it first — or above first when `above` (its front, with the
    /// facing mark, is at the bottom: a caption there would cover the mark).
    pub fn add(&mut self, ctx: &egui::Context, p: &DrawPiece, under: egui::Rect, above: bool) {
        let Some(mut line) = label_lines(p).into_iter().next() else {
            return;
        };
        // Damage and status go with the name: a base too thin to hold its label showed
        // "b_line3 F" for a base with 6 hits and shaken.
        // At most two, then how many more: a black-powder brigadier's every flag ran its
        // caption across the board and under other counters (tenth player F12); the
        // hover card and the piece panel list them all.
        if !p.markers.is_empty() {
            let shown: Vec<&str> = p
                .markers
                .iter()
                .take(CAPTION_MARKERS)
                .map(String::as_str)
                .collect();
            // Apart by "; ": a marker may hold a comma of its own ("real, not a dummy"
            // read as two markers; eleventh player F6).
            line = format!("{line} · {}", shown.join("; "));
            let rest = p.markers.len().saturating_sub(CAPTION_MARKERS);
            if rest > 0 {
                line = format!("{line}; +{rest} more");
            }
        }
        let font = egui::FontId::proportional(CAPTION_FONT);
        let galley = ctx.fonts_mut(|f| f.layout_no_wrap(line, font, Color32::WHITE));
        self.pending.push((galley, under, above));
    }

    /// A label drawn inside a piece at `r` on screen: no caption is drawn over it.
    pub fn label(&mut self, r: egui::Rect) {
        self.labels.push(r);
    }

    /// The captions' shapes, to draw over the pieces.
    #[must_use]
    pub fn into_shapes(self) -> Vec<egui::Shape> {
        self.into_shapes_within(egui::Rect::EVERYTHING)
    }

    /// The captions' shapes, each moved sideways into `board` (the board's part of the
    /// window) when it would run past its edge: at 800×600 hex-command's "kern F · cvs i
    /// 4, …" ran on under the right panel (the ninth outside player's F9).
    #[must_use]
    pub fn into_shapes_within(self, board: egui::Rect) -> Vec<egui::Shape> {
        let mut placed: Vec<egui::Rect> = Vec::new();
        let mut shapes = Vec::new();
        for (galley, under, above) in self.pending {
            let size = galley.size() + Vec2::new(4.0, 0.0);
            let Some(mut r) =
                caption_place_within(size, under, above, (&self.labels, &placed), board.y_range())
            else {
                continue;
            };
            if r.max.x > board.max.x {
                r = r.translate(Vec2::new(
                    (board.max.x - r.max.x).max(board.min.x - r.min.x),
                    0.0,
                ));
            } else if r.min.x < board.min.x {
                r = r.translate(Vec2::new(board.min.x - r.min.x, 0.0));
            }
            placed.push(r);
            shapes.push(egui::Shape::rect_filled(
                r,
                2.0,
                Color32::from_black_alpha(170),
            ));
            shapes.push(egui::Shape::Text(egui::epaint::TextShape::new(
                r.min + Vec2::new(2.0, 0.0),
                galley,
                Color32::WHITE,
            )));
        }
        shapes
    }
}

/// Where a caption of `size` goes beside `under`: the first place clear of every label and
/// caption among below, above (these two swapped when `above`), right and left, each
/// moved a few steps outwards past what is in the way — a caption far from its piece
/// would mislead. Failing that, the first place clear of labels though it meets another
/// caption; `None` when every place covers a label.
#[must_use]
pub fn caption_place(
    size: Vec2,
    under: egui::Rect,
    above: bool,
    labels: &[egui::Rect],
    captions: &[egui::Rect],
) -> Option<egui::Rect> {
    caption_place_within(
        size,
        under,
        above,
        (labels, captions),
        egui::Rangef::EVERYTHING,
    )
}

/// [`caption_place`] with no place crossing the board's top or bottom edge (`rows`, its
/// height on screen): stacked under a cell of the bottom row, square-blocks' third
/// caption ran off the board (twelfth player, finding 8); such a place counts as one over
/// a label, so the caption goes above or beside.
fn caption_place_within(
    size: Vec2,
    under: egui::Rect,
    above: bool,
    (labels, captions): (&[egui::Rect], &[egui::Rect]),
    rows: egui::Rangef,
) -> Option<egui::Rect> {
    let c = under.center();
    let below_r = egui::Rect::from_min_size(Pos2::new(c.x - size.x / 2.0, under.max.y + 2.0), size);
    let above_r = egui::Rect::from_min_size(
        Pos2::new(c.x - size.x / 2.0, under.min.y - 2.0 - size.y),
        size,
    );
    let right_r = egui::Rect::from_min_size(Pos2::new(under.max.x + 2.0, c.y - size.y / 2.0), size);
    let left_r = egui::Rect::from_min_size(
        Pos2::new(under.min.x - 2.0 - size.x, c.y - size.y / 2.0),
        size,
    );
    let (first, second) = if above {
        (above_r, below_r)
    } else {
        (below_r, above_r)
    };
    // Each start with the way it moves past an obstacle `o`.
    type Step = fn(egui::Rect, egui::Rect) -> Vec2;
    // Two points of air: one left two captions touching (twelfth player, finding 8).
    let down: Step = |r, o| Vec2::new(0.0, o.max.y + 2.0 - r.min.y);
    let up: Step = |r, o| Vec2::new(0.0, o.min.y - 2.0 - r.max.y);
    let right: Step = |r, o| Vec2::new(o.max.x + 1.0 - r.min.x, 0.0);
    let left: Step = |r, o| Vec2::new(o.min.x - 1.0 - r.max.x, 0.0);
    let starts: [(egui::Rect, Step); 4] = [
        (first, if above { up } else { down }),
        (second, if above { down } else { up }),
        (right_r, right),
        (left_r, left),
    ];
    let meets = |r: egui::Rect, set: &[egui::Rect]| set.iter().find(|o| o.intersects(r)).copied();
    // Past the board's edge counts as over a label: the step moves it on, never taken.
    let on_label = |r: egui::Rect| {
        let off = r.min.y < rows.min || r.max.y > rows.max;
        if off { Some(r) } else { meets(r, labels) }
    };
    let mut fallback = None;
    for (start, step) in starts {
        let mut r = start;
        for _ in 0..4 {
            match on_label(r).or_else(|| meets(r, captions)) {
                None => return Some(r),
                Some(o) => {
                    if fallback.is_none() && on_label(r).is_none() {
                        fallback = Some(r);
                    }
                    r = r.translate(step(r, o));
                }
            }
        }
        if fallback.is_none() && on_label(r).is_none() {
            fallback = Some(r);
        }
    }
    fallback
}

/// A piece's label in a font for a counter `size` points across, laid out to fit a box
/// `room` (width, height) — elided; the whole label is [`label_lines`], shown on hover —
/// in `color`.
///
/// The font shrinks first (down to `floor`: [`SMALLEST_LABEL_FONT`] on a counter,
/// [`CAPTION_FONT`] on a base) until the name line fits whole; if it still does not, the
/// mode letter goes. The board asks [`name_fits`] first
/// and gives a counter too small for its name a caption instead, so the name is not cut.
pub fn piece_galley(
    ctx: &egui::Context,
    p: &DrawPiece,
    size: f32,
    floor: f32,
    room: (f32, f32),
    color: Color32,
) -> std::sync::Arc<egui::Galley> {
    let mut lines = label_lines(p);
    let (width, height) = (room.0 - 4.0, room.1 - 2.0);
    let mut points = (size * LABEL_FONT_PER_SIZE).clamp(floor, 14.0_f32.max(floor));
    loop {
        let font = egui::FontId::proportional(points);
        let fits = lines
            .first()
            .is_none_or(|first| text_width(ctx, first, &font) <= width);
        let tall_enough = ctx.fonts_mut(|f| f.row_height(&font)) <= height;
        if (fits && tall_enough) || points <= floor {
            // The mode letter that does not fit beside the name goes on the line under it
            // rather than nowhere: the hover card names "the F on the counter" (twelfth
            // player, finding 5).
            if !fits && !p.name.is_empty() && lines.first().is_some_and(|l| *l != p.name) {
                let letter = lines[0][p.name.len()..].trim().to_owned();
                lines[0] = p.name.clone();
                if !letter.is_empty() {
                    lines.insert(1, letter);
                }
            }
            let fitted = fit_lines(ctx, &lines, &font, width, height);
            return ctx.fonts_mut(|fonts| fonts.layout_no_wrap(fitted.join("\n"), font, color));
        }
        points = (points - 0.5).max(floor);
    }
}
