//! The Play tab: the board with reach, paths and actions for the selected piece, the phase
//! bar, the piece panel, "View as" a side, and what a click on a cell orders (the legal
//! orders panel and the computer opponent are in `computer.rs`).

use egui::{Color32, RichText};
use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Reach;
use grognard_kernel::geometry::Cell;
use grognard_kernel::ids::{PieceId, SideId};
use grognard_kernel::piece::Place;

use crate::bases;
use crate::board::{self, BoardScene, DrawPiece, Overlay};
use crate::view::{ViewAs, pieces_for, view_label};
use crate::words::spaced;
use grognard_play::text;

use super::{CellOrder, Command, EditorApp};

/// What the legal orders list shows: its key (game generation and side) and the piece
/// selected.
pub(super) type LegalShown = (Option<(u64, SideId)>, Option<PieceId>);

/// The Play tab's state.
pub(super) struct PlayUi {
    pub(super) selected: Option<PieceId>,
    /// The counter under the pointer at the last click on a cell (the board hit-tests the
    /// drawn counters, topmost first): in a shared cell, the piece clicked is the one meant.
    pub(super) pointed: Option<PieceId>,
    pub(super) reach: Option<Reach>,
    /// The cells of the path being planned.
    pub(super) path: Vec<Cell>,
    pub(super) view: ViewAs,
    /// The player picked the view (View as): seating the computer no longer changes it.
    pub(super) view_chosen: bool,
    /// Hot-seat: the board is hidden until the next player asks for it.
    pub(super) screen_hidden: bool,
    /// The refusal of End phase last put in the status line, cleared with it once End
    /// phase is offered again.
    pub(super) end_refusal: Option<String>,
    /// The board's transform and pieces as last drawn (hit tests, tests' queries).
    pub(super) transform: Option<board::Transform>,
    pub(super) drawn: Vec<DrawPiece>,
    /// The tape-measure reading shown in the last frame.
    pub(super) measure: Option<bases::Measurement>,
    /// An order waiting for the cell it names.
    pub(super) pending: Option<CellOrder>,
    /// The legal orders (with their text) of the side and game generation in `legal_key`.
    pub(super) legal: Vec<(Action, String)>,
    pub(super) legal_key: Option<(u64, SideId)>,
    /// What the legal orders list showed last frame (its key and the selection); when it
    /// changes, the list and the panel around it scroll back to the top this frame.
    pub(super) legal_shown: Option<LegalShown>,
    pub(super) legal_scroll_reset: bool,
    /// The kernel's refusal of each order the selected piece's greyed buttons stand for,
    /// for the game generation, side and piece in `refusals_key` (see `piece_panel.rs`).
    pub(super) refusals: Vec<(Action, String)>,
    pub(super) refusals_key: Option<(u64, SideId, PieceId)>,
    /// The hover card shows only once the pointer has moved over the board as it is now:
    /// when another game opens under a resting pointer, the card waits (it would pop up
    /// for a cell the player never pointed at).
    pub(super) card_armed: bool,
    /// The event log, as `grognard view` prints it, for the game generation and view in
    /// its key (the log only grows when the game changes).
    pub(super) log: Vec<String>,
    pub(super) log_key: Option<(u64, ViewAs)>,
    /// Who plays each side for the computer (`None`: a person).
    pub(super) players: Vec<Option<super::thinker::Computer>>,
    /// When the computer last gave an order (it gives one at a time, so a person can
    /// follow).
    pub(super) last_computer: Option<std::time::Instant>,
    pub(super) computer_pace: std::time::Duration,
    /// The side a Lua policy file is being chosen for.
    pub(super) policy_for: Option<SideId>,
    /// A finished game being stepped through (`replay.rs`).
    pub(super) review: Option<super::replay::Review>,
    /// The search's account of each order it gave (`why.rs`).
    pub(super) explained: Vec<super::why::Explained>,
}

