//! Hex Command (seed 004), issue 7: the movement, sequence and command rules that are
//! optional or were added late — oblique moves, the activation sequence, removing
//! commanders each turn, pontoon bridges and range bands for tables without a grid — played
//! through the binary on small fields, like `hex_command.rs`.

use serde_json::Value;

use super::field::{
    Field, assert_attached, assert_counted, assert_moved, counted, ends, has, lacks, order, with,
};
use crate::util::{Run, cells, grognard, grognard_in, has_event, root};

const RULESET: &str = "rulesets/hex-command.yaml";

/// A 10×8 clear field (Blue plays first: the overlay drops the initiative roll); `pieces`
/// are YAML list entries, `extra` further scenario keys (options).
fn field(pieces: &str, extra: &str) -> Field {
    field_on(pieces, extra, "")
}

/// [`field`] with board `features` (YAML list entries).
fn field_on(pieces: &str, extra: &str, features: &str) -> Field {
    super::field::field(None, features, pieces, extra, 6)
}

/// What the tests here read from a field besides its log.
trait Views {
    fn state(&self, orders: &[String]) -> Value;
    fn facing(&self, orders: &[String], unit: &str) -> u64;
    fn reach_paths(&self, orders: &[String], unit: &str) -> Vec<(String, String)>;
}

impl Views for Field {
    /// The referee's view of the game after `orders`.
    fn state(&self, orders: &[String]) -> Value {
        self.write_orders("view-orders.yaml", orders);
        let all = vec![
            "view",
            "field.yaml",
            "--orders",
            "view-orders.yaml",
            "--referee",
            "--json",
        ];
        let r = grognard_in(self.dir.path(), &all);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        serde_json::from_str(&r.stdout).expect("view json")
    }

    /// The facing (0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE) of `unit` after `orders`.
    fn facing(&self, orders: &[String], unit: &str) -> u64 {
        let v = self.state(orders);
        v["state"]["pieces"]
            .as_array()
            .expect("pieces")
            .iter()
            .find(|p| p["name"] == unit)
            .and_then(|p| p["facing"].as_u64())
            .unwrap_or_else(|| panic!("no {unit} in the view"))
    }

    /// The cells `reach` lists for `unit` after `orders`, with the path to each.
    fn reach_paths(&self, orders: &[String], unit: &str) -> Vec<(String, String)> {
        self.write_orders("reach-orders.yaml", orders);
        let all = vec![
            "reach",
            "field.yaml",
            "--unit",
            unit,
            "--orders",
            "reach-orders.yaml",
            "--json",
        ];
        let r = grognard_in(self.dir.path(), &all);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).expect("reach json");
        let cell = |c: &Value| format!("[{}, {}]", c[0], c[1]);
        v["reach"]
            .as_array()
            .expect("reach list")
            .iter()
            .map(|e| {
                let path: Vec<String> = e["path"]
                    .as_array()
                    .expect("path")
                    .iter()
                    .map(cell)
                    .collect();
                (cell(&e["cell"]), format!("[{}]", path.join(", ")))
            })
            .collect()
    }
}

fn ok(f: &Field, orders: &[String], args: &[&str]) -> String {
    f.ok(orders, args)
}

fn refused(f: &Field, orders: &[String], args: &[&str], why: &str) {
    f.refused(orders, args, why);
}

