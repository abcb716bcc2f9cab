//! Computed amounts and multiplying modifiers (issue 36, items 1–4), through the command
//! line: the lab's exact distributions and means worked out by hand, `roll` agreeing with
//! them, the log's explanation in `play`, the errors at their lines, and the schema.
//! The fixture is `tests/fixtures/amounts/musketry.yaml`.

use serde_json::Value;

use crate::util::{grognard, grognard_in};

const RULES: &str = "tests/fixtures/amounts/musketry.yaml";

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let run = grognard(&all);
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

/// One amount of `chart --json`: its counter, its mean and each `(amount, fraction)`.
type AmountRow = (String, String, Vec<(i64, String)>);

/// The first row's amounts of `chart --json`.
fn amounts(chart: &str, sets: &[&str]) -> Vec<AmountRow> {
    let mut args = vec!["chart", RULES, chart];
    for s in sets {
        args.extend(["--set", s]);
    }
    let report = json(&args);
    report["amounts"][0]
        .as_array()
        .expect("amounts")
        .iter()
        .map(|a| {
            let odds = a["odds"]
                .as_array()
                .expect("odds")
                .iter()
                .map(|o| {
                    (
                        o["amount"].as_i64().expect("amount"),
                        o["fraction"].as_str().expect("fraction").to_owned(),
                    )
                })
                .collect();
            (
                a["counter"].as_str().expect("counter").to_owned(),
                a["mean"].as_str().expect("mean").to_owned(),
                odds,
            )
        })
        .collect()
}

fn odds(pairs: &[(i64, &str)]) -> Vec<(i64, String)> {
    pairs.iter().map(|(v, f)| (*v, (*f).to_owned())).collect()
}

/// Hits equal to the d6, halved in cover (rounding up): 1,2 → 1; 3,4 → 2; 5,6 → 3, each
/// a third, mean 2. Doubled from the flank as well: 2, 4, 6, mean 4. Halved twice (cover
/// and skirmishers): 1,1,1,1 then 5,6 → 3 → 2: two thirds 1, a third 2, mean 4/3. No
/// modifier: the d6 itself, mean 7/2.
#[test]
fn musketry_distributions_worked_by_hand() {
    let (counter, mean, dist) = amounts("musketry", &["cover=1"]).remove(0);
    assert_eq!(counter, "hits");
    assert_eq!(mean, "2");
    assert_eq!(dist, odds(&[(1, "1/3"), (2, "1/3"), (3, "1/3")]));
    let (_, mean, dist) = amounts("musketry", &["cover=1", "flank=1"]).remove(0);
    assert_eq!(mean, "4");
    assert_eq!(dist, odds(&[(2, "1/3"), (4, "1/3"), (6, "1/3")]));
    let (_, mean, dist) = amounts("musketry", &["cover=1", "skirmishers=1"]).remove(0);
    assert_eq!(mean, "4/3");
    assert_eq!(dist, odds(&[(1, "2/3"), (2, "1/3")]));
    let (_, mean, _) = amounts("musketry", &[]).remove(0);
    assert_eq!(mean, "7/2");
}

