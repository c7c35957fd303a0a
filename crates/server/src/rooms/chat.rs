//! The rules of chat lines: what a line may hold, how many a connection may send, and
//! how many a room keeps.
//!
//! Chat is not game state: a room keeps its last [`KEEP`] lines in memory, for players
//! who arrive or come back, and a restart forgets them (docs/protocol.md says so). Lines
//! are numbered in the order the room hears them ([`Log`]), and any frame of them —
//! `chat_log` on arrival, `chat_history` on request — carries the latest of those asked
//! that fit in [`PAGE_BYTES`] (issue 23: the whole log on arrival was ~108 KB a
//! `spectate`); earlier ones are asked for page by page, as the game's history is. Lines
//! follow the rule of names (`names::check`): no control, invisible or direction-changing
//! characters, something visible — a line cannot hide itself or reorder the text around
//! it — and a client shows them as text.
//!
//! **How much may be said** (issue 23): the limit belongs to who speaks, not to the
//! connection, so that reconnecting buys nothing. The room keeps a budget per seat (it
//! outlives the seat's connections: a `resume` gets the same one, and so does the next
//! occupant of a freed seat) and per spectator connection; every line also spends from
//! its client address's budget ([`Addresses`], shared by all rooms), which bounds what
//! spectators who reconnect under new names can say. Both must have room for the line,
//! and a refused line spends nothing of either.

use crate::budget::Budget;
use crate::convert::names;
use crate::convert::refusal::Refusal;
use dominion_protocol::{ChatLine, ErrorCode};
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

/// The longest line, in characters.
pub const MAX_CHARS: usize = 300;
/// The longest line, in UTF-8 bytes: 300 characters of four bytes each would be 1,200.
pub const MAX_BYTES: usize = 1000;
/// Lines a seat, or a spectator's connection, may send per [`WINDOW`] (a burst of that
/// many, then refilled).
pub const MESSAGES: u32 = 5;
pub const WINDOW: Duration = Duration::from_secs(10);
/// Lines a room keeps for those who arrive later.
pub const KEEP: usize = 100;
/// Most bytes of lines (as JSON) one `chat_log` or `chat_history` carries; always at
/// least one line.
pub const PAGE_BYTES: usize = 8 * 1024;
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
            "{why}: a chat line has 1 to {MAX_CHARS} characters on one line, visible ones, at most {} combining marks on each, and no control, invisible or direction-changing characters", names::MAX_MARKS
        ))
    })
}

/// A room's recent chat: its last [`KEEP`] lines, oldest first, numbered in the order
/// the room heard them.
#[derive(Default)]
pub struct Log {
    lines: VecDeque<ChatLine>,
    /// The number of `lines[0]`.
    start: u64,
}

impl Log {
    /// Adds a line under the next number (whatever `line.n` said), forgetting the
    /// oldest beyond [`KEEP`].
    pub fn push(&mut self, mut line: ChatLine) {
        line.n = self.end();
        if self.lines.len() >= KEEP {
            self.lines.pop_front();
            self.start += 1;
        }
        self.lines.push_back(line);
    }

    pub fn latest(&self) -> Option<&ChatLine> {
        self.lines.back()
    }

    /// Line number `n`, if the room still keeps it (reports quote it).
    pub fn line(&self, n: u64) -> Option<&ChatLine> {
        let i = n.checked_sub(self.start)?;
        self.lines.get(usize::try_from(i).ok()?)
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The number of the oldest line kept.
    pub fn oldest(&self) -> u64 {
        self.start
    }

    /// The number the next line will have.
    pub fn end(&self) -> u64 {
        self.start + self.lines.len() as u64
    }

    /// The latest of the lines numbered `from` up to `to` (not included; None: the
    /// latest) that fit in [`PAGE_BYTES`], at least one if there are any, with the number
    /// of the first. Numbers past what the room keeps are clamped to it.
    pub fn page(&self, from: u64, to: Option<u64>) -> (u64, Vec<ChatLine>) {
        let end = to.unwrap_or(u64::MAX).min(self.end());
        let begin = from.max(self.start).min(end);
        let mut bytes = 0;
        let mut first = end;
        while first > begin {
            let line = &self.lines[(first - 1 - self.start) as usize];
            let size = serde_json::to_string(line).map_or(usize::MAX, |j| j.len() + 1);
            if first < end && bytes + size > PAGE_BYTES {
                break;
            }
            bytes += size;
            first -= 1;
        }
        let lines = (first..end)
            .map(|n| self.lines[(n - self.start) as usize].clone())
            .collect();
        (first, lines)
    }
}

/// Addresses whose chat budget is remembered at most (see [`Addresses`]).
pub const ADDRESSES_KEPT: usize = 4096;

/// Why a line is over its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// The seat's (or spectator's) own budget.
    Speaker,
    /// The client address's budget, which every connection from it shares.
    Address,
}

