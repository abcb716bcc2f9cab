//! Passage of lines as the fourteenth outside editor player met it (docs/audits/
//! black-powder.md, "Found by the fourteenth editor player"): examples/black-powder.yaml
//! played through the binary, asserted on `legal --json` and `play --json`.

use crate::util::{Played, grognard, json_of, play_json_in, root};

const GAME: &str = "examples/black-powder.yaml";

/// Writes `orders` (YAML list lines) to a file of its own named `name` and gives its path.
fn orders_file(name: &str, orders: &str) -> String {
    let dir = std::env::temp_dir().join(format!("grognard-bp-passage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, format!("orders:\n{orders}")).expect("orders file");
    path.to_string_lossy().into_owned()
}

/// Blue ends its initiative and musketry phases: blue's command phase (both sides act).
const TO_BLUE_COMMAND: &str =
    "  - {side: blue, end_phase: true}\n  - {side: blue, end_phase: true}\n";

/// The (piece, target) of every passage of lines `legal --json` lists for `side`.
fn passages(orders: &str, side: &str) -> Vec<(String, String)> {
    let legal = json_of(&grognard(&[
        "legal", GAME, "--orders", orders, "--side", side, "--json",
    ]));
    assert_eq!(legal["phase"], "command", "{legal}");
    (legal["orders"].as_array().into_iter().flatten())
        .filter(|o| o["act"]["action"] == "passage_of_lines")
        .map(|o| {
            let name = |k: &str| o["act"][k].as_str().unwrap_or_default().to_owned();
            (name("piece"), name("target"))
        })
        .collect()
}

/// The outcomes of the passage rolls in `p`, in order.
fn passage_rolls(p: &Played) -> Vec<String> {
    (p.events.iter())
        .filter(|e| e["roll"]["chart"] == "passage_of_lines")
        .map(|e| e["roll"]["outcome"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn no_passage_of_lines_in_the_opponents_command_phase() {
    // 003 Support Charge (../shared/seeds/003_2cb9e4d8a452c8b7.txt, l.686-690): in the
    // opponent's command phase a side answers only with a support charge; Passage of Lines
    // (l.723-725) is declared in the unit's own command phase. The player saw greedy (red)
    // pass br_foot2 through br_foot1 in blue's command phase and disorder both.
    let orders = orders_file("blue-command.orders.yaml", TO_BLUE_COMMAND);
    assert_eq!(passages(&orders, "red"), []);
    // Blue, phasing, still has its passages (fr_ligne through fr_legere among them).
    let blue = passages(&orders, "blue");
    assert!(
        blue.contains(&("fr_ligne".to_owned(), "fr_legere".to_owned())),
        "{blue:?}"
    );
    // Given anyway, red's passage is refused with the reason, and nothing is rolled.
    let given = orders_file(
        "red-passage.orders.yaml",
        &format!(
            "{TO_BLUE_COMMAND}  - {{side: red, act: {{ piece: br_foot2, action: passage_of_lines, target: br_foot1 }} }}\n"
        ),
    );
    let p = play_json_in(&root(), GAME, &given, &[]);
    let why = p.refused.as_deref().unwrap_or_default();
    assert!(
        why.ends_with(
            "refused: br_foot2 may not make a passage of lines in the opponent's command phase (only a support charge may answer there)"
        ),
        "{why}: {:?}",
        p.events
    );
    assert_eq!(passage_rolls(&p), Vec::<String>::new());
}

#[test]
fn skirmishers_and_deployed_guns_pass_without_a_roll() {
    // 003 Passage of Lines (l.729-734): the mover and the unit passed roll 4+ (3+ on a
    // brigade order) or are disordered; any unit passes through skirmishers or a deployed
    // battery with no chance of disorder, and the action's description frees the passage
    // when either is one. The player saw br_rifles (a skirmish company) and br_battery
    // (unlimbered) roll, and disorder br_foot1 and br_foot2.
    let to_red = format!(
        "{TO_BLUE_COMMAND}  - {{side: blue, end_phase: true}}\n  - {{side: red, end_phase: true}}\n  - {{side: blue, end_phase: true}}\n  - {{side: red, end_phase: true}}\n  - {{side: red, end_phase: true}}\n"
    );
    let at_red = orders_file("red-command.orders.yaml", &to_red);
    let red = passages(&at_red, "red");
    for pair in [("br_rifles", "br_foot1"), ("br_battery", "br_foot2")] {
        assert!(
            red.contains(&(pair.0.to_owned(), pair.1.to_owned())),
            "{red:?}"
        );
    }
    let free = orders_file(
        "red-free.orders.yaml",
        &format!(
            "{to_red}  - {{side: red, act: {{ piece: br_rifles, action: passage_of_lines, target: br_foot1 }} }}\n  - {{side: red, act: {{ piece: br_battery, action: passage_of_lines, target: br_foot2 }} }}\n"
        ),
    );
    let p = play_json_in(&root(), GAME, &free, &[]);
    assert_eq!(p.refused, None, "{:?}", p.events);
    assert_eq!(passage_rolls(&p), Vec::<String>::new());
    for (mover, passed) in [("br_rifles", "br_foot1"), ("br_battery", "br_foot2")] {
        let said = format!("{mover} passes through {passed} freely");
        assert!(
            p.events
                .iter()
                .any(|e| e["event"] == "note" && e["text"] == said),
            "{said}: {:?}",
            p.events
        );
    }
    // Two battalions still roll, one each.
    let rolled = orders_file(
        "red-rolled.orders.yaml",
        &format!(
            "{to_red}  - {{side: red, act: {{ piece: br_foot2, action: passage_of_lines, target: br_foot1 }} }}\n"
        ),
    );
    let p = play_json_in(&root(), GAME, &rolled, &[]);
    assert_eq!(p.refused, None, "{:?}", p.events);
    assert_eq!(passage_rolls(&p).len(), 2, "{:?}", p.events);
}
