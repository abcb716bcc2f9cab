//! Worst-case cost of Lua 5.4's pattern matcher (`lstrlib.c`), computed before the call.
//!
//! The matcher is a backtracking recursion. Its cost is counted in *steps*: one call of
//! `match` or one single-character test. For a pattern of items `i_0 … i_k` and a subject of
//! length `n`, `W_j(s)` bounds the steps needed to match items `j…` starting at offset `s`
//! *if every attempt fails* (the worst case); `W_{k+1}(s) = 1` and, with `r_j(s)` the length
//! of the run of subject bytes from `s` that item `j`'s class accepts:
//!
//! | item `j`                | `W_j(s)`                                                  |
//! |-------------------------|-----------------------------------------------------------|
//! | `c` (single class)      | `1 + [c accepts s]·W_{j+1}(s+1)`                          |
//! | `c?`                    | `1 + [c accepts s]·W_{j+1}(s+1) + W_{j+1}(s)`             |
//! | `c*`, `c-`              | `1 + r + Σ_{k=0..r} W_{j+1}(s+k)`                         |
//! | `c+`                    | `1 + r + Σ_{k=1..r} W_{j+1}(s+k)` (or 1 if `r = 0`)       |
//! | `(`, `)`, `()`, `%f[…]` | `1 + W_{j+1}(s)`                                          |
//! | `%bxy`, `%1`–`%9`       | `1 + (n − s) + max_{e ≥ s} W_{j+1}(e)`                    |
//! | `$` at the end          | `1 + [s = n]`                                             |
//!
//! When everything after a `*`, `+` or `-` item is only captures (the rest cannot fail), the
//! first attempt succeeds, so only that attempt is counted. The total sums `W_0(s)` over every
//! start the call can try (one start if anchored with `^`; `gmatch` and `gsub` may try every
//! position). This is an exact dynamic programme in `O(n · items)` time. It is skipped when
//! the crude bound `starts · (items + 1) · Π f_j` (with `f_j = n + 1` for `*`, `+`, `-`,
//! `%b`, back-references and 2 for `?`) is tiny anyway, and it is only run while `n · items`
//! is at most [`DP_MAX_CELLS`] and `n` at most [`DP_MAX_SUBJECT`]; beyond that the crude
//! bound decides.
//! Compared with counting `n^q` for `q` quantified items, the run lengths keep ordinary
//! patterns (`"(%w+)%s*=%s*(%w+)"` on a line of text) cheap while `a*a*a*…b` on `aaaa…`
//! is refused.
//!
//! A plain `find` (or a pattern without special characters) is `memchr` + `memcmp`:
//! `(n − m + 1) · m` steps at worst.

use std::ops::Range;

/// Largest `(n + 1) · items` the exact estimate will tabulate.
pub(super) const DP_MAX_CELLS: usize = 4_000_000;
/// Longest subject the exact estimate will tabulate (its tables take 20 bytes a byte).
pub(super) const DP_MAX_SUBJECT: usize = 256 * 1024;
/// A crude bound this small is accepted as is.
const CRUDE_IS_CHEAP: u64 = 4096;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Op {
    Find,
    Match,
    Gmatch,
    Gsub,
}

