//! Charts: a dice expression, modifiers and rows mapping a modified result to an outcome.
//!
//! Two lookups cover the sources:
//! - **score** charts add the dice to the modifiers and find the row whose range holds the
//!   total (the 2d6 break test, the d10 scout-fate table);
//! - **band** charts use the modifiers to shift a band index (Hex Command: each combat
//!   penalty pushes the needed result one band toward impossible, each bonus one toward
//!   automatic), then roll and test the face the band asks for (Color = any red face).

use serde::{Deserialize, Serialize};

use crate::amount::{Factor, Rounding};
use crate::dice::{DiceExpr, DieDef, DieRoll, GameRng, sum_odds};
use crate::ids::{CounterId, DieId, FlagId, ModeId, TagId};
use crate::ratio::Ratio;

/// Where an input's value comes from when a ruleset action resolves the chart. Inputs
/// without a source are set by hand (`--set name=value`) or by a hook.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InputSource {
    /// Grid distance (or whole inches on an open table) from actor to target. On a table
    /// played at a reduced scale, the measured distance converted back to rule inches.
    Distance,
    /// Whole inches as measured on the table, whatever the scale (grids: as `Distance`).
    /// For the few rules a club measures at full scale (a command distance penalty).
    TableDistance,
    /// Band index of the distance as measured on the table (see `TableDistance`).
    TableDistanceBand(Vec<u32>),
    /// Band index of the distance: the first `i` with `distance <= bands[i]`, else
    /// `bands.len()`.
    DistanceBand(Vec<u32>),
    /// A counter of the acting piece.
    ActorCounter(CounterId),
    /// A counter of the target.
    TargetCounter(CounterId),
    /// An attribute of the acting piece (class, morale...).
    ActorAttribute(usize),
    /// An attribute of the target.
    TargetAttribute(usize),
    /// 1 when the acting piece has the flag.
    ActorFlag(FlagId),
    /// 1 when the acting piece is in the mode (formation).
    ActorMode(ModeId),
    /// 1 when the target is in the mode.
    TargetMode(ModeId),
    /// 1 when the target has the flag.
    TargetFlag(FlagId),
    /// 1 when the actor is in the target's flank or rear arc.
    TargetFlankOrRear,
    /// An integer attribute of the terrain under the target (e.g. `cover`).
    TargetTerrain(usize),
    /// An integer attribute of the terrain under the acting piece.
    ActorTerrain(usize),
    /// A scenario setting (e.g. `night`).
    Setting(usize),
    /// 1 when an optional rule is in force.
    Option(usize),
    /// 1 when the action being resolved says it is for this (an `intent` of the order).
    Intent(String),
    /// How many friendly pieces of the types stand within the distance of the acting piece
    /// (a general's command radius; the piece itself never counts).
    ActorFriendsWithin(crate::command::Near),
    /// The same about the target.
    TargetFriendsWithin(crate::command::Near),
}

/// A named integer the chart reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputDef {
    /// Name used by `--set`, modifiers and rows.
    pub name: String,
    /// Value when nobody sets it.
    pub default: i32,
    /// Smallest accepted value.
    pub min: i32,
    /// Largest accepted value.
    pub max: i32,
    /// Where a ruleset action takes it from.
    pub source: Option<InputSource>,
    /// Inputs (by index) that must all be non-zero for this one to count; otherwise it
    /// reads 0 (an order "to charge" that matters only for an opportunist).
    #[serde(default)]
    pub with: Vec<usize>,
    /// Inputs (by index) that must all be 0 for this one to count (an optional rule that
    /// replaces it).
    #[serde(default)]
    pub without: Vec<usize>,
}

/// A modifier: `per` times an input's value, optionally capped with others in a group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModifierDef {
    /// What players call it ("headquarters in transit").
    pub name: String,
    /// Index of the input it scales.
    pub input: usize,
    /// Value per unit of the input (+2, −1...).
    pub per: i32,
    /// Index of the cap group it belongs to.
    pub group: Option<usize>,
}

