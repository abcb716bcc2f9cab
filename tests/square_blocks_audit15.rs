//! The fifteenth round on the square-block game (`docs/audits/square-blocks.md`,
//! "Fourteenth outside audit"): an arrow is a step, arrows and saves in one phase, chart
//! #5 read from an HQ's own square, what the stacking limits count, and `measure`'s
//! words. Positions in `tests/fixtures/audits/square-blocks/fifteenth/` (the auditor's
//! files, pointed at this tree's ruleset, and our own). Each test cites the seed line.

use crate::util::{Played, cells, json_of, play_json_in, root};

const T15: &str = "tests/fixtures/audits/square-blocks/fifteenth";

/// `play SCENARIO --orders ORDERS --json` in the fixture folder, as `side` when given.
fn play15(scenario: &str, orders: &str, side: Option<&str>) -> Played {
    let args: Vec<&str> = side.map(|s| vec!["--side", s]).unwrap_or_default();
    play_json_in(&root().join(T15), scenario, orders, &args)
}

/// The refusal's words, asserted to be an `already_used` refusal (the kernel's kind for a
/// piece that has done what it may this phase). prose: which rule refused is said only in
/// the words, so the tests below check them too.
fn used_up(p: &Played) -> &str {
    assert_eq!(
        p.refusal_kind.as_deref(),
        Some("already_used"),
        "{:?}",
        p.refused
    );
    p.refused.as_deref().unwrap_or_default()
}

/// Whether `name` saved `halves` half points toward `(col, row)`.
fn saved(p: &Played, name: &str, halves: i64, to: (i64, i64)) -> bool {
    p.has("saved", name, |e| {
        e["points"] == halves * 50 && e["toward"] == cells(&[to])[0]
    })
}

/// stdout and stderr of a run, and its exit code.
fn run15(args: &[&str]) -> (i32, String) {
    let r = crate::util::grognard_fixtures(T15, args);
    (r.code, format!("{}{}", r.stdout, r.stderr))
}

const STEP: &str = "may lay an arrow only into a square it could enter this phase";

#[test]
fn audit15_1_an_arrow_costs_what_entering_its_square_would() {
    // 000 l.152 (movement chart): battle-mode infantry has ½ mp a phase; 000 l.57-60
    // (#11) and 001 [6.94] (l.103-107): it saves the ½ to enter an adjacent square the
    // next phase, so it enters a square only every second phase. 000 l.86-90 (#16): with
    // an arrow the command "occupies" the new square. Our reading (fourteenth outside
    // audit #1): an arrow is a step into its square from the square it extends from,
    // priced as a move step and paid from the allowance with the points saved toward
    // that square (which it spends), so a command's sight and contact front advances no
    // faster than it could march.
    //
    // Worked by hand (h4: fi, battle-mode infantry of 100 figures at (5,9), clear ground):
    // - h4b: turn 1, arrow to (5,8): a clear orthogonal step costs 1 mp, fi has ½ and
    //   nothing saved: refused. (Before the fix: laid, free, and one more each phase.)
    let p = play15("h4.yaml", "h4b.orders.yaml", Some("french"));
    let why =
        format!("h4b.orders.yaml:4:5: refused: fi {STEP}: entering (5,8) costs 1 mp and it has ½");
    assert!(used_up(&p).starts_with(&why), "{:?}", p.refused);
    // - h4s: turn 1 fi saves ½ toward (5,8); turn 2 ½ + ½ = 1 pays the arrow into (5,8)
    //   (the saved points spent); turn 3 the arrow to (5,7), next to (5,8), costs 1 again
    //   and fi has its ½ only: refused. The chain grows a square every second phase, as
    //   fi marches.
    let p = play15("h4.yaml", "h4s.orders.yaml", Some("french"));
    assert!(saved(&p, "fi", 1, (5, 8)), "{:?}", p.events);
    assert!(
        p.has("spread", "fi", |e| e["cells"] == cells(&[(5, 9), (5, 8)])),
        "{:?}",
        p.events
    );
    let why =
        format!("h4s.orders.yaml:20:5: refused: fi {STEP}: entering (5,7) costs 1 mp and it has ½");
    assert!(used_up(&p).starts_with(&why), "{:?}", p.refused);
}

