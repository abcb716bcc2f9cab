//! An orders-file entry is a side and exactly one kind of order (issue 35, the fifth outside
//! reading's F1): `OrderSpec::kind` gives the kind as one `OrderKind` variant, or says that
//! the entry names none or several, listing the kinds in the words the file uses. The file's
//! shape is unchanged: each entry reads back as it was written.

use grognard_rules::load::orders_from_text;
use grognard_rules::model::{OrderKind, OrderSpec};

/// One entry of each kind, as docs/scenario-format.md writes them.
const EVERY_KIND: &str = "\
orders:
  - { side: blue, move: { piece: b1, path: [[1, 2], [1, 3]] } }
  - { side: blue, move_to: { piece: b1, to: [3.5, 4], facing: 90 } }
  - { side: blue, face: { piece: b1, facing: NE } }
  - { side: blue, mode: { piece: b1, mode: column } }
  - { side: blue, act: { piece: b1, action: volley, target: r1, intent: [charge] } }
  - { side: blue, redeploy: { piece: d1, to: [4, 4] } }
  - { side: blue, save: { piece: b1, toward: [2, 2] } }
  - { side: blue, extend: { piece: c1, to: [5, 5] } }
  - { side: blue, gather: c1 }
  - { side: blue, deploy: { piece: b1, at: [0, 1], facing: N } }
  - { side: blue, end_phase: true }
";

const KINDS: &str = "each order needs exactly one of `move`, `move_to`, `face`, `mode`, \
                     `act`, `redeploy`, `save`, `extend`, `gather`, `deploy`, `end_phase: true`";

fn entries(text: &str) -> Vec<OrderSpec> {
    orders_from_text("o.yaml", text)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|o| o.value)
        .collect()
}

/// The variant's name, to compare kinds without their contents.
fn name(kind: OrderKind<'_>) -> &'static str {
    match kind {
        OrderKind::Move(_) => "move",
        OrderKind::MoveTo(_) => "move_to",
        OrderKind::Face(_) => "face",
        OrderKind::Mode(_) => "mode",
        OrderKind::Act(_) => "act",
        OrderKind::Redeploy(_) => "redeploy",
        OrderKind::Save(_) => "save",
        OrderKind::Extend(_) => "extend",
        OrderKind::Gather(_) => "gather",
        OrderKind::Deploy(_) => "deploy",
        OrderKind::EndPhase => "end_phase",
    }
}

#[test]
fn each_entry_has_its_one_kind_and_reads_back_as_written() {
    let orders = entries(EVERY_KIND);
    let kinds: Vec<&str> = orders
        .iter()
        .map(|o| name(o.kind().expect("one kind")))
        .collect();
    assert_eq!(
        kinds,
        [
            "move",
            "move_to",
            "face",
            "mode",
            "act",
            "redeploy",
            "save",
            "extend",
            "gather",
            "deploy",
            "end_phase"
        ]
    );
    // What each kind carries, by hand from the text above.
    assert!(matches!(orders[0].kind(), Ok(OrderKind::Move(m)) if m.path == [[1, 2], [1, 3]]));
    assert!(matches!(orders[1].kind(), Ok(OrderKind::MoveTo(m)) if m.facing == Some(90.0)));
    assert!(matches!(orders[4].kind(), Ok(OrderKind::Act(a)) if a.target.as_deref() == Some("r1")));
    assert!(matches!(orders[8].kind(), Ok(OrderKind::Gather("c1"))));
    // The entry's shape is the file's: written out and read again, the same entry (the
    // server sends entries as JSON; saves write them as YAML).
    for o in &orders {
        let json = serde_json::to_value(o).expect("json");
        let back: OrderSpec = serde_json::from_value(json.clone()).expect("back");
        assert_eq!(&back, o, "{json}");
        let keys: Vec<&String> = json.as_object().expect("a mapping").keys().collect();
        assert_eq!(keys.len(), 2, "a side and one kind: {json}");
    }
}

#[test]
fn an_entry_with_no_kind_or_two_is_told_the_kinds() {
    let orders = entries(
        "\
orders:
  - { side: blue }
  - { side: blue, end_phase: false }
  - { side: blue, gather: c1, end_phase: true }
  - { side: blue, move: { piece: b1, path: [] }, face: { piece: b1, facing: N } }
",
    );
    for o in &orders {
        let err = o.kind().expect_err("not one kind");
        assert_eq!(err.to_string(), KINDS, "{o:?}");
    }
}
