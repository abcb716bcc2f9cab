//! The ruleset's dice: numeric dice and dice with custom faces (whose tags charts test),
//! and the common numeric dice every ruleset has without declaring them.

use grognard_kernel::dice::{DieDef, Face};
use grognard_kernel::ids::TagId;

use crate::cx::FromIndex;
use crate::model::RulesetSpec;

use super::Cx;

/// The dice: numeric dice (`sides: N`) and dice with custom faces, each face's tags
/// interned in order of first use. Returns the tag names, the dice and their names.
pub(super) fn compile_dice<'a>(
    cx: &mut Cx,
    spec: &'a RulesetSpec,
) -> (Vec<&'a str>, Vec<DieDef>, Vec<String>) {
    let mut tag_names: Vec<&str> = Vec::new();
    let mut dice = Vec::new();
    let mut die_names = Vec::new();
    for d in spec.dice.iter() {
        let faces = match (d.value.sides, d.value.faces.is_empty()) {
            (Some(sides), true) if sides >= 2 => DieDef::numeric(&d.name.value, sides).faces,
            (None, false) => {
                d.value
                    .faces
                    .iter()
                    .enumerate()
                    .map(|(i, f)| Face {
                        value: f.value,
                        label: if f.label.is_empty() {
                            (i + 1).to_string()
                        } else {
                            f.label.clone()
                        },
                        tags: f
                            .tags
                            .iter()
                            .map(|t| {
                                let idx = tag_names
                                    .iter()
                                    .position(|n| *n == t.value)
                                    .unwrap_or_else(|| {
                                        tag_names.push(&t.value);
                                        tag_names.len() - 1
                                    });
                                TagId::from_index(idx)
                            })
                            .collect(),
                    })
                    .collect()
            }
            _ => {
                cx.error(
                    &d.name.location,
                    format!(
                        "die `{}` needs either `sides: N` (N ≥ 2) or a list of `faces`, not both",
                        d.name.value
                    ),
                );
                Vec::new()
            }
        };
        if faces.len() > 100 {
            cx.error(
                &d.name.location,
                format!(
                    "die `{}` has {} faces; at most 100",
                    d.name.value,
                    faces.len()
                ),
            );
        }
        die_names.push(d.name.value.clone());
        dice.push(DieDef {
            name: d.name.value.clone(),
            faces,
        });
    }
    (tag_names, dice, die_names)
}

/// Adds the common numeric dice a ruleset has not declared (nor a chart used), so hooks
/// and house rules can roll them without declaring them.
pub(super) fn add_common_dice(dice: &mut Vec<DieDef>, die_names: &mut Vec<String>) {
    for sides in [4u8, 6, 8, 10, 12, 20] {
        let name = format!("d{sides}");
        if !die_names.contains(&name) {
            dice.push(DieDef::numeric(&name, sides));
            die_names.push(name);
        }
    }
}
