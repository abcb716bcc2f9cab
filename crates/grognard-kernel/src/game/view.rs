//! What a side receives: [`Game::view`], [`Game::events_for`], each side's log as an order
//! is accepted (`append_side_logs`), the perceived state and reach as a side can judge it,
//! names as a side may read them, and the guard that gives orders naming unseen pieces one
//! fixed wording. The view types and the redaction of one event are in [`crate::view`].

use super::Game;
use crate::action::{Action, Ban, Event, Order, Refusal, RefusalKind};
use crate::hooks::Hooks;
use crate::ids::{PieceId, SideId};
use crate::knowledge::{Disclosure, Knowledge, Known};
use crate::piece::{Piece, Place};
use crate::state::{Reach, State};

use crate::view::{EnemyPiece, PieceNames, View, redact};

/// The random stream decoys' names are drawn from (sides roll on streams 1, 2, ...).
const DECOY_NAME_STREAM: u64 = 0xDEC0_0001;

/// The facts a view shows of an enemy piece from an earlier sighting, not disclosed now
/// (a marker turned face down again keeps its type and strength in the side's memory).
fn remembered(k: &Known) -> Vec<String> {
    [
        (k.real.is_some(), Disclosure::REAL),
        (k.kind.is_some(), Disclosure::KIND),
        (k.strength.is_some(), Disclosure::STRENGTH),
        (k.identity.is_some(), Disclosure::IDENTITY),
    ]
    .into_iter()
    .filter(|&(shown, fact)| shown && !k.now.has(fact))
    .flat_map(|(_, fact)| fact.names())
    .map(str::to_owned)
    .collect()
}

/// Why the hidden-information guard refuses an order ([`Game::hidden_guard`]), kept as
/// data until its words are needed (a [`Ban`], as `bans.rs` lists).
#[derive(Clone, Copy, Debug)]
enum HiddenBan {
    /// The order's actor is not one of the side's pieces (or no piece at all).
    NotYours(PieceId),
    /// The order's target is a piece the side cannot see.
    NotInSight(PieceId),
}

impl Ban for HiddenBan {
    /// The game and the ordering side: a piece is named only as the side may (one it has no
    /// handle for, hidden or no piece at all, reads the same).
    type Cx<'c> = (&'c Game, SideId);

    fn kind(&self) -> RefusalKind {
        match self {
            Self::NotYours(_) => RefusalKind::BadPiece,
            Self::NotInSight(_) => RefusalKind::BadTarget,
        }
    }

    fn words(self, (game, side): Self::Cx<'_>) -> String {
        let named = |id: PieceId| match game.handle_of(side, id) {
            Some(_) => game.order_name_as(Some(side), id),
            None => "that piece".to_owned(),
        };
        match self {
            Self::NotYours(a) => super::bans::not_yours(named(a)),
            Self::NotInSight(t) => match game.handle_of(side, t) {
                Some(_) => format!("there is no piece {} in sight", named(t)),
                None => "there is no such piece in sight".to_owned(),
            },
        }
    }
}

