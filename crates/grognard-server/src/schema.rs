//! The JSON Schema of a side's view (`grognard schema view`): the object `view --json
//! --side S` prints, `remote view --json` prints and a seat's `view` field carries over
//! HTTP and the WebSocket. It is written here by hand, beside the server that sends views,
//! because the kernel's view types carry no schema derive; the test
//! `tests/view_schema.rs` checks every view of the bundled example games against it, so a
//! field added to the view without its place here fails that test.

use serde_json::{Map, Value, json};

/// The JSON Schema (draft 2020-12) of one side's view with its log.
#[must_use]
pub fn view_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "grognard side view",
        "description": "What one side sees: `grognard view --json --side SIDE`, `grognard remote view --json`, and a seat's `view` over HTTP and the WebSocket. Numbers that index the ruleset's tables (a piece's `kind`, `mode`, `facing`, `counters`, `flags`, `attributes`) come with their names beside them: `own_names` for own pieces, `names` and `facing_name` for enemies.",
        "type": "object",
        "additionalProperties": false,
        "required": ["view", "events"],
        "properties": {
            "view": reference("View"),
            "events": {"type": "array", "description": "The side's own log, oldest first, as it saw each event.", "items": reference("Event")}
        },
        "$defs": defs()
    })
}

/// The schema's `$defs`, by concern.
fn defs() -> Map<String, Value> {
    let mut defs = Map::new();
    for part in [
        view_defs(),
        piece_defs(),
        enemy_defs(),
        place_defs(),
        event_defs(),
    ] {
        if let Value::Object(m) = part {
            defs.extend(m);
        }
    }
    defs
}

fn int() -> Value {
    json!({"type": "integer"})
}

fn nullable(t: &str) -> Value {
    json!({"type": [t, "null"]})
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/$defs/{name}")})
}

fn or_null(name: &str) -> Value {
    json!({"anyOf": [{"$ref": format!("#/$defs/{name}")}, {"type": "null"}]})
}

/// The view itself and the result of a game that is over.
fn view_defs() -> Value {
    let int = int();
    json!({
        "View": {
            "type": "object",
            "additionalProperties": false,
            "required": ["side", "side_name", "turn", "phase", "phasing", "over", "own", "own_names", "enemy"],
            "properties": {
                "side": {"type": "integer", "description": "The side's index in the scenario's `sides`."},
                "side_name": {"type": "string"},
                "turn": int,
                "phase": {"type": ["string", "null"], "description": "The phase's name; null once the game is over."},
                "phasing": {"type": ["string", "null"], "description": "The phasing side's name."},
                "over": {"type": "boolean"},
                "result": reference("Result"),
                "own": {"type": "array", "description": "The side's own pieces, in full.", "items": reference("Piece")},
                "own_names": {"type": "array", "description": "The numbers of each piece of `own` by the ruleset's names, in the same order.", "items": reference("Names")},
                "own_face_up": {"type": "array", "description": "Ids (in `own`) of own pieces whose markers are face up: the enemy sees them for what they are.", "items": int},
                "enemy": {"type": "array", "description": "Enemy pieces the side knows anything of, by the side's handles.", "items": reference("Enemy")},
                "built": {"type": "array", "description": "Features drawn on the board in play (a bridge built), public to every side; absent when none.", "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["feature", "between"],
                    "properties": {
                        "feature": {"type": "string", "description": "The feature's name in the ruleset."},
                        "between": {"type": "array", "description": "The two neighbouring cells whose boundary it lies on.", "items": reference("Cell")}
                    }
                }}
            }
        },
        "Result": {
            "type": "object",
            "additionalProperties": false,
            "required": ["winner", "points", "why"],
            "properties": {
                "winner": {"type": ["integer", "null"], "description": "The winning side's index; null for a draw."},
                "points": {"type": "array", "description": "Each side's points, by side index.", "items": int},
                "why": {"type": "string"}
            }
        }
    })
}

