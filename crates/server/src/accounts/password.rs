//! Passwords, hashed with Argon2id (the `argon2` crate, RustCrypto).
//!
//! Parameters: Argon2id, version 0x13, `--argon2-memory-kib` KiB of memory (default
//! 19456, i.e. 19 MiB), `--argon2-iterations` passes (default 2), one lane, a 16-byte
//! random salt, a 32-byte output — the OWASP Password Storage Cheat Sheet's first
//! recommendation. Each hash is stored as its PHC string (`$argon2id$v=19$m=…,t=…,p=1$…`),
//! which carries its own parameters, so raising them later still verifies older hashes.
//!
//! Cost per hash, measured with `dominion-server hash-cost` on the development machine
//! (2 cores, the hashing code optimised as in a release build): about 40–48 ms of CPU
//! (docs/operations.md, "Accounts", has the runs). A hash takes one core for that long,
//! which is why the server hashes on a bounded pool (`--hash-threads`).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// The shortest password accepted, in characters.
pub const MIN_CHARS: usize = 10;
/// The longest, in bytes (hashing cost does not grow with it much, but bodies should).
pub const MAX_BYTES: usize = 1024;

/// The parameters new hashes are made with.
#[derive(Clone, Copy, Debug)]
pub struct Cost {
    pub memory_kib: u32,
    pub iterations: u32,
}

fn hasher(cost: Cost) -> Result<Argon2<'static>, String> {
    let params = Params::new(cost.memory_kib, cost.iterations, 1, Some(32))
        .map_err(|e| format!("Argon2 parameters: {e}"))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// Hashes `password` with a fresh random salt. Takes a core for the cost's time: call it
/// on the hashing pool.
pub fn hash(password: &str, cost: Cost) -> Result<String, String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| format!("no randomness for a salt: {e}"))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    hasher(cost)?
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("hashing failed: {e}"))
}

/// Whether `password` is the one `stored` was made from (with `stored`'s own
/// parameters). A stored hash that cannot be read verifies nothing.
pub fn verify(password: &str, stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok()
}

/// Whether a new password is acceptable; the reason when not.
pub fn acceptable(password: &str) -> Result<(), String> {
    if password.len() > MAX_BYTES {
        return Err(format!("a password has at most {MAX_BYTES} bytes"));
    }
    if password.chars().count() < MIN_CHARS {
        return Err(format!("a password has at least {MIN_CHARS} characters"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only_and_names_its_parameters() {
        let cost = Cost {
            memory_kib: 64,
            iterations: 1,
        };
        let h = hash("correct horse battery", cost).unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=64,t=1,p=1$"), "{h}");
        assert!(verify("correct horse battery", &h));
        assert!(!verify("correct horse batterY", &h));
        assert!(!verify("x", "not a hash"));
        assert_ne!(h, hash("correct horse battery", cost).unwrap(), "salted");
        assert!(acceptable("short").is_err());
        assert!(acceptable("ten chars!").is_ok());
        assert!(acceptable(&"x".repeat(1025)).is_err());
    }
}
