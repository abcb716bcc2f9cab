//! Decoding located trees into typed structs: every problem reported, each with its
//! `file:line:col`, dotted path and what was expected.

use std::collections::{BTreeMap, HashMap};

use grognard_rules::de::{Located, decode};
use grognard_rules::diag::Diagnostics;
use grognard_rules::number::CostValue;
use grognard_rules::yaml::{Limits, parse, to_string};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
enum Scale {
    Battle,
    Strategic,
    Road,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Formation {
    Line,
    Column,
    Square,
}

#[derive(Debug, Deserialize)]
struct Ruleset {
    name: String,
    scale: Scale,
    #[serde(default)]
    turns: u32,
    #[serde(default)]
    units: Vec<UnitType>,
    #[serde(default)]
    charts: BTreeMap<String, Chart>,
    #[serde(default)]
    options: HashMap<String, bool>,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct UnitType {
    name: Located<String>,
    color: Option<String>,
    strength: u8,
    #[serde(default)]
    move_cost: Option<CostValue>,
    #[serde(default = "default_formation")]
    formation: Formation,
}

fn default_formation() -> Formation {
    Formation::Line
}

#[derive(Debug, Deserialize)]
struct Chart {
    dice: String,
    rows: Vec<Row>,
}

#[derive(Debug, Deserialize)]
struct Row {
    score: i64,
    result: String,
}

fn decode_text<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Diagnostics> {
    let root =
        parse("rules.yaml", text.as_bytes(), &Limits::default()).map_err(Diagnostics::from)?;
    decode(&root)
}

fn errors<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str) -> String {
    decode_text::<T>(text).unwrap_err().to_string()
}

const GOOD: &str = "\
name: Borodino
scale: battle
turns: 12
units:
  - name: Old Guard
    color: blue
    strength: 6
    move_cost: 1½
    formation: column
  - name: Cossacks
    strength: 3
charts:
  scout_fate:
    dice: 2d6
    rows:
      - {score: 2, result: captured}
      - {score: 7, result: returns}
options:
  fog_of_war: true
";

#[test]
fn a_good_file_decodes() {
    let rules: Ruleset = decode_text(GOOD).unwrap();
    assert_eq!(rules.name, "Borodino");
    assert_eq!(rules.scale, Scale::Battle);
    assert_eq!(rules.turns, 12);
    assert_eq!(rules.units.len(), 2);
    assert_eq!(
        rules.units[0].move_cost.map(|c| c.0.hundredths()),
        Some(150)
    );
    assert_eq!(rules.units[0].formation, Formation::Column);
    assert_eq!(rules.units[1].formation, Formation::Line);
    assert_eq!(rules.units[1].color, None);
    assert_eq!(rules.charts["scout_fate"].rows[1].score, 7);
    assert_eq!(rules.charts["scout_fate"].rows[1].result, "returns");
    assert_eq!(rules.charts["scout_fate"].dice, "2d6");
    assert_eq!(rules.options.get("fog_of_war"), Some(&true));
}

#[test]
fn three_unknown_keys_and_two_type_errors_are_all_reported() {
    let text = "\
name: Borodino
scale: battle
turns: twelve
units:
  - name: Old Guard
    colour: blue
    strength: 6
    formaton: column
  - name: Cossacks
    strength: lots
    speed: 4
";
    assert_eq!(
        errors::<Ruleset>(text),
        "\
rules.yaml:3:8: in turns: expected a whole number, found the text `twelve`
rules.yaml:6:5: unknown key `colour` in units[0]; expected one of: name, color, strength, move_cost, formation
  help: did you mean `color`?
rules.yaml:8:5: unknown key `formaton` in units[0]; expected one of: name, color, strength, move_cost, formation
  help: did you mean `formation`?
rules.yaml:10:15: in units[1].strength: expected a whole number, found the text `lots`
rules.yaml:11:5: unknown key `speed` in units[1]; expected one of: name, color, strength, move_cost, formation"
    );
}

#[test]
fn paths_reach_deep_values() {
    let text = "\
name: x
scale: road
charts:
  scout_fate:
    dice: 2d6
    rows:
      - {score: 2, result: captured}
      - {score: 5, result: lost}
      - {score: high, result: returns}
";
    assert_eq!(
        errors::<Ruleset>(text),
        "rules.yaml:9:17: in charts.scout_fate.rows[2].score: expected a whole number, found the text `high`"
    );
}

#[test]
fn unknown_enum_values_suggest_the_closest() {
    let text = "name: x\nscale: strategc\nunits:\n  - {name: a, strength: 1, formation: colum}\n";
    assert_eq!(
        errors::<Ruleset>(text),
        "\
rules.yaml:2:8: in scale: unknown value `strategc`; expected one of: battle, strategic, road
  help: did you mean `strategic`?
rules.yaml:4:39: in units[0].formation: unknown value `colum`; expected one of: line, column, square
  help: did you mean `column`?"
    );
    // A value nowhere near any variant gets the list but no guess.
    let text = "name: x\nscale: naval\n";
    assert_eq!(
        errors::<Ruleset>(text),
        "rules.yaml:2:8: in scale: unknown value `naval`; expected one of: battle, strategic, road"
    );
}

#[test]
fn missing_keys_are_reported_at_the_mapping_and_decoding_goes_on() {
    // Unit 0 lacks `strength`, unit 2 lacks `name`: serde stops at each; both are found,
    // and so is the type error in unit 3 after them.
    let text = "\
name: x
scale: battle
units:
  - name: a
  - {name: b, strength: 2}
  - strength: 3
  - {name: d, strength: -1}
";
    assert_eq!(
        errors::<Ruleset>(text),
        "\
rules.yaml:4:5: in units[0]: missing required key `strength`
rules.yaml:6:5: in units[2]: missing required key `name`
rules.yaml:7:25: in units[3].strength: expected a whole number from 0 to 255, found the whole number -1"
    );
    // At the top level there is no path to name.
    assert_eq!(
        errors::<Ruleset>("scale: battle\n"),
        "rules.yaml:1:1: missing required key `name`"
    );
}

#[test]
fn a_refused_custom_value_does_not_hide_later_problems() {
    // `CostValue` refuses 1/3 by returning an error, which serde makes fatal; the unknown
    // key and the bad chart row after it are still reported.
    let text = "\
name: x
scale: battle
units:
  - {name: a, strength: 1, move_cost: 1/3}
  - {name: b, strength: 1, move_cost: 1, colr: red}
charts:
  c: {dice: d6, rows: [{score: x, result: y}]}
";
    assert_eq!(
        errors::<Ruleset>(text),
        "\
rules.yaml:4:39: in units[0].move_cost: 1/3 is not a whole number of hundredths
rules.yaml:5:42: unknown key `colr` in units[1]; expected one of: name, color, strength, move_cost, formation
  help: did you mean `color`?
rules.yaml:7:32: in charts.c.rows[0].score: expected a whole number, found the text `x`"
    );
}

#[test]
fn missing_key_after_a_refused_value_is_not_reported_twice() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Terrain {
        cost: CostValue,
    }
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Map {
        terrain: BTreeMap<String, Terrain>,
        hexes: Vec<Terrain>,
    }
    let text =
        "terrain:\n  woods: {cost: 1/3}\n  clear: {cost: 1}\nhexes:\n  - cost: abc\n  - cost: ½\n";
    assert_eq!(
        errors::<Map>(text),
        "\
rules.yaml:2:17: in terrain.woods.cost: 1/3 is not a whole number of hundredths
rules.yaml:5:11: in hexes[0].cost: expected a number such as 1, -1, ½, 1½, 1 1/2, 3/2 or 1.5, found `abc`"
    );
}

