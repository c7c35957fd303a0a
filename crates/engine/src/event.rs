//! The event log: everything that happens, with who may see which part.
//!
//! Events are recorded in full; [`Event::for_viewer`] is the one place that decides what
//! a given viewer may see of each (the cards you drew are yours; others see a count).
//!
//! **What others learn.** Discards from the hand (Cellar, Militia, Poacher, Clean-up) are
//! private but carry the count and the discard pile's new top, which lies face up;
//! discards of revealed cards are public. At Clean-up the hand goes *under* the played
//! cards, so the new top is a card everyone saw in play. Harbinger takes the lowest copy
//! of the chosen card (rules 2), so the public top changes only when the card could not
//! have come from below it. A declined Reaction adds no event.

use crate::card::CardId;
use crate::score::Score;
use crate::state::{Phase, PlayerId};
use serde::{Deserialize, Serialize};

/// Who is looking: a seated player, or a spectator who sees only public information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", content = "player", rename_all = "snake_case")]
pub enum Viewer {
    Player(PlayerId),
    Spectator,
}

impl Viewer {
    pub fn is(self, p: PlayerId) -> bool {
        self == Viewer::Player(p)
    }
}

/// Where a gained card goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    Discard,
    Hand,
    Deck,
}

/// The cards of a private card event ([`Event::Drew`], [`Event::Discarded`],
/// [`Event::LookedAt`], [`Event::TopDecked`]): up to 16 kept inline, so that recording a
/// draw or a Clean-up allocates nothing (a recorded game records two such lists a turn,
/// and each was a heap allocation, freed one by one with the game). It dereferences to
/// a slice and serializes as a list, as the `Vec` it replaces did.
pub type CardList = smallvec::SmallVec<[CardId; 16]>;

/// One thing that happened. Fields typed `Option<CardList>` are private to `player`:
/// they are `None` in the copy any other viewer receives, and `count` says how many.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    GameStarted {
        players: u8,
        first: PlayerId,
        kingdom: Vec<CardId>,
    },
    TurnStarted {
        player: PlayerId,
        /// This player's own turn number (1-based).
        turn: u32,
    },
    PhaseStarted {
        player: PlayerId,
        phase: Phase,
    },
    /// Cards moved from the player's deck to their hand.
    Drew {
        player: PlayerId,
        count: usize,
        cards: Option<CardList>,
    },
    /// The player's discard pile was shuffled to form their deck.
    Shuffled {
        player: PlayerId,
    },
    Played {
        player: PlayerId,
        card: CardId,
    },
    /// A card's effect resolves again (Throne Room's second play).
    PlayedAgain {
        player: PlayerId,
        card: CardId,
    },
    Bought {
        player: PlayerId,
        card: CardId,
    },
    Gained {
        player: PlayerId,
        card: CardId,
        to: Destination,
    },
    /// Discarded. When `private` (from hand: Cellar, Militia, cleanup) others learn only
    /// how many and the new `top` of the discard pile; revealed cards are discarded in
    /// the open.
    Discarded {
        player: PlayerId,
        count: usize,
        cards: Option<CardList>,
        /// The discard pile's top card afterwards (public: the pile lies face up).
        top: Option<CardId>,
        private: bool,
    },
    /// The player's whole deck went to their discard pile, unseen (Chancellor): only its
    /// top card, now the discard pile's top, is seen by everyone.
    DeckDiscarded {
        player: PlayerId,
        count: usize,
        /// The discard pile's top card afterwards (public: the pile lies face up).
        #[serde(default)]
        top: Option<CardId>,
    },
    /// Cards set aside face up (Library skipping an Action).
    SetAside {
        player: PlayerId,
        cards: Vec<CardId>,
    },
    /// Revealed or set-aside cards put into the hand (Adventurer's Treasures).
    PutInHand {
        player: PlayerId,
        cards: Vec<CardId>,
    },
    /// The player looked at the top cards of their deck (Sentry); only they see which.
    LookedAt {
        player: PlayerId,
        count: usize,
        cards: Option<CardList>,
    },
    /// A card gained from the trash (Thief) to the discard pile.
    GainedFromTrash {
        player: PlayerId,
        card: CardId,
    },
    Trashed {
        player: PlayerId,
        cards: Vec<CardId>,
    },
    Revealed {
        player: PlayerId,
        cards: Vec<CardId>,
    },
    /// Cards put onto the deck: publicly when revealed (Bureaucrat), else `private`.
    TopDecked {
        player: PlayerId,
        count: usize,
        cards: Option<CardList>,
        private: bool,
    },
    /// A card was named (Wishing Well): said aloud, so public.
    Named {
        player: PlayerId,
        card: CardId,
    },
    /// A card passed from `player`'s hand to `to`'s (Masquerade). Only the two of them
    /// learn which card (`card` is hidden from everyone else); all passes of one
    /// Masquerade are announced together, after everyone has chosen.
    Passed {
        player: PlayerId,
        to: PlayerId,
        card: Option<CardId>,
    },
    /// A player chose modes of a "choose one" card (Pawn, Steward, Nobles, Minion,
    /// Courtier, Lurker; a Torturer victim): public, as the effects are — said so that
    /// the counters they move (Actions, Buys, coins) are explained by an event.
    ModesChosen {
        player: PlayerId,
        card: CardId,
        modes: Vec<crate::decision::Mode>,
    },
    /// A player revealed a Reaction and is unaffected by this Attack.
    Blocked {
        player: PlayerId,
        by: CardId,
    },
    GameEnded {
        scores: Vec<Score>,
    },
}

impl Event {
    /// The player the event is about (who acted or was acted on), if any.
    pub fn player(&self) -> Option<PlayerId> {
        match self {
            Event::GameStarted { .. } | Event::GameEnded { .. } => None,
            Event::TurnStarted { player, .. }
            | Event::PhaseStarted { player, .. }
            | Event::Drew { player, .. }
            | Event::Shuffled { player }
            | Event::Played { player, .. }
            | Event::PlayedAgain { player, .. }
            | Event::Bought { player, .. }
            | Event::Gained { player, .. }
            | Event::Discarded { player, .. }
            | Event::DeckDiscarded { player, .. }
            | Event::SetAside { player, .. }
            | Event::PutInHand { player, .. }
            | Event::LookedAt { player, .. }
            | Event::GainedFromTrash { player, .. }
            | Event::Trashed { player, .. }
            | Event::Revealed { player, .. }
            | Event::TopDecked { player, .. }
            | Event::Named { player, .. }
            | Event::Passed { player, .. }
            | Event::ModesChosen { player, .. }
            | Event::Blocked { player, .. } => Some(*player),
        }
    }

    /// The copy of this event that `viewer` may see.
    pub fn for_viewer(&self, viewer: Viewer) -> Event {
        let mut e = self.clone();
        match &mut e {
            Event::Drew { player, cards, .. }
            | Event::LookedAt { player, cards, .. }
            | Event::Discarded {
                player,
                cards,
                private: true,
                ..
            }
            | Event::TopDecked {
                player,
                cards,
                private: true,
                ..
            } if !viewer.is(*player) => *cards = None,
            Event::Passed { player, to, card } if !viewer.is(*player) && !viewer.is(*to) => {
                *card = None
            }
            _ => {}
        }
        e
    }
    /// Whether the event contains cards hidden from other viewers.
    pub fn has_private_part(&self) -> bool {
        self.for_viewer(Viewer::Spectator) != *self
    }
}
