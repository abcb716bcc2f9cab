//! "Did you mean ...?" suggestions for misspelt keys and values.
//!
//! Uses the optimal-string-alignment form of the Damerau–Levenshtein distance (insertions,
//! deletions, substitutions and swaps of two neighbouring letters each cost 1), compared
//! case-insensitively. A candidate is suggested when it is within a third of the word's
//! length (at least 1, at most 3 edits), so `colour` → `color` and `strategc` → `strategic`,
//! but `foo` does not turn into `bar`.

/// Words longer than this are never matched: a suggestion for a 10 KB key helps nobody, and
/// the distance costs length × length.
const MAX_WORD_CHARS: usize = 64;

/// The candidate closest to `word`, if one is close enough to be a likely typo.
///
/// Ties go to the earliest candidate. A candidate equal to `word` ignoring case is a match
/// (distance 0), which catches `Color` for `color`.
///
/// ```
/// use grognard_rules::suggest::did_you_mean;
/// let keys = ["name", "color", "strength"];
/// assert_eq!(did_you_mean("colour", keys), Some("color"));
/// assert_eq!(did_you_mean("STRENGHT", keys), Some("strength"));
/// assert_eq!(did_you_mean("speed", keys), None);
/// ```
#[must_use]
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let word: Vec<char> = word.chars().flat_map(char::to_lowercase).collect();
    if word.is_empty() || word.len() > MAX_WORD_CHARS {
        return None;
    }
    let threshold = (word.len() / 3).clamp(1, 3);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let lowered: Vec<char> = candidate.chars().flat_map(char::to_lowercase).collect();
        if lowered.is_empty()
            || lowered.len() > MAX_WORD_CHARS
            || lowered.len().abs_diff(word.len()) > threshold
        {
            continue;
        }
        let distance = osa_distance(&word, &lowered);
        if distance <= threshold && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// Optimal string alignment distance between `a` and `b`.
///
/// ```
/// use grognard_rules::suggest::osa_distance;
/// let chars = |s: &str| s.chars().collect::<Vec<_>>();
/// assert_eq!(osa_distance(&chars("ca"), &chars("ac")), 1);
/// assert_eq!(osa_distance(&chars("kitten"), &chars("sitting")), 3);
/// ```
#[must_use]
pub fn osa_distance(a: &[char], b: &[char]) -> usize {
    // Three rolling rows: the one two back is needed for transpositions.
    let width = b.len() + 1;
    let mut two_back = vec![0usize; width];
    let mut previous: Vec<usize> = (0..width).collect();
    let mut current = vec![0usize; width];
    for (i, &ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            let mut best = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                best = best.min(two_back[j - 1] + 1);
            }
            current[j + 1] = best;
        }
        core::mem::swap(&mut two_back, &mut previous);
        core::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typical_typos() {
        let kinds = ["battle", "strategic", "road"];
        assert_eq!(did_you_mean("strategc", kinds), Some("strategic"));
        assert_eq!(did_you_mean("batle", kinds), Some("battle"));
        assert_eq!(did_you_mean("raod", kinds), Some("road"));
        assert_eq!(did_you_mean("Road", kinds), Some("road"));
        assert_eq!(did_you_mean("air", kinds), None);
        assert_eq!(did_you_mean("", kinds), None);
    }

    #[test]
    fn ties_go_to_the_first_candidate() {
        assert_eq!(did_you_mean("cat", ["bat", "cap"]), Some("bat"));
    }

    #[test]
    fn long_words_are_not_compared() {
        let long = "a".repeat(10_000);
        assert_eq!(did_you_mean(&long, [long.as_str()]), None);
    }

    #[test]
    fn distance_is_symmetric_on_samples() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        for (a, b) in [
            ("abc", "ca"),
            ("", "abc"),
            ("flaw", "lawn"),
            ("ñandú", "nandu"),
        ] {
            assert_eq!(osa_distance(&c(a), &c(b)), osa_distance(&c(b), &c(a)));
        }
        assert_eq!(osa_distance(&c(""), &c("abc")), 3);
    }
}