impl Default for PlayUi {
    fn default() -> Self {
        Self {
            selected: None,
            pointed: None,
            reach: None,
            path: Vec::new(),
            view: ViewAs::Referee,
            view_chosen: false,
            screen_hidden: false,
            end_refusal: None,
            transform: None,
            drawn: Vec::new(),
            measure: None,
            pending: None,
            legal: Vec::new(),
            legal_key: None,
            legal_shown: None,
            legal_scroll_reset: false,
            refusals: Vec::new(),
            refusals_key: None,
            card_armed: false,
            log: Vec::new(),
            log_key: None,
            players: Vec::new(),
            last_computer: None,
            computer_pace: super::computer::COMPUTER_PACE,
            policy_for: None,
            review: None,
            explained: Vec::new(),
        }
    }
}

impl EditorApp {
    /// The side whose view and orders the Play tab shows: the one "View as" names, else
    /// the side acting by the phase ([`Self::acting_side_after_hidden`]).
    pub(super) fn acting_side(&self) -> Option<SideId> {
        if let ViewAs::Side(side) = self.rt.play.view {
            self.rt.session.as_ref()?;
            return Some(side);
        }
        self.acting_side_after_hidden()
    }

    /// Recomputes the event log's lines when the game or the view has changed: the
    /// referee's whole log, or a side's log as that side saw it, in the words of `grognard
    /// view` (`grognard_play::text`) with flag and counter names spaced
    /// ([`crate::words::log_line`]).
    fn refresh_log(&mut self) {
        let Some(session) = &self.rt.session else {
            self.rt.play.log.clear();
            self.rt.play.log_key = None;
            return;
        };
        let key = (session.generation(), self.rt.play.view);
        if self.rt.play.log_key == Some(key) {
            return;
        }
        let game = &session.game;
        // A deed's flag right after the order that did it ("b1 dig", "b1 has dug in") is
        // left out: the order's line already tells it.
        let lines: Vec<String> = match self.rt.play.view {
            ViewAs::Referee => {
                let log = game.log();
                (log.iter().enumerate())
                    .filter(|(i, _)| !text::repeats_order(log, *i))
                    .map(|(_, e)| text::event(game, e))
                    .collect()
            }
            ViewAs::Side(side) => {
                let log = game.events_for(side);
                (log.iter().enumerate())
                    .filter(|(i, _)| !text::repeats_order(log, *i))
                    .map(|(i, e)| text::log_line(game, Some(side), e, i))
                    .collect()
            }
        };
        let rules = game.rules();
        self.rt.play.log = lines
            .iter()
            .map(|l| crate::words::log_line(rules, l))
            .collect();
        self.rt.play.log_key = Some(key);
    }

    /// True when the board shades the selected piece's reach (tests: only what a legal
    /// move may reach is shaded).
    #[must_use]
    pub fn reach_shaded(&self) -> bool {
        let o = self.overlay();
        !o.reach_cells.is_empty() || o.reach_radius.is_some()
    }

    /// What the Play board shades and rings now, as it paints it (tests paint the board
    /// with it through [`crate::board::paint`]).
    #[must_use]
    pub fn board_overlay(&self) -> Overlay {
        self.overlay()
    }

    /// The pieces ringed as the selected piece's legal targets on an open table.
    #[must_use]
    pub fn ringed_targets(&self) -> Vec<PieceId> {
        self.overlay().target_pieces
    }

    /// The Play tab's event log lines (as `grognard view` prints the log).
    #[must_use]
    pub fn event_log(&self) -> &[String] {
        &self.rt.play.log
    }