/// An own piece in full, its numbers by name, and its base on the open table.
fn piece_defs() -> Value {
    let int = int();
    json!({
        "Piece": {
            "type": "object",
            "additionalProperties": false,
            "required": ["id", "name", "side", "kind", "place", "facing", "mode", "counters", "flags", "attributes", "attached_to", "moved", "acted"],
            "properties": {
                "id": {"type": "integer", "description": "The side's handle for the piece."},
                "name": {"type": "string", "description": "The scenario's name for it."},
                "side": int,
                "kind": {"type": "integer", "description": "Its piece type's index (named in `Names.kind`)."},
                "place": reference("Place"),
                "facing": {"type": "integer", "description": "A grid direction's index, clockwise from east (named in `Names.facing`)."},
                "mode": {"type": "integer", "description": "Its mode's index (named in `Names.mode`)."},
                "counters": {"type": "array", "description": "Counter values by counter index (named in `Names.counters`).", "items": int},
                "flags": {"type": "integer", "description": "One bit per flag index (named in `Names.flags`)."},
                "attributes": {"type": "array", "items": int},
                "attached_to": nullable("integer"),
                "moved": {"type": "boolean"},
                "acted": {"type": "integer", "description": "One bit per action used this phase."},
                "footprint": {"type": "array", "items": {"anyOf": [reference("Base"), {"type": "null"}]}},
                "saved_toward": reference("Cell")
            }
        },
        "Names": {
            "type": "object",
            "additionalProperties": false,
            "required": ["kind", "mode", "facing", "counters", "flags", "attributes", "base"],
            "properties": {
                "kind": {"type": "string", "description": "The piece type's name."},
                "mode": {"type": "string"},
                "facing": {"type": "string", "description": "A grid direction (`E`, `SE`, `N`...) or, on an open table, the angle (`90°`, clockwise from east)."},
                "counters": {"type": "object", "description": "Every counter's value by name.", "additionalProperties": int},
                "flags": {"type": "array", "description": "The names of the flags set.", "items": {"type": "string"}},
                "attributes": {"type": "object", "additionalProperties": int},
                "base": or_null("Base")
            }
        },
        "Base": {
            "type": "object",
            "additionalProperties": false,
            "required": ["width", "depth"],
            "description": "A base on the open table, in thousandths of an inch.",
            "properties": {"width": int, "depth": int}
        }
    })
}

/// An enemy piece as the side knows it, and where it last saw it.
fn enemy_defs() -> Value {
    let int = int();
    json!({
        "Enemy": {
            "type": "object",
            "additionalProperties": false,
            "required": ["handle", "side", "place", "facing", "last_seen", "level", "face_up", "real", "kind", "strength", "identity", "facing_name", "names", "mode", "remembered"],
            "properties": {
                "handle": {"type": "integer", "description": "The side's handle for it (`#N` in texts)."},
                "side": int,
                "place": or_null("Place"),
                "facing": nullable("integer"),
                "last_seen": or_null("Seen"),
                "level": nullable("string"),
                "face_up": {"type": "boolean"},
                "real": nullable("boolean"),
                "kind": nullable("string"),
                "strength": nullable("integer"),
                "identity": or_null("Piece"),
                "facing_name": nullable("string"),
                "names": or_null("Names"),
                "mode": {"type": ["string", "null"], "description": "Its mode, public wherever its position is known."},
                "remembered": {"type": "array", "description": "The facts (real, kind, strength, identity) shown as last disclosed, not disclosed now.", "items": {"type": "string"}}
            }
        },
        "Seen": {
            "type": "object",
            "additionalProperties": false,
            "required": ["place", "facing", "turn"],
            "properties": {"place": reference("Place"), "facing": int, "turn": int}
        }
    })
}

/// Where a piece stands: a cell, a spread, a point on the open table, or off the board.
fn place_defs() -> Value {
    let int = int();
    json!({
        "Cell": {
            "type": "object",
            "additionalProperties": false,
            "required": ["col", "row"],
            "properties": {"col": int, "row": int}
        },
        "Place": {
            "description": "A cell, a spread over several cells, a point on the open table (thousandths of an inch; facing in tenths of a degree clockwise from east), or off the board.",
            "oneOf": [
                {"type": "object", "additionalProperties": false, "required": ["cell"], "properties": {"cell": reference("Cell")}},
                {"type": "object", "additionalProperties": false, "required": ["spread"], "properties": {"spread": {"type": "array", "items": reference("Cell")}}},
                {"type": "object", "additionalProperties": false, "required": ["point"], "properties": {"point": {
                    "type": "object", "additionalProperties": false, "required": ["at", "facing"],
                    "properties": {
                        "at": {"type": "object", "additionalProperties": false, "required": ["x", "y"], "properties": {"x": int, "y": int}},
                        "facing": int
                    }
                }}},
                {"enum": ["off"]}
            ]
        }
    })
}

/// One event of the log.
fn event_defs() -> Value {
    json!({
        "Event": {
            "type": "object",
            "description": "One event of the log, tagged by `event`; its other fields are the event's own (pieces by the side's handles).",
            "required": ["event"],
            "properties": {
                "event": {"enum": [
                    "phase_began", "initiative", "moved", "moved_on_table", "faced",
                    "mode_changed", "acted", "rolled", "counter_changed", "flag_changed",
                    "placed", "placed_on_table", "arrived", "attached", "removed", "note",
                    "game_over", "game_result", "sighted", "contact", "enemy_moved",
                    "spot_rolled", "announced", "saved", "spread", "redeployed"
                ]}
            }
        }
    })
}
