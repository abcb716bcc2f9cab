//! The Remote tab's side panels: the seat's legal orders (grouped per piece, in the Play
//! tab's words, a click sending one) and the chat. The tab itself, its forms and the board
//! are in `remote_tab`.

use egui::RichText;
use grognard_kernel::board::Surface;
use grognard_rules::model::OrderSpec;

use super::remote_tab::chat_label;
use super::{Command, EditorApp};

/// Most order buttons listed in one piece's group (a long list scrolls; more are counted).
const MAX_LISTED: usize = 200;

/// The heading over the seat's legal orders: with a piece selected, its own orders as its
/// group below counts them (the orders naming no piece, end phase, are not its orders;
/// counting them read "for ames (4)" over a group of 3).
#[must_use]
pub fn legal_heading(listed: &[&OrderSpec], selected: Option<&str>) -> String {
    let specs: Vec<serde_json::Value> = listed
        .iter()
        .map(|o| serde_json::to_value(o).unwrap_or_default())
        .collect();
    let own = selected.and_then(|name| {
        crate::words::group_orders(&specs)
            .into_iter()
            .find(|(p, _)| p.as_deref() == Some(name))
            .map(|(_, orders)| orders.len())
    });
    match (selected, own) {
        (Some(name), Some(n)) => format!("Legal orders for {name} ({n})"),
        _ => format!("Legal orders ({})", listed.len()),
    }
}

impl EditorApp {
    pub(super) fn remote_legal_ui(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(s) = self.remote() else {
            return;
        };
        if self.remote_draggable().is_some() {
            ui.label(
                "Drag the selected piece's base to move it (the wheel turns it as it goes), \
                 or pull the handle ahead of it to turn it where it stands: the server \
                 judges the move.",
            );
        }
        let listed = self.remote_legal();
        let selected = self.remote_selected_name();
        let heading = legal_heading(&listed, selected.as_deref());
        egui::CollapsingHeader::new(RichText::new(heading).strong())
        .id_salt("remote legal orders")
        .default_open(true)
        .show(ui, |ui| {
            if listed.is_empty() {
                let waiting = s
                    .state()
                    .map(|st| st.status.to_act.join(" and "))
                    .filter(|w| !w.is_empty())
                    .unwrap_or_else(|| "nobody".into());
                ui.label(format!("No order to give now; {waiting} acts."));
                return;
            }
            if self.rt.remote.selected.is_none() {
                // An open table has no cells to mark: its bases are dragged.
                let open = s
                    .table()
                    .is_some_and(|t| matches!(t.board.surface, Surface::Open { .. }));
                ui.label(if open {
                    "Click one of your pieces to see only its orders; then drag its base where it goes."
                } else {
                    "Click one of your pieces to see only its orders; then a marked cell moves it there."
                });
            }
            egui::ScrollArea::vertical()
                .id_salt("remote legal list")
                .max_height(220.0)
                .show(ui, |ui| {
                    // In the Play tab's words and groups: one folding group per piece (the
                    // selected piece's open), the orders naming no piece last.
                    let specs: Vec<serde_json::Value> = listed
                        .iter()
                        .map(|o| serde_json::to_value(o).unwrap_or_default())
                        .collect();
                    for (piece, orders) in crate::words::group_orders(&specs) {
                        let mut buttons = |ui: &mut egui::Ui| {
                            for (i, words) in orders.iter().take(MAX_LISTED) {
                                if ui
                                    .add_enabled(s.connected(), egui::Button::new(words.as_str()))
                                    .clicked()
                                    && let Some(order) = listed.get(*i)
                                {
                                    out.push(Command::RemoteOrder(Box::new((*order).clone())));
                                }
                            }
                            if orders.len() > MAX_LISTED {
                                ui.label(format!("… and {} more", orders.len() - MAX_LISTED));
                            }
                        };
                        match piece {
                            Some(name) => {
                                let open = selected.as_ref().map(|s| *s == name);
                                egui::CollapsingHeader::new(format!(
                                    "{name}: {}",
                                    crate::words::count(orders.len() as i64, "order")
                                ))
                                .id_salt(("remote legal of", name.as_str()))
                                .open(open)
                                .show(ui, buttons);
                            }
                            None => buttons(ui),
                        }
                    }
                });
        });
    }

    pub(super) fn remote_chat_ui(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(s) = self.rt.remote.session.as_ref() else {
            return;
        };
        ui.label(RichText::new("Chat").strong());
        egui::ScrollArea::vertical()
            .id_salt("remote chat")
            .max_height(160.0)
            .stick_to_bottom(true)
            .show(ui, |ui| {
                if s.chat().is_empty() {
                    ui.label("No one has said anything yet.");
                }
                for line in s.chat() {
                    ui.label(chat_label(line));
                }
            });
        let connected = s.connected();
        let input = &mut self.rt.remote.chat_input;
        ui.horizontal(|ui| {
            let label = ui.label("Say");
            let edit = ui
                .add(egui::TextEdit::singleline(input).desired_width(220.0))
                .labelled_by(label.id);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui
                .add_enabled(connected, egui::Button::new("Send"))
                .clicked()
                || enter)
                && connected
                && !input.trim().is_empty()
            {
                out.push(Command::RemoteChat(input.clone()));
            }
        });
    }
}
