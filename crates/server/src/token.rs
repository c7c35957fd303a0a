//! Seat tokens: the secret that proves a client owns a seat.
//!
//! A token is 256 bits from the operating system's RNG, written as 64 hex digits. The
//! room keeps only its SHA-256 hash, so a leaked room record (or a log) gives nobody a
//! seat. Comparing hashes need not be constant-time: matching a hash does not help find
//! a token.

use sha2::{Digest, Sha256};
use std::fmt::Write;

/// The SHA-256 of a seat token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenHash(pub [u8; 32]);

impl TokenHash {
    pub fn of(token: &str) -> TokenHash {
        TokenHash(Sha256::digest(token.as_bytes()).into())
    }

    pub fn to_hex(self) -> String {
        hex(&self.0)
    }

    /// Reads a hash written by [`TokenHash::to_hex`] (from the store).
    pub fn from_hex(s: &str) -> Option<TokenHash> {
        let mut out = [0u8; 32];
        if s.len() != 64 {
            return None;
        }
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(TokenHash(out))
    }
}

/// A new token and its hash. Fails only if the OS RNG does.
pub fn new_token() -> Result<(String, TokenHash), getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    let token = hex(&bytes);
    let hash = TokenHash::of(&token);
    Ok((token, hash))
}

/// Whether `token` has the shape of one we issue (so garbage is refused before hashing).
pub fn well_formed(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_distinct_and_match_only_their_hash() {
        let (a, ha) = new_token().unwrap();
        let (b, hb) = new_token().unwrap();
        assert!(well_formed(&a) && well_formed(&b));
        assert_ne!(a, b);
        assert_eq!(TokenHash::of(&a), ha);
        assert_ne!(ha, hb);
        assert!(!well_formed("abc"));
        assert_eq!(ha.to_hex().len(), 64);
        assert_eq!(TokenHash::from_hex(&ha.to_hex()), Some(ha));
        assert_eq!(TokenHash::from_hex("zz"), None);
    }
}
