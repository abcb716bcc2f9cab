//! Wargame numbers as people write them: `1½` movement points, `+½`, `3/2`, `8.1"`.
//!
//! Costs are fixed-point hundredths ([`Cost`]); lengths are thousandths of an inch. A value
//! that cannot be held exactly (`1/3` of a point, `0.0001"`) is refused with a message rather
//! than rounded, so a chart never silently changes.
//!
//! ```
//! use grognard_rules::number::{parse_cost, parse_len};
//! assert_eq!(parse_cost("1½").map(|c| c.hundredths()), Ok(150));
//! assert_eq!(parse_cost("+0.25").map(|c| c.hundredths()), Ok(25));
//! assert_eq!(parse_len("8.1\""), Ok(8_100));
//! assert_eq!(parse_len("1'"), Ok(12_000));
//! ```

use core::fmt;

use grognard_kernel::Cost;
use grognard_kernel::geometry::open::Len;
use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::{Serialize, Serializer};

/// What a cost may look like, for error messages.
const COST_FORMS: &str = "a number such as 1, -1, ½, 1½, 1 1/2, 3/2 or 1.5";
/// What a length may look like, for error messages.
const LEN_FORMS: &str = "a length in inches such as 12, 12\", 8.1\", 8.1in or 1'";
/// More digits than any sane value has; also keeps the arithmetic well inside `i128`.
const MAX_DIGITS: usize = 30;

/// Parses a movement cost or allowance into hundredths.
///
/// Accepts an optional sign (`+`, `-` or `−`) followed by a whole number (`1`), a decimal
/// (`1.5`, `0.25`, `.5`), a vulgar fraction on its own or after a whole number (`½`, `1½`,
/// `1 ½`), or a fraction (`3/2`, `1 1/2`). Surrounding spaces are ignored.
///
/// # Errors
/// A message saying what was expected when the text is not such a number, is not a whole
/// number of hundredths (`1/3`), or does not fit a [`Cost`].
///
/// ```
/// use grognard_rules::number::parse_cost;
/// let h = |s: &str| parse_cost(s).map(|c| c.hundredths());
/// assert_eq!(h("1"), Ok(100));
/// assert_eq!(h("-1"), Ok(-100));
/// assert_eq!(h("+½"), Ok(50));
/// assert_eq!(h("¾"), Ok(75));
/// assert_eq!(h("1 1/2"), Ok(150));
/// assert_eq!(h("3/2"), Ok(150));
/// assert_eq!(h("1/3"), Err("1/3 is not a whole number of hundredths".to_string()));
/// assert!(h("abc").is_err());
/// ```
pub fn parse_cost(text: &str) -> Result<Cost, String> {
    let trimmed = text.trim();
    let value = parse_rational(trimmed).map_err(|problem| problem.message(trimmed, COST_FORMS))?;
    let hundredths = value
        .scaled(100)
        .ok_or_else(|| format!("{trimmed} is not a whole number of hundredths"))?;
    i32::try_from(hundredths)
        .map(Cost::from_hundredths)
        .map_err(|_| cost_out_of_range(trimmed))
}

/// Parses a length on an open table into thousandths of an inch (the unit of
/// [`Len`]; see also [`LenValue`]).
///
/// A number as for [`parse_cost`], then an optional unit: none or `"`, `in`, `inch`,
/// `inches` for inches; `'`, `ft`, `foot`, `feet` for feet (12 inches). Feet and inches may
/// be combined: `1' 6"`.
///
/// # Errors
/// A message saying what was expected when the text is not such a length, is not a whole
/// number of thousandths of an inch, or is too large.
///
/// ```
/// use grognard_rules::number::parse_len;
/// assert_eq!(parse_len("12"), Ok(12_000));
/// assert_eq!(parse_len("12\""), Ok(12_000));
/// assert_eq!(parse_len("8.1in"), Ok(8_100));
/// assert_eq!(parse_len("1' 6\""), Ok(18_000));
/// assert_eq!(parse_len("½\""), Ok(500));
/// assert!(parse_len("3 furlongs").is_err());
/// ```
pub fn parse_len(text: &str) -> Result<i64, String> {
    let trimmed = text.trim();
    let (feet_part, inch_part) = split_feet(trimmed);
    let mut total: i128 = 0;
    let mut any = false;
    if let Some(feet) = feet_part {
        let value = parse_rational(feet.trim()).map_err(|p| p.message(trimmed, LEN_FORMS))?;
        let thousandths = value
            .scaled(12_000)
            .ok_or_else(|| format!("{trimmed} is not a whole number of thousandths of an inch"))?;
        total = thousandths;
        any = true;
    }
    let inches = strip_inch_unit(inch_part.trim());
    if !inches.is_empty() || !any {
        let value = parse_rational(inches.trim()).map_err(|p| p.message(trimmed, LEN_FORMS))?;
        let thousandths = value
            .scaled(1_000)
            .ok_or_else(|| format!("{trimmed} is not a whole number of thousandths of an inch"))?;
        total = total
            .checked_add(thousandths)
            .ok_or_else(|| format!("{trimmed} is too large for a length"))?;
    }
    i64::try_from(total).map_err(|_| format!("{trimmed} is too large for a length"))
}

