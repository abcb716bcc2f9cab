//! The Charts tab: every chart cell editable, and the chart's exact odds plotted before and
//! after the change for the inputs chosen.

use egui::{Color32, RichText};
use grognard_rules::odds::{chart_case, percent};

use crate::house::{Workbench, field};
use crate::words::spaced;

use super::{Command, EditorApp};

/// The Rules and Charts tabs' state: what is typed in their fields, the chart shown and
/// the inputs its odds are worked out for.
#[derive(Debug, Default)]
pub(super) struct EditUi {
    /// A field's text as typed, while it differs from the value in force.
    pub(super) texts: std::collections::HashMap<crate::house::FieldPath, String>,
    pub(super) chart: Option<String>,
    pub(super) chart_inputs: std::collections::HashMap<(String, String), i32>,
}

impl EditorApp {
    pub(super) fn charts_tab(&self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(bench) = &self.rt.bench else {
            ui.label("No ruleset open.");
            return;
        };
        let names: Vec<String> = bench
            .current
            .spec
            .charts
            .names()
            .map(str::to_owned)
            .collect();
        let Some(chart) = self
            .rt
            .edit
            .chart
            .clone()
            .or_else(|| names.first().cloned())
        else {
            ui.label("This ruleset has no charts.");
            return;
        };
        ui.horizontal(|ui| {
            // The label before its box, as everywhere in the editor.
            let label = ui.label("Chart");
            // As the top bar's menus: the list takes the room down to the window's bottom
            // and its scroll bar is always drawn (hex-command's 25 charts showed 9, with no
            // sign of the rest). The box is placed in a rect of its own height, so the
            // room is measured from under it.
            let width = 180.0;
            ui.allocate_ui(egui::vec2(width, ui.spacing().interact_size.y), |ui| {
                let list_height = super::bars::menu_room(ui);
                egui::ComboBox::from_id_salt("chart choice")
                    .selected_text(crate::words::spaced(&chart))
                    .height(list_height)
                    .width(width)
                    .popup_style(egui::style::StyleModifier::new(
                        super::bars::solid_scroll_bar,
                    ))
                    .show_ui(ui, |ui| {
                        for n in &names {
                            if ui
                                .selectable_label(*n == chart, crate::words::spaced(n))
                                .clicked()
                            {
                                out.push(Command::ShowChart(n.clone()));
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id);
            });
        });
        ui.horizontal(|ui| {
            ui.label(dice_line(bench, &chart));
            // A field showing an error is not saved as its last good value: the button
            // is greyed and says which field to fix.
            let refused = bench.unsaved_reason();
            if ui
                .add_enabled(
                    bench.is_modified() && refused.is_none(),
                    egui::Button::new("Save as house rule…"),
                )
                .on_disabled_hover_text(
                    refused
                        .as_deref()
                        .unwrap_or("Nothing changed from the base yet"),
                )
                .clicked()
            {
                out.push(Command::Ask(super::FilePurpose::SaveHouseRule));
            }
            if refused.is_some() {
                ui.colored_label(Color32::RED, "fix the field marked ⚠ to save");
            }
        });
        self.field_errors_ui(ui);
        // The odds stay in sight below the chart's cells (at 1280×800 a long band chart
        // pushed the plot off the bottom, with no sign that the tab scrolled); the cells
        // scroll above them, both ways, rather than being cut.
        // A fixed share of the height, so the panel never grows off the window's bottom
        // while it learns its content's height; the plot takes what the numbers leave.
        // The height the odds need (their lines and a plot of ODDS_PLOT_MIN) is theirs when
        // the window has it, up to 75%: a two-line refusal or the path prompt took their
        // share's room and squeezed the plot to a sliver, its outcome labels gone (F10).
        // Shorter still, the odds scroll within their part.
        let room = ui.available_height();
        let row = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
        let outcomes = bench
            .current
            .rules
            .chart_by_name(&chart)
            .and_then(|id| bench.current.rules.chart(id))
            .map_or(0, |d| d.outcomes.len());
        let needed = row * (outcomes as f32 + 7.0) + ODDS_PLOT_MIN + 16.0;
        let size = needed
            .min(room * 0.75)
            .max((room * 0.45).clamp(220.0, 380.0));
        // Short of room for both, the outcome lines fold (one click opens them) so the
        // plot and its labels stay in sight (eleventh player F7: at 800 × 600 the plot
        // showed only once the odds were scrolled, its labels cut).
        // (`needed` leaves two spare rows: short of those alone, nothing folds.)
        let fold = needed - 2.0 * row > size;
        egui::Panel::bottom(format!("odds of {chart}"))
            .resizable(false)
            .exact_size(size)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("odds")
                    .auto_shrink([false, false])
                    .show(ui, |ui| self.odds_ui(ui, bench, &chart, fold, out));
            });
        egui::CentralPanel::default_margins().show(ui, |ui| {
            egui::ScrollArea::both()
                .id_salt("chart cells")
                .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                .show(ui, |ui| self.chart_cells_ui(ui, bench, &chart, out));
        });
    }

    /// A chart's cells: its rows or bands, `otherwise`, and its modifiers, each editable.
    fn chart_cells_ui(
        &self,
        ui: &mut egui::Ui,
        bench: &Workbench,
        chart: &str,
        out: &mut Vec<Command>,
    ) {
        let rows_path = field(&["charts", chart, "rows"]);
        if let Some(serde_json::Value::Array(rows)) = bench.value(&rows_path) {
            ui.label(RichText::new("Rows").strong());
            if rows.is_empty() {
                // A heading over nothing read as a part that failed to draw.
                ui.label("none");
            }
            // Rows told apart only by their conditions (scout_fate's `when: {range: N}`)
            // read as duplicates without them: a column says each row's, when any has one.
            let gated = rows.iter().any(|r| !row_conditions(r).is_empty());
            egui::Grid::new(format!("{chart} Rows"))
                .striped(true)
                .show(ui, |ui| {
                    for (i, row) in rows.iter().enumerate() {
                        let serde_json::Value::Object(cells) = row else {
                            continue;
                        };
                        ui.label(format!("row {}", i + 1));
                        if gated {
                            let when = row_conditions(row);
                            ui.label(if when.is_empty() {
                                "always".into()
                            } else {
                                when
                            })
                            .on_hover_text(
                                "The row is read only when these inputs have these \
                                     values; the conditions are edited in the ruleset file.",
                            );
                        }
                        for (key, v) in cells {
                            if v.is_object() || v.is_array() {
                                continue;
                            }
                            ui.label(key);
                            let mut path = rows_path.clone();
                            path.push(i.to_string());
                            path.push(key.clone());
                            self.field_ui(
                                ui,
                                &path,
                                &format!("{} row {} {key}", spaced(chart), i + 1),
                                out,
                            );
                        }
                        ui.end_row();
                    }
                });
        }
        self.band_rows_ui(ui, bench, chart, out);
        if bench
            .value(&field(&["charts", chart, "otherwise"]))
            .is_some_and(|v| !v.is_null())
        {
            ui.horizontal(|ui| {
                ui.label("otherwise");
                self.field_ui(
                    ui,
                    &field(&["charts", chart, "otherwise"]),
                    &format!("{} otherwise", spaced(chart)),
                    out,
                );
            });
        }
        if let Some(serde_json::Value::Array(mods)) =
            bench.value(&field(&["charts", chart, "modifiers"]))
        {
            ui.label(RichText::new("Modifiers").strong());
            if mods.is_empty() {
                ui.label("none");
            }
            egui::Grid::new(format!("{chart} modifiers"))
                .striped(true)
                .show(ui, |ui| {
                    for (i, m) in mods.iter().enumerate() {
                        let name = m.get("name").and_then(|v| v.as_str()).unwrap_or("?");
                        ui.label(spaced(name));
                        // A multiplying modifier's value is its factor: its `per` is
                        // unused, and its box read "per 0" beside a halving.
                        let key = if m.get("times").is_some_and(|t| !t.is_null()) {
                            "times"
                        } else {
                            "per"
                        };
                        ui.label(key);
                        self.field_ui(
                            ui,
                            &field(&["charts", chart, "modifiers", &i.to_string(), key]),
                            &format!("{} modifier {} {key}", spaced(chart), spaced(name)),
                            out,
                        );
                        // The sign and what it counts, as the dice log says a modifier
                        // ("+1 hits on the firer"): the box alone gave no direction.
                        ui.label(modifier_words(&bench.current.rules, chart, name));
                        ui.end_row();
                    }
                });
        }
    }

    /// A band chart's bands, one a row in fixed columns: its name, its test, the outcomes
    /// on a pass and a fail. The test is what a band rolls: `always` or `never` (editable),
    /// a lowest face (`at_least`, editable), or a face marked with tags, said in words
    /// (`a face marked red and star`) — a blank box there read as a test left out.
    fn band_rows_ui(
        &self,
        ui: &mut egui::Ui,
        bench: &Workbench,
        chart: &str,
        out: &mut Vec<Command>,
    ) {
        let list = field(&["charts", chart, "bands", "rows"]);
        let Some(serde_json::Value::Array(rows)) = bench.value(&list) else {
            return;
        };
        ui.label(RichText::new("Bands").strong());
        if rows.is_empty() {
            ui.label("none");
            return;
        }
        egui::Grid::new(format!("{chart} Bands"))
            .striped(true)
            .show(ui, |ui| {
                for (i, row) in rows.iter().enumerate() {
                    let path = |key: &str| {
                        let mut p = list.clone();
                        p.push(i.to_string());
                        p.push(key.to_owned());
                        p
                    };
                    // Numbered as the band input counts them (band 0 first), the number
                    // the odds below and `grognard chart --set` take.
                    let name = |key: &str| format!("{chart} band {i} {key}");
                    ui.label(format!("band {i}"));
                    ui.label("named");
                    self.field_ui(ui, &path("band"), &name("band"), out);
                    ui.label("test");
                    let set = |key: &str| row.get(key).is_some_and(|v| !v.is_null());
                    if set("test") {
                        self.field_ui(ui, &path("test"), &name("test"), out);
                    } else if set("at_least") {
                        ui.horizontal(|ui| {
                            ui.label("a face of at least");
                            self.field_ui(ui, &path("at_least"), &name("at_least"), out);
                        });
                    } else {
                        ui.label(band_face_test(row)).on_hover_text(
                            "The die's faces carry marks (see the ruleset's dice); \
                             which marks pass is edited in the ruleset file.",
                        );
                    }
                    for key in ["pass", "fail"] {
                        ui.label(key);
                        self.field_ui(ui, &path(key), &name(key), out);
                    }
                    ui.end_row();
                }
            });
    }

    /// The chart's exact odds for the inputs set here, before and after the edits: the
    /// inputs, the band used and the modifiers with their signs, each outcome's odds in
    /// numbers (folded when `fold`), then a plot in the height the numbers leave.
    pub(super) fn odds_ui(
        &self,
        ui: &mut egui::Ui,
        bench: &Workbench,
        chart: &str,
        fold: bool,
        out: &mut Vec<Command>,
    ) {
        let now = &bench.current.rules;
        let Some(def) = now.chart_by_name(chart).and_then(|id| now.chart(id)) else {
            return;
        };
        ui.label(RichText::new("Exact odds, before → after").strong());
        // The inputs scroll in what the lines under them and the plot with its labels
        // leave: black-powder's *command* has 23, whose rows pushed the plot off the
        // window at 800×600 and its bar names at 1400×900 (thirteenth player F10, F12).
        // What the lines under the inputs took in the last frame (else a guess).
        let between_id = ui.make_persistent_id(("odds lines height", chart));
        let between = ui
            .ctx()
            .data(|d| d.get_temp::<f32>(between_id))
            .unwrap_or_else(|| {
                let row =
                    ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
                row * (4.0 + if fold { 1.0 } else { def.outcomes.len() as f32 })
            });
        let inputs_most = (ui.available_height() - ODDS_PLOT_MIN - ODDS_LABEL_ROOM - between)
            .max(ui.spacing().interact_size.y);
        let set = egui::ScrollArea::vertical()
            .id_salt(("odds inputs", chart))
            .max_height(inputs_most)
            .auto_shrink([false, true])
            .show(ui, |ui| self.odds_inputs_ui(ui, now, def, chart, out))
            .inner;
        let lines_top = ui.cursor().top();
        let after = chart_case(def, &now.dice, &set);
        let before = odds_before(bench, def, chart, &set);
        if let Some(line) = band_used(def, &set, &after) {
            ui.label(line);
        }
        if !after.modifiers.is_empty() {
            let m: Vec<String> = after
                .modifiers
                .iter()
                .map(|m| format!("{} {}", signed(m.value), spaced(&m.name)))
                .collect();
            ui.label(format!("modifiers: {}", m.join(", ")));
        }
        // Words under the bars where each fits its bar, else numbers, and the lines
        // numbered alike.
        let labels = bar_labels(ui, &def.outcomes);
        let (lines, bars) = odds_lines(def, &after, before.as_ref(), labels.is_none());
        if fold {
            egui::CollapsingHeader::new(format!(
                "each outcome's odds, before → after ({})",
                lines.len()
            ))
            .id_salt(("odds lines", chart))
            .default_open(false)
            .show(ui, |ui| lines.iter().for_each(|l| drop(ui.label(l))));
        } else {
            lines.iter().for_each(|l| drop(ui.label(l)));
        }
        if let Some(line) = score_spread(def, &now.dice, &after.inputs) {
            ui.label(line);
        }
        let labels =
            labels.unwrap_or_else(|| (1..=def.outcomes.len()).map(|i| i.to_string()).collect());
        let took = ui.cursor().top() - lines_top;
        if (took - between).abs() > 0.5 {
            ui.ctx().data_mut(|d| d.insert_temp(between_id, took));
            ui.ctx().request_repaint();
        }
        odds_plot_ui(ui, chart, labels, bars);
    }

    /// The chart's inputs, each with its box (and a band's name, and a distance band's
    /// distance); returns each input's index with the value set.
    fn odds_inputs_ui(
        &self,
        ui: &mut egui::Ui,
        now: &grognard_kernel::rules::Rules,
        def: &grognard_kernel::chart::ChartDef,
        chart: &str,
        out: &mut Vec<Command>,
    ) -> Vec<(usize, i32)> {
        let mut set = Vec::new();
        ui.horizontal_wrapped(|ui| {
            for (i, input) in def.inputs.iter().enumerate() {
                let key = (chart.to_owned(), input.name.clone());
                let typical = self.typical_input(now, input);
                let mut v = self
                    .rt
                    .edit
                    .chart_inputs
                    .get(&key)
                    .copied()
                    .or(typical.as_ref().map(|(v, _)| *v))
                    .unwrap_or(input.default);
                // Each input's words and box kept together on one line: a label left at
                // a line's end with its box on the next read as two inputs.
                let words = odds_input_name(def, i);
                let font = egui::TextStyle::Body.resolve(ui.style());
                let words_width = ui.fonts_mut(|f| {
                    f.layout_no_wrap(words.clone(), font, Color32::WHITE)
                        .size()
                        .x
                });
                // What is left of the row (a wrapping row's available width is the whole).
                if ui.max_rect().right() - ui.cursor().left() < words_width + ODDS_BOX_ROOM {
                    ui.end_row();
                }
                let from = typical.map_or_else(String::new, |(v, whence)| {
                    format!("; it starts at {v}, {whence}")
                });
                let label = ui
                    .add(egui::Label::new(words).wrap_mode(egui::TextWrapMode::Extend))
                    .on_hover_text(format!("chart input `{}`{from}", input.name));
                let r = ui
                    .add(egui::DragValue::new(&mut v).range(input.min..=input.max))
                    .labelled_by(label.id);
                if r.changed() {
                    out.push(Command::ChartInput(input.name.clone(), v));
                }
                // Bands are named on the chart ("Color", "Code"): the number alone
                // meant counting rows.
                if let grognard_kernel::chart::Lookup::Band { base, rows } = &def.lookup
                    && *base == i
                    && let Some(row) =
                        rows.get(grognard_kernel::chart::ChartDef::band_index(rows, v, 0))
                {
                    ui.label(format!("({})", row.name));
                }
                // A band read from a distance can be set by the distance itself, in the
                // designer's units (`3 hexes` → band 2), as `grognard chart --set` does.
                if let Some((bands, unit)) = distance_bands(now, input) {
                    let key = (chart.to_owned(), format!("{} ({unit})", input.name));
                    let band_of = |d: i32| {
                        let d32 = u32::try_from(d).unwrap_or(0);
                        bands.iter().position(|b| d32 <= *b).unwrap_or(bands.len())
                    };
                    // The distance typed, while it still lies in the band set: a band
                    // changed in its own box afterwards left "band 1 = hexes 3".
                    let mut d = self
                        .rt
                        .edit
                        .chart_inputs
                        .get(&key)
                        .copied()
                        .filter(|d| usize::try_from(v).is_ok_and(|b| b == band_of(*d)))
                        .unwrap_or_else(|| {
                            // The nearest distance the band covers.
                            usize::try_from(v)
                                .ok()
                                .and_then(|b| b.checked_sub(1))
                                .and_then(|b| bands.get(b))
                                .map_or(0, |top| i32::try_from(*top).unwrap_or(0) + 1)
                        });
                    let shown = ui.label(format!("= {unit}"));
                    if ui
                        .add(egui::DragValue::new(&mut d).range(0..=9_999))
                        .labelled_by(shown.id)
                        .changed()
                    {
                        let band = band_of(d);
                        out.push(Command::ChartInput(key.1.clone(), d));
                        out.push(Command::ChartInput(
                            input.name.clone(),
                            i32::try_from(band).unwrap_or(i32::MAX),
                        ));
                    }
                }
                set.push((i, v));
            }
        });
        set
    }

    /// Where an input read from a piece's attribute (a staff rating) and given no default
    /// starts: the value most of the scenario's pieces have (else the piece types'), and
    /// those words. At 0 black-powder's *command* read "no moves 97%" until a staff of 8
    /// was guessed (twelfth player, finding 4). `None`: the input starts at its default.
    fn typical_input(
        &self,
        now: &grognard_kernel::rules::Rules,
        input: &grognard_kernel::chart::InputDef,
    ) -> Option<(i32, String)> {
        use grognard_kernel::chart::InputSource;
        let (Some(InputSource::ActorAttribute(a) | InputSource::TargetAttribute(a)), 0) =
            (&input.source, input.default)
        else {
            return None;
        };
        let raw = now.piece_attributes.name(*a);
        let name = crate::words::spaced(raw);
        // By name: the game in play may run under another version of the ruleset.
        let pieces = self.rt.session.as_ref().and_then(|s| {
            let at = s.game.rules().piece_attributes.find(raw)?;
            Some(
                s.game
                    .state()
                    .pieces
                    .iter()
                    .map(|p| p.attribute(at))
                    .collect::<Vec<_>>(),
            )
        });
        let types = now
            .piece_types
            .iter()
            .map(|t| t.attributes.get(*a).copied().unwrap_or(0));
        // A flag (at most 1) starts at the value most pieces have, 0 counted: counting only
        // the others started every flag at 1, "reliable prolong" beside "unreliable
        // prolong" (thirteenth player F10).
        let flag = input.max <= 1;
        let (v, whence) = match pieces.and_then(|p| most_common(p.into_iter(), flag)) {
            Some(v) => (v, format!("the {name} most of the scenario's pieces have")),
            None => (
                most_common(types, flag)?,
                format!("the {name} most piece types have"),
            ),
        };
        Some((v.clamp(input.min, input.max), whence))
    }
}

/// The value most of `values` other than 0 have (with `zero`, 0 counted too; the
/// smallest of a tie); `None` when all are 0 (with `zero`: when there are none).
fn most_common(values: impl Iterator<Item = i32>, zero: bool) -> Option<i32> {
    let mut counts = std::collections::BTreeMap::new();
    for v in values.filter(|v| zero || *v != 0) {
        *counts.entry(v).or_insert(0usize) += 1;
    }
    let top = counts.values().copied().max()?;
    counts.into_iter().find(|(_, n)| *n == top).map(|(v, _)| v)
}

/// The odds of the base ruleset's chart of the same name for the same inputs (those it
/// has), with its outcomes' names; `None` when the base has no such chart.
fn odds_before(
    bench: &Workbench,
    def: &grognard_kernel::chart::ChartDef,
    chart: &str,
    set: &[(usize, i32)],
) -> Option<(Vec<String>, grognard_rules::odds::ChartCase)> {
    let before_rules = &bench.base.rules;
    before_rules
        .chart_by_name(chart)
        .and_then(|id| before_rules.chart(id))
        .map(|b| {
            let set: Vec<(usize, i32)> = def
                .inputs
                .iter()
                .zip(set)
                .filter_map(|(inp, (_, v))| {
                    b.inputs
                        .iter()
                        .position(|x| x.name == inp.name)
                        .map(|j| (j, *v))
                })
                .collect();
            (b.outcomes.clone(), chart_case(b, &before_rules.dice, &set))
        })
}

/// Bars of the odds before and after the edits.
type OddsBars = (Vec<egui_plot::Bar>, Vec<egui_plot::Bar>);

/// Each outcome's odds before → after, a line each, and the plot's bars.
fn odds_lines(
    def: &grognard_kernel::chart::ChartDef,
    after: &grognard_rules::odds::ChartCase,
    before: Option<&(Vec<String>, grognard_rules::odds::ChartCase)>,
    numbered: bool,
) -> (Vec<String>, OddsBars) {
    let mut lines = Vec::new();
    let mut bars_before = Vec::new();
    let mut bars_after = Vec::new();
    for (i, name) in def.outcomes.iter().enumerate() {
        let now_p = after.odds.get(i).map_or(0.0, |p| percent(*p));
        let was = before.and_then(|(names, case)| {
            names
                .iter()
                .position(|n| n == name)
                .and_then(|j| case.odds.get(j))
                .map(|p| percent(*p))
        });
        // Spaced as the plot's axis says them (`three moves`, not `three_moves`).
        let said = spaced(name);
        let number = if numbered {
            format!("{}. ", i + 1)
        } else {
            String::new()
        };
        let text = match was {
            Some(w) => format!("{number}{said}: {w:.2}% → {now_p:.2}%"),
            None => format!("{number}{said}: new, {now_p:.2}%"),
        };
        lines.push(text);
        bars_after.push(
            egui_plot::Bar::new(i as f64 + 0.2, now_p)
                .width(0.38)
                .name(&said),
        );
        if let Some(w) = was {
            bars_before.push(
                egui_plot::Bar::new(i as f64 - 0.2, w)
                    .width(0.38)
                    .name(&said),
            );
        }
    }
    (lines, (bars_before, bars_after))
}

/// The least height of the odds plot: less hid its outcome labels.
const ODDS_PLOT_MIN: f32 = 140.0;

/// Room kept under the plot beside its own axis strip (a name broken over two lines).
const ODDS_LABEL_ROOM: f32 = 8.0;

/// The before and after bars, in the height the lines above leave (at least
/// [`ODDS_PLOT_MIN`]).
fn odds_plot_ui(
    ui: &mut egui::Ui,
    chart: &str,
    outcomes: Vec<String>,
    (bars_before, bars_after): OddsBars,
) {
    // The rest of the panel, so the plot ends inside the window.
    let height = (ui.available_height() - 4.0).clamp(ODDS_PLOT_MIN, 240.0);
    // Labels as close as their bars: the axis's own least spacing (60 points) dropped
    // five of decision failure's eleven (tenth player F20).
    let axis = egui_plot::AxisHints::new_x()
        .formatter(super::index_axis(outcomes))
        .label_spacing(egui::Rangef::new(12.0, 16.0));
    let plot = super::fixed_plot(format!("odds {chart}"), height)
        .legend(egui_plot::Legend::default())
        .include_y(100.0)
        .custom_x_axes(vec![axis])
        .show(ui, |plot| {
            plot.bar_chart(egui_plot::BarChart::new("before", bars_before).color(Color32::GRAY));
            plot.bar_chart(
                egui_plot::BarChart::new("after", bars_after).color(Color32::from_rgb(220, 140, 0)),
            );
        });
    ui.ctx()
        .data_mut(|d| d.insert_temp(odds_plot_id(), plot.response.rect));
}

/// Each outcome's label under its bar, spaced as the lines above say them (the axis read
/// `three_moves`: tenth player F15), its words broken over lines where the whole name is
/// wider than a bar's share of the plot; `None` when a word is wider still (the plot does
/// not draw a label wider than its bar's share: the bars are numbered instead).
fn bar_labels(ui: &egui::Ui, outcomes: &[String]) -> Option<Vec<String>> {
    let font = egui::TextStyle::Body.resolve(ui.style());
    let width = |t: &str| {
        ui.ctx()
            .fonts_mut(|f| f.layout_no_wrap(t.to_owned(), font.clone(), Color32::WHITE))
            .size()
            .x
    };
    // The bars stand at 0..n with some room either side.
    let share = ui.available_width() / (outcomes.len() as f32 + 1.0) - 6.0;
    outcomes
        .iter()
        .map(|o| {
            let mut lines: Vec<String> = Vec::new();
            for word in spaced(o).split(' ') {
                match lines.last_mut() {
                    Some(l) if width(&format!("{l} {word}")) <= share => {
                        l.push(' ');
                        l.push_str(word);
                    }
                    _ => lines.push(word.to_owned()),
                }
            }
            lines
                .iter()
                .all(|l| width(l) <= share)
                .then(|| lines.join("\n"))
        })
        .collect()
}

/// What a chart's modifier adds, with its sign, for each unit of what input:
/// `+1 for each firer hits`, `−1 for each commander` (the compiled ruleset's; "" when the
/// chart or the modifier is not there, as while a typed value is refused).
#[must_use]
pub fn modifier_words(rules: &grognard_kernel::rules::Rules, chart: &str, name: &str) -> String {
    let Some(def) = rules.chart_by_name(chart).and_then(|id| rules.chart(id)) else {
        return String::new();
    };
    let input_words = |i: usize| {
        def.inputs
            .get(i)
            .map_or_else(|| "?".to_owned(), |x| spaced(&x.name))
    };
    if let Some(s) = def.scales.iter().find(|s| s.name == name) {
        return format!("score {} while {}", s.factor.verb(), input_words(s.input));
    }
    let Some(m) = def.modifiers.iter().find(|m| m.name == name) else {
        return String::new();
    };
    let input = input_words(m.input);
    let sign = if m.per < 0 { "−" } else { "+" };
    format!("{sign}{} for each {input}", m.per.unsigned_abs())
}

/// For a score chart whose score is the amount it gives (it has multiplying modifiers, or
/// one outcome only), how that score falls for these inputs after the modifiers:
/// `score after modifiers: 1 → 50.00%, 2 → 33.33%, 3 → 16.67% (mean 1.67)`. Musketry's
/// one row read only "hits: 100.00%", which says nothing of how many.
#[must_use]
pub fn score_spread(
    def: &grognard_kernel::chart::ChartDef,
    dice: &[grognard_kernel::dice::DieDef],
    inputs: &[i32],
) -> Option<String> {
    let grognard_kernel::chart::Lookup::Score { .. } = &def.lookup else {
        return None;
    };
    if def.scales.is_empty() && def.outcomes.len() > 1 {
        return None;
    }
    let points = def.roll_points(dice, inputs, false)?;
    let mut by_score: std::collections::BTreeMap<i32, f64> = std::collections::BTreeMap::new();
    for p in &points {
        *by_score.entry(p.score).or_default() += percent(p.p);
    }
    let mean: f64 = by_score
        .iter()
        .map(|(s, p)| f64::from(*s) * p / 100.0)
        .sum();
    let each: Vec<String> = by_score
        .iter()
        .map(|(s, p)| format!("{} → {p:.2}%", signed_plain(*s)))
        .collect();
    Some(format!(
        "score after modifiers: {} (mean {mean:.2})",
        each.join(", ")
    ))
}

/// A score as a number, a minus sign for a negative.
fn signed_plain(v: i32) -> String {
    if v < 0 {
        format!("−{}", v.unsigned_abs())
    } else {
        v.to_string()
    }
}

/// `v` with its sign, as the modifiers table writes it ([`crate::words::signed`]).
pub use crate::words::signed;

/// For a band chart, the band the roll is made in once the modifiers are added, and how it
/// got there: `band used: 3 (Code'n Color) — band 1 +2 from modifiers`. The input's own
/// box names the band set, which a modifier may move (it read "band 1 (Color)" while a
/// +3 sent the roll "out of reach").
#[must_use]
pub fn band_used(
    def: &grognard_kernel::chart::ChartDef,
    set: &[(usize, i32)],
    case: &grognard_rules::odds::ChartCase,
) -> Option<String> {
    let grognard_kernel::chart::Lookup::Band { base, .. } = &def.lookup else {
        return None;
    };
    let (index, name) = case.band.as_ref()?;
    let set_to = set.iter().find(|(i, _)| i == base).map_or(0, |(_, v)| *v);
    let how = if case.modifier_total == 0 {
        "no modifier moves it".to_owned()
    } else {
        format!(
            "band {set_to} {} from modifiers",
            signed(case.modifier_total)
        )
    };
    Some(format!("band used: {index} ({name}) — {how}"))
}

/// The room an odds input's box and the words after it take beside its name.
const ODDS_BOX_ROOM: f32 = 60.0;

/// What the odds inputs call chart input `i`: the name of the one modifier that reads it
/// ("hits on the firer", as the chart's modifier list says), else its own name spaced
/// (`firer_hits` read as a raw id).
#[must_use]
pub fn odds_input_name(def: &grognard_kernel::chart::ChartDef, i: usize) -> String {
    // Adding and multiplying modifiers alike: musketry's `skirmishers` input is read by
    // the halving "skirmish order", which the table above names.
    let mut readers = def
        .modifiers
        .iter()
        .filter(|m| m.input == i)
        .map(|m| &m.name)
        .chain(def.scales.iter().filter(|s| s.input == i).map(|s| &s.name));
    match (readers.next(), readers.next()) {
        (Some(name), None) => name.clone(),
        _ => def
            .inputs
            .get(i)
            .map_or_else(String::new, |x| crate::words::spaced(&x.name)),
    }
}

/// The bands of an input read from a distance, with the unit its distance is counted in
/// (`hexes`, `squares`, `rule inches`, `inches`).
fn distance_bands<'a>(
    rules: &grognard_kernel::rules::Rules,
    input: &'a grognard_kernel::chart::InputDef,
) -> Option<(&'a [u32], &'static str)> {
    use grognard_kernel::chart::InputSource;
    use grognard_kernel::rules::GeometryRules;
    match (&input.source, &rules.geometry) {
        (Some(InputSource::TableDistanceBand(b)), _) => Some((b, "inches")),
        (Some(InputSource::DistanceBand(b)), GeometryRules::Open { .. }) => {
            Some((b, "rule inches"))
        }
        (Some(InputSource::DistanceBand(b)), GeometryRules::Hex { .. }) => Some((b, "hexes")),
        (Some(InputSource::DistanceBand(b)), _) => Some((b, "squares")),
        _ => None,
    }
}