/// A multiplying modifier: while its input is non-zero, the score is scaled by `factor`
/// ("halved in cover", "doubled from the flank"). Applied after the adding modifiers, in
/// the order written, each rounded at once as the chart's `round` says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScaleDef {
    /// What players call it ("cover").
    pub name: String,
    /// Index of the input that switches it on.
    pub input: usize,
    /// The factor.
    pub factor: Factor,
}

/// One multiplying modifier as it applied to a roll, for the log: `halved (cover), rounded
/// up`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScaleStep {
    /// The modifier's name.
    pub name: String,
    /// Its factor.
    pub factor: Factor,
    /// The rounding, when the result was not whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounded: Option<Rounding>,
    /// The score after this step.
    pub value: i32,
}

/// Scales `score` by every multiplying modifier whose input is non-zero, in order, rounding
/// each step; gives the result and the steps that applied.
///
/// ```
/// use grognard_kernel::amount::{Factor, Rounding};
/// use grognard_kernel::chart::{ScaleDef, scale_score};
/// let cover = ScaleDef { name: "cover".into(), input: 0, factor: Factor::HALF };
/// let (score, steps) = scale_score(&[cover], Rounding::Up, &[1], 5);
/// assert_eq!((score, steps[0].rounded), (3, Some(Rounding::Up)));
/// ```
#[must_use]
pub fn scale_score(
    scales: &[ScaleDef],
    round: Rounding,
    inputs: &[i32],
    score: i32,
) -> (i32, Vec<ScaleStep>) {
    let mut value = score;
    let mut steps = Vec::new();
    for s in scales {
        if inputs.get(s.input).copied().unwrap_or(0) == 0 {
            continue;
        }
        let (next, rounded) = s.factor.apply(value, round);
        value = next;
        steps.push(ScaleStep {
            name: s.name.clone(),
            factor: s.factor,
            rounded: rounded.then_some(round),
            value,
        });
    }
    (value, steps)
}

/// A cap on the sum of a group of modifiers ("at most 2 combat bonuses").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupDef {
    /// Group name.
    pub name: String,
    /// Lowest total the group may contribute.
    pub min: Option<i32>,
    /// Highest total the group may contribute.
    pub max: Option<i32>,
}

/// A re-roll policy: when active, a die showing one of `faces` is rolled once more and the
/// second roll stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RerollDef {
    /// Which die it applies to.
    pub die: DieId,
    /// Face indices that are re-rolled.
    pub faces: Vec<u8>,
    /// Active only when this input is non-zero; always when `None`.
    pub when: Option<usize>,
}

/// A row of a score chart. `min`/`max` bound the modified score (inclusive); `when` lists
/// inputs that must equal a value (a unit class, a range band).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreRow {
    /// Lowest score, if bounded.
    pub min: Option<i32>,
    /// Highest score, if bounded.
    pub max: Option<i32>,
    /// Conditions: `(input index, value)`.
    pub when: Vec<(usize, i32)>,
    /// Bounds on the natural roll — the dice total before modifiers — as `(min, max)`,
    /// either end open ("a natural 12 always blunders").
    #[serde(default)]
    pub natural: Option<(Option<i32>, Option<i32>)>,
    /// Index of the outcome.
    pub outcome: usize,
}

/// What a band asks of the die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaceTest {
    /// Passes without rolling.
    Always,
    /// Never passes (out of range).
    Never,
    /// The face carries every tag listed.
    AllTags(Vec<TagId>),
    /// The face carries at least one tag listed.
    AnyTag(Vec<TagId>),
    /// The face's value is at least this.
    AtLeast(i32),
}

impl FaceTest {
    fn passes(&self, face: &crate::dice::Face) -> bool {
        match self {
            Self::Always => true,
            Self::Never => false,
            Self::AllTags(tags) => tags.iter().all(|t| face.has(*t)),
            Self::AnyTag(tags) => tags.iter().any(|t| face.has(*t)),
            Self::AtLeast(v) => face.value >= *v,
        }
    }

