//! *Why the computer chose…*: the searching computer's account of its own recent orders
//! on the Play tab (issue 40; outside player E11) — for each order it gave since the
//! person's last, the order chosen and the orders it weighed most, each with how many of
//! its imagined games tried it and the mean score they earned, as `play --explain` prints
//! them, in the Play tab's words.
//!
//! In a game of hidden pieces the account tells what the searching side knows (its
//! orders name the pieces it has seen, where it thinks they are), so it is shown to a
//! person playing against it only once the game is over (at its end, and while stepping
//! through it); the referee's view, the computer side's own view and a view of a side
//! the computer also plays show it at once.

use egui::RichText;
use grognard_kernel::action::Action;
use grognard_kernel::ids::SideId;
use grognard_play::search::explain::Explanation;

use crate::view::ViewAs;

use super::EditorApp;
use crate::words::order_words;

/// Most decisions the panel lists (a computer's whole turn can be a dozen orders).
const MAX_SHOWN: usize = 8;

/// The search's account of one order it gave: the order's place in the game's orders,
/// its side and action (so an undone and replaced order loses its account).
pub(super) struct Explained {
    pub(super) at: usize,
    pub(super) side: SideId,
    pub(super) action: Action,
    pub(super) why: Explanation,
}

/// What the panel shows: the accounts to list, or why they are held back.
enum Shown<'a> {
    Listed(Vec<&'a Explained>),
    /// A hidden game seen by the side the computer plays against: after the game.
    Later(String),
}

impl EditorApp {
    /// The accounts of the computer's orders since a person's last (all computers: the
    /// latest), as the view may see them; `None` when there is none to show.
    fn explanations(&self) -> Option<Shown<'_>> {
        let session = self.rt.session.as_ref()?;
        let game = &session.game;
        let orders = session.orders();
        let players = &self.rt.play.players;
        let computer = |s: SideId| matches!(players.get(s.index()), Some(Some(_)));
        let run = orders.iter().rev().take_while(|o| computer(o.side)).count();
        let first = orders.len() - run;
        let mut listed: Vec<&Explained> = self
            .rt
            .play
            .explained
            .iter()
            .filter(|e| e.at >= first)
            .filter(|e| {
                orders
                    .get(e.at)
                    .is_some_and(|o| o.side == e.side && o.action == e.action)
            })
            .filter(|e| !e.why.considered.is_empty())
            .collect();
        if listed.is_empty() {
            return None;
        }
        listed.drain(..listed.len().saturating_sub(MAX_SHOWN));
        let over = game.phase().is_none() || self.reviewing();
        // Held back from a side a person plays, and only from it (two computers may be
        // watched from either side).
        let hidden_from = |s: SideId| match self.rt.play.view {
            ViewAs::Side(v) => game.sighting().is_some() && v != s && !computer(v) && !over,
            ViewAs::Referee => false,
        };
        if let Some(e) = listed.iter().find(|e| hidden_from(e.side)) {
            let name = game
                .sides()
                .get(e.side.index())
                .map_or("?", |d| d.name.as_str());
            return Some(Shown::Later(format!(
                "In a game of hidden pieces the computer's reasons tell what {name} knows: \
                 they are shown once the game is over (and while stepping through it), or \
                 at once in the referee's view."
            )));
        }
        Some(Shown::Listed(listed))
    }

    /// The collapsible panel under the computer's summary line.
    /// Open, it scrolls in at most `most` points, so the logs under it stay in sight.
    pub(super) fn why_ui(&self, ui: &mut egui::Ui, most: f32) {
        let Some(shown) = self.explanations() else {
            return;
        };
        let Some(session) = &self.rt.session else {
            return;
        };
        let game = &session.game;
        egui::CollapsingHeader::new("Why the computer chose…")
            .id_salt("why the computer chose")
            .default_open(false)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("why lines")
                    .max_height(most)
                    // Not egui's least 64 points: in a short window `most` is less.
                    .min_scrolled_height(most.min(64.0))
                    .auto_shrink([false, true])
                    .show(ui, |ui| why_lines(ui, game, shown));
            });
    }
}

/// The panel's lines: why they are held back, or the key and each decision.
fn why_lines(ui: &mut egui::Ui, game: &grognard_kernel::game::Game, shown: Shown<'_>) {
    match shown {
        Shown::Later(why) => {
            ui.add(egui::Label::new(why).wrap());
        }
        Shown::Listed(listed) => {
            ui.add(
                egui::Label::new(
                    "Each order the search weighed, with how many of its imagined \
                             games tried it (visits) and their mean score (−1 lost, +1 won). \
                             It keeps greedy's order unless another scores better by more than two \
                             standard errors, so the order chosen may show fewer visits.",
                )
                .wrap(),
            );
            for e in listed {
                decision_ui(ui, game, e);
            }
        }
    }
}

/// One decision: the order chosen, then the orders weighed, most visited first.
fn decision_ui(ui: &mut egui::Ui, game: &grognard_kernel::game::Game, e: &Explained) {
    let name = game
        .sides()
        .get(e.side.index())
        .map_or("?", |d| d.name.as_str());
    let chosen = e
        .why
        .considered
        .first()
        .map_or_else(String::new, |c| said_as_listed(&c.order));
    ui.label(
        RichText::new(format!(
            "{name} chose {chosen} ({} imagined games, {} ms)",
            e.why.iterations, e.why.millis
        ))
        .strong(),
    );
    ui.indent(("why", e.at), |ui| {
        // The order given is the first; the search says when it kept greedy's order, too
        // few imagined games having tried the others to overrule it (a chosen order at "1
        // visit, mean −1.000" beside others at +0.8 read as a bug: thirteenth player F19).
        let kept = e.why.kept_default;
        for (i, c) in e.why.considered.iter().enumerate() {
            let mark = if i == 0 { "chosen" } else { "weighed" };
            let note = if i == 0 && kept {
                " · kept: greedy's choice; too few imagined games to overrule it"
            } else {
                ""
            };
            ui.label(format!(
                "{mark}: {} — {}, mean {:+.3}{note}",
                said_as_listed(&c.order),
                crate::words::count(i64::from(c.visits), "visit"),
                c.mean
            ));
        }
    });
}

/// An order as the Play tab lists it, its piece first (`b1 → (5,5), 1 step`).
pub(super) fn said_as_listed(spec: &serde_json::Value) -> String {
    match order_words(spec) {
        (Some(piece), words) => format!("{piece} {words}"),
        (None, words) => words,
    }
}
