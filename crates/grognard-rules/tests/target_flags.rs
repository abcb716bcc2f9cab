//! An action's target flag filters (`target_needs`, `target_barred_by`): misuse is an
//! error at its line, a target that fails them is refused in the engine's words, and the
//! legal listing leaves it out without asking any script.

use grognard_kernel::action::{Action, Order};
use grognard_kernel::hooks::NoHooks;
use grognard_kernel::ids::{ActionId, PieceId, SideId};
use grognard_rules::load::{load_ruleset, load_scenario};

/// A small grid ruleset whose actions `strike` and `spare` have the keys given.
fn ruleset(strike: &str, spare: &str) -> String {
    format!(
        "\
ruleset: flags
geometry: {{ kind: square }}
modes: {{ normal: {{}} }}
flags:
  marked: {{}}
  fired: {{ clears: phase_end }}
terrain: {{ clear: {{}} }}
movement: {{ foot: {{}} }}
piece_types:
  inf: {{ movement: foot, allowance: {{ normal: 4 }} }}
actions:
  strike: {strike}
  spare: {spare}
sequence:
  side_turn: [{{ phase: act, allows: [strike, spare] }}]
"
    )
}

/// Writes the files to a folder of their own (the tests run at once) and runs `f` on it.
fn in_folder<R>(files: &[(&str, &str)], f: impl FnOnce(&std::path::Path) -> R) -> R {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("grognard-tflags-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write");
    }
    let out = f(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn compile_errors(strike: &str, spare: &str) -> Result<(), String> {
    in_folder(&[("r.yaml", &ruleset(strike, spare))], |dir| {
        load_ruleset(&dir.join("r.yaml"))
            .map(|_| ())
            .map_err(|d| d.to_string())
    })
}

const PLAIN: &str = "{ target: enemy }";

#[test]
fn target_flag_filters_are_checked_where_written() {
    for (strike, want) in [
        (
            "{ target_needs: [marked] }",
            "r.yaml:12:28: a target flag filter needs a target (`target: enemy` or `friend`)",
        ),
        (
            "{ target: enemy, target_barred_by: [markd] }",
            "r.yaml:12:47: unknown flag `markd`",
        ),
        (
            "{ target: enemy, target_needs: [marked], target_barred_by: [fired, marked] }",
            "r.yaml:12:78: flag `marked` is in both `target_needs` and `target_barred_by`: no \
             target could be taken",
        ),
    ] {
        let errors = compile_errors(strike, PLAIN).expect_err(strike);
        assert!(errors.contains(want), "{strike}: {errors}");
    }
    compile_errors(
        "{ target: enemy, target_needs: [marked] }",
        "{ target: enemy, target_barred_by: [marked, fired] }",
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

const SCENARIO: &str = "\
scenario: marked
ruleset: r.yaml
board: { cols: 6, rows: 6 }
sides:
  blue: {}
  red: {}
pieces:
  - { id: b1, side: blue, type: inf, at: [1, 1] }
  - { id: r_plain, side: red, type: inf, at: [3, 3] }
  - { id: r_marked, side: red, type: inf, at: [4, 4], flags: [marked] }
";

/// `strike` needs a marked target, `spare` one that is not: each is refused at the other
/// enemy in the engine's words and listed only at the right one.
#[test]
fn a_target_without_a_needed_flag_or_with_a_barring_one_is_refused_and_not_listed() {
    let rules = ruleset(
        "{ target: enemy, target_needs: [marked] }",
        "{ target: enemy, target_barred_by: [marked] }",
    );
    in_folder(&[("r.yaml", &rules), ("s.yaml", SCENARIO)], |dir| {
        let scenario = load_scenario(&dir.join("s.yaml"), None).unwrap_or_else(|e| panic!("{e}"));
        let mut hooks = NoHooks;
        let game = scenario
            .start(Some(1), &[], &mut hooks)
            .unwrap_or_else(|e| panic!("{e}"));
        let (b1, plain, marked) = (PieceId(0), PieceId(1), PieceId(2));
        let (strike, spare) = (ActionId(0), ActionId(1));
        let act = |action, target| Action::Act {
            piece: b1,
            action,
            target: Some(target),
            intent: Vec::new(),
        };
        let refusal = |action, target| {
            let mut g = game.clone();
            g.apply(
                &Order {
                    side: SideId(0),
                    action: act(action, target),
                },
                &mut NoHooks,
            )
            .expect_err("refused")
            .message
        };
        assert_eq!(
            refusal(strike, plain),
            "r_plain cannot be targeted by strike unless marked"
        );
        assert_eq!(
            refusal(spare, marked),
            "r_marked cannot be targeted by spare while marked"
        );
        let legal = game.legal_orders(SideId(0), &mut NoHooks);
        assert!(legal.contains(&act(strike, marked)), "{legal:?}");
        assert!(legal.contains(&act(spare, plain)), "{legal:?}");
        assert!(!legal.contains(&act(strike, plain)), "{legal:?}");
        assert!(!legal.contains(&act(spare, marked)), "{legal:?}");
        for (action, target) in [(strike, marked), (spare, plain)] {
            let mut g = game.clone();
            g.apply(
                &Order {
                    side: SideId(0),
                    action: act(action, target),
                },
                &mut NoHooks,
            )
            .unwrap_or_else(|e| panic!("{}", e.message));
        }
    });
}