#[test]
fn kinds_of_value_mismatch() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Sample {
        list: Vec<u32>,
        table: BTreeMap<String, u32>,
        flag: bool,
        ratio: f64,
        label: String,
        small: u8,
        letter: char,
    }
    let text = "\
list: 5
table: [1, 2]
flag: yes
ratio: '1.5'
label: 1.2
small: 300
letter: ab
";
    assert_eq!(
        errors::<Sample>(text),
        "\
rules.yaml:1:7: in list: expected a list, found the whole number 5
  help: write a list as `[a, b]`, or one `- item` per line
rules.yaml:2:8: in table: expected a mapping, found a list
rules.yaml:3:7: in flag: expected `true` or `false`, found the text `yes`
  help: write `true` or `false`
rules.yaml:4:8: in ratio: expected a number, found the text `1.5`
  help: remove the quotes around the number
rules.yaml:5:8: in label: expected text, found the decimal number 1.2
  help: put the number in quotes: \"1.2\"
rules.yaml:6:8: in small: expected a whole number from 0 to 255, found the whole number 300
rules.yaml:7:9: in letter: expected a single character, found the text `ab`"
    );
}

#[test]
fn lenient_where_the_meaning_is_clear() {
    #[derive(Debug, Deserialize)]
    struct Sample {
        name: String,
        year: String,
        whole: u32,
        ratio: f64,
        #[serde(default)]
        none: Vec<u32>,
        nested: Inner,
    }
    #[derive(Debug, Deserialize)]
    struct Inner {
        #[serde(default)]
        x: u32,
    }
    // Numbers and booleans read as text, 3.0 as a whole number, 2 as a float, and an
    // empty value as an empty list or mapping.
    let s: Sample =
        decode_text("name: true\nyear: 1812\nwhole: 3.0\nratio: 2\nnone:\nnested:\n").unwrap();
    assert_eq!((s.name.as_str(), s.year.as_str()), ("true", "1812"));
    assert_eq!((s.whole, s.ratio, s.none.len(), s.nested.x), (3, 2.0, 0, 0));
}

