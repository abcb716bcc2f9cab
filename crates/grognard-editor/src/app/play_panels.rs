//! The Play tab's bars and side parts, apart from the board: the scenario's problems, the
//! phase bar (turn, who acts, End phase, Undo, View as, the computer's seats), the list of
//! pieces and the event and dice logs. `play_tab` lays them out around the board.

use egui::{Color32, RichText};
use grognard_kernel::action::Action;
use grognard_kernel::ids::SideId;

use crate::board::{self, DrawPiece};
use crate::session::{Session, dice_log, dice_note};
use crate::view::{ViewAs, view_label};

use super::play_keys::END_PHASE_KEY;
use super::play_tab::{FIXED_ROW_WIDTH, STATUS_WIDTH, TO_ACT_WIDTH, group_problems, result_words};
use super::{Command, EditorApp, FilePurpose};

impl EditorApp {
    /// The scenario's problems under the ruleset in force, grouped, over the board.
    pub(super) fn scenario_problems_bar(&self, ui: &mut egui::Ui) {
        // Grouped, repeats counted, in a short scrolling box: the board keeps its room.
        let grouped = group_problems(&self.rt.scenario_problems);
        egui::Panel::top("scenario problems").show(ui, |ui| {
            let n = self.rt.scenario_problems.len();
            let different = if grouped.len() < n {
                format!(", {} different", grouped.len())
            } else {
                String::new()
            };
            let head = if self.rt.scenario_own_fault {
                // It fails under its own ruleset too: a mistake in the file.
                format!(
                    "The scenario file has {} ({n}{different}); {}. Fix the file:",
                    if n == 1 { "a mistake" } else { "mistakes" },
                    if self.rt.session.is_some() {
                        "the game goes on as it started"
                    } else {
                        "no game can start from it until it is fixed"
                    }
                )
            } else {
                format!(
                    "The scenario does not fit the ruleset in force ({n} problems{different}); \
                     the game goes on under the ruleset it started with. What no longer fits:"
                )
            };
            ui.colored_label(Color32::RED, head);
            egui::ScrollArea::vertical()
                .id_salt("scenario problems list")
                .max_height(110.0)
                .show(ui, |ui| {
                    for line in &grouped {
                        ui.colored_label(Color32::RED, line);
                    }
                });
        });
    }

    /// The two rows over the board: where the game stands and who acts, End phase, Undo
    /// and View as; then who plays each side, hot-seat and the save.
    pub(super) fn phase_bar(&self, ui: &mut egui::Ui, stale: bool, out: &mut Vec<Command>) {
        let Some(session) = &self.rt.session else {
            return;
        };
        egui::Panel::top("phase bar").show(ui, |ui| {
            self.status_row(ui, session, out);
            self.players_row(ui, stale, out);
            // The step row comes first, in the same place whether stepping or not, so no
            // button moves under the pointer when the first ◀ Back starts the stepping.
            if self.reviewing() {
                self.review_bar(ui, out);
            } else {
                self.review_offer(ui, out);
                self.result_or_terms(ui, session);
            }
        });
    }