    pub(super) fn play_tab(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        self.refresh_legal();
        if self.reviewing() {
            // A position of a finished game: nothing is ordered (its list stays empty
            // until the game shown changes, and is emptied again then).
            self.rt.play.legal.clear();
        }
        self.refresh_refusals();
        self.forget_end_refusal();
        self.refresh_log();
        let shown = Some((self.rt.play.legal_key, self.rt.play.selected));
        self.rt.play.legal_scroll_reset = self.rt.play.legal_shown != shown;
        self.rt.play.legal_shown = shown;
        self.rt.play.measure = None;
        let Some(session) = &self.rt.session else {
            if !self.rt.scenario_problems.is_empty() {
                self.scenario_problems_bar(ui);
            }
            return self.no_game_ui(ui);
        };
        let game = &session.game;
        let stale = self
            .rt
            .bench
            .as_ref()
            .is_some_and(|b| b.current.rules.identity != game.rules().identity);
        // Two rows of fixed places: the texts sit in slots of fixed width (elided, whole on
        // hover) and both rows stay at game over, so no button moves under the pointer
        // when a phase, a side or the result changes.
        self.phase_bar(ui, stale, out);
        // Under the two rows, not over them: above, the box pushed every button down and,
        // once the file was fixed, back up from under the pointer (twelfth player,
        // finding 9).
        if !self.rt.scenario_problems.is_empty() {
            self.scenario_problems_bar(ui);
        }
        if self.rt.play.screen_hidden {
            self.pass_screen_ui(ui, game, out);
            return;
        }
        let pieces = pieces_for(game, self.rt.play.view);
        self.pieces_list(ui, &pieces, out);
        // At most 40% of the window, resizable by its edge, and folded away on request.
        let widest = (ui.available_width() * 0.4).max(200.0);
        egui::Panel::right("piece panel")
            .resizable(true)
            .default_size(300.0_f32.min(widest))
            .max_size(widest)
            .show_collapsible(ui, &mut !self.saved.panel_hidden, |ui| {
                // The orders and the piece scroll in the upper part, at most 55% of the
                // panel (40% of a short one, under 650 px: at 800×600 the logs had 2–4
                // lines); the legend's heading stands whole under it, and the logs keep
                // the rest, so no number of order buttons pushes them out of sight.
                let panel = ui.available_height();
                let share = if panel < 650.0 { 0.4 } else { 0.55 };
                let orders_height = (panel * share).max(160.0);
                let mut upper = egui::ScrollArea::vertical()
                    .id_salt("orders and piece")
                    .max_height(orders_height);
                if self.rt.play.legal_scroll_reset {
                    upper = upper.vertical_scroll_offset(0.0);
                }
                upper.show(ui, |ui| {
                    if self.reviewing() {
                        self.review_note(ui);
                    } else {
                        self.legal_panel(ui, out);
                    }
                    ui.separator();
                    self.piece_panel(ui, &pieces, out);
                });
                ui.separator();
                // Open, the legend scrolls in at most a third of the panel, and never in
                // the room the logs need (their headings and a few lines each).
                let line = ui.spacing().interact_size.y;
                let most = (ui.available_height() - 12.0 * line)
                    .min(panel / 3.0)
                    .max(3.0 * line);
                self.legend(ui, game, most);
                ui.separator();
                self.logs_ui(ui);
            });
        let overlay = self.overlay();
        let colors = self.rt.terrain_colors.clone();
        let mut camera = self.camera();
        let mut result = None;
        let mut measured = None;
        let selected = self.rt.play.selected;
        let mut armed = self.rt.play.card_armed;
        egui::CentralPanel::default_margins().show(ui, |ui| {
            let scene = BoardScene {
                rules: game.rules(),
                board: game.board(),
                terrain_colors: &colors,
                pieces: &pieces,
                overlay: &overlay,
            };
            let (click, t, response) = board::show(ui, &scene, &mut camera);
            // The hover card: the piece (as the viewer knows it) or else the cell.
            if ui.input(|i| i.pointer.delta() != egui::Vec2::ZERO) {
                armed = true;
            }
            let sides: Vec<&str> = game.sides().iter().map(|s| s.name.as_str()).collect();
            // Whether the game opened the baseline half-hexes (an option) decides what
            // the card says of one.
            let open = game
                .rules()
                .half_hexes
                .baselines_option
                .map(|o| game.state().options.get(o).copied().unwrap_or(false));
            let card = hover_card((game.rules(), game.board(), open), &sides, &pieces, &click);
            if armed {
                show_card(response, &card);
            }
            // The tape measure: from the selected piece to the one under the pointer.
            let drawn = |id| pieces.iter().find(|p| p.id == id);
            if let (Some(a), Some(b)) = (selected.and_then(drawn), click.hover.and_then(drawn))
                && a.id != b.id
            {
                measured = bases::measure((game.rules(), game.board()), a, b);
                if let (Some(m), Some(pos)) = (&measured, ui.input(|i| i.pointer.hover_pos())) {
                    bases::paint_measure(ui.painter(), &t, m, pos, ui.clip_rect());
                }
            }
            result = Some((click, t));
        });
        self.set_camera(camera);
        self.rt.play.card_armed = armed;
        self.rt.play.measure = measured;
        if let Some((click, t)) = result {
            self.rt.play.transform = Some(t);
            self.board_click(&click, out);
        }
        self.rt.play.drawn = pieces;
    }

