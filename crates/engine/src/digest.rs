//! The state digest: a stable 64-bit fingerprint of everything that decides the rest of
//! a game, written next to every stored reply so that recovery and replays can prove
//! they rebuilt the same game.
//!
//! Why not hash the serialized state: JSON of the whole struct costs more than applying
//! a reply (6–15 µs), and it changes whenever a field is added or renamed, which would
//! make every stored game of the previous release fail its check after an upgrade. The
//! digest instead feeds a fixed, documented sequence of 64-bit words to a word-wise
//! FNV-1a, allocates nothing, and names cards by their wire keys, not by their place in
//! the card table.
//!
//! **Format, version 1** (docs/storage.md repeats it; changing it needs a new version):
//! `h = 0xcbf29ce484222325`, then for each word `w`: `h = (h ^ w) * 0x100000001b3`
//! (wrapping). A card is the byte-wise FNV-1a 64 of its key (`"great_hall"`). A list is
//! its length, then its items. A bool is 0 or 1. The words, in order:
//! 1. the version (1), the edition (1 or 2);
//! 2. the Supply: its piles as (card, count) pairs, as a list;
//! 3. the trash, as a list of cards;
//! 4. the number of players, then for each player the hand, deck (bottom first),
//!    discard pile (bottom first), cards in play and set-aside cards as lists of cards,
//!    then the turns they have taken;
//! 5. the current player, the phase (0 Action, 1 Buy, 2 Clean-up), actions, buys,
//!    coins, whether a card was bought, Actions played, Merchants played, whether a
//!    Silver was played, the cost reduction, the Copper bonus, and the play numbers
//!    that left play, as a list;
//! 6. the total turn count, whether the game is over;
//! 7. the RNG: its 32-byte seed as 4 little-endian words, its stream, and its word
//!    position as two words (low, high).
//!
//! A later engine adding turn state appends it after these words **only when it is not
//! at its default**, so every state an older engine could reach keeps its digest.

use crate::card::{CardId, Edition};
use crate::state::{Phase, State};
use std::sync::OnceLock;

/// The format version, the first word of every digest.
pub const DIGEST_VERSION: u64 = 1;

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// Word-wise FNV-1a.
struct Words(u64);

impl Words {
    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(PRIME);
    }
    fn flag(&mut self, b: bool) {
        self.word(u64::from(b));
    }
    fn card(&mut self, c: CardId) {
        self.word(card_word(c));
    }
    fn cards(&mut self, cards: &[CardId]) {
        self.word(cards.len() as u64);
        for c in cards {
            self.card(*c);
        }
    }
}

/// Byte-wise FNV-1a 64 of `bytes`.
fn fnv_bytes(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(OFFSET, |h, b| (h ^ u64::from(*b)).wrapping_mul(PRIME))
}

/// A card's word: the hash of its key, computed once per card.
fn card_word(c: CardId) -> u64 {
    static WORDS: OnceLock<Vec<u64>> = OnceLock::new();
    let words = WORDS.get_or_init(|| {
        let mut words = Vec::new();
        for card in CardId::all() {
            let i = card as usize;
            if words.len() <= i {
                words.resize(i + 1, 0);
            }
            words[i] = fnv_bytes(card.key().as_bytes());
        }
        words
    });
    words[c as usize]
}

