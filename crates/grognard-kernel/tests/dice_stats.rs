//! The dice the game rolls follow the exact odds the charts print.
//!
//! For each die and policy, a chart is resolved many times with a fixed seed (so every run
//! sees the same rolls and the test is deterministic), and the observed outcome counts are
//! compared with the exact distribution from `ChartDef::odds` by a chi-square goodness of
//! fit at p = 0.001. One check runs the same statistic against a deliberately wrong
//! distribution and requires it to fail, to show the test has teeth. Exact odds quoted by
//! the sources are asserted as fractions.

use grognard_kernel::Ratio;
use grognard_kernel::chart::{BandRow, ChartDef, FaceTest, Lookup, RerollDef, ScoreRow};
use grognard_kernel::dice::{DiceExpr, DiceTerm, DieDef, Face, GameRng, sum_odds};
use grognard_kernel::ids::{DieId, TagId};

/// Resolutions per chi-square test. Large enough that the smallest expected cell
/// (1/36 of the rolls) holds well over the usual minimum of 5, small enough for a quick
/// debug-build run.
const ROLLS: usize = 60_000;

/// Upper 0.1% points of the chi-square distribution, by degrees of freedom (standard
/// tables, e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4): a correct die exceeds them once in
/// a thousand seeds; with a fixed seed the outcome never changes.
const CHI2_P001: [(usize, f64); 10] = [
    (1, 10.828),
    (2, 13.816),
    (3, 16.266),
    (4, 18.467),
    (5, 20.515),
    (6, 22.458),
    (7, 24.322),
    (8, 26.124),
    (9, 27.877),
    (10, 29.588),
];

fn critical(df: usize) -> f64 {
    CHI2_P001
        .iter()
        .find(|(d, _)| *d == df)
        .map(|(_, v)| *v)
        .unwrap_or_else(|| panic!("no critical value for {df} degrees of freedom"))
}

const D6: DieId = DieId(0);
const D10: DieId = DieId(1);
const CUBE: DieId = DieId(2);
/// Hex Command's d6 stand-in for the cube.
const CUBE_D6: DieId = DieId(3);

const RED: TagId = TagId(0);
const STAR: TagId = TagId(1);

fn face(value: i32, label: &str, tags: &[TagId]) -> Face {
    Face {
        value,
        label: label.into(),
        tags: tags.to_vec(),
    }
}

fn dice() -> Vec<DieDef> {
    vec![
        DieDef::numeric("d6", 6),
        DieDef::numeric("d10", 10),
        // The Code 'n Color cube: three blue and three red faces, one of each starred.
        DieDef {
            name: "cube".into(),
            faces: vec![
                face(0, "blue", &[]),
                face(0, "blue", &[]),
                face(0, "blue star", &[STAR]),
                face(0, "red", &[RED]),
                face(0, "red", &[RED]),
                face(0, "red star", &[RED, STAR]),
            ],
        },
        // Hex Command's d6 for players without the cube: 1–3 Color (red), 4–5 Code (star),
        // 6 Code 'n Color (both).
        DieDef {
            name: "cube d6".into(),
            faces: vec![
                face(1, "1", &[RED]),
                face(2, "2", &[RED]),
                face(3, "3", &[RED]),
                face(4, "4", &[STAR]),
                face(5, "5", &[STAR]),
                face(6, "6", &[RED, STAR]),
            ],
        },
    ]
}

/// A score chart rolling `count` dice of `die`, with one outcome per possible total
/// (`low..=high`), so outcome counts are the distribution of the total.
fn totals_chart(count: u8, die: DieId, low: i32, high: i32, rerolls: Vec<RerollDef>) -> ChartDef {
    ChartDef {
        name: format!("{count} x {die:?}"),
        dice: DiceExpr {
            terms: vec![DiceTerm { count, die }],
        },
        inputs: vec![],
        modifiers: vec![],
        groups: vec![],
        rerolls,
        lookup: Lookup::Score {
            rows: (low..=high)
                .map(|t| ScoreRow {
                    min: Some(t),
                    max: Some(t),
                    when: vec![],
                    natural: None,
                    outcome: (t - low) as usize,
                })
                .collect(),
            default: 0,
        },
        outcomes: (low..=high).map(|t| t.to_string()).collect(),
        secret: false,
        scales: Vec::new(),
        round: None,
        constant: 0,
    }
}

