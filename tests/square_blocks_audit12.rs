//! The twelfth round on the square-block game (`docs/audits/square-blocks.md`, "Eleventh
//! outside audit"): what a side may follow through concealment, road columns passing
//! through a friendly square, contact across a river. Positions in
//! `tests/fixtures/audits/square-blocks/twelfth/`. Each test cites the seed line.

use crate::util::{
    Played, Run, assert_reads_alike, cells, play_json_in, root, side_reads, side_runs,
};

const T12: &str = "tests/fixtures/audits/square-blocks/twelfth";

fn run12(args: &[&str]) -> Run {
    crate::util::grognard_fixtures(T12, args)
}

/// `play SCENARIO --orders ORDERS --json ARGS` in the fixture folder.
fn play12(scenario: &str, orders: &str, args: &[&str]) -> Played {
    play_json_in(&root().join(T12), scenario, orders, args)
}

/// The refusal's words, asserted to be of `kind`. prose: which rule refused is said in
/// the words.
fn refused_for<'a>(p: &'a Played, kind: &str) -> &'a str {
    assert_eq!(p.refusal_kind.as_deref(), Some(kind), "{:?}", p.refused);
    p.refused.as_deref().unwrap_or_default()
}

/// Whether `name` moved along `path` for `cost` hundredths, every order accepted.
fn moved(p: &Played, name: &str, path: &[(i64, i64)], cost: i64) -> bool {
    p.refused.is_none()
        && p.has("moved", name, |e| {
            e["path"] == cells(path) && e["cost"] == cost
        })
}

#[test]
fn audit12_a_road_column_may_not_pass_through_a_friendly_blocks_square() {
    // 001 l.141-143 ([6.98]): command markers "using road mode CANNOT stack and normally
    // take up additional squares along the road/trail"; 000 l.66-69 (#13): no block may
    // "move into a grid square to exceed" 2½ blocks. The reading (ruleset note on road
    // columns passing): a column is strung through each square it marches through.
    //
    // Worked by hand: col (road mode, 2 mp) at (6,7) marches north along the road to
    // (6,5), 1 + 1 = 2 mp. In pass.yaml the infantry block s1 stands alone at (6,6):
    // passing through it is sharing it, refused with the road-mode words. In empty.yaml
    // (no s1) the same march is allowed, cost 2.
    let p = play12("pass.yaml", "col.orders.yaml", &[]);
    assert!(
        refused_for(&p, "occupied")
            .ends_with("col cannot enter (6,6): pieces in road mode cannot share a place"),
        "{:?}",
        p.refused
    );
    let p = play12("empty.yaml", "col.orders.yaml", &[]);
    assert!(
        moved(&p, "col", &[(6, 7), (6, 6), (6, 5)], 200),
        "{:?} {:?}",
        p.refused,
        p.events
    );
}

#[test]
fn audit12_a_strategic_block_passes_through_a_friendly_square_within_the_limit() {
    // 000 l.66-69 (#13): the limit is 2½ blocks in a square; 000 l.130-132 (#20): on small
    // tables every block starts with a free ½ mp credit.
    //
    // Worked by hand: st (strategic, 1½ mp + ½ saved = 2) at (4,7) moves north twice,
    // 1 + 1 = 2 mp, through (4,6) where s5 stands alone: 1 + 1 = 2 blocks ≤ 2½ there, so
    // the move stands. Without the credit it is refused on points (2 > 1½), not on
    // stacking.
    let p = play12(
        "pass.yaml",
        "st.orders.yaml",
        &["--option", "small_tables=on"],
    );
    assert!(
        moved(&p, "st", &[(4, 7), (4, 6), (4, 5)], 200),
        "{:?} {:?}",
        p.refused,
        p.events
    );
    let p = play12("pass.yaml", "st.orders.yaml", &[]);
    assert!(
        refused_for(&p, "too_far")
            .ends_with("the path costs 2 by (4,5), but st has 1½ in strategic mode"),
        "{:?}",
        p.refused
    );
}

