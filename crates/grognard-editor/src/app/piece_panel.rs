//! The Play tab's piece panel: the selected piece, where it can reach, and its order
//! buttons (modes, facings, the ruleset's actions, *More orders*), each live only when the
//! legal list holds its order and otherwise greyed with the kernel's own reason for
//! refusing it (the same refusal `grognard play` prints), or hidden when the piece can
//! never take it.

use egui::RichText;
use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::Reach;
use grognard_kernel::geometry::{Cell, Facing};
use grognard_kernel::ids::{ActionId, ModeId, PieceId};
use grognard_kernel::piece::Piece;
use grognard_kernel::rules::Allowed;

use crate::board::DrawPiece;
use crate::words::spaced;

use super::{CellOrder, Command, EditorApp};

impl EditorApp {
    pub(super) fn piece_panel(
        &self,
        ui: &mut egui::Ui,
        pieces: &[DrawPiece],
        out: &mut Vec<Command>,
    ) {
        let Some(session) = &self.rt.session else {
            return;
        };
        let game = &session.game;
        let Some(id) = self.rt.play.selected else {
            ui.label("Select a piece on the board or in the list.");
            return;
        };
        let Some(p) = game.piece(id) else {
            return;
        };
        let rules = game.rules();
        let kind = rules
            .piece_type(p.kind)
            .map_or_else(|| "?".to_owned(), |t| spaced(&t.name));
        ui.label(
            RichText::new(format!(
                "{} — {kind}, {} mode",
                p.name,
                spaced(rules.mode_name(p.mode))
            ))
            .strong(),
        );
        if let Some(d) = pieces.iter().find(|d| d.id == id) {
            for m in &d.markers {
                ui.label(crate::words::marker_line(rules, &p.name, m));
            }
        }
        let legal: Vec<&Action> = self.legal_of(id).collect();
        let why = self.why_not_now();
        self.reach_ui(ui, p, &legal, &why, out);
        self.more_orders_ui(ui, p, &legal, &why, out);
        self.phase_orders_ui(ui, p, &legal, &why, pieces, out);
    }