    /// The first row: the turn and phase (or the game over), who acts, End phase, Undo,
    /// View as, and the panel and zoom buttons.
    fn status_row(&self, ui: &mut egui::Ui, session: &Session, out: &mut Vec<Command>) {
        let game = &session.game;
        ui.horizontal(|ui| {
            // The slots' widths follow the window's, never the words in them.
            let spare = (ui.available_width() - FIXED_ROW_WIDTH).max(0.0);
            let status_width = (spare * 0.68).clamp(160.0, STATUS_WIDTH);
            let to_act_width = (spare * 0.32).clamp(90.0, TO_ACT_WIDTH);
            let line = match game.phase() {
                Some((phase, side)) => {
                    let side = game
                        .sides()
                        .get(side.index())
                        .map_or("?", |s| s.name.as_str());
                    format!(
                        "Turn {} of {} · {} phase · {side} phasing",
                        game.state().turn,
                        game.turns(),
                        crate::words::spaced(&phase.name)
                    )
                }
                // The result is a sentence of its own, wrapped under this row.
                // The turn it ended on stays (it was only in the log); past the last
                // turn the kernel's count has moved on by one.
                None => format!(
                    "Game over after turn {} of {}",
                    game.state().turn.min(game.turns()),
                    game.turns()
                ),
            };
            super::slot_label(ui, RichText::new(line).strong(), status_width);
            // Who acts is the kernel's word, whoever the board is seen as.
            // With more than one side to act, a side the computer plays is marked: it
            // acts at once, not after the person's part.
            let shared = game.to_act().len() > 1;
            let to_act: Vec<String> = game
                .to_act()
                .iter()
                .filter_map(|s| {
                    let name = &game.sides().get(s.index())?.name;
                    let computer = matches!(self.rt.play.players.get(s.index()), Some(Some(_)));
                    Some(if shared && computer {
                        format!("{name} (computer, at once)")
                    } else {
                        name.clone()
                    })
                })
                .collect();
            let acting = if to_act.is_empty() {
                String::new()
            } else if self.computer_thinking().is_some() {
                // A search works on its own thread; the window stays live meanwhile.
                format!("to act: {} · thinking…", to_act.join(" and "))
            } else {
                format!("to act: {}", to_act.join(" and "))
            };
            super::slot_label(ui, acting, to_act_width);
            let why = self.why_not_now_for(true);
            if ui
                .add_enabled(self.may_end_phase(), egui::Button::new("End phase"))
                .on_hover_text(format!(
                    "End the phase for the side to act (key: {END_PHASE_KEY})"
                ))
                .on_disabled_hover_text(format!(
                    "{} (key: {END_PHASE_KEY})",
                    crate::words::sentence(&why)
                ))
                .clicked()
            {
                out.push(Command::EndPhase);
            }
            // What the last order did (a roll, a sighting) says more than who gave it.
            let why_no_undo = match (self.computer_thinking(), session.why_locked()) {
                _ if self.reviewing() => super::commands::REVIEW_WHY.to_owned(),
                (None, Some(why)) => why.to_owned(),
                _ => self.why_no_undo(),
            };
            if ui
                .add_enabled(self.may_undo(), egui::Button::new("Undo"))
                // A game that hides nothing shows nothing of the enemy that was not seen.
                .on_hover_text(if grognard_play::takeback::hides_anything(game.rules()) {
                    "Take back the last order (it rolled no die and showed nothing of \
                         the enemy). Key: Ctrl+Z."
                } else {
                    "Take back the last order (it rolled no die). Key: Ctrl+Z."
                })
                .on_disabled_hover_text(crate::words::sentence(&why_no_undo))
                .clicked()
            {
                out.push(Command::Undo);
            }
            ui.separator();
            let label = ui.label("View as");
            egui::ComboBox::from_id_salt("view as")
                .width(super::COMBO_WIDTH)
                .selected_text(view_label(game, self.rt.play.view))
                .show_ui(ui, |ui| {
                    let mut views = vec![ViewAs::Referee];
                    views.extend((0..game.sides().len()).map(|i| ViewAs::Side(SideId(i as u8))));
                    for v in views {
                        if ui
                            .selectable_label(self.rt.play.view == v, view_label(game, v))
                            .clicked()
                        {
                            out.push(Command::ViewAs(v));
                        }
                    }
                })
                .response
                .labelled_by(label.id);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let fold = if self.saved.panel_hidden {
                    "Show panel ◀"
                } else {
                    "Hide panel ▶"
                };
                if ui
                    .button(fold)
                    .on_hover_text("The orders, piece, legend and log panel on the right")
                    .clicked()
                {
                    out.push(Command::FoldPanel(!self.saved.panel_hidden));
                }
                if ui
                    .button("Fit board")
                    .on_hover_text("Show the whole board (zoom and pan reset)")
                    .clicked()
                {
                    out.push(Command::FitBoard);
                }
            });
        });
    }

    /// The second row: who plays each side, hot-seat, save, load and a new game.
    fn players_row(&self, ui: &mut egui::Ui, stale: bool, out: &mut Vec<Command>) {
        // Wrapped: at 800 points *New game from the changed files* fell past the right
        // edge while the status line sent the player to it (tenth player F14).
        ui.horizontal_wrapped(|ui| {
            self.seats_ui(ui, out);
            ui.separator();
            let mut hot = self.saved.hot_seat;
            if ui.checkbox(&mut hot, "Hot-seat").changed() {
                out.push(Command::HotSeat(hot));
            }
            if ui.button("Save game…").clicked() {
                out.push(Command::Ask(FilePurpose::SaveGame));
            }
            if ui.button("Load game…").clicked() {
                out.push(Command::Ask(FilePurpose::LoadGame));
            }
            if ui
                .button("New game")
                .on_hover_text(
                    "Start this scenario again from its first turn; who plays each side \
                     is kept. The game in play is dropped (save it first to keep it).",
                )
                .clicked()
            {
                out.push(Command::NewGame);
            }
            // Last on its row: when it comes and goes nothing else moves.
            if !self.rt.disk_changed.is_empty() {
                // Greyed while the changed files do not load, with the file and line
                // (eleventh player F3: it stayed live and a click only drew a refusal).
                let broken = self.changed_files_mistake();
                if ui
                    .add_enabled(
                        broken.is_none(),
                        egui::Button::new("New game from the changed files"),
                    )
                    .on_disabled_hover_text({
                        let broken = broken.unwrap_or_default();
                        let them = if broken.contains(" mistakes, in file order: ") {
                            "them"
                        } else {
                            "it"
                        };
                        format!(
                            "No new game can start from the files as they are now: {broken}. \
                             Fix {them} and save; the game in play goes on meanwhile."
                        )
                    })
                    .on_hover_text(format!(
                        "{} changed on disk while this game was in play; the game goes on \
                         as it started. This starts a new one from the files as they are \
                         now (who plays each side is kept).",
                        self.rt.disk_changed.join(", ")
                    ))
                    .clicked()
                {
                    out.push(Command::NewGame);
                }
            } else if stale && ui.button("Restart with edited rules").clicked() {
                out.push(Command::Restart);
            }
        });
    }

    /// Why no game can start from the files as they are on disk now: the ruleset's
    /// reload error, else the scenario's first mistake (each names its file and line).
    fn changed_files_mistake(&self) -> Option<String> {
        // Every mistake, in file order, up to three: the first alone was often a knock-on
        // ("needs an `allowance:`" for the `three` two lines below it; thirteenth player
        // F8), and fixing its line found nothing wrong there.
        if let Some(e) = &self.rt.reload_error {
            let lines: Vec<&str> = e.lines().filter(|l| !l.trim().is_empty()).collect();
            return Some(match lines.as_slice() {
                [] => String::new(),
                [one] => (*one).to_owned(),
                many => {
                    let more = many.len().saturating_sub(3);
                    let tail = if more > 0 {
                        format!("; and {more} more")
                    } else {
                        String::new()
                    };
                    format!(
                        "{} mistakes, in file order: {}{tail}",
                        many.len(),
                        many[..many.len().min(3)].join("; ")
                    )
                }
            });
        }
        let first = self.rt.scenario_problems.first()?;
        let more = self.rt.scenario_problems.len() - 1;
        Some(if more == 0 {
            first.clone()
        } else {
            format!("{first} (and {more} more, listed above the board)")
        })
    }

    /// Under both rows: the result and how its points were made once the game is over,
    /// else the victory terms, folded.
    fn result_or_terms(&self, ui: &mut egui::Ui, session: &Session) {
        let game = &session.game;
        let victory = super::how_to_win::terms_in_force(&session.scenario, game);
        if game.phase().is_none() {
            // Whole and wrapped, under both rows (which keep their places): a slot's
            // width cut the scores off.
            ui.add(egui::Label::new(RichText::new(result_words(game)).strong()).wrap());
            // Where points decided, which pieces and places made them.
            if let Some(v) = victory {
                let made = super::how_to_win::breakdown(game, v, self.rt.play.view);
                if !made.is_empty() {
                    ui.add(
                        egui::Label::new(format!("How the points were made: {}", made.join(" · ")))
                            .wrap(),
                    );
                }
            }
        } else {
            // The terms stay one click away, in a menu over the board: unfolded in place
            // they pushed the board and the panel down under the pointer (a click meant
            // for *Legend* ended the phase).
            let terms = super::how_to_win::terms(game, victory);
            ui.menu_button("How to win", |ui| {
                ui.set_max_width(480.0);
                for t in &terms {
                    ui.add(egui::Label::new(t.as_str()).wrap());
                }
            })
            .response
            .on_hover_text(terms.join("\n"));
        }
    }

    /// The list of pieces on the left (and, in a set-up, those still to deploy).
    pub(super) fn pieces_list(
        &self,
        ui: &mut egui::Ui,
        pieces: &[DrawPiece],
        out: &mut Vec<Command>,
    ) {
        let Some(session) = &self.rt.session else {
            return;
        };
        let game = &session.game;
        egui::Panel::left("pieces")
            .default_size(150.0)
            .show(ui, |ui| {
                ui.label(RichText::new("Pieces").strong());
                // Every piece the board draws is listed: enemies drawn faded where they
                // were last seen, marked so (the list dropped them as they went out of
                // sight; outside player E12), and face-down ones the side knows by name
                // or handle (hex-command's `kern`, drawn but left out; 13th player F2).
                let listed: Vec<&DrawPiece> =
                    pieces.iter().filter(|p| !p.name.is_empty()).collect();
                let row = ui.text_style_height(&egui::TextStyle::Button)
                    + 2.0 * ui.spacing().button_padding.y
                    + ui.spacing().item_spacing.y;
                // Only the rows in sight are laid out: a big game has hundreds of pieces.
                egui::ScrollArea::vertical().show_rows(ui, row, listed.len(), |ui, range| {
                    for p in &listed[range] {
                        let side = game
                            .sides()
                            .get(p.side.index())
                            .map_or("?", |s| s.name.as_str());
                        let selected = self.rt.play.selected == Some(p.id);
                        let entry = match (p.look, p.markers.first()) {
                            (board::Look::Ghost, Some(seen)) => {
                                format!("{} ({side}, {seen})", p.name)
                            }
                            (board::Look::FaceDown, _) => format!("{} ({side}, face down)", p.name),
                            _ => format!("{} ({side} {})", p.name, crate::words::spaced(&p.kind)),
                        };
                        if piece_entry(ui, selected, entry, p.side).clicked() {
                            out.push(Command::Select(Some(p.id)));
                        }
                    }
                });
                let off = off_board(game, self.rt.play.view);
                if !off.is_empty() && !game.setting_up() {
                    // As the browser page lists them: a reinforcement still to come reads
                    // "not yet arrived", a piece lost "removed (why)".
                    ui.separator();
                    ui.label(RichText::new("Off the board").strong());
                    for (side, line) in off {
                        ui.label(RichText::new(line).color(board::side_color(side)));
                    }
                }
                if game.setting_up() {
                    // Pieces still to be placed in the set-up: select one to see where
                    // it may go (the legal orders panel places it).
                    ui.separator();
                    ui.label(RichText::new("To deploy").strong());
                    for p in game.state().pieces.iter().filter(|p| {
                        !p.on_board()
                            && game.deployable(p.id)
                            && match self.rt.play.view {
                                crate::view::ViewAs::Side(s) => p.side == s,
                                _ => true,
                            }
                    }) {
                        let (side, kind) = game.side_and_type_names(p);
                        let selected = self.rt.play.selected == Some(p.id);
                        let entry = format!("{} ({side} {kind})", p.name);
                        if piece_entry(ui, selected, entry, p.side).clicked() {
                            out.push(Command::Select(Some(p.id)));
                        }
                    }
                }
            });
    }

    /// The event log (as `grognard view` prints it) and the dice log, for the view chosen:
    /// both oldest first, each in a scroll area of its own that follows its newest line
    /// ([`follow_lines`]). No scroll area holds both: a wheel at a log's end scrolled the
    /// outer one down to the dice instead.
    pub(super) fn logs_ui(&self, ui: &mut egui::Ui) {
        let Some(session) = &self.rt.session else {
            return;
        };
        let game = &session.game;
        let ruleset = &session.scenario.ruleset;
        let events = match self.rt.play.view {
            ViewAs::Referee => game.log(),
            ViewAs::Side(side) => game.events_for(side),
        };
        let log = dice_log(ruleset, events);
        let line = ui.spacing().interact_size.y;
        if let Some(summary) = self.computer_summary() {
            ui.add(egui::Label::new(RichText::new(summary).strong()).wrap());
        }
        // Open, *Why the computer chose…* scrolls in at most a third of the logs' room
        // (and never in the headings and few lines the logs need): unbounded, it pushed
        // both logs off the window (thirteenth player, F5).
        // In a short window it gives way first, down to a line, so the dice log keeps its
        // heading and a few lines above the status bar (fourteenth player: at 800×600 it
        // had one line, cut by the status bar).
        let why_most = (ui.available_height() / 3.0)
            .min(ui.available_height() - 14.0 * line)
            .max(line);
        self.why_ui(ui, why_most);
        // The event log takes about half of what is left, the dice log the rest, and the
        // event log gives way to the dice log's few lines.
        let share = ((ui.available_height() - 4.0 * line) / 2.0)
            .min(ui.available_height() - 8.0 * line)
            .max(2.0 * line);
        egui::CollapsingHeader::new(
            RichText::new(format!("Event log ({})", self.rt.play.log.len())).strong(),
        )
        .id_salt("event log")
        .default_open(true)
        .show(ui, |ui| {
            if self.rt.play.log.is_empty() {
                ui.label("Nothing has happened yet.");
            }
            follow_lines(ui, "event log lines", share, self.rt.play.log.len(), |ui| {
                let mut last = None;
                for line in &self.rt.play.log {
                    last = Some(ui.label(line));
                }
                last
            });
        });
        ui.separator();
        ui.label(RichText::new("Dice log").strong());
        let side = matches!(self.rt.play.view, ViewAs::Side(_));
        for line in dice_note(ruleset, side, &log) {
            ui.label(line);
        }
        let rest = (ui.available_height() - line).max(3.0 * line);
        follow_lines(ui, "dice log lines", rest, log.len(), |ui| {
            let mut last = None;
            // Oldest first, as the event log: the newest roll is the last line.
            for entry in &log {
                for (i, line) in entry.iter().enumerate() {
                    last = Some(if i == 0 {
                        ui.label(RichText::new(line).strong())
                    } else {
                        ui.label(line)
                    });
                }
            }
            last
        });
    }
}