/// Which dice a chart rolls and how they are read, in words: `Dice: 2d6 (score: the first
/// row the total reaches)`.
#[must_use]
pub fn dice_line(bench: &Workbench, chart: &str) -> String {
    let dice = bench
        .value(&field(&["charts", chart, "dice"]))
        .and_then(|v| v.as_str().map(crate::words::spaced))
        .unwrap_or_else(|| "none".to_owned());
    let how = if bench
        .value(&field(&["charts", chart, "bands"]))
        .is_some_and(|v| !v.is_null())
    {
        "band: modifiers shift the band, the band's test reads the dice"
    } else {
        "score: dice + modifiers, the first row the score meets"
    };
    let secret = bench
        .value(&field(&["charts", chart, "secret"]))
        .is_some_and(|v| v.as_bool() == Some(true));
    format!(
        "Dice: {dice} ({how}){}",
        if secret {
            "; rolled in secret by the referee"
        } else {
            ""
        }
    )
}

/// A band's face test in words, from its `any` or `all` marks: `a face marked red`,
/// `a face marked red or star`, `a face marked red and star`.
#[must_use]
pub fn band_face_test(row: &serde_json::Value) -> String {
    let marks = |key: &str| -> Vec<String> {
        row.get(key)
            .and_then(serde_json::Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (all, any) = (marks("all"), marks("any"));
    if !all.is_empty() {
        format!("a face marked {}", all.join(" and "))
    } else if !any.is_empty() {
        format!("a face marked {}", any.join(" or "))
    } else {
        "no face test".to_owned()
    }
}

fn odds_plot_id() -> egui::Id {
    egui::Id::unique("charts tab odds plot")
}

/// Where the Charts tab drew its odds plot in the last frame.
#[must_use]
pub fn odds_plot_rect(ctx: &egui::Context) -> Option<egui::Rect> {
    ctx.data(|d| d.get_temp(odds_plot_id()))
}

/// A chart row's conditions in words (`when range = 1, class = 0`), the inputs spaced as a
/// player reads them; empty for a row read whatever the inputs.
#[must_use]
pub fn row_conditions(row: &serde_json::Value) -> String {
    let Some(serde_json::Value::Object(when)) = row.get("when") else {
        return String::new();
    };
    if when.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = when
        .iter()
        .map(|(input, v)| {
            let v = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            format!("{} = {v}", crate::words::spaced(input))
        })
        .collect();
    format!("when {}", parts.join(", "))
}