    /// Where the selected piece can go (its reach, or why it cannot move now) and the path
    /// being planned, with Move and Clear path.
    fn reach_ui(
        &self,
        ui: &mut egui::Ui,
        p: &Piece,
        legal: &[&Action],
        why: &str,
        out: &mut Vec<Command>,
    ) {
        let Some(session) = &self.rt.session else {
            return;
        };
        let game = &session.game;
        let id = p.id;
        match self.rt.play.reach.as_ref().filter(|_| self.may_move(id)) {
            Some(Reach::Cells(cells)) => {
                // Only where a legal move ends (the list the kernel gives the side in view).
                let ends: Vec<Cell> = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Move { path, .. } => path.last().copied(),
                        _ => None,
                    })
                    .collect();
                let mut sorted: Vec<_> = cells.iter().filter(|r| ends.contains(&r.cell)).collect();
                ui.label(format!("{} can reach {} places", p.name, sorted.len()));
                egui::CollapsingHeader::new("Reach (cell, cost)")
                    .id_salt("reach list")
                    .show(ui, |ui| {
                        sorted.sort_by_key(|r| (r.cost, r.cell.row, r.cell.col));
                        for r in sorted {
                            ui.label(format!("{} costs {}", r.cell, r.cost));
                        }
                    });
            }
            Some(Reach::Radius(r)) => {
                ui.label(format!(
                    "{} can move up to {r}\" in a straight line",
                    p.name
                ));
                ui.label(
                    "Drag it to move it (the wheel turns it as it goes), or pull the handle \
                     ahead of it to turn it where it stands. Point at another piece to \
                     measure to it.",
                );
            }
            // In the set-up a piece is deployed, not moved: its deploy cells are shaded
            // (F6: "cannot move now (no legal move)" read as "it can do nothing").
            None if legal.iter().any(|a| matches!(a, Action::Deploy { .. })) => {
                let places = legal
                    .iter()
                    .filter(|a| matches!(a, Action::Deploy { .. }))
                    .count();
                ui.label(format!(
                    "{} may be deployed: {places} places, shaded on the board (click one)",
                    p.name
                ));
            }
            None => {
                let reason = if game.to_act().contains(&p.side) && self.legal_side() == Some(p.side)
                {
                    "no legal move".to_owned()
                } else {
                    why.to_owned()
                };
                ui.label(format!("{} cannot move now ({reason})", p.name));
            }
        }
        if !self.rt.play.path.is_empty() {
            let text: Vec<String> = self.rt.play.path.iter().map(ToString::to_string).collect();
            ui.label(format!("path: {}", text.join(" → ")));
            ui.horizontal(|ui| {
                if ui.button("Move").clicked() {
                    out.push(Command::MoveAlongPath);
                }
                if ui.button("Clear path").clicked() {
                    out.push(Command::ClearPath);
                }
            });
        }
    }

    /// The orders that name a cell (Redeploy, Extend, Save toward…) and Gather, under
    /// *More orders*: only those this ruleset and piece can ever take.
    fn more_orders_ui(
        &self,
        ui: &mut egui::Ui,
        p: &Piece,
        legal: &[&Action],
        why: &str,
        out: &mut Vec<Command>,
    ) {
        let Some(session) = &self.rt.session else {
            return;
        };
        let rules = session.game.rules();
        // Orders that can never apply here (this ruleset has no spreading, saving, or this
        // piece is no dummy) are not shown at all: greyed is kept for what applies to the
        // ruleset but is not legal now.
        let is_dummy = rules.piece_type(p.kind).is_some_and(|t| t.dummy);
        let cell_orders: Vec<(CellOrder, &str)> = [
            (CellOrder::Redeploy, "Redeploy to…", is_dummy),
            (CellOrder::Extend, "Extend to…", rules.spread.is_some()),
            (CellOrder::Save, "Save toward…", rules.saving.is_some()),
        ]
        .into_iter()
        .filter_map(|(kind, name, applies)| applies.then_some((kind, name)))
        .collect();
        let may_gather = rules.spread.is_some();
        if !cell_orders.is_empty() || may_gather {
            egui::CollapsingHeader::new("More orders")
                .id_salt("more orders")
                .show(ui, |ui| {
                    ui.horizontal_wrapped(|ui| {
                        for (kind, name) in cell_orders {
                            let listed = legal.iter().any(|a| {
                                matches!(
                                    (kind, a),
                                    (CellOrder::Redeploy, Action::Redeploy { .. })
                                        | (CellOrder::Extend, Action::Extend { .. })
                                        | (CellOrder::Save, Action::Save { .. })
                                )
                            });
                            if ui
                                .add_enabled(
                                    listed,
                                    egui::Button::selectable(
                                        self.rt.play.pending == Some(kind),
                                        name,
                                    ),
                                )
                                .on_disabled_hover_text(why)
                                .clicked()
                            {
                                out.push(Command::CellOrder(
                                    (self.rt.play.pending != Some(kind)).then_some(kind),
                                ));
                            }
                        }
                        if may_gather {
                            let gather = legal
                                .iter()
                                .copied()
                                .find(|a| matches!(a, Action::Gather { .. }));
                            let why = self.reason_for(&Action::Gather { piece: p.id }, why);
                            offer(ui, out, "Gather".to_owned(), gather, &why);
                        }
                    });
                    if self.rt.play.pending.is_some() {
                        ui.label("Click the cell on the board.");
                    }
                });
        }
    }

    /// The orders the phase allows: a mode, a facing, the ruleset's actions (each target a
    /// button of its own), greyed with the reason where the legal list lacks them.
    fn phase_orders_ui(
        &self,
        ui: &mut egui::Ui,
        p: &Piece,
        legal: &[&Action],
        why: &str,
        pieces: &[DrawPiece],
        out: &mut Vec<Command>,
    ) {
        let Some(session) = &self.rt.session else {
            return;
        };
        let game = &session.game;
        let rules = game.rules();
        let allowed: Vec<Allowed> = game
            .phase()
            .map(|(ph, _)| ph.allows.clone())
            .unwrap_or_default();
        // A piece with no other mode it may take (black-powder's brigadier) shows no
        // "mode:" row: an empty one put its *order at …* buttons under "mode:".
        let other_modes = (0..rules.modes.len())
            .map(|i| ModeId(i as u16))
            .any(|m| m != p.mode && can_take(rules, p, m));
        if allowed.contains(&Allowed::Mode) && other_modes {
            ui.horizontal_wrapped(|ui| {
                // "mode: Mode line" read as the label said twice (fourteenth player): the
                // row says what its buttons do, each button the mode's own name.
                ui.label("change mode to:");
                for (i, m) in rules.modes.iter().enumerate() {
                    let mode = ModeId(i as u16);
                    // A mode the piece's type can never take is no choice of its: not
                    // shown (black-powder offered infantry "limbered").
                    if mode == p.mode || !can_take(rules, p, mode) {
                        continue;
                    }
                    let a = legal
                        .iter()
                        .copied()
                        .find(|a| matches!(a, Action::Mode { mode: x, .. } if *x == mode));
                    let why = self.reason_for(&Action::Mode { piece: p.id, mode }, why);
                    offer(ui, out, spaced(&m.name), a, &why);
                }
            });
        }
        if allowed.contains(&Allowed::Face)
            && let Some(grid) = game.board().grid()
        {
            ui.horizontal_wrapped(|ui| {
                ui.label("face:");
                for f in 0..grid.facings() {
                    let facing = Facing(f);
                    if facing == p.facing {
                        continue;
                    }
                    let a = legal
                        .iter()
                        .copied()
                        .find(|a| matches!(a, Action::Face { facing: x, .. } if *x == facing));
                    let why = self.reason_for(
                        &Action::Face {
                            piece: p.id,
                            facing,
                        },
                        why,
                    );
                    offer(
                        ui,
                        out,
                        format!("Face {}", grid.facing_name(facing)),
                        a,
                        &why,
                    );
                }
            });
        }
        for a in &allowed {
            let Allowed::Action(aid) = a else { continue };
            let Some(def) = rules.actions.get(aid.index()) else {
                continue;
            };
            if !def.types.is_empty() && !def.types.contains(&p.kind) {
                // This piece's type can never take it.
                continue;
            }
            let listed: Vec<&Action> = legal
                .iter()
                .copied()
                .filter(|a| matches!(a, Action::Act { action, .. } if action == aid))
                .collect();
            // What the order does, from the ruleset's description, on the live button's
            // hover: hex-command's *change orders* looked as harmless as *attach*, yet its
            // failed roll hit every unit of the side (outside player E9).
            let about = session
                .scenario
                .ruleset
                .spec
                .actions
                .get(&def.name)
                .and_then(|a| a.description.as_deref())
                .map(|d| crate::words::description_for_player(d).0)
                .unwrap_or_default();
            ui.horizontal_wrapped(|ui| {
                if listed.is_empty() {
                    let why = self.reason_for(&unlisted_act(p.id, *aid), why);
                    offer(ui, out, spaced(&def.name), None, &why);
                    return;
                }
                for a in listed {
                    let Action::Act { target, intent, .. } = a else {
                        continue;
                    };
                    let mut text = spaced(&def.name);
                    if let Some(t) = target {
                        // The target as the side in view knows it.
                        let name = pieces
                            .iter()
                            .find(|d| d.id == *t)
                            .map(|d| d.name.clone())
                            .filter(|n| !n.is_empty())
                            .unwrap_or_else(|| format!("#{}", t.0));
                        // Said as the legal list says it: "artillery fire at r1".
                        text = format!("{text} at {name}");
                    }
                    if !intent.is_empty() {
                        let each: Vec<String> = intent.iter().map(|i| spaced(i)).collect();
                        text = format!("{text} (to {})", each.join(", "));
                    }
                    if about.is_empty() {
                        offer(ui, out, text, Some(a), why);
                    } else if ui.button(text).on_hover_text(&about).clicked() {
                        out.push(Command::Give(a.clone()));
                    }
                }
            });
        }
    }
}

