//! Stepping through a finished game on the Play tab: once the game is over (played here or
//! loaded from a save), the player steps back and forth over its orders and sees the board,
//! the phase bar and both logs as they stood after each one, read-only, then returns to the
//! end.
//!
//! The whole game is kept aside ([`Review::full`]) and a session of the position shown
//! ([`Session::position`], a replay from the start as an undo is) takes its place, so every
//! part of the tab draws that position by the code that draws the game. No order is given
//! meanwhile: the legal list is empty, the order buttons, *End phase* and *Undo* are greyed
//! with [`REVIEW_WHY`](super::commands::REVIEW_WHY), the computer waits, and *Save game…* saves the whole game.

use egui::RichText;
use grognard_rules::orders::describe_order_as;

use crate::session::Session;
use crate::words::order_words;

use super::{Command, EditorApp};

/// The width of the step row's label, the same whether stepping or not, so the buttons
/// after it keep their places.
const STEP_LABEL_WIDTH: f32 = 250.0;

/// A finished game being stepped through.
pub(super) struct Review {
    /// The whole game, kept aside while an earlier position is shown in its place.
    pub(super) full: Session,
    /// The position shown: after this many of its orders.
    pub(super) at: usize,
}

impl EditorApp {
    /// True while an earlier position of a finished game is shown.
    pub(super) fn reviewing(&self) -> bool {
        self.rt.play.review.is_some()
    }

    /// While stepping through a finished game: the position shown (after how many orders)
    /// and how many orders the game had.
    #[must_use]
    pub fn review_position(&self) -> Option<(usize, usize)> {
        let r = self.rt.play.review.as_ref()?;
        Some((r.at, r.full.orders().len()))
    }

    /// The whole game: the one in play, or the finished one being stepped through (what
    /// *Save game…* writes).
    pub(super) fn whole_session(&self) -> Option<&Session> {
        match &self.rt.play.review {
            Some(r) => Some(&r.full),
            None => self.rt.session.as_ref(),
        }
    }

    /// Why an order is not offered now: [`REVIEW_WHY`](super::commands::REVIEW_WHY) while stepping through, else who
    /// acts or that the legal list lacks it.
    pub(super) fn why_not_now(&self) -> String {
        self.why_not_now_for(false)
    }

    /// [`Self::why_not_now`], of ending the phase when `end_phase`.
    pub(super) fn why_not_now_for(&self, end_phase: bool) -> String {
        if self.reviewing() {
            super::commands::REVIEW_WHY.to_owned()
        } else if let Some(s) = self
            .rt
            .session
            .as_ref()
            .filter(|_| self.rt.play.screen_hidden)
        {
            format!(
                "the screen is passed to {}: Show board first",
                self.screen_passed_to(&s.game)
            )
        } else {
            self.why_not_for(end_phase)
        }
    }

    /// Shows the finished game after its first `k` orders (`None`, or `k` at its end: the
    /// game as it ended, and stepping is over).
    pub(super) fn review_to(&mut self, k: Option<usize>) {
        if self.rt.play.review.is_none() {
            let Some(s) = &self.rt.session else {
                return;
            };
            if s.game.phase().is_some() {
                return self.fail(
                    "only a finished game can be stepped through: the game goes on".to_owned(),
                );
            }
            if k.is_none_or(|k| k >= s.orders().len()) {
                return;
            }
        }
        let n = self.whole_session().map_or(0, |s| s.orders().len());
        let k = k.unwrap_or(n).min(n);
        if k == n {
            if let Some(r) = self.rt.play.review.take() {
                self.rt.session = Some(r.full);
            }
            self.after_review_step();
            return self.say("back at the end of the game");
        }
        if self.rt.play.review.is_none()
            && let Some(full) = self.rt.session.take()
        {
            self.rt.play.review = Some(Review { full, at: n });
        }
        let Some(review) = &mut self.rt.play.review else {
            return;
        };
        // One step on is one order given to the position shown; any other step replays
        // from the start.
        let shown = match self.rt.session.take() {
            Some(mut s) if k == review.at + 1 => {
                let order = review.full.orders()[review.at].clone();
                s.apply(order).map(|_| s)
            }
            _ => review.full.position(k),
        };
        match shown {
            Ok(s) => {
                self.rt.session = Some(s);
                review.at = k;
                self.after_review_step();
                let said = self.review_line();
                self.say(said);
            }
            Err(e) => {
                if let Some(r) = self.rt.play.review.take() {
                    self.rt.session = Some(r.full);
                }
                self.after_review_step();
                self.fail(format!("cannot show that position: {e}"));
            }
        }
    }

