//! The keyboard: Escape closes the open menu or the path prompt, else lets go of the
//! selected piece (its planned path and a pending cell order with it); Ctrl+Z (⌘Z) is
//! *Undo*, under the button's own rules; E is *End phase*, only when the button is
//! enabled (otherwise the status line says why, as its hover does); and while a finished
//! game can be stepped through, ← and → step one order back and on, Home and End go to its
//! start and back to its end. No key acts while a text field has the keyboard.

use egui::{Key, Modifiers};

use super::{Command, EditorApp, Tab};

/// The key that ends the phase, as the *End phase* button's hover names it.
pub(super) const END_PHASE_KEY: &str = "E";

/// What the frame began with, before its widgets took their keys: an open menu (which
/// closes on Escape by itself) and a text field with the keyboard.
#[derive(Clone, Copy, Debug)]
pub(super) struct KeysBefore {
    popup: bool,
    typing: bool,
}

impl KeysBefore {
    pub(super) fn read(ctx: &egui::Context) -> Self {
        Self {
            popup: egui::Popup::is_any_open(ctx),
            typing: ctx.text_edit_focused(),
        }
    }
}

impl EditorApp {
    /// The keys pressed this frame, as commands (applied with the frame's others).
    pub(super) fn keys(&mut self, ctx: &egui::Context, before: KeysBefore, out: &mut Vec<Command>) {
        if before.typing {
            return;
        }
        let pressed = |key: Key| ctx.input(|i| i.key_pressed(key) && i.modifiers.is_none());
        if pressed(Key::Escape) && !before.popup {
            if self.rt.prompt.is_some() {
                out.push(Command::CancelAsk);
            } else if self.saved.tab == Tab::Play
                && (self.rt.play.selected.is_some() || self.rt.play.pending.is_some())
            {
                out.push(Command::Select(None));
            }
        }
        if self.saved.tab != Tab::Play || self.rt.session.is_none() {
            return;
        }
        if self.rt.play.screen_hidden {
            // E behind the hot-seat screen said nothing (tenth player F13).
            if pressed(Key::E) {
                self.refuse_end_phase();
            }
            return;
        }
        if ctx.input(|i| i.modifiers.command_only() && i.key_pressed(Key::Z)) {
            // The button's rules: a locked or foreign order is refused with its reason.
            out.push(Command::Undo);
        }
        if pressed(Key::E) {
            if self.may_end_phase() {
                out.push(Command::EndPhase);
            } else {
                self.refuse_end_phase();
            }
        }
        self.step_keys(ctx, out);
    }

    /// Says in the status line why End phase is not offered now, and remembers the
    /// refusal so that it goes once End phase is offered again.
    pub(super) fn refuse_end_phase(&mut self) {
        let why = self.why_not_now_for(true);
        let text = format!("End phase is not offered now: {why}");
        self.fail(text.clone());
        self.rt.play.end_refusal = Some(text);
    }

    /// Clears a refusal of End phase still in the status line once End phase is offered
    /// (eleventh player F4: pressed as the computer took its turn, the red refusal stayed
    /// beside an enabled End phase). Any other status line is left as it is.
    pub(super) fn forget_end_refusal(&mut self) {
        let Some(refusal) = &self.rt.play.end_refusal else {
            return;
        };
        let shown = self.rt.status.as_ref().is_some_and(|s| s.text == *refusal);
        if !shown {
            self.rt.play.end_refusal = None;
        } else if self.may_end_phase() {
            self.rt.status = None;
            self.rt.play.end_refusal = None;
        }
    }

    /// ← → Home End over a finished game's orders.
    fn step_keys(&self, ctx: &egui::Context, out: &mut Vec<Command>) {
        let n = match (self.review_position(), self.session()) {
            (Some((_, n)), _) => n,
            (None, Some(s)) if s.game.phase().is_none() => s.orders().len(),
            _ => return,
        };
        let at = self.review_position().map_or(n, |(at, _)| at);
        let pressed =
            |key: Key| ctx.input(|i| i.key_pressed(key) && i.modifiers == Modifiers::NONE);
        let to = if pressed(Key::ArrowLeft) && at > 0 {
            Some(Some(at - 1))
        } else if pressed(Key::ArrowRight) && at < n {
            Some(Some(at + 1))
        } else if pressed(Key::Home) && at > 0 {
            Some(Some(0))
        } else if pressed(Key::End) && at < n {
            Some(None)
        } else {
            None
        };
        if let Some(to) = to {
            out.push(Command::Review(to));
        }
    }
}