    /// What a click (or a drop) on the board asks for: a cell or a point ordered, a piece
    /// selected, a base moved.
    fn board_click(&mut self, click: &board::BoardClick, out: &mut Vec<Command>) {
        if let Some(drop) = click.drop {
            out.push(Command::MoveBase(drop));
        }
        if let Some(c) = click.cell {
            self.rt.play.pointed = click.piece;
            out.push(Command::ClickCell(c));
        } else if let Some(p) = click.point {
            if click.piece.is_some() && self.rt.play.selected != click.piece {
                out.push(Command::Select(click.piece));
            } else if click.piece.is_none() {
                // A click on the selected piece itself orders nothing: drag it to move.
                out.push(Command::ClickPoint(p));
            }
        } else if click.piece.is_some() {
            out.push(Command::Select(click.piece));
        }
    }

    /// With no game: where to open one — unless a scenario with mistakes is open, its
    /// message above ("open a scenario" under it read as if none were; eleventh player
    /// F11).
    fn no_game_ui(&self, ui: &mut egui::Ui) {
        if self.rt.scenario_problems.is_empty() {
            egui::CentralPanel::default_margins().show(ui, |ui| {
                ui.label("No game: open a scenario (the Scenario menu lists examples/).");
            });
        }
    }

    /// The hot-seat screen between sides: whom to pass it to, and *Show board*.
    /// Whom the hot-seat screen is passed to, by name ("french", not "Side french").
    pub(super) fn screen_passed_to(&self, game: &grognard_kernel::game::Game) -> String {
        match self.rt.play.view {
            ViewAs::Side(s) => game
                .sides()
                .get(s.index())
                .map_or_else(|| view_label(game, self.rt.play.view), |d| d.name.clone()),
            ViewAs::Referee => "the referee".to_owned(),
        }
    }

