//! The sequence of play: each phase's actor, what it allows and which piece types move in
//! it; the turn's parts, the number of turns, initiative and the sequences used while an
//! optional rule is in force.

use grognard_kernel::dice::DieDef;
use grognard_kernel::rules::{Actor, Allowed, PhaseDef, Sequence, SequenceVariant};

use crate::model::{PhaseActor, PhaseSpec, RulesetSpec};

use super::Cx;
use super::parse::{DiceUse, parse_dice};
use crate::names::{NameTable, kind};

/// The sequence of play, its variants and its initiative roll.
pub(super) fn compile_sequence(
    cx: &mut Cx,
    spec: &RulesetSpec,
    names: &NameTable,
    dice: &mut Vec<DieDef>,
    die_names: &mut Vec<String>,
) -> Sequence {
    let root = &spec.ruleset.location;
    let s = &spec.sequence;
    let initiative = s
        .initiative
        .as_ref()
        .map(|d| parse_dice(cx, d, dice, die_names, DiceUse::Initiative).0);
    let mut sequence = Sequence {
        initiative,
        turn_start: phases(cx, names, &s.turn_start, root),
        side_turn: phases(cx, names, &s.side_turn, root),
        turn_end: phases(cx, names, &s.turn_end, root),
        turns: s.turns.unwrap_or(10).clamp(1, 10_000),
        interleaved: s.interleave,
        variants: Vec::new(),
    };
    for v in &s.variants {
        let Some(option) = names.id(cx, kind::Optional, &v.value.option) else {
            continue;
        };
        let variant = SequenceVariant {
            option,
            turn_start: phases(cx, names, &v.value.turn_start, root),
            side_turn: phases(cx, names, &v.value.side_turn, root),
            turn_end: phases(cx, names, &v.value.turn_end, root),
            interleaved: v.value.interleave,
        };
        if variant.turn_start.is_empty()
            && variant.side_turn.is_empty()
            && variant.turn_end.is_empty()
        {
            cx.error(
                &v.location,
                "this sequence variant has no phases; give it `side_turn:` (or \
                 `turn_start:`/`turn_end:`)",
            );
        }
        sequence.variants.push(variant);
    }
    if sequence.turn_start.is_empty()
        && sequence.side_turn.is_empty()
        && sequence.turn_end.is_empty()
    {
        cx.error(
            root,
            "the `sequence:` has no phases; add `side_turn: [{phase: movement, allows: [move]}]`",
        );
    }
    sequence
}

fn phases(
    cx: &mut Cx,
    names: &NameTable,
    list: &[PhaseSpec],
    root: &crate::diag::Location,
) -> Vec<PhaseDef> {
    list.iter()
        .map(|p| compile_phase(cx, names, p, root))
        .collect()
}

/// One phase: who acts, what it allows (`move`, `face`, `mode` or an action), who moves.
fn compile_phase(
    cx: &mut Cx,
    names: &NameTable,
    p: &PhaseSpec,
    root: &crate::diag::Location,
) -> PhaseDef {
    let actor = match p.actor.as_ref().map_or(PhaseActor::Phasing, |a| a.value) {
        PhaseActor::Phasing => Actor::Phasing,
        PhaseActor::NonPhasing => Actor::NonPhasing,
        PhaseActor::Both => Actor::Both,
    };
    let allows = p
        .allows
        .iter()
        .filter_map(|a| match a.value.as_str() {
            "move" => Some(Allowed::Move),
            "face" => Some(Allowed::Face),
            "mode" => Some(Allowed::Mode),
            _ => NameTable::find(cx, kind::PhaseAction, a, names.actions.iter().copied())
                .map(Allowed::Action),
        })
        .collect();
    if p.phase.value.trim().is_empty() {
        let at = if p.phase.location.is_known() {
            &p.phase.location
        } else {
            root
        };
        cx.error(
            at,
            "every phase in `sequence:` needs a name: `- phase: movement`",
        );
    }
    PhaseDef {
        name: p.phase.value.clone(),
        actor,
        allows,
        movers: names.ids(cx, kind::PieceType, &p.movers),
    }
}