#[test]
fn an_empty_file_says_so() {
    for text in ["", "# just a comment\n"] {
        let err = errors::<Ruleset>(text);
        assert!(err.starts_with("rules.yaml:"), "{err}");
        assert!(
            err.contains("the file is empty (or holds only comments); expected a mapping"),
            "{err}"
        );
    }
    // A type that is happy with nothing decodes from an empty file.
    assert_eq!(decode_text::<Option<u32>>("").unwrap(), None);
}

#[test]
fn located_values_know_where_they_were_written() {
    let rules: Ruleset = decode_text(GOOD).unwrap();
    let names: Vec<String> = rules
        .units
        .iter()
        .map(|u| format!("{} at {}", u.name.value, u.name.location))
        .collect();
    assert_eq!(
        names,
        [
            "Old Guard at rules.yaml:5:11",
            "Cossacks at rules.yaml:10:11"
        ]
    );
    // Located compares by value and serializes as the bare value.
    assert_eq!(
        rules.units[0].name,
        Located::new(
            "Old Guard".to_string(),
            rules.units[1].name.location.clone()
        )
    );
    assert_eq!(to_string(&rules.units[0].name).unwrap(), "Old Guard\n");

    // Through another deserializer it is a plain value at an unknown place.
    let from_json: Located<Vec<u8>> = serde_json::from_str("[1, 2]").unwrap();
    assert_eq!(from_json.value, vec![1, 2]);
    assert!(!from_json.location.is_known());

    // Located inside Option, in a list, and a located mapping.
    #[derive(Debug, Deserialize)]
    struct Sample {
        maybe: Option<Located<u32>>,
        many: Vec<Located<String>>,
        block: Located<BTreeMap<String, u32>>,
    }
    let s: Sample = decode_text("maybe: 4\nmany: [a, b]\nblock:\n  x: 1\n").unwrap();
    let at = |l: &grognard_rules::diag::Location| (l.line, l.col);
    assert_eq!(
        s.maybe.as_ref().map(|m| (m.value, at(&m.location))),
        Some((4, (1, 8)))
    );
    assert_eq!(at(&s.many[1].location), (2, 11));
    assert_eq!(at(&s.block.location), (4, 3));
    assert_eq!(s.block.value.get("x"), Some(&1));
}