    /// True when the test needs no roll.
    #[must_use]
    pub const fn is_decided(&self) -> bool {
        matches!(self, Self::Always | Self::Never)
    }
}

/// One band of a band chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BandRow {
    /// Band name ("Color", "Code").
    pub name: String,
    /// What the first die must show.
    pub test: FaceTest,
    /// Outcome when the test passes.
    pub pass: usize,
    /// Outcome when it fails.
    pub fail: usize,
}

/// How the modified roll is read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lookup {
    /// Dice total plus modifiers, first matching row wins; no match gives `default`.
    Score {
        /// Rows in order.
        rows: Vec<ScoreRow>,
        /// Outcome when no row matches.
        default: usize,
    },
    /// Input `base` plus modifiers selects a band (clamped to the table); the band's test
    /// is applied to the first die.
    Band {
        /// Index of the input holding the unmodified band.
        base: usize,
        /// Bands from best (automatic) to worst.
        rows: Vec<BandRow>,
    },
}

/// A chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChartDef {
    /// Name.
    pub name: String,
    /// What is rolled.
    pub dice: DiceExpr,
    /// Named inputs.
    pub inputs: Vec<InputDef>,
    /// Modifiers.
    pub modifiers: Vec<ModifierDef>,
    /// Cap groups.
    pub groups: Vec<GroupDef>,
    /// Re-roll policies.
    pub rerolls: Vec<RerollDef>,
    /// How results are read.
    pub lookup: Lookup,
    /// Outcome names, in the order rows refer to them.
    pub outcomes: Vec<String>,
    /// A referee's secret roll: its rolls reach no side's log, only the referee's (what
    /// comes of it reaches them as any change does). For a roll whose inputs depend on
    /// what a side may not know.
    #[serde(default)]
    pub secret: bool,
    /// Multiplying modifiers (×½ in cover, ×2 from the flank): applied to a score chart's
    /// score after the adding modifiers, in the order written, each rounded at once.
    #[serde(default)]
    pub scales: Vec<ScaleDef>,
    /// How a result that is not whole rounds (`round:`), if the chart says: its scaled
    /// score, and the halvings of its actions' amounts that name no rounding of their own.
    /// Required when a factor is not whole.
    #[serde(default)]
    pub round: Option<Rounding>,
    /// A fixed amount the dice expression adds (`d6 + 1`: 1), counted with the modifiers
    /// (in the score, not in the natural roll) and shown in the log as one of them. Score
    /// charts only.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub constant: i32,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// The log's name for a chart's constant term (`+1 fixed`).
pub const CONSTANT_NAME: &str = "fixed";

/// One way a roll can come out, with its probability: what the lab's distributions of
/// computed amounts are summed over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollPoint {
    /// Each die's value (empty when only the total was enumerated).
    pub dice: Vec<i32>,
    /// The dice total before modifiers.
    pub natural: i32,
    /// The score (after scaling), or the band index.
    pub score: i32,
    /// Index of the outcome.
    pub outcome: usize,
    /// Its probability.
    pub p: Ratio,
}

/// Most rolls [`ChartDef::roll_points`] enumerates die by die (some 1.7 million: eight
/// d6s) before it gives up.
pub const MAX_POINTS: usize = 1 << 21;

/// A modifier as it applied to one resolution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppliedModifier {
    /// Modifier name.
    pub name: String,
    /// What it added (after group caps are shared out, see [`ChartDef::modifiers_for`]).
    pub value: i32,
}

/// Everything about one resolution of a chart, for the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    /// Dice as rolled (empty when the band needed no roll).
    pub dice: Vec<DieRoll>,
    /// Modifiers that applied (non-zero only).
    pub modifiers: Vec<AppliedModifier>,
    /// Total of the modifiers after caps.
    pub modifier_total: i32,
    /// Score charts: dice total plus modifiers. Band charts: the band index used.
    pub score: i32,
    /// Band name, for band charts.
    pub band: Option<String>,
    /// Index of the outcome.
    pub outcome: usize,
}