fn reroll(die: DieId, face_index: u8) -> Vec<RerollDef> {
    vec![RerollDef {
        die,
        faces: vec![face_index],
        when: None,
    }]
}

/// A band chart on `die`: the input `band` picks Auto, Color (any red), Code (any star),
/// Code 'n Color (red and star) or Out, as Hex Command's combat bands do. Outcome 1 is a
/// pass, 0 a fail.
fn band_chart(die: DieId) -> ChartDef {
    let band = |name: &str, test| BandRow {
        name: name.into(),
        test,
        pass: 1,
        fail: 0,
    };
    ChartDef {
        name: "bands".into(),
        dice: DiceExpr {
            terms: vec![DiceTerm { count: 1, die }],
        },
        inputs: vec![grognard_kernel::chart::InputDef {
            name: "band".into(),
            default: 0,
            min: 0,
            max: 4,
            source: None,
            with: Vec::new(),
            without: Vec::new(),
        }],
        modifiers: vec![],
        groups: vec![],
        rerolls: vec![],
        lookup: Lookup::Band {
            base: 0,
            rows: vec![
                band("Auto", FaceTest::Always),
                band("Color", FaceTest::AnyTag(vec![RED])),
                band("Code", FaceTest::AnyTag(vec![STAR])),
                band("Code 'n Color", FaceTest::AllTags(vec![RED, STAR])),
                band("Out", FaceTest::Never),
            ],
        },
        outcomes: vec!["fail".into(), "pass".into()],
        secret: false,
        scales: Vec::new(),
        round: None,
        constant: 0,
    }
}

const COLOR: i32 = 1;
const CODE: i32 = 2;
const CNC: i32 = 3;

/// Outcome counts of `ROLLS` resolutions of `chart` with `inputs`, from `seed`.
fn outcome_counts(chart: &ChartDef, inputs: &[i32], seed: u64) -> Vec<u64> {
    let dice = dice();
    let mut rng = GameRng::new(seed);
    let mut counts = vec![0u64; chart.outcomes.len()];
    for _ in 0..ROLLS {
        counts[chart.resolve(&dice, inputs, &mut rng).outcome] += 1;
    }
    counts
}

/// Counts of the face that stood on the first die, over `ROLLS` resolutions.
fn face_counts(chart: &ChartDef, inputs: &[i32], seed: u64, faces: usize) -> Vec<u64> {
    let dice = dice();
    let mut rng = GameRng::new(seed);
    let mut counts = vec![0u64; faces];
    for _ in 0..ROLLS {
        let r = chart.resolve(&dice, inputs, &mut rng);
        counts[usize::from(r.dice[0].face)] += 1;
    }
    counts
}

/// Pearson's statistic of `observed` against the exact `expected` probabilities, and the
/// degrees of freedom (cells with non-zero probability, minus one). A count in a cell of
/// probability zero makes the statistic infinite: that outcome should never happen.
fn chi_square(observed: &[u64], expected: &[Ratio]) -> (f64, usize) {
    assert_eq!(observed.len(), expected.len());
    let n: u64 = observed.iter().sum();
    let mut stat = 0.0;
    let mut cells = 0;
    for (o, p) in observed.iter().zip(expected) {
        if p.is_zero() {
            if *o > 0 {
                return (f64::INFINITY, 1);
            }
            continue;
        }
        cells += 1;
        let e = n as f64 * p.to_f64();
        assert!(e >= 5.0, "expected count {e} too small for chi-square");
        stat += (*o as f64 - e).powi(2) / e;
    }
    (stat, cells - 1)
}

/// Asserts that `observed` fits `expected` at p = 0.001.
fn assert_fits(what: &str, observed: &[u64], expected: &[Ratio]) {
    let total = expected.iter().fold(Ratio::ZERO, |a, b| a + *b);
    assert_eq!(total, Ratio::ONE, "{what}: the exact odds do not sum to 1");
    let (stat, df) = chi_square(observed, expected);
    let limit = critical(df);
    assert!(
        stat < limit,
        "{what}: chi-square {stat:.2} with {df} df exceeds {limit} (observed {observed:?}, \
         expected {expected:?})"
    );
}

fn r(n: u128, d: u128) -> Ratio {
    Ratio::new(n, d)
}

