//! Small vocabulary shared by both directions: cards, editions, phases, zones.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A card's stable snake_case id, e.g. `"copper"`, `"throne_room"`.
/// `GET /api/cards` lists every id with its name, cost and types.
pub type CardKey = String;

/// Which printing's card texts a game uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Edition {
    /// First edition (2008).
    #[serde(rename = "1e")]
    First,
    /// Second edition (2016), the default.
    #[default]
    #[serde(rename = "2e")]
    Second,
}

/// The phase of the current turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Action,
    Buy,
    Cleanup,
}

/// Where the cards offered by a `choose_cards` prompt are now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Zone {
    Hand,
    Deck,
    Discard,
    InPlay,
    Revealed,
    Trash,
    Supply,
}

/// Why a decision is asked: what will happen to what you choose. With the asking card
/// it is enough to phrase the question ("Cellar: discard any number of cards").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// Your Action phase: play an Action or end the phase.
    ActionPhase,
    /// Your Buy phase: play Treasures, buy, or end the turn.
    BuyPhase,
    Discard,
    Trash,
    Gain,
    /// Put onto your deck.
    TopDeck,
    /// Choose an Action to play more than once (Throne Room).
    PlayTwice,
    /// Reveal a Reaction in answer to an Attack.
    React,
    /// Pick one or more of a card's modes.
    ChooseModes,
    /// Set the chosen card aside (Library: skip the Action card just drawn).
    SetAside,
    /// Play the chosen card (Vassal: the Action card it discarded; uses no Action).
    Play,
    /// Answer yes to put your whole deck into your discard pile (Chancellor).
    DiscardDeck,
    /// Pass the chosen card to the next player (Masquerade); everyone chooses before
    /// anyone receives.
    Pass,
    /// Reveal the chosen card (Courtier: one choice per type it has).
    Reveal,
    /// Name a card (Wishing Well).
    Name,
    /// Where in your deck the card goes: the number of cards above it (Secret Passage).
    PlaceInDeck,
}

/// The printings a random kingdom draws from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum CardPool {
    /// Cards printed in the 1st edition.
    #[serde(rename = "1e")]
    First,
    /// Cards printed in the 2nd edition.
    #[serde(rename = "2e")]
    Second,
    /// Every card of either edition.
    #[serde(rename = "both")]
    Both,
}

/// A set of kingdom cards (one box of the game) a random kingdom may draw from. More
/// sets are more values of this list (additive within protocol v1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CardSet {
    /// Dominion, the base game.
    Base,
    /// Dominion: Intrigue.
    Intrigue,
}

/// An automatch queue (docs/protocol.md, "Automatch").
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum MatchPool {
    /// Rated games of two players.
    #[serde(rename = "2p")]
    TwoPlayers,
    /// Rated games of three or four players.
    #[serde(rename = "3-4p")]
    ThreeFourPlayers,
    /// Unrated games of two players.
    #[serde(rename = "practice")]
    Practice,
    /// The rated bot ladder: bot accounts only.
    #[serde(rename = "bots")]
    Bots,
}

impl MatchPool {
    /// The pool's name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchPool::TwoPlayers => "2p",
            MatchPool::ThreeFourPlayers => "3-4p",
            MatchPool::Practice => "practice",
            MatchPool::Bots => "bots",
        }
    }
}

/// Why an automatch proposal or queue entry ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchCancelReason {
    /// You declined the proposal: you are out of the queue.
    Declined,
    /// You did not accept within `accept_within_ms`: you are out of the queue.
    Timeout,
    /// You left the queue (`cancel_match`).
    Cancelled,
    /// Another player declined or did not answer in time: you are back in the queue,
    /// ahead of everyone who queued after you first did.
    Requeued,
}

/// One labelled option of a "choose one / choose two" card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    PlusCard,
    PlusAction,
    PlusBuy,
    PlusCoin,
    /// +2 Cards (Steward).
    PlusTwoCards,
    /// +3 Cards (Nobles).
    PlusThreeCards,
    /// +2 Actions (Nobles).
    PlusTwoActions,
    /// +$2 (Steward, Minion).
    PlusTwoCoins,
    /// +$3 (Courtier).
    PlusThreeCoins,
    /// Gain a Gold (Courtier).
    GainGold,
    /// Trash 2 cards from your hand (Steward).
    TrashTwo,
    /// Discard your hand and draw 4; every other player with 5+ cards does too (Minion).
    DiscardAndDraw,
    /// Discard 2 cards (Torturer's victim).
    DiscardTwo,
    /// Gain a Curse to your hand (Torturer's victim).
    GainCurse,
    /// Trash an Action card from the Supply (Lurker).
    TrashFromSupply,
    /// Gain an Action card from the trash (Lurker).
    GainFromTrash,
}

/// Where a gained card went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    Discard,
    Hand,
    Deck,
}