    fn pass_screen_ui(
        &self,
        ui: &mut egui::Ui,
        game: &grognard_kernel::game::Game,
        out: &mut Vec<Command>,
    ) {
        egui::CentralPanel::default_margins().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(120.0);
                let to = self.screen_passed_to(game);
                ui.heading(format!("Pass the screen to {to}"));
                if ui.button("Show board").clicked() {
                    out.push(Command::Reveal);
                }
            });
        });
    }

    /// The legend: terrain colours, what each edge feature looks like (a bridge and a ford
    /// drawn apart), the marks on counters and the mode letters.
    fn legend(&self, ui: &mut egui::Ui, game: &grognard_kernel::game::Game, most: f32) {
        egui::CollapsingHeader::new(RichText::new("Legend").strong())
            .id_salt("legend")
            .default_open(false)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("legend lines")
                    .max_height(most)
                    .show(ui, |ui| self.legend_lines(ui, game));
            });
    }

    /// The legend's lines (terrain, edge features, counter marks, mode letters).
    fn legend_lines(&self, ui: &mut egui::Ui, game: &grognard_kernel::game::Game) {
        let rules = game.rules();
        for (i, t) in rules.terrain.iter().enumerate() {
            ui.horizontal(|ui| {
                let (r, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), egui::Sense::hover());
                let fill = self
                    .rt
                    .terrain_colors
                    .get(i)
                    .copied()
                    .unwrap_or(Color32::GRAY);
                ui.painter().rect_filled(r, 2.0, fill);
                // Wrapped: a row laid out wider than the panel pushed the whole
                // panel's left edge off the window (1024×700).
                ui.add(egui::Label::new(spaced(&t.name)).wrap());
            });
        }
        for f in &rules.features {
            ui.horizontal(|ui| {
                let (r, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), egui::Sense::hover());
                let (a, b) = (r.left_center(), r.right_center());
                // The swatch is drawn by the board's own code for the look.
                let look = board::feature_look(f);
                ui.painter().extend(board::feature_shapes(look, a, b, 30.0));
                let what = board::feature_words(look);
                ui.add(egui::Label::new(format!("{} — {what}", spaced(&f.name))).wrap());
            });
        }
        ui.label(format!(
            "Letters after a counter's name are its mode: {}.",
            crate::words::mode_letters(rules)
        ));
        if let Some(line) = crate::words::short_counter_names(rules) {
            ui.label(line);
        }
        if let Some(line) = board::region_legend(game.board()) {
            ui.label(line);
        }
        ui.label(
            "Below the name: counters that changed (hits 1) and flags. A red ring marks a \
             legal target, yellow shading where the selected piece can reach; a dim \
             counter is face down (only where it is is known; \"out of sight\" when no \
             piece of yours sees it now), an outline where an enemy was last seen (where \
             it is now is unknown); an enemy marked \"face up\" shows what a face-up \
             marker shows every side, whatever its sighting level. Hover over a piece or \
             a cell for everything shown of it.",
        );
        if game.board().grid().is_some()
            && rules.piece_types.iter().any(|t| t.company.exits.is_some())
        {
            ui.label(format!(
                "Orange shading marked \"{}\" past the board's edge: the selected \
                 piece may step off the board there and leave the battle (a leader \
                 escaping across his own baseline is out for the rest of the game, \
                 and gives the enemy no banner).",
                board::EXIT_MARK
            ));
        }
        let levels = crate::words::sighting_levels(rules);
        if !levels.is_empty() {
            ui.label(
                "An enemy's \"seen\" letter is the sighting level your pieces have \
                 of it now:",
            );
            for l in levels {
                ui.label(l);
            }
        }
    }

    pub(super) fn overlay(&self) -> Overlay {
        let mut o = Overlay {
            selected: self.rt.play.selected,
            open_baselines: self.session().is_some_and(|s| {
                let g = &s.game;
                g.rules()
                    .half_hexes
                    .baselines_option
                    .is_some_and(|i| g.state().options.get(i).copied().unwrap_or(false))
            }),
            ..Overlay::default()
        };
        match self
            .rt
            .play
            .reach
            .as_ref()
            .filter(|_| self.rt.play.selected.is_some_and(|id| self.may_move(id)))
        {
            Some(Reach::Cells(cells)) => {
                o.reach_cells = cells.iter().map(|r| (r.cell, r.cost.to_string())).collect();
            }
            Some(Reach::Radius(r)) => {
                if let Some((game, p)) = self.rt.play.selected.and_then(|id| {
                    let game = &self.rt.session.as_ref()?.game;
                    Some((game, game.piece(id)?))
                }) && let Place::Point { at, facing } = p.place
                {
                    o.reach_radius = Some((at, r.hundredths() as f32 / 100.0));
                    o.reach_base = game
                        .placed(p)
                        .filter(|f| !f.is_point())
                        .map(|f| (f, facing));
                }
            }
            None => {}
        }
        if let Some(start) = self
            .rt
            .play
            .selected
            .and_then(|id| self.rt.session.as_ref()?.game.piece(id)?.place.cell())
            && !self.rt.play.path.is_empty()
        {
            o.path.push(start);
            o.path.extend(self.rt.play.path.iter().copied());
        }
        // A selected piece on the open table can be dragged (or turned by its handle): the
        // kernel judges the move when it is dropped.
        o.draggable = self
            .selected_piece()
            .and_then(|(id, _, place)| matches!(place, Place::Point { .. }).then_some(id));
        self.legal_overlay(&mut o);
        o
    }

    pub(super) fn refresh_reach(&mut self) {
        self.rt.play.reach = None;
        let Some(id) = self.rt.play.selected else {
            return;
        };
        let view = self.rt.play.view;
        if let Some(s) = &mut self.rt.session {
            // The game is cloned so the hooks can be borrowed alongside it.
            let game = s.game.clone();
            self.rt.play.reach = match view {
                ViewAs::Referee => game.reach(id, s.hooks()).ok(),
                ViewAs::Side(side) => game.reach_as(side, id, s.hooks()).ok(),
            };
        }
    }

    /// True when a piece is selected and stands on the board.
    pub(super) fn selected_on_board(&self) -> bool {
        self.rt.play.selected.is_some_and(|id| {
            self.rt
                .session
                .as_ref()
                .and_then(|s| s.game.piece(id))
                .is_some_and(grognard_kernel::piece::Piece::on_board)
        })
    }

    /// After an order: a selected piece that stood on the board before it and is off it
    /// now (removed, routed, escaped) is no longer selected — the panel kept "b2 —
    /// infantry" with its Face buttons for the rest of the game. A piece not yet arrived,
    /// picked from the list to enter, stays selected.
    pub(super) fn forget_gone_selection(&mut self, was_on_board: bool) {
        if was_on_board && !self.selected_on_board() {
            self.rt.play.selected = None;
            self.rt.play.reach = None;
            self.rt.play.path.clear();
        }
    }

    pub(super) fn order(&mut self, action: Action, side: Option<SideId>) {
        let Some(side) = side.or_else(|| self.acting_side()) else {
            return self.fail("no side can act now");
        };
        let before = self.acting_side_after_hidden();
        let was_on_board = self.selected_on_board();
        let Some(session) = &mut self.rt.session else {
            return;
        };
        let ends = matches!(action, Action::EndPhase);
        let stage = crate::words::stage_of(&session.game);
        match session.apply(Order { side, action }) {
            Ok(events) => {
                let game = &session.game;
                let said = if ends {
                    let name = game.sides().get(side.index()).map_or("?", |d| &d.name);
                    crate::words::ended_words(stage.as_ref(), game, name)
                } else {
                    format!(
                        "done ({})",
                        crate::words::count(events.len() as i64, "event")
                    )
                };
                self.say(said);
                self.rt.play.path.clear();
                self.forget_gone_selection(was_on_board);
                self.refresh_reach();
                let after = self.acting_side_after_hidden();
                // The screen passes between the people at the table: a side the computer
                // plays is no one to pass it to (with both sides seated, the view turned
                // at every phase on its own).
                if self.saved.hot_seat
                    && after != before
                    && let Some(next) = after
                    && self
                        .rt
                        .play
                        .players
                        .get(next.index())
                        .is_none_or(Option::is_none)
                {
                    self.rt.play.view = ViewAs::Side(next);
                    self.rt.play.screen_hidden = true;
                    self.rt.play.selected = None;
                    self.rt.play.reach = None;
                }
            }
            Err(e) => self.fail(format!("refused: {e}")),
        }
    }

    /// The side acting by the phase alone (ignoring "View as"): the first of the sides the
    /// kernel says may act now ([`grognard_kernel::game::Game::to_act`]).
    pub(super) fn acting_side_after_hidden(&self) -> Option<SideId> {
        self.rt.session.as_ref()?.game.to_act().first().copied()
    }

    pub(super) fn selected_piece(&self) -> Option<(PieceId, SideId, Place)> {
        let id = self.rt.play.selected?;
        let p = self.rt.session.as_ref()?.game.piece(id)?;
        Some((id, p.side, p.place.clone()))
    }

    pub(super) fn click_cell(&mut self, cell: Cell) {
        let Some(session) = &self.rt.session else {
            return;
        };
        let game = &session.game;
        let mut visible: Vec<&DrawPiece> = self
            .rt
            .play
            .drawn
            .iter()
            .filter(|p| p.look == board::Look::Open && p.place.covers(cell))
            .collect();
        // The counter clicked goes on top, so every choice below that takes the cell's top
        // piece takes the one under the pointer rather than its neighbour in the stack.
        let pointed = self.rt.play.pointed.take();
        if let Some(pointed) = pointed
            && let Some(i) = visible.iter().position(|p| p.id == pointed)
        {
            let p = visible.remove(i);
            visible.push(p);
        }
        let Some((id, _, place)) = self.selected_piece() else {
            if let Some(p) = visible.last() {
                let id = p.id;
                self.apply(Command::Select(Some(id)));
            }
            return;
        };
        if let Some(kind) = self.rt.play.pending.take() {
            let side = self.selected_piece().map(|(_, s, _)| s);
            let action = match kind {
                CellOrder::Redeploy => Action::Redeploy {
                    piece: id,
                    to: cell,
                },
                CellOrder::Extend => Action::Extend {
                    piece: id,
                    to: cell,
                },
                CellOrder::Save => Action::Save {
                    piece: id,
                    toward: cell,
                },
            };
            return self.order(action, side);
        }
        // In the set-up a click on a cell the piece may be deployed to deploys it there,
        // as a click on a reachable cell moves it (the list's `deploy at (x,y)`).
        let deploy = self
            .legal_of(id)
            .find(|a| matches!(a, Action::Deploy { to, .. } if *to == cell))
            .cloned();
        if let Some(deploy) = deploy {
            let side = self.selected_piece().map(|(_, s, _)| s);
            return self.order(deploy, side);
        }
        let Some(start) = place.cell() else {
            return;
        };
        // A click on the selected piece's own counter keeps it (a path being planned is
        // dropped): clicking again to be sure lost the selection to its neighbour in the
        // stack. Another piece of the stack is picked by a click on its own counter.
        if pointed == Some(id) {
            self.rt.play.path.clear();
            return;
        }
        // A click on another piece of the same side picks it, as a player expects; a move
        // onto its cell (where the rules let pieces stack) is given from the Legal orders
        // list instead.
        let own_side = game.piece(id).map(|p| p.side);
        if let Some(other) = visible
            .iter()
            .rev()
            .find(|p| p.id != id && Some(p.side) == own_side)
        {
            let other = other.id;
            return self.apply(Command::Select(Some(other)));
        }
        if cell == start {
            self.rt.play.path.clear();
            return;
        }
        if !self.may_move(id) {
            // No path is planned for a piece that may not move: a click picks what is there.
            match visible.last().map(|p| p.id) {
                Some(other) if other != id => self.apply(Command::Select(Some(other))),
                _ => self.refuse_move_to(id, cell),
            }
            return;
        }
        if self.rt.play.path.last() == Some(&cell) {
            return self.apply(Command::MoveAlongPath);
        }
        let end = self.rt.play.path.last().copied().unwrap_or(start);
        let adjacent = game
            .board()
            .grid()
            .is_some_and(|g| g.direction_to(end, cell).is_some());
        let reachable = match &self.rt.play.reach {
            Some(Reach::Cells(cells)) => cells.path_to(cell),
            _ => None,
        };
        if adjacent && !(self.rt.play.path.is_empty() && reachable.is_none() && !visible.is_empty())
        {
            self.rt.play.path.push(cell);
        } else if let Some(path) = reachable {
            self.rt.play.path = path;
        } else if let Some(p) = visible.last() {
            let other = p.id;
            if other != id {
                self.apply(Command::Select(Some(other)));
            }
        } else {
            self.fail(format!("{cell} is out of reach"));
        }
    }
}

