//! The pure hooks' memory (`move_cost`, `stops`): the settings and options the `rules`
//! table shows them, and their answers per (piece type, mode, terrain, step), forgotten
//! when those constants change. Their answers are a function of their arguments and the
//! constants, so a reach query calls Lua once per distinct question.

use grognard_kernel::Cost;
use grognard_kernel::game::World;
use mlua::{Lua, Table};

/// Settings and optional rules of the game being played, as the pure hooks see them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Constants {
    settings: Vec<i32>,
    options: Vec<bool>,
}

/// Pure-hook results compiled into a table as the engine first asks for them: one slot per
/// (piece type, mode, terrain, straight or diagonal step), sized from the rules, so a
/// repeated question — every step of a reach query after the first few — is an array
/// index, not a hash lookup.
#[derive(Default)]
pub(super) struct PureTable<V> {
    /// Piece types, modes and terrains the slots were laid out for.
    dims: [usize; 3],
    slots: Vec<V>,
}

impl<V: Default + Clone> PureTable<V> {
    /// The slot for a question, laid out on first use (`None` for ids outside the rules).
    pub(super) fn slot(
        &mut self,
        world: &World<'_>,
        kind: u16,
        mode: u16,
        terrain: u16,
        diagonal: bool,
    ) -> Option<&mut V> {
        let rules = world.rules;
        let (kinds, modes, terrains) = (
            rules.piece_types.len(),
            rules.modes.len(),
            rules.terrain.len(),
        );
        // Compared one by one: built as an array on the stack and compared whole, the
        // sizes cost a store-forwarding stall on every call.
        let [k0, m0, t0] = self.dims;
        if k0 != kinds || m0 != modes || t0 != terrains {
            self.dims = [kinds, modes, terrains];
            self.slots = vec![V::default(); kinds * modes * terrains * 2];
        }
        let (k, m, t) = (usize::from(kind), usize::from(mode), usize::from(terrain));
        if k >= kinds || m >= modes || t >= terrains {
            return None;
        }
        self.slots
            .get_mut(((k * modes + m) * terrains + t) * 2 + usize::from(diagonal))
    }

    /// Forgets every answer (the settings or options changed).
    fn clear(&mut self) {
        self.slots.fill(V::default());
    }
}

/// One `move_cost` answer: the data cost asked with (hundredths), the terrain left (or
/// `u16::MAX`), and the answer.
type MoveAnswer = (Option<i32>, u16, Option<Cost>);

/// What the pure hooks (`move_cost`, `stops`) answered, under the settings and options
/// they were asked with.
#[derive(Default)]
pub(super) struct Pure {
    constants: Option<Constants>,
    /// `move_cost` answers per slot: the data's cost (in hundredths) and the terrain left
    /// (`u16::MAX` when the function does not read it) asked with, and the answer; a slot
    /// rarely sees more than one data cost (roads, barriers).
    pub(super) move_cache: PureTable<Vec<MoveAnswer>>,
    pub(super) stop_cache: PureTable<Option<bool>>,
    /// The reason a `stops` hook gave (a string in place of `true`), per slot.
    pub(super) stop_reasons: PureTable<Option<String>>,
}

impl Pure {
    /// Makes `world`'s settings and options the ones the `rules` table shows; forgets the
    /// answers when they change (a new game, or the editor toggling an option).
    pub(super) fn refresh(&mut self, lua: &Lua, world: &World<'_>) -> mlua::Result<()> {
        // Called on every step a pure hook prices: compare in place, copy only on change.
        if self
            .constants
            .as_ref()
            .is_some_and(|c| c.settings == world.state.settings && c.options == world.state.options)
        {
            return Ok(());
        }
        let now = Constants {
            settings: world.state.settings.clone(),
            options: world.state.options.clone(),
        };
        let rules: Table = lua.globals().get("rules")?;
        let settings = lua.create_table()?;
        for (def, v) in world.rules.settings.iter().zip(&now.settings) {
            settings.set(def.name.as_str(), *v)?;
        }
        let options = lua.create_table()?;
        for (def, v) in world.rules.options.iter().zip(&now.options) {
            options.set(def.name.as_str(), *v)?;
        }
        rules.set("_settings", settings)?;
        rules.set("_options", options)?;
        self.move_cache.clear();
        self.stop_cache.clear();
        self.stop_reasons.clear();
        self.constants = Some(now);
        Ok(())
    }
}