/// 2d6 volley, 7+ hits: hits = max(score − 6, 1) on a hit, so 7..12 give 1..6 in 6,5,4,3,2,1
/// ways of 36 (15 ways miss: 0), mean 56/36 = 14/9. Disorder = half the second die,
/// rounded down, on a hit: second die 1 hits once (0), 2 twice (1), 3 three times (1),
/// 4 four (2), 5 five (2), 6 six (3): 0 in 16/36, 1 in 5/36, 2 in 9/36, 3 in 6/36; mean
/// 41/36. The rally takes off min(score, 4) on 3+: −3 a sixth, −4 a half; mean −5/2.
#[test]
fn volley_and_rally_distributions_worked_by_hand() {
    let all = amounts("volley", &[]);
    assert_eq!(all.len(), 2, "{all:?}");
    let (counter, mean, dist) = &all[0];
    assert_eq!((counter.as_str(), mean.as_str()), ("hits", "14/9"));
    assert_eq!(
        dist,
        &odds(&[
            (0, "5/12"),
            (1, "1/6"),
            (2, "5/36"),
            (3, "1/9"),
            (4, "1/12"),
            (5, "1/18"),
            (6, "1/36")
        ])
    );
    let (counter, mean, dist) = &all[1];
    assert_eq!((counter.as_str(), mean.as_str()), ("disorder", "41/36"));
    assert_eq!(
        dist,
        &odds(&[(0, "4/9"), (1, "5/36"), (2, "1/4"), (3, "1/6")])
    );
    let (_, mean, dist) = amounts("rally", &[]).remove(0);
    assert_eq!(mean, "-5/2");
    assert_eq!(dist, odds(&[(-4, "1/2"), (-3, "1/6"), (0, "1/3")]));
}