/// The chat budgets of client addresses (`--chat-per-address` lines per [`WINDOW`]),
/// shared by every room of the server.
///
/// Bounded, and it never locks out an address it has not seen: when the table is full,
/// budgets that have refilled are forgotten (no difference to their addresses), and if
/// every remembered address is still busy, the one that spoke longest ago is forgotten
/// to make room. The trade-off: someone who speaks from more addresses than the table
/// holds can have one of theirs forgotten and start it afresh — but each of their
/// seats and spectators keeps its own budget, and an address they have never used had a
/// fresh budget anyway. IPv6 addresses are grouped by their /64, what one client gets.
pub struct Addresses {
    per_window: u32,
    kept: usize,
    table: Mutex<HashMap<IpAddr, (Budget, Instant)>>,
}

impl Addresses {
    pub fn new(per_window: u32) -> Addresses {
        Addresses::with_capacity(per_window, ADDRESSES_KEPT)
    }

    pub fn with_capacity(per_window: u32, kept: usize) -> Addresses {
        Addresses {
            per_window: per_window.max(1),
            kept: kept.max(1),
            table: Mutex::new(HashMap::new()),
        }
    }

    /// Lines one address may send per [`WINDOW`].
    pub fn per_window(&self) -> u32 {
        self.per_window
    }

    /// Spends one line from `speaker` and from `addr`'s budget (when the address is
    /// known), or from neither: the error says which is spent out.
    pub fn take(
        &self,
        addr: Option<IpAddr>,
        speaker: &mut Budget,
        now: Instant,
    ) -> Result<(), Over> {
        let Some(addr) = addr else {
            return speaker.take(now).then_some(()).ok_or(Over::Speaker);
        };
        let key = address_key(addr);
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        if !table.contains_key(&key) && table.len() >= self.kept {
            table.retain(|_, (b, _)| !b.full(now));
            if table.len() >= self.kept
                && let Some(oldest) = table.iter().min_by_key(|(_, (_, at))| *at).map(|(k, _)| *k)
            {
                table.remove(&oldest);
            }
        }
        let (budget, last) = table
            .entry(key)
            .or_insert_with(|| (Budget::new(self.per_window, WINDOW, now), now));
        if !budget.ready(now) {
            return Err(Over::Address);
        }
        if !speaker.take(now) {
            return Err(Over::Speaker);
        }
        budget.take(now);
        *last = now;
        Ok(())
    }

    /// Addresses remembered now.
    pub fn remembered(&self) -> usize {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// What counts as one client: the rule every per-address limit uses
/// (`budget::address_key`: IPv4 as is, IPv6 by its /64, IPv4-mapped as IPv4).
fn address_key(addr: IpAddr) -> IpAddr {
    crate::budget::address_key(addr).ip()
}

/// A speaker's own budget: [`MESSAGES`] per [`WINDOW`].
pub fn speaker_budget(now: Instant) -> Budget {
    Budget::new(MESSAGES, WINDOW, now)
}

/// The refusal of a line over its limit.
pub fn too_fast(over: Over, per_address: u32) -> Refusal {
    let message = match over {
        Over::Speaker => format!(
            "at most {MESSAGES} chat messages per {} s; wait a moment",
            WINDOW.as_secs()
        ),
        Over::Address => format!(
            "at most {per_address} chat messages per {} s from one address, shared by everyone on it; wait a moment",
            WINDOW.as_secs()
        ),
    };
    Refusal::new(ErrorCode::ChatTooFast, message)
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
        // One letter and 299 combining marks: within the characters, not the marks.
        let e = check(&format!("Z{}", "\u{0301}".repeat(299))).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidChat);
        assert!(e.message.contains("299 combining marks"), "{}", e.message);
        assert!(check("e\u{0301}te\u{0301} à l'école").is_ok());
    }

    fn line(text: &str) -> ChatLine {
        ChatLine {
            n: 0,
            from: dominion_protocol::ChatSender::Spectator { name: "S".into() },
            text: text.into(),
            at: 1_800_000_000_000,
        }
    }

    fn texts(lines: &[ChatLine]) -> Vec<String> {
        lines.iter().map(|l| l.text.clone()).collect()
    }