/// An order's button: live when the legal list holds the order (`a`), else greyed with
/// `why` on hover — every order is offered only when the legal list holds it.
fn offer(ui: &mut egui::Ui, out: &mut Vec<Command>, text: String, a: Option<&Action>, why: &str) {
    match a {
        Some(a) => {
            if ui.button(text).clicked() {
                out.push(Command::Give(a.clone()));
            }
        }
        None => {
            ui.add_enabled(false, egui::Button::new(text))
                .on_disabled_hover_text(why);
        }
    }
}

/// True when `p`'s type can be in `mode` at all (the kernel refuses any other: "infantry
/// pieces cannot take limbered mode").
fn can_take(rules: &grognard_kernel::rules::Rules, p: &Piece, mode: ModeId) -> bool {
    rules.piece_type(p.kind).is_some_and(|t| t.can_take(mode))
}

/// The order an action's greyed button stands for: the action with no target or intent.
fn unlisted_act(piece: PieceId, action: ActionId) -> Action {
    Action::Act {
        piece,
        action,
        target: None,
        intent: Vec::new(),
    }
}

impl EditorApp {
    /// The orders the piece panel offers `p` as buttons that the legal list lacks: the
    /// phase's modes its type can take, its facings, the ruleset's actions its type may
    /// take with no listed order, and Gather.
    fn unlisted_buttons(&self, p: &Piece) -> Vec<Action> {
        let Some(session) = &self.rt.session else {
            return Vec::new();
        };
        let game = &session.game;
        let rules = game.rules();
        let allowed: Vec<Allowed> = game
            .phase()
            .map(|(ph, _)| ph.allows.clone())
            .unwrap_or_default();
        let mut out = Vec::new();
        if allowed.contains(&Allowed::Mode) {
            out.extend(
                (0..rules.modes.len())
                    .map(|i| ModeId(i as u16))
                    .filter(|m| *m != p.mode && can_take(rules, p, *m))
                    .map(|mode| Action::Mode { piece: p.id, mode }),
            );
        }
        if allowed.contains(&Allowed::Face)
            && let Some(grid) = game.board().grid()
        {
            out.extend(
                (0..grid.facings())
                    .map(Facing)
                    .filter(|f| *f != p.facing)
                    .map(|facing| Action::Face {
                        piece: p.id,
                        facing,
                    }),
            );
        }
        for a in &allowed {
            let Allowed::Action(aid) = a else { continue };
            let Some(def) = rules.actions.get(aid.index()) else {
                continue;
            };
            let listed = self
                .legal_of(p.id)
                .any(|l| matches!(l, Action::Act { action, .. } if action == aid));
            if !listed && (def.types.is_empty() || def.types.contains(&p.kind)) {
                out.push(unlisted_act(p.id, *aid));
            }
        }
        if rules.spread.is_some() {
            out.push(Action::Gather { piece: p.id });
        }
        let legal: Vec<&Action> = self.legal_of(p.id).collect();
        out.retain(|a| !legal.contains(&a));
        out
    }