#[test]
fn audit12_contact_is_made_across_a_river() {
    // 000 l.47-50 (#9): deployment "occurs when a block movement enters an adjacent square
    // containing an enemy block (non-dummy command)". The river runs between rows 8 and 9
    // with no bridge or ford; (5,9) and (5,8) are still adjacent squares.
    //
    // Worked by hand: fr (strategic) steps (5,10) → (5,9), cost 1, next to ar at (5,8) on
    // the far bank: contact, fr stops, and the non-phasing ar deploys first.
    let p = play12("river.yaml", "river.orders.yaml", &[]);
    let stopped = p.has("moved", "fr", |e| {
        e["path"] == cells(&[(5, 10), (5, 9)])
            && e["cost"] == 100
            && e["stopped"] == "came into contact with the enemy"
    });
    assert!(
        p.refused.is_none() && stopped,
        "{:?} {:?}",
        p.refused,
        p.events
    );
    let deploy = serde_json::json!([p.piece("ar"), p.piece("fr")]);
    let contact = p.has("contact", "fr", |e| {
        e["at"] == cells(&[(5, 9)])[0] && e["deploy"] == deploy
    });
    assert!(contact, "{:?}", p.events);
}

/// Everything the French read after `orders` on town.yaml (`util::SIDE_READS`: their log
/// in text and JSON, their view in text and JSON, their legal orders), stdout and stderr.
fn french_reads(orders: &str) -> Vec<String> {
    side_reads(side_runs(run12, "town.yaml", orders, "french"), true)
}

#[test]
fn audit12_a_town_hides_which_marker_comes_out() {
    // 000 l.75-80 (#15): dummies are there for misinformation; 000 l.229 (chart #5): at D
    // "nothing can be reported"; the ruleset note on concealment breaking tracking.
    //
    // Worked by hand (town.yaml): on turn 1 the scout sc (8,5) facing N sees the dummy ad
    // at (9,3) (one right, two ahead: C) as a dummy, handle #4; ar at (8,2) behind the town
    // is #3 by its public square. Both go into the town (8,3) and out of sight. On turn 2
    // one marker comes out to (9,2) (one right, three ahead: D): ar moving diagonally
    // (town_real), ad moving (town_dummy), or ad lifted out (town_lift, turned NE in the
    // town first, unseen, so that it faces as a diagonal move leaves a block). Before the
    // fix the marker kept its handle and what was learnt: "#4 … a dummy as last seen" for
    // the dummy, "#3" for the real block. Now the French read the same whichever it is:
    // a new marker #5 at D with nothing remembered, #3 and #4 left where last seen.
    let real = french_reads("town_real.orders.yaml");
    for other in ["town_dummy.orders.yaml", "town_lift.orders.yaml"] {
        assert_reads_alike(&real, &french_reads(other), other);
    }
    let view = &real[2];
    // prose: the view's lines for the three markers.
    assert!(
        view.contains("#5         at (9,2), facing NE, sighting D"),
        "{view}"
    );
    assert!(
        view.contains("#4         last seen at (9,3) on turn 1, a dummy"),
        "{view}"
    );
    assert!(
        view.contains("#3         last seen at (8,2) on turn 1\n"),
        "{view}"
    );
    // The log names each marker by the handle the French knew it by at the time (the
    // events of `view --json`, the fourth read).
    let json: serde_json::Value = serde_json::from_str(&real[3]).expect("view --json");
    let events = crate::util::events_of(&json);
    let at = |c: (i64, i64)| serde_json::json!({"cell": cells(&[c])[0]});
    let seen = |want: serde_json::Value| events.contains(&want);
    assert!(
        seen(
            serde_json::json!({"event": "enemy_moved", "piece": 4, "from": at((9, 3)), "to": null})
        ),
        "{json}"
    );
    assert!(
        seen(serde_json::json!({"event": "sighted", "side": 0, "piece": 4, "level": null})),
        "{json}"
    );
    assert!(
        seen(
            serde_json::json!({"event": "enemy_moved", "piece": 5, "from": null, "to": at((9, 2))})
        ),
        "{json}"
    );
}
