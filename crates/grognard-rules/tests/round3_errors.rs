//! Issue 36, round 3: misuse of the new action and flag keys is an error at its line —
//! a target type filter without a target or given both ways, a range in fractions on a grid,
//! a negative or upside-down range, an unknown type in a held flag's `types:`.

use grognard_rules::load::load_ruleset;

/// A small ruleset of `kind` geometry whose action `act` has `act_keys`, and whose flag
/// `held` has `flag`.
fn ruleset(kind: &str, act_keys: &str, flag: &str) -> String {
    format!(
        "\
ruleset: r3
geometry: {{ kind: {kind} }}
modes: {{ normal: {{}} }}
counters: {{ hits: {{}} }}
flags:
  held: {flag}
terrain: {{ clear: {{}} }}
movement: {{ foot: {{}} }}
piece_types:
  inf: {{ movement: foot, allowance: {{ normal: 4 }} }}
  general: {{ movement: foot, allowance: {{ normal: 4 }} }}
actions:
  act: {act_keys}
sequence:
  side_turn: [{{ phase: act, allows: [act] }}]
"
    )
}

fn load(name: &str, text: &str) -> Result<(), String> {
    // One folder per call: the tests run at once.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("grognard-r3-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    let result = load_ruleset(&path);
    let _ = std::fs::remove_dir_all(&dir);
    result.map(|_| ()).map_err(|d| d.to_string())
}

const FLAG: &str = "{ while: { counter: hits, at_least: 2 } }";

#[test]
fn target_type_filters_are_checked_where_written() {
    for (keys, want) in [
        (
            "{ target_types: [inf] }",
            "r.yaml:13:25: a target type filter needs a target (`target: enemy` or `friend`)",
        ),
        (
            "{ target: enemy, target_types: [inf], target_not_types: [general] }",
            "r.yaml:13:65: give `target_types` (the types it may target) or `target_not_types` (those it may not), not both",
        ),
        (
            "{ target: enemy, target_not_types: [generl] }",
            "r.yaml:13:44: unknown piece type `generl`",
        ),
    ] {
        let errors = load("r.yaml", &ruleset("open", keys, FLAG)).expect_err(keys);
        assert!(errors.contains(want), "{keys}: {errors}");
    }
    load(
        "r.yaml",
        &ruleset(
            "open",
            "{ target: enemy, target_not_types: [general] }",
            FLAG,
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_range_may_hold_fractions_on_an_open_table_only() {
    load(
        "r.yaml",
        &ruleset("open", "{ target: enemy, range: [0.5, 4.5] }", FLAG),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    for (kind, keys, want) in [
        (
            "square",
            "{ target: enemy, range: [0, 4.5] }",
            "r.yaml:13:32: `range: [0, 4½]`: a grid counts whole cells",
        ),
        (
            "open",
            "{ target: enemy, range: [-1, 4] }",
            "r.yaml:13:32: `range: [-1, 4]`: a distance cannot be negative",
        ),
        (
            "open",
            "{ target: enemy, range: [6, 4] }",
            "r.yaml:13:32: `range: [6, 4]`: the nearest distance is beyond the farthest",
        ),
    ] {
        let errors = load("r.yaml", &ruleset(kind, keys, FLAG)).expect_err(keys);
        assert!(errors.contains(want), "{keys}: {errors}");
    }
}

#[test]
fn a_held_flags_types_must_be_piece_types() {
    let errors = load(
        "r.yaml",
        &ruleset(
            "open",
            "{}",
            "{ while: { counter: hits, at_least: 2, types: [infantry] } }",
        ),
    )
    .expect_err("an unknown type");
    assert!(
        errors.contains("r.yaml:6:56: unknown piece type `infantry`"),
        "{errors}"
    );
}

/// `pursue: ACTION` names an action with a target that does not pursue again, in an
/// action's results only.
#[test]
fn a_pursuit_names_an_action_with_a_target_that_does_not_pursue_again() {
    let with = |act: &str, extra: &str| {
        ruleset("open", act, FLAG).replace("sequence:", &format!("  {extra}\nsequence:"))
    };
    for (act, extra, want) in [
        (
            "{ target: enemy, on: { always: [ { pursue: chase } ] } }",
            "chase: { on: { always: [ { add: hits } ] } }",
            "`pursue: chase`: a pursuit is taken against the unit just beaten, so `chase` needs a target (`target: enemy`)",
        ),
        (
            "{ target: enemy, on: { always: [ { pursue: chase } ] } }",
            "chase: { target: enemy, on: { always: [ { pursue: act } ] } }",
            "`pursue: chase`: `chase` pursues in turn; a pursuit may not set off another",
        ),
        (
            "{ target: enemy, on: { always: [ { pursue: chse } ] } }",
            "chase: { target: enemy }",
            "unknown action `chse`",
        ),
    ] {
        let errors = load("p.yaml", &with(act, extra)).expect_err(act);
        assert!(errors.contains(want), "{act}: {errors}");
    }
    let trigger = ruleset("open", "{ target: enemy }", FLAG).replace(
        "counters: { hits: {} }",
        "counters: { hits: { triggers: [ { at: 3, effects: [ { pursue: act } ] } ] } }",
    );
    let errors = load("t.yaml", &trigger).expect_err("a trigger pursues");
    assert!(
        errors.contains(
            "a counter trigger has no other piece to fall back from, follow up or pursue"
        ),
        "{errors}"
    );
    load(
        "ok.yaml",
        &with(
            "{ target: enemy, on: { always: [ { pursue: chase } ] } }",
            "chase: { target: enemy, range: [0, 3] }",
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
}
