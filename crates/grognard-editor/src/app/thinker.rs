//! Who plays a side for the computer on the Play tab, and where it thinks. The quick
//! policies (random, greedy, a Lua file) choose on the window's thread between two frames;
//! a `search` thinks for a second or more per order, so its player lives on a worker
//! thread of its own ([`Thinker`]): the window keeps drawing while it thinks, and its
//! answer is applied only if the game is still where it was when the question was asked.
//!
//! The worker builds its own player (same policy, seed and side, so its choices are the
//! ones it would make on the window's thread) and its own copy of the ruleset's hooks: a
//! Lua state is never shared between threads.

use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};

use grognard_kernel::action::Action;
use grognard_kernel::game::Game;
use grognard_kernel::ids::SideId;
use grognard_play::search::explain::Explanation;
use grognard_play::{Player, PolicyKind};
use grognard_rules::load::Ruleset;

/// A computer seat.
pub(super) enum Computer {
    /// Chooses on the window's thread (it is quick). Boxed: a player is large beside a
    /// worker's handle.
    Here(Box<Player>),
    /// Thinks on a worker thread.
    Away {
        /// The policy, for the seat's box.
        kind: PolicyKind,
        /// The worker.
        thinker: Thinker,
    },
}

impl Computer {
    /// The seat for `kind`: a search thinks away from the window, the rest here.
    ///
    /// # Errors
    /// A Lua policy that no longer loads, or no thread could be started.
    pub(super) fn new(
        kind: &PolicyKind,
        seed: u64,
        side: SideId,
        ruleset: &Ruleset,
    ) -> Result<Self, String> {
        match kind {
            PolicyKind::Search(_) => Ok(Self::Away {
                kind: kind.clone(),
                thinker: Thinker::start(kind, seed, side, ruleset.clone())?,
            }),
            _ => Player::new(kind, seed, side).map(|p| Self::Here(Box::new(p))),
        }
    }

    /// The policy this seat follows.
    pub(super) fn kind(&self) -> &PolicyKind {
        match self {
            Self::Here(p) => p.kind(),
            Self::Away { kind, .. } => kind,
        }
    }

    /// True while a question is with the worker.
    pub(super) fn thinking(&self) -> bool {
        matches!(self, Self::Away { thinker, .. } if thinker.asked())
    }
}

/// A question: the game as it stands (the worker reads it only through what its side may
/// know) and that side's legal orders.
type Question = (Game, Vec<Action>);

/// An answer: the order (or why none came) and the search's account of it.
pub(super) type Answer = (Result<Action, String>, Option<Explanation>);

/// A player on a worker thread, asked one question at a time.
pub(super) struct Thinker {
    questions: Sender<Question>,
    answers: Receiver<Answer>,
    /// The game generation the pending question was asked at.
    asked: Option<u64>,
}

impl Thinker {
    /// Starts the worker. It ends by itself once the seat is dropped (its question channel
    /// closes), after finishing the question it is on.
    fn start(kind: &PolicyKind, seed: u64, side: SideId, ruleset: Ruleset) -> Result<Self, String> {
        let (questions, inbox) = mpsc::channel::<Question>();
        let (outbox, answers) = mpsc::channel();
        let kind = kind.clone();
        std::thread::Builder::new()
            .name(format!("computer for side {}", side.0))
            .spawn(move || {
                let mut player = match Player::new(&kind, seed, side) {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = outbox.send((Err(e), None));
                        return;
                    }
                };
                let mut hooks = match crate::session::hooks_for(&ruleset) {
                    Ok(h) => h,
                    Err(d) => {
                        let _ = outbox.send((Err(d.to_string()), None));
                        return;
                    }
                };
                for (game, legal) in inbox {
                    let chosen = player.choose_with(&game, side, &legal, hooks.as_mut());
                    let why = player.explanation().cloned();
                    if outbox.send((chosen, why)).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start the computer's thread: {e}"))?;
        Ok(Self {
            questions,
            answers,
            asked: None,
        })
    }

    /// Asks for an order in `game` (at `generation`), unless a question is pending.
    pub(super) fn ask(&mut self, generation: u64, game: Game, legal: Vec<Action>) {
        if self.asked.is_some() {
            return;
        }
        // A closed channel shows up at the next poll as a stopped worker.
        let _ = self.questions.send((game, legal));
        self.asked = Some(generation);
    }

    /// True while a question is with the worker.
    pub(super) fn asked(&self) -> bool {
        self.asked.is_some()
    }

    /// The answer (with the search's account of it), once it has come, with the generation its question was asked at.
    pub(super) fn poll(&mut self) -> Option<(u64, Answer)> {
        let generation = self.asked?;
        let answer = match self.answers.try_recv() {
            Ok(a) => a,
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => (Err("its thread stopped".to_owned()), None),
        };
        self.asked = None;
        Some((generation, answer))
    }
}