impl Game {
    /// `side`'s view: its own pieces in full and enemy pieces only as it knows them. A
    /// function of the side's pieces, its knowledge and the public phase cursor alone.
    /// Every piece is named by the side's handle for it ([`Game::handle_of`]), enemy
    /// pieces listed in handle order. Without sighting rules every piece is in plain view
    /// (and its handle is its place in the scenario).
    #[must_use]
    pub fn view(&self, side: SideId) -> View {
        let state = &self.state;
        let hidden = self.sighting().is_some();
        let relabel = |p: &Piece| {
            let mut p = p.clone();
            if hidden {
                p.id = self.handle_of(side, p.id).map_or(p.id, PieceId);
                p.attached_to = p
                    .attached_to
                    .and_then(|a| self.handle_of(side, a))
                    .map(PieceId);
            }
            p
        };
        let own: Vec<Piece> = state
            .pieces
            .iter()
            .filter(|p| p.side == side)
            .map(relabel)
            .collect();
        let own_face_up: Vec<PieceId> = state
            .pieces
            .iter()
            .filter(|p| p.side == side)
            .zip(&own)
            .filter(|(p, _)| {
                // A piece standing unconcealed whose public facts hold all a flip discloses
                // shows its face to every player anyway: listing it would tell its owner
                // only which enemies see it, and so whether an unidentified marker near it
                // is a real observer or a fake (Hex Command).
                self.sighting()
                    .is_some_and(|s| s.face_up.0 & !s.public.0 != 0 || self.concealed(state, p))
                    && p.on_board()
                    && state.face_up.get(p.id.index()).copied().unwrap_or(false)
            })
            .map(|(_, o)| o.id)
            .collect();
        let type_name = |k| self.rules().piece_type(k).map(|t| t.name.clone());
        let enemy = match (self.sighting(), state.knowledge.get(side.index())) {
            (Some(s), Some(knowledge)) => knowledge
                .learnt
                .iter()
                .enumerate()
                .filter_map(|(n, id)| {
                    let i = id.index();
                    let handle = (own.len() + n) as u32;
                    // Under a handle the piece no longer has (lost into concealment), what
                    // the side remembers of it there.
                    let k = knowledge
                        .of
                        .get(i)
                        .filter(|k| k.handle == Some(handle))
                        .or_else(|| knowledge.ghosts.iter().find(|g| g.handle == Some(handle)))?;
                    let owner = state.pieces.get(i).map(|p| p.side)?;
                    let here = k.now.has(Disclosure::POSITION);
                    // A piece the side saw leave the table is gone from its view; one that
                    // went out of sight stays, where the side last saw it.
                    if !here
                        && k.seen
                            .as_ref()
                            .is_some_and(|x| matches!(x.place, Place::Off))
                    {
                        return None;
                    }
                    Some(EnemyPiece {
                        handle: PieceId(handle),
                        side: owner,
                        place: here
                            .then(|| k.seen.as_ref().map(|x| x.place.clone()))
                            .flatten(),
                        facing: here.then(|| k.seen.as_ref().map(|x| x.facing)).flatten(),
                        last_seen: if here { None } else { k.seen.clone() },
                        level: k
                            .level
                            .and_then(|l| s.levels.get(usize::from(l)))
                            .map(|d| d.name.clone()),
                        face_up: here
                            && (state.face_up.get(i).copied().unwrap_or(false)
                                || state
                                    .pieces
                                    .get(i)
                                    .is_some_and(|p| self.flipped_for(s, p, k.level))),
                        real: k.real,
                        kind: k.kind.and_then(type_name),
                        strength: k.strength,
                        identity: k.identity.as_ref().map(|p| {
                            let mut p = relabel(p);
                            p.id = PieceId(handle);
                            self.unowned(&p)
                        }),
                        facing_name: here
                            .then(|| {
                                k.seen
                                    .as_ref()
                                    .map(|x| self.facing_name(&x.place, x.facing))
                            })
                            .flatten(),
                        names: k.identity.as_ref().map(|p| self.unowned_names(p)),
                        // Public with its position (or identity: `mode_with_identity`).
                        mode: (here && (!s.mode_with_identity || knowledge.knows_identity(*id)))
                            .then(|| state.pieces.get(i))
                            .flatten()
                            .map(|p| self.rules().mode_name(p.mode).to_owned()),
                        remembered: remembered(k),
                    })
                })
                .collect(),
            _ => self.enemies_in_plain_view(side),
        };
        let phase = self.phase();
        View {
            side,
            side_name: self
                .sides()
                .get(side.index())
                .map_or_else(String::new, |d| d.name.clone()),
            turn: state.turn,
            phase: phase.map(|(p, _)| p.name.clone()),
            phasing: phase.and_then(|(_, s)| self.sides().get(s.index()).map(|d| d.name.clone())),
            over: state.over(),
            result: state.result().cloned(),
            own_names: own.iter().map(|p| self.names_of(p)).collect(),
            own,
            own_face_up,
            enemy,
            built: state
                .built
                .iter()
                .map(|&(a, b, f)| crate::view::BuiltFeature {
                    feature: self
                        .rules()
                        .features
                        .get(f.index())
                        .map_or_else(String::new, |d| d.name.clone()),
                    between: [a, b],
                })
                .collect(),
        }
    }