#[test]
fn errors_inside_located_values_keep_their_path() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Sample {
        count: Located<u32>,
    }
    assert_eq!(
        errors::<Sample>("count: many\n"),
        "rules.yaml:1:8: in count: expected a whole number, found the text `many`"
    );
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Order {
    Hold,
    Move {
        to: (i32, i32),
        #[serde(default)]
        march: bool,
    },
    Fire(String),
    Rally,
}

#[test]
fn externally_tagged_enums() {
    #[derive(Debug, Deserialize)]
    struct Orders {
        orders: Vec<Order>,
    }
    let o: Orders =
        decode_text("orders:\n  - hold\n  - move: {to: [3, 4]}\n  - fire: cavalry\n  - rally: ~\n")
            .unwrap();
    assert_eq!(
        o.orders,
        [
            Order::Hold,
            Order::Move {
                to: (3, 4),
                march: false
            },
            Order::Fire("cavalry".into()),
            Order::Rally
        ]
    );
    let text = "\
orders:
  - hold: now
  - move: {to: [3], marhc: true}
  - fier: x
  - {hold: ~, rally: ~}
";
    assert_eq!(
        errors::<Orders>(text),
        "\
rules.yaml:2:11: in orders[0].hold: `hold` takes no value, found the text `now`
  help: write just `hold`
rules.yaml:3:16: in orders[1].move.to: expected a tuple of size 2, found 1 items
rules.yaml:3:21: unknown key `marhc` in orders[1].move; expected one of: to, march
  help: did you mean `march`?
rules.yaml:4:5: in orders[2]: unknown value `fier`; expected one of: hold, move, fire, rally
  help: did you mean `fire`?
rules.yaml:5:5: in orders[3]: expected one of: hold, move, fire, rally, or a mapping with exactly one key naming one, found a mapping"
    );
}

#[test]
fn newtypes_tuples_and_maps_with_typed_keys() {
    #[derive(Debug, Deserialize, PartialEq)]
    struct Hexes(u32);
    #[derive(Debug, Deserialize)]
    struct Sample {
        range: Hexes,
        at: (i32, i32),
        by_score: BTreeMap<u8, String>,
        by_scale: HashMap<Scale, u32>,
    }
    let s: Sample =
        decode_text("range: 4\nat: [1, -2]\nby_score: {2: lost, 12: found}\nby_scale: {road: 3}\n")
            .unwrap();
    assert_eq!(s.range, Hexes(4));
    assert_eq!(s.at, (1, -2));
    assert_eq!(s.by_score.get(&12).map(String::as_str), Some("found"));
    assert_eq!(s.by_scale.get(&Scale::Road), Some(&3));

    let text = "range: 4\nat: [1, -2]\nby_score: {two: lost}\nby_scale: {rail: 3}\n";
    assert_eq!(
        errors::<Sample>(text),
        "\
rules.yaml:3:12: in by_score: expected a whole number, found the text `two`
rules.yaml:4:12: in by_scale: unknown value `rail`; expected one of: battle, strategic, road"
    );
}

