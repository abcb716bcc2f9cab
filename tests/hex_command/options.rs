//! Hex Command's optional rules (fire, movement, melee, command), digging in, and the
//! example game played through.

use super::*;
use field::counted;

/// 004 Optional rules: supply (12 points, one per shot, refilled near a wagon), rate of
/// fire (once a turn), pike-and-shot muskets (class A counts as B, once a turn).
#[test]
fn optional_fire_rules() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E, counters: { supply: 1 }, attributes: { class: 1 } }\n  - { id: r, side: red, type: infantry, at: [5, 4], facing: W }\n";
    let f = field(None, "", pieces, "");
    let shot = fire("b", "r");
    // Supply: the one point left is spent, then b is out.
    let once = with(to_blue_fire(), std::slice::from_ref(&shot));
    let refs: Vec<&str> = once.iter().map(String::as_str).collect();
    assert_counted(
        &f.json(&refs, &["--option", "supply=on"]),
        "b",
        "supply",
        1,
        0,
    );
    let mut twice = with(to_blue_fire(), std::slice::from_ref(&shot));
    twice.extend(ends("blue", 3));
    twice.extend(ends("red", 2));
    twice.push(order("blue", "act: { piece: b, action: fire, target: r }"));
    let refs: Vec<&str> = twice.iter().map(String::as_str).collect();
    // 004 l.256: one point for each turn a unit fires. b paid this turn's point, so it fires
    // again in Red's side turn with none left (second audit #16); next turn it is out.
    let p = f.json(&refs, &["--option", "supply=on"]);
    let fired = (p.events.iter()).filter(|e| e["event"] == "acted" && e["action"] == "fire");
    assert_eq!(fired.count(), 2, "{:?}", p.events);
    assert!(counted(&p, "b", "supply", Some((1, 0))), "{:?}", p.events);
    let supply = (p.events.iter()).filter(|e| e["counter"] == "supply");
    assert_eq!(supply.count(), 1, "{:?}", p.events);
    let mut next = with(to_blue_fire(), std::slice::from_ref(&shot));
    next.extend(ends("blue", 3));
    next.extend(ends("red", 2));
    next.extend(ends("blue", 1));
    next.extend(ends("red", 3));
    next.extend(ends("blue", 1));
    next.extend(to_blue_fire());
    next.push(shot.clone());
    let next: Vec<&str> = next.iter().map(String::as_str).collect();
    let r = f.play(&next, &["--option", "supply=on"]);
    assert!(
        r.stderr.contains("b is out of supply"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    // Without supply, b fires again in Red's turn (A/B system); with rate of fire it may not.
    let r = f.play(&refs, &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let r = f.play(&refs, &["--option", "rate_of_fire=on"]);
    assert!(
        r.stderr.contains("b has already fired this turn"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    // Class A small arms reach Code at 3 hexes; pike and shot makes them class B.
    roll_on(&f.json(&once, &[]), "fire_small_a");
    roll_on(
        &f.json(&once, &["--option", "pike_and_shot=on"]),
        "fire_small_b",
    );
}

/// 004 Optional rules: disorder/fatigue (entering forest is a TE hit, fatigued units stand
/// still), mounted infantry meleed by cavalry rout at once, the hand-out's unlimbering.
#[test]
fn optional_movement_and_melee_rules() {
    let map = ". . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . F . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n";
    let pieces = "  - { id: b, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: t, side: blue, type: infantry, at: [2, 6], facing: E, counters: { te: 3 }, flags: [fatigued] }\n  - { id: c, side: blue, type: cavalry, at: [6, 2], facing: E }\n  - { id: m, side: red, type: mounted_infantry, at: [7, 2], facing: W }\n  - { id: g, side: blue, type: artillery, at: [0, 0], facing: E, mode: limbered }\n  - { id: r, side: red, type: infantry, at: [4, 0], facing: W }\n";
    let f = field(Some(map), "", pieces, "");
    let into_forest = with(
        to_blue_movement(),
        &[order("blue", "move: { piece: b, path: [[3, 4]] }")],
    );
    let refs: Vec<&str> = into_forest.iter().map(String::as_str).collect();
    let p = f.json(&refs, &[]);
    assert!(p.has("moved", "b", |_| true), "{:?}", p.events);
    assert!(!counted(&p, "b", "te", None), "{:?}", p.events);
    let p = f.json(&refs, &["--option", "disorder_fatigue=on"]);
    assert!(counted(&p, "b", "te", Some((0, 1))), "{:?}", p.events);
    let tired = with(
        to_blue_movement(),
        &[order("blue", "move: { piece: t, path: [[3, 6]] }")],
    );
    let refs: Vec<&str> = tired.iter().map(String::as_str).collect();
    assert_eq!(f.play(&refs, &[]).code, 0);
    let r = f.play(&refs, &["--option", "disorder_fatigue=on"]);
    assert!(
        r.stderr.contains("t cannot move: it is fatigued"),
        "{}",
        r.stderr
    );
    let p = f.json(&with(to_blue_melee(), &[melee("c", "m")]), &[]);
    assert_flag(&p, "m", "routed", true);
    // Move, unlimber, fire: at 1 CP by the artillery section; not at all by the hand-out.
    let mut o = with(
        to_blue_movement(),
        &[
            order("blue", "move: { piece: g, path: [[1, 0]] }"),
            order("blue", "act: { piece: g, action: unlimber }"),
        ],
    );
    o.extend(ends("blue", 1));
    o.extend(ends("red", 1));
    o.push(fire("g", "r"));
    let refs: Vec<&str> = o.iter().map(String::as_str).collect();
    let p = f.json(&refs, &[]);
    assert!(modified(&p, "moved and unlimbered", 1), "{:?}", p.events);
    let r = f.play(&refs, &["--option", "unlimber_fires_next_turn=on"]);
    assert!(
        r.stderr
            .contains("g moved and unlimbered this turn and fires next turn"),
        "{}",
        r.stderr
    );
}

/// 004 charts page, Constructions: quick works take 4 turns (cover 1), a redoubt 6 (cover
/// 2); a unit digging does not move, and leaves its works behind when it moves on.
#[test]
fn digging_in_gives_cover() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [5, 4], facing: W, counters: { works: 3 } }\n  - { id: d, side: blue, type: infantry, at: [5, 6], facing: W, counters: { works: 5 } }\n  - { id: r, side: red, type: infantry, at: [2, 4], facing: E }\n";
    let f = field(None, "", pieces, "");
    let dig = |id: &str| order("blue", &format!("act: {{ piece: {id}, action: dig }}"));
    // The works are done: quick works (4 turns) for b, a redoubt (6) for d.
    let p = f.json(&with(to_blue_movement(), &[dig("b"), dig("d")]), &[]);
    assert_counted(&p, "b", "works", 3, 4);
    assert_counted(&p, "d", "works", 5, 6);
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[
                dig("b"),
                order("blue", "move: { piece: b, path: [[4, 4]] }"),
            ],
        ),
        "b cannot move: it is dug",
    );
    let p = f.json(
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: b, path: [[4, 4]] }")],
        ),
        &[],
    );
    assert_counted(&p, "b", "works", 3, 0);
    // Red fires at the entrenched unit in its own turn: one CP of cover.
    let dug = "  - { id: b, side: blue, type: infantry, at: [5, 4], facing: W, counters: { works: 4 } }\n  - { id: r, side: red, type: infantry, at: [2, 4], facing: E }\n";
    let f = field(None, "", dug, "");
    let mut o = ends("blue", 3);
    o.extend(ends("red", 1));
    o.extend(ends("blue", 3));
    o.extend(ends("red", 2));
    o.extend(ends("blue", 1));
    o.push(order("red", "act: { piece: r, action: fire, target: b }"));
    let p = f.json(&o, &[]);
    assert!(modified(&p, "target in cover", 1), "{:?}", p.events);
    assert!(in_band(&p, "Code'n Color"), "{:?}", p.events);
}