impl ChartDef {
    /// Input values with defaults applied and clamped into range, an input read as 0 unless
    /// every input of its `with` is non-zero and every input of its `without` is 0. `set` holds explicit values by input index.
    #[must_use]
    pub fn input_values(&self, set: &[(usize, i32)]) -> Vec<i32> {
        let values: Vec<i32> = self
            .inputs
            .iter()
            .enumerate()
            .map(|(i, input)| {
                let v = set
                    .iter()
                    .rev()
                    .find(|(j, _)| *j == i)
                    .map_or(input.default, |(_, v)| *v);
                v.clamp(input.min, input.max.max(input.min))
            })
            .collect();
        if self
            .inputs
            .iter()
            .all(|i| i.with.is_empty() && i.without.is_empty())
        {
            return values;
        }
        // Gates read the gated values of the inputs they name, so `with` and `without`
        // chain; a chain settles within one pass per input.
        let mut gated = values.clone();
        for _ in 0..=self.inputs.len() {
            let next: Vec<i32> = self
                .inputs
                .iter()
                .zip(&values)
                .map(|(input, v)| {
                    let value = |j: &usize| gated.get(*j).copied().unwrap_or(0);
                    let off = input.with.iter().any(|j| value(j) == 0)
                        || input.without.iter().any(|j| value(j) != 0);
                    if off { 0 } else { *v }
                })
                .collect();
            if next == gated {
                break;
            }
            gated = next;
        }
        gated
    }

    /// The non-zero modifiers for `inputs`, and their total after group caps.
    #[must_use]
    pub fn modifiers_for(&self, inputs: &[i32]) -> (Vec<AppliedModifier>, i32) {
        let mut applied = Vec::new();
        let mut ungrouped = self.constant;
        if self.constant != 0 {
            applied.push(AppliedModifier {
                name: CONSTANT_NAME.to_owned(),
                value: self.constant,
            });
        }
        let mut grouped = vec![0i32; self.groups.len()];
        for m in &self.modifiers {
            let value = inputs
                .get(m.input)
                .copied()
                .unwrap_or(0)
                .saturating_mul(m.per);
            if value == 0 {
                continue;
            }
            match m.group.and_then(|g| grouped.get_mut(g)) {
                Some(slot) => *slot = slot.saturating_add(value),
                None => ungrouped = ungrouped.saturating_add(value),
            }
            applied.push(AppliedModifier {
                name: m.name.clone(),
                value,
            });
        }
        let mut total = ungrouped;
        for (g, sum) in self.groups.iter().zip(grouped) {
            let mut capped = sum;
            if let Some(max) = g.max {
                capped = capped.min(max);
            }
            if let Some(min) = g.min {
                capped = capped.max(min);
            }
            if capped != sum {
                // Said as a rulebook says it: `-4 to cap the stronger modifiers at +4`.
                applied.push(AppliedModifier {
                    name: format!("to cap the {} modifiers at {capped:+}", g.name),
                    value: capped - sum,
                });
            }
            total = total.saturating_add(capped);
        }
        (applied, total)
    }

    fn reroll_faces(&self, die: DieId, inputs: &[i32]) -> Vec<u8> {
        let mut faces: Vec<u8> = self
            .rerolls
            .iter()
            .filter(|r| r.die == die)
            .filter(|r| {
                r.when
                    .is_none_or(|i| inputs.get(i).copied().unwrap_or(0) != 0)
            })
            .flat_map(|r| r.faces.iter().copied())
            .collect();
        faces.sort_unstable();
        faces.dedup();
        faces
    }

    fn score_row(
        &self,
        rows: &[ScoreRow],
        default: usize,
        (natural, score): (i32, i32),
        inputs: &[i32],
    ) -> usize {
        rows.iter()
            .find(|row| {
                row.natural.is_none_or(|(lo, hi)| {
                    lo.is_none_or(|m| natural >= m) && hi.is_none_or(|m| natural <= m)
                }) && row.min.is_none_or(|m| score >= m)
                    && row.max.is_none_or(|m| score <= m)
                    && row
                        .when
                        .iter()
                        .all(|(i, v)| inputs.get(*i).copied().unwrap_or(0) == *v)
            })
            .map_or(default, |row| row.outcome)
    }