#[test]
fn audit15_2_a_command_that_laid_an_arrow_saves_nothing_and_one_that_saved_lays_none() {
    // 000 l.57-60 (#11): points are saved by a block that could move and does not;
    // 001 [6.94] (l.103-107). 000 l.86-90 (#16) with our reading of #1: an arrow is a
    // step, so a command that laid or took up one this phase has moved and saves
    // nothing, and one that stood and saved lays and takes up none (fourteenth outside
    // audit #2). Worked by hand:
    // - h4t: turn 2 fi lays (5,8) with its saved points, then saves toward (4,9):
    //   refused. (Before the fix: accepted, and the banked ½ paid the next step.)
    let p = play15("h4.yaml", "h4t.orders.yaml", Some("french"));
    assert!(
        p.has("spread", "fi", |e| e["cells"] == cells(&[(5, 9), (5, 8)])),
        "{:?}",
        p.events
    );
    assert_eq!(
        used_up(&p),
        "h4t.orders.yaml:13:5: refused: fi laid or took up an extension arrow this phase, which moves it: it saves no points in this phase"
    );
    // - x2b: fi (battle mode, (5,8)) saves toward (4,7), then lays (5,7): refused.
    //   (Before the fix: both accepted in either order.)
    let p = play15("x2.yaml", "x2b.orders.yaml", None);
    assert!(saved(&p, "fi", 1, (4, 7)), "{:?}", p.events);
    assert_eq!(
        used_up(&p),
        "x2b.orders.yaml:5:5: refused: fi saved points this phase, standing still: it may lay or take up no extension arrow in it"
    );
}

#[test]
fn audit15_4_stacking_counts_a_sides_own_pieces_and_a_dummy_has_one_figure() {
    // 000 l.66-69 (#13): no more than 2½ blocks and (001 [6.98]) 150 figures in a square;
    // no block may move into a square to exceed them. Our reading (fourteenth outside
    // audit #4, stated in the notes): the limits count the moving side's own pieces only,
    // so a dummy that ends on an unseen enemy's square is not refused (a refusal would
    // tell the side that something stands there). Worked by hand (h2_hid): fd1 and fd2,
    // French dummies of 1 figure each, move onto (5,7), where the hidden Austrian ah (one
    // block, 140 figures) stands: 3 blocks and 142 figures counting ah, 2 blocks and 2
    // figures counting the French only: both moves are accepted.
    let p = play15("h2_hid.yaml", "h2.orders.yaml", Some("french"));
    assert_eq!((p.code, &p.refused), (0, &None));
    let moved = |name: &str, from: (i64, i64), cost: i64| {
        p.has("moved", name, |e| {
            e["path"] == cells(&[from, (5, 7)]) && e["cost"] == cost
        })
    };
    assert!(
        moved("fd1", (5, 8), 100) && moved("fd2", (4, 8), 150),
        "{:?}",
        p.events
    );
    // 001 l.62 ("each dummy command has a real officer but no combat units") and l.158
    // ("dummy commands have a figure but no combat units"): a dummy's one figure is its
    // officer. h2_fig, the auditor's position, gives fd2 20 figures: `validate` refuses it
    // at fd2's line. (Before the fix: accepted, and the 20 counted toward the 150.)
    let (code, out) = run15(&["validate", "h2_fig.yaml"]);
    assert_ne!(code, 0, "{out}");
    // prose: a validation error at its line.
    assert!(
        out.contains("h2_fig.yaml:29:11: piece fd2: fd2 is a dummy, whose one figure is its officer, but has 20 figures"),
        "{out}"
    );
}

#[test]
fn audit15_3_an_hq_reads_chart_5_from_its_own_square_and_its_arrows_see_next_to_them() {
    // 000 l.217-218: chart #5's X is the observer's location, one officer's square;
    // l.234-236: only senior officers (corps, army, nation HQs) and scouts read the whole
    // chart, division and brigade commands the adjacent squares. Our reading (fourteenth
    // outside audit #3): an HQ reads chart #5 from its main square (its officer) only;
    // its arrow squares, where its troops stand, see the adjacent squares only
    // (`spread_chart: adjacent` in the ruleset's observers). Worked by hand: fhq, a corps
    // HQ facing N on (5,8) with an arrow on (5,7); ai at (5,5), 3 squares straight ahead
    // of (5,8): chart #5 reads C there (its centre column: A* 1 ahead, B 2 ahead, C 3
    // ahead); from the arrow square (5,7) it would be 2 ahead, B, but the arrow square
    // reads the adjacent chart, which does not reach 2 squares. So fhq sights ai
    // at C, as hq0 (the same HQ with no arrow) does. (Before the fix: B.)
    for (scenario, orders) in [("hq1.yaml", Some("hq1.orders.yaml")), ("hq0.yaml", None)] {
        let mut args = vec!["measure", scenario, "fhq", "ai", "--json"];
        if let Some(o) = orders {
            args.extend(["--orders", o]);
        }
        let m = json_of(&crate::util::grognard_in(&root().join(T15), &args));
        let levels = (&m["a_sights_b"], &m["b_sights_a"]);
        assert_eq!(
            levels,
            (&"C".into(), &serde_json::Value::Null),
            "{scenario}: {m}"
        );
    }
}