impl EditorApp {
    /// What the computer did since a person's last order, in short: the orders it gave,
    /// the phases it ended and the pieces each side lost meanwhile (`The computer (red),
    /// since your last order: 3 orders, 2 phases ended · lost: blue 2 (b2, b3)`); `None`
    /// when the last order was a person's or nobody plays against the computer. Seen as a
    /// side in a game of hidden pieces, only that side's own losses are told.
    pub(super) fn computer_summary(&self) -> Option<String> {
        let session = self.rt.session.as_ref()?;
        let game = &session.game;
        let players = &self.rt.play.players;
        let computer = |s: SideId| matches!(players.get(s.index()), Some(Some(_)));
        let sides = game.sides().len();
        if (0..sides).all(|i| matches!(players.get(i), Some(Some(_)))) {
            return None;
        }
        let orders = session.orders();
        let run = orders.iter().rev().take_while(|o| computer(o.side)).count();
        if run == 0 {
            return None;
        }
        let first = orders.len() - run;
        let mut who: Vec<SideId> = Vec::new();
        let (mut given, mut ended) = (0usize, 0usize);
        for o in &orders[first..] {
            if !who.contains(&o.side) {
                who.push(o.side);
            }
            if o.action == Action::EndPhase {
                ended += 1;
            } else {
                given += 1;
            }
        }
        let name = |s: SideId| game.sides().get(s.index()).map_or("?", |d| d.name.as_str());
        let names: Vec<&str> = who.iter().map(|s| name(*s)).collect();
        let plural = |n: usize, one: &str, many: &str| {
            if n == 1 {
                format!("1 {one}")
            } else {
                format!("{n} {many}")
            }
        };
        let mut did = Vec::new();
        if given > 0 {
            did.push(plural(given, "order", "orders"));
        }
        if ended > 0 {
            did.push(plural(ended, "phase ended", "phases ended"));
        }
        // Losses from the log since the run began.
        let hidden = game.sighting().is_some();
        let told = |s: SideId| match self.rt.play.view {
            ViewAs::Side(v) if hidden => v == s,
            _ => true,
        };
        let mut lost: Vec<Vec<String>> = vec![Vec::new(); sides];
        let from = session.log_mark(first).unwrap_or(game.log().len());
        for e in game.log().iter().skip(from) {
            if let grognard_kernel::action::Event::Removed { piece, .. } = e
                && let Some(p) = game.state().pieces.iter().find(|p| p.id == *piece)
                && told(p.side)
                && let Some(list) = lost.get_mut(p.side.index())
            {
                list.push(p.name.clone());
            }
        }
        let losses: Vec<String> = lost
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.is_empty())
            .map(|(i, l)| {
                let side = game.sides().get(i).map_or("?", |d| d.name.as_str());
                format!("{side} {} ({})", l.len(), l.join(", "))
            })
            .collect();
        let losses = if losses.is_empty() {
            "no piece lost".to_owned()
        } else {
            format!("lost: {}", losses.join(", "))
        };
        Some(format!(
            "The computer ({}), since the last order of yours: {} · {losses}",
            names.join(" and "),
            did.join(", ")
        ))
    }
}