    /// A score (dice plus modifiers) after the chart's multiplying modifiers, with the
    /// steps that applied (see [`scale_score`]). Band charts have none.
    #[must_use]
    pub fn scaled(&self, inputs: &[i32], score: i32) -> (i32, Vec<ScaleStep>) {
        scale_score(&self.scales, self.round.unwrap_or_default(), inputs, score)
    }

    /// Every way the chart's roll can come out for `inputs`, with its exact probability:
    /// by dice totals, or die by die when `by_die` (an amount reads `die N`). `None` when
    /// die by die would pass [`MAX_POINTS`]. The probabilities sum to one, as
    /// [`Self::odds`] does, and are enumerated the same way.
    #[must_use]
    pub fn roll_points(
        &self,
        dice: &[DieDef],
        inputs: &[i32],
        by_die: bool,
    ) -> Option<Vec<RollPoint>> {
        let (_, modifier_total) = self.modifiers_for(inputs);
        let faces_of = |id: DieId| -> Option<(&DieDef, Vec<Ratio>)> {
            let def = dice.get(id.index())?;
            Some((def, def.face_odds(&self.reroll_faces(id, inputs))))
        };
        match &self.lookup {
            Lookup::Score { rows, default } => {
                let point = |values: Vec<i32>, natural: i32, p: Ratio| {
                    let (score, _) = self.scaled(inputs, natural.saturating_add(modifier_total));
                    RollPoint {
                        outcome: self.score_row(rows, *default, (natural, score), inputs),
                        dice: values,
                        natural,
                        score,
                        p,
                    }
                };
                if !by_die {
                    let reroll: Vec<(DieId, Vec<u8>)> = self
                        .dice
                        .terms
                        .iter()
                        .map(|t| (t.die, self.reroll_faces(t.die, inputs)))
                        .collect();
                    let reroll_of = |die: DieId| -> &[u8] {
                        reroll
                            .iter()
                            .find(|(d, _)| *d == die)
                            .map_or(&[][..], |(_, f)| f.as_slice())
                    };
                    return Some(
                        sum_odds(&self.dice, dice, &reroll_of)
                            .into_iter()
                            .map(|(total, p)| point(Vec::new(), total, p))
                            .collect(),
                    );
                }
                let mut partial: Vec<(Vec<i32>, Ratio)> = vec![(Vec::new(), Ratio::ONE)];
                for term in &self.dice.terms {
                    let Some((def, odds)) = faces_of(term.die) else {
                        continue;
                    };
                    for _ in 0..term.count {
                        if partial.len().saturating_mul(def.faces.len()) > MAX_POINTS {
                            return None;
                        }
                        partial = partial
                            .iter()
                            .flat_map(|(values, p)| {
                                def.faces.iter().zip(&odds).map(move |(face, q)| {
                                    let mut next = values.clone();
                                    next.push(face.value);
                                    (next, *p * *q)
                                })
                            })
                            .collect();
                    }
                }
                Some(
                    partial
                        .into_iter()
                        .map(|(values, p)| {
                            let natural = values.iter().fold(0i32, |a, v| a.saturating_add(*v));
                            point(values, natural, p)
                        })
                        .collect(),
                )
            }
            Lookup::Band { base, rows } => {
                let base_value = inputs.get(*base).copied().unwrap_or(0);
                let index = Self::band_index(rows, base_value, modifier_total);
                let row = rows.get(index)?;
                let decided = |outcome| RollPoint {
                    dice: Vec::new(),
                    natural: 0,
                    score: index as i32,
                    outcome,
                    p: Ratio::ONE,
                };
                match &row.test {
                    FaceTest::Always => Some(vec![decided(row.pass)]),
                    FaceTest::Never => Some(vec![decided(row.fail)]),
                    test => {
                        let (def, odds) = faces_of(self.dice.terms.first()?.die)?;
                        Some(
                            def.faces
                                .iter()
                                .zip(odds)
                                .map(|(face, p)| RollPoint {
                                    dice: vec![face.value],
                                    natural: face.value,
                                    score: index as i32,
                                    outcome: if test.passes(face) {
                                        row.pass
                                    } else {
                                        row.fail
                                    },
                                    p,
                                })
                                .collect(),
                        )
                    }
                }
            }
        }
    }