    /// Every enemy piece as a side sees it without sighting rules: in plain view, in full,
    /// each under its own id.
    fn enemies_in_plain_view(&self, side: SideId) -> Vec<EnemyPiece> {
        let type_name = |k| self.rules().piece_type(k).map(|t| t.name.clone());
        self.state
            .pieces
            .iter()
            .filter(|p| p.side != side)
            .map(|p| EnemyPiece {
                handle: p.id,
                side: p.side,
                place: p.on_board().then(|| p.place.clone()),
                facing: p.on_board().then_some(p.facing),
                last_seen: None,
                level: None,
                face_up: true,
                real: Some(self.rules().piece_type(p.kind).is_some_and(|t| !t.dummy)),
                kind: type_name(p.kind),
                strength: None,
                identity: Some(self.unowned(p)),
                facing_name: p.on_board().then(|| self.facing_name(&p.place, p.facing)),
                names: Some(self.unowned_names(p)),
                mode: p
                    .on_board()
                    .then(|| self.rules().mode_name(p.mode).to_owned()),
                remembered: Vec::new(),
            })
            .collect()
    }

    /// `p` as another side is shown it: the ruleset's private attributes and counters set
    /// to 0 and its private flags cleared (and left out of its names,
    /// [`Game::unowned_names`]). When the counter of saved
    /// points is private, so is the square they were saved toward, and a piece that saved
    /// this phase shows as one that stood still (not `moved`).
    fn unowned(&self, p: &Piece) -> Piece {
        let mut p = p.clone();
        if let Some(saving) = &self.rules().saving
            && self
                .rules()
                .private_counters
                .contains(&saving.counter.index())
            && p.saved_toward.take().is_some()
        {
            p.moved = false;
        }
        for &i in &self.rules().private_attributes {
            if let Some(v) = p.attributes.get_mut(i) {
                *v = 0;
            }
        }
        for &i in &self.rules().private_counters {
            if let Some(v) = p.counters.get_mut(i) {
                *v = 0;
            }
        }
        for &i in &self.rules().private_flags {
            if i < 64 {
                p.flags &= !(1u64 << i);
            }
        }
        p
    }

    /// `p`'s names as another side is shown them: without the private attributes,
    /// counters and flags.
    fn unowned_names(&self, p: &Piece) -> PieceNames {
        let rules = self.rules();
        let mut names = self.names_of(p);
        for &a in &rules.private_attributes {
            names.attributes.remove(rules.piece_attributes.name(a));
        }
        for &c in &rules.private_counters {
            if let Some(def) = rules.counters.get(c) {
                names.counters.remove(&def.name);
            }
        }
        for &f in &rules.private_flags {
            if let Some(def) = rules.flags.get(f) {
                names.flags.retain(|n| *n != def.name);
            }
        }
        names
    }

    /// True when `e` changes a private counter or flag (`Rules::private_counters`,
    /// `Rules::private_flags`) of another side's piece: `side` is not told.
    fn private_counter_of_other(&self, after: &State, side: SideId, e: &Event) -> bool {
        let rules = self.rules();
        let (piece, private) = match e {
            Event::CounterChanged { piece, counter, .. } => (
                piece,
                rules
                    .private_counters
                    .iter()
                    .any(|&c| rules.counters.get(c).is_some_and(|d| d.name == *counter)),
            ),
            Event::FlagChanged { piece, flag, .. } => (
                piece,
                rules
                    .private_flags
                    .iter()
                    .any(|&f| rules.flags.get(f).is_some_and(|d| d.name == *flag)),
            ),
            _ => return false,
        };
        private
            && after
                .pieces
                .get(piece.index())
                .is_some_and(|p| p.side != side)
    }

