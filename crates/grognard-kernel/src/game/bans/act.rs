//! Why an `act` order is refused ([`ActBan`], with [`TargetBan`] for the rules about its
//! target) and its words, split from `bans.rs` for length: the checks of an action's actor,
//! target, range, arcs and sight (`game/actions.rs`) return one, and its [`Ban::refuse`]
//! words it.

use crate::action::{Ban, Refusal, RefusalKind};
use crate::cost::Cost;
use crate::geometry::Arc as Bearing;
use crate::ids::{FlagId, PieceId, PieceTypeId, SideId};
use crate::piece::{Piece, Place};
use crate::rules::{ActionDef, Rules};
use crate::state::State;

use super::super::Game;

/// Which of an action's rules an `act` order breaks (`actions.rs`): the action, its actor,
/// its target, range, arcs and sight. The legal listing asks the same checks of every
/// actor, action and target and wants no words, so a ban holds only what its words need,
/// and [`Ban::refuse`] words it when `apply` refuses the order.
#[derive(Clone, Debug)]
pub(in crate::game) enum ActBan<'a> {
    /// The order names an action the rules do not have.
    NoSuchAction,
    /// The action's chart is not in the rules (rules built by hand, not compiled).
    NoChart,
    /// An intent the action does not take (`bad`).
    Intent {
        /// The action.
        def: &'a ActionDef,
        /// The first intent it does not take.
        bad: String,
    },
    /// The actor is not one of the side's pieces on the board, as every order's check
    /// words it.
    Actor(Refusal),
    /// The actor's type is not one the action is for.
    ActorType {
        /// The action.
        def: &'a ActionDef,
        /// The actor.
        actor: &'a Piece,
    },
    /// The actor carries a flag that bars the action.
    ActorBarred {
        /// The action.
        def: &'a ActionDef,
        /// The actor.
        actor: &'a Piece,
        /// The flag.
        flag: FlagId,
    },
    /// The actor lacks a flag the action needs.
    ActorNeeds {
        /// The action.
        def: &'a ActionDef,
        /// The actor.
        actor: &'a Piece,
        /// The flag.
        flag: FlagId,
    },
    /// The actor has used the action this phase, and it does not repeat.
    Used {
        /// The action.
        def: &'a ActionDef,
        /// The actor.
        actor: &'a Piece,
    },
    /// A target given to an action that takes none.
    TakesNoTarget(&'a ActionDef),
    /// No target given to an action that needs one.
    NeedsTarget(&'a ActionDef),
    /// The target is not a piece on the board.
    NoTarget(PieceId),
    /// The actor named as its own target.
    ItselfTargeted(&'a Piece),
    /// A target of the wrong side (`enemy`: the action wants an enemy).
    WrongSide {
        /// The action.
        def: &'a ActionDef,
        /// Whether it must target an enemy (else an own piece).
        enemy: bool,
    },
    /// The target breaks a rule of the action's about its target ([`TargetBan`]).
    Target(TargetBan<'a>),
}

/// Which of an action's rules about its target an `act` order breaks ([`ActBan::Target`]):
/// the target's type and flags as the acting side knows them, range, arcs and sight. Always
/// [`RefusalKind::BadTarget`]; the target is named as the side knows it.
#[derive(Clone, Debug)]
pub(in crate::game) enum TargetBan<'a> {
    /// The target's type, as the side knows it, is not one the action may target.
    TargetType {
        /// The action.
        def: &'a ActionDef,
        /// The target.
        target: &'a Piece,
        /// Its type as the side knows it.
        kind: PieceTypeId,
        /// The action names the only types it targets (else the types it may not).
        only: bool,
    },
    /// The target lacks a flag the action needs it to have.
    TargetNeeds {
        /// The action.
        def: &'a ActionDef,
        /// The target.
        target: &'a Piece,
        /// The flag.
        flag: FlagId,
    },
    /// The target carries a flag that bars it.
    TargetBarred {
        /// The action.
        def: &'a ActionDef,
        /// The target.
        target: &'a Piece,
        /// The flag.
        flag: FlagId,
    },
    /// The target is outside the action's range.
    OutOfRange {
        /// The action.
        def: &'a ActionDef,
        /// The actor.
        actor: &'a Piece,
        /// The target.
        target: &'a Piece,
        /// The distance in the ruleset's measure.
        distance: u32,
        /// The range, least and most.
        range: (Cost, Cost),
    },
    /// The target stands in an arc of the actor's the action may not reach into.
    OutOfArc {
        /// The action.
        def: &'a ActionDef,
        /// The actor.
        actor: &'a Piece,
        /// The target.
        target: &'a Piece,
        /// The arc it stands in.
        arc: Bearing,
    },
    /// The action needs sight, and the actor cannot see the target.
    Unseen {
        /// The actor.
        actor: &'a Piece,
        /// The target.
        target: &'a Piece,
    },
}

impl Ban for ActBan<'_> {
    /// The game, the state and the acting side: a target is named as the side knows it
    /// ([`Game::label`]).
    type Cx<'c> = (&'c Game, &'c State, SideId);

    fn kind(&self) -> RefusalKind {
        use ActBan as B;
        match self {
            // An action whose chart the rules lack cannot be resolved as they hold it: it is
            // refused as one they do not have.
            B::NoSuchAction | B::NoChart => RefusalKind::NotInRules,
            B::Actor(refusal) => refusal.kind,
            B::ActorType { .. } | B::ActorNeeds { .. } => RefusalKind::BadPiece,
            B::ActorBarred { .. } | B::Used { .. } => RefusalKind::AlreadyUsed,
            B::Intent { .. }
            | B::TakesNoTarget(_)
            | B::NeedsTarget(_)
            | B::NoTarget(_)
            | B::ItselfTargeted(_)
            | B::WrongSide { .. }
            | B::Target(_) => RefusalKind::BadTarget,
        }
    }

    fn words(self, (game, state, side): Self::Cx<'_>) -> String {
        game.act_ban_words(state, side, self)
    }
}

impl Game {
    /// The words for an [`ActBan`]. A target is named as the acting side knows it
    /// ([`Game::label`]).
    fn act_ban_words(&self, state: &State, side: SideId, ban: ActBan<'_>) -> String {
        use ActBan as B;
        let rules = &*self.rules;
        let type_name = |t: PieceTypeId| rules.piece_type(t).map_or("?", |d| d.name.as_str());
        let called = |t: PieceTypeId| called(rules, t);
        match ban {
            B::NoSuchAction => "no such action".to_owned(),
            B::NoChart => "the action's chart is missing".to_owned(),
            B::Intent { def, bad } => {
                let known = if def.intents.is_empty() {
                    "it takes no intent".to_owned()
                } else {
                    format!("it may be for {}", def.intents.join(", "))
                };
                format!("{} cannot be given for `{bad}`: {known}", def.name)
            }
            B::Actor(refusal) => refusal.message,
            B::Target(ban) => self.target_ban_words(state, side, ban),
            // Why, as the flag refusals do: the piece's type and the types the action is
            // for (both public in the ruleset).
            B::ActorType { def, actor } => {
                let allowed: Vec<&str> = def.types.iter().map(|t| type_name(*t)).collect();
                format!(
                    "{} cannot {}: it is {}, and only {} may {}",
                    actor.name,
                    def.name,
                    called(actor.kind),
                    allowed.join(", "),
                    def.name
                )
            }
            B::ActorBarred { def, actor, flag } => {
                let flag = rules.flag_name(flag);
                format!("{} cannot {} while {flag}", actor.name, def.name)
            }
            B::ActorNeeds { def, actor, flag } => {
                let flag = rules.flag_name(flag);
                format!("{} cannot {} unless {flag}", actor.name, def.name)
            }
            B::Used { def, actor } => {
                format!("{} has already used {} this phase", actor.name, def.name)
            }
            B::TakesNoTarget(def) => format!("{} takes no target", def.name),
            B::NeedsTarget(def) => format!("{} needs a target", def.name),
            B::NoTarget(t) => format!("there is no piece #{} on the board", t.0),
            B::ItselfTargeted(actor) => format!("{} cannot target itself", actor.name),
            B::WrongSide { def, enemy } => {
                let whose = if enemy { "an enemy" } else { "an own" };
                format!("{} must target {whose} piece", def.name)
            }
        }
    }

    /// The words for a [`TargetBan`]. The target is named as the acting side knows it
    /// ([`Game::label`]).
    fn target_ban_words(&self, state: &State, side: SideId, ban: TargetBan<'_>) -> String {
        use TargetBan as B;
        let rules = &*self.rules;
        let type_name = |t: PieceTypeId| rules.piece_type(t).map_or("?", |d| d.name.as_str());
        let called = |t: PieceTypeId| called(rules, t);
        let label = |p: &Piece| self.label(state, side, p);
        match ban {
            B::TargetType {
                def,
                target,
                kind,
                only,
            } => {
                let list = |ts: &[PieceTypeId]| {
                    let names: Vec<&str> = ts.iter().map(|t| type_name(*t)).collect();
                    names.join(", ")
                };
                let rule = if only {
                    format!("{} may target only {}", def.name, list(&def.target_types))
                } else {
                    format!(
                        "{} may not target {}",
                        def.name,
                        list(&def.target_not_types)
                    )
                };
                format!(
                    "{} cannot be targeted by {}: it is {}, and {rule}",
                    label(target),
                    def.name,
                    called(kind)
                )
            }
            B::TargetNeeds { def, target, flag } => {
                let flag = rules.flag_name(flag);
                format!(
                    "{} cannot be targeted by {} unless {flag}",
                    label(target),
                    def.name
                )
            }
            B::TargetBarred { def, target, flag } => {
                let flag = rules.flag_name(flag);
                format!(
                    "{} cannot be targeted by {} while {flag}",
                    label(target),
                    def.name
                )
            }
            B::OutOfRange {
                def,
                actor,
                target,
                distance,
                range: (lo, hi),
            } => format!(
                "{} is {} away; {} reaches {} to {}",
                label(target),
                self.distance_words(actor, target, distance),
                def.name,
                decimal(lo),
                decimal(hi)
            ),
            B::OutOfArc {
                def,
                actor,
                target,
                arc,
            } => {
                let name = |a: &Bearing| match a {
                    Bearing::Front => "front",
                    Bearing::Flank => "flank",
                    Bearing::Rear => "rear",
                    Bearing::Same => "same place",
                };
                let wanted: Vec<&str> = def.arcs.iter().map(name).collect();
                format!(
                    "{} is in {}'s {} arc; {} needs the {} arc",
                    label(target),
                    actor.name,
                    name(&arc),
                    def.name,
                    wanted.join(" or ")
                )
            }
            B::Unseen { actor, target } => format!("{} cannot see {}", actor.name, label(target)),
        }
    }

    /// How far `target` is from `actor`, as a range refusal says it: on a table the exact
    /// distance in the unit the range is given in, on a grid `distance` in cells.
    fn distance_words(&self, actor: &Piece, target: &Piece, distance: u32) -> String {
        match (self.rule_gap(actor, target), &actor.place) {
            (Some(d), Place::Point { .. }) => {
                let unit = if self.scaled(Cost::whole(1)) == Cost::whole(1) {
                    "inches"
                } else {
                    "rule inches"
                };
                // Hundredths, rounded, without trailing zeros: `14`, `14.5`, `12.03`.
                let h = (d.0 + 5) / 10;
                let text = format!("{}.{:02}", h / 100, h % 100);
                let text = text.trim_end_matches('0').trim_end_matches('.');
                format!("{text} {unit}")
            }
            _ => distance.to_string(),
        }
    }
}

/// A piece type as refusals word it: its `called`, else its name.
fn called(rules: &Rules, t: PieceTypeId) -> &str {
    rules
        .piece_type(t)
        .map_or("?", |d| match d.called.is_empty() {
            true => d.name.as_str(),
            false => d.called.as_str(),
        })
}

/// A rule distance as a decimal without trailing zeros (`3`, `4.5`, `12.25`), as range
/// refusals print it beside the measured distance.
fn decimal(c: Cost) -> String {
    let h = c.hundredths();
    let sign = if h < 0 { "-" } else { "" };
    let text = format!("{}.{:02}", h.unsigned_abs() / 100, h.unsigned_abs() % 100);
    format!("{sign}{}", text.trim_end_matches('0').trim_end_matches('.'))
}