    /// Asks the kernel why each greyed button of the selected piece would be refused
    /// (once per game state, side and piece): its hover says the rule that bars the order,
    /// as `grognard play` would, not only that the legal list lacks it. Only while the
    /// side in view acts: otherwise who acts is the reason.
    pub(super) fn refresh_refusals(&mut self) {
        let side = self.legal_side().filter(|_| !self.reviewing());
        let (Some(id), Some(side)) = (self.rt.play.selected, side) else {
            self.rt.play.refusals.clear();
            self.rt.play.refusals_key = None;
            return;
        };
        let Some(session) = &self.rt.session else {
            return;
        };
        let key = (session.generation(), side, id);
        if self.rt.play.refusals_key == Some(key) {
            return;
        }
        self.rt.play.refusals_key = Some(key);
        self.rt.play.refusals.clear();
        let Some(p) = session.game.piece(id) else {
            return;
        };
        if p.side != side || !session.game.to_act().contains(&side) {
            return;
        }
        let asked = self.unlisted_buttons(&p.clone());
        let Some(session) = &mut self.rt.session else {
            return;
        };
        for action in asked {
            let order = Order {
                side,
                action: action.clone(),
            };
            if let Some(why) = session.refusal(&order) {
                self.rt.play.refusals.push((action, why));
            }
        }
    }

    /// What a greyed button says on hover: the kernel's refusal of its order when there is
    /// one, else `why` (who acts now, or that the legal list lacks it).
    pub(super) fn reason_for(&self, action: &Action, why: &str) -> String {
        self.rt
            .play
            .refusals
            .iter()
            .find(|(a, _)| a == action)
            .map_or_else(|| why.to_owned(), |(_, w)| w.clone())
    }

    /// A click on a cell the selected piece may not move to now: the kernel is asked why
    /// (the move the click would give, tried on a copy of the game) and its words are
    /// shown, as `grognard play` prints a refusal.
    pub(super) fn refuse_move_to(&mut self, id: PieceId, cell: Cell) {
        let path = match &self.rt.play.reach {
            Some(Reach::Cells(cells)) => cells.path_to(cell),
            _ => None,
        }
        .unwrap_or_else(|| vec![cell]);
        let Some(session) = &mut self.rt.session else {
            return;
        };
        let Some(p) = session.game.piece(id) else {
            return;
        };
        let (name, side) = (p.name.clone(), p.side);
        let order = Order {
            side,
            action: Action::Move { piece: id, path },
        };
        match session.refusal(&order) {
            Some(why) => self.fail(format!("{name} to {cell} refused: {why}")),
            None => {
                let why = self.why_not();
                self.fail(format!("{name} cannot move now ({why})"));
            }
        }
    }
}

impl EditorApp {
    /// What the piece panel's button for `action` says on hover while greyed (tests read
    /// it): the kernel's refusal of that order, or else who acts now.
    #[must_use]
    pub fn greyed_reason(&self, action: &Action) -> String {
        let end_phase = *action == Action::EndPhase;
        self.reason_for(action, &self.why_not_now_for(end_phase))
    }
}