/// The digest of `st` (format version [`DIGEST_VERSION`]).
pub fn digest(st: &State) -> u64 {
    let mut h = Words(OFFSET);
    h.word(DIGEST_VERSION);
    h.word(match st.edition {
        Edition::First => 1,
        Edition::Second => 2,
    });
    h.word(st.supply.len() as u64);
    for pile in &st.supply {
        h.card(pile.card);
        h.word(u64::from(pile.count));
    }
    h.cards(&st.trash);
    h.word(st.players.len() as u64);
    for pl in &st.players {
        for zone in [&pl.hand, &pl.deck, &pl.discard, &pl.in_play, &pl.aside] {
            h.cards(zone);
        }
        h.word(u64::from(pl.turns));
    }
    let t = &st.turn;
    h.word(u64::from(st.current.0));
    h.word(match t.phase {
        Phase::Action => 0,
        Phase::Buy => 1,
        Phase::Cleanup => 2,
    });
    for n in [t.actions, t.buys, t.coins] {
        h.word(u64::from(n));
    }
    h.flag(t.bought);
    h.word(u64::from(t.actions_played));
    h.word(u64::from(t.merchants));
    h.flag(t.silver_played);
    h.word(u64::from(t.cost_reduction));
    h.word(u64::from(t.copper_bonus));
    h.word(t.left_play.len() as u64);
    for n in &t.left_play {
        h.word(u64::from(*n));
    }
    h.word(u64::from(st.turn_count));
    h.flag(st.game_over);
    for chunk in st.rng.get_seed().chunks_exact(8) {
        h.word(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
    }
    h.word(st.rng.get_stream());
    let pos = st.rng.get_word_pos();
    h.word(pos as u64);
    h.word((pos >> 64) as u64);
    h.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots;
    use crate::game::Game;
    use crate::setup::Setup;
    use rand::RngExt;

    fn first_game() -> Game {
        let setup = Setup {
            players: 2,
            kingdom: crate::setup::Kingdom::Recommended("base_2e/first_game".into()),
            edition: Edition::Second,
        };
        // Under rules 1, whose first decision these pinned values were taken at.
        Game::new_under(&setup, 7, 1).unwrap()
    }

    /// The digest is part of the storage format: these values are what version 1 gives
    /// and must never change (a changed value means stored games would stop verifying).
    #[test]
    fn version_one_values_are_pinned() {
        assert_eq!(fnv_bytes(b""), OFFSET);
        assert_eq!(
            fnv_bytes(b"a"),
            0xaf63_dc4c_8601_ec8c,
            "FNV-1a 64 test vector"
        );
        assert_eq!(card_word(CardId::Copper), fnv_bytes(b"copper"));
        assert_eq!(digest(first_game().state()), 0xd1ff_ddcf_e5fa_8f10);
    }

    type Change = Box<dyn Fn(&mut State)>;

    /// Swaps the first two different cards: same cards, another order.
    fn reorder(cards: &mut [CardId]) {
        let j = cards
            .iter()
            .position(|c| *c != cards[0])
            .expect("two kinds");
        cards.swap(0, j);
    }

    #[test]
    fn every_part_of_the_state_moves_the_digest() {
        let g = first_game();
        let base = digest(g.state());
        let changes: Vec<(&str, Change)> = vec![
            ("edition", Box::new(|s| s.edition = Edition::First)),
            ("supply", Box::new(|s| s.supply[0].count -= 1)),
            ("trash", Box::new(|s| s.trash.push(CardId::Copper))),
            ("hand order", Box::new(|s| reorder(&mut s.players[0].hand))),
            ("deck order", Box::new(|s| reorder(&mut s.players[0].deck))),
            (
                "zone",
                Box::new(|s| {
                    let c = s.players[1].hand.pop().unwrap();
                    s.players[1].discard.push(c);
                }),
            ),
            (
                "aside",
                Box::new(|s| {
                    let c = s.players[1].hand.pop().unwrap();
                    s.players[1].aside.push(c);
                }),
            ),
            ("turns", Box::new(|s| s.players[1].turns += 1)),
            ("current", Box::new(|s| s.current.0 = 1)),
            ("phase", Box::new(|s| s.turn.phase = Phase::Cleanup)),
            ("coins", Box::new(|s| s.turn.coins += 1)),
            ("bought", Box::new(|s| s.turn.bought = true)),
            ("cost", Box::new(|s| s.turn.cost_reduction = 1)),
            ("copper", Box::new(|s| s.turn.copper_bonus = 1)),
            ("left play", Box::new(|s| s.turn.left_play.push(0))),
            ("turn count", Box::new(|s| s.turn_count += 1)),
            ("over", Box::new(|s| s.game_over = true)),
            (
                "rng",
                Box::new(|s| {
                    let _: u32 = s.rng.random();
                }),
            ),
        ];
        for (what, change) in changes {
            let mut st = g.state().clone();
            change(&mut st);
            assert_ne!(digest(&st), base, "{what}");
        }
    }

    #[test]
    fn a_replay_has_the_same_digest_and_play_changes_it() {
        let mut g = first_game();
        let mut agents = [
            bots::by_name("big_money", 1).unwrap(),
            bots::by_name("random", 2).unwrap(),
        ];
        let start = digest(g.state());
        for _ in 0..40 {
            let Some(req) = g.pending().cloned() else {
                break;
            };
            let obs = crate::Observation::for_player(&g, req.player);
            let reply = agents[req.player.idx()].decide(&obs, &req);
            g.reply(req.player, reply).unwrap();
        }
        assert_ne!(digest(g.state()), start);
        let replay = Game::replay(&g.record()).unwrap();
        assert_eq!(digest(replay.state()), digest(g.state()));
    }
}