/// Splits `1' 6"` into the feet text (`1`) and the rest (`6"`).
fn split_feet(text: &str) -> (Option<&str>, &str) {
    for unit in ["feet", "foot", "ft", "'"] {
        if let Some(at) = text.find(unit) {
            return (Some(&text[..at]), &text[at + unit.len()..]);
        }
    }
    (None, text)
}

/// Removes a trailing inch unit.
fn strip_inch_unit(text: &str) -> &str {
    for unit in ["inches", "inch", "in", "\""] {
        if let Some(rest) = text.strip_suffix(unit) {
            return rest;
        }
    }
    text
}

fn cost_out_of_range(text: &str) -> String {
    format!(
        "{text} is too large for a cost; costs go from {} to {}",
        Cost::from_hundredths(i32::MIN),
        Cost::from_hundredths(i32::MAX)
    )
}

/// An exact signed fraction `num / den` with `den > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rational {
    num: i128,
    den: i128,
}

impl Rational {
    /// `self × scale` when that is a whole number.
    fn scaled(self, scale: i128) -> Option<i128> {
        let scaled = self.num.checked_mul(scale)?;
        (scaled % self.den == 0).then(|| scaled / self.den)
    }
}

/// Why a text is not a number.
#[derive(Debug, PartialEq, Eq)]
enum Problem {
    Empty,
    Junk,
    TooLong,
    DivideByZero,
}

impl Problem {
    fn message(&self, text: &str, forms: &str) -> String {
        match self {
            Self::Empty => format!("expected {forms}, found nothing"),
            Self::Junk => format!("expected {forms}, found {}", crate::diag::quote(text)),
            Self::TooLong => format!("{} has too many digits", crate::diag::quote(text)),
            Self::DivideByZero => format!("{} divides by zero", crate::diag::quote(text)),
        }
    }
}

/// The value of a vulgar-fraction character.
fn glyph(c: char) -> Option<(i128, i128)> {
    Some(match c {
        '½' => (1, 2),
        '¼' => (1, 4),
        '¾' => (3, 4),
        '⅓' => (1, 3),
        '⅔' => (2, 3),
        '⅕' => (1, 5),
        '⅖' => (2, 5),
        '⅗' => (3, 5),
        '⅘' => (4, 5),
        '⅙' => (1, 6),
        '⅚' => (5, 6),
        '⅛' => (1, 8),
        '⅜' => (3, 8),
        '⅝' => (5, 8),
        '⅞' => (7, 8),
        _ => return None,
    })
}

/// Parses a run of ASCII digits.
fn digits(text: &str) -> Result<i128, Problem> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Problem::Junk);
    }
    if text.len() > MAX_DIGITS {
        return Err(Problem::TooLong);
    }
    text.bytes().try_fold(0i128, |acc, b| {
        acc.checked_mul(10)
            .and_then(|acc| acc.checked_add(i128::from(b - b'0')))
            .ok_or(Problem::TooLong)
    })
}

/// Parses a signed number in any of the accepted forms.
fn parse_rational(text: &str) -> Result<Rational, Problem> {
    if text.is_empty() {
        return Err(Problem::Empty);
    }
    let (negative, body) = if let Some(rest) = text.strip_prefix('-') {
        (true, rest)
    } else if let Some(rest) = text.strip_prefix('−') {
        (true, rest)
    } else if let Some(rest) = text.strip_prefix('+') {
        (false, rest)
    } else {
        (false, text)
    };
    let body = body.trim_start();
    let value = parse_unsigned(body)?;
    Ok(if negative {
        Rational {
            num: -value.num,
            den: value.den,
        }
    } else {
        value
    })
}

