//! Legal orders and the computer opponent on the Play tab: the side panel's list of the
//! orders the side in view may give (from the kernel's generator, the same list `grognard
//! legal` prints), the board highlights of the selected piece's legal destinations and
//! targets, and "Computer plays SIDE": a policy (random, greedy, search or a Lua file) that
//! gives that side's orders, one at a time, seeing only what that side knows.
//!
//! That one list is the Play tab's only signal of what is legal: the piece panel's buttons,
//! the reach shown (and "can reach N places"), the rings on targets, *End phase* and *Undo*
//! are all judged from it ([`EditorApp::legal_of`], [`EditorApp::may_move`],
//! [`EditorApp::why_not`]), so nothing is offered that the list does not hold.

use std::time::{Duration, Instant};

use egui::RichText;
use grognard_kernel::action::{Action, Order};
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::piece::Place;
use grognard_play::PolicyKind;
use grognard_play::search::explain::Explanation;
use grognard_rules::orders::describe_order_as;

use crate::board::Overlay;
use crate::view::ViewAs;
use crate::words::order_words;

use super::thinker::Computer;
use super::why::said_as_listed;
use super::{Command, EditorApp};

/// The pause between two computer orders, so a person can follow the game.
pub(super) const COMPUTER_PACE: Duration = Duration::from_millis(150);

/// How often the window looks for a thinking computer's answer.
const THINKING_POLL: Duration = Duration::from_millis(40);

/// Most orders listed in the side panel (an open table offers hundreds).
const MAX_LISTED: usize = 200;

impl EditorApp {
    /// Sets the pause between two computer orders (tests play at full speed).
    pub fn set_computer_pace(&mut self, pace: Duration) {
        self.rt.play.computer_pace = pace;
    }

    /// Whose eyes the board is drawn through.
    #[must_use]
    pub fn view_as(&self) -> ViewAs {
        self.rt.play.view
    }

    /// The side whose legal orders the panel lists: the side viewed, or the side to act.
    pub(super) fn legal_side(&self) -> Option<SideId> {
        match self.rt.play.view {
            ViewAs::Side(side) => Some(side),
            ViewAs::Referee => self.acting_side(),
        }
    }

    /// Recomputes the legal orders when the game or the side has changed.
    pub(super) fn refresh_legal(&mut self) {
        let side = self.legal_side();
        let Some(session) = &mut self.rt.session else {
            self.rt.play.legal.clear();
            self.rt.play.legal_key = None;
            return;
        };
        let Some(side) = side else {
            self.rt.play.legal.clear();
            self.rt.play.legal_key = None;
            return;
        };
        let key = (session.generation(), side);
        if self.rt.play.legal_key == Some(key) {
            return;
        }
        let list = session.legal(side);
        self.rt.play.legal = list
            .into_iter()
            .map(|action| {
                let order = Order {
                    side,
                    action: action.clone(),
                };
                let spec = describe_order_as(&session.game, &order, Some(side));
                // In a player's words, the destination first; the piece heads its group.
                let (_, text) = order_words(&serde_json::to_value(spec).unwrap_or_default());
                (action, text)
            })
            .collect();
        self.rt.play.legal_key = Some(key);
    }