    /// The band a band chart uses: `base` plus the modifier total, clamped to the bands.
    #[must_use]
    pub fn band_index(rows: &[BandRow], base: i32, modifiers: i32) -> usize {
        let last = rows.len().saturating_sub(1) as i32;
        base.saturating_add(modifiers).clamp(0, last.max(0)) as usize
    }

    /// Rolls the chart with `inputs` (see [`Self::input_values`]).
    pub fn resolve(&self, dice: &[DieDef], inputs: &[i32], rng: &mut GameRng) -> Resolution {
        let (modifiers, modifier_total) = self.modifiers_for(inputs);
        let roll_all = |rng: &mut GameRng| -> Vec<DieRoll> {
            let mut rolled = Vec::new();
            for term in &self.dice.terms {
                let Some(def) = dice.get(term.die.index()) else {
                    continue;
                };
                let reroll = self.reroll_faces(term.die, inputs);
                for _ in 0..term.count {
                    rolled.push(rng.roll(term.die, def, &reroll));
                }
            }
            rolled
        };
        match &self.lookup {
            Lookup::Score { rows, default } => {
                let rolled = roll_all(rng);
                let total: i32 = rolled.iter().map(|d| d.value).sum();
                let (score, _) = self.scaled(inputs, total.saturating_add(modifier_total));
                Resolution {
                    outcome: self.score_row(rows, *default, (total, score), inputs),
                    dice: rolled,
                    modifiers,
                    modifier_total,
                    score,
                    band: None,
                }
            }
            Lookup::Band { base, rows } => {
                let base_value = inputs.get(*base).copied().unwrap_or(0);
                let index = Self::band_index(rows, base_value, modifier_total);
                let Some(row) = rows.get(index) else {
                    return Resolution {
                        dice: Vec::new(),
                        modifiers,
                        modifier_total,
                        score: index as i32,
                        band: None,
                        outcome: 0,
                    };
                };
                let (rolled, passed) = if row.test.is_decided() {
                    (Vec::new(), row.test == FaceTest::Always)
                } else {
                    let rolled = roll_all(rng);
                    let passed = rolled.first().is_some_and(|d| {
                        dice.get(d.die.index())
                            .and_then(|def| def.faces.get(usize::from(d.face)))
                            .is_some_and(|f| row.test.passes(f))
                    });
                    (rolled, passed)
                };
                Resolution {
                    dice: rolled,
                    modifiers,
                    modifier_total,
                    score: index as i32,
                    band: Some(row.name.clone()),
                    outcome: if passed { row.pass } else { row.fail },
                }
            }
        }
    }

