//! Dice: numeric (d6, d10, 2d6) and custom-face (the Code 'n Color cube), re-roll
//! policies, the game's seeded RNG, and exact outcome distributions.
//!
//! Rolling and exact odds live side by side so that a chart's printed odds and the dice a
//! game actually rolls can never follow two different definitions.

use std::collections::BTreeMap;

use rand_chacha::ChaCha12Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::ids::{DieId, TagId};
use crate::ratio::Ratio;

/// One face of a die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Face {
    /// The number the face counts as when dice are summed (a d6's pips; a custom face may
    /// give 0).
    pub value: i32,
    /// What players call the face ("3", "red star").
    pub label: String,
    /// Tags a chart can test (e.g. `red`, `star`).
    pub tags: Vec<TagId>,
}

impl Face {
    /// True when the face carries `tag`.
    #[must_use]
    pub fn has(&self, tag: TagId) -> bool {
        self.tags.contains(&tag)
    }
}

/// A die declared by a ruleset. Every face is equally likely.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieDef {
    /// Name (`d6`, `cube`).
    pub name: String,
    /// Faces in order.
    pub faces: Vec<Face>,
}

impl DieDef {
    /// A plain numeric die with faces `1..=sides`.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::dice::DieDef;
    /// let d6 = DieDef::numeric("d6", 6);
    /// assert_eq!(d6.faces.len(), 6);
    /// assert_eq!(d6.faces[5].value, 6);
    /// ```
    #[must_use]
    pub fn numeric(name: &str, sides: u8) -> Self {
        Self {
            name: name.to_owned(),
            faces: (1..=i32::from(sides))
                .map(|v| Face {
                    value: v,
                    label: v.to_string(),
                    tags: Vec::new(),
                })
                .collect(),
        }
    }

    /// The probability of each face (by index) when faces in `reroll` are rolled once more
    /// and the second roll stands.
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::{dice::DieDef, Ratio};
    /// // "Reliable: re-roll a 1" on a d6: a 1 now needs two ones in a row.
    /// let d6 = DieDef::numeric("d6", 6);
    /// let odds = d6.face_odds(&[0]);
    /// assert_eq!(odds[0], Ratio::new(1, 36));
    /// assert_eq!(odds[5], Ratio::new(7, 36));
    /// ```
    #[must_use]
    pub fn face_odds(&self, reroll: &[u8]) -> Vec<Ratio> {
        let n = self.faces.len() as u128;
        let plain = Ratio::new(1, n);
        let rerolled = Ratio::new(
            (0..self.faces.len())
                .filter(|i| reroll.contains(&(*i as u8)))
                .count() as u128,
            n,
        );
        (0..self.faces.len())
            .map(|i| {
                let keep = if reroll.contains(&(i as u8)) {
                    Ratio::ZERO
                } else {
                    plain
                };
                keep + rerolled * plain
            })
            .collect()
    }
}

/// `count` dice of one kind, e.g. the `2d6` of a break test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceTerm {
    /// How many dice.
    pub count: u8,
    /// Which die.
    pub die: DieId,
}

/// What to roll: a sum of terms (`2d6`, `d10`, `cube`). Empty means "no roll".
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceExpr {
    /// The terms, rolled in order.
    pub terms: Vec<DiceTerm>,
}

/// One die as rolled, for the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieRoll {
    /// Which die.
    pub die: DieId,
    /// Index of the face that stands.
    pub face: u8,
    /// Its value.
    pub value: i32,
    /// The face rolled first, when a re-roll policy made it roll again.
    pub rerolled_from: Option<u8>,
}

/// The game's only source of chance: ChaCha12 seeded from a `u64`. Portable across
/// platforms and versions because it draws raw words and maps them to faces itself
/// (unbiased rejection sampling), rather than through a library's distribution code.
#[derive(Clone, Debug)]
pub struct GameRng {
    seed: u64,
    rng: ChaCha12Rng,
}

