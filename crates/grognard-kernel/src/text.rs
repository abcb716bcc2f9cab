//! Numbers as people write them, for messages that echo a value from a file or a hook:
//! `1e308`, not a 309-digit number.

/// `x` as a person would write it: plain for everyday magnitudes (`1.5`, `-0.25`,
/// `120000`), in exponent form beyond them (`1e308`, `2.5e-7`), and in words when it is no
/// number at all.
#[must_use]
pub fn number(x: f64) -> String {
    if x.is_nan() {
        return "not a number (NaN)".to_owned();
    }
    if x.is_infinite() {
        return if x > 0.0 {
            "infinity"
        } else {
            "minus infinity"
        }
        .to_owned();
    }
    let size = x.abs();
    if size == 0.0 || (1e-4..1e15).contains(&size) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(number(1e308), "1e308");
        assert_eq!(number(-1.5e300), "-1.5e300");
        assert_eq!(number(2.5e-7), "2.5e-7");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(-0.25), "-0.25");
        assert_eq!(number(120_000.0), "120000");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(f64::INFINITY), "infinity");
        assert_eq!(number(f64::NAN), "not a number (NaN)");
        assert!(number(f64::MAX).len() < 30);
    }
}