#[test]
fn two_d6_totals_fit_the_exact_distribution() {
    let chart = totals_chart(2, D6, 2, 12, vec![]);
    let odds = chart.odds(&dice(), &[]);
    // The chart's odds and the plain sum distribution are the same thing.
    let sums = sum_odds(&chart.dice, &dice(), &|_| &[]);
    assert_eq!(odds, sums.values().copied().collect::<Vec<_>>());
    assert_eq!(odds[7 - 2], r(1, 6));
    assert_eq!(odds[2 - 2], r(1, 36));
    assert_eq!(odds[12 - 2], r(1, 36));
    assert_fits("2d6", &outcome_counts(&chart, &[], 2_006), &odds);
}

#[test]
fn d10_fits_the_uniform_distribution() {
    let chart = totals_chart(1, D10, 1, 10, vec![]);
    let odds = chart.odds(&dice(), &[]);
    assert!(odds.iter().all(|p| *p == r(1, 10)));
    assert_fits("d10", &outcome_counts(&chart, &[], 10), &odds);
}

#[test]
fn d6_reroll_a_one_fits_and_plain_d6_odds_do_not() {
    // "Reliable: re-roll a 1; the second roll stands."
    let chart = totals_chart(1, D6, 1, 6, reroll(D6, 0));
    let odds = chart.odds(&dice(), &[]);
    assert_eq!(odds[0], r(1, 36));
    assert_eq!(odds[5], r(7, 36));
    assert!(odds[1..].iter().all(|p| *p == r(7, 36)));
    let observed = outcome_counts(&chart, &[], 1);
    assert_fits("d6 re-roll a 1", &observed, &odds);

    // The same rolls against the odds of a d6 that forgot its re-roll must be rejected:
    // the test can fail.
    let plain = totals_chart(1, D6, 1, 6, vec![]).odds(&dice(), &[]);
    assert!(plain.iter().all(|p| *p == r(1, 6)));
    let (stat, df) = chi_square(&observed, &plain);
    assert!(
        stat > critical(df),
        "forgetting the re-roll went unnoticed: chi-square {stat:.2} with {df} df"
    );
}

#[test]
fn plain_d6_rolls_do_not_fit_the_reroll_odds() {
    // The other way round: a die that skips its re-roll, tested against the odds it
    // should have, fails.
    let rerolled = totals_chart(1, D6, 1, 6, reroll(D6, 0)).odds(&dice(), &[]);
    let plain = totals_chart(1, D6, 1, 6, vec![]);
    let observed = outcome_counts(&plain, &[], 1);
    assert_fits("plain d6", &observed, &plain.odds(&dice(), &[]));
    let (stat, df) = chi_square(&observed, &rerolled);
    assert!(stat > critical(df), "chi-square {stat:.2} with {df} df");
}

#[test]
fn d6_must_reroll_a_six_fits() {
    // 003 skirmishers: "Unreliable: must re-roll a 6; the second roll stands."
    let chart = totals_chart(1, D6, 1, 6, reroll(D6, 5));
    let odds = chart.odds(&dice(), &[]);
    assert_eq!(odds[5], r(1, 36));
    assert!(odds[..5].iter().all(|p| *p == r(7, 36)));
    assert_fits(
        "d6 must re-roll a 6",
        &outcome_counts(&chart, &[], 6),
        &odds,
    );
}

#[test]
fn a_conditional_reroll_applies_only_when_its_input_is_set() {
    // Re-roll a 1 only when input 0 is non-zero: off, the die is plain; on, it is not.
    let mut chart = totals_chart(1, D6, 1, 6, reroll(D6, 0));
    chart.rerolls[0].when = Some(0);
    chart.inputs = vec![grognard_kernel::chart::InputDef {
        name: "reliable".into(),
        default: 0,
        min: 0,
        max: 1,
        source: None,
        with: Vec::new(),
        without: Vec::new(),
    }];
    let off = chart.odds(&dice(), &[0]);
    let on = chart.odds(&dice(), &[1]);
    assert!(off.iter().all(|p| *p == r(1, 6)));
    assert_eq!(on[0], r(1, 36));
    assert_fits("reliable off", &outcome_counts(&chart, &[0], 60), &off);
    assert_fits("reliable on", &outcome_counts(&chart, &[1], 61), &on);
}

