//! The eighth outside audit of the square-block game (`docs/audits/square-blocks.md`,
//! "Eighth outside audit"), run end to end on its positions in
//! `tests/fixtures/audits/square-blocks/eighth/`. Each test cites the seed line.

use crate::util::{Played, Run, cells, json_of, play_json_in, root};

const T8: &str = "tests/fixtures/audits/square-blocks/eighth";

fn run8(args: &[&str]) -> Run {
    crate::util::grognard_fixtures(T8, args)
}

/// `play SCENARIO --orders ORDERS --json` in the fixture folder.
fn play8(scenario: &str, orders: &str) -> Played {
    play_json_in(&root().join(T8), scenario, orders, &[])
}

/// Whether `name` spread from `from` over `to` (a `spread` event), all orders accepted.
fn spread(p: &Played, name: &str, from: (i64, i64), to: (i64, i64)) -> bool {
    p.refused.is_none() && p.has("spread", name, |e| e["cells"] == cells(&[from, to]))
}

/// Whether `legal --json` after `open.orders.yaml` on `scenario` lists fh's arrow to (9,4).
fn arrow_listed(scenario: &str) -> bool {
    let r = run8(&[
        "legal",
        scenario,
        "--orders",
        "open.orders.yaml",
        "--side",
        "french",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let orders = json_of(&r)["orders"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(orders.len() > 1, "{orders:?}");
    let arrow = serde_json::json!({"side": "french", "extend": {"piece": "fh", "to": [9, 4]}});
    orders.contains(&arrow)
}

#[test]
fn audit8_1_an_extension_arrow_crosses_a_hedge_or_wall_but_never_a_river() {
    // 000 l.86 (#16): a block divides into two or more squares with extension arrows.
    // 000 l.176 (terrain table): only "river or other impassable terrain" may not be
    // crossed; a hedge or wall costs a block nothing (ruleset `features`, cost 0), and the
    // ruleset's note on arrows bars them only across a river or other impassable barrier.
    //
    // fd.yaml, worked by hand: fh (50 figures, strategic mode since the fifteenth round:
    // an arrow is a step its 1½ mp pays) at (9,5), a hedge on its north edge to (9,4). In
    // the French movement phase of turn 1, hedgemove: fh moves (9,5) → (9,4) across the
    // hedge for 1 point. So
    // the arrow (9,5) → (9,4) (hedge.orders) is a step the block could take; 50 figures
    // over 2 squares is 25 each, above 5. Before the fix it was refused: "fh cannot
    // spread across the hedge between (9,5) and (9,4)".
    let moved = play8("fd.yaml", "hedgemove.orders.yaml");
    let step = moved.has("moved", "fh", |e| {
        e["path"] == cells(&[(9, 5), (9, 4)]) && e["cost"] == 100
    });
    assert!(step, "{:?}", moved.events);
    let p = play8("fd.yaml", "hedge.orders.yaml");
    assert!(
        spread(&p, "fh", (9, 5), (9, 4)),
        "{:?} {:?}",
        p.refused,
        p.events
    );
    // fdw.yaml: the same position with walls (cost 0) in place of hedges: the same arrow,
    // and fb's arrow (9,8) → (9,9) across the southern wall.
    let p = play8("fdw.yaml", "hedge.orders.yaml");
    assert!(
        spread(&p, "fh", (9, 5), (9, 4)),
        "{:?} {:?}",
        p.refused,
        p.events
    );
    let p = play8("fdw.yaml", "back.orders.yaml");
    assert!(
        spread(&p, "fb", (9, 8), (9, 9)),
        "{:?} {:?}",
        p.refused,
        p.events
    );
    // `legal` lists the arrow across the hedge.
    assert!(arrow_listed("fd.yaml"));
    // fdr.yaml: a river on those edges (impassable, 000 l.176) still bars the arrow, in
    // the rule's words, and `legal` leaves it out.
    let p = play8("fdr.yaml", "hedge.orders.yaml");
    assert_eq!(
        p.refusal_kind.as_deref(),
        Some("impassable"),
        "{:?}",
        p.refused
    );
    // prose: the rule's words.
    let why = p.refused.as_deref().unwrap_or_default();
    assert!(
        why.ends_with("refused: the river between (9,5) and (9,4) cannot be crossed here"),
        "{why}"
    );
    assert!(!p.has("spread", "fh", |_| true), "{:?}", p.events);
    assert!(!arrow_listed("fdr.yaml"));
}

#[test]
fn audit8_measure_reads_sighting_as_the_charts_do() {
    // The eighth audit: `measure` said "sees: yes" for a pair the sighting charts gave no
    // level (its bare line of sight is not what a side learns, 000 #5 and the scout chart
    // of 001). Under sighting rules the tape now reads the level each gives the other by
    // the charts, and that level is the one `view --side` shows after the same position.
    // Worked from examples/square-blocks.yaml with scout1 moved (abr2 stands at (6,2)
    // facing S): from (6,3), next to it, level A; from (5,3), diagonal, level B; from
    // (6,4), two squares off, no level (and no sighting of abr2 in the view at all).
    let example = std::fs::read_to_string(crate::util::root().join("examples/square-blocks.yaml"))
        .expect("example");
    let dir = tempfile::tempdir().expect("tempdir");
    for (at, want) in [("6, 3", Some("A")), ("5, 3", Some("B")), ("6, 4", None)] {
        let text = example.replace(
            "id: scout1, side: french, type: scout, at: [5, 6]",
            &format!("id: scout1, side: french, type: scout, at: [{at}]"),
        );
        assert_ne!(text, example, "the example's scout1 line moved");
        let path = dir.path().join("m.yaml");
        std::fs::write(&path, text).expect("write");
        let path = path.to_str().expect("utf-8");
        let r = crate::util::grognard(&["measure", path, "scout1", "abr2", "--json"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let m: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
        assert_eq!(m["a_sights_b"].as_str(), want, "from ({at}): {m}");
        let r = crate::util::grognard(&["view", path, "--side", "french", "--json"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
        let abr2 = v["view"]["enemy"]
            .as_array()
            .expect("enemy list")
            .iter()
            .find(|e| e["place"]["cell"] == serde_json::json!({"col": 6, "row": 2}))
            .map(|e| e["level"].clone());
        assert_eq!(
            abr2.as_ref().and_then(|l| l.as_str()),
            want,
            "the view from ({at}) agrees: {abr2:?}"
        );
        // prose: the tape's words agree.
        let text = crate::util::grognard(&["measure", path, "scout1", "abr2"]).stdout;
        let said = want.map_or_else(|| "no level".to_owned(), |l| format!("level {l}"));
        assert!(
            text.contains(&format!("scout1 sights abr2 at {said}")),
            "{text}"
        );
    }
}
