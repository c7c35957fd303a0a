//! Snapshots: a game's state in a published, versioned format, so that a stored game
//! reopens from its latest snapshot plus the replies after it instead of replaying its
//! whole log (docs/storage.md, "Snapshots").
//!
//! **The format is these types, never the engine's in-memory layout.** Every value is
//! written by name (cards by their `snake_case` key, editions `1e`/`2e`, phases
//! `action`/`buy`/`cleanup`), unknown fields are refused, and [`SNAPSHOT_VERSION`] says
//! which layout a snapshot has: any change to these types, or to the serialization of
//! [`Event`] they carry, raises it, and a snapshot of another version is refused with
//! [`RestoreError::Version`] (the caller replays the whole log instead).
//!
//! **Where snapshots are taken.** Only at a turn's first decision, before any reply of
//! that turn ([`Game::snapshot`] gives None elsewhere): no card is being resolved, nothing
//! of the turn can be taken back yet, and the state alone says how the turn goes on. The
//! game keeps nothing else that the future depends on except the RNG, which is in the
//! snapshot (seed, stream and word position: later shuffles are identical).
//!
//! **History.** A reopened room must serve every event since the game began (a
//! reconnecting client fetches them by number) and every reply's public decision number
//! (the published record). A snapshot therefore also carries the *history since the
//! snapshot before it*: the events and decision numbers from its `history` marks on.
//! A game is restored from the chain of its snapshots, the first starting at reply 0
//! and event 0, each starting where the one before ended; the state is the last one's
//! ([`crate::Game::restore`]). Each snapshot written thus costs the state (constant) plus
//! the events since the previous one: storage grows with the game like its replies do.

use crate::card::{CardId, Edition};
use crate::event::Event;
use crate::state::{Phase, Pile, PlayerId, PlayerState, SecretPass, State, TurnState};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The layout of [`Snapshot`]. Raised by every change to these types or to [`Event`]'s
/// serialization; a snapshot of any other version is refused, never misread.
pub const SNAPSHOT_VERSION: u32 = 1;

/// One snapshot: the state at a turn's first decision and the history since the
/// snapshot before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// [`SNAPSHOT_VERSION`] when written.
    pub version: u32,
    /// The rules version the game is played under (`GameRecord::rules`).
    pub rules: u32,
    /// How many replies the state has seen: the snapshot is of the game after its first
    /// `replies` replies.
    pub replies: u64,
    /// `Game::digest` of the state, 16 hex digits: checked on restore.
    pub digest: String,
    pub state: SnapshotState,
    /// Public replies so far (the decision numbers' count, see `Game::decision_number`).
    pub settled: u64,
    /// Private answers each seat has given since the last public reply.
    pub own: Vec<u16>,
    pub history: History,
}

/// Where a snapshot's history ends: the next snapshot's history starts here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mark {
    pub replies: u64,
    pub events: u64,
}

/// The events and decision numbers since the previous snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct History {
    /// The index of the first reply `numbers` is about.
    pub from_reply: u64,
    /// The public decision number each of those replies answered (`Game::reply_numbers`).
    pub numbers: Vec<u64>,
    /// The number of the first event in `events`.
    pub from_event: u64,
    /// The events, unredacted, in the engine's event serialization (tagged by `type`).
    pub events: Vec<Event>,
}

/// The game's state, by names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapshotState {
    pub edition: Edition,
    /// Supply piles in the game's order (basic cards, then the kingdom by cost and name).
    pub supply: Vec<SnapshotPile>,
    pub trash: Vec<CardId>,
    /// Seats in turn order.
    pub players: Vec<SnapshotPlayer>,
    /// The seat whose turn it is.
    pub current: u8,
    pub turn: SnapshotTurn,
    /// Turns taken so far by all players together.
    pub turn_count: u32,
    pub game_over: bool,
    pub rng: SnapshotRng,
    /// Every Masquerade pass so far, in order (what others know of a hand undoes them).
    pub passes: Vec<SnapshotPass>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapshotPile {
    pub card: CardId,
    pub count: u32,
}

/// One seat's zones. Piles whose top matters list it last.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapshotPlayer {
    pub hand: Vec<CardId>,
    /// Draw pile, top card last.
    pub deck: Vec<CardId>,
    /// Discard pile, top card last.
    pub discard: Vec<CardId>,
    pub in_play: Vec<CardId>,
    pub aside: Vec<CardId>,
    /// Turns this seat has taken (counting the current one).
    pub turns: u32,
}

/// The current turn's counters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapshotTurn {
    pub phase: Phase,
    pub actions: u32,
    pub buys: u32,
    pub coins: u32,
    pub bought: bool,
    pub actions_played: u32,
    pub merchants: u32,
    pub silver_played: bool,
    pub cost_reduction: u32,
    pub copper_bonus: u32,
    pub left_play: Vec<u32>,
}

/// The shuffler: ChaCha8 with this 32-byte key (hex), stream and word position, so the
/// next shuffle is the one the full replay would make.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapshotRng {
    pub algorithm: String,
    pub seed: String,
    pub stream: u64,
    /// A 128-bit number, in decimal (beyond what JSON numbers hold exactly).
    pub word_pos: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapshotPass {
    pub from: u8,
    pub to: u8,
    pub card: CardId,
}

