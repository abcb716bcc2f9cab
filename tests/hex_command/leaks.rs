//! Hex Command (seed 004), tenth round: what the scripts write reaches a side naming pieces as
//! that side knows them. 3.1 (l.465-467: a marker shows where a unit is, not what it is),
//! l.264 (hidden movement) and l.313 (a commander's capabilities are his player's). The last
//! two outside audits each found a string naming a hidden marker by its scenario id; here
//! every class of string a side reads is tried on a position where an enemy piece stays
//! unidentified: a refusal, a note of an order, a note and a roll of a phase's end, the
//! reason of a removal, and the notes and rolls of the phases both sides read (the activation
//! sequence). The generic check (`side_reads_no_hidden_id`) takes everything a side reads —
//! `play --side` (its log and any refusal), `view --side` and `view --side --json` — and
//! asserts that no id of an enemy piece the side has not identified (the referee's pieces
//! less those the side's view lists by name) appears in it as a word. The positions are in
//! tests/fixtures/audits/hex-command/tenth/ (Blue first: no initiative roll); the markers
//! stand in a fort or buildings, where within 5 hexes only the cube's red star unmasks them,
//! and with these seeds none is unmasked (checked: the check needs a hidden id to look for).

use std::path::PathBuf;

use serde_json::Value;

use crate::util::{Run, grognard_in, play_json_in, root};

use super::field::{has, lacks};

const DIR: &str = "tests/fixtures/audits/hex-command/tenth";

fn dir() -> PathBuf {
    root().join(DIR)
}

fn at(args: &[&str]) -> Run {
    grognard_in(&dir(), args)
}