/// What a log's scroll area remembers between frames: whether it follows the newest line,
/// how many entries it had, and its offset (to tell the player's scrolling up).
#[derive(Clone, Copy)]
struct Follow {
    following: bool,
    seen: usize,
    offset: f32,
}

/// A log's lines (drawn by `add`, which gives back the last line's response) in a scroll
/// area that keeps the newest line in sight unless the player scrolled up; scrolled back to
/// the end (within a line), or when the log starts again (a new game, an undo), it follows
/// once more, and *Jump to latest* brings it back at once. egui's own stick-to-bottom
/// re-sticks only at the very end offset, which a wheel's smooth scroll may stop short of,
/// and it kept that state into the next game: the log stopped following for good.
fn follow_lines(
    ui: &mut egui::Ui,
    salt: &str,
    max_height: f32,
    entries: usize,
    add: impl FnOnce(&mut egui::Ui) -> Option<egui::Response>,
) {
    let key = ui.make_persistent_id((salt, "follow"));
    let mut f = ui
        .ctx()
        .data(|d| d.get_temp::<Follow>(key))
        .unwrap_or(Follow {
            following: true,
            seen: 0,
            offset: 0.0,
        });
    if entries < f.seen {
        f.following = true;
    }
    if !f.following && ui.small_button("Jump to latest").clicked() {
        f.following = true;
        f.seen = usize::MAX;
    }
    let grew = entries != f.seen;
    let out = egui::ScrollArea::vertical()
        .id_salt(salt)
        .max_height(max_height)
        // egui's least height of a scrolled area (64) would overrun a smaller share.
        .min_scrolled_height(max_height.min(64.0))
        .auto_shrink([false, true])
        .stick_to_bottom(true)
        .show(ui, |ui| {
            let last = add(ui);
            if f.following
                && grew
                && let Some(last) = last
            {
                last.scroll_to_me(Some(egui::Align::BOTTOM));
            }
        });
    let offset = out.state.clamped_offset().y;
    let end = (out.content_size.y - out.inner_rect.height()).max(0.0);
    let slack = ui.spacing().interact_size.y;
    if offset + slack >= end {
        f.following = true;
    } else if offset < f.offset - 0.5 {
        // The player scrolled up: leave the log where it was put.
        f.following = false;
    }
    if grew {
        // The move to the new line is drawn in the next frame; ask for it even when
        // nothing else on screen changes (the other side's order).
        ui.ctx().request_repaint();
    }
    f.seen = entries;
    f.offset = offset;
    ui.ctx().data_mut(|d| d.insert_temp(key, f));
}

