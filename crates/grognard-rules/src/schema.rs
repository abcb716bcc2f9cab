//! JSON Schemas of the ruleset and scenario files, for editors.
//!
//! The schemas are generated with `schemars` from the file model ([`crate::model`]), so the
//! doc comments of the model become the descriptions an editor shows while typing. They
//! describe the *shape* of a file (keys, types, what is a list or a mapping); the names a
//! file refers to and the numbers' ranges are checked by `grognard validate`.
//!
//! They are written as JSON Schema draft-07, which the YAML language server used by
//! VS Code understands.

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde_json::Value;

use crate::model::{OrdersSpec, RulesetSpec, ScenarioSpec};

/// Which file a schema describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaKind {
    /// A ruleset file.
    Ruleset,
    /// A scenario file.
    Scenario,
    /// An orders file.
    Orders,
}

impl SchemaKind {
    /// Every kind, with the word the command line uses for it.
    pub const ALL: [(&'static str, Self); 3] = [
        ("ruleset", Self::Ruleset),
        ("scenario", Self::Scenario),
        ("orders", Self::Orders),
    ];

    /// The kind named `word` (`ruleset`, `scenario`, `orders`).
    #[must_use]
    pub fn from_word(word: &str) -> Option<Self> {
        Self::ALL.iter().find(|(w, _)| *w == word).map(|(_, k)| *k)
    }
}

/// The JSON Schema of a file kind, as JSON.
///
/// # Example
/// ```
/// use grognard_rules::schema::{SchemaKind, schema};
/// let s = schema(SchemaKind::Ruleset);
/// assert!(s["properties"]["charts"].is_object());
/// assert_eq!(s["additionalProperties"], false);
/// ```
#[must_use]
pub fn schema(kind: SchemaKind) -> Value {
    let (root, title, required): (Schema, &str, &[&str]) = match kind {
        SchemaKind::Ruleset => (root_for::<RulesetSpec>(), "grognard ruleset", &["ruleset"]),
        SchemaKind::Scenario => (
            root_for::<ScenarioSpec>(),
            "grognard scenario",
            &["scenario", "ruleset"],
        ),
        SchemaKind::Orders => (root_for::<OrdersSpec>(), "grognard orders", &["orders"]),
    };
    let mut value = root.to_value();
    close_objects(&mut value);
    if let Some(map) = value.as_object_mut() {
        map.insert("title".into(), Value::from(title));
        map.insert(
            "required".into(),
            Value::from(required.iter().map(|r| Value::from(*r)).collect::<Vec<_>>()),
        );
    }
    value
}

fn root_for<T: JsonSchema>() -> Schema {
    SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<T>()
}

/// Every mapping in the file format accepts only its listed keys (the decoder reports any
/// other as an error), so the schema says so too: editors then flag a misspelt key as it
/// is typed. Mappings of names (`additionalProperties` already set) are left alone.
fn close_objects(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert("additionalProperties".into(), Value::Bool(false));
            }
            for v in map.values_mut() {
                close_objects(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(close_objects),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruleset_schema_names_every_top_level_key_and_closes_mappings() {
        let s = schema(SchemaKind::Ruleset);
        let props = s["properties"].as_object().expect("properties");
        for key in [
            "ruleset",
            "extends",
            "remove",
            "scripts",
            "hooks",
            "title",
            "notes",
            "geometry",
            "arcs",
            "dice",
            "modes",
            "counters",
            "flags",
            "terrain",
            "features",
            "movement",
            "piece_types",
            "stacking",
            "zoc",
            "sequence",
            "charts",
            "actions",
            "settings",
            "options",
        ] {
            assert!(props.contains_key(key), "missing {key}");
        }
        assert_eq!(s["additionalProperties"], false);
        assert_eq!(s["$schema"], "http://json-schema.org/draft-07/schema#");
        // Named mappings stay open: any option name maps to an option.
        let options = &props["options"];
        assert!(options["additionalProperties"].is_object(), "{options}");
    }

    #[test]
    fn scenario_schema_requires_its_names() {
        let s = schema(SchemaKind::Scenario);
        assert_eq!(s["required"], serde_json::json!(["scenario", "ruleset"]));
        assert!(s["properties"]["pieces"].is_object());
    }
}
