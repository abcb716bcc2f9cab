//! `grognard schema view` against real views: every side's view of every bundled example,
//! after every order of its orders file, validates against the schema (a field the view
//! gains without its place in the schema fails here); and the names beside each piece are
//! its numbers, named by the ruleset.

mod common;

use common::root;
use grognard_kernel::game::Game;
use grognard_kernel::hooks::{Hooks, NoHooks};
use grognard_kernel::ids::SideId;
use grognard_lua::LuaHooks;
use grognard_rules::load;
use grognard_rules::orders::resolve_order;
use grognard_server::schema::view_schema;
use serde_json::{Value, json};

/// The keywords the view schema uses, checked as JSON Schema (draft 2020-12) does.
fn check(schema: &Value, defs: &Value, v: &Value, at: &str, problems: &mut Vec<String>) {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        let target = defs.get(name).unwrap_or_else(|| panic!("no $defs/{name}"));
        return check(target, defs, v, at, problems);
    }
    if let Some(types) = schema.get("type") {
        let names: Vec<&str> = match types {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => panic!("bad type keyword"),
        };
        let fits = names.iter().any(|t| match *t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "integer" => v.is_i64() || v.is_u64(),
            "boolean" => v.is_boolean(),
            "null" => v.is_null(),
            other => panic!("type {other} unhandled"),
        });
        if !fits {
            problems.push(format!("{at}: {v} is not {names:?}"));
            return;
        }
    }
    if let Some(e) = schema.get("enum").and_then(Value::as_array)
        && !e.contains(v)
    {
        problems.push(format!("{at}: {v} is not one of {e:?}"));
    }
    for (key, all) in [("anyOf", false), ("oneOf", true)] {
        if let Some(options) = schema.get(key).and_then(Value::as_array) {
            let fits = options
                .iter()
                .filter(|o| {
                    let mut p = Vec::new();
                    check(o, defs, v, at, &mut p);
                    p.is_empty()
                })
                .count();
            if fits == 0 || (all && fits > 1) {
                problems.push(format!("{at}: {v} fits {fits} of {key}"));
            }
        }
    }
    if let Some(object) = v.as_object() {
        let properties = schema.get("properties").and_then(Value::as_object);
        for r in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let r = r.as_str().unwrap();
            if !object.contains_key(r) {
                problems.push(format!("{at}: `{r}` missing"));
            }
        }
        for (k, x) in object {
            let here = format!("{at}.{k}");
            match (
                properties.and_then(|p| p.get(k)),
                schema.get("additionalProperties"),
            ) {
                (Some(s), _) => check(s, defs, x, &here, problems),
                (None, Some(Value::Bool(false))) => {
                    problems.push(format!("{here}: not in the schema"));
                }
                (None, Some(s @ Value::Object(_))) => check(s, defs, x, &here, problems),
                (None, _) => {}
            }
        }
    }
    if let (Some(items), Some(list)) = (schema.get("items"), v.as_array()) {
        for (i, x) in list.iter().enumerate() {
            check(items, defs, x, &format!("{at}[{i}]"), problems);
        }
    }
}

fn hooks(s: &load::Scenario) -> Box<dyn Hooks> {
    if LuaHooks::wanted(&s.ruleset) {
        Box::new(LuaHooks::new(&s.ruleset, grognard_lua::Limits::default()).unwrap())
    } else {
        Box::new(NoHooks)
    }
}

fn problems_of(game: &Game, schema: &Value, at: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for i in 0..game.sides().len() {
        let side = SideId(i as u8);
        let v = json!({"view": game.view(side), "events": game.side_events(side)});
        check(
            schema,
            &schema["$defs"],
            &v,
            &format!("{at} side {i}"),
            &mut problems,
        );
    }
    problems
}

#[test]
fn every_view_of_the_examples_fits_the_schema() {
    let schema = view_schema();
    for example in [
        "square-blocks",
        "hex-command",
        "black-powder",
        "hex-leaders",
        "drill-square",
        "drill-hex",
        "drill-open",
    ] {
        let scenario = load::load_scenario(&root().join(format!("examples/{example}.yaml")), None)
            .unwrap_or_else(|e| panic!("{example}: {e}"));
        let mut h = hooks(&scenario);
        let mut game = scenario.start(None, &[], h.as_mut()).unwrap();
        let mut problems = problems_of(&game, &schema, example);
        let orders =
            load::load_orders(&root().join(format!("examples/{example}.orders.yaml"))).unwrap();
        for (n, located) in orders.iter().enumerate() {
            let order = resolve_order(&game, &located.value).unwrap();
            game.apply(&order, h.as_mut()).unwrap();
            problems.extend(problems_of(&game, &schema, &format!("{example} #{n}")));
        }
        assert!(
            problems.is_empty(),
            "{}",
            problems[..problems.len().min(10)].join("\n")
        );
    }
}

/// The validator itself refuses what the schema does not allow, so the test above can fail.
#[test]
fn the_schema_refuses_an_unknown_field_and_a_wrong_type() {
    let schema = view_schema();
    let scenario = load::load_scenario(&root().join("examples/drill-square.yaml"), None).unwrap();
    let mut h = hooks(&scenario);
    let game = scenario.start(None, &[], h.as_mut()).unwrap();
    let mut v = json!({"view": game.view(SideId(0)), "events": game.side_events(SideId(0))});
    v["view"]["secret"] = json!(1);
    v["view"]["own_names"][0]["kind"] = json!(3);
    let mut problems = Vec::new();
    check(&schema, &schema["$defs"], &v, "v", &mut problems);
    assert_eq!(problems.len(), 2, "{problems:?}");
}

/// Each own piece's names are its numbers, named by the ruleset's tables.
#[test]
fn names_match_the_numbers() {
    let scenario = load::load_scenario(&root().join("examples/black-powder.yaml"), None).unwrap();
    let mut h = hooks(&scenario);
    let game = scenario.start(None, &[], h.as_mut()).unwrap();
    let rules = game.rules();
    let view = game.view(SideId(0));
    assert_eq!(view.own.len(), view.own_names.len());
    for (p, n) in view.own.iter().zip(&view.own_names) {
        assert_eq!(n.kind, rules.piece_type(p.kind).unwrap().name);
        assert_eq!(n.mode, rules.mode_name(p.mode));
        for (i, value) in p.counters.iter().enumerate() {
            assert_eq!(n.counters[&rules.counters[i].name], *value);
        }
        let set: Vec<&str> = (0..rules.flags.len())
            .filter(|i| p.flags & (1 << i) != 0)
            .map(|i| rules.flags[i].name.as_str())
            .collect();
        assert_eq!(n.flags, set);
        assert!(n.facing.ends_with('°'), "{}", n.facing);
    }
    assert!(
        view.own_names.iter().any(|n| n.base.is_some()),
        "bases on the open table"
    );
    let enemy = &view.enemy[0];
    assert!(enemy.names.is_some() && enemy.facing_name.is_some());
}
