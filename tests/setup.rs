//! Secret set-up (issue 19): a scenario that leaves each side's deployment to that side,
//! with each side's order of battle in a file of its own. The bundled example plays and
//! replays; `validate` checks each part and the whole; a deployment outside the side's
//! areas or against the stacking rules is refused at its line and changes nothing; each
//! side sees of the other's placement only what its knowledge allows.

use std::path::Path;

use grognard_kernel::action::{Action, Order, Refusal, RefusalKind};
use grognard_kernel::game::Game;
use grognard_kernel::geometry::Cell;
use grognard_kernel::hooks::Hooks;
use grognard_kernel::ids::SideId;
use grognard_lua::{Limits, LuaHooks};
use grognard_rules::load::load_scenario;

use crate::util::{grognard, grognard_in, has_event, play_json_in, root};

const SCENARIO: &str = "examples/square-blocks-setup.yaml";
const FRENCH_OOB: &str = "examples/setup/square-blocks-setup.french.yaml";
const AUSTRIAN_OOB: &str = "examples/setup/square-blocks-setup.austrians.yaml";
const FRENCH: SideId = SideId(0);
const AUSTRIANS: SideId = SideId(1);

fn start() -> (Game, LuaHooks) {
    let s = load_scenario(&root().join(SCENARIO), None).unwrap_or_else(|d| panic!("{d}"));
    let mut hooks = LuaHooks::new(&s.ruleset, Limits::default()).unwrap_or_else(|d| panic!("{d}"));
    let game = s
        .start(None, &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    (game, hooks)
}

/// `side` deploys `name` at `to`.
fn try_deploy(
    game: &mut Game,
    hooks: &mut dyn Hooks,
    side: SideId,
    name: &str,
    to: (i32, i32),
) -> Result<(), Refusal> {
    let piece = game.piece_by_name(name).expect("piece").id;
    game.apply(
        &Order {
            side,
            action: Action::Deploy {
                piece,
                to: Cell::new(to.0, to.1),
                facing: None,
            },
        },
        hooks,
    )
    .map(|_| ())
}

fn deploy(game: &mut Game, hooks: &mut dyn Hooks, side: SideId, name: &str, to: (i32, i32)) {
    try_deploy(game, hooks, side, name, to).unwrap_or_else(|r| panic!("deploy {name}: {r}"));
}

/// A copy of the examples and rulesets in a temporary folder.
fn copy_tree(to: &Path) {
    for dir in ["examples", "examples/setup", "rulesets", "scripts"] {
        std::fs::create_dir_all(to.join(dir)).expect("mkdir");
        for entry in std::fs::read_dir(root().join(dir)).expect("dir") {
            let path = entry.expect("entry").path();
            if path.is_file() {
                std::fs::copy(&path, to.join(dir).join(path.file_name().expect("name")))
                    .expect("copy");
            }
        }
    }
    for dir in ["scripts/hex_command", "scripts/black_powder"] {
        let _ = std::fs::create_dir_all(to.join(dir));
        if let Ok(entries) = std::fs::read_dir(root().join(dir)) {
            for entry in entries {
                let path = entry.expect("entry").path();
                std::fs::copy(&path, to.join(dir).join(path.file_name().expect("name")))
                    .expect("copy");
            }
        }
    }
}

#[test]
fn the_game_begins_with_the_set_up_and_its_first_turn_once_both_sides_end_it() {
    let (mut game, mut hooks) = start();
    assert!(game.setting_up());
    assert_eq!(
        game.phase().map(|(p, _)| p.name.clone()).as_deref(),
        Some("set-up")
    );
    assert_eq!(game.to_act(), vec![FRENCH, AUSTRIANS]);
    // The French pieces wait off the table; the corps stands where its order of battle
    // puts it.
    let army = game.piece_by_name("army").expect("army");
    assert!(!army.on_board() && game.deployable(army.id));
    let corps = game.piece_by_name("corps").expect("corps");
    assert!(corps.on_board() && !game.deployable(corps.id));
    // Nothing is decided while the French have no headquarters on the table.
    assert!(game.state().result().is_none());
    // The legal orders: a place in the French area for each French block, and the end.
    let legal = game.legal_orders(FRENCH, &mut hooks);
    assert_eq!(legal.last(), Some(&Action::EndPhase));
    assert!(legal.iter().all(|a| match a {
        Action::Deploy { to, .. } => to.row >= 6,
        other => *other == Action::EndPhase,
    }));
    assert!(legal.contains(&Action::Deploy {
        piece: army.id,
        to: Cell::new(6, 9),
        facing: None,
    }));
    deploy(&mut game, &mut hooks, FRENCH, "army", (6, 9));
    // A piece may be placed again until its side ends the set-up.
    deploy(&mut game, &mut hooks, FRENCH, "army", (5, 9));
    for side in [FRENCH, AUSTRIANS] {
        game.apply(
            &Order {
                side,
                action: Action::EndPhase,
            },
            &mut hooks,
        )
        .unwrap_or_else(|r| panic!("{r}"));
    }
    assert!(!game.setting_up());
    assert_eq!(game.state().turn, 1);
    assert_eq!(
        game.phase().map(|(p, _)| p.name.clone()).as_deref(),
        Some("command")
    );
    // Blocks left undeployed stay off the table; a deploy order is refused from now on.
    let div1 = game.piece_by_name("div1").expect("div1").id;
    assert!(!game.piece(div1).expect("div1").on_board());
    let late = try_deploy(&mut game, &mut hooks, FRENCH, "div1", (4, 7)).expect_err("too late");
    assert_eq!(late.kind, RefusalKind::OutOfPhase);
    // prose: the refusal says why.
    assert!(
        late.message.contains("the set-up is over"),
        "{}",
        late.message
    );
}

#[test]
fn a_deployment_outside_the_areas_or_against_stacking_is_refused_and_changes_nothing() {
    let (mut game, mut hooks) = start();
    let before = game.state_bytes();
    let outside = try_deploy(&mut game, &mut hooks, FRENCH, "army", (6, 2)).expect_err("outside");
    assert_eq!(outside.kind, RefusalKind::BadPath, "{}", outside.message);
    // prose: the refusal names the square and the areas.
    assert!(
        outside
            .message
            .contains("(6,2) is outside french's deployment areas"),
        "{}",
        outside.message
    );
    assert_eq!(game.state_bytes(), before);
    // Another side's piece, and orders other than deploying, are refused too.
    let theirs = try_deploy(&mut game, &mut hooks, FRENCH, "corps", (6, 8)).expect_err("not ours");
    assert_eq!(theirs.kind, RefusalKind::BadPiece);
    assert_eq!(game.state_bytes(), before);
    // Stacking: two columns of route cannot share a square (001 [6.98]).
    let text = "scenario: columns\nruleset: square-blocks\nseed: 3\nboard:\n  cols: 6\n  rows: 6\n  regions:\n    south: [[1, 4], [2, 4], [3, 4], [1, 5], [2, 5], [3, 5]]\n    north: [[1, 0], [2, 0], [3, 0]]\nsides:\n  french: { baseline: south }\n  austrians: { baseline: north }\ndeployment:\n  french: { areas: [south] }\n  austrians: { areas: [north] }\npieces:\n  - { id: c1, side: french, type: infantry, mode: road, facing: N, counters: { units: 2, figures: 40 } }\n  - { id: c2, side: french, type: infantry, mode: road, facing: N, counters: { units: 2, figures: 40 } }\n  - { id: hq, side: austrians, type: corps_hq, at: [2, 0], facing: S }\n";
    let ruleset = load_scenario(&root().join(SCENARIO), None)
        .unwrap_or_else(|d| panic!("{d}"))
        .ruleset;
    let s = grognard_rules::load::scenario_from_text("columns.yaml", text, &ruleset)
        .unwrap_or_else(|d| panic!("{d}"));
    let mut game = s
        .start(None, &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    deploy(&mut game, &mut hooks, FRENCH, "c1", (2, 4));
    let placed = game.state_bytes();
    let refused = try_deploy(&mut game, &mut hooks, FRENCH, "c2", (2, 4)).expect_err("stacking");
    assert_eq!(refused.kind, RefusalKind::Occupied, "{}", refused.message);
    assert_eq!(game.state_bytes(), placed);
    deploy(&mut game, &mut hooks, FRENCH, "c2", (3, 4));
}

#[test]
fn a_side_sees_of_the_others_placement_only_what_its_knowledge_allows() {
    let (mut game, mut hooks) = start();
    let french_view = |g: &Game| serde_json::to_string(&g.view(FRENCH)).expect("view");
    let at_start = french_view(&game);
    // A block flagged hidden (concealed) is placed: the French learn nothing of it.
    deploy(&mut game, &mut hooks, AUSTRIANS, "abr1", (3, 2));
    let abr1 = game.piece_by_name("abr1").expect("abr1").id;
    assert_eq!(game.handle_of(FRENCH, abr1), None);
    assert_eq!(french_view(&game), at_start);
    // A dummy in the open: the set-up is blind in square blocks (`sighting.blind_setup`,
    // sixth outside audit: 000 has scouts roll Scout Fate before they learn anything), so
    // the French learn nothing of it either while the sides set up.
    deploy(&mut game, &mut hooks, AUSTRIANS, "adum1", (9, 0));
    let adum1 = game.piece_by_name("adum1").expect("adum1").id;
    assert_eq!(game.handle_of(FRENCH, adum1), None);
    assert_eq!(french_view(&game), at_start);
    // Nor does the French log name either piece.
    let log = serde_json::to_string(&game.side_events(FRENCH)).expect("log");
    assert!(!log.contains("adum1") && !log.contains("abr1"), "{log}");
}

#[test]
fn the_set_up_example_plays_and_replays() {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(dir.path());
    // Both sides' set-up phase first, the army deployed at (6,9), and the game on into
    // turn 4 (French command phase), all on `play --json`.
    let played = play_json_in(
        dir.path(),
        SCENARIO,
        "examples/square-blocks-setup.orders.yaml",
        &["--save", "game.json"],
    );
    assert_eq!(played.code, 0, "{:?}", played.refused);
    let first = &played.events[0];
    assert!(
        first["event"] == "phase_began"
            && first["phase"] == "set-up"
            && first["phasing"] == "french and austrians",
        "{first}"
    );
    assert!(
        played.has("arrived", "army", |e| {
            e["at"] == serde_json::json!({"col": 6, "row": 9}) && e["reason"] == "deployed"
        }),
        "{:?}",
        played.events
    );
    let turn_4 = [
        ("turn", 4.into()),
        ("phase", "command".into()),
        ("phasing", "french".into()),
    ];
    assert!(
        has_event(&played.events, "phase_began", &turn_4),
        "{:?}",
        played.events
    );
    let replay = grognard_in(dir.path(), &["replay", "game.json"]);
    assert_eq!(replay.code, 0, "{}", replay.stderr);
    // prose: replay's report.
    assert!(
        replay.stdout.contains("replay verified"),
        "{}",
        replay.stdout
    );
    // The orders of battle are part of the scenario: changing one refuses the replay.
    let oob = dir.path().join(AUSTRIAN_OOB);
    let text = std::fs::read_to_string(&oob).expect("oob");
    std::fs::write(
        &oob,
        text.replace("units: 5, figures: 100", "units: 6, figures: 120"),
    )
    .expect("write");
    let changed = grognard_in(dir.path(), &["replay", "game.json"]);
    assert_ne!(changed.code, 0, "{}", changed.stdout);
}

#[test]
fn validate_checks_each_part_and_the_whole() {
    let run = grognard(&["validate", SCENARIO, FRENCH_OOB, AUSTRIAN_OOB]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // prose: validate's report of each part, and its errors at their lines below.
    assert!(
        run.stdout
            .contains("french's order of battle for scenario square-blocks-setup")
    );

    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(dir.path());
    // A block the French file places north of the river, in the Austrian area.
    let french = dir.path().join(FRENCH_OOB);
    let text = std::fs::read_to_string(&french).expect("oob");
    std::fs::write(
        &french,
        text.replace(
            "{ id: div1, type: infantry, facing: N,",
            "{ id: div1, type: infantry, at: [4, 2], facing: N,",
        ),
    )
    .expect("write");
    for file in [FRENCH_OOB, SCENARIO] {
        let run = grognard_in(dir.path(), &["validate", file]);
        assert_eq!(run.code, 1, "{file}: {}", run.stdout);
        assert!(
            run.stderr
                .contains("examples/setup/square-blocks-setup.french.yaml:11:")
                && run.stderr.contains(
                    "piece `div1` (french) stands at (4,2), in austrians's deployment areas"
                ),
            "{file}: {}",
            run.stderr
        );
    }
    // A file read for the wrong side, and a piece of the other side in it.
    std::fs::write(
        &french,
        text.replace("order_of_battle: french", "order_of_battle: austrians"),
    )
    .expect("write");
    let run = grognard_in(dir.path(), &["validate", SCENARIO]);
    assert!(
        run.stderr
            .contains("this is austrians's order of battle, but the scenario reads it for french"),
        "{}",
        run.stderr
    );
    std::fs::write(
        &french,
        text.replace(
            "{ id: fdum2, type: dummy,",
            "{ id: fdum2, side: austrians, type: dummy,",
        ),
    )
    .expect("write");
    let run = grognard_in(dir.path(), &["validate", SCENARIO]);
    assert!(
        run.stderr
            .contains("piece `fdum2` is of austrians, but this is french's order of battle"),
        "{}",
        run.stderr
    );
    // Areas that overlap, at the scenario's line.
    std::fs::write(&french, &text).expect("write");
    let scenario = dir.path().join(SCENARIO);
    let s = std::fs::read_to_string(&scenario).expect("scenario");
    std::fs::write(
        &scenario,
        s.replace(
            "areas: [french_side]",
            "areas: [french_side, austrian_side]",
        ),
    )
    .expect("write");
    let run = grognard_in(dir.path(), &["validate", SCENARIO]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains(
            "examples/square-blocks-setup.yaml:57:24: `austrian_side` overlaps french's deployment \
             areas at (0,0) and 47 more cells; the sides' areas may not overlap"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn a_bad_deploy_order_is_refused_at_the_orders_files_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let orders = dir.path().join("o.yaml");
    std::fs::write(
        &orders,
        "orders:\n  - { side: french, deploy: { piece: army, at: [6, 9] } }\n  - { side: french, deploy: { piece: div1, at: [6, 2] } }\n",
    )
    .expect("write");
    let played = crate::util::play_json(SCENARIO, &orders.to_string_lossy());
    assert!(
        played
            .refusal_kind
            .as_deref()
            .is_some_and(|k| k == "bad_path"),
        "{:?}",
        played.refused
    );
    let army = played.find("arrived", "army", |e| {
        e["at"] == serde_json::json!({"col": 6, "row": 9})
    });
    assert!(
        army.is_some() && !played.has("arrived", "div1", |_| true),
        "{:?}",
        played.events
    );
    let run = grognard(&["play", SCENARIO, "--orders", &orders.to_string_lossy()]);
    assert_eq!(run.code, 1);
    // prose: the refusal names the line and the rule.
    assert!(
        run.stderr
            .contains("o.yaml:3:5: refused: (6,2) is outside french's deployment areas"),
        "{}",
        run.stderr
    );
}
