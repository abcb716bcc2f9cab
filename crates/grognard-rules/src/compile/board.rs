//! The ruleset's board: its geometry and arcs, the terrain types, the boundary features
//! and the movement classes (what each terrain costs to enter).

use grognard_kernel::Cost;
use grognard_kernel::geometry::ArcSpec;
use grognard_kernel::geometry::open::Len;
use grognard_kernel::rules::{FeatureDef, FeatureKind, GeometryRules, MoveClassDef, TerrainDef};

use crate::model::{self, GeometryKind, RulesetSpec};

use super::parse::cost_or_impassable;
use super::{Cx, table_scale};
use crate::names::{NameTable, kind};

/// The board's geometry (square, hex or open, with its step costs or scale) and the
/// width of the front and rear arcs (the geometry's defaults unless the ruleset says).
pub(super) fn compile_geometry(cx: &mut Cx, spec: &RulesetSpec) -> (GeometryRules, ArcSpec) {
    let square = GeometryRules::Square {
        orthogonal: spec.geometry.orthogonal.as_ref().map_or(Cost::ONE, |c| c.0),
        diagonal: spec
            .geometry
            .diagonal
            .as_ref()
            .map_or(Cost::from_hundredths(150), |c| c.0),
    };
    let geometry = match spec.geometry.kind.as_ref().map(|k| k.value) {
        Some(GeometryKind::Square) => square,
        Some(GeometryKind::Hex) => GeometryRules::Hex {
            step: spec.geometry.step.as_ref().map_or(Cost::ONE, |c| c.0),
        },
        Some(GeometryKind::Open) => GeometryRules::Open {
            scale: table_scale(spec),
        },
        None => {
            cx.error(
                &spec.ruleset.location,
                "the ruleset needs `geometry: { kind: square }` (or `hex`, or `open`)",
            );
            GeometryRules::Square {
                orthogonal: Cost::ONE,
                diagonal: Cost::from_hundredths(150),
            }
        }
    };
    let arcs = spec.arcs.as_ref().map_or(
        match geometry {
            GeometryRules::Hex { .. } => ArcSpec {
                front_half_angle: 60,
                rear_half_angle: 30,
            },
            _ => ArcSpec {
                front_half_angle: 45,
                rear_half_angle: 45,
            },
        },
        |a| ArcSpec {
            front_half_angle: a.front.min(180),
            rear_half_angle: a.rear.min(180),
        },
    );
    (geometry, arcs)
}

/// The terrain types with their attributes and, on open tables, how far sight reaches
/// into and through them (rule inches to table thou, through the table's scale).
pub(super) fn compile_terrain(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
) -> Vec<TerrainDef> {
    if spec.terrain.is_empty() {
        cx.error(
            &spec.ruleset.location,
            "the ruleset declares no `terrain:`; the first terrain is what unpainted cells are",
        );
    }
    let scale = table_scale(spec);
    let scaled = |hundredths: i32| scale.apply(Len(i64::from(hundredths) * 10));
    spec.terrain
        .iter()
        .map(|t| {
            let mut attributes = vec![0; names.terrain_attrs.len()];
            for a in t.value.attributes.iter() {
                if let Some(i) = names.index(cx, kind::TerrainAttribute, &a.name) {
                    attributes[i] = a.value;
                }
            }
            TerrainDef {
                see_out_within: t
                    .value
                    .see_out_within
                    .as_ref()
                    .map(|d| scaled(d.value.0.hundredths())),
                see_through: t
                    .value
                    .see_through
                    .as_ref()
                    .map(|d| scaled(d.value.0.hundredths())),
                name: t.name.value.clone(),
                blocks_sight: t.value.blocks_sight,
                attributes,
            }
        })
        .collect()
}

/// The boundary features: roads, barriers (with their cost, or impassable, and the modes
/// they stop) and crossings.
pub(super) fn compile_features(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
) -> Vec<FeatureDef> {
    spec.features
        .iter()
        .map(|f| {
            let name = &f.name.value;
            let kind = feature_kind(cx, name, &f.value);
            if kind.is_none() {
                cx.error(
                    &f.name.location,
                    format!("feature `{name}` needs a `kind:`: road, barrier or crossing"),
                );
            }
            let kind = kind.unwrap_or(FeatureKind::Road);
            if !f.value.closed_to.is_empty() && !matches!(kind, FeatureKind::Barrier { .. }) {
                cx.error(
                    &f.value.closed_to[0].location,
                    format!(
                        "feature `{name}`: `closed_to` lists modes a barrier stops, so only a \
                         barrier may have it"
                    ),
                );
            }
            FeatureDef {
                name: name.clone(),
                kind,
                blocks_sight: f.value.blocks_sight,
                capacity: f.value.capacity,
                closed_to: names.ids(cx, kind::Mode, &f.value.closed_to),
            }
        })
        .collect()
}

/// A feature's kind with its cost; `None` when the file gives no kind.
fn feature_kind(cx: &mut Cx, name: &str, f: &model::FeatureSpec) -> Option<FeatureKind> {
    Some(match f.kind.as_ref()?.value {
        model::FeatureKind::Road => {
            if let Some(c) = &f.cost {
                cx.error(
                    &c.location,
                    format!(
                        "feature `{name}`: roads have no cost; a road lets road modes ignore terrain"
                    ),
                );
            }
            FeatureKind::Road
        }
        model::FeatureKind::Barrier => FeatureKind::Barrier {
            cost: f
                .cost
                .as_ref()
                .and_then(|c| cost_or_impassable(cx, c).flatten()),
        },
        model::FeatureKind::Crossing => FeatureKind::Crossing {
            cost: match &f.cost {
                Some(c) => match cost_or_impassable(cx, c) {
                    Some(Some(v)) => v,
                    Some(None) => {
                        cx.error(
                            &c.location,
                            format!(
                                "feature `{name}`: a crossing is a way over barriers, so it \
                                 cannot be impassable"
                            ),
                        );
                        Cost::ZERO
                    }
                    None => Cost::ZERO,
                },
                None => Cost::ZERO,
            },
        },
    })
}

/// The movement classes: each terrain's extra cost to enter (or impassable), `others`
/// for the terrain a class does not list.
pub(super) fn compile_movement(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
) -> Vec<MoveClassDef> {
    spec.movement
        .iter()
        .map(|m| {
            let others = match &m.value.others {
                Some(o) => cost_or_impassable(cx, o).unwrap_or(Some(Cost::ZERO)),
                None => Some(Cost::ZERO),
            };
            let mut enter = vec![others; names.terrain.len()];
            for e in m.value.enter.iter() {
                if let Some(i) = names.index(cx, kind::Terrain, &e.name)
                    && let Some(c) = cost_or_impassable(cx, &e.value)
                {
                    enter[i] = c;
                }
            }
            MoveClassDef {
                name: m.name.value.clone(),
                enter,
                stops_on_costly: m.value.stops_on_costly,
            }
        })
        .collect()
}
