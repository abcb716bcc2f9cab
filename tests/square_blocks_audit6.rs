//! The sixth outside audit of the square-block game (`docs/audits/square-blocks.md`,
//! "Sixth outside audit"), run end to end on its positions in
//! `tests/fixtures/audits/square-blocks/sixth/`. Each test cites the seed line.

use serde_json::{Value, json};

use crate::util::{Played, Run, cells, count_events, json_of, play_json_in, root};

const T6: &str = "tests/fixtures/audits/square-blocks/sixth";

fn run6(args: &[&str]) -> Run {
    crate::util::grognard_fixtures(T6, args)
}

/// `play SCENARIO --orders ORDERS --json` in the fixture folder (the referee's log).
fn play6(scenario: &str, orders: &str) -> Played {
    play_json_in(&root().join(T6), scenario, orders, &[])
}

/// Where the first `rolled` event for `purpose` stands.
fn rolled(p: &Played, purpose: &str) -> Option<usize> {
    (p.events.iter()).position(|e| e["event"] == "rolled" && e["roll"]["purpose"] == purpose)
}

/// A roll's die, modifiers, score and outcome.
fn roll_of(roll: &Value) -> (Value, Value, Value, Value) {
    let r = roll.clone();
    (
        r["dice"][0]["value"].clone(),
        r["modifiers"].clone(),
        r["score"].clone(),
        r["outcome"].clone(),
    )
}