    /// The exact probability of each outcome (by index) for `inputs`, by enumerating every
    /// face and re-roll — no sampling. Dice pools too large for 128-bit fractions (some
    /// twenty d100s) give [`Ratio::OVERFLOW`] rather than a wrong number.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::chart::{ChartDef, Lookup, ScoreRow};
    /// use grognard_kernel::dice::{DiceExpr, DiceTerm, DieDef};
    /// use grognard_kernel::{ids::DieId, Ratio};
    /// // A d10 table: 9 or 10 removes the scout.
    /// let chart = ChartDef {
    ///     name: "fate".into(),
    ///     dice: DiceExpr { terms: vec![DiceTerm { count: 1, die: DieId(0) }] },
    ///     inputs: vec![], modifiers: vec![], groups: vec![], rerolls: vec![],
    ///     lookup: Lookup::Score {
    ///         rows: vec![ScoreRow { min: Some(9), max: None, when: vec![], natural: None, outcome: 1 }],
    ///         default: 0,
    ///     },
    ///     outcomes: vec!["returns".into(), "removed".into()],
    ///     secret: false, scales: vec![], round: None, constant: 0,
    /// };
    /// let odds = chart.odds(&[DieDef::numeric("d10", 10)], &[]);
    /// assert_eq!(odds, vec![Ratio::new(4, 5), Ratio::new(1, 5)]);
    /// ```
    #[must_use]
    pub fn odds(&self, dice: &[DieDef], inputs: &[i32]) -> Vec<Ratio> {
        let mut out = vec![Ratio::ZERO; self.outcomes.len()];
        let mut add = |outcome: usize, p: Ratio| {
            if let Some(slot) = out.get_mut(outcome) {
                *slot = *slot + p;
            }
        };
        let (_, modifier_total) = self.modifiers_for(inputs);
        let rerolls: Vec<(DieId, Vec<u8>)> = self
            .dice
            .terms
            .iter()
            .map(|t| (t.die, self.reroll_faces(t.die, inputs)))
            .collect();
        let reroll_of = |die: DieId| -> &[u8] {
            rerolls
                .iter()
                .find(|(d, _)| *d == die)
                .map_or(&[][..], |(_, f)| f.as_slice())
        };
        match &self.lookup {
            Lookup::Score { rows, default } => {
                for (total, p) in sum_odds(&self.dice, dice, &reroll_of) {
                    let (score, _) = self.scaled(inputs, total.saturating_add(modifier_total));
                    add(self.score_row(rows, *default, (total, score), inputs), p);
                }
            }
            Lookup::Band { base, rows } => {
                let base_value = inputs.get(*base).copied().unwrap_or(0);
                let index = Self::band_index(rows, base_value, modifier_total);
                let Some(row) = rows.get(index) else {
                    return out;
                };
                match &row.test {
                    FaceTest::Always => add(row.pass, Ratio::ONE),
                    FaceTest::Never => add(row.fail, Ratio::ONE),
                    test => {
                        let first = self
                            .dice
                            .terms
                            .first()
                            .and_then(|t| dice.get(t.die.index()).map(|d| (t.die, d)));
                        if let Some((id, die)) = first {
                            let face_odds = die.face_odds(reroll_of(id));
                            for (face, p) in die.faces.iter().zip(face_odds) {
                                add(
                                    if test.passes(face) {
                                        row.pass
                                    } else {
                                        row.fail
                                    },
                                    p,
                                );
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceTerm;

    /// A d6 score chart, 1+ hits, with cover ×½ then flank ×2 (inputs 0 and 1).
    fn musketry(round: Rounding, flank_first: bool) -> ChartDef {
        let input = |name: &str| InputDef {
            name: name.into(),
            default: 0,
            min: 0,
            max: 1,
            source: None,
            with: vec![],
            without: vec![],
        };
        let cover = ScaleDef {
            name: "cover".into(),
            input: 0,
            factor: Factor::HALF,
        };
        let flank = ScaleDef {
            name: "flank".into(),
            input: 1,
            factor: Factor::DOUBLE,
        };
        ChartDef {
            name: "musketry".into(),
            dice: DiceExpr {
                terms: vec![DiceTerm {
                    count: 1,
                    die: DieId(0),
                }],
            },
            inputs: vec![input("cover"), input("flank")],
            modifiers: vec![],
            groups: vec![],
            rerolls: vec![],
            lookup: Lookup::Score {
                rows: vec![ScoreRow {
                    min: Some(1),
                    max: None,
                    when: vec![],
                    natural: None,
                    outcome: 1,
                }],
                default: 0,
            },
            outcomes: vec!["no effect".into(), "hits".into()],
            secret: false,
            scales: if flank_first {
                vec![flank, cover]
            } else {
                vec![cover, flank]
            },
            round: Some(round),
            constant: 0,
        }
    }

    /// A group's cap is said as a rulebook says it (the seventh outside player read "-4 cap
    /// on stronger" as garbled): melee values of +12 and −4 in a group capped at ±4 give
    /// +8, capped to +4 by `-4 to cap the stronger modifiers at +4`; the total is 4.
    #[test]
    fn a_capped_group_says_what_it_is_capped_at() {
        let mut chart = musketry(Rounding::Up, false);
        chart.modifiers = vec![
            ModifierDef {
                name: "attacker's melee value".into(),
                input: 0,
                per: 4,
                group: Some(0),
            },
            ModifierDef {
                name: "defender's melee value".into(),
                input: 1,
                per: -4,
                group: Some(0),
            },
        ];
        chart.groups = vec![GroupDef {
            name: "stronger".into(),
            min: Some(-4),
            max: Some(4),
        }];
        let (applied, total) = chart.modifiers_for(&[3, 1]);
        assert_eq!(total, 4);
        let cap = applied.last().expect("the cap");
        assert_eq!(cap.name, "to cap the stronger modifiers at +4");
        assert_eq!(cap.value, -4);
    }

    /// Worked by hand through the chart: a d6 of 5 in cover is 2½, which is 3 rounded up,
    /// 2 down and 3 to the nearest (a half rounds up). Halved then doubled (up) it is 6;
    /// doubled then halved, 5.
    #[test]
    fn five_in_cover_scales_in_the_order_written() {
        let cases = [
            (Rounding::Up, 3),
            (Rounding::Down, 2),
            (Rounding::Nearest, 3),
        ];
        for (round, expected) in cases {
            let (score, steps) = musketry(round, false).scaled(&[1, 0], 5);
            assert_eq!(score, expected, "{round:?}");
            assert_eq!(steps.len(), 1);
            assert_eq!(steps[0].rounded, Some(round), "2½ is not whole");
        }
        assert_eq!(musketry(Rounding::Up, false).scaled(&[1, 1], 5).0, 6);
        assert_eq!(musketry(Rounding::Up, true).scaled(&[1, 1], 5).0, 5);
        assert_eq!(musketry(Rounding::Down, false).scaled(&[1, 1], 5).0, 4);
        // Nothing applies without its input.
        assert_eq!(
            musketry(Rounding::Up, false).scaled(&[0, 0], 5),
            (5, vec![])
        );
    }

    /// Property: for each input combination the roll points sum to one, agree with the
    /// outcome odds, and every seeded roll lands on a point of positive probability.
    #[test]
    fn roll_points_sum_to_one_and_hold_every_roll() {
        let dice = [DieDef::numeric("d6", 6)];
        for flank_first in [false, true] {
            let chart = musketry(Rounding::Up, flank_first);
            for inputs in [[0, 0], [1, 0], [0, 1], [1, 1]] {
                for by_die in [false, true] {
                    let points = chart.roll_points(&dice, &inputs, by_die).expect("small");
                    let total = points.iter().fold(Ratio::ZERO, |a, p| a + p.p);
                    assert_eq!(total, Ratio::ONE);
                    let mut by_outcome = vec![Ratio::ZERO; chart.outcomes.len()];
                    for p in &points {
                        by_outcome[p.outcome] = by_outcome[p.outcome] + p.p;
                    }
                    assert_eq!(by_outcome, chart.odds(&dice, &inputs));
                }
                let points = chart.roll_points(&dice, &inputs, true).expect("small");
                let mut rng = GameRng::new(7);
                for _ in 0..200 {
                    let r = chart.resolve(&dice, &inputs, &mut rng);
                    let values: Vec<i32> = r.dice.iter().map(|d| d.value).collect();
                    assert!(
                        points.iter().any(|p| p.dice == values
                            && p.score == r.score
                            && p.outcome == r.outcome
                            && !p.p.is_zero()),
                        "{values:?} → {} not among the points",
                        r.score
                    );
                }
            }
        }
    }
}