/// Problems listed once each, in the order first met, a repeat counted: `… (×3)`.
#[must_use]
pub fn group_problems(problems: &[String]) -> Vec<String> {
    let mut seen: Vec<(String, usize)> = Vec::new();
    for p in problems {
        match seen.iter_mut().find(|(x, _)| x == p) {
            Some((_, n)) => *n += 1,
            None => seen.push((p.clone(), 1)),
        }
    }
    seen.into_iter()
        .map(|(p, n)| if n > 1 { format!("{p} (×{n})") } else { p })
        .collect()
}

/// The hover card's lines: the piece under the pointer as the viewer knows it, or else
/// the cell (terrain, features, costs); empty off the board. The Play tab and the Remote
/// board both give it (`sides`: the sides' names, in order).
pub(super) fn hover_card(
    (rules, board, baselines_open): (
        &grognard_kernel::rules::Rules,
        &grognard_kernel::board::Board,
        Option<bool>,
    ),
    sides: &[&str],
    pieces: &[DrawPiece],
    click: &board::BoardClick,
) -> Vec<String> {
    let side_name = |p: &DrawPiece| sides.get(p.side.index()).copied().unwrap_or("?");
    let mut lines = Vec::new();
    if let Some(p) = click
        .hover
        .and_then(|id| pieces.iter().find(|p| p.id == id))
    {
        lines = crate::words::piece_card(p, side_name(p));
        explain_levels(rules, &mut lines);
    }
    if let Some(c) = click.hover_cell {
        if lines.is_empty() {
            // Every piece in the cell as drawn, then the cell itself.
            for p in pieces.iter().filter(|p| p.place.covers(c)) {
                lines.extend(crate::words::piece_card(p, side_name(p)));
            }
            explain_levels(rules, &mut lines);
        } else {
            lines.push(String::new());
        }
        lines.extend(crate::words::cell_card(rules, board, c, baselines_open));
    }
    lines
}