/// Property: for every input combination of every chart, each amount's distribution sums
/// to exactly 1, and `roll` with fixed seeds only ever gives amounts in its support.
#[test]
fn distributions_sum_to_one_and_rolls_stay_in_their_support() {
    let cases: [(&str, Vec<Vec<&str>>); 3] = [
        (
            "musketry",
            vec![
                vec![],
                vec!["cover=1"],
                vec!["cover=1", "flank=1"],
                vec!["cover=1", "skirmishers=1", "flank=1"],
            ],
        ),
        ("volley", vec![vec![], vec!["bonus=2"]]),
        ("rally", vec![vec![]]),
    ];
    for (chart, sets) in cases {
        for set in sets {
            let mut args = vec!["chart", RULES, chart];
            for s in &set {
                args.extend(["--set", s]);
            }
            let report = json(&args);
            for amount in report["amounts"][0].as_array().expect("amounts") {
                let total: f64 = amount["odds"]
                    .as_array()
                    .expect("odds")
                    .iter()
                    .map(|o| o["probability"].as_f64().expect("p"))
                    .sum();
                assert!((total - 1.0).abs() < 1e-12, "{chart} {set:?}: {total}");
            }
            let support = |counter: &str| -> Vec<i64> {
                report["amounts"][0]
                    .as_array()
                    .expect("amounts")
                    .iter()
                    .find(|a| a["counter"] == counter)
                    .map(|a| {
                        a["odds"]
                            .as_array()
                            .expect("odds")
                            .iter()
                            .map(|o| o["amount"].as_i64().expect("amount"))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            for seed in 0..40u32 {
                let seed = seed.to_string();
                let mut args = vec!["roll", RULES, chart, "--seed", &seed];
                for s in &set {
                    args.extend(["--set", s]);
                }
                let rolled = json(&args);
                for per_action in rolled["amounts"].as_array().expect("amounts") {
                    for a in per_action["amounts"].as_array().expect("amounts") {
                        let counter = a["counter"].as_str().expect("counter");
                        let value = a["value"].as_i64().expect("value");
                        assert!(
                            support(counter).contains(&value),
                            "{chart} {set:?} seed {seed}: {counter} {value} not in {:?}",
                            support(counter)
                        );
                    }
                }
            }
        }
    }
}

/// `--against` a house rule that rounds down: in cover the mean falls from 2 to 3/2
/// (0,1,1,2,2,3 over six), an exact −1/2.
#[test]
fn against_compares_means_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = crate::util::root().join(RULES);
    std::fs::write(
        dir.path().join("down.yaml"),
        format!(
            "ruleset: lab-amounts-down\nextends: {}\ncharts:\n  musketry:\n    round: down\n",
            base.display()
        ),
    )
    .expect("write");
    let run = grognard_in(
        dir.path(),
        &[
            "chart",
            base.to_str().expect("path"),
            "musketry",
            "--set",
            "cover=1",
            "--against",
            "down.yaml",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // The house rule's own mean in cover, 3/2 against the base's 2.
    let down = json(&[
        "chart",
        dir.path().join("down.yaml").to_str().expect("path"),
        "musketry",
        "--set",
        "cover=1",
    ]);
    let base_mean =
        &json(&["chart", RULES, "musketry", "--set", "cover=1"])["amounts"][0][0]["mean"];
    assert_eq!(
        (base_mean, &down["amounts"][0][0]["mean"]),
        (&"2".into(), &"3/2".into()),
        "{down}"
    );
    // prose: the comparison's words give the change exactly.
    assert!(
        run.stdout.contains("mean 2 (2.00) → 3/2 (1.50) (-1/2)"),
        "{}",
        run.stdout
    );
    // A roll of 1 halved rounds down to 0: no hits, a sixth more often.
    let zero: Vec<&str> = "0 0 0.00% 1/6 16.67% +1/6 (+16.67 pp)".split(' ').collect();
    assert!(
        run.stdout
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == zero),
        "{}",
        run.stdout
    );
}

/// In play the log explains the hits: r1 stands in the town (cover), so the d6 is halved
/// and, when odd, rounded up; the counter moves by that much.
#[test]
fn play_log_explains_the_computed_hits() {
    let town = "tests/fixtures/amounts/town.yaml";
    let orders = "tests/fixtures/amounts/town.orders.yaml";
    let played = crate::util::play_json(town, orders);
    let fire = played.find("acted", "b1", |e| e["roll"]["chart"] == "musketry");
    let roll = &played.events[fire.unwrap_or_else(|| panic!("{:?}", played.events))]["roll"];
    let die = roll["dice"][0]["value"].as_i64().expect("a die");
    let hits = (die + 1) / 2;
    assert_eq!(
        roll["amounts"][0],
        serde_json::json!({"counter": "hits", "value": hits})
    );
    let hit = played.find("counter_changed", "r1", |e| {
        e["counter"] == "hits" && e["from"] == 0 && e["to"] == hits
    });
    assert!(hit > fire, "{:?}", played.events);
    let run = grognard(&["play", town, "--orders", orders]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // prose: the log's words explain the halving and the rounding.
    let line = run
        .stdout
        .lines()
        .find(|l| l.contains("musketry: d6 "))
        .unwrap_or_else(|| panic!("no roll in {}", run.stdout));
    let rounded = if die % 2 == 1 { ", rounded up" } else { "" };
    assert!(
        line.ends_with(&format!(
            "musketry: d6 {die}, halved (cover){rounded} → {hits} hits"
        )),
        "{line}"
    );
}

/// `roll` shows the amounts as a game would, and how it rounds: a seed whose d6 is odd says
/// "rounded up" and gives half of one more.
#[test]
fn roll_explains_each_step() {
    for seed in 0..12u32 {
        let seed = seed.to_string();
        let run = grognard(&[
            "roll", RULES, "musketry", "--set", "cover=1", "--set", "flank=1", "--seed", &seed,
        ]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        let line = run.stdout.lines().nth(1).expect("roll line");
        let die: i32 = line
            .trim_start_matches("musketry: d6 ")
            .split(',')
            .next()
            .and_then(|d| d.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        let half = (die + 1) / 2;
        let expected = if die % 2 == 1 {
            format!(
                "musketry: d6 {die}, halved (cover), rounded up to {half}, doubled (flank) → {} hits",
                half * 2
            )
        } else {
            format!(
                "musketry: d6 {die}, halved (cover) to {half}, doubled (flank) → {} hits",
                half * 2
            )
        };
        assert_eq!(line, expected);
    }
}

/// The errors `validate` gives for `yaml`: the tests on them are about the words (prose).
fn errors_of(yaml: &str) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.yaml");
    std::fs::write(&path, yaml).expect("write");
    let run = grognard(&["validate", path.to_str().expect("path")]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    format!("{}{}", run.stdout, run.stderr)
}

/// The fixture with one line changed.
fn changed(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(crate::util::root().join(RULES)).expect("fixture");
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

#[test]
fn bad_amounts_are_reported_at_their_line_with_what_was_expected() {
    let out = errors_of(&changed(
        "hits: [{ add: hits, amount: score }]",
        "hits: [{ add: hits, amount: scroe }]",
    ));
    // prose: errors at their lines, in words saying what was expected.
    assert!(out.contains("bad.yaml:64:"), "{out}");
    assert!(out.contains("unknown amount `scroe`"), "{out}");
    assert!(out.contains("did you mean `score`?"), "{out}");
    let out = errors_of(&changed(
        "hits: [{ add: hits, amount: score }]",
        "hits: [{ add: hits, amount: { half: covr } }]",
    ));
    assert!(out.contains("unknown amount `covr`"), "{out}");
    assert!(out.contains("did you mean `cover`?"), "{out}");
    // A halving with no rounding anywhere.
    let out = errors_of(&changed(
        "amount: { half: die 2, round: down }",
        "amount: { half: die 2 }",
    ));
    assert!(out.contains("`half` needs a rounding"), "{out}");
    let out = errors_of(&changed(
        "amount: { half: die 2, round: down }",
        "amount: { half: die 3, round: down }",
    ));
    assert!(
        out.contains("`die 3`: expected `die N` with N from 1 to 2"),
        "{out}"
    );
    let out = errors_of(&changed("round: up", "round: upward"));
    assert!(
        out.contains(
            "in charts.musketry.round: unknown value `upward`; expected one of: down, up, nearest"
        ),
        "{out}"
    );
    let out = errors_of(&changed("amount: { max:", "amount: { most:"));
    assert!(out.contains("unknown key `most` in an amount"), "{out}");
    // A counter trigger has no roll.
    let out = errors_of(&changed(
        "hits: { max: 30 }",
        "hits: { max: 30, triggers: [{ at: 15, effects: [{ add: disorder, amount: score }] }] }",
    ));
    assert!(out.contains("`amount: score` needs a roll"), "{out}");
    // A multiplying modifier needs a rounding when it is not whole, comes after the adding
    // ones, and is for score charts.
    let out = errors_of(&changed("    round: up\n", ""));
    assert!(out.contains("say how it rounds"), "{out}");
    let out = errors_of(&changed(
        "      - { name: flank, input: flank, times: 2 }\n",
        "      - { name: flank, input: flank, times: 2 }\n      - { name: late, input: flank, per: 1 }\n",
    ));
    assert!(
        out.contains("adding modifiers come before multiplying ones"),
        "{out}"
    );
    let out = errors_of(&changed("times: 1/2 }", "times: 0 }"));
    assert!(out.contains("expected a positive factor"), "{out}");
}

#[test]
fn the_schema_lists_the_new_forms() {
    let run = grognard(&["schema", "ruleset"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for word in [
        "\"half\"",
        "\"negate\"",
        "\"times\"",
        "\"nearest\"",
        "die N",
    ] {
        // prose: the schema's text lists the words.
        assert!(run.stdout.contains(word), "{word} missing from the schema");
    }
}

/// The printable sheet shows a multiplying modifier's factor where an adding one shows
/// `per`, and how the chart rounds.
#[test]
fn the_sheet_shows_factors_and_rounding() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("sheet.html");
    let run = grognard(&["sheet", RULES, "--out", out.to_str().expect("path")]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let html = std::fs::read_to_string(&out).expect("sheet");
    // prose: the sheet is for reading.
    assert!(html.contains("<td class=\"num\">×1/2</td>"), "{html}");
    assert!(html.contains("<td class=\"num\">×2</td>"), "{html}");
    assert!(html.contains("Multiplied results round up."), "{html}");
}
