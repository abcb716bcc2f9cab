//! Spotting and hidden movement, through the kernel's sighting model (3.1 and the optional
//! Hidden Movement rule).

use grognard_kernel::action::Event;
use grognard_kernel::game::Game;
use grognard_kernel::ids::SideId;
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::{load_ruleset, scenario_from_text};

use crate::util::root;

const BLUE: SideId = SideId(0);
const RED: SideId = SideId(1);

fn start(
    pieces: &[&str],
    terrain: &str,
    options: &[(&str, bool)],
    settings: &str,
    seed: u64,
) -> Game {
    let rules =
        load_ruleset(&root().join("rulesets/hex-command.yaml")).unwrap_or_else(|d| panic!("{d}"));
    let mut text = format!(
        "scenario: s\nruleset: hex-command\nseed: {seed}\n{settings}board:\n  cols: 20\n  rows: 12\n{terrain}sides:\n  blue: {{ baseline: south }}\n  red: {{ baseline: north }}\npieces:\n"
    );
    for p in pieces {
        text.push_str(&format!("  - {p}\n"));
    }
    let s = scenario_from_text("s.yaml", &text, &rules).unwrap_or_else(|d| panic!("{d}"));
    let mut hooks = LuaHooks::new(&rules, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let options: Vec<(String, bool)> = options
        .iter()
        .map(|(n, on)| ((*n).to_owned(), *on))
        .collect();
    s.start(None, &options, &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"))
}

/// What `side` knows of `name`: (position known, identity known).
fn known(g: &Game, side: SideId, name: &str) -> (bool, bool) {
    let id = g.piece_by_name(name).map(|p| p.id).unwrap_or_default();
    g.view(side)
        .enemy
        .iter()
        .find(|e| Some(e.handle.0) == g.handle_of(side, id))
        .map_or((false, false), |e| {
            (e.place.is_some(), e.identity.is_some())
        })
}

#[test]
fn a_hidden_marker_within_five_hexes_is_revealed_unless_in_cover() {
    // 3.1: at 5 hexes markers are revealed automatically, except those in forest, town
    // (buildings), trench and the like.
    let g = start(
        &[
            "{ id: b, side: blue, type: infantry, at: [2, 6], facing: E }",
            "{ id: open, side: red, type: infantry, at: [6, 6], facing: W, flags: [hidden] }",
            "{ id: wood, side: red, type: infantry, at: [6, 4], facing: W, flags: [hidden] }",
            "{ id: far, side: red, type: infantry, at: [18, 10], facing: W }",
        ],
        "  terrain:\n    forest: [[6, 4]]\n",
        &[],
        "",
        1,
    );
    assert_eq!(known(&g, BLUE, "open"), (true, true), "revealed");
    assert_eq!(known(&g, BLUE, "wood"), (true, false), "still a marker");
    // Units not set up hidden are in plain view at any distance.
    assert_eq!(known(&g, BLUE, "far"), (true, true));
}

#[test]
fn a_red_star_spots_a_marker_within_eight_hexes_or_twelve_from_a_hill() {
    // 3.1: roll red H (the red star) to spot within 8 hexes, 12 from a hill; the rolls are
    // made in the arrivals phase and only the rolling side's log shows them.
    let mut spotted = [false, false];
    for seed in 0..40 {
        let g = start(
            &[
                "{ id: b, side: blue, type: infantry, at: [2, 6], facing: E }",
                "{ id: m, side: red, type: infantry, at: [9, 6], facing: W, flags: [hidden] }",
            ],
            "",
            &[],
            "",
            seed,
        );
        let rolls = |side| {
            g.events_for(side)
                .iter()
                .filter(|e| matches!(e, Event::SpotRolled { roll, .. } if roll.chart == "spot" && roll.purpose.contains("blue")))
                .count()
        };
        assert_eq!(rolls(BLUE), 1, "one roll at 7 hexes");
        assert_eq!(rolls(RED), 0, "red does not see blue's roll");
        spotted[usize::from(known(&g, BLUE, "m").1)] = true;
    }
    assert_eq!(
        spotted,
        [true, true],
        "a sixth of the rolls spot, over 40 seeds"
    );
    let at11 = |hill: &str| {
        start(
            &[
                "{ id: b, side: blue, type: infantry, at: [2, 6], facing: E }",
                "{ id: m, side: red, type: infantry, at: [13, 6], facing: W, flags: [hidden] }",
            ],
            hill,
            &[],
            "",
            5,
        )
    };
    let count = |g: &Game| {
        g.events_for(BLUE)
            .iter()
            .filter(|e| matches!(e, Event::SpotRolled { roll, .. } if roll.chart == "spot"))
            .count()
    };
    assert_eq!(count(&at11("")), 0, "11 hexes from the plain: out of reach");
    assert_eq!(
        count(&at11("  terrain:\n    hill: [[2, 6]]\n")),
        1,
        "from a hill"
    );
}

#[test]
fn hidden_movement_shows_two_fake_counters_and_sight_is_nine_or_six_hexes() {
    // Optional rules, Hidden Movement.
    let pieces = [
        "{ id: b, side: blue, type: infantry, at: [2, 6], facing: E }",
        "{ id: near, side: red, type: infantry, at: [10, 6], facing: W }",
        "{ id: far, side: red, type: infantry, at: [18, 2], facing: W }",
    ];
    let on = [("hidden_movement", true)];
    let clear = start(&pieces, "", &on, "", 1);
    // 8 hexes away on a clear day: seen. 16 away: off the table, shown as two fakes.
    assert_eq!(known(&clear, BLUE, "near"), (true, true));
    assert_eq!(known(&clear, BLUE, "far"), (false, false));
    let enemy = clear.view(BLUE).enemy;
    let unknown = enemy
        .iter()
        .filter(|e| e.identity.is_none() && e.place.is_some())
        .count();
    let fakes_seen = enemy.iter().filter(|e| e.real == Some(false)).count();
    assert_eq!(unknown, 2, "the far unit's two fake counters, face down");
    assert_eq!(
        fakes_seen, 2,
        "the near unit's fakes, in sight, are seen to be fakes"
    );
    let grey = start(&pieces, "", &on, "settings: { clear_day: 0 }\n", 1);
    assert_eq!(
        known(&grey, BLUE, "near"),
        (false, false),
        "6 hexes on other days"
    );
    let off = start(&pieces, "", &[], "", 1);
    assert_eq!(
        known(&off, BLUE, "far"),
        (true, true),
        "without the option all is seen"
    );
    assert_eq!(off.view(BLUE).enemy.len(), 2);
}
