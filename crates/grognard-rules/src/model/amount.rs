//! An effect's `amount:` as a ruleset writes it: a whole number, a word naming a number the
//! roll gives (`score`, `natural`, `die 2`, a chart input), or one operation on amounts
//! (`{ half: score, round: up }`, `{ sum: [score, 1] }`, `{ max: [score, 1] }`). The
//! compiler (`crate::amount`) turns it into the kernel's typed `Amount`; nothing here
//! resolves names.

use core::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::de::Located;
use crate::model::{AmountOp, Round};
use crate::suggest::did_you_mean;

/// An effect's amount as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AmountSpec {
    /// A whole number (`2`, `-1`).
    Number(i32),
    /// `score`, `natural`, `die N` or a chart input's name.
    Word(String),
    /// One operation (`half`, `double`, `negate`, `sum`, `min`, `max`) with its operands,
    /// and the rounding its halvings use (`round:`), if written here.
    Op {
        /// The operation's key.
        op: AmountOp,
        /// Its operands (one for `half`, `double`, `negate`).
        args: Vec<Located<AmountSpec>>,
        /// `down`, `up` or `nearest`.
        round: Option<Round>,
    },
}

impl Default for AmountSpec {
    fn default() -> Self {
        Self::Number(1)
    }
}

impl AmountSpec {
    /// The fixed number, when that is all it is.
    #[must_use]
    pub const fn number(&self) -> Option<i32> {
        match self {
            Self::Number(n) => Some(*n),
            _ => None,
        }
    }
}

/// Written back as read: a number stays a YAML integer, so a ruleset whose amounts are all
/// numbers keeps its identity hash.
impl Serialize for AmountSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Number(n) => s.serialize_i32(*n),
            Self::Word(w) => s.serialize_str(w),
            Self::Op { op, args, round } => {
                let mut map = s.serialize_map(Some(1 + usize::from(round.is_some())))?;
                match args.as_slice() {
                    [one] if op.unary() => map.serialize_entry(op.word(), one)?,
                    _ => map.serialize_entry(op.word(), args)?,
                }
                if let Some(r) = round {
                    map.serialize_entry("round", r)?;
                }
                map.end()
            }
        }
    }
}

impl fmt::Display for AmountSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::Word(w) => f.write_str(w),
            Self::Op { op, args, round } => {
                let parts: Vec<String> = args.iter().map(|a| a.value.to_string()).collect();
                let unary = op.unary();
                let op = op.word();
                match args.as_slice() {
                    [_] if unary => write!(f, "{{{op}: {}", parts[0])?,
                    _ => write!(f, "{{{op}: [{}]", parts.join(", "))?,
                }
                if let Some(r) = round {
                    write!(f, ", round: {}", r.word())?;
                }
                f.write_str("}")
            }
        }
    }
}

/// An amount is a number, a word or a one-operation map; the schema says which words and
/// keys.
impl schemars::JsonSchema for AmountSpec {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Amount".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let me = generator.subschema_for::<Self>();
        let words: Vec<&str> = Round::ALL.iter().map(|r| r.word()).collect();
        let round = schemars::json_schema!({
            "enum": words,
            "description": "How its halvings round (else the chart's `round:`): down, up, or nearest (a half rounds up).",
        });
        let unary = |key: &str, what: &str| {
            schemars::json_schema!({
                "type": "object",
                "properties": { key: me.clone(), "round": round.clone() },
                "required": [key],
                "additionalProperties": false,
                "description": what,
            })
        };
        let list = |key: &str, what: &str| {
            schemars::json_schema!({
                "type": "object",
                "properties": {
                    key: { "type": "array", "items": me.clone(), "minItems": 1 },
                    "round": round.clone(),
                },
                "required": [key],
                "additionalProperties": false,
                "description": what,
            })
        };
        schemars::json_schema!({
            "description": "An amount: a whole number, or computed from the action's roll: `score` (dice + modifiers, scaled), `natural` (the dice before modifiers), `die N` (the Nth die rolled), a chart input's name, or one operation.",
            "oneOf": [
                { "type": "integer" },
                { "type": "string", "description": "`score`, `natural`, `die N` or a chart input's name" },
                unary("half", "Half of it, rounded as `round:` says (here, an enclosing amount, or the chart)."),
                unary("double", "Twice it."),
                unary("negate", "Minus it (take hits away)."),
                list("sum", "The sum of the amounts."),
                list("min", "The smallest of the amounts (a ceiling: `[score, 6]`)."),
                list("max", "The largest of the amounts (a floor: `[score, 1]`)."),
            ],
        })
    }
}

impl<'de> Deserialize<'de> for AmountSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AmountVisitor)
    }
}

struct AmountVisitor;

const EXPECTED: &str = "a whole number, `score`, `natural`, `die N`, a chart input, or one of half, double, negate, sum, min, max";

impl<'de> Visitor<'de> for AmountVisitor {
    type Value = AmountSpec;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EXPECTED)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<AmountSpec, E> {
        i32::try_from(v)
            .map(AmountSpec::Number)
            .map_err(|_| E::custom(format!("amount {v} is out of range")))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<AmountSpec, E> {
        i32::try_from(v)
            .map(AmountSpec::Number)
            .map_err(|_| E::custom(format!("amount {v} is out of range")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<AmountSpec, E> {
        Err(E::custom(format!(
            "expected a whole number, found {v}; for half of something write `{{ half: ... }}`"
        )))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<AmountSpec, E> {
        let word = v.trim();
        if word.is_empty() {
            return Err(E::custom(format!("expected {EXPECTED}, found empty text")));
        }
        Ok(AmountSpec::Word(word.to_owned()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AmountSpec, A::Error> {
        let mut op: Option<(AmountOp, Vec<Located<AmountSpec>>)> = None;
        let mut round = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "round" {
                round = Some(map.next_value::<Round>()?);
                continue;
            }
            let Some(this) = AmountOp::ALL.iter().copied().find(|o| o.word() == key) else {
                let keys = AmountOp::ALL.iter().map(|o| o.word()).chain(["round"]);
                let hint = did_you_mean(&key, keys)
                    .map_or_else(String::new, |s| format!(" (did you mean `{s}`?)"));
                return Err(de::Error::custom(format!(
                    "unknown key `{key}` in an amount{hint}; expected one of half, double, negate, sum, min, max, and round"
                )));
            };
            let args = if this.unary() {
                vec![map.next_value::<Located<AmountSpec>>()?]
            } else {
                let args = map.next_value::<Vec<Located<AmountSpec>>>()?;
                if args.is_empty() {
                    return Err(de::Error::custom(format!(
                        "`{key}` needs at least one amount: `{key}: [score, 1]`"
                    )));
                }
                args
            };
            if let Some((first, _)) = &op {
                return Err(de::Error::custom(format!(
                    "an amount does one thing: `{}` and `{key}` are both given; nest one inside the other",
                    first.word()
                )));
            }
            op = Some((this, args));
        }
        match op {
            Some((op, args)) => Ok(AmountSpec::Op { op, args, round }),
            None => Err(de::Error::custom(
                "this amount names no operation; expected one of half, double, negate, sum, min, max",
            )),
        }
    }
}