/// Why a snapshot was not used. The caller replays the whole log instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    #[error("no snapshot to restore from")]
    Empty,
    #[error("snapshot format {found}, this engine reads {SNAPSHOT_VERSION}")]
    Version { found: u32 },
    #[error("snapshot taken under rules {snapshot}, the game is played under rules {game}")]
    Rules { snapshot: u32, game: u32 },
    #[error("the snapshots' histories do not join up at reply {reply}, event {event}")]
    Gap { reply: u64, event: u64 },
    #[error("the snapshot is of reply {snapshot}, the log has only {log}")]
    BeyondLog { snapshot: u64, log: usize },
    #[error("the snapshot does not fit the game's setup: {0}")]
    Setup(String),
    #[error("the snapshot's state digest is {actual}, it says {stored}")]
    Digest { actual: String, stored: String },
    #[error("the snapshot is not at a turn's first decision")]
    NotATurnStart,
    #[error("reply {index} was refused after the snapshot: {error}")]
    Reply {
        index: usize,
        error: crate::decision::InvalidReply,
    },
}

/// A digest as a snapshot carries it.
pub fn digest_hex(digest: u64) -> String {
    format!("{digest:016x}")
}

const CHACHA8: &str = "chacha8";

impl SnapshotState {
    pub(crate) fn of(st: &State) -> SnapshotState {
        SnapshotState {
            edition: st.edition,
            supply: st
                .supply
                .iter()
                .map(|p| SnapshotPile {
                    card: p.card,
                    count: p.count,
                })
                .collect(),
            trash: st.trash.clone(),
            players: st
                .players
                .iter()
                .map(|p| SnapshotPlayer {
                    hand: p.hand.clone(),
                    deck: p.deck.clone(),
                    discard: p.discard.clone(),
                    in_play: p.in_play.clone(),
                    aside: p.aside.clone(),
                    turns: p.turns,
                })
                .collect(),
            current: st.current.0,
            turn: SnapshotTurn {
                phase: st.turn.phase,
                actions: st.turn.actions,
                buys: st.turn.buys,
                coins: st.turn.coins,
                bought: st.turn.bought,
                actions_played: st.turn.actions_played,
                merchants: st.turn.merchants,
                silver_played: st.turn.silver_played,
                cost_reduction: st.turn.cost_reduction,
                copper_bonus: st.turn.copper_bonus,
                left_play: st.turn.left_play.clone(),
            },
            turn_count: st.turn_count,
            game_over: st.game_over,
            rng: SnapshotRng {
                algorithm: CHACHA8.into(),
                seed: st
                    .rng
                    .get_seed()
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect(),
                stream: st.rng.get_stream(),
                word_pos: st.rng.get_word_pos().to_string(),
            },
            passes: st
                .passes
                .iter()
                .map(|p| SnapshotPass {
                    from: p.from.0,
                    to: p.to.0,
                    card: p.card,
                })
                .collect(),
        }
    }

    /// The engine's state, written into `st` (the state the game's setup builds, whose
    /// Supply order and seat count the snapshot must match); `st.rules` is kept.
    pub(crate) fn write_into(&self, st: &mut State) -> Result<(), RestoreError> {
        let bad = |what: &str| Err(RestoreError::Setup(what.to_string()));
        if self.edition != st.edition {
            return bad("another edition");
        }
        if self.players.len() != st.players.len() {
            return bad("another number of seats");
        }
        if self.supply.len() != st.supply.len()
            || self
                .supply
                .iter()
                .zip(&st.supply)
                .any(|(a, b)| a.card != b.card)
        {
            return bad("another Supply");
        }
        if usize::from(self.current) >= self.players.len()
            || self
                .passes
                .iter()
                .any(|p| usize::from(p.from.max(p.to)) >= self.players.len())
        {
            return bad("a seat beyond the table");
        }
        let rng = self.rng.build().ok_or(RestoreError::Setup(
            "an RNG this engine does not know".into(),
        ))?;
        st.supply = self
            .supply
            .iter()
            .map(|p| Pile {
                card: p.card,
                count: p.count,
            })
            .collect();
        st.trash = self.trash.clone();
        for (to, from) in st.players.iter_mut().zip(&self.players) {
            *to = PlayerState {
                hand: from.hand.clone(),
                deck: from.deck.clone(),
                discard: from.discard.clone(),
                in_play: from.in_play.clone(),
                aside: from.aside.clone(),
                turns: from.turns,
            };
            // Room for the rest of the game, as setup gives a new game's zones.
            for zone in [&mut to.hand, &mut to.deck, &mut to.discard, &mut to.in_play] {
                zone.reserve(16);
            }
        }
        st.current = PlayerId(self.current);
        let t = &self.turn;
        st.turn = TurnState {
            phase: t.phase,
            actions: t.actions,
            buys: t.buys,
            coins: t.coins,
            bought: t.bought,
            actions_played: t.actions_played,
            merchants: t.merchants,
            silver_played: t.silver_played,
            cost_reduction: t.cost_reduction,
            copper_bonus: t.copper_bonus,
            left_play: t.left_play.clone(),
        };
        st.turn_count = self.turn_count;
        st.game_over = self.game_over;
        st.rng = rng;
        st.passes = self
            .passes
            .iter()
            .map(|p| SecretPass {
                from: PlayerId(p.from),
                to: PlayerId(p.to),
                card: p.card,
            })
            .collect();
        Ok(())
    }
}

impl SnapshotRng {
    fn build(&self) -> Option<ChaCha8Rng> {
        if self.algorithm != CHACHA8 || self.seed.len() != 64 {
            return None;
        }
        let mut seed = [0u8; 32];
        for (i, b) in seed.iter_mut().enumerate() {
            *b = u8::from_str_radix(self.seed.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        let mut rng = ChaCha8Rng::from_seed(seed);
        rng.set_stream(self.stream);
        rng.set_word_pos(self.word_pos.parse().ok()?);
        Some(rng)
    }
}

impl Snapshot {
    /// Where this snapshot's history ends (the next one's starts there).
    pub fn end(&self) -> Mark {
        Mark {
            replies: self.history.from_reply + self.history.numbers.len() as u64,
            events: self.history.from_event + self.history.events.len() as u64,
        }
    }
}