/// The phases of turn 1 the events begin, in order, as `name (phasing side)`.
fn phases(p: &crate::util::Played) -> Vec<String> {
    (p.events.iter())
        .filter(|e| e["event"] == "phase_began" && e["turn"] == 1)
        .map(|e| {
            format!(
                "{} ({})",
                e["phase"].as_str().unwrap_or_default(),
                e["phasing"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

// Hex neighbours (odd rows shoved east): from (4,4) E is (5,4), W (3,4), NE (4,3),
// NW (3,3), SE (4,5), SW (3,5); from (4,3) NE is (5,2), NW (4,2).

const E: u64 = 0;
const NE: u64 = 5;

// --- Oblique moves ---------------------------------------------------------------------

/// 004 5d: "All units must face the direction of movement except when moving obliquely";
/// whether oblique moves are allowed is the players' choice: the optional rule
/// `oblique_moves`. Off, a step into a front side hex turns the unit; on, it keeps its
/// facing (and turns only where the path needs it), and the unit still never steps back.
#[test]
fn oblique_moves_keep_the_facing_when_allowed() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [9, 7], facing: W }\n";
    let f = field(pieces, "");
    let g = field(pieces, "options: { oblique_moves: true }");
    let to_move = ends("blue", 2);
    let sidle = with(
        to_move.clone(),
        &[order("blue", "move: { piece: b, path: [[4, 3], [5, 2]] }")],
    );
    // The default reading: the unit faces the way it moved.
    assert_eq!(f.facing(&sidle, "b"), NE);
    // Oblique moves allowed (by the scenario): two steps north-east, still facing east,
    // for the same cost.
    assert_eq!(g.facing(&sidle, "b"), E);
    assert_moved(&g.json(&sidle, &[]), "b", &[(4, 4), (4, 3), (5, 2)], 2);
    // The command line may choose the rule for one game too.
    assert_moved(
        &f.json(&sidle, &["--option", "oblique_moves=on"]),
        "b",
        &[(4, 4), (4, 3), (5, 2)],
        2,
    );
    // A path that only turning can walk still turns: NE then NW (NW is not ahead of E).
    let wheel = with(
        to_move.clone(),
        &[order("blue", "move: { piece: b, path: [[4, 3], [4, 2]] }")],
    );
    assert_eq!(g.facing(&wheel, "b"), NE);
    // Oblique moves are not backward moves: with the turn's facing change spent (about
    // face to W), the hex it faced from is behind it.
    refused(
        &g,
        &with(
            to_move,
            &[
                order("blue", "face: { piece: b, facing: W }"),
                order("blue", "move: { piece: b, path: [[5, 4]] }"),
            ],
        ),
        &[],
        "b steps only into the cells ahead of it (facing W); (5,4) is behind it",
    );
}

/// 004 5d with `reach`: oblique moves reach the same hexes (a side step may turn or keep
/// the facing), and every path `reach` lists plays.
#[test]
fn reach_agrees_with_play_under_oblique_moves() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: E }\n  - { id: c, side: blue, type: cavalry, at: [2, 1], facing: SE }\n  - { id: r, side: red, type: infantry, at: [9, 7], facing: W }\n";
    let f = field(pieces, "");
    let g = field(pieces, "options: { oblique_moves: true }");
    let before = ends("blue", 2);
    let cells = |v: &[(String, String)]| -> Vec<String> {
        let mut c: Vec<String> = v.iter().map(|(c, _)| c.clone()).collect();
        c.sort();
        c
    };
    for unit in ["b", "c"] {
        let plain = f.reach_paths(&before, unit);
        let oblique = g.reach_paths(&before, unit);
        assert_eq!(cells(&plain), cells(&oblique), "{unit}");
        assert!(oblique.len() > 6, "{unit}: {oblique:?}");
        for (cell, path) in &oblique {
            let o = with(
                before.clone(),
                &[order(
                    "blue",
                    &format!("move: {{ piece: {unit}, path: {path} }}"),
                )],
            );
            let r = g.play(&o, &[]);
            assert_eq!(r.code, 0, "{unit} to {cell} by {path}: {}", r.stderr);
        }
    }
}

// --- Activation sequence ----------------------------------------------------------------

const GROUPS: &str = "  - { id: b1, side: blue, type: infantry, at: [1, 2], facing: E, counters: { group: 1 } }\n  - { id: b2, side: blue, type: infantry, at: [1, 4], facing: E, counters: { group: 2 } }\n  - { id: a, side: blue, type: artillery, at: [1, 6], facing: E }\n  - { id: r1, side: red, type: infantry, at: [5, 2], facing: W, counters: { group: 1 } }\n  - { id: r2, side: red, type: infantry, at: [8, 5], facing: W, counters: { group: 2 } }\n";

/// 004 2.3 and the sequence of play (optional): the A/B system stays the default; with
/// `activation_sequence` the groups move alternately — A's group 1, B's group 1, A's group
/// 2, ... — then A fires, B fires, both melee and both rally, once a turn.
#[test]
fn activation_sequence_alternates_the_groups() {
    let f = field(GROUPS, "");
    // Default: the traditional A/B system, whole side turns.
    let turn = phases;
    let all_default = f.json(
        &{
            let mut o = ends("blue", 3);
            o.extend(ends("red", 1));
            o.extend(ends("blue", 3));
            o.extend(ends("red", 2));
            o.extend(ends("blue", 1));
            o.extend(ends("red", 3));
            o.extend(ends("blue", 1));
            o
        },
        &[],
    );
    assert_eq!(
        turn(&all_default),
        [
            "arrivals (blue)",
            "command (blue)",
            "movement (blue)",
            "defensive fire (blue)",
            "fire (blue)",
            "melee (blue)",
            "rally (blue)",
            "command (red)",
            "movement (red)",
            "defensive fire (red)",
            "fire (red)",
            "melee (red)",
            "rally (red)",
            "turn end (blue)",
        ]
    );
    // The option: arrivals, both sides' orders, then four group activations each side in
    // turn, then the fire, melee and rally phases of the turn.
    let g = field(GROUPS, "options: { activation_sequence: true }");
    let mut whole = ends("blue", 1);
    whole.extend(ends("blue", 1));
    whole.extend(ends("red", 1));
    for _ in 0..4 {
        whole.extend(ends("blue", 1));
        whole.extend(ends("red", 1));
    }
    whole.extend(ends("blue", 1));
    whole.extend(ends("red", 1));
    whole.extend(ends("blue", 1));
    whole.extend(ends("red", 1));
    // The rally phase is both sides' (l.120: all sides conduct rallies; eighth round).
    whole.extend(ends("blue", 1));
    whole.extend(ends("red", 1));
    whole.extend(ends("blue", 1));
    let out = g.json(&whole, &[]);
    let mut want = vec!["arrivals (blue)".to_owned(), "command (blue)".to_owned()];
    for n in 1..=4 {
        want.push(format!("group {n} movement (blue)"));
        want.push(format!("group {n} movement (red)"));
    }
    want.extend(
        [
            "fire (blue)",
            "second fire (blue)",
            "melee (blue)",
            "second melee (blue)",
            "rally (blue)",
            "turn end (blue)",
        ]
        .map(str::to_owned),
    );
    assert_eq!(turn(&out), want);
    let next = [("turn", 2.into()), ("phase", "arrivals".into())];
    assert!(
        has_event(&out.events, "phase_began", &next),
        "{:?}",
        out.events
    );
}

/// 004 2.3: a group's activation moves only that group; artillery (group 0) floats and
/// moves in any one activation of its side; units of other groups can neither move nor
/// change facing nor limber.
#[test]
fn only_the_activated_group_moves_and_artillery_floats() {
    let f = field(GROUPS, "options: { activation_sequence: true }");
    // Arrivals (Blue), command (both sides end it): Blue's group 1 activation.
    let mut g1 = ends("blue", 2);
    g1.extend(ends("red", 1));
    let mv = |id: &str, to: &str| order("blue", &format!("move: {{ piece: {id}, path: [{to}] }}"));
    refused(
        &f,
        &with(g1.clone(), &[mv("b2", "[2, 4]")]),
        &[],
        "b2 cannot move: it is inactive",
    );
    refused(
        &f,
        &with(
            g1.clone(),
            &[order("blue", "face: { piece: b2, facing: SE }")],
        ),
        &[],
        "b2 is not in the group being activated (group 2)",
    );
    let p = f.json(&with(g1.clone(), &[mv("b1", "[2, 2]")]), &[]);
    assert_moved(&p, "b1", &[(1, 2), (2, 2)], 1);
    // Red's group 1, then Blue's group 2: b2 and the floating guns move, b1 may not.
    let mut g2 = with(g1.clone(), &[mv("b1", "[2, 2]")]);
    g2.extend(ends("blue", 1));
    g2.push(order("red", "move: { piece: r1, path: [[4, 2]] }"));
    refused(
        &f,
        &with(
            g2.clone(),
            &[order("red", "move: { piece: r2, path: [[7, 5]] }")],
        ),
        &[],
        "r2 cannot move: it is inactive",
    );
    g2.extend(ends("red", 1));
    let p = f.json(
        &with(g2.clone(), &[mv("b2", "[2, 4]"), mv("a", "[2, 6]")]),
        &[],
    );
    assert_moved(&p, "b2", &[(1, 4), (2, 4)], 1);
    assert_moved(&p, "a", &[(1, 6), (2, 6)], 1);
    refused(
        &f,
        &with(g2.clone(), &[mv("b1", "[3, 2]")]),
        &[],
        "b1 cannot move: it is inactive",
    );
    refused(
        &f,
        &with(
            g2,
            &[
                mv("a", "[2, 6]"),
                order("blue", "end_phase: true"),
                order("red", "end_phase: true"),
                mv("a", "[3, 6]"),
            ],
        ),
        &[],
        "a has already moved",
    );
}

/// 004 2.3 and the sequence of play: in the activation sequence units fire once a turn
/// (marked fired); Blue (A) fires first, then Red (B), in the phases after all moves.
#[test]
fn activation_sequence_fires_after_the_moves_once_a_turn() {
    let pieces = "  - { id: b1, side: blue, type: infantry, at: [3, 2], facing: E, counters: { group: 1 } }\n  - { id: r1, side: red, type: infantry, at: [5, 2], facing: W, counters: { group: 1 } }\n";
    let f = field(pieces, "options: { activation_sequence: true }");
    // Arrivals, command (both), 4 activations each side: then Blue's fire phase.
    let mut to_fire = ends("blue", 2);
    to_fire.extend(ends("red", 1));
    for _ in 0..4 {
        to_fire.extend(ends("blue", 1));
        to_fire.extend(ends("red", 1));
    }
    let fire = |side: &str, a: &str, t: &str| {
        order(
            side,
            &format!("act: {{ piece: {a}, action: fire, target: {t} }}"),
        )
    };
    // Movement phases allow no fire.
    let r = f.play(
        &with(
            ends("blue", 2),
            &[ends("red", 1)[0].clone(), fire("blue", "b1", "r1")],
        ),
        &[],
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stderr.contains("does not allow fire"), "{}", r.stderr);
    let both_fire = with(
        to_fire.clone(),
        &[
            fire("blue", "b1", "r1"),
            order("blue", "end_phase: true"),
            fire("red", "r1", "b1"),
        ],
    );
    let out = ok(&f, &both_fire, &[]);
    // prose: the order's line tells the deed; its flag line is not told again (issue 37).
    lacks(&out, "b1 fire at r1", "b1 has fired");
    has(&out, "r1 fire at b1");
    assert!(f.json(&both_fire, &[]).flag("b1", "fired", true).is_some());
    // Red fires only in the second fire phase; Blue may not fire again there.
    refused(
        &f,
        &with(to_fire.clone(), &[fire("red", "r1", "b1")]),
        &[],
        "red may not act in the fire phase",
    );
}

// --- Commanders ------------------------------------------------------------------------

/// 004 sequence of play 1-2 ("Remove commanders (if using Commander Placement method)")
/// and 6 ("commanders need to be attached at the beginning of the turn"): with the
/// optional rule `remove_commanders` the phasing side's commanders come off their units as
/// its command phase begins and are attached again there; by default they stay.
#[test]
fn commanders_are_removed_each_turn_when_chosen() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 4], facing: E }\n  - { id: c, side: blue, type: infantry, at: [3, 6], facing: E }\n  - { id: g, side: blue, type: commander, at: [3, 4], attached_to: b }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field(pieces, "");
    let h = field(pieces, "options: { remove_commanders: true }");
    let host = |v: &Value, id: &str| -> Value {
        let pieces = v["state"]["pieces"].as_array().expect("pieces");
        let g = pieces.iter().find(|p| p["name"] == id).expect("piece");
        g["attached_to"].clone()
    };
    // Piece indices: b 0, c 1.
    // Default: g stays on b through Blue's command phase.
    assert_eq!(host(&f.state(&ends("blue", 1)), "g"), Value::from(0));
    let kept = f.json(&ends("blue", 1), &[]);
    assert!(!kept.has("attached", "g", |_| true), "{:?}", kept.events);
    // The phase he would have come off in was played (`in_phase` asserts it began).
    kept.in_phase(1, "command", "blue");
    // The option: he comes off as Blue's command phase begins...
    assert_eq!(host(&h.state(&ends("blue", 1)), "g"), Value::Null);
    assert_attached(&h.json(&ends("blue", 1), &[]), "g", None);
    let chosen = f.json(&ends("blue", 1), &["--option", "remove_commanders=on"]);
    assert_attached(&chosen, "g", None);
    // ...and is attached again in that phase, to any unit of his side.
    let mut to_red_command = with(
        ends("blue", 1),
        &[order(
            "blue",
            "act: { piece: g, action: attach, target: c }",
        )],
    );
    assert_attached(&h.json(&to_red_command, &[]), "g", Some("c"));
    // Red's command phase does not remove Blue's commanders.
    to_red_command.extend(ends("blue", 2));
    to_red_command.extend(ends("red", 1));
    to_red_command.extend(ends("blue", 3));
    h.json(&to_red_command, &[]).in_phase(1, "command", "red");
    assert_eq!(host(&h.state(&to_red_command), "g"), Value::from(1));
    // In the activation sequence the command phase is both sides' at once: both sides'
    // commanders come off, and both sides attach them again there.
    let both = field(
        &format!(
            "{pieces}  - {{ id: v, side: red, type: commander, at: [9, 0], attached_to: r }}\n"
        ),
        "options: { remove_commanders: true, activation_sequence: true }",
    );
    let off = both.json(&ends("blue", 1), &[]);
    assert_attached(&off, "g", None);
    assert_attached(&off, "v", None);
    let p = both.json(
        &with(
            ends("blue", 1),
            &[
                order("red", "act: { piece: v, action: attach, target: r }"),
                order("blue", "act: { piece: g, action: attach, target: b }"),
            ],
        ),
        &[],
    );
    assert_attached(&p, "v", Some("r"));
    assert_attached(&p, "g", Some("b"));
}

