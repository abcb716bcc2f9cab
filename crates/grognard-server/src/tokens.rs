//! Seat tokens: 256 random bits from the operating system, shown once to whoever created
//! the game, stored only as a SHA-256 hash, and compared in constant time.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The operating system gave no random numbers: the server cannot make a token, a game id
/// or a secret seed. The server's own failure, not the request's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomError(pub getrandom::Error);

impl std::fmt::Display for RandomError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no random numbers from the system: {}", self.0)
    }
}

impl std::error::Error for RandomError {}

/// A new token: 64 hex digits (256 bits from the operating system's generator).
///
/// # Errors
/// The operating system has no random numbers to give.
pub fn new_token() -> Result<String, RandomError> {
    random_hex(32)
}

/// A new game id: 16 hex digits.
///
/// # Errors
/// As [`new_token`].
pub fn new_game_id() -> Result<String, RandomError> {
    random_hex(8)
}

/// A game's secret seed: 64 bits from the operating system's generator.
///
/// # Errors
/// As [`new_token`].
pub fn new_seed() -> Result<u64, RandomError> {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).map_err(RandomError)?;
    Ok(u64::from_le_bytes(buf))
}

fn random_hex(bytes: usize) -> Result<String, RandomError> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(RandomError)?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// What the store keeps of a token.
#[must_use]
pub fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// The seat whose stored hash matches `token`, looking at every seat whatever matches
/// (no early exit), each compared in constant time.
#[must_use]
pub fn seat_for<'a>(token: &str, seats: &'a [(String, Vec<u8>)]) -> Option<&'a str> {
    let given = hash(token);
    let mut found = None;
    for (seat, stored) in seats {
        if bool::from(given.ct_eq(stored)) {
            found = Some(seat.as_str());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_distinct_and_found_only_by_themselves() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        let seats = vec![("red".to_owned(), hash(&a)), ("blue".to_owned(), hash(&b))];
        assert_eq!(seat_for(&a, &seats), Some("red"));
        assert_eq!(seat_for(&b, &seats), Some("blue"));
        assert_eq!(seat_for("", &seats), None);
        assert_eq!(seat_for(&a[..63], &seats), None);
        assert_ne!(hash(&a), a.as_bytes());
    }
}
