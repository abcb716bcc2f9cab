//! The legal listing and what its checks may keep. The kernel promises the hooks
//! (`Hooks::listing_begins`) that the state a listing names does not change until
//! `listing_ends`; the Lua host lends the checks asked on that state one `game:memo()`
//! table for the whole listing, and every other call a fresh one. Checked with the fixture
//! `tests/fixtures/hooks/memo.yaml` (a check that counts its calls in its memo) and on
//! Black Powder's example, whose `may_move` and brigade order checks keep what they read
//! there: a watch around its hooks compares the listed state at every check asked on it.

mod common;

use grognard_kernel::Cost;
use grognard_kernel::action::{Action, Order};
use grognard_kernel::game::{Game, World};
use grognard_kernel::geometry::open::{Angle, Point};
use grognard_kernel::geometry::{Cell, Facing};
use grognard_kernel::hooks::{
    HookCommand, HookDice, HookFailure, HookFault, HookPoint, HookVerdict, Hooks,
};
use grognard_kernel::ids::{ActionId, ModeId, PieceId, SideId};
use grognard_kernel::state::State;
use grognard_lua::{Limits, LuaHooks};

const PIECES: &str = "  - { id: a, side: blue, type: infantry, at: [1, 1], facing: E }
  - { id: b, side: blue, type: infantry, at: [4, 1], facing: E }
  - { id: c, side: blue, type: infantry, at: [2, 4], facing: E }
  - { id: foe, side: red, type: infantry, at: [5, 5], facing: W }
";

fn start() -> (Game, LuaHooks) {
    common::start(
        "tests/fixtures/hooks/memo.yaml",
        "memo.yaml",
        &common::empty_6x6("memo", "", PIECES),
    )
}

/// The fixture's global list `name` (numbers), as it stands.
fn numbers(hooks: &LuaHooks, name: &str) -> Vec<i64> {
    let t: mlua::Table = hooks.sandbox().lua().globals().get(name).expect(name);
    t.sequence_values::<i64>()
        .map(|v| v.expect("a number"))
        .collect()
}

/// How many memo tables the fixture's check has seen.
fn tables(hooks: &LuaHooks) -> usize {
    let t: mlua::Table = hooks
        .sandbox()
        .lua()
        .globals()
        .get("tables")
        .expect("tables");
    t.raw_len()
}

fn blue(game: &Game) -> SideId {
    game.piece_by_name("a").expect("a").side
}

#[test]
fn the_checks_of_one_listing_share_one_memo_and_the_next_listing_gets_its_own() {
    let (game, mut hooks) = start();
    let listed = game.legal_orders(blue(&game), &mut hooks);
    let first = numbers(&hooks, "counts");
    // Three blue actors, each with three friendly targets (itself included).
    assert!(
        first.len() >= 6,
        "the check was asked {} times",
        first.len()
    );
    assert_eq!(first, (1..=first.len() as i64).collect::<Vec<_>>());
    assert_eq!(tables(&hooks), 1);
    let again = game.legal_orders(blue(&game), &mut hooks);
    assert_eq!(again, listed, "the memo changes no answer");
    let all = numbers(&hooks, "counts");
    assert_eq!(
        &all[first.len()..],
        &first[..],
        "the second listing starts afresh"
    );
    assert_eq!(tables(&hooks), 2);
}

#[test]
fn apply_and_the_scripts_get_a_fresh_memo_every_call() {
    let (mut game, mut hooks) = start();
    let _ = game.legal_orders(blue(&game), &mut hooks);
    let listed = numbers(&hooks, "counts").len();
    let (a, b) = (
        game.piece_by_name("a").expect("a").id,
        game.piece_by_name("b").expect("b").id,
    );
    let tally = Order {
        side: blue(&game),
        action: Action::Act {
            piece: a,
            action: game.rules().action_by_name("tally").expect("tally"),
            target: Some(b),
            intent: Vec::new(),
        },
    };
    for _ in 0..2 {
        let events = game.apply(&tally, &mut hooks).expect("tally");
        assert_eq!(common::notes(&events), ["script memo n=nil"]);
    }
    // Each check `apply` asked counted in a memo of its own.
    assert_eq!(&numbers(&hooks, "counts")[listed..], &[1, 1]);
    assert_eq!(tables(&hooks), 3);
}

/// Black Powder's hooks, watched: from `listing_begins` to `listing_ends` the listed
/// state's address and a copy of it, compared with the world of every check asked there.
struct Watch {
    inner: LuaHooks,
    listed: Option<(usize, State)>,
    listings: usize,
    checks_on_listed: usize,
}

impl Watch {
    fn saw(&mut self, world: &World<'_>) {
        if let Some((at, copy)) = &self.listed
            && std::ptr::from_ref(world.state) as usize == *at
        {
            assert!(
                world.state == copy,
                "the listed state changed during its listing"
            );
            self.checks_on_listed += 1;
        }
    }
}