impl Op {
    pub(super) const fn name(self) -> &'static str {
        match self {
            Self::Find => "find",
            Self::Match => "match",
            Self::Gmatch => "gmatch",
            Self::Gsub => "gsub",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Quantifier {
    One,
    Optional,
    Star,
    Plus,
    Lazy,
}

enum Item {
    Single {
        /// Where the class is in the pattern (`%a`, `[^,]`, `.`, `x`).
        class: Range<usize>,
        quantifier: Quantifier,
    },
    /// A capture boundary or position capture: zero width, always succeeds.
    Capture,
    /// `%f[set]`: zero width, may fail.
    Frontier,
    /// `%bxy`.
    Balance(u8),
    /// `%1`–`%9`.
    BackReference,
    /// `$` as the last pattern character.
    EndAnchor,
}

/// Whether Lua's `find` would treat `pattern` as a plain string (`nospecials`).
pub(super) fn has_specials(pattern: &[u8]) -> bool {
    pattern.iter().any(|b| b"^$*+?.([%-".contains(b))
}

/// Steps the call may take, saturated at `limit + 1`.
pub(super) fn estimate(
    op: Op,
    subject: &[u8],
    pattern: &[u8],
    start: usize,
    plain: bool,
    limit: u64,
) -> u64 {
    let too_much = limit.saturating_add(1);
    let n = subject.len();
    if plain {
        let m = pattern.len();
        let rest = n.saturating_sub(start);
        if m == 0 || m > rest {
            return 1;
        }
        return ((rest - m + 1) as u64)
            .saturating_mul(m as u64)
            .saturating_add(1)
            .min(too_much);
    }
    let anchored = op != Op::Gmatch && pattern.first() == Some(&b'^');
    let body = if anchored { &pattern[1..] } else { pattern };
    let items = parse(body);
    let starts = if anchored {
        1
    } else {
        (n - start.min(n) + 1) as u64
    };

    let mut crude = starts.saturating_mul(items.len() as u64 + 1);
    for item in &items {
        let factor = match item {
            Item::Single {
                quantifier: Quantifier::Star | Quantifier::Plus | Quantifier::Lazy,
                ..
            }
            | Item::Balance(_)
            | Item::BackReference => n as u64 + 1,
            Item::Single {
                quantifier: Quantifier::Optional,
                ..
            } => 2,
            _ => 1,
        };
        crude = crude.saturating_mul(factor);
    }
    // The crude bound is exact enough for small calls; otherwise tabulate, both to refuse
    // less and to charge less.
    if crude <= CRUDE_IS_CHEAP {
        return crude;
    }
    if n > DP_MAX_SUBJECT || (n + 1).saturating_mul(items.len()) > DP_MAX_CELLS {
        return if crude <= limit { crude } else { too_much };
    }
    worst_case_steps(&items, body, subject, start, anchored, too_much)
}

/// The dynamic programme described in the module documentation, saturating at `cap`.
fn worst_case_steps(
    items: &[Item],
    pattern: &[u8],
    subject: &[u8],
    start: usize,
    anchored: bool,
    cap: u64,
) -> u64 {
    let n = subject.len();
    let mut next = vec![1u64; n + 1];
    let mut current = vec![0u64; n + 1];
    let mut prefix = vec![0u64; n + 2];
    let mut run = vec![0usize; n + 1];
    // Whether everything after the item being processed is captures only.
    let mut rest_always_succeeds = true;
    for item in items.iter().rev() {
        match item {
            Item::Capture | Item::Frontier => {
                for s in 0..=n {
                    current[s] = next[s].saturating_add(1);
                }
            }
            Item::EndAnchor => {
                for s in 0..=n {
                    current[s] = 1 + if s == n { next[s] } else { 0 };
                }
            }
            Item::Balance(_) | Item::BackReference => {
                // Suffix maximum of `next`, then the scan of up to n - s bytes.
                let mut suffix_max = 0u64;
                for s in (0..=n).rev() {
                    suffix_max = suffix_max.max(next[s]);
                    let opens = match item {
                        Item::Balance(open) => s < n && subject[s] == *open,
                        _ => true,
                    };
                    current[s] = if opens {
                        (n - s) as u64 + 1 + suffix_max
                    } else {
                        1
                    };
                }
            }
            Item::Single { class, quantifier } => {
                let accepts = class_set(&pattern[class.clone()]);
                let accepts_at = |s: usize| s < n && accepts[usize::from(subject[s])];
                match quantifier {
                    Quantifier::One => {
                        for s in 0..=n {
                            current[s] = 1 + if accepts_at(s) { next[s + 1] } else { 0 };
                        }
                    }
                    Quantifier::Optional => {
                        for s in 0..=n {
                            let with = if accepts_at(s) { next[s + 1] } else { 0 };
                            current[s] = next[s].saturating_add(with).saturating_add(1);
                        }
                    }
                    Quantifier::Star | Quantifier::Plus | Quantifier::Lazy => {
                        run[n] = 0;
                        for s in (0..n).rev() {
                            run[s] = if accepts_at(s) { run[s + 1] + 1 } else { 0 };
                        }
                        prefix[0] = 0;
                        for s in 0..=n {
                            prefix[s + 1] = prefix[s].saturating_add(next[s]);
                        }
                        for s in 0..=n {
                            let r = run[s];
                            current[s] = match quantifier {
                                Quantifier::Plus if r == 0 => 1,
                                Quantifier::Plus if rest_always_succeeds => {
                                    (r as u64).saturating_add(next[s + r])
                                }
                                Quantifier::Plus => {
                                    (r as u64).saturating_add(prefix[s + r + 1] - prefix[s + 1])
                                }
                                Quantifier::Lazy if rest_always_succeeds => 1 + next[s],
                                _ if rest_always_succeeds => {
                                    (r as u64 + 1).saturating_add(next[s + r])
                                }
                                _ => (r as u64 + 1).saturating_add(prefix[s + r + 1] - prefix[s]),
                            };
                        }
                    }
                }
            }
        }
        for value in current.iter_mut() {
            *value = (*value).min(cap);
        }
        std::mem::swap(&mut current, &mut next);
        rest_always_succeeds = rest_always_succeeds && matches!(item, Item::Capture);
    }
    let start = start.min(n);
    if anchored {
        return next[start];
    }
    next[start..]
        .iter()
        .fold(0u64, |total, steps| total.saturating_add(*steps))
        .min(cap)
}

/// The items of `pattern` (after any `^`), as far as it is well formed: Lua raises an
/// error when the matcher reaches a malformed item, which ends the call like a failure.
fn parse(pattern: &[u8]) -> Vec<Item> {
    let mut items = Vec::new();
    let mut i = 0;
    while i < pattern.len() {
        match pattern[i] {
            b'(' => {
                items.push(Item::Capture);
                i += if pattern.get(i + 1) == Some(&b')') {
                    2
                } else {
                    1
                };
            }
            b')' => {
                items.push(Item::Capture);
                i += 1;
            }
            b'$' if i + 1 == pattern.len() => {
                items.push(Item::EndAnchor);
                i += 1;
            }
            b'%' if pattern.get(i + 1) == Some(&b'b') => {
                let Some(&open) = pattern.get(i + 2) else {
                    break;
                };
                if pattern.get(i + 3).is_none() {
                    break;
                }
                items.push(Item::Balance(open));
                i += 4;
            }
            b'%' if pattern.get(i + 1) == Some(&b'f') => {
                if pattern.get(i + 2) != Some(&b'[') {
                    break;
                }
                let Some(end) = class_end(pattern, i + 2) else {
                    break;
                };
                items.push(Item::Frontier);
                i = end;
            }
            b'%' if pattern.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                items.push(Item::BackReference);
                i += 2;
            }
            _ => {
                let Some(end) = class_end(pattern, i) else {
                    break;
                };
                let quantifier = match pattern.get(end) {
                    Some(b'?') => Quantifier::Optional,
                    Some(b'*') => Quantifier::Star,
                    Some(b'+') => Quantifier::Plus,
                    Some(b'-') => Quantifier::Lazy,
                    _ => Quantifier::One,
                };
                items.push(Item::Single {
                    class: i..end,
                    quantifier,
                });
                i = if quantifier == Quantifier::One {
                    end
                } else {
                    end + 1
                };
            }
        }
    }
    items
}

/// End (exclusive) of the single-character class starting at `i` (`classEnd`).
fn class_end(pattern: &[u8], i: usize) -> Option<usize> {
    match pattern.get(i)? {
        b'%' => {
            pattern.get(i + 1)?;
            Some(i + 2)
        }
        b'[' => {
            let mut j = i + 1;
            if pattern.get(j) == Some(&b'^') {
                j += 1;
            }
            loop {
                let c = *pattern.get(j)?;
                j += 1;
                if c == b'%' {
                    pattern.get(j)?;
                    j += 1;
                }
                if pattern.get(j) == Some(&b']') {
                    return Some(j + 1);
                }
            }
        }
        _ => Some(i + 1),
    }
}

/// The bytes a single-character class (`.`, `%a`, `[a-z%d]`, `x`) accepts.
fn class_set(class: &[u8]) -> Box<[bool; 256]> {
    let mut accepts = Box::new([false; 256]);
    for (c, slot) in accepts.iter_mut().enumerate() {
        let Ok(c) = u8::try_from(c) else {
            continue;
        };
        *slot = match class {
            [b'.'] => true,
            [b'%', escape] => matches_class(c, *escape),
            [b'[', .., b']'] => matches_bracket(c, class),
            [literal, ..] => c == *literal,
            [] => false,
        };
    }
    accepts
}

/// `match_class` in the C locale.
fn matches_class(c: u8, class: u8) -> bool {
    let result = match class.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => matches!(c, b' ' | b'\t'..=b'\r'),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        _ => return c == class,
    };
    if class.is_ascii_uppercase() {
        !result
    } else {
        result
    }
}

