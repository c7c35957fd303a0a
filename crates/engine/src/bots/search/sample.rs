//! Determinization: a full engine state consistent with what one player knows.
//!
//! Works from [`Knowledge`] alone (never from the state), so a sample cannot depend on a
//! hidden card. The viewer's deck is its unplaced cards shuffled; each other player's
//! hand, deck and discard pile (under the top card everyone sees) are dealt from their
//! unplaced cards at the public sizes. The sample's RNG gets a fresh seed, so later
//! shuffles are not the real ones either.

use crate::card::CardId;
use crate::state::{PlayerState, State};
use crate::view::{Knowledge, SeatKnowledge};
use rand::seq::SliceRandom;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A state drawn at random among those `k`'s viewer cannot tell from the real one.
pub fn determinize(k: &Knowledge, rng: &mut ChaCha8Rng) -> State {
    let players = k.seats.iter().map(|s| seat(s, rng)).collect();
    State {
        edition: k.edition,
        supply: k.supply.clone(),
        trash: k.trash.clone(),
        players,
        current: k.current,
        turn: k.turn.clone(),
        turn_count: k.turn_count,
        game_over: false,
        rng: ChaCha8Rng::seed_from_u64(rng.next_u64()),
        passes: Vec::new(),
        rules: k.rules,
    }
}

fn seat(s: &SeatKnowledge, rng: &mut ChaCha8Rng) -> PlayerState {
    let mut pl = PlayerState {
        in_play: s.in_play.clone(),
        aside: s.aside.clone(),
        turns: s.turns,
        ..PlayerState::default()
    };
    if let (Some(hand), Some(discard)) = (&s.hand, &s.discard) {
        pl.hand = hand.clone();
        pl.discard = discard.clone();
        pl.deck = s.unplaced.clone();
        fit(&mut pl.deck, s.deck_count, rng);
        pl.deck.shuffle(rng);
        return pl;
    }
    let under_top = s.discard_count - usize::from(s.discard_top.is_some());
    let mut pool = s.unplaced.clone();
    fit(&mut pool, s.hand_count + s.deck_count + under_top, rng);
    pool.shuffle(rng);
    pl.hand = pool.split_off(pool.len() - s.hand_count);
    pl.deck = pool.split_off(pool.len() - s.deck_count);
    pl.discard = pool;
    pl.discard.extend(s.discard_top);
    pl
}

/// Makes `pool` exactly `n` cards when public knowledge and the public sizes disagree
/// (a secret Masquerade pass moved a card): drops cards at random, or adds copies of
/// the card the pool holds most of (Copper if it is empty) — the likeliest guesses.
fn fit(pool: &mut Vec<CardId>, n: usize, rng: &mut ChaCha8Rng) {
    while pool.len() > n {
        let at = rng.random_range(0..pool.len());
        pool.swap_remove(at);
    }
    if pool.len() < n {
        let likeliest = most_common(pool).unwrap_or(CardId::Copper);
        pool.resize(n, likeliest);
    }
}

fn most_common(pool: &[CardId]) -> Option<CardId> {
    let mut best: Option<(usize, CardId)> = None;
    for &c in pool {
        let n = pool.iter().filter(|d| **d == c).count();
        if best.is_none_or(|(m, _)| n > m) {
            best = Some((n, c));
        }
    }
    best.map(|(_, c)| c)
}