#[test]
fn cube_band_odds_are_exact() {
    let chart = band_chart(CUBE);
    let dice = dice();
    let pass = |band: i32| chart.odds(&dice, &[band])[1];
    assert_eq!(pass(0), Ratio::ONE);
    assert_eq!(pass(COLOR), r(1, 2), "Color: any red face");
    assert_eq!(pass(CODE), r(1, 3), "Code: any star");
    assert_eq!(pass(CNC), r(1, 6), "Code 'n Color: the red star");
    assert_eq!(pass(4), Ratio::ZERO);
    // Bands beyond the table clamp to its ends.
    assert_eq!(pass(-3), Ratio::ONE);
    assert_eq!(pass(9), Ratio::ZERO);
}

#[test]
fn cube_d6_stand_in_odds_are_exact() {
    // Hex Command: 1–3 Color, 4–5 Code, 6 Code 'n Color. Red-or-CnC is 4 faces of 6,
    // a star 3 faces of 6.
    let chart = band_chart(CUBE_D6);
    let dice = dice();
    let pass = |band: i32| chart.odds(&dice, &[band])[1];
    assert_eq!(pass(COLOR), r(2, 3));
    assert_eq!(pass(CODE), r(1, 2));
    assert_eq!(pass(CNC), r(1, 6));
}

#[test]
fn cube_faces_and_bands_fit_the_exact_distribution() {
    let chart = band_chart(CUBE);
    let dice = dice();
    // The faces themselves: six equally likely.
    let faces = face_counts(&chart, &[COLOR], 2_024, 6);
    assert_fits("cube faces", &faces, &dice[CUBE.index()].face_odds(&[]));
    // Each band's pass/fail, against the chart's own odds.
    for (band, seed) in [(COLOR, 11), (CODE, 12), (CNC, 13)] {
        let odds = chart.odds(&dice, &[band]);
        assert_fits(
            &format!("cube band {band}"),
            &outcome_counts(&chart, &[band], seed),
            &odds,
        );
    }
    // Automatic and impossible bands roll nothing and always give their outcome.
    assert_eq!(outcome_counts(&chart, &[0], 1), vec![0, ROLLS as u64]);
    assert_eq!(outcome_counts(&chart, &[4], 1), vec![ROLLS as u64, 0]);
}

#[test]
fn cube_d6_bands_fit_the_exact_distribution() {
    let chart = band_chart(CUBE_D6);
    let dice = dice();
    for (band, seed) in [(COLOR, 21), (CODE, 22), (CNC, 23)] {
        let odds = chart.odds(&dice, &[band]);
        assert_fits(
            &format!("cube d6 band {band}"),
            &outcome_counts(&chart, &[band], seed),
            &odds,
        );
    }
}

#[test]
fn rolls_are_reproducible_from_the_seed() {
    // Fixed seeds are what make the statistics above deterministic.
    let chart = totals_chart(2, D6, 2, 12, vec![]);
    assert_eq!(
        outcome_counts(&chart, &[], 77),
        outcome_counts(&chart, &[], 77)
    );
    assert_ne!(
        outcome_counts(&chart, &[], 77),
        outcome_counts(&chart, &[], 78)
    );
}

#[test]
fn inputs_gated_by_with_and_without_chain() {
    // `rating` counts only with `purpose`; `dice` (a constant 1) only with `rating` and
    // without `rule`: AND and NOT over inputs, read through the gated values.
    let input = |name: &str, default, with: Vec<usize>, without: Vec<usize>| {
        grognard_kernel::chart::InputDef {
            name: name.into(),
            default,
            min: 0,
            max: 1,
            source: None,
            with,
            without,
        }
    };
    let mut chart = totals_chart(1, D6, 1, 6, reroll(D6, 0));
    chart.inputs = vec![
        input("purpose", 0, vec![], vec![]),
        input("rating", 0, vec![0], vec![]),
        input("rule", 0, vec![], vec![]),
        input("dice", 1, vec![1], vec![2]),
    ];
    chart.rerolls[0].when = Some(3);
    assert_eq!(chart.input_values(&[(1, 1)]), vec![0, 0, 0, 0]);
    assert_eq!(chart.input_values(&[(0, 1), (1, 1)]), vec![1, 1, 0, 1]);
    assert_eq!(
        chart.input_values(&[(0, 1), (1, 1), (2, 1)]),
        vec![1, 1, 1, 0]
    );
    // The re-roll follows the gated input.
    let on = chart.odds(&dice(), &chart.input_values(&[(0, 1), (1, 1)]));
    assert_eq!(on[0], r(1, 36));
    let off = chart.odds(&dice(), &chart.input_values(&[(1, 1)]));
    assert_eq!(off[0], r(1, 6));
}
