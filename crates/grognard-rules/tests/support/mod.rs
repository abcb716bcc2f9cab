//! Helpers shared by the rules compiler's test files: reading the JSON Schema an editor
//! is given (each test file uses some of them).
#![allow(dead_code)]

use grognard_rules::schema::{SchemaKind, schema};
use serde_json::Value;

/// The type definitions of the `kind` schema (under `definitions` or `$defs`).
pub fn schema_defs(kind: SchemaKind) -> Value {
    let s = schema(kind);
    s.get("definitions")
        .or_else(|| s.get("$defs"))
        .cloned()
        .expect("definitions")
}

/// Asserts that each named definition of `defs` offers exactly its words, in order.
pub fn assert_word_lists(defs: &Value, lists: &[(&str, &[&str])]) {
    for (name, words) in lists {
        let def = defs
            .get(name)
            .unwrap_or_else(|| panic!("no {name} in the schema"));
        let listed: Vec<&str> = def["oneOf"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: {def}"))
            .iter()
            .filter_map(|v| v["const"].as_str().or_else(|| v["enum"][0].as_str()))
            .collect();
        assert_eq!(listed, *words, "{name}: {def}");
    }
}