/// 004 Optional rules: the commander's sphere rallies his unit's neighbours too; melee
/// points give the Stronger unit's target a TE hit; tribal units check morale as the game
/// starts; a halted force (decision failure 1-2) neither moves nor turns.
#[test]
fn optional_command_and_melee_rules() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b, counters: { cvs_c: 1, cvs_t: 9 } }\n  - { id: n, side: blue, type: infantry, at: [3, 5], facing: E, counters: { hits: 1 } }\n  - { id: h, side: blue, type: infantry, at: [1, 1], facing: E, flags: [halted] }\n  - { id: r, side: red, type: infantry, at: [4, 4], facing: W }\n  - { id: p, side: blue, type: infantry, at: [4, 5], facing: NW }\n";
    let f = field(None, "", pieces, "");
    let mut to_rally = to_blue_fire();
    to_rally.extend(ends("blue", 2));
    let refs: Vec<&str> = to_rally.iter().map(String::as_str).collect();
    let p = f.json(&refs, &[]);
    p.in_phase(1, "rally", "blue");
    assert!(!counted(&p, "n", "hits", None), "{:?}", p.events);
    let p = f.json(&refs, &["--option", "command_sphere=on"]);
    assert!(counted(&p, "n", "hits", Some((1, 0))), "{:?}", p.events);
    let fight = with(to_blue_melee(), &[melee("b", "r")]);
    let refs: Vec<&str> = fight.iter().map(String::as_str).collect();
    let points = f.json(&refs, &["--option", "melee_points=on"]);
    // 2, +1 for p, a friend touching r past the melee plane (n, next to both b and r, stands
    // level with it); the commander's +1 is not counted: b is Stronger without it (l.410,
    // l.313; twentieth round).
    assert!(
        rolled(&points, "melee of b (3) against r (2)"),
        "{:?}",
        points.events
    );
    // Same dice without the option: r ends with exactly one TE hit less.
    let plain = f.json(&refs, &[]);
    let te = |p: &crate::util::Played| last_value(p, "r", "te").unwrap_or(0);
    assert_eq!(te(&points), te(&plain) + 1);
    let tribal = pieces.replace(
        "at: [3, 4], facing: E }",
        "at: [3, 4], facing: E, attributes: { class: 3 } }",
    );
    let f2 = field(None, "", &tribal, "options: { tribes: true }");
    let p = f2.json(&refs, &[]);
    // l.260 (tenth round): b checks its morale once, in Blue's first command phase, against
    // g's Tactical 9 (failing only on a 10).
    let command = p.in_phase(1, "command", "blue");
    let morale = |e: &&Value| e["roll"]["purpose"] == "tribal morale of b (fails above 9)";
    assert_eq!(command.iter().filter(morale).count(), 1, "{command:?}");
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "move: { piece: h, path: [[2, 1]] }")],
        ),
        "h cannot move: it is halted",
    );
    refused(
        &f,
        &with(
            to_blue_movement(),
            &[order("blue", "face: { piece: h, facing: SE }")],
        ),
        "h is halted by a failed order change and cannot change facing",
    );
}