/// `matchbracketclass`: `class` is the whole `[...]`.
fn matches_bracket(c: u8, class: &[u8]) -> bool {
    let end = class.len() - 1;
    let mut p = 1;
    let mut accept = true;
    if class.get(1) == Some(&b'^') {
        accept = false;
        p = 2;
    }
    while p < end {
        if class[p] == b'%' && p + 1 < end {
            p += 1;
            if matches_class(c, class[p]) {
                return accept;
            }
            p += 1;
        } else if class.get(p + 1) == Some(&b'-') && p + 2 < end {
            if class[p] <= c && c <= class[p + 2] {
                return accept;
            }
            p += 3;
        } else {
            if class[p] == c {
                return accept;
            }
            p += 1;
        }
    }
    !accept
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: u64 = super::super::PATTERN_STEP_LIMIT;

    fn find(subject: &[u8], pattern: &[u8]) -> u64 {
        estimate(Op::Find, subject, pattern, 0, false, LIMIT)
    }

    #[test]
    fn classes_follow_the_c_locale() {
        let set = class_set(b"[a-c%d_]");
        assert!(set[usize::from(b'b')] && set[usize::from(b'7')] && set[usize::from(b'_')]);
        assert!(!set[usize::from(b'd')] && !set[usize::from(b' ')]);
        let negated = class_set(b"[^,]");
        assert!(negated[usize::from(b'x')] && !negated[usize::from(b',')]);
        let space = class_set(b"%s");
        assert!(space[0x0b] && space[usize::from(b' ')] && !space[usize::from(b'x')]);
        let not_digit = class_set(b"%D");
        assert!(not_digit[usize::from(b'x')] && !not_digit[usize::from(b'3')]);
        assert!(class_set(b"%]")[usize::from(b']')]);
    }

    #[test]
    fn nested_stars_on_a_long_run_are_refused() {
        let subject = vec![b'a'; 5000];
        let pattern = [b"a*".repeat(30), b"b".to_vec()].concat();
        assert!(find(&subject, &pattern) > LIMIT);
        // Even two on a long enough run.
        assert!(find(&vec![b'a'; 3000], b"a*a*b") > LIMIT);
    }

    #[test]
    fn ordinary_patterns_are_cheap() {
        let line = b"strength=12";
        assert!(find(line, b"^(%w+)=(%d+)$") < 10_000);
        let text = b"the quick  brown fox\tjumps over the lazy dog ".repeat(23);
        assert!(text.len() > 1000);
        assert!(estimate(Op::Gsub, &text, b"%s+", 0, false, LIMIT) < 20_000);
        assert!(estimate(Op::Gmatch, &text, b"(%w+)%s*=%s*(%w+)", 0, false, LIMIT) < 200_000);
        let spaces = vec![b' '; 1024];
        assert!(estimate(Op::Gsub, &spaces, b"%s+", 0, false, LIMIT) < 2_000_000);
    }

    #[test]
    fn plain_find_is_bounded_by_n_times_m() {
        let subject = vec![b'a'; 1 << 20];
        let needle = [vec![b'a'; 1 << 19], b"b".to_vec()].concat();
        assert!(estimate(Op::Find, &subject, &needle, 0, true, LIMIT) > LIMIT);
        assert!(estimate(Op::Find, &subject, b"needle", 0, true, LIMIT) < 10_000_000);
    }

    #[test]
    fn malformed_tails_count_what_comes_before() {
        let subject = vec![b'a'; 3000];
        assert!(find(&subject, b"a*a*a*b%") > LIMIT);
        assert!(find(b"abc", b"[a") <= 10);
    }
}
