//! Randomness the server draws outside the game: room ids, node names, jitter. (The
//! game's own randomness is the engine's seeded generator; seat tokens are `token`.)

/// A short random id, easy to read aloud: `len` characters without look-alikes (room
/// ids have 8).
pub fn random_id(len: usize) -> Result<String, getrandom::Error> {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut bytes = vec![0u8; len];
    getrandom::fill(&mut bytes)?;
    Ok(bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect())
}

/// One random byte (jitter).
pub fn random_byte() -> u8 {
    let mut b = [0u8; 1];
    let _ = getrandom::fill(&mut b);
    b[0]
}

/// A random 64-bit seed for sampling outside the game (a hint's search), which must not
/// be derived from the game's secret seed. Falls back to the clock if the system's
/// generator fails: the seed only varies the samples, it guards nothing.
pub fn random_seed() -> u64 {
    let mut b = [0u8; 8];
    if getrandom::fill(&mut b).is_err() {
        return std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
    }
    u64::from_le_bytes(b)
}