/// `legal --json`'s orders for piece `name` after `orders` on `scenario`, as the French.
fn legal_of(scenario: &str, orders: &str, name: &str) -> Vec<Value> {
    let r = run6(&[
        "legal", scenario, "--orders", orders, "--side", "french", "--json",
    ]);
    assert_eq!(r.code, 0, "{scenario}: {}", r.stderr);
    let listed = json_of(&r)["orders"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    (listed.into_iter())
        .filter(|o| {
            o.as_object()
                .into_iter()
                .flatten()
                .any(|(_, v)| *v == name || v["piece"] == name)
        })
        .collect()
}

#[test]
fn audit6_1_an_arrow_laid_next_to_an_enemy_block_is_contact_and_ends_the_commands_movement() {
    // 000 l.47-49: block movement deploys the enemy when "a block movement enters an
    // adjacent square containing an enemy block (non-dummy command)"; 000 l.86-88: arrows
    // divide the block into more squares, so the command enters them. Worked by hand (x1):
    // inf at (4,7) lays an arrow into (5,6); ainf (hidden) at (4,5) and binf at (6,5) are
    // both a king's step from (5,6): contact, both deploy (the non-phasing side's first,
    // 000 l.127-129) and the movement of inf is over. Before the fix the arrow sighted
    // both at A, nobody deployed, and inf gathered and marched off to (3,8).
    let p = play6("x1.yaml", "x2.orders.yaml");
    let deploy = json!([p.piece("ainf"), p.piece("binf"), p.piece("inf")]);
    let contact = p.has("contact", "inf", |e| {
        e["at"] == cells(&[(5, 6)])[0] && e["deploy"] == deploy
    });
    assert!(contact, "{:?}", p.events);
    assert_eq!(
        p.refusal_kind.as_deref(),
        Some("already_used"),
        "{:?}",
        p.refused
    );
    // prose: the rule is named in the words.
    assert_eq!(
        p.refused.as_deref(),
        Some(
            "x2.orders.yaml:5:5: refused: inf came into contact with the enemy this phase, which ends its movement"
        )
    );
    // The arrow is the only spread: no gathering after the contact.
    assert_eq!(count_events(&p.events, "spread"), 1, "{:?}", p.events);
    // Nor may it move: the legal orders after the arrow list no move, arrow or gathering
    // for inf (facings and a change of mode stay: they are not movement).
    let inf = legal_of("x1.yaml", "x2a.orders.yaml", "inf");
    let has = |kind: &str| inf.iter().any(|o| o.get(kind).is_some());
    assert!(has("face"), "{inf:?}");
    assert!(!has("move") && !has("gather") && !has("extend"), "{inf:?}");
}

#[test]
fn audit6_2_a_dummy_and_a_real_block_may_do_the_same_in_public() {
    // 000 l.79: dummy blocks "act and move just like normal blocks"; 000 l.89-91: the 5
    // miniatures a square are for "deploying the miniatures", which a dummy never does.
    // The no-leak property: fd at (6,7) is a 1-figure dummy (v0) or a 100-figure infantry
    // block (v0real), the rest of the table alike. The Austrians' views are the same, and
    // every order the French may give fd that the Austrians would see (moves, saves,
    // arrows, facings, modes, forward deployment) is the same in both; only the dummy's
    // lift (redeploy, 001 l.153-156, a dummy's own rule, told by note) differs. Worked by
    // hand: the dummy has 1 figure, 1 < 5 × 2, so before the fix it could lay no arrow and
    // `extend: { piece: fd, to: [6, 6] }` proved the block at (6,7) real.
    let legal = |p: &str| {
        let mut fd = legal_of(p, "dx0.orders.yaml", "fd");
        fd.retain(|o| o.get("redeploy").is_none());
        fd
    };
    let (dummy, real) = (legal("v0.yaml"), legal("v0real.yaml"));
    let arrow = json!({"side": "french", "extend": {"piece": "fd", "to": [6, 6]}});
    assert!(dummy.contains(&arrow), "{dummy:?}");
    assert_eq!(dummy, real);
    let view = |p: &str| {
        let r = run6(&[
            "view",
            p,
            "--orders",
            "dx.orders.yaml",
            "--side",
            "austrians",
        ]);
        assert_eq!(r.code, 0, "{p}: {}", r.stderr);
        r.stdout
    };
    assert_eq!(view("v0.yaml"), view("v0real.yaml"));
    // The auditor's orders: the dummy's arrow is accepted. (v0f, its 20-figure dummy, is
    // refused by `validate` since the fifteenth round: a dummy's one figure is its officer.)
    for scenario in ["v0.yaml", "v0real.yaml"] {
        let p = play6(scenario, "dx.orders.yaml");
        assert_eq!((p.code, &p.refused), (0, &None), "{scenario}");
        let spread = p.has("spread", "fd", |e| e["cells"] == cells(&[(6, 7), (6, 6)]));
        assert!(spread, "{scenario}: {:?}", p.events);
    }
}

#[test]
fn audit6_3_nothing_is_sighted_in_the_set_up() {
    // 000 l.189-190: each deployed scout rolls on the Scout Fate table at the start of
    // every command phase, "before any information is collected". Worked by hand (su):
    // the French scout1 is put down at (5,6) while the Austrian abr2 stands at (5,3), three
    // squares ahead in column: chart #5 reads C there (the C at the top of the printed
    // chart), so before the fix the French learnt abr2 "real" in the set-up, before any
    // roll, and kept it when abr2 was put down again at (10,1) under the same handle #8.
    // Now the set-up sights nothing (`sighting.blind_setup`); what the French know of #8
    // as turn 1 begins is its public square alone.
    let r = run6(&[
        "view",
        "su.yaml",
        "--orders",
        "su2.orders.yaml",
        "--side",
        "french",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // prose: the words the French read say nothing sighted or real of #8.
    assert!(!r.stdout.contains("sights"), "{}", r.stdout);
    assert!(!r.stdout.contains("real"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("#8         at (10,1), facing S, strategic mode\n"),
        "{}",
        r.stdout
    );
    // The referee's log: the scouts' first fate rolls come before any sighting.
    let p = play6("su.yaml", "su2.orders.yaml");
    assert_eq!((p.code, &p.refused), (0, &None));
    let setup = p.in_phase(1, "set-up", "french and austrians");
    assert!(setup.iter().any(|e| e["event"] == "arrived"), "{setup:?}");
    assert!(!setup.iter().any(|e| e["event"] == "sighted"), "{setup:?}");
}

#[test]
fn audit6_4_a_turn_that_puts_the_feature_behind_ends_forward_deployment() {
    // 000 l.112-115 (#18a): the feature must be in the forward deployment half of the
    // square. Worked by hand (fd): h at (8,5) faces N with a hedge on its north edge, saves
    // ½ mp and deploys forward; facing E the hedge is on its left flank (half of it forward,
    // note on #18a): still forward; facing S the hedge is on the edge behind it, nothing of
    // it in the forward half: the forward deployment ends, told to every player as it was
    // declared. Before the fix h stayed "deployed forward" facing S.
    let p = play6("fd.yaml", "fd3.orders.yaml");
    assert_eq!((p.code, &p.refused), (0, &None));
    let ended = "the command at (8,5) is no longer deployed forward: its feature is now behind it";
    let told = (p.events.iter()).position(|e| e["event"] == "announced" && e["text"] == ended);
    let east = p.find("faced", "h", |e| e["facing"] == "E");
    let south = p.find("faced", "h", |e| e["facing"] == "S");
    assert!(
        east.is_some() && east < south && south < told,
        "{:?}",
        p.events
    );
    assert_eq!(
        p.flag("h", "forward_deployed", false)
            .map(|i| i > south.unwrap_or(0)),
        Some(true)
    );
    let v = json_of(&run6(&[
        "view",
        "fd.yaml",
        "--orders",
        "fd3.orders.yaml",
        "--side",
        "austrians",
        "--json",
    ]));
    let heard = v["events"].as_array().is_some_and(|e| {
        e.iter()
            .any(|e| e["event"] == "announced" && e["text"] == ended)
    });
    assert!(heard, "{v}");
}

#[test]
fn audit6_5_replaced_a_known_dummy_keeps_no_enemy_block_out_of_its_square() {
    // The sixth audit's reading (a known dummy still bars its square) is replaced by the
    // thirteenth outside audit's #26: 001's notes on dummy markers say dummies "cannot
    // block LOC", so a marker the side KNOWS to be a dummy keeps none of its blocks out.
    // Worked by hand (d1): inf at (4,7) stands next to the Austrian dummy ad at (4,6) and
    // sees it at A (adjacent, chart X=A*), so the French know it is a dummy; the move into
    // (4,6) now goes ahead (one step, 1 mp) and nobody deploys (a dummy makes no contact).
    let p = play6("d1.yaml", "d1.orders.yaml");
    assert_eq!((p.code, &p.refused), (0, &None));
    assert!(
        p.has("sighted", "ad", |e| e["side"] == 0 && e["level"] == "A"),
        "{:?}",
        p.events
    );
    let moved = p.has("moved", "inf", |e| {
        e["path"] == cells(&[(4, 7), (4, 6)]) && e["cost"] == 100
    });
    assert!(
        moved && count_events(&p.events, "contact") == 0,
        "{:?}",
        p.events
    );
}

#[test]
fn audit6_6_reading_a_scout_may_look_all_round_in_one_command_phase() {
    // A stated reading (ruleset note, sixth audit #6): 000 l.187 scouts are single officer
    // figures; the chart footnote (000 l.167) lets them move in both command phases, and
    // the sources set no limit on turning. Worked by hand (t1): sc at (4,8) turns E, S, W
    // and N in the French command phase; all four turns are accepted and chart #5 is read
    // from each facing (the blocks about it are sighted and lost as it turns).
    let p = play6("t1.yaml", "t1.orders.yaml");
    assert_eq!((p.code, &p.refused), (0, &None));
    let turns: Vec<Option<usize>> = ["E", "S", "W", "N"]
        .iter()
        .map(|f| p.find("faced", "sc", |e| e["facing"] == *f))
        .collect();
    assert!(
        turns.iter().all(Option::is_some) && turns.is_sorted(),
        "{:?}",
        p.events
    );
    let after_w = &p.events[turns[2].unwrap_or_default()..];
    let sights = |e: &Value| e["event"] == "sighted" && e["side"] == 0 && !e["level"].is_null();
    assert!(after_w.iter().any(sights), "{:?}", p.events);
}

#[test]
fn audit6_8_the_scout_fate_roll_beyond_5_squares_prints_no_plus_twos() {
    // 000 l.201-212: the row "more than 5 squares away" has no asterisk, so neither +2 (a
    // headquarters in transit, a night turn) applies there; a scout is removed on a 10.
    // The chart gates `transit` and `night` on `range` (range 0 is beyond 5), so the hand
    // roll prints what is applied. Worked by hand, seed 3: d10 5; beyond 5 squares the
    // score is 5 (before the fix: "+2 headquarters in transit, +2 night turn; score 9");
    // at 4-5 squares (range 1) both +2s stand, 5 + 4 = 9.
    let sb = "../../../../../rulesets/square-blocks.yaml";
    // prose: the hand roll's lines (its JSON is checked below).
    let roll = |range: &str| {
        let r = run6(&[
            "roll",
            sb,
            "scout_fate",
            "--set",
            range,
            "--set",
            "transit=1",
            "--set",
            "night=1",
            "--seed",
            "3",
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let far = roll("range=0");
    assert!(far.contains("inputs: range=0, transit=0, night=0"), "{far}");
    assert!(
        far.contains("scout_fate: d10 5; score 5 → reports"),
        "{far}"
    );
    assert!(!far.contains("+2"), "{far}");
    // The --set the gate overrides is said to be, as `chart` says it.
    assert!(
        far.contains(
            "note: --set transit=1 is overridden by its gate (with range): transit reads 0"
        ),
        "{far}"
    );
    let near = roll("range=1");
    assert!(
        near.contains(
            "scout_fate: d10 5; +2 headquarters in transit, +2 night turn; score 9 → reports"
        ),
        "{near}"
    );
    assert!(!near.contains("overridden"), "{near}");
    let roll_json = |range: &str| {
        let args = [
            "roll",
            sb,
            "scout_fate",
            "--set",
            range,
            "--set",
            "transit=1",
            "--set",
            "night=1",
            "--seed",
            "3",
            "--json",
        ];
        json_of(&run6(&args))["roll"].clone()
    };
    let far = roll_json("range=0");
    assert_eq!(
        far["inputs"],
        json!([["range", 0], ["transit", 0], ["night", 0]])
    );
    assert_eq!(
        roll_of(&far),
        (json!(5), json!([]), json!(5), json!("reports"))
    );
    let plus_twos = json!([{"name": "headquarters in transit", "value": 2}, {"name": "night turn", "value": 2}]);
    let near = roll_json("range=1");
    assert_eq!(
        roll_of(&near),
        (json!(5), plus_twos.clone(), json!(9), json!("reports"))
    );
    // The same in a game (sf2, night, fhq in strategic mode: in transit). fa is 9 squares
    // (king moves) from ai: d10 7, score 7, reports (with the +2s it would be 11, removed);
    // fb, 2 squares from ai, rolls 7 + 4 = 11 against 9+: removed.
    let p = play6("sf2.yaml", "empty.yaml");
    assert_eq!((p.code, &p.refused), (0, &None));
    let roll = |purpose: &str| {
        let at = rolled(&p, purpose).unwrap_or_else(|| panic!("no {purpose}: {:?}", p.events));
        roll_of(&p.events[at]["roll"])
    };
    assert_eq!(
        roll("scout fate of fa"),
        (json!(7), json!([]), json!(7), json!("reports"))
    );
    assert_eq!(
        roll("scout fate of fb"),
        (json!(7), plus_twos, json!(11), json!("removed"))
    );
}

#[test]
fn audit6_9_a_sides_scouts_first_report_after_their_own_first_fate_roll() {
    // 000 l.189-190: the Scout Fate roll is made at the start of every command phase and
    // "before any information is collected". Since the thirteenth outside audit (#21;
    // l.167: a game turn has two command phases) every side's deployed scouts roll as
    // each command phase begins, so on turn 1 both sides' scouts roll as the French
    // command phase begins and report from then on. Worked by hand (sf1): as (Austrian
    // scout, (5,3) facing S) has fi (5,5) two squares ahead, B on chart #5; fs (French
    // scout, (3,4) facing N) has ai (3,2) two squares ahead, B. (Before the sixth audit's
    // fix as reported before any roll; from it until the thirteenth, only after its own
    // side's command phase.)
    // prose: the views' lines (the referee's order of roll and report is on JSON below).
    let view = |orders: &str, side: &str| {
        let r = run6(&["view", "sf1.yaml", "--orders", orders, "--side", side]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    // Turn 1, French command phase: both scouts have rolled (d10 4 and 3: both report).
    let a1 = view("empty.yaml", "austrians");
    assert!(a1.contains("austrians sights enemy #4 at level B"), "{a1}");
    let f1 = view("empty.yaml", "french");
    assert!(
        f1.contains("at (3,2), facing S, sighting B, face up, real, infantry, strength 5"),
        "{f1}"
    );
    // Nothing of the Austrian scout's state reaches the French.
    assert!(!f1.contains("awaiting_fate"), "{f1}");
    let a2 = view("sf1-a.orders.yaml", "austrians");
    assert!(
        a2.contains("at (5,5), facing N, sighting B, face up, real, infantry, strength 6"),
        "{a2}"
    );
    // In the referee's log the roll comes first, then the report.
    let p = play6("sf1.yaml", "sf1-b.orders.yaml");
    assert_eq!((p.code, &p.refused), (0, &None));
    let roll = rolled(&p, "scout fate of as");
    let report = p.find("sighted", "fi", |e| e["side"] == 1 && e["level"] == "B");
    assert!(
        matches!((roll, report), (Some(a), Some(b)) if a < b),
        "{:?}",
        p.events
    );
    // Turn 2, French command phase: both sides' scouts have rolled; each still reports
    // (as on the strength of its turn-1 roll, until its turn-2 roll).
    let a3 = view("sf1-b.orders.yaml", "austrians");
    assert!(a3.contains("turn 2 · command phase (french)"), "{a3}");
    assert!(
        a3.contains("sighting B, face up, real, infantry, strength 6"),
        "{a3}"
    );
    let f3 = view("sf1-b.orders.yaml", "french");
    assert!(
        f3.contains("sighting B, face up, real, infantry, strength 5"),
        "{f3}"
    );
    assert!(!f3.contains("awaiting_fate"), "{f3}");
}