impl GameRng {
    /// A generator for `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            rng: ChaCha12Rng::seed_from_u64(seed),
        }
    }

    /// An independent generator for `seed`: stream 0 is [`Self::new`]; each side of a
    /// game rolls on its own stream, so the rolls one side makes in secret cannot shift
    /// the dice another side sees.
    #[must_use]
    pub fn stream(seed: u64, stream: u64) -> Self {
        let mut rng = ChaCha12Rng::seed_from_u64(seed);
        rng.set_stream(stream);
        Self { seed, rng }
    }

    /// The seed it started from.
    #[must_use]
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// How many 32-bit words have been drawn: the generator's whole state besides the seed.
    #[must_use]
    pub fn position(&self) -> u128 {
        self.rng.get_word_pos()
    }

    /// A uniform number in `0..n` (`n` ≥ 1; 0 gives 0).
    ///
    /// # Example
    /// ```
    /// use grognard_kernel::dice::GameRng;
    /// let mut a = GameRng::new(7);
    /// let mut b = GameRng::new(7);
    /// let xs: Vec<u32> = (0..5).map(|_| a.below(6)).collect();
    /// let ys: Vec<u32> = (0..5).map(|_| b.below(6)).collect();
    /// assert_eq!(xs, ys);
    /// assert!(xs.iter().all(|x| *x < 6));
    /// ```
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        // Reject the top partial block so every residue is equally likely.
        let zone = u32::MAX - (u32::MAX - n + 1) % n;
        loop {
            let x = self.rng.next_u32();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// Rolls `die`, rolling again once if the first face is in `reroll` (second roll stands).
    pub fn roll(&mut self, id: DieId, die: &DieDef, reroll: &[u8]) -> DieRoll {
        let sides = u32::try_from(die.faces.len()).unwrap_or(u32::MAX);
        let first = self.below(sides) as u8;
        let (face, rerolled_from) = if reroll.contains(&first) {
            (self.below(sides) as u8, Some(first))
        } else {
            (first, None)
        };
        DieRoll {
            die: id,
            face,
            value: die.faces.get(usize::from(face)).map_or(0, |f| f.value),
            rerolled_from,
        }
    }
}

impl Eq for GameRng {}

impl PartialEq for GameRng {
    fn eq(&self, other: &Self) -> bool {
        self.seed == other.seed
            && self.rng.get_stream() == other.rng.get_stream()
            && self.position() == other.position()
    }
}

impl Serialize for GameRng {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (
            self.seed,
            self.rng.get_stream(),
            self.position().to_string(),
        )
            .serialize(s)
    }
}

impl<'de> Deserialize<'de> for GameRng {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (seed, stream, pos): (u64, u64, String) = Deserialize::deserialize(d)?;
        let pos: u128 = pos.parse().map_err(serde::de::Error::custom)?;
        let mut rng = Self::stream(seed, stream);
        rng.rng.set_word_pos(pos);
        Ok(rng)
    }
}

/// The exact distribution of the sum of `expr`, each die with its re-roll faces.
///
/// # Example
/// ```
/// use grognard_kernel::dice::{sum_odds, DiceExpr, DiceTerm, DieDef};
/// use grognard_kernel::ids::DieId;
/// use grognard_kernel::Ratio;
/// let dice = [DieDef::numeric("d6", 6)];
/// let two_d6 = DiceExpr { terms: vec![DiceTerm { count: 2, die: DieId(0) }] };
/// let odds = sum_odds(&two_d6, &dice, &|_| &[]);
/// assert_eq!(odds[&7], Ratio::new(1, 6));
/// assert_eq!(odds[&12], Ratio::new(1, 36));
/// ```
#[must_use]
pub fn sum_odds<'a>(
    expr: &DiceExpr,
    dice: &[DieDef],
    reroll: &dyn Fn(DieId) -> &'a [u8],
) -> BTreeMap<i32, Ratio> {
    let mut total: BTreeMap<i32, Ratio> = BTreeMap::from([(0, Ratio::ONE)]);
    for term in &expr.terms {
        let Some(die) = dice.get(term.die.index()) else {
            continue;
        };
        let faces = die.face_odds(reroll(term.die));
        for _ in 0..term.count {
            let mut next = BTreeMap::new();
            for (sum, p) in &total {
                for (face, q) in die.faces.iter().zip(&faces) {
                    let slot = next
                        .entry(sum.saturating_add(face.value))
                        .or_insert(Ratio::ZERO);
                    *slot = *slot + *p * *q;
                }
            }
            total = next;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn must_reroll_a_six_shifts_odds_down() {
        // 003 (skirmishers): "Unreliable must re-roll a 6; the second roll stands."
        let d6 = DieDef::numeric("d6", 6);
        let odds = d6.face_odds(&[5]);
        assert_eq!(odds[5], Ratio::new(1, 36));
        assert_eq!(odds[0], Ratio::new(7, 36));
        let total = odds.iter().fold(Ratio::ZERO, |a, b| a + *b);
        assert_eq!(total, Ratio::ONE);
    }

    #[test]
    fn rng_is_reproducible_and_serialises_its_position() {
        let mut rng = GameRng::new(42);
        let d10 = DieDef::numeric("d10", 10);
        let _ = rng.roll(DieId(0), &d10, &[]);
        let json = serde_json::to_string(&rng).unwrap_or_default();
        let mut copy: GameRng = serde_json::from_str(&json).unwrap_or_else(|_| GameRng::new(0));
        assert_eq!(copy, rng);
        assert_eq!(copy.below(1000), rng.below(1000));
    }
}