    /// After a step: the planned path and a pending order go; a selected piece stays when
    /// the position shown has it.
    fn after_review_step(&mut self) {
        self.rt.play.path.clear();
        self.rt.play.pending = None;
        if !self.selected_on_board() {
            self.rt.play.selected = None;
        }
        self.refresh_reach();
    }

    /// Where the stepping stands, in words: the position and the order that led to it.
    fn review_line(&self) -> String {
        let (Some((at, n)), Some(shown)) = (self.review_position(), &self.rt.session) else {
            return String::new();
        };
        if at == 0 {
            return format!("the start of the game (0 of {n} orders)");
        }
        let Some(order) = shown.orders().get(at - 1) else {
            return String::new();
        };
        let game = &shown.game;
        let side = game
            .sides()
            .get(order.side.index())
            .map_or("?", |s| s.name.as_str());
        // Seen as a side in a game of hidden pieces, the other side's orders are not told
        // (its log says what that side saw of them); its own are named as it knows them.
        let viewer = match self.rt.play.view {
            crate::view::ViewAs::Side(v) => Some(v),
            crate::view::ViewAs::Referee => None,
        };
        if viewer.is_some_and(|v| v != order.side) && game.sighting().is_some() {
            return format!("after order {at} of {n}: {side}'s order");
        }
        let spec = serde_json::to_value(describe_order_as(game, order, viewer)).unwrap_or_default();
        let words = match order_words(&spec) {
            (Some(piece), words) => format!("{piece} {words}"),
            (None, words) => words,
        };
        format!("after order {at} of {n}: {side}, {words}")
    }

    /// The phase bar's row while stepping through: where it stands, and the steps.
    pub(super) fn review_bar(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some((at, n)) = self.review_position() else {
            return;
        };
        ui.horizontal_wrapped(|ui| {
            super::slot_label(
                ui,
                RichText::new("Stepping through (read-only):").strong(),
                STEP_LABEL_WIDTH,
            )
            .on_hover_text("Stepping through the finished game: nothing can be ordered");
            self.step_buttons(ui, at, n, out);
        });
        ui.add(egui::Label::new(self.review_line()).wrap());
    }

    /// Under a finished game's result: the way into stepping through it.
    pub(super) fn review_offer(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(s) = &self.rt.session else {
            return;
        };
        let n = s.orders().len();
        if s.game.phase().is_some() || n == 0 {
            return;
        }
        ui.horizontal_wrapped(|ui| {
            let text = format!(
                "Step through the game ({}):",
                crate::words::count(n as i64, "order")
            );
            super::slot_label(ui, text.as_str(), STEP_LABEL_WIDTH).on_hover_text(text.as_str());
            self.step_buttons(ui, n, n, out);
        });
    }

    /// Start, Back, Forward and Back to the end, for the position `at` of `n`.
    fn step_buttons(&self, ui: &mut egui::Ui, at: usize, n: usize, out: &mut Vec<Command>) {
        let keys = "(keys: ← and →, Home and End)";
        if ui
            .add_enabled(at > 0, egui::Button::new("Start"))
            .on_hover_text(format!("The position before the first order {keys}"))
            .clicked()
        {
            out.push(Command::Review(Some(0)));
        }
        if ui
            .add_enabled(at > 0, egui::Button::new("◀ Back"))
            .on_hover_text(format!("One order back {keys}"))
            .clicked()
        {
            out.push(Command::Review(Some(at - 1)));
        }
        if ui
            .add_enabled(at < n, egui::Button::new("Forward ▶"))
            .on_hover_text(format!("One order on {keys}"))
            .clicked()
        {
            out.push(Command::Review(Some(at + 1)));
        }
        if ui
            .add_enabled(at < n, egui::Button::new("Back to the end"))
            .on_hover_text(format!("The game as it ended {keys}"))
            .clicked()
        {
            out.push(Command::Review(None));
        }
    }

    /// In the right panel while stepping through, in place of the legal orders.
    pub(super) fn review_note(&self, ui: &mut egui::Ui) {
        ui.label(RichText::new("No orders: stepping through the finished game").strong());
        ui.add(
            egui::Label::new(
                "The board, the phase bar and the logs show the game as it stood after the \
                 order named above the board. Select a piece to see it; nothing can be \
                 ordered. Back to the end returns to the game as it ended.",
            )
            .wrap(),
        );
    }
}