/// Parses an unsigned number: whole, decimal, glyph, whole + glyph, fraction, whole + fraction.
fn parse_unsigned(body: &str) -> Result<Rational, Problem> {
    if body.is_empty() {
        return Err(Problem::Junk);
    }
    // A vulgar fraction at the end: `½`, `1½`, `1 ½`.
    let mut chars = body.chars();
    if let Some((num, den)) = chars.next_back().and_then(glyph) {
        let whole = chars.as_str().trim_end();
        let whole = if whole.is_empty() { 0 } else { digits(whole)? };
        let num = whole
            .checked_mul(den)
            .and_then(|w| w.checked_add(num))
            .ok_or(Problem::TooLong)?;
        return Ok(Rational { num, den });
    }
    // A fraction, possibly after a whole number: `3/2`, `1 1/2`.
    if let Some((left, den)) = body.split_once('/') {
        let den = digits(den.trim())?;
        if den == 0 {
            return Err(Problem::DivideByZero);
        }
        let left = left.trim_end();
        let (whole, num) = match left.rsplit_once(' ') {
            Some((whole, num)) => (digits(whole.trim())?, digits(num)?),
            None => (0, digits(left)?),
        };
        let num = whole
            .checked_mul(den)
            .and_then(|w| w.checked_add(num))
            .ok_or(Problem::TooLong)?;
        return Ok(Rational { num, den });
    }
    // A decimal: `1.5`, `0.25`, `.5`.
    if let Some((whole, frac)) = body.split_once('.') {
        let whole = if whole.is_empty() { 0 } else { digits(whole)? };
        let frac_value = digits(frac)?;
        let den = 10i128
            .checked_pow(u32::try_from(frac.len()).map_err(|_| Problem::TooLong)?)
            .ok_or(Problem::TooLong)?;
        let num = whole
            .checked_mul(den)
            .and_then(|w| w.checked_add(frac_value))
            .ok_or(Problem::TooLong)?;
        return Ok(Rational { num, den });
    }
    Ok(Rational {
        num: digits(body)?,
        den: 1,
    })
}

/// A [`Cost`] as written in a file: a whole number (`2`), a decimal that is a whole number
/// of hundredths (`1.5`), or text in any form [`parse_cost`] accepts (`"1½"`, `"+½"`,
/// `"1 1/2"`).
///
/// Serializes back as the nicest text: a YAML integer when whole (`2`), otherwise the cost's
/// own rendering (`"1½"`, `"0.33"`).
///
/// ```
/// use grognard_rules::number::CostValue;
/// let c: CostValue = serde_json::from_str("\"1½\"").unwrap();
/// assert_eq!(c.0.hundredths(), 150);
/// assert_eq!(serde_json::to_string(&c).unwrap(), "\"1½\"");
/// let two: CostValue = serde_json::from_str("2").unwrap();
/// assert_eq!(serde_json::to_string(&two).unwrap(), "2");
/// assert!(serde_json::from_str::<CostValue>("0.333").is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CostValue(pub Cost);

impl From<CostValue> for Cost {
    fn from(value: CostValue) -> Self {
        value.0
    }
}

impl From<Cost> for CostValue {
    fn from(value: Cost) -> Self {
        Self(value)
    }
}

impl fmt::Display for CostValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for CostValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let hundredths = self.0.hundredths();
        if hundredths % 100 == 0 {
            serializer.serialize_i32(hundredths / 100)
        } else {
            serializer.collect_str(&self.0)
        }
    }
}

/// A cost is a number (`1.5`) or text (`1½`, `"3/2"`, `+½`).
impl schemars::JsonSchema for CostValue {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Cost".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": ["string", "number"],
            "description": "A cost in hundredths: 1, 1.5, ½, 1½, \"3/2\", +½",
        })
    }
}

impl<'de> Deserialize<'de> for CostValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(CostVisitor)
    }
}

struct CostVisitor;

