//! Small parsers the compiler shares: dice expressions (`2d6`, `cube`, `d6 + d6`), costs
//! that may be `impassable` and score ranges (`3-5`, `7+`).

use grognard_kernel::Cost;
use grognard_kernel::dice::{DiceExpr, DiceTerm, DieDef};

use crate::de::Located;
use crate::model::Text;
use crate::names::{NameTable, kind};
use crate::number::parse_cost;

use super::Cx;

/// What a dice expression is rolled for: a chart's score may add a fixed amount, an
/// initiative roll may not.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum DiceUse {
    /// A chart's `dice:`.
    Chart,
    /// `sequence.initiative`.
    Initiative,
}

/// Parses a dice expression: `2d6`, `d10`, `cube`, `2 cube`, `d6 + d6`, and for a chart a
/// fixed amount added or taken away (`d6 + 1`, `2d6 - 2`), returned beside the dice.
pub(super) fn parse_dice(
    cx: &mut Cx,
    text: &Located<String>,
    dice: &mut Vec<DieDef>,
    names: &mut Vec<String>,
    used: DiceUse,
) -> (DiceExpr, i32) {
    let mut terms = Vec::new();
    let mut constant = 0i32;
    for part in text
        .value
        .split('+')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        // A declared die may have a hyphen in its name (`melee-d6`); anything else with
        // one takes something away, which may only be a fixed amount after the dice.
        let named = names
            .iter()
            .any(|n| n.contains(['-', '\u{2212}']) && part.ends_with(n.as_str()));
        let (part, taken) = match split_minus(part) {
            Some((dice_part, n)) if !named => (dice_part, Some(n)),
            _ => (part, None),
        };
        let fixed = part.chars().all(|c| c.is_ascii_digit());
        let bad_minus = !named && part.contains(['-', '\u{2212}']);
        if used == DiceUse::Initiative && (fixed || taken.is_some() || bad_minus) {
            let what = if fixed {
                format!("a constant term (`{part}`) is")
            } else {
                "taking away is".to_owned()
            };
            cx.error_help(
                &text.location,
                format!(
                    "`{}`: a dice expression adds dice only (`2d6`, `d6 + d6`, `2 cube`); \
                     {what} not supported here",
                    text.value.trim()
                ),
                Some(
                    "the sides' initiative rolls are compared with each other, so a fixed \
                     amount every side adds changes nothing: write the dice alone \
                     (`initiative: d6`)"
                        .to_owned(),
                ),
            );
            continue;
        }
        if bad_minus {
            cx.error_help(
                &text.location,
                format!(
                    "`{}`: only a fixed amount may be taken away (`2d6 - 2`), not dice",
                    text.value.trim()
                ),
                Some("to take a die's roll away, use a computed amount or a modifier".to_owned()),
            );
            continue;
        }
        if fixed {
            // `1 - 2` in `d6 + 1 - 2`: the amount taken away after it counts too.
            constant = constant
                .saturating_add(part.parse::<i32>().unwrap_or(i32::MAX))
                .saturating_sub(taken.unwrap_or(0));
            continue;
        }
        if let Some(n) = taken {
            constant = constant.saturating_sub(n);
        }
        let (count, die) = match part.find(|c: char| !c.is_ascii_digit()) {
            Some(0) => (1u8, part),
            Some(i) => {
                let n = part[..i].parse::<u8>().unwrap_or(0);
                (n, part[i..].trim())
            }
            None => (0, part),
        };
        if count == 0 || count > 20 {
            cx.error(
                &text.location,
                format!(
                    "`{part}`: expected a die count from 1 to 20 before the die name (e.g. `2d6`)"
                ),
            );
            continue;
        }
        // A numeric die (`d6`, `d10`) exists without being declared: added the first time
        // it is named. Any other name is looked up among the dice as any name is.
        if !names.iter().any(|n| n == die)
            && let Some(sides @ 2..=100) = die.strip_prefix('d').and_then(|s| s.parse::<u8>().ok())
        {
            names.push(die.to_owned());
            dice.push(DieDef::numeric(die, sides));
        }
        let written = Located::new(die.to_owned(), text.location.clone());
        let Some(die) = NameTable::find(cx, kind::Die, &written, names.iter().map(String::as_str))
        else {
            // Here, unlike a chart's die, a plain numbered die needs no declaring: say so.
            if let Some(d) = cx.diags.last_mut() {
                let dn = "a plain die of N faces is written dN (`d6`, `d10`) without declaring it";
                d.help = Some(match d.help.take() {
                    Some(h) => format!("{h}; {dn}"),
                    None => format!("declare it under `dice:`, or {dn}"),
                });
            }
            continue;
        };
        terms.push(DiceTerm { count, die });
    }
    if terms.is_empty() && text.value.trim().is_empty() {
        cx.error(&text.location, "expected dice, e.g. `2d6`, `d10` or `cube`");
    } else if terms.is_empty() && constant != 0 {
        cx.error(
            &text.location,
            format!(
                "`{}`: a fixed amount needs dice to add to (`d6 + 1`)",
                text.value.trim()
            ),
        );
    }
    (DiceExpr { terms }, constant)
}