/// The pieces off the board that the view may know of (a side's own; every piece for the
/// referee), each in words with its side: `b4 (blue infantry) — not yet arrived` for one no
/// event has named yet, `r2 (red infantry) — removed (routed)` for one that left.
#[must_use]
pub fn off_board(game: &grognard_kernel::game::Game, view: ViewAs) -> Vec<(SideId, String)> {
    let rules = game.rules();
    game.state()
        .pieces
        .iter()
        .filter(|p| !p.on_board())
        .filter(|p| match view {
            ViewAs::Side(s) => p.side == s,
            _ => true,
        })
        .map(|p| {
            let removed = game.log().iter().find_map(|e| match e {
                grognard_kernel::action::Event::Removed { piece, reason } if *piece == p.id => {
                    Some(reason.clone())
                }
                _ => None,
            });
            let named = game.log().iter().any(|e| e.piece() == Some(p.id));
            let why = match removed {
                Some(r) if !r.is_empty() => format!("removed ({r})"),
                Some(_) => "removed".to_owned(),
                None if named => "off the board".to_owned(),
                None => "not yet arrived".to_owned(),
            };
            let side = game
                .sides()
                .get(p.side.index())
                .map_or("?", |s| s.name.as_str());
            let kind = rules
                .piece_type(p.kind)
                .map_or_else(|| "?".to_owned(), |t| crate::words::spaced(&t.name));
            (p.side, format!("{} ({side} {kind}) — {why}", p.name))
        })
        .collect()
}

/// One entry of the pieces list, `name (side type)`, on one line: in the side's colour,
/// or, selected, in the selection's own text colour (the side's blue on the selection's
/// teal could not be read). A name too long for the panel is cut at the end with "…",
/// never wrapped (wrapping split "fr_voltigeurs" and left a ")" alone on a line, and the
/// list lays its rows out one line high); the whole entry shows on hover.
fn piece_entry(
    ui: &mut egui::Ui,
    selected: bool,
    entry: String,
    side: grognard_kernel::ids::SideId,
) -> egui::Response {
    let color = if selected {
        ui.visuals().selection.stroke.color
    } else {
        board::side_color(side)
    };
    let text = RichText::new(entry.clone()).color(color);
    let response =
        ui.add(egui::Button::selectable(selected, text).wrap_mode(egui::TextWrapMode::Truncate));
    response.on_hover_text(entry)
}