impl Visitor<'_> for CostVisitor {
    type Value = CostValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(COST_FORMS)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<CostValue, E> {
        v.checked_mul(100)
            .and_then(|h| i32::try_from(h).ok())
            .map(|h| CostValue(Cost::from_hundredths(h)))
            .ok_or_else(|| E::custom(cost_out_of_range(&v.to_string())))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<CostValue, E> {
        match i64::try_from(v) {
            Ok(v) => self.visit_i64(v),
            Err(_) => Err(E::custom(cost_out_of_range(&v.to_string()))),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<CostValue, E> {
        if !v.is_finite() {
            return Err(E::custom(format!(
                "expected {COST_FORMS}, found {}",
                shown(v)
            )));
        }
        let scaled = v * 100.0;
        let rounded = scaled.round();
        // Binary floats cannot hold 0.1 exactly; anything this close to a whole number of
        // hundredths was written as one.
        if (scaled - rounded).abs() > 1e-6 {
            return Err(E::custom(format!(
                "{} is not a whole number of hundredths",
                shown(v)
            )));
        }
        if rounded < f64::from(i32::MIN) || rounded > f64::from(i32::MAX) {
            return Err(E::custom(cost_out_of_range(&shown(v))));
        }
        // In range and whole, checked just above.
        #[allow(clippy::cast_possible_truncation)]
        let hundredths = rounded as i32;
        Ok(CostValue(Cost::from_hundredths(hundredths)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<CostValue, E> {
        parse_cost(v).map(CostValue).map_err(E::custom)
    }
}

/// A table length as written in a file: a whole number of inches (`12`), a decimal that is
/// a whole number of thousandths (`8.1`), or text in any form [`parse_len`] accepts
/// (`"8.1\""`, `"1'"`, `"8½in"`).
///
/// Serializes back as a YAML integer of inches when whole (`12`), otherwise as the length's
/// own rendering (`"8.1\""`).
///
/// ```
/// use grognard_kernel::geometry::open::Len;
/// use grognard_rules::number::LenValue;
/// let l: LenValue = serde_json::from_str(r#""1' 6\"""#).unwrap();
/// assert_eq!(l.0, Len(18_000));
/// assert_eq!(serde_json::to_string(&l).unwrap(), "18");
/// let l: LenValue = serde_json::from_str("8.1").unwrap();
/// assert_eq!(serde_json::to_string(&l).unwrap(), r#""8.1\"""#);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LenValue(pub Len);

impl From<LenValue> for Len {
    fn from(value: LenValue) -> Self {
        value.0
    }
}

impl From<Len> for LenValue {
    fn from(value: Len) -> Self {
        Self(value)
    }
}

impl Serialize for LenValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let thou = self.0.thou();
        if thou % 1_000 == 0 {
            serializer.serialize_i64(thou / 1_000)
        } else {
            serializer.collect_str(&self.0)
        }
    }
}

/// A length is a number of inches (`8.1`) or text (`1' 6"`).
impl schemars::JsonSchema for LenValue {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Length".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": ["string", "number"],
            "description": "A length in inches: 12, 8.1, 1' 6\"",
        })
    }
}

impl<'de> Deserialize<'de> for LenValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(LenVisitor)
    }
}

struct LenVisitor;