    /// The legal orders of `piece` for the side in view.
    pub(super) fn legal_of(&self, piece: PieceId) -> impl Iterator<Item = &Action> + '_ {
        self.rt
            .play
            .legal
            .iter()
            .map(|(a, _)| a)
            .filter(move |a| a.piece() == Some(piece))
    }

    /// True when the side in view may move `piece` now (a legal move lists it).
    pub(super) fn may_move(&self, piece: PieceId) -> bool {
        self.legal_of(piece)
            .any(|a| matches!(a, Action::Move { .. } | Action::MoveTo { .. }))
    }

    /// True when the side in view may end the phase now.
    pub(super) fn may_end_phase(&self) -> bool {
        // Behind the hot-seat screen the side to act has not seen the board: its phase
        // is not ended for it (tenth player F13).
        !self.rt.play.screen_hidden
            && self
                .rt
                .play
                .legal
                .iter()
                .any(|(a, _)| *a == Action::EndPhase)
    }

    /// True when the side in view may take back the last order: no die has been rolled
    /// since it, and it is that side's own (the referee may take back any), as the server
    /// judges a seat's undo; and the computer is not thinking (its answer would land on
    /// the game as it was, so Undo waits for it rather than seem to do nothing).
    pub(super) fn may_undo(&self) -> bool {
        let Some(session) = &self.rt.session else {
            return false;
        };
        // A position of a finished game shown while stepping is read-only.
        if self.computer_thinking().is_some() || self.reviewing() {
            return false;
        }
        let Some(last) = session.orders().last() else {
            return false;
        };
        session.can_undo()
            && match self.rt.play.view {
                ViewAs::Referee => true,
                ViewAs::Side(side) => last.side == side,
            }
    }

    /// Why Undo is not offered now.
    pub(super) fn why_no_undo(&self) -> String {
        match self.computer_thinking() {
            Some(side) => {
                let name = self
                    .rt
                    .session
                    .as_ref()
                    .and_then(|s| s.game.sides().get(side.index()).map(|d| d.name.clone()))
                    .unwrap_or_default();
                format!(
                    "the computer is thinking for {name}: take back once it has given its order"
                )
            }
            None => {
                let Some(session) = &self.rt.session else {
                    return "no game open".to_owned();
                };
                let name = |s: SideId| {
                    session
                        .game
                        .sides()
                        .get(s.index())
                        .map_or_else(|| "?".to_owned(), |d| d.name.clone())
                };
                match (session.orders().last(), self.rt.play.view) {
                    (None, _) => "No order has been given yet: nothing to take back.".to_owned(),
                    // Locked by what it did (the shared takeback test's words), else the
                    // orders came with a loaded save and are not this sitting's to take back.
                    _ if !session.can_undo() => session.why_locked().map_or_else(
                        || {
                            "The game was loaded from a save: the orders in it are not taken \
                             back."
                                .to_owned()
                        },
                        str::to_owned,
                    ),
                    (Some(last), ViewAs::Side(side)) if last.side != side => format!(
                        "The last order is {}'s: a side takes back only its own (as the \
                         referee, any).",
                        name(last.side)
                    ),
                    _ => "Nothing to take back now.".to_owned(),
                }
            }
        }
    }

    /// Why an order the phase knows is not offered: the side in view does not act now,
    /// or it does but the kernel lists no such order.
    pub(super) fn why_not(&self) -> String {
        self.why_not_for(false)
    }

    /// [`Self::why_not`], of ending the phase when `end_phase`.
    pub(super) fn why_not_for(&self, end_phase: bool) -> String {
        let Some(session) = &self.rt.session else {
            return "no game".to_owned();
        };
        let game = &session.game;
        // At game over no side acts: "blue does not act now" read as if another did
        // (tenth player F4).
        if game.phase().is_none() {
            return "the game is over".to_owned();
        }
        let name = |s: SideId| {
            game.sides()
                .get(s.index())
                .map_or_else(|| "?".to_owned(), |d| d.name.clone())
        };
        let Some(side) = self.legal_side() else {
            return "the game is over".to_owned();
        };
        let to_act = game.to_act();
        if !to_act.contains(&side) {
            let who: Vec<String> = to_act.iter().map(|s| name(*s)).collect();
            return if who.is_empty() {
                format!("{} does not act now", name(side))
            } else {
                format!(
                    "{} does not act now: {} acts",
                    name(side),
                    who.join(" and ")
                )
            };
        }
        // Plain words (eleventh player F4: "not among blue's legal orders now; the Legal
        // orders list has them").
        if end_phase {
            format!("{} cannot end this phase now", name(side))
        } else {
            // No brackets: the piece panel puts this in its own ("cannot move now (…)").
            let side = name(side);
            format!(
                "{side} cannot give that order now; the Legal orders list shows what {side} can do"
            )
        }
    }

    /// The legal orders of the selected piece (all of them when none is selected), and
    /// `end_phase`.
    pub(super) fn legal_for_selected(&self) -> Vec<&(Action, String)> {
        self.rt
            .play
            .legal
            .iter()
            .filter(|(a, _)| match (self.rt.play.selected, a.piece()) {
                (Some(sel), Some(p)) => p == sel,
                (_, None) | (None, _) => true,
            })
            .collect()
    }

    /// Adds the selected piece's legal destinations and targets to `o`; the reach drawn
    /// is cut to the cells a legal move ends in (none when it may not move now).
    pub(super) fn legal_overlay(&self, o: &mut Overlay) {
        let Some(sel) = self.rt.play.selected else {
            return;
        };
        let Some(session) = &self.rt.session else {
            return;
        };
        let game = &session.game;
        let mine: Vec<&Action> = self.legal_of(sel).collect();
        if !self.may_move(sel) {
            o.reach_cells.clear();
            o.reach_radius = None;
            o.reach_base = None;
        }
        let ends: Vec<_> = mine
            .iter()
            .filter_map(|a| match a {
                Action::Move { path, .. } => path.last().copied(),
                _ => None,
            })
            .collect();
        o.reach_cells.retain(|(c, _)| ends.contains(c));
        // In the set-up the cells a piece may be deployed to are shaded as its reach (a
        // click on one deploys it there).
        for a in &mine {
            if let Action::Deploy { to, .. } = a
                && !o.reach_cells.iter().any(|(c, _)| c == to)
            {
                o.reach_cells.push((*to, String::new()));
            }
        }
        for a in &mine {
            match a {
                Action::Act {
                    target: Some(t), ..
                } => match game.piece(*t).map(|p| &p.place) {
                    // On a grid the target's cell is ringed; on an open table the piece.
                    Some(Place::Point { .. }) if !o.target_pieces.contains(t) => {
                        o.target_pieces.push(*t);
                    }
                    Some(Place::Point { .. }) | None => {}
                    Some(place) => {
                        if let Some(c) = place.cell()
                            && !o.targets.contains(&c)
                        {
                            o.targets.push(c);
                        }
                    }
                },
                Action::MoveTo { to, .. } => o.destinations.push(*to),
                _ => {}
            }
        }
    }

    /// The side panel's list of legal orders.
    pub(super) fn legal_panel(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(session) = &self.rt.session else {
            return;
        };
        let game = &session.game;
        let Some(side) = self.legal_side() else {
            ui.label("Nobody acts: the game is over.");
            return;
        };
        let name = game
            .sides()
            .get(side.index())
            .map_or("?", |s| s.name.as_str());
        let listed = self.legal_for_selected();
        // The heading names what the list holds: the side's orders, cut to the selected
        // piece's when it has any (else the side's orders naming no piece, end phase).
        let piece_listed = self
            .rt
            .play
            .selected
            .and_then(|id| game.piece(id))
            .filter(|p| listed.iter().any(|(a, _)| a.piece() == Some(p.id)));
        // The piece's own orders are counted, as its group below counts them; the orders
        // naming no piece (end phase) follow as buttons of their own.
        let heading = match piece_listed {
            Some(p) => {
                let own = listed.iter().filter(|(a, _)| a.piece() == Some(p.id));
                format!("Legal orders of {name}: {} ({})", p.name, own.count())
            }
            None => format!("Legal orders of {name} ({})", listed.len()),
        };
        let reset = self.rt.play.legal_scroll_reset;
        egui::CollapsingHeader::new(RichText::new(heading).strong())
            .id_salt("legal orders")
            .default_open(true)
            .show(ui, |ui| {
                // The orders naming no piece (end phase) first, in a row of their own above
                // the list: at its foot they moved up under the pointer as the list shrank
                // after an order, and a second click ended the phase (outside player E4).
                let loose: Vec<&&(Action, String)> =
                    listed.iter().filter(|(a, _)| a.piece().is_none()).collect();
                if !loose.is_empty() {
                    ui.horizontal_wrapped(|ui| {
                        for (action, text) in loose {
                            if ui.button(text.as_str()).clicked() {
                                out.push(Command::Give(action.clone()));
                            }
                        }
                    });
                }
                if let Some(p) = self.rt.play.selected.and_then(|id| game.piece(id))
                    && piece_listed.is_none()
                {
                    ui.label(format!("{} has no legal order now.", p.name));
                }
                if self.rt.play.legal.is_empty() {
                    let who: Vec<&str> = game
                        .to_act()
                        .iter()
                        .filter_map(|s| game.sides().get(s.index()).map(|d| d.name.as_str()))
                        .collect();
                    ui.label(format!(
                        "{name} may give no order now; {} acts",
                        if who.is_empty() {
                            "nobody".to_owned()
                        } else {
                            who.join(" and ")
                        }
                    ));
                    return;
                }
                // A list of its own, so the piece's panel below stays in sight.
                let mut list = egui::ScrollArea::vertical()
                    .id_salt("legal list")
                    .max_height(180.0);
                if reset {
                    // A new list starts at its top: an offset kept from a longer list showed
                    // an empty box.
                    list = list.vertical_scroll_offset(0.0);
                }
                list.show(ui, |ui| {
                    // Grouped by piece, each group folded unless its piece is selected
                    // (the orders naming no piece are above the list).
                    type Group<'a> = (PieceId, Vec<&'a (Action, String)>);
                    let mut groups: Vec<Group<'_>> = Vec::new();
                    for item in &listed {
                        let Some(piece) = item.0.piece() else {
                            continue;
                        };
                        match groups.iter_mut().find(|(p, _)| *p == piece) {
                            Some((_, list)) => list.push(item),
                            None => groups.push((piece, vec![item])),
                        }
                    }
                    for (piece, orders) in groups {
                        let mut buttons = |ui: &mut egui::Ui| {
                            for (action, text) in orders.iter().take(MAX_LISTED) {
                                if ui.button(text.as_str()).clicked() {
                                    out.push(Command::Give(action.clone()));
                                }
                            }
                            if orders.len() > MAX_LISTED {
                                ui.label(format!("… and {} more", orders.len() - MAX_LISTED));
                            }
                        };
                        match game.piece(piece) {
                            Some(p) => {
                                // Open exactly when its piece is selected, never from a
                                // state kept under the same piece number in another game;
                                // opening a group selects its piece, closing it lets go.
                                let chosen = self.rt.play.selected == Some(p.id);
                                let group = egui::CollapsingHeader::new(format!(
                                    "{}: {}",
                                    p.name,
                                    crate::words::count(orders.len() as i64, "order")
                                ))
                                .id_salt(("legal of", p.id))
                                .open(Some(chosen))
                                .show(ui, buttons);
                                if group.header_response.clicked() {
                                    out.push(Command::Select((!chosen).then_some(p.id)));
                                }
                            }
                            None => buttons(ui),
                        }
                    }
                });
            });
    }

    /// The phase bar's "Computer plays" choices, one per side.
    pub(super) fn seats_ui(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(session) = &self.rt.session else {
            return;
        };
        ui.label("Computer plays:");
        for (i, def) in session.game.sides().iter().enumerate() {
            let side = SideId(u8::try_from(i).unwrap_or(u8::MAX));
            let current = self
                .rt
                .play
                .players
                .get(i)
                .and_then(Option::as_ref)
                .map(|p| p.kind().name());
            // The side's name before its box, as every label in the editor.
            let name = ui.label(def.name.as_str());
            egui::ComboBox::from_id_salt(("seat", i))
                .width(super::COMBO_WIDTH)
                .selected_text(current.clone().unwrap_or_else(|| "person".to_owned()))
                .show_ui(ui, |ui| {
                    if ui.selectable_label(current.is_none(), "person").clicked() {
                        out.push(Command::Seat(side, None));
                    }
                    for (kind, label) in [
                        (PolicyKind::Random, "random"),
                        (PolicyKind::Greedy, "greedy"),
                        (
                            PolicyKind::Search(grognard_play::search::Budget::Millis(
                                grognard_play::search::DEFAULT_MILLIS,
                            )),
                            "search",
                        ),
                    ] {
                        if ui
                            .selectable_label(current.as_deref() == Some(label), label)
                            .clicked()
                        {
                            out.push(Command::Seat(side, Some(kind)));
                        }
                    }
                    if ui.selectable_label(false, "Lua policy…").clicked() {
                        out.push(Command::AskPolicy(side));
                    }
                })
                .response
                .labelled_by(name.id);
        }
    }

    /// Sets who plays `side`. Until the player picks a view, the board is seen by a side
    /// a person plays, so hidden information stays hidden from that person (by the
    /// referee once the computer plays every side); a view the player picked is kept.
    pub(super) fn seat(&mut self, side: SideId, kind: Option<PolicyKind>) {
        let Some(session) = &self.rt.session else {
            return;
        };
        let sides = session.game.sides().len();
        let seed = session.game.state().rng.seed();
        self.rt.play.players.resize_with(sides, || None);
        let Some(slot) = self.rt.play.players.get_mut(side.index()) else {
            return;
        };
        let name = session
            .game
            .sides()
            .get(side.index())
            .map_or_else(String::new, |s| s.name.clone());
        match kind {
            None => {
                *slot = None;
                self.say(format!("{name} is played by a person"));
            }
            Some(kind) => match Computer::new(&kind, seed, side, &session.scenario.ruleset) {
                Ok(p) => {
                    let label = kind.name();
                    *slot = Some(p);
                    // Until the player picks a view, it follows the seats: a side a
                    // person plays, or the referee's when the computer plays them all. A
                    // view the player picked stays (it turned on its own to a computer's
                    // side when both sides were seated).
                    let person = (0..sides).find(|i| self.rt.play.players[*i].is_none());
                    let auto = person.map_or(ViewAs::Referee, |i| {
                        ViewAs::Side(SideId(u8::try_from(i).unwrap_or(0)))
                    });
                    if !self.rt.play.view_chosen && self.rt.play.view != auto {
                        self.rt.play.view = auto;
                        self.rt.play.selected = None;
                        self.rt.play.reach = None;
                    }
                    self.say(format!("the computer plays {name} ({label})"));
                }
                Err(e) => self.fail(e),
            },
        }
        // With the computer on every side, or the referee's view, nothing is hidden.
        if !self.screen_hides(self.rt.play.view) {
            self.rt.play.screen_hidden = false;
        }
    }

    /// The side the computer is thinking for (a search, on its worker thread), if any.
    #[must_use]
    pub fn computer_thinking(&self) -> Option<SideId> {
        self.rt
            .play
            .players
            .iter()
            .position(|p| p.as_ref().is_some_and(Computer::thinking))
            .map(|i| SideId(u8::try_from(i).unwrap_or(u8::MAX)))
    }

    /// Gives one order for a side the computer plays, when it is that side's turn to act.
    /// A quick policy chooses now; a search is asked on its worker thread, and its answer
    /// is given in a later frame if the game has not changed meanwhile.
    pub(super) fn computer_turn(&mut self, ctx: &egui::Context) {
        let Some(session) = &self.rt.session else {
            return;
        };
        let generation = session.generation();
        // Answers from the workers first: the current one is given, a stale one dropped.
        for i in 0..self.rt.play.players.len() {
            let Some(Some(Computer::Away { thinker, .. })) = self.rt.play.players.get_mut(i) else {
                continue;
            };
            let Some((asked, (answer, why))) = thinker.poll() else {
                // Only a question with the worker is looked after: an idle search seat
                // asked for a frame every 40 ms for good (outside player E13).
                if thinker.asked() {
                    ctx.request_repaint_after(THINKING_POLL);
                }
                continue;
            };
            if asked == generation {
                let side = SideId(u8::try_from(i).unwrap_or(u8::MAX));
                self.give_computer_order(side, answer, why);
                ctx.request_repaint();
                return;
            }
            ctx.request_repaint();
        }
        if self.computer_thinking().is_some() {
            return;
        }
        let Some(session) = &mut self.rt.session else {
            return;
        };
        // In a phase both sides share, the computer acts at once for its side rather than
        // wait behind the person listed first (the phase bar says so).
        let players = &self.rt.play.players;
        let Some(side) = session
            .game
            .to_act()
            .into_iter()
            .find(|s| matches!(players.get(s.index()), Some(Some(_))))
        else {
            return;
        };
        let Some(Some(computer)) = self.rt.play.players.get_mut(side.index()) else {
            return;
        };
        if let Some(t) = self.rt.play.last_computer
            && t.elapsed() < self.rt.play.computer_pace
        {
            ctx.request_repaint_after(self.rt.play.computer_pace.saturating_sub(t.elapsed()));
            return;
        }
        // A hook that faults while the orders are listed leaves the orders it was asked
        // about out: the computer stops and shows the hook's error, as `sim` and the server
        // do, rather than play on as another game. (The listing borrows the session's
        // hooks, so it runs on a copy of the game.)
        let game = session.game.clone();
        let legal = match game.legal_orders_checked(side, session.hooks()) {
            Ok(legal) => legal,
            Err(fault) => {
                let why = format!("a hook failed while its orders were listed: {fault}");
                return self.give_computer_order(side, Err(why), None);
            }
        };
        let chosen = match computer {
            Computer::Here(player) => player.choose(&session.game, side, &legal),
            Computer::Away { thinker, .. } => {
                thinker.ask(generation, session.game.clone(), legal);
                ctx.request_repaint_after(THINKING_POLL);
                return;
            }
        };
        self.give_computer_order(side, chosen, None);
        ctx.request_repaint();
    }

    /// Gives the order the computer chose for `side` (or, when it could not choose, hands
    /// the side to a person), keeping the search's account of it (`why`) for the panel
    /// *Why the computer chose…* (`why.rs`).
    fn give_computer_order(
        &mut self,
        side: SideId,
        chosen: Result<Action, String>,
        why: Option<Explanation>,
    ) {
        let viewer = self.legal_side();
        let was_on_board = self.selected_on_board();
        self.rt.play.last_computer = Some(Instant::now());
        let Some(session) = &mut self.rt.session else {
            return;
        };
        let name = session
            .game
            .sides()
            .get(side.index())
            .map_or_else(String::new, |s| s.name.clone());
        let action = match chosen {
            Ok(a) => a,
            Err(e) => {
                if let Some(slot) = self.rt.play.players.get_mut(side.index()) {
                    *slot = None;
                }
                return self.fail(format!(
                    "the computer stopped playing {name}: {e}; a person plays {name} now"
                ));
            }
        };
        // In the Play tab's words: `scout1 → (3,6), 1 step`, `voss attach at r3`.
        let text = said_as_listed(
            &serde_json::to_value(describe_order_as(
                &session.game,
                &Order {
                    side,
                    action: action.clone(),
                },
                viewer,
            ))
            .unwrap_or_default(),
        );
        let at = session.orders().len();
        let outcome = session.apply(Order {
            side,
            action: action.clone(),
        });
        if outcome.is_ok()
            && let Some(why) = why
        {
            self.rt.play.explained.retain(|e| e.at < at);
            self.rt.play.explained.push(super::why::Explained {
                at,
                side,
                action,
                why,
            });
        }
        if outcome.is_err() {
            // Refused where the side could not see what was there: it ends its phase.
            let _ = session.apply(Order {
                side,
                action: Action::EndPhase,
            });
        }
        self.rt.play.path.clear();
        self.forget_gone_selection(was_on_board);
        self.refresh_reach();
        self.say(format!("the computer ({name}): {text}"));
    }
}

#[cfg(test)]
mod tests {
    use super::said_as_listed;
    use serde_json::json;

    /// The status line says the computer's order as the Play tab lists it (an outside
    /// player read `move scout1 path [[3, 6]]` and `act voss action attach target r3`).
    #[test]
    fn the_computers_order_is_said_in_the_listed_words() {
        let moved = said_as_listed(
            &json!({"side": "french", "move": {"piece": "scout1", "path": [[3, 6]]}}),
        );
        assert!(moved.starts_with("scout1 "), "{moved}");
        assert!(!moved.contains("path") && !moved.contains("[["), "{moved}");
        let acted = said_as_listed(
            &json!({"side": "blue", "act": {"piece": "voss", "action": "attach", "target": "r3"}}),
        );
        assert!(acted.starts_with("voss attach"), "{acted}");
        assert!(
            !acted.contains("action") && !acted.contains("target"),
            "{acted}"
        );
        assert_eq!(
            said_as_listed(&json!({"side": "blue", "end_phase": true})),
            "end phase"
        );
    }
}
