//! The dice log explains a computed amount: the multiplying modifier that halved the d6,
//! how it rounded, and the hits it came to (`tests/fixtures/amounts/` at the workspace root).

use std::path::Path;

use grognard_editor::session::{Session, dice_log};
use grognard_rules::load::load_scenario;
use grognard_rules::orders::resolve_order;

#[test]
fn the_dice_log_shows_the_halving_and_the_hits() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scenario = load_scenario(&root.join("tests/fixtures/amounts/town.yaml"), None)
        .expect("the fixture loads");
    let orders =
        grognard_rules::load::load_orders(&root.join("tests/fixtures/amounts/town.orders.yaml"))
            .expect("orders load");
    let mut session = Session::start(scenario, &[]).expect("starts");
    for o in &orders {
        let order = resolve_order(&session.game, &o.value).expect("resolves");
        session.apply(order).expect("accepted");
    }
    let log = dice_log(&session.scenario.ruleset, session.game.log());
    let roll = log.last().expect("a roll");
    let die: i32 = roll[1]
        .trim_start_matches("  dice: d6 shows ")
        .split(' ')
        .next()
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("{roll:?}"));
    // d6 halved in cover, rounding up: 1,2 → 1; 3,4 → 2; 5,6 → 3.
    let hits = (die + 1) / 2;
    let rounded = if die % 2 == 1 { ", rounded up" } else { "" };
    assert_eq!(
        roll[2],
        format!("  halved (cover){rounded}: {hits}"),
        "{roll:?}"
    );
    assert_eq!(roll[3], format!("  score {hits} → hits"), "{roll:?}");
    // The counter's plural name agrees with the number: one hit, two hits.
    let said = if hits == 1 {
        "  1 hit".to_owned()
    } else {
        format!("  {hits} hits")
    };
    assert_eq!(roll[4], said, "{roll:?}");
}
