//! Victory points and the winner: every card a player has counts; ties go to the player
//! with fewer turns, else the win is shared.

use crate::card::{CARD_COUNT, CARD_IDS, CardId};
use crate::state::{PlayerId, PlayerState, State};
use serde::{Deserialize, Serialize};

/// One player's final standing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub player: PlayerId,
    pub vp: i32,
    pub turns: u32,
    pub winner: bool,
}

/// What the worth of cards that count other cards depends on: the owner's whole deck.
#[derive(Clone, Copy, Debug, Default)]
pub struct Deck {
    /// Every card the player has.
    pub size: usize,
    /// Duchies among them (Duke).
    pub duchies: usize,
}

/// The VP one copy of `card` is worth in `deck` (Gardens: 1 per full 10 cards; Duke: 1
/// per Duchy). Cards of two types are worth their VP whatever else they are.
pub const fn card_vp(card: CardId, deck: Deck) -> i32 {
    match card {
        CardId::Estate | CardId::GreatHall | CardId::Mill => 1,
        CardId::Harem | CardId::Nobles => 2,
        CardId::Duchy => 3,
        CardId::Province => 6,
        CardId::Curse => -1,
        CardId::Gardens => (deck.size / 10) as i32,
        CardId::Duke => deck.duchies as i32,
        _ => 0,
    }
}

pub fn player_vp(pl: &PlayerState) -> i32 {
    vp_of(pl, None)
}

/// `pl`'s VP if they gained one more `card` (a bot weighing a game-ending gain).
pub fn vp_after_gaining(pl: &PlayerState, card: CardId) -> i32 {
    vp_of(pl, Some(card))
}

/// [`card_vp`] of each card, by `CardId`, in a deck that makes Gardens and Duke worth
/// nothing: what every other card is worth anywhere.
static FIXED_VP: [i8; CARD_COUNT] = {
    let mut t = [0; CARD_COUNT];
    let mut i = 0;
    while i < CARD_COUNT {
        t[i] = card_vp(
            CARD_IDS[i],
            Deck {
                size: 0,
                duchies: 0,
            },
        ) as i8;
        i += 1;
    }
    t
};

/// What one card adds to a [`Tally`]: no branch, so the loops over a zone vectorize.
fn tally(t: &mut Tally, c: CardId) {
    t.fixed += i32::from(FIXED_VP[c as usize]);
    t.gardens += i32::from(c == CardId::Gardens);
    t.dukes += i32::from(c == CardId::Duke);
    t.duchies += usize::from(c == CardId::Duchy);
}

/// A running count for [`vp_of`].
#[derive(Default)]
struct Tally {
    fixed: i32,
    gardens: i32,
    dukes: i32,
    duchies: usize,
}

/// The sum of [`card_vp`] over `pl`'s cards (and `extra`), in one pass: only Gardens and
/// Duke depend on the whole deck, so they are counted and valued once the deck is known.
/// Zone by zone, as a plain loop per slice is cheaper than one chained iterator (bots
/// ask this at every decision that might end the game).
fn vp_of(pl: &PlayerState, extra: Option<CardId>) -> i32 {
    let mut t = Tally::default();
    for zone in [&pl.hand, &pl.deck, &pl.discard, &pl.in_play, &pl.aside] {
        for &c in zone {
            tally(&mut t, c);
        }
    }
    if let Some(c) = extra {
        tally(&mut t, c);
    }
    let deck = Deck {
        size: pl.card_count() + usize::from(extra.is_some()),
        duchies: t.duchies,
    };
    t.fixed + t.gardens * card_vp(CardId::Gardens, deck) + t.dukes * card_vp(CardId::Duke, deck)
}

/// The sum of [`card_vp`] over a deck given as a count per card kind, where a count may
/// be negative: VP as a viewer can know them (see `view::known_vp`), where a card passed
/// secretly still counts for its giver, even once its receiver has passed it on.
pub fn vp_of_counts(counts: &[i32; CARD_COUNT]) -> i32 {
    let fixed: i32 = counts
        .iter()
        .zip(FIXED_VP.iter())
        .map(|(n, vp)| n * i32::from(*vp))
        .sum();
    let count = |c: CardId| counts[c as usize];
    let deck = Deck {
        size: counts.iter().sum::<i32>().max(0) as usize,
        duchies: count(CardId::Duchy).max(0) as usize,
    };
    fixed
        + count(CardId::Gardens) * card_vp(CardId::Gardens, deck)
        + count(CardId::Duke) * card_vp(CardId::Duke, deck)
}