/// The bundled example plays fire, melee and a rout from the command line.
#[test]
fn the_example_plays_fire_melee_and_a_rout() {
    let p = crate::util::play_json(
        "examples/hex-command.yaml",
        "examples/hex-command.orders.yaml",
    );
    assert_eq!(p.code, 0, "refused: {:?}", p.refused);
    let acted = |by: &str, action: &str, at: &str| {
        p.has("acted", by, |e| {
            e["action"] == action && e["target"] == p.piece(at)
        })
    };
    assert!(
        acted("r1", "fire", "b1") && acted("b1", "melee", "r1"),
        "{:?}",
        p.events
    );
    assert_flag(&p, "b1", "routed", true);
    assert_removed(&p, "hale", "commander captured: his unit routed");
    assert!(acted("r2", "melee", "b2"), "{:?}", p.events);
    assert_arrived(&p, "b4", (0, 9), "reinforcement arriving at entry place 1");
    let b4_path = crate::util::cells(&[(0, 9), (1, 8), (1, 7)]);
    assert!(
        p.has("moved", "b4", |e| e["path"] == b4_path),
        "{:?}",
        p.events
    );
    // 7.4: the defender that wins advances too (issue 7).
    let won = "advanced after winning the melee it defended";
    assert_placed(&p, "r1", (4, 3), (5, 4), won);
    // Reference "Melee and Rout": the crew steps back from a melee and leaves its guns,
    // which the enemy then captures and fires; a crew can be fired upon and does not melee.
    let back = "crew stepped back from the melee";
    assert_placed(&p, "r3_crew", (7, 2), (6, 2), back);
    assert_removed(&p, "r3", "guns captured by b2");
    assert!(acted("b2", "fire_guns", "r1"), "{:?}", p.events);
    assert_flag(&p, "r1", "routed", true);
    assert!(acted("b2", "fire_guns", "r3_crew"), "{:?}", p.events);
    assert_placed(&p, "r3_crew", (6, 2), (5, 2), back);
    let v = grognard(&[
        "validate",
        RULESET,
        "rulesets/hex-command-d6.yaml",
        "rulesets/hex-command-limber3.yaml",
    ]);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
}