#[test]
fn flatten_and_untagged_work_with_documented_limits() {
    #[derive(Debug, Deserialize)]
    struct Common {
        name: String,
    }
    #[derive(Debug, Deserialize)]
    struct Unit {
        #[serde(flatten)]
        common: Common,
        strength: u32,
    }
    let u: Unit = decode_text("name: a\nstrength: 3\nextra: ignored\n").unwrap();
    assert_eq!((u.common.name.as_str(), u.strength), ("a", 3));
    // Problems inside a flattened struct are reported at the enclosing mapping.
    let err = errors::<Unit>("strength: 3\n");
    assert_eq!(err, "rules.yaml:1:1: missing required key `name`");

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(untagged)]
    enum Range {
        Fixed(u32),
        Band { min: u32, max: u32 },
    }
    #[derive(Debug, Deserialize)]
    struct Weapon {
        range: Range,
    }
    let w: Weapon = decode_text("range: {min: 2, max: 4}\n").unwrap();
    assert_eq!(w.range, Range::Band { min: 2, max: 4 });
    let w: Weapon = decode_text("range: 6\n").unwrap();
    assert_eq!(w.range, Range::Fixed(6));
    assert_eq!(
        errors::<Weapon>("range: far\n"),
        "rules.yaml:1:8: in range: data did not match any variant of untagged enum Range"
    );
}

#[test]
fn internally_tagged_enums_and_try_from() {
    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Hook {
        Lua { script: String },
        Table { chart: String },
    }
    #[derive(Debug, Deserialize)]
    struct Hooks {
        hooks: Vec<Hook>,
    }
    let h: Hooks = decode_text("hooks:\n  - {kind: lua, script: a.lua}\n").unwrap();
    assert_eq!(
        h.hooks,
        [Hook::Lua {
            script: "a.lua".into()
        }]
    );
    assert_eq!(
        errors::<Hooks>("hooks:\n  - {kind: lau, script: a.lua}\n"),
        "rules.yaml:2:12: in hooks[0].kind: unknown value `lau`; expected one of: lua, table\n  \
         help: did you mean `lua`?"
    );

    /// A die size: refused by `TryFrom` after the number itself was read.
    #[derive(Debug, Deserialize)]
    #[serde(try_from = "u32")]
    struct Die(#[allow(dead_code)] u32);
    impl TryFrom<u32> for Die {
        type Error = String;
        fn try_from(sides: u32) -> Result<Self, String> {
            if [4, 6, 8, 10, 12, 20].contains(&sides) {
                Ok(Die(sides))
            } else {
                Err(format!(
                    "there is no {sides}-sided die; expected 4, 6, 8, 10, 12 or 20"
                ))
            }
        }
    }
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Dice {
        main: Die,
        other: Die,
        count: u8,
    }
    assert_eq!(
        errors::<Dice>("main: 7\nother: 6\ncount: x\n"),
        "\
rules.yaml:1:7: in main: there is no 7-sided die; expected 4, 6, 8, 10, 12 or 20
rules.yaml:3:8: in count: expected a whole number, found the text `x`"
    );
}

#[test]
fn any_value_decodes_through_deserialize_any() {
    let root = parse("a.yaml", GOOD.as_bytes(), &Limits::default()).unwrap();
    let json: serde_json::Value = decode(&root).unwrap();
    assert_eq!(json, root.to_json());

    // 64 levels (the default limit) fit the stack of a test thread.
    let deep = format!("{}1{}", "[".repeat(64), "]".repeat(64));
    let root = parse("deep.yaml", deep.as_bytes(), &Limits::default()).unwrap();
    let json: serde_json::Value = decode(&root).unwrap();
    assert_eq!(json.to_string(), deep);
}

#[test]
fn hostile_keys_do_not_flood_messages() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Sample {
        a: u32,
    }
    let long_key = "k".repeat(10_000);
    let text = format!("a: 1\n{long_key}: 2\n\"\\e[2J\": 3\n");
    let err = errors::<Sample>(&text);
    assert!(err.len() < 400, "{err}");
    assert!(!err.contains('\u{1b}'), "{err:?}");
}