/// Scores and winners for the state as it stands.
pub fn scores(st: &State) -> Vec<Score> {
    let raw: Vec<(i32, u32)> = st
        .players
        .iter()
        .map(|pl| (player_vp(pl), pl.turns))
        .collect();
    let winners = winners(&raw);
    raw.iter()
        .enumerate()
        .map(|(i, &(vp, turns))| Score {
            player: PlayerId(i as u8),
            vp,
            turns,
            winner: winners[i],
        })
        .collect()
}

/// Whether player `i` is among the [`winners`] of `raw`, without building the list.
pub fn is_winner(raw: &[(i32, u32)], i: usize) -> bool {
    let best_vp = raw.iter().map(|r| r.0).max().unwrap_or(0);
    let fewest = raw
        .iter()
        .filter(|r| r.0 == best_vp)
        .map(|r| r.1)
        .min()
        .unwrap_or(0);
    raw[i] == (best_vp, fewest)
}

/// Given (vp, turns) per player: the highest VP wins; among those, fewest turns; the
/// rest share the win.
pub fn winners(raw: &[(i32, u32)]) -> Vec<bool> {
    let best_vp = raw.iter().map(|r| r.0).max().unwrap_or(0);
    let fewest = raw
        .iter()
        .filter(|r| r.0 == best_vp)
        .map(|r| r.1)
        .min()
        .unwrap_or(0);
    raw.iter()
        .map(|&(vp, t)| vp == best_vp && t == fewest)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gardens_count_full_tens_of_all_cards() {
        use CardId::*;
        let mut pl = PlayerState {
            deck: vec![Copper; 36],
            hand: vec![Gardens, Gardens],
            discard: vec![Estate],
            ..PlayerState::default()
        };
        assert_eq!(pl.card_count(), 39);
        assert_eq!(
            player_vp(&pl),
            2 * 3 + 1,
            "39 cards: 3 per Gardens, and the Estate"
        );
        pl.deck.push(Copper);
        assert_eq!(player_vp(&pl), 2 * 4 + 1, "40 cards: 4 each");
        pl.deck.pop();
        assert_eq!(vp_after_gaining(&pl, Copper), 2 * 4 + 1);
        assert_eq!(vp_after_gaining(&pl, Gardens), 3 * 4 + 1);
    }

    #[test]
    fn duke_counts_duchies_and_two_type_cards_are_worth_their_vp() {
        use CardId::*;
        let pl = PlayerState {
            hand: vec![Duke, Duke, Duchy, Duchy, Duchy],
            deck: vec![GreatHall, Mill, Harem, Nobles, Copper],
            ..PlayerState::default()
        };
        // Dukes 2 × 3, Duchies 3 × 3, Great Hall 1, Mill 1, Harem 2, Nobles 2.
        assert_eq!(player_vp(&pl), 6 + 9 + 1 + 1 + 2 + 2);
        assert_eq!(vp_after_gaining(&pl, Duchy), 2 * 4 + 4 * 3 + 6);
        assert_eq!(vp_after_gaining(&pl, Duke), 3 * 3 + 9 + 6);
    }

    /// `card_vp` ends in a catch-all (worth 0): a new Victory card fails here until it
    /// has its line there.
    #[test]
    fn every_victory_card_is_worth_vp_and_no_other_card_but_curse() {
        let deck = Deck {
            size: 47,
            duchies: 3,
        };
        for c in CardId::all() {
            assert_eq!(
                card_vp(c, deck) != 0,
                c.is_victory() || c == CardId::Curse,
                "{c:?}: {} VP",
                card_vp(c, deck)
            );
        }
    }

    #[test]
    fn tiebreak_by_turns_then_shared() {
        assert_eq!(winners(&[(10, 5), (10, 4)]), vec![false, true]);
        for raw in [
            &[(10, 5), (10, 4)][..],
            &[(10, 5), (10, 5), (3, 4)],
            &[(-1, 2), (-3, 2)],
        ] {
            let each: Vec<bool> = (0..raw.len()).map(|i| is_winner(raw, i)).collect();
            assert_eq!(each, winners(raw), "{raw:?}");
        }
        assert_eq!(
            winners(&[(10, 5), (10, 5), (3, 4)]),
            vec![true, true, false]
        );
        assert_eq!(winners(&[(11, 5), (10, 4)]), vec![true, false]);
    }
}