    /// `p`'s numbers by the ruleset's names ([`PieceNames`]): what a view gives beside each
    /// piece so that a client needs no compiled tables to read it.
    #[must_use]
    pub fn names_of(&self, p: &Piece) -> PieceNames {
        let rules = self.rules();
        let counters = p
            .counters
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((rules.counters.get(i)?.name.clone(), *v)))
            .collect();
        let flags = rules
            .flags
            .iter()
            .enumerate()
            .filter(|(i, _)| *i < 64 && p.flags & (1u64 << i) != 0)
            .map(|(_, f)| f.name.clone())
            .collect();
        let attributes = p
            .attributes
            .iter()
            .enumerate()
            .filter(|(i, _)| *i < rules.piece_attributes.len())
            .map(|(i, v)| (rules.piece_attributes.name(i).to_owned(), *v))
            .collect();
        PieceNames {
            kind: rules
                .piece_type(p.kind)
                .map_or_else(|| "?".into(), |t| t.name.clone()),
            mode: rules.mode_name(p.mode).to_owned(),
            facing: self.facing_name(&p.place, p.facing),
            counters,
            flags,
            attributes,
            base: matches!(p.place, Place::Point { .. })
                .then(|| super::footprint_of(rules, p, p.mode))
                .flatten(),
        }
    }

    /// A facing by name: the grid's direction, or the angle of a place on the open table.
    fn facing_name(&self, place: &Place, facing: crate::geometry::Facing) -> String {
        match (place, &self.board().surface) {
            (Place::Point { facing, .. }, _) => facing.to_string(),
            (_, crate::board::Surface::Grid { grid, .. }) => grid.facing_name(facing).to_owned(),
            _ => "?".to_owned(),
        }
    }

    /// The number `side` knows piece `id` by: its own pieces are `0..own` in their own
    /// order, enemy pieces `own..` in the order the side learnt of them; `None` for an
    /// enemy piece the side knows nothing of. Without sighting rules every piece is in
    /// plain view and its handle is its place in the scenario (its id).
    #[must_use]
    pub fn handle_of(&self, side: SideId, id: PieceId) -> Option<u32> {
        let h = self.side_handle(&self.state, side, id);
        (h != u32::MAX).then_some(h)
    }

    /// `side`'s handle for `id` in `state` (as [`Game::handle_of`]), `u32::MAX` for a piece
    /// it knows nothing of: the order in which the side is told of several pieces.
    pub(crate) fn side_handle(&self, state: &State, side: SideId, id: PieceId) -> u32 {
        let Some(piece) = state.pieces.get(id.index()) else {
            return u32::MAX;
        };
        if self.sighting().is_none() {
            return id.0;
        }
        if piece.side == side {
            return state.number_in_side(id);
        }
        state
            .knowledge
            .get(side.index())
            .and_then(|k| k.get(id))
            .and_then(|k| k.handle)
            .unwrap_or(u32::MAX)
    }

    /// The piece `side` knows by `handle`, if any ([`Game::handle_of`] reversed).
    #[must_use]
    pub fn piece_by_handle(&self, side: SideId, handle: u32) -> Option<PieceId> {
        let handle = handle as usize;
        if self.sighting().is_none() {
            return (handle < self.state.pieces.len()).then_some(PieceId(handle as u32));
        }
        let mut own = self.state.pieces.iter().filter(|p| p.side == side);
        let count = own.clone().count();
        if handle < count {
            return own.nth(handle).map(|p| p.id);
        }
        let knowledge = self.state.knowledge.get(side.index())?;
        // A handle the piece lost (into concealment) names nothing now.
        knowledge
            .learnt
            .get(handle - count)
            .copied()
            .filter(|id| knowledge.get(*id).and_then(|k| k.handle) == Some(handle as u32))
    }

    /// `side`'s log as it receives it: [`Game::events_for`] with every piece named by the
    /// side's handle for it.
    #[must_use]
    pub fn side_events(&self, side: SideId) -> Vec<Event> {
        let mut events = self.events_for(side).to_vec();
        // Without sighting rules a side's log is the referee's, where an announcement
        // naming pieces is kept with its template; every side knows every piece there, so
        // it reads the referee's words, as a plain note (what a side's log holds).
        for e in &mut events {
            if let Event::NoteNaming { text, .. } = e {
                *e = Event::Note {
                    text: std::mem::take(text),
                };
            }
        }
        if self.sighting().is_some() {
            let knowledge = self.state.knowledge.get(side.index());
            for (n, e) in events.iter_mut().enumerate() {
                // A side's log names only pieces it knows of; `u32::MAX` would show a
                // redaction bug rather than a real id. A piece is named by the handle
                // the side knew it by then (it may since have been lost into
                // concealment and be known afresh).
                e.relabel(&mut |id| {
                    let own = self
                        .state
                        .pieces
                        .get(id.index())
                        .is_some_and(|p| p.side == side);
                    let h = if own {
                        self.handle_of(side, id)
                    } else {
                        knowledge.and_then(|k| k.handle_at(id, n))
                    };
                    PieceId(h.unwrap_or(u32::MAX))
                });
            }
        }
        events
    }

    /// The log as `side` saw it (the whole log without sighting rules).
    #[must_use]
    pub fn events_for(&self, side: SideId) -> &[Event] {
        if self.sighting().is_none() && !crate::rolls::has_secret_charts(self.rules()) {
            return self.log();
        }
        self.side_logs.get(side.index()).map_or(&[], Vec::as_slice)
    }

    /// The state as `side` can know it: enemy pieces it does not know the position of
    /// are taken off the board. What the editor and clients compute reach on.
    #[must_use]
    pub fn perceived(&self, side: SideId) -> State {
        let mut state = self.state.clone();
        if self.sighting().is_some() {
            let knowledge = state
                .knowledge
                .get(side.index())
                .cloned()
                .unwrap_or_default();
            for p in &mut state.pieces {
                if p.side != side && !knowledge.knows_position(p.id) {
                    p.place = Place::Off;
                    p.attached_to = None;
                    if let Some(start) = state.phase_start.get_mut(p.id.index()) {
                        *start = Place::Off;
                    }
                }
            }
        }
        state
    }

    /// What `id` can reach as its own side can judge it (unseen enemies neither block
    /// nor project zones). The move itself may still end early in contact.
    ///
    /// # Errors
    /// As [`Game::reach`].
    pub fn reach_as(
        &self,
        side: SideId,
        id: PieceId,
        hooks: &mut dyn Hooks,
    ) -> Result<Reach, Refusal> {
        match self.state.pieces.get(id.index()) {
            Some(p) if p.side == side => self.reach_in(&self.perceived(side), id, hooks),
            _ => Err(super::bans::PieceBan::NotYours(id, None).refuse(self)),
        }
    }

    /// How `viewer` names a piece in an order: its name when the viewer may read it, or
    /// `#N`, the viewer's handle for a piece it has not identified.
    #[must_use]
    pub fn order_name_as(&self, viewer: Option<SideId>, id: PieceId) -> String {
        match (self.state.pieces.get(id.index()), viewer) {
            (Some(p), Some(side)) if self.label(&self.state, side, p) != p.name => self
                .handle_of(side, id)
                .map_or_else(|| "#?".to_owned(), |h| format!("#{h}")),
            (Some(p), _) => p.name.clone(),
            (None, _) => format!("#{}", id.0),
        }
    }

    /// A piece's name as `viewer` may read it now (`None`: the referee, who reads every
    /// name): see `label`. Unknown ids read `#N`.
    #[must_use]
    pub fn name_as(&self, viewer: Option<SideId>, id: PieceId) -> String {
        match (self.state.pieces.get(id.index()), viewer) {
            (Some(p), Some(side)) => self.label(&self.state, side, p),
            (Some(p), None) => p.name.clone(),
            (None, _) => format!("#{}", id.0),
        }
    }

    /// A piece's name as `viewer` reads it in the `index`-th event of its log
    /// ([`Game::events_for`]): as [`Game::name_as`], but an enemy not identified now is
    /// named by the handle the side knew it by then (it may since have been lost into
    /// concealment and be known afresh under another).
    #[must_use]
    pub fn name_in_log(&self, viewer: Option<SideId>, id: PieceId, index: usize) -> String {
        let (Some(p), Some(side)) = (self.state.pieces.get(id.index()), viewer) else {
            return self.name_as(viewer, id);
        };
        let knowledge = self.state.knowledge.get(side.index());
        let Some(k) = knowledge.filter(|_| p.side != side && self.sighting().is_some()) else {
            return self.name_as(viewer, id);
        };
        let Some(then) = k
            .renames
            .iter()
            .find(|r| r.piece == id && (r.until as usize) > index)
        else {
            return self.name_as(viewer, id);
        };
        // Named as the side knew it under that handle: by name if it identified it then.
        let identified = k
            .ghosts
            .iter()
            .find(|g| g.handle == Some(then.handle))
            .map_or_else(
                || k.get(id).and_then(|x| x.handle) == Some(then.handle) && k.knows_identity(id),
                |g| g.identity.is_some(),
            );
        if identified {
            p.name.clone()
        } else {
            format!("enemy #{}", then.handle)
        }
    }

    /// A piece's name as `side` may read it: the name of its own pieces and of enemies it
    /// has identified, its handle otherwise (`enemy #N`), or `an unseen enemy`.
    pub(crate) fn label(&self, state: &State, side: SideId, piece: &Piece) -> String {
        crate::view::label(&self.rules, state, side, piece)
    }

    /// With hidden information, an order may name only the side's own pieces as actor and
    /// only pieces it can see as target; anything else gets one fixed wording, so the
    /// refusal says nothing about what is there.
    pub(crate) fn hidden_guard(&self, order: &Order) -> Result<(), Refusal> {
        if self.sighting().is_none() {
            return Ok(());
        }
        let (actor, target) = match &order.action {
            Action::Move { piece, .. }
            | Action::MoveTo { piece, .. }
            | Action::Face { piece, .. }
            | Action::Mode { piece, .. }
            | Action::Redeploy { piece, .. }
            | Action::Save { piece, .. }
            | Action::Extend { piece, .. }
            | Action::Gather { piece }
            | Action::Deploy { piece, .. } => (Some(*piece), None),
            Action::Act { piece, target, .. } => (Some(*piece), *target),
            Action::EndPhase => (None, None),
        };
        let side = order.side;
        if let Some(a) = actor
            && self
                .state
                .pieces
                .get(a.index())
                .is_none_or(|p| p.side != side)
        {
            return Err(HiddenBan::NotYours(a).refuse((self, side)));
        }
        if let Some(t) = target {
            let visible = self.state.pieces.get(t.index()).is_some_and(|p| {
                p.side == side
                    || self
                        .state
                        .knowledge
                        .get(side.index())
                        .is_some_and(|k| k.knows_position(t))
            });
            if !visible {
                return Err(HiddenBan::NotInSight(t).refuse((self, side)));
            }
        }
        Ok(())
    }

    /// The side whose turn the current phase belongs to (`None` for phases before and
    /// after the sides' turns).
    pub(crate) fn phase_owner(&self, state: &State) -> Option<SideId> {
        let seq = self.rules().sequence.active(&state.options);
        let step = state.step as usize;
        let first = seq.turn_start.len();
        let sides_part = seq.side_turn.len() * state.order.len();
        if step < first || step >= first + sides_part || seq.side_turn.is_empty() {
            return None;
        }
        let at = if seq.interleaved {
            (step - first) % state.order.len()
        } else {
            (step - first) / seq.side_turn.len()
        };
        state.order.get(at).copied()
    }

    /// Creates the decoys the ruleset's decoy rule asks for (at setup, or when the set-up
    /// ends), for the pieces then on the board.
    pub(crate) fn add_decoys_to(&self, state: &mut State) {
        let Some(rule) = self.sighting().and_then(|s| s.decoys.clone()) else {
            return;
        };
        let on = rule
            .option
            .is_none_or(|o| state.options.get(o).copied().unwrap_or(false));
        if !on {
            return;
        }
        let Some(ty) = self.rules().piece_type(rule.kind).cloned() else {
            return;
        };
        let counters: Vec<i32> = self.rules().counters.iter().map(|c| c.initial).collect();
        let hosts: Vec<Piece> = state
            .pieces
            .iter()
            .filter(|p| p.on_board() && rule.types.contains(&p.kind))
            .cloned()
            .collect();
        // Names drawn at random from a stream of their own (no die roll shifts): a number in
        // the scenario's order would tell an enemy who unmasks a decoy its place in the list
        // and how many pieces came before it.
        let mut names = crate::dice::GameRng::stream(state.rng.seed(), DECOY_NAME_STREAM);
        for host in hosts {
            for _ in 0..rule.per_piece {
                let name = loop {
                    let name = format!("decoy-{}", 1000 + names.below(9000));
                    if state.pieces.iter().all(|p| p.name != name) {
                        break name;
                    }
                };
                let id = PieceId(state.pieces.len() as u32);
                state.pieces.push(Piece {
                    id,
                    name,
                    side: host.side,
                    kind: rule.kind,
                    place: host.place.clone(),
                    facing: host.facing,
                    mode: ty.default_mode,
                    counters: counters.clone(),
                    flags: 0,
                    attributes: ty.attributes.clone(),
                    attached_to: None,
                    moved: false,
                    acted: 0,
                    footprint: None,
                    saved_toward: None,
                });
            }
        }
    }

    /// True when `e` is a private action (`ActionDef::private`) taken by another side's
    /// piece: `side` learns only what its script announces, never the actor.
    fn private_to_others(&self, after: &State, side: SideId, e: &Event) -> bool {
        let Event::Acted { piece, action, .. } = e else {
            return false;
        };
        let theirs = after
            .pieces
            .get(piece.index())
            .is_some_and(|p| p.side != side);
        theirs
            && self
                .rules()
                .actions
                .iter()
                .any(|a| a.private && a.name == *action)
    }

    /// What each side saw of `events`, given what it knew before (`before`) and after
    /// (`after`) them; empty without sighting rules, where every side's log is the log.
    pub(crate) fn seen_by_sides(
        &self,
        before: &State,
        after: &State,
        events: &[Event],
        actor: Option<SideId>,
    ) -> Vec<Vec<Event>> {
        if self.sighting().is_none() {
            return crate::rolls::public_logs(self.rules(), self.sides().len(), events);
        }
        let empty = Knowledge::default();
        (0..self.sides().len())
            .map(|side| {
                let side_id = SideId(side as u8);
                let kb = before.knowledge.get(side).unwrap_or(&empty);
                let ka = after.knowledge.get(side).unwrap_or(&empty);
                let concealed = self
                    .sighting()
                    .and_then(|s| s.concealed_flag)
                    .map(|f| self.rules().flag_name(f));
                let mut reading = crate::view::Reading::new(actor, concealed);
                reading.mode_with_identity = self.sighting().is_some_and(|s| s.mode_with_identity);
                // Each event read, and whether it keeps its place (an announcement naming
                // pieces: the side reads it as a plain note).
                let seen: Vec<(bool, Event)> = events
                    .iter()
                    .filter(|e| !self.private_to_others(after, side_id, e))
                    .filter(|e| !self.private_counter_of_other(after, side_id, e))
                    .filter_map(|e| {
                        let fixed = matches!(e, Event::NoteNaming { to_all: true, .. });
                        redact(after, side_id, kb, ka, &mut reading, e).map(|r| (fixed, r))
                    })
                    .collect();
                // The kernel and the scripts go through pieces in scenario order, so the
                // order of events about several pieces would tell where they stand in the
                // file. A run of events about single pieces (none aimed at another piece)
                // and notes is therefore given in the order of the side's handles, each
                // piece's own events in the order they happened, then the run's notes in
                // the order of their text. Phase starts, initiative, rolls, results and
                // aimed actions (fire, melee, contact) end a run and keep their place, as
                // does an announcement naming pieces (`game:announce` with pieces): every
                // side reads it where the script wrote it, so a note that says what comes
                // next (an owed melee) is not put after what came of it (the twenty-second
                // Hex Command audit's remark: a fake met in melee removed before its note).
                let key = |e: &Event| -> Option<(u32, String)> {
                    match e {
                        Event::Acted {
                            target: Some(_), ..
                        }
                        | Event::Attached { to: Some(_), .. }
                        | Event::Contact { .. }
                        | Event::Rolled { .. } => None,
                        Event::Note { text } | Event::NoteNaming { text, .. } => {
                            Some((u32::MAX, text.clone()))
                        }
                        _ => Some((
                            self.side_handle(after, side_id, e.piece()?)
                                .min(u32::MAX - 1),
                            String::new(),
                        )),
                    }
                };
                let mut ordered = Vec::with_capacity(seen.len());
                let mut run: Vec<((u32, String), Event)> = Vec::new();
                for (fixed, e) in seen {
                    match if fixed { None } else { key(&e) } {
                        Some(k) => run.push((k, e)),
                        None => {
                            run.sort_by(|a, b| a.0.cmp(&b.0));
                            ordered.extend(run.drain(..).map(|(_, e)| e));
                            ordered.push(e);
                        }
                    }
                }
                run.sort_by(|a, b| a.0.cmp(&b.0));
                ordered.extend(run.into_iter().map(|(_, e)| e));
                // One order's events about a piece the side does not own may redact to the
                // same sighted move (a scout leaving its headquarters: detached, then
                // moved): the side saw it move once.
                ordered.dedup_by(|a, b| matches!(a, Event::EnemyMoved { .. }) && a == b);
                ordered
            })
            .collect()
    }

    /// Appends what each side saw to its log.
    pub(crate) fn append_side_logs(&mut self, seen: Vec<Vec<Event>>, next: &mut State) {
        self.side_logs
            .resize(seen.len().max(self.side_logs.len()), Vec::new());
        for (log, more) in self.side_logs.iter_mut().zip(seen) {
            log.extend(more);
        }
        // The handles lost in this order name their pieces in the log up to here.
        for (side, knowledge) in next.knowledge.iter_mut().enumerate() {
            let len = self.side_logs.get(side).map_or(0, Vec::len) as u32;
            for r in &mut knowledge.renames {
                if r.until == u32::MAX {
                    r.until = len;
                }
            }
        }
    }
}