fn json(args: &[&str]) -> Value {
    let out = at(args);
    assert_eq!(out.code, 0, "{args:?}: {}{}", out.stdout, out.stderr);
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

/// The ids of the enemy pieces `side` has not identified once `orders` are played: every
/// piece of another side in the referee's state that the side's view does not list by name
/// and that no sighting of its log disclosed (level `seen`: a piece since removed).
fn unidentified(scenario: &str, orders: &str, side: &str) -> Vec<String> {
    let log = json(&[
        "view", scenario, "--side", side, "--json", "--orders", orders,
    ]);
    let sighted: Vec<u64> = log["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["event"] == "sighted" && e["level"] == "seen")
        .filter_map(|e| e["piece"].as_u64())
        .collect();
    let all = json(&["view", scenario, "--referee", "--json", "--orders", orders]);
    let views = all["views"].as_array().expect("views");
    let (index, view) = views
        .iter()
        .enumerate()
        .find(|(_, v)| v["side_name"] == side)
        .unwrap_or_else(|| panic!("no side {side}"));
    let known: Vec<&str> = view["enemy"]
        .as_array()
        .expect("enemy")
        .iter()
        .filter_map(|e| e["identity"]["name"].as_str())
        .collect();
    all["state"]["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            p["side"].as_u64() != Some(index as u64) && !sighted.contains(&(*i as u64))
        })
        .filter_map(|(_, p)| p["name"].as_str())
        .filter(|name| !known.contains(name))
        .map(str::to_owned)
        .collect()
}

/// Whether `text` holds `id` as a word (not inside a longer name such as `id_2`).
fn names(text: &str, id: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(id).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + id.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// The generic check: everything `side` reads after `orders` — its log and any refusal
/// (`play --side`), its view in text and JSON (when the orders all pass) — names no enemy
/// piece it has not identified. An order refused is the last the side gives: the pieces are
/// judged as they stand before it. `hidden` must be among the unidentified (so the check
/// has something to look for). Returns what the side read.
fn side_reads_no_hidden_id(scenario: &str, orders: &str, side: &str, hidden: &[&str]) -> String {
    let play = at(&["play", scenario, "--orders", orders, "--side", side]);
    let mut text = format!("{}\n{}", play.stdout, play.stderr);
    let tmp = tempfile::tempdir().expect("tempdir");
    let standing = if play.code == 0 {
        for args in [
            &["view", scenario, "--orders", orders, "--side", side][..],
            &[
                "view", scenario, "--orders", orders, "--side", side, "--json",
            ],
        ] {
            let out = at(args);
            assert_eq!(out.code, 0, "{args:?}: {}{}", out.stdout, out.stderr);
            text.push_str(&out.stdout);
        }
        dir().join(orders)
    } else {
        // `orders.yaml:N:5: refused: ...`: the orders before line N.
        let line: usize = play
            .stderr
            .split(':')
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no refused line in {}", play.stderr));
        let kept: String = std::fs::read_to_string(dir().join(orders))
            .expect("orders")
            .lines()
            .take(line - 1)
            .map(|l| format!("{l}\n"))
            .collect();
        let path = tmp.path().join("before.yaml");
        std::fs::write(&path, kept).expect("write");
        path
    };
    let unknown = unidentified(scenario, standing.to_str().expect("path"), side);
    for id in hidden {
        assert!(
            unknown.iter().any(|u| u == id),
            "{id} should stay unidentified to {side} (unidentified: {unknown:?})"
        );
    }
    for id in &unknown {
        assert!(
            !names(&text, id),
            "{side} reads the id of {id}, which it has not identified:\n{text}"
        );
    }
    text
}

/// The words of a refusal (3.1, l.465-467; 7h, the fire line). line.yaml: Red's hidden
/// markers masked_near (2,4) and masked_far (3,4), both in forts, in line in front of Blue's
/// b1 at (1,4) facing E; Blue's handles: b1 is #0, masked_near #1, masked_far #2. Blue fires
/// at #2: the line passes through masked_near's hex, so the fire is refused — "b1 cannot see
/// enemy #2: enemy #1 stands in the way". Before: "b1 cannot see masked_far: masked_near
/// stands in the way" (the fire line named both by their ids). The same words are what the
/// referee's play prints.
#[test]
fn a_refusal_names_hidden_markers_as_the_firer_knows_them() {
    // prose: how the words name hidden markers is what this leak test is about.
    let text = side_reads_no_hidden_id(
        "line.yaml",
        "line.orders.yaml",
        "blue",
        &["masked_near", "masked_far"],
    );
    has(
        &text,
        "refused: b1 cannot see enemy #2: enemy #1 stands in the way",
    );
    let referee = at(&["play", "line.yaml", "--orders", "line.orders.yaml"]);
    has(
        &referee.stderr,
        "refused: b1 cannot see enemy #2: enemy #1 stands in the way",
    );
}

/// A note written for an order (crews: a gun meleed gives up its guns). guns.yaml: Red's
/// hidden marker masked_guns (unlimbered artillery, its crew masked_crew riding it) in
/// buildings at (3,4) facing NE; Blue's b1 at (2,4) facing E melees it (#1) from its flank (no
/// grapeshot: not its front). The crew abandons the guns and steps back to (4,4), where it
/// stands as a piece of its own (a crew is no marker: the enemy sees it for what it is). The
/// note is Blue's (its order's); when it is written the crew still rides the marker, unseen:
/// "an unseen enemy abandons the guns of enemy #1". Before: "masked_crew abandons the guns of
/// masked_guns".
#[test]
fn a_note_of_an_order_names_a_hidden_marker_by_its_handle() {
    // prose: the note's words, as the side reads them, are what this leak test is about.
    let text = side_reads_no_hidden_id("guns.yaml", "guns.orders.yaml", "blue", &["masked_guns"]);
    has(&text, "note: an unseen enemy abandons the guns of enemy #1");
}

/// A note and a roll of a phase's end (7.2.1, l.480: a unit melees every enemy whose front
/// hexes it entered). front.yaml: Red's hidden marker masked_fort (infantry) in a fort at
/// (3,4) facing W; Blue's b1 steps from (1,4) into its front hex (2,4) (stopped by its zone)
/// and gives no melee order, so the melee is fought as Blue's melee phase ends, where the
/// phase's owner, Blue, reads the note and the roll. Blue reads "b1 entered the front of
/// enemy #1 and must melee it too" and the roll as the engine words it for the two units
/// (sixteenth round: the melee script names its pieces), netted: "(melee by b1 at enemy
/// #1)"; the script's own words, "melee of b1 (2) against enemy #1 (4)", told the marker's
/// melee value and cover and are no longer read. Before the tenth round: both named
/// masked_fort.
#[test]
fn the_owed_melee_names_a_hidden_marker_by_its_handle() {
    let text = side_reads_no_hidden_id("front.yaml", "front.orders.yaml", "blue", &["masked_fort"]);
    has(
        &text,
        "note: b1 entered the front of enemy #1 and must melee it too",
    );
    has(
        &text,
        "-4 modifiers in all (not itemized: an unidentified piece); score -3 → defender hit (melee by b1 at enemy #1)",
    );
    // prose: the leak is in the words: the marker's melee value is not written out.
    lacks(&text, "(melee by b1 at enemy #1)", "(4)");
}

/// The reason of a removal (7.2, l.475: skirmishers touched by an enemy are removed), read by
/// the owner of the piece removed and by every side that saw it. sweep.yaml: Blue's hidden
/// marker masked_blue starts in a fort at (2,4), unseen by Red's skirmishers s at (5,4) (the
/// spotting roll fails), and moves to (4,4), next to s: s is removed. Red reads the removal
/// of its own s: "skirmishers touched by a blue unit next to them" — the mover is named as
/// no more than a unit of its side, which Red may read (a reason reaches both sides, so it
/// names a piece by id only when every side has identified it). Red then sees the marker
/// move ("enemy #1 moved from (2,4) to (4,4)"). Before: "skirmishers touched by masked_blue".
#[test]
fn a_removal_names_a_hidden_enemy_as_a_unit_of_its_side() {
    // prose: the removal's words, as Red reads them, are what this leak test is about.
    let text = side_reads_no_hidden_id("sweep.yaml", "sweep.orders.yaml", "red", &["masked_blue"]);
    has(
        &text,
        "s removed (skirmishers touched by a blue unit next to them: removed)",
    );
    has(&text, "enemy #1 moved from (2,4) to (4,4)");
}

/// The phases both sides read (2.3 and l.120, the activation sequence; 3.1; l.313). Under the
/// activation sequence the command and rally phases are both sides', and what their hooks
/// write reaches both logs.
///
/// act.yaml (random CVS): Red's hidden marker masked_host (one hit) with its commander
/// masked_chief in a fort at (7,4). In the rally phase masked_chief rallies masked_host: both
/// sides read "a red unit rallies" (before: "masked_host rallies"). The CVS notes: each side's
/// come in its own group 1 movement, not in the shared command phase — Blue reads "hale is
/// veteran: C2 M1 T5 A5 I5" and nothing of masked_chief, Red reads "masked_chief is untrained:
/// C0 M0 T6 A6 I6" and nothing of hale (before, Red read hale's note in the command phase).
///
/// act-command.yaml (remove_commanders; Red past its break point, r_routed routed of three
/// units, 33% against 10%): the command phase takes the commanders off (Blue reads "a red
/// commander is removed from a red unit"; before: "masked_chief is removed from masked_host")
/// and rolls integrity for each red unit (Blue reads "integrity of a red unit" — the red star,
/// withdraw — and "integrity of r1"; before: "integrity of masked_host").
#[test]
fn the_shared_phases_of_the_activation_sequence_name_no_hidden_piece() {
    let blue = side_reads_no_hidden_id("act.yaml", "act.orders.yaml", "blue", &["masked_host"]);
    has(&blue, "note: a red unit rallies");
    // prose: the leak is in the notes' words: Blue reads its own commander's CVS, not Red's.
    lacks(
        &blue,
        "note: hale is veteran: C2 M1 T5 A5 I5",
        "is untrained",
    );
    let red = side_reads_no_hidden_id("act.yaml", "act.orders.yaml", "red", &[]);
    // prose: as above, the other way.
    lacks(
        &red,
        "note: masked_chief is untrained: C0 M0 T6 A6 I6",
        "hale is",
    );

    let blue = side_reads_no_hidden_id(
        "act-command.yaml",
        "act-command.orders.yaml",
        "blue",
        &["masked_chief"],
    );
    // Twenty-fourth round (the nineteenth outside audit's L2): masked_chief rides a marker
    // Blue has not identified, so he stays on it unseen and Blue reads no removal at all:
    // in Blue's `--json` log the one commander taken off his unit is its own hale.
    let played = play_json_in(
        &dir(),
        "act-command.yaml",
        "act-command.orders.yaml",
        &["--side", "blue"],
    );
    let hale = played.piece("hale");
    assert!(
        played.has("attached", "hale", |e| e["to"].is_null()),
        "{:?}",
        played.events
    );
    let taken_off = (played.events.iter()).filter(|e| e["event"] == "attached");
    assert!(
        taken_off.clone().all(|e| e["piece"] == hale),
        "{:?}",
        played.events
    );
    // prose: nor do the notes' words tell of one.
    lacks(
        &blue,
        "note: hale is removed from b1",
        "red commander is removed",
    );
    has(&blue, "(integrity of a red unit)");
    has(&blue, "(integrity of r1)");
}

/// The generic check on every position of this round, for both sides, and on the ninth
/// round's (the eighth audit's leaks): no side reads the id of an enemy piece it has not
/// identified.
#[test]
fn no_side_reads_the_id_of_an_enemy_it_has_not_identified() {
    for (scenario, orders) in [
        ("line.yaml", "line.orders.yaml"),
        ("guns.yaml", "guns.orders.yaml"),
        ("front.yaml", "front.orders.yaml"),
        ("sweep.yaml", "sweep.orders.yaml"),
        ("act.yaml", "act.orders.yaml"),
        ("act-command.yaml", "act-command.orders.yaml"),
        ("../ninth/marker.yaml", "../ninth/fire.orders.yaml"),
        ("../ninth/fake.yaml", "../ninth/fire.orders.yaml"),
    ] {
        for side in ["blue", "red"] {
            side_reads_no_hidden_id(scenario, orders, side, &[]);
        }
    }
}

/// What the legal orders and the owed melee tell of a marker (3.1, l.465-467: a marker shows
/// where a unit is, not what it is). The ninth round's marker.yaml (a real unit under the
/// marker) and fake.yaml (a fake, fk), both in forest at (3,4) facing W; Blue's b1 steps from
/// (1,4) into the marker's front hex (2,4). In Blue's melee phase its legal orders are the same
/// for both — a melee at `#1` is listed (before: only for the real unit, the fake refused as
/// "commanders are not meleed", so the list told Blue it was a fake). As the phase ends b1 owes
/// the melee either way ("b1 entered the front of enemy #1 and must melee it too"; before:
/// none with the fake, whose zone was judged as a fake's); the real unit fights it, and the
/// fake is unmasked by the contact: "enemy #1 removed (a fake counter, met in melee: there
/// was no unit there)".
#[test]
fn a_marker_is_meleed_alike_whether_real_or_fake() {
    let legal = |scenario: &str| {
        let out = at(&[
            "legal",
            scenario,
            "--side",
            "blue",
            "--orders",
            "contact.at.yaml",
        ]);
        assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
        out.stdout
    };
    let real = legal("../ninth/marker.yaml");
    assert_eq!(real, legal("../ninth/fake.yaml"));
    has(
        &real,
        "{ side: blue, act: { piece: b1, action: melee, target: \"#1\" } }",
    );
    for (scenario, id) in [
        ("../ninth/marker.yaml", "secret_guard_battalion"),
        ("../ninth/fake.yaml", "fk"),
    ] {
        let text = side_reads_no_hidden_id(scenario, "contact.orders.yaml", "blue", &[]);
        has(
            &text,
            "note: b1 entered the front of enemy #1 and must melee it too",
        );
        if id == "fk" {
            has(
                &text,
                "enemy #1 removed (a fake counter, met in melee: there was no unit there)",
            );
        } else {
            // prose: the leak is in the words: no melee value of the marker, no id.
            lacks(&text, "(melee by b1 at enemy #1)", "against enemy #1 (3)");
            lacks(&text, "(melee by b1 at enemy #1)", id);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Twelfth round (issue 33 item 2): the numbers a netted line still shows. The position is
// tests/fixtures/audits/hex-command/twelfth/probe.yaml (seed 12, Blue first): Blue's b1 at
// (1,4) facing E, Red's hidden marker rh next to it at (2,4) in forest (not unmasked at 5
// hexes in forest; seed 12's arrivals spotting misses). Each variant swaps rh only.

const PROBE: &str = "tests/fixtures/audits/hex-command/twelfth";
const MARKER: &str =
    "- { id: rh, side: red, type: infantry, at: [2, 4], facing: W, flags: [hidden] }";

/// The probe's marker variants: (name, the piece lines that replace the infantry marker).
const VARIANTS: [(&str, &str); 6] = [
    ("infantry", MARKER),
    (
        "one hit",
        "- { id: rh, side: red, type: infantry, at: [2, 4], facing: W, flags: [hidden], counters: { hits: 1 } }",
    ),
    (
        "cavalry",
        "- { id: rh, side: red, type: cavalry, at: [2, 4], facing: W, flags: [hidden] }",
    ),
    (
        "commander",
        "- { id: rh, side: red, type: infantry, at: [2, 4], facing: W, flags: [hidden] }\n  - { id: vc, side: red, type: commander, at: [2, 4], attached_to: rh, counters: { cvs_c: 2, cvs_t: 4 } }",
    ),
    (
        "dug in",
        "- { id: rh, side: red, type: infantry, at: [2, 4], facing: W, flags: [hidden], counters: { works: 4 } }",
    ),
    (
        "fake",
        "- { id: rh, side: red, type: fake_counter, at: [2, 4], facing: W, flags: [hidden] }",
    ),
];

/// A folder holding the probe with the marker `variant`, its overlay and the orders.
fn probe(variant: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    let from = root().join(PROBE);
    let text = std::fs::read_to_string(from.join("probe.yaml")).expect("probe");
    assert!(text.contains(MARKER));
    std::fs::write(tmp.path().join("probe.yaml"), text.replace(MARKER, variant)).expect("write");
    for f in [
        "hc.yaml",
        "fire.orders.yaml",
        "melee.orders.yaml",
        "red-fire.orders.yaml",
    ] {
        let t = std::fs::read_to_string(from.join(f)).expect("read");
        let t = t.replace(
            "../../../../../rulesets/",
            &format!("{}/", root().join("rulesets").display()),
        );
        std::fs::write(tmp.path().join(f), t).expect("write");
    }
    tmp
}

/// The lines of `play --side blue` from the phase named `from` on, and the rolls of its
/// `--json` events (as Blue receives them).
fn blue_reads(variant: &str, orders: &str, from: &str) -> (String, Vec<Value>) {
    let tmp = probe(variant);
    let text = grognard_in(
        tmp.path(),
        &["play", "probe.yaml", "--orders", orders, "--side", "blue"],
    );
    assert_eq!(text.code, 0, "{variant}: {}{}", text.stdout, text.stderr);
    let start = text
        .stdout
        .find(from)
        .unwrap_or_else(|| panic!("no {from} in {}", text.stdout));
    let played = crate::util::play_json_in(tmp.path(), "probe.yaml", orders, &["--side", "blue"]);
    let rolls = played
        .events
        .iter()
        .filter_map(|e| match e["event"].as_str() {
            Some("rolled") => Some(e["roll"].clone()),
            Some("acted") if !e["roll"].is_null() => Some(e["roll"].clone()),
            _ => None,
        })
        .filter(|r| r["chart"] != "spot")
        .collect();
    (text.stdout[start..].to_owned(), rolls)
}

/// 3.1 (l.465-467), 7 (fire modifiers, l.216; the charts page) and the sixth outside audit's
/// reading (a marker's own markers are not on the table: fire at it counts only its
/// ground). Blue's b1 fires at the marker next to it (point blank, band 0): +1 for the
/// forest it stands in, band 1 (Color); seed 12's cube shows red star: a hit. The same line,
/// byte for byte, and the same roll in the events, whether the marker is infantry, infantry
/// with a hit, cavalry, infantry with a commander, infantry dug in, or a fake: nothing of the
/// marker's arm, hits, works or commander reaches the net, and a fake is shot at like a unit.
#[test]
fn fire_at_a_marker_reads_alike_for_any_unit_and_a_fake() {
    // prose: the netted roll line Blue reads, beside the rolls compared on JSON.
    let (line, rolls) = blue_reads(MARKER, "fire.orders.yaml", "fire phase (blue)");
    has(
        &line,
        "fire_small_b: cube red star; +1 modifiers in all (not itemized: an unidentified piece); band 1 (Color) → hit (fire_small_b by b1 at enemy #3)",
    );
    for (name, variant) in VARIANTS {
        let (other, other_rolls) = blue_reads(variant, "fire.orders.yaml", "fire phase (blue)");
        assert_eq!(other, line, "{name}");
        assert_eq!(other_rolls, rolls, "{name}");
    }
}

/// 7.2 (l.410: each side adds its modifiers to its melee value, which makes one Stronger and
/// one Weaker, in view of both) and the melee chart (the net capped at 4 either way). Blue's
/// b1 (melee 2) melees the marker: infantry in forest is 2 + 1 = 3, Stronger, so Blue reads
/// -4; with one hit 2 - 1 + 1 = 2, equal: +0; cavalry 3 + 1, a commander's +2, works' cover:
/// all Stronger, -4, the same line as the infantry's. So the net says only which side is
/// Stronger, never by how much (arm, hits, cover or commander); a fake is unmasked by the
/// contact and removed, which the rule makes visible (tenth round).
#[test]
fn a_melee_at_a_marker_reads_only_which_side_is_stronger() {
    // prose: the netted melee line Blue reads, beside the nets read on JSON.
    let (line, _) = blue_reads(MARKER, "melee.orders.yaml", "melee phase (blue)");
    has(
        &line,
        "-4 modifiers in all (not itemized: an unidentified piece); score -3",
    );
    for (name, variant) in VARIANTS {
        let (other, rolls) = blue_reads(variant, "melee.orders.yaml", "melee phase (blue)");
        let nets: Vec<i64> = rolls
            .iter()
            .filter(|r| r["chart"] == "melee")
            .map(|r| {
                let mods = r["modifiers"].as_array().expect("modifiers");
                assert!(mods.len() <= 1, "{name}: itemized {r}");
                mods.iter()
                    .map(|m| m["value"].as_i64().expect("value"))
                    .sum()
            })
            .collect();
        match name {
            "fake" => {
                assert!(nets.is_empty(), "{name}: {other}");
                has(&other, "enemy #3 removed (a fake counter, met in melee");
            }
            "one hit" => assert_eq!(nets, [0], "{name}: {other}"),
            _ => {
                assert_eq!(nets, [-4], "{name}: {other}");
                let first = |t: &str| t.lines().take(3).collect::<Vec<_>>().join("\n");
                assert_eq!(first(&other), first(&line), "{name}");
            }
        }
    }
}

/// 3.1 and l.264, through the sighting rules: Blue's b1 and hale stand in the open, their
/// identity public. Before the twelfth round Blue's view listed them face up ("the enemy sees
/// it") when the marker next to them was a real unit, which observes, and not when it was a
/// fake, which does not: the owner's own listing told it the marker was real. A piece whose
/// face is public anyway is not listed face up now, so the views agree.
#[test]
fn an_own_piece_face_up_does_not_tell_a_real_marker_from_a_fake() {
    let face_up = |variant: &str| {
        let tmp = probe(variant);
        let out = grognard_in(
            tmp.path(),
            &[
                "view",
                "probe.yaml",
                "--orders",
                "fire.orders.yaml",
                "--side",
                "blue",
                "--json",
            ],
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        let v: Value = serde_json::from_str(&out.stdout).expect("json");
        v["own_face_up"].clone()
    };
    let real = face_up(MARKER);
    assert_eq!(real, face_up(VARIANTS[5].1));
    assert!(real.is_null(), "{real}");
}

/// Thirteenth round (the twelfth's 2d, left open): a hidden marker fires at Blue's b1. 004
/// l.214 has fire declared in the opponent's view, the target named and the modifiers added as
/// it watches, and l.216 counts the firer's own hit markers among them; a fake cannot fire.
/// Our reading: a unit under a 3.1 marker that fires is unmasked as it fires (l.264: the
/// owner brings the actual unit back to the surface), before the roll. Before this round Blue
/// read `enemy #3 fire at b1` and a net "not itemized" that still carried rh's hits (+1) and
/// commander (-2). Now Blue reads rh by name, each modifier by name, the marker lifted in its
/// `--json` events, and the commander attached to rh in its view. Worked by hand (point
/// blank, band 0, seed 12): infantry: no modifier, automatic; one hit: +1 hits on the firer,
/// band 1, the cube's red star hits; commander C 2: band 0 without him, so his -2 changes
/// nothing and is not counted (l.313, sixteenth round: reaudit15), automatic. The other way,
/// fire at a marker, still reads alike for every unit and a fake (the test above).
#[test]
fn a_marker_that_fires_is_unmasked_with_its_modifiers() {
    let cases = [
        (
            VARIANTS[0].1,
            "fire_small_b: no roll needed; band 0 (automatic) → hit (fire_small_b by rh at b1)",
        ),
        (
            VARIANTS[1].1,
            "fire_small_b: cube red star; +1 hits on the firer; band 1 (Color) → hit (fire_small_b by rh at b1)",
        ),
        (
            VARIANTS[3].1,
            "fire_small_b: no roll needed; band 0 (automatic) → hit (fire_small_b by rh at b1)",
        ),
    ];
    for (variant, roll) in cases {
        let (text, rolls) = blue_reads(
            variant,
            "red-fire.orders.yaml",
            "defensive fire phase (blue)",
        );
        has(&text, "rh fire at b1");
        has(&text, roll);
        // prose: the unmasked firer is read by name, its modifiers itemized.
        lacks(&text, "rh is no longer hidden", "not itemized");
        lacks(&text, "rh is no longer hidden", "enemy #3");
        assert_eq!(rolls.len(), 1, "{text}");
        for m in rolls[0]["modifiers"].as_array().expect("modifiers") {
            assert_ne!(m["name"], "modifiers in all", "{roll}: {m}");
        }
        let tmp = probe(variant);
        let out = grognard_in(
            tmp.path(),
            &[
                "view",
                "probe.yaml",
                "--orders",
                "red-fire.orders.yaml",
                "--side",
                "blue",
                "--json",
            ],
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        has(&out.stdout, "\"rh\"");
        if variant == VARIANTS[3].1 {
            has(&out.stdout, "\"vc\"");
        }
    }
}
