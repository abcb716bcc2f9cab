//! A side's refusals say nothing of which piece names exist: naming a hidden enemy, an
//! enemy block it has not identified or a dummy by its true name reads exactly as naming a
//! piece no scenario has. The referee, who knows every name, keeps the precise words.

mod common;

use grognard_server::client::Client;
use grognard_server::config::{Access, Config};

/// The refusal `token`'s seat gets for `order` (one orders-file entry, `{X}` the name).
fn refusal(client: &Client, game: &str, token: &str, order: &str, name: &str) -> String {
    let text = format!("orders:\n  - {}\n", order.replace("{X}", name));
    let reply = client
        .orders(game, token, "probe.yaml", &text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(reply.accepted, 0, "{text}");
    reply
        .refused
        .unwrap_or_else(|| panic!("{text} was not refused"))
}

#[test]
fn a_side_cannot_tell_a_hidden_enemy_from_a_name_no_piece_has() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new("127.0.0.1:0", dir.path().join("g.sqlite"), "not used");
    config.access = Access::Open;
    let server = grognard_server::spawn_with(config, String::new()).unwrap();
    let client = Client::new(&server.url()).unwrap();
    let request = common::example("examples/square-blocks.yaml");
    let created = client.create(&request, None).unwrap();
    let (game, french, referee) = (
        created.game.as_str(),
        &created.tokens["french"],
        &created.tokens["referee"],
    );
    // abr1 is set up hidden; corps is a block the French see face down; adum1 is a dummy.
    // Each is named as the piece acting and as the target.
    let orders = [
        "{ side: french, face: { piece: {X}, facing: N } }",
        "{ side: french, act: { piece: scout1, action: forward_deploy, target: {X} } }",
    ];
    for order in orders {
        let none = refusal(&client, game, french, order, "nosuch9");
        assert!(none.contains("nosuch9"), "{none}");
        for real in ["abr1", "corps", "adum1"] {
            let said = refusal(&client, game, french, order, real);
            assert_eq!(
                said.replace(real, "nosuch9"),
                none,
                "the French learn that `{real}` exists from {order}"
            );
        }
        // The referee names every piece, and is told precisely.
        let precise = refusal(&client, game, referee, order, "abr1");
        let unknown = refusal(&client, game, referee, order, "nosuch9");
        assert_ne!(precise.replace("abr1", "nosuch9"), unknown, "{precise}");
    }
    // What the French may name still works: their own pieces.
    let own = refusal(
        &client,
        game,
        french,
        "{ side: french, act: { piece: {X}, action: forward_deploy, target: nosuch9 } }",
        "scout1",
    );
    assert!(own.contains("unknown piece `nosuch9`"), "{own}");
}