/// After a card's `seen B` line, what the side knows at that level (`level B: where it
/// is, real or dummy, …`): the letters alone tell a player nothing.
fn explain_levels(rules: &grognard_kernel::rules::Rules, lines: &mut Vec<String>) {
    let mut out = Vec::with_capacity(lines.len());
    for line in lines.drain(..) {
        let words = line
            .strip_prefix("seen ")
            .and_then(|l| crate::words::sighting_level(rules, l));
        out.push(line);
        out.extend(words);
    }
    *lines = out;
}

/// `card` (from [`hover_card`]) beside the pointer over the board, its first line strong.
pub(super) fn show_card(response: egui::Response, card: &[String]) {
    if card.is_empty() {
        return;
    }
    response.on_hover_ui_at_pointer(|ui| {
        for (i, line) in card.iter().enumerate() {
            if i == 0 {
                ui.label(RichText::new(line).strong());
            } else {
                ui.label(line);
            }
        }
    });
}

/// The phase bar's slot for the turn, phase and result, at its widest.
pub(super) const STATUS_WIDTH: f32 = 380.0;
/// The phase bar's slot for who is to act, at its widest.
pub(super) const TO_ACT_WIDTH: f32 = 170.0;
/// What the phase bar's first row holds besides its two slots: End phase, Undo, View as
/// and its box, Fit board and the panel's fold, with their spacing.
pub(super) const FIXED_ROW_WIDTH: f32 = 520.0;

/// How a finished game ended, as one sentence: the kernel's reason, which already names
/// the winner and the scores when points decided (`blue wins on points (blue 5, red 3)`),
/// said once; the winner and the points are added only where the reason lacks them.
#[must_use]
pub fn result_words(game: &grognard_kernel::game::Game) -> String {
    let Some(r) = game.result() else {
        return "no result".to_owned();
    };
    let name = |i: usize| game.sides().get(i).map_or("?", |d| d.name.as_str());
    let winner = r.winner.map(|w| name(w.index()));
    let scores: Vec<String> = r
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{} {p}", name(i)))
        .collect();
    let scored = r.points.iter().any(|p| *p != 0);
    crate::words::result_sentence(winner, &r.why, scored.then_some(scores.as_slice()))
}