impl Visitor<'_> for LenVisitor {
    type Value = LenValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(LEN_FORMS)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<LenValue, E> {
        v.checked_mul(1_000)
            .map(|thou| LenValue(Len(thou)))
            .ok_or_else(|| E::custom(format!("{v} is too large for a length")))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<LenValue, E> {
        match i64::try_from(v) {
            Ok(v) => self.visit_i64(v),
            Err(_) => Err(E::custom(format!("{v} is too large for a length"))),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<LenValue, E> {
        if !v.is_finite() {
            return Err(E::custom(format!(
                "expected {LEN_FORMS}, found {}",
                shown(v)
            )));
        }
        let scaled = v * 1_000.0;
        let rounded = scaled.round();
        if (scaled - rounded).abs() > 1e-6 {
            return Err(E::custom(format!(
                "{} is not a whole number of thousandths of an inch",
                shown(v)
            )));
        }
        // 2^53 thou is about 142,000 miles: far beyond any table, and exact in an f64.
        if rounded.abs() > 9_007_199_254_740_992.0 {
            return Err(E::custom(format!("{} is too large for a length", shown(v))));
        }
        #[allow(clippy::cast_possible_truncation)]
        let thou = rounded as i64;
        Ok(LenValue(Len(thou)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<LenValue, E> {
        parse_len(v)
            .map(|thou| LenValue(Len(thou)))
            .map_err(E::custom)
    }
}

/// A decimal from a file as a person writes it (`1e308`, not 309 digits).
fn shown(v: f64) -> String {
    grognard_kernel::text::number(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(text: &str) -> Result<i32, String> {
        parse_cost(text).map(Cost::hundredths)
    }

    #[test]
    fn accepts_every_documented_form() {
        // 000: diagonal costs 1½ mp, written every way the sources write it.
        for text in ["1½", "1 ½", "1 1/2", "3/2", "1.5", "+1.5", " 1½ ", "1.50"] {
            assert_eq!(h(text), Ok(150), "{text}");
        }
        assert_eq!(h("½"), Ok(50));
        assert_eq!(h("+½"), Ok(50));
        assert_eq!(h("-½"), Ok(-50));
        assert_eq!(h("−1"), Ok(-100));
        assert_eq!(h("¼"), Ok(25));
        assert_eq!(h("0.25"), Ok(25));
        assert_eq!(h("+0.5"), Ok(50));
        assert_eq!(h(".5"), Ok(50));
        assert_eq!(h("0"), Ok(0));
        assert_eq!(
            h("2⅛"),
            Err("2⅛ is not a whole number of hundredths".into())
        );
    }

    #[test]
    fn refuses_junk_and_overflow() {
        for junk in [
            "", "abc", "1..5", "1/", "/2", "1½½", "--1", "1 2", "0x10", "1e3", "½1",
        ] {
            assert!(h(junk).is_err(), "{junk:?} should be refused");
        }
        assert_eq!(h("1/0"), Err("`1/0` divides by zero".into()));
        assert!(h("99999999999").is_err_and(|e| e.contains("too large")));
        assert!(h(&"9".repeat(40)).is_err_and(|e| e.contains("too many digits")));
        assert_eq!(h("21474836.47"), Ok(i32::MAX));
        assert!(h("21474836.48").is_err());
        assert_eq!(h("-21474836.48"), Ok(i32::MIN));
    }

    #[test]
    fn lengths() {
        assert_eq!(parse_len("12"), Ok(12_000));
        assert_eq!(parse_len("8.1\""), Ok(8_100));
        assert_eq!(parse_len("8.1 in"), Ok(8_100));
        assert_eq!(parse_len("2 inches"), Ok(2_000));
        assert_eq!(parse_len("1'"), Ok(12_000));
        assert_eq!(parse_len("2ft"), Ok(24_000));
        assert_eq!(parse_len("1'6\""), Ok(18_000));
        assert_eq!(parse_len("1 1/2\""), Ok(1_500));
        assert!(parse_len("0.0001").is_err_and(|e| e.contains("thousandths")));
        assert!(parse_len("").is_err());
        assert!(parse_len("\"").is_err());
        assert!(parse_len("1' 6\" 3").is_err());
        assert!(parse_len("1 cm").is_err());
    }

    #[test]
    fn len_value_round_trips_through_json() {
        for (json, thou, back) in [
            ("12", 12_000, "12"),
            ("8.1", 8_100, "\"8.1\\\"\""),
            ("\"8.1in\"", 8_100, "\"8.1\\\"\""),
            ("\"1'\"", 12_000, "12"),
        ] {
            let value: LenValue = serde_json::from_str(json).unwrap();
            assert_eq!(value.0.thou(), thou, "{json}");
            assert_eq!(serde_json::to_string(&value).unwrap(), back, "{json}");
        }
        assert!(serde_json::from_str::<LenValue>("0.0001").is_err());
        assert!(serde_json::from_str::<LenValue>("\"far\"").is_err());
    }

    #[test]
    fn cost_value_round_trips_through_json() {
        for (json, hundredths, back) in [
            ("2", 200, "2"),
            ("1.5", 150, "\"1½\""),
            ("\"1 1/2\"", 150, "\"1½\""),
            ("0.33", 33, "\"0.33\""),
            ("-1", -100, "-1"),
        ] {
            let value: CostValue = serde_json::from_str(json).unwrap();
            assert_eq!(value.0.hundredths(), hundredths, "{json}");
            assert_eq!(serde_json::to_string(&value).unwrap(), back, "{json}");
        }
        let err = serde_json::from_str::<CostValue>("0.333")
            .unwrap_err()
            .to_string();
        assert!(err.contains("not a whole number of hundredths"), "{err}");
        assert!(serde_json::from_str::<CostValue>("true").is_err());
        assert!(serde_json::from_str::<CostValue>("99999999999").is_err());
    }
}