#[test]
fn a_file_full_of_fatal_errors_stays_bounded() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Hex {
        cost: CostValue,
    }
    let mut text = String::from("hexes:\n");
    for _ in 0..2_000 {
        text.push_str("  - cost: 1/3\n");
    }
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Board {
        hexes: Vec<Hex>,
    }
    let start = std::time::Instant::now();
    let err = decode_text::<Board>(&text).unwrap_err();
    assert!(start.elapsed() < std::time::Duration::from_secs(2));
    // Each pass finds one more, up to the pass budget; all are real and distinct.
    assert!(err.len() >= 50, "{}", err.len());
    let (notes, located): (Vec<_>, Vec<_>) = err.iter().partition(|d| d.location.is_none());
    assert!(
        located
            .iter()
            .all(|d| d.message.ends_with("is not a whole number of hundredths"))
    );
    assert_eq!(notes.len(), 1);
    assert!(
        notes[0].message.starts_with("more problems may be hidden"),
        "{}",
        notes[0]
    );
}

/// A YAML-ish value for the property test: flow style, so any tree is one line of text.
#[derive(Debug, Clone)]
enum Gen {
    Scalar(String),
    Seq(Vec<Gen>),
    Map(Vec<(String, Gen)>),
}

impl Gen {
    fn render(&self, out: &mut String) {
        match self {
            Self::Scalar(s) => out.push_str(s),
            Self::Seq(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.render(out);
                }
                out.push(']');
            }
            Self::Map(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push_str(": ");
                    v.render(out);
                }
                out.push('}');
            }
        }
    }
}

fn gen_tree() -> impl Strategy<Value = Gen> {
    let keys = prop::sample::select(vec![
        "name",
        "scale",
        "turns",
        "units",
        "charts",
        "options",
        "color",
        "colour",
        "strength",
        "move_cost",
        "formation",
        "dice",
        "rows",
        "score",
        "result",
        "x",
        "1",
    ])
    .prop_map(str::to_string);
    let scalar = prop_oneof![
        any::<i64>().prop_map(|i| i.to_string()),
        any::<f64>().prop_map(|f| format!("{f:?}")),
        prop::sample::select(vec![
            "battle", "road", "strategc", "column", "true", "no", "~", "''", "\"1½\"", "1/3", "-1",
            "300", "1.5", "abc", "0812", ".nan",
        ])
        .prop_map(str::to_string),
    ]
    .prop_map(Gen::Scalar);
    scalar.prop_recursive(6, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Gen::Seq),
            prop::collection::vec((keys.clone(), inner), 0..6).prop_map(Gen::Map),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn decoding_generated_yaml_never_panics(tree in gen_tree()) {
        let mut text = String::new();
        tree.render(&mut text);
        if let Ok(root) = parse("p.yaml", text.as_bytes(), &Limits::default())
            && let Err(errors) = decode::<Ruleset>(&root)
        {
            prop_assert!(!errors.is_empty());
            for d in errors.iter() {
                prop_assert!(
                    d.location.as_ref().is_some_and(|l| l.line >= 1) || d.location.is_none(),
                    "{d}"
                );
            }
        }
    }

    #[test]
    fn decoding_arbitrary_text_never_panics(text in "[-a-z0-9 :,\\[\\]{}&*|'\"#\\n]{0,200}") {
        if let Ok(root) = parse("p.yaml", text.as_bytes(), &Limits::default()) {
            let _ = decode::<Ruleset>(&root);
            let _ = decode::<serde_json::Value>(&root);
        }
    }
}

#[test]
fn serialized_models_read_back() {
    #[derive(Debug, Serialize, Deserialize, PartialEq)]
    struct Terrain {
        name: String,
        cost: CostValue,
    }
    let before = vec![
        Terrain {
            name: "clear".into(),
            cost: CostValue(grognard_kernel::Cost::ONE),
        },
        Terrain {
            name: "woods".into(),
            cost: CostValue(grognard_kernel::Cost::from_hundredths(150)),
        },
    ];
    let text = to_string(&before).unwrap();
    assert!(text.contains("1½"), "{text}");
    let after: Vec<Terrain> = decode_text(&text).unwrap();
    assert_eq!(after, before);
}
