//! Hex Command (seed 004), the seventh outside audit's findings: an unmasked fake is no
//! target, decision failures and an attached commander, mounted infantry's rout, rallies
//! under the activation sequence and the commander of a withdrawn unit. The positions are
//! in tests/fixtures/audits/hex-command/eighth/ (Blue first: no initiative roll), each
//! worked by hand below; the audit page reruns them.

use crate::util::{Played, Run, grognard_in, play_json_in, root};

use super::field::{assert_counted, assert_placed, assert_removed, counted, has, lacks};

const DIR: &str = "tests/fixtures/audits/hex-command/eighth";

fn at(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

fn played(args: &[&str]) -> String {
    let out = at(args);
    assert_eq!(out.code, 0, "{args:?}: {}{}", out.stdout, out.stderr);
    out.stdout
}

/// `play SCENARIO --orders ORDERS --json` in the fixture folder, all accepted.
fn played_json(scenario: &str, orders: &str) -> Played {
    let p = play_json_in(&root().join(DIR), scenario, orders, &[]);
    assert_eq!(p.code, 0, "{orders}: {:?}", p.refused);
    p
}

fn rules() -> String {
    std::fs::read_to_string(root().join(super::RULESET)).expect("ruleset")
}

/// 004 l.584 (7f: "the closest target in arc is always the most immediate target
/// selection") with 3.1 (l.465-467: markers are spotted and revealed) and l.264 (hidden
/// movement's fake counters). fakes.yaml: Blue's b (2,4) facing E; Red's 3.1 fake marker f
/// at (4,4), 2 hexes off in clear ground, so unmasked at the first spotting (within 5
/// hexes: automatic), and Red's r at (6,4), 4 hexes off, behind f. Our reading: a fake the
/// firer's side has unmasked is an empty plate, no unit — it is no target (fire at it is
/// refused, and not listed), it is not the nearer target that 7f forces, and it blocks no
/// fire line. So b fires at r across f (band 3 of the small-arms chart). Under hidden
/// movement (fakes-hidden.yaml) r's two fake counters, unmasked with it 4 hexes off, are
/// not listed as targets either. Before: "refused: f is nearer and must be the target", and
/// fire at f (and at r's fakes) was listed and accepted.
#[test]
fn an_unmasked_fake_is_no_target_and_forces_no_choice() {
    let view = played(&[
        "view",
        "--side",
        "blue",
        "fakes.yaml",
        "--orders",
        "fakes-fire.at.yaml",
    ]);
    // prose: blue's view names f a dummy in its words.
    has(&view, "a dummy, fake_counter");
    let p = played_json("fakes.yaml", "fakes.orders.yaml");
    assert!(p.has("acted", "b", |e| e["action"] == "fire"
        && e["target"] == p.piece("r")));
    let fire = (p.events.iter())
        .map(|e| &e["roll"])
        .find(|r| r["chart"] == "fire_small_b")
        .unwrap_or_else(|| panic!("no fire roll in {:?}", p.events));
    assert_eq!(fire["band"], "Code'n Color", "{fire}");
    assert!(
        fire["inputs"]
            .as_array()
            .is_some_and(|i| i.contains(&serde_json::json!(["band", 3]))),
        "{fire}"
    );
    for scenario in ["fakes.yaml", "fakes-hidden.yaml"] {
        let legal = played(&[
            "legal",
            "--side",
            "blue",
            scenario,
            "--orders",
            "fakes-fire.at.yaml",
        ]);
        // prose: `legal`'s list is printed words (its orders, one a line).
        has(
            &legal,
            "blue may give 2 orders:\n- { side: blue, act: { piece: b, action: fire, target: r } }\n- { side: blue, end_phase: true }",
        );
    }
    let refused = at(&["play", "fakes.yaml", "--orders", "fakes-at.orders.yaml"]);
    assert_eq!(refused.code, 1, "{}{}", refused.stdout, refused.stderr);
    // prose: the refusal's words.
    has(
        &refused.stderr,
        "refused: f is known to be a fake counter: there is no unit there to fire at",
    );
    // prose: the refusal's words carry no script path.
    lacks(&refused.stderr, "no unit there to fire at", ".lua:");
    // The fire is refused by the rules' script (a hook's refusal), as play --json says.
    let p = play_json_in(&root().join(DIR), "fakes.yaml", "fakes-at.orders.yaml", &[]);
    assert_eq!(
        p.refusal_kind.as_deref(),
        Some("hook_failed"),
        "{:?}",
        p.refused
    );
    assert!(rules().contains("A fake its side has unmasked"));
}

/// 004 l.120 ("all sides conduct rallies") and l.205 / l.575 (a commander joins a routed unit
/// at the end of a turn to rally it), under the optional rule `activation_sequence` (2.3),
/// whose one rally phase is shared. activation.yaml: Red's r1 (routed before the game, 2
/// hits) routs 3 hexes in Red's group 1 activation, (10,5) facing E → (13,5); Red's kern
/// stands free. In the rally phase both sides give orders (our reading: the phase is both
/// sides' rally, as its command phase is both sides' orders); kern joins r1: routed off, one
/// hit off (2 → 1). Before: only Blue gave orders in that phase, so Red could never rally.
///
/// And one rally a turn for a commander (our reading of 6, l.563: "once placed that is where
/// they remain for the turn"): voss, attached to r2 (2 hits, 1 TE), rallies it as the rally
/// phase begins (TE 1 → 0, hits 2 → 1); sent to r1 too, he is refused. Before: he joined r1
/// and rallied it as well, two rallies in one turn.
#[test]
fn both_sides_rally_under_the_activation_sequence_and_a_commander_rallies_once() {
    let p = played_json("activation.yaml", "activation.orders.yaml");
    assert_placed(&p, "r1", (10, 5), (13, 5), "routed");
    assert_counted(&p, "r2", "te", 1, 0);
    assert_counted(&p, "r2", "hits", 2, 1);
    // kern joins r1 in the shared rally phase: routed off, one hit off, in that order.
    let joined = p.find("attached", "kern", |e| e["to"] == p.piece("r1"));
    let rallied = p.flag("r1", "routed", false);
    let hit_off = p.find("counter_changed", "r1", |e| {
        e["counter"] == "hits" && e["from"] == 2 && e["to"] == 1
    });
    assert!(
        joined.is_some() && joined < rallied && rallied < hit_off,
        "{:?}",
        p.events
    );
    let twice = at(&[
        "play",
        "activation.yaml",
        "--orders",
        "activation-twice.orders.yaml",
    ]);
    assert_eq!(twice.code, 1, "{}{}", twice.stdout, twice.stderr);
    // prose: the refusal's words.
    has(
        &twice.stderr,
        "refused: voss has rallied a unit in this rally phase: a commander rallies one unit a turn",
    );
    let rules = rules();
    assert!(rules.contains("{ phase: rally, actor: both, allows: [attach, face] }"));
    assert!(rules.contains("a commander rallies one unit a turn"));
}

/// 004 l.567-569 (6): a commander is attached before movement "so that ... the die roll for
/// decisions can be negated by the attachment of the commander". spared.yaml, seed 3: hale
/// (Tactical 9) rolls 7 to change orders (fail: not above 9), then 7 on the failure table
/// (fall back to cover and a TE hit). b has hale attached and d has ames: our reading, each
/// is spared every consequence (no TE, no about-face, no halt). c, without a commander,
/// takes the TE hit, turns about (E → W) and falls back (2,6) → (0,6), stopping at the edge,
/// and defends there, halted. Before: b and d were turned, hit and halted as well.
#[test]
fn an_attached_commander_spares_his_unit_a_failed_order_change() {
    // b and d take no TE, do not turn and are not halted; c does all three.
    let p = played_json("spared.yaml", "spared.orders.yaml");
    let failure = (p.events.iter())
        .map(|e| &e["roll"])
        .find(|r| r["chart"] == "decision_failure")
        .unwrap_or_else(|| panic!("no decision failure roll in {:?}", p.events));
    assert_eq!(
        (&failure["score"], &failure["outcome"]),
        (&7.into(), &"fall back to cover and TE".into())
    );
    for (unit, commander) in [("b", "hale"), ("d", "ames")] {
        let note = format!("{unit} has {commander} attached: the decision roll does not bind it");
        assert!(
            p.events.iter().any(|e| e["text"] == note.as_str()),
            "{note}"
        );
    }
    for unit in ["b", "d"] {
        assert!(!counted(&p, unit, "te", None), "{unit}: {:?}", p.events);
        assert!(!p.has("faced", unit, |_| true), "{unit}: {:?}", p.events);
        assert!(
            p.flag(unit, "halted", true).is_none(),
            "{unit}: {:?}",
            p.events
        );
    }
    assert!(counted(&p, "c", "te", Some((0, 1))), "{:?}", p.events);
    assert!(
        p.has("faced", "c", |e| e["facing"] == "W"),
        "{:?}",
        p.events
    );
    assert!(p.flag("c", "halted", true).is_some(), "{:?}", p.events);
    let why = "fell back toward cover (decision failure)";
    assert_placed(&p, "c", (2, 6), (0, 6), why);
    assert!(rules().contains("negates the decision roll for his unit"));
}

/// 004 l.396 (7.5: "3 hexes (4 for cavalry and artillery)") with l.268 (mounted infantry
/// "is not melee-capable cavalry, they are normal infantry"). mounted.yaml: Blue's cavalry c
/// melees Red's mounted infantry m, which is routed at once (mounted_infantry_rules) and
/// routs as infantry: 3 hexes, (5,4) facing W → about E → (8,4). Before: 4 hexes, to (9,4).
#[test]
fn mounted_infantry_routs_three_hexes_as_infantry() {
    let p = played_json("mounted.yaml", "mounted.orders.yaml");
    assert_placed(&p, "m", (5, 4), (8, 4), "routed");
    assert!(rules().contains("mounted infantry routs 3 hexes"));
}

/// 004 l.170 (army integrity: on red a unit withdraws 3 hexes to its rear) with l.243
/// (commanders are captured with units that rout, not with units that withdraw).
/// withdraw.yaml, seed 1: Blue has lost 50% (d routed), so b rolls: red, withdraw. From
/// (1,4) facing E it steps W to (0,4) and then off the board: it leaves the field, and g,
/// attached, leaves with it — not "captured: his unit was destroyed", as it was logged before.
#[test]
fn a_commander_leaves_the_field_with_his_withdrawing_unit() {
    // b withdraws on a red cube and leaves the field; g's one removal is for leaving the
    // field with b, not a capture.
    let p = played_json("withdraw.yaml", "withdraw.orders.yaml");
    let integrity = (p.events.iter())
        .map(|e| &e["roll"])
        .find(|r| r["chart"] == "integrity")
        .unwrap_or_else(|| panic!("no integrity roll in {:?}", p.events));
    assert_eq!(
        (&integrity["dice"][0]["face"], &integrity["outcome"]),
        (&"red".into(), &"withdraw".into())
    );
    assert_removed(&p, "b", "withdrew (army integrity): left the field");
    let removals: Vec<_> = (p.events.iter())
        .filter(|e| e["event"] == "removed" && e["piece"] == p.piece("g"))
        .map(|e| e["reason"].clone())
        .collect();
    assert_eq!(
        removals,
        ["commander left the field with his unit"],
        "{:?}",
        p.events
    );
}

/// 004 l.264 (hidden movement: the owner alone knows which counters are fakes) — a fake
/// counter's name must tell the enemy who unmasks it nothing. fakes-hidden.yaml: b and r
/// each get two fakes at set-up; r's two, unmasked with it 4 hexes from b, are shown to Blue
/// by name. Our ruling: the names are drawn at random (decoy-1000 .. decoy-9999, from a
/// stream of their own, so no die roll changes) rather than numbered along the scenario's
/// list, which told Blue its place in the list and how many pieces came before it. Before:
/// Blue saw decoy-3 and decoy-4 (b's fakes being 1 and 2).
#[test]
fn an_unmasked_fake_counters_name_tells_nothing_of_the_list() {
    // prose: the names blue's text view prints are what this test is about.
    let view = played(&["view", "--side", "blue", "fakes-hidden.yaml"]);
    let enemy = view
        .split("enemy pieces known:")
        .nth(1)
        .and_then(|v| v.split("log:").next())
        .expect("enemy pieces");
    let dummies: Vec<&str> = enemy
        .lines()
        .filter(|l| l.contains("a dummy"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(dummies.len(), 2, "{view}");
    for name in dummies {
        let n: u32 = name
            .strip_prefix("decoy-")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{name}"));
        assert!((1000..10_000).contains(&n), "{name}");
    }
    // The same game names them the same way.
    assert_eq!(
        view,
        played(&["view", "--side", "blue", "fakes-hidden.yaml"])
    );
}

/// 004 l.342-343 (decision failure 6 and 7: every unit about-faces and falls back), found by
/// `grognard fuzz` under the activation sequence: the units fall back together, and the one
/// whose new hex another has just left is put there after it. column.yaml, seed 3: g
/// (Tactical 9) rolls 7 (fail) and then 7 (fall back to cover and TE). e (6,4) and b (3,4),
/// both facing E, turn W and fall back their allowance of 3 in clear ground: b (3,4) →
/// (0,4), e (6,4) → (3,4), the hex b left. Before: e, listed first, was put into (3,4)
/// while b still stood there and the order was refused ("moving in would make 2 units
/// there").
#[test]
fn units_falling_back_together_make_room_for_each_other() {
    let p = played_json("column.yaml", "column.orders.yaml");
    let why = "fell back toward cover (decision failure)";
    assert_placed(&p, "b", (3, 4), (0, 4), why);
    assert_placed(&p, "e", (6, 4), (3, 4), why);
    let placed_at = |name: &str| p.find("placed", name, |_| true);
    assert!(
        placed_at("b") < placed_at("e"),
        "b makes room first: {:?}",
        p.events
    );
}