/// `d6 - 1` → (`d6`, 1): a term that ends by taking away a whole number.
/// `2d6 - 2` → (`2d6`, 2); `d6 - 1 - 1` → (`d6`, 2): every fixed amount taken away at the
/// end of a part, summed. `None` when nothing (or something other than a number) is.
fn split_minus(part: &str) -> Option<(&str, i32)> {
    let mut left = part;
    let mut taken = 0i32;
    while let Some((i, c)) = left
        .char_indices()
        .rev()
        .find(|(_, c)| *c == '-' || *c == '\u{2212}')
    {
        let before = left[..i].trim();
        let right = left[i + c.len_utf8()..].trim();
        if before.is_empty() || right.is_empty() || !right.chars().all(|c| c.is_ascii_digit()) {
            break;
        }
        taken = taken.saturating_add(right.parse().ok()?);
        left = before;
    }
    (left != part).then_some((left, taken))
}

pub(super) fn cost_or_impassable(cx: &mut Cx, text: &Located<Text>) -> Option<Option<Cost>> {
    let t = text.value.trim();
    if t.eq_ignore_ascii_case("impassable") || t.eq_ignore_ascii_case("not allowed") || t == "-" {
        return Some(None);
    }
    match parse_cost(t) {
        Ok(c) if c.is_negative() => {
            cx.error(&text.location, format!("`{t}`: costs cannot be negative"));
            None
        }
        Ok(c) => Some(Some(c)),
        Err(e) => {
            cx.error(
                &text.location,
                format!("{e}; expected a cost like `+½`, `1`, `1½` or `impassable`"),
            );
            None
        }
    }
}

/// Parses a score range: `7`, `8-10`, `10+`, `3-` (3 or less).
pub(super) fn parse_range(text: &str) -> Option<(Option<i32>, Option<i32>)> {
    let t = text.trim();
    if let Some(lo) = t.strip_suffix('+') {
        return lo.trim().parse().ok().map(|v| (Some(v), None));
    }
    if let Some(hi) = t.strip_suffix('-')
        && !hi.is_empty()
    {
        return hi.trim().parse().ok().map(|v| (None, Some(v)));
    }
    // A dash after the first character separates a range (`-2-0` is −2 to 0).
    if let Some(i) = t
        .char_indices()
        .skip(1)
        .find(|(_, c)| *c == '-')
        .map(|(i, _)| i)
    {
        let lo = t[..i].trim().parse().ok()?;
        let hi = t[i + 1..].trim().parse().ok()?;
        return Some((Some(lo), Some(hi)));
    }
    t.parse().ok().map(|v| (Some(v), Some(v)))
}
