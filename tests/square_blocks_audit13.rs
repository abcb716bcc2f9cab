//! The thirteenth round on the square-block game (`docs/audits/square-blocks.md`, "Twelfth
//! outside audit"): the Scout Fate distance to arrow squares, a town-concealed command with
//! an arrow onto open ground, the forward-deployment announcement. Positions in
//! `tests/fixtures/audits/square-blocks/thirteenth/`. Each test cites the seed line.

const T13: &str = "tests/fixtures/audits/square-blocks/thirteenth";

/// stdout and stderr of a run that must succeed.
fn out13(args: &[&str]) -> String {
    let r = crate::util::grognard_fixtures(T13, args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    format!("{}{}", r.stdout, r.stderr)
}

/// The referee's Scout Fate line of the first French command phase, seed 22.
fn fate(scenario: &str) -> String {
    let out = out13(&[
        "play",
        scenario,
        "--orders",
        "fate.orders.yaml",
        "--seed",
        "22",
    ]);
    out.lines()
        .find(|l| l.contains("scout fate of fs"))
        .unwrap_or_else(|| panic!("no Scout Fate roll in {scenario}: {out}"))
        .trim()
        .to_owned()
}

#[test]
fn audit13_scout_fate_counts_the_squares_to_an_arrow_square() {
    // 000 l.86-90 (#16): a command with extension arrows "now occupies more than one square
    // grid"; 000 l.198-212: the Scout Fate table counts squares from the "nearest enemy
    // command or dummy block": 8, 9 or 10 removes a scout 1 square away, 9 or 10 one 2 or 3
    // away.
    //
    // Worked by hand: the scout fs at (5,6); its headquarters fhq is in battle mode (not in
    // transit), a day turn: no +2. Seed 22 rolls the same d10 8 in the three positions.
    // - fate_main1: ax on (5,5), 1 away: 8 ≥ 8, removed.
    // - fate_main3: ax on (5,3), 3 away: 8 < 9, reports.
    // - fate_arrow: ax's marker on (5,3), arrows on (5,4) and (5,5): the nearest square it
    //   holds, (5,5), is 1 away, so it rolls as fate_main1 does: removed. (Before the fix
    //   the distance ran to the marker's square, 3 away, and fs reported.)
    assert_eq!(
        fate("fate_main1.yaml"),
        "scout_fate: d10 8; score 8 → removed (scout fate of fs)"
    );
    assert_eq!(
        fate("fate_main3.yaml"),
        "scout_fate: d10 8; score 8 → reports (scout fate of fs)"
    );
    assert_eq!(
        fate("fate_arrow.yaml"),
        "scout_fate: d10 8; score 8 → removed (scout fate of fs)"
    );
}

/// The French view's line for the Austrian block ax (`#3`), after the orders.
fn ax_seen(scenario: &str, orders: &str) -> Option<String> {
    let out = out13(&["view", scenario, "--orders", orders, "--side", "french"]);
    let known = out.split("log:").next().unwrap_or_default().to_owned();
    known
        .lines()
        .find(|l| l.trim_start().starts_with("#3 "))
        .map(|l| l.trim().to_owned())
}

#[test]
fn audit13_a_town_block_with_an_arrow_onto_open_ground_is_sighted_there() {
    // 000 l.231-232: hidden commands are disclosed only by a starred letter; chart #5 (000
    // l.238 on): 2 squares straight ahead of the observer is B, unstarred; 1 ahead A*. The
    // reading (ruleset note on concealment square by square): a command's squares in a
    // town need a starred letter, its squares in the open are read by the ordinary chart,
    // and the command is sighted at the best of them, as a whole.
    //
    // Worked by hand: the scout fs at (5,6) facing N; the town is (5,3), 3 ahead (C, and
    // concealing: nothing). On turn 1 the Austrians lay an arrow:
    // - town_block: ax in the town (5,3) lays an arrow onto open (5,4), 2 ahead of fs: B
    //   (before the fix the whole command was concealed by its marker's town: not seen);
    // - open_block: ax on open (5,4) lays an arrow into the town (5,3): B from (5,4).
    // Both: sighted at B, real infantry, strength 6 (B discloses the number of units), both
    // squares shown.
    let town = ax_seen("town_block.yaml", "arrow_out.orders.yaml");
    let open = ax_seen("open_block.yaml", "arrow_in.orders.yaml");
    let tail = ", facing S, sighting B, face up, real, infantry, strength 6, strategic mode";
    assert_eq!(
        town.as_deref(),
        Some(format!("#3         at (5,3)+(5,4){tail}").as_str())
    );
    assert_eq!(
        open.as_deref(),
        Some(format!("#3         at (5,4)+(5,3){tail}").as_str())
    );
    // Before the arrow, in the town alone, ax is out of sight (3 ahead: C, unstarred).
    let before = out13(&["view", "town_block.yaml", "--side", "french"]);
    assert!(!before.contains("#3 "), "{before}");
}

#[test]
fn audit13_forward_deployment_names_the_feature_not_a_concealed_square() {
    // 000 l.106-124 (#18): 18a a terrain feature in the forward half of the square; 18c
    // "All opposite players must be advised that command block is 'forward deployed' into
    // the terrain feature"; 000 l.231: a hidden command is disclosed only by a starred
    // letter, so the square of a command in a town is not named (the ruleset note on
    // forward deployment out of sight).
    //
    // Worked by hand: ar (3,3) and the dummy ad (7,3) stand in woods, at in the town (6,3);
    // each saved ½ mp on turn 1 and deploys forward on turn 2. The French read, in order:
    // ar by its square and "a wood", ad the same (a dummy acts as a block, 000 #15), at
    // without its square, "into a town". (Before the fix: "a command out of sight is
    // deployed forward", no feature.)
    let out = out13(&[
        "play",
        "forward.yaml",
        "--orders",
        "forward.orders.yaml",
        "--side",
        "french",
    ]);
    let told: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("announced:"))
        .collect();
    assert_eq!(
        told,
        [
            "announced: the command at (3,3) is deployed forward into a wood",
            "announced: the command at (7,3) is deployed forward into a wood",
            "announced: a command out of sight is deployed forward into a town",
        ],
        "{out}"
    );
    // prose: the announcements asserted above are present; none names (6,3).
    assert!(!out.contains("(6,3)"), "{out}");
}