    #[test]
    fn the_log_keeps_the_last_lines_numbered_and_pages_them_from_the_latest() {
        let mut log = Log::default();
        assert_eq!(log.page(0, None), (0, vec![]));
        for i in 0..105 {
            log.push(line(&i.to_string()));
        }
        assert_eq!((log.oldest(), log.end()), (5, 105));
        // Each line carries its number, whatever it came with.
        assert_eq!(log.line(7).map(|l| (l.n, l.text.as_str())), Some((7, "7")));
        assert_eq!(log.latest().map(|l| l.n), Some(104));
        // Short lines: all kept ones fit in a page.
        let (first, all) = log.page(0, None);
        assert_eq!(first, 5);
        assert_eq!(
            texts(&all),
            (5..105).map(|i| i.to_string()).collect::<Vec<_>>()
        );
        let (first, some) = log.page(10, Some(13));
        assert_eq!(
            (first, texts(&some)),
            (10, vec!["10".into(), "11".into(), "12".into()])
        );
        assert_eq!(log.page(200, None), (105, vec![]));
        assert_eq!(log.page(50, Some(40)), (40, vec![]));
        // Long lines: the latest that fit in PAGE_BYTES, and the page before ends there.
        let mut log = Log::default();
        let long = "😀".repeat(249);
        for i in 0..100 {
            log.push(line(&format!("{i:03} {long}")));
        }
        let (first, page) = log.page(0, None);
        let bytes: usize = page
            .iter()
            .map(|l| serde_json::to_string(l).unwrap().len() + 1)
            .sum();
        assert!(bytes <= PAGE_BYTES, "{bytes}");
        assert_eq!(first + page.len() as u64, 100);
        assert!(page.len() >= 7, "{}", page.len());
        let (before, earlier) = log.page(0, Some(first));
        assert_eq!(before + earlier.len() as u64, first);
        assert!(earlier[0].text.starts_with(&format!("{before:03} ")));
    }

    fn v4(n: u32) -> IpAddr {
        IpAddr::V4(n.into())
    }

    #[tokio::test(start_paused = true)]
    async fn an_address_budget_is_shared_and_spends_only_with_the_speakers() {
        let now = Instant::now();
        let addresses = Addresses::new(3);
        let (mut ann, mut bob) = (speaker_budget(now), speaker_budget(now));
        let home = Some(v4(0x7f00_0001));
        for _ in 0..2 {
            assert_eq!(addresses.take(home, &mut ann, now), Ok(()));
        }
        assert_eq!(addresses.take(home, &mut bob, now), Ok(()));
        assert_eq!(addresses.take(home, &mut bob, now), Err(Over::Address));
        // Refused by the address: Bob's own budget was not spent (4 left of 5).
        let elsewhere = Some(v4(0x7f00_0002));
        for _ in 0..3 {
            assert_eq!(addresses.take(elsewhere, &mut bob, now), Ok(()));
        }
        let third = Some(v4(0x7f00_0003));
        assert_eq!(addresses.take(third, &mut bob, now), Ok(()));
        // Refused by the speaker: the address was not spent (Cleo gets its other two).
        assert_eq!(addresses.take(third, &mut bob, now), Err(Over::Speaker));
        let mut cleo = speaker_budget(now);
        for _ in 0..2 {
            assert_eq!(addresses.take(third, &mut cleo, now), Ok(()));
        }
        assert_eq!(addresses.take(third, &mut cleo, now), Err(Over::Address));
        // Refilled over the window: 3 per 10 s.
        let later = now + Duration::from_secs(4);
        assert_eq!(addresses.take(home, &mut cleo, later), Ok(()));
        assert_eq!(addresses.take(home, &mut cleo, later), Err(Over::Address));
        // No address (a test's room): the speaker's budget alone.
        assert_eq!(addresses.take(None, &mut speaker_budget(now), now), Ok(()));
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_table_of_busy_addresses_never_refuses_a_new_one() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let addresses = Addresses::with_capacity(1, 100);
        let speak = |n: u32, t: Instant| addresses.take(Some(v4(n)), &mut speaker_budget(t), t);
        // 100 addresses spend their one line, a millisecond apart: all busy for 10 s.
        for n in 0..100 {
            assert_eq!(speak(n, at(u64::from(n))), Ok(()));
        }
        assert_eq!(addresses.remembered(), 100);
        assert_eq!(speak(0, at(150)), Err(Over::Address));
        // A new address speaks; the table stays within its bound, forgetting the
        // address that spoke longest ago.
        assert_eq!(speak(1000, at(200)), Ok(()));
        assert_eq!(addresses.remembered(), 100);
        assert_eq!(speak(0, at(200)), Ok(()), "forgotten, so afresh");
        assert_eq!(speak(99, at(200)), Err(Over::Address), "still remembered");
        // Refilled budgets are forgotten first, before any busy one.
        assert_eq!(speak(2000, at(10_100)), Ok(()));
        assert_eq!(addresses.remembered(), 3, "0, 1000 and 2000 are left");
    }

    #[tokio::test(start_paused = true)]
    async fn ipv6_clients_are_grouped_by_their_64() {
        let now = Instant::now();
        let addresses = Addresses::new(2);
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(
            addresses.take(Some(a), &mut speaker_budget(now), now),
            Ok(())
        );
        assert_eq!(
            addresses.take(Some(b), &mut speaker_budget(now), now),
            Ok(())
        );
        assert_eq!(
            addresses.take(Some(a), &mut speaker_budget(now), now),
            Err(Over::Address)
        );
        assert_eq!(
            addresses.take(Some(other), &mut speaker_budget(now), now),
            Ok(())
        );
        // An IPv4-mapped address is its IPv4 address.
        let mapped: IpAddr = "::ffff:127.0.0.1".parse().unwrap();
        assert_eq!(address_key(mapped), v4(0x7f00_0001));
    }
}