impl Hooks for Watch {
    fn move_cost(
        &mut self,
        w: &World<'_>,
        p: PieceId,
        f: Cell,
        t: Cell,
        d: Option<Cost>,
    ) -> Result<Option<Cost>, HookFailure> {
        self.inner.move_cost(w, p, f, t, d)
    }
    fn move_ban_reason(
        &mut self,
        w: &World<'_>,
        p: PieceId,
        f: Cell,
        t: Cell,
        d: Option<Cost>,
    ) -> Option<String> {
        self.inner.move_ban_reason(w, p, f, t, d)
    }
    fn move_cost_is_pure(&self) -> bool {
        self.inner.move_cost_is_pure()
    }
    fn move_cost_reads_from(&self) -> bool {
        self.inner.move_cost_reads_from()
    }
    fn stops(&mut self, w: &World<'_>, p: PieceId, f: Cell, t: Cell) -> Result<bool, HookFailure> {
        self.inner.stops(w, p, f, t)
    }
    fn stop_reason(&mut self, w: &World<'_>, p: PieceId, f: Cell, t: Cell) -> Option<String> {
        self.inner.stop_reason(w, p, f, t)
    }
    fn phase_begin(
        &mut self,
        w: &World<'_>,
        ph: &str,
        d: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        self.inner.phase_begin(w, ph, d)
    }
    fn phase_end(
        &mut self,
        w: &World<'_>,
        ph: &str,
        d: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        self.inner.phase_end(w, ph, d)
    }
    fn moved(
        &mut self,
        w: &World<'_>,
        p: PieceId,
        path: &[Cell],
        f: Facing,
        d: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        self.inner.moved(w, p, path, f, d)
    }
    fn moved_on_table(
        &mut self,
        w: &World<'_>,
        p: PieceId,
        from: Point,
        f: Angle,
        d: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        self.inner.moved_on_table(w, p, from, f, d)
    }
    fn faced(
        &mut self,
        w: &World<'_>,
        p: PieceId,
        b: Facing,
        d: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        self.inner.faced(w, p, b, d)
    }
    fn mode_changed(
        &mut self,
        w: &World<'_>,
        p: PieceId,
        b: ModeId,
        d: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        self.inner.mode_changed(w, p, b, d)
    }
    fn may_face(&mut self, w: &World<'_>, p: PieceId, f: Facing) -> Result<(), HookFailure> {
        self.saw(w);
        self.inner.may_face(w, p, f)
    }
    fn may_face_reads_facing(&self) -> bool {
        self.inner.may_face_reads_facing()
    }
    fn may_move_on_table(
        &mut self,
        w: &World<'_>,
        p: PieceId,
        to: Point,
        f: Angle,
    ) -> Result<(), HookFailure> {
        self.saw(w);
        self.inner.may_move_on_table(w, p, to, f)
    }
    fn action_check(
        &mut self,
        w: &World<'_>,
        a: ActionId,
        actor: PieceId,
        t: Option<PieceId>,
        i: &[String],
    ) -> Result<(), HookFailure> {
        self.saw(w);
        self.inner.action_check(w, a, actor, t, i)
    }
    fn check_read_intent(&self) -> bool {
        self.inner.check_read_intent()
    }
    fn listing_begins(&mut self, state: &State) {
        assert!(self.listed.is_none(), "listings do not nest");
        self.listed = Some((std::ptr::from_ref(state) as usize, state.clone()));
        self.listings += 1;
        self.inner.listing_begins(state);
    }
    fn listing_ends(&mut self) {
        assert!(
            self.listed.take().is_some(),
            "a listing ends after it began"
        );
        self.inner.listing_ends();
    }
    fn is_bound(&self, p: HookPoint) -> bool {
        self.inner.is_bound(p)
    }
    fn result(
        &mut self,
        w: &World<'_>,
        e: bool,
        p: &dyn Fn() -> Vec<i32>,
    ) -> Result<Option<HookVerdict>, HookFailure> {
        self.inner.result(w, e, p)
    }
    fn take_fault(&mut self) -> Option<HookFault> {
        self.inner.take_fault()
    }
    fn has_fault(&self) -> bool {
        self.inner.has_fault()
    }
    fn action(
        &mut self,
        w: &World<'_>,
        a: ActionId,
        actor: PieceId,
        t: Option<PieceId>,
        o: Option<&str>,
        d: &mut HookDice<'_>,
    ) -> Result<Vec<HookCommand>, HookFailure> {
        self.inner.action(w, a, actor, t, o, d)
    }
}

#[test]
fn black_powder_checks_read_one_unchanged_game_through_each_listing() {
    let s = grognard_rules::load::load_scenario(
        &common::root().join("examples/black-powder.yaml"),
        None,
    )
    .unwrap_or_else(|d| panic!("{d}"));
    let mut hooks = Watch {
        inner: LuaHooks::new(&s.ruleset, Limits::default()).unwrap_or_else(|d| panic!("{d}")),
        listed: None,
        listings: 0,
        checks_on_listed: 0,
    };
    let mut game = s
        .start(Some(3), &[], &mut hooks)
        .unwrap_or_else(|d| panic!("{d}"));
    for n in 0..30usize {
        let Some(&side) = game.to_act().first() else {
            break;
        };
        let legal = game.legal_orders(side, &mut hooks);
        assert!(hooks.listed.is_none(), "every listing ended");
        // Orders spread over the list (moves, actions and the phase's end alike).
        let action = legal[(n * 7919) % legal.len()].clone();
        // A listed order may meet what the side could not see: the phase then ends.
        if game.apply(&Order { side, action }, &mut hooks).is_err() {
            game.apply(
                &Order {
                    side,
                    action: Action::EndPhase,
                },
                &mut hooks,
            )
            .expect("the phase ends");
        }
    }
    assert!(hooks.listings >= 30, "{} listings", hooks.listings);
    assert!(
        hooks.checks_on_listed > 100,
        "only {} checks were asked on a listed state",
        hooks.checks_on_listed
    );
}
