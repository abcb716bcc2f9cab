//! Hex Command (seed 004), the seventh outside audit's findings: an unmasked fake is no
//! target, decision failures and an attached commander, mounted infantry's rout, rallies
//! under the activation sequence and the commander of a withdrawn unit. The positions are
//! in tests/fixtures/audits/hex-command/eighth/ (Blue first: no initiative roll), each
//! worked by hand below; the audit page reruns them.

use crate::util::{Run, grognard_in, root};

use super::field::{has, lacks};

const DIR: &str = "tests/fixtures/audits/hex-command/eighth";

fn at(args: &[&str]) -> Run {
    grognard_in(&root().join(DIR), args)
}

fn played(args: &[&str]) -> String {
    let out = at(args);
    assert_eq!(out.code, 0, "{args:?}: {}{}", out.stdout, out.stderr);
    out.stdout
}

fn rules() -> String {
    std::fs::read_to_string(root().join(super::RULESET)).expect("ruleset")
}

/// 004 l.584 (7f: "the closest target in arc is always the most immediate target
/// selection") with 3.1 (l.465-467: markers are spotted and revealed) and l.264 (hidden
/// movement's fake counters). fakes.yaml: Blue's b (2,4) facing E; Red's 3.1 fake marker f
/// at (4,4), 2 hexes off in clear ground, so unmasked at the first spotting (within 5
/// hexes: automatic), and Red's r at (6,4), 4 hexes off, behind f. Our reading: a fake the
/// firer's side has unmasked is an empty plate, no unit — it is no target (fire at it is
/// refused, and not listed), it is not the nearer target that 7f forces, and it blocks no
/// fire line. So b fires at r across f (band 3 of the small-arms chart). Under hidden
/// movement (fakes-hidden.yaml) r's two fake counters, unmasked with it 4 hexes off, are
/// not listed as targets either. Before: "refused: f is nearer and must be the target", and
/// fire at f (and at r's fakes) was listed and accepted.
#[test]
fn an_unmasked_fake_is_no_target_and_forces_no_choice() {
    let view = played(&[
        "view",
        "--side",
        "blue",
        "fakes.yaml",
        "--orders",
        "fakes-fire.at.yaml",
    ]);
    has(&view, "a dummy, fake_counter");
    let out = played(&["play", "fakes.yaml", "--orders", "fakes.orders.yaml"]);
    has(&out, "b fire at r");
    has(&out, "band 3 (Code'n Color)");
    for scenario in ["fakes.yaml", "fakes-hidden.yaml"] {
        let legal = played(&[
            "legal",
            "--side",
            "blue",
            scenario,
            "--orders",
            "fakes-fire.at.yaml",
        ]);
        has(
            &legal,
            "blue may give 2 orders:\n- { side: blue, act: { piece: b, action: fire, target: r } }\n- { side: blue, end_phase: true }",
        );
    }
    let refused = at(&["play", "fakes.yaml", "--orders", "fakes-at.orders.yaml"]);
    assert_eq!(refused.code, 1, "{}{}", refused.stdout, refused.stderr);
    has(
        &refused.stderr,
        "refused: f is known to be a fake counter: there is no unit there to fire at",
    );
    lacks(&refused.stderr, ".lua:");
    assert!(rules().contains("A fake its side has unmasked"));
}