// --- Constructions ----------------------------------------------------------------------

/// Every end_phase of the rest of a turn from Blue's movement phase, Blue first:
/// movement, Red's defensive fire, Blue's fire, melee, rally, Red's command, movement,
/// Blue's defensive fire, Red's fire, melee, rally, turn end.
fn rest_of_turn() -> Vec<String> {
    let mut o = ends("blue", 1);
    o.extend(ends("red", 1));
    o.extend(ends("blue", 3));
    o.extend(ends("red", 2));
    o.extend(ends("blue", 1));
    o.extend(ends("red", 3));
    o.extend(ends("blue", 1));
    o
}

/// A turn in which Blue's movement phase holds `orders`.
fn turn_with(orders: &[String]) -> Vec<String> {
    let mut o = ends("blue", 2);
    o.extend_from_slice(orders);
    o.extend(rest_of_turn());
    o
}

const STREAM: &str = "    - feature: stream\n      between: [[[4, 4], [5, 4]]]\n";

/// 004 charts page, constructions: a pontoon bridge takes 3 turns. A unit facing a stream
/// works on it instead of moving; after the third turn the stream has a bridge for the rest
/// of the game, so crossing it there no longer disorders (TE hit); moving away leaves the
/// work unfinished; a save of the game replays with the bridge.
#[test]
fn a_pontoon_bridge_takes_three_turns() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: E }\n  - { id: c, side: blue, type: infantry, at: [2, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n";
    let f = field_on(pieces, "", STREAM);
    let work = order("blue", "act: { piece: b, action: bridge }");
    let cross = [
        order("blue", "move: { piece: b, path: [[5, 4], [6, 4]] }"),
        order("blue", "move: { piece: c, path: [[3, 4], [4, 4], [5, 4]] }"),
    ];
    // Without a bridge, c crossing the stream after its first step takes a TE hit.
    let p = f.json(&turn_with(&cross), &[]);
    assert_counted(&p, "c", "te", 0, 1);
    // Three turns of work, then the same crossing.
    let mut orders = Vec::new();
    for _ in 0..3 {
        orders.extend(turn_with(std::slice::from_ref(&work)));
    }
    // b's work counts 1 and 2 turns, then the third builds the bridge and clears it.
    let built = f.json(&orders, &[]);
    assert_counted(&built, "b", "bridging", 0, 1);
    assert_counted(&built, "b", "bridging", 1, 2);
    assert_counted(&built, "b", "bridging", 2, 0);
    orders.extend(turn_with(&cross));
    let p = f.json(&orders, &[]);
    assert_moved(&p, "c", &[(2, 4), (3, 4), (4, 4), (5, 4)], 3);
    let bridged = f.json(&orders, &[]);
    let crossed =
        |e: &Value| e["path"] == cells(&[(2, 4), (3, 4), (4, 4), (5, 4)]) && e["cost"] == 300;
    assert!(bridged.has("moved", "c", crossed), "{:?}", bridged.events);
    assert!(!counted(&bridged, "c", "te", None), "{:?}", bridged.events);
    // Working is the unit's turn: it cannot move after it, nor work twice in a turn.
    let mut once = ends("blue", 2);
    once.push(work.clone());
    refused(
        &f,
        &with(once.clone(), &[cross[0].clone()]),
        &[],
        "b cannot move",
    );
    refused(
        &f,
        &with(once, std::slice::from_ref(&work)),
        &[],
        "b cannot bridge",
    );
    // Two turns of work, then a move: the work is lost.
    let mut lost = turn_with(std::slice::from_ref(&work));
    lost.extend(turn_with(std::slice::from_ref(&work)));
    lost.extend(turn_with(&[order(
        "blue",
        "move: { piece: b, path: [[5, 4]] }",
    )]));
    assert_counted(&f.json(&lost, &[]), "b", "bridging", 2, 0);
    // Only a unit facing a stream can bridge it.
    let g = field_on(
        "  - { id: b, side: blue, type: infantry, at: [4, 4], facing: SE }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n",
        "",
        STREAM,
    );
    refused(
        &g,
        &with(ends("blue", 2), std::slice::from_ref(&work)),
        &[],
        "b must face a stream to bridge it",
    );
    // The bridge is rebuilt when the save is replayed.
    let r = f.play(&orders, &["--save", "game.json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let replay = grognard_in(f.dir.path(), &["replay", "game.json"]);
    assert_eq!(replay.code, 0, "{}{}", replay.stdout, replay.stderr);
}

// --- Play without a grid ------------------------------------------------------------------

/// The outcome a `tape` chart gives for one input (the tape always shows 0, so exactly one
/// outcome is certain).
fn measured(chart: &str, input: &str, value: u32) -> String {
    let run = grognard(&[
        "chart",
        RULESET,
        chart,
        "--set",
        &format!("{input}={value}"),
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).expect("chart json");
    let odds = v["rows"][0]["odds"].as_array().expect("odds");
    let sure: Vec<&Value> = odds.iter().filter(|o| o["fraction"] == "1").collect();
    assert_eq!(sure.len(), 1, "{chart} {input}={value}: {v}");
    sure[0]["outcome"].as_str().expect("outcome").to_owned()
}

/// 004 charts page ("Range Bands: when not using a hex grid, each band = 4 inches") and the
/// artillery section (an artillery band is about 8 inches): a measured distance gives the
/// band — small arms up to 20 inches (the fifth, A-class band), artillery up to 40.
#[test]
fn range_bands_without_a_grid_are_four_and_eight_inches() {
    for inches in 1..=44u32 {
        let small = inches.div_ceil(4);
        let want = if small <= 5 {
            format!("band {small}")
        } else {
            "out of reach".to_owned()
        };
        assert_eq!(
            measured("table_range_small_arms", "inches", inches),
            want,
            "small arms at {inches}\""
        );
        let guns = inches.div_ceil(8);
        let want = if guns <= 5 {
            format!("band {guns}")
        } else {
            "out of reach".to_owned()
        };
        assert_eq!(
            measured("table_range_artillery", "inches", inches),
            want,
            "artillery at {inches}\""
        );
    }
}

/// 004 charts page (moves in bands: infantry 1, cavalry 2, limbered artillery 1, wagons 1),
/// the artillery section (push half a band), army integrity (withdraw two bands) and
/// spotting (5 bands, 8 from a hill), at 4 inches a band.
#[test]
fn distances_without_a_grid_in_inches() {
    let band = 4;
    let want = [
        band,
        2 * band,
        band,
        band,
        band / 2,
        2 * band,
        5 * band,
        8 * band,
    ];
    for (what, inches) in want.iter().enumerate() {
        assert_eq!(
            measured("table_distances", "what", what as u32),
            format!("{inches} inches"),
            "distance {what}"
        );
    }
}

// --- Bad input ------------------------------------------------------------------------------

/// Writes an overlay of hex-command with `body` and validates it.
fn validate_overlay(body: &str, script: Option<&str>) -> (tempfile::TempDir, Run) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("bad.yaml"),
        format!(
            "ruleset: bad\nextends: {}\n{body}",
            root().join(RULESET).display()
        ),
    )
    .expect("write overlay");
    if let Some(text) = script {
        std::fs::write(dir.path().join("bad.lua"), text).expect("write script");
    }
    let run = grognard_in(dir.path(), &["validate", "bad.yaml"]);
    (dir, run)
}

/// A ruleset's mistakes in the new keys are reported at their line, with what was
/// expected: an oblique rule on a type that does not step forward, and a sequence variant
/// naming an option the ruleset lacks.
#[test]
fn bad_oblique_and_sequence_variants_are_reported_at_their_line() {
    let (_d, r) = validate_overlay(
        "piece_types:\n  skirmishers:\n    turning: { oblique_option: oblique_moves }\n",
        None,
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("bad.yaml:5:")
            && r.stderr
                .contains("`turning.oblique_option` needs `forward_only: true`"),
        "{}",
        r.stderr
    );
    let (_d, r) = validate_overlay(
        "piece_types:\n  infantry:\n    turning: { oblique_option: obligue_moves }\n",
        None,
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("did you mean `oblique_moves`?"),
        "{}",
        r.stderr
    );
    let (_d, r) = validate_overlay(
        "sequence:\n  variants:\n    - option: activation\n      side_turn: [{ phase: go, allows: [move] }]\n    - option: oblique_moves\n",
        None,
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("bad.yaml:5:15")
            && r.stderr.contains("unknown optional rule `activation`"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("bad.yaml:7:7")
            && r.stderr.contains("this sequence variant has no phases"),
        "{}",
        r.stderr
    );
}

/// A hook asking for a feature that cannot be drawn fails, and the order is refused with
/// the reason, leaving the game as it was.
#[test]
fn a_hook_adding_a_feature_badly_is_refused() {
    let script = "local M = {}\nfunction M.far(game, actor)\n  game:add_feature(\"bridge\", 1, 1, 5, 5)\nend\nfunction M.unknown(game, actor)\n  game:add_feature(\"pontoon\", 1, 1, 2, 1)\nend\nreturn M\n";
    let body = "scripts:\n  bad: bad.lua\nactions:\n  far: { types: [infantry], script: bad.far }\n  unknown: { types: [infantry], script: bad.unknown }\nsequence:\n  side_turn:\n    - { phase: movement, allows: [move, far, unknown] }\n";
    let (dir, r) = validate_overlay(body, Some(script));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    std::fs::write(
        dir.path().join("s.yaml"),
        "scenario: s\nruleset: ./bad.yaml\nseed: 1\nboard:\n  cols: 6\n  rows: 6\n  legend: { \".\": clear }\n  map: |\n    . . . . . .\n    . . . . . .\n    . . . . . .\n    . . . . . .\n    . . . . . .\n    . . . . . .\nsides:\n  blue: {}\n  red: {}\npieces:\n  - { id: b, side: blue, type: infantry, at: [1, 1], facing: E }\n  - { id: r, side: red, type: infantry, at: [5, 5], facing: W }\n",
    )
    .expect("write scenario");
    for (action, why) in [
        (
            "far",
            "cannot add a bridge between (1,1) and (5,5): they are not neighbours",
        ),
        ("unknown", "unknown feature `pontoon`"),
    ] {
        std::fs::write(
            dir.path().join("o.yaml"),
            format!(
                "orders:\n  - {{ side: blue, end_phase: true }}\n  - {{ side: blue, act: {{ piece: b, action: {action} }} }}\n"
            ),
        )
        .expect("write orders");
        let r = grognard_in(dir.path(), &["play", "s.yaml", "--orders", "o.yaml"]);
        assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
        // prose: the refusal's words name the bad feature.
        assert!(r.stderr.contains(why), "{action}: {}", r.stderr);
        // The game is left as it was: the refused order adds no event to those of the
        // order before it.
        let refused = crate::util::play_json_in(dir.path(), "s.yaml", "o.yaml", &[]);
        assert!(refused.refused.is_some());
        std::fs::write(
            dir.path().join("before.yaml"),
            "orders:\n  - { side: blue, end_phase: true }\n",
        )
        .expect("write orders");
        let before = crate::util::play_json_in(dir.path(), "s.yaml", "before.yaml", &[]);
        assert_eq!(refused.events, before.events, "{action}");
    }
}

/// The printed reference sheet shows the activation sequence next to the A/B system.
#[test]
fn the_sheet_lists_the_activation_sequence() {
    // prose: the printed sheet's words are what this test is about.
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("sheet.html");
    let out_s = out.to_string_lossy().into_owned();
    let run = grognard(&["sheet", RULESET, "--out", &out_s]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let html = std::fs::read_to_string(&out).expect("sheet");
    has(
        &html,
        "With the optional rule <code>activation_sequence</code>, this sequence instead (side-turn phases phase by phase, the sides alternating)",
    );
    for n in 1..=4 {
        has(&html, &format!("<td>group {n} movement</td>"));
    }
    has(&html, "<td>second fire</td><td>non_phasing</td><td>fire");
}

/// The side that won the last fire-order roll in the events: the other side's unit (b of
/// blue, r of red) is the one last told to hold its fire (`holding_fire`).
fn fires_first(p: &crate::util::Played) -> &'static str {
    let held = (p.events.iter().rev())
        .find(|e| e["flag"] == "holding_fire" && e["on"] == true)
        .unwrap_or_else(|| panic!("no unit holds its fire in {:?}", p.events));
    if held["piece"] == p.piece("b") {
        "red"
    } else {
        "blue"
    }
}

/// 004 7c "alt: roll die to see who fires first": with `fire_order_roll` both sides roll a
/// d6 after each movement phase; the higher fires in the first fire phase and the other
/// side holds its fire until the next one — in both sides' turns, whoever won before.
#[test]
fn fire_order_roll_decides_who_fires_first() {
    let pieces = "  - { id: b, side: blue, type: infantry, at: [3, 2], facing: E }\n  - { id: r, side: red, type: infantry, at: [5, 2], facing: W }\n";
    let f = field(pieces, "options: { fire_order_roll: true }");
    let fire = |side: &str, a: &str, t: &str| {
        order(
            side,
            &format!("act: {{ piece: {a}, action: fire, target: {t} }}"),
        )
    };
    let both_end = with(ends("blue", 1), &ends("red", 1));
    let mut winners = Vec::new();
    for seed in 1..=6 {
        let seed_s = seed.to_string();
        let args = ["--seed", seed_s.as_str()];
        // Blue's turn: arrivals, command, movement; then the roll.
        let blue_first_fire = ends("blue", 3);
        let first = fires_first(&f.json(&blue_first_fire, &args));
        winners.push(first);
        let (shooter, target, other, other_target) = if first == "blue" {
            ("b", "r", "r", "b")
        } else {
            ("r", "b", "b", "r")
        };
        let side_of = |u: &str| if u == "b" { "blue" } else { "red" };
        ok(
            &f,
            &with(
                blue_first_fire.clone(),
                &[fire(side_of(shooter), shooter, target)],
            ),
            &args,
        );
        refused(
            &f,
            &with(
                blue_first_fire.clone(),
                &[fire(side_of(other), other, other_target)],
            ),
            &args,
            &format!("{other} cannot fire while holding_fire"),
        );
        // The next fire phase: the other side fires, the first holds.
        let mut next_fire = blue_first_fire.clone();
        next_fire.extend(both_end.clone());
        ok(
            &f,
            &with(
                next_fire.clone(),
                &[fire(side_of(other), other, other_target)],
            ),
            &args,
        );
        refused(
            &f,
            &with(
                next_fire.clone(),
                &[fire(side_of(shooter), shooter, target)],
            ),
            &args,
            &format!("{shooter} cannot fire while holding_fire"),
        );
        // Red's turn rolls again (next fire, melee, rally; Red's command and movement).
        let mut red_first_fire = next_fire;
        red_first_fire.extend(both_end.clone());
        red_first_fire.extend(ends("blue", 2));
        red_first_fire.extend(ends("red", 2));
        let played = f.json(&red_first_fire, &args);
        // Red's turn has a first fire phase of its own, and the roll is made again in it.
        let red_fire = played.in_phase(1, "first fire", "red");
        assert!(
            red_fire
                .iter()
                .any(|e| e["flag"] == "holding_fire" && e["on"] == true)
        );
        let again = fires_first(&played);
        let (shooter, target) = if again == "blue" {
            ("b", "r")
        } else {
            ("r", "b")
        };
        ok(
            &f,
            &with(red_first_fire, &[fire(side_of(shooter), shooter, target)]),
            &args,
        );
    }
    // With the activation sequence on too, the activation sequence's order applies.
    let g = field(
        pieces,
        "options: { fire_order_roll: true, activation_sequence: true }",
    );
    let played = g.json(&with(ends("blue", 2), &ends("red", 1)), &[]);
    let began = |phase: &str| has_event(&played.events, "phase_began", &[("phase", phase.into())]);
    let to_fire_first = (played.events.iter())
        .filter_map(|e| e["roll"]["purpose"].as_str())
        .any(|p| p.ends_with("rolls to fire first"));
    assert!(
        began("group 1 movement") && !began("first fire") && !to_fire_first,
        "{:?}",
        played.events
    );
    // Over these seeds each side wins the roll at least once.
    assert!(
        winners.contains(&"blue") && winners.contains(&"red"),
        "{winners:?}"
    );
}

/// 004 artillery section (woods and water: guns cross water only at bridges and fords) and
/// charts page (guns are pushed on clear flat ground, never over streams): a battery,
/// limbered or pushed, cannot cross a stream; a bridge on the same hex side carries it, and
/// infantry still wades across.
#[test]
fn guns_cross_streams_only_at_bridges() {
    let pieces = |mode: &str| {
        format!(
            "  - {{ id: g, side: blue, type: artillery, mode: {mode}, at: [4, 4], facing: E }}\n  - {{ id: i, side: blue, type: infantry, at: [4, 3], facing: SE }}\n  - {{ id: r, side: red, type: infantry, at: [9, 0], facing: W }}\n"
        )
    };
    let step = order("blue", "move: { piece: g, path: [[5, 4]] }");
    for mode in ["limbered", "unlimbered"] {
        let f = field_on(&pieces(mode), "", STREAM);
        refused(
            &f,
            &turn_with(std::slice::from_ref(&step)),
            &[],
            "the stream between (4,4) and (5,4) cannot be crossed here",
        );
        let bridged = field_on(
            &pieces(mode),
            "",
            &format!("{STREAM}    - feature: bridge\n      between: [[[4, 4], [5, 4]]]\n"),
        );
        let p = bridged.json(&turn_with(std::slice::from_ref(&step)), &[]);
        assert!(p.has("moved", "g", |e| e["path"] == cells(&[(4, 4), (5, 4)])));
    }
    // Infantry is not stopped by the stream (it takes its TE hit instead).
    let f = field_on(
        "  - { id: i, side: blue, type: infantry, at: [4, 4], facing: E }\n  - { id: r, side: red, type: infantry, at: [9, 0], facing: W }\n",
        "",
        STREAM,
    );
    let p = f.json(
        &turn_with(&[order("blue", "move: { piece: i, path: [[5, 4]] }")]),
        &[],
    );
    assert!(p.has("moved", "i", |e| e["path"] == cells(&[(4, 4), (5, 4)])));
}

/// `closed_to` names modes, and only a barrier may close itself to them: both mistakes are
/// reported at their line.
#[test]
fn bad_closed_to_is_reported_at_its_line() {
    let (_d, r) = validate_overlay(
        "features:\n  stream: { kind: barrier, cost: 0, closed_to: [limberd] }\n",
        None,
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("bad.yaml:4:") && r.stderr.contains("did you mean `limbered`?"),
        "{}",
        r.stderr
    );
    let (_d, r) = validate_overlay(
        "features:\n  road: { kind: road, closed_to: [limbered] }\n",
        None,
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("bad.yaml:4:") && r.stderr.contains("only a barrier may have it"),
        "{}",
        r.stderr
    );
}
