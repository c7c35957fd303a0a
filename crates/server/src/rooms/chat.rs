//! The rules of chat lines: what a line may hold, how many a connection may send, and
//! how many a room keeps.
//!
//! Chat is not game state: a room keeps its last [`KEEP`] lines in memory, for players
//! who arrive or come back, and a restart forgets them (docs/protocol.md says so). Lines
//! follow the rule of names (`names::check`): no control, invisible or direction-changing
//! characters, something visible — a line cannot hide itself or reorder the text around
//! it — and a client shows them as text.
//!
//! The connection applies [`check`] and its [`MESSAGES`]-per-[`WINDOW`] budget before a
//! line reaches the room, so a room only ever holds lines within these rules.

use crate::convert::names;
use crate::convert::refusal::Refusal;
use dominion_protocol::ErrorCode;
use std::time::Duration;

/// The longest line, in characters.
pub const MAX_CHARS: usize = 300;
/// The longest line, in UTF-8 bytes: 300 characters of four bytes each would be 1,200.
pub const MAX_BYTES: usize = 1000;
/// Lines a connection may send per [`WINDOW`] (a burst of that many, then refilled).
pub const MESSAGES: u32 = 5;
pub const WINDOW: Duration = Duration::from_secs(10);
/// Lines a room keeps for those who arrive later.
pub const KEEP: usize = 100;
/// The name of a spectator who gave none.
pub const SPECTATOR: &str = "Spectator";

/// The line trimmed, or the refusal saying why it cannot be said.
pub fn check(text: &str) -> Result<String, Refusal> {
    let invalid = |why: String| Refusal::new(ErrorCode::InvalidChat, format!("the message {why}"));
    if text.trim().len() > MAX_BYTES {
        return Err(invalid(format!(
            "has {} bytes, more than {MAX_BYTES}",
            text.trim().len()
        )));
    }
    names::check(text, MAX_CHARS).map_err(|why| {
        invalid(format!(
            "{why}: a chat line has 1 to {MAX_CHARS} characters on one line, visible ones, and no control, invisible or direction-changing characters"
        ))
    })
}

/// Now, in Unix milliseconds.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_trimmed_and_bounded_in_characters_and_bytes() {
        assert_eq!(check("  hello  ").unwrap(), "hello");
        assert!(check(&"x".repeat(300)).is_ok());
        let e = check(&"x".repeat(301)).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidChat);
        assert!(e.message.contains("301 characters"), "{}", e.message);
        // 260 characters of 4 bytes each: within the characters, over the bytes.
        assert!(check(&"😀".repeat(250)).is_ok());
        let e = check(&"😀".repeat(260)).unwrap_err();
        assert!(e.message.contains("1040 bytes"), "{}", e.message);
        assert!(check("a\nb").is_err(), "one line");
        assert!(check("Ann\u{202E}nimda").is_err());
        assert!(check("   ").is_err());
    }
}
